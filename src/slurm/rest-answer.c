/*
 * rest-answer.c: reading slurmrestd's answers.  What every reader starts
 * from (the body as JSON, a number in any of its shapes, slurmrestd's
 * errors made one message with its hint: rest-int.h), and the answers to
 * a job submit, a cancel, a ping and a node's query, the versions a
 * server offers and the release it runs (rest.h).  The job
 * records of slurmctld and accounting are read in rest-job.c.
 *
 * Answers are read by shape, not by version: a {set, infinite, number}
 * object where 22.05 had an integer, an array where it had a string.
 * slurmrestd's answers are not ours to be strict about, so duplicate keys
 * are not rejected (unlike our own input files).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "rest.h"
#include "rest-int.h"
#include "termtext.h"
#include "xmalloc.h"

static const char	 token_hint[] = "the token was refused: it may be "
    "wrong, expired, or not the --user's; get a new one with "
    "'scontrol token' (SLURM_JWT or --token-file)";
static const char	 headers_hint[] = "slurmrestd refused the request "
    "before reading it: it needs X-SLURM-USER-NAME and "
    "X-SLURM-USER-TOKEN (the token from SLURM_JWT or --token-file)";

/*
 * A number as slurmrestd writes it: an integer (22.05), a string of
 * digits, or {set, infinite, number} (v0.0.39 on).
 */
enum num_kind
rest_get_num(json_t *j, int64_t *out)
{
	json_t		*n;
	const char	*s;
	char		*end;
	long long	 ll;

	*out = 0;
	if (json_is_integer(j)) {
		*out = json_integer_value(j);
		return NUM_SET;
	}
	if (json_is_real(j)) {
		*out = (int64_t)json_real_value(j);
		return NUM_SET;
	}
	if (json_is_string(j)) {
		s = json_string_value(j);
		if (*s == '\0')
			return NUM_NONE;
		ll = strtoll(s, &end, 10);
		if (*end != '\0')
			return NUM_NONE;
		*out = ll;
		return NUM_SET;
	}
	if (json_is_object(j)) {
		if (json_is_true(json_object_get(j, "infinite")))
			return NUM_INFINITE;
		if (!json_is_true(json_object_get(j, "set")))
			return NUM_NONE;
		n = json_object_get(j, "number");
		if (json_is_integer(n)) {
			*out = json_integer_value(n);
			return NUM_SET;
		}
		if (json_is_real(n)) {
			*out = (int64_t)json_real_value(n);
			return NUM_SET;
		}
	}
	return NUM_NONE;
}

/* A new copy of OBJ[KEY] when it is a non-empty string, else NULL. */
char *
rest_get_str(json_t *obj, const char *key)
{
	const char	*s = json_string_value(json_object_get(obj, key));

	return s != NULL && *s != '\0' ? xstrdup(s) : NULL;
}

/* Append Slurm's text S: kept as written, without a trailing full stop. */
static void
add_text(struct buf *b, const char *s)
{
	size_t	 n = strlen(s);

	while (n > 0 && (s[n - 1] == '.' || s[n - 1] == ' ' ||
	    s[n - 1] == '\n'))
		n--;
	buf_add(b, s, n);
}

/* The Slurm error number of an error entry, or 0. */
static long
entry_code(json_t *e)
{
	static const char *const keys[] = { "error_number", "error_code",
	    "errno" };
	json_t	*c;
	size_t	 i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (json_is_integer(c = json_object_get(e, keys[i])))
			return (long)json_integer_value(c);
	return 0;
}

/*
 * One entry of "errors", in whichever form: {error, error_code} (22.05
 * submit), {description, error_number, error, source} (queries, and
 * everything from 23.11), {error, errno} (22.05 v0.0.36 ping),
 * {description, source} (22.05 parser).  "Batch job submission failed"
 * says nothing the caller does not know, and is left out.
 */
