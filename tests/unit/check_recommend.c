/*
 * check_recommend.c: starting layouts (src/core/recommend.c) against the
 * tables of the parallelism-strategies skill (docs/megatron-rules.md
 * section 5) as mbsbatch-recommend(1) reads them: each row of the MoE
 * and dense tables at its bounds, the topology and sequence-length rules
 * with their reasons, worked presets; then, over every preset, sequence
 * length and interconnect, that the layout passes the sizing core and
 * the training rules with no error, on the GPUs mbsbatch recommend runs
 * it on (the table's count rounded up to a multiple of min GPUs).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launchenv.h"
#include "model-file.h"
#include "recommend.h"
#include "rules.h"
#include "sizing.h"
#include "run.h"

static struct recommendation	 r;

static void
input(struct recommend_input *in, const char *model, int64_t seq)
{
	memset(in, 0, sizeof *in);
	if (model != NULL) {
		in->model = model_builtin_find(model);
		ck_assert_msg(in->model != NULL, "no preset %s", model);
	}
	in->seq_length = seq;
	in->nvlink_domain = 8;
}

static void
ok(const struct recommend_input *in)
{
	const char	*why = recommend(in, &r);

	ck_assert_msg(why == NULL, "recommend: %s", why);
}

static void
expect_layout(int64_t tp, int64_t pp, int64_t cp, int64_t ep, bool sp)
{
	ck_assert_int_eq(r.layout.tp, tp);
	ck_assert_int_eq(r.layout.pp, pp);
	ck_assert_int_eq(r.layout.cp, cp);
	ck_assert_int_eq(r.layout.ep, ep);
	ck_assert_int_eq(r.layout.etp, 1);
	ck_assert_int_eq(r.layout.vpp, 1);
	ck_assert(r.layout.sp == sp);
}

/* The reasons are exactly WANT, in order. */
static void
expect_reasons(const char *const *want, int n)
{
	int	 i;

	for (i = 0; i < r.nreasons && i < n; i++)
		ck_assert_str_eq(r.reasons[i], want[i]);
	ck_assert_int_eq(r.nreasons, n);
}

#define REASONS(...) do {						\
	static const char *const w_[] = { __VA_ARGS__ };		\
	expect_reasons(w_, (int)(sizeof w_ / sizeof w_[0]));		\
} while (0)

/* The smallest multiple of MIN at or above WANT (cmd-recommend.c). */
static int64_t
round_up(int64_t want, int64_t min)
{
	return want <= min ? min : (want + min - 1) / min * min;
}

/*
 * Size the recommendation as mbsbatch recommend does: the model, the
 * uneven split plan suggests when the layers do not divide over PP, the
 * table's GPUs rounded up to the layout's minimum (or the GPUs given);
 * then the training rules with the overlap flags launchenv computes.
 */
static void
size(const struct recommend_input *ri, int64_t gpus_per_node,
    struct sizing *s)
{
	struct sizing_input	 in;
	struct rules_input	 rin;
	struct launchenv_input	 le;
	struct launchenv	 env;
	const char		*why;

	sizing_input_init(&in);
	in.layout = r.layout;
	if (ri->model != NULL)
		in.model = *ri->model;
	in.seq_length = ri->seq_length;
	in.gpus_per_node = gpus_per_node;
	in.nvlink_domain = ri->nvlink_domain;
	if (in.model.num_layers != 0 &&
	    in.model.num_layers % r.layout.pp != 0)
		ck_assert_msg(sizing_suggest_split(in.model.num_layers,
		    r.layout.pp, 1, &in.first_stage_layers,
		    &in.last_stage_layers), "%lld layers: no split over PP "
		    "%lld", (long long)in.model.num_layers,
		    (long long)r.layout.pp);
	ck_assert_ptr_null(sizing_compute(&in, s));
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = ri->gpus != 0 ? ri->gpus : round_up(r.gpus, s->min_gpus);
	why = sizing_compute(&in, s);
	ck_assert_msg(why == NULL, "sizing: %s", why);

	launchenv_input_init(&le);
	le.layout = r.layout;
	le.dp = s->dp;
	le.moe = s->moe;
	le.nvlink_domain = s->nvlink_domain;
	le.gpus_per_node = gpus_per_node;
	why = launchenv_compute(&le, &env);
	ck_assert_msg(why == NULL, "launchenv: %s", why);
	memset(&rin, 0, sizeof rin);
	rin.in = &in;
	rin.dispatcher = DISPATCH_ALLTOALL;
	rules_check(&rin, &env, s);
}

