/*
 * cost.c: the step-time model of cost.h.  docs/cost-model.md explains
 * every term and constant and where it comes from.  The constants marked
 * "fitted" here and gpu.c's efficiencies were fitted to Megatron-Bridge's
 * published runs; tests/unit/check_perf.c recomputes every run and fails
 * when the fit degrades.  Megatron file:line references are at
 * Megatron-LM d98e8a64.
 */
#include <math.h>
#include <string.h>

#include "cost.h"
#include "flops.h"
#include "hybrid.h"

/* A GEMM dimension of GEMM_HALF runs at half the efficiency of a large
 * one: each of M, N, K scales the efficiency by x / (x + GEMM_HALF)
 * (tiles of 128 to 256 leave small dimensions partly idle, and FP8's
 * casts cost per element, not per FLOP).  Fitted. */
#define GEMM_HALF	487.0
/* The same for fused attention's query chunk. */
#define ATTN_HALF	256.0
/* Bytes of elementwise work per token and layer, forward and backward,
 * per unit of hidden width (norms, residuals, RoPE, the bias-free
 * dropout-free adds) and of MLP width (SwiGLU), and what FP8 adds per
 * unit of every GEMM input (the cast to FP8 and its transpose). */
#define ELEM_H		48.0
#define ELEM_F		16.0
#define ELEM_Q		8.0
/* NVFP4's passes per unit of every GEMM input, counted as ELEM_Q is (the
 * bf16 input read, its quantized rowwise and columnwise copies written,
 * forward for the input and backward for its gradient): the columnwise
 * copy goes through a 16-point random Hadamard transform first
 * (Transformer Engine's NVFP4BlockScaling recipe, for the weight
 * gradient's inputs), a pass of its own that reads the bf16 input again;
 * each copy is 4 bits an element and an E4M3 scale per 16 (memory.c
 * memory_quant_bytes()): 2 x (2 + 2 + 2 x 0.5625).  A count, not a
 * fit. */
#define ELEM_Q4		10.25
/* Bytes a recomputed forward pass moves per element, selective
 * recompute's output-discarding modules (memory.h): a norm reads its bf16
 * input and writes its output (2 + 2), the experts' activation reads
 * fc1's output, two halves when gated, and writes its own (2 x 2 + 2).
 * Counts, not fits. */
#define NORM_FWD	4.0
#define ACT_FWD_GATED	6.0
#define ACT_FWD		4.0
/* Bytes the optimizer moves per parameter of its shard: fp32 master,
 * Adam's two moments read and written, the gradient read, the bf16
 * weight written, the gradient norm's read. */
#define OPT_BYTES	38.0
/* Bytes of the fused cross entropy per logit (bf16 logits written and
 * read back, fp32 softmax statistics, the gradient). */
#define LOSS_BYTES	10.0
/* What a collective achieves of the link's bandwidth (NCCL's bus
 * bandwidth against the link's), and an all-to-all by dispatcher (the
 * alltoall one fitted, bounded at 0.9; DeepEP's and HybridEP's not: no
 * published run names its dispatcher). */
#define COLL_EFF	0.80
#define A2A_EFF		0.90
#define DEEPEP_EFF	0.92
#define HYBRIDEP_EFF	0.95
/* Of a communication overlapped with compute, the share that stays on
 * the critical path anyway (the first chunk, the kernels' contention).
 * Fitted. */
#define OVERLAP_LEFT	0.01
/* The alltoall dispatcher waits for the token counts on the host once
 * per MoE layer forward and backward (megatron/core/transformer/moe/
 * token_dispatcher.py:921-958 moves them to the CPU and synchronizes):
 * the GPU idles through the copy, the sync and the next launches,
 * seconds per MoE layer and micro-batch.  DeepEP and HybridEP wait too,
 * unless HybridEP has a static budget (moe_sync()).  Fitted on the
 * alltoall runs (2.1 ms alone, before MOE_HOST_S). */
#define MOE_SYNC_S	2.0e-3
/* After that sync the GPU runs no faster than the host issues the
 * layer's kernels (Python, Transformer Engine, the permutations and the
 * grouped GEMMs' setup: hundreds of launches forward and backward), so
 * a MoE layer takes at least this long a micro-batch, however few its
 * tokens: small micro-batches are host-bound, large ones are not.  Half
 * of it is the layer's own, half grows with the GPU's local experts:
 * Transformer Engine's grouped GEMM is one cuBLAS GEMM per expert on
 * round-robin streams (transformer_engine/pytorch/csrc/extensions/
 * gemm.cpp te_general_grouped_gemm(): "For now, we only have
 * multi-stream cublas backend"), forward, dgrad and wgrad of both expert
 * linears, each with its FP8 casts.  MOE_HOST_S is the floor at
 * MOE_FLOOR_EXPERTS local experts (Qwen3-30B-A3B at EP 8).  Fitted with
 * MOE_SYNC_S (a grid over the fixed share 0.3-0.7: 0.4-0.5 best;
 * docs/cost-model.md). */
#define MOE_HOST_S	12.0e-3
#define MOE_FLOOR_EXPERTS 16.0
#define MOE_FLOOR_FIXED	0.5
/* CUDA graphs replay captured kernels without the host issuing them
 * (megatron/core/transformer/cuda_graphs.py; TE's make_graphed_callables
 * for cuda_graph_impl "transformer_engine").  Per-layer graphs with the
 * recipes' scope (attention, router, preprocess: Megatron-Bridge 067f987d
 * perf_recipes/deepseek/common.py:83) capture what comes before the
 * dispatcher's sync; what comes after it, the host-bound part (dispatch,
 * experts, combine), runs eagerly (transformer_layer.py:1375-1390), so
 * the floor stays.  A full-iteration graph replays the whole step: no
 * host launches, no sync; a MoE layer still takes MOE_GRAPHED_S a
 * micro-batch at least.  Fitted with MOE_HOST_S (grid 0-12 ms: 8 ms
 * best); that a replay keeps two thirds of the floor says the floor is
 * not all the host's (docs/cost-model.md). */
#define MOE_GRAPHED_S	8.0e-3
/* Of Megatron-FSDP's per-layer gathers and reduce-scatters, the share
 * that stays on the critical path though they run beside the layers'
 * compute: each layer waits for its gather, and NCCL's kernels take SMs
 * from the GEMMs (unlike the TP overlap's userbuffers, OVERLAP_LEFT).
 * Fitted on the 14 published FSDP runs (Llama 3 70B on 64 GB200 and
 * GB300, 8B on 8 H100, 3.1 405B on 128 GB200: check_perf, each with its
 * release's settings): over 0.3-0.7 their median |err| is 11-6% and the
 * worst 23-25% (the 8B rows fall as the 70B rows rise; the 8B runs'
 * recompute of 5 of 32 layers counts as full), all 178 fitted rows'
 * 6.9-6.1%; 0.5, half: 8% and 24%, 6.2%. */
#define FSDP_LEFT	0.5
/* The DDP bucket the job sets (launchenv.c: 128 Mi parameters): the
 * last one's reduce is exposed. */
#define DP_BUCKET	134217728.0
/* The fixed cost of a NCCL collective (alpha of alpha-beta): a base
 * latency plus one per ring step, NVLink or network (NCCL
 * src/graph/tuning.cc baseLat and hwLat, Ring, Simple protocol:
 * 8.4 us, 3.4 us per NVLink step, 14 us per network step).  An
 * all-to-all or a P2P exchange counts as the steps to its peers. */
#define NCCL_BASE_S	8.4e-6
#define NCCL_NVLINK_S	3.4e-6
#define NCCL_NET_S	14.0e-6
/* The host's cost of one schedule step of a pipeline stage: each
 * virtual stage's forward or backward of a micro-batch is its own call
 * (megatron/core/pipeline_parallel/schedules.py
 * forward_backward_pipelining_with_interleaving(): forward_step_helper()
 * and backward_step_helper() per chunk), the Python and kernel launches
 * of which the GPU waits for when the schedule has synchronized the
 * device before it (schedule_steps()): seconds per step.  Fitted. */
#define CHUNK_S		0.75e-3
#define BF16		2.0
#define FWD_BWD_FLOPS	6.0	/* 3 GEMMs of 2 FLOPs a multiply-add */

const char *const cost_term_names[COST_NTERMS] = {
	"compute", "bubble", "tp", "cp", "ep", "etp", "pp", "dp",
	"attention", "moe", "output", "recompute", "optimizer"
};

