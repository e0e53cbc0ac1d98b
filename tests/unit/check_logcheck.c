/*
 * check_logcheck.c: the log scanner (src/logs/logscan.c) line by line, in
 * chunks of any size, and the verdict on what it read (src/logs/logcheck.c).
 * The lines are those the pinned revisions print (see logscan.h).
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logcheck.h"
#include "logscan.h"
#include "run.h"

static struct logscan *
scan_new(void)
{
	struct logscan	*ls = malloc(sizeof *ls);

	ck_assert_ptr_nonnull(ls);
	logscan_init(ls);
	return ls;
}

static void
line(struct logscan *ls, const char *s)
{
	logscan_line(ls, s, strlen(s));
}

/* Megatron-LM core_v0.19.0 training_log, log_throughput on. */
static const char mlm_iter[] =
    " [2026-12-02 10:10:12.123456] iteration        3/       3 |"
    " consumed samples:           24 | elapsed time per iteration (ms):"
    " 790.6 | throughput per GPU (TFLOP/s/GPU): 120.1 | learning rate:"
    " 1.000000E-04 | global batch size:     8 | lm loss: 1.003808E+01 |"
    " loss scale: 1.0 | grad norm: 3.200 | number of skipped iterations:"
    "   0 | number of nan iterations:   0 |";

/* Bridge: no microseconds in the date; the same keys. */
static const char bridge_iter[] =
    " [2026-12-02 10:10:12] iteration        2/      10 |"
    " consumed samples:           16 | elapsed time per iteration (ms):"
    " 801.3 | learning rate: 1.000000E-04 | global batch size:     8 |"
    " lm loss: 1.022314E+01 | loss scale: 1.0 | grad norm: 3.200 |"
    " number of skipped iterations:   1 | number of nan iterations:   0 |";

START_TEST(test_strip_rank)
{
	static const struct {
		const char	*in, *text;
		int64_t		 rank;
	} t[] = {
		{ "plain", "plain", -1 },
		{ "3: text", "text", 3 },
		{ " 12: text", "text", 12 },
		{ "[rank3]: Traceback", "Traceback", 3 },
		{ "[rank3]:   File \"x.py\"", "  File \"x.py\"", 3 },
		{ "[rank1]:[E1202 10:20:13]", "[E1202 10:20:13]", 1 },
		{ "0: [rank5]: x", "x", 5 },
		{ "[default2]: [d] iteration", " [d] iteration", 2 },
		{ " [2026-12-02] iteration", " [2026-12-02] iteration", -1 },
		{ "12:30 not a label", "12:30 not a label", -1 },
		{ "123456789: too long", "123456789: too long", -1 },
		{ "[rank]: x", "[rank]: x", -1 },
		{ "[rank3] x", "[rank3] x", -1 },
	};
	size_t		 i, n;
	int64_t		 rank;
	const char	*s;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		n = strlen(t[i].in);
		s = logscan_strip_rank(t[i].in, &n, &rank);
		ck_assert_msg(n == strlen(t[i].text) &&
		    memcmp(s, t[i].text, n) == 0, "%s: got '%.*s'", t[i].in,
		    (int)n, s);
		ck_assert_int_eq(rank, t[i].rank);
	}
}
END_TEST

START_TEST(test_iteration_mlm)
{
	struct logscan	*ls = scan_new();

	line(ls, mlm_iter);
	ck_assert_int_eq(ls->it.logged, 1);
	ck_assert_int_eq(ls->it.last, 3);
	ck_assert_int_eq(ls->it.total, 3);
	ck_assert(ls->it.has_loss);
	ck_assert_double_eq_tol(ls->it.loss, 10.03808, 1e-9);
	ck_assert_double_eq_tol(ls->it.step_ms, 790.6, 1e-9);
	ck_assert_double_eq_tol(ls->it.tflops, 120.1, 1e-9);
	ck_assert_double_eq(ls->it.tokens_s, -1);
	ck_assert_double_eq_tol(ls->it.lr, 1e-4, 1e-15);
	ck_assert_double_eq_tol(ls->it.grad_norm, 3.2, 1e-9);
	ck_assert_int_eq(ls->it.gbs, 8);
	ck_assert(ls->megatron_lm && !ls->bridge);
	ck_assert_int_eq(ls->recognised, 1);
	free(ls);
}
END_TEST

START_TEST(test_iteration_bridge)
{
	struct logscan	*ls = scan_new();

	line(ls, bridge_iter);
	ck_assert_int_eq(ls->it.last, 2);
	ck_assert_int_eq(ls->it.total, 10);
	ck_assert_int_eq(ls->it.skipped, 1);
	ck_assert_int_eq(ls->it.gbs, 8);
	ck_assert_double_eq(ls->it.tflops, -1);
	ck_assert(ls->bridge && !ls->megatron_lm);
	/* Megatron-LM's RL steps print tokens per second. */
	line(ls, " [2026-12-02 10:10:12.1] iteration 3/ 10 | lm loss: "
	    "1.000000E+00 | toks/s: 81234 | toks/s/gpu: 10154 |");
	ck_assert_double_eq(ls->it.tokens_s, 81234);
	free(ls);
}
END_TEST

START_TEST(test_iteration_nan)
{
	struct logscan	*ls = scan_new();

	/* NaN: Megatron prints no lm loss (avg >= 0.0 is false). */
	line(ls, " [2026-12-02 10:10:12.1] iteration        2/       3 |"
	    " elapsed time per iteration (ms): 812.4 | loss scale: 1.0 |"
	    " number of skipped iterations:   0 |"
	    " number of nan iterations:   1 |");
	ck_assert(!ls->it.has_loss);
	ck_assert_int_eq(ls->it.nan, 1);
	ck_assert_int_eq(ls->it.noloss, 1);
	ck_assert_int_eq(ls->it.first_nan_line, 1);
	/* inf >= 0.0 is true: printed as INF. */
	line(ls, " [2026-12-02 10:10:13.1] iteration        3/       3 |"
	    " lm loss: INF | number of nan iterations:   0 |");
	ck_assert(ls->it.has_loss);
	ck_assert(isinf(ls->it.loss));
	ck_assert_int_eq(ls->it.nonfinite_loss, 1);
	ck_assert_int_eq(ls->it.first_nan_line, 1);
	/* Counts stop at INT64_MAX. */
	line(ls, " [d] iteration 5/ 5 | number of skipped iterations: "
	    "9223372036854775000 |");
	line(ls, " [d] iteration 6/ 6 | number of skipped iterations: "
	    "9223372036854775000 |");
	ck_assert_int_eq(ls->it.skipped, INT64_MAX);
	/* Skipped iterations print no loss (or 0.0): not a NaN. */
	line(ls, " [2026-12-02 10:10:14.1] iteration        4/       4 |"
	    " loss scale: 1.0 | number of skipped iterations:   1 |"
	    " number of nan iterations:   0 |");
	ck_assert_int_eq(ls->it.noloss, 1);
	free(ls);
}
END_TEST

