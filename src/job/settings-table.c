/*
 * settings-table.c: the settings table, one row per enum setting_id
 * (settings.h) at its own index, and the checks its string rows name.
 * settings-parse.c parses values by these rows; settings.c merges layers.
 *
 * To add a setting: an enum value in settings.h, a row here (its option
 * and key names, type, range, where it may be written, help), and the
 * code that uses it (what the script, its overrides or the plan report
 * show is a field of struct plan, plan.h, decoded once in
 * plan_resolve(): the renderers never read a setting).  The command
 * line, job files, cluster profiles and presets then all accept it,
 * with the same range and messages.  A
 * Slurm option that is a plain string is instead a row of
 * slurmopt-list.h (see slurmopt.h), which makes its enum value and row.
 *
 * A setting of a few words is a choice: its enum (in the core's header
 * when the core takes it, else in settings.h), its words below at the
 * indexes of their enum values, an ST_CHOICE row with WORDS(), and the
 * code reads the decoded value with job_choice() or a typed accessor
 * (job.h), never the word.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "bridge.h"
#include "calibrate.h"
#include "gpu.h"
#include "hybrid.h"
#include "launchenv.h"
#include "memory.h"
#include "model.h"
#include "settings.h"
#include "quote.h"
#include "sbatch-options.h"
#include "slurmopt.h"
#include "suggest.h"

static const char *check_gpu_type(const char *);
static const char *check_bridge_version(const char *);
static const char *check_override(const char *);
static const char *check_via(const char *);
static const char *check_rest_url(const char *);
static const char *check_site_factor(const char *);
static const char *check_hybrid_pattern(const char *);
static const char *check_date(const char *);
static const char *check_setup(const char *);
static const char *check_srun_option(const char *);
static const char *check_slurm_opt(const char *);
static const char *check_gres_type(const char *);

#define K	INT64_C(1024)
#define PAR	(SF_CLI | SF_JOB)
#define ARCH	(SF_CLI | SF_JOB | SF_PRESET | SF_MODEL)
#define PRESET	(SF_PRESET | SF_MODEL)
#define SLURM	(SF_SLURM | SF_CLUSTER)
#define SLURM_CLI (SF_CLI | SF_GEN | SF_SLURM | SF_CLUSTER)
/*
 * Where to connect and with which credential come only from the command
 * line, the environment and the user's or the site's config file: never
 * from a job file, which may be a colleague's (a job file naming
 * rest_url and token_file could send any file of the user's to any host).
 */
#define CONNECT	(SF_CLI | SF_CONNECT | SF_CLUSTER)
#define M(f)	offsetof(struct model, f)

/*
 * The words of the choice settings, each at the index of the enum value
 * it names (git's advice.c rows), so that a value is decoded once, when
 * it is read, and the code compares enums.  A value no word names (an
 * unset dtype, router score or loss) is a NULL word.  WORDS gives a row
 * its words and the reason other text is refused.
 */
#define NWORDS(w)	((int)(sizeof (w) / sizeof (w)[0]))
#define WORDS(w, why)	.words = (w), .nwords = NWORDS(w), \
			.not_a_word = (why)

static const char *const fp8_words[] = {
	[FP8_NO] = "no", [FP8_TENSORWISE] = "tensorwise",
	[FP8_DELAYED] = "delayed", [FP8_BLOCKWISE] = "blockwise",
	[FP8_MXFP8] = "mxfp8", [FP8_NVFP4] = "nvfp4",
};
static const char *const rope_scaling_words[] = {
	[ROPE_SCALING_NONE] = "none", [ROPE_SCALING_LLAMA3] = "llama3",
	[ROPE_SCALING_YARN] = "yarn",
};
static const char *const router_score_words[] = {
	[ROUTER_SCORE_SOFTMAX] = "softmax", [ROUTER_SCORE_SIGMOID] = "sigmoid",
};
static const char *const softmax_type_words[] = {
	[SOFTMAX_VANILLA] = "vanilla", [SOFTMAX_OFF_BY_ONE] = "off-by-one",
	[SOFTMAX_LEARNABLE] = "learnable",
};
static const char *const activation_words[] = {
	[ACTIVATION_SWIGLU] = "swiglu", [ACTIVATION_QUICK_GEGLU] = "quick_geglu",
	[ACTIVATION_SQUARED_RELU] = "squared_relu",
};
static const char *const aux_loss_words[] = {
	[AUX_LOSS_AUX] = "aux_loss", [AUX_LOSS_SEQ] = "seq_aux_loss",
	[AUX_LOSS_NONE] = "none",
};
static const char *const launcher_words[] = {
	[LAUNCHER_SRUN] = "srun", [LAUNCHER_TORCHRUN] = "torchrun",
};
static const char *const dispatcher_words[] = {
	[DISPATCH_ALLTOALL] = "alltoall", [DISPATCH_ALLGATHER] = "allgather",
	[DISPATCH_DEEPEP] = "deepep", [DISPATCH_HYBRIDEP] = "hybridep",
};
/* Megatron's cuda_graph_impl Literal (transformer_config.py, the same
 * four words in core_v0.19.0, main and Bridge 0.5.1-main's pinned cores:
 * config-fields.tsv, flags.tsv). */
static const char *const cuda_graph_words[] = {
	[CUDA_GRAPH_NONE] = "none", [CUDA_GRAPH_LOCAL] = "local",
	[CUDA_GRAPH_TE] = "transformer_engine",
	[CUDA_GRAPH_FULL_ITERATION] = "full_iteration",
};
static const char *const recompute_words[] = {
	[RECOMPUTE_SELECTIVE] = "selective", [RECOMPUTE_NONE] = "none",
	[RECOMPUTE_FULL] = "full",
};
/* Megatron's --data-parallel-sharding-strategy words (flags.tsv of
 * core_v0.19.0 and main; Bridge's ddp.data_parallel_sharding_strategy),
 * but no_shard, which is plain DDP. */
static const char *const fsdp_sharding_words[] = {
	[FSDP_OPTIM_GRADS_PARAMS] = "optim_grads_params",
	[FSDP_OPTIM_GRADS] = "optim_grads", [FSDP_OPTIM] = "optim",
};
static const char *const memory_model_words[] = {
	[MEMORY_MEGATRON] = "megatron", [MEMORY_SKILL] = "skill",
};
static const char *const gpu_request_words[] = {
	[GPU_REQUEST_GPUS_PER_NODE] = "gpus-per-node",
	[GPU_REQUEST_GRES] = "gres",
};
static const char *const dtype_words[] = {
	[PRECISION_FP32] = "fp32", [PRECISION_BF16] = "bf16",
	[PRECISION_FP16] = "fp16",
};
/* A string setting may name values too: any other text is value
 * nwords (a template file, or a template of the user's). */
static const char *const template_words[] = {
	[TEMPLATE_MEGATRON_BRIDGE] = "megatron-bridge",
	[TEMPLATE_MEGATRON_LM] = "megatron-lm", [TEMPLATE_COMMAND] = "command",
};

