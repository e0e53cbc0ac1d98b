/*
 * smoke.h: the sizes of a smoke job (mbsbatch-smoke(1)): a job's own
 * parallel layout on the fewest GPUs it allows, with a small model whose
 * layer count, experts and attention heads are changed just enough for
 * that layout to be legal, and a short batch the layout's schedule
 * accepts.  Pure.
 */
#ifndef MBSBATCH_SMOKE_H
#define MBSBATCH_SMOKE_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"

/* The iterations a smoke job runs and the global batch it aims at. */
#define SMOKE_ITERATIONS	3
#define SMOKE_TARGET_BATCH	8

struct smoke_input {
	struct layout	 layout;	/* the job's, kept whole */
	/* The job's uneven split (0: none) and pipeline accounting. */
	int64_t		 first_stage_layers, last_stage_layers;
	bool		 account_embedding, account_loss;
	int64_t		 gpus_per_node;	/* >= 1 */

	/* The small model's own sizes (experts 0 for a dense one). */
	int64_t		 num_layers;
	int64_t		 hidden_size;
	int64_t		 num_attention_heads;
	int64_t		 num_query_groups;
	int64_t		 num_experts;
	int64_t		 moe_router_topk;
};

struct smoke {
	int64_t		 gpus;		/* the world: min GPUs, or the
					   fewest whole nodes holding them */
	int64_t		 nodes;
	int64_t		 dp;		/* data-parallel size */
	int64_t		 num_layers;	/* the model's, or a legal count */
	int64_t		 num_experts;	/* 0 for a dense model */
	int64_t		 num_attention_heads;
	int64_t		 num_query_groups;
	int64_t		 micro_batch;	/* 1 */
	int64_t		 global_batch;
	int64_t		 microbatches;	/* per step: global / (micro x DP) */
};

/*
 * Size the smoke job of IN into *OUT.  Returns NULL, or a static reason
 * when no smoke job of that layout exists (a size below 1, an uneven
 * split that leaves no layer to a stage, heads the hidden size cannot
 * hold, a figure past 64 bits); *OUT is then unusable.
 *
 * The rules (Megatron-Core transformer_config.py and arguments.py at
 * core_v0.19.0; docs/megatron-rules.md):
 * - GPUs: PP x lcm(TP x CP, EP x ETP), the min GPUs, so DP and EDP are
 *   as small as the layout allows; when that is more than a node and not
 *   whole nodes, the fewest whole nodes that hold a multiple of it.
 * - Layers: the model's own count when the layout splits it legally,
 *   else the fewest that it does: one layer per virtual stage of each
 *   stage without an explicit count, the first and last stages' own
 *   counts kept, the embedding and loss counted when accounted for.
 * - Experts: the model's when EP divides them, else the next multiple
 *   of EP; never fewer than the router's top-k.
 * - Heads: a multiple of TP (and a divisor of the hidden size); query
 *   groups a multiple or a divisor of TP.
 * - Batch: micro-batch 1, global batch the multiple of DP nearest above
 *   SMOKE_TARGET_BATCH whose micro-batch count the interleaved schedule
 *   takes (a multiple of PP with VPP).
 */
const char	*smoke_compute(const struct smoke_input *, struct smoke *);

/*
 * One step smaller, for a smoke job the memory estimate says does not
 * fit: the fewest legal layers when *Z has more, else the fewest experts
 * (a multiple of EP, at least the top-k).  False when *Z is already the
 * smallest.
 */
bool		 smoke_shrink(const struct smoke_input *, struct smoke *);

/* Whether LAYERS split legally over the layout and split of IN. */
bool		 smoke_layers_legal(const struct smoke_input *, int64_t);

#endif
