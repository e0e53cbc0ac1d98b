/*
 * check_logtimeline.c: a training log read as attempt timelines
 * (src/logs/logtimeline.c): dates, iteration intervals and the first
 * one's work, checkpoint saves and their time, resumed runs, requeue
 * lines, the gate's and the watchdog's lines, how an attempt ended.
 * Times are read in UTC here (TZ set before mktime() is first used).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logtimeline.h"
#include "run.h"

#define EPS	1e-6
/* 2026-12-02 10:00:00 UTC. */
#define T0	1796205600.0

static void
feed(struct logtimeline *t, const char *text)
{
	const char	*nl;

	while (*text != '\0') {
		nl = strchr(text, '\n');
		logtimeline_line(t, text, nl != NULL ? (size_t)(nl - text) :
		    strlen(text));
		if (nl == NULL)
			break;
		text = nl + 1;
	}
}

/* An iteration line of Megatron-LM at 10:00:SS, iteration N of 20, MS
 * a step. */
static char *
iter(char *buf, size_t len, int ss, int n, const char *ms)
{
	snprintf(buf, len, " [2026-12-02 10:00:%02d.500000] iteration %8d/"
	    "%8d | consumed samples: %12d | elapsed time per iteration (ms):"
	    " %s | learning rate: 1.000000E-04 | global batch size:     8 |"
	    " lm loss: 1.000000E+01 | loss scale: 1.0 | grad norm: 1.000 |"
	    " number of skipped iterations:   0 | number of nan iterations:"
	    "   0 |\n", ss, n, 20, n * 8, ms);
	return buf;
}

static const struct {
	const char	*text;
	bool		 ok;
	double		 t;
} dates[] = {
	{ "2026-12-02 10:00:00", true, T0 },
	{ " [2026-12-02 10:00:01.250000] iteration", true, T0 + 1.25 },
	{ "x 2026-12-02T10:00:02 y", true, T0 + 2 },
	{ "==== mbsbatch: restart 1 of job 7 (...), 2026-12-02 10:01:00 ====",
	  true, T0 + 60 },
	{ "2026-13-02 10:00:00", false, 0 },
	{ "2026-12-02 25:00:00", false, 0 },
	{ "2026-12-02 10:00", false, 0 },
	{ "1969-12-31 23:59:59", false, 0 },
	{ "no date", false, 0 },
	{ "", false, 0 },
};

START_TEST(test_date)
{
	double	 t = -1;
	bool	 ok;

	ok = logtimeline_date(dates[_i].text, strlen(dates[_i].text), &t);
	ck_assert_int_eq(ok, dates[_i].ok);
	if (ok)
		ck_assert_double_eq_tol(t, dates[_i].t, EPS);
}
END_TEST

/*
 * Lines every 5 iterations of 2 s: the first (iteration 5 at :20.5)
 * covers 5 steps, learned from the second; its work began at 10.5.
 * A save of iteration 10 from :30 to :34 whose timer says 3.5 s.
 */
START_TEST(test_one_attempt)
{
	struct logtimeline	 t;
	const struct logtimeline_attempt *a;
	char			 b[600];

	logtimeline_init(&t);
	feed(&t, "mbsbatch-gate: 2026-12-02 10:00:02 checking\n"
	    "mbsbatch-gate: 2026-12-02 10:00:05 passed\n");
	feed(&t, iter(b, sizeof b, 20, 5, "2000.0"));
	feed(&t, iter(b, sizeof b, 30, 10, "2000.0"));
	feed(&t, "[2026-12-02 10:00:30.500000] saving checkpoint at "
	    "iteration      10 to /ck in torch_dist format\n"
	    "  [2026-12-02 10:00:34.500000] successfully saved checkpoint "
	    "from iteration      10 to /ck [ t 1/1, gtp_remat 1/1, p 1/1 ]\n"
	    "    save-checkpoint ................................: "
	    "(3000.00, 3500.00)\n");
	feed(&t, iter(b, sizeof b, 45, 15, "2000.0"));
	logtimeline_finish(&t);
	ck_assert_uint_eq(t.n, 1);
	a = &t.v[0];
	ck_assert_int_eq(a->restart, 0);
	ck_assert_double_eq_tol(a->gate_first, T0 + 2, EPS);
	ck_assert_double_eq_tol(a->gate_last, T0 + 5, EPS);
	ck_assert_int_eq(a->niters, 3);
	ck_assert_int_eq(a->resumed, 0);
	ck_assert_int_eq(a->last_iter, 15);
	ck_assert_int_eq(a->total, 20);
	ck_assert_double_eq_tol(a->work, 30, EPS);
	ck_assert_double_eq_tol(a->first_work, T0 + 10.5, EPS);
	ck_assert_double_eq_tol(a->last_progress, T0 + 45.5, EPS);
	ck_assert_uint_eq(a->nsaves, 1);
	ck_assert_int_eq(a->saves[0].iteration, 10);
	ck_assert_double_eq_tol(a->saves[0].work, 20, EPS);
	ck_assert_double_eq_tol(a->save_seconds, 3.5, EPS);
	ck_assert(!a->crashed && !a->stopped && !a->watchdog_hang);
	ck_assert_double_eq_tol(t.median_step, 2, EPS);
	logtimeline_release(&t);
}
END_TEST