/* Precision classes of gpu.h's gemm_eff[]. */
enum { PREC_BF16, PREC_FP8, PREC_MXFP8, PREC_NVFP4 };

int
cost_precision(enum fp8_recipe r)
{
	switch (r) {
	case FP8_NO:	return PREC_BF16;
	case FP8_MXFP8:	return PREC_MXFP8;
	case FP8_NVFP4:	return PREC_NVFP4;
	default:	return PREC_FP8;
	}
}

/* The dispatcher's host sync per MoE layer and micro-batch
 * (MOE_SYNC_S), whatever the dispatcher: the alltoall and allgather
 * ones move the token counts to the CPU; DeepEP's dispatch returns them
 * as a host list (fused_a2a.py:113, :138); HybridEP, without a static
 * budget of permuted tokens (moe_expert_rank_capacity_factor), sizes its
 * buffers from them on the host (token_dispatcher.py:1045, :1111-1112,
 * :1173).  Per-layer graphs keep it: with moe_preprocess graphed the
 * token counts' copy starts earlier but the all-to-all still waits for
 * it (token_dispatcher.py:466-470 moves the sync point to
 * before_ep_alltoall).  A full-iteration graph holds no host sync: the
 * step is one replay, and the recipes that capture one give HybridEP
 * and DeepEP the static budget with it (Megatron-Bridge v0.5.0
 * scripts/performance/configs/{deepseek,qwen,gpt_oss}/MODEL_llm_pretrain.py
 * set_full_iter_cg_configs()). */
static double
moe_sync(const struct sizing_input *in)
{
	return in->cuda_graphs == CUDA_GRAPH_FULL_ITERATION ? 0 : MOE_SYNC_S;
}

/* The micro-batch time of one pipeline stage, by term. */
struct stage {
	double	 t[COST_NTERMS];
	double	 compute;	/* every compute term: what hides comm */
	double	 total;
};

/* What every stage shares: shapes, rates, per-layer times. */
struct ctx {
	const struct sizing_input *in;
	const struct sizing	*s;
	const struct cost_hw	*hw;
	struct flops		 f;
	double	 tp, cp, ep, etp, tc, t;	/* tokens: per CP rank, per GPU */
	double	 peak, eff;		/* GEMM rate at the precision */
	int	 prec;
	int64_t	 domain;
	/* Per layer of each kind, per micro-batch, one GPU. */
	struct stage dense, moe;
	/* A hybrid model's (hybrid.h): one of each of its kinds, M, *, -
	 * and E (hybrid_layers()). */
	struct stage hy[4];
	/* The same in BF16, for the layers kept in BF16
	 * (bf16_last_layers; bf16 set when there are any). */
	struct stage dense16, moe16, hy16[4];
	bool	 bf16;
	double	 logits_s, loss_s, embed_s, mtp_extra_s;
};

/* Bytes of quantization per unit of a GEMM input (ELEM_Q, ELEM_Q4). */
static double
quant(const struct ctx *c)
{
	return c->prec == PREC_BF16 ? 0 : c->prec == PREC_NVFP4 ? ELEM_Q4 :
	    ELEM_Q;
}

static double
half(double x, double x0)
{
	return x > 0 ? x / (x + x0) : 0;
}

/* Seconds of FLOPS in a GEMM of M x N x K at the step's precision. */
static double
gemm(const struct ctx *c, double flops, double m, double n, double k,
    bool bf16)
{
	double	 peak = bf16 ? c->hw->tflops : c->peak;
	double	 eff = bf16 ? c->hw->gemm_eff[PREC_BF16] : c->eff;
	double	 e = eff * half(m, GEMM_HALF) * half(n, GEMM_HALF) *
		    half(k, GEMM_HALF);

	return flops > 0 && e > 0 ? flops / (peak * 1e12 * e) : 0;
}

/* Seconds to move BYTES per GPU in a group spanning SPAN consecutive
 * ranks: NVLink when its GPUs share a domain, else the network's. */
static double
move(const struct ctx *c, double bytes, int64_t span, double eff,
    bool *crosses)
{
	const struct cost_hw	*hw = c->hw;
	bool	 inside = hw->nvlink_everywhere || span <= c->domain;

	if (bytes <= 0)
		return 0;
	if (!inside)
		*crosses = true;
	return bytes / ((inside ? hw->nvlink_gbs : hw->net_gbs) * 1e9 * eff);
}

/* The fixed cost of a collective of STEPS ring steps (or peers) in a
 * group spanning SPAN consecutive ranks. */
static double
latency(const struct ctx *c, double steps, int64_t span)
{
	bool	 inside = c->hw->nvlink_everywhere || span <= c->domain;

	if (steps <= 0)
		return 0;
	return NCCL_BASE_S + steps * (inside ? NCCL_NVLINK_S : NCCL_NET_S);
}

/* An all-to-all of BYTES per GPU over GROUP ranks: the peers inside the
 * GPU's NVLink domain at NVLink speed, the rest over the network, the
 * two at once; DEDUP: the share of the network's copies really sent
 * (node_dedup(); 1 for NCCL's all-to-all). */
static double
alltoall(const struct ctx *c, double bytes, int64_t group, double eff,
    double dedup, bool *crosses)
{
	const struct cost_hw	*hw = c->hw;
	double	 local, remote, g = (double)group, d = (double)c->domain;

	if (bytes <= 0 || group <= 1)
		return 0;
	if (hw->nvlink_everywhere || group <= c->domain)
		return bytes / (hw->nvlink_gbs * 1e9 * eff);
	*crosses = true;
	local = bytes * (d - 1) / (g - 1);
	remote = (bytes - local) * dedup;
	local /= hw->nvlink_gbs * 1e9 * eff;
	remote /= hw->net_gbs * 1e9 * eff;
	return local > remote ? local : remote;
}

/*
 * DeepEP's internode kernels and HybridEP send a token once to each
 * remote NVLink domain holding one of its experts and fan it out there
 * over NVLink (DeepEP csrc/kernels/internode.cu: RDMA to the node's rank,
 * then NVLink forwarding; Megatron-LM megatron/core/transformer/moe/
 * fused_a2a.py).  With K copies landing uniformly on N domains, a token
 * reaches (N - 1)(1 - (1 - 1/N)^K) distinct remote domains against
 * K (N - 1)/N remote copies: the share returned.  NCCL's all-to-all
 * (alltoall, allgather dispatchers) sends every copy: 1.
 */
static double
node_dedup(const struct ctx *c, int64_t group, double k)
{
	double	 n;

	if (c->in->dispatcher != DISPATCH_DEEPEP &&
	    c->in->dispatcher != DISPATCH_HYBRIDEP)
		return 1;
	if (c->hw->nvlink_everywhere || group <= c->domain || k <= 0)
		return 1;
	n = (double)group / (double)c->domain;
	return n * (1 - pow(1 - 1 / n, k)) / k;
}

/* Exposed share of COMM overlapped with WITH seconds of compute. */
static double
exposed(double comm, double with)
{
	double	 hidden = comm < with ? comm : with;

	return comm - hidden + OVERLAP_LEFT * hidden;
}

/* K and V bytes per token a CP ring passes, per TP rank. */
static double
kv_bytes(const struct model *m, double tp)
{
	double	 a = (double)m->num_attention_heads;
	double	 g = m->num_query_groups != 0 ? (double)m->num_query_groups : a;
	double	 kv = m->kv_channels != 0 ? (double)m->kv_channels :
	    (double)m->hidden_size / a;

	if (m->kv_lora_rank != 0)	/* MLA: full K and V per head */
		return a * (double)(m->qk_head_dim + m->qk_pos_emb_head_dim +
		    m->v_head_dim) * BF16 / tp;
	return 2 * g * kv * BF16 / tp;
}

/*
 * Bytes per element of the rotated query and key when RoPE runs unfused,
 * beyond the fused kernel's pass that ELEM_H counts: YaRN's concentration
 * factor (0.1 ln(factor) + 1 when the model gives no mscale pair,
 * yarn_rotary_pos_embedding.py:252-283 at Megatron-LM d7288711) is not
 * 1, which Transformer Engine's fused RoPE does not take, so Megatron
 * falls back to _apply_rotary_pos_emb_bshd() for the query and the key
 * (rope_utils.py:279-284, :110-126; the same at 0d8e0714 and d0b3b775):
 * t * cos, the rotated half (a negation and a cat), * sin, their sum and
 * a cat with the unrotated rest, 12 bf16 element accesses forward, 10
 * backward, against the fused kernel's 4: 36 bytes.  GPT-OSS (YaRN,
 * factor 32, GQA); MLA models rotate in their own path.
 */
