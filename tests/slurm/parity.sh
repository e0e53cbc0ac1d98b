# parity.sh (Slurm): the job Slurm gets through each back end is the job
# sbatch makes of the same script, on the release MBS_SLURM_RELEASE runs
# (22.05 by default; tests/slurm/release-*.sh run the others).  One
# 2-node 16-GPU script (8 tasks per node) through `sbatch` itself, then
# through mbsbatch submit --script with each back end (rest over TCP and
# over the unix socket, native when built for this release, sbatch), one
# job at a time so that each lands on the same nodes; compared:
#   - the environment slurmctld stored for the job (what was sent),
#   - the `scontrol show job` fields listed in $fields,
#   - the environment of the batch step and of every task (16 ranks,
#     SLURM_NTASKS=16, the GPUs each task sees),
# all but what differs from job to job (ids, times, $_ and the like).
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/slurm/lib.sh"

# Fields of scontrol show job that say what the job is (not when or
# which id it got).
# (Not Priority: priority/basic gives each job one less than the last.)
fields="JobName UserId GroupId Nice Account QOS JobState Reason
Requeue Restarts BatchFlag Reboot ExitCode TimeLimit TimeMin Partition
NodeList BatchHost NumNodes NumCPUs NumTasks CPUs/Task ReqB:S:C:T
ReqTRES AllocTRES Socks/Node NtasksPerN:B:S:C CoreSpec MinCPUsNode
MinMemoryNode MinTmpDiskNode Features DelayBoot OverSubscribe Contiguous
Licenses Network WorkDir TresPerNode TresPerTask MailUser MailType
Power CpusPerTres MemPerTres TresBind TresFreq"

# Variables that differ from one job to the next whoever submits it.
volatile='^(_|SLURM_JOB_ID|SLURM_JOBID|SLURM_ARRAY_JOB_ID|SLURM_TASK_PID|SLURM_JOB_START_TIME|SLURM_JOB_END_TIME|SLURM_STEP_ID|SLURM_STEPID|SLURM_LAUNCH_NODE_IPADDR|SLURM_SRUN_COMM_PORT|SLURM_STEP_LAUNCHER_PORT|PMI_.*|SLURM_PMI.*|OLDPWD|PWD|SLURM_SUBMIT_DIR|SLURM_CPU_BIND.*|SLURM_JOB_CPUS_PER_NODE_PACK.*)='

# The unix-socket slurmrestd of 25.05 and later runs as daemon and serves
# only daemon: its jobs are daemon's, and write where daemon may.
work="$tmp/work"
mkdir -p "$work"
chmod 1777 "$work"
cd "$work" || exit 1
cat >job.sh <<'EOF'
#!/bin/sh
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=5
#SBATCH --job-name=parity
#SBATCH --output=out-%j.txt
env | sort >"batch-$SLURM_JOB_ID.env"
srun sh -c 'env | sort >"task-$SLURM_JOB_ID-$SLURM_PROCID.env"'
EOF

# stored ID: the environment slurmctld keeps for job ID, sorted.
stored() {
	f=$MBS_SLURM_STATE/ctld/hash.$(($1 % 10))/job.$1/environment
	# NAME=value strings, NUL-separated after a binary header.
	tr '\0' '\n' <"$f" | grep -a '^[A-Za-z_][A-Za-z0-9_]*=' | sort
}

# fields_of ID: the compared fields of scontrol show job ID, one per line.
fields_of() {
	scontrol show job -o "$1" | tr ' ' '\n' | awk -F= -v want="$fields" '
		BEGIN { n = split(want, w, /[ \n]+/); for (i = 1; i <= n; i++) k[w[i]] = 1 }
		($1 in k) { print }' | sort
}

# clean FILE: an environment without what changes from job to job (and
# without the user's ids when the job is another user's).
clean() {
	if [ "$user" = root ]; then
		grep -Ev "$volatile" "$1"
	else
		grep -Ev "$volatile" "$1" | grep -Ev '^SLURM_JOB_(UID|GID|USER|GROUP)='
	fi
}

