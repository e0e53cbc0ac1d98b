/*
 * journal.h: a sweep's journal, one JSON object a line.  A line is
 * written whole with one write(2); the lines that record a job id are
 * also fsync'd before the sweep goes on, so a sweep killed at any moment
 * (SIGKILL included) leaves a journal --resume can trust.  A last line
 * without its newline is a write the kill cut short and is ignored.
 */
#ifndef MBSBATCH_JOURNAL_H
#define MBSBATCH_JOURNAL_H

#include <stdbool.h>

#include <jansson.h>

struct error;

struct journal {
	int	 fd;
	char	*path;
};

/* A new journal at PATH (never an existing file); HEADER is line one. */
struct error	*journal_create(struct journal *, const char *, json_t *);

/* An existing journal, to append to. */
struct error	*journal_open(struct journal *, const char *);

/* Append OBJ as one line; with SYNC, fsync before returning. */
struct error	*journal_append(struct journal *, json_t *, bool);

void		 journal_close(struct journal *);

/* Every whole line of the journal at PATH, as a JSON array of objects. */
struct error	*journal_read(const char *, json_t **);

#endif
