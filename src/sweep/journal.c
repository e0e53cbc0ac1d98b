/*
 * journal.c: a sweep's journal; see journal.h.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "error.h"
#include "journal.h"
#include "xmalloc.h"

#define JOURNAL_MAX_SIZE	(256 * 1024 * 1024)

static struct error *
journal_error(const char *path, const char *what)
{
	return error_new(EXIT_FAILURE_OP, "journal '%s': %s: %s", path, what,
	    strerror(errno));
}

/* PATH is there: a new sweep never writes over it. */
static struct error *
exists_error(const char *path)
{
	return error_hint(error_new(EXIT_USAGE, "journal '%s' exists: it "
	    "records an earlier sweep", path), "add --resume to finish that "
	    "sweep, or give another --journal");
}

struct error *
journal_check_new(const char *path)
{
	struct stat	 st;

	return lstat(path, &st) == 0 ? exists_error(path) : NULL;
}

/*
 * Open PATH with FLAGS as a journal: a regular file, not a symbolic link,
 * opened without blocking (a FIFO would wait for a writer forever) and
 * then made blocking again.
 */
static struct error *
journal_fd(const char *path, int flags, int *fd)
{
	struct error	*err = NULL;
	struct stat	 st;

	*fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (*fd == -1 && errno == ELOOP)
		return error_hint(error_new(EXIT_USAGE, "journal '%s': a "
		    "symbolic link", path), "give the journal's own path");
	if (*fd == -1 && errno == EEXIST)
		return exists_error(path);
	if (*fd == -1)
		return journal_error(path, (flags & O_CREAT) ? "create" :
		    "open");
	if (fstat(*fd, &st) == -1)
		err = journal_error(path, "stat");
	else if (!S_ISREG(st.st_mode))
		err = error_new(EXIT_USAGE, "journal '%s': not a regular file",
		    path);
	else if (fcntl(*fd, F_SETFL, flags & O_APPEND) == -1)
		err = journal_error(path, "open");
	if (err != NULL) {
		close(*fd);
		*fd = -1;
	}
	return err;
}

/* The journal at PATH is open on FD: the rest of J, for appending. */
static void
journal_start(struct journal *j, int fd, const char *path)
{
	j->fd = fd;
	j->path = xstrdup(path);
	j->whole = -1;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->synced_cond, NULL);
	j->written = j->synced = 0;
	j->syncing = false;
}

/*
 * Hold the journal's write lock, or say which process does.  A POSIX
 * lock (not flock) so that F_GETLK names the holder; the kernel drops it
 * with the process.
 */
static struct error *
journal_lock(struct journal *j)
{
	struct flock	 fl;

	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(j->fd, F_SETLK, &fl) == 0)
		return NULL;
	if (errno != EACCES && errno != EAGAIN)
		return journal_error(j->path, "lock");
	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	if (fcntl(j->fd, F_GETLK, &fl) == -1 || fl.l_type == F_UNLCK)
		fl.l_pid = 0;
	return error_hint(error_new(EXIT_FAILURE_OP, "journal '%s': in use "
	    "by process %ld", j->path, (long)fl.l_pid), "another mbsbatch "
	    "sweep is queuing these points: let it finish, or stop it "
	    "first");
}

struct error *
journal_create(struct journal *j, const char *path, json_t *header)
{
	struct error	*err;
	int		 fd;

	if ((err = journal_fd(path, O_RDWR | O_CREAT | O_EXCL | O_APPEND,
	    &fd)) != NULL)
		return err;
	journal_start(j, fd, path);
	j->whole = 0;
	if ((err = journal_lock(j)) == NULL &&
	    (err = journal_append(j, header, true)) == NULL)
		return NULL;
	unlink(path);
	journal_close(j);
	return err;
}

/* Every byte of the journal open on FD, at most JOURNAL_MAX_SIZE. */
static struct error *
journal_slurp(int fd, const char *path, struct buf *b)
{
	char		 chunk[65536];
	ssize_t		 n;
	off_t		 off = 0;

	buf_init(b);
	while ((n = pread(fd, chunk, sizeof chunk, off)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || b->len + (size_t)n > JOURNAL_MAX_SIZE) {
			buf_release(b);
			return n == -1 ? journal_error(path, "read") :
			    error_new(EXIT_FAILURE_OP, "journal '%s': larger "
			    "than 256 MiB", path);
		}
		buf_add(b, chunk, (size_t)n);
		off += n;
	}
	return NULL;
}

