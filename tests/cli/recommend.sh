# recommend.sh: mbsbatch recommend, black box: every row of the tables of
# notes/megatron-rules.md section 5, the topology and sequence rules, and
# that every answer passes plan with the same layout.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse recommend --json"

# rec ARGS: run recommend ARGS --json, writing its job file too.
rec() {
	rm -f "$tmp/rec.json"
	run recommend "$@" --json -o "$tmp/rec.json"
}

# replan DESC: plan of the job file recommend wrote passes, warnings
# included (--strict), with the layout, the split and the world size
# recommend printed.
replan() {
	"$MBSBATCH" plan "$tmp/rec.json" --strict --json >"$tmp/plan" 2>&1
	st=$?
	want=$("$JQ" -c '[.parallelism, .pipeline_split, .world_size]' "$tmp/out")
	got=$("$JQ" -c '[.parallelism, .pipeline_split, .world_size]' "$tmp/plan" 2>/dev/null)
	if [ "$st" -eq 0 ] && [ "$got" = "$want" ]; then ok; else
		bad "$1: plan of the job file: status $st, $got, want $want: $("$JQ" -r '.findings[]?|.code' "$tmp/plan" 2>/dev/null | tr '\n' ' ')"
	fi
}

# MoE, by model (on B200s: 180 GiB, where every row fits).  The tables
# alone: the megatron-lm template runs no recipe, whose batch would
# make the pipeline idle (recipe.sh has the recipes).
while read -r model tp pp ep; do
	rec --template megatron-lm --model "$model" --seq-length 4096 --gpu-type b200
	expect_status "moe $model" 0
	expect_json "moe $model" '[.parallelism.tp,.parallelism.pp,.parallelism.ep]' "[$tp,$pp,$ep]"
	expect_json "moe $model fits" '[.findings[].code]|index("memory-oom")' 'null'
	replan "moe $model"
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
	run recommend --template megatron-lm --model deepseek-v3 $len --json
	expect_status "moe sp $len" 0
	expect_json "moe sp $len" '[.parallelism.tp,.parallelism.sp,([.findings[].code]|index("moe-tp-needs-sp"))]' '[2,true,null]'
done

# Dense, by size (parameters only; the skill's rule of thumb for memory).
while read -r params tp pp cp gpus; do
	rec --params "$params" --seq-length 1024 --memory-model skill --gpu-type b200
	expect_status "dense $params" 0
	expect_json "dense $params" '[.parallelism.tp,.parallelism.pp,.parallelism.cp,.world_size]' "[$tp,$pp,$cp,$gpus]"
	replan "dense $params"
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
rec --model llama3-70b --gpus 64 --seq-length 4096 --gpu-type h100
expect_status "70b on 64" 0
expect_json "70b on 64" '[.parallelism.tp,.parallelism.pp,.dp,.parallelism.sp]' '[8,4,2,true]'
expect_json "70b on 64 reasons" '.reasons|length>=2' 'true'
replan "70b on 64"

# Topology: Ethernet prefers TP 4 and more PP; TP stays in the domain.
rec --model llama3-70b --gpus 64 --seq-length 4096 --gpu-type h100 --interconnect ethernet
expect_json "ethernet" '[.parallelism.tp,.parallelism.pp]' '[4,8]'
replan "ethernet"
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

# --gpus N: a layout of exactly N GPUs that passes plan (warnings
# included), or why there is none.  The tables' TP 8, PP 4 takes
# multiples of 32 GPUs; the others come from the layouts plan --search
# finds on N.
ns="8 24 48 56 64 96 100"
[ -n "${MBSBATCH_REAL:-}" ] && ns="24 100"
for n in $ns; do
	rec --model llama3-70b --gpus "$n" --seq-length 4096 --gpu-type h100
	if [ "$status" -eq 0 ]; then
		expect_json "gpus $n" '.world_size' "$n"
		replan "gpus $n"
	else
		expect_status "gpus $n: none" 3
		expect_err_prefix "gpus $n: none" "mbsbatch: recommend: --gpus $n: no layout of exactly $n GPUs passes plan: of "
		expect_no_stdout "gpus $n: none"
		if [ ! -e "$tmp/rec.json" ]; then ok; else bad "gpus $n: a job file was written"; fi
	fi
done
rec --model llama3-70b --gpus 48 --seq-length 4096 --gpu-type h100
expect_status "gpus 48" 0
expect_json "gpus 48: why" '.reasons[]|select(test("does not take exactly 48 GPUs"))|length > 0' 'true'
rec --model llama3-70b --gpus 7 --seq-length 4096 --gpu-type h100
expect_status "gpus 7" 3
expect_err "gpus 7" "mbsbatch: recommend: --gpus 7: no layout of exactly 7 GPUs passes plan: of 14 layouts, 2 pass every rule, none fits in 80.0 GiB"
# Without the GPU's memory, memory is not checked, and it says so.
run recommend --model llama3-70b --gpus 7 --seq-length 4096 --json
expect_status "gpus 7, memory unknown" 0
expect_json "gpus 7, memory unknown" '[.world_size, (.reasons[-2]|test("memory not checked"))]' '[7,true]'

