/*
 * resume.h: what a sweep's journal says, checked before --resume trusts
 * it: the sweep it belongs to, the points it queued, and the submissions
 * it sent without learning their job id (a kill in between), which
 * Slurm is then asked about.  Pure: the journal's lines in, a plan out.
 *
 * A journal is line one, the header {"sweep": ID, "version": 1,
 * "points": N, "grid": [...], "array": BOOL}, then records
 * {"submitting": NAME, "points": [...]} before each submission and
 * {"queued": NAME, "job_id": ID, "points": [...], ...} after it.
 */
#ifndef MBSBATCH_RESUME_H
#define MBSBATCH_RESUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct error;

/* A sweep's id, as sweep makes them: six lowercase hex digits. */
#define RESUME_ID_LEN	6

/* A submission sent, its job id never recorded. */
struct resume_pending {
	char		*name;		/* the job's name */
	int64_t		*points;
	size_t		 npoints;
};

/* Where a queued point went: its job, and its task when the sweep
 * packed it into an array (task K runs the unit's K-th point). */
struct resume_job {
	int64_t		 job_id;	/* 0: not queued */
	int64_t		 task;		/* -1: a job of its own */
};

struct resume_plan {
	char			 id[RESUME_ID_LEN + 1];
	bool			*queued;	/* [npoints] */
	struct resume_job	*jobs;		/* [npoints] */
	int64_t			 npoints;
	struct resume_pending	*pending;
	size_t			 npending;
	int64_t			*job_ids;	/* each queued job, once */
	size_t			 njob_ids;
};

/* Whether ID is a sweep id sweep could have made. */
bool		 resume_id_valid(const char *);

/*
 * Check LINES, the journal PATH, against a sweep of NPOINTS points over
 * GRID (as the header records it) and make *PLAN; an error names the
 * line that is wrong.  With GRID NULL, any sweep's journal (its own
 * header says how many points).
 */
struct error	*resume_plan(const char *, json_t *, json_t *, int64_t,
		    struct resume_plan *);

void		 resume_plan_release(struct resume_plan *);

#endif