/*
 * A requeued job's log: attempt 0 saves iteration 2 (Bridge's lines,
 * no date: no time from the dates, none from a timer) and is cancelled
 * by Slurm; attempt 1, after the restart line, loads iteration 2 and
 * logs iteration 3 alone: one step, from 2.  Rank prefixes are
 * stripped; the gate's lines are read on attempt 1 too.
 */
START_TEST(test_requeued)
{
	struct logtimeline	 t;
	const struct logtimeline_attempt *a;
	char			 b[600];

	logtimeline_init(&t);
	feed(&t, iter(b, sizeof b, 10, 1, "1000.0"));
	feed(&t, iter(b, sizeof b, 11, 2, "1000.0"));
	feed(&t, "0: saving checkpoint at iteration       2 to /ck in "
	    "torch_dist format\n"
	    "0:   successfully saved checkpoint from iteration       2 to "
	    "/ck [ t 1/1, p 1/1 ]\n"
	    "slurmstepd: error: *** JOB 7 ON n1 CANCELLED AT "
	    "2026-12-02T10:00:20 ***\n");
	feed(&t, "==== mbsbatch: restart 1 of job 7 (SLURM_RESTART_COUNT=1, "
	    "at most 3), 2026-12-02 10:00:40 ====\n"
	    "[rank0]: mbsbatch-gate: 2026-12-02 10:00:41 checking\n"
	    "2026-12-02 10:00:44 setup\n"
	    "mbsbatch: gate: 2 nodes passed\n"
	    "[rank0]:   successfully loaded checkpoint from /ck [ t 1/1, "
	    "p 1/1 ] at iteration 2\n");
	feed(&t, iter(b, sizeof b, 50, 3, "1500.0"));
	logtimeline_finish(&t);
	ck_assert_uint_eq(t.n, 2);
	a = &t.v[0];
	ck_assert(a->stopped && !a->crashed);
	ck_assert_int_eq(a->resumed, 0);
	ck_assert_double_eq_tol(a->work, 2, EPS);
	ck_assert_uint_eq(a->nsaves, 1);
	ck_assert_double_eq_tol(a->saves[0].work, 2, EPS);
	ck_assert_double_eq_tol(a->save_seconds, 0, EPS);
	a = &t.v[1];
	ck_assert_int_eq(a->restart, 1);
	ck_assert_double_eq_tol(a->mark, T0 + 40, EPS);
	ck_assert_double_eq_tol(a->gate_first, T0 + 41, EPS);
	ck_assert_double_eq_tol(a->gate_last, T0 + 44, EPS);
	ck_assert(!a->stopped && !a->crashed);
	ck_assert_int_eq(a->resumed, 2);
	ck_assert_int_eq(a->niters, 1);
	ck_assert_double_eq_tol(a->work, 1.5, EPS);
	ck_assert_double_eq_tol(a->first_work, T0 + 49, EPS);
	logtimeline_release(&t);
}
END_TEST

/*
 * A log appended to by a requeued run without our restart line: a new
 * attempt where our layout line comes again after iterations (the first
 * crashed: its cause stays its own), and where a checkpoint is loaded
 * after iterations.
 */
START_TEST(test_no_restart_line)
{
	static const char layout[] = "mbsbatch: layout: world=8 nodes=1 "
	    "tp=1 pp=1 vpp=1 cp=1 ep=1 etp=1 dp=8 edp=1\n";
	static const char load[] = "  successfully loaded checkpoint from /ck "
	    "[ t 1/1, p 1/1 ] at iteration 2\n";
	struct logtimeline	 t;
	char			 b[600];

	logtimeline_init(&t);
	feed(&t, layout);
	feed(&t, iter(b, sizeof b, 10, 1, "1000.0"));
	feed(&t, iter(b, sizeof b, 11, 2, "1000.0"));
	feed(&t, iter(b, sizeof b, 12, 3, "1000.0"));
	feed(&t, "[rank0]: Traceback (most recent call last):\n"
	    "[rank0]: RuntimeError: injected\n");
	feed(&t, layout);
	feed(&t, load);
	feed(&t, iter(b, sizeof b, 30, 3, "1000.0"));
	feed(&t, iter(b, sizeof b, 31, 4, "1000.0"));
	feed(&t, load);
	feed(&t, iter(b, sizeof b, 40, 3, "1000.0"));
	logtimeline_finish(&t);
	ck_assert_uint_eq(t.n, 3);
	ck_assert(t.v[0].crashed);
	ck_assert_int_eq(t.v[0].last_iter, 3);
	ck_assert_int_eq(t.v[1].restart, 1);
	ck_assert(!t.v[1].crashed);
	ck_assert_int_eq(t.v[1].resumed, 2);
	ck_assert_int_eq(t.v[1].last_iter, 4);
	ck_assert_double_eq_tol(t.v[1].first_time, T0 + 30.5, EPS);
	ck_assert_int_eq(t.v[2].restart, 2);
	ck_assert_int_eq(t.v[2].resumed, 2);
	ck_assert_int_eq(t.v[2].last_iter, 3);
	logtimeline_release(&t);
}
END_TEST

