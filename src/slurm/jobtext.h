/*
 * jobtext.h: jobs as Slurm's clients print them, read into the records of
 * backend.h: "scontrol show job --oneliner" (slurmctld) and
 * "sacct --parsable2" (accounting), for the sbatch back end.  Pure.
 * Times are read as the clients print them with SLURM_TIME_FORMAT=%s
 * (seconds since the epoch; "Unknown", "None": unset), or in their
 * default form (2026-12-02T05:48:30, local time).
 */
#ifndef MBSBATCH_JOBTEXT_H
#define MBSBATCH_JOBTEXT_H

#include <stdint.h>

struct error;
struct job_list;

/*
 * sacct's field separator: one no job name or path holds in practice
 * (a name may hold sacct's default '|').  A line of the wrong number of
 * fields is an error, never read askew.
 */
#define JOBTEXT_SACCT_DELIM	"\x1f"

/*
 * The fields to ask sacct for (--format), for a Slurm of RELEASE (2205,
 * 2511; 0: not known): StdOut and StdErr from 24.05, Restarts from 24.11
 * (an unknown field makes sacct fail).  A static string.
 */
const char	*jobtext_sacct_fields(int);

/*
 * Append to LIST a record (source JOB_SOURCE_CTLD) for each job line of
 * TEXT, what "scontrol show job --oneliner [ID]" printed: only the jobs
 * of user UID when UID is not -1.  Lines that are no job ("No jobs in
 * the system") are skipped.  An error, LIST as it was, when a job line
 * has no JobId or JobState.
 */
struct error	*jobtext_scontrol(const char *, int64_t, struct job_list *);

/*
 * Append to LIST a record (source JOB_SOURCE_DBD) for each line of TEXT,
 * what "sacct --allocations --parsable2 --delimiter=JOBTEXT_SACCT_DELIM
 * --format=..." printed with its header line, which names the fields;
 * JobIDRaw and State must be among them.  An error, LIST as it was, when
 * a line does not match the header.
 */
struct error	*jobtext_sacct(const char *, struct job_list *);

#endif
