# lib.sh: for tests that need a real Slurm: start a private cluster
# (tests/slurm/cluster.sh) under the test's temporary directory, stop it
# on exit, and give helpers to wait for jobs.  Sourced after
# tests/cli/lib.sh, which provides run, expect_* and finish.

# Absolute: the tests cd elsewhere, and the EXIT trap must still find it.
cluster="$(cd "$top_srcdir" && pwd)/tests/slurm/cluster.sh"
state="$tmp/slurm"
# munged wants every directory above its socket world-executable.
chmod 755 "$tmp"
cluster_stop() {
	sh "$cluster" stop "$state" >/dev/null 2>&1
	rm -rf "$tmp"
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
