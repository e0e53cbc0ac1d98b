/*
 * cmd-backend.c: which back end a command uses and how it connects: the
 * job-aware side of the back ends (backend.h knows no job).  See
 * mbsbatch-submit(1), BACK ENDS.
 */
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"	/* SLURM_DEFAULT_CONF */
#include "backend.h"
#include "cmd.h"
#include "error.h"
#include "job.h"

struct error *
cmd_backend_choose(const struct job *job, const struct backend **be)
{
	const char	*via = job_str(job, SET_VIA);

	if (via == NULL)
		via = job_str(job, SET_REST_URL) != NULL ? backend_rest.name :
		    backend_find("native") != NULL &&
		    backend_slurm_conf_exists() ? "native" :
		    backend_sbatch.name;
	if ((*be = backend_find(via)) == NULL)
		return error_hint(error_new(EXIT_USAGE, "--via %s: this "
		    "mbsbatch has no %s back end", via, via),
		    "'mbsbatch --version' lists the back ends built in");
	return NULL;
}

struct error *
cmd_backend_hint(const struct job *job, const struct backend *be,
    struct error *err)
{
	const char	*conf = getenv("SLURM_CONF");

	if (job_str(job, SET_VIA) != NULL || job_str(job, SET_REST_URL) !=
	    NULL || be != &backend_sbatch || backend_slurm_conf_exists() != 0)
		return err;
	/* Picked for want of anything else: say so, and what would do. */
	return error_hint(err, "no Slurm cluster is configured here, so the "
	    "sbatch back end was used: no --via, no REST URL, and no "
	    "slurm.conf (%s%s%s); set SLURM_CONF to the cluster's "
	    "slurm.conf, or give --rest-url URL, or --cluster NAME of a "
	    "profile in the config file", conf != NULL && *conf != '\0' ?
	    "SLURM_CONF=" : "SLURM_CONF unset, no ", conf != NULL &&
	    *conf != '\0' ? conf : SLURM_DEFAULT_CONF, conf != NULL &&
	    *conf != '\0' ? " cannot be read" : "");
}

void
cmd_backend_opts(const struct job *job, int verbose, struct backend_opts *o)
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
cmd_backend_open(const struct backend *be, const struct job *job,
    int verbose, struct backend_ctx **ctx)
{
	struct backend_opts	 o;

	cmd_backend_opts(job, verbose, &o);
	return be->open(&o, ctx);
}

struct error *
cmd_open_backend(struct cmd_args *args, struct job *job,
    const struct backend **be, struct backend_ctx **ctx)
{
	struct error	*err;

	args->req.jobfile = NULL;
	if ((err = job_load(job, &args->req)) != NULL)
		return err;
	if ((err = cmd_backend_choose(job, be)) != NULL ||
	    (err = cmd_backend_open(*be, job, args->verbose, ctx)) != NULL)
		job_release(job);
	return err;
}
