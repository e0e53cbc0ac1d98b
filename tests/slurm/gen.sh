# gen.sh (Slurm): scripts written by mbsbatch gen really run on real
# slurmd nodes: every rank once, every task with the launch environment,
# a 16-node layout accepted and pending, hostile values delivered
# unchanged and never executed, and the requeue trap bounded.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"

work="$tmp/work"
mkdir -p "$work/out"
cd "$work" || exit 1

# The stand-in for a training program: each task writes its environment.
probe='env > "$PROBE_DIR/task-$SLURM_PROCID.env"'

# check_run NAME GPUS NODES: generate, sbatch --wait, check every task.
check_run() {
	name=$1 gpus=$2 nodes=$3
	run gen --template command --command "$probe" --tp 2 --pp 2 \
	    --gpus "$gpus" --partition "$MBS_SLURM_PARTITION" --job-name "$name" \
	    --env "PROBE_DIR=$work/out/$name" --time 5 -o "$name.sbatch"
	expect_status "$name: gen" 0
	mkdir -p "out/$name"
	timeout 120 sbatch --wait --parsable "$name.sbatch" >"$tmp/jobid" 2>"$tmp/sberr"
	st=$?
	if [ "$st" -ne 0 ]; then
		bad "$name: sbatch --wait exited $st: $(cat "$tmp/sberr")"
		cat logs/*.out 2>/dev/null | tail -n 20
		return
	fi
	ok
	jobid=$(cat "$tmp/jobid")
	n=$(ls "out/$name" | wc -l)
	if [ "$n" -eq "$gpus" ]; then ok; else bad "$name: $n task files, want $gpus"; fi
	missing=
	r=0
	while [ "$r" -lt "$gpus" ]; do
		[ -f "out/$name/task-$r.env" ] || missing="$missing $r"
		r=$((r + 1))
	done
	if [ -z "$missing" ]; then ok; else bad "$name: no task for ranks$missing"; fi
	# Every task saw every launch variable, with its value.
	grep '^export [A-Za-z_][A-Za-z0-9_]*=' "$name.sbatch" | sed 's/^export //' >"$tmp/want.env"
	bad_tasks=
	for f in out/"$name"/task-*.env; do
		while IFS= read -r line; do
			grep -qxF -- "$line" "$f" || bad_tasks="$bad_tasks $(basename "$f"):$line"
		done <"$tmp/want.env"
		r=$(sed -n 's/^SLURM_PROCID=//p' "$f")
		grep -qx "RANK=$r" "$f" || bad_tasks="$bad_tasks $(basename "$f"):RANK"
		grep -qx "WORLD_SIZE=$gpus" "$f" || bad_tasks="$bad_tasks $(basename "$f"):WORLD_SIZE"
		grep -qx 'CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7' "$f" ||
		    bad_tasks="$bad_tasks $(basename "$f"):CUDA_VISIBLE_DEVICES"
		grep -q '^MASTER_ADDR=mbsnode0$' "$f" && grep -q '^MASTER_PORT=' "$f" ||
		    bad_tasks="$bad_tasks $(basename "$f"):MASTER_ADDR"
	done
	if [ -z "$bad_tasks" ]; then ok; else bad "$name: tasks lacking:$(echo "$bad_tasks" | cut -c1-300)"; fi
	# The ranks are spread over the nodes as sized: 8 per node.
	used=$(sed -n 's/^SLURMD_NODENAME=//p' out/"$name"/task-*.env | sort | uniq -c | awk '{print $1}' | sort -u | tr '\n' ' ')
	nn=$(sed -n 's/^SLURMD_NODENAME=//p' out/"$name"/task-*.env | sort -u | wc -l)
	if [ "$nn" -eq "$nodes" ] && [ "$used" = "8 " ]; then ok; else bad "$name: $nn nodes used ($used tasks each), want $nodes of 8"; fi
	if [ -s "logs/$name-$jobid.out" ] || [ -f "logs/$name-$jobid.out" ]; then ok; else bad "$name: no log logs/$name-$jobid.out"; fi
}

check_run one 8 1
check_run four 32 4

# A 16-node layout on the big partition is accepted and pends.
run gen --template command --command true --tp 8 --gpus 128 \
    --partition "$MBS_SLURM_BIG_PARTITION" --job-name big -o big.sbatch
expect_status "big: gen" 0
if grep -q '^#SBATCH --nodes=16$' big.sbatch; then ok; else bad "big: not 16 nodes"; fi
if jobid=$(sbatch --parsable big.sbatch 2>"$tmp/sberr"); then
	ok
	if wait_state "$jobid" PENDING 10; then ok; else bad "big: state $(job_state "$jobid"), want PENDING"; fi
	scancel "$jobid"
else
	bad "big: sbatch refused it: $(cat "$tmp/sberr")"
fi

# Hostile values: the job name, an env value, an override and the script path
# reach the job unchanged and nothing in them runs.  A stand-in python
# prints its arguments.
mkdir -p bin
cat >bin/python <<'PY'
#!/bin/sh
[ "$SLURM_PROCID" = 0 ] || exit 0
for a in "$@"; do printf '%s\n' "$a"; done >"$PROBE_DIR/args"
printf '%s\n' "$EVIL" >"$PROBE_DIR/env"
PY
chmod +x bin/python
evil='a$(touch PWNED)`touch PWNED2`;"x" '\''y'\'' # z\ é'
mkdir -p out/evil
evil_path="$work/scripts/run $evil.py"
# (Recipe and dataset names are checked against Bridge's own lists.)
run gen --recipe llama32_1b_pretrain_config --override "k=$evil" --env "EVIL=$evil" \
    --env "PROBE_DIR=$work/out/evil" --job-name "$evil" --partition "$MBS_SLURM_PARTITION" \
    --train-script "$evil_path" --dataset mock --gpus 8 --time 5 -o evil.sbatch
expect_status "hostile: gen" 0
if PATH="$work/bin:$PATH" timeout 120 sbatch --wait --parsable evil.sbatch >"$tmp/jobid" 2>"$tmp/sberr"; then
	ok
	jobid=$(cat "$tmp/jobid")
	if grep -qxF -- "k=$evil" out/evil/args; then ok; else bad "hostile: override changed on the way: $(cat out/evil/args | head -n 3)"; fi
	if [ "$(head -n 1 out/evil/args)" = "$evil_path" ]; then ok; else bad "hostile: the training script path is '$(head -n 1 out/evil/args)'"; fi
	if [ "$(sed -n 2,5p out/evil/args | tr '\n' ' ')" = "--recipe llama32_1b_pretrain_config --dataset mock " ]; then ok; else bad "hostile: recipe and dataset not delivered"; fi
	if [ "$(cat out/evil/env)" = "$evil" ]; then ok; else bad "hostile: env value changed: $(cat out/evil/env)"; fi
	name=$(scontrol show job "$jobid" | sed -n 's/^ *JobId=[0-9]* JobName=//p')
	if [ "$name" = "$evil" ]; then ok; else bad "hostile: job name is '$name'"; fi
else
	bad "hostile: sbatch failed: $(cat "$tmp/sberr")"
	cat logs/*.out 2>/dev/null | tail -n 20
fi
if [ ! -e PWNED ] && [ ! -e PWNED2 ] && [ ! -e out/evil/PWNED ]; then ok; else bad "hostile: a value was executed"; fi

# Requeue: the batch shell traps the signal, requeues once, then stops.
run gen --template command --command 'sleep 120' --gpus 8 --partition "$MBS_SLURM_PARTITION" \
    --job-name rq --requeue --max-restarts 1 --time 10 -o rq.sbatch
expect_status "requeue: gen" 0
jobid=$(sbatch --parsable rq.sbatch 2>"$tmp/sberr") || bad "requeue: sbatch: $(cat "$tmp/sberr")"
if wait_state "$jobid" RUNNING 20; then ok; else bad "requeue: never ran ($(job_state "$jobid"))"; fi
sleep 2
scancel --batch --signal=TERM "$jobid"
# Requeued: it comes back (Restarts=1) and, once its old credential has
# expired (cred_expire, 10 s in the test cluster), runs again.
i=0
while [ "$i" -lt 150 ]; do
	rc=$(scontrol show job "$jobid" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')
	[ "$rc" = 1 ] && break
	sleep 0.2
	i=$((i + 1))
done
if [ "$rc" = 1 ]; then ok; else bad "requeue: Restarts=$rc after the signal, want 1 ($(job_state "$jobid"))"; fi
if wait_state "$jobid" RUNNING 90; then
	ok
	sleep 2
	scancel --batch --signal=TERM "$jobid"
else
	bad "requeue: did not run again ($(job_state "$jobid"))"
	scontrol show job "$jobid" | head -n 30
	echo "--- job log:"; cat logs/rq-"$jobid".out
	echo "--- slurmd log:"; tail -n 30 "$state"/log/slurmd-mbsnode0.log
	echo "--- slurmctld log:"; grep -i "jobid=$jobid\|job $jobid" "$state"/log/slurmctld.log | tail -n 20
	scancel "$jobid"
fi
final=$(wait_done "$jobid" 60)
# Out of restarts before the program finished: FAILED, not COMPLETED 0.
if [ "$final" = FAILED ]; then ok; else bad "requeue: ended $final, want FAILED after the restart limit"; fi
if grep -q 'restart limit 1 reached before the program finished; not requeueing' logs/rq-"$jobid".out; then ok; else bad "requeue: no limit message: $(tail -n 5 logs/rq-"$jobid".out)"; fi
# The second attempt's log follows the first's, after a separator.
if grep -q "^==== mbsbatch: restart 1 of job $jobid " logs/rq-"$jobid".out; then ok; else bad "requeue: no separator line"; fi
# The tasks got the signal itself (to checkpoint), not a kill.
if grep -q 'tasks 0-7: Killed' logs/rq-"$jobid".out; then bad "requeue: the tasks were killed, not signalled"; else ok; fi

finish
