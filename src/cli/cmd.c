/* cmd.c: the command table and the help text; see cmd.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "quote.h"
#include "resume.h"
#include "error.h"
#include "journal.h"
#include "jobref.h"
#include "options.h"
#include "suggest.h"
#include "settings.h"
#include "xmalloc.h"

const struct cmd_entry *const cmd_table[] = {
	&cmd_plan_entry,
	&cmd_recommend_entry,
	&cmd_gen_entry,
	&cmd_smoke_entry,
	&cmd_submit_entry,
	&cmd_sweep_entry,
	&cmd_status_entry,
	&cmd_logs_entry,
	&cmd_check_log_entry,
	&cmd_calibrate_entry,
	&cmd_site_entry,
	&cmd_jobs_entry,
	&cmd_cancel_entry,
	&cmd_report_entry,
	&cmd_help_entry,
	NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	size_t	 i;

	for (i = 0; cmd_table[i] != NULL; i++)
		if (strcmp(cmd_table[i]->name, name) == 0)
			return cmd_table[i];
	return NULL;
}

const char *const *
cmd_values(const struct cmd_entry *entry, const struct cmd_args *args,
    const char *name, size_t *n)
{
	size_t	 i;

	*n = 0;
	for (i = 0; entry->options != NULL && entry->options[i].name; i++)
		if (strcmp(entry->options[i].name, name) == 0) {
			*n = args->nvalues[i];
			return args->values[i];
		}
	return NULL;
}

const char *
cmd_value(const struct cmd_entry *entry, const struct cmd_args *args,
    const char *name)
{
	size_t	 i;

	for (i = 0; entry->options != NULL && entry->options[i].name; i++)
		if (strcmp(entry->options[i].name, name) == 0)
			return args->value[i];
	return NULL;
}

static void
print_option(FILE *f, int shortopt, const char *name, const char *arg,
    const char *help)
{
	char	 left[48];

	if (shortopt != 0)
		snprintf(left, sizeof left, "-%c, --%s%s%s", shortopt, name,
		    arg != NULL ? " " : "", arg != NULL ? arg : "");
	else
		snprintf(left, sizeof left, "    --%s%s%s", name,
		    arg != NULL ? " " : "", arg != NULL ? arg : "");
	if (strlen(left) > 30)
		fprintf(f, "  %s\n  %-30s %s\n", left, "", help);
	else
		fprintf(f, "  %-30s %s\n", left, help);
}

void
cmd_print_help(const struct cmd_entry *entry, FILE *f)
{
	const struct setting_def	*d;
	const struct cmd_option		*o;
	size_t				 i;

	fprintf(f, "usage: mbsbatch %s %s\n\n%s\n", entry->name, entry->usage,
	    entry->summary);
	if (entry->options != NULL && entry->options[0].name != NULL) {
		fprintf(f, "\noptions:\n");
		for (o = entry->options; o->name != NULL; o++)
			print_option(f, o->shortopt, o->name, o->arg, o->help);
	}
	if (entry->settings) {
		if (entry->settings & SF_CLI)
			fprintf(f, "\nlayout, cluster, model and launch "
			    "environment (also job-file keys, with _ for -):\n");
		for (i = 0; i < SET__COUNT; i++) {
			d = &settings_table[i];
			if ((d->flags & SF_CLI) && !(d->flags & SF_GEN) &&
			    !(d->flags & SF_CONNECT) && d->help != NULL &&
			    (entry->settings & SF_CLI))
				print_option(f, 0, d->option, d->arg, d->help);
		}
		if (entry->help_connect) {
			fprintf(f, "\nreaching Slurm:\n");
			for (i = 0; i < SET__COUNT; i++) {
				d = &settings_table[i];
				if ((d->flags & SF_CLI) &&
				    (d->flags & SF_CONNECT))
					print_option(f, 0, d->option, d->arg,
					    d->help);
			}
		}
		if (entry->help_gen) {
			fprintf(f, "\nSlurm and launch:\n");
			for (i = 0; i < SET__COUNT; i++) {
				d = &settings_table[i];
				if ((d->flags & SF_CLI) && (d->flags & SF_GEN))
					print_option(f, 0, d->option, d->arg,
					    d->help);
			}
		} else if (entry->settings & SF_CLI)
			fprintf(f, "\nThe Slurm and launch options of 'mbsbatch "
			    "gen --help' are accepted too.\n");
	}
	fprintf(f, "\nglobal options:\n");
	print_option(f, 0, "config", "FILE", "read this config file");
	print_option(f, 0, "cluster", "NAME", "use this cluster profile");
	print_option(f, 'v', "verbose", NULL, "say more (where each value "
	    "came from)");
	print_option(f, 'q', "quiet", NULL, "say less");
	print_option(f, 'h', "help", NULL, "show this help");
	fprintf(f, "\n'mbsbatch help %s' shows the manual page.\n",
	    entry->name);
}

void
cmd_print_usage(FILE *f)
{
	size_t	 i;

	fprintf(f, "usage: mbsbatch [--config FILE] [--cluster NAME] [-v | -q] "
	    "COMMAND [ARGS]\n"
	    "       mbsbatch --help | --version\n\ncommands:\n");
	for (i = 0; cmd_table[i] != NULL; i++)
		fprintf(f, "  %-10s %s\n", cmd_table[i]->name,
		    cmd_table[i]->summary);
	fprintf(f, "\n'mbsbatch COMMAND --help' lists a command's options; "
	    "'mbsbatch help COMMAND' shows its manual page.\n");
}

struct error *
cmd_unknown(const char *name)
{
	const char	*names[16], *near;
	size_t		 n;

	for (n = 0; cmd_table[n] != NULL && n < 16; n++)
		names[n] = cmd_table[n]->name;
	near = suggest(name, names, n);
	if (near != NULL)
		return error_new(EXIT_USAGE, "'%s' is not a command (did you "
		    "mean '%s'?)", name, near);
	return error_hint(error_new(EXIT_USAGE, "'%s' is not a command",
	    name), "'mbsbatch --help' lists the commands");
}

/* The command that regenerates the script: mbsbatch and its words. */
char *
cmd_command_line(const struct cmd_args *args)
{
	struct buf	 b;
	int		 i;

	buf_init(&b);
	buf_adds(&b, "mbsbatch");
	for (i = 0; i < args->argc; i++) {
		buf_addc(&b, ' ');
		quote_shell(&b, args->argv[i]);
	}
	return buf_detach(&b);
}

