/*
 * report-search.c: what plan --search shows: the layouts found, best
 * first, each with the terms of its estimated step and the options that
 * give it to plan, gen or submit.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "calibration.h"
#include "number.h"
#include "report.h"

/* The options that make plan size this layout: "--tp 4 --pp 16 ...". */
void
report_search_args(const struct search_result *r, int64_t gpn, char *buf,
    size_t len)
{
	const struct layout	*l = &r->in.layout;
	int			 n;

	n = snprintf(buf, len, "--%s %" PRId64 " --tp %" PRId64 " --pp %"
	    PRId64 " --vpp %" PRId64 " --cp %" PRId64, gpn != 0 ? "nodes" :
	    "gpus", gpn != 0 ? r->in.gpus / gpn : r->in.gpus, l->tp, l->pp,
	    l->vpp, l->cp);
	if (n > 0 && (size_t)n < len && r->in.model.kind != MODEL_KIND_DENSE)
		n += snprintf(buf + n, len - (size_t)n, " --ep %" PRId64
		    " --etp %" PRId64, l->ep, l->etp);
	if (n > 0 && (size_t)n < len && l->sp)
		n += snprintf(buf + n, len - (size_t)n, " --sp");
	if (n > 0 && (size_t)n < len && (r->in.first_stage_layers != 0 ||
	    r->in.last_stage_layers != 0))
		n += snprintf(buf + n, len - (size_t)n,
		    " --num-layers-in-first-pipeline-stage %" PRId64
		    " --num-layers-in-last-pipeline-stage %" PRId64,
		    r->in.first_stage_layers, r->in.last_stage_layers);
	if (n > 0 && (size_t)n < len && (r->in.account_embedding ||
	    r->drop_account_embedding))
		n += snprintf(buf + n, len - (size_t)n,
		    " --%saccount-for-embedding-in-pipeline-split",
		    r->in.account_embedding ? "" : "no-");
	if (n > 0 && (size_t)n < len && (r->in.account_loss ||
	    r->drop_account_loss))
		n += snprintf(buf + n, len - (size_t)n,
		    " --%saccount-for-loss-in-pipeline-split",
		    r->in.account_loss ? "" : "no-");
	if (n > 0 && (size_t)n < len && r->in.fsdp != FSDP_OFF)
		n += snprintf(buf + n, len - (size_t)n,
		    " --fsdp --fsdp-sharding %s", settings_word(
		    SET_FSDP_SHARDING, r->in.fsdp));
	if (n > 0 && (size_t)n < len && r->chose_micro_batch)
		n += snprintf(buf + n, len - (size_t)n,
		    " --micro-batch-size %" PRId64, r->in.micro_batch);
	if (n > 0 && (size_t)n < len && r->chose_recompute)
		snprintf(buf + n, len - (size_t)n, " --recompute %s",
		    r->in.recompute == RECOMPUTE_NONE ? "none" :
		    r->in.recompute == RECOMPUTE_FULL ? "full" : "selective");
}

/* The estimate of search result R. */
static void
result_estimate(struct report_estimate *e, const struct plan *p,
    const struct search_input *si, const struct search_result *r)
{
	e->in = &r->in;
	e->world = r->in.gpus;
	e->gpu = p->gpu;
	e->interconnect = p->interconnect;
	e->hw = &si->hw;
	e->cost = &r->cost;
	e->reason = NULL;
}

/*
 * The reasons of a result: what its step is made of beyond compute, the
 * largest first, each at least 1% of the step; its memory; its split.
 */
static void
reasons(const struct plan *p, const struct search_result *r,
    const struct search_input *si, char lines[][REPORT_LINE_MAX], int *n)
{
	const struct cost	*c = &r->cost;
	struct report_estimate	 e;
	char			 as[16];

	result_estimate(&e, p, si, r);
	*n = report_estimate_terms(&e, r->dp, lines, COST_NTERMS);
	/* The rank key, when it is not the speed shown: a layout that
	 * leaves less memory free ranks as a slower one, which may still be
	 * the first (not "ranked lower": it may be above every other). */
	if (si->base.gpu_gib > 0 && c->score < c->tokens_per_s) {
		number_format_approx((int64_t)c->score, as, sizeof as);
		snprintf(lines[(*n)++], REPORT_LINE_MAX, "memory %.1f of %.1f "
		    "GiB (%.1f%% free): under %.0f%% free, ranked as if %s "
		    "tokens/s", r->memory_gib, si->base.gpu_gib,
		    100 * (1 - c->memory_share), 100 * COST_FREE_WANTED, as);
	} else if (si->base.gpu_gib > 0)
		snprintf(lines[(*n)++], REPORT_LINE_MAX, "memory %.1f of %.1f "
		    "GiB (%.1f%% free)", r->memory_gib, si->base.gpu_gib,
		    100 * (1 - c->memory_share));
	else
		snprintf(lines[(*n)++], REPORT_LINE_MAX, "memory %.1f GiB (no "
		    "GPU memory to check against)", r->memory_gib);
	if (r->in.first_stage_layers != 0 || r->in.last_stage_layers != 0)
		snprintf(lines[(*n)++], REPORT_LINE_MAX, "layers split "
		    "%" PRId64 " + %" PRId64 " x %" PRId64 " + %" PRId64
		    " over PP %" PRId64, r->in.first_stage_layers,
		    r->in.layout.pp - 2, (r->in.model.num_layers -
		    r->in.first_stage_layers - r->in.last_stage_layers) /
		    (r->in.layout.pp > 2 ? r->in.layout.pp - 2 : 1),
		    r->in.last_stage_layers, r->in.layout.pp);
}

