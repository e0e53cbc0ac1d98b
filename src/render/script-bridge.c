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

/* Was setting ID given by the user (not the recipe's own value)? */
static bool
given(const struct job *job, enum setting_id id)
{
	return job->set.v[id].origin > ORIGIN_RECIPE;
}

/* Is choice setting ID the recipe's own value (given again, or not)? */
static bool
same_as_recipe(const struct job *job, enum setting_id id)
{
	const struct setting_value	*r = &job->recipe_set.v[id];
	const struct setting_value	*v = &job->set.v[id];

	if (job->recipe == NULL)
		return false;
	if (r->origin == ORIGIN_UNSET || v->origin == ORIGIN_UNSET)
		return r->origin == v->origin;
	return r->choice == v->choice;
}

/* Does the recipe build a MoE model (whatever the job makes of it)? */
static bool
recipe_moe(const struct job *job)
{
	const struct bridge_recipe	*r = job->recipe;

	return r != NULL && (r->num_moe_experts != 0 || r->sizes.ep > 1 ||
	    r->sizes.etp > 1);
}

/* "model." or, for Bridge main's nested recipes, "model.transformer." for
 * TransformerConfig's fields. */
static const char *
model_prefix(const struct job *job)
{
	return job->recipe != NULL && job->recipe->nested ?
	    "model.transformer." : "model.";
}

