/*
 * slurmopt.c: Slurm directives and value checks; see slurmopt.h.
 *
 * GPU-type defaults follow Megatron-Bridge's scripts/performance: every
 * known GPU type gets --exclusive and --mem=0 (the whole node); 4-GPU
 * nodes in 72-GPU NVLink domains (gb200, gb300) get --segment so that a
 * job's nodes share one NVL72 rack.
 */
#include <ctype.h>
#include <stddef.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jobdesc.h"
#include "number.h"
#include "quote.h"
#include "sbatch-options.h"
#include "slurmopt.h"
#include "xmalloc.h"

static int	 time_minutes(const char *, int64_t *);

#define JD(f)	offsetof(struct jobdesc, f)
#define NONE	SET__COUNT

const struct slurmopt_def slurmopt_table[] = {
	{ "job-name", 'J', SA_REQUIRED, SW_JOB_NAME, SET_JOB_NAME, SK_STRING,
	  JD(name), NULL, "name" },
	{ "nodes", 'N', SA_REQUIRED, SW_NODES, NONE, SK_NODES, 0, NULL, NULL },
	{ "ntasks-per-node", 0, SA_REQUIRED, SW_TASKS_PER_NODE, NONE,
	  SK_COUNT, JD(ntasks_per_node), NULL, NULL },
	{ "gpus-per-node", 0, SA_REQUIRED, SW_GPUS_PER_NODE, NONE,
	  SK_GPUS_PER_NODE, 0, NULL, NULL },
	{ "cpus-per-task", 'c', SA_REQUIRED, SW_GIVEN_COUNT, SET_CPUS_PER_TASK,
	  SK_COUNT, JD(cpus_per_task), NULL, NULL },
	/* The simple options (slurmopt-list.h): the first ones here, */
#define SIMPLE(id, option, shortopt, member, libslurm, check, arg, help, \
    rest_key) \
	{ option, shortopt, SA_REQUIRED, SW_GIVEN, SET_##id, SK_STRING, \
	  JD(member), check, rest_key },
#define SLURMOPT_SIMPLE		SIMPLE
#define SLURMOPT_SIMPLE_LATE(id, ...)
#include "slurmopt-list.h"
	{ "time", 't', SA_REQUIRED, SW_GIVEN, SET_TIME, SK_TIME, 0, NULL,
	  NULL },
	{ "output", 'o', SA_REQUIRED, SW_OUTPUT, SET_OUTPUT, SK_STRING,
	  JD(output), NULL, NULL },
	{ "error", 'e', SA_REQUIRED, SW_GIVEN, SET_ERROR, SK_STRING,
	  JD(error), NULL, NULL },
	{ "exclusive", 0, SA_OPTIONAL, SW_EXCLUSIVE, SET_EXCLUSIVE,
	  SK_EXCLUSIVE, 0, NULL, NULL },
	{ "mem", 0, SA_REQUIRED, SW_MEM, SET_MEM, SK_MEM, 0, NULL, NULL },
	{ "constraint", 'C', SA_REQUIRED, SW_GIVEN, SET_CONSTRAINT, SK_STRING,
	  JD(constraint), NULL, "constraints" },
	/* the late ones here. */
#define SLURMOPT_SIMPLE(id, ...)
#define SLURMOPT_SIMPLE_LATE	SIMPLE
#include "slurmopt-list.h"
#undef SIMPLE
	{ "mail-type", 0, SA_REQUIRED, SW_GIVEN, SET_MAIL_TYPE, SK_MAIL_TYPE,
	  0, NULL, NULL },
	/* REST sends it as the working directory (rest-submit.c). */
	{ "chdir", 'D', SA_REQUIRED, SW_GIVEN, SET_CHDIR, SK_STRING,
	  JD(chdir), NULL, NULL },
	{ "dependency", 'd', SA_REQUIRED, SW_GIVEN, SET_DEPENDENCY, SK_STRING,
	  JD(dependency), slurmopt_check_dependency, "dependency" },
	{ "signal", 0, SA_REQUIRED, SW_SIGNAL, SET_SIGNAL, SK_SIGNAL, 0, NULL,
	  NULL },
	{ "requeue", 0, SA_NONE, SW_REQUEUE, SET_REQUEUE, SK_REQUEUE, 0, NULL,
	  NULL },
	{ "open-mode", 0, SA_REQUIRED, SW_OPEN_MODE, NONE, SK_OPEN_MODE, 0,
	  NULL, NULL },
	{ "segment", 0, SA_REQUIRED, SW_SEGMENT, NONE, SK_SEGMENT, 0, NULL,
	  NULL },
	{ "hold", 'H', SA_NONE, SW_HOLD, NONE, SK_FLAG, JD(hold), NULL, NULL },
	/* Read back only: a script of the user's may carry them. */
	{ "ntasks", 'n', SA_REQUIRED, SW_NONE, NONE, SK_COUNT, JD(ntasks),
	  NULL, NULL },
	{ "gpus-per-task", 0, SA_REQUIRED, SW_NONE, NONE, SK_GPUS_PER_TASK, 0,
	  NULL, NULL },
	{ "gres", 0, SA_REQUIRED, SW_NONE, NONE, SK_GRES, 0, NULL, NULL },
	{ "no-requeue", 0, SA_NONE, SW_NONE, NONE, SK_NO_REQUEUE, 0, NULL,
	  NULL },
	{ "array", 'a', SA_REQUIRED, SW_NONE, NONE, SK_STRING, JD(array),
	  NULL, "array" },
	{ "export", 0, SA_REQUIRED, SW_NONE, NONE, SK_EXPORT, 0, NULL, NULL },
	/* Nothing to send: it only stops sbatch reading #PBS lines. */
	{ "ignore-pbs", 0, SA_NONE, SW_NONE, NONE, SK_FLAG, JD(ignore_pbs),
	  NULL, NULL },
	/* What --slurm-opt sets that every back end carries; their REST
	 * keys go by API version (rest-submit.c, put_carried()). */
