/*
 * backend-native.c: the native back end: libslurm, one session
 * (slurm_init .. slurm_fini) per open.  The job description comes from
 * the script's #SBATCH lines (jobdesc.h), filled as sbatch fills it for
 * Slurm 22.05: GPUs as tres_per_node "gres:gpu:N", --hold as priority 0,
 * --exclusive as shared 0 (the later releases read these too: their
 * slurmctld turns "gres:" into "gres/", src/common/slurm_protocol_pack.c).
 * Errors are Slurm's own (slurm_strerror of errno, read as sbatch reads
 * it).  Ended jobs are read from accounting as sacct reads them
 * (slurmdb_jobs_get, through slurmdbd).  It builds against Slurm 22.05 to
 * 25.11 (slurm-load.h).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "autoconf.h"

#ifdef HAVE_RES_NSEARCH
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#endif

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "backend.h"
#include "buf.h"
#include "error.h"
#include "jobdesc.h"
#include "logpath.h"
#include "site.h"
#include "siteinfo.h"
#include "jobref.h"
#include "slurm-load.h"
#include "slurmopt.h"
#include "xmalloc.h"


/*
 * Slurm's own name of STATE, as scontrol, squeue and sacct print it:
 * libslurm's job_state_string(), flags first (COMPLETING, REQUEUED ...).
 * Without it, the same from the flags we know by name and the base.
 */
static const char *
nat_state_name(uint32_t state)
{
	if (slurm_fns.job_state_string != NULL)
		return slurm_fns.job_state_string(state);
	if (state & JOB_COMPLETING)
		return "COMPLETING";
	if (state & JOB_REQUEUE)
		return "REQUEUED";
	if (state & JOB_REVOKED)
		return "REVOKED";
	if ((state & JOB_STATE_BASE) < JOB_STATE_NBASE)
		return job_state_base_names[state & JOB_STATE_BASE];
	return "UNKNOWN";
}

struct backend_ctx {
	int	 verbose;
};

/*
 * libslurm prints its own "mbsbatch: error: ..." lines on stderr; we
 * report its errors ourselves (slurm_strerror), once.  Quiet it during
 * calls unless -v.  A sweep calls from several threads at once: stderr
 * is the process's, so the first call in sends it to /dev/null and the
 * last one out gives it back.
 */
static pthread_mutex_t	 hush_lock = PTHREAD_MUTEX_INITIALIZER;
static int		 hush_depth;
static int		 saved_stderr = -1;

