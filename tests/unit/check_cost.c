/*
 * check_cost.c: the step-time model (src/core/cost.c), term by term:
 * what each mechanism adds or removes, worked out by hand where the
 * formula is short.  Its fit to the published runs: check_perf.c.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "flops.h"
#include "gpu.h"
#include "model-file.h"
#include "run.h"

/* MODEL on WORLD GPUs of GPU, layout L, sequence 4096, batch GBS. */
static void
sized(const char *model, const char *gpu, struct layout l, int64_t world,
    int64_t gbs, int64_t domain, struct sizing_input *in, struct sizing *s)
{
	const struct gpu_type	*g = gpu_type_find(gpu);

	sizing_input_init(in);
	in->model = *model_builtin_find(model);
	in->layout = l;
	in->world_from = WORLD_FROM_GPUS;
	in->gpus = world;
	in->seq_length = 4096;
	in->global_batch = gbs;
	in->gpus_per_node = g->gpus_per_node;
	in->nvlink_domain = domain;
	in->gpu_gib = 1000;	/* the cost, not the fit, is tested */
	in->distributed_optimizer = true;
	in->recompute = RECOMPUTE_NONE;
	/* DeepSeek-V3's 61 layers: a recipe's own pipeline layout. */
	in->pipeline_layout = in->model.num_layers % (l.pp * l.vpp) != 0;
	ck_assert_ptr_null(sizing_compute(in, s));
	ck_assert_int_eq(s->nerrors, 0);
}

static void
estimate(const struct sizing_input *in, const struct sizing *s,
    const char *gpu, struct cost *c)
{
	struct cost_hw	 hw;

	cost_hw_init(&hw, gpu_type_find(gpu), INTERCONNECT_IB);
	ck_assert_ptr_null(cost_estimate(in, s, &hw, c));
}

/*
 * Llama 3 8B on one H100, batch 8: 8 micro-batches, no communication,
 * no bubble.  Attention by hand: 6 x 4096 (q) x 4096 (s) FLOPs per token
 * and layer, 32 layers, 4096 tokens a micro-batch, at half the BF16 peak
 * times 4096 / (4096 + 256).  The terms add up to the step, tokens/s and
 * TFLOP/s follow from it with Megatron's FLOPs.
 */
START_TEST(test_by_hand)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 c;
	struct flops		 f;
	struct layout		 l = { 1, 1, 1, 1, 1, 1, false };
	double			 attn, sum = 0;
	int			 i;

	sized("llama3-8b", "h100", l, 1, 8, 0, &in, &s);
	estimate(&in, &s, "h100", &c);
	ck_assert_int_eq(c.microbatches, 8);
	attn = 8 * 32 * 6.0 * 4096 * 4096 * 4096 / (989e12 * 0.5 * 4096 /
	    (4096 + 256));
	ck_assert_double_eq_tol(c.term[COST_ATTENTION], attn, attn * 1e-9);
	for (i = 0; i < COST_NTERMS; i++)
		sum += c.term[i];
	ck_assert_double_eq_tol(c.step_s, sum, 1e-12);
	ck_assert_double_eq(c.term[COST_BUBBLE], 0);
	ck_assert_double_eq(c.term[COST_TP] + c.term[COST_CP] +
	    c.term[COST_EP] + c.term[COST_DP], 0);
	/* No P2P, and nothing synchronizes the device: the host's two
	 * schedule steps a micro-batch (0.75 ms each) run ahead of a
	 * forward and backward of 32 layers at 4096 tokens. */
	ck_assert_double_eq(c.term[COST_PP], 0);
	ck_assert_double_gt(c.term[COST_OUTPUT], 0);
	ck_assert_double_gt(c.term[COST_OPTIMIZER], 0);
	ck_assert_double_eq_tol(c.tokens_per_s, 8 * 4096 / c.step_s, 1e-6);
	ck_assert_ptr_null(flops_compute(&in.model, 4096, 1, &f));
	ck_assert_double_eq(c.flops_per_token, f.total);
	ck_assert_double_eq_tol(c.tflops_per_gpu, f.total * c.tokens_per_s /
	    1e12, 1e-9);
	ck_assert_double_eq_tol(c.mfu, c.tflops_per_gpu / 989, 1e-12);
}
END_TEST

/*
 * Nemotron 3 Nano on 8 H100, EP 8, batch 64: 8 micro-batches of 4096
 * tokens.  Only its 6 attention layers (of 52) have a causal core: 6 x
 * 4096 (q: 32 heads x 128) x 4096 FLOPs a token, at half the BF16 peak
 * times 4096 / (4096 + 256), as test_by_hand's.  Its 23 Mamba layers
 * are compute: more than their two GEMMs' FLOPs at the GPU's peak.
 */
START_TEST(test_hybrid_by_hand)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 c;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };
	double			 attn, gemms;

	sized("nemotron-3-nano", "h100", l, 8, 64, 0, &in, &s);
	estimate(&in, &s, "h100", &c);
	ck_assert_int_eq(c.microbatches, 8);
	attn = 8 * 6 * 6.0 * 4096 * 4096 * 4096 / (989e12 * 0.5 * 4096 /
	    (4096 + 256));
	ck_assert_double_eq_tol(c.term[COST_ATTENTION], attn, attn * 1e-9);
	/* in_proj 2688 x 10304, out_proj 4096 x 2688, 6 FLOPs a weight. */
	gemms = 8 * 23 * 4096 * 6.0 * (2688.0 * 10304 + 4096.0 * 2688) /
	    989e12;
	ck_assert_double_gt(c.term[COST_COMPUTE], gemms);
	ck_assert_double_eq(c.term[COST_CP], 0);
}
END_TEST

