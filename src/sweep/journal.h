/*
 * journal.h: a sweep's journal, one JSON object a line.  A line is
 * written whole with one write(2); the lines that record a job id are
 * also fsync'd before the sweep goes on, so a sweep killed at any moment
 * (SIGKILL included) leaves a journal --resume can trust.  A last line
 * without its newline is a write the kill cut short and is ignored.
 *
 * A journal is a regular file, never reached through a symbolic link,
 * and one sweep at a time writes it: the writer holds a POSIX write lock
 * on it (released by the kernel when the process ends, however it ends),
 * and a second one is told the process that holds it.
 *
 * Workers that write at once share their fsyncs (group commit): each
 * waits until a sync that began after its line was written has ended,
 * and only one fsync runs at a time, so N lines written while a sync runs
 * cost one more fsync, not N.
 */
#ifndef MBSBATCH_JOURNAL_H
#define MBSBATCH_JOURNAL_H

#include <sys/types.h>

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct error;

struct journal {
	int		 fd;
	char		*path;
	off_t		 whole;		/* the size without a torn line */

	pthread_mutex_t	 lock;
	pthread_cond_t	 synced_cond;
	uint64_t	 written;	/* lines written */
	uint64_t	 synced;	/* lines known on disk */
	bool		 syncing;	/* an fsync is running */
};

/* Refuse PATH for a new journal if anything is there (checked again,
 * atomically, by journal_create()). */
struct error	*journal_check_new(const char *);

/* A new journal at PATH (never an existing file), locked; HEADER is line
 * one. */
struct error	*journal_create(struct journal *, const char *, json_t *);

/*
 * An existing journal, locked, and its lines (as journal_read()).
 * Nothing in it is changed: the caller checks first that it is the
 * journal it meant, then calls journal_cut_torn().
 */
struct error	*journal_open(struct journal *, const char *, json_t **);

/* Cut off a last line a kill left without its newline, if any. */
struct error	*journal_cut_torn(struct journal *);

/* Append OBJ as one line; with SYNC, on disk before returning. */
struct error	*journal_append(struct journal *, json_t *, bool);

/* Append OBJ as one line; *SEQ is what to give journal_sync(). */
struct error	*journal_write(struct journal *, json_t *, uint64_t *);

/* Return once the line SEQ, and every line before it, is on disk. */
struct error	*journal_sync(struct journal *, uint64_t);

void		 journal_close(struct journal *);

/* Every whole line of the journal at PATH, as a JSON array of objects. */
struct error	*journal_read(const char *, json_t **);

/* The same from the journal's text DATA (LEN bytes), PATH naming it;
 * *WHOLE is the length of its whole lines. */
struct error	*journal_parse(const char *, const char *, size_t, json_t **,
		    size_t *);

#endif
