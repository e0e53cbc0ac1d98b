/*
 * check_jobdesc.c: the environment a job is sent with (src/slurm/jobdesc.c),
 * as sbatch of each Slurm release builds it: --export semantics, what
 * sbatch sets in its own environment, what it derives from the options.
 * tests/slurm/parity.sh holds the same against the real sbatch.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "error.h"
#include "jobdesc.h"
#include "sbatch-directives.h"
#include "slurmopt.h"
#include "xmalloc.h"
#include "run.h"

static struct jobdesc		 d, rd;	/* as parsed; as sent to a release */
static char			*rd_tres[2];
static struct jobdesc_host	 host;
static char			**out;
static size_t			 nout;

static char *const base_env[] = {
	"PATH=/bin", "A=0", "B=2", "HOME=/h", "SLURM_CONF=/etc/s.conf",
	"SLURMD_X=1", "_SLURM_SPANK_OPTION_x=y", NULL,
};

static void
setup(void)
{
	memset(&host, 0, sizeof host);
	snprintf(host.submit_dir, sizeof host.submit_dir, "/home/u/run");
	snprintf(host.name, sizeof host.name, "login1");
	snprintf(host.umask, sizeof host.umask, "0022");
	host.prio = 0;
	host.prio_known = true;
	host.rlimits[0].name = "CPU";
	host.rlimits[0].cur = 18446744073709551615UL;
	host.rlimits[0].known = true;
	host.rlimits[1].name = "NOFILE";
	host.rlimits[1].cur = 1024;
	host.rlimits[1].known = true;
	jobdesc_init(&d);
	out = NULL;
	rd_tres[0] = rd_tres[1] = NULL;
}

static void
teardown(void)
{
	jobdesc_release(&d);
	freev(out);
	free(rd_tres[0]);
	free(rd_tres[1]);
}

/* RD: D as the back ends send it to RELEASE (jobdesc_for_release()). */
static void
for_release(int release)
{
	free(rd_tres[0]);
	free(rd_tres[1]);
	jobdesc_for_release(&rd, &d, NULL, release, rd_tres);
}

/* The environment of SCRIPT's #SBATCH lines sent to RELEASE, from ENV,
 * the job as sent in RD. */
static void
env_of(const char *script, int release, char *const *env)
{
	struct jobdesc_context	 jc;
	struct error		*err;

	jobdesc_release(&d);
	jobdesc_init(&d);
	err = sbatch_directives_parse("t.sbatch", script, 0, &d);
	if (err != NULL)
		ck_abort_msg("parse: %s", err->msg);
	memset(&jc, 0, sizeof jc);
	jc.environ = env;
	jc.host = &host;
	jc.release = release;
	for_release(release);
	freev(out);
	out = jobdesc_env(&rd, &jc, &nout);
}

/* The value of NAME, or NULL. */
static const char *
get(const char *name)
{
	size_t	 len = strlen(name), i;

	for (i = 0; i < nout; i++)
		if (strncmp(out[i], name, len) == 0 && out[i][len] == '=')
			return out[i] + len + 1;
	return NULL;
}

#define has(name, value) do {						\
	const char *v_ = get(name);					\
	ck_assert_msg(v_ != NULL, "%s missing", name);			\
	ck_assert_str_eq(v_, value);					\
} while (0)
#define lacks(name) ck_assert_msg(get(name) == NULL, "%s=%s is there",	\
	name, get(name))

static const char *const gpu_job = "#!/bin/sh\n#SBATCH --nodes=2\n"
    "#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
    "#SBATCH -J train\n";

