/*
 * jobfiles.c: where a job writes, from Slurm and the record of what was
 * submitted; see jobfiles.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "jobdesc.h"
#include "jobfiles.h"
#include "logpath.h"
#include "submitted.h"
#include "xmalloc.h"

/* Releases whose accounting keeps where a job wrote (slurmdb_job_rec_t
 * std_out, std_err: slurm/slurmdb.h from 24.05). */
#define DBD_PATHS_RELEASE	2405
/* From 25.11 a client expands with slurmstepd's own function
 * (common/print_fields.c expand_stdio_fields()); before, scontrol and
 * REST v0.0.40-42 with api/job_info.c _fname_format(), which replaces
 * only %A %a %j %u %x (from 24.05 %b, widths, and "%%" into "%"). */
#define SAME_EXPANSION_RELEASE	2511

void
jobfiles_release(struct jobfiles *f)
{
	free(f->out);
	free(f->err);
	free(f->why);
	memset(f, 0, sizeof *f);
}

static bool
agree(const char *a, const char *b)
{
	return a == NULL || b == NULL || strcmp(a, b) == 0;
}

/*
 * The record of S's job (an array's, for its task), when it is this
 * job: the same working directory, user and kind.  A cluster whose job
 * ids started again (its state wiped) gives another job the same id.
 */
static bool
record_of(const char *cluster, const struct job_status *s,
    struct submitted *rec)
{
	struct error	*err;
	bool		 found;

	err = submitted_find(cluster, s->array_job_id != 0 ? s->array_job_id :
	    s->job_id, rec, &found);
	if (err != NULL) {
		error_free(err);
		return false;
	}
	if (found && agree(rec->workdir, s->work_dir) &&
	    agree(rec->user, s->user) &&
	    (rec->array != NULL) == (s->array_job_id != 0))
		return true;
	submitted_release(rec);
	return false;
}

/* Where one file's path comes from. */
enum source {
	SRC_PATH,	/* a path Slurm expanded, taken as it is */
	SRC_PATTERN,	/* a pattern, expanded here */
	SRC_UNKNOWN
};

struct stream {
	enum source	 src;
	const char	*text;		/* the path or pattern (NULL pattern:
					   Slurm's default) */
	bool		 with_out;	/* the error only: with the output */
};

/* O and E from SRC: OUT and ERR, the error with the output when it
 * names none or the same. */
static void
use(struct stream *o, struct stream *e, enum source src, const char *out,
    const char *err)
{
	o->src = e->src = src;
	o->text = out;
	e->text = err;
	e->with_out = err == NULL || (out != NULL && strcmp(out, err) == 0);
}

/*
 * Is S's path, expanded by Slurm's client, the file slurmstepd opened?
 * From 25.11 one function wrote both (and a release not known is taken
 * as the newest).  Before, the client replaced some letters only, and
 * what it left for slurmstepd (a '%', a backslash) cannot be told from
 * what it put in (a '%' in the job name, "%%"): right only when nothing
 * is left, and there is nothing BETTER (the patterns) anyway.
 */
static bool
expansion_right(const struct job_status *s, bool better)
{
	if (s->release == 0 || s->release >= SAME_EXPANSION_RELEASE)
		return true;
	if (better)
		return false;
	return strpbrk(s->std_out != NULL ? s->std_out : "", "%\\") ==
	    NULL && strpbrk(s->std_err != NULL ? s->std_err : "", "%\\") ==
	    NULL;
}

/*
 * Where S's output (O) and error (E) come from: Slurm's patterns, its
 * expansion when right, the record's patterns (REC, or NULL), the back
 * end's (RAW_OUT, RAW_ERR, when RAW), what is left of its expansion,
 * else nothing (accounting before 24.05 keeps no path).
 */
static void
sources(const struct job_status *s, const struct submitted *rec,
    const char *raw_out, const char *raw_err, bool raw, struct stream *o,
    struct stream *e)
{
	bool	 no_path = s->source == JOB_SOURCE_DBD && s->release != 0 &&
		    s->release < DBD_PATHS_RELEASE;