/*
 * Each figure in its format only (training_log's, pyformat.h): read as
 * strtod() reads it; in another, the line is malformed and not read as an
 * iteration (before, "-0", "-1e308" or a hex float was a finite loss).
 */
START_TEST(test_numbers)
{
	static const struct {
		const char	*field;
		bool		 ok;
	} t[] = {
		{ "lm loss: 1.003808E+01", true },
		{ "lm loss: INF", true },
		{ "lm loss: 0.000000E+00", true },
		{ "lm loss: -0", false },
		{ "lm loss: -0.000000E+00", false },
		{ "lm loss: -1e308", false },
		{ "lm loss: 0x1p3", false },
		{ "lm loss: 1e+400", false },
		{ "lm loss: 1.0", false },
		{ "lm loss: nan", false },
		{ "lm loss: NAN", false },	/* NaN >= 0.0 is false */
		{ "lm loss: 1.5x", false },
		{ "lm loss: 1e", false },
		{ "elapsed time per iteration (ms): 790.6", true },
		{ "elapsed time per iteration (ms): 1e308", false },
		{ "elapsed time per iteration (ms): inf", false },
		{ "elapsed time per iteration (ms): 790.60", false },
		{ "throughput per GPU (TFLOP/s/GPU): 120.1", true },
		{ "learning rate: 1.000000E-04", true },
		{ "learning rate: 0.0001", false },
		{ "grad norm: 3.200", true },
		{ "grad norm: nan", true },
		{ "grad norm: 3.2", false },
		{ "number of skipped iterations:   0", true },
		{ "number of skipped iterations:  -1", false },
		{ "number of nan iterations: 1.0", false },
		{ "global batch size:  1024", true },
		{ "global batch size: 8.0", false },
		{ "global batch size:    -8", false },
		{ "global batch size: 8x", false },
		{ "toks/s: 81234", true },
		{ "toks/s: 81234.5", false },
		{ "some other key: -1e308", true },
	};
	struct logscan	*ls = scan_new();
	char		 buf[256];
	size_t		 i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		logscan_init(ls);
		snprintf(buf, sizeof buf, " [d] iteration 1/ 1 | %s |",
		    t[i].field);
		line(ls, buf);
		ck_assert_msg(ls->it.logged == (t[i].ok ? 1 : 0) &&
		    ls->malformed == (t[i].ok ? 0 : 1) && ls->recognised == 1,
		    "%s: logged %lld, malformed %lld", t[i].field,
		    (long long)ls->it.logged, (long long)ls->malformed);
		if (!t[i].ok) {
			ck_assert_int_eq(ls->malformed_line, 1);
			ck_assert_msg(strchr(ls->malformed_what, '\'') != NULL,
			    "%s: %s", t[i].field, ls->malformed_what);
		}
	}
	logscan_init(ls);
	line(ls, " [d] iteration 1/ 1 | lm loss: -1e308 | number of nan "
	    "iterations:   0 |");
	ck_assert_str_eq(ls->malformed_what, "lm loss: '-1e308'");
	ck_assert(!ls->it.has_loss);
	ck_assert_int_eq(ls->it.noloss, 0);
	free(ls);
}
END_TEST

/* The iteration counts from 1 to train_iters: 0/0 and 5/3 are not
 * Megatron's (before, "iteration 0/0" passed). */
START_TEST(test_iteration_range)
{
	struct logcheck	*lc = malloc(sizeof *lc);

	ck_assert_ptr_nonnull(lc);
	logscan_init(&lc->scan);
	line(&lc->scan, " [d] iteration        0/       0 | lm loss: "
	    "1.000000E+00 |");
	line(&lc->scan, " [d] iteration 5/ 3 | lm loss: 1.000000E+00 |");
	ck_assert_int_eq(lc->scan.it.logged, 0);
	ck_assert_int_eq(lc->scan.malformed, 2);
	ck_assert_str_eq(lc->scan.malformed_what, "iteration: '0/       0'");
	logscan_finish(&lc->scan);
	ck_assert_ptr_null(logcheck_judge(lc, NULL, NULL));
	ck_assert_int_eq(lc->status, 3);
	ck_assert_str_eq(lc->reasons[0], "no iteration logged");
	ck_assert_int_eq(lc->nreasons, 2);
	ck_assert_str_eq(lc->reasons[1], "2 lines with a figure Megatron does "
	    "not print (first at line 1, iteration: '0/       0')");
	free(lc);
}
END_TEST

/* Medians of the largest step times stay finite. */
START_TEST(test_median_huge)
{
	struct logscan	*ls = scan_new();
	char		 buf[512];
	int		 i;

	for (i = 1; i <= 4; i++) {
		snprintf(buf, sizeof buf, " [d] iteration %d/ 4 | elapsed time "
		    "per iteration (ms): %.1f | lm loss: 1.000000E+00 |", i,
		    DBL_MAX);
		line(ls, buf);
	}
	ck_assert_int_eq(ls->step.n, 2);
	ck_assert(logscan_median(&ls->step) == DBL_MAX);
	free(ls);
}
END_TEST

