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
# feeds.
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
finish
