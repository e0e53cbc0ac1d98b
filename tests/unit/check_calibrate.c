/*
 * check_calibrate.c: the site factor's fit (src/core/calibrate.c) and
 * where it is stored: a cluster profile of the user's config file, edited
 * without losing a key (src/job/config-edit.c).
 */
#include <sys/stat.h>

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "calibrate.h"
#include "config-edit.h"
#include "error.h"
#include "run.h"

static uint64_t	 seed;

struct ratio_case {
	double	 est, measured, want;	/* want -1: refused */
};

static const struct ratio_case ratio_cases[] = {
	{ 200, 800, 0.25 },
	{ 800, 200, 4 },
	{ 1, 1, 1 },
	{ 0, 800, -1 },
	{ 800, 0, -1 },
	{ -1, 800, -1 },
	{ 800, -5, -1 },
	{ NAN, 800, -1 },
	{ 800, INFINITY, -1 },
	{ 1e308, 1e-308, -1 },		/* overflows to infinity */
};

START_TEST(test_ratio)
{
	const struct ratio_case	*c = &ratio_cases[_i];

	ck_assert_double_eq(calibrate_ratio(c->est, c->measured), c->want);
}
END_TEST

struct fit_case {
	double		 r[6];
	size_t		 n;
	double		 median, factor, min, max;	/* when why is NULL */
	const char	*why;
};

static const struct fit_case fit_cases[] = {
	{ { 0.8 }, 1, 0.8, 0.8, 0.8, 0.8, NULL },
	{ { 0.9, 0.7, 0.8 }, 3, 0.8, 0.8, 0.7, 0.9, NULL },
	{ { 0.9, 0.7, 0.8, 0.6 }, 4, 0.75, 0.75, 0.6, 0.9, NULL },
	/* One log 10 times off moves the median by one neighbour. */
	{ { 0.8, 0.82, 8.0, 0.81, 0.79 }, 5, 0.81, 0.81, 0.79, 8.0, NULL },
	/* Four significant digits are stored. */
	{ { 0.241076698, 0.244934047, 0.242541155 }, 3, 0.242541155, 0.2425,
	  0.241076698, 0.244934047, NULL },
	{ { 0.0501, 19.99 }, 2, 10.02005, 10.02, 0.0501, 19.99, NULL },
	{ { 0 }, 0, 0, 0, 0, 0, "no log to fit" },
	{ { 0.8, -1 }, 2, 0, 0, 0, 0, "a ratio is not a positive number" },
	{ { 0.8, NAN }, 2, 0, 0, 0, 0, "a ratio is not a positive number" },
	{ { 0.01, 0.02, 0.03 }, 3, 0, 0, 0, 0, "the site runs more than 20 "
	  "times slower than the model says: not a calibration" },
	{ { 0.05 }, 1, 0, 0, 0, 0, "the site runs more than 20 times slower "
	  "than the model says: not a calibration" },
	/* Above 0.05, but stored as 0.05: refused, not written. */
	{ { 0.050004 }, 1, 0, 0, 0, 0, "the site runs more than 20 times "
	  "slower than the model says: not a calibration" },
	{ { 20 }, 1, 0, 0, 0, 0, "the site runs more than 20 times faster "
	  "than the model says: not a calibration" },
	{ { 19.9996 }, 1, 0, 0, 0, 0, "the site runs more than 20 times "
	  "faster than the model says: not a calibration" },
};

START_TEST(test_fit)
{
	const struct fit_case	*c = &fit_cases[_i];
	struct calibrate_fit	 fit;
	const char		*why;

	why = calibrate_fit(c->r, c->n, &fit);
	if (c->why != NULL) {
		ck_assert_ptr_nonnull(why);
		ck_assert_str_eq(why, c->why);
		return;
	}
	ck_assert_msg(why == NULL, "case %d: %s", _i, why);
	ck_assert_double_eq_tol(fit.median, c->median, 1e-12);
	ck_assert_double_eq(fit.factor, c->factor);
	ck_assert_double_eq(fit.min, c->min);
	ck_assert_double_eq(fit.max, c->max);
	ck_assert_double_eq_tol(fit.spread, c->max / c->min - 1, 1e-12);
	ck_assert_uint_eq(fit.n, c->n);
}
END_TEST

/*
 * Random ratios: the factor is a median (no more than half the ratios
 * on either side of it), the same in any order, between min and max.
 */
