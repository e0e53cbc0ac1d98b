/*
 * rest.c: the slurmrestd API versions mbsbatch speaks; see rest.h.  Their
 * names, the request paths of each, and the Slurm release serving a
 * version.
 *
 * The rest of the protocol, one idea a file: rest-submit.c builds the
 * job-submit body, rest-answer.c reads slurmrestd's answers (which
 * version a server offers and its release among them; rest-job.c the job
 * records), rest-token.c checks the token and the URL; rest-int.h is what
 * they share.
 */
#include <stdlib.h>
#include <string.h>

#include "rest.h"
#include "xmalloc.h"

static const char *const version_names[REST_NVERSIONS] = {
	"v0.0.36", "v0.0.37", "v0.0.38", "v0.0.39", "v0.0.40",
	"v0.0.41", "v0.0.42", "v0.0.43", "v0.0.44",
};

const char *
rest_version_name(enum rest_version v)
{
	if ((unsigned)v >= REST_NVERSIONS)
		return "v?";
	return version_names[v];
}

int
rest_version_parse(const char *s, enum rest_version *out)
{
	int	 i;

	if (s == NULL)
		return -1;
	if (*s == 'v' || *s == 'V')
		s++;
	for (i = 0; i < REST_NVERSIONS; i++)
		if (strcmp(s, version_names[i] + 1) == 0) {
			*out = (enum rest_version)i;
			return 0;
		}
	return -1;
}

char *
rest_path_submit(enum rest_version v)
{
	return xasprintf("/slurm/%s/job/submit", rest_version_name(v));
}

char *
rest_path_job(enum rest_version v, int64_t job_id)
{
	return xasprintf("/slurm/%s/job/%lld", rest_version_name(v),
	    (long long)job_id);
}

char *
rest_path_jobs(enum rest_version v)
{
	return xasprintf("/slurm/%s/jobs", rest_version_name(v));
}

char *
rest_path_node(enum rest_version v, const char *node)
{
	return xasprintf("/slurm/%s/node/%s", rest_version_name(v), node);
}

char *
rest_path_ping(enum rest_version v)
{
	return xasprintf("/slurm/%s/ping", rest_version_name(v));
}

char *
rest_path_db_job(enum rest_version v, int64_t job_id)
{
	return xasprintf("/slurmdb/%s/job/%lld", rest_version_name(v),
	    (long long)job_id);
}

int
rest_release_serving(enum rest_version v)
{
	static const int releases[REST_NVERSIONS] = {
		2205, 2205, 2205, 2302, 2311, 2405, 2411, 2505, 2511,
	};

	return releases[v];
}
