/*
 * check_directives.c: the #SBATCH parser (src/slurm/sbatch-directives.c)
 * (--export's environment: check_jobdesc.c): every option gen writes and the
 * hand-written ones, sbatch's lexer rules, where reading stops, and each
 * directive that cannot be carried refused with its line; the SBATCH_*
 * variables sbatch reads, over the lines, and sbatch's corrections of
 * the numbers; and, for every example job, that its script's lines read
 * back to the job's typed Slurm options.
 */
#include <check.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "generate.h"
#include "job.h"
#include "jobdesc.h"
#include "sbatch-directives.h"
#include "sbatch-options.h"
#include "slurmopt.h"
#include "xmalloc.h"
#include "run.h"

static struct jobdesc	 d;

static struct error *
parse(const char *script)
{
	jobdesc_release(&d);
	jobdesc_init(&d);
	return sbatch_directives_parse("t.sbatch", script, 0, &d);
}

static void
ok(const char *script)
{
	struct error	*err = parse(script);

	ck_assert_msg(err == NULL, "%s", err != NULL ? err->msg : "");
}

/* The warnings of the last parse_env(). */
static char	**w;

static struct error *
parse_env(const char *script, char *const *env, int lenient)
{
	jobdesc_release(&d);
	jobdesc_init(&d);
	freev(w);
	w = NULL;
	return sbatch_directives_parse_env("t.sbatch", script, lenient, env,
	    &d, &w);
}

static void
ok_env(const char *script, char *const *env)
{
	struct error	*err = parse_env(script, env, 0);

	ck_assert_msg(err == NULL, "%s", err != NULL ? err->msg : "");
}

static size_t
nwarnings(void)
{
	size_t	 n = 0;

	while (w != NULL && w[n] != NULL)
		n++;
	return n;
}

START_TEST(test_gen_directives)
{
	ok("#!/bin/bash\n"
	    "#SBATCH --job-name=\"my run\"\n"
	    "#SBATCH --nodes=2\n"
	    "#SBATCH --ntasks-per-node=8\n"
	    "#SBATCH --gpus-per-node=8\n"
	    "#SBATCH --partition=batch\n"
	    "#SBATCH --account=proj\n"
	    "#SBATCH --qos=high\n"
	    "#SBATCH --time=1-12:00:00\n"
	    "#SBATCH --output=logs/%x-%j.out\n"
	    "#SBATCH --error=logs/%x-%j.err\n"
	    "#SBATCH --exclusive\n"
	    "#SBATCH --mem=0\n"
	    "#SBATCH --constraint=h100&ib\n"
	    "#SBATCH --reservation=res1\n"
	    "#SBATCH --dependency=afterok:12\n"
	    "#SBATCH --signal=B:USR2@90\n"
	    "#SBATCH --requeue\n"
	    "#\n"
	    "# a comment\n"
	    "\n"
	    "srun hostname\n"
	    "#SBATCH --nodes=99\n");
	ck_assert_str_eq(d.name, "my run");
	ck_assert_int_eq(d.nodes_min, 2);
	ck_assert_int_eq(d.nodes_max, 2);
	ck_assert_int_eq(d.ntasks_per_node, 8);
	ck_assert_int_eq(d.gpus_per_node, 8);
	ck_assert_str_eq(d.partition, "batch");
	ck_assert_str_eq(d.account, "proj");
	ck_assert_str_eq(d.qos, "high");
	ck_assert_int_eq(d.time_minutes, 36 * 60);
	ck_assert_str_eq(d.output, "logs/%x-%j.out");
	ck_assert_str_eq(d.error, "logs/%x-%j.err");
	ck_assert(d.exclusive);
	ck_assert_int_eq(d.mem_mb, 0);
	ck_assert_str_eq(d.constraint, "h100&ib");
	ck_assert_str_eq(d.reservation, "res1");
	ck_assert_str_eq(d.dependency, "afterok:12");
	ck_assert_int_eq(d.signal_num, SIGUSR2);
	ck_assert_int_eq(d.signal_time, 90);
	ck_assert(d.signal_batch);
	ck_assert_int_eq(d.requeue, 1);
	ck_assert_ptr_nonnull(strstr(d.script, "srun hostname"));
}
END_TEST

/* Typed GPUs, as gres_types writes them and a site's scripts do. */
START_TEST(test_typed_gpus)
{
	ok("#!/bin/sh\n#SBATCH --gpus-per-node=nvidia_h100_80gb_hbm3:8\n");
	ck_assert_int_eq(d.gpus_per_node, 8);
	ck_assert_str_eq(d.gpus_per_node_type, "nvidia_h100_80gb_hbm3");
	ok("#!/bin/sh\n#SBATCH --gres=gpu:3g.20gb:2\n");
	ck_assert_int_eq(d.gres_gpus, 2);
	ck_assert_str_eq(d.gres_gpu_type, "3g.20gb");
	ok("#!/bin/sh\n#SBATCH --gres=gres/gpu:tesla:4\n");
	ck_assert_int_eq(d.gres_gpus, 4);
	ck_assert_str_eq(d.gres_gpu_type, "tesla");
	ck_assert_int_eq(d.gres_prefix, '/');
}
END_TEST

START_TEST(test_hand_written)
{
	ok("#!/bin/sh\n"
	    "#SBATCH -N 2-4 -n 16\n"
	    "#SBATCH -c 4 --gres=gpu:4 -t 90 -p debug -A acct -q normal\n"
	    "#SBATCH -J 'single quoted' -o out.txt -e err.txt -H -a 0-9%2\n"
	    "#SBATCH -D /scratch/run --export=NONE,A=1,B --mail-type=END,FAIL\n"
	    "#SBATCH --mail-user=me@example.org --gpus-per-task=1 # trailing\n"
	    "#SBATCH --mem 16G --no-requeue --signal=TERM\n");
	ck_assert_int_eq(d.nodes_min, 2);
	ck_assert_int_eq(d.nodes_max, 4);
	ck_assert_int_eq(d.ntasks, 16);
	ck_assert_int_eq(d.cpus_per_task, 4);
	ck_assert_int_eq(d.gres_gpus, 4);
	ck_assert_str_eq(d.gres_gpu_type, "");
	ck_assert_int_eq(d.gpus_per_node, 0);
	ck_assert_int_eq(d.gpus_per_task, 1);
	ck_assert_int_eq(d.time_minutes, 90);
	ck_assert_str_eq(d.partition, "debug");
	ck_assert_str_eq(d.name, "single quoted");
	ck_assert(d.hold);
	ck_assert_str_eq(d.array, "0-9%2");
	ck_assert_str_eq(d.chdir, "/scratch/run");
	ck_assert_int_eq(d.export_mode, EXPORT_NONE);
	ck_assert_int_eq(d.nexport_vars, 2);
	ck_assert_int_eq(d.mail_type, SLURMOPT_MAIL_END | SLURMOPT_MAIL_FAIL);
	ck_assert_str_eq(d.mail_user, "me@example.org");
	ck_assert_int_eq(d.mem_mb, 16 * 1024);
	ck_assert_int_eq(d.requeue, 0);
	ck_assert_int_eq(d.signal_num, SIGTERM);
	ck_assert_int_eq(d.signal_time, 60);
	ck_assert(!d.signal_batch);
}
END_TEST

