/*
 * cmd-sweep.c: "mbsbatch sweep": the cartesian product of --grid values,
 * each point sized, validated and generated as gen would, the invalid
 * ones skipped with their finding, the rest queued over one back-end
 * session: by default points that ask for the same resources go as one
 * job array (each task runs its point's script, picked by
 * SLURM_ARRAY_TASK_ID), with --no-array each as its own job.  A journal
 * records every submission before it is sent and its job id once known,
 * so --resume queues exactly the points not queued yet.  See
 * mbsbatch-sweep(1).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "backend.h"
#include "buf.h"
#include "cmd.h"
#include "error.h"
#include "generate.h"
#include "grid.h"
#include "job.h"
#include "jobdesc.h"
#include "jobfiles.h"
#include "journal.h"
#include "jsondoc.h"
#include "logpath.h"
#include "memguard.h"
#include "number.h"
#include "quote.h"
#include "resume.h"
#include "sbatch-directives.h"
#include "settings.h"
#include "sweep.h"
#include "termtext.h"
#include "xmalloc.h"

extern char **environ;

static struct error *cmd_sweep_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_sweep_options[] = {
	{ "grid", 0, "KEY=V1,V2,...", "sweep the setting KEY over these "
	  "values (repeatable; the last varies fastest)", true },
	{ "journal", 0, "FILE", "record each submission and its job id "
	  "(default: JOBFILE's name, or mbsbatch, + .sweep)" },
	{ "resume", 0, NULL, "queue only the points the journal has not" },
	{ "no-array", 0, NULL, "queue each point as its own job, not as "
	  "job arrays" },
	{ "max-array-size", 0, "N", "the cluster's MaxArraySize: tasks per "
	  "array (default 1001)" },
	{ "parallel", 0, "N", "submissions in flight at once (default 4)" },
	{ "hold", 0, NULL, "submit held (release with scontrol release)" },
	{ "dry-run", 0, NULL, "list the points and how they would be "
	  "queued; send nothing" },
	{ "json", 0, NULL, "print the summary as one JSON object" },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_sweep_entry = {
	.name = "sweep",
	.usage = "[JOBFILE] --grid KEY=V1,V2,... [--grid ...] [OPTIONS]",
	.summary = "Queue a grid of jobs (a parameter sweep), resumable.",
	.options = cmd_sweep_options,
	.settings = SF_CLI,
	.help_gen = true,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_sweep_exec,
};

/* Where a point queued by this run writes (output, error: NULL with
 * the output). */
struct point_log {
	int64_t		 job_id;	/* 0: not queued by this run */
	int64_t		 task;		/* its array task, or -1 */
	char		*output;
	char		*error;
};

struct sweep {
	const struct cmd_entry	*self;
	struct cmd_args		*args;
	struct grid		 grid;
	char			 id[16];
	struct sweep_point	*pts;
	int64_t			 n;
	bool			 array;
	int64_t			 max_array;
	const char		*journal_path;
	struct journal		 j;
	const struct backend	*be;
	struct backend_ctx	**ctx;		/* one a worker, or one */
	int			 nctx;
	int64_t			 parallel;
	struct sweep_units	 units;
	size_t			 next;
	pthread_mutex_t		 lock;		/* all below, the journal */
	struct error		*failed;	/* the first submission's */
	struct jobdesc_context	 jc;
	struct jobdesc_host	 host;		/* what sbatch reads off us */
	char			 cwd[PATH_MAX];
	char			*user;		/* --user, or NULL */
	char			*login;		/* the login name, or NULL */
	char			*cluster;	/* the profile, for the record */
	char			*slurm;		/* where, for the record */
	struct point_log	*logs;		/* [n] */
	bool			 progress;
	json_t			*warned;	/* warnings said, as keys */
	time_t			 shown;
	int64_t			 queued, skipped, submissions, resumed;
};

