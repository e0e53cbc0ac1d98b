/* fuzz_jobtext.c: what scontrol show job --oneliner and sacct print, as
 * the sbatch back end reads it; the first byte picks the reader. */
#include "backend.h"
#include "error.h"
#include "fuzz.h"
#include "jobtext.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_list	 list = { NULL, 0 };
	struct error	*err;
	char		*s;

	if (size == 0)
		return 0;
	s = fuzz_string(data + 1, size - 1);
	if (data[0] & 1)
		err = jobtext_sacct(s, &list);
	else
		err = jobtext_scontrol(s, data[0] & 2 ? 0 : -1, &list);
	if (err != NULL)
		error_free(err);
	job_list_release(&list);
	free(s);
	return 0;
}
