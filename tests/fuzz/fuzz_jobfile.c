/* fuzz_jobfile.c: a job file: JSON with positions, then every setting. */
#include <jansson.h>

#include "error.h"
#include "fuzz.h"
#include "jsondoc.h"
#include "settings.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsondoc	 doc;
	struct settings	 set;
	struct error	*err;
	char		*text = fuzz_string(data, size);

	if ((err = jsondoc_load_string(&doc, text, "job file")) != NULL) {
		error_free(err);
		free(text);
		return 0;
	}
	settings_init(&set);
	if (json_is_object(doc.root) && (err = settings_from_json(&set, &doc,
	    doc.root, NULL, SF_JOB, ORIGIN_JOB)) != NULL)
		error_free(err);
	settings_release(&set);
	jsondoc_release(&doc);
	free(text);
	return 0;
}