/*
 * A pattern of Mamba layers alone: CP adds MambaContextParallel's
 * all-to-alls (no attention, so no K/V ring); with '|' segments the
 * busiest rank is the one with the most layers.
 */
START_TEST(test_hybrid_mamba_cp)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 c1, c2;
	struct layout		 l = { 1, 1, 1, 1, 1, 1, false };

	sized("nemotron-3-nano", "h100", l, 8, 64, 0, &in, &s);
	in.model.hybrid_pattern = "MMMM";
	in.model.num_layers = 4;
	in.model.num_experts = 0;
	in.model.kind = MODEL_KIND_DENSE;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &c1);
	ck_assert_double_eq(c1.term[COST_CP], 0);
	in.layout.cp = 2;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &c2);
	ck_assert_double_gt(c2.term[COST_CP], 0);
	ck_assert_double_eq(c2.term[COST_ATTENTION], 0);
	in.layout.cp = 1;
	in.layout.pp = 2;
	in.layout.vpp = 1;
	in.model.hybrid_pattern = "M|MMM";
	ck_assert_ptr_null(sizing_compute(&in, &s));
	ck_assert_int_eq(s.nerrors, 0);
	estimate(&in, &s, "h100", &c1);
	ck_assert_int_eq(c1.busiest_layers, 3);
}
END_TEST

/* FP8 runs the GEMMs at the FP8 peak, attention stays BF16: faster,
 * but not twice; MFU is against the FP8 peak. */
START_TEST(test_fp8)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 bf16, fp8;
	struct layout		 l = { 8, 1, 1, 1, 1, 1, true };

	sized("llama3-70b", "h100", l, 8, 8, 0, &in, &s);
	estimate(&in, &s, "h100", &bf16);
	in.fp8 = FP8_TENSORWISE;
	estimate(&in, &s, "h100", &fp8);
	ck_assert_double_gt(fp8.tokens_per_s, 1.2 * bf16.tokens_per_s);
	ck_assert_double_lt(fp8.tokens_per_s, 2 * bf16.tokens_per_s);
	ck_assert_double_eq(fp8.term[COST_ATTENTION],
	    bf16.term[COST_ATTENTION]);
	ck_assert_double_eq(fp8.peak_tflops, 1979);
	ck_assert_double_eq(bf16.peak_tflops, 989);
}
END_TEST

/*
 * NVFP4 on GB200 (10 PFLOP/s dense, against FP8's 5): faster than FP8,
 * attention unchanged; on H100, which has no FP4, priced as FP8.  Every
 * layer kept in BF16 (bf16_last_layers) is the BF16 step exactly (no
 * weights gathered in FP4: the same DP and optimizer), half of them in
 * between; the same for a hybrid pattern's tail.
 */
START_TEST(test_nvfp4)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 bf16, fp8, fp4, half, all;
	struct layout		 l = { 8, 1, 1, 1, 1, 1, true };

	sized("llama3-70b", "gb200", l, 8, 8, 0, &in, &s);
	estimate(&in, &s, "gb200", &bf16);
	in.fp8 = FP8_MXFP8;
	estimate(&in, &s, "gb200", &fp8);
	in.fp8 = FP8_NVFP4;
	estimate(&in, &s, "gb200", &fp4);
	ck_assert_double_eq(fp4.peak_tflops, 10000);
	ck_assert_double_gt(fp4.tokens_per_s, fp8.tokens_per_s);
	ck_assert_double_eq(fp4.term[COST_ATTENTION], fp8.term[COST_ATTENTION]);
	in.bf16_last_layers = 40;
	estimate(&in, &s, "gb200", &half);
	in.bf16_last_layers = 80;
	estimate(&in, &s, "gb200", &all);
	ck_assert_double_lt(half.tokens_per_s, fp4.tokens_per_s);
	ck_assert_double_gt(half.tokens_per_s, bf16.tokens_per_s);
	ck_assert_double_eq_tol(all.step_s, bf16.step_s, bf16.step_s * 1e-12);

	in.bf16_last_layers = 0;
	in.fp8 = FP8_TENSORWISE;
	estimate(&in, &s, "h100", &fp8);
	in.fp8 = FP8_NVFP4;
	estimate(&in, &s, "h100", &fp4);
	ck_assert_double_eq(fp4.peak_tflops, fp8.peak_tflops);

	l.tp = 1;
	l.sp = false;
	sized("nemotron-3-nano", "gb200", l, 8, 64, 0, &in, &s);
	estimate(&in, &s, "gb200", &bf16);
	in.fp8 = FP8_NVFP4;
	estimate(&in, &s, "gb200", &fp4);
	in.bf16_last_layers = in.model.num_layers;
	estimate(&in, &s, "gb200", &all);
	ck_assert_double_gt(fp4.tokens_per_s, bf16.tokens_per_s);
	ck_assert_double_eq_tol(all.step_s, bf16.step_s, bf16.step_s * 1e-12);
}
END_TEST

/* NVLink domains as sets of GPUs: EP 64 inside a GB200 NVL72 domain is
 * NVLink, whatever 64 is; over 8-GPU domains it crosses the network. */
START_TEST(test_domain_set)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 nvl, net;
	struct layout		 l = { 1, 4, 1, 64, 1, 1, false };

	sized("deepseek-v3", "gb200", l, 256, 1024, 72, &in, &s);
	estimate(&in, &s, "gb200", &nvl);
	ck_assert(!nvl.crosses[COST_EP]);
	in.nvlink_domain = 8;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &net);
	ck_assert(net.crosses[COST_EP]);
	ck_assert_double_gt(net.term[COST_EP], 5 * nvl.term[COST_EP]);
	ck_assert_double_lt(net.tokens_per_s, nvl.tokens_per_s);
}
END_TEST

