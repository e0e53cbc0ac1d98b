/* model.c: the architecture's own consistency; see model.h. */
#include <stdio.h>

#include "model.h"

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
