/*
 * check_slurmopt.c: a job's Slurm options (src/slurm/slurmopt.c): the
 * directives slurmopt_compute() writes, in order and with their origins,
 * for the GPU-type defaults, --requeue and NVL72 racks; --segment; and
 * each check of a value in Slurm's own syntax (time, memory, signal,
 * dependency, names, constraints, text) with values on both sides of it,
 * and the conversions to minutes, MiB and signal numbers at their bounds.
 */
#include <check.h>
#include <ctype.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurmopt.h"
#include "run.h"

static struct slurmopt	 o;
static struct settings	 set;	/* the values given; borrowed strings */

/* Setting ID given as V (NULL: not given). */
static void
given(enum setting_id id, const char *v)
{
	set.v[id].origin = v != NULL ? ORIGIN_CLI : ORIGIN_UNSET;
	set.v[id].s = (char *)v;
}

static void
given_tri(enum setting_id id, enum tristate t)
{
	set.v[id].origin = t != TRI_UNSET ? ORIGIN_CLI : ORIGIN_UNSET;
	set.v[id].b = t == TRI_ON;
}

/* Two nodes of eight GPUs, nothing given but the job name. */
static void
input_init(struct slurmopt_input *in)
{
	memset(in, 0, sizeof *in);
	memset(&set, 0, sizeof set);
	in->set = &set;
	in->nodes = 2;
	in->tasks_per_node = 8;
	in->gpus_per_node = 8;
	in->nvlink_domain = 8;
	in->job_name = "llama3-8b";
}

/* The directives of O are exactly WANT ("option" or "option=value"). */
static void
expect(const char *const *want, int n)
{
	const char	*v;
	char		 got[128], num[32];
	int		 i;

	for (i = 0; i < o.n && i < n; i++) {
		v = slurmopt_value(&o.d[i], num, sizeof num);
		if (v != NULL)
			snprintf(got, sizeof got, "%s=%s", o.d[i].option, v);
		else
			snprintf(got, sizeof got, "%s", o.d[i].option);
		ck_assert_str_eq(got, want[i]);
	}
	ck_assert_int_eq(o.n, n);
}

#define EXPECT(...) do {						\
	const char *const w_[] = { __VA_ARGS__ };			\
	expect(w_, (int)(sizeof w_ / sizeof w_[0]));			\
} while (0)

static const char *
origin(const char *option)
{
	int	 i;

	for (i = 0; i < o.n; i++)
		if (strcmp(o.d[i].option, option) == 0)
			return o.d[i].origin;
	ck_abort_msg("no directive %s", option);
	return NULL;
}

static bool
number(const char *option)
{
	int	 i;

	for (i = 0; i < o.n; i++)
		if (strcmp(o.d[i].option, option) == 0)
			return o.d[i].is_number;
	ck_abort_msg("no directive %s", option);
	return false;
}

/* Nothing given: the sizing's figures, the job name and the log file. */
START_TEST(test_minimal)
{
	struct slurmopt_input	 in;

	input_init(&in);
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=8",
	    "gpus-per-node=8", "output=logs/%x-%j.out");
	ck_assert_str_eq(origin("job-name"),
	    "default: the model, else the recipe");
	ck_assert_str_eq(origin("nodes"), "sizing");
	ck_assert_str_eq(origin("output"),
	    "default: logs/ by job name and id");
	ck_assert(number("nodes"));
	ck_assert(number("ntasks-per-node"));
	ck_assert(number("gpus-per-node"));
	ck_assert(!number("job-name"));
	ck_assert(!number("output"));
	ck_assert_str_eq(o.trap_signal, "");

	given(SET_JOB_NAME, "llama3-8b");
	slurmopt_compute(&in, &o);
	ck_assert_str_eq(origin("job-name"), "given");
}
END_TEST

/*
 * Tasks per node: 0 (uneven) writes no --ntasks-per-node and every GPU
 * of the node; fewer tasks than GPUs ask for as many GPUs as tasks.
 */
START_TEST(test_tasks)
{
	struct slurmopt_input	 in;

	input_init(&in);
	in.nodes = 3;
	in.tasks_per_node = 0;
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=3", "gpus-per-node=8",
	    "output=logs/%x-%j.out");

	in.nodes = 1;
	in.tasks_per_node = 4;
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=1", "ntasks-per-node=4",
	    "gpus-per-node=4", "output=logs/%x-%j.out");
}
END_TEST

