/*
 * sbatch-options.c: sbatch's long options by release; see the .h.
 *
 * Made from src/common/slurm_opt.c of each release: the rows of
 * common_options[] with a name and set_func or set_func_sbatch, the two
 * slurm_option_table_create() gives sbatch's getopt_long(); their
 * has_arg in the newest release that has them.  Tags read:
 * slurm-22-05-8-1, slurm-23-02-8-1, slurm-23-11-11-1, slurm-24-05-8-1,
 * slurm-24-11-7-1, slurm-25-05-8-1, slurm-25-11-7-1 (bit 0 to bit 6 of
 * a row's releases, in that order).  --export-file is missing from
 * 23.11 only.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "sbatch-options.h"
#include "suggest.h"

static const int releases[] = { 2205, 2302, 2311, 2405, 2411, 2505, 2511 };
#define NRELEASES	(sizeof releases / sizeof releases[0])
#define ALL		((1 << NRELEASES) - 1)

const struct sbatch_option sbatch_options[] = {
	{ "account", SA_REQUIRED, ALL },
	{ "acctg-freq", SA_REQUIRED, ALL },
	{ "array", SA_REQUIRED, ALL },
	{ "autocomplete", SA_REQUIRED, 0x7e },
	{ "batch", SA_REQUIRED, ALL },
	{ "bb", SA_REQUIRED, ALL },
	{ "bbf", SA_REQUIRED, ALL },
	{ "begin", SA_REQUIRED, ALL },
	{ "chdir", SA_REQUIRED, ALL },
	{ "cluster", SA_REQUIRED, ALL },
	{ "cluster-constraint", SA_REQUIRED, ALL },
	{ "clusters", SA_REQUIRED, ALL },
	{ "comment", SA_REQUIRED, ALL },
	{ "consolidate-segments", SA_NONE, 0x40 },
	{ "constraint", SA_REQUIRED, ALL },
	{ "container", SA_REQUIRED, ALL },
	{ "container-id", SA_REQUIRED, 0x7e },
	{ "context", SA_REQUIRED, ALL },
	{ "contiguous", SA_NONE, ALL },
	{ "core-spec", SA_REQUIRED, ALL },
	{ "cores-per-socket", SA_REQUIRED, ALL },
	{ "cpu-freq", SA_REQUIRED, ALL },
	{ "cpus-per-gpu", SA_REQUIRED, ALL },
	{ "cpus-per-task", SA_REQUIRED, ALL },
	{ "deadline", SA_REQUIRED, ALL },
	{ "delay-boot", SA_REQUIRED, ALL },
	{ "dependency", SA_REQUIRED, ALL },
	{ "distribution", SA_REQUIRED, ALL },
	{ "error", SA_REQUIRED, ALL },
	{ "exclude", SA_REQUIRED, ALL },
	{ "exclusive", SA_OPTIONAL, ALL },
	{ "export", SA_REQUIRED, ALL },
	{ "export-file", SA_REQUIRED, 0x7b },
	{ "external", SA_NONE, 0x60 },
	{ "extra", SA_REQUIRED, 0x7e },
	{ "extra-node-info", SA_REQUIRED, ALL },
	{ "get-user-env", SA_NONE, ALL }, /* before: optional */
	{ "gid", SA_REQUIRED, ALL },
	{ "gpu-bind", SA_REQUIRED, ALL },
	{ "gpu-freq", SA_REQUIRED, ALL },
	{ "gpus", SA_REQUIRED, ALL },
	{ "gpus-per-node", SA_REQUIRED, ALL },
	{ "gpus-per-socket", SA_REQUIRED, ALL },
	{ "gpus-per-task", SA_REQUIRED, ALL },
	{ "gres", SA_REQUIRED, ALL },
	{ "gres-flags", SA_REQUIRED, ALL },
	{ "help", SA_NONE, ALL },
	{ "hint", SA_REQUIRED, ALL },
	{ "hold", SA_NONE, ALL },
	{ "ignore-pbs", SA_NONE, ALL },
	{ "input", SA_REQUIRED, ALL },
	{ "job-name", SA_REQUIRED, ALL },
	{ "kill-on-invalid-dep", SA_REQUIRED, ALL },
	{ "licenses", SA_REQUIRED, ALL },
	{ "mail-type", SA_REQUIRED, ALL },
	{ "mail-user", SA_REQUIRED, ALL },
	{ "mcs-label", SA_REQUIRED, ALL },
	{ "mem", SA_REQUIRED, ALL },
	{ "mem-bind", SA_REQUIRED, ALL },
	{ "mem-per-cpu", SA_REQUIRED, ALL },
	{ "mem-per-gpu", SA_REQUIRED, ALL },
	{ "mincpus", SA_REQUIRED, ALL },
	{ "network", SA_REQUIRED, ALL },
	{ "nice", SA_OPTIONAL, ALL },
	{ "no-kill", SA_OPTIONAL, ALL },
	{ "no-requeue", SA_NONE, ALL },
	{ "nodefile", SA_REQUIRED, ALL },
	{ "nodelist", SA_REQUIRED, ALL },
	{ "nodes", SA_REQUIRED, ALL },
	{ "ntasks", SA_REQUIRED, ALL },
	{ "ntasks-per-core", SA_REQUIRED, ALL },
	{ "ntasks-per-gpu", SA_REQUIRED, ALL },
	{ "ntasks-per-node", SA_REQUIRED, ALL },
	{ "ntasks-per-socket", SA_REQUIRED, ALL },
	{ "ntasks-per-tres", SA_REQUIRED, ALL },
	{ "oom-kill-step", SA_OPTIONAL, 0x70 },
	{ "open-mode", SA_REQUIRED, ALL },
	{ "output", SA_REQUIRED, ALL },
	{ "overcommit", SA_NONE, ALL },
	{ "oversubscribe", SA_NONE, ALL },
	{ "parsable", SA_NONE, ALL },
	{ "partition", SA_REQUIRED, ALL },
	{ "power", SA_REQUIRED, 0x07 },
	{ "prefer", SA_REQUIRED, ALL },
	{ "priority", SA_REQUIRED, ALL },
	{ "profile", SA_REQUIRED, ALL },
	{ "propagate", SA_OPTIONAL, ALL },
	{ "qos", SA_REQUIRED, ALL },
	{ "quiet", SA_NONE, ALL },
	{ "reboot", SA_NONE, ALL },
	{ "requeue", SA_OPTIONAL, ALL }, /* before: no */
	{ "reservation", SA_REQUIRED, ALL },
	{ "resources", SA_REQUIRED, 0x40 },
	{ "resv-ports", SA_OPTIONAL, 0x78 },
	{ "segment", SA_REQUIRED, 0x78 },
	{ "signal", SA_REQUIRED, ALL },
	{ "sockets-per-node", SA_REQUIRED, ALL },
	{ "spread-job", SA_NONE, ALL },
	{ "spread-segments", SA_NONE, 0x40 },
	{ "stepmgr", SA_NONE, 0x78 },
	{ "switches", SA_REQUIRED, ALL },
	{ "tasks-per-node", SA_REQUIRED, ALL },
	{ "test-only", SA_NONE, ALL },
	{ "thread-spec", SA_REQUIRED, ALL },
	{ "threads-per-core", SA_REQUIRED, ALL },
	{ "time", SA_REQUIRED, ALL },
	{ "time-min", SA_REQUIRED, ALL },
	{ "tmp", SA_REQUIRED, ALL },
	{ "tres-bind", SA_REQUIRED, 0x7c },
	{ "tres-per-task", SA_REQUIRED, 0x7e },
	{ "uid", SA_REQUIRED, ALL },
	{ "usage", SA_NONE, ALL },
	{ "use-min-nodes", SA_NONE, ALL },
	{ "verbose", SA_NONE, ALL },
	{ "version", SA_NONE, ALL },
	{ "wait", SA_NONE, ALL },
	{ "wait-all-nodes", SA_REQUIRED, ALL },
	{ "wckey", SA_REQUIRED, ALL },
	{ "wrap", SA_REQUIRED, ALL },
};
const size_t sbatch_noptions = sizeof sbatch_options /
    sizeof sbatch_options[0];

