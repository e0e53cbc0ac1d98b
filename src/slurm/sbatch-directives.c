/* sbatch-directives.c: #SBATCH lines to a job description; see the .h. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "jobdesc.h"
#include "number.h"
#include "quote.h"
#include "sbatch-directives.h"
#include "sbatch-options.h"
#include "slurmopt.h"
#include "xmalloc.h"

/* The options mbsbatch reads back: the rows of slurmopt_table. */
#define NOPTS		slurmopt_table_size

/* The field an option sets, shared with another that sets it too: the
 * last of them wins, whichever it is. */
static size_t
field_of(size_t o)
{
	const struct slurmopt_def	*d;
	const char			*same = NULL;

	if (slurmopt_table[o].kind == SK_NO_REQUEUE)
		same = "requeue";
	/* A row renamed in slurmopt_table leaves the option its own. */
	if (same == NULL || (d = slurmopt_find(same, strlen(same))) == NULL)
		return o;
	return (size_t)(d - slurmopt_table);
}

struct parse {
	const char	*name;
	int		 line;		/* 0: an environment variable */
	const char	*option;	/* as written, or the variable */
	struct {
		int	 line;
		char	*text;		/* "--name=value" */
	}		*set;		/* NOPTS: the last directive of
					   each field */
	char		**warnings;
	size_t		 nwarnings;
};

static struct error * __attribute__((format(printf, 2, 3)))
perr(const struct parse *p, const char *fmt, ...)
{
	struct error	*err;
	va_list		 ap;
	char		*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (p->line == 0)
		err = error_new(EXIT_USAGE, "%s: %s", p->option, msg);
	else
		err = error_new(EXIT_USAGE, "script '%s': line %d: %s: %s",
		    p->name, p->line, p->option, msg);
	free(msg);
	return err;
}

static void __attribute__((format(printf, 2, 3)))
pwarn(struct parse *p, const char *fmt, ...)
{
	va_list	 ap;

	p->warnings = xreallocarray(p->warnings, p->nwarnings + 2,
	    sizeof *p->warnings);
	va_start(ap, fmt);
	p->warnings[p->nwarnings++] = xvasprintf(fmt, ap);
	va_end(ap);
	p->warnings[p->nwarnings] = NULL;
}

static struct error *
count(const struct parse *p, const char *v, int64_t *out)
{
	const char	*why = number_parse_int(v, 1, INT64_C(1) << 30, out);

	return why != NULL ? perr(p, "'%s' %s", v, why) : NULL;
}

/* "N" or "N-M" nodes. */
static struct error *
parse_nodes(const struct parse *p, const char *v, struct jobdesc *d)
{
	char	*copy = xstrdup(v), *dash = strchr(copy, '-');
	struct error *err;

	if (dash != NULL)
		*dash = '\0';
	/* sbatch takes 0 (a job of licenses or a burst buffer only). */
	if (strspn(copy, "0") == strlen(copy) && *copy != '\0') {
		free(copy);
		return perr(p, "'%s': a job of no nodes cannot be sent", v);
	}
	err = count(p, copy, &d->nodes_min);
	if (err == NULL)
		err = dash != NULL ? count(p, dash + 1, &d->nodes_max) : NULL;
	if (err == NULL && dash == NULL)
		d->nodes_max = d->nodes_min;
	if (err == NULL && d->nodes_max < d->nodes_min)
		err = perr(p, "'%s': the maximum is below the minimum", v);
	free(copy);
	return err;
}

/*
 * "[TYPE:]N" GPUs: the count in *OUT and the GRES type in TYPE ("" for
 * none; NULL: a type is refused, --gpus-per-task).  Slurm splits a
 * request at ':' (gres.c _get_next_gres()); the type is checked as gen
 * checks gres_types, so that every back end can send it.
 */
static struct error *
parse_gpus(const struct parse *p, const char *v, int64_t *out, char *type)
{
	const char	*colon = strrchr(v, ':'), *why;

	if (colon != NULL && strchr(v, ':') != colon)
		return perr(p, "'%s' is not [TYPE:]COUNT", v);
	if (colon != NULL && type == NULL)
		return perr(p, "'%s': GPU types cannot be sent; write the "
		    "count only", v);
	if (colon == NULL) {
		if (type != NULL)
			*type = '\0';
		return count(p, v, out);
	}
	if (colon - v > JOBDESC_GRES_TYPE_MAX)
		return perr(p, "'%s': a GPU type of more than %d characters "
		    "cannot be sent", v, JOBDESC_GRES_TYPE_MAX);
	memcpy(type, v, (size_t)(colon - v));
	type[colon - v] = '\0';
	if ((why = slurmopt_check_gres_type_name(type)) != NULL)
		return perr(p, "'%s': a GPU type that %s cannot be sent", v,
		    why);
	return count(p, colon + 1, out);
}

