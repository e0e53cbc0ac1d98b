# report.sh (Slurm): mbsbatch report's effective training time ratio
# against the truth the test injected, on a real cluster with accounting
# (sacct --duplicates keeps every attempt of a requeued job):
# - a chain of 4 jobs (submit --chain) whose first segment crashes after
#   its first checkpoint, whose second hangs after its second until the
#   test cancels it, whose third finishes, and whose fourth is cancelled
#   before it runs (its gate a step of its own, as the templates run it);
# - a 2-node job requeued (scontrol requeue) after its first checkpoint,
#   whose second attempt finishes.
# The trainer is a stand-in that prints Megatron-LM's own lines (dated
# iteration lines with the step time it measured, checkpoint saves and
# loads) and a node gate's; the truth is the iterations the run kept
# times the injected step time, over the allocation Slurm records for
# every attempt (sacct), and report --json's "ettr" must be within 1% of
# it.  The step time is what the stand-in measured around its sleep,
# written apart from the log (a loaded machine oversleeps).  About 60 s (the cluster with accounting starts in 10-14 s).
MBS_SLURM_ACCOUNTING=yes
export MBS_SLURM_ACCOUNTING
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"
need awk "to compute the truth"

nope() { fail=$((fail + 1)); echo "FAIL: $*"; }

work="$tmp/work"
mkdir -p "$work/logs"
cd "$work" || exit 1
HOME=$tmp/home XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config
export HOME XDG_STATE_HOME XDG_CONFIG_HOME

STEP=1		# seconds an iteration sleeps
SAVE_EVERY=4

# The stand-in trainer.  FAULTS: "SEGMENT.RESTART:crash@N" (a traceback
# after iteration N) or ":hang@N" (no line after iteration N, until the
# job is ended from outside); the chain's segment and Slurm's restart
# count pick one.
cat >train.sh <<'EOF'
#!/bin/sh
seg=${MBSBATCH_CHAIN_SEGMENT:-1}
fault=none
for f in $FAULTS; do
	case $f in "$seg.${SLURM_RESTART_COUNT:-0}:"*) fault=${f#*:} ;; esac
done
now() { date '+%F %T.%6N'; }
# The gate: as the templates run it, a step of its own whose time
# Slurm records (GATE=step), or dated lines alone.
if [ "${GATE:-}" = step ]; then
	srun --job-name=mbsbatch-gate --ntasks="$SLURM_JOB_NUM_NODES" \
	    --ntasks-per-node=1 sleep 1
	echo "mbsbatch: gate: $SLURM_JOB_NUM_NODES nodes passed"
else
	echo "mbsbatch-gate: $(date '+%F %T') checking $SLURM_JOB_NUM_NODES node(s)"
	sleep 1
	echo "mbsbatch-gate: $(date '+%F %T') every node passed"
fi
sleep 1
i=0
if [ -s "$CKPT/latest_checkpointed_iteration.txt" ]; then
	i=$(cat "$CKPT/latest_checkpointed_iteration.txt")
	echo "  successfully loaded checkpoint from $CKPT [ t 1/1, gtp_remat 1/1, p 1/1 ] at iteration $i"
fi
while [ "$i" -lt "$TOTAL" ]; do
	i=$((i + 1))
	t0=$(date +%s.%N)
	sleep "$STEP"
	t1=$(date +%s.%N)
	ms=$(awk "BEGIN { printf \"%.1f\", ($t1 - $t0) * 1000 }")
	# The truth, apart from the log: what each iteration really took.
	echo "$SLURM_JOB_ID $seg ${SLURM_RESTART_COUNT:-0} $i $t0 $t1" >>"$TRUTH"
	printf ' [%s] iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): %s | learning rate: 1.000000E-04 | global batch size:     8 | lm loss: 1.000000E+01 | loss scale: 1.0 | grad norm: 1.000 | number of skipped iterations:   0 | number of nan iterations:   0 |\n' \
	    "$(now)" "$i" "$TOTAL" $((i * 8)) "$ms"
	case $fault in
	"crash@$i")
		echo "[rank0]: Traceback (most recent call last):" >&2
		echo "[rank0]:   File \"pretrain_gpt.py\", line 200, in <module>" >&2
		echo "[rank0]: RuntimeError: injected crash" >&2
		exit 1 ;;
	"hang@$i")
		sleep 3600 ;;
	esac
	if [ $((i % SAVE_EVERY)) -eq 0 ]; then
		echo "[$(now)] saving checkpoint at iteration $(printf %7d "$i") to $CKPT in torch_dist format"
		sleep 0.5
		echo "$i" >"$CKPT/latest_checkpointed_iteration.txt"
		echo "  [$(now)] successfully saved checkpoint from iteration $(printf %7d "$i") to $CKPT [ t 1/1, gtp_remat 1/1, p 1/1 ]"
	fi
