/*
 * model-file.h: model presets: the built-in table, a user's JSON preset
 * files, the lookups the CLI needs, and architecture overrides from the
 * settings (the architecture itself: core/model.h).
 */
#ifndef MBSBATCH_MODEL_FILE_H
#define MBSBATCH_MODEL_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

struct error;
struct settings;

/* The built-in table, terminated by an entry with a NULL name. */
extern const struct model model_builtin[];

/* A preset loaded from a file: the model and the strings it points to. */
struct model_file {
	struct model	 model;
	char		*name;
	char		*path;
	struct settings	*backing;	/* opaque: owns the strings */
};

/* The built-in preset called NAME, or NULL. */
const struct model *model_builtin_find(const char *);

/*
 * Resolve NAME to a model: a path (it contains '/' or ends in ".json")
 * is loaded as a preset file; otherwise DIR/NAME.json when DIR (the user
 * presets directory, may be NULL) has it, else the built-in preset.  An
 * unknown name is an EXIT_USAGE error with a suggestion.  *out is
 * released by model_file_release() whatever is returned.
 */
struct error	*model_resolve(const char *, const char *, struct model_file *);

/* Is NAME the path of a preset file rather than a preset's name? */
bool		 model_is_path(const char *);

/* Load a preset file; its name is the file name without ".json". */
struct error	*model_file_load(const char *, struct model_file *);
void		 model_file_release(struct model_file *);

/* Copy the architecture fields set in SET (see settings.h) over M. */
void		 model_apply(struct model *, const struct settings *);

/*
 * The presets a user can name, built-ins first, then DIR's; user presets
 * that shadow a built-in replace it.  The caller frees *out with
 * model_list_free().
 */
struct error	*model_list(const char *, struct model_file **, size_t *);
void		 model_list_free(struct model_file *, size_t);

#endif