/*
 * --gres: only gpu:[TYPE:]N can be carried, written bare or with the
 * "gres:" or "gres/" prefix.  sbatch adds its release's prefix to a bare name and
 * keeps one already there (gres_prepend_tres_type()), so the prefix of
 * the other releases makes a name slurmctld refuses; which one is up to
 * the release (jobdesc_check_release()).
 */
static struct error *
parse_gres(const struct parse *p, const char *v, struct jobdesc *d)
{
	const char	*g = v;
	char		 prefix = '\0';

	if (strncmp(g, "gres/", 5) == 0 || strncmp(g, "gres:", 5) == 0) {
		prefix = g[4];
		g += 5;
	}
	if (strncmp(g, "gpu:", 4) != 0)
		return perr(p, "'%s': only gpu:COUNT can be sent", v);
	d->gres_prefix = prefix;
	return parse_gpus(p, g + 4, &d->gres_gpus, d->gres_gpu_type);
}

/* --mail-type: sbatch's parse_mail_type(), then how its release keeps
 * an earlier line's (jobdesc.h). */
static struct error *
parse_mail_type(const struct parse *p, const char *v, struct jobdesc *d)
{
	int	 mask = slurmopt_mail_type(v);

	if (mask == -1)
		return perr(p, "'%s' names no mail type sbatch knows "
		    "(sbatch: \"Invalid --mail-type specification\")", v);
	d->mail_type = mask;
	d->mail_type_or = (d->mail_type_or == -1 ? 0 : d->mail_type_or) |
	    mask;
	return NULL;
}

/* sbatch's isspace(): the C locale's. */
static bool
space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * --signal as sbatch reads it (slurmopt_signal_parse(), whose table says
 * which release knows the name: jobdesc_check_release()).  A later
 * --signal (or SBATCH_SIGNAL) replaces the signal and the time, and keeps
 * the flags of the earlier ones: arg_set_signal() ORs them into the
 * option's (warn_flags |= KILL_JOB_BATCH).
 */
static struct error *
parse_signal(const struct parse *p, const char *v, struct jobdesc *d)
{
	struct slurmopt_signal	 sig;
	const char		*why;

	if ((why = slurmopt_signal_parse(v, &sig)) != NULL)
		return perr(p, "'%s' %s", v, why);
	d->signal_batch = d->signal_batch || sig.batch;
	if (sig.resv)
		return perr(p, "'%s': the R (reservation) flag cannot be sent",
		    v);
	if (sig.num > SLURMOPT_SIGNAL_MAX)
		return perr(p, "'%s': signal %d cannot be sent (1 to %d)", v,
		    sig.num, SLURMOPT_SIGNAL_MAX);
	d->signal_num = sig.num;
	d->signal_time = sig.secs;
	d->signal_since = sig.since;
	return NULL;
}

/* A later --export replaces an earlier one, as in sbatch (arg_set_export). */
static struct error *
parse_export(const struct parse *p, const char *v, struct jobdesc *d)
{
	char	*copy = xstrdup(v), *tok, *rest = copy;
	bool	 all = false, none = false, any = false;
	size_t	 k;

	for (k = 0; k < d->nexport_vars; k++)
		free(d->export_vars[k]);
	d->nexport_vars = 0;
	while ((tok = strsep(&rest, ",")) != NULL) {
		if (*tok == '\0')
			continue;
		if (strcmp(tok, "ALL") == 0)
			all = true;
		else if (strcmp(tok, "NONE") == 0)
			none = true;
		else if (strncmp(tok, "NIL", 3) == 0 && tok[3] == '\0') {
			free(copy);
			return perr(p, "'NIL' cannot be sent");
		} else {
			d->export_vars = xreallocarray(d->export_vars,
			    d->nexport_vars + 1, sizeof *d->export_vars);
			d->export_vars[d->nexport_vars++] = xstrdup(tok);
			any = true;
		}
	}
	free(copy);
	if (all && none)
		return perr(p, "'%s': both ALL and NONE", v);
	d->export_mode = all ? EXPORT_ALL : none ? EXPORT_NONE :
	    any ? EXPORT_LIST : EXPORT_ALL;
	return NULL;
}

static void
set_str(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v);
}

