/*
 * rest-job.c: the job records of slurmrestd's answers, read into
 * backend.h's struct job_status: slurmctld's (GET job/ID and GET jobs:
 * a job's status, the jobs listed, a job found by its name) and
 * accounting's (GET /slurmdb/VERSION/job/ID: a job's history); see
 * rest.h.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobref.h"
#include "rest.h"
#include "rest-int.h"
#include "xmalloc.h"

/* ---- job status ---- */

static struct error *
set_state(struct job_status *s, const char *name)
{
	if (strlen(name) >= sizeof s->state)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: job state "
		    "'%.40s...' is too long", name);
	snprintf(s->state, sizeof s->state, "%s", name);
	return NULL;
}

/* Is NAME in the list JS (of JSON strings)? */
static bool
has_name(json_t *js, const char *name)
{
	json_t		*e;
	const char	*n;
	size_t		 i;

	json_array_foreach(js, i, e)
		if ((n = json_string_value(e)) != NULL && strcmp(n, name) == 0)
			return true;
	return false;
}

/*
 * job_state (slurmctld) or state.current (accounting): a string (22.05:
 * Slurm's job_state_string() already) or a list (v0.0.40 on: the base
 * state and its flags, in any order), named as job_state_string() names
 * it, its first flag in job_state_flag_names[]'s order else its base
 * (a job finishing its epilog is COMPLETING, as scontrol says).  *ENDED:
 * has the base state ended (past RUNNING and SUSPENDED: slurmctld's
 * IS_JOB_FINISHED); a 22.05 string naming a flag says no base: false.
 * The other names go to *FLAGS when FLAGS is not NULL.
 */
static struct error *
read_state(struct job_status *s, char **flags, bool *ended, json_t *js)
{
	struct buf	 b;
	struct error	*err = NULL;
	json_t		*e;
	const char	*name, *base = NULL, *shown = NULL;
	size_t		 i;

	*ended = false;
	if (json_is_string(js)) {
		*ended = job_state_base_ended(json_string_value(js));
		return set_state(s, json_string_value(js));
	}
	if (!json_is_array(js) || json_array_size(js) == 0)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: the job has no "
		    "job_state");
	json_array_foreach(js, i, e)
		if ((name = json_string_value(e)) != NULL && base == NULL &&
		    job_state_is_base(name))
			base = name;
	for (i = 0; job_state_flag_names[i] != NULL && shown == NULL; i++)
		if (has_name(js, job_state_flag_names[i]))
			shown = job_state_flag_names[i];
	if (base == NULL && shown == NULL)
		base = json_string_value(json_array_get(js, 0));
	if (base == NULL && shown == NULL)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: job_state is "
		    "not a list of names");
	*ended = base != NULL && job_state_base_ended(base);
	if (shown == NULL)
		shown = base;
	if ((err = set_state(s, shown)) != NULL || flags == NULL)
		return err;
	buf_init(&b);
	json_array_foreach(js, i, e)
		if ((name = json_string_value(e)) != NULL &&
		    strcmp(name, shown) != 0)
			buf_addf(&b, "%s%s", b.len > 0 ? "," : "", name);
	*flags = b.len > 0 ? buf_detach(&b) : NULL;
	buf_release(&b);
	return NULL;
}

/*
 * exit_code: the raw wait status as an integer (22.05 slurmctld) or as
 * {set, number} (v0.0.39), or {status, return_code, signal: {id, name}}
 * (v0.0.40 on; 22.05's accounting: signal {signal_id, name}).
 */
static bool
read_exit(struct job_status *s, json_t *ec)
{
	json_t	*sig;
	int64_t	 raw, n;
	bool	 known = false;

	if (json_is_object(ec) && (json_object_get(ec, "return_code") != NULL
	    || json_object_get(ec, "signal") != NULL)) {
		if (rest_get_num(json_object_get(ec, "return_code"), &n) ==
		    NUM_SET) {
			s->exit_code = (int)n;
			known = true;
		}
		sig = json_object_get(ec, "signal");
		if (rest_get_num(json_object_get(sig, "id"), &n) == NUM_SET ||
		    rest_get_num(json_object_get(sig, "signal_id"), &n) ==
		    NUM_SET) {
			s->exit_signal = (int)n;
			known = true;
		}
		return known;
	}
	if (rest_get_num(ec, &raw) != NUM_SET)
		return false;
	/* As scontrol and sacct print it, CODE:SIGNAL: one of the two
	 * (src/scontrol/info_job.c, src/sacct/print.c). */
	s->exit_code = WIFEXITED((int)raw) ? WEXITSTATUS((int)raw) : 0;
	s->exit_signal = WIFSIGNALED((int)raw) ? WTERMSIG((int)raw) : 0;
	return true;
}

