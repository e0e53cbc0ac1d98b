/*
 * check_pyformat.c: numbers read only as Python's format() prints them
 * (src/logs/pyformat.c).  Random doubles over the whole range, printed by C's
 * printf in the conversions Python's "{:.Nf}" and "{:.6E}" share with it
 * (both round correctly: the same digits), are read back exactly; what
 * Python cannot print for a number >= 0 is refused.  The seed is
 * MBS_TEST_SEED's, or the time's, and is printed.
 */
#include <check.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pyformat.h"
#include "run.h"
#include "seed.h"

static uint64_t	 seed;

/* A finite double >= 0: every bit pattern, or a figure's size. */
static double
some_double(uint64_t *s)
{
	uint64_t	 bits = splitmix64(s) & 0x7fffffffffffffffULL;
	double		 x;

	if (bits % 3 == 0) {		/* a figure a log holds */
		x = (double)(splitmix64(s) % 100000000) / 1000.0;
		return ldexp(x, (int)(splitmix64(s) % 40) - 20);
	}
	memcpy(&x, &bits, sizeof x);
	return isfinite(x) ? x : 1.0;
}

START_TEST(test_random)
{
	static const enum pyformat f[] = {
		PYF_F0, PYF_F1, PYF_F2, PYF_F3, PYF_E6
	};
	char		 buf[400];
	double		 x, v;
	uint64_t	 s = seed;
	size_t		 k;
	int		 i, n;

	for (i = 0; i < 20000; i++) {
		x = some_double(&s);
		for (k = 0; k < sizeof f / sizeof f[0]; k++) {
			n = f[k] == PYF_E6 ? snprintf(buf, sizeof buf, "%.6E",
			    x) : snprintf(buf, sizeof buf, "%.*f", (int)f[k] -
			    PYF_F0, x);
			ck_assert_msg(pyformat_real(buf, (size_t)n, f[k],
			    false, &v) && v == strtod(buf, NULL), "seed %"
			    PRIu64 ": %s not read in spec %d (%.17g)", seed,
			    buf, (int)f[k], v);
		}
	}
}
END_TEST

/* repr, as Python 3.11 prints these floats (repr(x)). */
START_TEST(test_repr)
{
	static const struct {
		const char	*text;
		double		 v;
	} t[] = {
		{ "0.0", 0 }, { "21.475", 21.475 }, { "1e-05", 1e-05 },
		{ "1.2345e+16", 1.2345e+16 }, { "0.0001", 0.0001 },
		{ "9999999999999998.0", 9999999999999998.0 },
		{ "1e+16", 1e16 }, { "123456789.0", 123456789.0 },
		{ "5e-324", 5e-324 }, { "1.7976931348623157e+308", DBL_MAX },
		{ "0.00010000000000000002", 0.00010000000000000002 },
		{ "12.5", 12.5 },
	};
	size_t	 i;
	double	 v;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		ck_assert_msg(pyformat_real(t[i].text, strlen(t[i].text),
		    PYF_REPR, false, &v) && v == t[i].v, "%s", t[i].text);
}
END_TEST

