/*
 * backend-sbatch.c: the sbatch back end: sbatch --parsable reads the
 * script from standard input (and its #SBATCH lines itself), scontrol
 * tells a job's state, scancel cancels.  The clients find slurmctld as
 * they always do ($SLURM_CONF or /etc/slurm).  Programs are run without a
 * shell (spawn.h).
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobdesc.h"
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
 * The value of KEY in an "scontrol show job --oneliner" line.  Values
 * may hold spaces (JobName=my run), so a value runs to the next " Key="
 * whose key is a capitalised word.
 */
static char *
sb_field(const char *line, const char *key)
{
	const char	*p = line, *v, *e;
	size_t		 n = strlen(key);

	for (;;) {
		p = strstr(p, key);
		if (p == NULL)
			return NULL;
		if ((p == line || p[-1] == ' ') && p[n] == '=')
			break;
		p++;
	}
	v = p + n + 1;
	for (e = v; *e != '\0' && *e != '\n'; e++) {
		const char *k = e + 1;

		if (*e != ' ' || !isupper((unsigned char)*k))
			continue;
		while (isalnum((unsigned char)*k) || *k == '/' || *k == ':')
			k++;
		if (*k == '=')
			break;
	}
	return xstrndup(v, (size_t)(e - v));
}

static int64_t
sb_field_time(const char *line, const char *key)
{
	struct tm	 tm;
	char		*v = sb_field(line, key);
	int64_t		 t = 0;

	memset(&tm, 0, sizeof tm);
	tm.tm_isdst = -1;
	if (v != NULL && strptime(v, "%Y-%m-%dT%H:%M:%S", &tm) != NULL)
		t = (int64_t)mktime(&tm);
	free(v);
	return t;
}

/* A number field of LINE, or DFLT when it is not there or not one. */
static int64_t
sb_field_num(const char *line, const char *key, int64_t dflt)
{
	char		*v = sb_field(line, key), *end;
	long long	 n = dflt;

	if (v != NULL && *v != '\0') {
		n = strtoll(v, &end, 10);
		if (*end != '\0')
			n = dflt;
	}
	free(v);
	return n;
}

/* A field that scontrol writes "(null)" or nothing for: NULL then. */
static char *
sb_field_set(const char *line, const char *key)
{
	char	*v = sb_field(line, key);

	if (v != NULL && (*v == '\0' || strcmp(v, "(null)") == 0)) {
		free(v);
		v = NULL;
	}
	return v;
}

/*
 * Where the job writes, as scontrol shows it: already expanded (22.05
 * expands %A %a %j %u %x only; 24.05 on, print_fields.c's display rules).
 * UserId=root(0): the name before the '('.
 */
static void
sb_status_logs(const char *line, struct job_status *s)
{
	char	*p;

	s->std_out = sb_field_set(line, "StdOut");
	s->std_err = sb_field_set(line, "StdErr");
	s->std_expanded = true;
	s->work_dir = sb_field_set(line, "WorkDir");
	s->batch_host = sb_field_set(line, "BatchHost");
	if ((s->user = sb_field_set(line, "UserId")) != NULL &&
	    (p = strchr(s->user, '(')) != NULL)
		*p = '\0';
	s->array_job_id = sb_field_num(line, "ArrayJobId", 0);
	s->array_task_id = s->array_job_id != 0 ?
	    sb_field_num(line, "ArrayTaskId", -1) : -1;
	s->restart_cnt = sb_field_num(line, "Restarts", 0);
}

