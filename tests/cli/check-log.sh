# check-log.sh: mbsbatch check-log on the sample logs of tests/data/logs
# (each case's --json output against its .want and the keys documented,
# the text verdict line and its figures, the exit status), Python's own
# number formats read back, its usage errors, standard input, and a log
# read in bounded memory whatever its length.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
need "$JQ" "the JSON checks"
data=$(cd "$top_srcdir/tests/data/logs" && pwd)
cd "$tmp" || exit 1

# Every documented key in every report (null where there is no number,
# never dropped: jansson refuses inf and NaN), and no figure printed with
# more than 24 digits in a row (a step time of 1e308 ms is 1.000e+308) or
# as inf or nan.
schema='def is($o; $k): ($o | type) == "object" and ($o | keys) == ($k | sort);
def opt($o; $k): $o == null or is($o; $k);
def dims: ["world","nodes","tp","pp","vpp","cp","ep","etp","dp","edp"];
[is(.; ["log","verdict","status","reasons","lines","bytes","hole_bytes",
  "malformed_lines","framework","smoke","iterations","loss","step_time",
  "throughput","learning_rate","grad_norm","memory","layout","fatal",
  "fatal_lines","estimate"]),
 is(.iterations; ["last","expected","expected_from","logged","skipped","nan",
  "first_nan_line","restarts"]),
 is(.loss; ["last","last_finite","first","first_iteration"]),
 is(.step_time; ["median_ms","last_ms","samples","warmup_skipped"]),
 is(.throughput; ["tflops_per_gpu","tokens_per_s"]),
 opt(.memory; ["max_allocated_gib","max_reserved_gib","lines","unit",
  "megatron_estimate_gib","megatron_estimate_of"]),
 is(.layout; ["verdict","planned","planned_from","used","used_from",
  "world_from","mismatches"]),
 opt(.layout.planned; dims), opt(.layout.used; dims),
 opt(.fatal; ["kind","line","rank","iteration","text","frame","detail",
  "hint","after_end"]),
 opt(.estimate; ["gpu","interconnect","precision","fp8_recipe",
  "site_factor","step_time","tflops_per_gpu","tokens_per_second_per_gpu",
  "memory"]),
 (.estimate == null or (is(.estimate.step_time; ["measured_ms",
  "estimated_ms","ratio","reason"]) and is(.estimate.memory;
  ["measured_allocated_gib","measured_reserved_gib","estimated_gib","ratio",
  "reason"]) and is(.estimate.tflops_per_gpu; ["measured","estimated",
  "ratio"]) and is(.estimate.tokens_per_second_per_gpu; ["measured",
  "estimated","ratio"])))] | all'

# With a job, the estimates are the models' (cost.c, memory.c), which a
# calibration changes: a .want holds those of the day it was written, and
# they are masked in the comparison; instead each is held against what
# plan gives the same job, and each ratio against measured / estimated.
mask='if .estimate == null then . else .estimate |=
 (.step_time.estimated_ms = null | .step_time.ratio = null |
  .tflops_per_gpu.estimated = null | .tflops_per_gpu.ratio = null |
  .tokens_per_second_per_gpu.estimated = null |
  .tokens_per_second_per_gpu.ratio = null |
  .memory.estimated_gib = null | .memory.ratio = null) end'
