/* check_number.c: the bounded number parsers (src/core/number.c). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "run.h"

struct int_case {
	const char	*text;
	int64_t		 min, max;
	int64_t		 want;		/* when reason is NULL */
	const char	*reason;
};

static const struct int_case int_cases[] = {
	{ "8", 1, 65536, 8, NULL },
	{ "1", 1, 65536, 1, NULL },
	{ "65536", 1, 65536, 65536, NULL },
	{ "65537", 1, 65536, 0, "is too large" },
	{ "0", 1, 65536, 0, "is too small" },
	{ "0", 0, 10, 0, NULL },
	{ "007", 1, 10, 7, NULL },
	{ "-1", 1, 65536, 0, "is negative" },
	{ "-", 1, 65536, 0, "is not a number" },
	{ "2.5", 1, 65536, 0, "is not a whole number" },
	{ "2.0", 1, 65536, 0, "is not a whole number" },
	{ "1e3", 1, 65536, 0, "is not a whole number" },
	{ "1099511627776", 1, 65536, 0, "is too large" },
	{ "99999999999999999999999", 1, 65536, 0, "is too large" },
	{ "abc", 1, 65536, 0, "is not a number" },
	{ "", 1, 65536, 0, "is empty" },
	{ " 2", 1, 65536, 0, "is not a number" },
	{ "2 ", 1, 65536, 0, "is not a number" },
	{ "0x10", 1, 65536, 0, "is not a number" },
	{ "+2", 1, 65536, 0, "is not a number" },
	{ "8k", 1, 65536, 0, "is not a number" },
};

START_TEST(test_int)
{
	const struct int_case	*c = &int_cases[_i];
	const char		*reason;
	int64_t			 v = -42;

	reason = number_parse_int(c->text, c->min, c->max, &v);
	if (c->reason == NULL) {
		ck_assert_msg(reason == NULL, "'%s': %s", c->text, reason);
		ck_assert_int_eq(v, c->want);
	} else {
		ck_assert_msg(reason != NULL, "'%s' accepted", c->text);
		ck_assert_str_eq(reason, c->reason);
		ck_assert_int_eq(v, -42);	/* untouched */
	}
}
END_TEST

#define P15	INT64_C(1000000000000000)

static const struct int_case count_cases[] = {
	{ "70B", 1, P15, INT64_C(70000000000), NULL },
	{ "70b", 1, P15, INT64_C(70000000000), NULL },
	{ "70G", 1, P15, INT64_C(70000000000), NULL },
	{ "1.5T", 1, P15, INT64_C(1500000000000), NULL },
	{ "7e9", 1, P15, INT64_C(7000000000), NULL },
	{ "7E+9", 1, P15, INT64_C(7000000000), NULL },
	{ "8030261248", 1, P15, INT64_C(8030261248), NULL },
	{ "340M", 1, P15, INT64_C(340000000), NULL },
	{ "1.235B", 1, P15, INT64_C(1235000000), NULL },
	{ "0.5K", 1, P15, 500, NULL },
	{ "1e-3T", 1, P15, INT64_C(1000000000), NULL },
	{ "1P", 1, P15, P15, NULL },
	{ "2P", 1, P15, 0, "is too large" },
	{ "1.5", 1, P15, 0, "is not a whole number" },
	{ "1.0000000001B", 1, P15, 0, "is not a whole number" },
	{ "0", 1, P15, 0, "is too small" },
	{ "0B", 1, P15, 0, "is too small" },
	{ "-70B", 1, P15, 0, "is negative" },
	{ "70X", 1, P15, 0, "is not a number" },
	{ "70BB", 1, P15, 0, "is not a number" },
	{ "B", 1, P15, 0, "is not a number" },
	{ "1e", 1, P15, 0, "is not a number" },
	{ "1e999999999999", 1, P15, 0, "is too large" },
	{ "99999999999999999999999T", 1, P15, 0, "is too large" },
	{ "", 1, P15, 0, "is empty" },
	{ ".", 1, P15, 0, "is not a number" },
};

