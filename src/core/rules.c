/*
 * rules.c: the training-configuration rules; see rules.h.  Each check
 * cites where Megatron-LM makes it, as core_v0.19.0 / main line numbers;
 * Megatron-Bridge runs the same megatron-core checks (its pinned copies
 * differ by a few lines).
 */
#include <string.h>

#include "rules.h"

const char *const rules_codes[] = {
	"moe-tp-needs-sp",
	"sp-seq-divisibility",
	"moe-a2a-overlap",
	"p2p-overlap-conflict",
	"param-gather-overlap",
	"vpp-microbatches",
	"optimizer-dtype-needs-distopt",
	"fp8-param-gather",
	"dispatcher-needs-ep",
	"moe-bias-needs-etp1",
	"requeue-no-checkpoint",
	"shared-checkpoint-dir",
	"pretrained-checkpoint-unseen",
	"cuda-graphs-full-recompute",
	"cuda-graphs-nccl-register",
	"cuda-graphs-local-bridge",
	"fsdp-max-connections",
	"fsdp-distributed-optimizer",
	"fsdp-ckpt-format",
	"hybrid-pipeline-accounting",
	"hybrid-pipes-uneven",
	"hybrid-pipe-segments",
	"hybrid-vpp-needs-pipes",
	"hybrid-pp-split",
	"mamba-tp-heads",
	"mamba-cp-heads",
	"mamba-tp-groups",
	"mamba-cp-groups",
	"mamba-fp8-width",
	"nvfp4-needs-blackwell",
	NULL
};

static bool
flag_on(const struct launchenv *env, const char *key)
{
	int	 i;

	for (i = 0; i < env->nflags; i++)
		if (strcmp(env->flags[i].key, key) == 0)
			return env->flags[i].on;
	return false;
}

/* core/transformer/moe/moe_layer.py:629 / 636: MoE training with TP > 1
 * and no sequence parallel raises, whatever the dispatcher or ETP. */
static void
moe_tp(const struct rules_input *ri, struct sizing *s)
{
	const struct layout	*l = &ri->in->layout;

	if (s->moe && l->tp > 1 && !l->sp)
		sizing_add_finding(s, "moe-tp-needs-sp", SEVERITY_ERROR,
		    "a MoE model with TP %lld needs sequence parallel "
		    "(Megatron-Core refuses to train it without): add --sp",
		    (long long)l->tp);
}

/* core/tensor_parallel/mappings.py:72: sequence parallel splits each CP
 * rank's tokens over TP, at the first forward pass. */
static void
sp_seq(const struct rules_input *ri, struct sizing *s)
{
	const struct layout	*l = &ri->in->layout;
	int64_t			 seq = ri->in->seq_length;

	if (!l->sp || l->tp == 1)
		return;
	if (seq == 0) {
		sizing_add_skipped(s, "sp-seq-divisibility",
		    "no sequence length (--seq-length)");
		return;
	}
	/* With CP, cp-seq-divisibility covers seq % (2·CP) first. */
	if ((l->cp == 1 || seq % (2 * l->cp) == 0) && seq / l->cp % l->tp != 0)
		sizing_add_finding(s, "sp-seq-divisibility", SEVERITY_ERROR,
		    "sequence length %lld over CP %lld leaves %lld tokens per "
		    "rank, which sequence parallel cannot split over TP %lld",
		    (long long)seq, (long long)l->cp, (long long)(seq / l->cp),
		    (long long)l->tp);
}

/* transformer_config.py:2671-2709 / 3004-3042: what overlapping the MoE
 * all-to-all with compute needs. */