/* TP overlap hides TP's gathers behind the GEMMs; without it they are
 * all exposed: 8 a layer of 7/8 of s h bf16 at 0.8 x 450 GB/s, each
 * with NCCL's fixed cost of a ring of 8 over NVLink, 8.4 + 7 x 3.4 us
 * (src/graph/tuning.cc). */
START_TEST(test_tp_overlap)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 off, on;
	struct layout		 l = { 8, 1, 1, 1, 1, 1, true };

	sized("llama3-70b", "h100", l, 8, 8, 0, &in, &s);
	estimate(&in, &s, "h100", &off);
	ck_assert_double_eq_tol(off.term[COST_TP], 8 * 80 * 8 * (7.0 / 8 *
	    4096 * 8192 * 2 / (0.8 * 450e9) + (8.4 + 7 * 3.4) * 1e-6), 1e-9);
	in.tp_comm_overlap = TRI_ON;
	estimate(&in, &s, "h100", &on);
	ck_assert_double_lt(on.term[COST_TP], off.term[COST_TP] / 4);
	ck_assert_double_gt(on.tokens_per_s, off.tokens_per_s);
}
END_TEST

/* CP is a real cost: the K/V ring beyond what attention hides, and
 * shorter attention chunks; across domains it crosses. */
START_TEST(test_cp)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 c1, c2;
	struct layout		 l = { 8, 1, 1, 1, 1, 1, true };

	sized("llama3-70b", "h100", l, 16, 16, 0, &in, &s);
	estimate(&in, &s, "h100", &c1);
	l.cp = 2;
	sized("llama3-70b", "h100", l, 16, 16, 0, &in, &s);
	estimate(&in, &s, "h100", &c2);
	ck_assert(c2.crosses[COST_CP]);
	ck_assert_double_gt(c2.term[COST_CP], 0);
	ck_assert_double_lt(c2.tokens_per_s, c1.tokens_per_s);
}
END_TEST

/* GPT-OSS's sliding windows: half its layers attend to 128 tokens, so
 * the core attention is about half the full model's (12 of 24 layers at
 * s / 2 = 2048 tokens, 12 at 126), the rest unchanged.  (The step need
 * not shrink: so small a MoE layer is host-bound, MOE_HOST_S.) */
START_TEST(test_sliding_window)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 win, full;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };

	sized("gpt-oss-20b", "h100", l, 8, 64, 0, &in, &s);
	estimate(&in, &s, "h100", &win);
	in.model.sliding_window = 0;
	estimate(&in, &s, "h100", &full);
	ck_assert_double_gt(win.term[COST_ATTENTION], 0);
	ck_assert_double_eq_tol(win.term[COST_ATTENTION] /
	    full.term[COST_ATTENTION], (18 * 2048.0 + 18 * (128 - 128.0 *
	    127 / 8192)) / (36 * 2048.0), 1e-3);
	ck_assert_double_ge(win.tokens_per_s, full.tokens_per_s);
}
END_TEST

/* The dispatcher: DeepEP and HybridEP move the same bytes faster and
 * skip the host sync; the a2a overlap hides most of the rest. */
START_TEST(test_dispatcher)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 a2a, deepep, hybrid, ov;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };

	sized("qwen3-30b-a3b", "b200", l, 8, 64, 0, &in, &s);
	estimate(&in, &s, "b200", &a2a);
	in.dispatcher = DISPATCH_DEEPEP;
	estimate(&in, &s, "b200", &deepep);
	in.dispatcher = DISPATCH_HYBRIDEP;
	estimate(&in, &s, "b200", &hybrid);
	ck_assert_double_lt(deepep.term[COST_EP], a2a.term[COST_EP]);
	ck_assert_double_lt(hybrid.term[COST_EP], deepep.term[COST_EP]);
	/* Every dispatcher is host-bound below the floor (host_bound()):
	 * DeepEP's gain is its exchange. */
	ck_assert_double_ge(deepep.tokens_per_s, a2a.tokens_per_s);
	in.dispatcher = DISPATCH_ALLTOALL;
	in.moe_a2a_overlap = true;
	estimate(&in, &s, "b200", &ov);
	ck_assert_double_lt(ov.term[COST_EP], a2a.term[COST_EP] / 4);
}
END_TEST

/* Bubble: (PP - 1) / VPP micro-batch times; VPP 2 halves it. */
START_TEST(test_bubble)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 c1, c2;
	struct layout		 l = { 8, 4, 1, 1, 1, 1, true };
	double			 t_mb = 0;
	int			 i;

	sized("llama3-70b", "h100", l, 64, 128, 0, &in, &s);
	estimate(&in, &s, "h100", &c1);
	ck_assert_int_eq(c1.microbatches, 64);
	for (i = 0; i < COST_NTERMS; i++)
		if (i != COST_BUBBLE && i != COST_DP && i != COST_OPTIMIZER)
			t_mb += c1.term[i] / 64;
	ck_assert_double_eq_tol(c1.term[COST_BUBBLE], 3 * t_mb, 1e-9);
	l.vpp = 2;
	sized("llama3-70b", "h100", l, 64, 128, 0, &in, &s);
	estimate(&in, &s, "h100", &c2);
	ck_assert_double_lt(c2.term[COST_BUBBLE], c1.term[COST_BUBBLE]);
	ck_assert_double_gt(c2.tokens_per_s, c1.tokens_per_s);
}
END_TEST

/* The site's factor multiplies tokens/s; full recompute costs a third
 * of the compute more; GPU types without speeds are refused. */