/*
 * An array's tasks as Slurm lists them, "2-9" or "2-9%2", from TEXT
 * (slurmctld's array_task_string, already "2-9%2"; accounting's
 * array.task, which 22.05 gives as a hex bitmap, "0x3FC") and LIMIT (its
 * %N, accounting's array.limits.max.running.tasks; 0: none); NULL when
 * TEXT names none.  A bitmap is Slurm's bit_fmt_hexmask(): bit 0 the
 * lowest bit of the last digit.
 */
static char *
tasks_text(const char *text, int64_t limit)
{
	struct buf	 b;

	if (text == NULL || *text == '\0')
		return NULL;
	if (strncasecmp(text, "0x", 2) == 0)
		return array_tasks_from_mask(text, limit);
	buf_init(&b);
	buf_adds(&b, text);
	if (limit > 0 && strchr(b.data, '%') == NULL)
		buf_addf(&b, "%%%lld", (long long)limit);
	return buf_detach(&b);
}

/*
 * Which array task a record is, or which tasks not yet started it stands
 * for: ARRAY_JOB, TASK and TASKS as the answer names them.
 */
static void
read_array(struct job_status *s, json_t *array_job, json_t *task,
    const char *tasks, int64_t limit)
{
	(void)rest_get_num(array_job, &s->array_job_id);
	if (rest_get_num(task, &s->array_task_id) != NUM_SET) {
		s->array_task_id = -1;
		if (s->array_job_id != 0)
			s->array_tasks = tasks_text(tasks, limit);
	}
}

/* OBJ[KEY], a time: 0 when unset (job_time()). */
static int64_t
get_time(json_t *obj, const char *key)
{
	int64_t	 t;

	return rest_get_num(json_object_get(obj, key), &t) == NUM_SET ?
	    job_time(t) : 0;
}

/*
 * Has slurmctld's record JOB no time limit?  22.05 writes null for
 * INFINITE (openapi/v0.0.38/jobs.c), v0.0.40 on {"infinite": true}.
 */
static bool
unlimited(json_t *job)
{
	json_t	*tl = json_object_get(job, "time_limit");
	int64_t	 n;

	if (json_is_null(tl))
		return true;
	switch (rest_get_num(tl, &n)) {
	case NUM_INFINITE:
		return true;
	case NUM_SET:
		return n == 0xffffffffLL;
	default:
		return false;
	}
}

/*
 * A record of slurmctld's (GET job/ID, GET jobs); the flags to FLAGS, and
 * to *FINISHED (when not NULL) whether Slurm would refuse to signal it
 * (IS_JOB_FINISHED(): its base state ended; 22.05's COMPLETING too).
 */