const struct sbatch_option *
sbatch_option_find(const char *name, size_t len)
{
	size_t	 i;

	for (i = 0; i < sbatch_noptions; i++)
		if (strlen(sbatch_options[i].name) == len &&
		    strncmp(sbatch_options[i].name, name, len) == 0)
			return &sbatch_options[i];
	return NULL;
}

const char *
sbatch_option_suggest(const char *name)
{
	const char	*names[sizeof sbatch_options / sizeof sbatch_options[0]];
	size_t		 i;

	for (i = 0; i < sbatch_noptions; i++)
		names[i] = sbatch_options[i].name;
	return suggest(name, names, sbatch_noptions);
}

/* The bit of release REL (2205, ...; 0: the newest): the newest listed
 * release at or before it, as a release takes its predecessor's list. */
static int
release_bit(int rel)
{
	size_t	 i;

	if (rel == 0)
		return 1 << (NRELEASES - 1);
	for (i = NRELEASES; i > 1; i--)
		if (releases[i - 1] <= rel)
			break;
	return 1 << (i - 1);
}

bool
sbatch_option_in(const struct sbatch_option *o, int rel)
{
	return (o->releases & release_bit(rel)) != 0;
}

int
sbatch_option_since(const struct sbatch_option *o, int rel)
{
	size_t	 i;

	for (i = 0; i < NRELEASES; i++)
		if (releases[i] > rel && (o->releases & (1 << i)))
			return releases[i];
	return 0;
}
