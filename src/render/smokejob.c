/*
 * smokejob.c: a job turned into its smoke job; see smokejob.h and
 * mbsbatch-smoke(1).
 *
 * The job is loaded as any job, sized by the core, and its layout, split
 * and overlaps read off; core/smoke.c decides the smoke sizes for the
 * small model of the job's kind.  The smoke job is then loaded again from
 * the job's merged settings without what belonged to the job's recipe,
 * model, length, batch, checkpoints and requeue, plus a layer of origin
 * "smoke": the layout, the small model and its recipe, the new sizes,
 * mock data, the iterations and the time limit.  Everything after that
 * (rules, memory estimate, script) is what any job gets.
 *
 * A fine-tuning job's smoke job is such a pretraining run too: the small
 * model could not load the job's pretrained checkpoint (another model's
 * shapes), so it drops it (and with it the LoRA adapters and the
 * recipe's data), and checks the layout and the launch alone.
 *
 * The small models: Megatron-Bridge's vanilla_gpt_pretrain_config (a
 * bare GPTModelProvider, no Hugging Face download; llama32_1b's recipe
 * reads meta-llama/Llama-3.2-1B's config from the Hub, a gated
 * repository) given Llama 3.2 1B's sizes, and olmoe_7b_pretrain_config
 * (OlMoEModelProvider, no download), in every supported Bridge; for
 * Megatron-LM the llama3.2-1b and olmoe-7b presets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "generate.h"
#include "model-file.h"
#include "smokejob.h"
#include "xmalloc.h"

#define SMOKE_DENSE_MODEL	"llama3.2-1b"
#define SMOKE_MOE_MODEL		"olmoe-7b"
#define SMOKE_DENSE_RECIPE	"vanilla_gpt_pretrain_config"
#define SMOKE_MOE_RECIPE	"olmoe_7b_pretrain_config"

/*
 * The job's settings a smoke job does not take: its model (the small
 * one replaces it), recipe, world, split, batch, length of training,
 * data, checkpoints, time and requeue.  Overrides are the real model's
 * and data's; only those given on this command line are kept.
 */
static bool
dropped(enum setting_id id, enum origin o)
{
	if (id >= SET_MODEL && id <= SET_AUX_LOSS_COEFF)
		return true;
	switch (id) {
	case SET_RECIPE:
	case SET_GPUS:
	case SET_NODES:
	case SET_MULTIPLE:
	case SET_FIRST_STAGE_LAYERS:
	case SET_LAST_STAGE_LAYERS:
	case SET_GLOBAL_BATCH_SIZE:
	case SET_MICRO_BATCH_SIZE:
	case SET_TRAIN_ITERS:
	case SET_DATASET:
	case SET_CHECKPOINT_DIR:
	case SET_PRETRAINED_CHECKPOINT:
	case SET_SAVE_INTERVAL:
	case SET_TIME:
	case SET_DEPENDENCY:
	case SET_SIGNAL:
	case SET_REQUEUE:
	case SET_MAX_RESTARTS:
	case SET_TP_COMM_OVERLAP:
		return true;
	case SET_OVERRIDES:
		return o != ORIGIN_CLI;
	default:
		return false;
	}
}

/* The job's own choices that its recipe made and the smoke job keeps
 * (the layout's overlaps and the dispatcher), lifted to origin smoke. */
static bool
kept_from_recipe(enum setting_id id)
{
	switch (id) {
	case SET_MOE_DISPATCHER:
	case SET_MOE_A2A_OVERLAP:
	case SET_OVERLAP_P2P_COMM:
	case SET_BATCH_P2P_COMM:
	case SET_OVERLAP_GRAD_REDUCE:
	case SET_OVERLAP_PARAM_GATHER:
	case SET_ALIGN_PARAM_GATHER:
	case SET_ACCOUNT_EMBEDDING:
	case SET_ACCOUNT_LOSS:
		return true;
	default:
		return false;
	}
}

static void
set_int(struct settings *set, enum setting_id id, int64_t v)
{
	settings_unset(set, id);
	set->v[id].origin = ORIGIN_SMOKE;
	set->v[id].i = v;
}

static void
set_bool(struct settings *set, enum setting_id id, bool v)
{
	settings_unset(set, id);
	set->v[id].origin = ORIGIN_SMOKE;
	set->v[id].b = v;
}

static void
set_str(struct settings *set, enum setting_id id, const char *v)
{
	settings_unset(set, id);
	set->v[id].origin = ORIGIN_SMOKE;
	set->v[id].s = xstrdup(v);
}

