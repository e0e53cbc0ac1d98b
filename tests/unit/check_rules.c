/*
 * check_rules.c: the training-configuration rules (src/core/rules.c), each
 * finding firing and not firing, on layouts sized by the core and
 * overlap flags computed by launchenv.c as the job would compute them.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launchenv.h"
#include "rules.h"
#include "sizing.h"
#include "run.h"

struct rcase {
	struct sizing_input	 in;
	struct rules_input	 ri;
	struct launchenv_input	 le;
};

/* A MoE layout that passes every rule: TP 2 with SP, EP 8, alltoall. */
static void
base(struct rcase *c)
{
	memset(c, 0, sizeof *c);
	sizing_input_init(&c->in);
	c->in.layout.tp = 2;
	c->in.layout.sp = true;
	c->in.layout.ep = 8;
	c->in.model.kind = MODEL_KIND_MOE;
	c->in.model.num_experts = 64;
	c->in.seq_length = 4096;
	c->in.global_batch = 64;
	c->in.multiple = 4;
	c->ri.dispatcher = DISPATCH_ALLTOALL;
	c->ri.exit_handler = true;
	launchenv_input_init(&c->le);
}

static void ok_base(struct rcase *c) { base(c); }
static void moe_no_sp(struct rcase *c) { base(c); c->in.layout.sp = false; }
static void dense_no_sp(struct rcase *c)
{
	base(c);
	c->in.layout.sp = false;
	c->in.layout.ep = 1;
	c->in.model.kind = MODEL_KIND_DENSE;
	c->in.model.num_experts = 0;
}
static void seq_bad(struct rcase *c)
{
	base(c);
	c->in.layout.tp = 4;
	c->in.layout.cp = 2;
	c->in.seq_length = 4100;	/* 4100 % 4 = 0, 2050 % 4 != 0 */
}
static void a2a_ok(struct rcase *c) { base(c); c->ri.moe_a2a_overlap = true; }
static void a2a_allgather(struct rcase *c)
{
	a2a_ok(c);
	c->ri.dispatcher = DISPATCH_ALLGATHER;
}
static void a2a_no_vpp(struct rcase *c)
{
	a2a_ok(c);
	c->in.layout.pp = 2;
}
static void a2a_full(struct rcase *c)
{
	a2a_ok(c);
	c->in.recompute = RECOMPUTE_FULL;
}
static void a2a_fp32(struct rcase *c)
{
	a2a_ok(c);
	c->in.params_dtype = PRECISION_FP32;
}
static void a2a_mtp2(struct rcase *c)
{
	a2a_ok(c);
	c->in.model.mtp_layers = 2;
}
static void p2p_both(struct rcase *c)
{
	base(c);
	c->in.layout.pp = 2;
	c->in.layout.vpp = 2;
	c->le.batch_p2p_comm = TRI_ON;
}
static void p2p_no_vpp(struct rcase *c)
{
	base(c);
	c->in.layout.pp = 2;
	c->le.overlap_p2p_comm = TRI_ON;
}
static void p2p_vpp(struct rcase *c)
{
	base(c);
	c->in.layout.pp = 2;
	c->in.layout.vpp = 2;
}
static void gather_no_reduce(struct rcase *c)
{
	base(c);
	c->le.overlap_grad_reduce = TRI_OFF;
	c->le.overlap_param_gather = TRI_ON;
}
static void gather_no_distopt(struct rcase *c)
{
	base(c);
	c->in.distributed_optimizer = false;
	c->le.distributed_optimizer = false;
	c->le.overlap_param_gather = TRI_ON;
}
/* --no-overlap-grad-reduce alone turns the gather overlap off too. */
static void reduce_off(struct rcase *c)
{
	base(c);
	c->le.overlap_grad_reduce = TRI_OFF;
}
static void vpp_m_bad(struct rcase *c)
{
	p2p_vpp(c);
	c->in.global_batch = 24;	/* DP 8: 3 micro-batches, PP 2 */
	c->in.micro_batch = 1;
	c->in.multiple = 2;
	c->in.model.num_layers = 8;
}
static void vpp_m_ok(struct rcase *c)
{
	vpp_m_bad(c);
	c->in.global_batch = 32;
}
static void pao_no_distopt(struct rcase *c)
{
	base(c);
	c->in.optimizer_dtype = PRECISION_BF16;
	c->in.distributed_optimizer = false;
	c->le.distributed_optimizer = false;
}
static void pao_ok(struct rcase *c)
{
	base(c);
	c->in.optimizer_dtype = PRECISION_BF16;
}
static void gather_no_fp8(struct rcase *c)
{
	base(c);
	c->ri.fp8_param_gather = true;
}
static void fp8_gather(struct rcase *c)
{
	gather_no_fp8(c);
	c->ri.fp8 = true;
}
static void deepep_ep1(struct rcase *c)
{
	base(c);
	c->in.layout.ep = 1;
	c->in.layout.tp = 1;
	c->in.layout.sp = false;
	c->ri.dispatcher = DISPATCH_DEEPEP;
}
static void deepep_ep8(struct rcase *c)
{
	base(c);
	c->ri.dispatcher = DISPATCH_DEEPEP;
}
/* transformer_config.py:2280 / 2613: expert biases only with ETP 1. */
static void bias_etp2(struct rcase *c)
{
	base(c);
	c->in.model.linear_bias = true;
	c->in.layout.etp = 2;
}
static void bias_etp1(struct rcase *c)
{
	base(c);
	c->in.model.linear_bias = true;
}
static void nobias_etp2(struct rcase *c)
{
	base(c);
	c->in.layout.etp = 2;
}
/* transformer_config.py:2523 / 2856: full recompute only under a full
 * iteration graph; selective and no graphs are fine. */
