/*
 * report-estimate.c: the step-time estimate of one layout as plan, plan
 * --search and recommend show it: the object "estimate" of their JSON,
 * its line of text, and the sentences of the terms that make the step.
 * One builder for every command, so that their numbers and keys agree.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "number.h"
#include "report.h"
#include "settings.h"

/* How far to trust the numbers, in a sentence; plan(1) ESTIMATE says
 * more, docs/cost-model.md has the fit. */
static const char accuracy[] = "a model calibrated against NVIDIA's "
    "published Megatron-Bridge runs; how far to trust it: "
    "mbsbatch-plan(1), ESTIMATE";

static const char *const interconnect_words[] = {
	[INTERCONNECT_IB] = "ib", [INTERCONNECT_NVLINK] = "nvlink",
	[INTERCONNECT_ETHERNET] = "ethernet",
};

const char *
report_estimate_precision(const struct report_estimate *e)
{
	if (e->in->fp8 == FP8_NVFP4)
		return "fp4";
	if (e->in->fp8 != FP8_NO)
		return "fp8";
	return e->in->params_dtype != PRECISION_DEFAULT ?
	    settings_word(SET_PARAMS_DTYPE, e->in->params_dtype) : "bf16";
}

const char *
report_estimate_fp8_recipe(const struct report_estimate *e)
{
	return e->in->fp8 != FP8_NO ? settings_word(SET_FP8, e->in->fp8) :
	    NULL;
}

const char *
report_estimate_interconnect(const struct report_estimate *e)
{
	return interconnect_words[e->interconnect];
}

/*
 * The term in seconds of the step as shown: the model's terms add up to
 * the step before the site factor; the factor scales the step, and with
 * it each term, so that the terms shown add up to step_seconds.
 */
double
report_estimate_seconds(const struct report_estimate *e, int k)
{
	const struct cost	*c = e->cost;
	double	 sum = 0;
	int	 i;

	for (i = 0; i < COST_NTERMS; i++)
		sum += c->term[i];
	return sum > 0 ? c->term[k] * c->step_s / sum : 0;
}

static json_t *
estimate_json(const struct report_estimate *e)
{
	const struct cost	*c = e->cost;
	json_t			*o, *t;
	int			 k;

	o = json_object();
	json_object_set_new(o, "step_seconds", json_real(c->step_s));
	json_object_set_new(o, "tokens_per_second",
	    json_real(c->tokens_per_s));
	json_object_set_new(o, "tokens_per_second_per_gpu",
	    json_real(c->tokens_per_s / (double)e->world));
	json_object_set_new(o, "tflops_per_gpu", json_real(c->tflops_per_gpu));
	json_object_set_new(o, "mfu", json_real(c->mfu));
	t = json_object();
	for (k = 0; k < COST_NTERMS; k++)
		json_object_set_new(t, cost_term_names[k],
		    json_real(report_estimate_seconds(e, k)));
	json_object_set_new(o, "seconds", t);
	json_object_set_new(o, "flops_per_token",
	    json_real(c->flops_per_token));
	json_object_set_new(o, "world_size", json_integer(e->world));
	json_object_set_new(o, "microbatches", json_integer(c->microbatches));
	json_object_set_new(o, "microbatches_assumed",
	    json_boolean(c->microbatches_assumed));
	json_object_set_new(o, "gpu_type", json_string(e->gpu != NULL ?
	    e->gpu->name : "h100"));
	json_object_set_new(o, "gpu_type_assumed", json_boolean(e->gpu ==
	    NULL));
	json_object_set_new(o, "precision",
	    json_string(report_estimate_precision(e)));
	json_object_set_new(o, "fp8_recipe", report_estimate_fp8_recipe(e) !=
	    NULL ? json_string(report_estimate_fp8_recipe(e)) : json_null());
	json_object_set_new(o, "interconnect",
	    json_string(report_estimate_interconnect(e)));
	json_object_set_new(o, "site_factor", json_real(e->hw->site_factor));
	json_object_set_new(o, "accuracy", json_string(accuracy));
	return o;
}

void
report_estimate_json(json_t *o, const struct report_estimate *e)
{
	if (e->reason != NULL) {
		json_object_set_new(o, "estimate", json_null());
		json_object_set_new(o, "estimate_reason",
		    json_string(e->reason));
		return;
	}
	json_object_set_new(o, "estimate", estimate_json(e));
	json_object_set_new(o, "estimate_reason", json_null());
}

