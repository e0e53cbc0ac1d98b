/*
 * jobtext.c: squeue's JSON or columns, sacct's columns and what sbatch
 * says, read (jobtext.h).  The clients print the same job a little
 * differently:
 *
 *   an array's tasks not yet started  squeue --json: job_id =
 *                                       array_job_id, array_task_string
 *                                       "2-9%2"
 *                                     squeue -O jobarrayid, sacct JobID:
 *                                       1_[2-9%2]; sacct JobIDRaw 1
 *   a started task                    squeue --json: its own job_id,
 *                                       array_task_id 1
 *                                     squeue, sacct: 1_1, and its own id
 *   a state                           sacct: "CANCELLED by 0" (who)
 *   no node                           sacct: "None assigned"
 *   the error file with the output    sacct 24.05 on: empty
 *
 * sacct gives the log paths (24.05 on) as sbatch sent them, 22.05's
 * squeue too (but Slurm's default, which it spells out).
 */
#define _XOPEN_SOURCE 700
#include <sys/wait.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobtext.h"
#include "rest.h"
#include "termtext.h"
#include "xmalloc.h"

/* ---- columns of fixed widths (sacct; squeue of 22.05) ---- */

/*
 * A line of N columns: column I is WIDTH[I] bytes (0: not asked, not
 * printed) and a blank, the line ends with '\n'.  Its length.
 */
static size_t
cols_len(const int *width, size_t n)
{
	size_t	 i, len = 1;

	for (i = 0; i < n; i++)
		if (width[i] > 0)
			len += (size_t)width[i] + 1;
	return len;
}

/*
 * Split the line at P (cols_len() bytes) into F: each column's value, a
 * new string without the blanks it ended with (NULL when not asked), and
 * in FULL whether it filled its whole width (the client may have cut
 * it).  False, F all NULL, when P is not such a line.
 */
static bool
cols_line(const int *width, size_t n, const char *p, char **f, bool *full)
{
	size_t	 at = 0, w, k, i;

	for (i = 0; i < n; i++) {
		f[i] = NULL;
		full[i] = false;
	}
	for (i = 0; i < n; i++) {
		if (width[i] <= 0)
			continue;
		w = (size_t)width[i];
		if (p[at + w] != ' ')
			break;
		for (k = w; k > 0 && p[at + k - 1] == ' '; k--)
			;
		f[i] = xstrndup(p + at, k);
		full[i] = k == w;
		at += w + 1;
	}
	if (i == n && p[at] == '\n')
		return true;
	for (i = 0; i < n; i++) {
		free(f[i]);
		f[i] = NULL;
	}
	return false;
}

/*
 * Read TEXT (LEN bytes), lines of N columns of WIDTH: ONE(F, FULL, ST,
 * ARG) makes a record of each (it may free and clear a value of F), and
 * says whether LIST wants it.  WHO names the client in errors.  An error,
 * LIST as it was, when TEXT is not whole such lines or a line has no job
 * id or state.
 */
static struct error *
cols_read(const char *who, const int *width, size_t n, const char *text,
    size_t len, bool (*one)(char **, const bool *, struct job_status *,
    const void *), const void *arg, struct job_list *list)
{
	struct job_status	 st;
	struct error		*err = NULL;
	char			**f = xcalloc(n, sizeof *f);
	bool			*full = xcalloc(n, sizeof *full), ok, keep;
	size_t			 line_len = cols_len(width, n), n0 = list->n;
	size_t			 at, i, line = 0;

	if (len % line_len != 0)
		err = error_new(EXIT_FAILURE_OP, "%s: %zu bytes are not lines "
		    "of the %zu it was asked for", who, len, line_len);
	for (at = 0; at < len && err == NULL; at += line_len) {
		line++;
		ok = cols_line(width, n, text + at, f, full);
		memset(&st, 0, sizeof st);
		st.array_task_id = -1;
		keep = ok && one(f, full, &st, arg);
		for (i = 0; i < n; i++) {
			free(f[i]);
			f[i] = NULL;
		}
		if (!ok)
			err = error_new(EXIT_FAILURE_OP, "%s: line %zu: not the "
			    "columns it was asked for", who, line);
		else if (st.job_id <= 0 || st.state[0] == '\0')
			err = error_new(EXIT_FAILURE_OP, "%s: line %zu: no job "
			    "id or state", who, line);
		if (err == NULL && keep)
			*job_list_add(list) = st;
		else
			job_status_release(&st);
	}
	if (err != NULL) {
		for (i = n0; i < list->n; i++)
			job_status_release(&list->v[i]);
		list->n = n0;
	}
	free(f);
	free(full);
	return err;
}