/* Slurm's time formats, to minutes (seconds round up). */
static const struct {
	const char	*t;
	int64_t		 minutes;
} times[] = {
	{ "90", 90 }, { "10:30", 11 }, { "10:00", 10 }, { "02:00:00", 120 },
	{ "1:30:01", 91 }, { "2-0", 2880 }, { "1-12", 2160 },
	{ "1-00:30", 1470 }, { "0-00:00:01", 1 }, { "1-12:00:00", 2160 },
};

START_TEST(test_times)
{
	char	 s[128];

	snprintf(s, sizeof s, "#!/bin/sh\n#SBATCH --time=%s\n", times[_i].t);
	ok(s);
	ck_assert_int_eq(d.time_minutes, times[_i].minutes);
	ok("#!/bin/sh\n#SBATCH --time=UNLIMITED\n");
	ck_assert(d.time_unlimited);
}
END_TEST

static const struct {
	const char	*script;
	const char	*msg;
} bad[] = {
	{ "#SBATCH --nodes=2\n", "script 't.sbatch': line 1: does not start "
	  "with #! (sbatch refuses such scripts)" },
	{ "#!/bin/sh\n#SBATCH --gpus=16\n", "script 't.sbatch': line 2: "
	  "--gpus=16: not an option mbsbatch can send; submit with --via "
	  "sbatch" },
	{ "#!/bin/sh\n\n#SBATCH --nodes=two\n", "script 't.sbatch': line 3: "
	  "--nodes=two: 'two' is not a number" },
	{ "#!/bin/sh\n#SBATCH --time=99:99:99:99\n", "script 't.sbatch': "
	  "line 2: --time=99:99:99:99: '99:99:99:99' is not a Slurm time "
	  "(MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or "
	  "UNLIMITED)" },
	{ "#!/bin/sh\n#SBATCH --time=99999999999\n", "script 't.sbatch': "
	  "line 2: --time=99999999999: '99999999999' is longer than any time "
	  "Slurm counts" },
	{ "#!/bin/sh\n#SBATCH --job-name=\"open\n", "script 't.sbatch': "
	  "line 2: #SBATCH: unterminated quote" },
	{ "#!/bin/sh\n#SBATCH --gres=nic:2\n", "script 't.sbatch': line 2: "
	  "--gres=nic:2: 'nic:2': only gpu:COUNT can be sent" },
	{ "#!/bin/sh\n#SBATCH -n 2 --gpus-per-task=a100:1\n", "script "
	  "'t.sbatch': line 2: --gpus-per-task=a100:1: 'a100:1': GPU types "
	  "cannot be sent; write the count only" },
	{ "#!/bin/sh\n#SBATCH --gpus-per-node=a/b:8\n", "script 't.sbatch': "
	  "line 2: --gpus-per-node=a/b:8: 'a/b:8': a GPU type that is not a "
	  "GRES type (letters, digits and _ . + -, such as "
	  "nvidia_h100_80gb_hbm3) cannot be sent" },
	{ "#!/bin/sh\n#SBATCH --gres=gpu:a:b:8\n", "script 't.sbatch': "
	  "line 2: --gres=gpu:a:b:8: 'a:b:8' is not [TYPE:]COUNT" },
	{ "#!/bin/sh\n#SBATCH --gres=gpu:tesla:x\n", "script 't.sbatch': "
	  "line 2: --gres=gpu:tesla:x: 'x' is not a number" },
	{ "#!/bin/sh\n#SBATCH --exclusive=user\n", "script 't.sbatch': "
	  "line 2: --exclusive=user: 'user': only plain --exclusive can be "
	  "sent" },
	{ "#!/bin/sh\n#SBATCH --nodes\n", "script 't.sbatch': line 2: "
	  "--nodes: needs a value" },
	{ "#!/bin/sh\n#SBATCH --hold=yes\n", "script 't.sbatch': line 2: "
	  "--hold=yes: takes no value" },
	{ "#!/bin/sh\n#SBATCH --signal=R:USR1@30\n", "script 't.sbatch': "
	  "line 2: --signal=R:USR1@30: 'R:USR1@30': the R (reservation) flag "
	  "cannot be sent" },
	{ "#!/bin/sh\n#SBATCH hetjob\n", "script 't.sbatch': line 2: "
	  "#SBATCH hetjob: heterogeneous jobs cannot be sent" },
	/* sbatch blanks the word out: -J has no value left. */
	{ "#!/bin/sh\n#SBATCH -J packJob -N 2\n", "script 't.sbatch': line 2: "
	  "-J: needs a value" },
	{ "#!/bin/sh\n#SBATCH -J \":x\" :x\n", "script 't.sbatch': line 2: "
	  "#SBATCH: an argument starts with ':' (sbatch stops: \"Unexpected "
	  "`:`\")" },
	{ "#!/bin/sh\n#SBATCH -J a\\ b\n", "script 't.sbatch': line 2: "
	  "#SBATCH: a backslash before a space outside quotes: sbatch 22.05 "
	  "ends the word there, 23.02 and later keep the space (quote the "
	  "value instead)" },
	{ "#!/bin/sh\n#SBATCH -N 1\r\nsrun true\n", "script 't.sbatch': "
	  "line 2: ends in \\r\\n: sbatch refuses DOS line breaks" },
	{ "#!/bin/sh\n#SBATCH -N=2\n", "script 't.sbatch': line 2: -N=2: "
	  "'=2' is not a number" },
	{ "#!/bin/sh\n#SBATCH --part=x\n", "script 't.sbatch': line 2: "
	  "--part=x: an abbreviated option, which mbsbatch does not read; "
	  "write it in full" },
	{ "#!/bin/sh\n#SBATCH -- -N 2\n", "script 't.sbatch': line 2: -N: "
	  "after '--', not an option (sbatch refuses the script)" },
	{ "#!/bin/sh\n#SBATCH -N 2\n#PBS -N name\n", "script 't.sbatch': "
	  "line 3: #PBS: sbatch translates the options of #PBS lines into "
	  "its own, which mbsbatch does not; remove them, add #SBATCH "
	  "--ignore-pbs, or submit with --via sbatch" },
	{ "#!/bin/sh\ntrue\n#BSUB -J x\n#PBS -N y\n", "script 't.sbatch': "
	  "line 3: #BSUB: sbatch translates the options of #BSUB lines into "
	  "its own, which mbsbatch does not; remove them, add #SBATCH "
	  "--ignore-pbs, or submit with --via sbatch" },
	{ "#!/bin/sh\n#SBATCH --mail-type=sometimes\n", "script 't.sbatch': "
	  "line 2: --mail-type=sometimes: 'sometimes' names no mail type "
	  "sbatch knows (sbatch: \"Invalid --mail-type specification\")" },
	{ "#!/bin/sh\n#SBATCH --segment=4\n", "script 't.sbatch': line 2: "
	  "--segment=4: cannot be sent through libslurm or REST here; submit "
	  "with --via sbatch" },
	{ "#!/bin/sh\n#SBATCH nodes=2\n", "script 't.sbatch': line 2: "
	  "nodes=2: not an option (sbatch refuses the script: \"Invalid "
	  "directive\")" },
	{ "#!/bin/sh\n#SBATCH --nodes=4-2\n", "script 't.sbatch': line 2: "
	  "--nodes=4-2: '4-2': the maximum is below the minimum" },
	{ "#!/bin/sh\n#SBATCH --partition=\n", "script 't.sbatch': line 2: "
	  "--partition=: the value is empty" },
	{ "#!/bin/sh\n#SBATCH --acctg-freq=gpu=5\n", "script 't.sbatch': "
	  "line 2: --acctg-freq=gpu=5: 'gpu=5' is not an --acctg-freq: "
	  "SECONDS or task|energy|network|filesystem=SECONDS, by commas" },
	{ "#!/bin/sh\n#SBATCH --acctg-freq=task=30,\n", "script 't.sbatch': "
	  "line 2: --acctg-freq=task=30,: 'task=30,' is not an --acctg-freq: "
	  "SECONDS or task|energy|network|filesystem=SECONDS, by commas" },
	{ "#!/bin/sh\n#SBATCH --nice=2147483646\n", "script 't.sbatch': "
	  "line 2: --nice=2147483646: '2147483646' is out of sbatch's range (+/- 2147483645)" },
	{ "#!/bin/sh\n#SBATCH --prefer=a;b\n", "script 't.sbatch': line 2: "
	  "--prefer=a;b: 'a;b' is not a Slurm constraint (features joined "
	  "by & | , with [ ] ( ) and *COUNT)" },
};

