/*
 * check_siteinfo.c: what "mbsbatch site" reads of a cluster (siteinfo.h,
 * rest-site.c) from answers recorded on the test cluster (22.05: REST
 * v0.0.36-38; 24.11: v0.0.40, without accounting; 25.11: v0.0.41-44; scontrol and sacctmgr of both, with a
 * partition "short" of MaxTime 10 and MaxNodes 2, a QoS short30 of
 * MaxWall 30 and MaxTRESPerJob node=2, root's accounts root and
 * research: tests/data/site/), and the site profile's own parts
 * (site.h): GRES, hostlists, JSON both ways, the job checks.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "error.h"
#include "jsondoc.h"
#include "site.h"
#include "siteinfo.h"
#include "xmalloc.h"
#include "run.h"

#ifndef TEST_DATA
#error "TEST_DATA must name tests/data"
#endif

static char *
slurp(const char *name)
{
	char	 path[512], *text;
	FILE	*f;
	long	 n;

	snprintf(path, sizeof path, "%s/site/%s", TEST_DATA, name);
	ck_assert_msg((f = fopen(path, "rb")) != NULL, "%s: missing", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = xmalloc((size_t)n + 1);
	ck_assert_int_eq(fread(text, 1, (size_t)n, f), (size_t)n);
	text[n] = '\0';
	fclose(f);
	return text;
}

static json_t *
load(const char *name)
{
	char		*text = slurp(name);
	json_t		*j = json_loads(text, 0, NULL);

	ck_assert_msg(j != NULL, "%s: not JSON", name);
	free(text);
	return j;
}

/* The test cluster's partitions, whoever asked. */
static void
check_partitions(const struct site *s, bool default_known, const char *who)
{
	static const struct {
		const char	*name;
		int64_t		 max_time, max_nodes, nodes;
	} want[] = {
		{ "local", -1, -1, 4 }, { "gpu", -1, 16, 64 },
		{ "short", 10, 2, 2 },
	};
	const struct site_partition	*p;
	size_t				 i;

	ck_assert_msg(s->nparts == 3, "%s: %zu partitions", who, s->nparts);
	for (i = 0; i < 3; i++) {
		p = site_partition_find(s, want[i].name);
		ck_assert_msg(p != NULL, "%s: no %s", who, want[i].name);
		ck_assert_msg(p->max_time == want[i].max_time, "%s: %s MaxTime "
		    "%lld", who, p->name, (long long)p->max_time);
		ck_assert_msg(p->max_nodes == want[i].max_nodes, "%s: %s "
		    "MaxNodes %lld", who, p->name, (long long)p->max_nodes);
		ck_assert_msg(p->nodes == want[i].nodes, "%s: %s nodes %lld",
		    who, p->name, (long long)p->nodes);
		ck_assert_msg(p->gpus_per_node == 8, "%s: %s GPUs %lld", who,
		    p->name, (long long)p->gpus_per_node);
		ck_assert_msg(site_list_len(p->gres) == 1 &&
		    strcmp(p->gres[0], "gpu:8") == 0, "%s: %s GRES", who,
		    p->name);
		ck_assert_msg(p->is_default == (default_known &&
		    strcmp(p->name, "local") == 0), "%s: %s default", who,
		    p->name);
	}
	ck_assert_msg(s->default_known == default_known, "%s: default", who);
}

/* What the test cluster has, accounting included. */
static void
check_cluster(const struct site *s, bool default_known, const char *who)
{
	const struct site_qos	*q;
	size_t			 i;
	bool			 research = false;

	check_partitions(s, default_known, who);
	ck_assert_msg(s->qos_known && s->nqos == 2, "%s: QoS", who);
	q = site_qos_find(s, "short30");
	ck_assert_msg(q != NULL && q->max_wall == 30 && q->max_nodes == 2 &&
	    q->max_nodes_user == -1, "%s: short30", who);
	q = site_qos_find(s, "normal");
	ck_assert_msg(q != NULL && q->max_wall == -1 && q->max_nodes == -1,
	    "%s: normal", who);
	ck_assert_msg(s->assoc_known && s->nassocs == 2, "%s: %zu assocs",
	    who, s->nassocs);
	for (i = 0; i < s->nassocs; i++)
		if (strcmp(s->assocs[i].account, "research") == 0) {
			research = true;
			ck_assert_msg(site_list_len(s->assocs[i].qos) == 2 &&
			    site_list_has(s->assocs[i].qos, "short30") &&
			    site_list_has(s->assocs[i].qos, "normal"),
			    "%s: research's QoS", who);
		}
	ck_assert_msg(research, "%s: no account research", who);
}

