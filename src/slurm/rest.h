/*
 * rest.h: the slurmrestd protocol without the network.  The API
 * versions mbsbatch speaks, their paths, the job-submit body each
 * version honours, and what slurmrestd's answers mean.  Pure: no I/O, no
 * globals, nothing printed; the REST back end moves the bytes.  rest.c
 * has the versions and their paths, rest-submit.c the body,
 * rest-answer.c and rest-job.c the answers, rest-token.c the token and
 * URL checks.
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

#include "backend.h"
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
char		*rest_path_node(enum rest_version, const char *); /* GET */
/* GET "partitions", "nodes" (slurmctld's), "qos", "associations"
 * (slurmdbd's): what mbsbatch site asks (rest-site.c). */
char		*rest_path_site(enum rest_version, const char *);
/* Such an answer as JSON in *OUT (a new reference), or the error it
 * says (HTTP status, Slurm's errors). */
struct error	*rest_parse_site(enum rest_version, long, const char *,
		    size_t, json_t **);

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
 * A GET job/JOB_ID answer (USER NULL) or GET jobs answer (only USER's
 * records, by their user_name; a record that names no user is nobody's):
 * every job record in it appended to LIST, as slurmctld gives them, with
 * source JOB_SOURCE_CTLD.  For an array's id that is each task started
 * and one record for the tasks not yet started (array_tasks, "2-9%2",
 * array_task_id -1); array_job_id is 0 for a job not in an array,
 * array_task_id -1 for a record that is no task.  STATE is Slurm's own
 * name for it, as scontrol prints it (job_state_string(): a flag such as
 * COMPLETING before the base state, PENDING, RUNNING, COMPLETED, FAILED,
 * CANCELLED, TIMEOUT, ...); REASON its description when slurmctld wrote
 * one (state_description), else the reason's name.  Times are UNIX
 * seconds, 0 when unset (job_time()); no end time for a job without a
 * time limit that has not ended (job_end_time()).  EXIT_KNOWN is set
 * once the job has ended and Slurm reported how: EXIT_CODE is the batch
 * script's exit status and EXIT_SIGNAL the signal that ended it (0:
 * none), as scontrol's ExitCode=CODE:SIGNAL.
 * Where it writes: v0.0.38 gives the pattern as it was sent (NULL when
 * there was none: Slurm's default), v0.0.40 on a path already expanded
 * by the display's rules (print_fields.c), which on 24.11 and 25.05 are
 * not quite slurmstepd's (logpath.h).  DEPENDENCY is NULL when none is
 * left.  A job slurmctld does not know appends nothing and is no error.
 * On error LIST is as it was.
 */
struct error	*rest_parse_jobs(enum rest_version, long status,
		    const char *body, size_t len, const char *user,
		    struct job_list *);

/*
 * A GET job/JOB_ID answer, for one record: the job JOB_ID itself (the
 * first listed when none has that id), as rest_parse_jobs() reads it,
 * with STATE_FLAGS the other names Slurm gave its state (COMPLETING,
 * REQUEUED, ...), comma-separated, or NULL.  An unknown job is
 * EXIT_FAILURE_OP "job N: no such job".  Release with
 * rest_job_status_release(), also after an error.
 */
struct rest_job_status {
	struct job_status	 job;
	char			*state_flags;
	/* Slurm would not signal it: its base state has ended (or 22.05
	 * names it COMPLETING), slurmctld's IS_JOB_FINISHED(). */
	bool			 finished;
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
 * Accounting: a GET /slurmdb/VERSION/job/JOB_ID answer (the path from
 * rest_path_db_job(); every version from v0.0.36 serves one, from the
 * openapi/dbv0.0.3N plugins in 22.05 and openapi/slurmdbd later).  Every
 * record appended to LIST as sacct -X shows them without --duplicates:
 * of the records slurmrestd gives (one per start of a requeued job) the
 * last of each job id, and none revoked; restart_unknown never set (22.05
 * has no restart_cnt: the starts are counted).  Source JOB_SOURCE_DBD,
 * fields as rest_parse_jobs() gives them where accounting has them: the
 * state (state.current), its reason (state.reason), node count (of the
 * TRES for a job that never ran, as sacct's NNodes) and list,
 * partition, name, user, times, exit status, array ids and tasks not yet
 * started (22.05's hex bitmap "0x3FC" read as "2-9"), working directory,
 * output and error (v0.0.41 on; the expanded path when given), restart
 * count.  The exit status is the job's own, as sacct -X shows it (0:0 for
 * a cancelled job, whose batch step has 0:15).  No batch host, no
 * dependency.  22.05's dbv0.0.38 reports
 * every job that exited as exit status 0 (its _dump_job_exit_code());
 * there the status is known only for a COMPLETED job (0) or one a
 * signal ended.  A job accounting does not have appends nothing and is
 * no error; a slurmrestd without /slurmdb/ (HTTP 404) is EXIT_FAILURE_OP
 * "accounting: this slurmrestd serves no /slurmdb/VERSION: its ...
 * plugin is not loaded".  On
 * error LIST is as it was.
 */
char		*rest_path_db_job(enum rest_version, int64_t);
struct error	*rest_parse_history(enum rest_version, long status,
		    const char *body, size_t len, struct job_list *);

/*
 * A DELETE job/JOB_ID answer.  A job that had already ended is
 * job_done_error() (ERROR_ALREADY_DONE) where the answer says so
 * (v0.0.42 on: Slurm error 2021); older versions answer it as done, so
 * the caller asks first (rest_job_status.finished).
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
 * $SLURM_JWT), as "scontrol token" prints it (SLURM_JWT=TOKEN), bare, or
 * as a shell line: SLURM_JWT="TOKEN", 'TOKEN' quoted, after "export "; white
 * space around ignored.  On success *OUT is a new string (the caller
 * clears it with explicit_bzero() before freeing it).  Empty, white
 * space or a line break inside, a quote that does not close it, anything
 * but a JWT's characters (letters, digits, '-', '_', '.', '+', '/',
 * '='), are EXIT_USAGE errors "WHAT: reason" that never quote the token
 * (a token in an HTTP header must not carry a line break).
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


/*
 * The host name (NodeHostname) of NODE, from the answer to
 * rest_path_node(): a new string in *HOST, NULL and no error when
 * slurmctld does not know the node or gives none.
 */
struct error	*rest_parse_node_host(enum rest_version, long, const char *,
		    size_t, const char *, char **);

#endif