/* How an attempt ended, from its lines. */
static const struct {
	const char	*line;
	bool		 crashed, stopped, hang;
} ends[] = {
	{ "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to "
	  "allocate 2.00 GiB.", true, false, false },
	{ "slurmstepd: error: *** JOB 7 ON n1 CANCELLED AT "
	  "2026-12-02T10:00:20 DUE TO TIME LIMIT ***", false, true, false },
	{ "[rank0]:[E1202 10:00:20.000000000 ProcessGroupNCCL.cpp:616] "
	  "[Rank 0] Watchdog caught collective operation timeout: "
	  "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
	  "Timeout(ms)=600000) ran for 600010 milliseconds before timing "
	  "out.", false, false, true },
	{ "mbsbatch-watchdog: 2026-12-02 10:00:20 no iteration for 90 s: "
	  "a hang; ending the step", false, false, true },
	{ "mbsbatch-watchdog: 2026-12-02 10:00:20 following the log",
	  false, false, false },
	{ "mbsbatch: hang: at 2026-12-02 10:00:20, no new iteration for 90 s "
	  "(after 1; the limit is max(3 x median step 1 s, floor 90 s) = 90 "
	  "s); ending the step", false, false, true },
	{ "mbsbatch: hanging around", false, false, false },
	{ "all went well", false, false, false },
};

START_TEST(test_end)
{
	struct logtimeline	 t;
	char			 b[600];

	logtimeline_init(&t);
	feed(&t, iter(b, sizeof b, 10, 1, "1000.0"));
	feed(&t, ends[_i].line);
	logtimeline_finish(&t);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_int_eq(t.v[0].crashed, ends[_i].crashed);
	ck_assert_int_eq(t.v[0].stopped, ends[_i].stopped);
	ck_assert_int_eq(t.v[0].watchdog_hang, ends[_i].hang);
	logtimeline_release(&t);
}
END_TEST

/* Lines that are almost ours are not read as them. */
START_TEST(test_not_ours)
{
	struct logtimeline	 t;
	char			 b[600];

	logtimeline_init(&t);
	feed(&t, iter(b, sizeof b, 10, 4, "1000.0"));
	feed(&t, "saving dataloader checkpoint at iteration 4 to /dl\n"
	    "    save-checkpoint-non-persistent ....: (1.00, 900000.00)\n"
	    "    save-checkpoint ....: (1.00, x)\n"
	    "successfully saved checkpoint from iteration x to /ck\n"
	    "mbsbatch-gates: 2026-12-02 10:00:05\n"
	    "  successfully loaded checkpoint from /ck at iteration 9\n");
	feed(&t, iter(b, sizeof b, 12, 3, "1000.0"));	/* not after 4 */
	logtimeline_finish(&t);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_uint_eq(t.v[0].nsaves, 0);
	ck_assert_double_eq_tol(t.v[0].save_seconds, 0, EPS);
	ck_assert_double_eq_tol(t.v[0].gate_first, -1, EPS);
	/* One line, no load: one step, from 3. */
	ck_assert_int_eq(t.v[0].resumed, 3);
	ck_assert_int_eq(t.v[0].last_iter, 4);
	ck_assert_double_eq_tol(t.v[0].work, 1, EPS);
	logtimeline_release(&t);
}
END_TEST

static Suite *
logtimeline_suite(void)
{
	Suite	*s = suite_create("logtimeline");
	TCase	*tc;

	tc = tcase_create("dates");
	tcase_add_loop_test(tc, test_date, 0, sizeof dates / sizeof dates[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("attempts");
	tcase_add_test(tc, test_one_attempt);
	tcase_add_test(tc, test_requeued);
	tcase_add_test(tc, test_not_ours);
	tcase_add_test(tc, test_no_restart_line);
	suite_add_tcase(s, tc);
	tc = tcase_create("ends");
	tcase_add_loop_test(tc, test_end, 0, sizeof ends / sizeof ends[0]);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	setenv("TZ", "UTC", 1);
	return run_suite(logtimeline_suite());
}
