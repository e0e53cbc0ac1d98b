/*
 * job-estimate.c: the step-time estimate of a job's layout, from the one
 * set of speeds every command uses; see job.h.
 */
#include <string.h>

#include "calibration.h"
#include "job.h"

void
job_cost_hw(const struct job *job, struct cost_hw *hw)
{
	cost_hw_init(hw, job->gpu, job->interconnect);
	calibration_apply(job, hw);	/* the profile's site factor */
}

void
job_estimate(const struct job *job, struct job_figures *fig)
{
	job_cost_hw(job, &fig->hw);
	memset(&fig->cost, 0, sizeof fig->cost);
	/* cost_estimate() wants a layout sized without error: DP 0 or a
	 * split that does not add up has no step to price. */
	if (fig->sizing.nerrors > 0) {
		fig->cost_reason = "the layout has errors (see findings)";
		return;
	}
	fig->cost_reason = cost_estimate(&job->in, &fig->sizing, &fig->hw,
	    &fig->cost);
}
