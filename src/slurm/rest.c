/*
 * rest.c: the slurmrestd protocol without the network; see rest.h.
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
 *
 * Answers are read by shape, not by version: a {set, infinite, number}
 * object where 22.05 had an integer, an array where it had a string.
 * slurmrestd's answers are not ours to be strict about, so duplicate keys
 * are not rejected (unlike our own input files).
 */
#include <sys/wait.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobdesc.h"
#include "jobref.h"
#include "rest.h"
#include "slurmopt.h"
#include "termtext.h"
#include "xmalloc.h"

static const char *const version_names[REST_NVERSIONS] = {
	"v0.0.36", "v0.0.37", "v0.0.38", "v0.0.39", "v0.0.40",
	"v0.0.41", "v0.0.42", "v0.0.43", "v0.0.44",
};

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

/* Slurm error numbers this module treats specially. */
#define SLURM_E_AUTH		1007	/* Protocol authentication */
#define SLURM_E_NO_JOB		2017	/* Invalid job id specified */
#define SLURM_E_BAD_NODE	2018	/* Invalid node name specified */
#define SLURM_E_ENV_IO		2019	/* 23.11 on: no environment */
#define SLURM_E_DONE		2021	/* Job already completing */
#define SLURM_E_ZERO_BYTES	5005	/* 22.05: how a bad token shows */

/* Limits of the job_desc_msg_t fields the values land in. */
#define MAX_U16		65533		/* below NO_VAL16, INFINITE16 */
#define MAX_U32		2147483646	/* also int in slurm_opt.c */

static const char	 token_hint[] = "the token was refused: it may be "
    "wrong, expired, or not the --user's; get a new one with "
    "'scontrol token' (SLURM_JWT or --token-file)";
static const char	 headers_hint[] = "slurmrestd refused the request "
    "before reading it: it needs X-SLURM-USER-NAME and "
    "X-SLURM-USER-TOKEN (the token from SLURM_JWT or --token-file)";

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

/* ------------------------------------------------------------------ */
/* The submit body                                                     */
/* ------------------------------------------------------------------ */

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

/* GPUs per node or per task: as TRES ("gres:gpu:N" / "gres/gpu:N") from
 * v0.0.39 on, before that as the plain count. */
