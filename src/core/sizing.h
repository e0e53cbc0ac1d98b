/*
 * sizing.h: the sizing core.  A parallel layout, a model and a world-size
 * request go in; GPUs, nodes, DP and EDP, the validation findings and the
 * rules that could not be checked come out.
 *
 * Pure (docs/STYLE.md): no I/O, no allocation, no globals; 64-bit arithmetic
 * checked for overflow.  Everything else in mbsbatch that knows a figure of
 * a layout gets it from sizing_compute(), once.
 */
#ifndef MBSBATCH_SIZING_H
#define MBSBATCH_SIZING_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "memory.h"
#include "model.h"

/* Which input fixed the world size. */
enum world_from {
	WORLD_FROM_MULTIPLE = 0,	/* multiple x min_gpus (default 1) */
	WORLD_FROM_GPUS,		/* --gpus W */
	WORLD_FROM_NODES,		/* --nodes N: W = N x gpus per node */
};

/* The MoE token dispatcher (--moe-dispatcher). */
enum moe_dispatcher {
	DISPATCH_ALLTOALL = 0,	/* Megatron's default for MoE */
	DISPATCH_ALLGATHER,
	DISPATCH_DEEPEP,	/* flex dispatcher, DeepEP backend */
	DISPATCH_HYBRIDEP,	/* flex dispatcher, HybridEP backend */
};

/* CUDA graph capture (Megatron's cuda_graph_impl): NONE launches every
 * kernel from the host; LOCAL (Megatron-Core's own) and TE (Transformer
 * Engine's make_graphed_callables) capture each layer's forward and
 * backward; FULL_ITERATION the whole step. */
enum cuda_graph_impl {
	CUDA_GRAPH_NONE = 0,
	CUDA_GRAPH_LOCAL,
	CUDA_GRAPH_TE,
	CUDA_GRAPH_FULL_ITERATION,
};

/* A tri-state for settings the user may leave to mbsbatch. */
enum tristate {
	TRI_UNSET = 0,
	TRI_OFF,
	TRI_ON,
};

struct sizing_input {
	struct layout	 layout;

	enum world_from	 world_from;
	int64_t		 multiple;	/* WORLD_FROM_MULTIPLE; >= 1 */
	int64_t		 gpus;		/* WORLD_FROM_GPUS */
	int64_t		 nodes;		/* WORLD_FROM_NODES */

	int64_t		 gpus_per_node;	/* >= 1 */
	int64_t		 nvlink_domain;	/* GPUs; 0 means one node */

	struct model	 model;		/* fields 0 when unknown */

	/* Uneven pipeline split (Megatron-Core's num_layers_in_first/
	 * last_pipeline_stage); 0 for an even split. */
	int64_t		 first_stage_layers;
	int64_t		 last_stage_layers;
	/* The embedding and the loss counted as pipeline layers
	 * (account_for_*_in_pipeline_split). */
	bool		 account_embedding, account_loss;
	/* An explicit per-stage layout (a recipe's own) sets the split. */
	bool		 pipeline_layout;
	/* Layers at the end of the model whose GEMMs stay in BF16 under
	 * FP8 or FP4 (Megatron-Core's first_last_layers_bf16 with
	 * num_layers_at_end_in_bf16: fp4_utils.py:248-263, fp8_utils.py
	 * :712-724 at d98e8a64; Bridge's nemotron_3_super_bf16_with_nvfp4_
	 * mixed keeps 14, mixed_precision.py:421-429 at v0.6.0).  0: none. */
	int64_t		 bf16_last_layers;

	int64_t		 seq_length;	/* 0 when unknown */
	int64_t		 global_batch;	/* 0 when unknown */
	int64_t		 micro_batch;	/* >= 1 */

	enum tristate	 tp_comm_overlap;

	/* Memory: the GPU's memory in GiB (0 when unknown) and whether the
	 * distributed optimizer shards optimizer state over DP. */
	double		 gpu_gib;
	bool		 distributed_optimizer;
	/* Megatron-FSDP and its sharding (memory.h); FSDP_OFF: none. */
	enum fsdp_sharding fsdp;
	int64_t		 fsdp_outer;	/* HSDP replicas (memory.h) */
	enum recompute	 recompute;
	unsigned	 recompute_modules;	/* memory.h recompute_module */
	unsigned	 offload_modules;	/* memory.h offload_module */
	int64_t		 min_offloaded;		/* memory.h */
	enum memory_method memory_method;
	enum precision	 params_dtype, grads_dtype, optimizer_dtype;
	bool		 fp8_params;	/* weights kept in FP8 */
	/* Why the memory estimate does not apply (static: the recipe
	 * shards or offloads what it counts), or NULL. */
	const char	*memory_unsized;
	/* LoRA fine-tuning: the adapters; rank 0 for none. */
	struct lora	 lora;
	/* What the step's speed depends on besides the shapes (cost.h):
	 * the FP8 recipe, the MoE token dispatcher and whether its
	 * all-to-all overlaps compute. */
	enum fp8_recipe	 fp8;
	enum moe_dispatcher dispatcher;
	bool		 moe_a2a_overlap;
	enum cuda_graph_impl cuda_graphs;

	/* A smoke job: its batch is sized to check the layout in a few
	 * iterations, not for speed (pp-bubble does not apply). */
	bool		 smoke;
	/* Findings without their messages (empty): plan --search reads
	 * the codes alone, and formatting was a third of its time. */
	bool		 codes_only;
};

/* An error fails the layout; a warning only under --strict; an info
 * finding never (it says what the job will do, such as where it saves). */
