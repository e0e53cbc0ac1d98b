/*
 * check_memory.c: memory per GPU (src/core/memory.c) against figures worked
 * out by hand from Megatron-LM's theoretical formulas; the arithmetic is
 * written out in each test.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "memory.h"
#include "model-file.h"
#include "run.h"

#define GIB	1073741824.0

static struct memory_input
input(const char *name, int64_t tp, int64_t pp, int64_t ep, int64_t dp,
    int64_t edp, bool sp)
{
	struct memory_input	 in = { 0 };

	in.model = *model_builtin_find(name);
	in.layout.tp = tp;
	in.layout.pp = pp;
	in.layout.cp = 1;
	in.layout.ep = ep;
	in.layout.etp = 1;
	in.layout.vpp = 1;
	in.layout.sp = sp;
	in.dp = dp;
	in.edp = edp;
	in.seq_length = 4096;
	in.micro_batch = 1;
	in.distributed_optimizer = true;
	return in;
}

/* Llama 3 8B: L 32, h 4096, 32 heads, 8 groups, f 14336, V 128256. */
START_TEST(test_llama3_8b)
{
	struct memory_input	 in = input("llama3-8b", 2, 1, 1, 4, 8, true);
	struct memory_estimate	 e;
	/* attention 2·h·h·(1 + 8/32) = 41943040; MLP 2·h·(1.5·f + 1)
	 * = 176168960; per layer 218112000; 32 layers + final norm 4096 =
	 * 6979588096; embedding h·V = 525336576, untied: twice. */
	double	 block = 32.0 * (2.0 * 4096 * 4096 * 1.25 +
	    2.0 * 4096 * (1.5 * 14336 + 1)) + 4096;
	double	 emb = 4096.0 * 128256;
	/* TP 2, PP 1: (block + emb)/2, and the output layer emb/2. */
	double	 shard = (block + emb) / 2 + emb / 2;
	/* Activations, SP + selective, Megatron's: s·b·h·(18 + 4·f/h)·L +
	 * 8·s·b·PP + s·b·h·PP + s·b·h·4·(1 + V/h), all over TP. */
	double	 sbh = 4096.0 * 4096;
	double	 act = (sbh * (18 + 4.0 * 14336 / 4096) * 32 + 8.0 * 4096 +
	    sbh + sbh * 4 * (1 + 128256.0 / 4096)) / 2;
	/* What runs: K and V 8 groups of 128 wide, 1024 = h/4, so 2·2·3/4
	 * = 3 less; no dropout masks, 2 less: 27 per s·b·h, not 32. */
	double	 saving = sbh * 5 * 32 / 2;

	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(block, 6979588096.0);
	/* The formulas give Llama 3 8B's published count exactly. */
	ck_assert_double_eq(e.model_params, 8030261248.0);
	ck_assert_double_eq(e.params, shard);
	ck_assert_double_eq_tol(e.params_gib, 2 * shard / GIB, 1e-9);
	ck_assert_double_eq_tol(e.grads_gib, 4 * shard / GIB, 1e-9);
	/* Distributed optimizer over DP 4: 12/4 bytes per parameter. */
	ck_assert_double_eq_tol(e.optimizer_gib, 3 * shard / GIB, 1e-9);
	/* Megatron's formula, less what mbsbatch takes off it. */
	ck_assert_double_eq_tol(e.activations_gib + e.dense_saving_gib,
	    act / GIB, 1e-9);
	ck_assert_double_eq_tol(e.dense_saving_gib, saving / GIB, 1e-9);
	ck_assert_double_eq_tol(act / GIB, 9.0176, 1e-4);
	ck_assert_double_eq_tol(e.activations_gib, 9.0176 - 1.25, 1e-4);
	ck_assert_double_eq_tol(e.total_gib, 7.4787 + 14.9575 + 11.2181 +
	    7.7676, 1e-3);
	ck_assert_double_eq(e.moe_activations_gib, 0);
}
END_TEST

/* Llama 3 70B, TP 8, PP 4 on 64 GPUs (DP 2), no SP, 8 micro-batches. */
/*
 * Megatron-FSDP on Llama 3 8B, TP 2, DP 4.  The shard of test_llama3_8b,
 * 4015130624 parameters; the largest FSDP unit is the embedding over TP,
 * h·V/2 = 262668288 (a layer is 218112000/2).  Sharded over DP 4 with two
 * units whole: 4015130624/4 + 2·262668288 = 1529119232 parameters.
 */