/* A known GPU type: whole nodes and all their memory, unless given. */
START_TEST(test_gpu_defaults)
{
	struct slurmopt_input	 in;

	input_init(&in);
	in.gpu_type = "h100";
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=8",
	    "gpus-per-node=8", "output=logs/%x-%j.out", "exclusive", "mem=0");
	ck_assert_str_eq(slurmopt_get(&o, "exclusive"), "");
	ck_assert_str_eq(origin("exclusive"),
	    "default for a GPU type: whole nodes");
	ck_assert_str_eq(origin("mem"), "default for a GPU type: all memory");

	given_tri(SET_EXCLUSIVE, TRI_OFF);
	given(SET_MEM, "500G");
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=8",
	    "gpus-per-node=8", "output=logs/%x-%j.out", "mem=500G");
	ck_assert_str_eq(origin("mem"), "given");

	/* Without a GPU type only what is given. */
	in.gpu_type = NULL;
	given_tri(SET_EXCLUSIVE, TRI_ON);
	given(SET_MEM, NULL);
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=8",
	    "gpus-per-node=8", "output=logs/%x-%j.out", "exclusive");
	ck_assert_str_eq(origin("exclusive"), "given");
	ck_assert_ptr_null(slurmopt_get(&o, "mem"));
}
END_TEST

/*
 * The site's GRES type (gres_types) and form (gpu_request): typed
 * --gpus-per-node=TYPE:N, or --gres=gpu:[TYPE:]N in the same place,
 * and fewer GPUs than a node's when the job has fewer tasks.
 */
START_TEST(test_gpu_request)
{
	struct slurmopt_input	 in;

	input_init(&in);
	in.gres_type = "nvidia_h100_80gb_hbm3";
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=8",
	    "gpus-per-node=nvidia_h100_80gb_hbm3:8", "output=logs/%x-%j.out");
	ck_assert(!number("gpus-per-node"));
	ck_assert_str_eq(origin("gpus-per-node"),
	    "sizing; the type from gres_types");

	in.gpu_request = GPU_REQUEST_GRES;
	in.tasks_per_node = 4;
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=4",
	    "gres=gpu:nvidia_h100_80gb_hbm3:4", "output=logs/%x-%j.out");
	ck_assert_str_eq(origin("gres"), "sizing; the type from gres_types, "
	    "the form from gpu_request");

	in.gres_type = NULL;
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=4",
	    "gres=gpu:4", "output=logs/%x-%j.out");
	ck_assert_str_eq(origin("gres"), "sizing; the form from gpu_request");
}
END_TEST

/* Every option given: each in the order the script carries them. */
START_TEST(test_order)
{
	struct slurmopt_input	 in;

	input_init(&in);
	given(SET_PARTITION, "batch");
	given(SET_ACCOUNT, "proj");
	given(SET_QOS, "high");
	given(SET_TIME, "4:00:00");
	given(SET_OUTPUT, "out/%j.log");
	given(SET_ERROR, "out/%j.err");
	given_tri(SET_EXCLUSIVE, TRI_ON);
	given(SET_MEM, "0");
	given(SET_CONSTRAINT, "ib&a100");
	given(SET_RESERVATION, "maint");
	given(SET_DEPENDENCY, "afterok:42");
	given(SET_SIGNAL, "USR2@90");
	in.hold = true;
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=8",
	    "gpus-per-node=8", "partition=batch", "account=proj", "qos=high",
	    "time=4:00:00", "output=out/%j.log", "error=out/%j.err",
	    "exclusive", "mem=0", "constraint=ib&a100", "reservation=maint",
	    "dependency=afterok:42", "signal=USR2@90", "hold");
	ck_assert_str_eq(origin("output"), "given");
	ck_assert_str_eq(origin("signal"), "given");
	/* Without --requeue the batch shell traps nothing. */
	ck_assert_str_eq(o.trap_signal, "");
	ck_assert_str_eq(slurmopt_get(&o, "hold"), "");
	ck_assert_ptr_null(slurmopt_get(&o, "requeue"));
	ck_assert_ptr_null(slurmopt_get(&o, "segment"));
}
END_TEST

/*
 * --requeue: the signal goes to the batch shell ("B:" added, "R:" made
 * "RB:", the seconds spelled out), a name by its name in Slurm's table,
 * a number as its number; the trap and scancel get a name every release
 * knows, else the number; Bridge its number.  The log is appended to.
 */
static const struct {
	const char	*given;		/* --signal, or NULL */
	const char	*written, *trap;
	int		 num;
} requeue[] = {
	{ NULL, "B:TERM@60", "TERM", SIGTERM },
	{ "USR2@90", "B:USR2@90", "USR2", SIGUSR2 },
	{ "B:USR1@120", "B:USR1@120", "USR1", SIGUSR1 },
	{ "SIGTERM@30", "B:TERM@30", "TERM", SIGTERM },
	{ "R:SIGUSR1@120", "RB:USR1@120", "USR1", SIGUSR1 },
	{ "RB:TERM", "RB:TERM@60", "TERM", SIGTERM },
	{ "BR:USR2@60", "RB:USR2@60", "USR2", SIGUSR2 },
	{ "rb:usr2", "RB:USR2@60", "USR2", SIGUSR2 },
	{ "10@30", "B:10@30", "USR1", SIGUSR1 },
	{ " sigusr2 @ 9", "B:USR2@9", "USR2", SIGUSR2 },
	{ "ABRT@5", "B:ABRT@5", "ABRT", SIGABRT },
	/* 22.05's scancel knows no CHLD: the trap's is the number. */
	{ "chld@5", "B:CHLD@5", "17", SIGCHLD },
	{ "17@5", "B:17@5", "17", SIGCHLD },
	{ "28", "B:28@60", "28", 28 },		/* WINCH: no Slurm name */
};

