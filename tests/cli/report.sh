# report.sh: mbsbatch report without a cluster: its usage errors, and
# the figures of one job worked out by hand, from a log written here and
# the job as stand-ins for 22.05's squeue (tests/data/jobtext/fake-squeue)
# and a sacct without accounting tell it.  tests/slurm/report.sh runs
# real chains and requeues.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to read --json"
need perl "to run the stand-in squeue"
logdata=$(cd "$top_srcdir/tests/data" && pwd)
cd "$tmp" || exit 1

run report
expect_status "no job" 2
expect_err "no job" "mbsbatch: report: which job? give its JOBID"
run report 12 --journal j.sweep
expect_status "both" 2
expect_err "both" "mbsbatch: report: give a JOBID or --journal FILE, not both"
run report --chain --journal j.sweep
expect_status "--chain --journal" 2
expect_err "--chain --journal" "mbsbatch: report: --chain takes a JOBID, not --journal FILE"
run report 0
expect_status "job 0" 2
run report 12 13
expect_status "two jobs" 2
run report --journal nope.sweep
expect_status "no journal" 1
expect_err "no journal" "mbsbatch: journal 'nope.sweep': open: No such file or directory"
printf 'not a journal\n' >bad.sweep
run report --journal bad.sweep
expect_status "not a journal" 2

# Job 12, 2 nodes, from 10:00:00 to 10:01:40 (100 s), UTC.  Its log: the
# gate from 10:00:02 to :05 (3 s); iterations of 2 s logged every 5,
# the first line at :20 (its work began at :10: start-up 10 - 3 = 7 s);
# a checkpoint of iteration 10 whose save took 3.5 s by Megatron's timer
# (4 s by the dates); iteration 15 at :45, then a crash.  Per node:
# productive 20 (iterations 1-10), lost work 10 (11-15), checkpoint 3.5,
# gate 3, start-up 7, restarts 55 (from :45 to the end: a crash), other
# 1.5 (the gap from :30 to :45 less 10 s of work and the save).  Two
# nodes double each; ETTR 40 / 200 = 0.2.
TZ=UTC
export TZ
start=$(date -u -d '2026-12-02 10:00:00' +%s)
it() {
	printf ' [2026-12-02 10:00:%s.000000] iteration %8d/%8d | consumed samples: %12d | elapsed time per iteration (ms): 2000.0 | learning rate: 1.000000E-04 | global batch size:     8 | lm loss: 1.000000E+01 | loss scale: 1.0 | grad norm: 1.000 | number of skipped iterations:   0 | number of nan iterations:   0 |\n' "$1" "$2" 20 $(($2 * 8))
}
{
	echo "mbsbatch-gate: 2026-12-02 10:00:02 checking 2 nodes"
	echo "mbsbatch-gate: 2026-12-02 10:00:05 every node passed"
	it 20 5
	it 30 10
	echo "[2026-12-02 10:00:30.000000] saving checkpoint at iteration      10 to /ck in torch_dist format"
	echo "  [2026-12-02 10:00:34.000000] successfully saved checkpoint from iteration      10 to /ck [ t 1/1, gtp_remat 1/1, p 1/1 ]"
	echo "[INFO | megatron.core.timers]: (min, max) time across ranks (ms):"
	echo "    save-checkpoint ................................: (3000.00, 3500.00)"
	it 45 15
	echo "[rank0]: Traceback (most recent call last):"
	echo "[rank0]:   File \"pretrain_gpt.py\", line 200, in <module>"
	echo "[rank0]: RuntimeError: injected crash"
} >job.out

fake="$tmp/bin"
mkdir -p "$fake"
cat >"$fake/squeue" <<EOF
#!/bin/sh
export FAKE_COL_jobid=12 FAKE_COL_jobarrayid=12 FAKE_COL_state=\${FAKE_STATE:-FAILED} \\
    FAKE_COL_reason=None FAKE_COL_submittime=$((start - 30)) \\
    FAKE_COL_starttime=\${FAKE_START:-$start} FAKE_COL_endtime=\${FAKE_END:-$((start + 100))} \\
    FAKE_COL_numnodes=\${FAKE_NODES:-2} FAKE_COL_nodelist=n[1-2] FAKE_COL_batchhost=n1 \\
    FAKE_COL_userid=$(id -u) FAKE_COL_username=$(id -un) FAKE_COL_name=x \\
    FAKE_COL_stdout=$tmp/job.out FAKE_COL_stderr=$tmp/job.out \\
    FAKE_COL_workdir=$tmp
exec perl "$logdata/jobtext/fake-squeue" "\$@"
EOF
cat >"$fake/sbatch" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && { echo "slurm-wlm 22.05.8"; exit 0; }
exit 1
EOF
cat >"$fake/sacct" <<'EOF'
#!/bin/sh
echo "sacct: error: Slurm accounting storage is disabled" >&2
exit 1
EOF
chmod +x "$fake/squeue" "$fake/sbatch" "$fake/sacct"

