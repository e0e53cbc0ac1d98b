/*
 * check_sizing.c: the sizing core (src/core/sizing.c) against the worked
 * examples of docs/megatron-rules.md section 1 and docs/SPEC.md section 2, each
 * finding firing and not firing, lcm layouts and overflow.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sizing.h"
#include "run.h"

static const struct finding *
find(const struct sizing *s, const char *code)
{
	int	 i;

	for (i = 0; i < s->nfindings; i++)
		if (strcmp(s->findings[i].code, code) == 0)
			return &s->findings[i];
	return NULL;
}

static bool
skipped(const struct sizing *s, const char *code)
{
	int	 i;

	for (i = 0; i < s->nskipped; i++)
		if (strcmp(s->skipped[i].code, code) == 0)
			return true;
	return false;
}

static void
layout(struct sizing_input *in, int64_t pp, int64_t tp, int64_t cp,
    int64_t ep, int64_t etp)
{
	sizing_input_init(in);
	in->layout.pp = pp;
	in->layout.tp = tp;
	in->layout.cp = cp;
	in->layout.ep = ep;
	in->layout.etp = etp;
}

static void
compute(const struct sizing_input *in, struct sizing *s)
{
	const char	*reason = sizing_compute(in, s);

	ck_assert_msg(reason == NULL, "sizing_compute: %s", reason);
}

/* The table of worked minimum-GPU examples (the parallelism skill). */
static const struct {
	int64_t	 pp, tp, cp, ep, etp, naive, min;
} examples[] = {
	{ 1, 2, 1, 8, 1, 16, 8 },
	{ 1, 4, 1, 8, 1, 32, 8 },
	{ 1, 2, 2, 8, 1, 32, 8 },
	{ 1, 2, 4, 8, 1, 64, 8 },
	{ 2, 2, 1, 8, 1, 32, 16 },
	{ 1, 2, 1, 4, 2, 16, 8 },
};

START_TEST(test_worked_examples)
{
	struct sizing_input	 in;
	struct sizing		 s;

	layout(&in, examples[_i].pp, examples[_i].tp, examples[_i].cp,
	    examples[_i].ep, examples[_i].etp);
	compute(&in, &s);
	ck_assert_int_eq(s.naive_product, examples[_i].naive);
	ck_assert_int_eq(s.min_gpus, examples[_i].min);
	ck_assert_int_eq(s.world, examples[_i].min);
	ck_assert_int_eq(s.multiple, 1);
	ck_assert_ptr_null(find(&s, "mesh-lcm"));
	ck_assert_int_eq(s.nerrors, 0);
}
END_TEST

/* Scaling: TP 2, EP 8 on 8, 16 and 32 GPUs. */
static const struct {
	int64_t	 gpus, dp, edp, nodes;
} scaling[] = {
	{ 8, 4, 1, 1 },
	{ 16, 8, 2, 2 },
	{ 32, 16, 4, 4 },
};

START_TEST(test_scaling)
{
	struct sizing_input	 in;
	struct sizing		 s;

	layout(&in, 1, 2, 1, 8, 1);
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = scaling[_i].gpus;
	compute(&in, &s);
	ck_assert_int_eq(s.min_gpus, 8);
	ck_assert_int_eq(s.world, scaling[_i].gpus);
	ck_assert_int_eq(s.dp, scaling[_i].dp);
	ck_assert_int_eq(s.edp, scaling[_i].edp);
	ck_assert_int_eq(s.nodes, scaling[_i].nodes);
	ck_assert_int_eq(s.tasks_per_node, 8);
	ck_assert_int_eq(s.nfindings, 0);

	/* The same world as a multiple and as nodes gives the same. */
	in.world_from = WORLD_FROM_MULTIPLE;
	in.multiple = scaling[_i].gpus / 8;
	compute(&in, &s);
	ck_assert_int_eq(s.dp, scaling[_i].dp);
	ck_assert_int_eq(s.edp, scaling[_i].edp);
	in.world_from = WORLD_FROM_NODES;
	in.nodes = scaling[_i].nodes;
	compute(&in, &s);
	ck_assert_int_eq(s.world, scaling[_i].gpus);
	ck_assert_int_eq(s.dp, scaling[_i].dp);
}
END_TEST

