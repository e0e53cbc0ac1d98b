/*
 * cmd-submit.c: "mbsbatch submit": generate a job's script and submit
 * it, or submit an existing script (--script FILE); optionally held, or
 * as a chain of N jobs each depending on the previous one.  See
 * mbsbatch-submit(1).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "generate.h"
#include "memguard.h"
#include "job.h"
#include "jsondoc.h"
#include "logcheck.h"
#include "smokejob.h"
#include "joblookup.h"
#include "jobview.h"
#include "jobwait.h"
#include "jobdesc.h"
#include "jobfiles.h"
#include "number.h"
#include "sbatch-directives.h"
#include "settings.h"
#include "termtext.h"
#include "willrun.h"
#include "xmalloc.h"

extern char **environ;

static struct error *cmd_submit_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_submit_options[] = {
	{ "script", 0, "FILE", "submit this script instead of generating one" },
	{ "dry-run", 0, NULL, "show what would be sent; send nothing" },
	{ "test-only", 0, NULL, "ask Slurm whether and when the job would "
	  "start; queue nothing" },
	{ "hold", 0, NULL, "submit held (release with scontrol release)" },
	{ "chain", 0, "N", "submit N jobs, each after the previous ends" },
	{ "chain-on", 0, "any|ok|notok", "start each after the previous ends "
	  "at all (any, the default), succeeded (ok) or failed (notok)" },
	{ "parsable", 0, NULL, "print only the job id" },
	{ "json", 0, NULL, "print one JSON object" },
	{ "wait", 0, NULL, "wait until the job (the chain's last) ends; exit "
	  "0 only if it completed" },
	{ "smoke", 0, NULL, "submit the job's smoke job (mbsbatch-smoke(1)); "
	  "with --wait, judge its log too and exit with the verdict" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_submit_entry = {
	.name = "submit",
	.usage = "[JOBFILE] [OPTIONS] | --script FILE [OPTIONS]",
	.summary = "Generate a job's script and submit it to Slurm.",
	.options = cmd_submit_options,
	.settings = SF_CLI,
	.help_gen = true,
	.help_connect = true,
	.max_args = 1,
	.exec = cmd_submit_exec,
};

#define SCRIPT_MAX_SIZE	(4 * 1024 * 1024)

static struct error *
read_script(const char *path, char **out)
{
	struct buf	 b;
	char		 chunk[8192];
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_NOCTTY)) == -1)
		return error_new(EXIT_FAILURE_OP, "script '%s': %s", path,
		    strerror(errno));
	buf_init(&b);
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || b.len + (size_t)n > SCRIPT_MAX_SIZE) {
			close(fd);
			buf_release(&b);
			return error_new(EXIT_FAILURE_OP, "script '%s': %s",
			    path, n < 0 ? strerror(errno) : "larger than 4 MiB");
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	if (strlen(b.data) != b.len) {
		buf_release(&b);
		return error_new(EXIT_USAGE, "script '%s': contains a NUL "
		    "byte", path);
	}
	*out = buf_detach(&b);
	return NULL;
}

/*
 * --chain-on: how each job of a chain waits for the one before (Slurm's
 * dependency types).  After "ok" or "notok" a later job whose condition
 * can no longer be met would pend for ever: Slurm cancels it instead
 * (kill_invalid_dep).
 */
static const struct {
	const char	*word;
	const char	*dependency;
} chain_kinds[] = {
	{ "any", "afterany" },
	{ "ok", "afterok" },
	{ "notok", "afternotok" },
};

static struct error *
chain_kind(const char *word, const char *chain, size_t *kind)
{
	size_t	 i;

	*kind = 0;
	if (word == NULL)
		return NULL;
	if (chain == NULL)
		return error_hint(error_new(EXIT_USAGE, "submit: --chain-on "
		    "needs --chain N"), "--chain-on says when each job of a "
		    "chain starts");
	for (i = 0; i < sizeof chain_kinds / sizeof chain_kinds[0]; i++)
		if (strcmp(word, chain_kinds[i].word) == 0) {
			*kind = i;
			return NULL;
		}
	return error_new(EXIT_USAGE, "--chain-on: '%s' is not any, ok or "
	    "notok", word);
}

/*
 * With --script the script is what is submitted: options that would
 * change it cannot apply.  Only the connection settings can.
 */
