/*
 * jobwait.c: polling a job until it ends (jobwait.h).  Slurm has no way
 * to be told when a job ends but mail and strigger, neither of which a
 * client can count on, so this asks; slurmctld's rate limiting
 * (SlurmctldParameters=rl_enable) allows a client far more than one
 * question every few seconds.
 */
#include <sys/select.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "joblookup.h"
#include "jobview.h"
#include "jobwait.h"

#define WAIT_FIRST_MS	2000
#define WAIT_MAX_MS	60000
#define WAIT_RETRIES	3

static volatile sig_atomic_t	wait_stopped;

static void
wait_on_signal(int sig)
{
	(void)sig;
	wait_stopped = 1;
}

/* Has every record of LIST ended? */
static bool
all_ended(const struct job_list *list)
{
	size_t	 i;

	for (i = 0; i < list->n; i++)
		if (!job_state_ended(list->v[i].state))
			return false;
	return list->n > 0;
}

/*
 * Sleep MS milliseconds with SIGINT and SIGTERM let through (ORIG, the
 * mask before the wait), or until one stops the wait.  They are blocked
 * everywhere else, so one that comes between a test of wait_stopped and
 * the sleep waits for the sleep and ends it, never lost.
 */
static void
wait_sleep(long ms, const sigset_t *orig)
{
	struct timespec	 ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	(void)pselect(0, NULL, NULL, NULL, &ts, orig);
}

struct error *
job_wait(const struct backend *be, struct backend_ctx *ctx,
    const struct job_ref *ref, struct job_list *list)
{
	struct sigaction	 sa, old_int, old_term;
	sigset_t		 block, orig;
	struct error		*err = NULL;
	long			 pause = WAIT_FIRST_MS;
	int			 tries = 0;
	bool			 ended = false;
	char			 name[48];

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = wait_on_signal;
	sigemptyset(&sa.sa_mask);
	wait_stopped = 0;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	memset(list, 0, sizeof *list);
	for (;;) {
		job_list_release(list);
		/* Asked of slurmctld alone until it has ended: accounting
		 * once, at the end (joblookup.h). */
		if ((err = job_lookup_poll(be, ctx, ref, list)) != NULL) {
			/* A job that is gone stays gone. */
			if (error_is(err, ERROR_NO_SUCH_JOB) ||
			    ++tries > WAIT_RETRIES)
				break;
			error_free(err);
			err = NULL;
		} else {
			tries = 0;
			if ((ended = all_ended(list)))
				break;
		}
		if (wait_stopped)
			break;
		wait_sleep(pause, &orig);
		if (wait_stopped)
			break;
		pause = pause * 3 / 2 < WAIT_MAX_MS ? pause * 3 / 2 :
		    WAIT_MAX_MS;
	}
	if (ended) {
		job_list_release(list);
		err = job_lookup(be, ctx, ref, list);
	}
	/* A signal still pending reaches wait_on_signal, not the default
	 * action: it is let through before the old handlers come back. */
	sigprocmask(SIG_SETMASK, &orig, NULL);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (err == NULL && !ended && wait_stopped) {
		job_ref_format(ref, name, sizeof name);
		err = error_new(EXIT_INTERRUPTED, "job %s: stopped waiting; "
		    "the job goes on (%s)", name, list->n > 0 ?
		    list->v[0].state : "state unknown");
	}
	return err;
}

int
job_wait_status(const struct job_ref *ref, const struct job_list *list)
{
	struct array_view	 v;
	char			 name[48];

	if (list->n == 1 && (ref->task >= 0 ||
	    !job_list_is_array(list, ref->id))) {
		if (job_ok(&list->v[0]))
			return EXIT_OK;
		fprintf(stderr, "mbsbatch: ");
		job_status_print(stderr, &list->v[0]);
		fputc('\n', stderr);
		return EXIT_FAILURE_OP;
	}
	array_view_make(list, &v);
	if (v.not_ok == 0)
		return EXIT_OK;
	job_ref_format(ref, name, sizeof name);
	fprintf(stderr, "mbsbatch: array %s: %lld task%s did not complete "
	    "(%s)\n", name, (long long)v.not_ok, v.not_ok == 1 ? "" : "s",
	    v.state);
	return EXIT_FAILURE_OP;
}
