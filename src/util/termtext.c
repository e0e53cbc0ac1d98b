/* termtext.c: outside text made safe to show; see termtext.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "termtext.h"
#include "xmalloc.h"

/*
 * The length of the UTF-8 character at P (N > 0 bytes there) and its
 * code point in *CP, or 0 when the bytes are no such character (RFC 3629
 * section 4, as jansson's utf8.c reads it).
 */
static size_t
utf8_char(const unsigned char *p, size_t n, uint32_t *cp)
{
	uint32_t	 c;
	size_t		 len, i;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		c = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		len = 3;
		c = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		c = p[0] & 0x07;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* A character a terminal must not get as it is (termtext.h). */
static bool
hidden(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
	    c == 0x61c || c == 0x200e || c == 0x200f ||
	    (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

static void
add_hex(struct buf *out, const unsigned char *p, size_t n, const char *pre)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		buf_addf(out, "%sx%02x", pre, p[i]);
}

void
termtext_add(struct buf *out, const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	const unsigned char	*end = p + len;
	uint32_t		 c;
	size_t			 n;

	while (p < end) {
		n = utf8_char(p, (size_t)(end - p), &c);
		if (n == 0) {
			add_hex(out, p, 1, "\\");
			p++;
			continue;
		}
		if (!hidden(c))
			buf_add(out, p, n);
		else if (c == '\t')
			buf_adds(out, "\\t");
		else if (c == '\n')
			buf_adds(out, "\\n");
		else if (c == '\r')
			buf_adds(out, "\\r");
		else
			add_hex(out, p, n, "\\");
		p += n;
	}
}

char *
termtext_dup(const char *s)
{
	struct buf	 b;

	if (s == NULL)
		return NULL;
	buf_init(&b);
	termtext_add(&b, s, strlen(s));
	return buf_detach(&b);
}

int
termtext_printf(FILE *f, const char *fmt, ...)
{
	struct buf	 b;
	va_list		 ap;
	char		*line;
	size_t		 len;
	int		 r;

	va_start(ap, fmt);
	line = xvasprintf(fmt, ap);
	va_end(ap);
	len = strlen(line);
	if (len > 0 && line[len - 1] == '\n')
		len--;
	buf_init(&b);
	termtext_add(&b, line, len);
	if (len < strlen(line))
		buf_addc(&b, '\n');
	free(line);
	r = fputs(b.data, f) == EOF ? -1 : (int)b.len;
	buf_release(&b);
	return r;
}

size_t
termtext_utf8_valid(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	uint32_t		 c;
	size_t			 i = 0, n;

	while (i < len) {
		if ((n = utf8_char(p + i, len - i, &c)) == 0)
			return i;
		i += n;
	}
	return len;
}

size_t
termtext_hidden(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, n;

	while (i < len) {
		if ((n = utf8_char(p + i, len - i, cp)) == 0)
			return len;	/* not UTF-8: not this question */
		if (hidden(*cp))
			return i;
		i += n;
	}
	return len;
}

/* S made valid UTF-8, each other byte as PRE "xHH". */
static void
add_utf8(struct buf *out, const char *s, size_t len, const char *pre)
{
	size_t	 n;

	while (len > 0) {
		n = termtext_utf8_valid(s, len);
		buf_add(out, s, n);
		if (n == len)
			break;
		add_hex(out, (const unsigned char *)s + n, 1, pre);
		s += n + 1;
		len -= n + 1;
	}
}

void
termtext_add_utf8(struct buf *out, const char *s, size_t len)
{
	add_utf8(out, s, len, "\\");
}

void
termtext_add_json_body(struct buf *out, const char *s, size_t len)
{
	add_utf8(out, s, len, "\\\\");
}

json_t *
termtext_json(const char *s)
{
	struct buf	 b;
	json_t		*j;
	size_t		 len;

	if (s == NULL)
		return json_null();
	len = strlen(s);
	if (termtext_utf8_valid(s, len) == len &&
	    (j = json_string(s)) != NULL)
		return j;
	buf_init(&b);
	termtext_add_utf8(&b, s, len);
	j = json_string(b.data);
	buf_release(&b);
	/* Valid UTF-8 by now: only jansson's own allocation could fail. */
	return j != NULL ? j : json_null();
}