START_TEST(test_requeue)
{
	struct slurmopt_input	 in;

	input_init(&in);
	given_tri(SET_REQUEUE, TRI_ON);
	given(SET_SIGNAL, requeue[_i].given);
	slurmopt_compute(&in, &o);
	{
		char	 sig[64];

		snprintf(sig, sizeof sig, "signal=%s", requeue[_i].written);
		EXPECT("job-name=llama3-8b", "nodes=2", "ntasks-per-node=8",
		    "gpus-per-node=8", "output=logs/%x-%j.out", sig,
		    "requeue", "open-mode=append");
	}
	ck_assert_str_eq(o.trap_signal, requeue[_i].trap);
	ck_assert_int_eq(o.trap_num, requeue[_i].num);
	ck_assert_str_eq(origin("signal"), requeue[_i].given == NULL ?
	    "default for --requeue" :
	    "given, sent to the batch shell for --requeue");
	ck_assert_str_eq(origin("open-mode"),
	    "--requeue: every attempt's log is kept");
}
END_TEST

/* --requeue off is no --requeue: the signal as given. */
START_TEST(test_requeue_off)
{
	struct slurmopt_input	 in;

	input_init(&in);
	given_tri(SET_REQUEUE, TRI_OFF);
	given(SET_SIGNAL, "R:USR2@90");
	slurmopt_compute(&in, &o);
	ck_assert_str_eq(slurmopt_get(&o, "signal"), "R:USR2@90");
	ck_assert_ptr_null(slurmopt_get(&o, "requeue"));
	ck_assert_ptr_null(slurmopt_get(&o, "open-mode"));
	ck_assert_str_eq(o.trap_signal, "");
}
END_TEST

/* --segment: the nodes up to 18, else the largest divisor <= 18. */
static const struct {
	int64_t	 nodes, segment;
} segments[] = {
	{ 1, 1 }, { 2, 2 }, { 17, 17 }, { 18, 18 },
	{ 19, 1 },		/* prime: one node a segment */
	{ 20, 10 }, { 24, 12 }, { 34, 17 }, { 36, 18 }, { 38, 2 },
	{ 54, 18 }, { 100, 10 }, { 144, 18 },
};

START_TEST(test_segment)
{
	ck_assert_int_eq(slurmopt_segment(segments[_i].nodes),
	    segments[_i].segment);
}
END_TEST

/* Written on 4-GPU nodes in NVL72 domains only, after the Slurm options. */
START_TEST(test_segment_directive)
{
	struct slurmopt_input	 in;

	input_init(&in);
	in.nodes = 36;
	in.tasks_per_node = 4;
	in.gpus_per_node = 4;
	in.nvlink_domain = 72;
	in.gpu_type = "gb200";
	in.hold = true;
	slurmopt_compute(&in, &o);
	EXPECT("job-name=llama3-8b", "nodes=36", "ntasks-per-node=4",
	    "gpus-per-node=4", "output=logs/%x-%j.out", "exclusive", "mem=0",
	    "segment=18", "hold");
	ck_assert(number("segment"));
	ck_assert_str_eq(origin("segment"), "default on NVL72: one rack");

	in.nodes = 20;
	slurmopt_compute(&in, &o);
	ck_assert_int_eq(slurmopt_find_directive(&o, "segment")->number, 10);

	/* Eight GPUs a node, or a domain of one node: no segment. */
	in.gpus_per_node = 8;
	in.tasks_per_node = 8;
	slurmopt_compute(&in, &o);
	ck_assert_ptr_null(slurmopt_get(&o, "segment"));
	in.gpus_per_node = 4;
	in.tasks_per_node = 4;
	in.nvlink_domain = 4;
	slurmopt_compute(&in, &o);
	ck_assert_ptr_null(slurmopt_get(&o, "segment"));
}
END_TEST

/* A check's verdict: NULL for good, else the reason WHY. */
struct verdict {
	const char	*value;
	const char	*why;
};

#define TIME_WHY	"is not a Slurm time (MINUTES, MM:SS, HH:MM:SS, " \
	"D-HH, D-HH:MM, D-HH:MM:SS or UNLIMITED)"
