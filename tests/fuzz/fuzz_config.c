/* fuzz_config.c: a config file: clusters, profiles, defaults. */
#include "config.h"
#include "error.h"
#include "fuzz.h"
#include "jsondoc.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsondoc	 doc;
	struct config	 cfg;
	struct error	*err;
	const struct config_cluster *c;
	char		*text = fuzz_string(data, size);

	if ((err = jsondoc_load_string(&doc, text, "config file")) != NULL) {
		error_free(err);
		free(text);
		return 0;
	}
	config_init(&cfg);
	if ((err = config_load_doc(&cfg, &doc, "/nonexistent")) != NULL)
		error_free(err);
	else if (cfg.default_cluster != NULL &&
	    (err = config_cluster(&cfg, cfg.default_cluster, &c)) != NULL)
		error_free(err);
	config_release(&cfg);
	jsondoc_release(&doc);
	free(text);
	return 0;
}