START_TEST(test_site_recompute_refusal)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 c, d;
	struct cost_hw		 hw;
	struct layout		 l = { 1, 1, 1, 1, 1, 1, false };

	sized("llama3-8b", "h100", l, 1, 8, 0, &in, &s);
	cost_hw_init(&hw, gpu_type_find("h100"), INTERCONNECT_IB);
	ck_assert_ptr_null(cost_estimate(&in, &s, &hw, &c));
	hw.site_factor = 0.8;
	ck_assert_ptr_null(cost_estimate(&in, &s, &hw, &d));
	ck_assert_double_eq_tol(d.tokens_per_s, 0.8 * c.tokens_per_s, 1e-6);
	hw.site_factor = 1;
	in.recompute = RECOMPUTE_FULL;
	ck_assert_ptr_null(cost_estimate(&in, &s, &hw, &d));
	ck_assert_double_gt(d.term[COST_RECOMPUTE], 0.3 *
	    (c.term[COST_COMPUTE] + c.term[COST_ATTENTION]));
	memset(&hw, 0, sizeof hw);
	ck_assert_ptr_nonnull(cost_estimate(&in, &s, &hw, &d));
}
END_TEST

/* The optimizer steps the GPU's shard: without the distributed
 * optimizer every DP rank steps all its stage's parameters, DP times
 * more; 38 bytes per parameter at HBM speed. */
START_TEST(test_optimizer)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 dist, full;
	struct layout		 l = { 1, 1, 1, 1, 1, 1, false };

	sized("llama3-8b", "h100", l, 8, 64, 0, &in, &s);
	estimate(&in, &s, "h100", &dist);
	ck_assert_double_eq_tol(dist.term[COST_OPTIMIZER], s.memory.params /
	    8 * 38 / 3350e9, 1e-9);
	in.distributed_optimizer = false;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &full);
	ck_assert_double_eq_tol(full.term[COST_OPTIMIZER],
	    8 * dist.term[COST_OPTIMIZER], 1e-9);
}
END_TEST

/*
 * Megatron-FSDP, Llama 3 8B on 8 H100 of one node, DP 8, batch 64: 8
 * micro-batches.  With sharded weights each micro-batch gathers every
 * weight twice (forward, backward) and reduce-scatters the fp32
 * gradients: P (2 + 2 + 4) 7/8 bytes at NVLink speed and COLL_EFF 0.8,
 * less than the micro-batch's compute, so FSDP_LEFT (half) of it stays
 * exposed, and the first layer's gather (1/32 of one gather).
 * optim_grads: the gradients every micro-batch, the weights once a step
 * as the distributed optimizer gathers them (the last 128 Mi-parameter
 * bucket exposed).  optim: the distributed optimizer's term.
 */
START_TEST(test_fsdp)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 dist, c;
	struct cost_hw		 hw;
	struct layout		 l = { 1, 1, 1, 1, 1, 1, false };
	double			 bw, P, gather, grads;

	sized("llama3-8b", "h100", l, 8, 64, 0, &in, &s);
	estimate(&in, &s, "h100", &dist);
	cost_hw_init(&hw, gpu_type_find("h100"), INTERCONNECT_IB);
	bw = hw.nvlink_gbs * 1e9 * 0.8;
	P = s.memory.params;
	gather = P * 2 * 7 / 8 / bw;
	grads = P * 4 * 7 / 8 / bw;

	in.fsdp = FSDP_OPTIM_GRADS_PARAMS;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &c);
	ck_assert_int_eq(c.microbatches, 8);
	ck_assert_double_eq_tol(c.term[COST_DP], 8 * (gather / 32 +
	    0.5 * (2 * gather + grads)), 1e-9);
	/* The compute is the same; only the DP term moves. */
	ck_assert_double_eq_tol(c.term[COST_COMPUTE], dist.term[COST_COMPUTE],
	    1e-12);

	in.fsdp = FSDP_OPTIM_GRADS;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &c);
	ck_assert_double_eq_tol(c.term[COST_DP], 8 * 0.5 * grads +
	    gather * 134217728.0 / P, 1e-9);

	in.fsdp = FSDP_OPTIM;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &c);
	ck_assert_double_eq_tol(c.term[COST_DP], dist.term[COST_DP], 1e-12);
}
END_TEST

/*
 * FSDP's rings over several NVLink domains: Llama 3 8B on 16 H100 (two
 * nodes), TP 2, DP 8, batch 64.  The DP group's 4 members in a node
 * cross to the other on their 4 NICs: 4 x 50 GB/s, not one NIC's 50
 * (and below NVLink's 450).  Compute still covers the traffic: half of
 * it exposed, and the first of 32 layers' gather.
 */
START_TEST(test_fsdp_domains)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 c;
	struct layout		 l = { 2, 1, 1, 1, 1, 1, true };
	double			 bw = 4 * 50e9 * 0.8, P, gather, grads;

	sized("llama3-8b", "h100", l, 16, 64, 0, &in, &s);
	in.fsdp = FSDP_OPTIM_GRADS_PARAMS;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &c);
	P = s.memory.params;
	gather = P * 2 * 7 / 8 / bw;
	grads = P * 4 * 7 / 8 / bw;
	ck_assert(c.crosses[COST_DP]);
	ck_assert_double_eq_tol(c.term[COST_DP], 8 * (gather / 32 +
	    0.5 * (2 * gather + grads)), 1e-9);
}
END_TEST

