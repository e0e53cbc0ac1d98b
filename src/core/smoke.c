/*
 * smoke.c: the sizes of a smoke job; see smoke.h.  Megatron-Core's
 * rules on the split are those of transformer_config.py (core_v0.19.0
 * 1998-2103: the first and last stages' counts, the middle stages,
 * VPP) and arguments.py (934-963: an even split); on heads 1342
 * (query groups) and arguments.py's heads % TP; on experts arguments.py
 * 1602.
 */
#include <stdbool.h>
#include <stdint.h>

#include "sizing.h"
#include "smoke.h"

static int64_t
round_up(int64_t n, int64_t m)
{
	int64_t	 r;

	if (n % m == 0)
		return n;
	if (!sizing_mul((n / m) + 1, m, &r))
		return -1;
	return r;
}

/* The stages of the split without an explicit count (the middle ones,
 * or all of them for an even split). */
static int64_t
free_stages(const struct smoke_input *in)
{
	return in->layout.pp - (in->first_stage_layers != 0) -
	    (in->last_stage_layers != 0);
}

bool
smoke_layers_legal(const struct smoke_input *in, int64_t layers)
{
	const struct layout	*l = &in->layout;
	int64_t			 v = l->vpp > 1 ? l->vpp : 1, f, l2, ms, m;
	int64_t			 total;

	if (layers < 1)
		return false;
	f = in->first_stage_layers;
	l2 = in->last_stage_layers;
	if (f != 0 || l2 != 0) {
		if (f < 0 || l2 < 0 || f % v != 0 || l2 % v != 0)
			return false;
		ms = free_stages(in);
		m = layers - f - l2;
		if (ms < 0 || m < 0 || (m == 0) != (ms == 0))
			return false;
		return ms == 0 || (m % ms == 0 && (m / ms) % v == 0);
	}
	total = layers + in->account_embedding + in->account_loss;
	if (total % l->pp != 0)
		return false;
	return (total / l->pp) % v == 0;
}

/* The fewest layers the split takes. */
static const char *
fewest_layers(const struct smoke_input *in, int64_t *out)
{
	const struct layout	*l = &in->layout;
	int64_t			 v = l->vpp > 1 ? l->vpp : 1, chunks, ms;
	int64_t			 extra = in->account_embedding +
				     in->account_loss;

	if (in->first_stage_layers != 0 || in->last_stage_layers != 0) {
		if ((ms = free_stages(in)) < 0)
			return "an uneven split of the first and the last "
			    "stage needs PP 2 or more";
		if (!sizing_mul(ms, v, &chunks) ||
		    in->first_stage_layers > INT64_MAX / 2 ||
		    in->last_stage_layers > INT64_MAX / 2 ||
		    chunks > INT64_MAX - in->first_stage_layers -
		    in->last_stage_layers)
			return "the layer count overflows";
		*out = in->first_stage_layers + in->last_stage_layers +
		    chunks;
	} else {
		/* Whole virtual stages, at least one layer among them. */
		if (!sizing_mul(l->pp, v, &chunks) ||
		    !sizing_mul(chunks, (extra + chunks) / chunks, &chunks))
			return "the layer count overflows";
		*out = chunks - extra;
	}
	if (!smoke_layers_legal(in, *out))
		return "the first and last pipeline stages' layer counts "
		    "must be multiples of VPP (Megatron-Core "
		    "transformer_config.py)";
	return NULL;
}

static const char *
heads(const struct smoke_input *in, struct smoke *out)
{
	int64_t	 tp = in->layout.tp, h = in->num_attention_heads;
	int64_t	 g = in->num_query_groups;

	if (h % tp != 0 && !sizing_mul(h / sizing_gcd(h, tp), tp, &h))
		return "the attention heads overflow";
	if (in->hidden_size % h != 0)
		return "the small model's hidden size cannot hold a multiple "
		    "of TP attention heads";
	if (g % tp != 0 && tp % g != 0)
		g = tp;
	out->num_attention_heads = h;
	out->num_query_groups = g;
	return NULL;
}

static const char *
world(const struct smoke_input *in, struct smoke *out)
{
	const struct layout	*l = &in->layout;
	int64_t			 w, gpn, per;

	gpn = in->gpus_per_node;
	if (!sizing_min_gpus(l, NULL, &w))
		return "the world size overflows";
	/* Whole nodes: a multiple of the min GPUs that fills them. */
	if (w > gpn && w % gpn != 0 &&
	    !sizing_mul(w / sizing_gcd(w, gpn), gpn, &w))
		return "the world size overflows";
	out->gpus = w;
	out->nodes = w <= gpn ? 1 : w / gpn;
	if (!sizing_mul(l->tp, l->cp, &per) || !sizing_mul(per, l->pp, &per))
		return "the world size overflows";
	out->dp = w / per;
	return NULL;
}

static const char *
batch(const struct smoke_input *in, struct smoke *out)
{
	const struct layout	*l = &in->layout;
	int64_t			 m;

	m = (SMOKE_TARGET_BATCH + out->dp - 1) / out->dp;
	/* schedules.py: the interleaved schedule runs micro-batches in
	 * groups of PP. */
	if (l->vpp > 1 && l->pp > 1 && (m = round_up(m, l->pp)) < 0)
		return "the global batch overflows";
	out->micro_batch = 1;
	out->microbatches = m;
	if (!sizing_mul(m, out->dp, &out->global_batch))
		return "the global batch overflows";
	return NULL;
}

const char *
smoke_compute(const struct smoke_input *in, struct smoke *out)
{
	const struct layout	*l = &in->layout;
	const char		*reason;
	int64_t			 e;

	if (l->tp < 1 || l->pp < 1 || l->cp < 1 || l->ep < 1 ||
	    l->etp < 1 || l->vpp < 1 || in->gpus_per_node < 1)
		return "a parallel size is below 1";
	if (in->num_layers < 1 || in->hidden_size < 1 ||
	    in->num_attention_heads < 1 || in->num_query_groups < 1 ||
	    in->num_experts < 0 || in->moe_router_topk < 0)
		return "the small model has no size";
	if (in->first_stage_layers < 0 || in->last_stage_layers < 0)
		return "a stage's layer count is below 0";

	if ((reason = world(in, out)) != NULL ||
	    (reason = heads(in, out)) != NULL ||
	    (reason = batch(in, out)) != NULL)
		return reason;
	if (smoke_layers_legal(in, in->num_layers))
		out->num_layers = in->num_layers;
	else if ((reason = fewest_layers(in, &out->num_layers)) != NULL)
		return reason;

	out->num_experts = 0;
	if (in->num_experts > 0) {
		e = in->num_experts;
		if (e < in->moe_router_topk)
			e = in->moe_router_topk;
		if ((e = round_up(e, l->ep)) < 0)
			return "the experts overflow";
		out->num_experts = e;
	}
	return NULL;
}

bool
smoke_shrink(const struct smoke_input *in, struct smoke *z)
{
	int64_t	 n, e;

	if (fewest_layers(in, &n) == NULL && n < z->num_layers) {
		z->num_layers = n;
		return true;
	}
	if (z->num_experts == 0)
		return false;
	e = round_up(in->moe_router_topk > 0 ? in->moe_router_topk : 1,
	    in->layout.ep);
	if (e > 0 && e < z->num_experts) {
		z->num_experts = e;
		return true;
	}
	return false;
}
