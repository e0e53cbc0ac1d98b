/*
 * check_willrun.c: what submit --test-only shows of Slurm's will-run
 * answer (src/follow/willrun.c): the line, how long until the start in
 * words, the JSON keys, escaped text from Slurm.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "backend.h"
#include "willrun.h"
#include "xmalloc.h"
#include "run.h"

/* 2026-12-07T11:43:40 UTC */
#define START	INT64_C(1796643820)

static void
answer(struct will_run *w)
{
	memset(w, 0, sizeof *w);
	w->start_time = START;
	w->nodes = xstrdup("mbsnode[0-1]");
	w->partition = xstrdup("local");
	w->processors = 16;
}

/* What will_run_print() writes of W at NOW. */
static char *
printed(const struct will_run *w, int64_t now)
{
	char	*s = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&s, &len);

	ck_assert_ptr_nonnull(f);
	will_run_print(f, w, now);
	fclose(f);
	return s;
}

static const struct {
	int64_t		 before;	/* NOW, seconds before the start */
	const char	*when;
} whens[] = {
	{ 0, "now" }, { -30, "now" }, { 45, "in 45 s" }, { 60, "in 1 min" },
	{ 3599, "in 59 min" }, { 3600 + 300, "in 1 h 5 min" },
	{ 86400 * 3 + 3600 * 4 + 59, "in 3 d 4 h" },
};

START_TEST(test_print)
{
	struct will_run	 w;
	char		*s, want[256];

	answer(&w);
	s = printed(&w, START - whens[_i].before);
	snprintf(want, sizeof want, "Job would start at 2026-12-07T11:43:40 "
	    "(%s) using 16 processors on nodes mbsnode[0-1] in partition "
	    "local; nothing was queued\n", whens[_i].when);
	ck_assert_str_eq(s, want);
	free(s);
	will_run_release(&w);
}
END_TEST

/* Preemptions on a line of their own; Slurm's text escaped; what
 * Slurm did not say, said so. */
START_TEST(test_print_more)
{
	struct will_run	 w;
	char		*s;

	answer(&w);
	w.preempts = xstrdup("12,13");
	free(w.partition);
	w.partition = xstrdup("a\033[2Jb");
	free(w.nodes);
	w.nodes = NULL;
	s = printed(&w, START);
	ck_assert_str_eq(s, "Job would start at 2026-12-07T11:43:40 (now) "
	    "using 16 processors on nodes (not said) in partition a\\x1b[2Jb; "
	    "nothing was queued\n  would preempt: 12,13\n");
	free(s);
	will_run_release(&w);
}
END_TEST

START_TEST(test_json)
{
	struct will_run	 w;
	json_t		*o;
	char		*s;

	answer(&w);
	w.preempts = xstrdup("12,13");
	w.messages = xcalloc(1, sizeof *w.messages);
	w.messages[0] = xstrdup("site: use --qos=big");
	w.nmessages = 1;
	o = will_run_json(&w, "native", START - 90);
	s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_str_eq(s, "{\"backend\":\"native\",\"nodes\":"
	    "\"mbsnode[0-1]\",\"partition\":\"local\",\"preempts\":[12,13],"
	    "\"processors\":16,\"start_time\":\"2026-12-07T11:43:40+0000\","
	    "\"starts_in\":90,\"test_only\":true,\"warnings\":"
	    "[\"site: use --qos=big\"]}");
	free(s);
	json_decref(o);
	/* Started already by NOW: 0, never negative. */
	o = will_run_json(&w, "sbatch", START + 5);
	ck_assert_int_eq(json_integer_value(json_object_get(o, "starts_in")),
	    0);
	json_decref(o);
	will_run_release(&w);
	ck_assert_ptr_null(w.preempts);
}
END_TEST

static Suite *
willrun_suite(void)
{
	Suite	*s = suite_create("willrun");
	TCase	*tc = tcase_create("view");

	tcase_add_loop_test(tc, test_print, 0, sizeof whens / sizeof whens[0]);
	tcase_add_test(tc, test_print_more);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	setenv("TZ", "UTC", 1);
	tzset();
	return run_suite(willrun_suite());
}
