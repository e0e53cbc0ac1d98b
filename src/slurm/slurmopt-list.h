/*
 * slurmopt-list.h: the simple Slurm options, one row each.  A simple
 * option is a string setting and nothing more: given, it is one #SBATCH
 * line; read back, its check; sent, one string of the job description.
 * Every place that needs those rows expands this list (an X-macro: no
 * include guard), so a new one is a row here plus its check:
 *
 *	settings.h		SET_<ID> in enum setting_id
 *	settings-table.c	its row: --OPTION, key MEMBER, where it may
 *				be written (SLURM_CLI), ARG and HELP
 *	slurmopt.c		its row of slurmopt_table: #SBATCH --OPTION
 *				(and -SHORT), read back through CHECK, sent
 *				under REST_KEY by the REST back end
 *	jobdesc.h		char *MEMBER in struct jobdesc (freed by
 *				jobdesc_release() through the table)
 *	backend-native.c	libslurm's job_desc_msg_t LIBSLURM, and the
 *				dry run's line
 *
 * SLURMOPT_SIMPLE(ID, OPTION, SHORT, MEMBER, LIBSLURM, CHECK, ARG, HELP,
 *     REST_KEY):
 *	ID	 SET_<ID> (settings.h)
 *	OPTION	 "reservation": the long option, here and in sbatch
 *	SHORT	 sbatch's short option ('p'), or 0
 *	MEMBER	 the field of struct jobdesc, also the key in job files
 *		 and cluster profiles and the dry run's label
 *	LIBSLURM the member of libslurm's job_desc_msg_t
 *	CHECK	 the value's check (slurmopt.h): NULL or why it is refused,
 *		 for the command line, files and #SBATCH lines alike
 *	ARG, HELP  what --help shows
 *	REST_KEY the key in a REST job description
 *
 * Where the rows go is observable: in scripts and REST requests they
 * follow slurmopt_table, in --help the settings enum.  SLURMOPT_SIMPLE
 * rows come after --gpus-per-node (before --time); SLURMOPT_SIMPLE_LATE
 * rows after --constraint (before --dependency), which keeps
 * --reservation where it always was.  A new option goes at the end, as a
 * SLURMOPT_SIMPLE_LATE row.  A site that keeps no order defines
 * SLURMOPT_SIMPLE only; the LATE rows then expand through it.  This file
 * #undefs both.
 */
#ifndef SLURMOPT_SIMPLE
#define SLURMOPT_SIMPLE(id, option, shortopt, member, libslurm, check, \
    arg, help, rest_key)	/* none: the file compiles on its own */
#endif
#ifndef SLURMOPT_SIMPLE_LATE
#define SLURMOPT_SIMPLE_LATE	SLURMOPT_SIMPLE
#endif

SLURMOPT_SIMPLE(PARTITION, "partition", 'p', partition, partition,
    slurmopt_check_name, "NAME", "Slurm partition", "partition")
SLURMOPT_SIMPLE(ACCOUNT, "account", 'A', account, account,
    slurmopt_check_name, "NAME", "Slurm account", "account")
SLURMOPT_SIMPLE(QOS, "qos", 'q', qos, qos,
    slurmopt_check_name, "NAME", "Slurm quality of service", "qos")

SLURMOPT_SIMPLE_LATE(RESERVATION, "reservation", 0, reservation,
    reservation, slurmopt_check_name, "NAME", "Slurm reservation",
    "reservation")
/* sbatch --exclude and --nodelist take a hostlist, or a file when the
 * value has a '/' (slurm_opt.c), which only sbatch itself could read:
 * slurmopt_check_hostlist() refuses it.  REST has no single key for
 * them: rest-submit.c sends each by version (put_nodelists()). */
SLURMOPT_SIMPLE_LATE(EXCLUDE, "exclude", 'x', exclude, exc_nodes,
    slurmopt_check_hostlist, "NODES", "nodes the job must not use",
    NULL)
SLURMOPT_SIMPLE_LATE(NODELIST, "nodelist", 'w', nodelist, req_nodes,
    slurmopt_check_hostlist, "NODES", "nodes the job must include",
    NULL)
SLURMOPT_SIMPLE_LATE(COMMENT, "comment", 0, comment, comment,
    slurmopt_check_text, "TEXT", "job comment (scontrol, sacct)",
    "comment")
SLURMOPT_SIMPLE_LATE(MAIL_USER, "mail-user", 0, mail_user, mail_user,
    slurmopt_check_text, "ADDRESS", "who gets the --mail-type mail",
    "mail_user")

#undef SLURMOPT_SIMPLE
#undef SLURMOPT_SIMPLE_LATE