/* 23.02 on: SLURM_NTASKS_PER_NODE alone tells the batch step the tasks. */
START_TEST(test_tasks_2511)
{
	env_of(gpu_job, 2511, base_env);
	has("SLURM_NTASKS_PER_NODE", "8");
	has("SLURM_GPUS_PER_NODE", "8");
	lacks("SLURM_NTASKS");
	lacks("SLURM_NPROCS");
	/* Not exported by sbatch since 24.11 (slurmd sets it). */
	lacks("SLURM_JOB_NAME");
	has("PATH", "/bin");
	has("A", "0");
	lacks("SLURM_GET_USER_ENV");
	lacks("SLURM_EXPORT_ENV");
	/* What sbatch reads off the process. */
	has("SLURM_SUBMIT_DIR", "/home/u/run");
	has("SLURM_SUBMIT_HOST", "login1");
	has("SLURM_UMASK", "0022");
	has("SLURM_PRIO_PROCESS", "0");
	has("SLURM_RLIMIT_CPU", "18446744073709551615");
	has("SLURM_RLIMIT_NOFILE", "1024");
	/* 23.11 on: an mpirun in the job lets srun start its daemons. */
	has("OMPI_MCA_plm_slurm_args", "--external-launcher");
	has("PRTE_MCA_plm_slurm_args", "--external-launcher");
	has("HYDRA_BOOTSTRAP", "slurm");
	has("HYDRA_LAUNCHER_EXTRA_ARGS", "--external-launcher");
	has("I_MPI_HYDRA_BOOTSTRAP", "slurm");
	has("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", "--external-launcher");
}
END_TEST

/* 22.05: --ntasks-per-node on fixed nodes sets --ntasks too. */
START_TEST(test_tasks_2205)
{
	env_of(gpu_job, 2205, base_env);
	has("SLURM_NTASKS_PER_NODE", "8");
	has("SLURM_NTASKS", "16");
	has("SLURM_NPROCS", "16");
	has("SLURM_JOB_NAME", "train");
	lacks("OMPI_MCA_plm_slurm_args");
	lacks("HYDRA_BOOTSTRAP");
	/* Not on a node range. */
	env_of("#!/bin/sh\n#SBATCH -N 1-2 --ntasks-per-node=8\n", 2205,
	    base_env);
	lacks("SLURM_NTASKS");
	/* Without --nodes, one node: sbatch's min_nodes 1, max_nodes 0
	 * (opt.c:768, "max_nodes == 0"). */
	env_of("#!/bin/sh\n#SBATCH --ntasks-per-node=2\n", 2205, base_env);
	has("SLURM_NTASKS", "2");
	has("SLURM_NPROCS", "2");
	ck_assert_int_eq(rd.ntasks, 2);
	env_of("#!/bin/sh\n#SBATCH --ntasks-per-node=2\n", 2302, base_env);
	lacks("SLURM_NTASKS");
	ck_assert_int_eq(rd.ntasks, 0);
	/* 0 (newest) is 25.11's. */
	env_of(gpu_job, 0, base_env);
	lacks("SLURM_NTASKS");
	lacks("SLURM_JOB_NAME");
}
END_TEST

START_TEST(test_explicit_ntasks)
{
	env_of("#!/bin/sh\n#SBATCH -n 4 -c 2\n", 2411, base_env);
	has("SLURM_NTASKS", "4");
	has("SLURM_NPROCS", "4");
	has("SLURM_CPUS_PER_TASK", "2");
	has("SLURM_TRES_PER_TASK", "cpu=2");
	lacks("SLURM_NTASKS_PER_NODE");
	env_of("#!/bin/sh\n#SBATCH -n 4 -c 2\n", 2205, base_env);
	has("SLURM_CPUS_PER_TASK", "2");
	lacks("SLURM_TRES_PER_TASK");
}
END_TEST

START_TEST(test_gpus)
{
	/* --gres asks the same GPUs but sbatch sets no SLURM_GPUS_*. */
	env_of("#!/bin/sh\n#SBATCH -N 1 --gres=gpu:8\n", 2511, base_env);
	lacks("SLURM_GPUS_PER_NODE");
	env_of("#!/bin/sh\n#SBATCH -n 8 --gpus-per-task=1\n", 2205,
	    base_env);
	has("SLURM_GPUS_PER_TASK", "1");
	lacks("SLURM_TRES_PER_TASK");
	env_of("#!/bin/sh\n#SBATCH -n 8 --gpus-per-task=1\n", 2411,
	    base_env);
	lacks("SLURM_GPUS_PER_TASK");
	has("SLURM_TRES_PER_TASK", "gres/gpu=1");
	has("SLURM_TRES_BIND", "gres/gpu:per_task:1");
	env_of("#!/bin/sh\n#SBATCH -n 8 -c 2 --gpus-per-task=1\n", 2511,
	    base_env);
	has("SLURM_TRES_PER_TASK", "cpu=2,gres/gpu=1");
}
END_TEST