const struct setting_def settings_table[SET__COUNT] = {
	[SET_TP] = { SET_TP, "tp", "tp", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "tensor-parallel size (default 1)" },
	[SET_PP] = { SET_PP, "pp", "pp", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "pipeline-parallel size (default 1)" },
	[SET_CP] = { SET_CP, "cp", "cp", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "context-parallel size (default 1)" },
	[SET_EP] = { SET_EP, "ep", "ep", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "expert-parallel size (default 1)" },
	[SET_ETP] = { SET_ETP, "etp", "etp", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "expert tensor-parallel size (default 1, not TP)" },
	[SET_VPP] = { SET_VPP, "vpp", "vpp", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "virtual pipeline stages per PP rank (default 1)" },
	[SET_SP] = { SET_SP, "sp", "sp", ST_BOOL, 0, 0, PAR, 0, NULL,
	  "sequence parallel (default off; --no-sp)" },
	[SET_MULTIPLE] = { SET_MULTIPLE, "multiple", "multiple", ST_INT, 1,
	  K * K, PAR | SF_WORLD, 0, "M",
	  "world size = M x min GPUs (default 1)" },
	[SET_GPUS] = { SET_GPUS, "gpus", "gpus", ST_INT, 1, 16 * K * K,
	  PAR | SF_WORLD, 0, "W", "world size in GPUs" },
	[SET_NODES] = { SET_NODES, "nodes", "nodes", ST_INT, 1, K * K,
	  PAR | SF_WORLD, 0, "N", "world size in nodes (N x GPUs per node)" },
	[SET_GPUS_PER_NODE] = { SET_GPUS_PER_NODE, "gpus-per-node",
	  "gpus_per_node", ST_INT, 1, K, PAR | SF_CLUSTER, 0, "G",
	  "GPUs per node (default 8; 4 on gb200/gb300)" },
	[SET_NVLINK_DOMAIN] = { SET_NVLINK_DOMAIN, "nvlink-domain",
	  "nvlink_domain", ST_INT, 1, K * K, PAR | SF_CLUSTER, 0, "N",
	  "GPUs per NVLink domain (default one node; 72 on gb200/gb300)" },
	[SET_GPU_MEMORY] = { SET_GPU_MEMORY, "gpu-memory", "gpu_memory",
	  ST_GIB, 1, 4 * K, PAR | SF_CLUSTER, 0, "GIB",
	  "memory per GPU in GiB" },
	[SET_GPU_TYPE] = { SET_GPU_TYPE, "gpu-type", "gpu_type", ST_STRING, 0,
	  0, PAR | SF_CLUSTER, 0, "TYPE",
	  "a100, h100, h200, b200, b300, gb200 or gb300", check_gpu_type },
	[SET_MODEL] = { SET_MODEL, "model", "model", ST_STRING, 0, 0, PAR, 0,
	  "NAME", "a model preset, or the path of a preset file" },

	[SET_NUM_LAYERS] = { SET_NUM_LAYERS, "num-layers", "num_layers",
	  ST_INT, 1, 64 * K, ARCH, M(num_layers), "N", "transformer layers" },
	[SET_HIDDEN_SIZE] = { SET_HIDDEN_SIZE, "hidden-size", "hidden_size",
	  ST_INT, 1, 16 * K * K, ARCH, M(hidden_size), "N", "hidden size" },
	[SET_FFN_HIDDEN_SIZE] = { SET_FFN_HIDDEN_SIZE, "ffn-hidden-size",
	  "ffn_hidden_size", ST_INT, 1, 64 * K * K, ARCH, M(ffn_hidden_size),
	  "N", "dense MLP width" },
	[SET_NUM_ATTENTION_HEADS] = { SET_NUM_ATTENTION_HEADS,
	  "num-attention-heads", "num_attention_heads", ST_INT, 1, 64 * K,
	  ARCH, M(num_attention_heads), "N", "attention heads" },
	[SET_NUM_QUERY_GROUPS] = { SET_NUM_QUERY_GROUPS, "num-query-groups",
	  "num_query_groups", ST_INT, 1, 64 * K, ARCH, M(num_query_groups),
	  "N", "query groups (KV heads)" },
	[SET_VOCAB_SIZE] = { SET_VOCAB_SIZE, "vocab-size", "vocab_size",
	  ST_INT, 1, 2 * K * K * K, ARCH, M(vocab_size), "N",
	  "vocabulary size" },
	[SET_NUM_EXPERTS] = { SET_NUM_EXPERTS, "num-experts", "num_experts",
	  ST_INT, 0, K * K, ARCH, M(num_experts), "N",
	  "routed experts (0: a dense model)" },
	[SET_MOE_ROUTER_TOPK] = { SET_MOE_ROUTER_TOPK, "moe-router-topk",
	  "moe_router_topk", ST_INT, 1, 64 * K, ARCH, M(moe_router_topk), "K",
	  "experts per token" },
	[SET_MOE_FFN_HIDDEN_SIZE] = { SET_MOE_FFN_HIDDEN_SIZE,
	  "moe-ffn-hidden-size", "moe_ffn_hidden_size", ST_INT, 1, 64 * K * K,
	  ARCH, M(moe_ffn_hidden_size), "N", "width of one expert's MLP" },
	[SET_PARAMS] = { SET_PARAMS, "params", "params", ST_COUNT, 1,
	  INT64_C(1000000000000000), ARCH, M(params), "N",
	  "total parameters: 8030261248, 70B, 1.5T, 7e9" },
	[SET_ACTIVE_PARAMS] = { SET_ACTIVE_PARAMS, "active-params",
	  "active_params", ST_COUNT, 1, INT64_C(1000000000000000), ARCH,
	  M(active_params), "N", "parameters active per token (MoE)" },

	[SET_KV_CHANNELS] = { SET_KV_CHANNELS, NULL, "kv_channels", ST_INT, 1,
	  64 * K, PRESET, M(kv_channels), NULL, NULL },
	[SET_TIED_EMBEDDINGS] = { SET_TIED_EMBEDDINGS, NULL, "tied_embeddings",
	  ST_BOOL, 0, 0, PRESET, M(tied_embeddings), NULL, NULL },
	[SET_Q_LORA_RANK] = { SET_Q_LORA_RANK, NULL, "q_lora_rank", ST_INT, 0,
	  64 * K, PRESET, M(q_lora_rank), NULL, NULL },
	[SET_KV_LORA_RANK] = { SET_KV_LORA_RANK, NULL, "kv_lora_rank", ST_INT,
	  0, 64 * K, PRESET, M(kv_lora_rank), NULL, NULL },
	[SET_QK_HEAD_DIM] = { SET_QK_HEAD_DIM, NULL, "qk_head_dim", ST_INT, 0,
	  64 * K, PRESET, M(qk_head_dim), NULL, NULL },
	[SET_QK_POS_EMB_HEAD_DIM] = { SET_QK_POS_EMB_HEAD_DIM, NULL,
	  "qk_pos_emb_head_dim", ST_INT, 0, 64 * K, PRESET,
	  M(qk_pos_emb_head_dim), NULL, NULL },
	[SET_V_HEAD_DIM] = { SET_V_HEAD_DIM, NULL, "v_head_dim", ST_INT, 0,
	  64 * K, PRESET, M(v_head_dim), NULL, NULL },
	[SET_MOE_SHARED_EXPERTS] = { SET_MOE_SHARED_EXPERTS, NULL,
	  "moe_shared_experts", ST_INT, 0, 64 * K, PRESET,
	  M(moe_shared_experts), NULL, NULL },
	[SET_MOE_DENSE_LAYERS] = { SET_MOE_DENSE_LAYERS, NULL,
	  "moe_dense_layers", ST_INT, 0, 64 * K, PRESET, M(moe_dense_layers),
	  NULL, NULL },
	[SET_MTP_LAYERS] = { SET_MTP_LAYERS, NULL, "mtp_layers", ST_INT, 0,
	  64 * K, PRESET, M(mtp_layers), NULL, NULL },
	[SET_DESCRIPTION] = { SET_DESCRIPTION, NULL, "description", ST_STRING,
	  0, 0, SF_PRESET, 0, NULL, NULL },
	[SET_SOURCE] = { SET_SOURCE, NULL, "source", ST_STRING, 0, 0,
	  SF_PRESET, 0, NULL, NULL },
	[SET_HF_MODEL] = { SET_HF_MODEL, NULL, "hf_model", ST_STRING, 0, 0,
	  PRESET, M(hf_model), NULL, NULL },
	[SET_NORM_EPSILON] = { SET_NORM_EPSILON, NULL, "norm_epsilon", ST_REAL,
	  0, 1, PRESET, M(norm_epsilon), NULL, NULL },
	[SET_ROTARY_BASE] = { SET_ROTARY_BASE, NULL, "rotary_base", ST_INT, 1,
	  INT64_C(1000000000), PRESET, M(rotary_base), NULL, NULL },
	[SET_ROTARY_PERCENT] = { SET_ROTARY_PERCENT, NULL, "rotary_percent",
	  ST_REAL, 0, 1, PRESET, M(rotary_percent), NULL, NULL },
	[SET_ROPE_SCALING] = { SET_ROPE_SCALING, NULL, "rope_scaling",
	  ST_CHOICE, 0, 0, PRESET, M(rope_scaling), NULL, NULL,
	  WORDS(rope_scaling_words,
	  "is not a RoPE scaling (none, llama3 or yarn)") },
	[SET_ROPE_SCALING_FACTOR] = { SET_ROPE_SCALING_FACTOR, NULL,
	  "rope_scaling_factor", ST_REAL, 1, 1024, PRESET,
	  M(rope_scaling_factor), NULL, NULL },
	[SET_MSCALE] = { SET_MSCALE, NULL, "mscale", ST_REAL, 0, 100, PRESET,
	  M(mscale), NULL, NULL },
	[SET_MSCALE_ALL_DIM] = { SET_MSCALE_ALL_DIM, NULL, "mscale_all_dim",
	  ST_REAL, 0, 100, PRESET, M(mscale_all_dim), NULL, NULL },
	[SET_QK_LAYERNORM] = { SET_QK_LAYERNORM, NULL, "qk_layernorm", ST_BOOL,
	  0, 0, PRESET, M(qk_layernorm), NULL, NULL },
	[SET_QKV_BIAS] = { SET_QKV_BIAS, NULL, "qkv_bias", ST_BOOL, 0, 0,
	  PRESET, M(qkv_bias), NULL, NULL },
	[SET_LINEAR_BIAS] = { SET_LINEAR_BIAS, NULL, "linear_bias", ST_BOOL, 0,
	  0, PRESET, M(linear_bias), NULL, NULL },
	[SET_SOFTMAX_TYPE] = { SET_SOFTMAX_TYPE, NULL, "softmax_type",
	  ST_CHOICE, 0, 0, PRESET, M(softmax_type), NULL, NULL,
	  WORDS(softmax_type_words,
	  "is not a softmax type (vanilla, off-by-one or learnable)") },
	[SET_SLIDING_WINDOW] = { SET_SLIDING_WINDOW, NULL, "sliding_window",
	  ST_INT, 0, 64 * K * K, PRESET, M(sliding_window), NULL, NULL },
	[SET_WINDOW_SKIP_FREQ] = { SET_WINDOW_SKIP_FREQ, NULL,
	  "window_attn_skip_freq", ST_INT, 0, 64 * K, PRESET,
	  M(window_skip_freq), NULL, NULL },
	[SET_ACTIVATION] = { SET_ACTIVATION, NULL, "activation", ST_CHOICE, 0,
	  0, PRESET, M(activation), NULL, NULL, WORDS(activation_words,
	  "is not an activation (swiglu, quick_geglu or squared_relu)") },
	[SET_GLU_LINEAR_OFFSET] = { SET_GLU_LINEAR_OFFSET, NULL,
	  "glu_linear_offset", ST_REAL, 0, 100, PRESET, M(glu_linear_offset),
	  NULL, NULL },
	[SET_ACTIVATION_CLAMP] = { SET_ACTIVATION_CLAMP, NULL,
	  "activation_func_clamp_value", ST_REAL, 0, 1000000, PRESET,
	  M(activation_clamp), NULL, NULL },
	[SET_YARN_ORIGINAL_MAX_POS] = { SET_YARN_ORIGINAL_MAX_POS, NULL,
	  "yarn_original_max_position_embeddings", ST_INT, 0, 64 * K * K,
	  PRESET, M(yarn_original_max_pos), NULL, NULL },
	[SET_YARN_BETA_FAST] = { SET_YARN_BETA_FAST, NULL, "yarn_beta_fast",
	  ST_REAL, 0, 1000, PRESET, M(yarn_beta_fast), NULL, NULL },
	[SET_YARN_BETA_SLOW] = { SET_YARN_BETA_SLOW, NULL, "yarn_beta_slow",
	  ST_REAL, 0, 1000, PRESET, M(yarn_beta_slow), NULL, NULL },
	[SET_YARN_EXACT_RANGE] = { SET_YARN_EXACT_RANGE, NULL,
	  "yarn_exact_correction_range", ST_BOOL, 0, 0, PRESET,
	  M(yarn_exact_range), NULL, NULL },
	[SET_ROUTER_SCORE] = { SET_ROUTER_SCORE, NULL,
	  "moe_router_score_function", ST_CHOICE, 0, 0, PRESET,
	  M(router_score), NULL, NULL, WORDS(router_score_words,
	  "is not a router score function (softmax or sigmoid)") },
	[SET_ROUTER_EXPERT_BIAS] = { SET_ROUTER_EXPERT_BIAS, NULL,
	  "moe_router_expert_bias", ST_BOOL, 0, 0, PRESET,
	  M(router_expert_bias), NULL, NULL },
	[SET_ROUTER_TOPK_SCALE] = { SET_ROUTER_TOPK_SCALE, NULL,
	  "moe_router_topk_scaling_factor", ST_REAL, 0, 1000, PRESET,
	  M(router_topk_scale), NULL, NULL },
	[SET_ROUTER_GROUPS] = { SET_ROUTER_GROUPS, NULL,
	  "moe_router_num_groups", ST_INT, 1, 64 * K, PRESET, M(router_groups),
	  NULL, NULL },
	[SET_ROUTER_GROUP_TOPK] = { SET_ROUTER_GROUP_TOPK, NULL,
	  "moe_router_group_topk", ST_INT, 1, 64 * K, PRESET,
	  M(router_group_topk), NULL, NULL },
	[SET_ROUTER_PRE_SOFTMAX] = { SET_ROUTER_PRE_SOFTMAX, NULL,
	  "moe_router_pre_softmax", ST_BOOL, 0, 0, PRESET,
	  M(router_pre_softmax), NULL, NULL },
	[SET_AUX_LOSS] = { SET_AUX_LOSS, NULL, "moe_aux_loss", ST_CHOICE, 0, 0,
	  PRESET, M(aux_loss), NULL, NULL, WORDS(aux_loss_words,
	  "is not a load-balancing loss (aux_loss, seq_aux_loss or none)") },
	[SET_AUX_LOSS_COEFF] = { SET_AUX_LOSS_COEFF, NULL,
	  "moe_aux_loss_coeff", ST_REAL, 0, 1000, PRESET, M(aux_loss_coeff),
	  NULL, NULL },
	[SET_HYBRID_PATTERN] = { SET_HYBRID_PATTERN, NULL,
	  "hybrid_layer_pattern", ST_STRING, 0, 0, PRESET, M(hybrid_pattern),
	  NULL, NULL, check_hybrid_pattern },
	[SET_MTP_PATTERN] = { SET_MTP_PATTERN, NULL,
	  "mtp_hybrid_layer_pattern", ST_STRING, 0, 0, PRESET,
	  M(mtp_pattern), NULL, NULL, check_hybrid_pattern },
	[SET_MAMBA_STATE_DIM] = { SET_MAMBA_STATE_DIM, NULL,
	  "mamba_state_dim", ST_INT, 1, 64 * K, PRESET, M(mamba_state_dim),
	  NULL, NULL },
	[SET_MAMBA_HEAD_DIM] = { SET_MAMBA_HEAD_DIM, NULL, "mamba_head_dim",
	  ST_INT, 1, 64 * K, PRESET, M(mamba_head_dim), NULL, NULL },
	[SET_MAMBA_NUM_HEADS] = { SET_MAMBA_NUM_HEADS, NULL,
	  "mamba_num_heads", ST_INT, 1, 64 * K, PRESET, M(mamba_num_heads),
	  NULL, NULL },
	[SET_MAMBA_NUM_GROUPS] = { SET_MAMBA_NUM_GROUPS, NULL,
	  "mamba_num_groups", ST_INT, 1, 64 * K, PRESET,
	  M(mamba_num_groups), NULL, NULL },
	[SET_MOE_LATENT_SIZE] = { SET_MOE_LATENT_SIZE, NULL,
	  "moe_latent_size", ST_INT, 1, 1024 * K, PRESET, M(moe_latent_size),
	  NULL, NULL },

	[SET_FIRST_STAGE_LAYERS] = { SET_FIRST_STAGE_LAYERS,
	  "num-layers-in-first-pipeline-stage",
	  "num_layers_in_first_pipeline_stage", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "layers on the first pipeline stage (uneven split)" },
	[SET_LAST_STAGE_LAYERS] = { SET_LAST_STAGE_LAYERS,
	  "num-layers-in-last-pipeline-stage",
	  "num_layers_in_last_pipeline_stage", ST_INT, 1, 64 * K, PAR, 0, "N",
	  "layers on the last pipeline stage (uneven split)" },
	[SET_ACCOUNT_EMBEDDING] = { SET_ACCOUNT_EMBEDDING,
	  "account-for-embedding-in-pipeline-split",
	  "account_for_embedding_in_pipeline_split", ST_BOOL, 0, 0, PAR, 0,
	  NULL, "count the embedding as a layer of the first stage" },
	[SET_ACCOUNT_LOSS] = { SET_ACCOUNT_LOSS,
	  "account-for-loss-in-pipeline-split",
	  "account_for_loss_in_pipeline_split", ST_BOOL, 0, 0, PAR, 0, NULL,
	  "count the loss as a layer of the last stage" },
	[SET_SEQ_LENGTH] = { SET_SEQ_LENGTH, "seq-length", "seq_length",
	  ST_INT, 1, 2 * K * K * K, PAR, 0, "L", "sequence length in tokens" },
	[SET_GLOBAL_BATCH_SIZE] = { SET_GLOBAL_BATCH_SIZE, "global-batch-size",
	  "global_batch_size", ST_INT, 1, 2 * K * K * K, PAR, 0, "N",
	  "global batch size" },
	[SET_MICRO_BATCH_SIZE] = { SET_MICRO_BATCH_SIZE, "micro-batch-size",
	  "micro_batch_size", ST_INT, 1, K * K, PAR, 0, "N",
	  "micro-batch size (default 1)" },
	[SET_TP_COMM_OVERLAP] = { SET_TP_COMM_OVERLAP, "tp-comm-overlap",
	  "tp_comm_overlap", ST_BOOL, 0, 0, PAR, 0, NULL,
	  "TP communication overlap (needs TP >= 2, SP)" },
	[SET_STRICT] = { SET_STRICT, "strict", "strict", ST_BOOL, 0, 0, PAR, 0,
	  NULL, "treat warnings as errors (exit 3)" },
	[SET_ALLOW_OOM] = { SET_ALLOW_OOM, "allow-oom", "allow_oom", ST_BOOL, 0,
	  0, SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, NULL,
	  "queue a layout estimated not to fit in GPU memory (submit, "
	  "sweep)" },
	[SET_TRAIN_ITERS] = { SET_TRAIN_ITERS, "train-iters", "train_iters",
	  ST_INT, 1, INT64_C(1000000000000), SF_CLI | SF_GEN | SF_JOB, 0, "N",
	  "training iterations (default: the recipe's)" },
	[SET_LR] = { SET_LR, "lr", "lr", ST_REAL, 0, 1000,
	  SF_CLI | SF_GEN | SF_JOB, 0, "RATE",
	  "peak learning rate, such as 3e-4 (default: the recipe's)" },
	[SET_CHECKPOINT_DIR] = { SET_CHECKPOINT_DIR, "checkpoint-dir",
	  "checkpoint_dir", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "DIR",
	  "save checkpoints here and resume from them" },
	[SET_SAVE_INTERVAL] = { SET_SAVE_INTERVAL, "save-interval",
	  "save_interval", ST_INT, 1, INT64_C(1000000000000),
	  SF_CLI | SF_GEN | SF_JOB, 0, "N",
	  "save a checkpoint every N iterations" },
	[SET_PRETRAINED_CHECKPOINT] = { SET_PRETRAINED_CHECKPOINT,
	  "pretrained-checkpoint", "pretrained_checkpoint", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB, 0, "DIR",
	  "the weights a fine-tuning recipe starts from (needed by SFT and "
	  "LoRA recipes)" },
	[SET_FP8] = { SET_FP8, "fp8", "fp8", ST_CHOICE, 0, 0, SF_CLI | SF_JOB,
	  0, "RECIPE",
	  "low-precision training: FP8 tensorwise, delayed, blockwise or "
	  "mxfp8, or FP4 nvfp4 (Blackwell; off by default; no to turn a "
	  "recipe's off)", WORDS(fp8_words,
	  "is not an FP8 or FP4 recipe (tensorwise, delayed, blockwise, "
	  "mxfp8, nvfp4, or no)") },
	[SET_FP8_PARAM_GATHER] = { SET_FP8_PARAM_GATHER, "fp8-param-gather",
	  "fp8_param_gather", ST_BOOL, 0, 0, SF_CLI | SF_JOB, 0, NULL,
	  "keep FP8 weights and gather them in FP8 (with --fp8)" },

	/* The simple Slurm options (slurmopt-list.h), each at its index. */
#define SLURMOPT_SIMPLE(id, option, shortopt, member, libslurm, check, \
    arg, help, rest_key) \
	[SET_##id] = { SET_##id, option, #member, ST_STRING, 0, 0, \
	  SLURM_CLI, 0, arg, help, check },
