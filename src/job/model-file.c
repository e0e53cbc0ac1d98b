/*
 * model-file.c: model presets: the built-in table (model-builtin.c), user
 * preset files (JSON, the keys of settings.h marked SF_PRESET), and
 * architecture overrides from the command line or a job file; see
 * model-file.h.
 */
#include <sys/types.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsondoc.h"
#include "model-file.h"
#include "settings.h"
#include "suggest.h"
#include "xmalloc.h"

const struct model *
model_builtin_find(const char *name)
{
	const struct model	*m;

	for (m = model_builtin; m->name != NULL; m++)
		if (strcmp(m->name, name) == 0)
			return m;
	return NULL;
}

void
model_apply(struct model *m, const struct settings *set)
{
	const struct setting_def	*d;
	char				*field;
	size_t				 i;

	for (i = 0; i < SET__COUNT; i++) {
		d = &settings_table[i];
		if (!(d->flags & SF_MODEL) || set->v[i].origin == ORIGIN_UNSET)
			continue;
		field = (char *)m + d->model_off;
		switch (d->type) {
		case ST_BOOL:
			*(bool *)field = set->v[i].b;
			break;
		case ST_REAL:
		case ST_GIB:
			*(double *)(void *)field = set->v[i].d;
			break;
		case ST_CHOICE:
			*(int *)(void *)field = set->v[i].choice;
			break;
		case ST_STRING:
			/* Borrowed: SET outlives the model (job.h). */
			*(const char **)(void *)field = set->v[i].s;
			break;
		default:
			*(int64_t *)(void *)field = set->v[i].i;
			break;
		}
	}
	if (set->v[SET_NUM_EXPERTS].origin != ORIGIN_UNSET)
		m->kind = set->v[SET_NUM_EXPERTS].i == 0 ? MODEL_KIND_DENSE :
		    MODEL_KIND_MOE;
}

bool
model_is_path(const char *name)
{
	size_t	 n = strlen(name);

	return strchr(name, '/') != NULL ||
	    (n > 5 && strcmp(name + n - 5, ".json") == 0);
}

void
model_file_release(struct model_file *mf)
{
	if (mf->backing != NULL) {
		settings_release(mf->backing);
		free(mf->backing);
	}
	free(mf->name);
	free(mf->path);
	memset(mf, 0, sizeof *mf);
}

struct error *
model_file_load(const char *path, struct model_file *mf)
{
	struct jsondoc	 doc;
	struct error	*err;
	const char	*base;
	char		 reason[160];
	size_t		 n;

	memset(mf, 0, sizeof *mf);
	if ((err = jsondoc_load_file(&doc, path, "model preset")) != NULL)
		return err;
	if (!json_is_object(doc.root)) {
		err = jsondoc_error(&doc, NULL, EXIT_USAGE,
		    "must be a JSON object of architecture keys");
		jsondoc_release(&doc);
		return err;
	}
	mf->backing = xcalloc(1, sizeof *mf->backing);
	settings_init(mf->backing);
	err = settings_from_json(mf->backing, &doc, doc.root, NULL, SF_PRESET,
	    ORIGIN_PRESET);
	if (err != NULL) {
		jsondoc_release(&doc);
		model_file_release(mf);
		return err;
	}
	base = strrchr(path, '/');
	base = base != NULL ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		n -= 5;
	mf->name = xstrndup(base, n);
	mf->path = xstrdup(path);
	mf->model.name = mf->name;
	mf->model.description = mf->backing->v[SET_DESCRIPTION].s;
	mf->model.source = mf->backing->v[SET_SOURCE].s != NULL ?
	    mf->backing->v[SET_SOURCE].s : mf->path;
	model_apply(&mf->model, mf->backing);
	model_hybrid_defaults(&mf->model);
	if (model_check(&mf->model, reason, sizeof reason) == -1) {
		err = error_new(EXIT_USAGE, "%s: %s", doc.label, reason);
		jsondoc_release(&doc);
		model_file_release(mf);
		return err;
	}
	jsondoc_release(&doc);
	return NULL;
}

