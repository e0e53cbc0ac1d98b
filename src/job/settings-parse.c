/*
 * settings-parse.c: a layer of settings filled from what the user wrote,
 * each value parsed by its row of the settings table (settings-table.c):
 * a long option found by name, the text of an option or the JSON value
 * of a key checked and converted (numbers, counts, booleans, strings,
 * choices decoded to their index, lists, NAME=value environment), a job
 * file's, a profile's or a preset's JSON object read key by key with the
 * errors for unknown or misplaced keys, and the messages that say what a
 * row accepts.  settings.c keeps the layers and merges them; see
 * settings.h.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsondoc.h"
#include "number.h"
#include "settings.h"
#include "settings-value.h"
#include "suggest.h"
#include "termtext.h"
#include "xmalloc.h"

const struct setting_def *
settings_find_option(const char *name, int flags, bool *negated)
{
	size_t	 i;

	*negated = false;
	if (strncmp(name, "no-", 3) == 0) {
		for (i = 0; i < SET__COUNT; i++) {
			const struct setting_def *d = &settings_table[i];

			if (d->option != NULL && (d->flags & flags) &&
			    d->type == ST_BOOL &&
			    strcmp(d->option, name + 3) == 0) {
				*negated = true;
				return d;
			}
		}
	}
	for (i = 0; i < SET__COUNT; i++) {
		const struct setting_def *d = &settings_table[i];

		if (d->option != NULL && (d->flags & flags) &&
		    strcmp(d->option, name) == 0)
			return d;
	}
	return NULL;
}

void
settings_describe_range(const struct setting_def *d, char *out, size_t len)
{
	char	 lo[32], hi[32];

	if (d->range != NULL) {
		snprintf(out, len, "%s", d->range);
		return;
	}
	switch (d->type) {
	case ST_INT:
		snprintf(out, len, "a whole number from %lld to %lld",
		    (long long)d->min, (long long)d->max);
		break;
	case ST_COUNT:
		number_format_count(d->min, lo, sizeof lo);
		number_format_count(d->max, hi, sizeof hi);
		snprintf(out, len, "a count from %s to %s, such as 70B, 1.5T "
		    "or 7e9", lo, hi);
		break;
	case ST_GIB:
		snprintf(out, len, "a number of GiB from %lld to %lld",
		    (long long)d->min, (long long)d->max);
		break;
	case ST_REAL:
		snprintf(out, len, "a number from %lld to %lld, such as 1e-6 "
		    "or 0.5", (long long)d->min, (long long)d->max);
		break;
	case ST_BOOL:
		snprintf(out, len, "true or false");
		break;
	case ST_STRING:
	case ST_CHOICE:
		snprintf(out, len, "a string");
		break;
	case ST_LIST:
		snprintf(out, len, "a list of strings");
		break;
	case ST_ENV:
		snprintf(out, len, "an object of NAME: \"value\" strings");
		break;
	case ST_OPTIONS:
		snprintf(out, len, "an object of NAME: \"value\" or true");
		break;
	}
}

/*
 * Newlines and NUL never reach a script (docs/STYLE.md, escaping), nor a
 * control character a terminal acts on (ESC, BEL, C1: plan prints every
 * value) or a byte that is not UTF-8 (the template's context is JSON,
 * which cannot hold it): NULL, or why not, in WHY (SIZE bytes).
 */
static const char *
check_string(const char *s, size_t len, char *why, size_t size)
{
	size_t	 i;
	uint32_t c;

	if (strlen(s) != len)
		return "contains a NUL byte";
	if (strpbrk(s, "\n\r") != NULL)
		return "contains a newline";
	if ((i = termtext_utf8_valid(s, len)) != len) {
		snprintf(why, size, "is not valid UTF-8 (byte 0x%02x at offset "
		    "%zu)", (unsigned char)s[i], i);
		return why;
	}
	if ((i = termtext_hidden(s, len, &c)) != len) {
		snprintf(why, size, "contains a control character (U+%04X at "
		    "offset %zu)", (unsigned)c, i);
		return why;
	}
	return NULL;
}

/* Parse text for a numeric or boolean def; NULL or a static reason. */
static const char *
parse_scalar(const struct setting_def *d, const char *text,
    struct setting_value *v, char *why, size_t size)
{
	const char	*reason;