/* No error finding; the codes of any in the message. */
static void
expect_valid(const char *what, const struct sizing *s)
{
	char	 codes[256] = "";
	int	 i;

	for (i = 0; i < s->nfindings; i++)
		if (s->findings[i].severity == SEVERITY_ERROR) {
			strncat(codes, " ", sizeof codes - strlen(codes) - 1);
			strncat(codes, s->findings[i].code,
			    sizeof codes - strlen(codes) - 1);
		}
	ck_assert_msg(s->nerrors == 0, "%s: TP %lld PP %lld CP %lld EP %lld "
	    "SP %d on %lld GPUs: errors%s", what, (long long)r.layout.tp,
	    (long long)r.layout.pp, (long long)r.layout.cp,
	    (long long)r.layout.ep, r.layout.sp, (long long)s->world, codes);
}

/*
 * The MoE table, by preset (the skill: "TP is sized by active
 * parameters; EP scales with expert count; PP handles depth"); GPUs are
 * PP x max(TP, EP), mbsbatch-recommend(1).
 */
static const struct {
	const char	*preset;
	int64_t		 tp, pp, ep, gpus;
	const char	*reason;
} moe[] = {
	{ "olmoe-7b", 1, 1, 8, 8, "MoE table, OLMoE 7B/1B: TP 1, PP 1, "
	  "EP 8 (TP by active parameters, EP by experts, PP by depth)" },
	{ "moonlight-16b", 2, 1, 8, 8, "MoE table, Moonlight 16B/3B: TP 2, "
	  "PP 1, EP 8 (TP by active parameters, EP by experts, PP by depth)" },
	{ "deepseek-v2", 1, 4, 32, 128, "MoE table, DeepSeek-V2 236B/21B: "
	  "TP 1, PP 4, EP 32 (TP by active parameters, EP by experts, PP by "
	  "depth)" },
	{ "glm-4.5-air", 1, 4, 8, 32, "MoE table, GLM-4.5 Air 106B/12B: "
	  "TP 1, PP 4, EP 8 (TP by active parameters, EP by experts, PP by "
	  "depth)" },
	{ "qwen3-30b-a3b", 4, 2, 4, 8, "MoE table, Qwen3 30B-A3B: TP 4, "
	  "PP 2, EP 4 (TP by active parameters, EP by experts, PP by depth)" },
	{ "glm-4.5", 2, 8, 16, 128, "MoE table, GLM-4.5 355B/32B: TP 2, "
	  "PP 8, EP 16 (TP by active parameters, EP by experts, PP by "
	  "depth)" },
	{ "qwen3-235b-a22b", 4, 16, 8, 128, "MoE table, Qwen3 235B-A22B: "
	  "TP 4, PP 16, EP 8 (TP by active parameters, EP by experts, PP by "
	  "depth)" },
	{ "deepseek-v3", 2, 16, 64, 1024, "MoE table, DeepSeek-V3 671B/37B: "
	  "TP 2, PP 16, EP 64 (TP by active parameters, EP by experts, PP by "
	  "depth)" },
	{ "kimi-k2", 2, 16, 32, 512, "MoE table, Kimi-K2 1T: TP 2, PP 16, "
	  "EP 32 (TP by active parameters, EP by experts, PP by depth)" },
};

START_TEST(test_moe_table)
{
	struct recommend_input	 in;

	/* 4096 tokens: SP with TP > 1, CP stays 1. */
	input(&in, moe[_i].preset, 4096);
	ok(&in);
	ck_assert_int_eq(r.layout.tp, moe[_i].tp);
	ck_assert_int_eq(r.layout.pp, moe[_i].pp);
	ck_assert_int_eq(r.layout.ep, moe[_i].ep);
	ck_assert_int_eq(r.layout.etp, 1);
	ck_assert_int_eq(r.layout.vpp, 1);
	/*
	 * The skill's row for Qwen3 235B-A22B adds "CP2 for pretraining";
	 * recommend() leaves CP 1 for every MoE row (mbsbatch-recommend(1)).
	 * Which is right is an open question, so that CP is not asserted.
	 */
	if (strcmp(moe[_i].preset, "qwen3-235b-a22b") != 0)
		ck_assert_int_eq(r.layout.cp, 1);
	ck_assert(r.layout.sp == (moe[_i].tp > 1));
	ck_assert_int_eq(r.gpus, moe[_i].gpus);
	ck_assert_int_eq(r.gpus, moe[_i].pp * (moe[_i].tp > moe[_i].ep ?
	    moe[_i].tp : moe[_i].ep));
	ck_assert_int_ge(r.nreasons, 1);
	ck_assert_str_eq(r.reasons[0], moe[_i].reason);
	if (moe[_i].tp > 1) {
		ck_assert_int_eq(r.nreasons, 2);
		ck_assert_str_eq(r.reasons[1],
		    "sequence 4096 >= 2K: sequence parallel on");
	} else
		ck_assert_int_eq(r.nreasons, 1);
}
END_TEST

