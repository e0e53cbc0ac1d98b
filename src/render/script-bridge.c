/*
 * script-bridge.c: Megatron-Bridge run_recipe.py overrides for a job, in
 * the forms its version accepts.  Every parallel size and the pipeline
 * split are written out; the recipe's other values are overridden only
 * where the user changed them (a setting whose origin is above "recipe"),
 * and the recipe settings that would then conflict are cleared.
 *
 * How Bridge applies overrides (the same in 0.5.1, 0.6.0 and main,
 * scripts/training/run_recipe.py and training/utils/omegaconf_utils.py):
 * the config becomes a strict OmegaConf tree, so "a.b=c" is refused while
 * the recipe leaves section a None, and a None section can only be set
 * whole, as a {_target_: ...} object.  Then, at the start of pretrain(),
 * MixedPrecisionConfig.setup() copies the precision fields onto the
 * model, optimizer and DDP configs (so ddp.grad_reduce_in_fp32 or
 * model.bf16 written directly are lost while mixed_precision is set), and
 * CommOverlapConfig.setup() overwrites the model's and DDP's overlap
 * fields unless given as comm_overlap.<field>.
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "jsondoc.h"
#include "script-bridge.h"

static const char *
tf(bool v)
{
	return v ? "true" : "false";
}

/* Does the recipe build a MoE model (whatever the job makes of it)? */
static bool
recipe_moe(const struct plan *p)
{
	const struct bridge_recipe	*r = p->recipe;

	return r != NULL && (r->num_moe_experts != 0 || r->sizes.ep > 1 ||
	    r->sizes.etp > 1);
}

/* "model." or, for Bridge main's nested recipes, "model.transformer." for
 * TransformerConfig's fields. */
static const char *
model_prefix(const struct plan *p)
{
	return p->recipe != NULL && p->recipe->nested ?
	    "model.transformer." : "model.";
}

static void
parallel(json_t *a, const struct plan *p)
{
	const struct layout	*l = &p->in->layout;
	const char		*m = model_prefix(p);

	jsondoc_addf(a, "%stensor_model_parallel_size=%lld", m, (long long)l->tp);
	jsondoc_addf(a, "%spipeline_model_parallel_size=%lld", m,
	    (long long)l->pp);
	if (l->vpp > 1)
		jsondoc_addf(a, "%svirtual_pipeline_model_parallel_size=%lld", m,
		    (long long)l->vpp);
	else if (!p->recipe_layout)
		jsondoc_addf(a, "%svirtual_pipeline_model_parallel_size=null", m);
	jsondoc_addf(a, "%scontext_parallel_size=%lld", m, (long long)l->cp);
	jsondoc_addf(a, "%ssequence_parallel=%s", m, tf(l->sp));
	/* Also a MoE recipe's model made dense (--num-experts 0): its
	 * expert sizes would stay, and TransformerConfig refuses EP > 1
	 * without experts (transformer_config.py:1326 / 1468 / 1500 at
	 * the core Bridge 0.5.1 / 0.6.0 / main pins). */
	if (p->fig->sizing.moe || recipe_moe(p)) {
		jsondoc_addf(a, "%sexpert_model_parallel_size=%lld", m,
		    (long long)l->ep);
		jsondoc_addf(a, "%sexpert_tensor_parallel_size=%lld", m,
		    (long long)l->etp);
	}
}

/*
 * The split that was sized, whole: Bridge keeps a recipe's first/last
 * counts, accounting and layout after a PP override (0.5.1 always,
 * 0.6.0 and main for most recipes), or builds a layout of its own, so
 * each is written, unless the recipe's own layout is what runs.
 */