START_TEST(test_export_list)
{
	env_of("#!/bin/sh\n#SBATCH --export=NONE,A=1,B,C\n", 2511,
	    base_env);
	has("A", "1");
	has("B", "2");
	lacks("C");
	lacks("PATH");
	lacks("HOME");
	/* env_array_merge_slurm_spank: SLURM* and spank options. */
	has("SLURM_CONF", "/etc/s.conf");
	has("SLURMD_X", "1");
	has("_SLURM_SPANK_OPTION_x", "y");
	has("SLURM_GET_USER_ENV", "1");
	has("SLURM_EXPORT_ENV", "NONE,A=1,B,C");
	/* What sbatch set in its own environment is SLURM_* too. */
	has("SLURM_SUBMIT_DIR", "/home/u/run");

	/* A list with ALL is a list: the login environment is loaded. */
	env_of("#!/bin/sh\n#SBATCH --export=ALL,A=9\n", 2511, base_env);
	has("A", "9");
	has("PATH", "/bin");
	has("SLURM_GET_USER_ENV", "1");
	has("SLURM_EXPORT_ENV", "ALL,A=9");

	/* Exactly ALL (any case) is the default. */
	env_of("#!/bin/sh\n#SBATCH --export=ALL\n", 2511, base_env);
	lacks("SLURM_GET_USER_ENV");
	lacks("SLURM_EXPORT_ENV");
}
END_TEST

/* What the caller's environment already says wins where sbatch lets it. */
START_TEST(test_kept)
{
	char *const	 env[] = { "SLURM_UMASK=0077", "HYDRA_BOOTSTRAP=ssh",
	    "I_MPI_HYDRA_BOOTSTRAP=slurm", "SLURM_STEPMGR=n1",
	    "OMPI_MCA_plm_slurm_args=--mine", "SLURM_EXPORT_ENV=X", NULL };

	env_of("#!/bin/sh\n#SBATCH --export=NONE\n", 2511, env);
	has("SLURM_UMASK", "0077");
	has("SLURM_EXPORT_ENV", "X");
	lacks("SLURM_STEPMGR");
	env_of("#!/bin/sh\n", 2511, env);
	has("HYDRA_BOOTSTRAP", "ssh");
	lacks("HYDRA_LAUNCHER_EXTRA_ARGS");
	has("I_MPI_HYDRA_BOOTSTRAP", "slurm");
	has("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", "--external-launcher");
	has("OMPI_MCA_plm_slurm_args", "--mine");
	/* Before 24.05 there is no stepmgr to drop. */
	env_of("#!/bin/sh\n", 2311, env);
	has("SLURM_STEPMGR", "n1");
}
END_TEST

START_TEST(test_open_mode_dependency)
{
	env_of("#!/bin/sh\n#SBATCH --open-mode=append -d afterok:7\n", 2205,
	    base_env);
	has("SLURM_OPEN_MODE", "a");
	has("SLURM_JOB_DEPENDENCY", "afterok:7");
	env_of("#!/bin/sh\n#SBATCH --open-mode=truncate -d afterok:7\n",
	    2411, base_env);
	lacks("SLURM_OPEN_MODE");
	has("SLURM_JOB_DEPENDENCY", "afterok:7");
}
END_TEST

/*
 * What sbatch puts in the environment for the carried options:
 * SLURM_CONTAINER (22.05 to 25.11, unless already set) and, before
 * 24.11, SLURM_ACCTG_FREQ (src/sbatch/opt.c, _opt_verify()); also
 * under --export=NONE, being SLURM_*.
 */
