/*
 * slurmopt.h: the Slurm options of a job (docs/SPEC.md section 3, gen): the
 * #SBATCH directives in the order a script carries them, each with where
 * it came from, and the checks of values written in Slurm's own syntax
 * (time limits, memory, signals, dependencies, names).  Pure.
 *
 * It stands in src/slurm/, as the back ends read its table, yet includes
 * settings.h of the job's floor above: each row names the setting it is
 * written from, and slurmopt_compute() reads the job's merged settings.
 * Splitting the table (Slurm's) from the writing (the job's) would end
 * that one arrow back up.
 */
#ifndef MBSBATCH_SLURMOPT_H
#define MBSBATCH_SLURMOPT_H

#include <stdbool.h>
#include <stdint.h>

#include "settings.h"	/* up: each row names its setting */
#include "sizing.h"

/*
 * To add a Slurm option that is a plain string (given, it is one #SBATCH
 * line; read back, it goes through a check; sent, it is one string of
 * the job description): one row of slurmopt-list.h and its check, here
 * and in slurmopt.c unless an existing one fits.  The row makes the
 * setting (its option, job-file and profile key, --help), the row of
 * slurmopt_table (its place in scripts, its reading back and REST key),
 * the char * of struct jobdesc and libslurm's member in
 * backend-native.c.  Its SBATCH_ variable needs nothing: env_vars in
 * sbatch-directives.c is sbatch's own list and reads each variable for
 * the option of that name here.  Then its line in the man pages
 * (mbsbatch-gen(1), mbsbatch-submit(1), mbsbatch.conf(5)).
 *
 * An option with rules of its own (a default, a number or a flag, a
 * check that differs between the setting and the #SBATCH line, a place
 * of its own in an output) is written out instead: its setting
 * (settings.h, settings-table.c), a row of slurmopt_table with an SW_
 * case in write_row() when it is not just written as given, an SK_ kind
 * with its code in sbatch-directives.c when it is not a string, count or
 * flag, its field in struct jobdesc (jobdesc.h), its place in a REST job
 * (rest_key, or code in rest-submit.c) and libslurm's member in
 * backend-native.c (nat_fill_desc() and nat_describe()).
 */

/*
 * An sbatch option with no setting of its own (--slurm-opt sets it) that
 * the REST and native back ends should carry: one row of
 * slurmopt-carried.h (its jobdesc field, check, libslurm member and REST
 * key per API version).
 */

/* How a row is read back from an #SBATCH line into a struct jobdesc. */
enum slurmopt_kind {
	SK_STRING,	/* a char * at field, through check (if any) */
	SK_COUNT,	/* a whole number >= 1: an int64_t at field */
	SK_FLAG,	/* no value: a bool at field */
	/* Code of their own in sbatch-directives.c: */
	SK_NODES, SK_GPUS_PER_NODE, SK_GPUS_PER_TASK, SK_GRES, SK_MEM,
	SK_TIME, SK_EXCLUSIVE, SK_SIGNAL, SK_REQUEUE, SK_NO_REQUEUE,
	SK_EXPORT, SK_SEGMENT, SK_OPEN_MODE, SK_MAIL_TYPE,
	SK_NICE,	/* --nice[=N]: an int64_t at field, 0 unset */
};

/* How a row is written into a script by slurmopt_compute(). */
enum slurmopt_write {
	SW_NONE,	/* never: only read back */
	SW_GIVEN,	/* the setting's value, when it has one */
	SW_GIVEN_COUNT,	/* the number setting's value, when it has one */
	/* Code of their own in slurmopt.c: */
	SW_JOB_NAME, SW_NODES, SW_TASKS_PER_NODE, SW_GPUS_PER_NODE,
	SW_OUTPUT, SW_EXCLUSIVE, SW_MEM, SW_SIGNAL, SW_REQUEUE,
	SW_OPEN_MODE, SW_SEGMENT, SW_HOLD,
};

enum slurmopt_arg {
	SA_NONE,	/* a flag: --requeue */
	SA_REQUIRED,	/* --name=value or --name value */
	SA_OPTIONAL,	/* --name or --name=value */
};

struct slurmopt_def {
	const char		*name;		/* "reservation" */
	int			 shortopt;	/* sbatch's: 'p', or 0 */
	enum slurmopt_arg	 arg;
	enum slurmopt_write	 write;
	enum setting_id		 setting;	/* SW_GIVEN: the value */
	enum slurmopt_kind	 kind;
	size_t			 field;		/* SK_STRING, SK_COUNT,
						   SK_FLAG: in struct jobdesc */
	/* SK_STRING: NULL or why a value read back is refused. */
	const char		*(*check)(const char *);
	const char		*rest_key;	/* SK_STRING: in a REST job */
};

