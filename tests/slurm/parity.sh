# parity.sh (Slurm): the job Slurm gets through each back end is the job
# sbatch makes of the same script, on the release MBS_SLURM_RELEASE runs
# (22.05 by default; tests/slurm/release-*.sh run the others).  Two
# 2-node 16-task scripts (8 tasks and GPUs per node; --ntasks,
# --cpus-per-task, --gpus-per-task and --export=NONE,VAR) each through
# `sbatch` itself, then
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

status=0

# The unix-socket slurmrestd of 25.05 and later runs as daemon and serves
# only daemon: its jobs are daemon's, and write where daemon may.
work="$tmp/work"
mkdir -p "$work"
chmod 1777 "$work"
cd "$work" || exit 1
# gpus.sh: the Megatron shape, 8 tasks a node, a GPU each.  tasks.sh: the
# other way to say it (--ntasks, --cpus-per-task, --gpus-per-task), with
# --export=NONE (Slurm loads the login environment) and a variable.
body='env | sort >"batch-$SLURM_JOB_ID.env"
srun --export=ALL sh -c '\''env | sort >"task-$SLURM_JOB_ID-$SLURM_PROCID.env"'\'
# With --export=NONE the job has the login environment, whose PATH finds
# Debian's 22.05 srun: a build of another release is named (the same for
# every job compared).
login=
[ -n "${MBS_SLURM_HOME:-}" ] && login="export PATH=$MBS_SLURM_HOME/bin:\$PATH LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
cat >gpus.sh <<EOF
#!/bin/sh
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=5
#SBATCH --job-name=parity
#SBATCH --output=out-%j.txt
$body
EOF
cat >tasks.sh <<EOF
#!/bin/sh
#SBATCH --nodes=2
#SBATCH --ntasks=16
#SBATCH --cpus-per-task=2
#SBATCH --gpus-per-task=1
#SBATCH --export=NONE,MBS_PARITY=1
#SBATCH --time=5
#SBATCH --output=out-%j.txt
$login
$body
EOF

# The fields and environments compared, and how (lib.sh).
stored() { job_stored "$1"; }
fields_of() { job_show "$1" "$work"; }
clean() { env_clean "$1" "$user"; }

# reference SCRIPT: its job through sbatch itself, in $ref.
reference() {
	ref=$(sbatch --parsable "$1")
	case $ref in
	'' | *[!0-9]*) echo "FAIL: sbatch: $ref"; exit 1 ;;
	esac
	user=root
	st=$(wait_done "$ref" 60)
	[ "$st" = COMPLETED ] || { echo "FAIL: the sbatch job: $st"; cat out-"$ref".txt; exit 1; }
	if [ "$(ls task-"$ref"-*.env | wc -l)" -eq 16 ]; then ok; else bad "sbatch itself ran $(ls task-"$ref"-*.env | wc -l) tasks"; fi
	stored "$ref" >ref.sent
	fields_of "$ref" >ref.show
}

# compare NAME ID [USER]: job ID, submitted by NAME, against the reference.
compare() {
	name="$1 ($script)" id=$2 user=$3 f=$1.${script%.sh}
	st=$(wait_done "$id" 60)
	if [ "$st" = COMPLETED ]; then ok; else bad "$name: $st: $(cat out-"$id".txt 2>/dev/null)"; return; fi
	n=$(ls task-"$id"-*.env 2>/dev/null | wc -l)
	if [ "$n" -eq 16 ]; then ok; else bad "$name: $n tasks, not 16"; fi
	ranks=$(cat task-"$id"-*.env | sed -n 's/^SLURM_PROCID=//p' | sort -n | tr '\n' ' ')
	if [ "$ranks" = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 " ]; then ok; else bad "$name: ranks $ranks"; fi
	if grep -q '^SLURM_NTASKS=16$' batch-"$id".env; then ok; else bad "$name: batch step: $(grep '^SLURM_NTASKS=' batch-"$id".env)"; fi

	stored "$id" >"$f.sent"
	# The unix-socket jobs of 25.05+ are daemon's: their user differs.
	skip_user=
	[ "$user" != root ] && skip_user='^(UserId|GroupId)='
	if diff -u ref.sent "$f.sent" | grep -Ev '^(\+\+\+|---) ' |
	    grep -E '^[-+]' | grep -Ev '^[-+](_|SHLVL)=' >"$f.sent.diff"; then
		bad "$name: the environment sent differs from sbatch's:"
		sed 's/^/    /' "$f.sent.diff"
	else
		ok
	fi
	fields_of "$id" | { [ -n "$skip_user" ] && grep -Ev "$skip_user" || cat; } >"$f.show"
	if { [ -n "$skip_user" ] && grep -Ev "$skip_user" ref.show || cat ref.show; } |
	    job_documented "$1" | diff - "$f.show" >"$f.show.diff"; then
		ok
	else
		bad "$name: scontrol show job differs from sbatch's:"
		sed 's/^/    /' "$f.show.diff"
	fi
	clean batch-"$ref".env >ref.batch
	clean batch-"$id".env >"$f.batch"
	if diff ref.batch "$f.batch" >"$f.batch.diff"; then ok; else
		bad "$name: the batch step's environment differs:"
		sed 's/^/    /' "$f.batch.diff"
	fi
	r=0
	while [ $r -lt 16 ]; do
		clean task-"$ref"-$r.env >ref.task
		clean task-"$id"-$r.env >"$f.task"
		if ! diff ref.task "$f.task" >"$f.task.diff"; then
			bad "$name: task $r's environment differs:"
			sed 's/^/    /' "$f.task.diff"
			break
		fi
		r=$((r + 1))
	done
	[ $r -eq 16 ] && ok
}

# through VIA [REST_URL REST_USER] SCRIPT: submit SCRIPT, compare.
through() {
	name=$1
	case $1 in
	rest-*)
		auth="--token-file $MBS_JWT_FILE"
		[ "$3" = root ] || auth="--user $3"
		id=$("$MBSBATCH" submit --script "$4" --parsable --via rest \
		    --rest-url "$2" $auth 2>"$tmp/err")
		u=$3
		;;
	*)
		id=$("$MBSBATCH" submit --script "$2" --parsable --via "$1" 2>"$tmp/err")
		u=root
		;;
	esac
	case $id in
	'' | *[!0-9]*) bad "$name: $(cat "$tmp/err")" ;;
	*) compare "$name" "$id" "$u" ;;
	esac
}

for script in gpus.sh tasks.sh; do
	reference "$script"
	for via in $(test_vias); do
		case $via in
		rest)
			through rest-tcp "$MBS_REST_URL" root "$script"
			# --export=NONE has slurmd load the login environment
			# of the job's user, which daemon (nologin) has none of:
			# Slurm holds such a job, from sbatch too.
			if [ "$MBS_REST_UNIX_USER" = root ] || [ "$script" != tasks.sh ]; then
				through rest-unix "$MBS_REST_UNIX" "$MBS_REST_UNIX_USER" "$script"
			fi
			;;
		*) through "$via" "$script" ;;
		esac
	done
done
finish
