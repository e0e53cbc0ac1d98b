/* tmpl.c: the template renderer; see tmpl.h. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "quote.h"
#include "template.h"
#include "tmpl.h"
#include "xmalloc.h"

enum tok_type {
	TOK_TEXT,
	TOK_VAR,
	TOK_SECTION,
	TOK_INVERTED,
	TOK_END,
};

struct tok {
	enum tok_type	 type;
	const char	*text;		/* TOK_TEXT: into the template */
	size_t		 len;
	char		 name[TMPL_MAX_TAG + 1];
	int		 line, col;
	const char	*part;		/* the partial it is in, or NULL */
	size_t		 end;		/* sections: index of their TOK_END */
};

struct tmpl {
	const char	*name;
	struct tok	*toks;
	size_t		 ntoks;
};

static struct error * __attribute__((format(printf, 5, 6)))
tmpl_error(const struct tmpl *t, const char *part, int line, int col,
    const char *fmt, ...)
{
	struct error	*err;
	va_list		 ap;
	char		*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (part != NULL)
		err = error_new(EXIT_USAGE, "template '%s': partial '%s': "
		    "line %d, column %d: %s", t->name, part, line, col, msg);
	else
		err = error_new(EXIT_USAGE, "template '%s': line %d, column "
		    "%d: %s", t->name, line, col, msg);
	free(msg);
	return err;
}

static void
add_tok(struct tmpl *t, const struct tok *tok)
{
	t->toks = xreallocarray(t->toks, t->ntoks + 1, sizeof *t->toks);
	t->toks[t->ntoks++] = *tok;
}

static bool
name_ok(const char *s)
{
	if (strcmp(s, ".") == 0)
		return true;
	if (*s == '\0' || *s == '.')
		return false;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    !(*s == '.' && s[1] != '\0' && s[1] != '.'))
			return false;
	return true;
}

/*
 * Is the tag at [start, end) alone on its line (only blanks around it)?
 * Then *lstart and *lend bound the whole line, newline included.
 */
static bool
standalone(const char *text, const char *start, const char *end,
    const char **lstart, const char **lend)
{
	const char	*a = start, *b = end;

	while (a > text && (a[-1] == ' ' || a[-1] == '\t'))
		a--;
	if (a != text && a[-1] != '\n')
		return false;
	while (*b == ' ' || *b == '\t')
		b++;
	if (*b == '\r' && b[1] == '\n')
		b++;
	if (*b != '\n' && *b != '\0')
		return false;
	*lstart = a;
	*lend = *b == '\n' ? b + 1 : b;
	return true;
}

static void
advance(const char *from, const char *to, int *line, int *col)
{
	for (; from < to; from++) {
		if (*from == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)*from & 0xc0) != 0x80)
			(*col)++;
	}
}

static struct error	*parse(struct tmpl *, const char *, const char *,
			    size_t);

