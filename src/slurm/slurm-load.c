/*
 * slurm-load.c: libslurm, loaded when first needed; see slurm-load.h.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

#define SLURM_LOAD_NO_RENAME
#include "slurm-load.h"
#include "dlib.h"
#include "error.h"

#include "autoconf.h"

struct slurm_fns	 slurm_fns;

/* Where configure found the library; tried when the soname is not found. */
#ifndef SLURM_LIBDIR
#define SLURM_LIBDIR	NULL
#endif

struct error *
slurm_load(void)
{
	static void	*lib;
	static const struct dlib_sym syms[] = {
#define SYM(f, opt) { "slurm_" #f, offsetof(struct slurm_fns, f), opt }
		SYM(init, 0),
		SYM(fini, 0),
		SYM(submit_batch_job, 0),
		SYM(free_submit_response_response_msg, 0),
		SYM(init_job_desc_msg, 0),
		SYM(job_will_run2, 0),
		SYM(load_job, 0),
		SYM(load_jobs, 0),
		SYM(free_job_info_msg, 0),
		SYM(load_node_single, 0),
		SYM(free_node_info_msg, 0),
		SYM(kill_job, 0),
		SYM(load_partitions, 0),
		SYM(free_partition_info_msg, 0),
		SYM(load_node, 0),
		SYM(strerror, 0),
		SYM(api_version, 0),
		SYM(load_job_user, 0),
		SYM(list_create, 0),
		SYM(list_append, 0),
		SYM(list_destroy, 0),
		SYM(list_iterator_create, 0),
		SYM(list_next, 0),
		SYM(list_iterator_destroy, 0),
#undef SYM
#define SYM(f) { "slurmdb_" #f, offsetof(struct slurm_fns, db_ ## f), 0 }
		SYM(connection_get),
		SYM(connection_close),
		SYM(jobs_get),
		SYM(qos_get),
		SYM(associations_get),
#undef SYM
		/* The reason's text, by its name in each release. */
		{ "slurm_job_state_reason_string",
		    offsetof(struct slurm_fns, job_reason_string), 1 },
		{ "slurm_job_reason_string",
		    offsetof(struct slurm_fns, job_reason_string), 1 },
		{ "slurm_free_will_run_response_msg",
		    offsetof(struct slurm_fns, free_will_run_response_msg), 1 },
		{ "slurm_job_state_string",
		    offsetof(struct slurm_fns, job_state_string), 1 },
		{ "slurmdb_find_tres_count_in_string",
		    offsetof(struct slurm_fns, db_find_tres_count_in_string), 1 },
	};
	struct error	*err;
	long		 api;
	char		 hint[256];

	if (lib != NULL)
		return NULL;
	snprintf(hint, sizeof hint, "mbsbatch was built for Slurm %d.%02d (%s): "
	    "use --via rest or --via sbatch, or build mbsbatch against this "
	    "Slurm", SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
	    SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER), SLURM_SONAME);
	if ((err = dlib_load_dir(&lib, "libslurm", SLURM_SONAME, SLURM_LIBDIR,
	    RTLD_NOW | RTLD_GLOBAL, syms, sizeof syms / sizeof syms[0],
	    &slurm_fns, hint)) != NULL)
		return err;

	/*
	 * slurm_api_version() is the library's API (its soname's number,
	 * auxdir/slurm.m4: API_CURRENT - API_AGE), not the release.
	 */
	api = SLURM_VERSION_MAJOR(slurm_fns.api_version());
	if (api != SLURM_API) {
		dlclose(lib);
		lib = NULL;
		return error_hint(error_new(EXIT_FAILURE_OP, "libslurm: %s is "
		    "API %ld, not %d as the Slurm %d.%02d headers mbsbatch was "
		    "built with", SLURM_SONAME, api, SLURM_API,
		    SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
		    SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER)), "%s", hint);
	}
	return NULL;
}
