/*
 * generate.c: from a loaded job to its script, for gen and submit: size
 * and validate (an invalid layout writes nothing), pick the template,
 * render; and the log directory Slurm before 23.02 does not create.
 */
#include <sys/stat.h>

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "error.h"
#include "generate.h"
#include "jobdesc.h"
#include "report.h"
#include "script.h"
#include "script-mlm.h"
#include "slurmopt.h"
#include "template.h"
#include "termtext.h"
#include "xmalloc.h"

/*
 * mkdir -p: each missing component of DIR, in order, each one made
 * appended to *MADE (a NULL-terminated vector, for undoing).
 */
static int
mkdir_p(const char *dir, char ***made)
{
	char	*copy = xstrdup(dir), *p;
	size_t	 n = 0;
	int	 rc = 0;

	while (*made != NULL && (*made)[n] != NULL)
		n++;
	for (p = copy + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char	 c = *p;

			*p = '\0';
			if (mkdir(copy, 0777) == 0) {
				*made = xreallocarray(*made, n + 2,
				    sizeof **made);
				(*made)[n++] = xstrdup(copy);
				(*made)[n] = NULL;
			} else if (errno != EEXIST)
				rc = -1;
			*p = c;
		}
		if (rc == -1 || *p == '\0')
			break;
	}
	free(copy);
	return rc;
}

void
generate_log_dirs_undo(char **made)
{
	size_t	 n = 0;

	while (made != NULL && made[n] != NULL)
		n++;
	/* Deepest first; only while empty (rmdir(2) keeps the others). */
	while (n > 0)
		(void)rmdir(made[--n]);
	freev(made);
}

struct error *
generate_log_dir(const char *cmd, const char *pattern,
    const struct logpath_job *j, bool create, bool quiet, char ***made)
{
	struct error	*err = NULL;
	struct stat	 st;
	char		*dir;
	bool		 known, makes;
	const char	*who;

	if (pattern == NULL || (dir = logpath_dir(pattern, j, &known)) ==
	    NULL)
		return NULL;
	/* 0: the release is not known (gen), the warning says which. */
	makes = logpath_makes_dirs(j->release);
	who = j->release == 0 ? "Slurm before 23.02" : "Slurm";
	if (!known) {
		/* logs/%j/out: made once the job is queued would race its
		 * start; said instead, where Slurm will not make it. */
		if (!quiet && !makes)
			termtext_printf(stderr, "mbsbatch: %s: warning: the "
			    "directory of '%s', '%s', depends on the job; "
			    "%s does not make it, and a job whose "
			    "directory is missing loses its output\n", cmd,
			    pattern, dir, who);
	} else if (stat(dir, &st) == 0) {
		/* A file there: Slurm could not open the job's output. */
		if (!S_ISDIR(st.st_mode))
			err = error_new(EXIT_FAILURE_OP, "%s: '%s', the "
			    "directory of the job's output '%s', is not a "
			    "directory", cmd, dir, pattern);
	} else if (create) {
		if (mkdir_p(dir, made) == -1)
			err = error_new(EXIT_FAILURE_OP, "%s: cannot create "
			    "'%s' for the job's output: %s", cmd, dir,
			    strerror(errno));
	} else if (!quiet && !makes)
		termtext_printf(stderr, "mbsbatch: %s: note: '%s/' does not "
		    "exist here; %s will not create it (mkdir -p %s "
		    "before sbatch)\n", cmd, dir, who, dir);
	free(dir);
	return err;
}

struct error *
generate_script_log_dirs(const char *cmd, const struct slurmopt *o,
    bool create, bool quiet)
{
	struct logpath_job	 j;
	struct passwd		*pw;
	struct error		*err;
	const char		*out = slurmopt_get(o, "output");
	const char		*errp = slurmopt_get(o, "error");
	char			**made = NULL;

	memset(&j, 0, sizeof j);
	j.array_task_id = LOGPATH_NO_TASK;
	j.any_task = slurmopt_get(o, "array") != NULL;
	j.name = slurmopt_get(o, "job-name");
	/* Slurm opens a relative path in the job's working directory. */
	j.work_dir = slurmopt_get(o, "chdir");
	j.user = (pw = getpwuid(getuid())) != NULL ? pw->pw_name : NULL;
	if ((err = generate_log_dir(cmd, out, &j, create, quiet, &made)) ==
	    NULL && (errp == NULL || out == NULL || strcmp(errp, out) != 0))
		err = generate_log_dir(cmd, errp, &j, create, quiet, &made);
	freev(made);
	return err;
}