static void
header_text(FILE *f, const struct plan *p, const struct search_input *si,
    const struct search_stats *st, int n)
{
	const struct model	*m = &si->base.model;
	char			 gpus[32];
	int			 i;

	fprintf(f, "search: %s%s%s, sequence %" PRId64 ", on ",
	    m->name != NULL ? "model '" : "the model",
	    m->name != NULL ? m->name : "", m->name != NULL ? "'" : "",
	    si->base.seq_length);
	for (i = 0; i < st->nworlds; i++)
		fprintf(f, "%s%" PRId64, i == 0 ? "" : i == st->nworlds - 1 ?
		    " or " : ", ", st->worlds[i]);
	fprintf(f, " GPUs, %" PRId64 " per node, NVLink domain %" PRId64 "\n",
	    si->base.gpus_per_node, si->base.nvlink_domain != 0 ?
	    si->base.nvlink_domain : si->base.gpus_per_node);
	fprintf(f, "GPU: %s, %.0f TFLOP/s, NVLink %.0f GB/s, network %.0f "
	    "GB/s%s\n", p->gpu != NULL ? p->gpu->name :
	    "h100 (assumed: no --gpu-type)", si->hw.tflops, si->hw.nvlink_gbs,
	    si->hw.net_gbs, si->hw.nvlink_everywhere ? " (NVLink spans the "
	    "job)" : "");
	calibration_print_of(f, "", &p->calibration);
	snprintf(gpus, sizeof gpus, "%.1f GiB", si->base.gpu_gib);
	fprintf(f, "%" PRId64 " layouts%s: %" PRId64 " pass every rule, ",
	    st->candidates, st->stopped ? " (stopped at the search budget)" :
	    "", st->legal);
	if (n == 0) {
		fprintf(f, "none fits in %s\n", si->base.gpu_gib > 0 ? gpus :
		    "memory");
		return;
	}
	fprintf(f, "%" PRId64 " fit in %s; the best %d, ranked by estimated "
	    "tokens per second:\n", st->fit, si->base.gpu_gib > 0 ? gpus :
	    "memory (not checked)", n);
}

void
report_search_text(FILE *f, const struct plan *p,
    const struct search_input *si, const struct search_result *r, int n,
    const struct search_stats *st)
{
	char	 lines[COST_NTERMS + 2][REPORT_LINE_MAX], args[REPORT_LINE_MAX];
	struct report_estimate e;
	int	 i, k, nl;
	bool	 moe = si->base.model.kind != MODEL_KIND_DENSE;

	header_text(f, p, si, st, n);
	for (i = 0; i < n; i++) {
		fprintf(f, "\n%2d. TP %" PRId64 ", PP %" PRId64 ", VPP %" PRId64
		    ", CP %" PRId64, i + 1, r[i].in.layout.tp,
		    r[i].in.layout.pp, r[i].in.layout.vpp, r[i].in.layout.cp);
		if (moe)
			fprintf(f, ", EP %" PRId64 ", ETP %" PRId64,
			    r[i].in.layout.ep, r[i].in.layout.etp);
		if (r[i].in.fsdp != FSDP_OFF)
			fprintf(f, ", FSDP %s", settings_word(
			    SET_FSDP_SHARDING, r[i].in.fsdp));
		fprintf(f, ", SP %s: %" PRId64 " GPUs (%" PRId64 " node%s), "
		    "DP %" PRId64, r[i].in.layout.sp ? "on" : "off",
		    r[i].in.gpus, r[i].nodes, r[i].nodes == 1 ? "" : "s",
		    r[i].dp);
		if (moe)
			fprintf(f, ", EDP %" PRId64, r[i].edp);
		fputc('\n', f);
		result_estimate(&e, p, si, &r[i]);
		report_estimate_line(&e, args, sizeof args);
		fprintf(f, "    estimate %s\n", args);
		reasons(p, &r[i], si, lines, &nl);
		for (k = 0; k < nl; k++)
			fprintf(f, "    %s\n", lines[k]);
		report_search_args(&r[i], si->base.world_from == WORLD_FROM_NODES ?
		    si->base.gpus_per_node : 0, args, sizeof args);
		fprintf(f, "    plan it: %s\n", args);
	}
}

