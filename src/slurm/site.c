/* site.c: a cluster's partitions, QoS and associations; see site.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "jsondoc.h"
#include "site.h"
#include "xmalloc.h"

void
site_init(struct site *s)
{
	memset(s, 0, sizeof *s);
}

void
site_release(struct site *s)
{
	size_t	 i;

	for (i = 0; i < s->nparts; i++) {
		free(s->parts[i].name);
		freev(s->parts[i].gres);
		freev(s->parts[i].features);
		free(s->parts[i].hostlist);
	}
	for (i = 0; i < s->nqos; i++)
		free(s->qos[i].name);
	for (i = 0; i < s->nassocs; i++) {
		free(s->assocs[i].account);
		free(s->assocs[i].partition);
		freev(s->assocs[i].qos);
	}
	free(s->parts);
	free(s->qos);
	free(s->assocs);
	free(s->written);
	free(s->via);
	free(s->user);
	free(s->no_accounting);
	site_init(s);
}

size_t
site_list_len(char *const *l)
{
	size_t	 n = 0;

	while (l != NULL && l[n] != NULL)
		n++;
	return n;
}

bool
site_list_has(char *const *l, const char *s)
{
	size_t	 i;

	for (i = 0; l != NULL && l[i] != NULL; i++)
		if (strcmp(l[i], s) == 0)
			return true;
	return false;
}

void
site_list_add(char ***l, const char *s)
{
	size_t	 n = site_list_len(*l);

	if (site_list_has(*l, s))
		return;
	*l = xreallocarray(*l, n + 2, sizeof **l);
	(*l)[n] = xstrdup(s);
	(*l)[n + 1] = NULL;
}

struct site_partition *
site_partition_find(const struct site *s, const char *name)
{
	size_t	 i;

	for (i = 0; i < s->nparts; i++)
		if (strcmp(s->parts[i].name, name) == 0)
			return &s->parts[i];
	return NULL;
}

struct site_partition *
site_partition_add(struct site *s, const char *name)
{
	struct site_partition	*p;

	if ((p = site_partition_find(s, name)) != NULL)
		return p;
	s->parts = xreallocarray(s->parts, s->nparts + 1, sizeof *s->parts);
	p = &s->parts[s->nparts++];
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->max_time = p->max_nodes = p->nodes = p->gpus_per_node = -1;
	return p;
}

struct site_qos *
site_qos_find(const struct site *s, const char *name)
{
	size_t	 i;

	for (i = 0; i < s->nqos; i++)
		if (strcmp(s->qos[i].name, name) == 0)
			return &s->qos[i];
	return NULL;
}

struct site_qos *
site_qos_add(struct site *s, const char *name)
{
	struct site_qos	*q;

	if ((q = site_qos_find(s, name)) != NULL)
		return q;
	s->qos = xreallocarray(s->qos, s->nqos + 1, sizeof *s->qos);
	q = &s->qos[s->nqos++];
	q->name = xstrdup(name);
	q->max_wall = q->max_nodes = q->max_nodes_user = -1;
	return q;
}

struct site_assoc *
site_assoc_add(struct site *s, const char *account, const char *partition)
{
	struct site_assoc	*a;
	size_t			 i;

	for (i = 0; i < s->nassocs; i++) {
		a = &s->assocs[i];
		if (strcmp(a->account, account) == 0 &&
		    (a->partition == NULL) == (partition == NULL) &&
		    (partition == NULL || strcmp(a->partition, partition) == 0))
			return a;
	}
	s->assocs = xreallocarray(s->assocs, s->nassocs + 1,
	    sizeof *s->assocs);
	a = &s->assocs[s->nassocs++];
	a->account = xstrdup(account);
	a->partition = partition != NULL ? xstrdup(partition) : NULL;
	a->qos = NULL;
	return a;
}

/*
 * One GRES of a node's list: NAME[:TYPE][:COUNT][(S:...)] (slurmctld's
 * gres_node_config_pack... as scontrol and the REST "gres" show it,
 * src/common/gres.c).  Returns the GPUs it counts, 0 for another GRES.
 */
