/*
 * recommend.c: starting layouts; see recommend.h.  The tables are the
 * skill's (docs/megatron-rules.md section 5); where a row gives a range, the
 * low end is taken for the smaller models of the row and the high end
 * for the larger.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "recommend.h"

/* MoE, by model: TP is sized by active parameters, EP by experts. */
static const struct moe_row {
	const char	*name;		/* a built-in preset */
	int64_t		 tp, pp, ep;
	const char	*what;
} moe_table[] = {
	{ "olmoe-7b", 1, 1, 8, "OLMoE 7B/1B" },
	{ "moonlight-16b", 2, 1, 8, "Moonlight 16B/3B" },
	{ "deepseek-v2", 1, 4, 32, "DeepSeek-V2 236B/21B" },
	{ "glm-4.5-air", 1, 4, 8, "GLM-4.5 Air 106B/12B" },
	{ "qwen3-30b-a3b", 4, 2, 4, "Qwen3 30B-A3B" },
	{ "glm-4.5", 2, 8, 16, "GLM-4.5 355B/32B" },
	{ "qwen3-235b-a22b", 4, 16, 8, "Qwen3 235B-A22B" },
	{ "deepseek-v3", 2, 16, 64, "DeepSeek-V3 671B/37B" },
	{ "kimi-k2", 2, 16, 32, "Kimi-K2 1T" },
	/* Not in the skill's table: Megatron-Bridge's own pretraining
	 * recipes (0.6.0 and main recipes/gpt_oss/h100/gpt_oss.py:37
	 * and 162; 0.5.1 recipes/gpt_oss/gpt_oss.py:36 and 157). */
	{ "gpt-oss-20b", 2, 4, 4, "GPT-OSS 20B/3.6B (Bridge's recipe)" },
	{ "gpt-oss-120b", 2, 4, 16, "GPT-OSS 120B/5.1B (Bridge's recipe)" },
	/* Hybrid Mamba models: Bridge 0.6.0 and main's pretraining recipes
	 * (recipes/nemotronh/h100/nemotron_3_nano.py:65, nemotronh/
	 * nemotron_3_super.py:32, nemotronh/h100/nemotron_3_ultra.py:31;
	 * 0.5.1 ran Nano and Super at TP 4 EP 8). */
	{ "nemotron-3-nano", 1, 1, 8,
	  "Nemotron 3 Nano 30B/3.6B (Bridge's recipe)" },
	{ "nemotron-3-super", 1, 2, 32,
	  "Nemotron 3 Super 120B/12B (Bridge's recipe)" },
	{ "nemotron-3-ultra", 1, 3, 8,
	  "Nemotron 3 Ultra 550B/55B (Bridge's recipe)" },
	{ NULL, 0, 0, 0, NULL }
};

/* Dense, by size: the upper bound of each row, exclusive. */
static const struct dense_row {
	double		 below;		/* parameters */
	int64_t		 tp, pp, cp, gpus;
	const char	*what;
} dense_table[] = {
	{ 1e9, 1, 1, 1, 8, "< 1B: data parallel only, 1-8 GPUs" },
	{ 4e9, 2, 1, 1, 8, "1-10B: TP 2-4 + DP, 8-16 GPUs (TP 2 below 4B)" },
	{ 10e9, 4, 1, 1, 16, "1-10B: TP 2-4 + DP, 8-16 GPUs (TP 4 from 4B)" },
	{ 40e9, 4, 2, 1, 16, "10-70B: TP 4-8 + PP 2-4 + DP, 16-64 GPUs "
	  "(TP 4, PP 2 below 40B)" },
	{ 70e9, 8, 4, 1, 64, "10-70B: TP 4-8 + PP 2-4 + DP, 16-64 GPUs "
	  "(TP 8, PP 4 from 40B)" },
	{ 175e9, 8, 4, 1, 64, "70-175B: TP 8 + PP 4-8 + DP, 64-256 GPUs "
	  "(70B dense on 64 GPUs: TP 8, PP 4, DP 2)" },
	{ 300e9, 8, 8, 2, 256, "175-500B: TP 8 + PP 8-16 + CP 2 + DP, "
	  "256-1024 GPUs (PP 8 below 300B)" },
	{ 0, 8, 16, 2, 512, "175-500B: TP 8 + PP 8-16 + CP 2 + DP, "
	  "256-1024 GPUs (PP 16 from 300B)" },
};

void
recommend_reason(struct recommendation *r, const char *fmt, ...)
{
	va_list	 ap;

	if (r->nreasons == RECOMMEND_MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(r->reasons[r->nreasons++], RECOMMEND_REASON_MAX, fmt, ap);
	va_end(ap);
}

int
recommend_interconnect(const char *s)
{
	static const struct {
		const char		*name;
		enum interconnect	 ic;
	} names[] = {
		{ "ib", INTERCONNECT_IB },
		{ "infiniband", INTERCONNECT_IB },
		{ "nvlink", INTERCONNECT_NVLINK },
		{ "ethernet", INTERCONNECT_ETHERNET },
	};
	size_t	 i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].ic;
	return -1;
}