/* The smoke layer over the job's own settings. */
static void
smoke_layer(const struct job *orig, const struct model *small,
    const char *recipe, const struct smoke *sz, bool moe,
    struct settings *set)
{
	const struct sizing_input	*in = &orig->in;
	const struct layout		*l = &in->layout;
	char				*name;
	size_t				 i;

	settings_merge(set, &orig->set);
	for (i = 0; i < SET__COUNT; i++) {
		if (set->v[i].origin == ORIGIN_UNSET)
			continue;
		if (dropped(i, set->v[i].origin))
			settings_unset(set, i);
		else if (set->v[i].origin == ORIGIN_RECIPE) {
			if (kept_from_recipe(i))
				set->v[i].origin = ORIGIN_SMOKE;
			else
				settings_unset(set, i);
		}
	}

	set_int(set, SET_TP, l->tp);
	set_int(set, SET_PP, l->pp);
	set_int(set, SET_CP, l->cp);
	set_int(set, SET_EP, l->ep);
	set_int(set, SET_ETP, l->etp);
	if (l->vpp > 1)
		set_int(set, SET_VPP, l->vpp);
	else
		settings_unset(set, SET_VPP);
	set_bool(set, SET_SP, l->sp);
	if (in->first_stage_layers != 0)
		set_int(set, SET_FIRST_STAGE_LAYERS, in->first_stage_layers);
	if (in->last_stage_layers != 0)
		set_int(set, SET_LAST_STAGE_LAYERS, in->last_stage_layers);
	/* The TP overlap that runs (a recipe's is off without TP and SP). */
	if (in->tp_comm_overlap == TRI_ON ||
	    (in->tp_comm_overlap == TRI_OFF &&
	    orig->set.v[SET_TP_COMM_OVERLAP].origin > ORIGIN_RECIPE))
		set_bool(set, SET_TP_COMM_OVERLAP,
		    in->tp_comm_overlap == TRI_ON);

	set_str(set, SET_MODEL, small->name);
	if (recipe != NULL)
		set_str(set, SET_RECIPE, recipe);
	set_int(set, SET_NUM_LAYERS, sz->num_layers);
	set_int(set, SET_NUM_ATTENTION_HEADS, sz->num_attention_heads);
	set_int(set, SET_NUM_QUERY_GROUPS, sz->num_query_groups);
	if (recipe != NULL && !moe) {
		/* vanilla_gpt's bare GPTModelProvider has no sizes. */
		set_int(set, SET_HIDDEN_SIZE, small->hidden_size);
		set_int(set, SET_FFN_HIDDEN_SIZE, small->ffn_hidden_size);
	}
	if (moe)
		set_int(set, SET_NUM_EXPERTS, sz->num_experts);
	if (in->seq_length != 0)
		set_int(set, SET_SEQ_LENGTH, in->seq_length);
	set_int(set, SET_GPUS, sz->gpus);
	set_int(set, SET_GLOBAL_BATCH_SIZE, sz->global_batch);
	set_int(set, SET_MICRO_BATCH_SIZE, sz->micro_batch);
	set_int(set, SET_TRAIN_ITERS, SMOKE_ITERATIONS);
	set_str(set, SET_DATASET, "mock");
	set_str(set, SET_TIME, SMOKEJOB_TIME);
	/* Its own name, so its log is not the job's (logs/%x-%j.out),
	 * unless this command line names it. */
	if (orig->set.v[SET_JOB_NAME].origin != ORIGIN_CLI) {
		name = xasprintf("%s-smoke", job_name(orig));
		set_str(set, SET_JOB_NAME, name);
		free(name);
	}
}

/* What a cluster profile merged again would bring back. */
static void
scrub(struct job *job)
{
	size_t	 i;

	for (i = 0; i < SET__COUNT; i++)
		if (job->set.v[i].origin == ORIGIN_CONFIG &&
		    dropped(i, ORIGIN_CONFIG))
			settings_unset(&job->set, i);
}

static const char *
template_runs(const struct job *job, bool *bridge)
{
	enum template_name	 t = job_template(job);

	*bridge = t == TEMPLATE_MEGATRON_BRIDGE ||
	    (t == TEMPLATE_OTHER && job_str(job, SET_RECIPE) != NULL);
	if (*bridge || t == TEMPLATE_MEGATRON_LM)
		return NULL;
	return t == TEMPLATE_COMMAND ? "the command template runs a program "
	    "of yours, not Megatron: a smoke job needs the megatron-bridge "
	    "or the megatron-lm template" : "a template of yours without a "
	    "recipe is not known to run Megatron: a smoke job needs the "
	    "megatron-bridge or the megatron-lm template, or --recipe";
}

