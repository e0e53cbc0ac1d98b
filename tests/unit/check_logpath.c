/*
 * check_logpath.c: a batch job's output path (src/slurm/logpath.c) as
 * each release's slurmstepd writes it: src/slurmd/common/fname.c of
 * 22.05 to 25.05 (_create_batch_fname(), remove_path_slashes()) and
 * expand_stdio_fields() of 25.11 (src/common/print_fields.c), read at the
 * tags slurm-22-05-8-1 to slurm-25-11-7-1.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "logpath.h"
#include "run.h"

/* Job 42 "llama" of bob, on mbsnode0, in /w, of RELEASE; not an array. */
static struct logpath_job
job(int release)
{
	struct logpath_job	 j;

	memset(&j, 0, sizeof j);
	j.release = release;
	j.job_id = 42;
	j.array_task_id = LOGPATH_NO_TASK;
	j.restart_cnt = 2;
	j.name = "llama";
	j.user = "bob";
	j.node = "mbsnode0";
	j.node_host = "vm.example.org";
	j.work_dir = "/w";
	return j;
}

/* PATTERN for J gives WANT, complete or not as COMPLETE says. */
static void
expect(const struct logpath_job *j, const char *pattern, const char *want,
    bool complete)
{
	char	*got;
	bool	 ok;

	got = logpath_expand(pattern, j, &ok);
	ck_assert_msg(strcmp(got, want) == 0, "%d '%s': '%s', not '%s'",
	    j->release, pattern != NULL ? pattern : "(default)", got, want);
	ck_assert_msg(ok == complete, "%d '%s': complete %d", j->release,
	    pattern != NULL ? pattern : "(default)", ok);
	free(got);
}

START_TEST(test_default)
{
	struct logpath_job	 j = job(2205);

	expect(&j, NULL, "/w/slurm-42.out", true);
	expect(&j, "", "/w/slurm-42.out", true);
	j.array_job_id = 40;
	j.array_task_id = 3;
	j.job_id = 43;
	expect(&j, NULL, "/w/slurm-40_3.out", true);
}
END_TEST

/* What every release writes alike. */
START_TEST(test_common)
{
	static const int	 releases[] = { 2205, 2302, 2405, 2411, 2505,
	    2511, 0 };
	struct logpath_job	 j;
	size_t			 i;

	for (i = 0; i < sizeof releases / sizeof releases[0]; i++) {
		j = job(releases[i]);
		expect(&j, "logs/%x-%j.out", "/w/logs/llama-42.out", true);
		expect(&j, "/abs/%u/%4j.%s", "/abs/bob/0042.batch", true);
		expect(&j, "%J-%A-%a.%n.%3t", "/w/42-42-4294967294.0.000",
		    true);
		expect(&j, "%%j %%%j", "/w/%j %42", true);
		expect(&j, "%12j", "/w/0000000042", true);
		expect(&j, "%5x", "/w/llama", true);
		expect(&j, "%N.out", releases[i] != 0 && releases[i] < 2511 ?
		    "/w/vm.out" : "/w/mbsnode0.out", true);
		expect(&j, "x%z", "/w/x%z", true);
		j.work_dir = "/w/";
		expect(&j, "a-%j", "/w/a-42", true);
		j.work_dir = NULL;
		expect(&j, "a-%j", "a-42", true);
		j.array_job_id = 40;
		j.array_task_id = 13;
		expect(&j, "%A_%a", "40_13", true);
	}
}
END_TEST

/* A pending job has no node yet: the path is not known. */
START_TEST(test_pending)
{
	struct logpath_job	 j = job(2511);

	j.node = NULL;
	expect(&j, "%N-%j.out", "/w/%N-42.out", false);
	expect(&j, "%3N-%j.out", "/w/%3N-42.out", false);
	expect(&j, "%j.out", "/w/42.out", true);
}
END_TEST

/* %b from 24.11, %r and %S from 25.11 (SLUIDs we are not told). */
/* Every task of an array: its task and its own job id are not known. */
START_TEST(test_any_task)
{
	struct logpath_job	 j = job(2511);

	j.array_job_id = 42;
	j.any_task = true;
	expect(&j, "%A.out", "/w/42.out", true);
	expect(&j, "%A_%a.out", "/w/42_%a.out", false);
	expect(&j, "%x-%j.out", "/w/llama-%j.out", false);
	expect(&j, "%4J-%b", "/w/%4J-%b", false);
}
END_TEST

