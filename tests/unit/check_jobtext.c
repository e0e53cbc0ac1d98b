/*
 * check_jobtext.c: scontrol's and sacct's text read into job records
 * (src/slurm/jobtext.c), on what the clients of Slurm 22.05 (Debian's)
 * and 25.11 printed on tests/slurm clusters with accounting
 * (tests/data/jobtext/README.md); a few synthetic lines for what no
 * cluster printed, each marked so.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "error.h"
#include "jobtext.h"
#include "run.h"

#ifndef TEST_DATA
#error "TEST_DATA must name tests/data"
#endif

/* tests/data/jobtext/NAME, a new string. */
static char *
load(const char *name)
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
	return s;
}

/* The records of scontrol's file NAME, UID's only unless -1. */
static void
scontrol(const char *name, int64_t uid, struct job_list *list)
{
	char		*text = load(name);
	struct error	*err;

	memset(list, 0, sizeof *list);
	err = jobtext_scontrol(text, uid, list);
	ck_assert_msg(err == NULL, "%s: %s", name, err ? err->msg : "");
	free(text);
}

static void
sacct(const char *name, struct job_list *list)
{
	char		*text = load(name);
	struct error	*err;

	memset(list, 0, sizeof *list);
	err = jobtext_sacct(text, list);
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

#define ck_str(a, b)	ck_assert_pstr_eq((a), (b))

START_TEST(test_scontrol_array)
{
	struct job_list			 l;
	const struct job_status		*s;

	/* 22.05: tasks 4 and 5 run, 6-9 wait two at a time. */
	scontrol("22.05/scontrol-array.txt", -1, &l);
	ck_assert_uint_eq(l.n, 3);
	s = find(&l, 1);
	ck_str(s->state, "PENDING");
	ck_assert_int_eq(s->array_job_id, 1);
	ck_assert_int_eq(s->array_task_id, -1);
	ck_str(s->array_tasks, "6-9%2");
	ck_str(s->reason, "JobArrayTaskLimit");
	ck_assert_ptr_null(s->node_list);
	ck_assert_ptr_null(s->batch_host);
	ck_assert_ptr_null(s->dependency);
	ck_assert_int_eq(s->start_time, 0);
	ck_assert_int_eq(s->submit_time, 1796190510);
	ck_assert_int_eq(s->source, JOB_SOURCE_CTLD);
	s = find(&l, 9);
	ck_str(s->state, "RUNNING");
	ck_assert_int_eq(s->array_job_id, 1);
	ck_assert_int_eq(s->array_task_id, 5);
	ck_assert_ptr_null(s->array_tasks);
	ck_str(s->name, "wrap");
	ck_str(s->user, "root");
	ck_str(s->partition, "local");
	ck_str(s->node_list, "mbsnode0");
	ck_str(s->batch_host, "mbsnode0");
	ck_assert_int_eq(s->nodes, 1);
	ck_assert_int_eq(s->start_time, 1796190573);
	ck_assert_int_eq(s->end_time, 0);
	ck_str(s->std_out, "/tmp/sbatchh/w/a-1_5.out");
	ck_str(s->std_err, "/tmp/sbatchh/w/a-1_5.out");	/* 22.05: again */
	ck_assert(s->std_expanded);
	ck_str(s->work_dir, "/tmp/sbatchh/w");
	ck_assert(s->exit_known);
	ck_assert_int_eq(s->exit_code, 0);
	job_list_release(&l);

	/* 25.11: StdErr empty (with the output). */
	scontrol("25.11/scontrol-array.txt", -1, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 1)->array_tasks, "2-9%2");
	s = find(&l, 5);
	ck_assert_int_eq(s->array_task_id, 0);
	ck_str(s->std_out, "/tmp/sbatchh/w25/a-1_0.out");
	ck_assert_ptr_null(s->std_err);
	ck_str(s->work_dir, "/tmp/sbatchh/w25");	/* after SubmitLine */
	ck_assert_int_eq(s->start_time, 1796190674);
	job_list_release(&l);
}
END_TEST