static struct error *
sb_status_one(struct backend_ctx *ctx, int64_t id, struct job_status *s)
{
	struct spawn_result	 res;
	struct error		*err;
	char			 ids[32], *argv[6], *v, *msg;

	(void)ctx;
	memset(s, 0, sizeof *s);
	snprintf(ids, sizeof ids, "%lld", (long long)id);
	argv[0] = "scontrol";
	argv[1] = "show";
	argv[2] = "job";
	argv[3] = "--oneliner";
	argv[4] = ids;
	argv[5] = NULL;
	if ((err = spawn_run(argv, NULL, 0, &res)) != NULL)
		return err;
	if (res.status != 0) {
		msg = sb_client_message(&res.err, "scontrol");
		if (strstr(msg, "Invalid job id") != NULL)
			err = error_new(EXIT_FAILURE_OP, "job %lld: no such "
			    "job (Slurm: %s)", (long long)id, msg);
		else
			err = error_new(EXIT_FAILURE_OP, "scontrol: %s", msg);
		free(msg);
		spawn_result_release(&res);
		return err;
	}
	s->job_id = id;
	if ((v = sb_field(res.out.data, "JobState")) != NULL)
		snprintf(s->state, sizeof s->state, "%s", v);
	free(v);
	s->reason = sb_field(res.out.data, "Reason");
	s->partition = sb_field(res.out.data, "Partition");
	s->name = sb_field(res.out.data, "JobName");
	s->node_list = sb_field(res.out.data, "NodeList");
	if (s->node_list != NULL && (strcmp(s->node_list, "(null)") == 0 ||
	    s->node_list[0] == '\0')) {
		free(s->node_list);
		s->node_list = NULL;
	}
	/* scontrol writes a reason's spaces as '_'. */
	for (v = s->reason; v != NULL && *v != '\0'; v++)
		if (*v == '_')
			*v = ' ';
	if ((v = sb_field(res.out.data, "NumNodes")) != NULL)
		s->nodes = strtoll(v, NULL, 10);
	free(v);
	s->submit_time = sb_field_time(res.out.data, "SubmitTime");
	s->start_time = sb_field_time(res.out.data, "StartTime");
	s->end_time = sb_field_time(res.out.data, "EndTime");
	if ((v = sb_field(res.out.data, "ExitCode")) != NULL &&
	    sscanf(v, "%d:%d", &s->exit_code, &s->exit_signal) == 2)
		s->exit_known = true;
	free(v);
	sb_status_logs(res.out.data, s);
	spawn_result_release(&res);
	if (s->state[0] == '\0') {
		/* What was read is the caller's only on success. */
		job_status_release(s);
		return error_new(EXIT_FAILURE_OP, "scontrol: no JobState for "
		    "job %lld", (long long)id);
	}
	return NULL;
}

static struct error *
sb_cancel(struct backend_ctx *ctx, int64_t id)
{
	struct spawn_result	 res;
	struct job_status	 s;
	struct error		*err;
	char			 ids[32], *argv[3], *msg;

	/* scancel says nothing, and exits 0, for a job it does not know. */
	if ((err = sb_status_one(ctx, id, &s)) != NULL)
		return err;
	job_status_release(&s);
	snprintf(ids, sizeof ids, "%lld", (long long)id);
	argv[0] = "scancel";
	argv[1] = ids;
	argv[2] = NULL;
	if ((err = spawn_run(argv, NULL, 0, &res)) != NULL)
		return err;
	if (res.status != 0 || strstr(res.err.data, "error") != NULL) {
		msg = sb_client_message(&res.err, "scancel");
		err = strstr(msg, "Invalid job id") != NULL ?
		    error_new(EXIT_FAILURE_OP, "job %lld: no such job (Slurm: "
		    "%s)", (long long)id, msg) :
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

/* INTERIM (issue 15): one record, until the back end lists arrays. */
static struct error *
sb_status(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	struct job_status	 s;
	struct error		*err;

	if ((err = sb_status_one(ctx, id, &s)) != NULL) {
		if (strstr(err->msg, "no such job") == NULL)
			return err;
		error_free(err);
		return NULL;
	}
	s.array_task_id = s.array_job_id != 0 ? s.array_task_id : -1;
	*job_list_add(list) = s;
	return NULL;
}

/* INTERIM (issue 15). */
static struct error *
sb_history(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	(void)ctx;
	(void)id;
	(void)list;
	return error_new(EXIT_FAILURE_OP, "accounting: not yet read by this back end");
}

/* INTERIM (issue 15). */
static struct error *
sb_list(struct backend_ctx *ctx, struct job_list *list)
{
	(void)ctx;
	(void)list;
	return error_new(EXIT_FAILURE_OP, "jobs: not yet listed by this back end");
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
	.close = sb_close,
	.dry_run = sb_dry_run,
	.reads_directives = true,
};
