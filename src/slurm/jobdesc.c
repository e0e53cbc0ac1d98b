/* jobdesc.c: a batch job as the back ends send it; see jobdesc.h. */
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobdesc.h"
#include "slurmopt.h"
#include "xmalloc.h"

void
jobdesc_init(struct jobdesc *d)
{
	memset(d, 0, sizeof *d);
	d->mem_mb = -1;
	d->time_minutes = -1;
	d->requeue = -1;
	d->mail_type = d->mail_type_or = -1;
}

void
jobdesc_release(struct jobdesc *d)
{
	size_t	 i;

	free(d->script);
	free(d->argv0);
	/* The strings of the #SBATCH options (slurmopt_table). */
	for (i = 0; i < slurmopt_table_size; i++)
		if (slurmopt_table[i].kind == SK_STRING)
			free(*(char **)slurmopt_field(&slurmopt_table[i],
			    d));
	for (i = 0; i < d->nexport_vars; i++)
		free(d->export_vars[i]);
	free(d->export_vars);
	free(d->export_env);
	jobdesc_init(d);
}

/* The entry NAME=... in ENV, or NULL. */
static const char *
env_find(char *const *env, const char *name, size_t len)
{
	for (; env != NULL && *env != NULL; env++)
		if (strncmp(*env, name, len) == 0 && (*env)[len] == '=')
			return *env;
	return NULL;
}

/* An environment being built: a NULL-terminated array of new strings. */
struct envb {
	char	**v;
	size_t	  n;
};

static char **
envb_slot(struct envb *e, const char *entry)
{
	size_t	 len = strcspn(entry, "="), i;

	for (i = 0; i < e->n; i++)
		if (strncmp(e->v[i], entry, len) == 0 && e->v[i][len] == '=')
			return &e->v[i];
	return NULL;
}

/* env_array_overwrite: ENTRY (NAME=value) replaces NAME's entry. */
static void
envb_put(struct envb *e, const char *entry)
{
	char	**slot = envb_slot(e, entry);

	if (slot != NULL) {
		free(*slot);
		*slot = xstrdup(entry);
		return;
	}
	e->v = xreallocarray(e->v, e->n + 2, sizeof *e->v);
	e->v[e->n++] = xstrdup(entry);
	e->v[e->n] = NULL;
}

/* env_array_append: ENTRY only if NAME has none yet. */
static void
envb_add(struct envb *e, const char *entry)
{
	if (envb_slot(e, entry) == NULL)
		envb_put(e, entry);
}

static void __attribute__((format(printf, 2, 3)))
envb_putf(struct envb *e, const char *fmt, ...)
{
	va_list	 ap;
	char	*entry;

	va_start(ap, fmt);
	if (vasprintf(&entry, fmt, ap) == -1)
		abort();
	va_end(ap);
	envb_put(e, entry);
	free(entry);
}

static void
envb_del(struct envb *e, const char *name)
{
	size_t	 len = strlen(name), i;

	for (i = 0; i < e->n; i++)
		if (strncmp(e->v[i], name, len) == 0 && e->v[i][len] == '=') {
			free(e->v[i]);
			memmove(&e->v[i], &e->v[i + 1],
			    (e->n - i) * sizeof *e->v);
			e->n--;
			return;
		}
}

/* sbatch's "plain" --export: absent or exactly ALL (any case). */
static bool
export_plain(const struct jobdesc *d)
{
	return d->export_env == NULL || strcasecmp(d->export_env, "ALL") == 0;
}

/*
 * What sbatch sets in its own environment before it copies it into the
 * job (sbatch.c: set_prio_process_env, _set_submit_dir_env,
 * _set_umask_env, _set_rlimit_env; opt.c: _opt_verify's setenv calls).
 */
