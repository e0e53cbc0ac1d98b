/*
 * search.c: plan --search; see search.h.
 */
#include <string.h>

#include "rules.h"
#include "search.h"

/* Divisors of any world up to SEARCH_MAX_WORLD (2^20 has 21; 720720 240). */
#define MAX_DIVISORS	256
/* Pairs (a, b) with a x b dividing a world up to SEARCH_MAX_WORLD: at most
 * 8505 (997920 = 2^5 3^4 5 7 11). */
#define MAX_PAIRS	8505
/* VPP counts: the divisors of the layers, the layers + 1 and + 2 (each up
 * to SEARCH_MAX_WORLD + 2, so at most 256 divisors). */
#define MAX_VPP		(3 * MAX_DIVISORS)
/* Micro-batch sizes: powers of two of a 64-bit global batch. */
#define MAX_MBS		63
#define NRECOMPUTE	3

/* The recompute modes a search tries, least recomputed first. */
static const enum recompute recompute_order[NRECOMPUTE] = {
	RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL,
};

enum dim { DIM_TP, DIM_CP, DIM_EP, DIM_ETP, DIM_NDIMS };

struct values {
	int64_t	 v[MAX_DIVISORS];
	int	 n;
};

struct expert_mesh {
	int64_t	 ep, etp;
};

struct search {
	const struct search_input *si;
	struct search_result	*out;
	int			 max, nout;
	struct search_stats	*stats;
	struct sizing		 s;		/* scratch */
	struct values		 dims[DIM_NDIMS];
	struct values		 pp;
	/* The VPP counts some split of the layers allows, ascending. */
	int64_t			 vpp[MAX_VPP];
	int			 nvpp;
	/* The micro-batch sizes and recompute modes of each layout of the
	 * dense mesh being searched; a micro-batch size that broke a rule
	 * of that dense mesh is dead for all its expert meshes. */
	int64_t			 mbs[MAX_MBS];
	bool			 mbs_dead[MAX_MBS];
	int			 nmbs;
	enum recompute		 rc[NRECOMPUTE];
	int			 nrc;
	/* The Megatron-FSDP shardings each layout is sized with. */
	enum fsdp_sharding	 fsdp[2];
	int			 nfsdp;
	/* The expert meshes of one PP stage, in the order they are
	 * searched: the same for each of its dense meshes. */
	struct expert_mesh	 expert[MAX_PAIRS];
	int			 nexpert;
};

/* The divisors of W, ascending. */
static void
divisors(int64_t w, struct values *d)
{
	int64_t	 i, high[MAX_DIVISORS];
	int	 nhigh = 0;

	d->n = 0;
	for (i = 1; i * i <= w; i++) {
		if (w % i != 0)
			continue;
		d->v[d->n++] = i;
		if (i * i != w)
			high[nhigh++] = w / i;
	}
	while (nhigh > 0)
		d->v[d->n++] = high[--nhigh];
}

/* Whether an error finding depends on more than the one size set. */
static bool
world_bound(const char *code)
{
	return strcmp(code, "world-divisibility") == 0 ||
	    strcmp(code, "uneven-nodes") == 0 ||
	    strcmp(code, "batch-divisibility") == 0;
}

/*
 * Whether an error finding follows from the dense mesh, PP and VPP alone
 * (with the world, the model and the batch), whatever EP and ETP: DP
 * against the batch, the micro-batches of the interleaved schedule, the
 * tokens sequence parallel splits, whole nodes.
 */
static bool
dense_bound(const char *code)
{
	return strcmp(code, "batch-divisibility") == 0 ||
	    strcmp(code, "vpp-microbatches") == 0 ||
	    strcmp(code, "sp-seq-divisibility") == 0 ||
	    strcmp(code, "uneven-nodes") == 0;
}

/*
 * TP overlap asked of the search (a recipe's, or the user's) applies
 * where Megatron can run it, TP > 1 with SP; elsewhere the job runs
 * without it, as Megatron would silently switch it off (the
 * tp-overlap-disabled rule, sizing.c), so it does not forbid a layout.
 */
static enum tristate
tp_overlap(enum tristate asked, const struct layout *l)
{
	if (asked == TRI_ON && !sizing_tp_overlap_runs(l))
		return TRI_OFF;
	return asked;
}

/*
 * Whether the core accepts V for one size, every other size 1: the rules
 * that involve that size alone (heads, sequence, experts, dense models).
 */
