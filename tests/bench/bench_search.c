/*
 * bench_search.c: plan --search inside one process, no process start:
 * the median of repeated search_run() calls for the largest presets on
 * the largest worlds.  Run by tests/bench/search.sh (make bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "model-file.h"
#include "recommend.h"
#include "search.h"

#define RUNS	21

static struct search_result results[SEARCH_MAX_BEST];

static int
cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int
main(void)
{
	static const struct { const char *model; int64_t gpus; } c[] = {
		{ "kimi-k2", 16384 },
		{ "deepseek-v3", 16384 },
		{ "llama3.1-405b", 16384 },
		{ "qwen3-235b-a22b", 4096 },
	};
	const struct gpu_type	*g = gpu_type_find("h100");
	struct search_input	 si;
	struct search_stats	 st;
	double			 t[RUNS], t0;
	size_t			 i;
	int			 r, n;
	const char		*why;

	printf("%-16s %6s %10s %9s %9s %9s %11s\n", "model", "gpus",
	    "layouts", "median", "min", "max", "per layout");
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		memset(&si, 0, sizeof si);
		sizing_input_init(&si.base);
		si.base.model = *model_builtin_find(c[i].model);
		si.base.seq_length = 4096;
		si.base.gpu_gib = g->memory_gib;
		si.base.distributed_optimizer = true;
		si.world = c[i].gpus;
		cost_hw_init(&si.hw, g, INTERCONNECT_IB);
		/* As plan --search with no --micro-batch-size, no
		 * --recompute and no --fsdp: all are searched (with no
		 * global batch, the micro-batch size stays 1). */
		si.vary_micro_batch = si.vary_recompute = true;
		si.vary_fsdp = true;
		for (r = 0; r < RUNS; r++) {
			t0 = now_ms();
			why = search_run(&si, results, 5, &n, &st);
			t[r] = now_ms() - t0;
			if (why != NULL) {
				fprintf(stderr, "bench_search: %s: %s\n",
				    c[i].model, why);
				return 1;
			}
		}
		qsort(t, RUNS, sizeof t[0], cmp);
		printf("%-16s %6lld %10lld %6.2f ms %6.2f ms %6.2f ms %8.3f us\n",
		    c[i].model, (long long)c[i].gpus, (long long)st.candidates,
		    t[RUNS / 2], t[0], t[RUNS - 1],
		    t[RUNS / 2] * 1e3 / (double)st.candidates);
	}
	return 0;
}
