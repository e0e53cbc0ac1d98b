/*
 * calibrate.h: the site factor mbsbatch calibrate fits (cost.h's
 * cost_hw.site_factor): how much faster the site's own runs went than the
 * model said, as one number that multiplies the tokens per second the
 * model predicts.  Each log gives one ratio, its estimated step time over
 * its measured one (the same tokens per step: speed goes as 1 / step
 * time); the factor is their median, which one odd log (a noisy
 * neighbour, a slow node) cannot pull far.  Pure: no I/O, no allocation.
 */
#ifndef MBSBATCH_CALIBRATE_H
#define MBSBATCH_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The factor's open range: a model off by more than 20 times either way
 * is not calibrated, it is wrong (or the logs are not of this job). */
#define CALIBRATE_MIN	0.05
#define CALIBRATE_MAX	20.0
/* The logs one fit takes at most. */
#define CALIBRATE_MAX_LOGS	1024

struct calibrate_fit {
	double	 median;	/* the median ratio */
	double	 factor;	/* it to four significant digits: what a
				   handful of logs measures, and what is
				   stored */
	double	 min, max;	/* the smallest and largest ratio */
	double	 spread;	/* max / min - 1: 0 when the logs agree */
	size_t	 n;		/* ratios fitted */
};

/* One log's ratio: ESTIMATED_MS over MEASURED_MS, each a step time; -1
 * when either is not a positive finite number. */
double		 calibrate_ratio(double, double);

/*
 * Fit the factor to the N ratios (each positive and finite) into *FIT:
 * NULL, or a static reason it cannot be fitted (no ratio, a ratio that
 * is not a positive number, a factor outside the range once rounded).
 */
const char	*calibrate_fit(const double *, size_t, struct calibrate_fit *);

/* NULL when F is a factor the range allows, else a static reason. */
const char	*calibration_factor_check(double);

/* NULL when S is a date as calibrate writes it, YYYY-MM-DD (a real
 * day of the Gregorian calendar, years 1970 to 9999), else why not. */
const char	*calibration_date_check(const char *);

/* The date of Unix time T, UTC, as YYYY-MM-DD into BUF (11 bytes at
 * least); false when T is outside 1970 to 9999. */
bool		 calibration_date(int64_t, char *, size_t);

#endif
