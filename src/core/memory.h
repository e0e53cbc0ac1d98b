/*
 * memory.h: memory per GPU of a layout, by Megatron-LM's theoretical
 * formulas (megatron/training/theoretical_memory_usage.py; summarised in
 * docs/megatron-rules.md section 6): weights, gradients and optimizer
 * state on the most loaded shard, and activations on the first pipeline
 * stage.  One change to Megatron's estimator, where it is known to be
 * wrong: routed experts are sharded over EP x ETP (and their optimizer
 * state over EDP), not only over TP.  Pure: no I/O, no allocation.
 *
 * Beyond Megatron's estimator, which ignores them (issue 1784): the
 * activations of MoE layers, in moe_activations_gib.
 *
 * Where Megatron's activation count is known to be wrong for what runs,
 * with sequence parallelism (or TP 1, where SP changes nothing): Q, K, V
 * and the attention output kept at their widths (GQA), not the hidden
 * size; no dropout masks (every model here trains with dropout 0); with
 * FP8 training, the GEMM inputs Transformer Engine keeps in FP8 (1 byte,
 * not 2); with the interleaved schedule, no more chunks in flight than a
 * step has.  dense_saving_gib says what these take off Megatron's count.
 */
#ifndef MBSBATCH_MEMORY_H
#define MBSBATCH_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "model.h"

enum recompute {
	RECOMPUTE_SELECTIVE = 0,	/* Megatron's estimator assumes it */
	RECOMPUTE_NONE,
	RECOMPUTE_FULL,			/* uniform, one layer at a time */
};

/*
 * Modules of selective recompute (recompute_modules, megatron/core/
 * transformer/transformer_config.py core_v0.19.0:546-561), as bits.  A
 * list names them all: it replaces Megatron's default ["core_attn"]
 * (:1763-1764), which no bits (0) stands for; an empty list ("[]",
 * RECOMPUTE_LISTED alone) recomputes nothing.  Counted only with
 * RECOMPUTE_SELECTIVE, as Megatron applies them: recomputes().
 */
enum recompute_module {
	RECOMPUTE_MOE_ACT = 1,		/* "moe_act": the experts' activation */
	RECOMPUTE_CORE_ATTN = 2,	/* "core_attn": softmax(QK^T)V */
	RECOMPUTE_LAYERNORM = 4,	/* "layernorm": both norms of a layer */
	RECOMPUTE_MLA_UP_PROJ = 8,	/* "mla_up_proj": MLA's Q/KV up proj. */
	RECOMPUTE_MLP = 16,		/* "mlp": a dense layer's MLP */
	RECOMPUTE_MOE = 32,		/* "moe": the whole MoE layer */
	RECOMPUTE_SHARED_EXPERTS = 64,	/* "shared_experts" */
	RECOMPUTE_LISTED = 128,		/* a list given, even "[]" */
};

/*
 * Whether selective recompute RC with modules MODULES recomputes M:
 * Megatron checks each module by name in the list (attention.py
 * core_v0.19.0:394, transformer_layer.py:450, :512, moe_layer.py:248,
 * :253, experts.py:270, multi_latent_attention.py:173), ["core_attn"]
 * when none is given (transformer_config.py:1763-1764).  Inline: the
 * cost and memory estimates ask it per layer kind of every layout the
 * search tries (make bench: Kimi K2 14.0 -> 15.9 ms as a call).
 */
static inline bool
recomputes(int rc, unsigned bits, unsigned m)
{
	if (rc != RECOMPUTE_SELECTIVE)
		return false;
	return bits == 0 ? m == RECOMPUTE_CORE_ATTN : (bits & m) != 0;
}
/* The bits of a recompute_modules list ("a,b" or "['a', 'b']"), with
 * RECOMPUTE_LISTED; names it does not know are skipped. */
unsigned	 recompute_modules_parse(const char *);

/* A dtype; DEFAULT is Megatron's mixed precision for that state: bf16
 * weights, fp32 gradients, fp32 master weights and Adam moments. */
enum precision {
	PRECISION_DEFAULT = 0,
	PRECISION_FP32,
	PRECISION_BF16,
	PRECISION_FP16,
};

/*
 * Low-precision GEMMs (--fp8): the scaling recipe of Transformer Engine.
 * NVFP4 (FP4 E2M1 in 16-element blocks with an E4M3 scale each and an
 * FP32 scale a tensor; Megatron-LM's --fp4-format e2m1 --fp4-recipe
 * nvfp4) is one of them: Megatron refuses FP4 and FP8 together
 * (megatron/training/arguments.py:1101, transformer_config.py:1582 at
 * d98e8a64), so one setting chooses the GEMMs' format.
 */
enum fp8_recipe {
	FP8_NO = 0,		/* no FP8 training */
	FP8_TENSORWISE,		/* current scaling */
	FP8_DELAYED,
	FP8_BLOCKWISE,		/* sub-channel scaling */
	FP8_MXFP8,
	FP8_NVFP4,		/* FP4: Blackwell on */
};

/* Bytes an element of a GEMM input quantized by RECIPE takes: 2 (BF16)
 * without one, 1 in FP8, 0.5 + 1/16 in NVFP4 (its E4M3 block scale). */
double	 memory_quant_bytes(enum fp8_recipe);

/*
 * Megatron-FSDP (--use-megatron-fsdp) and what it shards over DP x CP
 * (its --data-parallel-sharding-strategy; no_shard is plain DDP, not
 * offered): OPTIM the optimizer state (ZeRO-1), OPTIM_GRADS the
 * gradients too (ZeRO-2), OPTIM_GRADS_PARAMS the weights too (ZeRO-3),
 * gathered a layer at a time.  OFF: no Megatron-FSDP.
 */
