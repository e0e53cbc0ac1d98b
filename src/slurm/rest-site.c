/*
 * rest-site.c: slurmrestd's partitions, nodes, QoS and associations into
 * a struct site (siteinfo.h), v0.0.36 to v0.0.44; the paths and the
 * answers of what "mbsbatch site" asks.  Pure.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rest-int.h"
#include "site.h"
#include "siteinfo.h"
#include "xmalloc.h"

char *
rest_path_site(enum rest_version v, const char *what)
{
	/* QoS and associations are slurmdbd's. */
	return xasprintf("/%s/%s/%s", strcmp(what, "qos") == 0 ||
	    strcmp(what, "associations") == 0 ? "slurmdb" : "slurm",
	    rest_version_name(v), what);
}

struct error *
rest_parse_site(enum rest_version v, long status, const char *body,
    size_t len, json_t **out)
{
	json_t	*root = rest_load(body, len);

	*out = NULL;
	if (!rest_http_ok(status) || !json_is_object(root) ||
	    json_array_size(json_object_get(root, "errors")) > 0) {
		struct error *err = rest_answer_error(v, status, root, body,
		    len);
		json_decref(root);
		return err;
	}
	*out = root;
	return NULL;
}


/*
 * A limit as the API writes it (rest_get_num()): an integer (v0.0.36 to
 * v0.0.38, -1 or INFINITE/NO_VAL for none) or {set, infinite, number}
 * (v0.0.39 on); -1 for none.
 */
static int64_t
rest_num(const json_t *j)
{
	int64_t	 v;

	if (rest_get_num((json_t *)j, &v) != NUM_SET)
		return -1;
	/* INFINITE and NO_VAL of 32 and 16 bits (slurm.h). */
	if (v < 0 || v >= 0xfffffffe || v == 0xfffe || v == 0xffff)
		return -1;
	return v;
}

/* A string or an array of strings (CSV_STRING, v0.0.39 on) as a list. */
static char **
rest_list(const json_t *j)
{
	char	**l = NULL;
	json_t	*v;
	size_t	 i;

	if (json_is_string(j))
		return siteinfo_csv(json_string_value(j));
	json_array_foreach(j, i, v)
		if (json_is_string(v) && !siteinfo_no_value(json_string_value(v)))
			site_list_add(&l, json_string_value(v));
	return l;
}

/* Member PATH ("a/b") of J, or NULL. */
static const json_t *
rest_get(const json_t *j, const char *path)
{
	char	*key;
	size_t	 len;

	while (j != NULL && *path != '\0') {
		len = strcspn(path, "/");
		key = xstrndup(path, len);
		j = json_object_get(j, key);
		free(key);
		path += len;
		if (*path == '/')
			path++;
	}
	return j;
}

/* The array KEY of an answer (any of KEYS' spellings), or an error. */
static struct error *
rest_array(const json_t *body, const char *const *keys, const char *what,
    const json_t **out)
{
	size_t	 i;

	for (i = 0; keys[i] != NULL; i++)
		if (json_is_array(*out = json_object_get(body, keys[i])))
			return NULL;
	return error_new(EXIT_FAILURE_OP, "%s: the answer has no '%s' list",
	    what, keys[0]);
}

struct error *
siteinfo_rest_partitions(struct site *s, const json_t *body)
{
	static const char *const keys[] = { "partitions", NULL };
	struct site_partition	*p;
	struct error		*err;
	const json_t		*list, *flags, *v;
	json_t			*j;
	size_t			 i, k;

	if ((err = rest_array(body, keys, "slurmrestd partitions", &list)))
		return err;
	json_array_foreach(list, i, j) {
		if (!json_is_string(v = json_object_get(j, "name")))
			continue;
		p = site_partition_add(s, json_string_value(v));
		if ((v = rest_get(j, "maximums/time")) != NULL) {
			/* v0.0.39 on */
			p->max_time = rest_num(v);
			p->max_nodes = rest_num(rest_get(j, "maximums/nodes"));
			p->nodes = rest_num(rest_get(j, "nodes/total"));
			v = rest_get(j, "nodes/configured");
		} else {
			/* v0.0.36 to v0.0.38: "flags": ["default"] */
			p->max_time = rest_num(json_object_get(j,
			    "max_time_limit"));
			p->max_nodes = rest_num(json_object_get(j,
			    "maximum_nodes_per_job"));
			p->nodes = rest_num(json_object_get(j, "total_nodes"));
			flags = json_object_get(j, "flags");
			s->default_known = true;
			p->is_default = false;
			json_array_foreach(flags, k, v)
				if (json_is_string(v) && strcasecmp(
				    json_string_value(v), "default") == 0)
					p->is_default = true;
			v = json_object_get(j, "nodes");
		}
		free(p->hostlist);
		p->hostlist = json_is_string(v) ?
		    xstrdup(json_string_value(v)) : NULL;
	}
	return NULL;
}

