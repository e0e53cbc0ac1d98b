/*
 * tmpl.h: the template renderer: a small mustache.
 *
 *   {{name}}            a value; "a.b" looks inside objects, "." is the
 *                       current list item
 *   {{#name}}..{{/name}} a section: once per list item, once for an
 *                       object or a true/non-empty value, never for false,
 *                       null, 0, "" or an empty list
 *   {{^name}}..{{/name}} inverted: only when #name would not render
 *   {{! comment }}
 *   {{> name}}          the built-in partial NAME (templates/NAME.sh,
 *                       template.h), rendered in place with the same
 *                       context; partials include no partial
 *
 * A line holding only a section tag, a partial or a comment (and blanks) leaves no
 * line behind.  Values are escaped for whoever reads the line: sbatch's
 * lexer on lines that start with "#SBATCH", nobody on other lines that
 * start with '#' (comments: written as they are, newlines refused), the
 * shell everywhere else (quote.h).  Numbers and booleans are written bare; null, objects and
 * lists cannot be written.  An unknown name is an error, as are
 * unbalanced sections; errors name the template, line and column.
 * Rendering is a single pass over a parsed token list; depth and tag
 * length are bounded, and so is the work: nested sections over a list
 * multiply its content, so the output stops at TMPL_MAX_OUTPUT bytes
 * (Slurm's default max_script_size: slurmctld refuses a longer script)
 * and the tags and list items rendered at TMPL_MAX_STEPS (sections that
 * repeat without writing).  Both are checked as rendering goes, before
 * anything larger is allocated.  The context is a jansson object (the
 * plan object and the job's settings), so templates see what "plan
 * --json" shows.
 */
#ifndef MBSBATCH_TMPL_H
#define MBSBATCH_TMPL_H

#include <jansson.h>

struct buf;
struct error;

#define TMPL_MAX_DEPTH		16
#define TMPL_MAX_TAG		64
#define TMPL_MAX_OUTPUT		(4 * 1024 * 1024)	/* bytes */
#define TMPL_MAX_STEPS		(16 * 1024 * 1024)	/* tags, list items */

/*
 * Render TEXT, called NAME in errors, against CTX, appending to OUT.
 * Errors are EXIT_USAGE: "template 'NAME': line L, column C: ...";
 * past a limit, L and C point at the outermost list section being
 * repeated (with a hint), else at the tag.
 * On error OUT holds a partial result the caller must discard.
 */
struct error	*tmpl_render(const char *, const char *, json_t *,
		    struct buf *);

/* Only TEXT's syntax, as tmpl_render() would report it. */
struct error	*tmpl_check(const char *, const char *);

#endif