static const struct moe_row *
moe_row(const struct model *m)
{
	const struct moe_row	*row;

	if (m == NULL || m->name == NULL)
		return NULL;
	for (row = moe_table; row->name != NULL; row++)
		if (strcmp(row->name, m->name) == 0)
			return row;
	return NULL;
}

static const struct dense_row *
dense_row(double params)
{
	const struct dense_row	*row;

	for (row = dense_table; row->below != 0; row++)
		if (params < row->below)
			return row;
	return row;
}

/* Topology: TP inside one NVLink domain; on Ethernet TP 4, more PP. */
static void
topology(const struct recommend_input *in, struct recommendation *r)
{
	struct layout	*l = &r->layout;

	if (in->interconnect == INTERCONNECT_ETHERNET && l->tp > 4) {
		recommend_reason(r, "Ethernet between nodes: TP %lld -> 4 "
		    "and PP %lld -> %lld (TP traffic stays cheap, PP sends "
		    "little)",
		    (long long)l->tp, (long long)l->pp,
		    (long long)(l->pp * l->tp / 4));
		l->pp = l->pp * l->tp / 4;
		l->tp = 4;
	}
	if (in->interconnect == INTERCONNECT_NVLINK)
		return;		/* one NVLink domain spans the job */
	while (in->nvlink_domain > 0 && l->tp > in->nvlink_domain) {
		recommend_reason(r, "TP %lld would leave the NVLink domain "
		    "of %lld GPUs: TP halved, PP doubled", (long long)l->tp,
		    (long long)in->nvlink_domain);
		l->tp /= 2;
		l->pp *= 2;
	}
}

/* Sequence length: SP from 2K, CP 2 from 8K, CP 4-8 from 32K. */
static void
sequence(const struct recommend_input *in, struct recommendation *r)
{
	struct layout	*l = &r->layout;
	int64_t		 s = in->seq_length;

	if (s >= 2048 && l->tp > 1 && !l->sp) {
		l->sp = true;
		recommend_reason(r, "sequence %lld >= 2K: sequence parallel on",
		    (long long)s);
	}
	if (s >= 32768 && l->cp < 4) {
		l->cp = s >= 131072 ? 8 : 4;
		recommend_reason(r, "sequence %lld >= 32K: CP %lld "
		    "(consider a2a+p2p CP communication)", (long long)s,
		    (long long)l->cp);
	} else if (s >= 8192 && l->cp < 2) {
		l->cp = 2;
		recommend_reason(r, "sequence %lld >= 8K: CP 2", (long long)s);
	}
	if (l->cp > 1 && l->tp > 1 && !l->sp) {
		l->sp = true;
		recommend_reason(r, "CP with TP: sequence parallel on");
	}
}

const char *
recommend(const struct recommend_input *in, struct recommendation *r)
{
	const struct moe_row	*mrow;
	const struct dense_row	*drow;
	struct layout		*l = &r->layout;
	double			 params;

	memset(r, 0, sizeof *r);
	l->tp = l->pp = l->cp = l->ep = l->etp = l->vpp = 1;
	params = (double)(in->params != 0 ? in->params :
	    in->model != NULL ? in->model->params : 0);

	if ((mrow = moe_row(in->model)) != NULL) {
		l->tp = mrow->tp;
		l->pp = mrow->pp;
		l->ep = mrow->ep;
		r->gpus = l->pp * (l->tp > l->ep ? l->tp : l->ep);
		recommend_reason(r, "MoE table, %s: TP %lld, PP %lld, "
		    "EP %lld (TP by active parameters, EP by experts, PP by "
		    "depth)",
		    mrow->what, (long long)l->tp, (long long)l->pp,
		    (long long)l->ep);
	} else if (in->model != NULL && in->model->kind == MODEL_KIND_MOE)
		return "has no row in the MoE table (OLMoE, Moonlight, "
		    "DeepSeek-V2/V3, GLM-4.5 and Air, Qwen3 30B-A3B and "
		    "235B-A22B, Kimi-K2): give the layout to plan instead";
	else if (params <= 0)
		return "needs --model or --params";
	else {
		drow = dense_row(params);
		l->tp = drow->tp;
		l->pp = drow->pp;
		l->cp = drow->cp;
		r->gpus = drow->gpus;
		recommend_reason(r, "dense table, %.4gB parameters, %s",
		    params / 1e9, drow->what);
	}
	topology(in, r);
	sequence(in, r);
	if (mrow != NULL && l->tp > 1 && !l->sp) {
		/* Whatever the length: Megatron-Core refuses MoE training
		 * with TP and no SP (rules.c, moe-tp-needs-sp). */
		l->sp = true;
		recommend_reason(r, "MoE with TP %lld: sequence parallel on "
		    "(Megatron-Core needs it)", (long long)l->tp);
	}
	if (in->gpus != 0)
		r->gpus = in->gpus;
	return NULL;
}
