/* fuzz_sacct.c: what sacct prints in columns of fixed widths, as the
 * sbatch back end reads it (jobtext_sacct); the first byte picks the
 * release, whose columns differ. */
#include "backend.h"
#include "error.h"
#include "fuzz.h"
#include "jobtext.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int releases[] = { 0, 2205, 2405, 2511 };
	struct job_list	 list = { NULL, 0 };
	struct error	*err;

	if (size == 0)
		return 0;
	err = jobtext_sacct(releases[data[0] & 3], (const char *)data + 1,
	    size - 1, &list);
	error_free(err);
	job_list_release(&list);
	return 0;
}
