/*
 * cmd-gen.c: "mbsbatch gen": write the sbatch script of a job to
 * standard output or, atomically, to a file.  See mbsbatch-gen(1).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomicfile.h"
#include "buf.h"
#include "cmd.h"
#include "error.h"
#include "job.h"
#include "quote.h"
#include "report.h"
#include "script.h"
#include "template.h"
#include "xmalloc.h"

static struct error *cmd_gen_exec(const struct cmd_entry *,
    struct cmd_args *, int *);

static const struct cmd_option cmd_gen_options[] = {
	{ "file", 'o', "FILE", "write the script to FILE (atomically)" },
	{ "force", 0, NULL, "replace an existing FILE" },
	{ "list-templates", 0, NULL, "list the templates and exit" },
	{ NULL, 0, NULL, NULL }
};

const struct cmd_entry cmd_gen_entry = {
	.name = "gen",
	.usage = "[JOBFILE] [OPTIONS] [-o FILE] [--force]",
	.summary = "Write the sbatch script of a job.",
	.options = cmd_gen_options,
	.settings = true,
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

/* mkdir -p: each missing component of DIR, in order. */
static int
mkdir_p(const char *dir)
{
	char	*copy = xstrdup(dir), *p;
	int	 rc = 0;

	for (p = copy + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char	 c = *p;

			*p = '\0';
			if (mkdir(copy, 0777) == -1 && errno != EEXIST)
				rc = -1;
			*p = c;
		}
		if (rc == -1 || *p == '\0')
			break;
	}
	free(copy);
	return rc;
}

/* The command that regenerates the script: mbsbatch and its words. */
static char *
regen_command(const struct cmd_args *args)
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
 * Slurm opens the job's output before the script runs and does not
 * create its directory: a missing one loses the job's output.  Make the
 * directories of --output and --error (relative ones without a '%'
 * pattern) when writing a file; say so otherwise.
 */
static struct error *
ensure_log_dir(const char *path, bool create, bool quiet)
{
	const char	*slash, *pct;
	char		*dir;
	struct stat	 st;

	if (path == NULL || (slash = strrchr(path, '/')) == NULL ||
	    path[0] == '/' || slash == path)
		return NULL;
	if ((pct = strchr(path, '%')) != NULL && pct < slash)
		return NULL;	/* the directory depends on the job */
	dir = xstrndup(path, (size_t)(slash - path));
	if (stat(dir, &st) == 0) {
		free(dir);
		return NULL;
	}
	if (create) {
		if (mkdir_p(dir) == -1) {
			struct error *err = error_new(EXIT_FAILURE_OP,
			    "gen: cannot create '%s' for the job's output: %s",
			    dir, strerror(errno));

			free(dir);
			return err;
		}
	} else if (!quiet)
		fprintf(stderr, "mbsbatch: gen: note: '%s/' does not exist "
		    "here; Slurm will not create it (mkdir -p %s before "
		    "sbatch)\n", dir, dir);
	free(dir);
	return NULL;
}

/* The first finding that fails the layout, and how many more there are. */
static struct error *
layout_error(const struct sizing *s, bool strict)
{
	const struct finding	*first = NULL;
	struct error		*err;
	int			 i, n = 0;

	for (i = 0; i < s->nfindings; i++)
		if (s->findings[i].severity == SEVERITY_ERROR || strict) {
			if (first == NULL)
				first = &s->findings[i];
			n++;
		}
	err = error_new(EXIT_LAYOUT, "gen: %s: %s; no script written",
	    first->code, first->message);
	if (n > 1)
		error_hint(err, "%d more finding%s: 'mbsbatch plan' with the "
		    "same options shows them all", n - 1, n == 2 ? "" : "s");
	else
		error_hint(err, "'mbsbatch plan' with the same options shows "
		    "the derivation");
	return err;
}

static void
print_warnings(const struct sizing *s)
{
	int	 i;

	for (i = 0; i < s->nfindings; i++)
		if (s->findings[i].severity == SEVERITY_WARNING)
			fprintf(stderr, "mbsbatch: gen: warning: %s: %s\n",
			    s->findings[i].code, s->findings[i].message);
}

static struct error *
cmd_gen_exec(const struct cmd_entry *self, struct cmd_args *args,
    int *status)
{
	struct job_figures	 fig;
	struct template		 t;
	struct job		 job;
	struct error		*err;
	struct buf		 out;
	const char		*file = cmd_value(self, args, "file");
	const char		*reason;
	char			*regen, *name;
	bool			 strict;

	*status = EXIT_OK;
	if (cmd_value(self, args, "list-templates") != NULL)
		return list_templates();
	if (cmd_value(self, args, "force") != NULL && file == NULL)
		return error_new(EXIT_USAGE, "gen: --force goes with -o FILE");

	args->req.jobfile = args->nargs > 0 ? args->args[0] : NULL;
	if ((err = job_load(&job, &args->req)) != NULL)
		return err;
	if ((reason = job_figure(&job, &fig)) != NULL) {
		job_release(&job);
		return error_new(EXIT_USAGE, "gen: %s", reason);
	}
	strict = job_bool(&job, SET_STRICT, false);
	if (report_failed(&fig.sizing, strict)) {
		err = layout_error(&fig.sizing, strict);
		job_release(&job);
		return err;
	}
	if (!args->quiet)
		print_warnings(&fig.sizing);

	name = job_path(&job, SET_TEMPLATE, template_is_path);
	if (name != NULL && strcmp(name, "command") == 0 &&
	    job_str(&job, SET_LAUNCHER) != NULL &&
	    strcmp(job_str(&job, SET_LAUNCHER), "torchrun") == 0) {
		job_release(&job);
		free(name);
		return error_new(EXIT_USAGE, "gen: the command template runs "
		    "one process per GPU under srun; --launcher torchrun "
		    "does not apply to it");
	}
	err = template_load(name != NULL ? name : "megatron-bridge", &t);
	free(name);
	if (err != NULL) {
		job_release(&job);
		return err;
	}
	buf_init(&out);
	regen = regen_command(args);
	err = script_render(&job, &fig, &t, regen, &out);
	free(regen);
	if (err == NULL && file != NULL)
		err = atomicfile_write(file, out.data, out.len,
		    cmd_value(self, args, "force") != NULL, 0644);
	else if (err == NULL)
		fwrite(out.data, 1, out.len, stdout);
	/* After the script, so a refused write leaves no directory. */
	if (err == NULL)
		err = ensure_log_dir(slurmopt_get(&fig.slurm, "output"),
		    file != NULL, args->quiet);
	if (err == NULL)
		err = ensure_log_dir(slurmopt_get(&fig.slurm, "error"),
		    file != NULL, args->quiet);
	if (err == NULL && file != NULL && !args->quiet)
		fprintf(stderr, "mbsbatch: gen: wrote %s (%lld node%s, %lld "
		    "GPU%s)\n", file, (long long)fig.sizing.nodes,
		    fig.sizing.nodes == 1 ? "" : "s", (long long)fig.sizing.world,
		    fig.sizing.world == 1 ? "" : "s");
	buf_release(&out);
	template_release(&t);
	job_release(&job);
	return err;
}