START_TEST(test_dense_70b_example)
{
	struct sizing_input	 in;
	struct sizing		 s;

	/* 70B dense on 64 GPUs -> TP 8, PP 4, DP 2
	 * (docs/megatron-rules.md section 5). */
	layout(&in, 4, 8, 1, 1, 1);
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = 64;
	compute(&in, &s);
	ck_assert_int_eq(s.min_gpus, 32);
	ck_assert_int_eq(s.dp, 2);
	ck_assert_int_eq(s.edp, 16);
	ck_assert_int_eq(s.nodes, 8);
	/* No global batch: the bubble is not known. */
	ck_assert_ptr_null(find(&s, "pp-bubble"));
	ck_assert(skipped(&s, "pp-bubble"));
}
END_TEST

START_TEST(test_lcm)
{
	struct sizing_input	 in;
	struct sizing		 s;
	const struct finding	*f;

	/* TP·CP = 6, EP·ETP = 4: lcm 12, not max 6. */
	layout(&in, 1, 3, 2, 4, 1);
	compute(&in, &s);
	ck_assert_int_eq(s.mesh_max, 6);
	ck_assert_int_eq(s.mesh_lcm, 12);
	ck_assert_int_eq(s.min_gpus, 12);
	ck_assert_int_eq(s.naive_product, 24);
	ck_assert_int_eq(s.dp, 2);
	ck_assert_int_eq(s.edp, 3);
	f = find(&s, "mesh-lcm");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->severity, SEVERITY_WARNING);
	ck_assert_ptr_nonnull(strstr(f->message, "lcm(6, 4) = 12"));

	/* PP multiplies the lcm: PP 2, TP 3, EP 2 -> 2·6 = 12. */
	layout(&in, 2, 3, 1, 2, 1);
	compute(&in, &s);
	ck_assert_int_eq(s.min_gpus, 12);

	/* A given world that is a multiple of max but not of lcm. */
	layout(&in, 1, 3, 2, 4, 1);
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = 18;
	compute(&in, &s);
	ck_assert_ptr_nonnull(find(&s, "world-divisibility"));
	ck_assert_int_eq(s.edp, 0);	/* 18 / 4 is not whole */
}
END_TEST

/* A finding that fires for one input and not for a close one. */
struct rule_case {
	const char	*code;
	bool		 fires;
	void		(*setup)(struct sizing_input *);
};

