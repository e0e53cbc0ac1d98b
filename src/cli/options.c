/* options.c: the command-line parser; see options.h. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "error.h"
#include "options.h"
#include "settings.h"
#include "suggest.h"
#include "xmalloc.h"

enum global_id { G_CONFIG, G_CLUSTER, G_VERBOSE, G_QUIET, G_HELP };

static const struct {
	const char	*name;
	int		 shortopt;
	const char	*arg;
	enum global_id	 id;
} globals[] = {
	{ "config", 0, "FILE", G_CONFIG },
	{ "cluster", 0, "NAME", G_CLUSTER },
	{ "verbose", 'v', NULL, G_VERBOSE },
	{ "quiet", 'q', NULL, G_QUIET },
	{ "help", 'h', NULL, G_HELP },
};
#define NGLOBALS	(sizeof globals / sizeof globals[0])

void
options_release(struct cmd_args *args)
{
	size_t	 o;

	free(args->args);
	free(args->words);
	for (o = 0; o < CMD_MAX_OPTIONS; o++)
		free(args->values[o]);
	job_request_release(&args->req);
	memset(args, 0, sizeof *args);
}

static void
apply_global(struct cmd_args *args, enum global_id id, const char *value)
{
	switch (id) {
	case G_CONFIG:
		args->req.config_path = value;
		break;
	case G_CLUSTER:
		args->req.cluster = value;
		break;
	case G_VERBOSE:
		args->verbose++;
		break;
	case G_QUIET:
		args->quiet = true;
		break;
	case G_HELP:
		args->help = true;
		break;
	}
}

/* Take the value of option NAME: after '=', or the next word. */
static struct error *
take_value(int argc, char **argv, int *i, const char *eq, const char *name,
    const char *arg, const char **out)
{
	if (eq != NULL) {
		*out = eq + 1;
		return NULL;
	}
	if (*i + 1 >= argc)
		return error_new(EXIT_USAGE, "%s: needs a value (%s)", name,
		    arg);
	*out = argv[++*i];
	return NULL;
}

int
options_parse_global(int argc, char **argv, int *i, struct cmd_args *args,
    struct error **err)
{
	const char	*word = argv[*i], *eq, *value = NULL;
	size_t		 g, len;

	*err = NULL;
	if (word[0] != '-' || word[1] == '\0')
		return 0;
	for (g = 0; g < NGLOBALS; g++) {
		if (word[1] != '-') {
			if (globals[g].shortopt != 0 && word[2] == '\0' &&
			    word[1] == globals[g].shortopt)
				break;
			continue;
		}
		eq = strchr(word, '=');
		len = eq != NULL ? (size_t)(eq - word - 2) : strlen(word + 2);
		if (strlen(globals[g].name) == len &&
		    strncmp(word + 2, globals[g].name, len) == 0)
			break;
	}
	if (g == NGLOBALS)
		return 0;
	eq = word[1] == '-' ? strchr(word, '=') : NULL;
	if (globals[g].arg != NULL) {
		char	 label[32];

		snprintf(label, sizeof label, "--%s", globals[g].name);
		*err = take_value(argc, argv, i, eq, label, globals[g].arg,
		    &value);
		if (*err != NULL)
			return 1;
		if (value[0] == '\0') {
			*err = error_new(EXIT_USAGE, "--%s: value is empty",
			    globals[g].name);
			return 1;
		}
	} else if (eq != NULL) {
		*err = error_new(EXIT_USAGE, "--%s takes no value",
		    globals[g].name);
		return 1;
	}
	apply_global(args, globals[g].id, value);
	return 1;
}

/* Every long option name ENTRY accepts, for suggestions. */
static const char *
suggest_option(const struct cmd_entry *entry, const char *name)
{
	const char	*names[SET__COUNT + CMD_MAX_OPTIONS + NGLOBALS];
	size_t		 n = 0, i;

	for (i = 0; entry->options != NULL && entry->options[i].name; i++)
		names[n++] = entry->options[i].name;
	for (i = 0; entry->settings && i < SET__COUNT; i++)
		if ((settings_table[i].flags & SF_CLI) &&
		    (settings_table[i].flags & entry->settings))
			names[n++] = settings_table[i].option;
	for (i = 0; i < NGLOBALS; i++)
		names[n++] = globals[i].name;
	return suggest(name, names, n);
}

static struct error *
unknown_option(const struct cmd_entry *entry, const char *word)
{
	const char	*near = NULL;
	char		*name;

	if (word[1] == '-') {
		name = xstrndup(word + 2, strcspn(word + 2, "="));
		near = suggest_option(entry, name);
		free(name);
	}
	if (near != NULL)
		return error_new(EXIT_USAGE, "%s: unknown option '%.*s' (did "
		    "you mean '--%s'?)", entry->name, (int)strcspn(word, "="),
		    word, near);
	return error_hint(error_new(EXIT_USAGE, "%s: unknown option '%.*s'",
	    entry->name, (int)strcspn(word, "="), word),
	    "'mbsbatch %s --help' lists the options", entry->name);
}

/* The last value of option O wins; a repeatable one keeps each. */
static void
set_value(const struct cmd_entry *entry, struct cmd_args *args, size_t o,
    const char *value)
{
	args->value[o] = value;
	if (!entry->options[o].repeat)
		return;
	args->values[o] = xreallocarray(args->values[o],
	    args->nvalues[o] + 1, sizeof *args->values[o]);
	args->values[o][args->nvalues[o]++] = value;
}

