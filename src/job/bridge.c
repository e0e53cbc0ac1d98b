/*
 * bridge.c: the Megatron-Bridge versions and their recipes; see bridge.h.
 *
 * Each row was read off that version's own code (data/megatron/README.md):
 * run_recipe.py's parser for the dataset names, the ConfigContainer
 * fields for the override paths, the recipe functions for the recipe
 * tables (generated into bridge-recipes.c).
 */
#include <stddef.h>
#include <string.h>

#include "bridge.h"
#include "suggest.h"

extern const struct bridge_recipe bridge_recipes_0_5_1[];
extern const struct bridge_recipe bridge_recipes_0_6_0[];
extern const struct bridge_recipe bridge_recipes_main[];

/* run_recipe.py --dataset choices (scripts/training/run_recipe.py). */
static const char *const datasets_0_5_1[] = {
	"llm-pretrain", "llm-pretrain-mock", "llm-finetune",
	"llm-finetune-preloaded", "vlm-energon", "vlm-hf", "vlm-preloaded",
	NULL
};
static const char *const datasets_0_6_0[] = {
	"cord-v2", "gsm8k", "llava-video-178k", "local-jsonl", "local-vlm",
	"medpix", "megatron-indexed", "mock", "openmathinstruct2",
	"openmathinstruct2-thinking", "raven", "rdr", "squad", "tulu3", NULL
};
static const char *const datasets_main[] = {
	"cord-v2", "energon", "gsm8k", "llava-video-178k", "local-jsonl",
	"local-vlm", "medpix", "megatron-indexed", "mock",
	"openmathinstruct2", "openmathinstruct2-thinking", "raven", "rdr",
	"squad", "tulu3", NULL
};

/*
 * The --dataset names whose config is a GPTDatasetConfig, which makes the
 * run a pretraining one: 0.5.1 dataset_utils.py infer_mode_from_dataset
 * (275-279: an "llm-pretrain" prefix); 0.6.0 and main dataset_train_mode
 * (0.6.0 541-543, main 603; the presets at 0.6.0 481-482, main 542-543),
 * which run_recipe.py (0.6.0 439) holds against the recipe's mode.
 */
static const char *const pretrain_datasets_0_5_1[] = {
	"llm-pretrain", "llm-pretrain-mock", NULL
};
static const char *const pretrain_datasets_0_6_0[] = {
	"megatron-indexed", "mock", NULL
};

const struct bridge_target bridge_targets[] = {
	{
		.name = "0.5.1",
		.revision = "5cb3444c43f7499cf3872b2d46870cf8bc2e00ce",
		.recipes = bridge_recipes_0_5_1,
		.datasets = datasets_0_5_1,
		.mock_dataset = "llm-pretrain-mock",
		/* GPTDatasetConfig.seq_length is a property in 0.5.1. */
		.dataset_seq_key = "dataset.sequence_length",
		.pretrain_datasets = pretrain_datasets_0_5_1,
		/* config-fields.tsv: CheckpointConfig. */
		.pretrained_key = "checkpoint.pretrained_checkpoint",
		.ln_margin_rule = true,
		.exit_handler = false,
		/* cuda_graph_impl=local: no check in 0.5.1's
		 * training/config.py. */
		.local_cuda_graphs = true,
		/* recipe-rules.tsv: recipes/common.py:47-49, 116-119. */
		.checkpoint_dir = "nemo_experiments/default/checkpoints",
		.checkpoint_base = "the job's working directory",
	},
	{
		.name = "0.6.0",
		.revision = "51885cf132b2814188b6855c25a8588254274c2a",
		.recipes = bridge_recipes_0_6_0,
		.datasets = datasets_0_6_0,
		.mock_dataset = "mock",
		.dataset_seq_key = "dataset.seq_length",
		.pretrain_datasets = pretrain_datasets_0_6_0,
		.pretrained_key = "checkpoint.pretrained_checkpoint",
		.ln_margin_rule = false,
		.exit_handler = true,
		/* cuda_graph_impl=local only for full-iteration graphs:
		 * utils/cuda_graph.py:148, from training/config.py:1255. */
		.local_cuda_graphs = false,
		/* recipe-rules.tsv: recipes/common.py:47-49, 117-120,
		 * under the directory run_recipe.py:459 changes to. */
		.checkpoint_dir = "nemo_experiments/default/checkpoints",
		.checkpoint_base = "the Megatron-Bridge checkout, which run_recipe.py "
		    "changes to",
	},
	{
		.name = "main",
		.revision = "067f987df03b8355b03192d88d70f1709fedf51a",
		.recipes = bridge_recipes_main,
		.datasets = datasets_main,
		.mock_dataset = "mock",
		.dataset_seq_key = "dataset.seq_length",
		.pretrain_datasets = pretrain_datasets_0_6_0,
		.pretrained_key = "checkpoint.pretrained_checkpoint",
		.ln_margin_rule = false,
		.exit_handler = true,
		/* cuda_graph_impl=local only for full-iteration graphs:
		 * utils/cuda_graph.py:148, from training/config.py:1399. */
		.local_cuda_graphs = false,
		/* recipe-rules.tsv: recipes/common.py:47-49, 117-120,
		 * under the directory run_recipe.py:460 changes to. */
		.checkpoint_dir = "nemo_experiments/default/checkpoints",
		.checkpoint_base = "the Megatron-Bridge checkout, which run_recipe.py "
		    "changes to",
	},
	{ .name = NULL }
};

