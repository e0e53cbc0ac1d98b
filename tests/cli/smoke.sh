# smoke.sh: mbsbatch smoke and gen --smoke, black box: the smoke job of a
# dense and a MoE example (layout kept, min GPUs, the small recipe, the
# smoke knobs, the log marker), what it drops from the job (checkpoints,
# requeue, the job file's overrides, its time), its summary, -o and
# --force, gen --smoke, both templates, and the jobs it refuses.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need bash "to check the generated scripts' syntax"

ex="$(cd "$top_srcdir" && pwd)/examples"

# expect_err_has DESC TEXT: stderr contains the line fragment TEXT.
expect_err_has() {
	if grep -qF -- "$2" "$tmp/err"; then ok; else bad "$1: stderr lacks: $2"; fi
}

# The guide's case: Llama 3.2 1B, TP 2, PP 2, SP on 4 GPUs.
run smoke "$ex/llama3.2-1b.json"
expect_status "dense" 0
expect_out_has "dense: its recipe" "	--recipe vanilla_gpt_pretrain_config"
expect_out_has "dense: mock data" "	--dataset mock"
expect_out_has "dense: TP" "	model.tensor_model_parallel_size=2"
expect_out_has "dense: PP" "	model.pipeline_model_parallel_size=2"
expect_out_has "dense: SP" "	model.sequence_parallel=true"
expect_out_has "dense: the sizes a bare provider needs" "	model.hidden_size=2048"
expect_out_has "dense: layers" "	model.num_layers=16"
expect_out_has "dense: 3 iterations" "	train.train_iters=3"
expect_out_has "dense: batch" "	train.global_batch_size=8"
expect_out_has "dense: micro-batch" "	train.micro_batch_size=1"
expect_out_has "dense: no evaluation" "	validation.eval_iters=0"
expect_out_has "dense: no evaluation" "	validation.eval_interval=0"
expect_out_has "dense: no warm-up" "	scheduler.lr_warmup_iters=0"
expect_out_has "dense: every iteration" "	logger.log_interval=1"
expect_out_has "dense: its TFLOP/s" "	logger.log_throughput=true"
expect_out_has "dense: no save" "	checkpoint.save=null"
expect_out_has "dense: no load" "	checkpoint.load=null"
expect_out_has "dense: no save interval" "	checkpoint.save_interval=0"
expect_out_has "dense: 4 GPUs" "#SBATCH --ntasks-per-node=4"
expect_out_has "dense: 1 node" "#SBATCH --nodes=1"
expect_out_has "dense: short time" "#SBATCH --time=00:20:00"
expect_out_has "dense: its own name" "#SBATCH --job-name=llama3.2-1b-smoke"
# Its few micro-batches check the layout, not the speed: no pp-bubble.
if grep -q 'pp-bubble' "$tmp/err" "$tmp/out"; then bad "smoke job: a pp-bubble warning"; else ok; fi
expect_out_has "dense: smoke marker" 'echo "mbsbatch: smoke: iterations=3"'
expect_out_has "dense: layout marker" 'nodes=${SLURM_JOB_NUM_NODES:-0} tp=2 pp=2 vpp=1 cp=1 ep=1 etp=1 dp=1 edp=2"'
expect_out_lacks "dense: no train marker" "mbsbatch: train:"
expect_out_has "dense: regenerate line" "#   mbsbatch smoke $ex/llama3.2-1b.json"
expect_err_has "dense: summary layout" "mbsbatch: smoke: layout kept: tp=2 pp=2 vpp=1 cp=1 ep=1 etp=1 sp=on"
expect_err_has "dense: summary GPUs" "mbsbatch: smoke: GPUs 4 -> 4, nodes 1 -> 1, DP 1"
expect_err_has "dense: summary model" "mbsbatch: smoke: model llama3.2-1b (16 layers) -> llama3.2-1b with 16 layers, recipe vanilla_gpt_pretrain_config"
expect_err_has "dense: summary run" "mbsbatch: smoke: 3 iterations, global batch 8 (micro-batch 1)"
cp "$tmp/out" "$tmp/dense.sbatch"
if bash -n "$tmp/dense.sbatch" 2>"$tmp/syntax"; then ok; else bad "dense: bash -n: $(cat "$tmp/syntax")"; fi

# gen --smoke: the same script, no summary.
run gen --smoke "$ex/llama3.2-1b.json"
expect_status "gen --smoke" 0
if diff "$tmp/dense.sbatch" "$tmp/out" | grep '^[<>]' | grep -qv '#   mbsbatch '; then
	bad "gen --smoke differs from smoke beyond the regenerate line"
