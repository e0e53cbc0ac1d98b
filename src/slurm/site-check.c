/*
 * site-check.c: a job against the limits its cluster's site profile
 * knows (site.h), the way slurmctld would refuse it at submit time
 * (EnforcePartLimits, AccountingStorageEnforce) or leave it pending
 * forever.  What slurmctld checks, in its source (slurm-25-11-7-1):
 * partition MaxTime and MaxNodes, and the nodes it has, in
 * _part_access_check() (src/slurmctld/job_mgr.c); an unknown partition,
 * ESLURM_INVALID_PARTITION_NAME in _get_job_parts(); a GRES type no node
 * has, ESLURM_INVALID_GRES in gres_job_state_validate()
 * (src/common/gres.c); a QoS or account the user's associations do not
 * allow, ESLURM_INVALID_QOS / ESLURM_INVALID_ACCOUNT in
 * _job_create()'s association lookup; a QoS's MaxWall and MaxTRESPerJob
 * in acct_policy_validate() (src/slurmctld/acct_policy.c).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "site.h"
#include "xmalloc.h"

struct checker {
	const struct site	*s;
	const char		*source;	/* "site profile of ..." */
	void			(*add)(void *, const char *);
	void			*arg;
	int			 n;
};

static void
report(struct checker *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
report(struct checker *c, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *line;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	line = xasprintf("%s (%s)", msg, c->source);
	c->add(c->arg, line);
	free(line);
	free(msg);
	c->n++;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of a list, "a, b, c" in order (whatever order Slurm gave
 * them in), into B. */
static void
names(struct buf *b, char *const *l)
{
	size_t	 i, n = site_list_len(l);
	char	**sorted;

	if (n == 0)
		return;
	sorted = xreallocarray(NULL, n, sizeof *sorted);
	memcpy(sorted, l, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, by_name);
	for (i = 0; i < n; i++)
		buf_addf(b, "%s%s", i > 0 ? ", " : "", sorted[i]);
	free(sorted);
}

static const struct site_partition *
job_partition(struct checker *c, const struct site_job *j)
{
	const struct site_partition	*p;
	struct buf			 b;
	size_t				 i;

	if (j->partition == NULL) {
		for (i = 0; i < c->s->nparts; i++)
			if (c->s->parts[i].is_default)
				return &c->s->parts[i];
		return NULL;	/* not known: Slurm picks */
	}
	if ((p = site_partition_find(c->s, j->partition)) != NULL)
		return p;
	buf_init(&b);
	for (i = 0; i < c->s->nparts; i++)
		buf_addf(&b, "%s%s", i > 0 ? ", " : "", c->s->parts[i].name);
	report(c, "partition '%s': no such partition; the cluster has %s",
	    j->partition, b.len > 0 ? b.data : "none");
	buf_release(&b);
	return NULL;
}

static void
check_partition(struct checker *c, const struct site_partition *p,
    const struct site_job *j)
{
	char		 lim[32], asked[32];
	char		**types = NULL;
	struct buf	 b;
	size_t		 i;

	if (p->max_time >= 0 && j->time > p->max_time) {
		site_time_text(p->max_time, lim, sizeof lim);
		site_time_text(j->time, asked, sizeof asked);
		report(c, "partition %s: MaxTime %s, the job asks %s",
		    p->name, lim, asked);
	}
	if (p->max_nodes >= 0 && j->nodes > p->max_nodes)
		report(c, "partition %s: MaxNodes %" PRId64 ", the job needs "
		    "%" PRId64 " nodes", p->name, p->max_nodes, j->nodes);
	else if (p->nodes >= 0 && j->nodes > p->nodes)
		report(c, "partition %s: %" PRId64 " nodes in all, the job "
		    "needs %" PRId64, p->name, p->nodes, j->nodes);
	if (p->gpus_per_node >= 0 && j->gpus_per_node > p->gpus_per_node)
		report(c, "partition %s: %" PRId64 " GPUs per node, the job "
		    "asks %" PRId64, p->name, p->gpus_per_node,
		    j->gpus_per_node);
	if (j->gpu_type == NULL)
		return;
	for (i = 0; p->gres != NULL && p->gres[i] != NULL; i++)
		(void)site_gres_gpus(p->gres[i], &types);
	if (!site_list_has(types, j->gpu_type)) {
		buf_init(&b);
		names(&b, p->gres);
		report(c, "partition %s: no GPU of GRES type '%s' on its "
		    "nodes (they have %s)", p->name, j->gpu_type,
		    b.len > 0 ? b.data : "no GPU");
		buf_release(&b);
	}
	freev(types);
}

/* Does association A apply to a job in partition PART? */
static bool
assoc_applies(const struct site_assoc *a, const struct site_partition *part)
{
	return a->partition == NULL || part == NULL ||
	    strcmp(a->partition, part->name) == 0;
}

/* Is the job's account one of the user's? Says so when not. */
static bool
check_account(struct checker *c, const struct site_partition *part,
    const struct site_job *j)
{
	bool	 ok;
	char	**accts = NULL;
	struct buf b;
	size_t	 i;

	for (i = 0; i < c->s->nassocs; i++)
		if (assoc_applies(&c->s->assocs[i], part))
			site_list_add(&accts, c->s->assocs[i].account);
	/* A user with no association at all: not known, not checked. */
	if (!(ok = accts == NULL || site_list_has(accts, j->account))) {
		buf_init(&b);
		names(&b, accts);
		report(c, "account '%s': user %s has no association with it"
		    "%s%s (theirs: %s)", j->account, c->s->user != NULL ?
		    c->s->user : "(unknown)", part != NULL ?
		    " in partition " : "", part != NULL ? part->name : "",
		    b.len > 0 ? b.data : "none");
		buf_release(&b);
	}
	freev(accts);
	return ok;
}

static void
check_qos(struct checker *c, const struct site_partition *part,
    const struct site_job *j, bool account_ok)
{
	const struct site_qos	*q;
	const struct site_assoc	*a;
	char			**allowed = NULL, lim[32], asked[32];
	struct buf		 b;
	size_t			 i, k;

	if (c->s->qos_known) {
		if ((q = site_qos_find(c->s, j->qos)) == NULL) {
			buf_init(&b);
			for (i = 0; i < c->s->nqos; i++)
				buf_addf(&b, "%s%s", i > 0 ? ", " : "",
				    c->s->qos[i].name);
			report(c, "QoS '%s': no such QoS; the cluster has %s",
			    j->qos, b.len > 0 ? b.data : "none");
			buf_release(&b);
			return;
		}
		if (q->max_wall >= 0 && j->time > q->max_wall) {
			site_time_text(q->max_wall, lim, sizeof lim);
			site_time_text(j->time, asked, sizeof asked);
			report(c, "QoS %s: MaxWall %s, the job asks %s",
			    q->name, lim, asked);
		}
		if (q->max_nodes >= 0 && j->nodes > q->max_nodes)
			report(c, "QoS %s: MaxTRESPerJob node=%" PRId64 ", the "
			    "job needs %" PRId64 " nodes", q->name,
			    q->max_nodes, j->nodes);
		if (q->max_nodes_user >= 0 && j->nodes > q->max_nodes_user)
			report(c, "QoS %s: MaxTRESPerUser node=%" PRId64
			    ", the job needs %" PRId64 " nodes", q->name,
			    q->max_nodes_user, j->nodes);
	}
	/* A bad account was said already: no QoS is allowed under it. */
	if (!c->s->assoc_known || !account_ok)
		return;
	for (i = 0; i < c->s->nassocs; i++) {
		a = &c->s->assocs[i];
		if (!assoc_applies(a, part) || (j->account != NULL &&
		    strcmp(a->account, j->account) != 0))
			continue;
		for (k = 0; a->qos != NULL && a->qos[k] != NULL; k++)
			site_list_add(&allowed, a->qos[k]);
	}
	/* No association names a QoS: not known, not checked. */
	if (allowed != NULL && !site_list_has(allowed, j->qos)) {
		buf_init(&b);
		names(&b, allowed);
		report(c, "QoS '%s': not allowed to user %s%s%s (allowed: %s)",
		    j->qos, c->s->user != NULL ? c->s->user : "(unknown)",
		    j->account != NULL ? " under account " : "",
		    j->account != NULL ? j->account : "",
		    b.len > 0 ? b.data : "none");
		buf_release(&b);
	}
	freev(allowed);
}

int
site_check(const struct site *s, const char *cluster,
    const struct site_job *j, void (*add)(void *, const char *), void *arg)
{
	struct checker			 c;
	const struct site_partition	*part = NULL;
	char				*source;
	bool				 account_ok = true;

	source = xasprintf("site profile of cluster %s, written %s",
	    cluster != NULL ? cluster : "(none)",
	    s->written != NULL ? s->written : "(no date)");
	memset(&c, 0, sizeof c);
	c.s = s;
	c.source = source;
	c.add = add;
	c.arg = arg;
	if (s->nparts > 0 && (part = job_partition(&c, j)) != NULL)
		check_partition(&c, part, j);
	if (j->account != NULL && s->assoc_known)
		account_ok = check_account(&c, part, j);
	if (j->qos != NULL)
		check_qos(&c, part, j, account_ok);
	free(source);
	return c.n;
}
