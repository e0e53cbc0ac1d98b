/*
 * logfile.c: a job's file opened once, checked, and read through the
 * descriptor checked, holes skipped; see logfile.h.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "logfile.h"
#include "xmalloc.h"

/* Read size: large, so a log of gigabytes costs few system calls. */
#define LOGFILE_CHUNK	(1024 * 1024)

int
logfile_open(struct logfile *lf, const char *path, int flags, uid_t owner)
{
	struct stat	 lst;
	int		 e;

	memset(lf, 0, sizeof *lf);
	lf->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
	    ((flags & LOGFILE_FOLLOW) ? 0 : O_NOFOLLOW));
	if (lf->fd == -1) {
		e = errno;
		/* O_NOFOLLOW's ELOOP (EMLINK on the BSDs): say which when
		 * it is the last name (lstat() only words the refusal). */
		if ((e == ELOOP || e == EMLINK) && !(flags & LOGFILE_FOLLOW) &&
		    lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			return LOGFILE_ESYMLINK;
		return e;
	}
	lf->owned = 1;
	if (fstat(lf->fd, &lf->st) == -1) {
		e = errno;
		logfile_close(lf);
		return e;
	}
	if (!S_ISREG(lf->st.st_mode))
		e = LOGFILE_ENOTREG;
	else if (owner != LOGFILE_ANY_OWNER && lf->st.st_uid != owner)
		e = LOGFILE_EOWNER;
	else
		return 0;
	close(lf->fd);
	lf->fd = -1;
	lf->owned = 0;
	return e;
}

int
logfile_open_job(struct logfile *lf, const char *path, const char *user)
{
	struct passwd	*pw;

	if (user == NULL || (pw = getpwnam(user)) == NULL) {
		memset(lf, 0, sizeof *lf);
		lf->fd = -1;
		return LOGFILE_EUSER;
	}
	return logfile_open(lf, path, 0, pw->pw_uid == geteuid() ?
	    LOGFILE_ANY_OWNER : pw->pw_uid);
}

struct error *
logfile_refused(const char *cmd, const char *job, const char *what,
    const char *path, int code, const struct logfile *lf)
{
	struct error	*err;
	char		 why[160];

	if (code == LOGFILE_EUSER)
		return error_hint(error_new(EXIT_FAILURE_OP, "%s: job %s's %s "
		    "%s is not read: its user is not known on this host", cmd,
		    job, what, path), "as another user, only a file the job's "
		    "user owns is read");
	err = error_new(EXIT_FAILURE_OP, "%s: job %s's %s %s %s", cmd, job,
	    what, path, logfile_why(code, lf, why, sizeof why));
	if (code == LOGFILE_ESYMLINK)
		error_hint(err, "a job's user can point a link at any file; "
		    "if you mean to read the file it names, read it yourself");
	else if (code == LOGFILE_EOWNER)
		error_hint(err, "the job's user can name any file as its "
		    "output; read it as that user if you mean to");
	return err;
}

int
logfile_fdopen(struct logfile *lf, int fd)
{
	memset(lf, 0, sizeof *lf);
	lf->fd = fd;
	if (fstat(fd, &lf->st) == -1) {
		lf->fd = -1;
		return errno;
	}
	return 0;
}

static const char *
kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a file";
}

const char *
logfile_why(int code, const struct logfile *lf, char *buf, size_t len)
{
	struct passwd	*pw;

	switch (code) {
	case LOGFILE_ESYMLINK:
		snprintf(buf, len, "is a symbolic link: not followed");
		break;
	case LOGFILE_ENOTREG:
		snprintf(buf, len, "is %s, not a regular file: not read",
		    lf != NULL ? kind(lf->st.st_mode) : "not a file");
		break;
	case LOGFILE_EUSER:
		snprintf(buf, len, "is not read: its user is not known on "
		    "this host");
		break;
	case LOGFILE_ECHANGED:
		snprintf(buf, len, "changed while read");
		break;
	case LOGFILE_EOWNER:
		if (lf == NULL)
			snprintf(buf, len, "is not the job's user's: not read");
		else if ((pw = getpwuid(lf->st.st_uid)) != NULL)
			snprintf(buf, len, "belongs to %s, not to the job's "
			    "user: not read", pw->pw_name);
		else
			snprintf(buf, len, "belongs to uid %lu, not to the "
			    "job's user: not read",
			    (unsigned long)lf->st.st_uid);
		break;
	default:
		snprintf(buf, len, "%s", strerror(code));
		break;
	}
	return buf;
}