static void graphs_te_full(struct rcase *c)
{
	base(c);
	c->in.cuda_graphs = CUDA_GRAPH_TE;
	c->in.recompute = RECOMPUTE_FULL;
}
static void graphs_local_full(struct rcase *c)
{
	graphs_te_full(c);
	c->in.cuda_graphs = CUDA_GRAPH_LOCAL;
}
static void graphs_iter_full(struct rcase *c)
{
	graphs_te_full(c);
	c->in.cuda_graphs = CUDA_GRAPH_FULL_ITERATION;
}
static void graphs_none_full(struct rcase *c)
{
	graphs_te_full(c);
	c->in.cuda_graphs = CUDA_GRAPH_NONE;
}
static void graphs_te_selective(struct rcase *c)
{
	graphs_te_full(c);
	c->in.recompute = RECOMPUTE_SELECTIVE;
}
/* arguments.py:1881 / 1962: Megatron-LM's TE graphs with expandable
 * segments need NCCL_GRAPH_REGISTER=0 in the job's environment. */
static const char *const env_expand[] = {
	"PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.8,"
	"expandable_segments:True",
};
static const char *const env_expand_reg0[] = {
	"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
	"NCCL_GRAPH_REGISTER=0",
};
static const char *const env_expand_reg1[] = {
	"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
	"NCCL_GRAPH_REGISTER=1",
};
static const char *const env_expand_off[] = {
	"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False",
};
static void graphs_mlm_expand(struct rcase *c)
{
	base(c);
	c->in.cuda_graphs = CUDA_GRAPH_TE;
	c->ri.megatron_lm = true;
	c->le.user_env = env_expand;
	c->le.nuser_env = 1;
}
static void graphs_mlm_reg0(struct rcase *c)
{
	graphs_mlm_expand(c);
	c->le.user_env = env_expand_reg0;
	c->le.nuser_env = 2;
}
static void graphs_mlm_reg1(struct rcase *c)
{
	graphs_mlm_expand(c);
	c->le.user_env = env_expand_reg1;
	c->le.nuser_env = 2;
}
static void graphs_mlm_no_expand(struct rcase *c)
{
	graphs_mlm_expand(c);
	c->le.user_env = env_expand_off;
}
static void graphs_mlm_local(struct rcase *c)
{
	graphs_mlm_expand(c);
	c->in.cuda_graphs = CUDA_GRAPH_LOCAL;
}
static void graphs_bridge_expand(struct rcase *c)
{
	graphs_mlm_expand(c);
	c->ri.megatron_lm = false;
}
/* Bridge 0.6.0 and main (utils/cuda_graph.py:148): local graphs only
 * for full-iteration capture. */
