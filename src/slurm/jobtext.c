/*
 * jobtext.c: scontrol's and sacct's lines read into job records
 * (jobtext.h).  Both clients print the same job a little differently:
 *
 *   an array's tasks not yet started  scontrol: JobId=1 ArrayJobId=1
 *                                       ArrayTaskId=2-9%2 (the array's
 *                                       own record)
 *                                     sacct: JobID 1_[2-9%2], JobIDRaw 1
 *   a started task                    scontrol: JobId=5 ArrayJobId=1
 *                                       ArrayTaskId=1
 *                                     sacct: JobID 1_1, JobIDRaw 5
 *   a state                           sacct: "CANCELLED by 0" (who)
 *   no node                           scontrol: "NodeList=" (22.05-25.11)
 *                                     sacct: "None assigned"
 *   the error file with the output    scontrol 22.05: its path again;
 *                                       25.11: "StdErr="
 *                                     sacct 24.05 on: empty
 *
 * scontrol gives the log paths expanded, sacct (24.05 on) the patterns
 * as sbatch sent them.
 */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "error.h"
#include "jobtext.h"
#include "xmalloc.h"

const char *
jobtext_sacct_fields(int release)
{
	/* The header names them: jobtext_sacct reads any order. */
#define BASE	"JobID,JobIDRaw,State,ExitCode,Submit,Start,End,NNodes," \
		"NodeList,Partition,User,Reason,WorkDir,JobName"
	if (release >= 2411)
		return BASE ",StdOut,StdErr,Restarts";
	if (release >= 2405)
		return BASE ",StdOut,StdErr";
	return BASE;
#undef BASE
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
 * A time as the clients print it: seconds with SLURM_TIME_FORMAT=%s, else
 * their ISO form in local time; 0 for "Unknown", "None", "N/A".
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

/* The state word: sacct's "CANCELLED by 0" is CANCELLED. */
static void
set_state(struct job_status *st, const char *s)
{
	snprintf(st->state, sizeof st->state, "%.*s",
	    (int)strcspn(s, " "), s);
}

/* A copy of S, or NULL for what the clients write for nothing. */
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
 * (its last task not started: scontrol prints array_task_str "9" as it
 * prints a started task's id).
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

/*
 * The value of KEY in one "scontrol show job --oneliner" line, a new
 * string, or NULL.  Values may hold spaces (JobName=my run), so a value
 * runs to the next " Key=" whose key is a capitalised word.
 */
static char *
sc_field(const char *line, const char *key)
{
	const char	*p = line, *v, *e, *k;
	size_t		 n = strlen(key);

	for (;;) {
		if ((p = strstr(p, key)) == NULL)
			return NULL;
		if ((p == line || p[-1] == ' ') && p[n] == '=')
			break;
		p++;
	}
	v = p + n + 1;
	for (e = v; *e != '\0'; e++) {
		if (*e != ' ' || !isupper((unsigned char)e[1]))
			continue;
		for (k = e + 1; isalnum((unsigned char)*k) || *k == '/' ||
		    *k == ':' || *k == '_'; k++)
			;
		if (*k == '=')
			break;
	}
	/* Every line ends in a space (22.05: "Power= "). */
	while (e > v && e[-1] == ' ')
		e--;
	return xstrndup(v, (size_t)(e - v));
}

static int64_t
sc_num(const char *line, const char *key, int64_t dflt)
{
	char		*v = sc_field(line, key), *end;
	long long	 n = dflt;

	/* "NumNodes=1-1" (25.11, pending): the least. */
	if (v != NULL && isdigit((unsigned char)*v)) {
		n = strtoll(v, &end, 10);
		if (*end != '\0' && *end != '-')
			n = dflt;
	}
	free(v);
	return n;
}

static char *
sc_set(const char *line, const char *key)
{
	char	*v = sc_field(line, key), *s;

	s = dup_set(v);
	free(v);
	return s;
}

static int64_t
sc_time(const char *line, const char *key)
{
	char	*v = sc_field(line, key);
	int64_t	 t = parse_time(v);

	free(v);
	return t;
}

/* UserId=root(0): the name, and the id, -1 when not there. */
static int64_t
sc_user(const char *line, char **name)
{
	char	*v = sc_field(line, "UserId"), *p;
	int64_t	 uid = -1;

	*name = NULL;
	if (v == NULL)
		return -1;
	if ((p = strchr(v, '(')) != NULL) {
		*p++ = '\0';
		p[strcspn(p, ")")] = '\0';
		if (!parse_id(p, &uid))
			uid = -1;
	}
	*name = dup_set(v);
	free(v);
	return uid;
}

/* One job line into ST: false when it has no JobId or JobState. */
static bool
sc_record(const char *line, struct job_status *st)
{
	char	*v, *p;

	st->source = JOB_SOURCE_CTLD;
	sc_user(line, &st->user);
	st->job_id = sc_num(line, "JobId", 0);
	if ((v = sc_field(line, "JobState")) == NULL || *v == '\0' ||
	    st->job_id <= 0) {
		free(v);
		return false;
	}
	set_state(st, v);
	free(v);
	st->name = sc_field(line, "JobName");
	/* scontrol writes a reason's spaces as '_'. */
	if ((st->reason = sc_set(line, "Reason")) != NULL)
		for (p = st->reason; *p != '\0'; p++)
			if (*p == '_')
				*p = ' ';
	st->partition = sc_set(line, "Partition");
	st->node_list = sc_set(line, "NodeList");
	st->nodes = sc_num(line, "NumNodes", 0);
	st->submit_time = sc_time(line, "SubmitTime");
	st->start_time = sc_time(line, "StartTime");
	st->end_time = sc_time(line, "EndTime");
	v = sc_field(line, "ExitCode");
	parse_exit(v, st);
	free(v);
	/* Already expanded (22.05 expands %A %a %j %u %x only; 24.05 on,
	 * print_fields.c's rules); 25.11 leaves StdErr empty when it
	 * goes with the output. */
	st->std_out = sc_set(line, "StdOut");
	st->std_err = sc_set(line, "StdErr");
	st->std_expanded = true;
	st->work_dir = sc_set(line, "WorkDir");
	st->batch_host = sc_set(line, "BatchHost");
	st->restart_cnt = sc_num(line, "Restarts", 0);
	st->dependency = sc_set(line, "Dependency");
	st->array_job_id = sc_num(line, "ArrayJobId", 0);
	if (st->array_job_id > 0 &&
	    (v = sc_field(line, "ArrayTaskId")) != NULL) {
		if (*v != '\0')
			set_array(st, v, false);
		free(v);
	}
	return true;
}

struct error *
jobtext_scontrol(const char *text, int64_t uid, struct job_list *list)
{
	struct job_status	 st;
	struct error		*err = NULL;
	char			*copy = xstrdup(text), *p = copy, *line, *name;
	size_t			 n0 = list->n, i;
	bool			 other;

	while ((line = strsep(&p, "\n")) != NULL) {
		if (strncmp(line, "JobId=", 6) != 0)
			continue;
		if (uid != -1) {
			other = sc_user(line, &name) != uid;
			free(name);
			if (other)
				continue;
		}
		memset(&st, 0, sizeof st);
		st.array_task_id = -1;
		if (!sc_record(line, &st)) {
			job_status_release(&st);
			err = error_new(EXIT_FAILURE_OP, "scontrol: no JobId or "
			    "JobState in '%.60s%s'", line, strlen(line) > 60 ?
			    "..." : "");
			break;
		}
		*job_list_add(list) = st;
	}
	free(copy);
	if (err != NULL) {
		for (i = n0; i < list->n; i++)
			job_status_release(&list->v[i]);
		list->n = n0;
	}
	return err;
}

/* LINE split at the delimiter, in place: the number of fields. */
static size_t
sa_split(char *line, char ***v)
{
	size_t	 n = 0;
	char	*f;

	*v = NULL;
	while ((f = strsep(&line, JOBTEXT_SACCT_DELIM)) != NULL) {
		*v = xreallocarray(*v, n + 1, sizeof **v);
		(*v)[n++] = f;
	}
	return n;
}

/* The sacct fields read, in the header's order: column or -1. */
enum {
	SA_JOBID, SA_JOBIDRAW, SA_STATE, SA_EXITCODE, SA_SUBMIT, SA_START,
	SA_END, SA_NNODES, SA_NODELIST, SA_PARTITION, SA_USER, SA_REASON,
	SA_WORKDIR, SA_JOBNAME, SA_STDOUT, SA_STDERR, SA_RESTARTS, SA_NFIELDS
};
static const char *const sa_names[SA_NFIELDS] = {
	"JobID", "JobIDRaw", "State", "ExitCode", "Submit", "Start", "End",
	"NNodes", "NodeList", "Partition", "User", "Reason", "WorkDir",
	"JobName", "StdOut", "StdErr", "Restarts"
};

/* Column C of F, or NULL when it was not asked for. */
#define SA(f, col, c)	((col)[c] >= 0 ? (f)[(col)[c]] : NULL)

static void
sa_record(char **f, const int *col, struct job_status *st)
{
	const char	*jobid = SA(f, col, SA_JOBID), *u, *tasks;
	int64_t		 n;
	size_t		 len;

	st->source = JOB_SOURCE_DBD;
	parse_id(SA(f, col, SA_JOBIDRAW), &st->job_id);
	set_state(st, SA(f, col, SA_STATE));
	parse_exit(SA(f, col, SA_EXITCODE), st);
	st->submit_time = parse_time(SA(f, col, SA_SUBMIT));
	st->start_time = parse_time(SA(f, col, SA_START));
	st->end_time = parse_time(SA(f, col, SA_END));
	if (parse_id(SA(f, col, SA_NNODES), &n))
		st->nodes = n;
	st->node_list = dup_set(SA(f, col, SA_NODELIST));
	st->partition = dup_set(SA(f, col, SA_PARTITION));
	st->user = dup_set(SA(f, col, SA_USER));
	st->reason = dup_set(SA(f, col, SA_REASON));
	st->work_dir = dup_set(SA(f, col, SA_WORKDIR));
	if ((u = SA(f, col, SA_JOBNAME)) != NULL)
		st->name = xstrdup(u);
	/* As sbatch sent them (absolute, or Slurm's default relative). */
	st->std_out = dup_set(SA(f, col, SA_STDOUT));
	st->std_err = dup_set(SA(f, col, SA_STDERR));
	/* No Restarts before 24.11 (jobtext_sacct_fields()). */
	if (parse_id(SA(f, col, SA_RESTARTS), &n))
		st->restart_cnt = n;
	else
		st->restart_unknown = true;
	/* "1_4" (a task), "1_[2-9%2]" (tasks not started), "1", "7+0". */
	if (jobid == NULL || (u = strchr(jobid, '_')) == NULL)
		return;
	{
		char	*id = xstrndup(jobid, (size_t)(u - jobid));

		if (!parse_id(id, &st->array_job_id))
			st->array_job_id = 0;
		free(id);
	}
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

struct error *
jobtext_sacct(const char *text, struct job_list *list)
{
	struct job_status	 st;
	struct error		*err = NULL;
	char			*copy = xstrdup(text), *p = copy, *line;
	char			**head = NULL, **f = NULL;
	size_t			 nhead = 0, nf, i, lineno = 0, n0 = list->n;
	int			 col[SA_NFIELDS];

	while ((line = strsep(&p, "\n")) != NULL) {
		lineno++;
		if (*line == '\0')
			continue;
		if (head == NULL) {
			nhead = sa_split(line, &head);
			for (i = 0; i < SA_NFIELDS; i++) {
				size_t	 j;

				col[i] = -1;
				for (j = 0; j < nhead; j++)
					if (strcmp(head[j], sa_names[i]) == 0)
						col[i] = (int)j;
			}
			if (col[SA_JOBIDRAW] < 0 || col[SA_STATE] < 0) {
				err = error_new(EXIT_FAILURE_OP, "sacct: no "
				    "JobIDRaw or State in its header '%.60s'",
				    head[0]);
				break;
			}
			continue;
		}
		nf = sa_split(line, &f);
		if (nf != nhead) {
			err = error_new(EXIT_FAILURE_OP, "sacct: line %zu: %zu "
			    "fields, its header names %zu", lineno, nf, nhead);
			break;
		}
		memset(&st, 0, sizeof st);
		st.array_task_id = -1;
		sa_record(f, col, &st);
		free(f);
		f = NULL;
		if (st.job_id <= 0 || st.state[0] == '\0') {
			job_status_release(&st);
			err = error_new(EXIT_FAILURE_OP, "sacct: line %zu: no "
			    "job id or state", lineno);
			break;
		}
		*job_list_add(list) = st;
	}
	free(f);
	free(head);
	free(copy);
	if (err != NULL) {
		for (i = n0; i < list->n; i++)
			job_status_release(&list->v[i]);
		list->n = n0;
	}
	return err;
}
