/*
 * rest.h: the slurmrestd protocol without the network.  The API
 * versions mbsbatch speaks, their paths, the job-submit body each
 * version honours, and what slurmrestd's answers mean.  Pure: no I/O, no
 * globals, nothing printed; the REST back end moves the bytes.
 *
 * The body shapes of every version, and where each one comes from (a
 * recorded request against Slurm 22.05 or 24.11, or the Slurm source),
 * are in tests/data/rest/SHAPES.md.  The parsers go by the shape of what
 * they read (an integer or a {set, infinite, number} object, a string or
 * an array), so a server one point release off still reads correctly;
 * the version is used where shapes alone are ambiguous, and in messages.
 *
 * Errors follow error.h.  Slurm's own text is kept as Slurm wrote it
 * (only a trailing full stop is dropped), prefixed "slurmrestd: ", with
 * Slurm's error number: "slurmrestd: Invalid partition name specified
 * (Slurm error 2000)".  What slurmrestd refused or failed is
 * EXIT_FAILURE_OP; a job description a version cannot carry is
 * EXIT_USAGE.  No message ever holds a token: the only function that
 * sees one, rest_token_parse(), never quotes it.
 */
#ifndef MBSBATCH_REST_H
#define MBSBATCH_REST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "error.h"

struct jobdesc;

/* The API versions mbsbatch knows, oldest first. */
enum rest_version {
	REST_V0_0_36 = 0,	/* Slurm 20.11 - 22.05 */
	REST_V0_0_37,		/* 21.08 - 23.02 */
	REST_V0_0_38,		/* 22.05 - 23.11 */
	REST_V0_0_39,		/* 23.02 - 24.05 */
	REST_V0_0_40,		/* 23.11 - 25.05 */
	REST_V0_0_41,		/* 24.05 - 25.11 */
	REST_V0_0_42,		/* 24.11 - */
	REST_V0_0_43,		/* 25.05 - */
	REST_V0_0_44,		/* 25.11 - */
	REST_NVERSIONS
};

/* "v0.0.38"; static storage.  An out-of-range value gives "v?". */
const char	*rest_version_name(enum rest_version);

/* "v0.0.38" or "0.0.38" -> *out; 0, or -1 (*out untouched) if unknown. */
int		 rest_version_parse(const char *, enum rest_version *);

/*
 * The auto-discovery: the newest version both mbsbatch and the server
 * know, read from the server's OpenAPI document: the answer (HTTP STATUS,
 * BODY of LEN bytes) to GET REST_PATH_OPENAPI, which every slurmrestd
 * from 20.11 on serves, with a path /slurm/v0.0.NN/... per operation.
 * It needs authentication too, so a refusal here is reported like any
 * other (with the token hint).  An error names the versions offered.
 */
#define REST_PATH_OPENAPI	"/openapi/v3"
struct error	*rest_pick_version(long status, const char *body,
		    size_t len, enum rest_version *out);

/*
 * The Slurm release (2205 for 22.05, 2411 ...) that answered: from the
 * "meta" of any answer ("Slurm" or "slurm": "release" "24.11.7") or the
 * OpenAPI document's info.version ("Slurm-24.11.7&..."); 0 if it says
 * none.  rest_release_serving() is the release whose newest version is V
 * (for a server whose OpenAPI document names no release: 22.05's).
 */
int		 rest_parse_release(const char *body, size_t len);
int		 rest_release_serving(enum rest_version);

/* Request paths; new strings, the caller frees them. */
char		*rest_path_submit(enum rest_version);	/* POST */
char		*rest_path_job(enum rest_version, int64_t); /* GET, DELETE */
char		*rest_path_ping(enum rest_version);	/* GET */
char		*rest_path_jobs(enum rest_version);	/* GET */

/*
 * The POST job/submit body for VERSION: the job description JD, its
 * environment ENV (NULL-terminated "NAME=value" strings, already chosen
 * by --export semantics) and the absolute working directory CWD (used
 * when JD->chdir is unset, and to resolve a relative JD->chdir).  The
 * working directory is always sent: Slurm 23.11 and later refuse a job
 * without one.  SLURM_JWT in ENV is not sent (it is the token).  Every
 * field JD sets is carried in the form VERSION honours, or the call fails
 * with EXIT_USAGE naming the field: nothing is dropped.  On success *OUT
 * is a new reference (json_decref it); on failure *OUT is NULL.
 */
struct error	*rest_submit_body(enum rest_version,
		    const struct jobdesc *jd, char *const *env, const char *cwd,
		    json_t **out);