#define ROPE_UNFUSED	36.0

/* One norm's forward again under "layernorm" (NORM_FWD a unit of hidden
 * width a token): each layer kind counts its own norm. */
static double
norm_recompute(const struct ctx *c)
{
	if (!recomputes(c->in->recompute, c->in->recompute_modules,
	    RECOMPUTE_LAYERNORM))
		return 0;
	return NORM_FWD * (double)c->in->model.hidden_size * c->t /
	    (c->hw->hbm_gbs * 1e9);
}

static bool
rope_unfused(const struct model *m)
{
	if (m->rope_scaling != ROPE_SCALING_YARN ||
	    m->rope_scaling_factor <= 1 || m->kv_lora_rank != 0)
		return false;
	return !(m->mscale > 0 && m->mscale == m->mscale_all_dim);
}

/* The forward of MLA's up projections, what mla_up_proj recomputes:
 * q_lora_rank to the heads' Q (when Q is compressed) and kv_lora_rank to
 * their K (non-rotary) and V, 2 FLOPs a multiply-add. */
static double
mla_up_proj(const struct ctx *c)
{
	const struct model	*m = &c->in->model;
	double	 a = (double)m->num_attention_heads / c->tp, flops;
	double	 qn = a * (double)(m->qk_head_dim + m->qk_pos_emb_head_dim);
	double	 kvn = a * (double)(m->qk_head_dim + m->v_head_dim);

	flops = 2 * c->tc * (double)m->kv_lora_rank * kvn;
	if (m->q_lora_rank > 0)
		flops += 2 * c->tc * (double)m->q_lora_rank * qn;
	return gemm(c, flops, c->tc, kvn, (double)m->kv_lora_rank, false);
}

/* The attention half of a layer: projections, core, TP and CP. */
static void
attention_layer(struct ctx *c, struct stage *st, struct cost *out)
{
	const struct model	*m = &c->in->model;
	double	 h = (double)m->hidden_size, a = (double)m->num_attention_heads;
	double	 kv = m->kv_channels != 0 ? (double)m->kv_channels : h / a;
	double	 g = m->num_query_groups != 0 ? (double)m->num_query_groups : a;
	double	 q = a * kv, proj = c->f.attn_proj * c->tc / c->tp, core;
	double	 n, k, comm, chunk, seq = (double)c->in->seq_length;

	if (m->kv_lora_rank != 0) {	/* MLA: low-rank projections */
		n = a * (double)(m->qk_head_dim + m->qk_pos_emb_head_dim) /
		    c->tp;
		k = (double)m->kv_lora_rank;
	} else {
		n = (q + 2 * g * kv) / c->tp;
		k = h;
	}
	st->t[COST_COMPUTE] += gemm(c, proj, c->tc, n, k, false);
	/* LoRA's adapters: skinny GEMMs, rank wide (flops_lora()). */
	if (c->in->lora.rank > 0)
		st->t[COST_COMPUTE] += gemm(c, c->f.adapters * c->tc / c->tp,
		    c->tc, (double)c->in->lora.rank, h, false);
	/* With CP each rank's causal share is two chunks of s / 2 CP (the
	 * load-balanced split), run as separate, shorter kernels.  A
	 * sliding window (GPT-OSS) is in attn_core already, the layers'
	 * average (flops.c): the fused kernel skips the key blocks outside
	 * the window, so its work is what Bridge counts; its efficiency is
	 * taken as the full layers' (not measured apart). */
	core = c->f.attn_core * c->tc / c->tp;
	chunk = c->cp > 1 ? seq / (2 * c->cp) : seq;
	st->t[COST_ATTENTION] += core / (c->hw->tflops * 1e12 *
	    c->hw->attn_eff * half(chunk, ATTN_HALF));
	/* Selective recompute (recomputes()): core_attn runs the core's
	 * forward again, a third of its time; layernorm the input norm
	 * (NORM_FWD); mla_up_proj MLA's Q and KV up projections, forward
	 * (multi_latent_attention.py core_v0.19.0:173, the checkpointed
	 * qkv_up). */
	if (recomputes(c->in->recompute, c->in->recompute_modules,
	    RECOMPUTE_CORE_ATTN))
		st->t[COST_RECOMPUTE] += st->t[COST_ATTENTION] / 3;
	st->t[COST_RECOMPUTE] += norm_recompute(c);
	if (m->kv_lora_rank != 0 && recomputes(c->in->recompute,
	    c->in->recompute_modules, RECOMPUTE_MLA_UP_PROJ))
		st->t[COST_RECOMPUTE] += mla_up_proj(c);
	/* Elementwise: norm, residual, RoPE on the SP shard. */
	st->t[COST_COMPUTE] += (ELEM_H * h * c->t + quant(c) * (h + q) *
	    c->t) / (c->hw->hbm_gbs * 1e9);
	if (rope_unfused(m))
		st->t[COST_COMPUTE] += ROPE_UNFUSED * (q + g * kv) / c->tp *
		    c->tc / (c->hw->hbm_gbs * 1e9);

	/* TP with SP: an all-gather and a reduce-scatter forward, the
	 * same backward, of the micro-batch's hidden states. */
	if (c->tp > 1) {
		comm = 4 * (move(c, (c->tp - 1) / c->tp * c->tc * h * BF16,
		    c->in->layout.tp, COLL_EFF, &out->crosses[COST_TP]) +
		    latency(c, c->tp - 1, c->in->layout.tp));
		st->t[COST_TP] += c->in->tp_comm_overlap == TRI_ON ?
		    exposed(comm, st->t[COST_COMPUTE]) : comm;
	}
	/* CP: the K/V ring, CP - 1 steps forward, twice that backward,
	 * each overlapped with a step of attention. */
	if (c->cp > 1) {
		comm = 3 * (c->cp - 1) * (move(c, c->tc * kv_bytes(m, c->tp),
		    c->in->layout.tp * c->in->layout.cp, COLL_EFF,
		    &out->crosses[COST_CP]) + latency(c, 1,
		    c->in->layout.tp * c->in->layout.cp));
		st->t[COST_CP] += exposed(comm, st->t[COST_ATTENTION]);
	}
}

/* A dense SwiGLU MLP of width FFN on TP, and its TP communication. */
static void
mlp(struct ctx *c, struct stage *st, double flops, double ffn,
    struct cost *out, enum cost_term term, bool tp_comm)
{
	double	 h = (double)c->in->model.hidden_size, comm, before, run;
	double	 tp = 0;
	/* The dense layer's MLP (the TP one, COMPUTE) or the shared
	 * experts (MOE) recomputed: their forward again, a third of the
	 * time, and half the TP exchanges (full_recompute()'s count;
	 * transformer_layer.py core_v0.19.0:512, shared_experts.py:153). */
	unsigned mod = term == COST_COMPUTE ? RECOMPUTE_MLP :
	    RECOMPUTE_SHARED_EXPERTS;

	if (flops <= 0)
		return;
	before = st->t[term];
	st->t[term] += gemm(c, flops * 2 / 3, c->tc, 2 * ffn / c->tp, h,
	    false) + gemm(c, flops / 3, c->tc, h, ffn / c->tp, false);
	run = (ELEM_F + quant(c)) * c->tc * ffn / c->tp /
	    (c->hw->hbm_gbs * 1e9);
	st->t[COST_COMPUTE] += run;
	run += st->t[term] - before;
	if (tp_comm && c->tp > 1) {
		comm = 4 * (move(c, (c->tp - 1) / c->tp * c->tc * h * BF16,
		    c->in->layout.tp, COLL_EFF, &out->crosses[COST_TP]) +
		    latency(c, c->tp - 1, c->in->layout.tp));
		tp = c->in->tp_comm_overlap == TRI_ON ?
		    exposed(comm, st->t[term] - before) : comm;
		st->t[COST_TP] += tp;
	}
	if (recomputes(c->in->recompute, c->in->recompute_modules, mod))
		st->t[COST_RECOMPUTE] += run / 3 + tp / 2;
	/* A dense layer's pre-MLP norm, as moe_layer() counts a MoE's. */
	if (term == COST_COMPUTE)
		st->t[COST_RECOMPUTE] += norm_recompute(c);
}