/* "--format=" or "--Format=" and each asked NAME%-WIDTH or NAME:WIDTH. */
static char *
cols_format(const char *opt, const char *const *name, const int *width,
    size_t n, const char *sep)
{
	struct buf	 b;
	size_t		 i;
	bool		 first = true;

	buf_init(&b);
	buf_adds(&b, opt);
	for (i = 0; i < n; i++) {
		if (width[i] <= 0)
			continue;
		buf_addf(&b, "%s%s%s%d%s", first ? "" : ",", name[i], sep,
		    width[i], sep[0] == ':' ? " " : "");
		first = false;
	}
	return buf_detach(&b);
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
 * A number squeue printed with "%d" from 32 bits (a uid or a wait status
 * over INT_MAX prints negative): those 32 bits, in *N.
 */
static bool
parse_int32(const char *s, uint32_t *n)
{
	char		*end;
	long long	 v;

	if (s == NULL || (*s != '-' && !isdigit((unsigned char)*s)))
		return false;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || v < INT32_MIN || v > UINT32_MAX)
		return false;
	*n = (uint32_t)v;
	return true;
}

/*
 * A time as sacct and squeue print it: seconds with SLURM_TIME_FORMAT=%s,
 * else its ISO form in local time; 0 for "Unknown", "None", "N/A"
 * (slurm_make_time_str() in src/common/parse_time.c, squeue's
 * _print_time()) and what job_time() says is none.
 */
