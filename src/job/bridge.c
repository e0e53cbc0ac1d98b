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

const struct bridge_target bridge_targets[] = {
	{
		.name = "0.5.1",
		.revision = "5cb3444c43f7499cf3872b2d46870cf8bc2e00ce",
		.recipes = bridge_recipes_0_5_1,
		.datasets = datasets_0_5_1,
		.mock_dataset = "llm-pretrain-mock",
		/* GPTDatasetConfig.seq_length is a property in 0.5.1. */
		.dataset_seq_key = "dataset.sequence_length",
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
