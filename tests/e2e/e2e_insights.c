/* e2e_insights.c: end-to-end tests of the TUI's insights panel (key i) on the model's `pageable` preset, whose
 * pageable copies make pageable-copy fire: the panel lists it with its text, its copies are drawn in the warning
 * colour, the view zooms to the selected entry (and back to it on Enter), Esc closes, and a toggle re-runs and
 * re-analyses.
 *
 * usage: e2e_insights STREAMSCOPE [SCENARIO]   (no scenario: all of them) */
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

/* The warning role's xterm-256 colour (core/palette.c): what the marked evidence is drawn in. */
#define E2E_WARN_FG 203

/* warn_cells counts the cells of the Gantt (right of the lane labels, between the header and the axis rows ending
 * at row last) drawn in the warning colour. */
static int warn_cells(struct e2e *t, int last)
{
	int n = 0;

	for (int y = 2; y < last; y++)
		for (int x = 11; x < t->cols; x++)
			n += e2e_fg(t, x, y) == E2E_WARN_FG && e2e_char(t, x, y) != ' ' && e2e_char(t, x, y) != 0;
	return n;
}

/* axis_row returns the row of the time axis' labels ("time" in the corner), -1 when none. */
static int axis_row(struct e2e *t)
{
	return e2e_find(t, "     time", 2, NULL);
}

static void test_panel(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "pageable", NULL};
	char before[4096], after[4096];
	int ay;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	assert_true(e2e_find(&t, "Stats", 0, NULL) > 0);
	ay = axis_row(&t);
	assert_true(ay > 2);
	e2e_row(&t, ay, before, sizeof before);
	assert_int_equal(warn_cells(&t, ay - 1), 0);
	/* i: the panel in place of the stats, pageable-copy first and selected */
	e2e_keys(&t, "i");
	e2e_wait(&t, "problem: pageable-copy");
	assert_true(e2e_find(&t, "insights: ", 0, NULL) > 0);
	assert_true(e2e_find(&t, "\xe2\x9c\x96 pageable-copy", 0, NULL) > 0);
	assert_true(e2e_find(&t, "copies from pageable", 0, NULL) > 0);
	assert_true(e2e_find(&t, "evidence: 24 pageable", 0, NULL) > 0);
	assert_true(e2e_find(&t, "fix: Allocate the host", 0, NULL) > 0);
	/* the fix re-run on the model: its gain, so labelled */
	assert_true(e2e_find(&t, "gain, modelled: ", 0, NULL) > 0);
	assert_true(e2e_find(&t, "Esc close", 0, NULL) > 0);
	assert_int_equal(e2e_find(&t, "Stats", 0, NULL), -1);
	/* its copies are marked, and the view zoomed to them: the axis changed */
	ay = axis_row(&t);
	assert_true(warn_cells(&t, ay - 1) > 0);
	e2e_row(&t, ay, after, sizeof after);
	assert_string_not_equal(before, after);
	/* j then k: back on pageable-copy (j moves to the next entry where there is one), still marked */
	e2e_keys(&t, "jk");
	/* the wheel (not the panel's: the view zooms in around the pointer) moves the window; Enter brings it back to
	 * the entry */
	e2e_wheel(&t, 30, 10, true);
	e2e_wait(&t, NULL);
	assert_true(e2e_find(&t, "problem: pageable-copy", 0, NULL) > 0);
	assert_true(warn_cells(&t, axis_row(&t) - 1) > 0);
	e2e_row(&t, axis_row(&t), before, sizeof before);
	assert_string_not_equal(before, after);
	e2e_keys(&t, "\r");
	e2e_wait(&t, NULL);
	e2e_row(&t, axis_row(&t), before, sizeof before);
	assert_string_equal(before, after);
	/* a toggle with the panel open: m makes the memory managed, the run is analysed again, pageable-copy goes */
	e2e_keys(&t, "m");
	e2e_wait(&t, "managed");
	e2e_wait_gone(&t, "next:");
	e2e_settle(&t);
	e2e_wait_gone(&t, "pageable-copy");
	assert_true(e2e_find(&t, "insights: ", 0, NULL) > 0);
	/* Esc closes it: the stats come back */
	e2e_keys(&t, "\x1b");
	e2e_wait_gone(&t, "insights: ");
	assert_true(e2e_find(&t, "Stats", 0, NULL) > 0);
	e2e_quit(&t);
	e2e_free(&t);
}

/* At 80x24 in ASCII the panel takes the bottom rows, the mark is its ASCII twin, i closes it again. */
static void test_panel_ascii(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "pageable", "--ascii", NULL};

	(void)state;
	e2e_start(&t, 80, 24, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "i");
	e2e_wait(&t, "problem: pageable-copy");
	assert_true(e2e_find(&t, "! pageable-copy", 0, NULL) > 0);
	/* the fix re-run on the model: its gain, so labelled */
	assert_true(e2e_find(&t, "gain, modelled: ", 0, NULL) > 0);
	assert_true(warn_cells(&t, axis_row(&t) - 1) > 0);
	e2e_keys(&t, "i");
	e2e_wait_gone(&t, "problem: pageable-copy");
	e2e_quit(&t);
	e2e_free(&t);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_panel),
	    cmocka_unit_test(test_panel_ascii),
	};

	return e2e_main(argc, argv, "e2e_insights", tests, sizeof tests / sizeof tests[0]);
}
