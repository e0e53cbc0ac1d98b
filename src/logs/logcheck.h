/*
 * logcheck.h: judge a training log (check-log, status --check, logs
 * --check, submit --smoke --wait).  The log is read in chunks by
 * logscan.h into bounded figures, then held against the guide's
 * criteria: the last iteration reached, a finite loss there, no NaN
 * iteration, the layout as planned, no fatal cause; and, with a job,
 * its step time and memory against plan's estimates.  See
 * mbsbatch-check-log(1) for the criteria and every JSON key.
 */
#ifndef MBSBATCH_LOGCHECK_H
#define MBSBATCH_LOGCHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "logscan.h"

struct error;
struct job;
struct logfile;

/* What the caller may set; zeroed: everything from the log. */
struct logcheck_opts {
	int64_t		 iterations;	/* the last iteration expected; 0 */
};

#define LOGCHECK_MAX_REASONS	8
#define LOGCHECK_REASON_MAX	240

/* The verdict and the figures it rests on. */
struct logcheck {
	struct logscan	 scan;
	int		 files;		/* fed so far */
	int		 status;	/* 0 pass, 3 fail, 2 unusable */
	char		 reasons[LOGCHECK_MAX_REASONS][LOGCHECK_REASON_MAX];
	int		 nreasons;
	char		 hint[2 * LOGCHECK_REASON_MAX];	/* what to do about
							   the fatal cause;
							   "": nothing said */

	int64_t		 expected;	/* last iteration expected; 0: none */
	const char	*expected_from;	/* "option", "marker", "log" */
	bool		 after_end;	/* the fatal cause came once the run
					   was done: not counted */

	struct logscan_layout planned;
	const char	*planned_from;	/* "jobfile", "marker", or NULL */
	struct logscan_layout used;
	const char	*used_from;	/* "megatron-lm", "megatron-bridge" */
	const char	*world_from;	/* "megatron-lm", "marker", NULL */
	bool		 mismatch[LD_NDIMS];
	const char	*layout;	/* "ok", "mismatch", "unknown",
					   "unchecked" */

	double		 step_ms;	/* median after the warm-up; -1 */
	double		 tflops;	/* median; -1 */
	double		 tokens_s;	/* median; -1 */

	/* With a job: plan's estimates for its layout and GPU. */
	bool		 has_job;
	const char	*gpu;		/* the GPU the estimate assumes */
	const char	*interconnect;	/* "ib", ... */
	const char	*precision;	/* "bf16", "fp8", ... */
	const char	*fp8_recipe;	/* "tensorwise", ...; NULL */
	double		 site_factor;	/* the estimate's; 1: none */
	double		 est_step_ms;	/* -1: none, est_reason says why */
	const char	*est_step_reason;
	double		 est_tflops;	/* per GPU, Megatron's count; -1 */
	double		 est_tokens_gpu; /* tokens/s per GPU; -1 */
	double		 tokens_gpu;	/* measured: the job's tokens per step
					   (global batch x sequence) over
					   the median step, per GPU; -1 */
	double		 est_memory_gib; /* -1: none */
	const char	*est_memory_reason;
};

/*
 * Read the log at PATH ("-": standard input) in bounded memory, judge it
 * against JOB (its plan; NULL: the log's mbsbatch layout line is the
 * plan) with options O (NULL: none), print the report (text, or JSON
 * when JSON) to OUT (logcheck-report.c).  *STATUS: 0 pass, 3 fail, 2
 * unusable input.  Returns an error only for what stops
 * it: the log cannot be opened or read (EXIT_USAGE), the job cannot be
 * sized (EXIT_USAGE).
 */
struct error	*logcheck_file_opts(const char *, const struct job *,
		    const struct logcheck_opts *, bool, FILE *, int *);

/*
 * Read and judge the log at PATH ("-": standard input, any stream) into
 * *LC (allocated by the caller: it is large); NULL or the error that
 * stopped it.  PATH is the reader's own choice: a symbolic link is
 * followed, but only to a regular file (logfile.h).
 */
struct error	*logcheck_read(const char *, const struct job *,
		    const struct logcheck_opts *, struct logcheck *);

/*
 * The same in steps, for files opened by the caller (a job's output,
 * then its error file, read as one log): begin, feed each (the first
 * st_size bytes it had when opened, holes as the NUL bytes they read as:
 * 0 or an errno value), end (judge: NULL or the error that stopped it).
 */
void		 logcheck_begin(struct logcheck *);
int		 logcheck_feed(struct logcheck *, struct logfile *);
struct error	*logcheck_end(struct logcheck *, const struct job *,
		    const struct logcheck_opts *);

/* Judge LC->scan (read already): the criteria, no I/O.  JOB may be NULL. */
struct error	*logcheck_judge(struct logcheck *, const struct job *,
		    const struct logcheck_opts *);

/*
 * The NaN iterations IT tells of: Megatron's count (NaN in a skipped
 * iteration), lines with an infinite loss, lines with no loss and
 * nothing skipped (a NaN average is not printed).
 */
int64_t		 logcheck_nan(const struct logscan_iters *);

/* A log with nothing to judge (LC's status 2) as one error line, "log
 * 'PATH': unusable: WHY"; NULL for a log judged. */
struct error	*logcheck_unusable(const char *, const struct logcheck *);

/* How a report is written as JSON, alone or inside another object (ten
 * digits: a loss of 10.03808 stays 10.03808). */
#define LOGCHECK_JSON_FLAGS \
	(JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))

/*
 * One more reason LC fails, from outside the log (the job's end as Slurm
 * tells it: the guide's first criterion is exit code 0); a log judged
 * unusable stays so.
 */
void		 logcheck_fail(struct logcheck *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));

/* The report of LC: text for people, or one JSON object (new reference). */
void		 logcheck_print(FILE *, const char *, const struct logcheck *);
json_t		*logcheck_json(const char *, const struct logcheck *);

#endif
