/*
 * settings-value.h: private to settings.c and settings-parse.c, what
 * each needs of the other about one struct setting_value: settings.c
 * owns a value's strings (clear, append, put by name) and
 * settings-parse.c reads a value from JSON.  Everyone else uses
 * settings.h.
 */
#ifndef MBSBATCH_SETTINGS_VALUE_H
#define MBSBATCH_SETTINGS_VALUE_H

#include <stddef.h>

#include <jansson.h>

#include "settings.h"

struct error;
struct jsondoc;

/* Free what V owns and zero it (origin too). */
void		 setting_value_clear(struct setting_value *);

/* Append S, which the list takes, to V's list. */
void		 setting_value_append(struct setting_value *, char *);

/* Add or replace "NAME=value" S, which V takes, in an ST_ENV list. */
void		 setting_value_env_put(struct setting_value *, char *);

/*
 * Read one value for D from JSON J into V (zeroed by the caller; on
 * error it may hold strings to clear); PATH[DEPTH - 1] is its key, and
 * PATH has room for two more entries below it.  NULL, or an error
 * (EXIT_USAGE) naming the file, the line and the key.
 */
struct error	*setting_value_from_json(const struct jsondoc *, const char **,
		    size_t, const struct setting_def *, json_t *,
		    struct setting_value *);

/* "an object", "a list", "a whole number": J's type, for messages. */
const char	*settings_json_type_name(const json_t *);

#endif