	switch (d->type) {
	case ST_INT:
		return number_parse_int(text, d->min, d->max, &v->i);
	case ST_COUNT:
		return number_parse_count(text, d->min, d->max, &v->i);
	case ST_GIB:
		return number_parse_decimal(text, (double)d->min,
		    (double)d->max, &v->d);
	case ST_REAL:
		if ((reason = number_parse_real(text, (double)d->min,
		    (double)d->max, &v->d)) != NULL)
			return reason;
		return d->check != NULL ? d->check(text) : NULL;
	case ST_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "yes") == 0 ||
		    strcmp(text, "on") == 0 || strcmp(text, "1") == 0)
			v->b = true;
		else if (strcmp(text, "false") == 0 ||
		    strcmp(text, "no") == 0 || strcmp(text, "off") == 0 ||
		    strcmp(text, "0") == 0)
			v->b = false;
		else
			return "is not true or false";
		return NULL;
	default:
		return check_string(text, strlen(text), why, size);
	}
}

int
settings_choice(const struct setting_def *d, const char *word)
{
	int	 i;

	for (i = 0; i < d->nwords; i++)
		if (d->words[i] != NULL && strcmp(d->words[i], word) == 0)
			return i;
	return -1;
}

const char *
settings_word(enum setting_id id, int v)
{
	const struct setting_def	*d = &settings_table[id];

	return v >= 0 && v < d->nwords ? d->words[v] : NULL;
}

/* The setting's own check of a string value, after the common ones. */
static const char *
check_value(const struct setting_def *d, const char *s)
{
	if (d->type == ST_CHOICE)
		return settings_choice(d, s) < 0 ? d->not_a_word : NULL;
	return d->check != NULL ? d->check(s) : NULL;
}

/* Decode a string value once: the index of its word, if the row has
 * words (NWORDS for other text). */
static void
decode_word(const struct setting_def *d, struct setting_value *v)
{
	int	 i;

	if (d->words == NULL)
		return;
	i = settings_choice(d, v->s);
	v->choice = i >= 0 ? i : d->nwords;
}

static bool
is_text(enum setting_type t)
{
	return t == ST_STRING || t == ST_CHOICE;
}

static bool
env_name_ok(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
	    *s == '_'))
		return false;
	for (s++; *s != '\0'; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

struct error *
settings_set_text(struct settings *set, const struct setting_def *d,
    const char *text, enum origin origin)
{
	struct setting_value	 v;
	const char		*reason, *eq;
	char			 range[96], why[80];

	memset(&v, 0, sizeof v);
	if ((is_text(d->type) || d->type == ST_LIST || d->type == ST_ENV ||
	    d->type == ST_OPTIONS) &&
	    (reason = check_string(text, strlen(text), why,
	    sizeof why)) != NULL)
		return error_new(EXIT_USAGE, "--%s: value %s", d->option,
		    reason);
	if (d->type == ST_ENV) {
		eq = strchr(text, '=');
		if (eq == NULL || eq == text) {
			return error_new(EXIT_USAGE, "--%s: '%s' is not "
			    "NAME=VALUE", d->option, text);
		} else {
			char	*name = xstrndup(text, (size_t)(eq - text));
			bool	 ok = env_name_ok(name);

			free(name);
			if (!ok)
				return error_new(EXIT_USAGE, "--%s: '%.*s' is "
				    "not a valid environment variable name "
				    "(letters, digits and _, not starting "
				    "with a digit)", d->option,
				    (int)(eq - text), text);
		}
		setting_value_env_put(&set->v[d->id], xstrdup(text));
		set->v[d->id].origin = origin;
		return NULL;
	}
	if ((is_text(d->type) || d->type == ST_LIST ||
	    d->type == ST_OPTIONS) && (reason = check_value(d, text)) != NULL)
		return error_new(EXIT_USAGE, "--%s: '%s' %s", d->option, text,
		    reason);
	if (d->type == ST_OPTIONS) {
		/* Repeatable: a later one of the same name wins. */
		setting_value_env_put(&set->v[d->id], xstrdup(text));
		set->v[d->id].origin = origin;
		return NULL;
	}
	if (d->type == ST_LIST) {
		/* Repeatable: a layer's list grows in order. */
		setting_value_append(&set->v[d->id], xstrdup(text));
		set->v[d->id].origin = origin;
		return NULL;
	}
	if ((reason = parse_scalar(d, text, &v, why, sizeof why)) != NULL) {
		settings_describe_range(d, range, sizeof range);
		return error_new(EXIT_USAGE, "--%s: '%s' %s (expected %s)",
		    d->option, text, reason, range);
	}
	setting_value_clear(&set->v[d->id]);
	if (is_text(d->type)) {
		v.s = xstrdup(text);
		decode_word(d, &v);
	}
	v.origin = origin;
	set->v[d->id] = v;
	return NULL;
}

static const char *
settings_json_type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "a whole number";
	case JSON_REAL: return "a fractional number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	}
	return "?";
}

