#!/bin/sh
# search.sh: how fast plan --search is, side by side in one run with the
# alternative a user has without it (one `mbsbatch plan` per layout, as a
# shell loop or a sweep script would run it) and with the process floor
# (/bin/true).  Medians of repeated runs; the machine is noisy, so only
# ratios of the same run mean anything.  Run by `make bench`.
. "${top_srcdir:-.}/tests/bench/lib.sh"
: "${BENCH_SEARCH:=tests/bench/bench_search}"
SAMPLE=${SAMPLE:-300}
command -v jq >/dev/null || { echo "search.sh: needs jq (./bootstrap installs it)" >&2; exit 1; }

search="plan --search --model kimi-k2 --gpus 16384 --seq-length 4096 --gpu-type h100"

echo "plan --search inside one process (search_run(), medians of 21 runs):"
"$BENCH_SEARCH"
echo

# shellcheck disable=SC2086
"$MBSBATCH" $search --json --best 1 >"$tmp/one.json"
layouts=$(jq .candidates "$tmp/one.json")

# The alternative: plan each layout in its own process.  SAMPLE layouts
# (the search's own best ones, so each is a real layout), timed as one
# loop, scaled to all layouts.
# shellcheck disable=SC2086
"$MBSBATCH" $search --json --best 100 | jq -r '.results[].plan_args' \
    >"$tmp/args"
n=$(wc -l <"$tmp/args")
[ "$n" -gt 0 ] || { echo "search.sh: the search found no layout" >&2; exit 1; }
i=0
: >"$tmp/loop"
while [ "$i" -lt "$SAMPLE" ]; do
	cat "$tmp/args" >>"$tmp/loop"
	i=$((i + n))
done
head -n "$SAMPLE" "$tmp/loop" >"$tmp/sample"
t0=$(ns)
while read -r args; do
	# shellcheck disable=SC2086
	"$MBSBATCH" plan --model kimi-k2 --seq-length 4096 --gpu-type h100 \
	    $args >/dev/null || true
done <"$tmp/sample"
t1=$(ns)
per_plan=$(echo "$t0 $t1 $SAMPLE" | awk '{ printf "%.3f", ($2 - $1) / 1e6 / $3 }')

# shellcheck disable=SC2086
t_search=$(median_ms "$MBSBATCH" $search --best 5)
t_true=$(median_ms /bin/true)
echo "Kimi-K2 on 16384 H100s, $layouts layouts; medians of $RUNS runs:"
printf '%-44s %12s %10s\n' "how" "time" "ratio"
printf '%-44s %9s ms %10s\n' "/bin/true (process floor)" "$t_true" \
    "$(echo "$t_true $t_search" | awk '{ printf "%.2fx", $1 / $2 }')"
printf '%-44s %9s ms %10s\n' "mbsbatch plan --search (whole process)" \
    "$t_search" "1.00x"
echo "$per_plan $layouts $t_search" | awk '{
	total = $1 * $2
	printf "%-44s %9.0f ms %9.0fx\n", "one mbsbatch plan per layout (" $2 ", scaled)", total, total / $3
	printf "%-44s %9.3f ms\n", "  measured per plan process (" '"$SAMPLE"' " runs)", $1
}'
