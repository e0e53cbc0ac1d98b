/*
 * backend-sbatch.c: the sbatch back end: sbatch --parsable reads the
 * script from standard input (and its #SBATCH lines itself), squeue
 * tells what slurmctld has of a job (--json, or fixed columns on 22.05),
 * sacct what accounting keeps once slurmctld forgot it (both read by
 * jobtext.c), scancel cancels.  The clients find slurmctld as they
 * always do ($SLURM_CONF or /etc/slurm), without the user's own filters
 * (sb_user_filter()).  Programs are run without a shell (spawn.h).
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
#include "site.h"
#include "siteinfo.h"
#include "spawn.h"
#include "xmalloc.h"

extern char	**environ;

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

/*
 * Run sbatch MODE ("--parsable", or "--test-only" with the start time
 * in seconds) on the script of D with what SO adds: to the job's
 * environment in sbatch's own (through env(1)) and, unless the script
 * exports everything, in its --export (jobdesc.h).
 */
static struct error *
sb_run_sbatch(const struct jobdesc *d, const struct submit_opts *so,
    const char *mode, struct spawn_result *res)
{
	struct error		*err;
	struct jobdesc		 copy;
	char			**argv, *dep = NULL, *exp = NULL, *p;
	char			*tres[2];
	size_t			 n = 0, nenv = 0;
	bool			 test = strcmp(mode, "--test-only") == 0;

	jobdesc_for_release(&copy, d, so, 0, tres);
	free(tres[0]);
	free(tres[1]);
	while (copy.env_add != NULL && copy.env_add[nenv] != NULL)
		nenv++;
	argv = xcalloc(nenv + 11, sizeof *argv);
	if (nenv > 0 || test)
		argv[n++] = "env";
	if (nenv > 0) {
		memcpy(argv + n, copy.env_add, nenv * sizeof *argv);
		n += nenv;
	}
	/* slurm_make_time_str() (src/common/parse_time.c) of the start. */
	if (test)
		argv[n++] = "SLURM_TIME_FORMAT=%s";
	argv[n++] = "sbatch";
	argv[n++] = (char *)mode;
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
		err = spawn_run(argv, NULL, 0, res);
	else
		err = spawn_run(argv, d->script, strlen(d->script), res);
	free(dep);
	free(exp);
	free(argv);
	return err;
}

static struct error *
sb_submit(struct backend_ctx *ctx, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    struct submit_result *r)
{
	struct spawn_result	 res;
	struct error		*err;
	char			*msg, **warnings;
	size_t			 n;

	(void)jc;
	memset(r, 0, sizeof *r);
	if ((err = sb_run_sbatch(d, so, "--parsable", &res)) != NULL)
		return err;
	/*
	 * sbatch prints the id once the job is queued, and only then.  With
	 * --wait (SBATCH_WAIT, "#SBATCH --wait", which sbatch reads itself
	 * and the other back ends refuse) it then waits for the job to end
	 * and exits with its exit status (_job_wait() in
	 * src/sbatch/sbatch.c): the job was queued all the same.
	 */
	err = jobtext_sbatch_id(res.out.data, &r->job_id);
	if (res.status != 0 && err != NULL) {
		error_free(err);
		msg = jobtext_client_message(res.err.data, "sbatch");
		err = error_new(EXIT_FAILURE_OP, "sbatch: %s", msg);
		free(msg);
	}
	if (err != NULL) {
		spawn_result_release(&res);
		return err;
	}
	/* Anything sbatch said while queueing the job is a warning. */
	warnings = jobtext_sbatch_warnings(res.err.data);
	for (n = 0; warnings[n] != NULL; n++)
		sb_add_warning(r, warnings[n]);
	freev(warnings);
	if (res.status != 0) {
		msg = xasprintf("sbatch --wait: the job has ended, exit status "
		    "%d", res.status);
		sb_add_warning(r, msg);
		free(msg);
	}
	spawn_result_release(&res);
	r->release = sb_release(ctx);
	return NULL;
}

/*
 * sbatch --test-only (src/sbatch/sbatch.c: slurm_job_will_run(), which
 * prints its answer and queues nothing; 22.05.8 sbatch.c:272, 25.11.7
 * sbatch.c:282): exit 0 and the start on standard error, or exit 1 and
 * slurm_perror()'s "allocation failure: REASON".
 */
