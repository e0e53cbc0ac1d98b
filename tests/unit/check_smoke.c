/*
 * check_smoke.c: the sizes of a smoke job (src/core/smoke.c): the
 * layout of every example and the edge cases (VPP, CP with SP, EP past
 * the small model's experts, ETP, uneven first and last stages, pipeline
 * accounting, TP past the heads, nodes not whole), each held against the
 * sizing core's own rules; and the layouts no smoke job fits.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sizing.h"
#include "smoke.h"
#include "run.h"

enum small { DENSE, MOE };

struct scase {
	const char	*name;
	enum small	 small;
	int64_t		 tp, pp, vpp, cp, ep, etp;
	bool		 sp;
	int64_t		 first, last;
	bool		 acc_emb, acc_loss;
	/* Expected. */
	int64_t		 gpus, nodes, dp, layers, experts, heads, groups;
	int64_t		 gbs;
};

static const struct scase cases[] = {
	/* The examples (examples/*.json), their own layouts. */
	{ "llama3.2-1b", DENSE, 2, 2, 1, 1, 1, 1, true, 0, 0, false, false,
	    4, 1, 1, 16, 0, 32, 8, 8 },
	{ "llama3-70b", DENSE, 8, 4, 5, 2, 1, 1, true, 0, 0, false, false,
	    64, 8, 1, 20, 0, 32, 8, 8 },
	{ "qwen3-30b-a3b", MOE, 4, 2, 2, 1, 4, 1, true, 0, 0, false, false,
	    8, 1, 1, 16, 64, 16, 16, 8 },
	{ "deepseek-v2", MOE, 1, 4, 3, 1, 32, 1, false, 0, 0, false, false,
	    128, 16, 32, 12, 64, 16, 16, 128 },
	{ "deepseek-v3", MOE, 2, 16, 1, 1, 64, 1, true, 3, 2, false, false,
	    1024, 128, 32, 19, 64, 16, 16, 32 },
	{ "glm-4.5", MOE, 2, 8, 1, 1, 16, 1, true, 10, 10, false, false,
	    128, 16, 8, 26, 64, 16, 16, 8 },
	/* EP past the small model's 64 experts; EP not dividing them. */
	{ "ep128", MOE, 1, 1, 1, 1, 128, 1, false, 0, 0, false, false,
	    128, 16, 128, 16, 128, 16, 16, 128 },
	{ "ep48", MOE, 1, 1, 1, 1, 48, 1, false, 0, 0, false, false,
	    48, 6, 48, 16, 96, 16, 16, 48 },
	/* ETP: the expert mesh sets the min GPUs. */
	{ "etp2", MOE, 2, 1, 1, 1, 8, 2, true, 0, 0, false, false,
	    16, 2, 8, 16, 64, 16, 16, 8 },
	/* CP with SP. */
	{ "cp4-sp", DENSE, 2, 1, 1, 4, 1, 1, true, 0, 0, false, false,
	    8, 1, 1, 16, 0, 32, 8, 8 },
	/* 12 GPUs on 8-GPU nodes: the fewest whole nodes, 24 GPUs. */
	{ "pp12", DENSE, 1, 12, 1, 1, 1, 1, false, 0, 0, false, false,
	    24, 3, 2, 12, 0, 32, 8, 8 },
	/* TP past the query groups (a divisor of TP is legal), past the
	 * heads (a multiple of TP the hidden size holds). */
	{ "tp16", DENSE, 16, 1, 1, 1, 1, 1, true, 0, 0, false, false,
	    16, 2, 1, 16, 0, 32, 8, 8 },
	{ "tp64", DENSE, 64, 1, 1, 1, 1, 1, true, 0, 0, false, false,
	    64, 8, 1, 16, 0, 64, 8, 8 },
	{ "moe-tp32", MOE, 32, 1, 1, 1, 1, 1, true, 0, 0, false, false,
	    32, 4, 1, 16, 64, 32, 16, 8 },
	/* First and last stages with no middle stage between them. */
	{ "pp2-uneven", DENSE, 1, 2, 1, 1, 1, 1, false, 4, 4, false, false,
	    2, 1, 1, 8, 0, 32, 8, 8 },
	/* Only the first stage given: the last is a middle one. */
	{ "first-only", DENSE, 1, 4, 1, 1, 1, 1, false, 2, 0, false, false,
	    4, 1, 1, 5, 0, 32, 8, 8 },
	/* Uneven with VPP: the middle stages' layers per virtual stage. */
	{ "uneven-vpp", DENSE, 1, 6, 2, 1, 1, 1, false, 2, 2, false, false,
	    6, 1, 1, 12, 0, 32, 8, 12 },
	/* The embedding and the loss counted as layers. */
	{ "accounting", DENSE, 1, 4, 1, 1, 1, 1, false, 0, 0, true, true,
	    4, 1, 1, 2, 0, 32, 8, 8 },
	{ "accounting-pp2", DENSE, 1, 2, 1, 1, 1, 1, false, 0, 0, true,
	    true, 2, 1, 1, 16, 0, 32, 8, 8 },
	/* VPP with DP 2: micro-batches a multiple of PP. */
	{ "vpp-dp2", MOE, 1, 4, 2, 1, 2, 1, false, 0, 0, false, false,
	    8, 1, 2, 16, 64, 16, 16, 8 },
	{ "vpp-pp3", DENSE, 1, 3, 2, 1, 1, 1, false, 0, 0, false, false,
	    3, 1, 1, 6, 0, 32, 8, 9 },
};

