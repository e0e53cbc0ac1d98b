/*
 * memory.c: memory per GPU by Megatron-LM's theoretical formulas; see
 * memory.h.  All models here use RMSNorm (one weight per norm) and a
 * gated MLP (three MLP matrices: the 3/2 gated multiplier; SwiGLU, or
 * GPT-OSS's quick GeGLU).  GPT-OSS adds a bias to every linear layer
 * and a sink logit per head (counted with the weights they belong to);
 * its sliding windows change no stored activation (the core attention
 * keeps Q, K, V and the output whatever its mask).
 */
#include <math.h>
#include <string.h>

#include "hybrid.h"
#include "memory.h"

#define GIB		(1024.0 * 1024.0 * 1024.0)
#define NORM_SIZE	1.0	/* RMSNorm: no bias */
#define GATED		1.5	/* SwiGLU */

/* Parameters of one self-attention block (GQA or MLA). */
static double
attention_params(const struct model *m)
{
	double	 h = (double)m->hidden_size, a = (double)m->num_attention_heads;
	double	 g = m->num_query_groups != 0 ? (double)m->num_query_groups : a;
	double	 kv = m->kv_channels != 0 ? (double)m->kv_channels : h / a;
	double	 q;

	if (m->kv_lora_rank != 0) {
		double	 qk = (double)(m->qk_head_dim + m->qk_pos_emb_head_dim);

		q = m->q_lora_rank == 0 ? h * a * qk :
		    (double)m->q_lora_rank * (h + a * qk + NORM_SIZE);
		return q + (double)m->kv_lora_rank * (h + a *
		    (double)(m->qk_head_dim + m->v_head_dim) + NORM_SIZE) +
		    h * (double)m->qk_pos_emb_head_dim +
		    a * (double)m->v_head_dim * h;
	}
	/* Biases of QKV and the output projection, and the sinks. */
	q = (m->linear_bias || m->qkv_bias ? (a + 2 * g) * kv : 0) +
	    (m->linear_bias ? h : 0) +
	    (m->softmax_type == SOFTMAX_LEARNABLE ? a : 0);
	return 2 * h * h * ((1 + g / a) * (kv * a / h)) + q;
}

/* The biases of a gated MLP of width F: fc1's 2F and fc2's h. */
static double
mlp_bias(const struct model *m, double f)
{
	return m->linear_bias && f > 0 ? 2 * f + (double)m->hidden_size : 0;
}

/*
 * Sequence parallelism's count applies: SP is on, or TP is 1, where
 * nothing is split and Megatron switches SP off (megatron/training/
 * arguments.py:1433) although its SP formula is the one that counts the
 * real MLP width (its no-SP formula fixes it at 4h).
 */
static bool
sp_count(const struct memory_input *in)
{
	return in->layout.sp || in->layout.tp == 1;
}

/*
 * Widths, over h, of what attention keeps beyond Megatron's count of h
 * for each of Q, K, V and the attention output (its TODO, theoretical_
 * memory_usage.py:313): the queries and the output are a x kv wide, K and
 * V g x kv (GQA).  FlashAttention keeps Q, K, V and the output.  MLA keeps
 * its own shapes, which Megatron's count stands for here.
 */
static void
attention_widths(const struct model *m, double *q, double *kv)
{
	double	 h = (double)m->hidden_size, a = (double)m->num_attention_heads;
	double	 g = m->num_query_groups != 0 ? (double)m->num_query_groups : a;
	double	 d = m->kv_channels != 0 ? (double)m->kv_channels : h / a;

	*q = *kv = 1;
	if (m->kv_lora_rank != 0)
		return;
	*q = a * d / h;
	*kv = g * d / h;
}

/*
 * Bytes per s b h of an MLP of width W (Korthikanti et al. Table 2 with
 * Megatron's 4W/h): its input 2, the dropout mask 1, the activation's
 * input and the second GEMM's input 2W/h each.  What runs (MEGATRON
 * false): no dropout mask, since every model here trains with dropout 0
 * (script-mlm.c writes --hidden-dropout 0, Bridge's providers set it) and
 * torch's dropout at p 0 returns its input (aten/src/ATen/native/
 * Dropout.cpp); with FP8 training Transformer Engine keeps the two GEMM
 * inputs quantized, 1 byte an element (transformer_engine/pytorch/module/
 * layernorm_mlp.py, linear.py: the saved input is the FP8 tensor), 1 +
 * W/h less.
 */
double
memory_quant_bytes(enum fp8_recipe r)
{
	/* NVFP4: Transformer Engine's NVFP4Tensor, 4 bits an element and
	 * an E4M3 scale per 16 (megatron/core/fp4_utils.py
	 * quantize_nvfp4_param_shard(): "global FP32 scale + per-block FP8
	 * E4M3 scale"). */
	if (r == FP8_NVFP4)
		return 0.5 + 1.0 / 16;
	return r != FP8_NO ? 1 : 2;
}

/* Bytes a quantized GEMM input saves against BF16, per element. */
static double
quant_saved(const struct memory_input *in)
{
	return 2 - memory_quant_bytes(in->fp8);
}

static double
mlp_bytes(const struct memory_input *in, double w, bool megatron)
{
	double	 h = (double)in->model.hidden_size;

	if (megatron)
		return 3 + 4 * w / h;
	return 2 + 4 * w / h - quant_saved(in) * (1 + w / h);
}

/*
 * Bytes per s b h of the attention block and the two norms: Megatron's 15
 * (the norms' inputs 4; the QKV GEMM's input 2, Q, K and V 2 each, the
 * projection's input 2, a dropout mask 1).  What runs: the widths of
 * attention_widths(), no dropout mask (mlp_bytes()), and with FP8 the QKV
 * GEMM's input kept in FP8 (1 less) while the projection keeps an FP8
 * copy of the attention output, which FlashAttention keeps in BF16 as
 * well (Q more).
 */
