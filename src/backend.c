/* backend.c: the back-end table; see backend.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autoconf.h"

#ifdef HAVE_LIBSLURM
#include <slurm/slurm_version.h>
#endif

#include "backend.h"
#include "error.h"
#include "job.h"

static const struct backend *const backends[] = {
	&backend_rest,
#ifdef HAVE_LIBSLURM
	&backend_native,
#endif
	&backend_sbatch,
	NULL
};

const struct backend *
backend_find(const char *name)
{
	size_t	 i;

	for (i = 0; backends[i] != NULL; i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

const char *
backend_list(void)
{
#ifdef HAVE_LIBSLURM
	return "rest native sbatch";
#else
	return "rest sbatch";
#endif
}

/*
 * The Slurm the native back end was built for: its headers' release
 * and the library it loads ("Slurm 22.05 (libslurm.so.38)"), or NULL.
 */
const char *
backend_native_about(void)
{
#ifdef HAVE_LIBSLURM
	static char	 about[64];

	snprintf(about, sizeof about, "Slurm %02d.%02d (%s)",
	    (int)SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
	    (int)SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER), SLURM_SONAME);
	return about;
#else
	return NULL;
#endif
}

void
submit_result_release(struct submit_result *r)
{
	size_t	 i;

	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	memset(r, 0, sizeof *r);
}

void
job_status_release(struct job_status *s)
{
	free(s->reason);
	free(s->partition);
	free(s->name);
	free(s->node_list);
	memset(s, 0, sizeof *s);
}

/*
 * Where libslurm looks, in its order (src/common/read_config.c,
 * _establish_config_source(), the same from 22.05 to 25.11): $SLURM_CONF;
 * its built-in file (configure read it from the library); the copy a
 * configless slurmd keeps; then it asks slurmctld, at $SLURM_CONF_SERVER
 * or found in DNS (the native back end looks in DNS when it opens, not
 * here).  1 for a file, 2 for $SLURM_CONF_SERVER, 0 for none.
 */
int
backend_slurm_conf_exists(void)
{
	const char	*conf = getenv("SLURM_CONF");
	const char	*server = getenv("SLURM_CONF_SERVER");

	if (conf != NULL && *conf != '\0')
		return access(conf, R_OK) == 0;
	/* The first file there is the one libslurm reads, or fails on. */
	if (access(SLURM_DEFAULT_CONF, F_OK) == 0)
		return access(SLURM_DEFAULT_CONF, R_OK) == 0;
	if (access(SLURM_CACHED_CONF, F_OK) == 0)
		return access(SLURM_CACHED_CONF, R_OK) == 0;
	return server != NULL && *server != '\0' ? 2 : 0;
}

struct error *
backend_choose(const struct job *job, const struct backend **be)
{
	const char	*via = job_str(job, SET_VIA);

	if (via == NULL)
		via = job_str(job, SET_REST_URL) != NULL &&
		    backend_find("rest") != NULL ? "rest" :
		    backend_find("native") != NULL &&
		    backend_slurm_conf_exists() ? "native" : "sbatch";
	if ((*be = backend_find(via)) == NULL)
		return error_hint(error_new(EXIT_USAGE, "--via %s: this "
		    "mbsbatch has no %s back end", via, via),
		    "'mbsbatch --version' lists the back ends built in");
	return NULL;
}

void
backend_opts_from_job(const struct job *job, int verbose,
    struct backend_opts *o)
{
	memset(o, 0, sizeof *o);
	o->rest_url = job_str(job, SET_REST_URL);
	o->api_version = job_str(job, SET_API_VERSION);
	o->token_file = job_str(job, SET_TOKEN_FILE);
	o->cacert = job_str(job, SET_CACERT);
	o->user = job_str(job, SET_USER);
	if (job->set.v[SET_REST_TIMEOUT].origin != ORIGIN_UNSET)
		o->timeout = (long)job->set.v[SET_REST_TIMEOUT].i;
	o->insecure_http = job_bool(job, SET_INSECURE_HTTP, false);
	o->verbose = verbose;
}

struct error *
backend_open(const struct backend *be, const struct job *job, int verbose,
    struct backend_ctx **ctx)
{
	struct backend_opts	 o;

	backend_opts_from_job(job, verbose, &o);
	return be->open(&o, ctx);
}
