/*
 * backend-rest.c: the REST back end: slurmrestd over libcurl, one
 * connection kept alive for every request of a run.  Request bodies and
 * answers are built and read by rest.h (pure); this file moves bytes,
 * holds the token, and says what the network did.
 *
 * The token comes from $SLURM_JWT or --token-file (refused when others
 * can read it), both read by rest_token_parse(), and is only ever put in
 * the X-SLURM-USER-TOKEN header: never in a message, a log line or the
 * dry-run output, and never over plain http to another host unless
 * --insecure-http says so.  From the moment a token is read the process
 * is not dumpable (no core file, no ptrace by the same user), to its
 * end: libcurl frees its copies of the headers without clearing them.
 * A submit is sent once: it is never retried, since a timeout does not
 * say whether the job was queued.
 */
#include <sys/prctl.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "backend.h"
#include "buf.h"
#include "curl-load.h"
#include "error.h"
#include "jobdesc.h"
#include "rest.h"
#include "site.h"
#include "siteinfo.h"
#include "xmalloc.h"

#define REST_CONNECT_TIMEOUT	10	/* seconds */
#define REST_TIMEOUT		60	/* default of --rest-timeout */
#define REST_MAX_ANSWER		(64 * 1024 * 1024)

struct backend_ctx {
	CURL			*curl;
	struct curl_slist	*headers;
	char			*base;		/* "http://host:port" */
	char			*unix_path;	/* or NULL */
	long			 timeout;	/* seconds */
	char			*url;		/* as given, for messages */
	char			*token;		/* secret; may be NULL (unix) */
	const char		*token_from;	/* "SLURM_JWT", "the token file";
						   NULL: no token */
	char			*user;		/* X-SLURM-USER-NAME */
	enum rest_version	 version;
	int			 release;	/* the server's Slurm: 2411 */
	int			 verbose;
	char			 errbuf[CURL_ERROR_SIZE];
};

static size_t
rest_on_data(char *p, size_t size, size_t n, void *arg)
{
	struct buf	*b = arg;

	if (size != 0 && n > (REST_MAX_ANSWER - b->len) / size)
		return 0;	/* makes curl fail: an answer too large */
	buf_add(b, p, size * n);
	return size * n;
}

/*
 * Keep the token out of core files and away from ptrace for the rest of
 * the process's life: called before a token is read.  Not undone when
 * the token is freed: libcurl's own copies of the headers are freed
 * without being cleared, so the heap may still hold it.
 */
static struct error *
rest_hold_secret(void)
{
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == -1)
		return error_new(EXIT_FAILURE_OP, "prctl(PR_SET_DUMPABLE): %s "
		    "(a token must not land in a core file)", strerror(errno));
	return NULL;
}

#define TOKEN_FILE_MAX	8192

/* Read a token file: refused when group or others may read it. */
static struct error *
rest_read_token_file(const char *path, char **out)
{
	struct stat	 st;
	struct error	*err;
	char		*what, b[TOKEN_FILE_MAX + 1];
	ssize_t		 n;
	size_t		 len = 0;
	int		 fd;

	*out = NULL;
	if ((fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)) == -1)
		return error_new(EXIT_FAILURE_OP, "token file '%s': %s", path,
		    strerror(errno));
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		close(fd);
		return error_new(EXIT_FAILURE_OP, "token file '%s': not a "
		    "regular file", path);
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		close(fd);
		return error_hint(error_new(EXIT_USAGE, "token file '%s': "
		    "readable by others (mode %04o); refused", path,
		    (unsigned)(st.st_mode & 07777)), "chmod 600 '%s'", path);
	}
	while (len < sizeof b && (n = read(fd, b + len, sizeof b - len)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			err = error_new(EXIT_FAILURE_OP, "token file '%s': %s",
			    path, strerror(errno));
			close(fd);
			explicit_bzero(b, sizeof b);
			return err;
		}
		len += (size_t)n;
	}
	close(fd);
	if (len > TOKEN_FILE_MAX)
		err = error_new(EXIT_USAGE, "token file '%s': larger than %d "
		    "bytes: not a token", path, TOKEN_FILE_MAX);
	else {
		what = xasprintf("token file '%s'", path);
		err = rest_token_parse(what, b, len, out);
		free(what);
	}
	explicit_bzero(b, sizeof b);
	return err;
}

