/*
 * script-mlm.c: Megatron-LM pretrain_gpt.py arguments for a job (a
 * hybrid model's: pretrain_hybrid.py, the same parser): every
 * parallel size, the model's whole architecture (so pretrain_gpt.py
 * builds the model mbsbatch sized, not a GPT-2 of the same shapes),
 * precision, recompute, overlap and checkpointing.  Every flag written
 * here exists, with the value written, at Megatron-LM core_v0.19.0 and
 * main (the flags.tsv tables of data/megatron; tests/cli/conformance.sh
 * checks it).  The user's --override arguments come last, so argparse
 * lets them win.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsondoc.h"
#include "script-mlm.h"
#include "xmalloc.h"

static void
arg_int(json_t *a, const char *flag, int64_t v)
{
	jsondoc_addf(a, "%s", flag);
	jsondoc_addf(a, "%lld", (long long)v);
}

static void
arg_real(json_t *a, const char *flag, double v)
{
	jsondoc_addf(a, "%s", flag);
	jsondoc_addf(a, "%.15g", v);
}

static void
arg_str(json_t *a, const char *flag, const char *v)
{
	jsondoc_addf(a, "%s", flag);
	jsondoc_addf(a, "%s", v);
}

static void
parallel(json_t *a, const struct plan *p)
{
	const struct sizing_input	*in = p->in;
	const struct layout		*l = &in->layout;

	arg_int(a, "--tensor-model-parallel-size", l->tp);
	arg_int(a, "--pipeline-model-parallel-size", l->pp);
	/* A hybrid pattern's '|' segments give Megatron-LM its VPP, and it
	 * refuses the flag (arguments.py core_v0.19.0:789-793). */
	if (l->vpp > 1 && in->model.hybrid_pattern == NULL)
		arg_int(a, "--num-virtual-stages-per-pipeline-rank", l->vpp);
	arg_int(a, "--context-parallel-size", l->cp);
	if (l->sp)
		jsondoc_addf(a, "--sequence-parallel");
	if (p->fig->sizing.moe) {
		arg_int(a, "--expert-model-parallel-size", l->ep);
		arg_int(a, "--expert-tensor-parallel-size", l->etp);
	}
	if (in->first_stage_layers != 0)
		arg_int(a, "--decoder-first-pipeline-num-layers",
		    in->first_stage_layers);
	if (in->last_stage_layers != 0)
		arg_int(a, "--decoder-last-pipeline-num-layers",
		    in->last_stage_layers);
	if (in->account_embedding)
		jsondoc_addf(a, "--account-for-embedding-in-pipeline-split");
	if (in->account_loss)
		jsondoc_addf(a, "--account-for-loss-in-pipeline-split");
}

/*
 * A GQA model's YaRN (GPT-OSS): Megatron-LM copies these flags onto the
 * config's yarn_* fields, defaulting what is not given
 * (megatron/training/argument_utils.py:384-413 at d98e8a64, the same at
 * core_v0.19.0): the correction range is rounded unless told not to,
 * and mscale 1, mscale_all_dim 0 give HF's 0.1 ln(factor) + 1.
 */
static void
yarn_gqa(json_t *a, const struct model *m)
{
	arg_real(a, "--rotary-scaling-factor", m->rope_scaling_factor != 0 ?
	    m->rope_scaling_factor : 1);
	if (m->yarn_original_max_pos != 0)
		arg_int(a, "--yarn-original-max-position-embeddings",
		    m->yarn_original_max_pos);
	if (m->yarn_beta_fast != 0)
		arg_real(a, "--yarn-beta-fast", m->yarn_beta_fast);
	if (m->yarn_beta_slow != 0)
		arg_real(a, "--yarn-beta-slow", m->yarn_beta_slow);
	arg_real(a, "--mscale", m->mscale != 0 ? m->mscale : 1);
	arg_real(a, "--mscale-all-dim", m->mscale_all_dim);
	if (m->yarn_exact_range)
		jsondoc_addf(a, "--no-yarn-correction-range-round-to-int");
}