static void
input(const struct scase *c, struct smoke_input *in)
{
	memset(in, 0, sizeof *in);
	in->layout.tp = c->tp;
	in->layout.pp = c->pp;
	in->layout.vpp = c->vpp;
	in->layout.cp = c->cp;
	in->layout.ep = c->ep;
	in->layout.etp = c->etp;
	in->layout.sp = c->sp;
	in->first_stage_layers = c->first;
	in->last_stage_layers = c->last;
	in->account_embedding = c->acc_emb;
	in->account_loss = c->acc_loss;
	in->gpus_per_node = 8;
	/* Llama 3.2 1B and OLMoE-1B-7B (src/job/model-builtin.c). */
	in->num_layers = 16;
	in->hidden_size = 2048;
	if (c->small == DENSE) {
		in->num_attention_heads = 32;
		in->num_query_groups = 8;
	} else {
		in->num_attention_heads = 16;
		in->num_query_groups = 16;
		in->num_experts = 64;
		in->moe_router_topk = 8;
	}
}

/* The sizing core, given the smoke job, finds nothing wrong with it. */
static void
core_accepts(const struct scase *c, const struct smoke_input *in,
    const struct smoke *z)
{
	struct sizing_input	 si;
	struct sizing		 s;
	int			 i;

	sizing_input_init(&si);
	si.layout = in->layout;
	si.world_from = WORLD_FROM_GPUS;
	si.gpus = z->gpus;
	si.gpus_per_node = in->gpus_per_node;
	si.first_stage_layers = in->first_stage_layers;
	si.last_stage_layers = in->last_stage_layers;
	si.account_embedding = in->account_embedding;
	si.account_loss = in->account_loss;
	si.seq_length = 4096;
	si.global_batch = z->global_batch;
	si.micro_batch = z->micro_batch;
	si.model.kind = c->small == DENSE ? MODEL_KIND_DENSE : MODEL_KIND_MOE;
	si.model.num_layers = z->num_layers;
	si.model.hidden_size = in->hidden_size;
	si.model.ffn_hidden_size = c->small == DENSE ? 8192 : 1024;
	si.model.num_attention_heads = z->num_attention_heads;
	si.model.num_query_groups = z->num_query_groups;
	si.model.vocab_size = 50304;
	si.model.num_experts = z->num_experts;
	si.model.moe_router_topk = in->moe_router_topk;
	si.model.moe_ffn_hidden_size = c->small == DENSE ? 0 : 1024;
	ck_assert_ptr_null(sizing_compute(&si, &s));
	for (i = 0; i < s.nfindings; i++)
		ck_assert_msg(s.findings[i].severity != SEVERITY_ERROR,
		    "%s: %s: %s", c->name, s.findings[i].code,
		    s.findings[i].message);
	ck_assert_int_eq(s.world, z->gpus);
	ck_assert_int_eq(s.dp, z->dp);
	ck_assert_int_eq(s.nodes, z->nodes);
	ck_assert(s.split_known || in->layout.pp == 1);
}

START_TEST(test_case)
{
	const struct scase	*c = &cases[_i];
	struct smoke_input	 in;
	struct smoke		 z;
	const char		*reason;

	input(c, &in);
	reason = smoke_compute(&in, &z);
	ck_assert_msg(reason == NULL, "%s: %s", c->name, reason);
	ck_assert_msg(z.gpus == c->gpus, "%s: gpus %lld", c->name,
	    (long long)z.gpus);
	ck_assert_msg(z.nodes == c->nodes, "%s: nodes %lld", c->name,
	    (long long)z.nodes);
	ck_assert_msg(z.dp == c->dp, "%s: dp %lld", c->name,
	    (long long)z.dp);
	ck_assert_msg(z.num_layers == c->layers, "%s: layers %lld", c->name,
	    (long long)z.num_layers);
	ck_assert_msg(z.num_experts == c->experts, "%s: experts %lld",
	    c->name, (long long)z.num_experts);
	ck_assert_msg(z.num_attention_heads == c->heads, "%s: heads %lld",
	    c->name, (long long)z.num_attention_heads);
	ck_assert_msg(z.num_query_groups == c->groups, "%s: groups %lld",
	    c->name, (long long)z.num_query_groups);
	ck_assert_msg(z.global_batch == c->gbs, "%s: global batch %lld",
	    c->name, (long long)z.global_batch);
	ck_assert_int_eq(z.micro_batch, 1);
	ck_assert_int_eq(z.microbatches * z.dp, z.global_batch);
	ck_assert(smoke_layers_legal(&in, z.num_layers));
	core_accepts(c, &in, &z);
}
END_TEST