static double
attention_bytes(const struct memory_input *in, bool megatron)
{
	double	 q, kv;

	if (megatron)
		return 15;
	attention_widths(&in->model, &q, &kv);
	return 6 + 4 * q + 4 * kv + (in->fp8 != FP8_NO ?
	    memory_quant_bytes(in->fp8) * q - quant_saved(in) : 0);
}

/*
 * What selective recompute's modules free, bytes per s b h (recomputes()),
 * of what runs (with SP or TP 1): "layernorm" discards each norm's output
 * once the GEMM after it has read it, the QKV GEMM's and the dense fc1's
 * saved input, and has fc1 save that original input rather than a copy
 * (transformer_layer.py core_v0.19.0:450-511): memory_quant_bytes() each;
 * a MoE layer's router and dispatcher keep theirs, not counted as freed.
 * "mlp" keeps the dense MLP's input alone, 2 (normal checkpointing,
 * :512-514).  The others are not counted here: moe_act in
 * expert_act_output(), moe and shared_experts in moe_layer_extra(); core_attn
 * frees nothing of what is counted (the fused kernel keeps no scores);
 * mla_up_proj's Q, K and V are inside Megatron's count that stands for
 * MLA's shapes (attention_widths()), so what it frees is not counted.
 */
static double
attention_kept(const struct memory_input *in)
{
	double	 b = attention_bytes(in, false);

	if (recomputes(in->recompute, in->recompute_modules,
	    RECOMPUTE_LAYERNORM))
		b -= memory_quant_bytes(in->fp8);
	return b;
}

static double
dense_mlp_kept(const struct memory_input *in, double f)
{
	if (recomputes(in->recompute, in->recompute_modules, RECOMPUTE_MLP))
		return 2;
	if (recomputes(in->recompute, in->recompute_modules,
	    RECOMPUTE_LAYERNORM))
		return mlp_bytes(in, f, false) - memory_quant_bytes(in->fp8);
	return mlp_bytes(in, f, false);
}

/*
 * Bytes of activations one transformer layer keeps for the backward pass
 * of one micro-batch (Korthikanti et al., "Reducing Activation
 * Recomputation in Large Transformer Models", Table 2, with Megatron's
 * 4f/h for the MLP width): selective recompute drops the 5as/h of the
 * attention scores, full recompute keeps only the layer's 2sbh input.
 * With SP (sp_count()), what runs of attention_bytes() and mlp_bytes();
 * without, Megatron's fixed count.
 */
static double
layer_activations(const struct memory_input *in, enum recompute rc)
{
	const struct model	*m = &in->model;
	double	 s = (double)in->seq_length / (double)in->layout.cp;
	double	 b = (double)in->micro_batch, h = (double)m->hidden_size;
	double	 a = (double)m->num_attention_heads;
	double	 f = (double)m->ffn_hidden_size, tp = (double)in->layout.tp;
	double	 scores = rc == RECOMPUTE_NONE ? 5 * a * s / h : 0;

	if (rc == RECOMPUTE_FULL)
		return 2 * s * b * h / (in->layout.sp ? tp : 1);
	/* What runs keeps no scores with or without recompute: the fused
	 * attention (Transformer Engine's flash or cuDNN backend, Megatron's
	 * default attention_backend auto) saves Q, K, V, the output and
	 * the softmax's log-sum-exp (s a fp32, counted in attention_bytes()
	 * as a few bytes), never the s x s matrix the 5as/h term counts. */
	if (sp_count(in))
		return s * b * h * (attention_kept(in) +
		    dense_mlp_kept(in, f)) / tp;
	return s * b * h * (10 + 24 / tp + scores / tp);
}

/*
 * Bytes per routed copy the experts' activation output takes, FE/ETP
 * wide: 2 a byte, quantized under FP8 or FP4 (the fc2 GEMM keeps it so,
 * memory_quant_bytes()), none
 * when selective recompute names "moe_act": Megatron wraps the
 * activation in an output-discarding checkpoint, frees its output once
 * fc2 has run and recomputes it from fc1's output in the backward
 * (megatron/core/transformer/moe/experts.py core_v0.19.0:882-893), and
 * with FP8 has fc2 save that original input rather than a quantized copy
 * (set_save_original_input, :268-275), so nothing of it stays; the fused
 * grouped MLP does the same (activation_recompute_in_mlp, :484-533).
 */
static double
expert_act_output(const struct memory_input *in, double fe_etp)
{
	if (in->recompute == RECOMPUTE_SELECTIVE &&
	    (in->recompute_modules & RECOMPUTE_MOE_ACT))
		return 0;
	return memory_quant_bytes(in->fp8) * fe_etp;
}

/*
 * Bytes per routed copy that offloading the fused grouped MLP
 * ("fused_group_mlp") sends to the CPU: each tensor the experts save
 * of at least min_offloaded elements over the GPU's copies
 * (tensor_need_offloading_checker(), megatron/core/pipeline_parallel/
 * fine_grained_activation_offload.py core_v0.19.0:986-1000; the group
 * wraps the fused MLP, moe/experts.py:673-711): fc1's input, D wide (as
 * memory_quant_bytes() keeps it), fc1's output, F1 wide, and the activation's
 * output (expert_act_output()), FE_ETP wide.  The last layer's group is
 * not offloaded, its backward being next (fine_grained_activation_
 * offload.py:1077-1085): offload_kept() counts it.
 */