/*
 * The interleaved schedule's steps: each virtual stage's forward and
 * backward of a micro-batch is a schedule step with a P2P exchange whose
 * NCCL fixed cost (8.4 + 3.4 us inside a GB300 NVL72 domain) is charged
 * whole; the host's step (0.75 ms) is not, as nothing synchronizes the
 * device with VPP (overlap_p2p_comm, no batch_p2p_comm) and a layer of
 * 70B outlasts it.  Llama 3 70B, TP 2, PP 4 on 64 GB300, batch 128: 16
 * micro-batches; VPP 20 (a layer a chunk) against VPP 5 adds 16 x 2 x
 * 15 fixed costs, and the transfers' overlapped remainder.
 */
START_TEST(test_vpp_steps)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 five, twenty;
	struct layout		 l = { 2, 4, 1, 1, 1, 5, true };
	double			 steps = 16 * 2 * 15 * 11.8e-6;

	sized("llama3-70b", "gb300", l, 64, 128, 72, &in, &s);
	estimate(&in, &s, "gb300", &five);
	l.vpp = 20;
	sized("llama3-70b", "gb300", l, 64, 128, 72, &in, &s);
	estimate(&in, &s, "gb300", &twenty);
	ck_assert_int_eq(five.microbatches, 16);
	ck_assert_double_ge(twenty.term[COST_PP] - five.term[COST_PP],
	    steps);
	ck_assert_double_le(twenty.term[COST_PP] - five.term[COST_PP],
	    1.05 * steps);
	ck_assert_double_lt(twenty.term[COST_BUBBLE], five.term[COST_BUBBLE]);
}
END_TEST

/*
 * Without VPP, Bridge runs batch_p2p_comm and Megatron synchronizes the
 * device after every exchange (p2p_communication.py d98e8a64:418-421):
 * the host's step is exposed whole, 2 a micro-batch, unless a
 * full-iteration CUDA graph replays the schedule.  The same 70B at PP 4
 * VPP 1: 16 x 2 x 0.75 ms.  With VPP, where the work of a step is less
 * than the host's (Llama 3 8B at 128 tokens, a layer a chunk), the
 * host's step shows beyond it.
 */
START_TEST(test_pp_sync)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 none, full, small;
	struct layout		 l = { 2, 4, 1, 1, 1, 1, true };

	sized("llama3-70b", "gb300", l, 64, 128, 72, &in, &s);
	estimate(&in, &s, "gb300", &none);
	ck_assert_double_ge(none.term[COST_PP], 16 * 2 * (0.75e-3 +
	    11.8e-6));
	in.cuda_graphs = CUDA_GRAPH_FULL_ITERATION;
	estimate(&in, &s, "gb300", &full);
	ck_assert_double_eq_tol(none.term[COST_PP] - full.term[COST_PP],
	    16 * 2 * 0.75e-3, 1e-9);

	l.vpp = 8;
	sized("llama3-8b", "gb300", l, 64, 128, 72, &in, &s);
	in.seq_length = 128;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb300", &small);
	ck_assert_double_gt(small.term[COST_PP], 16 * 2 * 8 * 0.5e-3);
	ck_assert_double_lt(small.term[COST_PP], 16 * 2 * 8 * (0.75e-3 +
	    11.8e-6) + 1e-3);
}
END_TEST

/*
 * Full recompute runs each layer's forward again, its communication
 * with it: half the EP exchanges (dispatch and combine) and the alltoall
 * dispatcher's host sync (1 ms a MoE layer and micro-batch) whole,
 * not a third of them.  Qwen3-30B-A3B, EP 8 on 8 H100, batch 8.
 */
START_TEST(test_full_recompute_moe)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 none, full;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };

	sized("qwen3-30b-a3b", "h100", l, 8, 8, 0, &in, &s);
	estimate(&in, &s, "h100", &none);
	ck_assert_double_eq(none.term[COST_RECOMPUTE], 0);
	in.recompute = RECOMPUTE_FULL;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &full);
	ck_assert_double_gt(none.term[COST_EP], 0);
	ck_assert_double_gt(full.term[COST_RECOMPUTE], none.term[COST_EP] / 2 +
	    48 * (double)none.microbatches * 1.0e-3 + (none.term[COST_COMPUTE] +
	    none.term[COST_ATTENTION]) / 3);
}
END_TEST

/*
 * Selective recompute's modules (memory.h recomputes()): with none named,
 * Megatron's default core_attn, a third of the core attention again;
 * named, only what the list names: "moe_act" alone charges no attention
 * but one forward of the experts' SwiGLU, 6 bytes a unit of expert width
 * (768) for each of the micro-batch's 4096 x top-8 copies over Qwen3's 48
 * MoE layers, at the H100's memory bandwidth.
 */
START_TEST(test_recompute_modules)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 def, attn, act;
	struct cost_hw		 hw;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };

	sized("qwen3-30b-a3b", "h100", l, 8, 8, 0, &in, &s);
	in.recompute = RECOMPUTE_SELECTIVE;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "h100", &def);
	ck_assert_double_eq_tol(def.term[COST_RECOMPUTE],
	    def.term[COST_ATTENTION] / 3, 1e-9 * def.term[COST_ATTENTION]);
	in.recompute_modules = recompute_modules_parse("['core_attn']");
	estimate(&in, &s, "h100", &attn);
	ck_assert_double_eq(attn.term[COST_RECOMPUTE],
	    def.term[COST_RECOMPUTE]);
	in.recompute_modules = recompute_modules_parse("moe_act");
	estimate(&in, &s, "h100", &act);
	cost_hw_init(&hw, gpu_type_find("h100"), INTERCONNECT_IB);
	ck_assert_double_eq_tol(act.term[COST_RECOMPUTE], 6.0 * 4096 * 8 *
	    768 * 48 * (double)act.microbatches / (hw.hbm_gbs * 1e9),
	    1e-9 * act.term[COST_RECOMPUTE]);
	/* Not with full recompute, whose own count holds. */
	ck_assert(!recomputes(RECOMPUTE_FULL, RECOMPUTE_MOE_ACT,
	    RECOMPUTE_MOE_ACT));
	ck_assert(!recomputes(RECOMPUTE_SELECTIVE,
	    recompute_modules_parse("layernorm,mla_up_proj"),
	    RECOMPUTE_CORE_ATTN));
	ck_assert_uint_eq(recompute_modules_parse("['moe', 'mlp', 'x']"),
	    RECOMPUTE_LISTED | RECOMPUTE_MOE | RECOMPUTE_MLP);
	/* An empty list recomputes nothing, not the default core_attn. */
	ck_assert(!recomputes(RECOMPUTE_SELECTIVE,
	    recompute_modules_parse("[]"), RECOMPUTE_CORE_ATTN));
	in.recompute_modules = recompute_modules_parse("[]");
	estimate(&in, &s, "h100", &act);
	ck_assert_double_eq(act.term[COST_RECOMPUTE], 0);
}
END_TEST