/* In the order a script carries the options; then those only read. */
extern const struct slurmopt_def slurmopt_table[];
extern const size_t slurmopt_table_size;

struct jobdesc;

/* Where row R's value is in D: a char * (SK_STRING), an int64_t
 * (SK_COUNT) or a bool (SK_FLAG). */
void		*slurmopt_field(const struct slurmopt_def *,
		    const struct jobdesc *);

/* The row of #SBATCH option NAME (LEN bytes), or NULL. */
const struct slurmopt_def *slurmopt_find(const char *, size_t);

/*
 * How the site takes a job's GPUs (profile key gpu_request): Slurm reads
 * both forms into the job's tres_per_node (slurm_opt.c,
 * slurm_opt_create_job_desc()), but a site's job_submit plugin or its
 * GRES setup may take only one ("Invalid generic resource").
 */
enum slurmopt_gpu_request {
	GPU_REQUEST_GPUS_PER_NODE = 0,	/* --gpus-per-node=[TYPE:]N */
	GPU_REQUEST_GRES,		/* --gres=gpu:[TYPE:]N */
};

struct slurmopt_input {
	const struct settings *set;		/* the job's, merged */
	int64_t		 nodes;
	int64_t		 tasks_per_node;	/* 0: uneven, not written */
	int64_t		 gpus_per_node;
	int64_t		 nvlink_domain;
	const char	*gpu_type;		/* or NULL */
	/* The site's GRES type of the GPUs (gres_types[gpu_type]), or
	 * NULL: the request names no type. */
	const char	*gres_type;
	enum slurmopt_gpu_request gpu_request;
	const char	*job_name;		/* never NULL */
	bool		 hold;
};

/* The directives of slurmopt_table (under 32), then at most
 * SLURMOPT_EXTRA_MAX of --slurm-opt. */
#define SLURMOPT_EXTRA_MAX	32
#define SLURMOPT_MAX		(32 + SLURMOPT_EXTRA_MAX)

struct slurm_directive {
	const char	*option;	/* "nodes": --nodes */
	const char	*value;		/* NULL for a flag or a number */
	int64_t		 number;	/* the value, when is_number */
	bool		 is_number;	/* a number we computed */
	const char	*origin;
};

struct slurmopt {
	struct slurm_directive	 d[SLURMOPT_MAX];
	int			 n;
	/* With --requeue: the signal the batch shell traps and scancel
	 * sends, as every release names it ("TERM"), else its number
	 * ("17"); and its number. */
	char			 trap_signal[16];
	int			 trap_num;
	char			 signal_buf[48];
	char			 gpu_buf[96];	/* a typed GPU request */
};

void		 slurmopt_compute(const struct slurmopt_input *,
		    struct slurmopt *);

/* Directive OPTION, or NULL. */
const struct slurm_directive *slurmopt_find_directive(const struct slurmopt *,
		    const char *);

/* The value of string directive OPTION, or NULL (a flag's value is "",
 * a number's NULL). */
const char	*slurmopt_get(const struct slurmopt *, const char *);

/* D's value as an #SBATCH line writes it into BUF (LEN bytes), or NULL
 * for a flag. */
const char	*slurmopt_value(const struct slurm_directive *, char *, size_t);

/*
 * Checks for values in Slurm's syntax: NULL when S is acceptable, else a
 * static reason ("is not a Slurm time: MINUTES, ...").  Used by the
 * settings table for the command line, job files and profiles alike.
 */
const char	*slurmopt_check_time(const char *);
const char	*slurmopt_check_mem(const char *);
/* slurmopt_signal_parse(), and a signal of at most SLURMOPT_SIGNAL_MAX. */
const char	*slurmopt_check_signal(const char *);
const char	*slurmopt_check_dependency(const char *);
const char	*slurmopt_check_name(const char *);	/* partition, ... */
const char	*slurmopt_check_constraint(const char *);
const char	*slurmopt_check_text(const char *);	/* job name, paths */
/* --exclude, --nodelist: node names and ranges ("gpu[01-04],gpu7"). */
const char	*slurmopt_check_hostlist(const char *);
/* A GRES type as a request names it: "gpu:TYPE:N" is split at ':' and
 * ',' (gres.c _get_next_gres()); here letters, digits and "_.+-". */
const char	*slurmopt_check_gres_type_name(const char *);
/* --acctg-freq: validate_acctg_freq()'s TYPE=SECONDS list. */
const char	*slurmopt_check_acctg_freq(const char *);
/* --nice[=N] as sbatch's arg_set_nice() takes it: N in *OUT (NULL: 100);
 * NULL, or why it is refused. */
