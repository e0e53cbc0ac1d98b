/*
 * grid.h: a sweep's grid, the cartesian product of --grid KEY=V1,V2,...
 * Each KEY is a setting (its option name, or its job-file key); each
 * value is checked as that option's value would be.  Points are numbered
 * from 0, the last --grid varying fastest, as nested loops would.
 */
#ifndef MBSBATCH_GRID_H
#define MBSBATCH_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "settings.h"

#define GRID_MAX_AXES	16
#define GRID_MAX_POINTS	100000

struct grid_axis {
	const struct setting_def *def;
	char		**values;	/* as written; owned */
	size_t		 nvalues;
};

struct grid {
	struct grid_axis axes[GRID_MAX_AXES];
	size_t		 naxes;
	int64_t		 npoints;	/* 1 with no axis */
};

void		 grid_init(struct grid *);
void		 grid_release(struct grid *);

/* Add an axis from "KEY=V1,V2,..."; errors (EXIT_USAGE) name the --grid. */
struct error	*grid_add(struct grid *, const char *);

/* Set point I's values into the layer (as if given on the command line). */
struct error	*grid_apply(const struct grid *, int64_t, struct settings *);

/* Point I as "tp=2 pp=4"; a new string. */
char		*grid_describe(const struct grid *, int64_t);

/* The value of axis A at point I. */
const char	*grid_value(const struct grid *, int64_t, size_t);

#endif