static const struct {
	const char	*release, *version;
	bool		 default_known;
} rest_cases[] = {
	{ "22.05", "v0.0.36", true }, { "22.05", "v0.0.37", true },
	{ "22.05", "v0.0.38", true },
	{ "25.11", "v0.0.41", false }, { "25.11", "v0.0.42", false },
	{ "25.11", "v0.0.43", false }, { "25.11", "v0.0.44", false },
};

START_TEST(test_rest)
{
	struct site	 s;
	json_t		*parts, *nodes, *qos, *assoc;
	char		 name[128];
	const char	*rel = rest_cases[_i].release;
	const char	*v = rest_cases[_i].version;

	snprintf(name, sizeof name, "rest-%s-%s-site-partitions.json", rel, v);
	parts = load(name);
	snprintf(name, sizeof name, "rest-%s-%s-site-nodes.json", rel, v);
	nodes = load(name);
	snprintf(name, sizeof name, "rest-%s-%s-site-qos.json", rel, v);
	qos = load(name);
	snprintf(name, sizeof name, "rest-%s-%s-site-associations.json", rel,
	    v);
	assoc = load(name);
	site_init(&s);
	ck_assert_ptr_null(siteinfo_rest_partitions(&s, parts));
	ck_assert_ptr_null(siteinfo_rest_nodes(&s, nodes));
	ck_assert_ptr_null(siteinfo_rest_qos(&s, qos));
	ck_assert_ptr_null(siteinfo_rest_assoc(&s, assoc, qos, "root"));
	check_cluster(&s, rest_cases[_i].default_known, v);
	site_release(&s);
	/* Another user's associations are not root's. */
	site_init(&s);
	ck_assert_ptr_null(siteinfo_rest_assoc(&s, assoc, qos, "nobody"));
	ck_assert_uint_eq(s.nassocs, 0);
	site_release(&s);
	json_decref(parts);
	json_decref(nodes);
	json_decref(qos);
	json_decref(assoc);
}
END_TEST

/* 24.11's v0.0.40 (no accounting there: partitions and nodes only). */
START_TEST(test_rest_v40)
{
	struct site	 s;
	json_t		*parts, *nodes;

	parts = load("rest-24.11-v0.0.40-site-partitions.json");
	nodes = load("rest-24.11-v0.0.40-site-nodes.json");
	site_init(&s);
	ck_assert_ptr_null(siteinfo_rest_partitions(&s, parts));
	ck_assert_ptr_null(siteinfo_rest_nodes(&s, nodes));
	check_partitions(&s, false, "v0.0.40");
	ck_assert(!s.qos_known && !s.assoc_known);
	site_release(&s);
	json_decref(parts);
	json_decref(nodes);
}
END_TEST

START_TEST(test_rest_not_a_list)
{
	struct site	 s;
	struct error	*err;
	json_t		*j = json_loads("{\"errors\": []}", 0, NULL);

	site_init(&s);
	err = siteinfo_rest_partitions(&s, j);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->msg, "no 'partitions' list") != NULL, "%s",
	    err->msg);
	error_free(err);
	site_release(&s);
	json_decref(j);
}
END_TEST

static const char *const releases[] = { "22.05", "25.11" };

START_TEST(test_clients)
{
	struct site	 s;
	char		 name[128], *text;

	site_init(&s);
	snprintf(name, sizeof name, "scontrol-%s-partitions.txt",
	    releases[_i]);
	text = slurp(name);
	ck_assert_ptr_null(siteinfo_scontrol_partitions(&s, text));
	free(text);
	snprintf(name, sizeof name, "scontrol-%s-nodes.txt", releases[_i]);
	text = slurp(name);
	ck_assert_ptr_null(siteinfo_scontrol_nodes(&s, text));
	free(text);
	snprintf(name, sizeof name, "sacctmgr-%s-qos.txt", releases[_i]);
	text = slurp(name);
	ck_assert_ptr_null(siteinfo_sacctmgr_qos(&s, text));
	free(text);
	snprintf(name, sizeof name, "sacctmgr-%s-assoc.txt", releases[_i]);
	text = slurp(name);
	ck_assert_ptr_null(siteinfo_sacctmgr_assoc(&s, text));
	free(text);
	check_cluster(&s, true, releases[_i]);
	site_release(&s);
}
END_TEST

