/*
 * logpath.c: a batch job's output and error paths as its slurmstepd
 * expands them; see logpath.h.  Where the releases differ, the newer
 * rule is the default and the older one is named.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "jobdesc.h"
#include "logpath.h"

#define MAX_WIDTH	10

/* Does RELEASE's slurmstepd use fname.c (through 25.05)? */
static bool
old_rules(int release)
{
	return release != 0 && release < 2511;
}

/* Is C a letter this release expands in a batch job's path? */
static bool
is_wildcard(char c, int release)
{
	switch (c) {
	case 'A': case 'a': case 'J': case 'j': case 'N': case 'n':
	case 's': case 't': case 'u': case 'x':
		return true;
	case 'b':	/* 24.11 on */
		return release == 0 || release >= 2411;
	case 'r':	/* 25.11 on */
	case 'S':
		return release == 0 || release >= 2511;
	}
	return false;
}

/*
 * %N: from 25.11 the batch node's name (conf->node_name: slurmd/common/
 * fname.c, fname_create()); before, the short host name of the machine
 * its slurmd runs on (conf->hostname, gethostname_short() in slurmd.c
 * _init_conf()), which is the node's NodeHostname cut at its first '.'
 * when slurmd found its node by its host name (no "slurmd -N").
 */
static bool
expand_node(struct buf *b, const struct logpath_job *j)
{
	if (!old_rules(j->release)) {
		if (j->node == NULL)
			return false;
		buf_adds(b, j->node);
		return true;
	}
	if (j->node_host == NULL)
		return false;
	buf_add(b, j->node_host, strcspn(j->node_host, "."));
	return true;
}

/* Append the value of %C, zero-padded to WIDTH when it is a number;
 * false when J does not know it. */
static bool
expand(struct buf *b, char c, int width, const struct logpath_job *j)
{
	uint32_t	 n;

	switch (c) {
	case 'A':
		n = j->array_job_id != 0 ? j->array_job_id : j->job_id;
		if (n == 0)	/* not queued yet */
			return false;
		break;
	case 'a':
		if (j->any_task)
			return false;
		n = j->array_task_id;
		break;
	case 'b':
		if (j->any_task)
			return false;
		n = j->array_task_id % 10;
		break;
	case 'J':
	case 'j':
		/* Each task of an array gets a job id of its own. */
		if (j->any_task || j->job_id == 0)
			return false;
		n = j->job_id;
		break;
	case 'r':
		/* A requeue counts up: not known before the job is queued. */
		if (j->job_id == 0)
			return false;
		n = j->restart_cnt;
		break;
	case 'n':
	case 't':
		n = 0;
		break;
	case 's':
		buf_adds(b, "batch");
		return true;
	case 'u':
		if (j->user == NULL)
			return false;
		buf_adds(b, j->user);
		return true;
	case 'x':
		if (j->name == NULL)
			return false;
		buf_adds(b, j->name);
		return true;
	case 'N':
		return expand_node(b, j);
	case 'S':
		if (j->sluid == NULL || j->job_id == 0)
			return false;
		buf_adds(b, j->sluid);
		return true;
	default:
		return false;
	}
	buf_addf(b, "%0*u", width, n);
	return true;
}

/*
 * A path with a backslash is taken as it is, less its backslashes:
 * 25.11 drops them all; before, "\\" left one (remove_path_slashes()).
 */
static void
unescape(struct buf *b, const char *p, int release)
{
	bool	 old = old_rules(release);

	for (; *p != '\0'; p++) {
		if (*p != '\\')
			buf_addc(b, *p);
		else if (old && p[1] == '\\')
			buf_addc(b, *++p);
	}
}

/* One piece of a pattern: text kept as it is, or a field to expand. */
struct field {
	const char	*text;		/* kept: TEXT[0..LEN); a field: "%..X" */
	size_t		 len;
	bool		 wildcard;
	char		 letter;
	int		 width;
};

/*
 * The piece of P (not at its end) for RELEASE into *F; returns what
 * follows it.  An unknown letter (or the end) after a width: 25.11
 * keeps "%", the width and the letter; before, _create_batch_fname()
 * dropped the '%' and all but the width's last digit.  A '%' alone at
 * the end: 25.11 drops it (expand_stdio_fields() ends in its expanding
 * state; with a width it reads past the string, which no rule here can
 * follow).  "%5%j" before 25.11: the width's last digit, then the
 * second '%' starts over; from 25.11 "%5%" is kept and "%j" follows.
 */
static const char *
next_field(const char *p, int release, struct field *f)
{
	const char	*pct;
	char		*end;
	unsigned long	 width = 0;

	memset(f, 0, sizeof *f);
	f->text = p;
	if (*p != '%') {
		f->len = strcspn(p, "%");
		return p + f->len;
	}
	pct = p++;
	if (*p == '%') {
		f->len = 1;
		return p + 1;
	}
	if (isdigit((unsigned char)*p)) {
		width = strtoul(p, &end, 10);
		p = end;
	}
	if (*p == '%' && old_rules(release) && p - pct > 1) {
		f->text = p - 1;
		f->len = 1;
		return p;
	}
	if (*p != '\0' && is_wildcard(*p, release)) {
		f->wildcard = true;
		f->letter = *p;
		f->width = width > MAX_WIDTH ? MAX_WIDTH : (int)width;
		f->len = (size_t)(p + 1 - pct);
		return p + 1;
	}
	if (old_rules(release) && p - pct > 1)
		f->text = p - 1;
	else if (!old_rules(release) && *p == '\0' && p - pct == 1)
		return p;	/* len 0 */
	f->len = (size_t)(p - f->text) + (*p != '\0');
	return p + (*p != '\0');
}

