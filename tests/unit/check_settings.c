/*
 * check_settings.c: the settings table (src/job/settings-table.c) is indexed by
 * enum setting_id: settings_table[SET_TP] must be the row of SET_TP, as
 * the code reads it both ways (settings_table[SET_X] and set->v[d->id]).
 * A row out of place would give one setting another's name, range and
 * parser.  And every row has its own key and option name; a choice
 * row's words are distinct, each at the index of the enum value it
 * names, and a value is decoded once, when it is read.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "launchenv.h"
#include "memory.h"
#include "model.h"
#include "settings.h"
#include "run.h"

/* Row _i identifies itself as enum value _i. */
START_TEST(test_enum_order)
{
	const struct setting_def	*d = &settings_table[_i];

	ck_assert_msg((int)d->id == _i, "settings_table[%d] is the row of "
	    "'%s' (id %d): the rows are not in the order of enum setting_id",
	    _i, d->key != NULL ? d->key : "(no key)", (int)d->id);
}
END_TEST

/* Keys are compared without a NULL check: each row has one, unique;
 * options (NULL for preset-only fields) are unique too. */
START_TEST(test_names_unique)
{
	size_t	 i, j;

	for (i = 0; i < SET__COUNT; i++) {
		ck_assert_msg(settings_table[i].key != NULL,
		    "settings_table[%zu] has no key", i);
		for (j = 0; j < i; j++) {
			ck_assert_msg(strcmp(settings_table[i].key,
			    settings_table[j].key) != 0, "key '%s' twice",
			    settings_table[i].key);
			if (settings_table[i].option != NULL &&
			    settings_table[j].option != NULL)
				ck_assert_msg(strcmp(settings_table[i].option,
				    settings_table[j].option) != 0,
				    "option '--%s' twice",
				    settings_table[i].option);
		}
	}
}
END_TEST

/* A lookup by option finds the row of that enum value. */
START_TEST(test_find_option)
{
	const struct setting_def	*d;
	bool				 negated = true;

	d = settings_find_option("tp", SF_CLI, &negated);
	ck_assert_ptr_eq(d, &settings_table[SET_TP]);
	ck_assert(!negated);
	d = settings_find_option("no-sp", SF_CLI, &negated);
	ck_assert_ptr_eq(d, &settings_table[SET_SP]);
	ck_assert(negated);
	d = settings_find_option("via", SF_CONNECT, &negated);
	ck_assert_ptr_eq(d, &settings_table[SET_VIA]);
	ck_assert_int_eq(d->id, SET_VIA);
	/* Not where FLAGS allow, not a flag, or not at all. */
	ck_assert_ptr_null(settings_find_option("via", SF_PRESET, &negated));
	ck_assert_ptr_null(settings_find_option("no-tp", SF_CLI, &negated));
	ck_assert_ptr_null(settings_find_option("tpp", SF_CLI, &negated));
}
END_TEST

/* Row _i's words, if any: distinct; a choice row's all in its reason
 * (the error message lists them) and no check of its own. */
START_TEST(test_choice_words)
{
	const struct setting_def	*d = &settings_table[_i];
	int				 i, j, n = 0;

	if (d->type == ST_CHOICE) {
		ck_assert_msg(d->words != NULL && d->not_a_word != NULL,
		    "choice '%s' has no words or no reason", d->key);
		ck_assert_ptr_null(d->check);
	} else
		ck_assert_msg(d->words == NULL || d->type == ST_STRING,
		    "'%s' has words but is no string", d->key);
	for (i = 0; i < d->nwords; i++) {
		if (d->words[i] == NULL)
			continue;
		n++;
		ck_assert_msg(d->words[i][0] != '\0', "'%s': an empty word",
		    d->key);
		for (j = 0; j < i; j++)
			ck_assert_msg(d->words[j] == NULL ||
			    strcmp(d->words[i], d->words[j]) != 0,
			    "'%s': word '%s' twice", d->key, d->words[i]);
		ck_assert_int_eq(settings_choice(d, d->words[i]), i);
		if (d->type == ST_CHOICE)
			ck_assert_msg(strstr(d->not_a_word, d->words[i]) !=
			    NULL, "'%s': '%s' is not in \"%s\"", d->key,
			    d->words[i], d->not_a_word);
	}
	ck_assert_msg(d->words == NULL || n > 1, "'%s': fewer than two "
	    "words", d->key);
}
END_TEST