enum fsdp_sharding {
	FSDP_OFF = 0,
	FSDP_OPTIM_GRADS_PARAMS,	/* Bridge's FSDP recipes */
	FSDP_OPTIM_GRADS,
	FSDP_OPTIM,
};

enum memory_method {
	MEMORY_MEGATRON = 0,	/* theoretical_memory_usage.py, improved */
	MEMORY_SKILL,		/* the skill's worked 70B example */
};

/*
 * LoRA fine-tuning (Megatron-Bridge's PEFT, peft/lora.py): adapters of
 * rank RANK on the TARGETS linears of every layer, the base weights
 * frozen.  RANK 0: no adapters, every weight trains.
 */
enum lora_target {
	LORA_QKV = 1,		/* linear_qkv */
	LORA_PROJ = 2,		/* linear_proj */
	LORA_FC1 = 4,		/* linear_fc1 */
	LORA_FC2 = 8,		/* linear_fc2 */
};
#define LORA_ALL	(LORA_QKV | LORA_PROJ | LORA_FC1 | LORA_FC2)

struct lora {
	int64_t		 rank;		/* LoRA's dim */
	unsigned	 targets;	/* enum lora_target bits */
};

/*
 * Fine-grained activation offloading (fine_grained_activation_offloading,
 * offload_modules, megatron/core/transformer/transformer_config.py
 * core_v0.19.0:1228-1248), as bits: the modules whose saved tensors go
 * to the CPU.
 */
enum offload_module {
	OFFLOAD_FUSED_GROUP_MLP = 1,	/* "fused_group_mlp": the experts */
};

struct memory_input {
	enum memory_method method;
	struct model	 model;		/* layers, hidden, heads, vocab needed */
	struct layout	 layout;
	int64_t		 dp, edp;	/* from sizing */
	int64_t		 seq_length;
	int64_t		 micro_batch;
	int64_t		 num_microbatches;	/* 0: unknown (PP in flight) */
	bool		 distributed_optimizer;
	enum fsdp_sharding fsdp;	/* implies the distributed optimizer */
	/*
	 * Megatron-FSDP's HSDP with the optimizer sharded across the
	 * replicas (num_distributed_optimizer_instances with
	 * outer_dp_sharding_strategy "optim"): the weights and gradients
	 * shard over DP / this, the optimizer state over all DP.  0 or 1:
	 * plain FSDP.
	 */
	int64_t		 fsdp_outer;
	enum recompute	 recompute;
	unsigned	 recompute_modules;	/* enum recompute_module bits */
	unsigned	 offload_modules;	/* enum offload_module bits */
	/* Elements below which a tensor stays on the GPU
	 * (min_offloaded_tensor_size; 0: Megatron's 1024 x 1024). */
	int64_t		 min_offloaded;
	/* Weights (fp32: no separate master copy), gradient buffers, Adam's
	 * moments (Megatron's precision-aware optimizer). */
	enum precision	 params_dtype, grads_dtype, optimizer_dtype;
	bool		 fp8_params;	/* FP8 weights (--fp8-param-gather) */
	/* FP8 training: Transformer Engine keeps the inputs of its FP8
	 * GEMMs for the backward pass in FP8, 1 byte an element. */
	enum fp8_recipe	 fp8;
	/* The MoE all-to-all overlap: one more micro-batch in flight. */
	bool		 moe_a2a_overlap;
	/* LoRA: gradients and optimizer state of the adapters alone. */
	struct lora	 lora;
};

struct memory_estimate {
	/* Parameters on the most loaded shard. */
	double		 params;		/* dense + expert */
	double		 expert_params;
	/* Bytes per GPU, in GiB. */
	double		 params_gib;		/* bf16 weights: 2 B/param */
	double		 grads_gib;		/* fp32 gradients: 4 B/param */
	double		 optimizer_gib;		/* fp32 master + Adam: 12 B */
	/* Bytes per parameter of each, from the dtypes. */
	double		 params_bytes, grads_bytes, optimizer_bytes;
	double		 activations_gib;
	double		 total_gib;
	/* Parameters of the whole model by the same formulas. */
	double		 model_params;
	/* Part of activations_gib for MoE layers beyond Megatron's dense
	 * count: mbsbatch's own estimate (may be negative: the MoE block
	 * can keep less than the dense MLP Megatron counts). */
	double		 moe_activations_gib;
	/* What mbsbatch's count of attention and dense MLPs takes off
	 * Megatron's (already out of activations_gib): Megatron's formula
	 * is activations_gib + dense_saving_gib - moe_activations_gib. */
	double		 dense_saving_gib;
	/* Megatron-FSDP with its weights sharded: the working copy of the
	 * layers gathered whole at once (part of params_gib). */
	double		 fsdp_gathered_gib;
	/* LoRA: the adapters' parameters on the most loaded shard (in
	 * params), which alone have gradients and optimizer state. */
	double		 adapter_params;
};

/* LoRA adapter parameters of one transformer layer of M, over all TP
 * ranks (0 without LoRA). */
double		 memory_lora_layer_params(const struct model *,
		    const struct lora *);

/*
 * Estimate; NULL, or a static reason when the model lacks what the
 * formulas need ("needs the layer count, hidden size, ...").
 */
const char	*memory_estimate(const struct memory_input *,
		    struct memory_estimate *);

#endif
