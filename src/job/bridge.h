/*
 * bridge.h: the Megatron-Bridge versions mbsbatch writes scripts for, and
 * what each of their recipes sets.
 *
 * Everything that differs between Bridge versions (dataset names, override
 * paths, how a recipe's None section or precision preset is written, the
 * launch-environment rules) is a field of struct bridge_target, one row
 * per version, never an "if" on a version name elsewhere.  The recipe
 * tables are generated at build time from data/megatron/.../recipes.tsv,
 * facts read off each version's own recipe functions (data/megatron/
 * README.md says how and at which revision).  Pure: no I/O.
 */
#ifndef MBSBATCH_BRIDGE_H
#define MBSBATCH_BRIDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sizing.h"

/* A recipe's parallel sizes; 0 where the recipe leaves one unset. */
struct bridge_sizes {
	int64_t	 tp, pp, cp, ep, etp, vpp;
};

/*
 * What one recipe function returns, before run_recipe.py applies --dataset
 * and the overrides.  Strings are NULL and numbers 0 where the recipe
 * leaves the value None.
 */
struct bridge_recipe {
	const char	*name;		/* "llama3_70b_pretrain_config" */
	const char	*kind;		/* library, library-h100, benchmark */
	bool		 partial;	/* read from source, not run: the
					   values below may be incomplete */
	bool		 nested;	/* model.transformer.* (Bridge main) */
	const char	*hf_model;	/* "meta-llama/Meta-Llama-3-70B" */

	struct bridge_sizes sizes;
	enum tristate	 sp;

	int64_t		 model_seq_length, dataset_seq_length;
	int64_t		 global_batch, micro_batch;

	int64_t		 first_stage_layers, last_stage_layers;
	bool		 pipeline_layout;	/* an explicit layout */
	enum tristate	 account_for_embedding, account_for_loss;

	const char	*recompute_granularity;	/* "full", "selective" */
	const char	*recompute_method;
	int64_t		 recompute_num_layers;
	const char	*recompute_modules;	/* "['mla_up_proj', ...]" */

	const char	*mixed_precision;	/* a preset name, or "custom" */
	const char	*mixed_precision_detail;	/* "bf16=true fp8=..." */
	enum tristate	 grad_reduce_in_fp32;	/* the value that wins */

	enum tristate	 distributed_optimizer;
	enum tristate	 precision_aware_optimizer;
	const char	*exp_avg_dtype, *exp_avg_sq_dtype;
	const char	*main_grads_dtype, *main_params_dtype;

	bool		 comm_overlap;		/* the section is set */
	const char	*comm_overlap_fields;	/* "tp_comm_overlap=true ..." */

	const char	*dispatcher;		/* "alltoall", "flex", ... */
	const char	*flex_backend;		/* "deepep", "hybridep" */
	int64_t		 num_moe_experts;
	int64_t		 mtp_num_layers;
	enum tristate	 exit_signal_handler;

	const char	*env_vars;		/* "NAME=value NAME=value" */

	/* From recipe-rules.tsv (data/megatron/README.md): */
	bool		 benchmark;	/* run_recipe.py runs it as a benchmark
					   recipe (kind "benchmark", or a
					   library name both packages export,
					   whose benchmark definition runs) */
	bool		 checkpoints;	/* it saves checkpoints (to the
					   target's checkpoint_dir) */
	enum tristate	 tie_embeddings;	/* its model shares the
					   embedding with the output layer;
					   TRI_UNSET: not known here (a
					   Hugging Face config's) */
};

/*
 * What a recipe trains, as run_recipe.py infers it from the recipe's name
 * (0.6.0 scripts/training/recipe_metadata.py:189-200, main 214-225;
 * 0.5.1 run_recipe.py infer_train_mode): "_pretrain_", "_sft_" (or
 * "_finetune_"), "_peft_" or "_lora_" (LoRA), "_dora_" (DoRA).
 */
