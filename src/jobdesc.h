/*
 * jobdesc.h: a batch job as the back ends send it: what a script's
 * #SBATCH lines ask for (sbatch-directives.c parses them), plus the
 * script itself, its working directory and its environment.  The REST
 * and native back ends build their requests from this; the sbatch back
 * end passes the script to sbatch, which reads the same lines.
 *
 * Every field is "unset" at zero (NULL, 0, false) unless its comment
 * says otherwise; a back end sends only what is set.
 */
#ifndef MBSBATCH_JOBDESC_H
#define MBSBATCH_JOBDESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --export: which of the submitting environment the job gets. */
enum jobdesc_export {
	EXPORT_ALL = 0,		/* sbatch's default: everything */
	EXPORT_NONE,		/* nothing but SLURM_* (plus the listed) */
	EXPORT_LIST,		/* ALL is not given: only the listed ones */
};

struct jobdesc {
	char		*script;	/* the whole script; owned */
	char		*name;		/* --job-name */
	char		*partition, *account, *qos, *reservation;
	char		*constraint, *dependency;
	int64_t		 nodes_min;	/* --nodes N or N-M; 0: unset */
	int64_t		 nodes_max;	/* == nodes_min for "N" */
	int64_t		 ntasks;	/* --ntasks */
	int64_t		 ntasks_per_node;
	int64_t		 cpus_per_task;
	int64_t		 gpus_per_node;	/* --gpus-per-node, or gres gpu:N */
	int64_t		 gpus_per_task;
	int64_t		 mem_mb;	/* --mem in MiB; -1 unset, 0 = all */
	int64_t		 time_minutes;	/* --time; -1 unset */
	bool		 time_unlimited;
	char		*output, *error;	/* file patterns (%j ...) */
	char		*chdir;		/* --chdir; else the submit dir */
	bool		 exclusive;
	int		 requeue;	/* -1 unset, 0 --no-requeue, 1 --requeue */
	int		 open_mode;	/* --open-mode: 0 unset, 1 append,
					   2 truncate (slurm.h OPEN_MODE_*) */
	bool		 hold;
	int		 signal_num;	/* --signal; 0 unset */
	int		 signal_time;	/* seconds before the end (default 60) */
	bool		 signal_batch;	/* B: the batch shell only */
	char		*array;		/* --array as written */
	enum jobdesc_export export_mode;
	char		**export_vars;	/* --export NAME or NAME=value list */
	size_t		 nexport_vars;
	char		*mail_type, *mail_user;
};

/* What the submitting side adds: sbatch sends these too. */
struct jobdesc_context {
	const char	*cwd;		/* absolute: the working directory */
	char *const	*environ;	/* the submitting environment, NAME=value */
	const char	*user;		/* for REST: X-SLURM-USER-NAME */
};

void		 jobdesc_init(struct jobdesc *);
void		 jobdesc_release(struct jobdesc *);

/*
 * Paths as sbatch makes them: a relative --chdir against CWD (where sbatch
 * would run), then --output and --error against the job's working
 * directory, which is returned (--chdir, or CWD).
 */
const char	*jobdesc_absolute(struct jobdesc *, const char *);

/*
 * The environment the job gets, by --export semantics (sbatch's): ALL
 * copies ENV and adds the listed NAME=value; NONE and a list give only
 * the listed names (taken from ENV, or their given value).  Like sbatch,
 * it adds SLURM_JOB_NAME (slurmd expands %x in file names from it),
 * SLURM_SUBMIT_DIR (CWD) and, without ALL, SLURM_GET_USER_ENV=1 (Slurm
 * then loads the user's login environment, as for sbatch).  Returns a NULL-terminated array of new
 * strings; free with jobdesc_env_free().
 */
char		**jobdesc_env(const struct jobdesc *, char *const *,
		    const char *, size_t *);
void		 jobdesc_env_free(char **);

#endif
