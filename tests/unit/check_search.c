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
 * 4096 % 2CP == 0: 1 2 4 8.  EP = ETP = 1 (dense).  PP and VPP (a count
 * dividing 32, 33 or 34 that splits them: evenly, with the embedding and
 * the loss as layers, with the loss, or unevenly):
 *   PP 1: VPP 1                                             1
 *   PP 2: 32 = 2 x 16, VPP dividing 16: 1 2 4 8 16; and 17:
 *         32 + 2 = 34 = 2 x 17 (3 and 11 split nothing)     6
 *   PP 4: 8 a stage, VPP 1 2 4 8 (3 splits neither 32, 33
 *         nor 34 in 12 chunks, nor unevenly: VPP divides no 32) 4
 *   PP 8: 4 a stage, VPP 1 2 4 (3 does not split)           3
 * TP x CP dividing 8 / PP: 8 -> 10 pairs, 4 -> 6, 2 -> 3, 1 -> 1.
 * 1 x 10 + 6 x 6 + 4 x 3 + 3 x 1 = 61 layouts, all legal (no batch).
 */
START_TEST(test_count_llama3_8b)
{
	struct search_input	 si = input("llama3-8b", 8, 4096, 0);
	struct search_stats	 st;
	int			 n;

	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_eq(st.nworlds, 1);
	ck_assert_int_eq(st.worlds[0], 8);
	ck_assert_int_eq(st.candidates, 61);
	ck_assert_int_eq(st.legal, 61);
	ck_assert_int_le(st.fit, 61);
	ck_assert_int_gt(st.fit, 0);
	ck_assert_int_eq(n, st.fit);
	check_results(&si, n);
	/* SP goes with TP. */
	for (int i = 0; i < n; i++)
		ck_assert(results[i].in.layout.sp == (results[i].in.layout.tp >
		    1));
}
END_TEST

/*
 * FSDP searched: each of the 61 layouts of test_count_llama3_8b without
 * and with Megatron-FSDP (optim_grads_params), every result passing the
 * core as it is; on 24 GiB GPUs, Llama 3 8B fits some layouts only with
 * its weights and gradients sharded, so those results are FSDP ones, and
 * without FSDP searched there are fewer.
 */
START_TEST(test_fsdp)
{
	struct search_input	 si = input("llama3-8b", 8, 4096, 0);
	struct search_stats	 st, off;
	int			 i, n, nfsdp = 0;

	si.base.gpu_gib = 24;
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &off));
	ck_assert_int_eq(off.candidates, 61);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(results[i].in.fsdp, FSDP_OFF);
	si.vary_fsdp = true;
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_eq(st.candidates, 122);
	ck_assert_int_eq(st.legal, 122);
	ck_assert_int_gt(st.fit, off.fit);
	check_results(&si, n);
	for (i = 0; i < n; i++) {
		ck_assert(results[i].chose_fsdp);
		ck_assert(results[i].in.fsdp == FSDP_OFF ||
		    results[i].in.fsdp == FSDP_OPTIM_GRADS_PARAMS);
		nfsdp += results[i].in.fsdp != FSDP_OFF;
	}
	ck_assert_int_gt(nfsdp, 0);
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

/*
 * Megatron-Core refuses full recompute under per-layer CUDA graphs
 * (transformer_config.py:2855-2858): with TE or local graphs the search
 * offers none; without graphs, or under a full-iteration graph, Qwen3-30B
 * on 8 H100 ranks full-recompute layouts among its best (on 64 it did
 * too, until the MoE layer's copies paid their passes through memory,
 * cost.c moe_copy_bytes(): under a full-iteration graph its best there
 * are micro-batches of 2 without recompute, as NVIDIA's runs are).
 */