/* The enum values name the words the code means by them. */
START_TEST(test_enum_words)
{
	static const struct {
		enum setting_id	 id;
		int		 v;
		const char	*word;
	} t[] = {
		{ SET_FP8, FP8_NO, "no" },
		{ SET_FP8, FP8_MXFP8, "mxfp8" },
		{ SET_LAUNCHER, LAUNCHER_TORCHRUN, "torchrun" },
		{ SET_TEMPLATE, TEMPLATE_MEGATRON_LM, "megatron-lm" },
		{ SET_TEMPLATE, TEMPLATE_OTHER, NULL },
		{ SET_MOE_DISPATCHER, DISPATCH_HYBRIDEP, "hybridep" },
		{ SET_RECOMPUTE, RECOMPUTE_SELECTIVE, "selective" },
		{ SET_RECOMPUTE, RECOMPUTE_NONE, "none" },
		{ SET_MEMORY_MODEL, MEMORY_SKILL, "skill" },
		{ SET_PARAMS_DTYPE, PRECISION_DEFAULT, NULL },
		{ SET_GRADS_DTYPE, PRECISION_BF16, "bf16" },
		{ SET_OPTIMIZER_DTYPE, PRECISION_FP32, "fp32" },
		{ SET_ROPE_SCALING, ROPE_SCALING_YARN, "yarn" },
		{ SET_ROUTER_SCORE, ROUTER_SCORE_UNSET, NULL },
		{ SET_ROUTER_SCORE, ROUTER_SCORE_SIGMOID, "sigmoid" },
		{ SET_AUX_LOSS, AUX_LOSS_SEQ, "seq_aux_loss" },
		{ SET_AUX_LOSS, AUX_LOSS_NONE, "none" },
		{ SET_TP, 0, NULL },
	};
	size_t	 i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		if (t[i].word == NULL)
			ck_assert_ptr_null(settings_word(t[i].id, t[i].v));
		else
			ck_assert_str_eq(settings_word(t[i].id, t[i].v),
			    t[i].word);
	}
}
END_TEST

/* Text becomes its enum value when it is read; other text is refused
 * with the row's reason, or (a string row) is value NWORDS. */
START_TEST(test_choice_decode)
{
	struct settings	 set;
	struct error	*err;

	settings_init(&set);
	err = settings_set_text(&set, &settings_table[SET_RECOMPUTE], "full",
	    ORIGIN_CLI);
	ck_assert_ptr_null(err);
	ck_assert_int_eq(set.v[SET_RECOMPUTE].choice, RECOMPUTE_FULL);
	ck_assert_str_eq(set.v[SET_RECOMPUTE].s, "full");
	err = settings_set_text(&set, &settings_table[SET_TEMPLATE],
	    "./mine.sbatch", ORIGIN_CLI);
	ck_assert_ptr_null(err);
	ck_assert_int_eq(set.v[SET_TEMPLATE].choice, TEMPLATE_OTHER);
	settings_set_choice(&set, SET_PARAMS_DTYPE, PRECISION_FP16,
	    ORIGIN_RECIPE);
	ck_assert_str_eq(set.v[SET_PARAMS_DTYPE].s, "fp16");
	ck_assert_int_eq(set.v[SET_PARAMS_DTYPE].origin, ORIGIN_RECIPE);
	err = settings_set_text(&set, &settings_table[SET_FP8], "fp4",
	    ORIGIN_CLI);
	ck_assert_ptr_nonnull(err);
	ck_assert_str_eq(err->msg, "--fp8: 'fp4' is not an FP8 or FP4 "
	    "recipe (tensorwise, delayed, blockwise, mxfp8, nvfp4, or no)");
	error_free(err);
	err = settings_set_text(&set, &settings_table[SET_FP8], "nvfp4",
	    ORIGIN_CLI);
	ck_assert_ptr_null(err);
	ck_assert_int_eq(set.v[SET_FP8].choice, FP8_NVFP4);
	error_free(err);
	settings_release(&set);
}
END_TEST

/*
 * An SF_APPEND list adds up over the layers, lower first (a profile's
 * setup lines, then the job's); another list is replaced whole.
 */
START_TEST(test_merge_append)
{
	struct settings	 profile, job, merged;
	struct error	*err;
	const char	*in[][2] = {
		{ "module load site", "--mpi=pmix" },
		{ "source venv/bin/activate", "--cpu-bind=cores" },
	};
	int		 i;

	settings_init(&profile);
	settings_init(&job);
	settings_init(&merged);
	for (i = 0; i < 2; i++) {
		struct settings *l = i == 0 ? &profile : &job;

		err = settings_set_text(l, &settings_table[SET_SETUP],
		    in[i][0], i == 0 ? ORIGIN_CONFIG : ORIGIN_CLI);
		ck_assert_ptr_null(err);
		err = settings_set_text(l, &settings_table[SET_SRUN_OPTIONS],
		    in[i][1], i == 0 ? ORIGIN_CONFIG : ORIGIN_CLI);
		ck_assert_ptr_null(err);
		err = settings_set_text(l, &settings_table[SET_OVERRIDES],
		    i == 0 ? "a=1" : "b=2", i == 0 ? ORIGIN_CONFIG :
		    ORIGIN_CLI);
		ck_assert_ptr_null(err);
	}
	settings_merge(&merged, &profile);
	settings_merge(&merged, &job);
	ck_assert_uint_eq(merged.v[SET_SETUP].nlist, 2);
	ck_assert_str_eq(merged.v[SET_SETUP].list[0], "module load site");
	ck_assert_str_eq(merged.v[SET_SETUP].list[1],
	    "source venv/bin/activate");
	ck_assert_uint_eq(merged.v[SET_SRUN_OPTIONS].nlist, 2);
	ck_assert_str_eq(merged.v[SET_SRUN_OPTIONS].list[0], "--mpi=pmix");
	ck_assert_str_eq(merged.v[SET_SRUN_OPTIONS].list[1],
	    "--cpu-bind=cores");
	ck_assert_int_eq(merged.v[SET_SETUP].origin, ORIGIN_CLI);
	ck_assert_uint_eq(merged.v[SET_OVERRIDES].nlist, 1);
	ck_assert_str_eq(merged.v[SET_OVERRIDES].list[0], "b=2");
	settings_release(&profile);
	settings_release(&job);
	settings_release(&merged);
}
END_TEST

