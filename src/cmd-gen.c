/*
 * cmd-gen.c: "mbsbatch gen": write the sbatch script of a job to
 * standard output or, atomically, to a file.  See mbsbatch-gen(1).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "buf.h"
#include "cmd.h"
#include "error.h"
#include "generate.h"
#include "job.h"
#include "smokejob.h"
#include "template.h"
#include "termtext.h"

static struct error *cmd_gen_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_gen_options[] = {
	{ "file", 'o', "FILE", "write the script to FILE (atomically)" },
	{ "force", 0, NULL, "replace an existing regular FILE" },
	{ "list-templates", 0, NULL, "list the templates and exit" },
	{ "smoke", 0, NULL, "write the job's smoke script (mbsbatch-smoke(1))" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_gen_entry = {
	.name = "gen",
	.usage = "[JOBFILE] [OPTIONS] [-o FILE] [--force] [--smoke]",
	.summary = "Write the sbatch script of a job.",
	.options = cmd_gen_options,
	.settings = SF_CLI,
	.help_gen = true,
	.max_args = 1,
	.exec = cmd_gen_exec,
};

static struct error *
list_templates(void)
{
	struct template	*list;
	struct error	*err;
	size_t		 n, i;

	if ((err = template_list(&list, &n)) != NULL)
		return err;
	for (i = 0; i < n; i++)
		printf("%-20s %s\n", list[i].name, list[i].path != NULL ?
		    list[i].path : "(built in)");
	template_list_free(list, n);
	return NULL;
}

/*
 * Write the script of the job ARGS names (its smoke job's when SMOKE,
 * saying what smoke changed into *SUM unless SUM is NULL) to -o FILE or
 * standard output; SELF has gen's "file" and "force" options.
 */
struct error *
cmd_gen_write(const struct cmd_entry *self, struct cmd_args *args, bool smoke,
    struct smokejob_summary *sum)
{
	struct job_figures	 fig;
	struct job		 job;
	struct error		*err;
	struct buf		 out;
	const char		*file = cmd_value(self, args, "file");
	const char		*cmd = self->name;
	char			*regen;
	bool			 streamed = false;

	if (cmd_value(self, args, "force") != NULL && (file == NULL ||
	    strcmp(file, "-") == 0))
		return error_new(EXIT_USAGE, "%s: --force goes with -o FILE",
		    cmd);
	/* "-o -" is standard output, as for most tools (a file named "-"
	 * is "-o ./-"). */
	if (file != NULL && strcmp(file, "-") == 0)
		file = NULL;

	args->req.jobfile = args->nargs > 0 ? args->args[0] : NULL;
	if (smoke)
		err = smokejob_load(cmd, &job, &args->req, sum);
	else
		err = job_load(&job, &args->req);
	if (err != NULL)
		return err;
	buf_init(&out);
	regen = cmd_command_line(args);
	err = generate_script(cmd, &job, regen, args->quiet, &fig, &out,
	    NULL);
	free(regen);
	if (err == NULL && file != NULL)
		err = atomicfile_write(file, out.data, out.len,
		    cmd_value(self, args, "force") != NULL, 0644, &streamed);
	else if (err == NULL)
		fwrite(out.data, 1, out.len, stdout);
	/*
	 * After the script, so a refused write leaves no directory; only
	 * for a script file (not /dev/null or a pipe), which sbatch runs.
	 */
	if (err == NULL)
		err = generate_script_log_dirs(cmd, &fig.slurm,
		    file != NULL && !streamed, args->quiet);
	if (err == NULL && file != NULL && !args->quiet)
		termtext_printf(stderr, "mbsbatch: %s: wrote %s (%lld node%s, "
		    "%lld GPU%s)\n", cmd, file, (long long)fig.sizing.nodes,
		    fig.sizing.nodes == 1 ? "" : "s", (long long)fig.sizing.world,
		    fig.sizing.world == 1 ? "" : "s");
	buf_release(&out);
	job_release(&job);
	return err;
}

static struct error *
cmd_gen_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	*status = EXIT_OK;
	if (cmd_value(self, args, "list-templates") != NULL)
		return list_templates();
	return cmd_gen_write(self, args, cmd_value(self, args, "smoke") !=
	    NULL, NULL);
}