START_TEST(test_fsdp)
{
	struct memory_input	 in = input("llama3-8b", 2, 1, 1, 4, 8, true);
	struct memory_estimate	 e;
	double	 shard = 4015130624.0, unit = 4096.0 * 128256 / 2;
	double	 sharded = shard / 4 + 2 * unit;

	ck_assert_double_eq(sharded, 1529119232.0);
	in.fsdp = FSDP_OPTIM_GRADS_PARAMS;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(e.params, shard);	/* the stage's, unsharded */
	ck_assert_double_eq_tol(e.params_gib, 2 * sharded / GIB, 1e-9);
	ck_assert_double_eq_tol(e.fsdp_gathered_gib, 2 * 2 * unit / GIB, 1e-9);
	ck_assert_double_eq_tol(e.grads_gib, 4 * sharded / GIB, 1e-9);
	ck_assert_double_eq_tol(e.optimizer_gib, 3 * shard / GIB, 1e-9);
	/* optim_grads: the weights whole. */
	in.fsdp = FSDP_OPTIM_GRADS;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.params_gib, 2 * shard / GIB, 1e-9);
	ck_assert_double_eq(e.fsdp_gathered_gib, 0);
	ck_assert_double_eq_tol(e.grads_gib, 4 * sharded / GIB, 1e-9);
	/* optim: the distributed optimizer's, even when asked off (FSDP
	 * turns it on). */
	in.fsdp = FSDP_OPTIM;
	in.distributed_optimizer = false;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.params_gib, 2 * shard / GIB, 1e-9);
	ck_assert_double_eq_tol(e.grads_gib, 4 * shard / GIB, 1e-9);
	ck_assert_double_eq_tol(e.optimizer_gib, 3 * shard / GIB, 1e-9);
	/* DP 1: nothing to shard, never more than unsharded. */
	in = input("llama3-8b", 2, 1, 1, 1, 2, true);
	in.fsdp = FSDP_OPTIM_GRADS_PARAMS;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.params_gib, 2 * shard / GIB, 1e-9);
	ck_assert_double_eq_tol(e.grads_gib, 4 * shard / GIB, 1e-9);
}
END_TEST

START_TEST(test_llama3_70b)
{
	struct memory_input	 in = input("llama3-70b", 8, 4, 1, 2, 16, false);
	struct memory_estimate	 e;
	/* h 8192, 64 heads, 8 groups, f 28672, L 80, V 128256. */
	double	 block = 80.0 * (2.0 * 8192 * 8192 * (1 + 8.0 / 64) +
	    2.0 * 8192 * (1.5 * 28672 + 1)) + 8192;
	double	 emb = 8192.0 * 128256;
	/* PP 4: a quarter of the block and the embedding, over TP 8. */
	double	 shard = (block / 4 + emb) / 8;
	/* No SP: s·b·h·(10 + 24/TP)·L + 8·s·b·PP + s·b·h·PP, times
	 * min(1, M/PP) = 1, times 1.05. */
	double	 sbh = 4096.0 * 8192;
	double	 act = (sbh * (10 + 24.0 / 8) * 80 + 8.0 * 4096 * 4 +
	    sbh * 4) * 1.05;

	in.num_microbatches = 8;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.model_params, 70553706496.0, 1.0);
	ck_assert_double_eq_tol(e.params, shard, 1e-3);
	ck_assert_double_eq_tol(e.optimizer_gib, 6 * shard / GIB, 1e-9);
	ck_assert_double_eq_tol(e.activations_gib, act / GIB, 1e-9);
	/* Fewer micro-batches than stages: fewer in flight. */
	in.num_microbatches = 2;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, act / 2 / GIB, 1e-9);
	/* Without the distributed optimizer: 12 bytes per parameter. */
	in.distributed_optimizer = false;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.optimizer_gib, 12 * shard / GIB, 1e-9);
}
END_TEST

/*
 * LoRA on Llama 3 70B (Bridge's llama3_70b_peft_config: rank 16, the
 * four linears), TP 8, PP 4, DP 2: every weight kept, gradients and
 * optimizer state for the adapters alone.  Per layer, A (in x 16) and
 * B (16 x out) for each target: linear_qkv 8192 -> 8192 + 2·1024,
 * linear_proj 8192 -> 8192, linear_fc1 8192 -> 2·28672, linear_fc2
 * 28672 -> 8192: 16·(18432 + 16384 + 65536 + 36864) = 2195456.
 */
