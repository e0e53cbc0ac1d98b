/*
 * flops.c: Megatron's FLOPs per token (flops.h).
 *
 * Megatron-Bridge 067f987d src/megatron/bridge/training/utils/
 * flop_utils.py, transformer_flops() (the perf tables' "Model TFLOP /
 * sec / GPU" is tokens/s times this), the terms in its order:
 * - MoE layers: moe_layer_freq's pattern; the presets' first
 *   moe_dense_layers are dense (first_k_dense_replace), the rest MoE.
 *   MTP layers are of the last layer's kind and count as attention
 *   layers too (lines 1034-1040 of that file at that revision).
 * - MLP: 3 x 2 x h x (ffn x 3 per dense layer + (moe_ffn x top-k +
 *   shared) x 3 per MoE layer); 3 projections for a gated (SwiGLU) MLP.
 *   The shared experts' width is moe_shared_expert_intermediate_size,
 *   the presets' shared experts x moe_ffn.
 * - GQA attention: 3 x 2 x (h x (q + 2 kv) + q x h + q x s / 2 x 2) per
 *   layer, q = heads x kv_channels, kv = groups x kv_channels; the
 *   causal core is half of s x s.  A sliding-window layer's core is
 *   q x c x 2 instead, c = W - W (W - 1) / (2 s) the average causal
 *   context of a W-token window (s / 2 when W >= s); window_size
 *   (l, r) is W = l + r + 1 and the windowed layers are those of
 *   window_attn_skip_freq (lines 1361-1402 of that file; Bridge 0.6.0
 *   has the same, 0.5.1 from line 611).  attn_core is then the
 *   average over the layers, so that attn_layers x attn_core is the
 *   sum.  Megatron-LM's num_floating_point_operations (d98e8a64) has
 *   no window: it counts every layer's full s / 2.  Linear biases,
 *   attention sinks and the GLU's offset and clamp are in neither.
 * - MLA: 3 x 2 x (q_term + kv_lora x (h + heads x (qk + v) + 1) + h x
 *   qk_pos + heads x v x h + s/2 x heads x (qk + qk_pos) + s/2 x heads
 *   x v) per layer, q_term = q_lora x (h + heads x (qk + qk_pos) + 1),
 *   or h x heads x (qk + qk_pos) without a q low rank.
 * - MTP: 3 x 2 x (3 h + 2 h h) per MTP layer (norms, eh projection).
 * - Logits: 3 x 2 x h x padded vocab x (MTP layers + 1).
 * Megatron-LM's num_floating_point_operations (d98e8a64
 * megatron/training/training.py:802; MTP 1042-1046, logits 1298-1303)
 * is the same formula for these models, sliding windows apart.
 */
#include "flops.h"
#include "hybrid.h"

#define FMA		2.0	/* FLOPs of a multiply-add */
#define FWD_BWD		3.0	/* forward, and backward's two GEMMs */
#define GLU_PROJ	3.0	/* gate, up and down projections */
#define VOCAB_DIV	128	/* make_vocab_size_divisible_by */

int64_t
flops_padded_vocab(int64_t vocab, int64_t tp)
{
	int64_t	 m = VOCAB_DIV * (tp > 0 ? tp : 1);

	return (vocab + m - 1) / m * m;
}

/* Per layer, before FWD_BWD x FMA: MLA or GQA projections and core. */
static void
attention(const struct model *m, double s, double *proj, double *core)
{
	double	 h = (double)m->hidden_size, a = (double)m->num_attention_heads;
	double	 g, kv, q, qk, pos, v, qterm;

	if (m->kv_lora_rank != 0) {
		qk = (double)m->qk_head_dim;
		pos = (double)m->qk_pos_emb_head_dim;
		v = (double)m->v_head_dim;
		qterm = m->q_lora_rank != 0 ? (double)m->q_lora_rank *
		    (h + a * (qk + pos) + 1) : h * a * (qk + pos);
		*proj = qterm + (double)m->kv_lora_rank * (h + a * (qk + v) +
		    1) + h * pos + a * v * h;
		*core = s / 2 * a * (qk + pos) + s / 2 * a * v;
		return;
	}
	kv = m->kv_channels != 0 ? (double)m->kv_channels : h / a;
	g = m->num_query_groups != 0 ? (double)m->num_query_groups : a;
	q = a * kv;
	*proj = h * (q + 2 * g * kv) + q * h;
	*core = q * s / 2 * 2;
	if (m->sliding_window > 0 && m->num_layers > 0) {
		double	 w = (double)m->sliding_window, n, swa;

		swa = w < s ? w - w * (w - 1) / (2 * s) : s / 2;
		n = (double)model_window_layers(m);
		*core = (q * swa * 2 * n + *core * ((double)m->num_layers -
		    n)) / (double)m->num_layers;
	}
}