static struct error *
apply_special(const struct parse *p, const struct slurmopt_def *r,
    const char *v, struct jobdesc *d)
{
	switch (r->kind) {
	case SK_NODES:
		return parse_nodes(p, v, d);
	case SK_GPUS_PER_NODE:
		return parse_gpus(p, v, &d->gpus_per_node,
		    d->gpus_per_node_type);
	case SK_GPUS_PER_TASK:
		return parse_gpus(p, v, &d->gpus_per_task, NULL);
	case SK_GRES:
		return parse_gres(p, v, d);
	case SK_MAIL_TYPE:
		return parse_mail_type(p, v, d);
	case SK_MEM:
		if (slurmopt_check_mem(v) != NULL)
			return perr(p, "'%s' %s", v, slurmopt_check_mem(v));
		slurmopt_mem_mb(v, &d->mem_mb);
		return NULL;
	case SK_TIME:
		if (slurmopt_time_minutes(v, &d->time_minutes,
		    &d->time_unlimited) == -1)
			return perr(p, "'%s' %s", v, slurmopt_check_time(v));
		/* arg_set_time_limit(): 0 is no limit. */
		if (d->time_minutes == 0)
			d->time_unlimited = true;
		return NULL;
	case SK_EXCLUSIVE:
		/* sbatch takes "exclusive" as the plain option. */
		if (v != NULL && strcasecmp(v, "exclusive") != 0)
			return perr(p, "'%s': only plain --exclusive can be "
			    "sent", v);
		d->exclusive = true;
		return NULL;
	case SK_SIGNAL:
		return parse_signal(p, v, d);
	case SK_REQUEUE:
		/* Valued only from SBATCH_REQUEUE; sbatch 25.11 takes any
		 * value but "expedite" as plain --requeue (arg_set_requeue). */
		if (v != NULL && strcasecmp(v, "expedite") == 0)
			return perr(p, "'%s': an expedited requeue cannot be "
			    "sent", v);
		d->requeue = 1;
		return NULL;
	case SK_NO_REQUEUE:
		d->requeue = 0;
		return NULL;
	case SK_EXPORT:
		set_str(&d->export_env, v);
		return parse_export(p, v, d);
	case SK_SEGMENT:
		return perr(p, "cannot be sent through libslurm or REST "
		    "here; submit with --via sbatch");
	case SK_NICE: {
		const char	*why = slurmopt_nice(v, slurmopt_field(r, d));

		return why != NULL ? perr(p, "'%s' %s", v, why) : NULL;
	}
	case SK_OPEN_MODE:
		/* sbatch takes any prefix of either word (opt.c). */
		if (*v != '\0' && strncasecmp(v, "append", strlen(v)) == 0)
			d->open_mode = 1;
		else if (*v != '\0' &&
		    strncasecmp(v, "truncate", strlen(v)) == 0)
			d->open_mode = 2;
		else
			return perr(p, "'%s' is not append or truncate", v);
		return NULL;
	default:
		return NULL;
	}
}

/* Option R set to V (NULL: no value) into D, by its row's kind. */
static struct error *
apply(const struct parse *p, const struct slurmopt_def *r, const char *v,
    struct jobdesc *d)
{
	const char	*why;

	switch (r->kind) {
	case SK_STRING:
		if (r->check != NULL && (why = r->check(v)) != NULL)
			return perr(p, "'%s' %s", v, why);
		set_str(slurmopt_field(r, d), v);
		return NULL;
	case SK_COUNT:
		return count(p, v, slurmopt_field(r, d));
	case SK_FLAG:
		*(bool *)slurmopt_field(r, d) = true;
		return NULL;
	default:
		return apply_special(p, r, v, d);
	}
}

/* "--name" or "--name=value": option O as it was set. */
static char *
option_text(size_t o, const char *value)
{
	return value != NULL ? xasprintf("--%s=%s", slurmopt_table[o].name,
	    value) : xasprintf("--%s", slurmopt_table[o].name);
}

/* Remember the directive that set a field, to say when a variable wins. */
static void
record(struct parse *p, size_t o, const char *value)
{
	size_t		 f = field_of(o);

	free(p->set[f].text);
	p->set[f].text = option_text(o, value);
	p->set[f].line = p->line;
}

/* The words of the #SBATCH lines, each with its line: sbatch gives them
 * to getopt_long() as one argv (_opt_batch_script()). */
struct words {
	struct word {
		char	*text;
		int	 line;
	}		*w;
	size_t		 n;
};

static void
words_add(struct words *ws, char *text, int line)
{
	ws->w = xreallocarray(ws->w, ws->n + 1, sizeof *ws->w);
	ws->w[ws->n].text = text;
	ws->w[ws->n++].line = line;
}

static void
words_release(struct words *ws)
{
	size_t	 i;

	for (i = 0; i < ws->n; i++)
		free(ws->w[i].text);
	free(ws->w);
}

/* The row of long option NAME (LEN bytes), or NOPTS. */
static size_t
long_option(const char *name, size_t len)
{
	size_t	 o;

	for (o = 0; o < NOPTS; o++)
		if (strlen(slurmopt_table[o].name) == len &&
		    strncmp(slurmopt_table[o].name, name, len) == 0)
			break;
	return o;
}

/*
 * Is NAME (LEN bytes) the start of exactly one of our long options?  (The
 * start of two, such as --gpus, is an option of sbatch's own, or one it
 * refuses as ambiguous.)
 */