START_TEST(test_lora)
{
	struct memory_input	 in = input("llama3-70b", 8, 4, 1, 2, 16, false);
	struct memory_estimate	 e, full;
	double			 adapters = 2195456.0 * 20 / 8;

	in.num_microbatches = 8;
	ck_assert_ptr_null(memory_estimate(&in, &full));
	in.lora.rank = 16;
	in.lora.targets = LORA_ALL;
	ck_assert_double_eq_tol(memory_lora_layer_params(&in.model, &in.lora),
	    2195456.0, 1e-6);
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.adapter_params, adapters, 1e-6);
	ck_assert_double_eq_tol(e.params, full.params + adapters, 1e-3);
	/* fp32 gradients, 4 B; 12 B of optimizer state over DP 2. */
	ck_assert_double_eq_tol(e.grads_gib, 4 * adapters / GIB, 1e-12);
	ck_assert_double_eq_tol(e.optimizer_gib, 6 * adapters / GIB, 1e-12);
	ck_assert_double_eq_tol(e.activations_gib, full.activations_gib,
	    1e-12);
	/* The benchmark recipes' linear_qkv alone: 16·18432. */
	in.lora.targets = LORA_QKV;
	ck_assert_double_eq_tol(memory_lora_layer_params(&in.model, &in.lora),
	    294912.0, 1e-6);
}
END_TEST

/* DeepSeek-V3, TP 2, PP 16, EP 64: experts sharded by EP, not TP. */
START_TEST(test_deepseek_v3)
{
	struct memory_input	 in = input("deepseek-v3", 2, 16, 64, 32, 1,
	    true);
	struct memory_estimate	 e;
	/* 256 routed experts of width 2048, SwiGLU: 2·h·2048·256·1.5 per
	 * MoE layer; 58 MoE layers (61 - 3 dense) and 1 MTP layer. */
	double	 exp_layer = 2.0 * 7168 * 2048 * 256 * 1.5;
	double	 experts = (exp_layer * 58 / 16 + exp_layer) / 64;

	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.expert_params, experts, 1.0);
	/* Expert optimizer state over EDP 1: the full 12 bytes. */
	ck_assert(e.optimizer_gib * GIB > 12 * experts);
	/* 671B without the MTP layer (published), about 685B with it. */
	ck_assert_msg(fabs(e.model_params - 685e9) / 685e9 < 0.01, "%.4g",
	    e.model_params);
	/*
	 * MoE layers' activations (beyond Megatron): SP over TP 2, so a
	 * GPU holds T = 4096/2 = 2048 tokens; top 8 of 256 experts, ETP 1:
	 * 2048·8 copies of 4h + 6·2048 bytes; one shared expert of width
	 * 2048 as a dense MLP, s·b·h·(3 + 4·2048/h)/TP; fp32 router logits
	 * 2048·4·256.  Less the dense MLP Megatron counted with f 18432:
	 * s·b·h·(3 + 4·18432/h)/TP.  58 MoE layers, pipeline factor 1.
	 */
	{
		double	 sbh = 4096.0 * 7168;
		double	 routed = 2048.0 * 8 * (4 * 7168 + 6 * 2048);
		double	 shared = sbh * (3 + 4 * 2048.0 / 7168) / 2;
		double	 router = 2048.0 * 4 * 256;
		double	 dense = sbh * (3 + 4 * 18432.0 / 7168) / 2;
		double	 moe = (routed + shared + router - dense) * 58;

		ck_assert_double_eq(routed, 671088640.0);
		ck_assert_double_eq_tol(e.moe_activations_gib, moe / GIB,
		    1e-9);
		/* 58·(671088640 + 60817408 + 2097152 - 195035136) =
		 * 58·538968064 = 31260147712 bytes. */
		ck_assert_double_eq_tol(e.moe_activations_gib, 29.1133, 1e-4);
	}
}
END_TEST

/*
 * Recompute and CP on Llama 3 8B, TP 2, SP, PP 1: the per-layer terms of
 * Korthikanti et al. Table 2 (s 4096, b 1, h 4096, a 32, f 14336, L 32).
 */
/*
 * GPT-OSS: every linear with its bias and a sink per head, so the
 * formulas give the exact count Megatron builds (the preset's, which
 * tests/cli/conformance.sh holds the flags to).  The routed experts of
 * 120b at EP 8: 128 x (h 2F + 2F + F h + h) per layer, 36 layers.
 */