static void
progress(struct sweep *s, bool last)
{
	time_t	 now = time(NULL);

	if (!s->progress || (!last && now == s->shown))
		return;
	s->shown = now;
	fprintf(stderr, "\rsweep %s: %lld of %lld points queued, %lld "
	    "skipped%s", s->id, (long long)s->queued, (long long)s->n,
	    (long long)s->skipped, last ? "\n" : "");
}

/* The journal's default name: the job file's, else "mbsbatch". */
static char *
default_journal(const char *jobfile)
{
	const char	*base;
	size_t		 len;

	if (jobfile == NULL || strcmp(jobfile, "-") == 0)
		return xstrdup("mbsbatch.sweep");
	base = strrchr(jobfile, '/');
	base = base != NULL ? base + 1 : jobfile;
	len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".json") == 0)
		len -= 5;
	return xasprintf("%.*s.sweep", (int)len, base);
}

static json_t *
grid_json(const struct grid *g)
{
	json_t	*a = json_array(), *vals;
	size_t	 i, v;

	for (i = 0; i < g->naxes; i++) {
		vals = json_array();
		for (v = 0; v < g->axes[i].nvalues; v++)
			json_array_append_new(vals,
			    json_string(g->axes[i].values[v]));
		json_array_append_new(a, json_pack("[s,o]",
		    g->axes[i].def->option, vals));
	}
	return a;
}

/*
 * What tells point PT's job apart for Slurm: its typed options (FIG)
 * where the template writes exactly those, a SHIPPED one; else its
 * #SBATCH lines as the template wrote them.
 */
static void
point_key(struct sweep_point *pt, const struct job_figures *fig,
    bool shipped)
{
	pt->key = shipped ? sweep_slurm_key(&fig->slurm) :
	    sweep_directive_key(pt->script, pt->name);
}

/*
 * Load, size, validate and generate point I as gen would, named
 * BASE-ID-I and told its point through MBSBATCH_SWEEP_POINT and
 * MBSBATCH_SWEEP_SETTINGS; an invalid point is skipped, with why.
 */
static struct error *
prepare_point(struct sweep *s, int64_t i)
{
	struct sweep_point	*pt = &s->pts[i];
	struct job_request	 req = s->args->req;
	struct job_figures	 fig;
	struct job		 job;
	struct error		*err;
	struct buf		 out;
	char			*regen, *v;
	int			 k;
	bool			 shipped = false;

	pt->desc = grid_describe(&s->grid, i);
	settings_init(&req.cli);
	settings_merge(&req.cli, &s->args->req.cli);
	err = grid_apply(&s->grid, i, &req.cli);
	if (err == NULL)
		err = job_load(&job, &req);
	settings_release(&req.cli);
	if (err != NULL)
		goto skip;
	pt->name = xasprintf("%s-%s-%lld", job_name(&job), s->id,
	    (long long)i);
	err = settings_set_text(&job.set, &settings_table[SET_JOB_NAME],
	    pt->name, ORIGIN_CLI);
	if (err == NULL) {
		v = xasprintf("MBSBATCH_SWEEP_POINT=%lld", (long long)i);
		err = settings_set_text(&job.set, &settings_table[SET_ENV], v,
		    ORIGIN_CLI);
		free(v);
	}
	if (err == NULL) {
		v = xasprintf("MBSBATCH_SWEEP_SETTINGS=%s", pt->desc);
		err = settings_set_text(&job.set, &settings_table[SET_ENV], v,
		    ORIGIN_CLI);
		free(v);
	}
	if (err != NULL) {
		job_release(&job);
		goto skip;
	}
	buf_init(&out);
	regen = cmd_regen_line(s->args);
	v = xasprintf("%s   # point %lld: %s", regen, (long long)i,
	    pt->desc);
	free(regen);
	memset(&fig, 0, sizeof fig);
	err = generate_script("sweep", &job, v, true, &fig, &out, &shipped);
	free(v);
	if (err != NULL && err->status == EXIT_LAYOUT) {
		/* Say which rule, as plan would. */
		for (k = 0; k < fig.sizing.nfindings; k++)
			if (fig.sizing.findings[k].severity == SEVERITY_ERROR)
				break;
		/* Under --strict a warning fails the point: the first. */
		if (k == fig.sizing.nfindings)
			for (k = 0; k < fig.sizing.nfindings; k++)
				if (fig.sizing.findings[k].severity ==
				    SEVERITY_WARNING)
					break;
		if (k < fig.sizing.nfindings) {
			pt->skip = xasprintf("%s: %s",
			    fig.sizing.findings[k].code,
			    fig.sizing.findings[k].message);
			error_free(err);
			err = NULL;
		}
	}
	/* A layout estimated not to fit is not queued (memguard.h). */
	if (err == NULL && memguard_refuses(&job, &fig)) {
		v = memguard_reason(&job, &fig);
		pt->skip = xasprintf("memory-oom: %s (--allow-oom queues it)",
		    v);
		free(v);
	}
	if (err == NULL && pt->skip == NULL) {
		pt->script = buf_detach(&out);
		if ((err = sweep_own_name(&pt->script, pt->name)) == NULL)
			point_key(pt, &fig, shipped);
	}
	buf_release(&out);
	job_release(&job);
	if (err == NULL && pt->skip == NULL)
		return NULL;
skip:
	/* Only a broken rule skips a point; anything else (a missing
	 * option, an unreadable file) would fail every point alike. */
	if (pt->skip == NULL)
		return error_prefix(err, "sweep: point %lld (%s)", (long long)i,
		    pt->desc);
	s->skipped++;
	if (!s->args->quiet)
		termtext_printf(stderr, "mbsbatch: sweep: point %lld (%s) "
		    "skipped: %s\n", (long long)i, pt->desc, pt->skip);
	return NULL;
}