START_TEST(test_fit_random)
{
	static double	 r[CALIBRATE_MAX_LOGS], s[CALIBRATE_MAX_LOGS];
	struct calibrate_fit fit, fit2;
	uint64_t	 st = seed + (uint64_t)_i;
	size_t		 n, i, j, below, above;
	double		 t;

	n = 1 + splitmix64(&st) % 64;
	if (_i == 0)
		n = CALIBRATE_MAX_LOGS;
	for (i = 0; i < n; i++)
		r[i] = 0.1 + (double)(splitmix64(&st) % 100000) / 10000.0;
	ck_assert_msg(calibrate_fit(r, n, &fit) == NULL, "seed %llu",
	    (unsigned long long)seed);
	below = above = 0;
	for (i = 0; i < n; i++) {
		below += r[i] < fit.median;
		above += r[i] > fit.median;
	}
	ck_assert_msg(below <= n / 2 && above <= n / 2, "seed %llu: %zu "
	    "below, %zu above of %zu", (unsigned long long)seed, below,
	    above, n);
	ck_assert(fit.min <= fit.median && fit.median <= fit.max);
	ck_assert_double_eq_tol(fit.factor, fit.median, fit.median * 5e-4);
	memcpy(s, r, n * sizeof *r);
	for (i = n - 1; i > 0; i--) {		/* Fisher-Yates */
		j = splitmix64(&st) % (i + 1);
		t = s[i];
		s[i] = s[j];
		s[j] = t;
	}
	ck_assert(calibrate_fit(s, n, &fit2) == NULL);
	ck_assert_msg(fit2.median == fit.median, "seed %llu: order changed "
	    "the median", (unsigned long long)seed);
}
END_TEST

START_TEST(test_too_many)
{
	static double	 r[CALIBRATE_MAX_LOGS + 1];
	struct calibrate_fit fit;
	size_t		 i;

	for (i = 0; i <= CALIBRATE_MAX_LOGS; i++)
		r[i] = 1;
	ck_assert_str_eq(calibrate_fit(r, CALIBRATE_MAX_LOGS + 1, &fit),
	    "more than 1024 logs");
}
END_TEST

START_TEST(test_factor_check)
{
	ck_assert_ptr_null(calibration_factor_check(1));
	ck_assert_ptr_null(calibration_factor_check(0.0501));
	ck_assert_ptr_null(calibration_factor_check(19.99));
	ck_assert_ptr_nonnull(calibration_factor_check(0.05));
	ck_assert_ptr_nonnull(calibration_factor_check(0));
	ck_assert_ptr_nonnull(calibration_factor_check(20));
	ck_assert_ptr_nonnull(calibration_factor_check(NAN));
	ck_assert_ptr_nonnull(calibration_factor_check(INFINITY));
}
END_TEST

struct date_case {
	const char	*s;
	bool		 ok;
};

static const struct date_case date_cases[] = {
	{ "2026-12-06", true }, { "1970-01-01", true }, { "2000-02-29", true },
	{ "2024-02-29", true }, { "9999-12-31", true },
	{ "2100-02-29", false }, { "2026-02-29", false },
	{ "2026-13-01", false }, { "2026-00-10", false },
	{ "2026-04-31", false }, { "1969-12-31", false },
	{ "2026-12-6", false }, { "2026/12/06", false },
	{ "2026-12-06 ", false }, { "", false }, { "20261206", false },
	{ "2026-12-0x", false },
};

START_TEST(test_date_check)
{
	const struct date_case	*c = &date_cases[_i];

	ck_assert_msg((calibration_date_check(c->s) == NULL) == c->ok,
	    "'%s'", c->s);
}
END_TEST

/* The date of a Unix time, against libc's gmtime_r: fixed days, then
 * random ones. */
START_TEST(test_date)
{
	static const int64_t	 fixed[] = { 0, 86399, 86400, 951782400,
	    951868799, 1765065600, 4107542399, INT64_C(253402300799) };
	uint64_t		 st = seed;
	char			 got[16], want[16];
	struct tm		 tm;
	time_t			 tt;
	int64_t			 t;
	int			 i;

	for (i = 0; i < 1000; i++) {
		t = i < 8 ? fixed[i] : (int64_t)(splitmix64(&st) %
		    UINT64_C(253402300800));
		tt = (time_t)t;
		ck_assert(gmtime_r(&tt, &tm) != NULL);
		strftime(want, sizeof want, "%Y-%m-%d", &tm);
		ck_assert(calibration_date(t, got, sizeof got));
		ck_assert_msg(strcmp(got, want) == 0, "seed %llu: %lld is "
		    "%s, not %s", (unsigned long long)seed, (long long)t,
		    want, got);
		ck_assert_ptr_null(calibration_date_check(got));
	}
	ck_assert(!calibration_date(-1, got, sizeof got));
	ck_assert(!calibration_date(INT64_C(253402300800), got, sizeof got));
	ck_assert(!calibration_date(0, got, 10));
}
END_TEST

