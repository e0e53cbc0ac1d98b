/*
 * check_tmpl.c: the template renderer (src/render/tmpl.c) and the quoting it
 * relies on (src/util/quote.c): sections, lists, standalone lines, escaping by
 * line, every error with its position, and the limits on what a template
 * can make of a job (no template bomb).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "error.h"
#include "quote.h"
#include "tmpl.h"
#include "run.h"

static json_t *
ctx(void)
{
	json_error_t	 jerr;
	json_t		*j;

	j = json_loads("{ \"name\": \"my job\", \"n\": 8, \"zero\": 0, "
	    "\"yes\": true, \"no\": false, \"none\": null, \"empty\": [], "
	    "\"real\": 1.5, \"safe\": \"llama3_8b\", \"evil\": \"$(rm -rf /); "
	    "`id` 'q' \\\"d\\\" # x\", \"list\": [\"a=1\", \"b c\"], "
	    "\"objs\": [ {\"k\": \"x\"}, {\"k\": \"y\"} ], "
	    "\"obj\": { \"tp\": 2, \"inner\": { \"deep\": \"z\" } }, "
	    "\"pack\": \"a packjob b\", \"eight\": [1, 2, 3, 4, 5, 6, 7, 8] }",
	    0, &jerr);
	ck_assert_msg(j != NULL, "%s", jerr.text);
	return j;
}

/* Render TEXT; return the output or the error message (caller frees). */
static char *
render(const char *text, int *failed)
{
	struct buf	 b;
	struct error	*err;
	json_t		*c = ctx();
	char		*s;

	buf_init(&b);
	err = tmpl_render("t", text, c, &b);
	json_decref(c);
	if (err != NULL) {
		*failed = 1;
		s = strdup(err->msg);
		ck_assert_int_eq(err->status, EXIT_USAGE);
		error_free(err);
		buf_release(&b);
		return s;
	}
	*failed = 0;
	return buf_detach(&b);
}

static const struct {
	const char	*in;
	const char	*out;
} good[] = {
	{ "plain text\n", "plain text\n" },
	{ "", "" },
	{ "{{n}} GPUs\n", "8 GPUs\n" },
	{ "{{ n }}", "8" },
	{ "{{real}} {{yes}} {{no}} {{zero}}", "1.5 true false 0" },
	{ "{{obj.tp}} {{obj.inner.deep}}", "2 z" },
	/* Shell lines: safe words bare, others single-quoted. */
	{ "run {{safe}}", "run llama3_8b" },
	{ "echo {{name}}", "echo 'my job'" },
	{ "echo {{evil}}", "echo '$(rm -rf /); `id` '\\''q'\\'' \"d\" # x'" },
	/* #SBATCH lines: sbatch's lexer, double quotes and backslashes. */
	{ "#SBATCH --job-name={{safe}}\n", "#SBATCH --job-name=llama3_8b\n" },
	{ "#SBATCH --job-name={{name}}\n", "#SBATCH --job-name=\"my job\"\n" },
	{ "#SBATCH --comment={{evil}}\n",
	  "#SBATCH --comment=\"$(rm -rf /); `id` 'q' \\\"d\\\" # x\"\n" },
	/* Comment lines carry values as they are. */
	{ "# {{name}}: {{evil}}\n", "# my job: $(rm -rf /); `id` 'q' \"d\" # x\n" },
	/* The context is per line. */
	{ "#SBATCH -J {{name}}\necho {{name}}\n",
	  "#SBATCH -J \"my job\"\necho 'my job'\n" },
	/* Sections. */
	{ "{{#yes}}on{{/yes}}{{#no}}off{{/no}}", "on" },
	{ "{{^no}}not{{/no}}{{^yes}}never{{/yes}}", "not" },
	{ "{{#none}}x{{/none}}{{^none}}null{{/none}}", "null" },
	{ "{{#zero}}x{{/zero}}{{^empty}}empty{{/empty}}", "empty" },
	{ "{{#list}}[{{.}}]{{/list}}", "[a=1]['b c']" },
	{ "{{#objs}}{{k}},{{/objs}}", "x,y," },
	{ "{{#obj}}{{tp}}{{/obj}}", "2" },
	{ "{{#objs}}{{n}}{{/objs}}", "88" },	/* outer frames seen */
	{ "a {{! a comment }}b", "a b" },
	/* Standalone tags leave no line behind. */
	{ "a\n{{#yes}}\nb\n{{/yes}}\nc\n", "a\nb\nc\n" },
	{ "a\n  {{#no}}\nb\n  {{/no}}\nc\n", "a\nc\n" },
	{ "a\n{{! note }}\nb\n", "a\nb\n" },
	{ "x {{#yes}}y{{/yes}} z\n", "x y z\n" },
	/* Lists on #SBATCH lines. */
	{ "#SBATCH{{#list}} {{.}}{{/list}}\n", "#SBATCH a=1 \"b c\"\n" },
};

