/* siteinfo.c: the cluster's own words into a struct site; see
 * siteinfo.h. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "error.h"
#include "site.h"
#include "siteinfo.h"
#include "slurmopt.h"
#include "xmalloc.h"

bool
siteinfo_no_value(const char *v)
{
	return v == NULL || *v == '\0' || strcmp(v, "(null)") == 0 ||
	    strcmp(v, "N/A") == 0;
}

char **
siteinfo_csv(const char *s)
{
	char		**l = NULL, *w;
	const char	*p = s;
	size_t		 len;

	if (siteinfo_no_value(s))
		return NULL;
	while (*p != '\0') {
		len = strcspn(p, ",");
		if (len > 0) {
			w = xstrndup(p, len);
			site_list_add(&l, w);
			free(w);
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return l;
}

/* A GRES without its socket binding: "gpu:h100:8(S:0-1)" is
 * "gpu:h100:8". */
static char *
gres_bare(const char *g, size_t len)
{
	const char	*paren = memchr(g, '(', len);

	return xstrndup(g, paren != NULL ? (size_t)(paren - g) : len);
}

void
siteinfo_add_node(struct site *s, const char *name, const char *gres,
    char *const *features, char *const *parts)
{
	struct site_partition	*p;
	const char		*g;
	char			*one;
	int64_t			 gpus;
	size_t			 i, k, len;
	int			 depth;

	gpus = siteinfo_no_value(gres) ? 0 : site_gres_gpus(gres, NULL);
	if (gpus < 0)
		gpus = 0;
	for (i = 0; i < s->nparts; i++) {
		p = &s->parts[i];
		if (parts != NULL ? !site_list_has(parts, p->name) :
		    (p->hostlist == NULL ||
		    !siteinfo_hostlist_has(p->hostlist, name)))
			continue;
		if (p->gpus_per_node < 0 || gpus < p->gpus_per_node)
			p->gpus_per_node = gpus;
		for (g = siteinfo_no_value(gres) ? "" : gres; *g != '\0'; g += len) {
			for (len = 0, depth = 0; g[len] != '\0' &&
			    (g[len] != ',' || depth > 0); len++)
				depth += g[len] == '(' ? 1 :
				    g[len] == ')' ? -1 : 0;
			one = gres_bare(g, len);
			if (*one != '\0')
				site_list_add(&p->gres, one);
			free(one);
			if (g[len] == ',')
				len++;
		}
		for (k = 0; features != NULL && features[k] != NULL; k++)
			site_list_add(&p->features, features[k]);
	}
}

/* Hostlists */

/*
 * Does NAME match one item of a hostlist, PREFIX[RANGES]SUFFIX, RANGES
 * "N" or "N-M" items?  A zero-padded bound ("001-064") names numbers of
 * its width only; an unpadded one numbers without leading zeros
 * (src/common/hostlist.c).
 */
static bool
item_has(const char *item, size_t len, const char *name)
{
	const char	*open = memchr(item, '[', len), *close, *r, *num;
	size_t		 pre, suf, nlen = strlen(name), digits, width;
	char		*end;
	long		 lo, hi, v;

	if (open == NULL)
		return len == nlen && strncmp(item, name, len) == 0;
	if ((close = memchr(open, ']', len - (size_t)(open - item))) == NULL)
		return false;
	pre = (size_t)(open - item);
	suf = len - (size_t)(close - item) - 1;
	if (nlen <= pre + suf || strncmp(item, name, pre) != 0 ||
	    strncmp(close + 1, name + nlen - suf, suf) != 0)
		return false;
	num = name + pre;
	digits = nlen - pre - suf;
	for (r = num; r < num + digits; r++)
		if (!isdigit((unsigned char)*r))
			return false;
	v = strtol(num, NULL, 10);
	for (r = open + 1; r < close; r = end + 1) {
		lo = strtol(r, &end, 10);
		if (end == r)
			return false;
		width = (size_t)(end - r);
		hi = lo;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (v >= lo && v <= hi && (*r == '0' && width > 1 ?
		    digits == width : digits == 1 || *num != '0'))
			return true;
		if (*end != ',')
			break;
	}
	return false;
}

