# plan.sh: mbsbatch plan, black box: figures, findings, exit statuses and
# the --json object (parsed with jq, not grepped).
. "${top_srcdir:-.}/tests/cli/lib.sh"
: "${JQ:=jq}"
[ -n "$JQ" ] || JQ=jq
need "$JQ" "to parse plan --json"

# The issue's acceptance cases.
run plan --tp 2 --ep 8 --sp --json
expect_status "tp2 ep8" 0
expect_json "tp2 ep8" '[.min_gpus,.naive_product,.dp,.edp,.nodes]' '[8,16,4,1,1]'
expect_no_stderr "tp2 ep8"
run plan --tp 2 --ep 8 --sp --gpus 32 --json
expect_json "tp2 ep8 on 32" '[.dp,.edp,.nodes,.world_size,.multiple]' '[16,4,4,32,4]'
# A MoE model with TP > 1 trains only with sequence parallel.
run plan --tp 2 --ep 8 --json
expect_status "MoE TP without SP" 3
expect_json "MoE TP without SP" '[.findings[]|select(.severity=="error")|.code]' '["moe-tp-needs-sp"]'
run plan --sp --json
expect_status "sp alone" 3
expect_json "sp alone" '[.findings[]|select(.severity=="error")|.code]' '["sp-needs-tp"]'
run plan --tp abc
expect_status "tp abc" 2
expect_no_stdout "tp abc"
expect_err "tp abc" "mbsbatch: --tp: 'abc' is not a number (expected a whole number from 1 to 65536)"

# The contract keys of SPEC section 3, all there.
run plan --tp 2 --ep 8 --sp --json
expect_json "keys" '[has("parallelism","min_gpus","naive_product","multiple","world_size","dp","edp","nodes","gpus_per_node","tasks_per_node","memory","env","findings")]|all' 'true'
expect_json "parallelism" '.parallelism' '{"tp":2,"pp":1,"cp":1,"ep":8,"etp":1,"vpp":1,"sp":true,"fsdp":null}'

# The worked minimum-GPU examples (megatron-rules.md section 1).
while read -r pp tp cp ep etp naive min; do
	run plan --pp "$pp" --tp "$tp" --cp "$cp" --ep "$ep" --etp "$etp" --vpp 2 --json
	expect_json "example pp$pp tp$tp cp$cp ep$ep etp$etp" \
	    '[.naive_product,.min_gpus]' "[$naive,$min]"
done <<'TABLE'
1 2 1 8 1 16 8
1 4 1 8 1 32 8
1 2 2 8 1 32 8
1 2 4 8 1 64 8
2 2 1 8 1 32 16
1 2 1 4 2 16 8
TABLE
# (--vpp 2 with PP 1 is an error; the figures are printed all the same.)

# Scaling: TP 2, EP 8 on 8, 16 and 32 GPUs, by --gpus, --nodes, --multiple.
for row in "8 4 1 1" "16 8 2 2" "32 16 4 4"; do
	set -- $row
	run plan --tp 2 --ep 8 --sp --gpus "$1" --json
	expect_json "scaling $1 gpus" '[.dp,.edp,.nodes]' "[$2,$3,$4]"
	run plan --tp 2 --ep 8 --sp --nodes "$4" --json
	expect_json "scaling $4 nodes" '[.world_size,.dp,.edp]' "[$1,$2,$3]"
	run plan --tp 2 --ep 8 --sp --multiple "$4" --json
	expect_json "scaling x$4" '[.world_size,.dp,.edp]' "[$1,$2,$3]"
done

