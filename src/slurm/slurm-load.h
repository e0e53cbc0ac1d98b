/*
 * slurm-load.h: libslurm, loaded by the native back end when it first
 * opens, as libcurl is by the REST one (curl-load.h): linked in, its
 * relocations cost every mbsbatch process about 0.3 ms, a fifth of what
 * mbsbatch gen takes, and gen never talks to Slurm.  The native back end
 * includes this after <slurm/slurm.h> and calls libslurm by its usual
 * names.
 *
 * The native back end builds against the headers of Slurm 22.05 to
 * 25.11; what differs between them is bridged here, chosen by configure
 * from the header itself (HAVE_*), not from a version number:
 *
 * - Errors: every release sets errno, which is what sbatch reads
 *   (src/sbatch/sbatch.c); 22.05's slurm_get_errno() only returned it
 *   (src/common/slurm_errno.c:641), and 24.11 removed it (commit
 *   c728b40c6f).  Read errno, right after the call.
 * - The submit response's job id: submit_response_msg_t.job_id up to
 *   25.05, submit_response_msg_t.step_id.job_id since 25.11
 *   (slurm/slurm.h:3269 at slurm-25-11-7-1).  Up to 25.05 step_id is
 *   another field, a uint32_t, so configure looks for job_id.
 * - The state reason's text: exported but not declared, as
 *   slurm_job_reason_string() up to 23.11 and
 *   slurm_job_state_reason_string() since 24.05 (slurm_xlator.h);
 *   slurm_load() takes whichever the library has.
 */
#ifndef MBSBATCH_SLURM_LOAD_H
#define MBSBATCH_SLURM_LOAD_H

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "autoconf.h"		/* HAVE_SUBMIT_RESPONSE_MSG_T_JOB_ID */

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
	__typeof__(&slurm_api_version)	 api_version;
	/* Exported, but not declared by slurm.h; NULL if absent. */
	const char			*(*job_reason_string)(
					    enum job_state_reason);
};

extern struct slurm_fns slurm_fns;

/*
 * Load libslurm (once; thread-unsafe: call before starting threads) by
 * the soname configure read, else from the directory configure found it
 * in, and check that it is the API the headers were for.
 */
struct error	*slurm_load(void);

/* The job id of a submit_response_msg_t *. */
#ifdef HAVE_SUBMIT_RESPONSE_MSG_T_JOB_ID
#define SLURM_SUBMIT_JOB_ID(resp)	((resp)->job_id)
#else
#define SLURM_SUBMIT_JOB_ID(resp)	((resp)->step_id.job_id)
#endif

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
#define slurm_api_version		slurm_fns.api_version
#endif

#endif
