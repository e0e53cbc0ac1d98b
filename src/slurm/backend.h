/*
 * backend.h: one interface to Slurm, three implementations
 * (docs/SPEC.md section 1): "rest" (slurmrestd over libcurl), "native"
 * (libslurm, when built with it) and "sbatch" (the sbatch, scontrol and
 * scancel clients).
 * submit, status and cancel behave the same whichever is used.
 */
#ifndef MBSBATCH_BACKEND_H
#define MBSBATCH_BACKEND_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

struct error;
struct jobdesc;
struct jobdesc_context;
struct site;

/* How to reach Slurm: from the command line, the environment or a
 * profile of the config file, never from a job file. */
struct backend_opts {
	const char	*rest_url;	/* http(s)://HOST:PORT or unix:/PATH */
	const char	*api_version;	/* "v0.0.38", "auto" or NULL */
	const char	*token_file;	/* else $SLURM_JWT */
	const char	*cacert;
	const char	*user;		/* else the login name */
	long		 timeout;	/* REST: seconds; 0 for the default */
	bool		 insecure_http;	/* a token over http:// to another
					   host (else refused) */
	int		 verbose;
};

/* Extra options of one submission, beyond the script's directives. */
struct submit_opts {
	bool		 hold;
	const char	*dependency;	/* e.g. "afterany:123" for --chain */
	/* Slurm cancels the job once its dependency can never be met
	 * (sbatch --kill-on-invalid-dep=yes): a chain's afterok. */
	bool		 kill_invalid_dep;
	/* NAME=value the job gets whatever --export says, as sbatch
	 * --export=...,NAME=value gives them (a chain's MBSBATCH_CHAIN_PREV);
	 * NULL-terminated, or NULL. */
	const char *const *env;
	const char	*script_path;	/* --script FILE, or NULL */
};

struct submit_result {
	int64_t		 job_id;
	int		 release;	/* the cluster's Slurm, as 2205,
					   2511; 0: not known */
	char		*user;		/* whose job it is when not the
					   login name's (REST's user) */
	char		**warnings;	/* queued, but Slurm said something */
	size_t		 nwarnings;
};

/*
 * What Slurm answers when asked whether and when it would start a job,
 * without queueing it (submit --test-only): slurmctld's will-run answer
 * (will_run_response_msg_t, slurm.h), as libslurm gives it and sbatch
 * --test-only prints it.
 */
struct will_run {
	int64_t		 start_time;	/* Unix time */
	char		*nodes;		/* "mbsnode[0-1]"; NULL: not said */
	char		*partition;	/* NULL: not said */
	int64_t		 processors;
	char		*preempts;	/* the jobs it would preempt, "12,13";
					   NULL: none */
	char		**messages;	/* what the site's job_submit plugin
					   said */
	size_t		 nmessages;
	int		 release;	/* the cluster's Slurm; 0: not known */
};

void		 will_run_release(struct will_run *);

/* Who answered for a job: slurmctld, or accounting once it forgot it. */
enum job_source {
	JOB_SOURCE_CTLD,	/* "slurmctld" */
	JOB_SOURCE_DBD,		/* "slurmdbd" */
	JOB_SOURCE_RECORD	/* "record": neither has it; mbsbatch's
				   record of its submission (submitted.h) */
};

/* A job's state, Slurm's own names whatever the back end. */
struct job_status {
	int64_t		 job_id;
	char		 state[32];	/* PENDING, RUNNING, COMPLETED, ... */
	char		*reason;	/* "None", "Priority", ...; or NULL */
	int64_t		 nodes;
	char		*partition;
	char		*name;
	char		*node_list;
	int64_t		 submit_time, start_time, end_time;	/* 0: unset */
	int		 exit_code;	/* with exit_known */
	int		 exit_signal;
	bool		 exit_known;
	/*
	 * Where it writes, as Slurm tells: a pattern (libslurm; REST
	 * v0.0.38) or a path already expanded (std_expanded: REST v0.0.40
	 * on, scontrol); NULL std_out: Slurm's default, std_err: with the
	 * output.  Any of these may be NULL.
	 */
	char		*std_out, *std_err;
	bool		 std_expanded;
	/* The cluster's Slurm, as 2205, 2511 (as submit_result's): whose
	 * rules expand a pattern; 0: not known (the newest's). */
	int		 release;
	char		*work_dir;
	char		*batch_host;	/* NULL until it starts */
	char		*user;
	int64_t		 array_job_id;	/* 0: not an array */
	int64_t		 array_task_id;	/* -1: not a task of one */
	int64_t		 restart_cnt;
	/* Accounting did not say (22.05's sacct and slurmdb_job_rec_t keep
	 * no count): restart_cnt is 0, not the count. */
	bool		 restart_unknown;
	/* A record standing for an array's tasks not yet started, in
	 * Slurm's words ("5-9", "1,3,7-9%2"): array_task_id is -1. */
	char		*array_tasks;
	char		*dependency;	/* "afterany:12(unfulfilled)"; NULL:
					   none left */
	enum job_source	 source;
	/* 25.11: the job's SLUID as Slurm prints it ("s355M96FDBCR00"),
	 * what %S writes; NULL: not told (older releases, or a back end
	 * whose answer has it in the paths it expanded). */
	char		*sluid;
};

