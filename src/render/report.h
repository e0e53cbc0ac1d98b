/*
 * report.h: what plan shows of a sized job, as the JSON object of docs/SPEC.md
 * section 3 (also the data templates will render from, so the two can
 * never disagree) and as text with the derivation of every figure.
 */
#ifndef MBSBATCH_REPORT_H
#define MBSBATCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "buf.h"
#include "cost.h"
#include "job.h"
#include "plan.h"
#include "search.h"
#include "sizing.h"

/* The plan object; a new reference. */
json_t	*report_json(const struct plan *);

/* The human view: figures with their derivation, the launch environment
 * with the origin of each value, findings, skipped rules; with VERBOSE,
 * where each setting came from. */
void	 report_text(FILE *, const struct plan *, int, bool);

/* Only the figures with their derivation (for script headers), as
 * lines added to L. */
void	 report_figures(struct lines *, const struct plan *);

/* A model's architecture as JSON, unknown fields null; new reference. */
json_t	*report_model_json(const struct model *);

/* The Megatron-Bridge target: version, recipe, the recipe values the job
 * replaces and those it clears (report-bridge.c); JSON a new reference. */
json_t	*report_bridge_json(const struct plan *);
void	 report_bridge_text(struct lines *, const struct plan *);

/* One line per finding ("error  sp-needs-tp  ..."), for -q. */
void	 report_findings(FILE *, const struct sizing *);

/* The longest line of text a report function writes into a buffer. */
#define REPORT_LINE_MAX	512

/* One layout's step-time estimate and what it assumed (report-estimate.c):
 * plan's job, a search result or recommend's layout. */
struct report_estimate {
	const struct sizing_input *in;	/* the layout, precision */
	int64_t			 world;	/* GPUs */
	const struct gpu_type	*gpu;	/* NULL: an h100 assumed */
	enum interconnect	 interconnect;
	const struct cost_hw	*hw;
	const struct cost	*cost;	/* when REASON is NULL */
	const char		*reason; /* NULL, or why there is none */
};

/* The estimate of the plan's job, as job_figure() made it. */
void	 report_estimate_of_plan(struct report_estimate *,
	    const struct plan *);

/* Set O's "estimate" (the object of mbsbatch-plan(1), or null) and
 * "estimate_reason" (null, or why there is no estimate). */
void	 report_estimate_json(json_t *, const struct report_estimate *);

/* The estimate in one line: "1.23 s/step, 26.6K tokens/s (416/GPU), 512
 * TFLOP/s/GPU, MFU 52% on h100 (bf16)", or "none: REASON". */
void	 report_estimate_line(const struct report_estimate *, char *, size_t);

/* Term K's seconds as shown: the site factor scales each term with the
 * step, so that the terms add up to the step. */
double	 report_estimate_seconds(const struct report_estimate *, int);

/* The sentences of the terms beyond compute that take at least 1% of the
 * step, largest first, at most MAX of them; DP sizes the DP term's.
 * Returns how many.  The estimate must have no reason. */
int	 report_estimate_terms(const struct report_estimate *, int64_t,
	    char [][REPORT_LINE_MAX], int);

/* What the estimate assumed, static words: the GEMMs' precision ("bf16",
 * "fp16", "fp8"), the FP8 recipe ("tensorwise", ...; NULL without FP8),
 * the interconnect between nodes ("ib", "nvlink", "ethernet"). */
const char *report_estimate_precision(const struct report_estimate *);
const char *report_estimate_fp8_recipe(const struct report_estimate *);
const char *report_estimate_interconnect(const struct report_estimate *);

/* How far to trust the estimate, a static sentence. */
const char *report_estimate_accuracy(void);

/* plan --search: the layouts found, best first, with their reasons. */
void	 report_search_text(FILE *, const struct plan *,
	    const struct search_input *, const struct search_result *, int,
	    const struct search_stats *);
json_t	*report_search_json(const struct plan *, const struct search_input *,
	    const struct search_result *, int, const struct search_stats *);

/* The options that give a search result to plan: "--gpus N --tp ...". */
/* The options that make plan or gen size search result R (its "plan
 * it" line); the world as --nodes when GPN (the GPUs per node) is not
 * 0, for a search given --nodes, which --gpus would contradict. */
void	 report_search_args(const struct search_result *, int64_t, char *,
	    size_t);

/* Does the layout fail: an error, or a warning under strict? */
bool	 report_failed(const struct sizing *, bool);

#endif