static struct error *
put_gpu_count(enum rest_version v, json_t *job, int64_t count,
    const char *option, const char *tres_key, const char *plain_key)
{
	const struct shape	*sh = &shapes[v];
	struct error		*err;
	char			*s;

	if (count == 0)
		return NULL;
	if ((err = check_range(v, option, count, 1, MAX_U32)) != NULL)
		return err;
	if (sh->gres != NULL) {
		s = xasprintf("%sgpu:%lld", sh->gres, (long long)count);
		json_object_set_new(job, tres_key, json_string(s));
	} else {
		s = xasprintf("%s%lld", strcmp(plain_key, "gres") == 0 ?
		    "gpu:" : "", (long long)count);
		json_object_set_new(job, plain_key, json_string(s));
	}
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
		    "--gpus-per-node", NULL, "gpus_per_node")) != NULL ||
		    (err = put_gpu_count(v, job, jd->gres_gpus, "--gres",
		    NULL, "gres")) != NULL)
			return err;
		return put_gpu_count(v, job, jd->gpus_per_task,
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
	return put_gpu_count(v, job, jd->gpus_per_task, "--gpus-per-task",
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

/* ------------------------------------------------------------------ */
/* Reading answers                                                     */
/* ------------------------------------------------------------------ */

enum num_kind { NUM_NONE, NUM_SET, NUM_INFINITE };

/*
 * A number as slurmrestd writes it: an integer (22.05), a string of
 * digits, or {set, infinite, number} (v0.0.39 on).
 */
static enum num_kind
get_num(json_t *j, int64_t *out)
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
static char *
get_str(json_t *obj, const char *key)
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
static bool
has_code(json_t *errors, long code)
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
static json_t *
load(const char *body, size_t len)
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
static struct error *
answer_error(enum rest_version v, long status, json_t *root,
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
		auth = has_code(errors, SLURM_E_AUTH) ||
		    has_code(errors, SLURM_E_ZERO_BYTES);
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
	else if (has_code(errors, SLURM_E_ENV_IO))
		error_hint(err, "slurmctld says this of a job sent without "
		    "an environment");
	return err;
}

static bool
http_ok(long status)
{
	return status >= 200 && status < 300;
}

static struct error *
no_such_job(int64_t job_id)
{
	return error_set_kind(error_new(EXIT_FAILURE_OP, "job %lld: no such "
	    "job", (long long)job_id), ERROR_NO_SUCH_JOB);
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

	root = load(body, len);
	if (!http_ok(status) || !json_is_object(root)) {
		if (http_ok(status))
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: the "
			    "OpenAPI document (%s) is not JSON",
			    REST_PATH_OPENAPI);
		else
			err = answer_error(REST_V0_0_36, status, root, body,
			    len);
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
	json_t	*root = load(body, len), *meta, *sl;
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

	if (get_num(json_object_get(root, "job_id"), &id) == NUM_SET &&
	    id > 0)
		return id;
	for (i = 0; i < sizeof where / sizeof where[0]; i++)
		if (get_num(json_object_get(json_object_get(root, where[i]),
		    "job_id"), &id) == NUM_SET && id > 0)
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
	root = load(body, len);
	if (http_ok(status) && json_is_object(root))
		id = submit_job_id(root);
	if (id <= 0) {
		if (http_ok(status) && json_is_object(root) &&
		    json_array_size(json_object_get(root, "errors")) == 0)
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: the "
			    "answer has no job id (HTTP %ld)", status);
		else
			err = answer_error(v, status, root, body, len);
		json_decref(root);
		return err;
	}
	r->job_id = id;
	result = json_object_get(root, "result");
	if ((r->user_msg = get_str(root, "job_submit_user_msg")) == NULL)
		r->user_msg = get_str(result, "job_submit_user_msg");
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
	if (get_num(json_object_get(result, "error_code"), &code) ==
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

/* ---- job status ---- */

static const char *const base_states[] = {
	"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED",
	"FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
	"DEADLINE", "OUT_OF_MEMORY",
};

static bool
is_base_state(const char *s)
{
	size_t	 i;

	for (i = 0; i < sizeof base_states / sizeof base_states[0]; i++)
		if (strcmp(s, base_states[i]) == 0)
			return true;
	return false;
}

/* Whether the job is over: a base state past RUNNING and SUSPENDED. */
static bool
has_ended(const char *state)
{
	return is_base_state(state) && strcmp(state, "PENDING") != 0 &&
	    strcmp(state, "RUNNING") != 0 && strcmp(state, "SUSPENDED") != 0;
}

static struct error *
set_state(struct job_status *s, const char *name)
{
	if (strlen(name) >= sizeof s->state)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: job state "
		    "'%.40s...' is too long", name);
	snprintf(s->state, sizeof s->state, "%s", name);
	return NULL;
}

/* Is NAME in the list JS (of JSON strings)? */
static bool
has_name(json_t *js, const char *name)
{
	json_t		*e;
	const char	*n;
	size_t		 i;

	json_array_foreach(js, i, e)
		if ((n = json_string_value(e)) != NULL && strcmp(n, name) == 0)
			return true;
	return false;
}

/*
 * job_state (slurmctld) or state.current (accounting): a string (22.05:
 * Slurm's job_state_string() already) or a list (v0.0.40 on: the base
 * state and its flags, in any order), named as job_state_string() names
 * it, its first flag in job_state_flag_names[]'s order else its base
 * (a job finishing its epilog is COMPLETING, as scontrol says).  *ENDED:
 * has the base state ended (past RUNNING and SUSPENDED: slurmctld's
 * IS_JOB_FINISHED); a 22.05 string naming a flag says no base: false.
 * The other names go to *FLAGS when FLAGS is not NULL.
 */
static struct error *
read_state(struct job_status *s, char **flags, bool *ended, json_t *js)
{
	struct buf	 b;
	struct error	*err = NULL;
	json_t		*e;
	const char	*name, *base = NULL, *shown = NULL;
	size_t		 i;

	*ended = false;
	if (json_is_string(js)) {
		*ended = has_ended(json_string_value(js));
		return set_state(s, json_string_value(js));
	}
	if (!json_is_array(js) || json_array_size(js) == 0)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: the job has no "
		    "job_state");
	json_array_foreach(js, i, e)
		if ((name = json_string_value(e)) != NULL && base == NULL &&
		    is_base_state(name))
			base = name;
	for (i = 0; job_state_flag_names[i] != NULL && shown == NULL; i++)
		if (has_name(js, job_state_flag_names[i]))
			shown = job_state_flag_names[i];
	if (base == NULL && shown == NULL)
		base = json_string_value(json_array_get(js, 0));
	if (base == NULL && shown == NULL)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: job_state is "
		    "not a list of names");
	*ended = base != NULL && has_ended(base);
	if (shown == NULL)
		shown = base;
	if ((err = set_state(s, shown)) != NULL || flags == NULL)
		return err;
	buf_init(&b);
	json_array_foreach(js, i, e)
		if ((name = json_string_value(e)) != NULL &&
		    strcmp(name, shown) != 0)
			buf_addf(&b, "%s%s", b.len > 0 ? "," : "", name);
	*flags = b.len > 0 ? buf_detach(&b) : NULL;
	buf_release(&b);
	return NULL;
}

/*
 * exit_code: the raw wait status as an integer (22.05 slurmctld) or as
 * {set, number} (v0.0.39), or {status, return_code, signal: {id, name}}
 * (v0.0.40 on; 22.05's accounting: signal {signal_id, name}).
 */
static bool
read_exit(struct job_status *s, json_t *ec)
{
	json_t	*sig;
	int64_t	 raw, n;
	bool	 known = false;

	if (json_is_object(ec) && (json_object_get(ec, "return_code") != NULL
	    || json_object_get(ec, "signal") != NULL)) {
		if (get_num(json_object_get(ec, "return_code"), &n) ==
		    NUM_SET) {
			s->exit_code = (int)n;
			known = true;
		}
		sig = json_object_get(ec, "signal");
		if (get_num(json_object_get(sig, "id"), &n) == NUM_SET ||
		    get_num(json_object_get(sig, "signal_id"), &n) ==
		    NUM_SET) {
			s->exit_signal = (int)n;
			known = true;
		}
		return known;
	}
	if (get_num(ec, &raw) != NUM_SET)
		return false;
	/* As scontrol and sacct print it, CODE:SIGNAL: one of the two
	 * (src/scontrol/info_job.c, src/sacct/print.c). */
	s->exit_code = WIFEXITED((int)raw) ? WEXITSTATUS((int)raw) : 0;
	s->exit_signal = WIFSIGNALED((int)raw) ? WTERMSIG((int)raw) : 0;
	return true;
}

