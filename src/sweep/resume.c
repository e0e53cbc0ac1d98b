/* resume.c: a sweep's journal, checked, as a plan; see resume.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "grid.h"
#include "resume.h"
#include "xmalloc.h"

/* A job name in a journal: at most this long (Slurm's own limit is
 * lower), printable, and one of this sweep's. */
#define RESUME_NAME_MAX	1024

bool
resume_id_valid(const char *id)
{
	size_t	 i;

	if (id == NULL || strlen(id) != RESUME_ID_LEN)
		return false;
	for (i = 0; i < RESUME_ID_LEN; i++)
		if (strchr("0123456789abcdef", id[i]) == NULL)
			return false;
	return true;
}

static struct error *
bad_line(const char *path, size_t line, const char *why)
{
	return error_hint(error_new(EXIT_USAGE, "journal '%s': line %zu: %s",
	    path, line + 1, why), "a journal is written only by mbsbatch "
	    "sweep: this one was changed or is not a journal");
}

static struct error *
check_header(const char *path, json_t *h, json_t *grid, int64_t *npoints,
    struct resume_plan *plan)
{
	const char	*id = json_string_value(json_object_get(h, "sweep"));
	json_t		*n = json_object_get(h, "points");

	if (id == NULL)
		return error_new(EXIT_USAGE, "journal '%s': not a sweep's "
		    "journal", path);
	if (!resume_id_valid(id))
		return bad_line(path, 0, "not a sweep id mbsbatch makes");
	if (json_integer_value(json_object_get(h, "version")) != 1)
		return bad_line(path, 0, "not a version this mbsbatch reads");
	if (!json_is_integer(n) || json_integer_value(n) < 0 ||
	    json_integer_value(n) > GRID_MAX_POINTS)
		return bad_line(path, 0, "no count of points");
	if (grid != NULL && (!json_equal(json_object_get(h, "grid"), grid) ||
	    json_integer_value(n) != *npoints))
		return error_hint(error_new(EXIT_USAGE, "journal '%s' records "
		    "another sweep (its grid differs)", path), "resume with "
		    "the same JOBFILE and --grid options");
	*npoints = json_integer_value(n);
	memcpy(plan->id, id, RESUME_ID_LEN + 1);
	return NULL;
}

