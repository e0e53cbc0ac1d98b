/*
 * cmd-jobs.c: "mbsbatch jobs": the user's jobs that slurmctld knows,
 * those not ended unless --state says (as squeue), filtered by name
 * prefix or sweep.  See mbsbatch-jobs(1).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "jobview.h"
#include "journal.h"
#include "resume.h"
#include "termtext.h"

static struct error *cmd_jobs_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_jobs_options[] = {
	{ "state", 0, "STATE[,STATE...]|all", "only jobs in these states "
	  "(Slurm's names, any case), or in any ('all'); default: those "
	  "not ended, as squeue" },
	{ "name", 0, "PREFIX", "only jobs whose name starts with PREFIX" },
	{ "sweep", 0, "ID|JOURNAL", "only the jobs of one sweep (its id or "
	  "its journal)" },
	{ "json", 0, NULL, "print one JSON object" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_jobs_entry = {
	.name = "jobs",
	.usage = "[--state STATE[,STATE...]|all] [--name PREFIX] "
	    "[--sweep ID|JOURNAL] [--json] [OPTIONS]",
	.summary = "List your jobs that have not ended (or in the states "
	    "asked for): id, name, state, nodes.",
	.options = cmd_jobs_options,
	.settings = SF_CONNECT,
	.help_connect = true,
	.max_args = 0,
	.exec = cmd_jobs_exec,
};

/* Is STATE one of LIST's comma-separated words, any case? */
static bool
state_wanted(const char *list, const char *state)
{
	const char	*p = list, *e;
	size_t		 len = strlen(state);

	for (;;) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if ((size_t)(e - p) == len && strncasecmp(p, state, len) == 0)
			return true;
		if (*e == '\0')
			return false;
		p = e + 1;
	}
}

/*
 * Is S shown?  By --state STATES (NULL: not given): a job in one of
 * them, any job for "all"; without it, a job squeue shows without
 * --states, one not ended: pending, running, suspended, or with a flag
 * of these (completing, configuring, requeued ...): squeue's
 * _filter_job() (src/squeue/print.c, 22.05 to 25.11), whose "all" is
 * --states=all (src/squeue/opts.c _build_state_list()).
 */
static bool
state_shown(const char *states, const char *state)
{
	if (states == NULL)
		return !job_state_ended(state);
	return strcasecmp(states, "all") == 0 || state_wanted(states, state);
}

/* Every word of the --state list a state of Slurm's?  Else a usage error. */
static struct error *
check_states(const char *list)
{
	const char	*p = list, *e, *near;

	if (strcasecmp(list, "all") == 0)
		return NULL;
	for (;;) {
		e = strchr(p, ',');
		if (e == NULL)
			e = p + strlen(p);
		if (e - p == 3 && strncasecmp(p, "all", 3) == 0)
			return error_new(EXIT_USAGE, "jobs: --state: 'all' "
			    "stands alone, not in a list of states");
		if (!job_state_known(p, (size_t)(e - p))) {
			if ((near = job_state_suggest(p, (size_t)(e - p))))
				return error_new(EXIT_USAGE, "jobs: --state: "
				    "'%.*s' is not a job state of Slurm's (did "
				    "you mean '%s'?)", (int)(e - p), p, near);
			return error_new(EXIT_USAGE, "jobs: --state: '%.*s' is "
			    "not a job state of Slurm's (PENDING, RUNNING, "
			    "COMPLETED, FAILED, CANCELLED, TIMEOUT, ...) "
			    "nor 'all'", (int)(e - p), p);
		}
		if (*e == '\0')
			return NULL;
		p = e + 1;
	}
}

/*
 * The tag "-ID-" a sweep puts in its jobs' names, from --sweep: a
 * journal's header, or the id itself when no such file is there.
 */