/* Clear the headers, which hold the token, before freeing them. */
static void
rest_headers_free(struct curl_slist *h)
{
	struct curl_slist	*l;

	for (l = h; l != NULL; l = l->next)
		if (l->data != NULL)
			explicit_bzero(l->data, strlen(l->data));
	curl_slist_free_all(h);
}

/*
 * Where the token may be sent: https, a unix socket, or plain http to
 * this machine; plain http to another host only with --insecure-http,
 * since anyone on the path reads the token there.
 */
static struct error *
rest_check_cleartext(const struct backend_opts *o)
{
	if (o->insecure_http || strncmp(o->rest_url, "http://", 7) != 0 ||
	    rest_url_loopback(o->rest_url))
		return NULL;
	return error_hint(error_new(EXIT_USAGE, "slurmrestd '%s': refusing to "
	    "send the token over plain http to another host", o->rest_url),
	    "use https://, or give --insecure-http (insecure_http in a "
	    "cluster profile) if the network between is trusted");
}

static void
rest_close(struct backend_ctx *ctx)
{
	if (ctx == NULL)
		return;
	/* libcurl may not have loaded: nothing of it to free then. */
	if (ctx->curl != NULL)
		curl_easy_cleanup(ctx->curl);
	if (ctx->headers != NULL)
		rest_headers_free(ctx->headers);
	if (ctx->token != NULL) {
		explicit_bzero(ctx->token, strlen(ctx->token));
		free(ctx->token);
	}
	free(ctx->base);
	free(ctx->unix_path);
	free(ctx->user);
	free(ctx->url);
	free(ctx);
}

/*
 * The token sent, and the request refused before it was read: 401
 * "Authentication failure" (slurmrestd: ESLURM_REST_AUTH_FAIL,
 * src/common/http.c:161 in 25.11), 403 from what may stand in front of
 * it.  ANSWER is released.
 */
static struct error *
rest_refused(struct backend_ctx *ctx, long status, struct buf *answer)
{
	struct error	*err;
	size_t		 n = strcspn(answer->data, "\r\n");

	err = error_new(EXIT_FAILURE_OP, "slurmrestd '%s': the token was "
	    "refused (HTTP %ld%s%.*s)", ctx->url, status, n > 0 ? ": " : "",
	    (int)(n < 80 ? n : 80), answer->data);
	buf_release(answer);
	return error_hint(err, "it may have expired ('scontrol token' makes "
	    "a new one), be another user's than '%s' (--user), or %s may "
	    "not hold it as it should: the token alone, SLURM_JWT=TOKEN, or "
	    "export SLURM_JWT=\"TOKEN\"", ctx->user, ctx->token_from);
}