/*
 * Bytes a routed token copy moves through the GPU's memory per unit of
 * the width it is routed at, forward and backward, outside the GEMMs
 * (Megatron-LM d98e8a64 megatron/core/transformer/moe/
 * token_dispatcher.py).  Each pass reads and writes a bf16 copy (4
 * bytes), forward and again backward:
 * - every dispatcher permutes the tokens into top-k copies and
 *   unpermutes them (dispatch_preprocess() :671, combine_postprocess()
 *   :891; HybridEP fuses both into its dispatch and combine, :1152-1195):
 *   16;
 * - the alltoall dispatcher's four all-to-alls go through NCCL's send and
 *   receive buffers, the copy read on one GPU and written on another
 *   (:705, :864): 16 more; and with more than one local expert it sorts
 *   the received copies by expert and back (sort_chunks_by_idxs(), :782
 *   and :817): 16 more;
 * - DeepEP's dispatch and combine are its own buffers, and the flex
 *   dispatcher permutes and unpermutes after them (:1446, :1460): 16
 *   more;
 * - under FP8 Transformer Engine's grouped linear casts each copy's input
 *   rowwise and columnwise (for the weight gradient) and the gradient of
 *   the second linear's output (transformer_engine/pytorch/module/
 *   grouped_linear.py d0067d0d :460-462, :1009-1040): ELEM_Q.
 * The allgather dispatcher gathers tokens, not copies: its buffers are
 * not counted here.
 */
static double
moe_copy_bytes(const struct ctx *c)
{
	const struct layout	*l = &c->in->layout;
	double	 pass = 2 * 2 * BF16, b = 2 * pass;

	if (l->ep * l->etp > 1) {
		if (c->in->dispatcher == DISPATCH_ALLTOALL) {
			b += 2 * pass;
			if (c->in->model.num_experts > l->ep)
				b += 2 * pass;
		} else if (c->in->dispatcher == DISPATCH_DEEPEP)
			b += 2 * pass;
	}
	return b + quant(c);
}

/*
 * Bytes a routed copy moves through the GPU's memory outside the GEMMs
 * for what GPT-OSS's experts add, per copy, forward and backward, bf16
 * (Megatron-LM d7288711, the 26.04 containers' core; the same code at
 * 0d8e0714 (25.11) and d0b3b775 (26.06)):
 * - the clamped GeGLU (activation_clamp): weighted_bias_quick_geglu_impl()
 *   clamps the two halves of fc1's output and concatenates them before
 *   its fused kernel (megatron/core/fusions/fused_bias_geglu.py:424-431):
 *   each clamp reads and writes its half, the cat reads and writes both
 *   (8 w elements); backward each clamp's gradient reads the gradient and
 *   its input and writes one (6 w), and the chunk's gradient is their
 *   cat (4 w): 36 bytes per unit of expert width W;
 * - fc2's bias (linear_bias): fc2 is built with skip_bias_add
 *   (moe/experts.py:214) and TEGroupedMLP._apply_bias() (:251-268) adds
 *   it, weighted by the routing probability, expert by expert: b * p
 *   written, t + b * p read and written, the experts' cat read and
 *   written (6 h elements); backward the bias's and the probability's
 *   gradients, each a product written and reduced (6 h): 24 bytes per
 *   unit of hidden width H.  fc1's bias is in its GEMM's epilogue
 *   (skip_bias_add false, :192).
 * Neither runs under a full-iteration graph: the recipes that capture
 * one run Transformer Engine's op fuser, whose grouped MLP applies bias
 * and activation in its own kernels (Megatron-Bridge 067f987d
 * perf_recipes/gpt_oss/common.py:22-44, use_transformer_engine_op_fuser;
 * experts.py at d98e8a64:357-361: the eager bias path cannot be
 * captured).
 */
static double
expert_extra_bytes(const struct ctx *c, double h, double w)
{
	const struct model	*m = &c->in->model;
	double	 b = 0;

	if (c->in->cuda_graphs == CUDA_GRAPH_FULL_ITERATION)
		return 0;
	if (m->activation_clamp > 0 && MODEL_GATED(m))
		b += 36 * w / c->etp;
	if (m->linear_bias)
		b += 24 * h;
	return b;
}

static void moe_block(struct ctx *, struct stage *, struct cost *);

/*
 * The MoE half of a layer (moe_block()) and what selective recompute
 * runs of it again: "moe" the whole layer's forward (moe_layer.py
 * core_v0.19.0:248), a third of its compute but the dispatcher's sync
 * whole, and half its EP and ETP exchanges, as full_recompute() counts
 * them; else "moe_act" the experts' activation (experts.py:270), one
 * forward pass over each routed copy (ACT_FWD) and the norm before it
 * with "layernorm" (transformer_layer.py:450).
 */
static void
moe_layer(struct ctx *c, struct stage *st, struct cost *out)
{
	const struct model	*m = &c->in->model;
	double	 k = m->moe_router_topk > 0 ? (double)m->moe_router_topk : 1;
	double	 w = (double)m->moe_ffn_hidden_size;
	double	 moe = st->t[COST_MOE], ep = st->t[COST_EP];
	double	 etp = st->t[COST_ETP], sync;
	int	 rc = c->in->recompute;
	unsigned bits = c->in->recompute_modules;

	moe_block(c, st, out);
	if (rc != RECOMPUTE_SELECTIVE)
		return;
	if (recomputes(rc, bits, RECOMPUTE_MOE)) {
		sync = moe_sync(c->in);
		st->t[COST_RECOMPUTE] += (st->t[COST_MOE] - moe - sync) / 3 +
		    sync + (st->t[COST_EP] - ep + st->t[COST_ETP] - etp) / 2;
	}
	else if (recomputes(rc, bits, RECOMPUTE_MOE_ACT))
		st->t[COST_RECOMPUTE] += (MODEL_GATED(m) ? ACT_FWD_GATED :
		    ACT_FWD) * c->t * k * w / (c->hw->hbm_gbs * 1e9);
	st->t[COST_RECOMPUTE] += norm_recompute(c);
}

/* The MoE half of a layer: router, permutation, the routed experts'
 * grouped GEMMs, shared experts, and the dispatcher's all-to-alls. */
static void
moe_block(struct ctx *c, struct stage *st, struct cost *out)
{
	const struct model	*m = &c->in->model;
	double	 hid = (double)m->hidden_size, e = (double)m->num_experts;
	double	 k = m->moe_router_topk > 0 ? (double)m->moe_router_topk : 1;
	double	 w = (double)m->moe_ffn_hidden_size, per_expert, a2a, eff;
	double	 routed = c->f.routed_mlp * c->t, bytes, before;
	/* A latent MoE (Nemotron 3 Super) routes and runs its experts at
	 * the latent width (moe_layer.py core_v0.19.0:481-483): h is that
	 * width below; its two projections are dense GEMMs. */
	double	 h = m->moe_latent_size > 0 ? (double)m->moe_latent_size : hid;
	int64_t	 group = c->in->layout.ep * c->in->layout.etp;

	/* Balanced routing (the published runs force it): each GPU runs
	 * its t x top-k assignments over its E / EP experts. */
	per_expert = c->t * k * c->ep / e;
	before = st->t[COST_MOE];
	if (m->moe_latent_size > 0) {
		double	 proj = FWD_BWD_FLOPS * 2 * hid * h * c->t;

		st->t[COST_MOE] += gemm(c, proj, c->t, h, hid, false);
		routed -= proj;
	}
	st->t[COST_MOE] += gemm(c, routed * 2 / 3, per_expert, 2 * w / c->etp,
	    h, false) + gemm(c, routed / 3, per_expert, h, w / c->etp, false);
	/* Router: a BF16 GEMM to E logits, 6 h E per token. */
	st->t[COST_MOE] += gemm(c, 6 * hid * e * c->t, c->t, e, hid, true);
	/* The top-k copies' passes through memory (moe_copy_bytes()), and
	 * the routed experts' SwiGLU. */
	st->t[COST_MOE] += (moe_copy_bytes(c) * k * h * c->t + (ELEM_F +
	    quant(c)) * c->t * k * w + expert_extra_bytes(c, h, w) * c->t *
	    k) / (c->hw->hbm_gbs * 1e9);
	mlp(c, st, c->f.shared_mlp * c->tc / c->tp, w *
	    (double)m->moe_shared_experts, out, COST_MOE, false);
	st->t[COST_MOE] += moe_sync(c->in);

	if (group <= 1)
		return;
	/* Dispatch and combine forward, their gradients backward: four
	 * exchanges of the top-k copies of the GPU's tokens. */
	switch (c->in->dispatcher) {
	case DISPATCH_ALLGATHER:
		bytes = c->ep * c->t * h * BF16 * (c->ep - 1) / c->ep;
		eff = COLL_EFF;
		break;
	case DISPATCH_DEEPEP:
		bytes = c->t * k * h * BF16 * (c->ep - 1) / c->ep;
		eff = DEEPEP_EFF;
		break;
	case DISPATCH_HYBRIDEP:
		bytes = c->t * k * h * BF16 * (c->ep - 1) / c->ep;
		eff = HYBRIDEP_EFF;
		break;
	default:
		bytes = c->t * k * h * BF16 * (c->ep - 1) / c->ep;
		eff = A2A_EFF;
		break;
	}
	a2a = 4 * (alltoall(c, bytes, group, eff, node_dedup(c, group, k),
	    &out->crosses[COST_EP]) +
	    latency(c, (double)(group - 1), group));
	st->t[COST_EP] += c->in->moe_a2a_overlap ? exposed(a2a,
	    st->t[COST_MOE] - before + st->t[COST_COMPUTE]) : a2a;
	if (c->etp > 1)
		st->t[COST_ETP] += 4 * move(c, c->t * k * h * BF16 *
		    (c->etp - 1), c->in->layout.etp, COLL_EFF,
		    &out->crosses[COST_ETP]);
}