#include "slurmopt-list.h"
	[SET_TIME] = { SET_TIME, "time", "time", ST_STRING, 0, 0, SLURM_CLI, 0,
	  "TIME", "time limit: MINUTES, HH:MM:SS, D-HH:MM:SS",
	  slurmopt_check_time },
	[SET_JOB_NAME] = { SET_JOB_NAME, "job-name", "job_name", ST_STRING, 0,
	  0, SF_CLI | SF_GEN | SF_SLURM, 0, "NAME",
	  "job name (default: the model, else the recipe)",
	  slurmopt_check_text },
	[SET_OUTPUT] = { SET_OUTPUT, "output", "output", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_SLURM, 0, "PATH",
	  "job output (default logs/%x-%j.out)", slurmopt_check_text },
	[SET_ERROR] = { SET_ERROR, "error", "error", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_SLURM, 0, "PATH",
	  "job error output (default: with the output)", slurmopt_check_text },
	[SET_EXCLUSIVE] = { SET_EXCLUSIVE, "exclusive", "exclusive", ST_BOOL,
	  0, 0, SLURM_CLI, 0, NULL, "whole nodes (default with --gpu-type)" },
	[SET_MEM] = { SET_MEM, "mem", "mem", ST_STRING, 0, 0, SLURM_CLI, 0,
	  "SIZE", "memory per node, 0 for all (default 0 with --gpu-type)",
	  slurmopt_check_mem },
	[SET_CONSTRAINT] = { SET_CONSTRAINT, "constraint", "constraint",
	  ST_STRING, 0, 0, SLURM_CLI, 0, "FEATURES", "Slurm node features",
	  slurmopt_check_constraint },
	[SET_MAIL_TYPE] = { SET_MAIL_TYPE, "mail-type", "mail_type",
	  ST_STRING, 0, 0, SLURM_CLI, 0, "TYPES",
	  "mail on these events: BEGIN, END, FAIL, ALL, ...",
	  slurmopt_check_mail_type },
	/* sbatch's -c (at most 65533: a uint16_t below NO_VAL16). */
	[SET_CPUS_PER_TASK] = { SET_CPUS_PER_TASK, "cpus-per-task",
	  "cpus_per_task", ST_INT, 1, 65533, SLURM_CLI, 0, "N",
	  "CPUs for each GPU's process (also given to the launch's srun)" },
	[SET_CHDIR] = { SET_CHDIR, "chdir", "chdir", ST_STRING, 0, 0,
	  SLURM_CLI, 0, "DIR",
	  "the job's working directory (default: where it is submitted)",
	  slurmopt_check_text },
	/* Any other sbatch option: in a job file's "slurm" object, or a
	 * profile's, under "extra". */
	[SET_SLURM_EXTRA] = { SET_SLURM_EXTRA, "slurm-opt", "extra",
	  ST_OPTIONS, 0, 0, SF_CLI | SF_GEN | SF_SLURM | SF_PROFILE_SLURM, 0,
	  "NAME[=VALUE]", "any other sbatch option, such as "
	  "licenses=scratch:1 or spread-job (repeatable)", check_slurm_opt },
	/* How the site takes GPUs, and its GRES type of each GPU type. */
	[SET_GPU_REQUEST] = { SET_GPU_REQUEST, "gpu-request", "gpu_request",
	  ST_CHOICE, 0, 0, SLURM_CLI, 0, "FORM",
	  "how the site takes GPUs: gpus-per-node (--gpus-per-node=[TYPE:]N, "
	  "the default) or gres (--gres=gpu:[TYPE:]N)",
	  WORDS(gpu_request_words, "is not a GPU request form (gpus-per-node "
	  "or gres)") },
	[SET_GRES_TYPES] = { SET_GRES_TYPES, "gres-types", "gres_types",
	  ST_OPTIONS, 0, 0, SF_CLUSTER, 0, "GPU=TYPE",
	  "the site's GRES type of each --gpu-type, such as "
	  "h100=nvidia_h100_80gb_hbm3", check_gres_type },
	[SET_DEPENDENCY] = { SET_DEPENDENCY, "dependency", "dependency",
	  ST_STRING, 0, 0, SF_CLI | SF_GEN | SF_SLURM, 0, "DEPS",
	  "Slurm dependency, such as afterok:123", slurmopt_check_dependency },
	[SET_SIGNAL] = { SET_SIGNAL, "signal", "signal", ST_STRING, 0, 0,
	  SLURM_CLI, 0, "SIG@SECS",
	  "signal before the time limit, such as USR2@90",
	  slurmopt_check_signal },
	[SET_REQUEUE] = { SET_REQUEUE, "requeue", "requeue", ST_BOOL, 0, 0,
	  SLURM_CLI, 0, NULL, "requeue on the signal or on preemption" },
	[SET_MAX_RESTARTS] = { SET_MAX_RESTARTS, "max-restarts",
	  "max_restarts", ST_INT, 0, 1000,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "N",
	  "requeues at most N times (default 3)" },
	[SET_GATE] = { SET_GATE, "gate", "gate", ST_BOOL, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, NULL,
	  "check every node before training (default: on for several "
	  "nodes)" },
	[SET_HANG_TIMEOUT] = { SET_HANG_TIMEOUT, "hang-timeout",
	  "hang_timeout", ST_INT, 1, 7 * 24 * 3600,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "SECONDS",
	  "a run with no new iteration for longer (and 3 steps) hangs "
	  "(default from the estimate)" },
	[SET_STALL_RESTARTS] = { SET_STALL_RESTARTS, "stall-restarts",
	  "stall_restarts", ST_INT, 1, 1000,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "N",
	  "stop after N restarts without a new checkpoint (default 3)" },

	[SET_TEMPLATE] = { SET_TEMPLATE, "template", "template", ST_STRING, 0,
	  0, SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "NAME|PATH",
	  "megatron-bridge (default), megatron-lm, command, or a file",
	  .words = template_words, .nwords = TEMPLATE_OTHER },
	[SET_RECIPE] = { SET_RECIPE, "recipe", "recipe", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB, 0, "NAME",
	  "Megatron-Bridge recipe, such as llama3_8b_pretrain_config" },
	[SET_BRIDGE_VERSION] = { SET_BRIDGE_VERSION, "bridge-version",
	  "bridge_version", ST_STRING, 0, 0, SF_CLI | SF_JOB | SF_CLUSTER, 0,
	  "VERSION",
	  "Megatron-Bridge to write for: 0.5.1, 0.6.0 (default) or main",
	  check_bridge_version },
	[SET_DATASET] = { SET_DATASET, "dataset", "dataset", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB, 0, "TYPE",
	  "run_recipe.py --dataset, such as mock" },
	[SET_TRAIN_SCRIPT] = { SET_TRAIN_SCRIPT, "train-script",
	  "train_script", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "PATH",
	  "training script (default: run_recipe.py or pretrain_gpt.py)" },
	[SET_COMMAND] = { SET_COMMAND, "command", "command", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB, 0, "CMD",
	  "command of the command template, run per GPU by bash -c" },
	[SET_LAUNCHER] = { SET_LAUNCHER, "launcher", "launcher", ST_CHOICE, 0,
	  0, SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "srun|torchrun",
	  "one process per GPU under srun (default), or torchrun per node",
	  WORDS(launcher_words, "is not a launcher (srun or torchrun)") },
	[SET_OVERRIDES] = { SET_OVERRIDES, "override", "overrides", ST_LIST, 0,
	  0, SF_CLI | SF_GEN | SF_JOB, 0, "KEY=VALUE",
	  "a recipe override or training argument (repeatable)",
	  check_override },
	[SET_ENV] = { SET_ENV, "env", "env", ST_ENV, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "NAME=VALUE",
	  "an environment variable for the job (repeatable)" },
	/* Run by the batch shell as written (templates: eval); a profile's
	 * first, then the job file's, then the command line's. */
	[SET_SETUP] = { SET_SETUP, "setup", "setup", ST_LIST, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER | SF_APPEND, 0, "CMD",
	  "a shell line run before the launch, such as 'module load cuda' "
	  "(repeatable; a profile's first)", check_setup },
	[SET_SRUN_OPTIONS] = { SET_SRUN_OPTIONS, "srun-opt", "srun_options",
	  ST_LIST, 0, 0, SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER | SF_APPEND, 0,
	  "OPTION", "an option of the launch's srun, such as --mpi=pmix "
	  "(repeatable; a profile's first)", check_srun_option },
	[SET_CONTAINER_IMAGE] = { SET_CONTAINER_IMAGE, "container-image",
	  "container_image", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "IMAGE",
	  "run in this container (pyxis srun --container-image)" },
	[SET_CONTAINER_MOUNTS] = { SET_CONTAINER_MOUNTS, "container-mounts",
	  "container_mounts", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "SRC:DST,...",
	  "container mounts" },
	[SET_CONTAINER_WORKDIR] = { SET_CONTAINER_WORKDIR, "container-workdir",
	  "container_workdir", ST_STRING, 0, 0,
	  SF_CLI | SF_GEN | SF_JOB | SF_CLUSTER, 0, "DIR",
	  "working directory in the container" },

	[SET_MOE_DISPATCHER] = { SET_MOE_DISPATCHER, "moe-dispatcher",
	  "moe_dispatcher", ST_CHOICE, 0, 0, SF_CLI | SF_JOB | SF_CLUSTER, 0,
	  "TYPE", "alltoall (default), allgather, deepep or hybridep",
	  WORDS(dispatcher_words, "is not a MoE dispatcher (alltoall, "
	  "allgather, deepep or hybridep)") },
	[SET_MOE_A2A_OVERLAP] = { SET_MOE_A2A_OVERLAP, "moe-a2a-overlap",
	  "moe_a2a_overlap", ST_BOOL, 0, 0, SF_CLI | SF_JOB, 0, NULL,
	  "overlap MoE all-to-all with compute" },
	[SET_DISTRIBUTED_OPTIMIZER] = { SET_DISTRIBUTED_OPTIMIZER,
	  "distributed-optimizer", "distributed_optimizer", ST_BOOL, 0, 0,
	  SF_CLI | SF_JOB, 0, NULL,
	  "shard optimizer state over DP (default on)" },
	[SET_FSDP] = { SET_FSDP, "fsdp", "fsdp", ST_BOOL, 0, 0,
	  SF_CLI | SF_JOB, 0, NULL,
	  "Megatron-FSDP: shard over DP what --fsdp-sharding says (implies "
	  "the distributed optimizer)" },
	[SET_FSDP_SHARDING] = { SET_FSDP_SHARDING, "fsdp-sharding",
	  "fsdp_sharding", ST_CHOICE, 0, 0, SF_CLI | SF_JOB, 0, "WHAT",
	  "with --fsdp: optim_grads_params (default), optim_grads or optim",
	  WORDS(fsdp_sharding_words, "is not an FSDP sharding "
	  "(optim_grads_params, optim_grads or optim)") },
	[SET_RECOMPUTE] = { SET_RECOMPUTE, "recompute", "recompute", ST_CHOICE,
	  0, 0, SF_CLI | SF_JOB, 0, "MODE",
	  "activation recompute: none, selective or full (default: the "
	  "recipe's; estimated as selective)", WORDS(recompute_words,
	  "is not a recompute mode (none, selective or full)") },
	[SET_CUDA_GRAPHS] = { SET_CUDA_GRAPHS, "cuda-graphs", "cuda_graphs",
	  ST_CHOICE, 0, 0, SF_CLI | SF_JOB, 0, "IMPL",
	  "CUDA graph capture: none (default), local, transformer_engine "
	  "or full_iteration", WORDS(cuda_graph_words, "is not a CUDA graph "
	  "implementation (none, local, transformer_engine or "
	  "full_iteration)") },
	[SET_PARAMS_DTYPE] = { SET_PARAMS_DTYPE, "params-dtype",
	  "params_dtype", ST_CHOICE, 0, 0, SF_CLI | SF_JOB, 0, "TYPE",
	  "model weights: bf16 (default), fp16 or fp32", WORDS(dtype_words,
	  "is not a weight dtype (bf16, fp16 or fp32)") },
	[SET_GRADS_DTYPE] = { SET_GRADS_DTYPE, "grads-dtype", "grads_dtype",
	  ST_CHOICE, 0, 0, SF_CLI | SF_JOB, 0, "TYPE",
	  "gradient buffers and their reduction: fp32 (default), or the "
	  "weights' bf16 or fp16", WORDS(dtype_words,
	  "is not a gradient dtype (fp32, bf16 or fp16)") },
	[SET_OPTIMIZER_DTYPE] = { SET_OPTIMIZER_DTYPE, "optimizer-dtype",
	  "optimizer_dtype", ST_CHOICE, 0, 0, SF_CLI | SF_JOB, 0, "TYPE",
	  "Adam's moments: fp32 (default), bf16 or fp16 (the precision-aware "
	  "optimizer)", WORDS(dtype_words,
	  "is not an optimizer-state dtype (fp32, bf16 or fp16)") },
	[SET_MEMORY_MODEL] = { SET_MEMORY_MODEL, "memory-model",
	  "memory_model", ST_CHOICE, 0, 0, SF_CLI | SF_JOB | SF_CLUSTER, 0,
	  "NAME",
	  "memory estimate: megatron (default) or skill (the 70B rule of "
	  "thumb)", WORDS(memory_model_words,
	  "is not a memory model (megatron or skill)") },
	[SET_CUDA_DEVICE_MAX_CONNECTIONS] = { SET_CUDA_DEVICE_MAX_CONNECTIONS,
	  "cuda-device-max-connections", "cuda_device_max_connections", ST_INT,
	  1, 64, SF_CLI | SF_JOB | SF_CLUSTER, 0, "N",
	  "CUDA_DEVICE_MAX_CONNECTIONS (default by GPU and layout)" },
	[SET_LAYERNORM_SM_MARGIN] = { SET_LAYERNORM_SM_MARGIN,
	  "layernorm-sm-margin", "layernorm_sm_margin", ST_INT, 0, 1024,
	  SF_CLI | SF_JOB | SF_CLUSTER, 0, "N",
	  "NVTE_FWD/BWD_LAYERNORM_SM_MARGIN (default 16, 20 with DeepEP "
	  "or HybridEP; Bridge 0.6.0 and main: the recipe's)" },
	[SET_OVERLAP_P2P_COMM] = { SET_OVERLAP_P2P_COMM, "overlap-p2p-comm",
	  "overlap_p2p_comm", ST_BOOL, 0, 0, SF_CLI | SF_JOB, 0, NULL,
	  "overlap pipeline P2P (default: PP > 1 with VPP)" },
	[SET_BATCH_P2P_COMM] = { SET_BATCH_P2P_COMM, "batch-p2p-comm",
	  "batch_p2p_comm", ST_BOOL, 0, 0, SF_CLI | SF_JOB, 0, NULL,
	  "batch pipeline P2P (default: PP > 1 without VPP)" },
	[SET_OVERLAP_GRAD_REDUCE] = { SET_OVERLAP_GRAD_REDUCE,
	  "overlap-grad-reduce", "overlap_grad_reduce", ST_BOOL, 0, 0,
	  SF_CLI | SF_JOB, 0, NULL,
	  "overlap the gradient reduce (default: DP > 1)" },
	[SET_OVERLAP_PARAM_GATHER] = { SET_OVERLAP_PARAM_GATHER,
	  "overlap-param-gather", "overlap_param_gather", ST_BOOL, 0, 0,
	  SF_CLI | SF_JOB, 0, NULL,
	  "overlap the parameter gather (default: DP > 1)" },
	[SET_ALIGN_PARAM_GATHER] = { SET_ALIGN_PARAM_GATHER,
	  "align-param-gather", "align_param_gather", ST_BOOL, 0, 0,
	  SF_CLI | SF_JOB, 0, NULL,
	  "align the parameter gather (default: DP, PP and VPP > 1)" },
	[SET_DDP_BUCKET_SIZE] = { SET_DDP_BUCKET_SIZE, "ddp-bucket-size",
	  "ddp_bucket_size", ST_COUNT, 1, INT64_C(1000000000000),
	  SF_CLI | SF_JOB, 0, "N",
	  "DDP bucket in parameters (default 128Mi with DP overlap)" },

	[SET_VIA] = { SET_VIA, "via", "via", ST_STRING, 0, 0, CONNECT, 0,
	  BACKEND_NAMES_ARG, "the back end (default: rest with a REST "
	  "URL, else native, else sbatch)", check_via },
	[SET_REST_URL] = { SET_REST_URL, "rest-url", "rest_url", ST_STRING, 0,
	  0, CONNECT, 0, "URL",
	  "slurmrestd: http(s)://HOST:PORT or unix:/PATH", check_rest_url },
	[SET_API_VERSION] = { SET_API_VERSION, "api-version", "api_version",
	  ST_STRING, 0, 0, CONNECT, 0, "vX|auto",
	  "REST API version, such as v0.0.40 " "(default auto)" },
	[SET_TOKEN_FILE] = { SET_TOKEN_FILE, "token-file", "token_file",
	  ST_STRING, 0, 0, CONNECT, 0, "FILE",
	  "the JWT (default $SLURM_JWT); not readable by others" },
	[SET_CACERT] = { SET_CACERT, "cacert", "cacert", ST_STRING, 0, 0,
	  CONNECT, 0, "FILE", "CA certificates for https" },
	[SET_USER] = { SET_USER, "user", "user", ST_STRING, 0, 0, CONNECT, 0,
	  "NAME", "REST user name (default: the login name)" },
	[SET_REST_TIMEOUT] = { SET_REST_TIMEOUT, "rest-timeout",
	  "rest_timeout", ST_INT, 1, 3600, CONNECT, 0, "SECONDS",
	  "give up on a slurmrestd that does not " "answer (default 60)" },
	[SET_INSECURE_HTTP] = { SET_INSECURE_HTTP, "insecure-http",
	  "insecure_http", ST_BOOL, 0, 0, CONNECT, 0, NULL,
	  "send the token over plain http:// to another "
	  "host (default: refused; loopback and unix: are always allowed)" },
	[SET_CLUSTER] = { SET_CLUSTER, NULL, "cluster", ST_STRING, 0, 0,
	  SF_JOB, 0, NULL, NULL },

	/* A profile's calibration: written by mbsbatch calibrate, never a
	 * job's (it is the cluster's, measured). */
	[SET_SITE_FACTOR] = { SET_SITE_FACTOR, NULL, "site_factor", ST_REAL,
	  0, 20, SF_CLUSTER, 0, NULL, NULL, check_site_factor,
	  .range = "a number above 0.05 and below 20, such as 0.83" },
	[SET_SITE_FACTOR_LOGS] = { SET_SITE_FACTOR_LOGS, NULL,
	  "site_factor_logs", ST_INT, 1, K * K, SF_CLUSTER, 0, NULL, NULL },
	[SET_SITE_FACTOR_DATE] = { SET_SITE_FACTOR_DATE, NULL,
	  "site_factor_date", ST_STRING, 0, 0, SF_CLUSTER, 0, NULL, NULL,
	  check_date },
};

