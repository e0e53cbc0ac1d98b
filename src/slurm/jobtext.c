/*
 * jobtext.c: squeue's JSON, sacct's columns and what sbatch says, read
 * (jobtext.h).  The two print the same job a little differently:
 *
 *   an array's tasks not yet started  squeue: job_id = array_job_id,
 *                                       array_task_string "2-9%2"
 *                                     sacct: JobID 1_[2-9%2], JobIDRaw 1
 *   a started task                    squeue: its own job_id,
 *                                       array_task_id 1
 *                                     sacct: JobID 1_1, JobIDRaw 5
 *   a state                           sacct: "CANCELLED by 0" (who)
 *   no node                           sacct: "None assigned"
 *   the error file with the output    sacct 24.05 on: empty
 *
 * sacct gives the log paths (24.05 on) as sbatch sent them.
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobtext.h"
#include "rest.h"
#include "xmalloc.h"

/* ---- sacct ---- */

/*
 * The fields asked of sacct, in this order, each in a column of its
 * width (a value longer than that is cut, and ends in '+': print_fields.c
 * print_fields_str()).  The widths are above what slurmctld lets a job
 * have (job_mgr.c _test_job_desc_fields(): a name 1024 bytes, a path
 * MAXPATHLEN 4096); a list of nodes or of array tasks longer than its
 * column is not known.  SINCE: the release sacct has it from.
 */
enum {
	SA_JOBIDRAW, SA_JOBID, SA_STATE, SA_EXITCODE, SA_SUBMIT, SA_START,
	SA_END, SA_NNODES, SA_RESTARTS, SA_USER, SA_REASON, SA_PARTITION,
	SA_NODELIST, SA_JOBNAME, SA_WORKDIR, SA_STDOUT, SA_STDERR, SA_NFIELDS
};
static const struct {
	const char	*name;
	int		 width;
	int		 since;
} sa_fields[SA_NFIELDS] = {
	[SA_JOBIDRAW] =		{ "JobIDRaw", 20, 0 },
	[SA_JOBID] =		{ "JobID", 4200, 0 },
	[SA_STATE] =		{ "State", 40, 0 },
	[SA_EXITCODE] =		{ "ExitCode", 16, 0 },
	[SA_SUBMIT] =		{ "Submit", 24, 0 },
	[SA_START] =		{ "Start", 24, 0 },
	[SA_END] =		{ "End", 24, 0 },
	[SA_NNODES] =		{ "NNodes", 12, 0 },
	[SA_RESTARTS] =		{ "Restarts", 12, 2411 },
	[SA_USER] =		{ "User", 256, 0 },
	[SA_REASON] =		{ "Reason", 256, 0 },
	[SA_PARTITION] =	{ "Partition", 1100, 0 },
	[SA_NODELIST] =		{ "NodeList", 4200, 0 },
	[SA_JOBNAME] =		{ "JobName", 1100, 0 },
	[SA_WORKDIR] =		{ "WorkDir", 4200, 0 },
	[SA_STDOUT] =		{ "StdOut", 4200, 2405 },
	[SA_STDERR] =		{ "StdErr", 4200, 2405 },
};

static bool
sa_has(int field, int release)
{
	return release == 0 || release >= sa_fields[field].since;
}

char **
jobtext_sacct_args(int64_t id, int release)
{
	struct buf	 fmt;
	char		**argv = xcalloc(5, sizeof *argv);
	int		 i;

	buf_init(&fmt);
	buf_adds(&fmt, "--format=");
	for (i = 0; i < SA_NFIELDS; i++)
		if (sa_has(i, release))
			buf_addf(&fmt, "%s%s%%-%d", fmt.len > 9 ? "," : "",
			    sa_fields[i].name, sa_fields[i].width);
	argv[0] = xasprintf("--jobs=%lld", (long long)id);
	argv[1] = xstrdup("--allocations");
	argv[2] = xstrdup("--noheader");
	argv[3] = buf_detach(&fmt);
	return argv;
}

/* "123", digits only, to *N. */
static bool
parse_id(const char *s, int64_t *n)
{
	char		*end;
	long long	 v;

	if (s == NULL || !isdigit((unsigned char)*s))
		return false;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || v < 0)
		return false;
	*n = v;
	return true;
}

