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

/* The journal at PATH is open on FD: the rest of J, for appending. */
static void
journal_start(struct journal *j, int fd, const char *path)
{
	j->fd = fd;
	j->path = xstrdup(path);
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->synced_cond, NULL);
	j->written = j->synced = 0;
	j->syncing = false;
}

struct error *
journal_create(struct journal *j, const char *path, json_t *header)
{
	struct error	*err;

	int		 fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
	    0644);
	if (fd == -1) {
		if (errno == EEXIST)
			return error_hint(error_new(EXIT_USAGE, "journal '%s' "
			    "exists: it records an earlier sweep", path),
			    "add --resume to finish that sweep, or give "
			    "another --journal");
		return journal_error(path, "create");
	}
	journal_start(j, fd, path);
	if ((err = journal_append(j, header, true)) != NULL) {
		journal_close(j);
		unlink(path);
	}
	return err;
}

/*
 * An existing journal, to append to.  A last line without its newline (a
 * write a kill cut short) is cut off first: appended to, it would join
 * the next record into a line no reader could parse.
 */
struct error *
journal_open(struct journal *j, const char *path)
{
	struct stat	 st;
	off_t		 end;
	char		 c;
	int		 fd;

	if ((fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC)) == -1)
		return journal_error(path, "open");
	journal_start(j, fd, path);
	if (fstat(j->fd, &st) == -1)
		return journal_error(path, "stat");
	for (end = st.st_size; end > 0; end--) {
		if (pread(j->fd, &c, 1, end - 1) != 1)
			return journal_error(path, "read");
		if (c == '\n')
			break;
	}
	if (end != st.st_size && (ftruncate(j->fd, end) == -1 ||
	    fsync(j->fd) == -1))
		return journal_error(path, "cut a torn last line");
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
	char	*line, *text;
	size_t	 len, off = 0;
	ssize_t	 n;

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
	struct buf	 b;
	json_error_t	 je;
	json_t		*a, *o;
	char		 chunk[65536], *line, *nl;
	ssize_t		 n;
	int		 fd, lineno = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return journal_error(path, "open");
	buf_init(&b);
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || b.len + (size_t)n > JOURNAL_MAX_SIZE) {
			close(fd);
			buf_release(&b);
			return n == -1 ? journal_error(path, "read") :
			    error_new(EXIT_FAILURE_OP, "journal '%s': larger "
			    "than 256 MiB", path);
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(fd);
	a = json_array();
	for (line = b.data; line != NULL && *line != '\0'; line = nl + 1) {
		if ((nl = strchr(line, '\n')) == NULL)
			break;		/* cut short by a kill: not written */
		lineno++;
		o = json_loadb(line, (size_t)(nl - line), JSON_REJECT_DUPLICATES,
		    &je);
		if (!json_is_object(o)) {
			json_decref(o);
			json_decref(a);
			buf_release(&b);
			return error_new(EXIT_USAGE, "journal '%s': line %d is "
			    "not a journal record", path, lineno);
		}
		json_array_append_new(a, o);
	}
	buf_release(&b);
	if (json_array_size(a) == 0) {
		json_decref(a);
		return error_new(EXIT_USAGE, "journal '%s': empty", path);
	}
	*out = a;
	return NULL;
}