/* NAME is a job name this sweep (ID) gave. */
static bool
name_valid(const char *name, const char *id)
{
	char	 tag[RESUME_ID_LEN + 3];
	size_t	 i, len = strlen(name);

	if (len == 0 || len > RESUME_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return false;
	snprintf(tag, sizeof tag, "-%s-", id);
	return strstr(name, tag) != NULL;
}

/* An array's name, as sweep gives them: "...-ID-aN" (sweep.c). */
static bool
is_array_name(const char *name)
{
	const char	*a = strrchr(name, '-');

	if (a == NULL || a[1] != 'a' || a[2] == '\0')
		return false;
	for (a += 2; *a != '\0'; a++)
		if (*a < '0' || *a > '9')
			return false;
	return true;
}

/*
 * The points of record REC (line LINE) into *OUT: a non-empty list of
 * distinct points of the sweep.  SEEN[p] == LINE marks a point already
 * in this record.
 */
static struct error *
check_points(const char *path, size_t line, json_t *rec, int64_t npoints,
    size_t *seen, int64_t **out, size_t *n)
{
	json_t	*pts = json_object_get(rec, "points"), *e;
	size_t	 k;
	int64_t	 p;

	if (!json_is_array(pts) || json_array_size(pts) == 0 ||
	    json_array_size(pts) > (size_t)npoints)
		return bad_line(path, line, "no list of points");
	*n = json_array_size(pts);
	*out = xreallocarray(NULL, *n, sizeof **out);
	json_array_foreach(pts, k, e) {
		p = json_integer_value(e);
		if (!json_is_integer(e) || p < 0 || p >= npoints ||
		    seen[p] == line) {
			free(*out);
			*out = NULL;
			return bad_line(path, line, "a point that is not one "
			    "of the sweep's, or twice");
		}
		seen[p] = line;
		(*out)[k] = p;
	}
	return NULL;
}

/*
 * Record REC (line LINE) into PLAN; IDS: the job ids seen, as keys.  A
 * queued record's "output" and "error" (where each point writes, since
 * mbsbatch logs) are not needed here: journals written before them
 * resume the same.
 */
static struct error *
check_record(const char *path, size_t line, json_t *rec,
    struct resume_plan *plan, size_t *seen, json_t *ids)
{
	const char		*sub, *q, *name;
	json_t			*id = json_object_get(rec, "job_id");
	struct resume_pending	*pd;
	struct error		*err;
	int64_t			*pts = NULL;
	size_t			 n = 0, k;
	char			 key[32];

	sub = json_string_value(json_object_get(rec, "submitting"));
	q = json_string_value(json_object_get(rec, "queued"));
	if ((sub == NULL) == (q == NULL))
		return bad_line(path, line, "neither a submission nor a "
		    "queued job");
	name = sub != NULL ? sub : q;
	if (!name_valid(name, plan->id))
		return bad_line(path, line, "not a job name of this sweep");
	if (q != NULL && (!json_is_integer(id) || json_integer_value(id) < 1 ||
	    json_integer_value(id) > UINT32_MAX))
		return bad_line(path, line, "no job id");
	if ((err = check_points(path, line, rec, plan->npoints, seen, &pts,
	    &n)) != NULL)
		return err;
	if (q != NULL) {
		for (k = 0; k < n; k++) {
			plan->queued[pts[k]] = true;
			plan->jobs[pts[k]].job_id = json_integer_value(id);
			plan->jobs[pts[k]].task = is_array_name(name) ?
			    (int64_t)k : -1;
		}
		free(pts);
		snprintf(key, sizeof key, "%lld",
		    (long long)json_integer_value(id));
		if (json_object_get(ids, key) == NULL) {
			json_object_set_new(ids, key, json_true());
			plan->job_ids = xreallocarray(plan->job_ids,
			    plan->njob_ids + 1, sizeof *plan->job_ids);
			plan->job_ids[plan->njob_ids++] =
			    json_integer_value(id);
		}
		return NULL;
	}
	plan->pending = xreallocarray(plan->pending, plan->npending + 1,
	    sizeof *plan->pending);
	pd = &plan->pending[plan->npending++];
	pd->name = xstrdup(name);
	pd->points = pts;
	pd->npoints = n;
	return NULL;
}

/* Only the submissions none of whose points was queued are pending. */
static void
drop_settled(struct resume_plan *plan)
{
	size_t	 i, k, kept = 0;

	for (i = 0; i < plan->npending; i++) {
		for (k = 0; k < plan->pending[i].npoints; k++)
			if (plan->queued[plan->pending[i].points[k]])
				break;
		if (k < plan->pending[i].npoints) {
			free(plan->pending[i].name);
			free(plan->pending[i].points);
			continue;
		}
		plan->pending[kept++] = plan->pending[i];
	}
	plan->npending = kept;
}

struct error *
resume_plan(const char *path, json_t *lines, json_t *grid, int64_t npoints,
    struct resume_plan *plan)
{
	struct error	*err;
	json_t		*ids;
	size_t		 line, *seen;

	memset(plan, 0, sizeof *plan);
	if ((err = check_header(path, json_array_get(lines, 0), grid,
	    &npoints, plan)) != NULL)
		return err;
	plan->npoints = npoints;
	plan->queued = xcalloc((size_t)npoints + 1, sizeof *plan->queued);
	plan->jobs = xcalloc((size_t)npoints + 1, sizeof *plan->jobs);
	seen = xcalloc((size_t)npoints + 1, sizeof *seen);
	ids = json_object();
	for (line = 1; line < json_array_size(lines) && err == NULL; line++)
		err = check_record(path, line, json_array_get(lines, line),
		    plan, seen, ids);
	free(seen);
	json_decref(ids);
	if (err != NULL) {
		resume_plan_release(plan);
		return err;
	}
	drop_settled(plan);
	return NULL;
}

void
resume_plan_release(struct resume_plan *plan)
{
	size_t	 i;

	for (i = 0; i < plan->npending; i++) {
		free(plan->pending[i].name);
		free(plan->pending[i].points);
	}
	free(plan->pending);
	free(plan->queued);
	free(plan->jobs);
	free(plan->job_ids);
	memset(plan, 0, sizeof *plan);
}
