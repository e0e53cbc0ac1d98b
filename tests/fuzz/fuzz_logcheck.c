/*
 * fuzz_logcheck.c: a training log through the scanner and the verdict
 * (src/logs/logscan.c, src/logs/pyformat.c, src/logs/logcheck.c, src/logs/logcheck-report.c).
 * The first byte picks the chunk size the rest is fed in; the same bytes
 * fed whole must read the same, and so must they with every run of NUL
 * bytes fed as a hole (logscan_feed_zeros(), a sparse file's); the
 * reports (JSON, text) must build with every documented key.
 */
#include <stdio.h>

#include <jansson.h>

#include "error.h"
#include "fuzz.h"
#include "logcheck.h"

/* Feed DATA in chunks of STEP bytes; HOLES: runs of NUL as holes. */
static void
judge(const uint8_t *data, size_t size, size_t step, bool holes,
    struct logcheck *lc)
{
	struct error	*err;
	size_t		 off, n, z;

	logcheck_begin(lc);
	for (off = 0; off < size; off += n) {
		n = size - off < step ? size - off : step;
		if (holes && data[off] == '\0') {
			for (z = off; z < size && data[z] == '\0'; z++)
				;
			n = z - off;
			logscan_feed_zeros(&lc->scan, n);
			continue;
		}
		if (holes) {
			const uint8_t *nul = memchr(data + off, '\0', n);

			if (nul != NULL)
				n = (size_t)(nul - (data + off));
		}
		logscan_feed(&lc->scan, (const char *)data + off, n);
	}
	if ((err = logcheck_end(lc, NULL, NULL)) != NULL)
		abort();	/* no job: nothing can stop it */
}

static bool
same(const struct logcheck *a, const struct logcheck *b)
{
	return a->scan.lines == b->scan.lines &&
	    a->scan.it.logged == b->scan.it.logged &&
	    a->scan.it.last == b->scan.it.last &&
	    a->scan.fatal.kind == b->scan.fatal.kind &&
	    a->scan.fatal.line == b->scan.fatal.line &&
	    a->scan.recognised == b->scan.recognised &&
	    a->scan.malformed == b->scan.malformed &&
	    a->scan.nul_bytes == b->scan.nul_bytes &&
	    a->scan.long_lines == b->scan.long_lines &&
	    a->scan.bytes == b->scan.bytes &&
	    a->status == b->status &&
	    strcmp(a->scan.fatal.text, b->scan.fatal.text) == 0 &&
	    strcmp(a->scan.malformed_what, b->scan.malformed_what) == 0;
}

/* Whether O is an object with exactly the N keys K. */
static bool
keys(json_t *o, const char *const *k, size_t n)
{
	size_t	 i;

	if (!json_is_object(o) || json_object_size(o) != n)
		return false;
	for (i = 0; i < n; i++)
		if (json_object_get(o, k[i]) == NULL)
			return false;
	return true;
}
#define KEYS(o, ...) keys((o), (const char *const[]){ __VA_ARGS__ }, \
	sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))

/* mbsbatch-check-log(1)'s keys, every one there. */
static bool
documented(json_t *j)
{
	json_t	*f = json_object_get(j, "fatal");

	return KEYS(j, "log", "verdict", "status", "reasons", "lines", "bytes",
	    "hole_bytes", "malformed_lines", "framework", "smoke",
	    "iterations", "loss", "step_time", "throughput", "learning_rate",
	    "grad_norm", "memory", "layout", "fatal", "fatal_lines",
	    "estimate") &&
	    KEYS(json_object_get(j, "iterations"), "last", "expected",
	    "expected_from", "logged", "skipped", "nan", "first_nan_line",
	    "restarts") &&
	    KEYS(json_object_get(j, "loss"), "last", "last_finite", "first",
	    "first_iteration") &&
	    KEYS(json_object_get(j, "step_time"), "median_ms", "last_ms",
	    "samples", "warmup_skipped") &&
	    KEYS(json_object_get(j, "layout"), "verdict", "planned",
	    "planned_from", "used", "used_from", "world_from", "mismatches") &&
	    (json_is_null(f) || (KEYS(f, "kind", "line", "rank", "iteration",
	    "text", "frame", "detail", "hint", "after_end") &&
	    json_string_value(json_object_get(f, "text")) != NULL));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct logcheck	 whole, cut, holes;
	static FILE		*null;
	json_t			*j;
	char			*s;
	size_t			 step;

	if (size == 0)
		return 0;
	step = 1 + data[0] % 64;
	judge(data + 1, size - 1, size, false, &whole);
	judge(data + 1, size - 1, step, false, &cut);
	judge(data + 1, size - 1, step, true, &holes);
	if (!same(&whole, &cut) || !same(&whole, &holes))
		abort();
	/* Every key there, the cause's text valid UTF-8 whatever the input. */
	j = logcheck_json("fuzz", &cut);
	if ((s = json_dumps(j, 0)) == NULL || !documented(j))
		abort();
	free(s);
	json_decref(j);
	if (null == NULL && (null = fopen("/dev/null", "w")) == NULL)
		abort();
	logcheck_print(null, "fuzz", &cut);
	return 0;
}
