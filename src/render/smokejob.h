/*
 * smokejob.h: a job turned into its smoke job (mbsbatch-smoke(1)): the
 * same parallel layout on its min GPUs, the smallest model of its kind
 * (a settings layer of origin "smoke", so plan, gen and the script's
 * header show what changed), mock data, SMOKE_ITERATIONS iterations, no
 * evaluation, no checkpoint, a short time limit.
 */
#ifndef MBSBATCH_SMOKEJOB_H
#define MBSBATCH_SMOKEJOB_H

#include "job.h"
#include "smoke.h"

struct error;

/* The smoke job's time limit (Slurm's --time). */
#define SMOKEJOB_TIME	"00:20:00"

/* What the smoke job changed from the job, for the command's summary. */
struct smokejob_summary {
	int64_t		 job_gpus, job_nodes;	/* the job's world */
	int64_t		 job_layers;		/* 0 when unknown */
	char		 job_model[64];		/* "" when none */
	const char	*recipe;		/* the smoke recipe, or NULL
						   (Megatron-LM) */
	const char	*model;			/* the small model's preset */
	const char	*finetune;		/* the job's fine-tuning recipe
						   (its smoke job pretrains),
						   or NULL */
	struct layout	 layout;		/* the job's, kept */
	struct smoke	 sizes;
};

/*
 * Load the job REQ describes and turn it into its smoke job in *JOB
 * (job_release() it).  *SUMMARY, unless NULL, says what changed.  A job
 * of the command template, or one the core cannot size, is an
 * EXIT_USAGE error naming CMD.
 */
struct error	*smokejob_load(const char *, struct job *,
		    const struct job_request *, struct smokejob_summary *);

#endif