static void
a2a_overlap(const struct rules_input *ri, struct sizing *s)
{
	const struct sizing_input *in = ri->in;
	const struct layout	*l = &in->layout;
	const char		*why = NULL;

	if (!ri->moe_a2a_overlap || !s->moe)
		return;
	if (l->ep == 1)
		why = "EP > 1";
	else if (ri->dispatcher == DISPATCH_ALLGATHER)
		why = "the alltoall, deepep or hybridep dispatcher, not "
		    "allgather";
	else if (l->pp > 1 && l->vpp == 1)
		why = "virtual pipeline stages (--vpp) when PP > 1";
	else if (in->params_dtype == PRECISION_FP32)
		why = "bf16 or fp16 weights";
	else if (in->recompute == RECOMPUTE_FULL)
		why = "no full recompute";
	else if (in->model.mtp_layers > 1)
		why = "at most one MTP layer";
	if (why != NULL)
		sizing_add_finding(s, "moe-a2a-overlap", SEVERITY_ERROR,
		    "the MoE all-to-all overlap (%s) needs %s; Megatron-Core "
		    "refuses it otherwise", ri->a2a_from_recipe ? "the "
		    "recipe's; --no-moe-a2a-overlap turns it off" :
		    "--moe-a2a-overlap", why);
}

/* pipeline_parallel/schedules.py:1060, 2155 / 1087, 2182. */
static void
p2p(const struct rules_input *ri, const struct launchenv *env,
    struct sizing *s)
{
	const struct layout	*l = &ri->in->layout;
	bool			 ov = flag_on(env, "comm_overlap.overlap_p2p_comm");
	bool			 batch = flag_on(env,
	    "comm_overlap.batch_p2p_comm");

	if (l->pp == 1 || !ov)
		return;
	if (batch)
		sizing_add_finding(s, "p2p-overlap-conflict", SEVERITY_ERROR,
		    "pipeline P2P overlap and batched P2P cannot both be on "
		    "(--overlap-p2p-comm, --batch-p2p-comm)");
	else if (l->vpp == 1)
		sizing_add_finding(s, "p2p-overlap-conflict", SEVERITY_ERROR,
		    "pipeline P2P overlap needs virtual pipeline stages "
		    "(--vpp) with PP %lld", (long long)l->pp);
}

/* training/arguments.py:991, 994 / 1025, 1028. */
static void
param_gather(const struct rules_input *ri, const struct launchenv *env,
    struct sizing *s)
{
	if (!flag_on(env, "ddp.overlap_param_gather"))
		return;
	if (!ri->in->distributed_optimizer)
		sizing_add_finding(s, "param-gather-overlap", SEVERITY_ERROR,
		    "the parameter-gather overlap needs the distributed "
		    "optimizer");
	else if (!flag_on(env, "ddp.overlap_grad_reduce"))
		sizing_add_finding(s, "param-gather-overlap", SEVERITY_ERROR,
		    "the parameter-gather overlap needs the gradient-reduce "
		    "overlap (--overlap-grad-reduce)");
}

/* pipeline_parallel/schedules.py:1133, 1146 / 1160, 1173: the
 * interleaved schedule runs micro-batches in groups of PP. */
static void
vpp_microbatches(const struct rules_input *ri, struct sizing *s)
{
	const struct sizing_input *in = ri->in;
	const struct layout	*l = &in->layout;
	int64_t			 m;

	if (l->vpp == 1 || l->pp == 1)
		return;
	if (in->global_batch == 0) {
		sizing_add_skipped(s, "vpp-microbatches",
		    "no global batch size (--global-batch-size)");
		return;
	}
	if ((m = sizing_microbatches(in, s)) == 0)
		return;		/* batch-divisibility says why */
	if (m < l->pp || m % l->pp != 0)
		sizing_add_finding(s, "vpp-microbatches", SEVERITY_ERROR,
		    "with virtual pipeline stages the %lld micro-batches per "
		    "step (global batch / (micro batch × DP)) must be a "
		    "multiple of PP %lld", (long long)m, (long long)l->pp);
}

/* optimizer/optimizer_config.py:434 / optimizer/__init__.py:1058;
 * training/arguments.py:1061 / 1096. */