static struct error *
sweep_tag(const char *arg, char *tag, size_t size)
{
	struct resume_plan	 plan;
	struct stat		 st;
	struct error		*err;

	if (stat(arg, &st) == -1 && resume_id_valid(arg)) {
		snprintf(tag, size, "-%s-", arg);
		return NULL;
	}
	if ((err = cmd_journal_plan(arg, &plan, NULL)) != NULL)
		return err;
	snprintf(tag, size, "-%s-", plan.id);
	resume_plan_release(&plan);
	return NULL;
}

/*
 * Does squeue's NODELIST(REASON) give STATE's reason rather than its
 * nodes?  Pending (by its name or a flag a pending job has), staging
 * out, timed out, out of memory, past its deadline or failed, not
 * completing: _print_job_reason_list() in src/squeue/print.c (22.05 to
 * 25.11).
 */
static bool
reason_shown(const char *state)
{
	static const char *const states[] = {
		"PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
		"SPECIAL_EXIT", "RESV_DEL_HOLD", "EXPEDITING", "STAGE_OUT",
		"TIMEOUT", "OUT_OF_MEMORY", "DEADLINE", "FAILED",
	};
	size_t	 i;

	for (i = 0; i < sizeof states / sizeof states[0]; i++)
		if (strcmp(state, states[i]) == 0)
			return true;
	return false;
}

/* One job a line: another user's name, Slurm's words, escaped for a
 * terminal (termtext.h): no byte of theirs starts a line of its own. */
static void
print_row(const struct job_status *s)
{
	char	 id[64], *name = termtext_dup(s->name != NULL ? s->name : "");
	char	*state = termtext_dup(s->state);

	job_status_name(s, id, sizeof id);
	termtext_printf(stdout, "%-14s ", id);
	printf("%-24s %-11s %5lld  ", name, state, (long long)s->nodes);
	if (reason_shown(s->state) && s->reason != NULL)
		termtext_printf(stdout, "(%s)", s->reason);
	else if (s->node_list != NULL)
		termtext_printf(stdout, "%s", s->node_list);
	putchar('\n');
	free(name);
	free(state);
}

static struct error *
cmd_jobs_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const struct backend	*be;
	struct backend_ctx	*ctx;
	struct job		 job;
	struct job_list		 list;
	struct error		*err;
	const struct job_status	*s;
	const char		*states = cmd_value(self, args, "state");
	const char		*prefix = cmd_value(self, args, "name");
	const char		*sweep = cmd_value(self, args, "sweep");
	bool			 json = cmd_value(self, args, "json") != NULL;
	json_t			*a = NULL, *o;
	char			 tag[16] = "";
	size_t			 i, shown = 0;

	*status = EXIT_OK;
	if (states != NULL && (err = check_states(states)) != NULL)
		return err;
	if (sweep != NULL && (err = sweep_tag(sweep, tag, sizeof tag)) != NULL)
		return err;
	if ((err = cmd_open_backend(args, &job, &be, &ctx)) != NULL)
		return err;
	memset(&list, 0, sizeof list);
	err = be->list(ctx, &list);
	be->close(ctx);
	job_release(&job);
	if (err != NULL) {
		job_list_release(&list);
		return err;
	}
	if (json)
		a = json_array();
	else
		printf("%-14s %-24s %-11s %5s  %s\n", "JOBID", "NAME", "STATE",
		    "NODES", "NODELIST(REASON)");
	for (i = 0; i < list.n; i++) {
		s = &list.v[i];
		if (!state_shown(states, s->state))
			continue;
		if (prefix != NULL && (s->name == NULL ||
		    strncmp(s->name, prefix, strlen(prefix)) != 0))
			continue;
		if (tag[0] != '\0' && (s->name == NULL ||
		    strstr(s->name, tag) == NULL))
			continue;
		shown++;
		if (json)
			json_array_append_new(a, job_status_json(s, be->name));
		else
			print_row(s);
	}
	if (json) {
		o = json_pack("{s:o,s:I,s:s}", "jobs", a, "count",
		    (json_int_t)shown, "backend", be->name);
		err = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
	}
	job_list_release(&list);
	return err;
}
