/*
 * rest-submit.c: the POST job/submit body each slurmrestd API version
 * honours, built from the job description (rest_submit_body(); see
 * rest.h).
 *
 * The submit body of each version is one row of shapes[] below; the
 * sources of every choice are in tests/data/rest/SHAPES.md.  In short:
 *
 *   v0.0.36-38 (Slurm 20.11-23.11, parsed by slurm_opt.c as sbatch
 *   options): environment an object; top-level script; gpus_per_node
 *   "N"; exclusive "exclusive"; time_limit minutes or "UNLIMITED"; nodes
 *   N or "min-max"; signal "[B:]SIG@TIME"; "requeue" means requeue
 *   whatever its value, so --no-requeue is "no_requeue"; mail_type as
 *   sbatch takes it; v0.0.36 spells standard_out.
 *
 *   v0.0.39-44 (data_parser plugins): environment an array of "K=V";
 *   GPUs only as tres_per_node / tres_per_task (gpus_per_node is gone,
 *   and v0.0.40 on ignore it with a mere warning); shared ["none"] for
 *   exclusive nodes (exclusive was removed in Slurm 23.02.0, restored in
 *   23.02.2, and is ignored from v0.0.42 on); time_limit, memory_per_node and
 *   kill_warning_delay {set, infinite, number}; nodes a string;
 *   kill_warning_signal/_delay/_flags for --signal; requeue a boolean;
 *   mail_type an array of flags.  From v0.0.41 the script goes in
 *   job.script (the top-level one was deprecated in 41 and 42).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "jobdesc.h"
#include "rest.h"
#include "slurmopt.h"
#include "xmalloc.h"

/* How one version wants the job described (see the comment on top). */
struct shape {
	bool		 env_array;	/* else an object */
	bool		 script_in_job;	/* else top-level "script" */
	const char	*gres;		/* tres_per_* prefix, or gpus_per_* */
	bool		 structs;	/* {set, infinite, number} */
	bool		 shared;	/* shared ["none"], or exclusive */
	bool		 kill_warning;	/* kill_warning_*, or "signal" */
	bool		 mail_flags;	/* mail_type an array of flags */
	bool		 requeue_bool;	/* or requeue / no_requeue */
	bool		 nodes_string;	/* else N or "min-max" */
	const char	*stdout_key;
	bool		 argv;		/* "argv" taken (22.05's slurmrestd
					   dies on it, every version) */
	bool		 oom_kill_step;	/* has it: its default must be
					   sent (put_defaults()) */
};

static const struct shape shapes[REST_NVERSIONS] = {
	/* v0.0.36 */ { false, false, NULL, false, false, false, false,
	    false, false, "standard_out", false, false },
	/* v0.0.37 */ { false, false, NULL, false, false, false, false,
	    false, false, "standard_output", false, false },
	/* v0.0.38 */ { false, false, NULL, false, false, false, false,
	    false, false, "standard_output", false, false },
	/* v0.0.39 */ { true, false, "gres:", true, true, true, true,
	    true, true, "standard_output", false, false },
	/* v0.0.40 */ { true, false, "gres/", true, true, true, true,
	    true, true, "standard_output", true, false },
	/* v0.0.41 */ { true, true, "gres/", true, true, true, true,
	    true, true, "standard_output", true, false },
	/* v0.0.42 */ { true, true, "gres/", true, true, true, true,
	    true, true, "standard_output", true, true },
	/* v0.0.43 */ { true, true, "gres/", true, true, true, true,
	    true, true, "standard_output", true, true },
	/* v0.0.44 */ { true, true, "gres/", true, true, true, true,
	    true, true, "standard_output", true, true },
};

/* Limits of the job_desc_msg_t fields the values land in. */
#define MAX_U16		65533		/* below NO_VAL16, INFINITE16 */
#define MAX_U32		2147483646	/* also int in slurm_opt.c */