static void
add_entry(struct buf *b, json_t *e)
{
	const char	*err, *desc;
	long		 code;
	size_t		 start = b->len;

	if (json_is_string(e)) {
		add_text(b, json_string_value(e));
		return;
	}
	err = json_string_value(json_object_get(e, "error"));
	desc = json_string_value(json_object_get(e, "description"));
	if (err != NULL && *err == '\0')
		err = NULL;
	if (desc != NULL && (*desc == '\0' ||
	    strcmp(desc, "Batch job submission failed") == 0 ||
	    (err != NULL && strcmp(desc, err) == 0)))
		desc = NULL;
	if (err != NULL)
		add_text(b, err);
	if (desc != NULL) {
		if (err != NULL)
			buf_adds(b, ": ");
		add_text(b, desc);
	}
	if ((code = entry_code(e)) > 0) {
		if (b->len == start)
			buf_adds(b, "error");
		buf_addf(b, " (Slurm error %ld)", code);
	} else if (b->len == start)
		buf_adds(b, "unknown error");
}

/* Whether the "errors" list has an entry with Slurm error CODE. */
bool
rest_has_code(json_t *errors, long code)
{
	json_t	*e;
	size_t	 i;

	json_array_foreach(errors, i, e)
		if (json_is_object(e) && entry_code(e) == code)
			return true;
	return false;
}