static bool
dim_ok(struct search *se, enum dim d, int64_t v)
{
	struct sizing_input	 in = se->si->base;
	int			 i;

	memset(&in.layout, 0, sizeof in.layout);
	in.layout.tp = in.layout.pp = in.layout.cp = in.layout.ep =
	    in.layout.etp = in.layout.vpp = 1;
	in.first_stage_layers = in.last_stage_layers = 0;
	in.world_from = WORLD_FROM_MULTIPLE;
	in.multiple = 1;
	in.codes_only = true;
	switch (d) {
	case DIM_TP:
		in.layout.tp = v;
		in.layout.sp = v > 1;
		break;
	case DIM_CP:
		in.layout.cp = v;
		break;
	case DIM_EP:
		in.layout.ep = v;
		break;
	case DIM_ETP:
		if (in.model.moe_ffn_hidden_size != 0 &&
		    in.model.moe_ffn_hidden_size % v != 0)
			return false;
		in.layout.etp = v;
		break;
	default:
		return false;
	}
	in.tp_comm_overlap = tp_overlap(in.tp_comm_overlap, &in.layout);
	if (sizing_compute(&in, &se->s) != NULL)
		return false;
	for (i = 0; i < se->s.nfindings; i++)
		if (se->s.findings[i].severity == SEVERITY_ERROR &&
		    !world_bound(se->s.findings[i].code))
			return false;
	return true;
}

/* Where MODE comes in recompute_order: less recomputed ranks first. */
static int
recompute_rank(enum recompute mode)
{
	int	 i;

	for (i = 0; i < NRECOMPUTE; i++)
		if (recompute_order[i] == mode)
			break;
	return i;
}

/*
 * Whether A ranks above B: the score, then fewer GPUs, then smaller sizes,
 * then the smaller micro-batch, then less recompute.
 */
static bool
better(const struct search_result *a, const struct search_result *b)
{
	const struct layout	*x = &a->in.layout, *y = &b->in.layout;

	if (a->cost.score != b->cost.score)
		return a->cost.score > b->cost.score;
	if (a->in.gpus != b->in.gpus)
		return a->in.gpus < b->in.gpus;
	if (x->tp != y->tp)
		return x->tp < y->tp;
	if (x->pp != y->pp)
		return x->pp < y->pp;
	if (x->cp != y->cp)
		return x->cp < y->cp;
	if (x->ep != y->ep)
		return x->ep < y->ep;
	if (x->etp != y->etp)
		return x->etp < y->etp;
	if (x->vpp != y->vpp)
		return x->vpp < y->vpp;
	if (a->in.micro_batch != b->in.micro_batch)
		return a->in.micro_batch < b->in.micro_batch;
	if (a->in.fsdp != b->in.fsdp)
		return a->in.fsdp == FSDP_OFF;
	return recompute_rank(a->in.recompute) < recompute_rank(b->in.recompute);
}

static void
keep(struct search *se, const struct search_result *r)
{
	int	 i;

	if (se->nout == se->max && !better(r, &se->out[se->max - 1]))
		return;
	i = se->nout < se->max ? se->nout++ : se->max - 1;
	for (; i > 0 && better(r, &se->out[i - 1]); i--)
		se->out[i] = se->out[i - 1];
	se->out[i] = *r;
}

/* Whether S has an error that every expert mesh of its dense mesh has. */
static bool
illegal_mesh(const struct sizing *s)
{
	int	 i;

	for (i = 0; i < s->nfindings; i++)
		if (s->findings[i].severity == SEVERITY_ERROR &&
		    dense_bound(s->findings[i].code))
			return true;
	return false;
}

/*
 * Count N layouts against the budget.  When fewer are left, count those
 * (as if sized one by one up to the budget), stop the search and return
 * false.
 */
static bool
spend(struct search *se, int64_t n)
{
	struct search_stats	*st = se->stats;

	if (n > st->budget - st->candidates) {
		st->candidates = st->budget;
		st->stopped = true;
		return false;
	}
	st->candidates += n;
	return true;
}

/* What sizing one layout found. */
enum outcome {
	OUT_FIT,		/* legal and fits (or no GPU memory to fit) */
	OUT_OOM,		/* legal, does not fit */
	OUT_UNRANKED,		/* legal, no estimate to rank it by */
	OUT_REFUSED,		/* broke a rule of the layout itself */
	OUT_REFUSED_MESH,	/* broke a rule of its dense mesh alone */
};

