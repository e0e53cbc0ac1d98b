/*
 * submitted.c: the record of the jobs this user queued (submitted.h).
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "submitted.h"
#include "xmalloc.h"

#define RECORD_VERSION	1
/* A line longer than this is not a record (four paths of PATH_MAX fit). */
#define LINE_MAX_BYTES	(64 * 1024)
/* How often an appender opens the file again after finding it replaced
 * by another's rewrite before it gives up. */
#define REOPEN_TRIES	16

void
submitted_release(struct submitted *s)
{
	free(s->cluster);
	free(s->backend);
	free(s->slurm);
	free(s->user);
	free(s->name);
	free(s->workdir);
	free(s->array);
	free(s->out.pattern);
	free(s->out.path);
	free(s->err.pattern);
	free(s->err.path);
	memset(s, 0, sizeof *s);
}

/* $XDG_STATE_HOME when absolute (the XDG spec ignores a relative one),
 * else ~/.local/state; NULL when neither is known. */
static char *
state_home(void)
{
	const char	*xdg = getenv("XDG_STATE_HOME");
	const char	*home = getenv("HOME");

	if (xdg != NULL && xdg[0] == '/')
		return xstrdup(xdg);
	if (home != NULL && home[0] == '/')
		return xasprintf("%s/.local/state", home);
	return NULL;
}

static char *
record_dir(void)
{
	char	*base, *dir;

	if ((base = state_home()) == NULL)
		return NULL;
	dir = xasprintf("%s/mbsbatch", base);
	free(base);
	return dir;
}

char *
submitted_file(void)
{
	char	*dir, *file;

	if ((dir = record_dir()) == NULL)
		return NULL;
	file = xasprintf("%s/submitted.jsonl", dir);
	free(dir);
	return file;
}

/* A string as JSON: itself when it is UTF-8, else {"hex": "..."} (a job
 * name or path may hold any byte but NUL). */