static const char *
check_gpu_type(const char *name)
{
	return gpu_type_find(name) == NULL ? "is not a known GPU type "
	    "(a100, h100, h200, b200, b300, gb200, gb300; or leave it out "
	    "and give --gpus-per-node and --gpu-memory)" : NULL;
}

/* Megatron's layer symbols, as far as mbsbatch models them (hybrid.h). */
static const char *
check_hybrid_pattern(const char *s)
{
	struct hybrid_counts	 c;

	return hybrid_parse(s, &c);
}

/* A gres_types entry: GPU=TYPE, GPU a type --gpu-type takes. */
static const char *
check_gres_type(const char *s)
{
	static char	 why[160];
	const char	*eq = strchr(s, '='), *reason;
	char		 name[32];

	if (eq == NULL)
		return "needs the site's GRES type as its value, such as "
		    "\"h100\": \"nvidia_h100_80gb_hbm3\"";
	snprintf(name, sizeof name, "%.*s", (int)(eq - s), s);
	if ((size_t)(eq - s) >= sizeof name || gpu_type_find(name) == NULL)
		return "does not name a GPU type of --gpu-type (a100, h100, "
		    "h200, b200, b300, gb200, gb300)";
	if ((reason = slurmopt_check_gres_type_name(eq + 1)) != NULL) {
		snprintf(why, sizeof why, "has a type that %s", reason);
		return why;
	}
	return NULL;
}