done
EOF

# script NAME NODES TOTAL FAULTS [GATE]: a batch script running the
# stand-in.
script() {
	mkdir -p "$work/ckpt-$1"
	cat >"$1.sbatch" <<EOF
#!/bin/sh
#SBATCH --job-name=$1
#SBATCH --nodes=$2
#SBATCH --partition=$MBS_SLURM_PARTITION
#SBATCH --output=$work/logs/%x-%j.out
#SBATCH --open-mode=append
#SBATCH --requeue
#SBATCH --time=3
if [ "\${SLURM_RESTART_COUNT:-0}" -gt 0 ]; then
	echo "==== mbsbatch: restart \$SLURM_RESTART_COUNT of job \$SLURM_JOB_ID (SLURM_RESTART_COUNT=\$SLURM_RESTART_COUNT, at most 3), \$(date '+%F %T') ===="
fi
STEP=$STEP SAVE_EVERY=$SAVE_EVERY TOTAL=$3 CKPT=$work/ckpt-$1 FAULTS='$4' TRUTH=$work/truth-$1 GATE=${5:-} exec sh $work/train.sh
EOF
}

# wait_line ID TEXT SECONDS: until job ID's log has a line with TEXT.
wait_line() {
	i=0
	while [ $i -lt $(($3 * 5)) ]; do
		grep -q "$2" logs/*-"$1".out 2>/dev/null && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# alloc IDS: node-seconds Slurm allocated to every attempt of the jobs.
alloc() {
	for j; do
		SLURM_TIME_FORMAT=%s sacct -D -X -n -P -o Start,End,NNodes -j "$j"
	done | awk -F'|' '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { s += ($2 - $1) * $3 } END { print s }'
}

# within NAME TRUTH GOT: GOT within 1% of TRUTH.
within() {
	if awk -v t="$2" -v g="$3" 'BEGIN { d = g - t; if (d < 0) d = -d; exit !(t > 0 && d <= 0.01 * t) }'; then
		ok
	else
		nope "$1: ettr $3, the truth $2"
	fi
}

# The chain: 14 iterations; segment 1 crashes after 6 (saved 4), 2
# hangs after 10 (saved 8), 3 resumes from 8 and finishes: 14 kept.
# A fourth job, cancelled before it ran, allocated nothing.
script chain 1 14 '1.0:crash@6 2.0:hang@10' step
run submit --script chain.sbatch --chain 4 --json -q
expect_status "submit --chain 4" 0
set -- $("$JQ" -r '.job_ids|map(tostring)|join(" ")' "$tmp/out")
c1=$1 c2=$2 c3=$3 c4=$4
scancel "$c4"

# The requeued job, 2 nodes: 10 iterations; attempt 1 is requeued after
# 6 (saved 4), attempt 2 resumes from 4 and finishes: 10 kept.
script requeued 2 10 '1.0:hang@6'
run submit --script requeued.sbatch --json -q
expect_status "submit requeued" 0
rq=$("$JQ" -r '.job_id' "$tmp/out")

if wait_line "$rq" "iteration        6/" 60; then
	scontrol requeue "$rq" || nope "scontrol requeue $rq"
else
	nope "job $rq never reached iteration 6"
fi
if wait_line "$c2" "iteration       10/" 90; then
	sleep 6		# a hang: more than 3 steps without a line
	scancel "$c2"
else
	nope "job $c2 never reached iteration 10"
fi
for j in "$c3" "$rq"; do
	s=$(wait_done "$j" 120)
	[ "$s" = COMPLETED ] || nope "job $j: $s"
done

# Accounting has every attempt once slurmdbd has been told (its agent
# sends records every few seconds).
i=0
while [ "$(SLURM_TIME_FORMAT=%s sacct -D -X -n -P -o End -j "$rq" | grep -c '^[0-9]')" -lt 2 ] && [ $i -lt 100 ]; do
	sleep 0.2
	i=$((i + 1))
done

# kept FILE KEEP: the seconds of the iterations kept, 1 node; KEEP an
# awk condition on seg, restart and it (the iteration).
kept() {
	awk "{ seg = \$2; restart = \$3; it = \$4 } $2 { s += \$6 - \$5 } END { print s }" "$1"
}
k=$(kept truth-chain '(seg == 1 && it <= 4) || (seg == 2 && it > 4 && it <= 8) || seg == 3')
truth=$(awk -v k="$k" -v a="$(alloc "$c1" "$c2" "$c3")" 'BEGIN { print k / a }')
run report --chain "$c1" --json
expect_status "report --chain" 0
got=$("$JQ" -r .ettr "$tmp/out")
within "chain $c1" "$truth" "$got"
echo "chain: ettr $got, truth $truth"
# What the chain lost: the crash's unsaved iterations 5-6 and the hang's
# 9-10 (4 steps), the hang itself (at least its 6 s), the gate (its
# step, 1 s and srun's own time, in whole seconds, per segment), the
# checkpoints (0.5 s each, 3 saves).
"$JQ" -e '.lost_node_seconds | .lost_work > 3.5 and .lost_work < 5 and .hang >= 4.5 and .gate >= 3 and .gate <= 7.5 and .checkpoint >= 1.4 and .checkpoint < 2.5' "$tmp/out" >/dev/null &&
    ok || nope "chain's lost time: $(cat "$tmp/out")"
"$JQ" -e '.iterations == {"kept": 14, "lost": 4} and .attempts == 3 and .jobs == ['"$c1,$c2,$c3"']' "$tmp/out" >/dev/null &&
    ok || nope "chain's iterations: $(cat "$tmp/out")"
# Everything adds up to the allocation.
"$JQ" -e '(.productive_node_seconds + ([.lost_node_seconds[]] | add) - .allocated_node_seconds - .overrun_node_seconds) | fabs < 0.001' "$tmp/out" >/dev/null &&
    ok || nope "chain's causes do not add up: $(cat "$tmp/out")"

k=$(kept truth-requeued '(restart == 0 && it <= 4) || restart == 1')
truth=$(awk -v k="$k" -v n=2 -v a="$(alloc "$rq")" 'BEGIN { print k * n / a }')
run report "$rq" --json
expect_status "report requeued" 0
got=$("$JQ" -r .ettr "$tmp/out")
within "requeued $rq" "$truth" "$got"
echo "requeued: ettr $got, truth $truth"
"$JQ" -e '.attempts == 2 and .attempt_times == "accounting" and .iterations == {"kept": 10, "lost": 2}' "$tmp/out" >/dev/null &&
    ok || nope "requeued: $(cat "$tmp/out")"

# Every back end finds the same (the attempts are accounting's, through
# sacct, whichever finds the job and its log).
for via in $(test_vias); do
	r=
	[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run report "$rq" --json --via "$via" $r
	expect_status "report --via $via" 0
	v=$("$JQ" -r .ettr "$tmp/out")
	[ "$v" = "$got" ] && ok || nope "report --via $via: ettr $v, not $got"
done

# The text says the same ratio.
run report "$rq"
expect_status "report (text)" 0
grep -q "^job $rq: 2 attempts, ETTR " "$tmp/out" && ok || nope "text: $(cat "$tmp/out")"
cat "$tmp/out"

# A job Slurm never had.
run report 999999
expect_status "report of no job" 1

finish
