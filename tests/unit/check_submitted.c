/*
 * check_submitted.c: the record of submitted jobs (src/follow/submitted.c): the
 * line and back, any byte in a name or path, the file's place and modes,
 * the newest record winning, lines that are not records skipped, the
 * bound on its size, and appenders at once.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "submitted.h"
#include "xmalloc.h"
#include "run.h"

static char	 tmpdir[] = "/tmp/check_submitted.XXXXXX";

/* A fresh state directory for each test (CK_FORK: a process each). */
static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	setenv("HOME", tmpdir, 1);
	unsetenv("XDG_STATE_HOME");
}

static void
teardown(void)
{
	char	*cmd = xasprintf("rm -rf '%s'", tmpdir);

	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
}

static struct submitted
sample(int64_t id)
{
	struct submitted	 s;

	memset(&s, 0, sizeof s);
	s.job_id = id;
	s.time = 1700000000;
	s.cluster = "test";
	s.backend = "rest";
	s.slurm = "http://127.0.0.1:6820";
	s.release = 2205;
	s.user = "bob";
	s.name = "llama";
	s.workdir = "/w";
	s.out.pattern = "logs/%x-%j.out";
	s.out.path = "/w/logs/llama-42.out";
	s.err_with_out = true;
	return s;
}

static void
same_str(const char *what, const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		ck_assert_msg(a == b, "%s: '%s', not '%s'", what,
		    a ? a : "(null)", b ? b : "(null)");
	else
		ck_assert_msg(strcmp(a, b) == 0, "%s: '%s', not '%s'", what,
		    a, b);
}

static void
same_record(const struct submitted *a, const struct submitted *b)
{
	ck_assert_int_eq(a->job_id, b->job_id);
	ck_assert_int_eq(a->time, b->time);
	ck_assert_int_eq(a->release, b->release);
	ck_assert_int_eq(a->err_with_out, b->err_with_out);
	same_str("cluster", a->cluster, b->cluster);
	same_str("backend", a->backend, b->backend);
	same_str("slurm", a->slurm, b->slurm);
	same_str("user", a->user, b->user);
	same_str("name", a->name, b->name);
	same_str("workdir", a->workdir, b->workdir);
	same_str("array", a->array, b->array);
	same_str("out.pattern", a->out.pattern, b->out.pattern);
	same_str("out.path", a->out.path, b->out.path);
	same_str("err.pattern", a->err.pattern, b->err.pattern);
	same_str("err.path", a->err.path, b->err.path);
	ck_assert_int_eq(a->after, b->after);
}

/* Any byte but NUL in a name or a path comes back as it was, on one line. */
START_TEST(test_round_trip)
{
	struct submitted	 s = sample(42), back;
	char			*line;

	s.name = "bad\n\xff\xfe name\x1b[2J";
	s.workdir = "/w/\xc3\xa9t\xc3\xa9";
	s.err_with_out = false;
	s.err.pattern = "%x-%j.err";
	s.err.path = NULL;
	s.array = "0-4%2";
	line = submitted_format(&s);
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_null(strchr(line, '\n'));
	ck_assert(submitted_parse(line, &back));
	same_record(&s, &back);
	submitted_release(&back);
	free(line);
}
END_TEST

/* What is not a record of ours is refused, whole. */
START_TEST(test_not_records)
{
	static const char *const bad[] = {
		"",
		"{",
		"[]",
		"{\"v\":2,\"job_id\":1,\"output\":{},\"error\":null}",
		"{\"job_id\":1,\"output\":{},\"error\":null}",
		"{\"v\":1,\"job_id\":0,\"output\":{},\"error\":null}",
		"{\"v\":1,\"job_id\":-4,\"output\":{},\"error\":null}",
		"{\"v\":1,\"job_id\":\"4\",\"output\":{},\"error\":null}",
		"{\"v\":1,\"job_id\":4,\"output\":{}}",
		"{\"v\":1,\"job_id\":4,\"output\":{},\"error\":null,"
		    "\"name\":{\"hex\":\"6100\"}}",
		"{\"v\":1,\"job_id\":4,\"output\":{},\"error\":null,"
		    "\"name\":{\"hex\":\"6\"}}",
		"{\"v\":1,\"job_id\":4,\"output\":{},\"error\":null,"
		    "\"name\":\"a\\u0000b\"}",
		"{\"v\":1,\"job_id\":4,\"job_id\":5,\"output\":{},"
		    "\"error\":null}",
		"{\"v\":1,\"job_id\":4,\"output\":{\"path\":7},\"error\":null}",
	};
	struct submitted	 s;
	size_t			 i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!submitted_parse(bad[i], &s), "accepted: %s",
		    bad[i]);
	ck_assert(submitted_parse("{\"v\":1,\"job_id\":4,\"output\":{},"
	    "\"error\":null,\"later\":[1]}", &s));
	ck_assert_int_eq(s.job_id, 4);
	submitted_release(&s);
}
END_TEST

