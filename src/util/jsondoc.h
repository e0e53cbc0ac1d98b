/*
 * jsondoc.h: a JSON file loaded with jansson, kept with its text so that
 * errors can name the line and column of any key, not only of syntax
 * errors (jansson keeps no positions once parsed).
 *
 * Loading rejects duplicate keys (JSON_REJECT_DUPLICATES), files over
 * JSONDOC_MAX_SIZE and anything that is not a regular file.
 */
#ifndef MBSBATCH_JSONDOC_H
#define MBSBATCH_JSONDOC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "error.h"

#define JSONDOC_MAX_SIZE	(4 * 1024 * 1024)

struct jsondoc {
	char	*label;		/* "job file 'run.json'": prefixes errors */
	char	*text;		/* the bytes read, NUL-terminated */
	size_t	 len;
	json_t	*root;		/* owned reference */
};

/*
 * Load PATH; KIND names it in errors ("job file").  A missing file is an
 * EXIT_FAILURE_OP error, a syntax error EXIT_USAGE.  On error doc is
 * released.  "-" reads standard input.
 */
struct error	*jsondoc_load_file(struct jsondoc *, const char *, const char *);

/* Load from memory, for tests; LABEL is used as is. */
struct error	*jsondoc_load_string(struct jsondoc *, const char *,
		    const char *);

void		 jsondoc_release(struct jsondoc *);

/*
 * A new error about the value at PATH (a NULL-terminated list of object
 * keys, with "[N]" for the N-th array element): "LABEL: line L, column C:
 * MESSAGE".  The position is that of the last key (or element); without a
 * path, or when it cannot be found, the position is left out.
 */
struct error	*jsondoc_error(const struct jsondoc *, const char *const *,
		    enum exit_status, const char *, ...)
		    __attribute__((format(printf, 4, 5)));

/*
 * Print VALUE to F as json_dumps() writes it with FLAGS, and a line
 * feed: whole, or nothing and an EXIT_FAILURE_OP error when jansson
 * cannot write it, or VALUE is NULL (what json_pack() and json_real()
 * return for text that is not UTF-8 or a number that is not finite), so
 * that no command prints nothing and exits 0.  VALUE is not released.
 */
struct error	*jsondoc_print(FILE *, const json_t *, size_t);

/* Append a formatted string to the JSON array A. */
void		 jsondoc_addf(json_t *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Find PATH in TEXT; 1-based line and column (in characters); -1 when
 * the path is empty or not there.  Exposed for tests. */
int		 jsondoc_locate(const char *, size_t, const char *const *,
		    int *, int *);

#endif
