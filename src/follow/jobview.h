/*
 * jobview.h: a job's records as status, jobs and status --journal show
 * them: a line for a job or a task, counts per state for an array, and
 * the same as JSON (mbsbatch-status(1) lists the keys).
 */
#ifndef MBSBATCH_JOBVIEW_H
#define MBSBATCH_JOBVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "backend.h"

/* Has a job in STATE (Slurm's name) ended?  False for a name not
 * Slurm's. */
bool		 job_state_ended(const char *);

/* Is the LEN bytes of STATE, any case, one of Slurm's job states? */
bool		 job_state_known(const char *, size_t);

/* Slurm's state closest to the LEN bytes of WORD (any case), when one
 * is close enough ("runing": RUNNING), else NULL. */
const char	*job_state_suggest(const char *, size_t);

/* Did S end well: COMPLETED, exit code 0? */
bool		 job_ok(const struct job_status *);

/* Is LIST (the records of job ID) an array's? */
bool		 job_list_is_array(const struct job_list *, int64_t);

/* An array's tasks, counted from its records. */
struct array_view {
	int64_t		 tasks;		/* -1: a group we cannot count */
	const char	*states[16];	/* distinct states, first seen first */
	int64_t		 count[16];
	size_t		 nstates;
	int64_t		 not_ok;	/* tasks ended other than COMPLETED 0 */
	bool		 ended;		/* every task */
	int		 max_exit;	/* the highest exit code of an ended task */
	bool		 exit_unknown;	/* some ended task's is not known */
	const char	*state;		/* the array's, as one word */
};
void		 array_view_make(const struct job_list *, struct array_view *);

/* "123", "123_4" or "123_[5-9]": how squeue names a record. */
void		 job_status_name(const struct job_status *, char *, size_t);

/* One line for S (no newline): "job 123: RUNNING, 1 node ...". */
void		 job_status_print(FILE *, const struct job_status *);

/* An array: "array 123: 10 tasks: 6 COMPLETED, ...", then each task that
 * did not end well, one a line. */
void		 array_print(FILE *, int64_t, const struct job_list *);

/* S as status --json's object; BACKEND the back end's name. */
json_t		*job_status_json(const struct job_status *, const char *);

/* An array as status --json's object: its records under "tasks". */
json_t		*array_json(int64_t, const struct job_list *, const char *);

/* An ISO 8601 local time, or JSON null for 0. */
json_t		*job_time_json(int64_t);

#endif
