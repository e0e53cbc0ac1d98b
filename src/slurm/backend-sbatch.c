/*
 * backend-sbatch.c: the sbatch back end: sbatch --parsable reads the
 * script from standard input (and its #SBATCH lines itself), scontrol
 * tells what slurmctld has of a job, sacct what accounting keeps once
 * slurmctld forgot it (their text read by jobtext.c), scancel cancels.
 * The clients find slurmctld as they always do ($SLURM_CONF or
 * /etc/slurm).  Programs are run without a shell (spawn.h).
 */
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

/* The client's own message: its last "error:" or "fatal:" line (sbatch's
 * verdict; "Try sbatch --help" may follow), else its last line, without
 * "prog: error: ". */
static char *
sb_client_message(const struct buf *err, const char *prog)
{
	char		*copy = xstrdup(err->data), *line, *p = copy, *best = NULL;
	size_t		 n = strlen(prog);

	bool		 found = false;

	while ((line = strsep(&p, "\n")) != NULL) {
		if (*line == '\0')
			continue;
		if (strncmp(line, prog, n) == 0 && strncmp(line + n, ": ", 2) == 0)
			line += n + 2;
		if (strncmp(line, "error: ", 7) == 0 ||
		    strncmp(line, "fatal: ", 7) == 0) {
			best = line + 7;
			found = true;
		} else if (!found)
			best = line;
	}
	if (best != NULL && strncmp(best, "slurm_load_jobs error: ", 23) == 0)
		best += 23;
	best = xstrdup(best != NULL ? best : "failed without a message");
	free(copy);
	return best;
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
	const char		*v;
	int			 major, minor;

	if (ctx->asked)
		return ctx->release;
	ctx->asked = true;
	if ((err = spawn_run(argv, NULL, 0, &res)) != NULL) {
		error_free(err);
		return 0;
	}
	if (res.status == 0 && (v = strchr(res.out.data, ' ')) != NULL &&
	    sscanf(v, " %d.%d", &major, &minor) == 2 && major >= 17 &&
	    major < 100 && minor >= 0 && minor < 100)
		ctx->release = major * 100 + minor;
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
	char			**argv, *dep = NULL, *exp = NULL, *line, *p;
	char			*msg, *tres[2];
	size_t			 n = 0, nenv = 0;
	long long		 id;

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
		msg = sb_client_message(&res.err, "sbatch");
		err = error_new(EXIT_FAILURE_OP, "sbatch: %s", msg);
		free(msg);
		spawn_result_release(&res);
		return err;
	}
	/* "123" or "123;cluster". */
	if (sscanf(res.out.data, "%lld", &id) != 1 || id <= 0) {
		err = error_new(EXIT_FAILURE_OP, "sbatch: unexpected output "
		    "'%.60s'", res.out.data);
		spawn_result_release(&res);
		return err;
	}
	r->job_id = id;
	/* Anything sbatch said while queueing the job is a warning. */
	for (p = res.err.data; (line = strsep(&p, "\n")) != NULL;) {
		if (*line == '\0')
			continue;
		if (strncmp(line, "sbatch: ", 8) == 0)
			line += 8;
		if (strncasecmp(line, "warning: ", 9) == 0)
			line += 9;
		sb_add_warning(r, line);
	}
	spawn_result_release(&res);
	r->release = sb_release(ctx);
	return NULL;
}

/*
 * Run a client with SLURM_TIME_FORMAT=%s, whatever the user's own (env(1):
 * the environment is the process's, shared with other threads), so that
 * jobtext.c reads its times as seconds, and SLURM_BITSTR_LEN=0, so that
 * an array's list of tasks not started is whole (libslurm cuts it to 64
 * characters and "..." otherwise: slurm_protocol_defs.c).  A client that
 * cannot be started is an error, as spawn_run() says it.
 */
