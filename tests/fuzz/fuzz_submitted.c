/* fuzz_submitted.c: a line of the record of submitted jobs (a file any
 * crash, disk or hand may have cut or garbled), read back: never a crash,
 * and a line read as a record writes back as one that reads the same. */
#include "fuzz.h"
#include "submitted.h"

static int
same(const char *a, const char *b)
{
	return a == NULL ? b == NULL : b != NULL && strcmp(a, b) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct submitted	 s, t;
	char			*line, *again;

	line = fuzz_string(data, size);
	if (submitted_parse(line, &s)) {
		if ((again = submitted_format(&s)) == NULL ||
		    !submitted_parse(again, &t))
			abort();
		if (s.job_id != t.job_id || s.time != t.time ||
		    s.release != t.release || s.err_with_out != t.err_with_out ||
		    !same(s.name, t.name) || !same(s.workdir, t.workdir) ||
		    !same(s.out.pattern, t.out.pattern) ||
		    !same(s.out.path, t.out.path) ||
		    !same(s.err.pattern, t.err.pattern) ||
		    !same(s.cluster, t.cluster) || !same(s.array, t.array))
			abort();
		submitted_release(&t);
		submitted_release(&s);
		free(again);
	}
	free(line);
	return 0;
}
