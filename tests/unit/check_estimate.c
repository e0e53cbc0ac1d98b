/*
 * check_estimate.c: the estimate as plan, plan --search, recommend and
 * check-log show it (src/render/report-estimate.c), from costs made by hand: the
 * line of text, the terms that add up to the step whatever the site factor,
 * the sentences of the largest terms, the JSON object and its null.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "gpu.h"
#include "report.h"
#include "run.h"

static struct sizing_input	 in;
static struct cost_hw		 hw;
static struct cost		 c;

/* The example: 1.23 s a step, 26,600 tokens/s on 64 GPUs, 512
 * TFLOP/s/GPU, MFU 52%, on an h100 in BF16; TP 2, PP 4, 32 micro-batches. */
static struct report_estimate
example(double site_factor)
{
	struct report_estimate	 e;
	double			 sum = 0;
	int			 k;

	sizing_input_init(&in);
	in.layout.tp = 2;
	in.layout.pp = 4;
	in.layout.vpp = 1;
	cost_hw_init(&hw, gpu_type_find("h100"), INTERCONNECT_IB);
	hw.site_factor = site_factor;
	memset(&c, 0, sizeof c);
	c.term[COST_COMPUTE] = 1.0;
	c.term[COST_BUBBLE] = 0.12;
	c.term[COST_TP] = 0.1;
	c.term[COST_PP] = 0.01;		/* under 1% of the step: not said */
	for (k = 0; k < COST_NTERMS; k++)
		sum += c.term[k];
	c.step_s = sum / site_factor;	/* cost.h: the factor scales speed */
	c.microbatches = 32;
	c.tokens_per_s = 26600;
	c.tflops_per_gpu = 512;
	c.mfu = 0.52;
	c.flops_per_token = 512e12 / (26600.0 / 64);
	memset(&e, 0, sizeof e);
	e.in = &in;
	e.world = 64;
	e.gpu = gpu_type_find("h100");
	e.interconnect = INTERCONNECT_IB;
	e.hw = &hw;
	e.cost = &c;
	return e;
}

START_TEST(line_example)
{
	struct report_estimate	 e = example(1);
	char			 buf[REPORT_LINE_MAX];

	report_estimate_line(&e, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.23 s/step, 26.6K tokens/s (416/GPU), 512 "
	    "TFLOP/s/GPU, MFU 52% on h100 (bf16)");
}
END_TEST

/* What was assumed is said: no GPU type, the FP8 recipe, a site factor. */
START_TEST(line_assumed)
{
	struct report_estimate	 e = example(0.83);
	char			 buf[REPORT_LINE_MAX];

	e.gpu = NULL;
	in.fp8 = FP8_MXFP8;
	c.step_s = 1.23;
	report_estimate_line(&e, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.23 s/step, 26.6K tokens/s (416/GPU), 512 "
	    "TFLOP/s/GPU, MFU 52% on h100 (assumed: no --gpu-type) (fp8 "
	    "mxfp8), site factor 0.83");
	ck_assert_str_eq(report_estimate_precision(&e), "fp8");
	ck_assert_str_eq(report_estimate_fp8_recipe(&e), "mxfp8");
	in.fp8 = FP8_NO;
	in.params_dtype = PRECISION_FP16;
	ck_assert_str_eq(report_estimate_precision(&e), "fp16");
	ck_assert_ptr_null(report_estimate_fp8_recipe(&e));
}
END_TEST

START_TEST(line_reason)
{
	struct report_estimate	 e = example(1);
	char			 buf[REPORT_LINE_MAX];

	e.reason = "needs the sequence length";
	report_estimate_line(&e, buf, sizeof buf);
	ck_assert_str_eq(buf, "none: needs the sequence length");
}
END_TEST

/* The terms shown add up to the step, with a site factor too: each is
 * scaled as the step is. */
static const double factors[] = { 1, 0.5, 0.83, 2.5 };

