/* error.c: the error value; see error.h. */
#include <stdarg.h>
#include <stdlib.h>

#include "error.h"
#include "xmalloc.h"

struct error *
error_new(enum exit_status status, const char *fmt, ...)
{
	struct error	*err;
	va_list		 ap;

	err = xcalloc(1, sizeof *err);
	err->status = status;
	va_start(ap, fmt);
	err->msg = xvasprintf(fmt, ap);
	va_end(ap);
	return err;
}

struct error *
error_prefix(struct error *err, const char *fmt, ...)
{
	char	*prefix, *msg;
	va_list	 ap;

	va_start(ap, fmt);
	prefix = xvasprintf(fmt, ap);
	va_end(ap);
	msg = xasprintf("%s: %s", prefix, err->msg);
	free(prefix);
	free(err->msg);
	err->msg = msg;
	return err;
}

struct error *
error_hint(struct error *err, const char *fmt, ...)
{
	va_list	 ap;

	free(err->hint);
	va_start(ap, fmt);
	err->hint = xvasprintf(fmt, ap);
	va_end(ap);
	return err;
}

struct error *
error_set_kind(struct error *err, enum error_kind kind)
{
	err->kind = kind;
	return err;
}

int
error_is(const struct error *err, enum error_kind kind)
{
	return err != NULL && err->kind == kind;
}

void
error_free(struct error *err)
{
	if (err == NULL)
		return;
	free(err->msg);
	free(err->hint);
	freev(err->more);
	free(err);
}

struct error *
error_add_line(struct error *err, const char *fmt, ...)
{
	va_list	 ap;
	size_t	 n = 0;

	while (err->more != NULL && err->more[n] != NULL)
		n++;
	err->more = xreallocarray(err->more, n + 2, sizeof *err->more);
	va_start(ap, fmt);
	err->more[n] = xvasprintf(fmt, ap);
	va_end(ap);
	err->more[n + 1] = NULL;
	return err;
}
