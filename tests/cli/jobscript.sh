# jobscript.sh: what the shipped templates' scripts do when they run,
# with stand-ins for Slurm's clients (scontrol, sacct, scancel, srun) on
# PATH: a job of a chain stops at once, with one line, when its
# predecessor failed before its first checkpoint, and starts otherwise;
# a requeued attempt begins with a separator; at the restart limit, or
# when scontrol requeue fails, the script exits 1.  The real-cluster
# side is tests/slurm/chain.sh.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need bash "to run the generated scripts"

fake="$tmp/bin"
mkdir -p "$fake"
# scontrol: "show job -o ID" answers JobState=$FAKE_STATE (unknown job
# without it); "requeue" exits $FAKE_REQUEUE_RC and records the call.
cat >"$fake/scontrol" <<'EOF'
#!/bin/sh
case "$1 $2" in
"show hostnames") printf '%s\n' ${FAKE_NODES:-node0} ;;
"show node") exit 0 ;;
update*) echo "update $2 $3" >>"$FAKE_LOG" ;;
"show job")
	[ -n "${FAKE_STATE:-}" ] || { echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1; }
	echo "JobId=$4 JobName=x UserId=root(0) GroupId=root(0) Priority=1 JobState=$FAKE_STATE Reason=None Dependency=(null) StartTime=${FAKE_START:-Unknown} EndTime=Unknown" ;;
requeue*) echo "requeue $2" >>"$FAKE_LOG"; exit "${FAKE_REQUEUE_RC:-0}" ;;
*) exit 1 ;;
esac
EOF
# sacct: prints $FAKE_SACCT, as -n -P -o State does.
cat >"$fake/sacct" <<'EOF'
#!/bin/sh
[ -n "${FAKE_SACCT:-}" ] && echo "$FAKE_SACCT"
exit 0
EOF
cat >"$fake/scancel" <<'EOF'
#!/bin/sh
echo "scancel $*" >>"$FAKE_LOG"
EOF
# squeue: no job waits for this one.
cat >"$fake/squeue" <<'EOF'
#!/bin/sh
exit 0
EOF
# srun: the node gate's step answers for each node of $FAKE_NODES, the
# one named by $FAKE_GATE_BAD failing; else the program ran (the step),
# for $FAKE_SLEEP seconds.
cat >"$fake/srun" <<'EOF'
#!/bin/sh
case " $* " in
*" mbsbatch-gate "*)
	echo "srun gate" >>"$FAKE_LOG"
	for n in ${FAKE_NODES:-node0}; do
		if [ "$n" = "${FAKE_GATE_BAD:-}" ]; then
			echo "mbsbatch: gate: $n: failed: GPU 3: ecc.errors.uncorrected.volatile.total 5"
		else
			echo "mbsbatch: gate: $n: ok (8 x NVIDIA H100 80GB HBM3)"
		fi
	done
	exit 1 ;;