static double
expert_offloaded(const struct memory_input *in, double d, double f1,
    double fe_etp)
{
	const struct model	*m = &in->model;
	double	 s = (double)in->seq_length / (double)in->layout.cp;
	double	 k = m->moe_router_topk > 0 ? (double)m->moe_router_topk : 1;
	double	 min = in->min_offloaded > 0 ? (double)in->min_offloaded :
	    1024.0 * 1024.0;
	double	 copies, off = 0;

	if (!(in->offload_modules & OFFLOAD_FUSED_GROUP_MLP) ||
	    in->recompute == RECOMPUTE_FULL)
		return 0;
	copies = s * (double)in->micro_batch /
	    (in->layout.sp ? (double)in->layout.tp : 1) * k *
	    (double)in->layout.etp;
	if (copies * d >= min)
		off += memory_quant_bytes(in->fp8) * d;
	if (copies * f1 >= min)
		off += 2 * f1;
	if (copies * fe_etp >= min)
		off += expert_act_output(in, fe_etp);
	return off;
}

/*
 * What a MoE layer keeps beyond a dense one, which Megatron's estimator
 * leaves out (Megatron-LM issue 1784): the dense MLP term of
 * layer_activations() is swapped for the MoE block's.  mbsbatch's own
 * estimate, with routing taken as balanced.  Each GPU holds T tokens (the
 * sequence over CP, and over TP with SP).  The expert mesh routes T x k
 * copies per GPU; each copy reaches the ETP GPUs of its expert, so a GPU
 * keeps T k ETP copies, each with its input and output (4h bytes) and
 * its share of the SwiGLU expert's fc1 output (4 f/ETP) and activation
 * output (expert_act_output()); with FP8 the first grouped GEMM keeps
 * its input in FP8 (h less); less what offloading sends to the CPU
 * (expert_offloaded()).
 * Shared experts are a dense MLP of width shared x f_moe; the router
 * keeps fp32 logits, 4E bytes a token.
 */
static double
moe_layer_extra(const struct memory_input *in)
{
	const struct model	*m = &in->model;
	double	 s = (double)in->seq_length / (double)in->layout.cp;
	double	 b = (double)in->micro_batch, h = (double)m->hidden_size;
	double	 f = (double)m->ffn_hidden_size, tp = (double)in->layout.tp;
	double	 fe = (double)m->moe_ffn_hidden_size;
	double	 fs = (double)m->moe_shared_experts * fe;
	double	 k = m->moe_router_topk > 0 ? (double)m->moe_router_topk : 1;
	double	 etp = (double)in->layout.etp;
	double	 T = s * b / (in->layout.sp ? tp : 1), dense, moe, copy;

	if (in->recompute == RECOMPUTE_FULL)
		return 0;		/* the layer keeps its input only */
	/* The dense MLP inside layer_activations(): mlp_bytes() per s b h
	 * over TP with SP; without SP, Megatron's fixed 3 + 16/TP. */
	if (sp_count(in))
		dense = s * b * h * dense_mlp_kept(in, f) / tp;
	else
		dense = s * b * h * (3 + 16 / tp);
	/* "moe" recomputes the whole layer, which keeps its input alone
	 * (moe_layer.py core_v0.19.0:248, normal checkpointing). */
	if (recomputes(in->recompute, in->recompute_modules, RECOMPUTE_MOE))
		return s * b * h * 2 / (in->layout.sp ? tp : 1) - dense;
	copy = 4 * h + 4 * fe / etp + expert_act_output(in, fe / etp) -
	    quant_saved(in) * h - expert_offloaded(in, h, 2 * fe / etp,
	    fe / etp);
	moe = T * k * etp * copy;
	/* "shared_experts" keeps their input alone (shared_experts.py
	 * :153). */
	if (fs > 0 && recomputes(in->recompute, in->recompute_modules,
	    RECOMPUTE_SHARED_EXPERTS))
		moe += s * b * h * 2 / (in->layout.sp ? tp : 1);
	else if (fs > 0)
		moe += sp_count(in) ? s * b * h * mlp_bytes(in, fs, false) / tp :
		    s * b * h * (3 + 4 * fs / h / tp);
	moe += T * 4 * (double)m->num_experts;
	return moe - dense;
}

/*
 * A hybrid model's layers (hybrid.h), bytes per s b h of one micro-batch,
 * with SP (or TP 1) over TP, else the hidden-size parts whole:
 * - M: the fused norm's input and output (4), in_proj's output zxBCdt
 *   (2 (2 di + 2 G N + H)) and the scan's output before its gate,
 *   out_x (2 di), which mamba_ssm's mamba_split_conv1d_scan_combined
 *   saves (it gates by z itself, and recomputes the convolution and the
 *   chunk states in its backward; Megatron's default
 *   use_mamba_mem_eff_path, mamba_mixer.py core_v0.19.0:755), the norm's
 *   input (2 di) and out_proj's input (2 di);
 *   with FP8 the two GEMM inputs in FP8 (1 + di/h less);
 * - *: attention_bytes() with one norm, not two (2 less);
 * - -: the norm's input (2) and mlp_bytes() of its width;
 * - *, - and E as selective recompute's modules leave them
 *   (attention_kept(), dense_mlp_kept(); E with "moe" its input alone);
 * - E: the norm's input and output (4), the router's fp32 logits (4 E
 *   a token), with a latent size the two projections' inputs (2 h and
 *   2 lat a token), and each routed copy (T k ETP of them a GPU, T the
 *   GPU's tokens) with its input and output at the experts' width d
 *   (4 d) and its share of fc1's output (2 f/ETP, 4 f/ETP gated) and
 *   of the activation's (expert_act_output()); FP8: d less; less what
 *   offloading sends to the CPU, expert_offloaded()), and the
 *   shared experts' fc1 output and activation (4 or 6 fs/h).
 * Megatron's own estimator has no formula for hybrid models
 * (theoretical_memory_usage.py core_v0.19.0:457-459): these are
 * mbsbatch's.
 */
