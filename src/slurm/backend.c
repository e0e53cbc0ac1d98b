/* backend.c: the back-end table; see backend.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "autoconf.h"

#ifdef HAVE_LIBSLURM
#include <slurm/slurm_version.h>
#endif

#include "backend.h"
#include "error.h"
#include "xmalloc.h"

const struct backend *const backend_table[] = {
	&backend_rest,
#ifdef HAVE_LIBSLURM
	&backend_native,
#endif
	&backend_sbatch,
	NULL
};

const char *const backend_names[] = { BACKEND_NAMES, NULL };

const struct backend *
backend_find(const char *name)
{
	size_t	 i;

	for (i = 0; backend_table[i] != NULL; i++)
		if (strcmp(backend_table[i]->name, name) == 0)
			return backend_table[i];
	return NULL;
}

const char *
backend_list(void)
{
	static char	 list[64];
	size_t		 i;

	if (list[0] != '\0')
		return list;
	for (i = 0; backend_table[i] != NULL; i++)
		snprintf(list + strlen(list), sizeof list - strlen(list),
		    "%s%s", i > 0 ? " " : "", backend_table[i]->name);
	return list;
}

/*
 * The Slurm the native back end was built for: its headers' release
 * and the library it loads ("Slurm 22.05 (libslurm.so.38)"), or NULL.
 */
const char *
backend_native_about(void)
{
#ifdef HAVE_LIBSLURM
	static char	 about[64];

	snprintf(about, sizeof about, "Slurm %02d.%02d (%s)",
	    (int)SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
	    (int)SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER), SLURM_SONAME);
	return about;
#else
	return NULL;
#endif
}

void
submit_result_release(struct submit_result *r)
{
	size_t	 i;

	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	free(r->user);
	memset(r, 0, sizeof *r);
}

void
will_run_release(struct will_run *w)
{
	size_t	 i;

	free(w->nodes);
	free(w->partition);
	free(w->preempts);
	for (i = 0; i < w->nmessages; i++)
		free(w->messages[i]);
	free(w->messages);
	memset(w, 0, sizeof *w);
}

void
job_status_release(struct job_status *s)
{
	free(s->reason);
	free(s->partition);
	free(s->name);
	free(s->node_list);
	free(s->std_out);
	free(s->std_err);
	free(s->work_dir);
	free(s->batch_host);
	free(s->user);
	free(s->array_tasks);
	free(s->dependency);
	free(s->sluid);
	memset(s, 0, sizeof *s);
}

struct job_status *
job_list_add(struct job_list *list)
{
	struct job_status	*s;

	list->v = xreallocarray(list->v, list->n + 1, sizeof *list->v);
	s = &list->v[list->n++];
	memset(s, 0, sizeof *s);
	s->array_task_id = -1;
	return s;
}

void
job_list_release(struct job_list *list)
{
	size_t	 i;

	for (i = 0; i < list->n; i++)
		job_status_release(&list->v[i]);
	free(list->v);
	list->v = NULL;
	list->n = 0;
}

const char *const job_state_base_names[JOB_STATE_NBASE] = {
	"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED",
	"FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL",
	"DEADLINE", "OUT_OF_MEMORY",
};

/* The base state called STATE: its index, or -1. */
static int
base_state(const char *state)
{
	int	 i;

	for (i = 0; i < JOB_STATE_NBASE; i++)
		if (strcmp(state, job_state_base_names[i]) == 0)
			return i;
	return -1;
}

bool
job_state_is_base(const char *state)
{
	return base_state(state) >= 0;
}

bool
job_state_base_ended(const char *state)
{
	/* JOB_COMPLETE (3) on: past PENDING, RUNNING and SUSPENDED. */
	return base_state(state) >= 3;
}

const char *const job_state_flag_names[] = {
	"COMPLETING", "STAGE_OUT", "CONFIGURING", "EXPEDITING", "RESIZING",
	"REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "SPECIAL_EXIT", "STOPPED",
	"REVOKED", "RESV_DEL_HOLD", "SIGNALING", NULL
};

/* slurm.h's NO_VAL and INFINITE, as a time_t of 32 bits held them. */
#define SLURM_NO_VAL	0xfffffffeLL
#define SLURM_INFINITE	0xffffffffLL

int64_t
job_time(int64_t t)
{
	return t == SLURM_NO_VAL || t == SLURM_INFINITE || t < 0 ? 0 : t;
}

int64_t
job_end_time(int64_t end, bool unlimited, bool ended)
{
	return unlimited && !ended ? 0 : end;
}

struct error *
job_done_error(int64_t id, const char *text)
{
	return error_set_kind(error_new(EXIT_FAILURE_OP, "job %lld: already "
	    "ended, not cancelled (Slurm: %s)", (long long)id, text != NULL ?
	    text : SLURM_ALREADY_DONE_TEXT), ERROR_ALREADY_DONE);
}

const char *
job_source_name(enum job_source source)
{
	return source == JOB_SOURCE_DBD ? "slurmdbd" :
	    source == JOB_SOURCE_RECORD ? "record" : "slurmctld";
}

/*
 * Where libslurm looks, in its order (src/common/read_config.c,
 * _establish_config_source(), the same from 22.05 to 25.11): $SLURM_CONF;
 * its built-in file (configure read it from the library); the copy a
 * configless slurmd keeps; then it asks slurmctld, at $SLURM_CONF_SERVER
 * or found in DNS (the native back end looks in DNS when it opens, not
 * here).  1 for a file, 2 for $SLURM_CONF_SERVER, 0 for none.
 */
int
backend_slurm_conf_exists(void)
{
	const char	*conf = getenv("SLURM_CONF");
	const char	*server = getenv("SLURM_CONF_SERVER");

	if (conf != NULL && *conf != '\0')
		return access(conf, R_OK) == 0;
	/* The first file there is the one libslurm reads, or fails on. */
	if (access(SLURM_DEFAULT_CONF, F_OK) == 0)
		return access(SLURM_DEFAULT_CONF, R_OK) == 0;
	if (access(SLURM_CACHED_CONF, F_OK) == 0)
		return access(SLURM_CACHED_CONF, R_OK) == 0;
	return server != NULL && *server != '\0' ? 2 : 0;
}