/* Typed GRES, features, and a node of two partitions. */
START_TEST(test_scontrol_typed)
{
	struct site			 s;
	const struct site_partition	*p;

	site_init(&s);
	ck_assert_ptr_null(siteinfo_scontrol_partitions(&s,
	    "PartitionName=a Default=YES MaxTime=1-00:00:00 MaxNodes=UNLIMITED "
	    "Nodes=n[1-2] TotalNodes=2\n"
	    "PartitionName=b Default=NO MaxTime=4:00:00 MaxNodes=1 Nodes=n2 "
	    "TotalNodes=1\n"));
	ck_assert_ptr_null(siteinfo_scontrol_nodes(&s,
	    "NodeName=n1 Arch=x Gres=gpu:h100:8(S:0-1) "
	    "AvailableFeatures=ib,nvl Partitions=a Reason=a b c\n"
	    "NodeName=n2 Gres=gpu:h100:4(S:0),gpu:a100:4(S:1) "
	    "AvailableFeatures=(null) Partitions=a,b\n"));
	p = site_partition_find(&s, "a");
	ck_assert_int_eq(p->max_time, 24 * 60);
	ck_assert_int_eq(p->max_nodes, -1);
	ck_assert_int_eq(p->gpus_per_node, 8);
	ck_assert_uint_eq(site_list_len(p->gres), 3);
	ck_assert(site_list_has(p->gres, "gpu:h100:8"));
	ck_assert(site_list_has(p->features, "nvl"));
	p = site_partition_find(&s, "b");
	ck_assert_int_eq(p->max_time, 240);
	ck_assert_uint_eq(site_list_len(p->gres), 2);
	ck_assert_uint_eq(site_list_len(p->features), 0);
	site_release(&s);
}
END_TEST

static const struct {
	const char	*gres;
	int64_t		 gpus;
	const char	*types;		/* comma-separated, or "" */
} gres_cases[] = {
	{ "gpu:8", 8, "" },
	{ "gpu:h100:8", 8, "h100" },
	{ "gpu:h100:4(S:0-1),gpu:a100:4(S:0,1)", 8, "h100,a100" },
	{ "gpu", 1, "" },
	{ "gpu:h100", 1, "h100" },
	{ "mps:100", -1, "" },
	{ "mps:100,gpu:2", 2, "" },
	{ "gpus:2", -1, "" },
	{ "gpu:h100:99999999999999999999,gpu:h100:99999999999999999999", 0,
	  "h100" },
	{ "", -1, "" },
};

START_TEST(test_gres)
{
	char	**types = NULL, *joined;
	size_t	 i;
	struct buf b;

	ck_assert_int_eq(site_gres_gpus(gres_cases[_i].gres, &types),
	    gres_cases[_i].gpus);
	buf_init(&b);
	for (i = 0; types != NULL && types[i] != NULL; i++)
		buf_addf(&b, "%s%s", i > 0 ? "," : "", types[i]);
	joined = buf_detach(&b);
	ck_assert_str_eq(joined, gres_cases[_i].types);
	free(joined);
	freev(types);
}
END_TEST

static const struct {
	const char	*expr, *name;
	bool		 has;
} host_cases[] = {
	{ "gpu[001-064]", "gpu001", true },
	{ "gpu[001-064]", "gpu064", true },
	{ "gpu[001-064]", "gpu065", false },
	{ "gpu[001-064]", "gpu1", false },
	{ "mbsnode[0-3]", "mbsnode2", true },
	{ "mbsnode[0-3]", "mbsnode02", false },
	{ "mbsnode[0-3]", "mbsnode", false },
	{ "a,b[1-3,5]", "b5", true },
	{ "a,b[1-3,5]", "b4", false },
	{ "a,b[1-3,5]", "a", true },
	{ "n[1-2]-ib", "n2-ib", true },
	{ "n[1-2]-ib", "n2", false },
	{ "x[1-2],y[3-4]", "y4", true },
};

