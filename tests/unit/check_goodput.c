/*
 * check_goodput.c: the effective training time ratio and the time lost
 * by cause (src/core/goodput.c), over attempt timelines built by hand,
 * every figure worked out in the comments.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "goodput.h"
#include "run.h"

#define EPS	1e-9

static struct goodput_attempt
attempt(int64_t nodes, double start, double end)
{
	struct goodput_attempt	 a;

	memset(&a, 0, sizeof a);
	a.nodes = nodes;
	a.start = start;
	a.end = end;
	a.ready = -1;
	a.gate_first = a.gate_last = -1;
	a.first_work = a.last_progress = -1;
	a.median_step = -1;
	a.ended = GOODPUT_END_STOPPED;
	return a;
}

/* The causes and the productive time add up to the allocation. */
static void
adds_up(const struct goodput *g)
{
	double	 sum = g->productive;
	int	 c;

	for (c = 0; c < GP_NCAUSES; c++) {
		ck_assert(g->lost[c] >= 0);
		sum += g->lost[c];
	}
	ck_assert_double_eq_tol(sum, g->allocated + g->overrun, EPS);
}

/*
 * One attempt on 2 nodes, 1000 s: a gate from 10 to 40 s, the first
 * work at 100 s, 80 iterations of 10 s, checkpoints at 40 and 80 that
 * took 20 s in all, finished at 950 s.  Per node: productive 800,
 * gate 30, startup 100 - 30 = 70, checkpoint 20, other 1000 - 920 = 80
 * (the 50 s after the run finished among it).  ETTR 0.8.
 */
START_TEST(test_one_attempt)
{
	static const struct goodput_save	 saves[] = {
		{ 40, 400 }, { 80, 800 }
	};
	struct goodput_attempt	 a = attempt(2, 0, 1000);
	struct goodput		 g;

	a.gate_first = 10;
	a.gate_last = 40;
	a.niters = 8;
	a.first_work = 100;
	a.last_progress = 950;
	a.last_iter = 80;
	a.work = 800;
	a.median_step = 10;
	a.saves = saves;
	a.nsaves = 2;
	a.save_seconds = 20;
	a.ended = GOODPUT_END_FINISHED;
	a.ready = 0;
	ck_assert_ptr_null(goodput_compute(&a, 1, &g));
	ck_assert_double_eq_tol(g.allocated, 2000, EPS);
	ck_assert_double_eq_tol(g.productive, 1600, EPS);
	ck_assert_double_eq_tol(g.ettr, 0.8, EPS);
	ck_assert_double_eq_tol(g.lost[GP_GATE], 60, EPS);
	ck_assert_double_eq_tol(g.lost[GP_STARTUP], 140, EPS);
	ck_assert_double_eq_tol(g.lost[GP_CHECKPOINT], 40, EPS);
	ck_assert_double_eq_tol(g.lost[GP_OTHER], 160, EPS);
	ck_assert_double_eq_tol(g.lost[GP_HANG], 0, EPS);
	ck_assert_double_eq_tol(g.lost[GP_RESTARTS], 0, EPS);
	ck_assert_double_eq_tol(g.lost[GP_LOST_WORK], 0, EPS);
	ck_assert_int_eq(g.kept_iters, 80);
	ck_assert_int_eq(g.lost_iters, 0);
	ck_assert(g.queue_known);
	ck_assert_double_eq_tol(g.queue, 0, EPS);
	adds_up(&g);
}
END_TEST

/*
 * A crash, then a restart that finishes (1 node).  Attempt 0, 0 to
 * 500 s: work from 50 s, 30 iterations of 10 s, a checkpoint at 20
 * (5 s), a crash after its last line at 360 s: kept 200, lost work 100,
 * startup 50, restarts 140 (360 to 500), other 5.  Attempt 1 queued at
 * 500, started at 600 (queue 100), to 1100: resumed from 20, work from
 * 650, 40 iterations of 10 s to 60, finished at 1050: kept 400,
 * restarts 50 (its start-up), other 50.  ETTR 600 / 1000.
 */