/* The first line of a non-JSON body, made printable and short. */
static void
add_plain(struct buf *b, const char *body, size_t len)
{
	size_t	 i, n;
	char	*line;

	for (n = 0; n < len && n < 160 && body[n] != '\n' && body[n] != '\r';
	    n++)
		;
	line = xstrndup(body, n);
	for (i = 0; line[i] != '\0'; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	add_text(b, line);
	free(line);
}

/*
 * An answer as JSON, or NULL.  Slurm copies a job's name (any bytes)
 * into its JSON as it is (json-c's json_object_new_string(), from
 * src/plugins/serializer/json/serializer_json.c:225 in 22.05, :276 in
 * 25.11), so an answer listing a name that is not UTF-8 is not JSON:
 * each such byte is read as the text \xHH (termtext.h), the rest of the
 * answer as it is.
 */
json_t *
rest_load(const char *body, size_t len)
{
	json_error_t	 jerr;
	struct buf	 b;
	json_t		*root;

	if (body == NULL || len == 0)
		return NULL;
	if (termtext_utf8_valid(body, len) == len)
		return json_loadb(body, len, 0, &jerr);
	buf_init(&b);
	termtext_add_json_body(&b, body, len);
	root = json_loadb(b.data, b.len, 0, &jerr);
	buf_release(&b);
	return root;
}

/*
 * The error for an answer that is not what was asked for: slurmrestd's
 * own messages when it gave any, else the body's first line; the HTTP
 * status when that is all there is to go by.  Never NULL.
 */
struct error *
rest_answer_error(enum rest_version v, long status, json_t *root,
    const char *body, size_t len)
{
	struct error	*err;
	struct buf	 b;
	json_t		*errors = json_object_get(root, "errors"), *e;
	size_t		 i;
	bool		 auth = false, plain = false;

	buf_init(&b);
	buf_adds(&b, "slurmrestd: ");
	if (json_array_size(errors) > 0) {
		json_array_foreach(errors, i, e) {
			if (i > 0)
				buf_adds(&b, "; ");
			add_entry(&b, e);
		}
		auth = rest_has_code(errors, SLURM_E_AUTH) ||
		    rest_has_code(errors, SLURM_E_ZERO_BYTES);
	} else if (root != NULL) {
		buf_addf(&b, "HTTP %ld and no error message", status);
	} else if (body == NULL || len == 0) {
		buf_addf(&b, "empty answer (HTTP %ld)", status);
	} else {
		add_plain(&b, body, len);
		buf_addf(&b, " (HTTP %ld)", status);
		plain = true;
	}
	err = error_new(EXIT_FAILURE_OP, "%s", b.data);
	buf_release(&b);
	if (status == 401)
		error_hint(err, "%s", headers_hint);
	else if (auth || status == 511)
		error_hint(err, "%s", token_hint);
	else if (plain && status == 404)
		error_hint(err, "this slurmrestd does not serve API %s; "
		    "--api-version auto picks one it does",
		    rest_version_name(v));
	else if (plain && status == 400)
		error_hint(err, "slurmrestd could not read the request as "
		    "JSON (it needs Content-Type: application/json)");
	else if (rest_has_code(errors, SLURM_E_ENV_IO))
		error_hint(err, "slurmctld says this of a job sent without "
		    "an environment");
	return err;
}

bool
rest_http_ok(long status)
{
	return status >= 200 && status < 300;
}

struct error *
rest_no_such_job(int64_t job_id)
{
	return error_set_kind(error_new(EXIT_FAILURE_OP, "job %lld: no such "
	    "job", (long long)job_id), ERROR_NO_SUCH_JOB);
}

/* ---- submit ---- */

static void
add_warning(struct rest_submit_result *r, char *w)
{
	r->warnings = xreallocarray(r->warnings, r->nwarnings + 1,
	    sizeof *r->warnings);
	r->warnings[r->nwarnings++] = w;
}

/*
 * Drop repeats: 24.11 says a held job twice, as "Job submission resulted
 * in non-zero return code: X" and as "X"; keep "X", as 22.05 says it.
 */
static void
dedup_warnings(struct rest_submit_result *r)
{
	size_t	 i, j, k, n, m;
	bool	 drop;

	for (i = 0; i < r->nwarnings; ) {
		drop = false;
		n = strlen(r->warnings[i]);
		for (j = 0; j < r->nwarnings && !drop; j++) {
			if (j == i)
				continue;
			m = strlen(r->warnings[j]);
			if ((m == n && j < i && strcmp(r->warnings[i],
			    r->warnings[j]) == 0) ||
			    (n > m + 2 && strcmp(r->warnings[i] + n - m,
			    r->warnings[j]) == 0 &&
			    strncmp(r->warnings[i] + n - m - 2, ": ", 2) == 0))
				drop = true;
		}
		if (!drop) {
			i++;
			continue;
		}
		free(r->warnings[i]);
		for (k = i; k + 1 < r->nwarnings; k++)
			r->warnings[k] = r->warnings[k + 1];
		r->nwarnings--;
	}
}

/* A warning entry: {description, source} or {warning, ...}. */
static char *
warning_text(json_t *w)
{
	struct buf	 b;
	const char	*text, *source;

	if (json_is_string(w))
		return xstrdup(json_string_value(w));
	if ((text = json_string_value(json_object_get(w, "description")))
	    == NULL || *text == '\0')
		text = json_string_value(json_object_get(w, "warning"));
	if (text == NULL || *text == '\0')
		return NULL;
	buf_init(&b);
	add_text(&b, text);
	/* The parser's warnings name the field: "#/job/gpus_per_node". */
	source = json_string_value(json_object_get(w, "source"));
	if (source != NULL && strncmp(source, "#/", 2) == 0)
		buf_addf(&b, " (%s)", source);
	return buf_detach(&b);
}

/* The job id: top-level job_id, else result.job_id or step_id.job_id. */
static int64_t
submit_job_id(json_t *root)
{
	static const char *const where[] = { "result", "step_id" };
	int64_t	 id;
	size_t	 i;

	if (rest_get_num(json_object_get(root, "job_id"), &id) == NUM_SET &&
	    id > 0)
		return id;
	for (i = 0; i < sizeof where / sizeof where[0]; i++)
		if (rest_get_num(json_object_get(json_object_get(root,
		    where[i]), "job_id"), &id) == NUM_SET && id > 0)
			return id;
	return 0;
}

struct error *
rest_parse_submit(enum rest_version v, long status, const char *body,
    size_t len, struct rest_submit_result *r)
{
	struct error	*err;
	struct buf	 b;
	json_t		*root, *e, *result;
	const char	*rtext;
	size_t		 i;
	int64_t		 id = 0, code;
	bool		 seen;
	char		*w;

	memset(r, 0, sizeof *r);
	root = rest_load(body, len);
	if (rest_http_ok(status) && json_is_object(root))
		id = submit_job_id(root);
	if (id <= 0) {
		if (rest_http_ok(status) && json_is_object(root) &&
		    json_array_size(json_object_get(root, "errors")) == 0)
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: the "
			    "answer has no job id (HTTP %ld)", status);
		else
			err = rest_answer_error(v, status, root, body, len);
		json_decref(root);
		return err;
	}
	r->job_id = id;
	result = json_object_get(root, "result");
	if ((r->user_msg = rest_get_str(root, "job_submit_user_msg")) == NULL)
		r->user_msg = rest_get_str(result, "job_submit_user_msg");
	/* 22.05: held (2042) or waiting for down nodes (2068) in errors. */
	json_array_foreach(json_object_get(root, "errors"), i, e) {
		buf_init(&b);
		add_entry(&b, e);
		add_warning(r, buf_detach(&b));
	}
	json_array_foreach(json_object_get(root, "warnings"), i, e)
		if ((w = warning_text(e)) != NULL)
			add_warning(r, w);
	/* v0.0.40/41 repeat it in result; older servers may say it only
	 * there. */
	rtext = json_string_value(json_object_get(result, "error"));
	if (rest_get_num(json_object_get(result, "error_code"), &code) ==
	    NUM_SET && code != 0 && rtext != NULL) {
		seen = false;
		for (i = 0; i < r->nwarnings; i++)
			if (strstr(r->warnings[i], rtext) != NULL)
				seen = true;
		if (!seen) {
			buf_init(&b);
			add_text(&b, rtext);
			buf_addf(&b, " (Slurm error %lld)", (long long)code);
			add_warning(r, buf_detach(&b));
		}
	}
	dedup_warnings(r);
	json_decref(root);
	return NULL;
}

