/*
 * cmd.h: the command table.  One file per command (cmd-plan.c, ...), each
 * exporting one const struct cmd_entry, like tmux's cmd- files and git's
 * builtin/ files.
 *
 * To add a command: write src/cli/cmd-NAME.c defining cmd_NAME_entry (its
 * name, usage line, summary, options and exec function), declare it
 * below, add it to cmd_table[] in cmd.c, add the file to cli_sources in
 * Makefile.am and write its man page man/mbsbatch-NAME.1 (whose SYNOPSIS
 * must match the usage line: tests/cli/usage.sh checks it).  What the
 * command does that another could use goes down a floor (src/job/,
 * src/render/, ...), never into a cmd-*.c another cmd-*.c calls.
 */
#ifndef MBSBATCH_CMD_H
#define MBSBATCH_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "job.h"

struct error;

/* A command's own option; NULL arg for a flag. */
struct cmd_option {
	const char	*name;		/* "json": --json */
	int		 shortopt;	/* 'o', or 0 */
	const char	*arg;		/* "FILE", or NULL for a flag */
	const char	*help;
	bool		 repeat;	/* may be given more than once */
};

#define CMD_MAX_OPTIONS	16

/* What options_parse() makes of a command line. */
/* What a word of the command line is, tagged once when it is read. */
enum cmd_word {
	CW_OTHER = 0,	/* a global option, a setting, an argument */
	CW_COMMAND,	/* the command's name */
	CW_OWN,		/* one of the command's own options, or its value */
	CW_CONNECT,	/* a setting of how to reach Slurm, or its value */
};

struct cmd_args {
	const char		*value[CMD_MAX_OPTIONS]; /* per option; flags "" */
	const char		**values[CMD_MAX_OPTIONS]; /* repeat: each */
	size_t			 nvalues[CMD_MAX_OPTIONS];
	char			**args;		/* positional arguments */
	int			 nargs;
	struct job_request	 req;		/* --config, --cluster, settings */
	int			 verbose;
	bool			 quiet;
	bool			 help;
	char			**argv;		/* every word after "mbsbatch" */
	int			 argc;
	enum cmd_word		*words;		/* argc: what each word is */
};

struct cmd_entry {
	const char		*name;
	const char		*usage;		/* after "mbsbatch NAME " */
	const char		*summary;	/* one line, for --help */
	const struct cmd_option	*options;	/* NULL-name terminated */
	int			 settings;	/* SF_ flags of the settings it
						   takes: SF_CLI all, 0 none */
	bool			 help_gen;	/* --help lists gen's too */
	bool			 help_connect;	/* --help lists --via & co */
	int			 max_args;	/* positional arguments */
	/* Run; *status is the exit status when NULL is returned. */
	struct error		*(*exec)(const struct cmd_entry *,
				    struct cmd_args *, int *);
};

extern const struct cmd_entry cmd_plan_entry;
extern const struct cmd_entry cmd_recommend_entry;
extern const struct cmd_entry cmd_gen_entry;
extern const struct cmd_entry cmd_smoke_entry;
extern const struct cmd_entry cmd_submit_entry;
extern const struct cmd_entry cmd_sweep_entry;
extern const struct cmd_entry cmd_status_entry;
extern const struct cmd_entry cmd_logs_entry;
extern const struct cmd_entry cmd_check_log_entry;
extern const struct cmd_entry cmd_calibrate_entry;
extern const struct cmd_entry cmd_site_entry;
extern const struct cmd_entry cmd_jobs_entry;
extern const struct cmd_entry cmd_cancel_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_help_entry;

/* Every command, NULL-terminated, in the order --help lists them. */
extern const struct cmd_entry *const cmd_table[];

const struct cmd_entry *cmd_find(const char *);

/* What a command line asks for, once read. */
enum cmd_line {
	CMD_LINE_RUN,		/* run *CMD */
	CMD_LINE_VERSION,	/* --version */
	CMD_LINE_USAGE,		/* --help, no command */
	CMD_LINE_NONE,		/* no command, no --help: usage, then 2 */
	CMD_LINE_HELP		/* CMD --help */
};

/*
 * Read the command line ARGV[0..ARGC) as main() gets it: the global
 * options, the command, its options, into ARGS (which the caller has
 * zeroed and releases with options_release()); *CMD is the command.
 */
struct error	*cmd_parse_line(int, char **, struct cmd_args *,
		    const struct cmd_entry **, enum cmd_line *);

/* The gen command line that regenerates what the command submits (a
 * new string): its name becomes "gen", its own and the connection
 * options go, by the words' tags. */