static void
sbatch_process_env(struct envb *pe, const struct jobdesc *d,
    const struct jobdesc_context *jc, int rel)
{
	const struct jobdesc_host *h = jc->host;
	const char	*dep = d->dependency;
	size_t		 i;

	/* Slurm 24.05 and later: a nested sbatch drops its job's stepmgr. */
	if (rel >= 2405)
		envb_del(pe, "SLURM_STEPMGR");
	/* Up to 24.05 _opt_verify exports the job name and --open-mode. */
	if (rel < 2411 && d->name != NULL)
		envb_putf(pe, "SLURM_JOB_NAME=%s", d->name);
	if (rel < 2411 && d->open_mode != 0)
		envb_putf(pe, "SLURM_OPEN_MODE=%s", d->open_mode == 1 ? "a" :
		    "t");
	/* Up to 24.05 --acctg-freq too (22.05.8 src/sbatch/opt.c:967;
	 * a937a6dff3 removed it for 24.11). */
	if (rel < 2411 && d->acctg_freq != NULL)
		envb_putf(pe, "SLURM_ACCTG_FREQ=%s", d->acctg_freq);
	/* --container unless the variable is there (22.05.8 opt.c:684,
	 * 25.11.7 opt.c:712). */
	if (d->container != NULL && env_find(pe->v, "SLURM_CONTAINER", 15) ==
	    NULL)
		envb_putf(pe, "SLURM_CONTAINER=%s", d->container);
	if (dep != NULL)
		envb_putf(pe, "SLURM_JOB_DEPENDENCY=%s", dep);
	/* setenv(..., 0): a SLURM_EXPORT_ENV already there stays. */
	if (!export_plain(d) && env_find(pe->v, "SLURM_EXPORT_ENV", 16) ==
	    NULL)
		envb_putf(pe, "SLURM_EXPORT_ENV=%s", d->export_env);
	if (h == NULL)
		return;
	for (i = 0; i < JOBDESC_NRLIMITS; i++)
		if (h->rlimits[i].known)
			envb_putf(pe, "SLURM_RLIMIT_%s=%lu", h->rlimits[i].name,
			    h->rlimits[i].cur);
	if (h->prio_known)
		envb_putf(pe, "SLURM_PRIO_PROCESS=%d", h->prio);
	if (h->submit_dir[0] != '\0')
		envb_putf(pe, "SLURM_SUBMIT_DIR=%s", h->submit_dir);
	if (h->name[0] != '\0')
		envb_putf(pe, "SLURM_SUBMIT_HOST=%s", h->name);
	/* A SLURM_UMASK already there is kept ("use this value"). */
	if (h->umask[0] != '\0' && env_find(pe->v, "SLURM_UMASK", 11) == NULL)
		envb_putf(pe, "SLURM_UMASK=%s", h->umask);
}

/* The names env_array_merge_slurm(_spank) copies under --export=NONE. */
static bool
slurm_name(const char *entry)
{
	return strncmp(entry, "SLURM", 5) == 0 ||
	    strncmp(entry, "_SLURM_SPANK_OPTION_", 20) == 0;
}

/* sbatch's env_merge_filter: a list of ALL, NAME and NAME=value. */
static void
export_list(struct envb *out, const struct jobdesc *d, char *const *pe)
{
	const char	*e;
	size_t		 i;

	if (d->export_mode == EXPORT_ALL)
		for (i = 0; pe != NULL && pe[i] != NULL; i++)
			envb_put(out, pe[i]);
	for (i = 0; i < d->nexport_vars; i++) {
		if (strchr(d->export_vars[i], '=') != NULL)
			envb_put(out, d->export_vars[i]);
		else if ((e = env_find(pe, d->export_vars[i],
		    strlen(d->export_vars[i]))) != NULL)
			envb_put(out, e);
	}
	for (i = 0; pe != NULL && pe[i] != NULL; i++)
		if (slurm_name(pe[i]))
			envb_put(out, pe[i]);
}

/*
 * What sbatch derives from the options (opt.c set_envs, env.c
 * set_env_from_opts), over the copied environment.
 */
