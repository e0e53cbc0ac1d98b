/* atomicfile.c: whole-or-nothing file writes; see atomicfile.h. */
#include <sys/stat.h>

#include <errno.h>
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

struct error *
atomicfile_write(const char *path, const char *data, size_t len, bool force,
    mode_t mode)
{
	struct error	*err = NULL;
	const char	*slash = strrchr(path, '/');
	char		*tmp;
	mode_t		 mask;
	int		 fd;

	if (!force && access(path, F_OK) == 0)
		return error_hint(error_new(EXIT_FAILURE_OP, "'%s': file "
		    "exists; kept as it is", path), "use --force to replace it");
	if (slash != NULL)
		tmp = xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path,
		    slash + 1);
	else
		tmp = xasprintf(".%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		err = error_new(EXIT_FAILURE_OP, "'%s': %s", path,
		    strerror(errno));
		free(tmp);
		return err;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, mode & ~mask) == -1 ||
	    (err = write_all(fd, data, len)) != NULL || fsync(fd) == -1) {
		if (err == NULL)
			err = error_new(EXIT_FAILURE_OP, "%s", strerror(errno));
		goto fail;
	}
	if (close(fd) == -1) {
		fd = -1;
		err = error_new(EXIT_FAILURE_OP, "%s", strerror(errno));
		goto fail;
	}
	fd = -1;
	if (force) {
		if (rename(tmp, path) == -1) {
			err = error_new(EXIT_FAILURE_OP, "%s", strerror(errno));
			goto fail;
		}
	} else {
		/* link() fails if PATH appeared meanwhile: never replaced. */
		if (link(tmp, path) == -1) {
			err = errno == EEXIST ? error_hint(error_new(
			    EXIT_FAILURE_OP, "file exists; kept as it is"),
			    "use --force to replace it") :
			    error_new(EXIT_FAILURE_OP, "%s", strerror(errno));
			goto fail;
		}
		unlink(tmp);
	}
	free(tmp);
	return NULL;

fail:
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	return error_prefix(err, "'%s'", path);
}