START_TEST(test_count)
{
	const struct int_case	*c = &count_cases[_i];
	const char		*reason;
	int64_t			 v = -42;

	reason = number_parse_count(c->text, c->min, c->max, &v);
	if (c->reason == NULL) {
		ck_assert_msg(reason == NULL, "'%s': %s", c->text, reason);
		ck_assert_int_eq(v, c->want);
	} else {
		ck_assert_msg(reason != NULL, "'%s' accepted as %lld", c->text,
		    (long long)v);
		ck_assert_str_eq(reason, c->reason);
	}
}
END_TEST

START_TEST(test_decimal)
{
	const char	*reason;
	double		 v = 0;

	ck_assert_ptr_null(number_parse_decimal("79.6", 1, 4096, &v));
	ck_assert_double_eq_tol(v, 79.6, 1e-9);
	ck_assert_ptr_null(number_parse_decimal("80", 1, 4096, &v));
	ck_assert_double_eq_tol(v, 80, 1e-9);
	reason = number_parse_decimal("0.5", 1, 4096, &v);
	ck_assert_str_eq(reason, "is too small");
	reason = number_parse_decimal("5000", 1, 4096, &v);
	ck_assert_str_eq(reason, "is too large");
	reason = number_parse_decimal("8e1", 1, 4096, &v);
	ck_assert_str_eq(reason, "is not a number");
	reason = number_parse_decimal("-80", 1, 4096, &v);
	ck_assert_str_eq(reason, "is negative");
	reason = number_parse_decimal("", 1, 4096, &v);
	ck_assert_str_eq(reason, "is empty");
}
END_TEST

/* Reals with an exponent: norm epsilons, learning rates. */
START_TEST(test_real)
{
	double		 v = 0;

	ck_assert_ptr_null(number_parse_real("1e-6", 0, 1, &v));
	ck_assert_double_eq_tol(v, 1e-6, 1e-18);
	ck_assert_ptr_null(number_parse_real("3E-4", 0, 1, &v));
	ck_assert_double_eq_tol(v, 3e-4, 1e-16);
	ck_assert_ptr_null(number_parse_real("2.446", 0, 1000, &v));
	ck_assert_double_eq_tol(v, 2.446, 1e-12);
	ck_assert_ptr_null(number_parse_real("1e+06", 0, 1e9, &v));
	ck_assert_double_eq_tol(v, 1e6, 1e-6);
	ck_assert_str_eq(number_parse_real("1e-", 0, 1, &v),
	    "is not a number");
	ck_assert_str_eq(number_parse_real("e5", 0, 1, &v), "is not a number");
	ck_assert_str_eq(number_parse_real("1e999", 0, 1, &v), "is too large");
	ck_assert_str_eq(number_parse_real("2", 0, 1, &v), "is too large");
	ck_assert_str_eq(number_parse_real("-1e-6", 0, 1, &v), "is negative");
	ck_assert_str_eq(number_parse_real("", 0, 1, &v), "is empty");
}
END_TEST

START_TEST(test_format_count)
{
	char	 b[32];

	number_format_count(INT64_C(70000000000), b, sizeof b);
	ck_assert_str_eq(b, "70B");
	number_format_count(INT64_C(1500000000000), b, sizeof b);
	ck_assert_str_eq(b, "1.5T");
	number_format_count(INT64_C(8030261248), b, sizeof b);
	ck_assert_str_eq(b, "8030261248");
	number_format_count(999, b, sizeof b);
	ck_assert_str_eq(b, "999");
}
END_TEST

static Suite *
number_suite(void)
{
	Suite	*s = suite_create("number");
	TCase	*tc;

	tc = tcase_create("int");
	tcase_add_loop_test(tc, test_int, 0,
	    sizeof int_cases / sizeof int_cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("count");
	tcase_add_loop_test(tc, test_count, 0,
	    sizeof count_cases / sizeof count_cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("decimal");
	tcase_add_test(tc, test_decimal);
	tcase_add_test(tc, test_real);
	tcase_add_test(tc, test_format_count);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(number_suite());
}
