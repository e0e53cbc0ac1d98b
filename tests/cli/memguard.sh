# memguard.sh: submit and sweep do not queue a layout estimated not to
# fit in GPU memory unless --allow-oom (job or profile key allow_oom);
# gen writes it with the warning.  No cluster: submit --dry-run and sweep
# --dry-run stop where a real submission would.
. "${top_srcdir:-.}/tests/cli/lib.sh"

# Llama 3 8B, TP 2, SP, sequence 4096 on 8 GPUs: 41.4 GiB per GPU
# (tests/cli/plan.sh), over a 40 GiB GPU, under an 80 GiB one.
fit="--model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --template command --command true --via sbatch"

run submit $fit --gpu-memory 40 --dry-run
expect_status "over" 3
expect_no_stdout "over"
if [ "$(cat "$tmp/err")" = "mbsbatch: submit: llama3-8b: estimated 41.4 GiB per GPU over the GPU's 40.0 GiB; not queued
hint: --allow-oom (job key allow_oom) queues it anyway; 'mbsbatch plan' with the same options shows the estimate and what to raise" ]; then ok; else bad "over: stderr"; fi

# Under an 80 GiB GPU it goes, without a word on memory.
run submit $fit --gpu-memory 80 --dry-run
expect_status "under" 0
expect_out_has "under" "# mbsbatch submit --dry-run: nothing was sent"
if grep -q memory-oom "$tmp/err"; then bad "under: memory-oom said"; else ok; fi

# --allow-oom: queued, the warning said.
run submit $fit --gpu-memory 40 --dry-run --allow-oom
expect_status "allowed" 0
expect_out_has "allowed" "# mbsbatch submit --dry-run: nothing was sent"
if grep -q '^mbsbatch: submit: warning: memory-oom: estimated 41.4 GiB' "$tmp/err"; then ok; else bad "allowed: no warning"; fi

# The job file's key, and the profile's.
printf '{ "allow_oom": true }\n' >"$tmp/job.json"
run submit "$tmp/job.json" $fit --gpu-memory 40 --dry-run
expect_status "job key" 0
mkdir -p "$XDG_CONFIG_HOME/mbsbatch"
printf '{ "clusters": { "lab": { "allow_oom": true } } }\n' \
    >"$XDG_CONFIG_HOME/mbsbatch/config.json"
run submit $fit --gpu-memory 40 --dry-run --cluster lab
expect_status "profile key" 0
printf '{ "clusters": { "lab": { "allow_oom": false } } }\n' \
    >"$XDG_CONFIG_HOME/mbsbatch/config.json"
run submit $fit --gpu-memory 40 --dry-run --cluster lab
expect_status "profile key off" 3

# gen writes it, with the warning, and exits 0.
run gen $fit --gpu-memory 40
expect_status "gen" 0
expect_out_has "gen" "#SBATCH --nodes=1"
if grep -q '^mbsbatch: gen: warning: memory-oom: estimated 41.4 GiB' "$tmp/err"; then ok; else bad "gen: no warning"; fi

# sweep: the point that does not fit is skipped with its finding, as a
# point that breaks a rule is (a dry run exits 0, as sweep.sh's does);
# --allow-oom queues it.
run sweep $fit --grid gpu-memory=40,80 --dry-run
expect_status "sweep" 0
expect_out_has "sweep" "# 2 points, 1 skipped; 1 submission"
expect_out_has "sweep" "gpu-memory=40: skipped: memory-oom: estimated 41.4 GiB per GPU over the GPU's 40.0 GiB (--allow-oom queues it)"
if grep -q "^mbsbatch: sweep: point 0 (gpu-memory=40) skipped: memory-oom: " "$tmp/err"; then ok; else bad "sweep: stderr"; fi
run sweep $fit --grid gpu-memory=40,80 --dry-run --allow-oom -q
expect_status "sweep allowed" 0
expect_out_has "sweep allowed" "# 2 points, 0 skipped"

# A published layout that ran (Megatron-Bridge's performance summary,
# 26.02.01: Llama 3 70B on 64 GB200, TP 2, PP 4, VPP 5, MXFP8, as the
# benchmark recipes run it with BF16 gradients) is queued.
run submit --model llama3-70b --gpu-type gb200 --tp 2 --sp --pp 4 --vpp 5 \
    --gpus 64 --seq-length 8192 --global-batch-size 256 --fp8 mxfp8 \
    --grads-dtype bf16 --template command --command true --via sbatch --dry-run
expect_status "published layout" 0
finish
