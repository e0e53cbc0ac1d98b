/*
 * jobwait.h: wait until a job ends (status --wait, submit --wait).
 */
#ifndef MBSBATCH_JOBWAIT_H
#define MBSBATCH_JOBWAIT_H

#include "backend.h"
#include "jobref.h"

struct error;

/*
 * Ask about REF until every record of it has ended, *LIST the last
 * answer.  Politely: 2 s after the first question, then each pause half
 * as long again, at most 60 s (a job that ran for an hour is not asked
 * about every second); an error answered by Slurm is asked again three
 * times before it is returned.  SIGINT and SIGTERM stop the wait, not the
 * job: EXIT_INTERRUPTED, saying so.
 */
struct error	*job_wait(const struct backend *, struct backend_ctx *,
		    const struct job_ref *, struct job_list *);

/*
 * How the wait for REF ended, as an exit status: 0 when every record
 * ended COMPLETED with exit code 0, else 1 with a line on stderr naming
 * the state ("mbsbatch: job 12: FAILED, exit code 3").
 */
int		 job_wait_status(const struct job_ref *,
		    const struct job_list *);

#endif