static struct error *
usage(enum rest_version v, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* "WHAT: REASON (REST API vX)", EXIT_USAGE. */
static struct error *
usage(enum rest_version v, const char *what, const char *fmt, ...)
{
	struct error	*err;
	va_list		 ap;
	char		*reason;

	va_start(ap, fmt);
	reason = xvasprintf(fmt, ap);
	va_end(ap);
	err = error_new(EXIT_USAGE, "%s: %s (slurmrestd API %s)", what,
	    reason, rest_version_name(v));
	free(reason);
	return err;
}

/* OBJ[KEY] = string S; JSON strings are UTF-8, so anything else fails. */
static struct error *
put_str(enum rest_version v, json_t *obj, const char *key, const char *s,
    const char *what)
{
	json_t	*j;

	if ((j = json_string(s)) == NULL)
		return usage(v, what, "not valid UTF-8, which JSON requires");
	json_object_set_new(obj, key, j);
	return NULL;
}

static void
put_int(json_t *obj, const char *key, int64_t n)
{
	json_object_set_new(obj, key, json_integer(n));
}

/* {set, infinite, number}, Slurm's *_NO_VAL structs. */
static json_t *
no_val(int64_t n)
{
	return json_pack("{sbsbsI}", "set", 1, "infinite", 0, "number",
	    (json_int_t)n);
}

static struct error *
check_range(enum rest_version v, const char *what, int64_t n, int64_t min,
    int64_t max)
{
	if (n < min)
		return usage(v, what, "%lld is too small (at least %lld)",
		    (long long)n, (long long)min);
	if (n > max)
		return usage(v, what, "%lld is more than Slurm can hold "
		    "(at most %lld)", (long long)n, (long long)max);
	return NULL;
}

/*
 * Signal SIG as slurmrestd of version V reads it (sig_name2num(): the
 * v0.0.38 "signal" through get_signal_opts(), data_parser's SIGNAL from
 * v0.0.40): the name its releases know ("USR1"), else the number ("17").
 */
static void
signal_name(enum rest_version v, int sig, char *buf, size_t len)
{
	const char	*name = slurmopt_signal_name(sig,
	    rest_release_serving(v));

	if (name != NULL)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%d", sig);
}

/*
 * --mail-type's bits as this version wants them: v0.0.39 on, an array of
 * Slurm's JOB_MAIL_FLAGS names; before, sbatch's own list, which
 * slurmrestd reads with sbatch's parser (NONE for none).
 */
static json_t *
mail_type(enum rest_version v, int mask)
{
	struct buf	 b;
	json_t		*arr;
	size_t		 i;

	if (shapes[v].mail_flags) {
		arr = json_array();
		for (i = 0; i < slurmopt_mail_ntypes; i++)
			if (mask & slurmopt_mail_types[i].bit)
				json_array_append_new(arr, json_string(
				    slurmopt_mail_types[i].rest));
		return arr;
	}
	buf_init(&b);
	for (i = 0; i < slurmopt_mail_ntypes; i++)
		if (mask & slurmopt_mail_types[i].bit)
			buf_addf(&b, "%s%s", b.len > 0 ? "," : "",
			    slurmopt_mail_types[i].sbatch);
	arr = json_string(b.len > 0 ? b.data : "NONE");
	buf_release(&b);
	return arr;
}

/*
 * The environment: an object (v0.0.36-38) or an array of "K=V".
 * SLURM_JWT is left out: it is the REST token, which must not travel in
 * the body (nor show in --dry-run), and with it srun in the job would try
 * auth/jwt, which it does not support.
 */
static struct error *
put_env(enum rest_version v, json_t *job, char *const *env)
{
	const struct shape	*sh = &shapes[v];
	json_t			*e, *s;
	const char		*eq;
	char			*name;
	size_t			 n = 0;

	e = sh->env_array ? json_array() : json_object();
	for (; env != NULL && *env != NULL; env++) {
		if ((eq = strchr(*env, '=')) == NULL || eq == *env) {
			struct error *err = usage(v, "environment",
			    "'%s' is not NAME=value", *env);
			json_decref(e);
			return err;
		}
		name = xstrndup(*env, (size_t)(eq - *env));
		if (strcmp(name, "SLURM_JWT") == 0) {
			free(name);
			continue;
		}
		s = json_string(sh->env_array ? *env : eq + 1);
		if (s == NULL) {
			struct error *err = usage(v, "environment",
			    "%s is not valid UTF-8, which JSON requires", name);
			free(name);
			json_decref(e);
			return err;
		}
		if (sh->env_array)
			json_array_append_new(e, s);
		else if (json_object_set_new(e, name, s) != 0) {
			struct error *err = usage(v, "environment",
			    "the name %s is not valid UTF-8", name);
			free(name);
			json_decref(e);
			return err;
		}
		free(name);
		n++;
	}
	if (n == 0) {
		json_decref(e);
		return usage(v, "environment", "empty; slurmctld refuses a "
		    "batch job without one (export at least one variable)");
	}
	json_object_set_new(job, "environment", e);
	return NULL;
}

/* The working directory: --chdir, resolved against CWD when relative. */
static struct error *
put_cwd(enum rest_version v, json_t *job, const struct jobdesc *jd,
    const char *cwd)
{
	struct error	*err;
	char		*dir;

	if (cwd == NULL || cwd[0] != '/')
		return usage(v, "working directory", "'%s' is not absolute",
		    cwd != NULL ? cwd : "");
	if (jd->chdir == NULL || jd->chdir[0] == '\0')
		dir = xstrdup(cwd);
	else if (jd->chdir[0] == '/')
		dir = xstrdup(jd->chdir);
	else
		dir = xasprintf("%s%s%s", cwd,
		    cwd[strlen(cwd) - 1] == '/' ? "" : "/", jd->chdir);
	err = put_str(v, job, "current_working_directory", dir, "--chdir");
	free(dir);
	return err;
}

static struct error *
put_nodes(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	struct error	*err;
	int64_t		 min = jd->nodes_min, max = jd->nodes_max;
	char		*s;

	/* Up to v0.0.38 slurmrestd works it out itself, as sbatch does. */
	if (min == 0 && jd->nodes_implied != 0 && shapes[v].structs) {
		put_int(job, "minimum_nodes", jd->nodes_implied);
		return NULL;
	}
	if (min == 0 && max == 0)
		return NULL;
	if (max == 0)
		max = min;
	if ((err = check_range(v, "--nodes", min, 1, MAX_U32)) != NULL ||
	    (err = check_range(v, "--nodes", max, min, MAX_U32)) != NULL)
		return err;
	if (min == max && !shapes[v].nodes_string) {
		put_int(job, "nodes", min);
		return NULL;
	}
	if (min == max)
		s = xasprintf("%lld", (long long)min);
	else
		s = xasprintf("%lld-%lld", (long long)min, (long long)max);
	json_object_set_new(job, "nodes", json_string(s));
	free(s);
	return NULL;
}

/*
 * GPUs per node or per task, of GRES type TYPE ("" for none): as TRES
 * ("gres:gpu:[TYPE:]N" / "gres/gpu:[TYPE:]N") from v0.0.39 on, before
 * that as sbatch's option reads them: gpus_per_node "[TYPE:]N" and gres
 * "gpu:[TYPE:]N", which v0.0.36-38 hand to slurm_opt.c (jobs.c's
 * job_params[], 22.05.8 openapi/v0.0.38/jobs.c:140,144: the
 * arg_set_data_gpus_per_node() and arg_set_data_gres() of the command
 * line options).
 */
static struct error *
put_gpu_count(enum rest_version v, json_t *job, int64_t count,
    const char *type, const char *option, const char *tres_key,
    const char *plain_key)
{
	const struct shape	*sh = &shapes[v];
	struct error		*err;
	char			*g, *s;

	if (count == 0)
		return NULL;
	if ((err = check_range(v, option, count, 1, MAX_U32)) != NULL)
		return err;
	g = jobdesc_gpus_text(type, count);
	if (sh->gres != NULL) {
		s = xasprintf("%sgpu:%s", sh->gres, g);
		json_object_set_new(job, tres_key, json_string(s));
	} else {
		s = xasprintf("%s%s", strcmp(plain_key, "gres") == 0 ?
		    "gpu:" : "", g);
		json_object_set_new(job, plain_key, json_string(s));
	}
	free(g);
	free(s);
	return NULL;
}

/* --gpus-per-node, --gres=gpu:N and --gpus-per-task. */
static struct error *
put_gpus(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	struct error	*err;
	char		*t;

	if (shapes[v].gres == NULL) {
		if ((err = put_gpu_count(v, job, jd->gpus_per_node,
		    jd->gpus_per_node_type, "--gpus-per-node", NULL,
		    "gpus_per_node")) != NULL ||
		    (err = put_gpu_count(v, job, jd->gres_gpus,
		    jd->gres_gpu_type, "--gres", NULL, "gres")) != NULL)
			return err;
		return put_gpu_count(v, job, jd->gpus_per_task, "",
		    "--gpus-per-task", NULL, "gpus_per_task");
	}
	if ((err = check_range(v, "--gpus-per-node", jd->gpus_per_node, 0,
	    MAX_U32)) != NULL || (err = check_range(v, "--gres",
	    jd->gres_gpus, 0, MAX_U32)) != NULL)
		return err;
	/* Both in one tres_per_node, as sbatch sends them. */
	if ((t = jobdesc_tres_per_node(jd, shapes[v].gres)) != NULL)
		json_object_set_new(job, "tres_per_node", json_string(t));
	free(t);
	/* The back end's strings, sbatch's for the server's release. */
	if (jd->tres_bind != NULL)
		json_object_set_new(job, "tres_bind",
		    json_string(jd->tres_bind));
	if (jd->tres_per_task != NULL) {
		json_object_set_new(job, "tres_per_task",
		    json_string(jd->tres_per_task));
		return NULL;
	}
	return put_gpu_count(v, job, jd->gpus_per_task, "", "--gpus-per-task",
	    "tres_per_task", NULL);
}

static struct error *
put_time(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	struct error	*err;
	bool		 unlimited;

	/* sbatch: "A time limit of zero requests that no time limit be
	 * imposed". */
	unlimited = jd->time_unlimited || jd->time_minutes == 0;
	if (!unlimited && jd->time_minutes < 0) {
		if (jd->time_minutes == -1)
			return NULL;
		return check_range(v, "--time", jd->time_minutes, 0, MAX_U32);
	}
	if (!unlimited && (err = check_range(v, "--time", jd->time_minutes,
	    1, MAX_U32)) != NULL)
		return err;
	if (shapes[v].structs) {
		if (unlimited)
			json_object_set_new(job, "time_limit",
			    json_pack("{sbsb}", "set", 1, "infinite", 1));
		else
			json_object_set_new(job, "time_limit",
			    no_val(jd->time_minutes));
	} else if (unlimited)
		json_object_set_new(job, "time_limit",
		    json_string("UNLIMITED"));
	else
		put_int(job, "time_limit", jd->time_minutes);
	return NULL;
}

static struct error *
put_signal(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	struct error	*err;
	char		 name[16], *s;

	if (jd->signal_num == 0)
		return NULL;
	/* get_signal_opts() takes 0 to 0xffff seconds. */
	if ((err = check_range(v, "--signal", jd->signal_num, 1, 127))
	    != NULL || (err = check_range(v, "--signal time",
	    jd->signal_time, 0, 65535)) != NULL)
		return err;
	/*
	 * Up to 22.05 slurmrestd reads "signal" with sbatch's own parser,
	 * which takes "B:" only in a process called sbatch
	 * (get_signal_opts(), run_in_daemon()): Slurm would refuse the job
	 * with "Invalid SIGNAL specification".
	 */
	if (jd->signal_batch && v <= REST_V0_0_38) {
		err = usage(v, "--signal", "B: (to the batch shell, as "
		    "--requeue sends it) is refused by this slurmrestd, which "
		    "takes it only from sbatch");
		error_hint(err, "submit with --via sbatch or --via native, or "
		    "through slurmrestd 23.02 or later");
		return err;
	}
	signal_name(v, jd->signal_num, name, sizeof name);
	if (!shapes[v].kill_warning) {
		s = xasprintf("%s%s@%d", jd->signal_batch ? "B:" : "", name,
		    jd->signal_time);
		json_object_set_new(job, "signal", json_string(s));
		free(s);
		return NULL;
	}
	json_object_set_new(job, "kill_warning_signal", json_string(name));
	json_object_set_new(job, "kill_warning_delay",
	    no_val(jd->signal_time));
	if (jd->signal_batch)
		json_object_set_new(job, "kill_warning_flags",
		    json_pack("[s]", "BATCH_JOB"));
	return NULL;
}

/* The plain string fields, each under the same key in every version:
 * the #SBATCH options with a REST key (slurmopt_table). */
static struct error *
put_strings(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	const struct slurmopt_def	*r;
	struct error			*err;
	const char			*value;
	char				 what[64];
	size_t				 i;

	for (i = 0; i < slurmopt_table_size; i++) {
		r = &slurmopt_table[i];
		if (r->kind != SK_STRING || r->rest_key == NULL)
			continue;
		value = *(const char **)slurmopt_field(r, jd);
		if (value == NULL)
			continue;
		snprintf(what, sizeof what, "--%s", r->name);
		if (value[0] == '\0')
			return usage(v, what, "empty value");
		if ((err = put_str(v, job, r->rest_key, value, what)) != NULL)
			return err;
	}
	return NULL;
}

/*
 * The options of slurmopt-carried.h: each under its key in this version,
 * or refused, naming the first version that has one.  The values are
 * those sbatch puts in the job description; "nice" the number given
 * (v0.0.36-38: arg_set_data_nice(), which takes less than
 * NICE_OFFSET - 3, 22.05.8 src/common/slurm_opt.c:2838; v0.0.39 on:
 * the data_parser's NICE, NICE_OFFSET + it).
 */
static const struct carried {
	const char		*option;
	enum slurmopt_kind	 kind;
	size_t			 field;
	const char		*key[3];	/* v0.0.36-37, 38, 39 on */
} carried[] = {
#define SLURMOPT_CARRIED(option, shortopt, arg, kind, ctype, member, check, \
    native, key36, key38, key39) \
	{ option, kind, offsetof(struct jobdesc, member), \
	  { key36, key38, key39 } },
#include "slurmopt-carried.h"
};

