/*
 * backend-sbatch.c: the sbatch back end: sbatch --parsable reads the
 * script from standard input (and its #SBATCH lines itself), squeue
 * --json tells what slurmctld has of a job, sacct what accounting keeps
 * once slurmctld forgot it (both read by jobtext.c), scancel cancels.
 * The clients find slurmctld as they always do ($SLURM_CONF or
 * /etc/slurm).  Programs are run without a shell (spawn.h).
 */
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobdesc.h"
#include "jobtext.h"
#include "spawn.h"
#include "xmalloc.h"

struct backend_ctx {
	int	 verbose;
	int	 release;	/* sbatch's, as 2205; 0: not known */
	bool	 asked;		/* sbatch --version was run */
};

static struct error *
sb_open(const struct backend_opts *opts, struct backend_ctx **out)
{
	*out = xcalloc(1, sizeof **out);
	(*out)->verbose = opts->verbose;
	return NULL;
}

static void
sb_close(struct backend_ctx *ctx)
{
	free(ctx);
}

static void
sb_add_warning(struct submit_result *r, const char *w)
{
	r->warnings = xreallocarray(r->warnings, r->nwarnings + 1,
	    sizeof *r->warnings);
	r->warnings[r->nwarnings++] = xstrdup(w);
}

/*
 * The Slurm release of the sbatch that runs, from "slurm 25.11.7" (or
 * Debian's "slurm-wlm 22.05.8"): asked once per session, after the first
 * job is queued (where the job's log goes depends on it); 0 when it
 * cannot say.
 */
static int
sb_release(struct backend_ctx *ctx)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*argv[] = { "sbatch", "--version", NULL };

	if (ctx->asked)
		return ctx->release;
	ctx->asked = true;
	if ((err = spawn_run(argv, NULL, 0, &res)) != NULL) {
		error_free(err);
		return 0;
	}
	if (res.status == 0)
		ctx->release = jobtext_release(res.out.data);
	spawn_result_release(&res);
	return ctx->release;
}

static struct error *
sb_submit(struct backend_ctx *ctx, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    struct submit_result *r)
{
	struct spawn_result	 res;
	struct error		*err;
	struct jobdesc		 copy;
	char			**argv, *dep = NULL, *exp = NULL, *p;
	char			*msg, *tres[2], **warnings;
	size_t			 n = 0, nenv = 0;

	(void)jc;
	memset(r, 0, sizeof *r);
	/* What the submission adds to the job's environment: in sbatch's
	 * own (through env(1)) and, unless the script exports everything,
	 * in its --export (jobdesc.h). */
	jobdesc_for_release(&copy, d, so, 0, tres);
	free(tres[0]);
	free(tres[1]);
	while (copy.env_add != NULL && copy.env_add[nenv] != NULL)
		nenv++;
	argv = xcalloc(nenv + 10, sizeof *argv);
	if (nenv > 0) {
		argv[n++] = "env";
		memcpy(argv + n, copy.env_add, nenv * sizeof *argv);
		n += nenv;
	}
	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	if (so != NULL && so->hold)
		argv[n++] = "--hold";
	if (so != NULL && so->dependency != NULL)
		argv[n++] = dep = xasprintf("--dependency=%s", so->dependency);
	if (so != NULL && so->kill_invalid_dep)
		argv[n++] = "--kill-on-invalid-dep=yes";
	if ((exp = jobdesc_export_with(&copy)) != NULL) {
		p = exp;
		argv[n++] = exp = xasprintf("--export=%s", p);
		free(p);
	}
	/* A file: sbatch reads it and names the job after it, as always. */
	if (so != NULL && so->script_path != NULL)
		argv[n++] = (char *)so->script_path;
	argv[n] = NULL;
	if (so != NULL && so->script_path != NULL)
		err = spawn_run(argv, NULL, 0, &res);
	else
		err = spawn_run(argv, d->script, strlen(d->script), &res);
	free(dep);
	free(exp);
	free(argv);
	if (err != NULL)
		return err;
	if (res.status != 0) {
		msg = jobtext_client_message(res.err.data, "sbatch");
		err = error_new(EXIT_FAILURE_OP, "sbatch: %s", msg);
		free(msg);
		spawn_result_release(&res);
		return err;
	}
	if ((err = jobtext_sbatch_id(res.out.data, &r->job_id)) != NULL) {
		spawn_result_release(&res);
		return err;
	}
	/* Anything sbatch said while queueing the job is a warning. */
	warnings = jobtext_sbatch_warnings(res.err.data);
	for (n = 0; warnings[n] != NULL; n++)
		sb_add_warning(r, warnings[n]);
	freev(warnings);
	spawn_result_release(&res);
	r->release = sb_release(ctx);
	return NULL;
}