static struct error *
sb_will_run(struct backend_ctx *ctx, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    struct will_run *w)
{
	struct spawn_result	 res;
	struct error		*err;
	const char		*m;
	char			*msg;

	(void)jc;
	memset(w, 0, sizeof *w);
	if ((err = sb_run_sbatch(d, so, "--test-only", &res)) != NULL)
		return err;
	if (res.status != 0) {
		msg = jobtext_client_message(res.err.data, "sbatch");
		m = msg;
		if (strncmp(m, "allocation failure: ", 20) == 0)
			m += 20;
		err = error_new(EXIT_FAILURE_OP, "sbatch --test-only: %s", m);
		free(msg);
	} else
		err = jobtext_will_run(res.err.data, w);
	spawn_result_release(&res);
	if (err == NULL)
		w->release = sb_release(ctx);
	return err;
}

/*
 * The variables of the user's environment through which squeue, sacct
 * and scancel filter or reshape what they print or do, whatever their
 * command line says: every SQUEUE_*, SACCT_* and SCANCEL_* (22.05 to
 * 25.11: src/squeue/opts.c parse_command_line(), src/sacct/options.c,
 * src/scancel/opt.c _opt_env()).  SQUEUE_ACCOUNT, _NAMES, _LICENSES,
 * _PARTITION, _QOS, _STATES and _USERS hide jobs from squeue's lines
 * (and from its --json from 24.05 on: squeue_filter_jobs_for_json()),
 * SQUEUE_ARRAY and _PRIORITY print a job more than once, SCANCEL_USER,
 * _ACCOUNT, _NAME, _PARTITION, _QOS, _STATE and _WCKEY make scancel
 * leave a job that does not match (exit 0), SCANCEL_INTERACTIVE asks a
 * question on a standard input there is none of, SCANCEL_BATCH and
 * _FULL signal only some of a job's steps, SACCT_FEDERATION lists other
 * clusters' jobs.  The cluster's own configuration (SLURM_CONF,
 * SLURM_CLUSTERS) stays.
 */