/*
 * The dense table by total parameters, each bound on both sides: the
 * skill's rows (< 1B: DP only; 1-10B: TP 2-4; 10-70B: TP 4-8, PP 2-4;
 * 70-175B: TP 8, PP 4-8; 175-500B: TP 8, PP 8-16, CP 2), the low end of
 * a range for the smaller models of the row (mbsbatch-recommend(1)).
 */
static const struct {
	int64_t		 params;
	int64_t		 tp, pp, cp, gpus;
	const char	*reason;
} dense[] = {
	{ INT64_C(300000000), 1, 1, 1, 8, "dense table, 0.3B parameters, "
	  "< 1B: data parallel only, 1-8 GPUs" },
	{ INT64_C(999000000), 1, 1, 1, 8, "dense table, 0.999B parameters, "
	  "< 1B: data parallel only, 1-8 GPUs" },
	{ INT64_C(1000000000), 2, 1, 1, 8, "dense table, 1B parameters, "
	  "1-10B: TP 2-4 + DP, 8-16 GPUs (TP 2 below 4B)" },
	{ INT64_C(3999000000), 2, 1, 1, 8, "dense table, 3.999B parameters, "
	  "1-10B: TP 2-4 + DP, 8-16 GPUs (TP 2 below 4B)" },
	{ INT64_C(4000000000), 4, 1, 1, 16, "dense table, 4B parameters, "
	  "1-10B: TP 2-4 + DP, 8-16 GPUs (TP 4 from 4B)" },
	{ INT64_C(9999000000), 4, 1, 1, 16, "dense table, 9.999B parameters, "
	  "1-10B: TP 2-4 + DP, 8-16 GPUs (TP 4 from 4B)" },
	{ INT64_C(10000000000), 4, 2, 1, 16, "dense table, 10B parameters, "
	  "10-70B: TP 4-8 + PP 2-4 + DP, 16-64 GPUs (TP 4, PP 2 below 40B)" },
	{ INT64_C(39990000000), 4, 2, 1, 16, "dense table, 39.99B "
	  "parameters, 10-70B: TP 4-8 + PP 2-4 + DP, 16-64 GPUs (TP 4, PP 2 "
	  "below 40B)" },
	{ INT64_C(40000000000), 8, 4, 1, 64, "dense table, 40B parameters, "
	  "10-70B: TP 4-8 + PP 2-4 + DP, 16-64 GPUs (TP 8, PP 4 from 40B)" },
	{ INT64_C(69990000000), 8, 4, 1, 64, "dense table, 69.99B "
	  "parameters, 10-70B: TP 4-8 + PP 2-4 + DP, 16-64 GPUs (TP 8, PP 4 "
	  "from 40B)" },
	{ INT64_C(70000000000), 8, 4, 1, 64, "dense table, 70B parameters, "
	  "70-175B: TP 8 + PP 4-8 + DP, 64-256 GPUs (70B dense on 64 GPUs: "
	  "TP 8, PP 4, DP 2)" },
	{ INT64_C(174900000000), 8, 4, 1, 64, "dense table, 174.9B "
	  "parameters, 70-175B: TP 8 + PP 4-8 + DP, 64-256 GPUs (70B dense on "
	  "64 GPUs: TP 8, PP 4, DP 2)" },
	{ INT64_C(175000000000), 8, 8, 2, 256, "dense table, 175B "
	  "parameters, 175-500B: TP 8 + PP 8-16 + CP 2 + DP, 256-1024 GPUs "
	  "(PP 8 below 300B)" },
	{ INT64_C(299900000000), 8, 8, 2, 256, "dense table, 299.9B "
	  "parameters, 175-500B: TP 8 + PP 8-16 + CP 2 + DP, 256-1024 GPUs "
	  "(PP 8 below 300B)" },
	{ INT64_C(300000000000), 8, 16, 2, 512, "dense table, 300B "
	  "parameters, 175-500B: TP 8 + PP 8-16 + CP 2 + DP, 256-1024 GPUs "
	  "(PP 16 from 300B)" },
	/* Beyond the skill's last row: the last row. */
	{ INT64_C(1000000000000), 8, 16, 2, 512, "dense table, 1000B "
	  "parameters, 175-500B: TP 8 + PP 8-16 + CP 2 + DP, 256-1024 GPUs "
	  "(PP 16 from 300B)" },
};

