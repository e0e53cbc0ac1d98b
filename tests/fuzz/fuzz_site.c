/*
 * fuzz_site.c: what mbsbatch site reads of a cluster (siteinfo.h): the
 * first byte picks the reader (scontrol's partitions and nodes,
 * sacctmgr's QoS and associations, slurmrestd's four answers); the site
 * read, over a fixed partition with a hostlist, is then checked against
 * a job and written as the profile's JSON and read back.
 */
#include <jansson.h>

#include "error.h"
#include "fuzz.h"
#include "jsondoc.h"
#include "site.h"
#include "siteinfo.h"
#include "xmalloc.h"

static void
drop(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static struct error *
read_json(struct site *s, int which, const char *text)
{
	struct error	*err;
	json_t		*j = json_loads(text, 0, NULL);

	if (j == NULL)
		return NULL;
	switch (which) {
	case 0:
		err = siteinfo_rest_partitions(s, j);
		break;
	case 1:
		err = siteinfo_rest_nodes(s, j);
		break;
	case 2:
		err = siteinfo_rest_qos(s, j);
		break;
	default:
		err = siteinfo_rest_assoc(s, j, j, "root");
		break;
	}
	json_decref(j);
	return err;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct site_job	 job = { NULL, 30, 3, 8, "h100", "normal", "root" };
	struct site	 s, back;
	struct jsondoc	 doc;
	struct error	*err = NULL;
	json_t		*out;
	char		*text, *dumped;

	if (size == 0)
		return 0;
	text = fuzz_string(data + 1, size - 1);
	site_init(&s);
	(void)siteinfo_scontrol_partitions(&s,
	    "PartitionName=p Default=YES MaxTime=10 Nodes=n[01-08],m TotalNodes=9");
	switch (data[0] & 7) {
	case 0:
		err = siteinfo_scontrol_partitions(&s, text);
		break;
	case 1:
		err = siteinfo_scontrol_nodes(&s, text);
		break;
	case 2:
		err = siteinfo_sacctmgr_qos(&s, text);
		break;
	case 3:
		err = siteinfo_sacctmgr_assoc(&s, text);
		break;
	default:
		err = read_json(&s, (data[0] & 7) - 4, text);
		break;
	}
	error_free(err);
	(void)siteinfo_hostlist_has(text, "n05");
	(void)site_check(&s, "c", &job, drop, NULL);
	out = site_to_json(&s);
	dumped = json_dumps(out, 0);
	if (dumped != NULL && jsondoc_load_string(&doc, dumped, "site") ==
	    NULL) {
		site_init(&back);
		error_free(site_from_json(&back, &doc, doc.root, NULL));
		site_release(&back);
		jsondoc_release(&doc);
	}
	free(dumped);
	json_decref(out);
	site_release(&s);
	free(text);
	return 0;
}
