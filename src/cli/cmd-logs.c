/*
 * cmd-logs.c: "mbsbatch logs JOBID[_TASK]": print or follow a job's
 * output (or error) file, found where Slurm says the job writes, its
 * patterns expanded as the cluster's slurmstepd does (logpath.h); or a
 * sweep point's ("--journal FILE --point N").  See mbsbatch-logs(1).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
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
#include "job.h"
#include "joblookup.h"
#include "jobfiles.h"
#include "jobview.h"
#include "journal.h"
#include "jsondoc.h"
#include "logcheck.h"
#include "logfile.h"
#include "logpath.h"
#include "number.h"
#include "resume.h"
#include "submitted.h"
#include "termtext.h"
#include "xmalloc.h"

static struct error *cmd_logs_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_logs_options[] = {
	{ "err", 0, NULL, "the job's error file, not its output", false },
	{ "follow", 'f', NULL, "print what is appended until the job ends",
	  false },
	{ "lines", 0, "N", "only the last N lines", false },
	{ "journal", 0, "FILE", "the sweep of --point: its journal", false },
	{ "point", 0, "N", "the sweep's point N (with --journal)", false },
	{ "json", 0, NULL, "print where the job writes, as one JSON object",
	  false },
	{ "check", 0, NULL, "judge the ended job's log as check-log does "
	  "(exit 0 pass, 3 fail)", false },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_logs_entry = {
	.name = "logs",
	.usage = "JOBID[_TASK] [--err] [-f] [--lines N] [--check] [--json] "
	    "[OPTIONS] | --journal FILE --point N [OPTIONS]",
	.summary = "Print or follow a job's output, or a sweep point's.",
	.options = cmd_logs_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_logs_exec,
};

/* How often -f reads the file, and asks Slurm how the job stands. */
#define FOLLOW_READ_MS		500
#define FOLLOW_ASK_READS	10	/* every 5 s */
/* A running job's file this host has not seen after this many asks is
 * on a disk of the node's own. */
#define FOLLOW_ABSENT_ASKS	3
/* Failed asks in a row that end following. */
#define FOLLOW_FAILED_ASKS	5

struct logs {
	const char		*cmd;		/* "logs", "status", "submit" */
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct job_ref		 ref;
	char			 name[48];	/* the job, as the user named it */
	struct job_status	 rec;		/* the record shown */
	bool			 err;		/* --err */
	bool			 quiet;
	const char		*cluster;	/* the profile, for the record */
	struct jobfiles		 files;		/* where it writes */
	char			*path;		/* the file shown */
	bool			 same;		/* --err: the output's file */
	bool			 complete;	/* path known in full */
};

/* Has the job L shows ended?  One Slurm forgot has. */
static bool
job_over(const struct job_status *s)
{
	return s->source == JOB_SOURCE_RECORD || job_state_ended(s->state);
}

/*
 * L->path, the file shown (--err: the error's, or the output's when the
 * errors go with it), from L->files; an error when where the job wrote
 * is not known.
 */
static struct error *
choose_path(struct logs *l)
{
	struct error	*err;
	char		*file;

	free(l->path);
	l->path = NULL;
	if (l->files.out == NULL) {
		err = error_new(EXIT_FAILURE_OP, "%s: job %s: where it wrote "
		    "is not known: %s", l->cmd, l->name, l->files.why);
		if ((file = submitted_file()) != NULL)
			error_hint(err, "mbsbatch records where each job it "
			    "submits writes, in %s", file);
		free(file);
		return err;
	}
	l->same = l->err && l->files.err == NULL;
	if (l->err && !l->same) {
		l->path = xstrdup(l->files.err);
		l->complete = l->files.err_complete;
	} else {
		l->path = xstrdup(l->files.out);
		l->complete = l->files.out_complete;
	}
	return NULL;
}

/* The first task of Slurm's list TASKS ("5", "5-9%2"), or -1. */
static int64_t
first_task(const char *tasks)
{
	char		*end;
	long long	 v;

	if (tasks == NULL || *tasks < '0' || *tasks > '9')
		return -1;
	v = strtoll(tasks, &end, 10);
	return *end == '\0' || *end == '-' || *end == ',' || *end == '%' ||
	    *end == ':' ? v : -1;
}

