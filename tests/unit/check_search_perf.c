/*
 * check_search_perf.c: does plan --search enumerate what NVIDIA runs?
 * For every published pretraining run (tests/data/perf/, perfrows.h)
 * whose model has a preset and that mbsbatch can express (or could but
 * for NVFP4), the search on the run's GPUs, with the published sizes
 * fixed (TP, PP, CP, VPP, EP, ETP 1) and the micro-batch size and
 * recompute free as plan leaves them to it, must return the published
 * layout with the published micro-batch size among its candidates.  Memory is left out (no GPU memory given):
 * whether the estimate admits what ran is check_memory's question; this
 * one asks whether the search's enumeration and rules can reach it.
 *
 * The runs whose split only Bridge's explicit pipeline layout expresses
 * (DeepSeek-V3 and Kimi-K2, 61 layers, with VPP > 1: every stage a
 * multiple of VPP, transformer_config.py:2006-2058, and the layers + 1 or
 * + 2 not a multiple of PP x VPP, 2090-2103) cannot be: they are counted,
 * and must be exactly those.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "perfrows.h"
#include "recommend.h"
#include "run.h"
#include "search.h"

static struct search_result results[SEARCH_MAX_BEST];

/* Published layouts the ranking must meet the bar for (of 137 judged):
 * what the calibrated model reaches today, raised as it improves.  50
 * before the rows ran with their recipes' settings (configs.tsv), 45
 * after: the search amortises the MoE host floor (host_bound()) with
 * micro-batches of 4-32 where the runs use 1-2 with CUDA graphs.  46
 * with the recipes' graphs: per-layer graphs leave the floor (the part
 * after the dispatcher's sync is not captured) and rule out full
 * recompute; only full-iteration graphs lower it.  52 once the runs'
 * recompute follows their base recipes (configs.tsv): the Llama and
 * Qwen3-30B runs recompute nothing.  51 once each run takes its own
 * release's settings (configs-by-release.tsv): the three DeepSeek-V3
 * runs on 256 B300 (TP 1 PP 16 EP 8, 26.02 to 26.04) ran HybridEP with
 * selective recompute and no graphs, not mbsbatch's defaults, and fall to
 * 95% of the search's first (TP 4 EP 16 MBS 4); the two Qwen3-30B runs
 * on 8 B200 (25.09, 25.11: CUDA graphs, no recompute) come in.  52 with
 * the MoE floor half per local expert (cost.c MOE_FLOOR_FIXED).  Of the
 * 230 judged since the GPT-OSS, FSDP and hybrid rows: 107, and 108 once
 * every dispatcher pays the host sync and the alltoall's copies their
 * passes through memory (cost.c moe_sync(), moe_copy_bytes()).  Of
 * the 262 judged since the NVFP4 rows: 123, and 131 once the schedule's
 * host step is exposed only where Megatron synchronizes the device (PP
 * > 1 without VPP, cost.c schedule_steps()) and gpu.c's efficiencies
 * are refitted to it (GB200 48 -> 56, H100 2 -> 3, B200 18 -> 17). */
#define RANKED_AT_LEAST	131

/*
 * Whether R is a pretraining run with a preset the search is judged by:
 * one mbsbatch expresses, or one in NVFP4, which changes its speed, not
 * which layouts there are.
 */
static bool
judged(const struct perf_row *r)
{
	static const char *const models[] = {
		"llama3-8b", "llama3-70b", "llama3.1-405b", "qwen3-30b-a3b",
		"qwen3-235b-a22b", "deepseek-v3", "kimi-k2",
	};
	size_t	 i;

	if ((r->why_not != NULL && strcmp(r->precision, "NVFP4") != 0) ||
	    r->in.model.name == NULL || r->gpu == NULL)
		return false;
	for (i = 0; i < sizeof models / sizeof models[0]; i++)
		if (strcmp(r->in.model.name, models[i]) == 0)
			return true;
	return false;
}

/* Whether only an explicit pipeline layout splits R's layers. */
static bool
needs_layout(const struct perf_row *r)
{
	int64_t	 l = r->in.model.num_layers, chunks = r->pp * r->vp;

	return r->vp > 1 && l % r->vp != 0 && (l + 1) % chunks != 0 &&
	    (l + 2) % chunks != 0;
}

/* Whether the search on R's GPUs, its sizes fixed, returns R's layout. */
static bool
enumerated(const struct perf_row *r)
{
	struct search_input	 si;
	struct search_stats	 st;
	const struct layout	*l;
	int			 n, i;

	memset(&si, 0, sizeof si);
	si.base = r->in;
	si.base.gpu_gib = 0;
	si.world = r->gpus;
	si.fixed = r->in.layout;
	si.vary_micro_batch = si.vary_recompute = true;
	cost_hw_init(&si.hw, r->gpu, INTERCONNECT_IB);
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n,
	    &st));
	ck_assert(!st.stopped);
	for (i = 0; i < n; i++) {
		l = &results[i].in.layout;
		if (l->tp == r->tp && l->pp == r->pp && l->cp == r->cp &&
		    l->vpp == r->vp && l->ep == r->ep && l->etp == 1 &&
		    results[i].in.micro_batch == r->mbs)
			return true;
	}
	return false;
}

