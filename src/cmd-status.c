/*
 * cmd-status.c: "mbsbatch status JOBID": where a job stands, in Slurm's
 * own state names whatever the back end.  See mbsbatch-status(1).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "job.h"
#include "joblookup.h"
#include "number.h"

static struct error *cmd_status_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_status_options[] = {
	{ "json", 0, NULL, "print one JSON object" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_status_entry = {
	.name = "status",
	.usage = "JOBID [--json] [OPTIONS]",
	.summary = "Show where a job stands: state, reason, nodes, exit code.",
	.options = cmd_status_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_status_exec,
};

/* Parse a job id argument; CMD names the command. */
struct error *
cmd_job_id(const char *cmd, const struct cmd_args *args, int64_t *id)
{
	const char	*why;

	if (args->nargs < 1)
		return error_new(EXIT_USAGE, "%s: which job? give its JOBID",
		    cmd);
	if ((why = number_parse_int(args->args[0], 1, INT64_C(0xfffffffe),
	    id)) != NULL)
		return error_new(EXIT_USAGE, "%s: job id '%s' %s", cmd,
		    args->args[0], why);
	return NULL;
}

static json_t *
time_json(int64_t t)
{
	char		 s[32];
	struct tm	 tm;
	time_t		 tt = (time_t)t;

	if (t == 0 || localtime_r(&tt, &tm) == NULL)
		return json_null();
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S%z", &tm);
	return json_string(s);
}

static struct error *
cmd_status_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct job_status	 s;
	struct job_list		 list;
	struct job_ref		 ref;
	struct job		 job;
	struct error		*err;
	int64_t			 id;
	json_t			*o;
	bool			 ended;

	*status = EXIT_OK;
	if ((err = cmd_job_id("status", args, &id)) != NULL)
		return err;
	ref.id = id;
	ref.task = -1;
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL)
		return err;
	err = job_lookup(be, ctx, &ref, &list);
	be->close(ctx);
	job_release(&job);
	if (err != NULL)
		return err;
	s = list.v[0];
	memset(&list.v[0], 0, sizeof list.v[0]);
	job_list_release(&list);
	ended = s.exit_known && strcmp(s.state, "PENDING") != 0 &&
	    strcmp(s.state, "RUNNING") != 0 && strcmp(s.state, "SUSPENDED") != 0;
	if (cmd_value(self, args, "json") != NULL) {
		o = json_pack("{s:I,s:s,s:s?,s:I,s:s?,s:s?,s:s?,s:o,s:o,s:o,"
		    "s:o,s:o,s:s}", "job_id", (json_int_t)s.job_id,
		    "state", s.state, "reason", s.reason,
		    "nodes", (json_int_t)s.nodes, "partition", s.partition,
		    "name", s.name, "node_list", s.node_list,
		    "submit_time", time_json(s.submit_time),
		    "start_time", time_json(s.start_time),
		    "end_time", time_json(s.end_time),
		    "exit_code", ended ? json_integer(s.exit_code) :
		    json_null(), "exit_signal", ended ?
		    json_integer(s.exit_signal) : json_null(),
		    "backend", be->name);
		json_dumpf(o, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(o);
	} else {
		printf("job %lld: %s", (long long)s.job_id, s.state);
		if (s.reason != NULL && strcmp(s.reason, "None") != 0)
			printf(" (%s)", s.reason);
		printf(", %lld node%s", (long long)s.nodes,
		    s.nodes == 1 ? "" : "s");
		if (s.partition != NULL)
			printf(" in partition %s", s.partition);
		if (s.node_list != NULL)
			printf(" on %s", s.node_list);
		if (ended && s.exit_signal != 0)
			printf(", killed by signal %d", s.exit_signal);
		else if (ended)
			printf(", exit code %d", s.exit_code);
		printf("\n");
	}
	job_status_release(&s);
	return NULL;
}