static json_t *
bytes_json(const char *s)
{
	static const char	 digits[] = "0123456789abcdef";
	json_t			*j;
	char			*hex;
	size_t			 i, n;

	if (s == NULL)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	n = strlen(s);
	hex = xmalloc(2 * n + 1);
	for (i = 0; i < n; i++) {
		hex[2 * i] = digits[(unsigned char)s[i] >> 4];
		hex[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	hex[2 * n] = '\0';
	j = json_pack("{s:s}", "hex", hex);
	free(hex);
	return j;
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The other way: *OUT a new string, or NULL for null; false when J is
 * neither (nor a string holding a NUL). */
static bool
json_bytes(json_t *j, char **out)
{
	const char	*hex;
	size_t		 i, n;
	int		 hi, lo;

	*out = NULL;
	if (j == NULL || json_is_null(j))
		return true;
	if (json_is_string(j)) {
		if (strlen(json_string_value(j)) != json_string_length(j))
			return false;
		*out = xstrdup(json_string_value(j));
		return true;
	}
	if (!json_is_object(j) || json_object_size(j) != 1 ||
	    (hex = json_string_value(json_object_get(j, "hex"))) == NULL ||
	    (n = strlen(hex)) % 2 != 0)
		return false;
	*out = xmalloc(n / 2 + 1);
	for (i = 0; i < n / 2; i++) {
		hi = hex_digit(hex[2 * i]);
		lo = hex_digit(hex[2 * i + 1]);
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
			free(*out);
			*out = NULL;
			return false;
		}
		(*out)[i] = (char)(hi << 4 | lo);
	}
	(*out)[n / 2] = '\0';
	return true;
}

static json_t *
file_json(const struct submitted_file *f)
{
	return json_pack("{s:o,s:o}", "pattern", bytes_json(f->pattern),
	    "path", bytes_json(f->path));
}

char *
submitted_format(const struct submitted *s)
{
	json_t	*o;
	char	*line;

	o = json_pack("{s:i,s:I,s:I,s:o,s:o,s:o,s:i,s:o,s:o,s:o,s:o,s:o,"
	    "s:o}",
	    "v", RECORD_VERSION,
	    "job_id", (json_int_t)s->job_id,
	    "time", (json_int_t)s->time,
	    "cluster", bytes_json(s->cluster),
	    "backend", bytes_json(s->backend),
	    "slurm", bytes_json(s->slurm),
	    "release", s->release,
	    "user", bytes_json(s->user),
	    "name", bytes_json(s->name),
	    "workdir", bytes_json(s->workdir),
	    "array", bytes_json(s->array),
	    "output", file_json(&s->out),
	    "error", s->err_with_out ? json_null() : file_json(&s->err));
	if (s->after > 0)
		json_object_set_new(o, "after", json_integer(s->after));
	/* ASCII: a newline in a value is "\n", the line stays one line. */
	line = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	return line;
}

static bool
parse_file(json_t *j, struct submitted_file *f)
{
	return json_is_object(j) &&
	    json_bytes(json_object_get(j, "pattern"), &f->pattern) &&
	    json_bytes(json_object_get(j, "path"), &f->path);
}

static bool
parse_int(json_t *o, const char *key, int64_t min, int64_t max, int64_t *out)
{
	json_t	*j = json_object_get(o, key);

	*out = 0;
	if (j == NULL || json_is_null(j))
		return true;
	if (!json_is_integer(j) || json_integer_value(j) < min ||
	    json_integer_value(j) > max)
		return false;
	*out = json_integer_value(j);
	return true;
}

bool
submitted_parse(const char *line, struct submitted *s)
{
	json_t		*o, *e;
	int64_t		 v, release;
	bool		 ok;

	memset(s, 0, sizeof *s);
	if ((o = json_loads(line, JSON_REJECT_DUPLICATES, NULL)) == NULL)
		return false;
	e = json_object_get(o, "error");
	ok = json_is_object(o) &&
	    parse_int(o, "v", 0, INT64_MAX, &v) && v == RECORD_VERSION &&
	    parse_int(o, "job_id", 1, UINT32_MAX, &s->job_id) &&
	    s->job_id > 0 &&
	    parse_int(o, "time", 0, INT64_MAX, &s->time) &&
	    parse_int(o, "release", 0, 9999, &release) &&
	    json_bytes(json_object_get(o, "cluster"), &s->cluster) &&
	    json_bytes(json_object_get(o, "backend"), &s->backend) &&
	    json_bytes(json_object_get(o, "slurm"), &s->slurm) &&
	    json_bytes(json_object_get(o, "user"), &s->user) &&
	    json_bytes(json_object_get(o, "name"), &s->name) &&
	    json_bytes(json_object_get(o, "workdir"), &s->workdir) &&
	    json_bytes(json_object_get(o, "array"), &s->array) &&
	    parse_file(json_object_get(o, "output"), &s->out) &&
	    (json_is_null(e) || parse_file(e, &s->err)) &&
	    parse_int(o, "after", 0, UINT32_MAX, &s->after);
	s->release = (int)release;
	s->err_with_out = json_is_null(e);
	json_decref(o);
	if (!ok)
		submitted_release(s);
	return ok;
}

/*
 * Make DIR and each missing directory above it, 0700 (the XDG spec's
 * mode for the state directory); DIR must then be a directory of this
 * user's, not a link.
 */
static struct error *
make_dir(const char *dir)
{
	struct stat	 st;
	char		*copy = xstrdup(dir), *p;
	int		 e = 0;

	for (p = copy + 1; e == 0; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char	 c = *p;

			*p = '\0';
			if (mkdir(copy, 0700) == -1 && errno != EEXIST)
				e = errno;
			*p = c;
		}
		if (*p == '\0')
			break;
	}
	free(copy);
	if (e != 0)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", dir,
		    strerror(e));
	if (lstat(dir, &st) == -1)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", dir,
		    strerror(errno));
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return error_new(EXIT_FAILURE_OP, "'%s' is not a directory "
		    "of this user's", dir);
	return NULL;
}

/* FD, open on PATH: a regular file of this user's. */
static struct error *
check_fd(int fd, const char *path, struct stat *st)
{
	if (fstat(fd, st) == -1)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	if (!S_ISREG(st->st_mode) || st->st_uid != geteuid())
		return error_new(EXIT_FAILURE_OP, "'%s' is not a regular file "
		    "of this user's", path);
	return NULL;
}

