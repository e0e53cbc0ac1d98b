/*
 * logfile.h: a job's output or error file, read safely.  The file is
 * opened once (O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC), that
 * descriptor is fstat()ed and refused unless it is a regular file (and,
 * for a reader who is not the job's owner, one the job's owner owns), and
 * it is read through that same descriptor: what was checked is what is
 * read.  Reading stops at the size the file had when it was opened and
 * skips its holes (SEEK_DATA/SEEK_HOLE), so that a FIFO, a device, a link
 * to /dev/zero, a sparse terabyte or a file that grows for ever cost no
 * more than the data really there.
 */
#ifndef MBSBATCH_LOGFILE_H
#define MBSBATCH_LOGFILE_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct error;

struct logfile {
	int		 fd;		/* -1: not open */
	struct stat	 st;		/* the descriptor's, at open */
	int		 owned;		/* close fd at logfile_close() */
};

/* Why logfile_open() refused, beyond open(2)'s errno values (> 0). */
#define LOGFILE_ESYMLINK	(-1)	/* a symbolic link: not followed */
#define LOGFILE_ENOTREG		(-2)	/* not a regular file (st says what) */
#define LOGFILE_EOWNER		(-3)	/* not owned by the job's user */
#define LOGFILE_ECHANGED	(-4)	/* shrank while read (logfile_tail) */
#define LOGFILE_EUSER		(-6)	/* the job's user is not known here */

/* logfile_open()'s flags. */
#define LOGFILE_FOLLOW		0x1	/* follow a symbolic link at PATH: a
					   name the reader gave, not a job */

/* Any owner (logfile_open()'s OWNER). */
#define LOGFILE_ANY_OWNER	((uid_t)-1)

/*
 * Open PATH as above: 0, or why not (an errno value from open(2) or
 * fstat(2), or a LOGFILE_E* code).  OWNER: the uid the file must belong
 * to, LOGFILE_ANY_OWNER for any.  On failure LF->fd is -1, and LF->st is
 * set for LOGFILE_ENOTREG and LOGFILE_EOWNER.
 */
int		 logfile_open(struct logfile *, const char *, int, uid_t);

/*
 * Open PATH, a file of a job of user USER (a name; NULL: not known), for
 * this process's reader: as logfile_open() with no link followed, and of
 * any owner when the reader is USER (nothing she could not read herself),
 * else only USER's.  Slurm creates a job's files as its user, and a job
 * may name as its output, or link into its directory, a file only its
 * reader may read (--output=/root/.ssh/id_rsa); LOGFILE_EUSER when USER
 * is not known on this host.
 */
int		 logfile_open_job(struct logfile *, const char *, const char *);

/*
 * The error for CODE from logfile_open_job() of PATH, WHAT ("output",
 * "error file") of job JOB, for command CMD: "CMD: job JOB's WHAT PATH
 * WHY", with a hint where there is one.  A new error.
 */
struct error	*logfile_refused(const char *, const char *, const char *,
		    const char *, int, const struct logfile *);

/* LF for the open descriptor FD (standard input), any kind of file;
 * logfile_close() leaves FD open.  0 or an errno value from fstat(2). */
int		 logfile_fdopen(struct logfile *, int);

/* What CODE (from logfile_open() or a read) says of the file, as words
 * after its name ("is a FIFO, not a regular file"), in BUF (LEN bytes);
 * LF the file (NULL: not known). */
const char	*logfile_why(int, const struct logfile *, char *, size_t);

/* Close LF (a no-op when not open). */
void		 logfile_close(struct logfile *);

/* Where what is read goes. */
struct logfile_sink {
	/* LEN bytes of data; nonzero stops the reading (the sink keeps
	 * why). */
	int		(*data)(void *, const char *, size_t);
	/* LEN bytes of a hole: zeros never written, not read.  NULL:
	 * holes are left out unsaid. */
	int		(*hole)(void *, uint64_t);
	void		*arg;
};

/*
 * Read LF from *OFF to END in order, data and holes to SINK, *OFF
 * advanced; a file shorter now than END ends there.  LF not a regular
 * file (a pipe on standard input): read to its end, OFF and END unused.
 * Returns 0, an errno value from reading, or -1: the sink stopped it.
 */
int		 logfile_read(struct logfile *, off_t *, off_t,
		    const struct logfile_sink *);

/*
 * Where the last N lines of the first END bytes of LF (a regular file)
 * begin: after the Nth newline from the end that does not end the last
 * byte; 0 when there are fewer, END when N is 0.  Holes hold no newline:
 * they are skipped.  0, an errno value, or LOGFILE_ECHANGED.
 */
int		 logfile_tail(struct logfile *, off_t, int64_t, off_t *);

/*
 * Print LF from *OFF to END on OUT (a regular file's holes left out,
 * their bytes added to *HOLES), *OFF advanced, OUT flushed.  Returns 0,
 * an errno value from reading, or LOGFILE_EWRITE with *WERR the errno of
 * writing OUT.
 */
#define LOGFILE_EWRITE		(-5)
int		 logfile_print(struct logfile *, off_t *, off_t, FILE *,
		    uint64_t *, int *);

/* The last N lines of LF (all of it, N -1) as it was when opened, as
 * logfile_print() prints, *OFF where it stopped. */
int		 logfile_print_tail(struct logfile *, int64_t, off_t *, FILE *,
		    uint64_t *, int *);

#endif
