/*
 * job-blame.c: the recipe's values behind a finding.  A Megatron-Bridge
 * recipe sets values the user never typed (its CP, VPP, batch, sequence
 * length); when a finding comes from one of them, the finding names it
 * and the option that changes it ("CP 2 is the recipe's: --cp 1 to
 * change"), so that TP 8 · PP 4 failing on 32 GPUs for the recipe's CP 2
 * says so without plan -v.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "job.h"

#define BLAME_MAX	6

/* The settings each finding's rule reads (sizing.c, rules.c). */
static const struct {
	const char	*code;
	enum setting_id	 ids[BLAME_MAX];	/* SET__COUNT ends a short list */
} blame[] = {
	{ "world-divisibility", { SET_TP, SET_PP, SET_CP, SET_EP, SET_ETP,
	  SET__COUNT } },
	{ "uneven-nodes", { SET_TP, SET_PP, SET_CP, SET_EP, SET_ETP,
	  SET__COUNT } },
	{ "mesh-lcm", { SET_TP, SET_CP, SET_EP, SET_ETP, SET__COUNT } },
	{ "layers-divisibility", { SET_PP, SET_VPP, SET_FIRST_STAGE_LAYERS,
	  SET_LAST_STAGE_LAYERS, SET_ACCOUNT_EMBEDDING, SET_ACCOUNT_LOSS } },
	{ "pp-split-accounting", { SET_FIRST_STAGE_LAYERS,
	  SET_LAST_STAGE_LAYERS, SET_ACCOUNT_EMBEDDING, SET_ACCOUNT_LOSS,
	  SET__COUNT } },
	{ "vpp-needs-pp", { SET_VPP, SET_PP, SET__COUNT } },
	{ "p2p-overlap-conflict", { SET_PP, SET_VPP, SET__COUNT } },
	{ "sp-needs-tp", { SET_SP, SET_TP, SET__COUNT } },
	{ "seq-needs-sp", { SET_SP, SET_TP, SET_SEQ_LENGTH, SET__COUNT } },
	{ "moe-tp-needs-sp", { SET_SP, SET_TP, SET__COUNT } },
	{ "cp-seq-divisibility", { SET_CP, SET_TP, SET_SP, SET_SEQ_LENGTH,
	  SET__COUNT } },
	{ "sp-seq-divisibility", { SET_TP, SET_SP, SET_SEQ_LENGTH,
	  SET__COUNT } },
	{ "seq-needs-cp", { SET_CP, SET_SEQ_LENGTH, SET__COUNT } },
	{ "heads-divisibility", { SET_TP, SET__COUNT } },
	{ "tp-cross-node", { SET_TP, SET__COUNT } },
	{ "ep-on-dense", { SET_EP, SET__COUNT } },
	{ "experts-divisibility", { SET_EP, SET_ETP, SET__COUNT } },
	{ "moe-bias-needs-etp1", { SET_ETP, SET__COUNT } },
	{ "dispatcher-needs-ep", { SET_MOE_DISPATCHER, SET_EP, SET__COUNT } },
	{ "batch-divisibility", { SET_GLOBAL_BATCH_SIZE, SET_MICRO_BATCH_SIZE,
	  SET_TP, SET_PP, SET_CP, SET__COUNT } },
	{ "pp-bubble", { SET_PP, SET_VPP, SET_GLOBAL_BATCH_SIZE,
	  SET_MICRO_BATCH_SIZE, SET__COUNT } },
	{ "vpp-microbatches", { SET_PP, SET_VPP, SET_GLOBAL_BATCH_SIZE,
	  SET_MICRO_BATCH_SIZE, SET__COUNT } },
	{ "memory-oom", { SET_TP, SET_PP, SET_CP, SET_SEQ_LENGTH,
	  SET_MICRO_BATCH_SIZE, SET_RECOMPUTE } },
	{ "optimizer-dtype-needs-distopt", { SET_OPTIMIZER_DTYPE,
	  SET_DISTRIBUTED_OPTIMIZER, SET__COUNT } },
	{ "tp-overlap-disabled", { SET_TP_COMM_OVERLAP, SET_SP, SET__COUNT } },
	{ "param-gather-overlap", { SET_DISTRIBUTED_OPTIMIZER, SET__COUNT } },
	{ "fsdp-distributed-optimizer", { SET_DISTRIBUTED_OPTIMIZER,
	  SET__COUNT } },
	{ "cuda-graphs-full-recompute", { SET_RECOMPUTE, SET__COUNT } },
	{ "fp8-param-gather", { SET_FP8, SET__COUNT } },
};

/* How a finding names a setting: "CP", "sequence length". */
static const char *
label(enum setting_id id)
{
	switch (id) {
	case SET_TP:			return "TP";
	case SET_PP:			return "PP";
	case SET_CP:			return "CP";
	case SET_EP:			return "EP";
	case SET_ETP:			return "ETP";
	case SET_VPP:			return "VPP";
	case SET_SP:			return "SP";
	case SET_SEQ_LENGTH:		return "sequence length";
	case SET_GLOBAL_BATCH_SIZE:	return "global batch";
	case SET_MICRO_BATCH_SIZE:	return "micro batch";
	default:			return settings_table[id].key;
	}
}

