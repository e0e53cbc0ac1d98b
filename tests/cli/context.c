/*
 * context.c: print the template context of a gen command line: the JSON
 * object a template renders from, made by the same script_context() that
 * gen's script_render() calls, for the job and template gen would use.
 * tests/cli/docs.sh lists its keys from this, so that every key a
 * template can name is checked against mbsbatch-template(5), also the
 * ones added later.  Not installed: mbsbatch itself has no option to
 * show the context.
 *
 * usage: context [JOBFILE] [gen's options]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd.h"
#include "error.h"
#include "job.h"
#include "options.h"
#include "plan.h"
#include "script.h"
#include "template.h"
#include "xmalloc.h"

int
main(int argc, char **argv)
{
	const struct cmd_entry	*cmd;
	struct cmd_args		 args;
	struct job_figures	 fig;
	struct plan		 plan;
	struct template		 t;
	struct job		 job;
	struct error		*err;
	enum cmd_line		 what;
	const char		*why;
	char			**av, *name, *regen;
	json_t			*ctx;
	int			 i, status = EXIT_OK;

	/* "mbsbatch gen" and the arguments, as main() would read them. */
	av = xcalloc((size_t)argc + 2, sizeof *av);
	av[0] = "mbsbatch";
	av[1] = "gen";
	for (i = 1; i < argc; i++)
		av[i + 1] = argv[i];
	memset(&args, 0, sizeof args);
	if ((err = cmd_parse_line(argc + 1, av, &args, &cmd, &what)) != NULL)
		goto out;
	if (what != CMD_LINE_RUN || cmd != &cmd_gen_entry) {
		err = error_new(EXIT_USAGE, "usage: context [JOBFILE] "
		    "[gen's options]");
		goto out;
	}

	/* As gen and generate_script() do, up to the render. */
	args.req.jobfile = args.nargs > 0 ? args.args[0] : NULL;
	if ((err = job_load(&job, &args.req)) != NULL)
		goto out;
	if ((why = job_figure(&job, &fig)) != NULL) {
		err = error_new(EXIT_USAGE, "%s", why);
		job_release(&job);
		goto out;
	}
	name = job_path(&job, SET_TEMPLATE, template_is_path);
	err = template_load(name != NULL ? name : "megatron-bridge", &t);
	free(name);
	if (err != NULL) {
		job_release(&job);
		goto out;
	}
	regen = cmd_command_line(&args);
	plan_resolve(&plan, &job, &fig);
	ctx = script_context(&plan, t.name, regen);
	if (json_dumpf(ctx, stdout, JSON_INDENT(2) | JSON_SORT_KEYS) == -1 ||
	    putchar('\n') == EOF || fflush(stdout) != 0)
		err = error_new(EXIT_FAILURE_OP, "standard output: write "
		    "error");
	json_decref(ctx);
	free(regen);
	template_release(&t);
	job_release(&job);

out:
	options_release(&args);
	free(av);
	if (err != NULL) {
		fprintf(stderr, "context: %s\n", err->msg);
		status = err->status;
		error_free(err);
	}
	return status;
}