static double
hybrid_bytes(const struct memory_input *in, char kind)
{
	const struct model	*m = &in->model;
	double	 h = (double)m->hidden_size, tp = (double)in->layout.tp;
	double	 di = (double)hybrid_mamba_inner(m);
	double	 gn = (double)(m->mamba_num_groups * m->mamba_state_dim);
	double	 nh = (double)hybrid_mamba_heads(m);
	double	 lat = (double)m->moe_latent_size, d = lat > 0 ? lat : h;
	double	 fe = (double)m->moe_ffn_hidden_size, etp = (double)in->layout.etp;
	double	 fs = (double)m->moe_shared_experts * fe;
	double	 k = m->moe_router_topk > 0 ? (double)m->moe_router_topk : 1;
	double	 act = MODEL_GATED(m) ? 6 : 4, outer, inner, copy;
	double	 q = quant_saved(in);

	switch (kind) {
	case 'M':
		outer = 4 - q;
		inner = (2 * (2 * di + 2 * gn + nh) + 6 * di - q * di) / h;
		break;
	case '*':
		return (attention_kept(in) - 2) / tp;
	case '-':
		return (2 + dense_mlp_kept(in, (double)m->ffn_hidden_size)) /
		    tp;
	default:
		/* "moe" keeps the layer's input, the norm's output, and the
		 * norm's input (moe_layer.py core_v0.19.0:694-707). */
		if (recomputes(in->recompute, in->recompute_modules,
		    RECOMPUTE_MOE))
			return 4 / (sp_count(in) ? tp : 1);
		copy = 4 * d + (act - 2) * fe / etp +
		    expert_act_output(in, fe / etp) - q * d -
		    expert_offloaded(in, d, (act - 2) / 2 * fe / etp,
		    fe / etp);
		outer = 4 + 4 * (double)m->num_experts / h +
		    (lat > 0 ? 2 + 2 * lat / h : 0) + act / 2 * fs / h;
		/* The copies: T k ETP per GPU, T = s b / TP with SP. */
		inner = k * etp * copy / h;
		return (outer + inner) / (sp_count(in) ? tp : 1);
	}
	return (sp_count(in) ? outer / tp : outer) + inner / tp;
}

/*
 * The activations one micro-batch of the first pipeline stage's layers
 * keeps, times PP (the layers' worth pipeline_factor() scales, as
 * layer_activations() x num_layers does for a transformer), in bytes.
 * FULL recompute keeps each layer's input; MAX, when not NULL, gets the
 * largest layer's without recompute (the one recomputed at a time).
 */
static double
hybrid_stack(const struct memory_input *in, enum recompute rc, double *max)
{
	const struct model	*m = &in->model;
	struct hybrid_counts	 c;
	double	 s = (double)in->seq_length / (double)in->layout.cp;
	double	 sbh = s * (double)in->micro_batch * (double)m->hidden_size;
	double	 pp = (double)in->layout.pp, sum;

	if (hybrid_stage(m->hybrid_pattern, in->layout.pp, 0, 0, 0, &c) !=
	    NULL) {
		/* An uneven or unsplittable pattern: the average stage. */
		(void)hybrid_parse(m->hybrid_pattern, &c);
		pp = 1;
	}
	if (max != NULL) {
		*max = 0;
		if (c.mamba > 0)
			*max = fmax(*max, hybrid_bytes(in, 'M'));
		if (c.attention > 0)
			*max = fmax(*max, hybrid_bytes(in, '*'));
		if (c.mlp > 0)
			*max = fmax(*max, hybrid_bytes(in, '-'));
		if (c.moe > 0)
			*max = fmax(*max, hybrid_bytes(in, 'E'));
		*max *= sbh;
	}
	if (rc == RECOMPUTE_FULL)
		return 2 * sbh / (in->layout.sp ? (double)in->layout.tp : 1) *
		    (double)c.layers * pp;
	sum = (double)c.mamba * hybrid_bytes(in, 'M') +
	    (double)c.attention * hybrid_bytes(in, '*') +
	    (double)c.mlp * hybrid_bytes(in, '-') +
	    (double)c.moe * hybrid_bytes(in, 'E');
	return sum * sbh * pp;
}

/*
 * Micro-batches the first stage holds, in layers' worth.  In 1F1B, PP
 * micro-batches of L/PP layers (fewer with fewer micro-batches).  With
 * the interleaved schedule, the first stage runs 2(PP - 1) + (VPP - 1)PP
 * chunks of L/(PP VPP) layers before its first backward and holds one
 * more, but never more than the step's M x VPP chunks (megatron/core/
 * pipeline_parallel/schedules.py:964-977, one more with the MoE
 * all-to-all overlap): Megatron's 1 + (PP - 1)/(PP VPP) with enough
 * micro-batches.
 */
static double
pipeline_factor(const struct memory_input *in)
{
	double	 pp = (double)in->layout.pp, vpp = (double)in->layout.vpp;
	double	 chunks;

	if (in->layout.vpp > 1) {
		chunks = 2 * (pp - 1) + (vpp - 1) * pp + 1 +
		    (in->moe_a2a_overlap ? 1 : 0);
		if (in->num_microbatches > 0)
			chunks = fmin(chunks,
			    (double)in->num_microbatches * vpp);
		return chunks / (pp * vpp);
	}
	if (in->layout.pp > 1 && in->num_microbatches > 0)
		return fmin(1, (double)in->num_microbatches / pp);
	return 1;
}

