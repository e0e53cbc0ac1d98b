/*
 * slurmopt.h: the Slurm options of a job (docs/SPEC.md section 3, gen): the
 * #SBATCH directives in the order a script carries them, each with where
 * it came from, and the checks of values written in Slurm's own syntax
 * (time limits, memory, signals, dependencies, names).  Pure.
 */
#ifndef MBSBATCH_SLURMOPT_H
#define MBSBATCH_SLURMOPT_H

#include <stdbool.h>
#include <stdint.h>

#include "sizing.h"

struct slurmopt_input {
	int64_t		 nodes;
	int64_t		 tasks_per_node;	/* 0: uneven, not written */
	int64_t		 gpus_per_node;
	int64_t		 nvlink_domain;
	const char	*gpu_type;		/* or NULL */
	const char	*job_name;		/* never NULL */
	bool		 job_name_given;
	const char	*partition, *account, *qos, *time;
	const char	*output, *error;	/* NULL: logs/%x-%j.out */
	const char	*mem, *constraint, *reservation, *dependency;
	const char	*signal;
	enum tristate	 exclusive, requeue;
	bool		 hold;
};

#define SLURMOPT_MAX		32
#define SLURMOPT_VALUE_MAX	32

struct slurm_directive {
	const char	*option;	/* "nodes": --nodes */
	const char	*value;		/* NULL for a flag such as --exclusive */
	char		 buf[SLURMOPT_VALUE_MAX];
	bool		 number;	/* value is a number we computed */
	const char	*origin;
};

struct slurmopt {
	struct slurm_directive	 d[SLURMOPT_MAX];
	int			 n;
	/* With --requeue: the signal the batch shell traps ("TERM"). */
	char			 trap_signal[16];
	char			 signal_buf[48];
};

void		 slurmopt_compute(const struct slurmopt_input *,
		    struct slurmopt *);

/* The value of directive OPTION, or NULL (a flag's value is ""). */
const char	*slurmopt_get(const struct slurmopt *, const char *);

/*
 * Checks for values in Slurm's syntax: NULL when S is acceptable, else a
 * static reason ("is not a Slurm time: MINUTES, ...").  Used by the
 * settings table for the command line, job files and profiles alike.
 */
const char	*slurmopt_check_time(const char *);
const char	*slurmopt_check_mem(const char *);
const char	*slurmopt_check_signal(const char *);
/* The number of signal NAME ("USR2", "SIGTERM"), or 0 if sbatch would
 * not know it. */
int		 slurmopt_signal_number(const char *);
const char	*slurmopt_check_dependency(const char *);
const char	*slurmopt_check_name(const char *);	/* partition, ... */
const char	*slurmopt_check_constraint(const char *);
const char	*slurmopt_check_text(const char *);	/* job name, paths */

/* A Slurm time in minutes (seconds round up); *unlimited for UNLIMITED.
 * -1 when S is not a Slurm time. */
int		 slurmopt_time_minutes(const char *, int64_t *, bool *);

/* A Slurm memory size in MiB (the default unit; K rounds up). */
int		 slurmopt_mem_mb(const char *, int64_t *);

/* With --requeue and no --signal, the batch shell is signalled this long
 * before the time limit (Megatron-Bridge's PreemptionPlugin: TERM@60). */
#define SLURMOPT_REQUEUE_SIGNAL	"B:TERM@60"

/* The --segment value on NVL72 racks: nodes when <= 18, else the
 * largest divisor of nodes that is <= 18. */
int64_t		 slurmopt_segment(int64_t);

#endif
