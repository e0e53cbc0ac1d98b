/* sweep.c: packing sweep points into submissions; see sweep.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "jobdesc.h"
#include "quote.h"
#include "sbatch-directives.h"
#include "slurmopt.h"
#include "sweep.h"
#include "xmalloc.h"

void
sweep_points_free(struct sweep_point *pts, int64_t n)
{
	int64_t	 i;

	for (i = 0; pts != NULL && i < n; i++) {
		free(pts[i].desc);
		free(pts[i].name);
		free(pts[i].script);
		free(pts[i].key);
		free(pts[i].skip);
	}
	free(pts);
}

void
sweep_units_release(struct sweep_units *u)
{
	size_t	 i;

	for (i = 0; i < u->n; i++) {
		free(u->v[i].idx);
		free(u->v[i].name);
		free(u->v[i].script);
	}
	free(u->v);
	u->v = NULL;
	u->n = 0;
}

char *
sweep_slurm_key(const struct slurmopt *o)
{
	struct buf	 b;
	const char	*v;
	char		 num[32];
	int		 i;

	buf_init(&b);
	for (i = 0; i < o->n; i++) {
		if (strcmp(o->d[i].option, "job-name") == 0)
			continue;
		v = slurmopt_value(&o->d[i], num, sizeof num);
		buf_addf(&b, "%s%s%s\n", o->d[i].option, v != NULL ? "=" : "",
		    v != NULL ? v : "");
	}
	buf_addc(&b, '\0');
	return buf_detach(&b);
}

char *
sweep_directive_key(const char *script, const char *name)
{
	struct buf	 b;
	const char	*pos = script, *line, *at, *end;
	size_t		 len, nlen = strlen(name);
	int		 lineno = 0;

	buf_init(&b);
	while ((line = sbatch_directives_next(&pos, &len, &lineno)) != NULL) {
		/* An empty NAME blanks nothing (and would match forever). */
		for (end = line + len; nlen > 0 && line < end;
		    line = at + nlen) {
			at = memmem(line, (size_t)(end - line), name, nlen);
			if (at == NULL)
				break;
			buf_add(&b, line, (size_t)(at - line));
			buf_addc(&b, '\001');
		}
		buf_add(&b, line, (size_t)(end - line));
		buf_addc(&b, '\n');
	}
	buf_addc(&b, '\0');
	return buf_detach(&b);
}

/* Append "#SBATCH --job-name=NAME", NAME quoted for sbatch's lexer. */
static struct error *
name_line(struct buf *b, const char *name)
{
	const char	*why;

	if ((why = quote_sbatch_check(name)) != NULL)
		return error_new(EXIT_USAGE, "sweep: job name '%s': %s", name,
		    why);
	buf_adds(b, "#SBATCH --job-name=");
	quote_sbatch(b, name);
	buf_addc(b, '\n');
	return NULL;
}

/* Does SCRIPT's job get the name NAME, as sbatch reads it? */
static struct error *
named(const char *script, const char *name, bool *yes)
{
	struct jobdesc	 d;
	struct error	*err;

	jobdesc_init(&d);
	err = sbatch_directives_parse("sweep", script, 1, &d);
	*yes = err == NULL && d.name != NULL && strcmp(d.name, name) == 0;
	jobdesc_release(&d);
	return err;
}

struct error *
sweep_own_name(char **script, const char *name)
{
	struct error	*err;
	struct buf	 b;
	const char	*pos = *script, *last = NULL;
	size_t		 len;
	int		 lineno = 0;
	bool		 yes;

	if ((err = named(*script, name, &yes)) != NULL || yes)
		return err;
	while (sbatch_directives_next(&pos, &len, &lineno) != NULL)
		last = pos;
	if (last == NULL)	/* none: after line 1 */
		last = strchr(*script, '\n') != NULL ?
		    strchr(*script, '\n') + 1 : *script + strlen(*script);
	buf_init(&b);
	buf_add(&b, *script, (size_t)(last - *script));
	if (last > *script && last[-1] != '\n')
		buf_addc(&b, '\n');
	if ((err = name_line(&b, name)) != NULL) {
		buf_release(&b);
		return err;
	}
	buf_adds(&b, last);
	buf_addc(&b, '\0');
	free(*script);
	*script = buf_detach(&b);
	return NULL;
}

