/*
 * logtimeline.c: a training log as the timelines of its attempts
 * (logtimeline.h).
 */
#include <sys/types.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logfile.h"
#include "logtimeline.h"
#include "xmalloc.h"

/* N digits at S as a number. */
static int
digits(const char *s, int n)
{
	int	 v = 0;

	while (n-- > 0) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s++ - '0');
	}
	return v;
}

bool
logtimeline_date(const char *s, size_t n, double *t)
{
	const char	*p, *end = s + n;
	struct tm	 tm;
	double		 frac, scale;
	time_t		 secs;

	for (p = s; end - p >= 19; p++) {
		if (p[4] != '-' || p[7] != '-' || (p[10] != ' ' &&
		    p[10] != 'T') || p[13] != ':' || p[16] != ':')
			continue;
		memset(&tm, 0, sizeof tm);
		if ((tm.tm_year = digits(p, 4)) < 1970 ||
		    (tm.tm_mon = digits(p + 5, 2)) < 1 || tm.tm_mon > 12 ||
		    (tm.tm_mday = digits(p + 8, 2)) < 1 || tm.tm_mday > 31 ||
		    (tm.tm_hour = digits(p + 11, 2)) < 0 || tm.tm_hour > 23 ||
		    (tm.tm_min = digits(p + 14, 2)) < 0 || tm.tm_min > 59 ||
		    (tm.tm_sec = digits(p + 17, 2)) < 0 || tm.tm_sec > 60)
			continue;
		if (tm.tm_year > 9999)
			continue;
		tm.tm_year -= 1900;
		tm.tm_mon -= 1;
		tm.tm_isdst = -1;
		if ((secs = mktime(&tm)) == (time_t)-1)
			continue;
		frac = 0;
		p += 19;
		if (p < end && *p == '.')
			for (p++, scale = 0.1; p < end && *p >= '0' &&
			    *p <= '9' && scale > 1e-9; p++, scale /= 10)
				frac += (*p - '0') * scale;
		*t = (double)secs + frac;
		return true;
	}
	return false;
}