struct error *
smokejob_load(const char *cmd, struct job *job, const struct job_request *req,
    struct smokejob_summary *sum)
{
	struct job			 orig;
	struct job_figures		 fig, sfig;
	struct job_request		 sreq;
	struct smoke_input		 in;
	struct smoke			 sz;
	struct smokejob_summary		 s;
	const struct model		*small;
	const char			*reason, *recipe = NULL;
	struct error			*err;
	bool				 bridge, moe;

	memset(job, 0, sizeof *job);
	memset(&s, 0, sizeof s);
	if ((err = job_load(&orig, req)) != NULL)
		return err;
	job_request_init(&sreq);
	if ((reason = job_figure(&orig, &fig)) != NULL) {
		err = error_new(EXIT_USAGE, "%s: %s", cmd, reason);
		goto out;
	}
	/*
	 * A job plan refuses has no smoke job: its errors stay the job's
	 * whatever the smoke job's own figures (its small model would hide
	 * the model's; its own GPUs and batch the job's world and batch,
	 * which gen refuses after a smoke run that proved nothing of
	 * them).  --strict counts the job's warnings too, as for gen.
	 */
	if ((err = generate_refusal(cmd, "the job", &fig.sizing,
	    job_bool(&orig, SET_STRICT, false))) != NULL)
		goto out;
	if ((reason = template_runs(&orig, &bridge)) != NULL) {
		err = error_new(EXIT_USAGE, "%s: %s", cmd, reason);
		goto out;
	}
	moe = fig.sizing.moe;
	small = model_builtin_find(moe ? SMOKE_MOE_MODEL : SMOKE_DENSE_MODEL);
	if (bridge) {
		recipe = moe ? SMOKE_MOE_RECIPE : SMOKE_DENSE_RECIPE;
		if (bridge_recipe_find(orig.bridge, recipe) == NULL) {
			err = error_new(EXIT_USAGE, "%s: Megatron-Bridge %s has "
			    "no recipe '%s' for a smoke job", cmd,
			    orig.bridge->name, recipe);
			goto out;
		}
	}

	memset(&in, 0, sizeof in);
	in.layout = orig.in.layout;
	in.first_stage_layers = orig.in.first_stage_layers;
	in.last_stage_layers = orig.in.last_stage_layers;
	in.account_embedding = orig.in.account_embedding;
	in.account_loss = orig.in.account_loss;
	in.gpus_per_node = orig.in.gpus_per_node;
	in.num_layers = small->num_layers;
	in.hidden_size = small->hidden_size;
	in.num_attention_heads = small->num_attention_heads;
	in.num_query_groups = small->num_query_groups;
	in.num_experts = small->num_experts;
	in.moe_router_topk = small->moe_router_topk;
	if ((reason = smoke_compute(&in, &sz)) != NULL) {
		err = error_new(EXIT_LAYOUT, "%s: no smoke job of this layout: "
		    "%s", cmd, reason);
		error_hint(err, "'mbsbatch plan' with the same options checks "
		    "the layout itself");
		goto out;
	}

	/* Smaller, one step at a time, while the estimate does not fit. */
	for (;;) {
		job_request_release(&sreq);
		job_request_init(&sreq);
		sreq.config_path = req->config_path;
		sreq.cluster = orig.cluster;
		smoke_layer(&orig, small, recipe, &sz, moe, &sreq.cli);
		if ((err = job_load(job, &sreq)) != NULL)
			goto out;
		scrub(job);
		if (job_figure(job, &sfig) != NULL ||
		    !sfig.sizing.memory_oom || !smoke_shrink(&in, &sz))
			break;
		job_release(job);
	}
	if (orig.jobfile != NULL)
		job->jobfile = xstrdup(orig.jobfile);

	s.job_gpus = fig.sizing.world;
	s.job_nodes = fig.sizing.nodes;
	s.job_layers = orig.in.model.num_layers;
	if (orig.in.model.name != NULL)
		snprintf(s.job_model, sizeof s.job_model, "%s",
		    orig.in.model.name);
	s.recipe = recipe;
	s.model = small->name;
	/* orig's recipe is a static table row: it outlives orig. */
	if (orig.recipe != NULL &&
	    bridge_recipe_task(orig.recipe) != BRIDGE_PRETRAIN)
		s.finetune = orig.recipe->name;
	s.layout = orig.in.layout;
	s.sizes = sz;
	if (sum != NULL)
		*sum = s;

out:
	job_request_release(&sreq);
	job_release(&orig);
	return err;
}