static void
nat_hush(struct backend_ctx *ctx)
{
	int	 null;

	if (ctx->verbose > 0)
		return;
	pthread_mutex_lock(&hush_lock);
	if (hush_depth++ == 0) {
		fflush(stderr);
		if ((null = open("/dev/null", O_WRONLY | O_CLOEXEC)) != -1) {
			saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC,
			    3);
			dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	pthread_mutex_unlock(&hush_lock);
}

static void
nat_unhush(struct backend_ctx *ctx)
{
	if (ctx->verbose > 0)
		return;
	pthread_mutex_lock(&hush_lock);
	if (--hush_depth == 0 && saved_stderr != -1) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
	pthread_mutex_unlock(&hush_lock);
}

/*
 * Has DNS a _slurmctld._tcp SRV record, the last place a configless
 * Slurm client looks for slurmctld (src/common/slurm_resolv.c)?
 */
static int
nat_conf_srv_exists(void)
{
#ifdef HAVE_RES_NSEARCH
	struct __res_state	 res;
	unsigned char		 answer[512];
	int			 len;

	memset(&res, 0, sizeof res);
	if (res_ninit(&res) != 0)
		return 0;
	len = res_nsearch(&res, "_slurmctld._tcp", C_IN, T_SRV, answer,
	    sizeof answer);
	res_nclose(&res);
	return len >= (int)sizeof(HEADER) &&
	    ((HEADER *)answer)->ancount != 0;
#else
	return 0;
#endif
}

/*
 * The file libslurm reads: $SLURM_CONF, else the first of its built-in
 * file and a configless slurmd's copy that is there; NULL if none.
 */
static const char *
nat_conf_file(void)
{
	const char	*conf = getenv("SLURM_CONF");

	if (conf != NULL && *conf != '\0')
		return conf;
	if (access(SLURM_DEFAULT_CONF, F_OK) == 0)
		return SLURM_DEFAULT_CONF;
	if (access(SLURM_CACHED_CONF, F_OK) == 0)
		return SLURM_CACHED_CONF;
	return NULL;
}

/*
 * libslurm ends the process (fatal(), exit 1) when it cannot go on: a
 * plugin of another release in PluginDir, a configuration it cannot
 * read.  Inside a quiet call its messages went to /dev/null: give stderr
 * back and say what happened, in one line and a hint.
 */
static void
nat_exit_in_libslurm(void)
{
	if (hush_depth == 0)
		return;
	if (saved_stderr != -1)
		dup2(saved_stderr, STDERR_FILENO);
	fprintf(stderr, "mbsbatch: libslurm: it ended the process (run with "
	    "-v for its own messages)\nhint: mbsbatch was built for %s; if "
	    "the cluster runs another release, use --via rest or --via "
	    "sbatch, or build mbsbatch against that Slurm (./configure "
	    "--with-slurm=DIR)\n", backend_native_about());
}

static struct error *
nat_open(const struct backend_opts *opts, struct backend_ctx **out)
{
	static bool	 registered;

	struct backend_ctx	*ctx;
	struct error		*err;
	const char		*conf = getenv("SLURM_CONF");
	const char		*file = nat_conf_file();
	int			 source;

	/*
	 * Without a configuration libslurm exits the process (fatal).  Look
	 * where it does (read_config.c, _establish_config_source()): a file
	 * (backend_slurm_conf_exists() is 1), else slurmctld, named by
	 * $SLURM_CONF_SERVER (2) or found in DNS.
	 */
	source = backend_slurm_conf_exists();
	if (source == 0 && file == NULL && nat_conf_srv_exists())
		source = 2;
	if (source == 0)
		return error_hint(file != NULL ? error_new(EXIT_FAILURE_OP,
		    "libslurm: no Slurm configuration (cannot read %s%s)",
		    file == conf ? "$SLURM_CONF " : "", file) :
		    error_new(EXIT_FAILURE_OP, "libslurm: no Slurm configuration "
		    "(no $SLURM_CONF, %s, %s, $SLURM_CONF_SERVER or DNS record "
		    "_slurmctld._tcp)", SLURM_DEFAULT_CONF, SLURM_CACHED_CONF),
		    "set SLURM_CONF, or use --via sbatch or --via rest");
	if ((err = slurm_load()) != NULL)
		return err;
	if (!registered && atexit(nat_exit_in_libslurm) == 0)
		registered = true;
	ctx = xcalloc(1, sizeof *ctx);
	ctx->verbose = opts->verbose;
	/*
	 * A configuration fetched from slurmctld can fail to come, and
	 * libslurm then exits the process: leave its reason on stderr.
	 */
	if (source == 1)
		nat_hush(ctx);
	slurm_init(NULL);
	if (source == 1)
		nat_unhush(ctx);
	*out = ctx;
	return NULL;
}

static void
nat_close(struct backend_ctx *ctx)
{
	nat_hush(ctx);
	slurm_fini();
	nat_unhush(ctx);
	free(ctx);
}

/*
 * Slurm's error E (errno after the failed call) about WHAT.  A controller
 * of another release answers a libslurm it does not speak with a message
 * this one cannot read (seen: libslurm 22.05 to slurmctld 25.11, "Unexpected
 * message received"): say which release this mbsbatch speaks.
 */
static struct error *
nat_slurm_error(const char *what, int e)
{
	struct error	*err;

	err = error_new(EXIT_FAILURE_OP, "libslurm: %s: %s (Slurm error %d)",
	    what, slurm_strerror(e), e);
	if (e == SLURM_UNEXPECTED_MSG_ERROR ||
	    e == SLURM_PROTOCOL_VERSION_ERROR ||
	    e == SLURM_PROTOCOL_INSANE_MSG_LENGTH)
		error_hint(err, "mbsbatch was built for %s; if slurmctld runs "
		    "another release, use --via rest or --via sbatch, or "
		    "build mbsbatch against that Slurm (./configure "
		    "--with-slurm=DIR)", backend_native_about());
	return err;
}

/* A failed call about job ID: "no such job", or Slurm's error E. */
static struct error *
nat_job_error(const char *what, int64_t id, int e)
{
	if (e == ESLURM_INVALID_JOB_ID)
		return error_set_kind(error_new(EXIT_FAILURE_OP, "job %lld: "
		    "no such job (Slurm: %s)", (long long)id,
		    slurm_strerror(e)), ERROR_NO_SUCH_JOB);
	return nat_slurm_error(what, e);
}

/* Our mail bits are slurm.h's (jobdesc.h). */
_Static_assert(SLURMOPT_MAIL_BEGIN == MAIL_JOB_BEGIN &&
    SLURMOPT_MAIL_END == MAIL_JOB_END && SLURMOPT_MAIL_FAIL == MAIL_JOB_FAIL &&
    SLURMOPT_MAIL_REQUEUE == MAIL_JOB_REQUEUE &&
    SLURMOPT_MAIL_TIME100 == MAIL_JOB_TIME100 &&
    SLURMOPT_MAIL_TIME90 == MAIL_JOB_TIME90 &&
    SLURMOPT_MAIL_TIME80 == MAIL_JOB_TIME80 &&
    SLURMOPT_MAIL_TIME50 == MAIL_JOB_TIME50 &&
    SLURMOPT_MAIL_STAGE_OUT == MAIL_JOB_STAGE_OUT &&
    SLURMOPT_MAIL_ARRAY_TASKS == MAIL_ARRAY_TASKS &&
    SLURMOPT_MAIL_INVALID_DEPEND == MAIL_INVALID_DEPEND,
    "the mail type bits differ from slurm.h's");

/*
 * The options of slurmopt-carried.h, as sbatch puts them in the job
 * description: a string as it is, a nice NICE_OFFSET + it
 * (slurm_opt_create_job_desc(), 22.05.8 src/common/slurm_opt.c:6028,
 * 25.11.7 :5787).
 */
static void
nat_carry_SK_STRING(char **dst, char *v)
{
	if (v != NULL)
		*dst = v;
}

static void
nat_carry_SK_NICE(uint32_t *dst, int64_t v)
{
	if (v != 0)
		*dst = (uint32_t)(NICE_OFFSET + v);
}

/* gres_prepend_tres_type(): "gres:" up to 23.02, "gres/" on. */
static const char *
nat_tres_prefix(int release)
{
	return release < 2311 ? "gres:" : "gres/";
}

/*
 * Fill DESC from D; strings borrowed from D; the tres_per_node string it
 * makes goes to *TRES_PER_NODE, for the caller to free; ARGV is room for
 * the script's argv.
 */
static void
nat_fill_desc(job_desc_msg_t *desc, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    char **env, size_t nenv, char **tres_per_node, char *argv[2],
    int release)
{
	struct jobdesc_counts	 counts;

	slurm_init_job_desc_msg(desc);
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
	/*
	 * slurm_init_job_desc_msg() leaves it 0, "never", where sbatch sends
	 * NO_VAL16 (slurm_opt.c), which has slurmctld use the site's
	 * TaskPluginParam=OOMKillStep (job_scheduler.c).
	 */
	desc->oom_kill_step = NO_VAL16;
#endif
	desc->script = d->script;
	desc->name = d->name;
#define SLURMOPT_SIMPLE(id, option, shortopt, member, libslurm, ...) \
	desc->libslurm = d->member;
#include "slurmopt-list.h"
#define SLURMOPT_CARRIED(option, shortopt, arg, kind, ctype, member, check, \
    native, ...) \
	nat_carry_##kind(&desc->native, d->member);
#include "slurmopt-carried.h"
	desc->features = d->constraint;
	desc->dependency = so != NULL && so->dependency != NULL ?
	    (char *)so->dependency : d->dependency;
	if (d->nodes_min != 0) {
		desc->min_nodes = (uint32_t)d->nodes_min;
		desc->max_nodes = (uint32_t)d->nodes_max;
	} else if (d->nodes_implied != 0)
		desc->min_nodes = (uint32_t)d->nodes_implied;
	jobdesc_counts(d, &counts);
	if (counts.ntasks_set) {
		desc->num_tasks = (uint32_t)counts.num_tasks;
		desc->bitflags |= JOB_NTASKS_SET;
	}
	desc->min_cpus = (uint32_t)counts.min_cpus;
	if (counts.pn_min_cpus != 0)
		desc->pn_min_cpus = (uint16_t)counts.pn_min_cpus;
	if (d->cpus_per_task != 0)
		desc->bitflags |= JOB_CPUS_SET;
	if (d->ntasks_per_node != 0)
		desc->ntasks_per_node = (uint16_t)d->ntasks_per_node;
	if (d->cpus_per_task != 0)
		desc->cpus_per_task = (uint16_t)d->cpus_per_task;
	desc->tres_per_node = *tres_per_node = jobdesc_tres_per_node(d,
	    nat_tres_prefix(release));
	/* sbatch's strings for this release (copied by nat_submit). */
	desc->tres_per_task = (char *)d->tres_per_task;
	desc->tres_bind = (char *)d->tres_bind;
	if (d->argv0 != NULL) {
		desc->argc = 1;
		desc->argv = argv;
		argv[0] = d->argv0;
		argv[1] = NULL;
	}
	if (d->mem_mb >= 0)
		desc->pn_min_memory = (uint64_t)d->mem_mb;
	if (d->time_unlimited)
		desc->time_limit = INFINITE;
	else if (d->time_minutes >= 0)
		desc->time_limit = (uint32_t)d->time_minutes;
	desc->std_out = d->output;
	desc->std_err = d->error;
	desc->work_dir = (char *)jc->cwd;
	if (d->exclusive)
		desc->shared = JOB_SHARED_NONE;
	if (d->requeue >= 0)
		desc->requeue = (uint16_t)d->requeue;
	if (d->open_mode != 0)
		desc->open_mode = (uint8_t)(d->open_mode == 1 ?
		    OPEN_MODE_APPEND : OPEN_MODE_TRUNCATE);
	if (d->hold || (so != NULL && so->hold))
		desc->priority = 0;
	if (d->kill_invalid_dep)
		desc->bitflags |= KILL_INV_DEP;
	if (d->signal_num != 0) {
		desc->warn_signal = (uint16_t)d->signal_num;
		desc->warn_time = (uint16_t)d->signal_time;
		desc->warn_flags = d->signal_batch ? KILL_JOB_BATCH : 0;
	}
	desc->array_inx = d->array;
	if (d->mail_type != -1)
		desc->mail_type = (uint16_t)d->mail_type;
	desc->environment = env;
	desc->env_size = (uint32_t)nenv;
	desc->user_id = getuid();
	desc->group_id = getgid();
}

