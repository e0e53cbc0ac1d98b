/*
 * xmalloc.h: allocation that cannot fail.  On exhaustion these print one
 * line and exit 1 (like tmux and git): there is no sensible recovery for a
 * command-line tool, and every caller stays simple.  Sizes are checked for
 * overflow.
 */
#ifndef MBSBATCH_XMALLOC_H
#define MBSBATCH_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list) __attribute__((format(printf, 1, 0)));
/* Free a NULL-terminated array of strings and the strings (NULL: nothing). */
void	 freev(char **);

#endif