static struct error *
read_job(enum rest_version v, struct job_status *s, char **flags,
    bool *finished, json_t *job)
{
	struct error	*err;
	int64_t		 n;
	bool		 exit_seen, ended;

	s->source = JOB_SOURCE_CTLD;
	if (rest_get_num(json_object_get(job, "job_id"), &n) == NUM_SET)
		s->job_id = n;
	if ((err = read_state(s, flags, &ended, json_object_get(job,
	    "job_state"))) != NULL)
		return err;
	/* As scontrol's Reason= and squeue's %r: the description when
	 * slurmctld wrote one ("RaisedSignal:9(Killed)", "Nodes required
	 * for job are DOWN, ..."), else the reason's name
	 * (src/scontrol/info_job.c, src/squeue/print.c
	 * _print_job_reason()). */
	if ((s->reason = rest_get_str(job, "state_description")) == NULL)
		s->reason = rest_get_str(job, "state_reason");
	if (rest_get_num(json_object_get(job, "node_count"), &n) == NUM_SET)
		s->nodes = n;
	s->partition = rest_get_str(job, "partition");
	s->name = rest_get_str(job, "name");
	s->node_list = rest_get_str(job, "nodes");
	s->user = rest_get_str(job, "user_name");
	s->submit_time = get_time(job, "submit_time");
	s->start_time = get_time(job, "start_time");
	s->end_time = job_end_time(get_time(job, "end_time"), unlimited(job),
	    ended);
	exit_seen = read_exit(s, json_object_get(job, "exit_code"));
	s->exit_known = exit_seen && ended;
	if (finished != NULL)
		*finished = ended || strcmp(s->state, "COMPLETING") == 0;
	if (!s->exit_known)
		s->exit_code = s->exit_signal = 0;
	/*
	 * Where it writes: v0.0.38 and v0.0.39 the pattern sent, v0.0.40 to
	 * v0.0.42 a path expanded by the display's rules (JOB_INFO_STDOUT's
	 * dumper), v0.0.43 on the pattern again ("stdout_expanded" beside
	 * it), which slurmstepd's own rules expand (logpath.h).
	 */
	s->std_out = rest_get_str(job, "standard_output");
	s->std_err = rest_get_str(job, "standard_error");
	s->std_expanded = v >= REST_V0_0_40 && v <= REST_V0_0_42;
	s->work_dir = rest_get_str(job, "current_working_directory");
	s->batch_host = rest_get_str(job, "batch_host");
	/* 25.11 (v0.0.44): what %S writes, with the pattern above. */
	s->sluid = rest_get_str(json_object_get(job, "step_id"), "sluid");
	(void)rest_get_num(json_object_get(job, "array_max_tasks"), &n);
	read_array(s, json_object_get(job, "array_job_id"),
	    json_object_get(job, "array_task_id"),
	    json_string_value(json_object_get(job, "array_task_string")), n);
	(void)rest_get_num(json_object_get(job, "restart_cnt"),
	    &s->restart_cnt);
	/* "" once none is left (22.05, 24.11, 25.11). */
	s->dependency = rest_get_str(job, "dependency");
	return NULL;
}

/*
 * 22.05's v0.0.36 answers a job it could not load with error code 0 and
 * "_handle_job_get: unknown job N" (openapi/v0.0.36/jobs.c): slurmctld's
 * error is not kept, so this is also what any failure to ask it looks
 * like; accounting is asked next.
 */
static bool
v36_unknown(json_t *errors)
{
	json_t		*e;
	const char	*t;
	size_t		 i;

	json_array_foreach(errors, i, e)
		if ((t = json_string_value(json_object_get(e, "error"))) !=
		    NULL && strncmp(t, "_handle_job_get: unknown job ", 29) ==
		    0)
			return true;
	return false;
}

/*
 * The "jobs" of an answer (WHAT: "job", "jobs") in *JOBS, borrowed from
 * *ROOT (a new reference, or NULL).  With UNKNOWN (the answer to one
 * job's id): a job slurmctld does not know (22.05 HTTP 500, 23.11 on
 * 404, both with Slurm error 2017) sets *UNKNOWN, and is no error.
 */
static struct error *
jobs_answer(enum rest_version v, long status, const char *body, size_t len,
    const char *what, bool *unknown, json_t **root, json_t **jobs)
{
	json_t	*errors;

	*jobs = NULL;
	*root = rest_load(body, len);
	errors = json_object_get(*root, "errors");
	if (unknown != NULL && (rest_has_code(errors, SLURM_E_NO_JOB) ||
	    (status == 404 && json_is_object(*root)) ||
	    (v == REST_V0_0_36 && v36_unknown(errors)))) {
		*unknown = true;
		return NULL;
	}
	*jobs = json_object_get(*root, "jobs");
	if (rest_http_ok(status) && !json_is_object(*root))
		return error_new(EXIT_FAILURE_OP, "slurmrestd: the %s answer "
		    "is not JSON (HTTP %ld)", what, status);
	if (!rest_http_ok(status) || (json_array_size(errors) > 0 &&
	    json_array_size(*jobs) == 0))
		return rest_answer_error(v, status, *root, body, len);
	if (!json_is_array(*jobs))
		return error_new(EXIT_FAILURE_OP, "slurmrestd: the %s answer "
		    "has no list of jobs (HTTP %ld)", what, status);
	return NULL;
}

