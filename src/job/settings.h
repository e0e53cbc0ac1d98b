/*
 * settings.h: the one table of job settings, shared by the command line
 * (long options), job files, cluster profiles in the config file and
 * user model presets, so a setting has one name, one type and one range
 * wherever it is written.
 *
 * A struct settings is one layer of values (the command line, a job file,
 * a cluster profile); each value remembers where it came from.  Layers are
 * merged by settings_merge(), the higher layer winning (docs/SPEC.md
 * section 4).
 */
#ifndef MBSBATCH_SETTINGS_H
#define MBSBATCH_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "memory.h"

struct error;
struct jsondoc;

enum setting_type {
	ST_INT,		/* whole number in [min, max] */
	ST_COUNT,	/* whole number, also "70B", "1.5T", "7e9" */
	ST_GIB,		/* decimal number: "79.6" */
	ST_REAL,	/* number with an exponent: "1e-6" (in [min, max]) */
	ST_BOOL,	/* --x / --no-x; true / false */
	ST_STRING,
	ST_CHOICE,	/* one of the row's words; the value is its index */
	ST_LIST,	/* list of strings */
	ST_ENV,		/* NAME -> string; stored as "NAME=value" */
	ST_OPTIONS,	/* NAME -> string or true; stored as "NAME=value"
			   or "NAME", merged by name as ST_ENV is */
};

enum setting_id {
	SET_TP, SET_PP, SET_CP, SET_EP, SET_ETP, SET_VPP, SET_SP,
	SET_MULTIPLE, SET_GPUS, SET_NODES,
	SET_GPUS_PER_NODE, SET_NVLINK_DOMAIN, SET_GPU_MEMORY, SET_GPU_TYPE,
	SET_MODEL,
	SET_NUM_LAYERS, SET_HIDDEN_SIZE, SET_FFN_HIDDEN_SIZE,
	SET_NUM_ATTENTION_HEADS, SET_NUM_QUERY_GROUPS, SET_VOCAB_SIZE,
	SET_NUM_EXPERTS, SET_MOE_ROUTER_TOPK, SET_MOE_FFN_HIDDEN_SIZE,
	SET_PARAMS, SET_ACTIVE_PARAMS,
	/* Preset-only architecture fields. */
	SET_KV_CHANNELS, SET_TIED_EMBEDDINGS, SET_Q_LORA_RANK,
	SET_KV_LORA_RANK, SET_QK_HEAD_DIM, SET_QK_POS_EMB_HEAD_DIM,
	SET_V_HEAD_DIM, SET_MOE_SHARED_EXPERTS, SET_MOE_DENSE_LAYERS,
	SET_MTP_LAYERS, SET_DESCRIPTION, SET_SOURCE, SET_HF_MODEL,
	SET_NORM_EPSILON, SET_ROTARY_BASE, SET_ROTARY_PERCENT,
	SET_ROPE_SCALING, SET_ROPE_SCALING_FACTOR, SET_MSCALE,
	SET_MSCALE_ALL_DIM, SET_QK_LAYERNORM, SET_QKV_BIAS,
	SET_LINEAR_BIAS, SET_SOFTMAX_TYPE, SET_SLIDING_WINDOW,
	SET_WINDOW_SKIP_FREQ, SET_ACTIVATION, SET_GLU_LINEAR_OFFSET,
	SET_ACTIVATION_CLAMP, SET_YARN_ORIGINAL_MAX_POS, SET_YARN_BETA_FAST,
	SET_YARN_BETA_SLOW, SET_YARN_EXACT_RANGE,
	SET_ROUTER_SCORE, SET_ROUTER_EXPERT_BIAS, SET_ROUTER_TOPK_SCALE,
	SET_ROUTER_GROUPS, SET_ROUTER_GROUP_TOPK, SET_ROUTER_PRE_SOFTMAX,
	SET_AUX_LOSS, SET_AUX_LOSS_COEFF,
	SET_HYBRID_PATTERN, SET_MTP_PATTERN, SET_MAMBA_STATE_DIM, SET_MAMBA_HEAD_DIM,
	SET_MAMBA_NUM_HEADS, SET_MAMBA_NUM_GROUPS, SET_MOE_LATENT_SIZE,
	/* Training shape. */
	SET_FIRST_STAGE_LAYERS, SET_LAST_STAGE_LAYERS,
	SET_ACCOUNT_EMBEDDING, SET_ACCOUNT_LOSS,
	SET_SEQ_LENGTH, SET_GLOBAL_BATCH_SIZE, SET_MICRO_BATCH_SIZE,
	SET_TP_COMM_OVERLAP, SET_STRICT, SET_ALLOW_OOM,
	SET_TRAIN_ITERS, SET_LR, SET_CHECKPOINT_DIR, SET_SAVE_INTERVAL,
	SET_PRETRAINED_CHECKPOINT,
	SET_FP8, SET_FP8_PARAM_GATHER,
	/* Slurm: under "slurm" in a job file, top level in a profile; the
	 * simple options (SET_PARTITION, ...) from slurmopt-list.h. */
#define SLURMOPT_SIMPLE(id, ...)	SET_##id,
#define SLURMOPT_SIMPLE_LATE(id, ...)
#include "slurmopt-list.h"
	SET_TIME, SET_JOB_NAME,
	SET_OUTPUT, SET_ERROR, SET_EXCLUSIVE, SET_MEM, SET_CONSTRAINT,
#define SLURMOPT_SIMPLE(id, ...)
#define SLURMOPT_SIMPLE_LATE(id, ...)	SET_##id,
#include "slurmopt-list.h"
	SET_MAIL_TYPE, SET_CPUS_PER_TASK, SET_CHDIR, SET_SLURM_EXTRA,
	SET_GPU_REQUEST, SET_GRES_TYPES,
	SET_DEPENDENCY, SET_SIGNAL, SET_REQUEUE,
	SET_MAX_RESTARTS,
	/* Resilience (the Megatron templates' node gate, hang watchdog and
	 * stall stop). */
	SET_GATE, SET_HANG_TIMEOUT, SET_STALL_RESTARTS,
	/* Launch. */
	SET_TEMPLATE, SET_RECIPE, SET_BRIDGE_VERSION, SET_DATASET, SET_TRAIN_SCRIPT, SET_COMMAND,
	SET_LAUNCHER, SET_OVERRIDES, SET_ENV, SET_SETUP, SET_SRUN_OPTIONS,
	SET_CONTAINER_IMAGE, SET_CONTAINER_MOUNTS, SET_CONTAINER_WORKDIR,
	/* Launch environment and overlap. */
	SET_MOE_DISPATCHER, SET_MOE_A2A_OVERLAP, SET_DISTRIBUTED_OPTIMIZER,
	SET_FSDP, SET_FSDP_SHARDING, SET_RECOMPUTE,
	SET_CUDA_GRAPHS,
	SET_PARAMS_DTYPE, SET_GRADS_DTYPE, SET_OPTIMIZER_DTYPE,
	SET_MEMORY_MODEL,
	SET_CUDA_DEVICE_MAX_CONNECTIONS, SET_LAYERNORM_SM_MARGIN,
	SET_OVERLAP_P2P_COMM, SET_BATCH_P2P_COMM, SET_OVERLAP_GRAD_REDUCE,
	SET_OVERLAP_PARAM_GATHER, SET_ALIGN_PARAM_GATHER, SET_DDP_BUCKET_SIZE,
	/* Submission. */
	SET_VIA, SET_REST_URL, SET_API_VERSION, SET_TOKEN_FILE, SET_CACERT,
	SET_USER, SET_REST_TIMEOUT, SET_INSECURE_HTTP,
	SET_CLUSTER,
	/* The cluster's own speed against the model's, written by
	 * mbsbatch calibrate (calibration.h). */
	SET_SITE_FACTOR, SET_SITE_FACTOR_LOGS, SET_SITE_FACTOR_DATE,
	SET__COUNT
};

