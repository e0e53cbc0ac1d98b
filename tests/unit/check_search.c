/*
 * check_search.c: plan --search (src/core/search.c): the layouts it
 * enumerates, counted by hand; every result legal and fitting by the core
 * itself.  The cost model's terms: check_cost.c.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "gpu.h"
#include "model-file.h"
#include "rules.h"
#include "run.h"
#include "search.h"

static struct search_result results[SEARCH_MAX_BEST];

static struct search_input
input(const char *name, int64_t world, int64_t seq, int64_t gbs)
{
	struct search_input	 si;
	const struct gpu_type	*g = gpu_type_find("h100");

	memset(&si, 0, sizeof si);
	sizing_input_init(&si.base);
	si.base.model = *model_builtin_find(name);
	si.base.seq_length = seq;
	si.base.global_batch = gbs;
	si.base.gpu_gib = g->memory_gib;
	si.base.distributed_optimizer = true;
	si.world = world;
	cost_hw_init(&si.hw, g, INTERCONNECT_IB);
	return si;
}

/* Every result passes the core with no error, fits, and ranks in order. */
static void
check_results(const struct search_input *si, int n)
{
	static struct sizing	 s;
	int			 i;

	for (i = 0; i < n; i++) {
		ck_assert_ptr_null(sizing_compute(&results[i].in, &s));
		ck_assert_int_eq(s.nerrors, 0);
		ck_assert(s.has_memory);
		ck_assert(!s.memory_oom);
		ck_assert_double_le(s.memory.total_gib, si->base.gpu_gib);
		ck_assert_int_eq(s.world, results[i].in.gpus);
		ck_assert_int_eq(s.dp, results[i].dp);
		if (i > 0)
			ck_assert_double_le(results[i].cost.score,
			    results[i - 1].cost.score);
	}
}

/*
 * Llama 3 8B (32 layers, 32 heads, 8 groups, dense) on 8 GPUs, sequence
 * 4096.  TP: divisors of 8 dividing 32 heads and 8 groups: 1 2 4 8.  CP:
 * 4096 % 2CP == 0: 1 2 4 8.  EP = ETP = 1 (dense).  PP and VPP:
 *   PP 1: VPP 1                                             1
 *   PP 2: 32 = 2 x 16, VPP dividing 16: 1 2 4 8 16          5
 *   PP 4: 8 a stage, VPP 1 2 4 8 (3, 5, 6, 7 split neither
 *         evenly nor unevenly: middle and ends multiples of VPP) 4
 *   PP 8: 4 a stage, VPP 1 2 4 (3 does not split)           3
 * TP x CP dividing 8 / PP: 8 -> 10 pairs, 4 -> 6, 2 -> 3, 1 -> 1.
 * 1 x 10 + 5 x 6 + 4 x 3 + 3 x 1 = 55 layouts, all legal (no batch).
 */
START_TEST(test_count_llama3_8b)
{
	struct search_input	 si = input("llama3-8b", 8, 4096, 0);
	struct search_stats	 st;
	int			 n;

	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_eq(st.nworlds, 1);
	ck_assert_int_eq(st.worlds[0], 8);
	ck_assert_int_eq(st.candidates, 55);
	ck_assert_int_eq(st.legal, 55);
	ck_assert_int_le(st.fit, 55);
	ck_assert_int_gt(st.fit, 0);
	ck_assert_int_eq(n, st.fit);
	check_results(&si, n);
	/* SP goes with TP. */
	for (int i = 0; i < n; i++)
		ck_assert(results[i].in.layout.sp == (results[i].in.layout.tp >
		    1));
}
END_TEST

/* A global batch of 16 over micro-batch 1 rules out DP 32 and 64. */
START_TEST(test_batch_rule)
{
	struct search_input	 si = input("llama3-70b", 64, 4096, 16);
	struct search_stats	 st;
	int			 n, i;

	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_lt(st.legal, st.candidates);
	ck_assert_int_gt(n, 0);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(16 % results[i].dp, 0);
	check_results(&si, n);
}
END_TEST

