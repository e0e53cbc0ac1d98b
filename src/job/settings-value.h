/*
 * settings-value.h: private to settings.c and settings-parse.c: the
 * strings one struct setting_value owns, which settings.c keeps (clear,
 * append, put by name) and settings-parse.c fills.  Everyone else uses
 * settings.h.
 */
#ifndef MBSBATCH_SETTINGS_VALUE_H
#define MBSBATCH_SETTINGS_VALUE_H

#include <stddef.h>

#include "settings.h"

/* Free what V owns and zero it (origin too). */
void		 setting_value_clear(struct setting_value *);

/* Append S, which the list takes, to V's list. */
void		 setting_value_append(struct setting_value *, char *);

/* Add or replace "NAME=value" S, which V takes, in an ST_ENV list. */
void		 setting_value_env_put(struct setting_value *, char *);

#endif
