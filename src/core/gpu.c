/*
 * gpu.c: GPU types.  GPUs per node and NVLink domains follow
 * Megatron-Bridge scripts/performance (num_gpus_per_node: 8 for
 * h100/h200/b200/b300, 4 for gb200/gb300, whose NVL72 racks join 72 GPUs
 * in one NVLink domain); compute capabilities are NVIDIA's (A100 8.0,
 * H100/H200 9.0, B200/GB200 10.0, B300/GB300 10.3).
 *
 * Memory is what the memory-oom rule compares against: the capacity on
 * NVIDIA's datasheets, whose "GB" of HBM are GiB (A100 80, H100 SXM 80,
 * H200 141, B200 180 as in DGX B200's 1,440 GB for 8, B300 288, GB200 186
 * as in NVL72's 13.4 TB for 72, GB300 288).  CUDA reserves a little of
 * it (an H100 reports 79.6 GiB), so a plan that fits with less than a
 * GiB to spare is tight either way; --gpu-memory overrides it.
 *
 * Speeds feed only the ranking of plan --search (cost.h), from NVIDIA's
 * datasheets: dense BF16 TFLOP/s (A100 312, H100/H200 989, B200/B300
 * 2250, GB200/GB300 2500), NVLink per GPU one way (third generation 300
 * GB/s, fourth 450, fifth 900: half the bidirectional figure), and the
 * scale-out network per GPU one way (A100 systems: HDR 200 Gb/s, 25 GB/s;
 * Hopper and B200/GB200: ConnectX-7 400 Gb/s, 50 GB/s; B300/GB300:
 * ConnectX-8 800 Gb/s, 100 GB/s).
 */
#include <stddef.h>
#include <string.h>

#include "gpu.h"

const struct gpu_type gpu_types[] = {
	{ "a100", 8, 8, 8, 80, 312, 300, 25 },
	{ "h100", 8, 8, 9, 80, 989, 450, 50 },
	{ "h200", 8, 8, 9, 141, 989, 450, 50 },
	{ "b200", 8, 8, 10, 180, 2250, 900, 50 },
	{ "b300", 8, 8, 10, 288, 2250, 900, 100 },
	{ "gb200", 4, 72, 10, 186, 2500, 900, 50, true },
	{ "gb300", 4, 72, 10, 288, 2500, 900, 100 },
	{ NULL, 0, 0, 0, 0, 0, 0, 0 }
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
