#!/bin/sh
# sweep.sh: how fast a sweep is queued into a real (local) Slurm, side by
# side in one run: a shell loop of sbatch (how sweeps are queued today),
# mbsbatch sweep through each back end, one job a point and as job
# arrays, and the controller's own cost of a submission (sdiag).  Jobs are
# held, so only queuing is measured.  Medians of SWEEP_RUNS runs (3).
. "${top_srcdir:-.}/tests/bench/lib.sh"
RUNS=${SWEEP_RUNS:-3}
SIZES=${SWEEP_SIZES:-200 1000}
cluster="$(cd "$top_srcdir" && pwd)/tests/slurm/cluster.sh"
state="$tmp/slurm"
trap 'sh "$cluster" stop "$state" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
sh "$cluster" start "$state" >"$tmp/cluster.log" 2>&1 || {
	echo "sweep.sh: the test cluster did not start:" >&2
	cat "$tmp/cluster.log" >&2
	exit 1
}
. "$state/env"
cd "$tmp"
# Native only on the release it was built for (MBS_SLURM_RELEASE: the
# cluster's; see tests/slurm/README.md).
vias=
for v in $("$MBSBATCH" --version | sed -n 's/^back ends: //p'); do
	[ "$v" = native ] && ! "$MBSBATCH" --version |
	    grep -q "^native: Slurm ${MBS_SLURM_RELEASE:-22.05} " && continue
	vias="$vias $v"
done
job="--template command --command true --partition $MBS_SLURM_PARTITION --time 5 --gpus 8"
held="$job --hold"
rest="--rest-url $MBS_REST_URL --token-file $MBS_JWT_FILE"
"$MBSBATCH" gen $job --job-name loop -o loop.sbatch -q

# clean: cancel everything, so that each run starts from the same queue.
clean() {
	scancel --user="$(id -un)" 2>/dev/null || true
	i=0
	while [ "$i" -lt 100 ] && [ -n "$(squeue -h -t PENDING,RUNNING 2>/dev/null | head -n 1)" ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# submit_cost: slurmctld's mean time per REQUEST_SUBMIT_BATCH_JOB since
# the last sdiag --reset, in microseconds.
submit_cost() {
	sdiag | awk '/REQUEST_SUBMIT_BATCH_JOB/ { for (i = 1; i <= NF; i++) if ($i ~ /^ave_time:/) { sub("ave_time:", "", $i); print $i; exit } }'
}

# timed NAME CMD...: run CMD RUNS times on an empty queue; print
# "NAME median_seconds controller_us".
timed() {
	name=$1
	shift
	: >"$tmp/t"
	: >"$tmp/c"
	r=0
	while [ "$r" -lt "$RUNS" ]; do
		clean
		rm -f journal
		sdiag --reset >/dev/null 2>&1 || true
		t0=$(ns)
		"$@" >/dev/null 2>"$tmp/err" || { echo "sweep.sh: $name failed:" >&2; cat "$tmp/err" >&2; exit 1; }
		t1=$(ns)
		echo "$t0 $t1" | awk '{ printf "%.4f\n", ($2 - $1) / 1e9 }' >>"$tmp/t"
		submit_cost >>"$tmp/c"
		r=$((r + 1))
	done
	echo "$name $(median <"$tmp/t") $(median <"$tmp/c")"
}

loop() {
	i=0
	while [ "$i" -lt "$1" ]; do
		sbatch --hold --parsable loop.sbatch >/dev/null
		i=$((i + 1))
	done
}

for n in $SIZES; do
	a=$((n / 10))
	# N points: the last axis is the time limit, so that, as jobs, no two
	# points are alike; for arrays the points differ in nothing Slurm
	# allocates (the sequence length), so they share arrays.
	jobs="--grid micro-batch-size=$(seq -s, 1 "$a") --grid time=$(seq -s, 1 10)"
	arr="--grid micro-batch-size=$(seq -s, 1 "$a") --grid seq-length=$(seq -s, 1024 1024 10240)"
	: >"$tmp/rows"
	timed "sbatch-loop" loop "$n" >>"$tmp/rows"
	for via in $vias; do
		r=
		[ "$via" = rest ] && r=$rest
		timed "sweep-$via" "$MBSBATCH" sweep $held --via "$via" $r --no-array --journal journal $jobs -q >>"$tmp/rows"
	done
	for via in $vias; do
		r=
		[ "$via" = rest ] && r=$rest
		timed "array-$via" "$MBSBATCH" sweep $held --via "$via" $r --journal journal $arr -q >>"$tmp/rows"
	done
	echo "sweep of $n points into the local Slurm ${MBS_SLURM_RELEASE:-22.05} cluster (held jobs; medians of $RUNS runs; 2-core box runs client, slurmctld and slurmrestd)"
	awk -v n="$n" '
		NR == 1 { base = n / $2 }
		{
			rate = n / $2
			how = $1
			sub("^sbatch-loop$", "shell loop of sbatch (one process a job)", how)
			sub("^sweep-", "mbsbatch sweep --no-array --via ", how)
			sub("^array-", "mbsbatch sweep (job arrays) --via ", how)
			printf "%-46s %8.3f s %9.0f points/s %8.2fx   %6s us/submit\n", how, $2, rate, rate / base, $3
		}' "$tmp/rows"
	awk '$1 == "sbatch-loop" { printf "slurmctld alone: %s us a submission (sdiag, during the sbatch loop) = at most %.0f jobs/s\n", $3, 1e6 / $3 }' "$tmp/rows"
	echo
done