/* $XDG_STATE_HOME/mbsbatch, else ~/.local/state/mbsbatch; 0700, 0600. */
START_TEST(test_place)
{
	struct submitted	 s = sample(42), got;
	struct stat		 st;
	char			*want, *path;
	struct error		*err;
	bool			 found;

	want = xasprintf("%s/.local/state/mbsbatch/submitted.jsonl", tmpdir);
	path = submitted_file();
	same_str("file", path, want);
	free(path);
	ck_assert_ptr_null(submitted_add(&s));
	ck_assert_int_eq(stat(want, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	*strrchr(want, '/') = '\0';
	ck_assert_int_eq(stat(want, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0700);
	free(want);
	ck_assert_ptr_null(submitted_find("test", 42, &got, &found));
	ck_assert(found);
	same_record(&s, &got);
	submitted_release(&got);

	/* A relative XDG_STATE_HOME is ignored, as the XDG spec says. */
	setenv("XDG_STATE_HOME", "rel", 1);
	path = submitted_file();
	ck_assert_ptr_nonnull(strstr(path, "/.local/state/"));
	free(path);
	want = xasprintf("%s/xdg", tmpdir);
	setenv("XDG_STATE_HOME", want, 1);
	ck_assert_ptr_null(submitted_find("test", 42, &got, &found));
	ck_assert(!found);
	ck_assert_ptr_null(submitted_add(&s));
	free(want);
	want = xasprintf("%s/xdg/mbsbatch/submitted.jsonl", tmpdir);
	ck_assert_int_eq(stat(want, &st), 0);
	free(want);

	unsetenv("XDG_STATE_HOME");
	unsetenv("HOME");
	ck_assert_ptr_null(submitted_file());
	ck_assert_ptr_null(submitted_find("test", 42, &got, &found));
	ck_assert(!found);
	err = submitted_add(&s);
	ck_assert_ptr_nonnull(err);
	error_free(err);
}
END_TEST

/* The newest record of that job on that cluster; others not. */
START_TEST(test_newest)
{
	struct submitted	 s = sample(42), got;
	bool			 found;

	ck_assert_ptr_null(submitted_add(&s));
	s.out.path = "/w/logs/llama-42.out.2";
	ck_assert_ptr_null(submitted_add(&s));
	s = sample(43);
	ck_assert_ptr_null(submitted_add(&s));
	s = sample(42);
	s.cluster = NULL;
	s.out.path = "/elsewhere";
	ck_assert_ptr_null(submitted_add(&s));

	ck_assert_ptr_null(submitted_find("test", 42, &got, &found));
	ck_assert(found);
	same_str("newest", got.out.path, "/w/logs/llama-42.out.2");
	submitted_release(&got);
	ck_assert_ptr_null(submitted_find(NULL, 42, &got, &found));
	ck_assert(found);
	same_str("no profile", got.out.path, "/elsewhere");
	submitted_release(&got);
	ck_assert_ptr_null(submitted_find("other", 42, &got, &found));
	ck_assert(!found);
	ck_assert_ptr_null(submitted_find("test", 44, &got, &found));
	ck_assert(!found);
}
END_TEST

/*
 * A chain's job records the one it follows (submit --chain): the newest
 * that follows a job is found (report --chain), on that cluster only;
 * a record without "after" (an older mbsbatch's) follows none.
 */
START_TEST(test_next)
{
	struct submitted	 s = sample(50), got;
	bool			 found;
	char			*line;

	ck_assert_ptr_null(submitted_add(&s));
	s = sample(51);
	s.after = 50;
	line = submitted_format(&s);
	ck_assert_ptr_nonnull(strstr(line, "\"after\":50"));
	free(line);
	ck_assert_ptr_null(submitted_add(&s));
	s = sample(52);
	s.after = 51;
	ck_assert_ptr_null(submitted_add(&s));
	s = sample(60);
	s.after = 51;
	s.cluster = "other";
	ck_assert_ptr_null(submitted_add(&s));

	ck_assert_ptr_null(submitted_find_next("test", 50, &got, &found));
	ck_assert(found);
	ck_assert_int_eq(got.job_id, 51);
	submitted_release(&got);
	ck_assert_ptr_null(submitted_find_next("test", 51, &got, &found));
	ck_assert(found);
	ck_assert_int_eq(got.job_id, 52);
	submitted_release(&got);
	ck_assert_ptr_null(submitted_find_next("other", 51, &got, &found));
	ck_assert(found);
	ck_assert_int_eq(got.job_id, 60);
	submitted_release(&got);
	ck_assert_ptr_null(submitted_find_next("test", 52, &got, &found));
	ck_assert(!found);
	ck_assert_ptr_null(submitted_find("test", 50, &got, &found));
	ck_assert(found);
	ck_assert_int_eq(got.after, 0);
	submitted_release(&got);
	/* "after" of another type, or out of range: not a record. */
	ck_assert(!submitted_parse("{\"v\":1,\"job_id\":4,\"output\":{},"
	    "\"error\":null,\"after\":\"3\"}", &got));
	ck_assert(!submitted_parse("{\"v\":1,\"job_id\":4,\"output\":{},"
	    "\"error\":null,\"after\":-1}", &got));
}
END_TEST

static char *
record_path(void)
{
	return xasprintf("%s/.local/state/mbsbatch/submitted.jsonl", tmpdir);
}

static void
append_raw(const char *text)
{
	char	*path = record_path();
	int	 fd;

	fd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	free(path);
}

/* Corrupt lines, and a last line a crash cut short, are skipped; the
 * next record starts a line of its own. */
START_TEST(test_corrupt)
{
	struct submitted	 s = sample(42), got;
	bool			 found;

	ck_assert_ptr_null(submitted_add(&s));
	append_raw("garbage\n{\"v\":1,\"job_id\":42,\"outp\n\x01\xff\n\n");
	append_raw("{\"v\":1,\"job_id\":42,\"output\":{\"path\":\"/torn");
	ck_assert_ptr_null(submitted_find("test", 42, &got, &found));
	ck_assert(found);
	same_str("before the junk", got.out.path, "/w/logs/llama-42.out");
	submitted_release(&got);
	s.out.path = "/after";
	ck_assert_ptr_null(submitted_add(&s));
	ck_assert_ptr_null(submitted_find("test", 42, &got, &found));
	ck_assert(found);
	same_str("after the torn line", got.out.path, "/after");
	submitted_release(&got);
}
END_TEST

/* A link, another file type, or another's directory: refused. */
START_TEST(test_refused)
{
	struct submitted	 s = sample(42), got;
	struct error		*err;
	char			*path = record_path(), *dir;
	bool			 found;

	dir = xstrdup(path);
	*strrchr(dir, '/') = '\0';
	ck_assert_ptr_null(submitted_add(&s));
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink("/etc/passwd", path), 0);
	ck_assert_ptr_nonnull(err = submitted_add(&s));
	ck_assert_ptr_nonnull(strstr(err->msg, "submitted.jsonl"));
	error_free(err);
	ck_assert_ptr_nonnull(err = submitted_find("test", 42, &got, &found));
	error_free(err);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_ptr_nonnull(err = submitted_add(&s));
	ck_assert_ptr_nonnull(strstr(err->msg, "not a regular file"));
	error_free(err);
	ck_assert_ptr_nonnull(err = submitted_find("test", 42, &got, &found));
	error_free(err);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(symlink("/tmp", dir), 0);
	ck_assert_ptr_nonnull(err = submitted_add(&s));
	ck_assert_ptr_nonnull(strstr(err->msg, "not a directory"));
	error_free(err);
	free(dir);
	free(path);
}
END_TEST

/* Past its bound the file keeps its newest lines only, whole. */
START_TEST(test_bounded)
{
	struct submitted	 s = sample(1), got;
	struct stat		 st;
	char			*path = record_path(), *line;
	bool			 found;
	FILE			*f;
	int64_t			 id;

	ck_assert_ptr_null(submitted_add(&s));
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	for (id = 2; ftell(f) < SUBMITTED_MAX_BYTES - 100; id++) {
		s = sample(id);
		line = submitted_format(&s);
		fprintf(f, "%s\n", line);
		free(line);
	}
	ck_assert_int_eq(fclose(f), 0);
	s = sample(id);
	ck_assert_ptr_null(submitted_add(&s));
	ck_assert_int_eq(stat(path, &st), 0);
	/* Half the bound at most, and the line appended. */
	ck_assert_int_le(st.st_size, SUBMITTED_MAX_BYTES / 2 + 1024);
	ck_assert_int_eq(st.st_mode & 07777, 0600);
	ck_assert_ptr_null(submitted_find("test", id, &got, &found));
	ck_assert(found);
	submitted_release(&got);
	ck_assert_ptr_null(submitted_find("test", id - 1, &got, &found));
	ck_assert(found);
	submitted_release(&got);
	ck_assert_ptr_null(submitted_find("test", 1, &got, &found));
	ck_assert(!found);
	/* Every line kept is whole. */
	f = fopen(path, "r");
	{
		char	 buf[4096];
		int	 n = 0;

		while (fgets(buf, sizeof buf, f) != NULL) {
			buf[strcspn(buf, "\n")] = '\0';
			ck_assert_msg(submitted_parse(buf, &got), "line %d: %s",
			    n, buf);
			submitted_release(&got);
			n++;
		}
		ck_assert_int_gt(n, 1000);
	}
	fclose(f);
	free(path);
}
END_TEST

/* Processes appending at once, across a rewrite: no line lost or torn. */
START_TEST(test_concurrent)
{
	enum { WORKERS = 4, EACH = 300 };
	struct submitted	 s, got;
	char			*path = record_path(), *line;
	int			 w, i, status;
	bool			 found;
	FILE			*f;
	pid_t			 pid;

	/* Close to the bound, so that the workers rewrite it. */
	s = sample(1);
	ck_assert_ptr_null(submitted_add(&s));
	f = fopen(path, "a");
	s.name = "filler";
	line = submitted_format(&s);
	while (ftell(f) < SUBMITTED_MAX_BYTES - 20000)
		fprintf(f, "%s\n", line);
	free(line);
	fclose(f);
	for (w = 0; w < WORKERS; w++) {
		if ((pid = fork()) == 0) {
			for (i = 0; i < EACH; i++) {
				s = sample(1000 * (w + 1) + i);
				if (submitted_add(&s) != NULL)
					_exit(1);
			}
			_exit(0);
		}
		ck_assert_int_gt(pid, 0);
	}
	for (w = 0; w < WORKERS; w++) {
		ck_assert_int_gt(wait(&status), 0);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	for (w = 0; w < WORKERS; w++)
		for (i = 0; i < EACH; i++) {
			ck_assert_ptr_null(submitted_find("test",
			    1000 * (w + 1) + i, &got, &found));
			ck_assert_msg(found, "job %d lost", 1000 * (w + 1) + i);
			submitted_release(&got);
		}
	free(path);
}
END_TEST

static Suite *
submitted_suite(void)
{
	Suite	*s = suite_create("submitted");
	TCase	*tc = tcase_create("record");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_not_records);
	tcase_add_test(tc, test_place);
	tcase_add_test(tc, test_newest);
	tcase_add_test(tc, test_next);
	tcase_add_test(tc, test_corrupt);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_bounded);
	tcase_add_test(tc, test_concurrent);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(submitted_suite());
}