/*
 * A MoE layer is host-bound at small micro-batches: it takes the host's
 * 12 ms to issue however little the GPU has to do.  Qwen3-30B-A3B (48
 * MoE layers) at sequence 256, micro-batch 1: every layer of every
 * micro-batch takes exactly 12 ms; at micro-batch 64 the GPU's work
 * exceeds it; DeepEP is held to the same floor (its sync and the
 * host's launches).
 */
START_TEST(test_host_bound)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 one, big, deepep;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };
	double			 layers;

	sized("qwen3-30b-a3b", "gb200", l, 8, 64, 72, &in, &s);
	in.seq_length = 256;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &one);
	ck_assert_int_eq(one.microbatches, 8);
	ck_assert_int_eq(in.model.moe_dense_layers, 0);
	layers = one.term[COST_COMPUTE] + one.term[COST_ATTENTION] +
	    one.term[COST_MOE] + one.term[COST_EP] + one.term[COST_TP] +
	    one.term[COST_RECOMPUTE];
	ck_assert_double_eq_tol(layers, 8 * 48 * 12.0e-3, 1e-9);
	in.micro_batch = 64;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &big);
	ck_assert_double_gt(big.term[COST_COMPUTE] + big.term[COST_ATTENTION] +
	    big.term[COST_MOE] + big.term[COST_EP] + big.term[COST_RECOMPUTE],
	    48 * 12.0e-3);
	in.micro_batch = 1;
	in.dispatcher = DISPATCH_DEEPEP;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &deepep);
	layers = deepep.term[COST_COMPUTE] + deepep.term[COST_ATTENTION] +
	    deepep.term[COST_MOE] + deepep.term[COST_EP] +
	    deepep.term[COST_TP] + deepep.term[COST_RECOMPUTE];
	ck_assert_double_eq_tol(layers, 8 * 48 * 12.0e-3, 1e-9);
}
END_TEST

/*
 * CUDA graphs (test_host_bound's 48 host-bound layers, 8 micro-batches):
 * per-layer graphs (TE, local) with the recipes' scope leave the part
 * after the dispatcher's sync to the host: the same 12 ms floor; a
 * full-iteration graph replays the step: a MoE layer takes 8 ms.  At
 * PP 1 nothing synchronizes the device, so the host's schedule steps
 * are under the layers' work either way (test_pp_sync: where they show).
 */
START_TEST(test_cuda_graphs)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 none, te, full;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };
	double			 layers;

	sized("qwen3-30b-a3b", "gb200", l, 8, 64, 72, &in, &s);
	in.seq_length = 256;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &none);
	in.cuda_graphs = CUDA_GRAPH_TE;
	estimate(&in, &s, "gb200", &te);
	ck_assert_double_eq_tol(te.step_s, none.step_s, 1e-12);
	in.cuda_graphs = CUDA_GRAPH_FULL_ITERATION;
	estimate(&in, &s, "gb200", &full);
	layers = full.term[COST_COMPUTE] + full.term[COST_ATTENTION] +
	    full.term[COST_MOE] + full.term[COST_EP] + full.term[COST_TP] +
	    full.term[COST_RECOMPUTE];
	ck_assert_double_eq_tol(layers, 8 * 48 * 8.0e-3, 1e-9);
	ck_assert_double_eq(none.term[COST_PP], 0);
	ck_assert_double_eq(full.term[COST_PP], 0);
}
END_TEST

/* The MoE layers' share of the step: every compute and communication
 * term of a layer (PP 1, no bubble). */
static double
layer_terms(const struct cost *c)
{
	return c->term[COST_COMPUTE] + c->term[COST_ATTENTION] +
	    c->term[COST_MOE] + c->term[COST_EP] + c->term[COST_TP] +
	    c->term[COST_RECOMPUTE];
}

/*
 * Every dispatcher waits for the token counts on the host once a MoE
 * layer and micro-batch (moe_sync()): DeepEP returns them as a host
 * list, HybridEP without a static budget sizes its buffers from them.
 * Qwen3-30B-A3B on 8 GB200 with EP 1 (no exchange, so the dispatchers
 * differ in nothing else), micro-batches of 64 x 4096 tokens, above the
 * host floor (54 ms a layer with 128 local experts, 36 ms under a
 * full-iteration graph): the MoE term is the same for the three, and a
 * full-iteration graph (whose recipes give HybridEP its static budget)
 * takes 2 ms a layer and micro-batch off it.
 */