static void sp_tp1(struct sizing_input *in) { in->layout.sp = true; }
static void sp_tp2(struct sizing_input *in)
{
	in->layout.sp = true;
	in->layout.tp = 2;
}
static void cp_seq_bad(struct sizing_input *in)
{
	in->layout.cp = 4;
	in->seq_length = 8196;		/* % 8 = 4 */
}
static void cp_seq_ok(struct sizing_input *in)
{
	in->layout.cp = 4;
	in->seq_length = 8192;
}
static void ep_dense(struct sizing_input *in)
{
	in->layout.ep = 8;
	in->model.kind = MODEL_KIND_DENSE;
}
static void etp_dense(struct sizing_input *in)
{
	in->layout.etp = 2;
	in->model.kind = MODEL_KIND_DENSE;
}
static void ep_unknown(struct sizing_input *in) { in->layout.ep = 8; }
/* The 405B recipe: 126 layers + embedding + loss = 128 over PP 8. */
static void account_ok(struct sizing_input *in)
{
	in->layout.pp = 8;
	in->layout.vpp = 2;
	in->model.num_layers = 126;
	in->account_embedding = in->account_loss = true;
}
static void account_bad(struct sizing_input *in)
{
	account_ok(in);
	in->account_loss = false;	/* 127 over 16 chunks */
}
static void account_split(struct sizing_input *in)
{
	account_ok(in);
	in->layout.vpp = 1;
	in->first_stage_layers = 15;
	in->last_stage_layers = 15;
}
static void recipe_layout(struct sizing_input *in)
{
	in->layout.pp = 16;
	in->model.num_layers = 61;
	in->pipeline_layout = true;
}
static void experts_bad(struct sizing_input *in)
{
	in->layout.ep = 48;
	in->model.kind = MODEL_KIND_MOE;
	in->model.num_experts = 256;
}
static void experts_ok(struct sizing_input *in)
{
	in->layout.ep = 64;
	in->model.kind = MODEL_KIND_MOE;
	in->model.num_experts = 256;
}
static void layers_bad(struct sizing_input *in)
{
	in->layout.pp = 4;
	in->layout.vpp = 2;
	in->model.num_layers = 36;	/* 36 % 8 = 4 */
}
static void layers_ok(struct sizing_input *in)
{
	in->layout.pp = 4;
	in->layout.vpp = 5;
	in->model.num_layers = 80;
}
static void vpp_pp1(struct sizing_input *in) { in->layout.vpp = 2; }
static void vpp_pp2(struct sizing_input *in)
{
	in->layout.vpp = 2;
	in->layout.pp = 2;
}
static void heads_bad(struct sizing_input *in)
{
	in->layout.tp = 8;
	in->model.num_attention_heads = 12;
}
static void groups_bad(struct sizing_input *in)
{
	/* 6 groups: 6 % 4 != 0 and 4 % 6 != 0. */
	in->layout.tp = 4;
	in->model.num_attention_heads = 48;
	in->model.num_query_groups = 6;
}
static void groups_replicated(struct sizing_input *in)
{
	/* TP 8 over 4 groups: KV heads replicated, legal. */
	in->layout.tp = 8;
	in->model.num_attention_heads = 64;
	in->model.num_query_groups = 4;
}
static void batch_bad(struct sizing_input *in)
{
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = 16;			/* DP 16 */
	in->global_batch = 24;
}
static void batch_ok(struct sizing_input *in)
{
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = 16;
	in->micro_batch = 2;
	in->global_batch = 64;
}
static void batch_too_small(struct sizing_input *in)
{
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = 16;
	in->global_batch = 8;		/* fewer than one per DP rank */
}
static void world_bad(struct sizing_input *in)
{
	in->layout.tp = 8;
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = 12;
}
static void world_nodes_bad(struct sizing_input *in)
{
	in->layout.tp = 8;
	in->layout.pp = 2;
	in->world_from = WORLD_FROM_NODES;
	in->nodes = 3;
}
static void uneven(struct sizing_input *in)
{
	in->layout.tp = 4;
	in->layout.pp = 5;		/* min 20 on 8-GPU nodes */
}
static void even_12(struct sizing_input *in)
{
	in->layout.tp = 4;
	in->layout.pp = 3;		/* 12 = 2 nodes of 6 */
}
static void overlap_no_sp(struct sizing_input *in)
{
	in->layout.tp = 4;
	in->tp_comm_overlap = TRI_ON;
}
static void overlap_ok(struct sizing_input *in)
{
	in->layout.tp = 4;
	in->layout.sp = true;
	in->tp_comm_overlap = TRI_ON;
}
static void overlap_off_tp1(struct sizing_input *in)
{
	in->tp_comm_overlap = TRI_OFF;
}
static void tp16(struct sizing_input *in) { in->layout.tp = 16; }
static void tp4_6tasks(struct sizing_input *in)
{
	in->layout.tp = 4;
	in->layout.pp = 3;		/* 2 nodes of 6: groups cross */
}
static void tp8_nvl72(struct sizing_input *in)
{
	/* gb200: 4 GPUs per node, NVLink domain of 72. */
	in->layout.tp = 8;
	in->layout.pp = 4;
	in->gpus_per_node = 4;
	in->nvlink_domain = 72;
}
static void tp4_half_domains(struct sizing_input *in)
{
	/* Two NVLink islands of 4 per 8-GPU node: TP 8 crosses. */
	in->layout.tp = 8;
	in->nvlink_domain = 4;
}
/* PP 4, DP 1: 8 micro-batches idle the pipeline 3/11 of the step. */
static void pp_bubble(struct sizing_input *in)
{
	in->layout.pp = 4;
	in->global_batch = 8;
}
/* Interleaved, 2 virtual stages: 3/19, still more than a tenth. */
static void pp_vpp(struct sizing_input *in)
{
	pp_bubble(in);
	in->layout.vpp = 2;
}
/* 4 virtual stages: 3/35, less. */
static void pp_vpp4(struct sizing_input *in)
{
	pp_bubble(in);
	in->layout.vpp = 4;
}
/* Enough micro-batches without VPP: 64, 3/67. */
static void pp_many(struct sizing_input *in)
{
	pp_bubble(in);
	in->global_batch = 64;
}
/* 27 micro-batches: 3/30, exactly a tenth, is not more. */
static void pp_tenth(struct sizing_input *in)
{
	pp_bubble(in);
	in->global_batch = 27;
}
/* README's example: TP 2, PP 2 on 4 GPUs, batch 64 of 2: 32, 1/33. */
static void pp_readme(struct sizing_input *in)
{
	in->layout.tp = 2;
	in->layout.sp = true;
	in->layout.pp = 2;
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = 4;
	in->global_batch = 64;
	in->micro_batch = 2;
}
/* The micro-batches count per data-parallel rank: DP 8 of batch 64
 * leaves 8. */