/* The number after LIT in the N bytes at S ("{:7d}": spaces first). */
static bool
int_after(const char *s, size_t n, const char *lit, int64_t *v)
{
	const char	*p = logscan_find(s, n, lit), *end = s + n;
	int64_t		 x = 0;

	if (p == NULL)
		return false;
	for (p += strlen(lit); p < end && *p == ' '; p++)
		;
	if (p == end || *p < '0' || *p > '9')
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (x > (INT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (*p - '0');
	}
	*v = x;
	return true;
}

static struct logtimeline_attempt *
attempt_new(struct logtimeline *t, int64_t restart, double mark)
{
	struct logtimeline_attempt	*a;

	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	a = &t->v[t->n++];
	memset(a, 0, sizeof *a);
	a->restart = restart;
	a->mark = mark;
	a->first_time = mark;
	a->gate_first = a->gate_last = -1;
	a->first_work = a->last_progress = -1;
	a->resumed = -1;
	a->first_ts = a->save_begin = -1;
	/* What ended the last attempt is its own. */
	t->scan->fatal.kind = LC_NONE;
	return a;
}

static struct logtimeline_attempt *
current(struct logtimeline *t)
{
	return t->n == 0 ? attempt_new(t, 0, -1) : &t->v[t->n - 1];
}

/*
 * The attempt's log is read: the first interval's work (known once the
 * next line gave the log interval, or the checkpoint it loaded the
 * first iteration), and how it ended.
 */
static void
attempt_end(struct logtimeline_attempt *a, enum logscan_cause fatal)
{
	double	 w0;
	size_t	 i;

	switch (fatal) {
	case LC_NONE:
		break;
	case LC_NCCL_TIMEOUT:
		a->watchdog_hang = true;
		break;
	case LC_TIME_LIMIT:
	case LC_CANCELLED:
	case LC_NODE_FAILURE:
	case LC_PREEMPTED:
		a->stopped = true;
		break;
	default:
		a->crashed = true;
		break;
	}
	if (a->niters == 0)
		return;
	/* One line alone: one iteration, nothing said of the interval. */
	if (a->resumed < 0 || a->resumed >= a->first_iter)
		a->resumed = a->first_iter - 1;
	w0 = (double)(a->first_iter - a->resumed) * a->first_ms / 1000;
	a->first_work = a->first_ts - w0;
	a->work += w0;
	for (i = 0; i < a->nsaves; i++)
		if (a->saves[i].iteration >= a->first_iter)
			a->saves[i].work += w0;
}

/* A step longer than this (11.6 days) is no step Megatron ran: its
 * line's work is not counted (and sums stay finite). */
#define STEP_MS_MAX	1e9

static void
iteration(struct logtimeline *t, struct logtimeline_attempt *a, double now)
{
	const struct logscan_iters	*it = &t->scan->it;
	double				 ms = it->step_ms > 0 &&
					    it->step_ms <= STEP_MS_MAX ?
					    it->step_ms : 0;
	int64_t				 gap;

	a->total = it->total;
	if (now > a->last_progress)
		a->last_progress = now;
	if (a->niters == 0) {
		a->niters = 1;
		a->first_iter = a->last_iter = it->last;
		a->first_ms = a->step_ms = ms;
		a->first_ts = now;
		return;
	}
	if ((gap = it->last - a->last_iter) <= 0)
		return;		/* not after the last: not work of this run */
	if (a->niters == 1 && a->resumed < 0)
		a->resumed = a->first_iter > gap ? a->first_iter - gap : 0;
	a->niters++;
	a->work += (double)gap * ms / 1000;
	a->last_iter = it->last;
	a->step_ms = ms;
}

/* "    save-checkpoint ....: (MIN, MAX)" or "...: MAX" (timers.py): MAX
 * in milliseconds. */
static bool
save_timer(const char *s, size_t n, double *ms)
{
	const char	*end = s + n, *p;
	char		 num[64];
	size_t		 k;

	while (n > 0 && *s == ' ')
		s++, n--;
	if (!logscan_starts(s, n, "save-checkpoint ."))
		return false;
	for (p = s + 16; p < end && *p == '.'; p++)
		;
	if (end - p < 3 || p[0] != ':' || p[1] != ' ')
		return false;
	p += 2;
	if (*p == '(') {
		if ((p = memchr(p, ',', end - p)) == NULL)
			return false;
		p++;
	}
	while (p < end && *p == ' ')
		p++;
	for (k = 0; p + k < end && k < sizeof num - 1 && ((p[k] >= '0' &&
	    p[k] <= '9') || p[k] == '.'); k++)
		num[k] = p[k];
	num[k] = '\0';
	if (k == 0)
		return false;
	*ms = strtod(num, NULL);
	return *ms >= 0;
}

static void
checkpoint_saved(struct logtimeline_attempt *a, int64_t n, double now)
{
	struct goodput_save	*s;
	double			 w = a->niters > 1 ? a->work : 0;

	/* A save of an iteration not logged yet: at the last step's pace. */
	if (a->niters > 0 && n > a->last_iter)
		w += (double)(n - a->last_iter) * a->step_ms / 1000;
	a->saves = xreallocarray(a->saves, a->nsaves + 1, sizeof *a->saves);
	s = &a->saves[a->nsaves++];
	s->iteration = n;
	s->work = w;
	a->save_guess = a->save_begin >= 0 && now >= a->save_begin ?
	    now - a->save_begin : 0;
	a->save_seconds += a->save_guess;
	a->save_timed = false;
	a->save_begin = -1;
	if (now > a->last_progress)
		a->last_progress = now;
}

/* "  successfully loaded checkpoint from DIR [ ... ] at iteration N"
 * (checkpointing.py, Megatron-LM and Bridge): *V = N. */
static bool
loaded(const char *p, size_t n, int64_t *v)
{
	return logscan_find(p, n, "successfully loaded checkpoint from ") !=
	    NULL && int_after(p, n, "] at iteration ", v);
}

/* The lines of LINE (the rank prefix gone: P, N bytes) that are not
 * logscan's. */
static void
other_line(struct logtimeline *t, struct logtimeline_attempt *a,
    const char *p, size_t n, double now)
{
	double		 ms;
	int64_t		 v;

	if (logscan_starts(p, n, "mbsbatch-gate:") || logscan_starts(p, n,
	    "mbsbatch: gate: ")) {
		if (a->gate_first < 0)
			a->gate_first = now;
		a->gate_last = now;
	} else if (logscan_starts(p, n, "mbsbatch-watchdog:")) {
		if (logscan_find(p, n, "hang") != NULL ||
		    logscan_find(p, n, "Hang") != NULL)
			a->watchdog_hang = true;
	} else if (logscan_starts(p, n, "mbsbatch: hang: ")) {
		a->watchdog_hang = true;
	} else if (logscan_find(p, n, "saving checkpoint at iteration ") !=
	    NULL) {
		a->save_begin = now;
	} else if (int_after(p, n, "successfully saved checkpoint from "
	    "iteration ", &v) || int_after(p, n, "successfully saved local "
	    "checkpoint from iteration ", &v)) {
		checkpoint_saved(a, v, now);
	} else if (save_timer(p, n, &ms)) {
		if (a->nsaves > 0 && !a->save_timed) {
			a->save_seconds += ms / 1000 - a->save_guess;
			a->save_timed = true;
		}
	} else if (loaded(p, n, &v) && a->niters == 0)
		a->resumed = v;
}

void
logtimeline_line(struct logtimeline *t, const char *s, size_t n)
{
	struct logtimeline_attempt	*a;
	const char			*p;
	size_t				 len = n;
	int64_t				 rank, k, restarts;
	enum logscan_cause		 fatal;
	double				 ts = -1;

	if (logtimeline_date(s, n, &ts))
		t->clock = ts;
	p = logscan_strip_rank(s, &len, &rank);
	if (logscan_starts(p, len, "==== mbsbatch: restart ") &&
	    int_after(p, len, "==== mbsbatch: restart ", &k)) {
		if (t->n > 0)
			attempt_end(&t->v[t->n - 1], t->scan->fatal.kind);
		attempt_new(t, k, ts);
		logscan_line(t->scan, s, n);
		return;
	}
	a = current(t);
	restarts = t->scan->restarts;
	fatal = t->scan->fatal.kind;
	logscan_line(t->scan, s, n);
	/* A log appended to without our restart line (a script of the
	 * user's): a run starts again where our layout line comes again, or
	 * a checkpoint is loaded after iterations. */
	if (a->niters > 0 && (t->scan->restarts > restarts ||
	    loaded(p, len, &k))) {
		attempt_end(a, fatal);
		a = attempt_new(t, a->restart + 1, ts);
	}
	if (a->first_time < 0 && ts >= 0)
		a->first_time = ts;
	if (t->scan->it.logged > t->logged) {
		t->logged = t->scan->it.logged;
		iteration(t, a, t->clock);
		return;
	}
	other_line(t, a, p, len, t->clock);
}

void
logtimeline_init(struct logtimeline *t)
{
	memset(t, 0, sizeof *t);
	t->scan = xmalloc(sizeof *t->scan);
	logscan_init(t->scan);
	t->line = xmalloc(LOGSCAN_LINE_MAX);
	t->clock = -1;
	t->median_step = -1;
}

void
logtimeline_finish(struct logtimeline *t)
{
	double	 m;

	if (t->len > 0 || t->cut)
		logtimeline_line(t, t->line, t->len);
	t->len = 0;
	t->cut = false;
	if (t->n > 0)
		attempt_end(&t->v[t->n - 1], t->scan->fatal.kind);
	if ((m = logscan_median(&t->scan->step)) > 0)
		t->median_step = m / 1000;
}

void
logtimeline_release(struct logtimeline *t)
{
	size_t	 i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].saves);
	free(t->v);
	free(t->scan);
	free(t->line);
	memset(t, 0, sizeof *t);
}

