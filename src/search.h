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
 * exactly), VPP over the counts each PP can split the layers into (evenly,
 * or as plan suggests), SP on whenever TP > 1: Megatron-Core refuses MoE
 * with TP and no SP, and on a dense model SP off moves as much data and
 * keeps more memory, so it is never better.
 */
#ifndef MBSBATCH_SEARCH_H
#define MBSBATCH_SEARCH_H

#include <stdint.h>

#include "cost.h"
#include "sizing.h"

#define SEARCH_MAX_BEST		100
#define SEARCH_MAX_WORLD	(INT64_C(1) << 20)
#define SEARCH_MAX_WORLDS	24

struct search_input {
	/* Model, sequence, batch, node shape, memory knobs; the layout and
	 * the world size in it are ignored. */
	struct sizing_input base;
	int64_t		 world;		/* exactly this many GPUs, or */
	int64_t		 max_gpus;	/* at most this many */
	struct layout	 fixed;		/* sizes the user fixed; 0: free */
	struct cost_hw	 hw;
};

struct search_result {
	struct sizing_input in;		/* as plan would get it */
	struct cost	 cost;
	int64_t		 dp, edp, nodes;
	double		 memory_gib;
};

struct search_stats {
	int64_t		 worlds[SEARCH_MAX_WORLDS];	/* searched */
	int		 nworlds;
	int64_t		 candidates;	/* layouts enumerated */
	int64_t		 legal;		/* with no error finding */
	int64_t		 fit;		/* and fitting in memory */
};

/*
 * Search; the best N (at most SEARCH_MAX_BEST) go to OUT, best first, their
 * count to *NOUT.  Returns NULL, or a static reason the search cannot run
 * ("needs the sequence length").
 */
const char	*search_run(const struct search_input *, struct search_result *,
		    int, int *, struct search_stats *);

#endif
