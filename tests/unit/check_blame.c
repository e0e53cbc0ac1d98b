/*
 * check_blame.c: which recipe values a finding names (src/job/
 * job-blame.c): the recipe's own values its rule reads, as the sizing
 * used them, and no other.
 */
#include <check.h>
#include <string.h>

#include "job.h"
#include "run.h"

static struct job	 job;
static struct sizing	 s;

/* A job of the 70B recipe with TP 8 and PP 4 given and the recipe's
 * CP 2 and VPP 5, and one finding CODE saying "x". */
static void
setup(const char *code)
{
	memset(&job, 0, sizeof job);
	settings_init(&job.set);
	job.recipe = bridge_recipe_find(bridge_target_find("0.6.0"),
	    "llama3_70b_pretrain_config");
	job.set.v[SET_TP] = (struct setting_value){ .origin = ORIGIN_CLI,
	    .i = 8 };
	job.set.v[SET_PP] = (struct setting_value){ .origin = ORIGIN_CLI,
	    .i = 4 };
	job.set.v[SET_CP] = (struct setting_value){ .origin = ORIGIN_RECIPE,
	    .i = 2 };
	job.set.v[SET_EP] = (struct setting_value){ .origin = ORIGIN_RECIPE,
	    .i = 1 };
	job.set.v[SET_VPP] = (struct setting_value){ .origin = ORIGIN_RECIPE,
	    .i = 5 };
	job.set.v[SET_MICRO_BATCH_SIZE] = (struct setting_value){
	    .origin = ORIGIN_RECIPE, .i = 1 };
	job.set.v[SET_ACCOUNT_EMBEDDING] = (struct setting_value){
	    .origin = ORIGIN_RECIPE, .b = false };
	job.in.layout = (struct layout){ .tp = 8, .pp = 4, .cp = 2, .ep = 1,
	    .etp = 1, .vpp = 5, .sp = true };
	job.in.micro_batch = 1;
	memset(&s, 0, sizeof s);
	s.nfindings = 1;
	s.findings[0].code = code;
	s.findings[0].severity = SEVERITY_ERROR;
	strcpy(s.findings[0].message, "x");
}

START_TEST(test_world)
{
	setup("world-divisibility");
	job_blame_recipe(&job, &s);
	/* TP and PP are the user's; EP 1 cannot cause it. */
	ck_assert_str_eq(s.findings[0].message,
	    "x (CP 2 is the recipe's: --cp 1 to change)");
}
END_TEST

START_TEST(test_several)
{
	setup("layers-divisibility");
	job.set.v[SET_PP].origin = ORIGIN_RECIPE;
	job_blame_recipe(&job, &s);
	/* The accounting off is not named: it cannot cause the finding. */
	ck_assert_str_eq(s.findings[0].message, "x (PP 4 is the recipe's: "
	    "--pp N to change; VPP 5 is the recipe's: --vpp 1 to change)");
}
END_TEST

/* What recommend put in the job's input is not the recipe's. */
START_TEST(test_not_used)
{
	setup("world-divisibility");
	job.in.layout.cp = 4;
	job_blame_recipe(&job, &s);
	ck_assert_str_eq(s.findings[0].message, "x");
}
END_TEST

START_TEST(test_unrelated)
{
	setup("heads-divisibility");	/* TP alone, the user's */
	job_blame_recipe(&job, &s);
	ck_assert_str_eq(s.findings[0].message, "x");
	setup("memory-oom");		/* a micro batch of 1 */
	job.set.v[SET_CP].origin = ORIGIN_CLI;
	job_blame_recipe(&job, &s);
	ck_assert_str_eq(s.findings[0].message, "x");
	setup("world-divisibility");	/* no recipe: nothing */
	job.recipe = NULL;
	job_blame_recipe(&job, &s);
	ck_assert_str_eq(s.findings[0].message, "x");
}
END_TEST

/* A message with no room left is kept whole, not cut. */
START_TEST(test_full)
{
	setup("world-divisibility");
	memset(s.findings[0].message, 'a', SIZING_MESSAGE_MAX - 10);
	s.findings[0].message[SIZING_MESSAGE_MAX - 10] = '\0';
	job_blame_recipe(&job, &s);
	ck_assert_uint_eq(strlen(s.findings[0].message),
	    SIZING_MESSAGE_MAX - 10);
}
END_TEST

static Suite *
blame_suite(void)
{
	Suite	*su = suite_create("blame");
	TCase	*tc = tcase_create("blame");

	tcase_add_test(tc, test_world);
	tcase_add_test(tc, test_several);
	tcase_add_test(tc, test_not_used);
	tcase_add_test(tc, test_unrelated);
	tcase_add_test(tc, test_full);
	suite_add_tcase(su, tc);
	return su;
}

int
main(void)
{
	return run_suite(blame_suite());
}