static const char *
check_bridge_version(const char *name)
{
	return bridge_target_find(name) == NULL ? "is not a Megatron-Bridge "
	    "version mbsbatch knows (0.5.1, 0.6.0 or main)" : NULL;
}








static const char *
check_via(const char *s)
{
	size_t	 i;

	for (i = 0; backend_names[i] != NULL; i++)
		if (strcmp(s, backend_names[i]) == 0)
			return NULL;
	return "is not a back end (" BACKEND_NAMES_TEXT ")";
}

static const char *
check_rest_url(const char *s)
{
	return strncmp(s, "http://", 7) == 0 || strncmp(s, "https://", 8) == 0 ||
	    (strncmp(s, "unix:/", 6) == 0) ? NULL :
	    "is not http://HOST:PORT, https://HOST:PORT or unix:/PATH";
}

static const char *
check_override(const char *s)
{
	return *s == '\0' ? "is empty" : NULL;
}

/* A site factor (a number already, in [0, 20]): calibration.h's open
 * range. */
static const char *
check_site_factor(const char *s)
{
	return calibration_factor_check(strtod(s, NULL));
}

/* A calendar date as calibrate writes it: YYYY-MM-DD. */
static const char *
check_date(const char *s)
{
	return calibration_date_check(s);
}

/* A setup line: one line of shell, not blank. */
static const char *
check_setup(const char *s)
{
	if (s[strspn(s, " \t")] == '\0')
		return "is blank";
	return NULL;
}