#define SLURMOPT_CARRIED(option, shortopt, arg, kind, ctype, member, check, \
    ...) \
	{ option, shortopt, arg, SW_NONE, NONE, kind, JD(member), check, NULL },
#include "slurmopt-carried.h"
};
const size_t slurmopt_table_size = sizeof slurmopt_table /
    sizeof slurmopt_table[0];

#undef JD
#undef NONE

void *
slurmopt_field(const struct slurmopt_def *r, const struct jobdesc *d)
{
	return (char *)(uintptr_t)d + r->field;
}

const struct slurmopt_def *
slurmopt_find(const char *name, size_t len)
{
	size_t	 i;

	for (i = 0; i < slurmopt_table_size; i++)
		if (strlen(slurmopt_table[i].name) == len &&
		    strncmp(slurmopt_table[i].name, name, len) == 0)
			return &slurmopt_table[i];
	return NULL;
}

static struct slurm_directive *
add(struct slurmopt *o, const char *option, const char *value,
    const char *origin)
{
	struct slurm_directive	*d;

	if (o->n == SLURMOPT_MAX)
		return &o->d[SLURMOPT_MAX - 1];	/* never: the list is fixed */
	d = &o->d[o->n++];
	memset(d, 0, sizeof *d);
	d->option = option;
	d->value = value;
	d->origin = origin;
	return d;
}

static void
add_int(struct slurmopt *o, const char *option, int64_t v, const char *origin)
{
	struct slurm_directive	*d = add(o, option, NULL, origin);

	d->number = v;
	d->is_number = true;
}

/* A string setting's value, or NULL when unset. */
static const char *
given(const struct slurmopt_input *in, enum setting_id id)
{
	return in->set->v[id].origin != ORIGIN_UNSET ? in->set->v[id].s : NULL;
}

static enum tristate
given_tri(const struct slurmopt_input *in, enum setting_id id)
{
	if (in->set->v[id].origin == ORIGIN_UNSET)
		return TRI_UNSET;
	return in->set->v[id].b ? TRI_ON : TRI_OFF;
}

int64_t
slurmopt_segment(int64_t nodes)
{
	int64_t	 d;

	if (nodes <= 18)
		return nodes;
	for (d = 18; d > 1; d--)
		if (nodes % d == 0)
			return d;
	return 1;
}

/*
 * With --requeue the batch shell must get the signal, to checkpoint
 * through the training step and requeue: write it with "B:" (Slurm
 * otherwise signals only the steps; an R stays), the seconds spelled
 * out, and remember it for the trap and scancel by a name every release
 * knows, else by its number.
 * The setting's check (slurmopt_check_signal()) has passed.
 */
