/*
 * mbsbatch.c: main: the global options, the command lookup, and the one
 * place that prints errors and picks the exit status (docs/SPEC.md section 5).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "options.h"

static void
print_error(const struct error *err)
{
	fprintf(stderr, "mbsbatch: %s\n", err->msg);
	if (err->hint != NULL)
		fprintf(stderr, "hint: %s\n", err->hint);
}

/* Flush stdout and report a failed write (git's run_builtin). */
static int
finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "mbsbatch: standard output: %s\n",
		    errno != 0 ? strerror(errno) : "write error");
		return EXIT_FAILURE_OP;
	}
	return status;
}

int
main(int argc, char **argv)
{
	const struct cmd_entry	*cmd;
	struct cmd_args		 args;
	struct error		*err;
	enum cmd_line		 what;
	int			 status = EXIT_OK;

	memset(&args, 0, sizeof args);
	if ((err = cmd_parse_line(argc, argv, &args, &cmd, &what)) != NULL)
		goto out;
	switch (what) {
	case CMD_LINE_VERSION:
		printf("mbsbatch %s\nback ends: %s\n", PACKAGE_VERSION,
		    backend_list());
		if (backend_native_about() != NULL)
			printf("native: %s\n", backend_native_about());
		break;
	case CMD_LINE_USAGE:
		cmd_print_usage(stdout);
		break;
	case CMD_LINE_NONE:
		cmd_print_usage(stderr);
		options_release(&args);
		return EXIT_USAGE;
	case CMD_LINE_HELP:
		cmd_print_help(cmd, stdout);
		break;
	case CMD_LINE_RUN:
		err = cmd->exec(cmd, &args, &status);
		break;
	}

out:
	options_release(&args);
	if (err != NULL) {
		fflush(stdout);
		print_error(err);
		status = err->status;
		error_free(err);
		return status;
	}
	return finish(status);
}
