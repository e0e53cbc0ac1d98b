/*
 * cost.h: the step-time model plan --search ranks layouts by.  A sized
 * layout (sizing.h) goes in; an estimate of one training step's time,
 * split into compute, pipeline bubble and the communication of each
 * parallel dimension, comes out.  Pure: no I/O, no allocation.
 *
 * The model, in full (mbsbatch-plan(1), SEARCH, says the same):
 *
 * - Compute: 6 FLOPs per active parameter per token, plus causal
 *   attention (6 s h per token per layer) and the output layer (6 h V,
 *   on the last stage); a third more with full recompute.  A GPU runs
 *   its stage's share over TP x CP at half the GPU's peak.  The busiest
 *   stage sets the pace: uneven splits cost what their largest stage
 *   carries beyond the average.
 * - Pipeline: a step is (m + (PP - 1) / VPP) micro-batch times, m the
 *   micro-batches per step (from the global batch, else 4 PP assumed).
 * - Communication per micro-batch, each group at NVLink speed when it
 *   fits in one NVLink domain, else at the network's: TP (with SP:
 *   all-gather and reduce-scatter, 8 per layer over fwd and bwd), CP (the
 *   K and V ring, 3 (CP - 1) chunks per layer), EP (all-to-all dispatch
 *   and combine, 4 per MoE layer, top-k copies), ETP (gathers of routed
 *   tokens), PP (one send each way per virtual stage), all counted as
 *   exposed.  DP (gradient reduce-scatter and parameter all-gather, once
 *   a step) is exposed only beyond what m - 1 micro-batches hide.
 * - Memory: a layout that leaves less than 10% of the GPU free ranks as
 *   if each percent below cost 5% of its speed (a full GPU: 50%).
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

struct cost_hw {
	double	 tflops;	/* peak dense BF16 per GPU */
	double	 nvlink_gbs;	/* one way, per GPU */
	double	 net_gbs;	/* between NVLink domains, per GPU */
	bool	 nvlink_everywhere; /* one NVLink fabric spans the job */
	/* The site's own measured speed against the model's, from
	 * mbsbatch calibrate (1: none); multiplies tokens/s. */
	double	 site_factor;
};

/* What the cost of one step is made of, in seconds. */
enum cost_term {
	COST_COMPUTE,
	COST_BUBBLE,
	COST_TP,
	COST_CP,
	COST_EP,
	COST_ETP,
	COST_PP,
	COST_DP,
	COST_NTERMS
};

struct cost {
	double	 term[COST_NTERMS];
	bool	 crosses[COST_NTERMS];	/* the group leaves its domain */
	double	 step_s;		/* the sum of the terms */
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
 * ranked as a slower layout (score below tokens_per_s). */
#define COST_FREE_WANTED	0.10

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