void
logfile_close(struct logfile *lf)
{
	if (lf->fd != -1 && lf->owned)
		close(lf->fd);
	lf->fd = -1;
	lf->owned = 0;
}

/* A pipe (standard input) to its end. */
static int
read_stream(struct logfile *lf, const struct logfile_sink *k, char *buf)
{
	ssize_t	 n;

	for (;;) {
		n = read(lf->fd, buf, LOGFILE_CHUNK);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return errno;
		if (n == 0)
			return 0;
		if (k->data(k->arg, buf, (size_t)n) != 0)
			return -1;
	}
}

/*
 * Where data starts at or after OFF (*DATA) and where it ends (*HOLE),
 * both at most END; *DATA == END: a hole to END.  Without SEEK_DATA, all
 * is data.  A file that shrank below END lowers *END.  0 or an errno
 * value.
 */
static int
next_data(struct logfile *lf, off_t off, off_t *end, off_t *data,
    off_t *hole)
{
#ifdef SEEK_DATA
	struct stat	 st;

	if ((*data = lseek(lf->fd, off, SEEK_DATA)) == -1) {
		if (errno != ENXIO)
			return errno;
		/* Nothing but a hole after OFF, or a file that shrank. */
		if (fstat(lf->fd, &st) == -1)
			return errno;
		if (st.st_size < *end)
			*end = st.st_size > off ? st.st_size : off;
		*data = *hole = *end;
		return 0;
	}
	if (*data >= *end) {
		*data = *hole = *end;
		return 0;
	}
	if ((*hole = lseek(lf->fd, *data, SEEK_HOLE)) == -1)
		return errno == ENXIO ? (*hole = *data, 0) : errno;
	if (*hole > *end)
		*hole = *end;
#else
	*data = off;
	*hole = *end;
#endif
	return 0;
}

int
logfile_read(struct logfile *lf, off_t *off, off_t end,
    const struct logfile_sink *k)
{
	char	*buf;
	off_t	 data = 0, hole = 0;
	ssize_t	 n;
	int	 rc = 0;

	buf = xmalloc(LOGFILE_CHUNK);
	if (!S_ISREG(lf->st.st_mode)) {
		rc = read_stream(lf, k, buf);
		free(buf);
		return rc;
	}
#ifdef POSIX_FADV_SEQUENTIAL
	(void)posix_fadvise(lf->fd, *off, 0, POSIX_FADV_SEQUENTIAL);
#endif
	while (*off < end && rc == 0) {
		if ((rc = next_data(lf, *off, &end, &data, &hole)) != 0)
			break;
		if (data > *off) {
			if (k->hole != NULL && k->hole(k->arg,
			    (uint64_t)(data - *off)) != 0)
				rc = -1;
			*off = data;
			continue;
		}
		while (*off < hole) {
			n = pread(lf->fd, buf, hole - *off < LOGFILE_CHUNK ?
			    (size_t)(hole - *off) : LOGFILE_CHUNK, *off);
			if (n == -1 && errno == EINTR)
				continue;
			if (n == -1) {
				rc = errno;
				break;
			}
			if (n == 0) {		/* it shrank: ends here */
				end = *off;
				break;
			}
			*off += n;
			if (k->data(k->arg, buf, (size_t)n) != 0) {
				rc = -1;
				break;
			}
		}
	}
	free(buf);
	return rc;
}

#ifdef SEEK_DATA
/*
 * The last data before POS: [*S, *E) with *E <= POS the largest; 0, an
 * errno value, or -1 when there is none (all hole).  Windows before POS
 * that double while they hold no data find a hole's start in few calls
 * whatever its size; then the extents in the last window are walked.
 */
