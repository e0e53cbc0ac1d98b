/* sbatch-directives.c: #SBATCH lines to a job description; see the .h. */
#include <ctype.h>
#include <signal.h>
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
#include "slurmopt.h"
#include "xmalloc.h"

#define MAX_ARGS	64

enum opt_id {
	O_NODES, O_NTASKS, O_NTASKS_PER_NODE, O_CPUS_PER_TASK,
	O_GPUS_PER_NODE, O_GPUS_PER_TASK, O_GRES, O_MEM, O_TIME,
	O_PARTITION, O_ACCOUNT, O_QOS, O_JOB_NAME, O_OUTPUT, O_ERROR,
	O_EXCLUSIVE, O_DEPENDENCY, O_CONSTRAINT, O_RESERVATION, O_SIGNAL,
	O_REQUEUE, O_NO_REQUEUE, O_HOLD, O_ARRAY, O_CHDIR, O_EXPORT,
	O_MAIL_TYPE, O_MAIL_USER, O_SEGMENT, O_OPEN_MODE,
};

static const struct {
	const char	*name;
	int		 shortopt;
	bool		 arg;		/* takes a value */
	bool		 optional;	/* value only as --name=value */
	enum opt_id	 id;
} opts[] = {
	{ "nodes", 'N', true, false, O_NODES },
	{ "ntasks", 'n', true, false, O_NTASKS },
	{ "ntasks-per-node", 0, true, false, O_NTASKS_PER_NODE },
	{ "cpus-per-task", 'c', true, false, O_CPUS_PER_TASK },
	{ "gpus-per-node", 0, true, false, O_GPUS_PER_NODE },
	{ "gpus-per-task", 0, true, false, O_GPUS_PER_TASK },
	{ "gres", 0, true, false, O_GRES },
	{ "mem", 0, true, false, O_MEM },
	{ "time", 't', true, false, O_TIME },
	{ "partition", 'p', true, false, O_PARTITION },
	{ "account", 'A', true, false, O_ACCOUNT },
	{ "qos", 'q', true, false, O_QOS },
	{ "job-name", 'J', true, false, O_JOB_NAME },
	{ "output", 'o', true, false, O_OUTPUT },
	{ "error", 'e', true, false, O_ERROR },
	{ "exclusive", 0, true, true, O_EXCLUSIVE },
	{ "dependency", 'd', true, false, O_DEPENDENCY },
	{ "constraint", 'C', true, false, O_CONSTRAINT },
	{ "reservation", 0, true, false, O_RESERVATION },
	{ "signal", 0, true, false, O_SIGNAL },
	{ "requeue", 0, false, false, O_REQUEUE },
	{ "no-requeue", 0, false, false, O_NO_REQUEUE },
	{ "hold", 'H', false, false, O_HOLD },
	{ "array", 'a', true, false, O_ARRAY },
	{ "chdir", 'D', true, false, O_CHDIR },
	{ "export", 0, true, false, O_EXPORT },
	{ "mail-type", 0, true, false, O_MAIL_TYPE },
	{ "mail-user", 0, true, false, O_MAIL_USER },
	{ "segment", 0, true, false, O_SEGMENT },
	{ "open-mode", 0, true, false, O_OPEN_MODE },
};
#define NOPTS	(sizeof opts / sizeof opts[0])