static void
requeue_signal(const struct slurmopt_input *in, struct slurmopt *o)
{
	const char		*given_sig = given(in, SET_SIGNAL);
	const char		*name;
	struct slurmopt_signal	 sig;

	if (slurmopt_signal_parse(given_sig != NULL ? given_sig :
	    SLURMOPT_REQUEUE_SIGNAL, &sig) != NULL)
		return;		/* never: checked when set */
	o->trap_num = sig.num;
	if ((name = slurmopt_signal_name(sig.num, SLURMOPT_RELEASE_OLDEST))
	    != NULL)
		snprintf(o->trap_signal, sizeof o->trap_signal, "%s", name);
	else
		snprintf(o->trap_signal, sizeof o->trap_signal, "%d", sig.num);
	/* A name stays a name (gen checks its release), a number a number. */
	if (sig.named)
		snprintf(o->signal_buf, sizeof o->signal_buf, "%sB:%s@%d",
		    sig.resv ? "R" : "", slurmopt_signal_name(sig.num, 0),
		    sig.secs);
	else
		snprintf(o->signal_buf, sizeof o->signal_buf, "%sB:%d@%d",
		    sig.resv ? "R" : "", sig.num, sig.secs);
	add(o, "signal", o->signal_buf, given_sig != NULL ? "given, sent "
	    "to the batch shell for --requeue" : "default for --requeue");
}

/*
 * The GPUs of each node, in the form the site takes (gpu_request) and
 * with the site's GRES type when the profile maps the GPU type to one:
 * --gpus-per-node=[TYPE:]N, or --gres=gpu:[TYPE:]N.  sbatch makes the
 * same tres_per_node of both ("gres/gpu:TYPE:N", slurm_opt.c,
 * slurm_opt_create_job_desc(): xfmt_tres() of --gpus-per-node, and
 * --gres through gres_prepend_tres_type(); 22.05.8 slurm_opt.c:6131-6139,
 * 25.11.7 slurm_opt.c:5914-5922).
 */
static void
write_gpus(const struct slurmopt_input *in, struct slurmopt *o)
{
	int64_t		 n = in->tasks_per_node != 0 &&
			    in->tasks_per_node < in->gpus_per_node ?
			    in->tasks_per_node : in->gpus_per_node;
	const char	*origin = in->gres_type != NULL ? "sizing; the type "
			    "from gres_types" : "sizing";

	if (in->gpu_request == GPU_REQUEST_GRES) {
		snprintf(o->gpu_buf, sizeof o->gpu_buf, "gpu:%s%s%lld",
		    in->gres_type != NULL ? in->gres_type : "",
		    in->gres_type != NULL ? ":" : "", (long long)n);
		add(o, "gres", o->gpu_buf, in->gres_type != NULL ? "sizing; "
		    "the type from gres_types, the form from gpu_request" :
		    "sizing; the form from gpu_request");
	} else if (in->gres_type != NULL) {
		snprintf(o->gpu_buf, sizeof o->gpu_buf, "%s:%lld",
		    in->gres_type, (long long)n);
		add(o, "gpus-per-node", o->gpu_buf, origin);
	} else
		add_int(o, "gpus-per-node", n, origin);
}

/* The directive of row R, if the job has one. */
static void
write_row(const struct slurmopt_def *r, const struct slurmopt_input *in,
    struct slurmopt *o)
{
	bool	 gpu_known = in->gpu_type != NULL;
	bool	 requeue = given_tri(in, SET_REQUEUE) == TRI_ON;

	switch (r->write) {
	case SW_NONE:
		break;
	case SW_GIVEN:
		if (given(in, r->setting) != NULL)
			add(o, r->name, given(in, r->setting), "given");
		break;
	case SW_GIVEN_COUNT:
		if (in->set->v[r->setting].origin != ORIGIN_UNSET)
			add_int(o, r->name, in->set->v[r->setting].i, "given");
		break;
	case SW_JOB_NAME:
		add(o, r->name, in->job_name, given(in, r->setting) != NULL ?
		    "given" : "default: the model, else the recipe");
		break;
	case SW_NODES:
		add_int(o, r->name, in->nodes, "sizing");
		break;
	case SW_TASKS_PER_NODE:
		if (in->tasks_per_node != 0)
			add_int(o, r->name, in->tasks_per_node, "sizing");
		break;
	case SW_GPUS_PER_NODE:
		write_gpus(in, o);
		break;
	case SW_OUTPUT:
		if (given(in, r->setting) != NULL)
			add(o, r->name, given(in, r->setting), "given");
		else
			add(o, r->name, "logs/%x-%j.out",
			    "default: logs/ by job name and id");
		break;
	case SW_EXCLUSIVE:
		if (given_tri(in, r->setting) == TRI_ON)
			add(o, r->name, NULL, "given");
		else if (given_tri(in, r->setting) == TRI_UNSET && gpu_known)
			add(o, r->name, NULL,
			    "default for a GPU type: whole nodes");
		break;
	case SW_MEM:
		if (given(in, r->setting) != NULL)
			add(o, r->name, given(in, r->setting), "given");
		else if (gpu_known)
			add(o, r->name, "0",
			    "default for a GPU type: all memory");
		break;
	case SW_SIGNAL:
		if (requeue)
			requeue_signal(in, o);
		else if (given(in, r->setting) != NULL)
			add(o, r->name, given(in, r->setting), "given");
		break;
	case SW_REQUEUE:
		if (requeue)
			add(o, r->name, NULL, "given");
		break;
	case SW_OPEN_MODE:
		if (requeue)
			add(o, r->name, "append", "--requeue: every attempt's "
			    "log is kept");
		break;
	case SW_SEGMENT:
		if (in->gpus_per_node == 4 && in->nvlink_domain == 72)
			add_int(o, r->name, slurmopt_segment(in->nodes),
			    "default on NVL72: one rack");
		break;
	case SW_HOLD:
		if (in->hold)
			add(o, r->name, NULL, "given");
		break;
	}
}

