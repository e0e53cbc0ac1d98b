/*
 * grid.c: a sweep's grid; see grid.h.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "grid.h"
#include "xmalloc.h"

void
grid_init(struct grid *g)
{
	memset(g, 0, sizeof *g);
	g->npoints = 1;
}

static void	 grid_release_axis(struct grid_axis *);

void
grid_release(struct grid *g)
{
	size_t	 a;

	for (a = 0; a < g->naxes; a++)
		grid_release_axis(&g->axes[a]);
	grid_init(g);
}

static void
grid_release_axis(struct grid_axis *ax)
{
	size_t	 v;

	for (v = 0; v < ax->nvalues; v++)
		free(ax->values[v]);
	free(ax->values);
	memset(ax, 0, sizeof *ax);
}

/* The setting KEY names: an option name, or a job-file key. */
static const struct setting_def *
find_key(const char *key)
{
	const struct setting_def	*d;
	char				*opt, *p;
	bool				 negated;

	opt = xstrdup(key);
	for (p = opt; *p != '\0'; p++)
		if (*p == '_')
			*p = '-';
	d = settings_find_option(opt, SF_CLI, &negated);
	free(opt);
	return d != NULL && !negated ? d : NULL;
}

struct error *
grid_add(struct grid *g, const char *spec)
{
	struct grid_axis	*ax;
	struct settings		 scratch;
	struct error		*err;
	const struct setting_def *d;
	const char		*eq = strchr(spec, '='), *p, *comma;
	char			*key, *value;
	size_t			 a;

	if (eq == NULL || eq == spec || eq[1] == '\0')
		return error_new(EXIT_USAGE, "--grid: '%s' is not KEY=V1,V2,...",
		    spec);
	key = xstrndup(spec, (size_t)(eq - spec));
	d = find_key(key);
	if (d == NULL) {
		err = error_new(EXIT_USAGE, "--grid: '%s' is not a setting",
		    key);
		free(key);
		return err;
	}
	free(key);
	if (d->type == ST_LIST || d->type == ST_ENV ||
	    d->type == ST_OPTIONS || d->flags & SF_CONNECT)
		return error_new(EXIT_USAGE, "--grid: --%s cannot be swept%s",
		    d->option, d->flags & SF_CONNECT ? " (every point goes "
		    "to the same Slurm)" : " (it takes a list)");
	for (a = 0; a < g->naxes; a++)
		if (g->axes[a].def == d)
			return error_new(EXIT_USAGE, "--grid: --%s is swept "
			    "twice", d->option);
	if (g->naxes == GRID_MAX_AXES)
		return error_new(EXIT_USAGE, "--grid: more than %d keys",
		    GRID_MAX_AXES);

	ax = &g->axes[g->naxes];
	memset(ax, 0, sizeof *ax);
	ax->def = d;
	for (p = eq + 1;; p = comma + 1) {
		comma = strchr(p, ',');
		value = comma != NULL ? xstrndup(p, (size_t)(comma - p)) :
		    xstrdup(p);
		settings_init(&scratch);
		if (*value == '\0')
			err = error_new(EXIT_USAGE, "--%s: an empty value",
			    d->option);
		else if (d->type == ST_BOOL && strcmp(value, "true") != 0 &&
		    strcmp(value, "false") != 0)
			err = error_new(EXIT_USAGE, "--%s: '%s' is not true or "
			    "false", d->option, value);
		else
			err = settings_set_text(&scratch, d, value,
			    ORIGIN_CLI);
		settings_release(&scratch);
		if (err != NULL) {
			free(value);
			grid_release_axis(ax);
			return error_prefix(err, "--grid");
		}
		ax->values = xreallocarray(ax->values, ax->nvalues + 1,
		    sizeof *ax->values);
		ax->values[ax->nvalues++] = value;
		if (comma == NULL)
			break;
	}
	if (g->npoints * (int64_t)ax->nvalues > GRID_MAX_POINTS) {
		grid_release_axis(ax);
		return error_new(EXIT_USAGE, "--grid: more than %d points",
		    GRID_MAX_POINTS);
	}
	g->npoints *= (int64_t)ax->nvalues;
	g->naxes++;
	return NULL;
}

const char *
grid_value(const struct grid *g, int64_t i, size_t axis)
{
	size_t	 a;

	/* The last axis varies fastest. */
	for (a = g->naxes; a-- > axis + 1;)
		i /= (int64_t)g->axes[a].nvalues;
	return g->axes[axis].values[i % (int64_t)g->axes[axis].nvalues];
}

struct error *
grid_apply(const struct grid *g, int64_t i, struct settings *layer)
{
	struct settings	 one;
	struct error	*err;
	size_t		 a;

	settings_init(&one);
	for (a = 0; a < g->naxes; a++)
		if ((err = settings_set_text(&one, g->axes[a].def,
		    grid_value(g, i, a), ORIGIN_CLI)) != NULL) {
			settings_release(&one);
			return err;
		}
	settings_merge(layer, &one);
	settings_release(&one);
	return NULL;
}

char *
grid_describe(const struct grid *g, int64_t i)
{
	struct buf	 b;
	size_t		 a;

	buf_init(&b);
	for (a = 0; a < g->naxes; a++)
		buf_addf(&b, "%s%s=%s", a == 0 ? "" : " ",
		    g->axes[a].def->option, grid_value(g, i, a));
	if (g->naxes == 0)
		buf_addf(&b, "(no grid)");
	return buf_detach(&b);
}