/*
 * An array's tasks as Slurm lists them, "2-9" or "2-9%2", from TEXT
 * (slurmctld's array_task_string, already "2-9%2"; accounting's
 * array.task, which 22.05 gives as a hex bitmap, "0x3FC") and LIMIT (its
 * %N, accounting's array.limits.max.running.tasks; 0: none); NULL when
 * TEXT names none.  A bitmap is Slurm's bit_fmt_hexmask(): bit 0 the
 * lowest bit of the last digit.
 */
static char *
tasks_text(const char *text, int64_t limit)
{
	struct buf	 b;

	if (text == NULL || *text == '\0')
		return NULL;
	if (strncasecmp(text, "0x", 2) == 0)
		return array_tasks_from_mask(text, limit);
	buf_init(&b);
	buf_adds(&b, text);
	if (limit > 0 && strchr(b.data, '%') == NULL)
		buf_addf(&b, "%%%lld", (long long)limit);
	return buf_detach(&b);
}

/*
 * Which array task a record is, or which tasks not yet started it stands
 * for: ARRAY_JOB, TASK and TASKS as the answer names them.
 */
static void
read_array(struct job_status *s, json_t *array_job, json_t *task,
    const char *tasks, int64_t limit)
{
	(void)get_num(array_job, &s->array_job_id);
	if (get_num(task, &s->array_task_id) != NUM_SET) {
		s->array_task_id = -1;
		if (s->array_job_id != 0)
			s->array_tasks = tasks_text(tasks, limit);
	}
}

/* OBJ[KEY], a time: 0 when unset (job_time()). */
static int64_t
get_time(json_t *obj, const char *key)
{
	int64_t	 t;

	return get_num(json_object_get(obj, key), &t) == NUM_SET ?
	    job_time(t) : 0;
}

/*
 * Has slurmctld's record JOB no time limit?  22.05 writes null for
 * INFINITE (openapi/v0.0.38/jobs.c), v0.0.40 on {"infinite": true}.
 */
static bool
unlimited(json_t *job)
{
	json_t	*tl = json_object_get(job, "time_limit");
	int64_t	 n;

	if (json_is_null(tl))
		return true;
	switch (get_num(tl, &n)) {
	case NUM_INFINITE:
		return true;
	case NUM_SET:
		return n == 0xffffffffLL;
	default:
		return false;
	}
}

/*
 * A record of slurmctld's (GET job/ID, GET jobs); the flags to FLAGS, and
 * to *FINISHED (when not NULL) whether Slurm would refuse to signal it
 * (IS_JOB_FINISHED(): its base state ended; 22.05's COMPLETING too).
 */
static struct error *
read_job(enum rest_version v, struct job_status *s, char **flags,
    bool *finished, json_t *job)
{
	struct error	*err;
	int64_t		 n;
	bool		 exit_seen, ended;

	s->source = JOB_SOURCE_CTLD;
	if (get_num(json_object_get(job, "job_id"), &n) == NUM_SET)
		s->job_id = n;
	if ((err = read_state(s, flags, &ended, json_object_get(job,
	    "job_state"))) != NULL)
		return err;
	/* As scontrol's Reason= and squeue's %r: the description when
	 * slurmctld wrote one ("RaisedSignal:9(Killed)", "Nodes required
	 * for job are DOWN, ..."), else the reason's name
	 * (src/scontrol/info_job.c, src/squeue/print.c
	 * _print_job_reason()). */
	if ((s->reason = get_str(job, "state_description")) == NULL)
		s->reason = get_str(job, "state_reason");
	if (get_num(json_object_get(job, "node_count"), &n) == NUM_SET)
		s->nodes = n;
	s->partition = get_str(job, "partition");
	s->name = get_str(job, "name");
	s->node_list = get_str(job, "nodes");
	s->user = get_str(job, "user_name");
	s->submit_time = get_time(job, "submit_time");
	s->start_time = get_time(job, "start_time");
	s->end_time = job_end_time(get_time(job, "end_time"), unlimited(job),
	    ended);
	exit_seen = read_exit(s, json_object_get(job, "exit_code"));
	s->exit_known = exit_seen && ended;
	if (finished != NULL)
		*finished = ended || strcmp(s->state, "COMPLETING") == 0;
	if (!s->exit_known)
		s->exit_code = s->exit_signal = 0;
	/*
	 * Where it writes: v0.0.38 and v0.0.39 the pattern sent, v0.0.40 to
	 * v0.0.42 a path expanded by the display's rules (JOB_INFO_STDOUT's
	 * dumper), v0.0.43 on the pattern again ("stdout_expanded" beside
	 * it), which slurmstepd's own rules expand (logpath.h).
	 */
	s->std_out = get_str(job, "standard_output");
	s->std_err = get_str(job, "standard_error");
	s->std_expanded = v >= REST_V0_0_40 && v <= REST_V0_0_42;
	s->work_dir = get_str(job, "current_working_directory");
	s->batch_host = get_str(job, "batch_host");
	/* 25.11 (v0.0.44): what %S writes, with the pattern above. */
	s->sluid = get_str(json_object_get(job, "step_id"), "sluid");
	(void)get_num(json_object_get(job, "array_max_tasks"), &n);
	read_array(s, json_object_get(job, "array_job_id"),
	    json_object_get(job, "array_task_id"),
	    json_string_value(json_object_get(job, "array_task_string")), n);
	(void)get_num(json_object_get(job, "restart_cnt"), &s->restart_cnt);
	/* "" once none is left (22.05, 24.11, 25.11). */
	s->dependency = get_str(job, "dependency");
	return NULL;
}

