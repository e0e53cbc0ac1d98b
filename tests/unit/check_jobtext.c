/*
 * check_jobtext.c: squeue's JSON and sacct's columns read into job
 * records (src/slurm/jobtext.c), on what the clients of Slurm 22.05
 * (Debian's) and 25.11 printed on tests/slurm clusters with accounting
 * (tests/data/jobtext/README.md): jobs of root's, and held jobs of
 * nobody's whose names forge a record, hold bytes that are not UTF-8 and
 * control characters.  Then seeded random names of any bytes
 * (MBS_TEST_SEED, printed), written as the clients write them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobtext.h"
#include "run.h"
#include "termtext.h"
#include "xmalloc.h"

#ifndef TEST_DATA
#error "TEST_DATA must name tests/data"
#endif

static unsigned long	 seed;

/* tests/data/jobtext/NAME, a new string, its length in *LEN. */
static char *
load(const char *name, size_t *len)
{
	char	 path[1024], *s;
	FILE	*f;
	long	 n;

	snprintf(path, sizeof path, "%s/jobtext/%s", TEST_DATA, name);
	ck_assert_msg((f = fopen(path, "rb")) != NULL, "%s: missing", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	ck_assert(fread(s, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return s;
}

static int
release_of(const char *name)
{
	return strncmp(name, "22.05", 5) == 0 ? 2205 : 2511;
}

/* The records of squeue's file NAME: job ID's, or USER's (ID 0). */
static void
squeue(const char *name, int64_t id, const char *user, struct job_list *l)
{
	struct error	*err;
	size_t		 len;
	char		*text = load(name, &len);

	memset(l, 0, sizeof *l);
	err = jobtext_squeue(release_of(name), text, len, id, user, l);
	ck_assert_msg(err == NULL, "%s: %s", name, err ? err->msg : "");
	free(text);
}

static void
sacct(const char *name, struct job_list *l)
{
	struct error	*err;
	size_t		 len;
	char		*text = load(name, &len);

	memset(l, 0, sizeof *l);
	err = jobtext_sacct(release_of(name), text, len, l);
	ck_assert_msg(err == NULL, "%s: %s", name, err ? err->msg : "");
	free(text);
}

/* The record of job ID in LIST. */
static const struct job_status *
find(const struct job_list *list, int64_t id)
{
	size_t	 i;

	for (i = 0; i < list->n; i++)
		if (list->v[i].job_id == id)
			return &list->v[i];
	ck_abort_msg("no record of job %lld", (long long)id);
	return NULL;
}

static int
has(const struct job_list *list, int64_t id)
{
	size_t	 i;

	for (i = 0; i < list->n; i++)
		if (list->v[i].job_id == id)
			return 1;
	return 0;
}

#define ck_str(a, b)	ck_assert_pstr_eq((a), (b))

/* The names nobody gave its held jobs 11, 12 and 13 (tests/data/jobtext/
 * README.md), as Slurm kept them. */
#define FORGED	"x\nJobId=999 JobName=fake UserId=root(0) GroupId=root(0) " \
		"JobState=PENDING Reason=None " \
		"Dependency=afterany:10(unfulfilled)"
#define BYTES	"bad\\xff\\xfename\x1b]0;title\x07|\x1fz\r"
#define RECORD	"JobId=10 JobName=y"

static const char *const releases[] = { "22.05", "25.11" };

/* Another user's job names are data: root's jobs are root's, no more,
 * no fewer; nobody's are each one job with its name whole. */
START_TEST(test_squeue_hostile)
{
	struct job_list	 l;
	char		 f[64];
	const struct job_status *s;
	size_t		 i;

	snprintf(f, sizeof f, "%s/squeue-all", releases[_i]);
	squeue(f, 0, "root", &l);
	ck_assert_uint_eq(l.n, 10);
	for (i = 0; i < l.n; i++) {
		ck_str(l.v[i].user, "root");
		ck_assert_int_le(l.v[i].job_id, 10);
	}
	ck_assert(!has(&l, 999));
	job_list_release(&l);

	squeue(f, 0, "nobody", &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 11)->name, FORGED);
	ck_str(find(&l, 12)->name, BYTES);
	ck_str(find(&l, 13)->name, RECORD);
	job_list_release(&l);

	/* By id: the job itself, whatever its name says. */
	squeue(f, 11, NULL, &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_assert_int_eq(s->job_id, 11);
	ck_str(s->name, FORGED);
	ck_str(s->user, "nobody");
	ck_str(s->state, "PENDING");
	ck_str(s->reason, "JobHeldUser");
	ck_assert_ptr_null(s->dependency);
	job_list_release(&l);
	squeue(f, 10, NULL, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_str(l.v[0].name, "root's");
	ck_str(l.v[0].user, "root");
	job_list_release(&l);
	squeue(f, 999, NULL, &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
	squeue(f, 0, "daemon", &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
}
END_TEST

START_TEST(test_squeue_jobs)
{
	struct job_list	 l;
	char		 f[64];
	const struct job_status *s;

	snprintf(f, sizeof f, "%s/squeue-all", releases[_i]);
	/* Job 1 failed with exit status 3. */
	squeue(f, 1, NULL, &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_str(s->name, "fail|pipe name");
	ck_str(s->state, "FAILED");
	ck_assert(s->exit_known);
	ck_assert_int_eq(s->exit_code, 3);
	ck_assert_int_eq(s->source, JOB_SOURCE_CTLD);
	ck_str(s->node_list, "mbsnode0");
	ck_str(s->partition, "local");
	ck_str(s->work_dir, "/tmp/hx/w");
	job_list_release(&l);
	/* Array 3: tasks 0 and 1 run, 2-9 wait two at a time. */
	squeue(f, 3, NULL, &l);
	ck_assert_uint_eq(l.n, 3);
	s = find(&l, 3);
	ck_str(s->array_tasks, "2-9%2");
	ck_assert_int_eq(s->array_task_id, -1);
	ck_str(s->state, "PENDING");
	ck_assert_int_eq(find(&l, 5)->array_task_id, 0);
	ck_assert_int_eq(find(&l, 6)->array_job_id, 3);
	ck_str(find(&l, 6)->state, "RUNNING");
	job_list_release(&l);
	/* A task by its own id: that task. */
	squeue(f, 6, NULL, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].array_task_id, 1);
	job_list_release(&l);
	/* Held, waiting for 1 (failed) and 2 (cancelled). */
	squeue(f, 9, NULL, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_str(l.v[0].reason, "JobHeldUser");
	job_list_release(&l);
}
END_TEST

/* 25.11 filters: what squeue --jobs=ID printed is that job's. */
START_TEST(test_squeue_filtered)
{
	struct job_list	 l;
	struct error	*err;
	size_t		 len;
	char		*text;

	squeue("25.11/squeue-array", 3, NULL, &l);
	ck_assert_uint_eq(l.n, 3);
	job_list_release(&l);
	squeue("25.11/squeue-array-last", 4, NULL, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 4)->array_tasks, "2%2");
	job_list_release(&l);
	squeue("25.11/squeue-array-ended", 14, NULL, &l);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_int_eq(find(&l, 14)->array_task_id, 3);
	ck_assert_int_eq(find(&l, 14)->exit_code, 3);
	job_list_release(&l);
	/* Not JSON: an error, nothing appended. */
	text = load("25.11/squeue-none.err", &len);
	memset(&l, 0, sizeof l);
	err = jobtext_squeue(2511, text, len, 1, NULL, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strncmp(err->msg, "squeue --json: ", 15) == 0, "%s",
	    err->msg);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	free(text);
}
END_TEST

START_TEST(test_squeue_find)
{
	char		 f[64], *text;
	size_t		 len;
	int64_t		 id;

	snprintf(f, sizeof f, "%s/squeue-all", releases[_i]);
	text = load(f, &len);
	ck_assert_ptr_null(jobtext_squeue_find(release_of(f), text, len,
	    FORGED, "nobody", &id));
	ck_assert_int_eq(id, 11);
	ck_assert_ptr_null(jobtext_squeue_find(release_of(f), text, len,
	    "fake", "root", &id));
	ck_assert_int_eq(id, 0);
	ck_assert_ptr_null(jobtext_squeue_find(release_of(f), text, len,
	    "fake", "nobody", &id));
	ck_assert_int_eq(id, 0);
	ck_assert_ptr_null(jobtext_squeue_find(release_of(f), text, len,
	    "root's", "root", &id));
	ck_assert_int_eq(id, 10);
	ck_assert_ptr_null(jobtext_squeue_find(release_of(f), text, len,
	    FORGED, "root", &id));
	ck_assert_int_eq(id, 0);
	free(text);
}
END_TEST

START_TEST(test_sacct_jobs)
{
	struct job_list	 l;
	char		 f[64];
	const struct job_status *s;
	bool		 new = _i == 1;

	snprintf(f, sizeof f, "%s/sacct-failed", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_assert_int_eq(s->job_id, 1);
	ck_str(s->name, "fail|pipe name");
	ck_str(s->state, "FAILED");
	ck_assert(s->exit_known);
	ck_assert_int_eq(s->exit_code, 3);
	ck_assert_int_eq(s->exit_signal, 0);
	ck_assert_int_eq(s->source, JOB_SOURCE_DBD);
	ck_assert_int_gt(s->submit_time, 1796587900);
	ck_assert_int_ge(s->end_time, s->start_time);
	ck_assert_int_eq(s->nodes, 1);
	ck_str(s->node_list, "mbsnode0");
	ck_str(s->partition, "local");
	ck_str(s->user, "root");
	ck_str(s->reason, "None");
	ck_str(s->work_dir, "/tmp/hx/w");
	/* 22.05 has no StdOut; 25.11 gives it as sbatch sent it. */
	ck_str(s->std_out, new ? "/dev/null" : NULL);
	ck_assert_ptr_null(s->std_err);
	/* No Restarts column before 24.11. */
	ck_assert(new ? !s->restart_unknown : s->restart_unknown);
	ck_assert_int_eq(s->array_job_id, 0);
	ck_assert_int_eq(s->array_task_id, -1);
	job_list_release(&l);

	snprintf(f, sizeof f, "%s/sacct-cancelled", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_str(l.v[0].state, "CANCELLED");		/* "CANCELLED by 0" */
	ck_str(l.v[0].name, "spaced name x");
	ck_assert_ptr_null(l.v[0].node_list);		/* "None assigned" */
	job_list_release(&l);

	snprintf(f, sizeof f, "%s/sacct-held", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_str(l.v[0].state, "PENDING");
	ck_assert_int_eq(l.v[0].start_time, 0);
	ck_assert_int_eq(l.v[0].end_time, 0);
	job_list_release(&l);

	snprintf(f, sizeof f, "%s/sacct-none", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
}
END_TEST

START_TEST(test_sacct_array)
{
	struct job_list	 l;
	char		 f[64];
	const struct job_status *s;
	size_t		 i;

	/* Running: two tasks, and one line for those not started. */
	snprintf(f, sizeof f, "%s/sacct-array-running", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 3);
	s = find(&l, 3);
	ck_assert_int_eq(s->array_job_id, 3);
	ck_assert_int_eq(s->array_task_id, -1);
	ck_str(s->array_tasks, "2-9%2");
	ck_str(s->state, "PENDING");
	ck_assert_int_eq(find(&l, 6)->array_task_id, 1);
	ck_str(find(&l, 6)->state, "RUNNING");
	job_list_release(&l);

	/* The last task waiting: 22.05 "4_2", 25.11 "4_[2%2]". */
	snprintf(f, sizeof f, "%s/sacct-array-last", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 4)->array_tasks, _i == 0 ? "2" : "2%2");
	ck_assert_int_eq(find(&l, 4)->array_task_id, -1);
	ck_assert_int_eq(find(&l, 8)->array_task_id, 1);
	job_list_release(&l);

	/* Ended: every task, the last on the array's own id, each with
	 * its exit status (task N exits N). */
	snprintf(f, sizeof f, "%s/sacct-array-ended", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 4);
	for (i = 0; i < l.n; i++) {
		ck_assert_int_eq(l.v[i].array_job_id, 14);
		ck_assert_int_eq(l.v[i].array_task_id, (int64_t)i);
		ck_assert_int_eq(l.v[i].exit_code, (int)i);
		ck_assert_ptr_null(l.v[i].array_tasks);
	}
	ck_assert_int_eq(l.v[3].job_id, 14);
	job_list_release(&l);
}
END_TEST

/* A name holding a newline, '|', 0x1f or a record's words is data. */
START_TEST(test_sacct_hostile)
{
	struct job_list	 l;
	char		 f[64];

	snprintf(f, sizeof f, "%s/sacct-hostile-newline", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].job_id, 11);
	ck_str(l.v[0].name, FORGED);
	ck_str(l.v[0].user, "nobody");
	job_list_release(&l);
	snprintf(f, sizeof f, "%s/sacct-hostile-bytes", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 1);
	/* The database kept '?' for each byte that is not UTF-8. */
	ck_str(l.v[0].name, "bad??name\x1b]0;title\x07|\x1fz\r");
	job_list_release(&l);
	snprintf(f, sizeof f, "%s/sacct-hostile-record", releases[_i]);
	sacct(f, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].job_id, 13);
	ck_str(l.v[0].name, RECORD);
	job_list_release(&l);
}
END_TEST

/* Text that is not whole lines of the columns asked for: an error, and
 * nothing appended. */
START_TEST(test_sacct_bad)
{
	struct job_list	 l = { NULL, 0 };
	struct error	*err;
	size_t		 len, one;
	char		*text = load("25.11/sacct-array-ended", &len);

	one = len / 4;
	/* A byte short. */
	err = jobtext_sacct(2511, text, len - 1, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	/* A column's separator moved: line 3. */
	text[2 * one + 20] = 'x';
	err = jobtext_sacct(2511, text, len, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->msg, "line 3") != NULL, "%s", err->msg);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	text[2 * one + 20] = ' ';
	/* The release's columns, not another's. */
	err = jobtext_sacct(2205, text, len, &l);
	ck_assert_ptr_nonnull(err);
	error_free(err);
	/* A value sacct cut ('+' ends a full column): not known. */
	memset(text + 21 + 4201 + 41 + 17 + 3 * 25 + 13 + 13 + 257 + 257 +
	    1101 + 4201, 'n', 1099);
	text[21 + 4201 + 41 + 17 + 3 * 25 + 13 + 13 + 257 + 257 + 1101 +
	    4201 + 1099] = '+';
	ck_assert_ptr_null(jobtext_sacct(2511, text, len, &l));
	ck_assert_uint_eq(l.n, 4);
	ck_assert_ptr_null(l.v[0].name);
	ck_str(l.v[1].name, "wrap");
	job_list_release(&l);
	free(text);
}
END_TEST

START_TEST(test_sacct_args)
{
	char	**a = jobtext_sacct_args(42, 2205), **b;

	ck_str(a[0], "--jobs=42");
	ck_str(a[1], "--allocations");
	ck_str(a[2], "--noheader");
	ck_assert_ptr_nonnull(strstr(a[3], "--format=JobIDRaw%-20,JobID%-4200,"));
	ck_assert_ptr_null(strstr(a[3], "StdOut"));
	ck_assert_ptr_null(strstr(a[3], "Restarts"));
	ck_assert_ptr_null(a[4]);
	b = jobtext_sacct_args(42, 2511);
	ck_assert_ptr_nonnull(strstr(b[3], ",StdOut%-4200,StdErr%-4200"));
	ck_assert_ptr_nonnull(strstr(b[3], "Restarts%-12"));
	freev(a);
	freev(b);
	a = jobtext_squeue_args(7, 0);
	ck_str(a[0], "--json");
	ck_str(a[1], "--states=all");
	ck_str(a[2], "--jobs=7");
	freev(a);
	a = jobtext_squeue_args(0, 65534);
	ck_str(a[2], "--user=65534");
	freev(a);
}
END_TEST

/* A random name of LEN bytes 1-255 (no NUL: a C string in Slurm). */
static void
random_name(char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		s[i] = (char)(1 + rand() % 255);
	s[len] = '\0';
}

/*
 * Random names through squeue's JSON, written as json-c writes them
 * (json_escape_str(): '"', '\\', '/' and the controls escaped, other
 * bytes as they are), in a recorded answer's job 11: it is one job, of
 * that name (\xHH for each byte that is not UTF-8).
 */
START_TEST(test_squeue_random)
{
	struct job_list	 l;
	struct buf	 body, want;
	struct error	*err;
	char		*text, name[200], *at, *end;
	size_t		 len, n, i;
	int		 round;
	const char	*old = "\"x\\nJobId=999";

	srand((unsigned)(seed + (unsigned long)_i));
	text = load(_i == 0 ? "22.05/squeue-all" : "25.11/squeue-all", &len);
	ck_assert_ptr_nonnull(at = strstr(text, old));
	ck_assert_ptr_nonnull(end = strstr(at + 1, "\",\n"));
	for (round = 0; round < 100; round++) {
		n = (size_t)(rand() % 150);
		random_name(name, n);
		buf_init(&body);
		buf_add(&body, text, (size_t)(at - text) + 1);
		for (i = 0; i < n; i++) {
			unsigned char c = (unsigned char)name[i];

			if (c == '"' || c == '\\' || c == '/')
				buf_addf(&body, "\\%c", c);
			else if (c < 0x20)
				buf_addf(&body, "\\u%04x", c);
			else
				buf_addc(&body, (char)c);
		}
		buf_add(&body, end, len - (size_t)(end - text));
		memset(&l, 0, sizeof l);
		err = jobtext_squeue(_i == 0 ? 2205 : 2511, body.data,
		    body.len, 11, NULL, &l);
		ck_assert_msg(err == NULL, "seed %lu round %d: %s", seed, round,
		    err != NULL ? err->msg : "");
		buf_init(&want);
		termtext_add_utf8(&want, name, n);
		/* An empty name is no name. */
		ck_assert_msg(l.n == 1 && strcmp(l.v[0].name != NULL ?
		    l.v[0].name : "", want.data) == 0,
		    "seed %lu round %d: %zu records", seed, round, l.n);
		job_list_release(&l);
		memset(&l, 0, sizeof l);
		ck_assert_ptr_null(jobtext_squeue(_i == 0 ? 2205 : 2511,
		    body.data, body.len, 0, "root", &l));
		ck_assert_msg(l.n == 10, "seed %lu round %d: root has %zu",
		    seed, round, l.n);
		job_list_release(&l);
		buf_release(&want);
		buf_release(&body);
	}
	free(text);
}
END_TEST

/*
 * Random names, working directories and paths through sacct's columns,
 * in a recorded line: each record is one job, each value whole (but
 * for the blanks it ended with).
 */
/* 25.11's SLUID column alone (sacct --format=SLUID%-20), what %S
 * writes: the first line, or nothing. */
START_TEST(test_sluid)
{
	char	*v;

	v = jobtext_sluid("s355M96FXKYB00      \n");
	ck_str(v, "s355M96FXKYB00");
	free(v);
	v = jobtext_sluid("s355M96FXKYB00\ns0000000000000\n");
	ck_str(v, "s355M96FXKYB00");
	free(v);
	ck_assert_ptr_null(jobtext_sluid(""));
	ck_assert_ptr_null(jobtext_sluid("\n"));
	/* Not Crockford's letters (I L O U), too short, too long. */
	ck_assert_ptr_null(jobtext_sluid("s355M96FXKYBI0\n"));
	ck_assert_ptr_null(jobtext_sluid("s355M96FXKYB0\n"));
	ck_assert_ptr_null(jobtext_sluid("s355M96FXKYB000\n"));
	ck_assert_ptr_null(jobtext_sluid("S355M96FXKYB00\n"));
	ck_assert_ptr_null(jobtext_sluid("s355M96FXKYB00 x\n"));
}
END_TEST

START_TEST(test_sacct_random)
{
	struct job_list	 l;
	char		*text, *copy, v[4][1100];
	size_t		 len, one, n, i, k;
	/* Where JobName, WorkDir, StdOut, StdErr start in a 25.11 line. */
	const size_t	 at[4] = { 21 + 4201 + 41 + 17 + 75 + 13 + 13 + 257 +
	    257 + 1101 + 4201, 21 + 4201 + 41 + 17 + 75 + 13 + 13 + 257 +
	    257 + 1101 + 4201 + 1101, 21 + 4201 + 41 + 17 + 75 + 13 + 13 +
	    257 + 257 + 1101 + 4201 + 1101 + 4201, 21 + 4201 + 41 + 17 +
	    75 + 13 + 13 + 257 + 257 + 1101 + 4201 + 1101 + 4201 + 4201 };
	int		 round;

	srand((unsigned)seed);
	text = load("25.11/sacct-array-ended", &len);
	one = len / 4;
	copy = xmalloc(len);
	for (round = 0; round < 200; round++) {
		memcpy(copy, text, len);
		for (k = 0; k < 4; k++) {
			n = (size_t)(rand() % 1099);
			random_name(v[k], n);
			for (i = 0; i < 4; i++) {
				memset(copy + i * one + at[k], ' ', 1099);
				memcpy(copy + i * one + at[k], v[k], n);
			}
			/* Blanks at its end are lost; empty is no value. */
			while (n > 0 && v[k][n - 1] == ' ')
				v[k][--n] = '\0';
		}
		memset(&l, 0, sizeof l);
		ck_assert_msg(jobtext_sacct(2511, copy, len, &l) == NULL,
		    "seed %lu round %d", seed, round);
		ck_assert_msg(l.n == 4, "seed %lu round %d", seed, round);
		for (i = 0; i < 4; i++) {
			ck_assert_int_eq(l.v[i].array_job_id, 14);
			ck_assert_msg(strcmp(l.v[i].name, v[0]) == 0,
			    "seed %lu round %d: name", seed, round);
			ck_assert_msg(v[1][0] == '\0' ? l.v[i].work_dir ==
			    NULL : strcmp(l.v[i].work_dir, v[1]) == 0,
			    "seed %lu round %d: work dir", seed, round);
		}
		job_list_release(&l);
	}
	free(copy);
	free(text);
}
END_TEST

static Suite *
jobtext_suite(void)
{
	Suite	*s = suite_create("jobtext");
	TCase	*tc = tcase_create("squeue");

	tcase_add_loop_test(tc, test_squeue_hostile, 0, 2);
	tcase_add_loop_test(tc, test_squeue_jobs, 0, 2);
	tcase_add_test(tc, test_squeue_filtered);
	tcase_add_loop_test(tc, test_squeue_find, 0, 2);
	tcase_add_loop_test(tc, test_squeue_random, 0, 2);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tc = tcase_create("sacct");
	tcase_add_loop_test(tc, test_sacct_jobs, 0, 2);
	tcase_add_loop_test(tc, test_sacct_array, 0, 2);
	tcase_add_loop_test(tc, test_sacct_hostile, 0, 2);
	tcase_add_test(tc, test_sacct_bad);
	tcase_add_test(tc, test_sacct_args);
	tcase_add_test(tc, test_sacct_random);
	tcase_add_test(tc, test_sluid);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	seed = test_seed("check_jobtext");
	return run_suite(jobtext_suite());
}
