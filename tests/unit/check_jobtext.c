/*
 * check_jobtext.c: squeue's JSON (25.11) and fixed columns (22.05) and
 * sacct's columns read into job records (src/slurm/jobtext.c), on what
 * the clients of Slurm 22.05 (Debian's) and 25.11 printed on tests/slurm
 * clusters (tests/data/jobtext/README.md): jobs of root's, held jobs of
 * nobody's whose names forge a record, hold bytes that are not UTF-8 and
 * control characters, and of a user without a passwd entry.  Then seeded
 * random names and paths of any bytes (MBS_TEST_SEED, printed), written
 * as the clients write them.
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

/* The records of squeue's file NAME: job ID's, or user UID's (ID 0; UID
 * -1: every user's). */
static void
squeue(const char *name, int64_t id, int64_t uid, struct job_list *l)
{
	struct error	*err;
	size_t		 len;
	char		*text = load(name, &len);

	memset(l, 0, sizeof *l);
	err = jobtext_squeue(release_of(name), text, len, id, uid, l);
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

/* ---- squeue --json (25.11) ---- */

/* Another user's job names are data: root's jobs are root's, no more,
 * no fewer; nobody's are each one job with its name whole. */
START_TEST(test_squeue_hostile)
{
	struct job_list	 l;
	const char	*f = "25.11/squeue-all";
	const struct job_status *s;
	size_t		 i;

	squeue(f, 0, 0, &l);
	ck_assert_uint_eq(l.n, 10);
	for (i = 0; i < l.n; i++) {
		ck_str(l.v[i].user, "root");
		ck_assert_int_le(l.v[i].job_id, 10);
	}
	ck_assert(!has(&l, 999));
	job_list_release(&l);

	squeue(f, 0, 65534, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 11)->name, FORGED);
	ck_str(find(&l, 12)->name, BYTES);
	ck_str(find(&l, 13)->name, RECORD);
	job_list_release(&l);
	squeue(f, 0, -1, &l);
	ck_assert_uint_eq(l.n, 13);
	job_list_release(&l);

	/* By id: the job itself, whatever its name says. */
	squeue(f, 11, 0, &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_assert_int_eq(s->job_id, 11);
	ck_str(s->name, FORGED);
	ck_str(s->user, "nobody");
	ck_str(s->state, "PENDING");
	ck_str(s->reason, "JobHeldUser");
	ck_assert_ptr_null(s->dependency);
	job_list_release(&l);
	squeue(f, 10, 0, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_str(l.v[0].name, "root's");
	ck_str(l.v[0].user, "root");
	job_list_release(&l);
	squeue(f, 999, 0, &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
	squeue(f, 0, 1, &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
}
END_TEST

START_TEST(test_squeue_jobs)
{
	struct job_list	 l;
	const char	*f = "25.11/squeue-all";
	const struct job_status *s;

	/* Job 1 failed with exit status 3. */
	squeue(f, 1, 0, &l);
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
	squeue(f, 3, 0, &l);
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
	squeue(f, 6, 0, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].array_task_id, 1);
	job_list_release(&l);
	/* Held, waiting for 1 (failed) and 2 (cancelled). */
	squeue(f, 9, 0, &l);
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

	squeue("25.11/squeue-array", 3, 0, &l);
	ck_assert_uint_eq(l.n, 3);
	job_list_release(&l);
	squeue("25.11/squeue-array-last", 4, 0, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 4)->array_tasks, "2%2");
	job_list_release(&l);
	squeue("25.11/squeue-array-ended", 14, 0, &l);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_int_eq(find(&l, 14)->array_task_id, 3);
	ck_assert_int_eq(find(&l, 14)->exit_code, 3);
	job_list_release(&l);
	/* Not JSON: an error, nothing appended. */
	text = load("25.11/squeue-none.err", &len);
	memset(&l, 0, sizeof l);
	err = jobtext_squeue(2511, text, len, 1, 0, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strncmp(err->msg, "squeue --json: ", 15) == 0, "%s",
	    err->msg);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	free(text);
}
END_TEST

/* The file and release whose squeue lists every job (_i: 22.05's
 * columns, 25.11's JSON). */
static const char *const every_job[] = { "22.05/cols-all",
    "25.11/squeue-all" };

START_TEST(test_squeue_find)
{
	const char	*f = every_job[_i];
	char		*text;
	size_t		 len;
	int64_t		 id;
	int		 r = release_of(f);

	text = load(f, &len);
	ck_assert_ptr_null(jobtext_squeue_find(r, text, len, FORGED, 65534,
	    &id));
	ck_assert_int_eq(id, 11);
	ck_assert_ptr_null(jobtext_squeue_find(r, text, len, "fake", 0, &id));
	ck_assert_int_eq(id, 0);
	ck_assert_ptr_null(jobtext_squeue_find(r, text, len, "fake", 65534,
	    &id));
	ck_assert_int_eq(id, 0);
	ck_assert_ptr_null(jobtext_squeue_find(r, text, len, "root's", 0,
	    &id));
	ck_assert_int_eq(id, 10);
	ck_assert_ptr_null(jobtext_squeue_find(r, text, len, FORGED, 0, &id));
	ck_assert_int_eq(id, 0);
	/* A task's name: its array's id. */
	ck_assert_ptr_null(jobtext_squeue_find(r, text, len, "wrap", 0, &id));
	ck_assert(id == 3 || id == 4 || id == 9 || id == 14 || id >= 18);
	free(text);
}
END_TEST

/* ---- squeue's fixed columns (22.05) ---- */

/* The bytes nobody's job 12 was named (columns keep every byte). */
#define RAW_BYTES	"bad\377\376name\x1b]0;title\x07|\x1fz\r"

/* Every job in columns: each user's by uid, a name never a record. */
START_TEST(test_cols_users)
{
	struct job_list	 l;
	size_t		 i;

	squeue("22.05/cols-all", 0, 0, &l);
	/* 1 2 3 (a group) 5 6, 4 7 8, 9 10, 14-17, 18-22, 24. */
	ck_assert_uint_eq(l.n, 20);
	for (i = 0; i < l.n; i++) {
		ck_assert(l.v[i].job_id != 11 && l.v[i].job_id != 12 &&
		    l.v[i].job_id != 13 && l.v[i].job_id != 23);
		ck_assert_ptr_null(l.v[i].user);	/* not asked */
		ck_assert_ptr_null(l.v[i].std_out);
	}
	ck_assert(!has(&l, 999));
	job_list_release(&l);
	squeue("22.05/cols-all", 0, 65534, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 11)->name, FORGED);
	ck_str(find(&l, 12)->name, RAW_BYTES);
	ck_str(find(&l, 13)->name, RECORD);
	job_list_release(&l);
	/* A user without a passwd entry, whom squeue names "nobody". */
	squeue("22.05/cols-all", 0, 12345, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].job_id, 23);
	job_list_release(&l);
	squeue("22.05/cols-all", 0, -1, &l);
	ck_assert_uint_eq(l.n, 24);
	job_list_release(&l);
	squeue("22.05/cols-all", 0, 1, &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
	/* squeue --user=0 printed root's alone. */
	squeue("22.05/cols-user-0", 0, 0, &l);
	ck_assert_uint_eq(l.n, 20);
	job_list_release(&l);
	/* Nothing printed: none. */
	squeue("22.05/cols-none", 99999, -1, &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
}
END_TEST

/* One job's records in columns, each field as the JSON reader gives it. */
START_TEST(test_cols_jobs)
{
	struct job_list	 l;
	const struct job_status *s;
	size_t		 i;
	char		 n1024[1025];

	squeue("22.05/cols-1", 1, -1, &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_assert_int_eq(s->job_id, 1);
	ck_str(s->name, "fail|pipe name");
	ck_str(s->state, "FAILED");
	ck_str(s->reason, "NonZeroExitCode");
	ck_assert(s->exit_known);
	ck_assert_int_eq(s->exit_code, 3);
	ck_assert_int_eq(s->exit_signal, 0);
	ck_assert_int_eq(s->source, JOB_SOURCE_CTLD);
	ck_assert_int_gt(s->submit_time, 1796590000);
	ck_assert_int_ge(s->start_time, s->submit_time);
	ck_assert_int_ge(s->end_time, s->start_time);
	ck_assert_int_eq(s->nodes, 1);
	ck_str(s->node_list, "mbsnode0");
	ck_str(s->partition, "local");
	ck_str(s->user, "root");
	ck_str(s->work_dir, "/tmp/hx/w");
	ck_str(s->batch_host, "mbsnode0");
	ck_str(s->std_out, "/dev/null");
	ck_assert_ptr_null(s->std_err);		/* with the output */
	ck_assert(!s->std_expanded);
	ck_assert(!s->restart_unknown);
	ck_assert_int_eq(s->restart_cnt, 0);
	ck_assert_int_eq(s->array_job_id, 0);
	ck_assert_int_eq(s->array_task_id, -1);
	ck_assert_ptr_null(s->array_tasks);
	ck_assert_ptr_null(s->dependency);
	job_list_release(&l);

	/* Killed by signal 9; Slurm's default output, spelled out. */
	squeue("22.05/cols-18", 18, -1, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert(l.v[0].exit_known);
	ck_assert_int_eq(l.v[0].exit_code, 0);
	ck_assert_int_eq(l.v[0].exit_signal, 9);
	ck_assert_ptr_null(l.v[0].std_out);
	ck_assert_ptr_null(l.v[0].std_err);
	job_list_release(&l);
	/* Patterns as sent; held: no host, no start, not ended. */
	squeue("22.05/cols-19", 19, -1, &l);
	s = &l.v[0];
	ck_str(s->std_out, "/tmp/hx/w/out-%j.txt");
	ck_str(s->std_err, "/tmp/hx/w/err-%x.txt");
	ck_assert_ptr_null(s->batch_host);
	ck_assert_ptr_null(s->node_list);
	ck_assert_int_eq(s->start_time, 0);
	ck_assert_int_eq(s->end_time, 0);
	ck_assert(!s->exit_known);
	ck_str(s->reason, "JobHeldUser");
	job_list_release(&l);
	/* Running without a time limit: no end yet ("NONE"). */
	squeue("22.05/cols-20", 20, -1, &l);
	ck_str(l.v[0].state, "RUNNING");
	ck_assert_int_gt(l.v[0].start_time, 0);
	ck_assert_int_eq(l.v[0].end_time, 0);
	ck_assert(!l.v[0].exit_known);
	job_list_release(&l);
	/* The longest name Slurm takes, whole; blanks at a name's end are
	 * lost. */
	memset(n1024, 'n', 1024);
	n1024[1024] = '\0';
	squeue("22.05/cols-21", 21, -1, &l);
	ck_str(l.v[0].name, n1024);
	job_list_release(&l);
	squeue("22.05/cols-22", 22, -1, &l);
	ck_str(l.v[0].name, "trail");
	job_list_release(&l);
	/* A user without a passwd entry: squeue says "nobody". */
	squeue("22.05/cols-23", 23, -1, &l);
	ck_str(l.v[0].user, "nobody");
	ck_str(l.v[0].work_dir, "/tmp/hx/n");
	job_list_release(&l);
	/* An error file of its own, the output Slurm's default. */
	squeue("22.05/cols-24", 24, -1, &l);
	ck_assert_ptr_null(l.v[0].std_out);
	ck_str(l.v[0].std_err, "/tmp/hx/w/err-%j.txt");
	job_list_release(&l);
	/* Held, waiting for 1 (failed) and 2 (cancelled). */
	squeue("22.05/cols-9", 9, -1, &l);
	ck_str(l.v[0].dependency,
	    "afterany:1(unfulfilled),afterok:2(unfulfilled)");
	job_list_release(&l);
	/* Names that look like records, as they are. */
	squeue("22.05/cols-11", 11, -1, &l);
	ck_assert_uint_eq(l.v[0].job_id, 11);
	ck_str(l.v[0].name, FORGED);
	ck_str(l.v[0].user, "nobody");
	job_list_release(&l);
	squeue("22.05/cols-12", 12, -1, &l);
	ck_str(l.v[0].name, RAW_BYTES);
	job_list_release(&l);
	squeue("22.05/cols-13", 13, -1, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_uint_eq(l.v[0].job_id, 13);
	ck_str(l.v[0].name, RECORD);
	job_list_release(&l);
	/* Every record of an ended array, task N exits N. */
	squeue("22.05/cols-14", 14, -1, &l);
	ck_assert_uint_eq(l.n, 4);
	for (i = 0; i < l.n; i++) {
		ck_assert_int_eq(l.v[i].array_job_id, 14);
		ck_assert_int_eq(l.v[i].exit_code, (int)l.v[i].array_task_id);
		ck_assert_ptr_null(l.v[i].array_tasks);
	}
	ck_assert_int_eq(find(&l, 14)->array_task_id, 3);
	job_list_release(&l);
}
END_TEST

/* Arrays as the JSON reader gives them: a group in brackets, a task. */
START_TEST(test_cols_arrays)
{
	struct job_list	 l;
	const struct job_status *s;

	squeue("22.05/cols-3", 3, -1, &l);
	ck_assert_uint_eq(l.n, 3);
	s = find(&l, 3);
	ck_str(s->array_tasks, "2-9%2");
	ck_assert_int_eq(s->array_task_id, -1);
	ck_assert_int_eq(s->array_job_id, 3);
	ck_str(s->state, "PENDING");
	ck_str(s->reason, "JobArrayTaskLimit");
	ck_assert_int_eq(find(&l, 5)->array_task_id, 0);
	ck_assert_int_eq(find(&l, 6)->array_task_id, 1);
	ck_str(find(&l, 6)->state, "RUNNING");
	job_list_release(&l);
	/* Its last task waiting: the array's own record is that task, as
	 * slurmctld has it (--json: array_task_id 2). */
	squeue("22.05/cols-4", 4, -1, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_assert_int_eq(find(&l, 4)->array_task_id, 2);
	ck_assert_ptr_null(find(&l, 4)->array_tasks);
	ck_assert_int_eq(find(&l, 8)->array_task_id, 1);
	job_list_release(&l);
	/* A task by its own id: that task alone. */
	squeue("22.05/cols-6", 6, -1, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].array_job_id, 3);
	ck_assert_int_eq(l.v[0].array_task_id, 1);
	job_list_release(&l);
	/* The same records in a user's columns. */
	squeue("22.05/cols-all", 0, 0, &l);
	ck_str(find(&l, 3)->array_tasks, "2-9%2");
	ck_assert_int_eq(find(&l, 7)->array_task_id, 0);
	job_list_release(&l);
}
END_TEST

/* Where column NAME starts in a line of the widths of FILE ("one" or
 * "list": tests/data/jobtext/22.05/squeue-format-FILE), its width in *W,
 * and the line's length in *LEN. */
static size_t
col_at(const char *file, const char *name, size_t *w, size_t *len)
{
	char		 path[64], *fmt, *p, *tok, *save = NULL;
	size_t		 flen, at = 0, found = (size_t)-1;

	snprintf(path, sizeof path, "22.05/squeue-format-%s", file);
	fmt = load(path, &flen);
	for (p = fmt; (tok = strtok_r(p, ",", &save)) != NULL; p = NULL) {
		char	*colon = strchr(tok, ':');

		ck_assert_ptr_nonnull(colon);
		*colon = '\0';
		if (strcmp(tok, name) == 0) {
			found = at;
			*w = (size_t)atoi(colon + 1);
		}
		at += (size_t)atoi(colon + 1) + 1;
	}
	free(fmt);
	ck_assert_msg(found != (size_t)-1, "no column %s", name);
	*len = at + 1;
	return found;
}

/* VALUE (N bytes) in the column at AT of width W, as _print_str() prints
 * it: at most W bytes, then blanks. */
static void
col_put(char *line, size_t at, size_t w, const char *value, size_t n)
{
	memset(line + at, ' ', w);
	memcpy(line + at, value, n < w ? n : w);
}

/* Values that filled their columns: unknown, or what is whole of them. */
START_TEST(test_cols_cut)
{
	struct job_list	 l = { NULL, 0 };
	struct buf	 b;
	size_t		 len, llen, at, w, i;
	char		*text = load("22.05/cols-9", &len);

	/* A dependency list longer than its column: its whole elements. */
	at = col_at("one", "dependency", &w, &llen);
	ck_assert_uint_eq(len, llen);
	buf_init(&b);
	for (i = 0; b.len < w + 30; i++)
		buf_addf(&b, "%safterok:%zu(unfulfilled)", i > 0 ? "," : "",
		    1000 + i);
	col_put(text, at, w, b.data, b.len);
	ck_assert_ptr_null(jobtext_squeue(2205, text, len, 9, -1, &l));
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(strncmp(l.v[0].dependency, b.data,
	    strlen(l.v[0].dependency) - 3), 0);
	ck_assert_str_eq(l.v[0].dependency + strlen(l.v[0].dependency) - 5,
	    "),...");
	job_list_release(&l);
	buf_release(&b);
	/* An array's task list: its whole items, then "...". */
	at = col_at("one", "jobarrayid", &w, &llen);
	buf_init(&b);
	buf_adds(&b, "9_[");
	for (i = 0; b.len < w + 30; i++)
		buf_addf(&b, "%s%zu", i > 0 ? "," : "", 2 * i);
	buf_adds(&b, "]");
	col_put(text, at, w, b.data, b.len);
	memset(&l, 0, sizeof l);
	ck_assert_ptr_null(jobtext_squeue(2205, text, len, 9, -1, &l));
	ck_assert_int_eq(l.v[0].array_job_id, 9);
	ck_assert_int_eq(l.v[0].array_task_id, -1);
	ck_assert_int_eq(strncmp(l.v[0].array_tasks, b.data + 3,
	    strlen(l.v[0].array_tasks) - 3), 0);
	ck_assert_str_eq(l.v[0].array_tasks + strlen(l.v[0].array_tasks) - 4,
	    ",...");
	job_list_release(&l);
	/* A reason or partition that filled its column: not known. */
	at = col_at("one", "reason", &w, &llen);
	memset(text + at, 'r', w);
	at = col_at("one", "partition", &w, &llen);
	memset(text + at, 'p', w);
	memset(&l, 0, sizeof l);
	ck_assert_ptr_null(jobtext_squeue(2205, text, len, 9, -1, &l));
	ck_assert_ptr_null(l.v[0].reason);
	ck_assert_ptr_null(l.v[0].partition);
	ck_str(l.v[0].name, "wrap");
	job_list_release(&l);
	buf_release(&b);
	free(text);
}
END_TEST

/* Text that is not whole lines of the columns asked for: an error, and
 * nothing appended. */
START_TEST(test_cols_bad)
{
	struct job_list	 l = { NULL, 0 };
	struct error	*err;
	size_t		 len, one, at, w, llen;
	char		*text = load("22.05/cols-14", &len);

	one = len / 4;
	err = jobtext_squeue(2205, text, len - 1, 14, -1, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	/* A column's blank moved: line 3. */
	at = col_at("one", "state", &w, &llen);
	text[2 * one + at + w] = 'x';
	err = jobtext_squeue(2205, text, len, 14, -1, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->msg, "squeue: line 3") != NULL, "%s",
	    err->msg);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	text[2 * one + at + w] = ' ';
	/* No job id. */
	at = col_at("one", "jobid", &w, &llen);
	memset(text + one + at, ' ', w);
	err = jobtext_squeue(2205, text, len, 14, -1, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->msg, "line 2: no job id") != NULL, "%s",
	    err->msg);
	error_free(err);
	free(text);
	/* A user's columns are not one job's. */
	text = load("22.05/cols-all", &len);
	err = jobtext_squeue(2205, text, len, 9, -1, &l);
	ck_assert_ptr_nonnull(err);
	error_free(err);
	ck_assert_ptr_null(jobtext_squeue(2205, text, len, 0, -1, &l));
	job_list_release(&l);
	free(text);
}
END_TEST

START_TEST(test_squeue_args)
{
	char		**a, *one, *list;
	size_t		  n;

	one = load("22.05/squeue-format-one", &n);
	list = load("22.05/squeue-format-list", &n);
	a = jobtext_squeue_args(2205, 7, -1);
	ck_str(a[0], "--states=all");
	ck_str(a[1], "--all");
	ck_str(a[2], "--jobs=7");
	ck_str(a[3], "--noheader");
	ck_assert_int_eq(strncmp(a[4], "--Format=", 9), 0);
	ck_str(a[4] + 9, one);
	ck_assert_ptr_null(a[5]);
	freev(a);
	a = jobtext_squeue_args(2205, 0, 0);
	ck_str(a[2], "--user=0");
	ck_str(a[4] + 9, list);
	freev(a);
	a = jobtext_squeue_args(2205, 0, -1);
	ck_str(a[2], "--noheader");
	freev(a);
	/* 23.02 on, and a release not known: JSON. */
	a = jobtext_squeue_args(2302, 0, 65534);
	ck_str(a[2], "--user=65534");
	ck_str(a[3], "--json");
	ck_assert_ptr_null(a[4]);
	freev(a);
	a = jobtext_squeue_args(0, 7, -1);
	ck_str(a[2], "--jobs=7");
	ck_str(a[3], "--json");
	freev(a);
	ck_assert(jobtext_squeue_columns(2205));
	ck_assert(jobtext_squeue_columns(2111));
	ck_assert(!jobtext_squeue_columns(2302));
	ck_assert(!jobtext_squeue_columns(0));
	free(one);
	free(list);
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

/* One line of sacct's steps columns (jobtext_sacct_steps_args()):
 * JobIDRaw%-24 State%-24 Start%-21 End%-21 JobName%-64, each then a
 * blank. */
static void
step_line(char *buf, size_t len, const char *id, const char *state,
    const char *start, const char *end, const char *name)
{
	snprintf(buf, len, "%-24s %-24s %-21s %-21s %-64s \n", id, state,
	    start, end, name);
}

/*
 * A requeued job's steps: the allocation's lines left out, each step
 * read with its job, times and name; a name sacct cut is not known; a
 * line of other widths is an error, nothing appended.
 */
START_TEST(test_sacct_steps)
{
	struct job_list	 l = { NULL, 0 };
	struct error	*err;
	char		 text[8 * 200], *p = text;
	char		 cut[65];
	char		**argv;

	memset(cut, 'n', 63);
	cut[63] = '+';
	cut[64] = '\0';
	step_line(p, 200, "12", "REQUEUED", "1796205600", "1796205650",
	    "train");
	p += strlen(p);
	step_line(p, 200, "12.batch", "CANCELLED", "1796205600", "1796205650",
	    "batch");
	p += strlen(p);
	step_line(p, 200, "12.0", "COMPLETED", "1796205601", "1796205603",
	    "mbsbatch-gate");
	p += strlen(p);
	step_line(p, 200, "12", "COMPLETED", "1796205700", "1796205760",
	    "train");
	p += strlen(p);
	step_line(p, 200, "12.0", "COMPLETED", "1796205702", "Unknown",
	    "mbsbatch-gate");
	p += strlen(p);
	step_line(p, 200, "12.1", "COMPLETED", "1796205705", "1796205760",
	    cut);
	p += strlen(p);
	ck_assert_ptr_null(jobtext_sacct_steps(text, (size_t)(p - text), &l));
	ck_assert_uint_eq(l.n, 4);
	ck_assert_int_eq(l.v[0].job_id, 12);
	ck_str(l.v[0].name, "batch");
	ck_str(l.v[1].name, "mbsbatch-gate");
	ck_assert_int_eq(l.v[1].start_time, 1796205601);
	ck_assert_int_eq(l.v[1].end_time, 1796205603);
	ck_str(l.v[1].state, "COMPLETED");
	ck_assert_int_eq(l.v[2].start_time, 1796205702);
	ck_assert_int_eq(l.v[2].end_time, 0);
	ck_assert_ptr_null(l.v[3].name);
	job_list_release(&l);
	/* A byte short: not whole lines. */
	err = jobtext_sacct_steps(text, (size_t)(p - text) - 1, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	argv = jobtext_sacct_steps_args(12);
	ck_str(argv[0], "--jobs=12");
	ck_str(argv[1], "--duplicates");
	ck_str(argv[3], "--format=JobIDRaw%-24,State%-24,Start%-21,End%-21,"
	    "JobName%-64");
	ck_assert_ptr_null(argv[4]);
	freev(argv);
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
 * bytes as they are), in 25.11's recorded answer's job 11: it is one
 * job, of that name (\xHH for each byte that is not UTF-8).
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

	srand((unsigned)seed);
	text = load("25.11/squeue-all", &len);
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
		err = jobtext_squeue(2511, body.data, body.len, 11, -1, &l);
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
		ck_assert_ptr_null(jobtext_squeue(2511, body.data, body.len, 0,
		    0, &l));
		ck_assert_msg(l.n == 10, "seed %lu round %d: root has %zu",
		    seed, round, l.n);
		job_list_release(&l);
		memset(&l, 0, sizeof l);
		ck_assert_ptr_null(jobtext_squeue(2511, body.data, body.len, 0,
		    65534, &l));
		ck_assert_msg(l.n == 3 && has(&l, 11), "seed %lu round %d: "
		    "nobody has %zu", seed, round, l.n);
		job_list_release(&l);
		buf_release(&want);
		buf_release(&body);
	}
	free(text);
}
END_TEST

/* S with the blanks it ended with dropped, or NULL when nothing is left
 * (how a column reads). */
static const char *
trimmed(char *s)
{
	size_t	 n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
	return n > 0 ? s : NULL;
}

/* Are A and B the same string, or both NULL? */
static int
same(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

#define ck_pstr(a, b, what)	ck_assert_msg(same((a), (b)), \
    "seed %lu round %d: %s", seed, round, (what))

/*
 * Random names (any byte but NUL, as _print_str() prints them: at most
 * the column's width, then blanks) in 22.05's columns: in a user's
 * listing, job 11 stays one job of nobody's and root's jobs stay 20; in
 * one job's, the name, working directory and paths read back whole.
 */
START_TEST(test_cols_random)
{
	struct job_list	 l;
	char		*all, *one, *copy, name[1025], v[3][4097];
	size_t		 alen, olen, llen, at, w, line, k;
	size_t		 wat[3], ww[3];
	int		 round;
	static const char *const paths[3] = { "workdir", "stdout", "stderr" };

	srand((unsigned)seed);
	all = load("22.05/cols-all", &alen);
	one = load("22.05/cols-11", &olen);
	at = col_at("list", "jobid", &w, &llen);
	for (line = 0; line < alen / llen; line++)
		if (strncmp(all + line * llen + at, "11 ", 3) == 0)
			break;
	ck_assert_uint_lt(line, alen / llen);
	for (round = 0; round < 100; round++) {
		/* A user's listing. */
		copy = xmalloc(alen);
		memcpy(copy, all, alen);
		k = (size_t)(rand() % 1025);
		random_name(name, k);
		at = col_at("list", "name", &w, &llen);
		col_put(copy + line * llen, at, w, name, k);
		memset(&l, 0, sizeof l);
		ck_assert_msg(jobtext_squeue(2205, copy, alen, 0, 65534, &l) ==
		    NULL && l.n == 3, "seed %lu round %d: nobody", seed, round);
		ck_pstr(find(&l, 11)->name, trimmed(name), "name");
		job_list_release(&l);
		memset(&l, 0, sizeof l);
		ck_assert_msg(jobtext_squeue(2205, copy, alen, 0, 0, &l) ==
		    NULL && l.n == 20, "seed %lu round %d: root", seed, round);
		job_list_release(&l);
		free(copy);
		/* One job's. */
		copy = xmalloc(olen);
		memcpy(copy, one, olen);
		random_name(name, (size_t)(rand() % 1025));
		at = col_at("one", "name", &w, &llen);
		col_put(copy, at, w, name, strlen(name));
		for (k = 0; k < 3; k++) {
			wat[k] = col_at("one", paths[k], &ww[k], &llen);
			random_name(v[k], (size_t)(rand() % 4097));
			col_put(copy, wat[k], ww[k], v[k], strlen(v[k]));
		}
		memset(&l, 0, sizeof l);
		ck_assert_msg(jobtext_squeue(2205, copy, olen, 11, -1, &l) ==
		    NULL && l.n == 1, "seed %lu round %d: job 11", seed, round);
		ck_assert_int_eq(l.v[0].job_id, 11);
		ck_pstr(l.v[0].name, trimmed(name), "name");
		ck_pstr(l.v[0].work_dir, trimmed(v[0]), "work dir");
		ck_pstr(l.v[0].std_out, trimmed(v[1]), "output");
		/* The output's, when the same (_print_job_std_err()). */
		ck_pstr(l.v[0].std_err, same(trimmed(v[1]), trimmed(v[2])) ?
		    NULL : trimmed(v[2]), "error");
		job_list_release(&l);
		free(copy);
	}
	free(all);
	free(one);
}
END_TEST

/*
 * Random names, working directories and paths through sacct's columns,
 * in a recorded line: each record is one job, each value whole (but
 * for the blanks it ended with).
 */
/* 25.11's SLUID column beside the raw id (sacct
 * --format=JobIDRaw%-20,SLUID%-20), what %S writes: the line of the job's
 * own id, or nothing.  An array's id lists every task (the test's case:
 * 13_1 is job 13, its last task, after task 0 as job 14). */
START_TEST(test_sluid)
{
	char	*v;

	v = jobtext_sluid("7                    s355M96FXKYB00      \n", 7);
	ck_str(v, "s355M96FXKYB00");
	free(v);
	v = jobtext_sluid("14                   sD79M96TJ01W01      \n"
	    "13                   sD79M96THZN800      \n", 13);
	ck_str(v, "sD79M96THZN800");
	free(v);
	v = jobtext_sluid("14                   sD79M96TJ01W01      \n"
	    "13                   sD79M96THZN800      \n", 14);
	ck_str(v, "sD79M96TJ01W01");
	free(v);
	/* Another job's line only; a prefix of the id is not the id. */
	ck_assert_ptr_null(jobtext_sluid("14 sD79M96TJ01W01\n", 1));
	ck_assert_ptr_null(jobtext_sluid("14 sD79M96TJ01W01\n", 141));
	ck_assert_ptr_null(jobtext_sluid("", 7));
	ck_assert_ptr_null(jobtext_sluid("\n", 7));
	ck_assert_ptr_null(jobtext_sluid("7\n", 7));
	/* Not Crockford's letters (I L O U), too short, too long. */
	ck_assert_ptr_null(jobtext_sluid("7 s355M96FXKYBI0\n", 7));
	ck_assert_ptr_null(jobtext_sluid("7 s355M96FXKYB0\n", 7));
	ck_assert_ptr_null(jobtext_sluid("7 s355M96FXKYB000\n", 7));
	ck_assert_ptr_null(jobtext_sluid("7 S355M96FXKYB00\n", 7));
	ck_assert_ptr_null(jobtext_sluid("7 s355M96FXKYB00 x\n", 7));
	/* The last line without its newline. */
	v = jobtext_sluid("7 s355M96FXKYB00", 7);
	ck_str(v, "s355M96FXKYB00");
	free(v);
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

	tcase_add_test(tc, test_squeue_hostile);
	tcase_add_test(tc, test_squeue_jobs);
	tcase_add_test(tc, test_squeue_filtered);
	tcase_add_loop_test(tc, test_squeue_find, 0, 2);
	tcase_add_test(tc, test_squeue_random);
	tcase_add_test(tc, test_squeue_args);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tc = tcase_create("columns");
	tcase_add_test(tc, test_cols_users);
	tcase_add_test(tc, test_cols_jobs);
	tcase_add_test(tc, test_cols_arrays);
	tcase_add_test(tc, test_cols_cut);
	tcase_add_test(tc, test_cols_bad);
	tcase_add_test(tc, test_cols_random);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tc = tcase_create("sacct");
	tcase_add_loop_test(tc, test_sacct_jobs, 0, 2);
	tcase_add_loop_test(tc, test_sacct_array, 0, 2);
	tcase_add_loop_test(tc, test_sacct_hostile, 0, 2);
	tcase_add_test(tc, test_sacct_bad);
	tcase_add_test(tc, test_sacct_steps);
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