/* Is record E USER's?  A record that names no user is nobody's. */
static bool
is_users(json_t *e, const char *key, const char *user)
{
	const char	*u = json_string_value(json_object_get(e, key));

	return u != NULL && strcmp(u, user) == 0;
}

/*
 * A record of slurmctld's with a user id but no user name, which Slurm
 * 22.05's openapi/v0.0.36 writes for every job (it dumps job_info's
 * user_name, which slurmctld leaves empty; v0.0.37 on name the user):
 * whose jobs they are cannot be told, an error rather than none.
 */
static struct error *
check_named(enum rest_version v, json_t *e)
{
	const char	*u = json_string_value(json_object_get(e, "user_name"));

	if ((u == NULL || *u == '\0') && json_object_get(e, "user_id") != NULL)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: API %s names "
		    "no job's user (user_name is empty): ask with "
		    "--api-version v0.0.37 or later", rest_version_name(v));
	return NULL;
}

static struct error *read_db_job(enum rest_version, struct job_status *,
    json_t *);

/*
 * Each record of JOBS (only USER's, unless NULL) onto LIST, read as
 * accounting (DB) or slurmctld writes them; on error LIST is as it was.
 */
static struct error *
read_jobs(enum rest_version v, json_t *jobs, const char *user, bool db,
    struct job_list *list)
{
	struct error	*err = NULL;
	json_t		*e;
	size_t		 i, n0 = list->n;

	json_array_foreach(jobs, i, e) {
		if (user != NULL && !db && (err = check_named(v, e)) != NULL)
			break;
		if (user != NULL && !is_users(e, "user_name", user))
			continue;
		if (!json_is_object(e)) {
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: a job of "
			    "the answer is not an object");
			break;
		}
		err = db ? read_db_job(v, job_list_add(list), e) :
		    read_job(v, job_list_add(list), NULL, NULL, e);
		if (err != NULL)
			break;
	}
	if (err != NULL)
		while (list->n > n0)
			job_status_release(&list->v[--list->n]);
	return err;
}

struct error *
rest_parse_jobs(enum rest_version v, long status, const char *body,
    size_t len, const char *user, struct job_list *list)
{
	struct error	*err;
	json_t		*root, *jobs;
	bool		 unknown = false;

	err = jobs_answer(v, status, body, len, user != NULL ? "jobs" : "job",
	    user != NULL ? NULL : &unknown, &root, &jobs);
	if (err == NULL && !unknown)
		err = read_jobs(v, jobs, user, false, list);
	json_decref(root);
	return err;
}

struct error *
rest_parse_job(enum rest_version v, int64_t job_id, long status,
    const char *body, size_t len, struct rest_job_status *st)
{
	struct error	*err;
	json_t		*root, *jobs, *job = NULL, *e;
	int64_t		 n;
	size_t		 i;
	bool		 unknown = false;

	memset(st, 0, sizeof *st);
	st->job.array_task_id = -1;
	if ((err = jobs_answer(v, status, body, len, "job", &unknown, &root,
	    &jobs)) != NULL || unknown) {
		json_decref(root);
		return err != NULL ? err : rest_no_such_job(job_id);
	}
	/* An array job lists its tasks: take the one asked for. */
	json_array_foreach(jobs, i, e)
		if (rest_get_num(json_object_get(e, "job_id"), &n) == NUM_SET &&
		    n == job_id) {
			job = e;
			break;
		}
	if (job == NULL)
		job = json_array_get(jobs, 0);
	if (!json_is_object(job)) {
		json_decref(root);
		return rest_no_such_job(job_id);
	}
	if ((err = read_job(v, &st->job, &st->state_flags, &st->finished,
	    job)) != NULL)
		rest_job_status_release(st);
	/* An array's id: Slurm signals every task (job_str_signal() in
	 * slurmctld/job_mgr.c), refused only when all have ended. */
	json_array_foreach(jobs, i, e) {
		struct job_status	 t;
		struct error		*terr;
		bool			 f = false;

		if (err != NULL || !st->finished)
			break;
		if (e == job || !json_is_object(e))
			continue;
		memset(&t, 0, sizeof t);
		if ((terr = read_job(v, &t, NULL, &f, e)) != NULL)
			error_free(terr);
		st->finished = f;
		job_status_release(&t);
	}
	json_decref(root);
	return err;
}

