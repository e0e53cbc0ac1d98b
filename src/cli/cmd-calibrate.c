/*
 * cmd-calibrate.c: "mbsbatch calibrate LOG...": fit the cluster's site
 * factor to finished training logs and store it in its profile.  Each
 * log gives its measured step time (check-log's median after the
 * warm-up), the layout it ran (Megatron's lines, else our marker) and
 * the global batch its iteration lines print; the job (--job FILE and
 * the settings given) gives the rest: the model, sequence, micro-batch
 * and precision.  The model's estimate for that layout with no
 * site factor over the measured step time is the log's ratio; the
 * factor is their median (calibrate.h).  See mbsbatch-calibrate(1).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate.h"
#include "calibration.h"
#include "cmd.h"
#include "config.h"
#include "config-edit.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "logcheck.h"
#include "number.h"
#include "settings.h"
#include "termtext.h"
#include "xmalloc.h"

static struct error *cmd_calibrate_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_calibrate_options[] = {
	{ "job", 0, "FILE", "the job file the logs ran (its model, "
	  "sequence and batch; the layout is the log's)", false },
	{ "dry-run", 'n', NULL, "fit and print, write nothing", false },
	{ "json", 0, NULL, "print one JSON object", false },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_calibrate_entry = {
	.name = "calibrate",
	.usage = "LOG... [--job FILE] [--dry-run] [--json] [OPTIONS]",
	.summary = "Fit the cluster's speed to finished training logs and "
	    "store it in its profile.",
	.options = cmd_calibrate_options,
	.settings = SF_CLI,
	.max_args = CALIBRATE_MAX_LOGS,
	.exec = cmd_calibrate_exec,
};

/* The dimensions a log's layout gives the job, as settings. */
static const struct {
	enum logscan_dim	 dim;
	enum setting_id		 id;
} dims[] = {
	{ LD_WORLD, SET_GPUS }, { LD_TP, SET_TP }, { LD_PP, SET_PP },
	{ LD_VPP, SET_VPP }, { LD_CP, SET_CP }, { LD_EP, SET_EP },
	{ LD_ETP, SET_ETP },
};
#define NDIMS	(sizeof dims / sizeof dims[0])

/* One log, measured and estimated. */
struct fitted {
	const char		*path;
	double			 measured_ms, estimated_ms, ratio;
	int64_t			 v[NDIMS];	/* the layout; -1 unknown */
	int64_t			 gbs;		/* the log's global batch; 0 */
	double			 memory_gib;	/* max allocated; -1 */
	double			 est_memory_gib; /* plan's estimate; -1 */
	const char		*layout_from;	/* "megatron-lm", ... */
	const char		*gpu;
	int			 verdict;	/* check-log's: 0 or 3 */
	bool			 smoke;		/* our smoke job's log */
	size_t			 steps;		/* step times in the median */
};

/* F's value of dimension D; -1 unknown. */
static int64_t
dim_value(const struct fitted *f, enum logscan_dim d)
{
	size_t	 i;

	for (i = 0; i < NDIMS; i++)
		if (dims[i].dim == d)
			return f->v[i];
	return -1;
}

/*
 * What ran, by dimension: Megatron's lines, else our marker's; FROM
 * names the source of TP and PP (NULL: the log shows no layout).
 */
static void
log_layout(const struct logcheck *lc, struct fitted *f)
{
	const struct logscan	*ls = &lc->scan;
	size_t			 i;

	for (i = 0; i < NDIMS; i++)
		f->v[i] = lc->used.v[dims[i].dim] > 0 ?
		    lc->used.v[dims[i].dim] : ls->has_marker &&
		    ls->marker.v[dims[i].dim] > 0 ?
		    ls->marker.v[dims[i].dim] : -1;
	f->layout_from = NULL;
	if (lc->used.v[LD_TP] > 0 && lc->used.v[LD_PP] > 0)
		f->layout_from = lc->used_from;
	else if (ls->has_marker && ls->marker.v[LD_TP] > 0 &&
	    ls->marker.v[LD_PP] > 0)
		f->layout_from = "mbsbatch marker";
}

