# sweep.sh: mbsbatch sweep without a cluster: --dry-run's grouping into
# job arrays, skipped points, --strict, and every refusal with its
# message.  tests/slurm/sweep.sh queues sweeps on a real cluster.
. "${top_srcdir:-.}/tests/cli/lib.sh"
cd "$tmp" || exit 1
base="--model llama3-8b --seq-length 4096 --gpus 8 --recipe llama3_8b_pretrain_config"

# 4 x 2 points: TP 3 breaks the heads rule twice; the rest share their
# #SBATCH lines, so one array of 6 tasks.
run sweep $base --grid tp=1,2,3,4 --grid micro-batch-size=1,2 --dry-run
expect_status "dry run" 0
expect_out_has "dry run" "# 8 points, 2 skipped; 1 submission (points with the same #SBATCH lines go as one job array)"
expect_out_has "dry run: task" "3       0.3        tp=2 micro-batch-size=2"
expect_out_has "dry run: skipped" "4       -          tp=3 micro-batch-size=1: skipped: heads-divisibility: 32 attention heads do not divide evenly over TP 3"
expect_out_has "dry run: last" "7       0.5        tp=4 micro-batch-size=2"
if grep -q '^mbsbatch: sweep: point 5 (tp=3 micro-batch-size=2) skipped: heads-divisibility' "$tmp/err"; then ok; else bad "dry run: stderr"; fi
if [ ! -e mbsbatch.sweep ]; then ok; else bad "dry run wrote a journal"; fi

# --max-array-size splits the array; --no-array sends a job a point.
run sweep $base --grid tp=1,2,4 --grid micro-batch-size=1,2 --dry-run --max-array-size 4 -q
expect_out_has "split" "# 6 points, 0 skipped; 2 submissions"
expect_out_has "split: second array" "4       1.0        tp=4 micro-batch-size=1"
run sweep $base --grid tp=1,2 --dry-run --no-array -q
expect_out_has "no array" "# 2 points, 0 skipped; 2 submissions (each point its own job)"
expect_out_has "no array: job" "1       1          tp=2"

# Points asking for different resources go in different arrays.
run sweep $base --grid time=10,20 --grid tp=1,2 --dry-run -q
expect_out_has "by resources" "2 submissions"
expect_out_has "by resources" "2       1.0        time=20 tp=1"

# --strict: a warning (pp-bubble: PP 2, 4 micro-batches) skips the point
# too.
run sweep $base --global-batch-size 8 --grid pp=1,2 --strict --dry-run
expect_out_has "strict" "1       -          pp=2: skipped: pp-bubble:"
expect_out_has "strict: pp 1 kept" "0       0.0        pp=1"

# Refusals: one line, exit 2, nothing written.
refuse() {
	desc=$1 want=$2
	shift 2
	run sweep "$@"
	expect_status "$desc" 2
	expect_err_prefix "$desc" "$want"
	if [ ! -e mbsbatch.sweep ]; then ok; else bad "$desc: a journal was written"; rm -f mbsbatch.sweep; fi
}
refuse "no grid" "mbsbatch: sweep: give the grid: --grid KEY=V1,V2,... (repeatable)" $base
refuse "not a setting" "mbsbatch: --grid: 'tpp' is not a setting" $base --grid tpp=1,2
refuse "no values" "mbsbatch: --grid: 'tp' is not KEY=V1,V2,..." $base --grid tp
refuse "empty value" "mbsbatch: --grid: --tp: an empty value" $base --grid tp=1,,2
refuse "bad value" "mbsbatch: --grid: --tp: 'x' " $base --grid tp=1,x
refuse "twice" "mbsbatch: --grid: --tp is swept twice" $base --grid tp=1 --grid tp=2
refuse "a list" "mbsbatch: --grid: --env cannot be swept (it takes a list)" $base --grid env=A=1
refuse "connection" "mbsbatch: --grid: --via cannot be swept (every point goes to the same Slurm)" $base --grid via=rest,sbatch
refuse "bool" "mbsbatch: --grid: --sp: 'yes' is not true or false" $base --grid sp=yes
refuse "missing option" "mbsbatch: sweep: point 0 (tp=1): gen: template 'megatron-bridge' needs a recipe: no pretraining recipe of Megatron-Bridge 0.6.0 builds model 'olmoe-7b' (allenai/OLMoE-1B-7B-0924); give --recipe NAME" --model olmoe-7b --gpus 8 --grid tp=1
refuse "parallel" "mbsbatch: --parallel: '0' " $base --grid tp=1 --parallel 0
refuse "stdin" "mbsbatch: sweep: the job file cannot be standard input: every point reads it" - --grid tp=1
refuse "resume and dry run" "mbsbatch: sweep: --dry-run with --resume" $base --grid tp=1 --resume --dry-run
run sweep $base --grid tp=1 --resume
expect_status "resume without journal" 1
expect_err "resume without journal" "mbsbatch: journal 'mbsbatch.sweep': open: No such file or directory"