/* Read LEN bytes at OFF (fewer at the end of the file) onto B. */
static struct error *
read_at(int fd, const char *path, off_t off, size_t len, struct buf *b)
{
	char	 chunk[65536];
	ssize_t	 n;

	while (len > 0) {
		n = pread(fd, chunk, len < sizeof chunk ? len : sizeof chunk,
		    off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
			    strerror(errno));
		if (n == 0)
			break;
		buf_add(b, chunk, (size_t)n);
		off += n;
		len -= (size_t)n;
	}
	return NULL;
}

static struct error *
write_all(int fd, const char *path, const char *data, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		n = write(fd, data, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
			    strerror(errno));
		data += n;
		len -= (size_t)n;
	}
	return NULL;
}

/*
 * The file is too large: rewrite it (FD, locked, SIZE bytes) with its
 * newest whole lines, half SUBMITTED_MAX_BYTES at most, into a temporary
 * file renamed over it.
 */
static struct error *
rewrite(int fd, const char *path, off_t size)
{
	struct buf	 b;
	struct error	*err;
	const char	*start;
	char		*tmp;
	off_t		 from;
	int		 tfd;

	buf_init(&b);
	from = size > SUBMITTED_MAX_BYTES / 2 ? size - SUBMITTED_MAX_BYTES / 2
	    : 0;
	if ((err = read_at(fd, path, from, (size_t)(size - from), &b)) !=
	    NULL) {
		buf_release(&b);
		return err;
	}
	/* From the first whole line: after the first newline, unless the
	 * part read starts at the file's start or after a newline. */
	start = b.data;
	if (from > 0) {
		char	 c;

		if (pread(fd, &c, 1, from - 1) != 1 || c != '\n')
			start = (start = memchr(b.data, '\n', b.len)) != NULL ?
			    start + 1 : b.data + b.len;
	}
	tmp = xasprintf("%s.XXXXXX", path);
	if ((tfd = mkstemp(tmp)) == -1) {
		err = error_new(EXIT_FAILURE_OP, "'%s': %s", tmp,
		    strerror(errno));
		goto out;
	}
	if ((err = write_all(tfd, tmp, start, b.len - (size_t)(start -
	    b.data))) == NULL && (fchmod(tfd, 0600) == -1 ||
	    fsync(tfd) == -1 || rename(tmp, path) == -1))
		err = error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	close(tfd);
	if (err != NULL)
		unlink(tmp);
out:
	free(tmp);
	buf_release(&b);
	return err;
}

/*
 * PATH opened for appending and locked, *FD; still the file PATH names
 * (another's rewrite may have replaced the one opened, then it is opened
 * again).  Rewritten first when LEN more bytes would take it past
 * SUBMITTED_MAX_BYTES.  *SIZE: its size.
 */
static struct error *
open_locked(const char *path, size_t len, int *fd, off_t *size)
{
	struct stat	 st, now;
	struct error	*err;
	int		 tries;

	for (tries = 0; tries < REOPEN_TRIES; tries++) {
		if ((*fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW |
		    O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600)) == -1)
			return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
			    strerror(errno));
		if ((err = check_fd(*fd, path, &st)) != NULL)
			goto fail;
		while (flock(*fd, LOCK_EX) == -1)
			if (errno != EINTR) {
				err = error_new(EXIT_FAILURE_OP, "'%s': lock: "
				    "%s", path, strerror(errno));
				goto fail;
			}
		if (lstat(path, &now) == -1 || now.st_dev != st.st_dev ||
		    now.st_ino != st.st_ino) {
			close(*fd);
			continue;
		}
		if (fstat(*fd, &st) == -1) {
			err = error_new(EXIT_FAILURE_OP, "'%s': %s", path,
			    strerror(errno));
			goto fail;
		}
		if (st.st_size + (off_t)len <= SUBMITTED_MAX_BYTES) {
			*size = st.st_size;
			return NULL;
		}
		if ((err = rewrite(*fd, path, st.st_size)) != NULL)
			goto fail;
		close(*fd);
	}
	return error_new(EXIT_FAILURE_OP, "'%s': replaced %d times while "
	    "being opened", path, REOPEN_TRIES);