/* The job of the log F: the request's, its layout and global batch
 * replaced by the log's, with no site factor (the fit is against the
 * model alone). */
static struct error *
load_job(const struct cmd_args *args, const struct fitted *f,
    struct job *job)
{
	struct job_request	 req = args->req;
	struct settings		 cli;
	struct error		*err;
	size_t			 i;

	settings_init(&cli);
	settings_merge(&cli, &args->req.cli);
	for (i = 0; i < NDIMS; i++) {
		/* Megatron-LM prints an expert TP (TP's) for a dense model
		 * too: it means nothing without experts. */
		if (f->v[i] <= 0 || (dims[i].dim == LD_ETP &&
		    dim_value(f, LD_EP) <= 1))
			continue;
		if (dims[i].id == SET_GPUS) {
			settings_unset(&cli, SET_NODES);
			settings_unset(&cli, SET_MULTIPLE);
		}
		settings_unset(&cli, dims[i].id);
		cli.v[dims[i].id].origin = ORIGIN_CLI;
		cli.v[dims[i].id].i = f->v[i];
	}
	if (f->gbs > 0) {
		settings_unset(&cli, SET_GLOBAL_BATCH_SIZE);
		cli.v[SET_GLOBAL_BATCH_SIZE].origin = ORIGIN_CLI;
		cli.v[SET_GLOBAL_BATCH_SIZE].i = f->gbs;
	}
	req.cli = cli;
	err = job_load(job, &req);
	settings_release(&cli);
	if (err == NULL)
		settings_unset(&job->set, SET_SITE_FACTOR);
	return err;
}

/*
 * The layout of F into BUF: as words, "world=8 tp=2 pp=2 gbs=64" (1s
 * but TP's and PP's left out), or as plan's options, "--gpus 8 --tp 2
 * --pp 2 --global-batch-size 64".
 */
static void
layout_text(const struct fitted *f, bool options, char *buf, size_t len)
{
	size_t	 i, off = 0;
	int	 k;

	buf[0] = '\0';
	for (i = 0; i <= NDIMS && off < len; i++) {
		if (i == NDIMS ? f->gbs <= 0 : f->v[i] <= 0 ||
		    (!options && dims[i].dim != LD_WORLD &&
		    dims[i].dim != LD_TP && dims[i].dim != LD_PP &&
		    f->v[i] == 1))
			continue;
		if (options)
			k = snprintf(buf + off, len - off, "%s--%s %" PRId64,
			    off > 0 ? " " : "", settings_table[i == NDIMS ?
			    SET_GLOBAL_BATCH_SIZE : dims[i].id].option,
			    i == NDIMS ? f->gbs : f->v[i]);
		else
			k = snprintf(buf + off, len - off, "%s%s=%" PRId64,
			    off > 0 ? " " : "", i == NDIMS ? "gbs" :
			    logscan_dim_names[dims[i].dim],
			    i == NDIMS ? f->gbs : f->v[i]);
		if (k < 0)
			break;
		off += (size_t)k;
	}
}

/* Does the job set a layout of its own (a job file's, the options')? */
static bool
job_has_layout(const struct job *job)
{
	return job->set.v[SET_TP].origin != ORIGIN_UNSET ||
	    job->set.v[SET_PP].origin != ORIGIN_UNSET;
}

/* Read, judge and estimate the log at PATH into *F. */
static struct error *
measure(const struct cmd_args *args, const char *path, struct logcheck *lc,
    struct fitted *f)
{
	struct logcheck_opts	 o;
	struct job		 job;
	struct error		*err;
	char			 layout[256];