# check-log prints ten significant digits, plan rounds GiB to hundredths.
against='def near($a; $b; $r): $a == $b or (($a - $b) | fabs) <= $r * ([($a|fabs), ($b|fabs)] | max);
def ratio($x): $x.ratio == null or near($x.ratio; $x.measured / $x.estimated; 1e-8);
.[0].estimate as $e | .[1] as $p |
[near($e.step_time.estimated_ms; $p.estimate.step_seconds * 1000; 1e-8),
 near($e.tflops_per_gpu.estimated; $p.estimate.tflops_per_gpu; 1e-8),
 near($e.tokens_per_second_per_gpu.estimated;
  $p.estimate.tokens_per_second_per_gpu; 1e-8),
 ((($e.memory.estimated_gib // 0) - ($p.memory.total_gib // 0)) | fabs) <= 0.005,
 ($e.step_time.ratio == null or near($e.step_time.ratio;
  $e.step_time.measured_ms / $e.step_time.estimated_ms; 1e-8)),
 ratio($e.tflops_per_gpu | {ratio, measured, estimated}),
 ratio($e.tokens_per_second_per_gpu | {ratio, measured, estimated}),
 ($e.memory.ratio == null or near($e.memory.ratio;
  $e.memory.measured_allocated_gib / $e.memory.estimated_gib; 1e-8))] | all'

# Each case: the JSON report exactly (and its keys), the same verdict in
# text (and its figures).
while read -r name log args; do
	case "$name" in ''|'#'*) continue ;; esac
	want_status=$("$JQ" .status "$data/$name.want")
	(cd "$data" && "$MBSBATCH" check-log "$log" $args --json \
	    >"$tmp/out" 2>"$tmp/err" </dev/null)
	status=$?
	expect_status "$name: --json status" "$want_status"
	expect_no_stderr "$name: --json"
	if [ "$("$JQ" .estimate "$data/$name.want")" = null ]; then
		if cmp -s "$tmp/out" "$data/$name.want"; then ok; else
			bad "$name: --json differs from $name.want"
			diff -u "$data/$name.want" "$tmp/out" | head -n 30
		fi
	else
		"$JQ" "$mask" "$tmp/out" >"$tmp/got.masked"
		"$JQ" "$mask" "$data/$name.want" >"$tmp/want.masked"
		if cmp -s "$tmp/got.masked" "$tmp/want.masked"; then ok; else
			bad "$name: --json differs from $name.want (the estimates masked)"
			diff -u "$tmp/want.masked" "$tmp/got.masked" | head -n 30
		fi
		(cd "$data" && "$MBSBATCH" plan $args --json >"$tmp/plan" \
		    2>/dev/null </dev/null)
		if [ "$("$JQ" -s "$against" "$tmp/out" "$tmp/plan")" = true ]
		then ok; else
			bad "$name: the estimates are not plan's for the job: $("$JQ" -c .estimate "$tmp/out")"
		fi
	fi
	if [ "$("$JQ" "$schema" "$tmp/out")" = true ]; then ok; else
		bad "$name: a documented key is missing, or one is not documented"
	fi
	verdict=$("$JQ" -r .verdict "$data/$name.want")
	(cd "$data" && "$MBSBATCH" check-log "$log" $args \
	    >"$tmp/out" 2>"$tmp/err" </dev/null)
	status=$?
	expect_status "$name: text status" "$want_status"
	if grep -q '[0-9]\{25\}' "$tmp/out"; then
		bad "$name: a figure of more than 24 digits in the text report"
	elif grep -qE '(inf|nan) (ms|GiB|TFLOP)|ratio -?(inf|nan)' "$tmp/out"; then
		bad "$name: a figure that is not a number in the text report"
	else ok; fi
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


# Python's own formats against the reading: random numbers >= 0 (every
# bit pattern, and figures' sizes; inf and NaN where training_log can
# print them) formatted by Python with training_log's format specs (the
# iteration line of Megatron-LM core_v0.19.0 training.py:2845-2905, the
# memory line of Bridge v0.6.0 train_utils.py:1233 and of Megatron-LM's
# report_memory), each in a log of its own, read back within the ten
# digits the JSON keeps.  Seeded: MBS_TEST_SEED, else the time.
py=
for p in python3 python; do
	command -v "$p" >/dev/null 2>&1 && "$p" -c 'import sys; sys.exit(sys.version_info < (3, 6))' 2>/dev/null && { py=$p; break; }
done
if [ -z "$py" ]; then
	echo "check-log.sh: no python3: Python's formats not checked"
else
	seed=${MBS_TEST_SEED:-$(date +%s)}
	echo "check-log.sh: Python's formats, seed $seed (MBS_TEST_SEED=$seed replays it)"
	mkdir -p "$tmp/py"
	"$py" - "$seed" "$tmp/py" <<'PY'
import json, math, random, struct, sys
rnd = random.Random(int(sys.argv[1]))
def some():
    if rnd.random() < 0.5:
        return rnd.uniform(0, 1e5) * 2.0 ** rnd.randint(-20, 20)
    while True:
        x = struct.unpack('<d', struct.pack('<Q', rnd.getrandbits(63)))[0]
        if math.isfinite(x):
            return x
def five(g):	# Bridge's report_memory: five significant digits
    if g != 0:
        g = round(g, -int(math.floor(math.log10(abs(g)))) + 4)
    return g
for k in range(24):
    loss = math.inf if k % 11 == 5 else some()
    gn = math.nan if k % 7 == 3 else some()
    ms, tf, lr, mem = some(), some(), some(), five(some() / 1e9)
    s = " [2026-12-02 10:10:12.123456]"
    s += ' iteration {:8d}/{:8d} |'.format(1, 1)
    s += ' consumed samples: {:12d} |'.format(8)
    s += ' elapsed time per iteration (ms): {:.1f} |'.format(ms)
    s += f' throughput per GPU (TFLOP/s/GPU): {tf:.1f} |'
    s += f' learning rate: {lr:.6E} |'
    s += f' global batch size: {8:5d} |'
    s += ' {}: {:.6E} |'.format('lm loss', loss)
    s += f' loss scale: {1.0:.1f} |'
    s += f' grad norm: {gn:.3f} |'
    s += ' number of skipped iterations: {:3d} |'.format(0)
    s += ' number of nan iterations: {:3d} |'.format(0)
    m = "[Rank 0] (after 1 iterations) memory (GB) | mem-max-allocated-gigabytes: {}".format(mem)
    with open(f"{sys.argv[2]}/{k}.out", "w") as f:
        f.write(s + "\n" + m + "\n")
    # What was printed, as a number: the JSON's figure.
    fin = lambda t: float(t) if math.isfinite(float(t)) else None
    with open(f"{sys.argv[2]}/{k}.want", "w") as f:
        json.dump({"loss": fin('{:.6E}'.format(loss)),
                   "lr": fin(f'{lr:.6E}'), "grad_norm": fin(f'{gn:.3f}'),
                   "ms": fin('{:.1f}'.format(ms)), "tf": fin(f'{tf:.1f}'),
                   "mem": float(str(mem)) * 1e9 / 2**30}, f)
PY
	close='def close($a; $b): if $b == null then $a == null
	    elif $a == null then false
	    else (($a - $b) | fabs) <= 1e-9 * ($b | fabs) end;
	    close(.[0].loss.last; .[1].loss) and
	    close(.[0].learning_rate; .[1].lr) and
	    close(.[0].grad_norm; .[1].grad_norm) and
	    close(.[0].step_time.last_ms; .[1].ms) and
	    close(.[0].memory.max_allocated_gib; .[1].mem) and
	    .[0].malformed_lines == 0'
	k=0
	n=24
	# Under valgrind (a second a run), a few.
	[ -n "${MBSBATCH_REAL:-}" ] && n=4
	while [ "$k" -lt "$n" ]; do
		"$MBSBATCH" check-log "$tmp/py/$k.out" --json >"$tmp/out" 2>/dev/null </dev/null
		if [ "$("$JQ" -s "$close" "$tmp/out" "$tmp/py/$k.want")" = true ]; then ok; else
			bad "python $k (seed $seed): read differs from Python's $(cat "$tmp/py/$k.want"): $(head -c 400 "$tmp/py/$k.out")"
		fi
		k=$((k + 1))
	done
fi

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