static void
split(json_t *a, const struct plan *p)
{
	const struct sizing_input	*in = p->in;
	const char			*m = model_prefix(p);

	if (p->recipe_layout)
		return;
	/* Also where the recipe has none: an override of the layout keeps
	 * run_recipe.py from building one for the new PP and VPP
	 * (sync_model_pipeline_layout: moonlight, kimi_k2, deepseek_v3 on
	 * main), which fails for the sizes it does not know. */
	jsondoc_addf(a, "%spipeline_model_parallel_layout=null", m);
	if (in->first_stage_layers != 0)
		jsondoc_addf(a, "%snum_layers_in_first_pipeline_stage=%lld", m,
		    (long long)in->first_stage_layers);
	else
		jsondoc_addf(a, "%snum_layers_in_first_pipeline_stage=null", m);
	if (in->last_stage_layers != 0)
		jsondoc_addf(a, "%snum_layers_in_last_pipeline_stage=%lld", m,
		    (long long)in->last_stage_layers);
	else
		jsondoc_addf(a, "%snum_layers_in_last_pipeline_stage=null", m);
	jsondoc_addf(a, "%saccount_for_embedding_in_pipeline_split=%s", m,
	    tf(in->account_embedding));
	jsondoc_addf(a, "%saccount_for_loss_in_pipeline_split=%s", m,
	    tf(in->account_loss));
}

/*
 * The architecture fields the user set over the recipe's model.  A count
 * of 0 is "none" to mbsbatch and None to Megatron-Core, which refuses 0
 * (the one that can be 0 is --num-experts: "num_moe_experts must be
 * non-negative", transformer_config.py:1389 / 1531 / 1583 at the core
 * Bridge 0.5.1 / 0.6.0 / main pins): written null.  A MoE recipe's model
 * made dense also loses its expert width, which TransformerConfig
 * refuses without experts (1396 / 1538 / 1590; its MoE layer pattern
 * then makes it a warning, so null is right either way).
 */
static void
architecture(json_t *a, const struct plan *p)
{
	static const char *const fields[PLAN_ARCH_N] = {
		[PLAN_ARCH_NUM_LAYERS] = "num_layers",
		[PLAN_ARCH_HIDDEN_SIZE] = "hidden_size",
		[PLAN_ARCH_FFN_HIDDEN_SIZE] = "ffn_hidden_size",
		[PLAN_ARCH_NUM_ATTENTION_HEADS] = "num_attention_heads",
		[PLAN_ARCH_NUM_QUERY_GROUPS] = "num_query_groups",
		[PLAN_ARCH_NUM_EXPERTS] = "num_moe_experts",
		[PLAN_ARCH_MOE_ROUTER_TOPK] = "moe_router_topk",
		[PLAN_ARCH_MOE_FFN_HIDDEN_SIZE] = "moe_ffn_hidden_size",
	};
	const struct plan_int	*given = p->given.arch;
	const char		*m = model_prefix(p);
	int			 i;

	for (i = 0; i < PLAN_ARCH_N; i++) {
		if (!given[i].set)
			continue;
		if (given[i].v == 0)
			jsondoc_addf(a, "%s%s=null", m, fields[i]);
		else
			jsondoc_addf(a, "%s%s=%lld", m, fields[i],
			    (long long)given[i].v);
	}
	/* The embeddings as sized (a preset's tie over a recipe model
	 * built without a Hugging Face config: vanilla_gpt's ties). */
	if (p->recipe != NULL && p->recipe->tie_embeddings != TRI_UNSET &&
	    (p->recipe->tie_embeddings == TRI_ON) !=
	    p->in->model.tied_embeddings)
		jsondoc_addf(a, "model.share_embeddings_and_output_weights=%s",
		    tf(p->in->model.tied_embeddings));
	/* (model_check() refuses an expert width given with 0 experts.) */
	if (given[PLAN_ARCH_NUM_EXPERTS].set &&
	    given[PLAN_ARCH_NUM_EXPERTS].v == 0 && recipe_moe(p))
		jsondoc_addf(a, "%smoe_ffn_hidden_size=null", m);
}

static void
training(json_t *a, const struct plan *p)
{
	if (p->in->seq_length != 0 && p->given.seq_length) {
		/* The model's is synchronised from the dataset's. */
		jsondoc_addf(a, "model.seq_length=%lld",
		    (long long)p->in->seq_length);
		jsondoc_addf(a, "%s=%lld", p->bridge->dataset_seq_key,
		    (long long)p->in->seq_length);
	}
	if (p->given.global_batch)
		jsondoc_addf(a, "train.global_batch_size=%lld",
		    (long long)p->in->global_batch);
	if (p->given.micro_batch)
		jsondoc_addf(a, "train.micro_batch_size=%lld",
		    (long long)p->in->micro_batch);
	if (p->train_iters.set)
		jsondoc_addf(a, "train.train_iters=%lld",
		    (long long)p->train_iters.v);
	if (p->lr.set)
		jsondoc_addf(a, "optimizer.lr=%.15g", p->lr.v);
}

