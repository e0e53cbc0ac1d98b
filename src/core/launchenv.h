/*
 * launchenv.h: the launch-time environment and communication-overlap
 * settings of a Megatron run (docs/megatron-rules.md sections 3 and 4,
 * from Megatron-Bridge's scripts/performance and comm_overlap.py).
 *
 * These must be set before the processes start: set from Python inside
 * the run they do nothing (Megatron-Bridge PR 925).  Every value
 * mbsbatch chooses can be overridden, and each carries where it came
 * from, for "plan" to show.  Pure: no I/O, no allocation.
 */
#ifndef MBSBATCH_LAUNCHENV_H
#define MBSBATCH_LAUNCHENV_H

#include <stdbool.h>
#include <stdint.h>

#include "sizing.h"

struct launchenv_input {
	struct layout		 layout;
	int64_t			 dp;		/* 0 when not whole */
	const char		*gpu_type;	/* "h100", or NULL: unknown */
	bool			 moe;
	enum moe_dispatcher	 dispatcher;
	bool			 moe_a2a_overlap;
	bool			 distributed_optimizer;
	bool			 fsdp;		/* Megatron-FSDP */

	/* The user's choices; 0 / TRI_UNSET / -1 leave it to the rules. */
	int64_t			 cuda_device_max_connections;
	int64_t			 layernorm_sm_margin;	/* -1: unset */
	enum tristate		 tp_comm_overlap;
	enum tristate		 overlap_p2p_comm;
	enum tristate		 batch_p2p_comm;
	enum tristate		 overlap_grad_reduce;
	enum tristate		 overlap_param_gather;
	enum tristate		 align_param_gather;
	int64_t			 ddp_bucket_size;	/* 0: unset */

	/*
	 * What the target does: Megatron-LM and Bridge 0.5.1 take the
	 * layernorm SM margin rule; Bridge 0.6.0 and main take the
	 * recipe's environment ("NAME=value ...", static, or NULL), which
	 * run_recipe.py would apply with setdefault.  LAYOUT_GIVEN: the
	 * user changed TP, CP, EP, the dispatcher, the MoE overlap or the
	 * GPUs, so the recipe's CUDA_DEVICE_MAX_CONNECTIONS and HybridEP
	 * topology no longer hold (they are computed instead).
	 */
	bool			 ln_margin_rule;
	const char		*recipe_env;
	bool			 layout_given;
	int64_t			 nvlink_domain;	/* GPUs, for HybridEP */
	int64_t			 gpus_per_node;

	/* --env NAME=value, applied last, in order; borrowed. */
	const char *const	*user_env;
	int			 nuser_env;

	/* Where the user's values came from, for "plan" (static). */
	const char		*user_origin;	/* "given (command line)" */
	/* The recipe's, when TP overlap or the MoE overlap came from it. */
	bool			 tp_overlap_recipe, a2a_overlap_recipe;
};

#define LAUNCHENV_MAX_VARS	64
#define LAUNCHENV_VALUE_MAX	32

struct launch_var {
	const char	*name;		/* static, or borrowed from user_env */
	int		 name_len;
	const char	*value;		/* into buf, or borrowed */
	char		 buf[LAUNCHENV_VALUE_MAX];
	const char	*origin;	/* static: why this value */
};

/* A communication-overlap setting: its config key and value. */
struct launch_flag {
	const char	*key;		/* "comm_overlap.tp_comm_overlap" */
	const char	*mlm_flag;	/* "--tp-comm-overlap", or NULL */
	bool		 on;
	const char	*origin;
};

#define LAUNCHENV_MAX_FLAGS	10

struct launchenv {
	struct launch_var	 vars[LAUNCHENV_MAX_VARS];
	int			 nvars;
	struct launch_flag	 flags[LAUNCHENV_MAX_FLAGS];
	int			 nflags;
	int64_t			 ddp_bucket_size;	/* 0: not set */
	const char		*ddp_bucket_origin;
};

void		 launchenv_input_init(struct launchenv_input *);

/*
 * Compute the environment and the overlap settings.  Returns NULL, or a
 * static reason when a --env entry is malformed (the CLI checks them
 * first, so this is a programming error guard).
 */
const char	*launchenv_compute(const struct launchenv_input *,
		    struct launchenv *);

/* The value of NAME in ENV, or NULL. */
const char	*launchenv_get(const struct launchenv *, const char *);

#endif