const char	*slurmopt_nice(const char *, int64_t *);
/* --mail-type: words sbatch knows (NONE, ALL, BEGIN, ...), by commas. */
const char	*slurmopt_check_mail_type(const char *);

/*
 * Mail types: slurm.h's MAIL_* bits (the same from 22.05 to 25.11), and
 * their names, sbatch's (--mail-type) and slurmrestd's (v0.0.39 on).
 */
#define SLURMOPT_MAIL_BEGIN		0x001
#define SLURMOPT_MAIL_END		0x002
#define SLURMOPT_MAIL_FAIL		0x004
#define SLURMOPT_MAIL_REQUEUE		0x008
#define SLURMOPT_MAIL_TIME100		0x010
#define SLURMOPT_MAIL_TIME90		0x020
#define SLURMOPT_MAIL_TIME80		0x040
#define SLURMOPT_MAIL_TIME50		0x080
#define SLURMOPT_MAIL_STAGE_OUT		0x100
#define SLURMOPT_MAIL_ARRAY_TASKS	0x200
#define SLURMOPT_MAIL_INVALID_DEPEND	0x400
struct slurmopt_mail {
	int		 bit;
	const char	*sbatch;	/* "TIME_LIMIT_90" */
	const char	*rest;		/* "TIME=90%" */
};
extern const struct slurmopt_mail slurmopt_mail_types[];
extern const size_t slurmopt_mail_ntypes;

/*
 * The bits sbatch's parse_mail_type() makes of S (src/common/
 * proc_args.c, the same 22.05 to 25.11): a comma-separated list, any
 * case; ALL is every type but the time limits and ARRAY_TASKS; NONE
 * clears what came before it and ends the list; other words are
 * passed over.  -1 when nothing is left but unknown words (sbatch:
 * "Invalid --mail-type specification").
 */
int		 slurmopt_mail_type(const char *);

/* A Slurm time in minutes (seconds round up); *unlimited for UNLIMITED.
 * -1 when S is not a Slurm time. */
int		 slurmopt_time_minutes(const char *, int64_t *, bool *);

/* A Slurm memory size in MiB (the default unit; K rounds up). */
int		 slurmopt_mem_mb(const char *, int64_t *);

/*
 * Signals as Slurm names them: signals_mapping[] of src/common/
 * proc_args.c, which sbatch --signal, scancel --signal and slurmrestd
 * read (sig_name2num()) and print (sig_num2name()).  One table, each name
 * with the first release that knows it (0: every release mbsbatch
 * supports, 22.05 on); the parser below and the release checks of
 * #SBATCH lines, REST jobs and gen use it.
 */
#define SLURMOPT_RELEASE_OLDEST	2205	/* the oldest release supported */
#define SLURMOPT_SIGNAL_MAX	64	/* SIGRTMAX: above, no signal */

/* --signal as sbatch reads it. */
struct slurmopt_signal {
	int		 num;	/* 1 to 65535 (sbatch keeps 16 bits) */
	int		 secs;	/* before the time limit: 0 to 65535 */
	bool		 batch;	/* B: the batch shell only */
	bool		 resv;	/* R: also before a reservation ends */
	bool		 named;	/* written as a name, not a number */
	int		 since;	/* the first release that knows the name
				   written; 0 for a number or a name every
				   release knows */
};

/*
 * S as sbatch's get_signal_opts() reads it (proc_args.c, 22.05 to
 * 25.11): R, then B, then R again (any case), an optional ':'; up to
 * '@' a number (strtol(), white space around it, taken as 16 bits) or
 * a name (white space around it, any case, SIG or not) of any release;
 * after '@' the seconds, strtol()'s, 0 to 65535, to the end; none: 60.
 * NULL and *OUT set, or a static reason sbatch of every release refuses
 * it ("Invalid --signal specification").  The release is the caller's
 * to check (OUT->since).
 */
const char	*slurmopt_signal_parse(const char *, struct slurmopt_signal *);

/* sig_name2num(): the number of S (a number, or a name of any release),
 * or 0; *SINCE (unless NULL) as in struct slurmopt_signal. */
int		 slurmopt_signal_number(const char *, int *);

/* sig_num2name() of Slurm REL (2205, ...; 0: the newest): the name of
 * signal NUM, "USR1", static; NULL when that release has none. */
const char	*slurmopt_signal_name(int, int);

/* With --requeue and no --signal, the batch shell is signalled this long
 * before the time limit (Megatron-Bridge's PreemptionPlugin: TERM@60). */
#define SLURMOPT_REQUEUE_SIGNAL	"B:TERM@60"

/* The --segment value on NVL72 racks: nodes when <= 18, else the
 * largest divisor of nodes that is <= 18. */
int64_t		 slurmopt_segment(int64_t);

#endif
