/*
 * search.h: plan --search.  Every legal layout of a model on a world size
 * (or on each of the world sizes up to a maximum) is sized and checked by
 * sizing_compute(), those that break a rule or do not fit in memory are
 * dropped, and the rest are ranked by the cost model of cost.h.  Pure: no
 * I/O, no allocation.
 *
 * "Every legal layout": TP, CP, EP, ETP and PP each range over the
 * divisors of the world size the core accepts on their own (heads, the
 * sequence, the experts, the layers), ETP also over the divisors of the
 * expert FFN width (Megatron-Core's linear layers split their weights
 * exactly), SP on whenever TP > 1: Megatron-Core refuses MoE with TP and
 * no SP, and on a dense model SP off moves as much data and keeps more
 * memory, so it is never better.
 *
 * VPP ranges over every count some split of the layers allows, each PP
 * and VPP with one split, the first of: even; the embedding and the loss
 * counted as layers (account_for_embedding/loss_in_pipeline_split, as
 * Bridge's Llama 3.1 405B and Qwen3 235B recipes split 126 and 94
 * layers); the loss alone counted; uneven first and last stages
 * (num_layers_in_first/last_pipeline_stage, as plan suggests).  Those
 * need VPP to divide the layers, the layers + 1 or the layers + 2
 * (transformer_config.py:2006-2058 / 2090-2103 at core_v0.19.0).  What
 * only an explicit pipeline_model_parallel_layout expresses (DeepSeek-V3's
 * 61 layers with VPP > 1) is not searched.
 *
 * Unless the user fixed them, the micro-batch size (1, 2, 4 ... while the
 * global batch is a whole number of micro-batches x DP), Megatron-FSDP
 * (off, optim_grads_params) and the activation recompute (none,
 * selective, full) are searched too, for each layout.
 *
 * A budget bounds the work: the search sizes layouts in that order
 * (largest world first, then PP, VPP, TP, CP, EP, ETP ascending, then the
 * micro-batch size ascending, FSDP off then on, and recompute none,
 * selective, full) and
 * stops after the budget's count, keeping the best of those.  The budget
 * counts layouts, not time, so the same search gives the same answer
 * anywhere.
 */
#ifndef MBSBATCH_SEARCH_H
#define MBSBATCH_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "cost.h"
#include "sizing.h"

#define SEARCH_MAX_BEST		100
#define SEARCH_MAX_WORLD	(INT64_C(1) << 20)
#define SEARCH_MAX_WORLDS	24
/* Layouts sized by default: more than any built-in preset has on up to
 * 2^20 GPUs (the most, DeepSeek-V2 with --max-gpus 1048576, 1.7M), and
 * about a second of work. */
#define SEARCH_BUDGET		INT64_C(2000000)
#define SEARCH_MAX_BUDGET	INT64_C(1000000000000)

struct search_input {
	/* Model, sequence, batch, node shape, memory knobs; the layout and
	 * the world size in it are ignored. */
	struct sizing_input base;
	int64_t		 world;		/* exactly this many GPUs, or */
	int64_t		 max_gpus;	/* at most this many */
	struct layout	 fixed;		/* sizes the user fixed; 0: free */
	struct cost_hw	 hw;
	int64_t		 budget;	/* layouts at most; 0: SEARCH_BUDGET */
	/* Also search the micro-batch size (without a global batch: the
	 * base's alone) and the recompute mode; false: the base's. */
	bool		 vary_micro_batch, vary_recompute;
	/* Also search Megatron-FSDP (off, and optim_grads_params); false:
	 * the base's. */
	bool		 vary_fsdp;
};

struct search_result {
	struct sizing_input in;		/* as plan would get it */
	struct cost	 cost;
	int64_t		 dp, edp, nodes;
	double		 memory_gib;
	/* The search chose in.micro_batch, in.recompute (the args line
	 * gives them); false: the user's. */
	bool		 chose_micro_batch, chose_recompute, chose_fsdp;
	/* The base counts the embedding or the loss as a pipeline layer,
	 * this split does not (the args line turns it off). */
	bool		 drop_account_embedding, drop_account_loss;
};

struct search_stats {
	int64_t		 worlds[SEARCH_MAX_WORLDS];	/* searched */
	int		 nworlds;
	int64_t		 candidates;	/* layouts enumerated */
	/* Of those sized (what cannot rank is counted, not sized): */
	int64_t		 legal;		/* with no error finding */
	int64_t		 fit;		/* and fitting in memory */
	int64_t		 budget;	/* the budget searched with */
	bool		 stopped;	/* it ran out: layouts were left out */
};

/*
 * Search; the best N (at most SEARCH_MAX_BEST) go to OUT, best first, their
 * count to *NOUT.  Returns NULL, or a static reason the search cannot run
 * ("needs the sequence length").  When the budget runs out, the search
 * returns NULL with what it found and stats->stopped set; stats->candidates
 * is then the budget.
 */
/*
 * The split the search gives LAYERS over PP stages of VPP chunks (the
 * first of those above), into IN's first_stage_layers, last_stage_layers,
 * account_embedding and account_loss; false when it has none.
 */
bool		 search_split(int64_t, int64_t, int64_t, struct sizing_input *);

const char	*search_run(const struct search_input *, struct search_result *,
		    int, int *, struct search_stats *);

#endif