START_TEST(test_gpt_oss)
{
	struct memory_input	 in = input("gpt-oss-120b", 1, 1, 8, 64, 8,
	    false);
	struct memory_input	 in20 = input("gpt-oss-20b", 1, 1, 8, 64, 8,
	    false);
	struct memory_estimate	 e;
	double	 expert = 2880.0 * 5760 + 5760 + 2880.0 * 2880 + 2880;

	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(e.model_params, 116829156672.0);
	ck_assert_double_eq_tol(e.expert_params, expert * 128 * 36 / 8, 1.0);
	ck_assert_ptr_null(memory_estimate(&in20, &e));
	ck_assert_double_eq(e.model_params, 20914757184.0);
}
END_TEST

START_TEST(test_recompute_cp)
{
	struct memory_input	 in = input("llama3-8b", 2, 1, 1, 4, 8, true);
	struct memory_estimate	 e;
	double	 sbh = 4096.0 * 4096, rest, sel, none, full;

	/* Embedding output and logits, the same in every mode. */
	rest = (8.0 * 4096 + sbh + sbh * 4 * (1 + 128256.0 / 4096)) / 2;
	/* Selective: Megatron's 18 + 4·14336/4096 = 32 per s·b·h per layer,
	 * 27 with GQA's K and V and no dropout masks (test_llama3_8b). */
	sel = sbh * 27 * 32 / 2;
	/* None keeps what selective does: the fused attention stores no
	 * scores (Korthikanti's 5·a·s/h is for unfused attention). */
	none = sel;
	/* Full keeps 2·s·b·h per layer (over TP with SP), plus one layer
	 * recomputed at a time without recompute. */
	full = 2 * sbh * 32 / 2 + sbh * 27 / 2;

	in.recompute = RECOMPUTE_SELECTIVE;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, (sel + rest) / GIB, 1e-9);
	in.recompute = RECOMPUTE_NONE;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, (none + rest) / GIB, 1e-9);
	/* The layers: the selective 6.75 GiB. */
	ck_assert_double_eq_tol(e.activations_gib - rest / GIB, 6.75, 1e-9);
	in.recompute = RECOMPUTE_FULL;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, (full + rest) / GIB, 1e-9);

	/* CP 2 halves the sequence of every term: s 2048. */
	in.recompute = RECOMPUTE_NONE;
	in.layout.cp = 2;
	sbh = 2048.0 * 4096;
	rest = (8.0 * 2048 + sbh + sbh * 4 * (1 + 128256.0 / 4096)) / 2;
	none = sbh * 27 * 32 / 2;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, (none + rest) / GIB, 1e-9);
	/* The distributed optimizer shards over DP x CP (intra_dp_cp_group):
	 * 12 bytes over 4 x 2, not over DP 4. */
	ck_assert_double_eq_tol(e.optimizer_gib, 12 * e.params / 8 / GIB, 1e-9);
}
END_TEST

/*
 * The skill's worked example (docs/megatron-rules.md section 6): 70B dense,
 * fp16, Adam, batch 1, sequence 4096.  Whole model: params 70e9 x 2 =
 * 140 GB, gradients 140 GB, optimizer 70e9 x 4 = 280 GB, activations
 * 48 GB, total 608 GB.  TP 4, PP 4, DP 4 on 64 GPUs: every term over 16,
 * 8.75 + 8.75 + 17.50 + 3.00 = 38.00 GB.  GB here are 1e9 bytes.
 */
START_TEST(test_skill_70b)
{
	struct memory_input	 in = { 0 };
	struct memory_estimate	 e;

	in.method = MEMORY_SKILL;
	in.model.params = 70000000000;
	in.layout.tp = in.layout.pp = 1;
	in.layout.cp = in.layout.ep = in.layout.etp = in.layout.vpp = 1;
	in.dp = in.edp = 1;
	in.seq_length = 4096;
	in.micro_batch = 1;
	in.distributed_optimizer = true;	/* the rule ignores it */
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.params_gib * GIB / 1e9, 140, 0.01);
	ck_assert_double_eq_tol(e.grads_gib * GIB / 1e9, 140, 0.01);
	ck_assert_double_eq_tol(e.optimizer_gib * GIB / 1e9, 280, 0.01);
	ck_assert_double_eq_tol(e.activations_gib * GIB / 1e9, 48, 0.01);
	ck_assert_double_eq_tol(e.total_gib * GIB / 1e9, 608, 0.01);

	in.layout.tp = in.layout.pp = 4;
	in.dp = in.edp = 4;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.params_gib * GIB / 1e9, 8.75, 0.01);
	ck_assert_double_eq_tol(e.grads_gib * GIB / 1e9, 8.75, 0.01);
	ck_assert_double_eq_tol(e.optimizer_gib * GIB / 1e9, 17.50, 0.01);
	ck_assert_double_eq_tol(e.activations_gib * GIB / 1e9, 3.00, 0.01);
	ck_assert_double_eq_tol(e.total_gib * GIB / 1e9, 38.00, 0.01);

	/* Without a parameter count or an architecture: a reason. */
	in.model.params = 0;
	ck_assert_str_eq(memory_estimate(&in, &e),
	    "needs the parameter count (--params or --model)");
}
END_TEST

