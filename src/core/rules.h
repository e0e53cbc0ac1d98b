/*
 * rules.h: the training-configuration rules Megatron enforces beyond the
 * layout's sizes (sizing.h): MoE with TP, sequence parallel and the
 * sequence length, the MoE all-to-all overlap, pipeline overlap modes,
 * the parameter-gather overlap, the interleaved schedule's micro-batches,
 * the precision-aware optimizer, FP8, requeue checkpoints and a recipe's
 * checkpoint directory shared by other runs, Megatron-FSDP.  Each rule
 * names, beside its code, where Megatron-LM (core_v0.19.0 / main) checks
 * it.  Pure: findings are appended to a struct sizing.
 */
#ifndef MBSBATCH_RULES_H
#define MBSBATCH_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "launchenv.h"
#include "sizing.h"

struct rules_input {
	const struct sizing_input *in;	/* layout, model, batch, dtypes */
	enum moe_dispatcher	 dispatcher;
	bool			 moe_a2a_overlap;
	bool			 a2a_from_recipe;	/* the recipe's own */
	bool			 fp8;		/* FP8 training */
	bool			 fp8_param_gather;
	int			 cc_major;	/* the GPU's compute
						 * capability; 0: unknown */
	bool			 requeue;
	bool			 checkpoint;	/* a checkpoint directory */
	bool			 recipe;	/* a Megatron-Bridge recipe runs */
	bool			 recipe_checkpoints; /* it saves checkpoints
						   of its own (no directory
						   given) */
	bool			 save_interval;	/* periodic saves asked for */
	bool			 own_checkpoints; /* the job saves and loads in
						   a directory of its own
						   (--checkpoint-dir, or the
						   overrides of both) */
	const char		*recipe_checkpoint_dir;	/* where a recipe
						   that saves checkpoints
						   saves them, and */
	const char		*recipe_checkpoint_base; /* what that is
						   relative to, in words */
	bool			 pretrained_unseen; /* the pretrained
						   checkpoint given is not
						   a directory here */
	bool			 exit_handler;	/* the target saves at the
						   signal (not Bridge 0.5.1) */
	bool			 megatron_lm;	/* Megatron-LM's validate_args
						   runs (its template) */
	bool			 local_graphs_refused; /* the Bridge that
						   runs refuses per-layer
						   local CUDA graphs */
	bool			 distributed_optimizer_off; /* asked off
						   (FSDP turns it on) */
	const char		*ckpt_format;	/* the user's override of the
						   checkpoint format, or
						   NULL (borrowed) */
};

/* Check every rule, appending findings (and skipped rules) to S, which
 * sizing_compute() filled; ENV holds the overlap flags that will run
 * (NULL: the rules on them are not checked). */
void	rules_check(const struct rules_input *, const struct launchenv *,
	    struct sizing *);

/* The rules of a hybrid model (rules-hybrid.c), part of rules_check(). */
void	rules_hybrid(const struct rules_input *, struct sizing *);

/* Each finding code rules_check() can produce; NULL-terminated. */
extern const char *const rules_codes[];

#endif