static void
precision(const struct rules_input *ri, struct sizing *s)
{
	const struct sizing_input *in = ri->in;

	if (in->optimizer_dtype != PRECISION_DEFAULT &&
	    in->optimizer_dtype != PRECISION_FP32 &&
	    !in->distributed_optimizer)
		sizing_add_finding(s, "optimizer-dtype-needs-distopt",
		    SEVERITY_ERROR, "bf16 or fp16 optimizer state (the "
		    "precision-aware optimizer) needs the distributed "
		    "optimizer");
	/* NVFP4's GEMMs run on Blackwell's FP4 tensor cores and later
	 * (megatron/core/fp4_utils.py:179 at d98e8a64, "FP4 GEMM requires
	 * Blackwell and later architectures"; Megatron-Bridge v0.6.0
	 * training/mixed_precision.py:50 says the same of MXFP8, which
	 * Hopper runs at no rate mbsbatch knows either). */
	if (in->fp8 == FP8_NVFP4 && ri->cc_major > 0 && ri->cc_major < 10)
		sizing_add_finding(s, "nvfp4-needs-blackwell", SEVERITY_ERROR,
		    "NVFP4 (--fp8 nvfp4) needs a Blackwell GPU (compute "
		    "capability 10 or later), not compute capability %d",
		    ri->cc_major);
	if (ri->fp8_param_gather && !ri->fp8)
		sizing_add_finding(s, "fp8-param-gather", SEVERITY_ERROR,
		    "--fp8-param-gather needs FP8 training (--fp8)");
	else if (ri->fp8_param_gather && !in->distributed_optimizer)
		sizing_add_finding(s, "fp8-param-gather", SEVERITY_ERROR,
		    "FP8 parameter gather (on with --fp8 but for blockwise; "
		    "--no-fp8-param-gather turns it off) needs the distributed "
		    "optimizer");
}

/* core/transformer/moe/token_dispatcher.py:1770 / 1836. */
static void
dispatcher(const struct rules_input *ri, struct sizing *s)
{
	const struct layout	*l = &ri->in->layout;

	if (s->moe && (ri->dispatcher == DISPATCH_DEEPEP ||
	    ri->dispatcher == DISPATCH_HYBRIDEP) && l->ep * l->etp == 1)
		sizing_add_finding(s, "dispatcher-needs-ep", SEVERITY_ERROR,
		    "the %s dispatcher needs EP·ETP > 1",
		    ri->dispatcher == DISPATCH_DEEPEP ? "deepep" : "hybridep");
}

/* core/transformer/transformer_config.py:2280 / 2613: a MoE model with
 * linear biases (GPT-OSS) keeps its experts whole: "Bias in Moe is only
 * supported when ETP==1". */
static void
moe_bias(const struct rules_input *ri, struct sizing *s)
{
	const struct layout	*l = &ri->in->layout;

	if (s->moe && ri->in->model.linear_bias && l->etp > 1)
		sizing_add_finding(s, "moe-bias-needs-etp1", SEVERITY_ERROR,
		    "a MoE model with linear biases needs ETP 1 "
		    "(Megatron-Core supports expert biases only unsplit), "
		    "not ETP %lld", (long long)l->etp);
}

/* core/transformer/transformer_config.py:2523 / 2856 (2299 in Bridge
 * 0.5.1's core, 2523 in 0.6.0's, 2615 in main's): under a per-layer CUDA
 * graph (local or transformer_engine), full recompute raises; only a
 * full iteration graph takes it. */
static void
cuda_graphs(const struct rules_input *ri, struct sizing *s)
{
	enum cuda_graph_impl	 g = ri->in->cuda_graphs;

	if ((g == CUDA_GRAPH_LOCAL || g == CUDA_GRAPH_TE) &&
	    ri->in->recompute == RECOMPUTE_FULL)
		sizing_add_finding(s, "cuda-graphs-full-recompute",
		    SEVERITY_ERROR, "full recompute under %s CUDA graphs "
		    "(Megatron-Core refuses it): --recompute selective or "
		    "none, or --cuda-graphs full_iteration", g == CUDA_GRAPH_TE ?
		    "transformer_engine" : "local");
}

/* Megatron-Bridge 0.6.0 and main, utils/cuda_graph.py:148
 * (validate_cuda_graph_configuration, from training/config.py 1255 /
 * 1399, before the model's post-init could default an inference scope):
 * cuda_graph_impl=local only for full-iteration graphs. */
