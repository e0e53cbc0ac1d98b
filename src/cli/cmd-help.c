/*
 * cmd-help.c: "mbsbatch help [COMMAND]": the manual page of a command,
 * through man(1), as git help does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "error.h"

static struct error *cmd_help_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.usage = "[COMMAND]",
	.summary = "Show the manual page of mbsbatch or of one command.",
	.options = NULL,
	.settings = 0,
	.max_args = 1,
	.exec = cmd_help_exec,
};

static struct error *
cmd_help_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	const struct cmd_entry	*cmd = NULL;
	char			 page[64];

	*status = EXIT_OK;
	if (args->nargs > 0) {
		if ((cmd = cmd_find(args->args[0])) == NULL)
			return error_prefix(cmd_unknown(args->args[0]),
			    "help");
		snprintf(page, sizeof page, "mbsbatch-%s", cmd->name);
	} else
		snprintf(page, sizeof page, "mbsbatch");
	fflush(stdout);
	execlp("man", "man", page, (char *)NULL);
	/* No man(1): the built-in help is better than nothing. */
	if (cmd != NULL)
		cmd_print_help(cmd, stdout);
	else
		cmd_print_usage(stdout);
	return error_new(EXIT_FAILURE_OP, "help: cannot run man(1) for %s: "
	    "%s", page, strerror(errno));
}
