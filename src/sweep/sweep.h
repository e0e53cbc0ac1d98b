/*
 * sweep.h: the pure parts of "mbsbatch sweep" (cmd-sweep.c): what tells a
 * point's job apart for Slurm, the job name a point's script must carry,
 * and the packing of points into submissions, job arrays among them,
 * with the array script.  No I/O and no back end.
 */
#ifndef MBSBATCH_SWEEP_H
#define MBSBATCH_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;
struct error;
struct slurmopt;

/* Slurm's default max_script_size is 4 MiB; an array stays below. */
#define SWEEP_ARRAY_SCRIPT_MAX	(3 * 1024 * 1024)

/* A point of the grid; every string owned (sweep_points_free()). */
struct sweep_point {
	char		*desc;		/* "tp=2 pp=4" */
	char		*name;		/* its job name */
	char		*script;	/* NULL when skipped */
	char		*key;		/* what tells its job apart for Slurm:
					   points with one key can share an
					   array */
	char		*skip;		/* why it was skipped */
	bool		 queued;
	size_t		 unit;		/* once in a unit: which, */
	int64_t		 task;		/* and where in it */
};

/* One submission: a job, or a job array. */
struct sweep_unit {
	int64_t		*idx;		/* its points */
	int64_t		 n;
	char		*name;
	char		*script;
};

struct sweep_units {
	struct sweep_unit	*v;
	size_t			 n;
};

void		 sweep_points_free(struct sweep_point *, int64_t);
void		 sweep_units_release(struct sweep_units *);

/*
 * The key of a point from its typed Slurm options O: every directive but
 * the job name, as "option=value" lines (a new string).  It is the key of
 * the #SBATCH lines when the template writes exactly O (the shipped
 * templates do).
 */
char		*sweep_slurm_key(const struct slurmopt *);

/*
 * The key of a point from its script's #SBATCH lines, for any template:
 * every line sbatch reads, with the point's job name NAME, however the
 * template spells the option, blanked (a new string).
 */
char		*sweep_directive_key(const char *, const char *);

/*
 * The sweep finds its jobs again by name (--resume): a script SCRIPT
 * whose #SBATCH lines name the job otherwise than NAME gets a last
 * "#SBATCH --job-name=NAME" line after them.  *SCRIPT is replaced (freed)
 * when a line is added.  EXIT_USAGE if NAME cannot be written there.
 */
struct error	*sweep_own_name(char **, const char *);

/*
 * The script of one job array, called NAME, of sweep ID running the
 * scripts of points PTS[IDX[0..N)], which share their #SBATCH lines but
 * the name: task K re-executes point IDX[K]'s script with bash.  Into
 * *OUT, a new string; EXIT_FAILURE_OP when a script holds the end marker
 * or the whole would pass SWEEP_ARRAY_SCRIPT_MAX.
 */
struct error	*sweep_array_script(const char *, const struct sweep_point *,
		    const int64_t *, int64_t, const char *, char **);

/*
 * The points of PTS[0..N) not yet queued and not skipped, as units
 * appended to U: with sweep_array_units(), grouped by key into job
 * arrays of at most MAX points (and below the script size) named after
 * their first point, in the order of their first points; with
 * sweep_job_units(), each point its own job.  Each point gets its unit
 * and its task in it.
 */
struct error	*sweep_array_units(const char *, struct sweep_point *,
		    int64_t, int64_t, struct sweep_units *);
void		 sweep_job_units(struct sweep_point *, int64_t,
		    struct sweep_units *);

#endif
