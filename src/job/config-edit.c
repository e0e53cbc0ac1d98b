/* config-edit.c: set keys of a cluster profile in place; see
 * config-edit.h. */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "config.h"
#include "config-edit.h"
#include "error.h"
#include "jsondoc.h"
#include "xmalloc.h"

/* mbsbatch.conf(5)'s own layout: two spaces, keys in their order; 15
 * digits write 79.6 as 79.6 (17 would write 79.599999999999994), 17
 * any double exactly. */
#define EDIT_FLAGS(digits) \
	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(digits))

/*
 * ROOT as text that reads back as ROOT (a new string, a line feed at the
 * end), or NULL when jansson cannot write it so.
 */
static char *
dump_exact(const json_t *root)
{
	static const int	 digits[] = { 15, 17 };
	json_t			*back;
	char			*text, *line;
	size_t			 i;
	bool			 same;

	for (i = 0; i < sizeof digits / sizeof digits[0]; i++) {
		if ((text = json_dumps(root, EDIT_FLAGS(digits[i]))) == NULL)
			return NULL;
		back = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
		same = back != NULL && json_equal(back, root);
		json_decref(back);
		if (same) {
			line = xasprintf("%s\n", text);
			free(text);
			return line;
		}
		free(text);
	}
	return NULL;
}

/* The new text loads as a config file does (over nothing). */
static struct error *
check_loads(const char *path, const char *text)
{
	struct jsondoc	 doc;
	struct config	 cfg;
	struct error	*err;
	char		*label;

	label = xasprintf("config file '%s' as it would be written", path);
	err = jsondoc_load_string(&doc, text, label);
	free(label);
	if (err != NULL)
		return err;
	config_init(&cfg);
	err = config_load_doc(&cfg, &doc, NULL);
	config_release(&cfg);
	jsondoc_release(&doc);
	return err;
}

/* The profile NAME of DOC's clusters, or an error naming what is not
 * there. */
static struct error *
find_profile(const struct jsondoc *doc, const char *name, bool create,
    json_t **out)
{
	const char	*path[] = { "clusters", NULL, NULL };
	json_t		*clusters;

	*out = NULL;
	if (!json_is_object(doc->root))
		return jsondoc_error(doc, NULL, EXIT_USAGE,
		    "must be a JSON object");
	clusters = json_object_get(doc->root, "clusters");
	if (create && clusters == NULL) {
		clusters = json_object();
		json_object_set_new(doc->root, "clusters", clusters);
	}
	if (create && json_is_object(clusters) &&
	    json_object_get(clusters, name) == NULL)
		json_object_set_new(clusters, name, json_object());
	if (clusters == NULL || (*out = json_object_get(clusters, name)) ==
	    NULL)
		return error_new(EXIT_USAGE, "%s: has no cluster '%s' (the "
		    "profile to calibrate must be in the user's config "
		    "file: see mbsbatch.conf(5))", doc->label, name);
	if (!json_is_object(*out)) {
		path[1] = name;
		return jsondoc_error(doc, path, EXIT_USAGE, "cluster '%s' is "
		    "not an object", name);
	}
	return NULL;
}

/* Make the directory of PATH, and its parents, as mkdir -p. */
static struct error *
make_parent(const char *path)
{
	char	*dir = xstrdup(path), *p;

	if ((p = strrchr(dir, '/')) == NULL || p == dir) {
		free(dir);
		return NULL;
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;

			*p = '\0';
			if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
				struct error *err = error_new(EXIT_FAILURE_OP,
				    "cannot make '%s': %s", dir,
				    strerror(errno));
				free(dir);
				return err;
			}
			*p = c;
			if (c == '\0')
				break;
		}
	}
	free(dir);
	return NULL;
}

static struct error *
edit(const char *path, const char *name, const json_t *keys, bool dry_run,
    bool create, struct config_edit *e)
{
	struct jsondoc	 doc;
	struct stat	 st;
	struct error	*err;
	const char	*key;
	json_t		*profile, *v;
	char		*before = NULL, *label;
	bool		 streamed, fresh = false;

	memset(e, 0, sizeof *e);
	if (create && stat(path, &st) == -1 && errno == ENOENT) {
		/* No file yet: one holding this profile alone. */
		fresh = true;
		label = xasprintf("config file '%s'", path);
		err = jsondoc_load_string(&doc, "{}", label);
		free(label);
		if (err == NULL)
			doc.text[0] = '\0';
	} else
		err = jsondoc_load_file(&doc, path, "config file");
	if (err != NULL)
		return err;
	if ((err = find_profile(&doc, name, create, &profile)) != NULL)
		goto out;
	if ((before = dump_exact(doc.root)) == NULL) {
		err = error_new(EXIT_USAGE, "%s: cannot be written back as it "
		    "reads (a number jansson would change): set the keys by "
		    "hand", doc.label);
		goto out;
	}
	e->same_format = strcmp(before, doc.text) == 0;
	json_object_foreach((json_t *)keys, key, v)
		json_object_set(profile, key, v);
	if ((e->text = dump_exact(doc.root)) == NULL) {
		err = error_new(EXIT_FAILURE_OP, "%s: cannot write the new "
		    "values", doc.label);
		goto out;
	}
	if ((err = check_loads(path, e->text)) != NULL || dry_run)
		goto out;
	if (fresh) {
		if ((err = make_parent(path)) == NULL)
			err = atomicfile_write(path, e->text,
			    strlen(e->text), false, 0644, &streamed);
		goto out;
	}
	if (stat(path, &st) == -1) {
		err = error_new(EXIT_FAILURE_OP, "%s: %s", doc.label,
		    strerror(errno));
		goto out;
	}
	err = atomicfile_write(path, e->text, strlen(e->text), true,
	    st.st_mode & 07777, &streamed);
out:
	free(before);
	jsondoc_release(&doc);
	if (err != NULL)
		config_edit_release(e);
	return err;
}

struct error *
config_edit_profile(const char *path, const char *name, const json_t *keys,
    bool dry_run, struct config_edit *e)
{
	return edit(path, name, keys, dry_run, false, e);
}

struct error *
config_edit_profile_new(const char *path, const char *name,
    const json_t *keys, bool dry_run, struct config_edit *e)
{
	return edit(path, name, keys, dry_run, true, e);
}

struct error *
config_profile_json(const struct config *cfg, const char *name,
    json_t **out)
{
	const struct config_cluster	*c = NULL;
	struct jsondoc			 doc;
	struct error			*err;
	json_t				*clusters, *p;
	char				*label;
	size_t				 i;

	*out = NULL;
	for (i = 0; i < cfg->nclusters; i++)
		if (strcmp(cfg->clusters[i].name, name) == 0)
			c = &cfg->clusters[i];
	for (i = 0; c != NULL && i < cfg->nfiles; i++) {
		label = xasprintf("config file '%s'", cfg->files[i]);
		if (strcmp(label, c->file) != 0) {
			free(label);
			continue;
		}
		free(label);
		if ((err = jsondoc_load_file(&doc, cfg->files[i],
		    "config file")) != NULL)
			return err;
		clusters = json_object_get(doc.root, "clusters");
		if ((p = json_object_get(clusters, name)) != NULL)
			*out = json_deep_copy(p);
		jsondoc_release(&doc);
		break;
	}
	if (*out == NULL)
		*out = json_object();
	return NULL;
}

void
config_edit_release(struct config_edit *e)
{
	free(e->text);
	e->text = NULL;
}