/*
 * The same for the last stage, which holds fewer: in 1F1B one
 * micro-batch (it runs each backward right after its forward); with
 * the interleaved schedule its warm-up of (VPP - 1) PP chunks and one
 * more (schedules.py get_schedule_table(): the last rank's warm-up,
 * PP - rank - 1 doubled plus (VPP - 1) PP, is (VPP - 1) PP).
 */
static double
last_stage_factor(const struct memory_input *in)
{
	double	 pp = (double)in->layout.pp, vpp = (double)in->layout.vpp;
	double	 chunks = (vpp - 1) * pp + 1;

	if (in->num_microbatches > 0)
		chunks = fmin(chunks, (double)in->num_microbatches * vpp);
	return chunks / (pp * vpp);
}

/* The MoE layers' change to the first stage's activations. */
static double
moe_activations(const struct memory_input *in)
{
	const struct model	*m = &in->model;

	if (m->kind != MODEL_KIND_MOE || m->hybrid_pattern != NULL)
		return 0;
	return moe_layer_extra(in) * (double)(m->num_layers -
	    m->moe_dense_layers) * pipeline_factor(in) *
	    (sp_count(in) ? 1 : 1.05);
}

/*
 * The last stage's activations with PP > 1, from the first stage's
 * layers (LAYERS: all the model's at one micro-batch each), its one
 * recomputed layer (FULL) and MoE change (MOE, at the first stage's
 * share PF): the last stage's share of the layers (last_stage_factor())
 * and the loss's fp32 logits of the micro-batch it runs, 4 s b V / TP
 * bytes (megatron/core/tensor_parallel/cross_entropy.py
 * calculate_logits_max() casts the logits to float and the softmax is
 * kept for the backward), which Megatron's estimator counts only with
 * PP 1 and which grow with the micro-batch: at large micro-batches the
 * last stage, not the first, is the fullest.
 */
static double
last_stage_activations(const struct memory_input *in, double layers,
    double full, double moe, double pf)
{
	const struct layout	*l = &in->layout;
	double	 s = (double)in->seq_length / (double)l->cp;
	double	 b = (double)in->micro_batch, tp = (double)l->tp;
	double	 act, f = last_stage_factor(in);

	act = layers * f + full + 4 * s * b * (double)in->model.vocab_size / tp;
	if (!sp_count(in))
		act *= 1.05;
	return act + moe * f / pf;
}

/*
 * The one MoE layer whose offloaded tensors stay on the GPU (expert_
 * offloaded()), in bytes: its T k ETP routed copies.
 */
static double
offload_kept(const struct memory_input *in)
{
	const struct model	*m = &in->model;
	double	 s = (double)in->seq_length / (double)in->layout.cp;
	double	 k = m->moe_router_topk > 0 ? (double)m->moe_router_topk : 1;
	double	 fe = (double)m->moe_ffn_hidden_size;
	double	 etp = (double)in->layout.etp, d = (double)m->hidden_size;
	double	 f1 = (MODEL_GATED(m) ? 2 : 1) * fe / etp;

	if (m->num_experts == 0 || m->moe_ffn_hidden_size == 0)
		return 0;
	if (m->hybrid_pattern != NULL && m->moe_latent_size > 0)
		d = (double)m->moe_latent_size;
	if (m->hybrid_pattern == NULL)
		f1 = 2 * fe / etp;	/* moe_layer_extra(): SwiGLU */
	return s * (double)in->micro_batch / (in->layout.sp ?
	    (double)in->layout.tp : 1) * k * etp *
	    expert_offloaded(in, d, f1, fe / etp);
}

/*
 * Activations on the first pipeline stage, Megatron's
 * theoretical_memory_usage.py: in 1F1B the first stage holds PP
 * micro-batches of L/PP layers, so L layers in all (fewer when there are
 * fewer micro-batches; more with VPP), plus the embedding's output and,
 * with PP 1, the output layer's logits.  Two changes: the sequence is
 * split over CP, and a fully recomputed stage adds the one layer it
 * recomputes at a time.  MOE is moe_activations().  With PP > 1, the
 * last stage's when it holds more (last_stage_activations()).
 */
static double
activations(const struct memory_input *in, double moe)
{
	const struct layout	*l = &in->layout;
	const struct model	*m = &in->model;
	double	 s = (double)in->seq_length / (double)l->cp;
	double	 b = (double)in->micro_batch, h = (double)m->hidden_size;
	double	 v = (double)m->vocab_size, tp = (double)l->tp;
	double	 pp = (double)l->pp, act, layers, full;
	double	 pf = pipeline_factor(in);

	if (m->hybrid_pattern != NULL)
		layers = hybrid_stack(in, in->recompute, &full);
	else {
		layers = layer_activations(in, in->recompute) *
		    (double)m->num_layers;
		full = layer_activations(in, RECOMPUTE_NONE);
	}
	act = (layers + (8 * s * b * pp + s * b * h * pp) / (l->sp ? tp : 1)) *
	    pf;
	if (in->recompute == RECOMPUTE_FULL)
		act += full;
	else
		full = 0;
	if (sp_count(in)) {
		if (l->pp == 1)
			act += s * b * h * 4 * (1 + v / h) / tp;
	} else {
		if (l->pp == 1)
			act += (s * b * v / tp + s * b * h) * 2;
		act *= 1.05;
	}
	act += moe;
	if (l->pp > 1)
		act = fmax(act, last_stage_activations(in, layers, full, moe,
		    pf));
	return act + offload_kept(in);
}