/* One request; *status and *answer (released by the caller) on success. */
static struct error *
rest_request(struct backend_ctx *ctx, const char *method, const char *path,
    const char *body, long *status, struct buf *answer)
{
	char		*url = xasprintf("%s%s", ctx->base, path);
	CURLcode	 rc;

	buf_init(answer);
	curl_easy_setopt(ctx->curl, CURLOPT_URL, url);
	if (body != NULL) {
		curl_easy_setopt(ctx->curl, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(ctx->curl, CURLOPT_POSTFIELDSIZE,
		    (long)strlen(body));
	} else {
		/* No body: GET mode, else curl sends an empty chunked POST. */
		curl_easy_setopt(ctx->curl, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(ctx->curl, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(ctx->curl, CURLOPT_WRITEDATA, answer);
	/*
	 * slurmrestd 22.05 leaves bytes behind after some GET answers, and
	 * curl then reads them as the next answer's headers ("Header without
	 * colon"): close the connection after a GET.  Submits, the bulk of
	 * the traffic, keep one connection.
	 */
	curl_easy_setopt(ctx->curl, CURLOPT_FORBID_REUSE,
	    strcmp(method, "GET") == 0 ? 1L : 0L);
	if (ctx->verbose > 0)
		fprintf(stderr, "mbsbatch: rest: %s %s%s%s\n", method, url,
		    ctx->unix_path != NULL ? " via " : "",
		    ctx->unix_path != NULL ? ctx->unix_path : "");
	ctx->errbuf[0] = '\0';
	rc = curl_easy_perform(ctx->curl);
	free(url);
	if (rc != CURLE_OK) {
		struct error *err;
		struct stat sb;

		/* curl names "localhost port 80" for a socket it cannot
		 * reach: say what is wrong with the socket instead. */
		if (ctx->unix_path != NULL && rc == CURLE_COULDNT_CONNECT &&
		    stat(ctx->unix_path, &sb) == -1)
			err = error_new(EXIT_FAILURE_OP, "slurmrestd '%s': %s",
			    ctx->url, strerror(errno));
		else if (ctx->unix_path != NULL && rc == CURLE_COULDNT_CONNECT)
			err = error_new(EXIT_FAILURE_OP, "slurmrestd '%s': "
			    "cannot connect to the socket", ctx->url);
		else
			err = error_new(EXIT_FAILURE_OP, "slurmrestd '%s': %s",
			    ctx->url, ctx->errbuf[0] != '\0' ? ctx->errbuf :
			    curl_easy_strerror(rc));

		buf_release(answer);
		if (rc == CURLE_COULDNT_CONNECT)
			error_hint(err, "is slurmrestd running there?");
		else if (rc == CURLE_OPERATION_TIMEDOUT)
			error_hint(err, "no answer in %ld s (--rest-timeout); "
			    "if this was a submit, check with squeue before "
			    "submitting again", ctx->timeout);
		return err;
	}
	curl_easy_getinfo(ctx->curl, CURLINFO_RESPONSE_CODE, status);
	/*
	 * rest_auth/local refuses a user name that is not its own (since
	 * 25.05 slurmrestd must run as a user, not root, to serve a unix
	 * socket): a token is not what is wrong.
	 */
	if (ctx->unix_path != NULL && *status == 401) {
		buf_release(answer);
		return error_hint(error_new(EXIT_FAILURE_OP, "slurmrestd '%s': "
		    "refused user '%s' (HTTP 401): a unix-socket slurmrestd "
		    "serves only the user it runs as", ctx->url, ctx->user),
		    "give --user with that user's name (the jobs are then "
		    "that user's), or its TCP address with a token");
	}
	if (ctx->token_from != NULL && (*status == 401 || *status == 403))
		return rest_refused(ctx, *status, answer);
	return NULL;
}

static struct error *
rest_choose_version(struct backend_ctx *ctx, const char *wanted)
{
	struct error	*err;
	struct buf	 answer;
	long		 status;

	if (wanted != NULL && strcmp(wanted, "auto") != 0) {
		if (rest_version_parse(wanted, &ctx->version) == -1)
			return error_new(EXIT_USAGE, "--api-version: '%s' is "
			    "not an API version mbsbatch knows (v0.0.36 to "
			    "v0.0.44, or auto)", wanted);
		return NULL;
	}
	if ((err = rest_request(ctx, "GET", REST_PATH_OPENAPI, NULL, &status,
	    &answer)) != NULL)
		return err;
	err = rest_pick_version(status, answer.data, answer.len,
	    &ctx->version);
	if (err == NULL && (ctx->release = rest_parse_release(answer.data,
	    answer.len)) == 0)
		ctx->release = rest_release_serving(ctx->version);
	buf_release(&answer);
	if (err == NULL && ctx->verbose > 0)
		fprintf(stderr, "mbsbatch: rest: API version %s\n",
		    rest_version_name(ctx->version));
	return err;
}

static struct error *
rest_open(const struct backend_opts *o, struct backend_ctx **out)
{
	struct backend_ctx	*ctx;
	struct passwd		*pw;
	struct error		*err = NULL;
	const char		*user = o->user, *env;
	char			*h;

	*out = NULL;
	if (o->rest_url == NULL)
		return error_hint(error_new(EXIT_USAGE, "--via rest: no REST "
		    "URL"), "give --rest-url http(s)://HOST:PORT or "
		    "unix:/PATH, or rest_url in a cluster profile");
	ctx = xcalloc(1, sizeof *ctx);
	ctx->verbose = o->verbose;
	ctx->url = xstrdup(o->rest_url);
	if (strncmp(o->rest_url, "unix:", 5) == 0) {
		ctx->unix_path = xstrdup(o->rest_url + 5);
		ctx->base = xstrdup("http://localhost");
	} else {
		ctx->base = xstrdup(o->rest_url);
		if (ctx->base[strlen(ctx->base) - 1] == '/')
			ctx->base[strlen(ctx->base) - 1] = '\0';
	}
	env = getenv("SLURM_JWT");
	if (env != NULL && *env == '\0')
		env = NULL;
	/* Refused before the token is even read. */
	if ((o->token_file != NULL || env != NULL) &&
	    (err = rest_check_cleartext(o)) != NULL)
		goto fail;
	if ((o->token_file != NULL || env != NULL) &&
	    (err = rest_hold_secret()) != NULL)
		goto fail;
	if (o->token_file != NULL) {
		ctx->token_from = "the token file";
		err = rest_read_token_file(o->token_file, &ctx->token);
	} else if (env != NULL) {
		ctx->token_from = "SLURM_JWT";
		err = rest_token_parse("SLURM_JWT", env, strlen(env),
		    &ctx->token);
	}
	else if (ctx->unix_path == NULL)
		err = error_hint(error_new(EXIT_USAGE, "--via rest: no token"),
		    "set SLURM_JWT (scontrol token prints one) or give "
		    "--token-file FILE");
	if (err != NULL)
		goto fail;
	if (user == NULL) {
		pw = getpwuid(getuid());
		if (pw == NULL) {
			err = error_new(EXIT_FAILURE_OP, "--via rest: who am "
			    "I? (uid %u has no name); give --user",
			    (unsigned)getuid());
			goto fail;
		}
		user = pw->pw_name;
	}

	if ((err = curl_load()) != NULL)
		goto fail;
	if ((ctx->curl = curl_easy_init()) == NULL) {
		err = error_new(EXIT_FAILURE_OP, "libcurl: cannot start");
		goto fail;
	}
	ctx->user = xstrdup(user);
	h = xasprintf("X-SLURM-USER-NAME: %s", user);
	ctx->headers = curl_slist_append(ctx->headers, h);
	free(h);
	if (ctx->token != NULL) {
		h = xasprintf("X-SLURM-USER-TOKEN: %s", ctx->token);
		ctx->headers = curl_slist_append(ctx->headers, h);
		explicit_bzero(h, strlen(h));
		free(h);
		/* The header holds it now: no second copy kept. */
		explicit_bzero(ctx->token, strlen(ctx->token));
		free(ctx->token);
		ctx->token = NULL;
	}
	ctx->headers = curl_slist_append(ctx->headers,
	    "Content-Type: application/json");
	ctx->headers = curl_slist_append(ctx->headers,
	    "Accept: application/json");
	curl_easy_setopt(ctx->curl, CURLOPT_HTTPHEADER, ctx->headers);
	curl_easy_setopt(ctx->curl, CURLOPT_ERRORBUFFER, ctx->errbuf);
	curl_easy_setopt(ctx->curl, CURLOPT_WRITEFUNCTION, rest_on_data);
	curl_easy_setopt(ctx->curl, CURLOPT_NOSIGNAL, 1L);

	curl_easy_setopt(ctx->curl, CURLOPT_CONNECTTIMEOUT,
	    (long)REST_CONNECT_TIMEOUT);
	ctx->timeout = o->timeout > 0 ? o->timeout : REST_TIMEOUT;
	curl_easy_setopt(ctx->curl, CURLOPT_TIMEOUT, ctx->timeout);
	curl_easy_setopt(ctx->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(ctx->curl, CURLOPT_NOPROXY, "*");
	if (ctx->unix_path != NULL)
		curl_easy_setopt(ctx->curl, CURLOPT_UNIX_SOCKET_PATH,
		    ctx->unix_path);
	if (o->cacert != NULL)
		curl_easy_setopt(ctx->curl, CURLOPT_CAINFO, o->cacert);
	if ((err = rest_choose_version(ctx, o->api_version)) != NULL)
		goto fail;
	*out = ctx;
	return NULL;

fail:
	rest_close(ctx);
	return err;
}

/*
 * The release of the Slurm behind an --api-version given (no OpenAPI
 * document read): what its ping answer says, else the newest release
 * that serves the version.  The job's environment depends on it.
 */
static int
rest_server_release(struct backend_ctx *ctx)
{
	struct error	*err;
	struct buf	 answer;
	char		*path = rest_path_ping(ctx->version);
	long		 status;
	int		 r = 0;

	if ((err = rest_request(ctx, "GET", path, NULL, &status, &answer)) == NULL) {
		if (status == 200)
			r = rest_parse_release(answer.data, answer.len);
		buf_release(&answer);
	} else
		error_free(err);
	free(path);
	return r != 0 ? r : rest_release_serving(ctx->version);
}

/*
 * The description D with the submission's own --hold, dependency and
 * environment, and
 * the TRES strings sbatch of RELEASE sends (new strings in TRES[0..1]).
 */
static void
rest_with_opts(struct jobdesc *copy, const struct jobdesc *d,
    const struct submit_opts *so, int release, char *tres[2])
{
	jobdesc_for_release(copy, d, so, release, tres);
	if (so != NULL && so->hold)
		copy->hold = true;
}

static struct error *
rest_submit(struct backend_ctx *ctx, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    struct submit_result *r)
{
	struct rest_submit_result	 rr;
	struct jobdesc_context		 c;
	struct jobdesc			 copy;
	char				*tres[2];
	struct error			*err;
	struct buf			 answer;
	char				**env, *path, *text;
	json_t				*body;
	long				 status;
	size_t				 i;

	memset(r, 0, sizeof *r);
	if (ctx->release == 0)
		ctx->release = rest_server_release(ctx);
	if ((err = jobdesc_check_release(d, ctx->release)) != NULL)
		return err;
	rest_with_opts(&copy, d, so, ctx->release, tres);
	c = *jc;
	c.release = ctx->release;
	env = jobdesc_env(&copy, &c, NULL);
	err = rest_submit_body(ctx->version, &copy, env, jc->cwd, &body);
	freev(env);
	free(tres[0]);
	free(tres[1]);
	if (err != NULL)
		return err;
	text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	path = rest_path_submit(ctx->version);
	err = rest_request(ctx, "POST", path, text, &status, &answer);
	free(path);
	free(text);
	if (err != NULL)
		return err;
	memset(&rr, 0, sizeof rr);
	err = rest_parse_submit(ctx->version, status, answer.data, answer.len,
	    &rr);
	buf_release(&answer);
	if (err != NULL)
		return err;
	r->job_id = rr.job_id;
	r->release = ctx->release;
	r->user = xstrdup(ctx->user);
	r->warnings = xcalloc(rr.nwarnings + 1, sizeof *r->warnings);
	for (i = 0; i < rr.nwarnings; i++)
		r->warnings[r->nwarnings++] = xstrdup(rr.warnings[i]);
	if (rr.user_msg != NULL)
		r->warnings[r->nwarnings++] = xstrdup(rr.user_msg);
	rest_submit_result_release(&rr);
	return NULL;
}

/* GET PATH (freed) and its records into LIST: accounting's (HISTORY), or
 * slurmctld's, only USER's when not NULL. */
static struct error *
rest_get_list(struct backend_ctx *ctx, char *path, const char *user,
    struct job_list *list, bool history)
{
	struct error	*err;
	struct buf	 answer;
	long		 status;

	err = rest_request(ctx, "GET", path, NULL, &status, &answer);
	free(path);
	if (err != NULL)
		return err;
	if (history)
		err = rest_parse_history(ctx->version, status, answer.data,
		    answer.len, list);
	else
		err = rest_parse_jobs(ctx->version, status, answer.data,
		    answer.len, user, list);
	buf_release(&answer);
	return err;
}

static struct error *
rest_status(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	return rest_get_list(ctx, rest_path_job(ctx->version, id), NULL, list,
	    false);
}

/*
 * slurmrestd's /slurmdb/ of the version the session speaks: 22.05's
 * openapi/dbv0.0.38 serves /slurmdb/v0.0.38 beside openapi/v0.0.38's
 * /slurm/v0.0.38, and openapi/slurmdbd every version openapi/slurmctld
 * does.
 */
static struct error *
rest_history(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	return rest_get_list(ctx, rest_path_db_job(ctx->version, id), NULL,
	    list, true);
}

static struct error *
rest_list(struct backend_ctx *ctx, struct job_list *list)
{
	return rest_get_list(ctx, rest_path_jobs(ctx->version), ctx->user,
	    list, false);
}

static struct error *
rest_cancel(struct backend_ctx *ctx, int64_t id)
{
	struct rest_job_status	 js;
	struct error		*err;
	struct buf		 answer;
	char			*path;
	long			 status;

	/*
	 * DELETE answers 200 for any job id in 22.05, and for a job that
	 * had ended up to v0.0.41 (openapi/v0.0.38/jobs.c counts
	 * ESLURM_ALREADY_DONE a success): ask first.
	 */
	path = rest_path_job(ctx->version, id);
	err = rest_request(ctx, "GET", path, NULL, &status, &answer);
	if (err == NULL) {
		err = rest_parse_job(ctx->version, id, status, answer.data,
		    answer.len, &js);
		if (err == NULL && js.finished)
			err = job_done_error(id, NULL);
		rest_job_status_release(&js);
		buf_release(&answer);
	}
	if (err != NULL) {
		free(path);
		return err;
	}
	err = rest_request(ctx, "DELETE", path, NULL, &status, &answer);
	free(path);
	if (err != NULL)
		return err;
	err = rest_parse_cancel(ctx->version, id, status, answer.data,
	    answer.len);
	buf_release(&answer);
	return err;
}

static struct error *
rest_find(struct backend_ctx *ctx, const char *name, int64_t *id)
{
	struct error	*err;
	struct buf	 answer;
	char		*path;
	long		 status;

	*id = 0;
	path = rest_path_jobs(ctx->version);
	err = rest_request(ctx, "GET", path, NULL, &status, &answer);
	free(path);
	if (err != NULL)
		return err;
	err = rest_parse_find(ctx->version, status, answer.data, answer.len,
	    name, ctx->user, id);
	buf_release(&answer);
	return err;
}

/* A node's host name: GET /slurm/vX/node/NAME.  A name that is not a
 * plain host name (hostlist.c's characters) is not asked. */
static struct error *
rest_node_host(struct backend_ctx *ctx, const char *node, char **host)
{
	struct error	*err;
	struct buf	 answer;
	char		*path;
	long		 status;

	*host = NULL;
	if (*node == '\0' || node[strspn(node, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")] != '\0')
		return NULL;
	path = rest_path_node(ctx->version, node);
	err = rest_request(ctx, "GET", path, NULL, &status, &answer);
	free(path);
	if (err != NULL)
		return err;
	err = rest_parse_node_host(ctx->version, status, answer.data,
	    answer.len, node, host);
	buf_release(&answer);
	return err;
}

/* GET WHAT (rest_path_site()) as JSON in *OUT. */
static struct error *
rest_get_site(struct backend_ctx *ctx, const char *what, json_t **out)
{
	struct error	*err;
	struct buf	 answer;
	char		*path;
	long		 status;

	path = rest_path_site(ctx->version, what);
	err = rest_request(ctx, "GET", path, NULL, &status, &answer);
	free(path);
	if (err != NULL)
		return err;
	err = rest_parse_site(ctx->version, status, answer.data, answer.len,
	    out);
	buf_release(&answer);
	return err;
}

/*
 * Partitions and nodes from slurmctld's paths; QoS and the user's
 * associations from slurmdbd's, which a slurmrestd without accounting
 * does not serve (404): those are then not known.
 */
static struct error *
rest_site(struct backend_ctx *ctx, struct site *site)
{
	struct error	*err;
	json_t		*parts = NULL, *nodes = NULL, *qos = NULL, *assoc;

	if ((err = rest_get_site(ctx, "partitions", &parts)) != NULL ||
	    (err = siteinfo_rest_partitions(site, parts)) != NULL ||
	    (err = rest_get_site(ctx, "nodes", &nodes)) != NULL ||
	    (err = siteinfo_rest_nodes(site, nodes)) != NULL)
		goto out;
	free(site->user);
	site->user = xstrdup(ctx->user);
	if ((err = rest_get_site(ctx, "qos", &qos)) != NULL) {
		/* No accounting: said, not an error. */
		free(site->no_accounting);
		site->no_accounting = xstrdup(err->msg);
		error_free(err);
		err = NULL;
		goto out;
	}
	if ((err = siteinfo_rest_qos(site, qos)) != NULL ||
	    (err = rest_get_site(ctx, "associations", &assoc)) != NULL)
		goto out;
	err = siteinfo_rest_assoc(site, assoc, qos, ctx->user);
	json_decref(assoc);
out:
	json_decref(parts);
	json_decref(nodes);
	json_decref(qos);
	return err;
}

/* What rest_submit() would send, the token redacted. */
static struct error *
rest_dry_run(const struct backend_opts *o, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    int64_t n, FILE *f)
{
	enum rest_version	 v = REST_V0_0_44;
	struct jobdesc_context	 c;
	struct jobdesc		 copy;
	char			*tres[2];
	struct error		*err;
	char			**env, *path, *text;
	json_t			*body;
	bool			 given = o->api_version != NULL &&
	    strcmp(o->api_version, "auto") != 0 &&
	    rest_version_parse(o->api_version, &v) == 0;

	(void)n;	/* each of a chain's is this, with its dependency */
	if (o->rest_url == NULL)
		return error_hint(error_new(EXIT_USAGE, "--via rest: no REST "
		    "URL"), "give --rest-url http(s)://HOST:PORT or "
		    "unix:/PATH, or rest_url in a cluster profile");
	c = *jc;
	c.release = given ? rest_release_serving(v) : 0;
	if ((err = jobdesc_check_release(d, c.release)) != NULL)
		return err;
	rest_with_opts(&copy, d, so, c.release, tres);
	env = jobdesc_env(&copy, &c, NULL);
	err = rest_submit_body(v, &copy, env, jc->cwd, &body);
	freev(env);
	free(tres[0]);
	free(tres[1]);
	if (err != NULL)
		return err;
	path = rest_path_submit(v);
	fprintf(f, "# API version %s%s\n", rest_version_name(v), given ? "" :
	    " (with --api-version auto the server's newest is used; this "
	    "shows the newest mbsbatch knows)");
	fprintf(f, "POST %s%s%s\n", o->rest_url,
	    strncmp(o->rest_url, "unix:", 5) == 0 ? " " : "", path);
	fprintf(f, "X-SLURM-USER-NAME: %s\n", o->user != NULL ? o->user :
	    "(the login name)");
	fprintf(f, "X-SLURM-USER-TOKEN: <redacted>\n");
	fprintf(f, "Content-Type: application/json\n\n");
	text = json_dumps(body, JSON_INDENT(2));
	fprintf(f, "%s\n", text);
	free(text);
	json_decref(body);
	free(path);
	return NULL;
}

static int
rest_release(struct backend_ctx *ctx)
{
	return ctx->release;
}

/*
 * No slurmrestd asks slurmctld whether a job would run.  v0.0.36-38
 * (Slurm 20.11-23.11) take a "test_only" key as sbatch's --test-only
 * option (22.05.8 openapi/v0.0.38/jobs.c:229), but their job/submit
 * then calls slurm_submit_batch_job() whatever it says (jobs.c:1344):
 * the job would be queued.  The data_parser versions (v0.0.39-44, to
 * 25.11.7) have no such key and no will-run endpoint.
 */
static struct error *
rest_will_run(struct backend_ctx *ctx, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    struct will_run *w)
{
	(void)d;
	(void)jc;
	(void)so;
	memset(w, 0, sizeof *w);
	if (ctx->release == 0)
		ctx->release = rest_server_release(ctx);
	return error_new(EXIT_FAILURE_OP, "submit --test-only: slurmrestd "
	    "of Slurm %d.%02d (API %s) cannot ask whether a job would run "
	    "without queueing it: use --via sbatch or --via native",
	    ctx->release / 100, ctx->release % 100,
	    rest_version_name(ctx->version));
}

const struct backend backend_rest = {
	.name = "rest",
	.open = rest_open,
	.submit = rest_submit,
	.will_run = rest_will_run,
	.status = rest_status,
	.history = rest_history,
	.list = rest_list,
	.cancel = rest_cancel,
	.find = rest_find,
	.release = rest_release,
	.node_host = rest_node_host,
	.site = rest_site,
	.close = rest_close,
	.dry_run = rest_dry_run,
};
