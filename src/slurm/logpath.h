/*
 * logpath.h: where a batch job's output and error go: the --output and
 * --error patterns expanded as the slurmstepd of the job's Slurm release
 * expands them (22.05-25.05: src/slurmd/common/fname.c; 25.11:
 * expand_stdio_fields() in src/common/print_fields.c, which scontrol and
 * sacct of 24.05 on also use to show them).  Pure.
 *
 *   %%  a '%'                %j %J  the job id (the batch step: no ".N")
 *   %A  the array's job id   %a     the array task (4294967294 outside
 *       (else the job id)           an array, as Slurm writes NO_VAL)
 *   %b  the task modulo 10   %r     the restart count (25.11)
 *       (24.11 on)
 *   %x  the job name         %u     the user name
 *   %N  25.11: the batch node's name; 22.05-25.05: the short host name
 *       of the machine its slurmd runs on (see node_host below)
 *   %n %t  0 (node and task of the batch step)
 *   %s  "batch"              %S     the job's SLUID (25.11)
 *
 * A number between '%' and the letter zero-pads numbers to that width
 * (10 at most).  A path with a '\' is not expanded: the backslashes are
 * dropped (22.05-25.05 keep one of "\\", and put it right after the
 * working directory, without a '/').  A relative path is under the
 * job's working directory.  Any other letter stays as written (22.05-25.05
 * drop the '%' and all but the last digit of a width before it).
 */
#ifndef MBSBATCH_LOGPATH_H
#define MBSBATCH_LOGPATH_H

#include <stdbool.h>
#include <stdint.h>

/* What Slurm writes for an array task of a job that is not an array. */
#define LOGPATH_NO_TASK	UINT32_C(4294967294)

struct logpath_job {
	int		 release;	/* Slurm's, as 2205, 2511; 0: newest */
	uint32_t	 job_id;	/* 0: not queued yet (%j %J %A %r %S
					   not known) */
	uint32_t	 array_job_id;	/* 0: not an array */
	uint32_t	 array_task_id;	/* LOGPATH_NO_TASK: not an array */
	bool		 any_task;	/* an array, every task: %a, %b, %j
					   and %J stay as written */
	uint32_t	 restart_cnt;
	const char	*name;		/* the job name; NULL: not known */
	const char	*user;		/* NULL: not known */
	const char	*node;		/* the batch node, or NULL (pending) */
	/*
	 * Its host name (NodeHostname), or NULL: not known.  Before 25.11
	 * %N is slurmd's gethostname_short(), which is this cut at its
	 * first '.' when slurmd found its node by its host name; a slurmd
	 * started as "slurmd -N NAME" on a machine of another name writes
	 * that machine's name, which slurmctld is not told.
	 */
	const char	*node_host;
	const char	*sluid;		/* 25.11: the job's SLUID as Slurm
					   prints it ("s" and 13 letters; a
					   requeue gives a new one), or NULL */
	const char	*work_dir;	/* NULL: leave a relative path so */
};

/*
 * PATTERN (NULL: Slurm's default, slurm-%j.out, or slurm-%A_%a.out for
 * an array task) expanded for J; a new string.  *COMPLETE (may be NULL)
 * is false when the path depends on something J does not know yet (the
 * node of a pending job, the task of an array and its own job id, %S):
 * those stay as written.
 */
char		*logpath_expand(const char *, const struct logpath_job *,
		    bool *);

/*
 * The directory PATTERN's file is in, for J: a new string (the path
 * expanded as logpath_expand() does, without its last component), or
 * NULL when the path has no '/'.  *KNOWN is false when the directory
 * itself depends on something J does not know (a job not queued yet:
 * "logs/%j/out"); a job name with a '/' under %x adds directories.
 */
char		*logpath_dir(const char *, const struct logpath_job *, bool *);

/*
 * Whether slurmstepd of RELEASE (as 2205; 0: not known) makes a missing
 * directory of the job's output and error itself, as the job's user,
 * before it opens them: from 23.02 on (slurmstepd/io.c, mkdirpath() on
 * ENOENT); 22.05 does not, and the job loses its output.
 */
bool		 logpath_makes_dirs(int);

struct jobdesc;

/* A job just queued, as submit and sweep know it. */
struct logpath_sub {
	const struct jobdesc	*desc;		/* what was sent */
	const char		*workdir;	/* its working directory */
	const char		*user;		/* whom it runs as */
	int			 release;	/* the cluster's Slurm; 0: not
						   known (the newest's rules) */
	int64_t			 job_id;
	int64_t			 task;		/* an array's task; -1: the job,
						   or any task of an array */
};

/*
 * Where job S writes its output and error: new strings; *error is NULL
 * when it goes with the output (no --error).  Complete but for the node
 * and, for an array's any task, %a; for a task, %A and %a resolved but a
 * pattern naming the task's own id (%j), unknown until it starts, which
 * leaves %a too; and 25.11's %S, the SLUID, which a submission is not
 * told.  *COMPLETE (may be NULL): whether both are known in full.
 */
void		 logpath_submitted(const struct logpath_sub *, char **,
		    char **, bool *);

/*
 * The first node of NODELIST as Slurm writes it ("mbsnode[0-3]",
 * "gpu[001-064],a7", "n[2,5]-ib"): "mbsnode0", "gpu001", "n2-ib"; a new
 * string, or NULL for none ("", "None assigned").  Accounting keeps no
 * batch host: the first node of the allocation is where the batch step
 * ran (slurmdb_defs.c slurmdb_expand_job_stdio_fields() takes it so).
 */
char		*logpath_first_node(const char *);

/* A SLUID (slurm_step_id_t.sluid, 25.11) as Slurm prints it into BUF:
 * "s" and 13 letters of Crockford's base 32 (common/sluid.c
 * print_sluid()). */
#define LOGPATH_SLUID_SIZE	15
void		 logpath_sluid(uint64_t, char [LOGPATH_SLUID_SIZE]);

/* Does PATTERN (NULL: none) name the job's own id (%j, %J, with a width
 * or not) as RELEASE reads it?  An array's task has none until it
 * starts. */
bool		 logpath_names_job_id(const char *pattern, int release);

/* Does PATTERN (NULL: none) name one of LETTERS ("S": %S, %5S) as
 * RELEASE's slurmstepd reads it ("%5%%S" names %S from 25.11 only)? */
bool		 logpath_names(const char *pattern, const char *letters,
		     int release);

#endif