static int64_t
parse_time(const char *s)
{
	struct tm	 tm;
	int64_t		 t;
	const char	*end;

	if (parse_id(s, &t))
		return job_time(t);
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

/* A copy of S, or NULL for what sacct and squeue write for nothing. */
static char *
dup_set(const char *s)
{
	if (s == NULL || *s == '\0' || strcmp(s, "(null)") == 0 ||
	    strcmp(s, "None assigned") == 0)
		return NULL;
	return xstrdup(s);
}

/* The state's word: "CANCELLED by 0" is CANCELLED. */
static void
set_state_word(struct job_status *st, const char *s)
{
	if (s != NULL)
		snprintf(st->state, sizeof st->state, "%.*s",
		    (int)strcspn(s, " "), s);
}

/*
 * An id as sacct's JobID and squeue's jobarrayid print it: "1_4" (a
 * task), "1_[2-9%2]" (tasks not started), "1", "7+0": the array's id
 * in *ARRAY (0: none), and the task or tasks in *TASKS (a new string;
 * NULL when none), *BRACKETED when they were in brackets.
 */
static void
parse_job_id(const char *jobid, int64_t *array, char **tasks,
    bool *bracketed)
{
	const char	*u, *t;
	char		*id;
	size_t		 len;

	*array = 0;
	*tasks = NULL;
	*bracketed = false;
	if (jobid == NULL || (u = strchr(jobid, '_')) == NULL)
		return;
	id = xstrndup(jobid, (size_t)(u - jobid));
	if (!parse_id(id, array))
		*array = 0;
	free(id);
	t = u + 1;
	len = strlen(t);
	if (*array == 0 || len == 0)
		return;
	if (t[0] == '[' && t[len - 1] == ']' && len > 2) {
		*tasks = xstrndup(t + 1, len - 2);
		*bracketed = true;
	} else
		*tasks = xstrdup(t);
}

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
static const char *const sa_names[SA_NFIELDS] = {
	"JobIDRaw", "JobID", "State", "ExitCode", "Submit", "Start", "End",
	"NNodes", "Restarts", "User", "Reason", "Partition", "NodeList",
	"JobName", "WorkDir", "StdOut", "StdErr",
};
static const struct {
	int		 width;
	int		 since;
} sa_fields[SA_NFIELDS] = {
	[SA_JOBIDRAW] =		{ 20, 0 },
	[SA_JOBID] =		{ 4200, 0 },
	[SA_STATE] =		{ 40, 0 },
	[SA_EXITCODE] =		{ 16, 0 },
	[SA_SUBMIT] =		{ 24, 0 },
	[SA_START] =		{ 24, 0 },
	[SA_END] =		{ 24, 0 },
	[SA_NNODES] =		{ 12, 0 },
	[SA_RESTARTS] =		{ 12, 2411 },
	[SA_USER] =		{ 256, 0 },
	[SA_REASON] =		{ 256, 0 },
	[SA_PARTITION] =	{ 1100, 0 },
	[SA_NODELIST] =		{ 4200, 0 },
	[SA_JOBNAME] =		{ 1100, 0 },
	[SA_WORKDIR] =		{ 4200, 0 },
	[SA_STDOUT] =		{ 4200, 2405 },
	[SA_STDERR] =		{ 4200, 2405 },
};

/* The columns sacct of RELEASE is asked for (0: not known, the newest). */
static void
sa_widths(int release, int *width)
{
	int	 i;

	for (i = 0; i < SA_NFIELDS; i++)
		width[i] = release == 0 || release >= sa_fields[i].since ?
		    sa_fields[i].width : 0;
}

char **
jobtext_sacct_args(int64_t id, int release)
{
	char	**argv = xcalloc(5, sizeof *argv);
	int	  width[SA_NFIELDS];

	sa_widths(release, width);
	argv[0] = xasprintf("--jobs=%lld", (long long)id);
	argv[1] = xstrdup("--allocations");
	argv[2] = xstrdup("--noheader");
	argv[3] = cols_format("--format=", sa_names, width, SA_NFIELDS, "%-");
	return argv;
}

/*
 * The array's tasks not yet started, or a task?  A list ("2-9%2") is a
 * group; so is one task number on the array's own record while it waits
 * (its last task not started: 22.05's sacct prints "16_2" where 25.11's
 * prints "16_[2%2]").
 */
static void
sa_array(struct job_status *st, const char *jobid)
{
	char	*tasks;
	bool	 bracketed;
	int64_t	 n;

	parse_job_id(jobid, &st->array_job_id, &tasks, &bracketed);
	if (tasks == NULL)
		return;
	if (!bracketed && parse_id(tasks, &n) &&
	    (st->job_id != st->array_job_id ||
	    strcmp(st->state, "PENDING") != 0))
		st->array_task_id = n;
	else
		st->array_tasks = xstrdup(tasks);
	free(tasks);
}

/* A value sacct cut short ends its full column with '+'. */
static void
sa_uncut(char **f, const bool *full)
{
	int	 i;

	for (i = 0; i < SA_NFIELDS; i++)
		if (f[i] != NULL && full[i] && f[i][strlen(f[i]) - 1] == '+') {
			free(f[i]);
			f[i] = NULL;
		}
}

static bool
sa_record(char **f, const bool *full, struct job_status *st,
    const void *arg)
{
	int64_t	 n;

	sa_uncut(f, full);
	st->source = JOB_SOURCE_DBD;
	parse_id(f[SA_JOBIDRAW], &st->job_id);
	set_state_word(st, f[SA_STATE]);
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
	(void)arg;
	return true;
}

struct error *
jobtext_sacct(int release, const char *text, size_t len,
    struct job_list *list)
{
	int	 width[SA_NFIELDS];

	sa_widths(release, width);
	return cols_read("sacct", width, SA_NFIELDS, text, len, sa_record,
	    NULL, list);
}

/*
 * A job's steps, every attempt's (report: the node gate's step): sacct
 * without --allocations, with --duplicates, in columns of fixed widths
 * as for the allocations.  A step's JobIDRaw is "ID.STEP" ("12.0",
 * "12.batch"); the allocation's own line, "ID", is read and left out.
 */
enum { ST_JOBIDRAW, ST_STATE, ST_START, ST_END, ST_JOBNAME, ST_NFIELDS };
static const char *const st_names[ST_NFIELDS] = {
	"JobIDRaw", "State", "Start", "End", "JobName"
};
/* JobIDRaw: "%u.%s" of a 32-bit id and a step id or name ("extern");
 * a job name longer than 64 bytes is cut (then not known). */
static const int st_width[ST_NFIELDS] = { 24, 24, 21, 21, 64 };

char **
jobtext_sacct_steps_args(int64_t id)
{
	char	**argv = xcalloc(5, sizeof *argv);

	argv[0] = xasprintf("--jobs=%lld", (long long)id);
	argv[1] = xstrdup("--duplicates");
	argv[2] = xstrdup("--noheader");
	argv[3] = cols_format("--format=", st_names, st_width, ST_NFIELDS,
	    "%-");
	return argv;
}

static bool
st_record(char **f, const bool *full, struct job_status *st,
    const void *arg)
{
	char	*dot;
	int	 i;

	(void)arg;
	for (i = 0; i < ST_NFIELDS; i++)
		if (f[i] != NULL && full[i] && f[i][strlen(f[i]) - 1] == '+') {
			free(f[i]);
			f[i] = NULL;
		}
	st->source = JOB_SOURCE_DBD;
	set_state_word(st, f[ST_STATE]);
	if (f[ST_JOBIDRAW] == NULL)
		return false;
	if ((dot = strchr(f[ST_JOBIDRAW], '.')) != NULL)
		*dot = '\0';
	parse_id(f[ST_JOBIDRAW], &st->job_id);
	st->start_time = parse_time(f[ST_START]);
	st->end_time = parse_time(f[ST_END]);
	if (f[ST_JOBNAME] != NULL)
		st->name = xstrdup(f[ST_JOBNAME]);
	return dot != NULL;
}

struct error *
jobtext_sacct_steps(const char *text, size_t len, struct job_list *list)
{
	return cols_read("sacct", st_width, ST_NFIELDS, text, len, st_record,
	    NULL, list);
}

/* ---- squeue ---- */

bool
jobtext_squeue_columns(int release)
{
	return release != 0 && release < 2302;
}

/*
 * The fields asked of 22.05's squeue, in this order (-O names,
 * src/squeue/opts.c parse_long_format()), each left-justified in a
 * column of its width, then the suffix " ".  Every one is printed
 * through _print_str() (src/squeue/print.c:306; numbers through
 * _print_int(), times through _print_time(), node lists through
 * _print_nodes()), which writes at most WIDTH bytes of a value ("%.Ns",
 * or cut in a buffer of WIDTH + 1) and blanks up to WIDTH, whatever the
 * value and even with cut_output false: every line has the same length,
 * and a value that filled its column may have been cut.  ONE: the width
 * for one job's records (status), LIST: for a user's (jobs, cancel
 * --chain, sweep --resume; 0: not asked).  A name (1024 bytes at most:
 * slurmctld's job_mgr.c _test_job_desc_fields()) and a path (MAXPATHLEN)
 * always fit; a reason, partition, node list or user that does not is
 * not known (but a reason cut at a blank reads as the words before it),
 * a dependency list keeps its whole elements, an array's task list ends
 * in "...".
 */
enum {
	SQ_JOBID, SQ_JOBARRAYID, SQ_STATE, SQ_REASON, SQ_TIMELIMIT,
	SQ_SUBMIT, SQ_START, SQ_END, SQ_NNODES, SQ_RESTARTS, SQ_EXIT,
	SQ_USERID, SQ_PARTITION, SQ_NODELIST, SQ_NAME, SQ_DEPENDENCY,
	SQ_USER, SQ_BATCHFLAG, SQ_BATCHHOST, SQ_WORKDIR, SQ_STDOUT,
	SQ_STDERR, SQ_NFIELDS
};
static const char *const sq_names[SQ_NFIELDS] = {
	"jobid", "jobarrayid", "state", "reason", "timelimit", "submittime",
	"starttime", "endtime", "numnodes", "restartcnt", "exit_code",
	"userid", "partition", "nodelist", "name", "dependency", "username",
	"batchflag", "batchhost", "workdir", "stdout", "stderr",
};
static const struct {
	int	 one;
	int	 list;
} sq_fields[SQ_NFIELDS] = {
	[SQ_JOBID] =		{ 11, 11 },	/* "%u" of 32 bits */
	[SQ_JOBARRAYID] =	{ 4111, 1040 },	/* "%u_[%s]", "%u_%u" */
	[SQ_STATE] =		{ 20, 20 },	/* job_state_string() */
	[SQ_REASON] =		{ 1025, 257 },
	[SQ_TIMELIMIT] =	{ 16, 16 },	/* "UNLIMITED", "1-00:00:00" */
	[SQ_SUBMIT] =		{ 21, 21 },	/* seconds, "N/A", "Unknown" */
	[SQ_START] =		{ 21, 21 },
	[SQ_END] =		{ 21, 21 },	/* and "NONE" */
	[SQ_NNODES] =		{ 12, 12 },	/* "%d" of 32 bits */
	[SQ_RESTARTS] =		{ 12, 12 },
	[SQ_EXIT] =		{ 12, 12 },	/* the wait status */
	[SQ_USERID] =		{ 12, 12 },
	[SQ_PARTITION] =	{ 1025, 257 },
	[SQ_NODELIST] =		{ 4097, 1025 },
	[SQ_NAME] =		{ 1025, 1025 },
	[SQ_DEPENDENCY] =	{ 4097, 1025 },
	[SQ_USER] =		{ 257, 0 },
	[SQ_BATCHFLAG] =	{ 4, 0 },
	[SQ_BATCHHOST] =	{ 257, 0 },	/* "n/a" before it starts */
	[SQ_WORKDIR] =		{ 4097, 0 },
	[SQ_STDOUT] =		{ 4097, 0 },
	[SQ_STDERR] =		{ 4097, 0 },
};

/* The columns asked for ID's records (ID > 0) or a user's. */
static void
sq_widths(int64_t id, int *width)
{
	int	 i;

	for (i = 0; i < SQ_NFIELDS; i++)
		width[i] = id > 0 ? sq_fields[i].one : sq_fields[i].list;
}

char **
jobtext_squeue_args(int release, int64_t id, int64_t uid)
{
	char	**argv = xcalloc(6, sizeof *argv);
	int	  width[SQ_NFIELDS];
	size_t	  n = 0;

	/* Every state, and hidden partitions' jobs (SHOW_ALL). */
	argv[n++] = xstrdup("--states=all");
	argv[n++] = xstrdup("--all");
	if (id > 0)
		argv[n++] = xasprintf("--jobs=%lld", (long long)id);
	else if (uid >= 0)
		argv[n++] = xasprintf("--user=%lld", (long long)uid);
	if (jobtext_squeue_columns(release)) {
		sq_widths(id, width);
		argv[n++] = xstrdup("--noheader");
		argv[n++] = cols_format("--Format=", sq_names, width,
		    SQ_NFIELDS, ":");
	} else
		argv[n++] = xstrdup("--json");
	return argv;
}

/*
 * "A_T" is task T of array A, "A_[TASKS]" its tasks not started: a list
 * cut short (FULL, no closing bracket) keeps its whole items and ends in
 * "...".
 */
static void
sq_array(struct job_status *st, const char *v, bool full)
{
	struct buf	 b;
	const char	*open, *comma;
	char		*tasks, *whole;
	bool		 bracketed;
	int64_t		 n;

	if (full && v != NULL && (open = strstr(v, "_[")) != NULL &&
	    v[strlen(v) - 1] != ']') {
		comma = strrchr(open, ',');
		buf_init(&b);
		buf_add(&b, v, (size_t)(open - v) + 2);
		if (comma != NULL)
			buf_add(&b, open + 2, (size_t)(comma - open - 1));
		buf_adds(&b, "...]");
		whole = buf_detach(&b);
		parse_job_id(whole, &st->array_job_id, &tasks, &bracketed);
		free(whole);
	} else
		parse_job_id(v, &st->array_job_id, &tasks, &bracketed);
	if (tasks == NULL)
		return;
	if (!bracketed && parse_id(tasks, &n))
		st->array_task_id = n;
	else
		st->array_tasks = xstrdup(tasks);
	free(tasks);
}

/* A dependency list cut short: its whole elements (joined by ',' or
 * '?'), then "...". */
static char *
sq_dependency(const char *v, bool full)
{
	struct buf	 b;
	size_t		 n;

	if (v == NULL || !full)
		return dup_set(v);
	for (n = strlen(v); n > 0 && v[n - 1] != ',' && v[n - 1] != '?'; n--)
		;
	buf_init(&b);
	buf_add(&b, v, n);
	buf_adds(&b, "...");
	return buf_detach(&b);
}

/*
 * What 22.05's squeue prints for a job of ID in WORKDIR without an
 * output file: Slurm's default spelled out, cut to 1023 bytes
 * (_print_job_std_out(), src/squeue/print.c:2121).  Is S that?
 */
static bool
sq_default_out(const char *s, const char *workdir, int64_t id)
{
	char	 line[1024];
	int	 n;

	n = snprintf(line, sizeof line, "%s/slurm-%lld.out",
	    workdir != NULL ? workdir : "(null)", (long long)id);
	return n >= 0 && strcmp(s, line) == 0;
}

/* Where it writes: the patterns sent, NULL for Slurm's defaults. */
static void
sq_paths(char *const *f, struct job_status *st)
{
	uint32_t	 batch;

	if (f[SQ_STDOUT] == NULL)
		return;		/* a user's records: not asked */
	if (!sq_default_out(f[SQ_STDOUT], f[SQ_WORKDIR], st->job_id))
		st->std_out = dup_set(f[SQ_STDOUT]);
	/* "N/A" for a job without a script, else the output when it has no
	 * error file of its own (_print_job_std_err()). */
	if (parse_int32(f[SQ_BATCHFLAG], &batch) && batch != 0 &&
	    f[SQ_STDERR] != NULL && strcmp(f[SQ_STDERR], f[SQ_STDOUT]) != 0)
		st->std_err = dup_set(f[SQ_STDERR]);
	if (parse_int32(f[SQ_BATCHFLAG], &batch) && batch != 0 &&
	    f[SQ_BATCHHOST] != NULL && strcmp(f[SQ_BATCHHOST], "n/a") != 0)
		st->batch_host = dup_set(f[SQ_BATCHHOST]);
	st->work_dir = dup_set(f[SQ_WORKDIR]);
}

/* Whose records and which job's squeue was asked for. */
struct sq_want {
	int64_t		 id;	/* > 0: this job's (the array's or task's) */
	int64_t		 uid;	/* else this user's (< 0: every user's) */
};

static bool
sq_record(char **f, const bool *full, struct job_status *st,
    const void *arg)
{
	const struct sq_want	*want = arg;
	uint32_t		 raw, uid;
	int64_t			 n;
	bool			 ended;
	int			 i;

	/* Values that filled their column may have been cut. */
	for (i = 0; i < SQ_NFIELDS; i++)
		if (full[i] && i != SQ_JOBARRAYID && i != SQ_DEPENDENCY) {
			free(f[i]);
			f[i] = NULL;
		}
	st->source = JOB_SOURCE_CTLD;
	parse_id(f[SQ_JOBID], &st->job_id);
	set_state_word(st, f[SQ_STATE]);
	ended = job_state_base_ended(st->state);
	st->reason = dup_set(f[SQ_REASON]);
	if (parse_id(f[SQ_NNODES], &n))
		st->nodes = n;
	st->partition = dup_set(f[SQ_PARTITION]);
	st->name = dup_set(f[SQ_NAME]);
	st->node_list = dup_set(f[SQ_NODELIST]);
	st->user = dup_set(f[SQ_USER]);
	st->submit_time = parse_time(f[SQ_SUBMIT]);
	st->start_time = parse_time(f[SQ_START]);
	/* "NONE": no time limit, not ended (_print_job_time_end()). */
	st->end_time = job_end_time(parse_time(f[SQ_END]), f[SQ_TIMELIMIT] !=
	    NULL && strcmp(f[SQ_TIMELIMIT], "UNLIMITED") == 0, ended);
	/* The script's wait status, as scontrol's ExitCode=CODE:SIGNAL. */
	if (ended && parse_int32(f[SQ_EXIT], &raw)) {
		st->exit_code = WIFEXITED((int)raw) ? WEXITSTATUS((int)raw) : 0;
		st->exit_signal = WIFSIGNALED((int)raw) ? WTERMSIG((int)raw) :
		    0;
		st->exit_known = true;
	}
	if (parse_id(f[SQ_RESTARTS], &n))
		st->restart_cnt = n;
	st->dependency = sq_dependency(f[SQ_DEPENDENCY], full[SQ_DEPENDENCY]);
	sq_array(st, f[SQ_JOBARRAYID], full[SQ_JOBARRAYID]);
	sq_paths(f, st);
	if (want->id > 0)
		return st->job_id == want->id || st->array_job_id == want->id;
	return want->uid < 0 || (parse_int32(f[SQ_USERID], &uid) &&
	    uid == (uint32_t)want->uid);
}

/*
 * The API version of squeue --json of RELEASE: the newest its data
 * parsers have (squeue's default); the newest mbsbatch knows when RELEASE
 * is 0.
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

/* rest-job.c's error about squeue's answer, said of squeue. */
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

/*
 * The answer TEXT (LEN bytes) with only the records of user UID (their
 * "user_id", which every version writes) in its "jobs", as JSON again in
 * OUT; TEXT as it is when it has no such list (rest-job.c then says what
 * is wrong).  A name that is not UTF-8 already reads as \xHH in OUT
 * (rest-answer.c reads the same).
 */
static void
json_of_user(const char *text, size_t len, int64_t uid, struct buf *out)
{
	json_error_t	 jerr;
	json_t		*root, *jobs, *u;
	struct buf	 utf8;
	char		*s;
	size_t		 i;

	buf_init(&utf8);
	if (termtext_utf8_valid(text, len) != len) {
		termtext_add_json_body(&utf8, text, len);
		text = utf8.data;
		len = utf8.len;
	}
	root = json_loadb(text, len, 0, &jerr);
	jobs = json_object_get(root, "jobs");
	for (i = json_array_size(jobs); i > 0; i--) {
		u = json_object_get(json_array_get(jobs, i - 1), "user_id");
		if (!json_is_integer(u) || json_integer_value(u) != uid)
			json_array_remove(jobs, i - 1);
	}
	if (json_is_array(jobs) && (s = json_dumps(root, JSON_COMPACT)) !=
	    NULL) {
		buf_adds(out, s);
		free(s);
	} else
		buf_add(out, text, len);
	json_decref(root);
	buf_release(&utf8);
}

/* squeue --json's records of ID (> 0), or of user UID, onto LIST. */
static struct error *
squeue_json_jobs(int release, const char *text, size_t len, int64_t id,
    int64_t uid, struct job_list *list)
{
	struct job_list	 all = { NULL, 0 };
	struct error	*err;
	struct buf	 mine;
	size_t		 i;

	if ((err = squeue_json(text, len)) != NULL)
		return err;
	buf_init(&mine);
	if (id <= 0 && uid >= 0) {
		json_of_user(text, len, uid, &mine);
		text = mine.data;
		len = mine.len;
	}
	err = rest_parse_jobs(json_version(release), 200, text, len, NULL,
	    &all);
	buf_release(&mine);
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
jobtext_squeue(int release, const char *text, size_t len, int64_t id,
    int64_t uid, struct job_list *list)
{
	struct sq_want	 want = { id, uid };
	int		 width[SQ_NFIELDS];

	if (!jobtext_squeue_columns(release))
		return squeue_json_jobs(release, text, len, id, uid, list);
	sq_widths(id, width);
	return cols_read("squeue", width, SQ_NFIELDS, text, len, sq_record,
	    &want, list);
}

struct error *
jobtext_squeue_find(int release, const char *text, size_t len,
    const char *name, int64_t uid, int64_t *id)
{
	struct job_list	 list = { NULL, 0 };
	struct error	*err;
	size_t		 i;

	*id = 0;
	err = jobtext_squeue(release, text, len, 0, uid, &list);
	for (i = 0; err == NULL && i < list.n && *id == 0; i++)
		if (list.v[i].name != NULL && strcmp(list.v[i].name, name) == 0)
			*id = list.v[i].array_job_id != 0 ?
			    list.v[i].array_job_id : list.v[i].job_id;
	job_list_release(&list);
	return err;
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
jobtext_sluid(const char *out, int64_t id)
{
	static const char	 cb32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
	const char		*p, *end;
	int64_t			 v;
	size_t			 n;

	for (p = out; *p != '\0'; p = *end == '\n' ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		for (v = 0; *p >= '0' && *p <= '9' && v <= (INT64_MAX - 9) / 10;
		    p++)
			v = v * 10 + (*p - '0');
		if (v != id || *p != ' ')
			continue;
		p += strspn(p, " ");
		if (p[0] != 's' || strspn(p + 1, cb32) != 13)
			return NULL;
		n = 14 + strspn(p + 14, " ");
		if (p + n != end)
			return NULL;
		return xstrndup(p, 14);
	}
	return NULL;
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

/* A whole number at *P (advanced past it) into *V; false if none. */
static bool
take_number(const char **p, int64_t *v)
{
	const char	*s = *p;

	*v = 0;
	while (**p >= '0' && **p <= '9' && *v <= (INT64_MAX - 9) / 10)
		*v = *v * 10 + (*(*p)++ - '0');
	return *p > s && !(**p >= '0' && **p <= '9');
}

static bool
take(const char **p, const char *word)
{
	size_t	 n = strlen(word);

	if (strncmp(*p, word, n) != 0)
		return false;
	*p += n;
	return true;
}

/* slurm_job_will_run()'s line, "Job " already read. */
static bool
will_run_line(const char *p, struct will_run *w)
{
	const char	*in;
	int64_t		 id;

	if (!take_number(&p, &id) || !take(&p, " to start at ") ||
	    !take_number(&p, &w->start_time))
		return false;
	if (take(&p, " on cluster "))
		p += strcspn(p, " ");
	(void)take(&p, " a");		/* 25.11's */
	if (!take(&p, " using ") || !take_number(&p, &w->processors) ||
	    !take(&p, " processors on nodes ") ||
	    (in = strstr(p, " in partition ")) == NULL)
		return false;
	/* libslurm prints a NULL string as "(null)". */
	if (strncmp(p, "(null)", (size_t)(in - p)) != 0)
		w->nodes = xstrndup(p, (size_t)(in - p));
	p = in + strlen(" in partition ");
	if (*p != '\0' && strcmp(p, "(null)") != 0)
		w->partition = xstrdup(p);
	return true;
}

struct error *
jobtext_will_run(const char *text, struct will_run *w)
{
	char		*copy = xstrdup(text), *p = copy, *line;
	const char	*q;
	bool		 found = false;

	memset(w, 0, sizeof *w);
	while ((line = strsep(&p, "\n")) != NULL) {
		if (strncmp(line, "sbatch: ", 8) == 0)
			line += 8;
		q = line;
		if (!found && take(&q, "Job ") && will_run_line(q, w))
			found = true;
		else if (take(&q, "  Preempts: ")) {
			free(w->preempts);
			w->preempts = xstrdup(q);
		} else if (*line != '\0') {
			w->messages = xreallocarray(w->messages,
			    w->nmessages + 1, sizeof *w->messages);
			w->messages[w->nmessages++] = xstrdup(line);
		}
	}
	free(copy);
	if (found)
		return NULL;
	will_run_release(w);
	return error_new(EXIT_FAILURE_OP, "sbatch --test-only: unexpected "
	    "output '%.80s'", text);
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
