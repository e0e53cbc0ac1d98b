/*
 * generate.c: from a loaded job to its script, for gen and submit: size
 * and validate (an invalid layout writes nothing), pick the template,
 * render; and the log directory Slurm will not create.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "generate.h"
#include "report.h"
#include "script.h"
#include "template.h"
#include "xmalloc.h"

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

/*
 * Slurm opens the job's output before the script runs and does not
 * create its directory: a missing one loses the job's output.  Make the
 * directories of --output and --error (relative ones without a '%'
 * pattern) when writing a file; say so otherwise.
 */
struct error *
generate_log_dir(const char *cmd, const char *path, const char *base,
    bool create, bool quiet)
{
	const char	*slash, *pct;
	char		*dir;
	struct stat	 st;

	if (path == NULL || (slash = strrchr(path, '/')) == NULL ||
	    slash == path)
		return NULL;
	if ((pct = strchr(path, '%')) != NULL && pct < slash)
		return NULL;	/* the directory depends on the job */
	if (path[0] == '/' || base == NULL)
		dir = xstrndup(path, (size_t)(slash - path));
	else
		dir = xasprintf("%s/%.*s", base, (int)(slash - path), path);
	if (stat(dir, &st) == 0) {
		free(dir);
		return NULL;
	}
	if (create) {
		if (mkdir_p(dir) == -1) {
			struct error *err = error_new(EXIT_FAILURE_OP,
			    "%s: cannot create '%s' for the job's output: %s",
			    cmd, dir, strerror(errno));

			free(dir);
			return err;
		}
	} else if (!quiet)
		fprintf(stderr, "mbsbatch: %s: note: '%s/' does not exist "
		    "here; Slurm will not create it (mkdir -p %s before "
		    "sbatch)\n", cmd, dir, dir);
	free(dir);
	return NULL;
}

struct error *
generate_refusal(const char *cmd, const char *whose, const struct sizing *s,
    bool strict)
{
	const struct finding	*first = NULL;
	struct error		*err;
	int			 i, n = 0;

	if (!report_failed(s, strict))
		return NULL;
	for (i = 0; i < s->nfindings; i++)
		if (s->findings[i].severity == SEVERITY_ERROR ||
		    (strict && s->findings[i].severity == SEVERITY_WARNING)) {
			if (first == NULL)
				first = &s->findings[i];
			n++;
		}
	err = error_new(EXIT_LAYOUT, "%s: %s%s%s: %s; no script written", cmd,
	    whose != NULL ? whose : "", whose != NULL ? ": " : "",
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
print_warnings(const char *cmd, const struct sizing *s)
{
	int	 i;

	for (i = 0; i < s->nfindings; i++)
		if (s->findings[i].severity == SEVERITY_WARNING)
			fprintf(stderr, "mbsbatch: %s: warning: %s: %s\n",
			    cmd, s->findings[i].code, s->findings[i].message);
}

/* Say what pretrain_gpt.py gets that the job did not give. */
static void
note_mlm_defaults(const char *cmd, const struct job *job)
{
	bool	 iters, lr;

	if (!script_mlm_defaults(job, &iters, &lr))
		return;
	fprintf(stderr, "mbsbatch: %s: note: pretrain_gpt.py needs %s%s%s: "
	    "written as Megatron-Bridge's recipe defaults (%s%s%s)\n", cmd,
	    iters ? "a length" : "", iters && lr ? " and " : "",
	    lr ? "a learning rate" : "",
	    iters ? "--train-iters 1168251" : "", iters && lr ? ", " : "",
	    lr ? "--lr 3e-4, --min-lr 3e-5" : "");
}

/* The template JOB's script is rendered from (template_release() it). */
static struct error *
generate_template(const char *cmd, const struct job *job, struct template *t)
{
	struct error	*err;
	char		*name;

	if (job_template(job) == TEMPLATE_COMMAND &&
	    job_launcher(job) == LAUNCHER_TORCHRUN)
		return error_new(EXIT_USAGE, "%s: the command template runs "
		    "one process per GPU under srun; --launcher torchrun "
		    "does not apply to it", cmd);
	name = job_path(job, SET_TEMPLATE, template_is_path);
	err = template_load(name != NULL ? name : settings_word(SET_TEMPLATE,
	    TEMPLATE_MEGATRON_BRIDGE), t);
	free(name);
	return err;
}

struct error *
generate_script(const char *cmd, const struct job *job, const char *regen,
    bool quiet, struct job_figures *fig, struct buf *out, bool *shipped)
{
	struct template	 t;
	struct error	*err;
	const char	*reason;
	bool		 strict;

	if ((reason = job_figure(job, fig)) != NULL)
		return error_new(EXIT_USAGE, "%s: %s", cmd, reason);
	strict = job_bool(job, SET_STRICT, false);

	if ((err = generate_template(cmd, job, &t)) != NULL)
		return err;
	if (shipped != NULL)
		*shipped = template_shipped(&t);
	if ((err = generate_refusal(cmd, NULL, &fig->sizing, strict)) != NULL) {
		template_release(&t);
		return err;
	}
	if (!quiet)
		print_warnings(cmd, &fig->sizing);
	err = script_render(job, fig, &t, regen, out);
	if (err == NULL && !quiet && strstr(t.text, "{{#launch.args}}") != NULL)
		note_mlm_defaults(cmd, job);
	template_release(&t);
	return err;
}
