/*
 * layout.h: a parallel layout, the sizes Megatron is launched with.
 */
#ifndef MBSBATCH_LAYOUT_H
#define MBSBATCH_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

struct layout {
	int64_t	 tp, pp, cp, ep, etp, vpp;
	bool	 sp;
};

#endif