/* The built-in partial NAME, or NULL. */
static const struct template_builtin *
partial_find(const char *name)
{
	const struct template_builtin	*b;

	for (b = template_partials; b->name != NULL; b++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

/*
 * {{> NAME}}: the built-in partial NAME (templates/NAME.sh), parsed in
 * place, inside the DEPTH sections around the tag (the bound on nesting
 * counts both).  A partial includes no other partial, and its sections
 * close within it.  Errors inside it name it, with its own lines.
 */
static struct error *
include(struct tmpl *t, const struct tok *tag, size_t depth)
{
	const struct template_builtin	*b = partial_find(tag->name);

	if (tag->part != NULL)
		return tmpl_error(t, tag->part, tag->line, tag->col, "partial "
		    "'%s' inside a partial", tag->name);
	if (b == NULL)
		return tmpl_error(t, NULL, tag->line, tag->col, "unknown "
		    "partial '%s'", tag->name);
	/* The table's name, which outlives the tokens. */
	return parse(t, b->text, b->name, depth);
}

static struct error *
parse(struct tmpl *t, const char *text, const char *partial, size_t base)
{
	const char	*p = text, *open, *close, *tstart, *lstart, *lend;
	struct tok	 tok;
	size_t		 stack[TMPL_MAX_DEPTH], depth = 0, n;
	int		 line = 1, col = 1, tline, tcol;
	struct error	*err;
	char		 kind;

	for (;;) {
		open = strstr(p, "{{");
		if (open == NULL) {
			memset(&tok, 0, sizeof tok);
			tok.part = partial;
			tok.type = TOK_TEXT;
			tok.text = p;
			tok.len = strlen(p);
			tok.line = line;
			tok.col = col;
			if (tok.len > 0)
				add_tok(t, &tok);
			break;
		}
		tline = line;
		tcol = col;
		advance(p, open, &tline, &tcol);
		close = strstr(open + 2, "}}");
		if (close == NULL)
			return tmpl_error(t, partial, tline, tcol, "'{{' without '}}'");
		tstart = open + 2;
		kind = *tstart;
		if (kind == '#' || kind == '^' || kind == '/' || kind == '!' ||
		    kind == '>')
			tstart++;
		while (tstart < close && isspace((unsigned char)*tstart))
			tstart++;
		n = (size_t)(close - tstart);
		while (n > 0 && isspace((unsigned char)tstart[n - 1]))
			n--;
		if (kind != '!' && n > TMPL_MAX_TAG)
			return tmpl_error(t, partial, tline, tcol, "tag longer than %d "
			    "characters", TMPL_MAX_TAG);
		if (kind != '!' && memchr(open + 2, '\n',
		    (size_t)(close - open - 2)) != NULL)
			return tmpl_error(t, partial, tline, tcol, "tag spans lines");

		/* Text before the tag; a standalone block tag eats its line. */
		lstart = open;
		lend = close + 2;
		if ((kind == '#' || kind == '^' || kind == '/' ||
		    kind == '!' || kind == '>') && !standalone(text, open, close + 2, &lstart,
		    &lend)) {
			lstart = open;
			lend = close + 2;
		}
		if (lstart > p) {
			memset(&tok, 0, sizeof tok);
			tok.part = partial;
			tok.type = TOK_TEXT;
			tok.text = p;
			tok.len = (size_t)(lstart - p);
			tok.line = line;
			tok.col = col;
			add_tok(t, &tok);
		}
		advance(p, lend, &line, &col);
		p = lend;
		if (kind == '!')
			continue;

		memset(&tok, 0, sizeof tok);
		tok.part = partial;
		tok.line = tline;
		tok.col = tcol;
		memcpy(tok.name, tstart, n);
		tok.name[n] = '\0';
		if (!name_ok(tok.name))
			return tmpl_error(t, partial, tline, tcol, "'%s' is not a "
			    "variable name", tok.name);
		switch (kind) {
		case '>':
			if ((err = include(t, &tok, base + depth)) != NULL)
				return err;
			break;
		case '#':
		case '^':
			if (base + depth >= TMPL_MAX_DEPTH)
				return tmpl_error(t, partial, tline, tcol, "sections "
				    "nested deeper than %d", TMPL_MAX_DEPTH);
			tok.type = kind == '#' ? TOK_SECTION : TOK_INVERTED;
			stack[depth++] = t->ntoks;
			add_tok(t, &tok);
			break;
		case '/':
			if (depth == 0)
				return tmpl_error(t, partial, tline, tcol, "'{{/%s}}' "
				    "closes no section", tok.name);
			if (strcmp(t->toks[stack[depth - 1]].name,
			    tok.name) != 0)
				return tmpl_error(t, partial, tline, tcol, "'{{/%s}}' "
				    "closes section '%s' (opened at line %d)",
				    tok.name, t->toks[stack[depth - 1]].name,
				    t->toks[stack[depth - 1]].line);
			tok.type = TOK_END;
			t->toks[stack[--depth]].end = t->ntoks;
			add_tok(t, &tok);
			break;
		default:
			tok.type = TOK_VAR;
			add_tok(t, &tok);
			break;
		}
	}
	if (depth > 0) {
		const struct tok *o = &t->toks[stack[depth - 1]];

		return tmpl_error(t, partial, o->line, o->col, "section '%s' is never "
		    "closed", o->name);
	}
	return NULL;
}

struct render {
	const struct tmpl	*t;
	json_t			*stack[TMPL_MAX_DEPTH + 1];
	size_t			 depth;
	struct buf		*out;
	size_t			 start;		/* out->len before rendering */
	size_t			 line_start;	/* offset of the output line */
	size_t			 steps;		/* tags and list items so far */
	const struct tok	*outer;		/* outermost list being repeated */
};

/*
 * The limits on what a template makes of a job: nested sections over a
 * list repeat their content once per item at every level, so a template
 * of a few hundred bytes could otherwise write gigabytes (or, with empty
 * sections, loop for days without writing anything).  Errors point at the
 * outermost list being repeated, else at the tag.
 */
static struct error * __attribute__((format(printf, 3, 4)))
over_limit(const struct render *r, const struct tok *tok, const char *fmt,
    ...)
{
	struct error	*err;
	va_list		 ap;
	char		*msg;

	if (r->outer != NULL)
		tok = r->outer;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	err = tmpl_error(r->t, tok->part, tok->line, tok->col, "%s", msg);
	free(msg);
	if (r->outer != NULL)
		error_hint(err, "each item of '%s' repeats the section, and "
		    "nested sections multiply the repeats", r->outer->name);
	return err;
}

/* Is there room for N more bytes of output (overflow-safe)? */
static struct error *
room(const struct render *r, const struct tok *tok, size_t n)
{
	size_t	 used = r->out->len - r->start;

	if (used > TMPL_MAX_OUTPUT || n > TMPL_MAX_OUTPUT - used)
		return over_limit(r, tok, "rendered script larger than %d MiB "
		    "(Slurm's limit)", TMPL_MAX_OUTPUT / (1024 * 1024));
	return NULL;
}

/* Count one tag or list item against TMPL_MAX_STEPS. */
static struct error *
step(struct render *r, const struct tok *tok)
{
	if (++r->steps > TMPL_MAX_STEPS)
		return over_limit(r, tok, "sections repeat too often (more "
		    "than %d tags and list items to render)", TMPL_MAX_STEPS);
	return NULL;
}

/* Look NAME up, innermost frame first; NULL when unknown. */
static json_t *
lookup(const struct render *r, const char *name)
{
	char	 first[TMPL_MAX_TAG + 1];
	const char *rest, *dot;
	json_t	*v = NULL;
	size_t	 i, n;

	if (strcmp(name, ".") == 0)
		return r->stack[r->depth - 1];
	dot = strchr(name, '.');
	n = dot != NULL ? (size_t)(dot - name) : strlen(name);
	memcpy(first, name, n);
	first[n] = '\0';
	for (i = r->depth; i > 0 && v == NULL; i--)
		if (json_is_object(r->stack[i - 1]))
			v = json_object_get(r->stack[i - 1], first);
	for (rest = dot; v != NULL && rest != NULL; rest = dot) {
		rest++;
		dot = strchr(rest, '.');
		n = dot != NULL ? (size_t)(dot - rest) : strlen(rest);
		memcpy(first, rest, n);
		first[n] = '\0';
		v = json_is_object(v) ? json_object_get(v, first) : NULL;
	}
	return v;
}

static bool
truthy(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_NULL:
	case JSON_FALSE:
		return false;
	case JSON_ARRAY:
		return json_array_size(v) > 0;
	case JSON_STRING:
		return json_string_length(v) > 0;
	case JSON_INTEGER:
		return json_integer_value(v) != 0;
	default:
		return true;
	}
}

enum line_kind {
	LINE_SHELL,
	LINE_SBATCH,	/* "#SBATCH": sbatch's lexer reads it */
	LINE_COMMENT,	/* any other line starting with '#': nobody does */
};

static enum line_kind
line_kind(const struct render *r)
{
	const char	*line = r->out->data + r->line_start;

	if (strncmp(line, "#SBATCH", 7) == 0)
		return LINE_SBATCH;
	return line[0] == '#' ? LINE_COMMENT : LINE_SHELL;
}

static void
emit_text(struct render *r, const char *s, size_t n)
{
	size_t	 k;

	buf_add(r->out, s, n);
	/* Track where the current output line starts. */
	for (k = n; k > 0; k--)
		if (s[k - 1] == '\n') {
			r->line_start = r->out->len - n + k;
			break;
		}
}

static struct error *
emit_var(struct render *r, const struct tok *tok)
{
	json_t		*v = lookup(r, tok->name);
	struct error	*err;
	const char	*why;
	char		 num[64];

	if (v == NULL)
		return tmpl_error(r->t, tok->part, tok->line, tok->col, "unknown variable "
		    "'%s'", tok->name);
	switch (json_typeof(v)) {
	case JSON_STRING:
		/*
		 * Quoting only adds: refuse what cannot fit before copying,
		 * and what quoting made too long after.
		 */
		if ((err = room(r, tok, json_string_length(v))) != NULL)
			return err;
		switch (line_kind(r)) {
		case LINE_SBATCH:
			if ((why = quote_sbatch_check(json_string_value(v))))
				return tmpl_error(r->t, tok->part, tok->line, tok->col,
				    "'%s' %s", tok->name, why);
			quote_sbatch(r->out, json_string_value(v));
			break;
		case LINE_COMMENT:
			/* Read by people only; a newline would end it. */
			if (strpbrk(json_string_value(v), "\n\r") != NULL ||
			    strlen(json_string_value(v)) !=
			    json_string_length(v))
				return tmpl_error(r->t, tok->part, tok->line, tok->col,
				    "'%s' contains a newline or NUL byte",
				    tok->name);
			buf_adds(r->out, json_string_value(v));
			break;
		case LINE_SHELL:
			quote_shell(r->out, json_string_value(v));
			break;
		}
		return room(r, tok, 0);
	case JSON_INTEGER:
		snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		break;
	case JSON_REAL:
		snprintf(num, sizeof num, "%g", json_real_value(v));
		break;
	case JSON_TRUE:
		snprintf(num, sizeof num, "true");
		break;
	case JSON_FALSE:
		snprintf(num, sizeof num, "false");
		break;
	default:
		return tmpl_error(r->t, tok->part, tok->line, tok->col, "'%s' is %s and "
		    "cannot be written; use a section", tok->name,
		    json_is_null(v) ? "null" : json_is_array(v) ? "a list" :
		    "an object");
	}
	if ((err = room(r, tok, strlen(num))) != NULL)
		return err;
	buf_adds(r->out, num);
	return NULL;
}

static struct error *render_range(struct render *, size_t, size_t);

/* Render the section at I once per item of LIST. */
static struct error *
render_list(struct render *r, size_t i, json_t *list)
{
	const struct tok	*tok = &r->t->toks[i];
	struct error		*err = NULL;
	json_t			*item;
	size_t			 k;
	bool			 outermost = r->outer == NULL;

	if (outermost)
		r->outer = tok;
	json_array_foreach(list, k, item) {
		if ((err = step(r, tok)) != NULL)
			break;
		r->stack[r->depth++] = item;
		err = render_range(r, i + 1, tok->end);
		r->depth--;
		if (err != NULL)
			break;
	}
	if (outermost)
		r->outer = NULL;
	return err;
}

static struct error *
render_section(struct render *r, size_t i)
{
	const struct tok	*tok = &r->t->toks[i];
	struct error		*err = NULL;
	json_t			*v = lookup(r, tok->name);

	if (v == NULL)
		return tmpl_error(r->t, tok->part, tok->line, tok->col, "unknown variable "
		    "'%s'", tok->name);
	if (tok->type == TOK_INVERTED) {
		if (!truthy(v))
			err = render_range(r, i + 1, tok->end);
		return err;
	}
	if (!truthy(v))
		return NULL;
	if (json_is_array(v))
		return render_list(r, i, v);
	r->stack[r->depth++] = v;
	err = render_range(r, i + 1, tok->end);
	r->depth--;
	return err;
}

static struct error *
render_range(struct render *r, size_t from, size_t to)
{
	struct error	*err;
	size_t		 i;

	for (i = from; i < to; i++) {
		const struct tok *tok = &r->t->toks[i];

		if ((err = step(r, tok)) != NULL)
			return err;
		switch (tok->type) {
		case TOK_TEXT:
			if ((err = room(r, tok, tok->len)) != NULL)
				return err;
			emit_text(r, tok->text, tok->len);
			break;
		case TOK_VAR:
			if ((err = emit_var(r, tok)) != NULL)
				return err;
			break;
		case TOK_SECTION:
		case TOK_INVERTED:
			if ((err = render_section(r, i)) != NULL)
				return err;
			i = tok->end;
			break;
		case TOK_END:
			break;
		}
	}
	return NULL;
}

struct error *
tmpl_check(const char *name, const char *text)
{
	struct tmpl	 t;
	struct error	*err;

	memset(&t, 0, sizeof t);
	t.name = name;
	err = parse(&t, text, NULL, 0);
	free(t.toks);
	return err;
}

struct error *
tmpl_render(const char *name, const char *text, json_t *ctx, struct buf *out)
{
	struct tmpl	 t;
	struct render	 r;
	struct error	*err;

	memset(&t, 0, sizeof t);
	t.name = name;
	if ((err = parse(&t, text, NULL, 0)) == NULL) {
		memset(&r, 0, sizeof r);
		r.t = &t;
		r.stack[r.depth++] = ctx;
		r.out = out;
		r.start = out->len;
		r.line_start = out->len;
		err = render_range(&r, 0, t.ntoks);
	}
	free(t.toks);
	return err;
}
