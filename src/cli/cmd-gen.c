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
#include "rest.h"
#include "slurmopt.h"
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
 * The oldest Slurm release the job's script may go to: a script from gen
 * may go to any cluster (SLURMOPT_RELEASE_OLDEST), unless the profile
 * (or --api-version) names a REST API version that only a later release
 * serves (rest_release_serving()).
 */
static int
gen_release(const struct job *job)
{
	const char		*api = job_str(job, SET_API_VERSION);
	enum rest_version	 v;

	if (api != NULL && rest_version_parse(api, &v) == 0 &&
	    rest_release_serving(v) > SLURMOPT_RELEASE_OLDEST)
		return rest_release_serving(v);
	return SLURMOPT_RELEASE_OLDEST;
}

/*
 * A --signal name the sbatch of that release does not know (CHLD, PIPE
 * before 23.11: slurmopt.c's table) is refused there ("Invalid --signal
 * specification"): refuse it here, where the release is not known.
 * (submit asks the cluster: jobdesc_check_release().)
 */
static struct error *
gen_check_signal(const char *cmd, const struct job *job,
    const struct job_figures *fig)
{
	const char		*value = slurmopt_get(&fig->slurm, "signal");
	struct slurmopt_signal	 sig;
	int			 rel = gen_release(job), v;

	if (value == NULL || slurmopt_signal_parse(value, &sig) != NULL ||
	    sig.since <= rel)
		return NULL;
	for (v = 0; v < REST_NVERSIONS - 1 &&
	    rest_release_serving((enum rest_version)v) < sig.since; v++)
		;
	return error_hint(error_new(EXIT_USAGE, "%s: --signal: '%s': sbatch "
	    "of Slurm %d.%02d knows no signal %s (it has the name from "
	    "%d.%02d on), and a script from %s may go to any cluster", cmd,
	    value, rel / 100, rel % 100, slurmopt_signal_name(sig.num, 0),
	    sig.since / 100, sig.since % 100, cmd), "give its number, %d, "
	    "which every release takes; or, for a cluster of Slurm %d.%02d "
	    "or later, its profile's api_version %s or later",
	    sig.num, sig.since / 100, sig.since % 100,
	    rest_version_name((enum rest_version)v));
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
	if (err == NULL)
		err = gen_check_signal(cmd, &job, &fig);
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