/*
 * The --slurm-opt options, after mbsbatch's own, in the order given: the
 * name as sbatch-options.c spells it (checked when set), the value
 * after '=' or none for a flag.  job_figure() has refused more than
 * SLURMOPT_EXTRA_MAX.
 */
static void
write_extra(const struct slurmopt_input *in, struct slurmopt *o)
{
	const struct setting_value	*v = &in->set->v[SET_SLURM_EXTRA];
	const struct sbatch_option	*so;
	const char			*eq;
	size_t				 i;

	for (i = 0; i < v->nlist && i < SLURMOPT_EXTRA_MAX; i++) {
		eq = strchr(v->list[i], '=');
		so = sbatch_option_find(v->list[i], eq != NULL ?
		    (size_t)(eq - v->list[i]) : strlen(v->list[i]));
		if (so != NULL)
			add(o, so->name, eq != NULL ? eq + 1 : NULL,
			    "given (--slurm-opt)");
	}
}

void
slurmopt_compute(const struct slurmopt_input *in, struct slurmopt *o)
{
	size_t	 i;

	memset(o, 0, sizeof *o);
	for (i = 0; i < slurmopt_table_size; i++)
		write_row(&slurmopt_table[i], in, o);
	write_extra(in, o);
}

const struct slurm_directive *
slurmopt_find_directive(const struct slurmopt *o, const char *option)
{
	int	 i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->d[i].option, option) == 0)
			return &o->d[i];
	return NULL;
}

const char *
slurmopt_get(const struct slurmopt *o, const char *option)
{
	const struct slurm_directive *d = slurmopt_find_directive(o, option);

	if (d == NULL || d->is_number)
		return NULL;
	return d->value != NULL ? d->value : "";
}

const char *
slurmopt_value(const struct slurm_directive *d, char *buf, size_t len)
{
	if (!d->is_number)
		return d->value;
	snprintf(buf, len, "%lld", (long long)d->number);
	return buf;
}

/* Digits only, at least one; *p advanced past them. */
static bool
digits(const char **p)
{
	const char	*s = *p;

	while (isdigit((unsigned char)**p))
		(*p)++;
	return *p > s;
}

const char *
slurmopt_check_time(const char *s)
{
	static const char why[] = "is not a Slurm time (MINUTES, MM:SS, "
	    "HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)";
	const char	*p = s;
	int64_t		 minutes;
	int		 colons = 0;
	bool		 days = false;

	if (strcasecmp(s, "UNLIMITED") == 0 || strcasecmp(s, "INFINITE") == 0)
		return NULL;
	if (!digits(&p))
		return why;
	if (*p == '-') {
		days = true;
		p++;
		if (!digits(&p))
			return why;
	}
	while (*p == ':') {
		p++;
		if (!digits(&p))
			return why;
		colons++;
	}
	if (*p != '\0' || colons > 2 || (!days && colons > 2))
		return why;
	if (time_minutes(s, &minutes) == -1)
		return "is longer than any time Slurm counts";
	return NULL;
}

const char *
slurmopt_check_mem(const char *s)
{
	const char	*p = s;
	int64_t		 mb;

	if (!digits(&p))
		return "is not a memory size (a number with K, M, G or T)";
	if (*p != '\0' && strchr("KMGTkmgt", *p) != NULL)
		p++;
	if (*p != '\0')
		return "is not a memory size (a number with K, M, G or T)";
	if (slurmopt_mem_mb(s, &mb) == -1)
		return "is too large (at most 1000000T)";
	return NULL;
}

