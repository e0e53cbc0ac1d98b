# resilience.sh (Slurm): the Megatron templates' node gate, hang
# watchdog, restarts that leave blamed nodes out, and the stall stop, on
# a real cluster (one back end: sbatch; the jobs run side by side, about
# a minute in all):
# - gate: a 6-job 2-node chain (megatron-lm) whose first job lands on a
#   node whose GPUs report uncorrected ECC errors: the gate names it and
#   that job ends asking for a restart (75); the other five each crash
#   after a checkpoint (5 injected failures) and none of them runs on
#   the bad node (each is excluded from it);
# - hang: a 2-job 2-node chain (megatron-bridge, --no-gate, --hang-timeout
#   3, the error in another file) whose first job logs 1-second steps and
#   then hangs, the ranks of its second node silently, the others saying
#   on the error (as PyTorch's watchdog does) that they waited: the hang
#   is found within max(3 x step, floor) + 2 s (its polls) of the last
#   iteration line, every rank is gone within 60 s, the silent node is
#   blamed, and the next job runs without it;
# - slow: a job logging every 10 iterations, 4 s apart, with a floor of
#   1 s, is no hang;
# - stall: a 5-job chain (--stall-restarts 2) whose jobs save the same
#   checkpoint and crash: the fourth stops with exit status 76 and its
#   line, the fifth does not start;
# - requeue: a 2-node --requeue job that fails the gate on mbsnode1 is
#   requeued and waits with mbsnode1 in its ExcNodeList.
# The cluster has no GPU or Python: "nvidia-smi" and "python" are
# stand-ins on PATH (the jobs inherit it).
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"

work="$tmp/work"
mark="$work/mark"
mkdir -p "$work/bin" "$mark/pids" "$work/logs"
cd "$work" || exit 1
MBS_MARK=$mark
export MBS_MARK

cat >"$work/bin/nvidia-smi" <<'EOF'
#!/bin/sh
# A stand-in for nvidia-smi --query-gpu=...: 8 H100s; on a node marked
# bad ($MBS_MARK/bad-NODE) GPU 3 has 5 uncorrected ECC errors.
node=${SLURMD_NODENAME:-$(hostname -s)}
q=
for a; do case $a in --query-gpu=*) q=${a#--query-gpu=} ;; esac; done
i=0
while [ $i -lt 8 ]; do
	case $q in
	name) echo "NVIDIA H100 80GB HBM3" ;;
	index,ecc.errors.uncorrected.volatile.total)
		if [ -e "$MBS_MARK/bad-$node" ] && [ $i = 3 ]; then echo "$i, 5"
		else echo "$i, 0"; fi ;;
	index,*) echo "$i, No" ;;
	*) echo "Field \"$q\" is not a valid field to query." >&2; exit 2 ;;
	esac
	i=$((i + 1))
done
EOF
cat >"$work/bin/python" <<'EOF'
#!/bin/sh
# A stand-in for "python TRAIN_SCRIPT ARGS...", one per rank, printing
# Megatron's iteration lines (the last rank, as Megatron does).
# FAKE_MODE slow: 3 lines 10 iterations apart, then exit 0; crash: 3 steps, rank 0 adds 3 to the checkpoint tracker and
# fails; stall: the same, but the tracker stays at 10; hang: 4 1-second
# steps, then every rank hangs, those of the last rank's node silently,
# the others after printing PyTorch's watchdog line; ok: 3 steps, exit 0.
# FAKE_MODE_<segment> overrides FAKE_MODE in that job of a chain (the
# second and later: the first is told no segment).
save=
prev=
for a; do
	[ "$prev" = --save ] && save=$a
	case $a in checkpoint.save=*) save=${a#checkpoint.save=} ;; esac
	prev=$a
done
node=$SLURMD_NODENAME
r=${SLURM_PROCID:-0}
w=${SLURM_NTASKS:-1}
eval "mode=\${FAKE_MODE_${MBSBATCH_CHAIN_SEGMENT:-0}:-\$FAKE_MODE}"
echo $$ >"$MBS_MARK/pids/$SLURM_JOB_ID.$r"
[ -e "$MBS_MARK/bad-$node" ] && echo "fake trainer: rank $r ran on bad node $node"
[ "$r" = 0 ] && echo "fake trainer: job $SLURM_JOB_ID ran on $SLURM_JOB_NODELIST"
iter() {
	[ "$r" = $((w - 1)) ] || return 0
	echo " [$(date '+%F %T').000000] iteration        $1/     100 | consumed samples: $((8 * $1)) | elapsed time per iteration (ms): $2 | lm loss: 1.000000E+01 |"
}
case $mode in
slow)
	# Megatron logs every --log-interval iterations: lines 4 s apart,
	# 0.4 s an iteration.
	for i in 10 20 30; do sleep 4; iter "$i" 400.0; done
	exit 0 ;;
