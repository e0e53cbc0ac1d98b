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
 * Put the temporary file TMP at PATH in place of the regular file WAS
 * (held by the caller: its number is its own): exchanged with it (renameat2 RENAME_EXCHANGE,
 * Linux 3.15), then the file swapped out is looked at: WAS, it is
 * removed; anything else (a FIFO or a device put there since the check)
 * is swapped back, kept, and the call fails.  Where the file system
 * cannot exchange (NFS: EINVAL), PATH is looked at again just before a
 * rename: a narrower window, not none.  A file gone since the check:
 * PATH is created, as a new file is (never over what appeared).
 */
static struct error *
replace_checked(const char *tmp, const char *path, const struct stat *was)
{
	struct stat	 st;
	int		 r, e;

	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
		if (lstat(tmp, &st) == 0 && S_ISREG(st.st_mode) &&
		    st.st_dev == was->st_dev && st.st_ino == was->st_ino) {
			unlink(tmp);
			return NULL;
		}
		r = renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE);
		unlink(tmp);
		return error_new(EXIT_FAILURE_OP, "'%s': replaced by another "
		    "file since it was checked; %s", path, r == 0 ? "that file "
		    "is kept, not written" : "it could not be put back");
	}
	e = errno;
	if (e == ENOENT && lstat(path, &st) == -1 && errno == ENOENT)
		r = link(tmp, path);	/* gone: created, never over another */
	else if (e != EINVAL && e != ENOSYS) {
		errno = e;
		r = -1;
	} else if (lstat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_dev != was->st_dev || st.st_ino != was->st_ino) {
		unlink(tmp);
		return error_new(EXIT_FAILURE_OP, "'%s': replaced by another "
		    "file since it was checked; that file is kept, not "
		    "written", path);
	} else
		r = rename(tmp, path);
	e = errno;
	unlink(tmp);
	if (r == -1)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    e == EEXIST ? "file exists; kept as it is" : strerror(e));
	return NULL;
}

/*
 * Write PATH through a temporary file: linked to PATH when PATH is new
 * (link() fails if PATH appeared meanwhile: never replaced), put in
 * place of the regular file WAS when that is not NULL (replace_checked()).
 * HOOK (tests only) runs once the temporary file is written.
 */
static struct error *
write_file(const char *path, const char *data, size_t len,
    const struct stat *was, mode_t mode, void (*hook)(const char *))
{
	struct error	*err;
	char		*tmp;

	if ((err = write_temp(path, data, len, mode, &tmp)) != NULL)
		return error_prefix(err, "'%s'", path);
	if (hook != NULL)
		hook(path);
	if (was != NULL)
		err = replace_checked(tmp, path, was);
	else if (link(tmp, path) == -1)
		err = error_new(EXIT_FAILURE_OP, "'%s': %s", path, errno ==
		    EEXIST ? "file exists; kept as it is" : strerror(errno));
	if (was == NULL)
		unlink(tmp);
	free(tmp);
	return err;
}

/*
 * Replace PATH, the regular file CHECKED, with DATA.  The file is held
 * (an O_PATH descriptor, to the end) from the moment it is found to be
 * the one checked: its inode cannot be freed meanwhile and its number
 * given to a file put in its place (ext4 gives the number of a file just
 * removed to the next one made), so that replace_checked() compares with
 * that file itself.
 */
static struct error *
replace_regular(const char *path, const struct stat *checked,
    const char *data, size_t len, mode_t mode, void (*hook)(const char *))
{
	struct error	*err;
	struct stat	 st;
	int		 fd;

	if ((fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_dev != checked->st_dev || st.st_ino != checked->st_ino)
		err = error_new(EXIT_FAILURE_OP, "'%s': replaced by another "
		    "file since it was checked; that file is kept, not "
		    "written", path);
	else
		err = write_file(path, data, len, &st, mode, hook);
	close(fd);
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
atomicfile_write_hooked(const char *path, const char *data, size_t len,
    bool force, mode_t mode, bool *streamed, void (*hook)(const char *))
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
		return write_file(path, data, len, NULL, mode, hook);
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
		return replace_regular(path, &st, data, len, mode, hook);
	if ((err = link_target(path, &st, &target)) != NULL)
		return err;
	err = replace_regular(target, &st, data, len, mode, hook);
	free(target);
	return err;
}

struct error *
atomicfile_write(const char *path, const char *data, size_t len, bool force,
    mode_t mode, bool *streamed)
{
	return atomicfile_write_hooked(path, data, len, force, mode, streamed,
	    NULL);
}
