/*
 * logscan.h: read a Megatron-LM or Megatron-Bridge training log, line by
 * line, into bounded figures: the iterations (loss, step time, TFLOP/s,
 * skipped and NaN counts), the memory lines, the layout the run printed,
 * the mbsbatch marker lines, and the first fatal cause.  Pure: no I/O,
 * no allocation; the state is one fixed-size struct whatever the log's
 * length, and a line longer than LOGSCAN_LINE_MAX is judged by its first
 * LOGSCAN_LINE_MAX bytes (the rest is counted, not kept).
 *
 * The formats, from the code that prints them (pinned revisions in
 * mbsbatch-check-log(1)):
 *   iteration   " [DATE] iteration N/ M | key: value | ... |" (training_log
 *               of megatron/training/training.py and of Bridge's
 *               training/utils/train_utils.py; the same keys)
 *   memory      "[Rank R] (after N iterations) memory (MB) | allocated: A
 *               | max allocated: ... | reserved: ... | max reserved: ..."
 *               (Megatron-LM report_memory, MiB) and "[Rank R] (after N
 *               iterations) memory (GB) | mem-max-allocated-gigabytes: X |
 *               ..." (Bridge, 1e9 bytes)
 *   layout      Megatron-LM "using world size: W, data-parallel size: D,
 *               context-parallel size: C, ..., tensor-model-parallel
 *               size: T, pipeline-model-parallel size: P" and its
 *               arguments dump "  NAME .... VALUE"; Bridge "> initialized
 *               tensor (pipeline) model parallel with size N", "> initialized
 *               HyperCommGrid with tp=T, pp=P, cp=C, dp=D" and the YAML
 *               of "Final configuration:" (model: section)
 *   marker      "mbsbatch: layout: world=W nodes=N tp=T ...",
 *               "mbsbatch: smoke: iterations=N", "mbsbatch: train:
 *               iterations=N" (our scripts)
 *   fatal       a Python traceback (last frame, exception line; CUDA out
 *               of memory and NCCL errors named), the NCCL watchdog's
 *               timeout, slurmstepd's "*** JOB ... CANCELLED AT ... ***"
 *               family ("slurmstepd: error: ..." to 24.11, "[TIME]
 *               error: ..." from 25.05), srun's "task N: Exited with
 *               exit code N" / "Out Of Memory" / signal lines,
 *               slurmstepd's oom_kill line; and
 *               what stops a run before it starts: CPython's "python:
 *               can't open file 'X': [Errno N] ..." (Modules/main.c
 *               pymain_run_file_obj), ModuleNotFoundError, a launcher
 *               not found (bash's "exec: python: not found",
 *               slurmstepd's "execve(): torchrun: ..."), a container
 *               pyxis cannot set up or an srun without pyxis.
 * Rank prefixes are stripped first: srun --label's "N: ", torch's
 * "[rankN]:", torchrun's "[defaultN]:".
 *
 * Every figure is read only in the format its program prints it
 * (pyformat.h): a line of a known kind whose figure is in another
 * ("lm loss: -0", "iteration 0/0") is counted as malformed, not read.
 */
#ifndef MBSBATCH_LOGSCAN_H
#define MBSBATCH_LOGSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOGSCAN_LINE_MAX	8192	/* bytes of a line judged */
#define LOGSCAN_TEXT_MAX	400	/* bytes of a cause's text kept */
#define LOGSCAN_SAMPLES		8192	/* step times kept for the median */
#define LOGSCAN_WARMUP		2	/* first logged iterations left out */

/* A layout as a log shows it; -1 where it does not say. */
enum logscan_dim {
	LD_WORLD, LD_NODES, LD_TP, LD_PP, LD_VPP, LD_CP, LD_EP, LD_ETP,
	LD_DP, LD_EDP, LD_NDIMS
};
extern const char *const logscan_dim_names[LD_NDIMS];	/* "world", ... */

struct logscan_layout {
	int64_t		 v[LD_NDIMS];
};

