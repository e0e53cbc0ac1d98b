/* jobdesc.c: a batch job as the back ends send it; see jobdesc.h. */
#include <stdlib.h>
#include <string.h>

#include "jobdesc.h"
#include "xmalloc.h"

void
jobdesc_init(struct jobdesc *d)
{
	memset(d, 0, sizeof *d);
	d->mem_mb = -1;
	d->time_minutes = -1;
	d->requeue = -1;
}

void
jobdesc_release(struct jobdesc *d)
{
	size_t	 i;

	free(d->script);
	free(d->name);
	free(d->partition);
	free(d->account);
	free(d->qos);
	free(d->reservation);
	free(d->constraint);
	free(d->dependency);
	free(d->output);
	free(d->error);
	free(d->chdir);
	free(d->array);
	for (i = 0; i < d->nexport_vars; i++)
		free(d->export_vars[i]);
	free(d->export_vars);
	free(d->mail_type);
	free(d->mail_user);
	jobdesc_init(d);
}

/* The value of NAME in ENV (NAME=value entries), or NULL. */
static const char *
env_find(char *const *env, const char *name, size_t len)
{
	for (; env != NULL && *env != NULL; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
			return *env;
	return NULL;
}

static void
env_add(char ***out, size_t *n, const char *entry)
{
	size_t	 len = strcspn(entry, "="), i;

	for (i = 0; i < *n; i++)
		if (strncmp((*out)[i], entry, len) == 0 &&
		    (*out)[i][len] == '=') {
			free((*out)[i]);
			(*out)[i] = xstrdup(entry);
			return;
		}
	*out = xreallocarray(*out, *n + 2, sizeof **out);
	(*out)[(*n)++] = xstrdup(entry);
	(*out)[*n] = NULL;
}

char **
jobdesc_env(const struct jobdesc *d, char *const *env, const char *cwd,
    size_t *nout)
{
	char		**out = xcalloc(1, sizeof *out);
	const char	*e;
	char		*extra;
	size_t		 n = 0, i, len;

	if (d->export_mode == EXPORT_ALL)
		for (i = 0; env != NULL && env[i] != NULL; i++)
			if (strchr(env[i], '=') != NULL)
				env_add(&out, &n, env[i]);
	for (i = 0; i < d->nexport_vars; i++) {
		if (strchr(d->export_vars[i], '=') != NULL) {
			env_add(&out, &n, d->export_vars[i]);
			continue;
		}
		len = strlen(d->export_vars[i]);
		if ((e = env_find(env, d->export_vars[i], len)) != NULL)
			env_add(&out, &n, e);
	}
	/* Without ALL, sbatch has Slurm load the user's login environment. */
	if (d->export_mode != EXPORT_ALL)
		env_add(&out, &n, "SLURM_GET_USER_ENV=1");
	if (d->name != NULL) {
		extra = xasprintf("SLURM_JOB_NAME=%s", d->name);
		env_add(&out, &n, extra);
		free(extra);
	}
	if (cwd != NULL) {
		extra = xasprintf("SLURM_SUBMIT_DIR=%s", cwd);
		env_add(&out, &n, extra);
		free(extra);
	}
	if (nout != NULL)
		*nout = n;
	return out;
}

void
jobdesc_env_free(char **env)
{
	size_t	 i;

	for (i = 0; env != NULL && env[i] != NULL; i++)
		free(env[i]);
	free(env);
}

static void
absolute(char **path, const char *dir)
{
	char	*p;

	if (*path == NULL || (*path)[0] == '/')
		return;
	p = xasprintf("%s/%s", dir, *path);
	free(*path);
	*path = p;
}

const char *
jobdesc_absolute(struct jobdesc *d, const char *cwd)
{
	const char	*workdir;

	absolute(&d->chdir, cwd);
	workdir = d->chdir != NULL ? d->chdir : cwd;
	absolute(&d->output, workdir);
	absolute(&d->error, workdir);
	return workdir;
}