static json_t *
points_json(const struct sweep *s, const int64_t *idx, int64_t n,
    json_t **settings)
{
	json_t	*a = json_array();
	int64_t	 k;

	*settings = json_array();
	for (k = 0; k < n; k++) {
		json_array_append_new(a, json_integer(idx[k]));
		json_array_append_new(*settings,
		    json_string(s->pts[idx[k]].desc));
	}
	return a;
}

/*
 * Where task K of submission D (or the job, K -1), queued in WORKDIR as
 * job R, writes, as submit says it (logpath_submitted()), the array's
 * %A and %a resolved for the task: into L, new strings.  %u is the user
 * the back end submitted as, else the login name.
 */
static void
point_logs(const struct sweep *s, const struct jobdesc *d,
    const char *workdir, const struct submit_result *r, int64_t k,
    struct point_log *l)
{
	struct logpath_sub	 ls;

	memset(&ls, 0, sizeof ls);
	ls.desc = d;
	ls.workdir = workdir;
	ls.user = r->user != NULL ? r->user : s->user != NULL ? s->user :
	    s->login;
	ls.release = r->release;
	ls.job_id = r->job_id;
	ls.task = d->array != NULL ? k : -1;
	l->job_id = r->job_id;
	l->task = ls.task;
	logpath_submitted(&ls, &l->output, &l->error, NULL);
}

/*
 * Queue unit U over CTX: journal the intent, submit, journal the job id
 * (synced).  The workers call it at once: everything they share is under
 * the lock, but the submission itself.
 */