static const struct verdict times[] = {
	{ "0", NULL }, { "90", NULL }, { "30:00", NULL }, { "1:00:00", NULL },
	{ "1-0", NULL }, { "1-12", NULL }, { "1-12:30", NULL },
	{ "2-00:00:00", NULL }, { "UNLIMITED", NULL }, { "unlimited", NULL },
	{ "INFINITE", NULL },
	{ "", TIME_WHY }, { "abc", TIME_WHY }, { "1h", TIME_WHY },
	{ "-1", TIME_WHY }, { "1-", TIME_WHY }, { "1:", TIME_WHY },
	{ ":30", TIME_WHY }, { "1:2:3:4", TIME_WHY }, { "1-2:3:4:5", TIME_WHY },
	{ "1-2-3", TIME_WHY }, { "1::2", TIME_WHY }, { " 90", TIME_WHY },
	{ "90 ", TIME_WHY }, { "1.5", TIME_WHY },
};

#define MEM_WHY		"is not a memory size (a number with K, M, G or T)"
static const struct verdict mems[] = {
	{ "0", NULL }, { "4096", NULL }, { "1K", NULL }, { "512M", NULL },
	{ "500G", NULL }, { "500g", NULL }, { "16T", NULL },
	{ "1000000T", NULL },
	{ "1000001T", "is too large (at most 1000000T)" },
	{ "100000000000000M", "is too large (at most 1000000T)" },
	{ "", MEM_WHY }, { "G", MEM_WHY }, { "1.5G", MEM_WHY },
	{ "1GB", MEM_WHY }, { "-1", MEM_WHY }, { "1 G", MEM_WHY },
	{ "1P", MEM_WHY },
};

/*
 * --signal: what sbatch takes (tests/slurm/signals.sh holds the same
 * rules against sbatch of each release), and not above signal 64.  The
 * names: test_signal_names.
 */
#define SIGNAL_WHY	"is not a signal sbatch takes ([B:]SIGNAL[@SECONDS], " \
	"such as USR2@90 or B:TERM@60; SIGNAL a number or HUP INT QUIT ABRT " \
	"KILL ALRM TERM USR1 USR2 URG CONT STOP TSTP TTIN TTOU XCPU, from " \
	"Slurm 23.11 on CHLD PIPE)"
#define SIGNAL_HIGH	"names a signal above 64, which cannot be sent"
static const struct verdict signals[] = {
	{ "USR2", NULL }, { "USR2@90", NULL }, { "B:TERM@60", NULL },
	{ "R:USR1", NULL }, { "RB:SIGUSR1@120", NULL }, { "BR:TERM", NULL },
	{ "SIGTERM", NULL }, { "10", NULL }, { "B:10@30", NULL },
	{ "XCPU@5", NULL }, { "ABRT@60", NULL }, { "TTIN", NULL },
	{ "TTOU@1", NULL }, { "ALRM", NULL },
	/* Any case, SIG or not, white space around, no colon needed. */
	{ "usr2", NULL }, { "b:sigterm", NULL }, { "bTERM", NULL },
	{ "rbUSR1", NULL }, { " USR2 @ 9", NULL }, { "Sig_x", SIGNAL_WHY },
	{ "USR2\t", NULL },
	/* The seconds: strtol()'s, 0 to 65535; "@" alone is 0. */
	{ "USR2@", NULL }, { "USR2@+7", NULL }, { "USR2@65535", NULL },
	{ "USR2@65536", SIGNAL_WHY }, { "TERM@-1", SIGNAL_WHY },
	{ "USR2@x", SIGNAL_WHY }, { "USR2@90x", SIGNAL_WHY },
	{ "USR2@9@9", SIGNAL_WHY }, { "@90", SIGNAL_WHY },
	/* Numbers: 16 bits of strtol()'s; 0 is none, above 64 no signal. */
	{ "64", NULL }, { "65", SIGNAL_HIGH }, { "65536", SIGNAL_WHY },
	{ "65537", NULL }, { "-1", SIGNAL_HIGH }, { "0", SIGNAL_WHY },
	{ "1x", SIGNAL_WHY },
	/* Names of a later release: the release is checked elsewhere. */
	{ "CHLD", NULL }, { "pipe@5", NULL },
	/* Names no release has. */
	{ "XFSZ@60", SIGNAL_WHY }, { "WINCH", SIGNAL_WHY },
	{ "BUS", SIGNAL_WHY }, { "FOO", SIGNAL_WHY },
	{ "", SIGNAL_WHY }, { "B:", SIGNAL_WHY }, { "X:TERM", SIGNAL_WHY },
	{ "SIG", SIGNAL_WHY }, { "B:B:TERM", SIGNAL_WHY },
	{ "BB:TERM", SIGNAL_WHY }, { "::TERM", SIGNAL_WHY },
	{ "USR2 x", SIGNAL_WHY }, { "ABCDEFGHIJKLMNOPQRS", SIGNAL_WHY },
};

#define DEP_WHY		"is not a Slurm dependency (such as afterok:123, " \
	"afterany:123:124 or singleton)"
