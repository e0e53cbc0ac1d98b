# logs.sh: mbsbatch logs without a cluster: its usage errors, and a
# sweep's journal that names no job for the point asked.
# tests/slurm/logs.sh reads real jobs' logs.
. "${top_srcdir:-.}/tests/cli/lib.sh"
cd "$tmp" || exit 1

run logs
expect_status "no job" 2
expect_err "no job" "mbsbatch: logs: which job? give its JOBID (or JOBID_TASK), or --journal FILE --point N"
run logs 12 --lines x
expect_status "bad --lines" 2
expect_err "bad --lines" "mbsbatch: --lines: 'x' is not a number (expected a whole number from 0 to 1000000000)"
run logs 12 --lines -1
expect_status "negative --lines" 2
run logs 12 --lines 1000000001
expect_err "huge --lines" "mbsbatch: --lines: '1000000001' is too large (expected a whole number from 0 to 1000000000)"
run logs 12_x
expect_status "bad task" 2
expect_err "bad task" "mbsbatch: logs: job id '12_x' has a task that is not a whole number from 0 to 4000000"
run logs 0
expect_err "job 0" "mbsbatch: logs: job id '0' is too small"
run logs 12 13
expect_status "two jobs" 2
run logs --point 1
expect_status "--point alone" 2
expect_err "--point alone" "mbsbatch: logs: --point N needs the sweep's --journal FILE"
run logs --journal j.sweep
expect_status "--journal alone" 2
expect_err "--journal alone" "mbsbatch: logs: --journal FILE needs --point N: which point of the sweep"
run logs 12 --journal j.sweep --point 1
expect_status "both" 2
expect_err "both" "mbsbatch: logs: give a JOBID or --journal FILE --point N, not both"
run logs 12 --json -f
expect_status "--json -f" 2
expect_err "--json -f" "mbsbatch: logs: --json prints where the job writes, not its log: not with -f"
run logs 12 --json --lines 3
expect_err "--json --lines" "mbsbatch: logs: --json prints where the job writes, not its log: not with --lines"
run logs 12 --follw
expect_status "unknown option" 2

# A journal: its points are checked before Slurm is asked.
run logs --journal nope.sweep --point 0
expect_status "no journal" 1
expect_err "no journal" "mbsbatch: journal 'nope.sweep': open: No such file or directory"
cat >j.sweep <<'EOF'
{"sweep":"abc123","version":1,"points":3,"grid":[["tp",["1","2","3"]]],"array":true}
{"submitting":"x-abc123-a0","points":[0,2]}
{"queued":"x-abc123-a0","job_id":41,"points":[0,2],"settings":["tp=1","tp=3"]}
EOF
run logs --journal j.sweep --point 3
expect_status "point out of range" 2
expect_err "point out of range" "mbsbatch: --point: '3' is too large (sweep abc123 of journal 'j.sweep' has 3 points, from 0)"
run logs --journal j.sweep --point 1
expect_status "point not queued" 1
expect_err "point not queued" "mbsbatch: logs: journal 'j.sweep' records no job for point 1: it was skipped, or is not queued yet"
# Point 2 is task 1 of array 41 (-v says so), which Slurm is then asked
# about: no Slurm here, so that fails, after the line.
SLURM_CONF=/nonexistent "$MBSBATCH" -v logs --journal j.sweep --point 2 --via sbatch >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "point 2: no Slurm" 1
if head -n 1 "$tmp/err" | grep -qx "mbsbatch: logs: point 2 of journal 'j.sweep' is job 41_1"; then ok; else bad "point 2: -v line"; fi

# --check judges the whole files: not with a part of them.
run logs 12 --check -f
expect_status "--check -f" 2
expect_err "--check -f" "mbsbatch: logs: --check reads the job's whole output and error files: not with -f"
run logs 12 --check --lines 3
expect_err "--check --lines" "mbsbatch: logs: --check reads the job's whole output and error files: not with --lines"
run logs 12 --check --err
expect_err "--check --err" "mbsbatch: logs: --check reads the job's whole output and error files: not with --err"
run status --journal j.sweep --check
expect_status "status --journal --check" 2
expect_err "status --journal --check" "mbsbatch: status: --check judges one job's log: give its JOBID (a point's: 'mbsbatch logs --journal FILE --point N --check')"

finish
