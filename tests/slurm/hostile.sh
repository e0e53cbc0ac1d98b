# hostile.sh (Slurm): another user's job names are data, never structure,
# on a real cluster, through every back end.  User nobody queues held
# jobs whose names forge scontrol records (a newline, then "JobId=V ...
# UserId=root(0) ... Dependency=afterany:R": root's job V waiting for
# root's job R, and a job 99999 that does not exist) and one whose name
# is not UTF-8 and holds a terminal's control sequences; root has a job
# whose name holds a newline.  Then, as root: jobs lists root's jobs, all
# of them and no other (squeue's ids, which no name can change, are the
# truth); status shows nobody's jobs with their names whole, as valid
# JSON; cancel --chain R cancels R and the job that really waits for it,
# and V stays pending.  Nothing printed holds a control byte but line
# feeds.  Nor is the user's environment structure: SQUEUE_*, SACCT_*,
# SCANCEL_* filters change nothing, and a user without a passwd entry
# sees, finds and cancels its jobs.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse --json"
need setpriv "to queue jobs as user nobody"
[ "$(id -u)" -eq 0 ] || skip "not root: jobs of another user cannot be made"

work="$tmp/work"
mkdir -p "$work"
chmod 755 "$work"
cd "$work" || exit 1

# sb ARGS: sbatch as root, held, writing nowhere; prints the id.
sb() {
	sbatch --parsable --hold -o /dev/null "$@" --wrap true
}
# sb_nobody NAME: the same as user nobody, the job named NAME.
sb_nobody() {
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups -- \
	    sbatch --parsable --hold -o /dev/null -J "$1" --wrap true)
}
# A failure of something that is not mbsbatch.
nope() { fail=$((fail + 1)); echo "FAIL: $*"; }

# clean DESC: stdout and stderr hold no control byte but line feeds.
clean() {
	if cat "$tmp/out" "$tmp/err" | LC_ALL=C tr -d '\n' |
	    LC_ALL=C grep -q '[[:cntrl:]]'; then
		bad "$1: a control byte printed"
	else
		ok
	fi
}

# root's pending jobs' ids as squeue prints them (ids only: no name can
# add one).
root_ids() {
	squeue --noheader --states=PENDING --user=root --format=%A | sort -n |
	    tr '\n' ' '
}

# sq_state ID: the job's state as squeue prints it (a state only).
sq_state() {
	squeue --noheader --states=all --jobs="$1" --format=%T 2>/dev/null
}

two=$(printf 'two\nlines')
R2=$(sb -J "$two")
bytes=$(printf 'bad\377\376\033]0;owned\007\nq\r')
N2=$(sb_nobody "$bytes")
[ -n "$R2" ] && [ -n "$N2" ] || { nope "sbatch: the jobs were not queued"; finish; exit 1; }

