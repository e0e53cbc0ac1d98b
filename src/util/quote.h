/*
 * quote.h: the only escaping code in mbsbatch.  A value is quoted for
 * whoever reads it (docs/STYLE.md): the shell, for script lines, or sbatch's
 * own lexer, for "#SBATCH" lines (slurm src/sbatch/opt.c, _get_argument).
 * Pure.
 */
#ifndef MBSBATCH_QUOTE_H
#define MBSBATCH_QUOTE_H

#include <stdbool.h>
#include <stddef.h>

struct buf;

/* Characters a shell word may carry unquoted. */
bool		 quote_shell_safe(const char *);

/*
 * Append S to B as one shell word: bare when every character is safe,
 * else in single quotes with ' written as '\'' (git's sq_quote_buf).  The
 * empty string becomes ''.
 */
void		 quote_shell(struct buf *, const char *);

/*
 * Why S cannot be written on an #SBATCH line, or NULL.  sbatch's lexer
 * has no way to carry a newline.  "packjob" is refused anywhere, more
 * than needed: sbatch 22.05 and later blank it out only as a word of its
 * own (quote_sbatch_split()), which --opt=VALUE never is.
 */
const char	*quote_sbatch_check(const char *);

/*
 * Append S to B for sbatch's lexer, as the value in --opt=VALUE: bare
 * when safe, else in double quotes with " and \ escaped by a backslash.
 * The caller has checked S with quote_sbatch_check().
 */
void		 quote_sbatch(struct buf *, const char *);

/*
 * Split one #SBATCH line's text (after "#SBATCH") into arguments the way
 * sbatch's get_argument() does (src/sbatch/opt.c): white space (C's
 * isspace: space, \t, \n, \v, \f, \r) separates, quotes group, a
 * backslash escapes the next character, an unquoted '#' starts a comment.
 * sbatch stops reading the line where an argument comes out empty ("",
 * '', a lone backslash) and at a word "packjob" or "hetjob", which it
 * blanks out.  Returns the number of arguments stored in ARGV (each a new
 * string the caller frees), at most MAX (MAX means there may be more);
 * -1 with *why set where sbatch would give up (an unterminated quote, an
 * argument starting with ':') or where its releases read the line
 * differently (a backslash before a space outside quotes).
 */
int		 quote_sbatch_split(const char *, char **, int, const char **);

/* Does LINE (the text after "#SBATCH") start with sbatch's separator of
 * heterogeneous job components, "packjob" or "hetjob"? */
bool		 quote_sbatch_het_separator(const char *);

#endif
