/*
 * logtimeline.h: a training log read as the timeline of each attempt it
 * holds (mbsbatch report): when iterations were logged and how much
 * step time they took, which were saved in a checkpoint and how long the
 * saves took, the node gate's and the watchdog's lines, and how the
 * attempt ended as the log tells.  Lines are read by logscan.h (rank
 * prefixes, iteration figures, fatal causes); this adds their times.
 *
 * Lines read (mbsbatch-report(1) says the same):
 *   " [DATE] iteration N/ M | ... | elapsed time per iteration (ms): X |"
 *        the iterations N - P (P the one logged before) took X ms each
 *   "[DATE] saving checkpoint at iteration N to DIR in FMT format" and
 *   "  [DATE] successfully saved checkpoint from iteration N to DIR ..."
 *        (Megatron-LM's checkpointing.py; Bridge prints them without the
 *        date): a checkpoint of iteration N, its time from one to the
 *        other, or from Megatron's timer line
 *   "    save-checkpoint ....: (MIN, MAX)" or "...: MAX" (timers.log,
 *        "(min, max) time across ranks (ms):"): that save took MAX ms
 *   "  successfully loaded checkpoint from DIR [ ... ] at iteration N"
 *        the attempt resumed from N
 *   "==== mbsbatch: restart K of job J (...), DATE ===="
 *        a requeued attempt starts (the templates' line)
 *   "mbsbatch-gate: ..." or "mbsbatch: gate: ..." the node gate; its
 *        time is the span from its first line to its last (report takes
 *        it from Slurm's record of the gate's step when there is one)
 *   "mbsbatch-watchdog: ... hang ..." or "mbsbatch: hang: ..." the
 *        watchdog found a hang
 * A DATE is "YYYY-MM-DD HH:MM:SS" with or without fractions of a second,
 * in the reader's local time zone; a line without one happened when the
 * last dated line before it did.
 */
#ifndef MBSBATCH_LOGTIMELINE_H
#define MBSBATCH_LOGTIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "goodput.h"
#include "logscan.h"

/* One attempt as its log tells it; times in seconds since the epoch,
 * negative when not known. */
struct logtimeline_attempt {
	int64_t		 restart;	/* Slurm's restart count: 0 first */
	double		 mark;		/* its restart line's time */
	double		 first_time;	/* its first dated line's */
	double		 gate_first, gate_last;
	bool		 watchdog_hang;
	bool		 crashed;	/* a fatal cause of a crash */
	bool		 stopped;	/* slurmstepd's time limit, cancel,
					   preemption, node failure */

	int64_t		 niters;	/* iteration lines */
	double		 first_work;
	double		 last_progress;
	int64_t		 resumed;	/* -1: not known (yet) */
	int64_t		 first_iter;	/* the first logged */
	int64_t		 last_iter;
	int64_t		 total;		/* train_iters ("/ M"); 0 */
	double		 work;		/* step seconds */
	double		 step_ms;	/* the last line's */
	struct goodput_save *saves;
	size_t		 nsaves;
	double		 save_seconds;

	/* Reading. */
	double		 first_ms;	/* the first line's step, until the
					   second says the log interval */
	double		 first_ts;
	double		 save_begin;	/* the open save's start; < 0 */
	bool		 save_timed;	/* its time from the timer line */
	double		 save_guess;	/* its time from the dates */
};

struct logtimeline {
	struct logscan	*scan;		/* the whole log's */
	struct logtimeline_attempt *v;	/* attempts in the log's order */
	size_t		 n;
	double		 clock;		/* the last date read; < 0 */
	int64_t		 logged;	/* scan's iteration lines before */
	double		 median_step;	/* seconds, the whole log's; -1 */
	char		*line;		/* LOGSCAN_LINE_MAX bytes */
	size_t		 len;		/* of the line being read */
	bool		 cut;		/* it is longer: the rest dropped */
};

/* Start reading; logtimeline_release() after. */
void		 logtimeline_init(struct logtimeline *);
void		 logtimeline_release(struct logtimeline *);

/* One whole line, without its newline. */
void		 logtimeline_line(struct logtimeline *, const char *, size_t);

/* The log ended. */
void		 logtimeline_finish(struct logtimeline *);

/*
 * Feed LF (opened by the caller, logfile.h) to its size at open: 0 or an
 * errno value.  Holes are skipped.  Then logtimeline_finish().
 */
struct logfile;
int		 logtimeline_feed(struct logtimeline *, struct logfile *);

/* The first "YYYY-MM-DD HH:MM:SS[.fff]" in the LEN bytes at S as
 * seconds since the epoch, local time; false when there is none. */
bool		 logtimeline_date(const char *, size_t, double *);

#endif
