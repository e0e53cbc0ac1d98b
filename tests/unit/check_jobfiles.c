/*
 * check_jobfiles.c: where a job writes (src/follow/jobfiles.c): which of
 * Slurm's answer, the record of the submission and the back end's
 * patterns it believes, release by release, and the record kept up.  A
 * fake back end answers a node's host name and squeue's patterns.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "error.h"
#include "jobfiles.h"
#include "submitted.h"
#include "xmalloc.h"
#include "run.h"

static char	 tmpdir[] = "/tmp/check_jobfiles.XXXXXX";
static int	 host_asked, patterns_asked;
static const char *fake_out, *fake_err;

static struct error *
fake_node_host(struct backend_ctx *ctx, const char *node, char **host)
{
	(void)ctx;
	host_asked++;
	*host = strcmp(node, "mbsnode0") == 0 ? xstrdup("vm.example.org") :
	    NULL;
	return NULL;
}

static struct error *
fake_patterns(struct backend_ctx *ctx, int64_t id, int64_t task, char **out,
    char **err)
{
	(void)ctx;
	(void)id;
	(void)task;
	patterns_asked++;
	*out = fake_out != NULL ? xstrdup(fake_out) : NULL;
	*err = fake_err != NULL ? xstrdup(fake_err) : NULL;
	return NULL;
}

static const struct backend fake = {
	.name = "fake",
	.node_host = fake_node_host,
	.patterns = fake_patterns,
};

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	setenv("HOME", tmpdir, 1);
	unsetenv("XDG_STATE_HOME");
	host_asked = patterns_asked = 0;
	fake_out = fake_err = NULL;
}

static void
teardown(void)
{
	char	*cmd = xasprintf("rm -rf '%s'", tmpdir);

	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
}

/* Job 42 "a%jb" of bob in /w, ended on mbsnode0, as slurmctld of
 * RELEASE tells it. */
static struct job_status
job(int release)
{
	struct job_status	 s;

	memset(&s, 0, sizeof s);
	s.job_id = 42;
	strcpy(s.state, "COMPLETED");
	s.release = release;
	s.array_task_id = -1;
	s.name = xstrdup("a%jb");
	s.user = xstrdup("bob");
	s.work_dir = xstrdup("/w");
	s.batch_host = xstrdup("mbsnode0");
	s.node_list = xstrdup("mbsnode0");
	return s;
}

static void
record(int64_t id, const char *workdir, const char *out, const char *path,
    const char *err)
{
	struct submitted	 r;

	memset(&r, 0, sizeof r);
	r.job_id = id;
	r.time = 1;
	r.backend = "fake";
	r.release = 2205;
	r.user = "bob";
	r.name = "a%jb";
	r.workdir = (char *)workdir;
	r.out.pattern = (char *)out;
	r.out.path = (char *)path;
	r.err_with_out = err == NULL;
	r.err.pattern = (char *)err;
	ck_assert_ptr_null(submitted_add(&r));
}

static void
str_eq(const char *what, const char *got, const char *want)
{
	ck_assert_msg((got == NULL && want == NULL) || (got != NULL &&
	    want != NULL && strcmp(got, want) == 0), "%s: '%s', want '%s'",
	    what, got != NULL ? got : "(null)", want != NULL ? want :
	    "(null)");
}

/* 22.05's accounting keeps no path: the record's, else not known (its
 * NULL std_out is not Slurm's default). */
START_TEST(test_old_accounting)
{
	struct job_status	 s = job(2205);
	struct jobfiles		 f;

	s.source = JOB_SOURCE_DBD;
	free(s.batch_host);
	s.batch_host = NULL;
	free(s.node_list);
	s.node_list = xstrdup("mbsnode[0-1]");
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	ck_assert_ptr_null(f.out);
	ck_assert_ptr_nonnull(strstr(f.why, "accounting of Slurm 22.05"));
	jobfiles_release(&f);

	record(42, "/w", "/w/%x-%N-%j.out", NULL, "/w/e-%j");
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	/* %N: the first node's host name, short (slurmd's conf->hostname). */
	str_eq("out", f.out, "/w/a%jb-vm-42.out");
	str_eq("err", f.err, "/w/e-42");
	ck_assert(f.out_complete && f.err_complete && f.recorded);
	ck_assert_int_eq(host_asked, 1);
	jobfiles_release(&f);
	job_status_release(&s);
}
END_TEST