static void
stage_sum(struct stage *st)
{
	int	 i;

	st->total = 0;
	st->compute = st->t[COST_COMPUTE] + st->t[COST_ATTENTION] +
	    st->t[COST_MOE] + st->t[COST_OUTPUT] + st->t[COST_RECOMPUTE];
	for (i = 0; i < COST_NTERMS; i++)
		st->total += st->t[i];
}

/*
 * Full recompute runs every layer's forward once more in the backward
 * (megatron/core/transformer/transformer_block.py
 * _checkpointed_forward()): a third of the compute, and the forward's
 * communication again: half the TP and EP exchanges (the forward's
 * gathers, dispatch and combine), a third of the CP ring, and the
 * dispatcher's host sync SYNC whole (the forward is where it waits).
 */
static void
full_recompute(struct stage *st, double sync)
{
	stage_sum(st);
	st->t[COST_RECOMPUTE] = (st->compute - sync) / 3 + sync +
	    (st->t[COST_TP] + st->t[COST_EP] + st->t[COST_ETP]) / 2 +
	    st->t[COST_CP] / 3;
}

/* A MoE layer takes at least the host's time to issue its kernels
 * (MOE_HOST_S; half as much again with full recompute's second
 * forward), whatever the dispatcher: after the dispatcher's sync
 * (moe_sync()) the host cannot issue faster than it does; under a
 * full-iteration graph MOE_GRAPHED_S.  Either scales half with the
 * GPU's local experts, E / EP (MOE_FLOOR_FIXED). */
static void
host_bound(struct ctx *c, struct stage *moe)
{
	double	 host = (c->in->cuda_graphs == CUDA_GRAPH_FULL_ITERATION ?
	    MOE_GRAPHED_S : MOE_HOST_S) * (c->in->recompute ==
	    RECOMPUTE_FULL ? 1.5 : 1);

	if (c->in->model.num_experts == 0)
		return;
	host *= MOE_FLOOR_FIXED + (1 - MOE_FLOOR_FIXED) *
	    (double)c->in->model.num_experts / c->ep / MOE_FLOOR_EXPERTS;
	if (moe->total >= host)
		return;
	moe->t[COST_MOE] += host - moe->total;
	stage_sum(moe);
}

/* The stage extras: the output layer at BF16 (Megatron keeps it out of
 * FP8), the fused cross entropy, the embedding's gather and scatter-add,
 * an MTP depth's projection, output layer and loss. */
static void
output_layer(struct ctx *c)
{
	const struct model	*m = &c->in->model;
	double	 h = (double)m->hidden_size, v;

	v = (double)flops_padded_vocab(m->vocab_size, c->in->layout.tp);
	c->logits_s = gemm(c, c->f.logits * c->tc / c->tp, c->tc, v / c->tp,
	    h, true);
	c->loss_s = LOSS_BYTES * c->tc * v / c->tp / (c->hw->hbm_gbs * 1e9);
	c->embed_s = 3 * 4.0 * c->t * h / (c->hw->hbm_gbs * 1e9);
	c->mtp_extra_s = gemm(c, c->f.mtp_proj * c->tc / c->tp, c->tc,
	    h / c->tp, 2 * h, false) + c->logits_s + c->loss_s;
}

static void hybrid_layers(struct ctx *, struct cost *);

static void layer_blocks(struct ctx *, struct cost *);

/* Per layer of each kind, and the stage extras; with layers kept in
 * BF16 under FP8 or FP4, each kind again at BF16. */
static void
layers(struct ctx *c, struct cost *out)
{
	double	 peak = c->peak, eff = c->eff;
	int	 prec = c->prec;

	if (prec != PREC_BF16 && c->in->bf16_last_layers > 0) {
		c->prec = PREC_BF16;
		c->peak = c->hw->tflops;
		c->eff = c->hw->gemm_eff[PREC_BF16];
		layer_blocks(c, out);
		c->dense16 = c->dense;
		c->moe16 = c->moe;
		memcpy(c->hy16, c->hy, sizeof c->hy16);
		c->bf16 = true;
		c->prec = prec;
		c->peak = peak;
		c->eff = eff;
	}
	layer_blocks(c, out);
}

/* N layers of FP's kind run as BF's: their difference into ST. */
static void
bf16_swap(struct stage *st, double n, const struct stage *fp,
    const struct stage *bf)
{
	int	 i;

	if (n <= 0)
		return;
	for (i = 0; i < COST_NTERMS; i++)
		st->t[i] += n * (bf->t[i] - fp->t[i]);
}

static void
layer_blocks(struct ctx *c, struct cost *out)
{
	const struct model	*m = &c->in->model;

	output_layer(c);
	if (m->hybrid_pattern != NULL) {
		hybrid_layers(c, out);
		return;
	}
	memset(&c->dense, 0, sizeof c->dense);
	memset(&c->moe, 0, sizeof c->moe);
	attention_layer(c, &c->dense, out);
	c->moe = c->dense;
	mlp(c, &c->dense, c->f.dense_mlp * c->tc / c->tp,
	    (double)m->ffn_hidden_size, out, COST_COMPUTE, true);
	if (m->num_experts > 0)
		moe_layer(c, &c->moe, out);
	if (c->in->recompute == RECOMPUTE_FULL) {
		full_recompute(&c->dense, 0);
		full_recompute(&c->moe, m->num_experts > 0 ?
		    moe_sync(c->in) : 0);
	}
	stage_sum(&c->dense);
	stage_sum(&c->moe);
	host_bound(c, &c->moe);
}

/* A stage of N_DENSE + N_MOE layers, with the first stage's embedding
 * (FIRST) and the last stage's output, loss and MTP (LAST) as shares. */
static void
stage_of(const struct ctx *c, double n_dense, double n_moe, double first,
    double last, struct stage *st)
{
	double	 bf, m;
	int	 i;

	for (i = 0; i < COST_NTERMS; i++)
		st->t[i] = n_dense * c->dense.t[i] + n_moe * c->moe.t[i];
	/* The last layers kept in BF16 sit on the last stage (its share
	 * when the split is averaged): MoE layers first, the model's last. */
	if (c->bf16) {
		bf = fmin(last * (double)c->in->bf16_last_layers,
		    n_dense + n_moe);
		m = fmin(bf, n_moe);
		bf16_swap(st, m, &c->moe, &c->moe16);
		bf16_swap(st, bf - m, &c->dense, &c->dense16);
	}
	st->t[COST_OUTPUT] += first * c->embed_s + last * (c->logits_s +
	    c->loss_s);
	if (c->f.mtp_layers > 0) {
		for (i = 0; i < COST_NTERMS; i++)
			st->t[i] += last * (double)c->f.mtp_layers *
			    (c->in->model.num_experts > 0 ? c->moe.t[i] :
			    c->dense.t[i]);
		st->t[COST_OUTPUT] += last * (double)c->f.mtp_layers *
		    c->mtp_extra_s;
	}
	stage_sum(st);
}

