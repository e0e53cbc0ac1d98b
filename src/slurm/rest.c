/*
 * rest.c: the slurmrestd API versions mbsbatch speaks; see rest.h.  Their
 * names, the request paths of each, which one a server offers (its
 * OpenAPI document), and the Slurm release behind an answer or serving a
 * version.
 *
 * The rest of the protocol, one idea a file: rest-submit.c builds the
 * job-submit body, rest-answer.c reads slurmrestd's answers (rest-job.c
 * the job records in them), rest-token.c checks the token and the URL;
 * rest-int.h is what they share.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "rest.h"
#include "rest-int.h"
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

/* ---- the version ---- */

struct error *
rest_pick_version(long status, const char *body, size_t len,
    enum rest_version *out)
{
	struct error	*err;
	struct buf	 other;
	json_t		*root, *paths, *val;
	const char	*key, *p, *slash;
	char		*name;
	bool		 offered[REST_NVERSIONS] = { false };
	enum rest_version v;
	int		 i, best = -1;

	root = rest_load(body, len);
	if (!rest_http_ok(status) || !json_is_object(root)) {
		if (rest_http_ok(status))
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: the "
			    "OpenAPI document (%s) is not JSON",
			    REST_PATH_OPENAPI);
		else
			err = rest_answer_error(REST_V0_0_36, status, root,
			    body, len);
		json_decref(root);
		return err;
	}
	buf_init(&other);
	paths = json_object_get(root, "paths");
	json_object_foreach(paths, key, val) {
		(void)val;
		if (strncmp(key, "/slurm/", 7) != 0)
			continue;
		p = key + 7;
		if ((slash = strchr(p, '/')) == NULL)
			slash = p + strlen(p);
		name = xstrndup(p, (size_t)(slash - p));
		if (rest_version_parse(name, &v) == 0)
			offered[v] = true;
		else if (strstr(other.data, name) == NULL && other.len < 200)
			buf_addf(&other, "%s%s", other.len > 0 ? ", " : "",
			    name);
		free(name);
	}
	for (i = 0; i < REST_NVERSIONS; i++)
		if (offered[i])
			best = i;
	json_decref(root);
	if (best >= 0) {
		buf_release(&other);
		*out = (enum rest_version)best;
		return NULL;
	}
	err = error_new(EXIT_FAILURE_OP, "slurmrestd: offers no API version "
	    "mbsbatch knows (%s%s; mbsbatch knows %s to %s)",
	    other.len > 0 ? "it offers " : "it lists no /slurm/ paths",
	    other.data, version_names[0], version_names[REST_NVERSIONS - 1]);
	buf_release(&other);
	return err;
}

/* ---- the release ---- */

/* "24.11.7", "Slurm-24.11.7&openapi/..." -> 2411; 0 if not so. */
static int
release_of(const char *s)
{
	char	*end;
	long	 major, minor;

	if (s == NULL)
		return 0;
	if (strncmp(s, "Slurm-", 6) == 0)
		s += 6;
	major = strtol(s, &end, 10);
	if (end == s || *end != '.' || major < 17 || major > 99)
		return 0;
	s = end + 1;
	minor = strtol(s, &end, 10);
	if (end == s || minor < 0 || minor > 12)
		return 0;
	return (int)(major * 100 + minor);
}

int
rest_parse_release(const char *body, size_t len)
{
	json_t	*root = rest_load(body, len), *meta, *sl;
	int	 r = 0;

	if (!json_is_object(root))
		goto out;
	meta = json_object_get(root, "meta");
	if ((sl = json_object_get(meta, "slurm")) == NULL)
		sl = json_object_get(meta, "Slurm");
	if (sl != NULL)
		r = release_of(json_string_value(json_object_get(sl,
		    "release")));
	else
		r = release_of(json_string_value(json_object_get(
		    json_object_get(root, "info"), "version")));
out:
	json_decref(root);
	return r;
}

int
rest_release_serving(enum rest_version v)
{
	static const int releases[REST_NVERSIONS] = {
		2205, 2205, 2205, 2302, 2311, 2405, 2411, 2505, 2511,
	};

	return releases[v];
}