START_TEST(test_dispatcher_sync)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 a2a, deepep, hybrid, full;
	struct layout		 l = { 1, 1, 1, 1, 1, 1, false };

	sized("qwen3-30b-a3b", "gb200", l, 8, 1024, 72, &in, &s);
	in.micro_batch = 64;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &a2a);
	ck_assert_int_eq(a2a.microbatches, 2);
	ck_assert_double_gt(layer_terms(&a2a), 2 * 48 * 54.0e-3);
	in.dispatcher = DISPATCH_DEEPEP;
	estimate(&in, &s, "gb200", &deepep);
	in.dispatcher = DISPATCH_HYBRIDEP;
	estimate(&in, &s, "gb200", &hybrid);
	ck_assert_double_eq_tol(deepep.term[COST_MOE], a2a.term[COST_MOE],
	    1e-12);
	ck_assert_double_eq_tol(hybrid.term[COST_MOE], a2a.term[COST_MOE],
	    1e-12);
	in.cuda_graphs = CUDA_GRAPH_FULL_ITERATION;
	estimate(&in, &s, "gb200", &full);
	ck_assert_double_eq_tol(hybrid.term[COST_MOE] - full.term[COST_MOE],
	    2 * 48 * 2.0e-3, 1e-9);
}
END_TEST

/*
 * The routed copies' passes through memory (moe_copy_bytes()), at the
 * GPU's HBM speed: Qwen3-30B-A3B (h 2048, top-8, 128 experts) on 8
 * GB200 with EP 8 (16 local experts), BF16, micro-batches of 16 x 4096
 * tokens.  HybridEP permutes inside its dispatch and combine: the 16
 * bytes a copy and unit width of every dispatcher.  DeepEP permutes and
 * unpermutes after its own buffers: 16 more.  The alltoall dispatcher's
 * copies go through NCCL's buffers (16) and are sorted by local expert
 * and back (16): 32 more than HybridEP's.  Per micro-batch and layer
 * that is bytes x 8 x 2048 x 65536 over 8 TB/s; 2 micro-batches, 48
 * layers.  FP8 adds the casts of each copy's input and output gradient
 * (8 bytes) to every dispatcher alike.
 */
START_TEST(test_moe_copy_bytes)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 a2a, deepep, hybrid;
	struct layout		 l = { 1, 1, 1, 8, 1, 1, false };
	double			 per = 8.0 * 2048 * 65536 / 8000e9 * 2 * 48;

	sized("qwen3-30b-a3b", "gb200", l, 8, 256, 72, &in, &s);
	in.micro_batch = 16;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &a2a);
	ck_assert_int_eq(a2a.microbatches, 2);
	ck_assert_double_gt(layer_terms(&a2a), 2 * 48 * 12.0e-3);
	in.dispatcher = DISPATCH_DEEPEP;
	estimate(&in, &s, "gb200", &deepep);
	in.dispatcher = DISPATCH_HYBRIDEP;
	estimate(&in, &s, "gb200", &hybrid);
	ck_assert_double_gt(layer_terms(&hybrid), 2 * 48 * 12.0e-3);
	ck_assert_double_eq_tol(a2a.term[COST_MOE] - hybrid.term[COST_MOE],
	    32 * per, 1e-9);
	ck_assert_double_eq_tol(deepep.term[COST_MOE] -
	    hybrid.term[COST_MOE], 16 * per, 1e-9);
}
END_TEST

/*
 * GPT-OSS's experts pay two passes outside their fused kernels (cost.c
 * expert_extra_bytes()): the clamp and cat of fc1's output, 36 bytes a
 * copy per unit of expert width, and fc2's bias added with the routing
 * probabilities, 24 bytes per unit of hidden width.  GPT-OSS 120B on 64
 * GB200 at EP 64, micro-batch 4 (16384 tokens, GPU-bound: above the
 * floor): 5 micro-batches x 36 layers x 16384 tokens x 4 copies x (36 x
 * 2880 + 24 x 2880) bytes at 8 TB/s, against the same model without the
 * clamp and the bias.  Under a full-iteration graph (the op fuser's
 * recipes) neither is charged.
 */
START_TEST(test_expert_extra_bytes)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 oss, plain;
	struct layout		 l = { 1, 1, 1, 64, 1, 1, false };
	double			 want = 5.0 * 36 * 16384 * 4 * (36 + 24) *
				    2880 / 8000e9;

	sized("gpt-oss-120b", "gb200", l, 64, 1280, 72, &in, &s);
	in.micro_batch = 4;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &oss);
	ck_assert_int_eq(oss.microbatches, 5);
	in.model.activation_clamp = 0;
	in.model.linear_bias = false;
	estimate(&in, &s, "gb200", &plain);
	ck_assert_double_eq_tol(oss.term[COST_MOE] - plain.term[COST_MOE],
	    want, 1e-9);
	in.cuda_graphs = CUDA_GRAPH_FULL_ITERATION;
	estimate(&in, &s, "gb200", &plain);
	in.model.activation_clamp = 7;
	in.model.linear_bias = true;
	estimate(&in, &s, "gb200", &oss);
	ck_assert_double_eq_tol(oss.term[COST_MOE], plain.term[COST_MOE],
	    1e-12);
}
END_TEST

/*
 * YaRN's concentration factor (GPT-OSS: factor 32, no mscale pair) keeps
 * RoPE out of Transformer Engine's fused kernel (cost.c rope_unfused()):
 * 36 bytes more per element of the query (64 x 64) and key (8 x 64)
 * rotated, per token and layer.  GPT-OSS 120B on 64 GB200 as above: 5
 * micro-batches x 36 layers x 16384 tokens x 4608 x 36 bytes at 8 TB/s,
 * against the same model with YaRN's factor at 1 (no concentration).
 */