static int64_t
gres_one(const char *g, size_t len, char ***types)
{
	char		*s, *type = NULL, *count = NULL, *paren, *end;
	int64_t		 n = 1;

	s = xstrndup(g, len);
	if ((paren = strchr(s, '(')) != NULL)
		*paren = '\0';
	if (strncmp(s, "gpu", 3) != 0 || (s[3] != '\0' && s[3] != ':')) {
		free(s);
		return 0;
	}
	if (s[3] == ':') {
		type = s + 4;
		if ((count = strrchr(type, ':')) != NULL)
			*count++ = '\0';
		else if (strspn(type, "0123456789") == strlen(type)) {
			count = type;
			type = NULL;
		}
	}
	/* A count past 2^20 GPUs on a node is no count (and the sum of a
	 * node's stays far from overflowing: found by fuzzing). */
	if (count != NULL && *count != '\0') {
		n = strtoll(count, &end, 10);
		if (*end != '\0' || n < 0 || n > (1 << 20))
			n = 0;
	}
	if (type != NULL && *type != '\0' && types != NULL)
		site_list_add(types, type);
	free(s);
	return n;
}

int64_t
site_gres_gpus(const char *gres, char ***types)
{
	const char	*p = gres;
	size_t		 len;
	int64_t		 n = 0;
	bool		 any = false;
	int		 depth;

	if (gres == NULL)
		return -1;
	while (*p != '\0') {
		/* A comma inside "(S:0,1)" does not end the GRES. */
		for (len = 0, depth = 0; p[len] != '\0' &&
		    (p[len] != ',' || depth > 0); len++)
			depth += p[len] == '(' ? 1 : p[len] == ')' ? -1 : 0;
		if (len >= 3 && strncmp(p, "gpu", 3) == 0 && (len == 3 ||
		    p[3] == ':' || p[3] == '(')) {
			n += gres_one(p, len, types);
			any = true;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return any ? n : -1;
}

void
site_time_text(int64_t minutes, char *buf, size_t len)
{
	if (minutes == INT64_MAX)
		snprintf(buf, len, "UNLIMITED");
	else if (minutes >= 24 * 60)
		snprintf(buf, len, "%" PRId64 "-%02d:%02d:00",
		    minutes / (24 * 60), (int)(minutes / 60 % 24),
		    (int)(minutes % 60));
	else
		snprintf(buf, len, "%02d:%02d:00", (int)(minutes / 60),
		    (int)(minutes % 60));
}

/* JSON */

static void
set_num(json_t *o, const char *key, int64_t v)
{
	if (v >= 0)
		json_object_set_new(o, key, json_integer(v));
}

static json_t *
list_json(char *const *l)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; l != NULL && l[i] != NULL; i++)
		json_array_append_new(a, json_string(l[i]));
	return a;
}

json_t *
site_to_json(const struct site *s)
{
	json_t			*o, *parts, *p, *qos, *q, *assocs, *a;
	const struct site_partition *sp;
	size_t			 i;

	o = json_object();
	if (s->written != NULL)
		json_object_set_new(o, "written", json_string(s->written));
	if (s->via != NULL)
		json_object_set_new(o, "via", json_string(s->via));
	if (s->user != NULL)
		json_object_set_new(o, "user", json_string(s->user));
	parts = json_object();
	for (i = 0; i < s->nparts; i++) {
		sp = &s->parts[i];
		p = json_object();
		if (s->default_known)
			json_object_set_new(p, "default",
			    json_boolean(sp->is_default));
		set_num(p, "max_time", sp->max_time);
		set_num(p, "max_nodes", sp->max_nodes);
		set_num(p, "nodes", sp->nodes);
		set_num(p, "gpus_per_node", sp->gpus_per_node);
		json_object_set_new(p, "gres", list_json(sp->gres));
		json_object_set_new(p, "features", list_json(sp->features));
		json_object_set_new(parts, sp->name, p);
	}
	json_object_set_new(o, "partitions", parts);
	if (s->qos_known) {
		qos = json_object();
		for (i = 0; i < s->nqos; i++) {
			q = json_object();
			set_num(q, "max_wall", s->qos[i].max_wall);
			set_num(q, "max_nodes", s->qos[i].max_nodes);
			set_num(q, "max_nodes_per_user",
			    s->qos[i].max_nodes_user);
			json_object_set_new(qos, s->qos[i].name, q);
		}
		json_object_set_new(o, "qos", qos);
	}
	if (s->assoc_known) {
		assocs = json_array();
		for (i = 0; i < s->nassocs; i++) {
			a = json_object();
			json_object_set_new(a, "account",
			    json_string(s->assocs[i].account));
			if (s->assocs[i].partition != NULL)
				json_object_set_new(a, "partition",
				    json_string(s->assocs[i].partition));
			json_object_set_new(a, "qos",
			    list_json(s->assocs[i].qos));
			json_array_append_new(assocs, a);
		}
		json_object_set_new(o, "associations", assocs);
	}
	return o;
}

