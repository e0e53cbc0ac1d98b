#!/bin/sh
# record-columns.sh: records what 22.05's squeue prints in the fixed
# columns the sbatch back end asks for (jobtext_squeue_args() of release
# 2205: the -O lists in 22.05/squeue-format-one and -list), into
# tests/data/jobtext/22.05/.  By hand, as root, on Debian's Slurm 22.05:
#
#     sh tests/data/jobtext/record-columns.sh
#
# It starts a cluster of its own in /tmp/hx (job ids from 1, working
# directory /tmp/hx/w, as the other recordings of README.md), queues the
# jobs README.md lists, records, and stops the cluster.
set -eu
top=$(cd "$(dirname "$0")/../../.." && pwd)
data=$top/tests/data/jobtext/22.05
hx=/tmp/hx
[ ! -e "$hx" ] || { echo "record-columns.sh: $hx exists: remove it first" >&2; exit 1; }
mkdir -p "$hx/w" "$hx/n"
chmod 0755 "$hx" "$hx/w"
chmod 0777 "$hx/n"
trap 'sh "$top/tests/slurm/cluster.sh" stop "$hx/slurm"; rm -rf "$hx"' EXIT
# Jobs 1 to 4 queued before slurmctld's first scheduling pass, so that
# the arrays' tasks are 5 to 8, as in the other recordings.
MBS_SLURM_NO_SCHED_WAIT=1 sh "$top/tests/slurm/cluster.sh" start "$hx/slurm"
. "$hx/slurm/env"
cd "$hx/w"

q() {	# sbatch as root, the id
	sbatch --parsable "$@"
}
as() {	# sbatch as user $1 (a uid) in $hx/n
	u=$1; shift
	setpriv --reuid="$u" --regid="$u" --clear-groups env HOME="$hx/n" \
	    sbatch --parsable -D "$hx/n" "$@"
}
# wait_state ID STATE: until squeue says so (60 s at most).
wait_state() {
	i=0
	while [ "$(squeue -h -t all -j "$1" -o '%A %T' 2>/dev/null |
	    awk -v id="$1" '$1 == id { print $2 }')" != "$2" ]; do
		i=$((i + 1))
		[ $i -lt 600 ] || { echo "job $1 never $2" >&2; exit 1; }
		sleep 0.1
	done
}

q -J 'fail|pipe name' -o /dev/null --wrap 'exit 3'			# 1
q -J 'spaced name x' -o /dev/null --hold --wrap true			# 2
scancel 2
q -o /dev/null --array=0-9%2 --wrap 'sleep 600'				# 3: 5, 6
q -o /dev/null --array=0-2%2 --wrap 'sleep 600'				# 4: 7, 8
wait_state 1 FAILED
wait_state 8 RUNNING
q -o /dev/null --hold --dependency=afterany:1,afterok:2 --wrap true	# 9
q -J "root's" -o /dev/null --hold --wrap true				# 10
as 65534 -o /dev/null --hold -J "$(printf 'x\nJobId=999 JobName=fake UserId=root(0) GroupId=root(0) JobState=PENDING Reason=None Dependency=afterany:10(unfulfilled)')" --wrap true					# 11
as 65534 -o /dev/null --hold -J "$(printf 'bad\377\376name\033]0;title\007|\037z\r')" --wrap true	# 12
as 65534 -o /dev/null --hold -J 'JobId=10 JobName=y' --wrap true	# 13
q -o /dev/null --array=0-3 --wrap 'exit $SLURM_ARRAY_TASK_ID'		# 14: 15-17
wait_state 17 FAILED
wait_state 14 FAILED
q --wrap 'kill -9 $$'							# 18
q -o 'out-%j.txt' -e 'err-%x.txt' -t 5 --hold --wrap true		# 19
q -o /dev/null --wrap 'sleep 600'					# 20
q -o /dev/null --hold -J "$(printf '%01024d' 0 | tr 0 n)" --wrap true	# 21
q -o /dev/null --hold -J 'trail  ' --wrap true				# 22
as 12345 -o /dev/null --hold --wrap true				# 23
q --hold -e 'err-%j.txt' --wrap true					# 24
wait_state 18 FAILED
wait_state 20 RUNNING

one=$(cat "$data/squeue-format-one")
list=$(cat "$data/squeue-format-list")
sq() {	# sq FILE ARGS...: as the sbatch back end runs it (sb_client())
	f=$1; shift
	rc=0
	env SLURM_TIME_FORMAT=%s SLURM_BITSTR_LEN=0 squeue "$@" \
	    >"$data/$f" 2>"$hx/err" || rc=$?
	[ $rc -eq 0 ] || cp "$hx/err" "$data/$f.err"
}
for id in 1 3 4 6 9 11 12 13 14 18 19 20 21 22 23 24; do
	sq "cols-$id" --states=all --all --jobs="$id" --noheader --Format="$one"
done
sq cols-none --states=all --all --jobs=99999 --noheader --Format="$one"
sq cols-user-0 --states=all --all --user=0 --noheader --Format="$list"
sq cols-all --states=all --all --noheader --Format="$list"
echo "record-columns.sh: recorded in $data"