START_TEST(test_dense_table)
{
	struct recommend_input	 in;
	struct sizing		 s;

	/* No sequence length: the table's layout as it is, but for SP,
	 * which CP 2 with TP 8 turns on. */
	input(&in, NULL, 0);
	in.params = dense[_i].params;
	ok(&in);
	expect_layout(dense[_i].tp, dense[_i].pp, dense[_i].cp, 1,
	    dense[_i].cp > 1);
	ck_assert_int_eq(r.gpus, dense[_i].gpus);
	ck_assert_str_eq(r.reasons[0], dense[_i].reason);
	if (dense[_i].cp > 1) {
		ck_assert_int_eq(r.nreasons, 2);
		ck_assert_str_eq(r.reasons[1],
		    "CP with TP: sequence parallel on");
	} else
		ck_assert_int_eq(r.nreasons, 1);
	/* Each row's GPUs hold its layout a whole number of times. */
	size(&in, 8, &s);
	ck_assert_int_eq(s.world, dense[_i].gpus);
	ck_assert_int_eq(dense[_i].gpus % s.min_gpus, 0);
	expect_valid("dense row", &s);
}
END_TEST

/* The skill's example and the CLI's: Llama 3 8B on 8 GPUs. */
START_TEST(test_llama3_8b)
{
	struct recommend_input	 in;
	struct sizing		 s;

	input(&in, "llama3-8b", 4096);
	in.gpus = 8;
	ok(&in);
	/* 8.03B: the 1-10B row, TP 4 from 4B; the GPUs as given. */
	expect_layout(4, 1, 1, 1, true);
	ck_assert_int_eq(r.gpus, 8);
	REASONS("dense table, 8.03B parameters, 1-10B: TP 2-4 + DP, 8-16 "
	    "GPUs (TP 4 from 4B)",
	    "sequence 4096 >= 2K: sequence parallel on");
	size(&in, 8, &s);
	ck_assert_int_eq(s.world, 8);
	ck_assert_int_eq(s.dp, 2);
	ck_assert_int_eq(s.nodes, 1);
	expect_valid("llama3-8b", &s);

	/* 8K tokens: CP 2 as well, DP 1. */
	input(&in, "llama3-8b", 8192);
	in.gpus = 8;
	ok(&in);
	expect_layout(4, 1, 2, 1, true);
	REASONS("dense table, 8.03B parameters, 1-10B: TP 2-4 + DP, 8-16 "
	    "GPUs (TP 4 from 4B)",
	    "sequence 8192 >= 2K: sequence parallel on",
	    "sequence 8192 >= 8K: CP 2");
	size(&in, 8, &s);
	ck_assert_int_eq(s.dp, 1);
	expect_valid("llama3-8b, 8K", &s);

	/* Without --gpus: the row's 16. */
	input(&in, "llama3-8b", 4096);
	ok(&in);
	ck_assert_int_eq(r.gpus, 16);
}
END_TEST

/* "70B dense on 64 GPUs -> TP 8, PP 4, DP 2" (the skill). */
START_TEST(test_llama3_70b)
{
	struct recommend_input	 in;
	struct sizing		 s;

	input(&in, "llama3-70b", 4096);
	in.gpus = 64;
	ok(&in);
	expect_layout(8, 4, 1, 1, true);
	ck_assert_int_eq(r.gpus, 64);
	REASONS("dense table, 70.55B parameters, 70-175B: TP 8 + PP 4-8 + "
	    "DP, 64-256 GPUs (70B dense on 64 GPUs: TP 8, PP 4, DP 2)",
	    "sequence 4096 >= 2K: sequence parallel on");
	size(&in, 8, &s);
	ck_assert_int_eq(s.min_gpus, 32);
	ck_assert_int_eq(s.dp, 2);
	ck_assert_int_eq(s.nodes, 8);
	/* 80 layers over PP 4: 20 a stage. */
	ck_assert(s.split_known);
	ck_assert_int_eq(s.split_middle, 20);
	expect_valid("llama3-70b", &s);
}
END_TEST

/* DeepSeek-V3: TP 2, PP 16, EP 64 on 1024 GPUs, 61 layers split 3 + 14 x
 * 4 + 2 (mbsbatch-recommend(1), Pipeline split). */