/*
 * What attention_bytes() and mlp_bytes() take off Megatron's count over
 * the stage's layers, in bytes: attention in every layer, the dense MLP
 * in dense layers (a MoE layer's MLP is in moe_activations()).
 */
static double
dense_saving(const struct memory_input *in)
{
	const struct model	*m = &in->model;
	double	 s = (double)in->seq_length / (double)in->layout.cp;
	double	 b = (double)in->micro_batch, h = (double)m->hidden_size;
	double	 f = (double)m->ffn_hidden_size, tp = (double)in->layout.tp;
	double	 dense = (double)m->num_layers;

	if (in->recompute == RECOMPUTE_FULL || !sp_count(in) ||
	    m->hybrid_pattern != NULL)
		return 0;
	if (m->kind == MODEL_KIND_MOE)
		dense = (double)m->moe_dense_layers;
	return pipeline_factor(in) * s * b * h / tp * ((double)m->num_layers *
	    (attention_bytes(in, true) - attention_bytes(in, false)) +
	    dense * (mlp_bytes(in, f, true) - mlp_bytes(in, f, false)));
}

/*
 * The worked example of the parallelism-strategies skill (docs/
 * megatron-rules.md section 6): fp16 weights and gradients, 2 bytes each
 * per parameter; Adam's moments, 4; and activations of 48 GB for 70B
 * parameters at micro-batch 1 and sequence 4096, taken as proportional to
 * parameters, micro-batch and sequence.  Every term is divided by TP x PP:
 * no optimizer sharding, no gain from SP or CP.  A rule of thumb, kept
 * because people check a plan against it; P is the published count.
 */
static const char *
skill_estimate(const struct memory_input *in, double P,
    struct memory_estimate *out)
{
	double	 split = (double)in->layout.tp * (double)in->layout.pp;
	double	 act;

	act = 48e9 * (P / 70e9) * (double)in->micro_batch *
	    ((double)in->seq_length / 4096);
	out->model_params = P;
	out->params = P / split;
	out->expert_params = 0;
	out->params_gib = 2 * out->params / GIB;
	out->grads_gib = 2 * out->params / GIB;
	out->optimizer_gib = 4 * out->params / GIB;
	out->activations_gib = act / split / GIB;
	out->total_gib = out->params_gib + out->grads_gib + out->optimizer_gib +
	    out->activations_gib;
	out->moe_activations_gib = 0;
	return NULL;
}

/*
 * LoRA adapters on one layer: each target linear, IN features to OUT,
 * gets A (IN x rank) and B (rank x OUT), ParallelLinearAdapter's
 * linear_in and linear_out (Megatron-Bridge peft/utils.py: 0.6.0
 * 1006-1055), both split over TP (a row- or column-parallel linear_in,
 * a column-parallel linear_out).  The targets (peft/lora.py:101-104)
 * are linear_qkv (h to the Q, K, V widths), linear_proj (the attention
 * output to h), linear_fc1 (h to the gated MLP's two halves) and
 * linear_fc2 (the MLP width to h); a MoE layer's experts share one
 * adapter (share_expert_adapters, 0.6.0 lora.py:114), of the expert width.
 */
double
memory_lora_layer_params(const struct model *m, const struct lora *lora)
{
	double	 h = (double)m->hidden_size, q, kv, f, r = (double)lora->rank;
	double	 n = 0;

	if (lora->rank == 0 || h == 0)
		return 0;
	attention_widths(m, &q, &kv);
	f = (double)(m->kind == MODEL_KIND_MOE && m->moe_ffn_hidden_size != 0 ?
	    m->moe_ffn_hidden_size : m->ffn_hidden_size);
	if (lora->targets & LORA_QKV)
		n += h + h * (q + 2 * kv);
	if (lora->targets & LORA_PROJ)
		n += h * q + h;
	if (lora->targets & LORA_FC1)
		n += h + 2 * f;
	if (lora->targets & LORA_FC2)
		n += f + h;
	return n * r;
}

/*
 * Bytes per parameter: weights 2 (bf16, fp16) or 4 (fp32), 1 gathered
 * in FP8, memory_quant_bytes() in NVFP4 (Bridge's bf16_with_nvfp4_mixed
 * sets fp4_param_gather: mixed_precision.py:415 at v0.6.0); gradient
 * buffers 4 (fp32) or 2; optimizer state: an fp32 master copy (none when
 * the weights are fp32 already) and Adam's two moments, 4 bytes each or 2.
 */
static void
dtype_bytes(const struct memory_input *in, struct memory_estimate *out)
{
	bool	 fp32_weights = in->params_dtype == PRECISION_FP32;

	out->params_bytes = in->fp8_params ? (in->fp8 == FP8_NVFP4 ?
	    memory_quant_bytes(in->fp8) : 1) : fp32_weights ? 4 : 2;
	out->grads_bytes = in->grads_dtype == PRECISION_BF16 ||
	    in->grads_dtype == PRECISION_FP16 ? 2 : 4;
	out->optimizer_bytes = (fp32_weights ? 0 : 4) + 2 *
	    (in->optimizer_dtype == PRECISION_BF16 ||
	    in->optimizer_dtype == PRECISION_FP16 ? 2 : 4);
}

