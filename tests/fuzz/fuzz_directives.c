/* fuzz_directives.c: a batch script's #SBATCH lines, read as sbatch
 * reads them, for the REST and native back ends and for sbatch's; then
 * the job each release would get of what was read (jobdesc_for_release,
 * its environment, its counts and a REST body of each shape). */
#include <jansson.h>

#include "error.h"
#include "fuzz.h"
#include "jobdesc.h"
#include "rest.h"
#include "sbatch-directives.h"
#include "xmalloc.h"

/* The releases whose rules differ: before and after 23.02, 23.11,
 * 25.05. */
static const int releases[] = { 2205, 2302, 2311, 2505, 0 };

static void
as_sent(const struct jobdesc *d)
{
	static char *const env[] = { "PATH=/bin", "SBATCH_X=1", NULL };
	struct jobdesc_context	 jc = { "/tmp", env, NULL, NULL, 0 };
	struct jobdesc_counts	 c;
	struct jobdesc		 copy;
	struct error		*err;
	char			*tres[2], **e;
	json_t			*body;
	size_t			 i;

	for (i = 0; i < sizeof releases / sizeof releases[0]; i++) {
		if ((err = jobdesc_check_release(d, releases[i])) != NULL) {
			error_free(err);
			continue;
		}
		jobdesc_for_release(&copy, d, NULL, releases[i], tres);
		jc.release = releases[i];
		e = jobdesc_env(&copy, &jc, NULL);
		jobdesc_counts(&copy, &c);
		if ((err = rest_submit_body(i == 0 ? REST_V0_0_38 :
		    REST_V0_0_44, &copy, e, "/tmp", &body)) != NULL)
			error_free(err);
		else
			json_decref(body);
		freev(e);
		free(tres[0]);
		free(tres[1]);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jobdesc	 d;
	struct error	*err;
	char		*text = fuzz_string(data, size);
	int		 sbatch;

	for (sbatch = 0; sbatch <= 1; sbatch++) {
		jobdesc_init(&d);
		if ((err = sbatch_directives_parse("fuzz", text, sbatch,
		    &d)) != NULL)
			error_free(err);
		else
			as_sent(&d);
		jobdesc_release(&d);
	}
	free(text);
	return 0;
}