static void
parallel(json_t *a, const struct job *job, const struct job_figures *fig)
{
	const struct layout	*l = &job->in.layout;
	const char		*m = model_prefix(job);

	jsondoc_addf(a, "%stensor_model_parallel_size=%lld", m, (long long)l->tp);
	jsondoc_addf(a, "%spipeline_model_parallel_size=%lld", m,
	    (long long)l->pp);
	if (l->vpp > 1)
		jsondoc_addf(a, "%svirtual_pipeline_model_parallel_size=%lld", m,
		    (long long)l->vpp);
	else if (!job->recipe_layout)
		jsondoc_addf(a, "%svirtual_pipeline_model_parallel_size=null", m);
	jsondoc_addf(a, "%scontext_parallel_size=%lld", m, (long long)l->cp);
	jsondoc_addf(a, "%ssequence_parallel=%s", m, tf(l->sp));
	/* Also a MoE recipe's model made dense (--num-experts 0): its
	 * expert sizes would stay, and TransformerConfig refuses EP > 1
	 * without experts (transformer_config.py:1326 / 1468 / 1500 at
	 * the core Bridge 0.5.1 / 0.6.0 / main pins). */
	if (fig->sizing.moe || recipe_moe(job)) {
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
split(json_t *a, const struct job *job)
{
	const struct sizing_input	*in = &job->in;
	const char			*m = model_prefix(job);

	if (job->recipe_layout)
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
architecture(json_t *a, const struct job *job)
{
	static const struct {
		enum setting_id	 id;
		const char	*field;
	} fields[] = {
		{ SET_NUM_LAYERS, "num_layers" },
		{ SET_HIDDEN_SIZE, "hidden_size" },
		{ SET_FFN_HIDDEN_SIZE, "ffn_hidden_size" },
		{ SET_NUM_ATTENTION_HEADS, "num_attention_heads" },
		{ SET_NUM_QUERY_GROUPS, "num_query_groups" },
		{ SET_NUM_EXPERTS, "num_moe_experts" },
		{ SET_MOE_ROUTER_TOPK, "moe_router_topk" },
		{ SET_MOE_FFN_HIDDEN_SIZE, "moe_ffn_hidden_size" },
	};
	const char	*m = model_prefix(job);
	int64_t		 v;
	size_t		 i;

	for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		if (!given(job, fields[i].id))
			continue;
		v = job->set.v[fields[i].id].i;
		if (v == 0)
			jsondoc_addf(a, "%s%s=null", m, fields[i].field);
		else
			jsondoc_addf(a, "%s%s=%lld", m, fields[i].field,
			    (long long)v);
	}
	/* The embeddings as sized (a preset's tie over a recipe model
	 * built without a Hugging Face config: vanilla_gpt's ties). */
	if (job->recipe != NULL && job->recipe->tie_embeddings != TRI_UNSET &&
	    (job->recipe->tie_embeddings == TRI_ON) !=
	    job->in.model.tied_embeddings)
		jsondoc_addf(a, "model.share_embeddings_and_output_weights=%s",
		    tf(job->in.model.tied_embeddings));
	/* (model_check() refuses an expert width given with 0 experts.) */
	if (given(job, SET_NUM_EXPERTS) && job->set.v[SET_NUM_EXPERTS].i == 0 &&
	    recipe_moe(job))
		jsondoc_addf(a, "%smoe_ffn_hidden_size=null", m);
}

static void
training(json_t *a, const struct job *job)
{
	const struct setting_value	*v = job->set.v;

	if (job->in.seq_length != 0 && given(job, SET_SEQ_LENGTH)) {
		/* The model's is synchronised from the dataset's. */
		jsondoc_addf(a, "model.seq_length=%lld",
		    (long long)job->in.seq_length);
		jsondoc_addf(a, "%s=%lld", job->bridge->dataset_seq_key,
		    (long long)job->in.seq_length);
	}
	if (given(job, SET_GLOBAL_BATCH_SIZE))
		jsondoc_addf(a, "train.global_batch_size=%lld",
		    (long long)job->in.global_batch);
	if (given(job, SET_MICRO_BATCH_SIZE))
		jsondoc_addf(a, "train.micro_batch_size=%lld",
		    (long long)job->in.micro_batch);
	if (v[SET_TRAIN_ITERS].origin)
		jsondoc_addf(a, "train.train_iters=%lld",
		    (long long)v[SET_TRAIN_ITERS].i);
	if (v[SET_LR].origin)
		jsondoc_addf(a, "optimizer.lr=%.15g", v[SET_LR].d);
}

/*
 * Precision.  A mixed-precision preset when one is what the user asked
 * for (each preset's own gradient-reduce dtype and FP8 parameter gather:
 * bf16 reduces in fp32, fp16 in fp16; FP8 gathers in FP8 but for
 * blockwise scaling); otherwise no preset and every field written, since
 * setup() would overwrite them.
 */
static void
precision(json_t *a, const struct job *job)
{
	/* The preset of each FP8 recipe: "<the weights' dtype>_<suffix>". */
	static const char *const suffix[] = {
		[FP8_NO] = "mixed",
		[FP8_TENSORWISE] = "with_fp8_current_scaling_mixed",
		[FP8_DELAYED] = "with_fp8_delayed_scaling_mixed",
		[FP8_BLOCKWISE] = "with_fp8_subchannel_scaling_mixed",
		[FP8_MXFP8] = "with_mxfp8_mixed",
	};
	enum precision	 p = job_dtype(job, SET_PARAMS_DTYPE);
	enum precision	 g = job_dtype(job, SET_GRADS_DTYPE);
	enum fp8_recipe	 fp8 = job_fp8(job);
	const char	*m = model_prefix(job), *pw;
	bool		 gather, want_gather, grads32, want_grads32;

	if (!given(job, SET_PARAMS_DTYPE) && !given(job, SET_GRADS_DTYPE) &&
	    !given(job, SET_FP8) && !given(job, SET_FP8_PARAM_GATHER))
		return;
	/* The recipe's own precision, asked for again: keep it whole
	 * (deepseek_v3's, kimi_k2's and qwen3's are no preset). */
	if (same_as_recipe(job, SET_PARAMS_DTYPE) &&
	    same_as_recipe(job, SET_GRADS_DTYPE) &&
	    same_as_recipe(job, SET_FP8) &&
	    !given(job, SET_FP8_PARAM_GATHER))
		return;
	if (p == PRECISION_DEFAULT)
		p = PRECISION_BF16;
	pw = settings_word(SET_PARAMS_DTYPE, p);
	grads32 = p == PRECISION_BF16;
	/* mbsbatch's default is fp32 gradients, whatever the weights. */
	want_grads32 = g == PRECISION_DEFAULT || g == PRECISION_FP32;
	gather = fp8 != FP8_NO && fp8 != FP8_BLOCKWISE;
	want_gather = job_fp8_param_gather(job);
	if (p != PRECISION_FP32 && grads32 == want_grads32 &&
	    gather == want_gather) {
		jsondoc_addf(a, "mixed_precision=%s_%s", pw, suffix[fp8]);
		return;
	}
	jsondoc_addf(a, "mixed_precision=null");
	jsondoc_addf(a, "%sbf16=%s", m, tf(p == PRECISION_BF16));
	jsondoc_addf(a, "%sfp16=%s", m, tf(p == PRECISION_FP16));
	jsondoc_addf(a, "%sparams_dtype=%s", m, pw);
	jsondoc_addf(a, "%spipeline_dtype=%s", m, pw);
	jsondoc_addf(a, "optimizer.bf16=%s", tf(p == PRECISION_BF16));
	jsondoc_addf(a, "optimizer.fp16=%s", tf(p == PRECISION_FP16));
	jsondoc_addf(a, "ddp.grad_reduce_in_fp32=%s", tf(want_grads32));
	if (fp8 != FP8_NO) {
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
optimizer(json_t *a, const struct job *job)
{
	enum precision	 o = job_dtype(job, SET_OPTIMIZER_DTYPE);
	bool		 dist = job_bool(job, SET_DISTRIBUTED_OPTIMIZER, true);

	if (given(job, SET_DISTRIBUTED_OPTIMIZER) || job->recipe == NULL) {
		/* Both: Bridge ORs them, after the checks that read one. */
		jsondoc_addf(a, "ddp.use_distributed_optimizer=%s", tf(dist));
		jsondoc_addf(a, "optimizer.use_distributed_optimizer=%s",
		    tf(dist));
	}
	if (!given(job, SET_OPTIMIZER_DTYPE) ||
	    same_as_recipe(job, SET_OPTIMIZER_DTYPE))
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

/* transformer_config.py: selective needs recompute_num_layers None; full
 * needs a method and a count. */
static void
recompute(json_t *a, const struct job *job)
{
	enum recompute	 rc = job_choice(job, SET_RECOMPUTE,
	    RECOMPUTE_SELECTIVE);
	const char	*m = model_prefix(job);

	if (!given(job, SET_RECOMPUTE))
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
dispatcher(json_t *a, const struct job *job, const struct job_figures *fig)
{
	enum moe_dispatcher	 d = job_dispatcher(job);
	const char		*w = job_dispatcher_name(job);
	const char		*m = model_prefix(job);

	if (!fig->sizing.moe || !given(job, SET_MOE_DISPATCHER))
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
cuda_graphs(json_t *a, const struct job *job)
{
	enum cuda_graph_impl	 g = job->in.cuda_graphs;
	const char		*m = model_prefix(job);

	if (!given(job, SET_CUDA_GRAPHS))
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
overlap(json_t *a, const struct job *job, const struct job_figures *fig)
{
	const struct launchenv	*env = &fig->env;
	struct buf		 b;
	int			 k;

	/* The MoE all-to-all overlap refuses the shared-expert overlap,
	 * which model providers turn on (GLM's: comm_overlap.py:513). */
	if (fig->sizing.moe && job_bool(job, SET_MOE_A2A_OVERLAP, false))
		jsondoc_addf(a, "%smoe_shared_expert_overlap=false",
		    model_prefix(job));

	if (job->recipe == NULL || job->recipe->comm_overlap) {
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
checkpoint(json_t *a, const struct job *job, const struct job_figures *fig)
{
	const char	*dir = job_str(job, SET_CHECKPOINT_DIR);

	if (dir != NULL) {
		jsondoc_addf(a, "checkpoint.save=%s", dir);
		jsondoc_addf(a, "checkpoint.load=%s", dir);
	}
	if (job->set.v[SET_SAVE_INTERVAL].origin)
		jsondoc_addf(a, "checkpoint.save_interval=%lld",
		    (long long)job->set.v[SET_SAVE_INTERVAL].i);
	if (job_bool(job, SET_REQUEUE, false)) {
		jsondoc_addf(a, "train.exit_signal_handler=true");
		jsondoc_addf(a, "train.exit_signal=%d", fig->slurm.trap_num);
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
smoke(json_t *a, const struct job *job)
{
	if (!job_is_smoke(job))
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

json_t *
script_bridge_overrides(const struct job *job, const struct job_figures *fig)
{
	const struct setting_value	*user = &job->set.v[SET_OVERRIDES];
	json_t				*a = json_array();
	size_t				 i;

	parallel(a, job, fig);
	split(a, job);
	architecture(a, job);
	training(a, job);
	precision(a, job);
	optimizer(a, job);
	recompute(a, job);
	dispatcher(a, job, fig);
	cuda_graphs(a, job);
	overlap(a, job, fig);
	checkpoint(a, job, fig);
	smoke(a, job);
	for (i = 0; i < user->nlist; i++)
		jsondoc_addf(a, "%s", user->list[i]);
	return a;
}