static void pp_dp(struct sizing_input *in)
{
	pp_many(in);
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = 32;
}
/* A smoke job's batch is not for speed. */
static void pp_smoke(struct sizing_input *in)
{
	pp_bubble(in);
	in->smoke = true;
}
static void seq_sp(struct sizing_input *in)
{
	in->layout.tp = 2;
	in->seq_length = 4096;
}
static void seq_sp_on(struct sizing_input *in)
{
	in->layout.tp = 2;
	in->layout.sp = true;
	in->seq_length = 4096;
}
static void seq_short(struct sizing_input *in)
{
	in->layout.tp = 2;
	in->seq_length = 1024;
}
static void seq_cp(struct sizing_input *in) { in->seq_length = 8192; }
static void seq_cp_long(struct sizing_input *in) { in->seq_length = 65536; }
static void seq_cp2(struct sizing_input *in)
{
	in->layout.cp = 2;
	in->seq_length = 8192;
}
static void seq_4k(struct sizing_input *in) { in->seq_length = 4096; }

static const struct rule_case rules[] = {
	{ "sp-needs-tp", true, sp_tp1 },
	{ "sp-needs-tp", false, sp_tp2 },
	{ "cp-seq-divisibility", true, cp_seq_bad },
	{ "cp-seq-divisibility", false, cp_seq_ok },
	{ "ep-on-dense", true, ep_dense },
	{ "ep-on-dense", false, etp_dense },	/* Megatron-Core takes it */
	{ "ep-on-dense", false, ep_unknown },
	{ "experts-divisibility", true, experts_bad },
	{ "experts-divisibility", false, experts_ok },
	{ "layers-divisibility", true, layers_bad },
	{ "layers-divisibility", false, layers_ok },
	{ "layers-divisibility", false, account_ok },
	{ "layers-divisibility", true, account_bad },
	{ "layers-divisibility", false, recipe_layout },
	{ "pp-split-accounting", true, account_split },
	{ "pp-split-accounting", false, account_ok },
	{ "vpp-needs-pp", true, vpp_pp1 },
	{ "vpp-needs-pp", false, vpp_pp2 },
	{ "heads-divisibility", true, heads_bad },
	{ "heads-divisibility", true, groups_bad },
	{ "heads-divisibility", false, groups_replicated },
	{ "batch-divisibility", true, batch_bad },
	{ "batch-divisibility", true, batch_too_small },
	{ "batch-divisibility", false, batch_ok },
	{ "world-divisibility", true, world_bad },
	{ "world-divisibility", true, world_nodes_bad },
	{ "world-divisibility", false, batch_ok },
	{ "uneven-nodes", true, uneven },
	{ "uneven-nodes", false, even_12 },
	{ "tp-overlap-disabled", true, overlap_no_sp },
	{ "tp-overlap-disabled", false, overlap_ok },
	{ "tp-overlap-disabled", false, overlap_off_tp1 },
	{ "tp-cross-node", true, tp16 },
	{ "tp-cross-node", true, tp4_6tasks },
	{ "tp-cross-node", true, tp4_half_domains },
	{ "tp-cross-node", false, tp8_nvl72 },
	{ "tp-cross-node", false, overlap_ok },
	{ "pp-bubble", true, pp_bubble },
	{ "pp-bubble", true, pp_vpp },
	{ "pp-bubble", false, pp_vpp4 },
	{ "pp-bubble", false, pp_many },
	{ "pp-bubble", false, pp_tenth },
	{ "pp-bubble", false, pp_readme },
	{ "pp-bubble", true, pp_dp },
	{ "pp-bubble", false, pp_smoke },
	{ "mesh-lcm", false, experts_ok },
	{ "seq-needs-sp", true, seq_sp },
	{ "seq-needs-sp", false, seq_sp_on },
	{ "seq-needs-sp", false, seq_short },
	{ "seq-needs-cp", true, seq_cp },
	{ "seq-needs-cp", true, seq_cp_long },
	{ "seq-needs-cp", false, seq_cp2 },
	{ "seq-needs-cp", false, seq_4k },
};