struct error *
rest_parse_find(enum rest_version v, long status, const char *body,
    size_t len, const char *name, const char *user, int64_t *id)
{
	struct error	*err;
	json_t		*root, *jobs, *e;
	const char	*n;
	int64_t		 array, job;
	size_t		 i;

	*id = 0;
	if ((err = jobs_answer(v, status, body, len, "jobs", NULL, &root,
	    &jobs)) != NULL) {
		json_decref(root);
		return err;
	}
	json_array_foreach(jobs, i, e) {
		if ((err = check_named(v, e)) != NULL)
			break;
		n = json_string_value(json_object_get(e, "name"));
		if (n == NULL || strcmp(n, name) != 0 ||
		    !is_users(e, "user_name", user) ||
		    rest_get_num(json_object_get(e, "job_id"), &job) != NUM_SET)
			continue;
		if (rest_get_num(json_object_get(e, "array_job_id"), &array) ==
		    NUM_SET && array != 0)
			job = array;
		*id = job;
		break;
	}
	json_decref(root);
	return err;
}

void
rest_job_status_release(struct rest_job_status *st)
{
	job_status_release(&st->job);
	free(st->state_flags);
	memset(st, 0, sizeof *st);
}

/* ---- accounting ---- */

#define SLURM_E_EMPTY_RESULT	9003	/* Nothing found with query */

/* Does exit_code say "SUCCESS" (a string in 22.05, later a list)? */
static bool
exit_said_success(json_t *ec)
{
	json_t		*st = json_object_get(ec, "status");
	const char	*s;

	s = json_is_array(st) ? json_string_value(json_array_get(st, 0)) :
	    json_string_value(st);
	return s != NULL && strcmp(s, "SUCCESS") == 0;
}

/*
 * The nodes a job of accounting had, as sacct's NNodes shows them
 * (src/sacct/print.c, PRINT_NNODES): allocation_nodes, or when 0 (a job
 * cancelled before it ran) the node count of its TRES, those allocated
 * when there are any, else those requested.
 */
static int64_t
db_nodes(json_t *job)
{
	json_t		*tres = json_object_get(job, "tres"), *l, *e;
	const char	*type;
	int64_t		 n = 0;
	size_t		 i;

	if (rest_get_num(json_object_get(job, "allocation_nodes"), &n) ==
	    NUM_SET && n > 0)
		return n;
	l = json_object_get(tres, "allocated");
	if (json_array_size(l) == 0)
		l = json_object_get(tres, "requested");
	json_array_foreach(l, i, e)
		if ((type = json_string_value(json_object_get(e, "type"))) !=
		    NULL && strcmp(type, "node") == 0 &&
		    rest_get_num(json_object_get(e, "count"), &n) == NUM_SET)
			return n;
	return 0;
}

/*
 * The start of a job of accounting through dbv0.0.36 and dbv0.0.37
 * (22.05), which write the job's eligible time as time.start
 * (_add_parse(UINT32, eligible, "time/start") in their parse.c; fixed in
 * dbv0.0.38): for an ended job, its end less the time it ran and was
 * suspended, as slurmdbd computed them (elapsed = end - start -
 * suspended, as_mysql_jobacct_process.c); none for one that never ran
 * (no nodes) or has not ended.  S has its end and node list already.
 */
static int64_t
db_start_v37(json_t *time, const struct job_status *s)
{
	int64_t	 elapsed, suspended;

	if (s->end_time <= 0 || s->node_list == NULL ||
	    rest_get_num(json_object_get(time, "elapsed"), &elapsed) !=
	    NUM_SET || rest_get_num(json_object_get(time, "suspended"),
	    &suspended) != NUM_SET || elapsed + suspended > s->end_time)
		return 0;
	return s->end_time - elapsed - suspended;
}

