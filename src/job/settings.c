/*
 * settings.c: layers of settings and their merge: a layer's values with
 * their origins (defaults, profile, job file, command line, recipe,
 * smoke), the strings a value owns, the merge of one layer over another,
 * and the settings that each set the world size.  settings-parse.c fills
 * a layer from an option's text or a JSON object; see settings.h.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"
#include "settings-value.h"
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

/* Add or replace "NAME=value" (or "NAME", ST_OPTIONS) in an ST_ENV or
 * ST_OPTIONS list; takes s. */
void
setting_value_env_put(struct setting_value *v, char *s)
{
	size_t	 i, n = strcspn(s, "=");

	for (i = 0; i < v->nlist; i++)
		if (strncmp(v->list[i], s, n) == 0 && (v->list[i][n] == '=' ||
		    v->list[i][n] == '\0')) {
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
		if (settings_table[i].type == ST_ENV ||
		    settings_table[i].type == ST_OPTIONS) {
			for (j = 0; j < sv->nlist; j++)
				setting_value_env_put(dv, xstrdup(sv->list[j]));
			dv->origin = sv->origin;
			continue;
		}
		if (settings_table[i].flags & SF_APPEND) {
			for (j = 0; j < sv->nlist; j++)
				setting_value_append(dv, xstrdup(sv->list[j]));
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