	memset(&o, 0, sizeof o);
	memset(f, 0, sizeof *f);
	f->path = path;
	if ((err = logcheck_read(path, NULL, &o, lc)) != NULL)
		return err;
	if ((err = logcheck_unusable(path, lc)) != NULL)
		return err;
	if (!(lc->step_ms > 0) || !isfinite(lc->step_ms))
		return error_new(EXIT_USAGE, "log '%s': no step time after "
		    "the warm-up (%" PRId64 " iteration line%s; the first %d "
		    "are left out)", path, lc->scan.it.logged,
		    lc->scan.it.logged == 1 ? "" : "s", LOGSCAN_WARMUP);
	f->measured_ms = lc->step_ms;
	f->gbs = lc->scan.it.gbs;
	log_layout(lc, f);
	if ((err = load_job(args, f, &job)) != NULL)
		return error_prefix(err, "log '%s'", path);
	if (f->layout_from == NULL) {
		if (!job_has_layout(&job)) {
			job_release(&job);
			return error_hint(error_new(EXIT_USAGE, "log '%s': no "
			    "layout (no Megatron layout line, no mbsbatch "
			    "marker)", path), "give the layout it ran: "
			    "--job FILE, or --tp, --pp and --gpus");
		}
		f->layout_from = "job";
	}
	if ((err = logcheck_judge(lc, &job, &o)) != NULL)
		err = error_prefix(err, "log '%s'", path);
	if (err == NULL && lc->est_step_ms <= 0) {
		layout_text(f, true, layout, sizeof layout);
		err = error_hint(error_new(EXIT_USAGE, "log '%s': no estimate "
		    "for its layout: %s", path, lc->est_step_reason != NULL ?
		    lc->est_step_reason : "the model gives none"), "'mbsbatch "
		    "plan%s%s %s' says why", args->req.jobfile != NULL ? " " :
		    "", args->req.jobfile != NULL ? args->req.jobfile : "",
		    layout);
	}
	if (err == NULL && (f->ratio = calibrate_ratio(lc->est_step_ms,
	    lc->step_ms)) < 0)
		err = error_new(EXIT_USAGE, "log '%s': step times %g ms "
		    "measured, %g ms estimated: no ratio", path, lc->step_ms,
		    lc->est_step_ms);
	if (err == NULL) {
		f->estimated_ms = lc->est_step_ms;
		f->memory_gib = lc->scan.max_allocated_gib;
		f->est_memory_gib = lc->est_memory_gib;
		f->gpu = lc->gpu;
		f->verdict = lc->status;
		f->smoke = lc->scan.smoke;
		f->steps = lc->scan.step.n;
	}
	job_release(&job);
	return err;
}

/* The profile's keys calibrate writes. */
static json_t *
profile_keys(double factor, size_t n, const char *date)
{
	return json_pack("{s:f,s:I,s:s}", "site_factor", factor,
	    "site_factor_logs", (json_int_t)n, "site_factor_date", date);
}

struct outcome {
	const char		*cluster;
	const char		*file;		/* the config file */
	struct calibrate_fit	 fit;
	char			 date[16];
	const struct job	*base;		/* the profile's factor */
	bool			 written;
	bool			 same_format;
};