/* A log directive for an array: each task's own file, %A_%a for %j. */
static void
log_line(struct buf *b, const char *p, const char *e)
{
	for (; p <= e; p++) {
		if (p < e && p[0] == '%' && p[1] == 'j') {
			buf_adds(b, "%A_%a");
			p++;
		} else
			buf_addc(b, *p);
	}
}

/* The first point's #SBATCH lines (the same as every other's but the
 * name), the logs per task, then the array's name, which wins, being
 * last, and its tasks. */
static struct error *
array_head(struct buf *b, const char *first, const char *name, int64_t n)
{
	struct error	*err;
	const char	*pos, *p;
	size_t		 len;
	int		 lineno = 0;

	p = strchr(first, '\n');
	buf_add(b, first, (size_t)(p - first + 1));	/* #!/bin/bash */
	for (pos = first; (p = sbatch_directives_next(&pos, &len,
	    &lineno)) != NULL; ) {
		if (strncmp(p, "#SBATCH --output", 16) == 0 ||
		    strncmp(p, "#SBATCH --error", 15) == 0)
			log_line(b, p, p + len - 1);
		else
			buf_add(b, p, len);
		buf_addc(b, '\n');
	}
	if ((err = name_line(b, name)) != NULL)
		return err;
	buf_addf(b, "#SBATCH --array=0-%lld\n#\n", (long long)(n - 1));
	return NULL;
}

/* Task K: a function printing point I's script SC, up to END. */
static struct error *
array_task(struct buf *b, const struct sweep_point *pt, int64_t i,
    int64_t k, const char *end)
{
	char	*line = xasprintf("\n%s\n", end);
	bool	 clash = strstr(pt->script, line) != NULL ||
	    strncmp(pt->script, end, strlen(end)) == 0;

	free(line);
	if (clash)
		return error_new(EXIT_FAILURE_OP, "sweep: point %lld's script "
		    "contains the line %s", (long long)i, end);
	buf_addf(b, "# point %lld: %s\nmbsbatch_task_%lld() {\ncat <<'%s'\n"
	    "%s%s\n}\n\n", (long long)i, pt->desc, (long long)k, end,
	    pt->script, end);
	return NULL;
}

struct error *
sweep_array_script(const char *id, const struct sweep_point *pts,
    const int64_t *idx, int64_t n, const char *name, char **out)
{
	struct buf	 b;
	struct error	*err;
	char		 end[64];
	int64_t		 k;

	snprintf(end, sizeof end, "MBSBATCH_POINT_END_%s", id);
	buf_init(&b);
	err = array_head(&b, pts[idx[0]].script, name, n);
	if (err == NULL)
		buf_addf(&b, "# mbsbatch sweep %s: %lld points as one job "
		    "array.  Task K runs\n# the script of its point, as "
		    "mbsbatch gen writes it, below.\n\n", id, (long long)n);
	for (k = 0; k < n && err == NULL; k++)
		err = array_task(&b, &pts[idx[k]], idx[k], k, end);
	buf_addf(&b, "task=mbsbatch_task_${SLURM_ARRAY_TASK_ID:-none}\n"
	    "if ! declare -F \"$task\" >/dev/null; then\n"
	    "\techo \"mbsbatch: array task '${SLURM_ARRAY_TASK_ID:-}' has no "
	    "point\" >&2\n\texit 1\nfi\n"
	    "exec /bin/bash -c \"$(\"$task\")\" \"$0\"\n");
	if (err == NULL && b.len > SWEEP_ARRAY_SCRIPT_MAX)
		err = error_new(EXIT_FAILURE_OP, "sweep: an array of %lld "
		    "points is larger than 3 MiB", (long long)n);
	if (err != NULL) {
		buf_release(&b);
		return err;
	}
	*out = buf_detach(&b);
	return NULL;
}