START_TEST(test_carried_env)
{
	char *const	 env[] = { "SLURM_CONTAINER=/mine", NULL };

	env_of("#!/bin/sh\n#SBATCH --container=/b --acctg-freq=task=30\n",
	    2205, base_env);
	has("SLURM_CONTAINER", "/b");
	has("SLURM_ACCTG_FREQ", "task=30");
	env_of("#!/bin/sh\n#SBATCH --container=/b --acctg-freq=task=30\n"
	    "#SBATCH --export=NONE\n", 2405, base_env);
	has("SLURM_CONTAINER", "/b");
	has("SLURM_ACCTG_FREQ", "task=30");
	env_of("#!/bin/sh\n#SBATCH --container=/b --acctg-freq=task=30\n",
	    2411, base_env);
	has("SLURM_CONTAINER", "/b");
	lacks("SLURM_ACCTG_FREQ");
	env_of("#!/bin/sh\n#SBATCH --container=/b\n", 2511, env);
	has("SLURM_CONTAINER", "/mine");
	env_of("#!/bin/sh\n#SBATCH --nice=5 -L mbslic\n", 2205, base_env);
	lacks("SLURM_CONTAINER");
	lacks("SLURM_ACCTG_FREQ");
}
END_TEST

/*
 * What a chain's later job adds (submit_opts.env): in the submitting
 * environment under a plain --export (sbatch's --export=ALL,X=1 would
 * load the login environment), else after the script's --export, as
 * jobdesc_export_with() gives it to sbatch.
 */
START_TEST(test_chain_env)
{
	static const char *const add[] = { "MBSBATCH_CHAIN_PREV=5",
	    "MBSBATCH_CHAIN_SEGMENT=2", NULL };
	struct submit_opts	 so;
	struct jobdesc_context	 jc;
	struct jobdesc		 copy, saved;
	char			*tres[2], *e;

	memset(&so, 0, sizeof so);
	so.dependency = "afterok:5";
	so.env = add;
	so.kill_invalid_dep = true;
	memset(&jc, 0, sizeof jc);
	jc.environ = base_env;
	jc.host = &host;
	jc.release = 2511;

	env_of("#!/bin/sh\n", 2511, base_env);
	jobdesc_for_release(&copy, &d, &so, 2511, tres);
	ck_assert(copy.kill_invalid_dep);
	ck_assert_str_eq(copy.dependency, "afterok:5");
	ck_assert_ptr_null(jobdesc_export_with(&copy));
	freev(out);
	out = jobdesc_env(&copy, &jc, &nout);
	has("MBSBATCH_CHAIN_PREV", "5");
	has("MBSBATCH_CHAIN_SEGMENT", "2");
	has("PATH", "/bin");
	has("SLURM_JOB_DEPENDENCY", "afterok:5");
	lacks("SLURM_GET_USER_ENV");
	lacks("SLURM_EXPORT_ENV");
	free(tres[0]);
	free(tres[1]);

	/* --export=NONE: the names go into it. */
	env_of("#!/bin/sh\n#SBATCH --export=NONE,A\n", 2511, base_env);
	saved = d;
	jobdesc_for_release(&copy, &d, &so, 2511, tres);
	e = jobdesc_export_with(&copy);
	ck_assert_str_eq(e, "NONE,A,MBSBATCH_CHAIN_PREV=5,"
	    "MBSBATCH_CHAIN_SEGMENT=2");
	free(e);
	freev(out);
	out = jobdesc_env(&copy, &jc, &nout);
	has("MBSBATCH_CHAIN_PREV", "5");
	has("MBSBATCH_CHAIN_SEGMENT", "2");
	has("A", "0");
	lacks("PATH");
	has("SLURM_EXPORT_ENV", "NONE,A,MBSBATCH_CHAIN_PREV=5,"
	    "MBSBATCH_CHAIN_SEGMENT=2");
	/* The script's own description is left as it was. */
	ck_assert_int_eq(d.nexport_vars, saved.nexport_vars);
	ck_assert_str_eq(d.export_env, "NONE,A");
	ck_assert_ptr_null(d.env_add);
	free(tres[0]);
	free(tres[1]);

	/* Nothing added: as before. */
	ck_assert_ptr_null(jobdesc_export_with(&d));
}
END_TEST