# Nothing to go on, and a MoE model without a row: clear errors.
run recommend
expect_status "nothing" 2
expect_err "nothing" "mbsbatch: recommend: needs --model or --params"

# When nothing fits, it says why, fails, and writes no job file.
rec --model kimi-k2 --seq-length 4096 --gpu-memory 16
expect_status "kimi on 16 GiB" 3
expect_json "kimi on 16 GiB" '.reasons[-1]|startswith("no layout from the tables fits")' 'true'
expect_err "kimi on 16 GiB" "mbsbatch: recommend: no job file written: the layout above does not pass plan"
if [ ! -e "$tmp/rec.json" ]; then ok; else bad "kimi on 16 GiB: a job file was written"; fi
# Where the tables' layout does not fit but another on its GPUs does,
# that one.
rec --model kimi-k2 --seq-length 4096 --gpu-memory 40
expect_status "kimi on 40 GiB" 0
expect_json "kimi on 40 GiB" '[.memory.total_gib <= 40, .world_size]' '[true,512]'
replan "kimi on 40 GiB"

# One answer: with Bridge's template the model's recipe runs, its batch
# and sequence included; the job file names the recipe, passes plan with
# no warning (the tables' PP 16 would idle Qwen3 235B's pipeline for
# the recipe's 16 micro-batches: pp-bubble), and gen and submit take it.
# (Under check-valgrind, where a search of 1024 GPUs takes a minute,
# two of them.)
models="llama3-8b llama3-70b qwen3-30b-a3b qwen3-235b-a22b deepseek-v3 gpt-oss-120b"
[ -n "${MBSBATCH_REAL:-}" ] && models="llama3-8b qwen3-235b-a22b"
for model in $models; do
	rec --model "$model" --gpu-type h100
	expect_status "one answer $model" 0
	replan "one answer $model"
	recipe=$("$JQ" -r .bridge.recipe "$tmp/out")
	if "$JQ" -e --arg r "$recipe" '.recipe == $r and ($r | endswith("_pretrain_config"))' "$tmp/rec.json" >/dev/null; then ok; else bad "one answer $model: recipe $recipe not in the job file"; fi
	"$MBSBATCH" gen "$tmp/rec.json" >"$tmp/rec.sbatch" 2>"$tmp/rec.err"
	# No warning (a note, such as logs/ missing here, is not one).
	if [ $? -eq 0 ] && grep -q -- "--recipe $recipe" "$tmp/rec.sbatch" && ! grep -q "warning" "$tmp/rec.err"; then ok; else bad "one answer $model: gen of the job file: $(cat "$tmp/rec.err")"; fi
	"$MBSBATCH" submit "$tmp/rec.json" --dry-run >"$tmp/rec.dry" 2>"$tmp/rec.err"
	if [ $? -eq 0 ] && grep -q -- "--recipe $recipe" "$tmp/rec.dry"; then ok; else bad "one answer $model: submit --dry-run of the job file: $(cat "$tmp/rec.err")"; fi
done
rec --model qwen3-235b-a22b --gpu-type h100
expect_json "one answer: the bubble avoided" '[.reasons[]|select(test("pp-bubble|would idle"))]|length > 0' 'true'

# -o: atomically, not over a file without --force, not to stdout.
printf 'kept\n' >"$tmp/kept.json"
run recommend --model llama3-8b -o "$tmp/kept.json"
expect_status "-o existing" 1
if [ "$(cat "$tmp/kept.json")" = kept ]; then ok; else bad "-o existing: the file changed"; fi
run recommend --model llama3-8b -o "$tmp/kept.json" --force -q
expect_status "-o --force" 0
if [ "$("$JQ" -r .model "$tmp/kept.json")" = llama3-8b ]; then ok; else bad "-o --force: not replaced"; fi
run recommend --model llama3-8b -o -
expect_status "-o -" 2
expect_err "-o -" "mbsbatch: recommend: -o -: the report is on standard output; give -o a file"
run recommend --model llama3-8b --force
expect_status "--force alone" 2
expect_err "--force alone" "mbsbatch: recommend: --force goes with -o FILE"
run recommend --model llama3-8b -o "$tmp/no/such/dir/job.json"
expect_status "-o no dir" 1
if [ ! -e "$tmp/no" ]; then ok; else bad "-o no dir: something was created"; fi

# On the same GPUs Megatron-FSDP comes first: Llama 3 8B at TP 4 on 32
# GPUs of 16 GiB needs 17.9 GiB, with its weights and gradients sharded
# over DP 8 it fits; plan takes the layout back.  Not when the job says
# --no-fsdp.
rec --model llama3-8b --seq-length 4096 --gpu-memory 16 --gpus 32
expect_status "fsdp when it does not fit" 0
expect_json "fsdp when it does not fit" '[.parallelism.fsdp, .memory.total_gib < 16]' '["optim_grads_params",true]'
expect_json "fsdp when it does not fit: why" '.reasons[-1]|test("Megatron-FSDP")' 'true'
replan "fsdp when it does not fit"
run recommend --model llama3-8b --seq-length 4096 --gpu-memory 16 --gpus 32 --no-fsdp --json
expect_json "no-fsdp kept" '.parallelism.fsdp' 'null'

finish