/*
 * An option of srun: --NAME[=VALUE] or -X[VALUE], one word each (a value
 * given as the next word would be taken for the program).  Those the
 * launch itself decides are refused, naming what decides them.
 */
static const char *
check_srun_option(const char *s)
{
	static const struct {
		const char	*name;
		const char	*why;
		char		 shortopt;	/* srun's, or 0 */
	} owned[] = {
		{ "ntasks", "sets the launch's tasks: mbsbatch sizes them", 'n' },
		{ "ntasks-per-node", "sets the launch's tasks: mbsbatch sizes "
		  "them" },
		{ "nodes", "sets the launch's nodes: mbsbatch sizes them", 'N' },
		{ "cpus-per-task", "is written from --cpus-per-task: give that "
		  "instead", 'c' },
		{ "container-image", "is written from --container-image: give "
		  "that instead" },
		{ "container-mounts", "is written from --container-mounts: "
		  "give that instead" },
		{ "container-workdir", "is written from --container-workdir: "
		  "give that instead" },
	};
	size_t	 i, n;

	if (s[0] != '-' || s[1] == '\0' || (s[1] == '-' && s[2] == '\0'))
		return "is not an srun option (--NAME, --NAME=VALUE or -X)";
	if (strpbrk(s, " \t") != NULL && strchr(s, '=') == NULL)
		return "has a blank: give the value with '=' (--NAME=VALUE)";
	if (s[1] != '-') {
		for (i = 0; i < sizeof owned / sizeof owned[0]; i++)
			if (owned[i].shortopt == s[1])
				return owned[i].why;
		return NULL;
	}
	n = strcspn(s + 2, "=");
	for (i = 0; i < sizeof owned / sizeof owned[0]; i++)
		if (strlen(owned[i].name) == n &&
		    strncmp(s + 2, owned[i].name, n) == 0)
			return owned[i].why;
	return NULL;
}

