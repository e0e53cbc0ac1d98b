# calibrate.sh: mbsbatch calibrate fits the site factor to real logs
# (tests/data/logs), stores it in the user's config file losing nothing,
# and plan, plan --search, recommend and check-log then use it and say
# so; a bad log, a bad profile or a file it cannot keep is refused with
# one line and the file left as it was.
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "the JSON checks"
need awk "the step times read from the logs"

data="$top_srcdir/tests/data/logs"
job="$data/llama32-1b-tp2pp2.json"
logs="$data/bridge-v0.6.0-success.out $data/mlm-success.out $data/bridge-v0.5.1-success.out"
cfg="$XDG_CONFIG_HOME/mbsbatch/config.json"
mkdir -p "$XDG_CONFIG_HOME/mbsbatch"
SOURCE_DATE_EPOCH=1765065600	# 2025-12-07, a fixed day to store
export SOURCE_DATE_EPOCH
day=2025-12-07

# The config in the layout mbsbatch writes (two spaces), with a key
# after the profile and a second profile.
cat >"$cfg" <<'JSON'
{
  "default_cluster": "lab",
  "clusters": {
    "lab": {
      "gpu_type": "h100",
      "gpu_memory": 79.6,
      "partition": "batch"
    },
    "other": {
      "gpus_per_node": 4
    }
  },
  "presets_dir": "presets"
}
JSON
chmod 600 "$cfg"
cp "$cfg" "$tmp/before.json"

# The measured step time of a log, independently: the median of
# Megatron's "elapsed time per iteration (ms)" after the first two
# iteration lines (the warm-up check-log leaves out).
measured() {
	awk -F'elapsed time per iteration \\(ms\\): ' 'NF > 1 {
		split($2, a, " "); n++; if (n > 2) v[++m] = a[1] }
	END {
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		if (m % 2) print v[(m + 1) / 2]; else print (v[m / 2] + v[m / 2 + 1]) / 2
	}' "$1"
}

# The estimate check-log gives the job's layout with no calibration,
# over each log's measured step: the ratios, then their median.
ratios=""
for log in $logs; do
	run --config "$tmp/before.json" check-log "$log" "$job" --json
	est=$("$JQ" .estimate.step_time.estimated_ms "$tmp/out")
	m=$(measured "$log")
	ratios="$ratios $(awk -v e="$est" -v m="$m" 'BEGIN { printf "%.12g", e / m }')"
done
median=$(printf '%s\n' $ratios | sort -g | sed -n 2p)
want=$(awk -v x="$median" 'BEGIN { printf "%.4g", x }')

# --dry-run: the fit, nothing written.
run calibrate $logs --job "$job" --dry-run --json
expect_status "dry run" 0
expect_no_stderr "dry run"
expect_json "dry run: not written" .written false
expect_json "dry run: three logs" '.logs | length' 3
expect_json "dry run: smoke runs said, and their step counts" '[.logs[] | [.smoke, .steps]]' '[[false,8],[true,1],[true,1]]'
if cmp -s "$cfg" "$tmp/before.json"; then ok; else bad "--dry-run changed the config file"; fi
for i in 0 1 2; do
	log=$(echo $logs | awk -v i=$((i + 1)) '{ print $i }')
	got=$("$JQ" ".logs[$i].measured_step_ms" "$tmp/out")
	m=$(measured "$log")
	if awk -v a="$got" -v b="$m" 'BEGIN { exit !(a - b < 1e-9 && b - a < 1e-9) }'; then ok; else
		bad "log $i: measured $got ms, the log's median after the warm-up is $m"
	fi
done
cp "$tmp/out" "$tmp/dry.json"
run --config "$tmp/before.json" check-log $(echo $logs | awk '{ print $1 }') "$job" --json
mem=$("$JQ" -c '[.estimate.memory.measured_allocated_gib, .estimate.memory.estimated_gib]' "$tmp/out")
cp "$tmp/dry.json" "$tmp/out"
expect_json "dry run: check-log's memory beside" '.logs[0] | [.measured_memory_gib, .estimated_memory_gib]' "$mem"
expect_json "dry run: the median of the ratios" ".median | . * 1e9 | round" \
    "$(awk -v x="$median" 'BEGIN { printf "%.0f", x * 1e9 }')"