/*
 * A job-submit answer: HTTP STATUS and BODY (LEN bytes, need not be
 * NUL-terminated).  Success is a job id: slurmrestd then may still report
 * held jobs (2042) or jobs waiting for down nodes (2068), in "errors"
 * (22.05) or "warnings" (23.11 on); those, and its parser warnings (an
 * ignored field), become WARNINGS, for the caller to show.  USER_MSG is
 * the job_submit plugin's message to the user, or NULL.
 */
struct rest_submit_result {
	int64_t		 job_id;
	char		**warnings;	/* owned; nwarnings entries */
	size_t		 nwarnings;
	char		*user_msg;	/* owned, or NULL */
};

struct error	*rest_parse_submit(enum rest_version, long status,
		    const char *body, size_t len, struct rest_submit_result *);
void		 rest_submit_result_release(struct rest_submit_result *);

/*
 * A GET job/JOB_ID answer.  STATE is Slurm's own base state name
 * (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ...), and
 * STATE_FLAGS the other names Slurm gave (COMPLETING, REQUEUED, ...),
 * comma-separated, or NULL.  Strings are owned (NULL when Slurm gave
 * none); times are UNIX seconds, 0 when unset.  EXIT_KNOWN is set once
 * the job has ended and Slurm reported how; then EXIT_CODE is the batch
 * script's exit status and EXIT_SIGNAL the signal that ended it (0:
 * none), as scontrol's ExitCode=CODE:SIGNAL.
 * An unknown job is EXIT_FAILURE_OP "job N: no such job".
 */
struct rest_job_status {
	int64_t		 job_id;
	char		 state[32];
	char		*state_flags;
	char		*reason;
	int64_t		 nodes;		/* node count; 0: unknown */
	char		*partition;
	char		*name;
	char		*node_list;	/* "node[0-1]"; NULL if none yet */
	char		*user;
	int64_t		 submit_time, start_time, end_time;
	int		 exit_code;
	int		 exit_signal;
	bool		 exit_known;
	/*
	 * Where it writes: v0.0.38 gives the pattern as it was sent (NULL
	 * when there was none: Slurm's default), v0.0.40 on a path already
	 * expanded, by the display's rules (print_fields.c), which on 24.11
	 * and 25.05 are not quite slurmstepd's (logpath.h).
	 */
	char		*std_out, *std_err;
	bool		 std_expanded;
	char		*work_dir;
	char		*batch_host;	/* NULL until it starts */
	int64_t		 array_job_id;	/* 0: not an array */
	int64_t		 array_task_id;	/* -1: not a task of one */
	int64_t		 restart_cnt;
};

struct error	*rest_parse_job(enum rest_version, int64_t job_id,
		    long status, const char *body, size_t len,
		    struct rest_job_status *);
void		 rest_job_status_release(struct rest_job_status *);

/*
 * A GET jobs answer: the id of the job of USER (its user_name) named
 * exactly NAME in *ID (an array's own id for an array task), 0 when none
 * is listed.  Another user's job of that name is not it, nor a job whose
 * user the answer does not name.
 */
struct error	*rest_parse_find(enum rest_version, long, const char *,
		    size_t, const char *name, const char *user, int64_t *);

/*
 * A DELETE job/JOB_ID answer.  A job that had already ended counts as
 * cancelled (v0.0.42 on report it as 2021, older versions not at all).
 */
struct error	*rest_parse_cancel(enum rest_version, int64_t job_id,
		    long status, const char *body, size_t len);

/*
 * A GET ping answer: NULL when a slurmctld answered UP.  A bad token
 * shows here as DOWN (24.11) or as slurmctld's configuration failing to
 * load (22.05); the error's hint says so.
 */
struct error	*rest_parse_ping(enum rest_version, long status,
		    const char *body, size_t len);

/*
 * The token in TEXT (LEN bytes: a token file's content, or the value of
 * $SLURM_JWT), as "scontrol token" prints it (SLURM_JWT=TOKEN) or bare,
 * white space around it ignored.  On success *OUT is a new string (the
 * caller clears it with explicit_bzero() before freeing it).  Empty,
 * white space or a line break inside, a control character, NUL or a
 * non-ASCII byte are EXIT_USAGE errors "WHAT: reason" that never quote
 * the token (a token in an HTTP header must not carry a line break).
 */
struct error	*rest_token_parse(const char *what, const char *text,
		    size_t len, char **out);

/*
 * Is URL an http:// or https:// URL whose host is this machine's
 * loopback: localhost, 127.0.0.0/8 or [::1]?  Anything the check cannot
 * read for sure (user@host, %-escapes, a host name that merely resolves
 * to 127.0.0.1) is not.
 */
bool		 rest_url_loopback(const char *url);

#endif