/* A config file in DIR with TEXT; its path, a static buffer. */
static const char *
config_with(const char *dir, const char *text)
{
	static char	 path[512];
	FILE		*f;

	snprintf(path, sizeof path, "%s/config.json", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

static char *
slurp(const char *path)
{
	FILE	*f = fopen(path, "r");
	char	*s;
	long	 n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

static const char config_ours[] =
    "{\n"
    "  \"default_cluster\": \"lab\",\n"
    "  \"clusters\": {\n"
    "    \"lab\": {\n"
    "      \"gpu_type\": \"h100\",\n"
    "      \"gpu_memory\": 79.6,\n"
    "      \"site_factor\": 0.5,\n"
    "      \"partition\": \"batch\"\n"
    "    },\n"
    "    \"other\": {\n"
    "      \"gpus_per_node\": 4\n"
    "    }\n"
    "  },\n"
    "  \"presets_dir\": \"presets\"\n"
    "}\n";

/* In the format written: only the keys set change, a key already there
 * in its place, a new one last; byte for byte. */
START_TEST(test_edit_same_format)
{
	char			 dir[] = "/tmp/check_calibrate.XXXXXX";
	struct config_edit	 e;
	const char		*path;
	struct stat		 st;
	json_t			*keys;
	char			*text;
	mode_t			 mask;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = config_with(dir, config_ours);
	ck_assert_int_eq(chmod(path, 0640), 0);
	keys = json_pack("{s:f,s:i}", "site_factor", 0.8312,
	    "site_factor_logs", 3);
	ck_assert_ptr_null(config_edit_profile(path, "lab", keys, false,
	    &e));
	json_decref(keys);
	ck_assert(e.same_format);
	text = slurp(path);
	ck_assert_str_eq(text, e.text);
	ck_assert_str_eq(text,
	    "{\n"
	    "  \"default_cluster\": \"lab\",\n"
	    "  \"clusters\": {\n"
	    "    \"lab\": {\n"
	    "      \"gpu_type\": \"h100\",\n"
	    "      \"gpu_memory\": 79.6,\n"
	    "      \"site_factor\": 0.8312,\n"
	    "      \"partition\": \"batch\",\n"
	    "      \"site_factor_logs\": 3\n"
	    "    },\n"
	    "    \"other\": {\n"
	    "      \"gpus_per_node\": 4\n"
	    "    }\n"
	    "  },\n"
	    "  \"presets_dir\": \"presets\"\n"
	    "}\n");
	ck_assert_int_eq(stat(path, &st), 0);
	mask = umask(0);
	umask(mask);
	ck_assert_int_eq(st.st_mode & 0777, 0640 & ~mask);
	free(text);
	config_edit_release(&e);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* Another layout: rewritten, JSON-equal but for the keys; a dry run
 * writes nothing. */
START_TEST(test_edit_other_format)
{
	char			 dir[] = "/tmp/check_calibrate.XXXXXX";
	static const char	 text0[] = "{\"clusters\": {\"lab\": "
	    "{\"gpu_memory\": 79.60, \"partition\": \"batch\"}}, "
	    "\"default_cluster\": \"lab\"}";
	struct config_edit	 e;
	const char		*path;
	json_t			*keys, *before, *after;
	char			*text;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = config_with(dir, text0);
	keys = json_pack("{s:f}", "site_factor", 1.25);
	ck_assert_ptr_null(config_edit_profile(path, "lab", keys, true, &e));
	ck_assert(!e.same_format);
	text = slurp(path);
	ck_assert_str_eq(text, text0);		/* --dry-run */
	free(text);
	config_edit_release(&e);
	ck_assert_ptr_null(config_edit_profile(path, "lab", keys, false,
	    &e));
	json_decref(keys);
	before = json_loads(text0, 0, NULL);
	json_object_set_new(json_object_get(json_object_get(before,
	    "clusters"), "lab"), "site_factor", json_real(1.25));
	text = slurp(path);
	after = json_loads(text, 0, NULL);
	ck_assert_ptr_nonnull(after);
	ck_assert(json_equal(before, after));
	/* The order of the keys is the file's. */
	ck_assert_ptr_nonnull(strstr(text, "\"clusters\""));
	ck_assert(strstr(text, "\"clusters\"") <
	    strstr(text, "\"default_cluster\""));
	ck_assert(strstr(text, "\"partition\"") <
	    strstr(text, "\"site_factor\""));
	json_decref(before);
	json_decref(after);
	free(text);
	config_edit_release(&e);
	unlink(path);
	rmdir(dir);
}
END_TEST

struct refuse_case {
	const char	*text;
	const char	*cluster;
	int		 status;
	const char	*msg;		/* a part of the message */
};

static const struct refuse_case refuse_cases[] = {
	{ "{\"clusters\": {\"lab\": {}}}", "other", EXIT_USAGE,
	  "has no cluster 'other'" },
	{ "{\"default_cluster\": \"lab\"}", "lab", EXIT_USAGE,
	  "has no cluster 'lab'" },
	{ "{\"clusters\": {\"lab\": 3}}", "lab", EXIT_USAGE,
	  "cluster 'lab' is not an object" },
	{ "[1, 2]", "lab", EXIT_USAGE, "must be a JSON object" },
	{ "{\"clusters\": {\"lab\": {}}} // note", "lab", EXIT_USAGE,
	  "line 1" },
	{ "{\"clusters\": {\"lab\": {}}, \"clusters\": {}}", "lab",
	  EXIT_USAGE, "duplicate" },
	{ "{\"clusters\": {\"lab\": {\"gpus_per_node\": "
	  "123456789012345678901234567890}}}", "lab", EXIT_USAGE, "" },
	/* What would be written must load: a key the reader refuses. */
	{ "{\"clusters\": {\"lab\": {\"tpp\": 2}}}", "lab", EXIT_USAGE,
	  "unknown key 'tpp'" },
};

/* Refused, and the file as it was. */
START_TEST(test_edit_refused)
{
	const struct refuse_case *c = &refuse_cases[_i];
	char			 dir[] = "/tmp/check_calibrate.XXXXXX";
	struct config_edit	 e;
	struct error		*err;
	const char		*path;
	json_t			*keys;
	char			*text;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	path = config_with(dir, c->text);
	keys = json_pack("{s:f}", "site_factor", 0.9);
	err = config_edit_profile(path, c->cluster, keys, false, &e);
	json_decref(keys);
	ck_assert_msg(err != NULL, "case %d accepted", _i);
	ck_assert_int_eq(err->status, c->status);
	ck_assert_msg(strstr(err->msg, c->msg) != NULL, "case %d: %s",
	    _i, err->msg);
	ck_assert_ptr_null(e.text);
	error_free(err);
	text = slurp(path);
	ck_assert_str_eq(text, c->text);
	free(text);
	unlink(path);
	rmdir(dir);
}
END_TEST

static Suite *
calibrate_suite(void)
{
	Suite	*s = suite_create("calibrate");
	TCase	*tc;

	tc = tcase_create("ratio");
	tcase_add_loop_test(tc, test_ratio, 0,
	    sizeof ratio_cases / sizeof ratio_cases[0]);
	suite_add_tcase(s, tc);
	tc = tcase_create("fit");
	tcase_add_loop_test(tc, test_fit, 0,
	    sizeof fit_cases / sizeof fit_cases[0]);
	tcase_add_loop_test(tc, test_fit_random, 0, 50);
	tcase_add_test(tc, test_too_many);
	tcase_add_test(tc, test_factor_check);
	suite_add_tcase(s, tc);
	tc = tcase_create("date");
	tcase_add_loop_test(tc, test_date_check, 0,
	    sizeof date_cases / sizeof date_cases[0]);
	tcase_add_test(tc, test_date);
	suite_add_tcase(s, tc);
	tc = tcase_create("store");
	tcase_add_test(tc, test_edit_same_format);
	tcase_add_test(tc, test_edit_other_format);
	tcase_add_loop_test(tc, test_edit_refused, 0,
	    sizeof refuse_cases / sizeof refuse_cases[0]);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	seed = test_seed("check_calibrate");
	return run_suite(calibrate_suite());
}