# The human view shows the derivation and the wrong product beside it.
run plan --tp 2 --ep 8 --sp
expect_status "text" 0
expect_out_has "text" "min GPUs      8 = PP·max(TP·CP, EP·ETP) = 1·max(2·1, 8·1)"
expect_out_has "text" "not 16 = PP·TP·CP·EP·ETP"
expect_out_has "text" "DP            4 = world / (TP·CP·PP) = 8 / (2·1·1)"
expect_out_has "text" "EDP           1 = world / (EP·ETP·PP) = 8 / (8·1·1)"
expect_out_has "text" "nodes         1 = ceil(8 / 8 GPUs per node), 8 tasks per node"
expect_out_has "text: skipped rules" "heads-divisibility"
expect_out_has "text: skipped rules" "not checked"

# lcm: TP·CP = 6, EP·ETP = 4.
run plan --tp 3 --cp 2 --ep 4 --sp --json
expect_status "lcm" 0
expect_json "lcm" '[.min_gpus,.mesh.lcm,.dp,.edp]' '[12,12,2,3]'
expect_json "lcm warning" '[.findings[].code]' '["mesh-lcm"]'
run plan --tp 3 --cp 2 --ep 4 --sp
expect_out_has "lcm text" "12 = PP·lcm(TP·CP, EP·ETP) = 1·lcm(3·2, 4·1), not PP·max = 6"

# Warnings pass, --strict makes them fail; the object is still printed.
# (PP 4 and DP 2 of a batch of 16: 8 micro-batches idle the pipeline 27%
# of a step.)
run plan --tp 8 --pp 4 --gpus 64 --global-batch-size 16 --json
expect_status "warning" 0
expect_json "warning" '[.findings[].code]' '["pp-bubble"]'
run plan --tp 8 --pp 4 --gpus 64 --global-batch-size 16 --json --strict
expect_status "strict" 3
expect_json "strict keeps the object" '.dp' '2'
run plan --tp 8 --pp 4 --gpus 64 --global-batch-size 16 --strict --no-strict
expect_status "--no-strict" 0

# A model: the 70B example, the DeepSeek-V3 layers, a dense model with EP.
# (--template megatron-lm where the test is the model's own sizing: with the
# Bridge template the model would bring its recipe's values: recipe.sh.)
run plan --template megatron-lm --model llama3-70b --tp 8 --pp 4 --vpp 5 --gpus 64 --seq-length 4096 --sp --global-batch-size 64 --json
expect_status "70b" 0
expect_json "70b" '[.dp,.nodes,.findings]' '[2,8,[]]'
expect_json "70b model" '[.model.name,.model.kind,.model.num_layers]' '["llama3-70b","dense",80]'
run plan --template megatron-lm --model llama3-70b --ep 8 --json
expect_status "ep on dense" 3
expect_json "ep on dense" '[.findings[].code]' '["ep-on-dense"]'
run plan --model deepseek-v3 --tp 2 --pp 16 --ep 64 --sp --json
expect_status "deepseek-v3 61 layers over PP 16" 3
expect_json "deepseek-v3" '[.min_gpus,.naive_product,.dp,.edp,.nodes]' '[1024,2048,32,1,128]'
expect_json "deepseek-v3 layers" '[.findings[]|select(.severity=="error")|.code]' '["layers-divisibility"]'
run plan --model deepseek-v3 --tp 2 --pp 16 --ep 64 --sp --num-layers-in-first-pipeline-stage 3 --num-layers-in-last-pipeline-stage 2 --json
expect_status "deepseek-v3 uneven split" 0
expect_json "deepseek-v3 uneven split" '.pipeline_split' '{"first":3,"middle":4,"middle_stages":14,"last":2}'
expect_json "deepseek-v3 uneven split" '[.num_layers_in_first_pipeline_stage,.num_layers_in_last_pipeline_stage]' '[3,2]'
run plan --model deepseek-v3 --tp 2 --pp 16 --ep 64 --sp --num-layers-in-first-pipeline-stage 3 --num-layers-in-last-pipeline-stage 2
expect_out_has "uneven split text" "layers        61 = 3 + 14×4 + 2 (first stage, middle stages, last stage)"
run plan --model qwen3-30b-a3b --tp 4 --pp 2 --ep 4 --vpp 2 --sp --json
expect_status "qwen3 30b" 0
expect_json "qwen3 30b" '[.min_gpus,.dp,.edp]' '[8,1,1]'
run plan --template megatron-lm --model qwen3-30b-a3b --ep 5 --json
expect_json "experts over ep 5" '[.findings[].code]' '["experts-divisibility"]'
# GPT-OSS's expert biases: ETP 1 only (transformer_config.py:2613).
run plan --model gpt-oss-20b --tp 2 --sp --ep 4 --etp 2 --seq-length 4096 --json
expect_json "gpt-oss etp 2" '[.findings[]|select(.severity=="error")|.code]' '["moe-bias-needs-etp1"]'
run plan --model gpt-oss-20b --tp 2 --sp --ep 4 --seq-length 4096 --json
expect_json "gpt-oss etp 1" '[.findings[]|select(.severity=="error")|.code]' '[]'
run plan --template megatron-lm --model llama3-8b --tp 3 --json
expect_json "heads over tp 3" '[.findings[].code]' '["heads-divisibility"]'
run plan --num-experts 0 --ep 2 --json
expect_json "--num-experts 0 is dense" '[.findings[].code]' '["ep-on-dense"]'