/* The sum of F's terms over its layers: FLOPs per token. */
static double
total(const struct flops *f)
{
	return (double)f->mamba_layers * f->mamba +
	    (double)f->attn_layers * (f->attn_proj + f->attn_core) +
	    (double)f->dense_layers * f->dense_mlp +
	    (double)f->moe_layers * (f->routed_mlp + f->shared_mlp) +
	    (double)f->mtp_layers * f->mtp_proj +
	    (double)(f->mtp_layers + 1) * f->logits;
}

/*
 * A hybrid model, hybrid_flops() of Megatron-Bridge 067f987d flop_utils.py
 * :849-945 (0.6.0 and Megatron-LM's training.py core_v0.19.0:514-579 the
 * same), per token and layer kind, x 3 (forward and backward):
 * - M, mamba_layer_flops() (:801-822): in_proj 2 h (2 d + 2 G N + H),
 *   the scan 7 d N, out_proj 2 d h, where d is 2 h whatever
 *   mamba_num_heads says (a count Megatron keeps; the GEMMs mbsbatch
 *   times, cost.c, use the real inner width);
 * - *, attn_layer_flops(): attention() above, GQA, causal core;
 * - -, mlp_layer_flops(): 4 F h, 3/2 of it with --swiglu (2 or 3
 *   projections, x 2 per multiply-add);
 * - E, moe_layer_flops(): routed 4 k F d (d the latent size, or h) and,
 *   with a latent size, 4 h lat for the two projections; shared 4 F_s h
 *   (3/2 each with --swiglu);
 * - logits 2 h V (1 + MTP depths).
 * The MTP block's layers count as layers of their kinds once per depth
 * (get_hybrid_layer_counts(), hybrid_layer_allocation.py core_v0.19.0:
 * 161-197, counts the unified pattern's MTP part so); its projections
 * and the routers are not counted.
 */
static const char *
hybrid_compute(const struct model *m, int64_t seq, int64_t tp,
    struct flops *f)
{
	struct hybrid_counts	 c, t;
	double	 h = (double)m->hidden_size, s = (double)seq, k = FWD_BWD * FMA;
	double	 d = 2 * h, lat = (double)m->moe_latent_size;
	double	 nh = (double)hybrid_mamba_heads(m);
	double	 gn = (double)(m->mamba_num_groups * m->mamba_state_dim);
	double	 glu = MODEL_GATED(m) ? GLU_PROJ : 2.0;
	double	 fe = (double)m->moe_ffn_hidden_size;

	if (hybrid_parse(m->hybrid_pattern, &c) != NULL)
		return "needs a hybrid layer pattern mbsbatch models";
	if (m->mtp_layers > 0 && hybrid_parse(m->mtp_pattern, &t) == NULL) {
		c.mamba += m->mtp_layers * t.mamba;
		c.attention += m->mtp_layers * t.attention;
		c.mlp += m->mtp_layers * t.mlp;
		c.moe += m->mtp_layers * t.moe;
	}
	f->mtp_layers = m->mtp_layers;
	f->mamba_layers = c.mamba;
	f->attn_layers = c.attention;
	f->dense_layers = c.mlp;
	f->moe_layers = c.moe;
	f->mamba_scan = k / FMA * 7 * d * (double)m->mamba_state_dim;
	f->mamba = k * (h * (2 * d + 2 * gn + nh) + d * h) + f->mamba_scan;
	attention(m, s, &f->attn_proj, &f->attn_core);
	f->attn_proj *= k;
	f->attn_core *= k;
	f->dense_mlp = k * h * (double)m->ffn_hidden_size * glu;
	f->routed_mlp = k * (lat > 0 ? lat : h) * fe *
	    (double)(m->moe_router_topk > 0 ? m->moe_router_topk : 1) * glu +
	    (lat > 0 ? k * 2 * h * lat : 0);
	f->shared_mlp = k * h * fe * (double)m->moe_shared_experts * glu;
	f->logits = k * h * (double)flops_padded_vocab(m->vocab_size, tp);
	f->total = total(f);
	return NULL;
}