START_TEST(test_rope_unfused)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 yarn, plain;
	struct layout		 l = { 1, 1, 1, 64, 1, 1, false };
	double			 want = 5.0 * 36 * 16384 * 4608 * 36 / 8000e9;

	sized("gpt-oss-120b", "gb200", l, 64, 1280, 72, &in, &s);
	in.micro_batch = 4;
	ck_assert_ptr_null(sizing_compute(&in, &s));
	estimate(&in, &s, "gb200", &yarn);
	in.model.rope_scaling_factor = 1;
	estimate(&in, &s, "gb200", &plain);
	ck_assert_double_eq_tol(yarn.term[COST_COMPUTE] -
	    plain.term[COST_COMPUTE], want, 1e-9);
}
END_TEST

/*
 * DeepEP and HybridEP send a token once to each remote node holding one
 * of its experts (node_dedup()); NCCL's all-to-all sends every copy.
 * Qwen3-235B-A22B (top-8 of 128) with EP 32 over four 8-GPU H100 nodes:
 * a token's 6 remote copies (8 x 24/32) reach 3 x (1 - 0.75^8) = 2.7
 * distinct nodes, 0.45 of them, so HybridEP's exchange (network-bound)
 * takes 0.45 x 0.90/0.95 of the alltoall's, plus the fixed costs both
 * pay (0.48 in all); NCCL's would be 0.95.
 */
START_TEST(test_node_dedup)
{
	static struct sizing	 s;
	struct sizing_input	 in;
	struct cost		 a2a, hybrid;
	struct layout		 l = { 1, 1, 1, 32, 1, 1, false };
	double			 want = 4 * (1 - pow(0.75, 8)) / 8 * 0.90 / 0.95;

	sized("qwen3-235b-a22b", "h100", l, 32, 64, 0, &in, &s);
	estimate(&in, &s, "h100", &a2a);
	in.dispatcher = DISPATCH_HYBRIDEP;
	estimate(&in, &s, "h100", &hybrid);
	ck_assert_double_lt(hybrid.term[COST_EP], a2a.term[COST_EP] *
	    (want + 0.08));
	ck_assert_double_gt(hybrid.term[COST_EP], a2a.term[COST_EP] *
	    (want - 0.05));
}
END_TEST

/*
 * LoRA (Llama 3 70B, TP 8, DP 4, rank 16 on the four linears): the same
 * layout runs faster than full training, its attention core unchanged;
 * the frozen weights take no part in DP's reduce and gather nor in the
 * optimizer step (the adapters alone); the FLOPs counted are 2/3 of the
 * frozen GEMMs and the core whole (flops_lora()).
 */
START_TEST(test_lora)
{
	static struct sizing	 s, sl;
	struct sizing_input	 in, il;
	struct cost		 c, cl;
	struct layout		 l = { 8, 1, 1, 1, 1, 1, true };

	sized("llama3-70b", "h100", l, 32, 32, 0, &in, &s);
	estimate(&in, &s, "h100", &c);
	sized("llama3-70b", "h100", l, 32, 32, 0, &il, &sl);
	il.lora.rank = 16;
	il.lora.targets = LORA_ALL;
	ck_assert_ptr_null(sizing_compute(&il, &sl));
	estimate(&il, &sl, "h100", &cl);
	ck_assert_double_lt(cl.step_s, c.step_s);
	ck_assert_double_gt(cl.step_s, c.step_s / 2);
	ck_assert_double_eq_tol(cl.term[COST_ATTENTION],
	    c.term[COST_ATTENTION], 1e-12);
	ck_assert_double_lt(cl.term[COST_COMPUTE], c.term[COST_COMPUTE]);
	/* The adapters are 0.25% of the weights on the GPU. */
	ck_assert_double_lt(cl.term[COST_OPTIMIZER],
	    c.term[COST_OPTIMIZER] / 100);
	ck_assert_double_lt(cl.term[COST_DP], c.term[COST_DP]);
	ck_assert_double_lt(cl.flops_per_token, c.flops_per_token * 0.7);
	ck_assert_double_gt(cl.flops_per_token, c.flops_per_token * 2 / 3);
}
END_TEST

int
main(void)
{
	Suite	*s = suite_create("cost");
	TCase	*tc = tcase_create("cost");

	tcase_add_test(tc, test_by_hand);
	tcase_add_test(tc, test_hybrid_by_hand);
	tcase_add_test(tc, test_hybrid_mamba_cp);
	tcase_add_test(tc, test_node_dedup);
	tcase_add_test(tc, test_expert_extra_bytes);
	tcase_add_test(tc, test_rope_unfused);
	tcase_add_test(tc, test_lora);
	tcase_add_test(tc, test_fp8);
	tcase_add_test(tc, test_nvfp4);
	tcase_add_test(tc, test_domain_set);
	tcase_add_test(tc, test_tp_overlap);
	tcase_add_test(tc, test_cp);
	tcase_add_test(tc, test_sliding_window);
	tcase_add_test(tc, test_dispatcher);
	tcase_add_test(tc, test_bubble);
	tcase_add_test(tc, test_site_recompute_refusal);
	tcase_add_test(tc, test_optimizer);
	tcase_add_test(tc, test_fsdp);
	tcase_add_test(tc, test_fsdp_domains);
	tcase_add_test(tc, test_vpp_steps);
	tcase_add_test(tc, test_pp_sync);
	tcase_add_test(tc, test_full_recompute_moe);
	tcase_add_test(tc, test_recompute_modules);
	tcase_add_test(tc, test_host_bound);
	tcase_add_test(tc, test_cuda_graphs);
	tcase_add_test(tc, test_dispatcher_sync);
	tcase_add_test(tc, test_moe_copy_bytes);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
