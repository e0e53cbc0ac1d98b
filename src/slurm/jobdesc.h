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

#define JOBDESC_GRES_TYPE_MAX	64	/* a GPU's GRES type, in bytes */

struct jobdesc {
	char		*script;	/* the whole script; owned */
	char		*argv0;		/* the script as sbatch FILE names
					   it (Command=), or NULL (stdin) */
	char		*name;		/* --job-name */
	/* The simple options: char *partition, ... (slurmopt-list.h). */
#define SLURMOPT_SIMPLE(id, option, shortopt, member, ...) \
	char		*member;
#include "slurmopt-list.h"
	/* The options every back end carries (slurmopt-carried.h). */
#define SLURMOPT_CARRIED(option, shortopt, arg, kind, ctype, member, ...) \
	ctype		 member;
#include "slurmopt-carried.h"
	char		*constraint, *dependency;
	int64_t		 nodes_min;	/* --nodes N or N-M; 0: unset */
	int64_t		 nodes_max;	/* == nodes_min for "N" */
	int64_t		 nodes_implied;	/* no --nodes: the minimum sbatch
					   sends alone (jobdesc_for_release) */
	int64_t		 ntasks;	/* --ntasks */
	int64_t		 ntasks_per_node;
	int64_t		 cpus_per_task;
	int64_t		 gpus_per_node;	/* --gpus-per-node */
	int64_t		 gres_gpus;	/* --gres=gpu:N; sbatch sends both */
	/* The GRES types of --gpus-per-node=TYPE:N and --gres=gpu:TYPE:N;
	 * "" for none. */
	char		 gpus_per_node_type[JOBDESC_GRES_TYPE_MAX + 1];
	char		 gres_gpu_type[JOBDESC_GRES_TYPE_MAX + 1];
	char		 gres_prefix;	/* '\0' gpu:N, ':' gres:gpu:N, '/'
					   gres/gpu:N (jobdesc_check_release) */
	int64_t		 gpus_per_task;
	/* What a back end sends for tres_per_task and tres_bind when set
	 * (jobdesc_tres_per_task() for the server's release); else it
	 * derives them from gpus_per_task.  Owned by whoever sets them. */
	const char	*tres_per_task, *tres_bind;
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
	int		 signal_since;	/* the release that knows its name
					   (jobdesc_check_release), or 0 */
	char		*array;		/* --array as written */
	enum jobdesc_export export_mode;
	char		*export_env;	/* --export as written, or NULL */
	char		**export_vars;	/* --export NAME or NAME=value list */
	size_t		 nexport_vars;
	/*
	 * --mail-type, as SLURMOPT_MAIL_* bits; -1 unset.  sbatch 25.05 and
	 * later keep the last line's, 22.05 to 24.11 OR every line's
	 * (arg_set_mail_type(): "=" or "|="): MAIL_TYPE is the last's,
	 * MAIL_TYPE_OR all of them; jobdesc_for_release() picks.
	 */
	int		 mail_type, mail_type_or;
	bool		 ignore_pbs;	/* read: sbatch then skips #PBS */
	/*
	 * What one submission adds to the script's (struct submit_opts,
	 * put here by jobdesc_for_release()); borrowed, never freed here:
	 * NAME=value entries the job gets whatever --export says, and
	 * --kill-on-invalid-dep=yes.
	 */
	const char *const *env_add;
	bool		 kill_invalid_dep;
};

/*
 * What sbatch reads off the process that submits and puts in the job's
 * environment (SLURM_SUBMIT_DIR, SLURM_UMASK, SLURM_RLIMIT_*, ...):
 * jobdesc_host_read() fills it from this process.
 */
#define JOBDESC_NRLIMITS	10
struct jobdesc_host {
	char		 submit_dir[4096];	/* getcwd(); "" if unknown */
	char		 name[256];		/* gethostname(); "" if unknown */
	char		 umask[8];		/* "0022" */
	int		 prio;			/* getpriority(PRIO_PROCESS) */
	bool		 prio_known;
	struct {
		const char	*name;		/* "CPU", as Slurm names it */
		unsigned long	 cur;		/* the soft limit */
		bool		 known;
	}		 rlimits[JOBDESC_NRLIMITS];
};

/* What the submitting side adds: sbatch sends these too. */
struct jobdesc_context {
	const char	*cwd;		/* absolute: the working directory */
	char *const	*environ;	/* the submitting environment, NAME=value */
	const char	*user;		/* for REST: X-SLURM-USER-NAME */
	const struct jobdesc_host *host;	/* NULL: none of its variables */
	int		 release;	/* Slurm's, as 2205, 2411; 0: newest */
};