START_TEST(test_rule)
{
	const struct rule_case	*c = &rules[_i];
	struct sizing_input	 in;
	struct sizing		 s;
	const struct finding	*f;

	sizing_input_init(&in);
	c->setup(&in);
	compute(&in, &s);
	f = find(&s, c->code);
	if (c->fires) {
		ck_assert_msg(f != NULL, "case %d: %s did not fire", _i,
		    c->code);
		ck_assert(f->message[0] != '\0');
	} else
		ck_assert_msg(f == NULL, "case %d: %s fired: %s", _i, c->code,
		    f->message);
	ck_assert(!skipped(&s, c->code) || !c->fires);
}
END_TEST

/* The embedding and loss counted as layers: 15 + 6×16 + 15. */
START_TEST(test_account_split)
{
	struct sizing_input	 in;
	struct sizing		 s;

	sizing_input_init(&in);
	account_ok(&in);
	in.layout.vpp = 1;
	compute(&in, &s);
	ck_assert(s.split_known);
	ck_assert_int_eq(s.split_first, 15);
	ck_assert_int_eq(s.split_middle, 16);
	ck_assert_int_eq(s.split_middle_stages, 6);
	ck_assert_int_eq(s.split_last, 15);
	/* A recipe's own layout is not sized, and says so. */
	sizing_input_init(&in);
	recipe_layout(&in);
	compute(&in, &s);
	ck_assert(!s.split_known);
	ck_assert(skipped(&s, "layers-divisibility"));
}
END_TEST

/* Each code's severity is the one of docs/SPEC.md's table. */
START_TEST(test_severities)
{
	static const struct {
		const char		*code;
		enum severity		 severity;
		void			(*setup)(struct sizing_input *);
	} sev[] = {
		{ "sp-needs-tp", SEVERITY_ERROR, sp_tp1 },
		{ "cp-seq-divisibility", SEVERITY_ERROR, cp_seq_bad },
		{ "ep-on-dense", SEVERITY_ERROR, ep_dense },
		{ "experts-divisibility", SEVERITY_ERROR, experts_bad },
		{ "layers-divisibility", SEVERITY_ERROR, layers_bad },
		{ "vpp-needs-pp", SEVERITY_ERROR, vpp_pp1 },
		{ "heads-divisibility", SEVERITY_ERROR, heads_bad },
		{ "batch-divisibility", SEVERITY_ERROR, batch_bad },
		{ "world-divisibility", SEVERITY_ERROR, world_bad },
		{ "uneven-nodes", SEVERITY_ERROR, uneven },
		{ "tp-overlap-disabled", SEVERITY_ERROR, overlap_no_sp },
		{ "tp-cross-node", SEVERITY_WARNING, tp16 },
		{ "pp-bubble", SEVERITY_WARNING, pp_bubble },
		{ "seq-needs-sp", SEVERITY_WARNING, seq_sp },
		{ "seq-needs-cp", SEVERITY_WARNING, seq_cp },
	};
	struct sizing_input	 in;
	struct sizing		 s;
	const struct finding	*f;
	size_t			 i;

	for (i = 0; i < sizeof sev / sizeof sev[0]; i++) {
		sizing_input_init(&in);
		sev[i].setup(&in);
		compute(&in, &s);
		f = find(&s, sev[i].code);
		ck_assert_msg(f != NULL, "%s", sev[i].code);
		ck_assert_int_eq(f->severity, sev[i].severity);
	}
}
END_TEST

