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
 * Speeds feed the cost model (cost.h), from NVIDIA's datasheets: dense
 * (not sparse) TFLOP/s at BF16 (A100 312, H100/H200 989, B200/B300 2250,
 * GB200/GB300 2500), FP8 (twice that from Hopper on; A100 has none) and
 * MXFP8 (Blackwell only, at the FP8 rate), NVFP4 (Blackwell only: B200 9
 * PFLOP/s dense, DGX B200's 72 for 8; GB200 10, NVL72's 720 for 72; B300
 * 13.5 and GB300 15, Blackwell Ultra's 1.5 times, HGX B300's 108 for 8
 * and GB300 NVL72's 1,080 for 72), NVLink per GPU one way (third
 * generation 300 GB/s, fourth 450, fifth 900: half the bidirectional
 * figure), the scale-out network per GPU one way (A100 systems: HDR 200
 * Gb/s, 25 GB/s; Hopper and B200/GB200: ConnectX-7 400 Gb/s, 50 GB/s;
 * B300/GB300: ConnectX-8 800 Gb/s, 100 GB/s) and HBM (A100 2.0 TB/s, H100
 * 3.35, H200 4.8, Blackwell 8).
 *
 * The efficiencies (the share of the peak large GEMMs sustain at BF16,
 * FP8 and MXFP8, and fused attention's share of the BF16 peak) were
 * fitted to Megatron-Bridge's published runs where the tables have rows
 * for that GPU and precision; docs/cost-model.md says which, and what
 * the others are tied to.  tests/unit/check_perf.c holds them to the fit.
 */
#include <stddef.h>
#include <string.h>

#include "gpu.h"

#define GPU(n, g, d, cc, mem, bf16, fp8, mx, fp4, nvl, net, hbm, e16, e8, \
	    emx, e4, ea) { .name = n, .gpus_per_node = g, \
	    .nvlink_domain = d, .cc_major = cc, .memory_gib = mem, \
	    .tflops = bf16, .tflops_fp8 = fp8, .tflops_mxfp8 = mx, \
	    .tflops_nvfp4 = fp4, .nvlink_gbs = nvl, .net_gbs = net, \
	    .hbm_gbs = hbm, .gemm_eff = { e16, e8, emx, e4 }, .attn_eff = ea }

const struct gpu_type gpu_types[] = {
	GPU("a100", 8, 8, 8, 80, 312, 0, 0, 0, 300, 25, 2039,
	    0.70, 0.70, 0.70, 0.70, 0.50),
	GPU("h100", 8, 8, 9, 80, 989, 1979, 0, 0, 450, 50, 3350,
	    0.70, 0.58, 0.65, 0.64, 0.50),
	GPU("h200", 8, 8, 9, 141, 989, 1979, 0, 0, 450, 50, 4800,
	    0.70, 0.78, 0.78, 0.78, 0.50),
	GPU("b200", 8, 8, 10, 180, 2250, 4500, 4500, 9000, 900, 50, 8000,
	    0.68, 0.51, 0.47, 0.40, 0.50),
	GPU("b300", 8, 8, 10, 288, 2250, 4500, 4500, 13500, 900, 100, 8000,
	    0.68, 0.51, 0.53, 0.40, 0.50),
	{ .name = "gb200", .gpus_per_node = 4, .nvlink_domain = 72,
	  .cc_major = 10, .memory_gib = 186, .tflops = 2500,
	  .tflops_fp8 = 5000, .tflops_mxfp8 = 5000, .tflops_nvfp4 = 10000,
	  .nvlink_gbs = 900, .net_gbs = 50, .hbm_gbs = 8000,
	  .gemm_eff = { 0.77, 0.50, 0.49, 0.42 }, .attn_eff = 0.50,
	  .gdr_c2c = true },
	GPU("gb300", 4, 72, 10, 288, 2500, 5000, 5000, 15000, 900, 100, 8000,
	    0.90, 0.66, 0.63, 0.41, 0.50),
	{ .name = NULL }
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