static struct error *
script_only(const struct settings *cli)
{
	size_t	 i;

	for (i = 0; i < SET__COUNT; i++)
		if (cli->v[i].origin != ORIGIN_UNSET &&
		    !(settings_table[i].flags & SF_CONNECT))
			return error_hint(error_new(EXIT_USAGE, "submit: "
			    "--%s does not apply to --script (the script is "
			    "submitted as it is)", settings_table[i].option),
			    "edit the script, or submit the job file");
	return NULL;
}

static struct error *
print_dry_run(const struct backend *be, const struct job *job,
    const struct jobdesc *d, const struct jobdesc_context *jc,
    const struct submit_opts *so, int64_t n, size_t kind, int verbose)
{
	struct backend_opts	 o;

	printf("# mbsbatch submit --dry-run: nothing was sent\n");
	printf("# back end: %s; %lld submission%s\n", be->name, (long long)n,
	    n == 1 ? "" : "s");
	if (n > 1)
		printf("# jobs 2 to %lld of the chain: each as the first, with "
		    "--dependency=%s:PREVIOUS%s and MBSBATCH_CHAIN_PREV=PREVIOUS "
		    "MBSBATCH_CHAIN_SEGMENT=K MBSBATCH_CHAIN_ON=%s in its "
		    "environment\n", (long long)n, chain_kinds[kind].dependency,
		    kind != 0 ? " --kill-on-invalid-dep=yes" : "",
		    chain_kinds[kind].word);
	cmd_backend_opts(job, verbose, &o);
	return be->dry_run(&o, d, jc, so, n, stdout);
}

/*
 * --test-only: one question, no job.  What it cannot go with: what
 * needs a job queued, or prints something else.
 */
static struct error *
test_only_check(const struct cmd_entry *self, struct cmd_args *args)
{
	static const char *const not_with[] = { "dry-run", "chain", "wait",
	    "parsable" };
	size_t	 i;

	for (i = 0; i < sizeof not_with / sizeof not_with[0]; i++)
		if (cmd_value(self, args, not_with[i]) != NULL)
			return error_new(EXIT_USAGE, "submit: --test-only "
			    "queues nothing: not with --%s", not_with[i]);
	return NULL;
}

/* Ask Slurm through BE whether and when D would start; print it. */
static struct error *
test_only(const struct backend *be, struct backend_ctx *ctx,
    const struct jobdesc *d, const struct jobdesc_context *jc,
    const struct submit_opts *so, bool json, bool quiet)
{
	struct will_run	 w;
	struct error	*err;
	json_t		*o;
	size_t		 i;

	if ((err = be->will_run(ctx, d, jc, so, &w)) != NULL)
		return err;
	if (json) {
		o = will_run_json(&w, be->name, (int64_t)time(NULL));
		err = jsondoc_print(stdout, o, JSON_INDENT(2));
		json_decref(o);
	} else {
		for (i = 0; i < w.nmessages && !quiet; i++)
			termtext_printf(stderr, "mbsbatch: submit: warning: "
			    "%s\n", w.messages[i]);
		will_run_print(stdout, &w, (int64_t)time(NULL));
	}
	will_run_release(&w);
	return err;
}

/*
 * Where job R, queued as Q says, writes (jobfiles_queued(): recorded
 * too): appended to LOGS as {"job_id", "output", "error"} (error null:
 * with the output), and printed under its "Submitted batch job" line
 * when SAY; a record that could not be written is a warning unless
 * QUIET.
 */
static void
add_logs(json_t *logs, const struct jobfiles_queued *q,
    const struct submit_result *r, bool say, bool quiet)
{
	struct jobfiles	 f;
	char		*warn;

	jobfiles_queued(q, r, &f, &warn);
	json_array_append_new(logs, json_pack("{s:I,s:s,s:s?,s:b}", "job_id",
	    (json_int_t)r->job_id, "output", f.out, "error", f.err,
	    "complete", f.out_complete && f.err_complete));
	if (say) {
		printf("  output: %s\n", f.out);
		if (f.err != NULL)
			printf("  error: %s\n", f.err);
	}
	if (warn != NULL && !quiet) {
		fflush(stdout);
		termtext_printf(stderr, "mbsbatch: submit: warning: %s\n",
		    warn);
	}
	free(warn);
	jobfiles_release(&f);
}