/*
 * 22.05's v0.0.36 answers a job it could not load with error code 0 and
 * "_handle_job_get: unknown job N" (openapi/v0.0.36/jobs.c): slurmctld's
 * error is not kept, so this is also what any failure to ask it looks
 * like; accounting is asked next.
 */
static bool
v36_unknown(json_t *errors)
{
	json_t		*e;
	const char	*t;
	size_t		 i;

	json_array_foreach(errors, i, e)
		if ((t = json_string_value(json_object_get(e, "error"))) !=
		    NULL && strncmp(t, "_handle_job_get: unknown job ", 29) ==
		    0)
			return true;
	return false;
}

/*
 * The "jobs" of an answer (WHAT: "job", "jobs") in *JOBS, borrowed from
 * *ROOT (a new reference, or NULL).  With UNKNOWN (the answer to one
 * job's id): a job slurmctld does not know (22.05 HTTP 500, 23.11 on
 * 404, both with Slurm error 2017) sets *UNKNOWN, and is no error.
 */
static struct error *
jobs_answer(enum rest_version v, long status, const char *body, size_t len,
    const char *what, bool *unknown, json_t **root, json_t **jobs)
{
	json_t	*errors;

	*jobs = NULL;
	*root = load(body, len);
	errors = json_object_get(*root, "errors");
	if (unknown != NULL && (has_code(errors, SLURM_E_NO_JOB) ||
	    (status == 404 && json_is_object(*root)) ||
	    (v == REST_V0_0_36 && v36_unknown(errors)))) {
		*unknown = true;
		return NULL;
	}
	*jobs = json_object_get(*root, "jobs");
	if (http_ok(status) && !json_is_object(*root))
		return error_new(EXIT_FAILURE_OP, "slurmrestd: the %s answer "
		    "is not JSON (HTTP %ld)", what, status);
	if (!http_ok(status) || (json_array_size(errors) > 0 &&
	    json_array_size(*jobs) == 0))
		return answer_error(v, status, *root, body, len);
	if (!json_is_array(*jobs))
		return error_new(EXIT_FAILURE_OP, "slurmrestd: the %s answer "
		    "has no list of jobs (HTTP %ld)", what, status);
	return NULL;
}

/* Is record E USER's?  A record that names no user is nobody's. */
static bool
is_users(json_t *e, const char *key, const char *user)
{
	const char	*u = json_string_value(json_object_get(e, key));

	return u != NULL && strcmp(u, user) == 0;
}

/*
 * A record of slurmctld's with a user id but no user name, which Slurm
 * 22.05's openapi/v0.0.36 writes for every job (it dumps job_info's
 * user_name, which slurmctld leaves empty; v0.0.37 on name the user):
 * whose jobs they are cannot be told, an error rather than none.
 */
static struct error *
check_named(enum rest_version v, json_t *e)
{
	const char	*u = json_string_value(json_object_get(e, "user_name"));

	if ((u == NULL || *u == '\0') && json_object_get(e, "user_id") != NULL)
		return error_new(EXIT_FAILURE_OP, "slurmrestd: API %s names "
		    "no job's user (user_name is empty): ask with "
		    "--api-version v0.0.37 or later", rest_version_name(v));
	return NULL;
}

static struct error *read_db_job(enum rest_version, struct job_status *,
    json_t *);

/*
 * Each record of JOBS (only USER's, unless NULL) onto LIST, read as
 * accounting (DB) or slurmctld writes them; on error LIST is as it was.
 */
static struct error *
read_jobs(enum rest_version v, json_t *jobs, const char *user, bool db,
    struct job_list *list)
{
	struct error	*err = NULL;
	json_t		*e;
	size_t		 i, n0 = list->n;

	json_array_foreach(jobs, i, e) {
		if (user != NULL && !db && (err = check_named(v, e)) != NULL)
			break;
		if (user != NULL && !is_users(e, "user_name", user))
			continue;
		if (!json_is_object(e)) {
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: a job of "
			    "the answer is not an object");
			break;
		}
		err = db ? read_db_job(v, job_list_add(list), e) :
		    read_job(v, job_list_add(list), NULL, NULL, e);
		if (err != NULL)
			break;
	}
	if (err != NULL)
		while (list->n > n0)
			job_status_release(&list->v[--list->n]);
	return err;
}

