/*
 * cmd-site.c: "mbsbatch site [--cluster NAME] [-o FILE]": ask the cluster,
 * through the chosen back end, for its partitions, QoS and the user's
 * associations (backend.h's site), and write what it says into the
 * cluster's profile (site.h: "site", with gpus_per_node, partition and
 * gpu_type where the profile has none), in the user's config file or,
 * with -o, into a configuration file of its own whose default cluster it
 * is.  plan, gen, submit and sweep then check every job against it
 * (job-site.c).  mbsbatch-site(1).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "backend.h"
#include "calibration.h"
#include "cmd.h"
#include "config.h"
#include "config-edit.h"
#include "error.h"
#include "gpu.h"
#include "job.h"
#include "jsondoc.h"
#include "settings.h"
#include "site.h"
#include "xmalloc.h"

static struct error *cmd_site_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_site_options[] = {
	{ "output", 'o', "FILE", "write a configuration file of its own "
	  "(use it with --config FILE) instead of the user's config", false },
	{ "force", 0, NULL, "with -o: replace an existing FILE", false },
	{ "dry-run", 0, NULL, "say what would be written; write nothing",
	  false },
	{ "json", 0, NULL, "print the profile's \"site\" object", false },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_site_entry = {
	.name = "site",
	.usage = "[--cluster NAME] [-o FILE [--force]] [--dry-run] [--json] "
	    "[OPTIONS]",
	.summary = "Ask the cluster for its partitions, QoS and accounts and "
	    "write its profile.",
	.options = cmd_site_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 0,
	.exec = cmd_site_exec,
};

/* The connection settings of the command line, as profile keys. */
static const enum setting_id connect_ids[] = {
	SET_VIA, SET_REST_URL, SET_API_VERSION, SET_TOKEN_FILE, SET_CACERT,
	SET_USER, SET_REST_TIMEOUT, SET_INSECURE_HTTP,
};

static void
add_connect(json_t *keys, const struct job *job)
{
	const struct setting_value	*v;
	const struct setting_def	*d;
	size_t				 i;

	for (i = 0; i < sizeof connect_ids / sizeof connect_ids[0]; i++) {
		v = &job->set.v[connect_ids[i]];
		d = &settings_table[connect_ids[i]];
		if (v->origin != ORIGIN_CLI)
			continue;
		if (d->type == ST_INT)
			json_object_set_new(keys, d->key, json_integer(v->i));
		else if (d->type == ST_BOOL)
			json_object_set_new(keys, d->key, json_boolean(v->b));
		else if (v->s != NULL)
			json_object_set_new(keys, d->key, json_string(v->s));
	}
}

/* The partition the profile's jobs go to: its own, else the default. */
static const struct site_partition *
home_partition(const struct site *s, const struct job *job)
{
	const char	*name = job_str(job, SET_PARTITION);
	size_t		 i;

	if (name != NULL)
		return site_partition_find(s, name);
	for (i = 0; i < s->nparts; i++)
		if (s->parts[i].is_default)
			return &s->parts[i];
	return s->nparts == 1 ? &s->parts[0] : NULL;
}

/*
 * The keys written: "site", and what the profile lacks that the
 * cluster says: its GPUs per node, its partition (the default), its
 * GPU type (a GRES type mbsbatch knows: "h100").
 */
static json_t *
profile_keys(const struct site *s, const struct job *job)
{
	const struct site_partition	*p = home_partition(s, job);
	json_t				*keys = json_object();
	char				**types = NULL;
	size_t				 i;

	add_connect(keys, job);
	if (p != NULL && p->gpus_per_node > 0 &&
	    job->set.v[SET_GPUS_PER_NODE].origin != ORIGIN_CONFIG)
		json_object_set_new(keys, "gpus_per_node",
		    json_integer(p->gpus_per_node));
	if (p != NULL && p->is_default && job_str(job, SET_PARTITION) == NULL)
		json_object_set_new(keys, "partition", json_string(p->name));
	for (i = 0; p != NULL && p->gres != NULL && p->gres[i] != NULL; i++)
		(void)site_gres_gpus(p->gres[i], &types);
	if (types != NULL && types[1] == NULL &&
	    gpu_type_find(types[0]) != NULL &&
	    job->set.v[SET_GPU_TYPE].origin != ORIGIN_CONFIG)
		json_object_set_new(keys, "gpu_type", json_string(types[0]));
	freev(types);
	json_object_set_new(keys, "site", site_to_json(s));
	return keys;
}