START_TEST(test_good)
{
	int	 failed;
	char	*got = render(good[_i].in, &failed);

	ck_assert_msg(!failed, "'%s': %s", good[_i].in, got);
	ck_assert_str_eq(got, good[_i].out);
	free(got);
}
END_TEST

static const struct {
	const char	*in;
	const char	*msg;
} bad[] = {
	{ "x {{nope}}", "template 't': line 1, column 3: unknown variable "
	  "'nope'" },
	{ "a\nbb {{obj.nope}}", "template 't': line 2, column 4: unknown "
	  "variable 'obj.nope'" },
	{ "{{#nope}}x{{/nope}}", "template 't': line 1, column 1: unknown "
	  "variable 'nope'" },
	{ "{{^nope}}x{{/nope}}", "template 't': line 1, column 1: unknown "
	  "variable 'nope'" },
	{ "{{#yes}}x", "template 't': line 1, column 1: section 'yes' is "
	  "never closed" },
	{ "x\n{{/yes}}", "template 't': line 2, column 1: '{{/yes}}' closes "
	  "no section" },
	{ "{{#yes}}{{#no}}{{/yes}}{{/no}}", "template 't': line 1, column "
	  "16: '{{/yes}}' closes section 'no' (opened at line 1)" },
	{ "x {{n", "template 't': line 1, column 3: '{{' without '}}'" },
	{ "{{a b}}", "template 't': line 1, column 1: 'a b' is not a "
	  "variable name" },
	{ "{{}}", "template 't': line 1, column 1: '' is not a variable "
	  "name" },
	{ "{{list}}", "template 't': line 1, column 1: 'list' is a list and "
	  "cannot be written; use a section" },
	{ "{{obj}}", "template 't': line 1, column 1: 'obj' is an object "
	  "and cannot be written; use a section" },
	{ "{{none}}", "template 't': line 1, column 1: 'none' is null and "
	  "cannot be written; use a section" },
	{ "#SBATCH --comment={{pack}}\n", "template 't': line 1, column 19: "
	  "'pack' contains 'packjob', which sbatch blanks out of #SBATCH "
	  "lines" },
	{ "{{n\n}}", "template 't': line 1, column 1: tag spans lines" },
	{ "é {{nope}}", "template 't': line 1, column 3: unknown variable "
	  "'nope'" },
	{ "{{xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	  "xxxxxxx}}", "template 't': line 1, column 1: tag longer than 64 "
	  "characters" },
	/* Partials: only the built-in ones. */
	{ "a\n {{> nope}}\n", "template 't': line 2, column 2: unknown "
	  "partial 'nope'" },
	{ "{{>}}", "template 't': line 1, column 1: '' is not a variable "
	  "name" },
};

START_TEST(test_bad)
{
	int	 failed;
	char	*got = render(bad[_i].in, &failed);

	ck_assert_msg(failed, "'%s' rendered: %s", bad[_i].in, got);
	ck_assert_str_eq(got, bad[_i].msg);
	free(got);
}
END_TEST

/* A partial is parsed in place, standalone, and its errors name it. */
START_TEST(test_partial)
{
	int		 failed;
	char		*got = render("a\n{{> resilience}}\nb\n", &failed);
	const char	*want = "template 't': partial 'resilience': line ";

	ck_assert_msg(failed, "rendered without its context: %s", got);
	ck_assert_msg(strncmp(got, want, strlen(want)) == 0 &&
	    strstr(got, ": unknown variable 'launch.resilience.gate'") !=
	    NULL, "%s", got);
	free(got);
}
END_TEST

/* A partial's sections count with those around it: the render's frames
 * are bounded by TMPL_MAX_DEPTH whatever includes what. */
START_TEST(test_partial_depth)
{
	struct buf	 t;
	int		 i, failed;
	char		*got;

	buf_init(&t);
	for (i = 0; i < TMPL_MAX_DEPTH; i++)
		buf_adds(&t, "{{#yes}}");
	buf_adds(&t, "\n{{> resilience}}\n");
	for (i = 0; i < TMPL_MAX_DEPTH; i++)
		buf_adds(&t, "{{/yes}}");
	got = render(t.data, &failed);
	ck_assert_msg(failed, "rendered");
	ck_assert_msg(strncmp(got, "template 't': partial 'resilience': line ",
	    41) == 0 && strstr(got, ": sections nested deeper than 16") !=
	    NULL, "%s", got);
	free(got);
	buf_release(&t);
}
END_TEST