static void
sbatch_option_env(struct envb *out, const struct jobdesc *d,
    char *const *pe, int rel)
{
	static const char *const hydra[][2] = {
		{ "HYDRA_BOOTSTRAP", "HYDRA_LAUNCHER_EXTRA_ARGS" },
		{ "I_MPI_HYDRA_BOOTSTRAP",
		    "I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS" },
	};
	const char	*b;
	char		*t;
	int64_t		 ntasks = d->ntasks;
	size_t		 i;

	if (d->cpus_per_task != 0)
		envb_putf(out, "SLURM_CPUS_PER_TASK=%lld",
		    (long long)d->cpus_per_task);
	if (ntasks != 0) {
		envb_putf(out, "SLURM_NPROCS=%lld", (long long)ntasks);
		envb_putf(out, "SLURM_NTASKS=%lld", (long long)ntasks);
	}
	if (d->ntasks_per_node != 0)
		envb_putf(out, "SLURM_NTASKS_PER_NODE=%lld",
		    (long long)d->ntasks_per_node);
	/* The option as given, type and all (env.c: 22.05.8 :2268,
	 * 25.11.7 :2497). */
	if (d->gpus_per_node != 0) {
		t = jobdesc_gpus_text(d->gpus_per_node_type, d->gpus_per_node);
		envb_putf(out, "SLURM_GPUS_PER_NODE=%s", t);
		free(t);
	}
	if (d->gpus_per_task != 0 && rel < 2311)
		envb_putf(out, "SLURM_GPUS_PER_TASK=%lld",
		    (long long)d->gpus_per_task);
	if (rel < 2311)
		return;
	if ((t = jobdesc_tres_per_task(d, rel)) != NULL) {
		envb_putf(out, "SLURM_TRES_PER_TASK=%s", t);
		free(t);
	}
	if ((t = jobdesc_tres_bind(d, rel)) != NULL) {
		envb_putf(out, "SLURM_TRES_BIND=%s", t);
		free(t);
	}
	/* An mpirun inside the job lets srun launch its daemons. */
	envb_add(out, "OMPI_MCA_plm_slurm_args=--external-launcher");
	envb_add(out, "PRTE_MCA_plm_slurm_args=--external-launcher");
	for (i = 0; i < sizeof hydra / sizeof hydra[0]; i++) {
		b = env_find(pe, hydra[i][0], strlen(hydra[i][0]));
		if (b != NULL && strcmp(b + strlen(hydra[i][0]) + 1,
		    "slurm") != 0)
			continue;
		envb_putf(out, "%s=slurm", hydra[i][0]) ;
		envb_putf(out, "%s=--external-launcher", hydra[i][1]);
	}
}

void
jobdesc_counts(const struct jobdesc *d, struct jobdesc_counts *c)
{
	/* sbatch's "min_nodes == max_nodes || max_nodes == 0". */
	bool	 fixed = d->nodes_max == 0 || d->nodes_min == d->nodes_max;
	int64_t	 min_nodes = d->nodes_min != 0 ? d->nodes_min : 1;
	int64_t	 ntasks;

	memset(c, 0, sizeof *c);
	/* _opt_verify's ntasks, then create_job_desc's estimate of it. */
	if (d->ntasks != 0)
		ntasks = d->ntasks;
	else if (d->ntasks_per_node > 0 && fixed)
		ntasks = min_nodes * d->ntasks_per_node;
	else if (d->nodes_min != 0 && fixed)
		ntasks = d->nodes_min;		/* 1 task a node */
	else
		ntasks = 1;
	if (d->ntasks != 0) {
		c->num_tasks = ntasks;
		c->ntasks_set = true;
	}
	if (d->cpus_per_task != 0) {
		c->min_cpus = ntasks * d->cpus_per_task;
		c->pn_min_cpus = d->cpus_per_task;
	} else
		c->min_cpus = ntasks;
}

