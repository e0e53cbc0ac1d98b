/*
 * sbatch-options.h: the long options sbatch takes, in each release from
 * 22.05 to 25.11 (--slurm-opt checks its names against them).  Pure.
 */
#ifndef MBSBATCH_SBATCH_OPTIONS_H
#define MBSBATCH_SBATCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "slurmopt.h"	/* enum slurmopt_arg */

struct sbatch_option {
	const char		*name;		/* "exclude": --exclude */
	enum slurmopt_arg	 arg;		/* in the newest release */
	int			 releases;	/* a bit a release: see .c */
};

/* By name, sorted. */
extern const struct sbatch_option sbatch_options[];
extern const size_t sbatch_noptions;

/* The option NAME (LEN bytes) of any release, or NULL. */
const struct sbatch_option *sbatch_option_find(const char *, size_t);

/* The option closest to NAME, for "did you mean", or NULL. */
const char	*sbatch_option_suggest(const char *);

/* Does sbatch of release REL (2205, 2411, ...; 0: the newest) take O?
 * A release between two listed ones takes the earlier one's list. */
bool		 sbatch_option_in(const struct sbatch_option *, int);

/* The first listed release after REL that takes O, or 0. */
int		 sbatch_option_since(const struct sbatch_option *, int);

#endif