/*
 * The value of ID the sizing used, into *V; false when the job's input
 * is not the setting's value (recommend put a layout of its own there),
 * or when a value of 1 cannot cause the finding (a parallel size).
 */
static bool
used(const struct job *job, enum setting_id id, int64_t *v)
{
	const struct sizing_input	*in = &job->in;
	const struct layout		*l = &in->layout;
	int64_t				 u;

	switch (id) {
	case SET_TP: u = l->tp; break;
	case SET_PP: u = l->pp; break;
	case SET_CP: u = l->cp; break;
	case SET_EP: u = l->ep; break;
	case SET_ETP: u = l->etp; break;
	case SET_VPP: u = l->vpp; break;
	case SET_SP: u = l->sp; break;
	case SET_SEQ_LENGTH: u = in->seq_length; break;
	case SET_GLOBAL_BATCH_SIZE: u = in->global_batch; break;
	case SET_MICRO_BATCH_SIZE: u = in->micro_batch; break;
	case SET_FIRST_STAGE_LAYERS: u = in->first_stage_layers; break;
	case SET_LAST_STAGE_LAYERS: u = in->last_stage_layers; break;
	case SET_ACCOUNT_EMBEDDING: u = in->account_embedding; break;
	case SET_ACCOUNT_LOSS: u = in->account_loss; break;
	default:
		*v = 0;
		return true;	/* read from the settings themselves */
	}
	*v = u;
	/* Counting the embedding or the loss as a layer: only on. */
	if (id == SET_ACCOUNT_EMBEDDING || id == SET_ACCOUNT_LOSS)
		return u != 0 && job->set.v[id].b;
	if (settings_table[id].type == ST_BOOL)
		return (u != 0) == job->set.v[id].b;
	if (u != job->set.v[id].i)
		return false;
	return id > SET_VPP || u > 1;
}

/* "CP 2 is the recipe's: --cp 1 to change", for setting ID, into B. */
static int
name_one(char *b, size_t n, const struct job *job, enum setting_id id,
    int64_t v)
{
	const struct setting_def	*d = &settings_table[id];
	const struct setting_value	*sv = &job->set.v[id];

	if (d->type == ST_BOOL)
		return snprintf(b, n, "%s %s is the recipe's: --%s%s to change",
		    label(id), sv->b ? "on" : "off", sv->b ? "no-" : "",
		    d->option);
	if (d->type == ST_CHOICE)
		return snprintf(b, n, "%s %s is the recipe's: --%s to change",
		    label(id), sv->s != NULL ? sv->s : "?", d->option);
	/* CP, EP, ETP and VPP have a neutral 1; TP and PP hold the model. */
	if (id <= SET_VPP && id != SET_TP && id != SET_PP)
		return snprintf(b, n, "%s %" PRId64 " is the recipe's: --%s 1 "
		    "to change", label(id), v, d->option);
	return snprintf(b, n, "%s %" PRId64 " is the recipe's: --%s %s to "
	    "change", label(id), v, d->option, d->arg != NULL ? d->arg : "N");
}

const char *
job_blame_setting(const struct job *job, enum setting_id id, char *buf,
    size_t len)
{
	int	 w;

	buf[0] = '\0';
	if (len < 3 || job->set.v[id].origin != ORIGIN_RECIPE)
		return buf;
	memcpy(buf, "; ", 3);
	w = name_one(buf + 2, len - 2, job, id, job->set.v[id].i);
	if (w < 0 || (size_t)w >= len - 2)
		buf[0] = '\0';
	return buf;
}

/* Append to finding F the recipe values among IDS that it reads. */
static void
blame_finding(const struct job *job, struct finding *f,
    const enum setting_id *ids)
{
	char	 part[160];
	size_t	 len = strlen(f->message), k;
	int	 i, w, named = 0;
	int64_t	 v;

	for (i = 0; i < BLAME_MAX && ids[i] != SET__COUNT; i++) {
		if (job->set.v[ids[i]].origin != ORIGIN_RECIPE ||
		    !used(job, ids[i], &v))
			continue;
		/* A micro batch of 1 cannot shrink to fit memory. */
		if (ids[i] == SET_MICRO_BATCH_SIZE && v == 1 &&
		    strcmp(f->code, "memory-oom") == 0)
			continue;
		w = name_one(part, sizeof part, job, ids[i], v);
		if (w < 0 || (size_t)w >= sizeof part)
			continue;
		k = len + (size_t)w + 3;	/* " (" or "; ", and ")" */
		if (k >= sizeof f->message)
			break;
		if (named > 0)
			f->message[len - 1] = '\0', len--;	/* the ")" */
		len += (size_t)snprintf(f->message + len,
		    sizeof f->message - len, "%s%s)", named > 0 ? "; " : " (",
		    part);
		named++;
	}
}

void
job_blame_recipe(const struct job *job, struct sizing *s)
{
	size_t	 i;
	int	 k;

	if (job->recipe == NULL || s->codes_only)
		return;
	for (k = 0; k < s->nfindings; k++)
		for (i = 0; i < sizeof blame / sizeof blame[0]; i++)
			if (strcmp(blame[i].code, s->findings[k].code) == 0)
				blame_finding(job, &s->findings[k],
				    blame[i].ids);
}