/* The release libslurm was built for: the only one it talks to well. */
static int
nat_release(struct backend_ctx *ctx)
{
	(void)ctx;
	return SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER) * 100 +
	    SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER);
}

static char	*nat_str(const char *);

/*
 * A job description as this release's sbatch would send it for D with
 * SO: what it owns, freed by nat_job_release().
 */
struct nat_job {
	job_desc_msg_t	 desc;
	struct jobdesc	 copy;
	char		**env, *tres_per_node, *tres[2], *argv[2];
	int		 release;
};

static struct error *
nat_job_init(struct backend_ctx *ctx, struct nat_job *j,
    const struct jobdesc *d, const struct jobdesc_context *jc,
    const struct submit_opts *so)
{
	struct jobdesc_context	 c;
	struct error		*err;
	size_t			 nenv;

	memset(j, 0, sizeof *j);
	/* The environment of this release's sbatch, the chain's dependency
	 * in it as sbatch puts it there. */
	c = *jc;
	c.release = j->release = nat_release(ctx);
	if ((err = jobdesc_check_release(d, c.release)) != NULL)
		return err;
	jobdesc_for_release(&j->copy, d, so, c.release, j->tres);
	j->env = jobdesc_env(&j->copy, &c, &nenv);
	nat_fill_desc(&j->desc, &j->copy, jc, so, j->env, nenv,
	    &j->tres_per_node, j->argv, c.release);
	return NULL;
}

static void
nat_job_release(struct nat_job *j)
{
	free(j->tres_per_node);
	free(j->tres[0]);
	free(j->tres[1]);
	freev(j->env);
}

static struct error *
nat_submit(struct backend_ctx *ctx, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    struct submit_result *r)
{
	submit_response_msg_t	*resp = NULL;
	struct nat_job		 j;
	struct error		*err = NULL;
	int			 rc, e;

	memset(r, 0, sizeof *r);
	if ((err = nat_job_init(ctx, &j, d, jc, so)) != NULL)
		return err;
	nat_hush(ctx);
	rc = slurm_submit_batch_job(&j.desc, &resp);
	e = errno;
	nat_unhush(ctx);
	if (rc != SLURM_SUCCESS)
		err = nat_slurm_error("submit", e);
	else {
		r->job_id = SLURM_SUBMIT_JOB_ID(resp);
		r->release = j.release;
		/* A job id with an error code: queued, with a warning. */
		if (resp->error_code != SLURM_SUCCESS) {
			r->warnings = xcalloc(1, sizeof *r->warnings);
			r->warnings[0] = xstrdup(slurm_strerror(
			    (int)resp->error_code));
			r->nwarnings = 1;
		}
		if (resp->job_submit_user_msg != NULL &&
		    resp->job_submit_user_msg[0] != '\0') {
			r->warnings = xreallocarray(r->warnings,
			    r->nwarnings + 1, sizeof *r->warnings);
			r->warnings[r->nwarnings++] =
			    xstrdup(resp->job_submit_user_msg);
		}
		slurm_free_submit_response_response_msg(resp);
	}
	nat_job_release(&j);
	return err;
}