/*
 * Run client PROG with ARGS (a NULL-terminated array of new strings,
 * freed here) and SLURM_TIME_FORMAT=%s, whatever the user's own (env(1):
 * the environment is the process's, shared with other threads), so that
 * jobtext.c reads sacct's times as seconds, and SLURM_BITSTR_LEN=0, so
 * that an array's list of tasks not started is whole (libslurm cuts it to
 * 64 characters and "..." otherwise: slurm_protocol_defs.c).  A client
 * that cannot be started is an error, as spawn_run() says it.
 */
static struct error *
sb_client(const char *prog, char **args, struct spawn_result *res)
{
	struct error	*err;
	char		**argv, *msg, *p;
	size_t		 n = 0, nargs = 0;

	while (args[nargs] != NULL)
		nargs++;
	argv = xcalloc(nargs + 5, sizeof *argv);
	argv[n++] = "env";
	argv[n++] = "SLURM_TIME_FORMAT=%s";
	argv[n++] = "SLURM_BITSTR_LEN=0";
	argv[n++] = (char *)prog;
	memcpy(argv + n, args, nargs * sizeof *argv);
	err = spawn_run(argv, NULL, 0, res);
	free(argv);
	freev(args);
	if (err != NULL)
		return err;
	/* env's own failure: "env: 'sacct': No such file or directory". */
	if ((res->status == 126 || res->status == 127) &&
	    strncmp(res->err.data, "env: ", 5) == 0) {
		msg = jobtext_client_message(res->err.data, "env");
		p = (p = strrchr(msg, ':')) != NULL ? p + 1 : msg;
		p += strspn(p, " ");
		err = error_new(EXIT_FAILURE_OP, "cannot run '%s': %s", prog,
		    p);
		free(msg);
		spawn_result_release(res);
		return err;
	}
	return NULL;
}

/* The login name of this process's user, a new string. */
static struct error *
sb_user(char **name)
{
	struct passwd	*pw;

	*name = NULL;
	if ((pw = getpwuid(getuid())) == NULL)
		return error_new(EXIT_FAILURE_OP, "who am I? (uid %u has no "
		    "name)", (unsigned)getuid());
	*name = xstrdup(pw->pw_name);
	return NULL;
}

/*
 * squeue --json: what slurmctld has of job ID (ID > 0; a job it does not
 * know: nothing), or of this process's user (ID 0), in *RES.  Its JSON,
 * not scontrol's text: a job's name (another user's bytes) holds any
 * byte, a newline too, and cannot make a record of its own there.
 */
static struct error *
sb_squeue(int64_t id, struct spawn_result *res)
{
	struct error	*err;
	char		*msg;

	if ((err = sb_client("squeue", jobtext_squeue_args(id,
	    (int64_t)getuid()), res)) != NULL)
		return err;
	if (res->status == 0)
		return NULL;
	msg = jobtext_client_message(res->err.data, "squeue");
	if (id > 0 && strstr(msg, "Invalid job id") != NULL) {
		/* 23.02 on: a job it does not know is an error. */
		buf_reset(&res->out);
		res->status = 0;
		free(msg);
		return NULL;
	}
	err = error_new(EXIT_FAILURE_OP, "squeue: %s", msg);
	if (strcasestr(msg, "json") != NULL ||
	    strcasestr(msg, "serializer") != NULL ||
	    strcasestr(msg, "data_parser") != NULL)
		error_hint(err, "the sbatch back end reads slurmctld's jobs "
		    "with squeue --json, which needs Slurm's serializer/json "
		    "plugin; without it, use --via rest or --via native");
	free(msg);
	spawn_result_release(res);
	return err;
}

