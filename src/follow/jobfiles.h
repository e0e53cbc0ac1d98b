/*
 * jobfiles.h: where a batch job writes its output and error: the files
 * its slurmstepd opens.  From what Slurm says of the job and what
 * mbsbatch recorded when it queued it (submitted.h), expanded by the
 * rules of the job's release (logpath.h), in this order:
 *
 * - the patterns Slurm gives (libslurm, REST v0.0.38-39 and v0.0.43 on,
 *   sacct): the truth, expanded with the job's node, its host name
 *   (asked of the back end: %N before 25.11), its SLUID (%S, 25.11);
 * - paths Slurm's own code expanded (REST v0.0.40-42, scontrol): from
 *   25.11 the same code as slurmstepd's, taken as they are; before, the
 *   client replaces only %A %a %j %u %x (24.05 on: %b, widths, "%%" into
 *   "%") and leaves the rest, which cannot be undone: when anything is
 *   left, the job's patterns instead, from the record, else from the
 *   back end (squeue), else Slurm's path expanded further as well as it
 *   goes;
 * - accounting before 24.05 keeps no path: the record's, or not known;
 * - a job Slurm no longer knows at all: the record's.
 *
 * A path found in full that the record did not have (the node of a
 * job that has started) is added to the record, so that it outlives
 * slurmctld's memory on every release.
 */
#ifndef MBSBATCH_JOBFILES_H
#define MBSBATCH_JOBFILES_H

#include <stdbool.h>

#include "backend.h"
#include "jobref.h"

struct error;

struct jobfiles {
	char		*out;		/* NULL: not known (see why) */
	char		*err;		/* NULL: with the output */
	bool		 out_complete;	/* false: a part not known yet */
	bool		 err_complete;	/* (the node of a pending job) stays
					   as the pattern wrote it */
	bool		 recorded;	/* from the record of submitted jobs */
	char		*why;		/* out NULL: why, a phrase */
};

void		 jobfiles_release(struct jobfiles *);

/*
 * Where job S (a record Slurm gave: slurmctld's or accounting's) writes,
 * into *F; CLUSTER (the profile, or NULL) finds the record of its
 * submission.  BE and CTX answer a node's host name when a pattern needs
 * it.  Never fails: what cannot be known is said in F.
 */
void		 jobfiles_find(const struct backend *, struct backend_ctx *,
		    const char *, const struct job_status *, struct jobfiles *);

/*
 * Slurm knows nothing of job REF: the record of its submission as a job
 * (*S: source JOB_SOURCE_RECORD, state empty) and its files (*F).
 * False, and nothing set, when it is not recorded; *ERR when the record
 * could not be read.
 */
bool		 jobfiles_recorded(const char *, const struct job_ref *,
		    struct job_status *, struct jobfiles *, struct error **);

/* A job just queued (submit, each job of a chain, sweep). */
struct jobfiles_queued {
	const struct backend	*be;
	struct backend_ctx	*ctx;
	const char		*cluster;	/* the profile, or NULL */
	const char		*slurm;		/* where: the REST URL, or
						   $SLURM_CONF; or NULL */
	const struct jobdesc	*desc;		/* what was sent */
	const char		*workdir;	/* its working directory */
	const char		*user;		/* whom it runs as */
	int64_t			 after;		/* the job it follows in a
						   chain; 0: none */
};

/*
 * Job R, just queued as Q says: where it writes, as far as known now,
 * into *F (for a 25.11 pattern with %S, Slurm is asked for the job's
 * SLUID), and the record of its submission added (submitted.h); *WARN:
 * why it could not be, a new string, or NULL.
 */
void		 jobfiles_queued(const struct jobfiles_queued *,
		    const struct submit_result *, struct jobfiles *, char **);

#endif