char *
jobdesc_tres_per_task(const struct jobdesc *d, int rel)
{
	char	 sep;

	if (rel == 0)
		rel = JOBDESC_RELEASE_NEWEST;
	sep = rel >= 2405 ? '=' : ':';
	if (rel < 2311)
		return d->gpus_per_task != 0 ? xasprintf("gres:gpu:%lld",
		    (long long)d->gpus_per_task) : NULL;
	if (d->gpus_per_task != 0 && d->cpus_per_task != 0)
		return xasprintf("cpu%c%lld,gres/gpu%c%lld", sep,
		    (long long)d->cpus_per_task, sep,
		    (long long)d->gpus_per_task);
	if (d->gpus_per_task != 0)
		return xasprintf("gres/gpu%c%lld", sep,
		    (long long)d->gpus_per_task);
	if (d->cpus_per_task != 0)
		return xasprintf("cpu%c%lld", sep, (long long)d->cpus_per_task);
	return NULL;
}

/*
 * The task count sbatch of REL sets: --ntasks, or, in 22.05's
 * _opt_verify() (src/sbatch/opt.c:768), --ntasks-per-node on a fixed
 * node count (one without --nodes too), as if given: SLURM_NTASKS,
 * NumTasks and the CPUs follow.  23.02 dropped it (slurmctld counts
 * instead).  0: none.
 */
static int64_t
sbatch_ntasks(const struct jobdesc *d, int rel)
{
	if (d->ntasks != 0)
		return d->ntasks;
	if (rel < 2302 && d->ntasks_per_node > 0 &&
	    (d->nodes_max == 0 || d->nodes_min == d->nodes_max))
		return (d->nodes_min != 0 ? d->nodes_min : 1) *
		    d->ntasks_per_node;
	return 0;
}

/*
 * Does sbatch of REL know the task count when it checks the GPUs per
 * task itself (slurm_opt_create_job_desc() -> gres_job_state_validate(),
 * before slurmctld fills in its defaults)?  Its own, or one implied
 * there from a --nodes N (minimum and maximum alike) times
 * --ntasks-per-node, or times 1 without --cpus-per-task
 * (src/interfaces/gres.c, "Implicitly set task count").
 */
static bool
sbatch_knows_tasks(const struct jobdesc *d, int rel)
{
	if (sbatch_ntasks(d, rel) != 0)
		return true;
	return d->nodes_min != 0 && d->nodes_max == d->nodes_min &&
	    (d->ntasks_per_node != 0 || d->cpus_per_task == 0);
}

void
jobdesc_for_release(struct jobdesc *copy, const struct jobdesc *d,
    const struct submit_opts *so, int rel, char *owned[2])
{
	if (rel == 0)
		rel = JOBDESC_RELEASE_NEWEST;
	*copy = *d;
	if (so != NULL && so->dependency != NULL)
		copy->dependency = (char *)so->dependency;
	if (so != NULL && so->env != NULL)
		copy->env_add = so->env;
	if (so != NULL && so->kill_invalid_dep)
		copy->kill_invalid_dep = true;
	copy->ntasks = sbatch_ntasks(d, rel);
	/*
	 * 23.11 on, slurm_opt_create_job_desc(): without --nodes, the
	 * minimum is the nodes --ntasks fill at --ntasks-per-node each.
	 */
	if (rel >= 2311 && d->nodes_min == 0 && d->ntasks > 0 &&
	    d->ntasks_per_node > 0)
		copy->nodes_implied = (d->ntasks + d->ntasks_per_node - 1) /
		    d->ntasks_per_node;
	if (rel < 2505)
		copy->mail_type = d->mail_type_or;
	copy->tres_per_task = owned[0] = jobdesc_tres_per_task(d, rel);
	copy->tres_bind = owned[1] = jobdesc_tres_bind(d, rel);
}

