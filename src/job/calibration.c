/* calibration.c: a job's site factor; see calibration.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "calibrate.h"
#include "calibration.h"
#include "error.h"
#include "number.h"
#include "job.h"
#include "settings.h"

void
calibration_of(const struct job *job, struct calibration *c)
{
	const struct setting_value	*v = job->set.v;

	c->used = v[SET_SITE_FACTOR].origin != ORIGIN_UNSET;
	c->factor = c->used ? v[SET_SITE_FACTOR].d : 1;
	c->logs = v[SET_SITE_FACTOR_LOGS].origin ? v[SET_SITE_FACTOR_LOGS].i :
	    0;
	c->date = v[SET_SITE_FACTOR_DATE].origin ? v[SET_SITE_FACTOR_DATE].s :
	    NULL;
	c->cluster = job->cluster;
}

void
calibration_apply(const struct job *job, struct cost_hw *hw)
{
	struct calibration	 c;

	calibration_of(job, &c);
	hw->site_factor = c.factor;
}

void
calibration_text(const struct calibration *c, char *buf, size_t len)
{
	char	 logs[32] = "";

	if (!c->used) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (c->logs > 0)
		snprintf(logs, sizeof logs, "%lld log%s", (long long)c->logs,
		    c->logs == 1 ? "" : "s");
	snprintf(buf, len, "site factor %.4g from calibrate%s%s%s%s%s",
	    c->factor, c->logs > 0 || c->date != NULL ? " (" : "", logs,
	    c->logs > 0 && c->date != NULL ? ", " : "",
	    c->date != NULL ? c->date : "",
	    c->logs > 0 || c->date != NULL ? ")" : "");
}

void
calibration_print_of(FILE *f, const char *prefix, const struct calibration *c)
{
	char	 text[128];

	if (!c->used)
		return;
	calibration_text(c, text, sizeof text);
	fprintf(f, "%s%s: the estimates are the model's speed times %.4g\n",
	    prefix, text, c->factor);
}

void
calibration_print(FILE *f, const char *prefix, const struct job *job)
{
	struct calibration	 c;

	calibration_of(job, &c);
	calibration_print_of(f, prefix, &c);
}

json_t *
calibration_json_of(const struct calibration *c)
{
	json_t	*o;

	if (!c->used)
		return json_null();
	o = json_object();
	json_object_set_new(o, "site_factor", json_real(c->factor));
	json_object_set_new(o, "logs", c->logs > 0 ? json_integer(c->logs) :
	    json_null());
	json_object_set_new(o, "date", c->date != NULL ?
	    json_string(c->date) : json_null());
	json_object_set_new(o, "cluster", c->cluster != NULL ?
	    json_string(c->cluster) : json_null());
	return o;
}

json_t *
calibration_json(const struct job *job)
{
	struct calibration	 c;

	calibration_of(job, &c);
	return calibration_json_of(&c);
}

struct error *
calibration_today(char *buf, size_t len)
{
	const char	*env = getenv("SOURCE_DATE_EPOCH");
	const char	*why;
	int64_t		 t;

	if (env != NULL && env[0] != '\0') {
		if ((why = number_parse_int(env, 0, INT64_C(253402300799),
		    &t)) != NULL)
			return error_new(EXIT_USAGE, "SOURCE_DATE_EPOCH: '%s' "
			    "%s (expected seconds since 1970)", env, why);
	} else
		t = (int64_t)time(NULL);
	if (!calibration_date(t, buf, len))
		return error_new(EXIT_FAILURE_OP, "the clock says %lld, not a "
		    "date from 1970 to 9999", (long long)t);
	return NULL;
}