/* Text for people; every path and name escaped for a terminal. */
static void
print_text(FILE *out, const struct fitted *f, size_t n,
    const struct outcome *oc)
{
	char	 layout[160];
	size_t	 i;
	int	 w = 3;

	for (i = 0; i < n; i++)
		if (strlen(f[i].path) > (size_t)w)
			w = strlen(f[i].path) > 48 ? 48 : (int)strlen(f[i].path);
	fprintf(out, "%-*s %12s %12s %7s  %s\n", w, "LOG", "MEASURED",
	    "ESTIMATED", "RATIO", "LAYOUT");
	for (i = 0; i < n; i++) {
		layout_text(&f[i], false, layout, sizeof layout);
		termtext_printf(out, "%-*s %9.1f ms %9.1f ms %7.3f  %s (%s%s)%s"
		    "\n", w, f[i].path, f[i].measured_ms, f[i].estimated_ms,
		    f[i].ratio, layout, f[i].layout_from, f[i].smoke ?
		    ", a smoke run" : "", f[i].verdict != 0 ?
		    ", check-log: fail" : "");
	}
	termtext_printf(out, "\nsite factor %.4g for cluster '%s' (%s): the "
	    "median of %zu log%s, from %.3g to %.3g (spread %.0f%%)\n",
	    oc->fit.factor, oc->cluster, f[0].gpu, n, n == 1 ? "" : "s",
	    oc->fit.min, oc->fit.max, oc->fit.spread * 100);
	calibration_print(out, "before: ", oc->base);
	if (oc->written)
		termtext_printf(out, "written to %s: site_factor, "
		    "site_factor_logs, site_factor_date%s\n", oc->file,
		    oc->same_format ? "" : " (the file's layout rewritten as "
		    "mbsbatch writes it; every key and value kept)");
	else
		termtext_printf(out, "not written (--dry-run): %s would get "
		    "site_factor %.4g, site_factor_logs %zu, site_factor_date "
		    "%s\n", oc->file, oc->fit.factor, n, oc->date);
}

static json_t *
outcome_json(const struct fitted *f, size_t n, const struct outcome *oc)
{
	json_t	*o, *a, *x, *l;
	size_t	 i, d;

	o = json_object();
	json_object_set_new(o, "cluster", termtext_json(oc->cluster));
	json_object_set_new(o, "config_file", termtext_json(oc->file));
	json_object_set_new(o, "gpu", json_string(f[0].gpu));
	a = json_array();
	for (i = 0; i < n; i++) {
		l = json_object();
		for (d = 0; d < NDIMS; d++)
			json_object_set_new(l, logscan_dim_names[dims[d].dim],
			    f[i].v[d] > 0 ? json_integer(f[i].v[d]) :
			    json_null());
		x = json_pack("{s:o,s:f,s:f,s:f,s:o,s:s,s:o,s:s}", "log",
		    termtext_json(f[i].path), "measured_step_ms", f[i].measured_ms,
		    "estimated_step_ms", f[i].estimated_ms, "ratio",
		    f[i].ratio, "layout", l, "layout_from", f[i].layout_from,
		    "global_batch_size", f[i].gbs > 0 ?
		    json_integer(f[i].gbs) : json_null(),
		    "check_log", f[i].verdict == 0 ? "pass" : "fail");
		json_object_set_new(x, "steps", json_integer((json_int_t)
		    f[i].steps));
		json_object_set_new(x, "smoke", json_boolean(f[i].smoke));
		json_object_set_new(x, "measured_memory_gib",
		    f[i].memory_gib > 0 ? json_real(f[i].memory_gib) :
		    json_null());
		json_object_set_new(x, "estimated_memory_gib",
		    f[i].est_memory_gib > 0 ? json_real(f[i].est_memory_gib) :
		    json_null());
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "logs", a);
	json_object_set_new(o, "site_factor", json_real(oc->fit.factor));
	json_object_set_new(o, "median", json_real(oc->fit.median));
	json_object_set_new(o, "min", json_real(oc->fit.min));
	json_object_set_new(o, "max", json_real(oc->fit.max));
	json_object_set_new(o, "spread", json_real(oc->fit.spread));
	json_object_set_new(o, "date", json_string(oc->date));
	json_object_set_new(o, "previous", calibration_json(oc->base));
	json_object_set_new(o, "written", json_boolean(oc->written));
	return o;
}

