/*
 * cost.h: the step-time model: what one training step of a sized layout
 * (sizing.h) costs on a GPU type, term by term, from what Megatron does
 * (docs/cost-model.md gives every term, constant and source, and the
 * fit against Megatron-Bridge's published runs).  Pure: no I/O, no
 * allocation, no loop over layers (the search calls it per candidate).
 *
 * In short: the busiest pipeline stage's micro-batch time is its GEMMs
 * at the step's precision (an efficiency from each GEMM's shape), its
 * causal attention at BF16, its experts' grouped GEMMs, its output layer
 * and loss, elementwise work at HBM speed, recompute, and the exposed
 * part of its TP, CP, EP and PP communication (each group at NVLink
 * speed when its GPUs share an NVLink domain, else the network's); the
 * step is the micro-batches plus the pipeline bubble, (PP - 1) / VPP
 * micro-batch times, plus what DP's gradient reduce-scatter and weight
 * all-gather leave exposed, plus the optimizer step.
 *
 * Ranks follow the order Megatron-Core builds its groups in: TP innermost,
 * then CP, DP, PP; for experts ETP, EP, EDP.  A group's span is the ranks
 * between its first and last member.
 */
#ifndef MBSBATCH_COST_H
#define MBSBATCH_COST_H

#include <stdbool.h>

#include "gpu.h"
#include "recommend.h"
#include "sizing.h"

/* The index of RECIPE's GEMMs in gemm_eff[]: 0 BF16, 1 FP8 (tensorwise,
 * delayed, blockwise), 2 MXFP8, 3 NVFP4. */
int	 cost_precision(enum fp8_recipe);

struct cost_hw {
	double	 tflops;	/* peak dense BF16 per GPU */
	double	 tflops_fp8;	/* peak dense FP8 (0: none, BF16's) */
	double	 tflops_mxfp8;	/* peak dense MXFP8 (0: none, FP8's) */
	double	 tflops_nvfp4;	/* peak dense NVFP4 (0: none) */
	double	 nvlink_gbs;	/* one way, per GPU */
	double	 net_gbs;	/* between NVLink domains, per GPU */
	double	 hbm_gbs;	/* the GPU's memory bandwidth */
	/* What GEMMs of any size sustain of the peak at BF16, FP8, MXFP8
	 * and NVFP4, and fused causal attention of the BF16 peak (gpu.h). */
	double	 gemm_eff[GPU_PRECISIONS];
	double	 attn_eff;
	bool	 nvlink_everywhere; /* one NVLink fabric spans the job */
	/* The site's own measured speed against the model's, from
	 * mbsbatch calibrate (1: none); multiplies tokens/s. */
	double	 site_factor;
};

/* What the cost of one step is made of, in seconds.  COST_BUBBLE to
 * COST_DP are the pipeline bubble and the exposed traffic of each group
 * (reports name them by group); the others are work on the GPU. */
enum cost_term {
	COST_COMPUTE,		/* dense GEMMs and elementwise work */
	COST_BUBBLE,
	COST_TP,
	COST_CP,
	COST_EP,
	COST_ETP,
	COST_PP,
	COST_DP,
	COST_ATTENTION,		/* causal core attention (BF16) */
	COST_MOE,		/* experts' grouped GEMMs, router, permute */
	COST_OUTPUT,		/* embedding, output layer, loss */
	COST_RECOMPUTE,		/* activation recompute */
	COST_OPTIMIZER,		/* the optimizer step */
	COST_NTERMS
};

struct cost {
	double	 term[COST_NTERMS];
	bool	 crosses[COST_NTERMS];	/* the group leaves its domain */
	double	 peak_tflops;		/* the GPU's dense peak at the step's
					   precision, MFU's denominator */
	double	 step_s;		/* the sum of the terms, over the
					   site factor */
	int64_t	 microbatches;
	bool	 microbatches_assumed;	/* no global batch: 4 PP */
	int64_t	 busiest_layers;	/* of the busiest stage */
	double	 tokens_per_s;		/* DP m b s / step */
	/* FLOPs of one token's forward and backward, as Megatron counts
	 * them (num_floating_point_operations / tokens), and what the
	 * step's speed makes of them per GPU: TFLOP/s and the share of
	 * the GPU's dense peak at the step's precision. */
	double	 flops_per_token;
	double	 tflops_per_gpu;
	double	 mfu;
	double	 memory_share;		/* of the GPU; 0 when unknown */
	double	 score;			/* tokens/s, less the memory penalty:
					   what the search ranks by */
};

/* The share of the GPU's memory a layout should leave free; less is
 * ranked as a slower layout (score below tokens_per_s).  What the
 * estimate leaves out (the CUDA context, NCCL's and cuBLAS's buffers,
 * the caching allocator's fragmentation: several GiB) comes out of it;
 * the published runs leave 20-55% by the estimate. */
#define COST_FREE_WANTED	0.15

/* The term's name as output shows it: "compute", "bubble", "tp", ... */
extern const char *const cost_term_names[COST_NTERMS];

/*
 * The speeds of GPU G (an h100's when NULL) joined by IC, as plan --search
 * and check-log give them to cost_estimate().
 */
void		 cost_hw_init(struct cost_hw *, const struct gpu_type *,
		    enum interconnect);

/*
 * Cost of the layout IN sized as S (sizing_compute() with no error and a
 * memory estimate).  Returns NULL, or a static reason when the model
 * lacks what the cost needs.
 */
const char	*cost_estimate(const struct sizing_input *,
		    const struct sizing *, const struct cost_hw *,
		    struct cost *);

#endif