enum logscan_cause {
	LC_NONE = 0,
	LC_CUDA_OOM,		/* torch.OutOfMemoryError: CUDA out of memory */
	LC_NCCL_TIMEOUT,	/* watchdog timeout, NCCL error */
	LC_NAN,			/* Megatron's check: "Unexpected result nan" */
	LC_TRACEBACK,		/* any other Python exception */
	LC_TIME_LIMIT,		/* slurmstepd: DUE TO TIME LIMIT */
	LC_CANCELLED,		/* slurmstepd: CANCELLED AT (other reasons) */
	LC_NODE_FAILURE,	/* DUE TO NODE FAILURE */
	LC_PREEMPTED,		/* DUE TO PREEMPTION */
	LC_TASK_FAILURE,	/* DUE TO TASK FAILURE, "FAILED (non-zero ...)" */
	LC_HOST_OOM,		/* srun "Out Of Memory", oom_kill events */
	LC_TASK_EXIT,		/* srun "task N: Exited with exit code N", signal */
	LC_SCRIPT_NOT_FOUND,	/* python: can't open file 'X': [Errno 2] ... */
	LC_MODULE_NOT_FOUND,	/* ModuleNotFoundError: No module named 'X' */
	LC_COMMAND_NOT_FOUND,	/* exec: python: not found; execve(): X: ... */
	LC_CONTAINER,		/* pyxis failed; srun without pyxis */
	LC_NCAUSES
};
/* "cuda_oom", "nccl_timeout", ... as --json shows them. */
extern const char *const logscan_cause_names[LC_NCAUSES];

struct logscan_fatal {
	enum logscan_cause kind;
	int64_t		 line;		/* 1-based */
	int64_t		 rank;		/* -1: not known */
	int64_t		 iteration;	/* the last logged before it, or 0 */
	char		 text[LOGSCAN_TEXT_MAX];	/* the line, prefix gone */
	char		 frame[LOGSCAN_TEXT_MAX];	/* traceback's last frame */
	char		 detail[LOGSCAN_TEXT_MAX];	/* what says why: enroot's
							   error for a container */
};

/* Where the iteration figures stand. */
struct logscan_iters {
	int64_t		 logged;	/* iteration lines read */
	int64_t		 last;		/* the last one's number; 0: none */
	int64_t		 prev;		/* the one before; 0: none */
	int64_t		 total;		/* its "/ M": train_iters; 0: none */
	bool		 has_loss;	/* the last line printed "lm loss" */
	int64_t		 line_skipped;	/* the last line's skipped count */
	double		 loss;		/* then its value (may be NaN, inf) */
	bool		 has_first_loss;
	double		 first_loss;
	int64_t		 first_loss_iter;
	double		 step_ms;	/* the last line's, or -1 */
	double		 tflops;	/* the last line's, or -1 */
	double		 tokens_s;	/* the last line's, or -1 */
	double		 lr;		/* the last line's, or -1 */
	double		 grad_norm;	/* the last line's, or -1 */
	int64_t		 gbs;		/* the last line's global batch size,
					   or 0 */
	int64_t		 skipped;	/* sum of "number of skipped iterations" */
	int64_t		 nan;		/* sum of "number of nan iterations" */
	int64_t		 first_nan_line; /* 0: none */
	int64_t		 nonfinite_loss; /* lines whose loss is inf or nan */
	int64_t		 noloss;	/* lines with no loss, none skipped:
					   a NaN average is not printed */
};

/* Samples of one figure, decimated when full: bounded, deterministic. */
struct logscan_samples {
	double		 v[LOGSCAN_SAMPLES];
	size_t		 n;
	int64_t		 seen;		/* offered after the warm-up */
	int64_t		 stride;	/* keep one in STRIDE */
};

enum logscan_source {
	LS_NONE = 0,
	LS_MARKER,		/* mbsbatch: layout: */
	LS_MEGATRON_LM,		/* using world size / arguments dump */
	LS_BRIDGE,		/* > initialized ..., Final configuration */
};

