#!/bin/sh
# record-issue24.sh OUTDIR submit|purged: how the *-i24-* answers of
# 22.05/ and 25.11/ were recorded (issue 24: end states before and after
# the purge).  Run as root with a test cluster's env sourced
# (tests/slurm/cluster.sh; MBS_SLURM_ACCOUNTING=yes
# MBS_SLURM_MIN_JOB_AGE=10): "submit" submits a job a signal ends (sig9),
# one pending on the down nodes of the big partition then cancelled
# (pend), one running without a time limit (unlimited), one requeued by
# hand then completed (requeue), one timed out (timeout: its end time
# moved to now) and one whose node is set down (nodefail), and records
# slurmctld's answers; "purged", once slurmctld forgot them (about 40 s
# later), records accounting's.  Files are NAME.body and NAME.status
# (the HTTP status), copied into the release's directory as
# API-i24-NAME.
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
p="-p $MBS_SLURM_PARTITION -N1 -o /dev/null"
if [ "$phase" = submit ]; then
	sig9=$(sbatch --parsable $p -J sig9 -x mbsnode3 --wrap 'sleep 1; kill -9 $$')
	pend=$(sbatch --parsable -p "$MBS_SLURM_BIG_PARTITION" -N1 -J pend -o /dev/null --wrap true)
	unlimited=$(sbatch --parsable $p -J unlimited -t infinite -x mbsnode3 --wrap 'sleep 300')
	requeue=$(sbatch --parsable $p -J requeue --requeue -x mbsnode3 \
	    --wrap '[ "${SLURM_RESTART_COUNT:-0}" -gt 0 ] || sleep 300')
	timeout=$(sbatch --parsable $p -J timeout -x mbsnode3 --wrap 'sleep 300')
	nodefail=$(sbatch --parsable $p -J nodefail -w mbsnode3 --no-requeue --wrap 'sleep 300')
	echo "sig9=$sig9 pend=$pend unlimited=$unlimited requeue=$requeue timeout=$timeout nodefail=$nodefail" > ids
	sleep 5
	squeue
	get job-sig9 "/slurm/$api/job/$sig9"
	get job-pend "/slurm/$api/job/$pend"
	get job-unlimited "/slurm/$api/job/$unlimited"
	scancel "$pend" "$unlimited"
	scontrol requeue "$requeue"
	scontrol update jobid="$timeout" EndTime=now+1
	scontrol update nodename=mbsnode3 state=down reason=record-issue24
	sleep 2
	get job-pend-cancelled "/slurm/$api/job/$pend"
	get job-requeued "/slurm/$api/job/$requeue"
	get job-nodefail "/slurm/$api/job/$nodefail"
	scontrol update nodename=mbsnode3 state=resume
else
	. ./ids
	get db-job-sig9 "/slurmdb/$api/job/$sig9"
	get db-job-pend "/slurmdb/$api/job/$pend"
	get db-job-unlimited "/slurmdb/$api/job/$unlimited"
	get db-job-requeue "/slurmdb/$api/job/$requeue"
	get db-job-timeout "/slurmdb/$api/job/$timeout"
	get db-job-nodefail "/slurmdb/$api/job/$nodefail"
fi
