# chain.sh (Slurm): chains that stop and requeues that tell the truth, on
# a real cluster, through every back end (the jobs of all back ends run
# side by side, so the test takes about two minutes):
# - a 3-job chain whose first job fails before its first checkpoint: the
#   other two do not run the program (--chain-on any: each exits at once
#   with its line; --chain-on ok: Slurm cancels them, kill-on-invalid-dep);
#   one that fails after a checkpoint: the next job resumes;
# - cancel --chain on a held 3-job chain cancels all three;
# - a requeued job that reaches its restart limit ends FAILED, exit code 1,
#   its log appended across attempts with a separator line.
# The cluster has no GPU or Python: "python" is a stand-in on PATH (the
# jobs inherit it) that says it ran and then fails, saves a checkpoint and
# fails, or waits for the requeue signal.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"

work="$tmp/work"
mkdir -p "$work/bin"
cd "$work" || exit 1
cat >"$work/bin/python" <<'EOF'
#!/bin/sh
# A stand-in for "python TRAIN_SCRIPT ARGS...": FAKE_MODE fail, ckpt-fail
# (writes Megatron's checkpoint tracker under --save / checkpoint.save
# first) or wait (until the requeue signal, USR1: saved, exit 0).
echo "fake python ran in job $SLURM_JOB_ID"
save=
prev=
for a; do
	[ "$prev" = --save ] && save=$a
	case $a in checkpoint.save=*) save=${a#checkpoint.save=} ;; esac
	prev=$a
done
case ${FAKE_MODE:-} in
fail) exit 1 ;;
ckpt-fail) mkdir -p "$save" && echo 10 >"$save/latest_checkpointed_iteration.txt"; exit 1 ;;
wait) trap 'echo "fake python: saved at the signal"; exit 0' USR1
	sleep 300 &
	wait $! ;;
esac
exit 0
EOF
chmod +x "$work/bin/python"
PATH="$work/bin:$PATH"
export PATH

# A failure of a command that is not mbsbatch (bad shows run's output).
nope() { fail=$((fail + 1)); echo "FAIL: $*"; }

# submit_ids VIA MODE ARGS...: submit with FAKE_MODE=MODE; sets $ids.
submit_ids() {
	v=$1
	FAKE_MODE=$2
	export FAKE_MODE
	shift 2
	r=
	[ "$v" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run submit "$@" --partition "$MBS_SLURM_PARTITION" --gpus 1 \
	    --seq-length 1024 --model llama3.2-1b --json -q --via "$v" $r
	expect_status "$v: submit $*" 0
	ids=$("$JQ" -r '.job_ids|map(tostring)|join(" ")' "$tmp/out")
	unset FAKE_MODE
}

# The two Megatron templates share the logic; each back end tries one.
tmpl() {
	case $1 in
	native) echo "--template megatron-lm" ;;
	*) echo "--template megatron-bridge --recipe llama32_1b_pretrain_config" ;;
	esac
}