START_TEST(test_depth)
{
	char	 t[4096];
	int	 i, failed;
	char	*got;

	/* 16 nested sections render; 17 are refused. */
	t[0] = '\0';
	for (i = 0; i < TMPL_MAX_DEPTH; i++)
		strcat(t, "{{#yes}}");
	strcat(t, "x");
	for (i = 0; i < TMPL_MAX_DEPTH; i++)
		strcat(t, "{{/yes}}");
	got = render(t, &failed);
	ck_assert_msg(!failed, "%s", got);
	ck_assert_str_eq(got, "x");
	free(got);
	memmove(t + 8, t, strlen(t) + 1);
	memcpy(t, "{{#yes}}", 8);
	strcat(t, "{{/yes}}");
	got = render(t, &failed);
	ck_assert(failed);
	ck_assert_ptr_nonnull(strstr(got, "nested deeper than 16"));
	free(got);
}
END_TEST

/* SECTION nested N deep around BODY, after a first line LEAD. */
static char *
nested(const char *lead, const char *section, int n, const char *body)
{
	size_t	 len = strlen(lead) + strlen(body) + 2 * (size_t)n *
	    (strlen(section) + 5) + 1;
	char	*t = malloc(len);
	int	 i;

	ck_assert_ptr_nonnull(t);
	strcpy(t, lead);
	for (i = 0; i < n; i++)
		sprintf(t + strlen(t), "{{#%s}}", section);
	strcat(t, body);
	for (i = 0; i < n; i++)
		sprintf(t + strlen(t), "{{/%s}}", section);
	return t;
}

/* Render TEXT against CTX, expecting the error MSG (with a hint or not). */
static void
render_fails(const char *text, json_t *c, const char *msg, int hint)
{
	struct buf	 b;
	struct error	*err;

	buf_init(&b);
	buf_adds(&b, "already there\n");	/* not counted */
	err = tmpl_render("t", text, c, &b);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(err->status, EXIT_USAGE);
	ck_assert_str_eq(err->msg, msg);
	ck_assert_int_eq(err->hint != NULL, hint);
	/* Stopped as it crossed the limit (give or take one quoted value). */
	ck_assert_uint_le(b.len, strlen("already there\n") +
	    TMPL_MAX_OUTPUT + 64);
	error_free(err);
	buf_release(&b);
}

/*
 * The template bomb: 16 sections over an 8-item list would write 8^16
 * copies of its line (2^48: a few hundred bytes of template, petabytes
 * of script).  Rendering stops at Slurm's 4 MiB script limit, at once.
 */
START_TEST(test_bomb)
{
	json_t	*c = ctx();
	char	*t = nested("#!/bin/bash\n", "eight", TMPL_MAX_DEPTH,
	    "echo {{.}} {{name}}\n");

	render_fails(t, c, "template 't': line 2, column 1: rendered script "
	    "larger than 4 MiB (Slurm's limit)", 1);
	free(t);
	/* Nested lists of the same 8 items, one byte each. */
	t = nested("", "eight", TMPL_MAX_DEPTH, "x");
	render_fails(t, c, "template 't': line 1, column 1: rendered script "
	    "larger than 4 MiB (Slurm's limit)", 1);
	free(t);
	json_decref(c);
}
END_TEST

/* Sections that repeat without writing are bounded too. */
START_TEST(test_bomb_silent)
{
	json_t	*c = ctx();
	char	*t;

	t = nested("#!/bin/bash\n", "eight", TMPL_MAX_DEPTH, "");
	render_fails(t, c, "template 't': line 2, column 1: sections repeat "
	    "too often (more than 16777216 tags and list items to render)",
	    1);
	free(t);
	t = nested("", "eight", TMPL_MAX_DEPTH - 1,
	    "{{^eight}}never{{/eight}}");
	render_fails(t, c, "template 't': line 1, column 1: sections repeat "
	    "too often (more than 16777216 tags and list items to render)",
	    1);
	free(t);
	json_decref(c);
}
END_TEST