/* What no format spec prints for a number >= 0. */
START_TEST(test_refuse)
{
	static const struct {
		const char	*text;
		enum pyformat	 spec;
	} t[] = {
		{ "-0", PYF_F0 }, { "-0.0", PYF_F1 }, { "-0.000000E+00", PYF_E6 },
		{ "-1e308", PYF_E6 }, { "-1.000000E+308", PYF_E6 },
		{ "0x1p3", PYF_E6 }, { "0x1p3", PYF_F1 }, { "0x1p3", PYF_REPR },
		{ "1e308", PYF_F1 }, { "1e308", PYF_E6 },
		{ "1.0", PYF_E6 }, { "1.003808e+01", PYF_E6 },
		{ "1.003808E+1", PYF_E6 }, { "1.003808E+001", PYF_E6 },
		{ "1.00380E+01", PYF_E6 }, { "10.003808E+01", PYF_E6 },
		{ "0.100000E+00", PYF_E6 }, { "0.000000E+01", PYF_E6 },
		{ "1.000000E+400", PYF_E6 }, { "9.999999E-400", PYF_E6 },
		{ "01.5", PYF_F1 }, { "1.50", PYF_F1 }, { "1.", PYF_F1 },
		{ ".5", PYF_F1 }, { "1", PYF_F1 }, { "1.0", PYF_F0 },
		{ "+1.0", PYF_F1 }, { " 1.0", PYF_F1 }, { "1.0 ", PYF_F1 },
		{ "", PYF_F1 }, { "1.5x", PYF_F1 }, { "1,5", PYF_F1 },
		{ "1e", PYF_REPR }, { "12.50", PYF_REPR }, { "1.0e+16", PYF_REPR },
		{ "1e+15", PYF_REPR }, { "0.00001", PYF_REPR },
		{ "10000000000000000.0", PYF_REPR }, { "12e+20", PYF_REPR },
		{ "1e+400", PYF_REPR }, { "1", PYF_REPR },
		{ "inf", PYF_E6 }, { "INF", PYF_F1 }, { "-inf", PYF_F1 },
		{ "Infinity", PYF_F1 }, { "NaN", PYF_E6 }, { "-nan", PYF_F3 },
	};
	size_t	 i;
	double	 v;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		ck_assert_msg(!pyformat_real(t[i].text, strlen(t[i].text),
		    t[i].spec, true, &v), "'%s' (spec %d) read as %g",
		    t[i].text, t[i].spec, v);
	/* Longer than any double's "{:.3f}". */
	{
		char	 big[PYFORMAT_MAX + 8];

		memset(big, '1', sizeof big - 3);
		memcpy(big + sizeof big - 3, ".0", 3);
		ck_assert(!pyformat_real(big, strlen(big), PYF_F1, false,
		    &v));
	}
}
END_TEST

/* inf and nan: in the spec's case, and only when asked for. */
START_TEST(test_nonfinite)
{
	double	 v;

	ck_assert(pyformat_real("inf", 3, PYF_F3, true, &v) && isinf(v));
	ck_assert(pyformat_real("nan", 3, PYF_F3, true, &v) && isnan(v));
	ck_assert(pyformat_real("INF", 3, PYF_E6, true, &v) && isinf(v));
	ck_assert(pyformat_real("NAN", 3, PYF_E6, true, &v) && isnan(v));
	ck_assert(pyformat_real("inf", 3, PYF_REPR, true, &v) && isinf(v));
	ck_assert(!pyformat_real("inf", 3, PYF_F3, false, &v));
	ck_assert(!pyformat_real("INF", 3, PYF_E6, false, &v));
	/* The largest "{:.1f}", all 309 digits, is a figure. */
	{
		char	 buf[400];
		int	 n = snprintf(buf, sizeof buf, "%.1f", DBL_MAX);

		ck_assert(pyformat_real(buf, (size_t)n, PYF_F1, false, &v) &&
		    v == DBL_MAX);
	}
}
END_TEST

START_TEST(test_int)
{
	static const char *const bad[] = {
		"", "007", "-1", "+1", "1.0", "9223372036854775808", " 1",
		"1 ", "0x10",
	};
	int64_t	 v;
	size_t	 i;

	ck_assert(pyformat_int("0", 1, &v) && v == 0);
	ck_assert(pyformat_int("42", 2, &v) && v == 42);
	ck_assert(pyformat_int("9223372036854775807", 19, &v) &&
	    v == INT64_MAX);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!pyformat_int(bad[i], strlen(bad[i]), &v),
		    "'%s'", bad[i]);
}
END_TEST

static Suite *
pyformat_suite(void)
{
	Suite	*s = suite_create("pyformat");
	TCase	*tc = tcase_create("formats");

	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_repr);
	tcase_add_test(tc, test_refuse);
	tcase_add_test(tc, test_nonfinite);
	tcase_add_test(tc, test_int);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	seed = test_seed("check_pyformat");
	return run_suite(pyformat_suite());
}