static const char *
carried_key(const struct carried *c, enum rest_version v)
{
	return c->key[v <= REST_V0_0_37 ? 0 : v == REST_V0_0_38 ? 1 : 2];
}

/*
 * --batch through v0.0.36-38: up to Slurm 22.05.8 and 23.02.1 their
 * _fill_job_desc_from_opts() hands sbatch's string to the job without a
 * copy and both are freed (22.05.8 src/plugins/openapi/v0.0.38/
 * jobs.c:329, v0.0.36 :346, v0.0.37 :327; fixed by 49222c0719 "avoid
 * double free of batch_features", 22.05.9 and 23.02.2): on the test
 * cluster (22.05.8) slurmrestd dies, or slurmctld first gets freed
 * memory ("Job --batch option is invalid or not a subset of
 * --constraints").  A server's answer names no patch level we read, so
 * these versions are not trusted with it.
 */
static struct error *
check_batch(enum rest_version v, const struct jobdesc *jd)
{
	if (jd->batch_features == NULL || v > REST_V0_0_38)
		return NULL;
	return error_hint(error_new(EXIT_USAGE, "--batch: slurmrestd's %s "
	    "API frees it twice up to Slurm 22.05.8 and 23.02.1, which kills "
	    "slurmrestd (safe from v0.0.39)", rest_version_name(v)),
	    "submit with --via sbatch or --via native, or through API "
	    "v0.0.39");
}

