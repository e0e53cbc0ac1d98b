/*
 * cmd-cancel.c: "mbsbatch cancel JOBID", a job and every job waiting for
 * it ("--chain"), or every job of a sweep ("--journal FILE").  See
 * mbsbatch-cancel(1).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backend.h"
#include "cmd.h"
#include "dependency.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "journal.h"
#include "resume.h"
#include "xmalloc.h"

static struct error *cmd_cancel_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_cancel_options[] = {
	{ "chain", 0, NULL, "also every job waiting for JOBID, in turn "
	  "(a chain's later jobs)", false },
	{ "journal", 0, "FILE", "cancel every job a sweep's journal records",
	  false },
	{ "json", 0, NULL, "print one JSON object", false },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_cancel_entry = {
	.name = "cancel",
	.usage = "JOBID [--chain] [OPTIONS] | --journal FILE [OPTIONS]",
	.summary = "Cancel a job, a job and those waiting for it, or every "
	    "job of a sweep.",
	.options = cmd_cancel_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_cancel_exec,
};

/* What became of one job of a chain. */
enum chain_end {
	CHAIN_CANCELLED,
	CHAIN_GONE,		/* slurmctld no longer knows it */
	CHAIN_ENDED,		/* it had ended: not cancelled */
	CHAIN_FAILED
};

static const char *const chain_end_words[] = {
	"cancelled", "gone", "ended", "failed"
};

/* How a chain's line says it. */
static const char *const chain_end_lines[] = {
	"cancelled", "no such job (already ended)",
	"already ended, not cancelled", NULL
};

/*
 * Job ROOT and every job of the user's waiting for it, in turn (Slurm's
 * dependencies, as be->list shows them): the last first, so that no
 * job of the chain starts because the one before it was just cancelled.
 */
static struct error *
cancel_chain(struct cmd_args *args, int64_t root, bool json)
{
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct error		*err, *first = NULL;
	struct job_list		 list = { NULL, 0 };
	struct job		 job;
	enum chain_end		*ends;
	int64_t			*ids, *after;
	json_t			*o, *jobs, *cancelled;
	size_t			 n, i, k;

	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL)
		return err;
	if ((err = be->list(ctx, &list)) != NULL) {
		be->close(ctx);
		job_release(&job);
		return error_hint(err, "cancel --chain finds the jobs waiting "
		    "for job %lld among the user's jobs; nothing was "
		    "cancelled", (long long)root);
	}
	dependency_closure(&list, root, &ids, &after, &n);
	job_list_release(&list);
	/* ROOT is entry n: cancelled last. */
	ids = xreallocarray(ids, n + 1, sizeof *ids);
	ids[n] = root;
	ends = xcalloc(n + 1, sizeof *ends);
	for (k = n + 1; k-- > 0;) {
		if ((err = be->cancel(ctx, ids[k])) == NULL)
			ends[k] = CHAIN_CANCELLED;
		else if (error_is(err, ERROR_NO_SUCH_JOB) ||
		    error_is(err, ERROR_ALREADY_DONE)) {
			ends[k] = error_is(err, ERROR_NO_SUCH_JOB) ?
			    CHAIN_GONE : CHAIN_ENDED;
			/* Ended or unknown with nothing waiting for it: the
			 * error of a plain cancel. */
			if (k == n && n == 0 && first == NULL)
				first = err;
			else
				error_free(err);
		} else {
			ends[k] = CHAIN_FAILED;
			if (first == NULL)
				first = err;
			else
				error_free(err);
		}
	}
	be->close(ctx);
	job_release(&job);

	/* Reported from ROOT on, in the chain's order. */
	if (json) {
		jobs = json_array();
		cancelled = json_array();
		for (i = 0; i <= n; i++) {
			k = i == 0 ? n : i - 1;
			json_array_append_new(jobs, json_pack("{s:I,s:o,s:s}",
			    "job_id", (json_int_t)ids[k], "after", k == n ?
			    json_null() : json_integer(after[k]), "result",
			    chain_end_words[ends[k]]));
			if (ends[k] == CHAIN_CANCELLED)
				json_array_append_new(cancelled,
				    json_integer(ids[k]));
		}
		o = json_pack("{s:I,s:s,s:o,s:o}", "job_id", (json_int_t)root,
		    "backend", be->name, "cancelled", cancelled, "jobs", jobs);
		if ((err = jsondoc_print(stdout, o, JSON_INDENT(2))) != NULL &&
		    first == NULL)
			first = err;
		else
			error_free(err);
		json_decref(o);
	} else if (!args->quiet)
		for (i = 0; i <= n; i++) {
			k = i == 0 ? n : i - 1;
			if (ends[k] == CHAIN_FAILED)
				continue;	/* its error is the command's */
			printf("job %lld: %s", (long long)ids[k],
			    chain_end_lines[ends[k]]);
			if (k != n)
				printf(" (it waited for job %lld)",
				    (long long)after[k]);
			putchar('\n');
		}
	free(ids);
	free(after);
	free(ends);
	return first;
}

