/*
 * site.h: what "mbsbatch site" learnt of a cluster (mbsbatch-site(1)):
 * its partitions, its QoS and the user's associations, kept in the
 * cluster's profile under "site" (mbsbatch.conf(5)); and the check of a
 * job against it, before anything is queued.
 *
 * Numbers are -1 where Slurm sets no limit or did not say: a limit that
 * is not known is not checked.  A list that was not asked (no
 * accounting: no QoS, no associations) is marked not known, and what
 * depends on it is not checked either.
 */
#ifndef MBSBATCH_SITE_H
#define MBSBATCH_SITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct error;
struct jsondoc;

struct site_partition {
	char		*name;
	bool		 is_default;	/* Default=YES */
	int64_t		 max_time;	/* MaxTime, minutes; -1: none */
	int64_t		 max_nodes;	/* MaxNodes; -1: none */
	int64_t		 nodes;		/* TotalNodes; -1: not known */
	int64_t		 gpus_per_node;	/* fewest GPUs of its nodes; -1:
					   not known, 0: none */
	char		**gres;		/* its nodes' GRES, each once:
					   "gpu:h100:8"; NULL-terminated */
	char		**features;	/* its nodes' features, each once */
	char		*hostlist;	/* Nodes=, while it is read; not
					   kept in the profile */
};

struct site_qos {
	char		*name;
	int64_t		 max_wall;	/* MaxWall, minutes; -1: none */
	int64_t		 max_nodes;	/* MaxTRESPerJob node=; -1: none */
	int64_t		 max_nodes_user; /* MaxTRESPerUser node=; -1 */
};

/* One association of the user: ACCOUNT (in PARTITION, or any) may use
 * these QoS. */
struct site_assoc {
	char		*account;
	char		*partition;	/* NULL: every partition */
	char		**qos;		/* NULL-terminated */
};

struct site {
	char			*written;	/* YYYY-MM-DD */
	char			*via;		/* the back end asked */
	char			*user;		/* whose associations */
	struct site_partition	*parts;
	size_t			 nparts;
	bool			 default_known;	/* the API says which */
	char			*no_accounting;	/* why QoS and associations
						   are not known, or NULL;
						   not kept in the profile */
	bool			 qos_known;
	struct site_qos		*qos;
	size_t			 nqos;
	bool			 assoc_known;
	struct site_assoc	*assocs;
	size_t			 nassocs;
};

void		 site_init(struct site *);
void		 site_release(struct site *);

/* The partition, QoS or association called NAME; added when not there
 * (the _add forms), new ones zeroed but for their -1 numbers. */
struct site_partition *site_partition_find(const struct site *,
		    const char *);
struct site_partition *site_partition_add(struct site *, const char *);
struct site_qos	*site_qos_find(const struct site *, const char *);
struct site_qos	*site_qos_add(struct site *, const char *);
struct site_assoc *site_assoc_add(struct site *, const char *,
		    const char *);

/* Add S to the NULL-terminated list *L unless there; the list is new
 * when *L is NULL. */
void		 site_list_add(char ***, const char *);
size_t		 site_list_len(char *const *);
bool		 site_list_has(char *const *, const char *);

/*
 * GRES as Slurm writes it ("gpu:8", "gpu:h100:4(S:0-1),gpu:a100:4"): the
 * GPUs it counts (-1 when it names none), and each GPU type it names
 * added to *TYPES (may be NULL).
 */
int64_t		 site_gres_gpus(const char *, char ***);

/* The profile's "site" object (a new reference) for S. */
json_t		*site_to_json(const struct site *);

/* Read the object J at PATH of DOC (a profile's "site") into S, strictly:
 * an unknown key is an EXIT_USAGE error naming it. */
struct error	*site_from_json(struct site *, const struct jsondoc *,
		    const json_t *, const char **);

/* What a job asks of the site. */
struct site_job {
	const char	*partition;	/* NULL: the default */
	int64_t		 time;		/* minutes; -1: none given;
					   INT64_MAX: UNLIMITED */
	int64_t		 nodes;
	int64_t		 gpus_per_node;	/* 0: none */
	const char	*gpu_type;	/* the GRES type asked; NULL: none */
	const char	*qos;		/* NULL: none given */
	const char	*account;	/* NULL: none given */
};

/*
 * Call ADD(ARG, MESSAGE) once per limit of S that JOB breaks, MESSAGE
 * naming the limit and ending with where it comes from: "(site profile
 * of cluster CLUSTER, written DATE)".  Returns how many.
 */
int		 site_check(const struct site *, const char *,
		    const struct site_job *,
		    void (*)(void *, const char *), void *);

/* MINUTES as Slurm writes a time: "04:00:00", "1-00:00:00", or
 * "UNLIMITED" for INT64_MAX, into BUF. */
void		 site_time_text(int64_t, char *, size_t);

#endif