START_TEST(test_not_iteration)
{
	static const char *const t[] = {
		" [2026-12-02] iteration x/3 |",
		" [2026-12-02] iteration 3 |",
		" [2026-12-02] iteration 3/ |",
		" [2026-12-02] iteration 3/3",
		"iteration 3/3 |",
		" a long prefix of more than sixty-four bytes before it ............ ] iteration 3/3 |",
		"",
	};
	struct logscan	*ls = scan_new();
	size_t		 i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		line(ls, t[i]);
	ck_assert_int_eq(ls->it.logged, 0);
	ck_assert_int_eq(ls->recognised, 0);
	free(ls);
}
END_TEST

START_TEST(test_memory)
{
	struct logscan	*ls = scan_new();

	line(ls, "[Rank 0] (after 1 iterations) memory (MB) | allocated: "
	    "6543.21 | max allocated: 10240.00 | reserved: 11200.00 | "
	    "max reserved: 12288.00");
	ck_assert_int_eq(ls->memory_lines, 1);
	ck_assert_double_eq_tol(ls->max_allocated_gib, 10, 1e-9);
	ck_assert_double_eq_tol(ls->max_reserved_gib, 12, 1e-9);
	/* Bridge: 10^9 bytes; the larger wins. */
	line(ls, "[Rank 2] (after 2 iterations) memory (GB) | "
	    "mem-allocated-gigabytes: 6.86 | mem-max-allocated-gigabytes: "
	    "21.474836 | mem-max-reserved-gigabytes: 1.0 | "
	    "mem-alloc-retires: 0");
	ck_assert_double_eq_tol(ls->max_allocated_gib, 21.474836e9 /
	    1073741824.0, 1e-9);
	ck_assert_double_eq_tol(ls->max_reserved_gib, 12, 1e-9);
	ck_assert(ls->memory_bridge);
	/* Megatron's own estimate: the total, else weights alone. */
	line(ls, "Theoretical memory footprints: weight and optimizer="
	    "6656.51 MB");
	ck_assert_double_eq_tol(ls->theoretical_gib, 6656.51 / 1024, 1e-9);
	ck_assert(!ls->theoretical_total);
	line(ls, "Theoretical memory footprints: weight and optimizer="
	    "6656.51 MB, activation=4503.14 MB, total=11264.00 MB");
	ck_assert_double_eq_tol(ls->theoretical_gib, 11, 1e-9);
	ck_assert(ls->theoretical_total);
	free(ls);
}
END_TEST

START_TEST(test_layout_mlm)
{
	struct logscan	*ls = scan_new();

	line(ls, "using world size: 16, data-parallel size: 2, "
	    "context-parallel size: 2, hierarchical context-parallel sizes: "
	    "None, tensor-model-parallel size: 2, "
	    "pipeline-model-parallel size: 2");
	ck_assert_int_eq(ls->used.v[LD_WORLD], 16);
	ck_assert_int_eq(ls->used.v[LD_DP], 2);
	ck_assert_int_eq(ls->used.v[LD_CP], 2);
	ck_assert_int_eq(ls->used.v[LD_TP], 2);
	ck_assert_int_eq(ls->used.v[LD_PP], 2);
	line(ls, "  expert_model_parallel_size ...................... 4");
	line(ls, "  virtual_pipeline_model_parallel_size ............ None");
	line(ls, "  tensor_model_parallel_size_x .................... 8");
	line(ls, "  expert_tensor_parallel_size ..................... 1");
	ck_assert_int_eq(ls->used.v[LD_EP], 4);
	ck_assert_int_eq(ls->used.v[LD_VPP], 1);
	ck_assert_int_eq(ls->used.v[LD_TP], 2);
	ck_assert_int_eq(ls->used.v[LD_ETP], 1);
	ck_assert(ls->megatron_lm);
	free(ls);
}
END_TEST

START_TEST(test_layout_bridge)
{
	struct logscan	*ls = scan_new();

	/* YAML keys count only in the model: section. */
	line(ls, "  tensor_model_parallel_size: 8");
	ck_assert_int_eq(ls->used.v[LD_TP], -1);
	line(ls, "model:");
	line(ls, "  tensor_model_parallel_size: 4");
	line(ls, "  virtual_pipeline_model_parallel_size: null");
	line(ls, "  expert_tensor_parallel_size: null");
	line(ls, "train:");
	line(ls, "  context_parallel_size: 8");
	ck_assert_int_eq(ls->used.v[LD_TP], 4);
	ck_assert_int_eq(ls->used.v[LD_VPP], 1);
	ck_assert_int_eq(ls->used.v[LD_ETP], -1);
	ck_assert_int_eq(ls->used.v[LD_CP], -1);
	ck_assert(ls->bridge);
	line(ls, "> initialized pipeline model parallel with size 2");
	ck_assert_int_eq(ls->used.v[LD_PP], 2);
	line(ls, "> initialized HyperCommGrid with tp=2, pp=4, cp=1, dp=8");
	ck_assert_int_eq(ls->used.v[LD_TP], 2);
	ck_assert_int_eq(ls->used.v[LD_PP], 4);
	ck_assert_int_eq(ls->used.v[LD_DP], 8);
	free(ls);
}
END_TEST

START_TEST(test_marker)
{
	struct logscan	*ls = scan_new();

	line(ls, "mbsbatch: layout: world=8 nodes=2 tp=2 pp=2 vpp=1 cp=1 "
	    "ep=1 etp=1 dp=2 edp=4");
	line(ls, "mbsbatch: smoke: iterations=3");
	ck_assert(ls->has_marker);
	ck_assert_int_eq(ls->marker.v[LD_WORLD], 8);
	ck_assert_int_eq(ls->marker.v[LD_NODES], 2);
	ck_assert_int_eq(ls->marker.v[LD_EDP], 4);
	ck_assert_int_eq(ls->expected_iters, 3);
	ck_assert(ls->smoke);
	line(ls, "mbsbatch: train: iterations=x");
	ck_assert_int_eq(ls->expected_iters, 3);
	line(ls, "mbsbatch: train: iterations=500");
	ck_assert_int_eq(ls->expected_iters, 500);
	ck_assert(!ls->smoke);
	ck_assert_int_eq(ls->restarts, 0);
	/* Requeued: the node failed, the next run appends and passes. */
	line(ls, mlm_iter);
	line(ls, "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT T DUE TO "
	    "NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***");
	ck_assert_int_eq(ls->fatal.kind, LC_NODE_FAILURE);
	line(ls, "mbsbatch: layout: world=8 nodes=2 tp=2 pp=2 vpp=1 cp=1 "
	    "ep=1 etp=1 dp=2 edp=4");
	ck_assert_int_eq(ls->restarts, 1);
	ck_assert_int_eq(ls->fatal.kind, LC_NONE);
	free(ls);
}
END_TEST

