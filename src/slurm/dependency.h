/*
 * dependency.h: which jobs wait for which, from the dependency lists
 * slurmctld shows ("afterany:123(unfulfilled)", "afterok:7_*(unfulfilled)
 * ?afternotok:8(unfulfilled)", ...); pure.  Slurm drops a dependency
 * from the list once it is fulfilled: a job that started no longer
 * names the one it waited for.
 */
#ifndef MBSBATCH_DEPENDENCY_H
#define MBSBATCH_DEPENDENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct job_list;

/*
 * Does the dependency list DEP (Slurm's syntax: elements TYPE:ID[_TASK
 * |_*][+TIME][(STATE)] or TYPE:ID:ID..., joined by ',' or '?'; NULL or
 * "" for none) name job ID?  "singleton" names none.
 */
bool		 dependency_names(const char *, int64_t);

/*
 * The jobs of LIST that wait for ROOT, directly or through one another,
 * each once, in the order found: a job after the one it waits for.  A
 * task of an array counts as its array (its id is the array's), and a
 * job waiting for one of an array's tasks waits for the array.  *IDS and
 * *AFTER (the job each waits for; both new arrays, free them) get *N
 * entries; ROOT is not among them.
 */
void		 dependency_closure(const struct job_list *, int64_t,
		    int64_t **, int64_t **, size_t *);

#endif