static struct error *
wrong_type(const struct jsondoc *doc, const char *const *path,
    const struct setting_def *d, const json_t *j)
{
	char	 range[96];

	settings_describe_range(d, range, sizeof range);
	return jsondoc_error(doc, path, EXIT_USAGE,
	    "'%s' must be %s, not %s", d->key, range,
	    settings_json_type_name(j));
}

/* A string value: as check_string() allows. */
static struct error *
get_string(const struct jsondoc *doc, const char *const *path,
    const char *name, const json_t *j, char **out)
{
	const char	*reason;
	char		 why[80];

	if ((reason = check_string(json_string_value(j),
	    json_string_length(j), why, sizeof why)) != NULL)
		return jsondoc_error(doc, path, EXIT_USAGE, "'%s' %s", name,
		    reason);
	*out = xstrdup(json_string_value(j));
	return NULL;
}

static struct error *
get_list(const struct jsondoc *doc, const char **path, size_t depth,
    const struct setting_def *d, json_t *j, struct setting_value *v)
{
	struct error	*err;
	const char	*reason;
	char		 idx[32];
	char		*s;
	size_t		 i;
	json_t		*e;

	if (!json_is_array(j))
		return wrong_type(doc, path, d, j);
	json_array_foreach(j, i, e) {
		snprintf(idx, sizeof idx, "[%zu]", i);
		path[depth] = idx;
		path[depth + 1] = NULL;
		if (!json_is_string(e))
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "'%s' item %zu must be a string, not %s", d->key,
			    i + 1, settings_json_type_name(e));
		if ((err = get_string(doc, path, d->key, e, &s)) != NULL)
			return err;
		if ((reason = check_value(d, s)) != NULL) {
			err = jsondoc_error(doc, path, EXIT_USAGE,
			    "'%s' item %zu: '%s' %s", d->key, i + 1, s, reason);
			free(s);
			return err;
		}
		setting_value_append(v, s);
	}
	return NULL;
}

static struct error *
get_env(const struct jsondoc *doc, const char **path, size_t depth,
    const struct setting_def *d, json_t *j, struct setting_value *v)
{
	struct error	*err;
	const char	*name;
	char		*s;
	json_t		*e;

	if (!json_is_object(j))
		return wrong_type(doc, path, d, j);
	json_object_foreach(j, name, e) {
		path[depth] = name;
		path[depth + 1] = NULL;
		if (!env_name_ok(name))
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "'%s' is not a valid environment variable name "
			    "(letters, digits and _, not starting with a "
			    "digit)", name);
		if (!json_is_string(e))
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "env '%s' must be a string, not %s", name,
			    settings_json_type_name(e));
		if ((err = get_string(doc, path, name, e, &s)) != NULL)
			return err;
		setting_value_env_put(v, xasprintf("%s=%s", name, s));
		free(s);
	}
	return NULL;
}

/* An ST_OPTIONS object: NAME: "value", a whole number, or true (a
 * flag); each entry through the row's check as NAME=value or NAME. */
static struct error *
get_options(const struct jsondoc *doc, const char **path, size_t depth,
    const struct setting_def *d, json_t *j, struct setting_value *v)
{
	struct error	*err;
	const char	*name, *reason;
	char		*s, *text;
	json_t		*e;

	if (!json_is_object(j))
		return wrong_type(doc, path, d, j);
	json_object_foreach(j, name, e) {
		path[depth] = name;
		path[depth + 1] = NULL;
		if (json_is_true(e))
			text = xstrdup(name);
		else if (json_is_integer(e))
			text = xasprintf("%s=%lld", name,
			    (long long)json_integer_value(e));
		else if (json_is_string(e)) {
			if ((err = get_string(doc, path, name, e, &s)) != NULL)
				return err;
			text = xasprintf("%s=%s", name, s);
			free(s);
		} else
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "'%s' must be a string, a whole number or true, "
			    "not %s", name, settings_json_type_name(e));
		if ((reason = check_value(d, text)) != NULL) {
			err = jsondoc_error(doc, path, EXIT_USAGE, "'%s' %s",
			    text, reason);
			free(text);
			return err;
		}
		setting_value_env_put(v, text);
	}
	return NULL;
}