struct error *
siteinfo_rest_nodes(struct site *s, const json_t *body)
{
	static const char *const keys[] = { "nodes", NULL };
	struct error	*err;
	const json_t	*list, *name, *gres, *parts;
	char		**fl, **pl;
	json_t		*j;
	size_t		 i;

	if ((err = rest_array(body, keys, "slurmrestd nodes", &list)))
		return err;
	json_array_foreach(list, i, j) {
		if (!json_is_string(name = json_object_get(j, "name")))
			continue;
		gres = json_object_get(j, "gres");
		fl = rest_list(json_object_get(j, "features"));
		/* v0.0.36 has no "partitions": its partitions' hostlists
		 * say. */
		parts = json_object_get(j, "partitions");
		pl = parts != NULL ? rest_list(parts) : NULL;
		if (parts == NULL || pl != NULL)
			siteinfo_add_node(s, json_string_value(name),
			    json_is_string(gres) ? json_string_value(gres) :
			    NULL, fl, parts != NULL ? pl : NULL);
		freev(fl);
		freev(pl);
	}
	return NULL;
}

/* The node count of a TRES list [{"type": "node", "count": N}]. */
static int64_t
rest_tres_nodes(const json_t *list)
{
	json_t	*t;
	size_t	 i;

	json_array_foreach(list, i, t)
		if (json_is_string(json_object_get(t, "type")) &&
		    strcmp(json_string_value(json_object_get(t, "type")),
		    "node") == 0)
			return rest_num(json_object_get(t, "count"));
	return -1;
}

struct error *
siteinfo_rest_qos(struct site *s, const json_t *body)
{
	static const char *const keys[] = { "qos", "QOS", NULL };
	struct site_qos	*q;
	struct error	*err;
	const json_t	*list, *name, *max;
	json_t		*j;
	size_t		 i;

	if ((err = rest_array(body, keys, "slurmrestd qos", &list)))
		return err;
	s->qos_known = true;
	json_array_foreach(list, i, j) {
		if (!json_is_string(name = json_object_get(j, "name")))
			continue;
		q = site_qos_add(s, json_string_value(name));
		max = rest_get(j, "limits/max");
		q->max_wall = rest_num(rest_get(max, "wall_clock/per/job"));
		q->max_nodes = rest_tres_nodes(rest_get(max, "tres/per/job"));
		q->max_nodes_user = rest_tres_nodes(rest_get(max,
		    "tres/per/user"));
	}
	return NULL;
}

/* A QoS of an association: its name, or (v0.0.36) its id in QOS's
 * list. */
static const char *
qos_name(const json_t *qos_list, const json_t *v)
{
	const char	*s;
	json_t		*q;
	size_t		 i;

	if (!json_is_string(v))
		return NULL;
	s = json_string_value(v);
	if (*s == '\0' || strspn(s, "0123456789") != strlen(s))
		return s;
	json_array_foreach(qos_list, i, q)
		if (json_is_integer(json_object_get(q, "id")) &&
		    json_integer_value(json_object_get(q, "id")) ==
		    strtoll(s, NULL, 10) &&
		    json_is_string(json_object_get(q, "name")))
			return json_string_value(json_object_get(q, "name"));
	return s;
}

struct error *
siteinfo_rest_assoc(struct site *s, const json_t *body,
    const json_t *qos_body, const char *user)
{
	static const char *const keys[] = { "associations", NULL };
	static const char *const qkeys[] = { "qos", "QOS", NULL };
	struct site_assoc	*a;
	struct error		*err;
	const json_t		*list, *qlist = NULL, *acct, *u, *part;
	const char		*qn;
	json_t			*j, *v;
	size_t			 i, k;

	if ((err = rest_array(body, keys, "slurmrestd associations", &list)))
		return err;
	/* Without the QoS list, ids stay ids. */
	if (qos_body != NULL)
		error_free(rest_array(qos_body, qkeys, "", &qlist));
	s->assoc_known = true;
	json_array_foreach(list, i, j) {
		acct = json_object_get(j, "account");
		u = json_object_get(j, "user");
		if (!json_is_string(acct) || !json_is_string(u) ||
		    strcmp(json_string_value(u), user) != 0)
			continue;
		part = json_object_get(j, "partition");
		a = site_assoc_add(s, json_string_value(acct),
		    json_is_string(part) && *json_string_value(part) != '\0' ?
		    json_string_value(part) : NULL);
		json_array_foreach(json_object_get(j, "qos"), k, v)
			if ((qn = qos_name(qlist, v)) != NULL)
				site_list_add(&a->qos, qn);
	}
	return NULL;
}