struct error *
generate_job_log_dirs(const char *cmd, const struct jobdesc *d,
    const char *workdir, const char *user, int release, bool quiet,
    char ***made)
{
	struct logpath_job	 j;
	struct error		*err;

	*made = NULL;
	memset(&j, 0, sizeof j);
	j.release = release;
	j.array_task_id = LOGPATH_NO_TASK;
	j.any_task = d->array != NULL;
	/* sbatch's name for a job without one: its script's, or "sbatch"
	 * for one read from standard input. */
	j.name = d->name != NULL ? d->name : "sbatch";
	j.user = user;
	j.work_dir = workdir;
	if ((err = generate_log_dir(cmd, d->output, &j, true, quiet, made)) ==
	    NULL && (d->error == NULL || d->output == NULL ||
	    strcmp(d->error, d->output) != 0))
		err = generate_log_dir(cmd, d->error, &j, true, quiet, made);
	if (err != NULL) {
		generate_log_dirs_undo(*made);
		*made = NULL;
	}
	return err;
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
	/* Every other one on a line of its own: a job over several of the
	 * site's limits is told all of them at once. */
	for (i = 0; i < s->nfindings; i++)
		if (&s->findings[i] != first &&
		    (s->findings[i].severity == SEVERITY_ERROR ||
		    (strict && s->findings[i].severity == SEVERITY_WARNING)))
			error_add_line(err, "%s: %s%s%s: %s", cmd,
			    whose != NULL ? whose : "", whose != NULL ?
			    ": " : "", s->findings[i].code,
			    s->findings[i].message);
	error_hint(err, "'mbsbatch plan' with the same options shows %s",
	    n > 1 ? "them with the derivation" : "the derivation");
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
note_mlm_defaults(const char *cmd, const struct plan *p)
{
	bool	 iters, lr;

	if (!script_mlm_defaults(p, &iters, &lr))
		return;
	fprintf(stderr, "mbsbatch: %s: note: pretrain_gpt.py needs %s%s%s: "
	    "written as Megatron-Bridge's recipe defaults (%s%s%s)\n", cmd,
	    iters ? "a length" : "", iters && lr ? " and " : "",
	    lr ? "a learning rate" : "",
	    iters ? "--train-iters 1168251" : "", iters && lr ? ", " : "",
	    lr ? "--lr 3e-4, --min-lr 3e-5" : "");
}

/*
 * With --chdir the job starts there, and the training script, when
 * relative, is found from there: say so when the directory is visible
 * here and the script is not in it.  In a container the script is found
 * from the container's working directory, which this host cannot see.
 */
static void
note_chdir(const char *cmd, const struct plan *p, const char *template)
{
	struct stat	 st;
	const char	*script;
	char		*path;

	if (p->chdir == NULL || p->template == TEMPLATE_COMMAND ||
	    p->container_image != NULL || stat(p->chdir, &st) == -1 ||
	    !S_ISDIR(st.st_mode))
		return;
	script = script_train_script(p, template);
	path = script[0] == '/' ? xstrdup(script) : xasprintf("%s%s%s",
	    p->chdir, p->chdir[strlen(p->chdir) - 1] == '/' ? "" : "/",
	    script);
	if (stat(path, &st) == -1)
		termtext_printf(stderr, "mbsbatch: %s: warning: the training "
		    "script '%s' is not in the job's working directory "
		    "'%s' (--chdir): '%s' does not exist\n", cmd, script,
		    p->chdir, path);
	free(path);
}

/* The template the plan's script is rendered from, NAME (the --template
 * path or name, NULL for the default; template_release() it). */
static struct error *
generate_template(const char *cmd, const struct plan *p, const char *name,
    struct template *t)
{
	if (p->template == TEMPLATE_COMMAND &&
	    p->launcher == LAUNCHER_TORCHRUN)
		return error_new(EXIT_USAGE, "%s: the command template runs "
		    "one process per GPU under srun; --launcher torchrun "
		    "does not apply to it", cmd);
	return template_load(name != NULL ? name : settings_word(SET_TEMPLATE,
	    TEMPLATE_MEGATRON_BRIDGE), t);
}

/*
 * Where the job becomes a plan: the figures and the plan resolved once,
 * and the template's path (relative to the job file's directory when the
 * job file gives one: job_path(), with the render floor's
 * template_is_path()); what follows reads only the plan.
 */
struct error *
generate_script(const char *cmd, const struct job *job, const char *regen,
    bool quiet, struct job_figures *fig, struct buf *out, bool *shipped)
{
	struct template	 t;
	struct plan	 p;
	struct error	*err;
	const char	*reason;
	char		*name;

	if ((reason = job_figure(job, fig)) != NULL)
		return error_new(EXIT_USAGE, "%s: %s", cmd, reason);
	plan_resolve(&p, job, fig);

	name = job_path(job, SET_TEMPLATE, template_is_path);
	err = generate_template(cmd, &p, name, &t);
	free(name);
	if (err != NULL)
		return err;
	if (shipped != NULL)
		*shipped = template_shipped(&t);
	if ((err = generate_refusal(cmd, NULL, &fig->sizing, p.strict)) !=
	    NULL) {
		template_release(&t);
		return err;
	}
	if (!quiet)
		print_warnings(cmd, &fig->sizing);
	if (!quiet)
		note_chdir(cmd, &p, t.name);
	err = script_render(&p, &t, regen, out);
	if (err == NULL && !quiet && strstr(t.text, "{{#launch.args}}") != NULL)
		note_mlm_defaults(cmd, &p);
	template_release(&t);
	return err;
}
