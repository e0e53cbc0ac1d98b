/*
 * submitted.h: the jobs this user queued with mbsbatch (submit, each job
 * of a chain, sweep), remembered so that logs, status --check and report
 * find a job's files after Slurm has forgotten it: slurmctld forgets a
 * job MinJobAge seconds after it ends, and accounting before 24.05 keeps
 * no output path (nor does a cluster without accounting keep anything).
 *
 * The record is $XDG_STATE_HOME/mbsbatch/submitted.jsonl, else
 * ~/.local/state/mbsbatch/submitted.jsonl: the directory made 0700, the
 * file 0600, never reached through a symbolic link, one JSON object a
 * line.  A line is appended whole with one write(2), under an exclusive
 * flock(2) so that concurrent submissions never interleave; a line that is
 * not a record (cut short, corrupt, of a newer mbsbatch) is skipped on
 * reading.  Growth is bounded: an append that would take the file past
 * SUBMITTED_MAX_BYTES first rewrites it with only its newest lines (half
 * that size at most), atomically (a temporary file renamed over it); an
 * appender that opened the old file sees it replaced and opens the new.
 * Later lines for a job win over earlier ones.
 */
#ifndef MBSBATCH_SUBMITTED_H
#define MBSBATCH_SUBMITTED_H

#include <stdbool.h>
#include <stdint.h>

struct error;

#define SUBMITTED_MAX_BYTES	(4 * 1024 * 1024)

/* One of a job's files: the pattern sent (NULL: Slurm's default), and
 * the path it expands to as far as known (NULL: not known in full). */
struct submitted_file {
	char		*pattern;
	char		*path;
};

/* A job as it was queued.  Strings may be NULL (not known). */
struct submitted {
	int64_t		 job_id;	/* an array's own id */
	int64_t		 time;		/* when it was queued (Unix time) */
	char		*cluster;	/* the profile (--cluster), or NULL */
	char		*backend;	/* "rest", "native", "sbatch" */
	char		*slurm;		/* where: the REST URL, $SLURM_CONF */
	int		 release;	/* the cluster's Slurm, as 2205; 0 */
	char		*user;
	char		*name;		/* the job name */
	char		*workdir;
	char		*array;		/* --array's value, or NULL */
	struct submitted_file out;
	bool		 err_with_out;	/* no --error: errors go with it */
	struct submitted_file err;	/* unless err_with_out */
	int64_t		 after;		/* the job of a chain it follows
					   (submit --chain); 0: none */
};

void		 submitted_release(struct submitted *);

/*
 * The record's file, a new string; NULL when neither XDG_STATE_HOME nor
 * HOME is an absolute path (then nothing is recorded, nor found).
 */
char		*submitted_file(void);

/*
 * Append S to the record (making its directory); an error
 * (EXIT_FAILURE_OP) names the file.
 */
struct error	*submitted_add(const struct submitted *);

/*
 * The newest record of job JOB_ID queued with profile CLUSTER (NULL:
 * none), copied into *S (submitted_release() it); *FOUND false, and *S
 * zeroed, when there is none.  No record file is no record, not an
 * error; one that cannot be read is an error naming it.
 */
struct error	*submitted_find(const char *, int64_t, struct submitted *,
		    bool *);

/*
 * The same for the newest record of a job queued with profile CLUSTER
 * to follow job AFTER in a chain (its "after"): how report --chain
 * finds a chain's jobs once Slurm has dropped their dependencies.
 */
struct error	*submitted_find_next(const char *, int64_t,
		    struct submitted *, bool *);

/* The line S is recorded as (a new string, without its newline), and
 * back: false when LINE is not a record.  For the tests. */
char		*submitted_format(const struct submitted *);
bool		 submitted_parse(const char *, struct submitted *);

#endif
