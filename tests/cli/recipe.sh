#!/bin/sh
# recipe.sh: with the megatron-bridge template, a model named without a
# recipe runs its own pretraining recipe of the target Bridge version;
# a model with none is told so, naming the model and the version; and a
# finding that a value of the recipe's causes names that value and the
# option that changes it.
. "${top_srcdir:-.}/tests/cli/lib.sh"
need "${JQ:-jq}" "the JSON checks"
JQ=${JQ:-jq}

# The model picks its recipe, for each version (recipes.tsv).
for v in 0.5.1 0.6.0 main; do
	run plan --model llama3-70b --gpus 32 --bridge-version "$v" --json
	expect_status "pick $v" 0
	expect_json "pick $v" '[.bridge.recipe,.bridge.recipe_from_model]' \
	    '["llama3_70b_pretrain_config",true]'
	# Its values are sized: the recipe's TP 4, PP 4, CP 2 and VPP 5.
	expect_json "pick $v: layout" \
	    '[.parallelism.tp,.parallelism.pp,.parallelism.cp,.parallelism.vpp]' \
	    '[4,4,2,5]'
done
run plan --model llama3-70b --gpus 32
expect_out_has "pick text" "recipe        llama3_70b_pretrain_config (from the model) of Megatron-Bridge 0.6.0"
run plan --model qwen3-30b-a3b --gpus 8 --json
expect_json "pick moe" '.bridge.recipe' '"qwen3_30b_a3b_pretrain_config"'

# gen writes it, as --recipe would.
run gen --model llama3-70b --gpus 32
expect_status "gen picks" 0
expect_out_has "gen picks" "--recipe llama3_70b_pretrain_config"
"$MBSBATCH" gen --model llama3-70b --gpus 32 --recipe llama3_70b_pretrain_config \
    >"$tmp/given.sbatch" 2>/dev/null
# The same script but its comments (the command, "from the model").
grep -v '^#' "$tmp/out" >"$tmp/a"
grep -v '^#' "$tmp/given.sbatch" >"$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "gen picks: the script differs from --recipe's"; diff "$tmp/a" "$tmp/b" | head; fi

# A recipe given is the user's; megatron-lm runs no recipe.
run plan --model llama3-70b --gpus 32 --recipe llama3_70b_16k_pretrain_config --json
expect_json "given" '[.bridge.recipe,.bridge.recipe_from_model]' \
    '["llama3_70b_16k_pretrain_config",false]'
run plan --template megatron-lm --model llama3-70b --gpus 32 --json
expect_json "megatron-lm" '.bridge.recipe' 'null'

# No recipe for the model in that version: plan says so, gen refuses
# naming the model, its Hugging Face name and the version.
run plan --model kimi-k2 --bridge-version 0.5.1
expect_status "none: plan" 0
expect_out_has "none: plan" "recipe        none: no pretraining recipe of Megatron-Bridge 0.5.1 builds model 'kimi-k2' (moonshotai/Kimi-K2-Instruct); give --recipe NAME"
run gen --model kimi-k2 --bridge-version 0.5.1
expect_status "none: gen" 2
expect_err_prefix "none: gen" "mbsbatch: gen: template 'megatron-bridge' needs a recipe: no pretraining recipe of Megatron-Bridge 0.5.1 builds model 'kimi-k2' (moonshotai/Kimi-K2-Instruct); give --recipe NAME"
expect_no_stdout "none: gen"
run gen --model kimi-k2 --bridge-version 0.6.0 --gpus 512
expect_status "kimi 0.6.0" 0
expect_out_has "kimi 0.6.0" "--recipe kimi_k2_pretrain_config"
# A model of the user's without a Hugging Face name.
printf '{ "num_layers": 4, "hidden_size": 256, "num_attention_heads": 4 }\n' \
    >"$tmp/mine.json"
run gen --model "$tmp/mine.json" --seq-length 1024
expect_status "no hf name" 2
expect_err_prefix "no hf name" "mbsbatch: gen: template 'megatron-bridge' needs a recipe: model 'mine' names no Hugging Face model, so no recipe is known for it; give --recipe NAME"

# The reported case: TP 8 · PP 4 on 32 GPUs breaks world divisibility
# because of the recipe's CP 2, and says so without -v.
for how in "--model llama3-70b" "--recipe llama3_70b_pretrain_config"; do
	# shellcheck disable=SC2086
	run plan $how --tp 8 --pp 4 --gpus 32
	expect_status "recipe's cp: $how" 3
	expect_out_has "recipe's cp: $how" "error    world-divisibility    world size 32 is not a multiple of the minimum 64 GPUs; nearest: 64 (CP 2 is the recipe's: --cp 1 to change)"
	# shellcheck disable=SC2086
	run gen $how --tp 8 --pp 4 --gpus 32
	expect_status "recipe's cp, gen: $how" 3
	expect_err_prefix "recipe's cp, gen: $how" "mbsbatch: gen: world-divisibility: world size 32 is not a multiple of the minimum 64 GPUs; nearest: 64 (CP 2 is the recipe's: --cp 1 to change); no script written"
	# What it says to do works.
	# shellcheck disable=SC2086
	run plan $how --tp 8 --pp 4 --gpus 32 --cp 1 --json
	expect_status "recipe's cp changed: $how" 0
	expect_json "recipe's cp changed: $how" '[.findings[]|select(.severity=="error")]' '[]'
done
# A value the user gave is the user's.
run plan --model llama3-70b --tp 8 --pp 4 --cp 2 --gpus 32
expect_status "user's cp" 3
expect_out_lacks "user's cp" "recipe's"
# Another rule, another value: the recipe's global batch of 512 over a
# micro batch of 3 (and the recipe's sequence length in the JSON too).
run plan --model llama3-70b --gpus 64 --micro-batch-size 3 --json
expect_json "recipe's batch" '[.findings[]|select(.code=="batch-divisibility")|.message|test("\\(global batch 512 is the recipe.s: --global-batch-size N to change; ")]' '[true]'
# An error, not a finding: the recipe's bf16 gradients (DeepSeek-V3's
# grad_reduce_in_fp32=false) with fp16 weights given.
run plan --model deepseek-v3 --params-dtype fp16
expect_status "recipe's grads" 2
expect_err "recipe's grads" "mbsbatch: --grads-dtype: bf16 gradients need bf16 weights (--params-dtype bf16); grads_dtype bf16 is the recipe's: --grads-dtype to change"
run plan --model deepseek-v3 --params-dtype fp16 --grads-dtype fp16
expect_status "recipe's grads changed" 0
finish