static bool
abbreviated(const char *name, size_t len)
{
	size_t	 o, n = 0;

	for (o = 0; o < NOPTS && len > 0; o++)
		if (strncmp(slurmopt_table[o].name, name, len) == 0)
			n++;
	return n == 1;
}

/*
 * Word *I, a long option ("--name" or "--name=value"), as getopt_long()
 * reads it: its row in *O and value in *VALUE (NULL: none), *I moved past
 * a value taken from the next word.  Only exact names are read: getopt
 * would also take a prefix that no other of sbatch's options shares,
 * which depends on the release's option list.
 */
static struct error *
long_word(struct parse *p, const struct words *ws, size_t *i, size_t *o,
    const char **value)
{
	const char	*a = ws->w[*i].text, *eq = strchr(a, '=');
	size_t		 len = eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2);

	if ((*o = long_option(a + 2, len)) == NOPTS)
		return perr(p, abbreviated(a + 2, len) ? "an abbreviated "
		    "option, which mbsbatch does not read; write it in full" :
		    "not an option mbsbatch can send; submit with --via "
		    "sbatch");
	*value = NULL;
	if (slurmopt_table[*o].arg == SA_NONE) {
		if (eq != NULL)
			return perr(p, "takes no value");
	} else if (eq != NULL)
		*value = eq + 1;
	else if (slurmopt_table[*o].arg == SA_REQUIRED) {
		if (*i + 1 >= ws->n)
			return perr(p, "needs a value");
		*value = ws->w[++*i].text;
	}
	return NULL;
}

/* Set option O to VALUE (NULL: none) into D, and remember where. */
static struct error *
set_option(struct parse *p, size_t o, const char *value, struct jobdesc *d)
{
	struct error	*err;

	if (slurmopt_table[o].arg != SA_NONE && value != NULL &&
	    *value == '\0')
		return perr(p, "the value is empty");
	if ((err = apply(p, &slurmopt_table[o], value, d)) != NULL)
		return err;
	record(p, o, value);
	return NULL;
}

/*
 * Word *I, short options ("-H", "-N2", "-N 2", "-HN2"), as getopt() reads
 * them: flags one after the other, then at most one option with a value,
 * the rest of the word or else the next word (never without its '=':
 * "-J=x" names the job "=x").
 */
static struct error *
short_word(struct parse *p, const struct words *ws, size_t *i,
    struct jobdesc *d)
{
	struct error	*err;
	const char	*a = ws->w[*i].text, *value;
	size_t		 k, o;

	for (k = 1; a[k] != '\0'; k++) {
		for (o = 0; o < NOPTS; o++)
			if (slurmopt_table[o].shortopt == a[k])
				break;
		if (o == NOPTS)
			return perr(p, "-%c: not an option mbsbatch can send; "
			    "submit with --via sbatch", a[k]);
		if (slurmopt_table[o].arg == SA_NONE) {
			if ((err = set_option(p, o, NULL, d)) != NULL)
				return err;
			continue;
		}
		if (a[k + 1] != '\0')
			value = a + k + 1;
		else if (*i + 1 < ws->n)
			value = ws->w[++*i].text;
		else
			return perr(p, "needs a value");
		return set_option(p, o, value, d);
	}
	return NULL;
}

/*
 * The words, as sbatch's getopt_long() reads them (opt_string "+...": the
 * first word that is not an option ends the reading, and sbatch refuses
 * the script if any word is left: "Invalid directive found in batch
 * script").  LENIENT: a word that cannot be carried is passed over.
 */
static struct error *
parse_words(struct parse *p, const struct words *ws, int lenient,
    struct jobdesc *d)
{
	struct error	*err;
	const char	*a, *value = NULL;
	size_t		 i, o;

	for (i = 0; i < ws->n; i++) {
		a = ws->w[i].text;
		p->line = ws->w[i].line;
		p->option = a;
		if (strcmp(a, "--") == 0) {
			/* getopt's end of the options. */
			if (i + 1 == ws->n || lenient)
				return NULL;
			p->line = ws->w[i + 1].line;
			p->option = ws->w[i + 1].text;
			return perr(p, "after '--', not an option (sbatch "
			    "refuses the script)");
		}
		if (a[0] != '-' || a[1] == '\0')
			err = perr(p, "not an option (sbatch refuses the "
			    "script: \"Invalid directive\")");
		else if (a[1] != '-')
			err = short_word(p, ws, &i, d);
		else if ((err = long_word(p, ws, &i, &o, &value)) == NULL)
			err = set_option(p, o, value, d);
		if (err == NULL)
			continue;
		if (!lenient)
			return err;
		error_free(err);	/* sbatch reads it itself */
	}
	return NULL;
}