/* Each Slurm line: its cause. */
START_TEST(test_slurm)
{
	static const struct {
		const char		*line;
		enum logscan_cause	 kind;
		int64_t			 rank;
	} t[] = {
		{ "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT "
		  "2026-12-02T10:00:00 DUE TO TIME LIMIT ***",
		  LC_TIME_LIMIT, -1 },
		{ "slurmstepd: error: *** STEP 42.0 ON n1 CANCELLED AT "
		  "2026-12-02T10:00:00 DUE TO TIME LIMIT ***",
		  LC_TIME_LIMIT, -1 },
		{ "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT "
		  "2026-12-02T10:00:00 ***", LC_CANCELLED, -1 },
		{ "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT "
		  "2026-12-02T10:00:00 DUE to SIGNAL Terminated ***",
		  LC_CANCELLED, -1 },
		{ "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT "
		  "2026-12-02T10:00:00 DUE TO TASK FAILURE ***",
		  LC_TASK_FAILURE, -1 },
		{ "slurmstepd: error: *** JOB 42 ON n1 FAILED (non-zero exit "
		  "code or other failure mode) ***", LC_TASK_FAILURE, -1 },
		{ "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT T DUE TO "
		  "NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
		  LC_NODE_FAILURE, -1 },
		{ "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT T DUE TO "
		  "PREEMPTION ***", LC_PREEMPTED, -1 },
		{ "slurmstepd-n1: error: *** JOB 42 ON n1 CANCELLED AT T "
		  "DUE TO JOB REQUEUE ***", LC_CANCELLED, -1 },
		{ "slurmstepd: error: Detected 1 oom_kill event in "
		  "StepId=42.0. Some of the step tasks have been OOM Killed.",
		  LC_HOST_OOM, -1 },
		{ "srun: error: n1: task 3: Exited with exit code 1",
		  LC_TASK_EXIT, 3 },
		{ "srun: error: n1: tasks 4-7: Killed", LC_TASK_EXIT, 4 },
		{ "srun: error: n1: task 2: Out Of Memory", LC_HOST_OOM, 2 },
		/* From 25.05 on, the log's time for slurmstepd's name
		 * (recorded on 25.11.7). */
		{ "[2026-12-06T20:53:30.007] error: *** JOB 7 ON mbsnode0 "
		  "CANCELLED AT 2026-12-06T20:53:30 DUE TO TIME LIMIT ***",
		  LC_TIME_LIMIT, -1 },
		{ "[2026-12-06T20:52:14.963] error: *** JOB 8 ON mbsnode0 "
		  "CANCELLED AT 2026-12-06T20:52:14 DUE to SIGNAL Terminated ***",
		  LC_CANCELLED, -1 },
		{ "[2026-12-06T20:51:32.263] error: *** STEP 3.0 ON mbsnode0 "
		  "CANCELLED AT 2026-12-06T20:51:32 DUE TO TASK FAILURE ***",
		  LC_TASK_FAILURE, -1 },
		{ "[2026-12-06T20:51:32.188] error: execve(): torchrun: No such "
		  "file or directory", LC_COMMAND_NOT_FOUND, -1 },
		{ "[2026-12-06T20:51:32.188] error: Detected 1 oom_kill event in "
		  "StepId=42.0.", LC_HOST_OOM, -1 },
		{ "[2026-12-02 10:10:12] error: *** another program's line "
		  "***", LC_NONE, -1 },
		{ "[2026-12-06T20:53:30.007] info: *** JOB 7 CANCELLED AT ***",
		  LC_NONE, -1 },
		{ "slurmstepd: error: *** REASON: x ***", LC_NONE, -1 },
		{ "srun: error: Unable to allocate resources", LC_NONE, -1 },
		{ "slurmstepd: info: *** JOB 42 CANCELLED AT ***", LC_NONE,
		  -1 },
	};
	struct logscan	*ls = scan_new();
	size_t		 i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		logscan_init(ls);
		line(ls, t[i].line);
		ck_assert_msg(ls->fatal.kind == t[i].kind, "%s: got %s",
		    t[i].line, logscan_cause_names[ls->fatal.kind]);
		if (t[i].kind != LC_NONE)
			ck_assert_int_eq(ls->fatal.rank, t[i].rank);
	}
	free(ls);
}
END_TEST

START_TEST(test_traceback)
{
	struct logscan	*ls = scan_new();

	line(ls, "[rank3]: Traceback (most recent call last):");
	line(ls, "[rank3]:   File \"train.py\", line 10, in <module>");
	line(ls, "[rank3]:     main()");
	/* Another rank's lines do not end rank 3's traceback. */
	line(ls, "[rank1]: some warning");
	line(ls, "[rank1]: Traceback (most recent call last):");
	line(ls, "[rank3]:   File \"torch/nn/functional.py\", line 2146, "
	    "in linear");
	line(ls, "[rank3]:     ^^^^");
	line(ls, "[rank3]: torch.OutOfMemoryError: CUDA out of memory. "
	    "Tried to allocate 2.00 GiB.");
	ck_assert_int_eq(ls->fatal.kind, LC_CUDA_OOM);
	ck_assert_int_eq(ls->fatal.rank, 3);
	ck_assert_int_eq(ls->fatal.line, 8);
	ck_assert_str_eq(ls->fatal.frame, "File \"torch/nn/functional.py\", "
	    "line 2146, in linear");
	ck_assert_str_eq(ls->fatal.text, "torch.OutOfMemoryError: CUDA out "
	    "of memory. Tried to allocate 2.00 GiB.");
	/* Later causes are counted, not kept. */
	line(ls, "srun: error: n1: task 3: Exited with exit code 1");
	ck_assert_int_eq(ls->fatal.kind, LC_CUDA_OOM);
	ck_assert_int_eq(ls->causes, 2);
	free(ls);
}
END_TEST

