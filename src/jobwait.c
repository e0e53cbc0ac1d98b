/*
 * jobwait.c: polling a job until it ends (jobwait.h).  Slurm has no way
 * to be told when a job ends but mail and strigger, neither of which a
 * client can count on, so this asks; slurmctld's rate limiting
 * (SlurmctldParameters=rl_enable) allows a client far more than one
 * question every few seconds.
 */
#include <errno.h>
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

/* Sleep MS milliseconds, or until a signal stops the wait. */
static void
wait_sleep(long ms)
{
	struct timespec	 ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (!wait_stopped && nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

struct error *
job_wait(const struct backend *be, struct backend_ctx *ctx,
    const struct job_ref *ref, struct job_list *list)
{
	struct sigaction	 sa, old_int, old_term;
	struct error		*err = NULL;
	long			 pause = WAIT_FIRST_MS;
	int			 tries = 0;
	char			 name[48];

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = wait_on_signal;
	sigemptyset(&sa.sa_mask);
	wait_stopped = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	memset(list, 0, sizeof *list);
	for (;;) {
		job_list_release(list);
		if ((err = job_lookup(be, ctx, ref, list)) != NULL) {
			/* A job that is gone stays gone. */
			if (strstr(err->msg, "no such job") != NULL ||
			    ++tries > WAIT_RETRIES)
				break;
			error_free(err);
			err = NULL;
		} else {
			tries = 0;
			if (all_ended(list))
				break;
		}
		wait_sleep(pause);
		if (wait_stopped)
			break;
		pause = pause * 3 / 2 < WAIT_MAX_MS ? pause * 3 / 2 :
		    WAIT_MAX_MS;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (err == NULL && wait_stopped) {
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