START_TEST(test_moe_results_pass_plan)
{
	static const struct { const char *model; int64_t world, gbs; } c[] = {
		{ "deepseek-v3", 1024, 4096 },
		{ "qwen3-30b-a3b", 64, 512 },
		{ "kimi-k2", 16384, 0 },
	};
	struct search_input	 si = input(c[_i].model, c[_i].world, 4096,
	    c[_i].gbs);
	struct search_stats	 st;
	int			 n;

	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_gt(n, 0);
	ck_assert_int_le(st.fit, st.legal);
	check_results(&si, n);
}
END_TEST

/* Kimi K2 (1T) does not fit 8 GPUs of 80 GiB in any layout. */
START_TEST(test_nothing_fits)
{
	struct search_input	 si = input("kimi-k2", 8, 4096, 0);
	struct search_stats	 st;
	int			 n;

	ck_assert_ptr_null(search_run(&si, results, 5, &n, &st));
	ck_assert_int_gt(st.legal, 0);
	ck_assert_int_eq(st.fit, 0);
	ck_assert_int_eq(n, 0);
}
END_TEST

START_TEST(test_fixed_sizes)
{
	struct search_input	 si = input("llama3-70b", 64, 4096, 0);
	struct search_stats	 st;
	int			 n, i;

	si.fixed.tp = 8;
	si.fixed.vpp = 1;
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_gt(n, 0);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(results[i].in.layout.tp, 8);
		ck_assert_int_eq(results[i].in.layout.vpp, 1);
	}
}
END_TEST

/* At most 200 GPUs of 8 a node: 200 itself, then 16, 8, 4, 2, 1 nodes. */
START_TEST(test_max_worlds)
{
	struct search_input	 si = input("llama3-8b", 0, 4096, 0);
	struct search_stats	 st;
	int			 n, i;
	static const int64_t	 want[] = { 200, 128, 64, 32, 16, 8 };

	si.max_gpus = 200;
	ck_assert_ptr_null(search_run(&si, results, 10, &n, &st));
	ck_assert_int_eq(st.nworlds, 6);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(st.worlds[i], want[i]);
	check_results(&si, n);
	/* A world that is not whole nodes is not searched. */
	si.max_gpus = 20;
	ck_assert_ptr_null(search_run(&si, results, 10, &n, &st));
	ck_assert_int_eq(st.nworlds, 2);
	ck_assert_int_eq(st.worlds[0], 16);
	ck_assert_int_eq(st.worlds[1], 8);
}
END_TEST

START_TEST(test_refused)
{
	struct search_input	 si = input("llama3-8b", 8, 0, 0);
	struct search_stats	 st;
	int			 n;

	ck_assert_str_eq(search_run(&si, results, 5, &n, &st),
	    "needs the sequence length (--seq-length)");
	si.base.seq_length = 4096;
	si.world = SEARCH_MAX_WORLD + 1;
	ck_assert_ptr_nonnull(search_run(&si, results, 5, &n, &st));
	si.world = 8;
	ck_assert_ptr_nonnull(search_run(&si, results, 0, &n, &st));
	ck_assert_ptr_nonnull(search_run(&si, results, SEARCH_MAX_BEST + 1, &n,
	    &st));
	si.budget = -1;
	ck_assert_ptr_nonnull(search_run(&si, results, 5, &n, &st));
	si.budget = SEARCH_MAX_BUDGET + 1;
	ck_assert_ptr_nonnull(search_run(&si, results, 5, &n, &st));
	si.budget = 0;
	memset(&si.base.model, 0, sizeof si.base.model);
	ck_assert_ptr_nonnull(search_run(&si, results, 5, &n, &st));
}
END_TEST

/*
 * The search against brute force: every size from 1 up to the world (no
 * divisors, no lists, no layout skipped), with only the search's own
 * choices (SP with TP, the suggested uneven split, ETP dividing the
 * expert width, ETP 1 on a dense model), each sized and checked by the
 * core.  Its legal and fitting layouts must be the search's, and the
 * search's best must be the best of them.
 */
#define ORACLE_MAX	4096

struct oracle {
	struct layout	 l[ORACLE_MAX];
	double		 score[ORACLE_MAX];
	int		 n;
	int64_t		 legal;
};

static void
oracle_one(const struct search_input *si, struct sizing_input *in,
    struct oracle *o)
{
	static struct sizing	 s;
	struct rules_input	 ri;
	struct cost		 c;