START_TEST(test_traceback_kinds)
{
	struct logscan	*ls = scan_new();

	line(ls, "Traceback (most recent call last):");
	line(ls, "  File \"a.py\", line 1, in f");
	line(ls, "torch.distributed.DistBackendError: NCCL error in: x");
	ck_assert_int_eq(ls->fatal.kind, LC_NCCL_TIMEOUT);
	logscan_init(ls);
	line(ls, "Traceback (most recent call last):");
	line(ls, "RuntimeError: Rank 0, node n1, device 0, iteration 2: "
	    "Unexpected result nan (message='found NaN in local forward loss "
	    "calculation')");
	ck_assert_int_eq(ls->fatal.kind, LC_NAN);
	logscan_init(ls);
	line(ls, "Traceback (most recent call last):");
	line(ls, "  File \"a.py\", line 1, in f");
	line(ls, "ValueError: bad");
	ck_assert_int_eq(ls->fatal.kind, LC_TRACEBACK);
	ck_assert_int_eq(ls->fatal.rank, -1);
	/* A chain: the last exception is the cause. */
	logscan_init(ls);
	line(ls, "Traceback (most recent call last):");
	line(ls, "  File \"a.py\", line 1, in f");
	line(ls, "KeyError: 'x'");
	line(ls, "");
	line(ls, "During handling of the above exception, another exception "
	    "occurred:");
	line(ls, "");
	line(ls, "Traceback (most recent call last):");
	line(ls, "  File \"b.py\", line 2, in g");
	line(ls, "torch.OutOfMemoryError: CUDA out of memory.");
	line(ls, "srun: error: n1: task 0: Exited with exit code 1");
	ck_assert_int_eq(ls->fatal.kind, LC_CUDA_OOM);
	ck_assert_int_eq(ls->fatal.line, 9);
	ck_assert_str_eq(ls->fatal.frame, "File \"b.py\", line 2, in g");
	ck_assert_int_eq(ls->causes, 3);
	/* Not a chain: the first stays. */
	logscan_init(ls);
	line(ls, "Traceback (most recent call last):");
	line(ls, "ValueError: first");
	line(ls, "Traceback (most recent call last):");
	line(ls, "ValueError: second");
	ck_assert_str_eq(ls->fatal.text, "ValueError: first");
	logscan_init(ls);
	line(ls, "Traceback (most recent call last):");
	line(ls, "  File \"a.py\", line 1, in f");
	line(ls, "ValueError: bad");
	/* Training went on: not fatal. */
	line(ls, mlm_iter);
	ck_assert_int_eq(ls->fatal.kind, LC_NONE);
	ck_assert_int_eq(ls->survived, 1);
	logscan_init(ls);
	line(ls, "[rank1]:[E1202 10:20:13.4 ProcessGroupNCCL.cpp:632] "
	    "[Rank 1] Watchdog caught collective operation timeout: "
	    "WorkNCCL(SeqNum=42, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
	    "Timeout(ms)=600000) ran for 600043 milliseconds before timing "
	    "out.");
	ck_assert_int_eq(ls->fatal.kind, LC_NCCL_TIMEOUT);
	ck_assert_int_eq(ls->fatal.rank, 1);
	logscan_init(ls);
	line(ls, "[E1202 10:20:13.4 ProcessGroupNCCL.cpp:1595] [PG ID 0 PG "
	    "GUID 0(default_pg) Rank 3] Process group watchdog thread "
	    "terminated with exception: NCCL error: unhandled system error");
	ck_assert_int_eq(ls->fatal.kind, LC_NCCL_TIMEOUT);
	logscan_init(ls);
	line(ls, "[W1202 10:20:13.4 ProcessGroupNCCL.cpp:1595] NCCL error "
	    "was a warning");
	ck_assert_int_eq(ls->fatal.kind, LC_NONE);
	/* An OOM not inside a traceback. */
	logscan_init(ls);
	line(ls, "2: torch.cuda.OutOfMemoryError: CUDA out of memory.");
	ck_assert_int_eq(ls->fatal.kind, LC_CUDA_OOM);
	ck_assert_int_eq(ls->fatal.rank, 2);
	free(ls);
}
END_TEST

static struct logcheck *judged(const char *, const struct logcheck_opts *);

/*
 * What stops a program before it runs, each line as its program prints it
 * (recorded on a 22.05 cluster unless said): the cause, not srun's
 * "Exited with exit code" that follows (or comes first).
 */