/* A number for the summary: "-" where Slurm sets none. */
static const char *
num(int64_t v, char *buf, size_t len)
{
	if (v < 0)
		return "-";
	snprintf(buf, len, "%" PRId64, v);
	return buf;
}

static void
print_summary(FILE *f, const struct site *s, const char *cluster,
    const char *where)
{
	const struct site_partition	*p;
	char				 t[32], a[24], b[24], c[24];
	size_t				 i, k;

	fprintf(f, "cluster %s (via %s, user %s, %s)\n", cluster, s->via,
	    s->user != NULL ? s->user : "unknown", s->written);
	fprintf(f, "%-16s %-8s %-12s %-8s %-6s %-5s %s\n", "partition",
	    "default", "MaxTime", "MaxNodes", "nodes", "GPUs", "GRES");
	for (i = 0; i < s->nparts; i++) {
		p = &s->parts[i];
		if (p->max_time >= 0)
			site_time_text(p->max_time, t, sizeof t);
		else
			snprintf(t, sizeof t, "UNLIMITED");
		fprintf(f, "%-16s %-8s %-12s %-8s %-6s %-5s ", p->name,
		    !s->default_known ? "?" : p->is_default ? "yes" : "no", t,
		    num(p->max_nodes, a, sizeof a), num(p->nodes, b, sizeof b),
		    num(p->gpus_per_node, c, sizeof c));
		for (k = 0; p->gres != NULL && p->gres[k] != NULL; k++)
			fprintf(f, "%s%s", k > 0 ? "," : "", p->gres[k]);
		fprintf(f, "%s\n", p->gres == NULL ? "-" : "");
	}
	if (!s->default_known)
		fprintf(f, "default partition: not said by this API "
		    "(slurmrestd from v0.0.39 on)\n");
	if (!s->qos_known)
		fprintf(f, "QoS and accounts: not known (%s)\n",
		    s->no_accounting != NULL ? s->no_accounting :
		    "no accounting");
	for (i = 0; s->qos_known && i < s->nqos; i++) {
		if (s->qos[i].max_wall >= 0)
			site_time_text(s->qos[i].max_wall, t, sizeof t);
		else
			snprintf(t, sizeof t, "-");
		fprintf(f, "QoS %-12s MaxWall %-12s MaxTRESPerJob node=%s "
		    "MaxTRESPerUser node=%s\n", s->qos[i].name, t,
		    num(s->qos[i].max_nodes, a, sizeof a),
		    num(s->qos[i].max_nodes_user, b, sizeof b));
	}
	for (i = 0; s->assoc_known && i < s->nassocs; i++) {
		fprintf(f, "account %-10s%s%s QoS ", s->assocs[i].account,
		    s->assocs[i].partition != NULL ? " partition " : "",
		    s->assocs[i].partition != NULL ?
		    s->assocs[i].partition : "");
		for (k = 0; s->assocs[i].qos != NULL &&
		    s->assocs[i].qos[k] != NULL; k++)
			fprintf(f, "%s%s", k > 0 ? "," : "",
			    s->assocs[i].qos[k]);
		fputc('\n', f);
	}
	fprintf(f, "%s %s\n", where != NULL ? "written to" : "would write",
	    where != NULL ? where : "(--dry-run)");
}

/* -o FILE: the profile as it stands, the keys over it, as the default
 * cluster of a file of its own. */
static struct error *
write_own(const char *path, const struct job *job, const char *cluster,
    const json_t *keys, bool force, bool dry)
{
	struct jsondoc	 doc;
	struct config	 cfg;
	struct error	*err;
	json_t		*profile, *root;
	char		*text, *label;
	bool		 streamed;

	if ((err = config_profile_json(&job->config, cluster, &profile)))
		return err;
	json_object_update(profile, (json_t *)keys);
	root = json_pack("{s:s, s:{s:o}}", "default_cluster", cluster,
	    "clusters", cluster, profile);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (text == NULL)
		return error_new(EXIT_FAILURE_OP, "site: '%s': cannot write "
		    "the profile", path);
	label = xasprintf("config file '%s' as it would be written", path);
	err = jsondoc_load_string(&doc, text, label);
	free(label);
	if (err == NULL) {
		config_init(&cfg);
		err = config_load_doc(&cfg, &doc, NULL);
		config_release(&cfg);
		jsondoc_release(&doc);
	}
	if (err == NULL && !dry) {
		label = xasprintf("%s\n", text);
		err = atomicfile_write(path, label, strlen(label), force,
		    0644, &streamed);
		free(label);
	}
	free(text);
	return err;
}