/* The options every back end carries (slurmopt-carried.h), read back
 * as sbatch reads them: -L, --nice with no value (100). */
START_TEST(test_carried)
{
	struct error	*err;

	jobdesc_init(&d);
	err = sbatch_directives_parse("t.sbatch", "#!/bin/sh\n"
	    "#SBATCH -L mbslic:2 --wckey=wk --nice --prefer=fast\n"
	    "#SBATCH --mcs-label=lab --acctg-freq=Task=30,energy=0\n"
	    "#SBATCH --batch=mbsfeat --cluster-constraint=east\n"
	    "#SBATCH --container=/srv/bundle\n", 0, &d);
	ck_assert_msg(err == NULL, "%s", err != NULL ? err->msg : "");
	ck_assert_str_eq(d.licenses, "mbslic:2");
	ck_assert_str_eq(d.wckey, "wk");
	ck_assert_int_eq(d.nice, 100);
	ck_assert_str_eq(d.prefer, "fast");
	ck_assert_str_eq(d.mcs_label, "lab");
	ck_assert_str_eq(d.acctg_freq, "Task=30,energy=0");
	ck_assert_str_eq(d.batch_features, "mbsfeat");
	ck_assert_str_eq(d.cluster_constraint, "east");
	ck_assert_str_eq(d.container, "/srv/bundle");
	jobdesc_release(&d);
	err = sbatch_directives_parse("t.sbatch", "#!/bin/sh\n"
	    "#SBATCH --nice=-5 --acctg-freq=10\n", 0, &d);
	ck_assert_msg(err == NULL, "%s", err != NULL ? err->msg : "");
	ck_assert_int_eq(d.nice, -5);
	ck_assert_str_eq(d.acctg_freq, "10");
	jobdesc_release(&d);
}
END_TEST

START_TEST(test_bad)
{
	struct error	*err = parse(bad[_i].script);

	ck_assert_msg(err != NULL, "accepted: %s", bad[_i].script);
	ck_assert_str_eq(err->msg, bad[_i].msg);
	ck_assert_int_eq(err->status, EXIT_USAGE);
	error_free(err);
}
END_TEST

/* For the sbatch back end, sbatch reads what we cannot carry. */
START_TEST(test_lenient)
{
	struct error	*err;

	jobdesc_release(&d);
	jobdesc_init(&d);
	err = sbatch_directives_parse("t.sbatch", "#!/bin/sh\n"
	    "#SBATCH --segment=4 --gpus=16\n#SBATCH --output=o/%j.out\n", 1,
	    &d);
	ck_assert_ptr_null(err);
	ck_assert_str_eq(d.output, "o/%j.out");
	/* A job name holding "hetjob" is just a name. */
	ok("#!/bin/sh\n#SBATCH -J hetjob-test\n");
	ck_assert_str_eq(d.name, "hetjob-test");
}
END_TEST

