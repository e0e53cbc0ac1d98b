/*
 * check_bad.c: the bad-input corpus of slurmrestd answers
 * (tests/data/bad/rest/): each parser given a broken, cut, foreign or
 * hostile answer must return an error with the exact message of the
 * manifest (rest/cases), never crash, never read past the body (the body
 * is copied to a buffer of its exact length, without a NUL: ASan sees any
 * overrun).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "rest.h"
#include "run.h"

#ifndef TEST_DATA
#error "TEST_DATA must name tests/data"
#endif

#define MAX_CASES	128

struct bad_case {
	char	 kind[16], version[16], name[64], msg[512];
};

static struct bad_case	 cases[MAX_CASES];
static int		 ncases;

static void
load_cases(void)
{
	char	 path[1024], line[1024];
	FILE	*f;

	snprintf(path, sizeof path, "%s/bad/rest/cases", TEST_DATA);
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL && ncases < MAX_CASES) {
		struct bad_case	*c = &cases[ncases];

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (sscanf(line, "%15[^\t]\t%15[^\t]\t%63[^\t]\t%511[^\n]",
		    c->kind, c->version, c->name, c->msg) == 4)
			ncases++;
	}
	fclose(f);
}

/* The body, exactly LEN bytes in a buffer of its own: no NUL after it. */
static char *
load_body(const char *name, size_t *len, long *status)
{
	char	 path[1024], st[32];
	FILE	*f;
	char	*s;
	long	 n;

	snprintf(path, sizeof path, "%s/bad/rest/%s.status", TEST_DATA, name);
	ck_assert_msg((f = fopen(path, "r")) != NULL, "%s: missing", path);
	ck_assert(fgets(st, sizeof st, f) != NULL);
	fclose(f);
	*status = strtol(st, NULL, 10);
	snprintf(path, sizeof path, "%s/bad/rest/%s.body", TEST_DATA, name);
	ck_assert_msg((f = fopen(path, "rb")) != NULL, "%s: missing", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc(n > 0 ? (size_t)n : 1);
	ck_assert_ptr_nonnull(s);
	ck_assert(fread(s, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return s;
}

START_TEST(test_bad_answer)
{
	const struct bad_case		*c = &cases[_i];
	struct rest_submit_result	 sr;
	struct rest_job_status		 js;
	struct error			*err = NULL;
	enum rest_version		 v, picked;
	size_t				 len;
	long				 status;
	int64_t				 id;
	char				*body;

	ck_assert_msg(rest_version_parse(c->version, &v) == 0, "%s: version "
	    "'%s'", c->name, c->version);
	body = load_body(c->name, &len, &status);
	if (strcmp(c->kind, "submit") == 0) {
		memset(&sr, 0, sizeof sr);
		err = rest_parse_submit(v, status, body, len, &sr);
		rest_submit_result_release(&sr);
	} else if (strcmp(c->kind, "job") == 0) {
		err = rest_parse_job(v, 7, status, body, len, &js);
		if (err == NULL)
			rest_job_status_release(&js);
	} else if (strcmp(c->kind, "cancel") == 0)
		err = rest_parse_cancel(v, 7, status, body, len);
	else if (strcmp(c->kind, "ping") == 0)
		err = rest_parse_ping(v, status, body, len);
	else if (strcmp(c->kind, "find") == 0)
		err = rest_parse_find(v, status, body, len, "x", "root", &id);
	else if (strcmp(c->kind, "openapi") == 0)
		err = rest_pick_version(status, body, len, &picked);
	else
		ck_abort_msg("%s: kind '%s'", c->name, c->kind);
	free(body);
	ck_assert_msg(err != NULL, "%s: accepted", c->name);
	ck_assert_msg(strcmp(err->msg, c->msg) == 0, "%s: '%s', want '%s'",
	    c->name, err->msg, c->msg);
	error_free(err);
}
END_TEST

START_TEST(test_enough)
{
	ck_assert_int_ge(ncases, 25);
}
END_TEST

static Suite *
bad_suite(void)
{
	Suite	*s = suite_create("bad");
	TCase	*tc = tcase_create("rest");

	load_cases();
	tcase_add_test(tc, test_enough);
	tcase_add_loop_test(tc, test_bad_answer, 0, ncases);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(bad_suite());
}
