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
 * - Lists: List and ListIterator up to 22.05, list_t * and list_itr_t *
 *   since 23.02 (same functions): the back end holds them as void *.
 * - Accounting's job record: std_out and std_err since 24.05, restart_cnt
 *   since 24.11 (HAVE_SLURMDB_JOB_REC_T_*).
 * - The state's name and a TRES count: exported by every release, never
 *   declared (slurm_job_state_string(), slurmdb_find_tres_count_in_string()):
 *   taken when there, NULL otherwise.
 * - The job's SLUID (what %S writes), 25.11: slurm_job_info_t.step_id
 *   and the submit response's step_id are slurm_step_id_t with a sluid
 *   (HAVE_SLURM_JOB_INFO_T_STEP_ID_SLUID).
 */
#ifndef MBSBATCH_SLURM_LOAD_H
#define MBSBATCH_SLURM_LOAD_H

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <slurm/slurmdb.h>

#include "autoconf.h"		/* HAVE_SUBMIT_RESPONSE_MSG_T_JOB_ID */

struct error;

struct slurm_fns {
	__typeof__(&slurm_init)		 init;
	__typeof__(&slurm_fini)		 fini;
	__typeof__(&slurm_submit_batch_job) submit_batch_job;
	__typeof__(&slurm_free_submit_response_response_msg)
					 free_submit_response_response_msg;
	__typeof__(&slurm_init_job_desc_msg) init_job_desc_msg;
	__typeof__(&slurm_job_will_run2) job_will_run2;
	__typeof__(&slurm_load_job)	 load_job;
	__typeof__(&slurm_load_jobs)	 load_jobs;
	__typeof__(&slurm_load_job_user) load_job_user;
	__typeof__(&slurm_free_job_info_msg) free_job_info_msg;
	__typeof__(&slurm_load_node_single) load_node_single;
	__typeof__(&slurm_free_node_info_msg) free_node_info_msg;
	__typeof__(&slurm_kill_job)	 kill_job;
	__typeof__(&slurm_load_partitions) load_partitions;
	__typeof__(&slurm_free_partition_info_msg) free_partition_info_msg;
	__typeof__(&slurm_load_node)	 load_node;
	__typeof__(&slurm_strerror)	 strerror;
	__typeof__(&slurm_api_version)	 api_version;
	__typeof__(&slurm_list_create)	 list_create;
	__typeof__(&slurm_list_append)	 list_append;
	__typeof__(&slurm_list_destroy)	 list_destroy;
	__typeof__(&slurm_list_iterator_create) list_iterator_create;
	__typeof__(&slurm_list_next)	 list_next;
	__typeof__(&slurm_list_iterator_destroy) list_iterator_destroy;
	/* Accounting (slurmdbd), as sacct reads it. */
	__typeof__(&slurmdb_connection_get) db_connection_get;
	__typeof__(&slurmdb_connection_close) db_connection_close;
	__typeof__(&slurmdb_jobs_get)	 db_jobs_get;
	__typeof__(&slurmdb_qos_get)	 db_qos_get;
	__typeof__(&slurmdb_associations_get) db_associations_get;
	/* Exported, but not declared by slurm.h; NULL if absent. */
	const char			*(*job_reason_string)(
					    enum job_state_reason);
	/* Frees slurm_job_will_run2()'s answer (src/common/
	 * slurm_protocol_defs.c: its argument a will_run_response_msg_t *
	 * up to 25.05, a void * since). */
	void				 (*free_will_run_response_msg)(void *);
	/* job_state_string(), the name scontrol and sacct print for a
	 * job's state, flags first (src/common/slurm_protocol_defs.c). */
	const char			*(*job_state_string)(uint32_t);
	/* The count of TRES ID in a TRES string "1=2,4=1", INFINITE64
	 * when it has none (src/common/slurmdb_defs.c), as sacct reads
	 * a job's node count. */
	uint64_t			 (*db_find_tres_count_in_string)(
					    char *, int);
};

/* slurmdb_defs.h's TRES_NODE: the id of the node TRES. */
#define SLURM_TRES_NODE	4

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
#define slurm_job_will_run2		slurm_fns.job_will_run2
#define slurm_free_will_run_response_msg \
	slurm_fns.free_will_run_response_msg
#define slurm_load_job			slurm_fns.load_job
#define slurm_load_jobs			slurm_fns.load_jobs
#define slurm_load_job_user		slurm_fns.load_job_user
#define slurm_free_job_info_msg		slurm_fns.free_job_info_msg
#define slurm_load_node_single		slurm_fns.load_node_single
#define slurm_free_node_info_msg	slurm_fns.free_node_info_msg
#define slurm_kill_job			slurm_fns.kill_job
#define slurm_load_partitions		slurm_fns.load_partitions
#define slurm_free_partition_info_msg	slurm_fns.free_partition_info_msg
#define slurm_load_node			slurm_fns.load_node
#define slurm_strerror			slurm_fns.strerror
#define slurm_api_version		slurm_fns.api_version
#define slurm_list_create		slurm_fns.list_create
#define slurm_list_append		slurm_fns.list_append
#define slurm_list_destroy		slurm_fns.list_destroy
#define slurm_list_iterator_create	slurm_fns.list_iterator_create
#define slurm_list_next			slurm_fns.list_next
#define slurm_list_iterator_destroy	slurm_fns.list_iterator_destroy
#define slurmdb_connection_get		slurm_fns.db_connection_get
#define slurmdb_connection_close	slurm_fns.db_connection_close
#define slurmdb_jobs_get		slurm_fns.db_jobs_get
#define slurmdb_qos_get			slurm_fns.db_qos_get
#define slurmdb_associations_get	slurm_fns.db_associations_get
#endif

#endif
