#!/bin/sh
# tests/slurm/smoke.sh: start a private Slurm cluster (tests/slurm/cluster.sh)
# in a fresh temporary directory, check that it really runs jobs, serves
# REST and stops cleanly.  An automake test: exit 77 (skip) when Slurm is
# not installed or we are not root, 0 when every check passes, 1 otherwise.
# Run: top_srcdir=. sh tests/slurm/smoke.sh   (from any directory)
# MBS_SLURM_KEEP=1 keeps the temporary directory (cluster logs) afterwards.

set -u
LC_ALL=C
export LC_ALL
PATH=$PATH:/usr/sbin:/sbin
export PATH
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
CLUSTER=$top_srcdir/tests/slurm/cluster.sh
JOB_TIMEOUT=60

# Nothing from a surrounding Slurm job or shell may leak into ours; a
# SLURM_JWT in particular would make the clients use JWT instead of munge.
for v in $(env | sed -n 's/^\(SLURM_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done

missing=
for b in munged slurmctld slurmd slurmrestd sbatch srun scontrol squeue scancel curl ss; do
	command -v "$b" >/dev/null 2>&1 || missing="$missing $b"
done
if [ -n "$missing" ]; then
	echo "SKIP: Slurm is not installed (missing:$missing); see tests/slurm/README.md"
	exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: the Slurm cluster test must run as root"
	exit 77
fi
[ -r "$CLUSTER" ] || { echo "FAIL: no $CLUSTER (set top_srcdir)"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbs-slurm-smoke.XXXXXX") || exit 1
chmod 0755 "$tmp"             # munged needs every directory above its socket o+x
S=$tmp/state
J=$tmp/jobs
mkdir -p "$J"

npass=0
nfail=0
pass() { npass=$((npass + 1)); echo "PASS: $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL: $*"; }
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }

show_logs() {
	for f in "$S"/log/*.log; do
		[ -s "$f" ] || continue
		echo "--- last lines of $f:"
		tail -n 10 "$f" | sed 's/^/    /'
	done
}

cleanup() {
	trap - EXIT
	# Nothing may interrupt the stop; a closed output pipe neither.
	trap '' INT TERM HUP PIPE
	sh "$CLUSTER" stop "$S" >/dev/null 2>&1
	if [ "${MBS_SLURM_KEEP:-0}" = 1 ]; then
		echo "kept $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# alive PID: a live process (no zombie) whose command line names our state dir.
alive() {
	[ -r "/proc/$1/stat" ] || return 1
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -n "$st" ] && [ "$st" != Z ] || return 1
	tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF -- "$S"
}

# ---- start
t0=$(now)
sh "$CLUSTER" start "$S"
rc=$?
t1=$(now)
if [ $rc -eq 77 ]; then
	echo "SKIP: cluster.sh start says Slurm is not usable here"
	exit 77
fi
if [ $rc -ne 0 ] || [ ! -r "$S/env" ]; then
	fail "cluster start (exit $rc)"
	show_logs
	echo "$npass passed, $nfail failed"
	exit 1
fi
echo "start took $(secs "$t0" "$t1") s"
# shellcheck disable=SC1091
. "$S/env"
pids=$(awk '{ print $2 }' "$S/run/pids")

if grep -q SLURM_JWT "$S/env"; then
	fail "env file must not set SLURM_JWT"
else
	pass "env file exports SLURM_CONF, MBS_REST_URL, MBS_REST_UNIX, MBS_JWT_FILE, no SLURM_JWT"
fi

cat >"$J/ranks.sh" <<'EOF'
#!/bin/sh
srun sh -c 'echo "rank=$SLURM_PROCID node=$SLURMD_NODENAME cvd=$CUDA_VISIBLE_DEVICES"'
EOF

# wait_idle: the 4 real nodes idle again (bounded).  sbatch --wait polls
# after 2 s, then 10 s, then 42 s: a job that need not wait for a node
# still cleaning up after the previous one ends before the first poll.
wait_idle() {
	i=0
	while [ $i -lt 100 ]; do
		[ "$(sinfo -h -N -p "$MBS_SLURM_PARTITION" -t idle -o %N 2>/dev/null | wc -l)" -eq 4 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "  nodes not all idle after 10 s: $(sinfo -h -N -p "$MBS_SLURM_PARTITION" -o '%N=%T' | tr '\n' ' ')"
}

# run_job OUT SBATCH-OPTIONS...: sbatch --wait, bounded; 0 if the job
# ended well in time.  Shows what is known on failure.
run_job() {
	out=$1
	shift
	rm -f "$out"
	wait_idle
	(cd "$J" && timeout "$JOB_TIMEOUT" sbatch --wait --parsable -o "$out" "$@" ranks.sh) >"$out.id" 2>"$out.err"
	jrc=$?
	jid=$(sed -n 's/^\([0-9][0-9]*\).*/\1/p' "$out.id" | head -n 1)
	[ $jrc -eq 0 ] && return 0
	if [ $jrc -eq 124 ]; then
		echo "  job ${jid:-?} did not finish within ${JOB_TIMEOUT}s"
	else
		echo "  sbatch --wait exited $jrc"
	fi
	sed 's/^/  sbatch: /' "$out.err"
	[ -s "$out" ] && sed 's/^/  out: /' "$out"
	[ -n "$jid" ] && scontrol show job "$jid" 2>&1 | sed 's/^/  /'
	return 1
}

# check_ranks OUT NTASKS NODES: ranks 0..NTASKS-1 once each, NTASKS lines,
# each of NODES with NTASKS/#NODES ranks, every task sees the 8 GPUs.
check_ranks() {
	out=$1
	n=$2
	nodes=$3
	ok=0
	lines=$(wc -l <"$out")
	[ "$lines" -eq "$n" ] || { echo "  $lines lines, expected $n"; ok=1; }
	r=0
	while [ $r -lt "$n" ]; do
		c=$(grep -c "^rank=$r " "$out")
		[ "$c" -eq 1 ] || { echo "  rank $r appears $c times"; ok=1; }
		r=$((r + 1))
	done
	# shellcheck disable=SC2086
	set -- $nodes
	per=$((n / $#))
	for node in "$@"; do
		c=$(grep -c " node=$node " "$out")
		[ "$c" -eq "$per" ] || { echo "  $node has $c ranks, expected $per"; ok=1; }
	done
	c=$(grep -c ' cvd=0,1,2,3,4,5,6,7$' "$out")
	[ "$c" -eq "$n" ] || { echo "  only $c of $n tasks have CUDA_VISIBLE_DEVICES=0,...,7"; ok=1; }
	[ $ok -eq 0 ] || sed 's/^/  out: /' "$out"
	return $ok
}

# ---- (1) one node, 8 GPUs, 8 tasks
if run_job "$J/one.out" -p "$MBS_SLURM_PARTITION" --nodes=1 --gpus-per-node=8 --ntasks-per-node=8 &&
	check_ranks "$J/one.out" 8 mbsnode0; then
	pass "1-node job: ranks 0..7 once each on mbsnode0, CUDA_VISIBLE_DEVICES=0,...,7"
else
	fail "1-node job with --gpus-per-node=8 --ntasks-per-node=8"
fi

# ---- (2) four nodes, 32 tasks
if run_job "$J/four.out" -p "$MBS_SLURM_PARTITION" --nodes=4 --gpus-per-node=8 --ntasks-per-node=8 &&
	check_ranks "$J/four.out" 32 "mbsnode0 mbsnode1 mbsnode2 mbsnode3"; then
	pass "4-node job: ranks 0..31 once each, 8 on each of mbsnode0..3"
else
	fail "4-node 32-task job"
fi

# ---- (3) 16 nodes on the big fake partition: accepted, pending
big=$(cd "$J" && sbatch --parsable -p "$MBS_SLURM_BIG_PARTITION" --nodes=16 \
	--gpus-per-node=8 --ntasks-per-node=8 -o /dev/null ranks.sh 2>&1)
case $big in
[0-9]*)
	big=${big%%;*}
	st=$(squeue -h -j "$big" -o '%T %r' 2>&1)
	case $st in
	PENDING*) pass "16-node job on $MBS_SLURM_BIG_PARTITION accepted and pending ($st)" ;;
	*) fail "16-node job $big on $MBS_SLURM_BIG_PARTITION: squeue says '$st', expected PENDING" ;;
	esac
	scancel "$big" 2>/dev/null
	;;