const struct bridge_target *
bridge_target_find(const char *name)
{
	const struct bridge_target	*t;

	if (name == NULL)
		name = BRIDGE_DEFAULT;
	for (t = bridge_targets; t->name != NULL; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

const struct bridge_recipe *
bridge_recipe_find(const struct bridge_target *t, const char *name)
{
	const struct bridge_recipe	*r;

	for (r = t->recipes; r->name != NULL; r++)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

const char *
bridge_recipe_suggest(const struct bridge_target *t, const char *name)
{
	const struct bridge_recipe	*r;
	const char			*best = NULL;
	int				 d, bestd = 4;

	size_t				 n = strlen(name);

	for (r = t->recipes; r->name != NULL; r++)
		if ((d = suggest_distance(name, r->name)) < bestd) {
			bestd = d;
			best = r->name;
		}
	/* "llama3_8b_pretrain": the recipe it begins, with "_config". */
	for (r = t->recipes; best == NULL && r->name != NULL; r++)
		if (strncmp(r->name, name, n) == 0 && (strcmp(r->name + n,
		    "_config") == 0 || strcmp(r->name + n, "_pretrain_config")
		    == 0))
			best = r->name;
	return best;
}

bool
bridge_recipe_twin(const struct bridge_recipe *r)
{
	return r->benchmark && strcmp(r->kind, "benchmark") != 0;
}

/*
 * The dataset name to write for NAME: NAME when the version has it;
 * its mock dataset for either version's name of one ("mock",
 * "llm-pretrain-mock"); else NULL.
 */
const char *
bridge_dataset(const struct bridge_target *t, const char *name)
{
	const char *const	*d;

	for (d = t->datasets; *d != NULL; d++)
		if (strcmp(*d, name) == 0)
			return *d;
	if (strcmp(name, "mock") == 0 || strcmp(name, "llm-pretrain-mock") == 0)
		return t->mock_dataset;
	return NULL;
}

enum bridge_task
bridge_recipe_task(const struct bridge_recipe *r)
{
	static const struct {
		const char		*part;
		enum bridge_task	 task;
	} parts[] = {
		{ "_pretrain_", BRIDGE_PRETRAIN },
		{ "_sft_", BRIDGE_SFT },
		{ "_finetune_", BRIDGE_SFT },
		{ "_dora_", BRIDGE_LORA },
		{ "_peft_", BRIDGE_LORA },
		{ "_lora_", BRIDGE_LORA },
	};
	size_t	 i;

	/* The name ends in "_config": every part is inside it. */
	for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (strstr(r->name, parts[i].part) != NULL)
			return parts[i].task;
	return BRIDGE_PRETRAIN;
}

/*
 * A LoRA run loads its base weights before it wraps the model: the
 * config refuses PEFT without checkpoint.pretrained_checkpoint (0.5.1
 * training/config.py:1364, 0.6.0 1483, main 1627) and setup's PEFT hook
 * without a checkpoint there (training/setup.py: 0.5.1 473, 0.6.0 613,
 * main 678).  SFT runs
 * finetune(), which asserts a pretrained checkpoint or checkpoint.load
 * (training/finetune.py:50, every version), except a benchmark recipe's:
 * run_recipe.py runs those as pretraining (execution_mode "pretrain",
 * 0.6.0 run_recipe.py:505, main 506) from random weights.
 */
bool
bridge_recipe_needs_pretrained(const struct bridge_recipe *r)
{
	switch (bridge_recipe_task(r)) {
	case BRIDGE_LORA:
		return true;
	case BRIDGE_SFT:
		return !r->benchmark;
	default:
		return false;
	}
}

bool
bridge_dataset_pretrain(const struct bridge_target *t, const char *name)
{
	const char *const	*d;

	for (d = t->pretrain_datasets; *d != NULL; d++)
		if (strcmp(*d, name) == 0)
			return true;
	return false;
}