/* The user's config: the profile, made or updated. */
static struct error *
write_user(const struct cmd_args *args, const struct job *job,
    const char *cluster, const json_t *keys, bool dry, char **where)
{
	const struct config_cluster	*c = NULL;
	struct config_edit		 e;
	struct error			*err;
	char				*file, *label;
	size_t				 i;

	*where = NULL;
	if ((file = config_user_file(args->req.config_path)) == NULL)
		return error_new(EXIT_USAGE, "site: no config file to write "
		    "(neither $XDG_CONFIG_HOME nor $HOME is an absolute path): "
		    "give --config FILE or -o FILE");
	for (i = 0; i < job->config.nclusters; i++)
		if (strcmp(job->config.clusters[i].name, cluster) == 0)
			c = &job->config.clusters[i];
	label = xasprintf("config file '%s'", file);
	if (c != NULL && strcmp(c->file, label) != 0) {
		err = error_hint(error_new(EXIT_USAGE, "site: cluster '%s' is "
		    "defined in %s, not in the user's config file '%s'",
		    cluster, c->file, file), "copy its profile into '%s' "
		    "(which then replaces the site's), or write a file of "
		    "its own: -o FILE", file);
		free(label);
		free(file);
		return err;
	}
	free(label);
	err = config_edit_profile_new(file, cluster, keys, dry, &e);
	config_edit_release(&e);
	if (err == NULL)
		*where = file;
	else
		free(file);
	return err;
}

static struct error *
cmd_site_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const struct backend	*be;
	struct backend_ctx	*ctx = NULL;
	struct site		 site;
	struct job		 job;
	struct error		*err;
	const char		*out = cmd_value(self, args, "output");
	const char		*cluster;
	char			 date[16], *where = NULL;
	bool			 dry = cmd_value(self, args, "dry-run") != NULL;
	bool			 force = cmd_value(self, args, "force") != NULL;
	json_t			*keys;

	*status = EXIT_FAILURE_OP;
	site_init(&site);
	if (force && out == NULL)
		return error_new(EXIT_USAGE, "site: --force goes with -o FILE");
	args->req.new_cluster = true;
	args->req.jobfile = NULL;
	if ((err = job_load(&job, &args->req)) != NULL)
		return err;
	cluster = args->req.cluster != NULL ? args->req.cluster :
	    job.config.default_cluster;
	if (cluster == NULL) {
		err = error_hint(error_new(EXIT_USAGE, "site: no cluster to "
		    "write"), "name its profile: --cluster NAME (or "
		    "default_cluster in the config file)");
		goto out;
	}
	if ((err = calibration_today(date, sizeof date)) != NULL ||
	    (err = cmd_backend_choose(&job, &be)) != NULL)
		goto out;
	if ((err = cmd_backend_open(be, &job, args->verbose, &ctx)) != NULL) {
		err = cmd_backend_hint(&job, be, err);
		goto out;
	}
	if (be->site == NULL)
		err = error_new(EXIT_FAILURE_OP, "site: the %s back end "
		    "cannot ask the cluster (--via rest or sbatch can)",
		    be->name);
	else
		err = be->site(ctx, &site);
	be->close(ctx);
	if (err != NULL)
		goto out;
	site.written = xstrdup(date);
	site.via = xstrdup(be->name);
	keys = profile_keys(&site, &job);
	if (out != NULL)
		err = write_own(out, &job, cluster, keys, force, dry);
	else
		err = write_user(args, &job, cluster, keys, dry, &where);
	if (err == NULL && cmd_value(self, args, "json") != NULL)
		err = jsondoc_print(stdout, json_object_get(keys, "site"),
		    JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	else if (err == NULL)
		print_summary(stdout, &site, cluster, dry ? NULL :
		    out != NULL ? out : where);
	json_decref(keys);
	if (err == NULL)
		*status = 0;
out:
	free(where);
	site_release(&site);
	job_release(&job);
	return err;
}