struct parse {
	const char	*name;
	int		 line;
	const char	*option;	/* as written, for errors */
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
	err = error_new(EXIT_USAGE, "script '%s': line %d: %s: %s", p->name,
	    p->line, p->option, msg);
	free(msg);
	return err;
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

/* "[type:]N" GPUs: the count, the type ignored as Slurm would not. */
static struct error *
parse_gpus(const struct parse *p, const char *v, int64_t *out)
{
	const char	*colon = strrchr(v, ':');

	if (colon != NULL && strchr(v, ':') != colon)
		return perr(p, "'%s' is not [TYPE:]COUNT", v);
	if (colon != NULL)
		return perr(p, "'%s': GPU types cannot be sent; write the "
		    "count only", v);
	return count(p, v, out);
}

/* --gres: only gpu:N (or gres/gpu:N) can be carried. */
static struct error *
parse_gres(const struct parse *p, const char *v, struct jobdesc *d)
{
	const char	*g = v;

	if (strncmp(g, "gres/", 5) == 0)
		g += 5;
	if (strncmp(g, "gpu:", 4) != 0)
		return perr(p, "'%s': only gpu:COUNT can be sent", v);
	d->gpus_by_gres = true;
	return parse_gpus(p, g + 4, &d->gpus_per_node);
}

static struct error *
parse_signal(const struct parse *p, const char *v, struct jobdesc *d)
{
	const char	*s = v, *at;
	char		 name[16];
	size_t		 n;
	int64_t		 t;

	if (slurmopt_check_signal(v) != NULL)
		return perr(p, "'%s' %s", v, slurmopt_check_signal(v));
	if (strncmp(s, "RB:", 3) == 0 || strncmp(s, "BR:", 3) == 0)
		return perr(p, "'%s': the R (reservation) flag cannot be sent",
		    v);
	if (strncmp(s, "R:", 2) == 0)
		return perr(p, "'%s': the R (reservation) flag cannot be sent",
		    v);
	if (strncmp(s, "B:", 2) == 0) {
		d->signal_batch = true;
		s += 2;
	}
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	at = strchr(s, '@');
	n = at != NULL ? (size_t)(at - s) : strlen(s);
	snprintf(name, sizeof name, "%.*s", (int)n, s);
	d->signal_num = 0;
	if (isdigit((unsigned char)name[0]))
		d->signal_num = atoi(name);
	else
		d->signal_num = slurmopt_signal_number(name);
	if (d->signal_num <= 0 || d->signal_num > 64)
		return perr(p, "'%s': unknown signal '%s'", v, name);
	d->signal_time = 60;
	if (at != NULL) {
		if (number_parse_int(at + 1, 0, 65535, &t) != NULL)
			return perr(p, "'%s': the time is 0 to 65535 seconds",
			    v);
		d->signal_time = (int)t;
	}
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
apply(const struct parse *p, enum opt_id id, const char *v, struct jobdesc *d)
{
	const char	*why;

	switch (id) {
	case O_NODES:
		return parse_nodes(p, v, d);
	case O_NTASKS:
		return count(p, v, &d->ntasks);
	case O_NTASKS_PER_NODE:
		return count(p, v, &d->ntasks_per_node);
	case O_CPUS_PER_TASK:
		return count(p, v, &d->cpus_per_task);
	case O_GPUS_PER_NODE:
		d->gpus_by_gres = false;
		return parse_gpus(p, v, &d->gpus_per_node);
	case O_GPUS_PER_TASK:
		return parse_gpus(p, v, &d->gpus_per_task);
	case O_GRES:
		return parse_gres(p, v, d);
	case O_MEM:
		if (slurmopt_check_mem(v) != NULL)
			return perr(p, "'%s' %s", v, slurmopt_check_mem(v));
		slurmopt_mem_mb(v, &d->mem_mb);
		return NULL;
	case O_TIME:
		if (slurmopt_time_minutes(v, &d->time_minutes,
		    &d->time_unlimited) == -1)
			return perr(p, "'%s' %s", v, slurmopt_check_time(v));
		return NULL;
	case O_PARTITION:
	case O_ACCOUNT:
	case O_QOS:
	case O_RESERVATION:
		if ((why = slurmopt_check_name(v)) != NULL)
			return perr(p, "'%s' %s", v, why);
		set_str(id == O_PARTITION ? &d->partition : id == O_ACCOUNT ?
		    &d->account : id == O_QOS ? &d->qos : &d->reservation, v);
		return NULL;
	case O_JOB_NAME:
		set_str(&d->name, v);
		return NULL;
	case O_OUTPUT:
		set_str(&d->output, v);
		return NULL;
	case O_ERROR:
		set_str(&d->error, v);
		return NULL;
	case O_EXCLUSIVE:
		/* sbatch takes "exclusive" as the plain option. */
		if (v != NULL && strcasecmp(v, "exclusive") != 0)
			return perr(p, "'%s': only plain --exclusive can be "
			    "sent", v);
		d->exclusive = true;
		return NULL;
	case O_DEPENDENCY:
		if ((why = slurmopt_check_dependency(v)) != NULL)
			return perr(p, "'%s' %s", v, why);
		set_str(&d->dependency, v);
		return NULL;
	case O_CONSTRAINT:
		set_str(&d->constraint, v);
		return NULL;
	case O_SIGNAL:
		return parse_signal(p, v, d);
	case O_REQUEUE:
		d->requeue = 1;
		return NULL;
	case O_NO_REQUEUE:
		d->requeue = 0;
		return NULL;
	case O_HOLD:
		d->hold = true;
		return NULL;
	case O_ARRAY:
		set_str(&d->array, v);
		return NULL;
	case O_CHDIR:
		set_str(&d->chdir, v);
		return NULL;
	case O_EXPORT:
		set_str(&d->export_env, v);
		return parse_export(p, v, d);
	case O_MAIL_TYPE:
		set_str(&d->mail_type, v);
		return NULL;
	case O_MAIL_USER:
		set_str(&d->mail_user, v);
		return NULL;
	case O_SEGMENT:
		return perr(p, "cannot be sent through libslurm or REST "
		    "here; submit with --via sbatch");
	case O_OPEN_MODE:
		/* sbatch takes any prefix of either word (opt.c). */
		if (*v != '\0' && strncasecmp(v, "append", strlen(v)) == 0)
			d->open_mode = 1;
		else if (*v != '\0' &&
		    strncasecmp(v, "truncate", strlen(v)) == 0)
			d->open_mode = 2;
		else
			return perr(p, "'%s' is not append or truncate", v);
		return NULL;
	}
	return NULL;
}

/* One #SBATCH line's arguments. */
static struct error *
parse_args(struct parse *p, char **argv, int argc, struct jobdesc *d)
{
	struct error	*err;
	const char	*a, *eq, *value;
	size_t		 o, len;
	int		 i;

	for (i = 0; i < argc; i++) {
		a = argv[i];
		p->option = a;
		if (a[0] != '-' || a[1] == '\0')
			return perr(p, "not an option (sbatch would stop "
			    "reading #SBATCH lines here)");
		if (a[1] == '-') {
			eq = strchr(a, '=');
			len = eq != NULL ? (size_t)(eq - a - 2) : strlen(a + 2);
			for (o = 0; o < NOPTS; o++)
				if (strlen(opts[o].name) == len &&
				    strncmp(opts[o].name, a + 2, len) == 0)
					break;
			if (o == NOPTS)
				return perr(p, "not an option mbsbatch can "
				    "send; submit with --via sbatch");
			if (!opts[o].arg) {
				if (eq != NULL)
					return perr(p, "takes no value");
				value = NULL;
			} else if (eq != NULL)
				value = eq + 1;
			else if (opts[o].optional)
				value = NULL;
			else if (i + 1 < argc)
				value = argv[++i];
			else
				return perr(p, "needs a value");
		} else {
			for (o = 0; o < NOPTS; o++)
				if (opts[o].shortopt == a[1])
					break;
			if (o == NOPTS)
				return perr(p, "not an option mbsbatch can "
				    "send; submit with --via sbatch");
			if (!opts[o].arg)
				value = NULL;
			else if (a[2] != '\0')
				value = a[2] == '=' ? a + 3 : a + 2;
			else if (i + 1 < argc)
				value = argv[++i];
			else
				return perr(p, "needs a value");
		}
		if (opts[o].arg && value != NULL && *value == '\0')
			return perr(p, "the value is empty");
		if ((err = apply(p, opts[o].id, value, d)) != NULL)
			return err;
	}
	return NULL;
}

struct error *
sbatch_directives_parse(const char *name, const char *script, int lenient,
    struct jobdesc *d)
{
	struct parse	 p = { name, 0, "#SBATCH" };
	struct error	*err = NULL;
	const char	*line = script, *next, *why, *s;
	char		*text, *argv[MAX_ARGS];
	int		 argc, k;

	if (strncmp(script, "#!", 2) != 0)
		return error_new(EXIT_USAGE, "script '%s': line 1: does not "
		    "start with #! (sbatch refuses such scripts)", name);
	for (; *line != '\0' && err == NULL; line = next) {
		next = strchr(line, '\n');
		next = next != NULL ? next + 1 : line + strlen(line);
		p.line++;
		if (p.line == 1)
			continue;
		for (s = line; s < next && (*s == ' ' || *s == '\t'); s++)
			continue;
		if (s == next || *s == '\n')
			continue;		/* blank */
		if (strncmp(line, "#SBATCH", 7) != 0) {
			if (*s == '#')
				continue;	/* a comment */
			break;			/* the first command */
		}
		text = xstrndup(line + 7, (size_t)(next - line - 7));
		text[strcspn(text, "\r\n")] = '\0';
		/* sbatch blanks "packjob" anywhere on the line. */
		if (strcasestr(text, "packjob") != NULL) {
			free(text);
			p.option = "#SBATCH";
			return perr(&p, "contains 'packjob', which sbatch "
			    "blanks out");
		}
		argc = quote_sbatch_split(text, argv, MAX_ARGS, &why);
		free(text);
		if (argc < 0) {
			p.option = "#SBATCH";
			return perr(&p, "%s", why);
		}
		if (argc == MAX_ARGS) {
			p.option = "#SBATCH";
			err = perr(&p, "more than %d words on one line",
			    MAX_ARGS - 1);
		} else if (argc > 0 && strcmp(argv[0], "hetjob") == 0) {
			p.option = "#SBATCH hetjob";
			err = perr(&p, "heterogeneous jobs cannot be sent");
		} else
			err = parse_args(&p, argv, argc, d);
		for (k = 0; k < argc; k++)
			free(argv[k]);
		if (err != NULL && lenient) {
			/* sbatch reads this line itself. */
			error_free(err);
			err = NULL;
		}
	}
	if (err == NULL) {
		free(d->script);
		d->script = xstrdup(script);
	}
	return err;
}