/*
 * The record of LIST that L shows: the only one; for an array named
 * without a task, its only task, else a usage error naming its tasks.
 * Moved into L->rec.
 */
static struct error *
pick_record(struct logs *l, struct job_list *list)
{
	struct buf	 tasks;
	struct error	*err;
	struct job_status *s, *only = NULL;
	int64_t		 n = 0, c, example = -1;
	size_t		 i;

	buf_init(&tasks);
	for (i = 0; i < list->n; i++) {
		s = &list->v[i];
		if (s->array_task_id >= 0 || s->array_tasks == NULL) {
			c = 1;
			if (s->array_task_id >= 0)
				buf_addf(&tasks, "%s%lld", tasks.len ? "," :
				    "", (long long)s->array_task_id);
			if (example < 0)
				example = s->array_task_id;
		} else {
			c = array_tasks_count(s->array_tasks);
			buf_addf(&tasks, "%s%s", tasks.len ? "," : "",
			    s->array_tasks);
			if (example < 0)
				example = first_task(s->array_tasks);
		}
		if (c == 1)
			only = s;
		n += c == 1 ? 1 : 2;	/* unreadable: more than one */
	}
	if (n != 1 || only == NULL) {
		err = error_new(EXIT_USAGE, "%s: job %s is a job array "
		    "(tasks %s): name one of its tasks", l->cmd, l->name,
		    tasks.len > 0 ? tasks.data : "unknown");
		error_hint(err, "each task writes its own log: 'mbsbatch "
		    "%s %lld_%lld%s'", l->cmd, (long long)l->ref.id,
		    (long long)(example >= 0 ? example : 0),
		    strcmp(l->cmd, "logs") == 0 ? "" : " --check");
		buf_release(&tasks);
		return err;
	}
	buf_release(&tasks);
	l->rec = *only;
	memset(only, 0, sizeof *only);
	if (l->rec.array_task_id < 0 && l->rec.array_tasks != NULL) {
		/* The only task, not started: as job_lookup gives a task. */
		l->rec.array_task_id = first_task(l->rec.array_tasks);
		l->rec.array_job_id = l->ref.id;
		free(l->rec.array_tasks);
		l->rec.array_tasks = NULL;
	}
	return NULL;
}

/*
 * Slurm no longer knows the job: the record of its submission (an
 * array's, without a task, only when it has one task), into L->rec and
 * L->files; ERR (consumed) when there is none.
 */
static struct error *
lookup_recorded(struct logs *l, struct error *err)
{
	struct job_list	 list = { NULL, 0 };
	struct job_status *s;
	struct job_ref	 ref = l->ref;
	struct error	*rerr = NULL;

	s = job_list_add(&list);
	if (!jobfiles_recorded(l->cluster, &ref, s, &l->files, &rerr)) {
		job_list_release(&list);
		if (rerr != NULL) {
			error_hint(err, "the record of submitted jobs: %s",
			    rerr->msg);
			error_free(rerr);
		}
		return err;
	}
	error_free(err);
	if ((err = pick_record(l, &list)) == NULL &&
	    l->rec.array_task_id >= 0 && ref.task < 0) {
		/* The array's only task: its own files. */
		ref.task = l->rec.array_task_id;
		jobfiles_release(&l->files);
		job_status_release(&l->rec);
		if (!jobfiles_recorded(l->cluster, &ref, &l->rec, &l->files,
		    &err))
			err = error_new(EXIT_FAILURE_OP, "%s: job %s: no "
			    "longer recorded", l->cmd, l->name);
	}
	job_list_release(&list);
	return err;
}