/* Preset names: lowercase letters, digits, '.', '-', '_'. */
static bool
name_ok(const char *name)
{
	if (*name == '\0' || *name == '.')
		return false;
	for (; *name != '\0'; name++)
		if (!((*name >= 'a' && *name <= 'z') ||
		    (*name >= 'A' && *name <= 'Z') ||
		    (*name >= '0' && *name <= '9') || *name == '.' ||
		    *name == '-' || *name == '_'))
			return false;
	return true;
}

struct error *
model_resolve(const char *name, const char *dir, struct model_file *mf)
{
	const struct model	*m;
	struct model_file	*all;
	struct error		*err;
	const char		**names, *near;
	char			*path;
	size_t			 i, n;
	FILE			*f;

	memset(mf, 0, sizeof *mf);
	if (model_is_path(name))
		return model_file_load(name, mf);
	if (!name_ok(name))
		return error_new(EXIT_USAGE, "model '%s': not a preset name "
		    "(letters, digits, '.', '-' and '_')", name);
	if (dir != NULL) {
		path = xasprintf("%s/%s.json", dir, name);
		if ((f = fopen(path, "r")) != NULL) {
			fclose(f);
			err = model_file_load(path, mf);
			free(path);
			return err;
		}
		free(path);
	}
	if ((m = model_builtin_find(name)) != NULL) {
		mf->model = *m;
		return NULL;
	}

	/* Unknown: suggest among every preset we know. */
	if ((err = model_list(dir, &all, &n)) != NULL) {
		error_free(err);
		all = NULL;
		n = 0;
	}
	names = xreallocarray(NULL, n + 1, sizeof *names);
	for (i = 0; i < n; i++)
		names[i] = all[i].model.name;
	near = suggest(name, names, n);
	err = error_new(EXIT_USAGE, "model '%s': no such preset%s%s%s", name,
	    near != NULL ? " (did you mean '" : "", near != NULL ? near : "",
	    near != NULL ? "'?)" : "");
	error_hint(err, "'mbsbatch plan --list-models' lists the presets");
	free(names);
	model_list_free(all, n);
	return err;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void
model_list_free(struct model_file *list, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		model_file_release(&list[i]);
	free(list);
}

struct error *
model_list(const char *dir, struct model_file **out, size_t *nout)
{
	struct model_file	*list = NULL, mf;
	const struct model	*m;
	struct dirent		*de;
	struct error		*err;
	char			**files = NULL, *path;
	size_t			 n = 0, nfiles = 0, i, j, len;
	DIR			*d;

	*out = NULL;
	*nout = 0;
	for (m = model_builtin; m->name != NULL; m++) {
		list = xreallocarray(list, n + 1, sizeof *list);
		memset(&list[n], 0, sizeof list[n]);
		list[n++].model = *m;
	}
	if (dir != NULL && (d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			len = strlen(de->d_name);
			if (len <= 5 || de->d_name[0] == '.' ||
			    strcmp(de->d_name + len - 5, ".json") != 0)
				continue;
			files = xreallocarray(files, nfiles + 1,
			    sizeof *files);
			files[nfiles++] = xstrdup(de->d_name);
		}
		closedir(d);
	}
	if (nfiles > 0)		/* qsort(NULL, 0) is undefined */
		qsort(files, nfiles, sizeof *files, cmp_names);
	for (i = 0; i < nfiles; i++) {
		path = xasprintf("%s/%s", dir, files[i]);
		err = model_file_load(path, &mf);
		free(path);
		if (err != NULL) {
			for (; i < nfiles; i++)
				free(files[i]);
			free(files);
			model_list_free(list, n);
			return err;
		}
		for (j = 0; j < n; j++)
			if (strcmp(list[j].model.name, mf.model.name) == 0)
				break;
		if (j == n) {
			list = xreallocarray(list, n + 1, sizeof *list);
			n++;
		} else
			model_file_release(&list[j]);
		list[j] = mf;
		free(files[i]);
	}
	free(files);
	*out = list;
	*nout = n;
	return NULL;
}