START_TEST(test_crash_restart)
{
	static const struct goodput_save	 saves[] = { { 20, 200 } };
	struct goodput_attempt	 a[2];
	struct goodput		 g;

	a[0] = attempt(1, 0, 500);
	a[0].ready = 0;
	a[0].niters = 30;
	a[0].first_work = 50;
	a[0].last_progress = 360;
	a[0].last_iter = 30;
	a[0].work = 300;
	a[0].median_step = 10;
	a[0].saves = saves;
	a[0].nsaves = 1;
	a[0].save_seconds = 5;
	a[0].ended = GOODPUT_END_FAILED;
	a[1] = attempt(1, 600, 1100);
	a[1].ready = 500;
	a[1].niters = 40;
	a[1].resumed = 20;
	a[1].first_work = 650;
	a[1].last_progress = 1050;
	a[1].last_iter = 60;
	a[1].work = 400;
	a[1].median_step = 10;
	a[1].ended = GOODPUT_END_FINISHED;
	ck_assert_ptr_null(goodput_compute(a, 2, &g));
	ck_assert_double_eq_tol(g.allocated, 1000, EPS);
	ck_assert_double_eq_tol(g.productive, 600, EPS);
	ck_assert_double_eq_tol(g.ettr, 0.6, EPS);
	ck_assert_double_eq_tol(g.lost[GP_STARTUP], 50, EPS);
	ck_assert_double_eq_tol(g.lost[GP_RESTARTS], 190, EPS);
	ck_assert_double_eq_tol(g.lost[GP_LOST_WORK], 100, EPS);
	ck_assert_double_eq_tol(g.lost[GP_CHECKPOINT], 5, EPS);
	ck_assert_double_eq_tol(g.lost[GP_OTHER], 55, EPS);
	ck_assert_double_eq_tol(g.lost[GP_HANG], 0, EPS);
	ck_assert_int_eq(g.kept_iters, 60);
	ck_assert_int_eq(g.lost_iters, 10);
	ck_assert(g.queue_known);
	ck_assert_double_eq_tol(g.queue, 100, EPS);
	adds_up(&g);
}
END_TEST

/*
 * The end of an attempt stopped from outside (time limit, scancel),
 * 1 node, 0 to 300 s, steps of 10 s, its last line at TAIL s before
 * the end: a hang when TAIL is more than 3 steps or the watchdog said
 * so, else a restart's cost.
 */
static const struct {
	double	 tail;
	bool	 watchdog;
	int	 ended;
	int	 cause;
} tails[] = {
	{ 100, false, GOODPUT_END_STOPPED, GP_HANG },
	{ 31, false, GOODPUT_END_STOPPED, GP_HANG },
	{ 30, false, GOODPUT_END_STOPPED, GP_RESTARTS },
	{ 20, true, GOODPUT_END_STOPPED, GP_HANG },
	{ 20, true, GOODPUT_END_FAILED, GP_HANG },
	{ 100, false, GOODPUT_END_FAILED, GP_RESTARTS },
	{ 100, false, GOODPUT_END_FINISHED, GP_OTHER },
	{ 100, true, GOODPUT_END_FINISHED, GP_OTHER },
};

START_TEST(test_tail)
{
	struct goodput_save	 saves[1] = { { 10, 0 } };
	struct goodput_attempt	 a = attempt(1, 0, 300);
	struct goodput		 g;
	double			 last = 300 - tails[_i].tail;

	/* Work from 0 to LAST: LAST / 10 iterations, all saved. */
	a.niters = (int64_t)(last / 10);
	a.first_work = 0;
	a.last_progress = last;
	a.last_iter = 10;
	a.work = last;
	a.median_step = 10;
	a.saves = saves;
	a.nsaves = 1;
	saves[0].work = last;
	a.watchdog_hang = tails[_i].watchdog;
	a.ended = (enum goodput_end)tails[_i].ended;
	ck_assert_ptr_null(goodput_compute(&a, 1, &g));
	ck_assert_double_eq_tol(g.lost[tails[_i].cause], tails[_i].tail, EPS);
	ck_assert_double_eq_tol(g.productive, last, EPS);
	adds_up(&g);
}
END_TEST

/*
 * Attempt 0 saved at 20 and 40 and was stopped; attempt 1 resumed from
 * 20 (the checkpoint of 40 unreadable): attempt 0's 21 to 40 were
 * redone, so lost.  Attempt 0: 40 iterations of 5 s, saves at 20 (100)
 * and 40 (200): kept 100, lost 100.
 */
START_TEST(test_resumed_earlier)
{
	static const struct goodput_save	 saves[] = {
		{ 20, 100 }, { 40, 200 }
	};
	struct goodput_attempt	 a[2];
	struct goodput		 g;

	a[0] = attempt(1, 0, 250);
	a[0].niters = 4;
	a[0].first_work = 50;
	a[0].last_progress = 250;
	a[0].last_iter = 40;
	a[0].work = 200;
	a[0].median_step = 5;
	a[0].saves = saves;
	a[0].nsaves = 2;
	a[1] = attempt(1, 300, 400);
	a[1].niters = 2;
	a[1].resumed = 20;
	a[1].first_work = 350;
	a[1].last_progress = 400;
	a[1].last_iter = 30;
	a[1].work = 50;
	a[1].median_step = 5;
	a[1].ended = GOODPUT_END_FINISHED;
	ck_assert_ptr_null(goodput_compute(a, 2, &g));
	ck_assert_double_eq_tol(g.productive, 150, EPS);
	ck_assert_double_eq_tol(g.lost[GP_LOST_WORK], 100, EPS);
	ck_assert_int_eq(g.kept_iters, 30);
	ck_assert_int_eq(g.lost_iters, 20);
	ck_assert(!g.queue_known);
	adds_up(&g);
}
END_TEST

