/*
 * memguard.h: submit and sweep do not queue a layout estimated not to
 * fit in its GPU's memory (the memory-oom finding of sizing.h) unless
 * the job says allow_oom (--allow-oom); gen writes it, with the warning.
 */
#ifndef MBSBATCH_MEMGUARD_H
#define MBSBATCH_MEMGUARD_H

#include <stdbool.h>

#include "job.h"

struct error;

/* Does the guard refuse the job sized as FIG (its estimate exceeds the
 * GPU's memory, and the job does not allow it)? */
bool		 memguard_refuses(const struct job *,
		    const struct job_figures *);

/*
 * The reason, "estimated N GiB per GPU over the GPU's M GiB", for a job
 * memguard_refuses(); a new string the caller frees.
 */
char		*memguard_reason(const struct job *,
		    const struct job_figures *);

/*
 * The EXIT_LAYOUT error "CMD: WHOSE: REASON; not queued", with a hint
 * naming --allow-oom, when memguard_refuses(); else NULL.
 */
struct error	*memguard_check(const char *, const char *,
		    const struct job *, const struct job_figures *);

#endif