esac
echo "srun ran" >>"$FAKE_LOG"
echo "srun ran"
sleep "${FAKE_SLEEP:-0}"
EOF
chmod +x "$fake"/*

ck="$tmp/ck"
mkdir -p "$ck"
log="$tmp/calls"

# runjob SCRIPT VAR=VALUE...: run SCRIPT as Slurm would, with the stand-ins
# first on PATH; sets $status, $tmp/out, $tmp/err; $log lists the calls.
# Each run is a new job: what the resilience section keeps (beside the
# log, here unknown: in SLURM_SUBMIT_DIR) starts empty.
fresh() {
	[ -z "${KEEP_JOB:-}" ] || return 0
	rm -rf "$tmp/job"
	mkdir "$tmp/job"
}

runjob() {
	s=$1
	shift
	: >"$log"
	fresh
	env -i PATH="$fake:/usr/bin:/bin" SLURM_JOB_ID=124 SLURM_JOB_NODELIST=node0 \
	    SLURM_SUBMIT_DIR="$tmp/job" \
	    FAKE_LOG="$log" "$@" bash "$s" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}

expect_ran() {
	if grep -qx "srun ran" "$log"; then ok; else bad "$1: the program did not run"; fi
}

expect_not_ran() {
	if grep -qx "srun ran" "$log"; then bad "$1: the program ran"; else ok; fi
}

for t in megatron-bridge megatron-lm; do
	run gen --template "$t" --model llama3.2-1b --recipe llama32_1b_pretrain_config \
	    --seq-length 1024 --gpus 8 --checkpoint-dir "$ck" -o "$tmp/$t.sbatch"
	expect_status "$t: gen" 0
	run gen --template "$t" --model llama3.2-1b --recipe llama32_1b_pretrain_config \
	    --seq-length 1024 --gpus 8 -o "$tmp/$t-nockpt.sbatch"
	j=$tmp/$t.sbatch
	chain="MBSBATCH_CHAIN_PREV=123 MBSBATCH_CHAIN_SEGMENT=2"

	# Not in a chain: no question asked.
	runjob "$j"
	expect_status "$t: alone" 0
	expect_ran "$t: alone"
	expect_no_stderr "$t: alone"

	# The predecessor failed before its first checkpoint: one line, exit 1.
	for st in FAILED NODE_FAIL OUT_OF_MEMORY; do
		runjob "$j" $chain FAKE_STATE=$st
		expect_status "$t: after $st" 1
		expect_err "$t: after $st" "mbsbatch: chain segment 2: predecessor 123 ended $st before its first checkpoint; not starting"
		expect_not_ran "$t: after $st"
	done
	# Slurm's ordinary ends of a training segment: it resumes.
	for st in TIMEOUT PREEMPTED COMPLETED CANCELLED BOOT_FAIL; do
		runjob "$j" $chain FAKE_STATE=$st
		expect_status "$t: after $st" 0
		expect_ran "$t: after $st"
		expect_no_stderr "$t: after $st"
	done
	# slurmctld forgot it: accounting answers ("CANCELLED by 0" included).
	runjob "$j" $chain FAKE_SACCT=FAILED
	expect_status "$t: sacct FAILED" 1
	expect_err "$t: sacct FAILED" "mbsbatch: chain segment 2: predecessor 123 ended FAILED before its first checkpoint; not starting"
	runjob "$j" $chain FAKE_SACCT="CANCELLED by 0"
	expect_status "$t: sacct CANCELLED" 0
	expect_ran "$t: sacct CANCELLED"
	# Nobody knows: it starts, and says so.
	runjob "$j" $chain
	expect_status "$t: unknown" 0
	expect_ran "$t: unknown"
	expect_err "$t: unknown" "mbsbatch: chain segment 2: how predecessor 123 ended is not known (neither slurmctld nor accounting has it); starting"
	# Failed after a checkpoint: it resumes from it.
	for f in latest_checkpointed_iteration.txt latest_train_state.pt; do
		touch "$ck/$f"
		runjob "$j" $chain FAKE_STATE=FAILED
		expect_status "$t: failed after $f" 0
		expect_ran "$t: failed after $f"
		# ... saved since the predecessor started (slurmctld's
		# StartTime, in seconds: SLURM_TIME_FORMAT=%s).
		runjob "$j" $chain FAKE_STATE=FAILED FAKE_START=$(($(date +%s) - 60))
		expect_status "$t: failed after its own $f" 0
		expect_ran "$t: failed after its own $f"
		# A checkpoint older than the predecessor (an earlier job's):
		# it failed before its first.
		runjob "$j" $chain FAKE_STATE=FAILED FAKE_START=$(($(date +%s) + 60))
		expect_status "$t: failed with only an older $f" 1
		expect_err "$t: failed with only an older $f" "mbsbatch: chain segment 2: predecessor 123 ended FAILED before its first checkpoint; not starting"
		expect_not_ran "$t: failed with only an older $f"
		rm -f "$ck/$f"
	done
	# With --chain-on notok a job runs because its predecessor failed.
	runjob "$j" $chain MBSBATCH_CHAIN_ON=notok FAKE_STATE=FAILED
	expect_status "$t: notok after FAILED" 0
	expect_ran "$t: notok after FAILED"
	# No checkpoint directory: nothing to resume from.
	runjob "$tmp/$t-nockpt.sbatch" $chain FAKE_STATE=NODE_FAIL
	expect_status "$t: no --checkpoint-dir" 1
	expect_err "$t: no --checkpoint-dir" "mbsbatch: chain segment 2: predecessor 123 ended NODE_FAIL and no checkpoint directory is set (--checkpoint-dir) to resume from; not starting"
	expect_not_ran "$t: no --checkpoint-dir"
done

# A checkpoint directory inside the container is looked for at its mount's
# source: the batch shell runs outside.
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --gpus 8 \
    --checkpoint-dir /ckpt/run1 --container-image img \
    --container-mounts "/data:/data,$ck:/ckpt:rw"
if grep -qF -e "for f in $ck/run1/latest_checkpointed_iteration.txt" \
    -e "for f in '$ck/run1'/latest_checkpointed_iteration.txt" "$tmp/out"; then ok
else bad "container: the checkpoint is not looked for under $ck"; fi
expect_out_has "container: the program's own path" "	/ckpt/run1"

# Requeue.  signal ATTEMPT VAR=VALUE...: run the requeue script as attempt
# ATTEMPT (SLURM_RESTART_COUNT), send it the signal once the program runs.
signal() {
	a=$1
	shift
	: >"$log"
	fresh
	env -i PATH="$fake:/usr/bin:/bin" SLURM_JOB_ID=124 SLURM_JOB_NODELIST=node0 \
	    SLURM_SUBMIT_DIR="$tmp/job" \
	    SLURM_RESTART_COUNT="$a" FAKE_LOG="$log" FAKE_SLEEP=1 "$@" \
	    bash "$tmp/rq.sbatch" >"$tmp/out" 2>"$tmp/err" </dev/null &
	p=$!
	i=0
	while ! grep -q "srun ran" "$log" && [ "$i" -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -USR2 "$p"
	wait "$p"
	status=$?
}

for t in megatron-bridge megatron-lm command; do
	run gen --template "$t" --model llama3.2-1b --recipe llama32_1b_pretrain_config \
	    --seq-length 1024 --gpus 8 --command true --requeue --signal USR2@90 \
	    --max-restarts 2 --checkpoint-dir "$ck" --force -o "$tmp/rq.sbatch"
	expect_status "$t: requeue gen" 0
	# The first attempt, signalled: it requeues itself, no separator.
	signal 0
	expect_status "$t: attempt 0" 0
	if grep -qx "requeue 124" "$log"; then ok; else bad "$t: attempt 0 did not requeue: $(cat "$log")"; fi
	expect_out_lacks "$t: attempt 0" "==== mbsbatch: restart"
	# The second: a separator on the output, and on the error (another file).
	signal 1
	expect_status "$t: attempt 1" 0
	if head -n 1 "$tmp/out" | grep -q '^==== mbsbatch: restart 1 of job 124 (SLURM_RESTART_COUNT=1, at most 2), [0-9-]* [0-9:]* ====$'; then ok; else bad "$t: attempt 1: no separator first on stdout"; fi
	if head -n 1 "$tmp/err" | grep -q '^==== mbsbatch: restart 1 of job 124 '; then ok; else bad "$t: attempt 1: no separator first on stderr"; fi
	# Out of restarts before the program finished: exit 1, no requeue.
	signal 2
	expect_status "$t: attempt 2 (the limit)" 1
	if grep -q "^requeue" "$log"; then bad "$t: requeued past the limit"; else ok; fi
	if grep -qx "mbsbatch: restart limit 2 reached before the program finished; not requeueing" "$tmp/err"; then ok; else bad "$t: limit: no line"; fi
	# scontrol requeue refused: exit 1 with a line.
	signal 1 FAKE_REQUEUE_RC=1
	expect_status "$t: requeue refused" 1
	if grep -qx "mbsbatch: scontrol requeue 124 failed; the job ends here, unfinished" "$tmp/err"; then ok; else bad "$t: requeue refused: no line"; fi
	# The output and the error in one file: the separator once.
	: >"$log"
	fresh
	env -i PATH="$fake:/usr/bin:/bin" SLURM_JOB_ID=124 SLURM_JOB_NODELIST=node0 \
	    SLURM_SUBMIT_DIR="$tmp/job" SLURM_RESTART_COUNT=1 FAKE_LOG="$log" bash "$tmp/rq.sbatch" >"$tmp/both" 2>&1 </dev/null
	if [ "$(grep -c '^==== mbsbatch: restart 1 of job 124 ' "$tmp/both")" -eq 1 ]; then ok; else bad "$t: one log: the separator $(grep -c '^====' "$tmp/both") times"; fi
done

# The node gate (on for several nodes): a node that fails it is named,
# left out, and the job requeued without it; the training never starts.
for t in megatron-bridge megatron-lm; do
	run gen --template "$t" --model llama3.2-1b --recipe llama32_1b_pretrain_config \
	    --seq-length 1024 --gpus 16 --requeue --signal USR2@90 \
	    --checkpoint-dir "$ck" --force -o "$tmp/gate.sbatch"
	expect_status "$t: gate gen" 0
	runjob "$tmp/gate.sbatch" SLURM_JOB_NUM_NODES=2 FAKE_NODES="node0 node1" \
	    FAKE_GATE_BAD=node1
	expect_status "$t: gate" 0
	expect_not_ran "$t: gate"
	if [ "$(cat "$log")" = "srun gate
requeue 124
update JobId=124 ExcNodeList=node1" ]; then ok; else bad "$t: gate: calls: $(cat "$log")"; fi
	if grep -qx "mbsbatch: gate: node1 failed: GPU 3: ecc.errors.uncorrected.volatile.total 5" "$tmp/err" &&
	    grep -qx "mbsbatch: gate: requeueing job 124 without node1 (restart 1 of 3)" "$tmp/err"
	then ok; else bad "$t: gate: lines: $(cat "$tmp/err")"; fi
	if [ "$(cat "$tmp/job/mbsbatch-124.nodes")" = "node1 job 124: gate: GPU 3: ecc.errors.uncorrected.volatile.total 5" ]
	then ok; else bad "$t: gate: nodes file: $(cat "$tmp/job/mbsbatch-124.nodes")"; fi
	# Both pass: the program runs.
	runjob "$tmp/gate.sbatch" SLURM_JOB_NUM_NODES=2 FAKE_NODES="node0 node1"
	expect_status "$t: gate passed" 0
	expect_ran "$t: gate passed"
	expect_out_has "$t: gate passed" "mbsbatch: gate: 2 nodes passed"
	# A second node lost (one is allowed for 2 nodes): the run stops.
	printf 'node7 job 100: gate: no answer within 60 s\n' >"$tmp/job/mbsbatch-124.nodes"
	KEEP_JOB=1 runjob "$tmp/gate.sbatch" SLURM_JOB_NUM_NODES=2 \
	    FAKE_NODES="node0 node1" FAKE_GATE_BAD=node1
	expect_status "$t: nodes lost" 78
	expect_not_ran "$t: nodes lost"
	if grep -qx "mbsbatch: 2 nodes lost (node1,node7), more than the 1 allowed; stopping" "$tmp/err"
	then ok; else bad "$t: nodes lost: $(cat "$tmp/err")"; fi
	if grep -q "^requeue" "$log"; then bad "$t: nodes lost: requeued"; else ok; fi
	# --no-gate: no gate step.
	run gen --template "$t" --model llama3.2-1b --recipe llama32_1b_pretrain_config \
	    --seq-length 1024 --gpus 16 --no-gate --force -o "$tmp/nogate.sbatch"
	runjob "$tmp/nogate.sbatch" SLURM_JOB_NUM_NODES=2 FAKE_NODES="node0 node1" \
	    FAKE_GATE_BAD=node1
	expect_status "$t: --no-gate" 0
	expect_ran "$t: --no-gate"
	if grep -q "srun gate" "$log"; then bad "$t: --no-gate: the gate ran"; else ok; fi
done

# Each node's checks, run as the gate's step runs them (bash -c SCRIPT
# mbsbatch-gate GPUS TYPE SECONDS), against a stand-in nvidia-smi that
# answers $FAKE_SMI_NAME x $FAKE_SMI_N and $FAKE_SMI_FIELD for one field.
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --gpus 16 \
    --force -o "$tmp/gate.sbatch"
sed -n "/<<'MBSBATCH_GATE'\$/,/^MBSBATCH_GATE\$/p" "$tmp/gate.sbatch" | sed '1d;$d' >"$tmp/gate-node.sh"
smi="$tmp/smi"
mkdir -p "$smi"
cat >"$smi/nvidia-smi" <<'EOF'
#!/bin/sh
q=
for a; do case $a in --query-gpu=*) q=${a#--query-gpu=} ;; esac; done
i=0
while [ $i -lt "${FAKE_SMI_N:-8}" ]; do
	case $q in
	name) echo "${FAKE_SMI_NAME:-NVIDIA H100 80GB HBM3}" ;;
	"index,${FAKE_SMI_FIELD:-none}") echo "$i, ${FAKE_SMI_VALUE:-No}" ;;
	index,*) echo "$i, [N/A]" ;;
	esac
	i=$((i + 1))
done
EOF
chmod +x "$smi/nvidia-smi"
# gate_node WANT PATH VAR=VALUE...: one node's answer.
gate_node() {
	w=$1 p=$2
	shift 2
	env -i PATH="$p" SLURMD_NODENAME=node0 "$@" \
	    bash -c "$(cat "$tmp/gate-node.sh")" mbsbatch-gate 8 "$w" 5 2>&1
}
while IFS='|' read -r want path vars answer; do
	[ -n "$want$path" ] || continue
	[ "$want" = - ] && want=
	eval "p=$path"
	got=$(eval "gate_node \"\$want\" \"\$p\" $vars")
	if [ "$got" = "$answer" ]; then ok; else bad "gate node ($want $vars): '$got', want '$answer'"; fi
done <<'EOF'
-|$smi:/usr/bin:/bin||mbsbatch: gate: node0: ok (8 x NVIDIA H100 80GB HBM3)
h100|$smi:/usr/bin:/bin||mbsbatch: gate: node0: ok (8 x NVIDIA H100 80GB HBM3)
-|/usr/bin:/bin||mbsbatch: gate: node0: ok (no nvidia-smi: GPUs not checked)
-|$smi:/usr/bin:/bin|FAKE_SMI_N=7|mbsbatch: gate: node0: failed: 7 GPUs visible, 8 asked
h100|$smi:/usr/bin:/bin|FAKE_SMI_NAME=NVIDIA-A100-SXM4-80GB|mbsbatch: gate: node0: failed: a GPU is not a h100: NVIDIA-A100-SXM4-80GB
b200|$smi:/usr/bin:/bin|FAKE_SMI_NAME=NVIDIA-GB200|mbsbatch: gate: node0: failed: a GPU is not a b200: NVIDIA-GB200
-|$smi:/usr/bin:/bin|FAKE_SMI_FIELD=retired_pages.pending FAKE_SMI_VALUE=Yes|mbsbatch: gate: node0: failed: GPU 0: retired_pages.pending Yes
-|$smi:/usr/bin:/bin|FAKE_SMI_FIELD=remapped_rows.failure FAKE_SMI_VALUE=Yes|mbsbatch: gate: node0: failed: GPU 0: remapped_rows.failure Yes
-|$smi:/usr/bin:/bin|FAKE_SMI_FIELD=ecc.errors.uncorrected.volatile.total FAKE_SMI_VALUE=2|mbsbatch: gate: node0: failed: GPU 0: ecc.errors.uncorrected.volatile.total 2
-|$smi:/usr/bin:/bin|FAKE_SMI_FIELD=ecc.errors.uncorrected.volatile.total FAKE_SMI_VALUE=0|mbsbatch: gate: node0: ok (8 x NVIDIA H100 80GB HBM3)
EOF

finish