/*
 * ERR, what was wrong with squeue --json's answer; or, from a squeue
 * --json of 22.05, which says no more than "Unspecified error" when
 * slurmctld cannot be reached (its openapi/v0.0.38 keeps
 * slurm_load_jobs()'s -1, not errno: src/plugins/openapi/v0.0.38/
 * jobs.c:1078, and exits 0), the reason squeue's text gives, asked again
 * for job ids alone (no name reaches that output).  ERR is freed when
 * replaced.
 */
static struct error *
sb_reason(struct backend_ctx *ctx, int64_t id, struct error *err)
{
	struct spawn_result	 res;
	struct error		*e;
	char			**argv, *msg;

	if (sb_release(ctx) >= 2302)
		return err;
	argv = xcalloc(4, sizeof *argv);
	argv[0] = xstrdup("--noheader");
	argv[1] = xstrdup("--format=%A");
	if (id > 0)
		argv[2] = xasprintf("--jobs=%lld", (long long)id);
	if ((e = sb_client("squeue", argv, &res)) != NULL) {
		error_free(e);
		return err;
	}
	if (res.status != 0) {
		msg = jobtext_client_message(res.err.data, "squeue");
		error_free(err);
		err = error_new(EXIT_FAILURE_OP, "squeue: %s", msg);
		free(msg);
	}
	spawn_result_release(&res);
	return err;
}

/* Every record slurmctld has for job ID (an array's tasks and groups). */
static struct error *
sb_status(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;

	if ((err = sb_squeue(id, &res)) != NULL)
		return err;
	/* Nothing printed: a job it does not know (sb_squeue()). */
	if (res.out.len > 0 && (err = jobtext_squeue(sb_release(ctx),
	    res.out.data, res.out.len, id, NULL, list)) != NULL)
		err = sb_reason(ctx, id, err);
	spawn_result_release(&res);
	return err;
}

/*
 * squeue --json's answer of this process's user's jobs (sbatch submits
 * as it) in *RES, and the user's login name, as squeue names it, in *USER:
 * the caller releases both.
 */
static struct error *
sb_mine(char **user, struct spawn_result *res)
{
	struct error	*err;

	if ((err = sb_user(user)) == NULL && (err = sb_squeue(0, res)) != NULL) {
		free(*user);
		*user = NULL;
	}
	return err;
}

/* Every job of this process's user slurmctld knows. */
static struct error *
sb_list(struct backend_ctx *ctx, struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*user;

	if ((err = sb_mine(&user, &res)) != NULL)
		return err;
	if ((err = jobtext_squeue(sb_release(ctx), res.out.data, res.out.len,
	    0, user, list)) != NULL)
		err = sb_reason(ctx, 0, err);
	spawn_result_release(&res);
	free(user);
	return err;
}

/*
 * What accounting has for job ID: sacct's allocations (no steps), one
 * per line in columns of fixed widths (jobtext_sacct_args), an array's
 * tasks not started as one line.  The newest record of a job requeued
 * (no --duplicates), as slurmctld has it.
 */
static struct error *
sb_history(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*msg;
	int			 release = sb_release(ctx);

	if ((err = sb_client("sacct", jobtext_sacct_args(id, release),
	    &res)) != NULL)
		return err;
	if (res.status != 0) {
		/* "Slurm accounting storage is disabled", "Problem talking
		 * to the database: Connection refused". */
		msg = jobtext_client_message(res.err.data, "sacct");
		err = error_new(EXIT_FAILURE_OP, "sacct: %s", msg);
		free(msg);
		spawn_result_release(&res);
		return err;
	}
	err = jobtext_sacct(release, res.out.data, res.out.len, list);
	spawn_result_release(&res);
	return err;
}