/*
 * Every job the journal records as queued (an array once): those that
 * had ended, or that Slurm no longer knows, count as gone; other
 * failures are reported after trying the rest.
 */
static struct error *
cancel_journal(struct cmd_args *args, const char *path)
{
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct error		*err, *first = NULL;
	struct resume_plan	 plan;
	struct job		 job;
	int64_t			 cancelled = 0, gone = 0;
	size_t			 i;

	if ((err = cmd_journal_plan(path, &plan, NULL)) != NULL)
		return err;
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL) {
		resume_plan_release(&plan);
		return err;
	}
	for (i = 0; i < plan.njob_ids; i++) {
		if ((err = be->cancel(ctx, plan.job_ids[i])) == NULL)
			cancelled++;
		else if (error_is(err, ERROR_NO_SUCH_JOB) ||
		    error_is(err, ERROR_ALREADY_DONE)) {
			gone++;
			error_free(err);
		} else if (first == NULL)
			first = err;
		else
			error_free(err);
	}
	be->close(ctx);
	job_release(&job);
	if (first == NULL && !args->quiet)
		printf("sweep %s: %lld job%s cancelled, %lld already gone "
		    "(journal %s)\n", plan.id, (long long)cancelled,
		    cancelled == 1 ? "" : "s", (long long)gone, path);
	resume_plan_release(&plan);
	return first;
}

static struct error *
cmd_cancel_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const char		*journal = cmd_value(self, args, "journal");
	bool			 chain = cmd_value(self, args, "chain") != NULL;
	bool			 json = cmd_value(self, args, "json") != NULL;

	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct job		 job;
	struct error		*err;
	int64_t			 id;

	*status = EXIT_OK;
	if (journal != NULL && args->nargs > 0)
		return error_new(EXIT_USAGE, "cancel: give a JOBID or "
		    "--journal FILE, not both");
	if (journal != NULL && chain)
		return error_new(EXIT_USAGE, "cancel: --chain takes a JOBID, "
		    "not --journal FILE");
	if (journal != NULL && json)
		return error_new(EXIT_USAGE, "cancel: --json is for a JOBID "
		    "(with or without --chain), not --journal FILE");
	if (journal != NULL)
		return cancel_journal(args, journal);
	if ((err = cmd_job_id("cancel", args, &id)) != NULL)
		return err;
	if (chain)
		return cancel_chain(args, id, json);
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL)
		return err;
	err = be->cancel(ctx, id);
	be->close(ctx);
	job_release(&job);
	if (err == NULL && json) {
		json_t	*o = json_pack("{s:I,s:s,s:[I]}", "job_id",
		    (json_int_t)id, "backend", be->name, "cancelled",
		    (json_int_t)id);

		err = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
	}
	if (err == NULL && args->verbose > 0)
		fprintf(stderr, "mbsbatch: cancel: job %lld cancelled (%s)\n",
		    (long long)id, be->name);
	return err;
}
