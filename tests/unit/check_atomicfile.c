/*
 * check_atomicfile.c: whole-or-nothing writes (src/util/atomicfile.c), and
 * what --force replaces: only the file that was checked.  The race is
 * made, not waited for: a hook swaps something in between the check and
 * the write (a FIFO, another file, nothing), and the call must keep what
 * is there and fail, leaving no temporary file behind.
 */
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "error.h"
#include "run.h"

static char	 dir[] = "/tmp/check_atomicfile.XXXXXX";
static char	 path[256], real[256], other[256];

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/job.sbatch", dir);
	snprintf(real, sizeof real, "%s/real.sbatch", dir);
	snprintf(other, sizeof other, "%s/other", dir);
}

static void
teardown(void)
{
	struct dirent	*de;
	DIR		*d = opendir(dir);
	char		 p[512];

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		unlink(p);
	}
	if (d != NULL)
		closedir(d);
	rmdir(dir);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
}

static void
put(const char *p, const char *text)
{
	FILE	*f = fopen(p, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void
ck_content(const char *p, const char *want)
{
	char	 got[64] = "";
	FILE	*f = fopen(p, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert(fgets(got, sizeof got, f) != NULL || want[0] == '\0');
	fclose(f);
	ck_assert_str_eq(got, want);
}

/* No temporary file left in the directory: only the names given. */
static void
ck_entries(int want)
{
	struct dirent	*de;
	DIR		*d = opendir(dir);
	int		 n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			ck_assert_msg(strncmp(de->d_name, ".job", 4) != 0 &&
			    strncmp(de->d_name, ".real", 5) != 0,
			    "temporary file %s left", de->d_name);
			n++;
		}
	closedir(d);
	ck_assert_int_eq(n, want);
}

static struct error *
write_force(const char *p, void (*hook)(const char *))
{
	bool	 streamed;

	return atomicfile_write_hooked(p, "new\n", 4, true, 0644, &streamed,
	    hook);
}

START_TEST(test_plain)
{
	struct error	*err;
	struct stat	 a, b;
	bool		 streamed;

	ck_assert_ptr_null(atomicfile_write(path, "one\n", 4, false, 0644,
	    &streamed));
	ck_content(path, "one\n");
	err = atomicfile_write(path, "two\n", 4, false, 0644, &streamed);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->msg, "file exists"));
	error_free(err);
	ck_content(path, "one\n");
	ck_assert_int_eq(stat(path, &a), 0);
	ck_assert_ptr_null(write_force(path, NULL));
	ck_content(path, "new\n");
	ck_assert_int_eq(stat(path, &b), 0);
	ck_assert(a.st_ino != b.st_ino);	/* a new file, whole */
	ck_entries(1);
}
END_TEST

/* Swapped in between: a FIFO, another user's file, a device. */
static void
to_fifo(const char *p)
{
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(mkfifo(p, 0644), 0);
}

static void
to_other_file(const char *p)
{
	put(other, "theirs\n");
	ck_assert_int_eq(rename(other, p), 0);
}

static void
to_device(const char *p)
{
	ck_assert_int_eq(unlink(p), 0);
	/* /dev/null's numbers; root only (a skip otherwise). */
	if (mknod(p, S_IFCHR | 0644, makedev(1, 3)) == -1)
		ck_assert_int_eq(mkfifo(p, 0644), 0);
}

static void
to_nothing(const char *p)
{
	ck_assert_int_eq(unlink(p), 0);
}

START_TEST(test_race)
{
	static void	(*const hooks[])(const char *) = { to_fifo,
	    to_other_file, to_device };
	struct error	*err;
	struct stat	 st;

	put(path, "old\n");
	err = write_force(path, hooks[_i]);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->msg, "replaced by another file since it "
	    "was checked; that file is kept, not written") != NULL, "%s",
	    err->msg);
	ck_assert_int_eq(err->status, EXIT_FAILURE_OP);
	error_free(err);
	ck_assert_int_eq(lstat(path, &st), 0);
	if (_i == 0)
		ck_assert(S_ISFIFO(st.st_mode));
	else if (_i == 1)
		ck_content(path, "theirs\n");
	else
		ck_assert(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
	ck_entries(1);
}
END_TEST

/* Gone in between: created, as a new file is. */
START_TEST(test_gone)
{
	put(path, "old\n");
	ck_assert_ptr_null(write_force(path, to_nothing));
	ck_content(path, "new\n");
	ck_entries(1);
}
END_TEST

/* Through a symbolic link: the file it leads to is the one checked. */
START_TEST(test_link)
{
	struct error	*err;
	struct stat	 st;

	put(real, "old\n");
	ck_assert_int_eq(symlink("real.sbatch", path), 0);
	ck_assert_ptr_null(write_force(path, NULL));
	ck_content(real, "new\n");
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	err = write_force(path, to_fifo);
	ck_assert_ptr_nonnull(err);
	error_free(err);
	ck_assert_int_eq(stat(real, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_entries(2);
}
END_TEST

static Suite *
atomicfile_suite(void)
{
	Suite	*s = suite_create("atomicfile");
	TCase	*tc = tcase_create("force");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_plain);
	tcase_add_loop_test(tc, test_race, 0, 3);
	tcase_add_test(tc, test_gone);
	tcase_add_test(tc, test_link);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(atomicfile_suite());
}