/*
 * sbatch's input variables: env_vars[] of src/sbatch/opt.c in Slurm 25.11,
 * in its order (_opt_env reads them in turn: a later one for the same
 * field wins), with the option each sets and how that option takes a
 * value in 25.11.  The table holds every name of 22.05, 24.11 and 25.05
 * but SBATCH_DEBUG (verbosity only; an early variable from 24.11).  A
 * name not here is not read by sbatch, so not by us either.
 */
enum env_kind {
	ENV_ARG,	/* required_argument: the value as it is */
	ENV_OPTIONAL,	/* optional_argument: "" is no value */
	ENV_FLAG,	/* no_argument: "", "yes" or a non-zero number sets
			   it, anything else resets it (slurm_process_option) */
};

static const struct {
	const char	*var;
	const char	*option;	/* sbatch's long option */
	enum env_kind	 kind;
} env_vars[] = {
	{ "SBATCH_ACCOUNT", "account", ENV_ARG },
	{ "SBATCH_ARRAY_INX", "array", ENV_ARG },
	{ "SBATCH_ACCTG_FREQ", "acctg-freq", ENV_ARG },
	{ "SBATCH_BATCH", "batch", ENV_ARG },
	{ "SBATCH_BURST_BUFFER", "bb", ENV_ARG },
	{ "SBATCH_CLUSTER_CONSTRAINT", "cluster-constraint", ENV_ARG },
	{ "SBATCH_CLUSTERS", "clusters", ENV_ARG },
	{ "SLURM_CLUSTERS", "clusters", ENV_ARG },
	{ "SBATCH_CONSOLIDATE_SEGMENTS", "consolidate-segments", ENV_FLAG },
	{ "SBATCH_CONTAINER", "container", ENV_ARG },
	{ "SBATCH_CONTAINER_ID", "container-id", ENV_ARG },
	{ "SBATCH_CONSTRAINT", "constraint", ENV_ARG },
	{ "SBATCH_CORE_SPEC", "core-spec", ENV_ARG },
	{ "SBATCH_CPU_FREQ_REQ", "cpu-freq", ENV_ARG },
	{ "SBATCH_CPUS_PER_GPU", "cpus-per-gpu", ENV_ARG },
	{ "SBATCH_DELAY_BOOT", "delay-boot", ENV_ARG },
	{ "SBATCH_DISTRIBUTION", "distribution", ENV_ARG },
	{ "SBATCH_EXCLUSIVE", "exclusive", ENV_OPTIONAL },
	{ "SBATCH_EXPORT", "export", ENV_ARG },
	{ "SBATCH_GET_USER_ENV", "get-user-env", ENV_FLAG },
	{ "SBATCH_GRES", "gres", ENV_ARG },
	{ "SBATCH_GRES_FLAGS", "gres-flags", ENV_ARG },
	{ "SBATCH_GPUS", "gpus", ENV_ARG },
	{ "SBATCH_GPU_BIND", "gpu-bind", ENV_ARG },
	{ "SBATCH_GPU_FREQ", "gpu-freq", ENV_ARG },
	{ "SBATCH_GPUS_PER_NODE", "gpus-per-node", ENV_ARG },
	{ "SBATCH_GPUS_PER_SOCKET", "gpus-per-socket", ENV_ARG },
	{ "SBATCH_GPUS_PER_TASK", "gpus-per-task", ENV_ARG },
	{ "SLURM_HINT", "hint", ENV_ARG },
	{ "SBATCH_HINT", "hint", ENV_ARG },
	{ "SBATCH_JOB_NAME", "job-name", ENV_ARG },
	{ "SBATCH_MEM_BIND", "mem-bind", ENV_ARG },
	{ "SBATCH_MEM_PER_CPU", "mem-per-cpu", ENV_ARG },
	{ "SBATCH_MEM_PER_GPU", "mem-per-gpu", ENV_ARG },
	{ "SBATCH_MEM_PER_NODE", "mem", ENV_ARG },
	{ "SBATCH_NETWORK", "network", ENV_ARG },
	{ "SBATCH_NO_KILL", "no-kill", ENV_OPTIONAL },
	{ "SBATCH_NO_REQUEUE", "no-requeue", ENV_FLAG },
	{ "SBATCH_OPEN_MODE", "open-mode", ENV_ARG },
	{ "SBATCH_OVERCOMMIT", "overcommit", ENV_FLAG },
	{ "SBATCH_PARTITION", "partition", ENV_ARG },
	{ "SBATCH_POWER", "power", ENV_ARG },
	{ "SBATCH_PROFILE", "profile", ENV_ARG },
	{ "SBATCH_QOS", "qos", ENV_ARG },
	{ "SBATCH_REQ_SWITCH", "switches", ENV_ARG },
	{ "SBATCH_REQUEUE", "requeue", ENV_OPTIONAL },
	{ "SBATCH_RESERVATION", "reservation", ENV_ARG },
	{ "SBATCH_SEGMENT_SIZE", "segment", ENV_ARG },
	{ "SBATCH_SIGNAL", "signal", ENV_ARG },
	{ "SBATCH_SPREAD_JOB", "spread-job", ENV_FLAG },
	{ "SBATCH_SPREAD_SEGMENTS", "spread-segments", ENV_FLAG },
	{ "SBATCH_THREAD_SPEC", "thread-spec", ENV_ARG },
	{ "SBATCH_THREADS_PER_CORE", "threads-per-core", ENV_ARG },
	{ "SBATCH_TIMELIMIT", "time", ENV_ARG },
	{ "SBATCH_TRES_BIND", "tres-bind", ENV_ARG },
	{ "SBATCH_TRES_PER_TASK", "tres-per-task", ENV_ARG },
	{ "SBATCH_USE_MIN_NODES", "use-min-nodes", ENV_FLAG },
	{ "SBATCH_WAIT", "wait", ENV_FLAG },
	{ "SBATCH_WAIT_ALL_NODES", "wait-all-nodes", ENV_ARG },
	{ "SBATCH_WAIT4SWITCH", "switches", ENV_ARG },
	{ "SBATCH_WCKEY", "wckey", ENV_ARG },
	{ "SBATCH_ERROR", "error", ENV_ARG },
	{ "SBATCH_INPUT", "input", ENV_ARG },
	{ "SBATCH_OUTPUT", "output", ENV_ARG },
};
#define NENV_VARS	(sizeof env_vars / sizeof env_vars[0])