static struct error *
submit_unit(struct sweep *s, struct backend_ctx *ctx, struct sweep_unit *u)
{
	struct submit_opts	 so;
	struct submit_result	 r;
	struct jobdesc_context	 jc = s->jc;
	struct jobdesc		 d;
	struct error		*err;
	struct point_log	*l;
	struct jobfiles_queued	 q;
	struct jobfiles		 files;
	json_t			*rec, *pts, *set, *outs, *errs;
	int64_t			 k;
	uint64_t		 seq = 0;
	char			**said, **made = NULL, *warn = NULL;

	memset(&so, 0, sizeof so);
	so.hold = cmd_value(s->self, s->args, "hold") != NULL;
	jobdesc_init(&d);
	err = sbatch_directives_parse_env(u->name, u->script,
	    s->be->reads_directives, jc.environ, &d, &said);
	if (err != NULL)
		goto out;
	if ((err = sbatch_directives_check_release(u->name, u->script,
	    s->be->release(ctx))) != NULL) {
		freev(said);
		goto out;
	}
	jc.cwd = jobdesc_absolute(&d, s->cwd);

	pthread_mutex_lock(&s->lock);
	for (k = 0; said != NULL && said[k] != NULL && !s->args->quiet; k++) {
		if (json_object_get(s->warned, said[k]) != NULL)
			continue;
		json_object_set_new(s->warned, said[k], json_true());
		if (s->progress)
			fputc('\n', stderr);
		termtext_printf(stderr, "mbsbatch: sweep: warning: %s (said "
		    "once for the sweep)\n", said[k]);
	}
	freev(said);
	/* Slurm before 23.02 does not make log directories; points may
	 * differ in them.  Kept if the submission fails: another unit's
	 * job may need them. */
	err = generate_job_log_dirs("sweep", &d, jc.cwd, s->user != NULL ?
	    s->user : s->login, s->be->release(ctx), s->args->quiet, &made);
	freev(made);
	if (err != NULL) {
		pthread_mutex_unlock(&s->lock);
		goto out;
	}
	pts = points_json(s, u->idx, u->n, &set);
	json_decref(set);
	rec = json_pack("{s:s,s:o}", "submitting", u->name, "points", pts);
	err = journal_append(&s->j, rec, false);
	json_decref(rec);
	pthread_mutex_unlock(&s->lock);
	if (err != NULL)
		goto out;

	if ((err = s->be->submit(ctx, &d, &jc, &so, &r)) != NULL)
		goto out;
	/* The record of submitted jobs (logs, status --check, report). */
	memset(&q, 0, sizeof q);
	q.be = s->be;
	q.ctx = ctx;
	q.cluster = s->cluster;
	q.slurm = s->slurm;
	q.desc = &d;
	q.workdir = jc.cwd;
	q.user = r.user != NULL ? r.user : s->user != NULL ? s->user :
	    s->login;
	jobfiles_queued(&q, &r, &files, &warn);
	jobfiles_release(&files);

	pthread_mutex_lock(&s->lock);
	if (warn != NULL && !s->args->quiet) {
		if (s->progress)
			fputc('\n', stderr);
		termtext_printf(stderr, "mbsbatch: sweep: warning: %s\n", warn);
	}
	free(warn);
	pts = points_json(s, u->idx, u->n, &set);
	outs = json_array();
	errs = json_array();
	for (k = 0; k < u->n; k++) {
		l = &s->logs[u->idx[k]];
		point_logs(s, &d, jc.cwd, &r, k, l);
		json_array_append_new(outs, json_string(l->output));
		json_array_append_new(errs, l->error != NULL ?
		    json_string(l->error) : json_null());
	}
	/* Each point's output and error (null: with the output), in the
	 * order of its points. */
	rec = json_pack("{s:s,s:I,s:o,s:o,s:o,s:o}", "queued", u->name,
	    "job_id", (json_int_t)r.job_id, "points", pts, "settings", set,
	    "output", outs, "error", errs);
	/* On disk after the lock is given back: the other workers' lines
	 * share this fsync (journal.h). */
	err = journal_write(&s->j, rec, &seq);
	json_decref(rec);
	/* Each distinct warning once: a held sweep would say "held" for
	 * every job. */
	for (k = 0; k < (int64_t)r.nwarnings && !s->args->quiet; k++) {
		if (json_object_get(s->warned, r.warnings[k]) != NULL)
			continue;
		json_object_set_new(s->warned, r.warnings[k], json_true());
		if (s->progress)
			fputc('\n', stderr);
		termtext_printf(stderr, "mbsbatch: sweep: warning: job %lld: "
		    "%s (said once for the sweep)\n", (long long)r.job_id,
		    r.warnings[k]);
	}
	for (k = 0; k < u->n; k++)
		s->pts[u->idx[k]].queued = true;
	s->queued += u->n;
	s->submissions++;
	progress(s, false);
	pthread_mutex_unlock(&s->lock);
	submit_result_release(&r);
	if (err == NULL)
		err = journal_sync(&s->j, seq);
out:
	jobdesc_release(&d);
	return err;
}

