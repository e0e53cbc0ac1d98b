# lib.sh: for tests that need a real Slurm: start a private cluster
# (tests/slurm/cluster.sh) under the test's temporary directory, stop it
# on exit, and give helpers to wait for jobs.  Sourced after
# tests/cli/lib.sh, which provides run, expect_* and finish.

# Absolute: the tests cd elsewhere, and the EXIT trap must still find it.
cluster="$(cd "$top_srcdir" && pwd)/tests/slurm/cluster.sh"
state="$tmp/slurm"
# munged wants every directory above its socket world-executable.
chmod 755 "$tmp"
# What the EXIT trap stops, in names of its own: a test that reuses
# $state or $tmp for something else (a loop variable) must not leave its
# cluster running (logs.sh once did: twelve clusters lived on).
mbs_lib_cluster=$cluster mbs_lib_state=$state mbs_lib_tmp=$tmp
cluster_stop() {
	sh "$mbs_lib_cluster" stop "$mbs_lib_state" >/dev/null 2>&1
	rm -rf "$mbs_lib_tmp"
}
trap cluster_stop EXIT
# A test killed by a signal still stops its cluster.
trap 'exit 1' INT TERM HUP
sh "$cluster" start "$state" >"$tmp/cluster.log" 2>&1
case $? in
0) ;;
77) skip "$(tail -n 3 "$tmp/cluster.log" | tr '\n' ' ')" ;;
*) echo "FAIL: the test cluster did not start:"; cat "$tmp/cluster.log"
   exit 1 ;;
esac
. "$state/env"

# A native back end built for another release cannot talk to this
# cluster's controller: as a site would, a cluster profile makes sbatch
# the default (the tests that name --via native see test_vias).
if "$MBSBATCH" --version | grep -q '^native: ' &&
    ! "$MBSBATCH" --version | grep -q "^native: Slurm ${MBS_SLURM_RELEASE:-22.05} "; then
	printf '{"default_cluster": "test", "clusters": {"test": {"via": "sbatch"}}}\n' \
	    >"$tmp/mbsbatch.json"
	MBSBATCH_CONFIG=$tmp/mbsbatch.json
	export MBSBATCH_CONFIG
fi

# job_state ID: Slurm's state of job ID ("" once it is gone).
job_state() {
	scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'
}

# wait_state ID STATE SECONDS: wait until the job reaches STATE; 0 if so.
wait_state() {
	i=0
	while [ "$i" -lt "$(( $3 * 5 ))" ]; do
		[ "$(job_state "$1")" = "$2" ] && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# wait_done ID SECONDS: wait until the job has ended; prints its state.
wait_done() {
	i=0
	while [ "$i" -lt "$(( $2 * 5 ))" ]; do
		s=$(job_state "$1")
		case $s in
		COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)
			echo "$s"
			return 0 ;;
		esac
		sleep 0.2
		i=$((i + 1))
	done
	echo "$(job_state "$1") (still, after $2 s)"
	return 1
}

# test_vias: the back ends to try on this cluster: rest and sbatch, and
# native when it was built for this cluster's release (a libslurm talks
# to the controller of its own release and the two before it only).
# MBS_TEST_VIAS, when set, keeps only the back ends it names.
test_vias() {
	"$MBSBATCH" --version >"$tmp/version"
	for v in $(sed -n 's/^back ends: //p' "$tmp/version"); do
		case " ${MBS_TEST_VIAS:-$v} " in *" $v "*) ;; *) continue ;; esac
		if [ "$v" = native ] &&
		    ! grep -q "^native: Slurm ${MBS_SLURM_RELEASE:-22.05} " "$tmp/version"; then
			echo "note: native is built for $(sed -n 's/^native: //p' "$tmp/version"), not Slurm ${MBS_SLURM_RELEASE:-22.05}: not tried here" >&2
			continue
		fi
		echo "$v"
	done
}

