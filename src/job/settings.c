/*
 * settings.c: layers of settings and their merge: a layer's values with
 * their origins (defaults, profile, job file, command line, recipe,
 * smoke), the merge of one layer over another, and a job file's, a
 * profile's or a preset's JSON object read into a layer key by key, with
 * the errors for unknown or misplaced keys.  settings-parse.c parses each
 * value by its row of the settings table; see settings.h.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsondoc.h"
#include "settings.h"
#include "settings-value.h"
#include "suggest.h"
#include "xmalloc.h"

void
settings_init(struct settings *set)
{
	memset(set, 0, sizeof *set);
}

void
setting_value_clear(struct setting_value *v)
{
	size_t	 i;

	free(v->s);
	for (i = 0; i < v->nlist; i++)
		free(v->list[i]);
	free(v->list);
	memset(v, 0, sizeof *v);
}

void
settings_release(struct settings *set)
{
	size_t	 i;

	for (i = 0; i < SET__COUNT; i++)
		setting_value_clear(&set->v[i]);
}

void
setting_value_append(struct setting_value *v, char *s)
{
	v->list = xreallocarray(v->list, v->nlist + 1, sizeof *v->list);
	v->list[v->nlist++] = s;
}

/* Add or replace "NAME=value" in an ST_ENV list; takes s. */
void
setting_value_env_put(struct setting_value *v, char *s)
{
	size_t	 i, n = strcspn(s, "=");

	for (i = 0; i < v->nlist; i++)
		if (strncmp(v->list[i], s, n) == 0 && v->list[i][n] == '=') {
			free(v->list[i]);
			v->list[i] = s;
			return;
		}
	setting_value_append(v, s);
}

void
settings_merge(struct settings *dst, const struct settings *src)
{
	const struct setting_value	*sv;
	struct setting_value		*dv;
	size_t				 i, j;
	bool				 world = false;

	for (i = 0; i < SET__COUNT; i++)
		if ((settings_table[i].flags & SF_WORLD) &&
		    src->v[i].origin != ORIGIN_UNSET)
			world = true;
	for (i = 0; i < SET__COUNT; i++) {
		sv = &src->v[i];
		dv = &dst->v[i];
		if (world && (settings_table[i].flags & SF_WORLD))
			setting_value_clear(dv);
		if (sv->origin == ORIGIN_UNSET)
			continue;
		if (settings_table[i].type == ST_ENV) {
			for (j = 0; j < sv->nlist; j++)
				setting_value_env_put(dv, xstrdup(sv->list[j]));
			dv->origin = sv->origin;
			continue;
		}
		setting_value_clear(dv);
		*dv = *sv;
		dv->s = sv->s != NULL ? xstrdup(sv->s) : NULL;
		dv->list = NULL;
		dv->nlist = 0;
		for (j = 0; j < sv->nlist; j++)
			setting_value_append(dv, xstrdup(sv->list[j]));
	}
}

void
settings_unset(struct settings *set, enum setting_id id)
{
	setting_value_clear(&set->v[id]);
}

const char *
settings_origin_name(enum origin o)
{
	switch (o) {
	case ORIGIN_UNSET:
		return "default";
	case ORIGIN_RECIPE:
		return "recipe";
	case ORIGIN_CONFIG:
		return "cluster profile";
	case ORIGIN_JOB:
		return "job file";
	case ORIGIN_CLI:
		return "command line";
	case ORIGIN_PRESET:
		return "model preset";
	case ORIGIN_SMOKE:
		return "smoke";
	}
	return "?";
}

void
settings_set_choice(struct settings *set, enum setting_id id, int v,
    enum origin origin)
{
	struct setting_value	*sv = &set->v[id];

	setting_value_clear(sv);
	sv->origin = origin;
	sv->choice = v;
	sv->s = xstrdup(settings_word(id, v));
}

/* "did you mean" over the keys allowed where the unknown key was found. */
static const char *
suggest_key(const char *key, int flags)
{
	const char	*names[SET__COUNT + 1];
	size_t		 i, n = 0;

	for (i = 0; i < SET__COUNT; i++)
		if (settings_table[i].flags & flags)
			names[n++] = settings_table[i].key;
	if (flags & SF_JOB)
		names[n++] = "slurm";
	return suggest(key, names, n);
}

static const char *
where_name(int flags)
{
	if (flags & SF_SLURM)
		return "in the \"slurm\" object";
	if (flags & SF_JOB)
		return "in a job file";
	if (flags & SF_CLUSTER)
		return "in a cluster profile";
	return "in a model preset";
}