/* The bubble's share of a step and the micro-batches it counts. */
START_TEST(test_bubble)
{
	struct sizing_input	 in;
	struct sizing		 s;
	const struct finding	*f;

	ck_assert_double_eq_tol(sizing_bubble_share(4, 1, 8), 3.0 / 11, 1e-12);
	ck_assert_double_eq_tol(sizing_bubble_share(4, 2, 8), 3.0 / 19, 1e-12);
	ck_assert_double_eq(sizing_bubble_share(1, 1, 8), 0);
	sizing_input_init(&in);
	pp_bubble(&in);
	compute(&in, &s);
	ck_assert_int_eq(sizing_microbatches(&in, &s), 8);
	f = find(&s, "pp-bubble");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "idles 27.3% of each step") != NULL,
	    "%s", f->message);
	/* Not whole: batch-divisibility says why, the bubble is unknown. */
	in.global_batch = 9;
	in.micro_batch = 2;
	compute(&in, &s);
	ck_assert_int_eq(sizing_microbatches(&in, &s), 0);
	ck_assert_ptr_null(find(&s, "pp-bubble"));
	ck_assert_ptr_nonnull(find(&s, "batch-divisibility"));
	/* More virtual stages are advised only where the layers allow: 61
	 * over PP 16 split no further (DeepSeek-V3), 64 do. */
	sizing_input_init(&in);
	in.layout.pp = 16;
	in.global_batch = 8;
	in.model.num_layers = 61;
	in.first_stage_layers = 3;
	in.last_stage_layers = 2;
	compute(&in, &s);
	f = find(&s, "pp-bubble");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "--vpp") == NULL, "%s", f->message);
	in.model.num_layers = 64;
	in.first_stage_layers = in.last_stage_layers = 0;
	compute(&in, &s);
	f = find(&s, "pp-bubble");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "--vpp") != NULL, "%s", f->message);
	/* The smoke job's skip says why. */
	sizing_input_init(&in);
	pp_smoke(&in);
	compute(&in, &s);
	ck_assert(skipped(&s, "pp-bubble"));
}
END_TEST

START_TEST(test_skipped)
{
	struct sizing_input	 in;
	struct sizing		 s;

	/* No model, no sequence, no batch: each rule that would apply. */
	layout(&in, 2, 2, 2, 8, 1);
	compute(&in, &s);
	ck_assert(skipped(&s, "cp-seq-divisibility"));
	ck_assert(skipped(&s, "experts-divisibility"));
	ck_assert(skipped(&s, "layers-divisibility"));
	ck_assert(skipped(&s, "heads-divisibility"));
	ck_assert(skipped(&s, "batch-divisibility"));
	ck_assert(skipped(&s, "seq-needs-sp"));
	ck_assert(skipped(&s, "memory-oom"));
	ck_assert(skipped(&s, "pp-bubble"));
	/* CP 2: seq-needs-cp does not apply, so it is not "skipped". */
	ck_assert(!skipped(&s, "seq-needs-cp"));

	/* A rule that cannot apply is not listed: TP 1 needs no heads. */
	sizing_input_init(&in);
	compute(&in, &s);
	ck_assert(!skipped(&s, "heads-divisibility"));
	ck_assert(!skipped(&s, "layers-divisibility"));
	ck_assert(!skipped(&s, "experts-divisibility"));
}
END_TEST

