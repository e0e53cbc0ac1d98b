/*
 * hybrid.c: hybrid layer patterns and the parameters of their layers;
 * see hybrid.h.  Line numbers are Megatron-LM core_v0.19.0's; main
 * d98e8a64 builds the same modules (mamba_mixer.py a few lines lower).
 */
#include <string.h>

#include "hybrid.h"

#define SYMBOLS	"M*-E|"

static void
count_symbol(char c, struct hybrid_counts *out)
{
	switch (c) {
	case 'M':
		out->mamba++;
		break;
	case '*':
		out->attention++;
		break;
	case '-':
		out->mlp++;
		break;
	case 'E':
		out->moe++;
		break;
	case '|':
		out->segments++;
		return;
	}
	out->layers++;
}

const char *
hybrid_parse(const char *pattern, struct hybrid_counts *out)
{
	const char	*p;

	memset(out, 0, sizeof *out);
	out->segments = 1;
	if (pattern == NULL || *pattern == '\0')
		return "is empty";
	for (p = pattern; *p != '\0'; p++) {
		if (strchr("GD+", *p) != NULL)
			return "has a layer mbsbatch does not model (G, D or "
			    "+: gated delta net, DSA, MLA); M * - E and | are";
		if (*p == '/')
			return "has an MTP part ('/'): give the main pattern "
			    "alone";
		if (strchr(SYMBOLS, *p) == NULL)
			return "has a symbol that is not a layer (M Mamba, * "
			    "attention, - MLP, E MoE) or a pipeline boundary "
			    "(|)";
		count_symbol(*p, out);
	}
	if (out->layers == 0)
		return "has no layer";
	return NULL;
}

void
hybrid_tail(const char *pattern, int64_t n, struct hybrid_counts *out)
{
	const char	*p;

	memset(out, 0, sizeof *out);
	if (pattern == NULL || n <= 0)
		return;
	for (p = pattern + strlen(pattern); p > pattern && out->layers < n;)
		if (*--p != '|')
			count_symbol(*p, out);
}

/* Count the layers of segment INDEX ('|'-separated) into *OUT. */
static void
count_segment(const char *pattern, int64_t index, struct hybrid_counts *out)
{
	const char	*p;
	int64_t		 seg = 0;

	for (p = pattern; *p != '\0'; p++) {
		if (*p == '|')
			seg++;
		else if (seg == index)
			count_symbol(*p, out);
	}
}

/* Count layers [FROM, FROM + N) of a pattern without pipes. */
static void
count_range(const char *pattern, int64_t from, int64_t n,
    struct hybrid_counts *out)
{
	int64_t	 i;

	for (i = from; i < from + n && pattern[i] != '\0'; i++)
		count_symbol(pattern[i], out);
}

const char *
hybrid_stage(const char *pattern, int64_t pp, int64_t rank, int64_t first,
    int64_t last, struct hybrid_counts *out)
{
	struct hybrid_counts	 all;
	const char		*why;
	int64_t			 i, middle, stages, per, from, n;

	if ((why = hybrid_parse(pattern, &all)) != NULL)
		return why;
	memset(out, 0, sizeof *out);
	out->segments = 1;
	if (pp < 1 || rank < 0 || rank >= pp)
		return "has no such pipeline rank";
	if (all.segments > 1) {
		/* :459-464: the segments divide over the ranks; rank r
		 * holds segments r + v PP (:467). */
		if (all.segments % pp != 0)
			return "has segments that PP does not divide";
		for (i = rank; i < all.segments; i += pp)
			count_segment(pattern, i, out);
		out->segments = all.segments / pp;
		return NULL;
	}
	if (pp == 1) {
		*out = all;
		return NULL;
	}
	if (first == 0 && last == 0) {
		/* :436-445 */
		if (all.layers % pp != 0)
			return "has a layer count PP does not divide";
		per = all.layers / pp;
		count_range(pattern, rank * per, per, out);
		return NULL;
	}
	/* :405-434: the middle stages split what first and last leave. */
	middle = all.layers - first - last;
	stages = pp - (first != 0) - (last != 0);
	if (middle < 0 || (stages > 0 && middle % stages != 0))
		return "has middle layers the middle stages do not divide";
	per = stages > 0 ? middle / stages : 0;
	if (first != 0 && rank == 0) {
		from = 0;
		n = first;
	} else if (last != 0 && rank == pp - 1) {
		from = all.layers - last;
		n = last;
	} else {
		from = (rank - (first != 0)) * per + first;
		n = per;
	}
	count_range(pattern, from, n, out);
	return NULL;
}

int64_t
hybrid_mamba_heads(const struct model *m)
{
	if (m->mamba_num_heads > 0)
		return m->mamba_num_heads;
	if (m->mamba_head_dim <= 0)
		return 0;
	return MAMBA_EXPAND * m->hidden_size / m->mamba_head_dim;
}

