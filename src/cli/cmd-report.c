/*
 * cmd-report.c: "mbsbatch report JOBID | --chain JOBID | --journal FILE":
 * the effective training time ratio of a run and the time it lost, by
 * cause, from Slurm's record of every attempt (sacct --duplicates) and
 * the logs of each (logtimeline.h); the arithmetic is goodput.h's.  See
 * mbsbatch-report(1).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "goodput.h"
#include "job.h"
#include "joblookup.h"
#include "jobref.h"
#include "jsondoc.h"
#include "logfile.h"
#include "logtimeline.h"
#include "resume.h"
#include "submitted.h"
#include "xmalloc.h"

static struct error *cmd_report_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_report_options[] = {
	{ "chain", 0, NULL, "JOBID and the jobs of its chain after it "
	  "(submit --chain)", false },
	{ "journal", 0, "FILE", "every job a sweep's journal records, each "
	  "a run", false },
	{ "json", 0, NULL, "print one JSON object", false },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.usage = "JOBID [--chain] [--json] [OPTIONS] | --journal FILE "
	    "[--json] [OPTIONS]",
	.summary = "How much of a run's allocation trained (goodput), and "
	    "where the rest went.",
	.options = cmd_report_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_report_exec,
};

/* The most jobs a chain is followed through (submit --chain's most). */
#define REPORT_MAX_CHAIN	1000

/* What a run is gathered into: its attempts, and what they point at. */
struct run {
	struct goodput_attempt	*v;
	size_t			 n;
	struct logtimeline	*logs;		/* one a job, kept for saves */
	size_t			 nlogs;
	int64_t			*jobs;
	size_t			 njobs;
	bool			 from_log;	/* some attempt's times are the
						   log's, not accounting's */
};

static void
run_release(struct run *r)
{
	size_t	 i;

	for (i = 0; i < r->nlogs; i++)
		logtimeline_release(&r->logs[i]);
	free(r->logs);
	free(r->v);
	free(r->jobs);
	memset(r, 0, sizeof *r);
}

static int
by_start(const void *a, const void *b)
{
	const struct job_status	*x = a, *y = b;

	return x->start_time < y->start_time ? -1 :
	    x->start_time > y->start_time;
}

/* The attempt of T whose restart count is K, or NULL. */
static struct logtimeline_attempt *
log_attempt(struct logtimeline *t, int64_t k)
{
	size_t	 i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].restart == k)
			return &t->v[i];
	return NULL;
}

/* What the error file E says of the attempts of the output O: the
 * gate's and the watchdog's lines, crashes, may be printed there. */
static void
merge_err(struct logtimeline *o, struct logtimeline *e)
{
	struct logtimeline_attempt	*a, *b;
	size_t				 i;

	for (i = 0; i < e->n; i++) {
		b = &e->v[i];
		if ((a = log_attempt(o, b->restart)) == NULL)
			continue;
		if (b->gate_first >= 0 && (a->gate_first < 0 ||
		    b->gate_first < a->gate_first))
			a->gate_first = b->gate_first;
		if (b->gate_last > a->gate_last)
			a->gate_last = b->gate_last;
		a->watchdog_hang |= b->watchdog_hang;
		a->crashed |= b->crashed;
		a->stopped |= b->stopped;
	}
}

/* Read LF into T, then finish it; 0 or an errno value. */
static int
read_log(struct logtimeline *t, struct logfile *lf)
{
	int	 rc = 0;

	if (lf->fd != -1)
		rc = logtimeline_feed(t, lf);
	logtimeline_finish(t);
	return rc;
}

/* Was S's end a failure of its own (not from outside)? */
static bool
failed_state(const char *state)
{
	return strcmp(state, "FAILED") == 0 ||
	    strcmp(state, "OUT_OF_MEMORY") == 0 ||
	    strcmp(state, "BOOT_FAIL") == 0;
}

/* Attempt A from log attempt L (NULL: it logged nothing) and Slurm's
 * state STATE of it. */