/*
 * Size, check and cost one layout the budget counted already; its
 * tokens/s into *SPEED (a layout that does not fit is costed too).
 */
static enum outcome
size_one(struct search *se, const struct sizing_input *in, double *speed)
{
	struct search_result	 r;
	struct sizing		*s = &se->s;
	struct rules_input	 ri;

	if (sizing_compute(in, s) != NULL)
		return OUT_REFUSED;
	/* What Megatron refuses beyond the sizes, with the defaults gen
	 * would write (alltoall; the overlaps follow the layout). */
	memset(&ri, 0, sizeof ri);
	ri.in = in;
	ri.dispatcher = DISPATCH_ALLTOALL;
	rules_check(&ri, NULL, s);
	if (s->nerrors > 0)
		return illegal_mesh(s) ? OUT_REFUSED_MESH : OUT_REFUSED;
	se->stats->legal++;
	if (!s->has_memory)
		return OUT_UNRANKED;
	memset(&r, 0, sizeof r);
	if (cost_estimate(in, s, &se->si->hw, &r.cost) != NULL)
		return OUT_UNRANKED;
	*speed = r.cost.tokens_per_s;
	if (s->memory_oom)
		return OUT_OOM;
	se->stats->fit++;
	r.in = *in;
	r.in.codes_only = false;	/* as plan would size it */
	r.chose_micro_batch = se->si->vary_micro_batch;
	r.chose_recompute = se->si->vary_recompute;
	r.chose_fsdp = se->si->vary_fsdp;
	r.drop_account_embedding = se->si->base.account_embedding &&
	    !in->account_embedding;
	r.drop_account_loss = se->si->base.account_loss && !in->account_loss;
	r.dp = s->dp;
	r.edp = s->edp;
	r.nodes = s->nodes;
	r.memory_gib = s->memory.total_gib;
	keep(se, &r);
	return OUT_FIT;
}

/* Whether no layout of SPEED tokens/s at most can be kept any more. */
static bool
beaten(const struct search *se, double speed)
{
	return se->nout == se->max &&
	    speed < se->out[se->max - 1].cost.score;
}

/*
 * One layout at one micro-batch size, with each recompute mode not in
 * OOM (a mode that did not fit a smaller micro-batch: activations grow
 * with it, memory.c).  The modes go from the least recomputed, the
 * fastest (recompute only adds work: cost.c), so once the first one sized
 * is slower than the last kept result (whose score is at most its
 * tokens/s, cost.h), the others cannot be kept either: they are counted,
 * not sized.  The outcome of the layout: OUT_FIT once one mode was sized
 * and passed the rules.
 */
static enum outcome
recompute_each(struct search *se, struct sizing_input *in, bool *oom)
{
	double		 bound = 0;
	bool		 bounded = false;
	enum outcome	 o;
	int		 j;

	for (j = 0; j < se->nrc; j++) {
		if (!spend(se, 1))
			return OUT_FIT;
		if (oom[j] || (bounded && beaten(se, bound)))
			continue;
		in->recompute = se->rc[j];
		switch ((o = size_one(se, in, &bound))) {
		case OUT_OOM:
			oom[j] = true;
			/* FALLTHROUGH */
		case OUT_FIT:
			bounded = true;
			break;
		case OUT_UNRANKED:
			break;
		default:
			/* No rule of the core involves the recompute mode
			 * (but the MoE overlap's, which the search leaves
			 * off): the others break it too. */
			spend(se, se->nrc - j - 1);
			return o;
		}
	}
	return OUT_FIT;
}

/*
 * One layout at one micro-batch size with each FSDP sharding searched
 * (Megatron-FSDP's traffic and memory differ: neither bounds the other),
 * and each recompute mode.  No rule of the core involves FSDP (its own
 * need the launch environment or the user's overrides): a layout one
 * sharding breaks, the other breaks too.
 */
static enum outcome
one_micro_batch(struct search *se, struct sizing_input *in,
    bool (*oom)[NRECOMPUTE])
{
	enum outcome	 o;
	int		 k;

	for (k = 0; k < se->nfsdp; k++) {
		in->fsdp = se->fsdp[k];
		if ((o = recompute_each(se, in, oom[k])) != OUT_FIT) {
			spend(se, (int64_t)(se->nfsdp - k - 1) * se->nrc);
			return o;
		}
	}
	return OUT_FIT;
}