START_TEST(test_new_letters)
{
	struct logpath_job	 j = job(2405);

	j.array_job_id = 40;
	j.array_task_id = 13;
	expect(&j, "%b", "/w/%b", true);
	j.release = 2411;
	expect(&j, "%b", "/w/3", true);
	expect(&j, "%r", "/w/%r", true);
	j.release = 2505;
	expect(&j, "%2b-%r", "/w/03-%r", true);
	j.release = 2511;
	expect(&j, "%b-%r-%3r", "/w/3-2-002", true);
	expect(&j, "%S", "/w/%S", false);
	j.release = 0;
	expect(&j, "%r", "/w/2", true);
}
END_TEST

/* Where 22.05 to 25.05 differ from 25.11. */
START_TEST(test_old_quirks)
{
	struct logpath_job	 old = job(2505), new = job(2511);

	/* An unknown letter or the end after a width. */
	expect(&old, "x%12z", "/w/x2z", true);
	expect(&new, "x%12z", "/w/x%12z", true);
	expect(&old, "x%12", "/w/x2", true);
	/* A '%' at the end: kept before 25.11, dropped by 25.11. */
	expect(&old, "x%", "/w/x%", true);
	expect(&new, "x%", "/w/x", true);
	/* A '%' after a width starts over before 25.11. */
	expect(&old, "%5%j", "/w/542", true);
	expect(&new, "%5%j", "/w/%5%j", true);
	/* A backslash: nothing expanded. */
	expect(&new, "a\\b%j", "/w/ab%j", true);
	expect(&old, "a\\b%j", "/wab%j", true);
	expect(&new, "/a\\\\b", "/ab", true);
	expect(&old, "/a\\\\b", "/a\\b", true);
}
END_TEST

/*
 * %N: 22.05 to 25.05 write slurmd's gethostname_short() (fname.c,
 * conf->hostname), 25.11 the node's name (conf->node_name).
 */
START_TEST(test_node)
{
	static const int	 old[] = { 2205, 2405, 2411, 2505 };
	struct logpath_job	 j;
	size_t			 i;

	for (i = 0; i < sizeof old / sizeof old[0]; i++) {
		j = job(old[i]);
		expect(&j, "%N-%j", "/w/vm-42", true);
		expect(&j, "%5N", "/w/vm", true);
		j.node_host = "plain";
		expect(&j, "%N", "/w/plain", true);
		/* Ran, but its host name not told: not known. */
		j.node_host = NULL;
		expect(&j, "%N-%j", "/w/%N-42", false);
	}
	j = job(2511);
	expect(&j, "%N-%j", "/w/mbsnode0-42", true);
	j.node_host = NULL;
	expect(&j, "%N", "/w/mbsnode0", true);
	j.node = NULL;
	expect(&j, "%N", "/w/%N", false);
}
END_TEST

/* 25.11's %S: the SLUID (print_fields.c, _expand_wildcard()). */
START_TEST(test_sluid)
{
	struct logpath_job	 j = job(2511);

	expect(&j, "%S.out", "/w/%S.out", false);
	expect(&j, "%x-%5S", "/w/llama-%5S", false);
	j.sluid = "s355M96FDBCR00";
	expect(&j, "%S.out", "/w/s355M96FDBCR00.out", true);
	/* A width pads numbers only. */
	expect(&j, "%x-%5S", "/w/llama-s355M96FDBCR00", true);
	j.release = 0;
	expect(&j, "%S", "/w/s355M96FDBCR00", true);
	/* Not a letter before 25.11. */
	j.release = 2505;
	expect(&j, "%S.out", "/w/%S.out", true);
	expect(&j, "%12S.out", "/w/2S.out", true);
}
END_TEST