jrun() {
	PATH="$fake:$PATH" "$MBSBATCH" "$@" --via sbatch >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}

# near JQFILTER WANT: the figure within a millionth.
near() {
	got=$("$JQ" -r "$1" "$tmp/out")
	if awk -v g="$got" -v w="$2" 'BEGIN { d = g - w; exit !(d < 1e-6 && d > -1e-6) }'; then ok; else bad "$1: $got, want $2"; fi
}

jrun report 12 --json
expect_status "report --json" 0
near .ettr 0.2
near .allocated_node_seconds 200
near .productive_node_seconds 40
near .lost_node_seconds.startup 14
near .lost_node_seconds.gate 6
near .lost_node_seconds.hang 0
near .lost_node_seconds.lost_work 20
near .lost_node_seconds.checkpoint 7
near .lost_node_seconds.restarts 110
near .lost_node_seconds.other 3
near .queue_seconds 30
near .iterations.kept 10
near .iterations.lost 5
near .attempts 1

# Cancelled with no line for 55 s (more than 3 steps), no crash: a hang.
sed '/Traceback\|File \|RuntimeError/d' job.out >job2.out && mv job2.out job.out
FAKE_STATE=CANCELLED
export FAKE_STATE
jrun report 12 --json
expect_status "report, a hang" 0
near .lost_node_seconds.hang 110
near .lost_node_seconds.restarts 0
near .ettr 0.2

# A sweep's journal whose one job is job 12: the same figures, no
# job_id (a sweep is no job).
cat >j.sweep <<'EOF2'
{"sweep":"abc123","version":1,"points":2,"grid":[["tp",["1","2"]]],"array":false}
{"submitting":"x-abc123-p0","points":[0]}
{"queued":"x-abc123-p0","job_id":12,"points":[0],"settings":["tp=1"]}
EOF2
jrun report --journal j.sweep --json
expect_status "report --journal" 0
near .ettr 0.2
near .lost_node_seconds.hang 110
if "$JQ" -e 'has("job_id") | not' "$tmp/out" >/dev/null; then ok; else bad "--journal: a job_id"; fi
jrun report --journal j.sweep
expect_status "report --journal (text)" 0
if head -n 1 "$tmp/out" | grep -q "^sweep abc123 (1 job): 1 attempt, ETTR 0.200 "; then ok; else bad "--journal text: $(cat "$tmp/out")"; fi

jrun report 12
expect_status "report (text)" 0
if head -n 1 "$tmp/out" | grep -qx "job 12: 1 attempt, ETTR 0.200 (20.0% of 200 node-seconds trained)"; then ok; else bad "text: $(cat "$tmp/out")"; fi
if grep -q "^  hangs  *110.0 node-s  55.0%$" "$tmp/out"; then ok; else bad "text's hangs: $(cat "$tmp/out")"; fi

# Requeued, without accounting: slurmctld has the last attempt, from
# 10:02:00 to 10:03:00 on 1 node; the earlier one runs in the log from
# its first dated line (10:00:02) to the restart line (10:02:00), 118 s.
# Attempt 0 as above but cut off at 10:02:00, 75 s after its last line
# (a hang: stopped from outside, more than 3 steps); attempt 1 loads
# iteration 10, logs 15 at 10:02:20 (work from :10: 10 s of restart)
# and 20 at :30, the run's last: kept 20, the 30 s after it other.
# Productive 20 + 20, of 178: ETTR 0.2247191.
{
	sed '/Traceback\|File \|RuntimeError/d' job.out
	echo "==== mbsbatch: restart 1 of job 12 (SLURM_RESTART_COUNT=1, at most 3), 2026-12-02 10:02:00 ===="
	echo "  successfully loaded checkpoint from /ck [ t 1/1, gtp_remat 1/1, p 1/1 ] at iteration 10"
	it 20 15 | sed 's/10:00:20/10:02:20/'
	it 30 20 | sed 's/10:00:30/10:02:30/'
} >job2.out
mv job2.out job.out
FAKE_STATE=COMPLETED FAKE_NODES=1 FAKE_START=$((start + 120)) FAKE_END=$((start + 180))
export FAKE_STATE FAKE_NODES FAKE_START FAKE_END
jrun report 12 --json
expect_status "report, requeued, no accounting" 0
near .attempts 2
near .allocated_node_seconds 178
near .productive_node_seconds 40
near .ettr 0.2247191011
near .lost_node_seconds.hang 75
near .lost_node_seconds.restarts 10
near .lost_node_seconds.startup 5
near .lost_node_seconds.gate 3
near .lost_node_seconds.lost_work 10
near .lost_node_seconds.checkpoint 3.5
near .lost_node_seconds.other 31.5
near .iterations.kept 20
near .iterations.lost 5
if "$JQ" -e '.attempt_times == "log" and .queue_seconds == null' "$tmp/out" >/dev/null; then ok; else bad "requeued: $(cat "$tmp/out")"; fi

finish