/* Uneven pipeline splits (num_layers_in_first/last_pipeline_stage). */
START_TEST(test_layer_split)
{
	struct sizing_input	 in;
	struct sizing		 s;
	const struct finding	*f;

	/* DeepSeek-V3: 61 layers over PP 16 fail, with a suggestion. */
	layout(&in, 16, 2, 1, 64, 1);
	in.model.num_layers = 61;
	compute(&in, &s);
	f = find(&s, "layers-divisibility");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "--num-layers-in-first-pipeline-stage "
	    "3 --num-layers-in-last-pipeline-stage 2") != NULL, "%s",
	    f->message);
	ck_assert(!s.split_known);

	/* The suggestion is legal: 3 + 14 x 4 + 2. */
	in.first_stage_layers = 3;
	in.last_stage_layers = 2;
	compute(&in, &s);
	ck_assert_ptr_null(find(&s, "layers-divisibility"));
	ck_assert(s.split_known);
	ck_assert_int_eq(s.split_first, 3);
	ck_assert_int_eq(s.split_middle, 4);
	ck_assert_int_eq(s.split_middle_stages, 14);
	ck_assert_int_eq(s.split_last, 2);

	/* Only the last stage given: the first is a middle one. 61 - 1 =
	 * 60 over 15 stages of 4: first 4, 14 middle of 4, last 1. */
	in.first_stage_layers = 0;
	in.last_stage_layers = 1;
	compute(&in, &s);
	ck_assert_ptr_null(find(&s, "layers-divisibility"));
	ck_assert_int_eq(s.split_first, 4);
	ck_assert_int_eq(s.split_middle_stages, 14);
	ck_assert_int_eq(s.split_last, 1);

	/* A middle that does not divide: 61 - 4 - 4 = 53 over 14. */
	in.first_stage_layers = 4;
	in.last_stage_layers = 4;
	compute(&in, &s);
	ck_assert_ptr_nonnull(find(&s, "layers-divisibility"));

	/* With VPP every count must divide by VPP: 8 + 6x8 + 6 = 62 with
	 * VPP 2 is fine; first 7 is not. */
	layout(&in, 8, 1, 1, 1, 1);
	in.layout.vpp = 2;
	in.model.num_layers = 62;
	in.first_stage_layers = 8;
	in.last_stage_layers = 6;
	compute(&in, &s);
	ck_assert_ptr_null(find(&s, "layers-divisibility"));
	in.first_stage_layers = 7;
	in.last_stage_layers = 7;
	compute(&in, &s);
	ck_assert_ptr_nonnull(find(&s, "layers-divisibility"));

	/* 61 layers, VPP 2: no split at all works. */
	layout(&in, 16, 1, 1, 1, 1);
	in.layout.vpp = 2;
	in.model.num_layers = 61;
	compute(&in, &s);
	f = find(&s, "layers-divisibility");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(strstr(f->message, "nor unevenly"));

	/* Stage counts without pipeline stages. */
	layout(&in, 1, 1, 1, 1, 1);
	in.model.num_layers = 32;
	in.first_stage_layers = 2;
	compute(&in, &s);
	ck_assert_ptr_nonnull(find(&s, "layers-divisibility"));

	/* An even split is reported as such. */
	layout(&in, 4, 8, 1, 1, 1);
	in.layout.vpp = 5;
	in.model.num_layers = 80;
	compute(&in, &s);
	ck_assert(s.split_known);
	ck_assert_int_eq(s.split_first, 20);
	ck_assert_int_eq(s.split_middle, 20);
	ck_assert_int_eq(s.split_middle_stages, 2);
}
END_TEST

START_TEST(test_uneven_nearest)
{
	struct sizing_input	 in;
	struct sizing		 s;
	const struct finding	*f;

	/* TP 4 x PP 5 = 20 on 8-GPU nodes: 16 is not a multiple of 20;
	 * 40 = 5 nodes of 8. */
	layout(&in, 5, 4, 1, 1, 1);
	compute(&in, &s);
	ck_assert_int_eq(s.nodes, 3);
	ck_assert_int_eq(s.tasks_per_node, 0);
	f = find(&s, "uneven-nodes");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "40 GPUs (5 nodes)") != NULL, "%s",
	    f->message);
	ck_assert_int_eq(s.dp, 1);

	/* World 28 with min 20: 20 itself does not spread evenly over
	 * 8-GPU nodes, so the only suggestion is 40. */
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = 28;
	compute(&in, &s);
	f = find(&s, "world-divisibility");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "nearest: 40") != NULL, "%s",
	    f->message);

	/* TP 8 on 12 GPUs: 8 and 16 both work. */
	layout(&in, 1, 8, 1, 1, 1);
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = 12;
	compute(&in, &s);
	f = find(&s, "world-divisibility");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "nearest: 8 or 16") != NULL, "%s",
	    f->message);

	/* Nodes given: suggest a node count.  TP 8 x PP 2 on 3 nodes. */
	layout(&in, 2, 8, 1, 1, 1);
	in.world_from = WORLD_FROM_NODES;
	in.nodes = 3;
	compute(&in, &s);
	f = find(&s, "world-divisibility");
	ck_assert_ptr_nonnull(f);
	ck_assert_msg(strstr(f->message, "multiple of 2 nodes") != NULL, "%s",
	    f->message);
}
END_TEST