/*
 * Megatron-FSDP (megatron/core/distributed/fsdp/, its param_and_grad_
 * buffer): OPTIM_GRADS keeps 1/(DP x CP) of the dense gradients and
 * 1/EDP of the experts' (the shards the optimizer state has),
 * OPTIM_GRADS_PARAMS the weights too.  A sharded state still keeps the
 * whole of two FSDP units, a layer or the embedding: the weights of the
 * unit computed and of the one prefetched (Bridge's FSDP recipes double-
 * buffer them, fsdp_double_buffer), the gradients of the unit computed
 * and of the one being reduce-scattered.  Never more than unsharded.
 * With HSDP (in->fsdp_outer replicas, outer_dp_sharding_strategy
 * "optim"), the weights and gradients shard within a replica only: over
 * DP x CP / replicas, and the experts' over EDP / replicas, the intra-
 * partial expert DP group (megatron/core/parallel_state.py core_v0.19.0:
 * 1447-1451); the optimizer state still over all of DP ("HFSDP = Fully-
 * Sharded Optimizer State + HSDP", megatron/core/distributed/fsdp/src/
 * README.md:96).
 */
static void
fsdp_shard(const struct memory_input *in, double dense, double unit,
    double dense_shards, double expert_shards, struct memory_estimate *out)
{
	double	 outer = in->fsdp_outer > 1 ? (double)in->fsdp_outer : 1;
	double	 sharded = dense / fmax(1, dense_shards / outer) +
	    out->expert_params / fmax(1, expert_shards / outer) + 2 * unit;

	if (sharded > out->params)
		sharded = out->params;
	if (in->fsdp == FSDP_OPTIM_GRADS || in->fsdp == FSDP_OPTIM_GRADS_PARAMS)
		out->grads_gib = out->grads_bytes * sharded / GIB;
	if (in->fsdp == FSDP_OPTIM_GRADS_PARAMS) {
		out->params_gib = out->params_bytes * sharded / GIB;
		out->fsdp_gathered_gib = out->params_bytes *
		    (2 * unit < sharded ? 2 * unit : sharded) / GIB;
	}
}

/*
 * A hybrid model's weights on the most loaded pipeline rank (hybrid_
 * stage(): its layers; the first rank the embedding, the last the final
 * norm and the output layer, both with PP 1), the TP-sharded part in
 * *SHARD and the routed experts, over EP x ETP, in OUT->expert_params;
 * a latent MoE's two projections are duplicated over TP (TELinear
 * parallel_mode "duplicated", moe_layer.py core_v0.19.0:273-296).
 * *UNIT: the largest FSDP unit, a layer or the embedding, on a GPU.
 */
static void
hybrid_weights(const struct memory_input *in, double *shard, double *unit,
    struct memory_estimate *out)
{
	const struct model	*m = &in->model;
	const struct layout	*l = &in->layout;
	struct hybrid_counts	 c;
	struct hybrid_params	 p;
	double	 h = (double)m->hidden_size, tp = (double)l->tp;
	double	 emb = h * (double)m->vocab_size / tp;
	double	 mesh = (double)l->ep * (double)l->etp;
	double	 dup = m->moe_latent_size > 0 ?
	    2 * h * (double)m->moe_latent_size : 0;
	double	 dense, experts, best = -1;
	int64_t	 r, pp = l->pp;

	hybrid_layer_params(m, &p);
	out->model_params = hybrid_model_params(m, false);
	if (hybrid_stage(m->hybrid_pattern, pp, 0, 0, 0, &c) != NULL)
		pp = 1;		/* unsplittable: judged by rules-hybrid.c */
	for (r = 0; r < pp; r++) {
		if (pp == 1)
			(void)hybrid_parse(m->hybrid_pattern, &c);
		else
			(void)hybrid_stage(m->hybrid_pattern, pp, r, 0, 0, &c);
		dense = ((double)c.mamba * p.mamba + (double)c.attention *
		    p.attention + (double)c.mlp * p.mlp + (double)c.moe *
		    (p.moe - dup)) / tp + (double)c.moe * dup;
		experts = (double)c.moe * p.experts / mesh;
		if (l->pp != pp) {
			/* The average stage's share. */
			dense /= (double)l->pp;
			experts /= (double)l->pp;
		}
		if (r == 0)
			dense += emb;
		/* The last stage's output layer, which with PP > 1 keeps
		 * its own copy of a tied embedding. */
		if (r == pp - 1)
			dense += h + (m->tied_embeddings && l->pp == 1 ? 0 :
			    emb);
		if (dense + experts > best) {
			best = dense + experts;
			*shard = dense;
			out->expert_params = experts;
		}
	}
	out->params = *shard + out->expert_params;
	*unit = fmax(fmax(p.mamba, p.attention) / tp, emb);
	*unit = fmax(*unit, (p.moe - dup) / tp + dup + p.experts / mesh);
}