static int
data_before(struct logfile *lf, off_t pos, off_t *s, off_t *e)
{
	off_t	 step = 65536, q, d, h, next;

	for (;;) {
		q = pos > step ? pos - step : 0;
		d = lseek(lf->fd, q, SEEK_DATA);
		if (d == -1 && errno != ENXIO)
			return errno;
		if (d != -1 && d < pos)
			break;
		if (q == 0)
			return -1;
		step = step > (pos / 2) ? pos : step * 2;
	}
	for (;;) {
		if ((h = lseek(lf->fd, d, SEEK_HOLE)) == -1)
			return errno == ENXIO ? -1 : errno;
		if (h >= pos) {
			*s = d;
			*e = pos;
			return 0;
		}
		next = lseek(lf->fd, h, SEEK_DATA);
		if (next == -1 && errno != ENXIO)
			return errno;
		if (next == -1 || next >= pos) {
			*s = d;
			*e = h;
			return 0;
		}
		d = next;
	}
}
#else
static int
data_before(struct logfile *lf, off_t pos, off_t *s, off_t *e)
{
	(void)lf;
	*s = 0;
	*e = pos;
	return pos > 0 ? 0 : -1;
}
#endif

int
logfile_tail(struct logfile *lf, off_t end, int64_t n, off_t *start)
{
	char	*buf;
	off_t	 pos = end, s = 0, e = 0, b;
	ssize_t	 got, i;
	int64_t	 seen = 0;
	int	 rc;

	*start = n == 0 ? end : 0;
	if (n == 0)
		return 0;
	buf = xmalloc(LOGFILE_CHUNK);
	while (pos > 0) {
		if ((rc = data_before(lf, pos, &s, &e)) != 0) {
			rc = rc == -1 ? 0 : rc;
			break;
		}
		/* [s, e) backwards, a chunk at a time. */
		for (; e > s; e = b) {
			b = e - s > LOGFILE_CHUNK ? e - LOGFILE_CHUNK : s;
			got = pread(lf->fd, buf, (size_t)(e - b), b);
			if (got == -1 && errno == EINTR) {
				b = e;
				continue;
			}
			if (got != e - b) {
				rc = got == -1 ? errno : LOGFILE_ECHANGED;
				goto out;
			}
			for (i = got - 1; i >= 0; i--) {
				if (buf[i] != '\n' || b + i == end - 1)
					continue;
				if (++seen == n) {
					*start = b + i + 1;
					rc = 0;
					goto out;
				}
			}
		}
		pos = s;
		rc = 0;
	}
out:
	free(buf);
	return rc;
}

struct print_sink {
	FILE		*out;
	uint64_t	*holes;
	int		 werr;
};

static int
print_data(void *arg, const char *buf, size_t n)
{
	struct print_sink	*p = arg;

	if (fwrite(buf, 1, n, p->out) != n) {
		p->werr = errno != 0 ? errno : EIO;
		return 1;
	}
	return 0;
}

static int
print_hole(void *arg, uint64_t n)
{
	struct print_sink	*p = arg;

	*p->holes += n;
	return 0;
}

int
logfile_print(struct logfile *lf, off_t *off, off_t end, FILE *out,
    uint64_t *holes, int *werr)
{
	struct print_sink	 p = { out, holes, 0 };
	struct logfile_sink	 k = { print_data, print_hole, &p };
	int			 rc;

	*werr = 0;
	errno = 0;
	rc = logfile_read(lf, off, end, &k);
	if (rc == 0 && fflush(out) != 0) {
		p.werr = errno != 0 ? errno : EIO;
		rc = -1;
	}
	if (rc == -1) {
		*werr = p.werr;
		return LOGFILE_EWRITE;
	}
	return rc;
}

int
logfile_print_tail(struct logfile *lf, int64_t n, off_t *off, FILE *out,
    uint64_t *holes, int *werr)
{
	int	 rc;

	*off = 0;
	*werr = 0;
	if (n >= 0 && (rc = logfile_tail(lf, lf->st.st_size, n, off)) != 0)
		return rc;
	return logfile_print(lf, off, lf->st.st_size, out, holes, werr);
}