/*
 * Precision.  A mixed-precision preset when one is what the user asked
 * for (each preset's own gradient-reduce dtype and FP8 parameter gather:
 * bf16 reduces in fp32, fp16 in fp16; FP8 gathers in FP8 but for
 * blockwise scaling); otherwise no preset and every field written, since
 * setup() would overwrite them.
 */
static void
precision(json_t *a, const struct plan *p)
{
	/* The preset of each FP8 recipe: "<the weights' dtype>_<suffix>". */
	static const char *const suffix[] = {
		[FP8_NO] = "mixed",
		[FP8_TENSORWISE] = "with_fp8_current_scaling_mixed",
		[FP8_DELAYED] = "with_fp8_delayed_scaling_mixed",
		[FP8_BLOCKWISE] = "with_fp8_subchannel_scaling_mixed",
		[FP8_MXFP8] = "with_mxfp8_mixed",
		[FP8_NVFP4] = "with_nvfp4_mixed",
	};
	enum precision	 w = p->params_dtype;
	enum precision	 g = p->grads_dtype;
	enum fp8_recipe	 fp8 = p->fp8;
	const char	*m = model_prefix(p), *pw;
	bool		 gather, want_gather, grads32, want_grads32;

	if (!p->given.params_dtype && !p->given.grads_dtype &&
	    !p->given.fp8 && !p->given.fp8_param_gather)
		return;
	/* The recipe's own precision, asked for again: keep it whole
	 * (deepseek_v3's, kimi_k2's and qwen3's are no preset). */
	if (p->same_as_recipe.params_dtype &&
	    p->same_as_recipe.grads_dtype &&
	    p->same_as_recipe.fp8 &&
	    !p->given.fp8_param_gather)
		return;
	if (w == PRECISION_DEFAULT)
		w = PRECISION_BF16;
	pw = settings_word(SET_PARAMS_DTYPE, w);
	grads32 = w == PRECISION_BF16;
	/* mbsbatch's default is fp32 gradients, whatever the weights. */
	want_grads32 = g == PRECISION_DEFAULT || g == PRECISION_FP32;
	gather = fp8 != FP8_NO && fp8 != FP8_BLOCKWISE;
	want_gather = p->fp8_param_gather;
	/* NVFP4's preset is bf16's alone (bf16_with_nvfp4_mixed,
	 * training/mixed_precision.py:405 at v0.5.1, v0.6.0 and 067f987d);
	 * fp16 weights get the fields. */
	if (w != PRECISION_FP32 && grads32 == want_grads32 &&
	    gather == want_gather && (fp8 != FP8_NVFP4 ||
	    w == PRECISION_BF16)) {
		jsondoc_addf(a, "mixed_precision=%s_%s", pw, suffix[fp8]);
		return;
	}
	jsondoc_addf(a, "mixed_precision=null");
	jsondoc_addf(a, "%sbf16=%s", m, tf(w == PRECISION_BF16));
	jsondoc_addf(a, "%sfp16=%s", m, tf(w == PRECISION_FP16));
	jsondoc_addf(a, "%sparams_dtype=%s", m, pw);
	jsondoc_addf(a, "%spipeline_dtype=%s", m, pw);
	jsondoc_addf(a, "optimizer.bf16=%s", tf(w == PRECISION_BF16));
	jsondoc_addf(a, "optimizer.fp16=%s", tf(w == PRECISION_FP16));
	jsondoc_addf(a, "ddp.grad_reduce_in_fp32=%s", tf(want_grads32));
	if (fp8 == FP8_NVFP4) {
		/* mixed_precision.py:405-417: fp4 e2m1, recipe nvfp4, no
		 * FP8; fp4_param and the DDP's gather as asked. */
		jsondoc_addf(a, "%sfp8=null", m);
		jsondoc_addf(a, "%sfp4=e2m1", m);
		jsondoc_addf(a, "%sfp4_recipe=nvfp4", m);
		jsondoc_addf(a, "%sfp4_param=%s", m, tf(want_gather));
		jsondoc_addf(a, "ddp.fp4_param_gather=%s", tf(want_gather));
	} else if (fp8 != FP8_NO) {
		jsondoc_addf(a, "%sfp8=%s", m, fp8 == FP8_MXFP8 ? "e4m3" :
		    "hybrid");
		jsondoc_addf(a, "%sfp8_recipe=%s", m, settings_word(SET_FP8,
		    fp8));
		jsondoc_addf(a, "%sfp8_param=%s", m, tf(want_gather));
		jsondoc_addf(a, "ddp.fp8_param_gather=%s", tf(want_gather));
		if (want_gather && fp8 == FP8_MXFP8) {
			/* config.py refuses MXFP8 gathers without it. */
			jsondoc_addf(a, "ddp.reuse_grad_buf_for_mxfp8_param_ag="
			    "true");
			jsondoc_addf(a, "optimizer.reuse_grad_buf_for_mxfp8_"
			    "param_ag=true");
		}
	} else
		jsondoc_addf(a, "%sfp8=null", m);
}