static void
attempt_fill(struct goodput_attempt *a, const struct logtimeline_attempt *l,
    const char *state, double median)
{
	a->gate_first = a->gate_last = -1;
	a->first_work = a->last_progress = -1;
	a->median_step = median;
	a->ended = failed_state(state) ? GOODPUT_END_FAILED :
	    GOODPUT_END_STOPPED;
	if (l == NULL)
		return;
	a->gate_first = l->gate_first;
	a->gate_last = l->gate_last;
	a->watchdog_hang = l->watchdog_hang;
	if (l->crashed)
		a->ended = GOODPUT_END_FAILED;
	a->niters = l->niters;
	if (l->niters == 0)
		return;
	a->first_work = l->first_work;
	a->last_progress = l->last_progress;
	a->resumed = l->resumed;
	a->last_iter = l->last_iter;
	a->work = l->work;
	a->saves = l->saves;
	a->nsaves = l->nsaves;
	a->save_seconds = l->save_seconds;
	if (l->total > 0 && l->last_iter >= l->total)
		a->ended = GOODPUT_END_FINISHED;
}

static struct goodput_attempt *
attempt_add(struct run *r)
{
	r->v = xreallocarray(r->v, r->n + 1, sizeof *r->v);
	memset(&r->v[r->n], 0, sizeof r->v[0]);
	return &r->v[r->n++];
}

/*
 * What accounting keeps of job ID into *LIST: every attempt (STEPS
 * false) or every step of every attempt; the back end's, else sacct's
 * (the sbatch back end's).  An error when accounting cannot say.
 */
static struct error *
accounting(const struct backend *be, struct backend_ctx *ctx,
    const struct job *job, int64_t id, bool steps, struct job_list *list)
{
	const struct backend	*sb = be;
	struct backend_ctx	*sctx = ctx;
	struct error		*err;

	if ((steps ? be->steps : be->attempts) == NULL) {
		sb = &backend_sbatch;
		if ((err = cmd_backend_open(sb, job, 0, &sctx)) != NULL)
			return err;
	}
	err = (steps ? sb->steps : sb->attempts)(sctx, id, list);
	if (sctx != ctx)
		sb->close(sctx);
	return err;
}

/* Every attempt of job ID that started, in the order they started,
 * into *LIST (accounting()). */
static struct error *
slurm_attempts(const struct backend *be, struct backend_ctx *ctx,
    const struct job *job, int64_t id, struct job_list *list)
{
	struct job_list		 all = { NULL, 0 };
	struct error		*err;
	size_t			 i;

	memset(list, 0, sizeof *list);
	if ((err = accounting(be, ctx, job, id, false, &all)) != NULL) {
		job_list_release(&all);
		return err;
	}
	for (i = 0; i < all.n; i++)
		if (all.v[i].job_id == id && job_time(all.v[i].start_time) >
		    0) {
			*job_list_add(list) = all.v[i];
			memset(&all.v[i], 0, sizeof all.v[i]);
		}
	job_list_release(&all);
	if (list->n > 1)
		qsort(list->v, list->n, sizeof list->v[0], by_start);
	return NULL;
}

/* The node gate's srun step, as the templates name it. */
#define GATE_STEP	"mbsbatch-gate"

/*
 * The N attempts A of job ID: their gate from Slurm's record of the
 * gate's steps (each in the attempt it started in), which the step's
 * own lines, undated, cannot say.  Without accounting, the log's.
 */