static struct error *
put_carried(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	const struct carried	*c;
	const char		*key, *s;
	struct error		*err;
	char			 what[64];
	int64_t			 n;
	int			 w;

	if ((err = check_batch(v, jd)) != NULL)
		return err;
	for (c = carried; c < carried + sizeof carried / sizeof carried[0];
	    c++) {
		s = c->kind == SK_STRING ? *(char *const *)(const void *)
		    ((const char *)jd + c->field) : NULL;
		n = c->kind == SK_NICE ? *(const int64_t *)(const void *)
		    ((const char *)jd + c->field) : 0;
		if (s == NULL && n == 0)
			continue;
		snprintf(what, sizeof what, "--%s", c->option);
		if ((key = carried_key(c, v)) == NULL) {
			for (w = v + 1; w < REST_NVERSIONS &&
			    carried_key(c, w) == NULL; w++)
				continue;
			err = error_new(EXIT_USAGE, "%s: not in slurmrestd's "
			    "%s API (from %s)", what, rest_version_name(v),
			    rest_version_name(w));
			return error_hint(err, "submit with --via sbatch or "
			    "--via native, or through API %s",
			    rest_version_name(w));
		}
		if (s != NULL) {
			if (s[0] == '\0')
				return usage(v, what, "empty value");
			if ((err = put_str(v, job, key, s, what)) != NULL)
				return err;
			continue;
		}
		if ((err = check_range(v, what, n, -2147483645 +
		    (v <= REST_V0_0_38), 2147483645 - (v <= REST_V0_0_38)))
		    != NULL)
			return err;
		put_int(job, key, n);
	}
	return NULL;
}