/* Adam's moments: the precision-aware optimizer and its dtypes, all fp32
 * when it is off (optimizer_config.py refuses any other then). */
static void
optimizer(json_t *a, const struct plan *p)
{
	enum precision	 o = p->optimizer_dtype;
	bool		 dist = p->distributed_optimizer;

	if (p->given.distributed_optimizer || p->recipe == NULL) {
		/* Both: Bridge ORs them, after the checks that read one. */
		jsondoc_addf(a, "ddp.use_distributed_optimizer=%s", tf(dist));
		jsondoc_addf(a, "optimizer.use_distributed_optimizer=%s",
		    tf(dist));
	}
	if (!p->given.optimizer_dtype || p->same_as_recipe.optimizer_dtype)
		return;
	if (o == PRECISION_FP32) {
		jsondoc_addf(a, "optimizer.use_precision_aware_optimizer=false");
		jsondoc_addf(a, "optimizer.main_grads_dtype=fp32");
		jsondoc_addf(a, "optimizer.main_params_dtype=fp32");
		jsondoc_addf(a, "optimizer.exp_avg_dtype=fp32");
		jsondoc_addf(a, "optimizer.exp_avg_sq_dtype=fp32");
	} else {
		jsondoc_addf(a, "optimizer.use_precision_aware_optimizer=true");
		jsondoc_addf(a, "optimizer.exp_avg_dtype=%s",
		    settings_word(SET_OPTIMIZER_DTYPE, o));
		jsondoc_addf(a, "optimizer.exp_avg_sq_dtype=%s",
		    settings_word(SET_OPTIMIZER_DTYPE, o));
	}
}

/*
 * Megatron-FSDP (Bridge's ddp fields, as its FSDP perf recipes and
 * scripts/performance/utils/overrides.py:99-103 at 067f987d set them,
 * average_in_collective off as they turn it off): config.py turns
 * dist.use_megatron_fsdp and the distributed optimizer on from
 * ddp.use_megatron_fsdp, and asserts the fsdp_dtensor format when the
 * run saves or loads (1137 / 1096 / 1105 in 0.5.1 / 0.6.0 / main).
 */
static void
fsdp(json_t *a, const struct plan *p)
{
	if (p->in->fsdp == FSDP_OFF)
		return;
	jsondoc_addf(a, "ddp.use_megatron_fsdp=true");
	jsondoc_addf(a, "ddp.data_parallel_sharding_strategy=%s",
	    settings_word(SET_FSDP_SHARDING, p->in->fsdp));
	jsondoc_addf(a, "ddp.average_in_collective=false");
	jsondoc_addf(a, "checkpoint.ckpt_format=fsdp_dtensor");
}

/* transformer_config.py: selective needs recompute_num_layers None; full
 * needs a method and a count. */
