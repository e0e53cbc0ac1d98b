# verify.sh (Slurm): the smoke run of issue 16 on a real cluster.  A
# smoke script mbsbatch writes (megatron-bridge template, 4 tasks on one
# node) runs a stand-in for `python run_recipe.py`: rank 0 prints the
# layout it was given as Bridge does, the last rank prints Megatron's
# iteration lines; what the stand-in does wrong is chosen by MBS_STANDIN.
# submit --smoke --wait must exit with check-log's verdict (0 pass, 3
# fail) through every back end, and status/logs --check judge the ended
# job the same way.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"

work="$tmp/work"
mkdir -p "$work/bin" "$work/logs"
cd "$work" || exit 1

# The stand-in: what Megatron-Bridge prints of the sizes it is given
# (train.py's "> initialized ... with size N" on rank 0, training_log's
# iteration line on the last rank: TFLOP/s only when asked for, no loss
# when it is NaN, as bf16 runs print it), and nothing of a GPU.
cat >bin/python <<'EOF'
#!/bin/sh
tp=1 pp=1 iters=0 tflops=
for a; do
	case $a in
	logger.log_throughput=true) tflops=' throughput per GPU (TFLOP/s/GPU): 118.2 |' ;;
	model.tensor_model_parallel_size=*) tp=${a#*=} ;;
	model.pipeline_model_parallel_size=*) pp=${a#*=} ;;
	train.train_iters=*) iters=${a#*=} ;;
	esac
done
[ "$MBS_STANDIN" = tp ] && tp=1
last=$((WORLD_SIZE - 1))
if [ "$RANK" -eq 0 ]; then
	echo "> initialized tensor model parallel with size $tp"
	echo "> initialized pipeline model parallel with size $pp"
fi
sleep 1
i=1
while [ "$i" -le "$iters" ]; do
	loss=" lm loss: 1.0$((40 - i))000E+01 |"
	[ "$MBS_STANDIN" = nan ] && [ "$i" -eq "$iters" ] && loss=
	if [ "$MBS_STANDIN" = oom ] && [ "$i" -eq 2 ] && [ "$RANK" -eq 1 ]; then
		echo "[rank1]: Traceback (most recent call last):" >&2
		echo "[rank1]:   File \"run_recipe.py\", line 470, in <module>" >&2
		echo "[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.11 GiB of which 1.23 GiB is free." >&2
		exit 1
	fi
	if [ "$RANK" -eq "$last" ]; then
		printf ' [2026-12-02 10:10:1%d] iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): 801.0 |%s learning rate: 1.000000E-04 | global batch size:     8 |%s loss scale: 1.0 | grad norm: 3.200 | number of skipped iterations:   0 | number of nan iterations:   0 |\n' \
		    "$i" "$i" "$iters" $((i * 8)) "$tflops" "$loss"
	fi
	i=$((i + 1))
done
EOF
chmod +x bin/python
PATH=$work/bin:$PATH
export PATH

# smoke VIA MODE [OPTION...]: submit --smoke --wait --json of a TP 2 PP
# 2 job whose stand-in behaves as MODE; its output in $tmp/out, the
# job's id in $id.
smoke() {
	via=$1 mode=$2
	shift 2
	r=
	[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run submit --smoke --wait --json --tp 2 --pp 2 --sp --gpus 8 \
	    --model llama3.2-1b --partition "$MBS_SLURM_PARTITION" \
	    --job-name "smoke-$mode-$via" --env "MBS_STANDIN=$mode" \
	    --via "$via" $r "$@"
	id=$("$JQ" -r '.job_id' "$tmp/out" 2>/dev/null)
}

first=
for via in $(test_vias); do
	[ -n "$first" ] || first=$via
	smoke "$via" ok
	expect_status "pass via $via" 0
	expect_json "pass via $via" '[.check.verdict, .check.iterations.last, .check.iterations.expected, .check.layout.verdict, .check.throughput.tflops_per_gpu, .final[0].state]' \
	    '["pass",3,3,"ok",118.2,"COMPLETED"]'
	log="$work/logs/smoke-ok-$via-$id.out"
	if grep -qx 'mbsbatch: smoke: iterations=3' "$log" &&
	    grep -q '^mbsbatch: layout: world=4 nodes=1 tp=2 pp=2 ' "$log"; then ok; else
		bad "pass via $via: no marker lines in $log: $(head -c 300 "$log")"
	fi
	# The same job judged again, by status and by logs.
	r=
	[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run status "$id" --check --via "$via" $r
	expect_status "status --check via $via" 0
	if head -n 1 "$tmp/out" | grep -q "^job $id: COMPLETED, "; then ok; else bad "status --check via $via: no state first: $(cat "$tmp/out")"; fi
	if grep -qx "$log: pass" "$tmp/out"; then ok; else bad "status --check via $via: no verdict line: $(cat "$tmp/out")"; fi
	run logs "$id" --check --json --via "$via" $r
	expect_status "logs --check via $via" 0
	expect_json "logs --check via $via" '[.verdict, .log]' "[\"pass\",\"$log\"]"
done

# What the stand-in gets wrong, each caught (through one back end: the
# check is the same code whichever sent the job).
smoke "$first" nan
expect_status "NaN at the last iteration" 3
expect_json "NaN at the last iteration" '[.check.verdict, .check.loss.last_finite, .final[0].state]' '["fail",false,"COMPLETED"]'

smoke "$first" tp
expect_status "the run's TP is not the plan's" 3
expect_json "the run's TP is not the plan's" '[.check.verdict, .check.layout.verdict]' '["fail","mismatch"]'

smoke "$first" oom
expect_status "CUDA out of memory on rank 1" 3
expect_json "CUDA out of memory on rank 1" '[.check.verdict, .check.fatal.kind, .check.fatal.rank, .final[0].state]' '["fail","cuda_oom",1,"FAILED"]'
oom=$id
r=
[ "$first" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
run logs "$oom" --check --via "$first" $r
expect_status "logs --check of the OOM" 3
if grep -q 'cuda_oom' "$tmp/out" || grep -qi 'CUDA out of memory' "$tmp/out"; then ok; else bad "logs --check of the OOM: no cause: $(cat "$tmp/out")"; fi

# The traceback in an error file of its own: read after the output.
smoke "$first" oom --error 'logs/%x-%j.err'
expect_status "CUDA out of memory, in the error file" 3
expect_json "CUDA out of memory, in the error file" '[.check.verdict, .check.fatal.kind, .check.fatal.rank]' '["fail","cuda_oom",1]'
if grep -q 'CUDA out of memory' "$work/logs/smoke-oom-$first-$id.err" &&
    ! grep -q 'CUDA out of memory' "$work/logs/smoke-oom-$first-$id.out"; then ok; else
	bad "the error file: the traceback is not there alone"
fi

# A job still running is refused, with the way to wait.
printf '#!/bin/sh\n#SBATCH --partition=%s\n#SBATCH --time=5\nsleep 30\n' \
    "$MBS_SLURM_PARTITION" >long.sh
run submit --script long.sh --parsable --via "$first" $r
long=$(cat "$tmp/out")
run status "$long" --check --via "$first" $r
expect_status "--check of a running job" 1
expect_err_prefix "--check of a running job" "mbsbatch: status: job $long is "
scancel "$long"

finish