START_TEST(seconds_add_up)
{
	struct report_estimate	 e = example(factors[_i]);
	double			 sum = 0;
	int			 k;

	for (k = 0; k < COST_NTERMS; k++)
		sum += report_estimate_seconds(&e, k);
	ck_assert_double_eq_tol(sum, c.step_s, 1e-12 * c.step_s);
	ck_assert_double_eq_tol(report_estimate_seconds(&e, COST_COMPUTE),
	    1.0 / factors[_i], 1e-12);
}
END_TEST

/* The largest terms beyond compute, largest first, none under 1%. */
START_TEST(terms_sentences)
{
	struct report_estimate	 e = example(1);
	char			 lines[COST_NTERMS][REPORT_LINE_MAX];
	int			 n;

	n = report_estimate_terms(&e, 8, lines, COST_NTERMS);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(lines[0], "pipeline bubble 9.8% of the step: PP 4, "
	    "VPP 1, 32 micro-batches");
	ck_assert_str_eq(lines[1], "TP 2 gathers and scatters inside the "
	    "NVLink domain: 8.1% of the step");
	/* At most MAX of them. */
	ck_assert_int_eq(report_estimate_terms(&e, 8, lines, 1), 1);
	/* The same shares with a site factor. */
	e = example(0.5);
	c.crosses[COST_TP] = true;
	n = report_estimate_terms(&e, 8, lines, COST_NTERMS);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(lines[1], "TP 2 gathers and scatters across the "
	    "network: 8.1% of the step");
}
END_TEST

START_TEST(json_estimate)
{
	static const char *const keys[] = { "step_seconds",
	    "tokens_per_second", "tokens_per_second_per_gpu",
	    "tflops_per_gpu", "mfu", "seconds", "flops_per_token",
	    "world_size", "microbatches", "microbatches_assumed", "gpu_type",
	    "gpu_type_assumed", "precision", "fp8_recipe", "interconnect",
	    "site_factor", "accuracy" };
	struct report_estimate	 e = example(0.5);
	json_t			*o = json_object(), *x, *t;
	size_t			 i;
	int			 k;

	report_estimate_json(o, &e);
	ck_assert(json_is_null(json_object_get(o, "estimate_reason")));
	x = json_object_get(o, "estimate");
	ck_assert(json_is_object(x));
	ck_assert_int_eq(json_object_size(x), sizeof keys / sizeof keys[0]);
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		ck_assert_msg(json_object_get(x, keys[i]) != NULL, "no %s",
		    keys[i]);
	ck_assert_double_eq_tol(json_real_value(json_object_get(x,
	    "tokens_per_second_per_gpu")), 26600.0 / 64, 1e-9);
	ck_assert_double_eq(json_real_value(json_object_get(x,
	    "site_factor")), 0.5);
	/* Every term of the table, by its name. */
	t = json_object_get(x, "seconds");
	ck_assert_int_eq(json_object_size(t), COST_NTERMS);
	for (k = 0; k < COST_NTERMS; k++)
		ck_assert_double_eq(json_real_value(json_object_get(t,
		    cost_term_names[k])), report_estimate_seconds(&e, k));
	json_decref(o);

	o = json_object();
	e.reason = "the layout has errors (see findings)";
	report_estimate_json(o, &e);
	ck_assert(json_is_null(json_object_get(o, "estimate")));
	ck_assert_str_eq(json_string_value(json_object_get(o,
	    "estimate_reason")), e.reason);
	json_decref(o);
}
END_TEST

static Suite *
estimate_suite(void)
{
	Suite	*s = suite_create("estimate");
	TCase	*tc;

	tc = tcase_create("line");
	tcase_add_test(tc, line_example);
	tcase_add_test(tc, line_assumed);
	tcase_add_test(tc, line_reason);
	suite_add_tcase(s, tc);
	tc = tcase_create("terms");
	tcase_add_loop_test(tc, seconds_add_up, 0,
	    sizeof factors / sizeof factors[0]);
	tcase_add_test(tc, terms_sentences);
	suite_add_tcase(s, tc);
	tc = tcase_create("json");
	tcase_add_test(tc, json_estimate);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(estimate_suite());
}