# The fit, stored.
run calibrate $logs --job "$job"
expect_status "calibrate" 0
expect_no_stderr "calibrate"
expect_out_has "text: the factor" "site factor $want for cluster 'lab' (h100): the median of 3 logs"
expect_out_has "text: where" "written to $cfg: site_factor, site_factor_logs, site_factor_date"
expect_out_lacks "text: the file's layout kept" "rewritten"
stored=$("$JQ" .clusters.lab.site_factor "$cfg")
if [ "$stored" = "$want" ]; then ok; else bad "stored site_factor $stored, want $want"; fi
# Byte for byte: the three keys after the profile's last, nothing else.
sed "s/\"partition\": \"batch\"\$/\"partition\": \"batch\",\\
      \"site_factor\": $want,\\
      \"site_factor_logs\": 3,\\
      \"site_factor_date\": \"$day\"/" "$tmp/before.json" >"$tmp/want.json"
if cmp -s "$cfg" "$tmp/want.json"; then ok; else
	bad "config file: not the old one with three keys added: $(diff "$tmp/want.json" "$cfg")"
fi
if [ "$(stat -c %a "$cfg")" = 600 ]; then ok; else bad "config file mode $(stat -c %a "$cfg"), want 600"; fi
cp "$cfg" "$tmp/calibrated.json"

# plan --search: the same layouts, every speed times the factor.
search="plan --model llama3.2-1b --gpus 8 --seq-length 4096 --global-batch-size 64 --search --best 3 --json"
run --config "$tmp/before.json" $search
cp "$tmp/out" "$tmp/search-before.json"
run $search
expect_status "search calibrated" 0
expect_json "search: says its calibration" \
    '.calibration | [(.site_factor * 1e4 | round), .logs, .date, .cluster]' \
    "[$(awk -v x="$want" 'BEGIN { printf "%.0f", x * 1e4 }'),3,\"$day\",\"lab\"]"
