/*
 * slurmopt.c: Slurm directives and value checks; see slurmopt.h.
 *
 * GPU-type defaults follow Megatron-Bridge's scripts/performance: every
 * known GPU type gets --exclusive and --mem=0 (the whole node); 4-GPU
 * nodes in 72-GPU NVLink domains (gb200, gb300) get --segment so that a
 * job's nodes share one NVL72 rack.
 */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "quote.h"
#include "slurmopt.h"

static int	 time_minutes(const char *, int64_t *);

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

	snprintf(d->buf, sizeof d->buf, "%lld", (long long)v);
	d->value = d->buf;
	d->number = true;
}

static void
add_opt(struct slurmopt *o, const char *option, const char *value)
{
	if (value != NULL)
		add(o, option, value, "given");
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
 * otherwise signals only the steps) and remember its name for the trap.
 */
static void
requeue_signal(const struct slurmopt_input *in, struct slurmopt *o)
{
	const char	*sig = in->signal != NULL ? in->signal :
	    SLURMOPT_REQUEUE_SIGNAL;
	const char	*p = sig, *flags = "B:";
	size_t		 n;

	if (strncmp(p, "RB:", 3) == 0 || strncmp(p, "BR:", 3) == 0) {
		flags = "RB:";
		p += 3;
	} else if (strncmp(p, "R:", 2) == 0) {
		flags = "RB:";
		p += 2;
	} else if (strncmp(p, "B:", 2) == 0)
		p += 2;
	snprintf(o->signal_buf, sizeof o->signal_buf, "%s%s", flags, p);
	if (strncmp(p, "SIG", 3) == 0)
		p += 3;
	n = strcspn(p, "@");
	snprintf(o->trap_signal, sizeof o->trap_signal, "%.*s", (int)n, p);
	add(o, "signal", o->signal_buf, in->signal != NULL ? "given, sent "
	    "to the batch shell for --requeue" : "default for --requeue");
}

void
slurmopt_compute(const struct slurmopt_input *in, struct slurmopt *o)
{
	bool	 gpu_known = in->gpu_type != NULL;

	memset(o, 0, sizeof *o);
	add(o, "job-name", in->job_name, in->job_name_given ? "given" :
	    "default: the model, else the recipe");
	add_int(o, "nodes", in->nodes, "sizing");
	if (in->tasks_per_node != 0)
		add_int(o, "ntasks-per-node", in->tasks_per_node, "sizing");
	add_int(o, "gpus-per-node", in->tasks_per_node != 0 &&
	    in->tasks_per_node < in->gpus_per_node ? in->tasks_per_node :
	    in->gpus_per_node, "sizing");
	add_opt(o, "partition", in->partition);
	add_opt(o, "account", in->account);
	add_opt(o, "qos", in->qos);
	add_opt(o, "time", in->time);
	add(o, "output", in->output != NULL ? in->output : "logs/%x-%j.out",
	    in->output != NULL ? "given" : "default: logs/ by job name and id");
	if (in->error != NULL)
		add(o, "error", in->error, "given");
	if (in->exclusive == TRI_ON || (in->exclusive == TRI_UNSET &&
	    gpu_known))
		add(o, "exclusive", NULL, in->exclusive == TRI_ON ? "given" :
		    "default for a GPU type: whole nodes");
	if (in->mem != NULL)
		add(o, "mem", in->mem, "given");
	else if (gpu_known)
		add(o, "mem", "0", "default for a GPU type: all memory");
	add_opt(o, "constraint", in->constraint);
	add_opt(o, "reservation", in->reservation);
	add_opt(o, "dependency", in->dependency);
	if (in->requeue == TRI_ON)
		requeue_signal(in, o);
	else
		add_opt(o, "signal", in->signal);
	if (in->requeue == TRI_ON) {
		add(o, "requeue", NULL, "given");
		add(o, "open-mode", "append", "--requeue: every attempt's "
		    "log is kept");
	}
	if (in->gpus_per_node == 4 && in->nvlink_domain == 72)
		add_int(o, "segment", slurmopt_segment(in->nodes),
		    "default on NVL72: one rack");
	if (in->hold)
		add(o, "hold", NULL, "given");
}

const char *
slurmopt_get(const struct slurmopt *o, const char *option)
{
	int	 i;

	for (i = 0; i < o->n; i++)
		if (strcmp(o->d[i].option, option) == 0)
			return o->d[i].value != NULL ? o->d[i].value : "";
	return NULL;
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

/* The signal names sbatch --signal takes (Slurm sig_name2num). */
static const struct {
	const char	*name;
	int		 num;
} signals[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "CONT", SIGCONT }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP },
	{ "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
};

int
slurmopt_signal_number(const char *name)
{
	size_t	 i;

	if (strncmp(name, "SIG", 3) == 0)
		name += 3;
	for (i = 0; i < sizeof signals / sizeof signals[0]; i++)
		if (strcmp(signals[i].name, name) == 0)
			return signals[i].num;
	return 0;
}

const char *
slurmopt_check_signal(const char *s)
{
	static const char why[] = "is not a Slurm signal ([B:|R:]SIGNAL"
	    "[@SECONDS], such as USR2@90 or B:TERM@60)";
	const char	*p = s;

	if ((p[0] == 'B' || p[0] == 'R') && p[1] == ':')
		p += 2;
	else if (strncmp(p, "RB:", 3) == 0 || strncmp(p, "BR:", 3) == 0)
		p += 3;
	if (strncmp(p, "SIG", 3) == 0)
		p += 3;
	if (!digits(&p)) {
		const char	*n = p;
		char		 name[16];

		while (isupper((unsigned char)*p) || isdigit((unsigned char)*p))
			p++;
		if (p == n || (size_t)(p - n) >= sizeof name)
			return why;
		snprintf(name, sizeof name, "%.*s", (int)(p - n), n);
		if (slurmopt_signal_number(name) == 0)
			return why;
	}
	if (*p == '@') {
		p++;
		if (!digits(&p))
			return why;
	}
	return *p == '\0' ? NULL : why;
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

const char *
slurmopt_check_text(const char *s)
{
	if (*s == '\0')
		return "is empty";
	return quote_sbatch_check(s);
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
