/*
 * joblookup.h: a job the user names, found where Slurm still has it:
 * slurmctld while it knows the job, accounting (slurmdbd) after.
 */
#ifndef MBSBATCH_JOBLOOKUP_H
#define MBSBATCH_JOBLOOKUP_H

#include "backend.h"
#include "jobref.h"

struct error;

/*
 * The records of REF in *LIST: from slurmctld (be->status) when it knows
 * the job, else from accounting (be->history).  A task (REF's task not
 * -1) comes as one record, its array_task_id set, also while it waits in
 * a group of tasks not yet started.  "job N: no such job" (EXIT_FAILURE_OP)
 * when neither has it, saying why accounting could not answer.
 */
struct error	*job_lookup(const struct backend *, struct backend_ctx *,
		    const struct job_ref *, struct job_list *);

/*
 * The same, for a poll: an array's tasks that slurmctld has forgotten
 * while it still has others are not asked of accounting (a connection
 * to slurmdbd each time), so they may be missing; job_lookup() once the
 * wait is over.
 */
struct error	*job_lookup_poll(const struct backend *,
		    struct backend_ctx *, const struct job_ref *,
		    struct job_list *);

/* REF as the user wrote it: "123", "123_4". */
void		 job_ref_format(const struct job_ref *, char *, size_t);

#endif