static void hybrid_busiest(const struct ctx *, struct cost *,
    struct stage *);

/* The busiest stage: the first, a middle or the last; the layers of a
 * recipe's own layout balanced over the stages. */
static void
busiest(const struct ctx *c, struct cost *out, struct stage *st)
{
	const struct sizing	*s = c->s;
	const struct model	*m = &c->in->model;
	double	 pp = (double)c->in->layout.pp, L = (double)m->num_layers;
	double	 nd = m->num_experts > 0 ? (double)m->moe_dense_layers : L;
	double	 n, d;
	struct stage	 cand;

	if (m->hybrid_pattern != NULL) {
		hybrid_busiest(c, out, st);
		return;
	}
	if (!s->split_known || c->in->layout.pp == 1) {
		stage_of(c, nd / pp, (L - nd) / pp, 1 / pp, 1 / pp, st);
		out->busiest_layers = (int64_t)((L + pp - 1) / pp);
		return;
	}
	/* The leading dense layers sit on the first stage. */
	n = (double)s->split_first;
	d = nd < n ? nd : n;
	stage_of(c, d, n - d, 1, 0, st);
	out->busiest_layers = s->split_first;
	n = (double)s->split_middle;
	d = nd > L - n ? n : 0;
	if (s->split_middle_stages > 0) {
		stage_of(c, d, n - d, 0, 0, &cand);
		if (cand.total > st->total) {
			*st = cand;
			out->busiest_layers = s->split_middle;
		}
	}
	n = (double)s->split_last;
	stage_of(c, m->num_experts > 0 ? 0 : n, m->num_experts > 0 ? n : 0,
	    0, 1, &cand);
	if (cand.total > st->total) {
		*st = cand;
		out->busiest_layers = s->split_last;
	}
}

/*
 * Hybrid models (hybrid.h): a stage is its layers of each kind, M, *, -
 * and E, each a block of its own (hybrid_layers()).
 *
 * A Mamba layer (mamba_layer()): in_proj and out_proj are GEMMs of the
 * real inner width (Megatron's FLOPs count, flops.c, takes 2 h for it);
 * the SSD scan (mamba_ssm's chunked kernels, Megatron's default
 * use_mem_eff_path) does, per token and head, the chunk's C B^T (2 Q N
 * a group), its masked product with X (2 Q P) and the chunk state in
 * and out (4 N P), forward, and twice that backward, at SCAN_EFF of
 * the BF16 peak; or, when longer, its memory traffic: its forward is
 * the causal convolution (xBC read, its output written) and five
 * kernels that each go through the GPU's memory (chunk cumsum, the
 * chunks' C B^T, fp32, G Q Q a chunk, written and read; the chunk
 * states, fp32, H P N a chunk of Q tokens, written, passed (read and
 * written) and read; zxBCdt read, the output written), and its backward
 * reads and writes 2.5 times that (it recomputes the convolution and the
 * states, and writes every input's gradient).  Q is MambaMixer's chunk_size
 * 128 (mamba_mixer.py core_v0.19.0:192).  Elementwise: the norm, the
 * gated norm and SiLU over the inner width.  TP with SP as attention's;
 * CP: MambaContextParallel's all-to-alls of the in_proj output and of
 * the scan's output, forward and backward (mamba_context_parallel.py).
 * SCAN_EFF is an assumption, not fitted to the runs (docs/
 * cost-model.md, "Hybrid models").
 */
#define SSD_CHUNK	128.0
#define SCAN_EFF	0.25

enum { HY_M, HY_ATTN, HY_MLP, HY_MOE };

static void
mamba_layer(struct ctx *c, struct stage *st, struct cost *out)
{
	const struct model	*m = &c->in->model;
	double	 h = (double)m->hidden_size, di = (double)hybrid_mamba_inner(m);
	double	 nh = (double)hybrid_mamba_heads(m), P = (double)m->mamba_head_dim;
	double	 N = (double)m->mamba_state_dim, G = (double)m->mamba_num_groups;
	double	 zx = 2 * di + 2 * G * N + nh, tok = c->tc / c->tp;
	double	 flops, bytes, comm;

	st->t[COST_COMPUTE] += gemm(c, FWD_BWD_FLOPS * h * zx * c->tc / c->tp,
	    c->tc, zx / c->tp, h, false) + gemm(c, FWD_BWD_FLOPS * di * h *
	    c->tc / c->tp, c->tc, h, di / c->tp, false);
	flops = 3 * (2 * SSD_CHUNK * N * G + 2 * SSD_CHUNK * P * nh +
	    4 * N * P * nh) * tok;
	bytes = 3.5 * (BF16 * (zx + di) + 2 * 4 * G * SSD_CHUNK +
	    4 * 4 * nh * P * N / SSD_CHUNK + 2 * BF16 * (di + 2 * G * N)) *
	    tok;
	st->t[COST_COMPUTE] += fmax(flops / (c->hw->tflops * 1e12 * SCAN_EFF),
	    bytes / (c->hw->hbm_gbs * 1e9));
	st->t[COST_COMPUTE] += (ELEM_H * h * c->t + ELEM_F * di * tok) /
	    (c->hw->hbm_gbs * 1e9);
	if (c->tp > 1) {
		comm = 4 * (move(c, (c->tp - 1) / c->tp * c->tc * h * BF16,
		    c->in->layout.tp, COLL_EFF, &out->crosses[COST_TP]) +
		    latency(c, c->tp - 1, c->in->layout.tp));
		st->t[COST_TP] += c->in->tp_comm_overlap == TRI_ON ?
		    exposed(comm, st->t[COST_COMPUTE]) : comm;
	}
	if (c->cp > 1)
		st->t[COST_CP] += 2 * 2 * (alltoall(c, (c->cp - 1) / c->cp *
		    c->tc * (zx + di) / c->tp * BF16 / 2, c->in->layout.cp,
		    A2A_EFF, 1, &out->crosses[COST_CP]) + latency(c,
		    c->cp - 1, c->in->layout.tp * c->in->layout.cp));
}

/* One layer of each of the hybrid kinds: M, * (attention alone), -
 * (an MLP alone) and E (a MoE block alone). */
static void
hybrid_layers(struct ctx *c, struct cost *out)
{
	const struct model	*m = &c->in->model;
	int	 i;

	memset(c->hy, 0, sizeof c->hy);
	mamba_layer(c, &c->hy[HY_M], out);
	attention_layer(c, &c->hy[HY_ATTN], out);
	mlp(c, &c->hy[HY_MLP], c->f.dense_mlp * c->tc / c->tp,
	    (double)m->ffn_hidden_size, out, COST_COMPUTE, true);
	if (m->num_experts > 0)
		moe_layer(c, &c->hy[HY_MOE], out);
	for (i = 0; i < 4; i++) {
		if (c->in->recompute == RECOMPUTE_FULL)
			full_recompute(&c->hy[i], i == HY_MOE &&
			    m->num_experts > 0 ? moe_sync(c->in) : 0);
		stage_sum(&c->hy[i]);
	}
	if (m->num_experts > 0)
		host_bound(c, &c->hy[HY_MOE]);
}

/* A stage of the layers N, the embedding (FIRST) and the output layer,
 * loss and MTP depths (LAST). */
static void
hybrid_stage_of(const struct ctx *c, const struct hybrid_counts *n,
    double first, double last, struct stage *st)
{
	const struct model	*m = &c->in->model;
	const double	 k[4] = { (double)n->mamba, (double)n->attention,
	    (double)n->mlp, (double)n->moe };
	struct hybrid_counts	 t = { 0 };
	double		 mk[4];
	int		 i, j;

	if (m->mtp_layers > 0)
		(void)hybrid_parse(m->mtp_pattern, &t);
	mk[0] = (double)t.mamba;
	mk[1] = (double)t.attention;
	mk[2] = (double)t.mlp;
	mk[3] = (double)t.moe;
	memset(st, 0, sizeof *st);
	for (i = 0; i < COST_NTERMS; i++)
		for (j = 0; j < 4; j++)
			st->t[i] += (k[j] + last * (double)m->mtp_layers *
			    mk[j]) * c->hy[j].t[i];
	/* The pattern's last layers kept in BF16, on the last stage (its
	 * share when the pattern does not split). */
	if (c->bf16 && last > 0) {
		hybrid_tail(m->hybrid_pattern, c->in->bf16_last_layers, &t);
		bf16_swap(st, last * fmin((double)t.mamba, k[0]), &c->hy[0],
		    &c->hy16[0]);
		bf16_swap(st, last * fmin((double)t.attention, k[1]),
		    &c->hy[1], &c->hy16[1]);
		bf16_swap(st, last * fmin((double)t.mlp, k[2]), &c->hy[2],
		    &c->hy16[2]);
		bf16_swap(st, last * fmin((double)t.moe, k[3]), &c->hy[3],
		    &c->hy16[3]);
	}
	st->t[COST_OUTPUT] += first * c->embed_s + last * (c->logits_s +
	    c->loss_s + (double)m->mtp_layers * c->mtp_extra_s);
	stage_sum(st);
}

