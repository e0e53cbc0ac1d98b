/* fuzz_tmpl.c: the template renderer, over a context like gen's. */
#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "fuzz.h"
#include "tmpl.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static json_t	*ctx;
	struct error	*err;
	struct buf	 out;
	char		*text = fuzz_string(data, size);

	/* header.figures: 8 lines, as gen's, for nested-section bombs. */
	if (ctx == NULL)
		ctx = json_pack("{s:s,s:i,s:b,s:n,s:[s,s],s:{s:s,s:[{s:s}]},"
		    "s:s,s:{s:[ssssssss]}}", "name", "job", "tp", 8, "sp", 1,
		    "none", "list", "a", "b c", "slurm", "time", "01:00:00",
		    "env", "name", "X", "quote", "'\"$(x)`;#\\", "header",
		    "figures", "tp 8", "pp 1", "cp 1", "ep 1", "dp 1", "world 8",
		    "nodes 1", "tasks 8");
	buf_init(&out);
	if ((err = tmpl_render("fuzz", text, ctx, &out)) != NULL)
		error_free(err);
	if ((err = tmpl_check("fuzz", text)) != NULL)
		error_free(err);
	buf_release(&out);
	free(text);
	return 0;
}