/* The user's config file *FILE, which must hold BASE's profile. */
static struct error *
profile_file(const struct cmd_args *args, const struct job *base,
    char **file)
{
	const struct config_cluster	*c;
	struct error			*err;
	char				*label;

	if (base->cluster == NULL)
		return error_hint(error_new(EXIT_USAGE, "calibrate: no "
		    "cluster to calibrate"), "name its profile: --cluster "
		    "NAME (or default_cluster in the config file)");
	if ((*file = config_user_file(args->req.config_path)) == NULL)
		return error_new(EXIT_USAGE, "calibrate: no config file to "
		    "write (neither $XDG_CONFIG_HOME nor $HOME is an absolute "
		    "path): give --config FILE");
	if ((err = config_cluster(&base->config, base->cluster, &c)) != NULL)
		return err;
	label = xasprintf("config file '%s'", *file);
	if (strcmp(c->file, label) != 0)
		err = error_hint(error_new(EXIT_USAGE, "calibrate: cluster "
		    "'%s' is defined in %s, not in the user's config file "
		    "'%s'", base->cluster, c->file, *file), "copy its profile "
		    "into '%s' (which then replaces the site's) to calibrate "
		    "it", *file);
	free(label);
	return err;
}

/*
 * The profile to store in and the user's config file it must be in:
 * --cluster, else the job file's, else the default (job_load()'s).
 */
static struct error *
where(const struct cmd_args *args, struct job *base, char **file)
{
	struct error	*err;

	*file = NULL;
	if ((err = job_load(base, &args->req)) != NULL)
		return err;
	if ((err = profile_file(args, base, file)) != NULL)
		job_release(base);
	return err;
}

static struct error *
cmd_calibrate_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	struct outcome		 oc;
	struct config_edit	 e;
	struct job		 base;
	struct logcheck		*lc = NULL;
	struct fitted		*f = NULL;
	struct error		*err;
	const char		*why, *v;
	double			*ratio = NULL;
	char			*file = NULL;
	json_t			*keys, *o;
	bool			 json = cmd_value(self, args, "json") != NULL;
	bool			 dry = cmd_value(self, args, "dry-run") != NULL;
	size_t			 i, n = (size_t)args->nargs;
	int			 stdin_read = 0;

	*status = EXIT_USAGE;
	memset(&oc, 0, sizeof oc);
	memset(&e, 0, sizeof e);
	if (n == 0)
		return error_new(EXIT_USAGE, "calibrate: give the LOGs of "
		    "finished training runs");
	if ((v = cmd_value(self, args, "job")) != NULL)
		args->req.jobfile = v;
	if ((err = where(args, &base, &file)) != NULL) {
		free(file);
		return err;
	}
	oc.cluster = base.cluster;
	oc.file = file;
	oc.base = &base;
	if ((err = calibration_today(oc.date, sizeof oc.date)) != NULL)
		goto out;
	for (i = 0; i < n; i++)
		if (strcmp(args->args[i], "-") == 0 && stdin_read++ > 0) {
			err = error_new(EXIT_USAGE, "calibrate: standard "
			    "input ('-') can be read once");
			goto out;
		}
	lc = xmalloc(sizeof *lc);
	f = xcalloc(n, sizeof *f);
	ratio = xcalloc(n, sizeof *ratio);
	for (i = 0; i < n; i++) {
		if ((err = measure(args, args->args[i], lc, &f[i])) != NULL)
			goto out;
		ratio[i] = f[i].ratio;
	}
	if ((why = calibrate_fit(ratio, n, &oc.fit)) != NULL) {
		err = error_new(EXIT_USAGE, "calibrate: %s", why);
		goto out;
	}
	keys = profile_keys(oc.fit.factor, n, oc.date);
	err = config_edit_profile(file, oc.cluster, keys, dry, &e);
	json_decref(keys);
	if (err != NULL)
		goto out;
	oc.written = !dry;
	oc.same_format = e.same_format;
	if (json) {
		o = outcome_json(f, n, &oc);
		err = jsondoc_print(stdout, o, JSON_INDENT(2) |
		    JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
		json_decref(o);
	} else
		print_text(stdout, f, n, &oc);
	if (err == NULL)
		*status = 0;
out:
	config_edit_release(&e);
	free(ratio);
	free(f);
	free(lc);
	job_release(&base);
	free(file);
	return err;
}
