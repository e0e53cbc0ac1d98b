/*
 * rank_terms.c: why the search ranks what it ranks.  For every
 * expressible published run (tests/data/perf/, tests/unit/perfrows.h) of
 * the systems named, or of one CSV line, prints the published layout and
 * the search's first three (the search check_search_perf judges:
 * perfrows_search_input()), each with its micro-batch, recompute,
 * micro-batches a step, memory share, score and every term of its
 * estimate (seconds a step), and the published run's measured and
 * predicted tokens/s/GPU.  `make rank-terms [RANK_SYSTEM=DGX-H100]
 * [RANK_LINE=82]`; a tool for whoever changes the model, not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "perfrows.h"

#define BEST	3

static const char *const rc_names[] = { "selective", "none", "full" };

static void
print_layout(const char *tag, const struct sizing_input *in,
    const struct cost *c)
{
	const struct layout	*l = &in->layout;
	int			 t;

	printf("  %-4s TP %lld PP %lld CP %lld VPP %lld EP %lld MBS %lld "
	    "%s, %lld micro-batches, memory %.2f, step %.3f s, score %.0f\n"
	    "       ", tag, (long long)l->tp, (long long)l->pp,
	    (long long)l->cp, (long long)l->vpp, (long long)l->ep,
	    (long long)in->micro_batch, rc_names[in->recompute],
	    (long long)c->microbatches, c->memory_share, c->step_s, c->score);
	for (t = 0; t < COST_NTERMS; t++)
		if (c->term[t] >= 0.0005)
			printf(" %s %.3f", cost_term_names[t], c->term[t]);
	printf(" (busiest stage: %lld layers)\n", (long long)c->busiest_layers);
}

static void
explain(const struct perf_row *r)
{
	static struct search_result	 best[BEST];
	static const char *const	 tags[BEST] = { "#1", "#2", "#3" };
	struct sizing			 s;
	struct cost			 own;
	struct search_input		 si;
	struct search_stats		 st;
	int				 n, i;

	if (sizing_compute(&r->in, &s) != NULL || s.nerrors > 0)
		return;
	perfrows_search_input(r, &si);
	if (cost_estimate(&r->in, &s, &si.hw, &own) != NULL)
		return;
	printf("line %d: %s %s, %lld %s GPUs, seq %lld, GBS %lld: published "
	    "%.0f tokens/s/GPU, predicted %.0f\n", r->line, r->release,
	    r->model, (long long)r->gpus, r->gpu->name, (long long)r->seq,
	    (long long)r->gbs, r->tokens_per_gpu,
	    own.tokens_per_s / (double)r->gpus);
	print_layout("pub", &r->in, &own);
	if (search_run(&si, best, BEST, &n, &st) != NULL)
		return;
	for (i = 0; i < n; i++)
		print_layout(tags[i], &best[i].in, &best[i].cost);
}

int
main(void)
{
	struct perf_row	*rows;
	size_t		 nrows, i;
	const char	*sys = getenv("RANK_SYSTEM"), *line = getenv("RANK_LINE");

	if (sys != NULL && *sys == '\0')
		sys = NULL;
	if (line != NULL && *line == '\0')
		line = NULL;
	if (perfrows_load(perfrows_path(), &rows, &nrows) != 0)
		return 1;
	for (i = 0; i < nrows; i++) {
		if (rows[i].why_not != NULL)
			continue;
		if (sys != NULL && strcmp(sys, rows[i].system) != 0)
			continue;
		if (line != NULL && atoi(line) != rows[i].line)
			continue;
		explain(&rows[i]);
	}
	free(rows);
	return 0;
}