/*
 * A time as sacct prints it: seconds with SLURM_TIME_FORMAT=%s, else
 * its ISO form in local time; 0 for "Unknown", "None", "N/A".
 */
static int64_t
parse_time(const char *s)
{
	struct tm	 tm;
	int64_t		 t;
	const char	*end;

	if (parse_id(s, &t))
		return t;
	if (s == NULL)
		return 0;
	memset(&tm, 0, sizeof tm);
	tm.tm_isdst = -1;
	if ((end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm)) == NULL ||
	    *end != '\0')
		return 0;
	return (int64_t)mktime(&tm);
}

/* "3:0": exit status 3, no signal. */
static void
parse_exit(const char *s, struct job_status *st)
{
	if (s != NULL &&
	    sscanf(s, "%d:%d", &st->exit_code, &st->exit_signal) == 2)
		st->exit_known = true;
}

/* A copy of S, or NULL for what sacct writes for nothing. */
static char *
dup_set(const char *s)
{
	if (s == NULL || *s == '\0' || strcmp(s, "(null)") == 0 ||
	    strcmp(s, "None assigned") == 0)
		return NULL;
	return xstrdup(s);
}

/*
 * The array's tasks not yet started, or a task?  A list ("2-9%2") is a
 * group; so is one task number on the array's own record while it waits
 * (its last task not started: 22.05 prints "16_2" where 25.11 prints
 * "16_[2%2]").
 */
static void
set_array(struct job_status *st, const char *tasks, bool bracketed)
{
	int64_t	 n;

	if (!bracketed && parse_id(tasks, &n) &&
	    (st->job_id != st->array_job_id ||
	    strcmp(st->state, "PENDING") != 0)) {
		st->array_task_id = n;
		return;
	}
	st->array_task_id = -1;
	st->array_tasks = xstrdup(tasks);
}

/* "1_4" (a task), "1_[2-9%2]" (tasks not started), "1", "7+0". */
static void
sa_array(struct job_status *st, const char *jobid)
{
	const char	*u, *tasks;
	char		*id;
	size_t		 len;

	if (jobid == NULL || (u = strchr(jobid, '_')) == NULL)
		return;
	id = xstrndup(jobid, (size_t)(u - jobid));
	if (!parse_id(id, &st->array_job_id))
		st->array_job_id = 0;
	free(id);
	tasks = u + 1;
	len = strlen(tasks);
	if (st->array_job_id == 0 || len == 0)
		return;
	if (tasks[0] == '[' && tasks[len - 1] == ']' && len > 2) {
		char	*t = xstrndup(tasks + 1, len - 2);

		set_array(st, t, true);
		free(t);
	} else
		set_array(st, tasks, false);
}

static void
sa_record(char *const *f, struct job_status *st)
{
	int64_t	 n;

	st->source = JOB_SOURCE_DBD;
	parse_id(f[SA_JOBIDRAW], &st->job_id);
	/* The state word: "CANCELLED by 0" is CANCELLED. */
	if (f[SA_STATE] != NULL)
		snprintf(st->state, sizeof st->state, "%.*s",
		    (int)strcspn(f[SA_STATE], " "), f[SA_STATE]);
	parse_exit(f[SA_EXITCODE], st);
	st->submit_time = parse_time(f[SA_SUBMIT]);
	st->start_time = parse_time(f[SA_START]);
	st->end_time = parse_time(f[SA_END]);
	if (parse_id(f[SA_NNODES], &n))
		st->nodes = n;
	/* No Restarts column before 24.11 (sa_fields[]). */
	if (parse_id(f[SA_RESTARTS], &n))
		st->restart_cnt = n;
	else
		st->restart_unknown = true;
	st->node_list = dup_set(f[SA_NODELIST]);
	st->partition = dup_set(f[SA_PARTITION]);
	st->user = dup_set(f[SA_USER]);
	st->reason = dup_set(f[SA_REASON]);
	st->work_dir = dup_set(f[SA_WORKDIR]);
	if (f[SA_JOBNAME] != NULL)
		st->name = xstrdup(f[SA_JOBNAME]);
	/* As sbatch sent them (absolute, or Slurm's default relative). */
	st->std_out = dup_set(f[SA_STDOUT]);
	st->std_err = dup_set(f[SA_STDERR]);
	sa_array(st, f[SA_JOBID]);
}