START_TEST(test_setup_causes)
{
	static const struct {
		const char		*line;
		enum logscan_cause	 kind;
	} t[] = {
		{ "python: can't open file '/opt/Megatron-Bridge/scripts/"
		  "training/run_recipe.py': [Errno 2] No such file or directory",
		  LC_SCRIPT_NOT_FOUND },
		{ "/usr/bin/python3.12: can't open file \"/o'k/x.py\": [Errno "
		  "13] Permission denied", LC_SCRIPT_NOT_FOUND },
		{ "0: python: can't open file 'x.py': [Errno 2] No such file or "
		  "directory", LC_SCRIPT_NOT_FOUND },
		{ "/root/.pyenv/versions/3.12.1/bin/python3: can't find "
		  "'__main__' module in '/tmp'", LC_SCRIPT_NOT_FOUND },
		{ "python: '/x' is a directory, cannot continue",
		  LC_SCRIPT_NOT_FOUND },
		{ "ModuleNotFoundError: No module named 'megatron'",
		  LC_MODULE_NOT_FOUND },
		{ "/usr/bin/python3: Error while finding module specification "
		  "for 'torch.distributed.run' (ModuleNotFoundError: No module "
		  "named 'torch')", LC_MODULE_NOT_FOUND },
		{ "/usr/bin/python3: No module named torch", LC_MODULE_NOT_FOUND },
		{ "mbsbatch-task: line 1: exec: python: not found",
		  LC_COMMAND_NOT_FOUND },
		{ "mbsbatch-task: line 1: exec: my-train: not found",
		  LC_COMMAND_NOT_FOUND },
		{ "slurmstepd-mbsnode1: error: execve(): torchrun: No such file "
		  "or directory", LC_COMMAND_NOT_FOUND },
		{ "slurmstepd: error: execve(): bad interpreter(/usr/bin/python3"
		  "): No such file or directory", LC_COMMAND_NOT_FOUND },
		{ "bash: line 1: torchrun: command not found",
		  LC_COMMAND_NOT_FOUND },
		{ "/var/spool/slurmd/job00012/slurm_script: line 40: srun: "
		  "command not found", LC_COMMAND_NOT_FOUND },
		{ "sh: 1: python3: not found", LC_COMMAND_NOT_FOUND },
		{ "bash: line 1: /opt/venv/bin/python: No such file or "
		  "directory", LC_COMMAND_NOT_FOUND },
		{ "env: 'python': No such file or directory",
		  LC_COMMAND_NOT_FOUND },
		{ "env: \xe2\x80\x98python\xe2\x80\x99: No such file or "
		  "directory", LC_COMMAND_NOT_FOUND },
		{ "srun: unrecognized option '--container-image=nvcr.io#nvidia/"
		  "nemo:25.11'", LC_CONTAINER },
		{ "slurmstepd: error: pyxis: failed to import docker image: "
		  "nvcr.io#nvidia/nemo:99.99", LC_CONTAINER },
		{ "slurmstepd-n1: error: pyxis: container start failed with "
		  "error code: 1", LC_CONTAINER },
		/* A script's own missing command is no cause: not a
		 * launcher's. */
		{ "/var/spool/slurmd/job00012/slurm_script: line 3: module: "
		  "command not found", LC_NONE },
		{ "sh: 1: nvidia-smi: not found", LC_NONE },
		{ "srun: unrecognized option '--foo'", LC_NONE },
		{ "pyxis: importing docker image: nvcr.io#nvidia/nemo:25.11",
		  LC_NONE },
		{ "WARNING: can't open file 'x': [Errno 2] is a warning",
		  LC_NONE },
		{ "python3: can't open file", LC_NONE },
		{ "Error: No module named in a sentence", LC_NONE },
	};
	struct logscan	*ls = scan_new();
	size_t		 i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		logscan_init(ls);
		line(ls, t[i].line);
		ck_assert_msg(ls->fatal.kind == t[i].kind, "%s: got %s",
		    t[i].line, logscan_cause_names[ls->fatal.kind]);
	}
	free(ls);
}
END_TEST

/* A consequence kept first gives way to the setup cause after it; a
 * setup cause does not to a consequence, nor a real cause to a setup
 * one. */
START_TEST(test_cause_order)
{
	struct logscan	*ls = scan_new();

	line(ls, "srun: error: mbsnode0: tasks 0-1: Exited with exit code 2");
	line(ls, "slurmstepd-mbsnode0: error: *** STEP 1.0 ON mbsnode0 "
	    "CANCELLED AT 2026-12-06T20:05:22 ***");
	ck_assert_int_eq(ls->fatal.kind, LC_TASK_EXIT);
	line(ls, "python: can't open file 'x.py': [Errno 2] No such file or "
	    "directory");
	ck_assert_int_eq(ls->fatal.kind, LC_SCRIPT_NOT_FOUND);
	ck_assert_int_eq(ls->fatal.line, 3);
	line(ls, "srun: error: mbsnode1: tasks 2-3: Exited with exit code 2");
	ck_assert_int_eq(ls->fatal.kind, LC_SCRIPT_NOT_FOUND);
	ck_assert_int_eq(ls->causes, 4);
	/* A CUDA OOM first stays. */
	logscan_init(ls);
	line(ls, "torch.OutOfMemoryError: CUDA out of memory.");
	line(ls, "bash: line 1: torchrun: command not found");
	ck_assert_int_eq(ls->fatal.kind, LC_CUDA_OOM);
	/* A time limit is no consequence. */
	logscan_init(ls);
	line(ls, "slurmstepd: error: *** JOB 42 ON n1 CANCELLED AT T DUE TO "
	    "TIME LIMIT ***");
	line(ls, "ModuleNotFoundError: No module named 'megatron'");
	ck_assert_int_eq(ls->fatal.kind, LC_TIME_LIMIT);
	/* pyxis: enroot's error line says why. */
	logscan_init(ls);
	line(ls, "slurmstepd: error: pyxis: failed to import docker image: x");
	line(ls, "slurmstepd: error: pyxis: printing enroot log file:");
	line(ls, "slurmstepd: error: pyxis:     [INFO] Querying registry");
	line(ls, "slurmstepd: error: pyxis:     [ERROR] URL https://x returned "
	    "error code: 404 Not Found");
	line(ls, "slurmstepd: error: pyxis:     [ERROR] a second");
	ck_assert_int_eq(ls->fatal.kind, LC_CONTAINER);
	ck_assert_str_eq(ls->fatal.detail, "[ERROR] URL https://x returned "
	    "error code: 404 Not Found");
	free(ls);
}
END_TEST

/* A setup failure training went on after, or that came once the run was
 * done, fails nothing. */