/*
 * The values of the choice settings only the job and the scripts take;
 * the enums the core takes are in its headers (memory.h: fp8_recipe,
 * launchenv.h, model.h).  settings-table.c gives each value its word.
 */
enum launcher {
	LAUNCHER_SRUN = 0,	/* one process per GPU under srun */
	LAUNCHER_TORCHRUN,	/* torchrun per node */
};

/* The templates --template names (a string setting: any other name, or
 * a path, is TEMPLATE_OTHER). */
enum template_name {
	TEMPLATE_MEGATRON_BRIDGE = 0,	/* the default */
	TEMPLATE_MEGATRON_LM,
	TEMPLATE_COMMAND,
	TEMPLATE_OTHER,
};

/* Where a setting may be written. */
#define SF_CLI		0x01	/* a long option of plan, gen, submit, ... */
#define SF_JOB		0x02	/* a top-level job-file key */
#define SF_SLURM	0x04	/* a key of the job file's "slurm" object */
#define SF_CLUSTER	0x08	/* a key of a cluster profile */
#define SF_PRESET	0x10	/* a key of a model preset file */
#define SF_MODEL	0x20	/* copied into struct model (model_off) */
#define SF_WORLD	0x40	/* one of multiple/gpus/nodes: at most one */
#define SF_GEN		0x80	/* not a plan option: gen, submit, ... */
#define SF_CONNECT	0x100	/* how to reach Slurm: submit, status ...;
				   never a job-file key (settings.c) */
