/* quote.c: shell and sbatch quoting; see quote.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "quote.h"
#include "xmalloc.h"

bool
quote_shell_safe(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) &&
		    strchr("_-+./:,@%=^", *s) == NULL)
			return false;
	return true;
}

void
quote_shell(struct buf *b, const char *s)
{
	if (quote_shell_safe(s)) {
		buf_adds(b, s);
		return;
	}
	buf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
}

const char *
quote_sbatch_check(const char *s)
{
	if (strpbrk(s, "\n\r") != NULL)
		return "contains a newline, which an #SBATCH line cannot carry";
	if (strcasestr(s, "packjob") != NULL)
		return "contains 'packjob', which sbatch blanks out of "
		    "#SBATCH lines";
	return NULL;
}

/* Safe for sbatch's lexer unquoted: no space, quote, backslash or '#'. */
static bool
sbatch_safe(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (isspace((unsigned char)*s) || strchr("\"'\\#", *s) != NULL)
			return false;
	return true;
}

void
quote_sbatch(struct buf *b, const char *s)
{
	if (sbatch_safe(s)) {
		buf_adds(b, s);
		return;
	}
	buf_addc(b, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			buf_addc(b, '\\');
		buf_addc(b, *s);
	}
	buf_addc(b, '"');
}

int
quote_sbatch_split(const char *line, char **argv, int max, const char **why)
{
	struct buf	 arg;
	const char	*p = line;
	char		 q = '\0';
	bool		 escape, quoted;
	int		 n = 0;

	*why = NULL;
	buf_init(&arg);
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#' || n == max)
			break;
		buf_reset(&arg);
		escape = quoted = false;
		while (*p != '\0' && (quoted || !isspace((unsigned char)*p))) {
			if (escape) {
				escape = false;
			} else if (*p == '\\') {
				escape = true;
				p++;
				continue;
			} else if (quoted) {
				if (*p == q) {
					quoted = false;
					p++;
					continue;
				}
			} else if (*p == '"' || *p == '\'') {
				quoted = true;
				q = *p++;
				continue;
			} else if (*p == '#')
				break;
			buf_addc(&arg, *p++);
		}
		if (quoted) {
			*why = "unterminated quote";
			buf_release(&arg);
			while (n > 0)
				free(argv[--n]);
			return -1;
		}
		argv[n++] = xstrdup(arg.data);
		if (*p == '#')
			break;
	}
	buf_release(&arg);
	return n;
}