struct error *
rest_parse_jobs(enum rest_version v, long status, const char *body,
    size_t len, const char *user, struct job_list *list)
{
	struct error	*err;
	json_t		*root, *jobs;
	bool		 unknown = false;

	err = jobs_answer(v, status, body, len, user != NULL ? "jobs" : "job",
	    user != NULL ? NULL : &unknown, &root, &jobs);
	if (err == NULL && !unknown)
		err = read_jobs(v, jobs, user, false, list);
	json_decref(root);
	return err;
}

struct error *
rest_parse_job(enum rest_version v, int64_t job_id, long status,
    const char *body, size_t len, struct rest_job_status *st)
{
	struct error	*err;
	json_t		*root, *jobs, *job = NULL, *e;
	int64_t		 n;
	size_t		 i;
	bool		 unknown = false;

	memset(st, 0, sizeof *st);
	st->job.array_task_id = -1;
	if ((err = jobs_answer(v, status, body, len, "job", &unknown, &root,
	    &jobs)) != NULL || unknown) {
		json_decref(root);
		return err != NULL ? err : no_such_job(job_id);
	}
	/* An array job lists its tasks: take the one asked for. */
	json_array_foreach(jobs, i, e)
		if (get_num(json_object_get(e, "job_id"), &n) == NUM_SET &&
		    n == job_id) {
			job = e;
			break;
		}
	if (job == NULL)
		job = json_array_get(jobs, 0);
	if (!json_is_object(job)) {
		json_decref(root);
		return no_such_job(job_id);
	}
	if ((err = read_job(v, &st->job, &st->state_flags, &st->finished,
	    job)) != NULL)
		rest_job_status_release(st);
	/* An array's id: Slurm signals every task (job_str_signal() in
	 * slurmctld/job_mgr.c), refused only when all have ended. */
	json_array_foreach(jobs, i, e) {
		struct job_status	 t;
		struct error		*terr;
		bool			 f = false;

		if (err != NULL || !st->finished)
			break;
		if (e == job || !json_is_object(e))
			continue;
		memset(&t, 0, sizeof t);
		if ((terr = read_job(v, &t, NULL, &f, e)) != NULL)
			error_free(terr);
		st->finished = f;
		job_status_release(&t);
	}
	json_decref(root);
	return err;
}

struct error *
rest_parse_find(enum rest_version v, long status, const char *body,
    size_t len, const char *name, const char *user, int64_t *id)
{
	struct error	*err;
	json_t		*root, *jobs, *e;
	const char	*n;
	int64_t		 array, job;
	size_t		 i;

	*id = 0;
	if ((err = jobs_answer(v, status, body, len, "jobs", NULL, &root,
	    &jobs)) != NULL) {
		json_decref(root);
		return err;
	}
	json_array_foreach(jobs, i, e) {
		if ((err = check_named(v, e)) != NULL)
			break;
		n = json_string_value(json_object_get(e, "name"));
		if (n == NULL || strcmp(n, name) != 0 ||
		    !is_users(e, "user_name", user) ||
		    get_num(json_object_get(e, "job_id"), &job) != NUM_SET)
			continue;
		if (get_num(json_object_get(e, "array_job_id"), &array) ==
		    NUM_SET && array != 0)
			job = array;
		*id = job;
		break;
	}
	json_decref(root);
	return err;
}

void
rest_job_status_release(struct rest_job_status *st)
{
	job_status_release(&st->job);
	free(st->state_flags);
	memset(st, 0, sizeof *st);
}

/* ---- accounting ---- */

#define SLURM_E_EMPTY_RESULT	9003	/* Nothing found with query */

char *
rest_path_db_job(enum rest_version v, int64_t job_id)
{
	return xasprintf("/slurmdb/%s/job/%lld", rest_version_name(v),
	    (long long)job_id);
}

/* Does exit_code say "SUCCESS" (a string in 22.05, later a list)? */
static bool
exit_said_success(json_t *ec)
{
	json_t		*st = json_object_get(ec, "status");
	const char	*s;

	s = json_is_array(st) ? json_string_value(json_array_get(st, 0)) :
	    json_string_value(st);
	return s != NULL && strcmp(s, "SUCCESS") == 0;
}

/*
 * The nodes a job of accounting had, as sacct's NNodes shows them
 * (src/sacct/print.c, PRINT_NNODES): allocation_nodes, or when 0 (a job
 * cancelled before it ran) the node count of its TRES, those allocated
 * when there are any, else those requested.
 */
static int64_t
db_nodes(json_t *job)
{
	json_t		*tres = json_object_get(job, "tres"), *l, *e;
	const char	*type;
	int64_t		 n = 0;
	size_t		 i;

	if (get_num(json_object_get(job, "allocation_nodes"), &n) == NUM_SET &&
	    n > 0)
		return n;
	l = json_object_get(tres, "allocated");
	if (json_array_size(l) == 0)
		l = json_object_get(tres, "requested");
	json_array_foreach(l, i, e)
		if ((type = json_string_value(json_object_get(e, "type"))) !=
		    NULL && strcmp(type, "node") == 0 &&
		    get_num(json_object_get(e, "count"), &n) == NUM_SET)
			return n;
	return 0;
}