static void graphs_local_refused(struct rcase *c)
{
	base(c);
	c->in.cuda_graphs = CUDA_GRAPH_LOCAL;
	c->ri.local_graphs_refused = true;
}
static void graphs_local_taken(struct rcase *c)
{
	graphs_local_refused(c);
	c->ri.local_graphs_refused = false;
}
static void graphs_te_refused_target(struct rcase *c)
{
	graphs_local_refused(c);
	c->in.cuda_graphs = CUDA_GRAPH_TE;
}
static void requeue_bare(struct rcase *c)
{
	base(c);
	c->ri.requeue = true;
}
static void requeue_ckpt(struct rcase *c)
{
	requeue_bare(c);
	c->ri.checkpoint = true;
}
/* Bridge 0.5.1 never installs its handler: periodic saves only. */
static void requeue_051(struct rcase *c)
{
	requeue_ckpt(c);
	c->ri.exit_handler = false;
}
static void requeue_051_interval(struct rcase *c)
{
	requeue_051(c);
	c->ri.save_interval = true;
}
/* A Bridge recipe that saves checkpoints of its own (library recipes,
 * 0.6.0 and main: the handler saves there at the signal). */
static void requeue_recipe_saves(struct rcase *c)
{
	requeue_bare(c);
	c->ri.recipe = true;
	c->ri.recipe_checkpoints = true;
}
/* A benchmark recipe saves none. */
static void requeue_recipe_saves_none(struct rcase *c)
{
	requeue_bare(c);
	c->ri.recipe = true;
}
/* 0.5.1 and a recipe that saves: its periodic saves only. */
static void requeue_051_recipe(struct rcase *c)
{
	requeue_recipe_saves(c);
	c->ri.exit_handler = false;
}
/* A library recipe's own directory, shared by every run from there. */
static void recipe_dir(struct rcase *c)
{
	base(c);
	c->ri.recipe = true;
	c->ri.recipe_checkpoints = true;
	c->ri.recipe_checkpoint_dir = "nemo_experiments/default/checkpoints";
	c->ri.recipe_checkpoint_base = "the Megatron-Bridge checkout";
}
static void recipe_dir_requeue(struct rcase *c)
{
	recipe_dir(c);
	c->ri.requeue = true;
}
static void recipe_dir_own(struct rcase *c)
{
	recipe_dir(c);
	c->ri.own_checkpoints = true;
}
static void recipe_dir_smoke(struct rcase *c)
{
	recipe_dir(c);
	c->in.smoke = true;
}
static void recipe_saves_none(struct rcase *c)
{
	recipe_dir(c);
	c->ri.recipe_checkpoints = false;
}
static void seq_odd_cp1(struct rcase *c)
{
	base(c);
	c->in.seq_length = 4097;
}
/* Megatron-FSDP on an H100 with TP 2: the TP rule's "1" must not be
 * exported (arguments.py:1143 / 1166, Bridge config.py:1101). */