/* Ask Slurm about the job again: L->rec and L->path anew. */
static struct error *
lookup(struct logs *l)
{
	struct job_list	 list;
	struct error	*err;

	job_status_release(&l->rec);
	jobfiles_release(&l->files);
	if ((err = job_lookup(l->be, l->ctx, &l->ref, &list)) != NULL) {
		job_list_release(&list);
		if (!error_is(err, ERROR_NO_SUCH_JOB) ||
		    (err = lookup_recorded(l, err)) != NULL)
			return err;
		return choose_path(l);
	}
	err = pick_record(l, &list);
	job_list_release(&list);
	if (err != NULL)
		return err;
	jobfiles_find(l->be, l->ctx, l->cluster, &l->rec, &l->files);
	return choose_path(l);
}

static const char *
what(const struct logs *l)
{
	return l->err && !l->same ? "error file" : "output";
}

/*
 * Did job S end without ever running?  Slurm sets a start time on a job
 * cancelled while it pended: no batch host, no nodes tell it never ran
 * (accounting writes "None assigned").
 */
static bool
never_ran(const struct job_status *s)
{
	return job_state_ended(s->state) && s->batch_host == NULL &&
	    (s->node_list == NULL || *s->node_list == '\0' ||
	    strcmp(s->node_list, "None assigned") == 0);
}

/* Has job S not started (yet, or ever)?  A pending job's start time is
 * when Slurm expects to start it. */
static bool
not_started(const struct job_status *s)
{
	return s->source != JOB_SOURCE_RECORD && (strcmp(s->state,
	    "PENDING") == 0 || job_time(s->start_time) <= 0 || never_ran(s));
}

/* Why the file cannot be read here, errno E from open(2), as one line. */
static struct error *
open_error(const struct logs *l, int e)
{
	const struct job_status	*s = &l->rec;
	struct error		*err;
	char			 reason[160] = "";

	if (s->reason != NULL && strcmp(s->reason, "None") != 0)
		snprintf(reason, sizeof reason, " (%s)", s->reason);
	if (e == ENOENT && strcmp(s->state, "PENDING") == 0)
		return error_new(EXIT_FAILURE_OP, "%s: job %s is PENDING%s; "
		    "its %s will be %s", l->cmd, l->name, reason, what(l), l->path);
	if (e == ENOENT && never_ran(s))
		return error_new(EXIT_FAILURE_OP, "%s: job %s ended (%s) "
		    "before it started: it wrote no %s (%s)", l->cmd, l->name,
		    s->state, what(l), l->path);
	if (e == ENOENT || e == ENOTDIR) {
		err = error_new(EXIT_FAILURE_OP, "%s: job %s's %s %s is not "
		    "on this host", l->cmd, l->name, what(l), l->path);
		if (s->batch_host != NULL)
			error_hint(err, "the job ran on %s; its %s is there "
			    "when that directory is not shared with this "
			    "host", s->batch_host, what(l));
		return err;
	}
	return error_new(EXIT_FAILURE_OP, "%s: job %s's %s %s cannot be "
	    "read on this host: %s", l->cmd, l->name, what(l), l->path,
	    strerror(e));
}

/* Open the job's file PATH once, for this reader (logfile.h): 0, or
 * why not. */
static int
open_log(const struct logs *l, const char *path, struct logfile *lf)
{
	return logfile_open_job(lf, path, l->rec.user);
}

/* The error for CODE from open_log() of L's own file. */
static struct error *
log_error(const struct logs *l, int code, const struct logfile *lf)
{
	return code > 0 ? open_error(l, code) : logfile_refused(l->cmd,
	    l->name, what(l), l->path, code, lf);
}

/* What logfile_print() returned, RC, with WERR and HOLES, as an error
 * or NULL; the holes left out said on standard error. */
static struct error *
printed(const struct logs *l, int rc, int werr, uint64_t holes)
{
	char	 why[160];

	if (rc == LOGFILE_EWRITE)
		return error_new(EXIT_FAILURE_OP, "standard output: %s",
		    strerror(werr));
	if (rc != 0)
		return error_new(EXIT_FAILURE_OP, "%s: %s: %s", l->cmd,
		    l->path, logfile_why(rc, NULL, why, sizeof why));
	if (holes > 0 && !l->quiet)
		fprintf(stderr, "mbsbatch: %s: %s: %llu bytes of holes (never "
		    "written) left out\n", l->cmd, l->path,
		    (unsigned long long)holes);
	return NULL;
}

