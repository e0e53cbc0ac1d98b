/*
 * The modules of Megatron's selective recompute (memory.h): which a
 * recipe names.  recomputes(), whether one is recomputed, is memory.h's.
 */

#include <stdbool.h>
#include <string.h>

#include "memory.h"

static const struct {
	const char	*name;
	unsigned	 bit;
} modules[] = {
	{ "moe_act", RECOMPUTE_MOE_ACT },
	{ "core_attn", RECOMPUTE_CORE_ATTN },
	{ "layernorm", RECOMPUTE_LAYERNORM },
	{ "mla_up_proj", RECOMPUTE_MLA_UP_PROJ },
	{ "mlp", RECOMPUTE_MLP },
	{ "moe", RECOMPUTE_MOE },
	{ "shared_experts", RECOMPUTE_SHARED_EXPERTS },
};

unsigned
recompute_modules_parse(const char *list)
{
	const char	*p = list;
	unsigned	 bits = RECOMPUTE_LISTED;
	size_t		 n, i;

	while (p != NULL && *p != '\0') {
		p += strspn(p, "[]', \"");
		n = strcspn(p, "[]', \"");
		for (i = 0; i < sizeof modules / sizeof modules[0]; i++)
			if (strlen(modules[i].name) == n &&
			    strncmp(p, modules[i].name, n) == 0)
				bits |= modules[i].bit;
		p += n;
	}
	return bits;
}