static void fsdp_h100_tp2(struct rcase *c)
{
	base(c);
	c->in.fsdp = FSDP_OPTIM_GRADS_PARAMS;
	c->le.fsdp = true;
	c->le.gpu_type = "h100";
}
static void fsdp_given1(struct rcase *c)
{
	fsdp_h100_tp2(c);
	c->le.cuda_device_max_connections = 1;
}
static const char *const env_cdmc1[] = { "CUDA_DEVICE_MAX_CONNECTIONS=1" };
static void fsdp_env1(struct rcase *c)
{
	fsdp_h100_tp2(c);
	c->le.user_env = env_cdmc1;
	c->le.nuser_env = 1;
}
/* A recipe's "1" (its TP layout on Hopper) is not exported with FSDP. */
static void fsdp_recipe1(struct rcase *c)
{
	fsdp_h100_tp2(c);
	c->le.recipe_env = "NCCL_P2P_NET_CHUNKSIZE=2097152 "
	    "CUDA_DEVICE_MAX_CONNECTIONS=1";
}
static void nofsdp_given1(struct rcase *c)
{
	fsdp_given1(c);
	c->in.fsdp = FSDP_OFF;
	c->le.fsdp = false;
}
static void fsdp_distopt_off(struct rcase *c)
{
	fsdp_h100_tp2(c);
	c->ri.distributed_optimizer_off = true;
}
static void nofsdp_distopt_off(struct rcase *c)
{
	fsdp_distopt_off(c);
	c->in.fsdp = FSDP_OFF;
	c->le.fsdp = false;
}
static void fsdp_torch_dist(struct rcase *c)
{
	fsdp_h100_tp2(c);
	c->ri.ckpt_format = "torch_dist";
}
static void fsdp_dtensor(struct rcase *c)
{
	fsdp_h100_tp2(c);
	c->ri.ckpt_format = "fsdp_dtensor";
}
static void nofsdp_torch_dist(struct rcase *c)
{
	fsdp_torch_dist(c);
	c->in.fsdp = FSDP_OFF;
	c->le.fsdp = false;
}

/*
 * A hybrid model: 8 layers, 16 Mamba heads in 4 groups (Megatron's
 * shapes, small), on the base layout (TP 2, SP, EP 8).
 */
static void
hybrid(struct rcase *c)
{
	base(c);
	c->in.model.hybrid_pattern = "MEM*MEM-";
	c->in.model.num_layers = 8;
	c->in.model.hidden_size = 512;
	c->in.model.mamba_state_dim = 64;
	c->in.model.mamba_head_dim = 64;
	c->in.model.mamba_num_heads = 16;
	c->in.model.mamba_num_groups = 4;
}
static void hy_pp2(struct rcase *c) { hybrid(c); c->in.layout.pp = 2; }
static void hy_pp3(struct rcase *c)
{
	hybrid(c);
	c->in.layout.pp = 3;
	c->in.multiple = 1;
}
static void hy_pp3_uneven(struct rcase *c)
{
	hy_pp3(c);
	c->in.first_stage_layers = 2;
	c->in.last_stage_layers = 2;	/* 4 in the middle: fine */
}
static void hy_vpp(struct rcase *c) { hy_pp2(c); c->in.layout.vpp = 2; }
static void hy_pipes_vpp(struct rcase *c)
{
	hy_vpp(c);
	c->in.model.hybrid_pattern = "ME|M*|ME|M-";
}
static void hy_pipes_pp2(struct rcase *c)
{
	hy_pp2(c);
	c->in.model.hybrid_pattern = "ME|M*|ME|M-";	/* 4 != 2 x 1 */
}
static void hy_pipes_uneven(struct rcase *c)
{
	hy_pipes_vpp(c);
	c->in.first_stage_layers = 1;
}
static void hy_account(struct rcase *c)
{
	hy_pp2(c);
	c->in.account_embedding = true;
	c->ri.megatron_lm = true;
}
static void hy_account_bridge(struct rcase *c)
{
	hy_account(c);
	c->ri.megatron_lm = false;
}
static void hy_tp8(struct rcase *c) { hybrid(c); c->in.layout.tp = 8; }
static void hy_tp16(struct rcase *c)
{
	hybrid(c);
	c->in.layout.tp = 16;
	c->in.model.mamba_num_heads = 32;
}
static void hy_tp3(struct rcase *c)
{
	hybrid(c);
	c->in.model.mamba_num_heads = 24;
	c->in.model.mamba_num_groups = 3;
	c->in.layout.tp = 3;
}
static void hy_cp4(struct rcase *c) { hybrid(c); c->in.layout.cp = 4; }
static void hy_cp16(struct rcase *c)
{
	hybrid(c);
	c->in.layout.cp = 16;	/* 8 heads per TP rank */
	c->in.seq_length = 8192;
}
static void hy_cp3(struct rcase *c)
{
	hybrid(c);
	c->in.model.mamba_num_heads = 24;	/* 12 per TP rank */
	c->in.model.mamba_num_groups = 4;	/* 2 per TP rank */
	c->in.layout.cp = 3;
	c->in.seq_length = 6144;
}
static void hy_fp8(struct rcase *c) { hybrid(c); c->ri.fp8 = true; }
static void hy_fp8_odd(struct rcase *c)
{
	hy_fp8(c);
	c->in.model.mamba_num_heads = 12;	/* 2 x 768 + 2 x 256 + 12 */
}