void
report_estimate_line(const struct report_estimate *e, char *buf, size_t len)
{
	const struct cost	*c = e->cost;
	const char		*fp8 = report_estimate_fp8_recipe(e);
	char			 tok[16], per[16];
	int			 n;

	if (e->reason != NULL) {
		snprintf(buf, len, "none: %s", e->reason);
		return;
	}
	number_format_approx((int64_t)(c->tokens_per_s + 0.5), tok,
	    sizeof tok);
	number_format_approx((int64_t)(c->tokens_per_s / (double)e->world +
	    0.5), per, sizeof per);
	n = snprintf(buf, len, "%.2f s/step, %s tokens/s (%s/GPU), %.0f "
	    "TFLOP/s/GPU, MFU %.0f%% on %s%s (%s%s%s)", c->step_s, tok, per,
	    c->tflops_per_gpu, 100 * c->mfu, e->gpu != NULL ? e->gpu->name :
	    "h100", e->gpu != NULL ? "" : " (assumed: no --gpu-type)",
	    report_estimate_precision(e), fp8 != NULL ? " " : "",
	    fp8 != NULL ? fp8 : "");
	if (n > 0 && (size_t)n < len && e->hw->site_factor != 1)
		snprintf(buf + n, len - (size_t)n, ", site factor %.2f",
		    e->hw->site_factor);
}

const char *
report_estimate_accuracy(void)
{
	return accuracy;
}

/* A size for the term's sentence: "EP 8", "PP 16", "DP 128". */
static int64_t
term_size(const struct layout *l, int64_t dp, enum cost_term t)
{
	switch (t) {
	case COST_TP:
		return l->tp;
	case COST_CP:
		return l->cp;
	case COST_EP:
		return l->ep;
	case COST_ETP:
		return l->etp;
	case COST_PP:
		return l->pp;
	case COST_DP:
		return dp;
	default:
		return 0;
	}
}

/* What a communication term moves, in a few words. */
static const char *
term_what(enum cost_term t)
{
	switch (t) {
	case COST_EP:
		return "all-to-all";
	case COST_PP:
		return "sends";
	case COST_DP:
		return "gradients and weights";
	case COST_CP:
		return "K/V ring";
	default:
		return "gathers and scatters";
	}
}

int
report_estimate_terms(const struct report_estimate *e, int64_t dp,
    char lines[][REPORT_LINE_MAX], int max)
{
	const struct cost	*c = e->cost;
	const struct layout	*l = &e->in->layout;
	bool			 done[COST_NTERMS] = { false };
	int			 k, i, best, n = 0;
	double			 share;
	char			 name[16];
	size_t			 j;

	/* Compute is the step's own work; the rest, largest first. */
	done[COST_COMPUTE] = true;
	for (k = 0; k < COST_NTERMS && n < max; k++) {
		best = -1;
		for (i = 0; i < COST_NTERMS; i++)
			if (!done[i] && (best < 0 || c->term[i] >
			    c->term[best]))
				best = i;
		if (best < 0 || c->step_s <= 0)
			break;
		share = 100 * report_estimate_seconds(e, best) / c->step_s;
		if (share < 1)
			break;
		done[best] = true;
		if (best == COST_BUBBLE) {
			snprintf(lines[n++], REPORT_LINE_MAX, "pipeline bubble "
			    "%.1f%% of the step: PP %" PRId64 ", VPP %" PRId64
			    ", %" PRId64 " micro-batches%s", share, l->pp,
			    l->vpp, c->microbatches, c->microbatches_assumed ?
			    " (assumed: no global batch size)" : "");
			continue;
		}
		if (term_size(l, dp, best) == 0) {
			snprintf(lines[n++], REPORT_LINE_MAX, "%s: %.1f%% of "
			    "the step", cost_term_names[best], share);
			continue;
		}
		for (j = 0; j < sizeof name - 1 && cost_term_names[best][j];
		    j++)
			name[j] = (char)toupper((unsigned char)
			    cost_term_names[best][j]);
		name[j] = '\0';
		snprintf(lines[n++], REPORT_LINE_MAX, "%s %" PRId64 " %s %s: "
		    "%.1f%% of the step", name, term_size(l, dp, best),
		    term_what(best), c->crosses[best] ? "across the network" :
		    "inside the NVLink domain", share);
	}
	return n;
}

void
report_estimate_of_plan(struct report_estimate *e, const struct plan *p)
{
	const struct job_figures	*fig = p->fig;

	e->in = p->in;
	e->world = fig->sizing.world;
	e->gpu = p->gpu;
	e->interconnect = p->interconnect;
	e->hw = &fig->hw;
	e->cost = &fig->cost;
	e->reason = fig->cost_reason;
}