/*
 * The WIDTH bytes of a column at P, as a new string: trailing blanks
 * dropped, NULL when sacct cut the value (full width, ending in '+').
 */
static char *
sa_value(const char *p, size_t width)
{
	size_t	 n = width;

	if (p[width - 1] == '+')
		return NULL;
	while (n > 0 && p[n - 1] == ' ')
		n--;
	return xstrndup(p, n);
}

/* One line of LEN bytes at P into F (the fields RELEASE has), or false. */
static bool
sa_line(int release, const char *p, size_t len, char **f)
{
	size_t	 at = 0, w;
	int	 i;

	for (i = 0; i < SA_NFIELDS; i++)
		f[i] = NULL;
	for (i = 0; i < SA_NFIELDS; i++) {
		if (!sa_has(i, release))
			continue;
		w = (size_t)sa_fields[i].width;
		if (at + w + 1 >= len || p[at + w] != ' ')
			return false;
		f[i] = sa_value(p + at, w);
		at += w + 1;
	}
	return at + 1 == len && p[at] == '\n';
}

struct error *
jobtext_sacct(int release, const char *text, size_t len,
    struct job_list *list)
{
	struct job_status	 st;
	struct error		*err = NULL;
	char			*f[SA_NFIELDS];
	size_t			 width = 1, n0 = list->n, at, i, line = 0;
	bool			 ok;

	for (i = 0; i < SA_NFIELDS; i++)
		if (sa_has((int)i, release))
			width += (size_t)sa_fields[i].width + 1;
	if (len % width != 0)
		return error_new(EXIT_FAILURE_OP, "sacct: %zu bytes are not "
		    "lines of the %zu it was asked for", len, width);
	for (at = 0; at < len && err == NULL; at += width) {
		line++;
		ok = sa_line(release, text + at, width, f);
		memset(&st, 0, sizeof st);
		st.array_task_id = -1;
		if (ok)
			sa_record(f, &st);
		for (i = 0; i < SA_NFIELDS; i++)
			free(f[i]);
		if (!ok)
			err = error_new(EXIT_FAILURE_OP, "sacct: line %zu: not "
			    "the columns it was asked for", line);
		else if (st.job_id <= 0 || st.state[0] == '\0')
			err = error_new(EXIT_FAILURE_OP, "sacct: line %zu: no "
			    "job id or state", line);
		if (err != NULL)
			job_status_release(&st);
		else
			*job_list_add(list) = st;
	}
	if (err != NULL) {
		for (i = n0; i < list->n; i++)
			job_status_release(&list->v[i]);
		list->n = n0;
	}
	return err;
}

/* ---- squeue --json ---- */

char **
jobtext_squeue_args(int64_t id, int64_t uid)
{
	char	**argv = xcalloc(4, sizeof *argv);

	argv[0] = xstrdup("--json");
	argv[1] = xstrdup("--states=all");
	argv[2] = id > 0 ? xasprintf("--jobs=%lld", (long long)id) :
	    xasprintf("--user=%lld", (long long)uid);
	return argv;
}

/*
 * The API version of squeue --json of RELEASE: the newest its data
 * parsers have (squeue's default; 22.05's is openapi/v0.0.38,
 * src/squeue/data.c); the newest mbsbatch knows when RELEASE is 0.
 */
static enum rest_version
json_version(int release)
{
	int	 v = REST_NVERSIONS - 1;

	if (release == 0)
		return (enum rest_version)v;
	while (v > 0 && rest_release_serving((enum rest_version)v) > release)
		v--;
	return (enum rest_version)v;
}

/* rest.c's error about squeue's answer, said of squeue. */
static struct error *
squeue_error(struct error *err)
{
	const char	*m = err->msg;
	struct error	*e;
	size_t		 n;

	if (strncmp(m, "slurmrestd: ", 12) == 0)
		m += 12;
	n = strlen(m);
	if (n > 11 && strcmp(m + n - 11, " (HTTP 200)") == 0)
		n -= 11;
	e = error_new(EXIT_FAILURE_OP, "squeue --json: %.*s", (int)n, m);
	error_free(err);
	return e;
}

