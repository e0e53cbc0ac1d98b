/* atomicfile.c: whole-or-nothing file writes; see atomicfile.h. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomicfile.h"
#include "error.h"
#include "xmalloc.h"

static struct error *
write_all(int fd, const char *data, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error_new(EXIT_FAILURE_OP, "%s",
			    n < 0 ? strerror(errno) : "short write");
		data += n;
		len -= (size_t)n;
	}
	return NULL;
}

static bool
is_stream(mode_t mode)
{
	return S_ISCHR(mode) || S_ISFIFO(mode);
}

/* What PATH is, for a refusal; NULL for what may be written. */
static const char *
refused_kind(mode_t mode)
{
	if (S_ISREG(mode) || is_stream(mode))
		return NULL;
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

/*
 * A character device or FIFO (/dev/null, /dev/stdout, a pipe) is written
 * in place, as a shell redirection would: no temporary file, no rename,
 * nothing created (no O_CREAT), so the node is never replaced.
 */
static struct error *
write_stream(const char *path, const char *data, size_t len)
{
	struct error	*err = NULL;
	struct stat	 st;
	int		 fd;

	if ((fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)) == -1)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	/* Swapped for a file since lstat()?  Then it is not ours to write. */
	if (fstat(fd, &st) == -1)
		err = error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	else if (!is_stream(st.st_mode))
		err = error_new(EXIT_FAILURE_OP, "'%s': replaced while being "
		    "opened; not written", path);
	else if ((err = write_all(fd, data, len)) != NULL)
		err = error_prefix(err, "'%s'", path);
	if (close(fd) == -1 && err == NULL)
		err = error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	return err;
}

/* Write DATA to a new temporary file beside PATH, named in *TMP. */
static struct error *
write_temp(const char *path, const char *data, size_t len, mode_t mode,
    char **tmp)
{
	struct error	*err = NULL;
	const char	*slash = strrchr(path, '/');
	mode_t		 mask;
	int		 fd;

	if (slash != NULL)
		*tmp = xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path,
		    slash + 1);
	else
		*tmp = xasprintf(".%s.XXXXXX", path);
	if ((fd = mkstemp(*tmp)) == -1) {
		err = error_new(EXIT_FAILURE_OP, "%s", strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return err;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, mode & ~mask) == -1 ||
	    (err = write_all(fd, data, len)) != NULL || fsync(fd) == -1) {
		if (err == NULL)
			err = error_new(EXIT_FAILURE_OP, "%s", strerror(errno));
		close(fd);
	} else if (close(fd) == -1)
		err = error_new(EXIT_FAILURE_OP, "%s", strerror(errno));
	if (err != NULL) {
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
	}
	return err;
}

/*
 * Write PATH through a temporary file: linked to PATH when PATH is new
 * (link() fails if PATH appeared meanwhile: never replaced), renamed over
 * it when REPLACE.
 */
static struct error *
write_file(const char *path, const char *data, size_t len, bool replace,
    mode_t mode)
{
	struct error	*err;
	char		*tmp;
	int		 r;

	if ((err = write_temp(path, data, len, mode, &tmp)) != NULL)
		return error_prefix(err, "'%s'", path);
	r = replace ? rename(tmp, path) : link(tmp, path);
	if (r == -1 && errno == EEXIST)
		err = error_new(EXIT_FAILURE_OP, "'%s': file exists; kept as "
		    "it is", path);
	else if (r == -1)
		err = error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	if (r == -1 || !replace)
		unlink(tmp);
	free(tmp);
	return err;
}

/*
 * The file a symbolic link PATH leads to, as a path to rename over.  ST
 * is what stat(PATH) found: the kernel followed the link (with its own
 * rules for links in sticky directories); the name realpath() spells
 * must be that same file.
 */
static struct error *
link_target(const char *path, const struct stat *st, char **out)
{
	struct stat	 tst;
	char		*target;

	if ((target = realpath(path, NULL)) == NULL)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	if (stat(target, &tst) == -1 || tst.st_dev != st->st_dev ||
	    tst.st_ino != st->st_ino) {
		free(target);
		return error_new(EXIT_FAILURE_OP, "'%s': the file its symbolic "
		    "link leads to cannot be named", path);
	}
	*out = target;
	return NULL;
}

struct error *
atomicfile_write(const char *path, const char *data, size_t len, bool force,
    mode_t mode, bool *streamed)
{
	struct error	*err;
	struct stat	 st;
	const char	*kind;
	char		*target = NULL;
	bool		 is_link;

	*streamed = false;
	if (lstat(path, &st) == -1) {
		if (errno != ENOENT)
			return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
			    strerror(errno));
		return write_file(path, data, len, false, mode);
	}
	if ((is_link = S_ISLNK(st.st_mode)) && stat(path, &st) == -1)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", path, errno ==
		    ENOENT ? "symbolic link to nothing; no file is created "
		    "through a link" : strerror(errno));
	if ((kind = refused_kind(st.st_mode)) != NULL)
		return error_new(EXIT_FAILURE_OP, "'%s': %s; only regular "
		    "files, character devices and FIFOs are written", path,
		    kind);
	if (is_stream(st.st_mode)) {
		*streamed = true;
		return write_stream(path, data, len);
	}
	if (!force)
		return error_hint(error_new(EXIT_FAILURE_OP, "'%s': file "
		    "exists; kept as it is", path), "use --force to replace it");
	if (!is_link)
		return write_file(path, data, len, true, mode);
	if ((err = link_target(path, &st, &target)) != NULL)
		return err;
	err = write_file(target, data, len, true, mode);
	free(target);
	return err;
}