/*
 * Sliding windows and sinks.  --window-size is Megatron's (left, right)
 * tuple: the left side excludes the token itself, so a window of W
 * tokens is W - 1,0 (Megatron-Bridge gpt_oss_bridge.py:87, and
 * Megatron-LM's own GPT-OSS example conf/openai/gpt-oss-120b.sh:52).
 */
static void
window(json_t *a, const struct model *m)
{
	if (m->sliding_window > 0) {
		jsondoc_addf(a, "--window-size");
		jsondoc_addf(a, "%lld,0", (long long)(m->sliding_window - 1));
		if (m->window_skip_freq > 0)
			arg_int(a, "--window-attn-skip-freq",
			    m->window_skip_freq);
	}
	if (m->softmax_type != SOFTMAX_VANILLA)
		arg_str(a, "--softmax-type",
		    settings_word(SET_SOFTMAX_TYPE, m->softmax_type));
}

/* Attention: grouped-query or multi-latent, and RoPE. */
static void
attention(json_t *a, const struct model *m)
{
	bool	 mla = m->kv_lora_rank != 0;
	bool	 yarn = !mla && m->rope_scaling == ROPE_SCALING_YARN;

	arg_int(a, "--num-attention-heads", m->num_attention_heads);
	if (mla) {
		/* GQA and MLA exclude each other (arguments.py). */
		jsondoc_addf(a, "--multi-latent-attention");
		if (m->q_lora_rank != 0)
			arg_int(a, "--q-lora-rank", m->q_lora_rank);
		arg_int(a, "--kv-lora-rank", m->kv_lora_rank);
		arg_int(a, "--qk-head-dim", m->qk_head_dim);
		arg_int(a, "--qk-pos-emb-head-dim", m->qk_pos_emb_head_dim);
		arg_int(a, "--v-head-dim", m->v_head_dim);
	} else {
		if (m->num_query_groups != 0 &&
		    m->num_query_groups != m->num_attention_heads) {
			jsondoc_addf(a, "--group-query-attention");
			arg_int(a, "--num-query-groups", m->num_query_groups);
		}
		if (m->kv_channels != 0)
			arg_int(a, "--kv-channels", m->kv_channels);
	}
	if (m->qkv_bias)
		jsondoc_addf(a, "--add-qkv-bias");
	/* With MLA these are the q and kv latent norms. */
	if (m->qk_layernorm)
		jsondoc_addf(a, "--qk-layernorm");
	/* GQA's YaRN is its own position embedding (gpt_model.py:196);
	 * MLA's YaRN is rope with the MLA flags below.  A hybrid model
	 * without a RoPE base has none (Nemotron-H: its Mamba layers
	 * carry the position). */
	if (m->hybrid_pattern != NULL && m->rotary_base == 0) {
		arg_str(a, "--position-embedding-type", "none");
		return;
	}
	arg_str(a, "--position-embedding-type", yarn ? "yarn" : "rope");
	if (m->rotary_base != 0)
		arg_int(a, "--rotary-base", m->rotary_base);
	if (m->rotary_percent != 0 && m->rotary_percent != 1)
		arg_real(a, "--rotary-percent", m->rotary_percent);
	if (m->rope_scaling == ROPE_SCALING_LLAMA3) {
		jsondoc_addf(a, "--use-rope-scaling");
		if (m->rope_scaling_factor != 0)
			arg_real(a, "--rope-scaling-factor",
			    m->rope_scaling_factor);
	}
	if (mla) {
		/* MLA's YaRN: the command line's defaults are not the
		 * model's (factor 1, mscale_all_dim 0). */
		arg_real(a, "--rotary-scaling-factor",
		    m->rope_scaling == ROPE_SCALING_YARN &&
		    m->rope_scaling_factor != 0 ?
		    m->rope_scaling_factor : 1);
		arg_real(a, "--mscale", m->mscale != 0 ? m->mscale : 1);
		arg_real(a, "--mscale-all-dim", m->mscale_all_dim);
	}
	if (yarn)
		yarn_gqa(a, m);
	window(a, m);
}