/*
 * --exclude and --nodelist, whose keys changed.  Up to v0.0.38
 * slurmrestd reads sbatch's options by its own names: "exclude_nodes"
 * (-x) and "nodelist" (-w), though the OpenAPI document lists neither
 * ("excluded_nodes" is there, disabled: slurm-22-05-8-1
 * src/plugins/openapi/v0.0.38/jobs.c:130-131,178; v0.0.36 and v0.0.37
 * alike).  From v0.0.39 the data_parser's "excluded_nodes" and
 * "required_nodes", a comma-delimited list that takes a list of strings
 * (joined with ',') or one string: CSV_LIST in slurm-23-02-8-1
 * v0.0.39/parsers.c:6005,6043; CSV_STRING in slurm-24-11-7-1
 * v0.0.41/parsers.c:3526,8566,8605 (v0.0.40 and v0.0.42 alike), and in
 * v0.0.43 and v0.0.44.  The value goes whole as the list's one string,
 * so that a range such as gpu[01,03] is not split at its comma.
 */
static struct error *
put_nodelists(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	const struct {
		const char	*value, *option, *old_key, *new_key;
	} l[] = {
		{ jd->exclude, "--exclude", "exclude_nodes", "excluded_nodes" },
		{ jd->nodelist, "--nodelist", "nodelist", "required_nodes" },
	};
	struct error	*err;
	json_t		*s;
	size_t		 i;

	for (i = 0; i < sizeof l / sizeof l[0]; i++) {
		if (l[i].value == NULL)
			continue;
		if (l[i].value[0] == '\0')
			return usage(v, l[i].option, "empty value");
		if (!shapes[v].structs) {
			if ((err = put_str(v, job, l[i].old_key, l[i].value,
			    l[i].option)) != NULL)
				return err;
			continue;
		}
		if ((s = json_string(l[i].value)) == NULL)
			return usage(v, l[i].option, "not valid UTF-8, which "
			    "JSON requires");
		json_object_set_new(job, l[i].new_key, json_pack("[o]", s));
	}
	return NULL;
}

