/*
 * slurm-load.h: libslurm, loaded by the native back end when it first
 * opens, as libcurl is by the REST one (curl-load.h): linked in, its
 * relocations cost every mbsbatch process about 0.3 ms, a fifth of what
 * mbsbatch gen takes, and gen never talks to Slurm.  The native back end
 * includes this after <slurm/slurm.h> and calls libslurm by its usual
 * names.
 */
#ifndef MBSBATCH_SLURM_LOAD_H
#define MBSBATCH_SLURM_LOAD_H

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

struct error;

struct slurm_fns {
	__typeof__(&slurm_init)		 init;
	__typeof__(&slurm_fini)		 fini;
	__typeof__(&slurm_submit_batch_job) submit_batch_job;
	__typeof__(&slurm_free_submit_response_response_msg)
					 free_submit_response_response_msg;
	__typeof__(&slurm_init_job_desc_msg) init_job_desc_msg;
	__typeof__(&slurm_load_job)	 load_job;
	__typeof__(&slurm_load_jobs)	 load_jobs;
	__typeof__(&slurm_free_job_info_msg) free_job_info_msg;
	__typeof__(&slurm_kill_job)	 kill_job;
	__typeof__(&slurm_strerror)	 strerror;
	__typeof__(&slurm_get_errno)	 get_errno;
	/* Exported, but not declared by every slurm.h; NULL if absent. */
	char				*(*job_reason_string)(
					    enum job_state_reason);
};

extern struct slurm_fns slurm_fns;

/* Load libslurm (once; thread-unsafe: call before starting threads). */
struct error	*slurm_load(void);

/* slurm-load.c defines this: it loads the real names. */
#ifndef SLURM_LOAD_NO_RENAME
#define slurm_init			slurm_fns.init
#define slurm_fini			slurm_fns.fini
#define slurm_submit_batch_job		slurm_fns.submit_batch_job
#define slurm_free_submit_response_response_msg \
	slurm_fns.free_submit_response_response_msg
#define slurm_init_job_desc_msg		slurm_fns.init_job_desc_msg
#define slurm_load_job			slurm_fns.load_job
#define slurm_load_jobs			slurm_fns.load_jobs
#define slurm_free_job_info_msg		slurm_fns.free_job_info_msg
#define slurm_kill_job			slurm_fns.kill_job
#define slurm_strerror			slurm_fns.strerror
#define slurm_get_errno			slurm_fns.get_errno
#endif

#endif
