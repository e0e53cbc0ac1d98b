/*
 * check_sweep.c: the pure parts of sweep (src/sweep/sweep.c): the keys that
 * tell points' jobs apart (from typed Slurm options and from #SBATCH
 * lines), the job-name line a script gets, the array script, and the
 * packing of points into job arrays and jobs.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "resume.h"
#include "slurmopt.h"
#include "sweep.h"
#include "xmalloc.h"
#include "run.h"

static const char named[] =
    "#!/bin/bash\n"
    "#SBATCH --job-name=m-abc-0\n"
    "#SBATCH --nodes=2\n"
    "#SBATCH --output=logs/%x-%j.out\n"
    "# a comment\n"
    "srun true\n";

/* Typed options: all but the job name, numbers written as Slurm reads
 * them, flags bare. */
START_TEST(test_slurm_key)
{
	struct slurmopt	 o;
	char		*key;

	memset(&o, 0, sizeof o);
	o.d[o.n++] = (struct slurm_directive){ .option = "job-name",
	    .value = "m-abc-0" };
	o.d[o.n++] = (struct slurm_directive){ .option = "nodes",
	    .number = 16, .is_number = true };
	o.d[o.n++] = (struct slurm_directive){ .option = "partition",
	    .value = "batch" };
	o.d[o.n++] = (struct slurm_directive){ .option = "exclusive" };
	key = sweep_slurm_key(&o);
	ck_assert_str_eq(key, "nodes=16\npartition=batch\nexclusive\n");
	free(key);
}
END_TEST

/* #SBATCH lines only, the name blanked wherever it is. */
START_TEST(test_directive_key)
{
	char	*a, *b;

	a = sweep_directive_key(named, "m-abc-0");
	ck_assert_str_eq(a, "#SBATCH --job-name=\001\n#SBATCH --nodes=2\n"
	    "#SBATCH --output=logs/%x-%j.out\n");
	b = sweep_directive_key("#!/bin/bash\n#SBATCH -J m-abc-1\n"
	    "#SBATCH --nodes=2\nsrun true\n", "m-abc-1");
	ck_assert_str_eq(b, "#SBATCH -J \001\n#SBATCH --nodes=2\n");
	free(a);
	free(b);
}
END_TEST

/* A script named as the point stays; another gets a last name line. */
START_TEST(test_own_name)
{
	char	*s = xstrdup(named);

	ck_assert_ptr_null(sweep_own_name(&s, "m-abc-0"));
	ck_assert_str_eq(s, named);
	ck_assert_ptr_null(sweep_own_name(&s, "other"));
	ck_assert_str_eq(s, "#!/bin/bash\n"
	    "#SBATCH --job-name=m-abc-0\n"
	    "#SBATCH --nodes=2\n"
	    "#SBATCH --output=logs/%x-%j.out\n"
	    "#SBATCH --job-name=other\n"
	    "# a comment\n"
	    "srun true\n");
	free(s);

	/* No #SBATCH line: after line 1. */
	s = xstrdup("#!/bin/bash\nsrun true\n");
	ck_assert_ptr_null(sweep_own_name(&s, "p"));
	ck_assert_str_eq(s, "#!/bin/bash\n#SBATCH --job-name=p\nsrun true\n");
	free(s);
}
END_TEST

START_TEST(test_own_name_refused)
{
	struct error	*err;
	char		*s = xstrdup(named);

	err = sweep_own_name(&s, "x-packjob");
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->status, EXIT_USAGE);
	ck_assert_str_eq(s, named);
	error_free(err);
	free(s);
}
END_TEST

static struct sweep_point *
points(const char *const *keys, int64_t n)
{
	struct sweep_point	*pts = xcalloc((size_t)n, sizeof *pts);
	int64_t			 i;

	for (i = 0; i < n; i++) {
		pts[i].desc = xasprintf("tp=%lld", (long long)i);
		pts[i].name = xasprintf("m-abc-%lld", (long long)i);
		if (keys[i] == NULL) {
			pts[i].skip = xstrdup("a rule");
			continue;
		}
		pts[i].script = xasprintf("#!/bin/bash\n#SBATCH --job-name=%s\n"
		    "#SBATCH --nodes=1\n#SBATCH --output=o-%%j.log\n"
		    "echo %lld\n", pts[i].name, (long long)i);
		pts[i].key = xstrdup(keys[i]);
	}
	return pts;
}

/* One array: the first point's lines, per-task logs, its name and
 * tasks, each task its point's script. */
START_TEST(test_array_script)
{
	const char *const	 keys[] = { "a", "a" };
	struct sweep_point	*pts = points(keys, 2);
	const int64_t		 idx[] = { 0, 1 };
	const char		*head = "#!/bin/bash\n"
	    "#SBATCH --job-name=m-abc-0\n"
	    "#SBATCH --nodes=1\n"
	    "#SBATCH --output=o-%A_%a.log\n"
	    "#SBATCH --job-name=m-abc-a0\n"
	    "#SBATCH --array=0-1\n#\n";
	char			*out;

	ck_assert_ptr_null(sweep_array_script("abc", pts, idx, 2, "m-abc-a0",
	    &out));
	ck_assert(strncmp(out, head, strlen(head)) == 0);
	ck_assert_ptr_nonnull(strstr(out, "# point 1: tp=1\nmbsbatch_task_1() "
	    "{\ncat <<'MBSBATCH_POINT_END_abc'\n#!/bin/bash\n"));
	ck_assert_ptr_nonnull(strstr(out, "echo 1\nMBSBATCH_POINT_END_abc\n}"));
	ck_assert_ptr_nonnull(strstr(out, "exec /bin/bash -c"));
	free(out);
	sweep_points_free(pts, 2);
}
END_TEST