/*
 * One layout with each micro-batch size and recompute mode, as far as
 * the budget allows.  What is known not to help is counted, not sized: a
 * rule of the layout (not of the batch, the only rule of the core that
 * involves the micro-batch size) refuses every other micro-batch size
 * too; a micro-batch size that broke a rule of the dense mesh is dead for
 * the dense mesh.  Returns whether every micro-batch size is dead: then
 * so is every other expert mesh.
 */
static bool
consider(struct search *se, struct sizing_input *in)
{
	bool	 oom[2][NRECOMPUTE] = { { false } };
	int	 i, nalive = 0;

	for (i = 0; i < se->nmbs && !se->stats->stopped; i++) {
		if (se->mbs_dead[i]) {
			spend(se, se->nrc * se->nfsdp);
			continue;
		}
		in->micro_batch = se->mbs[i];
		switch (one_micro_batch(se, in, oom)) {
		case OUT_REFUSED_MESH:
			se->mbs_dead[i] = true;
			break;
		case OUT_REFUSED:
			spend(se, (int64_t)(se->nmbs - i - 1) * se->nrc *
			    se->nfsdp);
			return false;
		default:
			break;
		}
	}
	for (i = 0; i < se->nmbs; i++)
		nalive += !se->mbs_dead[i];
	return nalive == 0;
}

/* Whether V may stand for a size the user fixed to F (0: free). */
static bool
allowed(int64_t f, int64_t v)
{
	return f == 0 || f == v;
}

/*
 * The expert meshes of one PP stage of REST GPUs: EP ascending, then ETP.
 * A dense model has no experts to split: ETP > 1 changes nothing.
 */
static void
expert_meshes(struct search *se, int64_t rest)
{
	const struct values	*ep = &se->dims[DIM_EP], *etp = &se->dims[DIM_ETP];
	const struct layout	*f = &se->si->fixed;
	bool			 dense = se->si->base.model.kind ==
	    MODEL_KIND_DENSE;
	int			 c, d;

	se->nexpert = 0;
	for (c = 0; c < ep->n && ep->v[c] <= rest; c++) {
		if (rest % ep->v[c] != 0 || !allowed(f->ep, ep->v[c]))
			continue;
		for (d = 0; d < etp->n && ep->v[c] * etp->v[d] <= rest; d++) {
			if (rest % (ep->v[c] * etp->v[d]) != 0 ||
			    !allowed(f->etp, etp->v[d]) ||
			    (dense && etp->v[d] > 1 && f->etp == 0))
				continue;
			se->expert[se->nexpert].ep = ep->v[c];
			se->expert[se->nexpert++].etp = etp->v[d];
		}
	}
}

/*
 * The micro-batch sizes of a dense mesh of DP replicas: the base's, or
 * when searched and the global batch known, 1, 2, 4 ... while the batch
 * is a whole number of micro-batches x DP (a size 1 that is not is sized
 * all the same: its refusal says why the dense mesh cannot run).
 */
static void
micro_batches(struct search *se, int64_t dp)
{
	int64_t	 gbs = se->si->base.global_batch, m;
	int	 i;

	se->nmbs = 0;
	if (!se->si->vary_micro_batch || gbs <= 0)
		se->mbs[se->nmbs++] = se->si->base.micro_batch;
	else {
		se->mbs[se->nmbs++] = 1;
		for (m = 2; se->nmbs < MAX_MBS && m <= gbs / dp &&
		    gbs % (m * dp) == 0; m *= 2)
			se->mbs[se->nmbs++] = m;
	}
	for (i = 0; i < se->nmbs; i++)
		se->mbs_dead[i] = false;
}

/*
 * Every expert mesh with one dense mesh.  When a layout breaks a rule of
 * its dense mesh alone, at every micro-batch size, the others would too:
 * they are counted, not sized.
 */
static void
expert_loop(struct search *se, struct sizing_input *in)
{
	int64_t	 per = (int64_t)se->nmbs * se->nrc;
	int	 k;

	for (k = 0; k < se->nexpert && !se->stats->stopped; k++) {
		in->layout.ep = se->expert[k].ep;
		in->layout.etp = se->expert[k].etp;
		if (consider(se, in)) {
			spend(se, (se->nexpert - k - 1) * per);
			return;
		}
	}
}

