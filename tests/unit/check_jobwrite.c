/*
 * check_jobwrite.c: a job as a job file (src/job/job-write.c): read back
 * as a job file, it gives the settings the user gave, the recipe, and
 * the layout and split written in place of the job's own.
 */
#include <check.h>
#include <string.h>

#include "job.h"
#include "jsondoc.h"
#include "run.h"

static void
give(struct settings *set, enum setting_id id, const char *text,
    enum origin origin)
{
	struct error	*err;

	err = settings_set_text(set, &settings_table[id], text, origin);
	ck_assert_ptr_null(err);
}

START_TEST(test_round_trip)
{
	struct job		 job;
	struct sizing_input	 in;
	struct settings		 back;
	struct jsondoc		 doc;
	struct error		*err;
	json_t			*o;
	char			*text;

	memset(&job, 0, sizeof job);
	settings_init(&job.set);
	settings_init(&back);
	job.recipe = bridge_recipe_find(bridge_target_find("0.6.0"),
	    "qwen3_235b_a22b_pretrain_config");
	give(&job.set, SET_MODEL, "qwen3-235b-a22b", ORIGIN_CLI);
	give(&job.set, SET_SEQ_LENGTH, "4096", ORIGIN_JOB);
	give(&job.set, SET_TIME, "04:00:00", ORIGIN_CLI);
	give(&job.set, SET_ENV, "NCCL_DEBUG=WARN", ORIGIN_CLI);
	give(&job.set, SET_LR, "3e-4", ORIGIN_CLI);
	/* The recipe's own and a profile's are not the user's; a world
	 * size given is replaced by the GPUs. */
	give(&job.set, SET_GLOBAL_BATCH_SIZE, "2048", ORIGIN_RECIPE);
	give(&job.set, SET_PARTITION, "gpu", ORIGIN_CONFIG);
	give(&job.set, SET_NODES, "4", ORIGIN_CLI);
	memset(&in, 0, sizeof in);
	in.layout = (struct layout){ .tp = 4, .pp = 16, .cp = 1, .ep = 8,
	    .etp = 1, .vpp = 3, .sp = true };
	in.account_embedding = in.account_loss = true;

	o = job_file_json(&job, &in, 128);
	text = json_dumps(o, 0);
	json_decref(o);
	ck_assert_ptr_nonnull(text);
	err = jsondoc_load_string(&doc, text, "job file");
	ck_assert_ptr_null(err);
	err = settings_from_json(&back, &doc, doc.root, NULL, SF_JOB,
	    ORIGIN_JOB);
	ck_assert_ptr_null(err);
	jsondoc_release(&doc);
	free(text);

	ck_assert_str_eq(back.v[SET_MODEL].s, "qwen3-235b-a22b");
	ck_assert_str_eq(back.v[SET_RECIPE].s,
	    "qwen3_235b_a22b_pretrain_config");
	ck_assert_int_eq(back.v[SET_SEQ_LENGTH].i, 4096);
	ck_assert_str_eq(back.v[SET_TIME].s, "04:00:00");
	ck_assert_uint_eq(back.v[SET_ENV].nlist, 1);
	ck_assert_str_eq(back.v[SET_ENV].list[0], "NCCL_DEBUG=WARN");
	ck_assert_double_eq_tol(back.v[SET_LR].d, 3e-4, 1e-12);
	ck_assert_int_eq(back.v[SET_GLOBAL_BATCH_SIZE].origin, ORIGIN_UNSET);
	ck_assert_int_eq(back.v[SET_PARTITION].origin, ORIGIN_UNSET);
	ck_assert_int_eq(back.v[SET_NODES].origin, ORIGIN_UNSET);
	ck_assert_int_eq(back.v[SET_GPUS].i, 128);
	ck_assert_int_eq(back.v[SET_TP].i, 4);
	ck_assert_int_eq(back.v[SET_PP].i, 16);
	ck_assert_int_eq(back.v[SET_VPP].i, 3);
	ck_assert_int_eq(back.v[SET_EP].i, 8);
	ck_assert(back.v[SET_SP].b);
	ck_assert(back.v[SET_ACCOUNT_EMBEDDING].b);
	ck_assert(back.v[SET_ACCOUNT_LOSS].b);
	ck_assert_int_eq(back.v[SET_FIRST_STAGE_LAYERS].origin, ORIGIN_UNSET);
	settings_release(&back);
	settings_release(&job.set);
}
END_TEST

static Suite *
jobwrite_suite(void)
{
	Suite	*su = suite_create("jobwrite");
	TCase	*tc = tcase_create("jobwrite");

	tcase_add_test(tc, test_round_trip);
	suite_add_tcase(su, tc);
	return su;
}

int
main(void)
{
	return run_suite(jobwrite_suite());
}
