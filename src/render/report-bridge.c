/*
 * report-bridge.c: what plan says of the Megatron-Bridge target: the
 * version and its revision, the recipe, the recipe values the job
 * replaces and the ones its choices clear.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "settings.h"

/* A setting's value as text, for "replaced" lists. */
static void
value_text(const struct setting_def *d, const struct setting_value *v,
    char *buf, size_t len)
{
	switch (d->type) {
	case ST_INT:
	case ST_COUNT:
		snprintf(buf, len, "%" PRId64, v->i);
		break;
	case ST_GIB:
	case ST_REAL:
		snprintf(buf, len, "%g", v->d);
		break;
	case ST_BOOL:
		snprintf(buf, len, "%s", v->b ? "true" : "false");
		break;
	case ST_STRING:
	case ST_CHOICE:
		snprintf(buf, len, "%s", v->s != NULL ? v->s : "");
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
}

/* Calls FN for each recipe value the job's own settings replace. */
static void
each_replaced(const struct plan *p, void (*fn)(void *, const char *,
    const char *, const char *), void *arg)
{
	const struct setting_def	*d;
	const struct setting_value	*r, *v;
	char				 rt[64], vt[64];
	size_t				 i;

	for (i = 0; i < SET__COUNT; i++) {
		d = &settings_table[i];
		r = &p->recipe_set->v[i];
		v = &p->set->v[i];
		if (r->origin != ORIGIN_RECIPE || v->origin <= ORIGIN_RECIPE)
			continue;
		value_text(d, r, rt, sizeof rt);
		value_text(d, v, vt, sizeof vt);
		if (strcmp(rt, vt) != 0)
			fn(arg, d->key, rt, vt);
	}
}

static void
add_json(void *arg, const char *key, const char *recipe, const char *value)
{
	json_array_append_new(arg, json_pack("{s:s,s:s,s:s}", "key", key,
	    "recipe", recipe, "value", value));
}

json_t *
report_bridge_json(const struct plan *p)
{
	json_t	*o, *replaced, *cleared;
	int	 i;

	o = json_pack("{s:s,s:s}", "version", p->bridge->name, "revision",
	    p->bridge->revision);
	json_object_set_new(o, "recipe", p->recipe != NULL ?
	    json_string(p->recipe->name) : json_null());
	json_object_set_new(o, "recipe_from_model",
	    json_boolean(p->recipe_from_model));
	if (p->recipe_missing != NULL)
		json_object_set_new(o, "recipe_missing",
		    json_string(p->recipe_missing));
	json_object_set_new(o, "benchmark", json_boolean(p->recipe != NULL &&
	    p->recipe->benchmark));
	json_object_set_new(o, "values_of_library_twin", json_boolean(
	    p->recipe != NULL && bridge_recipe_twin(p->recipe)));
	replaced = json_array();
	cleared = json_array();
	if (p->recipe != NULL)
		each_replaced(p, add_json, replaced);
	for (i = 0; i < p->ncleared; i++)
		json_array_append_new(cleared, json_string(p->cleared[i]));
	json_object_set_new(o, "replaced", replaced);
	json_object_set_new(o, "cleared", cleared);
	return o;
}

static void
add_text(void *arg, const char *key, const char *recipe, const char *value)
{
	lines_addf(arg, "%-13s %s %s -> %s\n", "", key, recipe, value);
}

void
report_bridge_text(struct lines *out, const struct plan *p)
{
	int	 i;

	if (p->recipe == NULL) {
		if (p->recipe_missing != NULL)
			lines_addf(out, "%-13s none: %s; give --recipe NAME\n",
			    "recipe", p->recipe_missing);
		return;
	}
	lines_addf(out, "%-13s %s%s of Megatron-Bridge %s (%.8s)\n", "recipe",
	    p->recipe->name, p->recipe_from_model ? " (from the model)" : "",
	    p->bridge->name, p->bridge->revision);
	if (p->recipe->partial)
		lines_addf(out, "%-13s its values were read from its source, "
		    "not by running it: some may be missing\n", "");
	/* recipe-rules.tsv: recipe_metadata.py, recipe_runner.py. */
	if (bridge_recipe_twin(p->recipe))
		lines_addf(out, "%-13s run_recipe.py runs the benchmark recipe "
		    "of this name (both recipe packages have it); the values "
		    "here are the library recipe's\n", "");
	else if (p->recipe->benchmark)
		lines_addf(out, "%-13s a benchmark recipe: its own data, no "
		    "checkpoints\n", "");
	/* Where a requeued attempt resumes from (recipe-rules.tsv). */
	if (p->requeue && p->recipe->checkpoints && p->checkpoint_dir == NULL)
		lines_addf(out, "%-13s checkpoints: the recipe's own, saved to "
		    "and resumed from %s in %s; in a container, kept only "
		    "where mounted\n", "", p->bridge->checkpoint_dir,
		    p->bridge->checkpoint_base);
	each_replaced(p, add_text, out);
	for (i = 0; i < p->ncleared; i++)
		lines_addf(out, "%-13s %s cleared (it would contradict the "
		    "settings above)\n", "", p->cleared[i]);
}