/* Reading back: every key is known, every value of its type. */

#define SITE_PATH_MAX	8

struct reader {
	const struct jsondoc	*doc;
	const char		*path[SITE_PATH_MAX];
	int			 depth;
};

static struct error *
bad(struct reader *r, const char *what)
{
	return jsondoc_error(r->doc, r->path, EXIT_USAGE, "'%s' %s",
	    r->path[r->depth - 1], what);
}

static void
push(struct reader *r, const char *key)
{
	r->path[r->depth++] = key;
	r->path[r->depth] = NULL;
}

static void
pop(struct reader *r)
{
	r->path[--r->depth] = NULL;
}

static struct error *
read_string(struct reader *r, const json_t *j, char **out)
{
	const char	*s;

	if (!json_is_string(j))
		return bad(r, "must be a string");
	s = json_string_value(j);
	if (strlen(s) != json_string_length(j) || strpbrk(s, "\n\r") != NULL)
		return bad(r, "contains a NUL byte or a newline");
	free(*out);
	*out = xstrdup(s);
	return NULL;
}

static struct error *
read_num(struct reader *r, const json_t *j, int64_t *out)
{
	if (!json_is_integer(j) || json_integer_value(j) < 0)
		return bad(r, "must be a whole number, 0 or more");
	*out = json_integer_value(j);
	return NULL;
}

static struct error *
read_list(struct reader *r, const json_t *j, char ***out)
{
	struct error	*err;
	const json_t	*v;
	char		*s = NULL;
	size_t		 i;

	if (!json_is_array(j))
		return bad(r, "must be a list of strings");
	json_array_foreach(j, i, v) {
		if ((err = read_string(r, v, &s)) != NULL) {
			free(s);
			return err;
		}
		site_list_add(out, s);
	}
	free(s);
	return NULL;
}

static struct error *
unknown(struct reader *r, const char *key, const char *known)
{
	return jsondoc_error(r->doc, r->path, EXIT_USAGE,
	    "unknown key '%s' (expected %s)", key, known);
}

static struct error *
read_partition(struct reader *r, struct site *s, const char *name,
    const json_t *j)
{
	struct site_partition	*p;
	struct error		*err = NULL;
	const char		*key;
	json_t			*v;

	if (!json_is_object(j))
		return bad(r, "must be an object");
	p = site_partition_add(s, name);
	json_object_foreach((json_t *)j, key, v) {
		push(r, key);
		if (strcmp(key, "default") == 0) {
			if (!json_is_boolean(v))
				err = bad(r, "must be true or false");
			p->is_default = json_is_true(v);
			s->default_known = true;
		} else if (strcmp(key, "max_time") == 0)
			err = read_num(r, v, &p->max_time);
		else if (strcmp(key, "max_nodes") == 0)
			err = read_num(r, v, &p->max_nodes);
		else if (strcmp(key, "nodes") == 0)
			err = read_num(r, v, &p->nodes);
		else if (strcmp(key, "gpus_per_node") == 0)
			err = read_num(r, v, &p->gpus_per_node);
		else if (strcmp(key, "gres") == 0)
			err = read_list(r, v, &p->gres);
		else if (strcmp(key, "features") == 0)
			err = read_list(r, v, &p->features);
		else
			err = unknown(r, key, "default, max_time, max_nodes, "
			    "nodes, gpus_per_node, gres, features");
		pop(r);
		if (err != NULL)
			return err;
	}
	return NULL;
}

