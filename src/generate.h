/*
 * generate.h: a loaded job to its script, shared by gen and submit.
 */
#ifndef MBSBATCH_GENERATE_H
#define MBSBATCH_GENERATE_H

#include <stdbool.h>

#include "job.h"

struct buf;
struct error;
struct sizing;

/*
 * Size and validate JOB into FIG and render its script into OUT; CMD
 * names the command in messages, REGEN is the command that regenerates
 * the script.  An invalid layout is an EXIT_LAYOUT error naming the first
 * failing finding; warnings go to stderr unless QUIET.  Once the template
 * is loaded, *SHIPPED (unless SHIPPED is NULL) says whether it is a
 * shipped one (template_shipped()).
 */
struct error	*generate_script(const char *, const struct job *, const char *,
		    bool, struct job_figures *, struct buf *, bool *);

/*
 * The EXIT_LAYOUT error of a job sized as S that fails (an error finding,
 * or any finding when STRICT), naming its first failing finding and, when
 * WHOSE is not NULL, whose it is ("the job"); NULL when it passes.
 */
struct error	*generate_refusal(const char *, const char *,
		    const struct sizing *, bool);

/*
 * Slurm opens a job's output before its script runs and does not create
 * the directory: make the directory of PATH (relative ones are relative
 * to BASE, the job's working directory; none with a '%' pattern in it)
 * when CREATE, else print a note unless QUIET.
 */
struct error	*generate_log_dir(const char *, const char *, const char *,
		    bool, bool);

#endif