void		 jobdesc_init(struct jobdesc *);
void		 jobdesc_release(struct jobdesc *);

/*
 * Paths as sbatch makes them: a relative --chdir against CWD (where sbatch
 * would run), then --output and --error against the job's working
 * directory, which is returned (--chdir, or CWD).
 */
const char	*jobdesc_absolute(struct jobdesc *, const char *);

/* The newest Slurm release whose sbatch jobdesc_env() knows (25.11). */
#define JOBDESC_RELEASE_NEWEST	2511

void		 jobdesc_host_read(struct jobdesc_host *);

/*
 * The job's tres_per_task and tres_bind as sbatch of RELEASE (0: the
 * newest) sends them (slurm_opt.c): 22.05 "gres:gpu:N"; 23.11 on
 * "[cpu:C,]gres/gpu:G" and, 24.05 on, with '=', the CPUs in it too; the
 * GPUs bound to their task ("gres/gpu:per_task:G") from 23.11.  New
 * strings, or NULL when sbatch sends none.
 */
/*
 * The counts sbatch puts in the job description itself
 * (slurm_opt_create_job_desc; slurmrestd makes its own from the JSON) of
 * D as jobdesc_for_release() made it: the task count only when --ntasks
 * was set, the CPUs of the whole job and of each node.  0: not sent.
 */
struct jobdesc_counts {
	int64_t		 num_tasks;
	bool		 ntasks_set;	/* JOB_NTASKS_SET */
	int64_t		 min_cpus;
	int64_t		 pn_min_cpus;
};
void		 jobdesc_counts(const struct jobdesc *, struct jobdesc_counts *);

/*
 * The job's tres_per_node as sbatch sends it, the GPUs of
 * --gpus-per-node then those of --gres, each after PREFIX ("gres:" or
 * "gres/") with its type if it has one ("gres/gpu:tesla:4"): a new
 * string, or NULL when there are none.
 */
char		*jobdesc_tres_per_node(const struct jobdesc *, const char *);

/* A count of GPUs as --gpus-per-node writes it: "[TYPE:]N", TYPE "" for
 * none; a new string. */
char		*jobdesc_gpus_text(const char *, int64_t);

char		*jobdesc_tres_per_task(const struct jobdesc *, int);

/*
 * COPY: D as the REST and native back ends send it to Slurm RELEASE (0:
 * the newest): a shallow copy with what the submission SO (or NULL)
 * adds, its dependency (a chain's; none keeps D's), environment and
 * kill_invalid_dep; what sbatch of that release makes of the options
 * (22.05's task count implied by --ntasks-per-node, 23.11's node count
 * implied by --ntasks and --ntasks-per-node, the mail types of all the
 * lines up to 24.11); and its tres_per_task and tres_bind, new
 * strings put in OWNED[0] and OWNED[1] for the caller to free.
 */
struct submit_opts;
void		 jobdesc_for_release(struct jobdesc *, const struct jobdesc *,
		    const struct submit_opts *, int, char *[2]);

/*
 * What Slurm RELEASE (0: the newest) refuses of D though another release
 * takes it, as its sbatch would: NULL, or an EXIT_USAGE error.
 */
struct error;
struct error	*jobdesc_check_release(const struct jobdesc *, int);

/*
 * The --export sbatch is given so that the job of D also gets D's
 * env_add: NULL when D exports everything (the plain ALL: the entries go
 * in the submitting environment instead, since --export=ALL,NAME=value
 * would have slurmd load the user's login environment too), else D's
 * --export with the entries after it.  A new string.
 */
char		*jobdesc_export_with(const struct jobdesc *);
char		*jobdesc_tres_bind(const struct jobdesc *, int);

/*
 * The environment sbatch of JC->release would send for D (src/sbatch/
 * sbatch.c and opt.c, src/common/env.c of each release): the submitting
 * environment by --export (all of it; or only SLURM_* and the listed
 * names, SLURM_GET_USER_ENV=1 then having Slurm load the login
 * environment), the variables sbatch sets in its own environment first
 * (SLURM_SUBMIT_DIR and _HOST, SLURM_UMASK, SLURM_PRIO_PROCESS,
 * SLURM_RLIMIT_*, ...), then those it derives from the options
 * (SLURM_NTASKS_PER_NODE, SLURM_GPUS_PER_NODE, ...), without which
 * Slurm 23.02 and later start one task per node in the batch step.
 * Returns a NULL-terminated array of new strings, free with
 * freev() (xmalloc.h); *NOUT (if not NULL) gets its length.
 */
char		**jobdesc_env(const struct jobdesc *,
		    const struct jobdesc_context *, size_t *);

#endif
