/*
 * slurm-load.c: libslurm, loaded when first needed; see slurm-load.h.
 */
#include <dlfcn.h>
#include <stddef.h>

#define SLURM_LOAD_NO_RENAME
#include "slurm-load.h"
#include "dlib.h"
#include "error.h"

#include "autoconf.h"

struct slurm_fns	 slurm_fns;

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
		SYM(load_job, 0),
		SYM(load_jobs, 0),
		SYM(free_job_info_msg, 0),
		SYM(kill_job, 0),
		SYM(strerror, 0),
		SYM(get_errno, 0),
		SYM(job_reason_string, 1),
#undef SYM
	};

	return dlib_load(&lib, "libslurm", SLURM_SONAME, RTLD_NOW | RTLD_GLOBAL,
	    syms, sizeof syms / sizeof syms[0], &slurm_fns, "mbsbatch was "
	    "built against this Slurm's library; use --via rest or --via "
	    "sbatch");
}
