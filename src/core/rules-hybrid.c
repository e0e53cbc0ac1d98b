/*
 * rules-hybrid.c: the rules Megatron applies to a hybrid model (hybrid.h)
 * and its layout; see rules.h.  Line numbers are Megatron-LM
 * core_v0.19.0's, then main d98e8a64's where they differ; Megatron-Bridge
 * builds the same HybridModel from megatron-core (its HybridModelProvider
 * only derives num_layers from the pattern: 0.6.0 models/hybrid/
 * hybrid_provider.py:233-249).
 */
#include "hybrid.h"
#include "rules.h"

/*
 * The pipeline split of the pattern, select_pipeline_segment()
 * (megatron/core/models/hybrid/hybrid_layer_allocation.py, both
 * revisions):
 * - with '|' separators, rank r of PP builds segments r + v PP for each
 *   virtual stage v (:467), so the segments must be PP x VPP: :459-464
 *   refuses segments PP does not divide, :469-475 a segment index out of
 *   range, and with fewer VPP stages a segment would silently go
 *   missing; Megatron-LM derives VPP as segments / PP itself (arguments.py
 *   :819-831 / :845-857) and refuses first/last stage layer counts with
 *   pipes (:777-788 / :803-814; the core again at :377-383);
 * - without separators, no VPP (:386-392) and an even split of the
 *   layers over PP (:436-441), or the middle stages' share of what
 *   first and last leave (:413-417);
 * - Megatron-LM refuses counting the embedding or the loss as pipeline
 *   layers with a pattern (arguments.py:802-811 / :828-837).
 */
static void
pipeline(const struct rules_input *ri, const struct hybrid_counts *c,
    struct sizing *s)
{
	const struct sizing_input	*in = ri->in;
	const struct layout		*l = &in->layout;
	const char			*pat = in->model.hybrid_pattern;
	struct hybrid_counts		 st;
	bool				 uneven = in->first_stage_layers != 0 ||
	    in->last_stage_layers != 0;

	if (ri->megatron_lm && (in->account_embedding || in->account_loss))
		sizing_add_finding(s, "hybrid-pipeline-accounting",
		    SEVERITY_ERROR, "Megatron-LM refuses counting the %s as "
		    "a pipeline layer with a hybrid layer pattern: its "
		    "'|' separators place the layers", in->account_embedding ?
		    "embedding" : "loss");
	if (c->segments > 1) {
		if (uneven)
			sizing_add_finding(s, "hybrid-pipes-uneven",
			    SEVERITY_ERROR, "first or last stage layer counts "
			    "cannot be given with a hybrid layer pattern that "
			    "has '|' separators (they place the layers)");
		if (c->segments != l->pp * l->vpp)
			sizing_add_finding(s, "hybrid-pipe-segments",
			    SEVERITY_ERROR, "the hybrid layer pattern has %lld "
			    "pipeline segments, not PP x VPP = %lld x %lld: "
			    "each virtual stage of each rank builds one "
			    "segment", (long long)c->segments,
			    (long long)l->pp, (long long)l->vpp);
		return;
	}
	if (l->pp > 1 && l->vpp > 1)
		sizing_add_finding(s, "hybrid-vpp-needs-pipes", SEVERITY_ERROR,
		    "VPP %lld with a hybrid layer pattern needs its stages "
		    "marked with '|' (PP x VPP = %lld segments)",
		    (long long)l->vpp, (long long)(l->pp * l->vpp));
	if (l->pp > 1 && hybrid_stage(pat, l->pp, 0, in->first_stage_layers,
	    in->last_stage_layers, &st) != NULL)
		sizing_add_finding(s, "hybrid-pp-split", SEVERITY_ERROR,
		    "the hybrid layer pattern's %lld layers do not split "
		    "over PP %lld%s: give %sfirst and last stage layer "
		    "counts, or mark the stages with '|'",
		    (long long)c->layers, (long long)l->pp, uneven ?
		    " with those first and last stage counts" : " evenly",
		    uneven ? "other " : "");
}

/*
 * The Mamba mixer over TP and CP: megatron/core/ssm/mamba_mixer.py
 * :260 / :262 each TP rank gets whole heads, :268 / :270 whole groups;
 * with FP8, in_proj's output width a multiple of 16 (:252-255 /
 * :254-257); mamba_context_parallel.py:106-108 each CP rank whole
 * heads of the TP rank's, :119-129 groups the CP ranks divide or that
 * divide them.
 */
static void
mamba(const struct rules_input *ri, struct sizing *s)
{
	const struct model	*m = &ri->in->model;
	const struct layout	*l = &ri->in->layout;
	int64_t			 heads = hybrid_mamba_heads(m);
	int64_t			 g = m->mamba_num_groups, width;

	if (heads % l->tp != 0)
		sizing_add_finding(s, "mamba-tp-heads", SEVERITY_ERROR,
		    "TP %lld does not divide the %lld Mamba heads",
		    (long long)l->tp, (long long)heads);
	else if (l->cp > 1 && heads / l->tp % l->cp != 0)
		sizing_add_finding(s, "mamba-cp-heads", SEVERITY_ERROR,
		    "CP %lld does not divide the %lld Mamba heads of each "
		    "TP rank", (long long)l->cp, (long long)(heads / l->tp));
	if (g % l->tp != 0)
		sizing_add_finding(s, "mamba-tp-groups", SEVERITY_ERROR,
		    "TP %lld does not divide the %lld Mamba groups",
		    (long long)l->tp, (long long)g);
	else if (l->cp > 1 && (g / l->tp < l->cp ? l->cp % (g / l->tp) :
	    g / l->tp % l->cp) != 0)
		sizing_add_finding(s, "mamba-cp-groups", SEVERITY_ERROR,
		    "CP %lld and the %lld Mamba groups of each TP rank do not "
		    "divide one another", (long long)l->cp,
		    (long long)(g / l->tp));
	width = 2 * hybrid_mamba_inner(m) + 2 * g * m->mamba_state_dim + heads;
	if (ri->fp8 && width % 16 != 0)
		sizing_add_finding(s, "mamba-fp8-width", SEVERITY_ERROR,
		    "FP8 needs the Mamba input projection's width, %lld, to "
		    "be a multiple of 16", (long long)width);
}

void
rules_hybrid(const struct rules_input *ri, struct sizing *s)
{
	struct hybrid_counts	 c;

	if (ri->in->model.hybrid_pattern == NULL ||
	    hybrid_parse(ri->in->model.hybrid_pattern, &c) != NULL)
		return;
	pipeline(ri, &c, s);
	if (c.mamba > 0)
		mamba(ri, s);
}