struct error *
jobdesc_check_release(const struct jobdesc *d, int rel)
{
	if (rel == 0)
		rel = JOBDESC_RELEASE_NEWEST;
	/* gres_prepend_tres_type(): "gres:" up to 23.02, "gres/" from
	 * 23.11, before a name that lacks it; the other makes a name
	 * slurmctld does not know. */
	if ((d->gres_prefix == '/' && rel < 2311) ||
	    (d->gres_prefix == ':' && rel >= 2311)) {
		char		*g = jobdesc_gpus_text(d->gres_gpu_type,
				    d->gres_gpus);
		struct error	*err = error_hint(error_new(EXIT_USAGE,
		    "--gres=gres%cgpu:%s: Slurm %d.%02d refuses it, as its "
		    "sbatch does (\"Invalid generic resource (gres) "
		    "specification\")", d->gres_prefix, g, rel / 100,
		    rel % 100), "write --gres=gpu:%s", g);

		free(g);
		return err;
	}
	/*
	 * _test_gres_cnt() refuses GPUs per task without a task count;
	 * slurmctld, which counts the tasks of --ntasks-per-node first,
	 * may take the job (25.11 does).
	 */
	if (d->gpus_per_task != 0 && !sbatch_knows_tasks(d, rel))
		return error_hint(error_new(EXIT_USAGE, "--gpus-per-task: "
		    "without a task count, refused as sbatch of Slurm "
		    "%d.%02d refuses it (\"--gpus-per-task used without "
		    "either --gpus or -n/--ntasks is not allowed\")",
		    rel / 100, rel % 100), "add --ntasks, or --nodes=N "
		    "with --ntasks-per-node");
	/* sbatch's signals_mapping[] (proc_args.c) grew CHLD and PIPE. */
	if (rel < d->signal_since)
		return error_hint(error_new(EXIT_USAGE, "--signal: the sbatch of "
		    "Slurm %d.%02d knows no name for signal %d (it has one "
		    "from %d.%02d on), and refuses it", rel / 100, rel % 100,
		    d->signal_num, d->signal_since / 100,
		    d->signal_since % 100), "give its number, %d",
		    d->signal_num);
	return NULL;
}

char *
jobdesc_gpus_text(const char *type, int64_t n)
{
	return xasprintf("%s%s%lld", type, *type != '\0' ? ":" : "",
	    (long long)n);
}

/*
 * xfmt_tres() of --gpus-per-node, then --gres as gres_prepend_tres_type()
 * made it, joined by a comma (slurm_opt.c, slurm_opt_create_job_desc();
 * 22.05.8 slurm_opt.c:6131-6139, 25.11.7 slurm_opt.c:5914-5922).
 */
char *
jobdesc_tres_per_node(const struct jobdesc *d, const char *prefix)
{
	char	*a = NULL, *b = NULL, *t;

	if (d->gpus_per_node != 0)
		a = jobdesc_gpus_text(d->gpus_per_node_type, d->gpus_per_node);
	if (d->gres_gpus != 0)
		b = jobdesc_gpus_text(d->gres_gpu_type, d->gres_gpus);
	if (a != NULL && b != NULL)
		t = xasprintf("%sgpu:%s,%sgpu:%s", prefix, a, prefix, b);
	else if (a != NULL || b != NULL)
		t = xasprintf("%sgpu:%s", prefix, a != NULL ? a : b);
	else
		t = NULL;
	free(a);
	free(b);
	return t;
}

char *
jobdesc_tres_bind(const struct jobdesc *d, int rel)
{
	if (rel == 0)
		rel = JOBDESC_RELEASE_NEWEST;
	if (rel < 2311 || d->gpus_per_task == 0)
		return NULL;
	return xasprintf("gres/gpu:per_task:%lld", (long long)d->gpus_per_task);
}

char *
jobdesc_export_with(const struct jobdesc *d)
{
	struct buf	 b;
	size_t		 i;

	if (d->env_add == NULL || d->env_add[0] == NULL || export_plain(d))
		return NULL;
	buf_init(&b);
	buf_adds(&b, d->export_env);
	for (i = 0; d->env_add[i] != NULL; i++) {
		buf_addc(&b, ',');
		buf_adds(&b, d->env_add[i]);
	}
	return buf_detach(&b);
}

/*
 * D with its env_add in its --export, as sbatch reads the --export that
 * jobdesc_export_with() gives it: *T a shallow copy, its new list of
 * names in *VARS and its --export in *EXPORT (both to free).
 */
