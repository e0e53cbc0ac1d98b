/*
 * check_termtext.c: outside text made safe to show (src/util/termtext.c): on
 * a terminal no byte that is not a printable character of valid UTF-8
 * gets through as it is, and in JSON every string is valid UTF-8; valid,
 * printable text is never changed.  Every byte, every pair of bytes, and
 * random strings (seeded: MBS_TEST_SEED, printed).
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "buf.h"
#include "run.h"
#include "termtext.h"

static unsigned long	 seed;

/* S, LEN bytes, escaped for a terminal: a new string. */
static char *
esc(const char *s, size_t len)
{
	struct buf	 b;

	buf_init(&b);
	termtext_add(&b, s, len);
	return buf_detach(&b);
}

/*
 * Is T what a terminal may get: valid UTF-8, and no C0 or C1 control, no
 * DEL, no character that reorders text?  (Decoded here on its own, not
 * with termtext.c's decoder.)
 */
static int
terminal_safe(const char *t)
{
	const unsigned char	*p = (const unsigned char *)t;
	size_t			 len = strlen(t);

	if (termtext_utf8_valid(t, len) != len)
		return 0;
	for (; *p != '\0'; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return 0;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return 0;		/* U+0080-U+009F */
		if (p[0] == 0xe2 && p[1] == 0x80 &&
		    ((p[2] >= 0x8e && p[2] <= 0x8f) ||
		    (p[2] >= 0xa8 && p[2] <= 0xae)))
			return 0;		/* U+200E-F, U+2028-E */
		if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 &&
		    p[2] <= 0xa9)
			return 0;		/* U+2066-U+2069 */
		if (p[0] == 0xd8 && p[1] == 0x9c)
			return 0;		/* U+061C */
	}
	return 1;
}

static const struct {
	const char	*in, *out;
} cases[] = {
	{ "plain name", "plain name" },
	{ "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80", "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x9a\x80" },
	{ "a\x1b[2Jb", "a\\x1b[2Jb" },			/* screen clear */
	{ "\x1b]0;title\x07", "\\x1b]0;title\\x07" },	/* window title */
	{ "FAILED\rCOMPLETED", "FAILED\\rCOMPLETED" },
	{ "x\nJobId=9 y", "x\\nJobId=9 y" },
	{ "a\tb", "a\\tb" },
	{ "del\x7f", "del\\x7f" },
	{ "csi\xc2\x9b" "2J", "csi\\xc2\\x9b2J" },		/* C1 CSI */
	{ "\xe2\x80\xae" "evil", "\\xe2\\x80\\xae" "evil" },	/* RLO */
	{ "\xe2\x81\xa6x", "\\xe2\\x81\\xa6x" },		/* LRI */
	{ "\xe2\x80\xa8", "\\xe2\\x80\\xa8" },		/* LINE SEPARATOR */
	{ "bad\xff\xfe", "bad\\xff\\xfe" },
	{ "\xc0\xaf", "\\xc0\\xaf" },			/* overlong '/' */
	{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },		/* surrogate */
	{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },	/* > U+10FFFF */
	{ "\xe6\x97", "\\xe6\\x97" },			/* cut short */
	{ "back\\slash \\x41", "back\\slash \\x41" },	/* kept */
};

START_TEST(test_cases)
{
	char	*t = esc(cases[_i].in, strlen(cases[_i].in));

	ck_assert_str_eq(t, cases[_i].out);
	free(t);
}
END_TEST

/* Every byte alone and every pair: safe; printable ASCII unchanged. */
START_TEST(test_every_byte)
{
	char	 s[2], *t;
	int	 a, b;

	for (a = 0; a < 256; a++) {
		s[0] = (char)a;
		t = esc(s, 1);
		ck_assert_msg(terminal_safe(t), "byte 0x%02x: '%s'", a, t);
		if (a >= 0x20 && a < 0x7f && a != '\\')
			ck_assert_msg(strlen(t) == 1 && t[0] == a, "0x%02x", a);
		free(t);
		for (b = 0; b < 256; b++) {
			s[1] = (char)b;
			t = esc(s, 2);
			ck_assert_msg(terminal_safe(t), "bytes %02x %02x: '%s'",
			    a, b, t);
			free(t);
		}
	}
}
END_TEST

