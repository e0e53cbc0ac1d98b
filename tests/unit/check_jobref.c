/*
 * check_jobref.c: job references and array task lists (src/slurm/jobref.c)
 * as Slurm writes them: array_task_str of slurmctld (bit_fmt ranges,
 * ":STEP", "%THROTTLE"), "ID_TASK" as squeue and sacct print a task.
 */
#include <check.h>
#include <stdlib.h>

#include "jobref.h"
#include "run.h"

START_TEST(test_ref)
{
	struct job_ref	 r;

	ck_assert_ptr_null(job_ref_parse("123", &r));
	ck_assert_int_eq(r.id, 123);
	ck_assert_int_eq(r.task, -1);
	ck_assert_ptr_null(job_ref_parse("123_4", &r));
	ck_assert_int_eq(r.id, 123);
	ck_assert_int_eq(r.task, 4);
	ck_assert_ptr_null(job_ref_parse("7_0", &r));
	ck_assert_int_eq(r.task, 0);
	ck_assert_ptr_null(job_ref_parse("4294967294", &r));
	ck_assert_ptr_nonnull(job_ref_parse("4294967295", &r));
	ck_assert_ptr_nonnull(job_ref_parse("0", &r));
	ck_assert_ptr_nonnull(job_ref_parse("_4", &r));
	ck_assert_ptr_nonnull(job_ref_parse("12_", &r));
	ck_assert_ptr_nonnull(job_ref_parse("12_-1", &r));
	ck_assert_ptr_nonnull(job_ref_parse("12_4_5", &r));
	ck_assert_ptr_nonnull(job_ref_parse("12_4000001", &r));
	ck_assert_ptr_nonnull(job_ref_parse("12x", &r));
	ck_assert_ptr_nonnull(job_ref_parse("", &r));
	ck_assert_ptr_nonnull(job_ref_parse("123456789012345678901234_1", &r));
}
END_TEST

START_TEST(test_tasks)
{
	ck_assert_int_eq(array_tasks_count("0-9"), 10);
	ck_assert_int_eq(array_tasks_count("3"), 1);
	ck_assert_int_eq(array_tasks_count("1,3,5-9"), 7);
	ck_assert_int_eq(array_tasks_count("0-9:3"), 4);	/* 0 3 6 9 */
	ck_assert_int_eq(array_tasks_count("1-10:3%2"), 4);	/* 1 4 7 10 */
	ck_assert_int_eq(array_tasks_count("5-9%2"), 5);
	ck_assert_int_eq(array_tasks_count("0x3FF"), -1);
	ck_assert_int_eq(array_tasks_count(""), -1);
	ck_assert_int_eq(array_tasks_count(NULL), -1);
	ck_assert_int_eq(array_tasks_count("9-5"), -1);
	ck_assert_int_eq(array_tasks_count("1,"), -1);
	ck_assert_int_eq(array_tasks_count("1-4:0"), -1);
	ck_assert(array_tasks_has("5-9", 5));
	ck_assert(array_tasks_has("5-9", 9));
	ck_assert(!array_tasks_has("5-9", 4));
	ck_assert(!array_tasks_has("5-9", 10));
	ck_assert(array_tasks_has("1,3,5-9%2", 3));
	ck_assert(!array_tasks_has("1,3,5-9%2", 2));
	ck_assert(array_tasks_has("0-9:3", 6));
	ck_assert(!array_tasks_has("0-9:3", 7));
	ck_assert(!array_tasks_has("0x3FF", 1));
}
END_TEST

/* Accounting's masks, as sacct turns them into lists. */
START_TEST(test_mask)
{
	char	*s;

	s = array_tasks_from_mask("0x3F0", 2);
	ck_assert_str_eq(s, "4-9%2");
	free(s);
	s = array_tasks_from_mask("0x3C000001A", 0);	/* 1,3,4,30-33 */
	ck_assert_str_eq(s, "1,3-4,30-33");
	free(s);
	s = array_tasks_from_mask("0x1", 0);
	ck_assert_str_eq(s, "0");
	free(s);
	s = array_tasks_from_mask("0X80", 0);
	ck_assert_str_eq(s, "7");
	free(s);
	ck_assert_ptr_null(array_tasks_from_mask("0x0", 0));
	ck_assert_ptr_null(array_tasks_from_mask("0x", 0));
	ck_assert_ptr_null(array_tasks_from_mask("0xZZ", 0));
	ck_assert_ptr_null(array_tasks_from_mask("4-9", 0));
	ck_assert_ptr_null(array_tasks_from_mask(NULL, 0));
}
END_TEST

static Suite *
jobref_suite(void)
{
	Suite	*s = suite_create("jobref");
	TCase	*tc = tcase_create("parse");

	tcase_add_test(tc, test_ref);
	tcase_add_test(tc, test_tasks);
	tcase_add_test(tc, test_mask);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(jobref_suite());
}