/*
 * The task and CPU counts.  From v0.0.39 the CPUs sbatch puts in the job
 * (jobdesc_counts()) are sent as they are.  Up to v0.0.38 slurmrestd
 * makes them with sbatch's slurm_opt_create_job_desc() but without its
 * _opt_verify(), whose one task a node on a fixed node count (no
 * --ntasks, no --ntasks-per-node) it has no key for: such a job would
 * ask for one CPU where sbatch's asks for one a node.
 */
static struct error *
put_counts(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	struct jobdesc_counts	 c;
	struct error		*err;

	jobdesc_counts(jd, &c);
	if (!shapes[v].structs && jd->ntasks == 0 && jd->ntasks_per_node == 0 &&
	    jd->nodes_min > 1 && (jd->nodes_max == 0 ||
	    jd->nodes_min == jd->nodes_max)) {
		err = usage(v, "--nodes", "%lld nodes without --ntasks or "
		    "--ntasks-per-node: sbatch asks for %lld CPUs (a task a "
		    "node), which this slurmrestd cannot be told",
		    (long long)jd->nodes_min, (long long)c.min_cpus);
		return error_hint(err, "add --ntasks-per-node, or submit with "
		    "--via sbatch or --via native, or through slurmrestd "
		    "23.02 or later (API v0.0.39 on)");
	}
	if (jd->ntasks != 0) {
		if ((err = check_range(v, "--ntasks", jd->ntasks, 1, MAX_U32))
		    != NULL)
			return err;
		put_int(job, "tasks", jd->ntasks);
	}
	if (jd->ntasks_per_node != 0) {
		if ((err = check_range(v, "--ntasks-per-node",
		    jd->ntasks_per_node, 1, MAX_U16)) != NULL)
			return err;
		put_int(job, "tasks_per_node", jd->ntasks_per_node);
	}
	if (jd->cpus_per_task != 0) {
		if ((err = check_range(v, "--cpus-per-task",
		    jd->cpus_per_task, 1, MAX_U16)) != NULL)
			return err;
		put_int(job, "cpus_per_task", jd->cpus_per_task);
	}
	if (shapes[v].structs) {
		if ((err = check_range(v, "CPUs", c.min_cpus, 1, MAX_U32)) !=
		    NULL)
			return err;
		put_int(job, "minimum_cpus", c.min_cpus);
	}
	if (c.pn_min_cpus != 0)
		put_int(job, "minimum_cpus_per_node", c.pn_min_cpus);
	if (jd->mem_mb != -1) {
		if ((err = check_range(v, "--mem", jd->mem_mb, 0,
		    INT64_MAX / 2)) != NULL)
			return err;
		if (shapes[v].structs)
			json_object_set_new(job, "memory_per_node",
			    no_val(jd->mem_mb));
		else
			put_int(job, "memory_per_node", jd->mem_mb);
	}
	return NULL;
}