static const struct {
	const char	*code;
	bool		 fires;
	void		(*setup)(struct rcase *);
} cases[] = {
	{ "moe-tp-needs-sp", true, moe_no_sp },
	{ "moe-tp-needs-sp", false, ok_base },
	{ "moe-tp-needs-sp", false, dense_no_sp },
	{ "sp-seq-divisibility", true, seq_bad },
	{ "sp-seq-divisibility", false, ok_base },
	{ "moe-a2a-overlap", false, a2a_ok },
	{ "moe-a2a-overlap", true, a2a_allgather },
	{ "moe-a2a-overlap", true, a2a_no_vpp },
	{ "moe-a2a-overlap", true, a2a_full },
	{ "moe-a2a-overlap", true, a2a_fp32 },
	{ "moe-a2a-overlap", true, a2a_mtp2 },
	{ "p2p-overlap-conflict", true, p2p_both },
	{ "p2p-overlap-conflict", true, p2p_no_vpp },
	{ "p2p-overlap-conflict", false, p2p_vpp },
	{ "param-gather-overlap", true, gather_no_reduce },
	{ "param-gather-overlap", true, gather_no_distopt },
	{ "param-gather-overlap", false, reduce_off },
	{ "param-gather-overlap", false, ok_base },
	{ "vpp-microbatches", true, vpp_m_bad },
	{ "vpp-microbatches", false, vpp_m_ok },
	{ "optimizer-dtype-needs-distopt", true, pao_no_distopt },
	{ "optimizer-dtype-needs-distopt", false, pao_ok },
	{ "fp8-param-gather", true, gather_no_fp8 },
	{ "fp8-param-gather", false, fp8_gather },
	{ "dispatcher-needs-ep", true, deepep_ep1 },
	{ "dispatcher-needs-ep", false, deepep_ep8 },
	{ "moe-bias-needs-etp1", true, bias_etp2 },
	{ "moe-bias-needs-etp1", false, bias_etp1 },
	{ "moe-bias-needs-etp1", false, nobias_etp2 },
	{ "cuda-graphs-full-recompute", true, graphs_te_full },
	{ "cuda-graphs-full-recompute", true, graphs_local_full },
	{ "cuda-graphs-full-recompute", false, graphs_iter_full },
	{ "cuda-graphs-full-recompute", false, graphs_none_full },
	{ "cuda-graphs-full-recompute", false, graphs_te_selective },
	{ "cuda-graphs-nccl-register", true, graphs_mlm_expand },
	{ "cuda-graphs-nccl-register", false, graphs_mlm_reg0 },
	{ "cuda-graphs-nccl-register", true, graphs_mlm_reg1 },
	{ "cuda-graphs-nccl-register", false, graphs_mlm_no_expand },
	{ "cuda-graphs-nccl-register", false, graphs_mlm_local },
	{ "cuda-graphs-nccl-register", false, graphs_bridge_expand },
	{ "cuda-graphs-local-bridge", true, graphs_local_refused },
	{ "cuda-graphs-local-bridge", false, graphs_local_taken },
	{ "cuda-graphs-local-bridge", false, graphs_te_refused_target },
	{ "requeue-no-checkpoint", true, requeue_bare },
	{ "requeue-no-checkpoint", false, requeue_ckpt },
	{ "requeue-no-checkpoint", true, requeue_051 },
	{ "requeue-no-checkpoint", false, requeue_051_interval },
	{ "requeue-no-checkpoint", false, requeue_recipe_saves },
	{ "requeue-no-checkpoint", true, requeue_recipe_saves_none },
	{ "requeue-no-checkpoint", true, requeue_051_recipe },
	{ "sp-seq-divisibility", true, seq_odd_cp1 },
	{ "shared-checkpoint-dir", true, recipe_dir },
	{ "shared-checkpoint-dir", true, recipe_dir_requeue },
	{ "shared-checkpoint-dir", false, recipe_dir_own },
	{ "shared-checkpoint-dir", false, recipe_dir_smoke },
	{ "shared-checkpoint-dir", false, recipe_saves_none },
	{ "shared-checkpoint-dir", false, ok_base },
	{ "requeue-no-checkpoint", false, recipe_dir_requeue },
	{ "fsdp-max-connections", false, fsdp_h100_tp2 },
	{ "fsdp-max-connections", true, fsdp_given1 },
	{ "fsdp-max-connections", true, fsdp_env1 },
	{ "fsdp-max-connections", false, fsdp_recipe1 },
	{ "fsdp-max-connections", false, nofsdp_given1 },
	{ "fsdp-distributed-optimizer", true, fsdp_distopt_off },
	{ "fsdp-distributed-optimizer", false, nofsdp_distopt_off },
	{ "fsdp-distributed-optimizer", false, fsdp_h100_tp2 },
	{ "fsdp-ckpt-format", true, fsdp_torch_dist },
	{ "fsdp-ckpt-format", false, fsdp_dtensor },
	{ "fsdp-ckpt-format", false, nofsdp_torch_dist },
	{ "hybrid-pp-split", false, hybrid },
	{ "hybrid-pp-split", false, hy_pp2 },
	{ "hybrid-pp-split", true, hy_pp3 },
	{ "hybrid-pp-split", false, hy_pp3_uneven },
	{ "hybrid-vpp-needs-pipes", true, hy_vpp },
	{ "hybrid-vpp-needs-pipes", false, hy_pipes_vpp },
	{ "hybrid-pipe-segments", false, hy_pipes_vpp },
	{ "hybrid-pipe-segments", true, hy_pipes_pp2 },
	{ "hybrid-pipes-uneven", true, hy_pipes_uneven },
	{ "hybrid-pipes-uneven", false, hy_pipes_vpp },
	{ "hybrid-pipeline-accounting", true, hy_account },
	{ "hybrid-pipeline-accounting", false, hy_account_bridge },
	{ "mamba-tp-heads", false, hy_tp8 },
	{ "mamba-tp-groups", true, hy_tp8 },
	{ "mamba-tp-heads", false, hy_tp16 },
	{ "mamba-tp-groups", true, hy_tp16 },
	{ "mamba-tp-heads", false, hy_tp3 },
	{ "mamba-tp-groups", false, hy_tp3 },
	{ "mamba-cp-heads", false, hy_cp4 },
	{ "mamba-cp-groups", false, hy_cp4 },
	{ "mamba-cp-heads", true, hy_cp16 },
	{ "mamba-cp-heads", false, hy_cp3 },
	{ "mamba-cp-groups", true, hy_cp3 },
	{ "mamba-fp8-width", false, hy_fp8 },
	{ "mamba-fp8-width", true, hy_fp8_odd },
};