else
	ok
fi
expect_out_has "gen --smoke: regenerate line" "#   mbsbatch gen --smoke $ex/llama3.2-1b.json"
if grep -q 'mbsbatch: smoke: layout kept' "$tmp/err"; then bad "gen --smoke printed the summary"; else ok; fi
# gen without it: the job itself, its marker lines too.
run gen "$ex/qwen3-30b-a3b.json"
expect_out_lacks "gen: no smoke marker" "mbsbatch: smoke:"
expect_out_has "gen: layout marker" 'world=$((${SLURM_JOB_NUM_NODES:-0} * 8)) nodes=${SLURM_JOB_NUM_NODES:-0} tp=4 pp=2 vpp=2 cp=1 ep=4 etp=1 dp=2 edp=2"'
run gen "$ex/llama3.2-1b.json" --train-iters 500
expect_out_has "gen: train marker" 'echo "mbsbatch: train: iterations=500"'

# A MoE example: the uneven split kept, the fewest legal layers.
run smoke "$ex/deepseek-v3.json"
expect_status "moe" 0
expect_out_has "moe: its recipe" "	--recipe olmoe_7b_pretrain_config"
expect_out_has "moe: EP" "	model.expert_model_parallel_size=64"
expect_out_has "moe: PP" "	model.pipeline_model_parallel_size=16"
expect_out_has "moe: first stage" "	model.num_layers_in_first_pipeline_stage=3"
expect_out_has "moe: last stage" "	model.num_layers_in_last_pipeline_stage=2"
expect_out_has "moe: 3 + 14 + 2 layers" "	model.num_layers=19"
expect_out_has "moe: experts" "	model.num_moe_experts=64"
expect_out_has "moe: the job's dispatcher" "	model.moe_flex_dispatcher_backend=hybridep"
expect_out_has "moe: no explicit layout" "	model.pipeline_model_parallel_layout=null"
expect_out_has "moe: min GPUs" "#SBATCH --nodes=128"
expect_out_has "moe: DP 32, one micro-batch each" "	train.global_batch_size=32"
expect_out_has "moe: time" "#SBATCH --time=00:20:00"
expect_out_lacks "moe: not the job's time" "--time=04:00:00"

# Megatron-LM: the same knobs as flags; no checkpoint flags.
run smoke --template megatron-lm "$ex/qwen3-30b-a3b.json" --checkpoint-dir /ckpt --save-interval 100
expect_status "megatron-lm" 0
expect_out_has "megatron-lm: iterations" "	--train-iters"
expect_out_has "megatron-lm: no evaluation" "	--eval-iters"
expect_out_has "megatron-lm: log interval" "	--log-interval"
expect_out_has "megatron-lm: its TFLOP/s" "	--log-throughput"
expect_out_has "megatron-lm: warm-up" "	--lr-warmup-iters"
expect_out_has "megatron-lm: mock data" "	--mock-data"
expect_out_lacks "megatron-lm: no save" "	--save"
expect_out_lacks "megatron-lm: no load" "	--load"
expect_out_has "megatron-lm: VPP" 'tp=4 pp=2 vpp=2 cp=1 ep=4 etp=1 dp=1 edp=1"'
expect_out_has "megatron-lm: smoke marker" 'echo "mbsbatch: smoke: iterations=3"'

# Checkpoints, requeue and the job file's overrides are the job's.
cat >"$tmp/job.json" <<'EOF'
{ "recipe": "qwen3_30b_a3b_pretrain_config", "tp": 2, "ep": 8, "sp": true,
  "gpus": 64, "checkpoint_dir": "/ckpt", "save_interval": 50,
  "overrides": ["dataset.blend=/data/x"],
  "slurm": { "requeue": true, "time": "24:00:00" } }
EOF
run smoke "$tmp/job.json" --override logger.timing_log_level=1
expect_status "dropped" 0
expect_out_lacks "dropped: checkpoint dir" "checkpoint.save=/ckpt"
expect_out_lacks "dropped: save interval" "checkpoint.save_interval=50"
expect_out_lacks "dropped: requeue" "train.exit_signal_handler"
expect_out_lacks "dropped: requeue directive" "#SBATCH --requeue"
expect_out_lacks "dropped: the job file's override" "dataset.blend"
expect_out_has "kept: this command line's override" "	logger.timing_log_level=1"
expect_out_has "dropped: 64 -> 8 GPUs" "#SBATCH --nodes=1"
expect_err_has "dropped: summary" "mbsbatch: smoke: GPUs 64 -> 8, nodes 8 -> 1, DP 4"
expect_out_has "kept: the recipe's TP overlap, TP 2 with SP" "comm_overlap.tp_comm_overlap=true"