/* A record of accounting's (GET /slurmdb/VERSION/job/ID). */
static struct error *
read_db_job(enum rest_version v, struct job_status *s, json_t *job)
{
	struct error	*err;
	json_t		*state = json_object_get(job, "state"), *time, *array;
	json_t		*ec = json_object_get(job, "exit_code");
	int64_t		 n;
	char		*p;
	bool		 exit_seen, ended;

	s->source = JOB_SOURCE_DBD;
	if (rest_get_num(json_object_get(job, "job_id"), &n) == NUM_SET)
		s->job_id = n;
	if ((err = read_state(s, NULL, &ended, json_object_get(state,
	    "current"))) != NULL)
		return err;
	s->reason = rest_get_str(state, "reason");
	s->nodes = db_nodes(job);
	s->partition = rest_get_str(job, "partition");
	s->name = rest_get_str(job, "name");
	/* A job that never ran: "None assigned". */
	s->node_list = rest_get_str(job, "nodes");
	if (s->node_list != NULL && strcmp(s->node_list, "None assigned") ==
	    0) {
		free(s->node_list);
		s->node_list = NULL;
	}
	s->user = rest_get_str(job, "user");
	time = json_object_get(job, "time");
	/* A job cancelled before it started: start NO_VAL (25.11) or null
	 * (22.05), sacct's "None". */
	s->submit_time = get_time(time, "submission");
	s->end_time = get_time(time, "end");
	s->start_time = v <= REST_V0_0_37 ? db_start_v37(time, s) :
	    get_time(time, "start");
	/*
	 * The job's own exit status, as sacct -X shows it, not its batch
	 * step's: a cancelled or timed-out job is 0:0 there (its batch step
	 * 0:15).  22.05's dbv0.0.38 writes {"SUCCESS", 0} for every job
	 * that exited, whatever its status (_dump_job_exit_code() tests
	 * WIFEXITED and writes 0), and so does dbv0.0.39 (23.02 to 24.05),
	 * fixed in v0.0.40's parser: only COMPLETED, which Slurm gives to an
	 * exit status of 0 alone, says what it was.  A signal it does
	 * report.
	 */
	exit_seen = read_exit(s, ec);
	if (v <= REST_V0_0_39 && exit_said_success(ec))
		exit_seen = strcmp(s->state, "COMPLETED") == 0;
	s->exit_known = exit_seen && ended;
	if (!s->exit_known)
		s->exit_code = s->exit_signal = 0;
	array = json_object_get(job, "array");
	(void)rest_get_num(json_object_get(json_object_get(json_object_get(
	    json_object_get(array, "limits"), "max"), "running"), "tasks"),
	    &n);
	read_array(s, json_object_get(array, "job_id"),
	    json_object_get(array, "task_id"),
	    json_string_value(json_object_get(array, "task")), n);
	s->work_dir = rest_get_str(job, "working_directory");
	/* v0.0.41 on: the pattern, and (24.11 on) the path expanded. */
	if ((p = rest_get_str(job, "stdout_expanded")) != NULL) {
		s->std_out = p;
		s->std_err = rest_get_str(job, "stderr_expanded");
		s->std_expanded = true;
	} else {
		s->std_out = rest_get_str(job, "stdout");
		s->std_err = rest_get_str(job, "stderr");
	}
	/* None in 22.05's accounting: keep_last_attempts() counts them. */
	if (rest_get_num(json_object_get(job, "restart_cnt"),
	    &s->restart_cnt) != NUM_SET)
		s->restart_unknown = true;
	return NULL;
}

/*
 * Accounting's records from N0 on as sacct shows them without
 * --duplicates: slurmrestd asks slurmdbd with JOBCOND_FLAG_DUP (22.05
 * openapi/dbv0.0.38/jobs.c, 25.11 openapi/slurmdbd/jobs.c
 * op_handler_job()), so a job requeued N times comes as N + 1 records,
 * one per start; slurmdbd without that flag keeps of each job id the
 * record submitted last (a requeue submits it again: "order by id_job,
 * time_submit desc", the first of each id kept) and none that a
 * federation revoked (as_mysql_jobacct_process.c).  The records kept
 * stay in their order.
 */