void
rest_submit_result_release(struct rest_submit_result *r)
{
	size_t	 i;

	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r->user_msg);
	memset(r, 0, sizeof *r);
}

/* ---- cancel ---- */

struct error *
rest_parse_cancel(enum rest_version v, int64_t job_id, long status,
    const char *body, size_t len)
{
	struct error	*err = NULL;
	struct buf	 b;
	json_t		*root, *e, *ee;
	const char	*text;
	int64_t		 code;
	size_t		 i;

	root = rest_load(body, len);
	if (rest_has_code(json_object_get(root, "errors"), SLURM_E_NO_JOB) ||
	    (status == 404 && json_is_object(root))) {
		json_decref(root);
		return rest_no_such_job(job_id);
	}
	if (!rest_http_ok(status) || !json_is_object(root) ||
	    json_array_size(json_object_get(root, "errors")) > 0) {
		err = rest_http_ok(status) && !json_is_object(root) ?
		    error_new(EXIT_FAILURE_OP, "slurmrestd: the cancel answer "
		    "is not JSON (HTTP %ld)", status) :
		    rest_answer_error(v, status, root, body, len);
		json_decref(root);
		return err;
	}
	/* v0.0.42 on: a status per job signalled, with its own error. */
	json_array_foreach(json_object_get(root, "status"), i, e) {
		ee = json_object_get(e, "error");
		if (rest_get_num(json_object_get(ee, "code"), &code) !=
		    NUM_SET || code == 0)
			continue;
		if (code == SLURM_E_NO_JOB) {
			err = rest_no_such_job(job_id);
			break;
		}
		if ((text = json_string_value(json_object_get(ee, "string")))
		    == NULL)
			text = json_string_value(json_object_get(ee,
			    "message"));
		if (code == SLURM_E_DONE) {
			err = job_done_error(job_id, text);
			break;
		}
		buf_init(&b);
		buf_adds(&b, "slurmrestd: ");
		add_text(&b, text != NULL ? text : "error");
		buf_addf(&b, " (Slurm error %lld)", (long long)code);
		err = error_new(EXIT_FAILURE_OP, "%s", b.data);
		buf_release(&b);
		break;
	}
	json_decref(root);
	return err;
}