static int
sink_data(void *arg, const char *buf, size_t n)
{
	struct logtimeline	*t = arg;
	const char		*nl;
	size_t			 k;

	while (n > 0) {
		nl = memchr(buf, '\n', n);
		k = nl != NULL ? (size_t)(nl - buf) : n;
		if (t->len + k > LOGSCAN_LINE_MAX) {
			memcpy(t->line + t->len, buf, LOGSCAN_LINE_MAX -
			    t->len);
			t->len = LOGSCAN_LINE_MAX;
			t->cut = true;
		} else if (!t->cut) {
			memcpy(t->line + t->len, buf, k);
			t->len += k;
		}
		if (nl == NULL)
			break;
		logtimeline_line(t, t->line, t->len);
		t->len = 0;
		t->cut = false;
		buf = nl + 1;
		n -= k + 1;
	}
	return 0;
}

int
logtimeline_feed(struct logtimeline *t, struct logfile *lf)
{
	struct logfile_sink	 k = { sink_data, NULL, t };
	off_t			 off = 0;

	/* A file's last line ends with it. */
	if (t->len > 0 || t->cut) {
		logtimeline_line(t, t->line, t->len);
		t->len = 0;
		t->cut = false;
	}
	return logfile_read(lf, &off, lf->st.st_size, &k);
}
