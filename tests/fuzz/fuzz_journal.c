/*
 * fuzz_journal.c: a sweep's journal, as --resume and cancel --journal
 * read it: split into records, then checked into a plan, both for any
 * sweep (cancel) and against a sweep of 4 points over one axis (resume).
 */
#include <jansson.h>

#include "error.h"
#include "fuzz.h"
#include "journal.h"
#include "resume.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct resume_plan	 plan;
	struct error		*err;
	json_t			*lines, *grid;
	size_t			 whole;

	if ((err = journal_parse("fuzz", (const char *)data, size, &lines,
	    &whole)) != NULL) {
		error_free(err);
		return 0;
	}
	if (whole > size)
		abort();
	if ((err = resume_plan("fuzz", lines, NULL, -1, &plan)) == NULL)
		resume_plan_release(&plan);
	error_free(err);
	grid = json_loads("[[\"tp\",[\"1\",\"2\",\"4\",\"8\"]]]", 0, NULL);
	if ((err = resume_plan("fuzz", lines, grid, 4, &plan)) == NULL) {
		if (plan.npoints != 4 || !resume_id_valid(plan.id))
			abort();
		resume_plan_release(&plan);
	}
	error_free(err);
	json_decref(grid);
	json_decref(lines);
	return 0;
}