static bool
sb_user_filter(const char *var)
{
	static const char *const prefixes[] = { "SQUEUE_", "SACCT_",
	    "SCANCEL_" };
	size_t	 i;

	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		if (strncmp(var, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

/*
 * Run client PROG with ARGS (a NULL-terminated array of new strings,
 * freed here) through env(1) (the environment is the process's, shared
 * with other threads): without the user's filters (sb_user_filter()),
 * with SLURM_TIME_FORMAT=%s whatever the user's own, so that jobtext.c
 * reads times as seconds, and SLURM_BITSTR_LEN=0, so that an array's
 * list of tasks not started is whole (libslurm cuts it to 64 characters
 * and "..." otherwise: slurm_protocol_defs.c).  A client that cannot be
 * started is an error, as spawn_run() says it.
 */
static struct error *
sb_client(const char *prog, char **args, struct spawn_result *res)
{
	struct error	*err;
	char		**argv, *msg, *p, **unset = NULL;
	size_t		 n = 0, nargs = 0, nunset = 0, i;

	while (args[nargs] != NULL)
		nargs++;
	for (i = 0; environ[i] != NULL; i++)
		if (sb_user_filter(environ[i])) {
			unset = xreallocarray(unset, nunset + 2, sizeof *unset);
			unset[nunset++] = xstrndup(environ[i],
			    strcspn(environ[i], "="));
			unset[nunset] = NULL;
		}
	argv = xcalloc(2 * nunset + nargs + 5, sizeof *argv);
	argv[n++] = "env";
	for (i = 0; i < nunset; i++) {
		argv[n++] = "-u";
		argv[n++] = unset[i];
	}
	argv[n++] = "SLURM_TIME_FORMAT=%s";
	argv[n++] = "SLURM_BITSTR_LEN=0";
	argv[n++] = (char *)prog;
	memcpy(argv + n, args, nargs * sizeof *argv);
	err = spawn_run(argv, NULL, 0, res);
	free(argv);
	freev(unset);
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

/*
 * Who squeue is asked for when it lists this process's user's jobs
 * (sbatch submits as it): its uid, or -1 for every job when "--user=UID"
 * would not name this user.  squeue reads UID as a login name first and
 * only then as a number, which before 25.05 must have a passwd entry
 * (uid_from_string() in src/common/uid.c, _build_user_list() in
 * src/squeue/opts.c: "Invalid user", then no job listed, or every job
 * with --json on 23.02 and 23.11).  jobtext.c keeps the user's by uid
 * either way: a user without a passwd entry has jobs too.
 */
static int64_t
sb_squeue_user(struct backend_ctx *ctx)
{
	struct passwd	*pw;
	char		 name[32];
	uid_t		 uid = getuid();
	int		 release = sb_release(ctx);

	snprintf(name, sizeof name, "%lu", (unsigned long)uid);
	if ((pw = getpwnam(name)) != NULL)
		return pw->pw_uid == uid ? (int64_t)uid : -1;
	if (getpwuid(uid) == NULL && release != 0 && release < 2505)
		return -1;
	return (int64_t)uid;
}

/*
 * The uid of the records to keep of what squeue printed of this user's
 * jobs: this process's, or -1 (every record) when squeue --json of 23.02
 * on was asked --user=UID, for which slurmctld packs that uid's jobs
 * alone (pack_all_jobs() in src/slurmctld/job_mgr.c, by filter_uid): a
 * second reading of JSON that large (6 KB a job on 25.11) would cost as
 * much as the first.  22.05's columns are filtered as they are read.
 */
static int64_t
sb_keep_uid(struct backend_ctx *ctx)
{
	int	 release = sb_release(ctx);

	if (release != 0 && !jobtext_squeue_columns(release) &&
	    sb_squeue_user(ctx) >= 0)
		return -1;
	return (int64_t)getuid();
}

/*
 * What squeue prints of job ID (ID > 0; a job it does not know: nothing),
 * or of this process's user's jobs (ID 0), in *RES, as jobtext_squeue()
 * reads it: JSON or columns of fixed widths, where a job's name (another
 * user's bytes, a newline too) cannot make a record of its own.
 */
static struct error *
sb_squeue(struct backend_ctx *ctx, int64_t id, struct spawn_result *res)
{
	struct error	*err;
	char		*msg;
	int		 release = sb_release(ctx);

	if ((err = sb_client("squeue", jobtext_squeue_args(release, id,
	    id > 0 ? -1 : sb_squeue_user(ctx)), res)) != NULL)
		return err;
	if (res->status == 0)
		return NULL;
	msg = jobtext_client_message(res->err.data, "squeue");
	if (id > 0 && strstr(msg, "Invalid job id") != NULL) {
		/* A job it does not know is an error. */
		buf_reset(&res->out);
		res->status = 0;
		free(msg);
		return NULL;
	}
	err = error_new(EXIT_FAILURE_OP, "squeue: %s", msg);
	if (!jobtext_squeue_columns(release) &&
	    (strcasestr(msg, "json") != NULL ||
	    strcasestr(msg, "serializer") != NULL ||
	    strcasestr(msg, "data_parser") != NULL ||
	    strcasestr(msg, "openapi") != NULL))
		error_hint(err, "the sbatch back end reads slurmctld's jobs "
		    "with squeue --json from Slurm 23.02 on, which needs the "
		    "serializer/json and data_parser plugins (22.05's, "
		    "openapi/v0.0.38 too, when sbatch --version does not "
		    "say the release); without them, use --via rest or "
		    "--via native");
	free(msg);
	spawn_result_release(res);
	return err;
}

/*
 * Records of job ID (ID > 0: an array's tasks and groups) or of this
 * process's user's jobs (ID 0), onto LIST.
 */
static struct error *
sb_jobs(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;

	if ((err = sb_squeue(ctx, id, &res)) != NULL)
		return err;
	/* Nothing printed: a job it does not know (sb_squeue()). */
	if (res.out.len > 0)
		err = jobtext_squeue(sb_release(ctx), res.out.data,
		    res.out.len, id, id > 0 ? -1 : sb_keep_uid(ctx), list);
	spawn_result_release(&res);
	return err;
}

/* Every record slurmctld has for job ID (an array's tasks and groups). */
static struct error *
sb_status(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	return sb_jobs(ctx, id, list);
}

/* Every job of this process's user slurmctld knows. */
static struct error *
sb_list(struct backend_ctx *ctx, struct job_list *list)
{
	return sb_jobs(ctx, 0, list);
}

/* sacct ARGS (freed here) into *RES, or the error it said: "Slurm
 * accounting storage is disabled", "Problem talking to the database:
 * Connection refused". */
static struct error *
sb_sacct_run(char **args, struct spawn_result *res)
{
	struct error	*err;
	char		*msg;

	if ((err = sb_client("sacct", args, res)) != NULL)
		return err;
	if (res->status == 0)
		return NULL;
	msg = jobtext_client_message(res->err.data, "sacct");
	err = error_new(EXIT_FAILURE_OP, "sacct: %s", msg);
	free(msg);
	spawn_result_release(res);
	return err;
}

/*
 * What accounting has for job ID: sacct's allocations (no steps), one
 * per line in columns of fixed widths (jobtext_sacct_args), an array's
 * tasks not started as one line.  DUPLICATES: every record accounting
 * keeps of the id, a requeued job's each attempt among them (slurmdbd
 * keeps only the newest of an id unless JOBCOND_FLAG_DUP, sacct's
 * --duplicates: as_mysql_jobacct_process.c:640 in 22.05.8), else the
 * newest, as slurmctld has it.
 */
static struct error *
sb_sacct(struct backend_ctx *ctx, int64_t id, bool duplicates,
    struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;
	char			**args;
	int			 release = sb_release(ctx);
	size_t			 n;

	args = jobtext_sacct_args(id, release);
	if (duplicates) {
		for (n = 0; args[n] != NULL; n++)
			;
		args = xreallocarray(args, n + 2, sizeof *args);
		args[n] = xstrdup("--duplicates");
		args[n + 1] = NULL;
	}
	if ((err = sb_sacct_run(args, &res)) != NULL)
		return err;
	err = jobtext_sacct(release, res.out.data, res.out.len, list);
	spawn_result_release(&res);
	return err;
}

static struct error *
sb_history(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	return sb_sacct(ctx, id, false, list);
}

static struct error *
sb_attempts(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	return sb_sacct(ctx, id, true, list);
}

/* Every step of every attempt of job ID: sacct's lines without
 * --allocations (jobtext_sacct_steps()). */
static struct error *
sb_steps(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	struct spawn_result	 res;
	struct error		*err;

	(void)ctx;
	if ((err = sb_sacct_run(jobtext_sacct_steps_args(id), &res)) != NULL)
		return err;
	err = jobtext_sacct_steps(res.out.data, res.out.len, list);
	spawn_result_release(&res);
	return err;
}

/*
 * scancel --verbose ID.  scancel exits 0 and says nothing of a job it
 * does not know or that had ended; with --verbose it says "Kill job
 * error on job id ID: " and Slurm's words, "Invalid job id specified" or
 * SLURM_ALREADY_DONE_TEXT (_cancel_job_id() in src/scancel/scancel.c,
 * 22.05 to 25.11), so no squeue is needed first to tell them.
 */
static struct error *
sb_cancel(struct backend_ctx *ctx, int64_t id)
{
	struct spawn_result	 res;
	struct error		*err;
	char			**argv, *msg, *words;

	(void)ctx;
	argv = xcalloc(3, sizeof *argv);
	argv[0] = xstrdup("--verbose");
	argv[1] = xasprintf("%lld", (long long)id);
	if ((err = sb_client("scancel", argv, &res)) != NULL)
		return err;
	if (strstr(res.err.data, ": " SLURM_ALREADY_DONE_TEXT) != NULL)
		err = job_done_error(id, NULL);
	else if (res.status != 0 || strstr(res.err.data, "error") != NULL) {
		msg = jobtext_client_message(res.err.data, "scancel");
		/* "Kill job error on job id ID: WORDS": Slurm's WORDS. */
		words = msg;
		if (strncmp(msg, "Kill job error on job id ", 25) == 0 &&
		    (words = strstr(msg, ": ")) != NULL)
			words += 2;
		else
			words = msg;
		err = strstr(words, "Invalid job id") != NULL ?
		    error_set_kind(error_new(EXIT_FAILURE_OP, "job %lld: no "
		    "such job (Slurm: %s)", (long long)id, words),
		    ERROR_NO_SUCH_JOB) :
		    error_new(EXIT_FAILURE_OP, "scancel: %s", words);
		free(msg);
	}
	spawn_result_release(&res);
	return err;
}

/*
 * The caller's job named exactly NAME, among its jobs as squeue lists
 * them (squeue --name would split a name at its commas).
 */
static struct error *
sb_find(struct backend_ctx *ctx, const char *name, int64_t *id)
{
	struct spawn_result	 res;
	struct error		*err;

	*id = 0;
	if ((err = sb_squeue(ctx, 0, &res)) != NULL)
		return err;
	err = jobtext_squeue_find(sb_release(ctx), res.out.data, res.out.len,
	    name, sb_keep_uid(ctx), id);
	spawn_result_release(&res);
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

/* Accounting's SLUID of job ID: sacct's own column of it, beside the
 * raw id that picks ID's line out of an array's (25.11; sacct's other
 * columns are read without it: jobtext.c). */
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
	    "--format=JobIDRaw%-20,SLUID%-20", NULL), &res);
	free(jobs);
	if (err != NULL)
		return err;
	if (res.status == 0)
		*sluid = jobtext_sluid(res.out.data, id);
	spawn_result_release(&res);
	return NULL;
}

/* One client's output, or an error with its own words. */
static struct error *
sb_site_client(const char *prog, char **args, struct spawn_result *res)
{
	struct error	*err;
	char		*msg;

	if ((err = sb_client(prog, args, res)) != NULL)
		return err;
	if (res->status == 0)
		return NULL;
	msg = jobtext_client_message(res->err.data, prog);
	err = error_new(EXIT_FAILURE_OP, "%s: %s", prog, msg);
	free(msg);
	spawn_result_release(res);
	return err;
}

/*
 * scontrol's partitions and nodes (one a line, -o), then sacctmgr's QoS
 * and the user's associations (-nP: '|' between fields, no header); a
 * cluster without accounting (sacctmgr fails) leaves those not known.
 */
static struct error *
sb_site(struct backend_ctx *ctx, struct site *site)
{
	struct spawn_result	 res;
	struct error		*err;
	struct passwd		*pw;
	char			*where;

	(void)ctx;
	if ((err = sb_site_client("scontrol", sb_argv("show", "partition",
	    "-o", NULL), &res)) != NULL)
		return err;
	err = siteinfo_scontrol_partitions(site, res.out.data);
	spawn_result_release(&res);
	if (err != NULL || (err = sb_site_client("scontrol", sb_argv("show",
	    "node", "-o", NULL), &res)) != NULL)
		return err;
	err = siteinfo_scontrol_nodes(site, res.out.data);
	spawn_result_release(&res);
	if (err != NULL)
		return err;
	if ((pw = getpwuid(getuid())) != NULL) {
		free(site->user);
		site->user = xstrdup(pw->pw_name);
	}
	if ((err = sb_site_client("sacctmgr", sb_argv("-nP", "show", "qos",
	    "format=Name,MaxWall,MaxTRES,MaxTRESPU", NULL), &res)) != NULL) {
		/* No accounting: said, not an error. */
		free(site->no_accounting);
		site->no_accounting = xstrdup(err->msg);
		error_free(err);
		return NULL;
	}
	err = siteinfo_sacctmgr_qos(site, res.out.data);
	spawn_result_release(&res);
	if (err != NULL || site->user == NULL)
		return err;
	where = xasprintf("user=%s", site->user);
	err = sb_site_client("sacctmgr", sb_argv("-nP", "show", "assoc",
	    "where", where, "format=Account,Partition,QOS", NULL), &res);
	free(where);
	if (err != NULL)
		return err;
	err = siteinfo_sacctmgr_assoc(site, res.out.data);
	spawn_result_release(&res);
	return err;
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
	.will_run = sb_will_run,
	.status = sb_status,
	.history = sb_history,
	.attempts = sb_attempts,
	.steps = sb_steps,
	.list = sb_list,
	.cancel = sb_cancel,
	.find = sb_find,
	.release = sb_release,
	.node_host = sb_node_host,
	.patterns = sb_patterns,
	.sluid = sb_sluid,
	.site = sb_site,
	.close = sb_close,
	.dry_run = sb_dry_run,
	.reads_directives = true,
};
