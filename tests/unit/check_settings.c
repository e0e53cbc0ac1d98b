/*
 * check_settings.c: the settings table (src/settings-table.c) is indexed by
 * enum setting_id: settings_table[SET_TP] must be the row of SET_TP, as
 * the code reads it both ways (settings_table[SET_X] and set->v[d->id]).
 * A row out of place would give one setting another's name, range and
 * parser.  And every row has its own key and option name.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

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

static Suite *
settings_suite(void)
{
	Suite	*s = suite_create("settings");
	TCase	*tc = tcase_create("table");

	tcase_add_loop_test(tc, test_enum_order, 0, SET__COUNT);
	tcase_add_test(tc, test_names_unique);
	tcase_add_test(tc, test_find_option);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return run_suite(settings_suite());
}
