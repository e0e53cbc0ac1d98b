/*
 * spawn.h: run a program (never through a shell), feed it standard input,
 * and collect its standard output and error: for the sbatch back end's
 * clients.  Arguments are passed as they are, so no value is ever
 * interpreted by a shell.
 */
#ifndef MBSBATCH_SPAWN_H
#define MBSBATCH_SPAWN_H

#include <stddef.h>

#include "buf.h"

struct error;

struct spawn_result {
	int		 status;	/* exit status, or 128 + signal */
	struct buf	 out;
	struct buf	 err;
};

/*
 * Run ARGV[0] (looked up in PATH) with ARGV, INPUT (LEN bytes, may be
 * NULL) on its standard input.  A program that cannot be started is an
 * EXIT_FAILURE_OP error naming it; otherwise *res holds what it did, to
 * be released with spawn_result_release().
 */
struct error	*spawn_run(char *const *, const char *, size_t,
		    struct spawn_result *);
void		 spawn_result_release(struct spawn_result *);

#endif