START_TEST(test_setup_survived)
{
	struct logcheck	*lc;

	lc = judged("mbsbatch: smoke: iterations=2\n"
	    "bash: line 1: python: command not found\n"
	    " [d] iteration 1/ 2 | lm loss: 1.000000E+00 |\n"
	    " [d] iteration 2/ 2 | lm loss: 1.000000E+00 |\n", NULL);
	ck_assert_int_eq(lc->status, 0);
	ck_assert_int_eq(lc->scan.survived, 1);
	free(lc);
	lc = judged("mbsbatch: smoke: iterations=2\n"
	    " [d] iteration 1/ 2 | lm loss: 1.000000E+00 |\n"
	    " [d] iteration 2/ 2 | lm loss: 1.000000E+00 |\n"
	    "mbsbatch-task: line 1: exec: python: not found\n", NULL);
	ck_assert_int_eq(lc->status, 0);
	ck_assert(lc->after_end);
	free(lc);
	/* Before any iteration: the cause and its hint; no layout reason
	 * for a program that never ran. */
	lc = judged("mbsbatch: smoke: iterations=3\n"
	    "mbsbatch: layout: world=4 nodes=2 tp=1 pp=1 vpp=1 cp=1 ep=1 "
	    "etp=1 dp=4 edp=4\n"
	    "slurmstepd-n1: error: execve(): torchrun: No such file or "
	    "directory\n"
	    "srun: error: n0: task 0: Exited with exit code 2\n", NULL);
	ck_assert_int_eq(lc->status, 3);
	ck_assert_int_eq(lc->nreasons, 2);
	ck_assert_str_eq(lc->reasons[0], "command_not_found at line 3");
	ck_assert_str_eq(lc->reasons[1], "no iteration logged");
	ck_assert_msg(strstr(lc->hint, "cannot run 'torchrun'") != NULL,
	    "%s", lc->hint);
	free(lc);
}
END_TEST

/* A hole reads as its NUL bytes, fed or not. */
START_TEST(test_feed_zeros)
{
	static const char	 log[] = "mbsbatch: smoke: iterations=1\n"
	    " [d] iteration 1/ 1 | lm loss: 1.000000E+00 |\n";
	struct logscan		*a = scan_new(), *b = scan_new();
	static char		 zeros[3 * LOGSCAN_LINE_MAX];
	size_t			 holes[] = { 0, 1, 7, LOGSCAN_LINE_MAX - 1,
	    LOGSCAN_LINE_MAX, LOGSCAN_LINE_MAX + 1, sizeof zeros };
	size_t			 i, cut;

	for (i = 0; i < sizeof holes / sizeof holes[0]; i++)
		for (cut = 0; cut < sizeof log - 1; cut += 7) {
			logscan_init(a);
			logscan_init(b);
			logscan_feed(a, log, cut);
			logscan_feed(a, zeros, holes[i]);
			logscan_feed(a, log + cut, sizeof log - 1 - cut);
			logscan_finish(a);
			logscan_feed(b, log, cut);
			logscan_feed_zeros(b, holes[i]);
			logscan_feed(b, log + cut, sizeof log - 1 - cut);
			logscan_finish(b);
			ck_assert_int_eq(a->lines, b->lines);
			ck_assert_int_eq(a->it.logged, b->it.logged);
			ck_assert_int_eq(a->long_lines, b->long_lines);
			ck_assert_int_eq(a->nul_bytes, b->nul_bytes);
			ck_assert(a->bytes == b->bytes);
			ck_assert(b->hole_bytes == holes[i]);
			ck_assert_int_eq(a->recognised, b->recognised);
		}
	free(a);
	free(b);
}
END_TEST

/* The same log fed whole and in chunks of 1..17 bytes reads the same. */
START_TEST(test_chunks)
{
	char		 log[4096];
	struct logscan	*a = scan_new(), *b = scan_new();
	size_t		 n, off, step;

	n = (size_t)snprintf(log, sizeof log, "mbsbatch: smoke: "
	    "iterations=3\r\n%s\n3: %s\n[Rank 0] (after 1 iterations) "
	    "memory (MB) | max allocated: 1024.00\nslurmstepd: error: *** "
	    "JOB 1 ON n CANCELLED AT T ***\n%s", bridge_iter, mlm_iter,
	    mlm_iter);
	logscan_feed(a, log, n);
	logscan_finish(a);
	for (step = 1; step <= 17; step++) {
		logscan_init(b);
		for (off = 0; off < n; off += step)
			logscan_feed(b, log + off, off + step < n ? step :
			    n - off);
		logscan_finish(b);
		ck_assert_int_eq(b->lines, 6);
		ck_assert_int_eq(b->lines, a->lines);
		ck_assert_int_eq(b->it.logged, 3);
		ck_assert_int_eq(b->expected_iters, 3);
		ck_assert_int_eq(b->memory_lines, 1);
		ck_assert_int_eq(b->fatal.kind, LC_CANCELLED);
		ck_assert_int_eq(b->fatal.line, 5);
		ck_assert(b->bytes == n);
	}
	free(a);
	free(b);
}
END_TEST

/* A line longer than the buffer, split over feeds or not: judged by its
 * first LOGSCAN_LINE_MAX bytes, and the next line is whole. */
START_TEST(test_long_line)
{
	struct logscan	*ls = scan_new();
	size_t		 big = 3 * LOGSCAN_LINE_MAX + 5, i;
	char		*junk = malloc(big);

	ck_assert_ptr_nonnull(junk);
	memset(junk, 'x', big);
	/* An iteration line past the bytes judged: not seen. */
	memcpy(junk + LOGSCAN_LINE_MAX + 10, mlm_iter, sizeof mlm_iter - 1);
	for (i = 0; i < big; i += 1000)
		logscan_feed(ls, junk + i, big - i < 1000 ? big - i : 1000);
	logscan_feed(ls, "\n", 1);
	logscan_feed(ls, mlm_iter, sizeof mlm_iter - 1);
	logscan_feed(ls, "\n", 1);
	/* In one buffer too. */
	junk[big - 1] = '\n';
	logscan_feed(ls, junk, big);
	logscan_finish(ls);
	ck_assert_int_eq(ls->lines, 3);
	ck_assert_int_eq(ls->long_lines, 2);
	ck_assert_int_eq(ls->it.logged, 1);
	ck_assert_double_eq_tol(ls->it.loss, 10.03808, 1e-9);
	free(junk);
	free(ls);
}
END_TEST