/*
 * slurm_job_will_run2(), what slurm_job_will_run() asks for sbatch
 * --test-only (src/api/allocate.c; 22.05.8 :693, 25.11.7 :769): the
 * controller's answer, nothing queued.
 */
static struct error *
nat_will_run(struct backend_ctx *ctx, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    struct will_run *w)
{
	will_run_response_msg_t	*resp = NULL;
	struct nat_job		 j;
	struct error		*err = NULL;
	struct buf		 ids;
	const char		*m, *sep = "";
	uint32_t		*id;
	void			*it;
	int			 rc, e;

	memset(w, 0, sizeof *w);
	if ((err = nat_job_init(ctx, &j, d, jc, so)) != NULL)
		return err;
	nat_hush(ctx);
	rc = slurm_job_will_run2(&j.desc, &resp);
	e = errno;
	nat_unhush(ctx);
	if (rc != SLURM_SUCCESS)
		err = nat_slurm_error("will-run", e);
	else if (resp == NULL)
		err = error_new(EXIT_FAILURE_OP, "libslurm: will-run: no "
		    "answer");
	else {
		w->start_time = (int64_t)resp->start_time;
		w->nodes = nat_str(resp->node_list);
		w->partition = nat_str(resp->part_name);
		w->processors = resp->proc_cnt;
		w->release = j.release;
		/* print_multi_line_string(): a line each. */
		for (m = resp->job_submit_user_msg; m != NULL && *m != '\0';
		    m += strcspn(m, "\n"), m += *m == '\n') {
			w->messages = xreallocarray(w->messages,
			    w->nmessages + 1, sizeof *w->messages);
			w->messages[w->nmessages++] = xstrndup(m,
			    strcspn(m, "\n"));
		}
		if (resp->preemptee_job_id != NULL) {
			buf_init(&ids);
			it = slurm_list_iterator_create(
			    resp->preemptee_job_id);
			while ((id = slurm_list_next(it)) != NULL) {
				buf_addf(&ids, "%s%u", sep, *id);
				sep = ",";
			}
			slurm_list_iterator_destroy(it);
			if (ids.len > 0)
				w->preempts = buf_detach(&ids);
			else
				buf_release(&ids);
		}
	}
	if (resp != NULL && slurm_free_will_run_response_msg != NULL)
		slurm_free_will_run_response_msg(resp);
	nat_job_release(&j);
	return err;
}

static char *
nat_str(const char *s)
{
	return s != NULL && *s != '\0' ? xstrdup(s) : NULL;
}

/* Where job J writes, as libslurm gives it: the patterns sent. */
static void
nat_status_logs(const slurm_job_info_t *j, struct job_status *s)
{
	struct passwd	*pw;

	s->std_out = nat_str(j->std_out);
	s->std_err = nat_str(j->std_err);
	s->work_dir = nat_str(j->work_dir);
	s->batch_host = nat_str(j->batch_host);
	if ((pw = getpwuid((uid_t)j->user_id)) != NULL)
		s->user = xstrdup(pw->pw_name);
	s->array_job_id = j->array_job_id;
	s->array_task_id = j->array_task_id != NO_VAL ?
	    (int64_t)j->array_task_id : -1;
	s->restart_cnt = j->restart_cnt;
#ifdef HAVE_SLURM_JOB_INFO_T_STEP_ID_SLUID
	if (j->step_id.sluid != 0) {
		char	 sluid[LOGPATH_SLUID_SIZE];

		logpath_sluid(j->step_id.sluid, sluid);
		s->sluid = xstrdup(sluid);
	}
#endif
}

/* Exit status W (a wait(2) status, as Slurm keeps it) into S. */
static void
nat_exit(uint32_t w, struct job_status *s)
{
	s->exit_known = true;
	s->exit_code = WIFEXITED(w) ? WEXITSTATUS(w) : 0;
	s->exit_signal = WIFSIGNALED(w) ? WTERMSIG(w) : 0;
}

/*
 * Job J as slurmctld gives it, into S.  An array's tasks not yet started
 * come as one record, array_task_id NO_VAL, their list in array_task_str
 * ("5-9%2"; libslurm turned slurmctld's mask into it, and cuts a list
 * longer than $SLURM_BITSTR_LEN, 64, with "...").
 */
static void
nat_status_fill(const slurm_job_info_t *j, struct job_status *s)
{
	s->job_id = j->job_id;
	snprintf(s->state, sizeof s->state, "%s", nat_state_name(j->job_state));
	/* As scontrol's Reason= and squeue's %r: slurmctld's description
	 * when it wrote one, else the reason's name
	 * (src/scontrol/info_job.c, src/squeue/print.c). */
	if (j->state_desc != NULL && j->state_desc[0] != '\0')
		s->reason = xstrdup(j->state_desc);
	else if (slurm_fns.job_reason_string != NULL)
		s->reason = xstrdup(slurm_fns.job_reason_string(
		    j->state_reason));
	s->nodes = j->num_nodes;
	s->partition = nat_str(j->partition);
	s->name = nat_str(j->name);
	s->node_list = nat_str(j->nodes);
	s->submit_time = job_time((int64_t)j->submit_time);
	s->start_time = job_time((int64_t)j->start_time);
	/* Ended: IS_JOB_FINISHED(), a base state past SUSPENDED
	 * (src/common/slurm_protocol_defs.h). */
	s->end_time = job_end_time(job_time((int64_t)j->end_time),
	    j->time_limit == INFINITE,
	    (j->job_state & JOB_STATE_BASE) > JOB_SUSPENDED);
	nat_status_logs(j, s);
	if (j->array_job_id != 0 && j->array_task_id == NO_VAL)
		s->array_tasks = nat_str(j->array_task_str);
	s->dependency = nat_str(j->dependency);
	if (j->exit_code != NO_VAL)
		nat_exit(j->exit_code, s);
	s->source = JOB_SOURCE_CTLD;
}