/* The last task waiting: 22.05 prints it as a started task's id. */
START_TEST(test_scontrol_last)
{
	struct job_list			 l;
	const struct job_status		*s;

	scontrol("22.05/scontrol-array-last.txt", -1, &l);
	ck_assert_uint_eq(l.n, 3);
	s = find(&l, 16);
	ck_assert_int_eq(s->array_task_id, -1);
	ck_str(s->array_tasks, "2");
	s = find(&l, 17);
	ck_assert_int_eq(s->array_task_id, 0);
	ck_assert_ptr_null(s->array_tasks);
	job_list_release(&l);
	scontrol("25.11/scontrol-array-last.txt", -1, &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 16)->array_tasks, "2%2");
	ck_assert_int_eq(find(&l, 18)->array_task_id, 1);
	job_list_release(&l);
}
END_TEST

START_TEST(test_scontrol_dep)
{
	struct job_list			 l;
	const struct job_status		*s;

	scontrol("22.05/scontrol-dep.txt", -1, &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_assert_int_eq(s->job_id, 11);
	ck_str(s->dependency, "afterok:10(failed)");
	ck_str(s->reason, "JobHeldAdmin");
	ck_str(s->name, "held");
	ck_assert_int_eq(s->array_job_id, 0);
	ck_assert_int_eq(s->array_task_id, -1);
	job_list_release(&l);
	scontrol("25.11/scontrol-dep.txt", -1, &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_assert_int_eq(s->job_id, 7);
	ck_str(s->dependency, "afterok:4(failed)");
	ck_assert_int_eq(s->nodes, 1);			/* NumNodes=1-1 */
	ck_str(s->std_out, "/tmp/sbatchh/w25/slurm-7.out");
	job_list_release(&l);
}
END_TEST

START_TEST(test_scontrol_all)
{
	struct job_list			 l;
	const struct job_status		*s;

	scontrol("22.05/scontrol-all.txt", -1, &l);
	ck_assert_uint_eq(l.n, 7);
	s = find(&l, 10);
	ck_str(s->name, "spaced name x");
	ck_str(s->state, "CANCELLED");
	ck_assert_int_eq(s->exit_code, 0);
	ck_assert_int_eq(s->exit_signal, 15);
	ck_str(find(&l, 3)->dependency, "afterok:1_*(unfulfilled)");
	ck_str(find(&l, 11)->dependency, "afterok:10(failed)");
	job_list_release(&l);
	scontrol("22.05/scontrol-all.txt", 0, &l);
	ck_assert_uint_eq(l.n, 6);
	job_list_release(&l);
	scontrol("22.05/scontrol-all.txt", 1, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_str(l.v[0].name, "other");
	ck_str(l.v[0].user, "daemon");
	job_list_release(&l);
	scontrol("25.11/scontrol-all.txt", 0, &l);
	ck_assert_uint_eq(l.n, 5);
	job_list_release(&l);
	scontrol("25.11/scontrol-all.txt", 1, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].job_id, 8);
	job_list_release(&l);
	scontrol("25.11/scontrol-all.txt", 4242, &l);
	ck_assert_uint_eq(l.n, 0);
	job_list_release(&l);
}
END_TEST

START_TEST(test_scontrol_odd)
{
	struct job_list	 l = { NULL, 0 };
	struct error	*err;

	/* An unknown id: scontrol printed nothing on its output. */
	scontrol("22.05/scontrol-none.txt", -1, &l);
	ck_assert_uint_eq(l.n, 0);
	/* Synthetic: what scontrol prints when there is no job at all. */
	ck_assert_ptr_null(jobtext_scontrol("No jobs in the system\n", -1,
	    &l));
	ck_assert_uint_eq(l.n, 0);
	/* Synthetic: a job line without a state is an error, and what was
	 * read before it is dropped. */
	err = jobtext_scontrol("JobId=4 JobName=a JobState=RUNNING\n"
	    "JobId=5 JobName=b\n", -1, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->msg, "JobId=5"));
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	/* Synthetic: times in scontrol's default form, local time. */
	setenv("TZ", "UTC0", 1);
	tzset();
	ck_assert_ptr_null(jobtext_scontrol("JobId=4 JobState=RUNNING "
	    "SubmitTime=2026-12-02T05:48:30 StartTime=2026-12-02T05:48:31 "
	    "EndTime=Unknown Reason=Resources_a_b\n", -1, &l));
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].submit_time, 1796190510);
	ck_assert_int_eq(l.v[0].start_time, 1796190511);
	ck_assert_int_eq(l.v[0].end_time, 0);
	ck_str(l.v[0].reason, "Resources a b");
	job_list_release(&l);
}
END_TEST

