/*
 * job-recipe.c: what a Megatron-Bridge recipe sets, as the lowest layer of
 * a job's settings.  A recipe's layout, batch, pipeline split, precision,
 * recompute and dispatcher are what the run gets unless the user changes
 * them, so they are what mbsbatch sizes unless the user changes them;
 * each such value has the origin "recipe", and the script overrides only
 * values of a higher origin (script-bridge.c).
 */
#include <string.h>

#include "job.h"

static void
set_int(struct settings *set, enum setting_id id, int64_t v)
{
	if (v == 0)
		return;
	set->v[id].origin = ORIGIN_RECIPE;
	set->v[id].i = v;
}

static void
set_bool(struct settings *set, enum setting_id id, enum tristate v)
{
	if (v == TRI_UNSET)
		return;
	set->v[id].origin = ORIGIN_RECIPE;
	set->v[id].b = v == TRI_ON;
}

/* A choice setting: value V, unless V < 0 (the recipe leaves it). */
static void
set_choice(struct settings *set, enum setting_id id, int v)
{
	if (v >= 0)
		settings_set_choice(set, id, v, ORIGIN_RECIPE);
}

/* A choice setting named by the recipe's WORD (NULL: left unset). */
static void
set_word(struct settings *set, enum setting_id id, const char *word)
{
	if (word != NULL)
		set_choice(set, id, settings_choice(&settings_table[id], word));
}

