/*
 * cmd-cancel.c: "mbsbatch cancel JOBID".  See mbsbatch-cancel(1).
 */
#include <stdio.h>

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "job.h"

static struct error *cmd_cancel_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

const struct cmd_entry cmd_cancel_entry = {
	.name = "cancel",
	.usage = "JOBID [OPTIONS]",
	.summary = "Cancel a job.",
	.options = NULL,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_cancel_exec,
};

static struct error *
cmd_cancel_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct job		 job;
	struct error		*err;
	int64_t			 id;

	(void)self;
	*status = EXIT_OK;
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