START_TEST(test_graphs_no_full_recompute)
{
	static const enum cuda_graph_impl g[] = { CUDA_GRAPH_NONE,
	    CUDA_GRAPH_TE, CUDA_GRAPH_LOCAL, CUDA_GRAPH_FULL_ITERATION };
	struct search_input	 si = input("qwen3-30b-a3b", 8, 4096, 256);
	struct search_stats	 st;
	int			 n, i, full = 0;

	si.vary_micro_batch = si.vary_recompute = true;
	si.base.cuda_graphs = g[_i];
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_gt(n, 0);
	for (i = 0; i < n; i++)
		full += results[i].in.recompute == RECOMPUTE_FULL;
	if (g[_i] == CUDA_GRAPH_TE || g[_i] == CUDA_GRAPH_LOCAL)
		ck_assert_int_eq(full, 0);
	else
		ck_assert_int_gt(full, 0);
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
 * choices (SP with TP, its split, search_split(), tested by hand below,
 * ETP dividing the expert width, ETP 1 on a dense model), each sized
 * and checked by the
 * core.  Its legal and fitting layouts must be the search's, and the
 * search's best must be the best of them.
 */
#define ORACLE_MAX	32768

struct oracle {
	struct layout	 l[ORACLE_MAX];
	int64_t		 mbs[ORACLE_MAX];
	enum recompute	 rc[ORACLE_MAX];
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
	o->mbs[o->n] = in->micro_batch;
	o->rc[o->n] = in->recompute;
	o->score[o->n++] = c.score;
}

/* Each micro-batch size and recompute mode the oracle tries: the base's,
 * or when the search varies them, every power of two up to the batch and
 * every mode (the core refuses a size the batch does not divide). */
static void
oracle_variants(const struct search_input *si, struct sizing_input *in,
    struct oracle *o)
{
	static const enum recompute modes[] = { RECOMPUTE_NONE,
	    RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
	int64_t		 m, top = si->base.global_batch > 0 ?
	    si->base.global_batch : 1;
	size_t		 r;

	for (m = 1; m <= top; m *= 2) {
		for (r = 0; r < 3; r++) {
			in->micro_batch = si->vary_micro_batch ? m :
			    si->base.micro_batch;
			in->recompute = si->vary_recompute ? modes[r] :
			    si->base.recompute;
			oracle_one(si, in, o);
			if (!si->vary_recompute)
				break;
		}
		if (!si->vary_micro_batch)
			break;
	}
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
	for (vpp = 1; vpp <= m->num_layers + 2; vpp++)
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
		if (!search_split(m->num_layers, pp, vpp, &in))
			continue;
		oracle_variants(si, &in, o);
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

static const struct {
	const char *model; int64_t world, gbs, seq, gpn;
} brute[] = {
	{ NULL, 12, 0, 4096, 4 },	/* tiny_moe */
	{ NULL, 12, 8, 4096, 4 },
	{ NULL, 24, 16, 6144, 8 },
	{ "llama3-8b", 16, 4, 4096, 8 },
	{ "olmoe-7b", 16, 8, 4096, 8 },
};

static struct search_input
brute_input(int i)
{
	struct search_input	 si = input(brute[i].model != NULL ?
	    brute[i].model : "llama3-8b", brute[i].world, brute[i].seq,
	    brute[i].gbs);

	if (brute[i].model == NULL)
		si.base.model = tiny_moe;
	si.base.gpus_per_node = brute[i].gpn;
	return si;
}

START_TEST(test_brute_force)
{
	static struct oracle	 o;
	struct search_input	 si = brute_input(_i);
	struct search_stats	 st, nobatch;
	int			 n, i, k, better;

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

static int
by_score(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x > y ? -1 : x < y;
}

/*
 * The same with the micro-batch size and recompute searched: the oracle
 * sizes every power of two up to the batch with every mode; the search,
 * which sizes fewer (what cannot beat its last kept result is counted,
 * not sized; a mode that does not fit is not tried at a larger
 * micro-batch), must return the oracle's best, score for score, each one
 * the oracle found.  Each case twice: on an H100's 80 GiB, and on 15 GiB,
 * where many layouts do not fit.
 */
START_TEST(test_brute_force_varied)
{
	static struct oracle	 o;
	static double		 sorted[ORACLE_MAX];
	struct search_input	 si = brute_input(_i % 5);
	struct search_stats	 st;
	int			 n, i, k;

	si.vary_micro_batch = si.vary_recompute = true;
	if (_i >= 5)
		si.base.gpu_gib = 15;
	oracle_run(&si, &o);
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_le(st.legal, o.legal);
	ck_assert_int_le(st.fit, o.n);
	ck_assert_int_eq(n, o.n < SEARCH_MAX_BEST ? o.n : SEARCH_MAX_BEST);
	ck_assert_int_gt(n, 0);
	check_results(&si, n);
	memcpy(sorted, o.score, (size_t)o.n * sizeof sorted[0]);
	qsort(sorted, (size_t)o.n, sizeof sorted[0], by_score);
	for (i = 0; i < n; i++) {
		ck_assert_double_eq(results[i].cost.score, sorted[i]);
		ck_assert(results[i].chose_micro_batch);
		ck_assert(results[i].chose_recompute);
		for (k = 0; k < o.n; k++)
			if (same_layout(&o.l[k], &results[i].in.layout) &&
			    o.mbs[k] == results[i].in.micro_batch &&
			    o.rc[k] == results[i].in.recompute)
				break;
		ck_assert_int_lt(k, o.n);
		ck_assert_double_eq(o.score[k], results[i].cost.score);
	}
}
END_TEST

/*
 * The search's split, by hand: even; Llama 3.1 405B's 126 layers with the
 * embedding and the loss over 8 x 8 and 16 x 8 chunks (128 = 64 x 2 =
 * 128 x 1: a chunk of the embedding alone, which Megatron builds with no
 * layer, transformer_block.py get_num_layers_to_build "assert >= 0");
 * Qwen3 235B's 94 + 2 over 8 x 3; 31 + 1 (the loss) over 2 x 16;
 * DeepSeek-V3's 61 over PP 16 unevenly (3 + 14 x 4 + 2) and over 4 x 4
 * not at all (every stage a multiple of 4, and 62, 63 not of 16).
 */
START_TEST(test_split)
{
	static const struct {
		int64_t layers, pp, vpp;
		bool ok, emb, loss;
		int64_t first, last;
	} c[] = {
		{ 80, 4, 5, true, false, false, 0, 0 },
		{ 126, 8, 8, true, true, true, 0, 0 },
		{ 126, 16, 8, true, true, true, 0, 0 },
		{ 126, 8, 4, true, true, true, 0, 0 },
		{ 94, 8, 3, true, true, true, 0, 0 },
		{ 94, 4, 12, true, true, true, 0, 0 },
		{ 31, 2, 16, true, false, true, 0, 0 },
		{ 61, 16, 1, true, false, false, 3, 2 },
		{ 61, 4, 4, false, false, false, 0, 0 },
		{ 61, 2, 8, false, false, false, 0, 0 },
		{ 7, 1, 1, true, false, false, 0, 0 },
		{ 7, 1, 3, false, false, false, 0, 0 },
		{ 7, 0, 1, false, false, false, 0, 0 },
		{ 0, 1, 1, false, false, false, 0, 0 },
		{ 7, INT64_MAX, 2, false, false, false, 0, 0 },
	};
	struct sizing_input	 in;
	static struct sizing	 s;
	size_t			 i;

	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		sizing_input_init(&in);
		in.account_embedding = in.account_loss = true;
		in.first_stage_layers = 99;
		ck_assert_msg(search_split(c[i].layers, c[i].pp, c[i].vpp,
		    &in) == c[i].ok, "case %zu", i);
		if (!c[i].ok)
			continue;
		ck_assert(in.account_embedding == c[i].emb);
		ck_assert(in.account_loss == c[i].loss);
		ck_assert_int_eq(in.first_stage_layers, c[i].first);
		ck_assert_int_eq(in.last_stage_layers, c[i].last);
		/* The core accepts it. */
		in.model = *model_builtin_find("llama3-8b");
		in.model.num_layers = c[i].layers;
		in.layout.pp = c[i].pp;
		in.layout.vpp = c[i].vpp;
		in.world_from = WORLD_FROM_GPUS;
		in.gpus = c[i].pp;
		ck_assert_ptr_null(sizing_compute(&in, &s));
		for (int k = 0; k < s.nfindings; k++)
			ck_assert_msg(s.findings[k].severity != SEVERITY_ERROR,
			    "case %zu: %s", i, s.findings[k].message);
	}
}
END_TEST

/*
 * What the search's pruning takes from the cost model: at the same
 * layout and micro-batch size, recomputing more never makes a step
 * faster, and a layout's score is at most its tokens/s.
 */
START_TEST(test_recompute_never_faster)
{
	static const char *const models[] = { "llama3-8b", "llama3-70b",
	    "qwen3-30b-a3b", "deepseek-v3" };
	static const enum recompute modes[] = { RECOMPUTE_NONE,
	    RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
	static struct sizing	 s;
	struct search_input	 si;
	struct search_stats	 st;
	struct sizing_input	 in;
	struct cost		 c;
	double			 prev;
	size_t			 m;
	int			 n, i, r;

	for (m = 0; m < sizeof models / sizeof models[0]; m++) {
		si = input(models[m], 64, 4096, 512);
		si.base.gpu_gib = 0;
		ck_assert_ptr_null(search_run(&si, results, 20, &n, &st));
		ck_assert_int_gt(n, 0);
		for (i = 0; i < n; i++) {
			in = results[i].in;
			prev = 0;
			for (r = 0; r < 3; r++) {
				in.recompute = modes[r];
				ck_assert_ptr_null(sizing_compute(&in, &s));
				ck_assert_ptr_null(cost_estimate(&in, &s, &si.hw,
				    &c));
				ck_assert_double_le(c.score, c.tokens_per_s);
				/* Equal when a MoE layer's floor absorbs the
				 * recompute (host_bound()): up to rounding. */
				if (r > 0)
					ck_assert_double_le(c.tokens_per_s,
					    prev * (1 + 1e-12));
				prev = c.tokens_per_s;
			}
		}
	}
}
END_TEST

/*
 * What the search's pruning takes from the memory estimate: at the same
 * layout and recompute mode, a larger micro-batch never needs less
 * memory (a mode that does not fit one size is not tried at a larger).
 */
START_TEST(test_memory_grows_with_micro_batch)
{
	static const char *const models[] = { "llama3-8b", "llama3-70b",
	    "qwen3-30b-a3b", "deepseek-v3" };
	static const enum recompute modes[] = { RECOMPUTE_NONE,
	    RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };
	static struct sizing	 s;
	struct search_input	 si;
	struct search_stats	 st;
	struct sizing_input	 in;
	double			 prev;
	size_t			 m;
	int			 n, i, r;

	for (m = 0; m < sizeof models / sizeof models[0]; m++) {
		si = input(models[m], 64, 4096, 1024);
		si.base.gpu_gib = 0;
		ck_assert_ptr_null(search_run(&si, results, 20, &n, &st));
		ck_assert_int_gt(n, 0);
		for (i = 0; i < n; i++)
			for (r = 0; r < 3; r++) {
				in = results[i].in;
				in.recompute = modes[r];
				prev = 0;
				for (in.micro_batch = 1; 1024 % (in.micro_batch *
				    results[i].dp) == 0; in.micro_batch *= 2) {
					ck_assert_ptr_null(sizing_compute(&in,
					    &s));
					ck_assert_double_ge(s.memory.total_gib,
					    prev);
					prev = s.memory.total_gib;
				}
			}
	}
}
END_TEST

/*
 * Fixed stays fixed: without vary, every result has the base's
 * micro-batch size and recompute, and says the user chose them; with
 * vary and no global batch, the micro-batch size is the base's still
 * (no batch to divide) and each layout is counted once per mode.
 */
START_TEST(test_vary_fixed)
{
	struct search_input	 si = input("llama3-8b", 8, 4096, 0);
	struct search_stats	 st;
	int			 n, i;

	si.base.micro_batch = 2;
	si.base.recompute = RECOMPUTE_FULL;
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_eq(st.candidates, 61);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(results[i].in.micro_batch, 2);
		ck_assert_int_eq(results[i].in.recompute, RECOMPUTE_FULL);
		ck_assert(!results[i].chose_micro_batch);
		ck_assert(!results[i].chose_recompute);
	}
	si.vary_micro_batch = si.vary_recompute = true;
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	ck_assert_int_eq(st.candidates, 3 * 61);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(results[i].in.micro_batch, 2);
	/* A batch of 64 on 8 GPUs: DP 8 takes 1, 2, 4, 8 a micro-batch;
	 * no result has another size, and some have more than 1. */
	si.base.global_batch = 64;
	ck_assert_ptr_null(search_run(&si, results, SEARCH_MAX_BEST, &n, &st));
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(64 % (results[i].in.micro_batch *
		    results[i].dp), 0);
		ck_assert(results[i].chose_micro_batch);
	}
	for (i = 0; i < n && results[i].in.micro_batch == 1; i++)
		;
	ck_assert_int_lt(i, n);
}
END_TEST

/*
 * The budget on a small search with skipped layouts (a batch that rules
 * out DP 3, 6 and 12): every budget B stops after exactly min(B, all)
 * layouts, as if each were sized in turn; a layout more passes at most
 * one more rule check; from B = all on, the search is whole and its
 * result the unbudgeted one.
 */
static void
budget_counts(bool vary)
{
	static struct search_result	 full[SEARCH_MAX_BEST];
	struct search_input	 si = input("llama3-8b", 12, 4096, 8);
	struct search_stats	 all, st, prev;
	int			 nall, n, i;
	int64_t			 b;

	si.base.model = tiny_moe;
	si.base.gpus_per_node = 4;
	si.vary_micro_batch = si.vary_recompute = vary;
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

START_TEST(test_budget_counts)
{
	budget_counts(false);
}
END_TEST

/* The same with the micro-batch size and recompute searched: each counts
 * as a layout, sized or not. */
START_TEST(test_budget_counts_varied)
{
	budget_counts(true);
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
	tcase_add_test(tc, test_fsdp);
	tcase_add_loop_test(tc, test_graphs_no_full_recompute, 0, 4);
	tcase_add_loop_test(tc, test_moe_results_pass_plan, 0, 3);
	tcase_add_test(tc, test_nothing_fits);
	tcase_add_test(tc, test_fixed_sizes);
	tcase_add_test(tc, test_max_worlds);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_budget_counts_varied);
	tcase_add_test(tc, test_vary_fixed);
	tcase_add_test(tc, test_recompute_never_faster);
	tcase_add_loop_test(tc, test_brute_force_varied, 0, 10);
	tcase_add_test(tc, test_memory_grows_with_micro_batch);
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