START_TEST(test_missing)
{
	struct memory_input	 in = input("llama3-8b", 1, 1, 1, 1, 1, false);
	struct memory_estimate	 e;

	in.seq_length = 0;
	ck_assert_ptr_nonnull(memory_estimate(&in, &e));
	in.seq_length = 4096;
	in.model.hidden_size = 0;
	ck_assert_ptr_nonnull(memory_estimate(&in, &e));
}
END_TEST

/*
 * Dtypes, on the Llama 3 8B layout of test_llama3_8b (4.015e9 parameters
 * on the GPU, DP 4): fp32 weights are 4 bytes and need no master copy, so
 * the optimizer keeps 8 bytes; bf16 gradients 2; bf16 or fp16 moments
 * make the optimizer 4 + 2 + 2 = 8 bytes, and 4 with fp32 weights.
 */
START_TEST(test_dtypes)
{
	struct memory_input	 in = input("llama3-8b", 2, 1, 1, 4, 8, true);
	struct memory_estimate	 e, d;

	ck_assert_ptr_null(memory_estimate(&in, &d));
	ck_assert_double_eq(d.params_bytes, 2);
	ck_assert_double_eq(d.grads_bytes, 4);
	ck_assert_double_eq(d.optimizer_bytes, 12);
	in.params_dtype = PRECISION_FP32;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(e.params_bytes, 4);
	ck_assert_double_eq(e.optimizer_bytes, 8);
	ck_assert_double_eq_tol(e.params_gib, 2 * d.params_gib, 1e-9);
	ck_assert_double_eq_tol(e.optimizer_gib, d.optimizer_gib * 8 / 12,
	    1e-9);
	in.params_dtype = PRECISION_BF16;
	in.grads_dtype = PRECISION_BF16;
	in.optimizer_dtype = PRECISION_FP16;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(e.grads_bytes, 2);
	ck_assert_double_eq(e.optimizer_bytes, 8);
	ck_assert_double_eq_tol(e.grads_gib, d.grads_gib / 2, 1e-9);
	ck_assert_double_eq_tol(e.optimizer_gib, e.params * 8 / 4 / GIB,
	    1e-9);
	ck_assert_double_eq_tol(e.activations_gib, d.activations_gib, 1e-12);
	in.params_dtype = PRECISION_FP32;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(e.optimizer_bytes, 4);
}
END_TEST

/*
 * FP8 training keeps the GEMM inputs in FP8 (Transformer Engine): Llama 3
 * 8B, TP 2, SP, as in test_llama3_8b.  Attention 6 + 4·1 + 4·1/4 = 11
 * per s·b·h, plus the projection's FP8 copy of the output less the QKV
 * input's byte, q - 1 = 0; the MLP 2 + 4·3.5 = 16, less 1 + 3.5: 11.5.
 */
START_TEST(test_fp8_dense)
{
	struct memory_input	 in = input("llama3-8b", 2, 1, 1, 4, 8, true);
	struct memory_estimate	 b, e;
	double	 sbh = 4096.0 * 4096;

	ck_assert_ptr_null(memory_estimate(&in, &b));
	in.fp8 = FP8_MXFP8;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(b.activations_gib - e.activations_gib,
	    sbh * 4.5 * 32 / 2 / GIB, 1e-9);
	ck_assert_double_eq_tol(e.dense_saving_gib, sbh * (32 - 22.5) * 32 /
	    2 / GIB, 1e-9);
	/* Weights, gradients and optimizer state do not change. */
	ck_assert_double_eq(e.params_gib, b.params_gib);
	ck_assert_double_eq(e.optimizer_gib, b.optimizer_gib);
}
END_TEST

