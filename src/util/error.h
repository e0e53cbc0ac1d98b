/*
 * error.h: the error value every function below main() returns.
 *
 * A function that can fail returns a struct error * (NULL on success),
 * like got's const struct got_error *.  The message already names its
 * subject ("job file 'run.json': line 3: unknown key 'tpp'"); only main()
 * prints it, as "mbsbatch: MESSAGE", followed by the hint, if any, on a
 * second line.  The caller owns the returned error and frees it with
 * error_free().
 */
#ifndef MBSBATCH_ERROR_H
#define MBSBATCH_ERROR_H

/* Exit statuses of docs/SPEC.md section 5. */
enum exit_status {
	EXIT_OK = 0,
	EXIT_FAILURE_OP = 1,	/* I/O, network, Slurm refused or failed */
	EXIT_USAGE = 2,		/* bad option, value, job-file key, template */
	EXIT_LAYOUT = 3,	/* an error finding (or warning under --strict) */
	EXIT_INTERRUPTED = 130,	/* a wait stopped by Ctrl-C, as a shell says */
};

/*
 * What went wrong, for the few callers that act on it rather than only
 * print it (a kind is set where the error is made, never read from the
 * message's words).
 */
enum error_kind {
	ERROR_OTHER = 0,
	ERROR_NO_SUCH_JOB,	/* neither slurmctld (nor accounting) knows it */
	ERROR_ALREADY_DONE,	/* not cancelled: it had ended already */
};

struct error {
	enum exit_status status;
	enum error_kind	 kind;
	char		*msg;
	char		*hint;	/* NULL or a second line */
	char		**more;	/* further failures of the same kind, each
				   its own "mbsbatch: " line before the
				   hint; NULL-terminated, or NULL */
};

/* A new error with a printf-style message; never returns NULL. */
struct error	*error_new(enum exit_status, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Prefix "PREFIX: " to err's message; returns err. */
struct error	*error_prefix(struct error *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Set (replace) the hint; returns err. */
struct error	*error_hint(struct error *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Add a line to err's more (one more finding of the same refusal);
 * returns err. */
struct error	*error_add_line(struct error *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* Set the kind; returns err. */
struct error	*error_set_kind(struct error *, enum error_kind);

/* Whether ERR (may be NULL) is of kind K. */
int		 error_is(const struct error *, enum error_kind);

void		 error_free(struct error *);

#endif
