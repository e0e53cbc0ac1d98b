#!/bin/sh
# record-issue15.sh OUTDIR submit|purged: how the *-i15-* answers of
# 22.05/, 24.11/ and 25.11/ were recorded (issue 15: status of arrays,
# dependencies, ended and purged jobs; accounting).  Run as root with a
# test cluster's env sourced (tests/slurm/cluster.sh; MBS_SLURM_MIN_JOB_AGE=10,
# MBS_SLURM_ACCOUNTING=yes on 22.05 and 25.11): "submit" submits an array
# --array=0-9%2, a job exiting 3, one depending on the array, one to
# cancel while it runs (sig) and one held then cancelled (never), and
# records slurmctld's and accounting's answers; "purged", once the array
# has ended and slurmctld forgot the jobs (about 2 min later), records
# them again.  Files are NAME.body and NAME.status (the HTTP status),
# copied into the release's directory as API-i15-NAME.
out=$1; phase=$2
mkdir -p "$out"
api=$MBS_SLURM_API
get() {	# NAME PATH
	curl -s --noproxy '*' --max-time 20 -H "X-SLURM-USER-NAME: $MBS_REST_USER" \
	    -H "X-SLURM-USER-TOKEN: $(cat "$MBS_JWT_FILE")" \
	    -o "$out/$1.body" -w '%{http_code}\n' "$MBS_REST_URL$2" > "$out/$1.status"
	echo "$1: GET $2 -> $(cat "$out/$1.status")"
}
cd "$out" || exit 1
if [ "$phase" = submit ]; then
	arr=$(sbatch --parsable -p "$MBS_SLURM_PARTITION" -N1 -J arr --array=0-9%2 -o arr-%A_%a.out --wrap 'sleep 20')
	fail=$(sbatch --parsable -p "$MBS_SLURM_PARTITION" -N1 -J fail -o fail.out --wrap 'echo started; exit 3')
	dep=$(sbatch --parsable -p "$MBS_SLURM_PARTITION" -N1 -J dep -d afterany:$arr -o dep.out --wrap 'true')
	sig=$(sbatch --parsable -p "$MBS_SLURM_PARTITION" -N1 -J sig -o sig.out --wrap 'sleep 300')
	never=$(sbatch --parsable -p "$MBS_SLURM_PARTITION" -N1 -J never -H -o never.out --wrap 'true')
	echo "arr=$arr fail=$fail dep=$dep sig=$sig never=$never" > ids
	sleep 6
	squeue
	get job-array "/slurm/$api/job/$arr"
	get job-array-task0 "/slurm/$api/job/$arr"_0
	get job-fail "/slurm/$api/job/$fail"
	get job-dep "/slurm/$api/job/$dep"
	get job-unknown "/slurm/$api/job/999999"
	get jobs "/slurm/$api/jobs"
	# the task 0's own job id
	t0=$(squeue -h -j "${arr}_0" -o %A 2>/dev/null | head -1)
	echo "t0=$t0" >> ids
	[ -n "$t0" ] && get job-task0-id "/slurm/$api/job/$t0"
	scancel "$sig" "$never"; sleep 2
	get job-sig "/slurm/$api/job/$sig"
	get job-never "/slurm/$api/job/$never"
	get db-job-fail-early "/slurmdb/$api/job/$fail"
	get db-job-unknown "/slurmdb/$api/job/999999"
	get db-job-array-running "/slurmdb/$api/job/$arr"
else
	. ./ids
	get job-fail-purged "/slurm/$api/job/$fail"
	get job-array-purged "/slurm/$api/job/$arr"
	get db-job-fail "/slurmdb/$api/job/$fail"
	get db-job-array "/slurmdb/$api/job/$arr"
	get db-job-dep "/slurmdb/$api/job/$dep"
	get db-job-task0 "/slurmdb/$api/job/$t0"
	get db-job-sig "/slurmdb/$api/job/$sig"
	get db-job-never "/slurmdb/$api/job/$never"
	get jobs-after "/slurm/$api/jobs"
fi