/* ---- ping ---- */

struct error *
rest_parse_ping(enum rest_version v, long status, const char *body,
    size_t len)
{
	struct error	*err;
	struct buf	 down;
	json_t		*root, *pings, *p;
	const char	*state, *host;
	size_t		 i;

	root = rest_load(body, len);
	pings = json_object_get(root, "pings");
	if (!rest_http_ok(status) || json_array_size(pings) == 0) {
		if (rest_http_ok(status) && json_is_object(root) &&
		    json_array_size(json_object_get(root, "errors")) == 0)
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: the ping "
			    "answer lists no slurmctld");
		else
			err = rest_answer_error(v, status, root, body, len);
		if (err->hint == NULL)
			error_hint(err, "slurmrestd 22.05 answers a bad or "
			    "expired token this way too; check the token "
			    "(SLURM_JWT or --token-file)");
		json_decref(root);
		return err;
	}
	buf_init(&down);
	json_array_foreach(pings, i, p) {
		/* v0.0.36-38 "ping", v0.0.39 on "pinged". */
		if ((state = json_string_value(json_object_get(p, "pinged")))
		    == NULL)
			state = json_string_value(json_object_get(p, "ping"));
		if (state != NULL && strcmp(state, "UP") == 0) {
			buf_release(&down);
			json_decref(root);
			return NULL;
		}
		host = json_string_value(json_object_get(p, "hostname"));
		buf_addf(&down, "%s%s %s", down.len > 0 ? ", " : "",
		    host != NULL ? host : "?", state != NULL ? state : "?");
	}
	err = error_new(EXIT_FAILURE_OP, "slurmrestd: slurmctld not up (%s)",
	    down.data);
	error_hint(err, "slurmrestd 23.11 and later also answer DOWN when the "
	    "token is bad or expired; check the token (SLURM_JWT or "
	    "--token-file)");
	buf_release(&down);
	json_decref(root);
	return err;
}

/* ---- a node ---- */

/*
 * GET /slurm/vX/node/NAME: {"nodes": [{"name", "hostname", ...}]} in every
 * version.  A node slurmctld does not know: 22.05 answers HTTP 500 with
 * Slurm error 2018 ("Invalid node name specified") and no node, 25.11
 * HTTP 200 with "Failure to query node NAME" and no "nodes".
 */
struct error *
rest_parse_node_host(enum rest_version v, long status, const char *body,
    size_t len, const char *node, char **host)
{
	struct error	*err = NULL;
	json_t		*root, *nodes, *e;
	const char	*name;
	size_t		 i;

	*host = NULL;
	root = rest_load(body, len);
	nodes = json_object_get(root, "nodes");
	if (rest_http_ok(status) && json_is_object(root) &&
	    (nodes == NULL || json_is_array(nodes))) {
		json_array_foreach(nodes, i, e) {
			name = json_string_value(json_object_get(e, "name"));
			if (name != NULL && strcmp(name, node) == 0) {
				*host = rest_get_str(e, "hostname");
				break;
			}
		}
	} else if (json_array_size(nodes) != 0 ||
	    !rest_has_code(json_object_get(root, "errors"), SLURM_E_BAD_NODE))
		err = rest_answer_error(v, status, root, body, len);
	json_decref(root);
	return err;
}

/* Which version a server offers, from its OpenAPI document. */
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
	    other.data, rest_version_name(0),
	    rest_version_name(REST_NVERSIONS - 1));
	buf_release(&other);
	return err;
}

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
