/*
 * fuzz_squeue.c: what squeue prints as the sbatch back end reads it
 * (jobtext_squeue, jobtext_squeue_find): 22.05's fixed columns or
 * 25.11's JSON, with the dependencies of what it read followed as cancel
 * --chain follows them (dependency_closure).  The first byte picks the
 * release (bit 0: 25.11) and what is asked (bits 1-2): job 11, root's
 * jobs, every job, root's job named "x".
 */
#include "backend.h"
#include "dependency.h"
#include "error.h"
#include "fuzz.h"
#include "jobtext.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_list	 list = { NULL, 0 };
	struct error	*err;
	const char	*text = (const char *)data + 1;
	int64_t		 id, *ids, *after;
	size_t		 n;
	int		 release;

	if (size == 0)
		return 0;
	release = data[0] & 1 ? 2511 : 2205;
	switch ((data[0] >> 1) & 3) {
	case 0:
		err = jobtext_squeue(release, text, size - 1, 11, -1, &list);
		break;
	case 1:
		err = jobtext_squeue(release, text, size - 1, 0, 0, &list);
		break;
	case 2:
		err = jobtext_squeue(release, text, size - 1, 0, -1, &list);
		break;
	default:
		err = jobtext_squeue_find(release, text, size - 1, "x", 0,
		    &id);
		break;
	}
	error_free(err);
	if (list.n > 0) {
		dependency_closure(&list, list.v[0].job_id, &ids, &after, &n);
		free(ids);
		free(after);
	}
	job_list_release(&list);
	return 0;
}