static void
slurm_gates(const struct backend *be, struct backend_ctx *ctx,
    const struct job *job, int64_t id, struct goodput_attempt *a, size_t n)
{
	struct job_list	 steps = { NULL, 0 };
	struct error	*err;
	double		 b, e;
	bool		*seen = xcalloc(n + 1, sizeof *seen);
	size_t		 i, k;

	if ((err = accounting(be, ctx, job, id, true, &steps)) != NULL)
		error_free(err);
	for (i = 0; i < steps.n; i++) {
		if (steps.v[i].name == NULL ||
		    strcmp(steps.v[i].name, GATE_STEP) != 0 ||
		    (b = (double)job_time(steps.v[i].start_time)) <= 0)
			continue;
		e = (double)job_time(steps.v[i].end_time);
		for (k = 0; k < n; k++)
			if (b >= a[k].start && b <= a[k].end)
				break;
		if (k == n)
			continue;
		if (e < b || e > a[k].end)
			e = a[k].end;
		if (!seen[k] || b < a[k].gate_first)
			a[k].gate_first = b;
		if (!seen[k] || e > a[k].gate_last)
			a[k].gate_last = e;
		seen[k] = true;
	}
	free(seen);
	job_list_release(&steps);
}

/* The end of S, or now while it runs. */
static double
end_of(const struct job_status *s, double now)
{
	int64_t	 e = job_time(s->end_time);

	return e > 0 && e >= job_time(s->start_time) ? (double)e : now;
}

/*
 * The attempts of a job as accounting has them (LIST, in the order they
 * started), each with its log's attempt of the same restart count in T,
 * added to R.  *READY: when the first could have started (< 0: its
 * submission); then the last's end.
 */
static void
from_accounting(struct run *r, struct logtimeline *t,
    const struct job_list *list, double now, double *ready)
{
	struct goodput_attempt	*a;
	double			 prev_end;
	size_t			 i;

	/* Ready once queued and its chain predecessor had ended. */
	prev_end = (double)job_time(list->v[0].submit_time);
	if (*ready > prev_end)
		prev_end = *ready;
	for (i = 0; i < list->n; i++) {
		a = attempt_add(r);
		attempt_fill(a, log_attempt(t, (int64_t)i), list->v[i].state,
		    t->median_step);
		a->nodes = list->v[i].nodes > 0 ? list->v[i].nodes : 1;
		a->start = (double)job_time(list->v[i].start_time);
		a->end = end_of(&list->v[i], now);
		a->ready = prev_end > 0 ? prev_end : -1;
		prev_end = a->end;
	}
	*ready = prev_end;
}

/*
 * Without accounting: the last attempt is slurmctld's record REC, the
 * earlier ones of a requeued job run in the log T from their restart
 * line (without one, their first dated line) to the next one's, on
 * REC's nodes; added to R, READY as for from_accounting().
 */
static void
from_slurmctld(struct run *r, struct logtimeline *t,
    const struct job_status *rec, double now, double *ready)
{
	struct goodput_attempt	*a;
	int64_t			 nodes = rec->nodes > 0 ? rec->nodes : 1;
	double			 next;
	size_t			 i;

	for (i = 0; i + 1 < t->n; i++) {
		next = t->v[i + 1].mark >= 0 ? t->v[i + 1].mark :
		    t->v[i + 1].first_time;
		if (t->v[i].first_time < 0 || next < t->v[i].first_time)
			continue;
		a = attempt_add(r);
		attempt_fill(a, &t->v[i], "REQUEUED", t->median_step);
		a->nodes = nodes;
		a->start = t->v[i].mark >= 0 ? t->v[i].mark :
		    t->v[i].first_time;
		a->end = next;
		a->ready = *ready;
		*ready = a->end;
		r->from_log = true;
	}
	a = attempt_add(r);
	attempt_fill(a, t->n > 0 ? &t->v[t->n - 1] : NULL, rec->state,
	    t->median_step);
	a->nodes = nodes;
	a->start = (double)job_time(rec->start_time);
	a->end = end_of(rec, now);
	a->ready = *ready >= 0 ? *ready : r->n == 1 ?
	    (double)job_time(rec->submit_time) : -1;
	*ready = a->end;
}

/*
 * Job REF's attempts added to R: Slurm's record of each (accounting),
 * or, without accounting, its last from slurmctld and the earlier ones
 * from the log's restart lines; the log of each.  READY: when the job
 * could have started (its chain predecessor's end), < 0 for its
 * submission.
 */