struct attempt {
	int64_t		 job_id, submit;
	size_t		 i;
};

/* By job id, then submit time, then place in the list. */
static int
attempt_cmp(const void *a, const void *b)
{
	const struct attempt	*x = a, *y = b;

	if (x->job_id != y->job_id)
		return x->job_id < y->job_id ? -1 : 1;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void
keep_last_attempts(struct job_list *list, size_t n0)
{
	struct attempt	*at;
	bool		*drop;
	size_t		 n = list->n - n0, i, k, kept = n0;

	if (n == 0)
		return;
	at = xcalloc(n, sizeof *at);
	drop = xcalloc(n, sizeof *drop);
	for (i = 0; i < n; i++) {
		at[i].job_id = list->v[n0 + i].job_id;
		at[i].submit = list->v[n0 + i].submit_time;
		at[i].i = i;
		drop[i] = strcmp(list->v[n0 + i].state, "REVOKED") == 0;
		/* A revoked record is no attempt of its id. */
		if (drop[i])
			at[i].job_id = -1;
	}
	qsort(at, n, sizeof *at, attempt_cmp);
	/*
	 * The last of each id is the newest: same submit time, the later in
	 * the list, as slurmdbd lists the newer last.  Where accounting
	 * keeps no restart count (22.05), each record before it is a start
	 * the job was requeued from.
	 */
	for (i = 0, k = 0; i < n; i++) {
		if (i > 0 && at[i].job_id != at[i - 1].job_id)
			k = i;
		if (at[i].job_id < 0)
			continue;
		if (i + 1 < n && at[i].job_id == at[i + 1].job_id)
			drop[at[i].i] = true;
		else if (list->v[n0 + at[i].i].restart_unknown) {
			list->v[n0 + at[i].i].restart_cnt = (int64_t)(i - k);
			list->v[n0 + at[i].i].restart_unknown = false;
		}
	}
	for (i = 0; i < n; i++) {
		if (drop[i])
			job_status_release(&list->v[n0 + i]);
		else
			list->v[kept++] = list->v[n0 + i];
	}
	list->n = kept;
	free(at);
	free(drop);
}

struct error *
rest_parse_history(enum rest_version v, long status, const char *body,
    size_t len, struct job_list *list)
{
	struct error	*err = NULL;
	json_t		*root, *jobs, *errors;
	size_t		 n0;

	root = rest_load(body, len);
	errors = json_object_get(root, "errors");
	jobs = json_object_get(root, "jobs");
	if (status == 404 && !rest_has_code(errors, SLURM_E_EMPTY_RESULT)) {
		err = error_new(EXIT_FAILURE_OP, "accounting: this slurmrestd "
		    "serves no /slurmdb/%s: its openapi/%s%s plugin is not "
		    "loaded", rest_version_name(v), v <= REST_V0_0_39 ? "db" :
		    "slurmdbd", v <= REST_V0_0_39 ? rest_version_name(v) : "");
		json_decref(root);
		return err;
	}
	/* 22.05: HTTP 200 and 9003 "Nothing found with query". */
	if (rest_has_code(errors, SLURM_E_EMPTY_RESULT) &&
	    json_array_size(jobs) == 0) {
		json_decref(root);
		return NULL;
	}
	if (rest_http_ok(status) && !json_is_object(root))
		err = error_new(EXIT_FAILURE_OP, "slurmrestd: the accounting "
		    "answer is not JSON (HTTP %ld)", status);
	else if (!rest_http_ok(status) || (json_array_size(errors) > 0 &&
	    json_array_size(jobs) == 0))
		err = rest_answer_error(v, status, root, body, len);
	else if (!json_is_array(jobs))
		err = error_new(EXIT_FAILURE_OP, "slurmrestd: the accounting "
		    "answer has no list of jobs (HTTP %ld)", status);
	n0 = list->n;
	if (err == NULL && (err = read_jobs(v, jobs, NULL, true, list)) ==
	    NULL)
		keep_last_attempts(list, n0);
	json_decref(root);
	return err;
}
