/*
 * jobview.c: how a job's records read (jobview.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "jobref.h"
#include "jobview.h"
#include "suggest.h"
#include "termtext.h"

/*
 * Slurm's names of a job's states: its base states and its flags
 * (backend.h).  A flag names the state of a job that has not ended but
 * REVOKED, a sibling job of a federation that another cluster runs:
 * this one will not.
 */
bool
job_state_ended(const char *state)
{
	return job_state_base_ended(state) || strcmp(state, "REVOKED") == 0;
}

bool
job_state_known(const char *state, size_t len)
{
	const char	*const *f;
	size_t		 i;

	for (i = 0; i < JOB_STATE_NBASE; i++)
		if (strlen(job_state_base_names[i]) == len &&
		    strncasecmp(state, job_state_base_names[i], len) == 0)
			return true;
	for (f = job_state_flag_names; *f != NULL; f++)
		if (strlen(*f) == len && strncasecmp(state, *f, len) == 0)
			return true;
	return false;
}

const char *
job_state_suggest(const char *word, size_t len)
{
	const char	*names[JOB_STATE_NBASE + 32];
	const char	*const *f;
	char		 up[32];
	size_t		 i, n = 0;

	if (len >= sizeof up)
		return NULL;
	for (i = 0; i < len; i++)
		up[i] = (char)toupper((unsigned char)word[i]);
	up[len] = '\0';
	for (i = 0; i < JOB_STATE_NBASE; i++)
		names[n++] = job_state_base_names[i];
	for (f = job_state_flag_names; *f != NULL &&
	    n < sizeof names / sizeof names[0]; f++)
		names[n++] = *f;
	return suggest(up, names, n);
}

bool
job_ok(const struct job_status *s)
{
	return strcmp(s->state, "COMPLETED") == 0 && s->exit_code == 0 &&
	    s->exit_signal == 0;
}

bool
job_list_is_array(const struct job_list *list, int64_t id)
{
	size_t	 i;

	for (i = 0; i < list->n; i++)
		if (list->v[i].array_tasks != NULL ||
		    (list->v[i].array_task_id >= 0 &&
		    list->v[i].array_job_id == id))
			return true;
	return false;
}

/* How many tasks record S stands for; -1 when it cannot be counted. */
static int64_t
record_tasks(const struct job_status *s)
{
	return s->array_tasks != NULL ? array_tasks_count(s->array_tasks) : 1;
}

void
array_view_make(const struct job_list *list, struct array_view *v)
{
	const struct job_status	*s;
	size_t			 i, k;
	int64_t			 n;

	memset(v, 0, sizeof *v);
	v->ended = true;
	for (i = 0; i < list->n; i++) {
		s = &list->v[i];
		n = record_tasks(s);
		if (n < 0 || v->tasks < 0)
			v->tasks = -1;
		else
			v->tasks += n;
		for (k = 0; k < v->nstates; k++)
			if (strcmp(v->states[k], s->state) == 0)
				break;
		if (k == v->nstates && k < sizeof v->states /
		    sizeof v->states[0]) {
			v->states[k] = s->state;
			v->nstates++;
		}
		if (k < v->nstates)
			v->count[k] += n < 0 ? 1 : n;
		if (!job_state_ended(s->state)) {
			v->ended = false;
			continue;
		}
		if (!job_ok(s))
			v->not_ok += n < 0 ? 1 : n;
		if (!s->exit_known)
			v->exit_unknown = true;
		if (s->exit_code > v->max_exit)
			v->max_exit = s->exit_code;
	}
	/* One word, as a pipeline would ask: running while any runs. */
	v->state = "COMPLETED";
	for (k = 0; k < v->nstates; k++) {
		if (strcmp(v->states[k], "RUNNING") == 0) {
			v->state = "RUNNING";
			return;
		}
		if (!job_state_ended(v->states[k]))
			v->state = v->states[k];
		else if (strcmp(v->state, "COMPLETED") == 0 &&
		    strcmp(v->states[k], "COMPLETED") != 0)
			v->state = v->states[k];
	}
	if (!v->ended && job_state_ended(v->state))
		v->state = "PENDING";
}

