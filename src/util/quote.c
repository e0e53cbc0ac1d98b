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

/* isspace() in the C locale, which sbatch runs in (it never calls
 * setlocale): a byte of 0x80 or more is never white space. */
static bool
sbatch_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r';
}

/* "packjob" or "hetjob" (any case) as a whole word at P. */
static bool
het_word(const char *p)
{
	return (strncasecmp(p, "packjob", 7) == 0 && (p[7] == '\0' ||
	    sbatch_space(p[7]))) || (strncasecmp(p, "hetjob", 6) == 0 &&
	    (p[6] == '\0' || sbatch_space(p[6])));
}

bool
quote_sbatch_het_separator(const char *line)
{
	while (sbatch_space(*line))
		line++;
	return het_word(line);
}

/*
 * sbatch's get_argument() (src/sbatch/opt.c; 22.05.8 and 25.11.7 read
 * alike but for a backslash before a space, see below): one argument from
 * *PP into ARG, *PP moved past it.  1: an argument; 0: the line ends
 * here; -1: *WHY says why sbatch would stop (fatal) or why the releases
 * disagree.
 */
static int
sbatch_argument(const char **pp, struct buf *arg, const char **why)
{
	const char	*p = *pp;
	char		 q = '\0';
	bool		 escape = false, quoted = false, any = false;

	buf_reset(arg);
	while (sbatch_space(*p))
		p++;
	/* sbatch blanks the word out, and an empty argument ends the line. */
	if (het_word(p))
		return 0;
	if (*p == ':') {
		*why = "an argument starts with ':' (sbatch stops: "
		    "\"Unexpected `:`\")";
		return -1;
	}
	while (*p != '\0' && (quoted || !sbatch_space(*p))) {
		if (escape)
			escape = false;
		else if (*p == '\\') {
			p++;
			/*
			 * 23.02 on keep "\ " as a space in the word; 22.05
			 * sets the escape, then its loop test sees the space
			 * and ends the word there.  In quotes both keep it.
			 */
			if (*p == ' ' && !quoted) {
				*why = "a backslash before a space outside "
				    "quotes: sbatch 22.05 ends the word there, "
				    "23.02 and later keep the space (quote the "
				    "value instead)";
				return -1;
			}
			escape = true;
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
			break;		/* the rest of the line is a comment */
		buf_addc(arg, *p++);
		any = true;
	}
	if (quoted) {
		*why = "unterminated quote";
		return -1;
	}
	*pp = p;
	/* Nothing copied ("", '', a lone backslash, a comment): sbatch's
	 * get_argument() returns NULL, and the line's reading ends. */
	return any ? 1 : 0;
}

int
quote_sbatch_split(const char *line, char **argv, int max, const char **why)
{
	struct buf	 arg;
	const char	*p = line;
	int		 n = 0, r = 0;

	*why = NULL;
	buf_init(&arg);
	while (n < max && (r = sbatch_argument(&p, &arg, why)) == 1)
		argv[n++] = xstrdup(arg.data);
	buf_release(&arg);
	if (r == -1) {
		while (n > 0)
			free(argv[--n]);
		return -1;
	}
	return n;
}
