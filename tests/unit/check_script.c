/*
 * check_script.c: where the batch shell, outside the container, finds a
 * directory the program sees inside it (script_host_path, src/render/script.c),
 * from pyxis --container-mounts lists "SRC[:DST[:FLAGS]],...".
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"
#include "run.h"

static const struct {
	const char	*dir, *mounts, *want;
} cases[] = {
	{ "/ckpt/run1", NULL, "/ckpt/run1" },
	{ "/ckpt/run1", "", "/ckpt/run1" },
	{ "/ckpt/run1", "/lustre/a:/ckpt", "/lustre/a/run1" },
	{ "/ckpt", "/lustre/a:/ckpt:rw", "/lustre/a" },
	{ "/ckpt/run1", "/lustre/a:/ckpt/", "/lustre/a/run1" },
	/* Not at a '/': /ckpt2 is not under /ckpt. */
	{ "/ckpt2/x", "/lustre/a:/ckpt", "/ckpt2/x" },
	/* The longest destination wins, wherever it is in the list. */
	{ "/ckpt/run1/x", "/l/a:/ckpt,/l/b:/ckpt/run1", "/l/b/x" },
	{ "/ckpt/run1/x", "/l/b:/ckpt/run1,/l/a:/ckpt", "/l/b/x" },
	/* A mount without a destination is at its own path. */
	{ "/lustre/ck", "/data,/lustre", "/lustre/ck" },
	{ "/scratch/ck", "/data,/lustre", "/scratch/ck" },
	/* "/" itself. */
	{ "/ck", "/host/root:/", "/host/root/ck" },
	{ "/ck", "/host/root/:/:ro", "/host/root/ck" },
	/* A relative directory is the job's: left as it is. */
	{ "ck", "/l/a:/ckpt", "ck" },
	/* Malformed entries are no mount. */
	{ "/ckpt/x", ",,:,/l:", "/ckpt/x" },
	{ "/ckpt/x", "/l:ckpt", "/ckpt/x" },
};

START_TEST(test_host_path)
{
	char	*got = script_host_path(cases[_i].dir, cases[_i].mounts);

	ck_assert_msg(strcmp(got, cases[_i].want) == 0, "%s in %s: %s, want %s",
	    cases[_i].dir, cases[_i].mounts != NULL ? cases[_i].mounts :
	    "(null)", got, cases[_i].want);
	free(got);
}
END_TEST

static Suite *
script_suite(void)
{
	Suite	*s = suite_create("script");
	TCase	*tc = tcase_create("host_path");

	tcase_add_loop_test(tc, test_host_path, 0,
	    sizeof cases / sizeof cases[0]);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(script_suite());
}