/*
 * The gen command that regenerates a script the command submits: the
 * command line with "gen" for its name and without its own options and
 * the connection ones (a script's header must not submit again), by the
 * tags options_parse() gave the words (but submit's --smoke, which gen
 * takes too).
 */
char *
cmd_regen_line(const struct cmd_args *args)
{
	struct cmd_args		 copy = *args;
	char			**kept, *line;
	int			 i, n = 0;

	kept = xreallocarray(NULL, (size_t)args->argc + 1, sizeof *kept);
	for (i = 0; i < args->argc; i++)
		switch (args->words != NULL ? args->words[i] : CW_OTHER) {
		case CW_COMMAND:
			kept[n++] = "gen";
			break;
		case CW_OWN:
			/* submit --smoke: gen --smoke writes that script. */
			if (strcmp(args->argv[i], "--smoke") == 0)
				kept[n++] = args->argv[i];
			break;
		case CW_CONNECT:
			break;
		case CW_OTHER:
			kept[n++] = args->argv[i];
			break;
		}
	copy.argv = kept;
	copy.argc = n;
	line = cmd_command_line(&copy);
	free(kept);
	return line;
}

struct error *
cmd_parse_line(int argc, char **argv, struct cmd_args *args,
    const struct cmd_entry **cmd, enum cmd_line *what)
{
	struct error	*err = NULL;
	int		 i;

	*cmd = NULL;
	*what = CMD_LINE_RUN;
	job_request_init(&args->req);
	args->argv = argv + 1;
	args->argc = argc - 1;
	args->words = xcalloc((size_t)argc, sizeof *args->words);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			*what = CMD_LINE_VERSION;
			return NULL;
		}
		if (!options_parse_global(argc, argv, &i, args, &err))
			break;
		if (err != NULL)
			return err;
	}
	if (i == argc) {
		*what = args->help ? CMD_LINE_USAGE : CMD_LINE_NONE;
		return NULL;
	}
	if (argv[i][0] == '-')
		return error_hint(error_new(EXIT_USAGE, "unknown option '%s'",
		    argv[i]), "'mbsbatch --help' lists the global options; "
		    "command options go after the command");
	if ((*cmd = cmd_find(argv[i])) == NULL)
		return cmd_unknown(argv[i]);
	args->words[i - 1] = CW_COMMAND;
	if ((err = options_parse(*cmd, argc - i - 1, argv + i + 1, args)))
		return err;
	if (args->help)
		*what = CMD_LINE_HELP;
	return NULL;
}

struct error *
cmd_journal_plan(const char *path, struct resume_plan *plan, json_t **keep)
{
	struct error	*err;
	json_t		*lines;

	if ((err = journal_read(path, &lines)) != NULL)
		return err;
	err = resume_plan(path, lines, NULL, 0, plan);
	if (err == NULL && keep != NULL)
		*keep = lines;
	else
		json_decref(lines);
	return err;
}

/* Parse a job id argument; CMD names the command. */
struct error *
cmd_job_id(const char *cmd, const struct cmd_args *args, int64_t *id)
{
	struct job_ref	 ref;
	struct error	*err;

	if ((err = cmd_job_ref(cmd, args, &ref)) != NULL)
		return err;
	if (ref.task >= 0)
		return error_new(EXIT_USAGE, "%s: job id '%s' names an array "
		    "task; give the job id alone", cmd, args->args[0]);
	*id = ref.id;
	return NULL;
}

struct error *
cmd_job_ref(const char *cmd, const struct cmd_args *args,
    struct job_ref *ref)
{
	const char	*why;

	if (args->nargs < 1)
		return error_new(EXIT_USAGE, "%s: which job? give its JOBID",
		    cmd);
	if ((why = job_ref_parse(args->args[0], ref)) != NULL)
		return error_new(EXIT_USAGE, "%s: job id '%s' %s", cmd,
		    args->args[0], why);
	return NULL;
}
