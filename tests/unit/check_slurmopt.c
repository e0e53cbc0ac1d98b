/*
 * check_slurmopt.c: a job's Slurm options (src/slurmopt.c): the
 * directives slurmopt_compute() writes, in order and with their origins,
 * for the GPU-type defaults, --requeue and NVL72 racks; --segment; and
 * each check of a value in Slurm's own syntax (time, memory, signal,
 * dependency, names, constraints, text) with values on both sides of it,
 * and the conversions to minutes, MiB and signal numbers at their bounds.
 */
#include <check.h>
#include <signal.h>
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
 * "RB:"), the trap gets its bare name, and the log is appended to.
 */
static const struct {
	const char	*given;		/* --signal, or NULL */
	const char	*written, *trap;
} requeue[] = {
	{ NULL, "B:TERM@60", "TERM" },
	{ "USR2@90", "B:USR2@90", "USR2" },
	{ "B:USR1@120", "B:USR1@120", "USR1" },
	{ "SIGTERM@30", "B:SIGTERM@30", "TERM" },
	{ "R:SIGUSR1@120", "RB:SIGUSR1@120", "USR1" },
	{ "RB:TERM", "RB:TERM", "TERM" },
	{ "BR:USR2@60", "RB:USR2@60", "USR2" },
	{ "10@30", "B:10@30", "10" },
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

#define SIGNAL_WHY	"is not a Slurm signal ([B:|R:]SIGNAL[@SECONDS], " \
	"such as USR2@90 or B:TERM@60)"
static const struct verdict signals[] = {
	{ "USR2", NULL }, { "USR2@90", NULL }, { "B:TERM@60", NULL },
	{ "R:USR1", NULL }, { "RB:SIGUSR1@120", NULL }, { "BR:TERM", NULL },
	{ "SIGTERM", NULL }, { "10", NULL }, { "B:10@30", NULL },
	{ "XCPU@5", NULL },
	{ "", SIGNAL_WHY }, { "FOO", SIGNAL_WHY }, { "usr2", SIGNAL_WHY },
	{ "USR2@", SIGNAL_WHY }, { "USR2@x", SIGNAL_WHY },
	{ "@90", SIGNAL_WHY }, { "B:", SIGNAL_WHY }, { "X:TERM", SIGNAL_WHY },
	{ "USR2@90x", SIGNAL_WHY }, { "TERM@-1", SIGNAL_WHY },
	{ "SIG", SIGNAL_WHY }, { "B:B:TERM", SIGNAL_WHY },
	{ "ABCDEFGHIJKLMNOPQRS", SIGNAL_WHY },
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

START_TEST(test_signal_number)
{
	ck_assert_int_eq(slurmopt_signal_number("USR2"), SIGUSR2);
	ck_assert_int_eq(slurmopt_signal_number("SIGUSR2"), SIGUSR2);
	ck_assert_int_eq(slurmopt_signal_number("TERM"), SIGTERM);
	ck_assert_int_eq(slurmopt_signal_number("HUP"), SIGHUP);
	ck_assert_int_eq(slurmopt_signal_number("XFSZ"), SIGXFSZ);
	ck_assert_int_eq(slurmopt_signal_number("KILL"), SIGKILL);
	/* Names only, upper case, no "SIG" alone, nothing unknown. */
	ck_assert_int_eq(slurmopt_signal_number("usr2"), 0);
	ck_assert_int_eq(slurmopt_signal_number("SIG"), 0);
	ck_assert_int_eq(slurmopt_signal_number(""), 0);
	ck_assert_int_eq(slurmopt_signal_number("WINCH"), 0);
	ck_assert_int_eq(slurmopt_signal_number("15"), 0);
	ck_assert_int_eq(slurmopt_signal_number("USR2@90"), 0);
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
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(slurmopt_suite());
}
