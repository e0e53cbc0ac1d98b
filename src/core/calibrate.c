/* calibrate.c: the site factor's fit; see calibrate.h. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

double
calibrate_ratio(double estimated_ms, double measured_ms)
{
	double	 r;

	if (!isfinite(estimated_ms) || !isfinite(measured_ms) ||
	    estimated_ms <= 0 || measured_ms <= 0)
		return -1;
	r = estimated_ms / measured_ms;
	return isfinite(r) && r > 0 ? r : -1;
}

const char *
calibration_factor_check(double f)
{
	if (!isfinite(f))
		return "is not a number";
	if (f <= CALIBRATE_MIN)
		return "is not above 0.05";
	if (f >= CALIBRATE_MAX)
		return "is not below 20";
	return NULL;
}

/* Insertion sort of the N values of V: N is at most CALIBRATE_MAX_LOGS. */
static void
sort(double *v, size_t n)
{
	size_t	 i, j;
	double	 x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

const char *
calibrate_fit(const double *ratio, size_t n, struct calibrate_fit *fit)
{
	double	 v[CALIBRATE_MAX_LOGS];
	char	 digits[32];
	size_t	 i;

	memset(fit, 0, sizeof *fit);
	if (n == 0)
		return "no log to fit";
	if (n > CALIBRATE_MAX_LOGS)
		return "more than 1024 logs";
	for (i = 0; i < n; i++) {
		if (!isfinite(ratio[i]) || ratio[i] <= 0)
			return "a ratio is not a positive number";
		v[i] = ratio[i];
	}
	sort(v, n);
	fit->n = n;
	fit->min = v[0];
	fit->max = v[n - 1];
	fit->spread = fit->max / fit->min - 1;
	fit->median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	snprintf(digits, sizeof digits, "%.4g", fit->median);
	fit->factor = strtod(digits, NULL);
	if (calibration_factor_check(fit->factor) != NULL)
		return fit->factor <= CALIBRATE_MIN ? "the site runs more than "
		    "20 times slower than the model says: not a calibration" :
		    "the site runs more than 20 times faster than the model "
		    "says: not a calibration";
	return NULL;
}

static bool
leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
month_days(int64_t y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };

	return m == 2 && leap(y) ? 29 : days[m - 1];
}

const char *
calibration_date_check(const char *s)
{
	int64_t	 y;
	int	 m, d, i;

	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : s[i] < '0' || s[i] > '9')
			return "is not a date YYYY-MM-DD";
	if (s[10] != '\0')
		return "is not a date YYYY-MM-DD";
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
	    (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > month_days(y, m))
		return "is not a day of the calendar (YYYY-MM-DD, from 1970)";
	return NULL;
}

bool
calibration_date(int64_t t, char *buf, size_t len)
{
	int64_t	 days, y = 1970;
	int	 m = 1;

	if (t < 0 || t >= INT64_C(253402300800) || len < 11)
		return false;
	days = t / 86400;
	while (days >= (leap(y) ? 366 : 365)) {
		days -= leap(y) ? 366 : 365;
		y++;
	}
	while (days >= month_days(y, m)) {
		days -= month_days(y, m);
		m++;
	}
	snprintf(buf, len, "%04d-%02d-%02d", (int)y, m, (int)days + 1);
	return true;
}