/* The batch node of an allocation accounting gives as a list. */
START_TEST(test_first_node)
{
	static const struct {
		const char	*list, *first;
	} cases[] = {
		{ "mbsnode0", "mbsnode0" },
		{ "mbsnode[0-3]", "mbsnode0" },
		{ "mbsnode[2,0-1]", "mbsnode2" },
		{ "gpu[001-064],a7", "gpu001" },
		{ "a7,gpu[001-064]", "a7" },
		{ "n[2,5]-ib", "n2-ib" },
		{ "r[1-2]n[07-08]", "r1n07" },
		{ "", NULL },
		{ "None assigned", NULL },
		{ "n[1-2", NULL },
	};
	char	*got;
	size_t	 i;

	ck_assert_ptr_null(logpath_first_node(NULL));
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = logpath_first_node(cases[i].list);
		if (cases[i].first == NULL)
			ck_assert_msg(got == NULL, "'%s': '%s'", cases[i].list,
			    got);
		else
			ck_assert_msg(got != NULL && strcmp(got,
			    cases[i].first) == 0, "'%s': '%s'", cases[i].list,
			    got != NULL ? got : "(none)");
		free(got);
	}
}
END_TEST

/* As common/sluid.c print_sluid() writes it. */
START_TEST(test_sluid_text)
{
	char	 buf[LOGPATH_SLUID_SIZE];

	logpath_sluid(0, buf);
	ck_assert_str_eq(buf, "s0000000000000");
	logpath_sluid(33, buf);
	ck_assert_str_eq(buf, "s0000000000011");
	logpath_sluid(UINT64_MAX, buf);
	ck_assert_str_eq(buf, "sFZZZZZZZZZZZZ");
	/* One Slurm 25.11 gave (REST's step_id.sluid). */
	logpath_sluid(UINT64_C(0x32968933dab66000), buf);
	ck_assert_str_eq(buf, "s355M96FDBCR00");
}
END_TEST

/* A job not queued yet (job id 0): what its id decides is not known. */
START_TEST(test_not_queued)
{
	struct logpath_job	 j = job(2511);

	j.job_id = 0;
	j.node = NULL;
	j.node_host = NULL;
	j.sluid = "s355M96FDBCR00";
	expect(&j, "logs/%x-%u.out", "/w/logs/llama-bob.out", true);
	expect(&j, "%j", "/w/%j", false);
	expect(&j, "%J", "/w/%J", false);
	expect(&j, "%A", "/w/%A", false);
	expect(&j, "%r", "/w/%r", false);
	expect(&j, "%S", "/w/%S", false);
	expect(&j, "%a", "/w/4294967294", true);
	j.array_task_id = 1;
	j.any_task = true;
	expect(&j, "%a-%b", "/w/%a-%b", false);
}
END_TEST

/* DIR's directory, and whether it is known; WANT NULL: none. */
static void
expect_dir(const struct logpath_job *j, const char *pattern, const char *want,
    bool known)
{
	char	*got;
	bool	 ok;

	got = logpath_dir(pattern, j, &ok);
	if (want == NULL)
		ck_assert_msg(got == NULL, "'%s': '%s', not none", pattern,
		    got);
	else
		ck_assert_msg(got != NULL && strcmp(got, want) == 0,
		    "'%s': '%s', not '%s'", pattern, got != NULL ? got :
		    "(none)", want);
	ck_assert_msg(ok == known, "'%s': known %d", pattern, ok);
	free(got);
}

START_TEST(test_dir)
{
	struct logpath_job	 j = job(2511);

	j.job_id = 0;
	j.node = NULL;
	expect_dir(&j, "logs/%x-%j.out", "/w/logs", true);
	expect_dir(&j, "out", "/w", true);
	expect_dir(&j, "/out", "/", true);
	expect_dir(&j, "/a/b/%j.out", "/a/b", true);
	expect_dir(&j, "logs/%j/out", "/w/logs/%j", false);
	expect_dir(&j, "logs/%N/out", "/w/logs/%N", false);
	expect_dir(&j, "%%j/out", "/w/%j", true);
	/* A job name with a '/' under %x: directories of its own. */
	j.name = "sweep/lr-1e-4";
	expect_dir(&j, "logs/%x-%j.out", "/w/logs/sweep", true);
	expect_dir(&j, "logs/%x/%j.out", "/w/logs/sweep/lr-1e-4", true);
	/* Nothing expanded behind a backslash. */
	expect_dir(&j, "lo\\gs/%j/out", "/w/logs/%j", true);
	j.work_dir = NULL;
	expect_dir(&j, "out-%j", NULL, true);
	expect_dir(&j, "a/out-%j", "a", true);
}
END_TEST