/* A worker: queue the next unit, until none is left or a submission
 * failed (the sweep stops there; --resume goes on from the journal). */
static void *
worker(void *arg)
{
	struct sweep		*s = ((void **)arg)[0];
	struct backend_ctx	*ctx = ((void **)arg)[1];
	struct sweep_unit	*u;
	struct error		*err;

	for (;;) {
		pthread_mutex_lock(&s->lock);
		u = s->failed == NULL && s->next < s->units.n ?
		    &s->units.v[s->next++] : NULL;
		pthread_mutex_unlock(&s->lock);
		if (u == NULL)
			return NULL;
		if ((err = submit_unit(s, ctx, u)) == NULL)
			continue;
		pthread_mutex_lock(&s->lock);
		if (s->failed == NULL)
			s->failed = err;
		else
			error_free(err);
		pthread_mutex_unlock(&s->lock);
		return NULL;
	}
}

/* Queue every unit with --parallel workers; the first failure, if any. */
static struct error *
run_units(struct sweep *s)
{
	pthread_t	*t;
	void		*(*args)[2];
	int		 w, n = (int)s->parallel, started = 0;

	if ((size_t)n > s->units.n)
		n = s->units.n > 0 ? (int)s->units.n : 1;
	t = xcalloc((size_t)n, sizeof *t);
	args = xcalloc((size_t)n, sizeof *args);
	for (w = 0; w < n; w++) {
		args[w][0] = s;
		args[w][1] = s->ctx[s->be->one_session ? 0 : w];
		if (pthread_create(&t[w], NULL, worker, args[w]) != 0)
			break;
		started++;
	}
	if (started == 0)
		worker(args[0]);
	for (w = 0; w < started; w++)
		pthread_join(t[w], NULL);
	free(t);
	free(args);
	return s->failed;
}

/* The points not queued yet as submissions: job arrays, or jobs. */
static struct error *
queue_units(struct sweep *s)
{
	if (!s->array) {
		sweep_job_units(s->pts, s->n, &s->units);
		return NULL;
	}
	return sweep_array_units(s->id, s->pts, s->n, s->max_array,
	    &s->units);
}

/*
 * Resume from PLAN (the journal checked): mark what it queued, and ask
 * Slurm about each submission it sent without learning the job id (a
 * kill in between): found, it is recorded as queued now.
 */
static struct error *
resume(struct sweep *s, const struct resume_plan *plan)
{
	const struct resume_pending	*pd;
	struct error			*err;
	json_t				*rec, *pts;
	int64_t				 id, p;
	size_t				 i, k;

	for (p = 0; p < s->n; p++)
		s->pts[p].queued = plan->queued[p];
	for (i = 0; i < plan->npending; i++) {
		pd = &plan->pending[i];
		for (k = 0; k < pd->npoints; k++)
			if (s->pts[pd->points[k]].queued)
				break;
		if (k < pd->npoints)
			continue;	/* an earlier lookup found it */
		if ((err = s->be->find(s->ctx[0], pd->name, &id)) != NULL)
			return err;
		if (id == 0)
			continue;	/* never reached Slurm: send again */
		pts = json_array();
		for (k = 0; k < pd->npoints; k++) {
			json_array_append_new(pts,
			    json_integer(pd->points[k]));
			s->pts[pd->points[k]].queued = true;
		}
		rec = json_pack("{s:s,s:I,s:o,s:b}", "queued", pd->name,
		    "job_id", (json_int_t)id, "points", pts, "found", 1);
		err = journal_append(&s->j, rec, true);
		json_decref(rec);
		if (err != NULL)
			return err;
		s->resumed++;
	}
	for (p = 0; p < s->n; p++)
		s->queued += s->pts[p].queued && s->pts[p].script != NULL;
	return NULL;
}

