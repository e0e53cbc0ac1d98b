/*
 * jobref.c: job references and array task lists (jobref.h).  Task lists
 * are what slurmctld's bit_fmt-style formatting writes for
 * array_task_str: ranges "A-B", single tasks, a step "A-B:S", commas
 * between, and a throttle "%N" at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "jobref.h"
#include "number.h"

#define TASK_MAX	INT64_C(4000000)	/* Slurm's MAX_ARRAY_SIZE cap */

const char *
job_ref_parse(const char *text, struct job_ref *ref)
{
	const char	*us, *why;
	char		 idtext[24];
	size_t		 len;

	ref->id = 0;
	ref->task = -1;
	if ((us = strchr(text, '_')) == NULL)
		return number_parse_int(text, 1, INT64_C(0xfffffffe), &ref->id);
	len = (size_t)(us - text);
	if (len == 0 || len >= sizeof idtext)
		return "is not a job id (expected N or N_TASK)";
	memcpy(idtext, text, len);
	idtext[len] = '\0';
	if ((why = number_parse_int(idtext, 1, INT64_C(0xfffffffe),
	    &ref->id)) != NULL)
		return why;
	if ((why = number_parse_int(us + 1, 0, TASK_MAX, &ref->task)) != NULL)
		return "has a task that is not a whole number from 0 to 4000000";
	return NULL;
}

/* One number at *P, advanced; false when there is none. */
static bool
tasks_number(const char **p, int64_t *n)
{
	char		*end;
	long long	 v;

	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	v = strtoll(*p, &end, 10);
	if (errno != 0 || v > TASK_MAX)
		return false;
	*p = end;
	*n = v;
	return true;
}

/*
 * Walk TASKS: the count in *COUNT, and whether TASK is named in *HAS.
 * False when TASKS is not a list of ours.
 */
static bool
tasks_walk(const char *tasks, int64_t task, int64_t *count, bool *has)
{
	const char	*p = tasks;
	int64_t		 a, b, step;

	*count = 0;
	*has = false;
	if (p == NULL || *p == '\0')
		return false;
	for (;;) {
		if (!tasks_number(&p, &a))
			return false;
		b = a;
		step = 1;
		if (*p == '-') {
			p++;
			if (!tasks_number(&p, &b) || b < a)
				return false;
			if (*p == ':') {
				p++;
				if (!tasks_number(&p, &step) || step < 1)
					return false;
			}
		}
		*count += (b - a) / step + 1;
		if (task >= a && task <= b && (task - a) % step == 0)
			*has = true;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '%') {
			p++;
			if (!tasks_number(&p, &a))
				return false;
		}
		return *p == '\0';
	}
}

int64_t
array_tasks_count(const char *tasks)
{
	int64_t	 count;
	bool	 has;

	return tasks_walk(tasks, -1, &count, &has) ? count : -1;
}

bool
array_tasks_has(const char *tasks, int64_t task)
{
	int64_t	 count;
	bool	 has;

	return tasks_walk(tasks, task, &count, &has) && has;
}

/*
 * Slurm's mask of array tasks ("0x3FC": bit N is task N), how accounting
 * keeps a group's tasks not started, as the list slurmctld gives ("2-9",
 * "%MAX" after it when at most MAX run at once); sacct does the same
 * (slurmdb_get_job_id_str()).
 */
char *
array_tasks_from_mask(const char *mask, int64_t max)
{
	struct buf	 b;
	const char	*hex;
	size_t		 n;
	int64_t		 t, first = -1;
	int		 c, d;
	bool		 set;

	if (mask == NULL || strncasecmp(mask, "0x", 2) != 0)
		return NULL;
	hex = mask + 2;
	n = strlen(hex);
	/* Slurm's arrays have at most 4000001 tasks (MAX_ARRAY_SIZE). */
	if (n == 0 || n > 4000001 / 4 + 1 ||
	    strspn(hex, "0123456789abcdefABCDEF") != n)
		return NULL;
	buf_init(&b);
	/* Least significant digit last; one step past the end closes a
	 * range still open. */
	for (t = 0; t <= (int64_t)n * 4; t++) {
		set = false;
		if (t < (int64_t)n * 4) {
			c = (unsigned char)hex[n - 1 - (size_t)(t / 4)];
			d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
			set = (d >> (t % 4) & 1) != 0;
		}
		if (set && first == -1)
			first = t;
		else if (!set && first != -1) {
			buf_addf(&b, "%s%lld", b.len > 0 ? "," : "",
			    (long long)first);
			if (t - 1 > first)
				buf_addf(&b, "-%lld", (long long)(t - 1));
			first = -1;
		}
	}
	if (b.len == 0) {
		buf_release(&b);
		return NULL;
	}
	if (max > 0)
		buf_addf(&b, "%%%lld", (long long)max);
	return buf_detach(&b);
}