	if (sizing_compute(in, &s) != NULL)
		return;
	memset(&ri, 0, sizeof ri);
	ri.in = in;
	ri.dispatcher = DISPATCH_ALLTOALL;
	rules_check(&ri, NULL, &s);
	if (s.nerrors > 0)
		return;
	o->legal++;
	if (s.memory_oom || !s.has_memory)
		return;
	ck_assert_ptr_null(cost_estimate(in, &s, &si->hw, &c));
	ck_assert_int_lt(o->n, ORACLE_MAX);
	o->l[o->n] = in->layout;
	o->score[o->n++] = c.score;
}

static void
oracle_run(const struct search_input *si, struct oracle *o)
{
	struct sizing_input	 in = si->base;
	const struct model	*m = &in.model;
	int64_t			 w = si->world, tp, pp, cp, ep, etp, vpp;

	memset(o, 0, sizeof *o);
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = w;
	for (pp = 1; pp <= w; pp++)
	for (vpp = 1; vpp <= m->num_layers; vpp++)
	for (tp = 1; tp * pp <= w; tp++)
	for (cp = 1; tp * cp * pp <= w; cp++)
	for (ep = 1; ep * pp <= w; ep++)
	for (etp = 1; ep * etp * pp <= w; etp++) {
		if ((m->moe_ffn_hidden_size != 0 &&
		    m->moe_ffn_hidden_size % etp != 0) ||
		    (m->kind == MODEL_KIND_DENSE && etp > 1))
			continue;
		in.layout = (struct layout){ tp, pp, cp, ep, etp, vpp,
		    tp > 1 };
		in.first_stage_layers = in.last_stage_layers = 0;
		if (m->num_layers % (pp * vpp) != 0 &&
		    !sizing_suggest_split(m->num_layers, pp, vpp,
		    &in.first_stage_layers, &in.last_stage_layers))
			continue;
		oracle_one(si, &in, o);
	}
}

static bool
same_layout(const struct layout *a, const struct layout *b)
{
	return a->tp == b->tp && a->pp == b->pp && a->cp == b->cp &&
	    a->ep == b->ep && a->etp == b->etp && a->vpp == b->vpp &&
	    a->sp == b->sp;
}

/* A MoE model small enough for brute force, of composite sizes. */
static const struct model tiny_moe = {
	.name = "tiny-moe", .kind = MODEL_KIND_MOE, .num_layers = 12,
	.hidden_size = 768, .ffn_hidden_size = 2048,
	.num_attention_heads = 12, .num_query_groups = 6, .vocab_size = 32000,
	.num_experts = 6, .moe_router_topk = 2, .moe_ffn_hidden_size = 384,
	.params = 2000000000, .active_params = 500000000,
};

START_TEST(test_brute_force)
{
	static const struct {
		const char *model; int64_t world, gbs, seq, gpn;
	} c[] = {
		{ NULL, 12, 0, 4096, 4 },	/* tiny_moe */
		{ NULL, 12, 8, 4096, 4 },
		{ NULL, 24, 16, 6144, 8 },
		{ "llama3-8b", 16, 4, 4096, 8 },
		{ "olmoe-7b", 16, 8, 4096, 8 },
	};
	static struct oracle	 o;
	struct search_input	 si = input(c[_i].model != NULL ?
	    c[_i].model : "llama3-8b", c[_i].world, c[_i].seq, c[_i].gbs);
	struct search_stats	 st, nobatch;
	int			 n, i, k, better;

	if (c[_i].model == NULL)
		si.base.model = tiny_moe;
	si.base.gpus_per_node = c[_i].gpn;
	oracle_run(&si, &o);
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_eq(st.legal, o.legal);
	ck_assert_int_eq(st.fit, o.n);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(n, o.n < SEARCH_MAX_BEST ? o.n : SEARCH_MAX_BEST);
	check_results(&si, n);
	for (i = 0; i < n; i++) {
		for (k = 0; k < o.n; k++)
			if (same_layout(&o.l[k], &results[i].in.layout))
				break;
		ck_assert_int_lt(k, o.n);
		ck_assert_double_eq(o.score[k], results[i].cost.score);
	}
	/* Nothing the search left out scores above its last. */
	for (better = 0, k = 0; k < o.n; k++)
		better += o.score[k] > results[n - 1].cost.score;
	ck_assert_int_lt(better, n);
	/* Layouts ruled out by the batch are counted all the same. */
	si.base.global_batch = 0;
	ck_assert_ptr_null(search_run(&si, results, 1, &n, &nobatch));
	ck_assert_int_eq(st.candidates, nobatch.candidates);
}
END_TEST

