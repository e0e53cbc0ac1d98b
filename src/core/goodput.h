/*
 * goodput.h: the effective training time ratio (ETTR) of a run and the
 * time it lost, by cause, from the timelines of its attempts (each
 * allocation Slurm gave it: a job, each requeue of it, each job of a
 * chain).  Pure: no I/O, no allocation; the caller gathers the
 * timelines (Slurm's record, the logs) and this only does arithmetic.
 *
 * Every figure is node-seconds: an attempt's seconds times its nodes.
 * An attempt's allocation, END - START, is cut into
 *
 *   productive   step time of the iterations the run kept
 *   startup      the first attempt's start to its first iteration's
 *                work, less the gate
 *   gate         the node gate's lines, first to last
 *   hang         the last progress (iteration or save) to the end, of
 *                an attempt that hung: the watchdog said so, or it was
 *                ended from outside (time limit, scancel) with no
 *                progress for longer than GOODPUT_HANG_STEPS steps
 *   lost_work    step time of iterations not kept: done after the
 *                attempt's last checkpoint (and not the run's end), or
 *                redone because a later attempt resumed from before them
 *   checkpoint   the checkpoint saves' time
 *   restarts     the start-up of every later attempt (to its first
 *                iteration, less the gate), and the end of an attempt
 *                that stopped unfinished (from its last progress), when
 *                not a hang
 *   other        the rest: gaps between iteration lines (evaluation,
 *                data loading), the end after a run finished
 *
 * which add up to the allocation (other takes the difference, and is
 * never below 0: a log whose times overrun Slurm's allocation makes the
 * sum larger than the allocation by that overrun, said in "overrun").
 * ettr = productive / allocation.  Queue wait (each attempt's start less
 * when it could first have started) is reported apart, in seconds, not
 * node-weighted and not in the allocation.
 */
#ifndef MBSBATCH_GOODPUT_H
#define MBSBATCH_GOODPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A tail longer than this many median steps, with no progress, in an
 * attempt ended from outside, is a hang. */
#define GOODPUT_HANG_STEPS	3

/* Where the work of an attempt stood when a checkpoint was saved: the
 * iteration saved and the step seconds done in this attempt up to it. */
struct goodput_save {
	int64_t		 iteration;
	double		 work;
};

/* How an attempt ended, as far as it matters here. */
enum goodput_end {
	GOODPUT_END_FINISHED,	/* the run's last iteration reached */
	GOODPUT_END_FAILED,	/* a crash: a fatal cause, a failed state */
	GOODPUT_END_STOPPED,	/* from outside: time limit, cancel,
				   preemption, requeue, node failure */
};

/* One attempt.  Times are seconds since the epoch; a time not known is
 * negative. */
struct goodput_attempt {
	int64_t		 nodes;		/* >= 1 */
	double		 start, end;	/* the allocation (Slurm's) */
	double		 ready;		/* when it could have started: its
					   submission, its dependency's end,
					   the end of the attempt before a
					   requeue; < 0: not known */
	double		 gate_first, gate_last;	/* the gate's lines; < 0:
						   none */
	bool		 watchdog_hang;	/* the watchdog said it hung */
	enum goodput_end ended;

	/* Iterations, from the log.  None logged: niters 0. */
	int64_t		 niters;	/* iteration lines */
	double		 first_work;	/* when the first logged interval's
					   work began */
	double		 last_progress;	/* the last iteration line or save's
					   end */
	int64_t		 resumed;	/* the iteration it started after
					   (0: from the beginning) */
	int64_t		 last_iter;	/* the last logged */
	double		 work;		/* step seconds of every iteration
					   logged, (resumed, last_iter] */
	double		 median_step;	/* seconds; <= 0: not known */
	const struct goodput_save *saves;	/* in order, each saved
						   successfully */
	size_t		 nsaves;
	double		 save_seconds;	/* the saves' time */
};

enum goodput_cause {
	GP_STARTUP,
	GP_GATE,
	GP_HANG,
	GP_LOST_WORK,
	GP_CHECKPOINT,
	GP_RESTARTS,
	GP_OTHER,
	GP_NCAUSES
};
/* "startup", "gate", "hang", "lost_work", "checkpoint", "restarts",
 * "other": the JSON keys. */
extern const char *const goodput_cause_names[GP_NCAUSES];

struct goodput {
	int64_t		 attempts;
	double		 allocated;	/* node-seconds */
	double		 productive;
	double		 lost[GP_NCAUSES];
	double		 overrun;	/* what the causes add up to beyond
					   the allocation; 0 normally */
	double		 queue;		/* seconds, not node-weighted */
	bool		 queue_known;	/* every attempt's */
	double		 ettr;		/* productive / allocated, 0 to 1;
					   0 when nothing was allocated */
	int64_t		 kept_iters;	/* iterations kept, all attempts */
	int64_t		 lost_iters;	/* done and not kept */
};

/*
 * The goodput of the N attempts A (in the order they ran) into *G.
 * Every attempt must have nodes >= 1 and a known start and end (end >=
 * start); returns a phrase saying which is not, and G is then zeroed;
 * else NULL.
 */
const char	*goodput_compute(const struct goodput_attempt *, size_t,
		    struct goodput *);

#endif