crash|stall|ok)
	for i in 1 2 3; do sleep 0.2; iter "$i" 200.0; done
	[ "$mode" = ok ] && exit 0
	if [ "$r" = 0 ]; then
		mkdir -p "$save"
		n=$(cat "$save/latest_checkpointed_iteration.txt" 2>/dev/null || echo 0)
		[ "$mode" = crash ] && n=$((n + 3))
		[ "$mode" = stall ] && n=10
		echo "$n" >"$save/latest_checkpointed_iteration.txt"
		echo "fake trainer: saved iteration $n; failing"
		exit 1
	fi
	exec sleep 60 ;;
hang)
	for i in 1 2 3 4; do sleep 1; iter "$i" 1000.0; done
	silent=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | tail -n 1)
	if [ "$node" != "$silent" ]; then
		sleep 1
		echo "[rank$r]:[E1207 10:00:00.000000000 ProcessGroupNCCL.cpp:632] [Rank $r] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=3000) ran for 3001 milliseconds before timing out." >&2
	fi
	exec sleep 300 ;;
esac
exit 0
EOF
chmod +x "$work/bin/nvidia-smi" "$work/bin/python"
PATH="$work/bin:$PATH"
export PATH

nope() { fail=$((fail + 1)); echo "FAIL: $*"; }

# submit_chain NAME N ARGS...: sets $ids.
submit_chain() {
	n=$1
	shift
	run submit "$@" --partition "$MBS_SLURM_PARTITION" --seq-length 1024 \
	    --model llama3.2-1b --time 3 --chain "$n" --json -q --via sbatch
	expect_status "submit $*" 0
	ids=$(jq -r '.job_ids|map(tostring)|join(" ")' "$tmp/out")
}
need jq "to parse --json"

log() {
	ls logs/*-"$1".out 2>/dev/null | head -n 1
}
nodes_of() {
	scontrol show hostnames "$(scontrol show job "$1" | sed -n 's/^ *NodeList=\([^ ]*\).*/\1/p')"
}
t0=$(date +%s)

# The gate: the first 2-node job goes to the first two idle nodes
# (cons_tres takes the lowest-numbered); the second is bad.
touch "$mark/bad-mbsnode1"
FAKE_MODE=crash
export FAKE_MODE
submit_chain 6 --template megatron-lm --job-name gate --gpus 16 \
    --checkpoint-dir "$work/ck-gate"
gate_ids=$ids
# The hang.
FAKE_MODE=hang FAKE_MODE_2=ok
export FAKE_MODE_2
submit_chain 2 --template megatron-bridge --recipe llama32_1b_pretrain_config \
    --job-name hang --gpus 16 --no-gate --hang-timeout 3 \
    --checkpoint-dir "$work/ck-hang" --error 'logs/%x-%j.err'
hang_ids=$ids
unset FAKE_MODE_2
# Lines every 10 iterations: the rule counts the time between lines.
FAKE_MODE=slow
submit_chain 1 --template megatron-lm --job-name slow --gpus 8 \
    --hang-timeout 1
slow_id=$ids
# The stall.
FAKE_MODE=stall
submit_chain 5 --template megatron-lm --job-name stall --gpus 8 \
    --stall-restarts 2 --checkpoint-dir "$work/ck-stall"
stall_ids=$ids

