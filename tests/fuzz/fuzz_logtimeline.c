/*
 * fuzz_logtimeline.c: a training log read as attempt timelines
 * (src/logs/logtimeline.c) and their goodput (src/core/goodput.c), as
 * report reads them.  Whatever the lines, each attempt's figures are
 * finite and in order (work and save time not negative, no iteration
 * before the one resumed from), and the goodput of the attempts, each
 * given an allocation around its log's times, has a ratio from 0 to 1
 * and causes, none negative, that add up to the allocation and its
 * overrun.
 */
#include <math.h>
#include <stdio.h>

#include "fuzz.h"
#include "goodput.h"
#include "logtimeline.h"

static void
check_attempt(const struct logtimeline_attempt *a)
{
	size_t	 i;

	if (!isfinite(a->work) || a->work < 0 || !isfinite(a->save_seconds) ||
	    a->save_seconds < 0)
		abort();
	if (a->niters > 0 && (a->resumed < 0 || a->resumed >= a->first_iter ||
	    a->first_iter > a->last_iter))
		abort();
	for (i = 0; i < a->nsaves; i++)
		if (!isfinite(a->saves[i].work) || a->saves[i].work < 0)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct logtimeline	 t;
	struct goodput_attempt		*v;
	struct goodput			 g;
	const struct logtimeline_attempt *a;
	const char			*p = (const char *)data, *end = p + size;
	const char			*nl;
	double				 sum, lo, hi;
	size_t				 i;
	int				 c;

	logtimeline_init(&t);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		logtimeline_line(&t, p, (size_t)((nl != NULL ? nl : end) - p));
		p = nl != NULL ? nl + 1 : end;
	}
	logtimeline_finish(&t);
	v = calloc(t.n + 1, sizeof *v);
	if (v == NULL)
		abort();
	for (i = 0; i < t.n; i++) {
		a = &t.v[i];
		check_attempt(a);
		/* An allocation from before its first time to after its
		 * last, as Slurm's would be. */
		lo = a->first_time >= 0 ? a->first_time : 0;
		hi = lo;
		if (a->niters > 0) {
			lo = fmin(lo, a->first_work);
			hi = fmax(hi, a->last_progress);
		}
		v[i].nodes = 1 + (int64_t)(i % 3);
		v[i].start = lo >= 0 ? lo : 0;
		v[i].end = fmax(hi, v[i].start) + 1;
		v[i].ready = -1;
		v[i].gate_first = a->gate_first;
		v[i].gate_last = a->gate_last;
		v[i].watchdog_hang = a->watchdog_hang;
		v[i].ended = a->crashed ? GOODPUT_END_FAILED :
		    a->total > 0 && a->last_iter >= a->total ?
		    GOODPUT_END_FINISHED : GOODPUT_END_STOPPED;
		v[i].niters = a->niters;
		v[i].first_work = a->first_work;
		v[i].last_progress = a->last_progress;
		v[i].resumed = a->resumed;
		v[i].last_iter = a->last_iter;
		v[i].work = a->work;
		v[i].median_step = t.median_step;
		v[i].saves = a->saves;
		v[i].nsaves = a->nsaves;
		v[i].save_seconds = a->save_seconds;
	}
	if (goodput_compute(v, t.n, &g) == NULL) {
		if (!(g.ettr >= 0 && g.ettr <= 1) || !(g.productive >= 0))
			abort();
		sum = g.productive;
		for (c = 0; c < GP_NCAUSES; c++) {
			if (!(g.lost[c] >= 0))
				abort();
			sum += g.lost[c];
		}
		if (!(fabs(sum - g.allocated - g.overrun) <= 1e-6 *
		    fmax(1, g.allocated + g.overrun)))
			abort();
	}
	free(v);
	logtimeline_release(&t);
	return 0;
}