void
job_status_name(const struct job_status *s, char *name, size_t size)
{
	if (s->array_tasks != NULL)
		snprintf(name, size, "%lld_[%s]", (long long)(s->array_job_id ?
		    s->array_job_id : s->job_id), s->array_tasks);
	else if (s->array_task_id >= 0)
		snprintf(name, size, "%lld_%lld", (long long)s->array_job_id,
		    (long long)s->array_task_id);
	else
		snprintf(name, size, "%lld", (long long)s->job_id);
}

/* "1:02:03" or "2-01:02:03" for SECONDS. */
static void
elapsed_text(int64_t t, char *s, size_t size)
{
	if (t >= 86400)
		snprintf(s, size, "%lld-%02lld:%02lld:%02lld",
		    (long long)(t / 86400), (long long)(t % 86400 / 3600),
		    (long long)(t % 3600 / 60), (long long)(t % 60));
	else
		snprintf(s, size, "%lld:%02lld:%02lld", (long long)(t / 3600),
		    (long long)(t % 3600 / 60), (long long)(t % 60));
}

/* Seconds S ran, or -1 when it has not started. */
static int64_t
job_elapsed(const struct job_status *s)
{
	int64_t	 end;

	if (s->start_time <= 0 || strcmp(s->state, "PENDING") == 0)
		return -1;
	end = s->end_time > 0 && job_state_ended(s->state) ? s->end_time :
	    (int64_t)time(NULL);
	return end >= s->start_time ? end - s->start_time : -1;
}

void
job_status_print(FILE *f, const struct job_status *s)
{
	char		 name[64], el[32];
	int64_t		 t;
	/* A job cancelled before it had nodes never exited. */
	bool		 ended = job_state_ended(s->state) && s->exit_known &&
	    s->node_list != NULL;

	job_status_name(s, name, sizeof name);
	termtext_printf(f, "job %s", name);
	if (s->array_task_id >= 0 && s->job_id != s->array_job_id)
		fprintf(f, " (%lld)", (long long)s->job_id);
	/* Slurm's words, escaped for a terminal (termtext.h). */
	termtext_printf(f, ": %s", s->state);
	if (s->reason != NULL && strcmp(s->reason, "None") != 0)
		termtext_printf(f, " (%s)", s->reason);
	fprintf(f, ", %lld node%s", (long long)s->nodes,
	    s->nodes == 1 ? "" : "s");
	if (s->partition != NULL)
		termtext_printf(f, " in partition %s", s->partition);
	if (s->node_list != NULL)
		termtext_printf(f, " on %s", s->node_list);
	if (ended && s->exit_signal != 0)
		fprintf(f, ", killed by signal %d", s->exit_signal);
	else if (ended)
		fprintf(f, ", exit code %d", s->exit_code);
	if ((t = job_elapsed(s)) >= 0) {
		elapsed_text(t, el, sizeof el);
		fprintf(f, ", %s %s", job_state_ended(s->state) ? "ran" :
		    "running for", el);
	}
	if (s->restart_cnt > 0)
		fprintf(f, ", restarted %lld time%s", (long long)s->restart_cnt,
		    s->restart_cnt == 1 ? "" : "s");
	if (s->source == JOB_SOURCE_DBD)
		fprintf(f, " (from accounting: slurmctld no longer knows it)");
}

void
array_print(FILE *f, int64_t id, const struct job_list *list)
{
	struct array_view	 v;
	size_t			 i, k;

	array_view_make(list, &v);
	fprintf(f, "array %lld: ", (long long)id);
	if (v.tasks >= 0)
		fprintf(f, "%lld task%s: ", (long long)v.tasks,
		    v.tasks == 1 ? "" : "s");
	for (k = 0; k < v.nstates; k++)
		termtext_printf(f, "%s%lld %s", k > 0 ? ", " : "",
		    (long long)v.count[k], v.states[k]);
	if (list->n > 0 && list->v[0].source == JOB_SOURCE_DBD)
		fprintf(f, " (from accounting: slurmctld no longer knows it)");
	fputc('\n', f);
	for (i = 0; i < list->n; i++) {
		if (!job_state_ended(list->v[i].state) || job_ok(&list->v[i]))
			continue;
		fputs("  ", f);
		job_status_print(f, &list->v[i]);
		fputc('\n', f);
	}
}