/* The busiest pipeline rank of the pattern's split (hybrid_stage()); an
 * unsplittable pattern (a finding of rules-hybrid.c) as one stage over
 * PP. */
static void
hybrid_busiest(const struct ctx *c, struct cost *out, struct stage *st)
{
	const struct sizing_input	*in = c->in;
	const char	*pat = in->model.hybrid_pattern;
	struct hybrid_counts	 n;
	struct stage	 cand;
	int64_t		 r, pp = in->layout.pp;
	int		 i;

	if (hybrid_stage(pat, pp, 0, in->first_stage_layers,
	    in->last_stage_layers, &n) != NULL) {
		(void)hybrid_parse(pat, &n);
		hybrid_stage_of(c, &n, 1, 1, st);
		for (i = 0; i < COST_NTERMS; i++)
			st->t[i] /= (double)pp;
		stage_sum(st);
		out->busiest_layers = (n.layers + pp - 1) / pp;
		return;
	}
	st->total = -1;
	for (r = 0; r < pp; r++) {
		(void)hybrid_stage(pat, pp, r, in->first_stage_layers,
		    in->last_stage_layers, &n);
		hybrid_stage_of(c, &n, r == 0, r == pp - 1, &cand);
		if (cand.total > st->total) {
			*st = cand;
			out->busiest_layers = n.layers;
		}
	}
}

/*
 * The dense parameters with a gradient, which DP reduces and the
 * optimizer steps: with LoRA the adapters alone (Megatron's DDP buffers
 * only parameters that require a gradient; memory.c).
 */
static double
trained(const struct ctx *c)
{
	const struct memory_estimate	*m = &c->s->memory;

	return c->in->lora.rank > 0 ? m->adapter_params :
	    m->params - m->expert_params;
}

/* The expert parameters with a gradient: none with LoRA. */
static double
trained_experts(const struct ctx *c)
{
	return c->in->lora.rank > 0 ? 0 : c->s->memory.expert_params;
}

/* Seconds of DP's reduce-scatters and all-gathers moving BYTES_PER
 * bytes of each of the stage's parameters: dense over DP, experts over
 * EDP. */
static double
dp_move(const struct ctx *c, double bytes_per, struct cost *out)
{
	const struct sizing	*s = c->s;
	double	 dense = trained(c), expert = trained_experts(c);
	double	 dp = (double)s->dp, edp = (double)s->edp;
	int64_t	 span = s->world / c->in->layout.pp;

	return (dp > 1 ? move(c, dense * bytes_per * (dp - 1) / dp, span,
	    COLL_EFF, &out->crosses[COST_DP]) : 0) +
	    (edp > 1 ? move(c, expert * bytes_per * (edp - 1) / edp, span,
	    COLL_EFF, &out->crosses[COST_DP]) : 0);
}

/* Once a step, overlapped (Megatron-Bridge turns both overlaps on with
 * the distributed optimizer): the last bucket stays exposed, and what
 * a micro-batch's compute does not cover. */
static double
dp_overlapped(const struct ctx *c, const struct stage *st, double t)
{
	double	 params = trained(c) + trained_experts(c);
	double	 ov = params > DP_BUCKET ? DP_BUCKET / params : 1;

	return t * ov + (t * (1 - ov) > st->compute ? t * (1 - ov) -
	    st->compute : 0);
}

/*
 * Seconds of an FSDP collective (a ring over the DP group, NCCL) of
 * BYTES per GPU, whole (gathered or before the reduce-scatter), over a
 * group of N ranks STRIDE ranks apart (TP x CP for the dense part, EP x
 * ETP for experts).  Over several NVLink domains each of NCCL's rings
 * crosses from one domain to the next on its own GPU's NIC, so the
 * group's members inside a domain carry the crossing together: the
 * ring runs at NVLink speed, or at the network's times those members
 * if slower (the bus bandwidth of multi-node rings, one NIC a GPU).
 */
static double
fsdp_move(const struct ctx *c, double bytes, double n, double stride,
    struct cost *out)
{
	const struct cost_hw	*hw = c->hw;
	double	 span = n * stride, members, bw;

	if (n <= 1 || bytes <= 0)
		return 0;
	bw = hw->nvlink_gbs;
	if (!hw->nvlink_everywhere && span > (double)c->domain) {
		out->crosses[COST_DP] = true;
		members = (double)c->domain / stride;
		if (members < 1)
			members = 1;
		if (members * hw->net_gbs < bw)
			bw = members * hw->net_gbs;
	}
	return bytes * (n - 1) / n / (bw * 1e9 * COLL_EFF);
}

/* fsdp_move() of BYTES_PER bytes of each of the stage's parameters:
 * dense over DP, experts over EDP. */
static double
fsdp_traffic(const struct ctx *c, double bytes_per, struct cost *out)
{
	const struct sizing	*s = c->s;
	double	 dense = s->memory.params - s->memory.expert_params;

	return fsdp_move(c, dense * bytes_per, (double)s->dp, c->tp * c->cp,
	    out) + fsdp_move(c, s->memory.expert_params * bytes_per,
	    (double)s->edp, c->ep * c->etp, out);
}

/*
 * Megatron-FSDP (megatron/core/distributed/fsdp/, Megatron-LM and
 * Bridge's ddp.data_parallel_sharding_strategy).  With sharded weights
 * (optim_grads_params) every micro-batch gathers each layer's weights
 * in the forward and again in the backward (they are freed after use)
 * and reduce-scatters its gradients in the backward; with sharded
 * gradients alone (optim_grads) it reduce-scatters them every
 * micro-batch and gathers the updated weights once a step.  Layer by
 * layer on its own streams (hence CUDA_DEVICE_MAX_CONNECTIONS > 1), the
 * traffic hides behind the micro-batch's compute but for the first
 * layer's gather, which nothing precedes, whatever exceeds the compute
 * and FSDP_LEFT of the rest (fsdp_move() for the rings' speed).  optim
 * shards like the distributed optimizer.
 */
static double
fsdp_seconds(const struct ctx *c, const struct stage *st, struct cost *out)
{
	const struct sizing	*s = c->s;
	double	 pb = s->memory.params_bytes, gb = s->memory.grads_bytes;
	double	 mb = (double)out->microbatches, t_mb, first, step;
	double	 layers = out->busiest_layers > 0 ?
	    (double)out->busiest_layers : 1;

	if (c->in->fsdp == FSDP_OPTIM)
		return dp_overlapped(c, st, dp_move(c, gb + pb, out));
	if (c->in->fsdp == FSDP_OPTIM_GRADS_PARAMS) {
		t_mb = fsdp_traffic(c, 2 * pb + gb, out);
		first = fsdp_traffic(c, pb, out) / layers;
		step = 0;
	} else {
		t_mb = fsdp_traffic(c, gb, out);
		first = 0;
		step = dp_overlapped(c, st, fsdp_traffic(c, pb, out));
	}
	/* Beside the compute: FSDP_LEFT of it exposed, and all of what
	 * exceeds the compute. */
	return mb * (first + (t_mb > st->compute ? t_mb - st->compute +
	    FSDP_LEFT * st->compute : FSDP_LEFT * t_mb)) + step;
}

/* The DP term: gradients reduce-scattered and weights all-gathered
 * once a step, hidden behind a micro-batch when the overlaps are on. */
static double
dp_seconds(const struct ctx *c, const struct stage *st, struct cost *out)
{
	const struct sizing	*s = c->s;
	double	 t;

	if (c->in->fsdp != FSDP_OFF)
		return fsdp_seconds(c, st, out);
	if (!c->in->distributed_optimizer)
		return dp_move(c, 2 * s->memory.grads_bytes, out);
	t = dp_move(c, s->memory.grads_bytes + s->memory.params_bytes, out);
	return t > 0 ? dp_overlapped(c, st, t) : 0;
}

