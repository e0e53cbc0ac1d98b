# estimate.sh: the step-time estimate of plan, plan --search, recommend and
# check-log, black box: every key of the "estimate" object, its numbers
# consistent with each other and with the plan's own figures (tokens/s =
# per GPU x world = DP x micro-batches x micro-batch x sequence / step;
# the step = the sum of its terms), null with a reason when the model
# cannot price the layout, the same estimate from every command.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse plan --json"

# The estimate's keys (mbsbatch-plan(1), ESTIMATE), and its numbers held
# against each other within a relative 1e-9 (JSON reals round-trip).
keys='["accuracy","flops_per_token","fp8_recipe","gpu_type",
 "gpu_type_assumed","interconnect","mfu","microbatches",
 "microbatches_assumed","precision","seconds","site_factor","step_seconds",
 "tflops_per_gpu","tokens_per_second","tokens_per_second_per_gpu",
 "world_size"]'
near='def near($a; $b): (($a - $b) | fabs) <= 1e-9 * ([($a|fabs), ($b|fabs), 1e-300] | max);'
# check-log prints ten significant digits.
near10='def near($a; $b): (($a - $b) | fabs) <= 1e-8 * ([($a|fabs), ($b|fabs), 1e-300] | max);'
sums="$near
.estimate as \$e |
[near(\$e.tokens_per_second; \$e.tokens_per_second_per_gpu * \$e.world_size),
 near(\$e.step_seconds; [\$e.seconds[]] | add),
 near(\$e.tflops_per_gpu; \$e.flops_per_token * \$e.tokens_per_second_per_gpu / 1e12),
 (\$e.seconds | has(\"compute\") and ([.[] | . >= 0] | all)),
 (\$e.step_seconds > 0), (\$e.mfu > 0 and \$e.mfu <= 1)] | all"
# Against the plan's own figures: the world it sized and the tokens of
# one step (DP x micro-batches x micro-batch x sequence).
# (The megatron-lm template: the figures given, no recipe's under them.)
figures="$near
.estimate as \$e |
[(\$e.world_size == .world_size),
 near(\$e.tokens_per_second; .dp * \$e.microbatches * .micro_batch_size *
  .seq_length / \$e.step_seconds)] | all"

dense='--template megatron-lm --model llama3-8b --seq-length 8192 --global-batch-size 128 --gpu-type h100'
run plan $dense --gpus 16 --tp 2 --pp 2 --json
expect_status "dense" 0
expect_no_stderr "dense"
expect_json "dense: keys" ".estimate | keys == ($keys | sort)" 'true'
expect_json "dense: reason" '.estimate_reason' 'null'
expect_json "dense: sums" "$sums" 'true'
expect_json "dense: figures" "$figures" 'true'
expect_json "dense: micro-batches" \
    '[.estimate.microbatches == .global_batch_size / (.dp * .micro_batch_size), .estimate.microbatches_assumed]' '[true,false]'
expect_json "dense: assumed" \
    '[.estimate.gpu_type, .estimate.gpu_type_assumed, .estimate.precision, .estimate.fp8_recipe, .estimate.interconnect, .estimate.site_factor]' \
    '["h100",false,"bf16",null,"ib",1]'
expect_json "dense: accuracy" '.estimate.accuracy | test("calibrated against NVIDIA")' 'true'
cp "$tmp/out" "$tmp/dense.json"

# The text: the same figures, one line, then the terms.
run plan $dense --gpus 16 --tp 2 --pp 2
expect_status "dense text" 0
line=$(awk -v s="$("$JQ" .estimate.step_seconds "$tmp/dense.json")" \
    'BEGIN { printf "estimate      %.2f s/step, ", s }')
expect_out_has "dense text: line" "$line"
m=$("$JQ" .estimate.microbatches "$tmp/dense.json")
expect_out_has "dense text: GPU" "TFLOP/s/GPU, MFU "
expect_out_has "dense text: GPU" "% on h100 (bf16)"
expect_out_has "dense text: compute" "compute "
expect_out_has "dense text: micro-batches" " over $m micro-batches"
expect_out_has "dense text: accuracy" "calibrated against NVIDIA"

# MoE, FP8, no --gpu-type: what the estimate assumed, said.
run plan --template megatron-lm --model qwen3-30b-a3b --seq-length 4096 --gpus 16 --ep 8 --fp8 tensorwise --json
expect_status "moe fp8" 0
expect_json "moe fp8: keys" ".estimate | keys == ($keys | sort)" 'true'
expect_json "moe fp8: sums" "$sums" 'true'
expect_json "moe fp8: figures" "$figures" 'true'
expect_json "moe fp8: assumed" \
    '[.estimate.gpu_type, .estimate.gpu_type_assumed, .estimate.precision, .estimate.fp8_recipe, .estimate.microbatches_assumed]' \
    '["h100",true,"fp8","tensorwise",true]'
run plan --template megatron-lm --model qwen3-30b-a3b --seq-length 4096 --gpus 16 --ep 8 --fp8 tensorwise
expect_out_has "moe fp8 text" "on h100 (assumed: no --gpu-type) (fp8 tensorwise)"
expect_out_has "moe fp8 text: assumed micro-batches" "micro-batches (assumed: no global batch size)"

# No sequence length: no estimate, and why; the plan itself still passes.
run plan --template megatron-lm --model llama3-8b --gpus 8 --tp 2 --json
expect_status "no seq" 0
expect_json "no seq" '[.estimate, (.estimate_reason | test("sequence length"))]' '[null,true]'
run plan --template megatron-lm --model llama3-8b --gpus 8 --tp 2
expect_out_has "no seq text" "estimate      none: needs the model's layers and hidden size and the sequence length"
# A layout with errors has no step to price.
run plan $dense --gpus 12 --tp 8 --json
expect_status "errors" 3
expect_json "errors" '[.estimate, .estimate_reason]' '[null,"the layout has errors (see findings)"]'

# The interconnect reaches plan's own estimate: 32 GPUs on 4 nodes, the
# pipeline's sends across the network, slower over Ethernet than over
# InfiniBand, and faster when one NVLink fabric spans the job.
for ic in ib ethernet nvlink; do
	run plan $dense --gpus 32 --tp 8 --pp 4 --sp --interconnect "$ic" --json
	expect_json "interconnect $ic" '.estimate.interconnect' "\"$ic\""
	expect_json "interconnect $ic: sums" "$sums" 'true'
	"$JQ" .estimate.step_seconds "$tmp/out" >"$tmp/step-$ic"
done
if awk -v ib="$(cat "$tmp/step-ib")" -v eth="$(cat "$tmp/step-ethernet")" \
    -v nvl="$(cat "$tmp/step-nvlink")" 'BEGIN { exit !(eth > ib && nvl < ib) }'; then
	ok
else
	bad "interconnect: steps ib $(cat "$tmp/step-ib"), ethernet $(cat "$tmp/step-ethernet"), nvlink $(cat "$tmp/step-nvlink")"
fi
run plan $dense --gpus 32 --tp 8 --interconnect carrier-pigeon
expect_status "interconnect bad" 2
expect_err "interconnect bad" "mbsbatch: --interconnect: 'carrier-pigeon' is not an interconnect (ib, nvlink or ethernet)"

# --search: each result has the same estimate keys, its own numbers
# consistent, and the very estimate plan gives its layout.
run plan $dense --gpus 16 --search --best 3 --json
expect_status "search" 0
expect_json "search: keys" "[.results[].estimate | keys == ($keys | sort)] | all" 'true'
expect_json "search: reasons" '[.results[].estimate_reason] | unique' '[null]'
expect_json "search: sums" "[.results[] | $sums] | all" 'true'
"$JQ" -r '.results[] | "\(.plan_args)|\(.estimate.step_seconds)|\(.estimate.tflops_per_gpu)"' \
    "$tmp/out" >"$tmp/results"
n=0
while IFS='|' read -r args step tflops; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	run plan $dense $args --json
	expect_json "search result $n: plan's estimate" \
	    "$near [near(.estimate.step_seconds; $step), near(.estimate.tflops_per_gpu; $tflops)] | all" 'true'
done <"$tmp/results"
[ "$n" -eq 3 ] && ok || bad "search: $n results, want 3"
run plan $dense --gpus 16 --search --best 1
expect_out_has "search text" "    estimate "
expect_out_has "search text" " s/step, "

# recommend shows the estimate of the layout it recommends.
run recommend --model llama3-70b --seq-length 8192 --global-batch-size 256 --gpu-type h100 --json
expect_status "recommend" 0
expect_json "recommend: keys" ".estimate | keys == ($keys | sort)" 'true'
expect_json "recommend: sums" "$sums" 'true'
expect_json "recommend: figures" "$figures" 'true'
run recommend --model llama3-70b --seq-length 8192 --global-batch-size 256 --gpu-type h100
expect_out_has "recommend text" "estimate      "

# check-log holds a run against the same estimate plan gives its job.
job="$top_srcdir/tests/data/logs/llama32-1b-tp2pp2.json"
run plan "$job" --json
cp "$tmp/out" "$tmp/job.json"
run check-log "$top_srcdir/tests/data/logs/mlm-success.out" "$job" --json
expect_status "check-log" 0
step=$("$JQ" .estimate.step_seconds "$tmp/job.json")
tflops=$("$JQ" .estimate.tflops_per_gpu "$tmp/job.json")
per=$("$JQ" .estimate.tokens_per_second_per_gpu "$tmp/job.json")
expect_json "check-log: plan's estimate" \
    "$near10 .estimate as \$e | [near(\$e.step_time.estimated_ms; $step * 1000), near(\$e.tflops_per_gpu.estimated; $tflops), near(\$e.tokens_per_second_per_gpu.estimated; $per), \$e.precision == \"bf16\"] | all" 'true'
# Its measured tokens/s per GPU: the job's global batch x sequence over
# the median step, on the job's world.
expect_json "check-log: measured tokens" \
    "$near10 .step_time.median_ms as \$ms | near(.estimate.tokens_per_second_per_gpu.measured; 8 * 4096 / (\$ms / 1000) / 4)" 'true'

finish