struct error *
journal_open(struct journal *j, const char *path, json_t **lines)
{
	struct error	*err;
	struct buf	 b;
	size_t		 whole;
	int		 fd;

	*lines = NULL;
	if ((err = journal_fd(path, O_RDWR | O_APPEND, &fd)) != NULL)
		return err;
	journal_start(j, fd, path);
	if ((err = journal_lock(j)) != NULL ||
	    (err = journal_slurp(fd, path, &b)) != NULL)
		return err;
	err = journal_parse(path, b.data, b.len, lines, &whole);
	j->whole = (off_t)whole;
	buf_release(&b);
	return err;
}

/*
 * A last line without its newline (a write a kill cut short) is cut off:
 * appended to, it would join the next record into a line no reader
 * could parse.
 */
struct error *
journal_cut_torn(struct journal *j)
{
	struct stat	 st;

	if (fstat(j->fd, &st) == -1)
		return journal_error(j->path, "stat");
	if (j->whole >= 0 && st.st_size > j->whole &&
	    (ftruncate(j->fd, j->whole) == -1 || fsync(j->fd) == -1))
		return journal_error(j->path, "cut a torn last line");
	j->whole = -1;
	return NULL;
}

struct error *
journal_append(struct journal *j, json_t *obj, bool sync)
{
	struct error	*err;
	uint64_t	 seq;

	if ((err = journal_write(j, obj, &seq)) != NULL || !sync)
		return err;
	return journal_sync(j, seq);
}

struct error *
journal_write(struct journal *j, json_t *obj, uint64_t *seq)
{
	char		*line, *text;
	size_t		 len, off = 0;
	ssize_t		 n;

	text = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (text == NULL)
		return error_new(EXIT_FAILURE_OP, "journal '%s': cannot "
		    "encode a record", j->path);
	line = xasprintf("%s\n", text);
	free(text);
	len = strlen(line);
	while (off < len) {
		n = write(j->fd, line + off, len - off);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			free(line);
			return journal_error(j->path, "write");
		}
		off += (size_t)n;
	}
	free(line);
	pthread_mutex_lock(&j->lock);
	*seq = ++j->written;
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/*
 * Group commit: an fsync covers every line written before it began, so a
 * caller whose line was written while another's fsync ran waits for it to
 * end and then runs one for all such lines.
 */
struct error *
journal_sync(struct journal *j, uint64_t seq)
{
	struct error	*err = NULL;
	uint64_t	 upto;
	int		 rc;

	pthread_mutex_lock(&j->lock);
	while (j->synced < seq && err == NULL) {
		if (j->syncing) {
			pthread_cond_wait(&j->synced_cond, &j->lock);
			continue;
		}
		j->syncing = true;
		upto = j->written;
		pthread_mutex_unlock(&j->lock);
		rc = fsync(j->fd);
		if (rc == -1)
			err = journal_error(j->path, "fsync");
		pthread_mutex_lock(&j->lock);
		j->syncing = false;
		if (rc == 0 && upto > j->synced)
			j->synced = upto;
		pthread_cond_broadcast(&j->synced_cond);
	}
	pthread_mutex_unlock(&j->lock);
	return err;
}

void
journal_close(struct journal *j)
{
	if (j->path != NULL) {
		pthread_mutex_destroy(&j->lock);
		pthread_cond_destroy(&j->synced_cond);
	}
	if (j->fd != -1)
		close(j->fd);
	free(j->path);
	j->fd = -1;
	j->path = NULL;
}

struct error *
journal_read(const char *path, json_t **out)
{
	struct error	*err;
	struct buf	 b;
	size_t		 whole;
	int		 fd;

	if ((err = journal_fd(path, O_RDONLY, &fd)) != NULL)
		return err;
	err = journal_slurp(fd, path, &b);
	close(fd);
	if (err != NULL)
		return err;
	err = journal_parse(path, b.data, b.len, out, &whole);
	buf_release(&b);
	return err;
}

/*
 * Lines end at each newline, whatever bytes they hold: a NUL makes its
 * line unreadable, it does not end the journal.
 */
struct error *
journal_parse(const char *path, const char *data, size_t len, json_t **out,
    size_t *whole)
{
	json_error_t	 je;
	json_t		*a, *o;
	const char	*line, *nl, *end = data + len;
	int		 lineno = 0;

	*out = NULL;
	a = json_array();
	for (line = data; line < end; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			break;		/* cut short by a kill: not written */
		lineno++;
		o = json_loadb(line, (size_t)(nl - line), JSON_REJECT_DUPLICATES,
		    &je);
		if (!json_is_object(o)) {
			json_decref(o);
			json_decref(a);
			return error_new(EXIT_USAGE, "journal '%s': line %d is "
			    "not a journal record", path, lineno);
		}
		json_array_append_new(a, o);
	}
	*whole = (size_t)(line - data);
	if (json_array_size(a) == 0) {
		json_decref(a);
		return error_new(EXIT_USAGE, "journal '%s': empty", path);
	}
	*out = a;
	return NULL;
}