/* Exactly 4 MiB renders; one byte more does not, wherever it comes from. */
START_TEST(test_output_limit)
{
	struct buf	 b;
	struct error	*err;
	json_t		*c = json_object();
	char		*big = malloc(TMPL_MAX_OUTPUT);

	ck_assert_ptr_nonnull(big);
	memset(big, 'a', TMPL_MAX_OUTPUT - 2);
	big[TMPL_MAX_OUTPUT - 2] = '\0';
	json_object_set_new(c, "big", json_string(big));
	json_object_set_new(c, "one", json_pack("[i]", 1));
	json_object_set_new(c, "blank", json_string(" "));
	free(big);
	buf_init(&b);
	err = tmpl_render("t", "#{{big}}\n", c, &b);
	ck_assert_ptr_null(err);
	ck_assert_uint_eq(b.len, TMPL_MAX_OUTPUT);
	buf_release(&b);
	/* Text, a value, a quoted value: no list, so no hint. */
	render_fails("#{{big}}\nx", c, "template 't': line 1, column 9: "
	    "rendered script larger than 4 MiB (Slurm's limit)", 0);
	render_fails("#{{big}}\n{{big}}", c, "template 't': line 2, column 1: "
	    "rendered script larger than 4 MiB (Slurm's limit)", 0);
	render_fails("#{{big}}\n{{#one}}{{.}}{{/one}}", c, "template 't': "
	    "line 2, column 1: rendered script larger than 4 MiB (Slurm's "
	    "limit)", 1);
	render_fails("{{big}}{{big}}", c, "template 't': line 1, column 8: "
	    "rendered script larger than 4 MiB (Slurm's limit)", 0);
	/* 4 MiB - 1 with the value, 4 MiB + 1 once quoted. */
	render_fails("{{big}}{{blank}}", c, "template 't': line 1, column 8: "
	    "rendered script larger than 4 MiB (Slurm's limit)", 0);
	json_decref(c);
}
END_TEST

/* sbatch's lexer reads back exactly what quote_sbatch wrote. */
START_TEST(test_sbatch_roundtrip)
{
	static const char *const values[] = {
		"plain", "two words", "it's", "say \"hi\"", "back\\slash",
		"#hash", "a # b", "$(id)", "`id`", "tab\there", "é unicode",
		"--looks-like-an-option", "trailing\\",
	};
	struct buf	 b;
	char		*argv[4];
	const char	*why;
	size_t		 i;
	int		 n;

	for (i = 0; i < sizeof values / sizeof values[0]; i++) {
		buf_init(&b);
		buf_adds(&b, " --comment=");
		quote_sbatch(&b, values[i]);
		buf_adds(&b, " # trailing comment");
		n = quote_sbatch_split(b.data, argv, 4, &why);
		ck_assert_msg(n == 1, "%s: %d arguments from %s", values[i], n,
		    b.data);
		ck_assert_ptr_nonnull(strstr(argv[0], "--comment="));
		ck_assert_str_eq(argv[0] + strlen("--comment="), values[i]);
		free(argv[0]);
		buf_release(&b);
	}
	n = quote_sbatch_split(" --x=\"open", argv, 4, &why);
	ck_assert_int_eq(n, -1);
	ck_assert_str_eq(why, "unterminated quote");
	n = quote_sbatch_split(" -N 2  --gpus-per-node=8", argv, 4, &why);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(argv[0], "-N");
	ck_assert_str_eq(argv[1], "2");
	ck_assert_str_eq(argv[2], "--gpus-per-node=8");
	free(argv[0]);
	free(argv[1]);
	free(argv[2]);
	ck_assert_ptr_nonnull(quote_sbatch_check("a\nb"));
	ck_assert_ptr_nonnull(quote_sbatch_check("my PACKJOB"));
	ck_assert_ptr_null(quote_sbatch_check("fine"));
}
END_TEST

START_TEST(test_shell_quote)
{
	struct buf	 b;

	buf_init(&b);
	quote_shell(&b, "");
	ck_assert_str_eq(b.data, "''");
	buf_reset(&b);
	quote_shell(&b, "model.tensor_model_parallel_size=2");
	ck_assert_str_eq(b.data, "model.tensor_model_parallel_size=2");
	buf_reset(&b);
	quote_shell(&b, "a'b");
	ck_assert_str_eq(b.data, "'a'\\''b'");
	buf_reset(&b);
	quote_shell(&b, "~user");
	ck_assert_str_eq(b.data, "'~user'");
	buf_reset(&b);
	quote_shell(&b, "*");
	ck_assert_str_eq(b.data, "'*'");
	buf_release(&b);
}
END_TEST

static Suite *
tmpl_suite(void)
{
	Suite	*s = suite_create("tmpl");
	TCase	*tc;

	tc = tcase_create("render");
	tcase_add_loop_test(tc, test_good, 0, sizeof good / sizeof good[0]);
	tcase_add_loop_test(tc, test_bad, 0, sizeof bad / sizeof bad[0]);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_partial);
	tcase_add_test(tc, test_partial_depth);
	suite_add_tcase(s, tc);
	/* Without the limits these would run out of memory or time. */
	tc = tcase_create("limits");
	tcase_add_test(tc, test_bomb);
	tcase_add_test(tc, test_bomb_silent);
	tcase_add_test(tc, test_output_limit);
	suite_add_tcase(s, tc);
	tc = tcase_create("quote");
	tcase_add_test(tc, test_sbatch_roundtrip);
	tcase_add_test(tc, test_shell_quote);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(tmpl_suite());
}