/* Random bytes: safe; random printable UTF-8: unchanged. */
START_TEST(test_random)
{
	static const char *const printable[] = { "a", "Z", "9", " ", "%",
	    "\\", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc2\xa0" };
	char	 s[64], *t;
	size_t	 len, i;
	int	 round;
	struct buf	 b;

	srand((unsigned)seed);
	for (round = 0; round < 20000; round++) {
		len = (size_t)(rand() % (int)sizeof s);
		for (i = 0; i < len; i++)
			s[i] = (char)(rand() % 256);
		t = esc(s, len);
		ck_assert_msg(terminal_safe(t), "seed %lu round %d: '%s'",
		    seed, round, t);
		free(t);
		buf_init(&b);
		for (i = (size_t)(rand() % 12); i > 0; i--)
			buf_adds(&b, printable[rand() % 10]);
		t = esc(b.data, b.len);
		ck_assert_msg(strcmp(t, b.data) == 0, "seed %lu round %d: "
		    "'%s' changed to '%s'", seed, round, b.data, t);
		free(t);
		buf_release(&b);
	}
}
END_TEST

START_TEST(test_utf8_valid)
{
	ck_assert_uint_eq(termtext_utf8_valid("abc", 3), 3);
	ck_assert_uint_eq(termtext_utf8_valid("ab\xff" "c", 4), 2);
	ck_assert_uint_eq(termtext_utf8_valid("\xc3\xa9\xc3", 3), 2);
	ck_assert_uint_eq(termtext_utf8_valid("", 0), 0);
	/* What jansson accepts, exactly: each byte, and each pair. */
	{
		char	 s[3] = "";
		int	 a, b, ok;
		json_t	*j;

		for (a = 1; a < 256; a++)
			for (b = 0; b < 256; b++) {
				s[0] = (char)a;
				s[1] = (char)b;
				j = json_string(s);
				ok = termtext_utf8_valid(s, strlen(s)) ==
				    strlen(s);
				ck_assert_msg(ok == (j != NULL),
				    "%02x %02x: termtext %d, jansson %d", a, b,
				    ok, j != NULL);
				json_decref(j);
			}
	}
}
END_TEST

START_TEST(test_json)
{
	json_t		*j;
	struct buf	 b;
	json_error_t	 e;
	const char	 body[] = "{\"name\": \"a\xff\\u001b" "b\", \"x\": 1}";

	j = termtext_json("bad\xff\xfe" "name\x1b]0;t\x07");
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(j),
	    "bad\\xff\\xfename\x1b]0;t\x07");
	json_decref(j);
	j = termtext_json("caf\xc3\xa9");
	ck_assert_str_eq(json_string_value(j), "caf\xc3\xa9");
	json_decref(j);
	ck_assert(json_is_null(termtext_json(NULL)));

	/* An answer with a raw byte in a string now loads. */
	ck_assert_ptr_null(json_loadb(body, sizeof body - 1, 0, &e));
	buf_init(&b);
	termtext_add_json_body(&b, body, sizeof body - 1);
	j = json_loadb(b.data, b.len, 0, &e);
	ck_assert_msg(j != NULL, "%s", e.text);
	ck_assert_str_eq(json_string_value(json_object_get(j, "name")),
	    "a\\xff\x1b" "b");
	json_decref(j);
	buf_release(&b);
}
END_TEST

START_TEST(test_printf)
{
	FILE	*f = tmpfile();
	char	 got[128] = "";

	ck_assert_ptr_nonnull(f);
	termtext_printf(f, "mbsbatch: job %s: %s\n", "x\ny\x1b[2J", "ok");
	termtext_printf(f, "no end %d", 7);
	rewind(f);
	ck_assert_uint_gt(fread(got, 1, sizeof got - 1, f), 0);
	fclose(f);
	ck_assert_str_eq(got, "mbsbatch: job x\\ny\\x1b[2J: ok\nno end 7");
	ck_assert_ptr_null(termtext_dup(NULL));
}
END_TEST

static Suite *
termtext_suite(void)
{
	Suite	*s = suite_create("termtext");
	TCase	*tc;

	tc = tcase_create("escapes");
	tcase_add_loop_test(tc, test_cases, 0,
	    (int)(sizeof cases / sizeof cases[0]));
	tcase_add_test(tc, test_every_byte);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	tc = tcase_create("utf8");
	tcase_add_test(tc, test_utf8_valid);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	tc = tcase_create("printf");
	tcase_add_test(tc, test_printf);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	seed = test_seed("check_termtext");
	return run_suite(termtext_suite());
}
