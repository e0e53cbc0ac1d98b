/*
 * check_files.c: the job-file, config and preset loaders.  Every case in
 * tests/data/invalid/NAME/ (input.json, and error: the expected message
 * with FILE for the file's path) must fail with exit status 2 and exactly
 * that message; NAME's prefix (job-, config-, preset-) picks the loader.
 * Then the precedence of command line > job file > cluster profile >
 * defaults, and the key locator.
 */
#include <sys/stat.h>

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "error.h"
#include "job.h"
#include "jsondoc.h"
#include "model-file.h"
#include "settings.h"

static char	*cases[256];
static int	 ncases;

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	*s;
	long	 n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	if (fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	while (s != NULL && n > 0 && s[n - 1] == '\n')
		s[--n] = '\0';
	return s;
}

/* Replace every occurrence of PATH in MSG by FILE. */
static char *
generalize(const char *msg, const char *path)
{
	size_t	 n = strlen(path);
	char	*out = calloc(1, strlen(msg) + 1), *o = out;

	while (*msg != '\0') {
		if (strncmp(msg, path, n) == 0) {
			o += sprintf(o, "FILE");
			msg += n;
		} else
			*o++ = *msg++;
	}
	return out;
}

static struct error *
load_case(const char *name, const char *input)
{
	struct job_request	 req;
	struct job		 job;
	struct config		 cfg;
	struct model_file	 mf;
	struct error		*err;

	if (strncmp(name, "job-", 4) == 0) {
		job_request_init(&req);
		req.jobfile = input;
		err = job_load(&job, &req);
		if (err == NULL)
			job_release(&job);
		job_request_release(&req);
		return err;
	}
	if (strncmp(name, "config-", 7) == 0) {
		config_init(&cfg);
		err = config_load(&cfg, input);
		config_release(&cfg);
		return err;
	}
	err = model_file_load(input, &mf);
	model_file_release(&mf);
	return err;
}

START_TEST(test_invalid)
{
	const char	*name = cases[_i];
	char		 input[1024], expect[1024];
	char		*want, *got;
	struct error	*err;
	FILE		*f;

	snprintf(input, sizeof input, "%s/invalid/%s/input.json", TEST_DATA,
	    name);
	snprintf(expect, sizeof expect, "%s/invalid/%s/error", TEST_DATA,
	    name);
	err = load_case(name, input);
	ck_assert_msg(err != NULL, "%s: accepted", name);
	got = generalize(err->msg, input);
	if (getenv("MBSBATCH_REGEN") != NULL &&
	    (f = fopen(expect, "w")) != NULL) {
		fprintf(f, "%s\n", got);
		fclose(f);
	}
	want = slurp(expect);
	ck_assert_msg(want != NULL, "%s: no expected error file", name);
	ck_assert_str_eq(got, want);
	ck_assert_msg(err->status == EXIT_USAGE, "%s: status %d", name,
	    err->status);
	ck_assert_msg(strchr(got, '\n') == NULL, "%s: not one line", name);
	free(want);
	free(got);
	error_free(err);
}
END_TEST

static char	 tmpdir[] = "/tmp/check_files.XXXXXX";

