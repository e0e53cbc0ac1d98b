/*
 * plan.h: a job resolved once for rendering: every value the script's
 * context, the Megatron-Bridge overrides, the Megatron-LM arguments and
 * the plan report read, decoded from the settings layers into typed
 * fields, beside the figures job_figure() computed.  The renderers
 * (src/render/) take a const struct plan * and never ask the job again.
 */
#ifndef MBSBATCH_PLAN_H
#define MBSBATCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calibration.h"
#include "job.h"

/* A number setting: whether it has a value (at any layer) and which. */
struct plan_int {
	bool		 set;
	int64_t		 v;
};

struct plan_real {
	bool		 set;
	double		 v;
};

/* The architecture settings the Bridge overrides write when the user
 * gave them over the recipe's model. */
enum plan_arch {
	PLAN_ARCH_NUM_LAYERS,
	PLAN_ARCH_HIDDEN_SIZE,
	PLAN_ARCH_FFN_HIDDEN_SIZE,
	PLAN_ARCH_NUM_ATTENTION_HEADS,
	PLAN_ARCH_NUM_QUERY_GROUPS,
	PLAN_ARCH_NUM_EXPERTS,
	PLAN_ARCH_MOE_ROUTER_TOPK,
	PLAN_ARCH_MOE_FFN_HIDDEN_SIZE,
	PLAN_ARCH_N
};

/*
 * Which settings the user gave above the recipe layer (a profile, the
 * job file, an option: not the recipe's own value, nor a default): the
 * Bridge overrides write only those.
 */
struct plan_given {
	struct plan_int	 arch[PLAN_ARCH_N];	/* set: given; v: its value */
	bool		 seq_length, global_batch, micro_batch;
	bool		 params_dtype, grads_dtype, optimizer_dtype;
	bool		 fp8, fp8_param_gather;
	bool		 distributed_optimizer, recompute, dispatcher;
	bool		 cuda_graphs;
};

/* Which choice settings hold the recipe's own value (given again, or
 * not given at all); all false without a recipe. */
struct plan_same_as_recipe {
	bool		 params_dtype, grads_dtype, optimizer_dtype, fp8;
};

/*
 * The plan.  Its strings and pointers are borrowed from the job and the
 * figures it was resolved from (both must outlive it) or static; nothing
 * in it is owned, so it needs no release.
 */
struct plan {
	const struct job_figures	*fig;	/* sizing, env, Slurm, cost;
						   NULL: not sized */
	const struct sizing_input	*in;	/* layout, model, batch */
	const struct bridge_target	*bridge;
	const struct bridge_recipe	*recipe;	/* or NULL */
	bool				 recipe_layout;	/* its layout runs */
	bool				 recipe_from_model; /* the model's,
						   none being given */
	const char			*recipe_missing; /* no recipe: why
						   the model has no one
						   (job.c), or NULL */

	/* Launch. */
	enum launcher			 launcher;	/* srun unless given */
	const char			*launcher_word;
	enum template_name		 template;
	const char			*name;		/* job_name() */
	bool				 smoke;		/* job_is_smoke() */
	bool				 strict;

	/* Precision: PRECISION_DEFAULT where unset; FP8_NO for no FP8. */
	enum precision			 params_dtype, grads_dtype;
	enum precision			 optimizer_dtype;
	enum fp8_recipe			 fp8;
	bool				 fp8_param_gather;

	enum moe_dispatcher		 dispatcher;	/* alltoall unless given */
	const char			*dispatcher_word;
	enum recompute			 recompute;	/* none when unset */
	bool				 distributed_optimizer;	/* default on */
	bool				 moe_a2a_overlap;
	bool				 requeue;
	int64_t				 max_restarts;	/* 3 unless given */

	/* Resilience (templates/resilience.sh). */
	bool				 gate;	/* default: several nodes */
	int64_t				 hang_floor;	/* seconds */
	bool				 hang_floor_given;
	int64_t				 stall_restarts;	/* 3 unless
							   given */

	struct plan_int			 train_iters, save_interval;
	struct plan_real		 lr;

	/* String settings, NULL when unset. */
	const char			*train_script;
	const char			*recipe_name;
	const char			*dataset;
	const char			*command;
	const char			*container_image;
	const char			*container_mounts;
	const char			*container_workdir;
	const char			*checkpoint_dir;
	const char			*pretrained_checkpoint;

	const char			*chdir;	/* --chdir, or NULL */
	int64_t				 cpus_per_task;	/* 0: unset */

	/* --setup lines and --srun-opt options, a profile's first. */
	char *const			*setup;
	size_t				 nsetup;
	char *const			*srun_options;
	size_t				 nsrun_options;

	/* The user's --override arguments, in order. */
	char *const			*overrides;
	size_t				 noverrides;

	struct plan_given		 given;
	struct plan_same_as_recipe	 same_as_recipe;

	/* What the reports (report*.c) show beside the figures. */
	const struct model		*model;	/* the model given; NULL:
						   none (architecture
						   options or --model) */
	const char			*cluster;	/* or NULL */
	const struct config		*config;	/* files read, for -v */
	const struct gpu_type		*gpu;		/* or NULL */
	enum interconnect		 interconnect;
	struct calibration		 calibration;	/* the site factor */
	/* The settings as merged, each with its origin, and the recipe's
	 * own layer: what plan -v lists and what report-bridge.c names as
	 * the recipe values replaced.  Reports only; the renderers of the
	 * script read the typed fields above. */
	const struct settings		*set;
	const struct settings		*recipe_set;
	const char *const		*cleared;	/* recipe keys cleared */
	int				 ncleared;
};

/*
 * Resolve JOB, sized as FIG (job_figure()), into P.  Cannot fail: the
 * job was checked when loaded.  P borrows from JOB and FIG.  FIG is NULL
 * for a job that is not sized itself (plan --search sizes candidates):
 * then p->fig is NULL and only report_search_*() may read P.
 */
void		 plan_resolve(struct plan *, const struct job *,
		    const struct job_figures *);

#endif