/*
 * FP8 in MoE layers, DeepSeek-V3 as in test_deepseek_v3: each routed
 * copy keeps 3h + 5·f_moe (its input and the activation's output in FP8),
 * not 4h + 6·f_moe; the shared expert and the dense MLP it replaces are
 * MLPs of mlp_bytes(): 2 + 4w/h - (1 + w/h) = 1 + 3w/h, no dropout mask.
 */
START_TEST(test_fp8_moe)
{
	struct memory_input	 in = input("deepseek-v3", 2, 16, 64, 32, 1,
	    true);
	struct memory_estimate	 e;
	double	 sbh = 4096.0 * 7168;
	double	 routed = 2048.0 * 8 * (3 * 7168 + 5 * 2048);
	double	 shared = sbh * (1 + 3 * 2048.0 / 7168) / 2;
	double	 router = 2048.0 * 4 * 256;
	double	 dense = sbh * (1 + 3 * 18432.0 / 7168) / 2;

	in.fp8 = FP8_TENSORWISE;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(routed, 520093696.0);
	ck_assert_double_eq_tol(e.moe_activations_gib, (routed + shared +
	    router - dense) * 58 / GIB, 1e-9);
}
END_TEST

/*
 * The interleaved schedule: the first stage runs 2(PP - 1) + (VPP - 1)PP
 * chunks before its first backward and holds one more (schedules.py
 * get_pp_rank_microbatches).  Llama 3 70B, TP 8, SP, PP 4, VPP 5: 6 + 16
 * + 1 = 23 chunks of 80/20 = 4 layers, Megatron's 1 + 3/20 of 80 layers;
 * with 2 micro-batches the step has only 10 chunks, and so has the last
 * stage, which also holds the loss's fp32 logits (4 s V / TP bytes) and
 * no embedding: the fuller one then; the MoE all-to-all overlap runs one
 * more.
 */
START_TEST(test_interleaved)
{
	struct memory_input	 in = input("llama3-70b", 8, 4, 1, 2, 16, true);
	struct memory_estimate	 e;
	double	 sbh = 4096.0 * 8192;
	/* Attention 6 + 4 + 4·1/8; MLP 2 + 4·3.5: 26.5 per s·b·h, over TP;
	 * the embedding's 8·s·b·PP + s·b·h·PP over TP with SP. */
	double	 layers = sbh * 26.5 * 80 / 8 + (8.0 * 4096 * 4 + sbh * 4) / 8;

	in.layout.vpp = 5;
	in.num_microbatches = 8;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, layers * 23 / 20 / GIB,
	    1e-9);
	in.num_microbatches = 2;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, (sbh * 26.5 * 80 / 8 *
	    10 / 20 + 4 * 4096.0 * 128256 / 8) / GIB, 1e-9);
	ck_assert_double_gt(e.activations_gib, layers * 10 / 20 / GIB);
	in.num_microbatches = 8;
	in.moe_a2a_overlap = true;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, layers * 24 / 20 / GIB,
	    1e-9);
}
END_TEST

/*
 * TP 1: nothing is split, so SP's count with the real MLP width applies
 * (Megatron's no-SP count fixes it at 4h and adds 5%): Llama 3 8B on one
 * GPU, 27 per s·b·h, no 1.05.
 */
START_TEST(test_tp1)
{
	struct memory_input	 in = input("llama3-8b", 1, 1, 1, 8, 8, false);
	struct memory_estimate	 e;
	double	 sbh = 4096.0 * 4096;
	double	 act = sbh * 27 * 32 + 8.0 * 4096 + sbh +
	    sbh * 4 * (1 + 128256.0 / 4096);

	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.activations_gib, act / GIB, 1e-9);
	ck_assert_double_eq_tol(e.dense_saving_gib, sbh * 5 * 32 / GIB, 1e-9);
}
END_TEST


/*
 * Nemotron 3 Nano (hybrid.h): h 2688, V 131072, 23 M, 6 *, 23 E layers;
 * 128 experts of 1856, squared ReLU (fc1 not gated): one expert 2 x
 * 2688 x 1856 = 9977856.  EP 8, TP 1, PP 1: the whole model but 7/8 of
 * the routed experts.
 */