START_TEST(test_deepseek_v3)
{
	struct recommend_input	 in;
	struct sizing		 s;

	input(&in, "deepseek-v3", 4096);
	ok(&in);
	expect_layout(2, 16, 1, 64, true);
	ck_assert_int_eq(r.gpus, 1024);
	REASONS("MoE table, DeepSeek-V3 671B/37B: TP 2, PP 16, EP 64 (TP by "
	    "active parameters, EP by experts, PP by depth)",
	    "sequence 4096 >= 2K: sequence parallel on");
	size(&in, 8, &s);
	ck_assert_int_eq(s.min_gpus, 1024);
	ck_assert_int_eq(s.world, 1024);
	ck_assert_int_eq(s.dp, 32);
	ck_assert_int_eq(s.edp, 1);
	ck_assert(s.split_known);
	ck_assert_int_eq(s.split_first, 3);
	ck_assert_int_eq(s.split_middle, 4);
	ck_assert_int_eq(s.split_middle_stages, 14);
	ck_assert_int_eq(s.split_last, 2);
	expect_valid("deepseek-v3", &s);
}
END_TEST

/* Llama 3.1 405B: the last row, CP 2 kept at 8K, raised at 32K. */
START_TEST(test_llama31_405b)
{
	struct recommend_input	 in;
	struct sizing		 s;

	input(&in, "llama3.1-405b", 8192);
	ok(&in);
	expect_layout(8, 16, 2, 1, true);
	ck_assert_int_eq(r.gpus, 512);
	REASONS("dense table, 405.9B parameters, 175-500B: TP 8 + PP 8-16 + "
	    "CP 2 + DP, 256-1024 GPUs (PP 16 from 300B)",
	    "sequence 8192 >= 2K: sequence parallel on");
	size(&in, 8, &s);
	ck_assert_int_eq(s.dp, 2);
	expect_valid("llama3.1-405b", &s);

	input(&in, "llama3.1-405b", 32768);
	ok(&in);
	expect_layout(8, 16, 4, 1, true);
	ck_assert_str_eq(r.reasons[2], "sequence 32768 >= 32K: CP 4 "
	    "(consider a2a+p2p CP communication)");
}
END_TEST

/* Topology: TP inside the NVLink domain; on Ethernet TP 4, more PP. */
START_TEST(test_topology)
{
	struct recommend_input	 in;

	input(&in, "llama3-70b", 0);
	in.interconnect = INTERCONNECT_ETHERNET;
	ok(&in);
	expect_layout(4, 8, 1, 1, false);
	ck_assert_int_eq(r.gpus, 64);
	REASONS("dense table, 70.55B parameters, 70-175B: TP 8 + PP 4-8 + "
	    "DP, 64-256 GPUs (70B dense on 64 GPUs: TP 8, PP 4, DP 2)",
	    "Ethernet between nodes: TP 8 -> 4 and PP 4 -> 8 (TP traffic "
	    "stays cheap, PP sends little)");

	/* TP 4 is already Ethernet's. */
	input(&in, "llama3-8b", 0);
	in.interconnect = INTERCONNECT_ETHERNET;
	ok(&in);
	expect_layout(4, 1, 1, 1, false);
	ck_assert_int_eq(r.nreasons, 1);

	/* Domains of 4, 2 and 1 GPUs: TP halved, PP doubled, each time
	 * with a reason. */
	input(&in, "llama3-70b", 0);
	in.nvlink_domain = 4;
	ok(&in);
	expect_layout(4, 8, 1, 1, false);
	ck_assert_int_eq(r.nreasons, 2);
	ck_assert_str_eq(r.reasons[1], "TP 8 would leave the NVLink domain "
	    "of 4 GPUs: TP halved, PP doubled");
	in.nvlink_domain = 2;
	ok(&in);
	expect_layout(2, 16, 1, 1, false);
	ck_assert_int_eq(r.nreasons, 3);
	ck_assert_str_eq(r.reasons[2], "TP 4 would leave the NVLink domain "
	    "of 2 GPUs: TP halved, PP doubled");
	in.nvlink_domain = 1;
	ok(&in);
	expect_layout(1, 32, 1, 1, false);
	ck_assert_int_eq(r.nreasons, 4);
	ck_assert_int_eq(r.gpus, 64);

	/* Ethernet first, then the domain. */
	in.nvlink_domain = 2;
	in.interconnect = INTERCONNECT_ETHERNET;
	ok(&in);
	expect_layout(2, 16, 1, 1, false);
	ck_assert_int_eq(r.nreasons, 3);
	ck_assert_str_eq(r.reasons[2], "TP 4 would leave the NVLink domain "
	    "of 2 GPUs: TP halved, PP doubled");

	/* One NVLink domain spans the job, or the domain is unknown. */
	input(&in, "llama3-70b", 0);
	in.interconnect = INTERCONNECT_NVLINK;
	in.nvlink_domain = 4;
	ok(&in);
	expect_layout(8, 4, 1, 1, false);
	ck_assert_int_eq(r.nreasons, 1);
	in.interconnect = INTERCONNECT_IB;
	in.nvlink_domain = 0;
	ok(&in);
	expect_layout(8, 4, 1, 1, false);

	/* A MoE row: EP stays; with TP still > 1, SP on whatever the
	 * length (Megatron-Core refuses MoE with TP and no SP). */
	input(&in, "qwen3-30b-a3b", 0);
	in.nvlink_domain = 2;
	ok(&in);
	expect_layout(2, 4, 1, 4, true);
}
END_TEST