START_TEST(test_hostlist)
{
	ck_assert_msg(siteinfo_hostlist_has(host_cases[_i].expr,
	    host_cases[_i].name) == host_cases[_i].has, "%s in %s",
	    host_cases[_i].name, host_cases[_i].expr);
}
END_TEST

/* The test cluster, as the scontrol/sacctmgr answers say. */
static void
cluster(struct site *s)
{
	char	*text;

	site_init(s);
	text = slurp("scontrol-22.05-partitions.txt");
	ck_assert_ptr_null(siteinfo_scontrol_partitions(s, text));
	free(text);
	text = slurp("scontrol-22.05-nodes.txt");
	ck_assert_ptr_null(siteinfo_scontrol_nodes(s, text));
	free(text);
	text = slurp("sacctmgr-22.05-qos.txt");
	ck_assert_ptr_null(siteinfo_sacctmgr_qos(s, text));
	free(text);
	text = slurp("sacctmgr-22.05-assoc.txt");
	ck_assert_ptr_null(siteinfo_sacctmgr_assoc(s, text));
	free(text);
	s->user = xstrdup("root");
	s->written = xstrdup("2026-12-07");
}

static void
collect(void *arg, const char *msg)
{
	struct buf	*b = arg;

	buf_addf(b, "%s\n", msg);
}

/* Each limit of the test cluster broken alone: one line naming it. */
static const struct {
	struct site_job	 job;
	const char	*line;		/* NULL: a valid job */
} check_cases[] = {
	{ { "short", 5, 2, 8, NULL, "short30", "research" }, NULL },
	{ { NULL, -1, 4, 8, NULL, NULL, NULL }, NULL },
	{ { "gpu", 60, 16, 8, NULL, NULL, "root" }, NULL },
	{ { "short", 11, 1, 8, NULL, NULL, NULL },
	  "partition short: MaxTime 00:10:00, the job asks 00:11:00" },
	{ { "short", INT64_MAX, 1, 8, NULL, NULL, NULL },
	  "partition short: MaxTime 00:10:00, the job asks UNLIMITED" },
	{ { "gpu", -1, 17, 8, NULL, NULL, NULL },
	  "partition gpu: MaxNodes 16, the job needs 17 nodes" },
	{ { NULL, -1, 5, 8, NULL, NULL, NULL },
	  "partition local: 4 nodes in all, the job needs 5" },
	{ { "local", -1, 1, 16, NULL, NULL, NULL },
	  "partition local: 8 GPUs per node, the job asks 16" },
	{ { "nosuch", -1, 1, 8, NULL, NULL, NULL },
	  "partition 'nosuch': no such partition; the cluster has local, "
	  "gpu, short" },
	{ { "local", -1, 1, 8, "h100", NULL, NULL },
	  "partition local: no GPU of GRES type 'h100' on its nodes (they "
	  "have gpu:8)" },
	{ { "local", -1, 1, 8, NULL, "nosuch", NULL },
	  "QoS 'nosuch': no such QoS; the cluster has normal, short30" },
	{ { "local", 31, 1, 8, NULL, "short30", NULL },
	  "QoS short30: MaxWall 00:30:00, the job asks 00:31:00" },
	{ { "local", -1, 3, 8, NULL, "short30", NULL },
	  "QoS short30: MaxTRESPerJob node=2, the job needs 3 nodes" },
	{ { "local", -1, 1, 8, NULL, "short30", "root" },
	  "QoS 'short30': not allowed to user root under account root "
	  "(allowed: normal)" },
	{ { "local", -1, 1, 8, NULL, NULL, "nosuch" },
	  "account 'nosuch': user root has no association with it in "
	  "partition local (theirs: research, root)" },
};

START_TEST(test_check)
{
	struct site	 s;
	struct buf	 b;
	char		*want;
	int		 n;

	cluster(&s);
	buf_init(&b);
	n = site_check(&s, "c", &check_cases[_i].job, collect, &b);
	if (check_cases[_i].line == NULL) {
		ck_assert_msg(n == 0, "a valid job refused: %s", b.data);
	} else {
		want = xasprintf("%s (site profile of cluster c, written "
		    "2026-12-07)\n", check_cases[_i].line);
		ck_assert_int_eq(n, 1);
		ck_assert_str_eq(b.data, want);
		free(want);
	}
	buf_release(&b);
	site_release(&s);
}
END_TEST