static void
experts(json_t *a, const struct model *m, const struct plan *p)
{
	enum moe_dispatcher	 d = p->dispatcher;
	bool			 flex = d == DISPATCH_DEEPEP ||
	    d == DISPATCH_HYBRIDEP;

	arg_int(a, "--num-experts", m->num_experts);
	if (m->moe_router_topk != 0)
		arg_int(a, "--moe-router-topk", m->moe_router_topk);
	if (m->moe_ffn_hidden_size != 0)
		arg_int(a, "--moe-ffn-hidden-size", m->moe_ffn_hidden_size);
	if (m->moe_dense_layers != 0 && m->num_layers > m->moe_dense_layers) {
		/* The whole model's pattern; no spaces (_eval_pattern). */
		jsondoc_addf(a, "--moe-layer-freq");
		jsondoc_addf(a, "[0]*%lld+[1]*%lld",
		    (long long)m->moe_dense_layers,
		    (long long)(m->num_layers - m->moe_dense_layers));
	}
	if (m->moe_shared_experts != 0 && m->moe_ffn_hidden_size != 0)
		arg_int(a, "--moe-shared-expert-intermediate-size",
		    m->moe_shared_experts * m->moe_ffn_hidden_size);
	if (m->router_score != ROUTER_SCORE_UNSET)
		arg_str(a, "--moe-router-score-function",
		    settings_word(SET_ROUTER_SCORE, m->router_score));
	if (m->router_expert_bias)
		jsondoc_addf(a, "--moe-router-enable-expert-bias");
	if (m->router_topk_scale != 0)
		arg_real(a, "--moe-router-topk-scaling-factor",
		    m->router_topk_scale);
	if (m->router_groups != 0 && m->router_group_topk != 0) {
		arg_int(a, "--moe-router-num-groups", m->router_groups);
		arg_int(a, "--moe-router-group-topk", m->router_group_topk);
	}
	if (m->router_pre_softmax)
		jsondoc_addf(a, "--moe-router-pre-softmax");
	if (m->aux_loss != AUX_LOSS_UNSET) {
		arg_str(a, "--moe-router-load-balancing-type",
		    settings_word(SET_AUX_LOSS, m->aux_loss));
		if (m->aux_loss_coeff != 0)
			arg_real(a, "--moe-aux-loss-coeff", m->aux_loss_coeff);
	}
	jsondoc_addf(a, "--moe-grouped-gemm");
	arg_str(a, "--moe-router-dtype", "fp32");
	/* Megatron-Core's default is allgather: always say which. */
	arg_str(a, "--moe-token-dispatcher-type", flex ? "flex" :
	    p->dispatcher_word);
	if (flex)
		arg_str(a, "--moe-flex-dispatcher-backend",
		    p->dispatcher_word);
}

/*
 * A hybrid model's pattern and Mamba mixer (pretrain_hybrid.py reads
 * them; flags.tsv of both revisions).  --hybrid-layer-pattern, not the
 * deprecated --hybrid-override-pattern (arguments.py core_v0.19.0:721);
 * Megatron-LM sets is_hybrid_model from it (argument_utils.py:345).
 */
static void
hybrid(json_t *a, const struct model *m)
{
	char	*pattern;
	int64_t	 i;

	/* MTP: the unified pattern, main/mtp/mtp... (arguments.py
	 * core_v0.19.0:839-860 infers --mtp-num-layers from its depths). */
	if (m->mtp_layers > 0 && m->mtp_pattern != NULL) {
		pattern = xstrdup(m->hybrid_pattern);
		for (i = 0; i < m->mtp_layers; i++) {
			char	*next = xasprintf("%s/%s", pattern,
			    m->mtp_pattern);

			free(pattern);
			pattern = next;
		}
		arg_str(a, "--hybrid-layer-pattern", pattern);
		free(pattern);
	} else
		arg_str(a, "--hybrid-layer-pattern", m->hybrid_pattern);
	arg_int(a, "--mamba-state-dim", m->mamba_state_dim);
	arg_int(a, "--mamba-head-dim", m->mamba_head_dim);
	arg_int(a, "--mamba-num-groups", m->mamba_num_groups);
	if (m->mamba_num_heads != 0)
		arg_int(a, "--mamba-num-heads", m->mamba_num_heads);
	if (m->moe_latent_size != 0)
		arg_int(a, "--moe-latent-size", m->moe_latent_size);
}

