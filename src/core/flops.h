/*
 * flops.h: the floating-point operations of one token's training step
 * (forward and backward) as Megatron counts them, the figure its
 * "TFLOP/s/GPU" divides: Megatron-Bridge's num_floating_point_operations
 * (src/megatron/bridge/training/utils/flop_utils.py, transformer_flops)
 * and Megatron-LM's (megatron/training/training.py), which agree for the
 * models mbsbatch has presets for, but for GPT-OSS's sliding windows,
 * which only Bridge counts (flops.c).  Pure: no I/O, no allocation.
 *
 * Split by the kind of work, per layer, so the cost model (cost.c) can
 * time each at its own rate without a loop over layers.
 */
#ifndef MBSBATCH_FLOPS_H
#define MBSBATCH_FLOPS_H

#include <stdint.h>

#include "memory.h"
#include "model.h"

/* FLOPs of one token, forward and backward (3 x 2 per multiply-add). */
struct flops {
	double	 attn_proj;	/* per attention layer: Q, K, V, O (MLA:
				   the low-rank down and up projections) */
	double	 attn_core;	/* per attention layer: causal QK^T, AV
				   (the layers' average with windows) */
	double	 dense_mlp;	/* per dense layer: the SwiGLU MLP */
	double	 routed_mlp;	/* per MoE layer: its top-k experts */
	double	 shared_mlp;	/* per MoE layer: its shared experts */
	double	 mtp_proj;	/* per MTP layer: its norms and projection */
	double	 logits;	/* one output layer (padded vocabulary) */
	int64_t	 attn_layers;	/* layers + MTP layers */
	int64_t	 dense_layers;	/* with a dense MLP, MTP ones included */
	int64_t	 moe_layers;	/* with experts, MTP ones included */
	int64_t	 mtp_layers;
	/* A hybrid model (hybrid.h): its Mamba layers, each Megatron's
	 * count (mamba), of which the scan (mamba_scan); attn_layers,
	 * dense_layers and moe_layers are then its *, - and E layers. */
	double	 mamba;
	double	 mamba_scan;
	int64_t	 mamba_layers;
	double	 adapters;	/* per layer: LoRA's adapters, forward and
				   backward (not in total: flops_lora()) */
	double	 total;		/* the sum: FLOPs per token */
};

/*
 * The FLOPs of model M per token at sequence length SEQ and tensor
 * parallel size TP (it pads the vocabulary: Megatron's
 * make_vocab_size_divisible_by 128 x TP), into *F.  Returns NULL, or a
 * static reason when M lacks a shape the count needs.
 */
const char	*flops_compute(const struct model *, int64_t, int64_t,
		    struct flops *);

/*
 * F of a LoRA run of M with the adapters LORA (rank 0: F unchanged):
 * every frozen weight's GEMMs without their weight gradient, 2/3 of
 * their count, the attention core whole, as Megatron-Bridge counts a
 * LoRA run (flop_utils.py, 067f987d:983-1007: model_flops_frozen x 2/3
 * + model_flops_unfrozen); the adapters' own GEMMs in F->adapters, which
 * take time but which Bridge does not count.
 */
void		 flops_lora(struct flops *, const struct model *,
		    const struct lora *);

/* The vocabulary as Megatron pads it for TP: a multiple of 128 x TP. */
int64_t		 flops_padded_vocab(int64_t, int64_t);

#endif