# log ID: the job's output file (logs/%x-%j.out, name NAME-VIA).
log() {
	ls logs/*-"$1".out 2>/dev/null | head -n 1
}

vias=$(test_vias)
rq_vias=
for via in $vias; do
	t=$(tmpl "$via")
	# --chain-on any: the first fails at once.
	submit_ids "$via" fail $t --job-name "any-$via" --time 2 \
	    --checkpoint-dir "$work/ck-any-$via" --chain 3
	eval "any_$via=\"$ids\""
	# --chain-on ok: Slurm cancels the rest.
	submit_ids "$via" fail $t --job-name "ok-$via" --time 2 \
	    --checkpoint-dir "$work/ck-ok-$via" --chain 3 --chain-on ok
	expect_json "$via: chain_on" .chain_on '"ok"'
	eval "ok_$via=\"$ids\""
	# A first job that fails after its checkpoint: the second resumes.
	submit_ids "$via" ckpt-fail $t --job-name "ck-$via" --time 2 \
	    --checkpoint-dir "$work/ck-ck-$via" --chain 2
	eval "ck_$via=\"$ids\""
	# A requeue that reaches its limit (1): the signal 50 s before the
	# end of a 1-minute limit (slurmctld sends it within 30 s).  Not
	# through slurmrestd 22.05: its --signal refuses "B:" (get_signal_opts
	# takes it only in a process called sbatch), so the batch shell
	# cannot be signalled that way; mbsbatch says so before sending.
	if [ "$via" = rest ] && [ "${MBS_SLURM_RELEASE:-22.05}" = 22.05 ]; then
		run submit $t --job-name "rq-$via" --time 1 --requeue \
		    --max-restarts 1 --signal USR1@50 \
		    --partition "$MBS_SLURM_PARTITION" --gpus 1 \
		    --seq-length 1024 --model llama3.2-1b -q --via rest \
		    --rest-url "$MBS_REST_URL" --token-file "$MBS_JWT_FILE"
		expect_status "rest: requeue on 22.05" 2
		expect_err_prefix "rest: requeue on 22.05" "mbsbatch: --signal: B: (to the batch shell, as --requeue sends it) is refused by this slurmrestd"
		continue
	fi
	submit_ids "$via" wait $t --job-name "rq-$via" --time 1 \
	    --checkpoint-dir "$work/ck-rq-$via" --requeue --max-restarts 1 \
	    --signal USR1@50
	eval "rq_$via=\"$ids\""
	rq_vias="$rq_vias $via"
done

# cancel --chain on a held chain of three, while the others run.
for via in $vias; do
	r=
	[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	submit_ids "$via" fail $(tmpl "$via") --job-name "held-$via" --time 2 \
	    --chain 3 --hold
	set -- $ids
	run cancel --chain "$1" --via "$via" $r
	expect_status "$via: cancel --chain" 0
	if [ "$(cat "$tmp/out")" = "job $1: cancelled
job $2: cancelled (it waited for job $1)
job $3: cancelled (it waited for job $2)" ]; then ok; else bad "$via: cancel --chain: output"; fi
	for j in "$1" "$2" "$3"; do
		if wait_state "$j" CANCELLED 10; then ok; else nope "$via: cancel --chain: job $j $(job_state "$j")"; fi
	done
	# From the middle, with --json: the second and the third.
	submit_ids "$via" fail $(tmpl "$via") --job-name "held2-$via" --time 2 \
	    --chain 3 --hold
	set -- $ids
	run cancel --chain "$2" --json --via "$via" $r
	expect_status "$via: cancel --chain --json" 0
	expect_json "$via: cancel --chain --json" '[.job_id,.cancelled,[.jobs[].after],.backend]' \
	    "[$2,[$2,$3],[null,$2],\"$via\"]"
	if wait_state "$3" CANCELLED 10 && [ "$(job_state "$1")" = PENDING ]; then ok
	else nope "$via: cancel --chain from the middle: $1 $(job_state "$1"), $3 $(job_state "$3")"; fi
	scancel "$1"
done

for via in $vias; do
	# any: the first failed running the program; the others did not run
	# it, each saying why, and failed too.
	eval "set -- \$any_$via"
	final=$(wait_done "$3" 90)
	if [ "$final" = FAILED ]; then ok; else nope "$via: any: job 3 $final"; fi
	for j in "$1" "$2"; do
		s=$(job_state "$j")
		[ "$s" = FAILED ] && ok || nope "$via: any: job $j $s"
	done
	if grep -q "^fake python ran in job $1\$" "$(log "$1")"; then ok; else nope "$via: any: job 1 did not run the program"; fi
	n=2
	p=$1
	for j in "$2" "$3"; do
		f=$(log "$j")
		if [ -n "$f" ] && grep -qx "mbsbatch: chain segment $n: predecessor $p ended FAILED before its first checkpoint; not starting" "$f"
		then ok; else nope "$via: any: job $j ($n): no line in '$f': $(cat "$f" 2>&1 | head -n 5)"; fi
		if grep -q "^fake python ran" "$f" 2>/dev/null; then nope "$via: any: job $j ran the program"; else ok; fi
		p=$j
		n=$((n + 1))
	done

	# ok: Slurm cancelled the second and third; neither ran.
	eval "set -- \$ok_$via"
	final=$(wait_done "$3" 60)
	if [ "$final" = CANCELLED ]; then ok; else nope "$via: ok: job 3 $final"; fi
	s1=$(job_state "$1")
	s2=$(job_state "$2")
	if [ "$s1" = FAILED ] && [ "$s2" = CANCELLED ]; then ok; else nope "$via: ok: $s1 $s2"; fi
	if scontrol show job "$2" | grep -q 'Reason=DependencyNeverSatisfied'; then ok
	else nope "$via: ok: job 2: $(scontrol show job "$2" | grep -o 'Reason=[^ ]*')"; fi
	if [ -z "$(log "$2")" ] && [ -z "$(log "$3")" ]; then ok; else nope "$via: ok: a log of a cancelled job"; fi

	# A checkpoint was written: the second job ran the program again.
	eval "set -- \$ck_$via"
	final=$(wait_done "$2" 60)
	if [ "$final" = FAILED ]; then ok; else nope "$via: checkpoint: job 2 $final"; fi
	if grep -q "^fake python ran in job $2\$" "$(log "$2")"; then ok; else nope "$via: checkpoint: job 2 did not resume"; fi
done

for via in $rq_vias; do
	# The requeue: two attempts in one log, then FAILED with exit code 1.
	eval "id=\$rq_$via"
	final=$(wait_done "$id" 150)
	if [ "$final" = FAILED ]; then ok; else nope "$via: requeue: $final"; fi
	code=$(scontrol show job "$id" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p')
	rc=$(scontrol show job "$id" | sed -n 's/.* Restarts=\([0-9]*\).*/\1/p')
	if [ "$code" = 1:0 ] && [ "$rc" = 1 ]; then ok; else nope "$via: requeue: exit code '$code', restarts '$rc'"; fi
	f=$(log "$id")
	if [ "$(grep -c "^fake python ran in job $id\$" "$f")" -eq 2 ]; then ok; else nope "$via: requeue: attempts in the log: $(cat "$f")"; fi
	if [ "$(grep -c "^==== mbsbatch: restart 1 of job $id (SLURM_RESTART_COUNT=1, at most 1), " "$f")" -eq 1 ]; then ok
	else nope "$via: requeue: separator: $(cat "$f")"; fi
	if grep -qx "mbsbatch: requeueing job $id" "$f" &&
	    grep -qx "mbsbatch: restart limit 1 reached before the program finished; not requeueing" "$f"
	then ok; else nope "$via: requeue: lines: $(cat "$f")"; fi
	# The separator comes before the second attempt's program.
	if sed -n '/^==== mbsbatch: restart 1 /,$p' "$f" | grep -q "^fake python ran"; then ok; else nope "$via: requeue: order"; fi
done

finish
