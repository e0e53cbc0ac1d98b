/*
 * bridge-lora.c: the LoRA adapters a Megatron-Bridge PEFT recipe trains,
 * for the memory estimate and the cost model (core/memory.h struct lora).
 *
 * Read from each recipe function at 0.5.1 (recipes/llama/llama3.py),
 * 0.6.0 (51885cf1) and main (067f987d) (recipes/llama/h100/llama3.py,
 * perf_recipes/llama/GPU/llama3.py).  LoRA's own defaults: dim 32, the
 * targets linear_qkv, linear_proj, linear_fc1 and linear_fc2 (peft/
 * lora.py:101-105).  A recipe not below keeps its adapters unknown, and
 * its memory unestimated (bridge-unsized.c).
 */
#include <stddef.h>
#include <string.h>

#include "bridge.h"

static const struct {
	const char	*prefix;	/* the recipe's name begins so */
	int64_t		 rank;
	unsigned	 targets;	/* of its library recipe */
	unsigned	 benchmark;	/* of its benchmark recipes; 0: same */
} adapters[] = {
	/* dim 16 and linear_qkv: 0.5.1 llama3.py:2707-2709, 0.6.0
	 * h100/llama3.py:2851-2853, main 2849-2851. */
	{ "llama31_405b_peft_", 16, LORA_QKV, 0 },
	/* dim 16: 0.5.1 llama3.py:2474, 0.6.0 h100/llama3.py:2610, main
	 * 2608; the benchmark recipes (perf_recipes/llama/{b200,b300,
	 * gb200,gb300,h100}/llama3.py, such as 0.6.0 gb200:602) set
	 * target_modules = ["linear_qkv"]. */
	{ "llama3_70b_peft_", 16, LORA_ALL, LORA_QKV },
	{ "llama31_70b_peft_", 16, LORA_ALL, 0 },
	/* dim 8: 0.5.1 llama3.py:2242, 2358; 0.6.0 h100/llama3.py:2370,
	 * 2490; main 2368, 2488. */
	{ "llama3_8b_peft_", 8, LORA_ALL, 0 },
	{ "llama31_8b_peft_", 8, LORA_ALL, 0 },
	/* LoRA's defaults (0.6.0 h100/llama3.py:2133, 2250). */
	{ "llama32_1b_peft_", 32, LORA_ALL, 0 },
	{ "llama32_3b_peft_", 32, LORA_ALL, 0 },
};

bool
bridge_recipe_lora(const struct bridge_recipe *r, struct lora *out)
{
	size_t	 i, n;

	memset(out, 0, sizeof *out);
	if (bridge_recipe_task(r) != BRIDGE_LORA || strstr(r->name, "_dora_"))
		return false;
	for (i = 0; i < sizeof adapters / sizeof adapters[0]; i++) {
		n = strlen(adapters[i].prefix);
		if (strncmp(r->name, adapters[i].prefix, n) != 0)
			continue;
		out->rank = adapters[i].rank;
		out->targets = r->benchmark && adapters[i].benchmark != 0 ?
		    adapters[i].benchmark : adapters[i].targets;
		return true;
	}
	return false;
}