#define SF_PROFILE_SLURM 0x400	/* a key of a profile's "slurm" object */
#define SF_APPEND	0x200	/* ST_LIST: a higher layer's items come
				   after a lower one's, not instead */

struct setting_def {
	enum setting_id	 id;
	const char	*option;	/* "num-layers": --num-layers */
	const char	*key;		/* "num_layers": in JSON files */
	enum setting_type type;
	int64_t		 min, max;	/* ST_INT, ST_COUNT, ST_GIB */
	int		 flags;
	size_t		 model_off;	/* SF_MODEL: offsetof(struct model) */
	const char	*arg;		/* "N" in --help */
	const char	*help;
	/* ST_STRING, ST_LIST, ST_REAL (its text, once in [min, max]):
	 * NULL or a static reason the value is refused. */
	const char	*(*check)(const char *);
	/*
	 * ST_CHOICE: the words, indexed by the value's enum (a NULL word: no
	 * word names that value, such as an unset dtype), and the static
	 * reason any other text is refused.  An ST_STRING row may have
	 * words too, for the values it knows by name; other text is then
	 * value NWORDS.
	 */
	const char *const *words;
	int		 nwords;
	const char	*not_a_word;
	/* What a value may be, when [min, max] does not say it all (a
	 * check narrows it): "a number above 0.05 and below 20". */
	const char	*range;
};

extern const struct setting_def settings_table[SET__COUNT];

enum origin {
	ORIGIN_UNSET = 0,
	ORIGIN_RECIPE,		/* the Megatron-Bridge recipe's own value */
	ORIGIN_CONFIG,		/* a cluster profile */
	ORIGIN_JOB,		/* the job file */
	ORIGIN_CLI,		/* the command line */
	ORIGIN_PRESET,		/* a model preset file */
	ORIGIN_SMOKE,		/* a smoke job's sizes (smokejob.c) */
};

struct setting_value {
	enum origin	 origin;
	int64_t		 i;	/* ST_INT, ST_COUNT */
	double		 d;	/* ST_GIB, ST_REAL */
	bool		 b;	/* ST_BOOL */
	char		*s;	/* ST_STRING; ST_CHOICE: the word */
	int		 choice;	/* ST_CHOICE, a string row with
					   words: the word's index */
	char		**list;	/* ST_LIST, ST_ENV: owned strings */
	size_t		 nlist;
};

struct settings {
	struct setting_value v[SET__COUNT];
};

void	 settings_init(struct settings *);
void	 settings_release(struct settings *);

/* Copy every value set in src over dst (a deep copy); ST_ENV merges by
 * name, an SF_APPEND list appends src's items to dst's.  Setting any of SF_WORLD in src clears the others in dst. */
void	 settings_merge(struct settings *, const struct settings *);

/* Unset one value of a layer. */
void	 settings_unset(struct settings *, enum setting_id);

/* The definition for a long option name ("tp", "no-sp" gives SET_SP and
 * *negated) among the settings with any of FLAGS, or NULL. */
const struct setting_def *settings_find_option(const char *, int, bool *);

/*
 * Parse TEXT (from the command line) as the value of DEF and store it.
 * Errors (EXIT_USAGE) read "--tp: 'abc' is not a number (expected 1 to
 * 65536)".
 */
struct error	*settings_set_text(struct settings *, const struct setting_def *,
		    const char *, enum origin);

/*
 * Store every key of the JSON object OBJ, found at PATH (NULL-terminated
 * keys from the root, or NULL for the root) in DOC, into the layer.  FLAGS picks which keys are allowed there (SF_JOB, SF_CLUSTER or
 * SF_PRESET); in a job file, the "slurm" object is read too.  Unknown keys,
 * wrong types and values out of range are errors (EXIT_USAGE) naming the
 * file, the line and the key, with a suggestion for a near miss.
 */
struct error	*settings_from_json(struct settings *, const struct jsondoc *,
		    json_t *, const char *const *, int, enum origin);

/* The value WORD names for choice row D, or -1. */
int		 settings_choice(const struct setting_def *, const char *);

/* The word of choice setting ID's value V (a static string), or NULL
 * when no word names it. */
const char	*settings_word(enum setting_id, int);

/* Set choice setting ID to value V, which a word names, in a layer. */
void		 settings_set_choice(struct settings *, enum setting_id,
		    int, enum origin);

/* Describe a setting's accepted values: "1 to 65536", "true or false". */
void		 settings_describe_range(const struct setting_def *, char *,
		    size_t);

const char	*settings_origin_name(enum origin);

/* With two world settings (multiple, gpus, nodes) set in one layer: the
 * first of them, and then the other; else NULL. */
const struct setting_def *settings_world_conflict(const struct settings *);
const struct setting_def *settings_world_conflict_other(
		    const struct settings *, const struct setting_def *);

#endif
