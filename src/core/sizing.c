/*
 * sizing.c: the sizing core; see sizing.h and docs/SPEC.md section 2.
 *
 * The rules and their sources (Megatron-Core parallel_state.py,
 * transformer_config.py, arguments.py) are summarised in
 * docs/megatron-rules.md sections 1 and 2.  Findings are added in the
 * order of docs/SPEC.md's table, so output is stable.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "memory.h"
#include "sizing.h"

const char *const sizing_codes[] = {
	"sp-needs-tp",
	"cp-seq-divisibility",
	"ep-on-dense",
	"experts-divisibility",
	"layers-divisibility",
	"vpp-needs-pp",
	"heads-divisibility",
	"batch-divisibility",
	"world-divisibility",
	"uneven-nodes",
	"tp-overlap-disabled",
	"tp-cross-node",
	"pp-bubble",
	"mesh-lcm",
	"seq-needs-sp",
	"seq-needs-cp",
	"memory-oom",
	"pp-split-accounting",
	NULL
};

/* Upper bound on the inputs; well beyond any machine, far below overflow. */
#define SIZE_LIMIT	(INT64_C(1) << 40)

bool
sizing_mul(int64_t a, int64_t b, int64_t *out)
{
	if (a < 0 || b < 0)
		return false;
	if (a != 0 && b > INT64_MAX / a)
		return false;
	*out = a * b;
	return true;
}