/* NAME's value in ENV, the first if twice, as getenv(3) finds it. */
static const char *
env_get(char *const *env, const char *name)
{
	size_t	 n = strlen(name);

	for (; env != NULL && *env != NULL; env++)
		if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
			return *env + n + 1;
	return NULL;
}

/* Whether a flag's value sets it, by slurm_process_option's rule. */
static bool
env_flag_set(const char *v)
{
	char	*end;

	return *v == '\0' || strcasecmp(v, "yes") == 0 ||
	    (strtol(v, &end, 10) != 0 && *end == '\0');
}

/*
 * Variable E, set to V, over what the lines set, through the directive's
 * own checks.  A flag set to anything but "", "yes" or a non-zero number
 * resets its option instead: for a flag we cannot send that is nothing to
 * refuse, and SBATCH_NO_REQUEUE clears --requeue as well (both options
 * reset with arg_reset_requeue).
 */
static struct error *
apply_env(struct parse *p, size_t e, const char *v, struct jobdesc *d)
{
	struct error	*err;
	const char	*value;
	char		*text;
	size_t		 f;
	size_t		 o;
	bool		 reset;

	p->option = env_vars[e].var;
	reset = env_vars[e].kind == ENV_FLAG && !env_flag_set(v);
	for (o = 0; o < NOPTS; o++)
		if (strcmp(slurmopt_table[o].name, env_vars[e].option) == 0)
			break;
	if (o == NOPTS && reset)
		return NULL;
	if (o == NOPTS)
		return perr(p, "sets --%s, which mbsbatch cannot send; unset "
		    "it, or submit with --via sbatch", env_vars[e].option);
	if (strpbrk(v, "\n\r") != NULL)
		return perr(p, "the value holds a line break");
	if (env_vars[e].kind == ENV_ARG && *v == '\0')
		return perr(p, "the value is empty");

	f = field_of(o);
	if (reset) {
		if (slurmopt_table[f].kind == SK_REQUEUE)
			d->requeue = -1;
		text = xstrdup("");
	} else {
		value = env_vars[e].kind == ENV_FLAG || *v == '\0' ? NULL : v;
		if ((err = apply(p, &slurmopt_table[o], value, d)) != NULL)
			return err;
		text = option_text(o, value);
	}
	if (p->set[f].text != NULL && strcmp(p->set[f].text, text) != 0)
		pwarn(p, "%s=%s overrides the script's %s (line %d), as it "
		    "does with sbatch", env_vars[e].var, v, p->set[f].text,
		    p->set[f].line);
	free(text);
	return NULL;
}

/* The variables over the lines, as sbatch's _opt_env does after
 * _opt_batch_script (process_options_second_pass). */
static struct error *
parse_env(struct parse *p, char *const *env, int lenient, struct jobdesc *d)
{
	struct error	*err;
	const char	*v;
	size_t		 e;

	p->line = 0;
	for (e = 0; e < NENV_VARS; e++) {
		if ((v = env_get(env, env_vars[e].var)) == NULL)
			continue;
		if ((err = apply_env(p, e, v, d)) == NULL)
			continue;
		if (!lenient)
			return err;
		error_free(err);	/* sbatch reads it itself */
	}
	return NULL;
}

