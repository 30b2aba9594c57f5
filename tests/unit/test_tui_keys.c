/* test_tui_keys.c: the key map: no key bound twice, every action reachable and documented, the status line's
 * keys really bound. */
#include "test_tui_util.h"
#include "tui/keys.h"

static void test_unique(void **state)
{
	int n;
	const struct ss_key *k = keys_table(&n);

	(void)state;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (k[i].key == k[j].key) {
				print_error("key %d bound twice\n", k[i].key);
				fail();
			}
}

/* Every action has a key, and its first binding carries a help text (or shows in the entry it is merged into). */
static void test_documented(void **state)
{
	int n;
	const struct ss_key *k = keys_table(&n);

	(void)state;
	assert_non_null(k[0].name);
	for (int a = ACT_QUIT; a < ACT_COUNT; a++) {
		bool bound = false, named = false;

		for (int i = 0; i < n; i++)
			if (k[i].act == (enum ss_action)a) {
				if (!bound && k[i].name != NULL) {
					named = k[i].help != NULL && strlen(k[i].help) <= 25;
				} else if (!bound) {
					/* merged into the nearest named entry above, which shows this key */
					int j = i;
					char key[2] = {(char)k[i].key, 0};

					while (j > 0 && k[j].name == NULL)
						j--;
					named = k[j].group == k[i].group &&
					        (k[i].key >= 128 || strstr(k[j].name, key) != NULL);
				}
				bound = true;
				assert_int_equal(keys_action(k[i].key), a);
			}
		if (!bound || !named) {
			print_error("action %d: bound %d, documented %d\n", a, bound, named);
			fail();
		}
	}
	for (int g = 0; g < KG_COUNT; g++)
		assert_true(strlen(keys_group_name((enum ss_keygroup)g)) > 0);
	assert_int_equal(keys_action('x'), ACT_NONE);
}

/* The keys the status line advertises do what it says. */
static void test_status(void **state)
{
	static const struct {
		int key;
		enum ss_action act;
	} main_keys[] = {{'q', ACT_QUIT},     {'?', ACT_HELP},      {'o', ACT_ORDER},    {'r', ACT_RERUN},
	                 {'R', ACT_REREAD},   {'z', ACT_ZOOM_IN},   {'Z', ACT_ZOOM_OUT}, {'f', ACT_FIT},
	                 {'\t', ACT_NEXT},    {'p', ACT_PIN},       {'s', ACT_SWEEP},    {'e', ACT_EXPORT},
	                 {'h', ACT_PAN_LEFT}, {'l', ACT_PAN_RIGHT}, {'c', ACT_COMPACT}};

	(void)state;
	for (size_t i = 0; i < sizeof main_keys / sizeof main_keys[0]; i++)
		assert_int_equal(keys_action(main_keys[i].key), main_keys[i].act);
	assert_non_null(strstr(keys_status(false), "o order"));
	assert_null(strstr(keys_status(true), "o order"));
	/* experiment keys are off for files; moving around is not */
	assert_true(keys_experiment(ACT_ORDER));
	assert_true(keys_experiment(ACT_SWEEP));
	assert_true(keys_experiment(ACT_REREAD));
	assert_false(keys_experiment(ACT_ZOOM_IN));
	assert_false(keys_experiment(ACT_EXPORT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unique),
	    cmocka_unit_test(test_documented),
	    cmocka_unit_test(test_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