# Architecture options override the preset field by field.
run plan --template megatron-lm --model llama3-8b --num-layers 30 --pp 4 --global-batch-size 8 --json
expect_json "override layers" '[.model.num_layers,[.findings[].code]]' '[30,["layers-divisibility","pp-bubble"]]'

# --params forms.
for p in 70B:70000000000 1.5T:1500000000000 7e9:7000000000 8030261248:8030261248; do
	run plan --params "${p%%:*}" --json
	expect_json "--params ${p%%:*}" '.model.params' "${p#*:}"
done

# Uneven nodes: TP 4 x PP 5 = 20 GPUs on 8-GPU nodes.
run plan --tp 4 --pp 5 --vpp 2 --json
expect_status "uneven" 3
expect_json "uneven" '[.nodes,.tasks_per_node,[.findings[].code]]' '[3,null,["uneven-nodes"]]'
run plan --tp 4 --pp 5 --vpp 2 --gpus-per-node 4
expect_out_has "uneven fixed by 4-GPU nodes" "5 = ceil(20 / 4 GPUs per node), 4 tasks per node"

# gb200: 4 GPUs per node, NVLink domain of 72; TP 8 stays inside.
run plan --gpu-type gb200 --tp 8 --pp 4 --vpp 2 --json
expect_json "gb200" '[.gpus_per_node,.nvlink_domain,.nodes,.findings]' '[4,72,8,[]]'
run plan --tp 8 --pp 4 --vpp 2 --gpus-per-node 4 --json
expect_json "tp over 4-GPU nodes" '[.findings[].code]' '["tp-cross-node"]'

# Sequence rules.
run plan --tp 2 --seq-length 4096 --json
expect_json "seq-needs-sp" '[.findings[].code]' '["seq-needs-sp"]'
run plan --tp 2 --sp --seq-length 65536 --json
expect_json "seq-needs-cp" '[.findings[].code]' '["seq-needs-cp"]'
run plan --tp 2 --sp --cp 4 --seq-length 65540 --json
expect_json "cp-seq" '[.findings[].code]' '["cp-seq-divisibility"]'
run plan --tp 2 --tp-comm-overlap --json
expect_json "tp overlap without sp" '[.findings[].code]' '["tp-overlap-disabled"]'
run plan --tp 8 --gpus 16 --global-batch-size 3 --micro-batch-size 1 --json
expect_json "batch" '[.findings[].code]' '["batch-divisibility"]'