/* Every dense mesh, each with every expert mesh, for a stage of REST GPUs. */
static void
meshes(struct search *se, struct sizing_input *in, int64_t rest)
{
	const struct values	*tp = &se->dims[DIM_TP], *cp = &se->dims[DIM_CP];
	const struct layout	*f = &se->si->fixed;
	int			 a, b;

	for (a = 0; a < tp->n && tp->v[a] <= rest && !se->stats->stopped;
	    a++) {
		if (rest % tp->v[a] != 0 || !allowed(f->tp, tp->v[a]))
			continue;
		in->layout.tp = tp->v[a];
		in->layout.sp = tp->v[a] > 1;
		in->tp_comm_overlap = tp_overlap(
		    se->si->base.tp_comm_overlap, &in->layout);
		for (b = 0; b < cp->n && tp->v[a] * cp->v[b] <= rest; b++) {
			if (rest % (tp->v[a] * cp->v[b]) != 0 ||
			    !allowed(f->cp, cp->v[b]))
				continue;
			in->layout.cp = cp->v[b];
			micro_batches(se, rest / (tp->v[a] * cp->v[b]));
			expert_loop(se, in);
		}
	}
}

/*
 * The split of LAYERS over PP stages of VPP chunks, the first of: even; the embedding and the loss counted as layers
 * (transformer_config.py:2090-2103, transformer_block.py's
 * get_num_layers_to_build: a chunk left with no layer is legal); the loss
 * alone counted (the output layer and the loss weigh more than the
 * embedding's lookup); uneven first and last stages, every count a
 * multiple of VPP (transformer_config.py:1998-2058).
 */
bool
search_split(int64_t layers, int64_t pp, int64_t vpp, struct sizing_input *in)
{
	int64_t	 chunks;

	in->first_stage_layers = in->last_stage_layers = 0;
	in->account_embedding = in->account_loss = false;
	if (layers < 1 || layers > INT64_MAX - 2 || !sizing_mul(pp, vpp,
	    &chunks) || pp < 1 || vpp < 1)
		return false;
	if (layers % chunks == 0)
		return true;
	if (pp == 1)
		return false;
	if ((layers + 2) % chunks == 0) {
		in->account_embedding = in->account_loss = true;
		return true;
	}
	if ((layers + 1) % chunks == 0) {
		in->account_loss = true;
		return true;
	}
	return sizing_suggest_split(layers, pp, vpp, &in->first_stage_layers,
	    &in->last_stage_layers);
}

/* Every PP, VPP and layer split on a world of W GPUs. */
static void
search_world(struct search *se, int64_t w)
{
	struct sizing_input	 in = se->si->base;
	int64_t			 layers = in.model.num_layers, pp, vpp;
	int			 i, j, d;

	divisors(w, &se->pp);
	for (d = 0; d < DIM_NDIMS; d++) {
		se->dims[d].n = 0;
		for (i = 0; i < se->pp.n; i++)
			if (dim_ok(se, d, se->pp.v[i]))
				se->dims[d].v[se->dims[d].n++] = se->pp.v[i];
	}
	in.world_from = WORLD_FROM_GPUS;
	in.gpus = w;
	in.codes_only = true;
	/* The search sets the split: a recipe's own layout was made for
	 * its PP and VPP (job_recipe_conflicts() drops it for others). */
	in.pipeline_layout = false;
	for (i = 0; i < se->pp.n && se->pp.v[i] <= layers &&
	    !se->stats->stopped; i++) {
		pp = se->pp.v[i];
		if (!allowed(se->si->fixed.pp, pp))
			continue;
		expert_meshes(se, w / pp);
		for (j = 0; j < se->nvpp && se->vpp[j] <= (layers + 2) / pp &&
		    !se->stats->stopped; j++) {
			vpp = se->vpp[j];
			if (pp == 1 && vpp > 1)
				break;
			if (!allowed(se->si->fixed.vpp, vpp) ||
			    !search_split(layers, pp, vpp, &in))
				continue;
			in.layout.pp = pp;
			in.layout.vpp = vpp;
			meshes(se, &in, w / pp);
		}
	}
}

/* The VPP counts of LAYERS: the divisors of LAYERS, + 1 and + 2. */
static void
vpp_counts(struct search *se, int64_t layers)
{
	struct values	 d;
	int64_t		 v;
	int		 k, i, j;

	se->nvpp = 0;
	for (k = 0; k < 3; k++) {
		divisors(layers + k, &d);
		for (i = 0; i < d.n; i++) {
			v = d.v[i];
			for (j = se->nvpp; j > 0 && se->vpp[j - 1] > v; j--)
				;
			if (j > 0 && se->vpp[j - 1] == v)
				continue;
			memmove(&se->vpp[j + 1], &se->vpp[j],
			    (size_t)(se->nvpp - j) * sizeof se->vpp[0]);
			se->vpp[j] = v;
			se->nvpp++;
		}
	}
}