/* The model: shapes and everything else that makes it this model. */
static void
model(json_t *a, const struct plan *p)
{
	const struct model	*m = &p->in->model;

	arg_int(a, "--num-layers", m->num_layers);
	arg_int(a, "--hidden-size", m->hidden_size);
	if (m->ffn_hidden_size != 0)
		arg_int(a, "--ffn-hidden-size", m->ffn_hidden_size);
	attention(a, m);
	arg_str(a, "--normalization", "RMSNorm");
	if (m->norm_epsilon != 0)
		arg_real(a, "--norm-epsilon", m->norm_epsilon);
	/* Megatron's biases are on unless disabled (add_bias_linear,
	 * flags.tsv: --disable-bias-linear is its only flag). */
	if (m->activation == ACTIVATION_QUICK_GEGLU)
		jsondoc_addf(a, "--quick-geglu");
	else if (m->activation == ACTIVATION_SQUARED_RELU)
		jsondoc_addf(a, "--squared-relu");
	else
		jsondoc_addf(a, "--swiglu");
	if (m->glu_linear_offset != 0)
		arg_real(a, "--glu-linear-offset", m->glu_linear_offset);
	if (m->activation_clamp != 0)
		arg_real(a, "--activation-func-clamp-value",
		    m->activation_clamp);
	if (!m->linear_bias)
		jsondoc_addf(a, "--disable-bias-linear");
	if (!m->tied_embeddings)
		jsondoc_addf(a, "--untie-embeddings-and-output-weights");
	arg_real(a, "--attention-dropout", 0);
	arg_real(a, "--hidden-dropout", 0);
	if (m->num_experts != 0)
		experts(a, m, p);
	if (m->hybrid_pattern != NULL)
		hybrid(a, m);
	else if (m->mtp_layers != 0)
		arg_int(a, "--mtp-num-layers", m->mtp_layers);
}

/* The weights', gradients' and optimizer state's dtypes, and FP8. */
static void
precision(json_t *a, const struct plan *p)
{
	enum precision	 w = p->params_dtype;
	enum precision	 g = p->grads_dtype;
	enum precision	 o = p->optimizer_dtype;
	enum fp8_recipe	 fp8 = p->fp8;

	if (w == PRECISION_DEFAULT || w == PRECISION_BF16) {
		jsondoc_addf(a, "--bf16");
		/* bf16 reduces in fp32 unless told (arguments.py). */
		if (g == PRECISION_BF16)
			jsondoc_addf(a, "--grad-reduce-in-bf16");
	} else if (w == PRECISION_FP16) {
		jsondoc_addf(a, "--fp16");
		/* fp16 reduces in fp16 unless told. */
		if (g == PRECISION_DEFAULT || g == PRECISION_FP32)
			jsondoc_addf(a, "--accumulate-allreduce-grads-in-fp32");
	}
	if (o != PRECISION_DEFAULT && o != PRECISION_FP32) {
		jsondoc_addf(a, "--use-precision-aware-optimizer");
		arg_str(a, "--exp-avg-dtype", settings_word(SET_OPTIMIZER_DTYPE,
		    o));
		arg_str(a, "--exp-avg-sq-dtype",
		    settings_word(SET_OPTIMIZER_DTYPE, o));
	}
	/* NVFP4: --fp4-format e2m1 --fp4-recipe nvfp4, its weights
	 * gathered in FP4 with --fp4-param-gather (Megatron-LM d98e8a64
	 * flags.tsv; arguments.py:1105 wants the format with it). */
	if (fp8 == FP8_NVFP4) {
		arg_str(a, "--fp4-format", "e2m1");
		arg_str(a, "--fp4-recipe", "nvfp4");
		if (p->fp8_param_gather)
			jsondoc_addf(a, "--fp4-param-gather");
	} else if (fp8 != FP8_NO) {
		arg_str(a, "--fp8-format", fp8 == FP8_MXFP8 ? "e4m3" :
		    "hybrid");
		arg_str(a, "--fp8-recipe", settings_word(SET_FP8, fp8));
		if (p->fp8_param_gather) {
			jsondoc_addf(a, "--fp8-param-gather");
			if (fp8 == FP8_MXFP8)
				jsondoc_addf(a, "--reuse-grad-buf-for-mxfp8-"
				    "param-ag");
		}
	}
}