/* Sequence length: SP from 2K (with TP), CP 2 from 8K, 4 from 32K, 8
 * from 128K; each bound on both sides. */
static const struct {
	int64_t		 seq;
	int64_t		 cp;
	bool		 sp;
	int		 nreasons;
} seqs[] = {
	{ 1, 1, false, 1 }, { 2047, 1, false, 1 }, { 2048, 1, true, 2 },
	{ 8191, 1, true, 2 }, { 8192, 2, true, 3 }, { 32767, 2, true, 3 },
	{ 32768, 4, true, 3 }, { 131071, 4, true, 3 }, { 131072, 8, true, 3 },
	{ INT64_C(1) << 30, 8, true, 3 },
};

START_TEST(test_sequence)
{
	struct recommend_input	 in;
	char			 want[RECOMMEND_REASON_MAX];

	input(&in, "llama3-8b", seqs[_i].seq);
	ok(&in);
	expect_layout(4, 1, seqs[_i].cp, 1, seqs[_i].sp);
	ck_assert_int_eq(r.nreasons, seqs[_i].nreasons);
	if (seqs[_i].sp) {
		snprintf(want, sizeof want, "sequence %lld >= 2K: sequence "
		    "parallel on", (long long)seqs[_i].seq);
		ck_assert_str_eq(r.reasons[1], want);
	}
	if (seqs[_i].cp == 2) {
		snprintf(want, sizeof want, "sequence %lld >= 8K: CP 2",
		    (long long)seqs[_i].seq);
		ck_assert_str_eq(r.reasons[2], want);
	} else if (seqs[_i].cp > 2) {
		snprintf(want, sizeof want, "sequence %lld >= 32K: CP %lld "
		    "(consider a2a+p2p CP communication)",
		    (long long)seqs[_i].seq, (long long)seqs[_i].cp);
		ck_assert_str_eq(r.reasons[2], want);
	}
	/* The table's GPUs whatever the length. */
	ck_assert_int_eq(r.gpus, 16);
}
END_TEST

START_TEST(test_sequence_tp1)
{
	struct recommend_input	 in;

	/* TP 1: never SP, CP all the same. */
	input(&in, "olmoe-7b", 8192);
	ok(&in);
	expect_layout(1, 1, 2, 8, false);
	REASONS("MoE table, OLMoE 7B/1B: TP 1, PP 1, EP 8 (TP by active "
	    "parameters, EP by experts, PP by depth)",
	    "sequence 8192 >= 8K: CP 2");

	/* The table's CP 2 with a short sequence: SP for CP with TP. */
	input(&in, NULL, 1024);
	in.params = INT64_C(200000000000);
	ok(&in);
	expect_layout(8, 8, 2, 1, true);
	ck_assert_int_eq(r.nreasons, 2);
	ck_assert_str_eq(r.reasons[1], "CP with TP: sequence parallel on");
}
END_TEST

/* --gpus: the count as given, the layout the table's. */
START_TEST(test_gpus_given)
{
	struct recommend_input	 in;
	struct sizing		 s;
	int			 i;

	input(&in, "llama3-8b", 4096);
	in.gpus = 32;
	ok(&in);
	expect_layout(4, 1, 1, 1, true);
	ck_assert_int_eq(r.gpus, 32);
	size(&in, 8, &s);
	ck_assert_int_eq(s.dp, 8);
	expect_valid("llama3-8b on 32", &s);

	/* Not a multiple of min GPUs: plan's error, not recommend's. */
	in.gpus = 6;
	ok(&in);
	ck_assert_int_eq(r.gpus, 6);
	size(&in, 8, &s);
	ck_assert_int_eq(s.nerrors, 1);
	for (i = 0; s.findings[i].severity != SEVERITY_ERROR; i++)
		;
	ck_assert_str_eq(s.findings[i].code, "world-divisibility");
}
END_TEST

/* --params wins over the preset's count; a dense model not in any table
 * goes by its size. */
