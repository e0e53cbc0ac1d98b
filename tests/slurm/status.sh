# status.sh (Slurm): status and jobs after submit, through each back end,
# on the test cluster with accounting (MBS_SLURM_ACCOUNTING=yes) and a
# short MinJobAge (10 s), so ended jobs leave slurmctld and accounting
# answers: a job that fails, one that completes, one cancelled; a 10-task
# array with 2 failing tasks, whole and task by task; --wait's exit
# statuses (and Ctrl-C stopping the wait, not the job); status --journal
# of a sweep; jobs with its filters.  Issue 15.
MBS_SLURM_ACCOUNTING=yes
MBS_SLURM_MIN_JOB_AGE=10
export MBS_SLURM_ACCOUNTING MBS_SLURM_MIN_JOB_AGE
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"
nope() { fail=$((fail + 1)); echo "FAIL: $*"; }

work="$tmp/work"
mkdir -p "$work"
cd "$work" || exit 1
p="-p $MBS_SLURM_PARTITION -N1 -o /dev/null"

# The jobs, submitted once and asked about through each back end.
fails=$(sbatch --parsable $p --wrap 'sleep 1; exit 3')
works=$(sbatch --parsable $p --wrap 'sleep 1')
long=$(sbatch --parsable $p --wrap 'sleep 300')
arr=$(sbatch --parsable $p --array=0-9%4 \
    --wrap 'sleep 6; case $SLURM_ARRAY_TASK_ID in 3|7) exit 2 ;; esac')
held=$(sbatch --parsable $p -H -J stheld-1 --wrap true)
for id in "$fails" "$works" "$long" "$arr" "$held"; do
	case $id in [1-9]*) ok ;; *) nope "sbatch: '$id'" ;; esac
done
# slurmctld needs a moment to schedule; a task of the throttled array
# waits in the group of tasks not yet started.
wait_state "$long" RUNNING 30 || nope "job $long never ran"

vias=$(test_vias)
for via in $vias; do
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run status "${arr}_9" --json --via "$via" $rest
	expect_status "$via: pending task" 0
	expect_json "$via: pending task" '[.state,.array_job_id,.array_task_id]' \
	    "[\"PENDING\",$arr,9]"
	run jobs --name stheld --json --via "$via" $rest
	expect_status "$via: jobs --name" 0
	expect_json "$via: jobs --name" '[.jobs[] | [.job_id,.state]]' \
	    "[[$held,\"PENDING\"]]"
	run jobs --state running --via "$via" $rest
	expect_status "$via: jobs --state" 0
	expect_out_has "$via: jobs --state" "$long "
	expect_out_lacks "$via: jobs --state" "$held "
done

