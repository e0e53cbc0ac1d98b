/* jsondoc.c: JSON files with positions for every error; see jsondoc.h. */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "jsondoc.h"
#include "xmalloc.h"

static struct error *
jsondoc_parse(struct jsondoc *doc)
{
	json_error_t	 jerr;

	doc->root = json_loadb(doc->text, doc->len, JSON_REJECT_DUPLICATES,
	    &jerr);
	if (doc->root == NULL) {
		struct error	*err;

		/* jansson names its own flag here; say what it means. */
		if (strstr(jerr.text, "JSON_ALLOW_NUL") != NULL)
			snprintf(jerr.text, sizeof jerr.text,
			    "a string contains a NUL byte (\\u0000)");
		err = error_new(EXIT_USAGE, "%s: line %d, column %d: %s",
		    doc->label, jerr.line, jerr.column, jerr.text);
		jsondoc_release(doc);
		return err;
	}
	return NULL;
}

static struct error *
read_fd(int fd, struct jsondoc *doc, const char *path)
{
	struct buf	 b;
	char		 chunk[8192];
	ssize_t		 n;

	buf_init(&b);
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			buf_release(&b);
			return error_new(EXIT_FAILURE_OP, "%s: %s", doc->label,
			    strerror(errno));
		}
		if (b.len + (size_t)n > JSONDOC_MAX_SIZE) {
			buf_release(&b);
			return error_new(EXIT_USAGE, "%s: larger than %d MiB",
			    doc->label, JSONDOC_MAX_SIZE / (1024 * 1024));
		}
		buf_add(&b, chunk, (size_t)n);
	}
	(void)path;
	doc->len = b.len;
	doc->text = buf_detach(&b);
	return NULL;
}

struct error *
jsondoc_load_file(struct jsondoc *doc, const char *path, const char *kind)
{
	struct error	*err;
	struct stat	 st;
	int		 fd;

	memset(doc, 0, sizeof *doc);
	if (strcmp(path, "-") == 0)
		doc->label = xasprintf("%s on standard input", kind);
	else
		doc->label = xasprintf("%s '%s'", kind, path);
	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)) == -1) {
		err = error_new(EXIT_FAILURE_OP, "%s: %s", doc->label,
		    strerror(errno));
		jsondoc_release(doc);
		return err;
	}
	if (fd != STDIN_FILENO) {
		/* A FIFO or a device could block or never end. */
		if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
			err = error_new(EXIT_FAILURE_OP, "%s: %s", doc->label,
			    S_ISDIR(st.st_mode) ? "is a directory" :
			    "not a regular file");
			close(fd);
			jsondoc_release(doc);
			return err;
		}
		(void)fcntl(fd, F_SETFL, 0);
	}
	err = read_fd(fd, doc, path);
	if (fd != STDIN_FILENO)
		close(fd);
	if (err != NULL) {
		jsondoc_release(doc);
		return err;
	}
	return jsondoc_parse(doc);
}

struct error *
jsondoc_load_string(struct jsondoc *doc, const char *text, const char *label)
{
	memset(doc, 0, sizeof *doc);
	doc->label = xstrdup(label);
	doc->len = strlen(text);
	doc->text = xstrdup(text);
	return jsondoc_parse(doc);
}

struct error *
jsondoc_print(FILE *f, const json_t *value, size_t flags)
{
	char	*text;

	if (value == NULL || (text = json_dumps(value, flags)) == NULL)
		return error_new(EXIT_FAILURE_OP, "JSON output: a value JSON "
		    "cannot hold (text that is not UTF-8, or a number that is "
		    "not finite); nothing printed");
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return NULL;
}

void
jsondoc_release(struct jsondoc *doc)
{
	free(doc->label);
	free(doc->text);
	if (doc->root != NULL)
		json_decref(doc->root);
	memset(doc, 0, sizeof *doc);
}

/*
 * The locator: a small scanner over text jansson has already accepted, so
 * it can trust the grammar.  It walks values, descending where the path
 * matches, and records the position of the last path component.
 */
struct scan {
	const char	*p, *end;
	int		 line, col;
};

static void
scan_advance(struct scan *s)
{
	if (*s->p == '\n') {
		s->line++;
		s->col = 1;
	} else if (((unsigned char)*s->p & 0xc0) != 0x80)
		s->col++;	/* count characters, not UTF-8 bytes */
	s->p++;
}

static void
scan_space(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
	    *s->p == '\n' || *s->p == '\r'))
		scan_advance(s);
}