/*
 * What --slurm-opt may not set, and why: what mbsbatch sizes, what a
 * setting of its own writes (the rows of slurmopt_table written from
 * one: named by their option), what would stop sbatch reading the
 * script as a job.
 */
static const struct {
	const char	*name;
	const char	*why;
} slurm_opt_refused[] = {
	{ "nodes", "is sized by mbsbatch: give --nodes or --gpus" },
	{ "ntasks", "is sized by mbsbatch: a task per GPU" },
	{ "ntasks-per-node", "is sized by mbsbatch: give --gpus-per-node" },
	{ "tasks-per-node", "is sized by mbsbatch: give --gpus-per-node" },
	{ "ntasks-per-gpu", "is sized by mbsbatch: a task per GPU" },
	{ "ntasks-per-tres", "is sized by mbsbatch: a task per GPU" },
	{ "gpus", "is sized by mbsbatch: give --gpus" },
	{ "gpus-per-node", "is sized by mbsbatch: give --gpus-per-node, and "
	  "for a GPU type --gpu-type with the profile's gres_types" },
	{ "gpus-per-task", "is sized by mbsbatch: a GPU per task" },
	{ "gpus-per-socket", "is sized by mbsbatch: give --gpus-per-node" },
	{ "gres", "would ask for GPUs beside those mbsbatch writes: for a "
	  "GPU type give --gpu-type with the profile's gres_types, for the "
	  "--gres form --gpu-request gres" },
	{ "segment", "is written by mbsbatch on NVL72 racks: give "
	  "--nvlink-domain" },
	{ "open-mode", "is written by mbsbatch with --requeue" },
	{ "hold", "is a submission's: give submit --hold" },
	{ "no-requeue", "is a setting of its own: give --no-requeue" },
	{ "wrap", "replaces the script mbsbatch writes" },
	{ "parsable", "is sbatch's output, not the job's: give submit "
	  "--parsable" },
	{ "test-only", "is sbatch's, not the job's" },
	{ "wait", "is sbatch's, not the job's: give submit --wait" },
	{ "help", "is sbatch's, not the job's" },
	{ "usage", "is sbatch's, not the job's" },
	{ "version", "is sbatch's, not the job's" },
	{ "quiet", "is sbatch's, not the job's" },
	{ "verbose", "is sbatch's, not the job's" },
};

