/* buf.c: a growable byte buffer; see buf.h. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

static char buf_empty[1];

void
buf_init(struct buf *b)
{
	b->data = buf_empty;
	b->len = 0;
	b->cap = 0;
}

void
buf_release(struct buf *b)
{
	if (b->cap != 0)
		free(b->data);
	buf_init(b);
}

char *
buf_detach(struct buf *b)
{
	char	*s;

	s = b->cap != 0 ? b->data : xstrdup("");
	buf_init(b);
	return s;
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->cap != 0)
		b->data[0] = '\0';
}

static void
buf_grow(struct buf *b, size_t extra)
{
	size_t	 need;

	if (extra > SIZE_MAX - b->len - 1)
		(void)xreallocarray(NULL, SIZE_MAX, 2);	/* exits */
	need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	if (b->cap == 0) {
		b->cap = need < 64 ? 64 : need;
		b->data = xmalloc(b->cap);
		b->data[0] = '\0';
		return;
	}
	while (b->cap < need)
		b->cap = b->cap > SIZE_MAX / 2 ? need : b->cap * 2;
	b->data = xreallocarray(b->data, b->cap, 1);
}

void
buf_add(struct buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	buf_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void
lines_init(struct lines *l)
{
	l->v = NULL;
	l->n = 0;
	buf_init(&l->cur);
}

void
lines_release(struct lines *l)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	buf_release(&l->cur);
}

void
lines_addf(struct lines *l, const char *fmt, ...)
{
	va_list	 ap;
	char	*text, *p, *nl;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) == -1)
		abort();
	va_end(ap);
	for (p = text; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		buf_add(&l->cur, p, (size_t)(nl - p));
		l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
		l->v[l->n++] = buf_detach(&l->cur);
		buf_init(&l->cur);
	}
	buf_adds(&l->cur, p);
	free(text);
}