static struct error *
run_job(const struct backend *be,
    struct backend_ctx *ctx, const struct job *job, const struct job_ref *ref,
    double *ready, struct run *r)
{
	struct logtimeline	*t, e;
	struct logfile		 out, errf;
	struct job_status	 rec;
	struct job_list		 list;
	struct error		*err, *aerr;
	char			*path = NULL;
	double			 now = (double)time(NULL);
	size_t			 first;
	int			 rc;

	if ((err = cmd_job_logs("report", be, ctx, job->cluster, ref, &rec,
	    &path, &out, &errf)) != NULL)
		return err;
	/* Not started: nothing allocated (a chain's job still waiting, or
	 * cancelled before it ran). */
	if (out.fd == -1 && rec.source != JOB_SOURCE_RECORD) {
		job_status_release(&rec);
		free(path);
		return NULL;
	}
	if (rec.source == JOB_SOURCE_RECORD) {
		err = error_new(EXIT_FAILURE_OP, "report: job %lld: Slurm no "
		    "longer knows when it ran: slurmctld has forgotten it and "
		    "accounting does not answer", (long long)ref->id);
		logfile_close(&out);
		logfile_close(&errf);
		job_status_release(&rec);
		free(path);
		return err;
	}
	r->logs = xreallocarray(r->logs, r->nlogs + 1, sizeof *r->logs);
	t = &r->logs[r->nlogs++];
	logtimeline_init(t);
	logtimeline_init(&e);
	rc = read_log(t, &out);
	if (rc == 0 && errf.fd != -1 && (rc = read_log(&e, &errf)) == 0)
		merge_err(t, &e);
	logtimeline_release(&e);
	logfile_close(&out);
	logfile_close(&errf);
	if (rc != 0) {
		err = error_new(EXIT_FAILURE_OP, "report: %s: %s", path,
		    strerror(rc));
		goto out;
	}
	r->jobs = xreallocarray(r->jobs, r->njobs + 1, sizeof *r->jobs);
	r->jobs[r->njobs++] = ref->id;

	/* An array's task: slurmctld's record only (sacct is asked by the
	 * array's id). */
	memset(&list, 0, sizeof list);
	aerr = ref->task < 0 ? slurm_attempts(be, ctx, job, ref->id, &list) :
	    NULL;
	if (aerr == NULL && list.n > 0) {
		first = r->n;
		from_accounting(r, t, &list, now, ready);
		slurm_gates(be, ctx, job, ref->id, r->v + first, r->n - first);
	} else if (job_time(rec.start_time) > 0)
		from_slurmctld(r, t, &rec, now, ready);
	error_free(aerr);
	job_list_release(&list);
out:
	job_status_release(&rec);
	free(path);
	return err;
}

/* The jobs of the chain that starts at ROOT, in order: each the newest
 * recorded to follow the one before (submit --chain records it). */
static struct error *
chain_jobs(const struct job *job, int64_t root, int64_t **ids, size_t *n)
{
	struct submitted	 s;
	struct error		*err;
	bool			 found;
	int64_t			 id = root;

	*ids = xcalloc(1, sizeof **ids);
	(*ids)[0] = root;
	*n = 1;
	while (*n < REPORT_MAX_CHAIN) {
		if ((err = submitted_find_next(job->cluster, id, &s,
		    &found)) != NULL)
			return err;
		if (!found)
			break;
		id = s.job_id;
		submitted_release(&s);
		*ids = xreallocarray(*ids, *n + 1, sizeof **ids);
		(*ids)[(*n)++] = id;
	}
	return NULL;
}