static char *
write_tmp(const char *name, const char *text)
{
	char	*path;
	FILE	*f;

	if (asprintf(&path, "%s/%s", tmpdir, name) == -1)
		abort();
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

START_TEST(test_precedence)
{
	struct job_request	 req;
	struct job		 job;
	struct error		*err;
	const struct setting_value *v;
	char			*cfg, *jobfile;

	cfg = write_tmp("config.json",
	    "{ \"default_cluster\": \"eos\",\n"
	    "  \"clusters\": {\n"
	    "    \"eos\": { \"gpu_type\": \"gb200\", \"partition\": \"batch\",\n"
	    "             \"tp\": 1 } } }\n");
	/* tp is not a profile key: the config above must be refused. */
	job_request_init(&req);
	req.config_path = cfg;
	err = job_load(&job, &req);
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->msg, "key 'tp' is not allowed in "
	    "a cluster profile"));
	error_free(err);
	free(cfg);

	cfg = write_tmp("config.json",
	    "{ \"default_cluster\": \"eos\",\n"
	    "  \"clusters\": {\n"
	    "    \"eos\": { \"gpu_type\": \"gb200\", \"partition\": \"batch\",\n"
	    "             \"gpu_memory\": 186, \"env\": { \"A\": \"1\", "
	    "\"B\": \"2\" } },\n"
	    "    \"dgx\": { \"gpus_per_node\": 8 } } }\n");
	jobfile = write_tmp("job.json",
	    "{ \"tp\": 4, \"pp\": 2, \"gpus\": 64, \"model\": \"llama3-70b\",\n"
	    "  \"num_layers\": 40,\n"
	    "  \"env\": { \"B\": \"3\" }, \"slurm\": { \"partition\": \"x\" } }\n");
	req.config_path = cfg;
	req.jobfile = jobfile;
	ck_assert_ptr_null(settings_set_text(&req.cli,
	    settings_find_option("nodes", SF_CLI, &(bool){ false }), "8",
	    ORIGIN_CLI));
	ck_assert_ptr_null(settings_set_text(&req.cli,
	    settings_find_option("pp", SF_CLI, &(bool){ false }), "4",
	    ORIGIN_CLI));
	err = job_load(&job, &req);
	ck_assert_msg(err == NULL, "%s", err ? err->msg : "");

	ck_assert_str_eq(job.cluster, "eos");
	/* Command line over job file. */
	ck_assert_int_eq(job.set.v[SET_PP].i, 4);
	ck_assert_int_eq(job.set.v[SET_PP].origin, ORIGIN_CLI);
	/* --nodes on the command line replaces the job file's gpus. */
	ck_assert_int_eq(job.set.v[SET_GPUS].origin, ORIGIN_UNSET);
	ck_assert_int_eq(job.in.world_from, WORLD_FROM_NODES);
	ck_assert_int_eq(job.in.nodes, 8);
	/* Job file over profile; profile where the job file is silent. */
	ck_assert_int_eq(job.set.v[SET_TP].origin, ORIGIN_JOB);
	ck_assert_str_eq(job.set.v[SET_PARTITION].s, "x");
	ck_assert_int_eq(job.set.v[SET_PARTITION].origin, ORIGIN_JOB);
	ck_assert_int_eq(job.set.v[SET_GPU_TYPE].origin, ORIGIN_CONFIG);
	/* gb200 gives 4 GPUs per node and a 72-GPU NVLink domain. */
	ck_assert_int_eq(job.in.gpus_per_node, 4);
	ck_assert_int_eq(job.in.nvlink_domain, 72);
	/* env merges by name, the job file's B winning. */
	v = &job.set.v[SET_ENV];
	ck_assert_int_eq(v->nlist, 2);
	ck_assert_str_eq(v->list[0], "A=1");
	ck_assert_str_eq(v->list[1], "B=3");
	/* The preset, with the job file's num_layers over it. */
	ck_assert_str_eq(job.in.model.name, "llama3-70b");
	ck_assert_int_eq(job.in.model.num_layers, 40);
	ck_assert_int_eq(job.in.model.hidden_size, 8192);
	ck_assert_int_eq(job.in.model.kind, MODEL_KIND_DENSE);
	job_release(&job);

	/* --cluster picks another profile. */
	req.cluster = "dgx";
	err = job_load(&job, &req);
	ck_assert_msg(err == NULL, "%s", err ? err->msg : "");
	ck_assert_int_eq(job.in.gpus_per_node, 8);
	ck_assert_int_eq(job.in.nvlink_domain, 0);
	job_release(&job);

	/* A near miss is suggested. */
	req.cluster = "eso";
	err = job_load(&job, &req);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "cluster 'eso': no such cluster (did you "
	    "mean 'eos'?)");
	ck_assert_int_eq(err->status, EXIT_USAGE);
	error_free(err);

	/* Two world settings on one command line are refused. */
	req.cluster = NULL;
	ck_assert_ptr_null(settings_set_text(&req.cli,
	    settings_find_option("gpus", SF_CLI, &(bool){ false }), "16",
	    ORIGIN_CLI));
	err = job_load(&job, &req);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "--gpus and --nodes cannot be used "
	    "together: each sets the world size");
	error_free(err);

	job_request_release(&req);
	unlink(cfg);
	unlink(jobfile);
	free(cfg);
	free(jobfile);
}
END_TEST