START_TEST(test_hybrid_weights)
{
	struct memory_input	 in = input("nemotron-3-nano", 1, 1, 8, 8, 1,
	    false);
	struct memory_estimate	 e;
	double	 experts = 23.0 * 128 * 2 * 2688 * 1856;
	double	 total = 31577937344.0;

	ck_assert_double_eq(experts, 23.0 * 128 * 9977856);
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq(e.model_params, total);
	ck_assert_double_eq_tol(e.expert_params, experts / 8, 1);
	ck_assert_double_eq_tol(e.params, total - experts + experts / 8, 1);
	/*
	 * PP 2: 26 layers a stage, select_pipeline_segment()'s even split.
	 * Stage 0, MEMEM*EMEMEM*EMEMEM*EMEMEM, has 12 M, 3 *, 11 E and the
	 * embedding; stage 1, *EMEMEM*EMEMEMEM*EMEMEMEME, 11 M, 3 *, 12 E,
	 * the final norm and the output layer: one more MoE layer's 16
	 * experts (160M) outweigh a Mamba layer (39M), stage 1 is the most
	 * loaded.
	 */
	in = input("nemotron-3-nano", 1, 2, 8, 4, 1, false);
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol(e.expert_params, 12.0 * 128 * 9977856 / 8, 1);
}
END_TEST

/*
 * A Mamba layer's activations, by hand: Nano's mixer, di 64 x 64 =
 * 4096, 8 groups x 128 state, 64 heads.  Per s b h: the norm's input
 * and output 4, zxBCdt 2 (2 x 4096 + 2 x 1024 + 64) / 2688, out_x, the
 * norm's input and out_proj's input 6 x 4096 / 2688;
 * full recompute keeps 2 a layer.  A pattern of Mamba layers alone.
 */
START_TEST(test_hybrid_mamba_activations)
{
	struct memory_input	 in = input("nemotron-3-nano", 1, 1, 1, 8, 8,
	    false);
	struct memory_estimate	 e, f;
	double	 sbh = 4096.0 * 2688, per;

	in.model.hybrid_pattern = "MMMM";
	in.model.num_layers = 4;
	in.model.num_experts = 0;
	in.model.kind = MODEL_KIND_DENSE;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	per = 4 + (2.0 * (2 * 4096 + 2 * 1024 + 64) + 6 * 4096) / 2688;
	in.recompute = RECOMPUTE_FULL;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	/* The difference: 4 layers kept whole, not 2 a layer, and one
	 * layer recomputed whole at a time. */
	ck_assert_double_eq_tol((e.activations_gib - f.activations_gib) *
	    GIB, 4 * sbh * (per - 2) - sbh * per, 1e3);
}
END_TEST

/*
 * Selective recompute of moe_act: the experts' activation output is not
 * kept (experts.py core_v0.19.0:882-893).  DeepSeek-V3 as above: 2048
 * tokens a GPU (4096 over TP 2 with SP), top-8, 16384 routed copies,
 * each with an activation output 2048 wide: 2 bytes an element in BF16,
 * 1 in FP8, over 58 MoE layers.  Not without selective recompute.
 */
START_TEST(test_moe_act)
{
	struct memory_input	 in = input("deepseek-v3", 2, 16, 64, 32, 1,
	    true);
	struct memory_estimate	 e, f;

	ck_assert_ptr_null(memory_estimate(&in, &e));
	in.recompute_modules = RECOMPUTE_MOE_ACT;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq_tol((e.activations_gib - f.activations_gib) * GIB,
	    16384.0 * 2048 * 2 * 58, 1);
	in.fp8 = FP8_TENSORWISE;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	in.recompute_modules = 0;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	ck_assert_double_eq_tol((e.activations_gib - f.activations_gib) * GIB,
	    16384.0 * 2048 * 58, 1);
	in.recompute = RECOMPUTE_NONE;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	in.recompute_modules = RECOMPUTE_MOE_ACT;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq(e.activations_gib, f.activations_gib);
}
END_TEST

/*
 * Selective recompute of "layernorm" frees each norm's output, the
 * saved input of the QKV GEMM in all 61 of DeepSeek-V3's layers and of
 * fc1 in its 3 dense ones: 2 bytes (BF16) for each of the 2048 tokens a
 * GPU (4096 over TP 2 with SP), 7168 wide; "mlp" keeps the 3 dense MLPs'
 * input alone, freeing their 4 x 18432 wide SwiGLU; "moe" keeps each of
 * the 58 MoE layers' input alone.
 */