/* Without the host's facts (a caller that has none) nothing is made up. */
START_TEST(test_no_host)
{
	struct jobdesc_context	 jc;

	jobdesc_init(&d);
	memset(&jc, 0, sizeof jc);
	jc.environ = base_env;
	out = jobdesc_env(&d, &jc, &nout);
	lacks("SLURM_SUBMIT_DIR");
	lacks("SLURM_UMASK");
	lacks("SLURM_RLIMIT_CPU");
	has("PATH", "/bin");
}
END_TEST

START_TEST(test_host_read)
{
	struct jobdesc_host	 h;
	size_t			 i;

	jobdesc_host_read(&h);
	ck_assert(h.submit_dir[0] == '/');
	ck_assert_uint_eq(strlen(h.umask), 4);
	ck_assert(h.umask[0] == '0');
	for (i = 0; i < JOBDESC_NRLIMITS; i++) {
		ck_assert_ptr_nonnull(h.rlimits[i].name);
		ck_assert(h.rlimits[i].known);
	}
	ck_assert_str_eq(h.rlimits[0].name, "CPU");
	ck_assert_str_eq(h.rlimits[9].name, "AS");
}
END_TEST

/* The counts sbatch puts in the job description (the native back end). */
/* 0 is the newest release, here as in jobdesc_env(). */
START_TEST(test_tres_newest)
{
	char	*t;

	env_of("#!/bin/sh\n#SBATCH -n 8 -c 2 --gpus-per-task=1\n", 0,
	    base_env);
	t = jobdesc_tres_per_task(&d, 0);
	ck_assert_str_eq(t, "cpu=2,gres/gpu=1");
	free(t);
	t = jobdesc_tres_bind(&d, 0);
	ck_assert_str_eq(t, "gres/gpu:per_task:1");
	free(t);
	t = jobdesc_tres_per_task(&d, 2205);
	ck_assert_str_eq(t, "gres:gpu:1");
	free(t);
	ck_assert_ptr_null(jobdesc_tres_bind(&d, 2205));
}
END_TEST

START_TEST(test_counts)
{
	struct jobdesc_counts	 c;

	env_of(gpu_job, 2511, base_env);
	jobdesc_counts(&rd, &c);
	ck_assert(!c.ntasks_set);
	ck_assert_int_eq(c.num_tasks, 0);
	ck_assert_int_eq(c.min_cpus, 16);
	ck_assert_int_eq(c.pn_min_cpus, 0);
	env_of(gpu_job, 2205, base_env);
	jobdesc_counts(&rd, &c);
	ck_assert(c.ntasks_set);
	ck_assert_int_eq(c.num_tasks, 16);
	ck_assert_int_eq(c.min_cpus, 16);
	env_of("#!/bin/sh\n#SBATCH --ntasks-per-node=2\n", 2205, base_env);
	jobdesc_counts(&rd, &c);
	ck_assert(c.ntasks_set);
	ck_assert_int_eq(c.num_tasks, 2);
	ck_assert_int_eq(c.min_cpus, 2);

	env_of("#!/bin/sh\n#SBATCH -N 2 -n 16 -c 2\n", 2411, base_env);
	jobdesc_counts(&rd, &c);
	ck_assert(c.ntasks_set);
	ck_assert_int_eq(c.num_tasks, 16);
	ck_assert_int_eq(c.min_cpus, 32);
	ck_assert_int_eq(c.pn_min_cpus, 2);

	/* One task a node by default; one in all without --nodes. */
	env_of("#!/bin/sh\n#SBATCH -N 3\n", 2511, base_env);
	jobdesc_counts(&rd, &c);
	ck_assert_int_eq(c.min_cpus, 3);
	env_of("#!/bin/sh\n#SBATCH -c 4\n", 2511, base_env);
	jobdesc_counts(&rd, &c);
	ck_assert_int_eq(c.min_cpus, 4);
	ck_assert(!c.ntasks_set);
}
END_TEST

/*
 * --mail-type: sbatch up to 24.11 ORs every line's types into the job's
 * (slurm_opt.c, arg_set_mail_type: "|="), 25.05 on keeps the last.
 */
