/*
 * siteinfo.h: what the cluster says of its partitions, nodes, QoS and
 * associations, read into a struct site (site.h) from each back end's
 * answers.  Pure: text and JSON in, a site out; tested on answers
 * recorded from every Slurm release the tool speaks (tests/data/rest/,
 * tests/unit/check_siteinfo.c).
 *
 * Read the partitions before the nodes (a node's GRES and features go
 * to the partitions it is in) and the QoS before the associations
 * (REST v0.0.36 names an association's QoS by id).
 */
#ifndef MBSBATCH_SITEINFO_H
#define MBSBATCH_SITEINFO_H

#include <stdbool.h>

#include <jansson.h>

struct error;
struct site;

/* `scontrol show partition -o` and `scontrol show node -o` (one record
 * a line, KEY=VALUE words). */
struct error	*siteinfo_scontrol_partitions(struct site *, const char *);
struct error	*siteinfo_scontrol_nodes(struct site *, const char *);

/* `sacctmgr -nP show qos format=Name,MaxWall,MaxTRES,MaxTRESPU` and
 * `sacctmgr -nP show assoc where user=U format=Account,Partition,QOS`. */
struct error	*siteinfo_sacctmgr_qos(struct site *, const char *);
struct error	*siteinfo_sacctmgr_assoc(struct site *, const char *);

/*
 * slurmrestd's answers (rest-site.c), v0.0.36 to v0.0.44: GET /slurm/vX/partitions,
 * /slurm/vX/nodes, /slurmdb/vX/qos and /slurmdb/vX/associations (the
 * user's only are kept: USER).  From v0.0.39 on the API does not say
 * which partition is the default (data_parser's PARTITION_INFO skips
 * its flags: "add_skip(flags), //FIXME", parsers.c of v0.0.39 to
 * v0.0.44): default_known stays false.
 */
struct error	*siteinfo_rest_partitions(struct site *, const json_t *);
struct error	*siteinfo_rest_nodes(struct site *, const json_t *);
struct error	*siteinfo_rest_qos(struct site *, const json_t *);
struct error	*siteinfo_rest_assoc(struct site *, const json_t *,
		    const json_t *, const char *);

/* Is host NAME in Slurm hostlist EXPR ("gpu[001-064]", "a,b[1-3,5]")? */
bool		 siteinfo_hostlist_has(const char *, const char *);

/* Words of Slurm's lists: is V "no value" ((null), N/A, empty)? Its
 * comma-separated words as a new NULL-terminated list (NULL: none). */
bool		 siteinfo_no_value(const char *);
char		**siteinfo_csv(const char *);

/* One node's GRES, features and partitions, as each reader gives them:
 * added to the partitions it is in (shared by the readers). */
void		 siteinfo_add_node(struct site *, const char *,
		    const char *, char *const *, char *const *);

#endif
