/* fuzz_directives.c: a batch script's #SBATCH lines, read as sbatch
 * reads them, for the REST and native back ends and for sbatch's. */
#include "error.h"
#include "fuzz.h"
#include "jobdesc.h"
#include "sbatch-directives.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jobdesc	 d;
	struct error	*err;
	char		*text = fuzz_string(data, size);
	int		 sbatch;

	for (sbatch = 0; sbatch <= 1; sbatch++) {
		jobdesc_init(&d);
		if ((err = sbatch_directives_parse("fuzz", text, sbatch,
		    &d)) != NULL)
			error_free(err);
		jobdesc_release(&d);
	}
	free(text);
	return 0;
}