/*
 * The budget on a small search with skipped layouts (a batch that rules
 * out DP 3, 6 and 12): every budget B stops after exactly min(B, all)
 * layouts, as if each were sized in turn; a layout more passes at most
 * one more rule check; from B = all on, the search is whole and its
 * result the unbudgeted one.
 */
START_TEST(test_budget_counts)
{
	static struct search_result	 full[SEARCH_MAX_BEST];
	struct search_input	 si = input("llama3-8b", 12, 4096, 8);
	struct search_stats	 all, st, prev;
	int			 nall, n, i;
	int64_t			 b;

	si.base.model = tiny_moe;
	si.base.gpus_per_node = 4;
	ck_assert_ptr_null(search_run(&si, full, SEARCH_MAX_BEST, &nall,
	    &all));
	ck_assert(!all.stopped);
	ck_assert_int_eq(all.budget, SEARCH_BUDGET);
	ck_assert_int_lt(all.legal, all.candidates);
	memset(&prev, 0, sizeof prev);
	for (b = 1; b <= all.candidates + 1; b++) {
		si.budget = b;
		ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST,
		    &n, &st));
		ck_assert_int_eq(st.budget, b);
		ck_assert_int_eq(st.candidates, b < all.candidates ? b :
		    all.candidates);
		ck_assert(st.stopped == (b < all.candidates));
		ck_assert_int_ge(st.legal, prev.legal);
		ck_assert_int_le(st.legal, prev.legal + 1);
		ck_assert_int_ge(st.fit, prev.fit);
		ck_assert_int_le(st.fit, prev.fit + 1);
		check_results(&si, n);
		prev = st;
	}
	ck_assert_int_eq(st.legal, all.legal);
	ck_assert_int_eq(st.fit, all.fit);
	ck_assert_int_eq(n, nall);
	for (i = 0; i < n; i++) {
		ck_assert(same_layout(&results[i].in.layout,
		    &full[i].in.layout));
		ck_assert_double_eq(results[i].cost.score, full[i].cost.score);
	}
}
END_TEST

/*
 * 65536 layers, 55440 heads, 720720 experts on 720720 GPUs: billions of
 * layouts.  The search stops at its budget with the best of what it saw,
 * each legal and fitting.
 */
START_TEST(test_budget_composite)
{
	static const struct model composite = {
		.name = "composite", .kind = MODEL_KIND_MOE,
		.num_layers = 65536, .hidden_size = 7096320,
		.ffn_hidden_size = 720720, .num_attention_heads = 55440,
		.num_query_groups = 55440, .vocab_size = 720720,
		.num_experts = 720720, .moe_router_topk = 2,
		.moe_ffn_hidden_size = 720720,
	};
	struct search_input	 si = input("llama3-8b", 720720, 1441440, 0);
	struct search_stats	 st;
	int			 n;

	si.base.model = composite;
	si.base.gpu_gib = 1e18;		/* its weights are in the petabytes */
	si.budget = 50000;
	ck_assert_ptr_null(search_run(&si, results, 5, &n, &st));
	ck_assert(st.stopped);
	ck_assert_int_eq(st.candidates, 50000);
	ck_assert_int_eq(st.budget, 50000);
	ck_assert_int_gt(st.legal, 0);
	ck_assert_int_eq(n, 5);
	check_results(&si, n);
}
END_TEST

static Suite *
search_suite(void)
{
	Suite	*s = suite_create("search");
	TCase	*tc = tcase_create("search");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_count_llama3_8b);
	tcase_add_test(tc, test_batch_rule);
	tcase_add_loop_test(tc, test_moe_results_pass_plan, 0, 3);
	tcase_add_test(tc, test_nothing_fits);
	tcase_add_test(tc, test_fixed_sizes);
	tcase_add_test(tc, test_max_worlds);
	tcase_add_test(tc, test_refused);
	tcase_add_loop_test(tc, test_brute_force, 0, 5);
	tcase_add_test(tc, test_budget_counts);
	tcase_add_test(tc, test_budget_composite);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(search_suite());
}
