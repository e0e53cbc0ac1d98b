/*
 * fuzz_logcheck.c: a training log through the scanner and the verdict
 * (src/logscan.c, src/logcheck.c, src/logcheck-report.c).  The first byte
 * picks the chunk size the rest is fed in; the same bytes fed whole must
 * read the same, and the reports (JSON, text) must build.
 */
#include <stdio.h>

#include <jansson.h>

#include "error.h"
#include "fuzz.h"
#include "logcheck.h"

static void
judge(const uint8_t *data, size_t size, size_t step, struct logcheck *lc)
{
	struct error	*err;
	size_t		 off;

	logscan_init(&lc->scan);
	for (off = 0; off < size; off += step)
		logscan_feed(&lc->scan, (const char *)data + off,
		    size - off < step ? size - off : step);
	logscan_finish(&lc->scan);
	if ((err = logcheck_judge(lc, NULL, NULL)) != NULL)
		abort();	/* no job: nothing can stop it */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct logcheck	 whole, cut;
	static FILE		*null;
	json_t			*j;
	char			*s;
	size_t			 step;

	if (size == 0)
		return 0;
	step = 1 + data[0] % 64;
	judge(data + 1, size - 1, size, &whole);
	judge(data + 1, size - 1, step, &cut);
	if (whole.scan.lines != cut.scan.lines ||
	    whole.scan.it.logged != cut.scan.it.logged ||
	    whole.scan.it.last != cut.scan.it.last ||
	    whole.scan.fatal.kind != cut.scan.fatal.kind ||
	    whole.scan.fatal.line != cut.scan.fatal.line ||
	    whole.scan.recognised != cut.scan.recognised ||
	    whole.status != cut.status ||
	    strcmp(whole.scan.fatal.text, cut.scan.fatal.text) != 0)
		abort();
	/* Every key there, the cause's text valid UTF-8 whatever the input. */
	j = logcheck_json("fuzz", &cut);
	if ((s = json_dumps(j, 0)) == NULL || json_object_size(j) != 19 ||
	    (cut.scan.fatal.kind != LC_NONE && (json_string_value(
	    json_object_get(json_object_get(j, "fatal"), "text")) == NULL ||
	    json_object_size(json_object_get(j, "fatal")) != 7)))
		abort();
	free(s);
	json_decref(j);
	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		abort();
	logcheck_print(null, "fuzz", &cut);
	return 0;
}
