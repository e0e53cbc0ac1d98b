/*
 * script-bridge.c: Megatron-Bridge run_recipe.py overrides for a job, in
 * the forms its target version accepts (bridge.h).  Every parallel size
 * is written out; other recipe values are overridden only where the user
 * changed them (a setting whose origin is above "recipe"), and recipe
 * settings that would then conflict are cleared.
 */
#include <stdio.h>
#include <string.h>

#include "script.h"

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

/* "model." or, for Bridge main's nested recipes, "model.transformer.". */
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

	script_add(a, "%stensor_model_parallel_size=%lld", m, (long long)l->tp);
	script_add(a, "%spipeline_model_parallel_size=%lld", m,
	    (long long)l->pp);
	if (l->vpp > 1)
		script_add(a, "%svirtual_pipeline_model_parallel_size=%lld", m,
		    (long long)l->vpp);
	else
		script_add(a, "%svirtual_pipeline_model_parallel_size=null", m);
	script_add(a, "%scontext_parallel_size=%lld", m, (long long)l->cp);
	script_add(a, "%ssequence_parallel=%s", m, tf(l->sp));
	if (fig->sizing.moe) {
		script_add(a, "%sexpert_model_parallel_size=%lld", m,
		    (long long)l->ep);
		script_add(a, "%sexpert_tensor_parallel_size=%lld", m,
		    (long long)l->etp);
	}
}

json_t *
script_bridge_overrides(const struct job *job, const struct job_figures *fig)
{
	const struct setting_value	*user = &job->set.v[SET_OVERRIDES];
	const struct launchenv		*env = &fig->env;
	const char			*m = model_prefix(job);
	json_t				*a = json_array();
	size_t				 i;
	int				 k;

	parallel(a, job, fig);
	if (job->in.seq_length != 0 && given(job, SET_SEQ_LENGTH)) {
		script_add(a, "%sseq_length=%lld", m,
		    (long long)job->in.seq_length);
		script_add(a, "%s=%lld", job->bridge->dataset_seq_key,
		    (long long)job->in.seq_length);
	}
	if (given(job, SET_GLOBAL_BATCH_SIZE))
		script_add(a, "train.global_batch_size=%lld",
		    (long long)job->in.global_batch);
	if (given(job, SET_MICRO_BATCH_SIZE))
		script_add(a, "train.micro_batch_size=%lld",
		    (long long)job->in.micro_batch);
	for (k = 0; k < env->nflags; k++)
		script_add(a, "%s=%s", env->flags[k].key, tf(env->flags[k].on));
	for (i = 0; i < user->nlist; i++)
		script_add(a, "%s", user->list[i]);
	return a;
}