struct logscan {
	/* Reading. */
	char		 line[LOGSCAN_LINE_MAX];
	size_t		 len;		/* bytes of the current line kept */
	bool		 cut;		/* the current line is longer */
	int64_t		 lines;		/* complete lines read */
	uint64_t	 bytes;
	int64_t		 long_lines;	/* lines longer than LINE_MAX */
	int64_t		 nul_bytes;	/* holes' too */
	uint64_t	 hole_bytes;	/* of BYTES: holes, skipped unread */
	int64_t		 recognised;	/* lines of a kind below */
	/* Lines of a known kind whose figures are in no format their
	 * program prints: not read as what they claim to be. */
	int64_t		 malformed;
	int64_t		 malformed_line;	/* the first's; 0: none */
	char		 malformed_what[LOGSCAN_TEXT_MAX]; /* "lm loss: '-0'" */

	/* Iterations. */
	struct logscan_iters it;
	struct logscan_samples step;	/* ms, after the warm-up */
	struct logscan_samples tflops;
	struct logscan_samples tokens;

	/* Memory: the most any line reported, in GiB; -1: none. */
	int64_t		 memory_lines;
	double		 max_allocated_gib;
	double		 max_reserved_gib;
	bool		 memory_bridge;	/* in GB (Bridge), else MB */
	/* Megatron's own estimate: "Theoretical memory footprints: weight
	 * and optimizer=X MB[, activation=Y MB, total=Z MB]"; -1: none. */
	double		 theoretical_gib;
	bool		 theoretical_total; /* Z, else X alone */

	/* Layout: what our marker planned, what Megatron printed. */
	struct logscan_layout marker;
	bool		 has_marker;
	struct logscan_layout used;
	enum logscan_source used_from;
	int64_t		 expected_iters; /* mbsbatch: smoke|train: iterations=N */
	bool		 smoke;
	bool		 bridge;	/* Bridge's lines seen */
	bool		 megatron_lm;	/* Megatron-LM's own lines seen */

	/* Causes. */
	struct logscan_fatal fatal;	/* the first; kind LC_NONE: none */
	int64_t		 causes;	/* fatal lines seen in all */
	int64_t		 survived;	/* tracebacks training went on after */
	/* Runs appended to the same log (a requeued job): each starts with
	 * our layout line; a new run forgets the last one's fatal cause. */
	int64_t		 restarts;

	/* A traceback being read: its rank, last frame. */
	bool		 tb_open;
	bool		 tb_after;	/* its exception read: chained next? */
	bool		 tb_chained;	/* open again, chained */
	bool		 tb_owns;	/* its exception is the fatal cause */
	bool		 tb_ignored;	/* after "Exception ignored in": not
					   a cause (Python's unraisable hook,
					   at exit; the process goes on) */
	bool		 ignored_next;	/* that line read: the next traceback
					   of IGNORED_RANK is one */
	int64_t		 ignored_rank;
	int64_t		 tb_rank;
	int64_t		 tb_line;
	char		 tb_frame[LOGSCAN_TEXT_MAX];
	bool		 yaml_model;	/* inside "model:" of the YAML */
};

void		 logscan_init(struct logscan *);

/* Feed the next LEN bytes of the log (any split: a line may span calls). */
void		 logscan_feed(struct logscan *, const char *, size_t);

/* N bytes of a hole (a sparse file's, never written): what feeding N
 * NUL bytes would do, without them. */
void		 logscan_feed_zeros(struct logscan *, uint64_t);

/* The log ended: judge a last line with no newline. */
void		 logscan_finish(struct logscan *);

/* One whole line, without its newline (the unit tests' entry). */
void		 logscan_line(struct logscan *, const char *, size_t);

/*
 * Strip the rank prefixes of LINE (LEN bytes): srun --label's "N: ",
 * torch's "[rankN]:", torchrun's "[defaultN]:", in any nesting.  Returns
 * where the text starts; *RANK the rank named last, or -1.
 */
const char	*logscan_strip_rank(const char *, size_t *, int64_t *);

/* Do the N bytes at S start with LIT?  Where in them is LIT (NULL: not
 * there)? */
bool		 logscan_starts(const char *, size_t, const char *);
const char	*logscan_find(const char *, size_t, const char *);

/* A + B (both >= 0), at most INT64_MAX. */
int64_t		 logscan_add(int64_t, int64_t);

/* The median of S (sorts S's values in place), or -1 when S is empty;
 * finite when they are. */
double		 logscan_median(struct logscan_samples *);

#endif