static void
local_graphs(const struct rules_input *ri, struct sizing *s)
{
	if (ri->in->cuda_graphs == CUDA_GRAPH_LOCAL && ri->local_graphs_refused)
		sizing_add_finding(s, "cuda-graphs-local-bridge",
		    SEVERITY_ERROR, "Megatron-Bridge 0.6.0 and later take "
		    "local CUDA graphs only for full-iteration capture: "
		    "--cuda-graphs transformer_engine or full_iteration");
}

/* training/arguments.py:1881 / 1962 (validate_args: Megatron-LM only;
 * Bridge checks no such thing): Transformer Engine's graphs with the
 * expandable-segments allocator need NCCL_GRAPH_REGISTER=0, else NCCL
 * registers graph memory that moves (an illegal memory access).  Only
 * the environment the script exports is seen. */
static void
graphs_env(const struct rules_input *ri, const struct launchenv *env,
    struct sizing *s)
{
	const char	*alloc = launchenv_get(env, "PYTORCH_CUDA_ALLOC_CONF");
	const char	*reg = launchenv_get(env, "NCCL_GRAPH_REGISTER");

	if (!ri->megatron_lm || ri->in->cuda_graphs != CUDA_GRAPH_TE ||
	    alloc == NULL || strstr(alloc, "expandable_segments:True") == NULL)
		return;
	if (reg == NULL || strcmp(reg, "0") != 0)
		sizing_add_finding(s, "cuda-graphs-nccl-register",
		    SEVERITY_ERROR, "transformer_engine CUDA graphs with "
		    "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True need "
		    "NCCL_GRAPH_REGISTER=0 (Megatron-LM refuses to start "
		    "without): add --env NCCL_GRAPH_REGISTER=0");
}

/*
 * training/training.py:3247 / 4056: the exit handler saves only with a
 * checkpoint directory: the one given, or a Bridge recipe's own (library
 * recipes save to nemo_experiments/default/checkpoints, every 500
 * iterations for most; benchmark recipes save none: recipe-rules.tsv).
 */
static void
requeue(const struct rules_input *ri, struct sizing *s)
{
	if (!ri->requeue)
		return;
	if (!ri->checkpoint && !ri->recipe_checkpoints)
		sizing_add_finding(s, "requeue-no-checkpoint",
		    SEVERITY_WARNING, "--requeue without --checkpoint-dir%s: "
		    "at the signal the run stops without saving, and every "
		    "requeued attempt starts from the beginning", ri->recipe ?
		    ", and the recipe saves no checkpoint of its own" : "");
	/* Bridge 0.5.1's GlobalState builds the handler but never enters
	 * it (training/state.py; fixed after 0.5.1): the periodic saves
	 * (the recipe's interval, or --save-interval) are all there is. */
	else if (!ri->exit_handler && !ri->save_interval)
		sizing_add_finding(s, "requeue-no-checkpoint",
		    SEVERITY_WARNING, "Megatron-Bridge 0.5.1 never installs "
		    "its exit-signal handler, so nothing is saved at the "
		    "signal: a requeued attempt resumes from the last "
		    "periodic checkpoint, at the recipe's interval unless "
		    "--save-interval sets one");
}

/*
 * A Bridge library recipe saves checkpoints to, and loads them from, one
 * directory under os.getcwd() (recipes/common.py:47-49 and 116-119 in
 * 0.5.1, 117-120 in 0.6.0 and main), and setup loads whatever checkpoint
 * it finds there (training/setup.py: 0.5.1 277-285, 0.6.0 166-185, main
 * 172-185).  0.6.0 and main's run_recipe.py first changes into the
 * Bridge checkout (459, 460: os.chdir(REPO_ROOT)), so every run from one
 * checkout shares it; 0.5.1's every run from one working directory.  A
 * later experiment resumes from an earlier one's checkpoint, or fails on
 * it (another model's shapes).  Not for a smoke job (it saves nothing).
 */