# The journal's default name follows the job file's.
printf '{"model": "llama3-8b", "recipe": "llama3_8b_pretrain_config", "gpus": 8}\n' >run.json
printf '{"sweep": "abc123", "version": 1, "points": 1, "grid": [], "array": true}\n' >run.sweep
run sweep run.json --grid tp=1,2
expect_status "journal exists" 2
expect_err_prefix "journal exists" "mbsbatch: journal 'run.sweep' exists: it records an earlier sweep"
run sweep run.json --grid tp=1,2 --resume --via sbatch
expect_status "another sweep's journal" 2
expect_err_prefix "another sweep's journal" "mbsbatch: journal 'run.sweep' records another sweep (its grid differs)"

# Every #SBATCH line sbatch reads tells points apart, not only those
# right under line 1: a comment before them once made points of
# different time limits one array, run with the first point's limit.
cat >commented.sbatch <<'EOF'
#!/bin/bash
# my cluster's lines
{{#slurm}}
#SBATCH --{{option}}{{^flag}}={{value}}{{/flag}}
{{/slurm}}
true
EOF
run sweep --template "$tmp/commented.sbatch" --gpus 8 --grid time=10,20 --dry-run -q
expect_status "commented template" 0
expect_out_has "commented template" "# 2 points, 0 skipped; 2 submissions"

# A journal is checked whole before --resume trusts it or writes to it:
# each bad record is refused with its line (exit 2), the file is left
# byte for byte as it was, and nothing is sent (--via sbatch with no
# cluster would fail with status 1, not 2).
hdr='{"sweep":"abc123","version":1,"points":2,"grid":[["tp",["1","2"]]],"array":true}'
bad_journal() {
	desc=$1
	want=$2
	shift 2
	{ printf '%s\n' "$hdr"; [ $# -eq 0 ] || printf '%s\n' "$@"; } >bad.sweep
	cp bad.sweep bad.copy
	run sweep $base --grid tp=1,2 --resume --journal bad.sweep --via sbatch
	expect_status "journal: $desc" 2
	expect_err_prefix "journal: $desc" "mbsbatch: journal 'bad.sweep': $want"
	if cmp -s bad.sweep bad.copy; then ok; else bad "journal: $desc: the file changed"; fi
}
bad_journal "far point" "line 2: a point that is not one of the sweep's" \
    '{"submitting":"x-abc123-a0","points":[100000000]}'
bad_journal "negative point" "line 2: a point that is not one of the sweep's" \
    '{"submitting":"x-abc123-a0","points":[-5]}'
bad_journal "point past the end" "line 2: a point that is not one of the sweep's" \
    '{"submitting":"x-abc123-a0","points":[2]}'
bad_journal "point twice" "line 2: a point that is not one of the sweep's" \
    '{"submitting":"x-abc123-a0","points":[1,1]}'
bad_journal "point not a number" "line 2: a point that is not one of the sweep's" \
    '{"submitting":"x-abc123-a0","points":["0"]}'
bad_journal "no points" "line 2: no list of points" \
    '{"submitting":"x-abc123-a0","points":[]}'
bad_journal "queued without id" "line 3: no job id" \
    '{"submitting":"x-abc123-a0","points":[0]}' '{"queued":"x-abc123-a0","points":[0]}'
bad_journal "another sweep's name" "line 2: not a job name of this sweep" \
    '{"submitting":"x-ffffff-a0","points":[0]}'
bad_journal "a name with a newline" "line 2: not a job name of this sweep" \
    '{"submitting":"x-abc123-a0\n#SBATCH --uid=0","points":[0]}'
bad_journal "neither" "line 2: neither a submission nor a queued job" '{"points":[0]}'
hdr='{"sweep":"abc\n#SBATCH --uid=0","version":1,"points":2,"grid":[["tp",["1","2"]]],"array":true}'
bad_journal "an id mbsbatch does not make" "line 1: not a sweep id mbsbatch makes"
hdr='{"sweep":"ABC123","version":1,"points":2,"grid":[["tp",["1","2"]]],"array":true}'
bad_journal "an id in capitals" "line 1: not a sweep id mbsbatch makes"
hdr='{"sweep":"abc123","version":1,"points":2,"grid":[["tp",["1","2"]]],"array":true}'

# A NUL byte makes its line unreadable; it does not hide the lines after
# it (they would be sent again).
{ printf '%s\n' "$hdr"; printf '{"submitting":"x-abc123-a0",\000"points":[0]}\n'; echo '{"queued":"x-abc123-a0","job_id":7,"points":[0,1]}'; } >nul.sweep
cp nul.sweep nul.copy
run sweep $base --grid tp=1,2 --resume --journal nul.sweep --via sbatch
expect_status "journal: NUL" 2
expect_err_prefix "journal: NUL" "mbsbatch: journal 'nul.sweep': line 2 is not a journal record"
if cmp -s nul.sweep nul.copy; then ok; else bad "journal: NUL: the file changed"; fi

# Another sweep's journal with a torn last line: refused before the torn
# line is cut (it is this sweep's data, not ours to change).
{ echo '{"sweep":"abc123","version":1,"points":3,"grid":[["tp",["1","2","4"]]],"array":true}'; printf '{"submitting":"x-abc1'; } >other.sweep
cp other.sweep other.copy
run sweep $base --grid tp=1,2 --resume --journal other.sweep --via sbatch
expect_status "journal: another sweep, torn" 2
expect_err_prefix "journal: another sweep, torn" "mbsbatch: journal 'other.sweep' records another sweep (its grid differs)"
if cmp -s other.sweep other.copy; then ok; else bad "journal: another sweep, torn: the file changed"; fi

# Not a regular file: a FIFO would block the reader forever, a symbolic
# link is not followed; cancel --journal reads the same way.
mkfifo fifo.sweep
ln -s run.sweep link.sweep
for cmd in "sweep $base --grid tp=1,2 --resume --via sbatch --journal" "cancel --via sbatch --journal"; do
	# shellcheck disable=SC2086
	timeout 20 "$MBSBATCH" $cmd fifo.sweep >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "FIFO journal: ${cmd%% *}" 2
	expect_err "FIFO journal: ${cmd%% *}" "mbsbatch: journal 'fifo.sweep': not a regular file"
	# shellcheck disable=SC2086
	run $cmd link.sweep
	expect_status "linked journal: ${cmd%% *}" 2
	expect_err_prefix "linked journal: ${cmd%% *}" "mbsbatch: journal 'link.sweep': a symbolic link"
done
if [ -p fifo.sweep ] && [ -L link.sweep ]; then ok; else bad "the FIFO or the link was replaced"; fi


# Where each point writes, through a stand-in for sbatch (the next job
# id, the script kept): printed a line a point, in --json's logs and in
# the journal, an array task's with %A and %a resolved; a journal from
# before these keys resumes.
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
if command -v "$JQ" >/dev/null 2>&1; then
	mkdir -p fake
	cat >fake/sbatch <<'EOF'
#!/bin/sh
case ${1:-} in --version) echo "slurm 22.05.8"; exit 0 ;; esac
n=$(cat "$FAKE_SBATCH_DIR/last" 2>/dev/null || echo 100)
n=$((n + 1))
echo "$n" >"$FAKE_SBATCH_DIR/last"
cat >"$FAKE_SBATCH_DIR/job.$n"
echo "$n"
EOF
	chmod +x fake/sbatch
	FAKE_SBATCH_DIR=$tmp/fake
	export FAKE_SBATCH_DIR
	fake="--template command --command true --gpus 8 --via sbatch --parallel 1"
	PATH="$tmp/fake:$PATH" "$MBSBATCH" sweep $fake --grid tp=1,2 --journal logs1.sweep \
	    >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "logs: array" 0
	id=$(sed -n 's/^sweep \([0-9a-f]*\): .*/\1/p' "$tmp/out")
	expect_out_has "logs: array, point 0" "point 0 (tp=1): job 101_0, output $tmp/logs/mbsbatch-$id-a0-101_0.out"
	expect_out_has "logs: array, point 1" "point 1 (tp=2): job 101_1, output $tmp/logs/mbsbatch-$id-a0-101_1.out"
	got=$("$JQ" -c 'select(.queued) | [.output, .error]' logs1.sweep)
	want="[[\"$tmp/logs/mbsbatch-$id-a0-101_0.out\",\"$tmp/logs/mbsbatch-$id-a0-101_1.out\"],[null,null]]"
	if [ "$got" = "$want" ]; then ok; else bad "logs: array: journal $got, want $want"; fi
	PATH="$tmp/fake:$PATH" "$MBSBATCH" sweep $fake --grid tp=1,2 --no-array \
	    --error 'e/%x-%j.err' --journal logs2.sweep --json >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "logs: jobs" 0
	id=$("$JQ" -r .sweep "$tmp/out")
	expect_json "logs: jobs, --json" '[.logs[] | [.point, .job_id, .array_task_id, .output, .error]]' \
	    "[[0,102,null,\"$tmp/logs/mbsbatch-$id-0-102.out\",\"$tmp/e/mbsbatch-$id-0-102.err\"],[1,103,null,\"$tmp/logs/mbsbatch-$id-1-103.out\",\"$tmp/e/mbsbatch-$id-1-103.err\"]]"
	# A journal of before: one point queued, no output or error; the
	# resumed sweep queues the other, and records where it writes.
	"$JQ" -c 'select(.points != [1]) | del(.output, .error)' logs2.sweep >old.sweep
	PATH="$tmp/fake:$PATH" "$MBSBATCH" sweep $fake --grid tp=1,2 --no-array \
	    --error 'e/%x-%j.err' --journal old.sweep --resume >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
	expect_status "logs: old journal resumed" 0
	id=$(sed -n 's/^sweep \([0-9a-f]*\): .*/\1/p' "$tmp/out")
	expect_out_has "logs: old journal resumed" "point 1 (tp=2): job 104, output $tmp/logs/mbsbatch-$id-1-104.out, error $tmp/e/mbsbatch-$id-1-104.err"
	expect_out_lacks "logs: old journal resumed: point 0 was queued before" "point 0 (tp=1)"
	if [ "$("$JQ" -c 'select(.queued) | .output' old.sweep | tr '\n' ' ')" = "null [\"$tmp/logs/mbsbatch-$id-1-104.out\"] " ]; then ok; else bad "logs: old journal resumed: $(cat old.sweep)"; fi
fi

finish