/* The examples' scripts, as gen wrote them, read back. */
START_TEST(test_examples)
{
	FILE	*f;
	char	*text;
	long	 len;

	f = fopen(TEST_DATA "/../../examples/deepseek-v3.sbatch", "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	ck_assert_int_eq(fread(text, 1, (size_t)len, f), len);
	fclose(f);
	ok(text);
	ck_assert_str_eq(d.name, "deepseek-v3");
	ck_assert_int_eq(d.nodes_min, 128);
	ck_assert_int_eq(d.ntasks_per_node, 8);
	ck_assert_int_eq(d.gpus_per_node, 8);
	ck_assert_int_eq(d.time_minutes, 240);
	ck_assert(d.exclusive);
	ck_assert_int_eq(d.mem_mb, 0);
	ck_assert_str_eq(d.output, "logs/%x-%j.out");
	free(text);
}
END_TEST

/* A later --export replaces the earlier one, as in sbatch. */
START_TEST(test_export_replaced)
{
	ok("#!/bin/sh\n#SBATCH --export=NONE,A=1,B\n#SBATCH --export=C\n");
	ck_assert_int_eq(d.export_mode, EXPORT_LIST);
	ck_assert_int_eq(d.nexport_vars, 1);
	ck_assert_str_eq(d.export_vars[0], "C");
	/* "exclusive" is sbatch's plain --exclusive. */
	ok("#!/bin/sh\n#SBATCH --exclusive=EXCLUSIVE\n");
	ck_assert(d.exclusive);
}
END_TEST

#define SCRIPT0	"#!/bin/sh\nsrun true\n"

/* Each kind of variable sbatch reads, with nothing in the script. */
START_TEST(test_env_strings)
{
	char *const	 env[] = { "PATH=/bin", "SBATCH_PARTITION=p1",
	    "SBATCH_ACCOUNT=a1", "SBATCH_QOS=q1", "SBATCH_RESERVATION=r1",
	    "SBATCH_JOB_NAME=my job", "SBATCH_CONSTRAINT=h100&ib",
	    "SBATCH_OUTPUT=o/%j.out", "SBATCH_ERROR=o/%j.err",
	    "SBATCH_ARRAY_INX=0-3%1", "SBATCH_EXPORT=NONE,A=1", NULL };

	ok_env(SCRIPT0, env);
	ck_assert_str_eq(d.partition, "p1");
	ck_assert_str_eq(d.account, "a1");
	ck_assert_str_eq(d.qos, "q1");
	ck_assert_str_eq(d.reservation, "r1");
	ck_assert_str_eq(d.name, "my job");
	ck_assert_str_eq(d.constraint, "h100&ib");
	ck_assert_str_eq(d.output, "o/%j.out");
	ck_assert_str_eq(d.error, "o/%j.err");
	ck_assert_str_eq(d.array, "0-3%1");
	ck_assert_int_eq(d.export_mode, EXPORT_NONE);
	ck_assert_int_eq(d.nexport_vars, 1);
	ck_assert_ptr_null(w);
}
END_TEST

START_TEST(test_env_numbers)
{
	char *const	 env[] = { "SBATCH_GPUS_PER_NODE=4",
	    "SBATCH_GPUS_PER_TASK=1", "SBATCH_MEM_PER_NODE=16G",
	    "SBATCH_TIMELIMIT=1-00:30", NULL };
	char *const	 gres[] = { "SBATCH_GRES=gpu:2", NULL };

	ok_env(SCRIPT0, env);
	ck_assert_int_eq(d.gpus_per_node, 4);
	ck_assert_int_eq(d.gpus_per_task, 1);
	ck_assert_int_eq(d.mem_mb, 16 * 1024);
	ck_assert_int_eq(d.time_minutes, 1470);
	ok_env(SCRIPT0, gres);
	ck_assert_int_eq(d.gres_gpus, 2);
}
END_TEST

START_TEST(test_env_flags)
{
	char *const	 env[] = { "SBATCH_EXCLUSIVE=", "SBATCH_OPEN_MODE=a",
	    "SBATCH_SIGNAL=B:USR1@120", "SBATCH_REQUEUE=", NULL };
	char *const	 noreq[] = { "SBATCH_NO_REQUEUE=yes", NULL };
	char *const	 reset[] = { "SBATCH_NO_REQUEUE=no", NULL };
	/* 25.11 takes any value of SBATCH_REQUEUE but "expedite" as plain
	 * --requeue; 22.05 to 25.05 took 0 as "reset". */
	char *const	 req0[] = { "SBATCH_REQUEUE=0", NULL };
	/* _opt_env reads SBATCH_REQUEUE after SBATCH_NO_REQUEUE. */
	char *const	 both[] = { "SBATCH_REQUEUE=1", "SBATCH_NO_REQUEUE=1",
	    NULL };

	ok_env(SCRIPT0, env);
	ck_assert(d.exclusive);
	ck_assert_int_eq(d.open_mode, 1);
	ck_assert_int_eq(d.signal_num, SIGUSR1);
	ck_assert_int_eq(d.signal_time, 120);
	ck_assert(d.signal_batch);
	ck_assert_int_eq(d.requeue, 1);
	ok_env("#!/bin/sh\n#SBATCH --requeue\n", noreq);
	ck_assert_int_eq(d.requeue, 0);
	/* A flag's other values reset it: --requeue is cleared too. */
	ok_env("#!/bin/sh\n#SBATCH --requeue\n", reset);
	ck_assert_int_eq(d.requeue, -1);
	ck_assert_int_eq(nwarnings(), 1);
	ck_assert_str_eq(w[0], "SBATCH_NO_REQUEUE=no overrides the script's "
	    "--requeue (line 2), as it does with sbatch");
	ok_env("#!/bin/sh\n#SBATCH --no-requeue\n", req0);
	ck_assert_int_eq(d.requeue, 1);
	ok_env(SCRIPT0, both);
	ck_assert_int_eq(d.requeue, 1);
}
END_TEST

/*
 * sbatch applies the variables over the script's lines: _opt_env() after
 * _opt_batch_script() in process_options_second_pass().  The lines of a
 * generated script hold mbsbatch's own options, so a variable wins over
 * those too, as it does when sbatch reads that script.
 */
START_TEST(test_env_precedence)
{
	char *const	 env[] = { "SBATCH_PARTITION=debug",
	    "SBATCH_TIMELIMIT=5", "SBATCH_ACCOUNT=same", NULL };

	ok_env("#!/bin/sh\n#SBATCH -p batch\n#SBATCH --time=60 -A same\n"
	    "#SBATCH --partition=gpu\n", env);
	ck_assert_str_eq(d.partition, "debug");
	ck_assert_int_eq(d.time_minutes, 5);
	ck_assert_str_eq(d.account, "same");
	/* Said for what changed, with the last line that set it. */
	ck_assert_int_eq(nwarnings(), 2);
	ck_assert_str_eq(w[0], "SBATCH_PARTITION=debug overrides the "
	    "script's --partition=gpu (line 4), as it does with sbatch");
	ck_assert_str_eq(w[1], "SBATCH_TIMELIMIT=5 overrides the script's "
	    "--time=60 (line 3), as it does with sbatch");
}
END_TEST

/* Names sbatch does not read are not read; flags reset set nothing. */
START_TEST(test_env_ignored)
{
	char *const	 env[] = { "SBATCH_HOLD=1", "SBATCH_NODES=4",
	    "SBATCH_MEM=1G", "SBATCH_DEBUG=1", "SBATCH_IGNORE_PBS=1",
	    "SBATCH_OVERCOMMIT=no", "SBATCH_WAIT=0", "SBATCH_PARTITION",
	    "XSBATCH_QOS=x", NULL };

	ok_env(SCRIPT0, env);
	ck_assert(!d.hold);
	ck_assert_int_eq(d.nodes_min, 0);
	ck_assert_int_eq(d.mem_mb, -1);
	ck_assert_ptr_null(d.partition);
	ck_assert_ptr_null(d.qos);
	ck_assert_ptr_null(w);
}
END_TEST

static const struct {
	const char	*env;
	const char	*msg;
} bad_env[] = {
	{ "SBATCH_TIMELIMIT=1:xx", "SBATCH_TIMELIMIT: '1:xx' is not a Slurm "
	  "time (MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS or "
	  "UNLIMITED)" },
	{ "SBATCH_GPUS_PER_TASK=a100:8", "SBATCH_GPUS_PER_TASK: 'a100:8': "
	  "GPU types cannot be sent; write the count only" },
	{ "SBATCH_GRES=nic:1", "SBATCH_GRES: 'nic:1': only gpu:COUNT can be "
	  "sent" },
	{ "SBATCH_EXCLUSIVE=user", "SBATCH_EXCLUSIVE: 'user': only plain "
	  "--exclusive can be sent" },
	{ "SBATCH_OPEN_MODE=x", "SBATCH_OPEN_MODE: 'x' is not append or "
	  "truncate" },
	{ "SBATCH_SIGNAL=R:USR1", "SBATCH_SIGNAL: 'R:USR1': the R "
	  "(reservation) flag cannot be sent" },
	{ "SBATCH_EXPORT=NIL", "SBATCH_EXPORT: 'NIL' cannot be sent" },
	{ "SBATCH_REQUEUE=expedite", "SBATCH_REQUEUE: 'expedite': an "
	  "expedited requeue cannot be sent" },
	{ "SBATCH_PARTITION=", "SBATCH_PARTITION: the value is empty" },
	{ "SBATCH_JOB_NAME=a\nb", "SBATCH_JOB_NAME: the value holds a line "
	  "break" },
	{ "SBATCH_GPUS=8", "SBATCH_GPUS: sets --gpus, which mbsbatch cannot "
	  "send; unset it, or submit with --via sbatch" },
	{ "SLURM_HINT=nomultithread", "SLURM_HINT: sets --hint, which "
	  "mbsbatch cannot send; unset it, or submit with --via sbatch" },
	{ "SBATCH_MEM_PER_CPU=2G", "SBATCH_MEM_PER_CPU: sets --mem-per-cpu, "
	  "which mbsbatch cannot send; unset it, or submit with --via "
	  "sbatch" },
	{ "SBATCH_WAIT=1", "SBATCH_WAIT: sets --wait, which mbsbatch cannot "
	  "send; unset it, or submit with --via sbatch" },
	{ "SBATCH_SEGMENT_SIZE=2", "SBATCH_SEGMENT_SIZE: cannot be sent "
	  "through libslurm or REST here; submit with --via sbatch" },
};

START_TEST(test_env_bad)
{
	char *const	 env[] = { (char *)bad_env[_i].env, NULL };
	struct error	*err = parse_env(SCRIPT0, env, 0);

	ck_assert_msg(err != NULL, "accepted: %s", bad_env[_i].env);
	ck_assert_str_eq(err->msg, bad_env[_i].msg);
	ck_assert_int_eq(err->status, EXIT_USAGE);
	ck_assert_ptr_null(w);
	error_free(err);
	/* sbatch reads the variables itself with its back end. */
	err = parse_env(SCRIPT0, env, 1);
	ck_assert_ptr_null(err);
}
END_TEST

/* For the sbatch back end: what can be carried is, the rest skipped. */
START_TEST(test_env_lenient)
{
	char *const	 env[] = { "SBATCH_GPUS=8", "SBATCH_OUTPUT=o/%j.out",
	    "SBATCH_TIMELIMIT=bad", NULL };
	struct error	*err;

	err = parse_env("#!/bin/sh\n#SBATCH --time=10\n", env, 1);
	ck_assert_ptr_null(err);
	ck_assert_str_eq(d.output, "o/%j.out");
	ck_assert_int_eq(d.time_minutes, 10);
}
END_TEST

/*
 * _opt_verify's "massage the numbers", 22.05 to 25.11: with --nodes and
 * --ntasks, max nodes = ntasks when fewer, and min too, with a warning.
 */
static const struct {
	const char	*lines;
	int64_t		 min, max, ntasks;
	const char	*warning;
} corrections[] = {
	{ "-N 2 -n 1", 1, 1, 1, "can't run 1 processes on 2 nodes, setting "
	  "nnodes to 1" },
	{ "-N 4-8 -n 2", 2, 2, 2, "can't run 2 processes on 4 nodes, setting "
	  "nnodes to 2" },
	{ "-N 2-4 -n 3", 2, 3, 3, NULL },
	{ "-N 2 -n 16", 2, 2, 16, NULL },
	{ "-N 2", 2, 2, 0, NULL },
	{ "-n 3", 0, 0, 3, NULL },
	/* 22.05 set ntasks = nodes x ntasks-per-node; 24.11 on do not. */
	{ "-N 2 --ntasks-per-node=4", 2, 2, 0, NULL },
};

START_TEST(test_corrections)
{
	char	 s[128];

	snprintf(s, sizeof s, "#!/bin/sh\n#SBATCH %s\n",
	    corrections[_i].lines);
	ok_env(s, NULL);
	ck_assert_int_eq(d.nodes_min, corrections[_i].min);
	ck_assert_int_eq(d.nodes_max, corrections[_i].max);
	ck_assert_int_eq(d.ntasks, corrections[_i].ntasks);
	if (corrections[_i].warning == NULL)
		ck_assert_ptr_null(w);
	else {
		ck_assert_int_eq(nwarnings(), 1);
		ck_assert_str_eq(w[0], corrections[_i].warning);
	}
	/* Through sbatch, sbatch says it: the same job, no warning here. */
	ck_assert_ptr_null(parse_env(s, NULL, 1));
	ck_assert_int_eq(d.nodes_min, corrections[_i].min);
	ck_assert_int_eq(d.nodes_max, corrections[_i].max);
	ck_assert_ptr_null(w);
}
END_TEST

/* Corrected after the variables, as _opt_verify runs after _opt_env. */
START_TEST(test_corrections_env)
{
	char *const	 env[] = { "SBATCH_PARTITION=x", NULL };

	ok_env("#!/bin/sh\n#SBATCH -N 3 -n 2 -p y\n", env);
	ck_assert_int_eq(d.nodes_min, 2);
	ck_assert_int_eq(nwarnings(), 2);
	ck_assert_str_eq(w[1], "can't run 2 processes on 3 nodes, setting "
	    "nnodes to 2");
}
END_TEST

/*
 * The property submit relies on: for every example job, the #SBATCH
 * lines of its rendered script read back (as sbatch would) to the job's
 * typed Slurm options, each option to its row's field, and nothing else.
 */
static void
expect_read(const char *file, const struct slurm_directive *sd,
    const struct jobdesc *jd)
{
	const struct slurmopt_def	*r;
	int64_t				 v;
	bool				 unlimited;

	r = slurmopt_find(sd->option, strlen(sd->option));
	ck_assert_msg(r != NULL, "%s: --%s has no row", file, sd->option);
	switch (r->kind) {
	case SK_STRING:
		ck_assert_str_eq(*(char **)slurmopt_field(r, jd), sd->value);
		break;
	case SK_COUNT:
		ck_assert_int_eq(*(int64_t *)slurmopt_field(r, jd), sd->number);
		break;
	case SK_FLAG:
		ck_assert(*(bool *)slurmopt_field(r, jd));
		break;
	case SK_NODES:
		ck_assert_int_eq(jd->nodes_min, sd->number);
		ck_assert_int_eq(jd->nodes_max, sd->number);
		break;
	case SK_GPUS_PER_NODE:
		ck_assert_int_eq(jd->gpus_per_node, sd->number);
		break;
	case SK_TIME:
		ck_assert_int_eq(slurmopt_time_minutes(sd->value, &v,
		    &unlimited), 0);
		ck_assert_int_eq(jd->time_minutes, v);
		ck_assert_int_eq(jd->time_unlimited, unlimited);
		break;
	case SK_MEM:
		ck_assert_int_eq(slurmopt_mem_mb(sd->value, &v), 0);
		ck_assert_int_eq(jd->mem_mb, v);
		break;
	case SK_EXCLUSIVE:
		ck_assert(jd->exclusive);
		break;
	case SK_SIGNAL:
		ck_assert_int_ne(jd->signal_num, 0);
		ck_assert_int_eq(jd->signal_batch,
		    strncmp(sd->value, "B:", 2) == 0);
		break;
	case SK_REQUEUE:
		ck_assert_int_eq(jd->requeue, 1);
		break;
	case SK_OPEN_MODE:
		ck_assert_int_eq(jd->open_mode, 1);
		break;
	case SK_SEGMENT:
		break;		/* sbatch reads it; REST cannot send it */
	default:
		ck_abort_msg("%s: --%s is not written", file, sd->option);
	}
}

/* No string read back that the job's options do not have. */
static void
expect_nothing_else(const char *file, const struct slurmopt *o,
    const struct jobdesc *jd)
{
	const struct slurmopt_def	*r;
	size_t				 i;

	for (i = 0; i < slurmopt_table_size; i++) {
		r = &slurmopt_table[i];
		if (r->kind == SK_STRING &&
		    *(char **)slurmopt_field(r, jd) != NULL)
			ck_assert_msg(slurmopt_find_directive(o, r->name) !=
			    NULL, "%s: --%s read back, not written", file,
			    r->name);
	}
	ck_assert_int_eq(jd->ntasks, 0);
	ck_assert_int_eq(jd->cpus_per_task, 0);
	ck_assert_int_eq(jd->requeue != -1,
	    slurmopt_find_directive(o, "requeue") != NULL);
	ck_assert_int_eq(jd->hold, slurmopt_find_directive(o, "hold") != NULL);
}

static void
round_trip(const char *file)
{
	struct job_request	 req;
	struct job_figures	 fig;
	struct jobdesc		 jd;
	struct error		*err;
	struct buf		 out;
	struct job		 job;
	int			 k;

	job_request_init(&req);
	req.jobfile = file;
	err = job_load(&job, &req);
	ck_assert_msg(err == NULL, "%s: %s", file, err ? err->msg : "");
	buf_init(&out);
	memset(&fig, 0, sizeof fig);
	err = generate_script("test", &job, "mbsbatch gen", true, &fig, &out,
	    NULL);
	ck_assert_msg(err == NULL, "%s: %s", file, err ? err->msg : "");
	jobdesc_init(&jd);
	/* Lenient: --segment is sbatch's to read. */
	err = sbatch_directives_parse(file, out.data, 1, &jd);
	ck_assert_msg(err == NULL, "%s: %s", file, err ? err->msg : "");
	for (k = 0; k < fig.slurm.n; k++)
		expect_read(file, &fig.slurm.d[k], &jd);
	expect_nothing_else(file, &fig.slurm, &jd);
	jobdesc_release(&jd);
	buf_release(&out);
	job_release(&job);
	job_request_release(&req);
}

START_TEST(test_round_trip)
{
	glob_t	 g;
	size_t	 i;

	setenv("HOME", "/nonexistent", 1);
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	unsetenv("MBSBATCH_TEMPLATE_PATH");
	ck_assert_int_eq(glob(TEST_DATA "/../../examples/*.json", 0, NULL,
	    &g), 0);
	ck_assert_uint_gt(g.gl_pathc, 0);
	for (i = 0; i < g.gl_pathc; i++)
		round_trip(g.gl_pathv[i]);
	globfree(&g);
}
END_TEST

/*
 * sbatch's lexer (get_argument(), src/sbatch/opt.c), for every byte C
 * between two words: white space is isspace() of the C locale (sbatch
 * never calls setlocale), '\n' ends the line, '#' starts a comment, a
 * quote opens a string (here unterminated), a backslash escapes the '-'
 * after it; any other byte is part of the word.
 */
START_TEST(test_lexer_bytes)
{
	char		 s[64];
	struct error	*err;
	int		 c = _i + 1;

	snprintf(s, sizeof s, "#!/bin/sh\n#SBATCH -J a%c--time=5\n", c);
	err = parse(s);
	if (c == '"' || c == '\'') {
		ck_assert_msg(err != NULL, "byte %d accepted", c);
		ck_assert_str_eq(err->msg, "script 't.sbatch': line 2: "
		    "#SBATCH: unterminated quote");
		error_free(err);
		return;
	}
	ck_assert_msg(err == NULL, "byte %d: %s", c, err ? err->msg : "");
	if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r') {
		ck_assert_str_eq(d.name, "a");
		ck_assert_int_eq(d.time_minutes, 5);
	} else if (c == '\n' || c == '#') {
		ck_assert_str_eq(d.name, "a");
		ck_assert_int_eq(d.time_minutes, -1);
	} else if (c == '\\') {
		ck_assert_str_eq(d.name, "a--time=5");
	} else {
		snprintf(s, sizeof s, "a%c--time=5", c);
		ck_assert_str_eq(d.name, s);
		ck_assert_int_eq(d.time_minutes, -1);
	}
}
END_TEST