/* Is "NAME=value" among the space-separated FIELDS? */
static bool
has_field(const char *fields, const char *pair)
{
	size_t	 n = strlen(pair);
	const char *p;

	for (p = fields; p != NULL && (p = strstr(p, pair)) != NULL; p += n)
		if ((p == fields || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/*
 * The weights' dtype of a precision preset or a custom config;
 * PRECISION_DEFAULT when neither says.  ("custom" and the preset names
 * are Bridge's words, not a setting's.)
 */
static enum precision
params_dtype(const struct bridge_recipe *r)
{
	const char	*mp = r->mixed_precision;

	if (mp == NULL)
		return PRECISION_DEFAULT;
	if (strcmp(mp, "custom") == 0) {
		if (has_field(r->mixed_precision_detail, "bf16=true"))
			return PRECISION_BF16;
		if (has_field(r->mixed_precision_detail, "fp16=true"))
			return PRECISION_FP16;
		return PRECISION_FP32;
	}
	if (strncmp(mp, "bf16", 4) == 0 || strstr(mp, "_bf16_") != NULL)
		return PRECISION_BF16;
	if (strncmp(mp, "fp16", 4) == 0)
		return PRECISION_FP16;
	return PRECISION_DEFAULT;
}

/* The FP8 or FP4 recipe of a precision preset or a custom config (whose
 * fp8_recipe is the setting's word; the fact tables record no fp4 field
 * of a custom one), or FP8_NO. */
static enum fp8_recipe
fp8_recipe(const struct bridge_recipe *r)
{
	static const struct {
		const char	*part;
		enum fp8_recipe	 recipe;
	} presets[] = {
		{ "fp8_current_scaling", FP8_TENSORWISE },
		{ "fp8_delayed_scaling", FP8_DELAYED },
		{ "fp8_subchannel_scaling", FP8_BLOCKWISE },
		{ "mxfp8", FP8_MXFP8 },
		/* bf16_with_nvfp4_mixed, nemotron_3_super_bf16_with_nvfp4_
		 * mixed (v0.5.1's nemotron_3_super_pretrain_config). */
		{ "nvfp4", FP8_NVFP4 },
	};
	const char	*mp = r->mixed_precision, *d, *p, *w;
	size_t		 i;

	if (mp == NULL)
		return FP8_NO;
	if (strcmp(mp, "custom") != 0) {
		for (i = 0; i < sizeof presets / sizeof presets[0]; i++)
			if (strstr(mp, presets[i].part) != NULL)
				return presets[i].recipe;
		return FP8_NO;
	}
	d = r->mixed_precision_detail;
	if (d == NULL || has_field(d, "fp8=None"))
		return FP8_NO;
	for (i = 0; i < sizeof presets / sizeof presets[0]; i++) {
		w = settings_word(SET_FP8, presets[i].recipe);
		if ((p = strstr(d, "fp8_recipe=")) != NULL &&
		    strncmp(p + 11, w, strlen(w)) == 0)
			return presets[i].recipe;
	}
	return FP8_NO;
}

/* The dispatcher of Bridge's type ("flex" takes its backend's), or -1. */
static int
dispatcher(const struct bridge_recipe *r)
{
	const struct setting_def *d = &settings_table[SET_MOE_DISPATCHER];
	int			 v;

	if (r->dispatcher == NULL)
		return -1;
	if (strcmp(r->dispatcher, "flex") == 0)
		return r->flex_backend != NULL && settings_choice(d,
		    r->flex_backend) == DISPATCH_HYBRIDEP ? DISPATCH_HYBRIDEP :
		    DISPATCH_DEEPEP;
	v = settings_choice(d, r->dispatcher);
	return v == DISPATCH_ALLTOALL || v == DISPATCH_ALLGATHER ? v : -1;
}

static bool
by_user(const struct settings *set, enum setting_id id)
{
	return set->v[id].origin > ORIGIN_RECIPE;
}

static void
clear(struct job *job, const char *what)
{
	if (job->ncleared < JOB_MAX_CLEARED)
		job->cleared[job->ncleared++] = what;
}

/*
 * The recipe settings the user's choices make wrong, cleared (and listed
 * for "plan"): a split given replaces the recipe's embedding/loss
 * accounting and the reverse (Megatron-Core refuses both at once); a new
 * PP or VPP replaces the recipe's first/last stage counts; a new PP, VPP
 * or split replaces the recipe's explicit layout; TP 1 turns the recipe's
 * sequence parallel off.
 */
void
job_recipe_conflicts(struct job *job)
{
	struct settings			*set = &job->set;
	const struct bridge_recipe	*r = job->recipe;
	bool				 split = by_user(set,
	    SET_FIRST_STAGE_LAYERS) || by_user(set, SET_LAST_STAGE_LAYERS);
	bool				 account = by_user(set,
	    SET_ACCOUNT_EMBEDDING) || by_user(set, SET_ACCOUNT_LOSS);
	enum setting_id			 id;

	if (r == NULL)
		return;
	if (split && !account) {
		for (id = SET_ACCOUNT_EMBEDDING; id <= SET_ACCOUNT_LOSS; id++)
			if (set->v[id].origin == ORIGIN_RECIPE &&
			    set->v[id].b) {
				set->v[id].b = false;
				clear(job, id == SET_ACCOUNT_EMBEDDING ?
				    "account_for_embedding_in_pipeline_split" :
				    "account_for_loss_in_pipeline_split");
			}
	} else if ((account || by_user(set, SET_PP) || by_user(set, SET_VPP)) &&
	    !split) {
		/* The recipe's split was made for its own PP and VPP. */
		for (id = SET_FIRST_STAGE_LAYERS; id <= SET_LAST_STAGE_LAYERS;
		    id++)
			if (set->v[id].origin == ORIGIN_RECIPE) {
				set->v[id].origin = ORIGIN_UNSET;
				clear(job, id == SET_FIRST_STAGE_LAYERS ?
				    "num_layers_in_first_pipeline_stage" :
				    "num_layers_in_last_pipeline_stage");
			}
	}
	/* Megatron-Core refuses SP without TP (model_parallel_config.py:
	 * 504); glm45_air's own recipe has both (TP 1, SP on). */
	if ((set->v[SET_TP].origin == ORIGIN_UNSET || set->v[SET_TP].i == 1) &&
	    set->v[SET_SP].origin == ORIGIN_RECIPE && set->v[SET_SP].b) {
		set->v[SET_SP].b = false;
		clear(job, "sequence_parallel");
	}
	if (r->pipeline_layout) {
		if (split || account || by_user(set, SET_PP) ||
		    by_user(set, SET_VPP))
			clear(job, "pipeline_model_parallel_layout");
		else
			job->recipe_layout = true;
	}
}

void
job_recipe_layer(const struct bridge_recipe *r, struct settings *set)
{
	enum precision	 p = params_dtype(r);

	set_int(set, SET_TP, r->sizes.tp);
	set_int(set, SET_PP, r->sizes.pp);
	set_int(set, SET_CP, r->sizes.cp);
	set_int(set, SET_EP, r->sizes.ep);
	set_int(set, SET_ETP, r->sizes.etp);
	set_int(set, SET_VPP, r->sizes.vpp);
	set_bool(set, SET_SP, r->sp);
	/* run_recipe.py sets the model's from the dataset's. */
	set_int(set, SET_SEQ_LENGTH, r->dataset_seq_length != 0 ?
	    r->dataset_seq_length : r->model_seq_length);
	set_int(set, SET_GLOBAL_BATCH_SIZE, r->global_batch);
	set_int(set, SET_MICRO_BATCH_SIZE, r->micro_batch);
	set_int(set, SET_FIRST_STAGE_LAYERS, r->first_stage_layers);
	set_int(set, SET_LAST_STAGE_LAYERS, r->last_stage_layers);
	set_bool(set, SET_ACCOUNT_EMBEDDING, r->account_for_embedding);
	set_bool(set, SET_ACCOUNT_LOSS, r->account_for_loss);
	/* A recipe without recompute leaves the setting unset: plan then
	 * estimates it as selective, SET_RECOMPUTE's default (the fused
	 * attention keeps no s x s scores either way: memory.c). */
	set_word(set, SET_RECOMPUTE, r->recompute_granularity);
	if (r->num_moe_experts != 0 || r->sizes.ep > 1)
		set_choice(set, SET_MOE_DISPATCHER, dispatcher(r));
	if (p != PRECISION_DEFAULT)
		set_choice(set, SET_PARAMS_DTYPE, p);
	if (fp8_recipe(r) != FP8_NO)
		set_choice(set, SET_FP8, fp8_recipe(r));
	if (r->grad_reduce_in_fp32 == TRI_ON)
		set_choice(set, SET_GRADS_DTYPE, PRECISION_FP32);
	else if (r->grad_reduce_in_fp32 == TRI_OFF && p == PRECISION_BF16)
		set_choice(set, SET_GRADS_DTYPE, PRECISION_BF16);
	if (r->precision_aware_optimizer == TRI_ON)
		set_word(set, SET_OPTIMIZER_DTYPE, r->exp_avg_dtype);
	else if (r->precision_aware_optimizer == TRI_OFF)
		set_choice(set, SET_OPTIMIZER_DTYPE, PRECISION_FP32);
	set_bool(set, SET_DISTRIBUTED_OPTIMIZER, r->distributed_optimizer);
	if (r->comm_overlap) {
		set_bool(set, SET_TP_COMM_OVERLAP, has_field(
		    r->comm_overlap_fields, "tp_comm_overlap=true") ? TRI_ON :
		    TRI_OFF);
		if (r->num_moe_experts != 0 || r->sizes.ep > 1)
			set_bool(set, SET_MOE_A2A_OVERLAP, has_field(
			    r->comm_overlap_fields,
			    "overlap_moe_expert_parallel_comm=true") ?
			    TRI_ON : TRI_OFF);
	}
}
