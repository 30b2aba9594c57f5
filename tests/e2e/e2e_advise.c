/* e2e_advise.c: end-to-end tests of the TUI's advice panel (key a) on the model's `pageable` preset, whose
 * pageable copies the advisor moves to pinned memory: the panel shows the advice labelled MODELLED in place of the
 * stats, Enter applies it (the experiment re-runs with it: the header says pinned, the status line what the re-run
 * changed),
 * Esc closes without applying.
 *
 * usage: e2e_advise STREAMSCOPE [SCENARIO]   (no scenario: all of them) */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "e2e.h"

/* header_has tells whether the two header rows hold text. */
static bool header_has(struct e2e *t, const char *text)
{
	int y = e2e_find(t, text, 0, NULL);

	return y >= 0 && y < 2;
}

static void test_apply(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "pageable", NULL};

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	assert_false(header_has(&t, "pinned"));
	assert_true(e2e_find(&t, "Stats", 0, NULL) > 0);
	/* a: the advice in the panel's place */
	e2e_keys(&t, "a");
	e2e_wait(&t, "advice (MODELLED)");
	assert_true(e2e_find(&t, "current ", 0, NULL) > 0);
	assert_true(e2e_find(&t, "best ", 0, NULL) > 0);
	assert_true(e2e_find(&t, "faster", 0, NULL) > 0);
	assert_true(e2e_find(&t, "pinned", 2, NULL) > 0);
	assert_true(e2e_find(&t, "configurations modelled", 0, NULL) > 0);
	assert_true(e2e_find(&t, "Enter apply", 0, NULL) > 0);
	assert_int_equal(e2e_find(&t, "Stats", 0, NULL), -1);
	/* Enter applies it: the panel closes, the experiment re-runs with pinned memory */
	e2e_keys(&t, "\r");
	e2e_wait_gone(&t, "advice (MODELLED)");
	/* the status line: what the re-run changed and what it took, before and after */
	e2e_wait(&t, "re-ran ");
	e2e_settle(&t);
	assert_true(e2e_find(&t, "pinned", t.rows - 1, NULL) == t.rows - 1);
	/* the header names the preset (pageable) and now pinned host memory */
	assert_true(header_has(&t, "pinned"));
	assert_true(e2e_find(&t, "Stats", 0, NULL) > 0);
	/* a again: the advice of the new experiment, which is (within 1%) its own configuration */
	e2e_keys(&t, "a");
	e2e_wait(&t, "advice (MODELLED)");
	e2e_keys(&t, "a");
	e2e_wait_gone(&t, "advice (MODELLED)");
	e2e_quit(&t);
	e2e_free(&t);
}

/* At 80x24 in ASCII the panel takes the bottom rows; Esc closes it and nothing is applied. */
static void test_close_ascii(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "pageable", "--ascii", NULL};

	(void)state;
	e2e_start(&t, 80, 24, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "a");
	e2e_wait(&t, "advice (MODELLED)");
	for (int y = 0; y < t.rows; y++)
		for (int x = 0; x < t.cols; x++)
			assert_true(e2e_char(&t, x, y) < 128);
	e2e_keys(&t, "\x1b");
	e2e_wait_gone(&t, "advice (MODELLED)");
	e2e_settle(&t);
	assert_int_equal(e2e_find(&t, "advice applied", 0, NULL), -1);
	assert_int_equal(e2e_find(&t, "re-ran", 0, NULL), -1);
	assert_false(header_has(&t, "pinned"));
	e2e_quit(&t);
	e2e_free(&t);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_apply),
	    cmocka_unit_test(test_close_ascii),
	};

	return e2e_main(argc, argv, "e2e_advise", tests, sizeof tests / sizeof tests[0]);
}