static const struct finding *
check(struct rcase *c, struct sizing *s, struct launchenv *env, const char *code)
{
	int	 i;

	ck_assert_ptr_null(sizing_compute(&c->in, s));
	c->le.layout = c->in.layout;
	c->le.dp = s->dp;
	c->le.moe = s->moe;
	c->le.dispatcher = c->ri.dispatcher;
	c->le.moe_a2a_overlap = c->ri.moe_a2a_overlap;
	ck_assert_ptr_null(launchenv_compute(&c->le, env));
	c->ri.in = &c->in;
	rules_check(&c->ri, env, s);
	for (i = 0; i < s->nfindings; i++)
		if (strcmp(s->findings[i].code, code) == 0)
			return &s->findings[i];
	return NULL;
}

START_TEST(test_rule)
{
	struct rcase		 c;
	struct sizing		 s;
	struct launchenv	 env;
	const struct finding	*f;

	cases[_i].setup(&c);
	f = check(&c, &s, &env, cases[_i].code);
	if (cases[_i].fires)
		ck_assert_msg(f != NULL && f->message[0] != '\0',
		    "case %d: %s did not fire", _i, cases[_i].code);
	else
		ck_assert_msg(f == NULL, "case %d: %s fired: %s", _i,
		    cases[_i].code, f->message);
}
END_TEST

