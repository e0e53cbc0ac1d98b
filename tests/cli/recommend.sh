# recommend.sh: mbsbatch recommend, black box: every row of the tables of
# notes/megatron-rules.md section 5, the topology and sequence rules, and
# that every answer passes plan with the same layout.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse recommend --json"

# Run plan on the layout recommend printed in $tmp/out: it must pass.
replan() {
	args=$("$JQ" -r '.parallelism | "--tp \(.tp) --pp \(.pp) --cp \(.cp) --ep \(.ep) --etp \(.etp) --vpp \(.vpp) " + (if .sp then "--sp" else "--no-sp" end)' "$tmp/out")
	split=$("$JQ" -r '.world_size as $w | "--gpus \($w)"' "$tmp/out")
	# shellcheck disable=SC2086
	"$MBSBATCH" plan $args $split "$@" >"$tmp/plan" 2>&1
	if [ $? -eq 0 ]; then ok; else bad "plan $args $split $*: $(cat "$tmp/plan" | tail -3)"; fi
}

# MoE, by model (on B200s: 180 GiB, where every row fits).
while read -r model tp pp ep; do
	run recommend --model "$model" --seq-length 4096 --gpu-type b200 --json
	expect_status "moe $model" 0
	expect_json "moe $model" '[.parallelism.tp,.parallelism.pp,.parallelism.ep]' "[$tp,$pp,$ep]"
	expect_json "moe $model fits" '[.findings[].code]|index("memory-oom")' 'null'
	replan --model "$model" --seq-length 4096 --gpu-type b200 \
	    $("$JQ" -r '.reasons[]|capture("(?<f>[0-9]+) on the first stage, (?<l>[0-9]+) on the last")? | "--num-layers-in-first-pipeline-stage \(.f) --num-layers-in-last-pipeline-stage \(.l)"' "$tmp/out")
done <<'TABLE'
olmoe-7b 1 1 8
moonlight-16b 2 1 8
deepseek-v2 1 4 32
glm-4.5-air 1 4 8
qwen3-30b-a3b 4 2 4
glm-4.5 2 8 16
qwen3-235b-a22b 4 16 8
deepseek-v3 2 16 64
kimi-k2 2 16 32
TABLE

# A MoE model with TP > 1 gets SP whatever the length (Megatron-Core
# refuses MoE training with TP and no SP): without --seq-length, and under
# 2K, its own layout once failed plan with moe-tp-needs-sp.
for len in "" "--seq-length 1024"; do
	# shellcheck disable=SC2086
	run recommend --model deepseek-v3 $len --json
	expect_status "moe sp $len" 0
	expect_json "moe sp $len" '[.parallelism.tp,.parallelism.sp,([.findings[].code]|index("moe-tp-needs-sp"))]' '[2,true,null]'
done

# Dense, by size (parameters only; the skill's rule of thumb for memory).
while read -r params tp pp cp gpus; do
	run recommend --params "$params" --seq-length 1024 --memory-model skill --gpu-type b200 --json
	expect_status "dense $params" 0
	expect_json "dense $params" '[.parallelism.tp,.parallelism.pp,.parallelism.cp,.world_size]' "[$tp,$pp,$cp,$gpus]"
	replan --params "$params" --seq-length 1024 --memory-model skill --gpu-type b200
done <<'TABLE'
500M 1 1 1 8
3B 2 1 1 8
8B 4 1 1 16
30B 4 2 1 16
70B 8 4 1 64
150B 8 4 1 64
250B 8 8 2 256
405B 8 16 2 512
TABLE

# The worked example: 70B dense on 64 GPUs -> TP 8, PP 4, DP 2.
run recommend --model llama3-70b --gpus 64 --seq-length 4096 --gpu-type h100 --json
expect_status "70b on 64" 0
expect_json "70b on 64" '[.parallelism.tp,.parallelism.pp,.dp,.parallelism.sp]' '[8,4,2,true]'
expect_json "70b on 64 reasons" '.reasons|length>=2' 'true'
replan --model llama3-70b --seq-length 4096 --gpu-type h100

# Topology: Ethernet prefers TP 4 and more PP; TP stays in the domain.
run recommend --model llama3-70b --gpus 64 --seq-length 4096 --gpu-type h100 --interconnect ethernet --json
expect_json "ethernet" '[.parallelism.tp,.parallelism.pp]' '[4,8]'
replan --model llama3-70b --seq-length 4096 --gpu-type h100
run recommend --model llama3-70b --gpus 64 --seq-length 4096 --gpus-per-node 4 --json
expect_json "domain of 4" '[.parallelism.tp,.parallelism.pp]' '[4,8]'
run recommend --model llama3-70b --interconnect token-ring
expect_status "bad interconnect" 2
expect_err "bad interconnect" "mbsbatch: --interconnect: 'token-ring' is not an interconnect (ib, nvlink or ethernet)"

# Sequence length: SP from 2K, CP 2 from 8K, CP 4 from 32K.
while read -r seq sp cp; do
	run recommend --model llama3-8b --seq-length "$seq" --json
	expect_json "seq $seq" '[.parallelism.sp,.parallelism.cp]' "[$sp,$cp]"
done <<'TABLE'
1024 false 1
4096 true 1
16384 true 2
65536 true 4
TABLE

# The layout is recommend's to choose: given, it is refused, not replaced.
run recommend --model llama3-8b --tp 4
expect_status "tp given" 2
expect_err "tp given" "mbsbatch: --tp: recommend chooses the layout; check your own with plan"
run recommend --model llama3-8b --nodes 2
expect_status "nodes given" 2
expect_err "nodes given" "mbsbatch: --nodes: recommend chooses the layout and its GPUs (give --gpus to fix them); check your own with plan"

# A GPU count the tables' layout cannot use: said, and exit 3.
run recommend --model llama3-70b --gpus 7 --seq-length 4096 --json
expect_status "gpus 7" 3
expect_json "gpus 7" '.reasons[-1]' '"the tables'"'"' layout needs a multiple of 32 GPUs; --gpus 7 is not one"'

# Nothing to go on, and a MoE model without a row: clear errors.
run recommend
expect_status "nothing" 2
expect_err "nothing" "mbsbatch: recommend: needs --model or --params"

# When nothing fits, it says why and fails.
run recommend --model kimi-k2 --seq-length 4096 --gpu-memory 40 --json
expect_status "kimi on 40 GiB" 3
expect_json "kimi on 40 GiB" '.reasons[-1]|startswith("no layout from the tables fits")' 'true'

# On the same GPUs Megatron-FSDP comes first: Llama 3 8B at TP 4 on 32
# GPUs of 16 GiB needs 17.9 GiB, with its weights and gradients sharded
# over DP 8 it fits; plan takes the layout back.  Not when the job says
# --no-fsdp.
run recommend --model llama3-8b --seq-length 4096 --gpu-memory 16 --gpus 32 --json
expect_status "fsdp when it does not fit" 0
expect_json "fsdp when it does not fit" '[.parallelism.fsdp, .memory.total_gib < 16]' '["optim_grads_params",true]'
expect_json "fsdp when it does not fit: why" '.reasons[-1]|test("Megatron-FSDP")' 'true'
replan --model llama3-8b --seq-length 4096 --gpu-memory 16 --fsdp --strict
run recommend --model llama3-8b --seq-length 4096 --gpu-memory 16 --gpus 32 --no-fsdp --json
expect_json "no-fsdp kept" '.parallelism.fsdp' 'null'

finish
