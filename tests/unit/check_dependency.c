/*
 * check_dependency.c: which jobs wait for which (src/slurm/dependency.c),
 * from dependency lists as slurmctld writes them (job_scheduler.c
 * _depend_list2str: "TYPE:ID[_TASK|_*][+MINUTES](STATE)", joined by ','
 * or, for "any of", '?'; "singleton(STATE)"; fulfilled ones left out).
 */
#include <check.h>
#include <stdlib.h>

#include "backend.h"
#include "dependency.h"
#include "run.h"

START_TEST(test_names)
{
	ck_assert(dependency_names("afterany:123(unfulfilled)", 123));
	ck_assert(!dependency_names("afterany:123(unfulfilled)", 12));
	ck_assert(!dependency_names("afterany:123(unfulfilled)", 1234));
	ck_assert(dependency_names("afterok:7_*(unfulfilled)", 7));
	ck_assert(dependency_names("afternotok:7_3(failed)", 7));
	ck_assert(!dependency_names("afternotok:7_3(failed)", 3));
	ck_assert(dependency_names("after:40+5(unfulfilled)", 40));
	ck_assert(!dependency_names("after:40+5(unfulfilled)", 5));
	ck_assert(dependency_names("afterany:1(unfulfilled),afterok:2(unfulfilled)", 2));
	ck_assert(dependency_names("afterany:1(unfulfilled)?afterok:2(unfulfilled)", 1));
	ck_assert(dependency_names("singleton(unfulfilled),aftercorr:9_*(unfulfilled)", 9));
	ck_assert(!dependency_names("singleton(unfulfilled)", 0));
	/* As a user writes it: several ids after one type. */
	ck_assert(dependency_names("afterany:10:11:12", 11));
	ck_assert(dependency_names("afterok:10,afterany:12", 12));
	ck_assert(!dependency_names("afterok:10,afterany:12", 1));
	ck_assert(!dependency_names("", 1));
	ck_assert(!dependency_names(NULL, 1));
	ck_assert(!dependency_names("(null)", 1));
	ck_assert(!dependency_names(":::", 0));
	ck_assert(!dependency_names("afterany:99999999999999999999999", 1));
}
END_TEST

static struct job_status *
add(struct job_list *l, int64_t id, const char *dep)
{
	struct job_status	*s = job_list_add(l);

	s->job_id = id;
	s->dependency = dep != NULL ? strdup(dep) : NULL;
	return s;
}

START_TEST(test_closure)
{
	struct job_list		 l = { NULL, 0 };
	struct job_status	*s;
	int64_t			*ids, *after;
	size_t			 n;

	/* A chain 100 <- 101 <- 102, listed out of order, and others. */
	add(&l, 102, "afterany:101(unfulfilled)");
	add(&l, 100, NULL);
	add(&l, 101, "afterany:100(unfulfilled)");
	add(&l, 200, "afterany:1000(unfulfilled)");
	add(&l, 300, "singleton(unfulfilled)");
	/* 103 waits for 101 or 200; 104 for an array 400's tasks, which
	 * itself waits for 102. */
	add(&l, 103, "afterok:200(unfulfilled)?afternotok:101(unfulfilled)");
	s = add(&l, 401, "afterany:102(unfulfilled)");
	s->array_job_id = 400;
	s->array_task_id = 1;
	s = add(&l, 400, "afterany:102(unfulfilled)");
	s->array_job_id = 400;
	s->array_tasks = strdup("2-9");
	add(&l, 104, "afterok:400_*(unfulfilled)");
	/* 105 names task 401 by its own id. */
	add(&l, 105, "afterok:401(unfulfilled)");

	dependency_closure(&l, 100, &ids, &after, &n);
	ck_assert_int_eq(n, 6);
	ck_assert_int_eq(ids[0], 101);
	ck_assert_int_eq(after[0], 100);
	ck_assert_int_eq(ids[1], 102);
	ck_assert_int_eq(after[1], 101);
	ck_assert_int_eq(ids[2], 103);
	ck_assert_int_eq(after[2], 101);
	ck_assert_int_eq(ids[3], 400);	/* the array once */
	ck_assert_int_eq(after[3], 102);
	ck_assert_int_eq(ids[4], 104);
	ck_assert_int_eq(after[4], 400);
	ck_assert_int_eq(ids[5], 105);
	ck_assert_int_eq(after[5], 400);
	free(ids);
	free(after);

	/* From the middle: what comes after it only. */
	dependency_closure(&l, 102, &ids, &after, &n);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(ids[0], 400);
	free(ids);
	free(after);

	/* Nothing waits for the last, or for a job not listed. */
	dependency_closure(&l, 105, &ids, &after, &n);
	ck_assert_int_eq(n, 0);
	free(ids);
	free(after);
	dependency_closure(&l, 999, &ids, &after, &n);
	ck_assert_int_eq(n, 0);
	free(ids);
	free(after);
	job_list_release(&l);
}
END_TEST

START_TEST(test_cycle)
{
	struct job_list		 l = { NULL, 0 };
	int64_t			*ids, *after;
	size_t			 n;

	/* Slurm refuses circular dependencies; a list that had one anyway
	 * ends, each job once. */
	add(&l, 1, "afterany:2(unfulfilled)");
	add(&l, 2, "afterany:1(unfulfilled)");
	dependency_closure(&l, 1, &ids, &after, &n);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(ids[0], 2);
	free(ids);
	free(after);
	dependency_closure(&(struct job_list){ NULL, 0 }, 1, &ids, &after, &n);
	ck_assert_int_eq(n, 0);
	free(ids);
	free(after);
	job_list_release(&l);
}
END_TEST

static Suite *
dependency_suite(void)
{
	Suite	*s = suite_create("dependency");
	TCase	*tc = tcase_create("dependency");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_closure);
	tcase_add_test(tc, test_cycle);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(dependency_suite());
}