/* Not known is not checked: no QoS list, no default partition. */
START_TEST(test_check_unknown)
{
	struct site	 s;
	struct site_job	 j = { NULL, 1000, 1000, 8, NULL, "any", "any" };
	struct buf	 b;

	cluster(&s);
	s.qos_known = s.assoc_known = false;
	s.default_known = false;
	site_partition_find(&s, "local")->is_default = false;
	buf_init(&b);
	ck_assert_int_eq(site_check(&s, "c", &j, collect, &b), 0);
	buf_release(&b);
	site_release(&s);
}
END_TEST

/* Associations that name no QoS, a user with none: nothing to hold a
 * QoS or an account against (a valid job is never refused on a guess). */
START_TEST(test_check_no_assoc)
{
	struct site	 s;
	struct site_job	 j = { "local", -1, 1, 8, NULL, "short30", "any" };
	struct buf	 b;
	size_t		 i;

	cluster(&s);
	for (i = 0; i < s.nassocs; i++) {
		freev(s.assocs[i].qos);
		s.assocs[i].qos = NULL;
	}
	j.account = NULL;
	buf_init(&b);
	ck_assert_int_eq(site_check(&s, "c", &j, collect, &b), 0);
	site_release(&s);
	cluster(&s);
	s.nassocs = 0;		/* none of root's */
	j.account = "any";
	j.qos = NULL;
	ck_assert_int_eq(site_check(&s, "c", &j, collect, &b), 0);
	buf_release(&b);
	s.nassocs = 2;
	site_release(&s);
}
END_TEST

/* The profile's "site" reads back as written; a typo is refused. */
START_TEST(test_json)
{
	struct site	 s, back;
	struct jsondoc	 doc;
	struct error	*err;
	json_t		*j, *again;
	char		*text;
	const char	*path[] = { "clusters", "c", NULL };

	cluster(&s);
	s.via = xstrdup("sbatch");
	j = site_to_json(&s);
	text = json_dumps(j, 0);
	ck_assert_ptr_null(jsondoc_load_string(&doc, text, "site"));
	site_init(&back);
	ck_assert_ptr_null(site_from_json(&back, &doc, doc.root, path));
	again = site_to_json(&back);
	ck_assert(json_equal(j, again));
	jsondoc_release(&doc);
	free(text);
	json_decref(again);
	site_release(&back);

	json_object_set_new(json_object_get(json_object_get(j, "partitions"),
	    "short"), "max_tme", json_integer(3));
	text = json_dumps(j, 0);
	ck_assert_ptr_null(jsondoc_load_string(&doc, text, "site"));
	site_init(&back);
	err = site_from_json(&back, &doc, doc.root, NULL);
	ck_assert_ptr_nonnull(err);
	ck_assert_msg(strstr(err->msg, "unknown key 'max_tme'") != NULL, "%s",
	    err->msg);
	error_free(err);
	jsondoc_release(&doc);
	free(text);
	site_release(&back);
	json_decref(j);
	site_release(&s);
}
END_TEST

static Suite *
siteinfo_suite(void)
{
	Suite	*s = suite_create("siteinfo");
	TCase	*tc;

	tc = tcase_create("rest");
	tcase_add_loop_test(tc, test_rest, 0,
	    sizeof rest_cases / sizeof rest_cases[0]);
	tcase_add_test(tc, test_rest_v40);
	tcase_add_test(tc, test_rest_not_a_list);
	suite_add_tcase(s, tc);
	tc = tcase_create("clients");
	tcase_add_loop_test(tc, test_clients, 0, 2);
	tcase_add_test(tc, test_scontrol_typed);
	suite_add_tcase(s, tc);
	tc = tcase_create("gres");
	tcase_add_loop_test(tc, test_gres, 0,
	    sizeof gres_cases / sizeof gres_cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("hostlist");
	tcase_add_loop_test(tc, test_hostlist, 0,
	    sizeof host_cases / sizeof host_cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_loop_test(tc, test_check, 0,
	    sizeof check_cases / sizeof check_cases[0]);
	tcase_add_test(tc, test_check_unknown);
	tcase_add_test(tc, test_check_no_assoc);
	suite_add_tcase(s, tc);
	tc = tcase_create("json");
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(siteinfo_suite());
}