/* Where sbatch stops reading a line, and what it takes from the next. */
START_TEST(test_lexer_lines)
{
	/* A CR inside a line is white space (issue 24). */
	ok("#!/bin/sh\n#SBATCH --nodes=2\r--time=5\r \n");
	ck_assert_int_eq(d.nodes_min, 2);
	ck_assert_int_eq(d.time_minutes, 5);
	/* A line that is only white space (\r, \f) is passed over. */
	ok("#!/bin/sh\n\r \n\f\n#SBATCH -N 3\n");
	ck_assert_int_eq(d.nodes_min, 3);
	/* An empty argument ends the line. */
	ok("#!/bin/sh\n#SBATCH -J x \"\" --time=5\n#SBATCH -N 2\n");
	ck_assert_str_eq(d.name, "x");
	ck_assert_int_eq(d.time_minutes, -1);
	ck_assert_int_eq(d.nodes_min, 2);
	/* So does the word hetjob or packjob (blanked out), not a word
	 * holding it. */
	ok("#!/bin/sh\n#SBATCH -J my-packjob hetjob -N 2\n");
	ck_assert_str_eq(d.name, "my-packjob");
	ck_assert_int_eq(d.nodes_min, 0);
	/* A backslash before a space in quotes is a space in every
	 * release. */
	ok("#!/bin/sh\n#SBATCH -J \"a\\ b\\\"c\"\n");
	ck_assert_str_eq(d.name, "a b\"c");
	/* The words of all lines are one argv: a value on the next line. */
	ok("#!/bin/sh\n#SBATCH --job-name\n#SBATCH -N\n#SBATCH -p x\n");
	ck_assert_str_eq(d.name, "-N");
	ck_assert_int_eq(d.nodes_min, 0);
	ck_assert_str_eq(d.partition, "x");
	ok("#!/bin/sh\n#SBATCH -J\n#SBATCH name -N 2\n");
	ck_assert_str_eq(d.name, "name");
	ck_assert_int_eq(d.nodes_min, 2);
	/* Short options as getopt() reads them. */
	ok("#!/bin/sh\n#SBATCH -HN2 -J=x\n");
	ck_assert(d.hold);
	ck_assert_int_eq(d.nodes_min, 2);
	ck_assert_str_eq(d.name, "=x");
	/* "--" ends the options; nothing may follow. */
	ok("#!/bin/sh\n#SBATCH -N 2 --\n");
	ck_assert_int_eq(d.nodes_min, 2);
}
END_TEST