/* --slurm-opt: sbatch's options, their values, and what is mbsbatch's. */
static const struct {
	const char	*text;
	const char	*why;	/* NULL: taken */
} slurm_opts[] = {
	{ "licenses=scratch:1", NULL }, { "spread-job", NULL },
	{ "nice=10", NULL }, { "extra=a b", NULL },
	{ "exclusive", "has a setting of its own: give --exclusive" },
	{ "array=0-3", NULL }, { "export=NONE", NULL },
	{ "licence=x", "is not an option of sbatch (did you mean "
	  "'licenses'?)" },
	{ "--nice=1", "is not NAME or NAME=VALUE: give the option's long "
	  "name without '--'" },
	{ "=1", "is not NAME or NAME=VALUE" },
	{ "nodes=2", "is sized by mbsbatch: give --nodes or --gpus" },
	{ "gres=gpu:8", "would ask for GPUs beside those mbsbatch writes: "
	  "for a GPU type give --gpu-type with the profile's gres_types, for "
	  "the --gres form --gpu-request gres" },
	{ "gpus-per-node=h100:8", "is sized by mbsbatch: give "
	  "--gpus-per-node, and for a GPU type --gpu-type with the "
	  "profile's gres_types" },
	{ "partition=x", "has a setting of its own: give --partition" },
	{ "chdir=/x", "has a setting of its own: give --chdir" },
	{ "mail-type=END", "has a setting of its own: give --mail-type" },
	{ "cpus-per-task=2", "has a setting of its own: give --cpus-per-task" },
	{ "wrap=true", "replaces the script mbsbatch writes" },
	{ "spread-job=yes", "takes no value: give the name alone" },
	{ "licenses", "needs a value: NAME=VALUE" },
	{ "nice=", "has an empty value" },
	{ "extra=x packjob y", "contains 'packjob', which sbatch blanks out "
	  "of #SBATCH lines" },
};

START_TEST(test_slurm_opt)
{
	struct settings	 set;
	struct error	*err;
	char		 want[200];

	settings_init(&set);
	err = settings_set_text(&set, &settings_table[SET_SLURM_EXTRA],
	    slurm_opts[_i].text, ORIGIN_CLI);
	if (slurm_opts[_i].why == NULL)
		ck_assert_msg(err == NULL, "%s: %s", slurm_opts[_i].text,
		    err->msg);
	else {
		ck_assert_msg(err != NULL, "%s taken", slurm_opts[_i].text);
		snprintf(want, sizeof want, "--slurm-opt: '%s' %s",
		    slurm_opts[_i].text, slurm_opts[_i].why);
		ck_assert_str_eq(err->msg, want);
		error_free(err);
	}
	settings_release(&set);
}
END_TEST

/* A later --slurm-opt of the same name replaces the earlier. */
START_TEST(test_slurm_opt_merge)
{
	struct settings	 a, b;

	settings_init(&a);
	settings_init(&b);
	ck_assert_ptr_null(settings_set_text(&a,
	    &settings_table[SET_SLURM_EXTRA], "licenses=a:1", ORIGIN_CONFIG));
	ck_assert_ptr_null(settings_set_text(&a,
	    &settings_table[SET_SLURM_EXTRA], "spread-job", ORIGIN_CONFIG));
	ck_assert_ptr_null(settings_set_text(&b,
	    &settings_table[SET_SLURM_EXTRA], "licenses=b:2", ORIGIN_CLI));
	settings_merge(&a, &b);
	ck_assert_uint_eq(a.v[SET_SLURM_EXTRA].nlist, 2);
	ck_assert_str_eq(a.v[SET_SLURM_EXTRA].list[0], "licenses=b:2");
	ck_assert_str_eq(a.v[SET_SLURM_EXTRA].list[1], "spread-job");
	settings_release(&a);
	settings_release(&b);
}
END_TEST

static Suite *
settings_suite(void)
{
	Suite	*s = suite_create("settings");
	TCase	*tc = tcase_create("table");

	tcase_add_loop_test(tc, test_enum_order, 0, SET__COUNT);
	tcase_add_test(tc, test_names_unique);
	tcase_add_test(tc, test_find_option);
	tcase_add_loop_test(tc, test_choice_words, 0, SET__COUNT);
	tcase_add_test(tc, test_enum_words);
	tcase_add_test(tc, test_choice_decode);
	tcase_add_test(tc, test_merge_append);
	tcase_add_loop_test(tc, test_slurm_opt, 0,
	    sizeof slurm_opts / sizeof slurm_opts[0]);
	tcase_add_test(tc, test_slurm_opt_merge);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(settings_suite());
}
