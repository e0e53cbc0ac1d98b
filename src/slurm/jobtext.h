/*
 * jobtext.h: jobs as Slurm's clients print them, read into the records of
 * backend.h, for the sbatch back end.  Pure.
 *
 * A job's name, working directory, output and error paths are another
 * user's bytes, any bytes but NUL: a newline, a '|', whatever a reader
 * splits on.  So nothing here splits text on a character: slurmctld's
 * jobs come from "squeue --json" (JSON, read by rest-job.c's readers) where
 * squeue filters it, from squeue in columns of fixed widths on 22.05
 * (scontrol's --oneliner text, which prints a newline in a name as it
 * is, could be made to show a job that does not exist), accounting's
 * from sacct in columns of fixed widths too (sacct has no JSON on 22.05
 * that tells exit codes): a value cannot move a column or start a line.
 */
#ifndef MBSBATCH_JOBTEXT_H
#define MBSBATCH_JOBTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct error;
struct job_list;

/*
 * The arguments after "sacct" that ask for the jobs of ID in the form
 * jobtext_sacct() reads, for a Slurm of RELEASE (2205, 2511; 0: not
 * known, the newest's): a new NULL-terminated array of new strings
 * (freev() them).  StdOut and StdErr from 24.05, Restarts from 24.11
 * (a field it does not know makes sacct fail).
 */
char		**jobtext_sacct_args(int64_t, int);

/*
 * Append to LIST a record (source JOB_SOURCE_DBD) for each line of TEXT
 * (LEN bytes), what sacct printed for jobtext_sacct_args(RELEASE): every
 * line the same width, each field where the widths put it, trailing
 * blanks dropped (a value ending in blanks loses them); a value sacct cut
 * short (it ends the field with '+') is not known.  An error, LIST as it
 * was, when TEXT is not whole lines of that width.
 */
struct error	*jobtext_sacct(int, const char *, size_t, struct job_list *);

/*
 * The arguments after "sacct" that ask for the steps of every attempt of
 * job ID in the form jobtext_sacct_steps() reads (a new NULL-terminated
 * array of new strings), and what it printed (TEXT, LEN bytes) read: a
 * record for each step, its job_id the job's, its state, start, end and
 * name (NULL when cut) set.  An error, LIST as it was, as
 * jobtext_sacct().
 */
char		**jobtext_sacct_steps_args(int64_t);
struct error	*jobtext_sacct_steps(const char *, size_t, struct job_list *);

/*
 * How squeue is asked for jobs, by RELEASE (2205, 2511; 0: not known,
 * the newest's).  From 23.02 on, "squeue --json" loads only the jobs
 * asked for (src/squeue/squeue.c _print_job(): slurm_load_job() for one
 * id, slurm_load_job_user() for one user) and jobtext reads its JSON.
 * 22.05's --json ignores every option and dumps every job slurmctld has
 * (squeue.c:89 calls dump_data(), src/squeue/data.c, whose openapi/
 * v0.0.38 asks for all with SHOW_ALL|SHOW_DETAIL): there squeue prints
 * the fields jobtext needs in columns of fixed widths (-O), which no
 * byte of a value can move.
 */
bool		 jobtext_squeue_columns(int);

/*
 * The arguments after "squeue" for jobtext_squeue() of Slurm RELEASE:
 * every job slurmctld has of ID (ID > 0, with each field status needs),
 * or of user UID (ID 0; UID < 0: of every user), in any state, hidden
 * partitions too.  A new NULL-terminated array of new strings (freev()
 * them).
 */
char		**jobtext_squeue_args(int, int64_t, int64_t);

/*
 * Append to LIST the records of what squeue of Slurm RELEASE printed for
 * jobtext_squeue_args(RELEASE, ID, ...), TEXT of LEN bytes, with source
 * JOB_SOURCE_CTLD: for ID > 0, those of job ID as backend.h's status
 * gives them (the job, an array's every record, a task by its own id);
 * for ID 0 those of user UID (its numeric id: a user without a passwd
 * entry has jobs too), every user's when UID < 0.  In JSON a name that is
 * not UTF-8 reads with \xHH for each byte that is not (termtext.h); in
 * columns every value is as slurmctld has it (any byte but NUL), less
 * the blanks it ended with, and a value that filled its column (squeue
 * cut it) is not known, but for a dependency list, of which the whole
 * elements it printed are kept, and an array's task list, which then
 * ends in "..." as libslurm cuts one.  An error, LIST as it was, when
 * TEXT is not such output.
 */
struct error	*jobtext_squeue(int, const char *, size_t, int64_t, int64_t,
		    struct job_list *);

/*
 * In *ID the id of the job of user UID named exactly NAME (an array's own
 * id for a task) in what squeue printed for jobtext_squeue_args(RELEASE,
 * 0, ...), or 0.
 */
struct error	*jobtext_squeue_find(int, const char *, size_t, const char *,
		    int64_t, int64_t *);

/*
 * What a client said on its standard error TEXT, as one line: its last
 * "error:" or "fatal:" line (its verdict; "Try sbatch --help" may
 * follow), else its last line, without "PROG: " and "error: "; a new
 * string.
 */
char		*jobtext_client_message(const char *, const char *);

/*
 * The SLUID of job ID (its own id, JobIDRaw) in what "sacct --noheader
 * --format=JobIDRaw%-20,SLUID%-20" printed (25.11; sacct/print.c
 * PRINT_SLUID): "s" and 13 letters of Crockford's base 32 on ID's line.
 * An array's id lists every task, each with its own SLUID (a task split
 * off gets a new one; the last keeps the array's: job_mgr.c
 * _copy_job_record_to_job_array).  A new string, or NULL when it is not
 * there (no job, a release without SLUIDs).
 */
char		*jobtext_sluid(const char *, int64_t);

/* The job id in what "sbatch --parsable" printed ("123", "123;cluster",
 * a line), in *ID; an error quoting the text when it is not that. */
struct error	*jobtext_sbatch_id(const char *, int64_t *);

/* What sbatch said on its standard error while queueing a job, a line
 * each, without "sbatch: " and "warning: ": a new NULL-terminated array
 * of new strings (freev() them). */
char		**jobtext_sbatch_warnings(const char *);

/*
 * What "sbatch --test-only" said on its standard error TEXT, run with
 * SLURM_TIME_FORMAT=%s, in *W: the line slurm_job_will_run() prints
 * (src/api/allocate.c; 22.05.8 :569 "Job N to start at TIME using P
 * processors on nodes X in partition Y"; 25.11.7 :641 adds " on cluster
 * C" after the time and an "a" before "using"), its "  Preempts: "
 * line, and any other line as a message of the site's job_submit
 * plugin.  An error quoting the text when there is no such line.
 */
struct will_run;
struct error	*jobtext_will_run(const char *, struct will_run *);

/* The release in what "sbatch --version" printed ("slurm 25.11.7",
 * Debian's "slurm-wlm 22.05.8"): 2511, 2205; 0 when it says none. */
int		 jobtext_release(const char *);

#endif
