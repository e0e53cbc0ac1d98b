# accounting.sh (Slurm): the test cluster with accounting
# (MBS_SLURM_ACCOUNTING=yes: MariaDB and slurmdbd) answers for a job after
# slurmctld has forgotten it (MBS_SLURM_MIN_JOB_AGE=10): sacct and
# slurmrestd's /slurmdb/ endpoint give its state and exit code.  On
# Debian's 22.05, and on 25.11 when MBS_SLURM_RELEASE says so.
MBS_SLURM_ACCOUNTING=yes
MBS_SLURM_MIN_JOB_AGE=10
export MBS_SLURM_ACCOUNTING MBS_SLURM_MIN_JOB_AGE
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"
# A failure of a command that is not mbsbatch (bad shows run's output).
nope() { fail=$((fail + 1)); echo "FAIL: $*"; }
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse slurmrestd's answers"
need curl "to ask slurmrestd"

work="$tmp/work"
mkdir -p "$work"
cd "$work" || exit 1

# A job that fails with exit code 3.
id=$(sbatch --parsable -p "$MBS_SLURM_PARTITION" -N1 -o fail.out \
    --wrap 'echo started; exit 3' 2>"$tmp/err")
case $id in
[1-9]*) ok ;;
*) nope "sbatch: $(cat "$tmp/err")" ;;
esac
final=$(wait_done "$id" 60)
if [ "$final" = FAILED ]; then ok; else nope "job: $final"; fi

# slurmctld forgets it within MinJobAge + the purge interval (10 + 10 s).
i=0
while [ -n "$(job_state "$id")" ] && [ $i -lt 300 ]; do
	sleep 0.2
	i=$((i + 1))
done
if [ -z "$(job_state "$id")" ]; then ok; else nope "slurmctld still has job $id after 60 s"; fi

# Accounting still knows it: sacct ...
sacct -n -P -X -j "$id" -o JobID,State,ExitCode,NodeList >"$tmp/sacct" 2>&1
if grep -qx "$id|FAILED|3:0|mbsnode[0-3]" "$tmp/sacct"; then ok; else
	nope "sacct: $(cat "$tmp/sacct")"; fi
# ... and slurmrestd, over /slurmdb/ of the newest API version.
curl -s --noproxy '*' --max-time 10 -H "X-SLURM-USER-NAME: $MBS_REST_USER" \
    -H "X-SLURM-USER-TOKEN: $(cat "$MBS_JWT_FILE")" \
    "$MBS_REST_URL/slurmdb/$MBS_SLURM_API/job/$id" >"$tmp/rest.json"
# 22.05 (v0.0.38): state.current is a string, and exit_code is wrong:
# every job that exited is {"status": "SUCCESS", "return_code": 0} (its
# _dump_job_exit_code() in dbv0.0.38/parse.c tests WIFEXITED first and
# writes 0), so only sacct has the exit code there.  25.11 (v0.0.44): a
# list of flags, and {"set", "number"}.
if [ "$MBS_SLURM_RELEASE" = 22.05 ]; then
	want="[$id,\"FAILED\",0]"
else
	want="[$id,\"FAILED\",3]"
fi
got=$("$JQ" -c '.jobs[0] | [.job_id, (.state.current | if type == "array"
    then .[0] else . end), (.exit_code.return_code | if type == "object"
    then .number else . end)]' "$tmp/rest.json" 2>&1)
if [ "$got" = "$want" ]; then ok; else
	nope "REST /slurmdb/$MBS_SLURM_API/job/$id: $got, not $want"; fi
finish