const struct slurmopt_mail slurmopt_mail_types[] = {
	{ SLURMOPT_MAIL_BEGIN, "BEGIN", "BEGIN" },
	{ SLURMOPT_MAIL_END, "END", "END" },
	{ SLURMOPT_MAIL_FAIL, "FAIL", "FAIL" },
	{ SLURMOPT_MAIL_REQUEUE, "REQUEUE", "REQUEUE" },
	{ SLURMOPT_MAIL_TIME100, "TIME_LIMIT", "TIME=100%" },
	{ SLURMOPT_MAIL_TIME90, "TIME_LIMIT_90", "TIME=90%" },
	{ SLURMOPT_MAIL_TIME80, "TIME_LIMIT_80", "TIME=80%" },
	{ SLURMOPT_MAIL_TIME50, "TIME_LIMIT_50", "TIME=50%" },
	{ SLURMOPT_MAIL_STAGE_OUT, "STAGE_OUT", "STAGE_OUT" },
	{ SLURMOPT_MAIL_ARRAY_TASKS, "ARRAY_TASKS", "ARRAY_TASKS" },
	{ SLURMOPT_MAIL_INVALID_DEPEND, "INVALID_DEPEND",
	  "INVALID_DEPENDENCY" },
};
const size_t slurmopt_mail_ntypes = sizeof slurmopt_mail_types /
    sizeof slurmopt_mail_types[0];

int
slurmopt_mail_type(const char *s)
{
	char	*copy = xstrdup(s), *tok, *save = NULL;
	int	 mask = 0;
	bool	 none = false;
	size_t	 i;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcasecmp(tok, "NONE") == 0) {
			mask = 0;
			none = true;
			break;
		}
		if (strcasecmp(tok, "ALL") == 0)
			mask |= SLURMOPT_MAIL_INVALID_DEPEND |
			    SLURMOPT_MAIL_BEGIN | SLURMOPT_MAIL_END |
			    SLURMOPT_MAIL_FAIL | SLURMOPT_MAIL_REQUEUE |
			    SLURMOPT_MAIL_STAGE_OUT;
		for (i = 0; i < slurmopt_mail_ntypes; i++)
			if (strcasecmp(tok, slurmopt_mail_types[i].sbatch) == 0)
				mask |= slurmopt_mail_types[i].bit;
	}
	free(copy);
	return mask == 0 && !none ? -1 : mask;
}

/*
 * Slurm's signal names: signals_mapping[] of src/common/proc_args.c, in
 * its order.  22.05.8 has these 16 (proc_args.c:1177-1195); PIPE and CHLD
 * came in 23.11 (commits 9c3cfaaaec and 17222bf118, in slurm-23-11-0-0rc1;
 * 23.02.8 lacks them); 25.11 has 23.11's 18 (proc_args.c:1217-1237).  No
 * release names XFSZ, WINCH, BUS ...: sbatch takes those as numbers only.
 */
static const struct {
	const char	*name;
	int		 num;
	int		 since;
} signal_names[] = {
	{ "HUP", SIGHUP, 0 }, { "INT", SIGINT, 0 }, { "QUIT", SIGQUIT, 0 },
	{ "ABRT", SIGABRT, 0 }, { "KILL", SIGKILL, 0 },
	{ "ALRM", SIGALRM, 0 }, { "TERM", SIGTERM, 0 },
	{ "CHLD", SIGCHLD, 2311 }, { "USR1", SIGUSR1, 0 },
	{ "USR2", SIGUSR2, 0 }, { "PIPE", SIGPIPE, 2311 },
	{ "URG", SIGURG, 0 }, { "CONT", SIGCONT, 0 }, { "STOP", SIGSTOP, 0 },
	{ "TSTP", SIGTSTP, 0 }, { "TTIN", SIGTTIN, 0 },
	{ "TTOU", SIGTTOU, 0 }, { "XCPU", SIGXCPU, 0 },
};
#define NSIGNAL_NAMES	(sizeof signal_names / sizeof signal_names[0])

/* sbatch's isspace(): the C locale's. */
static bool
space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* xstring_is_whitespace(). */
static bool
all_space(const char *s)
{
	while (space(*s))
		s++;
	return *s == '\0';
}

/*
 * sig_name2num() (proc_args.c:1199 in 22.05.8, 1241 in 25.11): a number,
 * strtol()'s (white space and a sign before it), only white space after;
 * else a name after white space and an optional SIG, any case, only
 * white space after.  0: neither.
 */
int
slurmopt_signal_number(const char *s, int *since)
{
	char	*end;
	long	 n;
	size_t	 i, len;

	if (since != NULL)
		*since = 0;
	n = strtol(s, &end, 10);
	if (end != s)
		return all_space(end) ? (int)n : 0;
	while (space(*s))
		s++;
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	for (i = 0; i < NSIGNAL_NAMES; i++) {
		len = strlen(signal_names[i].name);
		if (strncasecmp(s, signal_names[i].name, len) == 0 &&
		    all_space(s + len)) {
			if (since != NULL)
				*since = signal_names[i].since;
			return signal_names[i].num;
		}
	}
	return 0;
}

