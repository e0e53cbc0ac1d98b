/*
 * script-bridge.h: the Megatron-Bridge launch command's overrides
 * (script-bridge.c), which the template context (script.c) takes.
 */
#ifndef MBSBATCH_SCRIPT_BRIDGE_H
#define MBSBATCH_SCRIPT_BRIDGE_H

#include <jansson.h>

#include "plan.h"

/* Megatron-Bridge run_recipe.py overrides for the plan: a new JSON
 * array of strings. */
json_t		*script_bridge_overrides(const struct plan *);

#endif