# submit_ref: the reference job through sbatch itself; prints its id.
ref=$(sbatch --parsable job.sh)
case $ref in
'' | *[!0-9]*) echo "FAIL: sbatch: $ref"; exit 1 ;;
esac
user=root
st=$(wait_done "$ref" 60)
[ "$st" = COMPLETED ] || { echo "FAIL: the sbatch job: $st"; cat out-"$ref".txt; exit 1; }
if [ "$(ls task-"$ref"-*.env | wc -l)" -eq 16 ]; then ok; else bad "sbatch itself ran $(ls task-"$ref"-*.env | wc -l) tasks"; fi
stored "$ref" >ref.sent
fields_of "$ref" >ref.show

# compare NAME ID [USER]: job ID, submitted by NAME, against the reference.
compare() {
	name=$1 id=$2 user=$3
	st=$(wait_done "$id" 60)
	if [ "$st" = COMPLETED ]; then ok; else bad "$name: $st: $(cat out-"$id".txt 2>/dev/null)"; return; fi
	n=$(ls task-"$id"-*.env 2>/dev/null | wc -l)
	if [ "$n" -eq 16 ]; then ok; else bad "$name: $n tasks, not 16"; fi
	ranks=$(cat task-"$id"-*.env | sed -n 's/^SLURM_PROCID=//p' | sort -n | tr '\n' ' ')
	if [ "$ranks" = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 " ]; then ok; else bad "$name: ranks $ranks"; fi
	if grep -q '^SLURM_NTASKS=16$' batch-"$id".env; then ok; else bad "$name: batch step: $(grep '^SLURM_NTASKS=' batch-"$id".env)"; fi

	stored "$id" >"$name.sent"
	# The unix-socket jobs of 25.05+ are daemon's: their user differs.
	skip_user=
	[ "$user" != root ] && skip_user='^(UserId|GroupId)='
	if diff -u ref.sent "$name.sent" | grep -Ev '^(\+\+\+|---) ' |
	    grep -E '^[-+]' | grep -Ev '^[-+]_=' >"$name.sent.diff"; then
		bad "$name: the environment sent differs from sbatch's:"
		sed 's/^/    /' "$name.sent.diff"
	else
		ok
	fi
	fields_of "$id" | { [ -n "$skip_user" ] && grep -Ev "$skip_user" || cat; } >"$name.show"
	if { [ -n "$skip_user" ] && grep -Ev "$skip_user" ref.show || cat ref.show; } |
	    diff - "$name.show" >"$name.show.diff"; then
		ok
	else
		bad "$name: scontrol show job differs from sbatch's:"
		sed 's/^/    /' "$name.show.diff"
	fi
	clean batch-"$ref".env >ref.batch
	clean batch-"$id".env >"$name.batch"
	if diff ref.batch "$name.batch" >"$name.batch.diff"; then ok; else
		bad "$name: the batch step's environment differs:"
		sed 's/^/    /' "$name.batch.diff"
	fi
	r=0
	while [ $r -lt 16 ]; do
		clean task-"$ref"-$r.env >ref.task
		clean task-"$id"-$r.env >"$name.task"
		if ! diff ref.task "$name.task" >"$name.task.diff"; then
			bad "$name: task $r's environment differs:"
			sed 's/^/    /' "$name.task.diff"
			break
		fi
		r=$((r + 1))
	done
	[ $r -eq 16 ] && ok
}

for via in $(test_vias); do
	case $via in
	rest)
		id=$("$MBSBATCH" submit --script job.sh --parsable --via rest \
		    --rest-url "$MBS_REST_URL" --token-file "$MBS_JWT_FILE" 2>"$tmp/err")
		compare rest-tcp "$id" root
		id=$("$MBSBATCH" submit --script job.sh --parsable --via rest \
		    --rest-url "$MBS_REST_UNIX" --user "$MBS_REST_UNIX_USER" 2>"$tmp/err")
		case $id in '' | *[!0-9]*) bad "rest unix: $(cat "$tmp/err")"; continue ;; esac
		compare rest-unix "$id" "$MBS_REST_UNIX_USER"
		;;
	*)
		id=$("$MBSBATCH" submit --script job.sh --parsable --via "$via" 2>"$tmp/err")
		case $id in '' | *[!0-9]*) bad "$via: $(cat "$tmp/err")"; continue ;; esac
		compare "$via" "$id" root
		;;
	esac
done
finish