# Gate.
set -- $gate_ids
first=$1
final=$(wait_done "$6" 240)
if [ "$final" = FAILED ]; then ok; else nope "gate: job 6 $final"; fi
f=$(log "$first")
if nodes_of "$first" | grep -qx mbsnode1; then ok; else nope "gate: the first job did not get mbsnode1: $(nodes_of "$first" | paste -sd ' ' -)"; fi
if grep -qx "mbsbatch: gate: mbsnode1 failed: GPU 3: ecc.errors.uncorrected.volatile.total 5" "$f" &&
    grep -q "^mbsbatch: gate: mbsnode1: ok" "$f"; then nope "gate: mbsnode1 both failed and passed"
elif grep -qx "mbsbatch: gate: mbsnode1 failed: GPU 3: ecc.errors.uncorrected.volatile.total 5" "$f"; then ok
else nope "gate: no line naming mbsnode1: $(cat "$f")"; fi
code=$(scontrol show job "$first" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p')
if [ "$code" = 75:0 ]; then ok; else nope "gate: first job exit code '$code'"; fi
if grep -q "^fake trainer" "$f"; then nope "gate: the trainer ran in the job that failed the gate"; else ok; fi
shift
crashes=0
for j in "$@"; do
	f=$(log "$j")
	if nodes_of "$j" | grep -qx mbsnode1; then nope "gate: job $j ran on mbsnode1"; else ok; fi
	if grep -q "ran on bad node" "$f"; then nope "gate: job $j: $(grep "ran on bad node" "$f" | head -n 1)"; else ok; fi
	if scontrol show job "$j" | grep -q "ExcNodeList=mbsnode1"; then ok; else nope "gate: job $j: $(scontrol show job "$j" | grep -o 'ExcNodeList=[^ ]*')"; fi
	grep -q "^fake trainer: saved iteration" "$f" && crashes=$((crashes + 1))
done
if [ "$crashes" = 5 ]; then ok; else nope "gate: $crashes injected failures ran, not 5"; fi
if [ "$(cat "$work/ck-gate/latest_checkpointed_iteration.txt")" = 15 ]; then ok; else nope "gate: checkpoint $(cat "$work/ck-gate/latest_checkpointed_iteration.txt")"; fi

# Hang.
set -- $hang_ids
final=$(wait_done "$2" 120)
if [ "$final" = COMPLETED ]; then ok; else nope "hang: job 2 $final"; fi
# Its error is another file (PyTorch's lines, the batch shell's).
f=$tmp/hang.log
cat "logs/hang-$1.out" "logs/hang-$1.err" >"$f"
if grep -q "Watchdog caught" "logs/hang-$1.out"; then nope "hang: the error is not another file"; else ok; fi
last=$(grep ' iteration  ' "$f" | tail -n 1 | sed -n 's/^ \[\([^.]*\)\..*/\1/p')
found=$(sed -n 's/^mbsbatch: hang: at \([^,]*\), no new iteration for .* = \([0-9]*\) s); ending the step$/\1 \2/p' "$f")
if [ -n "$last" ] && [ -n "$found" ]; then
	set -- $found
	d=$(( $(date -d "$1 $2" +%s) - $(date -d "$last" +%s) ))
	# The watchdog polls every second, both clocks in whole seconds.
	echo "hang: found $d s after the last iteration line (limit $3 s)"
	if [ "$3" = 3 ] && [ "$d" -le $(($3 + 2)) ] && [ "$d" -ge "$3" ]; then ok
	else nope "hang: found $d s after the last iteration (limit $3 s)"; fi
else
	nope "hang: no hang line or no iteration: $(cat "$f")"
fi
set -- $hang_ids
e=$(sed -n 's/^mbsbatch: hang: step ended \([0-9]*\) s after the hang was found$/\1/p' "$f")
if [ -n "$e" ] && [ "$e" -le 60 ]; then ok; else nope "hang: step ended after '$e' s"; fi
alive=
for p in "$mark/pids/$1".*; do
	kill -0 "$(cat "$p")" 2>/dev/null && alive="$alive ${p##*.}"
done
if [ -z "$alive" ] && [ "$(ls "$mark/pids/$1".* | wc -l)" = 16 ]; then ok; else nope "hang: ranks alive:$alive"; fi
silent=$(nodes_of "$1" | tail -n 1)
if grep -qx "mbsbatch: $silent is left out from now on (hang: its ranks stopped)" "$f"; then ok; else nope "hang: $silent not blamed: $(grep '^mbsbatch' "$f")"; fi
code=$(scontrol show job "$1" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p')
if [ "$code" = 75:0 ]; then ok; else nope "hang: exit code '$code'"; fi
if nodes_of "$2" | grep -qx "$silent"; then nope "hang: job 2 ran on $silent"; else ok; fi
if grep -q "^fake trainer: job $2 ran" "$(log "$2")"; then ok; else nope "hang: job 2 did not run"; fi

# No hang where lines come every 10 iterations, 4 s apart (the limit is
# max(3 x 4 s, 1 s), not max(3 x 0.4 s, 1 s)).
final=$(wait_done "$slow_id" 120)
f=$(log "$slow_id")
if [ "$final" = COMPLETED ] && ! grep -q "^mbsbatch: hang" "$f" &&
    [ "$(grep -c ' iteration ' "$f")" = 3 ]; then ok
else nope "slow: $final: $(cat "$f")"; fi

# Stall.
set -- $stall_ids
final=$(wait_done "$5" 120)
if [ "$final" = FAILED ]; then ok; else nope "stall: job 5 $final"; fi
f=$(log "$4")
if grep -qx "mbsbatch: stalled: 2 restarts in a row without a new checkpoint (last: iteration 10); stopping" "$f"; then ok; else nope "stall: job 4: $(cat "$f")"; fi
code=$(scontrol show job "$4" | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p')
if [ "$code" = 76:0 ]; then ok; else nope "stall: exit code '$code'"; fi
if grep -qx "mbsbatch: chain segment 5: predecessor $4 stopped the run (exit status 76); not starting" "$(log "$5")"; then ok; else nope "stall: job 5: $(cat "$(log "$5")")"; fi
for j in "$3"; do
	if grep -q "^fake trainer: saved" "$(log "$j")"; then ok; else nope "stall: job $j did not run"; fi
done
# Requeue: with every node idle again, a 2-node --requeue job lands on
# mbsnode[0-1]; the gate fails mbsnode1 and the job requeues itself, then
# has mbsnode1 in its ExcNodeList while it waits (Slurm's requeue delay,
# CredExpire: 120 s here, so the test does not wait for the next attempt).
FAKE_MODE=ok
run submit --template megatron-lm --job-name rq --gpus 16 --requeue \
    --signal USR1@60 --checkpoint-dir "$work/ck-rq" \
    --partition "$MBS_SLURM_PARTITION" --seq-length 1024 \
    --model llama3.2-1b --time 3 --parsable -q --via sbatch
expect_status "requeue: submit" 0
rq=$(cat "$tmp/out")
i=0
while [ "$i" -lt 150 ]; do
	restarts=$(scontrol show job "$rq" | sed -n 's/.* Restarts=\([0-9]*\).*/\1/p')
	exc=$(scontrol show job "$rq" | sed -n 's/.*ExcNodeList=\([^ ]*\).*/\1/p')
	# (COMPLETING first, while the attempt's processes end)
	[ "$restarts" = 1 ] && [ "$exc" != "(null)" ] &&
	    [ "$(job_state "$rq")" = PENDING ] && break
	sleep 0.2
	i=$((i + 1))
done
f=$(log "$rq")
if [ "$restarts" = 1 ] && [ "$exc" = mbsnode1 ] &&
    [ "$(job_state "$rq")" = PENDING ]; then ok
else nope "requeue: restarts '$restarts', ExcNodeList '$exc', $(job_state "$rq"): $(cat "$f")"; fi
if grep -qx "mbsbatch: gate: requeueing job $rq without mbsnode1 (restart 1 of 3)" "$f"; then ok
else nope "requeue: no line: $(cat "$f")"; fi
if grep -q "^fake trainer" "$f"; then nope "requeue: the trainer ran"; else ok; fi
scancel "$rq"
echo "resilience: $(( $(date +%s) - t0 )) s after the first submit"
if [ "$fail" -gt 0 ]; then
	for f in logs/*; do echo "== $f"; cat "$f"; done
fi
finish