/*
 * sbatch's corrections of the numbers (_opt_verify, "massage the
 * numbers"), the same in 22.05 to 25.11 for what a jobdesc holds: with
 * both --nodes and --ntasks, no more nodes than tasks.
 */
static void
correct(struct parse *p, int lenient, struct jobdesc *d)
{
	if (d->nodes_min == 0 || d->ntasks == 0)
		return;
	if (d->ntasks < d->nodes_max)
		d->nodes_max = d->ntasks;
	if (d->ntasks < d->nodes_min) {
		/* sbatch says this itself when it reads the script. */
		if (!lenient)
			pwarn(p, "can't run %lld processes on %lld nodes, "
			    "setting nnodes to %lld", (long long)d->ntasks,
			    (long long)d->nodes_min, (long long)d->ntasks);
		d->nodes_min = d->nodes_max = d->ntasks;
	}
}

static void
parse_release(struct parse *p)
{
	size_t	 f;

	for (f = 0; f < NOPTS; f++)
		free(p->set[f].text);
	free(p->set);
	freev(p->warnings);
}

struct error *
sbatch_directives_parse(const char *name, const char *script, int lenient,
    struct jobdesc *d)
{
	return sbatch_directives_parse_env(name, script, lenient, NULL, d,
	    NULL);
}

/* sbatch's magic words, in the order it tries them; #SLURM it reads
 * with an error message (_opt_batch_script()). */
static size_t
magic_len(const char *line)
{
	if (strncmp(line, "#SBATCH", 7) == 0)
		return 7;
	if (strncmp(line, "#SLURM", 6) == 0)
		return 6;
	return 0;
}

/*
 * sbatch's walk over a script (_opt_batch_script(), the same in 22.05 to
 * 25.11): lines end at '\n' only; a line starting with "#SBATCH" or
 * "#SLURM" is read, one whose first other character than white space is
 * '#' (or that has none) is passed over, and the first other line ends
 * the walk.
 */
const char *
sbatch_directives_next(const char **pos, size_t *len, int *lineno)
{
	const char	*line, *next, *s;

	for (line = *pos; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		next = next != NULL ? next + 1 : line + strlen(line);
		++*lineno;
		if (magic_len(line) != 0) {
			*pos = next;
			*len = (size_t)(next - line) - (next[-1] == '\n');
			return line;
		}
		for (s = line; s < next && space(*s); s++)
			continue;
		if (s < next && *s != '#')
			break;			/* the first command */
	}
	*pos = line;
	return NULL;
}

/*
 * The words of the #SBATCH (and #SLURM) lines into WS, as sbatch splits
 * them (quote_sbatch_split(), sbatch's get_argument()).  A line of a
 * heterogeneous job's next component is refused (LENIENT: where sbatch
 * stops reading this component's lines).
 */
static struct error *
collect_words(struct parse *p, const char *script, int lenient,
    struct words *ws)
{
	const char	*pos = script, *line, *why;
	char		*text, **argv;
	size_t		 len, m;
	bool		 slurm_said = false;
	int		 argc, k;

	while ((line = sbatch_directives_next(&pos, &len, &p->line)) != NULL) {
		m = magic_len(line);
		p->option = m == 7 ? "#SBATCH" : "#SLURM";
		if (m == 6 && !slurm_said && !lenient) {
			pwarn(p, "script '%s': line %d: change #SLURM to "
			    "#SBATCH (sbatch reads it, with an error message)",
			    p->name, p->line);
			slurm_said = true;
		}
		text = xstrndup(line + m, len - m);
		if (quote_sbatch_het_separator(text)) {
			p->option = strcasestr(text, "packjob") != NULL ?
			    "#SBATCH packjob" : "#SBATCH hetjob";
			free(text);
			if (lenient)
				return NULL;
			return perr(p, "heterogeneous jobs cannot be sent");
		}
		/* An argument takes 2 bytes at least, but the last. */
		argv = xcalloc(strlen(text) / 2 + 2, sizeof *argv);
		argc = quote_sbatch_split(text, argv, (int)(strlen(text) / 2 +
		    1), &why);
		free(text);
		if (argc < 0 && !lenient) {
			free(argv);
			return perr(p, "%s", why);
		}
		for (k = 0; k < argc; k++)
			words_add(ws, argv[k], p->line);
		free(argv);
	}
	return NULL;
}

/*
 * The first line sbatch's xlate_batch_script() would translate options
 * of, for magic word MAGIC: every line, not only those before the first
 * command, until the 101st that does not start with '#'.  Its number, or
 * 0; *FOUND says whether a line starts with MAGIC at all.
 */
