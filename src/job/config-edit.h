/*
 * config-edit.h: set keys of one cluster profile in the user's config
 * file (mbsbatch.conf(5)), losing nothing: every other key, in its
 * order, with its value (the file is read and written by jansson, which
 * keeps the order of an object's keys).  The file is replaced whole or
 * not at all (atomicfile.h), keeping its permissions.  A file that
 * jansson cannot write back as it read it (a number that would change)
 * is refused, so is one whose result the config reader would refuse.
 */
#ifndef MBSBATCH_CONFIG_EDIT_H
#define MBSBATCH_CONFIG_EDIT_H

#include <stdbool.h>

#include <jansson.h>

struct config;
struct error;

/* How an edit went. */
struct config_edit {
	char	*text;		/* the file as written (or that would be
				   written), a new string */
	bool	 same_format;	/* the file was in the format written:
				   what changed is only the keys set */
};

/*
 * Set every key of KEYS (an object, borrowed) in cluster profile CLUSTER
 * of the config file at PATH, over the values there; write the file
 * unless DRY_RUN.  *E (config_edit_release()) says what was written.  A
 * profile that is not in the file is an EXIT_USAGE error naming it; a
 * file that cannot be read or written, EXIT_FAILURE_OP.
 */
struct error	*config_edit_profile(const char *, const char *,
		    const json_t *, bool, struct config_edit *);

/*
 * The same, but a profile that is not there is added (and the file,
 * and its directory, made when there is none: mbsbatch site).
 */
struct error	*config_edit_profile_new(const char *, const char *,
		    const json_t *, bool, struct config_edit *);

/*
 * The profile CLUSTER as written in the config file it came from (one
 * of CFG's files), a new reference; an empty object when none has it.
 */
struct error	*config_profile_json(const struct config *, const char *,
		    json_t **);

void		 config_edit_release(struct config_edit *);

#endif