/*
 * Kept up to an iteration that is neither a save nor the last: the work
 * is interpolated between the points known.  Saves at 10 (100 s of
 * work), the last iteration 30 (400 s); a restart from 20 keeps
 * 100 + 300 x 10 / 20 = 250.
 */
START_TEST(test_interpolated)
{
	static const struct goodput_save	 saves[] = {
		{ 10, 100 }, { 30, 400 }
	};
	struct goodput_attempt	 a[2];
	struct goodput		 g;

	a[0] = attempt(1, 0, 1000);
	a[0].niters = 3;
	a[0].first_work = 0;
	a[0].last_progress = 900;
	a[0].last_iter = 30;
	a[0].work = 400;
	a[0].saves = saves;
	a[0].nsaves = 2;
	a[1] = attempt(1, 1000, 1100);
	a[1].niters = 1;
	a[1].resumed = 20;
	a[1].first_work = 1000;
	a[1].last_progress = 1100;
	a[1].last_iter = 20;
	ck_assert_ptr_null(goodput_compute(a, 2, &g));
	ck_assert_double_eq_tol(g.productive, 250, EPS);
	ck_assert_double_eq_tol(g.lost[GP_LOST_WORK], 150, EPS);
	adds_up(&g);
}
END_TEST

/*
 * An attempt that never iterated: all of it start-up (the first) or a
 * restart's cost (a later one), less its gate; nodes weigh each.
 */
START_TEST(test_no_iterations)
{
	struct goodput_attempt	 a[2];
	struct goodput		 g;

	a[0] = attempt(4, 0, 100);
	a[0].gate_first = 10;
	a[0].gate_last = 70;
	a[0].ended = GOODPUT_END_FAILED;
	a[1] = attempt(2, 200, 260);
	a[1].ended = GOODPUT_END_FAILED;
	ck_assert_ptr_null(goodput_compute(a, 2, &g));
	ck_assert_double_eq_tol(g.allocated, 520, EPS);
	ck_assert_double_eq_tol(g.lost[GP_GATE], 240, EPS);
	ck_assert_double_eq_tol(g.lost[GP_STARTUP], 160, EPS);
	ck_assert_double_eq_tol(g.lost[GP_RESTARTS], 120, EPS);
	ck_assert_double_eq_tol(g.ettr, 0, EPS);
	adds_up(&g);
}
END_TEST

/* A log whose work overruns Slurm's allocation: other 0, the overrun
 * said, the ratio at most 1. */
START_TEST(test_overrun)
{
	struct goodput_attempt	 a = attempt(1, 0, 100);
	struct goodput		 g;

	a.niters = 2;
	a.first_work = 0;
	a.last_progress = 100;
	a.last_iter = 20;
	a.work = 120;
	a.ended = GOODPUT_END_FINISHED;
	ck_assert_ptr_null(goodput_compute(&a, 1, &g));
	ck_assert_double_eq_tol(g.overrun, 20, EPS);
	ck_assert_double_eq_tol(g.lost[GP_OTHER], 0, EPS);
	ck_assert_double_eq_tol(g.ettr, 1, EPS);
	adds_up(&g);
}
END_TEST

START_TEST(test_refused)
{
	struct goodput_attempt	 a = attempt(0, 0, 100);
	struct goodput		 g;

	ck_assert_ptr_nonnull(goodput_compute(&a, 1, &g));
	ck_assert_double_eq(g.allocated, 0);
	a = attempt(1, 100, 50);
	ck_assert_ptr_nonnull(goodput_compute(&a, 1, &g));
	a = attempt(1, -1, 50);
	ck_assert_ptr_nonnull(goodput_compute(&a, 1, &g));
	a = attempt(1, NAN, 50);
	ck_assert_ptr_nonnull(goodput_compute(&a, 1, &g));
	/* Nothing at all: nothing allocated, a ratio of 0. */
	ck_assert_ptr_null(goodput_compute(NULL, 0, &g));
	ck_assert_double_eq(g.ettr, 0);
}
END_TEST

static Suite *
goodput_suite(void)
{
	Suite	*s = suite_create("goodput");
	TCase	*tc;

	tc = tcase_create("one attempt");
	tcase_add_test(tc, test_one_attempt);
	suite_add_tcase(s, tc);
	tc = tcase_create("restarts");
	tcase_add_test(tc, test_crash_restart);
	tcase_add_test(tc, test_resumed_earlier);
	tcase_add_test(tc, test_interpolated);
	tcase_add_test(tc, test_no_iterations);
	suite_add_tcase(s, tc);
	tc = tcase_create("tail");
	tcase_add_loop_test(tc, test_tail, 0, sizeof tails / sizeof tails[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, test_overrun);
	tcase_add_test(tc, test_refused);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(goodput_suite());
}