/*
 * --mail-type as sbatch's parse_mail_type() reads it (proc_args.c, the
 * same 22.05 to 25.11): ALL is every type but the time limits and
 * ARRAY_TASKS, INVALID_DEPEND included (native's table lacked it); NONE
 * clears what came before it and ends the list; unknown words are passed
 * over, any case.
 */
START_TEST(test_mail_type)
{
	static const int all = SLURMOPT_MAIL_BEGIN | SLURMOPT_MAIL_END |
	    SLURMOPT_MAIL_FAIL | SLURMOPT_MAIL_REQUEUE |
	    SLURMOPT_MAIL_STAGE_OUT | SLURMOPT_MAIL_INVALID_DEPEND;

	ok("#!/bin/sh\n#SBATCH --mail-type=ALL\n");
	ck_assert_int_eq(d.mail_type, all);
	ok("#!/bin/sh\n#SBATCH --mail-type=end,BOGUS,time_limit_50\n");
	ck_assert_int_eq(d.mail_type, SLURMOPT_MAIL_END | SLURMOPT_MAIL_TIME50);
	ok("#!/bin/sh\n#SBATCH --mail-type=BEGIN,NONE,END\n");
	ck_assert_int_eq(d.mail_type, 0);
	ok("#!/bin/sh\n#SBATCH --mail-type=,,array_tasks,\n");
	ck_assert_int_eq(d.mail_type, SLURMOPT_MAIL_ARRAY_TASKS);
	/* The lines, kept apart for the release to choose. */
	ok("#!/bin/sh\n#SBATCH --mail-type=FAIL\n#SBATCH --mail-type=END\n");
	ck_assert_int_eq(d.mail_type, SLURMOPT_MAIL_END);
	ck_assert_int_eq(d.mail_type_or, SLURMOPT_MAIL_END | SLURMOPT_MAIL_FAIL);
	ok("#!/bin/sh\n");
	ck_assert_int_eq(d.mail_type, -1);
	ck_assert_int_eq(d.mail_type_or, -1);
}
END_TEST

