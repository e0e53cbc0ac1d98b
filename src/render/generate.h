/*
 * generate.h: a loaded job to its script, shared by gen and submit.
 */
#ifndef MBSBATCH_GENERATE_H
#define MBSBATCH_GENERATE_H

#include <stdbool.h>

#include "job.h"
#include "logpath.h"

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
 * its directory: a missing one loses the output, without a word.  The
 * directory of PATTERN for job J, not queued yet (logpath_dir(): a job
 * name with '/' under %x adds directories), when it is not there: made
 * with its missing parents when CREATE, each one made appended to *MADE
 * (a NULL-terminated vector, for generate_log_dirs_undo()); else a note
 * on stderr unless QUIET.  A directory that depends on the job's id or
 * node (logs/%j/out) cannot be made before the job is queued, nor after
 * without racing its start: a warning, unless QUIET.
 */
struct error	*generate_log_dir(const char *, const char *,
		    const struct logpath_job *, bool, bool, char ***);

/*
 * The same for the --output and --error of the script whose options are
 * O, relative to the current directory, as its user (gen; nothing to
 * undo).
 */
struct slurmopt;
struct error	*generate_script_log_dirs(const char *,
		    const struct slurmopt *, bool, bool);

/*
 * The same for the --output and --error of job D, to be queued by USER
 * (NULL: not known) in WORKDIR on a cluster of RELEASE (logpath.h): made;
 * *MADE as above (nothing made on an error).
 */
struct jobdesc;
struct error	*generate_job_log_dirs(const char *, const struct jobdesc *,
		    const char *, const char *, int, bool, char ***);

/* Remove the directories MADE made, deepest first, those still empty
 * (a submission that failed), and free MADE. */
void		 generate_log_dirs_undo(char **);

#endif