const char *
memory_estimate(const struct memory_input *in, struct memory_estimate *out)
{
	const struct model	*m = &in->model;
	const struct layout	*l = &in->layout;
	double			 h = (double)m->hidden_size, L, moe_L, dense_L;
	double			 attn, dense_layer, moe_tp, moe_exp, emb, block;
	double			 exp_block, mtp_tp, mtp_exp, shard, tp, pp;
	double			 bpp_dense, bpp_exp, moe, unit;
	double			 dense_shards, expert_shards, hybrid_unit;
	bool			 dist = in->distributed_optimizer ||
	    in->fsdp != FSDP_OFF;

	memset(out, 0, sizeof *out);
	if (in->seq_length == 0)
		return "needs the sequence length (--seq-length)";
	if (in->method == MEMORY_SKILL && m->params > 0)
		return skill_estimate(in, (double)m->params, out);
	if (in->method == MEMORY_SKILL && (m->num_layers == 0 ||
	    m->hidden_size == 0 || m->vocab_size == 0))
		return "needs the parameter count (--params or --model)";
	if (m->num_layers == 0 || m->hidden_size == 0 ||
	    m->num_attention_heads == 0 || m->vocab_size == 0 ||
	    m->ffn_hidden_size == 0)
		return "needs the layer count, hidden size, attention heads, "
		    "vocabulary and MLP width (--model, or the architecture "
		    "options)";
	if (m->kind == MODEL_KIND_MOE && (m->num_experts == 0 ||
	    m->moe_ffn_hidden_size == 0))
		return "needs the expert count and expert width of this MoE "
		    "model";

	L = (double)m->num_layers;
	moe_L = m->kind == MODEL_KIND_MOE ? L - (double)m->moe_dense_layers : 0;
	dense_L = L - moe_L;
	attn = attention_params(m);
	dense_layer = 2 * h * ((double)m->ffn_hidden_size * GATED +
	    NORM_SIZE) + attn + mlp_bias(m, (double)m->ffn_hidden_size);
	/* A MoE layer: attention, norms, router and shared experts go with
	 * TP; routed experts with EP x ETP.  The router's bias is one per
	 * expert (router.py:67). */
	moe_tp = 2 * h * ((double)(m->moe_shared_experts *
	    m->moe_ffn_hidden_size) * GATED + NORM_SIZE) + attn +
	    (h + (m->linear_bias ? 1 : 0)) * (double)m->num_experts +
	    mlp_bias(m, (double)(m->moe_shared_experts *
	    m->moe_ffn_hidden_size));
	moe_exp = (2 * h * (double)m->moe_ffn_hidden_size * GATED +
	    mlp_bias(m, (double)m->moe_ffn_hidden_size)) *
	    (double)m->num_experts;
	emb = h * (double)m->vocab_size;
	block = dense_layer * dense_L + moe_tp * moe_L + NORM_SIZE * h;
	exp_block = moe_exp * moe_L;
	/* MTP layers sit on the last stage, like the last layer's kind. */
	mtp_tp = (double)m->mtp_layers * (moe_L > 0 ? moe_tp : dense_layer);
	mtp_exp = (double)m->mtp_layers * (moe_L > 0 ? moe_exp : 0);
	out->model_params = block + exp_block + mtp_tp + mtp_exp +
	    emb * (m->tied_embeddings ? 1 : 2);

	tp = (double)l->tp;
	pp = (double)l->pp;
	shard = (block / pp + mtp_tp + emb) / tp;
	if (!m->tied_embeddings && l->pp == 1)
		shard += emb / tp;
	out->expert_params = (exp_block / pp + mtp_exp) /
	    ((double)l->ep * (double)l->etp);
	out->params = shard + out->expert_params;
	hybrid_unit = 0;
	if (m->hybrid_pattern != NULL)
		hybrid_weights(in, &shard, &hybrid_unit, out);

	/* By default bf16 weights, fp32 gradients, fp32 master weights and
	 * Adam m, v: 2 + 4 + 12 bytes.  The distributed optimizer shards the
	 * dense state over DP x CP, the intra_dp_cp_group (megatron/core/
	 * optimizer/__init__.py:934; Megatron's estimator takes DP alone),
	 * and the experts' over EDP. */
	dtype_bytes(in, out);
	dense_shards = dist && in->dp > 0 ? (double)in->dp * (double)l->cp : 1;
	expert_shards = dist && in->edp > 0 ? (double)in->edp : 1;
	bpp_dense = out->optimizer_bytes / dense_shards;
	bpp_exp = out->optimizer_bytes / expert_shards;
	if (in->lora.rank != 0) {
		/*
		 * LoRA: Bridge freezes every base weight (peft/base.py
		 * freeze_model, 0.6.0:190: requires_grad False), and
		 * Megatron-Core's DDP buffers gradients only of parameters
		 * that require one (core/distributed/distributed_data_
		 * parallel.py, core_v0.19.0:115, main d98e8a64:180), its
		 * optimizer keeps a master copy and moments only of those
		 * (core/optimizer/__init__.py, core_v0.19.0:330, main 332):
		 * the adapters, on the first stage's share of the layers.
		 */
		out->adapter_params = memory_lora_layer_params(m, &in->lora) *
		    ceil(L / pp) / tp;
		out->params += out->adapter_params;
		out->params_gib = out->params_bytes * out->params / GIB;
		out->grads_gib = out->grads_bytes * out->adapter_params / GIB;
		out->optimizer_gib = out->adapter_params * bpp_dense / GIB;
	} else {
		out->params_gib = out->params_bytes * out->params / GIB;
		out->grads_gib = out->grads_bytes * out->params / GIB;
		out->optimizer_gib = (shard * bpp_dense + out->expert_params *
		    bpp_exp) / GIB;
	}
	if (in->fsdp != FSDP_OFF && in->lora.rank == 0) {
		/* The largest FSDP unit on this GPU. */
		unit = (dense_L > 0 ? dense_layer : 0) / tp;
		if (moe_L > 0 && moe_tp / tp + moe_exp / ((double)l->ep *
		    (double)l->etp) > unit)
			unit = moe_tp / tp + moe_exp / ((double)l->ep *
			    (double)l->etp);
		if (emb / tp > unit)
			unit = emb / tp;
		if (m->hybrid_pattern != NULL)
			unit = hybrid_unit;
		fsdp_shard(in, shard, unit, dense_shards, expert_shards, out);
	}

	moe = moe_activations(in);
	out->activations_gib = activations(in, moe) / GIB;
	out->moe_activations_gib = moe / GIB;
	out->dense_saving_gib = dense_saving(in) / GIB;
	out->total_gib = out->params_gib + out->grads_gib + out->optimizer_gib +
	    out->activations_gib;
	if (in->method == MEMORY_SKILL)
		return skill_estimate(in, out->model_params, out);
	return NULL;
}