START_TEST(test_published_layouts)
{
	struct perf_row	*rows;
	size_t		 nrows, i;
	int		 njudged = 0, nfound = 0, nlayout = 0, nmissing = 0;

	ck_assert_int_eq(perfrows_load(perfrows_path(), &rows, &nrows), 0);
	for (i = 0; i < nrows; i++) {
		if (!judged(&rows[i]))
			continue;
		njudged++;
		if (needs_layout(&rows[i])) {
			nlayout++;
			ck_assert_msg(!enumerated(&rows[i]), "line %d: %s TP %lld "
			    "PP %lld VPP %lld enumerated, but only an explicit "
			    "layout splits its layers", rows[i].line,
			    rows[i].model, (long long)rows[i].tp,
			    (long long)rows[i].pp, (long long)rows[i].vp);
		} else if (enumerated(&rows[i]))
			nfound++;
		else {
			nmissing++;
			fprintf(stderr, "check_search_perf: line %d: %s on %lld "
			    "GPUs, TP %lld PP %lld CP %lld VPP %lld EP %lld "
			    "MBS %lld (GBS %lld): not a candidate\n",
			    rows[i].line, rows[i].model, (long long)rows[i].gpus,
			    (long long)rows[i].tp, (long long)rows[i].pp,
			    (long long)rows[i].cp, (long long)rows[i].vp,
			    (long long)rows[i].ep, (long long)rows[i].mbs,
			    (long long)rows[i].gbs);
		}
	}
	printf("check_search_perf: %d published pretraining layouts with a "
	    "preset: %d enumerated, %d missed, %d need an explicit pipeline "
	    "layout\n", njudged, nfound, nmissing, nlayout);
	ck_assert_int_eq(nmissing, 0);
	/* The tables hold runs of every judged model: an empty harness
	 * would pass every row above. */
	ck_assert_int_gt(nfound, 100);
	free(rows);
}
END_TEST

/*
 * The ranking: the search a user runs for a published run (its model,
 * GPUs, GPU type, precision, sequence and global batch; every size,
 * the micro-batch size and recompute free; memory on) against what
 * NVIDIA ran.  The bar: the published layout (TP, PP, CP, VPP,
 * EP) in the first three, or predicted within 3% of the first, for 80%
 * of the runs.  Returns 1 when R meets it, 0 when not, -1 when R is not
 * judged (the layout needs an explicit split, or has no estimate).
 */
static int
ranked(const struct perf_row *r, double *share, struct search_result *first)
{
	struct sizing		 s;
	struct cost		 own;
	struct search_input	 si;
	struct search_stats	 st;
	const struct layout	*l;
	int			 n, i;

	if (r->why_not != NULL || needs_layout(r) ||
	    sizing_compute(&r->in, &s) != NULL || s.nerrors > 0)
		return -1;
	perfrows_search_input(r, &si);
	if (cost_estimate(&r->in, &s, &si.hw, &own) != NULL)
		return -1;
	if (search_run(&si, results, 3, &n, &st) != NULL || n == 0)
		return 0;
	*share = own.score / results[0].cost.score;
	*first = results[0];
	for (i = 0; i < n; i++) {
		l = &results[i].in.layout;
		if (l->tp == r->tp && l->pp == r->pp && l->cp == r->cp &&
		    l->vpp == r->vp && l->ep == r->ep)
			return 1;
	}
	return *share >= 0.97;
}

START_TEST(test_published_ranked)
{
	struct perf_row	*rows;
	size_t		 nrows, i;
	int		 njudged = 0, nmet = 0, v, j;
	const char	*sys[8] = { NULL };
	int		 sys_judged[8] = { 0 }, sys_met[8] = { 0 };
	double		 share;
	struct search_result first;
	const struct layout *f;

	ck_assert_int_eq(perfrows_load(perfrows_path(), &rows, &nrows), 0);
	for (i = 0; i < nrows; i++) {
		share = 0;
		if ((v = ranked(&rows[i], &share, &first)) < 0)
			continue;
		njudged++;
		nmet += v;
		for (j = 0; j < 7 && sys[j] != NULL &&
		    strcmp(sys[j], rows[i].system) != 0; j++)
			;
		sys[j] = rows[i].system;
		sys_judged[j]++;
		sys_met[j] += v;
		f = &first.in.layout;
		if (v == 0)
			fprintf(stderr, "check_search_perf: line %d: %s on %lld "
			    "%s GPUs, TP %lld PP %lld CP %lld VPP %lld EP %lld "
			    "MBS %lld: not in the first 3, predicted at %.0f%% "
			    "of the first (TP %lld PP %lld CP %lld VPP %lld "
			    "EP %lld MBS %lld)\n", rows[i].line, rows[i].model,
			    (long long)rows[i].gpus, rows[i].gpu->name,
			    (long long)rows[i].tp, (long long)rows[i].pp,
			    (long long)rows[i].cp, (long long)rows[i].vp,
			    (long long)rows[i].ep, (long long)rows[i].mbs,
			    100 * share, (long long)f->tp, (long long)f->pp,
			    (long long)f->cp, (long long)f->vpp,
			    (long long)f->ep, (long long)first.in.micro_batch);
	}
	printf("check_search_perf: %d of %d published layouts in the "
	    "search's first 3 or within 3%% of its first (the issue asks "
	    "80%%)\n", nmet, njudged);
	for (j = 0; j < 8 && sys[j] != NULL; j++)
		printf("check_search_perf:   %-10s %3d of %3d\n", sys[j],
		    sys_met[j], sys_judged[j]);
	ck_assert_int_gt(njudged, 100);
	/* Not yet the 80%: a guard at what the model reaches. */
	ck_assert_int_ge(nmet, RANKED_AT_LEAST);
	free(rows);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("search_perf");
	TCase	*tc = tcase_create("published");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_published_layouts);
	tcase_add_test(tc, test_published_ranked);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
