/*
 * cmd-smoke.c: "mbsbatch smoke": write the script of a job's smoke job
 * (gen --smoke) and say what smoke changed.  See mbsbatch-smoke(1).
 */
#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "error.h"
#include "smokejob.h"

static struct error *cmd_smoke_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_smoke_options[] = {
	{ "file", 'o', "FILE", "write the script to FILE (atomically)" },
	{ "force", 0, NULL, "replace an existing regular FILE" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_smoke_entry = {
	.name = "smoke",
	.usage = "[JOBFILE] [OPTIONS] [-o FILE] [--force]",
	.summary = "Write the smoke script of a job: its layout on its min "
	    "GPUs, a small model, 3 iterations.",
	.options = cmd_smoke_options,
	.settings = SF_CLI,
	.help_gen = true,
	.max_args = 1,
	.exec = cmd_smoke_exec,
};

static void
print_summary(const struct smokejob_summary *s)
{
	const struct layout	*l = &s->layout;
	const struct smoke	*z = &s->sizes;

	fprintf(stderr, "mbsbatch: smoke: layout kept: tp=%lld pp=%lld "
	    "vpp=%lld cp=%lld ep=%lld etp=%lld sp=%s\n", (long long)l->tp,
	    (long long)l->pp, (long long)l->vpp, (long long)l->cp,
	    (long long)l->ep, (long long)l->etp, l->sp ? "on" : "off");
	fprintf(stderr, "mbsbatch: smoke: GPUs %lld -> %lld, nodes %lld -> "
	    "%lld, DP %lld\n", (long long)s->job_gpus, (long long)z->gpus,
	    (long long)s->job_nodes, (long long)z->nodes, (long long)z->dp);
	fprintf(stderr, "mbsbatch: smoke: model %s", s->job_model[0] != '\0' ?
	    s->job_model : "(none named)");
	if (s->job_layers != 0)
		fprintf(stderr, " (%lld layers)", (long long)s->job_layers);
	fprintf(stderr, " -> %s with %lld layer%s", s->model,
	    (long long)z->num_layers, z->num_layers == 1 ? "" : "s");
	if (z->num_experts != 0)
		fprintf(stderr, ", %lld experts", (long long)z->num_experts);
	if (s->recipe != NULL)
		fprintf(stderr, ", recipe %s", s->recipe);
	fprintf(stderr, "\n");
	fprintf(stderr, "mbsbatch: smoke: %d iterations, global batch %lld "
	    "(micro-batch %lld), mock data, no evaluation, no checkpoint, "
	    "time %s\n", SMOKE_ITERATIONS, (long long)z->global_batch,
	    (long long)z->micro_batch, SMOKEJOB_TIME);
	if (s->finetune != NULL)
		fprintf(stderr, "mbsbatch: smoke: fine-tuning recipe %s -> "
		    "pretraining from random weights: no pretrained "
		    "checkpoint, no adapters, not the recipe's data\n",
		    s->finetune);
}

static struct error *
cmd_smoke_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	struct smokejob_summary	 sum;
	struct error		*err;

	*status = EXIT_OK;
	if ((err = cmd_gen_write(self, args, true, &sum)) != NULL)
		return err;
	if (!args->quiet)
		print_summary(&sum);
	return NULL;
}