const char *
flops_compute(const struct model *m, int64_t seq, int64_t tp,
    struct flops *f)
{
	double	 h = (double)m->hidden_size, s = (double)seq, k = FWD_BWD * FMA;
	double	 moe_ffn, last_moe;

	*f = (struct flops){ 0 };
	if (m->num_layers <= 0 || m->hidden_size <= 0 ||
	    m->num_attention_heads <= 0 || m->vocab_size <= 0 || seq <= 0)
		return "needs the model's layers, hidden size, heads and "
		    "vocabulary and the sequence length";
	if (m->ffn_hidden_size <= 0 && m->moe_dense_layers > 0)
		return "needs the dense MLP's width";
	if (m->hybrid_pattern != NULL)
		return hybrid_compute(m, seq, tp, f);

	f->mtp_layers = m->mtp_layers;
	f->attn_layers = m->num_layers + m->mtp_layers;
	if (m->num_experts > 0) {
		f->moe_layers = m->num_layers - m->moe_dense_layers;
		f->dense_layers = m->moe_dense_layers;
	} else
		f->dense_layers = m->num_layers;
	last_moe = f->moe_layers > 0;
	f->moe_layers += (int64_t)last_moe * m->mtp_layers;
	f->dense_layers += (int64_t)(1 - last_moe) * m->mtp_layers;

	attention(m, s, &f->attn_proj, &f->attn_core);
	f->attn_proj *= k;
	f->attn_core *= k;
	f->dense_mlp = k * h * (double)m->ffn_hidden_size * GLU_PROJ;
	moe_ffn = m->moe_ffn_hidden_size != 0 ?
	    (double)m->moe_ffn_hidden_size : (double)m->ffn_hidden_size;
	if (m->num_experts > 0) {
		f->routed_mlp = k * h * moe_ffn *
		    (double)(m->moe_router_topk > 0 ? m->moe_router_topk : 1) *
		    GLU_PROJ;
		f->shared_mlp = k * h * moe_ffn *
		    (double)m->moe_shared_experts * GLU_PROJ;
	}
	f->mtp_proj = k * (3 * h + 2 * h * h);
	f->logits = k * h * (double)flops_padded_vocab(m->vocab_size, tp);

	f->total = total(f);
	return NULL;
}

/*
 * LoRA: the base weights are frozen (requires_grad False), so autograd
 * computes no weight gradient for them: of each GEMM's forward, input
 * gradient and weight gradient (FWD_BWD), two remain.  Bridge counts
 * exactly that (flop_utils.py 067f987d:999-1007; 0.6.0 805-813): the
 * projections, the MLP and the output layer times 2/3 ("frozen"), the
 * attention core in full ("unfrozen"), not the adapters.  It does so
 * only for Llama 3 70B on packed SQuAD (983), where it takes the core
 * over the packed sequences' real lengths; mbsbatch counts every LoRA
 * run so, with the core over the whole sequence as for pretraining.
 * Each adapter's A and B run forward, input and weight gradient: 3 x 2
 * FLOPs a parameter and token (memory_lora_layer_params()).
 */
void
flops_lora(struct flops *f, const struct model *m, const struct lora *lora)
{
	const double	 frozen = 2.0 / FWD_BWD;

	if (lora->rank == 0)
		return;
	f->attn_proj *= frozen;
	f->dense_mlp *= frozen;
	f->routed_mlp *= frozen;
	f->shared_mlp *= frozen;
	f->mtp_proj *= frozen;
	f->logits *= frozen;
	f->adapters = FWD_BWD * FMA * memory_lora_layer_params(m, lora);
	f->total = total(f);
}
