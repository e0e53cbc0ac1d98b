/*
 * memguard.c: the memory guard of submit and sweep; see memguard.h.
 */
#include <stdlib.h>

#include "error.h"
#include "memguard.h"
#include "settings.h"
#include "xmalloc.h"

bool
memguard_refuses(const struct job *job, const struct job_figures *fig)
{
	return fig->sizing.has_memory && fig->sizing.memory_oom &&
	    !job_bool(job, SET_ALLOW_OOM, false);
}

char *
memguard_reason(const struct job *job, const struct job_figures *fig)
{
	return xasprintf("estimated %.1f GiB per GPU over the GPU's %.1f GiB",
	    fig->sizing.memory.total_gib, job->in.gpu_gib);
}

struct error *
memguard_check(const char *cmd, const char *whose, const struct job *job,
    const struct job_figures *fig)
{
	struct error	*err;
	char		*why;

	if (!memguard_refuses(job, fig))
		return NULL;
	why = memguard_reason(job, fig);
	err = error_new(EXIT_LAYOUT, "%s: %s: %s; not queued", cmd, whose,
	    why);
	free(why);
	return error_hint(err, "--allow-oom (job key allow_oom) queues it "
	    "anyway; 'mbsbatch plan' with the same options shows the "
	    "estimate and what to raise");
}