START_TEST(test_mail_type_lines)
{
	static const char script[] = "#!/bin/sh\n#SBATCH --mail-type=BEGIN\n"
	    "#SBATCH --mail-type=END\n#SBATCH --mail-type=NONE\n";

	env_of(script, 2411, base_env);
	ck_assert_int_eq(rd.mail_type, SLURMOPT_MAIL_BEGIN |
	    SLURMOPT_MAIL_END);
	env_of(script, 2505, base_env);
	ck_assert_int_eq(rd.mail_type, 0);
	env_of("#!/bin/sh\n", 2411, base_env);
	ck_assert_int_eq(rd.mail_type, -1);
}
END_TEST

/* 23.11 on: -n and --ntasks-per-node without --nodes send the nodes they
 * fill (slurm_opt_create_job_desc), as a minimum only. */
START_TEST(test_nodes_implied)
{
	env_of("#!/bin/sh\n#SBATCH -n 8 --ntasks-per-node=3\n", 2311,
	    base_env);
	ck_assert_int_eq(rd.nodes_implied, 3);
	ck_assert_int_eq(rd.nodes_min, 0);
	env_of("#!/bin/sh\n#SBATCH -n 8 --ntasks-per-node=4\n", 2302,
	    base_env);
	ck_assert_int_eq(rd.nodes_implied, 0);
	env_of("#!/bin/sh\n#SBATCH -N 1 -n 8 --ntasks-per-node=4\n", 2511,
	    base_env);
	ck_assert_int_eq(rd.nodes_implied, 0);
	env_of("#!/bin/sh\n#SBATCH -n 8\n", 2511, base_env);
	ck_assert_int_eq(rd.nodes_implied, 0);
}
END_TEST

/* What one release refuses that another takes, as its sbatch does. */
START_TEST(test_check_release)
{
	struct error	*err;

	env_of("#!/bin/sh\n#SBATCH --gres=gres/gpu:2\n", 2511, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2511));
	ck_assert_ptr_null(jobdesc_check_release(&d, 2311));
	err = jobdesc_check_release(&d, 2205);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "--gres=gres/gpu:2: Slurm 22.05 refuses "
	    "it, as its sbatch does (\"Invalid generic resource (gres) "
	    "specification\")");
	ck_assert_int_eq(err->status, EXIT_USAGE);
	error_free(err);
	env_of("#!/bin/sh\n#SBATCH --gres=gres:gpu:2\n", 2205, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2205));
	err = jobdesc_check_release(&d, 0);
	ck_assert_ptr_nonnull(err);
	error_free(err);
	env_of("#!/bin/sh\n#SBATCH --gres=gpu:2\n", 2205, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2205));
	ck_assert_ptr_null(jobdesc_check_release(&d, 2511));
	/* Signal names sbatch learnt in 23.11. */
	env_of("#!/bin/sh\n#SBATCH --signal=PIPE@5\n", 2311, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2311));
	err = jobdesc_check_release(&d, 2302);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "--signal: the sbatch of Slurm 23.02 "
	    "knows no name for signal 13 (it has one from 23.11 on), and "
	    "refuses it");
	error_free(err);
	env_of("#!/bin/sh\n#SBATCH --signal=13@5\n", 2205, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2205));
	/* GPUs per task without a task count sbatch knows. */
	env_of("#!/bin/sh\n#SBATCH --ntasks-per-node=4 --gpus-per-task=1\n",
	    2205, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2205));
	err = jobdesc_check_release(&d, 2511);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "--gpus-per-task: without a task count, "
	    "refused as sbatch of Slurm 25.11 refuses it (\"--gpus-per-task "
	    "used without either --gpus or -n/--ntasks is not allowed\")");
	error_free(err);
	env_of("#!/bin/sh\n#SBATCH -N 1-2 --ntasks-per-node=1 "
	    "--gpus-per-task=1\n", 2205, base_env);
	err = jobdesc_check_release(&d, 2205);
	ck_assert_ptr_nonnull(err);
	error_free(err);
	env_of("#!/bin/sh\n#SBATCH -N 2 -c 2 --gpus-per-task=1\n", 2511,
	    base_env);
	err = jobdesc_check_release(&d, 2511);
	ck_assert_ptr_nonnull(err);
	error_free(err);
	env_of("#!/bin/sh\n#SBATCH -N 2 --gpus-per-task=1\n", 2511, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2511));
	env_of("#!/bin/sh\n#SBATCH -n 2 --gpus-per-task=1\n", 2511, base_env);
	ck_assert_ptr_null(jobdesc_check_release(&d, 2511));
}
END_TEST