r=$("$JQ" -n --slurpfile a "$tmp/search-before.json" --slurpfile b "$tmp/out" \
    'def tps: .estimate.tokens_per_second // .tokens_per_second;
    [range(0; $a[0].results | length) | ($b[0].results[.] | tps) / ($a[0].results[.] | tps)] |
    map(. * 1e9 | round) | unique')
if [ "$(echo $r | tr -d ' ')" = "[$(awk -v x="$want" 'BEGIN { printf "%.0f", x * 1e9 }')]" ]; then ok; else
	bad "search: tokens/s ratios $r, want the factor $want"
fi
run --config "$tmp/before.json" $search
expect_json "search: none without" '.calibration' null
run plan --model llama3.2-1b --gpus 8 --seq-length 4096 --global-batch-size 64 --search --best 1
expect_out_has "search text" "site factor $want from calibrate (3 logs, $day): the estimates are the model's speed times $want"

# plan and recommend say it, in text and JSON.
run plan --model llama3.2-1b --gpus 8 --seq-length 4096 --global-batch-size 64 --json
expect_json "plan --json" '.calibration.site_factor * 1e4 | round' \
    "$(awk -v x="$want" 'BEGIN { printf "%.0f", x * 1e4 }')"
run plan --model llama3.2-1b --gpus 8 --seq-length 4096 --global-batch-size 64
expect_out_has "plan text" "site factor $want from calibrate (3 logs, $day)"
run recommend --model llama3.2-1b --gpus 8
expect_out_has "recommend text" "site factor $want from calibrate (3 logs, $day)"
run --cluster other plan --model llama3.2-1b --gpus 8
expect_out_lacks "another profile: no factor" "site factor"

# check-log: its estimate divided by it (h25-out's check-log prints the factor).
log1=$(echo $logs | awk '{ print $1 }')
run --config "$tmp/before.json" check-log "$log1" "$job" --json
e0=$("$JQ" .estimate.step_time.estimated_ms "$tmp/out")
run check-log "$log1" "$job" --json
e1=$("$JQ" .estimate.step_time.estimated_ms "$tmp/out")
if awk -v a="$e0" -v b="$e1" -v f="$want" 'BEGIN { d = a / b - f; exit !(d < 1e-9 && d > -1e-9) }'; then ok; else
	bad "check-log: estimate $e1 ms calibrated, $e0 ms not: not the factor $want"
fi

# Again: fitted against the model alone (not the calibrated estimate),
# so the same factor; the one before is said.
SOURCE_DATE_EPOCH=1765152000 run calibrate $logs --job "$job" --json
expect_status "again" 0
expect_json "again: the same factor" .site_factor "$want"
expect_json "again: the previous" '.previous | [.site_factor, .logs, .date]' "[$want,3,\"$day\"]"
expect_json "again: a new day" .date '"2025-12-08"'

# A log whose name has an escape and a byte that is not UTF-8: valid
# JSON, and no raw escape on a terminal.
odd="$tmp/$(printf 'odd\033[31m\377')"
cp "$log1" "$odd.out"
run calibrate "$odd.out" --job "$job" --dry-run --json
expect_status "odd name, JSON" 0
expect_json "odd name, JSON" '.logs[0].log | type' '"string"'
run calibrate "$odd.out" --job "$job" --dry-run
expect_status "odd name, text" 0
if grep -q "$(printf '\033')" "$tmp/out"; then bad "odd name: a raw escape on stdout"; else ok; fi

# A log with no layout: refused, unless the job gives one.
grep 'iteration ' "$log1" >"$tmp/nolayout.out"
cp "$cfg" "$tmp/kept.json"
# (The megatron-lm template: with Bridge's, the model's recipe gives one.)
run calibrate "$tmp/nolayout.out" --template megatron-lm --model llama3.2-1b --seq-length 4096 --global-batch-size 8
expect_status "no layout" 2
expect_err_prefix "no layout" "mbsbatch: log '$tmp/nolayout.out': no layout (no Megatron layout line, no mbsbatch marker)"
if cmp -s "$cfg" "$tmp/kept.json"; then ok; else bad "no layout: config file changed"; fi
run calibrate "$tmp/nolayout.out" --job "$job" --dry-run --json
expect_status "layout from the job" 0
expect_json "layout from the job" '.logs[0].layout_from' '"job"'

# The global batch is the log's: a run of 16 sequences a step is
# estimated as the job with --global-batch-size 16 (the job file says 8).
sed 's/global batch size:     8 /global batch size:    16 /' "$log1" >"$tmp/gbs16.out"
run --config "$tmp/before.json" check-log "$tmp/gbs16.out" "$job" --global-batch-size 16 --json
e16=$("$JQ" .estimate.step_time.estimated_ms "$tmp/out")
run calibrate "$tmp/gbs16.out" --job "$job" --dry-run --json
expect_json "the log's global batch" '.logs[0].global_batch_size' 16
expect_json "estimated with it" '.logs[0].estimated_step_ms | . * 1e6 | round' \
    "$(awk -v x="$e16" 'BEGIN { printf "%.0f", x * 1e6 }')"
if [ "$(awk -v a="$e16" -v b="$e0" 'BEGIN { print (a > b) }')" = 1 ]; then ok; else bad "a batch of 16 estimated no slower ($e16 ms) than of 8 ($e0 ms)"; fi

# Bad logs: one line, exit 2, the file untouched.
check_refused() {
	desc=$1 want_status=$2 want_err=$3
	shift 3
	run "$@"
	expect_status "$desc" "$want_status"
	expect_err_prefix "$desc" "$want_err"
	expect_no_stdout "$desc"
	if cmp -s "$cfg" "$tmp/kept.json"; then ok; else bad "$desc: config file changed"; fi
}
check_refused "empty log" 2 "mbsbatch: log '$data/empty.out': unusable: empty" \
    calibrate "$log1" "$data/empty.out" --job "$job"
check_refused "one iteration" 2 "mbsbatch: log '$data/cuda-oom.out': no step time after the warm-up (1 iteration line; the first 2 are left out)" \
    calibrate "$data/cuda-oom.out" --job "$job"
check_refused "no such log" 2 "mbsbatch: log '$tmp/none.out': " \
    calibrate "$tmp/none.out" --job "$job"
check_refused "no model" 2 "mbsbatch: log '$log1': no estimate for its layout: " \
    calibrate "$log1"
check_refused "no log" 2 "mbsbatch: calibrate: give the LOGs" calibrate --job "$job"
check_refused "stdin twice" 2 "mbsbatch: calibrate: standard input ('-') can be read once" \
    calibrate - - --job "$job"
# A layout the plan refuses (4 GPUs' TP 2 x PP 2 on 6): no estimate, and
# the plan that says why.
sed 's/mbsbatch: layout: world=4/mbsbatch: layout: world=6/' "$log1" >"$tmp/world6.out"
check_refused "world 6" 2 "mbsbatch: log '$tmp/world6.out': no estimate for its layout: " \
    calibrate "$tmp/world6.out" --job "$job"
if sed -n 2p "$tmp/err" | grep -qF -- "hint: 'mbsbatch plan $job --gpus 6 --tp 2 --pp 2"; then ok; else bad "world 6: no hint with the plan to run"; fi
# Step times 200 times faster than the real ones: not a calibration.
sed 's/elapsed time per iteration (ms): \([0-9.]*\)/elapsed time per iteration (ms): 4.0/' "$log1" >"$tmp/fast.out"
check_refused "20 times off" 2 "mbsbatch: calibrate: the site runs more than 20 times faster than the model says: not a calibration" \
    calibrate "$tmp/fast.out" --job "$job"
check_refused "no such cluster" 2 "mbsbatch: cluster 'nope': no such cluster" \
    --cluster nope calibrate "$log1" --job "$job"

# No cluster named anywhere: ask for --cluster.
printf '{"clusters": {"lab": {"gpu_type": "h100"}}}\n' >"$tmp/nodefault.json"
cp "$tmp/nodefault.json" "$tmp/nodefault.kept"
run --config "$tmp/nodefault.json" calibrate "$log1" --job "$job"
expect_status "no cluster" 2
expect_err_prefix "no cluster" "mbsbatch: calibrate: no cluster to calibrate"
if sed -n 2p "$tmp/err" | grep -qF -- "--cluster NAME"; then ok; else bad "no cluster: no hint naming --cluster"; fi
if cmp -s "$tmp/nodefault.json" "$tmp/nodefault.kept"; then ok; else bad "no cluster: file changed"; fi

# Another layout (one line, a symbolic link to it): the link kept, the
# file rewritten JSON-equal but for the keys, and said.
printf '{"clusters": {"lab": {"gpu_type": "h100", "gpu_memory": 79.60}, "x": {}}, "default_cluster": "lab"}' >"$tmp/oneline.json"
ln -s oneline.json "$tmp/link.json"
run --config "$tmp/link.json" calibrate $logs --job "$job"
expect_status "one-line file" 0
expect_out_has "one-line file: said" "(the file's layout rewritten as mbsbatch writes it; every key and value kept)"
if [ -L "$tmp/link.json" ]; then ok; else bad "the symbolic link was replaced"; fi
"$JQ" -S 'del(.clusters.lab.site_factor, .clusters.lab.site_factor_logs, .clusters.lab.site_factor_date)' "$tmp/oneline.json" >"$tmp/a"
printf '{"clusters": {"lab": {"gpu_type": "h100", "gpu_memory": 79.60}, "x": {}}, "default_cluster": "lab"}' | "$JQ" -S . >"$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "one-line file: other keys changed: $(diff "$tmp/b" "$tmp/a")"; fi
if [ "$("$JQ" -c 'keys_unsorted' "$tmp/oneline.json")" = '["clusters","default_cluster"]' ]; then ok; else bad "one-line file: key order lost"; fi

# A profile value a hand made wrong is refused where it is read.
for bad_value in '"site_factor": 0.05' '"site_factor": 20' '"site_factor": -1' \
    '"site_factor_date": "2025-02-29"' '"site_factor_logs": 0'; do
	printf '{"default_cluster": "lab", "clusters": {"lab": {%s}}}\n' "$bad_value" >"$tmp/bad.json"
	run --config "$tmp/bad.json" plan --model llama3.2-1b --gpus 8
	expect_status "profile $bad_value" 2
	expect_err_prefix "profile $bad_value" "mbsbatch: config file '$tmp/bad.json': line 1, column"
done

printf '{"default_cluster": "lab", "clusters": {"lab": {"site_factor": 0.01}}}\n' >"$tmp/bad.json"
run --config "$tmp/bad.json" plan --model llama3.2-1b --gpus 8
expect_err "site_factor 0.01" "mbsbatch: config file '$tmp/bad.json': line 1, column 49: 'site_factor': 0.01 is not above 0.05 (expected a number above 0.05 and below 20, such as 0.83)"

# --help and the usage line.
run calibrate --help
expect_status "help" 0
expect_out_has "help" "usage: mbsbatch calibrate LOG... [--job FILE] [--dry-run] [--json] [OPTIONS]"

finish