/* What would be queued: the units a real run would send, in order. */
static struct error *
dry_run(struct sweep *s)
{
	struct error	*err = NULL;
	size_t		 u;
	int64_t		 i, k;

	err = queue_units(s);
	if (err != NULL)
		return err;
	printf("# mbsbatch sweep --dry-run: nothing was sent\n");
	printf("# %lld points, %lld skipped; %zu submission%s (%s)\n",
	    (long long)s->n, (long long)s->skipped, s->units.n,
	    s->units.n == 1 ? "" : "s", s->array ? "points with the same "
	    "#SBATCH lines go as one job array" : "each point its own job");
	printf("%-7s %-10s %s\n", "POINT", s->array ? "ARRAY.TASK" : "JOB",
	    "SETTINGS");
	for (i = 0; i < s->n; i++) {
		if (s->pts[i].script == NULL) {
			printf("%-7lld %-10s %s: skipped: %s\n", (long long)i,
			    "-", s->pts[i].desc, s->pts[i].skip);
			continue;
		}
		u = s->pts[i].unit;
		k = s->pts[i].task;
		if (s->array)
			printf("%-7lld %zu.%-8lld %s\n", (long long)i, u,
			    (long long)k, s->pts[i].desc);
		else
			printf("%-7lld %-10zu %s\n", (long long)i, u,
			    s->pts[i].desc);
	}
	return NULL;
}

/* The points this run queued, where each writes: as JSON, or as lines
 * (submit's "output:" lines, one a point). */
static json_t *
point_lines(const struct sweep *s, bool print)
{
	const struct point_log	*l;
	json_t			*a = json_array();
	char			 job[48];
	int64_t			 i;

	for (i = 0; s->logs != NULL && i < s->n; i++) {
		l = &s->logs[i];
		if (l->job_id == 0)
			continue;
		if (l->task >= 0)
			snprintf(job, sizeof job, "%lld_%lld",
			    (long long)l->job_id, (long long)l->task);
		else
			snprintf(job, sizeof job, "%lld", (long long)l->job_id);
		if (print) {
			printf("point %lld (%s): job %s, output %s",
			    (long long)i, s->pts[i].desc, job, l->output);
			if (l->error != NULL)
				printf(", error %s", l->error);
			printf("\n");
			continue;
		}
		json_array_append_new(a, json_pack("{s:I,s:I,s:o,s:s,s:s?}",
		    "point", (json_int_t)i, "job_id", (json_int_t)l->job_id,
		    "array_task_id", l->task >= 0 ? json_integer(l->task) :
		    json_null(), "output", l->output, "error", l->error));
	}
	return a;
}

/* The sweep's summary on stdout; an error only when it cannot be
 * printed (jsondoc_print()). */
static struct error *
summary(struct sweep *s, bool json, struct error *err)
{
	struct error	*perr;
	json_t		*o;

	progress(s, true);
	if (json) {
		o = json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:s,s:s,s:b,s:o}",
		    "sweep", s->id, "points", (json_int_t)s->n, "queued",
		    (json_int_t)s->queued, "skipped", (json_int_t)s->skipped,
		    "not_queued", (json_int_t)(s->n - s->queued - s->skipped),
		    "submissions", (json_int_t)s->submissions, "journal",
		    s->journal_path, "backend", s->be->name, "complete",
		    err == NULL && s->queued + s->skipped == s->n, "logs",
		    point_lines(s, false));
		perr = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
		return perr;
	}
	if (!s->args->quiet)
		json_decref(point_lines(s, true));
	printf("sweep %s: %lld points: %lld queued (%lld submission%s%s), "
	    "%lld skipped, %lld not queued; journal %s\n", s->id,
	    (long long)s->n, (long long)s->queued,
	    (long long)s->submissions, s->submissions == 1 ? "" : "s",
	    s->array ? ", job arrays" : "", (long long)s->skipped,
	    (long long)(s->n - s->queued - s->skipped), s->journal_path);
	return NULL;
}