static void
add_unit(struct sweep_point *pts, struct sweep_units *u, const int64_t *idx,
    int64_t n, char *name, char *script)
{
	struct sweep_unit	*v;
	int64_t			 k;

	u->v = xreallocarray(u->v, u->n + 1, sizeof *u->v);
	v = &u->v[u->n++];
	v->idx = xreallocarray(NULL, (size_t)n, sizeof *v->idx);
	memcpy(v->idx, idx, (size_t)n * sizeof *idx);
	v->n = n;
	v->name = name;
	v->script = script;
	for (k = 0; k < n; k++) {
		pts[idx[k]].unit = u->n - 1;
		pts[idx[k]].task = k;
	}
}

static bool
waiting(const struct sweep_point *pt)
{
	return !pt->queued && pt->script != NULL;
}

struct keyed {
	const char	*key;
	int64_t		 i;
};

static int
keyed_cmp(const void *a, const void *b)
{
	const struct keyed	*x = a, *y = b;
	int			 c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * next[i]: the next waiting point of i's group (the same key), or -1.
 * Sorting by key makes it O(n log n): 100,000 distinct points took
 * minutes when each point was compared with every other.
 */
static int64_t *
group_next(const struct sweep_point *pts, int64_t n)
{
	struct keyed	*ord = xreallocarray(NULL, (size_t)n, sizeof *ord);
	int64_t		*next = xreallocarray(NULL, (size_t)n, sizeof *next);
	int64_t		 i, k, m = 0;

	for (i = 0; i < n; i++)
		if (waiting(&pts[i])) {
			ord[m].key = pts[i].key;
			ord[m++].i = i;
		}
	qsort(ord, (size_t)m, sizeof *ord, keyed_cmp);
	for (k = 0; k < m; k++)
		next[ord[k].i] = k + 1 < m && strcmp(ord[k].key,
		    ord[k + 1].key) == 0 ? ord[k + 1].i : -1;
	free(ord);
	return next;
}

struct error *
sweep_array_units(const char *id, struct sweep_point *pts, int64_t npts,
    int64_t max, struct sweep_units *u)
{
	int64_t		*idx = xreallocarray(NULL, (size_t)npts, sizeof *idx);
	int64_t		*next = group_next(pts, npts);
	bool		*taken = xcalloc((size_t)npts, sizeof *taken);
	struct error	*err = NULL;
	char		*name, *script = NULL;
	int64_t		 i, k, n;
	size_t		 size;

	for (i = 0; i < npts && err == NULL; i++) {
		if (taken[i] || !waiting(&pts[i]))
			continue;
		n = 0;
		size = 0;
		for (k = i; k != -1 && n < max; k = next[k]) {
			size += strlen(pts[k].script) + 256;
			if (n > 0 && size > SWEEP_ARRAY_SCRIPT_MAX - 4096)
				break;
			idx[n++] = k;
			taken[k] = true;
		}
		name = xasprintf("%.*s-a%lld", (int)(strrchr(pts[i].name, '-') -
		    pts[i].name), pts[i].name, (long long)i);
		if ((err = sweep_array_script(id, pts, idx, n, name,
		    &script)) == NULL)
			add_unit(pts, u, idx, n, name, script);
		else
			free(name);
	}
	free(idx);
	free(next);
	free(taken);
	return err;
}

void
sweep_job_units(struct sweep_point *pts, int64_t n, struct sweep_units *u)
{
	int64_t	 i;

	for (i = 0; i < n; i++)
		if (waiting(&pts[i]))
			add_unit(pts, u, &i, 1, xstrdup(pts[i].name),
			    xstrdup(pts[i].script));
}