static const struct verdict dependencies[] = {
	{ "afterok:123", NULL }, { "afterany:123:124", NULL },
	{ "singleton", NULL }, { "after:1+30", NULL }, { "afterok:1_2", NULL },
	{ "aftercorr:7", NULL }, { "afterburstbuffer:9", NULL },
	{ "afternotok:5", NULL }, { "afterok:1,afterany:2", NULL },
	{ "afterok:1?afternotok:2", NULL }, { "singleton,afterok:5", NULL },
	{ "", DEP_WHY }, { "afterok", DEP_WHY }, { "afterok:", DEP_WHY },
	{ "afterok:x", DEP_WHY }, { "before:1", DEP_WHY },
	{ "singletonx", DEP_WHY }, { "afterok:1,", DEP_WHY },
	{ "afterok:1 ", DEP_WHY }, { "AFTEROK:1", DEP_WHY },
	{ "afterok:1_", DEP_WHY }, { "after:1+", DEP_WHY },
	{ "afterok::1", DEP_WHY }, { "123", DEP_WHY },
};

#define NAME_WHY	"is not a Slurm name (letters, digits, '_', '.', " \
	"'-'; ',' between names)"
static const struct verdict names[] = {
	{ "gpu", NULL }, { "a100_x.y-z", NULL }, { "p1,p2", NULL },
	{ "", "is empty" }, { "gpu part", NAME_WHY }, { "gpu/x", NAME_WHY },
	{ "gpu;rm", NAME_WHY }, { "gpu\n", NAME_WHY }, { "$USER", NAME_WHY },
};

#define CONSTRAINT_WHY	"is not a Slurm constraint (features joined by " \
	"& | , with [ ] ( ) and *COUNT)"
static const struct verdict constraints[] = {
	{ "a100&ib", NULL }, { "[rack1|rack2]", NULL }, { "gpu*2", NULL },
	{ "(a|b)&c", NULL }, { "nvme:1", NULL }, { "!slow", NULL },
	{ "", "is empty" }, { "a b", CONSTRAINT_WHY },
	{ "a;b", CONSTRAINT_WHY }, { "a=b", CONSTRAINT_WHY },
	{ "a'b", CONSTRAINT_WHY },
};

static const struct verdict texts[] = {
	{ "logs/%x-%j.out", NULL }, { "my job 'one'", NULL },
	{ "", "is empty" },
	{ "a\nb", "contains a newline, which an #SBATCH line cannot carry" },
	{ "a\rb", "contains a newline, which an #SBATCH line cannot carry" },
	{ "x-PackJob-y", "contains 'packjob', which sbatch blanks out of "
	  "#SBATCH lines" },
};

#define HOSTLIST_WHY	"is not a Slurm node list (names and ranges such as " \
	"gpu[01-04],gpu07)"
static const struct verdict hostlists[] = {
	{ "gpu07", NULL }, { "gpu[01-04],gpu07", NULL },
	{ "rack1-n[001-004,010]", NULL }, { "n1.cluster", NULL },
	{ "", "is empty" },
	/* sbatch would read a file of names: no other back end can. */
	{ "/etc/nodes", HOSTLIST_WHY }, { "./nodes", HOSTLIST_WHY },
	{ "a b", HOSTLIST_WHY }, { "a;b", HOSTLIST_WHY },
	{ "n[1-2", "has an unbalanced '[' or ']'" },
	{ "n1-2]", "has an unbalanced '[' or ']'" },
	{ "n[[1]]", "has an unbalanced '[' or ']'" },
};

#define GRES_WHY	"is not a GRES type (letters, digits and _ . + -, " \
			"such as nvidia_h100_80gb_hbm3)"
static const struct verdict gres_types[] = {
	{ "nvidia_h100_80gb_hbm3", NULL }, { "tesla", NULL },
	{ "3g.20gb", NULL }, { "a100-sxm4+x", NULL },
	{ "", "is empty" }, { "8", "is a number, which Slurm would read as "
	  "a count" },
	{ "a:b", GRES_WHY }, { "a,b", GRES_WHY }, { "a b", GRES_WHY },
	{ "a=b", GRES_WHY }, { "a/b", GRES_WHY },
	{ "a123456789b123456789c123456789d123456789e123456789f123456789g1234",
	  "is longer than 64 characters" },
};

#define MAIL_WHY	"is not a list of mail types (NONE, ALL, BEGIN, END, " \
	"FAIL, REQUEUE, TIME_LIMIT, TIME_LIMIT_90, TIME_LIMIT_80, " \
	"TIME_LIMIT_50, STAGE_OUT, ARRAY_TASKS, INVALID_DEPEND)"
