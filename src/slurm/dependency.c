/* dependency.c: which jobs wait for which; see dependency.h. */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "dependency.h"
#include "xmalloc.h"

bool
dependency_names(const char *dep, int64_t id)
{
	const char	*p = dep, *end;
	int64_t		 v;

	if (dep == NULL || id <= 0)
		return false;
	while (*p != '\0') {
		end = p + strcspn(p, ",?");
		/* TYPE, then one or more ":ID..." */
		p += strcspn(p, ":,?");
		while (p < end && *p == ':') {
			p++;
			for (v = 0; p < end && *p >= '0' && *p <= '9'; p++)
				if (v <= INT64_MAX / 10 - 9)
					v = v * 10 + (*p - '0');
			if (v == id)
				return true;
			while (p < end && *p != ':')
				p++;
		}
		p = *end != '\0' ? end + 1 : end;
	}
	return false;
}

/* The id a record is cancelled by: its array's for a task. */
static int64_t
record_id(const struct job_status *s)
{
	return s->array_job_id != 0 ? s->array_job_id : s->job_id;
}

static bool
have(const int64_t *ids, size_t n, int64_t id)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* Does record S name job ID, or one of its N tasks' own ids TASKS? */
static bool
waits_for(const struct job_status *s, int64_t id, const int64_t *tasks,
    size_t n)
{
	size_t	 i;

	if (s->dependency == NULL || s->dependency[0] == '\0')
		return false;
	if (dependency_names(s->dependency, id))
		return true;
	for (i = 0; i < n; i++)
		if (dependency_names(s->dependency, tasks[i]))
			return true;
	return false;
}

void
dependency_closure(const struct job_list *list, int64_t root, int64_t **ids,
    int64_t **after, size_t *n)
{
	int64_t		*all;		/* ROOT, then what is found */
	int64_t		*from, *tasks;
	size_t		 nall = 1, ntasks, k, i;
	int64_t		 id;

	all = xcalloc(list->n + 1, sizeof *all);
	from = xcalloc(list->n + 1, sizeof *from);
	tasks = xcalloc(list->n + 1, sizeof *tasks);
	all[0] = root;
	for (k = 0; k < nall; k++) {
		/* An array's tasks, by their own ids. */
		for (i = ntasks = 0; i < list->n; i++)
			if (list->v[i].array_job_id == all[k] &&
			    list->v[i].job_id != all[k])
				tasks[ntasks++] = list->v[i].job_id;
		for (i = 0; i < list->n; i++) {
			id = record_id(&list->v[i]);
			if (!waits_for(&list->v[i], all[k], tasks, ntasks) ||
			    have(all, nall, id))
				continue;
			all[nall] = id;
			from[nall++] = all[k];
		}
	}
	free(tasks);
	*n = nall - 1;
	*ids = xcalloc(nall, sizeof **ids);
	*after = xcalloc(nall, sizeof **after);
	memcpy(*ids, all + 1, *n * sizeof **ids);
	memcpy(*after, from + 1, *n * sizeof **after);
	free(all);
	free(from);
}
