# completion.sh: the bash completion (completions/mbsbatch) offers the
# commands, each command's options, the model presets, the templates and
# the fixed values of options, as a user typing TAB would see them.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need bash "to load the bash completion"
comp="$(cd "$top_srcdir" && pwd)/completions/mbsbatch"
bindir=$(dirname "$MBSBATCH")
# bad() shows the last run's status; this test runs none.
status=0
: >"$tmp/out"
: >"$tmp/err"

# complete WORDS...: what TAB offers after WORDS (the last is the word
# being typed), one a line, sorted.
complete_words() {
	PATH="$bindir:$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_mbsbatch
		printf "%s\n" "${COMPREPLY[@]}"' bash "$comp" mbsbatch "$@" | sort
}

# expect_offers DESC N WORD1..WORDN WANT...: after the N words typed (the
# last is the one being completed, maybe empty), every WANT is offered.
expect_offers() {
	desc=$1
	n=$2
	shift 2
	got=$(case $n in
		1) complete_words "$1" ;;
		2) complete_words "$1" "$2" ;;
		3) complete_words "$1" "$2" "$3" ;;
	esac)
	shift "$n"
	for w in "$@"; do
		if printf '%s\n' "$got" | grep -qx -- "$w"; then ok; else bad "$desc: '$w' not offered (got: $(echo $got))"; fi
	done
}

expect_offers "commands" 1 "" plan recommend gen submit sweep status jobs cancel report help site
expect_offers "report options" 2 report -- --chain --journal --json --via
: >"$tmp/job.json"
complete_words report "$tmp/" >"$tmp/offered"
if [ ! -s "$tmp/offered" ] || [ "$(cat "$tmp/offered")" = "" ]; then ok; else bad "report JOBID: files offered: $(cat "$tmp/offered")"; fi
expect_offers "command prefix" 1 sw sweep
if [ "$(complete_words sw)" = sweep ]; then ok; else bad "command prefix: more than sweep"; fi
expect_offers "global options" 1 --c --config --cluster
expect_offers "plan options" 2 plan --s --search --seq-length --sp --strict
expect_offers "sweep options" 2 sweep --gr --grid --grads-dtype
expect_offers "cancel options" 2 cancel --j --journal --json
expect_offers "calibrate options" 2 calibrate -- --job --dry-run --json --tp
expect_offers "site options" 2 site -- --output --force --dry-run --json --via --rest-url
expect_offers "recommend -o" 2 recommend --f --file --force
expect_offers "cancel --chain" 2 cancel --ch --chain
expect_offers "submit --chain-on" 2 submit --chain- --chain-on
expect_offers "chain-on values" 3 submit --chain-on "" any ok notok
expect_offers "submit --test-only" 2 submit --test --test-only
expect_offers "status options" 2 status -- --wait --journal --json --via
expect_offers "jobs options" 2 jobs -- --state --name --sweep --json --via
expect_offers "job states" 3 jobs --state "" PENDING RUNNING FAILED OUT_OF_MEMORY
expect_offers "job states, a list" 3 jobs --state RUNNING,F RUNNING,FAILED
if [ "$(complete_words jobs --state RUNNING,F)" = RUNNING,FAILED ]; then ok; else bad "job states, a list: more than RUNNING,FAILED"; fi
: >"$tmp/lr.sweep"
complete_words jobs --sweep "$tmp/lr" >"$tmp/offered"
if grep -qxF "$tmp/lr.sweep" "$tmp/offered"; then ok; else bad "jobs --sweep: the journal not offered (got: $(cat "$tmp/offered"))"; fi
# (A file here would be offered as a JOBFILE were status taking one.)
: >"$tmp/job.json"
complete_words status "$tmp/" >"$tmp/offered"
if [ ! -s "$tmp/offered" ] || [ "$(cat "$tmp/offered")" = "" ]; then ok; else bad "status JOBID: files offered: $(cat "$tmp/offered")"; fi
expect_offers "presets" 3 plan --model "" llama3-8b kimi-k2 deepseek-v3 qwen3-30b-a3b
expect_offers "templates" 3 gen --template "" megatron-bridge megatron-lm command
expect_offers "gpu types" 3 plan --gpu-type "" h100 gb200
expect_offers "back ends" 3 submit --via "" rest native sbatch
expect_offers "GPU request forms" 3 gen --gpu-request "" gpus-per-node gres
expect_offers "cuda graphs" 3 gen --cuda-graphs "" none local transformer_engine full_iteration
expect_offers "fsdp options" 2 gen --fsd --fsdp --fsdp-sharding
expect_offers "fsdp shardings" 3 plan --fsdp-sharding "" optim_grads_params optim_grads optim
expect_offers "help topics" 2 help "" plan sweep
# A user's own preset is offered too.
mkdir -p "$XDG_CONFIG_HOME/mbsbatch/presets"
printf '{"num_layers": 2, "hidden_size": 64, "num_attention_heads": 4}\n' \
    >"$XDG_CONFIG_HOME/mbsbatch/presets/mine.json"
expect_offers "user preset" 3 plan --model "" mine
# calibrate's LOGs have any name (a JOBFILE is *.json).
: >"$tmp/slurm-7.out"
expect_offers "calibrate logs" 2 calibrate "$tmp/slurm-7" "$tmp/slurm-7.out"

finish
