/* config.c: the configuration file; see config.h and mbsbatch.conf(5). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "jsondoc.h"
#include "suggest.h"
#include "xmalloc.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

static const char *const config_keys[] = {
	"default_cluster", "clusters", "presets_dir",
};
#define NCONFIG_KEYS	(sizeof config_keys / sizeof config_keys[0])

void
config_init(struct config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
}

static void
cluster_release(struct config_cluster *c)
{
	free(c->name);
	free(c->file);
	settings_release(&c->set);
	site_release(&c->site);
}

void
config_release(struct config *cfg)
{
	size_t	 i;

	for (i = 0; i < cfg->nfiles; i++)
		free(cfg->files[i]);
	for (i = 0; i < cfg->nclusters; i++)
		cluster_release(&cfg->clusters[i]);
	free(cfg->clusters);
	free(cfg->default_cluster);
	free(cfg->presets_dir);
	config_init(cfg);
}

static struct error *
get_string_key(const struct jsondoc *doc, const char *key, json_t *j,
    char **out)
{
	const char	*path[] = { key, NULL };

	if (!json_is_string(j))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "'%s' must be a string", key);
	if (strlen(json_string_value(j)) != json_string_length(j) ||
	    strpbrk(json_string_value(j), "\n\r") != NULL)
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "'%s' contains a NUL byte or a newline", key);
	free(*out);
	*out = xstrdup(json_string_value(j));
	return NULL;
}

/*
 * A profile: its settings, and its "site" (site.h), which is no setting
 * (what mbsbatch site wrote of the cluster, never a job's).
 */
static struct error *
load_profile(struct config_cluster *c, const struct jsondoc *doc,
    json_t *j, const char **path)
{
	struct error	*err;
	json_t		*rest, *site;
	const char	*sitepath[4];

	if (!json_is_object(j) || (site = json_object_get(j, "site")) == NULL)
		return settings_from_json(&c->set, doc, j, path, SF_CLUSTER,
		    ORIGIN_CONFIG);
	sitepath[0] = path[0];
	sitepath[1] = path[1];
	sitepath[2] = "site";
	sitepath[3] = NULL;
	if ((err = site_from_json(&c->site, doc, site, sitepath)) != NULL)
		return err;
	c->has_site = true;
	/* The same members (their positions in DOC), but "site". */
	rest = json_copy(j);
	json_object_del(rest, "site");
	err = settings_from_json(&c->set, doc, rest, path, SF_CLUSTER,
	    ORIGIN_CONFIG);
	json_decref(rest);
	return err;
}

static struct error *
load_clusters(struct config *cfg, const struct jsondoc *doc, json_t *obj)
{
	const char		*path[] = { "clusters", NULL, NULL };
	struct config_cluster	 c;
	struct error		*err;
	const char		*name;
	json_t			*j;
	size_t			 i;

	if (!json_is_object(obj))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "'clusters' must be an object of named profiles");
	json_object_foreach(obj, name, j) {
		path[1] = name;
		if (*name == '\0' || strpbrk(name, "\n\r\t ") != NULL)
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "cluster name '%s' is empty or has white space",
			    name);
		memset(&c, 0, sizeof c);
		settings_init(&c.set);
		site_init(&c.site);
		if ((err = load_profile(&c, doc, j, path)) != NULL) {
			cluster_release(&c);
			return err;
		}
		c.name = xstrdup(name);
		c.file = xstrdup(doc->label);
		for (i = 0; i < cfg->nclusters; i++)
			if (strcmp(cfg->clusters[i].name, name) == 0)
				break;
		if (i == cfg->nclusters) {
			cfg->clusters = xreallocarray(cfg->clusters,
			    cfg->nclusters + 1, sizeof *cfg->clusters);
			cfg->nclusters++;
		} else
			cluster_release(&cfg->clusters[i]);
		cfg->clusters[i] = c;
	}
	return NULL;
}