# pp-bubble: a warning only where the bubble is large; README's own PP 2
# example (32 micro-batches: 3% of a step) has none, and without a batch
# the rule says what it lacks.
run plan "$top_srcdir/examples/llama3.2-1b.json" --json
expect_json "README's PP 2 example" '[.findings[] | select(.severity != "info") | .code]' '[]'
run plan --tp 8 --pp 4 --gpus 64 --global-batch-size 512 --json
expect_json "many micro-batches" '[.findings[].code]' '[]'
run plan --tp 8 --pp 4 --gpus 64 --json
expect_json "no batch: not checked" '[.skipped[]|select(.code=="pp-bubble")|.reason]' '["no global batch size (--global-batch-size)"]'

# -q prints the findings only; -v adds where each value came from.
run -q plan --tp 8 --pp 4 --global-batch-size 8
expect_status "-q" 0
if [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q '^warning  pp-bubble' "$tmp/out"; then ok; else bad "-q output"; fi
run plan --tp 8 -v
expect_out_has "-v" "tp                                 8  (command line)"

# Options may be given with = too, global options after the command.
run plan --tp=2 --ep=8 --json -q
expect_json "--opt=value" '.min_gpus' '8'

# --list-models: every SPEC preset, text and JSON.
run plan --list-models
expect_status "list-models" 0
for m in llama3.2-1b llama3-8b llama3-70b llama3.1-405b olmoe-7b moonlight-16b \
    deepseek-v2 glm-4.5-air qwen3-30b-a3b glm-4.5 qwen3-235b-a22b deepseek-v3 kimi-k2 \
    gpt-oss-120b gpt-oss-20b nemotron-3-nano nemotron-3-super nemotron-3-ultra; do
	if grep -q "^$m " "$tmp/out"; then ok; else bad "list-models lacks $m"; fi
done
run plan --list-models --json
expect_json "list-models json" 'length' '18'
expect_json "list-models nemotron-3-super" '.[]|select(.name=="nemotron-3-super")|[.num_layers,.mamba_num_heads,.mamba_num_groups,.moe_latent_size,.params]' '[88,128,8,1024,120668687360]'
expect_json "list-models gpt-oss-120b" '.[]|select(.name=="gpt-oss-120b")|[.num_experts,.moe_router_topk,.num_layers,.params]' '[128,4,36,116829156672]'
expect_json "list-models kimi" '.[]|select(.name=="kimi-k2")|[.num_experts,.moe_router_topk,.num_layers]' '[384,8,61]'

# A failed write of stdout is a failure, not a silent success.
if [ -w /dev/full ]; then
	"$MBSBATCH" plan --tp 2 >/dev/full 2>"$tmp/err"
	status=$?
	expect_status "stdout /dev/full" 1
	expect_err_prefix "stdout /dev/full" "mbsbatch: standard output: "
fi

# Memory per GPU (issue 5).  Llama 3 8B, TP 2, SP, seq 4096 on 8 GPUs:
# the unit test works out 7.48 + 14.96 + 11.22 + 7.77 GiB by hand
# (Megatron's formula gives 9.02 of activations: GQA and no dropout masks).
run plan --template megatron-lm --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-memory 80 --json
expect_status "memory 8b" 0
expect_json "memory 8b" '[.memory.params_gib,.memory.grads_gib,.memory.optimizer_gib,.memory.activations_gib,.memory.total_gib,.memory.gpu_gib]' '[7.48,14.96,11.22,7.77,41.42,80]'
expect_json "memory 8b fits" '[.findings[].code]|index("memory-oom")' 'null'
# It does not fit a 40 GiB GPU: memory-oom fires, as a warning.
run plan --template megatron-lm --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-memory 40 --json
expect_status "memory 8b on 40" 0
expect_json "memory 8b on 40" '[.findings[]|select(.code=="memory-oom")|.severity]' '["warning"]'
run plan --template megatron-lm --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-memory 40 --strict
expect_status "memory 8b on 40 strict" 3
expect_out_has "memory 8b on 40 strict" "memory-oom"
# Full recompute brings it back under 40 GiB; the script asks for it.
run plan --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-memory 40 --recompute full --json
expect_json "memory full recompute" '[.memory.recompute,([.findings[].code]|index("memory-oom"))]' '["full",null]'
# The GPU type's memory counts when --gpu-memory is not given.
run plan --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-type h200 --json
expect_json "memory h200" '.memory.gpu_gib' '141'
# A cluster profile's gpu_memory counts too.
printf '{ "clusters": { "small": { "gpu_memory": 40 } } }\n' >"$tmp/mem.json"
run --config "$tmp/mem.json" --cluster small plan --template megatron-lm --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --json
expect_json "memory profile" '[.memory.gpu_gib,[.findings[].code]==["memory-oom"]]' '[40,true]'
# No sequence length: no estimate, and memory-oom says why it is unchecked.
run plan --template megatron-lm --model llama3-8b --tp 2 --json
expect_json "memory unknown" '[.memory,(.skipped[]|select(.code=="memory-oom")|.reason)]' '[null,"needs the sequence length (--seq-length)"]'
run plan --model llama3-8b --tp 2 --seq-length 4096
expect_out_has "memory text" "memory        "
expect_out_has "memory text" "fp32 gradients"
# The skill's worked 70B example, end to end: 38.00 GB per GPU.
run plan --params 70B --tp 4 --pp 4 --gpus 64 --seq-length 4096 --memory-model skill
expect_status "skill 70b" 0
expect_out_has "skill 70b" "the skill's rule of thumb (38.00 GB)"
expect_out_has "skill 70b" "8.75 GB: fp16 weights"
expect_out_has "skill 70b" "17.50 GB: Adam moments"
expect_out_has "skill 70b" "3.00 GB: 48 GB per 70B"
run plan --params 70B --tp 4 --pp 4 --gpus 64 --seq-length 4096 --memory-model skill --json
expect_json "skill 70b json" '[.memory.method,.memory.model_params,(.memory.total_gib*1073741824/1e9*100|round)]' '["skill",70000000000,3800]'
run plan --memory-model guess
expect_status "memory model guess" 2
# Dtypes: bf16 gradients halve them (14.96 -> 7.48 GiB); bf16 moments
# make the optimizer 4 + 2 + 2 = 8 bytes a parameter, over DP 4.
run plan --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-type h100 \
    --grads-dtype bf16 --optimizer-dtype bf16 --json
expect_json "dtypes" '[.memory.params_dtype,.memory.grads_dtype,.memory.optimizer_dtype,.memory.grads_gib,.memory.optimizer_gib]' '["bf16","bf16","bf16",7.48,7.48]'
run plan --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-type h100 --json
expect_json "dtypes default" '[.memory.params_dtype,.memory.grads_dtype,.memory.optimizer_dtype,.memory.grads_gib,.memory.optimizer_gib]' '["bf16","fp32","fp32",14.96,11.22]'
run plan --model llama3-8b --tp 2 --sp --seq-length 4096 --gpus 8 --gpu-type h100 --params-dtype fp32 --json
expect_json "fp32 weights: no master copy" '[.memory.params_gib,.memory.optimizer_gib]' '[14.96,7.48]'
run plan --params-dtype fp8
expect_status "params fp8" 2
expect_err "params fp8" "mbsbatch: --params-dtype: 'fp8' is not a weight dtype (bf16, fp16 or fp32)"
run plan --recompute most
expect_status "recompute most" 2
expect_err "recompute most" "mbsbatch: --recompute: 'most' is not a recompute mode (none, selective or full)"

# A hybrid preset needs a recipe that builds it: one naming no model
# builds its own (vanilla_gpt: a GPT); the Nano's recipe builds the Nano.
run plan --model nemotron-3-nano --recipe vanilla_gpt_pretrain_config --gpus 8
expect_status "hybrid on vanilla" 2
expect_err "hybrid on vanilla" "mbsbatch: model 'nemotron-3-nano' is a hybrid model, which recipe 'vanilla_gpt_pretrain_config' does not build: give that model's recipe"
run plan --recipe nemotron_3_nano_pretrain_config --gpus 8 --json
expect_status "nano recipe" 0
expect_json "nano recipe model" '.model.name' '"nemotron-3-nano"'

# Every example job file plans cleanly.
for f in "$top_srcdir"/examples/*.json; do
	[ -e "$f" ] || continue
	run plan "$f" --json
	expect_status "example $(basename "$f")" 0
done

# Recipes: listed per Bridge version; an unknown one is refused with the
# nearest, before anything is sized.
run plan --list-recipes --bridge-version 0.5.1
expect_status "list-recipes" 0
expect_out_has "list-recipes" "deepseek_v3_pretrain_config "
expect_out_lacks "list-recipes: no kimi_k2 in 0.5.1" "kimi_k2_pretrain_config"
run plan --list-recipes --json
expect_json "list-recipes json: 0.6.0's 973" 'length' '973'
expect_json "list-recipes json: a row" '[.[]|select(.name=="llama31_405b_pretrain_config")|.tp,.pp,.vpp,.cp]' '[8,8,2,4]'
run plan --recipe llama3_8b_pretrain
expect_status "recipe near miss" 2
expect_err_prefix "recipe near miss" "mbsbatch: recipe 'llama3_8b_pretrain': not a recipe of Megatron-Bridge 0.6.0 (did you mean 'llama3_8b_pretrain_config'?)"
run plan --recipe kimi_k2_pretrain_config --bridge-version 0.5.1
expect_status "recipe of another version" 2
expect_err_prefix "recipe of another version" "mbsbatch: recipe 'kimi_k2_pretrain_config': not a recipe of Megatron-Bridge 0.5.1"
# The recipe's values are the job's below the user's, and plan says which
# it replaces and clears.
run plan --recipe llama31_405b_pretrain_config --gpus 1024 --pp 4 --json
expect_json "recipe layer" '[.parallelism.tp,.parallelism.pp,.parallelism.vpp,.parallelism.cp,.seq_length]' '[8,4,2,4,131072]'
expect_json "recipe replaced" '.bridge.replaced' '[{"key":"pp","recipe":"8","value":"4"}]'
expect_json "recipe model" '.model.name' '"llama3.1-405b"'
run plan --recipe llama31_405b_pretrain_config --gpus 1024 --num-layers-in-first-pipeline-stage 14 --num-layers-in-last-pipeline-stage 14 --json
expect_json "a split clears the accounting" '.bridge.cleared' '["account_for_embedding_in_pipeline_split","account_for_loss_in_pipeline_split"]'
run plan --recipe llama3_8b_pretrain_config --model llama3-70b
expect_status "model not the recipe's" 2
expect_err "model not the recipe's" "mbsbatch: model 'llama3-70b' is not the model recipe 'llama3_8b_pretrain_config' builds (meta-llama/Meta-Llama-3-8B): leave --model out, or give that model's recipe"

# A benchmark recipe brings its own data: run_recipe.py refuses --dataset
# with one (recipe_metadata.py), also with a library name both recipe
# packages have, whose benchmark definition runs; plan says which it is.
run plan --recipe deepseek_v3_pretrain_256gpu_b200_bf16_config --dataset mock
expect_status "benchmark recipe --dataset" 2
expect_err_prefix "benchmark recipe --dataset" "mbsbatch: --dataset: recipe 'deepseek_v3_pretrain_256gpu_b200_bf16_config' is a benchmark recipe of Megatron-Bridge 0.6.0, which brings its own data: run_recipe.py refuses --dataset with it"
run plan --recipe qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config --bridge-version main --dataset mock
expect_status "twin --dataset" 2
expect_err_prefix "twin --dataset" "mbsbatch: --dataset: Megatron-Bridge main runs recipe 'qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config' as a benchmark recipe"
run plan --recipe qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config
expect_status "twin" 0
expect_out_has "twin" "run_recipe.py runs the benchmark recipe of this name (both recipe packages have it); the values here are the library recipe's"
run plan --recipe qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config --json
expect_json "twin json" '[.bridge.benchmark,.bridge.values_of_library_twin]' '[true,true]'
run plan --recipe qwen3_30b_a3b_pretrain_config --dataset mock --json
expect_json "library recipe" '[.bridge.benchmark,.bridge.values_of_library_twin]' '[false,false]'

# --requeue without --checkpoint-dir: a library recipe saves checkpoints of
# its own (recipes/common.py) where its handler saves at the signal (0.6.0,
# main): no warning, and plan says where; a benchmark recipe saves none.
for v in 0.6.0 main; do
	run plan --bridge-version "$v" --recipe llama3_8b_pretrain_config --requeue --json
	expect_json "requeue, $v recipe's checkpoints" '[.findings[].code]' '["shared-checkpoint-dir"]'
	expect_json "requeue, $v recipe's checkpoints: info" '[.findings[].severity]' '["info"]'
	run plan --bridge-version "$v" --recipe llama3_8b_pretrain_config --requeue
	expect_out_has "requeue, $v: where" "checkpoints: the recipe's own, saved to and resumed from nemo_experiments/default/checkpoints in the Megatron-Bridge checkout"
done
run plan --bridge-version 0.5.1 --recipe llama3_8b_pretrain_config --requeue -q
expect_out_has "requeue, 0.5.1: periodic saves only" "never installs its exit-signal handler, so nothing is saved at the signal: a requeued attempt resumes from the last periodic checkpoint, at the recipe's interval"
run plan --recipe deepseek_v3_pretrain_256gpu_b200_bf16_config --requeue -q
expect_out_has "requeue, benchmark recipe" "requeue-no-checkpoint  --requeue without --checkpoint-dir, and the recipe saves no checkpoint of its own"

# shared-checkpoint-dir (info): a library recipe saves to and resumes from
# nemo_experiments/default/checkpoints under its process's working
# directory (recipes/common.py:47-49), which 0.6.0 and main's
# run_recipe.py makes the Bridge checkout (459/460: os.chdir(REPO_ROOT)):
# every run from one checkout (0.5.1: one directory) shares it.  Said
# without --checkpoint-dir only; never fails --strict; gen does not print
# it, its script carries it.
for v in 0.6.0 main; do
	run plan --bridge-version "$v" --recipe llama32_1b_pretrain_config --gpus 8 --json
	expect_json "shared ckpt, $v" '[.findings[] | select(.code == "shared-checkpoint-dir") | .severity]' '["info"]'
	expect_json "shared ckpt, $v: where" '[.findings[] | select(.code == "shared-checkpoint-dir") | .message | test("nemo_experiments/default/checkpoints in the Megatron-Bridge checkout, which run_recipe.py changes to: every run from there shares it")]' '[true]'
done
run plan --bridge-version 0.5.1 --recipe llama32_1b_pretrain_config --gpus 8 --json
expect_json "shared ckpt, 0.5.1: where" '[.findings[] | select(.code == "shared-checkpoint-dir") | .message | test("in the job.s working directory: every run from there shares it")]' '[true]'
run plan --recipe llama32_1b_pretrain_config --gpus 8 --cp 2 --strict
expect_status "shared ckpt: --strict passes" 0
expect_out_has "shared ckpt: text" "  info     shared-checkpoint-dir  the recipe saves checkpoints to, and resumes from, nemo_experiments/default/checkpoints"
expect_out_has "shared ckpt: count" "0 errors, 0 warnings, 1 info"
run plan --recipe llama32_1b_pretrain_config --gpus 8 --checkpoint-dir /ckpt/run1 --json
expect_json "shared ckpt: --checkpoint-dir" '[.findings[] | select(.code == "shared-checkpoint-dir")]' '[]'
run plan --recipe llama32_1b_pretrain_config --gpus 8 --override checkpoint.save=/c --override ++checkpoint.load=/c --json
expect_json "shared ckpt: both overridden" '[.findings[] | select(.code == "shared-checkpoint-dir")]' '[]'
run plan --recipe llama32_1b_pretrain_config --gpus 8 --override checkpoint.save=/c --json
expect_json "shared ckpt: save only overridden: still loads there" '[.findings[] | select(.code == "shared-checkpoint-dir") | .severity]' '["info"]'
run plan --recipe deepseek_v3_pretrain_256gpu_b200_bf16_config --json
expect_json "shared ckpt: benchmark recipe saves none" '[.findings[] | select(.code == "shared-checkpoint-dir")]' '[]'
run plan --template megatron-lm --model llama3-8b --gpus 8 --json
expect_json "shared ckpt: Megatron-LM" '[.findings[] | select(.code == "shared-checkpoint-dir")]' '[]'
run gen --recipe llama32_1b_pretrain_config --gpus 8 --cp 2
expect_status "shared ckpt: gen" 0
if grep -q "shared-checkpoint-dir" "$tmp/err"; then bad "shared ckpt: gen prints it"; else ok; fi
expect_out_has "shared ckpt: the script says it" "# info: shared-checkpoint-dir: the recipe saves checkpoints to"
run gen --smoke --recipe llama32_1b_pretrain_config --gpus 8 --cp 2
expect_out_lacks "shared ckpt: not for a smoke job" "shared-checkpoint-dir"

# An architecture no preset describes, on a recipe's model, is sized as
# the recipe builds it: vanilla_gpt's bare GPTModelProvider ties the
# output layer to the embedding (gpt_provider.py), so it has hidden x
# vocab parameters fewer than the same shapes untied (pretrain_gpt.py as
# the megatron-lm template writes it); OLMoE's provider does not tie.
arch="--num-layers 12 --hidden-size 768 --num-attention-heads 12 --ffn-hidden-size 3072 --vocab-size 50304 --seq-length 1024"
run plan --template megatron-lm $arch --json
untied=$("$JQ" '.memory.model_params' "$tmp/out")
for v in 0.5.1 0.6.0 main; do
	run plan --bridge-version "$v" --recipe vanilla_gpt_pretrain_config $arch --json
	expect_json "vanilla_gpt ties, $v" '[.model.tied_embeddings,.memory.model_params]' "[true,$((untied - 768 * 50304))]"
	run plan --bridge-version "$v" --recipe olmoe_7b_pretrain_config $arch --json
	expect_json "olmoe does not tie, $v" '[.model.tied_embeddings,.memory.model_params]' "[false,$untied]"
done
run plan --recipe vanilla_gpt_pretrain_config $arch
expect_out_has "tie said" "vocab 50304, tied embeddings (the recipe's model)"
run plan --recipe qwen25_7b_pretrain_config $arch
expect_out_has "tie unknown said" "untied embeddings assumed (the recipe takes the tie from its Hugging Face config)"

# LoRA (Llama 3 70B, rank 16, the four linears, TP 8): every weight on
# the GPU, gradients and optimizer state of the adapters alone: 16 x
# (18432 + 16384 + 65536 + 36864) x 80 layers / TP 8 = 21954560.
mkdir -p "$tmp/ckpt"
run plan --json --gpu-type h100 --recipe llama3_70b_peft_config --pretrained-checkpoint "$tmp/ckpt"
expect_status "lora" 0
expect_json "lora adapters" '.memory.lora' '{"rank":16,"adapter_params":21954560}'
expect_json "lora grads" '[.memory.grads_gib, .memory.optimizer_gib]' '[0.08,0.25]'
expect_json "lora weights" '.memory.params_gib' '16.47'
# SFT: every weight trains, as pretraining.
run plan --json --gpu-type h100 --recipe llama3_70b_sft_config --pretrained-checkpoint "$tmp/ckpt"
expect_status "sft" 0
expect_json "sft" '[.memory.lora, .memory.grads_gib > 8]' '[null,true]'

finish
