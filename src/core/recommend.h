/*
 * recommend.h: a starting layout from the tables of the
 * parallelism-strategies skill (docs/megatron-rules.md section 5): MoE
 * by model, dense by size, then the topology and sequence-length rules.
 * Pure: no I/O, no allocation.
 */
#ifndef MBSBATCH_RECOMMEND_H
#define MBSBATCH_RECOMMEND_H

#include <stdint.h>

#include "layout.h"
#include "model.h"

enum interconnect {
	INTERCONNECT_IB = 0,		/* InfiniBand between nodes: default */
	INTERCONNECT_NVLINK,		/* one NVLink domain spans the job */
	INTERCONNECT_ETHERNET,
};

struct recommend_input {
	const struct model *model;	/* name, kind, params, layers */
	int64_t		 params;	/* total parameters; 0 from model */
	int64_t		 gpus;		/* 0: the table's */
	int64_t		 seq_length;	/* 0: unknown */
	int64_t		 nvlink_domain;	/* GPUs */
	enum interconnect interconnect;
};

#define RECOMMEND_MAX_REASONS	8
#define RECOMMEND_REASON_MAX	200

struct recommendation {
	struct layout	 layout;
	int64_t		 gpus;
	char		 reasons[RECOMMEND_MAX_REASONS][RECOMMEND_REASON_MAX];
	int		 nreasons;
};

/*
 * Recommend; NULL, or a static reason when there is nothing to go on
 * ("needs --model or --params").
 */
const char	*recommend(const struct recommend_input *,
		    struct recommendation *);

/* Add a reason (dropped past RECOMMEND_MAX_REASONS). */
void		 recommend_reason(struct recommendation *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Parse "nvlink", "ib", "ethernet"; -1 when it is none of them. */
int		 recommend_interconnect(const char *);

#endif
