/*
 * cmd-check-log.c: "mbsbatch check-log LOG [JOBFILE]": judge a training
 * log on the guide's criteria (logcheck.h) and, with a job, hold its step
 * time and memory against plan's estimates.  See mbsbatch-check-log(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "error.h"
#include "job.h"
#include "logcheck.h"
#include "number.h"
#include "settings.h"

static struct error *cmd_check_log_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_check_log_options[] = {
	{ "json", 0, NULL, "print one JSON object (also on exit 3 and 2)",
	  false },
	{ "iterations", 0, "N", "the last iteration expected (default: the "
	  "log's mbsbatch line, else its train_iters)", false },
	{ NULL, 0, NULL, NULL, false }
};

const struct cmd_entry cmd_check_log_entry = {
	.name = "check-log",
	.usage = "LOG [JOBFILE] [--iterations N] [--json] [OPTIONS]",
	.summary = "Judge a Megatron training log: loss, layout, fatal "
	    "cause, speed.",
	.options = cmd_check_log_options,
	.settings = SF_CLI,
	.max_args = 2,
	.exec = cmd_check_log_exec,
};

/* Any job setting on the command line: then there is a plan. */
static bool
any_setting(const struct cmd_args *args)
{
	int	 i;

	for (i = 0; i < SET__COUNT; i++)
		if (args->req.cli.v[i].origin != ORIGIN_UNSET)
			return true;
	return false;
}

static struct error *
cmd_check_log_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	struct logcheck_opts	 o;
	struct job		 job;
	struct error		*err;
	const char		*v, *why, *log;
	bool			 json = cmd_value(self, args, "json") != NULL;
	bool			 with_job;

	*status = EXIT_USAGE;
	memset(&o, 0, sizeof o);
	if (args->nargs < 1)
		return error_new(EXIT_USAGE, "check-log: give the LOG to check "
		    "('-': standard input)");
	log = args->args[0];
	if ((v = cmd_value(self, args, "iterations")) != NULL &&
	    (why = number_parse_int(v, 1, INT64_C(1) << 40,
	    &o.iterations)) != NULL)
		return error_new(EXIT_USAGE, "--iterations: '%s' %s (expected "
		    "a whole number from 1 to %lld)", v, why,
		    (long long)(INT64_C(1) << 40));
	with_job = args->nargs > 1 || any_setting(args);
	if (args->nargs > 1) {
		if (strcmp(args->args[1], "-") == 0 && strcmp(log, "-") == 0)
			return error_new(EXIT_USAGE, "check-log: LOG and "
			    "JOBFILE cannot both be standard input");
		args->req.jobfile = args->args[1];
	}
	if (with_job && (err = job_load(&job, &args->req)) != NULL)
		return err;
	err = logcheck_file_opts(log, with_job ? &job : NULL, &o, json,
	    stdout, status);
	if (with_job)
		job_release(&job);
	return err;
}