/* Every record of RESP into LIST. */
static void
nat_status_add(const job_info_msg_t *resp, struct job_list *list)
{
	uint32_t	 i;

	for (i = 0; i < resp->record_count; i++)
		nat_status_fill(&resp->job_array[i], job_list_add(list));
}

/*
 * libslurm cuts an array's list of tasks not started to SLURM_BITSTR_LEN
 * characters (64 unless set) and "...", read from the environment when a
 * process formats its first list (slurm_protocol_defs.c): 0 (whole)
 * around each load unless the user chose, then gone again, so that no
 * job submitted later inherits it.
 */
static bool
nat_whole_task_lists(void)
{
	if (getenv("SLURM_BITSTR_LEN") != NULL)
		return false;
	return setenv("SLURM_BITSTR_LEN", "0", 0) == 0;
}

/*
 * Every record slurmctld has for ID: slurm_load_job() answers an array's
 * id with each task and the group not yet started, a task's own id with
 * that task.  SHOW_ALL: in a hidden partition too, as the job is named.
 */
static struct error *
nat_status(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	job_info_msg_t	*resp = NULL;
	int		 rc, e;
	bool		 set = nat_whole_task_lists();

	nat_hush(ctx);
	rc = slurm_load_job(&resp, (uint32_t)id, SHOW_ALL | SHOW_DETAIL);
	e = errno;
	nat_unhush(ctx);
	if (set)
		unsetenv("SLURM_BITSTR_LEN");
	if (rc != SLURM_SUCCESS)
		return e == ESLURM_INVALID_JOB_ID ? NULL :
		    nat_slurm_error("status", e);
	nat_status_add(resp, list);
	slurm_free_job_info_msg(resp);
	return NULL;
}

/* The jobs of the user this session submits as (getuid(), nat_submit). */
static struct error *
nat_list(struct backend_ctx *ctx, struct job_list *list)
{
	job_info_msg_t	*resp = NULL;
	int		 rc, e;
	bool		 set = nat_whole_task_lists();

	nat_hush(ctx);
	rc = slurm_load_job_user(&resp, (uint32_t)getuid(), SHOW_ALL);
	e = errno;
	nat_unhush(ctx);
	if (set)
		unsetenv("SLURM_BITSTR_LEN");
	if (rc != SLURM_SUCCESS)
		return nat_slurm_error("list jobs", e);
	nat_status_add(resp, list);
	slurm_free_job_info_msg(resp);
	return NULL;
}

/*
 * The nodes job J of accounting had, as sacct's NNodes shows them
 * (src/sacct/print.c, PRINT_NNODES): alloc_nodes, or when 0 (a job
 * cancelled before it ran) the node count of its TRES, those allocated
 * when there are any, else those requested.
 */
static int64_t
nat_history_nodes(const slurmdb_job_rec_t *j)
{
	char		*tres;
	uint64_t	 n;

	if (j->alloc_nodes != 0 || slurm_fns.db_find_tres_count_in_string ==
	    NULL)
		return j->alloc_nodes;
	tres = j->tres_alloc_str != NULL && j->tres_alloc_str[0] != '\0' ?
	    j->tres_alloc_str : j->tres_req_str;
	if (tres == NULL || (n = slurm_fns.db_find_tres_count_in_string(tres,
	    SLURM_TRES_NODE)) == INFINITE64)
		return 0;
	return (int64_t)n;
}

/* Job J as accounting keeps it, into S. */
static void
nat_history_fill(const slurmdb_job_rec_t *j, struct job_status *s)
{
	struct passwd	*pw;
	uint32_t	 base = j->state & JOB_STATE_BASE;

	s->job_id = j->jobid;
	/* As sacct names it (src/sacct/print.c, PRINT_STATE). */
	snprintf(s->state, sizeof s->state, "%s", nat_state_name(j->state));
	/* The last reason it waited: while it waits, why; after, a
	 * task ended long ago says JobArrayTaskLimit. */
	if (base == JOB_PENDING && slurm_fns.job_reason_string != NULL)
		s->reason = xstrdup(slurm_fns.job_reason_string(
		    (enum job_state_reason)j->state_reason_prev));
	s->nodes = nat_history_nodes(j);
	/* "None assigned": a job that never ran (as_mysql_job.c). */
	if (j->nodes != NULL && strcmp(j->nodes, "None assigned") != 0)
		s->node_list = nat_str(j->nodes);
	s->partition = nat_str(j->partition);
	s->name = nat_str(j->jobname);
	/* A job cancelled before it started: start NO_VAL, sacct's
	 * "None" (as_mysql_jobacct_process.c). */
	s->submit_time = job_time((int64_t)j->submit);
	s->start_time = job_time((int64_t)j->start);
	s->end_time = job_time((int64_t)j->end);
	/* Its exit status is its own once it ended, 0 before. */
	if (base >= JOB_COMPLETE)
		nat_exit(j->exitcode, s);
#ifdef HAVE_SLURMDB_JOB_REC_T_STD_OUT
	s->std_out = nat_str(j->std_out);
	s->std_err = nat_str(j->std_err);
#endif
#ifdef HAVE_SLURMDB_JOB_REC_T_RESTART_CNT
	s->restart_cnt = j->restart_cnt;
#else
	s->restart_unknown = true;
#endif
#ifdef HAVE_SLURM_JOB_INFO_T_STEP_ID_SLUID
	/* 25.11 keeps a job's SLUID as its db_index (as_mysql_job.c;
	 * sacct's SLUID prints it: sacct/print.c PRINT_SLUID). */
	if (j->db_index != 0) {
		char	 sluid[LOGPATH_SLUID_SIZE];

		logpath_sluid(j->db_index, sluid);
		s->sluid = xstrdup(sluid);
	}
#endif
	s->work_dir = nat_str(j->work_dir);
	if ((pw = getpwuid((uid_t)j->uid)) != NULL)
		s->user = xstrdup(pw->pw_name);
	else
		s->user = nat_str(j->user);
	s->array_job_id = j->array_job_id;
	s->array_task_id = j->array_task_id != NO_VAL ?
	    (int64_t)j->array_task_id : -1;
	if (j->array_job_id != 0 && j->array_task_id == NO_VAL &&
	    j->array_task_str != NULL && j->array_task_str[0] != '\0' &&
	    (s->array_tasks = array_tasks_from_mask(j->array_task_str,
	    j->array_max_tasks)) == NULL)
		s->array_tasks = xstrdup(j->array_task_str);
	s->source = JOB_SOURCE_DBD;
}