const char *
slurmopt_signal_name(int num, int rel)
{
	size_t	 i;

	for (i = 0; i < NSIGNAL_NAMES; i++)
		if (signal_names[i].num == num &&
		    (rel == 0 || signal_names[i].since <= rel))
			return signal_names[i].name;
	return NULL;
}

/* The reason a --signal is refused, with the names (built once). */
static const char *
signal_why(void)
{
	static char	 why[400];
	size_t		 i, n;
	int		 since = 0, next;

	if (why[0] != '\0')
		return why;
	n = (size_t)snprintf(why, sizeof why, "is not a signal sbatch takes "
	    "([B:]SIGNAL[@SECONDS], such as USR2@90 or B:TERM@60; SIGNAL a "
	    "number or");
	/* The names of every release, then each later one's. */
	do {
		next = 0;
		if (since != 0 && n < sizeof why)
			n += (size_t)snprintf(why + n, sizeof why - n,
			    ", from Slurm %d.%02d on", since / 100,
			    since % 100);
		for (i = 0; i < NSIGNAL_NAMES && n < sizeof why; i++) {
			if (signal_names[i].since == since)
				n += (size_t)snprintf(why + n, sizeof why - n,
				    " %s", signal_names[i].name);
			else if (signal_names[i].since > since &&
			    (next == 0 || signal_names[i].since < next))
				next = signal_names[i].since;
		}
	} while ((since = next) != 0);
	if (n < sizeof why)
		snprintf(why + n, sizeof why - n, ")");
	return why;
}

const char *
slurmopt_signal_parse(const char *s, struct slurmopt_signal *out)
{
	const char	*at;
	char		*name, *end;
	long		 t = 60;

	memset(out, 0, sizeof *out);
	/* get_signal_opts(): proc_args.c:1106-1148 in 22.05.8 (B only in a
	 * process called sbatch: run_in_daemon()), 1148-1188 in 25.11. */
	if (tolower((unsigned char)*s) == 'r') {
		out->resv = true;
		s++;
	}
	if (tolower((unsigned char)*s) == 'b') {
		out->batch = true;
		s++;
	}
	if (tolower((unsigned char)*s) == 'r') {
		out->resv = true;
		s++;
	}
	if (*s == ':')
		s++;
	at = strchr(s, '@');
	name = xstrndup(s, at != NULL ? (size_t)(at - s) : strlen(s));
	out->num = (uint16_t)slurmopt_signal_number(name, &out->since);
	(void)strtol(name, &end, 10);
	out->named = end == name;	/* sig_name2num()'s first test */
	free(name);
	if (at != NULL) {
		t = strtol(at + 1, &end, 10);
		if (t < 0 || t > 0xffff || *end != '\0')
			return signal_why();
	}
	if (out->num < 1)
		return signal_why();
	out->secs = (int)t;
	return NULL;
}

const char *
slurmopt_check_signal(const char *s)
{
	struct slurmopt_signal	 sig;
	const char		*why;

	if ((why = slurmopt_signal_parse(s, &sig)) != NULL)
		return why;
	if (sig.num > SLURMOPT_SIGNAL_MAX)
		return "names a signal above 64, which cannot be sent";
	return NULL;
}

/*
 * Slurm's dependency list: parts separated by ',' (all) or '?' (any),
 * each "singleton" or TYPE:JOB[:JOB...], a JOB being an id, an array
 * task (ID_TASK) or an id with +MINUTES (after only).
 */
const char *
slurmopt_check_dependency(const char *s)
{
	static const char *const types[] = { "after", "afterany",
	    "afterburstbuffer", "aftercorr", "afternotok", "afterok" };
	static const char why[] = "is not a Slurm dependency (such as "
	    "afterok:123, afterany:123:124 or singleton)";
	const char	*p = s, *t;
	size_t		 i, n;

	for (;;) {
		if (strncmp(p, "singleton", 9) == 0 && (p[9] == '\0' ||
		    p[9] == ',' || p[9] == '?'))
			p += 9;
		else {
			for (t = p; islower((unsigned char)*t); t++)
				;
			n = (size_t)(t - p);
			for (i = 0; i < sizeof types / sizeof types[0]; i++)
				if (strlen(types[i]) == n &&
				    strncmp(types[i], p, n) == 0)
					break;
			if (i == sizeof types / sizeof types[0] || *t != ':')
				return why;
			p = t;
			while (*p == ':') {
				p++;
				if (!digits(&p))
					return why;
				if (*p == '_' && (p++, !digits(&p)))
					return why;
				if (*p == '+' && (p++, !digits(&p)))
					return why;
			}
		}
		if (*p == '\0')
			return NULL;
		if (*p != ',' && *p != '?')
			return why;
		p++;
	}
}

