/*
 * job.h: a job: the built-in defaults, the cluster profile, the job file
 * and the command line merged in that order of precedence (docs/SPEC.md section
 * 4), the model resolved, and the input of the sizing core derived.
 */
#ifndef MBSBATCH_JOB_H
#define MBSBATCH_JOB_H

#include <stdbool.h>

#include "bridge.h"
#include "config.h"
#include "cost.h"
#include "gpu.h"
#include "launchenv.h"
#include "model-file.h"
#include "settings.h"
#include "sizing.h"
#include "slurmopt.h"

struct error;

/* What the command line says, before any file is read. */
struct job_request {
	const char	*config_path;	/* --config, or NULL */
	const char	*cluster;	/* --cluster, or NULL */
	bool		 new_cluster;	/* --cluster may name a profile
					   not yet written (mbsbatch site):
					   then the job has none */
	const char	*jobfile;	/* JOBFILE, or NULL; "-" is stdin */
	struct settings	 cli;		/* the long options */
};

struct job {
	struct settings		 set;		/* merged, with origins */
	struct config		 config;
	const char		*cluster;	/* profile used, or NULL */
	char			*jobfile;	/* or NULL */
	struct model_file	 model;		/* merged architecture */
	bool			 has_model;	/* any model information */
	char			*presets_dir;
	const struct gpu_type	*gpu;		/* or NULL */
	const char		*gres_type;	/* the site's GRES type of
						   gpu (gres_types), in set;
						   or NULL */
	const struct bridge_target *bridge;	/* the Bridge version */
	const struct bridge_recipe *recipe;	/* its recipe, or NULL */
	bool			 recipe_from_model; /* none was given: the
						   model's (bridge-pick.c) */
	char			*recipe_missing; /* none given, and the
						   model has no one recipe:
						   why (owned), or NULL */
	struct settings		 recipe_set;	/* the recipe's own values */
	bool			 recipe_layout;	/* its explicit layout runs */
	bool			 pretrained_unseen; /* --pretrained-checkpoint
						   is not a directory here */
#define JOB_MAX_CLEARED	8
	const char		*cleared[JOB_MAX_CLEARED]; /* recipe keys the
						   user's choices cleared */
	int			 ncleared;
	struct sizing_input	 in;
	enum interconnect	 interconnect;	/* between nodes, for the
						   estimate: ib unless the
						   command says */
};

/* Everything the core computes for a job. */
struct job_figures {
	struct sizing		 sizing;
	struct launchenv	 env;
	struct slurmopt		 slurm;
	struct cost_hw		 hw;	/* the speeds the estimate assumes */
	struct cost		 cost;	/* one step's estimate, when */
	const char		*cost_reason; /* NULL; else why there is none */
};

void		 job_request_init(struct job_request *);
void		 job_request_release(struct job_request *);

/* Load and merge; on error the job is released. */
struct error	*job_load(struct job *, const struct job_request *);
void		 job_release(struct job *);

/*
 * Run the core on a loaded job.  Returns NULL, or a static reason when
 * the input is out of the core's range (an EXIT_USAGE error for the
 * caller).  The figures borrow strings from the job.
 */
const char	*job_figure(const struct job *, struct job_figures *);

/*
 * The speeds the cost model gives the job's layouts: its GPU type's (an
 * h100's when none) joined by job->interconnect (job-estimate.c).  The one
 * place plan, plan --search, recommend, gen and check-log take them from.
 */
void		 job_cost_hw(const struct job *, struct cost_hw *);

/*
 * The estimate of one step of the job sized as FIG->sizing: fills
 * fig->hw and fig->cost, or sets fig->cost_reason (a static string) when
 * the layout has errors or the model lacks what the cost needs.
 * job_figure() calls it; call it again after changing job->interconnect.
 */
void		 job_estimate(const struct job *, struct job_figures *);

/*
 * The recipe R's own values as the lowest settings layer (origin
 * ORIGIN_RECIPE): its layout, batch, split, precision, recompute and
 * dispatcher (job-recipe.c).
 */
void		 job_recipe_layer(const struct bridge_recipe *,
		    struct settings *);

/* Clear the recipe's values that the user's choices contradict, listing
 * them in job->cleared; note whether the recipe's own layout runs. */
void		 job_recipe_conflicts(struct job *);

/*
 * Add a site-limit error finding to FIG->sizing for each limit of the
 * job's cluster profile's "site" (site.h) its Slurm options break
 * (job-site.c); nothing without one.  job_figure() calls it.
 */
void		 job_site_check(const struct job *, struct job_figures *);

/*
 * "; params_dtype bf16 is the recipe's: --params-dtype to change" into
 * BUF (LEN bytes) when the recipe set setting ID, else "" (job-blame.c):
 * for an error the value takes part in.  Returns BUF.
 */
const char	*job_blame_setting(const struct job *, enum setting_id, char *,
		    size_t);

/* Name, in each finding of S that a value the recipe set takes part in,
 * that value and the option that changes it (job-blame.c). */
void		 job_blame_recipe(const struct job *, struct sizing *);

/*
 * JOB as a job file (a new reference): the settings of its job file and
 * options, its cluster and recipe, and the layout, split and FSDP of IN
 * on GPUS GPUs in place of its own (job-write.c).
 */
json_t		*job_file_json(const struct job *, const struct sizing_input *,
		    int64_t);

/* The job's name: --job-name, else the model, the recipe, "mbsbatch". */
const char	*job_name(const struct job *);

/* The parallel sizes a settings layer gives, UNSET for those it does not. */
void		 job_layout(const struct settings *, int64_t, struct layout *);

/*
 * A path setting's value (a new string, NULL when unset): a relative path
 * written in a job file is taken relative to the job file's directory.
 * IS_PATH tells a path from a name ("llama3-8b" is a name).
 */
char		*job_path(const struct job *, enum setting_id,
		    bool (*)(const char *));

/* A choice setting's value (its enum: settings.h), or DEF when unset. */
int		 job_choice(const struct job *, enum setting_id, int);

/* The MoE dispatcher: the job's, else alltoall (every Bridge family's;
 * Megatron-Core's own default is allgather); and its word. */
enum moe_dispatcher job_dispatcher(const struct job *);
const char	*job_dispatcher_name(const struct job *);

/* The FP8 recipe; FP8_NO for no FP8 (unset or "no"). */
enum fp8_recipe	 job_fp8(const struct job *);

/* Megatron-FSDP's sharding; FSDP_OFF without --fsdp. */
enum fsdp_sharding job_fsdp(const struct job *);

/* A dtype setting's value; PRECISION_DEFAULT when unset. */
enum precision	 job_dtype(const struct job *, enum setting_id);

/* The launcher (srun unless given) and the template (megatron-bridge
 * unless given; TEMPLATE_OTHER for a file or a name of the user's). */
enum launcher	 job_launcher(const struct job *);
enum template_name job_template(const struct job *);

/* Whether FP8 weights are kept and gathered in FP8: --fp8-param-gather,
 * by default on with FP8 but for blockwise scaling (Bridge's presets). */
bool		 job_fp8_param_gather(const struct job *);

/* A string setting's value, or NULL when unset. */
const char	*job_str(const struct job *, enum setting_id);

/* A boolean setting: its value, or DEF when unset. */
bool		 job_bool(const struct job *, enum setting_id, bool);

/* Is JOB a smoke job (its iterations are the smoke layer's)? */
bool		 job_is_smoke(const struct job *);

#endif