/*
 * --slurm-opt NAME[=VALUE]: a long option of sbatch, of some release
 * from 22.05 to 25.11 (sbatch-options.c), with a value when it takes one
 * and none when it takes none, that nothing else in mbsbatch writes.
 */
static const char *
check_slurm_opt(const char *s)
{
	static char			 why[160];
	const struct sbatch_option	*o;
	const struct slurmopt_def	*r;
	const char			*eq = strchr(s, '='), *near;
	char				 name[64];
	size_t				 n = strcspn(s, "="), i;

	if (s[0] == '-')
		return "is not NAME or NAME=VALUE: give the option's long "
		    "name without '--'";
	if (n == 0)
		return "is not NAME or NAME=VALUE";
	snprintf(name, sizeof name, "%.*s", (int)n, s);
	if ((o = sbatch_option_find(s, n)) == NULL) {
		if ((near = sbatch_option_suggest(name)) != NULL)
			snprintf(why, sizeof why, "is not an option of sbatch "
			    "(did you mean '%s'?)", near);
		else
			snprintf(why, sizeof why, "is not an option of sbatch "
			    "(22.05 to 25.11)");
		return why;
	}
	for (i = 0; i < sizeof slurm_opt_refused /
	    sizeof slurm_opt_refused[0]; i++)
		if (strcmp(slurm_opt_refused[i].name, name) == 0)
			return slurm_opt_refused[i].why;
	if ((r = slurmopt_find(s, n)) != NULL && r->setting != SET__COUNT &&
	    settings_table[r->setting].option != NULL) {
		snprintf(why, sizeof why, "has a setting of its own: give --%s",
		    settings_table[r->setting].option);
		return why;
	}
	if (o->arg == SA_NONE && eq != NULL)
		return "takes no value: give the name alone";
	if (o->arg == SA_REQUIRED && eq == NULL)
		return "needs a value: NAME=VALUE";
	if (eq != NULL && eq[1] == '\0')
		return "has an empty value";
	return eq != NULL ? quote_sbatch_check(eq + 1) : NULL;
}
