/*
 * willrun.c: submit --test-only's view of Slurm's answer; see willrun.h.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobview.h"
#include "termtext.h"
#include "willrun.h"

/* How long until START from NOW, in words: "now", "in 45 s", "in 2 h
 * 5 min", "in 3 d 4 h". */
static void
starts_in(int64_t secs, char *buf, size_t len)
{
	int64_t	 d = secs / 86400, h = secs % 86400 / 3600;
	int64_t	 m = secs % 3600 / 60;

	if (secs <= 0)
		snprintf(buf, len, "now");
	else if (secs < 60)
		snprintf(buf, len, "in %lld s", (long long)secs);
	else if (d > 0)
		snprintf(buf, len, "in %lld d %lld h", (long long)d,
		    (long long)h);
	else if (h > 0)
		snprintf(buf, len, "in %lld h %lld min", (long long)h,
		    (long long)m);
	else
		snprintf(buf, len, "in %lld min", (long long)m);
}

void
will_run_print(FILE *f, const struct will_run *w, int64_t now)
{
	char		 when[64], at[32];
	struct tm	 tm;
	time_t		 t = (time_t)w->start_time;

	if (localtime_r(&t, &tm) != NULL)
		strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%S", &tm);
	else
		snprintf(at, sizeof at, "%lld", (long long)w->start_time);
	starts_in(w->start_time - now, when, sizeof when);
	termtext_printf(f, "Job would start at %s (%s) using %lld processors "
	    "on nodes %s in partition %s; nothing was queued\n", at, when,
	    (long long)w->processors, w->nodes != NULL ? w->nodes :
	    "(not said)", w->partition != NULL ? w->partition : "(not said)");
	if (w->preempts != NULL)
		termtext_printf(f, "  would preempt: %s\n", w->preempts);
}

/* "12,13" as [12, 13]. */
static json_t *
preempts_json(const char *s)
{
	json_t	*a = json_array();
	char	*end;
	long long v;

	while (s != NULL && *s != '\0') {
		v = strtoll(s, &end, 10);
		if (end == s)
			break;
		json_array_append_new(a, json_integer(v));
		s = *end == ',' ? end + 1 : end;
	}
	return a;
}

json_t *
will_run_json(const struct will_run *w, const char *backend, int64_t now)
{
	json_t	*o, *msgs = json_array();
	size_t	 i;

	for (i = 0; i < w->nmessages; i++)
		json_array_append_new(msgs, termtext_json(w->messages[i]));
	o = json_pack("{s:b,s:s,s:o,s:I,s:o,s:o,s:I,s:o,s:o}",
	    "test_only", 1, "backend", backend,
	    "start_time", job_time_json(w->start_time),
	    "starts_in", (json_int_t)(w->start_time > now ?
	    w->start_time - now : 0),
	    "nodes", termtext_json(w->nodes),
	    "partition", termtext_json(w->partition),
	    "processors", (json_int_t)w->processors,
	    "preempts", preempts_json(w->preempts),
	    "warnings", msgs);
	return o;
}