START_TEST(test_samples)
{
	struct logscan	*ls = scan_new();
	char		 buf[256];
	int		 i;

	/* 100000 iterations of 100, 101, 102 ms: bounded, median 101. */
	for (i = 1; i <= 100000; i++) {
		snprintf(buf, sizeof buf, " [d] iteration %d/100000 | "
		    "elapsed time per iteration (ms): %d.0 | lm loss: "
		    "1.000000E+00 |",
		    i, 100 + i % 3);
		line(ls, buf);
	}
	ck_assert_int_le(ls->step.n, LOGSCAN_SAMPLES);
	ck_assert_int_ge(ls->step.n, LOGSCAN_SAMPLES / 2);
	ck_assert_int_eq(ls->step.seen, 100000 - LOGSCAN_WARMUP);
	ck_assert_double_eq(logscan_median(&ls->step), 101);
	logscan_init(ls);
	ck_assert_double_eq(logscan_median(&ls->step), -1);
	free(ls);
}
END_TEST

static struct logcheck *
judged(const char *log, const struct logcheck_opts *o)
{
	struct logcheck	*lc = malloc(sizeof *lc);
	struct error	*err;

	ck_assert_ptr_nonnull(lc);
	logscan_init(&lc->scan);
	logscan_feed(&lc->scan, log, strlen(log));
	logscan_finish(&lc->scan);
	err = logcheck_judge(lc, NULL, o);
	ck_assert_ptr_null(err);
	return lc;
}

START_TEST(test_judge)
{
	struct logcheck_opts	 o;
	struct logcheck		*lc;

	/* Dense: Megatron's ETP (= TP) is not held against ours (1). */
	lc = judged("mbsbatch: layout: world=4 nodes=1 tp=2 pp=2 vpp=1 cp=1 "
	    "ep=1 etp=1 dp=1 edp=2\n"
	    "  expert_tensor_parallel_size ..................... 2\n"
	    "  pipeline_model_parallel_size .................... 2\n"
	    "  tensor_model_parallel_size ...................... 2\n"
	    " [d] iteration 10/ 30 | lm loss: 1.000000E+00 |\n"
	    " [d] iteration 20/ 30 | lm loss: 1.000000E+00 |\n", NULL);
	ck_assert_str_eq(lc->layout, "ok");
	/* Logged every 10: 20 of 30 is short. */
	ck_assert_int_eq(lc->status, 3);
	ck_assert_str_eq(lc->reasons[0], "last iteration 20, expected 30");
	free(lc);
	/* One size alone is no layout: TP and PP are both printed. */
	lc = judged("mbsbatch: layout: world=4 nodes=1 tp=2 pp=2 vpp=1 cp=1 "
	    "ep=1 etp=1 dp=1 edp=2\n"
	    "  data_parallel_size .............................. 1\n"
	    " [d] iteration 3/ 3 | lm loss: 1.000000E+00 |\n", NULL);
	ck_assert_str_eq(lc->layout, "unknown");
	ck_assert_int_eq(lc->status, 3);
	free(lc);
	/* Logged every 10, train_iters 25: 20 is the last logged. */
	memset(&o, 0, sizeof o);
	o.iterations = 25;
	lc = judged(" [d] iteration 10/ 25 | lm loss: 1.000000E+00 |\n"
	    " [d] iteration 20/ 25 | lm loss: 1.000000E+00 |\n", &o);
	ck_assert_int_eq(lc->status, 0);
	ck_assert_str_eq(lc->layout, "unchecked");
	ck_assert_str_eq(lc->expected_from, "option");
	free(lc);
	/* MoE: ETP compared; DP from the world. */
	lc = judged("mbsbatch: layout: world=8 nodes=1 tp=1 pp=1 vpp=1 cp=1 "
	    "ep=4 etp=1 dp=8 edp=2\n"
	    "> initialized tensor model parallel with size 2\n"
	    "> initialized pipeline model parallel with size 1\n"
	    "model:\n  expert_model_parallel_size: 4\n"
	    "  expert_tensor_parallel_size: 2\n"
	    " [d] iteration 1/ 1 | lm loss: 1.000000E+00 |\n", NULL);
	ck_assert_str_eq(lc->layout, "mismatch");
	ck_assert(lc->mismatch[LD_TP] && lc->mismatch[LD_ETP] &&
	    lc->mismatch[LD_DP] && !lc->mismatch[LD_EP]);
	ck_assert_int_eq(lc->used.v[LD_DP], 4);
	ck_assert_str_eq(lc->world_from, "marker");
	free(lc);
	/* A plan and no layout shown fails. */
	lc = judged("mbsbatch: layout: world=8 tp=2\n"
	    " [d] iteration 1/ 1 | lm loss: 1.000000E+00 |\n", NULL);
	ck_assert_str_eq(lc->layout, "unknown");
	ck_assert_int_eq(lc->status, 3);
	free(lc);
	/* Nothing recognised: unusable. */
	lc = judged("hello\nworld\n", NULL);
	ck_assert_int_eq(lc->status, 2);
	free(lc);
	lc = judged("", NULL);
	ck_assert_int_eq(lc->status, 2);
	ck_assert_str_eq(lc->reasons[0], "empty");
	free(lc);
}
END_TEST

static Suite *
logcheck_suite(void)
{
	Suite	*s = suite_create("logcheck");
	TCase	*tc;

	tc = tcase_create("lines");
	tcase_add_test(tc, test_strip_rank);
	tcase_add_test(tc, test_iteration_mlm);
	tcase_add_test(tc, test_iteration_bridge);
	tcase_add_test(tc, test_iteration_nan);
	tcase_add_test(tc, test_numbers);
	tcase_add_test(tc, test_iteration_range);
	tcase_add_test(tc, test_median_huge);
	tcase_add_test(tc, test_not_iteration);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_layout_mlm);
	tcase_add_test(tc, test_layout_bridge);
	tcase_add_test(tc, test_marker);
	suite_add_tcase(s, tc);
	tc = tcase_create("causes");
	tcase_add_test(tc, test_slurm);
	tcase_add_test(tc, test_traceback);
	tcase_add_test(tc, test_traceback_kinds);
	tcase_add_test(tc, test_setup_causes);
	tcase_add_test(tc, test_cause_order);
	suite_add_tcase(s, tc);
	tc = tcase_create("stream");
	tcase_add_test(tc, test_chunks);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_feed_zeros);
	suite_add_tcase(s, tc);
	tc = tcase_create("verdict");
	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_setup_survived);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(logcheck_suite());
}