/* A JSON real as written: 2.5, and 2.0 rather than "2". */
static const char *
real_text(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.17g", v);
	if (strpbrk(buf, ".eEn") == NULL)
		snprintf(buf + strlen(buf), len - strlen(buf), ".0");
	return buf;
}

/* Read one value for d from JSON j; path[depth - 1] is its key. */
static struct error *
setting_value_from_json(const struct jsondoc *doc, const char **path,
    size_t depth, const struct setting_def *d, json_t *j,
    struct setting_value *v)
{
	struct error	*err;
	const char	*reason;
	char		 range[96], text[64], why[80];

	switch (d->type) {
	case ST_INT:
	case ST_COUNT:
	case ST_GIB:
	case ST_REAL:
		if (json_is_integer(j))
			snprintf(text, sizeof text, "%lld",
			    (long long)json_integer_value(j));
		else if (json_is_real(j) && d->type == ST_GIB)
			snprintf(text, sizeof text, "%.6f", json_real_value(j));
		else if (json_is_real(j) && d->type == ST_REAL)
			snprintf(text, sizeof text, "%.15g", json_real_value(j));
		else if (json_is_real(j) && d->type == ST_COUNT &&
		    json_real_value(j) >= 0 && json_real_value(j) < 1e18 &&
		    json_real_value(j) == (double)(int64_t)json_real_value(j))
			snprintf(text, sizeof text, "%lld",
			    (long long)json_real_value(j));
		else if (json_is_string(j) && (d->type == ST_COUNT ||
		    d->type == ST_REAL) && json_string_length(j) < sizeof text)
			snprintf(text, sizeof text, "%s", json_string_value(j));
		else if (json_is_real(j))
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "'%s': %s is not a whole number", d->key,
			    real_text(json_real_value(j), text, sizeof text));
		else
			return wrong_type(doc, path, d, j);
		if ((reason = parse_scalar(d, text, v, why,
		    sizeof why)) != NULL) {
			settings_describe_range(d, range, sizeof range);
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "'%s': %s %s (expected %s)", d->key, text, reason,
			    range);
		}
		return NULL;
	case ST_BOOL:
		if (!json_is_boolean(j))
			return wrong_type(doc, path, d, j);
		v->b = json_is_true(j);
		return NULL;
	case ST_STRING:
	case ST_CHOICE:
		if (!json_is_string(j))
			return wrong_type(doc, path, d, j);
		if ((err = get_string(doc, path, d->key, j, &v->s)) != NULL)
			return err;
		if ((reason = check_value(d, v->s)) != NULL)
			return jsondoc_error(doc, path, EXIT_USAGE,
			    "'%s': '%s' %s", d->key, v->s, reason);
		decode_word(d, v);
		return NULL;
	case ST_LIST:
		return get_list(doc, path, depth, d, j, v);
	case ST_ENV:
		return get_env(doc, path, depth, d, j, v);
	case ST_OPTIONS:
		return get_options(doc, path, depth, d, j, v);
	}
	return NULL;
}

void
settings_set_choice(struct settings *set, enum setting_id id, int v,
    enum origin origin)
{
	struct setting_value	*sv = &set->v[id];

	setting_value_clear(sv);
	sv->origin = origin;
	sv->choice = v;
	sv->s = xstrdup(settings_word(id, v));
}

/* "did you mean" over the keys allowed where the unknown key was found. */
static const char *
suggest_key(const char *key, int flags)
{
	const char	*names[SET__COUNT + 1];
	size_t		 i, n = 0;

	for (i = 0; i < SET__COUNT; i++)
		if (settings_table[i].flags & flags)
			names[n++] = settings_table[i].key;
	if (flags & (SF_JOB | SF_CLUSTER))
		names[n++] = "slurm";
	return suggest(key, names, n);
}

static const char *
where_name(int flags)
{
	if (flags & SF_SLURM)
		return "in the \"slurm\" object";
	if (flags & SF_PROFILE_SLURM)
		return "in a cluster profile's \"slurm\" object (only extra; "
		    "the other Slurm keys are the profile's own)";
	if (flags & SF_JOB)
		return "in a job file";
	if (flags & SF_CLUSTER)
		return "in a cluster profile";
	return "in a model preset";
}