/* P expanded for J onto B; *UNKNOWN_AT: where in B the first part J does
 * not know is, or SIZE_MAX. */
static void
expand_pattern(struct buf *b, const char *p, const struct logpath_job *j,
    size_t *unknown_at)
{
	struct field	 f;

	*unknown_at = SIZE_MAX;
	while (*p != '\0') {
		p = next_field(p, j->release, &f);
		if (f.wildcard && expand(b, f.letter, f.width, j))
			continue;
		if (f.wildcard && *unknown_at == SIZE_MAX)
			*unknown_at = b->len;
		buf_add(b, f.text, f.len);
	}
}

/* PATTERN expanded for J; *UNKNOWN_AT as expand_pattern() says. */
static char *
expand_path(const char *pattern, const struct logpath_job *j,
    size_t *unknown_at)
{
	struct buf	 b;
	bool		 escaped;
	size_t		 n;

	if (pattern == NULL || *pattern == '\0')
		pattern = j->array_job_id != 0 ? "slurm-%A_%a.out" :
		    "slurm-%j.out";
	escaped = strchr(pattern, '\\') != NULL;
	buf_init(&b);
	if (pattern[0] != '/' && j->work_dir != NULL && *j->work_dir != '\0') {
		buf_adds(&b, j->work_dir);
		n = strlen(j->work_dir);
		/* Before 25.11 an escaped path went right after the
		 * directory, without a '/' (fname_create()). */
		if (j->work_dir[n - 1] != '/' && !(escaped &&
		    old_rules(j->release)))
			buf_addc(&b, '/');
	}
	*unknown_at = SIZE_MAX;
	if (escaped)
		unescape(&b, pattern, j->release);
	else
		expand_pattern(&b, pattern, j, unknown_at);
	return buf_detach(&b);
}

char *
logpath_expand(const char *pattern, const struct logpath_job *j,
    bool *complete)
{
	char	*s;
	size_t	 unknown_at;

	s = expand_path(pattern, j, &unknown_at);
	if (complete != NULL)
		*complete = unknown_at == SIZE_MAX;
	return s;
}

char *
logpath_dir(const char *pattern, const struct logpath_job *j, bool *known)
{
	char	*s, *slash;
	size_t	 unknown_at;

	s = expand_path(pattern, j, &unknown_at);
	if ((slash = strrchr(s, '/')) == NULL) {
		free(s);
		*known = true;
		return NULL;
	}
	*known = unknown_at == SIZE_MAX || unknown_at > (size_t)(slash - s);
	slash[slash == s] = '\0';
	return s;
}

void
logpath_submitted(const struct logpath_sub *s, char **output, char **error,
    bool *complete)
{
	const struct jobdesc	*d = s->desc;
	struct logpath_job	 j;
	bool			 ok_out, ok_err = true;

	memset(&j, 0, sizeof j);
	j.release = s->release;
	j.job_id = (uint32_t)s->job_id;
	j.array_task_id = LOGPATH_NO_TASK;
	if (d->array != NULL) {
		j.array_job_id = (uint32_t)s->job_id;
		if (s->task >= 0) {
			j.array_task_id = (uint32_t)s->task;
			j.any_task = logpath_names_job_id(d->output,
			    s->release) ||
			    logpath_names_job_id(d->error, s->release);
		} else
			j.any_task = true;
	}
	j.name = d->name != NULL ? d->name : "sbatch";
	j.user = s->user != NULL ? s->user : "";
	j.work_dir = s->workdir;
	*output = logpath_expand(d->output, &j, &ok_out);
	*error = d->error != NULL ? logpath_expand(d->error, &j, &ok_err) :
	    NULL;
	if (complete != NULL)
		*complete = ok_out && ok_err;
}

bool
logpath_makes_dirs(int release)
{
	return release >= 2302;
}

bool
logpath_names(const char *pattern, const char *letters, int release)
{
	struct field	 f;
	const char	*p = pattern;

	while (p != NULL && *p != '\0') {
		p = next_field(p, release, &f);
		if (f.wildcard && strchr(letters, f.letter) != NULL)
			return true;
	}
	return false;
}

bool
logpath_names_job_id(const char *pattern, int release)
{
	return logpath_names(pattern, "jJ", release);
}

void
logpath_sluid(uint64_t sluid, char buf[LOGPATH_SLUID_SIZE])
{
	static const char	 cb32[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
	int			 i;

	/* Five bits a letter, from the lowest; the first letter has the
	 * top four. */
	buf[0] = 's';
	for (i = 0; i < 13; i++)
		buf[13 - i] = cb32[(sluid >> (5 * i)) & 0x1f];
	buf[14] = '\0';
}

char *
logpath_first_node(const char *list)
{
	struct buf	 b;
	const char	*p;

	if (list == NULL || *list == '\0' || strchr(list, ' ') != NULL)
		return NULL;
	buf_init(&b);
	for (p = list; *p != '\0' && *p != ','; p++) {
		if (*p != '[') {
			buf_addc(&b, *p);
			continue;
		}
		/* A range's first number, as written (its zeros kept). */
		for (p++; isdigit((unsigned char)*p); p++)
			buf_addc(&b, *p);
		if ((p = strchr(p, ']')) == NULL)
			break;
	}
	if (b.len == 0 || p == NULL) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b);
}