static void
recompute(json_t *a, const struct plan *p)
{
	enum recompute	 rc = p->recompute;

	/* Unset and none write nothing. */
	if (rc == RECOMPUTE_SELECTIVE)
		arg_str(a, "--recompute-granularity", "selective");
	else if (rc == RECOMPUTE_FULL) {
		arg_str(a, "--recompute-granularity", "full");
		arg_str(a, "--recompute-method", "uniform");
		arg_int(a, "--recompute-num-layers", 1);
	}
}

/*
 * --cuda-graph-impl (the same four choices in core_v0.19.0 and main:
 * flags.tsv), written unless none, Megatron's default.  A full iteration
 * graph needs --no-check-for-nan-in-loss-and-grad (arguments.py:1195 /
 * 1235: an assert).
 */
static void
cuda_graphs(json_t *a, const struct plan *p)
{
	enum cuda_graph_impl	 g = p->in->cuda_graphs;

	if (g == CUDA_GRAPH_NONE)
		return;
	arg_str(a, "--cuda-graph-impl", settings_word(SET_CUDA_GRAPHS, g));
	if (g == CUDA_GRAPH_FULL_ITERATION)
		jsondoc_addf(a, "--no-check-for-nan-in-loss-and-grad");
}

/* Data: mock data needs no files, only the vocabulary's size. */
static void
data(json_t *a, const struct plan *p)
{
	if (p->dataset == NULL)
		return;
	jsondoc_addf(a, "--mock-data");
	arg_str(a, "--tokenizer-type", "NullTokenizer");
	arg_int(a, "--vocab-size", p->in->model.vocab_size);
}

/* Does the user's --override give FLAG ("--lr" or "--lr=...")? */
static bool
overridden(const struct plan *p, const char *flag)
{
	size_t	 i, n = strlen(flag);

	for (i = 0; i < p->noverrides; i++)
		if (strncmp(p->overrides[i], flag, n) == 0 &&
		    (p->overrides[i][n] == '\0' || p->overrides[i][n] == '='))
			return true;
	return false;
}

bool
script_mlm_defaults(const struct plan *p, bool *iters, bool *lr)
{
	*iters = !p->train_iters.set && !overridden(p, "--train-iters") &&
	    !overridden(p, "--train-samples");
	*lr = !p->lr.set && !overridden(p, "--lr");
	return *iters || *lr;
}

/* Megatron-FSDP: its sharding, and the only checkpoint format it takes
 * (training/arguments.py:1146 / 1169, core_v0.19.0 / main). */
static void
fsdp(json_t *a, const struct plan *p)
{
	if (p->in->fsdp == FSDP_OFF)
		return;
	jsondoc_addf(a, "--use-megatron-fsdp");
	arg_str(a, "--data-parallel-sharding-strategy",
	    settings_word(SET_FSDP_SHARDING, p->in->fsdp));
	if (!overridden(p, "--ckpt-format"))
		arg_str(a, "--ckpt-format", "fsdp_dtensor");
}