/*
 * --signal as sbatch's get_signal_opts() and sig_name2num() read it
 * (proc_args.c): R, B, R and ':' in that order, any case; a name any
 * case with or without SIG, or a number taken as 16 bits; seconds by
 * strtol(), 0 to 65535, none after '@' being 0.
 */
static const struct {
	const char	*v;
	int		 num, time;
	bool		 batch;
	int		 since;
} signals[] = {
	{ "usr1@5", SIGUSR1, 5, false, 0 },
	{ "B:sigterm", SIGTERM, 60, true, 0 },
	{ "bTERM", SIGTERM, 60, true, 0 },
	{ "SIGUSR2@+7", SIGUSR2, 7, false, 0 },
	{ "10@", 10, 0, false, 0 },
	{ " 12 @65535", 12, 65535, false, 0 },
	{ "Abrt", SIGABRT, 60, false, 0 },
	{ "pipe", SIGPIPE, 60, false, 2311 },
	{ "B:CHLD@9", SIGCHLD, 9, true, 2311 },
	{ "65546", 10, 60, false, 0 },		/* (uint16_t)65546 */
};

START_TEST(test_signal)
{
	char	 s[128];

	snprintf(s, sizeof s, "#!/bin/sh\n#SBATCH --signal='%s'\n",
	    signals[_i].v);
	ok(s);
	ck_assert_int_eq(d.signal_num, signals[_i].num);
	ck_assert_int_eq(d.signal_time, signals[_i].time);
	ck_assert_int_eq(d.signal_batch, signals[_i].batch);
	ck_assert_int_eq(d.signal_since, signals[_i].since);
}
END_TEST

/* The flags of every --signal add up (arg_set_signal()). */
START_TEST(test_signal_flags)
{
	char *const	 env[] = { "SBATCH_SIGNAL=USR2@3", NULL };

	ok("#!/bin/sh\n#SBATCH --signal=B:USR1@9\n#SBATCH --signal=TERM\n");
	ck_assert_int_eq(d.signal_num, SIGTERM);
	ck_assert_int_eq(d.signal_time, 60);
	ck_assert(d.signal_batch);
	ok_env("#!/bin/sh\n#SBATCH --signal=B:USR1@9\n", env);
	ck_assert_int_eq(d.signal_num, SIGUSR2);
	ck_assert_int_eq(d.signal_time, 3);
	ck_assert(d.signal_batch);
}
END_TEST

static const char *const bad_signals[] = {
	"BUS", "XFSZ", "XFSZ@60", "WINCH", "USR1@65536", "USR1@-1",
	"USR1@5s", "0", "65536", "USR1 x", ":", "BB:TERM",
};

START_TEST(test_signal_bad)
{
	char		 s[128];
	struct error	*err;

	snprintf(s, sizeof s, "#!/bin/sh\n#SBATCH --signal='%s'\n",
	    bad_signals[_i]);
	err = parse(s);
	ck_assert_msg(err != NULL, "%s accepted", bad_signals[_i]);
	ck_assert_ptr_nonnull(strstr(err->msg, "is not a signal sbatch "
	    "takes"));
	error_free(err);
}
END_TEST

/*
 * What the reader takes is what a setting takes (one parser,
 * slurmopt_signal_parse()), in the same words, but for R, which a job
 * description cannot carry: a script from gen is read back as written.
 */
static const char *const same_signals[] = {
	"USR2@90", "ABRT@60", "XFSZ@60", "usr2", "B:sigterm@5", "10", "64",
	"65", "-1", "CHLD", "pipe@1", "TTIN", "WINCH", "USR2@", "@9", "0",
	"SIGUSR1 @ 7", "USR1@65536",
};

START_TEST(test_signal_same)
{
	const char	*v = same_signals[_i], *why = slurmopt_check_signal(v);
	char		 s[128], r[64];
	struct error	*err;

	snprintf(s, sizeof s, "#!/bin/sh\n#SBATCH --signal='%s'\n", v);
	err = parse(s);
	if (why == NULL)
		ck_assert_msg(err == NULL, "'%s': %s", v, err->msg);
	else if (strstr(why, "above 64") != NULL)
		ck_assert_ptr_nonnull(strstr(err->msg, "cannot be sent "
		    "(1 to 64)"));
	else
		ck_assert_msg(err != NULL && strstr(err->msg, why) != NULL,
		    "'%s': %s", v, err != NULL ? err->msg : "accepted");
	error_free(err);
	/* R: taken as a setting, not sendable. */
	snprintf(r, sizeof r, "R%s", v);	/* the colon is optional */
	snprintf(s, sizeof s, "#!/bin/sh\n#SBATCH --signal='%s'\n", r);
	err = parse(s);
	ck_assert_ptr_nonnull(err);
	if (why == NULL) {
		ck_assert_ptr_null(slurmopt_check_signal(r));
		ck_assert_ptr_nonnull(strstr(err->msg, "the R (reservation) "
		    "flag cannot be sent"));
	}
	error_free(err);
}
END_TEST

