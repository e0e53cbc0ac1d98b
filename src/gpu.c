/*
 * gpu.c: GPU types.  GPUs per node and NVLink domains follow
 * Megatron-Bridge scripts/performance (num_gpus_per_node: 8 for
 * h100/h200/b200/b300, 4 for gb200/gb300, whose NVL72 racks join 72 GPUs
 * in one NVLink domain); compute capabilities are NVIDIA's (A100 8.0,
 * H100/H200 9.0, B200/GB200 10.0, B300/GB300 10.3).
 */
#include <stddef.h>
#include <string.h>

#include "gpu.h"

const struct gpu_type gpu_types[] = {
	{ "a100", 8, 8, 8 },
	{ "h100", 8, 8, 9 },
	{ "h200", 8, 8, 9 },
	{ "b200", 8, 8, 10 },
	{ "b300", 8, 8, 10 },
	{ "gb200", 4, 72, 10 },
	{ "gb300", 4, 72, 10 },
	{ NULL, 0, 0, 0 }
};

const struct gpu_type *
gpu_type_find(const char *name)
{
	const struct gpu_type	*g;

	for (g = gpu_types; g->name != NULL; g++)
		if (strcmp(g->name, name) == 0)
			return g;
	return NULL;
}