static void
training(json_t *a, const struct plan *p)
{
	const struct sizing_input	*in = p->in;
	const struct launchenv		*env = &p->fig->env;
	int64_t				 iters;
	bool				 def_iters, def_lr;
	int				 k;

	arg_int(a, "--seq-length", in->seq_length);
	arg_int(a, "--max-position-embeddings", in->seq_length);
	arg_int(a, "--micro-batch-size", in->micro_batch);
	if (in->global_batch != 0)
		arg_int(a, "--global-batch-size", in->global_batch);
	/*
	 * pretrain_gpt.py stops at start without a length, a learning rate
	 * (training.py, the scheduler) and an evaluation interval (its
	 * default is None); unless given, Megatron-Bridge's recipe defaults.
	 */
	(void)script_mlm_defaults(p, &def_iters, &def_lr);
	if (p->train_iters.set || def_iters) {
		iters = p->train_iters.set ? p->train_iters.v :
		    SCRIPT_MLM_TRAIN_ITERS;
		arg_int(a, "--train-iters", iters);
		if (!overridden(p, "--eval-interval"))
			arg_int(a, "--eval-interval", iters);
	}
	if (p->lr.set)
		arg_real(a, "--lr", p->lr.v);
	else if (def_lr) {
		arg_real(a, "--lr", SCRIPT_MLM_LR);
		arg_real(a, "--min-lr", SCRIPT_MLM_LR / 10);
	}
	if (p->distributed_optimizer)
		jsondoc_addf(a, "--use-distributed-optimizer");
	fsdp(a, p);
	precision(a, p);
	recompute(a, p);
	cuda_graphs(a, p);
	for (k = 0; k < env->nflags; k++)
		if (env->flags[k].mlm_flag != NULL && env->flags[k].on)
			jsondoc_addf(a, "%s", env->flags[k].mlm_flag);
	if (env->ddp_bucket_size != 0)
		arg_int(a, "--ddp-bucket-size", env->ddp_bucket_size);
}

/* Checkpoints, and saving at the requeue signal. */
static void
checkpoint(json_t *a, const struct plan *p)
{
	const char	*dir = p->checkpoint_dir;

	if (dir != NULL) {
		arg_str(a, "--save", dir);
		arg_str(a, "--load", dir);
	}
	if (p->save_interval.set)
		arg_int(a, "--save-interval", p->save_interval.v);
	/* The weights to start from (flags.tsv: checkpointing). */
	if (p->pretrained_checkpoint != NULL)
		arg_str(a, "--pretrained-checkpoint",
		    p->pretrained_checkpoint);
	if (p->requeue) {
		const char	*name = slurmopt_signal_name(
		    p->fig->slurm.trap_num, 0);

		jsondoc_addf(a, "--exit-signal-handler");
		/* A name of signal.Signals: a number is a KeyError
		 * (argument_utils.py).  Slurm's name of any release (the
		 * trap's is 22.05's: 17 for CHLD); a signal Slurm has no
		 * name for stays a number, which fails there. */
		jsondoc_addf(a, "--exit-signal");
		if (name != NULL)
			jsondoc_addf(a, "SIG%s", name);
		else
			jsondoc_addf(a, "SIG%d", p->fig->slurm.trap_num);
	}
}

/*
 * A smoke job's run (mbsbatch-smoke(1)): no evaluation (training.py
 * validates only with eval_iters > 0: core_v0.19.0 4559, 4584), no
 * warm-up, a log line every iteration with its TFLOP/s (printed only
 * with --log-throughput, off by default: training_config.py 253); no
 * --save or --load (the smoke job has no checkpoint directory).
 */
static void
smoke(json_t *a, const struct plan *p)
{
	if (!p->smoke)
		return;
	arg_int(a, "--eval-iters", 0);
	arg_int(a, "--lr-warmup-iters", 0);
	arg_int(a, "--log-interval", 1);
	jsondoc_addf(a, "--log-throughput");
}

/*
 * The process groups' timeout after initialisation: the hang rule's
 * floor (templates/resilience.sh), so that PyTorch's own watchdog, and
 * its flight recorder's dump, come when mbsbatch's does, not after
 * Megatron's 10 minutes (--distributed-timeout-seconds-after-init,
 * core_v0.19.0 and main, data/megatron/.../flags.tsv).
 */
static void
timeout(json_t *a, const struct plan *p)
{
	if (!overridden(p, "--distributed-timeout-seconds-after-init"))
		arg_int(a, "--distributed-timeout-seconds-after-init",
		    p->hang_floor);
}

json_t *
script_mlm_args(const struct plan *p)
{
	json_t	*a = json_array();
	size_t	 i;

	parallel(a, p);
	model(a, p);
	data(a, p);
	training(a, p);
	checkpoint(a, p);
	timeout(a, p);
	smoke(a, p);
	for (i = 0; i < p->noverrides; i++)
		jsondoc_addf(a, "%s", p->overrides[i]);
	return a;
}