	memset(o, 0, sizeof *o);
	memset(e, 0, sizeof *e);
	if (!no_path && !s->std_expanded)
		use(o, e, SRC_PATTERN, s->std_out, s->std_err);
	else if (!no_path && expansion_right(s, rec != NULL || raw))
		use(o, e, s->std_out != NULL ? SRC_PATH : SRC_PATTERN,
		    s->std_out, s->std_err);
	else if (rec != NULL) {
		use(o, e, SRC_PATTERN, rec->out.pattern, rec->err.pattern);
		e->with_out = rec->err_with_out;
	} else if (raw)		/* as squeue shows them */
		use(o, e, SRC_PATTERN, raw_out, raw_err);
	else if (no_path)
		use(o, e, SRC_UNKNOWN, NULL, NULL);
	else
		use(o, e, SRC_PATTERN, s->std_out, s->std_err);
}

/* Does PATTERN need J's node's host name, not asked yet? */
static bool
needs_host(const char *pattern, const struct logpath_job *j)
{
	return j->node != NULL && j->node_host == NULL && j->release != 0 &&
	    j->release < SAME_EXPANSION_RELEASE &&
	    logpath_names(pattern, "N", j->release);
}

/* J for S (and REC where Slurm does not say): what the patterns need. */
static void
facts(const struct job_status *s, const struct submitted *rec,
    const char *node, struct logpath_job *j)
{
	memset(j, 0, sizeof *j);
	j->release = s->release != 0 ? s->release : rec != NULL ?
	    rec->release : 0;
	j->job_id = (uint32_t)s->job_id;
	j->array_task_id = LOGPATH_NO_TASK;
	if (s->array_job_id != 0) {
		j->array_job_id = (uint32_t)s->array_job_id;
		if (s->array_task_id >= 0)
			j->array_task_id = (uint32_t)s->array_task_id;
	}
	j->restart_cnt = (uint32_t)s->restart_cnt;
	j->name = s->name != NULL ? s->name : rec != NULL ? rec->name : NULL;
	j->user = s->user != NULL ? s->user : rec != NULL ? rec->user : NULL;
	j->work_dir = s->work_dir != NULL ? s->work_dir : rec != NULL ?
	    rec->workdir : NULL;
	j->node = node;
	j->sluid = s->sluid;
}

/* PATTERN for J; a task not started has no job id of its own yet. */
static char *
expand(const char *pattern, struct logpath_job *j, const struct job_status *s,
    bool *complete)
{
	j->any_task = s->array_job_id != 0 && (s->array_task_id < 0 ||
	    (s->job_id == s->array_job_id && strcmp(s->state, "PENDING") == 0 &&
	    pattern != NULL && logpath_names_job_id(pattern, j->release)));
	return logpath_expand(pattern, j, complete);
}

/* One stream's path into *PATH, *COMPLETE. */
static void
stream_path(const struct stream *st, struct logpath_job *j,
    const struct job_status *s, char **path, bool *complete)
{
	*complete = true;
	if (st->src == SRC_PATH) {
		if (st->text[0] == '/' || j->work_dir == NULL)
			*path = xstrdup(st->text);
		else
			*path = xasprintf("%s/%s", j->work_dir, st->text);
		/* A job not started: Slurm's code writes "(null)" for its
		 * node (print_fields.c, first_step_node NULL). */
		*complete = s->batch_host != NULL ||
		    strstr(st->text, "(null)") == NULL;
		return;
	}
	*path = expand(st->text, j, s, complete);
}

/* The record, with what was found (the node of a job now started). */
static void
remember(struct submitted *rec, const struct jobfiles *f)
{
	struct error	*err;

	if (!f->out_complete || (!f->err_complete && f->err != NULL) ||
	    (rec->out.path != NULL && strcmp(rec->out.path, f->out) == 0 &&
	    (rec->err_with_out || (rec->err.path != NULL && f->err != NULL &&
	    strcmp(rec->err.path, f->err) == 0))))
		return;
	free(rec->out.path);
	rec->out.path = xstrdup(f->out);
	free(rec->err.path);
	rec->err.path = f->err != NULL && !rec->err_with_out ?
	    xstrdup(f->err) : NULL;
	if ((err = submitted_add(rec)) != NULL)
		error_free(err);	/* the record stays as it was */
}