/*
 * Every record accounting has for ID, asked as sacct -j ID asks
 * (src/sacct/options.c, 22.05 to 25.11): the job, each task of an array
 * whose id it is, the newest record of a requeued job (no
 * JOBCOND_FLAG_DUP), no steps, no time window, no filter on the job's
 * flags (SLURMDB_JOB_FLAG_NOTSET; 0 would ask for flags 0).
 */
static struct error *
nat_history(struct backend_ctx *ctx, int64_t id, struct job_list *list)
{
	slurmdb_job_cond_t	 cond;
	slurm_selected_step_t	 step;
	slurmdb_job_rec_t	*j;
	void			*db, *jobs = NULL, *it;
	int			 e;
	bool			 none;

	memset(&step, 0, sizeof step);
	step.array_task_id = NO_VAL;
	step.het_job_offset = NO_VAL;
	step.step_id.job_id = (uint32_t)id;
	step.step_id.step_id = NO_VAL;
	step.step_id.step_het_comp = NO_VAL;
	memset(&cond, 0, sizeof cond);
	cond.db_flags = SLURMDB_JOB_FLAG_NOTSET;
	cond.flags = JOBCOND_FLAG_NO_STEP | JOBCOND_FLAG_NO_TRUNC;

	nat_hush(ctx);
	/* sacct's test: errno set, slurmdbd not reached; no connection and
	 * no errno, AccountingStorageType=accounting_storage/none. */
	errno = 0;
	db = slurmdb_connection_get(NULL);
	e = errno;
	none = db == NULL && e == 0;
	if (e == 0 && db != NULL) {
		cond.step_list = slurm_list_create(NULL);
		slurm_list_append(cond.step_list, &step);
		errno = 0;
		jobs = slurmdb_jobs_get(db, &cond);
		e = errno;
		slurm_list_destroy(cond.step_list);
	}
	if (db != NULL)
		slurmdb_connection_close(&db);
	nat_unhush(ctx);
	if (none)
		return error_new(EXIT_FAILURE_OP, "accounting: the cluster "
		    "keeps none (AccountingStorageType is "
		    "accounting_storage/none)");
	if (jobs == NULL && e != 0)
		return error_new(EXIT_FAILURE_OP, "accounting: slurmdbd: %s "
		    "(Slurm error %d)", slurm_strerror(e), e);
	if (jobs == NULL)
		return error_new(EXIT_FAILURE_OP, "accounting: slurmdbd did "
		    "not answer");
	it = slurm_list_iterator_create(jobs);
	while ((j = slurm_list_next(it)) != NULL)
		nat_history_fill(j, job_list_add(list));
	slurm_list_iterator_destroy(it);
	slurm_list_destroy(jobs);
	return NULL;
}

/* A node's host name, as slurmctld has it (NodeHostname). */
static struct error *
nat_node_host(struct backend_ctx *ctx, const char *node, char **host)
{
	node_info_msg_t	*resp = NULL;
	char		*name = xstrdup(node);
	uint32_t	 i;
	int		 rc, e;

	*host = NULL;
	nat_hush(ctx);
	rc = slurm_load_node_single(&resp, name, SHOW_ALL);
	e = errno;
	nat_unhush(ctx);
	free(name);
	if (rc != SLURM_SUCCESS)
		return e == ESLURM_INVALID_NODE_NAME ? NULL :
		    nat_slurm_error("node information", e);
	for (i = 0; resp != NULL && i < resp->record_count; i++)
		if (resp->node_array[i].name != NULL &&
		    strcmp(resp->node_array[i].name, node) == 0) {
			*host = nat_str(resp->node_array[i].node_hostname);
			break;
		}
	slurm_free_node_info_msg(resp);
	return NULL;
}

static struct error *
nat_cancel(struct backend_ctx *ctx, int64_t id)
{
	int	 rc, e;

	nat_hush(ctx);
	rc = slurm_kill_job((uint32_t)id, SIGKILL, 0);
	e = errno;
	nat_unhush(ctx);
	/* A job that had ended: Slurm refuses (job_signal() in
	 * slurmctld/job_mgr.c), scancel says so with -v. */
	if (rc != SLURM_SUCCESS && e == ESLURM_ALREADY_DONE)
		return job_done_error(id, slurm_strerror(e));
	if (rc != SLURM_SUCCESS)
		return nat_job_error("cancel", id, e);
	return NULL;
}

static struct error *
nat_find(struct backend_ctx *ctx, const char *name, int64_t *id)
{
	job_info_msg_t	*resp = NULL;
	slurm_job_info_t *j;
	uint32_t	 i;
	int		 rc, e;

	*id = 0;
	nat_hush(ctx);
	rc = slurm_load_jobs(0, &resp, SHOW_ALL);
	e = errno;
	nat_unhush(ctx);
	if (rc != SLURM_SUCCESS)
		return nat_slurm_error("list jobs", e);
	/* The caller's own job (nat_submit sends getuid()), exactly NAME. */
	for (i = 0; i < resp->record_count; i++) {
		j = &resp->job_array[i];
		if (j->user_id == getuid() && j->name != NULL &&
		    strcmp(j->name, name) == 0) {
			*id = j->array_job_id != 0 ? j->array_job_id :
			    j->job_id;
			break;
		}
	}
	slurm_free_job_info_msg(resp);
	return NULL;
}

