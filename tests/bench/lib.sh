# lib.sh: for the benchmarks (make bench): a private HOME, a temporary
# directory, and the median wall time of repeated runs.  Timings are only
# compared within one run of one benchmark: the machines are noisy.
set -eu
: "${MBSBATCH:=src/mbsbatch}"
: "${top_srcdir:=.}"
RUNS=${RUNS:-11}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbsbatch-bench.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home"
mkdir -p "$HOME"
unset MBSBATCH_CONFIG SLURM_JWT

ns() { date +%s%N; }

# median_ms CMD...: the median over RUNS batches of BATCH runs of CMD of
# the wall time of one run, in ms (batches keep the clock's own cost, two
# date processes, out of the figure).
BATCH=${BATCH:-20}
median_ms() {
	r=0
	: >"$tmp/times"
	while [ "$r" -lt "$RUNS" ]; do
		i=0
		t0=$(ns)
		while [ "$i" -lt "$BATCH" ]; do
			"$@" >/dev/null
			i=$((i + 1))
		done
		t1=$(ns)
		echo $(((t1 - t0) / BATCH / 1000)) >>"$tmp/times"
		r=$((r + 1))
	done
	sort -n "$tmp/times" | awk '{ a[NR] = $1 } END { printf "%.2f", a[int((NR + 1) / 2)] / 1000 }'
}

# median LIST: the median of numbers, one a line, on stdin.
median() {
	sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
