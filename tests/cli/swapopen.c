/*
 * swapopen.c: an LD_PRELOAD shim for tests/cli/logs.sh.  Right after the
 * process first opens the file named SWAPOPEN_PATH, SWAPOPEN_WITH is
 * renamed over that name: it now names another file (a FIFO, a link to
 * /dev/zero), as a job's owner can make it between a reader's check and
 * its reading, here every time.  A reader that reads the descriptor it
 * checked reads the file it checked; one that opens the name again gets
 * the other file.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

static int	 swapped;

static void
swap(const char *path)
{
	const char	*p = getenv("SWAPOPEN_PATH");
	const char	*w = getenv("SWAPOPEN_WITH");

	if (swapped || p == NULL || w == NULL || strcmp(path, p) != 0)
		return;
	swapped = 1;
	if (rename(w, p) == -1)
		perror("swapopen: rename");
}

/* The real FN with its mode when FLAGS create a file. */
#define SHIM(fn, args, call)						\
int									\
fn args									\
{									\
	static int	(*real)();					\
	mode_t		 mode = 0;					\
	va_list		 ap;						\
	int		 fd;						\
									\
	if (flags & (O_CREAT | O_TMPFILE)) {				\
		va_start(ap, flags);					\
		mode = va_arg(ap, mode_t);				\
		va_end(ap);						\
	}								\
	if (real == NULL)						\
		real = (int (*)())dlsym(RTLD_NEXT, #fn);		\
	fd = call;							\
	if (fd != -1)							\
		swap(path);						\
	return fd;							\
}

SHIM(open, (const char *path, int flags, ...), real(path, flags, mode))
SHIM(open64, (const char *path, int flags, ...), real(path, flags, mode))
SHIM(openat, (int dir, const char *path, int flags, ...),
    real(dir, path, flags, mode))
SHIM(openat64, (int dir, const char *path, int flags, ...),
    real(dir, path, flags, mode))