/* A carried option's line (slurmopt-carried.h). */
static void
nat_describe_SK_STRING(FILE *f, const char *k, const char *v)
{
	if (v != NULL)
		fprintf(f, "#   %-16s %s\n", k, v);
}

static void
nat_describe_SK_NICE(FILE *f, const char *k, int64_t v)
{
	if (v != 0)
		fprintf(f, "#   %-16s %lld\n", k, (long long)v);
}

/* The job description libslurm is given. */
static void
nat_describe(FILE *f, const struct jobdesc *d, const struct submit_opts *so)
{
	const char	*sep;
	char		*tres;
	size_t		 i;

#define STR(k, v) if ((v) != NULL) fprintf(f, "#   %-16s %s\n", k, v)
#define NUM(k, v) if ((v) > 0) fprintf(f, "#   %-16s %lld\n", k, (long long)(v))
	STR("name", d->name);
#define SLURMOPT_SIMPLE(id, option, shortopt, member, ...) \
	STR(#member, d->member);
#include "slurmopt-list.h"
#define SLURMOPT_CARRIED(option, shortopt, arg, kind, ctype, member, check, \
    native, ...) \
	nat_describe_##kind(f, #native, d->member);
#include "slurmopt-carried.h"
	STR("constraint", d->constraint);
	STR("dependency", so->dependency != NULL ? so->dependency :
	    d->dependency);
	NUM("nodes", d->nodes_min);
	if (d->nodes_max != d->nodes_min)
		NUM("nodes (max)", d->nodes_max);
	NUM("ntasks", d->ntasks);
	NUM("ntasks_per_node", d->ntasks_per_node);
	NUM("cpus_per_task", d->cpus_per_task);
	NUM("gpus_per_node", d->gpus_per_node);
	NUM("gres gpu", d->gres_gpus);
	NUM("gpus_per_task", d->gpus_per_task);
	/* What libslurm gets of them, the GRES types in it. */
	if ((tres = jobdesc_tres_per_node(d, nat_tres_prefix(
	    nat_release(NULL)))) != NULL)
		STR("tres_per_node", tres);
	free(tres);
	if (d->mem_mb >= 0)
		fprintf(f, "#   %-16s %lld MiB%s\n", "mem", (long long)d->mem_mb,
		    d->mem_mb == 0 ? " (all)" : "");
	if (d->time_unlimited)
		fprintf(f, "#   %-16s UNLIMITED\n", "time_limit");
	else if (d->time_minutes >= 0)
		fprintf(f, "#   %-16s %lld min\n", "time_limit",
		    (long long)d->time_minutes);
	STR("output", d->output);
	STR("error", d->error);
	if (d->exclusive)
		fprintf(f, "#   %-16s yes\n", "exclusive");
	if (d->requeue >= 0)
		fprintf(f, "#   %-16s %s\n", "requeue", d->requeue ? "yes" : "no");
	if (d->open_mode != 0)
		fprintf(f, "#   %-16s %s\n", "open_mode", d->open_mode == 1 ?
		    "append" : "truncate");
	if (d->hold || so->hold)
		fprintf(f, "#   %-16s yes\n", "hold");
	if (d->signal_num != 0)
		fprintf(f, "#   %-16s %d@%d%s\n", "signal", d->signal_num,
		    d->signal_time, d->signal_batch ? " (batch shell)" : "");
	STR("array", d->array);
	if (d->mail_type != -1) {
		fprintf(f, "#   %-16s", "mail_type");
		for (i = 0, sep = " "; i < slurmopt_mail_ntypes; i++)
			if (d->mail_type & slurmopt_mail_types[i].bit) {
				fprintf(f, "%s%s", sep,
				    slurmopt_mail_types[i].sbatch);
				sep = ",";
			}
		fprintf(f, "%s\n", d->mail_type == 0 ? " NONE" : "");
	}
#undef STR
#undef NUM
}

/* The job description, as nat_submit() would send it, then the script. */
static struct error *
nat_dry_run(const struct backend_opts *o, const struct jobdesc *d,
    const struct jobdesc_context *jc, const struct submit_opts *so,
    int64_t n, FILE *f)
{
	struct jobdesc	 copy;
	struct error	*err;
	char		*tres[2];
	int		 release = nat_release(NULL);

	(void)o;
	(void)jc;
	(void)n;
	if ((err = jobdesc_check_release(d, release)) != NULL)
		return err;
	jobdesc_for_release(&copy, d, so, release, tres);
	fprintf(f, "# job description, from the script's #SBATCH lines:\n");
	nat_describe(f, &copy, so);
	fprintf(f, "# script:\n");
	fputs(d->script, f);
	free(tres[0]);
	free(tres[1]);
	return NULL;
}

/* A count of libslurm's that means none: INFINITE, NO_VAL. */
static int64_t
nat_limit(uint32_t v)
{
	return v == INFINITE || v == NO_VAL ? -1 : (int64_t)v;
}

