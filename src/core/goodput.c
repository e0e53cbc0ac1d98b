/*
 * goodput.c: the effective training time ratio and the time lost by
 * cause (goodput.h).
 */
#include <math.h>
#include <string.h>

#include "goodput.h"

const char *const goodput_cause_names[GP_NCAUSES] = {
	"startup", "gate", "hang", "lost_work", "checkpoint", "restarts",
	"other"
};

static double
clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The last iteration attempt A keeps on its own: all it did when it
 * finished the run, else its last checkpoint. */
static int64_t
own_keep(const struct goodput_attempt *a)
{
	int64_t	 keep = a->resumed;
	size_t	 i;

	if (a->niters == 0)
		return a->resumed;
	if (a->ended == GOODPUT_END_FINISHED)
		return a->last_iter;
	for (i = 0; i < a->nsaves; i++)
		if (a->saves[i].iteration > keep)
			keep = a->saves[i].iteration;
	return keep < a->last_iter ? keep : a->last_iter;
}

/*
 * Step seconds A had done when it reached iteration IT: exact at its
 * start, at a save and at its last iteration, linear between.
 */
static double
work_at(const struct goodput_attempt *a, int64_t it)
{
	int64_t	 lo_it = a->resumed, hi_it = a->last_iter;
	double	 lo_w = 0, hi_w = a->work;
	size_t	 i;

	if (it <= a->resumed)
		return 0;
	if (it >= a->last_iter)
		return a->work;
	for (i = 0; i < a->nsaves; i++) {
		const struct goodput_save	*s = &a->saves[i];

		if (s->iteration == it)
			return s->work;
		if (s->iteration < it && s->iteration >= lo_it) {
			lo_it = s->iteration;
			lo_w = s->work;
		}
		if (s->iteration > it && s->iteration <= hi_it) {
			hi_it = s->iteration;
			hi_w = s->work;
		}
	}
	if (hi_it <= lo_it)
		return lo_w;
	return lo_w + (hi_w - lo_w) * (double)(it - lo_it) /
	    (double)(hi_it - lo_it);
}

/* Is the end of A, after its last progress, a hang? */
static bool
hung(const struct goodput_attempt *a, double tail)
{
	if (a->ended == GOODPUT_END_FINISHED)
		return false;
	if (a->watchdog_hang)
		return true;
	return a->ended == GOODPUT_END_STOPPED && a->niters > 0 &&
	    a->median_step > 0 &&
	    tail > GOODPUT_HANG_STEPS * a->median_step;
}

/* Attempt A (the FIRST or a restart) keeping work KEPT: its share. */
static void
attempt_add(const struct goodput_attempt *a, bool first, double kept,
    struct goodput *g)
{
	double	 n = (double)a->nodes, alloc = a->end - a->start;
	double	 part[GP_NCAUSES], head, tail, sum = 0;
	int	 c;

	memset(part, 0, sizeof part);
	if (a->gate_first >= 0 && a->gate_last >= a->gate_first)
		part[GP_GATE] = clamp(a->gate_last - a->gate_first, 0, alloc);
	if (a->niters > 0) {
		head = clamp(a->first_work - a->start - part[GP_GATE], 0,
		    alloc);
		tail = clamp(a->end - a->last_progress, 0, alloc);
	} else {
		head = clamp(alloc - part[GP_GATE], 0, alloc);
		tail = 0;
	}
	part[first ? GP_STARTUP : GP_RESTARTS] += head;
	if (a->ended == GOODPUT_END_FINISHED)
		part[GP_OTHER] += tail;
	else
		part[hung(a, tail) ? GP_HANG : GP_RESTARTS] += tail;
	part[GP_LOST_WORK] = a->work > kept ? a->work - kept : 0;
	part[GP_CHECKPOINT] = a->save_seconds > 0 ? a->save_seconds : 0;

	sum = kept;
	for (c = 0; c < GP_NCAUSES; c++)
		sum += part[c];
	if (sum <= alloc)
		part[GP_OTHER] += alloc - sum;
	else
		g->overrun += (sum - alloc) * n;
	for (c = 0; c < GP_NCAUSES; c++)
		g->lost[c] += part[c] * n;
	g->productive += kept * n;
	g->allocated += alloc * n;
}

const char *
goodput_compute(const struct goodput_attempt *a, size_t n, struct goodput *g)
{
	int64_t	 keep, lo;
	size_t	 i, j;

	memset(g, 0, sizeof *g);
	for (i = 0; i < n; i++) {
		if (a[i].nodes < 1)
			return "an attempt with no nodes";
		if (!(a[i].start >= 0) || !(a[i].end >= a[i].start))
			return "an attempt whose start or end is not known";
	}
	g->attempts = (int64_t)n;
	g->queue_known = true;
	for (i = 0; i < n; i++) {
		/* A later attempt that resumed from before what this one
		 * kept redid it: only what was never redone is kept. */
		keep = own_keep(&a[i]);
		for (j = i + 1; j < n; j++)
			if (a[j].niters > 0 && a[j].resumed < keep)
				keep = a[j].resumed;
		lo = a[i].resumed;
		if (keep < lo)
			keep = lo;
		attempt_add(&a[i], i == 0, work_at(&a[i], keep), g);
		g->kept_iters += keep - lo;
		if (a[i].niters > 0 && a[i].last_iter > keep)
			g->lost_iters += a[i].last_iter - keep;
		if (a[i].ready >= 0 && a[i].start >= a[i].ready)
			g->queue += a[i].start - a[i].ready;
		else
			g->queue_known = false;
	}
	g->ettr = g->allocated > 0 ? clamp(g->productive / g->allocated, 0,
	    1) : 0;
	return NULL;
}