static struct error *
put_flags(enum rest_version v, json_t *job, const struct jobdesc *jd)
{
	const struct shape	*sh = &shapes[v];

	if (jd->exclusive) {
		if (sh->shared)
			json_object_set_new(job, "shared",
			    json_pack("[s]", "none"));
		else
			json_object_set_new(job, "exclusive",
			    json_string("exclusive"));
	}
	switch (jd->requeue) {
	case -1:
		break;
	case 0:
		if (sh->requeue_bool)
			json_object_set_new(job, "requeue", json_false());
		else
			json_object_set_new(job, "no_requeue", json_true());
		break;
	case 1:
		json_object_set_new(job, "requeue", json_true());
		break;
	default:
		return usage(v, "--requeue", "unexpected value %d",
		    jd->requeue);
	}
	if (jd->hold)
		json_object_set_new(job, "hold", json_true());
	/* slurm_opt.c's option up to v0.0.38; a bit of the job's flags
	 * (JOB_FLAGS, KILL_INV_DEP) from v0.0.39 on. */
	if (jd->kill_invalid_dep) {
		if (sh->structs)
			json_object_set_new(job, "flags", json_pack("[s]",
			    "KILL_INVALID_DEPENDENCY"));
		else
			json_object_set_new(job, "kill_on_invalid_dependency",
			    json_true());
	}
	if (jd->open_mode != 0) {
		/* A string before v0.0.39, an array of flags from it. */
		bool	 append = jd->open_mode == 1;

		if (sh->structs)
			json_object_set_new(job, "open_mode", json_pack("[s]",
			    append ? "APPEND" : "TRUNCATE"));
		else
			json_object_set_new(job, "open_mode", json_string(
			    append ? "append" : "truncate"));
	}
	if (jd->mail_type != -1)
		json_object_set_new(job, "mail_type", mail_type(v,
		    jd->mail_type));
	return NULL;
}

