# gen.sh: mbsbatch gen, black box: the directives and overrides a script
# carries, the examples regenerating to the same bytes, templates, -o
# and --force, and values that must reach the script quoted.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need bash "to check the generated scripts' syntax"

# syntax FILE DESC: bash parses the script.
syntax() {
	if bash -n "$1" 2>"$tmp/syntax"; then ok; else bad "$2: bash -n: $(cat "$tmp/syntax")"; fi
}

# The issue's acceptance case (MoE with TP 2 needs SP).
run gen --tp 2 --ep 8 --sp --gpus 16 --recipe qwen3_30b_a3b_pretrain_config
expect_status "acceptance" 0
expect_out_has "acceptance" "#SBATCH --nodes=2"
expect_out_has "acceptance" "#SBATCH --ntasks-per-node=8"
expect_out_has "acceptance" "#SBATCH --gpus-per-node=8"
expect_out_has "acceptance" "#SBATCH --job-name=qwen3-30b-a3b"
expect_out_has "acceptance" "export CUDA_DEVICE_MAX_CONNECTIONS=1"
# Bridge 0.6.0 has no layernorm-margin rule: the recipe's, or none.
expect_out_lacks "acceptance: no margin on 0.6.0" "LAYERNORM_SM_MARGIN"
expect_out_has "acceptance: the recipe's env" "export NCCL_NVLS_ENABLE=0"
expect_out_has "acceptance" "	model.expert_tensor_parallel_size=1"
expect_out_has "acceptance" "	model.expert_model_parallel_size=8"
expect_out_has "acceptance" "	model.tensor_model_parallel_size=2"
expect_out_has "acceptance" "	--recipe qwen3_30b_a3b_pretrain_config"
expect_out_has "acceptance: regenerate line" "#   mbsbatch gen --tp 2 --ep 8 --sp --gpus 16 --recipe qwen3_30b_a3b_pretrain_config"
cp "$tmp/out" "$tmp/accept.sbatch"
syntax "$tmp/accept.sbatch" "acceptance"

