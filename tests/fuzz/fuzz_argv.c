/*
 * fuzz_argv.c: a whole command line, one word a line: the global
 * options, the command lookup and the command's options, as main()
 * reads them; then the commands that only compute and print run (plan,
 * recommend, gen to standard output, sweep --dry-run).  Nothing that
 * writes a file, submits, talks to Slurm or runs a program (help runs
 * man) runs: the fuzzer runs as whoever runs it, root in CI.
 */
#include <stdio.h>

#include "cmd.h"
#include "error.h"
#include "fuzz.h"
#include "options.h"

#define FUZZ_ARGV_MAX	32

/* May the fuzzer run CMD as ARGS asks? */
static int
harmless(const struct cmd_entry *cmd, const struct cmd_args *args)
{
	if (cmd == &cmd_plan_entry || cmd == &cmd_recommend_entry)
		return 1;
	if (cmd == &cmd_gen_entry)
		return cmd_value(cmd, args, "file") == NULL;
	if (cmd == &cmd_sweep_entry)
		return cmd_value(cmd, args, "dry-run") != NULL &&
		    cmd_value(cmd, args, "resume") == NULL;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int		 quiet;
	const struct cmd_entry	*cmd;
	struct cmd_args		 args;
	struct error		*err;
	enum cmd_line		 what;
	char			*text = fuzz_string(data, size);
	char			*argv[FUZZ_ARGV_MAX + 1], *p, *nl;
	int			 argc = 1, status;

	/* What the commands print is not the point; a job file "-" reads
	 * an empty standard input. */
	if (!quiet) {
		if (freopen("/dev/null", "w", stdout) == NULL ||
		    freopen("/dev/null", "r", stdin) == NULL)
			abort();
		quiet = 1;
	}
	argv[0] = "mbsbatch";
	for (p = text; argc < FUZZ_ARGV_MAX; p = nl + 1) {
		argv[argc++] = p;
		if ((nl = strchr(p, '\n')) == NULL)
			break;
		*nl = '\0';
	}
	argv[argc] = NULL;
	memset(&args, 0, sizeof args);
	err = cmd_parse_line(argc, argv, &args, &cmd, &what);
	if (err == NULL && what == CMD_LINE_RUN && harmless(cmd, &args))
		err = cmd->exec(cmd, &args, &status);
	error_free(err);
	options_release(&args);
	free(text);
	return 0;
}