struct error *
config_load_doc(struct config *cfg, const struct jsondoc *doc,
    const char *dir)
{
	const char	*path[] = { NULL, NULL };
	const char	*key, *near;
	struct error	*err;
	json_t		*j;
	char		*presets = NULL;

	if (!json_is_object(doc->root))
		return jsondoc_error(doc, NULL, EXIT_USAGE,
		    "must be a JSON object");
	json_object_foreach(doc->root, key, j) {
		path[0] = key;
		if (strcmp(key, "default_cluster") == 0)
			err = get_string_key(doc, key, j,
			    &cfg->default_cluster);
		else if (strcmp(key, "presets_dir") == 0)
			err = get_string_key(doc, key, j, &presets);
		else if (strcmp(key, "clusters") == 0)
			err = load_clusters(cfg, doc, j);
		else {
			near = suggest(key, config_keys, NCONFIG_KEYS);
			if (near != NULL)
				err = jsondoc_error(doc, path, EXIT_USAGE,
				    "unknown key '%s' (did you mean '%s'?)",
				    key, near);
			else
				err = jsondoc_error(doc, path, EXIT_USAGE,
				    "unknown key '%s' (expected "
				    "default_cluster, clusters, presets_dir)",
				    key);
		}
		if (err != NULL) {
			free(presets);
			return err;
		}
	}
	if (presets != NULL) {
		free(cfg->presets_dir);
		if (presets[0] == '/' || dir == NULL)
			cfg->presets_dir = presets;
		else {
			cfg->presets_dir = xasprintf("%s/%s", dir, presets);
			free(presets);
		}
	}
	return NULL;
}

/* The directory part of PATH, "." for a bare name. */
static char *
dir_of(const char *path)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static struct error *
load_file(struct config *cfg, const char *path, bool must_exist)
{
	struct jsondoc	 doc;
	struct error	*err;
	char		*dir;

	if (!must_exist && access(path, F_OK) == -1 && errno == ENOENT)
		return NULL;
	if ((err = jsondoc_load_file(&doc, path, "config file")) != NULL)
		return err;
	dir = dir_of(path);
	err = config_load_doc(cfg, &doc, dir);
	free(dir);
	jsondoc_release(&doc);
	if (err == NULL && cfg->nfiles < 2)
		cfg->files[cfg->nfiles++] = xstrdup(path);
	return err;
}

/* $XDG_CONFIG_HOME, or ~/.config; NULL when neither is known. */
static char *
xdg_config_home(void)
{
	const char	*xdg = getenv("XDG_CONFIG_HOME");
	const char	*home = getenv("HOME");

	if (xdg != NULL && xdg[0] == '/')
		return xstrdup(xdg);
	if (home != NULL && home[0] == '/')
		return xasprintf("%s/.config", home);
	return NULL;
}

char *
config_default_presets_dir(void)
{
	char	*base, *dir;

	if ((base = xdg_config_home()) == NULL)
		return NULL;
	dir = xasprintf("%s/mbsbatch/presets", base);
	free(base);
	return dir;
}

char *
config_user_file(const char *path)
{
	const char	*env = getenv("MBSBATCH_CONFIG");
	char		*base, *user;

	if (path != NULL)
		return xstrdup(path);
	if (env != NULL && env[0] != '\0')
		return xstrdup(env);
	if ((base = xdg_config_home()) == NULL)
		return NULL;
	user = xasprintf("%s/mbsbatch/config.json", base);
	free(base);
	return user;
}

struct error *
config_load(struct config *cfg, const char *path)
{
	struct error	*err;
	const char	*env = getenv("MBSBATCH_CONFIG");
	char		*user;

	if ((err = load_file(cfg, SYSCONFDIR "/mbsbatch/config.json",
	    false)) != NULL)
		return err;
	if ((user = config_user_file(path)) == NULL)
		return NULL;
	/* --config FILE and $MBSBATCH_CONFIG must exist. */
	err = load_file(cfg, user, path != NULL ||
	    (env != NULL && env[0] != '\0'));
	free(user);
	return err;
}

struct error *
config_cluster(const struct config *cfg, const char *name,
    const struct config_cluster **out)
{
	const char	**names, *near;
	struct error	*err;
	size_t		 i;

	*out = NULL;
	for (i = 0; i < cfg->nclusters; i++)
		if (strcmp(cfg->clusters[i].name, name) == 0) {
			*out = &cfg->clusters[i];
			return NULL;
		}
	if (cfg->nclusters == 0)
		return error_new(EXIT_USAGE, "cluster '%s': no clusters are "
		    "configured (see mbsbatch.conf(5))", name);
	names = xreallocarray(NULL, cfg->nclusters, sizeof *names);
	for (i = 0; i < cfg->nclusters; i++)
		names[i] = cfg->clusters[i].name;
	near = suggest(name, names, cfg->nclusters);
	if (near != NULL)
		err = error_new(EXIT_USAGE, "cluster '%s': no such cluster "
		    "(did you mean '%s'?)", name, near);
	else
		err = error_new(EXIT_USAGE, "cluster '%s': no such cluster",
		    name);
	free(names);
	return err;
}
