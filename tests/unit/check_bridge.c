/*
 * check_bridge.c: the Megatron-Bridge targets (src/job/bridge.c) and the
 * recipe tables generated from data/megatron: facts the FACTS of those
 * tables state, read back through the C tables.
 */
#include <check.h>
#include <string.h>

#include "bridge.h"
#include "run.h"

static const struct bridge_recipe *
recipe(const char *version, const char *name)
{
	const struct bridge_target	*t = bridge_target_find(version);

	ck_assert_ptr_nonnull(t);
	return bridge_recipe_find(t, name);
}

START_TEST(test_targets)
{
	ck_assert_str_eq(bridge_target_find(NULL)->name, "0.6.0");
	ck_assert_ptr_nonnull(bridge_target_find("0.5.1"));
	ck_assert_ptr_nonnull(bridge_target_find("main"));
	ck_assert_ptr_null(bridge_target_find("0.7.0"));
	/* The dataset key and the mock dataset differ from 0.6.0 on. */
	ck_assert_str_eq(bridge_target_find("0.5.1")->dataset_seq_key,
	    "dataset.sequence_length");
	ck_assert_str_eq(bridge_target_find("0.6.0")->dataset_seq_key,
	    "dataset.seq_length");
	ck_assert_str_eq(bridge_dataset(bridge_target_find("0.5.1"), "mock"),
	    "llm-pretrain-mock");
	ck_assert_str_eq(bridge_dataset(bridge_target_find("main"),
	    "llm-pretrain-mock"), "mock");
	ck_assert_str_eq(bridge_dataset(bridge_target_find("main"), "energon"),
	    "energon");
	ck_assert_ptr_null(bridge_dataset(bridge_target_find("0.6.0"),
	    "energon"));
}
END_TEST

START_TEST(test_recipes)
{
	const struct bridge_recipe	*r;

	/* kimi_k2 is not exported by 0.5.1's recipes package. */
	ck_assert_ptr_null(recipe("0.5.1", "kimi_k2_pretrain_config"));
	ck_assert_ptr_nonnull(recipe("0.6.0", "kimi_k2_pretrain_config"));
	/* The 405B recipe counts the embedding and the loss as layers. */
	r = recipe("0.6.0", "llama31_405b_pretrain_config");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->account_for_embedding, TRI_ON);
	ck_assert_int_eq(r->account_for_loss, TRI_ON);
	ck_assert_int_eq(r->sizes.tp, 8);
	ck_assert_int_eq(r->sizes.vpp, 2);
	/* deepseek_v3 keeps a layout and its own precision. */
	r = recipe("0.6.0", "deepseek_v3_pretrain_config");
	ck_assert(r->pipeline_layout);
	ck_assert_str_eq(r->mixed_precision, "custom");
	ck_assert_int_eq(r->grad_reduce_in_fp32, TRI_OFF);
	ck_assert_str_eq(r->main_grads_dtype, "bf16");
	ck_assert_str_eq(r->flex_backend, "hybridep");
	/* Main's llama recipes nest the model; 0.6.0's do not. */
	ck_assert(recipe("main", "llama3_8b_pretrain_config")->nested);
	ck_assert(!recipe("0.6.0", "llama3_8b_pretrain_config")->nested);
	/* Recipes that leave comm_overlap None. */
	ck_assert(!recipe("main", "llama32_1b_pretrain_config")->comm_overlap);
	ck_assert(!recipe("0.6.0", "glm45_355b_pretrain_config")->comm_overlap);
	ck_assert(recipe("0.6.0", "qwen3_30b_a3b_pretrain_config")->
	    comm_overlap);
	/* glm45_355b: first/last 10/10 on main only. */
	ck_assert_int_eq(recipe("main", "glm45_355b_pretrain_config")->
	    first_stage_layers, 10);
	ck_assert_int_eq(recipe("0.6.0", "glm45_355b_pretrain_config")->
	    first_stage_layers, 0);
	/* A near miss is suggested. */
	ck_assert_str_eq(bridge_recipe_suggest(bridge_target_find("0.6.0"),
	    "llama3_8b_pretrain_cfg"), "llama3_8b_pretrain_config");
}
END_TEST

/* What recipe-rules.tsv adds: how run_recipe.py runs a recipe, whether it
 * saves checkpoints, whether its model ties its embeddings. */