static struct error *
sb_cancel(struct backend_ctx *ctx, int64_t id)
{
	struct spawn_result	 res;
	struct job_list		 list = { NULL, 0 };
	struct error		*err;
	char			 ids[32], *argv[4], *msg;
	size_t			 n;

	/* scancel says nothing, and exits 0, for a job it does not know. */
	if ((err = sb_status(ctx, id, &list)) != NULL)
		return err;
	n = list.n;
	job_list_release(&list);
	if (n == 0)
		return error_set_kind(error_new(EXIT_FAILURE_OP, "job %lld: "
		    "no such job (slurmctld does not know it)", (long long)id),
		    ERROR_NO_SUCH_JOB);
	/*
	 * scancel exits 0 and says nothing of a job that had ended; with
	 * -v it says "Kill job error on job id N: " and Slurm's words
	 * (_cancel_job_id() in src/scancel/scancel.c, 22.05 to 25.11).
	 */
	snprintf(ids, sizeof ids, "%lld", (long long)id);
	argv[0] = "scancel";
	argv[1] = "--verbose";
	argv[2] = ids;
	argv[3] = NULL;
	if ((err = spawn_run(argv, NULL, 0, &res)) != NULL)
		return err;
	if (strstr(res.err.data, ": " SLURM_ALREADY_DONE_TEXT) != NULL)
		err = job_done_error(id, NULL);
	else if (res.status != 0 || strstr(res.err.data, "error") != NULL) {
		msg = jobtext_client_message(res.err.data, "scancel");
		err = strstr(msg, "Invalid job id") != NULL ?
		    error_set_kind(error_new(EXIT_FAILURE_OP, "job %lld: no "
		    "such job (Slurm: %s)", (long long)id, msg),
		    ERROR_NO_SUCH_JOB) :
		    error_new(EXIT_FAILURE_OP, "scancel: %s", msg);
		free(msg);
	}
	spawn_result_release(&res);
	return err;
}

/*
 * The caller's job named exactly NAME, among its jobs as squeue --json
 * lists them (squeue --name would split a name at its commas).
 */
static struct error *
sb_find(struct backend_ctx *ctx, const char *name, int64_t *id)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*user;

	*id = 0;
	if ((err = sb_mine(&user, &res)) != NULL)
		return err;
	if ((err = jobtext_squeue_find(sb_release(ctx), res.out.data,
	    res.out.len, name, user, id)) != NULL)
		err = sb_reason(ctx, 0, err);
	spawn_result_release(&res);
	free(user);
	return err;
}

/* A NULL-terminated vector of copies of its arguments (NULL ends them),
 * for sb_client(), which frees it. */
static char **
sb_argv(const char *arg, ...)
{
	va_list	 ap;
	char	**v = NULL;
	size_t	 n = 0;

	va_start(ap, arg);
	for (; arg != NULL; arg = va_arg(ap, const char *)) {
		v = xreallocarray(v, n + 2, sizeof *v);
		v[n++] = xstrdup(arg);
	}
	va_end(ap);
	if (v == NULL)
		v = xcalloc(1, sizeof *v);
	v[n] = NULL;
	return v;
}

/*
 * One field of one record from a client, in RES (exit 0): its whole
 * output less the newline that ends it, a new string in *OUT; NULL for
 * nothing.  Any byte may be in it (a path): the client prints one record
 * only, so no line of it is read as another's.
 */
static void
sb_one_field(const struct spawn_result *res, char **out)
{
	*out = NULL;
	/* A field Slurm has none of: printf's "(null)" (squeue 24.05 on
	 * prints std_err as it is); a path is absolute. */
	if (res->out.len > 1 && res->out.data[res->out.len - 1] == '\n' &&
	    strcmp(res->out.data, "(null)\n") != 0)
		*out = xstrndup(res->out.data, res->out.len - 1);
}

/*
 * A node's host name: sinfo --Node --format=%n (sinfo's "node host
 * names"), every partition's (--all); the first line, one per partition
 * the node is in, each the same.  Nothing for a node sinfo does not list.
 */
static struct error *
sb_node_host(struct backend_ctx *ctx, const char *node, char **host)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*nodes, *nl;

	(void)ctx;
	*host = NULL;
	if (*node == '\0' || strchr(node, ',') != NULL)
		return NULL;	/* one node, not a list */
	nodes = xasprintf("--nodes=%s", node);
	err = sb_client("sinfo", sb_argv("--noheader", "--Node", "--all",
	    nodes, "--format=%n", NULL), &res);
	free(nodes);
	if (err != NULL)
		return err;
	if (res.status == 0 && (nl = strchr(res.out.data, '\n')) != NULL &&
	    nl > res.out.data)
		*host = xstrndup(res.out.data, (size_t)(nl - res.out.data));
	spawn_result_release(&res);
	return NULL;
}