static const struct verdict mail_types[] = {
	{ "END", NULL }, { "begin,end,fail", NULL }, { "ALL", NULL },
	{ "NONE", NULL }, { "TIME_LIMIT_90,ARRAY_TASKS", NULL },
	{ "INVALID_DEPEND", NULL },
	/* sbatch passes over unknown words; a setting must not. */
	{ "BEGN", MAIL_WHY }, { "END,BEGN", MAIL_WHY }, { "", MAIL_WHY },
	{ "END,", MAIL_WHY }, { "TIME=90%", MAIL_WHY },
	{ "END FAIL", MAIL_WHY },
};

static void
verdicts(const char *(*check)(const char *), const struct verdict *v,
    size_t n)
{
	const char	*got;
	size_t		 i;

	for (i = 0; i < n; i++) {
		got = check(v[i].value);
		if (v[i].why == NULL)
			ck_assert_msg(got == NULL, "'%s': %s", v[i].value, got);
		else {
			ck_assert_msg(got != NULL, "'%s' accepted",
			    v[i].value);
			ck_assert_str_eq(got, v[i].why);
		}
	}
}

#define VERDICTS(f, t)	verdicts(f, t, sizeof t / sizeof t[0])

START_TEST(test_check_time)
{
	VERDICTS(slurmopt_check_time, times);
}
END_TEST

START_TEST(test_check_mem)
{
	VERDICTS(slurmopt_check_mem, mems);
}
END_TEST

START_TEST(test_check_signal)
{
	VERDICTS(slurmopt_check_signal, signals);
}
END_TEST

START_TEST(test_check_dependency)
{
	VERDICTS(slurmopt_check_dependency, dependencies);
}
END_TEST

START_TEST(test_check_names)
{
	VERDICTS(slurmopt_check_name, names);
	VERDICTS(slurmopt_check_constraint, constraints);
	VERDICTS(slurmopt_check_text, texts);
	VERDICTS(slurmopt_check_hostlist, hostlists);
	VERDICTS(slurmopt_check_gres_type_name, gres_types);
	VERDICTS(slurmopt_check_mail_type, mail_types);
}
END_TEST

/* Slurm's time_str2mins: seconds round up to a whole minute. */
static const struct {
	const char	*s;
	int64_t		 minutes;
} minutes[] = {
	{ "0", 0 }, { "90", 90 }, { "30:00", 30 }, { "30:01", 31 },
	{ "0:59", 1 }, { "1:00:00", 60 }, { "1:00:01", 61 },
	{ "2:30:00", 150 }, { "1-0", 1440 }, { "1-12", 2160 },
	{ "1-12:30", 2190 }, { "1-12:30:01", 2191 }, { "7-00:00:00", 10080 },
	{ "1000000000", 1000000000 },
};

START_TEST(test_time_minutes)
{
	int64_t	 m = -1;
	bool	 unlimited = true;

	ck_assert_int_eq(slurmopt_time_minutes(minutes[_i].s, &m,
	    &unlimited), 0);
	ck_assert_int_eq(m, minutes[_i].minutes);
	ck_assert(!unlimited);
}
END_TEST

START_TEST(test_time_bounds)
{
	int64_t	 m = -1;
	bool	 unlimited = false;

	ck_assert_int_eq(slurmopt_time_minutes("UNLIMITED", &m, &unlimited),
	    0);
	ck_assert(unlimited);
	ck_assert_int_eq(m, 0);
	ck_assert_int_eq(slurmopt_time_minutes("infinite", &m, &unlimited), 0);
	ck_assert(unlimited);

	/* Not a time; a field past 10^9 (before any overflow). */
	ck_assert_int_eq(slurmopt_time_minutes("1h", &m, &unlimited), -1);
	ck_assert(!unlimited);
	ck_assert_int_eq(slurmopt_time_minutes("1000000010", &m, &unlimited),
	    -1);
	ck_assert_int_eq(slurmopt_time_minutes("99999999999999999999", &m,
	    &unlimited), -1);
	ck_assert_int_eq(slurmopt_time_minutes("99999999999-0", &m,
	    &unlimited), -1);
}
END_TEST

/* MiB, Slurm's default unit; K rounds up. */
static const struct {
	const char	*s;
	int64_t		 mb;
} mb[] = {
	{ "0", 0 }, { "4096", 4096 }, { "512M", 512 }, { "512m", 512 },
	{ "1K", 1 }, { "1024K", 1 }, { "1025K", 2 }, { "2G", 2048 },
	{ "2g", 2048 }, { "1T", 1048576 },
	{ "1000000T", INT64_C(1048576000000) },
	{ "10000000000000M", INT64_C(10000000000000) },
	{ "10000000000000G", INT64_C(10240000000000000) },
};

START_TEST(test_mem_mb)
{
	int64_t	 got = -1;

	ck_assert_int_eq(slurmopt_mem_mb(mb[_i].s, &got), 0);
	ck_assert_int_eq(got, mb[_i].mb);
}
END_TEST