# EP past the small model's 64 experts: experts follow EP.
run smoke --recipe qwen3_30b_a3b_pretrain_config --ep 128
expect_status "ep 128" 0
expect_out_has "ep 128: experts" "	model.num_moe_experts=128"
expect_out_has "ep 128: 16 nodes" "#SBATCH --nodes=16"

# OLMoE whole on one H100 is over its 80 GiB: fewer layers until it fits.
run smoke --recipe qwen3_30b_a3b_pretrain_config --ep 1 --gpu-type h100 \
    --moe-dispatcher alltoall
expect_status "fit" 0
expect_out_has "fit: one layer" "	model.num_layers=1"
expect_out_lacks "fit: no memory warning" "memory-oom"
expect_err_has "fit: summary" "-> olmoe-7b with 1 layer, 64 experts"
run plan --recipe olmoe_7b_pretrain_config --ep 1 --gpu-type h100 --gpus 1 \
    --moe-dispatcher alltoall --global-batch-size 8 --micro-batch-size 1
expect_out_has "fit: 16 layers do not" "memory-oom"

# Bridge 0.5.1 names mock data differently.
run smoke --bridge-version 0.5.1 "$ex/llama3.2-1b.json"
expect_status "0.5.1" 0
expect_out_has "0.5.1: mock data" "	--dataset llm-pretrain-mock"

# A smoke job's batch is not for speed: --strict takes no pp-bubble from
# it (PP 16, DP 32 of a batch of 32: one micro-batch a step).
run smoke "$ex/deepseek-v3.json" -q --strict
expect_status "smoke --strict: no pp-bubble" 0

# -q: no summary.
run smoke -q "$ex/llama3.2-1b.json"
expect_status "-q" 0
expect_no_stderr "-q"

# -o: written atomically, kept without --force, replaced with it.
cd "$tmp" || exit 1
run smoke "$ex/llama3.2-1b.json" -o smoke.sbatch
expect_status "-o" 0
expect_no_stdout "-o"
expect_err_has "-o" "mbsbatch: smoke: wrote smoke.sbatch (1 node, 4 GPUs)"
if grep -q 'train.train_iters=3' smoke.sbatch; then ok; else bad "-o: not the smoke script"; fi
cp smoke.sbatch smoke.orig
run smoke -q "$ex/deepseek-v3.json" -o smoke.sbatch
expect_status "-o existing" 1
expect_err_prefix "-o existing" "mbsbatch: 'smoke.sbatch': file exists; kept as it is"
if cmp -s smoke.sbatch smoke.orig; then ok; else bad "-o changed an existing file"; fi
run smoke "$ex/deepseek-v3.json" -o smoke.sbatch --force
expect_status "--force" 0
if grep -q 'olmoe_7b_pretrain_config' smoke.sbatch; then ok; else bad "--force did not replace"; fi
run smoke "$ex/llama3.2-1b.json" --force
expect_status "--force without -o" 2
expect_err "--force without -o" "mbsbatch: smoke: --force goes with -o FILE"
# -o - is standard output: no file named "-".
run smoke -q "$ex/llama3.2-1b.json"
cp "$tmp/out" stdout.sbatch
run smoke -q "$ex/llama3.2-1b.json" -o -
expect_status "-o -" 0
if [ ! -e ./- ]; then ok; else bad "-o - wrote a file named '-'"; fi
# The same script, but for its header's command line.
grep -v '^#   mbsbatch ' "$tmp/out" >stdout.dash
grep -v '^#   mbsbatch ' stdout.sbatch >stdout.plain
if [ -s stdout.plain ] && cmp -s stdout.dash stdout.plain; then ok; else bad "-o - did not write the smoke script to stdout"; fi

# submit --smoke: the smoke script, queued as submit would.
run submit --smoke "$ex/qwen3-30b-a3b.json" --dry-run
expect_status "submit --smoke" 0
expect_out_has "submit --smoke: the smoke job" "#SBATCH --job-name=qwen3-30b-a3b-smoke"
expect_out_has "submit --smoke: 3 iterations" "	train.train_iters=3"
expect_out_has "submit --smoke: regenerate line" "#   mbsbatch gen --smoke $ex/qwen3-30b-a3b.json"
run submit --smoke --chain 2 "$ex/qwen3-30b-a3b.json" --dry-run
expect_status "submit --smoke --chain" 2
expect_err "submit --smoke --chain" "mbsbatch: submit: --smoke writes and submits one smoke job: not with --chain"
run submit --smoke --script "$tmp/dense.sbatch" --dry-run
expect_status "submit --smoke --script" 2
expect_err "submit --smoke --script" "mbsbatch: submit: --smoke writes and submits one smoke job: not with --script"