/* The small model's own count is kept when legal, else the fewest. */
START_TEST(test_layers_fewest)
{
	struct smoke_input	 in;
	int64_t			 n;

	input(&cases[1], &in);		/* PP 4, VPP 5 */
	ck_assert(!smoke_layers_legal(&in, 16));
	for (n = 1; n < 20; n++)
		ck_assert(!smoke_layers_legal(&in, n));
	ck_assert(smoke_layers_legal(&in, 20));
	ck_assert(smoke_layers_legal(&in, 40));
	ck_assert(!smoke_layers_legal(&in, 0));
	input(&cases[4], &in);		/* PP 16, 3 first, 2 last */
	for (n = 1; n < 19; n++)
		ck_assert(!smoke_layers_legal(&in, n));
	ck_assert(smoke_layers_legal(&in, 19));
	ck_assert(smoke_layers_legal(&in, 33));
	ck_assert(!smoke_layers_legal(&in, 20));
}
END_TEST

/* Too large for the GPU: the fewest layers, then the fewest experts. */
START_TEST(test_shrink)
{
	struct smoke_input	 in;
	struct smoke		 z;

	input(&cases[4], &in);		/* deepseek-v3's: 19 layers, EP 64 */
	ck_assert_ptr_null(smoke_compute(&in, &z));
	ck_assert(!smoke_shrink(&in, &z));	/* already the smallest */
	ck_assert_int_eq(z.num_layers, 19);
	ck_assert_int_eq(z.num_experts, 64);	/* EP 64: 64 is the least */
	input(&cases[2], &in);		/* qwen3's: 16 layers, EP 4 */
	ck_assert_ptr_null(smoke_compute(&in, &z));
	ck_assert(smoke_shrink(&in, &z));
	ck_assert_int_eq(z.num_layers, 4);	/* PP 2 x VPP 2 */
	ck_assert_int_eq(z.num_experts, 64);
	ck_assert(smoke_shrink(&in, &z));
	ck_assert_int_eq(z.num_layers, 4);
	ck_assert_int_eq(z.num_experts, 8);	/* top-8, a multiple of 4 */
	ck_assert(!smoke_shrink(&in, &z));
	ck_assert(smoke_layers_legal(&in, z.num_layers));
	input(&cases[0], &in);		/* dense, PP 2: 2 layers, then no more */
	ck_assert_ptr_null(smoke_compute(&in, &z));
	ck_assert(smoke_shrink(&in, &z));
	ck_assert_int_eq(z.num_layers, 2);
	ck_assert(!smoke_shrink(&in, &z));
}
END_TEST

static const struct {
	const char	*name;
	enum small	 small;
	int64_t		 tp, pp, vpp, ep, first, last, gpn;
	const char	*reason;	/* a word of it */
} bad[] = {
	/* 2048 holds no multiple of 3 heads. */
	{ "tp3", DENSE, 3, 1, 1, 1, 0, 0, 8, "hidden size" },
	{ "uneven-pp1", DENSE, 1, 1, 1, 1, 2, 2, 8, "PP 2 or more" },
	/* 3 first-stage layers over 2 virtual stages. */
	{ "uneven-vpp", DENSE, 1, 4, 2, 1, 3, 2, 8, "multiples of VPP" },
	{ "tp0", DENSE, 0, 1, 1, 1, 0, 0, 8, "below 1" },
	{ "gpn0", MOE, 1, 1, 1, 8, 0, 0, 0, "below 1" },
	{ "overflow", DENSE, 1, INT64_MAX / 2, 1, 1, 0, 0, 8, "overflow" },
};

START_TEST(test_bad)
{
	struct scase		 c;
	struct smoke_input	 in;
	struct smoke		 z;
	const char		*reason;

	memset(&c, 0, sizeof c);
	c.small = bad[_i].small;
	c.tp = bad[_i].tp;
	c.pp = bad[_i].pp;
	c.vpp = bad[_i].vpp;
	c.cp = c.etp = 1;
	c.ep = bad[_i].ep;
	c.first = bad[_i].first;
	c.last = bad[_i].last;
	input(&c, &in);
	in.gpus_per_node = bad[_i].gpn;
	reason = smoke_compute(&in, &z);
	ck_assert_msg(reason != NULL, "%s: accepted", bad[_i].name);
	ck_assert_msg(strstr(reason, bad[_i].reason) != NULL, "%s: %s",
	    bad[_i].name, reason);
}
END_TEST

static Suite *
smoke_suite(void)
{
	Suite	*su = suite_create("smoke");
	TCase	*tc = tcase_create("smoke");

	tcase_add_loop_test(tc, test_case, 0, sizeof cases / sizeof cases[0]);
	tcase_add_test(tc, test_layers_fewest);
	tcase_add_test(tc, test_shrink);
	tcase_add_loop_test(tc, test_bad, 0, sizeof bad / sizeof bad[0]);
	suite_add_tcase(su, tc);
	return su;
}

int
main(void)
{
	return run_suite(smoke_suite());
}