fail:
	close(*fd);
	*fd = -1;
	return err;
}

struct error *
submitted_add(const struct submitted *s)
{
	struct error	*err;
	char		*dir = NULL, *path = NULL, *line = NULL, *text;
	char		 last;
	off_t		 size;
	int		 fd = -1;

	if ((dir = record_dir()) == NULL)
		return error_new(EXIT_FAILURE_OP, "no state directory (neither "
		    "XDG_STATE_HOME nor HOME is an absolute path)");
	path = submitted_file();
	if ((line = submitted_format(s)) == NULL) {
		err = error_new(EXIT_FAILURE_OP, "'%s': job %lld cannot be "
		    "written as JSON", path, (long long)s->job_id);
		goto out;
	}
	if (strlen(line) + 2 > LINE_MAX_BYTES) {
		err = error_new(EXIT_FAILURE_OP, "'%s': job %lld's record "
		    "would be longer than %d bytes", path, (long long)s->job_id,
		    LINE_MAX_BYTES);
		goto out;
	}
	if ((err = make_dir(dir)) != NULL ||
	    (err = open_locked(path, strlen(line) + 2, &fd, &size)) != NULL)
		goto out;
	/* After a line a crash cut short, a line of its own. */
	text = size > 0 && (pread(fd, &last, 1, size - 1) != 1 ||
	    last != '\n') ? xasprintf("\n%s\n", line) :
	    xasprintf("%s\n", line);
	err = write_all(fd, path, text, strlen(text));
	free(text);
out:
	if (fd != -1)
		close(fd);
	free(line);
	free(path);
	free(dir);
	return err;
}

static bool
same(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

/* The newest line of B that is a record of CLUSTER's job JOB_ID, or
 * (NEXT) of the job that follows it in a chain. */
static bool
find_line(struct buf *b, const char *cluster, int64_t job_id, bool next,
    struct submitted *s)
{
	char	*end = b->data + b->len, *line;

	while (end > b->data) {
		*end = '\0';
		for (line = end; line > b->data && line[-1] != '\n'; line--)
			;
		end = line > b->data ? line - 1 : b->data;
		if (end - line > LINE_MAX_BYTES || *line != '{' ||
		    !submitted_parse(line, s))
			continue;
		if ((next ? s->after : s->job_id) == job_id &&
		    same(s->cluster, cluster))
			return true;
		submitted_release(s);
	}
	return false;
}

static struct error *
find_record(const char *cluster, int64_t job_id, bool next,
    struct submitted *s, bool *found)
{
	struct stat	 st;
	struct buf	 b;
	struct error	*err;
	char		*path;
	off_t		 from;
	int		 fd;

	memset(s, 0, sizeof *s);
	*found = false;
	if ((path = submitted_file()) == NULL)
		return NULL;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) == -1) {
		err = errno == ENOENT || errno == ENOTDIR ? NULL :
		    error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
		free(path);
		return err;
	}
	buf_init(&b);
	/* Its newest lines only, should it have grown past its bound. */
	if ((err = check_fd(fd, path, &st)) == NULL) {
		from = st.st_size > 2 * SUBMITTED_MAX_BYTES ?
		    st.st_size - 2 * SUBMITTED_MAX_BYTES : 0;
		err = read_at(fd, path, from, (size_t)(st.st_size - from), &b);
	}
	close(fd);
	if (err == NULL)
		*found = find_line(&b, cluster, job_id, next, s);
	buf_release(&b);
	free(path);
	return err;
}

struct error *
submitted_find(const char *cluster, int64_t job_id, struct submitted *s,
    bool *found)
{
	return find_record(cluster, job_id, false, s, found);
}

struct error *
submitted_find_next(const char *cluster, int64_t job_id, struct submitted *s,
    bool *found)
{
	return find_record(cluster, job_id, true, s, found);
}