/*
 * What sbatch leaves to Slurm that slurmrestd's job would not: the
 * data_parser versions start the job from slurm_init_job_desc_msg(),
 * which leaves oom_kill_step 0 ("never"), where sbatch sends NO_VAL16
 * (slurm_opt.c), which has slurmctld take the site's TaskPluginParam
 * (job_scheduler.c).  UINT16's parser takes the number as it is.
 * v0.0.41 (24.05 to 25.11) has no such key: the job gets 0 (submit(1)).
 */
static void
put_defaults(enum rest_version v, json_t *job)
{
	if (shapes[v].oom_kill_step)
		put_int(job, "oom_kill_step", 65534);	/* NO_VAL16 */
}

struct error *
rest_submit_body(enum rest_version v, const struct jobdesc *jd,
    char *const *env, const char *cwd, json_t **out)
{
	const struct shape	*sh;
	struct error		*err = NULL;
	json_t			*root = NULL, *job = NULL, *argv0;

	*out = NULL;
	if ((unsigned)v >= REST_NVERSIONS)
		return error_new(EXIT_USAGE, "slurmrestd API %d: unknown "
		    "version", (int)v);
	sh = &shapes[v];
	if (jd->script == NULL || jd->script[0] == '\0')
		return usage(v, "job script", "empty");
	/* sbatch refuses it; slurmrestd takes it and the job fails. */
	if (strncmp(jd->script, "#!", 2) != 0)
		return usage(v, "job script", "the first line must start "
		    "with #! and the interpreter");

	root = json_object();
	job = json_object();
	if ((err = put_str(v, sh->script_in_job ? job : root, "script",
	    jd->script, "job script")) != NULL)
		goto fail;
	if ((err = put_strings(v, job, jd)) != NULL ||
	    (err = put_carried(v, job, jd)) != NULL ||
	    (err = put_nodelists(v, job, jd)) != NULL ||
	    (err = put_nodes(v, job, jd)) != NULL ||
	    (err = put_counts(v, job, jd)) != NULL ||
	    (err = put_gpus(v, job, jd)) != NULL ||
	    (err = put_time(v, job, jd)) != NULL ||
	    (err = put_flags(v, job, jd)) != NULL ||
	    (err = put_signal(v, job, jd)) != NULL ||
	    (err = put_cwd(v, job, jd, cwd)) != NULL)
		goto fail;
	if (jd->output != NULL && (err = put_str(v, job, sh->stdout_key,
	    jd->output, "--output")) != NULL)
		goto fail;
	if (jd->error != NULL && (err = put_str(v, job, "standard_error",
	    jd->error, "--error")) != NULL)
		goto fail;
	if ((err = put_env(v, job, env)) != NULL)
		goto fail;
	put_defaults(v, job);
	/* sbatch FILE: the script's path (scontrol's Command=). */
	if (jd->argv0 != NULL && sh->argv) {
		if ((argv0 = json_string(jd->argv0)) == NULL) {
			err = usage(v, "script path", "not valid UTF-8, which "
			    "JSON requires");
			goto fail;
		}
		json_object_set_new(job, "argv", json_pack("[o]", argv0));
	}
	json_object_set_new(root, "job", job);
	*out = root;
	return NULL;
fail:
	json_decref(job);
	json_decref(root);
	return err;
}