char		*cmd_regen_line(const struct cmd_args *);

/* Every value of a repeatable option NAME, in order; *N of them. */
const char	*const *cmd_values(const struct cmd_entry *,
		    const struct cmd_args *, const char *, size_t *);

/* Is option NAME (index into entry->options) given? Its value or NULL. */
const char	*cmd_value(const struct cmd_entry *, const struct cmd_args *,
		    const char *);

/* The top-level usage: synopsis and the commands. */
void		 cmd_print_usage(FILE *);

/* The error for an unknown command NAME, with a suggestion. */
struct error	*cmd_unknown(const char *);

/* The command line, quoted for a shell: "mbsbatch gen --tp 2 ..." (a new
 * string). */
char		*cmd_command_line(const struct cmd_args *);

struct backend;
struct backend_ctx;

struct smokejob_summary;
/*
 * gen's work, for gen and smoke: write the script of the job ARGS names,
 * its smoke job's when the bool is true (what smoke changed into the
 * summary, unless NULL), to -o FILE or standard output (cmd-gen.c).
 */
struct error	*cmd_gen_write(const struct cmd_entry *, struct cmd_args *,
		    bool, struct smokejob_summary *);

/* The JOBID argument of status and cancel; CMD names the command. */
struct error	*cmd_job_id(const char *, const struct cmd_args *, int64_t *);
struct resume_plan;
/*
 * A sweep's journal at PATH, whichever sweep wrote it, as resume.h reads
 * it: *PLAN (released by the caller); its lines in *KEEP too unless NULL.
 */
struct error	*cmd_journal_plan(const char *, struct resume_plan *,
		    json_t **);
struct job_ref;
/* The same, a task of an array allowed: "123", "123_4". */
struct error	*cmd_job_ref(const char *, const struct cmd_args *,
		    struct job_ref *);

/*
 * --check (logs, status, submit --smoke --wait): check-log on what job
 * REF wrote, once it has ended: its output, then its error file when
 * that is another (a traceback goes there); found as logs finds them,
 * the record of submitted jobs of profile CLUSTER (NULL: none) included
 * (jobfiles.h).  PLAN: the job to hold the
 * log against, or NULL (the log's own layout line is the plan).  With
 * REPORT, the report's JSON object goes there; else its text to stdout.
 * *STATUS: the verdict (0 pass, 3 fail, 2 unusable).  CMD names the
 * command in messages.
 */
struct backend;
struct backend_ctx;
struct error	*cmd_check_job(const char *, const struct backend *,
		    struct backend_ctx *, const char *, const struct job_ref *,
		    const struct job *, json_t **, int *);

/*
 * The files job REF wrote, found as logs finds them (cmd_check_job()):
 * its record in *REC (job_status_release() it), its output's path in
 * *PATH (a new string), the output opened in *OUT and its error file,
 * when it has one of its own, in *ERRF (fd -1: none); logfile_close()
 * both.  A job that has not started (Slurm gives it no start time) has
 * no file: both fd -1, and no error.  On error nothing is left open.
 */
struct job_status;
struct logfile;
struct error	*cmd_job_logs(const char *, const struct backend *,
		    struct backend_ctx *, const char *, const struct job_ref *,
		    struct job_status *, char **, struct logfile *,
		    struct logfile *);
struct backend_opts;

/*
 * The back end a job asks for: --via, else rest when a REST URL is set,
 * else native when built in and a Slurm configuration is there, else
 * sbatch.
 */
struct error	*cmd_backend_choose(const struct job *,
		    const struct backend **);

/*
 * ERR, from BE (cmd_backend_choose()'s for JOB) failing: with a hint
 * saying why BE was picked when nothing named a cluster (sbatch, for
 * want of a REST URL or a slurm.conf) and what would name one.
 */
struct error	*cmd_backend_hint(const struct job *, const struct backend *,
		    struct error *);

/* The connection settings of a job, as cmd_backend_open() uses them. */
void		 cmd_backend_opts(const struct job *, int,
		    struct backend_opts *);

/* Open BE with the job's connection settings; close with be->close(). */
struct error	*cmd_backend_open(const struct backend *, const struct job *,
		    int, struct backend_ctx **);

/* Load the config and options (no job file) and open their back end. */
struct error	*cmd_open_backend(struct cmd_args *, struct job *,
		    const struct backend **, struct backend_ctx **);

/* The command's help text: usage, options, job settings, globals. */
void		 cmd_print_help(const struct cmd_entry *, FILE *);

#endif