json_t *
job_time_json(int64_t t)
{
	char		 s[32];
	struct tm	 tm;
	time_t		 tt = (time_t)t;

	if (t <= 0 || localtime_r(&tt, &tm) == NULL)
		return json_null();
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S%z", &tm);
	return json_string(s);
}

json_t *
job_status_json(const struct job_status *s, const char *backend)
{
	bool	 ended = s->exit_known && job_state_ended(s->state) &&
	    s->node_list != NULL;
	int64_t	 t = job_elapsed(s);
	json_t	*o;

	/* Slurm's text is any bytes (a name another user chose): made
	 * valid UTF-8, so that the object is never NULL (termtext.h). */
	o = json_pack("{s:I,s:o,s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,"
	    "s:o,s:o,s:o,s:s,s:s}", "job_id", (json_int_t)s->job_id,
	    "state", termtext_json(s->state),
	    "reason", termtext_json(s->reason),
	    "nodes", (json_int_t)s->nodes,
	    "partition", termtext_json(s->partition),
	    "name", termtext_json(s->name),
	    "node_list", termtext_json(s->node_list),
	    "submit_time", job_time_json(s->submit_time),
	    "start_time", job_time_json(s->start_time),
	    "end_time", job_time_json(s->end_time),
	    "elapsed", t >= 0 ? json_integer(t) : json_null(),
	    "exit_code", ended ? json_integer(s->exit_code) : json_null(),
	    "exit_signal", ended ? json_integer(s->exit_signal) : json_null(),
	    "restart_count", s->restart_unknown ? json_null() :
	    json_integer(s->restart_cnt),
	    "source", job_source_name(s->source), "backend", backend);
	if (s->array_task_id >= 0) {
		json_object_set_new(o, "array_job_id",
		    json_integer(s->array_job_id));
		json_object_set_new(o, "array_task_id",
		    json_integer(s->array_task_id));
	}
	if (s->array_tasks != NULL) {
		json_object_set_new(o, "array_job_id", json_integer(
		    s->array_job_id ? s->array_job_id : s->job_id));
		json_object_set_new(o, "array_tasks",
		    termtext_json(s->array_tasks));
	}
	if (s->dependency != NULL)
		json_object_set_new(o, "dependency",
		    termtext_json(s->dependency));
	return o;
}

json_t *
array_json(int64_t id, const struct job_list *list, const char *backend)
{
	struct array_view	 v;
	json_t			*o, *states, *tasks, *failed;
	size_t			 i, k;

	array_view_make(list, &v);
	states = json_object();
	for (k = 0; k < v.nstates; k++)
		json_object_set_new(states, v.states[k],
		    json_integer(v.count[k]));
	tasks = json_array();
	failed = json_array();
	for (i = 0; i < list->n; i++) {
		json_array_append_new(tasks, job_status_json(&list->v[i],
		    backend));
		if (job_state_ended(list->v[i].state) && !job_ok(&list->v[i]) &&
		    list->v[i].array_task_id >= 0)
			json_array_append_new(failed,
			    json_integer(list->v[i].array_task_id));
	}
	o = json_pack("{s:I,s:b,s:s,s:o,s:o,s:o,s:o,s:o,s:s,s:s}",
	    "job_id", (json_int_t)id, "array", 1, "state", v.state,
	    "task_count", v.tasks >= 0 ? json_integer(v.tasks) : json_null(),
	    "states", states, "exit_code", v.ended && !v.exit_unknown ?
	    json_integer(v.max_exit) : json_null(), "failed_tasks", failed,
	    "tasks", tasks, "source", list->n > 0 ?
	    job_source_name(list->v[0].source) : "slurmctld",
	    "backend", backend);
	return o;
}