static struct error *
parse_long(const struct cmd_entry *entry, int argc, char **argv, int *i,
    struct cmd_args *args, enum cmd_word *kind)
{
	const struct setting_def	*d;
	const char			*word = argv[*i], *eq, *value = NULL;
	struct error			*err;
	char				*name, label[96];
	bool				 negated;
	size_t				 o;

	eq = strchr(word, '=');
	name = xstrndup(word + 2, eq != NULL ? (size_t)(eq - word - 2) :
	    strlen(word + 2));
	snprintf(label, sizeof label, "--%s", name);
	for (o = 0; entry->options != NULL && entry->options[o].name; o++)
		if (strcmp(entry->options[o].name, name) == 0)
			break;
	if (entry->options != NULL && entry->options[o].name != NULL) {
		free(name);
		*kind = CW_OWN;
		if (entry->options[o].arg == NULL) {
			if (eq != NULL)
				return error_new(EXIT_USAGE,
				    "%s takes no value", label);
			args->value[o] = "";
			return NULL;
		}
		err = take_value(argc, argv, i, eq, label,
		    entry->options[o].arg, &value);
		if (err == NULL)
			set_value(entry, args, o, value);
		return err;
	}
	d = entry->settings ? settings_find_option(name, entry->settings,
	    &negated) : NULL;
	if (d != NULL && !(d->flags & SF_CLI))
		d = NULL;
	free(name);
	if (d == NULL)
		return unknown_option(entry, word);
	if (d->flags & SF_CONNECT)
		*kind = CW_CONNECT;
	if (d->type == ST_BOOL) {
		if (eq != NULL)
			return error_new(EXIT_USAGE, "%s takes no value (use "
			    "--%s or --no-%s)", label, d->option, d->option);
		return settings_set_text(&args->req.cli, d,
		    negated ? "false" : "true", ORIGIN_CLI);
	}
	if ((err = take_value(argc, argv, i, eq, label, d->arg, &value)))
		return err;
	return settings_set_text(&args->req.cli, d, value, ORIGIN_CLI);
}

static struct error *
parse_short(const struct cmd_entry *entry, int argc, char **argv, int *i,
    struct cmd_args *args)
{
	const char	*word = argv[*i], *value;
	char		 label[3] = { '-', word[1], '\0' };
	size_t		 o;

	for (o = 0; entry->options != NULL && entry->options[o].name; o++)
		if (entry->options[o].shortopt == word[1])
			break;
	if (entry->options == NULL || entry->options[o].name == NULL)
		return unknown_option(entry, word);
	if (entry->options[o].arg == NULL) {
		if (word[2] != '\0')
			return error_new(EXIT_USAGE, "%s: unknown option "
			    "'%s' (give short options one at a time)",
			    entry->name, word);
		args->value[o] = "";
		return NULL;
	}
	if (word[2] != '\0')
		value = word + 2;	/* -oFILE */
	else if (*i + 1 >= argc)
		return error_new(EXIT_USAGE, "%s: needs a value (%s)", label,
		    entry->options[o].arg);
	else
		value = argv[++*i];
	set_value(entry, args, o, value);
	return NULL;
}

/* Words ARGV[FIRST..LAST] are KIND, when ARGV is part of ARGS->argv
 * (cmd_parse_line()). */
static void
tag(struct cmd_args *args, char **argv, int first, int last,
    enum cmd_word kind)
{
	ptrdiff_t	 at = argv - args->argv;

	if (args->words == NULL || at < 0 || at >= args->argc)
		return;
	for (; first <= last; first++)
		args->words[at + first] = kind;
}

struct error *
options_parse(const struct cmd_entry *entry, int argc, char **argv,
    struct cmd_args *args)
{
	struct error	*err = NULL;
	bool		 dashdash = false;
	int		 i;

	args->args = xreallocarray(NULL, (size_t)argc + 1, sizeof *args->args);
	for (i = 0; i < argc; i++) {
		const char	*word = argv[i];
		enum cmd_word	 kind = CW_OTHER;
		int		 first = i;

		if (dashdash || word[0] != '-' || word[1] == '\0') {
			args->args[args->nargs++] = argv[i];
			continue;
		}
		if (strcmp(word, "--") == 0) {
			dashdash = true;
			continue;
		}
		if (options_parse_global(argc, argv, &i, args, &err))
			;
		else if (word[1] == '-')
			err = parse_long(entry, argc, argv, &i, args, &kind);
		else {
			err = parse_short(entry, argc, argv, &i, args);
			kind = CW_OWN;
		}
		if (err != NULL)
			return err;
		tag(args, argv, first, i, kind);
	}
	args->args[args->nargs] = NULL;
	if (args->help)
		return NULL;
	if (args->nargs > entry->max_args) {
		if (entry->max_args == 0)
			return error_new(EXIT_USAGE, "%s: unexpected argument "
			    "'%s'", entry->name, args->args[0]);
		return error_new(EXIT_USAGE, "%s: unexpected argument '%s' "
		    "(at most %d)", entry->name, args->args[entry->max_args],
		    entry->max_args);
	}
	return NULL;
}