START_TEST(test_params)
{
	struct recommend_input	 in;
	struct model		 mine;

	input(&in, "llama3-8b", 0);
	in.params = INT64_C(70000000000);
	ok(&in);
	expect_layout(8, 4, 1, 1, false);
	ck_assert_str_eq(r.reasons[0], "dense table, 70B parameters, 70-175B: "
	    "TP 8 + PP 4-8 + DP, 64-256 GPUs (70B dense on 64 GPUs: TP 8, "
	    "PP 4, DP 2)");

	mine = *model_builtin_find("llama3-8b");
	mine.name = "my-dense";
	mine.params = INT64_C(2000000000);
	in.model = &mine;
	in.params = 0;
	ok(&in);
	expect_layout(2, 1, 1, 1, false);
	ck_assert_int_eq(r.gpus, 8);

	/* A preset's MoE row does not depend on --params. */
	input(&in, "deepseek-v3", 0);
	in.params = INT64_C(1000000000);
	ok(&in);
	ck_assert_int_eq(r.layout.ep, 64);
	ck_assert_int_eq(r.gpus, 1024);
}
END_TEST

START_TEST(test_errors)
{
	struct recommend_input	 in;
	struct model		 mine;
	const char		*why;
	static const char	 no_row[] = "has no row in the MoE table "
	    "(OLMoE, Moonlight, DeepSeek-V2/V3, GLM-4.5 and Air, Qwen3 "
	    "30B-A3B and 235B-A22B, Kimi-K2): give the layout to plan instead";

	input(&in, NULL, 4096);
	why = recommend(&in, &r);
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, "needs --model or --params");

	/* A model without a count is no better. */
	memset(&mine, 0, sizeof mine);
	mine.name = "shapeless";
	mine.kind = MODEL_KIND_DENSE;
	in.model = &mine;
	why = recommend(&in, &r);
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, "needs --model or --params");

	/* A MoE model the table lacks, named or not, even with a count. */
	mine = *model_builtin_find("deepseek-v3");
	mine.name = "mixtral-8x7b";
	in.model = &mine;
	why = recommend(&in, &r);
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, no_row);
	mine.name = NULL;
	in.params = INT64_C(46000000000);
	why = recommend(&in, &r);
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, no_row);
}
END_TEST

START_TEST(test_interconnect)
{
	ck_assert_int_eq(recommend_interconnect("ib"), INTERCONNECT_IB);
	ck_assert_int_eq(recommend_interconnect("infiniband"),
	    INTERCONNECT_IB);
	ck_assert_int_eq(recommend_interconnect("nvlink"),
	    INTERCONNECT_NVLINK);
	ck_assert_int_eq(recommend_interconnect("ethernet"),
	    INTERCONNECT_ETHERNET);
	ck_assert_int_eq(recommend_interconnect("IB"), -1);
	ck_assert_int_eq(recommend_interconnect("eth"), -1);
	ck_assert_int_eq(recommend_interconnect(""), -1);
}
END_TEST

/* Reasons past RECOMMEND_MAX_REASONS are dropped, long ones cut. */
START_TEST(test_reason_bounds)
{
	char	 long_text[2 * RECOMMEND_REASON_MAX];
	int	 i;

	memset(&r, 0, sizeof r);
	for (i = 0; i < RECOMMEND_MAX_REASONS + 3; i++)
		recommend_reason(&r, "reason %d", i);
	ck_assert_int_eq(r.nreasons, RECOMMEND_MAX_REASONS);
	ck_assert_str_eq(r.reasons[RECOMMEND_MAX_REASONS - 1], "reason 7");

	memset(&r, 0, sizeof r);
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	recommend_reason(&r, "%s", long_text);
	ck_assert_uint_eq(strlen(r.reasons[0]), RECOMMEND_REASON_MAX - 1);
}
END_TEST

/*
 * Over every preset, length and interconnect: the layout passes the
 * sizing core and the training rules with no error on the GPUs
 * mbsbatch recommend runs it on, and each rule holds (EP the table's,
 * TP x PP kept by the topology rules, TP in the domain, CP and SP by
 * the length, the table's GPUs).
 *
 * Without a length (0) and under 2K too: a MoE row with TP > 1 once
 * left SP off there and failed moe-tp-needs-sp.
 */
static const char *const presets[] = {
	"llama3.2-1b", "llama3-8b", "llama3-70b", "llama3.1-405b",
	"olmoe-7b", "moonlight-16b", "deepseek-v2", "glm-4.5-air",
	"qwen3-30b-a3b", "glm-4.5", "qwen3-235b-a22b", "deepseek-v3",
	"kimi-k2",
};

static const int64_t	 lengths[] = { 0, 1024, 2048, 4096, 8192, 16384,
    32768, 65536, 131072 };