/* scontrol before 24.05 replaced %A %a %j %u %x and left the rest: its
 * path is not expanded again (a '%' in the name); the patterns are. */
START_TEST(test_old_scontrol)
{
	struct job_status	 s = job(2205);
	struct jobfiles		 f;

	s.std_expanded = true;
	s.std_out = xstrdup("/w/a%jb-%5j-%N");
	fake_out = "/w/%x-%5j-%N";
	fake_err = "/w/%x-%5j-%N";
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	str_eq("out", f.out, "/w/a%jb-00042-vm");
	ck_assert_ptr_null(f.err);
	ck_assert_int_eq(patterns_asked, 1);
	jobfiles_release(&f);

	/* The record first: the back end is not asked. */
	record(42, "/w", "/w/%x-%%j-%5j", NULL, NULL);
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	str_eq("recorded", f.out, "/w/a%jb-%j-00042");
	ck_assert_int_eq(patterns_asked, 1);
	jobfiles_release(&f);

	/* Nothing left for slurmstepd: taken as it is. */
	free(s.std_out);
	s.std_out = xstrdup("/w/plain-42.out");
	s.std_err = xstrdup("/w/plain-42.err");
	jobfiles_find(&fake, NULL, "other", &s, &f);
	str_eq("plain", f.out, "/w/plain-42.out");
	str_eq("plain err", f.err, "/w/plain-42.err");
	ck_assert_int_eq(patterns_asked, 1);
	jobfiles_release(&f);
	job_status_release(&s);
}
END_TEST

/* The patterns Slurm gives: expanded by the job's release's rules. */
START_TEST(test_patterns)
{
	struct job_status	 s = job(2511);
	struct jobfiles		 f;

	s.std_out = xstrdup("/w/%N-%S-%j");
	s.std_err = xstrdup("/w/%N-%S-%j");
	s.sluid = xstrdup("s355M96FXKYB00");
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	/* 25.11: the node's name, never its host name. */
	str_eq("25.11", f.out, "/w/mbsnode0-s355M96FXKYB00-42");
	ck_assert_ptr_null(f.err);
	ck_assert_int_eq(host_asked, 0);
	jobfiles_release(&f);
	s.release = 2205;
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	str_eq("22.05", f.out, "/w/vm-%S-42");
	jobfiles_release(&f);
	/* A node Slurm does not say the host name of: not known. */
	free(s.batch_host);
	s.batch_host = xstrdup("mbsnode1");
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	str_eq("no host", f.out, "/w/%N-%S-42");
	ck_assert(!f.out_complete);
	jobfiles_release(&f);
	job_status_release(&s);
}
END_TEST

/* 25.11's own expansion is slurmstepd's: taken as it is, but a pending
 * job's "(null)" node. */
START_TEST(test_new_expanded)
{
	struct job_status	 s = job(2511);
	struct jobfiles		 f;

	s.std_expanded = true;
	s.std_out = xstrdup("/w/mbsnode0-s355M96FXKYB00-42");
	record(42, "/w", "/w/%N-%S-%j", NULL, NULL);
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	str_eq("25.11", f.out, "/w/mbsnode0-s355M96FXKYB00-42");
	ck_assert(f.out_complete);
	jobfiles_release(&f);
	strcpy(s.state, "PENDING");
	free(s.batch_host);
	s.batch_host = NULL;
	free(s.std_out);
	s.std_out = xstrdup("/w/(null)-s355M96FXKYB00-42");
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	ck_assert(!f.out_complete);
	jobfiles_release(&f);
	job_status_release(&s);
}
END_TEST

