/*
 * check_jobview.c: how a job's records read (src/follow/jobview.c): an array's
 * counts and its one-word state from the records slurmctld gives (tasks
 * started, groups not yet started), names as squeue writes them.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "jobview.h"
#include "xmalloc.h"
#include "run.h"

/* Task TASK of array 10 (its own id 10 + TASK) in STATE, exit EXIT. */
static void
task(struct job_list *l, int64_t t, const char *state, int exit)
{
	struct job_status	*s = job_list_add(l);

	s->job_id = 10 + t;
	s->array_job_id = 10;
	s->array_task_id = t;
	snprintf(s->state, sizeof s->state, "%s", state);
	s->exit_known = job_state_ended(state);
	s->exit_code = exit;
}

static void
group(struct job_list *l, const char *tasks)
{
	struct job_status	*s = job_list_add(l);

	s->job_id = 10;
	s->array_job_id = 10;
	s->array_tasks = xstrdup(tasks);
	snprintf(s->state, sizeof s->state, "PENDING");
}

START_TEST(test_array_running)
{
	struct job_list		 l = { NULL, 0 };
	struct array_view	 v;
	char			 name[64];

	task(&l, 0, "COMPLETED", 0);
	task(&l, 1, "FAILED", 2);
	task(&l, 2, "RUNNING", 0);
	group(&l, "3-9");
	ck_assert(job_list_is_array(&l, 10));
	array_view_make(&l, &v);
	ck_assert_int_eq(v.tasks, 10);
	ck_assert_uint_eq(v.nstates, 4);
	ck_assert_str_eq(v.states[3], "PENDING");
	ck_assert_int_eq(v.count[3], 7);
	ck_assert_int_eq(v.not_ok, 1);
	ck_assert(!v.ended);
	ck_assert_str_eq(v.state, "RUNNING");
	job_status_name(&l.v[3], name, sizeof name);
	ck_assert_str_eq(name, "10_[3-9]");
	job_status_name(&l.v[1], name, sizeof name);
	ck_assert_str_eq(name, "10_1");
	job_list_release(&l);
}
END_TEST

START_TEST(test_array_states)
{
	struct job_list		 l = { NULL, 0 };
	struct array_view	 v;

	task(&l, 0, "COMPLETED", 0);
	group(&l, "1-4");
	array_view_make(&l, &v);
	ck_assert_str_eq(v.state, "PENDING");
	job_list_release(&l);

	task(&l, 0, "COMPLETED", 0);
	task(&l, 1, "TIMEOUT", 0);
	task(&l, 2, "FAILED", 3);
	array_view_make(&l, &v);
	ck_assert(v.ended);
	ck_assert_str_eq(v.state, "TIMEOUT");
	ck_assert_int_eq(v.max_exit, 3);
	ck_assert_int_eq(v.not_ok, 2);
	job_list_release(&l);

	task(&l, 0, "COMPLETED", 0);
	task(&l, 1, "COMPLETED", 0);
	array_view_make(&l, &v);
	ck_assert_str_eq(v.state, "COMPLETED");
	ck_assert_int_eq(v.not_ok, 0);
	/* A plain job is not an array. */
	ck_assert(!job_list_is_array(&l, 99));
	job_list_release(&l);

	/* 22.05's REST accounting: a failed task's exit code unknown. */
	task(&l, 0, "COMPLETED", 0);
	task(&l, 1, "FAILED", 0);
	l.v[1].exit_known = false;
	array_view_make(&l, &v);
	ck_assert(v.ended);
	ck_assert(v.exit_unknown);
	{
		/* Then the array's exit code is not known either: null,
		 * not the largest of the known (0). */
		json_t	*o = array_json(10, &l, "rest");

		ck_assert(json_is_null(json_object_get(o, "exit_code")));
		json_decref(o);
	}
	job_list_release(&l);

	group(&l, "0x3F");		/* a mask we do not read */
	array_view_make(&l, &v);
	ck_assert_int_eq(v.tasks, -1);
	job_list_release(&l);
}
END_TEST

START_TEST(test_ended)
{
	ck_assert(job_state_ended("COMPLETED"));
	ck_assert(job_state_ended("OUT_OF_MEMORY"));
	ck_assert(!job_state_ended("PENDING"));
	ck_assert(!job_state_ended("RUNNING"));
	ck_assert(!job_state_ended("SUSPENDED"));
	ck_assert(!job_state_ended("REQUEUED"));
	/* Flags over a base that has not ended (squeue lists them). */
	ck_assert(!job_state_ended("COMPLETING"));
	ck_assert(!job_state_ended("EXPEDITING"));
	ck_assert(job_state_known("expediting", 10));
}
END_TEST

/* Times as Slurm keeps them: 0, NO_VAL and INFINITE are none. */
START_TEST(test_times)
{
	ck_assert_int_eq(job_time(0), 0);
	ck_assert_int_eq(job_time(4294967294LL), 0);	/* NO_VAL */
	ck_assert_int_eq(job_time(4294967295LL), 0);	/* INFINITE */
	ck_assert_int_eq(job_time(1796587521), 1796587521);
	/* No limit: no end until it has ended (scontrol: Unknown). */
	ck_assert_int_eq(job_end_time(1828123521, true, false), 0);
	ck_assert_int_eq(job_end_time(1796587525, true, true), 1796587525);
	ck_assert_int_eq(job_end_time(1796587525, false, false), 1796587525);
}
END_TEST

/* A restart count accounting did not keep is null, not 0. */
START_TEST(test_json_restarts)
{
	struct job_status	 s;
	json_t			*o;

	memset(&s, 0, sizeof s);
	s.job_id = 7;
	s.array_task_id = -1;
	snprintf(s.state, sizeof s.state, "COMPLETED");
	s.restart_cnt = 2;
	o = job_status_json(&s, "rest");
	ck_assert_int_eq(json_integer_value(json_object_get(o,
	    "restart_count")), 2);
	json_decref(o);
	s.restart_cnt = 0;
	s.restart_unknown = true;
	o = job_status_json(&s, "sbatch");
	ck_assert(json_is_null(json_object_get(o, "restart_count")));
	json_decref(o);
}
END_TEST

static Suite *
jobview_suite(void)
{
	Suite	*s = suite_create("jobview");
	TCase	*tc = tcase_create("array");

	tcase_add_test(tc, test_array_running);
	tcase_add_test(tc, test_array_states);
	tcase_add_test(tc, test_ended);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_json_restarts);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(jobview_suite());
}
