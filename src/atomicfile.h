/*
 * atomicfile.h: write a whole file or nothing (SPEC section 3, gen -o):
 * a temporary file in the same directory, written, synced and renamed
 * over the target, so a reader never sees half a file and a failed write
 * (a full disk) leaves the old file as it was.
 */
#ifndef MBSBATCH_ATOMICFILE_H
#define MBSBATCH_ATOMICFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct error;

/*
 * Write LEN bytes of DATA to PATH with MODE (less the umask).  Unless
 * FORCE, an existing PATH is kept and the call fails (EXIT_FAILURE_OP,
 * with a hint to use --force); the check and the final link are one
 * atomic step, so a file created meanwhile is never replaced either.
 */
struct error	*atomicfile_write(const char *, const char *, size_t, bool,
		    mode_t);

#endif
