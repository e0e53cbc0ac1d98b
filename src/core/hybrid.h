/*
 * hybrid.h: Megatron-Core's hybrid models (HybridModel, formerly
 * MambaModel: Nemotron-H, Nemotron 3), whose decoder is a pattern of
 * layers, one symbol each (megatron/core/models/hybrid/
 * hybrid_layer_allocation.py, core_v0.19.0:14-26, class Symbols):
 *
 *	M  a Mamba-2 layer (MambaLayer: norm, MambaMixer)
 *	*  a self-attention layer (TransformerLayer without an MLP)
 *	-  an MLP layer (MLPLayer)
 *	E  a MoE layer (MoETransformerLayer without attention)
 *	|  a pipeline-segment boundary (no layer)
 *
 * Megatron's other symbols (G gated delta net, D DSA, + MLA) and the
 * MTP separator / are not modelled here and are refused.  Pure: no I/O,
 * no allocation.
 */
#ifndef MBSBATCH_HYBRID_H
#define MBSBATCH_HYBRID_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"

/* MambaMixer's defaults that no flag sets (mamba_mixer.py core_v0.19.0
 * 177-179, main d98e8a64 179-181): the causal convolution's width and
 * the inner expansion used when mamba_num_heads is unset. */
#define MAMBA_CONV_KERNEL	4
#define MAMBA_EXPAND		2

struct hybrid_counts {
	int64_t	 mamba, attention, mlp, moe;	/* M, *, -, E */
	int64_t	 layers;			/* all four */
	int64_t	 segments;			/* '|'-separated; 1 without */
};

/*
 * Count PATTERN's layers into *OUT.  NULL, or a static reason the
 * pattern is refused (an unknown or unmodelled symbol, no layer).
 */
const char	*hybrid_parse(const char *, struct hybrid_counts *);
/* Count the last N layers of PATTERN (a valid one) into *OUT. */
void		 hybrid_tail(const char *, int64_t, struct hybrid_counts *);

/*
 * The layers pipeline rank RANK of PP builds, over all its virtual
 * stages, by select_pipeline_segment() (hybrid_layer_allocation.py
 * core_v0.19.0:331-493): with '|' separators, segments RANK, RANK + PP,
 * ...; without, an even split, or FIRST and LAST layers on the first
 * and last rank (0: even).  NULL, or a static reason no split exists
 * (which rules.c reports with its finding).
 */
const char	*hybrid_stage(const char *, int64_t pp, int64_t rank,
		    int64_t first, int64_t last, struct hybrid_counts *);

/* The Mamba mixer's heads and inner width (mamba_mixer.py core_v0.19.0
 * 243-249): mamba_num_heads x head dim, or 2 x hidden over head dim. */
int64_t		 hybrid_mamba_heads(const struct model *);
int64_t		 hybrid_mamba_inner(const struct model *);

/* Parameters of one layer of each kind, over all TP and EP ranks. */
struct hybrid_params {
	double	 mamba;		/* M */
	double	 attention;	/* * */
	double	 mlp;		/* - */
	double	 moe;		/* E: norm, router, latent projections,
				   shared experts (TP-sharded) */
	double	 experts;	/* E: the routed experts (EP x ETP) */
	double	 active_experts;	/* E: the top-k of them */
};

void		 hybrid_layer_params(const struct model *,
		    struct hybrid_params *);

/*
 * The parameters of hybrid model M as Megatron builds it: its layers,
 * the final norm, the embedding and (untied) output layer; with ACTIVE,
 * only the routed experts a token reaches.  0 when M has no valid
 * pattern.
 */
double		 hybrid_model_params(const struct model *, bool);

#endif