*) fail "16-node job on $MBS_SLURM_BIG_PARTITION rejected: $big" ;;
esac
# EnforcePartLimits=ALL: a job that can never fit is refused at submit time.
if too=$(cd "$J" && sbatch --parsable -p "$MBS_SLURM_BIG_PARTITION" --nodes=17 \
	--gpus-per-node=8 -o /dev/null ranks.sh 2>&1); then
	fail "17-node job on $MBS_SLURM_BIG_PARTITION accepted ($too), expected a refusal"
	scancel "${too%%;*}" 2>/dev/null
else
	pass "17-node job on $MBS_SLURM_BIG_PARTITION refused: $(echo "$too" | tail -n 1)"
fi

# ---- (4) slurmrestd: TCP with JWT, unix socket with rest_auth/local
tok=$(cat "$MBS_JWT_FILE")
code=$(curl -s -o "$J/ping.tcp" -w '%{http_code}' --noproxy '*' --max-time 10 \
	-H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $tok" \
	"$MBS_REST_URL/slurm/v0.0.38/ping")
if [ "$code" = 200 ] && grep -q '"UP"' "$J/ping.tcp"; then
	pass "REST over TCP with JWT: $MBS_REST_URL/slurm/v0.0.38/ping is 200, UP"
else
	fail "REST over TCP: HTTP $code: $(head -c 300 "$J/ping.tcp" 2>/dev/null)"
fi
code=$(curl -s -o "$J/ping.unix" -w '%{http_code}' --max-time 10 \
	--unix-socket "${MBS_REST_UNIX#unix:}" "http://localhost/slurm/v0.0.38/ping")
if [ "$code" = 200 ] && grep -q '"UP"' "$J/ping.unix"; then
	pass "REST over $MBS_REST_UNIX: /slurm/v0.0.38/ping is 200, UP"
else
	fail "REST over the unix socket: HTTP $code: $(head -c 300 "$J/ping.unix" 2>/dev/null)"
fi

[ $nfail -eq 0 ] || show_logs

# ---- (5) stop leaves nothing behind
t0=$(now)
sh "$CLUSTER" stop "$S"
rc=$?
t1=$(now)
echo "stop took $(secs "$t0" "$t1") s"
left=
for p in $pids; do
	alive "$p" && left="$left $p"
done
steps=$(ss -Hxlp 2>/dev/null | grep -F "$S/")
if [ $rc -eq 0 ] && [ -z "$left" ] && [ -z "$steps" ]; then
	pass "stop: none of the $(echo "$pids" | wc -l) recorded daemons and no slurmstepd is left"
else
	fail "stop (exit $rc): still running:$left $steps"
	ps -o pid,stat,args -p "$(echo "$pids" | paste -sd, -)" 2>&1 | sed 's/^/  /'
fi
if sh "$CLUSTER" status "$S" >/dev/null 2>&1; then
	fail "status says running after stop"
elif ! sh "$CLUSTER" stop "$S" >/dev/null 2>&1; then
	fail "a second stop failed"
else
	pass "after stop: status exits non-zero, a second stop exits 0"
fi

echo "$npass passed, $nfail failed"
[ $nfail -eq 0 ]