static void
recompute(json_t *a, const struct plan *p)
{
	enum recompute	 rc = p->recompute;	/* given: set */
	const char	*m = model_prefix(p);

	if (!p->given.recompute)
		return;
	if (rc == RECOMPUTE_FULL) {
		jsondoc_addf(a, "%srecompute_granularity=full", m);
		jsondoc_addf(a, "%srecompute_method=uniform", m);
		jsondoc_addf(a, "%srecompute_num_layers=1", m);
		return;
	}
	jsondoc_addf(a, "%srecompute_granularity=%s", m,
	    rc == RECOMPUTE_NONE ? "null" : "selective");
	jsondoc_addf(a, "%srecompute_method=null", m);
	jsondoc_addf(a, "%srecompute_num_layers=null", m);
}

static void
dispatcher(json_t *a, const struct plan *p)
{
	enum moe_dispatcher	 d = p->dispatcher;
	const char		*w = p->dispatcher_word;
	const char		*m = model_prefix(p);

	if (!p->fig->sizing.moe || !p->given.dispatcher)
		return;
	if (d == DISPATCH_DEEPEP || d == DISPATCH_HYBRIDEP) {
		jsondoc_addf(a, "%smoe_token_dispatcher_type=flex", m);
		jsondoc_addf(a, "%smoe_flex_dispatcher_backend=%s", m, w);
	} else
		jsondoc_addf(a, "%smoe_token_dispatcher_type=%s", m, w);
}

/*
 * model.cuda_graph_impl (model.transformer. for Bridge main's nested
 * recipes): a Literal of the same four words in 0.5.1, 0.6.0 and main
 * (config-fields.tsv).  No recipe table says what the recipe sets
 * (job-recipe.c), so it is written whenever the user gives it, none
 * included: that turns off whatever graphs the recipe has.  Any graph
 * needs Transformer Engine's RNG tracker, which no library recipe turns
 * on (an assert when the model is built: gpt_provider.py 229 in 0.5.1,
 * 234 in 0.6.0, 235 in main; 0.5.1's gpt/gpt_builder.py 220 too).
 * training/config.py sets model and rng alike when either is on (1191 /
 * 1271 / 1415), but main's nested recipes build through megatron-core's
 * GPTModelConfig, so both are written.  A full
 * iteration graph needs the NaN check of the loss off (training/config.py
 * 1257 in 0.5.1, 1365 in 0.6.0, 1509 in main: an assert).
 */
static void
cuda_graphs(json_t *a, const struct plan *p)
{
	enum cuda_graph_impl	 g = p->in->cuda_graphs;
	const char		*m = model_prefix(p);

	if (!p->given.cuda_graphs)
		return;
	jsondoc_addf(a, "%scuda_graph_impl=%s", m, settings_word(SET_CUDA_GRAPHS,
	    g));
	if (g == CUDA_GRAPH_NONE)
		return;
	jsondoc_addf(a, "%suse_te_rng_tracker=true", m);
	jsondoc_addf(a, "rng.te_rng_tracker=true");
	if (g == CUDA_GRAPH_FULL_ITERATION)
		jsondoc_addf(a, "rerun_state_machine.check_for_nan_in_loss=false");
}

/* The comm_overlap.<field> name of a launch flag ("ddp.bucket_size"). */
static const char *
overlap_field(const char *key)
{
	const char	*dot = strchr(key, '.');

	return dot != NULL ? dot + 1 : key;
}

/*
 * Communication overlap, as computed (launchenv.c) or given: through the
 * recipe's comm_overlap section, whose setup() then applies them with its
 * own checks; a recipe without one gets one, whole.
 */