# --wait: 1 and the state on stderr for a failure, 0 for a completion.
set -- $vias
via=$1
rest=
[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
run status "$fails" --wait --via "$via" $rest
expect_status "wait: failed" 1
if grep -q "^mbsbatch: job $fails: FAILED .*exit code 3" "$tmp/err"; then ok; else
	bad "wait: failed: stderr"; fi
run status "$works" --wait --via "$via" $rest
expect_status "wait: completed" 0
expect_out_has "wait: completed" "job $works: COMPLETED"
# Ctrl-C stops the wait, not the job.
"$MBSBATCH" status "$long" --wait --via "$via" $rest >"$tmp/out" 2>"$tmp/err" &
w=$!
sleep 3
kill -INT "$w"
wait "$w"
status=$?
expect_status "wait: interrupted" 130
expect_err "wait: interrupted" "mbsbatch: job $long: stopped waiting; the job goes on (RUNNING)"
[ "$(job_state "$long")" = RUNNING ] && ok || nope "Ctrl-C touched job $long"
scancel "$long"
run status "$long" --wait --via "$via" $rest
expect_status "wait: cancelled" 1
if grep -q "^mbsbatch: job $long: CANCELLED" "$tmp/err"; then ok; else
	bad "wait: cancelled: stderr"; fi
# submit --wait: the same, for the job it queued.
run submit --template command --command 'exit 4' --partition "$MBS_SLURM_PARTITION" \
    --time 5 --wait --via "$via" $rest
expect_status "submit --wait: failed" 1
if grep -q "^mbsbatch: job [0-9]*: FAILED .*exit code 4" "$tmp/err"; then ok; else
	bad "submit --wait: stderr"; fi
run submit --template command --command true --partition "$MBS_SLURM_PARTITION" \
    --time 5 --wait --json --via "$via" $rest
expect_status "submit --wait: completed" 0
expect_json "submit --wait: completed" '[.final[] | [.state,.exit_code]]' '[["COMPLETED",0]]'
# The whole array: 1, and the tasks that failed.
run status "$arr" --wait --via "$via" $rest
expect_status "wait: array" 1
expect_out_has "wait: array" "array $arr: 10 tasks: "
expect_err "wait: array" "mbsbatch: array $arr: 2 tasks did not complete (FAILED)"

for via in $vias; do
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run status "$arr" --json --via "$via" $rest
	expect_status "$via: array" 0
	# Tasks that left slurmctld (MinJobAge) come from accounting, whose
	# exit codes slurmrestd 22.05 does not give: then the array's is
	# not known either (null), rather than the largest of the others.
	want=2
	if [ "$via" = rest ] && [ "$MBS_SLURM_RELEASE" = 22.05 ] &&
	    "$JQ" -e '[.tasks[] | select(.source == "slurmdbd")] | length > 0' "$tmp/out" >/dev/null; then
		want=null
	fi
	expect_json "$via: array" '[.array,.task_count,.states.COMPLETED,.states.FAILED,.failed_tasks,.exit_code]' \
	    "[true,10,8,2,[3,7],$want]"
	run status "${arr}_3" --via "$via" $rest
	expect_status "$via: failed task" 0
	# (slurmctld may have forgotten it already: accounting has no
	# reason for an ended job.)
	# slurmrestd 22.05's accounting has no true exit code: none shown.
	want="^job ${arr}_3 ([0-9]*): FAILED.*, 1 node .*exit code 2"
	if [ "$via" = rest ] && [ "$MBS_SLURM_RELEASE" = 22.05 ] &&
	    grep -q "from accounting" "$tmp/out"; then
		want="^job ${arr}_3 ([0-9]*): FAILED.*, 1 node in partition [a-z]* on mbsnode[0-3], ran "
	fi
	if grep -q "$want" "$tmp/out"; then ok; else
		bad "$via: failed task"; fi
done

# A sweep, point by point.
run sweep --template command --command true --partition "$MBS_SLURM_PARTITION" \
    --no-array --journal sw.sweep --grid time=1,2 --json --via "$via" $rest
expect_status "sweep" 0
run status --journal sw.sweep --wait --json --via "$via" $rest
expect_status "status --journal" 0
expect_json "status --journal" '[.rows[] | [.point,.state,.exit_code]]' \
    '[[0,"COMPLETED",0],[1,"COMPLETED",0]]'
run status --journal sw.sweep 12 --via "$via" $rest
expect_status "status --journal and a job" 2

# Once slurmctld has forgotten them (MinJobAge 10 s, purged every 10 s),
# accounting answers.
i=0
while [ -n "$(job_state "$fails")$(job_state "$arr")" ] && [ $i -lt 300 ]; do
	sleep 0.2
	i=$((i + 1))
done
[ -z "$(job_state "$fails")$(job_state "$arr")" ] && ok ||
    nope "slurmctld still knows $fails or $arr after 60 s"
for via in $vias; do
	rest=
	[ "$via" = rest ] && rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	run status "$fails" --json --via "$via" $rest
	expect_status "$via: purged" 0
	# slurmrestd 22.05's /slurmdb/ reports every exit code as 0
	# (accounting.sh): no exit code rather than a wrong one.
	if [ "$via" = rest ] && [ "$MBS_SLURM_RELEASE" = 22.05 ]; then
		want='["FAILED","slurmdbd",null]'
	else
		want='["FAILED","slurmdbd",3]'
	fi
	expect_json "$via: purged" '[.state,.source,.exit_code]' "$want"
	run status "$fails" --via "$via" $rest
	expect_out_has "$via: purged" "(from accounting: slurmctld no longer knows it)"
	run status "$arr" --json --via "$via" $rest
	expect_status "$via: purged array" 0
	expect_json "$via: purged array" '[.task_count,.states.COMPLETED,.states.FAILED,.failed_tasks,.source]' \
	    '[10,8,2,[3,7],"slurmdbd"]'
	run status "${arr}_7" --json --via "$via" $rest
	expect_json "$via: purged task" '[.state,.array_task_id,.source]' \
	    '["FAILED",7,"slurmdbd"]'
	run status 99999 --via "$via" $rest
	expect_status "$via: unknown" 1
	expect_err "$via: unknown" "mbsbatch: job 99999: no such job (neither slurmctld nor accounting knows it)"
done
run jobs --state bogus
expect_status "jobs --state bogus" 2
scancel "$held"
finish