/* Records of jobs, as one answer gives them. */
struct job_list {
	struct job_status	*v;
	size_t			 n;
};

struct backend_ctx;

/*
 * A back end.  To add one: a file src/slurm/backend-NAME.c (and its line
 * in slurm_sources, Makefile.am) defining "const struct backend backend_NAME" with every
 * operation below, its line in backend_table[] (backend.c), and its name
 * in the three spellings of BACKEND_NAMES* below (the --via values
 * docs/SPEC.md names; literal strings, for the settings table's static
 * rows); nothing else compares names.
 */
struct backend {
	const char	*name;		/* "rest", "native", "sbatch" */
	struct error	*(*open)(const struct backend_opts *,
			    struct backend_ctx **);
	struct error	*(*submit)(struct backend_ctx *, const struct jobdesc *,
			    const struct jobdesc_context *,
			    const struct submit_opts *, struct submit_result *);
	/* Every record slurmctld has for job ID in *LIST (appended): the
	 * job; for an array's id, each task started and one record per
	 * group not yet started (array_tasks); for a task's own id, that
	 * task.  None (and no error) when slurmctld does not know it. */
	struct error	*(*status)(struct backend_ctx *, int64_t,
			    struct job_list *);
	/* The same from accounting (slurmdbd: REST /slurmdb/, libslurm's
	 * slurmdb_jobs_get, sacct), source JOB_SOURCE_DBD; none when it
	 * has no such job; an error when the cluster has no accounting or
	 * this back end cannot reach it. */
	struct error	*(*history)(struct backend_ctx *, int64_t,
			    struct job_list *);
	/* Every attempt accounting keeps of job ID (each requeue's record
	 * too: sacct --duplicates), as history gives records; NULL where
	 * the back end cannot ask (report then asks sacct itself). */
	struct error	*(*attempts)(struct backend_ctx *, int64_t,
			    struct job_list *);
	/* Every step accounting keeps of every attempt of job ID, each a
	 * record with its job_id, state, start, end and name (the step's);
	 * NULL where the back end cannot ask (as attempts). */
	struct error	*(*steps)(struct backend_ctx *, int64_t,
			    struct job_list *);
	/* Every job of the session's user (the login name, or REST's
	 * --user) that slurmctld knows, records as status gives them. */
	struct error	*(*list)(struct backend_ctx *, struct job_list *);
	/*
	 * Whether and when Slurm would start job D with SO, asked without
	 * queueing anything, in *W: an EXIT_FAILURE_OP error with Slurm's
	 * reason when it never could.  A back end that cannot ask says so
	 * in an error naming the cluster's release.
	 */
	struct error	*(*will_run)(struct backend_ctx *,
			    const struct jobdesc *,
			    const struct jobdesc_context *,
			    const struct submit_opts *, struct will_run *);
	/* An error of kind ERROR_NO_SUCH_JOB for a job slurmctld does not
	 * know, ERROR_ALREADY_DONE (job_done_error()) for one that had
	 * ended, which Slurm refuses to signal. */
	struct error	*(*cancel)(struct backend_ctx *, int64_t);
	/* The job of the user this session submits as (the login name, or
	 * REST's --user) whose name is exactly NAME (the array's id for an
	 * array) in *JOB_ID, or 0: how a sweep learns whether a submission
	 * it was killed during went through.  Another user's job of the
	 * same name is not it. */
	struct error	*(*find)(struct backend_ctx *, const char *,
			    int64_t *);
	/* The cluster's Slurm as this session knows it (2205, 2511; 0: not
	 * known): whose rules expand its log patterns (logpath.h). */
	int		 (*release)(struct backend_ctx *);
	/* The host name of node NODE as slurmctld has it (NodeHostname,
	 * what %N writes before 25.11) in *HOST, a new string; NULL and no
	 * error when Slurm does not say (no such node). */
	struct error	*(*node_host)(struct backend_ctx *, const char *,
			    char **);
	/*
	 * Only where status gives paths its client expanded in part
	 * (scontrol before 25.11; else NULL): the strings slurmctld has for
	 * the output and error of job ID (TASK -1), or of task TASK of
	 * array ID, in *OUT and *ERR, new strings, as the client shows
	 * them (its default, or the output's for the error, when none was
	 * given); both NULL and no error when it does not know the job.
	 */
	struct error	*(*patterns)(struct backend_ctx *, int64_t, int64_t,
			    char **, char **);
	/* Only where history gives no SLUID (else NULL): the SLUID (25.11,
	 * what %S writes) accounting keeps for job ID, its own id, in
	 * *SLUID, a new string; NULL and no error when it has none. */
	struct error	*(*sluid)(struct backend_ctx *, int64_t, char **);
	/* What the cluster says of its partitions and their nodes, its QoS
	 * and the associations of the session's user (user set), into
	 * SITE (site.h, siteinfo.h): the QoS and associations only where
	 * accounting answers (else qos_known and assoc_known stay false,
	 * and that is no error).  mbsbatch site. */
	struct error	*(*site)(struct backend_ctx *, struct site *);
	void		 (*close)(struct backend_ctx *);
	/* What the submission would send, to F, nothing sent and no
	 * session opened (--dry-run): after the header lines submit
	 * prints.  N submissions (a chain), each after the previous. */
	struct error	*(*dry_run)(const struct backend_opts *,
			    const struct jobdesc *,
			    const struct jobdesc_context *,
			    const struct submit_opts *, int64_t, FILE *);
	/* One session serves every thread (libslurm's is the process's);
	 * else each thread opens its own. */
	bool		 one_session;
	/* Slurm's own client reads the script's #SBATCH lines and the
	 * SBATCH_* variables (sbatch): mbsbatch reads them leniently, only
	 * to know the job, and never refuses what it cannot send. */
	bool		 reads_directives;
};