# Every example regenerates to the bytes checked in.
for f in "$top_srcdir"/examples/*.json; do
	name=$(basename "$f" .json)
	(cd "$top_srcdir" && "$MBSBATCH" gen "examples/$name.json") >"$tmp/out" 2>"$tmp/err"
	status=$?
	expect_status "example $name" 0
	if cmp -s "$tmp/out" "$top_srcdir/examples/$name.sbatch"; then ok; else
		bad "example $name differs from examples/$name.sbatch ('make update-examples' after a template change)"
		diff "$top_srcdir/examples/$name.sbatch" "$tmp/out" | head -n 20
	fi
	syntax "$top_srcdir/examples/$name.sbatch" "example $name"
done
# Output is deterministic.
run gen --tp 2 --ep 8 --sp --gpus 16 --recipe qwen3_30b_a3b_pretrain_config
if cmp -s "$tmp/out" "$tmp/accept.sbatch"; then ok; else bad "gen is not deterministic"; fi

# Dense models get no expert sizes; MoE ones always get ETP.
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config
expect_out_lacks "dense: no EP override" "expert_model_parallel_size"
run gen --model deepseek-v2 --pp 4 --ep 32 --vpp 3 --recipe deepseek_v2_pretrain_config
expect_out_has "MoE preset: ETP" "model.expert_tensor_parallel_size=1"
expect_out_has "VPP" "model.virtual_pipeline_model_parallel_size=3"
expect_out_has "PP with VPP: overlapped P2P" "comm_overlap.overlap_p2p_comm=true"
# Bridge sets the P2P chunk size for a few recipes only.
expect_out_lacks "PP: no chunk size" "NCCL_P2P_NET_CHUNKSIZE"
# Megatron-LM and Bridge 0.5.1: the layernorm margin rule.
run gen --tp 2 --ep 8 --sp --gpus 16 --recipe qwen3_30b_a3b_pretrain_config --bridge-version 0.5.1 \
    --dataset mock --seq-length 2048
expect_out_has "0.5.1 margin" "export NVTE_FWD_LAYERNORM_SM_MARGIN=20"
expect_out_has "0.5.1 margin" "export NVTE_BWD_LAYERNORM_SM_MARGIN=20"
expect_out_has "0.5.1: its mock dataset" "	--dataset llm-pretrain-mock"
expect_out_has "0.5.1: its sequence key" "	dataset.sequence_length=2048"
expect_out_lacks "0.5.1: no seq_length key" "dataset.seq_length"
run gen --tp 2 --ep 8 --sp --gpus 16 --recipe qwen3_30b_a3b_pretrain_config --bridge-version 0.5.1 --moe-dispatcher alltoall
expect_out_has "0.5.1 margin, alltoall" "export NVTE_FWD_LAYERNORM_SM_MARGIN=16"

# --cuda-graphs reaches the trainer under each version's name, unset
# writes nothing (the recipe's own, Megatron's none); a full-iteration
# graph turns the loss NaN check off, as Bridge and Megatron-LM assert.
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config
expect_out_lacks "cuda graphs unset: the recipe's" "cuda_graph_impl"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --cuda-graphs transformer_engine
expect_out_has "cuda graphs te" "	model.cuda_graph_impl=transformer_engine"
expect_out_lacks "cuda graphs te: NaN check kept" "check_for_nan_in_loss"
expect_out_has "cuda graphs need TE's RNG tracker" "	model.use_te_rng_tracker=true"
expect_out_has "cuda graphs need TE's RNG tracker" "	rng.te_rng_tracker=true"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --cuda-graphs none
expect_out_has "cuda graphs none: turns a recipe's off" "	model.cuda_graph_impl=none"
expect_out_lacks "cuda graphs none: no RNG tracker" "te_rng_tracker"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --bridge-version main --cuda-graphs transformer_engine
expect_out_has "main: nested field" "	model.transformer.cuda_graph_impl=transformer_engine"
expect_out_has "main: nested RNG tracker" "	model.transformer.use_te_rng_tracker=true"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --cuda-graphs full_iteration --recompute full
expect_status "full iteration with full recompute" 0
expect_out_has "cuda graphs full iteration" "	model.cuda_graph_impl=full_iteration"
expect_out_has "full iteration: NaN check off" "	rerun_state_machine.check_for_nan_in_loss=false"
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096
expect_out_lacks "megatron-lm cuda graphs unset" "--cuda-graph-impl"
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096 --cuda-graphs none
expect_out_lacks "megatron-lm cuda graphs none: its default" "--cuda-graph-impl"
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096 --cuda-graphs full_iteration
expect_out_has "megatron-lm cuda graphs" "	--cuda-graph-impl"
expect_out_has "megatron-lm cuda graphs" "	full_iteration"
expect_out_has "megatron-lm full iteration: NaN check off" "	--no-check-for-nan-in-loss-and-grad"
# Bridge 0.5.1 trains with local graphs; 0.6.0 and main refuse them.
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --bridge-version 0.5.1 --cuda-graphs local
expect_out_has "0.5.1 local graphs" "	model.cuda_graph_impl=local"
for v in 0.6.0 main; do
	run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --bridge-version $v --cuda-graphs local
	expect_status "$v refuses local graphs" 3
	expect_err_prefix "$v refuses local graphs" "mbsbatch: gen: cuda-graphs-local-bridge: "
done
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096 --cuda-graphs local
expect_status "megatron-lm local graphs" 0
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --cuda-graphs transformer_engine --recompute full
expect_status "te graphs with full recompute" 3
expect_err_prefix "te graphs with full recompute" "mbsbatch: gen: cuda-graphs-full-recompute: full recompute under transformer_engine CUDA graphs"
# The job key takes the same words; the option overrides it.
printf '{"model": "llama3-8b", "tp": 2, "recipe": "llama3_8b_pretrain_config", "cuda_graphs": "transformer_engine"}\n' >"$tmp/graphs.json"
run gen "$tmp/graphs.json"
expect_out_has "job key cuda_graphs" "	model.cuda_graph_impl=transformer_engine"
run gen "$tmp/graphs.json" --cuda-graphs full_iteration
expect_out_has "--cuda-graphs over the job key" "	model.cuda_graph_impl=full_iteration"
run gen --model llama3-8b --cuda-graphs cudnn
expect_status "bad --cuda-graphs" 2
expect_err "bad --cuda-graphs" "mbsbatch: --cuda-graphs: 'cudnn' is not a CUDA graph implementation (none, local, transformer_engine or full_iteration)"

# --recompute reaches the trainer as the estimate assumed it.
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config
expect_out_lacks "recompute unset: the recipe's" "recompute_granularity"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --recompute full
expect_out_has "recompute full" "model.recompute_granularity=full"
expect_out_has "recompute full" "model.recompute_method=uniform"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --recompute none
expect_out_has "recompute none" "model.recompute_granularity=null"
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096 --recompute selective
expect_out_has "megatron-lm recompute selective" "	--recompute-granularity"
expect_out_has "megatron-lm recompute selective" "	selective"

# Dtypes reach the trainer as the estimate assumed them.  Megatron-LM
# trains in fp32 without a flag, so --bf16 is always written.
expect_out_has "megatron-lm bf16 by default" "	--bf16"
expect_out_lacks "megatron-lm fp32 grads by default" "--grad-reduce-in-bf16"
expect_out_lacks "megatron-lm fp32 moments by default" "--use-precision-aware-optimizer"
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096 \
    --params-dtype fp16
expect_out_has "megatron-lm fp16" "	--fp16"
expect_out_lacks "megatron-lm fp16 not bf16" "--bf16"
# fp16 reduces in fp16 unless told: the fp32 default is written.
expect_out_has "megatron-lm fp16: grads in fp32" "	--accumulate-allreduce-grads-in-fp32"
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096 \
    --params-dtype fp16 --grads-dtype bf16
expect_status "bf16 grads of fp16 weights" 2
expect_err "bf16 grads of fp16 weights" "mbsbatch: --grads-dtype: bf16 gradients need bf16 weights (--params-dtype bf16)"
run gen --template megatron-lm --model llama3-8b --tp 2 --seq-length 4096 \
    --grads-dtype bf16 --optimizer-dtype bf16
expect_out_has "megatron-lm grads bf16" "	--grad-reduce-in-bf16"
expect_out_has "megatron-lm moments" "	--use-precision-aware-optimizer"
# One argument a line: each flag followed by its value.
for flag in --exp-avg-dtype --exp-avg-sq-dtype; do
	got=$(grep -A1 -x "	$flag" "$tmp/out" | sed -n 2p)
	if [ "$got" = "	bf16" ]; then ok; else bad "megatron-lm $flag: '$got'"; fi
done
run gen --template megatron-lm --model llama3-8b --seq-length 4096 --params-dtype fp32
expect_out_lacks "megatron-lm fp32: no bf16" "--bf16"
expect_out_lacks "megatron-lm fp32: no fp16" "--fp16"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config
expect_out_lacks "bridge dtypes unset: the recipe's" "mixed_precision"
expect_out_lacks "bridge dtypes unset: the recipe's" "grad_reduce_in_fp32"
expect_out_lacks "bridge dtypes unset: the recipe's" "exp_avg_dtype"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --params-dtype bf16 --grads-dtype bf16 --optimizer-dtype fp16
# No preset reduces bf16 in bf16: every field, as setup() would copy.
expect_out_has "bridge params" "mixed_precision=null"
expect_out_has "bridge params" "model.bf16=true"
expect_out_has "bridge params" "model.params_dtype=bf16"
expect_out_has "bridge grads" "ddp.grad_reduce_in_fp32=false"
expect_out_has "bridge moments" "optimizer.use_precision_aware_optimizer=true"
expect_out_has "bridge moments" "optimizer.exp_avg_dtype=fp16"
expect_out_has "bridge moments" "optimizer.exp_avg_sq_dtype=fp16"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --params-dtype fp16 --grads-dtype fp16
expect_out_has "bridge fp16 preset" "mixed_precision=fp16_mixed"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --params-dtype fp16
expect_out_has "bridge fp16, fp32 grads: no preset" "mixed_precision=null"
expect_out_has "bridge fp16, fp32 grads: no preset" "ddp.grad_reduce_in_fp32=true"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --fp8 tensorwise
expect_out_has "bridge fp8 preset" "mixed_precision=bf16_with_fp8_current_scaling_mixed"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --fp8 mxfp8 --no-fp8-param-gather
expect_out_has "bridge mxfp8 without gather" "mixed_precision=null"
expect_out_has "bridge mxfp8 without gather" "model.fp8=e4m3"
expect_out_has "bridge mxfp8 without gather" "model.fp8_recipe=mxfp8"
expect_out_has "bridge mxfp8 without gather" "ddp.fp8_param_gather=false"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --fp8 nvfp4 --gpu-type b200
expect_out_has "bridge nvfp4 preset" "mixed_precision=bf16_with_nvfp4_mixed"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --fp8 nvfp4 --params-dtype fp16 --gpu-type b200
expect_out_has "bridge nvfp4 fp16: no preset" "mixed_precision=null"
expect_out_has "bridge nvfp4 fp16: no preset" "model.fp4=e2m1"
expect_out_has "bridge nvfp4 fp16: no preset" "model.fp4_recipe=nvfp4"
expect_out_has "bridge nvfp4 fp16: no preset" "ddp.fp4_param_gather=true"
expect_out_lacks "bridge nvfp4 fp16: no preset" "model.fp8=hybrid"
run gen --template megatron-lm --model llama3-8b --seq-length 4096 --fp8 nvfp4 --gpu-type gb200
expect_out_has "megatron-lm nvfp4" "--fp4-format"
expect_out_has "megatron-lm nvfp4" "--fp4-param-gather"
expect_out_lacks "megatron-lm nvfp4" "--fp8-format"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --fp8 nvfp4 --gpu-type h100
expect_status "nvfp4 on h100" 3
expect_err_prefix "nvfp4 on h100" "mbsbatch: gen: nvfp4-needs-blackwell: NVFP4 (--fp8 nvfp4) needs a Blackwell GPU (compute capability 10 or later), not compute capability 9"
# deepseek_v3's own bf16 moments: fp32 turns the precision-aware
# optimizer off, with every dtype it checks.
run gen --recipe deepseek_v3_pretrain_config --optimizer-dtype fp32 \
    --num-layers-in-first-pipeline-stage 3 --num-layers-in-last-pipeline-stage 2
expect_out_has "deepseek fp32 moments" "optimizer.use_precision_aware_optimizer=false"
expect_out_has "deepseek fp32 moments" "optimizer.main_grads_dtype=fp32"
# Its own precision (bf16 weights, bf16 gradients) asked for again: kept.
run gen --recipe deepseek_v3_pretrain_config --params-dtype bf16 --grads-dtype bf16 \
    --num-layers-in-first-pipeline-stage 3 --num-layers-in-last-pipeline-stage 2
expect_out_lacks "deepseek's own precision kept" "mixed_precision"
run gen --model llama3-8b --tp 2 --recipe llama3_8b_pretrain_config --optimizer-dtype bf8
expect_status "bad optimizer dtype" 2
expect_err "bad optimizer dtype" "mbsbatch: --optimizer-dtype: 'bf8' is not an optimizer-state dtype (fp32, bf16 or fp16)"

# pretrain_gpt.py stops at start without a length and a learning rate:
# Bridge's recipe defaults, said on stderr, unless the job gives them.
# (--output in this directory: no note about logs/.)
run gen --template megatron-lm --model llama3-8b --seq-length 4096 --dataset mock --output x-%j.out
expect_status "megatron-lm defaults" 0
expect_out_has "megatron-lm defaults: length" "	1168251"
expect_out_has "megatron-lm defaults: lr" "	--min-lr"
expect_err "megatron-lm defaults: said" "mbsbatch: gen: note: pretrain_gpt.py needs a length and a learning rate: written as Megatron-Bridge's recipe defaults (--train-iters 1168251, --lr 3e-4, --min-lr 3e-5)"
run gen --template megatron-lm --model llama3-8b --seq-length 4096 --dataset mock \
    --override=--train-samples=1000 --lr 1e-4 --output x-%j.out
expect_no_stderr "megatron-lm: given"
expect_out_lacks "megatron-lm: samples given, no iterations" "--train-iters"
expect_out_lacks "megatron-lm: lr given" "--min-lr"

# The other templates.
run gen --template megatron-lm --model llama3-8b --tp 2 --pp 2 --vpp 4 --seq-length 8192 --sp --cp 2
expect_status "megatron-lm" 0
expect_out_has "megatron-lm" "	--tensor-model-parallel-size"
expect_out_has "megatron-lm" "	--num-virtual-stages-per-pipeline-rank"
expect_out_has "megatron-lm" "	--sequence-parallel"
expect_out_has "megatron-lm" "	--group-query-attention"
expect_out_has "megatron-lm" "	pretrain_gpt.py"
cp "$tmp/out" "$tmp/mlm.sbatch"
syntax "$tmp/mlm.sbatch" "megatron-lm"
run gen --template megatron-lm --tp 2
expect_status "megatron-lm without a model" 2
expect_err_prefix "megatron-lm without a model" "mbsbatch: gen: template 'megatron-lm' needs the model's layers"
run gen --template command --command 'echo "rank $RANK"' --gpus 16
expect_status "command" 0
expect_out_has "command" "prog=(bash -c 'echo \"rank \$RANK\"' mbsbatch-command)"
cp "$tmp/out" "$tmp/cmd.sbatch"
syntax "$tmp/cmd.sbatch" "command"
run gen --template command
expect_status "command without --command" 2
expect_err "command without --command" "mbsbatch: gen: template 'command' needs launch.command: give --command CMD"
run gen
expect_status "bridge without --recipe" 2
expect_err "bridge without --recipe" "mbsbatch: gen: template 'megatron-bridge' needs launch.recipe: give --recipe NAME"

# torchrun: one launcher per node.
run gen --recipe llama32_1b_pretrain_config --tp 2 --gpus 16 --launcher torchrun
expect_out_has "torchrun" "torchrun --nnodes=2 --nproc-per-node=8"
cp "$tmp/out" "$tmp/torchrun.sbatch"
syntax "$tmp/torchrun.sbatch" "torchrun"
run gen --recipe llama32_1b_pretrain_config --launcher mpirun
expect_err_prefix "bad launcher" "mbsbatch: --launcher: 'mpirun' is not a launcher"

# Slurm options and GPU-type defaults.
run gen --recipe llama32_1b_pretrain_config --partition batch --account proj --qos high --time 1-12:00:00 \
    --constraint 'h100&ib' --reservation res1 --dependency afterok:12 --mem 500G \
    --job-name 'my run' --exclusive
expect_status "slurm options" 0
for l in "--partition=batch" "--account=proj" "--qos=high" "--time=1-12:00:00" \
    '--constraint=h100&ib' "--reservation=res1" "--dependency=afterok:12" \
    "--mem=500G" '--job-name="my run"' "--exclusive"; do
	expect_out_has "slurm options" "#SBATCH $l"
done
run gen --recipe llama32_1b_pretrain_config --gpu-type h100
expect_out_has "h100 defaults" "#SBATCH --exclusive"
expect_out_has "h100 defaults" "#SBATCH --mem=0"
run gen --recipe llama32_1b_pretrain_config --gpu-type gb200 --tp 4 --gpus 64
expect_out_has "gb200 segment" "#SBATCH --segment=16"
expect_out_has "gb200 env" "export NCCL_NET_GDR_C2C=1"
expect_out_has "gb200 connections" "export CUDA_DEVICE_MAX_CONNECTIONS=32"
run gen --recipe llama32_1b_pretrain_config --gpu-type gb200 --gpus 128
expect_out_has "gb200 segment of 32 nodes" "#SBATCH --segment=16"
run gen --recipe llama32_1b_pretrain_config --time 25:99:99:99
expect_status "bad time" 2
expect_err_prefix "bad time" "mbsbatch: --time: '25:99:99:99' is not a Slurm time"
run gen --recipe llama32_1b_pretrain_config --partition 'a b'
expect_status "bad partition" 2

# Overrides of the launch environment.
run gen --recipe llama32_1b_pretrain_config --tp 4 --cuda-device-max-connections 8 --layernorm-sm-margin 0 \
    --env NCCL_DEBUG=INFO --env 'MSG=hello world'
expect_out_has "env override" "export CUDA_DEVICE_MAX_CONNECTIONS=8"
expect_out_has "env override" "export NVTE_BWD_LAYERNORM_SM_MARGIN=0"
expect_out_has "env override" "export NCCL_DEBUG=INFO"
expect_out_has "env override" "export MSG='hello world'"
run gen --recipe llama32_1b_pretrain_config --env '1BAD=x'
expect_status "bad env name" 2
run gen --recipe llama32_1b_pretrain_config --env NOVALUE
expect_err "env without =" "mbsbatch: --env: 'NOVALUE' is not NAME=VALUE"

# Containers: the launch environment reaches inside (--container-env).
run gen --recipe llama32_1b_pretrain_config --tp 2 --container-image 'nvcr.io#nvidia/nemo:25.09' \
    --container-mounts /data:/data --container-workdir /work --env A=1
expect_out_has "container" "	--container-image='nvcr.io#nvidia/nemo:25.09'"
expect_out_has "container" "	--container-mounts=/data:/data"
expect_out_has "container" "	--container-workdir=/work"
expect_out_has "container" "	--container-env=CUDA_DEVICE_MAX_CONNECTIONS,TORCH_NCCL_HIGH_PRIORITY,NCCL_NVLS_ENABLE,A,MASTER_ADDR,MASTER_PORT"
cp "$tmp/out" "$tmp/container.sbatch"
syntax "$tmp/container.sbatch" "container"

# Requeue: the batch shell traps the signal, bounded restarts.
run gen --recipe llama32_1b_pretrain_config --requeue --signal USR2@90 --max-restarts 2
expect_out_has "requeue" "#SBATCH --signal=B:USR2@90"
expect_out_has "requeue" "#SBATCH --requeue"
expect_out_has "requeue" "trap on_signal USR2"
expect_out_has "requeue" "	if [ \"\$restarts\" -ge 2 ]; then"
expect_out_has "requeue: separator" '	sep="==== mbsbatch: restart $SLURM_RESTART_COUNT of job $SLURM_JOB_ID (SLURM_RESTART_COUNT=$SLURM_RESTART_COUNT, at most 2), $(date '\''+%F %T'\'') ===="'
cp "$tmp/out" "$tmp/requeue.sbatch"
syntax "$tmp/requeue.sbatch" "requeue"
run gen --recipe llama32_1b_pretrain_config --requeue
expect_out_has "requeue default signal" "#SBATCH --signal=B:TERM@60"
expect_out_has "requeue default signal: Bridge saves at it" "	train.exit_signal=15"

# --signal is what sbatch takes (signals_mapping[] of Slurm's
# proc_args.c; tests/slurm/signals.sh holds it against sbatch itself):
# no XFSZ in any release; ABRT, TTIN, TTOU, ALRM in all; any case, SIG
# or not; a number; B: and R: with or without the colon.
for sig in XFSZ@60 WINCH 0 USR2@x USR2@65536 FOO 'B:B:TERM' 65; do
	run gen --recipe llama32_1b_pretrain_config --signal "$sig"
	expect_status "--signal $sig refused" 2
	expect_err_prefix "--signal $sig refused" "mbsbatch: --signal: '$sig' "
	expect_no_stdout "--signal $sig refused"
done
for sig in ABRT@60 TTIN TTOU@5 ALRM usr2@90 sigusr1 'SIGTERM @ 30' 10@30 \
    b:USR2@9 RB:USR1 r:term@0 USR2@; do
	run gen --recipe llama32_1b_pretrain_config --signal "$sig"
	expect_status "--signal $sig" 0
	expect_out_has "--signal $sig" "#SBATCH --signal="
done
run gen --recipe llama32_1b_pretrain_config --signal 'SIGTERM @ 30'
expect_out_has "--signal with spaces, quoted for sbatch" '#SBATCH --signal="SIGTERM @ 30"'
# With --requeue: a name by its name, a number by its number, the
# seconds spelled out; the trap and Bridge's exit signal agree.
run gen --recipe llama32_1b_pretrain_config --requeue --signal 10@30
expect_out_has "requeue, a number" "#SBATCH --signal=B:10@30"
expect_out_has "requeue, a number: trap" "trap on_signal USR1"
expect_out_has "requeue, a number: Bridge" "	train.exit_signal=10"
run gen --recipe llama32_1b_pretrain_config --requeue --signal 'r:sigusr2'
expect_out_has "requeue, R and lower case" "#SBATCH --signal=RB:USR2@60"
expect_out_has "requeue, R and lower case: trap" "trap on_signal USR2"
expect_out_has "requeue, R and lower case: Bridge" "	train.exit_signal=12"
# Megatron-LM's --exit-signal is a name of Python's signal.Signals.
mlm="--template megatron-lm --model llama3-8b --seq-length 8192 --gpus 8 --checkpoint-dir /c --requeue"
run gen $mlm --signal 10@30
expect_out_has "requeue, Megatron-LM, a number" "	SIGUSR1"
run gen $mlm --signal 17@30
expect_out_has "requeue, Megatron-LM, 17" "	SIGCHLD"
expect_out_has "requeue, Megatron-LM, 17: trap" "trap on_signal 17"

# CHLD and PIPE are names from Slurm 23.11 on: a script from gen may go
# to any cluster (22.05 on), unless the profile's api_version says the
# cluster is newer; a number works on every release.
for sig in CHLD@60 B:pipe; do
	run gen -q --recipe llama32_1b_pretrain_config --signal "$sig"
	expect_status "--signal $sig, any release" 2
	expect_err_prefix "--signal $sig, any release" "mbsbatch: gen: --signal: '$sig': sbatch of Slurm 22.05 knows no signal "
	expect_no_stdout "--signal $sig, any release"
done
if grep -qF "hint: give its number, 13, which every release takes; or, for a cluster of Slurm 23.11 or later, its profile's api_version v0.0.40 or later" "$tmp/err"; then ok; else bad "--signal B:pipe: hint"; fi
run gen --recipe llama32_1b_pretrain_config --signal 17@60
expect_out_has "--signal 17" "#SBATCH --signal=17@60"
printf '{"clusters": {"new": {"api_version": "v0.0.41"}, "old": {"api_version": "v0.0.38"}}}\n' >"$tmp/signals.json"
run gen --config "$tmp/signals.json" --cluster new --recipe llama32_1b_pretrain_config --signal CHLD@60
expect_status "--signal CHLD, a 24.05 profile" 0
expect_out_has "--signal CHLD, a 24.05 profile" "#SBATCH --signal=CHLD@60"
run gen --config "$tmp/signals.json" --cluster old --recipe llama32_1b_pretrain_config --signal CHLD@60
expect_status "--signal CHLD, a 22.05 profile" 2
run gen --config "$tmp/signals.json" --cluster new --recipe llama32_1b_pretrain_config --requeue --signal CHLD@60
expect_out_has "requeue CHLD: the name on a new cluster" "#SBATCH --signal=B:CHLD@60"
expect_out_has "requeue CHLD: the trap's number, which every scancel takes" "trap on_signal 17"

# Hostile values: refused, or quoted so they arrive unchanged.
evil='a$(touch PWNED)`touch PWNED2`;"x" '\''y'\'' # z\'
run gen --recipe "$evil"
expect_status "hostile recipe" 2
expect_err_prefix "hostile recipe" "mbsbatch: recipe '$evil': not a recipe of Megatron-Bridge 0.6.0"
run gen --recipe llama32_1b_pretrain_config --job-name "$evil" --env "E=$evil" --override "k=$evil"
expect_status "hostile values" 0
cp "$tmp/out" "$tmp/evil.sbatch"
syntax "$tmp/evil.sbatch" "hostile values"
# Evaluate the prog=() array in bash: every value must come back intact.
sed -n '/^prog=(/,/^)/p' "$tmp/evil.sbatch" >"$tmp/prog.sh"
printf 'printf "%%s\\n" "${prog[@]}"\n' >>"$tmp/prog.sh"
(cd "$tmp" && bash "$tmp/prog.sh") >"$tmp/words"
if grep -qxF -- "k=$evil" "$tmp/words"; then ok; else bad "hostile override not delivered unchanged"; fi
if [ ! -e "$tmp/PWNED" ] && [ ! -e "$tmp/PWNED2" ]; then ok; else bad "a value was executed"; fi
sed -n '/^export E=/p' "$tmp/evil.sbatch" >"$tmp/env.sh"
printf 'printf "%%s\\n" "$E"\n' >>"$tmp/env.sh"
(cd "$tmp" && bash "$tmp/env.sh") >"$tmp/words"
if [ "$(cat "$tmp/words")" = "$evil" ]; then ok; else bad "hostile env value not delivered unchanged"; fi
nl='a
b'
run gen --recipe llama32_1b_pretrain_config --job-name "$nl"
expect_status "newline in a value" 2
expect_err "newline in a value" "mbsbatch: --job-name: value contains a newline"
run gen --recipe llama32_1b_pretrain_config --job-name 'my packjob'
expect_status "packjob" 2

# Templates: listing, paths, errors with positions.
run gen --list-templates
expect_status "list-templates" 0
for t in command megatron-bridge megatron-lm; do expect_out_has "list-templates" "$t "; done
printf '#!/bin/bash\n#SBATCH --nodes={{nodes}}\necho {{nope}}\n' >"$tmp/mine.sbatch"
run gen --template "$tmp/mine.sbatch"
expect_status "unknown variable" 2
expect_err "unknown variable" "mbsbatch: template '$tmp/mine.sbatch': line 3, column 6: unknown variable 'nope'"
printf '#!/bin/bash\n{{#slurm}}\n#SBATCH --{{option}}\n' >"$tmp/open.sbatch"
run gen --template "$tmp/open.sbatch"
expect_err "unbalanced" "mbsbatch: template '$tmp/open.sbatch': line 2, column 1: section 'slurm' is never closed"
run gen --template megatron-bridg --recipe llama32_1b_pretrain_config
expect_status "template typo" 2
expect_err_prefix "template typo" "mbsbatch: template 'megatron-bridg': no such template (did you mean 'megatron-bridge'?)"
mkdir -p "$XDG_CONFIG_HOME/mbsbatch/templates"
printf '#!/bin/bash\n#SBATCH --nodes={{nodes}}\necho {{job_name}} {{dp}}\n' >"$XDG_CONFIG_HOME/mbsbatch/templates/tiny.sbatch"
run gen --template tiny --tp 2 --gpus 8 --job-name t
expect_status "user template" 0
if [ "$(cat "$tmp/out")" = "$(printf '#!/bin/bash\n#SBATCH --nodes=1\necho t 4')" ]; then ok; else bad "user template output"; fi

# A template bomb: 16 sections nested over the same list write each line
# once per item at every level (4^16 lines here, gigabytes).  The script
# stops at Slurm's 4 MiB limit as it renders, an error of the template.
# Bounded in time and memory, so that without the limit this fails (but
# no ulimit -v under ASan, which reserves terabytes of address space).
limit=
command -v timeout >/dev/null 2>&1 && limit="timeout 120"
bomb() {
	(if [ -z "${ASAN_OPTIONS:-}" ]; then ulimit -v 1048576 2>/dev/null; fi
	exec $limit "$MBSBATCH" "$@") >"$tmp/out" 2>"$tmp/err" </dev/null
	status=$?
}
# nested BODY: 16 sections over exports around BODY.
nested() {
	printf '#!/bin/bash\n'
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do printf '{{#exports}}'; done
	printf '%s' "$1"
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do printf '{{/exports}}'; done
	printf '\n'
}
nested 'export {{name}}={{value}}
' >"$tmp/bomb.sbatch"
bomb gen --template "$tmp/bomb.sbatch" --gpus 8
expect_status "template bomb" 2
expect_no_stdout "template bomb"
expect_err_prefix "template bomb" "mbsbatch: template '$tmp/bomb.sbatch': line 2, column 1: rendered script larger than 4 MiB (Slurm's limit)"
bomb gen --template "$tmp/bomb.sbatch" --gpus 8 -o "$tmp/bomb.out"
expect_status "template bomb -o" 2
if [ ! -e "$tmp/bomb.out" ]; then ok; else bad "template bomb -o: wrote $tmp/bomb.out"; fi
# The same sections, empty: no output, but 4^16 rounds.
nested '' >"$tmp/silent.sbatch"
bomb gen --template "$tmp/silent.sbatch" --gpus 8
expect_status "silent template bomb" 2
expect_err_prefix "silent template bomb" "mbsbatch: template '$tmp/silent.sbatch': line 2, column 1: sections repeat too often"

# -o: atomic, kept without --force, replaced with it.
cd "$tmp" || exit 1
run gen --recipe llama32_1b_pretrain_config -o job.sbatch
expect_status "-o" 0
expect_no_stdout "-o"
if [ -d logs ]; then ok; else bad "-o did not create logs/"; fi
# To standard output: nothing made, and the note says which Slurm does
# not make logs/ itself (23.02 on do, as the job's user).
mkdir stdout && cd stdout || exit 1
run gen --recipe llama32_1b_pretrain_config
expect_status "stdout, no logs/" 0
if grep -qxF "mbsbatch: gen: note: 'logs/' does not exist here; Slurm before 23.02 will not create it (mkdir -p logs before sbatch)" "$tmp/err"; then
	ok
else
	bad "stdout, no logs/: no note"
fi
if [ ! -e logs ]; then ok; else bad "stdout: created logs/"; fi
cd "$tmp" || exit 1
cp job.sbatch job.orig
run gen --recipe llama3_8b_pretrain_config -o job.sbatch
expect_status "-o existing" 1
expect_err_prefix "-o existing" "mbsbatch: 'job.sbatch': file exists; kept as it is"
if cmp -s job.sbatch job.orig; then ok; else bad "-o changed an existing file"; fi
run gen --recipe llama3_8b_pretrain_config -o job.sbatch --force
expect_status "--force" 0
if grep -q -- '--recipe llama3_8b_pretrain_config' job.sbatch; then ok; else bad "--force did not replace"; fi
run gen --recipe llama32_1b_pretrain_config -o /nonexistent/dir/job.sbatch
expect_status "-o into a missing dir" 1
mkdir ro && chmod 555 ro
if [ "$(id -u)" -ne 0 ]; then
	run gen --recipe llama32_1b_pretrain_config -o ro/job.sbatch
	expect_status "-o into a read-only dir" 1
fi
if [ -z "$(ls -A ro)" ] && [ -z "$(ls -a . | grep '^\.job')" ]; then ok; else bad "a temporary file was left behind"; fi
run gen --recipe llama32_1b_pretrain_config --force
expect_err "--force without -o" "mbsbatch: gen: --force goes with -o FILE"
# -o - is standard output, as for most tools: no file named "-".
run gen --recipe llama32_1b_pretrain_config
cp "$tmp/out" stdout.sbatch
run gen --recipe llama32_1b_pretrain_config -o -
expect_status "-o -" 0
if [ ! -e ./- ]; then ok; else bad "-o - wrote a file named '-'"; fi
# The same script, but for its header's command line.
grep -v '^#   mbsbatch ' "$tmp/out" >stdout.dash
grep -v '^#   mbsbatch ' stdout.sbatch >stdout.plain
if [ -s stdout.plain ] && cmp -s stdout.dash stdout.plain; then ok; else bad "-o - did not write the script to stdout"; fi
run gen --recipe llama32_1b_pretrain_config -o - --force
expect_err "-o - --force" "mbsbatch: gen: --force goes with -o FILE"
run gen --recipe llama32_1b_pretrain_config -o ./-
expect_status "-o ./-" 0
if [ -s ./- ]; then ok; else bad "-o ./- did not write the file '-'"; fi
rm -f ./-
cd - >/dev/null || exit 1

# A preset over a recipe's model built without a Hugging Face config:
# its embeddings as the preset has them (vanilla_gpt ties; Llama 3 8B
# does not), and nothing where they agree (Llama 3.2 1B ties).
run gen --recipe vanilla_gpt_pretrain_config --model llama3-8b --seq-length 4096
expect_out_has "preset tie over the recipe's" "	model.share_embeddings_and_output_weights=false"
run gen --recipe vanilla_gpt_pretrain_config --model llama3.2-1b
expect_out_lacks "preset tie as the recipe's" "share_embeddings_and_output_weights"

# --num-experts 0, a dense model: Megatron-Core refuses num_moe_experts=0
# and wants None; a MoE recipe's model made dense loses its expert width
# and EP too (transformer_config.py).
run gen --recipe llama32_1b_pretrain_config --num-experts 0
expect_out_has "--num-experts 0: null" "	model.num_moe_experts=null"
expect_out_lacks "--num-experts 0: not 0" "num_moe_experts=0"
run gen --recipe olmoe_7b_pretrain_config --num-experts 0 --ep 1 --num-layers 16 --hidden-size 2048 --num-attention-heads 16
expect_out_has "dense OLMoE: no experts" "	model.num_moe_experts=null"
expect_out_has "dense OLMoE: no expert width" "	model.moe_ffn_hidden_size=null"
expect_out_has "dense OLMoE: EP 1" "	model.expert_model_parallel_size=1"

# An invalid layout writes nothing.
run gen --recipe llama32_1b_pretrain_config --sp
expect_status "invalid layout" 3
expect_no_stdout "invalid layout"
expect_err_prefix "invalid layout" "mbsbatch: gen: sp-needs-tp: sequence parallel needs TP > 1"
run gen --recipe llama32_1b_pretrain_config --pp 4 --strict
expect_status "strict" 3

# A newline can end a #SBATCH line or a shell word early: every value that
# reaches a script refuses it, with the option named.
nl='a
b'
for opt in job-name recipe dataset train-script command container-image \
    container-mounts container-workdir partition account qos \
    pretrained-checkpoint; do
	run gen --template command --command true --gpus 8 "--$opt" "$nl"
	expect_status "newline in --$opt" 2
	expect_err_prefix "newline in --$opt" "mbsbatch: --$opt: "
done
for v in "A=$nl" "k=$nl"; do
	run gen --template command --command true --gpus 8 --env "$v"
	expect_status "newline in --env" 2
	run gen --gpus 8 --recipe llama32_1b_pretrain_config --override "$v"
	expect_status "newline in --override" 2
done

# --fsdp: Megatron-FSDP's flags and overrides on both templates; the job
# keys take the same words; a sharding without FSDP is a usage error; a
# 1 for CUDA_DEVICE_MAX_CONNECTIONS, which Megatron-FSDP refuses, is an
# error; the TP rule's 1 on an H100 is not set with it.
run gen --model llama3-8b --tp 2 --sp --recipe llama3_8b_pretrain_config --gpu-type h100 --fsdp
expect_status "fsdp" 0
expect_out_has "fsdp: bridge" "	ddp.use_megatron_fsdp=true"
expect_out_has "fsdp: default sharding" "	ddp.data_parallel_sharding_strategy=optim_grads_params"
expect_out_has "fsdp: its checkpoint format" "	checkpoint.ckpt_format=fsdp_dtensor"
expect_out_lacks "fsdp: no 1 connection" "export CUDA_DEVICE_MAX_CONNECTIONS=1"
run gen --model llama3-8b --tp 2 --sp --recipe llama3_8b_pretrain_config --gpu-type h100
expect_out_has "no fsdp: the TP rule" "export CUDA_DEVICE_MAX_CONNECTIONS=1"
expect_out_lacks "no fsdp: no FSDP" "use_megatron_fsdp"
run gen --template megatron-lm --model llama3-8b --seq-length 4096 --fsdp --fsdp-sharding optim
expect_out_has "megatron-lm fsdp" "	--use-megatron-fsdp"
expect_out_has "megatron-lm fsdp sharding" "	--data-parallel-sharding-strategy"
expect_out_has "megatron-lm fsdp sharding" "	optim"
expect_out_has "megatron-lm fsdp format" "	fsdp_dtensor"
expect_out_has "megatron-lm fsdp: the distributed optimizer" "	--use-distributed-optimizer"
printf '{"model": "llama3-8b", "seq_length": 4096, "recipe": "llama3_8b_pretrain_config", "fsdp": true, "fsdp_sharding": "optim_grads"}\n' >"$tmp/fsdp.json"
run gen "$tmp/fsdp.json"
expect_status "fsdp job keys" 0
expect_out_has "fsdp job keys" "	ddp.data_parallel_sharding_strategy=optim_grads"
run gen "$tmp/fsdp.json" --no-fsdp
expect_status "fsdp_sharding without fsdp" 2
expect_err "fsdp_sharding without fsdp" "mbsbatch: --fsdp-sharding: a sharding of Megatron-FSDP needs --fsdp (job key 'fsdp')"
run gen --model llama3-8b --recipe llama3_8b_pretrain_config --fsdp --fsdp-sharding no_shard
expect_status "fsdp sharding word" 2
expect_err_prefix "fsdp sharding word" "mbsbatch: --fsdp-sharding: "
run gen --model llama3-8b --tp 2 --sp --recipe llama3_8b_pretrain_config --fsdp --cuda-device-max-connections 1
expect_status "fsdp with 1 connection" 3
expect_err_prefix "fsdp with 1 connection" "mbsbatch: gen: fsdp-max-connections: "
run gen --model llama3-8b --recipe llama3_8b_pretrain_config --fsdp --override checkpoint.ckpt_format=torch_dist
expect_status "fsdp with another format" 3
expect_err_prefix "fsdp with another format" "mbsbatch: gen: fsdp-ckpt-format: "

# Fine-tuning: a LoRA or SFT recipe needs the weights it starts from
# (Bridge refuses the run without them), written as the override; the
# directory checked where it can be; no pretraining data with it.
mkdir -p "$tmp/ckpt"
: >"$tmp/ckpt-file"
run gen --recipe llama3_70b_peft_config
expect_status "lora without a checkpoint" 2
expect_err_prefix "lora without a checkpoint" "mbsbatch: pretrained-checkpoint: recipe 'llama3_70b_peft_config' trains adapters on the weights of a pretrained checkpoint"
run gen --recipe llama3_70b_sft_config --gpus 32
expect_status "sft without a checkpoint" 2
expect_err_prefix "sft without a checkpoint" "mbsbatch: pretrained-checkpoint: recipe 'llama3_70b_sft_config' fine-tunes"
for v in 0.5.1 0.6.0 main; do
	run gen --bridge-version "$v" --recipe llama3_70b_peft_config --pretrained-checkpoint "$tmp/ckpt"
	expect_status "lora $v" 0
	expect_out_has "lora $v: the override" "	checkpoint.pretrained_checkpoint=$tmp/ckpt"
	expect_out_lacks "lora $v: the recipe's data" "--dataset"
done
run gen --recipe llama3_70b_peft_config --pretrained-checkpoint "$tmp/ckpt-file"
expect_status "checkpoint a file" 2
expect_err "checkpoint a file" "mbsbatch: pretrained-checkpoint: '$tmp/ckpt-file' is not a directory"
run gen --recipe llama3_70b_peft_config --pretrained-checkpoint /cluster/only/ckpt
expect_status "checkpoint unseen" 0
expect_err_has() {
	if grep -qF -- "$2" "$tmp/err"; then ok; else bad "$1: stderr lacks: $2"; fi
}
expect_err_has "checkpoint unseen" "mbsbatch: gen: warning: pretrained-checkpoint-unseen: "
run gen --strict --recipe llama3_70b_peft_config --pretrained-checkpoint /cluster/only/ckpt
expect_status "checkpoint unseen, strict" 3
for d in mock megatron-indexed; do
	run gen --recipe llama3_70b_peft_config --pretrained-checkpoint "$tmp/ckpt" --dataset "$d"
	expect_status "lora with $d" 2
	expect_err_prefix "lora with $d" "mbsbatch: --dataset: '$d' is pretraining data, and recipe 'llama3_70b_peft_config' fine-tunes"
done
run gen --recipe llama3_70b_peft_config --pretrained-checkpoint "$tmp/ckpt" --dataset squad
expect_status "lora with squad" 0
expect_out_has "lora with squad" "	--dataset squad"
# A benchmark SFT recipe pretrains (run_recipe.py): no checkpoint needed.
run gen --recipe llama3_70b_sft_32gpu_gb200_bf16_config --gpus 32
expect_status "benchmark sft" 0
expect_out_lacks "benchmark sft" "pretrained_checkpoint"
# Megatron-LM: its own flag.
run gen --template megatron-lm --model llama3-8b --seq-length 8192 --gpus 8 --pretrained-checkpoint "$tmp/ckpt"
expect_status "megatron-lm" 0
expect_out_has "megatron-lm" "	--pretrained-checkpoint"
# The job file key.
printf '{"recipe": "llama3_70b_peft_config", "pretrained_checkpoint": "%s"}\n' "$tmp/ckpt" >"$tmp/ft.json"
run gen "$tmp/ft.json"
expect_status "job file key" 0
expect_out_has "job file key" "	checkpoint.pretrained_checkpoint=$tmp/ckpt"

# Resilience (mbsbatch-template(5), RESILIENCE): the gate on for several
# nodes; the hang floor 10 estimated steps, at least 300 s, also the
# process groups' timeout after initialisation; --stall-restarts.
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --gpus 8
expect_out_has "one node: no gate" "mbs_gate=false"
expect_out_has "one node: floor" "mbs_hang_floor=300"
expect_out_has "one node: stall" "mbs_stall=3"
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --nodes 2
expect_out_has "two nodes: gate" "mbs_gate=true"
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --gpus 8 --gate
expect_out_has "--gate" "mbs_gate=true"
big="--template megatron-lm --model llama3-70b --nodes 8 --gpu-type h100 --seq-length 8192 --tp 8 --pp 4 --global-batch-size 512"
run plan $big
step=$(sed -n 's/^estimate *\([0-9.]*\) s\/step.*/\1/p' "$tmp/out")
run gen $big
want=$(sed -n 's/^mbs_hang_floor=//p' "$tmp/out")
# plan shows the step rounded to 0.01 s: 10 steps, rounded up, within 1 s.
if [ -n "$step" ] && [ -n "$want" ] && [ "$want" -gt 300 ] &&
    awk -v s="$step" -v f="$want" 'BEGIN { d = f - 10 * s; exit !(d > -1 && d <= 1.1) }'