/* The recompute modes: the base's, or each.  Full recompute runs only
 * under a full-iteration graph when the step has CUDA graphs
 * (megatron/core/transformer/transformer_config.py:2855-2858 asserts it
 * at d98e8a64): with per-layer graphs the search does not try it. */
static void
recompute_modes(struct search *se)
{
	enum cuda_graph_impl	 g = se->si->base.cuda_graphs;
	int			 i;

	se->nrc = 0;
	if (!se->si->vary_recompute) {
		se->rc[se->nrc++] = se->si->base.recompute;
		return;
	}
	for (i = 0; i < NRECOMPUTE; i++)
		if (recompute_order[i] != RECOMPUTE_FULL ||
		    (g != CUDA_GRAPH_TE && g != CUDA_GRAPH_LOCAL))
			se->rc[se->nrc++] = recompute_order[i];
}

/* The FSDP shardings: the base's, or none and Bridge's FSDP recipes'
 * (optim_grads_params; optim is the distributed optimizer's memory and
 * traffic, optim_grads between the two).  Only a dense model's: every
 * Megatron-FSDP run NVIDIA publishes and every FSDP recipe of Bridge is
 * a dense Llama, and a MoE model's expert meshes would double the
 * largest searches (Kimi K2 on 16,384 GPUs: 13 ms to 54 ms, `make
 * bench`) for layouts no one measured; --fsdp still sizes them. */
static void
fsdp_modes(struct search *se)
{
	se->nfsdp = 0;
	if (!se->si->vary_fsdp || se->si->base.model.num_experts > 0) {
		se->fsdp[se->nfsdp++] = se->si->base.fsdp;
		return;
	}
	se->fsdp[se->nfsdp++] = FSDP_OFF;
	se->fsdp[se->nfsdp++] = FSDP_OPTIM_GRADS_PARAMS;
}

/* The worlds to search: W, or at most M: M and each 2^k nodes below. */
static const char *
worlds(const struct search_input *si, struct search_stats *st)
{
	int64_t	 g = si->base.gpus_per_node, n;

	if (si->world > 0) {
		st->worlds[st->nworlds++] = si->world;
		return NULL;
	}
	if (si->max_gpus % g == 0 || si->max_gpus < g)
		st->worlds[st->nworlds++] = si->max_gpus;
	for (n = INT64_C(1) << 40; n >= 1; n /= 2)
		if (n * g < si->max_gpus && st->nworlds < SEARCH_MAX_WORLDS)
			st->worlds[st->nworlds++] = n * g;
	return st->nworlds == 0 ? "found no world size of whole nodes" : NULL;
}

const char *
search_run(const struct search_input *si, struct search_result *out,
    int max, int *nout, struct search_stats *stats)
{
	struct search		 se;
	const struct model	*m = &si->base.model;
	const char		*why;
	int64_t			 top = si->world > 0 ? si->world : si->max_gpus;
	int			 i;

	memset(stats, 0, sizeof *stats);
	*nout = 0;
	if (m->num_layers == 0 || m->hidden_size == 0 ||
	    m->num_attention_heads == 0)
		return "needs the model's layers, hidden size and attention "
		    "heads (--model or the architecture options)";
	if (si->base.seq_length == 0)
		return "needs the sequence length (--seq-length)";
	if (top < 1 || top > SEARCH_MAX_WORLD)
		return "searches 1 to 1048576 GPUs";
	if (m->num_layers > SEARCH_MAX_WORLD)
		return "searches models of at most 1048576 layers";
	if (si->budget < 0 || si->budget > SEARCH_MAX_BUDGET)
		return "searches 1 to 1000000000000 layouts";
	if (max < 1 || max > SEARCH_MAX_BEST)
		return "shows 1 to 100 layouts";
	if ((why = worlds(si, stats)) != NULL)
		return why;

	memset(&se, 0, sizeof se);
	se.si = si;
	se.out = out;
	se.max = max;
	se.stats = stats;
	stats->budget = si->budget > 0 ? si->budget : SEARCH_BUDGET;
	vpp_counts(&se, m->num_layers);
	recompute_modes(&se);
	fsdp_modes(&se);
	for (i = 0; i < stats->nworlds && !stats->stopped; i++)
		search_world(&se, stats->worlds[i]);
	*nout = se.nout;
	return NULL;
}
