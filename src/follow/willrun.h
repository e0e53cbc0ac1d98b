/*
 * willrun.h: what submit --test-only shows of Slurm's will-run answer
 * (struct will_run, backend.h): a line of text, or a JSON object
 * (mbsbatch-submit(1) lists its keys).  Pure: NOW is the caller's.
 */
#ifndef MBSBATCH_WILLRUN_H
#define MBSBATCH_WILLRUN_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "backend.h"

/*
 * "Job would start at TIME (WHEN) using P processors on nodes X in
 * partition Y; nothing was queued", TIME local as Slurm prints it
 * (2026-12-07T11:43:40), WHEN "now" or "in 2 h 5 min" from NOW; then
 * "  would preempt: IDS" when it would.
 */
void		 will_run_print(FILE *, const struct will_run *, int64_t);

/*
 * {"test_only": true, "backend", "start_time" (ISO 8601, as status
 * --json), "starts_in" (seconds from NOW, 0 at the earliest), "nodes",
 * "partition", "processors", "preempts" (job ids), "warnings" (the
 * job_submit plugin's messages)}: a new reference.
 */
json_t		*will_run_json(const struct will_run *, const char *, int64_t);

#endif