const char *
slurmopt_check_name(const char *s)
{
	if (*s == '\0')
		return "is empty";
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr("_.,-", *s) == NULL)
			return "is not a Slurm name (letters, digits, '_', "
			    "'.', '-'; ',' between names)";
	return NULL;
}

const char *
slurmopt_check_constraint(const char *s)
{
	if (*s == '\0')
		return "is empty";
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) &&
		    strchr("_.,-&|*[]():!", *s) == NULL)
			return "is not a Slurm constraint (features joined "
			    "by & | , with [ ] ( ) and *COUNT)";
	return NULL;
}

/*
 * validate_acctg_freq() (25.11.7 src/common/proc_args.c:1712, 22.05 the
 * same): each comma-separated item a number of seconds (the task
 * sampling) or TYPE=SECONDS of acct_gather_parse_freq()'s types, any
 * case (src/interfaces/acct_gather.c:258); Slurm looks the TYPE= up
 * anywhere in the item, which we do not take.
 */
const char *
slurmopt_check_acctg_freq(const char *s)
{
	static const char *const types[] = {
		"task=", "energy=", "network=", "filesystem=",
	};
	const char	*item = s, *end;
	size_t		 i, n;

	if (*s == '\0')
		return "is empty";
	for (;;) {
		end = item + strcspn(item, ",");
		for (i = 0; i < sizeof types / sizeof types[0]; i++) {
			n = strlen(types[i]);
			if ((size_t)(end - item) > n &&
			    strncasecmp(item, types[i], n) == 0) {
				item += n;
				break;
			}
		}
		if (item == end || strspn(item, "0123456789") !=
		    (size_t)(end - item))
			return "is not an --acctg-freq: SECONDS or "
			    "task|energy|network|filesystem=SECONDS, by commas";
		if (*end == '\0')
			return NULL;
		item = end + 1;
	}
}

/* arg_set_nice() (22.05.8 src/common/slurm_opt.c:2819, 25.11.7
 * :2451): |N| at most NICE_OFFSET - 3; digits after an optional sign
 * (sbatch's strtoll() would also pass over what follows them). */
const char *
slurmopt_nice(const char *s, int64_t *out)
{
	const char	*why;
	int64_t		 n;

	if (s == NULL) {
		*out = 100;
		return NULL;
	}
	why = number_parse_int(s + (*s == '-' || *s == '+'), 0,
	    INT64_C(2147483645), &n);
	if (why != NULL)
		return strcmp(why, "is too large") == 0 ? "is out of sbatch's "
		    "range (+/- 2147483645)" : why;
	*out = *s == '-' ? -n : n;
	return NULL;
}

const char *
slurmopt_check_text(const char *s)
{
	if (*s == '\0')
		return "is empty";
	return quote_sbatch_check(s);
}

/*
 * A GRES type as a request names it.  Slurm splits "gpu:TYPE:N" at ','
 * and ':' (22.05.8 src/common/gres.c:5255, _get_next_gres(); 25.11.7
 * src/common/slurm_protocol_defs.c:6078, slurm_get_next_tres(), which
 * takes '=' before a count too), and a type of digits only in
 * "gpu:TYPE" would be read as a count; MIG types ("3g.20gb") start with
 * one.
 */
const char *
slurmopt_check_gres_type_name(const char *s)
{
	const char	*p;

	if (*s == '\0')
		return "is empty";
	if (strlen(s) > 64)
		return "is longer than 64 characters";
	for (p = s; *p != '\0'; p++)
		if (!isalnum((unsigned char)*p) && strchr("_.+-", *p) == NULL)
			return "is not a GRES type (letters, digits and _ . + "
			    "-, such as nvidia_h100_80gb_hbm3)";
	if (strspn(s, "0123456789") == strlen(s))
		return "is a number, which Slurm would read as a count";
	return NULL;
}

/*
 * A hostlist as Slurm writes one: names and bracketed ranges
 * ("gpu[01-04,07],login1"), separated by commas.  A '/' would have
 * sbatch read the value as a file of names (slurm_opt.c,
 * arg_set_nodelist(), arg_set_exclude()), which no other back end can.
 */