START_TEST(test_sacct_job)
{
	struct job_list			 l;
	const struct job_status		*s;

	/* A name with sacct's default delimiter in it. */
	sacct("22.05/sacct-failed.txt", &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_assert_int_eq(s->job_id, 2);
	ck_str(s->name, "fail|pipe name");
	ck_str(s->state, "FAILED");
	ck_assert(s->exit_known);
	ck_assert_int_eq(s->exit_code, 3);
	ck_assert_int_eq(s->exit_signal, 0);
	ck_assert_int_eq(s->source, JOB_SOURCE_DBD);
	ck_assert_int_eq(s->submit_time, 1796190510);
	ck_assert_int_eq(s->end_time, 1796190510);
	ck_assert_int_eq(s->nodes, 1);
	ck_str(s->node_list, "mbsnode0");
	ck_str(s->partition, "local");
	ck_str(s->user, "root");
	ck_str(s->reason, "None");
	ck_str(s->work_dir, "/tmp/sbatchh/w");
	ck_assert_ptr_null(s->std_out);		/* 22.05: no such field */
	ck_assert(s->restart_unknown);		/* nor Restarts */
	ck_assert_int_eq(s->array_job_id, 0);
	ck_assert_int_eq(s->array_task_id, -1);
	ck_assert_ptr_null(s->dependency);
	job_list_release(&l);

	sacct("25.11/sacct-failed.txt", &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_str(s->name, "fail|pipe name");
	ck_assert_int_eq(s->exit_code, 3);
	ck_str(s->std_out, "/tmp/sbatchh/w25/f-%j.out");	/* pattern */
	ck_assert(!s->std_expanded);
	ck_assert_ptr_null(s->std_err);
	ck_assert_int_eq(s->restart_cnt, 0);
	ck_assert(!s->restart_unknown);
	job_list_release(&l);

	sacct("22.05/sacct-cancelled.txt", &l);
	ck_assert_uint_eq(l.n, 1);
	ck_str(l.v[0].state, "CANCELLED");		/* "CANCELLED by 0" */
	ck_str(l.v[0].name, "spaced name x");
	job_list_release(&l);
	sacct("25.11/sacct-cancelled.txt", &l);
	ck_str(l.v[0].state, "CANCELLED");
	ck_str(l.v[0].std_out, "slurm-%j.out");
	job_list_release(&l);

	sacct("25.11/sacct-held.txt", &l);
	ck_assert_uint_eq(l.n, 1);
	s = &l.v[0];
	ck_str(s->state, "PENDING");
	ck_assert_ptr_null(s->node_list);		/* "None assigned" */
	ck_assert_int_eq(s->start_time, 0);
	ck_assert_int_eq(s->end_time, 0);
	job_list_release(&l);
}
END_TEST

START_TEST(test_sacct_array)
{
	struct job_list			 l;
	const struct job_status		*s;
	size_t				 i;

	/* Ended: every task, the last on the array's own id. */
	sacct("22.05/sacct-array-ended.txt", &l);
	ck_assert_uint_eq(l.n, 10);
	for (i = 0; i < l.n; i++) {
		ck_assert_int_eq(l.v[i].array_job_id, 1);
		ck_assert_int_eq(l.v[i].array_task_id, (int64_t)i);
		ck_assert_ptr_null(l.v[i].array_tasks);
		ck_str(l.v[i].state, "COMPLETED");
	}
	ck_assert_int_eq(l.v[0].job_id, 4);
	ck_assert_int_eq(l.v[9].job_id, 1);
	job_list_release(&l);
	sacct("25.11/sacct-array-ended.txt", &l);
	ck_assert_uint_eq(l.n, 10);
	ck_assert_int_eq(find(&l, 1)->array_task_id, 9);
	ck_str(find(&l, 1)->std_out, "/tmp/sbatchh/w25/a-%A_%a.out");
	job_list_release(&l);

	/* Running: two tasks, and one line for those not started. */
	sacct("25.11/sacct-array-running.txt", &l);
	ck_assert_uint_eq(l.n, 3);
	s = find(&l, 1);
	ck_assert_int_eq(s->array_job_id, 1);
	ck_assert_int_eq(s->array_task_id, -1);
	ck_str(s->array_tasks, "2-9%2");
	ck_str(s->state, "PENDING");
	ck_str(s->reason, "JobArrayTaskLimit");
	ck_assert_ptr_null(s->node_list);
	s = find(&l, 6);
	ck_assert_int_eq(s->array_task_id, 1);
	ck_str(s->state, "RUNNING");
	job_list_release(&l);

	/* The last task waiting: 22.05 "16_2", 25.11 "16_[2%2]". */
	sacct("22.05/sacct-array-last.txt", &l);
	ck_assert_uint_eq(l.n, 3);
	ck_str(find(&l, 16)->array_tasks, "2");
	ck_assert_int_eq(find(&l, 16)->array_task_id, -1);
	ck_assert_int_eq(find(&l, 18)->array_task_id, 1);
	job_list_release(&l);
	sacct("25.11/sacct-array-last.txt", &l);
	ck_str(find(&l, 16)->array_tasks, "2%2");
	job_list_release(&l);

	/* A task by its own id. */
	sacct("22.05/sacct-task.txt", &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].job_id, 5);
	ck_assert_int_eq(l.v[0].array_job_id, 1);
	ck_assert_int_eq(l.v[0].array_task_id, 1);
	job_list_release(&l);
}
END_TEST

START_TEST(test_sacct_odd)
{
	struct job_list	 l = { NULL, 0 };
	struct error	*err;
	char		*text;

	/* No such job: the header alone. */
	sacct("22.05/sacct-none.txt", &l);
	ck_assert_uint_eq(l.n, 0);
	sacct("25.11/sacct-none.txt", &l);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_ptr_null(jobtext_sacct("", &l));
	ck_assert_uint_eq(l.n, 0);

	/* Synthetic: a name holding the delimiter cannot be read aright:
	 * an error, and the records before it dropped. */
	text = load("22.05/sacct-array-ended.txt");
	text = realloc(text, strlen(text) + 200);
	strcat(text, "3\x1f" "3\x1f" "COMPLETED\x1f" "0:0\x1f" "1\x1f" "2\x1f"
	    "3\x1f" "1\x1f" "n\x1f" "p\x1f" "u\x1f" "None\x1f" "/w\x1f"
	    "a\x1f" "b\n");
	err = jobtext_sacct(text, &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->msg, "line 12: 15 fields"));
	ck_assert_uint_eq(l.n, 0);
	error_free(err);
	free(text);

	/* Synthetic: a header without the job's id. */
	err = jobtext_sacct("JobID\x1fState\n1\x1f" "COMPLETED\n", &l);
	ck_assert_ptr_nonnull(err);
	ck_assert_uint_eq(l.n, 0);
	error_free(err);

	/* Synthetic: fields in another order, the header says which. */
	ck_assert_ptr_null(jobtext_sacct("State\x1fJobIDRaw\x1fJobID\n"
	    "TIMEOUT\x1f" "42\x1f" "42\n", &l));
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0].job_id, 42);
	ck_str(l.v[0].state, "TIMEOUT");
	ck_assert(!l.v[0].exit_known);
	job_list_release(&l);
}
END_TEST