static void
shared_checkpoints(const struct rules_input *ri, struct sizing *s)
{
	if (!ri->recipe_checkpoints || ri->own_checkpoints || ri->in->smoke ||
	    ri->recipe_checkpoint_dir == NULL)
		return;
	sizing_add_finding(s, "shared-checkpoint-dir", SEVERITY_INFO,
	    "the recipe saves checkpoints to, and resumes from, %s in %s: "
	    "every run from there shares it, and resumes from (or fails "
	    "on) another run's checkpoint; --checkpoint-dir gives the job "
	    "its own", ri->recipe_checkpoint_dir, ri->recipe_checkpoint_base);
}

/*
 * Megatron-FSDP.  The launch environment must not hold
 * CUDA_DEVICE_MAX_CONNECTIONS=1: Megatron-LM training/arguments.py:1143 /
 * 1166 (core_v0.19.0 / main) and Megatron-Bridge training/config.py:1142,
 * 1101, 1110 (0.5.1, 0.6.0, main 067f987d) assert it.  Both turn the
 * distributed optimizer on whatever was asked (arguments.py:1107-1112 /
 * 1130-1135; config.py:1114-1117, 1073-1076, 1082-1085).  Megatron-LM
 * asserts the fsdp_dtensor checkpoint format (arguments.py:1146 / 1169),
 * Bridge when it saves or loads (config.py:1137-1141, 1096-1100,
 * 1105-1109): the templates write it, an override of another fails.
 */
static void
fsdp(const struct rules_input *ri, const struct launchenv *env,
    struct sizing *s)
{
	const char	*c;

	if (ri->in->fsdp == FSDP_OFF)
		return;
	if (env != NULL && (c = launchenv_get(env,
	    "CUDA_DEVICE_MAX_CONNECTIONS")) != NULL && strcmp(c, "1") == 0)
		sizing_add_finding(s, "fsdp-max-connections", SEVERITY_ERROR,
		    "Megatron-FSDP refuses CUDA_DEVICE_MAX_CONNECTIONS=1 "
		    "(it must be more, or unset): leave it to mbsbatch, or "
		    "--cuda-device-max-connections 8");
	if (ri->distributed_optimizer_off)
		sizing_add_finding(s, "fsdp-distributed-optimizer",
		    SEVERITY_WARNING, "Megatron-FSDP always runs the "
		    "distributed optimizer: Megatron turns "
		    "--no-distributed-optimizer back on");
	if (ri->ckpt_format != NULL && strcmp(ri->ckpt_format,
	    "fsdp_dtensor") != 0)
		sizing_add_finding(s, "fsdp-ckpt-format", SEVERITY_ERROR,
		    "Megatron-FSDP saves and loads only the fsdp_dtensor "
		    "checkpoint format, not the '%s' of the override",
		    ri->ckpt_format);
}

/*
 * The weights a fine-tuning run starts from are read by every rank at
 * start (training/setup.py's PEFT hook, finetune's checkpoint load); a
 * directory not seen here may be the cluster's own path, or a typo that
 * fails the job only once it runs ("Invalid pretrained checkpoint
 * directory found", setup.py 0.6.0:613).
 */
static void
pretrained_unseen(const struct rules_input *ri, struct sizing *s)
{
	if (ri->pretrained_unseen)
		sizing_add_finding(s, "pretrained-checkpoint-unseen",
		    SEVERITY_WARNING, "the pretrained checkpoint is not a "
		    "directory here: the job fails at start unless the "
		    "nodes see it at that path");
}

void
rules_check(const struct rules_input *ri, const struct launchenv *env,
    struct sizing *s)
{
	pretrained_unseen(ri, s);
	moe_tp(ri, s);
	sp_seq(ri, s);
	a2a_overlap(ri, s);
	if (env != NULL) {
		p2p(ri, env, s);
		param_gather(ri, env, s);
		graphs_env(ri, env, s);
	}
	vpp_microbatches(ri, s);
	precision(ri, s);
	dispatcher(ri, s);
	moe_bias(ri, s);
	cuda_graphs(ri, s);
	local_graphs(ri, s);
	requeue(ri, s);
	shared_checkpoints(ri, s);
	fsdp(ri, env, s);
	rules_hybrid(ri, s);
}
