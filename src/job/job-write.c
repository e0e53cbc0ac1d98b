/*
 * job-write.c: a job as a job file (docs/SPEC.md section 4): what the
 * user gave (a job file, the options) with the layout a command chose
 * and the recipe that runs, so that plan, gen and submit of the file
 * size and write the very job that command showed (recommend -o).
 */
#include <string.h>

#include "job.h"
#include "xmalloc.h"

/* The job-file key of a setting. */
#define KEY(id)	settings_table[id].key

/* One value of a job file, as settings_from_json() reads it back. */
static json_t *
value_json(const struct setting_def *d, const struct setting_value *v)
{
	json_t	*o;
	size_t	 i;
	char	*eq;

	switch (d->type) {
	case ST_INT:
	case ST_COUNT:
		return json_integer(v->i);
	case ST_GIB:
		return json_real(v->d);
	case ST_REAL:
		return v->s != NULL ? json_string(v->s) : json_real(v->d);
	case ST_BOOL:
		return json_boolean(v->b);
	case ST_STRING:
	case ST_CHOICE:
		return json_string(v->s);
	case ST_LIST:
		o = json_array();
		for (i = 0; i < v->nlist; i++)
			json_array_append_new(o, json_string(v->list[i]));
		return o;
	case ST_ENV:
	case ST_OPTIONS:
		/* "NAME=value", or NAME alone: a flag (ST_OPTIONS). */
		o = json_object();
		for (i = 0; i < v->nlist; i++) {
			char	*name = xstrdup(v->list[i]);

			if ((eq = strchr(name, '=')) != NULL) {
				*eq = '\0';
				json_object_set_new(o, name,
				    json_string(eq + 1));
			} else
				json_object_set_new(o, name, json_true());
			free(name);
		}
		return o;
	}
	return json_null();
}

json_t *
job_file_json(const struct job *job, const struct sizing_input *in,
    int64_t gpus)
{
	static const enum setting_id layout[] = { SET_TP, SET_PP, SET_CP,
	    SET_EP, SET_ETP, SET_VPP };
	const struct layout	*l = &in->layout;
	const int64_t		 sizes[] = { l->tp, l->pp, l->cp, l->ep,
	    l->etp, l->vpp };
	const struct setting_def *d;
	const struct setting_value *v;
	json_t			*o = json_object(), *slurm = json_object();
	size_t			 i;

	for (i = 0; i < SET__COUNT; i++) {
		d = &settings_table[i];
		v = &job->set.v[i];
		if ((v->origin != ORIGIN_JOB && v->origin != ORIGIN_CLI) ||
		    (d->flags & SF_WORLD) || !(d->flags & (SF_JOB | SF_SLURM)))
			continue;
		json_object_set_new((d->flags & SF_JOB) ? o : slurm, d->key,
		    value_json(d, v));
	}
	if (job->cluster != NULL)
		json_object_set_new(o, KEY(SET_CLUSTER), json_string(job->cluster));
	if (job->recipe != NULL)
		json_object_set_new(o, KEY(SET_RECIPE), json_string(job->recipe->name));
	/* The layout, every size: over a recipe's own. */
	for (i = 0; i < sizeof layout / sizeof layout[0]; i++)
		json_object_set_new(o, settings_table[layout[i]].key,
		    json_integer(sizes[i]));
	json_object_set_new(o, KEY(SET_SP), json_boolean(l->sp));
	json_object_set_new(o, KEY(SET_GPUS), json_integer(gpus));
	/* The split, and no recipe's counting of the embedding or the
	 * loss that this split was not made with. */
	json_object_del(o, KEY(SET_FIRST_STAGE_LAYERS));
	json_object_del(o, KEY(SET_LAST_STAGE_LAYERS));
	if (in->first_stage_layers != 0)
		json_object_set_new(o, KEY(SET_FIRST_STAGE_LAYERS),
		    json_integer(in->first_stage_layers));
	if (in->last_stage_layers != 0)
		json_object_set_new(o, KEY(SET_LAST_STAGE_LAYERS),
		    json_integer(in->last_stage_layers));
	json_object_set_new(o, KEY(SET_ACCOUNT_EMBEDDING),
	    json_boolean(in->account_embedding));
	json_object_set_new(o, KEY(SET_ACCOUNT_LOSS),
	    json_boolean(in->account_loss));
	if (in->fsdp != FSDP_OFF) {
		json_object_set_new(o, KEY(SET_FSDP), json_true());
		json_object_set_new(o, KEY(SET_FSDP_SHARDING),
		    json_string(settings_word(SET_FSDP_SHARDING, in->fsdp)));
	}
	if (json_object_size(slurm) > 0)
		json_object_set_new(o, "slurm", slurm);
	else
		json_decref(slurm);
	return o;
}