/* slurmstepd makes a missing log directory from 23.02 on (io.c,
 * mkdirpath()); Debian's 22.05 does not; an unknown release is not
 * taken to. */
START_TEST(test_makes_dirs)
{
	ck_assert(!logpath_makes_dirs(2205));
	ck_assert(logpath_makes_dirs(2302));
	ck_assert(logpath_makes_dirs(2411));
	ck_assert(logpath_makes_dirs(2511));
	ck_assert(!logpath_makes_dirs(0));
}
END_TEST

START_TEST(test_names_job_id)
{
	static const int	 rel[] = { 0, 2205, 2411, 2511 };
	size_t			 i;

	for (i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		ck_assert(logpath_names_job_id("a-%j.out", rel[i]));
		ck_assert(logpath_names_job_id("a-%12J", rel[i]));
		ck_assert(!logpath_names_job_id("a-%A_%a.out", rel[i]));
		ck_assert(!logpath_names_job_id("a-%%j", rel[i]));
		ck_assert(logpath_names_job_id("a-%%%j", rel[i]));
		ck_assert(!logpath_names_job_id("a-%", rel[i]));
		ck_assert(!logpath_names_job_id(NULL, rel[i]));
	}
}
END_TEST

/*
 * A pattern names a letter as the release's slurmstepd reads it:
 * "%5%%S" is "%5%" then %S from 25.11 (what logpaths.sh found on 25.11,
 * seed 784377823, case c14), but "5", "%" and "S" before; "%5%j" is
 * "5" then %j before 25.11, and "%5%" then "j" from 25.11.
 */
START_TEST(test_names_by_release)
{
	ck_assert(logpath_names("e-%10J%5%%S.e", "S", 2511));
	ck_assert(logpath_names("e-%10J%5%%S.e", "S", 0));
	ck_assert(!logpath_names("e-%10J%5%%S.e", "S", 2411));
	ck_assert(logpath_names_job_id("o-%5%j", 2205));
	ck_assert(!logpath_names_job_id("o-%5%j", 2511));
	ck_assert(!logpath_names("o-%S", "S", 2411));
	ck_assert(logpath_names("o-%3S", "S", 2511));
}
END_TEST

/* What logpath_names() says, the expansion does. */
START_TEST(test_names_expanded)
{
	struct logpath_job	 j = job(2511);

	j.sluid = "s22DM97P0XVG00";
	j.job_id = 16;
	expect(&j, "e-%10J%5%%S.e", "/w/e-0000000016%5%s22DM97P0XVG00.e",
	    true);
	j.release = 2411;
	expect(&j, "e-%10J%5%%S.e", "/w/e-00000000165%S.e", true);
	expect(&j, "o-%5%j", "/w/o-516", true);
	j.release = 2511;
	expect(&j, "o-%5%j", "/w/o-%5%j", true);
}
END_TEST

static Suite *
logpath_suite(void)
{
	Suite	*s = suite_create("logpath");
	TCase	*tc = tcase_create("expand");

	tcase_add_test(tc, test_default);
	tcase_add_test(tc, test_common);
	tcase_add_test(tc, test_pending);
	tcase_add_test(tc, test_any_task);
	tcase_add_test(tc, test_new_letters);
	tcase_add_test(tc, test_old_quirks);
	tcase_add_test(tc, test_node);
	tcase_add_test(tc, test_sluid);
	tcase_add_test(tc, test_sluid_text);
	tcase_add_test(tc, test_first_node);
	tcase_add_test(tc, test_not_queued);
	tcase_add_test(tc, test_dir);
	tcase_add_test(tc, test_names_job_id);
	tcase_add_test(tc, test_names_by_release);
	tcase_add_test(tc, test_names_expanded);
	tcase_add_test(tc, test_makes_dirs);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(logpath_suite());
}
