/* model.c: the architecture's own consistency; see model.h. */
#include <stdio.h>

#include "hybrid.h"
#include "model.h"

/*
 * A hybrid model's own consistency: a pattern mbsbatch models, as many
 * layers as num_layers, the Mamba mixer's shapes (mamba_mixer.py
 * core_v0.19.0:238-249, 272: heads a multiple of the groups), experts
 * where the pattern has MoE layers.
 */
static int
hybrid_check(const struct model *m, char *buf, size_t len)
{
	struct hybrid_counts	 c;
	const char		*why;
	int64_t			 heads = hybrid_mamba_heads(m);

	if ((why = hybrid_parse(m->hybrid_pattern, &c)) != NULL)
		snprintf(buf, len, "hybrid layer pattern '%s' %s",
		    m->hybrid_pattern, why);
	else if (m->num_layers != 0 && m->num_layers != c.layers)
		snprintf(buf, len, "num_layers %lld but the hybrid layer "
		    "pattern has %lld layers", (long long)m->num_layers,
		    (long long)c.layers);
	else if (c.mamba > 0 && (m->mamba_state_dim <= 0 ||
	    m->mamba_head_dim <= 0 || m->mamba_num_groups <= 0))
		snprintf(buf, len, "Mamba layers need mamba_state_dim, "
		    "mamba_head_dim and mamba_num_groups");
	else if (c.mamba > 0 && (heads <= 0 || heads % m->mamba_num_groups
	    != 0))
		snprintf(buf, len, "%lld Mamba heads are not a multiple of "
		    "its %lld groups", (long long)heads,
		    (long long)m->mamba_num_groups);
	else if (c.moe > 0 && m->num_experts == 0)
		snprintf(buf, len, "the hybrid layer pattern has MoE layers "
		    "(E) but num_experts is 0");
	else if (m->mtp_layers != 0 && (m->mtp_pattern == NULL ||
	    hybrid_parse(m->mtp_pattern, &c) != NULL || c.segments != 1))
		snprintf(buf, len, "multi-token prediction of a hybrid model "
		    "needs its layers' pattern (mtp_hybrid_layer_pattern, "
		    "without '|')");
	else
		return 0;
	return -1;
}

int
model_check(const struct model *m, char *buf, size_t len)
{
	if (m->kind == MODEL_KIND_DENSE && (m->moe_router_topk != 0 ||
	    m->moe_ffn_hidden_size != 0))
		snprintf(buf, len, "a dense model (num_experts 0) has no "
		    "router top-k or expert width");
	else if (m->num_experts != 0 && m->moe_router_topk > m->num_experts)
		snprintf(buf, len, "router top-k %lld is larger than the %lld "
		    "experts", (long long)m->moe_router_topk,
		    (long long)m->num_experts);
	else if (m->num_attention_heads != 0 && m->num_query_groups != 0 &&
	    (m->num_query_groups > m->num_attention_heads ||
	    m->num_attention_heads % m->num_query_groups != 0))
		snprintf(buf, len, "%lld query groups do not divide %lld "
		    "attention heads", (long long)m->num_query_groups,
		    (long long)m->num_attention_heads);
	else if (m->num_layers != 0 && m->moe_dense_layers > m->num_layers)
		snprintf(buf, len, "%lld dense layers but only %lld layers",
		    (long long)m->moe_dense_layers, (long long)m->num_layers);
	else if (m->window_skip_freq != 0 && m->sliding_window == 0)
		snprintf(buf, len, "window_attn_skip_freq without a "
		    "sliding_window");
	else if (m->params != 0 && m->active_params > m->params)
		snprintf(buf, len, "more active parameters than parameters");
	else if (m->hybrid_pattern != NULL)
		return hybrid_check(m, buf, len);
	else
		return 0;
	return -1;
}

/*
 * Megatron-LM d98e8a64 megatron/core/transformer/utils.py:531
 * is_layer_window_attention(): with an int skip frequency, layer n
 * (1-based) is windowed unless n % freq == 0; without one, every layer.
 */
int64_t
model_window_layers(const struct model *m)
{
	if (m->sliding_window <= 0 || m->num_layers <= 0)
		return 0;
	if (m->window_skip_freq <= 0)
		return m->num_layers;
	return m->num_layers - m->num_layers / m->window_skip_freq;
}

void
model_hybrid_defaults(struct model *m)
{
	struct hybrid_counts	 c;

	if (m->hybrid_pattern == NULL)
		return;
	if (m->num_layers == 0 && hybrid_parse(m->hybrid_pattern, &c) == NULL)
		m->num_layers = c.layers;
	if (m->mamba_state_dim == 0)
		m->mamba_state_dim = 128;
	if (m->mamba_head_dim == 0)
		m->mamba_head_dim = 64;
	if (m->mamba_num_groups == 0)
		m->mamba_num_groups = 8;
}