/* #SLURM lines are read too, with sbatch's error message as a warning. */
START_TEST(test_slurm_magic)
{
	ok_env("#!/bin/sh\n#SLURM -N 2\n#SLURM--time=5\n#SBATCH -p x\n", NULL);
	ck_assert_int_eq(d.nodes_min, 2);
	ck_assert_int_eq(d.time_minutes, 5);
	ck_assert_str_eq(d.partition, "x");
	ck_assert_int_eq(nwarnings(), 1);
	ck_assert_str_eq(w[0], "script 't.sbatch': line 2: change #SLURM to "
	    "#SBATCH (sbatch reads it, with an error message)");
}
END_TEST

/* #PBS and #BSUB lines sbatch would not translate. */
START_TEST(test_wrappers)
{
	char *const	 ignore[] = { "SBATCH_IGNORE_PBS=", NULL };
	struct buf	 b;
	int		 i;

	ok("#!/bin/sh\n#SBATCH --ignore-pbs\n#PBS -N x\n");
	ok_env("#!/bin/sh\n#PBS -N x\n", ignore);
	/* Without options there is nothing to translate... */
	ok("#!/bin/sh\n#PBS\n#PBS # -N x\n");
	/* ...but a #BSUB line, even empty, means no #PBS. */
	ok("#!/bin/sh\n#BSUB\n#PBS -N x\n");
	/* Not looked for after 100 lines not starting with '#'. */
	buf_init(&b);
	buf_adds(&b, "#!/bin/sh\n");
	for (i = 0; i < 101; i++)
		buf_adds(&b, "true\n");
	buf_adds(&b, "#PBS -N x\n");
	ok(b.data);
	buf_release(&b);
	/* Lenient: sbatch reads them itself. */
	ck_assert_ptr_null(parse_env("#!/bin/sh\n#PBS -N x\n", NULL, 1));
}
END_TEST

/*
 * sbatch's options by release (slurm_opt.c of each): --extra from
 * 23.02, --export-file gone in 23.11 only, --power gone after 23.11,
 * --consolidate-segments only in 25.11; a release between two listed
 * takes the earlier one's list.
 */
START_TEST(test_sbatch_options)
{
	const struct sbatch_option	*o;

	ck_assert_ptr_nonnull(o = sbatch_option_find("extra", 5));
	ck_assert(!sbatch_option_in(o, 2205));
	ck_assert(sbatch_option_in(o, 2302));
	ck_assert(sbatch_option_in(o, 0));
	ck_assert_int_eq(sbatch_option_since(o, 2205), 2302);
	ck_assert_ptr_nonnull(o = sbatch_option_find("export-file", 11));
	ck_assert(sbatch_option_in(o, 2302));
	ck_assert(!sbatch_option_in(o, 2311));
	ck_assert(sbatch_option_in(o, 2405));
	ck_assert_ptr_nonnull(o = sbatch_option_find("power", 5));
	ck_assert(sbatch_option_in(o, 2311));
	ck_assert(!sbatch_option_in(o, 2411));
	ck_assert_int_eq(sbatch_option_since(o, 2411), 0);
	ck_assert_ptr_nonnull(o = sbatch_option_find("consolidate-segments",
	    20));
	ck_assert(!sbatch_option_in(o, 2505));
	ck_assert(sbatch_option_in(o, 2511));
	ck_assert(sbatch_option_in(o, 2605));
	ck_assert_ptr_nonnull(o = sbatch_option_find("nice", 4));
	ck_assert_int_eq(o->arg, SA_OPTIONAL);
	ck_assert_ptr_null(sbatch_option_find("nic", 3));
	ck_assert_str_eq(sbatch_option_suggest("licences"), "licenses");
}
END_TEST

static const char release_script[] = "#!/bin/sh\n#SBATCH --nodes=1\n"
    "#SBATCH --nice=3 --extra=x\n#SBATCH --my-spank-opt=1 -p a\ntrue\n";

START_TEST(test_check_release)
{
	struct error	*err;

	ck_assert_ptr_null(sbatch_directives_check_release("s",
	    release_script, 2302));
	ck_assert_ptr_null(sbatch_directives_check_release("s",
	    release_script, 0));
	err = sbatch_directives_check_release("s", release_script, 2205);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "script 's': line 3: --extra=x: sbatch of "
	    "Slurm 22.05 does not take it (from 23.02 on)");
	ck_assert_int_eq(err->status, EXIT_USAGE);
	error_free(err);
	err = sbatch_directives_check_release("s",
	    "#!/bin/sh\n#SBATCH --power=x\n", 2511);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "script 's': line 2: --power=x: sbatch of "
	    "Slurm 25.11 no longer takes it");
	error_free(err);
}
END_TEST

static Suite *
directives_suite(void)
{
	Suite	*s = suite_create("directives");
	TCase	*tc = tcase_create("parse");

	jobdesc_init(&d);
	tcase_add_test(tc, test_gen_directives);
	tcase_add_test(tc, test_hand_written);
	tcase_add_test(tc, test_typed_gpus);
	tcase_add_loop_test(tc, test_times, 0, sizeof times / sizeof times[0]);
	tcase_add_loop_test(tc, test_bad, 0, sizeof bad / sizeof bad[0]);
	tcase_add_test(tc, test_lenient);
	tcase_add_test(tc, test_carried);
	tcase_add_test(tc, test_examples);
	tcase_add_test(tc, test_export_replaced);
	tcase_add_loop_test(tc, test_lexer_bytes, 0, 255);
	tcase_add_test(tc, test_lexer_lines);
	tcase_add_test(tc, test_slurm_magic);
	tcase_add_test(tc, test_mail_type);
	tcase_add_loop_test(tc, test_signal, 0, sizeof signals /
	    sizeof signals[0]);
	tcase_add_loop_test(tc, test_signal_bad, 0, sizeof bad_signals /
	    sizeof bad_signals[0]);
	tcase_add_test(tc, test_signal_flags);
	tcase_add_loop_test(tc, test_signal_same, 0, sizeof same_signals /
	    sizeof same_signals[0]);
	tcase_add_test(tc, test_wrappers);
	suite_add_tcase(s, tc);

	tc = tcase_create("environment");
	tcase_add_test(tc, test_env_strings);
	tcase_add_test(tc, test_env_numbers);
	tcase_add_test(tc, test_env_flags);
	tcase_add_test(tc, test_env_precedence);
	tcase_add_test(tc, test_env_ignored);
	tcase_add_loop_test(tc, test_env_bad, 0,
	    sizeof bad_env / sizeof bad_env[0]);
	tcase_add_test(tc, test_env_lenient);
	suite_add_tcase(s, tc);

	tc = tcase_create("corrections");
	tcase_add_loop_test(tc, test_corrections, 0,
	    sizeof corrections / sizeof corrections[0]);
	tcase_add_test(tc, test_corrections_env);
	suite_add_tcase(s, tc);

	tc = tcase_create("sbatch's options");
	tcase_add_test(tc, test_sbatch_options);
	tcase_add_test(tc, test_check_release);
	suite_add_tcase(s, tc);

	tc = tcase_create("round trip");
	tcase_add_test(tc, test_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(directives_suite());
}
