# check-log.sh: mbsbatch check-log on the sample logs of tests/data/logs
# (each case's --json output against its .want, the text verdict line,
# the exit status), its usage errors, standard input, and a log read in
# bounded memory whatever its length.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
need "$JQ" "the JSON checks"
data=$(cd "$top_srcdir/tests/data/logs" && pwd)
cd "$tmp" || exit 1

# Each case: the JSON report exactly, the same verdict in text.
while read -r name log args; do
	case "$name" in ''|'#'*) continue ;; esac
	want_status=$("$JQ" .status "$data/$name.want")
	(cd "$data" && "$MBSBATCH" check-log "$log" $args --json \
	    >"$tmp/out" 2>"$tmp/err" </dev/null)
	status=$?
	expect_status "$name: --json status" "$want_status"
	expect_no_stderr "$name: --json"
	if cmp -s "$tmp/out" "$data/$name.want"; then ok; else
		bad "$name: --json differs from $name.want"
		diff -u "$data/$name.want" "$tmp/out" | head -n 30
	fi
	verdict=$("$JQ" -r .verdict "$data/$name.want")
	(cd "$data" && "$MBSBATCH" check-log "$log" $args \
	    >"$tmp/out" 2>"$tmp/err" </dev/null)
	status=$?
	expect_status "$name: text status" "$want_status"
	# Unusable: one error line, nothing on stdout; else the report.
	if [ "$verdict" = unusable ]; then
		expect_no_stdout "$name: text"
		expect_err_prefix "$name: text" "mbsbatch: log '$log': unusable: "
		[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "$name: more than one error line"
	else case "$(head -n 1 "$tmp/out")" in
	"$log: $verdict"*) ok ;;
	*) bad "$name: text verdict line is not '$log: $verdict...'" ;;
	esac
	fi
done <"$data/cases"

# The figures people look for, in text.
run check-log "$data/cuda-oom.out"
expect_out_has "oom: rank" "cuda_oom (rank 3): torch.OutOfMemoryError: CUDA out of memory."
expect_out_has "oom: frame" "last frame: File \"/usr/local/lib/python3.12/dist-packages/torch/nn/functional.py\", line 2146, in linear"
run check-log "$data/mlm-success.out" "$data/llama32-1b-tp2pp2.json"
expect_status "estimate" 0
expect_out_has "estimate: step" "step time: 790.6 ms median of 1 (first 2 iterations left out); estimate "
expect_out_has "estimate: memory" "memory: max allocated 9.99 GiB, max reserved 12.00 GiB; estimate "

# Standard input.
"$MBSBATCH" check-log - --json <"$data/nan.out" >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "stdin" 3
expect_json "stdin: log" .log '"-"'
expect_json "stdin: nan" .iterations.nan 2

# Usage and unreadable input.
run check-log
expect_status "no log" 2
expect_err "no log" "mbsbatch: check-log: give the LOG to check ('-': standard input)"
run check-log nope.out
expect_status "missing log" 2
expect_err "missing log" "mbsbatch: log 'nope.out': No such file or directory"
run check-log "$data"
expect_status "a directory" 2
expect_err "a directory" "mbsbatch: log '$data': is a directory, not a regular file: not read"
run check-log "$data/mlm-success.out" --iterations x
expect_status "bad --iterations" 2
expect_err_prefix "bad --iterations" "mbsbatch: --iterations: 'x' "
if grep -q '(expected a whole number from 1 to [0-9]*)$' "$tmp/err"; then ok; else bad "bad --iterations: no accepted range"; fi
run check-log - -
expect_status "two stdins" 2
expect_err "two stdins" "mbsbatch: check-log: LOG and JOBFILE cannot both be standard input"
run check-log "$data/mlm-success.out" nope.json
expect_status "missing job file" 1
expect_err_prefix "missing job file" "mbsbatch: "
run check-log a b c
expect_status "three arguments" 2

# Bounded memory: a 100 MB line, then 1,000,000 iteration lines, read
# from a pipe under a 64 MiB address-space limit (the whole input is
# about 190 MB).  Not under valgrind or a sanitizer, which need more.
big() {
	awk 'BEGIN {
		print "mbsbatch: train: iterations=1000000"
		s = "x"; for (i = 0; i < 20; i++) s = s s	# 1 MiB
		for (i = 0; i < 100; i++) printf "%s", s
		printf "\n"
		for (i = 1; i <= 1000000; i++)
			printf " [2026-12-02 10:00:00] iteration %8d/ 1000000 | elapsed time per iteration (ms): %.1f | lm loss: %.6E | number of skipped iterations:   0 | number of nan iterations:   0 |\n", i, 100 + i % 3, 10 - i / 200000
	}'
}
bin=${MBSBATCH_REAL:-$MBSBATCH}
if ldd "$bin" 2>/dev/null | grep -q 'libasan\|libtsan\|libubsan'; then
	limit=unlimited
else
	limit=65536
fi
big | (ulimit -v "$limit" && "$bin" check-log - --json) >"$tmp/out" 2>"$tmp/err"
status=$?
expect_status "big: status" 0
expect_json "big: last" .iterations.last 1000000
expect_json "big: logged" .iterations.logged 1000000
expect_json "big: loss" .loss.last 5
expect_json "big: median" .step_time.median_ms 101
expect_json "big: lines" .lines 1000002
expect_json "big: bytes" '.bytes > 100000000' true

finish
