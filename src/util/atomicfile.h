/*
 * atomicfile.h: write a whole file or nothing (docs/SPEC.md section 3, gen -o):
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
 * Write LEN bytes of DATA to PATH with MODE (less the umask), by what
 * PATH is:
 * - nothing: a new file, created whole; if PATH appears meanwhile it is
 *   kept and the call fails;
 * - a regular file: kept and the call fails (EXIT_FAILURE_OP, with a
 *   hint to use --force) unless FORCE; then replaced whole;
 * - a character device or FIFO (/dev/null, /dev/stdout, a named pipe):
 *   written in place, as a stream (not atomically: a reader sees what
 *   was written until an error), FORCE or not, and *STREAMED set; the
 *   node itself is never replaced, removed or chmod'ed;
 * - a directory, block device, socket or anything else: refused.
 * A symbolic link is followed, by the kernel's rules, to what it leads
 * to, which is then written by the rules above: a regular file is
 * replaced in its own directory and the link kept.  A link to nothing is
 * refused (no file is created through a link).  A regular file is
 * replaced only if it is still the file that was checked: one put in its
 * place meanwhile (a FIFO, a device, another file) is kept, and the call
 * fails.  All errors are EXIT_FAILURE_OP and name PATH.
 */
struct error	*atomicfile_write(const char *, const char *, size_t, bool,
		    mode_t, bool *);

/*
 * The same, with HOOK (may be NULL) called with the path to be written
 * between the check of what is there and the write: for tests, which
 * swap a file there at that moment.
 */
struct error	*atomicfile_write_hooked(const char *, const char *, size_t,
		    bool, mode_t, bool *, void (*)(const char *));

#endif
