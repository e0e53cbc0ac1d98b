/*
 * The modules of Megatron's selective recompute (memory.h): which a
 * recipe names, and whether a module is recomputed.
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

/*
 * Megatron checks each module by name in the list (attention.py
 * core_v0.19.0:394, transformer_layer.py:450, :512, moe_layer.py:248,
 * :253, experts.py:270, multi_latent_attention.py:173), with the list
 * ["core_attn"] when none is given (transformer_config.py:1763-1764).
 */
bool
recomputes(int rc, unsigned bits, unsigned m)
{
	if (rc != RECOMPUTE_SELECTIVE)
		return false;
	return bits == 0 ? m == RECOMPUTE_CORE_ATTN : (bits & m) != 0;
}

unsigned
recompute_modules_parse(const char *list)
{
	const char	*p = list;
	unsigned	 bits = 0;
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