START_TEST(test_recipe_rules)
{
	const struct bridge_recipe	*r;

	/* A benchmark recipe, and a library name both packages have (its
	 * benchmark definition runs: recipe_metadata.py:52). */
	r = recipe("0.6.0", "deepseek_v3_pretrain_256gpu_b200_bf16_config");
	ck_assert(r->benchmark && !bridge_recipe_twin(r));
	ck_assert(!r->checkpoints);
	r = recipe("0.6.0", "qwen3_30b_a3b_pretrain_16gpu_h100_bf16_config");
	ck_assert_str_eq(r->kind, "library");
	ck_assert(r->benchmark && bridge_recipe_twin(r));
	ck_assert(!r->checkpoints);
	/* Main adds names to that list. */
	ck_assert(!recipe("0.6.0",
	    "nemotron_3_nano_pretrain_8gpu_gb200_bf16_config")->benchmark);
	ck_assert(recipe("main",
	    "nemotron_3_nano_pretrain_8gpu_gb200_bf16_config")->benchmark);
	/* Library recipes save (recipes/common.py), but a few. */
	ck_assert(recipe("0.5.1", "llama3_8b_pretrain_config")->checkpoints);
	ck_assert(recipe("main", "llama3_8b_pretrain_config")->checkpoints);
	ck_assert(!recipe("0.6.0", "glm52_sft_608gpu_h100_bf16_200k_config")->
	    checkpoints);
	ck_assert(!recipe("0.5.1", "llama3_8b_pretrain_config")->benchmark);
	/* Ties: the bare GPTModelProvider's default, OLMoE's, a family
	 * bridge's, and a Hugging Face config's (not known here). */
	ck_assert_int_eq(recipe("0.5.1", "vanilla_gpt_pretrain_config")->
	    tie_embeddings, TRI_ON);
	ck_assert_int_eq(recipe("main", "vanilla_gpt_pretrain_config")->
	    tie_embeddings, TRI_ON);
	ck_assert_int_eq(recipe("0.6.0", "olmoe_7b_pretrain_config")->
	    tie_embeddings, TRI_OFF);
	ck_assert_int_eq(recipe("0.6.0", "gpt_oss_20b_pretrain_config")->
	    tie_embeddings, TRI_OFF);
	ck_assert_int_eq(recipe("0.5.1", "moonlight_16b_sft_config")->
	    tie_embeddings, TRI_OFF);
	ck_assert_int_eq(recipe("0.6.0", "qwen25_7b_pretrain_config")->
	    tie_embeddings, TRI_UNSET);
	/* The model a recipe builds from its own shapes (recipe-rules.tsv
	 * "model"): the Nano's pretraining and Lightning recipes, on every
	 * version that has them; not the Nano 4B's, another model. */
	ck_assert_str_eq(recipe("0.5.1", "nemotron_3_nano_pretrain_config")->
	    hf_model, "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
	ck_assert_str_eq(recipe("main",
	    "nemotron_3_nano_pretrain_8gpu_b200_fp8mx_config")->hf_model,
	    "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
	ck_assert_str_eq(recipe("0.6.0",
	    "nemotron_3_5_lightning_pretrain_8gpu_gb200_bf16_config")->hf_model,
	    "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
	ck_assert_ptr_null(recipe("0.6.0",
	    "nemotron_3_nano_4b_pretrain_config")->hf_model);
	/* Where recipes save, per version. */
	ck_assert_str_eq(bridge_target_find("0.5.1")->checkpoint_dir,
	    "nemo_experiments/default/checkpoints");
	ck_assert_ptr_nonnull(strstr(bridge_target_find("main")->
	    checkpoint_base, "checkout"));
}
END_TEST

/*
 * What a recipe trains, by its name as run_recipe.py infers it, whether
 * its run loads pretrained weights, and its LoRA adapters: library
 * recipes of 0.6.0, and the benchmark recipes of the published runs.
 */
START_TEST(test_finetune)
{
	const struct bridge_target	*t = bridge_target_find("0.6.0");
	const struct bridge_recipe	*r;
	struct lora			 l;

	r = bridge_recipe_find(t, "llama3_70b_pretrain_config");
	ck_assert_int_eq(bridge_recipe_task(r), BRIDGE_PRETRAIN);
	ck_assert(!bridge_recipe_needs_pretrained(r));
	ck_assert(!bridge_recipe_lora(r, &l));

	r = bridge_recipe_find(t, "llama3_70b_sft_config");
	ck_assert_int_eq(bridge_recipe_task(r), BRIDGE_SFT);
	ck_assert(bridge_recipe_needs_pretrained(r));
	ck_assert(!bridge_recipe_lora(r, &l));
	/* A benchmark SFT recipe runs as pretraining. */
	r = bridge_recipe_find(t, "llama3_70b_sft_32gpu_gb200_bf16_config");
	ck_assert_int_eq(bridge_recipe_task(r), BRIDGE_SFT);
	ck_assert(!bridge_recipe_needs_pretrained(r));

	r = bridge_recipe_find(t, "llama3_70b_peft_config");
	ck_assert_int_eq(bridge_recipe_task(r), BRIDGE_LORA);
	ck_assert(bridge_recipe_needs_pretrained(r));
	ck_assert(bridge_recipe_lora(r, &l));
	ck_assert_int_eq(l.rank, 16);
	ck_assert_uint_eq(l.targets, LORA_ALL);
	/* The published runs' recipes: linear_qkv alone. */
	r = bridge_recipe_find(t, "llama3_70b_peft_8gpu_gb300_fp8cs_config");
	ck_assert(bridge_recipe_needs_pretrained(r));
	ck_assert(bridge_recipe_lora(r, &l));
	ck_assert_int_eq(l.rank, 16);
	ck_assert_uint_eq(l.targets, LORA_QKV);
	r = bridge_recipe_find(t, "llama3_8b_peft_config");
	ck_assert(bridge_recipe_lora(r, &l));
	ck_assert_int_eq(l.rank, 8);
	/* A PEFT recipe whose adapters are not in the table. */
	r = bridge_recipe_find(t, "qwen3_8b_peft_config");
	ck_assert_ptr_nonnull(r);
	ck_assert(bridge_recipe_needs_pretrained(r));
	ck_assert(!bridge_recipe_lora(r, &l));
	ck_assert_int_eq(l.rank, 0);

	ck_assert(bridge_dataset_pretrain(t, "mock"));
	ck_assert(!bridge_dataset_pretrain(t, "squad"));
	ck_assert(bridge_dataset_pretrain(bridge_target_find("0.5.1"),
	    "llm-pretrain-mock"));
	ck_assert(!bridge_dataset_pretrain(bridge_target_find("0.5.1"),
	    "llm-finetune"));
}
END_TEST

/* The name of the one recipe VERSION picks for the model HF, or NULL. */
static const char *
picked(const char *version, const char *hf)
{
	const struct bridge_recipe	*c[4];

	if (bridge_recipe_pick(bridge_target_find(version), hf, NULL, c, 4) != 1)
		return NULL;
	return c[0]->name;
}

/*
 * The recipe a model picks: its base pretraining recipe, not the longer
 * sequence, precision or GPU-count variants, nor a benchmark one.
 */
START_TEST(test_pick)
{
	static const struct bridge_recipe rows[] = {
		{ .name = "m_1b_pretrain_config", .kind = "library",
		  .hf_model = "org/M" },
		{ .name = "m_1b_16k_pretrain_config", .kind = "library",
		  .hf_model = "org/M" },
		{ .name = "m_1b_pretrain_8gpu_h100_bf16_config",
		  .kind = "library", .hf_model = "org/M" },
		{ .name = "m_1b_sft_config", .kind = "library",
		  .hf_model = "org/M" },
		{ .name = "n_pretrain_config", .kind = "benchmark",
		  .hf_model = "org/N" },
		{ .name = "x_1b_pretrain_config", .kind = "library",
		  .hf_model = "org/X" },
		{ .name = "y_1b_pretrain_config", .kind = "library",
		  .hf_model = "org/X" },
		{ .name = NULL },
	};
	const struct bridge_target	 t = { .name = "test", .recipes = rows };
	const struct bridge_recipe	*c[1];

	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/M", NULL, c, 1), 1);
	ck_assert_str_eq(c[0]->name, "m_1b_pretrain_config");
	/* Benchmark recipes are not picked; nor is a model no row builds. */
	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/N", NULL, c, 1), 0);
	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/Z", NULL, c, 1), 0);
	ck_assert_uint_eq(bridge_recipe_pick(&t, NULL, NULL, c, 1), 0);
	/* Two stems, neither the other's variant: both counted, the
	 * first MAX returned. */
	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/X", NULL, c, 1), 2);
	ck_assert_str_eq(c[0]->name, "x_1b_pretrain_config");
	/* Of those, the one named for the preset ("y-1b", "y.1b"). */
	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/X", "y-1b", c, 1), 1);
	ck_assert_str_eq(c[0]->name, "y_1b_pretrain_config");
	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/X", "y.1b", c, 1), 1);
	ck_assert_str_eq(c[0]->name, "y_1b_pretrain_config");
	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/X", "z-1b", c, 1), 2);
	ck_assert_uint_eq(bridge_recipe_pick(&t, "org/X", "y-1", c, 1), 2);

	/* The tables of each version. */
	ck_assert_str_eq(picked("0.6.0", "meta-llama/Meta-Llama-3-70B"),
	    "llama3_70b_pretrain_config");
	ck_assert_str_eq(picked("0.6.0", "meta-llama/Meta-Llama-3-8B"),
	    "llama3_8b_pretrain_config");
	ck_assert_str_eq(picked("main", "meta-llama/Meta-Llama-3-8B"),
	    "llama3_8b_pretrain_config");
	ck_assert_str_eq(picked("0.5.1", "Qwen/Qwen3-235B-A22B"),
	    "qwen3_235b_a22b_pretrain_config");
	ck_assert_str_eq(picked("0.6.0", "moonshotai/Kimi-K2-Instruct"),
	    "kimi_k2_pretrain_config");
	ck_assert_ptr_null(picked("0.5.1", "moonshotai/Kimi-K2-Instruct"));
	ck_assert_ptr_null(picked("0.6.0", "allenai/OLMoE-1B-7B-0924"));
}
END_TEST

static Suite *
bridge_suite(void)
{
	Suite	*su = suite_create("bridge");
	TCase	*tc = tcase_create("bridge");

	tcase_add_test(tc, test_targets);
	tcase_add_test(tc, test_recipes);
	tcase_add_test(tc, test_recipe_rules);
	tcase_add_test(tc, test_finetune);
	tcase_add_test(tc, test_pick);
	suite_add_tcase(su, tc);
	return su;
}

int
main(void)
{
	return run_suite(bridge_suite());
}