/* Does TEXT (LEN bytes) look like JSON: an object, after blanks? */
static struct error *
squeue_json(const char *text, size_t len)
{
	size_t	 i = 0;

	while (i < len && (text[i] == ' ' || text[i] == '\n' ||
	    text[i] == '\t' || text[i] == '\r'))
		i++;
	if (i < len && text[i] == '{')
		return NULL;
	return error_new(EXIT_FAILURE_OP, "squeue --json: its output is not "
	    "JSON: '%.*s%s'", (int)(len - i < 60 ? len - i : 60), text + i,
	    len - i > 60 ? "..." : "");
}

struct error *
jobtext_squeue(int release, const char *text, size_t len, int64_t id,
    const char *user, struct job_list *list)
{
	struct job_list	 all = { NULL, 0 };
	struct error	*err;
	size_t		 i;

	if ((err = squeue_json(text, len)) != NULL)
		return err;
	err = rest_parse_jobs(json_version(release), 200, text, len,
	    id > 0 ? NULL : user, &all);
	if (err != NULL) {
		job_list_release(&all);
		return squeue_error(err);
	}
	for (i = 0; i < all.n; i++) {
		if (id > 0 && all.v[i].job_id != id &&
		    all.v[i].array_job_id != id) {
			job_status_release(&all.v[i]);
			continue;
		}
		*job_list_add(list) = all.v[i];
	}
	free(all.v);
	return NULL;
}

struct error *
jobtext_squeue_find(int release, const char *text, size_t len,
    const char *name, const char *user, int64_t *id)
{
	struct error	*err;

	*id = 0;
	if ((err = squeue_json(text, len)) != NULL)
		return err;
	err = rest_parse_find(json_version(release), 200, text, len, name,
	    user, id);
	return err != NULL ? squeue_error(err) : NULL;
}

/* ---- what the other clients say ---- */

char *
jobtext_client_message(const char *text, const char *prog)
{
	char		*copy = xstrdup(text), *line, *p = copy, *best = NULL;
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

char *
jobtext_sluid(const char *out)
{
	static const char	 cb32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
	size_t			 n;

	if (out[0] != 's' || strspn(out + 1, cb32) != 13)
		return NULL;
	n = 14 + strspn(out + 14, " ");
	if (out[n] != '\n' && out[n] != '\0')
		return NULL;
	return xstrndup(out, 14);
}

struct error *
jobtext_sbatch_id(const char *out, int64_t *id)
{
	const char	*p = out;
	int64_t		 v = 0;

	*id = 0;
	while (*p >= '0' && *p <= '9' && v <= (INT64_MAX - 9) / 10)
		v = v * 10 + (*p++ - '0');
	if (p == out || v <= 0 || (*p != ';' && *p != '\n' && *p != '\0'))
		return error_new(EXIT_FAILURE_OP, "sbatch: unexpected output "
		    "'%.60s'", out);
	*id = v;
	return NULL;
}

char **
jobtext_sbatch_warnings(const char *text)
{
	char	**v = xcalloc(1, sizeof *v), *copy = xstrdup(text), *p = copy;
	char	 *line;
	size_t	  n = 0;

	while ((line = strsep(&p, "\n")) != NULL) {
		if (*line == '\0')
			continue;
		if (strncmp(line, "sbatch: ", 8) == 0)
			line += 8;
		if (strncasecmp(line, "warning: ", 9) == 0)
			line += 9;
		v = xreallocarray(v, n + 2, sizeof *v);
		v[n++] = xstrdup(line);
		v[n] = NULL;
	}
	free(copy);
	return v;
}

int
jobtext_release(const char *text)
{
	const char	*v = strchr(text, ' ');
	int		 major, minor;

	if (v != NULL && sscanf(v, " %d.%d", &major, &minor) == 2 &&
	    major >= 17 && major < 100 && minor >= 0 && minor < 100)
		return major * 100 + minor;
	return 0;
}