/*
 * The start of a job of accounting through dbv0.0.36 and dbv0.0.37
 * (22.05), which write the job's eligible time as time.start
 * (_add_parse(UINT32, eligible, "time/start") in their parse.c; fixed in
 * dbv0.0.38): for an ended job, its end less the time it ran and was
 * suspended, as slurmdbd computed them (elapsed = end - start -
 * suspended, as_mysql_jobacct_process.c); none for one that never ran
 * (no nodes) or has not ended.  S has its end and node list already.
 */
static int64_t
db_start_v37(json_t *time, const struct job_status *s)
{
	int64_t	 elapsed, suspended;

	if (s->end_time <= 0 || s->node_list == NULL ||
	    get_num(json_object_get(time, "elapsed"), &elapsed) != NUM_SET ||
	    get_num(json_object_get(time, "suspended"), &suspended) !=
	    NUM_SET || elapsed + suspended > s->end_time)
		return 0;
	return s->end_time - elapsed - suspended;
}

/* A record of accounting's (GET /slurmdb/VERSION/job/ID). */
static struct error *
read_db_job(enum rest_version v, struct job_status *s, json_t *job)
{
	struct error	*err;
	json_t		*state = json_object_get(job, "state"), *time, *array;
	json_t		*ec = json_object_get(job, "exit_code");
	int64_t		 n;
	char		*p;
	bool		 exit_seen, ended;

	s->source = JOB_SOURCE_DBD;
	if (get_num(json_object_get(job, "job_id"), &n) == NUM_SET)
		s->job_id = n;
	if ((err = read_state(s, NULL, &ended, json_object_get(state,
	    "current"))) != NULL)
		return err;
	s->reason = get_str(state, "reason");
	s->nodes = db_nodes(job);
	s->partition = get_str(job, "partition");
	s->name = get_str(job, "name");
	/* A job that never ran: "None assigned". */
	s->node_list = get_str(job, "nodes");
	if (s->node_list != NULL && strcmp(s->node_list, "None assigned") ==
	    0) {
		free(s->node_list);
		s->node_list = NULL;
	}
	s->user = get_str(job, "user");
	time = json_object_get(job, "time");
	/* A job cancelled before it started: start NO_VAL (25.11) or null
	 * (22.05), sacct's "None". */
	s->submit_time = get_time(time, "submission");
	s->end_time = get_time(time, "end");
	s->start_time = v <= REST_V0_0_37 ? db_start_v37(time, s) :
	    get_time(time, "start");
	/*
	 * The job's own exit status, as sacct -X shows it, not its batch
	 * step's: a cancelled or timed-out job is 0:0 there (its batch step
	 * 0:15).  22.05's dbv0.0.38 writes {"SUCCESS", 0} for every job
	 * that exited, whatever its status (_dump_job_exit_code() tests
	 * WIFEXITED and writes 0), and so does dbv0.0.39 (23.02 to 24.05),
	 * fixed in v0.0.40's parser: only COMPLETED, which Slurm gives to an
	 * exit status of 0 alone, says what it was.  A signal it does
	 * report.
	 */
	exit_seen = read_exit(s, ec);
	if (v <= REST_V0_0_39 && exit_said_success(ec))
		exit_seen = strcmp(s->state, "COMPLETED") == 0;
	s->exit_known = exit_seen && ended;
	if (!s->exit_known)
		s->exit_code = s->exit_signal = 0;
	array = json_object_get(job, "array");
	(void)get_num(json_object_get(json_object_get(json_object_get(
	    json_object_get(array, "limits"), "max"), "running"), "tasks"),
	    &n);
	read_array(s, json_object_get(array, "job_id"),
	    json_object_get(array, "task_id"),
	    json_string_value(json_object_get(array, "task")), n);
	s->work_dir = get_str(job, "working_directory");
	/* v0.0.41 on: the pattern, and (24.11 on) the path expanded. */
	if ((p = get_str(job, "stdout_expanded")) != NULL) {
		s->std_out = p;
		s->std_err = get_str(job, "stderr_expanded");
		s->std_expanded = true;
	} else {
		s->std_out = get_str(job, "stdout");
		s->std_err = get_str(job, "stderr");
	}
	/* None in 22.05's accounting: keep_last_attempts() counts them. */
	if (get_num(json_object_get(job, "restart_cnt"), &s->restart_cnt) !=
	    NUM_SET)
		s->restart_unknown = true;
	return NULL;
}

/*
 * Accounting's records from N0 on as sacct shows them without
 * --duplicates: slurmrestd asks slurmdbd with JOBCOND_FLAG_DUP (22.05
 * openapi/dbv0.0.38/jobs.c, 25.11 openapi/slurmdbd/jobs.c
 * op_handler_job()), so a job requeued N times comes as N + 1 records,
 * one per start; slurmdbd without that flag keeps of each job id the
 * record submitted last (a requeue submits it again: "order by id_job,
 * time_submit desc", the first of each id kept) and none that a
 * federation revoked (as_mysql_jobacct_process.c).  The records kept
 * stay in their order.
 */
struct attempt {
	int64_t		 job_id, submit;
	size_t		 i;
};