enum bridge_task {
	BRIDGE_PRETRAIN,
	BRIDGE_SFT,		/* full fine-tuning */
	BRIDGE_LORA,		/* adapters on frozen weights: LoRA, DoRA */
};

/* One Megatron-Bridge version: what differs from the others. */
struct bridge_target {
	const char		*name;		/* "0.6.0", as --bridge-version */
	const char		*revision;	/* the upstream commit read */
	const struct bridge_recipe *recipes;	/* NULL-name terminated */
	const char *const	*datasets;	/* run_recipe.py --dataset */
	const char		*mock_dataset;	/* the mock pretraining data */
	const char		*dataset_seq_key;	/* "dataset.seq_length" */
	const char *const	*pretrain_datasets;	/* the --dataset names
						   that make a pretraining
						   run (NULL-terminated) */
	const char		*pretrained_key;	/* the override of the
						   weights fine-tuning
						   starts from */
	bool			 ln_margin_rule;	/* 20 with DeepEP/HybridEP,
						   else 16 (0.5.1's plugin) */
	bool			 exit_handler;	/* train.exit_signal_handler
						   works (not in 0.5.1) */
	bool			 local_cuda_graphs; /* trains under
						   cuda_graph_impl=local
						   (only 0.5.1) */
	/* Where a recipe that saves checkpoints saves them (its
	 * checkpoint.save and .load), and relative to what. */
	const char		*checkpoint_dir;
	const char		*checkpoint_base;
};

/* The default target: the newest release. */
#define BRIDGE_DEFAULT	"0.6.0"

/* Every target, NULL-name terminated, oldest first. */
extern const struct bridge_target bridge_targets[];

/* The target called NAME (NULL: the default), or NULL. */
const struct bridge_target	*bridge_target_find(const char *);

/* T's recipe called NAME, or NULL; a near miss for an error, or NULL. */
const struct bridge_recipe	*bridge_recipe_find(const struct bridge_target *,
				    const char *);
const char			*bridge_recipe_suggest(
				    const struct bridge_target *, const char *);

/*
 * The pretraining recipes of T for the model whose Hugging Face name is
 * HF and whose preset is called NAME (may be NULL) (bridge-pick.c): its
 * base recipe, "<model>_pretrain_config", less the variants of it; of
 * several, the one named for the preset.  The first MAX go to OUT;
 * returns how many there are (0 for none, or HF NULL; more than 1: no
 * one answer).
 */
size_t				 bridge_recipe_pick(const struct bridge_target *,
				    const char *, const char *,
				    const struct bridge_recipe **, size_t);

/* Does run_recipe.py run R as the benchmark recipe of its name while the
 * table holds the library recipe's values (a name both packages export)? */
bool				 bridge_recipe_twin(const struct bridge_recipe *);

/* Why the memory estimate does not apply to the recipe called NAME (it
 * shards or offloads what the estimate counts: bridge-unsized.c), a
 * static string; NULL when it does. */
const char			*bridge_recipe_unsized(const char *);

/* What the recipe R trains (by its name, as run_recipe.py infers it). */
enum bridge_task		 bridge_recipe_task(const struct bridge_recipe *);

/* Does the run of R load the weights it starts from (a pretrained
 * checkpoint), so that one must be given? */
bool				 bridge_recipe_needs_pretrained(
				    const struct bridge_recipe *);

/* The LoRA adapters the PEFT recipe R trains (bridge-lora.c): true
 * with OUT filled; false (OUT zero) when R is no LoRA recipe or its
 * adapters are not known here. */
bool				 bridge_recipe_lora(const struct bridge_recipe *,
				    struct lora *);

/* Is NAME (a --dataset T knows) pretraining data? */
bool				 bridge_dataset_pretrain(
				    const struct bridge_target *, const char *);

/* The --dataset name T knows for NAME (the mock names of either version
 * map to T's), or NULL. */
const char			*bridge_dataset(const struct bridge_target *,
				    const char *);

#endif