int64_t
sizing_gcd(int64_t a, int64_t b)
{
	int64_t	 t;

	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

int64_t
sizing_microbatches(const struct sizing_input *in, const struct sizing *s)
{
	int64_t	 per;

	if (in->global_batch <= 0 || s->dp <= 0 ||
	    !sizing_mul(in->micro_batch, s->dp, &per) || per == 0 ||
	    in->global_batch % per != 0)
		return 0;
	return in->global_batch / per;
}

/*
 * A step of the 1F1B schedule is M micro-batch times plus PP - 1 of fill
 * and drain; the interleaved schedule cuts the fill and drain by VPP
 * (Narayanan et al., SC'21, sections 2.2.1-2.2.2: bubble (p - 1) / m of
 * the ideal time, (p - 1) / (v m) interleaved).  As a share of the step:
 * (p - 1) / (v m + p - 1).
 */
double
sizing_bubble_share(int64_t pp, int64_t vpp, int64_t m)
{
	double	 fill = (double)(pp - 1);

	if (pp <= 1 || vpp < 1 || m < 1)
		return 0;
	return fill / ((double)vpp * (double)m + fill);
}

void
sizing_input_init(struct sizing_input *in)
{
	memset(in, 0, sizeof *in);
	in->layout.tp = in->layout.pp = in->layout.cp = 1;
	in->layout.ep = in->layout.etp = in->layout.vpp = 1;
	in->world_from = WORLD_FROM_MULTIPLE;
	in->multiple = 1;
	in->gpus_per_node = 8;
	in->micro_batch = 1;
	in->distributed_optimizer = true;
}

void
sizing_add_finding(struct sizing *out, const char *code, enum severity severity,
    const char *fmt, ...)
{
	struct finding	*f;
	va_list		 ap;

	if (out->nfindings == SIZING_MAX_FINDINGS)
		return;
	f = &out->findings[out->nfindings++];
	f->code = code;
	f->severity = severity;
	f->message[0] = '\0';
	if (!out->codes_only) {
		va_start(ap, fmt);
		vsnprintf(f->message, sizeof f->message, fmt, ap);
		va_end(ap);
	}
	if (severity == SEVERITY_ERROR)
		out->nerrors++;
	else if (severity == SEVERITY_INFO)
		out->ninfos++;
}

const char *
sizing_severity_word(enum severity severity)
{
	switch (severity) {
	case SEVERITY_ERROR:
		return "error";
	case SEVERITY_INFO:
		return "info";
	default:
		return "warning";
	}
}

int
sizing_nwarnings(const struct sizing *s)
{
	return s->nfindings - s->nerrors - s->ninfos;
}

void
sizing_add_skipped(struct sizing *out, const char *code, const char *reason)
{
	if (out->nskipped == SIZING_MAX_FINDINGS)
		return;
	out->skipped[out->nskipped].code = code;
	out->skipped[out->nskipped].reason = reason;
	out->nskipped++;
}

static bool
in_range(int64_t v)
{
	return v >= 1 && v <= SIZE_LIMIT;
}

/* Does world w spread evenly over ceil(w / g) nodes? */
static bool
spreads_evenly(int64_t w, int64_t g)
{
	int64_t	 nodes = w / g + (w % g != 0);

	return w % nodes == 0;
}

/*
 * The legal world sizes nearest to w: multiples of step that spread evenly
 * over whole nodes.  0 where there is none (below) or none within reach.
 * Both searches end within g steps: any multiple of lcm(step, g) spreads
 * evenly, and w < lcm when the downward search runs past it.
 */
static void
nearest_worlds(int64_t w, int64_t step, int64_t g, int64_t *below,
    int64_t *above)
{
	int64_t	 v, i;

	*below = *above = 0;
	for (v = (w - 1) / step * step, i = 0; v >= step && i <= g;
	    v -= step, i++)
		if (spreads_evenly(v, g)) {
			*below = v;
			break;
		}
	for (v = (w / step + 1) * step, i = 0; v > 0 && v <= SIZE_LIMIT &&
	    i <= g; v += step, i++)
		if (spreads_evenly(v, g)) {
			*above = v;
			break;
		}
}

static void
describe_nearest(char *buf, size_t len, int64_t below, int64_t above,
    int64_t g)
{
	int64_t	 nb = below / g + (below % g != 0);
	int64_t	 na = above / g + (above % g != 0);

	if (below != 0 && above != 0)
		snprintf(buf, len, "; nearest legal: %lld GPUs (%lld node%s) "
		    "or %lld GPUs (%lld node%s)", (long long)below,
		    (long long)nb, nb == 1 ? "" : "s", (long long)above,
		    (long long)na, na == 1 ? "" : "s");
	else if (above != 0)
		snprintf(buf, len, "; nearest legal: %lld GPUs (%lld node%s)",
		    (long long)above, (long long)na, na == 1 ? "" : "s");
	else
		buf[0] = '\0';
}

/* Does a TP group of consecutive ranks leave its NVLink domain? */
static bool
tp_crosses_domain(const struct sizing *s, int64_t tp, int64_t g)
{
	int64_t	 d = s->nvlink_domain, t = s->tasks_per_node, r;

	if (tp > d)
		return true;
	if (d >= g) {
		/* A domain spans d / g whole nodes of t ranks each. */
		r = t * (d / g);
		return s->world > r && r % tp != 0;
	}
	/* Several domains per node: boundaries at nodes and every d GPUs. */
	return (s->world > t && t % tp != 0) || (t > d && d % tp != 0);
}

static const char *
check_input(const struct sizing_input *in)
{
	const struct layout	*l = &in->layout;
	int64_t			 d = in->nvlink_domain, g = in->gpus_per_node;

	if (!in_range(l->tp) || !in_range(l->pp) || !in_range(l->cp) ||
	    !in_range(l->ep) || !in_range(l->etp) || !in_range(l->vpp))
		return "a parallel size is out of range";
	if (!in_range(g))
		return "GPUs per node is out of range";
	if (d != 0 && (!in_range(d) || (d % g != 0 && g % d != 0)))
		return "the NVLink domain must divide, or be a multiple of, "
		    "the GPUs per node";
	if (in->first_stage_layers < 0 || in->last_stage_layers < 0 ||
	    in->first_stage_layers > SIZE_LIMIT ||
	    in->last_stage_layers > SIZE_LIMIT)
		return "a pipeline-stage layer count is out of range";
	if (!in_range(in->micro_batch))
		return "the micro-batch size is out of range";
	switch (in->world_from) {
	case WORLD_FROM_MULTIPLE:
		if (!in_range(in->multiple))
			return "the multiple is out of range";
		break;
	case WORLD_FROM_GPUS:
		if (!in_range(in->gpus))
			return "the GPU count is out of range";
		break;
	case WORLD_FROM_NODES:
		if (!in_range(in->nodes))
			return "the node count is out of range";
		break;
	default:
		return "unknown world-size source";
	}
	return NULL;
}

static const char overflow[] = "the layout's figures overflow 64 bits";

bool
sizing_tp_overlap_runs(const struct layout *l)
{
	return l->tp >= 2 && l->sp;
}

bool
sizing_min_gpus(const struct layout *l, int64_t *lcm, int64_t *min)
{
	int64_t	 dense, expert, m;

	if (!sizing_mul(l->tp, l->cp, &dense) ||
	    !sizing_mul(l->ep, l->etp, &expert) ||
	    !sizing_mul(dense / sizing_gcd(dense, expert), expert, &m) ||
	    !sizing_mul(l->pp, m, min))
		return false;
	if (lcm != NULL)
		*lcm = m;
	return true;
}

/* min_gpus, naive product, world, DP, EDP, nodes, tasks per node. */
static const char *
compute_figures(const struct sizing_input *in, struct sizing *s)
{
	const struct layout	*l = &in->layout;
	int64_t			 g = in->gpus_per_node, t, dense_pp, expert_pp;

	if (!sizing_mul(l->tp, l->cp, &s->dense_mesh) ||
	    !sizing_mul(l->ep, l->etp, &s->expert_mesh))
		return overflow;
	s->mesh_max = s->dense_mesh > s->expert_mesh ? s->dense_mesh :
	    s->expert_mesh;
	if (!sizing_min_gpus(l, &s->mesh_lcm, &s->min_gpus) ||
	    !sizing_mul(l->pp, s->dense_mesh, &t) ||
	    !sizing_mul(t, s->expert_mesh, &s->naive_product))
		return overflow;

	switch (in->world_from) {
	case WORLD_FROM_MULTIPLE:
		if (!sizing_mul(in->multiple, s->min_gpus, &s->world))
			return overflow;
		break;
	case WORLD_FROM_GPUS:
		s->world = in->gpus;
		break;
	case WORLD_FROM_NODES:
		if (!sizing_mul(in->nodes, g, &s->world))
			return overflow;
		break;
	}
	if (s->world > SIZE_LIMIT)
		return overflow;
	s->multiple = s->world % s->min_gpus == 0 ? s->world / s->min_gpus : 0;

	/* Both products divide min_gpus, so no overflow here. */
	dense_pp = l->pp * s->dense_mesh;
	expert_pp = l->pp * s->expert_mesh;
	s->dp = s->world % dense_pp == 0 ? s->world / dense_pp : 0;
	s->edp = s->world % expert_pp == 0 ? s->world / expert_pp : 0;

	s->nodes = s->world / g + (s->world % g != 0);
	s->tasks_per_node = s->world % s->nodes == 0 ? s->world / s->nodes : 0;
	s->nvlink_domain = in->nvlink_domain != 0 ? in->nvlink_domain : g;
	return NULL;
}

/*
 * A legal uneven split for L layers over PP stages of VPP chunks, as
 * Megatron-Core checks it (transformer_config.py): equal middle stages,
 * every stage's count divisible by VPP.  Of those, the one whose busiest
 * stage is lightest (the pipeline runs at its slowest stage's pace); on a
 * tie, the one with lighter end stages, which also carry the embedding
 * and the loss.
 */
bool
sizing_suggest_split(int64_t layers, int64_t pp, int64_t vpp, int64_t *first,
    int64_t *last)
{
	int64_t	 m, r, f, l, cost, best = 0;

	if (pp == 2) {
		/* No middle: two halves, each a multiple of VPP. */
		if (layers % vpp != 0 || layers < 2 * vpp)
			return false;
		*first = (layers / vpp + 1) / 2 * vpp;
		*last = layers - *first;
		return true;
	}
	if (pp < 2)
		return false;
	for (m = vpp; m <= layers / (pp - 2); m += vpp) {
		r = layers - (pp - 2) * m;
		if (r < 2 * vpp || r % vpp != 0)
			continue;
		f = (r / vpp + 1) / 2 * vpp;
		l = r - f;
		cost = m > f ? m : f;
		if (best == 0 || cost <= best) {
			best = cost;
			*first = f;
			*last = l;
		}
	}
	return best != 0;
}

static void
check_layer_split(const struct sizing_input *in, struct sizing *s)
{
	const struct layout	*l = &in->layout;
	int64_t			 layers = in->model.num_layers;
	int64_t			 f = in->first_stage_layers;
	int64_t			 la = in->last_stage_layers;
	int64_t			 e = in->account_embedding, lo = in->account_loss;
	int64_t			 stages, middle, sf, sl;
	bool			 uneven = f != 0 || la != 0;

	if (l->pp == 1 && l->vpp == 1 && !uneven)
		return;
	/* A hybrid pattern places its layers by its own rules
	 * (rules-hybrid.c). */
	if (in->model.hybrid_pattern != NULL)
		return;
	if (in->pipeline_layout) {
		sizing_add_skipped(s, "layers-divisibility", "the recipe's "
		    "own pipeline layout places the layers");
		return;
	}
	/* transformer_config.py:1929 / 2235. */
	if (uneven && (e || lo)) {
		sizing_add_finding(s, "pp-split-accounting", SEVERITY_ERROR,
		    "first or last stage layer counts cannot be combined with "
		    "counting the %s as a pipeline layer (Megatron-Core "
		    "refuses both): drop one", e && lo ? "embedding and the "
		    "loss" : e ? "embedding" : "loss");
		return;
	}
	if (uneven && l->pp == 1) {
		sizing_add_finding(s, "layers-divisibility", SEVERITY_ERROR,
		    "first and last pipeline-stage layer counts need PP > 1");
		return;
	}
	if (layers == 0) {
		sizing_add_skipped(s, "layers-divisibility",
		    "no layer count (--model or --num-layers)");
		return;
	}
	if (!uneven && (e || lo)) {
		/* The embedding and the loss count as layers of the first
		 * and last stage (transformer_config.py:2077-2103 /
		 * 2383-2409; transformer_block.py:150 / 156). */
		if ((layers + e + lo) % (l->pp * l->vpp) == 0) {
			s->split_known = l->pp > 1;
			s->split_middle = (layers + e + lo) / l->pp;
			s->split_first = s->split_middle - e;
			s->split_last = s->split_middle - lo;
			s->split_middle_stages = l->pp - 2;
			return;
		}
		sizing_add_finding(s, "layers-divisibility", SEVERITY_ERROR,
		    "%lld layers and the %s, counted as pipeline layers, make "
		    "%lld, which does not split evenly into PP·VPP = %lld "
		    "chunks", (long long)layers, e && lo ? "embedding and the "
		    "loss" : e ? "embedding" : "loss",
		    (long long)(layers + e + lo), (long long)(l->pp * l->vpp));
		return;
	}
	if (!uneven) {
		if (layers % (l->pp * l->vpp) == 0) {
			s->split_known = l->pp > 1;
			s->split_first = s->split_middle = s->split_last =
			    layers / l->pp;
			s->split_middle_stages = l->pp - 2;
			return;
		}
		if (sizing_suggest_split(layers, l->pp, l->vpp, &sf, &sl))
			sizing_add_finding(s, "layers-divisibility", SEVERITY_ERROR,
			    "%lld layers do not split evenly into PP·VPP = "
			    "%lld·%lld = %lld pipeline chunks; split unevenly "
			    "with --num-layers-in-first-pipeline-stage %lld "
			    "--num-layers-in-last-pipeline-stage %lld",
			    (long long)layers, (long long)l->pp,
			    (long long)l->vpp, (long long)(l->pp * l->vpp),
			    (long long)sf, (long long)sl);
		else
			sizing_add_finding(s, "layers-divisibility", SEVERITY_ERROR,
			    "%lld layers do not split evenly into PP·VPP = "
			    "%lld·%lld = %lld pipeline chunks%s",
			    (long long)layers, (long long)l->pp,
			    (long long)l->vpp, (long long)(l->pp * l->vpp),
			    l->vpp > 1 && layers % l->vpp != 0 ? ", nor "
			    "unevenly: with VPP every stage's count must be a "
			    "multiple of VPP" : "");
		return;
	}

	/* Uneven: first and/or last given, the middle stages equal. */
	stages = l->pp - (f != 0) - (la != 0);
	middle = layers - f - la;
	if (middle < 0 || (stages == 0 && middle != 0) ||
	    (stages > 0 && middle == 0)) {
		sizing_add_finding(s, "layers-divisibility", SEVERITY_ERROR,
		    "the stage layer counts given (%lld first, %lld last) "
		    "%s the model's %lld layers", (long long)f, (long long)la,
		    middle < 0 || (stages > 0 && middle == 0) ? "use up more "
		    "than" : "do not add up to", (long long)layers);
		return;
	}
	if (stages > 0 && middle % stages != 0) {
		sizing_add_finding(s, "layers-divisibility", SEVERITY_ERROR,
		    "%lld layers left for the %lld other stages do not split "
		    "evenly (%lld layers, %lld given to %s)", (long long)middle,
		    (long long)stages, (long long)layers,
		    (long long)(f + la), f != 0 && la != 0 ? "the first and "
		    "last stage" : f != 0 ? "the first stage" :
		    "the last stage");
		return;
	}
	if (l->vpp > 1 && (f % l->vpp != 0 || la % l->vpp != 0 ||
	    (stages > 0 && middle / stages % l->vpp != 0))) {
		sizing_add_finding(s, "layers-divisibility", SEVERITY_ERROR,
		    "with VPP %lld every stage's layer count must be divisible "
		    "by %lld (first %lld, middle %lld, last %lld)",
		    (long long)l->vpp, (long long)l->vpp, (long long)f,
		    (long long)(stages > 0 ? middle / stages : 0),
		    (long long)la);
		return;
	}
	s->split_known = true;
	s->split_middle_stages = stages;
	s->split_middle = stages > 0 ? middle / stages : 0;
	s->split_first = f != 0 ? f : s->split_middle;
	s->split_last = la != 0 ? la : s->split_middle;
	/* A stage given no count is a middle one; count it in the middle. */
	if (f == 0)
		s->split_middle_stages--;
	if (la == 0)
		s->split_middle_stages--;
}

static void
check_parallel_rules(const struct sizing_input *in, struct sizing *s)
{
	const struct layout	*l = &in->layout;
	const struct model	*m = &in->model;

	if (l->sp && l->tp == 1)
		sizing_add_finding(s, "sp-needs-tp", SEVERITY_ERROR,
		    "sequence parallel needs TP > 1, and TP is 1 "
		    "(Megatron would switch it off): raise --tp or drop --sp");

	if (l->cp > 1) {
		if (in->seq_length == 0)
			sizing_add_skipped(s, "cp-seq-divisibility",
			    "no sequence length (--seq-length)");
		else if (in->seq_length % (2 * l->cp) != 0)
			sizing_add_finding(s, "cp-seq-divisibility", SEVERITY_ERROR,
			    "sequence length %lld is not divisible by 2·CP = "
			    "%lld", (long long)in->seq_length,
			    (long long)(2 * l->cp));
	}

	/* ETP > 1 alone is accepted: a dense model has no expert tensors
	 * to split (parallel_state.py:881 only asks the world to divide). */
	if (l->ep > 1 && m->kind == MODEL_KIND_DENSE)
		sizing_add_finding(s, "ep-on-dense", SEVERITY_ERROR,
		    "EP %lld on %s%s%s: use EP 1", (long long)l->ep,
		    m->name != NULL ? "model '" : "a dense model (no experts)",
		    m->name != NULL ? m->name : "",
		    m->name != NULL ? "', which is dense (no experts)" : "");

	if (l->ep > 1 && m->kind != MODEL_KIND_DENSE) {
		if (m->num_experts == 0)
			sizing_add_skipped(s, "experts-divisibility",
			    "no expert count (--model or --num-experts)");
		else if (m->num_experts % l->ep != 0)
			sizing_add_finding(s, "experts-divisibility", SEVERITY_ERROR,
			    "%lld experts do not divide evenly over EP %lld",
			    (long long)m->num_experts, (long long)l->ep);
	}

	check_layer_split(in, s);

	if (l->vpp > 1 && l->pp == 1)
		sizing_add_finding(s, "vpp-needs-pp", SEVERITY_ERROR,
		    "virtual pipeline stages (VPP %lld) need PP > 1",
		    (long long)l->vpp);

	if (l->tp > 1) {
		if (m->num_attention_heads == 0)
			sizing_add_skipped(s, "heads-divisibility",
			    "no attention-head count (--model or "
			    "--num-attention-heads)");
		else if (m->num_attention_heads % l->tp != 0)
			sizing_add_finding(s, "heads-divisibility", SEVERITY_ERROR,
			    "%lld attention heads do not divide evenly over "
			    "TP %lld", (long long)m->num_attention_heads,
			    (long long)l->tp);
		else if (m->num_query_groups != 0 &&
		    m->num_query_groups % l->tp != 0 &&
		    l->tp % m->num_query_groups != 0)
			sizing_add_finding(s, "heads-divisibility", SEVERITY_ERROR,
			    "%lld query groups neither divide evenly over TP "
			    "%lld nor divide it", (long long)m->num_query_groups,
			    (long long)l->tp);
	}
}

static void
check_batch_rule(const struct sizing_input *in, struct sizing *s)
{
	int64_t	 per_step;

	if (in->global_batch == 0) {
		sizing_add_skipped(s, "batch-divisibility",
		    "no global batch size (--global-batch-size)");
		return;
	}
	if (s->dp == 0)
		return;		/* the world size is wrong already */
	if (!sizing_mul(in->micro_batch, s->dp, &per_step))
		per_step = INT64_MAX;
	if (in->global_batch % per_step != 0)
		sizing_add_finding(s, "batch-divisibility", SEVERITY_ERROR,
		    "global batch %lld is not a multiple of micro batch × DP "
		    "= %lld × %lld = %lld", (long long)in->global_batch,
		    (long long)in->micro_batch, (long long)s->dp,
		    (long long)per_step);
}

static void
check_world_rules(const struct sizing_input *in, struct sizing *s)
{
	int64_t	 g = in->gpus_per_node, below, above;
	char	 near[160];

	if (s->world % s->min_gpus != 0) {
		nearest_worlds(s->world, s->min_gpus, in->world_from ==
		    WORLD_FROM_NODES ? 1 : g, &below, &above);
		if (in->world_from == WORLD_FROM_NODES) {
			/* Suggest node counts, the unit the user chose. */
			int64_t	 step = s->min_gpus / sizing_gcd(s->min_gpus,
			    g);

			snprintf(near, sizeof near, "; use a multiple of %lld "
			    "node%s", (long long)step, step == 1 ? "" : "s");
		} else if (below != 0)
			snprintf(near, sizeof near, "; nearest: %lld or %lld",
			    (long long)below, (long long)above);
		else
			snprintf(near, sizeof near, "; nearest: %lld",
			    (long long)above);
		sizing_add_finding(s, "world-divisibility", SEVERITY_ERROR,
		    "world size %lld is not a multiple of the minimum %lld "
		    "GPUs%s", (long long)s->world, (long long)s->min_gpus,
		    near);
	}

	if (s->tasks_per_node == 0) {
		nearest_worlds(s->world, s->min_gpus, g, &below, &above);
		describe_nearest(near, sizeof near, below, above, g);
		sizing_add_finding(s, "uneven-nodes", SEVERITY_ERROR,
		    "%lld GPUs do not spread evenly over %lld nodes of %lld "
		    "GPUs%s", (long long)s->world, (long long)s->nodes,
		    (long long)g, near);
	}
}

/*
 * pp-bubble: the pipeline's fill and drain idle the GPUs for a share of
 * each step (sizing_bubble_share()).  Worth a warning only when that
 * share is large enough to act on: more micro-batches per step (a larger
 * global batch, a smaller micro-batch) or virtual stages shrink it.  PP
 * alone is no reason: with enough micro-batches the bubble is small.
 */
#define PP_BUBBLE_WARN	0.10

/* Can the layers be split over more virtual stages than the layout's
 * (evenly, or as plan would suggest)?  Unknown layers: say it can. */
static bool
more_vpp_possible(const struct sizing_input *in)
{
	int64_t	 L = in->model.num_layers, pp = in->layout.pp, v, f, l;

	if (L == 0)
		return true;
	for (v = in->layout.vpp + 1; v <= L / pp; v++)
		if (L % (pp * v) == 0 ||
		    sizing_suggest_split(L, pp, v, &f, &l))
			return true;
	return false;
}

static void
check_bubble(const struct sizing_input *in, struct sizing *s)
{
	const struct layout	*l = &in->layout;
	int64_t			 m;
	double			 share;

	if (l->pp == 1)
		return;
	if (in->smoke) {
		sizing_add_skipped(s, "pp-bubble", "a smoke job: its batch "
		    "checks the layout, not the speed");
		return;
	}
	if (in->global_batch == 0) {
		sizing_add_skipped(s, "pp-bubble",
		    "no global batch size (--global-batch-size)");
		return;
	}
	if ((m = sizing_microbatches(in, s)) == 0)
		return;		/* batch-divisibility says why */
	share = sizing_bubble_share(l->pp, l->vpp, m);
	if (share <= PP_BUBBLE_WARN)
		return;
	sizing_add_finding(s, "pp-bubble", SEVERITY_WARNING,
	    "the pipeline idles %.1f%% of each step (PP %lld, VPP %lld, %lld "
	    "micro-batch%s: (PP-1) / (VPP·m + PP-1)): more micro-batches (a "
	    "larger --global-batch-size or a smaller --micro-batch-size)%s "
	    "shrink it", 100 * share, (long long)l->pp, (long long)l->vpp,
	    (long long)m, m == 1 ? "" : "es", more_vpp_possible(in) ?
	    " or more virtual stages (--vpp)" : "");
}

static void
check_overlap_and_topology(const struct sizing_input *in, struct sizing *s)
{
	const struct layout	*l = &in->layout;
	int64_t			 g = in->gpus_per_node;

	if (in->tp_comm_overlap == TRI_ON && !sizing_tp_overlap_runs(l))
		sizing_add_finding(s, "tp-overlap-disabled", SEVERITY_ERROR,
		    "TP comm overlap needs TP >= 2 and sequence parallel "
		    "(TP %lld, SP %s); Megatron would silently switch it off",
		    (long long)l->tp, l->sp ? "on" : "off");

	if (l->tp > 1 && s->tasks_per_node != 0 &&
	    tp_crosses_domain(s, l->tp, g)) {
		if (l->tp > s->nvlink_domain)
			sizing_add_finding(s, "tp-cross-node", SEVERITY_WARNING,
			    "TP %lld is larger than the NVLink domain of %lld "
			    "GPUs: TP traffic crosses the slower network",
			    (long long)l->tp, (long long)s->nvlink_domain);
		else
			sizing_add_finding(s, "tp-cross-node", SEVERITY_WARNING,
			    "TP groups of %lld cross NVLink domain boundaries "
			    "(%lld tasks per node, domain of %lld GPUs)",
			    (long long)l->tp, (long long)s->tasks_per_node,
			    (long long)s->nvlink_domain);
	}

	check_bubble(in, s);

	if (s->mesh_lcm != s->mesh_max)
		sizing_add_finding(s, "mesh-lcm", SEVERITY_WARNING,
		    "TP·CP = %lld and EP·ETP = %lld do not divide each other: "
		    "the minimum is PP·lcm(%lld, %lld) = %lld GPUs, not "
		    "PP·max = %lld", (long long)s->dense_mesh,
		    (long long)s->expert_mesh, (long long)s->dense_mesh,
		    (long long)s->expert_mesh, (long long)s->min_gpus,
		    (long long)(l->pp * s->mesh_max));
}

static void
check_sequence_rules(const struct sizing_input *in, struct sizing *s)
{
	const struct layout	*l = &in->layout;
	int64_t			 seq = in->seq_length;

	if (l->tp > 1 && !l->sp) {
		if (seq == 0)
			sizing_add_skipped(s, "seq-needs-sp",
			    "no sequence length (--seq-length)");
		else if (seq >= 2048)
			sizing_add_finding(s, "seq-needs-sp", SEVERITY_WARNING,
			    "sequence length %lld with TP %lld and sequence "
			    "parallel off: add --sp to cut activation memory",
			    (long long)seq, (long long)l->tp);
	}
	if (l->cp == 1) {
		if (seq == 0)
			sizing_add_skipped(s, "seq-needs-cp",
			    "no sequence length (--seq-length)");
		else if (seq >= 32768)
			sizing_add_finding(s, "seq-needs-cp", SEVERITY_WARNING,
			    "sequence length %lld without context parallel: "
			    "use CP 4 to 8", (long long)seq);
		else if (seq >= 8192)
			sizing_add_finding(s, "seq-needs-cp", SEVERITY_WARNING,
			    "sequence length %lld without context parallel: "
			    "use CP 2", (long long)seq);
	}
}

/*
 * memory-oom: the estimate of memory.h against the GPU's memory.  The
 * number of micro-batches in flight is known only with a global batch.
 */
static void
check_memory(const struct sizing_input *in, struct sizing *s)
{
	struct memory_input	 mi;

	memset(&mi, 0, sizeof mi);
	mi.model = in->model;
	mi.layout = in->layout;
	mi.dp = s->dp;
	mi.edp = s->edp;
	mi.seq_length = in->seq_length;
	mi.micro_batch = in->micro_batch;
	mi.num_microbatches = sizing_microbatches(in, s);
	mi.distributed_optimizer = in->distributed_optimizer;
	mi.fsdp = in->fsdp;
	mi.fsdp_outer = in->fsdp_outer;
	mi.recompute = in->recompute;
	mi.recompute_modules = in->recompute_modules;
	mi.offload_modules = in->offload_modules;
	mi.min_offloaded = in->min_offloaded;
	mi.method = in->memory_method;
	mi.params_dtype = in->params_dtype;
	mi.grads_dtype = in->grads_dtype;
	mi.optimizer_dtype = in->optimizer_dtype;
	mi.fp8_params = in->fp8_params;
	mi.fp8 = in->fp8;
	mi.moe_a2a_overlap = in->moe_a2a_overlap;
	mi.lora = in->lora;
	if (s->dp == 0)
		s->memory_reason = "the world size is not a whole multiple "
		    "of the minimum";
	else if (in->memory_unsized != NULL)
		s->memory_reason = in->memory_unsized;
	else
		s->memory_reason = memory_estimate(&mi, &s->memory);
	s->has_memory = s->memory_reason == NULL;
	if (!s->has_memory) {
		sizing_add_skipped(s, "memory-oom", s->memory_reason);
		return;
	}
	if (in->gpu_gib <= 0) {
		sizing_add_skipped(s, "memory-oom", "no GPU memory (--gpu-memory or "
		    "--gpu-type)");
		return;
	}
	s->memory_oom = s->memory.total_gib > in->gpu_gib;
	if (s->memory_oom)
		sizing_add_finding(s, "memory-oom", SEVERITY_WARNING,
		    "estimated %.1f GiB per GPU exceeds the GPU's %.1f GiB: "
		    "raise TP, PP%s or the distributed optimizer's DP, or "
		    "recompute activations", s->memory.total_gib, in->gpu_gib,
		    s->moe ? ", EP" : "");
}

const char *
sizing_compute(const struct sizing_input *in, struct sizing *out)
{
	const char	*reason;

	/* The figures cleared, the findings emptied: each finding is
	 * written whole when added, and clearing the 16 KiB of their
	 * messages was a third of plan --search's time. */
	memset(out, 0, offsetof(struct sizing, findings));
	out->nfindings = out->nerrors = out->ninfos = out->nskipped = 0;
	out->codes_only = in->codes_only;
	if ((reason = check_input(in)) != NULL)
		return reason;
	if ((reason = compute_figures(in, out)) != NULL)
		return reason;
	out->moe = in->layout.ep > 1 || in->model.kind == MODEL_KIND_MOE;

	check_parallel_rules(in, out);
	check_batch_rule(in, out);
	check_world_rules(in, out);
	check_overlap_and_topology(in, out);
	check_sequence_rules(in, out);
	check_memory(in, out);
	return NULL;
}
