/* fuzz_jobref.c: a job as the user names it ("123_4") and an array's
 * task list as Slurm writes it ("1,3,5-9:2%4"). */
#include "fuzz.h"
#include "jobref.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_ref	 ref;
	char		*s = fuzz_string(data, size);

	(void)job_ref_parse(s, &ref);
	if (array_tasks_count(s) < -1)
		abort();
	(void)array_tasks_has(s, 7);
	free(array_tasks_from_mask(s, 3));
	free(s);
	return 0;
}