static json_t *
goodput_json(const struct goodput *g, const struct run *r)
{
	json_t	*o, *lost, *jobs;
	size_t	 i;
	int	 c;

	lost = json_object();
	for (c = 0; c < GP_NCAUSES; c++)
		json_object_set_new(lost, goodput_cause_names[c],
		    json_real(g->lost[c]));
	jobs = json_array();
	for (i = 0; r != NULL && i < r->njobs; i++)
		json_array_append_new(jobs, json_integer(r->jobs[i]));
	o = json_pack("{s:o,s:I,s:f,s:f,s:f,s:o,s:o,s:f,s:{s:I,s:I},s:s}",
	    "jobs", jobs,
	    "attempts", (json_int_t)g->attempts,
	    "ettr", g->ettr,
	    "allocated_node_seconds", g->allocated,
	    "productive_node_seconds", g->productive,
	    "lost_node_seconds", lost,
	    "queue_seconds", g->queue_known ? json_real(g->queue) :
	    json_null(),
	    "overrun_node_seconds", g->overrun,
	    "iterations", "kept", (json_int_t)g->kept_iters,
	    "lost", (json_int_t)g->lost_iters,
	    "attempt_times", r != NULL && r->from_log ? "log" :
	    "accounting");
	return o;
}

static const char *const cause_words[GP_NCAUSES] = {
	"start-up", "gate", "hangs", "lost work", "checkpoint saves",
	"restarts", "other"
};

static void
goodput_print(const char *what, const struct goodput *g,
    const struct run *r)
{
	double	 pct;
	int	 c;

	printf("%s: %lld attempt%s, ETTR %.3f (%.1f%% of %.0f node-seconds "
	    "trained)\n", what, (long long)g->attempts, g->attempts == 1 ?
	    "" : "s", g->ettr, 100 * g->ettr, g->allocated);
	for (c = 0; c < GP_NCAUSES; c++) {
		pct = g->allocated > 0 ? 100 * g->lost[c] / g->allocated : 0;
		printf("  %-17s %10.1f node-s %5.1f%%\n", cause_words[c],
		    g->lost[c], pct);
	}
	if (g->overrun > 0)
		printf("  (the logs' times overrun the allocation by %.0f "
		    "node-s)\n", g->overrun);
	if (g->queue_known)
		printf("  queue wait        %10.0f s (apart: not allocated)\n",
		    g->queue);
	else
		printf("  queue wait        not known\n");
	printf("  iterations        %lld kept, %lld lost\n",
	    (long long)g->kept_iters, (long long)g->lost_iters);
	if (r != NULL && r->from_log)
		printf("  (earlier attempts' times from the log's restart "
		    "lines: accounting did not say)\n");
}

/* The runs RUNS (N of them, each its jobs), reported under WHAT; JSON:
 * ID's, and with a total when there are several. */
static struct error *
report_print(const char *what, int64_t id, struct run *runs, size_t n,
    bool json)
{
	struct goodput	 g, total;
	struct error	*err = NULL;
	const char	*why;
	json_t		*o = NULL, *each;
	char		 name[64];
	size_t		 i;
	int		 c;

	memset(&total, 0, sizeof total);
	total.queue_known = true;
	each = json_array();
	for (i = 0; i < n; i++) {
		if ((why = goodput_compute(runs[i].v, runs[i].n, &g)) != NULL) {
			err = error_new(EXIT_FAILURE_OP, "report: job %lld: %s",
			    (long long)runs[i].jobs[0], why);
			goto out;
		}
		total.attempts += g.attempts;
		total.allocated += g.allocated;
		total.productive += g.productive;
		for (c = 0; c < GP_NCAUSES; c++)
			total.lost[c] += g.lost[c];
		total.overrun += g.overrun;
		total.queue += g.queue;
		total.queue_known &= g.queue_known;
		total.kept_iters += g.kept_iters;
		total.lost_iters += g.lost_iters;
		if (json)
			json_array_append_new(each, goodput_json(&g, &runs[i]));
		else if (n > 1) {
			snprintf(name, sizeof name, "job %lld",
			    (long long)runs[i].jobs[0]);
			goodput_print(name, &g, &runs[i]);
		}
	}
	total.ettr = total.allocated > 0 ? total.productive / total.allocated :
	    0;
	if (!json) {
		goodput_print(what, &total, n == 1 ? &runs[0] : NULL);
		goto out;
	}
	o = goodput_json(&total, n == 1 ? &runs[0] : NULL);
	if (id > 0)
		json_object_set_new(o, "job_id", json_integer(id));
	if (n > 1)
		json_object_set(o, "runs", each);
	err = jsondoc_print(stdout, o, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_REAL_PRECISION(10));
out:
	json_decref(o);
	json_decref(each);
	return err;
}