/* LIST, the records of job ID, as status shows them, or into FINAL. */
static void
show_final(int64_t id, const struct job_list *list, const char *backend,
    json_t *final)
{
	bool	 array = job_list_is_array(list, id);

	if (final != NULL)
		json_array_append_new(final, array ? array_json(id, list,
		    backend) : job_status_json(&list->v[0], backend));
	else if (array)
		array_print(stdout, id, list);
	else {
		job_status_print(stdout, &list->v[0]);
		fputc('\n', stdout);
	}
	fflush(stdout);
}

/*
 * --wait: until the last job of IDS ends (a chain's jobs run one after
 * another, so the others have ended by then), then each one's last state
 * as status prints it, or into *FINAL for --json; *STATUS mirrors the
 * last job's.  Waiting for each in turn would come back to an early one
 * after slurmctld had forgotten it.
 */
static struct error *
wait_jobs(const struct backend *be, struct backend_ctx *ctx, json_t *ids,
    bool json, json_t **final, int *status)
{
	struct job_list	 list, last;
	struct job_ref	 ref;
	struct error	*err;
	size_t		 i, n = json_array_size(ids);

	if (json)
		*final = json_array();
	ref.id = json_integer_value(json_array_get(ids, n - 1));
	ref.task = -1;
	if ((err = job_wait(be, ctx, &ref, &last)) != NULL) {
		job_list_release(&last);
		return err;
	}
	for (i = 0; i + 1 < n; i++) {
		ref.id = json_integer_value(json_array_get(ids, i));
		if ((err = job_lookup(be, ctx, &ref, &list)) == NULL)
			show_final(ref.id, &list, be->name, *final);
		else {
			/* Forgotten everywhere: said, the last still shown. */
			termtext_printf(stderr, "mbsbatch: submit: %s\n",
			    err->msg);
			error_free(err);
			if (*final != NULL)
				json_array_append_new(*final, json_null());
		}
		job_list_release(&list);
	}
	ref.id = json_integer_value(json_array_get(ids, n - 1));
	show_final(ref.id, &last, be->name, *final);
	*status = job_wait_status(&ref, &last);
	job_list_release(&last);
	return NULL;
}