then ok; else bad "floor from the estimate ($step s/step): '$want'"; fi
expect_out_has "gpu type" "mbs_gpu_type=h100"
expect_out_has "8 nodes: 2 may be lost" "mbs_lost_max=2"
if grep -A1 -x '	--distributed-timeout-seconds-after-init' "$tmp/out" | grep -qx "	$want"; then ok
else bad "megatron-lm: the process groups' timeout is not $want"; fi
run gen --model llama3.2-1b --recipe llama32_1b_pretrain_config --seq-length 1024 \
    --nodes 2 --no-gate --hang-timeout 30 --stall-restarts 5
expect_status "bridge: resilience options" 0
expect_out_has "--no-gate" "mbs_gate=false"
expect_out_has "--hang-timeout" "mbs_hang_floor=30"
expect_out_has "--hang-timeout: bridge" "	dist.distributed_timeout_seconds_after_init=30"
expect_out_has "--stall-restarts" "mbs_stall=5"
# The user's own flag wins.
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --gpus 8 \
    --override --distributed-timeout-seconds-after-init=900
expect_status "own timeout" 0
if grep -c -- "^	--distributed-timeout-seconds-after-init" "$tmp/out" | grep -qx 1; then ok
else bad "own timeout: written twice"; fi
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --gpus 8 --hang-timeout 0
expect_status "--hang-timeout 0" 2
run gen --template megatron-lm --model llama3.2-1b --seq-length 1024 --gpus 8 --stall-restarts 0
expect_status "--stall-restarts 0" 2

finish