START_TEST(test_locate)
{
	static const char text[] =
	    "{\n"
	    "  \"a\": 1,\n"
	    "  \"slurm\": {\n"
	    "    \"x\": [10, {\"y\": 2}, \"s\\\"q\"],\n"
	    "    \"b\": true\n"
	    "  },\n"
	    "  \"b\": \"é\", \"c\": 3\n"
	    "}\n";
	const char	*p1[] = { "a", NULL };
	const char	*p2[] = { "slurm", "b", NULL };
	const char	*p3[] = { "slurm", "x", "[1]", "y", NULL };
	const char	*p4[] = { "slurm", "x", "[2]", NULL };
	const char	*p5[] = { "c", NULL };
	const char	*p6[] = { "zz", NULL };
	int		 line, col;

	ck_assert_int_eq(jsondoc_locate(text, strlen(text), p1, &line, &col),
	    0);
	ck_assert_int_eq(line, 2);
	ck_assert_int_eq(col, 3);
	ck_assert_int_eq(jsondoc_locate(text, strlen(text), p2, &line, &col),
	    0);
	ck_assert_int_eq(line, 5);
	ck_assert_int_eq(col, 5);
	ck_assert_int_eq(jsondoc_locate(text, strlen(text), p3, &line, &col),
	    0);
	ck_assert_int_eq(line, 4);
	ck_assert_int_eq(col, 16);
	ck_assert_int_eq(jsondoc_locate(text, strlen(text), p4, &line, &col),
	    0);
	ck_assert_int_eq(line, 4);
	ck_assert_int_eq(col, 25);
	/* Columns count characters: "é" is one. */
	ck_assert_int_eq(jsondoc_locate(text, strlen(text), p5, &line, &col),
	    0);
	ck_assert_int_eq(line, 7);
	ck_assert_int_eq(col, 13);
	ck_assert_int_eq(jsondoc_locate(text, strlen(text), p6, &line, &col),
	    -1);
}
END_TEST

START_TEST(test_not_regular)
{
	struct jsondoc	 doc;
	struct error	*err;

	err = jsondoc_load_file(&doc, "/dev/null", "job file");
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "job file '/dev/null': not a regular file");
	ck_assert_int_eq(err->status, EXIT_FAILURE_OP);
	error_free(err);
	err = jsondoc_load_file(&doc, tmpdir, "job file");
	ck_assert_ptr_nonnull(err);
	ck_assert_ptr_nonnull(strstr(err->msg, "is a directory"));
	error_free(err);
	err = jsondoc_load_file(&doc, "/nonexistent/job.json", "job file");
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "job file '/nonexistent/job.json': No such "
	    "file or directory");
	ck_assert_int_eq(err->status, EXIT_FAILURE_OP);
	error_free(err);
}
END_TEST

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
find_cases(void)
{
	struct dirent	*de;
	DIR		*d = opendir(TEST_DATA "/invalid");

	if (d == NULL) {
		perror(TEST_DATA "/invalid");
		exit(EXIT_FAILURE);
	}
	while ((de = readdir(d)) != NULL && ncases < 256)
		if (de->d_name[0] != '.')
			cases[ncases++] = strdup(de->d_name);
	closedir(d);
	qsort(cases, (size_t)ncases, sizeof cases[0], cmp);
}

/*
 * A JSON document is printed whole, or not at all and an error: never
 * nothing and success (json_pack() gives NULL for a string that is not
 * UTF-8, json_real() for a number that is not finite).
 */
START_TEST(test_print)
{
	struct error	*err;
	char		 got[64] = "";
	FILE		*f = tmpfile();
	json_t		*o;

	ck_assert_ptr_nonnull(f);
	err = jsondoc_print(f, json_pack("{s:s}", "name", "a\377b"), 0);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->status, EXIT_FAILURE_OP);
	ck_assert_str_eq(err->msg, "JSON output: a value JSON cannot hold "
	    "(text that is not UTF-8, or a number that is not finite); "
	    "nothing printed");
	error_free(err);
	o = json_object();
	json_object_set_new(o, "n", json_stringn_nocheck("a\377b", 3));
	err = jsondoc_print(f, o, 0);
	ck_assert_ptr_nonnull(err);
	error_free(err);
	json_decref(o);
	ck_assert_int_eq(ftell(f), 0);
	o = json_pack("{s:i}", "n", 1);
	ck_assert_ptr_null(jsondoc_print(f, o, JSON_COMPACT));
	json_decref(o);
	rewind(f);
	ck_assert_ptr_nonnull(fgets(got, sizeof got, f));
	ck_assert_str_eq(got, "{\"n\":1}\n");
	fclose(f);
}
END_TEST

static Suite *
files_suite(void)
{
	Suite	*s = suite_create("files");
	TCase	*tc;

	tc = tcase_create("invalid");
	tcase_add_loop_test(tc, test_invalid, 0, ncases);
	suite_add_tcase(s, tc);
	tc = tcase_create("merge");
	tcase_add_test(tc, test_precedence);
	tcase_add_test(tc, test_locate);
	tcase_add_test(tc, test_not_regular);
	tcase_add_test(tc, test_print);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner	*sr;
	int	 failed, i;

	/* No user or system config may leak into the cases. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	unsetenv("MBSBATCH_CONFIG");
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return EXIT_FAILURE;
	}
	find_cases();
	if (ncases < 40) {
		fprintf(stderr, "only %d invalid cases found\n", ncases);
		return EXIT_FAILURE;
	}
	sr = srunner_create(files_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (i = 0; i < ncases; i++)
		free(cases[i]);
	rmdir(tmpdir);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
