/*
 * jobref.h: a job as the user names it ("123", "123_4") and an array's
 * task list as Slurm writes it ("1-9", "1,3,5-9:2%4"); pure.
 */
#ifndef MBSBATCH_JOBREF_H
#define MBSBATCH_JOBREF_H

#include <stdbool.h>
#include <stdint.h>

struct job_ref {
	int64_t		 id;	/* a job's id, or an array's */
	int64_t		 task;	/* the array's task; -1: the whole job */
};

/*
 * TEXT as a job: "ID" or "ID_TASK" (Slurm's own spelling), ID from 1 to
 * 4294967294, TASK from 0 to 4000000.  NULL, or why not.
 */
const char	*job_ref_parse(const char *text, struct job_ref *);

/*
 * How many tasks Slurm's list TASKS names ("1-9", "1,3,5-9:2", with or
 * without "%N"); -1 when it is not a list we can read (a hex mask).
 */
int64_t		 array_tasks_count(const char *tasks);

/* Does Slurm's list TASKS name TASK?  False when unreadable. */
bool		 array_tasks_has(const char *tasks, int64_t task);

/*
 * The list of a task mask as accounting stores a group ("0x3F0": bit N
 * is task N) with "%MAX" when MAX > 0 (a new string); NULL when MASK is
 * no mask or names no task.
 */
char		*array_tasks_from_mask(const char *mask, int64_t max);

#endif
