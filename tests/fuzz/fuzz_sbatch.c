/*
 * fuzz_sbatch.c: what the sbatch back end reads of its other clients'
 * words: sbatch --parsable's job id, sbatch's warnings, sbatch --version,
 * a client's error message (jobtext.h); the first byte picks which.
 */
#include "error.h"
#include "fuzz.h"
#include "jobtext.h"
#include "xmalloc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s, *m, **v;
	int64_t	 id;

	if (size == 0)
		return 0;
	s = fuzz_string(data + 1, size - 1);
	switch (data[0] & 3) {
	case 0:
		error_free(jobtext_sbatch_id(s, &id));
		break;
	case 1:
		v = jobtext_sbatch_warnings(s);
		freev(v);
		break;
	case 2:
		(void)jobtext_release(s);
		break;
	default:
		m = jobtext_client_message(s, "squeue");
		free(m);
		break;
	}
	free(s);
	return 0;
}
