/*
 * bridge-pick.c: the recipe a model trains with when the user names the
 * model and no recipe; see bridge.h.
 *
 * Megatron-Bridge names one pretraining recipe per model and version
 * "<family>_<size>_pretrain_config" (recipes/llama/llama3.py
 * llama3_70b_pretrain_config) and its variants by inserting words into
 * that stem: a longer sequence ("llama3_70b_16k_pretrain_config"), a
 * precision ("llama3_8b_low_precision_pretrain_config"), a GPU count and
 * type ("llama3_70b_pretrain_32gpu_h100_bf16_config", which does not end
 * in "_pretrain_config").  The candidates are the library recipes
 * (benchmark recipes bring their own data and hardware) building the
 * model's Hugging Face name whose name ends in "_pretrain_config"; a
 * candidate whose stem extends another candidate's stem is a variant of
 * it and is dropped.  Of several left (two recipes of one Hugging Face
 * model: Nemotron 3 Nano's and Nemotron 3.5 Lightning's), the one whose
 * stem is the model's preset name, its '-' and '.' as '_'
 * ("nemotron-3-nano": nemotron_3_nano_pretrain_config), when one is.
 * Pure: no I/O.
 */
#include <string.h>

#include "bridge.h"

#define PRETRAIN_SUFFIX	"_pretrain_config"

/* The length of R's stem (its name less the suffix), or 0 when R is no
 * candidate for the model HF. */
static size_t
stem(const struct bridge_recipe *r, const char *hf)
{
	size_t	 n = strlen(r->name), s = strlen(PRETRAIN_SUFFIX);

	if (r->hf_model == NULL || strcmp(r->hf_model, hf) != 0 ||
	    strcmp(r->kind, "library") != 0 || n <= s ||
	    strcmp(r->name + n - s, PRETRAIN_SUFFIX) != 0)
		return 0;
	return n - s;
}

/* Is R a variant of another candidate (its stem that stem and "_")? */
static bool
variant(const struct bridge_target *t, const struct bridge_recipe *r,
    size_t rs, const char *hf)
{
	const struct bridge_recipe	*o;
	size_t				 os;

	for (o = t->recipes; o->name != NULL; o++)
		if (o != r && (os = stem(o, hf)) != 0 && os < rs &&
		    strncmp(o->name, r->name, os) == 0 && r->name[os] == '_')
			return true;
	return false;
}

/* Is R's stem (S bytes) NAME with '-' and '.' as '_'? */
static bool
named(const struct bridge_recipe *r, size_t s, const char *name)
{
	size_t	 i;

	if (name == NULL || strlen(name) != s)
		return false;
	for (i = 0; i < s; i++)
		if (r->name[i] != (name[i] == '-' || name[i] == '.' ? '_' :
		    name[i]))
			return false;
	return true;
}

size_t
bridge_recipe_pick(const struct bridge_target *t, const char *hf,
    const char *name, const struct bridge_recipe **out, size_t max)
{
	const struct bridge_recipe	*r, *by_name = NULL;
	size_t				 n = 0, s, nnamed = 0;

	if (hf == NULL)
		return 0;
	for (r = t->recipes; r->name != NULL; r++)
		if ((s = stem(r, hf)) != 0 && !variant(t, r, s, hf)) {
			if (n < max)
				out[n] = r;
			n++;
			if (named(r, s, name)) {
				by_name = r;
				nnamed++;
			}
		}
	if (n > 1 && nnamed == 1 && max > 0) {
		out[0] = by_name;
		return 1;
	}
	return n;
}
