/*
 * run.h: the main() of every Check program here: run the suite (forked,
 * unless CK_FORK=no), and exit 0 only when every test passed.
 */
#ifndef MBSBATCH_TESTS_RUN_H
#define MBSBATCH_TESTS_RUN_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline int
run_suite(Suite *s)
{
	SRunner	*sr = srunner_create(s);
	int	 failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* test_seed() and splitmix64(): seed.h. */
#include "seed.h"

#endif