static void
with_export(struct jobdesc *t, const struct jobdesc *d, char ***vars,
    char **export)
{
	size_t	 n, i;

	*t = *d;
	for (n = 0; d->env_add[n] != NULL; n++)
		;
	*vars = xreallocarray(NULL, d->nexport_vars + n, sizeof **vars);
	for (i = 0; i < d->nexport_vars; i++)
		(*vars)[i] = d->export_vars[i];
	for (i = 0; i < n; i++)
		(*vars)[d->nexport_vars + i] = (char *)d->env_add[i];
	t->export_vars = *vars;
	t->nexport_vars = d->nexport_vars + n;
	t->export_env = *export = jobdesc_export_with(d);
}

char **
jobdesc_env(const struct jobdesc *d, const struct jobdesc_context *jc,
    size_t *nout)
{
	struct envb	 pe = { NULL, 0 }, out = { NULL, 0 };
	struct jobdesc	 t;
	int		 rel = jc->release != 0 ? jc->release :
			    JOBDESC_RELEASE_NEWEST;
	char		**vars = NULL, *export = NULL;
	size_t		 i;

	out.v = xcalloc(1, sizeof *out.v);
	for (i = 0; jc->environ != NULL && jc->environ[i] != NULL; i++)
		if (strchr(jc->environ[i], '=') != NULL)
			envb_put(&pe, jc->environ[i]);
	/* What the submission adds: in the environment sbatch runs in
	 * under a plain --export, else in its --export. */
	if (d->env_add != NULL && d->env_add[0] != NULL) {
		if (export_plain(d))
			for (i = 0; d->env_add[i] != NULL; i++)
				envb_put(&pe, d->env_add[i]);
		else {
			with_export(&t, d, &vars, &export);
			d = &t;
		}
	}
	sbatch_process_env(&pe, d, jc, rel);
	if (export_plain(d))
		for (i = 0; i < pe.n; i++)
			envb_put(&out, pe.v[i]);
	else
		export_list(&out, d, pe.v);
	if (!export_plain(d))
		envb_put(&out, "SLURM_GET_USER_ENV=1");
	sbatch_option_env(&out, d, pe.v, rel);
	freev(pe.v);
	free(vars);
	free(export);
	if (nout != NULL)
		*nout = out.n;
	return out.v;
}

void
jobdesc_host_read(struct jobdesc_host *h)
{
	static const struct {
		int		 resource;
		const char	*name;
	} limits[JOBDESC_NRLIMITS] = {
		{ RLIMIT_CPU, "CPU" }, { RLIMIT_FSIZE, "FSIZE" },
		{ RLIMIT_DATA, "DATA" }, { RLIMIT_STACK, "STACK" },
		{ RLIMIT_CORE, "CORE" }, { RLIMIT_RSS, "RSS" },
		{ RLIMIT_NPROC, "NPROC" }, { RLIMIT_NOFILE, "NOFILE" },
		{ RLIMIT_MEMLOCK, "MEMLOCK" }, { RLIMIT_AS, "AS" },
	};
	struct rlimit	 rl;
	mode_t		 mask;
	size_t		 i;

	memset(h, 0, sizeof *h);
	if (getcwd(h->submit_dir, sizeof h->submit_dir) == NULL)
		h->submit_dir[0] = '\0';
	if (gethostname(h->name, sizeof h->name) != 0)
		h->name[0] = '\0';
	h->name[sizeof h->name - 1] = '\0';
	mask = umask(0);
	umask(mask);
	snprintf(h->umask, sizeof h->umask, "0%o%o%o", (mask >> 6) & 07,
	    (mask >> 3) & 07, mask & 07);
	errno = 0;
	h->prio = getpriority(PRIO_PROCESS, 0);
	h->prio_known = h->prio != -1 || errno == 0;
	for (i = 0; i < JOBDESC_NRLIMITS; i++) {
		h->rlimits[i].name = limits[i].name;
		if (getrlimit(limits[i].resource, &rl) == 0) {
			h->rlimits[i].cur = (unsigned long)rl.rlim_cur;
			h->rlimits[i].known = true;
		}
	}
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