static struct error *
sb_client(char *const *args, struct spawn_result *res)
{
	struct error	*err;
	char		*argv[16], *msg, *p;
	size_t		 n = 0;

	argv[n++] = "env";
	argv[n++] = "SLURM_TIME_FORMAT=%s";
	argv[n++] = "SLURM_BITSTR_LEN=0";
	while (*args != NULL && n < sizeof argv / sizeof argv[0] - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	if ((err = spawn_run(argv, NULL, 0, res)) != NULL)
		return err;
	/* env's own failure: "env: 'sacct': No such file or directory". */
	if ((res->status == 126 || res->status == 127) &&
	    strncmp(res->err.data, "env: ", 5) == 0) {
		msg = sb_client_message(&res->err, "env");
		p = (p = strrchr(msg, ':')) != NULL ? p + 1 : msg;
		p += strspn(p, " ");
		err = error_new(EXIT_FAILURE_OP, "cannot run '%s': %s",
		    argv[2], p);
		free(msg);
		spawn_result_release(res);
		return err;
	}
	return NULL;
}

/*
 * What slurmctld has for job ID (ID > 0), or for every job of user UID
 * (ID 0; UID -1: everyone's).  A job it does not know: nothing.
 */
static struct error *
sb_scontrol(int64_t id, int64_t uid, struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;
	char			 ids[32], *argv[6], *msg;

	snprintf(ids, sizeof ids, "%lld", (long long)id);
	argv[0] = "scontrol";
	argv[1] = "show";
	argv[2] = "job";
	argv[3] = "--oneliner";
	argv[4] = id > 0 ? ids : NULL;
	argv[5] = NULL;
	if ((err = sb_client(argv, &res)) != NULL)
		return err;
	if (res.status != 0) {
		msg = sb_client_message(&res.err, "scontrol");
		if (id > 0 && strstr(msg, "Invalid job id") != NULL)
			err = NULL;
		else
			err = error_new(EXIT_FAILURE_OP, "scontrol: %s", msg);
		free(msg);
		spawn_result_release(&res);
		return err;
	}
	err = jobtext_scontrol(res.out.data, uid, list);
	spawn_result_release(&res);
	return err;
}

/* Every record slurmctld has for job ID (an array's tasks and groups). */
static struct error *
sb_status(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	(void)ctx;
	return sb_scontrol(id, -1, list);
}

/* Every job of this process's user slurmctld knows (sbatch submits as
 * it): scontrol lists all, the user's are kept. */
static struct error *
sb_list(struct backend_ctx *ctx, struct job_list *list)
{
	(void)ctx;
	return sb_scontrol(0, (int64_t)getuid(), list);
}

/*
 * What accounting has for job ID: sacct's allocations (-X: no steps),
 * one per line, the fields this release has (jobtext_sacct_fields), an
 * array's tasks not started as one line.  The newest record of a job
 * requeued (no --duplicates), as slurmctld has it.
 */
static struct error *
sb_history(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*argv[8], *ids, *fmt, *msg;

	ids = xasprintf("--jobs=%lld", (long long)id);
	fmt = xasprintf("--format=%s", jobtext_sacct_fields(sb_release(ctx)));
	argv[0] = "sacct";
	argv[1] = ids;
	argv[2] = "--allocations";
	argv[3] = "--parsable2";
	argv[4] = "--delimiter=" JOBTEXT_SACCT_DELIM;
	argv[5] = fmt;
	argv[6] = NULL;
	err = sb_client(argv, &res);
	free(ids);
	free(fmt);
	if (err != NULL)
		return err;
	if (res.status != 0) {
		/* "Slurm accounting storage is disabled", "Problem talking
		 * to the database: Connection refused". */
		msg = sb_client_message(&res.err, "sacct");
		err = error_new(EXIT_FAILURE_OP, "sacct: %s", msg);
		free(msg);
		spawn_result_release(&res);
		return err;
	}
	err = jobtext_sacct(res.out.data, list);
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
		msg = sb_client_message(&res.err, "scancel");
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
 * The caller's job named exactly NAME.  squeue --name takes a list split
 * at commas (a name "a,b" would match jobs "a" and "b"), so it is only a
 * first filter for names without one; every line is then compared whole:
 * "ID NAME", the name running to the end of the line.
 */
static struct error *
sb_find(struct backend_ctx *ctx, const char *name, int64_t *id)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*argv[9], *msg, *nameopt = NULL, *useropt;
	char			*p, *line, *rest;
	long long		 n;
	int			 i = 0;

	(void)ctx;
	*id = 0;
	useropt = xasprintf("--user=%u", (unsigned)getuid());
	argv[i++] = "squeue";
	argv[i++] = "--noheader";
	argv[i++] = "--states=all";
	argv[i++] = "--format=%F %j";
	argv[i++] = "--array";
	argv[i++] = useropt;
	if (strchr(name, ',') == NULL)
		argv[i++] = nameopt = xasprintf("--name=%s", name);
	argv[i] = NULL;
	err = spawn_run(argv, NULL, 0, &res);
	free(nameopt);
	free(useropt);
	if (err != NULL)
		return err;
	if (res.status != 0) {
		msg = sb_client_message(&res.err, "squeue");
		err = error_new(EXIT_FAILURE_OP, "squeue: %s", msg);
		free(msg);
		spawn_result_release(&res);
		return err;
	}
	for (p = res.out.data; (line = strsep(&p, "\n")) != NULL;) {
		n = strtoll(line, &rest, 10);
		if (rest == line || n <= 0 || *rest != ' ' ||
		    strcmp(rest + 1, name) != 0)
			continue;
		*id = n;
		break;
	}
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
	.close = sb_close,
	.dry_run = sb_dry_run,
	.reads_directives = true,
};
