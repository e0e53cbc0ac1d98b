/*
 * cmd-cancel.c: "mbsbatch cancel JOBID", or every job of a sweep
 * ("--journal FILE").  See mbsbatch-cancel(1).
 */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "job.h"
#include "journal.h"
#include "resume.h"

static struct error *cmd_cancel_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_cancel_options[] = {
	{ "journal", 0, "FILE", "cancel every job a sweep's journal records",
	  false },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_cancel_entry = {
	.name = "cancel",
	.usage = "JOBID [OPTIONS] | --journal FILE [OPTIONS]",
	.summary = "Cancel a job, or every job of a sweep.",
	.options = cmd_cancel_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_cancel_exec,
};

/*
 * Every job the journal records as queued (an array once): those Slurm
 * no longer knows have ended and count as done; other failures are
 * reported after trying the rest.
 */
static struct error *
cancel_journal(struct cmd_args *args, const char *path)
{
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct error		*err, *first = NULL;
	struct resume_plan	 plan;
	struct job		 job;
	json_t			*lines;
	int64_t			 cancelled = 0, gone = 0;
	size_t			 i;

	if ((err = journal_read(path, &lines)) != NULL)
		return err;
	err = resume_plan(path, lines, NULL, -1, &plan);
	json_decref(lines);
	if (err != NULL)
		return err;
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL) {
		resume_plan_release(&plan);
		return err;
	}
	for (i = 0; i < plan.njob_ids; i++) {
		if ((err = be->cancel(ctx, plan.job_ids[i])) == NULL)
			cancelled++;
		else if (strstr(err->msg, "no such job") != NULL) {
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

	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct job		 job;
	struct error		*err;
	int64_t			 id;

	*status = EXIT_OK;
	if (journal != NULL && args->nargs > 0)
		return error_new(EXIT_USAGE, "cancel: give a JOBID or "
		    "--journal FILE, not both");
	if (journal != NULL)
		return cancel_journal(args, journal);
	if ((err = cmd_job_id("cancel", args, &id)) != NULL)
		return err;
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL)
		return err;
	err = be->cancel(ctx, id);
	be->close(ctx);
	job_release(&job);
	if (err == NULL && args->verbose > 0)
		fprintf(stderr, "mbsbatch: cancel: job %lld cancelled (%s)\n",
		    (long long)id, be->name);
	return err;
}
