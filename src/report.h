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
#include "job.h"
#include "search.h"
#include "sizing.h"

/* The plan object; a new reference. */
json_t	*report_json(const struct job *, const struct job_figures *);

/* The human view: figures with their derivation, the launch environment
 * with the origin of each value, findings, skipped rules; with VERBOSE,
 * where each setting came from. */
void	 report_text(FILE *, const struct job *, const struct job_figures *,
	    int, bool);

/* Only the figures with their derivation (for script headers), as
 * lines added to L. */
void	 report_figures(struct lines *, const struct job *,
	    const struct sizing *);

/* A model's architecture as JSON, unknown fields null; new reference. */
json_t	*report_model_json(const struct model *);

/* The Megatron-Bridge target: version, recipe, the recipe values the job
 * replaces and those it clears (report-bridge.c); JSON a new reference. */
json_t	*report_bridge_json(const struct job *);
void	 report_bridge_text(struct lines *, const struct job *);

/* One line per finding ("error  sp-needs-tp  ..."), for -q. */
void	 report_findings(FILE *, const struct sizing *);

/* plan --search: the layouts found, best first, with their reasons. */
void	 report_search_text(FILE *, const struct job *,
	    const struct search_input *, const struct search_result *, int,
	    const struct search_stats *);
json_t	*report_search_json(const struct job *, const struct search_input *,
	    const struct search_result *, int, const struct search_stats *);

/* The options that give a search result to plan: "--gpus N --tp ...". */
void	 report_search_args(const struct search_result *, char *, size_t);

/* Does the layout fail: an error, or a warning under strict? */
bool	 report_failed(const struct sizing *, bool);

#endif