extern const struct backend backend_rest;
extern const struct backend backend_sbatch;
extern const struct backend backend_native;	/* with libslurm only */

/* The back ends built in, NULL-terminated, in --version's order. */
extern const struct backend *const backend_table[];

/*
 * Every back end --via may name (docs/SPEC.md), built in or not: the
 * list, and as the help and the messages write it.
 */
#define BACKEND_NAMES		"rest", "native", "sbatch"
#define BACKEND_NAMES_ARG	"rest|native|sbatch"
#define BACKEND_NAMES_TEXT	"rest, native or sbatch"
extern const char *const backend_names[];	/* NULL-terminated */

/* The back end called NAME, or NULL (a name not built in). */
const struct backend *backend_find(const char *);

/* The back ends compiled in, for --version: "rest sbatch". */
const char	*backend_list(void);
const char	*backend_native_about(void);

/*
 * Is a Slurm configuration there for libslurm, looked for in its order?
 * 1 when the file libslurm would read can be read ($SLURM_CONF when set
 * and not empty, else the first there of its built-in slurm.conf and a
 * configless slurmd's /run/slurm/conf/slurm.conf); 2 when $SLURM_CONF
 * is unset or empty, neither file is there and $SLURM_CONF_SERVER names a
 * controller; 0 otherwise, an unreadable file included (DNS is not
 * asked).  libslurm exits the process without a configuration.
 */
int		 backend_slurm_conf_exists(void);

/*
 * A job's base states, at their values of slurm.h's enum job_states
 * (JOB_PENDING 0 to JOB_OOM 11, 22.05 to 25.11), by job_state_string()'s
 * names; the first three are not ended, the others are.
 */
#define JOB_STATE_NBASE	12
extern const char *const job_state_base_names[JOB_STATE_NBASE];

/* Whether STATE is a base state's name; one of an ended job (past
 * PENDING, RUNNING and SUSPENDED). */
bool		 job_state_is_base(const char *);
bool		 job_state_base_ended(const char *);

/*
 * The flags of a job's state in the order slurmctld names a state by
 * them, COMPLETING first, before its base state: job_state_string() in
 * src/common/slurm_protocol_defs.c (22.05 to 25.11; EXPEDITING from
 * 25.05), which scontrol, squeue and sacct print.  NULL-terminated.
 */
extern const char *const job_state_flag_names[];

/*
 * A time as slurmctld and slurmdbd keep it (seconds since the epoch), or
 * 0 for none: 0, NO_VAL (a job cancelled before it started, in
 * accounting: as_mysql_jobacct_process.c) and INFINITE, which scontrol
 * and sacct print "Unknown", "None" and "Unknown"
 * (_make_time_str_internal() in src/common/parse_time.c).
 */
int64_t		 job_time(int64_t);

/*
 * A job's end time END as scontrol shows it: none ("EndTime=Unknown")
 * for a job without a time limit (UNLIMITED) that has not ENDED, whose
 * end slurmctld sets a year after its start; else END.  scontrol's test
 * is END ahead of now (src/scontrol/info_job.c, src/api/job_info.c on
 * 22.05): the same but for a job running for more than a year.
 */
int64_t		 job_end_time(int64_t end, bool unlimited, bool ended);

/*
 * Slurm's words for a job it will not signal, having ended
 * (ESLURM_ALREADY_DONE, src/common/slurm_errno.c, 22.05 to 25.11), which
 * scancel -v prints and slurmrestd v0.0.42 on answers.
 */
#define SLURM_ALREADY_DONE_TEXT	"Job/step already completing or completed"

/*
 * "job ID: already ended, not cancelled (Slurm: TEXT)", EXIT_FAILURE_OP,
 * of kind ERROR_ALREADY_DONE: what every back end's cancel says of a job
 * that had ended, TEXT Slurm's words (SLURM_ALREADY_DONE_TEXT when it
 * gave none).
 */
struct error	*job_done_error(int64_t, const char *);

void		 submit_result_release(struct submit_result *);
void		 job_status_release(struct job_status *);
/* A new zeroed record at the end of LIST (array_task_id -1). */
struct job_status *job_list_add(struct job_list *);
void		 job_list_release(struct job_list *);
const char	*job_source_name(enum job_source);

#endif