static struct error *
unknown_key(const struct jsondoc *doc, const char *const *path,
    const char *key, int flags)
{
	const char	*near;
	const struct setting_def *d = NULL;
	size_t		 i;

	for (i = 0; i < SET__COUNT; i++)
		if (strcmp(settings_table[i].key, key) == 0)
			d = &settings_table[i];
	/* A connection key in a job file: say where it belongs instead. */
	if (d != NULL && (d->flags & SF_CONNECT) &&
	    (flags & (SF_JOB | SF_SLURM)))
		return error_hint(jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' is not allowed in a job file: where to connect "
		    "and with which token come only from the command line, the "
		    "environment and the config file", key),
		    "give --%s, or %s in a cluster profile of the config file "
		    "(~/.config/mbsbatch/config.json; see mbsbatch.conf(5))",
		    d->option, d->key);
	if ((near = suggest_key(key, flags)) != NULL)
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "unknown key '%s' (did you mean '%s'?)", key, near);
	/* A key valid elsewhere: say where it belongs. */
	if (d != NULL && (flags & SF_JOB) && (d->flags & SF_SLURM))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' belongs in the \"slurm\" object", key);
	if (d != NULL && (flags & SF_SLURM) && (d->flags & SF_JOB))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' belongs at the top level, not in \"slurm\"",
		    key);
	if (d != NULL)
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key '%s' is not allowed %s", key, where_name(flags));
	if (strcmp(key, "slurm") == 0)
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "key 'slurm' is not allowed %s", where_name(flags));
	return jsondoc_error(doc, path, EXIT_USAGE, "unknown key '%s'", key);
}


#define PATH_MAX_DEPTH	8

static struct error *
read_object(struct settings *set, const struct jsondoc *doc, json_t *obj,
    const char **path, size_t depth, int flags, enum origin origin)
{
	struct error		*err;
	const struct setting_def *d;
	struct setting_value	 v;
	const char		*key;
	json_t			*j;
	size_t			 i;

	if (!json_is_object(obj))
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "'%s' must be an object, not %s", depth > 0 ?
		    path[depth - 1] : "the file", settings_json_type_name(obj));
	json_object_foreach(obj, key, j) {
		path[depth] = key;
		path[depth + 1] = NULL;
		/* A job file's "slurm" object; a profile may have one too,
		 * for what only it names (extra). */
		if ((flags & (SF_JOB | SF_CLUSTER)) &&
		    strcmp(key, "slurm") == 0) {
			if (depth + 3 >= PATH_MAX_DEPTH)
				continue;
			err = read_object(set, doc, j, path, depth + 1,
			    (flags & SF_JOB) ? SF_SLURM : SF_PROFILE_SLURM,
			    origin);
			if (err != NULL)
				return err;
			path[depth] = key;
			continue;
		}
		for (d = NULL, i = 0; i < SET__COUNT; i++)
			if ((settings_table[i].flags & flags) &&
			    strcmp(settings_table[i].key, key) == 0)
				d = &settings_table[i];
		if (d == NULL)
			return unknown_key(doc, path, key, flags);
		memset(&v, 0, sizeof v);
		err = setting_value_from_json(doc, path, depth + 1, d, j, &v);
		if (err != NULL) {
			setting_value_clear(&v);
			return err;
		}
		if (d->type != ST_ENV && d->type != ST_OPTIONS)
			setting_value_clear(&set->v[d->id]);
		else {
			size_t	 k;

			for (k = 0; k < v.nlist; k++) {
				setting_value_env_put(&set->v[d->id],
				    v.list[k]);
				v.list[k] = NULL;
			}
			free(v.list);
			v = set->v[d->id];
		}
		v.origin = origin;
		set->v[d->id] = v;
	}
	return NULL;
}

struct error *
settings_from_json(struct settings *set, const struct jsondoc *doc,
    json_t *obj, const char *const *at, int flags, enum origin origin)
{
	const struct setting_def *a, *b;
	const char	*path[PATH_MAX_DEPTH + 2];
	struct error	*err;
	size_t		 depth = 0;

	for (; at != NULL && at[depth] != NULL && depth < PATH_MAX_DEPTH - 3;
	    depth++)
		path[depth] = at[depth];
	path[depth] = NULL;
	err = read_object(set, doc, obj, path, depth, flags, origin);
	if (err != NULL)
		return err;
	if ((a = settings_world_conflict(set)) != NULL) {
		b = settings_world_conflict_other(set, a);
		path[depth] = b->key;
		path[depth + 1] = NULL;
		return jsondoc_error(doc, path, EXIT_USAGE,
		    "'%s' and '%s' cannot be used together: each sets the "
		    "world size", a->key, b->key);
	}
	return NULL;
}