bool
siteinfo_hostlist_has(const char *expr, const char *name)
{
	const char	*p = expr;
	size_t		 len;
	int		 depth;

	while (*p != '\0') {
		for (len = 0, depth = 0; p[len] != '\0' &&
		    (p[len] != ',' || depth > 0); len++)
			depth += p[len] == '[' ? 1 : p[len] == ']' ? -1 : 0;
		if (len > 0 && item_has(p, len, name))
			return true;
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

/* scontrol -o: KEY=VALUE words */

/* The value of KEY in record LINE, a new string, or NULL. */
static char *
kv(const char *line, const char *key)
{
	size_t		 klen = strlen(key);
	const char	*p = line;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=')
			return xstrndup(p + klen + 1, strcspn(p + klen + 1,
			    " \n"));
		p += klen;
	}
	return NULL;
}

/* A limit as scontrol prints it: UNLIMITED, a number; -1 for none. */
static int64_t
kv_count(const char *v)
{
	char	*end;
	long long n;

	if (siteinfo_no_value(v) || strcmp(v, "UNLIMITED") == 0)
		return -1;
	n = strtoll(v, &end, 10);
	return *end == '\0' && n >= 0 ? n : -1;
}

static int64_t
kv_time(const char *v)
{
	int64_t	 m;
	bool	 unlimited;

	if (siteinfo_no_value(v) || strcmp(v, "NONE") == 0 ||
	    slurmopt_time_minutes(v, &m, &unlimited) == -1 || unlimited)
		return -1;
	return m;
}

/* Each line of TEXT through ONE. */
static struct error *
each_line(struct site *s, const char *text, const char *what,
    struct error *(*one)(struct site *, const char *, const char *))
{
	struct error	*err = NULL;
	const char	*p = text;
	char		*line;
	size_t		 len;

	while (err == NULL && *p != '\0') {
		len = strcspn(p, "\n");
		line = xstrndup(p, len);
		if (*line != '\0')
			err = one(s, line, what);
		free(line);
		p += len;
		if (*p == '\n')
			p++;
	}
	return err;
}

static struct error *
scontrol_partition(struct site *s, const char *line, const char *what)
{
	struct site_partition	*p;
	char			*name, *v;

	if ((name = kv(line, "PartitionName")) == NULL)
		return error_new(EXIT_FAILURE_OP, "%s: no PartitionName in "
		    "'%.60s'", what, line);
	p = site_partition_add(s, name);
	free(name);
	v = kv(line, "Default");
	p->is_default = v != NULL && strcmp(v, "YES") == 0;
	free(v);
	v = kv(line, "MaxTime");
	p->max_time = kv_time(v);
	free(v);
	v = kv(line, "MaxNodes");
	p->max_nodes = kv_count(v);
	free(v);
	v = kv(line, "TotalNodes");
	p->nodes = kv_count(v);
	free(v);
	free(p->hostlist);
	p->hostlist = kv(line, "Nodes");
	s->default_known = true;
	return NULL;
}

struct error *
siteinfo_scontrol_partitions(struct site *s, const char *text)
{
	return each_line(s, text, "scontrol show partition",
	    scontrol_partition);
}

static struct error *
scontrol_node(struct site *s, const char *line, const char *what)
{
	char	*name, *gres, *feat, *parts, **fl, **pl;

	if ((name = kv(line, "NodeName")) == NULL)
		return error_new(EXIT_FAILURE_OP, "%s: no NodeName in "
		    "'%.60s'", what, line);
	gres = kv(line, "Gres");
	feat = kv(line, "AvailableFeatures");
	parts = kv(line, "Partitions");
	fl = siteinfo_csv(feat);
	pl = siteinfo_csv(parts);
	/* A node in no partition has no Partitions= at all. */
	if (pl != NULL)
		siteinfo_add_node(s, name, gres, fl, pl);
	freev(fl);
	freev(pl);
	free(parts);
	free(feat);
	free(gres);
	free(name);
	return NULL;
}

struct error *
siteinfo_scontrol_nodes(struct site *s, const char *text)
{
	return each_line(s, text, "scontrol show node", scontrol_node);
}

/* sacctmgr -nP: fields split by '|' */

/* Field N of a '|' line, a new string. */
static char *
field(const char *line, int n)
{
	const char	*p = line;

	while (n-- > 0) {
		if ((p = strchr(p, '|')) == NULL)
			return xstrdup("");
		p++;
	}
	return xstrndup(p, strcspn(p, "|"));
}

/* The node= count of a TRES list ("cpu=4,node=2"), or -1. */
static int64_t
tres_nodes(const char *tres)
{
	const char	*p = tres;
	char		*v;
	int64_t		 n;

	for (; p != NULL && *p != '\0'; p = strchr(p, ',') != NULL ?
	    strchr(p, ',') + 1 : NULL)
		if (strncmp(p, "node=", 5) == 0) {
			v = xstrndup(p + 5, strcspn(p + 5, ","));
			n = kv_count(v);
			free(v);
			return n;
		}
	return -1;
}

static struct error *
sacctmgr_qos(struct site *s, const char *line, const char *what)
{
	struct site_qos	*q;
	char		*name, *v;

	name = field(line, 0);
	if (*name == '\0') {
		free(name);
		return error_new(EXIT_FAILURE_OP, "%s: no name in '%.60s'",
		    what, line);
	}
	q = site_qos_add(s, name);
	free(name);
	v = field(line, 1);
	q->max_wall = kv_time(v);
	free(v);
	v = field(line, 2);
	q->max_nodes = tres_nodes(v);
	free(v);
	v = field(line, 3);
	q->max_nodes_user = tres_nodes(v);
	free(v);
	return NULL;
}

struct error *
siteinfo_sacctmgr_qos(struct site *s, const char *text)
{
	s->qos_known = true;
	return each_line(s, text, "sacctmgr show qos", sacctmgr_qos);
}

static struct error *
sacctmgr_assoc(struct site *s, const char *line, const char *what)
{
	struct site_assoc	*a;
	char			*acct, *part, *qos, **ql;
	size_t			 i;

	acct = field(line, 0);
	if (*acct == '\0') {
		free(acct);
		return error_new(EXIT_FAILURE_OP, "%s: no account in "
		    "'%.60s'", what, line);
	}
	part = field(line, 1);
	qos = field(line, 2);
	a = site_assoc_add(s, acct, *part != '\0' ? part : NULL);
	ql = siteinfo_csv(qos);
	for (i = 0; ql != NULL && ql[i] != NULL; i++)
		site_list_add(&a->qos, ql[i]);
	freev(ql);
	free(qos);
	free(part);
	free(acct);
	return NULL;
}

struct error *
siteinfo_sacctmgr_assoc(struct site *s, const char *text)
{
	s->assoc_known = true;
	return each_line(s, text, "sacctmgr show assoc", sacctmgr_assoc);
}
