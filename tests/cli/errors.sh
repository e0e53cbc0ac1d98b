# errors.sh: bad input on the command line.  Each case: exit 2, nothing on
# stdout, and one line on stderr naming the option and what it accepts.
. "${top_srcdir:-.}/tests/cli/lib.sh"

# Every integer option against zero, negative, fractional, huge (2^40),
# non-numeric and empty values.
for opt in tp pp cp ep etp vpp multiple gpus nodes gpus-per-node \
    nvlink-domain num-layers hidden-size ffn-hidden-size \
    num-attention-heads num-query-groups vocab-size moe-router-topk \
    moe-ffn-hidden-size seq-length global-batch-size micro-batch-size; do
	for val in 0 -1 2.5 1099511627776 abc '' 0x10 ' 2' 1e3; do
		run plan "--$opt" "$val"
		expect_status "--$opt '$val'" 2
		expect_no_stdout "--$opt '$val'"
		expect_err_prefix "--$opt '$val'" "mbsbatch: --$opt: '$val' "
		if grep -q '(expected a whole number from [0-9]* to [0-9]*)$' "$tmp/err"; then
			ok
		else
			bad "--$opt '$val': no accepted range"
		fi
	done
done
# --num-experts accepts 0 (a dense model).
run plan --num-experts 0
expect_status "--num-experts 0" 0

# Exact messages for a few.
run plan --tp 0
expect_err "tp 0" "mbsbatch: --tp: '0' is too small (expected a whole number from 1 to 65536)"
run plan --gpus 1099511627776
expect_err "gpus 2^40" "mbsbatch: --gpus: '1099511627776' is too large (expected a whole number from 1 to 16777216)"
run plan --pp 2.5
expect_err "pp 2.5" "mbsbatch: --pp: '2.5' is not a whole number (expected a whole number from 1 to 65536)"
run plan --ep -8
expect_err "ep -8" "mbsbatch: --ep: '-8' is negative (expected a whole number from 1 to 65536)"

# --params and --active-params take counts.
for val in 70B 1.5T 7e9 340M 1235814400; do
	run plan --params "$val"
	expect_status "--params $val" 0
done
for val in 1.5 70X 0 -70B '' 2P; do
	run plan --params "$val"
	expect_status "--params '$val'" 2
	expect_err_prefix "--params '$val'" "mbsbatch: --params: '$val' "
done
run plan --params 70X
expect_err "params 70X" "mbsbatch: --params: '70X' is not a number (expected a count from 1 to 1P, such as 70B, 1.5T or 7e9)"
run plan --params 70B --active-params 80B
expect_status "active > total" 2
expect_err "active > total" "mbsbatch: model architecture: more active parameters than parameters"

# --gpu-memory takes GiB.
run plan --gpu-memory 79.6
expect_status "gpu-memory 79.6" 0
run plan --gpu-memory 0
expect_err "gpu-memory 0" "mbsbatch: --gpu-memory: '0' is too small (expected a number of GiB from 1 to 4096)"
run plan --gpu-type h900
expect_status "gpu-type h900" 2
expect_err_prefix "gpu-type h900" "mbsbatch: --gpu-type: 'h900' is not a known GPU type"

# Conflicts and malformed command lines.
run plan --gpus 8 --nodes 1
expect_err "gpus and nodes" "mbsbatch: --gpus and --nodes cannot be used together: each sets the world size"
expect_status "gpus and nodes" 2
run plan --multiple 2 --gpus 16
expect_status "multiple and gpus" 2
run plan --tpp 2
expect_err "--tpp" "mbsbatch: plan: unknown option '--tpp' (did you mean '--tp'?)"
run plan --num-layer 32
expect_err "--num-layer" "mbsbatch: plan: unknown option '--num-layer' (did you mean '--num-layers'?)"
run plan --mod llama3-8b
expect_status "no abbreviations" 2
expect_err_prefix "no abbreviations" "mbsbatch: plan: unknown option '--mod'"
run plan --zzzzzz
expect_err_prefix "unknown option" "mbsbatch: plan: unknown option '--zzzzzz'"
expect_status "unknown option" 2
run plan -x
expect_status "-x" 2
run plan --tp
expect_err "--tp at the end" "mbsbatch: --tp: needs a value (N)"
run plan --sp=yes
expect_err "--sp=yes" "mbsbatch: --sp takes no value (use --sp or --no-sp)"
run plan --json=1
expect_err "--json=1" "mbsbatch: --json takes no value"
run plan a.json b.json
expect_err "two job files" "mbsbatch: plan: unexpected argument 'b.json' (at most 1)"
run plann
expect_err "plann" "mbsbatch: 'plann' is not a command (did you mean 'plan'?)"
expect_status "plann" 2
run frobnicate
expect_err_prefix "unknown command" "mbsbatch: 'frobnicate' is not a command"
run
expect_status "no command" 2
expect_no_stdout "no command"
run --bogus plan
expect_status "unknown global option" 2
run plan --config
expect_err "--config without file" "mbsbatch: --config: needs a value (FILE)"
run plan --cluster ''
expect_err "empty cluster" "mbsbatch: --cluster: value is empty"

# Values that must never reach a script: newlines are refused.
nl='llama
3'
run plan --model "$nl"
expect_status "newline in --model" 2
expect_err "newline in --model" "mbsbatch: --model: value contains a newline"
run plan --model 'no such'
expect_err_prefix "bad preset name" "mbsbatch: model 'no such': not a preset name"
run plan --model llama3-7b
expect_status "unknown preset" 2
expect_err_prefix "unknown preset" "mbsbatch: model 'llama3-7b': no such preset (did you mean 'llama3-8b'?)"

# Files that cannot be read are operational failures (1).
run plan /nonexistent/job.json
expect_status "missing job file" 1
expect_err "missing job file" "mbsbatch: job file '/nonexistent/job.json': No such file or directory"
run plan /
expect_status "directory as job file" 1
run plan --config /nonexistent/config.json --tp 2
expect_status "missing --config" 1
expect_err "missing --config" "mbsbatch: config file '/nonexistent/config.json': No such file or directory"

# A mistyped job state: the nearest of Slurm's, else the list (no Slurm
# is asked: the words are checked first).
run jobs --state runing,PENDING
expect_status "jobs --state runing" 2
expect_err "jobs --state runing" "mbsbatch: jobs: --state: 'runing' is not a job state of Slurm's (did you mean 'RUNNING'?)"
run jobs --state xyz
expect_err "jobs --state xyz" "mbsbatch: jobs: --state: 'xyz' is not a job state of Slurm's (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...) nor 'all'"
# squeue's --states=all is the whole value, never a word of a list.
run jobs --state running,ALL
expect_status "jobs --state running,ALL" 2
expect_err "jobs --state running,ALL" "mbsbatch: jobs: --state: 'all' stands alone, not in a list of states"

finish