START_TEST(test_recompute_modules)
{
	struct memory_input	 in = input("deepseek-v3", 2, 16, 64, 32, 1,
	    true);
	struct memory_estimate	 e, f;

	ck_assert_ptr_null(memory_estimate(&in, &e));
	in.recompute_modules = RECOMPUTE_LAYERNORM;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq_tol((e.activations_gib - f.activations_gib) * GIB,
	    2.0 * 2048 * 7168 * 64, 1);
	in.recompute_modules = RECOMPUTE_MLP;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq_tol((e.activations_gib - f.activations_gib) * GIB,
	    4.0 * 2048 * 18432 * 3, 1);
	in.recompute_modules = RECOMPUTE_MOE;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq_tol(f.moe_activations_gib * GIB, 58 * 2048.0 *
	    7168 * (2 - (2 + 4.0 * 18432 / 7168)), 1);
}
END_TEST

/*
 * Offloading the fused grouped MLP: of the 16384 copies' saved tensors,
 * fc1's input (7168 wide: 117M elements), fc1's output (2 x 2048: 67M)
 * and the activation's output (2048: 34M), those of at least
 * min_offloaded elements leave the GPU, in all but one of the 58 MoE
 * layers.
 */
START_TEST(test_offload)
{
	struct memory_input	 in = input("deepseek-v3", 2, 16, 64, 32, 1,
	    true);
	struct memory_estimate	 e, f;

	ck_assert_ptr_null(memory_estimate(&in, &e));
	in.offload_modules = OFFLOAD_FUSED_GROUP_MLP;
	in.min_offloaded = 50000000;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq_tol((e.activations_gib - f.activations_gib) * GIB,
	    16384.0 * (2 * 7168 + 2 * 4096) * 57, 1);
	in.min_offloaded = 200000000;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq(e.activations_gib, f.activations_gib);
	/* Megatron's default, 1024 x 1024 elements: all three. */
	in.min_offloaded = 0;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	ck_assert_double_eq_tol((e.activations_gib - f.activations_gib) * GIB,
	    16384.0 * (2 * 7168 + 2 * 4096 + 2 * 2048) * 57, 1);
}
END_TEST

/*
 * HSDP with the optimizer sharded across 4 replicas: weights and
 * gradients shard over DP / 4 (dense) and EDP / 4 (experts), the
 * optimizer state over all of DP and EDP, as without replicas.
 */
START_TEST(test_hsdp)
{
	struct memory_input	 in = input("deepseek-v3", 2, 16, 64, 32, 8,
	    true);
	struct memory_estimate	 e, f;
	double	 dense, grown;

	in.fsdp = FSDP_OPTIM_GRADS_PARAMS;
	ck_assert_ptr_null(memory_estimate(&in, &e));
	in.fsdp_outer = 4;
	ck_assert_ptr_null(memory_estimate(&in, &f));
	dense = e.params - e.expert_params;
	grown = dense * (1.0 / 8 - 1.0 / 32) + e.expert_params *
	    (1.0 / 2 - 1.0 / 8);
	ck_assert_double_eq(e.optimizer_gib, f.optimizer_gib);
	ck_assert_double_eq_tol((f.params_gib - e.params_gib) * GIB,
	    e.params_bytes * grown, 1);
	ck_assert_double_eq_tol((f.grads_gib - e.grads_gib) * GIB,
	    e.grads_bytes * grown, 1);
}
END_TEST

static Suite *
memory_suite(void)
{
	Suite	*s = suite_create("memory");
	TCase	*tc = tcase_create("megatron");

	tcase_add_test(tc, test_llama3_8b);
	tcase_add_test(tc, test_fsdp);
	tcase_add_test(tc, test_llama3_70b);
	tcase_add_test(tc, test_lora);
	tcase_add_test(tc, test_deepseek_v3);
	tcase_add_test(tc, test_gpt_oss);
	tcase_add_test(tc, test_recompute_cp);
	tcase_add_test(tc, test_skill_70b);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_dtypes);
	tcase_add_test(tc, test_fp8_dense);
	tcase_add_test(tc, test_fp8_moe);
	tcase_add_test(tc, test_interleaved);
	tcase_add_test(tc, test_tp1);
	tcase_add_test(tc, test_hybrid_weights);
	tcase_add_test(tc, test_hybrid_mamba_activations);
	tcase_add_test(tc, test_moe_act);
	tcase_add_test(tc, test_recompute_modules);
	tcase_add_test(tc, test_offload);
	tcase_add_test(tc, test_hsdp);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(memory_suite());
}
