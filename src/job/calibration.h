/*
 * calibration.h: a job's site factor, the one mbsbatch calibrate stored
 * in its cluster profile (keys site_factor, site_factor_logs,
 * site_factor_date: mbsbatch.conf(5)), as the cost model takes it and as
 * plan, plan --search, recommend and check-log say they used it.
 */
#ifndef MBSBATCH_CALIBRATION_H
#define MBSBATCH_CALIBRATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "cost.h"

struct error;

struct job;

struct calibration {
	bool		 used;		/* the profile has a site factor */
	double		 factor;	/* 1 when not used */
	int64_t		 logs;		/* the logs it was fitted to; 0 */
	const char	*date;		/* YYYY-MM-DD, borrowed; or NULL */
	const char	*cluster;	/* the profile, borrowed; or NULL */
};

/* The calibration JOB's profile gives (its values borrowed from JOB). */
void		 calibration_of(const struct job *, struct calibration *);

/*
 * Give HW (cost_hw_init()'s for JOB's GPU) JOB's site factor: what plan,
 * plan --search, recommend and check-log give cost_estimate().
 */
void		 calibration_apply(const struct job *, struct cost_hw *);

/* "site factor 0.83 from calibrate (3 logs, 2026-12-06)" into BUF; ""
 * when C is not used. */
void		 calibration_text(const struct calibration *, char *, size_t);

/* JOB's calibration said in a report: "site factor ...: the estimates
 * are the model's speed times 0.83" as a line to F after PREFIX (nothing
 * without one); as JSON, {"site_factor": 0.83, "logs": 3, "date":
 * "2026-12-06", "cluster": "NAME"} or null (a new reference). */
void		 calibration_print(FILE *, const char *, const struct job *);
json_t		*calibration_json(const struct job *);

/* The same of a calibration C (calibration_of()'s, or a plan's). */
void		 calibration_print_of(FILE *, const char *,
		    const struct calibration *);
json_t		*calibration_json_of(const struct calibration *);

/*
 * Today, UTC, as YYYY-MM-DD into BUF, or $SOURCE_DATE_EPOCH's day
 * (reproducible output): the date calibrate and site write into a
 * profile.
 */
struct error	*calibration_today(char *, size_t);

#endif