static void
overlap(json_t *a, const struct plan *p)
{
	const struct launchenv	*env = &p->fig->env;
	struct buf		 b;
	int			 k;

	/* The MoE all-to-all overlap refuses the shared-expert overlap,
	 * which model providers turn on (GLM's: comm_overlap.py:513). */
	if (p->fig->sizing.moe && p->moe_a2a_overlap)
		jsondoc_addf(a, "%smoe_shared_expert_overlap=false",
		    model_prefix(p));

	if (p->recipe == NULL || p->recipe->comm_overlap) {
		for (k = 0; k < env->nflags; k++)
			jsondoc_addf(a, "comm_overlap.%s=%s",
			    overlap_field(env->flags[k].key),
			    tf(env->flags[k].on));
		if (env->ddp_bucket_size != 0)
			jsondoc_addf(a, "comm_overlap.bucket_size=%lld",
			    (long long)env->ddp_bucket_size);
		return;
	}
	buf_init(&b);
	buf_adds(&b, "comm_overlap={_target_:megatron.bridge.training."
	    "comm_overlap.CommOverlapConfig");
	for (k = 0; k < env->nflags; k++)
		buf_addf(&b, ",%s:%s", overlap_field(env->flags[k].key),
		    tf(env->flags[k].on));
	if (env->ddp_bucket_size != 0)
		buf_addf(&b, ",bucket_size:%lld",
		    (long long)env->ddp_bucket_size);
	buf_addc(&b, '}');
	jsondoc_addf(a, "%s", b.data);
	buf_release(&b);
}

/* Checkpoints, and a save at the requeue signal (train.exit_signal is a
 * signal number: a name stays a string and fails). */
static void
checkpoint(json_t *a, const struct plan *p)
{
	const char	*dir = p->checkpoint_dir;

	if (dir != NULL) {
		jsondoc_addf(a, "checkpoint.save=%s", dir);
		jsondoc_addf(a, "checkpoint.load=%s", dir);
	}
	/* The weights fine-tuning starts from (job.c checks that a
	 * fine-tuning recipe has them). */
	if (p->pretrained_checkpoint != NULL)
		jsondoc_addf(a, "%s=%s", p->bridge->pretrained_key,
		    p->pretrained_checkpoint);
	if (p->save_interval.set)
		jsondoc_addf(a, "checkpoint.save_interval=%lld",
		    (long long)p->save_interval.v);
	if (p->requeue) {
		jsondoc_addf(a, "train.exit_signal_handler=true");
		jsondoc_addf(a, "train.exit_signal=%d",
		    p->fig->slurm.trap_num);
	}
}

/*
 * A smoke job's run (mbsbatch-smoke(1)): no evaluation (train.py runs
 * it only with an eval_interval, 0.5.1 637, main 669), no checkpoint
 * (saves need checkpoint.save, train.py 739 and 1393; vanilla_gpt's
 * recipe sets one), no warm-up (config.py caps a warm-up longer than
 * the run with a warning, 0.5.1 1493), a log line every iteration with
 * its TFLOP/s (train_utils.py prints them only with log_throughput,
 * off by default: 0.5.1 1179), for check-log to hold against plan.
 */
static void
smoke(json_t *a, const struct plan *p)
{
	if (!p->smoke)
		return;
	jsondoc_addf(a, "validation.eval_iters=0");
	jsondoc_addf(a, "validation.eval_interval=0");
	jsondoc_addf(a, "scheduler.lr_warmup_iters=0");
	jsondoc_addf(a, "logger.log_interval=1");
	jsondoc_addf(a, "logger.log_throughput=true");
	jsondoc_addf(a, "checkpoint.save=null");
	jsondoc_addf(a, "checkpoint.load=null");
	jsondoc_addf(a, "checkpoint.save_interval=0");
}

/*
 * The process groups' timeout after initialisation: the hang rule's
 * floor, as for Megatron-LM (script-mlm.c); DistributedInitConfig's
 * distributed_timeout_seconds_after_init in 0.5.1, 0.6.0 and main
 * (config-fields.tsv of data/megatron/megatron-bridge-VERSION).
 */
static void
timeout(json_t *a, const struct plan *p)
{
	jsondoc_addf(a, "dist.distributed_timeout_seconds_after_init=%lld",
	    (long long)p->hang_floor);
}

json_t *
script_bridge_overrides(const struct plan *p)
{
	json_t	*a = json_array();
	size_t	 i;

	parallel(a, p);
	split(a, p);
	architecture(a, p);
	training(a, p);
	precision(a, p);
	optimizer(a, p);
	fsdp(a, p);
	recompute(a, p);
	dispatcher(a, p);
	cuda_graphs(a, p);
	overlap(a, p);
	checkpoint(a, p);
	timeout(a, p);
	smoke(a, p);
	for (i = 0; i < p->noverrides; i++)
		jsondoc_addf(a, "%s", p->overrides[i]);
	return a;
}