START_TEST(test_array_script_marker)
{
	const char *const	 keys[] = { "a" };
	struct sweep_point	*pts = points(keys, 1);
	const int64_t		 idx[] = { 0 };
	struct error		*err;
	char			*out = NULL;

	free(pts[0].script);
	pts[0].script = xstrdup("#!/bin/bash\necho\nMBSBATCH_POINT_END_abc\n");
	err = sweep_array_script("abc", pts, idx, 1, "n", &out);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->status, EXIT_FAILURE_OP);
	ck_assert_ptr_null(out);
	error_free(err);
	sweep_points_free(pts, 1);
}
END_TEST

/* Grouped by key, up to the array size, in the order of first points;
 * skipped and queued points left out. */
START_TEST(test_array_units)
{
	const char *const	 keys[] = { "a", "b", "a", NULL, "a", "a" };
	struct sweep_point	*pts = points(keys, 6);
	struct sweep_units	 u = { NULL, 0 };

	pts[5].queued = true;
	ck_assert_ptr_null(sweep_array_units("abc", pts, 6, 2, &u));
	ck_assert_uint_eq(u.n, 3);
	ck_assert_int_eq(u.v[0].n, 2);
	ck_assert_int_eq(u.v[0].idx[0], 0);
	ck_assert_int_eq(u.v[0].idx[1], 2);
	ck_assert_str_eq(u.v[0].name, "m-abc-a0");
	ck_assert_int_eq(u.v[1].n, 1);
	ck_assert_int_eq(u.v[1].idx[0], 1);
	ck_assert_str_eq(u.v[1].name, "m-abc-a1");
	ck_assert_int_eq(u.v[2].n, 1);
	ck_assert_int_eq(u.v[2].idx[0], 4);
	ck_assert_uint_eq(pts[2].unit, 0);
	ck_assert_int_eq(pts[2].task, 1);
	ck_assert_uint_eq(pts[4].unit, 2);
	ck_assert_int_eq(pts[4].task, 0);
	sweep_units_release(&u);
	sweep_points_free(pts, 6);
}
END_TEST

START_TEST(test_job_units)
{
	const char *const	 keys[] = { "a", NULL, "a" };
	struct sweep_point	*pts = points(keys, 3);
	struct sweep_units	 u = { NULL, 0 };

	sweep_job_units(pts, 3, &u);
	ck_assert_uint_eq(u.n, 2);
	ck_assert_str_eq(u.v[1].name, "m-abc-2");
	ck_assert_str_eq(u.v[1].script, pts[2].script);
	ck_assert_uint_eq(pts[2].unit, 1);
	ck_assert_int_eq(pts[2].task, 0);
	sweep_units_release(&u);
	sweep_points_free(pts, 3);
}
END_TEST

/* A journal's points map to their jobs: a job each, or an array's tasks
 * in the order of the record's points. */
START_TEST(test_resume_jobs)
{
	struct resume_plan	 plan;
	struct error		*err;
	json_t			*lines;

	lines = json_loads("["
	    "{\"sweep\": \"0abcde\", \"version\": 1, \"points\": 5,"
	    " \"grid\": [], \"array\": true},"
	    "{\"submitting\": \"m-0abcde-a1\", \"points\": [3, 1]},"
	    "{\"queued\": \"m-0abcde-a1\", \"job_id\": 70, \"points\": [3, 1]},"
	    "{\"queued\": \"m-0abcde-4\", \"job_id\": 71, \"points\": [4]},"
	    "{\"submitting\": \"m-0abcde-0\", \"points\": [0]}]", 0, NULL);
	ck_assert_ptr_nonnull(lines);
	err = resume_plan("j", lines, NULL, 0, &plan);
	ck_assert_ptr_null(err);
	ck_assert_int_eq(plan.jobs[3].job_id, 70);
	ck_assert_int_eq(plan.jobs[3].task, 0);
	ck_assert_int_eq(plan.jobs[1].job_id, 70);
	ck_assert_int_eq(plan.jobs[1].task, 1);
	ck_assert_int_eq(plan.jobs[4].job_id, 71);
	ck_assert_int_eq(plan.jobs[4].task, -1);
	ck_assert_int_eq(plan.jobs[0].job_id, 0);
	ck_assert_int_eq(plan.jobs[2].job_id, 0);
	ck_assert_uint_eq(plan.npending, 1);
	resume_plan_release(&plan);
	json_decref(lines);
}
END_TEST

static Suite *
sweep_suite(void)
{
	Suite	*s = suite_create("sweep");
	TCase	*tc;

	tc = tcase_create("keys");
	tcase_add_test(tc, test_slurm_key);
	tcase_add_test(tc, test_directive_key);
	suite_add_tcase(s, tc);

	tc = tcase_create("name");
	tcase_add_test(tc, test_own_name);
	tcase_add_test(tc, test_own_name_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("array script");
	tcase_add_test(tc, test_array_script);
	tcase_add_test(tc, test_array_script_marker);
	suite_add_tcase(s, tc);

	tc = tcase_create("units");
	tcase_add_test(tc, test_array_units);
	tcase_add_test(tc, test_job_units);
	suite_add_tcase(s, tc);

	tc = tcase_create("journal");
	tcase_add_test(tc, test_resume_jobs);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(sweep_suite());
}
