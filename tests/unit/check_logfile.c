/*
 * check_logfile.c: a job's file opened once and read safely
 * (src/logs/logfile.c).  What is refused (a link, a FIFO, a device, a
 * directory, another user's file), and sparse files of random layouts
 * (seeded: MBS_TEST_SEED, else the time; printed) read as data and holes
 * that put together are the file's bytes, their last lines found as a
 * plain backward scan of those bytes finds them; a 1 TiB hole costs
 * nothing.
 */
#include <sys/stat.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "logfile.h"
#include "run.h"
#include "seed.h"

static uint64_t	 seed;
static char	 dir[] = "/tmp/check_logfile.XXXXXX";

static char *
path(const char *name)
{
	static char	 buf[256];

	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

static void
setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
teardown(void)
{
	char	 cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	(void)system(cmd);
}

START_TEST(test_refused)
{
	struct logfile	 lf;
	char		 target[256], why[160];
	int		 fd;

	fd = open(path("reg"), O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x\n", 2), 2);
	close(fd);
	ck_assert_int_eq(logfile_open(&lf, path("reg"), 0, LOGFILE_ANY_OWNER),
	    0);
	ck_assert(S_ISREG(lf.st.st_mode) && lf.st.st_size == 2);
	logfile_close(&lf);
	ck_assert_int_eq(lf.fd, -1);

	/* A link to the same file: refused, unless followed. */
	snprintf(target, sizeof target, "%s", path("reg"));
	ck_assert_int_eq(symlink(target, path("link")), 0);
	ck_assert_int_eq(logfile_open(&lf, path("link"), 0,
	    LOGFILE_ANY_OWNER), LOGFILE_ESYMLINK);
	ck_assert_int_eq(lf.fd, -1);
	ck_assert_str_eq(logfile_why(LOGFILE_ESYMLINK, &lf, why, sizeof why),
	    "is a symbolic link: not followed");
	ck_assert_int_eq(logfile_open(&lf, path("link"), LOGFILE_FOLLOW,
	    LOGFILE_ANY_OWNER), 0);
	logfile_close(&lf);
	/* A link to /dev/zero, followed: a device, not read. */
	ck_assert_int_eq(symlink("/dev/zero", path("zero")), 0);
	ck_assert_int_eq(logfile_open(&lf, path("zero"), 0,
	    LOGFILE_ANY_OWNER), LOGFILE_ESYMLINK);
	ck_assert_int_eq(logfile_open(&lf, path("zero"), LOGFILE_FOLLOW,
	    LOGFILE_ANY_OWNER), LOGFILE_ENOTREG);
	ck_assert_str_eq(logfile_why(LOGFILE_ENOTREG, &lf, why, sizeof why),
	    "is a character device, not a regular file: not read");
	/* A FIFO no one writes to: refused at once, not waited on. */
	ck_assert_int_eq(mkfifo(path("fifo"), 0600), 0);
	ck_assert_int_eq(logfile_open(&lf, path("fifo"), 0,
	    LOGFILE_ANY_OWNER), LOGFILE_ENOTREG);
	ck_assert(S_ISFIFO(lf.st.st_mode));
	ck_assert_int_eq(logfile_open(&lf, dir, 0, LOGFILE_ANY_OWNER),
	    LOGFILE_ENOTREG);
	ck_assert(S_ISDIR(lf.st.st_mode));
	ck_assert_int_eq(logfile_open(&lf, path("none"), 0,
	    LOGFILE_ANY_OWNER), ENOENT);
	/* Someone else's file. */
	ck_assert_int_eq(logfile_open(&lf, path("reg"), 0, getuid() + 1),
	    LOGFILE_EOWNER);
	ck_assert_int_eq(logfile_open(&lf, path("reg"), 0, getuid()), 0);
	logfile_close(&lf);
}
END_TEST

struct collect {
	char		*buf;
	size_t		 len, cap;
	uint64_t	 holes;
	int		 stop_after;	/* > 0: stop at that call */
	int		 calls;
};

static void
put(struct collect *c, const char *p, size_t n, bool zero)
{
	if (c->len + n > c->cap) {
		c->cap = (c->len + n) * 2;
		c->buf = realloc(c->buf, c->cap);
		ck_assert_ptr_nonnull(c->buf);
	}
	if (zero)
		memset(c->buf + c->len, 0, n);
	else
		memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static int
on_data(void *arg, const char *p, size_t n)
{
	struct collect	*c = arg;

	put(c, p, n, false);
	return ++c->calls == c->stop_after;
}

static int
on_hole(void *arg, uint64_t n)
{
	struct collect	*c = arg;

	c->holes += n;
	put(c, NULL, (size_t)n, true);
	return 0;
}

/* Where the last N lines of BUF (LEN bytes) begin, the plain way. */
static off_t
tail_plain(const char *buf, size_t len, int64_t n)
{
	size_t	 i;
	int64_t	 seen = 0;

	if (n == 0)
		return (off_t)len;
	for (i = len; i-- > 0;)
		if (buf[i] == '\n' && i != len - 1 && ++seen == n)
			return (off_t)i + 1;
	return 0;
}

/*
 * Random sparse files: pieces of lines and holes of 1 byte to 8 MiB
 * written at random places; read whole and in part, and tailed for 0 to
 * 30 lines, against their bytes read plainly.
 */
START_TEST(test_sparse)
{
	struct logfile		 lf;
	struct collect		 c;
	struct logfile_sink	 k = { on_data, on_hole, &c };
	char			*plain, piece[512];
	uint64_t		 s = seed + 1;
	off_t			 size, off, start, from;
	int			 round, fd, i, pieces, j, len;
	int64_t			 n;

	memset(&c, 0, sizeof c);
	for (round = 0; round < 40; round++) {
		unlink(path("sparse"));
		fd = open(path("sparse"), O_RDWR | O_CREAT, 0600);
		ck_assert_int_ge(fd, 0);
		size = (off_t)(splitmix64(&s) % (32 << 20));
		ck_assert_int_eq(ftruncate(fd, size), 0);
		pieces = (int)(splitmix64(&s) % 12);
		for (i = 0; i < pieces && size > 0; i++) {
			len = (int)(splitmix64(&s) % sizeof piece);
			for (j = 0; j < len; j++)
				piece[j] = splitmix64(&s) % 5 == 0 ? '\n' :
				    (char)('a' + splitmix64(&s) % 26);
			off = (off_t)(splitmix64(&s) % (uint64_t)size);
			ck_assert_int_eq(pwrite(fd, piece, (size_t)len, off),
			    len);
		}
		size = lseek(fd, 0, SEEK_END);
		plain = malloc((size_t)size + 1);
		ck_assert_int_eq(pread(fd, plain, (size_t)size, 0), size);
		close(fd);

		ck_assert_int_eq(logfile_open(&lf, path("sparse"), 0,
		    LOGFILE_ANY_OWNER), 0);
		c.len = 0;
		c.holes = 0;
		off = 0;
		ck_assert_int_eq(logfile_read(&lf, &off, size, &k), 0);
		ck_assert_msg(off == size && c.len == (size_t)size &&
		    memcmp(c.buf, plain, (size_t)size) == 0,
		    "seed %" PRIu64 " round %d: read differs", seed, round);
		/* From the middle to before the end. */
		from = size > 0 ? (off_t)(splitmix64(&s) % (uint64_t)size) : 0;
		c.len = 0;
		off = from;
		ck_assert_int_eq(logfile_read(&lf, &off, size - (size - from)
		    / 2, &k), 0);
		ck_assert_msg(c.len == (size_t)(size - (size - from) / 2 -
		    from) && memcmp(c.buf, plain + from, c.len) == 0,
		    "seed %" PRIu64 " round %d: part differs", seed, round);
		for (n = 0; n <= 30; n += 1 + (int64_t)(splitmix64(&s) % 7)) {
			ck_assert_int_eq(logfile_tail(&lf, size, n, &start), 0);
			ck_assert_msg(start == tail_plain(plain, (size_t)size,
			    n), "seed %" PRIu64 " round %d: tail %" PRId64
			    ": %lld, plainly %lld", seed, round, n,
			    (long long)start, (long long)tail_plain(plain,
			    (size_t)size, n));
		}
		logfile_close(&lf);
		free(plain);
	}
	free(c.buf);
}
END_TEST

/* The sink stops the reading; the size at open bounds it. */
START_TEST(test_bounds)
{
	struct logfile		 lf;
	struct collect		 c;
	struct logfile_sink	 k = { on_data, NULL, &c };
	char			 big[3 << 20];
	off_t			 off = 0;
	int			 fd;

	memset(&c, 0, sizeof c);
	memset(big, 'x', sizeof big);
	fd = open(path("big"), O_RDWR | O_CREAT, 0600);
	ck_assert_int_eq(write(fd, big, sizeof big), (ssize_t)sizeof big);
	ck_assert_int_eq(logfile_open(&lf, path("big"), 0, LOGFILE_ANY_OWNER),
	    0);
	/* Written after it was opened: not read. */
	ck_assert_int_eq(write(fd, "more\n", 5), 5);
	close(fd);
	ck_assert_int_eq(logfile_read(&lf, &off, lf.st.st_size, &k), 0);
	ck_assert_int_eq(c.len, sizeof big);
	c.len = 0;
	c.calls = 0;
	c.stop_after = 1;
	off = 0;
	ck_assert_int_eq(logfile_read(&lf, &off, lf.st.st_size, &k), -1);
	ck_assert_int_eq(c.calls, 1);
	logfile_close(&lf);
	free(c.buf);
}
END_TEST

/* 1 TiB of hole around two lines: read and tailed at once. */
START_TEST(test_terabyte)
{
	struct logfile		 lf;
	struct collect		 c;
	struct logfile_sink	 k = { on_data, NULL, &c };
	off_t			 off = 0, start, tib = (off_t)1 << 40;
	struct timespec		 t0, t1;
	struct stat		 st;
	int			 fd;

	memset(&c, 0, sizeof c);
	fd = open(path("tib"), O_RDWR | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	errno = 0;
	if (ftruncate(fd, tib) == -1 || fstat(fd, &st) == -1 ||
	    st.st_blocks > 128) {
		close(fd);
		fprintf(stderr, "check_logfile: no 1 TiB sparse file here "
		    "(%s): test_terabyte not run\n", errno != 0 ?
		    strerror(errno) : "no holes");
		return;
	}
	ck_assert_int_eq(pwrite(fd, "first\n", 6, 4096), 6);
	ck_assert_int_eq(pwrite(fd, "last\n", 5, tib / 2), 5);
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(logfile_open(&lf, path("tib"), 0, LOGFILE_ANY_OWNER),
	    0);
	ck_assert_int_eq(logfile_read(&lf, &off, lf.st.st_size, &k), 0);
	ck_assert(memmem(c.buf, c.len, "first\n", 6) != NULL);
	ck_assert(memmem(c.buf, c.len, "last\n", 5) != NULL);
	ck_assert_int_lt(c.len, 1 << 20);
	/* The last line is the hole after "last\n"; two lines back is
	 * "last". */
	ck_assert_int_eq(logfile_tail(&lf, lf.st.st_size, 1, &start), 0);
	ck_assert_int_eq(start, tib / 2 + 5);
	ck_assert_int_eq(logfile_tail(&lf, lf.st.st_size, 2, &start), 0);
	ck_assert_int_eq(start, 4096 + 6);
	ck_assert_int_eq(logfile_tail(&lf, lf.st.st_size, 5, &start), 0);
	ck_assert_int_eq(start, 0);
	logfile_close(&lf);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_msg(t1.tv_sec - t0.tv_sec < 5, "1 TiB sparse: %lld s",
	    (long long)(t1.tv_sec - t0.tv_sec));
	free(c.buf);
}
END_TEST

static Suite *
logfile_suite(void)
{
	Suite	*s = suite_create("logfile");
	TCase	*tc = tcase_create("files");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_sparse);
	tcase_add_test(tc, test_bounds);
	tcase_add_test(tc, test_terabyte);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	seed = test_seed("check_logfile");
	return run_suite(logfile_suite());
}