START_TEST(test_mem_bounds)
{
	int64_t	 got = 0;

	ck_assert_int_eq(slurmopt_mem_mb("1000001T", &got), -1);
	ck_assert_int_eq(slurmopt_mem_mb("100000000000000", &got), -1);
	ck_assert_int_eq(slurmopt_mem_mb("99999999999999999999G", &got), -1);
}
END_TEST

/*
 * The names against Slurm's own tables, transcribed from signals_mapping[]
 * of src/common/proc_args.c: 22.05.8 (slurm-22-05-8-1, lines 1177-1195,
 * the same in 23.02) and 23.11 on (slurm-25-11-0-1, lines 1217-1237):
 * each name in any case, with SIG or sig or neither, and white space
 * around, is its number in <signal.h>, known from its release on; every
 * other signal name of Linux is no name in any release.
 */
static const char *const upstream_2205[] = {
	"HUP", "INT", "QUIT", "ABRT", "KILL", "ALRM", "TERM", "USR1", "USR2",
	"URG", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "XCPU",
};
static const char *const upstream_2311[] = {
	"HUP", "INT", "QUIT", "ABRT", "KILL", "ALRM", "TERM", "CHLD", "USR1",
	"USR2", "PIPE", "URG", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "XCPU",
};
static const struct {
	const char	*name;
	int		 num;
} linux_signals[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "ILL", SIGILL }, { "TRAP", SIGTRAP }, { "ABRT", SIGABRT },
	{ "BUS", SIGBUS }, { "FPE", SIGFPE }, { "KILL", SIGKILL },
	{ "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
	{ "TSTP", SIGTSTP }, { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
	{ "URG", SIGURG }, { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
	{ "VTALRM", SIGVTALRM }, { "PROF", SIGPROF }, { "WINCH", SIGWINCH },
	{ "IO", SIGIO }, { "SYS", SIGSYS }, { "IOT", SIGIOT },
	{ "POLL", SIGPOLL }, { "CLD", SIGCHLD }, { "PWR", SIGPWR },
};

static bool
listed(const char *const *list, size_t n, const char *name)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

#define LISTED(l, name)	listed(l, sizeof l / sizeof l[0], name)

/* NAME in form K: as it is, with SIG, with sig in lower case, in white
 * space, with SiG in lower case between a tab and a newline. */
static void
signal_form(char *s, size_t len, const char *name, int k)
{
	char	 lower[16];
	size_t	 i;

	for (i = 0; name[i] != '\0' && i + 1 < sizeof lower; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	lower[i] = '\0';
	switch (k) {
	case 0: snprintf(s, len, "%s", name); break;
	case 1: snprintf(s, len, "SIG%s", name); break;
	case 2: snprintf(s, len, "sig%s", lower); break;
	case 3: snprintf(s, len, " %s ", name); break;
	default: snprintf(s, len, "\tSiG%s\n", lower); break;
	}
}

/* Whether a name of Slurm's has number NUM (IOT is ABRT's). */
static bool
slurm_number(int num)
{
	size_t	 i;

	for (i = 0; i < sizeof linux_signals / sizeof linux_signals[0]; i++)
		if (linux_signals[i].num == num &&
		    LISTED(upstream_2311, linux_signals[i].name))
			return true;
	return false;
}

START_TEST(test_signal_names)
{
	const char	*name = linux_signals[_i].name;
	int		 num = linux_signals[_i].num;
	bool		 in2205 = LISTED(upstream_2205, name);
	bool		 in2311 = LISTED(upstream_2311, name);
	int		 want = in2311 ? num : 0;
	int		 since = -1, k;
	char		 s[32];

	for (k = 0; k < 5; k++) {
		signal_form(s, sizeof s, name, k);
		ck_assert_msg(slurmopt_signal_number(s, &since) == want,
		    "'%s': %d, want %d", s, slurmopt_signal_number(s, NULL),
		    want);
		ck_assert_int_eq(since, in2205 ? 0 : in2311 ? 2311 : 0);
		ck_assert_ptr_eq(slurmopt_check_signal(s), in2311 ? NULL :
		    slurmopt_check_signal("FOO"));
	}
	/* Number to name, per release (sig_num2name()). */
	if (in2311) {
		ck_assert_str_eq(slurmopt_signal_name(num, 0), name);
		ck_assert_str_eq(slurmopt_signal_name(num, 2311), name);
		ck_assert_str_eq(slurmopt_signal_name(num, 2511), name);
		if (in2205)
			ck_assert_str_eq(slurmopt_signal_name(num, 2205),
			    name);
		else
			ck_assert_ptr_null(slurmopt_signal_name(num, 2205));
	} else if (!slurm_number(num))
		ck_assert_ptr_null(slurmopt_signal_name(num, 0));
}
END_TEST

/* Numbers: strtol()'s, white space around, taken as 16 bits by
 * slurmopt_signal_parse(); a name's since; a number's none. */
START_TEST(test_signal_number)
{
	int	 since = -1;

	ck_assert_int_eq(slurmopt_signal_number("15", &since), 15);
	ck_assert_int_eq(since, 0);
	ck_assert_int_eq(slurmopt_signal_number(" +15 ", NULL), 15);
	ck_assert_int_eq(slurmopt_signal_number("17", &since), 17);
	ck_assert_int_eq(since, 0);
	ck_assert_int_eq(slurmopt_signal_number("15x", NULL), 0);
	ck_assert_int_eq(slurmopt_signal_number("SIG", NULL), 0);
	ck_assert_int_eq(slurmopt_signal_number("", NULL), 0);
	ck_assert_int_eq(slurmopt_signal_number("USR2@90", NULL), 0);
	ck_assert_int_eq(slurmopt_signal_number("SIGSIGUSR2", NULL), 0);
	ck_assert_int_eq(slurmopt_signal_number("pipe", &since), SIGPIPE);
	ck_assert_int_eq(since, 2311);
	ck_assert_ptr_null(slurmopt_signal_name(0, 0));
	ck_assert_ptr_null(slurmopt_signal_name(65, 0));
}
END_TEST

/*
 * slurmopt_signal_parse(): the flags, the number as 16 bits, the seconds
 * (60 when none), the release of the name.
 */
static const struct {
	const char	*v;
	int		 num, secs;
	bool		 batch, resv, named;
	int		 since;
} parsed[] = {
	{ "usr1@5", SIGUSR1, 5, false, false, true, 0 },
	{ "B:sigterm", SIGTERM, 60, true, false, true, 0 },
	{ "bTERM", SIGTERM, 60, true, false, true, 0 },
	{ "r:USR2", SIGUSR2, 60, false, true, true, 0 },
	{ "RB:USR2@0", SIGUSR2, 0, true, true, true, 0 },
	{ "br:USR2", SIGUSR2, 60, true, true, true, 0 },
	{ "SIGUSR2@+7", SIGUSR2, 7, false, false, true, 0 },
	{ "10@", 10, 0, false, false, false, 0 },
	{ " 12 @65535", 12, 65535, false, false, false, 0 },
	{ "Abrt", SIGABRT, 60, false, false, true, 0 },
	{ "pipe", SIGPIPE, 60, false, false, true, 2311 },
	{ "B:CHLD@9", SIGCHLD, 9, true, false, true, 2311 },
	{ "65546", 10, 60, false, false, false, 0 },	/* (uint16_t)65546 */
	{ "-1", 65535, 60, false, false, false, 0 },
};

START_TEST(test_signal_parse)
{
	struct slurmopt_signal	 sig;

	ck_assert_ptr_null(slurmopt_signal_parse(parsed[_i].v, &sig));
	ck_assert_int_eq(sig.num, parsed[_i].num);
	ck_assert_int_eq(sig.secs, parsed[_i].secs);
	ck_assert_int_eq(sig.batch, parsed[_i].batch);
	ck_assert_int_eq(sig.resv, parsed[_i].resv);
	ck_assert_int_eq(sig.named, parsed[_i].named);
	ck_assert_int_eq(sig.since, parsed[_i].since);
}
END_TEST

static Suite *
slurmopt_suite(void)
{
	Suite	*s = suite_create("slurmopt");
	TCase	*tc;

	tc = tcase_create("directives");
	tcase_add_test(tc, test_minimal);
	tcase_add_test(tc, test_tasks);
	tcase_add_test(tc, test_gpu_defaults);
	tcase_add_test(tc, test_gpu_request);
	tcase_add_test(tc, test_order);
	tcase_add_loop_test(tc, test_requeue, 0,
	    sizeof requeue / sizeof requeue[0]);
	tcase_add_test(tc, test_requeue_off);
	tcase_add_loop_test(tc, test_segment, 0,
	    sizeof segments / sizeof segments[0]);
	tcase_add_test(tc, test_segment_directive);
	suite_add_tcase(s, tc);

	tc = tcase_create("checks");
	tcase_add_test(tc, test_check_time);
	tcase_add_test(tc, test_check_mem);
	tcase_add_test(tc, test_check_signal);
	tcase_add_test(tc, test_check_dependency);
	tcase_add_test(tc, test_check_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("conversions");
	tcase_add_loop_test(tc, test_time_minutes, 0,
	    sizeof minutes / sizeof minutes[0]);
	tcase_add_test(tc, test_time_bounds);
	tcase_add_loop_test(tc, test_mem_mb, 0, sizeof mb / sizeof mb[0]);
	tcase_add_test(tc, test_mem_bounds);
	tcase_add_test(tc, test_signal_number);
	tcase_add_loop_test(tc, test_signal_names, 0,
	    sizeof linux_signals / sizeof linux_signals[0]);
	tcase_add_loop_test(tc, test_signal_parse, 0,
	    sizeof parsed / sizeof parsed[0]);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(slurmopt_suite());
}