enum severity {
	SEVERITY_WARNING,
	SEVERITY_ERROR,
	SEVERITY_INFO,
};

/* One per rule at most, so a fixed array holds them all. */
#define SIZING_MAX_FINDINGS	48
#define SIZING_MESSAGE_MAX	320

struct finding {
	const char	*code;		/* "pp-bubble": static, stable */
	enum severity	 severity;
	char		 message[SIZING_MESSAGE_MAX];
};

/* A rule that was not checked because an input it needs is unknown. */
struct skipped_rule {
	const char	*code;
	const char	*reason;	/* static: "no attention heads (...)" */
};

struct sizing {
	int64_t		 dense_mesh;	/* TP x CP */
	int64_t		 expert_mesh;	/* EP x ETP */
	int64_t		 mesh_max;	/* max(dense, expert) */
	int64_t		 mesh_lcm;	/* lcm(dense, expert) */
	int64_t		 min_gpus;	/* PP x mesh_lcm */
	int64_t		 naive_product;	/* PP x TP x CP x EP x ETP: wrong */
	int64_t		 multiple;	/* world / min_gpus; 0 if not whole */
	int64_t		 world;
	int64_t		 dp;		/* 0 when not whole */
	int64_t		 edp;		/* 0 when not whole */
	int64_t		 nodes;
	int64_t		 tasks_per_node; /* 0 when uneven */
	int64_t		 nvlink_domain;	/* resolved: GPUs per domain */
	bool		 moe;		/* EP > 1, or the model is MoE */

	/* The layer split over pipeline stages, when the layer count is
	 * known and the split legal: first + middle_stages x middle + last
	 * layers (first and last are middle when the split is even). */
	bool		 split_known;
	int64_t		 split_first, split_middle, split_last;
	int64_t		 split_middle_stages;

	/* The memory estimate (memory.h), when the model and sequence
	 * length allow one; else memory_reason says what is missing. */
	bool		 has_memory;
	struct memory_estimate memory;
	const char	*memory_reason;
	bool		 memory_oom;	/* the estimate exceeds the GPU */

	struct finding	 findings[SIZING_MAX_FINDINGS];
	int		 nfindings;
	int		 nerrors;
	int		 ninfos;		/* SEVERITY_INFO findings */
	struct skipped_rule skipped[SIZING_MAX_FINDINGS];
	int		 nskipped;
	bool		 codes_only;	/* the input's: messages left empty */
};

/*
 * Size and validate.  Returns NULL and fills *out, or returns a static
 * reason when the input itself is out of range ("a parallel size is below
 * 1") or a figure overflows 64 bits; *out is then unusable.
 */
const char	*sizing_compute(const struct sizing_input *, struct sizing *);

/* Defaults of docs/SPEC.md section 2: every size 1, SP off, 8 GPUs per node. */
void		 sizing_input_init(struct sizing_input *);

/*
 * The uneven split plan suggests for LAYERS over PP stages of VPP chunks
 * (Megatron-Core's rules, busiest stage lightest): false when none.
 */
bool		 sizing_suggest_split(int64_t, int64_t, int64_t, int64_t *,
		    int64_t *);

/* Add a finding, or a rule not checked, to S (rules.c adds its own). */
void		 sizing_add_finding(struct sizing *, const char *,
		    enum severity, const char *, ...)
		    __attribute__((format(printf, 4, 5)));
void		 sizing_add_skipped(struct sizing *, const char *,
		    const char *);

/* "error", "warning" or "info"; static. */
const char	*sizing_severity_word(enum severity);

/* The warnings of S: its findings that are neither errors nor info. */
int		 sizing_nwarnings(const struct sizing *);

/*
 * The micro-batches of one step, global batch / (micro batch x DP), for IN
 * sized as S; 0 when unknown (no global batch, DP not whole, or not a
 * whole number of micro-batches: batch-divisibility says why).
 */
int64_t		 sizing_microbatches(const struct sizing_input *,
		    const struct sizing *);

/* The pipeline bubble of a step: (PP - 1) / (VPP x M + PP - 1) of it. */
double		 sizing_bubble_share(int64_t, int64_t, int64_t);

/*
 * Whether Megatron runs TP communication overlap on layout L: only with
 * TP >= 2 and sequence parallel; elsewhere it switches it off without a
 * word (the tp-overlap-disabled rule; a recipe's and the search's ask
 * yield to it).
 */
bool		 sizing_tp_overlap_runs(const struct layout *);

/* Overflow-checked helpers, also used by the rest of the core. */
bool		 sizing_mul(int64_t, int64_t, int64_t *);
int64_t		 sizing_gcd(int64_t, int64_t);

/*
 * The min GPUs of layout L, PP x lcm(TP x CP, EP x ETP), into *MIN, the
 * third argument (and the lcm into *LCM, the second, unless NULL); false
 * when it overflows.
 */
bool		 sizing_min_gpus(const struct layout *, int64_t *lcm,
		    int64_t *min);

/*
 * Each finding code the core can produce, in table order; NULL-terminated.
 *
 * To add a finding: its kebab-case code in this table (sizing.c) or in
 * rules_codes[] (rules.c, for a rule of the training configuration), the
 * check that calls sizing_add_finding() with it, citing where Megatron
 * makes the same check, an entry in mbsbatch-plan(1), FINDINGS (".It Li
 * CODE Pq error", "Pq warning" or "Pq info"), and a unit test in check_sizing.c or
 * check_rules.c.  tests/cli/docs.sh fails when the code misses the table
 * or the page; search.c says which codes a larger world can clear.
 */
extern const char *const sizing_codes[];

#endif