# What says what a job is, compared between sbatch's job and each back
# end's (parity.sh, jobdiff.sh): the fields of scontrol show job, not
# when or which id it got (nor Priority: priority/basic gives each job
# one less than the last).
job_fields="JobName UserId GroupId Nice Account QOS JobState Reason
Requeue Restarts BatchFlag Reboot ExitCode TimeLimit TimeMin Partition
NodeList BatchHost NumNodes NumCPUs NumTasks CPUs/Task ReqB:S:C:T
ReqTRES AllocTRES TRES Socks/Node NtasksPerN:B:S:C CoreSpec MinCPUsNode
MinMemoryNode MinTmpDiskNode Features DelayBoot OverSubscribe Contiguous
Licenses Network WorkDir TresPerNode TresPerTask TresPerJob MailUser
MailType Power CpusPerTres MemPerTres TresBind TresFreq Comment
OOMKillStep Dependency Command StdIn StdOut StdErr ArrayTaskId
ReqNodeList ExcNodeList Prefer MCS_label BatchFeatures ClusterFeatures
Container"

# job_stored ID: the environment slurmctld keeps for job ID, sorted.
job_stored() {
	envfile=$MBS_SLURM_STATE/ctld/hash.$(($1 % 10))/job.$1/environment
	# NAME=value strings, NUL-separated after a binary header.
	tr '\0' '\n' <"$envfile" | grep -a '^[A-Za-z_][A-Za-z0-9_]*=' | sort
}

# job_show ID [DIR]: the fields of $job_fields of scontrol show job ID,
# one a line, sorted; DIR (the directory the jobs were submitted from,
# in paths) written DIR, and ID, where an output path has it (%j),
# written ID.
job_show() {
	# Bytes, not characters: a name may not be UTF-8.
	scontrol show job -o "$1" | tr ' ' '\n' | LC_ALL=C awk -F= -v want="$job_fields" \
	    -v id="$1" -v dir="${2:-}" '
		BEGIN { n = split(want, w, /[ \n]+/); for (i = 1; i <= n; i++) k[w[i]] = 1 }
		!($1 in k) { next }
		{
			if (dir != "")
				while ((i = index($0, dir)) > 0)
					$0 = substr($0, 1, i - 1) "DIR" substr($0, i + length(dir))
			if ($1 ~ /^Std/) {
				out = ""; s = $0
				while (match(s, "[0-9]+")) {
					t = substr(s, RSTART, RLENGTH)
					out = out substr(s, 1, RSTART - 1) (t == id ? "ID" : t)
					s = substr(s, RSTART + RLENGTH)
				}
				$0 = out s
			}
			print
		}' | sort
}

# job_documented VIA: sbatch's job_show lines on stdin, with the fields
# submit(1)'s CAVEATS says back end VIA (rest, rest-tcp, ...) does not
# send on this release set to what VIA's job has instead: slurmrestd
# 22.05 cannot name the script (Command=).
job_documented() {
	case $1:${MBS_SLURM_API:-v0.0.38} in
	rest*:v0.0.3[6-9]) sed 's/^Command=.*/Command=(null)/' ;;
	*) cat ;;
	esac
}

# Variables that differ from one job to the next whoever submits it (and
# SHLVL, which says how the test ran sbatch and mbsbatch: a shell wrapper
# such as tests/valgrind.sh adds one).
job_volatile='^(_|SHLVL|SLURM_JOB_ID|SLURM_JOBID|SLURM_ARRAY_JOB_ID|SLURM_TASK_PID|SLURM_JOB_START_TIME|SLURM_JOB_END_TIME|SLURM_STEP_ID|SLURM_STEPID|SLURM_LAUNCH_NODE_IPADDR|SLURM_SRUN_COMM_PORT|SLURM_STEP_LAUNCHER_PORT|PMI_.*|SLURM_PMI.*|OLDPWD|PWD|SLURM_SUBMIT_DIR|SLURM_CPU_BIND.*|SLURM_JOB_CPUS_PER_NODE_PACK.*)='

# env_clean FILE USER: the environment of a job's step in FILE without
# what changes from job to job (and without the user's ids when USER is
# not root, the user of the jobs it is compared with).
env_clean() {
	if [ "$2" = root ]; then
		grep -Ev "$job_volatile" "$1"
	else
		grep -Ev "$job_volatile" "$1" | grep -Ev '^SLURM_JOB_(UID|GID|USER|GROUP)='
	fi
}