/* --gpus-per-node and --gres: sbatch sends both, in that order. */
START_TEST(test_tres_per_node)
{
	char	*t;

	env_of("#!/bin/sh\n#SBATCH --gres=gpu:1 --gpus-per-node=2\n", 2511,
	    base_env);
	t = jobdesc_tres_per_node(&d, "gres/");
	ck_assert_str_eq(t, "gres/gpu:2,gres/gpu:1");
	free(t);
	has("SLURM_GPUS_PER_NODE", "2");
	env_of("#!/bin/sh\n#SBATCH --gres=gpu:1\n", 2205, base_env);
	t = jobdesc_tres_per_node(&d, "gres:");
	ck_assert_str_eq(t, "gres:gpu:1");
	free(t);
	env_of("#!/bin/sh\n", 2205, base_env);
	ck_assert_ptr_null(jobdesc_tres_per_node(&d, "gres:"));
}
END_TEST

/*
 * Typed GPUs: the type in tres_per_node as xfmt_tres() and
 * gres_prepend_tres_type() make it, and SLURM_GPUS_PER_NODE as given
 * (env.c); a later untyped line clears an earlier type.
 */
START_TEST(test_tres_typed)
{
	struct error	*err;
	char		*t;

	env_of("#!/bin/sh\n#SBATCH --gpus-per-node=tesla:4\n", 2205,
	    base_env);
	t = jobdesc_tres_per_node(&d, "gres:");
	ck_assert_str_eq(t, "gres:gpu:tesla:4");
	free(t);
	has("SLURM_GPUS_PER_NODE", "tesla:4");
	env_of("#!/bin/sh\n#SBATCH --gres=gpu:h100:8 --gpus-per-node=2\n",
	    2511, base_env);
	t = jobdesc_tres_per_node(&d, "gres/");
	ck_assert_str_eq(t, "gres/gpu:2,gres/gpu:h100:8");
	free(t);
	has("SLURM_GPUS_PER_NODE", "2");
	env_of("#!/bin/sh\n#SBATCH --gpus-per-node=a:1\n"
	    "#SBATCH --gpus-per-node=3\n", 2511, base_env);
	t = jobdesc_tres_per_node(&d, "gres/");
	ck_assert_str_eq(t, "gres/gpu:3");
	free(t);
	/* The wrong release's prefix: the hint keeps the type. */
	env_of("#!/bin/sh\n#SBATCH --gres=gres/gpu:tesla:2\n", 2205,
	    base_env);
	err = jobdesc_check_release(&d, 2205);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "--gres=gres/gpu:tesla:2: Slurm 22.05 "
	    "refuses it, as its sbatch does (\"Invalid generic resource "
	    "(gres) specification\")");
	ck_assert_str_eq(err->hint, "write --gres=gpu:tesla:2");
	error_free(err);
}
END_TEST

static Suite *
jobdesc_suite(void)
{
	Suite	*s = suite_create("jobdesc");
	TCase	*tc = tcase_create("env");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tasks_2511);
	tcase_add_test(tc, test_carried_env);
	tcase_add_test(tc, test_tasks_2205);
	tcase_add_test(tc, test_explicit_ntasks);
	tcase_add_test(tc, test_gpus);
	tcase_add_test(tc, test_export_list);
	tcase_add_test(tc, test_kept);
	tcase_add_test(tc, test_chain_env);
	tcase_add_test(tc, test_open_mode_dependency);
	tcase_add_test(tc, test_no_host);
	tcase_add_test(tc, test_host_read);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_tres_newest);
	tcase_add_test(tc, test_mail_type_lines);
	tcase_add_test(tc, test_check_release);
	tcase_add_test(tc, test_nodes_implied);
	tcase_add_test(tc, test_tres_per_node);
	tcase_add_test(tc, test_tres_typed);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(jobdesc_suite());
}