static struct error *
read_qos(struct reader *r, struct site *s, const char *name, const json_t *j)
{
	struct site_qos	*q;
	struct error	*err = NULL;
	const char	*key;
	json_t		*v;

	if (!json_is_object(j))
		return bad(r, "must be an object");
	q = site_qos_add(s, name);
	json_object_foreach((json_t *)j, key, v) {
		push(r, key);
		if (strcmp(key, "max_wall") == 0)
			err = read_num(r, v, &q->max_wall);
		else if (strcmp(key, "max_nodes") == 0)
			err = read_num(r, v, &q->max_nodes);
		else if (strcmp(key, "max_nodes_per_user") == 0)
			err = read_num(r, v, &q->max_nodes_user);
		else
			err = unknown(r, key, "max_wall, max_nodes, "
			    "max_nodes_per_user");
		pop(r);
		if (err != NULL)
			return err;
	}
	return NULL;
}

static struct error *
read_assoc(struct reader *r, struct site *s, const json_t *j)
{
	struct site_assoc	*a;
	struct error		*err = NULL;
	const json_t		*acct;
	const char		*key;
	char			*account = NULL, *partition = NULL;
	char			**qos = NULL;
	json_t			*v;
	size_t			 i;

	if (!json_is_object(j) || (acct = json_object_get(j,
	    "account")) == NULL)
		return bad(r, "must be an object with an account");
	json_object_foreach((json_t *)j, key, v) {
		push(r, key);
		if (strcmp(key, "account") == 0)
			err = read_string(r, v, &account);
		else if (strcmp(key, "partition") == 0)
			err = read_string(r, v, &partition);
		else if (strcmp(key, "qos") == 0)
			err = read_list(r, v, &qos);
		else
			err = unknown(r, key, "account, partition, qos");
		pop(r);
		if (err != NULL)
			break;
	}
	if (err == NULL) {
		a = site_assoc_add(s, account, partition);
		for (i = 0; qos != NULL && qos[i] != NULL; i++)
			site_list_add(&a->qos, qos[i]);
	}
	free(account);
	free(partition);
	freev(qos);
	return err;
}

/* Each member of object or array J through ONE. */
static struct error *
read_each(struct reader *r, struct site *s, const json_t *j, bool array,
    struct error *(*one)(struct reader *, struct site *, const char *,
    const json_t *))
{
	struct error	*err;
	const char	*key;
	char		 idx[32];
	json_t		*v;
	size_t		 i;

	if (array ? !json_is_array(j) : !json_is_object(j))
		return bad(r, array ? "must be a list" : "must be an object");
	if (array)
		json_array_foreach(j, i, v) {
			snprintf(idx, sizeof idx, "[%zu]", i);
			push(r, idx);
			err = read_assoc(r, s, v);
			pop(r);
			if (err != NULL)
				return err;
		}
	else
		json_object_foreach((json_t *)j, key, v) {
			push(r, key);
			err = one(r, s, key, v);
			pop(r);
			if (err != NULL)
				return err;
		}
	return NULL;
}

struct error *
site_from_json(struct site *s, const struct jsondoc *doc, const json_t *j,
    const char **path)
{
	struct reader	 r;
	struct error	*err = NULL;
	const char	*key;
	json_t		*v;

	memset(&r, 0, sizeof r);
	r.doc = doc;
	while (path != NULL && path[r.depth] != NULL &&
	    r.depth < SITE_PATH_MAX - 3)
		push(&r, path[r.depth]);
	if (!json_is_object(j))
		return bad(&r, "must be an object (written by mbsbatch site)");
	json_object_foreach((json_t *)j, key, v) {
		push(&r, key);
		if (strcmp(key, "written") == 0)
			err = read_string(&r, v, &s->written);
		else if (strcmp(key, "via") == 0)
			err = read_string(&r, v, &s->via);
		else if (strcmp(key, "user") == 0)
			err = read_string(&r, v, &s->user);
		else if (strcmp(key, "partitions") == 0)
			err = read_each(&r, s, v, false, read_partition);
		else if (strcmp(key, "qos") == 0) {
			s->qos_known = true;
			err = read_each(&r, s, v, false, read_qos);
		} else if (strcmp(key, "associations") == 0) {
			s->assoc_known = true;
			err = read_each(&r, s, v, true, NULL);
		} else
			err = unknown(&r, key, "written, via, user, "
			    "partitions, qos, associations");
		pop(&r);
		if (err != NULL)
			return err;
	}
	return NULL;
}