/* By job id, then submit time, then place in the list. */
static int
attempt_cmp(const void *a, const void *b)
{
	const struct attempt	*x = a, *y = b;

	if (x->job_id != y->job_id)
		return x->job_id < y->job_id ? -1 : 1;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void
keep_last_attempts(struct job_list *list, size_t n0)
{
	struct attempt	*at;
	bool		*drop;
	size_t		 n = list->n - n0, i, k, kept = n0;

	if (n == 0)
		return;
	at = xcalloc(n, sizeof *at);
	drop = xcalloc(n, sizeof *drop);
	for (i = 0; i < n; i++) {
		at[i].job_id = list->v[n0 + i].job_id;
		at[i].submit = list->v[n0 + i].submit_time;
		at[i].i = i;
		drop[i] = strcmp(list->v[n0 + i].state, "REVOKED") == 0;
		/* A revoked record is no attempt of its id. */
		if (drop[i])
			at[i].job_id = -1;
	}
	qsort(at, n, sizeof *at, attempt_cmp);
	/*
	 * The last of each id is the newest: same submit time, the later in
	 * the list, as slurmdbd lists the newer last.  Where accounting
	 * keeps no restart count (22.05), each record before it is a start
	 * the job was requeued from.
	 */
	for (i = 0, k = 0; i < n; i++) {
		if (i > 0 && at[i].job_id != at[i - 1].job_id)
			k = i;
		if (at[i].job_id < 0)
			continue;
		if (i + 1 < n && at[i].job_id == at[i + 1].job_id)
			drop[at[i].i] = true;
		else if (list->v[n0 + at[i].i].restart_unknown) {
			list->v[n0 + at[i].i].restart_cnt = (int64_t)(i - k);
			list->v[n0 + at[i].i].restart_unknown = false;
		}
	}
	for (i = 0; i < n; i++) {
		if (drop[i])
			job_status_release(&list->v[n0 + i]);
		else
			list->v[kept++] = list->v[n0 + i];
	}
	list->n = kept;
	free(at);
	free(drop);
}

struct error *
rest_parse_history(enum rest_version v, long status, const char *body,
    size_t len, struct job_list *list)
{
	struct error	*err = NULL;
	json_t		*root, *jobs, *errors;
	size_t		 n0;

	root = load(body, len);
	errors = json_object_get(root, "errors");
	jobs = json_object_get(root, "jobs");
	if (status == 404 && !has_code(errors, SLURM_E_EMPTY_RESULT)) {
		err = error_new(EXIT_FAILURE_OP, "accounting: this slurmrestd "
		    "serves no /slurmdb/%s: its openapi/%s%s plugin is not "
		    "loaded", rest_version_name(v), v <= REST_V0_0_39 ? "db" :
		    "slurmdbd", v <= REST_V0_0_39 ? rest_version_name(v) : "");
		json_decref(root);
		return err;
	}
	/* 22.05: HTTP 200 and 9003 "Nothing found with query". */
	if (has_code(errors, SLURM_E_EMPTY_RESULT) &&
	    json_array_size(jobs) == 0) {
		json_decref(root);
		return NULL;
	}
	if (http_ok(status) && !json_is_object(root))
		err = error_new(EXIT_FAILURE_OP, "slurmrestd: the accounting "
		    "answer is not JSON (HTTP %ld)", status);
	else if (!http_ok(status) || (json_array_size(errors) > 0 &&
	    json_array_size(jobs) == 0))
		err = answer_error(v, status, root, body, len);
	else if (!json_is_array(jobs))
		err = error_new(EXIT_FAILURE_OP, "slurmrestd: the accounting "
		    "answer has no list of jobs (HTTP %ld)", status);
	n0 = list->n;
	if (err == NULL && (err = read_jobs(v, jobs, NULL, true, list)) ==
	    NULL)
		keep_last_attempts(list, n0);
	json_decref(root);
	return err;
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

	root = load(body, len);
	if (has_code(json_object_get(root, "errors"), SLURM_E_NO_JOB) ||
	    (status == 404 && json_is_object(root))) {
		json_decref(root);
		return no_such_job(job_id);
	}
	if (!http_ok(status) || !json_is_object(root) ||
	    json_array_size(json_object_get(root, "errors")) > 0) {
		err = http_ok(status) && !json_is_object(root) ?
		    error_new(EXIT_FAILURE_OP, "slurmrestd: the cancel answer "
		    "is not JSON (HTTP %ld)", status) :
		    answer_error(v, status, root, body, len);
		json_decref(root);
		return err;
	}
	/* v0.0.42 on: a status per job signalled, with its own error. */
	json_array_foreach(json_object_get(root, "status"), i, e) {
		ee = json_object_get(e, "error");
		if (get_num(json_object_get(ee, "code"), &code) != NUM_SET ||
		    code == 0)
			continue;
		if (code == SLURM_E_NO_JOB) {
			err = no_such_job(job_id);
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

	root = load(body, len);
	pings = json_object_get(root, "pings");
	if (!http_ok(status) || json_array_size(pings) == 0) {
		if (http_ok(status) && json_is_object(root) &&
		    json_array_size(json_object_get(root, "errors")) == 0)
			err = error_new(EXIT_FAILURE_OP, "slurmrestd: the ping "
			    "answer lists no slurmctld");
		else
			err = answer_error(v, status, root, body, len);
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

/* ---- token and URL ---- */

static bool
token_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\v' || c == '\f';
}

/* What a token file (or SLURM_JWT) may hold, for messages. */
#define TOKEN_FORMS	"it must hold the token alone, SLURM_JWT=TOKEN as " \
	"'scontrol token' prints it, or that as a shell line: export " \
	"SLURM_JWT=\"TOKEN\""

/*
 * A character of a JWT: base64url's and the dots between its three parts
 * (RFC 7519 section 3, RFC 7515 section 2), plain base64's '+', '/' and
 * '=' too.
 */
static bool
token_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
	    c == '+' || c == '/' || c == '=';
}

/* P, past "export" and its blanks when it starts so, else P. */
static const char *
token_export(const char *p, const char *end)
{
	if (end - p < 7 || memcmp(p, "export", 6) != 0 ||
	    (p[6] != ' ' && p[6] != '\t'))
		return p;
	for (p += 6; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	return p;
}

struct error *
rest_token_parse(const char *what, const char *text, size_t len, char **out)
{
	const char	*p = text, *end = text + len, *q, *e;
	char		 quote;

	*out = NULL;
	while (p < end && token_space(*p))
		p++;
	while (end > p && token_space(end[-1]))
		end--;
	/* A shell line, "export SLURM_JWT=..." (the SLURM_JWT= needed). */
	if ((e = token_export(p, end)) != p) {
		if (end - e < 10 || memcmp(e, "SLURM_JWT=", 10) != 0)
			return error_new(EXIT_USAGE, "%s: an 'export' of another "
			    "variable than SLURM_JWT (%s)", what, TOKEN_FORMS);
		p = e;
	}
	if ((size_t)(end - p) >= 10 && memcmp(p, "SLURM_JWT=", 10) == 0)
		p += 10;
	/* Quoted as a shell quotes it: "TOKEN" or 'TOKEN'. */
	if (p < end && (*p == '"' || *p == '\'')) {
		quote = *p++;
		if (p == end || end[-1] != quote)
			return error_new(EXIT_USAGE, "%s: a quote that does not "
			    "end where the token does (%s)", what, TOKEN_FORMS);
		end--;
	}
	if (p == end)
		return error_new(EXIT_USAGE, "%s: empty", what);
	for (q = p; q < end; q++) {
		if (token_space(*q))
			return error_new(EXIT_USAGE, "%s: white space or a line "
			    "break inside the token (%s)", what, TOKEN_FORMS);
		if (!token_char(*q))
			return error_new(EXIT_USAGE, "%s: byte %zu is not one "
			    "a token has (letters, digits, '-', '_', '.'; %s)",
			    what, (size_t)(q - text), TOKEN_FORMS);
	}
	*out = xstrndup(p, (size_t)(end - p));
	return NULL;
}

bool
rest_url_loopback(const char *url)
{
	struct in_addr	 a4;
	struct in6_addr	 a6;
	const char	*auth, *host, *after;
	char		 name[64];
	size_t		 n, hostlen, i;

	if (strncmp(url, "http://", 7) == 0)
		auth = url + 7;
	else if (strncmp(url, "https://", 8) == 0)
		auth = url + 8;
	else
		return false;
	n = strcspn(auth, "/?#");
	/* No user@, no %-escape, nothing curl might read another way. */
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)auth[i]) &&
		    strchr(".-:[]", auth[i]) == NULL)
			return false;
	if (auth[0] == '[') {
		host = auth + 1;
		after = memchr(auth, ']', n);
		if (after == NULL)
			return false;
		hostlen = (size_t)(after - host);
		after++;
	} else {
		host = auth;
		after = memchr(auth, ':', n);
		if (after == NULL)
			after = auth + n;
		hostlen = (size_t)(after - host);
	}
	/* Then nothing, or ":PORT". */
	if (after != auth + n) {
		if (*after != ':' || after + 1 == auth + n)
			return false;
		for (i = 1; after + i < auth + n; i++)
			if (!isdigit((unsigned char)after[i]))
				return false;
	}
	if (hostlen == 0 || hostlen >= sizeof name)
		return false;
	memcpy(name, host, hostlen);
	name[hostlen] = '\0';
	if (auth[0] == '[')
		return inet_pton(AF_INET6, name, &a6) == 1 &&
		    IN6_IS_ADDR_LOOPBACK(&a6);
	if (strcasecmp(name, "localhost") == 0)
		return true;
	return inet_pton(AF_INET, name, &a4) == 1 &&
	    (ntohl(a4.s_addr) >> 24) == 127;
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
	root = load(body, len);
	nodes = json_object_get(root, "nodes");
	if (http_ok(status) && json_is_object(root) &&
	    (nodes == NULL || json_is_array(nodes))) {
		json_array_foreach(nodes, i, e) {
			name = json_string_value(json_object_get(e, "name"));
			if (name != NULL && strcmp(name, node) == 0) {
				*host = get_str(e, "hostname");
				break;
			}
		}
	} else if (json_array_size(nodes) != 0 ||
	    !has_code(json_object_get(root, "errors"), SLURM_E_BAD_NODE))
		err = answer_error(v, status, root, body, len);
	json_decref(root);
	return err;
}
