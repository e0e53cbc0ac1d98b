/* fuzz_logpath.c: a job's --output pattern, expanded as each release's
 * slurmstepd would, and its directory; the first byte picks the release
 * and the job (queued or not). */
#include "fuzz.h"
#include "logpath.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int	 releases[] = { 2205, 2411, 2505, 2511, 0 };
	struct logpath_job	 j = { 0 };
	char			*s, *path, *dir;
	bool			 complete, known;

	if (size == 0)
		return 0;
	j.release = releases[data[0] % 5];
	j.job_id = data[0] & 0x08 ? 0 : 4294967295U;
	j.array_job_id = data[0] & 0x10 ? 7 : 0;
	j.array_task_id = data[0] & 0x10 ? 4000000000U : LOGPATH_NO_TASK;
	j.restart_cnt = 4294967295U;
	j.name = "n%j\\";
	j.user = "u";
	j.node = data[0] & 0x20 ? NULL : "node0";
	j.node_host = data[0] & 0x20 ? NULL : data[0] & 0x04 ? "h.d.e" : ".";
	j.sluid = data[0] & 0x02 ? "s355M96FDBCR00" : NULL;
	j.work_dir = data[0] & 0x40 ? NULL : data[0] & 0x80 ? "/" : "/w";
	s = fuzz_string(data + 1, size - 1);
	path = logpath_expand(s, &j, &complete);
	dir = logpath_dir(s, &j, &known);
	/* The directory is the path's, less its last component. */
	if (dir != NULL && strncmp(dir, path, strlen(dir)) != 0)
		abort();
	free(dir);
	free(path);
	free(s);
	return 0;
}
