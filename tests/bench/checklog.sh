#!/bin/sh
# checklog.sh: how fast mbsbatch check-log reads a large training log,
# side by side in one run with grep -c 'lm loss' and wc -l over the same
# file (the floor of reading it line by line), and its peak memory.  The
# log (LOG_MB megabytes, default 2048) is written by awk in Megatron-LM's
# formats: iteration lines, a memory line and a warning now and then, and
# one 64 MB line; it is read once before timing, so all three read from
# the page cache.
RUNS=${RUNS:-5}
. "${top_srcdir:-.}/tests/bench/lib.sh"
LOG_MB=${LOG_MB:-2048}
BATCH=1
# The C locale for all three: grep is slower in a UTF-8 one.
LC_ALL=C
export LC_ALL
log="$tmp/big.out"

awk -v mb="$LOG_MB" 'BEGIN {
	print "mbsbatch: train: iterations=100000000"
	print "using world size: 64, data-parallel size: 4, context-parallel size: 1, hierarchical context-parallel sizes: None, tensor-model-parallel size: 4, pipeline-model-parallel size: 4"
	s = "x"; for (i = 0; i < 26; i++) s = s s	# 64 MiB
	print s
	s = ""
	limit = mb * 1048576
	for (i = 1; bytes < limit; i++) {
		line = sprintf(" [2026-12-02 10:%02d:%02d.%06d] iteration %8d/100000000 | consumed samples: %12d | elapsed time per iteration (ms): %.1f | throughput per GPU (TFLOP/s/GPU): %.1f | learning rate: %.6E | global batch size:  1024 | lm loss: %.6E | loss scale: 1.0 | grad norm: %.3f | number of skipped iterations:   0 | number of nan iterations:   0 |", i % 60, i % 60, i % 1000000, i, i * 1024, 5000 + i % 97, 400 + i % 13, 0.0003, 2 + 8 / (1 + i / 1000), 1 + (i % 7) / 10)
		print line
		bytes += length(line) + 1
		if (i % 1000 == 0) {
			line = sprintf("[Rank 0] (after %d iterations) memory (MB) | allocated: 40123.45 | max allocated: %.2f | reserved: 60000.00 | max reserved: 60000.00", i, 50000 + i % 1000)
			print line
			bytes += length(line) + 1
		}
		if (i % 5000 == 0) {
			line = "/usr/local/lib/python3.12/dist-packages/torch/utils/checkpoint.py:87: UserWarning: None of the inputs have requires_grad=True. Gradients will be None"
			print line
			bytes += length(line) + 1
		}
	}
}' >"$log"
size=$(wc -c <"$log")
cat "$log" >/dev/null

# The figures first: the bench times a reading that is right.
# The run did not reach iteration 100000000: check-log exits 3.
check() { "$MBSBATCH" check-log "$log" --json || [ $? -eq 3 ]; }
check >"$tmp/report"
want=$(grep -c 'lm loss' "$log")
got=$(sed -n 's/^    "logged": \([0-9]*\),$/\1/p' "$tmp/report")
if [ "$got" != "$want" ]; then
	echo "checklog.sh: check-log logged $got iterations, grep counts $want" >&2
	exit 1
fi

t_wc=$(median_ms wc -l "$log")
t_grep=$(median_ms grep -c 'lm loss' "$log")
t_check=$(median_ms check)
rss=$( { /usr/bin/time -f %M "$MBSBATCH" check-log "$log" --json \
    >/dev/null || true; } 2>&1 | tail -n 1)

echo "check-log: a $((size / 1048576)) MiB log, $want iteration lines; medians of $RUNS runs"
printf '%-34s %10s %10s %12s\n' "how" "time" "MiB/s" "vs check-log"
row() {
	printf '%-34s %7s ms %10s %12s\n' "$1" "$2" \
	    "$(echo "$size $2" | awk '{ printf "%.0f", $1 / 1048576 / ($2 / 1000) }')" \
	    "$(echo "$2 $t_check" | awk '{ printf "%.2fx", $1 / $2 }')"
}
row "wc -l" "$t_wc"
row "grep -c 'lm loss'" "$t_grep"
row "mbsbatch check-log --json" "$t_check"
echo "check-log peak RSS: ${rss} KiB"