/* The base layout passes every rule; each code is listed. */
START_TEST(test_base_clean)
{
	struct rcase		 c;
	struct sizing		 s;
	struct launchenv	 env;
	size_t			 i;

	base(&c);
	(void)check(&c, &s, &env, "");
	ck_assert_int_eq(s.nerrors, 0);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t	 j;

		for (j = 0; rules_codes[j] != NULL; j++)
			if (strcmp(rules_codes[j], cases[i].code) == 0)
				break;
		ck_assert_msg(rules_codes[j] != NULL, "%s not in rules_codes",
		    cases[i].code);
	}
}
END_TEST

/* Only requeue-no-checkpoint and fsdp-distributed-optimizer (Megatron
 * overrides the request) are warnings: the others Megatron refuses;
 * shared-checkpoint-dir says where the recipe saves (info). */
START_TEST(test_severity)
{
	struct rcase		 c;
	struct sizing		 s;
	struct launchenv	 env;
	const struct finding	*f;

	requeue_bare(&c);
	f = check(&c, &s, &env, "requeue-no-checkpoint");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->severity, SEVERITY_WARNING);
	fsdp_distopt_off(&c);
	f = check(&c, &s, &env, "fsdp-distributed-optimizer");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->severity, SEVERITY_WARNING);
	moe_no_sp(&c);
	f = check(&c, &s, &env, "moe-tp-needs-sp");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->severity, SEVERITY_ERROR);
	recipe_dir(&c);
	f = check(&c, &s, &env, "shared-checkpoint-dir");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(f->severity, SEVERITY_INFO);
	ck_assert_int_eq(s.ninfos, 1);
	ck_assert_int_eq(sizing_nwarnings(&s), 0);
	ck_assert_str_eq(f->message, "the recipe saves checkpoints to, and "
	    "resumes from, nemo_experiments/default/checkpoints in the "
	    "Megatron-Bridge checkout: every run from there shares it, and "
	    "resumes from (or fails on) another run's checkpoint; "
	    "--checkpoint-dir gives the job its own");
}
END_TEST

/* A hybrid pattern is split by its own rules, not sizing.c's generic
 * layers-divisibility (which would also ask for VPP's layers). */
START_TEST(test_hybrid_own_split)
{
	struct rcase		 c;
	struct sizing		 s;
	struct launchenv	 env;

	hy_pp3(&c);
	ck_assert_ptr_null(check(&c, &s, &env, "layers-divisibility"));
	hy_pipes_vpp(&c);
	ck_assert_ptr_null(check(&c, &s, &env, "layers-divisibility"));
	ck_assert_int_eq(s.nerrors, 0);
}
END_TEST

static Suite *
rules_suite(void)
{
	Suite	*su = suite_create("rules");
	TCase	*tc = tcase_create("rules");

	tcase_add_loop_test(tc, test_rule, 0, sizeof cases / sizeof cases[0]);
	tcase_add_test(tc, test_base_clean);
	tcase_add_test(tc, test_severity);
	tcase_add_test(tc, test_hybrid_own_split);
	suite_add_tcase(su, tc);
	return su;
}

int
main(void)
{
	return run_suite(rules_suite());
}
