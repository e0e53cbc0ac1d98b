/*
 * joblookup.c: slurmctld first, accounting after (joblookup.h).
 * slurmctld forgets a job MinJobAge seconds (default 300) after it ends;
 * slurmdbd keeps it for as long as the site's purge rules say.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "joblookup.h"
#include "jobview.h"
#include "xmalloc.h"

void
job_ref_format(const struct job_ref *ref, char *s, size_t size)
{
	if (ref->task >= 0)
		snprintf(s, size, "%lld_%lld", (long long)ref->id,
		    (long long)ref->task);
	else
		snprintf(s, size, "%lld", (long long)ref->id);
}

/* Is S task TASK, or the group of tasks not started it waits in? */
static bool
record_has_task(const struct job_status *s, int64_t task)
{
	return s->array_task_id == task || (s->array_task_id < 0 &&
	    s->array_tasks != NULL && array_tasks_has(s->array_tasks, task));
}

/* Does LIST have task TASK, started or in a group? */
static bool
has_task(const struct job_list *list, int64_t task)
{
	size_t	 i;

	for (i = 0; i < list->n; i++)
		if (record_has_task(&list->v[i], task))
			return true;
	return false;
}

/*
 * A group's path as Slurm expanded it (REST v0.0.40-42, scontrol) has
 * %a as NO_VAL, 4294967294: TASK's is its number.
 */
static void
task_path(char **path, int64_t task)
{
	char	*p, *s;

	if (*path == NULL || (p = strstr(*path, "4294967294")) == NULL)
		return;
	s = xasprintf("%.*s%lld%s", (int)(p - *path), *path, (long long)task,
	    p + 10);
	free(*path);
	*path = s;
}

/*
 * Keep in LIST only task TASK of array ID (or of the job whose own id is
 * ID): the started task's record, or a copy of the group it waits in.
 */
static void
keep_task(struct job_list *list, int64_t id, int64_t task)
{
	struct job_list	 kept = { NULL, 0 };
	struct job_status *s, *k;
	size_t		 i;

	for (i = 0; i < list->n && kept.n == 0; i++) {
		s = &list->v[i];
		if ((s->array_job_id != id && s->job_id != id) ||
		    !record_has_task(s, task))
			continue;
		k = job_list_add(&kept);
		*k = *s;
		memset(s, 0, sizeof *s);
		if (k->array_task_id >= 0)
			continue;
		/* A task not yet started: no id of its own. */
		free(k->array_tasks);
		k->array_tasks = NULL;
		k->array_task_id = task;
		k->array_job_id = id;
		if (k->std_expanded) {
			task_path(&k->std_out, task);
			task_path(&k->std_err, task);
		}
	}
	job_list_release(list);
	*list = kept;
}

/*
 * An array's tasks that ended long enough ago have left slurmctld while
 * later ones are still there: those from accounting join LIST, or an
 * array whose early tasks failed would look fine.  Without accounting,
 * LIST stays what slurmctld said.
 */
static void
add_forgotten(const struct backend *be, struct backend_ctx *ctx, int64_t id,
    struct job_list *list)
{
	struct job_list	 h = { NULL, 0 };
	struct error	*err;
	size_t		 i;

	if ((err = be->history(ctx, id, &h)) != NULL) {
		error_free(err);
		return;
	}
	for (i = 0; i < h.n; i++) {
		if (h.v[i].array_task_id < 0 || h.v[i].array_job_id != id ||
		    has_task(list, h.v[i].array_task_id))
			continue;
		*job_list_add(list) = h.v[i];
		memset(&h.v[i], 0, sizeof h.v[i]);
	}
	job_list_release(&h);
}

/* Tasks in order, each group after them; the job before its tasks. */
static int
record_cmp(const void *a, const void *b)
{
	const struct job_status	*x = a, *y = b;
	int64_t			 kx, ky;

	kx = x->array_tasks != NULL ? INT64_MAX : x->array_task_id;
	ky = y->array_tasks != NULL ? INT64_MAX : y->array_task_id;
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return x->job_id < y->job_id ? -1 : x->job_id > y->job_id;
}

/*
 * LIST as the commands show it: in task order; and an ended job's
 * reason only as slurmctld gives it (accounting keeps the last thing a
 * job waited for: "COMPLETED (Dependency)" says nothing true).
 */
static void
tidy(struct job_list *list, int release)
{
	size_t	 i;

	if (list->n > 1)
		qsort(list->v, list->n, sizeof *list->v, record_cmp);
	for (i = 0; i < list->n; i++) {
		if (list->v[i].release == 0)
			list->v[i].release = release;
		if (list->v[i].source == JOB_SOURCE_DBD &&
		    job_state_ended(list->v[i].state)) {
			free(list->v[i].reason);
			list->v[i].reason = NULL;
		}
	}
}

/* MERGE: an array's tasks slurmctld forgot are asked of accounting. */
static struct error *
lookup(const struct backend *be, struct backend_ctx *ctx,
    const struct job_ref *ref, struct job_list *list, bool merge)
{
	struct error	*err, *dbd;
	char		 name[48];

	memset(list, 0, sizeof *list);
	if ((err = be->status(ctx, ref->id, list)) != NULL)
		return err;
	if (merge && ref->task < 0 && job_list_is_array(list, ref->id))
		add_forgotten(be, ctx, ref->id, list);
	if (ref->task >= 0)
		keep_task(list, ref->id, ref->task);
	if (list->n > 0) {
		tidy(list, be->release(ctx));
		return NULL;
	}
	if ((dbd = be->history(ctx, ref->id, list)) == NULL) {
		if (ref->task >= 0)
			keep_task(list, ref->id, ref->task);
		if (list->n > 0) {
			tidy(list, be->release(ctx));
			return NULL;
		}
	}
	job_ref_format(ref, name, sizeof name);
	if (dbd == NULL)
		return error_set_kind(error_new(EXIT_FAILURE_OP, "job %s: no "
		    "such job (neither slurmctld nor accounting knows it)",
		    name), ERROR_NO_SUCH_JOB);
	err = error_new(EXIT_FAILURE_OP, "job %s: no such job (slurmctld "
	    "does not know it and %s)", name, dbd->msg);
	error_free(dbd);
	return error_set_kind(err, ERROR_NO_SUCH_JOB);
}

struct error *
job_lookup(const struct backend *be, struct backend_ctx *ctx,
    const struct job_ref *ref, struct job_list *list)
{
	return lookup(be, ctx, ref, list, true);
}

struct error *
job_lookup_poll(const struct backend *be, struct backend_ctx *ctx,
    const struct job_ref *ref, struct job_list *list)
{
	return lookup(be, ctx, ref, list, false);
}
