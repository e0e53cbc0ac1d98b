/*
 * perfrows.h: the rows of Megatron-Bridge's published performance summary
 * (tests/data/perf/, README.md there) as sizing inputs, the way a new
 * user gives them to mbsbatch: the preset, the published layout, its
 * batch and sequence, the GPU type's memory and node shape and --fp8
 * from the precision column.
 */
#ifndef MBSBATCH_TESTS_PERFROWS_H
#define MBSBATCH_TESTS_PERFROWS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu.h"
#include "search.h"
#include "sizing.h"

struct perf_row {
	int		 line;		/* 1-based line in the CSV */
	char		 release[16], kind[16], system[16], model[64],
			 precision[24], note[160];
	int64_t		 gpus, gbs, mbs, seq, fsdp, tp, pp, cp, vp, ep;
	double		 tokens_per_gpu, tflops_per_gpu;	/* published */
	const char	*why_not;	/* NULL: mbsbatch can express it; else
					   why not (static: "no preset for
					   GPT OSS 120B", "NVFP4 (no --fp8 recipe)") */
	const struct gpu_type *gpu;	/* gpu_type_find() of the system */
	/* An FSDP row's layers whose activations its recipe offloads to
	 * the CPU (the memory estimate does not count offloading). */
	int		 offload_layers;
	struct sizing_input in;		/* as a new user gives it: the preset,
					   the published layout (SP on with
					   TP > 1, VPP, EP; ETP 1), gbs/mbs/
					   seq, the GPU's memory and node
					   shape, --fp8 from the precision */
};

/* Every data row of PATH; *ROWS a new array of *N (free() it). -1 and a
 * message on stderr when the file cannot be read or a row is malformed. */
int		 perfrows_load(const char *, struct perf_row **, size_t *);

/* The path of tests/data/perf/bridge-performance-summary.csv from
 * top_srcdir (the test environment's, else "."), a static string. */
const char	*perfrows_path(void);

/*
 * The search a user runs for R (check_search_perf's ranking): R's model,
 * GPUs and GPU type, precision, sequence, global batch and settings as
 * the base; every size, the micro-batch size and recompute free; memory
 * on; InfiniBand between nodes.
 */
void		 perfrows_search_input(const struct perf_row *,
		    struct search_input *);

#endif