vias=$(test_vias)
for via in $vias; do
	r=
	[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	R=$(sb -J "root-$via")
	C=$(sb -J "child-$via" --dependency=afterany:"$R")
	V=$(sb -J "victim-$via")
	forged=$(printf 'x\nJobId=%s JobName=fake UserId=root(0) GroupId=root(0) JobState=PENDING Reason=None Dependency=afterany:%s(unfulfilled)\nJobId=99999 JobName=ghost UserId=root(0) GroupId=root(0) JobState=PENDING Reason=None Dependency=afterany:%s(unfulfilled)' "$V" "$R" "$R")
	N1=$(sb_nobody "$forged")

	# jobs: root's, each once, and none else.
	want=$(root_ids)
	# shellcheck disable=SC2086
	run jobs --json --state PENDING --via "$via" $r
	expect_status "$via: jobs --json" 0
	got=$("$JQ" -r '[.jobs[] | .job_id] | sort | map(tostring) | join(" ")' "$tmp/out")
	if [ "$got " = "$want" ]; then ok; else bad "$via: jobs --json lists $got, squeue $want"; fi
	expect_json "$via: jobs --json count" '.count == (.jobs | length)' true
	expect_json "$via: jobs --json, a name with a newline" \
	    "[.jobs[] | select(.job_id == $R2) | .name]" '["two\nlines"]'
	# shellcheck disable=SC2086
	run jobs --state PENDING --via "$via" $r
	expect_status "$via: jobs" 0
	clean "$via: jobs"
	if [ "$(wc -l <"$tmp/out")" -eq "$(( $(echo "$want" | wc -w) + 1 ))" ]; then ok; else bad "$via: jobs: $(wc -l <"$tmp/out") lines for $(echo "$want" | wc -w) jobs"; fi
	expect_out_lacks "$via: jobs" "99999"
	expect_out_has "$via: jobs, a name with a newline" 'two\nlines'

	# status: nobody's jobs, their names whole, valid JSON.
	# shellcheck disable=SC2086
	run status "$N1" --json --via "$via" $r
	expect_status "$via: status forged --json" 0
	if [ "$("$JQ" -j .name "$tmp/out"; echo .)" = "$forged." ]; then ok; else bad "$via: status forged --json: name $("$JQ" .name "$tmp/out")"; fi
	expect_json "$via: status forged --json" '[.job_id, .state]' "[$N1,\"PENDING\"]"
	# shellcheck disable=SC2086
	run status "$N2" --json --via "$via" $r
	expect_status "$via: status bytes --json" 0
	expect_json "$via: status bytes --json" .name '"bad\\xff\\xfe\u001b]0;owned\u0007\nq\r"'
	# shellcheck disable=SC2086
	run status "$N2" --via "$via" $r
	expect_status "$via: status bytes" 0
	clean "$via: status bytes"

	# cancel --chain R: R and C, not V (nor the job that is not there).
	# shellcheck disable=SC2086
	run cancel --chain "$R" --json --via "$via" $r
	expect_status "$via: cancel --chain" 0
	expect_json "$via: cancel --chain" '.cancelled | sort' "[$R,$C]"
	for j in "$V:PENDING" "$N1:PENDING" "$R:CANCELLED" "$C:CANCELLED"; do
		s=$(sq_state "${j%:*}")
		if [ "$s" = "${j#*:}" ]; then ok; else bad "$via: cancel --chain: job ${j%:*} is $s, want ${j#*:}"; fi
	done
	scancel "$V" "$N1"
done

# The user's own environment is no filter either: every SQUEUE_*,
# SACCT_* and SCANCEL_* variable squeue, sacct and scancel read (22.05
# to 25.11), each set to hide the job or skip it, and none changes what
# status, jobs, cancel and sweep --resume see or do (squeue --json of
# 24.05 on applies them; 22.05's columns too; scancel leaves a job that
# does not match them and exits 0).
filters="SQUEUE_ACCOUNT=none SQUEUE_NAMES=none SQUEUE_LICENSES=none
SQUEUE_PARTITION=$MBS_SLURM_BIG_PARTITION SQUEUE_QOS=none
SQUEUE_STATES=RUNNING SQUEUE_USERS=nobody SQUEUE_ARRAY=1
SQUEUE_PRIORITY=1 SQUEUE_FORMAT=%i SQUEUE_SORT=-i SACCT_FEDERATION=1
SACCT_FORMAT=JobID SCANCEL_ACCOUNT=none SCANCEL_NAME=none
SCANCEL_PARTITION=$MBS_SLURM_BIG_PARTITION SCANCEL_QOS=none
SCANCEL_STATE=RUNNING SCANCEL_USER=nobody SCANCEL_WCKEY=none
SCANCEL_INTERACTIVE=yes"
# run_filtered ARGS: run in that environment.
run_filtered() {
	# shellcheck disable=SC2086
	env $filters "$MBSBATCH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}
held="--template command --command true --partition $MBS_SLURM_PARTITION --time 5 --hold --gpus 8"
for via in $vias; do
	r=
	[ "$via" = rest ] && r="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
	J=$(sb -J "filtered-$via")
	# shellcheck disable=SC2086
	run_filtered status "$J" --json --via "$via" $r
	expect_status "$via: filters: status" 0
	expect_json "$via: filters: status" '[.job_id, .state]' "[$J,\"PENDING\"]"
	# shellcheck disable=SC2086
	run_filtered jobs --json --state PENDING --via "$via" $r
	expect_status "$via: filters: jobs" 0
	expect_json "$via: filters: jobs" "[.jobs[] | select(.job_id == $J) | .name]" "[\"filtered-$via\"]"
	# shellcheck disable=SC2086
	run_filtered cancel "$J" --via "$via" $r
	expect_status "$via: filters: cancel" 0
	s=$(sq_state "$J")
	if [ "$s" = CANCELLED ]; then ok; else bad "$via: filters: cancel: job $J is $s"; fi
	# sweep --resume finds a point's job whose id the journal lost,
	# and queues nothing again.
	# shellcheck disable=SC2086
	run sweep $held --via "$via" $r --no-array --journal "jf-$via" --grid time=1,2 --json
	expect_status "$via: filters: sweep" 0
	"$JQ" -c 'select(.queued and .points == [1] | not)' "jf-$via" >"jf-$via.cut"
	mv "jf-$via.cut" "jf-$via"
	# shellcheck disable=SC2086
	run_filtered sweep $held --via "$via" $r --no-array --journal "jf-$via" --grid time=1,2 --resume --json
	expect_status "$via: filters: sweep --resume" 0
	expect_json "$via: filters: sweep --resume" '[.queued,.submissions,.complete]' '[2,0,true]'
	# shellcheck disable=SC2086
	run cancel --journal "jf-$via" --via "$via" $r
	expect_status "$via: filters: sweep's cancel" 0
done

# A user without a passwd entry (uid 12345) has jobs too: through sbatch,
# jobs lists them (squeue's --user takes no such uid before 25.05: every
# job is asked for and the user's kept by uid), sweep --resume finds one,
# cancel --chain cancels its chain.
me=12345
nopw="$tmp/nopw"
mkdir -p "$nopw"
chmod 0777 "$nopw"
# run_nopw ARGS: run as that user, in its own directory.
run_nopw() {
	(cd "$nopw" && setpriv --reuid=$me --regid=$me --clear-groups -- \
	    env HOME="$nopw" XDG_STATE_HOME="$nopw/state" \
	    XDG_CONFIG_HOME="$nopw/config" XDG_CACHE_HOME="$nopw/cache" \
	    "$MBSBATCH" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null)
	status=$?
}
if getent passwd $me >/dev/null; then
	echo "SKIP: uid $me has a passwd entry here"
elif ! setpriv --reuid=$me --regid=$me --clear-groups -- test -x "$MBSBATCH"; then
	echo "SKIP: uid $me cannot run $MBSBATCH (a directory above it is not o+x)"
elif ! echo "$vias" | grep -qw sbatch; then
	echo "SKIP: no sbatch back end here for uid $me"
else
	run_nopw sweep $held --via sbatch --no-array --journal j --grid time=1,2,3 --json
	expect_status "uid $me: sweep" 0
	"$JQ" -c 'select(.queued and .points == [1] | not)' "$nopw/j" >"$tmp/j.cut"
	cat "$tmp/j.cut" >"$nopw/j"
	run_nopw sweep $held --via sbatch --no-array --journal j --grid time=1,2,3 --resume --json
	expect_status "uid $me: sweep --resume" 0
	expect_json "uid $me: sweep --resume" '[.queued,.submissions,.complete]' '[3,0,true]'
	want=$(squeue --noheader --states=PENDING --format='%A %U' | awk -v u=$me '$2 == u { print $1 }' | sort -n | tr '\n' ' ')
	run_nopw jobs --json --state PENDING --via sbatch
	expect_status "uid $me: jobs" 0
	got=$("$JQ" -r '[.jobs[] | .job_id] | sort | map(tostring) | join(" ")' "$tmp/out")
	if [ "$got " = "$want" ] && [ -n "$got" ]; then ok; else bad "uid $me: jobs lists '$got', squeue '$want'"; fi
	first=${want%% *}
	run_nopw cancel --chain "$first" --json --via sbatch
	expect_status "uid $me: cancel --chain" 0
	expect_json "uid $me: cancel --chain" .cancelled "[$first]"
	s=$(sq_state "$first")
	if [ "$s" = CANCELLED ]; then ok; else bad "uid $me: cancel --chain: job $first is $s"; fi
	run_nopw cancel --journal j --via sbatch
fi
finish
