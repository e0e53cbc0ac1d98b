/*
 * cost.c: the step-time model of cost.h.
 */
#include <string.h>

#include "cost.h"

#define BF16		2.0	/* bytes of an activation or a weight */
#define SUSTAINED	0.5	/* of the peak FLOP/s a GPU keeps up */
#define FREE_PENALTY	5.0	/* each share of memory below
				   COST_FREE_WANTED costs this much speed */

const char *const cost_term_names[COST_NTERMS] = {
	"compute", "bubble", "tp", "cp", "ep", "etp", "pp", "dp"
};

/*
 * Seconds to move BYTES in a group spanning SPAN consecutive ranks: at
 * NVLink speed when the groups tile the NVLink domain, else at the
 * network's.
 */
static double
move(double bytes, int64_t span, int64_t domain, const struct cost_hw *hw,
    bool *crosses)
{
	bool	 inside = hw->nvlink_everywhere ||
	    (span <= domain && domain % span == 0);

	if (bytes <= 0)
		return 0;
	if (!inside)
		*crosses = true;
	return bytes / ((inside ? hw->nvlink_gbs : hw->net_gbs) * 1e9);
}

/* Width of the K and V a CP ring passes around, per token. */
static double
kv_width(const struct model *m)
{
	double	 a = (double)m->num_attention_heads;
	double	 g = m->num_query_groups != 0 ? (double)m->num_query_groups : a;
	double	 kv = m->kv_channels != 0 ? (double)m->kv_channels :
	    (double)m->hidden_size / a;

	if (m->kv_lora_rank != 0)	/* MLA: full K and V per head */
		return a * (double)(m->qk_head_dim + m->qk_pos_emb_head_dim +
		    m->v_head_dim);
	return 2 * g * kv;
}