static const struct {
	enum interconnect	 ic;
	int64_t			 domain, gpus_per_node;
} topologies[] = {
	{ INTERCONNECT_IB, 8, 8 },
	{ INTERCONNECT_IB, 4, 4 },
	{ INTERCONNECT_IB, 2, 8 },
	{ INTERCONNECT_ETHERNET, 8, 8 },
	{ INTERCONNECT_NVLINK, 72, 4 },
};

START_TEST(test_invariants)
{
	struct recommend_input	 in;
	struct recommendation	 table;
	struct sizing		 s;
	char			 what[128];
	size_t			 i, j;
	int64_t			 cp;

	/* The table's own row: no length, no domain. */
	input(&in, presets[_i], 0);
	in.nvlink_domain = 0;
	ok(&in);
	table = r;

	for (i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
	for (j = 0; j < sizeof topologies / sizeof topologies[0]; j++) {
		snprintf(what, sizeof what, "%s, %lld tokens, topology %zu",
		    presets[_i], (long long)lengths[i], j);
		input(&in, presets[_i], lengths[i]);
		in.interconnect = topologies[j].ic;
		in.nvlink_domain = topologies[j].domain;
		ok(&in);

		ck_assert_str_eq(r.reasons[0], table.reasons[0]);
		ck_assert_int_eq(r.layout.ep, table.layout.ep);
		ck_assert_int_eq(r.layout.etp, 1);
		ck_assert_int_eq(r.layout.vpp, 1);
		ck_assert_int_eq(r.layout.tp * r.layout.pp,
		    table.layout.tp * table.layout.pp);
		ck_assert_int_ge(r.layout.tp, 1);
		if (in.interconnect != INTERCONNECT_NVLINK)
			ck_assert_int_le(r.layout.tp, in.nvlink_domain);
		if (in.interconnect == INTERCONNECT_ETHERNET)
			ck_assert_int_le(r.layout.tp, 4);
		cp = lengths[i] >= 131072 ? 8 : lengths[i] >= 32768 ? 4 :
		    lengths[i] >= 8192 ? 2 : 1;
		ck_assert_int_eq(r.layout.cp, cp > table.layout.cp ? cp :
		    table.layout.cp);
		ck_assert(r.layout.sp == (r.layout.tp > 1 &&
		    (lengths[i] >= 2048 || r.layout.cp > 1 ||
		    in.model->kind == MODEL_KIND_MOE)));
		ck_assert_int_eq(r.gpus, table.gpus);

		size(&in, topologies[j].gpus_per_node, &s);
		ck_assert_int_eq(s.world % s.min_gpus, 0);
		ck_assert_int_ge(s.world, r.gpus);
		/* The layers spread over the stages (plan's split). */
		ck_assert(r.layout.pp == 1 || s.split_known);
		expect_valid(what, &s);
	}
}
END_TEST

/* Without a mesh rule (short sequences, TP in the domain), the table's
 * GPUs hold its layout a whole number of times. */
START_TEST(test_table_gpus)
{
	struct recommend_input	 in;
	struct sizing		 s;

	input(&in, presets[_i], 4096);
	ok(&in);
	size(&in, 8, &s);
	ck_assert_msg(r.gpus % s.min_gpus == 0, "%s: %lld GPUs, min %lld",
	    presets[_i], (long long)r.gpus, (long long)s.min_gpus);
	ck_assert_int_eq(s.world, r.gpus);
}
END_TEST

static Suite *
recommend_suite(void)
{
	Suite	*s = suite_create("recommend");
	TCase	*tc;

	tc = tcase_create("tables");
	tcase_add_loop_test(tc, test_moe_table, 0, sizeof moe / sizeof moe[0]);
	tcase_add_loop_test(tc, test_dense_table, 0,
	    sizeof dense / sizeof dense[0]);
	tcase_add_test(tc, test_llama3_8b);
	tcase_add_test(tc, test_llama3_70b);
	tcase_add_test(tc, test_deepseek_v3);
	tcase_add_test(tc, test_llama31_405b);
	suite_add_tcase(s, tc);

	tc = tcase_create("rules");
	tcase_add_test(tc, test_topology);
	tcase_add_loop_test(tc, test_sequence, 0,
	    sizeof seqs / sizeof seqs[0]);
	tcase_add_test(tc, test_sequence_tp1);
	tcase_add_test(tc, test_gpus_given);
	tcase_add_test(tc, test_params);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_interconnect);
	tcase_add_test(tc, test_reason_bounds);
	suite_add_tcase(s, tc);

	tc = tcase_create("invariants");
	tcase_add_loop_test(tc, test_invariants, 0,
	    sizeof presets / sizeof presets[0]);
	tcase_add_loop_test(tc, test_table_gpus, 0,
	    sizeof presets / sizeof presets[0]);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(recommend_suite());
}