json_t *
report_search_json(const struct plan *p, const struct search_input *si,
    const struct search_result *r, int n, const struct search_stats *st)
{
	char	 lines[COST_NTERMS + 2][REPORT_LINE_MAX], args[REPORT_LINE_MAX];
	struct report_estimate e;
	json_t	*o, *a, *w, *x, *rs, *l;
	int	 i, k, nl;

	o = json_object();
	json_object_set_new(o, "model", report_model_json(&si->base.model));
	json_object_set_new(o, "seq_length",
	    json_integer(si->base.seq_length));
	w = json_array();
	for (i = 0; i < st->nworlds; i++)
		json_array_append_new(w, json_integer(st->worlds[i]));
	json_object_set_new(o, "worlds", w);
	json_object_set_new(o, "gpu_type", p->gpu != NULL ?
	    json_string(p->gpu->name) : json_null());
	json_object_set_new(o, "gpu_gib", si->base.gpu_gib > 0 ?
	    json_real(si->base.gpu_gib) : json_null());
	json_object_set_new(o, "tflops", json_real(si->hw.tflops));
	json_object_set_new(o, "nvlink_gbs", json_real(si->hw.nvlink_gbs));
	json_object_set_new(o, "net_gbs", json_real(si->hw.net_gbs));
	json_object_set_new(o, "calibration", calibration_json_of(&p->calibration));
	json_object_set_new(o, "candidates", json_integer(st->candidates));
	json_object_set_new(o, "legal", json_integer(st->legal));
	json_object_set_new(o, "fit", json_integer(st->fit));
	json_object_set_new(o, "budget", json_integer(st->budget));
	json_object_set_new(o, "complete", json_boolean(!st->stopped));
	a = json_array();
	for (i = 0; i < n; i++) {
		x = json_object();
		l = json_object();
		json_object_set_new(l, "tp", json_integer(r[i].in.layout.tp));
		json_object_set_new(l, "pp", json_integer(r[i].in.layout.pp));
		json_object_set_new(l, "vpp",
		    json_integer(r[i].in.layout.vpp));
		json_object_set_new(l, "cp", json_integer(r[i].in.layout.cp));
		json_object_set_new(l, "ep", json_integer(r[i].in.layout.ep));
		json_object_set_new(l, "etp",
		    json_integer(r[i].in.layout.etp));
		json_object_set_new(l, "sp",
		    json_boolean(r[i].in.layout.sp));
		json_object_set_new(l, "fsdp", r[i].in.fsdp == FSDP_OFF ?
		    json_null() : json_string(settings_word(
		    SET_FSDP_SHARDING, r[i].in.fsdp)));
		json_object_set_new(l, "num_layers_in_first_pipeline_stage",
		    r[i].in.first_stage_layers != 0 ?
		    json_integer(r[i].in.first_stage_layers) : json_null());
		json_object_set_new(l, "num_layers_in_last_pipeline_stage",
		    r[i].in.last_stage_layers != 0 ?
		    json_integer(r[i].in.last_stage_layers) : json_null());
		json_object_set_new(x, "layout", l);
		json_object_set_new(x, "world_size",
		    json_integer(r[i].in.gpus));
		json_object_set_new(x, "nodes", json_integer(r[i].nodes));
		json_object_set_new(x, "dp", json_integer(r[i].dp));
		json_object_set_new(x, "edp", json_integer(r[i].edp));
		json_object_set_new(x, "memory_gib",
		    json_real(r[i].memory_gib));
		json_object_set_new(x, "score", json_real(r[i].cost.score));
		result_estimate(&e, p, si, &r[i]);
		report_estimate_json(x, &e);
		reasons(p, &r[i], si, lines, &nl);
		rs = json_array();
		for (k = 0; k < nl; k++)
			json_array_append_new(rs, json_string(lines[k]));
		json_object_set_new(x, "reasons", rs);
		report_search_args(&r[i], si->base.world_from == WORLD_FROM_NODES ?
		    si->base.gpus_per_node : 0, args, sizeof args);
		json_object_set_new(x, "plan_args", json_string(args));
		json_array_append_new(a, x);
	}
	json_object_set_new(o, "results", a);
	return o;
}
