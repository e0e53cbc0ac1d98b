/*
 * logpath.c: a batch job's output and error paths as its slurmstepd
 * expands them; see logpath.h.  Where the releases differ, the newer
 * rule is the default and the older one is named.
 */
#include <ctype.h>
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

/* Append the value of %C, zero-padded to WIDTH when it is a number;
 * false when J does not know it. */
static bool
expand(struct buf *b, char c, int width, const struct logpath_job *j)
{
	uint32_t	 n;

	switch (c) {
	case 'A':
		n = j->array_job_id != 0 ? j->array_job_id : j->job_id;
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
		if (j->any_task)
			return false;
		n = j->job_id;
		break;
	case 'r':
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
		buf_adds(b, j->user != NULL ? j->user : "");
		return true;
	case 'x':
		buf_adds(b, j->name != NULL ? j->name : "");
		return true;
	case 'N':
		if (j->node == NULL)
			return false;
		buf_adds(b, j->node);
		return true;
	default:	/* %S: the job's SLUID, which we are not told */
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

/*
 * An unknown letter (or the end) after a width: 25.11 keeps "%", the
 * width and the letter; before, _create_batch_fname() dropped the '%'
 * and all but the width's last digit.  A '%' alone at the end: 25.11
 * drops it (expand_stdio_fields() ends in its expanding state; with a
 * width it reads past the string, which no rule here can follow).
 */
static void
keep_unknown(struct buf *b, const char *pct, const char *letter,
    int release)
{
	if (old_rules(release) && letter - pct > 1)
		pct = letter - 1;
	else if (!old_rules(release) && *letter == '\0' && letter - pct == 1)
		return;
	buf_add(b, pct, (size_t)(letter - pct) + (*letter != '\0'));
}

static bool
expand_pattern(struct buf *b, const char *p, const struct logpath_job *j)
{
	const char	*pct;
	char		*end;
	unsigned long	 width;
	bool		 complete = true;

	while (*p != '\0') {
		if (*p != '%') {
			buf_addc(b, *p++);
			continue;
		}
		pct = p++;
		if (*p == '%') {
			buf_addc(b, *p++);
			continue;
		}
		width = 0;
		if (isdigit((unsigned char)*p)) {
			width = strtoul(p, &end, 10);
			if (width > MAX_WIDTH)
				width = MAX_WIDTH;
			p = end;
		}
		if (*p == '\0') {
			keep_unknown(b, pct, p, j->release);
			break;
		}
		/* "%5%j" before 25.11: the width's last digit, then the
		 * second '%' starts over. */
		if (*p == '%' && old_rules(j->release) && p - pct > 1) {
			buf_addc(b, p[-1]);
			continue;
		}
		if (!is_wildcard(*p, j->release)) {
			keep_unknown(b, pct, p, j->release);
		} else if (!expand(b, *p, (int)width, j)) {
			buf_add(b, pct, (size_t)(p + 1 - pct));
			complete = false;
		}
		p++;
	}
	return complete;
}

char *
logpath_expand(const char *pattern, const struct logpath_job *j,
    bool *complete)
{
	struct buf	 b;
	bool		 ok = true, escaped;
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
	if (escaped)
		unescape(&b, pattern, j->release);
	else
		ok = expand_pattern(&b, pattern, j);
	if (complete != NULL)
		*complete = ok;
	return buf_detach(&b);
}

void
logpath_submitted(const struct logpath_sub *s, char **output, char **error)
{
	const struct jobdesc	*d = s->desc;
	struct logpath_job	 j;

	memset(&j, 0, sizeof j);
	j.release = s->release;
	j.job_id = (uint32_t)s->job_id;
	j.array_task_id = LOGPATH_NO_TASK;
	if (d->array != NULL) {
		j.array_job_id = (uint32_t)s->job_id;
		if (s->task >= 0) {
			j.array_task_id = (uint32_t)s->task;
			j.any_task = logpath_names_job_id(d->output) ||
			    logpath_names_job_id(d->error);
		} else
			j.any_task = true;
	}
	j.name = d->name != NULL ? d->name : "sbatch";
	j.user = s->user != NULL ? s->user : "";
	j.work_dir = s->workdir;
	*output = logpath_expand(d->output, &j, NULL);
	*error = d->error != NULL ? logpath_expand(d->error, &j, NULL) : NULL;
}

bool
logpath_names_job_id(const char *pattern)
{
	const char	*p;

	for (p = pattern; p != NULL && (p = strchr(p, '%')) != NULL; ) {
		if (*++p == '%') {
			p++;
			continue;
		}
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == 'j' || *p == 'J')
			return true;
	}
	return false;
}