void
jobfiles_find(const struct backend *be, struct backend_ctx *ctx,
    const char *cluster, const struct job_status *s, struct jobfiles *f)
{
	struct submitted	 rec;
	struct logpath_job	 j;
	struct stream		 o, e;
	struct error		*err;
	char			*raw_out = NULL, *raw_err = NULL, *node;
	char			*host = NULL, *sluid = NULL;
	bool			 have_rec, raw = false;

	memset(f, 0, sizeof *f);
	have_rec = record_of(cluster, s, &rec);
	/* A client before 25.11 half-expanded them: the patterns. */
	if (!have_rec && s->std_expanded && s->source == JOB_SOURCE_CTLD &&
	    be->patterns != NULL && !expansion_right(s, false)) {
		err = be->patterns(ctx, s->array_task_id >= 0 ?
		    s->array_job_id : s->job_id, s->array_task_id, &raw_out,
		    &raw_err);
		raw = err == NULL && raw_out != NULL;
		error_free(err);
	}
	sources(s, have_rec ? &rec : NULL, raw_out, raw_err, raw, &o, &e);
	f->recorded = have_rec && o.text == rec.out.pattern &&
	    o.src == SRC_PATTERN;
	if (o.src == SRC_UNKNOWN) {
		f->why = xasprintf("the accounting of Slurm %d.%02d keeps "
		    "no output path, and mbsbatch has no record of job %lld",
		    s->release / 100, s->release % 100, (long long)(
		    s->array_job_id != 0 ? s->array_job_id : s->job_id));
		goto out;
	}
	/* Accounting keeps no batch host: the allocation's first node. */
	node = s->batch_host != NULL ? xstrdup(s->batch_host) :
	    s->source == JOB_SOURCE_DBD ? logpath_first_node(s->node_list) :
	    NULL;
	facts(s, have_rec ? &rec : NULL, node, &j);
	if ((o.src == SRC_PATTERN && needs_host(o.text, &j)) ||
	    (!e.with_out && e.src == SRC_PATTERN && needs_host(e.text, &j))) {
		if ((err = be->node_host(ctx, node, &host)) != NULL)
			error_free(err);
		j.node_host = host;
	}
	/* 25.11's %S, where accounting's answer had no SLUID (sacct). */
	if (j.sluid == NULL && be->sluid != NULL && s->job_id > 0 &&
	    (j.release == 0 || j.release >= SAME_EXPANSION_RELEASE) &&
	    ((o.src == SRC_PATTERN &&
	    logpath_names(o.text, "S", j.release)) ||
	    (!e.with_out && e.src == SRC_PATTERN &&
	    logpath_names(e.text, "S", j.release)))) {
		if ((err = be->sluid(ctx, s->job_id, &sluid)) != NULL)
			error_free(err);
		j.sluid = sluid;
	}
	stream_path(&o, &j, s, &f->out, &f->out_complete);
	f->err_complete = true;
	if (!e.with_out)
		stream_path(&e, &j, s, &f->err, &f->err_complete);
	if (have_rec && s->source != JOB_SOURCE_RECORD)
		remember(&rec, f);
	free(node);
	free(host);
	free(sluid);
out:
	free(raw_out);
	free(raw_err);
	if (have_rec)
		submitted_release(&rec);
}

bool
jobfiles_recorded(const char *cluster, const struct job_ref *ref,
    struct job_status *s, struct jobfiles *f, struct error **err)
{
	struct submitted	 rec;
	struct logpath_job	 j;
	bool			 found;