# What it refuses.
run smoke --template command --command true --gpus 8
expect_status "command template" 2
expect_err "command template" "mbsbatch: smoke: the command template runs a program of yours, not Megatron: a smoke job needs the megatron-bridge or the megatron-lm template"
# A job plan refuses has no smoke job: exit 3 with the job's finding, as
# gen refuses it, for smoke, gen --smoke and submit --smoke, and nothing
# written; also for errors the smoke job's own model, GPUs or batch would
# not meet (its small model splits, 7 GPUs are no world of the job).
cd "$tmp" || exit 1
for cmd in "smoke" "gen --smoke"; do
	run $cmd --model llama3-8b --tp 3 -o refused.sbatch
	expect_status "$cmd: the job fails plan" 3
	expect_err_prefix "$cmd: the job fails plan" "mbsbatch: ${cmd%% *}: the job: heads-divisibility: 32 attention heads do not divide evenly over TP 3; no script written"
	if [ ! -e refused.sbatch ]; then ok; else bad "$cmd: a refused job's smoke script was written"; fi
done
run smoke --model deepseek-v3 --tp 2 --pp 16 --ep 64 --sp
expect_status "the job's split" 3
expect_err_prefix "the job's split" "mbsbatch: smoke: the job: layers-divisibility: 61 layers do not split evenly"
run smoke --model llama3-8b --tp 2 --gpus 7
expect_status "the job's world" 3
expect_err_prefix "the job's world" "mbsbatch: smoke: the job: world-divisibility: world size 7"
run submit --smoke --model llama3-8b --tp 3 --dry-run
expect_status "submit --smoke: the job fails plan" 3
expect_no_stdout "submit --smoke: the job fails plan"
# --strict counts the job's warnings, as gen --strict does.
run smoke -q "$ex/glm-4.5.json" --strict
expect_status "--strict: the job's memory-oom" 3
expect_err_prefix "--strict: the job's memory-oom" "mbsbatch: smoke: the job: memory-oom:"
cd - >/dev/null || exit 1
# A job plan takes whose layout no small model holds: no multiple of 3
# heads divides the small model's hidden size of 2048.
run smoke --num-layers 4 --hidden-size 3072 --num-attention-heads 24 --tp 3 --sp --template megatron-lm --seq-length 3072 --vocab-size 32000 --ffn-hidden-size 8192
expect_status "tp 3" 3
expect_err_prefix "tp 3" "mbsbatch: smoke: no smoke job of this layout: the small model's hidden size cannot hold a multiple of TP attention heads"
run smoke --json "$ex/llama3.2-1b.json"
expect_status "--json" 2
run smoke "$ex/llama3.2-1b.json" "$ex/qwen3-30b-a3b.json"
expect_status "two job files" 2
run smoke "$tmp/nonexistent.json"
expect_status "no job file" 1
expect_err_prefix "no job file" "mbsbatch: job file '$tmp/nonexistent.json': "

# A fine-tuning job (LoRA on Llama 3 70B): its smoke job pretrains the
# small model, so it needs no real checkpoint (the job's is not even
# there) and loads none; the summary says so.
run smoke --recipe llama3_70b_peft_config --pretrained-checkpoint "$tmp/no-such-ckpt"
expect_status "lora" 0
expect_out_has "lora: the small recipe" "	--recipe vanilla_gpt_pretrain_config"
expect_out_has "lora: mock data" "	--dataset mock"
expect_out_lacks "lora: no pretrained checkpoint" "pretrained_checkpoint"
expect_out_has "lora: the job's TP" "	model.tensor_model_parallel_size=8"
expect_err_has "lora: summary" "mbsbatch: smoke: fine-tuning recipe llama3_70b_peft_config -> pretraining from random weights: no pretrained checkpoint, no adapters, not the recipe's data"
# Without the checkpoint the job itself is refused, as gen refuses it.
run smoke --recipe llama3_70b_peft_config
expect_status "lora without a checkpoint" 2
expect_err_prefix "lora without a checkpoint" "mbsbatch: pretrained-checkpoint: recipe 'llama3_70b_peft_config'"

finish
