/*
 * mbsbatch.c: main: the global options, the command lookup, and the one
 * place that prints errors and picks the exit status (SPEC section 5).
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
	struct error		*err = NULL;
	int			 i, status = EXIT_OK;

	memset(&args, 0, sizeof args);
	job_request_init(&args.req);
	args.argv = argv + 1;
	args.argc = argc - 1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--version") == 0) {
			printf("mbsbatch %s\nback ends: %s\n", PACKAGE_VERSION,
			    backend_list());
			if (backend_native_about() != NULL)
				printf("native: %s\n", backend_native_about());
			options_release(&args);
			return finish(EXIT_OK);
		}
		if (!options_parse_global(argc, argv, &i, &args, &err))
			break;
		if (err != NULL)
			goto out;
	}
	if (i == argc) {
		if (args.help) {
			cmd_print_usage(stdout);
			options_release(&args);
			return finish(EXIT_OK);
		}
		cmd_print_usage(stderr);
		options_release(&args);
		return EXIT_USAGE;
	}
	if (argv[i][0] == '-') {
		err = error_hint(error_new(EXIT_USAGE, "unknown option '%s'",
		    argv[i]), "'mbsbatch --help' lists the global options; "
		    "command options go after the command");
		goto out;
	}
	if ((cmd = cmd_find(argv[i])) == NULL) {
		err = cmd_unknown(argv[i]);
		goto out;
	}
	if ((err = options_parse(cmd, argc - i - 1, argv + i + 1, &args)))
		goto out;
	if (args.help) {
		cmd_print_help(cmd, stdout);
		options_release(&args);
		return finish(EXIT_OK);
	}
	err = cmd->exec(cmd, &args, &status);

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
