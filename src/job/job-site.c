/*
 * job-site.c: a job's Slurm options against its cluster's site profile
 * (site.h), as findings of code site-limit: an error each, so that plan,
 * gen, submit and sweep refuse the job (exit 3, as any invalid layout)
 * before anything is queued.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "site.h"
#include "sizing.h"
#include "slurmopt.h"
#include "xmalloc.h"

/*
 * The GPU type the job's directives ask for, a new string or NULL:
 * --gpus-per-node=TYPE:N or --gpus=TYPE:N, --gres=gpu:TYPE:N (sbatch's
 * forms, src/sbatch/opt.c; the type is what the nodes' Gres= name).
 */
static char *
asked_gpu_type(const struct slurmopt *o)
{
	static const char *const gpus[] = { "gpus-per-node", "gpus" };
	char		**types = NULL, *type = NULL, *g;
	const char	*v;
	size_t		 i;

	for (i = 0; i < sizeof gpus / sizeof gpus[0]; i++)
		if ((v = slurmopt_get(o, gpus[i])) != NULL &&
		    strchr(v, ':') != NULL) {
			g = xasprintf("gpu:%s", v);
			(void)site_gres_gpus(g, &types);
			free(g);
		}
	if ((v = slurmopt_get(o, "gres")) != NULL)
		(void)site_gres_gpus(v, &types);
	if (types != NULL && types[0] != NULL)
		type = xstrdup(types[0]);
	freev(types);
	return type;
}

static void
add_finding(void *arg, const char *msg)
{
	sizing_add_finding(arg, "site-limit", SEVERITY_ERROR, "%s", msg);
}

void
job_site_check(const struct job *job, struct job_figures *fig)
{
	const struct config_cluster	*c;
	struct site_job			 j;
	const char			*t;
	char				*type;
	int64_t				 minutes;
	bool				 unlimited;

	if (job->cluster == NULL ||
	    config_cluster(&job->config, job->cluster, &c) != NULL ||
	    !c->has_site)
		return;
	memset(&j, 0, sizeof j);
	j.partition = slurmopt_get(&fig->slurm, "partition");
	j.time = -1;
	if ((t = slurmopt_get(&fig->slurm, "time")) != NULL &&
	    slurmopt_time_minutes(t, &minutes, &unlimited) == 0)
		j.time = unlimited ? INT64_MAX : minutes;
	j.nodes = fig->sizing.nodes;
	j.gpus_per_node = job->in.gpus_per_node;
	j.qos = slurmopt_get(&fig->slurm, "qos");
	j.account = slurmopt_get(&fig->slurm, "account");
	type = asked_gpu_type(&fig->slurm);
	j.gpu_type = type;
	(void)site_check(&c->site, c->name, &j, add_finding, &fig->sizing);
	free(type);
}