static struct error *
cmd_report_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const char		*journal = cmd_value(self, args, "journal");
	bool			 chain = cmd_value(self, args, "chain") != NULL;
	bool			 json = cmd_value(self, args, "json") != NULL;
	const struct backend	*be = NULL;
	struct backend_ctx	*ctx = NULL;
	struct resume_plan	 plan;
	struct job		 job;
	struct job_ref		 ref;
	struct run		*runs = NULL;
	struct error		*err;
	int64_t			*ids = NULL, id = 0;
	size_t			 n = 0, nruns = 0, i;
	double			 ready;
	char			 what[96];

	*status = EXIT_OK;
	memset(&plan, 0, sizeof plan);
	if (journal != NULL && args->nargs > 0)
		return error_new(EXIT_USAGE, "report: give a JOBID or "
		    "--journal FILE, not both");
	if (journal != NULL && chain)
		return error_new(EXIT_USAGE, "report: --chain takes a JOBID, "
		    "not --journal FILE");
	if (journal == NULL && (err = cmd_job_id("report", args, &id)) != NULL)
		return err;
	if (journal != NULL && (err = cmd_journal_plan(journal, &plan,
	    NULL)) != NULL)
		return err;
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL) {
		resume_plan_release(&plan);
		return err;
	}
	if (chain)
		err = chain_jobs(&job, id, &ids, &n);
	else if (journal == NULL) {
		ids = xcalloc(1, sizeof *ids);
		ids[0] = id;
		n = 1;
	}
	if (err != NULL)
		goto out;

	if (journal == NULL) {
		/* One run: a job, or a chain's jobs one after another. */
		runs = xcalloc(1, sizeof *runs);
		nruns = 1;
		ready = -1;
		for (i = 0; i < n && err == NULL; i++) {
			ref.id = ids[i];
			ref.task = -1;
			err = run_job(be, ctx, &job, &ref, &ready,
			    &runs[0]);
		}
		if (err == NULL && runs[0].n == 0)
			err = error_new(EXIT_FAILURE_OP, "report: job %lld has "
			    "not started: nothing allocated yet",
			    (long long)id);
		snprintf(what, sizeof what, chain ? "chain %lld (%zu job%s)" :
		    "job %lld", (long long)id, runs[0].njobs,
		    runs[0].njobs == 1 ? "" : "s");
	} else {
		runs = xcalloc((size_t)plan.npoints + 1, sizeof *runs);
		for (i = 0; i < (size_t)plan.npoints && err == NULL; i++) {
			if (plan.jobs[i].job_id == 0)
				continue;
			ref.id = plan.jobs[i].job_id;
			ref.task = plan.jobs[i].task;
			ready = -1;
			err = run_job(be, ctx, &job, &ref, &ready,
			    &runs[nruns]);
			if (err == NULL && runs[nruns].n > 0)
				nruns++;
			else
				run_release(&runs[nruns]);
		}
		if (err == NULL && nruns == 0)
			err = error_new(EXIT_FAILURE_OP, "report: sweep %s: no "
			    "job of journal '%s' has started", plan.id,
			    journal);
		snprintf(what, sizeof what, "sweep %s (%zu job%s)", plan.id,
		    nruns, nruns == 1 ? "" : "s");
	}
	if (err == NULL)
		err = report_print(what, journal == NULL ? id : 0, runs, nruns,
		    json);
out:
	for (i = 0; i < nruns; i++)
		run_release(&runs[i]);
	free(runs);
	free(ids);
	be->close(ctx);
	job_release(&job);
	resume_plan_release(&plan);
	return err;
}
