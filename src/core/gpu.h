/*
 * gpu.h: what mbsbatch knows of each GPU type (--gpu-type): the node
 * shape the Megatron-Bridge performance launcher assumes for it.  Pure
 * data.
 */
#ifndef MBSBATCH_GPU_H
#define MBSBATCH_GPU_H

#include <stdbool.h>
#include <stdint.h>

/* The precision classes of gemm_eff[]: BF16, FP8, MXFP8, NVFP4. */
#define GPU_PRECISIONS	4

struct gpu_type {
	const char	*name;		/* "h100" */
	int64_t		 gpus_per_node;
	int64_t		 nvlink_domain;	/* GPUs sharing one NVLink fabric */
	int		 cc_major;	/* CUDA compute capability, major */
	double		 memory_gib;	/* memory of one GPU */
	/* For the cost model (cost.h), from the datasheets: dense peaks in
	 * TFLOP/s (BF16; FP8; MXFP8, 0 where the GPU has none), NVLink
	 * bandwidth one way and the network's per GPU, and HBM's, in GB/s. */
	double		 tflops;
	double		 tflops_fp8;
	double		 tflops_mxfp8;
	double		 tflops_nvfp4;	/* dense FP4 (NVFP4); 0: none */
	double		 nvlink_gbs;
	double		 net_gbs;
	double		 hbm_gbs;
	/* Fitted to the published runs (docs/cost-model.md): the share of
	 * the peak large GEMMs sustain at BF16, FP8, MXFP8 and NVFP4, and
	 * the share of the BF16 peak fused causal attention sustains. */
	double		 gemm_eff[GPU_PRECISIONS];
	double		 attn_eff;
	/* NCCL reaches the NIC through the Grace CPU: GPUDirect RDMA over
	 * C2C (Megatron-Bridge's GB200 environment). */
	bool		 gdr_c2c;
};

/* The table, NULL-name terminated. */
extern const struct gpu_type gpu_types[];

/* The entry for NAME (exact, lowercase), or NULL. */
const struct gpu_type *gpu_type_find(const char *);

#endif
