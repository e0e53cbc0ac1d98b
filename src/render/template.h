/*
 * template.h: finding script templates (docs/SPEC.md section 4): a
 * path, or NAME looked up as NAME.sbatch in $MBSBATCH_TEMPLATE_PATH
 * (':'-separated), $XDG_CONFIG_HOME/mbsbatch/templates, the installed
 * templates ($(pkgdatadir)/templates), and last the copies built into
 * mbsbatch.
 */
#ifndef MBSBATCH_TEMPLATE_H
#define MBSBATCH_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

struct error;

struct template {
	char	*name;		/* "megatron-bridge" */
	char	*path;		/* the file, or NULL when built in */
	char	*text;
};

/* The template the user means by NAME (a name or a path); EXIT_USAGE
 * for an unknown name, EXIT_FAILURE_OP for an unreadable file. */
struct error	*template_load(const char *, struct template *);
void		 template_release(struct template *);

/* Is T, wherever it was found, one of the templates mbsbatch ships, as
 * built in?  Their #SBATCH lines are exactly the job's Slurm options. */
bool		 template_shipped(const struct template *);

/* Is NAME a template file's path rather than a template's name? */
bool		 template_is_path(const char *);

/* Every template a name finds, first match of each name only, sorted;
 * free with template_list_free(). */
struct error	*template_list(struct template **, size_t *);
void		 template_list_free(struct template *, size_t);

/* The built-in copies (templates-builtin.c, generated). */
struct template_builtin {
	const char	*name;
	const char	*text;
};
extern const struct template_builtin template_builtins[];
/* The partials a template includes with {{> NAME}} (templates/NAME.sh):
 * shell shared by the templates, never a template of its own. */
extern const struct template_builtin template_partials[];

#endif
