/*
 * cmd-status.c: "mbsbatch status JOBID[_TASK]": where a job, a task or a
 * whole array stands, in Slurm's own state names whatever the back end,
 * from slurmctld or, once it forgot the job, from accounting; with
 * --wait, until it ends; with --journal, every point of a sweep.  See
 * mbsbatch-status(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "joblookup.h"
#include "jobview.h"
#include "jobwait.h"
#include "journal.h"
#include "logcheck.h"
#include "resume.h"
#include "xmalloc.h"

static struct error *cmd_status_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_status_options[] = {
	{ "json", 0, NULL, "print one JSON object" },
	{ "wait", 0, NULL, "wait until the job ends; exit 0 only if it "
	  "completed" },
	{ "journal", 0, "FILE", "every point of the sweep that wrote FILE" },
	{ "check", 0, NULL, "then judge the ended job's log as check-log "
	  "does (the exit status is its verdict)" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_status_entry = {
	.name = "status",
	.usage = "JOBID[_TASK] [--check] | --journal FILE [--wait] [--json] "
	    "[OPTIONS]",
	.summary = "Show where a job stands: state, reason, nodes, exit code.",
	.options = cmd_status_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_status_exec,
};

/* LIST, the records of REF, on stdout; with JSON, CHECK (stolen, may be
 * NULL) as its "check". */
static struct error *
show(const struct job_ref *ref, const struct job_list *list,
    const char *backend, bool json, json_t *check)
{
	struct error	*err;
	json_t		*o;

	if (json) {
		if (list->n == 1 && (ref->task >= 0 ||
		    !job_list_is_array(list, ref->id)))
			o = job_status_json(&list->v[0], backend);
		else
			o = array_json(ref->id, list, backend);
		if (check != NULL)
			json_object_set_new(o, "check", check);
		err = jsondoc_print(stdout, o, check != NULL ?
		    LOGCHECK_JSON_FLAGS : JSON_INDENT(2));
		json_decref(o);
		return err;
	}
	if (list->n == 1 && (ref->task >= 0 ||
	    !job_list_is_array(list, ref->id))) {
		job_status_print(stdout, &list->v[0]);
		fputc('\n', stdout);
	} else
		array_print(stdout, ref->id, list);
	return NULL;
}

/*
 * --check of a job neither slurmctld nor accounting knows: its log, found
 * by the record of its submission (the error ERR when there is none).
 */
static struct error *
check_forgotten(const struct backend *be, struct backend_ctx *ctx,
    const char *cluster, const struct job_ref *ref, bool json,
    struct error *err, int *status)
{
	json_t	*report = NULL, *o;

	error_free(err);
	if ((err = cmd_check_job("status", be, ctx, cluster, ref, NULL,
	    json ? &report : NULL, status)) != NULL || !json)
		return err;
	o = json_pack("{s:I,s:n,s:s,s:s,s:o}", "job_id", (json_int_t)ref->id,
	    "state", "backend", be->name, "source", "record", "check", report);
	json_dumpf(o, stdout, LOGCHECK_JSON_FLAGS);
	fputc('\n', stdout);
	json_decref(o);
	return NULL;
}

/* status JOBID[_TASK] [--wait] [--check]. */
static struct error *
status_job(const struct backend *be, struct backend_ctx *ctx,
    const char *cluster, const struct job_ref *ref, bool wait, bool check,
    bool json, int *status)
{
	struct job_list	 list;
	struct error	*err;
	json_t		*report = NULL;

	if (wait)
		err = job_wait(be, ctx, ref, &list);
	else
		err = job_lookup(be, ctx, ref, &list);
	if (err != NULL) {
		job_list_release(&list);
		if (check && !wait && error_is(err, ERROR_NO_SUCH_JOB))
			return check_forgotten(be, ctx, cluster, ref, json,
			    err, status);
		return err;
	}
	if (wait)
		*status = job_wait_status(ref, &list);
	/* The check's JSON goes into the status object: one document. */
	if (check && json &&
	    (err = cmd_check_job("status", be, ctx, cluster, ref, NULL,
	    &report, status)) != NULL) {
		job_list_release(&list);
		return err;
	}
	err = show(ref, &list, be->name, json, report);
	job_list_release(&list);
	if (err == NULL && check && !json) {
		fflush(stdout);
		fputc('\n', stdout);
		err = cmd_check_job("status", be, ctx, cluster, ref, NULL,
		    NULL, status);
	}
	return err;
}

/* The settings of point P, as the journal's queued record wrote them. */
static const char *
point_settings(json_t *lines, int64_t p)
{
	json_t	*rec, *e;
	size_t	 i, k;

	json_array_foreach(lines, i, rec) {
		if (i == 0 || json_object_get(rec, "queued") == NULL)
			continue;
		json_array_foreach(json_object_get(rec, "points"), k, e)
			if (json_integer_value(e) == p)
				return json_string_value(json_array_get(
				    json_object_get(rec, "settings"), k));
	}
	return NULL;
}

/* The record of point P's job in LIST (the records of its job). */
static const struct job_status *
point_record(const struct resume_job *rj, const struct job_list *list)
{
	size_t	 i;

	for (i = 0; i < list->n; i++) {
		if (rj->task < 0 || list->v[i].array_task_id == rj->task)
			return &list->v[i];
		if (list->v[i].array_tasks != NULL &&
		    array_tasks_has(list->v[i].array_tasks, rj->task))
			return &list->v[i];
	}
	return NULL;
}