static struct error *
unknown_key(const struct jsondoc *doc, const char *const *path,
    const char *key, int flags)
{
	const char	*near;
	const struct setting_def *d = NULL;
	size_t		 i;

	for (i = 0; i < SET__COUNT; i++)
		if (strcmp(settings_table[i].key, key) == 0)
			d = &settings_table[i];
	/* A connection key in a job file: say where it belongs instead. */
	if (d != NULL && (d->flags & SF_CONNECT) &&
	    (flags & (SF_JOB | SF_SLURM)))
		return error_hint(jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' is not allowed in a job file: where to connect "
		    "and with which token come only from the command line, the "
		    "environment and the config file", key),
		    "give --%s, or %s in a cluster profile of the config file "
		    "(~/.config/mbsbatch/config.json; see mbsbatch.conf(5))",
		    d->option, d->key);
	if ((near = suggest_key(key, flags)) != NULL)
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "unknown key '%s' (did you mean '%s'?)", key, near);
	/* A key valid elsewhere: say where it belongs. */
	if (d != NULL && (flags & SF_JOB) && (d->flags & SF_SLURM))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' belongs in the \"slurm\" object", key);
	if (d != NULL && (flags & SF_SLURM) && (d->flags & SF_JOB))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' belongs at the top level, not in \"slurm\"",
		    key);
	if (d != NULL)
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' is not allowed %s", key, where_name(flags));
	if (strcmp(key, "slurm") == 0)
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key 'slurm' is not allowed %s", where_name(flags));
	return jsondoc_error(doc, path, EXIT_USAGE, "unknown key '%s'", key);
}


#define PATH_MAX_DEPTH	8

static struct error *
read_object(struct settings *set, const struct jsondoc *doc, json_t *obj,
    const char **path, size_t depth, int flags, enum origin origin)
{
	struct error		*err;
	const struct setting_def *d;
	struct setting_value	 v;
	const char		*key;
	json_t			*j;
	size_t			 i;

	if (!json_is_object(obj))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "'%s' must be an object, not %s", depth > 0 ?
		    path[depth - 1] : "the file", settings_json_type_name(obj));
	json_object_foreach(obj, key, j) {
		path[depth] = key;
		path[depth + 1] = NULL;
		if ((flags & SF_JOB) && strcmp(key, "slurm") == 0) {
			if (depth + 3 >= PATH_MAX_DEPTH)
				continue;
			err = read_object(set, doc, j, path, depth + 1,
			    SF_SLURM, origin);
			if (err != NULL)
				return err;
			path[depth] = key;
			continue;
		}
		for (d = NULL, i = 0; i < SET__COUNT; i++)
			if ((settings_table[i].flags & flags) &&
			    strcmp(settings_table[i].key, key) == 0)
				d = &settings_table[i];
		if (d == NULL)
			return unknown_key(doc, path, key, flags);
		memset(&v, 0, sizeof v);
		err = setting_value_from_json(doc, path, depth + 1, d, j, &v);
		if (err != NULL) {
			setting_value_clear(&v);
			return err;
		}
		if (d->type != ST_ENV)
			setting_value_clear(&set->v[d->id]);
		else {
			size_t	 k;

			for (k = 0; k < v.nlist; k++) {
				setting_value_env_put(&set->v[d->id],
				    v.list[k]);
				v.list[k] = NULL;
			}
			free(v.list);
			v = set->v[d->id];
		}
		v.origin = origin;
		set->v[d->id] = v;
	}
	return NULL;
}

struct error *
settings_from_json(struct settings *set, const struct jsondoc *doc,
    json_t *obj, const char *const *at, int flags, enum origin origin)
{
	const struct setting_def *a, *b;
	const char	*path[PATH_MAX_DEPTH + 2];
	struct error	*err;
	size_t		 depth = 0;

	for (; at != NULL && at[depth] != NULL && depth < PATH_MAX_DEPTH - 3;
	    depth++)
		path[depth] = at[depth];
	path[depth] = NULL;
	err = read_object(set, doc, obj, path, depth, flags, origin);
	if (err != NULL)
		return err;
	if ((a = settings_world_conflict(set)) != NULL) {
		b = settings_world_conflict_other(set, a);
		path[depth] = b->key;
		path[depth + 1] = NULL;
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "'%s' and '%s' cannot be used together: each sets the "
		    "world size", a->key, b->key);
	}
	return NULL;
}

const struct setting_def *
settings_world_conflict(const struct settings *set)
{
	size_t	 i, n = 0;
	const struct setting_def *first = NULL;

	for (i = 0; i < SET__COUNT; i++)
		if ((settings_table[i].flags & SF_WORLD) &&
		    set->v[i].origin != ORIGIN_UNSET) {
			if (first == NULL)
				first = &settings_table[i];
			n++;
		}
	return n > 1 ? first : NULL;
}

const struct setting_def *
settings_world_conflict_other(const struct settings *set,
    const struct setting_def *a)
{
	size_t	 i;

	for (i = 0; i < SET__COUNT; i++)
		if ((settings_table[i].flags & SF_WORLD) &&
		    set->v[i].origin != ORIGIN_UNSET && &settings_table[i] != a)
			return &settings_table[i];
	return a;
}