static struct error *
cmd_submit_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const struct backend	*be;
	struct backend_ctx	*ctx = NULL;
	struct jobdesc_context	 jc;
	struct jobdesc_host	 host;
	struct job_figures	 fig;
	struct submit_opts	 so;
	struct submit_result	 r;
	struct jobdesc		 d;
	struct job		 job;
	struct error		*err, *perr;
	struct buf		 out;
	const char		*script = cmd_value(self, args, "script");
	const char		*chain = cmd_value(self, args, "chain");
	const char		*chain_on = cmd_value(self, args, "chain-on");
	const char		*why, *name, *workdir, *user = NULL;
	struct jobfiles_queued	 q;
	struct passwd		*pw;
	char			**made = NULL;
	char			 cwd[PATH_MAX], dep[64], *regen, *text = NULL;
	char			 prev_env[64], seg_env[64], on_env[64];
	const char		*chain_env[4] = { prev_env, seg_env, on_env,
				    NULL };
	char			**said = NULL;
	int64_t			 n = 1, i, prev = 0;
	json_t			*ids = NULL, *warnings = NULL, *logs = NULL;
	json_t			*final = NULL, *check = NULL;
	bool			 json = cmd_value(self, args, "json") != NULL;
	bool			 parsable = cmd_value(self, args, "parsable") != NULL;
	bool			 smoke = cmd_value(self, args, "smoke") != NULL;
	bool			 test = cmd_value(self, args, "test-only") !=
				    NULL;
	size_t			 k, kind;

	*status = EXIT_OK;
	memset(&so, 0, sizeof so);
	jobdesc_init(&d);
	buf_init(&out);
	if (chain != NULL && (why = number_parse_int(chain, 1, 1000, &n)))
		return error_new(EXIT_USAGE, "--chain: '%s' %s (expected a "
		    "whole number from 1 to 1000)", chain, why);
	if ((err = chain_kind(chain_on, chain, &kind)) != NULL)
		return err;
	if (test && (err = test_only_check(self, args)) != NULL)
		return err;
	if (script != NULL && args->nargs > 0)
		return error_new(EXIT_USAGE, "submit: give a JOBFILE or "
		    "--script FILE, not both");
	if (getcwd(cwd, sizeof cwd) == NULL)
		return error_new(EXIT_FAILURE_OP, "submit: the current "
		    "directory: %s", strerror(errno));

	args->req.jobfile = args->nargs > 0 ? args->args[0] : NULL;
	if (script != NULL && (err = script_only(&args->req.cli)) != NULL)
		return err;
	if (smoke && (script != NULL || chain != NULL))
		return error_new(EXIT_USAGE, "submit: --smoke writes and submits "
		    "one smoke job: not with --%s", script != NULL ? "script" :
		    "chain");
	if (smoke)
		err = smokejob_load("submit", &job, &args->req, NULL);
	else
		err = job_load(&job, &args->req);
	if (err != NULL)
		return err;
	if ((err = cmd_backend_choose(&job, &be)) != NULL)
		goto out;
	if (script != NULL) {
		name = script;
		so.script_path = script;
		err = read_script(script, &text);
	} else {
		name = "generated";
		/* Before the warnings: a refused layout says one line. */
		memset(&fig, 0, sizeof fig);
		if (job_figure(&job, &fig) == NULL && (err = memguard_check(
		    "submit", job_name(&job), &job, &fig)) != NULL)
			goto out;
		regen = cmd_regen_line(args);
		err = generate_script("submit", &job, regen, args->quiet, &fig,
		    &out, NULL);
		free(regen);
		text = buf_detach(&out);
	}
	/* sbatch reads the lines itself; the others send what we read. */
	if (err == NULL)
		err = sbatch_directives_parse_env(name, text,
		    be->reads_directives, environ, &d, &said);
	if (err != NULL)
		goto out;
	for (k = 0; said != NULL && said[k] != NULL && !args->quiet; k++)
		termtext_printf(stderr, "mbsbatch: submit: warning: %s\n",
		    said[k]);
	freev(said);
	/* sbatch FILE: search_path() makes a plain relative name absolute
	 * against the working directory and keeps ./x and /x as given. */
	if (script != NULL)
		d.argv0 = script[0] == '.' || script[0] == '/' ?
		    xstrdup(script) : xasprintf("%s/%s", cwd, script);
	if (script != NULL && d.name == NULL) {
		/* sbatch FILE names the job after the file. */
		const char	*base = strrchr(script, '/');

		d.name = xstrdup(base != NULL ? base + 1 : script);
	}
	so.hold = cmd_value(self, args, "hold") != NULL;
	/* sbatch makes the paths absolute; so do we, for the others. */
	workdir = jobdesc_absolute(&d, cwd);
	memset(&jc, 0, sizeof jc);
	jobdesc_host_read(&host);
	jc.host = &host;
	jc.cwd = workdir;
	jc.environ = environ;
	jc.user = job_str(&job, SET_USER);
	if (cmd_value(self, args, "dry-run") != NULL) {
		err = print_dry_run(be, &job, &d, &jc, &so, n, kind,
		    args->verbose);
		goto out;
	}
	if ((err = cmd_backend_open(be, &job, args->verbose, &ctx)) != NULL) {
		err = cmd_backend_hint(&job, be, err);
		goto out;
	}
	if ((err = sbatch_directives_check_release(name, text,
	    be->release(ctx))) != NULL)
		goto out;
	if (test) {
		err = test_only(be, ctx, &d, &jc, &so, json, args->quiet);
		goto out;
	}
	/* Whom the job runs as (%u): REST's user, else the login name. */
	if ((user = job_str(&job, SET_USER)) == NULL &&
	    (pw = getpwuid(getuid())) != NULL)
		user = pw->pw_name;
	/* Slurm opens the output before the script runs: its directory is
	 * made now that nothing else can fail first, and removed again if
	 * the submission fails. */
	if ((err = generate_job_log_dirs("submit", &d, workdir, user,
	    be->release(ctx), args->quiet, &made)) != NULL)
		goto out;
	memset(&q, 0, sizeof q);
	q.be = be;
	q.ctx = ctx;
	q.cluster = job.cluster;
	q.slurm = job_str(&job, SET_REST_URL) != NULL ? job_str(&job,
	    SET_REST_URL) : getenv("SLURM_CONF");
	q.desc = &d;
	q.workdir = workdir;

	ids = json_array();
	warnings = json_array();
	logs = json_array();
	for (i = 0; i < n; i++) {
		/* Each later job waits for the one before and is told
		 * which it was: the templates ask Slurm how it ended. */
		if (prev != 0) {
			snprintf(dep, sizeof dep, "%s:%lld",
			    chain_kinds[kind].dependency, (long long)prev);
			snprintf(prev_env, sizeof prev_env,
			    "MBSBATCH_CHAIN_PREV=%lld", (long long)prev);
			snprintf(seg_env, sizeof seg_env,
			    "MBSBATCH_CHAIN_SEGMENT=%lld", (long long)i + 1);
			/* notok's jobs run because the one before failed. */
			snprintf(on_env, sizeof on_env, "MBSBATCH_CHAIN_ON=%s",
			    chain_kinds[kind].word);
			so.dependency = dep;
			so.kill_invalid_dep = kind != 0;
			so.env = chain_env;
		}
		if ((err = be->submit(ctx, &d, &jc, &so, &r)) != NULL) {
			if (i > 0)
				error_hint(err, "%lld of the chain's %lld jobs "
				    "%s queued, the last as job %lld",
				    (long long)i, (long long)n,
				    i == 1 ? "was" : "were", (long long)prev);
			else {
				/* Nothing queued: nothing left behind. */
				generate_log_dirs_undo(made);
				made = NULL;
				err = cmd_backend_hint(&job, be, err);
			}
			break;
		}
		q.after = prev;		/* recorded: report --chain */
		prev = r.job_id;
		json_array_append_new(ids, json_integer(r.job_id));
		for (k = 0; k < r.nwarnings; k++) {
			json_array_append_new(warnings,
			    json_string(r.warnings[k]));
			if (!args->quiet)
				termtext_printf(stderr, "mbsbatch: submit: "
				    "warning: job %lld: %s\n",
				    (long long)r.job_id, r.warnings[k]);
		}
		if (parsable)
			printf("%lld\n", (long long)r.job_id);
		else if (!json)
			printf("Submitted batch job %lld\n",
			    (long long)r.job_id);
		q.user = r.user != NULL ? r.user : user;
		add_logs(logs, &q, &r, !parsable && !json && !args->quiet,
		    args->quiet);
		fflush(stdout);
		submit_result_release(&r);
	}
	if (err == NULL && cmd_value(self, args, "wait") != NULL)
		err = wait_jobs(be, ctx, ids, json, &final, status);
	/* A smoke job waited for: its log judged, the verdict the exit
	 * status (mbsbatch-smoke(1)). */
	if (err == NULL && smoke && cmd_value(self, args, "wait") != NULL) {
		struct job_ref	 ref;

		ref.id = json_integer_value(json_array_get(ids, 0));
		ref.task = -1;
		if (!json) {
			fflush(stdout);
			fputc('\n', stdout);
		}
		err = cmd_check_job("submit", be, ctx, job.cluster, &ref, &job,
		    json ? &check : NULL, status);
	}
	/* Printed even when a chain stopped halfway: what was queued. */
	if (json && ids != NULL && json_array_size(ids) > 0) {
		json_t	*first = json_array_get(logs, 0);
		json_t	*o = json_pack("{s:O,s:s,s:O,s:O,s:O,s:O,s:O}",
		    "job_id", json_array_get(ids, 0), "backend", be->name,
		    "job_ids", ids, "output", json_object_get(first, "output"),
		    "error", json_object_get(first, "error"), "logs", logs,
		    "warnings", warnings);

		if (chain != NULL)
			json_object_set_new(o, "chain_on",
			    json_string(chain_kinds[kind].word));
		if (final != NULL)
			json_object_set(o, "final", final);
		if (check != NULL)
			json_object_set(o, "check", check);
		perr = jsondoc_print(stdout, o, check != NULL ?
		    LOGCHECK_JSON_FLAGS : JSON_INDENT(2));
		json_decref(o);
		if (err == NULL)
			err = perr;
		else
			error_free(perr);
	}

out:
	freev(made);
	json_decref(check);
	json_decref(final);
	if (ctx != NULL)
		be->close(ctx);
	json_decref(ids);
	json_decref(warnings);
	json_decref(logs);
	free(text);
	buf_release(&out);
	jobdesc_release(&d);
	job_release(&job);
	return err;
}