/* Print LF from *OFF to END. */
static struct error *
copy_out(const struct logs *l, struct logfile *lf, off_t *off, off_t end)
{
	uint64_t	 holes = 0;
	int		 rc, werr;

	rc = logfile_print(lf, off, end, stdout, &holes, &werr);
	return printed(l, rc, werr, holes);
}

/* LF from where --lines N (or the whole, N -1) starts, to its size when
 * opened. */
static struct error *
print_start(const struct logs *l, struct logfile *lf, int64_t n, off_t *off)
{
	uint64_t	 holes = 0;
	int		 rc, werr;

	rc = logfile_print_tail(lf, n, off, stdout, &holes, &werr);
	return printed(l, rc, werr, holes);
}

static void
nap(int ms)
{
	struct timespec	 ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/*
 * -f: print the file (its last N lines) and what is appended to it,
 * asking Slurm every few seconds how the job stands, until it has
 * ended; a pending job's file is waited for.  The file is opened once,
 * when it is there, and read through that descriptor.  Ctrl-C stops
 * following (the job goes on).
 */
static struct error *
follow(struct logs *l, int64_t n)
{
	struct error	*err = NULL;
	struct logfile	 lf;
	struct stat	 st;
	off_t		 off = 0;
	int		 e = 0, reads = 0, absent = 0, failed = 0;
	bool		 ended, said = false, last = false;

	lf.fd = -1;
	ended = job_over(&l->rec);
	for (;;) {
		if (lf.fd == -1) {
			if ((e = open_log(l, l->path, &lf)) != 0 &&
			    e != ENOENT && e != ENOTDIR) {
				err = log_error(l, e, &lf);
				break;
			}
			if (lf.fd != -1 && (err = print_start(l, &lf, n,
			    &off)) != NULL)
				break;
			if (lf.fd == -1 && !said && !l->quiet &&
			    strcmp(l->rec.state, "PENDING") == 0) {
				termtext_printf(stderr, "mbsbatch: logs: job "
				    "%s is PENDING; waiting for its %s %s\n",
				    l->name, what(l), l->path);
				said = true;
			}
		} else {
			if (fstat(lf.fd, &st) == -1) {
				err = error_new(EXIT_FAILURE_OP, "logs: %s: %s",
				    l->path, strerror(errno));
				break;
			}
			if (st.st_size < off) {
				if (!l->quiet)
					termtext_printf(stderr, "mbsbatch: "
					    "logs: %s: truncated; from its "
					    "start\n", l->path);
				off = 0;
			}
			if ((err = copy_out(l, &lf, &off, st.st_size)) != NULL)
				break;
		}
		if (last)
			break;
		if (ended) {
			/* Its last lines may land just after Slurm says it
			 * ended: one more read, a moment later. */
			if (lf.fd == -1) {
				err = open_error(l, e != 0 ? e : ENOENT);
				break;
			}
			last = true;
			nap(FOLLOW_READ_MS);
			continue;
		}
		nap(FOLLOW_READ_MS);
		if (++reads % FOLLOW_ASK_READS != 0)
			continue;
		if ((err = lookup(l)) != NULL) {
			/* Forgotten by slurmctld, no accounting: ended. */
			if (error_is(err, ERROR_NO_SUCH_JOB)) {
				error_free(err);
				err = NULL;
				ended = true;
				continue;
			}
			if (++failed < FOLLOW_FAILED_ASKS) {
				error_free(err);
				err = NULL;
				continue;
			}
			break;
		}
		failed = 0;
		ended = job_over(&l->rec);
		if (lf.fd == -1 && strcmp(l->rec.state, "PENDING") != 0 &&
		    ++absent >= FOLLOW_ABSENT_ASKS) {
			err = open_error(l, e != 0 ? e : ENOENT);
			break;
		}
	}
	logfile_close(&lf);
	return err;
}

/*
 * The job's error file beside its output, for --check: opened as the
 * output is, into *LF (fd -1: none to read).  Not there, or a device
 * (--error=/dev/null), it is left out; any other refusal is an error.
 */
static struct error *
open_errfile(const struct logs *l, const char *path, struct logfile *lf)
{
	int	 rc;

	rc = open_log(l, path, lf);
	if (rc == 0 || rc == ENOENT || rc == ENOTDIR || (rc ==
	    LOGFILE_ENOTREG && S_ISCHR(lf->st.st_mode)))
		return NULL;
	if (rc > 0)
		return error_new(EXIT_FAILURE_OP, "%s: job %s's error file %s "
		    "cannot be read on this host: %s", l->cmd, l->name, path,
		    strerror(rc));
	return logfile_refused(l->cmd, l->name, "error file", path, rc, lf);
}

/* Judge the job's output, then its error file (when it has one of its
 * own, known in full), into LC. */
static struct error *
check_files(struct logs *l, const struct job *plan, struct logcheck *lc)
{
	struct logfile	 out, errf;
	struct error	*err = NULL;
	const char	*errpath = l->files.err;
	int		 rc;

	errf.fd = -1;
	if ((rc = open_log(l, l->path, &out)) != 0)
		return log_error(l, rc, &out);
	if (errpath != NULL && l->files.err_complete &&
	    (err = open_errfile(l, errpath, &errf)) != NULL)
		goto out;
	logcheck_begin(lc);
	if ((rc = logcheck_feed(lc, &out)) != 0)
		err = error_new(EXIT_FAILURE_OP, "%s: %s: %s", l->cmd, l->path,
		    strerror(rc));
	else if (errf.fd != -1 && (rc = logcheck_feed(lc, &errf)) != 0)
		err = error_new(EXIT_FAILURE_OP, "%s: %s: %s", l->cmd,
		    errpath, strerror(rc));
	else
		err = logcheck_end(lc, plan, NULL);
out:
	logfile_close(&out);
	logfile_close(&errf);
	return err;
}

/* L for job REF of command CMD, looked up (lookup()). */
static struct error *
lookup_job(struct logs *l, const char *cmd, const struct backend *be,
    struct backend_ctx *ctx, const char *cluster, const struct job_ref *ref)
{
	memset(l, 0, sizeof *l);
	l->cmd = cmd;
	l->be = be;
	l->ctx = ctx;
	l->cluster = cluster;
	l->ref = *ref;
	job_ref_format(&l->ref, l->name, sizeof l->name);
	return lookup(l);
}

struct error *
cmd_check_job(const char *cmd, const struct backend *be,
    struct backend_ctx *ctx, const char *cluster, const struct job_ref *ref,
    const struct job *plan, json_t **report, int *status)
{
	struct logs	 l;
	struct logcheck	*lc = NULL;
	struct error	*err;

	*status = EXIT_USAGE;
	if ((err = lookup_job(&l, cmd, be, ctx, cluster, ref)) != NULL)
		goto out;
	if (!job_over(&l.rec)) {
		err = error_new(EXIT_FAILURE_OP, "%s: job %s is %s: --check "
		    "reads the log of a job that has ended", cmd, l.name,
		    l.rec.state);
		error_hint(err, "wait for it to end: 'mbsbatch status %s "
		    "--wait --check'", l.name);
		goto out;
	}
	lc = xmalloc(sizeof *lc);
	if ((err = check_files(&l, plan, lc)) != NULL)
		goto out;
	/* The guide's first criterion: the job itself ended with 0 (not
	 * known of a job Slurm forgot: its log alone is judged). */
	if (l.rec.source != JOB_SOURCE_RECORD && !job_ok(&l.rec)) {
		if (l.rec.exit_known && l.rec.exit_signal != 0)
			logcheck_fail(lc, "job ended %s (signal %d)",
			    l.rec.state, l.rec.exit_signal);
		else if (l.rec.exit_known)
			logcheck_fail(lc, "job ended %s with exit code %d",
			    l.rec.state, l.rec.exit_code);
		else
			logcheck_fail(lc, "job ended %s", l.rec.state);
	}
	*status = lc->status;
	if (report != NULL)
		*report = logcheck_json(l.path, lc);
	else if ((err = logcheck_unusable(l.path, lc)) == NULL)
		logcheck_print(stdout, l.path, lc);
out:
	free(lc);
	job_status_release(&l.rec);
	jobfiles_release(&l.files);
	free(l.path);
	return err;
}

struct error *
cmd_job_logs(const char *cmd, const struct backend *be, struct backend_ctx *ctx,
    const char *cluster, const struct job_ref *ref, struct job_status *rec,
    char **path, struct logfile *out, struct logfile *errf)
{
	struct logs	 l;
	struct error	*err;
	int		 rc;

	memset(rec, 0, sizeof *rec);
	*path = NULL;
	out->fd = errf->fd = -1;
	if ((err = lookup_job(&l, cmd, be, ctx, cluster, ref)) != NULL)
		goto out;
	/* Not started (pending, or cancelled before it ran): no file. */
	if (not_started(&l.rec))
		goto found;
	if ((rc = open_log(&l, l.path, out)) != 0) {
		err = log_error(&l, rc, out);
		goto out;
	}
	if (l.files.err != NULL && l.files.err_complete &&
	    (err = open_errfile(&l, l.files.err, errf)) != NULL) {
		logfile_close(out);
		goto out;
	}
found:
	*rec = l.rec;
	memset(&l.rec, 0, sizeof l.rec);
	*path = l.path;
	l.path = NULL;
out:
	job_status_release(&l.rec);
	jobfiles_release(&l.files);
	free(l.path);
	return err;
}

/* Point POINTV of the sweep whose journal is PATH: its job into L->ref
 * (and its task, packed into an array). */
static struct error *
journal_point(struct logs *l, const char *path, const char *pointv)
{
	struct resume_plan	 plan;
	struct error		*err = NULL;
	const char		*why;
	int64_t			 point;

	if ((err = cmd_journal_plan(path, &plan, NULL)) != NULL)
		return err;
	if ((why = number_parse_int(pointv, 0, plan.npoints - 1, &point)))
		err = error_new(EXIT_USAGE, "--point: '%s' %s (sweep %s of "
		    "journal '%s' has %lld point%s, from 0)", pointv, why,
		    plan.id, path, (long long)plan.npoints,
		    plan.npoints == 1 ? "" : "s");
	else if (plan.jobs[point].job_id == 0)
		err = error_new(EXIT_FAILURE_OP, "logs: journal '%s' records "
		    "no job for point %lld: it was skipped, or is not queued "
		    "yet", path, (long long)point);
	else {
		l->ref.id = plan.jobs[point].job_id;
		l->ref.task = plan.jobs[point].task;
	}
	resume_plan_release(&plan);
	return err;
}

/* O (released) on stdout, or an error. */
static struct error *
print_json_value(json_t *o, size_t flags)
{
	struct error	*err = jsondoc_print(stdout, o, flags);

	json_decref(o);
	return err;
}

static struct error *
print_json(const struct logs *l)
{
	const struct job_status	*s = &l->rec;
	json_t			*o;

	o = json_pack("{s:I,s:o,s:o,s:o,s:s?,s:s?,s:s,s:o,s:s,s:s,s:b}",
	    "job_id", (json_int_t)s->job_id,
	    "array_job_id", s->array_job_id != 0 ?
	    json_integer(s->array_job_id) : json_null(),
	    "array_task_id", s->array_task_id >= 0 ?
	    json_integer(s->array_task_id) : json_null(),
	    "state", s->state[0] != '\0' ? json_string(s->state) :
	    json_null(), "reason", s->reason,
	    "batch_host", s->batch_host, "output", l->files.out,
	    "error", l->files.err != NULL ? json_string(l->files.err) :
	    json_null(),
	    "backend", l->be->name, "source", job_source_name(s->source),
	    "complete", l->files.out_complete && l->files.err_complete);
	if (o == NULL)
		return error_new(EXIT_FAILURE_OP, "logs: job %s: a path that "
		    "is not UTF-8", l->name);
	return print_json_value(o, JSON_INDENT(2));
}

static struct error *
cmd_logs_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const char	*journal = cmd_value(self, args, "journal");
	const char	*point = cmd_value(self, args, "point");
	const char	*linesv = cmd_value(self, args, "lines");
	const char	*why;
	struct logs	 l;
	struct job	 job;
	struct error	*err;
	int64_t		 n = -1;
	off_t		 off;
	bool		 json = cmd_value(self, args, "json") != NULL;
	bool		 f = cmd_value(self, args, "follow") != NULL;
	bool		 check = cmd_value(self, args, "check") != NULL;
	json_t		*report = NULL;
	struct logfile	 lf;
	int		 rc;

	*status = EXIT_OK;
	memset(&l, 0, sizeof l);
	l.cmd = "logs";
	l.err = cmd_value(self, args, "err") != NULL;
	l.quiet = args->quiet;
	if (linesv != NULL && (why = number_parse_int(linesv, 0,
	    INT64_C(1000000000), &n)) != NULL)
		return error_new(EXIT_USAGE, "--lines: '%s' %s (expected a "
		    "whole number from 0 to 1000000000)", linesv, why);
	if (check && (f || linesv != NULL || cmd_value(self, args, "err")))
		return error_new(EXIT_USAGE, "logs: --check reads the job's "
		    "whole output and error files: not with %s", f ? "-f" :
		    linesv != NULL ? "--lines" : "--err");
	if (json && (f || linesv != NULL))
		return error_new(EXIT_USAGE, "logs: --json prints where the "
		    "job writes, not its log: not with %s", f ? "-f" :
		    "--lines");
	if (point != NULL && journal == NULL)
		return error_new(EXIT_USAGE, "logs: --point N needs the "
		    "sweep's --journal FILE");
	if (journal != NULL && point == NULL)
		return error_new(EXIT_USAGE, "logs: --journal FILE needs "
		    "--point N: which point of the sweep");
	if (journal != NULL && args->nargs > 0)
		return error_new(EXIT_USAGE, "logs: give a JOBID or "
		    "--journal FILE --point N, not both");
	if (journal == NULL && args->nargs < 1)
		return error_new(EXIT_USAGE, "logs: which job? give its "
		    "JOBID (or JOBID_TASK), or --journal FILE --point N");
	if (journal != NULL)
		err = journal_point(&l, journal, point);
	else
		err = cmd_job_ref("logs", args, &l.ref);
	if (err != NULL)
		return err;
	job_ref_format(&l.ref, l.name, sizeof l.name);
	if (journal != NULL && args->verbose > 0)
		termtext_printf(stderr, "mbsbatch: logs: point %s of journal "
		    "'%s' is job %s\n", point, journal, l.name);

	if ((err = cmd_open_backend(args, &job, &l.be, &l.ctx)) != NULL)
		return err;
	l.cluster = job.cluster;
	if (check) {
		err = cmd_check_job("logs", l.be, l.ctx, l.cluster, &l.ref, NULL,
		    json ? &report : NULL, status);
		if (report != NULL && err == NULL)
			err = print_json_value(report, LOGCHECK_JSON_FLAGS);
		else
			json_decref(report);
		goto out;
	}
	if ((err = lookup(&l)) != NULL)
		goto out;
	if (l.err && l.same && !json && !args->quiet)
		termtext_printf(stderr, "mbsbatch: logs: job %s writes its "
		    "errors to its output, %s\n", l.name, l.path);
	if (json)
		err = print_json(&l);
	else if (f)
		err = follow(&l, n);
	else if ((rc = open_log(&l, l.path, &lf)) != 0)
		err = log_error(&l, rc, &lf);
	else {
		err = print_start(&l, &lf, n, &off);
		logfile_close(&lf);
	}
out:
	l.be->close(l.ctx);
	job_release(&job);
	job_status_release(&l.rec);
	jobfiles_release(&l.files);
	free(l.path);
	return err;
}