/* status --journal FILE [--wait]: a row per point. */
static struct error *
status_journal(const struct backend *be, struct backend_ctx *ctx,
    const char *path, bool wait, bool json, int *status)
{
	struct resume_plan	 plan;
	struct job_list		*lists;
	struct job_ref		 ref;
	const struct job_status	*s;
	struct error		*err;
	json_t			*lines, *rows = NULL, *o;
	size_t			 j;
	int64_t			 p, k, bad = 0, unqueued = 0;
	char			 name[64];
	const char		*state, *set;

	if ((err = cmd_journal_plan(path, &plan, &lines)) != NULL)
		return err;
	/* Each job once: an array's points share it. */
	lists = xcalloc(plan.njob_ids + 1, sizeof *lists);
	for (j = 0; j < plan.njob_ids && err == NULL; j++) {
		ref.id = plan.job_ids[j];
		ref.task = -1;
		err = wait ? job_wait(be, ctx, &ref, &lists[j]) :
		    job_lookup(be, ctx, &ref, &lists[j]);
		if (error_is(err, ERROR_NO_SUCH_JOB)) {
			/* A row says so; the others still show. */
			error_free(err);
			err = NULL;
		}
	}
	if (err != NULL)
		goto out;
	if (json)
		rows = json_array();
	else
		printf("%-5s %-12s %-13s %-4s %s\n", "POINT", "JOB", "STATE",
		    "EXIT", "SETTINGS");
	for (p = 0; p < plan.npoints; p++) {
		set = point_settings(lines, p);
		s = NULL;
		if (plan.jobs[p].job_id == 0) {
			unqueued++;
			state = "NOT_QUEUED";
		} else {
			for (j = 0; plan.job_ids[j] != plan.jobs[p].job_id; j++)
				;
			s = point_record(&plan.jobs[p], &lists[j]);
			state = s != NULL ? s->state : "UNKNOWN";
		}
		if (plan.jobs[p].job_id != 0 && (s == NULL || !job_ok(s)))
			bad++;
		if (plan.jobs[p].task >= 0)
			snprintf(name, sizeof name, "%lld_%lld",
			    (long long)plan.jobs[p].job_id,
			    (long long)plan.jobs[p].task);
		else
			snprintf(name, sizeof name, "%lld",
			    (long long)plan.jobs[p].job_id);
		if (json) {
			o = json_pack("{s:I,s:s?,s:o,s:s,s:o}", "point",
			    (json_int_t)p, "settings", set, "job",
			    plan.jobs[p].job_id ? json_string(name) :
			    json_null(), "state", state, "exit_code",
			    s != NULL && s->exit_known &&
			    job_state_ended(s->state) ?
			    json_integer(s->exit_code) : json_null());
			if (s != NULL)
				json_object_set_new(o, "source", json_string(
				    job_source_name(s->source)));
			json_array_append_new(rows, o);
			continue;
		}
		k = s != NULL && s->exit_known && job_state_ended(s->state) ?
		    s->exit_code : -1;
		printf("%-5lld %-12s %-13s ", (long long)p,
		    plan.jobs[p].job_id ? name : "-", state);
		if (k >= 0)
			printf("%-4lld", (long long)k);
		else
			printf("%-4s", "-");
		printf(" %s\n", set != NULL ? set : "");
	}
	if (json) {
		o = json_pack("{s:s,s:I,s:o,s:s}", "sweep", plan.id, "points",
		    (json_int_t)plan.npoints, "rows", rows, "backend",
		    be->name);
		err = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
	}
	/* A point never queued (skipped as invalid, or the sweep was
	 * stopped) is said, not failed: its job did not fail. */
	if (wait && unqueued > 0)
		fprintf(stderr, "mbsbatch: sweep %s: %lld of %lld points were "
		    "never queued\n", plan.id, (long long)unqueued,
		    (long long)plan.npoints);
	if (wait && bad > 0) {
		fprintf(stderr, "mbsbatch: sweep %s: %lld of %lld queued "
		    "points did not complete\n", plan.id, (long long)bad,
		    (long long)(plan.npoints - unqueued));
		*status = EXIT_FAILURE_OP;
	}
out:
	for (j = 0; j < plan.njob_ids; j++)
		job_list_release(&lists[j]);
	free(lists);
	resume_plan_release(&plan);
	json_decref(lines);
	return err;
}

static struct error *
cmd_status_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct job		 job;
	struct job_ref		 ref;
	struct error		*err;
	const char		*journal = cmd_value(self, args, "journal");
	bool			 json = cmd_value(self, args, "json") != NULL;
	bool			 wait = cmd_value(self, args, "wait") != NULL;
	bool			 check = cmd_value(self, args, "check") != NULL;

	*status = EXIT_OK;
	if (journal != NULL && args->nargs > 0)
		return error_new(EXIT_USAGE, "status: a JOBID or --journal "
		    "FILE, not both");
	if (journal != NULL && check)
		return error_new(EXIT_USAGE, "status: --check judges one "
		    "job's log: give its JOBID (a point's: 'mbsbatch logs "
		    "--journal FILE --point N --check')");
	if (journal == NULL && (err = cmd_job_ref("status", args, &ref)) !=
	    NULL)
		return err;
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL)
		return err;
	if (journal != NULL)
		err = status_journal(be, ctx, journal, wait, json, status);
	else
		err = status_job(be, ctx, job.cluster, &ref, wait, check,
		    json, status);
	be->close(ctx);
	job_release(&job);
	return err;
}