static void
sweep_release(struct sweep *s)
{
	int64_t	 i;

	sweep_points_free(s->pts, s->n);
	sweep_units_release(&s->units);
	for (i = 0; i < s->nctx; i++)
		s->be->close(s->ctx[i]);
	free(s->ctx);
	error_free(s->failed);
	pthread_mutex_destroy(&s->lock);
	for (i = 0; s->logs != NULL && i < s->n; i++) {
		free(s->logs[i].output);
		free(s->logs[i].error);
	}
	free(s->logs);
	free(s->user);
	free(s->login);
	free(s->cluster);
	free(s->slurm);
	json_decref(s->warned);
	grid_release(&s->grid);
	journal_close(&s->j);
}

static struct error *
sweep_options(struct sweep *s)
{
	const char *const	*specs;
	struct error		*err;
	const char		*v, *why;
	size_t			 n, i;

	specs = cmd_values(s->self, s->args, "grid", &n);
	if (n == 0)
		return error_new(EXIT_USAGE, "sweep: give the grid: --grid "
		    "KEY=V1,V2,... (repeatable)");
	for (i = 0; i < n; i++)
		if ((err = grid_add(&s->grid, specs[i])) != NULL)
			return err;
	s->array = cmd_value(s->self, s->args, "no-array") == NULL;
	s->max_array = 1001;
	if ((v = cmd_value(s->self, s->args, "max-array-size")) != NULL &&
	    (why = number_parse_int(v, 1, 4000001, &s->max_array)) != NULL)
		return error_new(EXIT_USAGE, "--max-array-size: '%s' %s "
		    "(expected 1 to 4000001)", v, why);
	s->parallel = 4;
	if ((v = cmd_value(s->self, s->args, "parallel")) != NULL &&
	    (why = number_parse_int(v, 1, 64, &s->parallel)) != NULL)
		return error_new(EXIT_USAGE, "--parallel: '%s' %s (expected 1 "
		    "to 64)", v, why);
	if (getcwd(s->cwd, sizeof s->cwd) == NULL)
		return error_new(EXIT_FAILURE_OP, "sweep: the current "
		    "directory: %s", strerror(errno));
	return NULL;
}

/* A short id telling this sweep's jobs from any other's. */
static void
new_id(char *buf, size_t len)
{
	struct timespec	 ts;
	uint64_t	 x;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)ts.tv_sec ^
	    ((uint64_t)getpid() << 20);
	x ^= x >> 29;
	snprintf(buf, len, "%06llx", (unsigned long long)(x & 0xffffff));
}