int64_t
hybrid_mamba_inner(const struct model *m)
{
	if (m->mamba_num_heads > 0)
		return m->mamba_num_heads * m->mamba_head_dim;
	return MAMBA_EXPAND * m->hidden_size;
}

/*
 * One Mamba layer (MambaLayer, hybrid_layer_specs.py:99: in_proj is a
 * TELayerNormColumnParallelLinear, so the layer's RMSNorm weight, h, is
 * in it).  MambaMixer (mamba_mixer.py): in_proj h x (2 d_inner + 2 G N +
 * heads) without bias (:280-282; bias is asserted off, :274); the
 * depthwise convolution over x, B and C, conv_dim = d_inner + 2 G N,
 * conv_dim x kernel weights and conv_dim biases (:317-331; conv_bias
 * asserted on, :275); dt_bias, A_log and D, one per head (:383, :395,
 * :407-412, D_has_hdim off); the gated RMSNorm over d_inner (:417);
 * out_proj d_inner x h without bias (:430).
 */
static double
mamba_params(const struct model *m)
{
	double	 h = (double)m->hidden_size, di = (double)hybrid_mamba_inner(m);
	double	 nh = (double)hybrid_mamba_heads(m);
	double	 gn = (double)(m->mamba_num_groups * m->mamba_state_dim);
	double	 conv = di + 2 * gn;

	return h + h * (2 * di + 2 * gn + nh) + conv * MAMBA_CONV_KERNEL +
	    conv + 3 * nh + di + di * h;
}

/* One attention layer (hybrid_layer_specs.py:129: the norm fused into
 * linear_qkv): h, QKV h x (a + 2 g) kv, the projection a kv x h. */
static double
attention_params(const struct model *m)
{
	double	 h = (double)m->hidden_size, a = (double)m->num_attention_heads;
	double	 g = m->num_query_groups != 0 ? (double)m->num_query_groups : a;
	double	 kv = m->kv_channels != 0 ? (double)m->kv_channels : h / a;

	return h + h * (a + 2 * g) * kv + a * kv * h;
}

/* An MLP of width F from and to width D: fc1 (two halves when gated)
 * and fc2, no biases (add_bias_linear off in every hybrid preset). */
static double
mlp_matrices(const struct model *m, double d, double f)
{
	return d * f * (MODEL_GATED(m) ? 2 : 1) + f * d;
}

void
hybrid_layer_params(const struct model *m, struct hybrid_params *out)
{
	double	 h = (double)m->hidden_size, e = (double)m->num_experts;
	double	 lat = (double)m->moe_latent_size;
	double	 d = lat > 0 ? lat : h, fe = (double)m->moe_ffn_hidden_size;
	double	 k = (double)m->moe_router_topk;

	memset(out, 0, sizeof *out);
	out->mamba = mamba_params(m);
	out->attention = attention_params(m);
	/* MLPLayer: fc1 a TELayerNormColumnParallelLinear (:203). */
	out->mlp = h + mlp_matrices(m, h, (double)m->ffn_hidden_size);
	if (m->num_experts == 0)
		return;
	/*
	 * MoETransformerLayer (:212): pre_mlp_layernorm h; the router's
	 * h x E weight (router.py:61; the expert bias is a buffer); with
	 * a latent size, fc1_latent_proj and fc2_latent_proj, h x latent
	 * each, duplicated over TP (moe_layer.py:265-296), the experts
	 * then latent to latent (experts.py:216-243); the shared experts
	 * on the full hidden size, no gate (moe_shared_expert_gate off).
	 */
	out->moe = h + h * e + (lat > 0 ? 2 * h * lat : 0) +
	    mlp_matrices(m, h, (double)m->moe_shared_experts * fe);
	out->experts = e * mlp_matrices(m, d, fe);
	out->active_experts = k * mlp_matrices(m, d, fe);
}

double
hybrid_model_params(const struct model *m, bool active)
{
	struct hybrid_counts	 c;
	struct hybrid_params	 p;
	double			 h = (double)m->hidden_size, emb;

	if (hybrid_parse(m->hybrid_pattern, &c) != NULL)
		return 0;
	hybrid_layer_params(m, &p);
	/* HybridStack's final_norm (hybrid_block.py:215); the embedding
	 * (hybrid_model.py:235) and output layer (:310), untied. */
	emb = h * (double)m->vocab_size;
	return (double)c.mamba * p.mamba + (double)c.attention * p.attention +
	    (double)c.mlp * p.mlp + (double)c.moe * (p.moe +
	    (active ? p.active_experts : p.experts)) + h +
	    emb * (m->tied_embeddings ? 1 : 2);
}