/* Another job of the same id (a cluster started anew) is not recorded. */
START_TEST(test_record_mismatch)
{
	struct job_status	 s = job(2205);
	struct jobfiles		 f;

	s.source = JOB_SOURCE_DBD;
	record(42, "/elsewhere", "/x/%j", "/x/42", NULL);
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	ck_assert_ptr_null(f.out);
	jobfiles_release(&f);
	/* Nor that of another profile. */
	record(42, "/w", "/x/%j", "/x/42", NULL);
	jobfiles_find(&fake, NULL, "prod", &s, &f);
	ck_assert_ptr_null(f.out);
	jobfiles_release(&f);
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	str_eq("same", f.out, "/x/42");
	jobfiles_release(&f);
	job_status_release(&s);
}
END_TEST

/* A path found in full goes back into the record; a job Slurm forgot
 * is found by it. */
START_TEST(test_record_kept)
{
	struct job_status	 s = job(2205), r;
	struct jobfiles		 f;
	struct job_ref		 ref = { 42, -1 };
	struct error		*err;

	record(42, "/w", "/w/%N-%j.out", NULL, NULL);
	ck_assert(jobfiles_recorded(NULL, &ref, &r, &f, &err));
	str_eq("before", f.out, "/w/%N-42.out");
	ck_assert(!f.out_complete);
	ck_assert_int_eq(r.source, JOB_SOURCE_RECORD);
	ck_assert_str_eq(r.state, "");
	jobfiles_release(&f);
	job_status_release(&r);

	s.std_out = xstrdup("/w/%N-%j.out");
	jobfiles_find(&fake, NULL, NULL, &s, &f);
	str_eq("ran", f.out, "/w/vm-42.out");
	jobfiles_release(&f);
	ck_assert(jobfiles_recorded(NULL, &ref, &r, &f, &err));
	str_eq("after", f.out, "/w/vm-42.out");
	ck_assert(f.out_complete);
	jobfiles_release(&f);
	job_status_release(&r);

	ref.id = 43;
	ck_assert(!jobfiles_recorded(NULL, &ref, &r, &f, &err));
	ck_assert_ptr_null(err);
	job_status_release(&s);
}
END_TEST

/* An array's task, from the record alone: %A and %a known, its own id
 * (%j) not. */
START_TEST(test_record_task)
{
	struct submitted	 a;
	struct job_status	 r;
	struct jobfiles		 f;
	struct job_ref		 ref = { 50, 3 };
	struct error		*err;

	memset(&a, 0, sizeof a);
	a.job_id = 50;
	a.release = 2511;
	a.name = "arr";
	a.workdir = "/w";
	a.array = "0-4";
	a.out.pattern = "/w/%x-%A_%a.out";
	a.err.pattern = "/w/%x-%j.err";
	ck_assert_ptr_null(submitted_add(&a));
	ck_assert(jobfiles_recorded(NULL, &ref, &r, &f, &err));
	ck_assert_int_eq(r.array_job_id, 50);
	ck_assert_int_eq(r.array_task_id, 3);
	str_eq("out", f.out, "/w/arr-50_%a.out");
	str_eq("err", f.err, "/w/arr-%j.err");
	ck_assert(!f.out_complete && !f.err_complete);
	jobfiles_release(&f);
	job_status_release(&r);
	a.err.pattern = "/w/%x-%A-%a.err";
	a.job_id = 51;
	ck_assert_ptr_null(submitted_add(&a));
	ref.id = 51;
	ck_assert(jobfiles_recorded(NULL, &ref, &r, &f, &err));
	str_eq("out", f.out, "/w/arr-51_3.out");
	str_eq("err", f.err, "/w/arr-51-3.err");
	ck_assert(f.out_complete && f.err_complete);
	jobfiles_release(&f);
	job_status_release(&r);
	/* A task of a job that is no array. */
	record(52, "/w", "/w/x", "/w/x", NULL);
	ref.id = 52;
	ck_assert(!jobfiles_recorded(NULL, &ref, &r, &f, &err));
}
END_TEST

static Suite *
jobfiles_suite(void)
{
	Suite	*s = suite_create("jobfiles");
	TCase	*tc = tcase_create("find");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_old_accounting);
	tcase_add_test(tc, test_old_scontrol);
	tcase_add_test(tc, test_patterns);
	tcase_add_test(tc, test_new_expanded);
	tcase_add_test(tc, test_record_mismatch);
	tcase_add_test(tc, test_record_kept);
	tcase_add_test(tc, test_record_task);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(jobfiles_suite());
}
