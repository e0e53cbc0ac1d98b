/*
 * script-mlm.h: the Megatron-LM launch command's pieces (script-mlm.c),
 * which the template context (script.c) takes.
 */
#ifndef MBSBATCH_SCRIPT_MLM_H
#define MBSBATCH_SCRIPT_MLM_H

#include <jansson.h>

#include "plan.h"

/* Megatron-LM pretrain_gpt.py arguments: a new JSON array of strings. */
json_t		*script_mlm_args(const struct plan *);

/*
 * What the megatron-lm template writes when the job does not say:
 * Megatron-Bridge's recipe defaults (pretrain_gpt.py has none and stops
 * at start without them).  script_mlm_defaults() says which of the
 * length and the learning rate the job leaves to them.
 */
#define SCRIPT_MLM_TRAIN_ITERS	1168251
#define SCRIPT_MLM_LR		3e-4
bool		 script_mlm_defaults(const struct plan *, bool *, bool *);

#endif