static int
wrapper_line(const char *script, const char *magic, bool *found)
{
	const char	*line, *next, *why;
	char		*text, *argv[1];
	size_t		 m = strlen(magic);
	int		 non_comments = 0, lineno = 0, argc;

	*found = false;
	for (line = script; *line != '\0'; line = next) {
		next = strchr(line, '\n');
		next = next != NULL ? next + 1 : line + strlen(line);
		lineno++;
		if (strncmp(line, magic, m) != 0) {
			if (line[0] != '#' && ++non_comments > 100)
				break;
			continue;
		}
		*found = true;
		text = xstrndup(line + m, (size_t)(next - line) - m -
		    (next[-1] == '\n'));
		argc = quote_sbatch_split(text, argv, 1, &why);
		free(text);
		if (argc == 1)
			free(argv[0]);
		if (argc != 0)		/* options, or sbatch gives up */
			return lineno;
	}
	return 0;
}

/*
 * sbatch translates the options of #BSUB lines, or, if there is none, of
 * #PBS lines, unless --ignore-pbs or SBATCH_IGNORE_PBS (opt.c,
 * process_options_second_pass(), after the #SBATCH lines).  We do not
 * translate them: refuse a script in which sbatch would find any.
 */
static struct error *
check_wrappers(struct parse *p, const char *script)
{
	const char	*magic = "#BSUB";
	bool		 found;

	if ((p->line = wrapper_line(script, magic, &found)) == 0 && !found)
		p->line = wrapper_line(script, magic = "#PBS", &found);
	if (p->line == 0)
		return NULL;
	p->option = magic;
	return perr(p, "sbatch translates the options of %s lines into its "
	    "own, which mbsbatch does not; remove them, add #SBATCH "
	    "--ignore-pbs, or submit with --via sbatch", magic);
}

struct error *
sbatch_directives_parse_env(const char *name, const char *script,
    int lenient, char *const *env, struct jobdesc *d, char ***warnings)
{
	struct parse	 p;
	struct words	 ws = { NULL, 0 };
	struct error	*err = NULL;
	const char	*crlf;

	if (warnings != NULL)
		*warnings = NULL;
	if (strncmp(script, "#!", 2) != 0)
		return error_new(EXIT_USAGE, "script '%s': line 1: does not "
		    "start with #! (sbatch refuses such scripts)", name);
	/* sbatch.c, _get_script_buffer(): contains_dos_linebreak(). */
	if (!lenient && (crlf = strstr(script, "\r\n")) != NULL) {
		int	 line = 1;

		for (; script < crlf; script++)
			line += *script == '\n';
		return error_new(EXIT_USAGE, "script '%s': line %d: ends in "
		    "\\r\\n: sbatch refuses DOS line breaks", name, line);
	}
	memset(&p, 0, sizeof p);
	p.set = xcalloc(NOPTS, sizeof *p.set);
	p.name = name;
	if ((err = collect_words(&p, script, lenient, &ws)) != NULL ||
	    (err = parse_words(&p, &ws, lenient, d)) != NULL)
		goto out;
	if (!lenient && !d->ignore_pbs &&
	    env_get(env, "SBATCH_IGNORE_PBS") == NULL &&
	    (err = check_wrappers(&p, script)) != NULL)
		goto out;
	if ((err = parse_env(&p, env, lenient, d)) != NULL)
		goto out;
	correct(&p, lenient, d);
	free(d->script);
	d->script = xstrdup(script);
	if (warnings != NULL) {
		*warnings = p.warnings;
		p.warnings = NULL;
	}
out:
	words_release(&ws);
	parse_release(&p);
	return err;
}

struct error *
sbatch_directives_check_release(const char *name, const char *script,
    int release)
{
	const struct sbatch_option	*o;
	struct parse			 p;
	struct words			 ws = { NULL, 0 };
	struct error			*err = NULL;
	const char			*a;
	size_t				 i;
	int				 since;

	if (release == 0)
		return NULL;
	memset(&p, 0, sizeof p);
	p.set = xcalloc(NOPTS, sizeof *p.set);
	p.name = name;
	(void)collect_words(&p, script, 1, &ws);
	for (i = 0; i < ws.n && err == NULL; i++) {
		a = ws.w[i].text;
		if (strncmp(a, "--", 2) != 0 || (o = sbatch_option_find(a + 2,
		    strcspn(a + 2, "="))) == NULL || sbatch_option_in(o,
		    release))
			continue;
		p.line = ws.w[i].line;
		p.option = a;
		since = sbatch_option_since(o, release);
		if (since != 0)
			err = perr(&p, "sbatch of Slurm %d.%02d does not take "
			    "it (from %d.%02d on)", release / 100,
			    release % 100, since / 100, since % 100);
		else
			err = perr(&p, "sbatch of Slurm %d.%02d no longer takes "
			    "it", release / 100, release % 100);
	}
	words_release(&ws);
	parse_release(&p);
	return err;
}