	memset(f, 0, sizeof *f);
	if ((*err = submitted_find(cluster, ref->id, &rec, &found)) != NULL ||
	    !found || (ref->task >= 0 && rec.array == NULL))
		goto none;
	memset(s, 0, sizeof *s);
	s->job_id = ref->id;
	s->array_task_id = -1;
	if (rec.array != NULL) {
		s->array_job_id = ref->id;
		s->array_task_id = ref->task;
	}
	s->release = rec.release;
	s->source = JOB_SOURCE_RECORD;
	s->name = rec.name != NULL ? xstrdup(rec.name) : NULL;
	s->user = rec.user != NULL ? xstrdup(rec.user) : NULL;
	s->work_dir = rec.workdir != NULL ? xstrdup(rec.workdir) : NULL;
	s->submit_time = rec.time;
	f->recorded = true;
	f->err_complete = true;
	facts(s, &rec, NULL, &j);
	if (rec.out.path != NULL && ref->task < 0) {
		/* As submit found it, or a command after it once it ran. */
		f->out = xstrdup(rec.out.path);
		f->out_complete = true;
		if (!rec.err_with_out && rec.err.path != NULL)
			f->err = xstrdup(rec.err.path);
		else if (!rec.err_with_out)
			f->err = logpath_expand(rec.err.pattern, &j,
			    &f->err_complete);
	} else {
		j.job_id = (uint32_t)ref->id;
		/* Any task of an array, or one whose own job id (%j) is not
		 * recorded: what depends on it stays as written. */
		j.any_task = rec.array != NULL && (ref->task < 0 ||
		    logpath_names_job_id(rec.out.pattern, rec.release) ||
		    logpath_names_job_id(rec.err.pattern, rec.release));
		f->out = logpath_expand(rec.out.pattern, &j, &f->out_complete);
		if (!rec.err_with_out)
			f->err = logpath_expand(rec.err.pattern, &j,
			    &f->err_complete);
	}
	submitted_release(&rec);
	return true;
none:
	if (found)
		submitted_release(&rec);
	return false;
}

/*
 * Q's job R with %S in a pattern: what Slurm says of it now (its SLUID,
 * or the paths its client expanded) into *F, when that is the whole
 * path.  An array's tasks each get their own, later.
 */
static void
ask_slurm(const struct jobfiles_queued *q, const struct submit_result *r,
    struct jobfiles *f)
{
	struct job_list	 list = { NULL, 0 };
	struct jobfiles	 g;
	struct error	*err;
	size_t		 i;

	if ((err = q->be->status(q->ctx, r->job_id, &list)) != NULL) {
		error_free(err);
		return;
	}
	for (i = 0; i < list.n; i++)
		if (list.v[i].job_id == r->job_id)
			break;
	if (i < list.n) {
		if (list.v[i].release == 0)
			list.v[i].release = r->release;
		jobfiles_find(q->be, q->ctx, q->cluster, &list.v[i], &g);
		if (g.out != NULL && g.out_complete && g.err_complete) {
			jobfiles_release(f);
			*f = g;
		} else
			jobfiles_release(&g);
	}
	job_list_release(&list);
}

void
jobfiles_queued(const struct jobfiles_queued *q,
    const struct submit_result *r, struct jobfiles *f, char **warn)
{
	const struct jobdesc	*d = q->desc;
	struct logpath_sub	 ls;
	struct submitted	 rec;
	struct error		*err;
	bool			 complete;

	*warn = NULL;
	memset(f, 0, sizeof *f);
	memset(&ls, 0, sizeof ls);
	ls.desc = d;
	ls.workdir = q->workdir;
	ls.user = q->user;
	ls.release = r->release;
	ls.job_id = r->job_id;
	ls.task = -1;
	logpath_submitted(&ls, &f->out, &f->err, &complete);
	f->out_complete = f->err_complete = complete;
	if (!complete && d->array == NULL && (r->release == 0 ||
	    r->release >= SAME_EXPANSION_RELEASE) &&
	    (logpath_names(d->output, "S", r->release) ||
	    logpath_names(d->error, "S", r->release)))
		ask_slurm(q, r, f);

	/* The record: the strings are only read. */
	memset(&rec, 0, sizeof rec);
	rec.job_id = r->job_id;
	rec.time = (int64_t)time(NULL);
	rec.cluster = (char *)q->cluster;
	rec.backend = (char *)q->be->name;
	rec.slurm = (char *)q->slurm;
	rec.release = r->release;
	rec.user = (char *)q->user;
	rec.name = (char *)(d->name != NULL ? d->name : "sbatch");
	rec.workdir = (char *)q->workdir;
	rec.array = d->array;
	rec.out.pattern = d->output;
	rec.out.path = f->out_complete ? f->out : NULL;
	rec.err_with_out = d->error == NULL;
	rec.err.pattern = d->error;
	rec.err.path = f->err_complete ? f->err : NULL;
	rec.after = q->after;
	if ((err = submitted_add(&rec)) != NULL) {
		*warn = xasprintf("job %lld is not recorded: %s",
		    (long long)r->job_id, err->msg);
		error_free(err);
	}
}