START_TEST(test_sacct_fields)
{
	ck_assert_ptr_null(strstr(jobtext_sacct_fields(2205), "StdOut"));
	ck_assert_ptr_null(strstr(jobtext_sacct_fields(0), "StdOut"));
	ck_assert_ptr_nonnull(strstr(jobtext_sacct_fields(2405), "StdOut"));
	ck_assert_ptr_null(strstr(jobtext_sacct_fields(2405), "Restarts"));
	ck_assert_ptr_nonnull(strstr(jobtext_sacct_fields(2511),
	    ",StdOut,StdErr,Restarts"));
	/* What the recordings were made with. */
	ck_assert_str_eq(jobtext_sacct_fields(2205), "JobID,JobIDRaw,State,"
	    "ExitCode,Submit,Start,End,NNodes,NodeList,Partition,User,Reason,"
	    "WorkDir,JobName");
}
END_TEST

static Suite *
jobtext_suite(void)
{
	Suite	*s = suite_create("jobtext");
	TCase	*tc = tcase_create("scontrol");

	tcase_add_test(tc, test_scontrol_array);
	tcase_add_test(tc, test_scontrol_last);
	tcase_add_test(tc, test_scontrol_dep);
	tcase_add_test(tc, test_scontrol_all);
	tcase_add_test(tc, test_scontrol_odd);
	suite_add_tcase(s, tc);
	tc = tcase_create("sacct");
	tcase_add_test(tc, test_sacct_job);
	tcase_add_test(tc, test_sacct_array);
	tcase_add_test(tc, test_sacct_odd);
	tcase_add_test(tc, test_sacct_fields);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(jobtext_suite());
}