/* squeue's FIELD (STDOUT, STDERR) of the one record SPEC ("12", "12_3"):
 * the job's own string, not expanded (squeue/print.c; from 24.05 only
 * with --expand-patterns). */
static struct error *
sb_squeue_field(const char *spec, const char *field, char **out)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*jobs, *fmt, *msg;

	*out = NULL;
	jobs = xasprintf("--jobs=%s", spec);
	fmt = xasprintf("--Format=%s:0", field);
	err = sb_client("squeue", sb_argv("--noheader", "--array",
	    "--states=all", jobs, fmt, NULL), &res);
	free(jobs);
	free(fmt);
	if (err != NULL)
		return err;
	if (res.status != 0) {
		msg = jobtext_client_message(res.err.data, "squeue");
		if (strstr(msg, "Invalid job id") == NULL)
			err = error_new(EXIT_FAILURE_OP, "squeue: %s", msg);
		free(msg);
	} else
		sb_one_field(&res, out);
	spawn_result_release(&res);
	return err;
}

/*
 * The patterns slurmctld has: scontrol before 25.11 shows them with
 * %A %a %j %u %x replaced and the rest left (api/job_info.c
 * _fname_format()), which cannot be undone; squeue --Format=STDOUT
 * prints them as given (squeue/print.c _print_job_std_out()), the
 * default (before 24.05 "WORKDIR/slurm-ID.out", then the pattern) and,
 * for the error, the output's when there is none.
 */
static struct error *
sb_patterns(struct backend_ctx *ctx, int64_t id, int64_t task, char **out,
    char **err)
{
	struct error	*e;
	char		 spec[48];

	(void)ctx;
	*out = *err = NULL;
	if (task >= 0)
		snprintf(spec, sizeof spec, "%lld_%lld", (long long)id,
		    (long long)task);
	else
		snprintf(spec, sizeof spec, "%lld", (long long)id);
	if ((e = sb_squeue_field(spec, "STDOUT", out)) == NULL &&
	    *out != NULL && (e = sb_squeue_field(spec, "STDERR", err)) != NULL) {
		free(*out);
		*out = NULL;
	}
	return e;
}

/* Accounting's SLUID of job ID: sacct's own column of it, alone (25.11;
 * sacct's other columns are read without it: jobtext.c). */
static struct error *
sb_sluid(struct backend_ctx *ctx, int64_t id, char **sluid)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*jobs;

	(void)ctx;
	*sluid = NULL;
	jobs = xasprintf("--jobs=%lld", (long long)id);
	err = sb_client("sacct", sb_argv(jobs, "--allocations", "--noheader",
	    "--format=SLUID%-20", NULL), &res);
	free(jobs);
	if (err != NULL)
		return err;
	if (res.status == 0)
		*sluid = jobtext_sluid(res.out.data);
	spawn_result_release(&res);
	return NULL;
}

/* The sbatch command line, then the script it reads. */
static struct error *
sb_dry_run(const struct backend_opts *o, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    int64_t n, FILE *f)
{
	(void)o;
	(void)jc;
	(void)n;	/* a chain's later jobs: submit's own header says */
	fprintf(f, "# command: sbatch --parsable%s%s%s\n",
	    so->hold ? " --hold" : "",
	    so->script_path != NULL ? " " : " (script on standard input)",
	    so->script_path != NULL ? so->script_path : "");
	fputs(d->script, f);
	return NULL;
}

const struct backend backend_sbatch = {
	.name = "sbatch",
	.open = sb_open,
	.submit = sb_submit,
	.status = sb_status,
	.history = sb_history,
	.list = sb_list,
	.cancel = sb_cancel,
	.find = sb_find,
	.release = sb_release,
	.node_host = sb_node_host,
	.patterns = sb_patterns,
	.sluid = sb_sluid,
	.close = sb_close,
	.dry_run = sb_dry_run,
	.reads_directives = true,
};