/* The node count (TRES id 4) of a TRES string "1=4,4=2", or -1. */
static int64_t
nat_tres_nodes(const char *tres)
{
	const char	*p = tres;
	char		*end;
	long long	 id, n;

	while (p != NULL && *p != '\0') {
		id = strtoll(p, &end, 10);
		if (*end == '=' && id == SLURM_TRES_NODE) {
			n = strtoll(end + 1, &end, 10);
			return n >= 0 && n < INFINITE ? n : -1;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return -1;
}

/* Partitions and nodes, as scontrol shows them (slurm_load_partitions,
 * slurm_load_node). */
static struct error *
nat_site_ctld(struct backend_ctx *ctx, struct site *site)
{
	partition_info_msg_t	*parts = NULL;
	node_info_msg_t		*nodes = NULL;
	partition_info_t	*pi;
	struct site_partition	*p;
	node_info_t		*ni;
	char			**fl, **pl;
	uint32_t		 i;
	int			 rc, e;

	nat_hush(ctx);
	rc = slurm_load_partitions(0, &parts, SHOW_ALL);
	e = errno;
	if (rc == SLURM_SUCCESS) {
		rc = slurm_load_node(0, &nodes, SHOW_ALL);
		e = errno;
	}
	nat_unhush(ctx);
	if (rc != SLURM_SUCCESS) {
		slurm_free_partition_info_msg(parts);
		return nat_slurm_error("partition and node information", e);
	}
	site->default_known = true;
	for (i = 0; i < parts->record_count; i++) {
		pi = &parts->partition_array[i];
		if (pi->name == NULL)
			continue;
		p = site_partition_add(site, pi->name);
		p->is_default = (pi->flags & PART_FLAG_DEFAULT) != 0;
		p->max_time = nat_limit(pi->max_time);
		p->max_nodes = nat_limit(pi->max_nodes);
		p->nodes = nat_limit(pi->total_nodes);
		free(p->hostlist);
		p->hostlist = pi->nodes != NULL ? xstrdup(pi->nodes) : NULL;
	}
	for (i = 0; i < nodes->record_count; i++) {
		ni = &nodes->node_array[i];
		if (ni->name == NULL)
			continue;
		fl = siteinfo_csv(ni->features);
		/* node_info_t.partitions is filled by the client
		 * (scontrol's slurm_populate_node_partitions()): without
		 * it, the partitions' hostlists say. */
		pl = siteinfo_csv(ni->partitions);
		siteinfo_add_node(site, ni->name, ni->gres, fl, pl);
		freev(fl);
		freev(pl);
	}
	slurm_free_partition_info_msg(parts);
	slurm_free_node_info_msg(nodes);
	return NULL;
}

/* The QoS, and the user's associations, from slurmdbd as sacctmgr reads
 * them (slurmdb_qos_get, slurmdb_associations_get); accounting that
 * does not answer leaves them not known. */
static void
nat_site_dbd(struct backend_ctx *ctx, struct site *site)
{
	slurmdb_qos_cond_t	 qc;
	slurmdb_assoc_cond_t	 ac;
	slurmdb_qos_rec_t	*q;
	slurmdb_assoc_rec_t	*a;
	struct site_assoc	*sa;
	struct site_qos		*sq;
	void			*db, *qos = NULL, *assocs = NULL, *it, *qit;
	const char		*id, *qname;
	int			 e;

	nat_hush(ctx);
	errno = 0;
	db = slurmdb_connection_get(NULL);
	e = errno;
	if (db != NULL && e == 0) {
		memset(&qc, 0, sizeof qc);
		qos = slurmdb_qos_get(db, &qc);
		memset(&ac, 0, sizeof ac);
		ac.user_list = slurm_list_create(NULL);
		slurm_list_append(ac.user_list, site->user);
		assocs = slurmdb_associations_get(db, &ac);
		slurm_list_destroy(ac.user_list);
	}
	if (db != NULL)
		slurmdb_connection_close(&db);
	nat_unhush(ctx);
	if (qos == NULL) {
		site->no_accounting = xstrdup(e != 0 ? slurm_strerror(e) :
		    "slurmdbd did not answer");
		if (assocs != NULL)
			slurm_list_destroy(assocs);
		return;
	}
	site->qos_known = true;
	it = slurm_list_iterator_create(qos);
	while ((q = slurm_list_next(it)) != NULL) {
		if (q->name == NULL)
			continue;
		sq = site_qos_add(site, q->name);
		sq->max_wall = nat_limit(q->max_wall_pj);
		sq->max_nodes = nat_tres_nodes(q->max_tres_pj);
		sq->max_nodes_user = nat_tres_nodes(q->max_tres_pu);
	}
	slurm_list_iterator_destroy(it);
	if (assocs != NULL) {
		site->assoc_known = true;
		it = slurm_list_iterator_create(assocs);
		while ((a = slurm_list_next(it)) != NULL) {
			if (a->acct == NULL || a->user == NULL ||
			    strcmp(a->user, site->user) != 0)
				continue;
			sa = site_assoc_add(site, a->acct, a->partition !=
			    NULL && *a->partition != '\0' ? a->partition :
			    NULL);
			if (a->qos_list == NULL)
				continue;
			/* qos_list: the ids, as text. */
			qit = slurm_list_iterator_create(a->qos_list);
			while ((id = slurm_list_next(qit)) != NULL) {
				void *ql = slurm_list_iterator_create(qos);

				qname = id;
				while ((q = slurm_list_next(ql)) != NULL)
					if (q->name != NULL && (uint32_t)
					    strtoul(id, NULL, 10) == q->id)
						qname = q->name;
				slurm_list_iterator_destroy(ql);
				site_list_add(&sa->qos, qname);
			}
			slurm_list_iterator_destroy(qit);
		}
		slurm_list_iterator_destroy(it);
		slurm_list_destroy(assocs);
	}
	slurm_list_destroy(qos);
}

static struct error *
nat_site(struct backend_ctx *ctx, struct site *site)
{
	struct error	*err;
	struct passwd	*pw;

	if ((err = nat_site_ctld(ctx, site)) != NULL)
		return err;
	if ((pw = getpwuid(getuid())) == NULL)
		return NULL;
	free(site->user);
	site->user = xstrdup(pw->pw_name);
	nat_site_dbd(ctx, site);
	return NULL;
}

const struct backend backend_native = {
	.name = "native",
	.open = nat_open,
	.submit = nat_submit,
	.will_run = nat_will_run,
	.status = nat_status,
	.history = nat_history,
	.list = nat_list,
	.cancel = nat_cancel,
	.find = nat_find,
	.one_session = true,
	.release = nat_release,
	.node_host = nat_node_host,
	.site = nat_site,
	.close = nat_close,
	.dry_run = nat_dry_run,
};