/* Read a string at s->p into out (decoded for plain escapes). */
static void
scan_string(struct scan *s, struct buf *out)
{
	buf_reset(out);
	scan_advance(s);	/* opening quote */
	while (s->p < s->end && *s->p != '"') {
		if (*s->p == '\\' && s->p + 1 < s->end) {
			char	 c = s->p[1];

			scan_advance(s);
			scan_advance(s);
			switch (c) {
			case 'n': buf_addc(out, '\n'); break;
			case 't': buf_addc(out, '\t'); break;
			case 'r': buf_addc(out, '\r'); break;
			case 'b': buf_addc(out, '\b'); break;
			case 'f': buf_addc(out, '\f'); break;
			case 'u':
				/* Keep it verbatim: such keys never match. */
				buf_adds(out, "\\u");
				break;
			default: buf_addc(out, c); break;
			}
			continue;
		}
		buf_addc(out, *s->p);
		scan_advance(s);
	}
	if (s->p < s->end)
		scan_advance(s);	/* closing quote */
}

static bool scan_value(struct scan *, const char *const *, int *, int *);

static void
scan_skip_scalar(struct scan *s)
{
	while (s->p < s->end && *s->p != ',' && *s->p != '}' &&
	    *s->p != ']' && *s->p != ' ' && *s->p != '\n' && *s->p != '\t' &&
	    *s->p != '\r')
		scan_advance(s);
}

static bool
scan_object(struct scan *s, const char *const *path, int *line, int *col)
{
	struct buf	 key;
	bool		 found = false;
	int		 kline, kcol;

	buf_init(&key);
	scan_advance(s);	/* { */
	for (;;) {
		scan_space(s);
		if (s->p >= s->end || *s->p == '}')
			break;
		if (*s->p == ',') {
			scan_advance(s);
			continue;
		}
		kline = s->line;
		kcol = s->col;
		scan_string(s, &key);
		scan_space(s);
		if (s->p < s->end && *s->p == ':')
			scan_advance(s);
		scan_space(s);
		if (!found && path != NULL && *path != NULL &&
		    strcmp(key.data, *path) == 0) {
			if (path[1] == NULL) {
				*line = kline;
				*col = kcol;
				found = true;
				scan_value(s, NULL, line, col);
			} else
				found = scan_value(s, path + 1, line, col);
		} else
			scan_value(s, NULL, line, col);
	}
	if (s->p < s->end)
		scan_advance(s);	/* } */
	buf_release(&key);
	return found;
}

static bool
scan_array(struct scan *s, const char *const *path, int *line, int *col)
{
	long	 want = -1, index = 0;
	bool	 found = false;

	if (path != NULL && *path != NULL && (*path)[0] == '[')
		want = strtol(*path + 1, NULL, 10);
	scan_advance(s);	/* [ */
	for (;;) {
		scan_space(s);
		if (s->p >= s->end || *s->p == ']')
			break;
		if (*s->p == ',') {
			scan_advance(s);
			index++;
			continue;
		}
		if (!found && index == want) {
			if (path[1] == NULL) {
				*line = s->line;
				*col = s->col;
				found = true;
				scan_value(s, NULL, line, col);
			} else
				found = scan_value(s, path + 1, line, col);
		} else
			scan_value(s, NULL, line, col);
	}
	if (s->p < s->end)
		scan_advance(s);	/* ] */
	return found;
}

static bool
scan_value(struct scan *s, const char *const *path, int *line, int *col)
{
	struct buf	 skip;

	scan_space(s);
	if (s->p >= s->end)
		return false;
	switch (*s->p) {
	case '{':
		return scan_object(s, path, line, col);
	case '[':
		return scan_array(s, path, line, col);
	case '"':
		buf_init(&skip);
		scan_string(s, &skip);
		buf_release(&skip);
		return false;
	default:
		scan_skip_scalar(s);
		return false;
	}
}

int
jsondoc_locate(const char *text, size_t len, const char *const *path,
    int *line, int *col)
{
	struct scan	 s;

	s.p = text;
	s.end = text + len;
	s.line = 1;
	s.col = 1;
	*line = *col = 0;
	if (path == NULL || path[0] == NULL)
		return -1;
	return scan_value(&s, path, line, col) ? 0 : -1;
}

struct error *
jsondoc_error(const struct jsondoc *doc, const char *const *path,
    enum exit_status status, const char *fmt, ...)
{
	struct error	*err;
	va_list		 ap;
	char		*msg;
	int		 line, col;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (jsondoc_locate(doc->text, doc->len, path, &line, &col) == 0)
		err = error_new(status, "%s: line %d, column %d: %s",
		    doc->label, line, col, msg);
	else
		err = error_new(status, "%s: %s", doc->label, msg);
	free(msg);
	return err;
}

void
jsondoc_addf(json_t *a, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	json_array_append_new(a, json_string(s));
	free(s);
}