const char *
slurmopt_check_hostlist(const char *s)
{
	int	 depth = 0;

	if (*s == '\0')
		return "is empty";
	for (; *s != '\0'; s++) {
		if (*s == '[' && depth++ > 0)
			break;
		if (*s == ']' && --depth < 0)
			break;
		if (!isalnum((unsigned char)*s) &&
		    strchr("_.,-[]", *s) == NULL)
			return "is not a Slurm node list (names and ranges "
			    "such as gpu[01-04],gpu07)";
	}
	if (depth != 0)
		return "has an unbalanced '[' or ']'";
	return NULL;
}

const char *
slurmopt_check_mail_type(const char *s)
{
	static char	 why[200];
	const char	*p = s;
	size_t		 i, n, len;

	if (why[0] == '\0') {
		len = (size_t)snprintf(why, sizeof why, "is not a list of mail "
		    "types (NONE, ALL");
		for (i = 0; i < slurmopt_mail_ntypes && len < sizeof why; i++)
			len += (size_t)snprintf(why + len, sizeof why - len,
			    ", %s", slurmopt_mail_types[i].sbatch);
		if (len < sizeof why)
			snprintf(why + len, sizeof why - len, ")");
	}
	/* Every word one parse_mail_type() knows: it passes over others. */
	do {
		n = strcspn(p, ",");
		for (i = 0; i < slurmopt_mail_ntypes; i++)
			if (strlen(slurmopt_mail_types[i].sbatch) == n &&
			    strncasecmp(p, slurmopt_mail_types[i].sbatch, n) == 0)
				break;
		if (i == slurmopt_mail_ntypes && !(n == 4 &&
		    strncasecmp(p, "NONE", 4) == 0) && !(n == 3 &&
		    strncasecmp(p, "ALL", 3) == 0))
			return why;
		p += n;
	} while (*p++ == ',');
	return NULL;
}

/*
 * The minutes of S, whose syntax slurmopt_check_time() has accepted; -1
 * when a field is too long to count.  Slurm: M, M:S, H:M:S; with days:
 * D-H, D-H:M, D-H:M:S.  Seconds round up to a whole minute, as Slurm's
 * time_str2mins does.
 */
static int
time_minutes(const char *s, int64_t *minutes)
{
	int64_t	 f[4] = { 0, 0, 0, 0 }, days = 0, v;
	const char *p = s;
	int	 n = 0;
	bool	 has_days = false;

	while (*p != '\0') {
		v = 0;
		while (isdigit((unsigned char)*p)) {
			if (v > INT64_C(100000000))
				return -1;
			v = v * 10 + (*p++ - '0');
		}
		if (*p == '-') {
			days = v;
			has_days = true;
			p++;
			continue;
		}
		f[n++] = v;
		if (*p == ':')
			p++;
	}
	if (has_days) {
		*minutes = days * 1440 + f[0] * 60 + (n > 1 ? f[1] : 0) +
		    (n > 2 && f[2] > 0 ? 1 : 0);
	} else if (n == 1)
		*minutes = f[0];
	else if (n == 2)
		*minutes = f[0] + (f[1] > 0 ? 1 : 0);
	else
		*minutes = f[0] * 60 + f[1] + (f[2] > 0 ? 1 : 0);
	return 0;
}

int
slurmopt_time_minutes(const char *s, int64_t *minutes, bool *unlimited)
{
	*unlimited = false;
	if (slurmopt_check_time(s) != NULL)
		return -1;
	if (strcasecmp(s, "UNLIMITED") == 0 || strcasecmp(s, "INFINITE") == 0) {
		*unlimited = true;
		*minutes = 0;
		return 0;
	}
	return time_minutes(s, minutes);
}

int
slurmopt_mem_mb(const char *s, int64_t *mb)
{
	const char	*p = s;
	int64_t		 v = 0;

	/* The syntax is slurmopt_check_mem()'s, which calls this for the
	 * size: digits, then at most one unit letter. */
	while (isdigit((unsigned char)*p)) {
		if (v > INT64_C(1000000000000))
			return -1;
		v = v * 10 + (*p++ - '0');
	}
	/* At most 1e12 of any unit: T must still fit in MiB (found by
	 * fuzzing: 10000000000000T overflowed). */
	switch (*p) {
	case 'K': case 'k':
		*mb = (v + 1023) / 1024;
		break;
	case 'G': case 'g':
		*mb = v * 1024;
		break;
	case 'T': case 't':
		if (v > 1000000)
			return -1;
		*mb = v * 1024 * 1024;
		break;
	default:
		*mb = v;
		break;
	}
	return 0;
}