START_TEST(test_input_range)
{
	struct sizing_input	 in;
	struct sizing		 s;

	sizing_input_init(&in);
	in.layout.tp = 0;
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));
	sizing_input_init(&in);
	in.layout.ep = -8;
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));
	sizing_input_init(&in);
	in.layout.pp = INT64_C(1) << 41;
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));
	sizing_input_init(&in);
	in.gpus_per_node = 0;
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));
	sizing_input_init(&in);
	in.nvlink_domain = 6;		/* neither divides 8 nor a multiple */
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));
	sizing_input_init(&in);
	in.micro_batch = 0;
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));
}
END_TEST

START_TEST(test_overflow)
{
	struct sizing_input	 in;
	struct sizing		 s;
	int64_t			 big = INT64_C(1) << 40;

	/* Each size in range, the products far beyond 64 bits. */
	layout(&in, big, big, big, big, big);
	ck_assert_str_eq(sizing_compute(&in, &s),
	    "the layout's figures overflow 64 bits");
	/* min GPUs fine, the multiple pushes the world over the limit. */
	layout(&in, 1, 1024, 1, 1, 1);
	in.multiple = big;
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));
	layout(&in, 1, 1, 1, 1, 1);
	in.world_from = WORLD_FROM_NODES;
	in.nodes = big;
	in.gpus_per_node = 1024;
	ck_assert_ptr_nonnull(sizing_compute(&in, &s));

	/* The helpers themselves. */
	{
		int64_t	 out = 0;

		ck_assert(!sizing_mul(INT64_MAX / 2 + 1, 2, &out));
		ck_assert(sizing_mul(INT64_MAX / 2, 2, &out));
		ck_assert(!sizing_mul(-1, 2, &out));
		ck_assert_int_eq(sizing_gcd(12, 18), 6);
	}
}
END_TEST

START_TEST(test_codes_listed)
{
	/* Every code of SPEC's table, in its order. */
	static const char *const spec[] = {
		"sp-needs-tp", "cp-seq-divisibility", "ep-on-dense",
		"experts-divisibility", "layers-divisibility", "vpp-needs-pp",
		"heads-divisibility", "batch-divisibility",
		"world-divisibility", "uneven-nodes", "tp-overlap-disabled",
		"tp-cross-node", "pp-bubble", "mesh-lcm", "seq-needs-sp",
		"seq-needs-cp", "memory-oom", "pp-split-accounting", NULL,
	};
	size_t	 i;

	for (i = 0; spec[i] != NULL; i++) {
		ck_assert_ptr_nonnull(sizing_codes[i]);
		ck_assert_str_eq(sizing_codes[i], spec[i]);
	}
	ck_assert_ptr_null(sizing_codes[i]);
}
END_TEST

static Suite *
sizing_suite(void)
{
	Suite	*s = suite_create("sizing");
	TCase	*tc;

	tc = tcase_create("figures");
	tcase_add_loop_test(tc, test_worked_examples, 0,
	    sizeof examples / sizeof examples[0]);
	tcase_add_loop_test(tc, test_scaling, 0,
	    sizeof scaling / sizeof scaling[0]);
	tcase_add_test(tc, test_dense_70b_example);
	tcase_add_test(tc, test_lcm);
	suite_add_tcase(s, tc);

	tc = tcase_create("findings");
	tcase_add_loop_test(tc, test_rule, 0, sizeof rules / sizeof rules[0]);
	tcase_add_test(tc, test_severities);
	tcase_add_test(tc, test_skipped);
	tcase_add_test(tc, test_bubble);
	tcase_add_test(tc, test_uneven_nearest);
	tcase_add_test(tc, test_layer_split);
	tcase_add_test(tc, test_account_split);
	tcase_add_test(tc, test_codes_listed);
	suite_add_tcase(s, tc);

	tc = tcase_create("bounds");
	tcase_add_test(tc, test_input_range);
	tcase_add_test(tc, test_overflow);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(sizing_suite());
}
