/*
 * mbsbatch.c: main: the global options, the command lookup, and the one
 * place that prints errors and picks the exit status (docs/SPEC.md section 5).
 */
#include <sys/prctl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autoconf.h"

#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "options.h"
#include "termtext.h"

/* A message names what it is about, often text from outside (a path, a
 * job file's key, Slurm's words): escaped, one line each (termtext.h). */
static void
print_error(const struct error *err)
{
	char *const	*l;

	termtext_printf(stderr, "mbsbatch: %s\n", err->msg);
	for (l = err->more; l != NULL && *l != NULL; l++)
		termtext_printf(stderr, "mbsbatch: %s\n", *l);
	if (err->hint != NULL)
		termtext_printf(stderr, "hint: %s\n", err->hint);
}

/*
 * A token in the environment (SLURM_JWT) is a secret from the first
 * instruction on: the process is made not dumpable at once (no core
 * file, no ptrace or /proc/PID/environ for its user), whatever the
 * command; it is not undone.  RLIMIT_CORE is left alone: sbatch would
 * pass it on to the job (PropagateResourceLimits).
 */
static struct error *
guard_token(void)
{
	const char	*t = getenv("SLURM_JWT");

	if (t == NULL || *t == '\0')
		return NULL;
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == -1)
		return error_new(EXIT_FAILURE_OP, "prctl(PR_SET_DUMPABLE): %s "
		    "(SLURM_JWT must not land in a core file)",
		    strerror(errno));
	return NULL;
}

/*
 * A command that never reaches Slurm (only those whose help lists --via
 * and co. do) has no use for the token: its bytes are cleared where the
 * environment holds them (what /proc/PID/environ shows) and the variable
 * removed, so that nothing it runs or leaves in memory carries it.
 */
static void
drop_token(void)
{
	extern char	**environ;
	char		**e;

	for (e = environ; e != NULL && *e != NULL; e++)
		if (strncmp(*e, "SLURM_JWT=", 10) == 0)
			explicit_bzero(*e + 10, strlen(*e + 10));
	unsetenv("SLURM_JWT");
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
	if ((err = guard_token()) != NULL)
		goto out;
	if ((err = cmd_parse_line(argc, argv, &args, &cmd, &what)) != NULL)
		goto out;
	if (what != CMD_LINE_RUN || !cmd->help_connect)
		drop_token();
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