static struct error *
cmd_sweep_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	struct sweep	 s;
	struct job	 job;
	struct error	*err, *perr;
	struct resume_plan plan;
	json_t		*lines = NULL, *header, *g;
	struct passwd	*pw;
	char		*journal = NULL;
	bool		 resuming = cmd_value(self, args, "resume") != NULL;
	bool		 dry = cmd_value(self, args, "dry-run") != NULL;
	bool		 json = cmd_value(self, args, "json") != NULL;
	int64_t		 i;

	*status = EXIT_OK;
	memset(&s, 0, sizeof s);
	memset(&plan, 0, sizeof plan);
	s.self = self;
	s.args = args;
	s.j.fd = -1;
	s.warned = json_object();
	pthread_mutex_init(&s.lock, NULL);
	grid_init(&s.grid);
	args->req.jobfile = args->nargs > 0 ? args->args[0] : NULL;
	if (args->req.jobfile != NULL && strcmp(args->req.jobfile, "-") == 0) {
		err = error_new(EXIT_USAGE, "sweep: the job file cannot be "
		    "standard input: every point reads it");
		goto out;
	}
	if ((err = sweep_options(&s)) != NULL)
		goto out;
	journal = cmd_value(self, args, "journal") != NULL ?
	    xstrdup(cmd_value(self, args, "journal")) :
	    default_journal(args->req.jobfile);
	s.journal_path = journal;
	if (resuming && dry) {
		err = error_new(EXIT_USAGE, "sweep: --dry-run with --resume: "
		    "the journal already says what was queued");
		goto out;
	}
	if (!resuming && !dry && (err = journal_check_new(journal)) != NULL)
		goto out;
	/* Resuming, the journal is locked and checked before anything
	 * else: a wrong --journal is refused before it is written to. */
	if (resuming) {
		g = grid_json(&s.grid);
		if ((err = journal_open(&s.j, journal, &lines)) == NULL &&
		    (err = resume_plan(journal, lines, g, s.grid.npoints,
		    &plan)) == NULL)
			err = journal_cut_torn(&s.j);
		json_decref(g);
		if (err != NULL)
			goto out;
		memcpy(s.id, plan.id, sizeof plan.id);
	} else
		new_id(s.id, sizeof s.id);

	/* The connection settings, and the back end, as submit's. */
	if ((err = job_load(&job, &args->req)) != NULL)
		goto out;
	err = cmd_backend_choose(&job, &s.be);
	if (job_str(&job, SET_USER) != NULL)
		s.user = xstrdup(job_str(&job, SET_USER));
	if (job.cluster != NULL)
		s.cluster = xstrdup(job.cluster);
	if (job_str(&job, SET_REST_URL) != NULL)
		s.slurm = xstrdup(job_str(&job, SET_REST_URL));
	else if (getenv("SLURM_CONF") != NULL)
		s.slurm = xstrdup(getenv("SLURM_CONF"));
	/* The sessions, opened here, before any thread starts: one for
	 * libslurm (the process's), else one a worker. */
	if (err == NULL && !dry) {
		s.ctx = xcalloc((size_t)s.parallel, sizeof *s.ctx);
		while (s.nctx < (s.be->one_session ? 1 : s.parallel) &&
		    (err = cmd_backend_open(s.be, &job, args->verbose,
		    &s.ctx[s.nctx])) == NULL)
			s.nctx++;
	}
	job_release(&job);
	if (err != NULL)
		goto out;

	s.n = s.grid.npoints;
	s.pts = xcalloc((size_t)s.n, sizeof *s.pts);
	s.logs = xcalloc((size_t)s.n, sizeof *s.logs);
	for (i = 0; i < s.n; i++)
		if ((err = prepare_point(&s, i)) != NULL)
			goto out;
	if (dry) {
		err = dry_run(&s);
		goto out;
	}
	jobdesc_host_read(&s.host);
	s.jc.host = &s.host;
	s.jc.environ = environ;
	s.jc.user = s.user;
	/* Read here: getpwuid() is not for the workers' threads. */
	if ((pw = getpwuid(getuid())) != NULL)
		s.login = xstrdup(pw->pw_name);
	if (resuming)
		err = resume(&s, &plan);
	else {
		header = json_pack("{s:s,s:i,s:I,s:o,s:b}", "sweep", s.id,
		    "version", 1, "points", (json_int_t)s.n, "grid",
		    grid_json(&s.grid), "array", s.array);
		err = journal_create(&s.j, journal, header);
		json_decref(header);
	}
	if (err != NULL)
		goto out;
	s.progress = isatty(STDERR_FILENO) && !args->quiet;
	err = queue_units(&s);
	if (err == NULL) {
		err = run_units(&s);
		s.failed = NULL;	/* err owns it now */
	}
	if (err != NULL)
		error_hint(err, "%lld of %lld points are queued, as journal "
		    "'%s' records; run the same command with --resume to "
		    "queue the rest", (long long)s.queued, (long long)s.n,
		    journal);
	if ((perr = summary(&s, json, err)) != NULL && err == NULL)
		err = perr;
	else
		error_free(perr);
	if (err == NULL && s.skipped > 0)
		*status = EXIT_LAYOUT;
out:
	json_decref(lines);
	resume_plan_release(&plan);
	sweep_release(&s);
	free(journal);
	return err;
}