const char *
cost_estimate(const struct sizing_input *in, const struct sizing *s,
    const struct cost_hw *hw, struct cost *c)
{
	const struct model	*m = &in->model;
	const struct layout	*l = &in->layout;
	double	 h = (double)m->hidden_size, v = (double)m->vocab_size;
	double	 L = (double)m->num_layers, seq = (double)in->seq_length;
	double	 b = (double)in->micro_batch, active, per_layer, attn;
	double	 first, middle, last, busiest, flops, moe_share, lm, ls;
	double	 tok, t_c, t_mb, comm[COST_NTERMS], dp_bytes, t_dp, edp_bytes;
	double	 tp = (double)l->tp, cp = (double)l->cp, mb, k;
	int64_t	 domain = s->nvlink_domain, per_stage = s->world / l->pp;
	int	 i;

	memset(c, 0, sizeof *c);
	memset(comm, 0, sizeof comm);
	if (!s->has_memory || m->num_layers == 0 || m->hidden_size == 0 ||
	    in->seq_length == 0)
		return "needs the model's layers and hidden size and the "
		    "sequence length";
	if (hw->tflops <= 0 || hw->nvlink_gbs <= 0 || hw->net_gbs <= 0)
		return "needs the GPU's speed and bandwidths";

	/* Compute, per token, on each kind of stage. */
	active = m->active_params != 0 ? (double)m->active_params :
	    m->params != 0 ? (double)m->params : s->memory.model_params;
	per_layer = (active - v * h * (m->tied_embeddings ? 1 : 2)) / L;
	if (per_layer < 0)
		per_layer = 0;
	attn = 6 * (per_layer + seq * h);	/* 6 N + causal 12 s h / 2 */
	if (s->split_known) {
		first = (double)s->split_first;
		middle = (double)s->split_middle;
		last = (double)s->split_last;
	} else
		first = middle = last = L;
	busiest = first * attn;
	if (s->split_middle_stages > 0 && middle * attn > busiest)
		busiest = middle * attn;
	if (last * attn + 6 * h * v > busiest)
		busiest = last * attn + 6 * h * v;
	ls = first > middle ? first : middle;
	ls = last > ls ? last : ls;
	c->busiest_layers = (int64_t)ls;
	flops = busiest * b * seq / (tp * cp);
	if (in->recompute == RECOMPUTE_FULL)
		flops *= 4.0 / 3.0;
	t_c = flops / (hw->tflops * 1e12 * SUSTAINED);

	/* Communication per micro-batch on the busiest stage. */
	tok = b * seq / cp;
	moe_share = m->num_experts > 0 ? (L - (double)m->moe_dense_layers) /
	    L : 0;
	lm = ls * moe_share;
	k = m->moe_router_topk > 0 ? (double)m->moe_router_topk : 1;
	comm[COST_TP] = move(ls * 8 * (tp - 1) / tp * tok * h * BF16, l->tp,
	    domain, hw, &c->crosses[COST_TP]);
	comm[COST_CP] = move(ls * 3 * (cp - 1) * tok * kv_width(m) / tp *
	    BF16, l->tp * l->cp, domain, hw, &c->crosses[COST_CP]);
	comm[COST_EP] = move(lm * 4 * k * tok / tp * h * BF16 *
	    (double)(l->ep - 1) / (double)l->ep, l->ep * l->etp, domain, hw,
	    &c->crosses[COST_EP]);
	comm[COST_ETP] = move(lm * 4 * k * tok / tp * h * BF16 *
	    (double)(l->etp - 1), l->etp, domain, hw, &c->crosses[COST_ETP]);
	if (l->pp > 1)
		comm[COST_PP] = move(2 * (double)l->vpp * tok / tp * h * BF16,
		    s->world, domain, hw, &c->crosses[COST_PP]);
	t_mb = t_c;
	for (i = COST_TP; i <= COST_PP; i++)
		t_mb += comm[i];

	/* Micro-batches per step, and the step. */
	if ((c->microbatches = sizing_microbatches(in, s)) == 0) {
		c->microbatches = 4 * l->pp;
		c->microbatches_assumed = true;
	}
	mb = (double)c->microbatches;
	c->term[COST_COMPUTE] = mb * t_c;
	c->term[COST_BUBBLE] = (double)(l->pp - 1) / (double)l->vpp * t_mb;
	for (i = COST_TP; i <= COST_PP; i++)
		c->term[i] = mb * comm[i];

	/* DP: reduce-scatter fp32 gradients and all-gather bf16 weights
	 * (the distributed optimizer), or all-reduce the gradients. */
	dp_bytes = (s->memory.params - s->memory.expert_params) *
	    (in->distributed_optimizer ? 6 : 8);
	edp_bytes = s->memory.expert_params *
	    (in->distributed_optimizer ? 6 : 8);
	t_dp = move(dp_bytes * (double)(s->dp - 1) / (double)s->dp,
	    per_stage, domain, hw, &c->crosses[COST_DP]) +
	    move(edp_bytes * (double)(s->edp - 1) / (double)s->edp,
	    per_stage, domain, hw, &c->crosses[COST_DP]);
	t_dp -= (mb - 1) * t_mb;
	c->term[COST_DP] = t_dp > 0 ? t_dp : 0;

	for (i = 0; i < COST_NTERMS; i++)
		c->step_s += c->term[i];
	if (hw->site_factor > 0)
		c->step_s /= hw->site_factor;
	c->tokens_per_s = (double)s->dp * mb * b * seq / c->step_s;
	c->flops_per_token = L * attn + 6 * h * v;
	c->tflops_per_gpu = c->flops_per_token * c->tokens_per_s /
	    (double)s->world / 1e12;
	c->mfu = c->tflops_per_gpu / hw->tflops;
	c->score = c->tokens_per_s;
	if (in->gpu_gib > 0) {
		c->memory_share = s->memory.total_gib / in->gpu_gib;
		if (c->memory_share > 1 - COST_FREE_WANTED)
			c->score /= 1 + FREE_PENALTY * (c->memory_share -
			    (1 - COST_FREE_WANTED));
	}
	return NULL;
}

void
cost_hw_init(struct cost_hw *hw, const struct gpu_type *g,
    enum interconnect ic)
{
	if (g == NULL)
		g = gpu_type_find("h100");
	hw->tflops = g->tflops;
	hw->nvlink_gbs = g->nvlink_gbs;
	hw->net_gbs = g->net_gbs;
	hw->nvlink_everywhere = ic == INTERCONNECT_NVLINK;
	hw->site_factor = 1;
	if (ic == INTERCONNECT_ETHERNET)
		hw->net_gbs /= 2;
}