/* Adam over the GPU's shard: the stage's parameters, over DP (EDP for
 * experts) when the distributed optimizer shards them. */
static double
optimizer_seconds(const struct ctx *c)
{
	const struct sizing	*s = c->s;
	double	 dense = trained(c), expert = trained_experts(c);

	if (c->in->distributed_optimizer) {
		dense /= (double)(s->dp > 0 ? s->dp : 1);
		expert /= (double)(s->edp > 0 ? s->edp : 1);
	}
	return (dense + expert) * OPT_BYTES / (c->hw->hbm_gbs * 1e9);
}

static void
ctx_init(struct ctx *c, const struct sizing_input *in,
    const struct sizing *s, const struct cost_hw *hw)
{
	const struct layout	*l = &in->layout;

	memset(c, 0, sizeof *c);
	c->in = in;
	c->s = s;
	c->hw = hw;
	c->tp = (double)l->tp;
	c->cp = (double)l->cp;
	c->ep = (double)l->ep;
	c->etp = (double)l->etp;
	c->tc = (double)in->micro_batch * (double)in->seq_length / c->cp;
	c->t = c->tc / c->tp;
	c->domain = s->nvlink_domain;
	c->prec = cost_precision(in->fp8);
	c->peak = hw->tflops;
	if (c->prec != PREC_BF16 && hw->tflops_fp8 > 0)
		c->peak = hw->tflops_fp8;
	if (c->prec == PREC_MXFP8 && hw->tflops_mxfp8 > 0)
		c->peak = hw->tflops_mxfp8;
	/* NVFP4 where the GPU has FP4 tensor cores; elsewhere (a rule
	 * refuses it) it is priced as FP8. */
	if (c->prec == PREC_NVFP4 && hw->tflops_nvfp4 > 0)
		c->peak = hw->tflops_nvfp4;
	c->eff = hw->gemm_eff[c->prec];
	if (c->prec == PREC_NVFP4 && hw->tflops_nvfp4 <= 0)
		c->eff = hw->gemm_eff[PREC_FP8];
}

/*
 * The schedule's steps, per micro-batch: every virtual stage's forward
 * and backward of a micro-batch is a call of its own (schedules.py
 * forward_step_helper(), backward_step_helper()), with, between stages,
 * a P2P's fixed cost (charged whole; with overlap_p2p_comm it is a
 * stream's wait on another's, not measured).  The host's share of a
 * step (CHUNK_S; none inside a full-iteration CUDA graph, which replays
 * the whole schedule) is exposed whole only where the schedule makes
 * the host wait for the GPU: with batch_p2p_comm and batch_p2p_sync,
 * Megatron synchronizes the device after every exchange
 * (core/pipeline_parallel/p2p_communication.py d98e8a64:418-421;
 * batch_p2p_sync defaults on, model_parallel_config.py:395), and the
 * GPU then idles while the host launches the next step.  Bridge sets
 * batch_p2p_comm for PP > 1 without VPP only (training/comm_overlap.py
 * 067f987d:454-463, the same in v0.5.1 and v0.6.0, when the recipe has
 * a CommOverlapConfig, as mbsbatch's jobs and the GPU recipes do;
 * without one the model's defaults sync with VPP too, not modelled),
 * as Megatron-LM's own arguments do (training/arguments.py d98e8a64:
 * 1010-1012 turns overlap_p2p_comm off without VPP, on by default with
 * it; argument_utils.py:307, batch_p2p_comm = not overlap_p2p_comm).
 * With VPP (overlap_p2p_comm) and with PP 1
 * (forward_backward_no_pipelining(), no P2P) nothing synchronizes: the
 * host runs ahead and its step shows only where it outlasts the GPU's
 * work of that step (a forward a third of the virtual stage's compute,
 * a backward two thirds).
 */
static double
schedule_steps(const struct ctx *c, const struct stage *st)
{
	const struct layout	*l = &c->in->layout;
	double			 steps = 2 * (double)l->vpp, host, fwd, p2p;

	host = c->in->cuda_graphs == CUDA_GRAPH_FULL_ITERATION ? 0 : CHUNK_S;
	p2p = l->pp > 1 ? steps * latency(c, 1, c->s->world) : 0;
	if (l->pp > 1 && l->vpp == 1)
		return steps * host + p2p;
	fwd = st->compute / (3 * (double)l->vpp);
	return (double)l->vpp * (fmax(0, host - fwd) +
	    fmax(0, host - 2 * fwd)) + p2p;
}

const char *
cost_estimate(const struct sizing_input *in, const struct sizing *s,
    const struct cost_hw *hw, struct cost *out)
{
	const struct layout	*l = &in->layout;
	struct ctx		 c;
	struct stage		 st;
	const char		*why;
	double			 mb, t_mb;
	int			 i;

	memset(out, 0, sizeof *out);
	if (!s->has_memory || in->model.num_layers == 0 ||
	    in->model.hidden_size == 0 || in->seq_length == 0)
		return "needs the model's layers and hidden size and the "
		    "sequence length";
	if (hw->tflops <= 0 || hw->nvlink_gbs <= 0 || hw->net_gbs <= 0 ||
	    hw->hbm_gbs <= 0 || hw->attn_eff <= 0)
		return "needs the GPU's speed and bandwidths";
	ctx_init(&c, in, s, hw);
	if ((why = flops_compute(&in->model, in->seq_length, l->tp, &c.f)) !=
	    NULL)
		return why;
	flops_lora(&c.f, &in->model, &in->lora);
	layers(&c, out);
	busiest(&c, out, &st);

	/* PP: each virtual stage sends its activations forward and their
	 * gradients back, overlapped with compute when VPP interleaves. */
	if (l->pp > 1) {
		st.t[COST_PP] = 2 * (double)l->vpp * move(&c, c.t *
		    (double)in->model.hidden_size * BF16, s->world, COLL_EFF,
		    &out->crosses[COST_PP]);
		if (l->vpp > 1)
			st.t[COST_PP] = exposed(st.t[COST_PP], st.compute);
	}
	st.t[COST_PP] += schedule_steps(&c, &st);
	stage_sum(&st);
	t_mb = st.total;

	if ((out->microbatches = sizing_microbatches(in, s)) == 0) {
		out->microbatches = 4 * l->pp;
		out->microbatches_assumed = true;
	}
	mb = (double)out->microbatches;
	for (i = 0; i < COST_NTERMS; i++)
		out->term[i] = mb * st.t[i];
	out->term[COST_BUBBLE] = (double)(l->pp - 1) / (double)l->vpp * t_mb;
	out->term[COST_DP] = dp_seconds(&c, &st, out);
	out->term[COST_OPTIMIZER] = optimizer_seconds(&c);

	for (i = 0; i < COST_NTERMS; i++)
		out->step_s += out->term[i];
	if (hw->site_factor > 0)
		out->step_s /= hw->site_factor;
	out->tokens_per_s = (double)s->dp * mb * (double)in->micro_batch *
	    (double)in->seq_length / out->step_s;
	out->flops_per_token = c.f.total;
	out->tflops_per_gpu = c.f.total * out->tokens_per_s /
	    (double)s->world / 1e12;
	out->peak_tflops = c.peak;
	out->mfu = out->tflops_per_gpu / c.peak;
	out->score = out->tokens_per_s;
	if (in->gpu_gib > 0) {
		out->memory_share = s->memory.total_gib / in->gpu_gib;
		if (out->memory_share > 1 - COST_FREE_WANTED)
			out->score /= 1 + 5.0 * (out->memory_share -
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
	memset(hw, 0, sizeof *hw);
	hw->tflops = g->tflops;
	hw->tflops_fp8 = g->tflops_fp8;
	hw->tflops_mxfp8 = g->tflops_mxfp8;
	hw->tflops_nvfp4 = g->tflops_nvfp4;
	hw->nvlink_gbs = g->nvlink_gbs;
	hw->net_gbs = g->net_gbs;
	hw->hbm_gbs = g->hbm_gbs;
	memcpy(hw->gemm_eff, g->gemm_eff, sizeof hw->gemm_eff);
	hw->attn_eff = g->attn_eff;
	hw->nvlink_everywhere = ic == INTERCONNECT_NVLINK;
	hw->site_factor = 1;
	if (ic == INTERCONNECT_ETHERNET)
		hw->net_gbs /= 2;
}
