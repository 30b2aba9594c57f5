/* test_tui_layout.c: the layout at every size from 80x24 to 300x100 (and the full screen drawn at many of them),
 * "terminal too small" below. */
#include "test_tui_util.h"
#include "tui/layout.h"
#include "tui/tui_screen.h"

static bool rect_inside(struct ss_rect r, int cols, int rows)
{
	return r.x >= 0 && r.y >= 0 && r.w >= 0 && r.h >= 0 && r.x + r.w <= cols && r.y + r.h <= rows;
}

static bool rect_overlap(struct ss_rect a, struct ss_rect b)
{
	if (a.w == 0 || a.h == 0 || b.w == 0 || b.h == 0)
		return false;
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static bool rect_contains(struct ss_rect outer, struct ss_rect in)
{
	return in.x >= outer.x && in.y >= outer.y && in.x + in.w <= outer.x + outer.w &&
	       in.y + in.h <= outer.y + outer.h;
}

/* check_layout asserts the invariants of one layout. */
static void check_layout(const struct ss_layout *l, int cols, int rows, bool ab)
{
	struct ss_rect parts[] = {l->header,  l->title[0], l->labels[0], l->plot[0], l->title[1], l->labels[1],
	                          l->plot[1], l->axis,     l->corner,    l->stats,   l->status};
	int n = (int)(sizeof parts / sizeof parts[0]);

	for (int i = 0; i < n; i++) {
		assert_true(rect_inside(parts[i], cols, rows));
		for (int j = i + 1; j < n; j++)
			if (rect_overlap(parts[i], parts[j])) {
				print_error("%dx%d ab %d: parts %d and %d overlap\n", cols, rows, ab, i, j);
				fail();
			}
	}
	/* header on top, status at the bottom, full width */
	assert_int_equal(l->header.y, 0);
	assert_int_equal(l->header.w, cols);
	assert_int_equal(l->status.y, rows - 1);
	assert_int_equal(l->status.w, cols);
	/* the Gantt: labels left of bars on the same rows; the axis under it, as wide as the bars */
	for (int i = 0; i < (ab ? 2 : 1); i++) {
		assert_int_equal(l->labels[i].y, l->plot[i].y);
		assert_int_equal(l->labels[i].h, l->plot[i].h);
		assert_int_equal(l->labels[i].x + l->labels[i].w, l->plot[i].x);
		assert_true(l->plot[i].w >= 40);
		assert_true(l->plot[i].h >= (ab ? 5 : 11));
		assert_int_equal(l->plot[i].x, l->axis.x);
		assert_int_equal(l->plot[i].w, l->axis.w);
		assert_true(rect_contains(l->chart, l->plot[i]));
		assert_true(rect_contains(l->chart, l->labels[i]));
	}
	if (ab) {
		assert_int_equal(l->title[0].y + 1, l->plot[0].y);
		assert_int_equal(l->title[1].y + 1, l->plot[1].y);
		assert_int_equal(l->plot[0].y + l->plot[0].h, l->title[1].y);
		assert_int_equal(l->plot[1].y + l->plot[1].h, l->axis.y);
	} else {
		assert_int_equal(l->title[1].h, 0);
		assert_int_equal(l->plot[1].h, 0);
		assert_int_equal(l->plot[0].y + l->plot[0].h, l->axis.y);
	}
	assert_int_equal(l->axis.h, 2);
	assert_true(rect_contains(l->chart, l->axis));
	/* the stats panel: a side column of at least 30 when wide, else 4 full-width rows above the status */
	if (l->stats_side) {
		assert_true(cols >= LAYOUT_SIDE_MIN_COLS);
		assert_true(l->stats.w >= 30);
		assert_int_equal(l->stats.x + l->stats.w, cols);
		assert_true(l->stats.h >= rows - 3);
	} else {
		assert_true(cols < LAYOUT_SIDE_MIN_COLS);
		assert_int_equal(l->stats.w, cols);
		assert_int_equal(l->stats.h, LAYOUT_STATS_ROWS);
		assert_int_equal(l->stats.y + l->stats.h, l->status.y);
	}
	/* the sweep chart: room for a plot */
	assert_true(l->chart.w >= 80 - (l->stats_side ? 0 : 0) && l->chart.h >= 15);
	/* overlays stay on screen; the detail boxes inside the Gantt area, right-aligned with the bars */
	assert_true(rect_inside(l->help, cols, rows));
	assert_true(l->help.w >= 78 && l->help.h >= 22);
	for (int i = 0; i < 2; i++) {
		assert_true(rect_contains(l->chart, l->detail[i]));
		assert_int_equal(l->detail[i].x + l->detail[i].w, l->plot[0].x + l->plot[0].w);
		assert_true(l->detail[i].w >= 40 && l->detail[i].h >= 10);
	}
}

/* Every size from the minimum up to 300x100, with and without A/B, with every label column asked for (0, the
 * default, up to past the widest): the column as asked within LAYOUT_LABEL_COLS..LAYOUT_LABEL_MAX_COLS. */
static void test_every_size(void **state)
{
	static const int labels[] = {0, LAYOUT_LABEL_COLS, 13, LAYOUT_LABEL_MAX_COLS, 40};
	int n = 0;

	(void)state;
	for (int cols = LAYOUT_MIN_COLS; cols <= 300; cols++)
		for (int rows = LAYOUT_MIN_ROWS; rows <= 100; rows++)
			for (int ab = 0; ab < 2; ab++)
				for (size_t k = 0; k < sizeof labels / sizeof labels[0]; k++) {
					struct ss_layout_opts o = {cols, rows, ab != 0, false, labels[k]};
					struct ss_layout l;
					char *cause = NULL;
					int want = labels[k] < LAYOUT_LABEL_COLS       ? LAYOUT_LABEL_COLS
					           : labels[k] > LAYOUT_LABEL_MAX_COLS ? LAYOUT_LABEL_MAX_COLS
					                                               : labels[k];

					assert_int_equal(layout_compute(&o, &l, &cause), 0);
					assert_null(cause);
					check_layout(&l, cols, rows, ab != 0);
					assert_int_equal(l.labels[0].w, want);
					assert_int_equal(l.corner.w, want);
					n++;
				}
	assert_int_equal(n, 221 * 77 * 2 * 5);
}

/* Below 80x24: -1 and a cause naming both sizes. */
static void test_too_small(void **state)
{
	static const int sizes[][2] = {{79, 24}, {80, 23}, {79, 100}, {300, 23}, {1, 1}, {0, 0}, {40, 12}};

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		struct ss_layout_opts o = {sizes[i][0], sizes[i][1], false, false, 0};
		struct ss_layout l;
		char *cause = NULL, want[64];

		assert_int_equal(layout_compute(&o, &l, &cause), -1);
		assert_non_null(cause);
		snprintf(want, sizeof want, "terminal too small: %dx%d, need 80x24", sizes[i][0], sizes[i][1]);
		assert_string_equal(cause, want);
		free(cause);
		assert_int_equal(l.plot[0].w, 0);
	}
}

/* check_screen asserts what every full screen shows, whatever the size. */
static void check_screen(const struct ss_grid *g)
{
	char row[4096];

	assert_non_null(strstr(tui_row(g, 0, row, sizeof row), "streamscope"));
	assert_non_null(strstr(row, "MODEL (H200 profile)"));
	assert_non_null(strstr(tui_row(g, 1, row, sizeof row), "kernel-transfer"));
	assert_true(strstr(row, " 3 streams") != NULL || strstr(row, " 3s ") != NULL); /* compact below ~93 columns */
	assert_non_null(strstr(tui_row(g, g->h - 1, row, sizeof row), "q quit"));
	assert_true(tui_find(g, "host") >= 2);
	assert_true(tui_find(g, "s2") >= 2);
	assert_true(tui_find(g, "makespan") >= 2);
	assert_true(tui_find(g, "time") >= 2);
	assert_true(tui_find(g, "Stats") >= 2);
	assert_true(tui_find(g, " us") >= 2);
	/* every bar cell is on the right of the labels, under the header, above the status */
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			const struct ss_cell *c = grid_at(g, x, y);

			if (c->role == SS_ROLE_H2D && c->ch >= 0x2588 && c->ch <= 0x258F) {
				assert_true(x >= 11);
				assert_true(y >= 2 && y < g->h - 1);
			}
		}
}

/* The whole screen drawn at every width (two heights) and every height (three widths). */
static void test_screen_sizes(void **state)
{
	struct ss_timeline t;
	struct ss_experiment e;
	struct ss_grid g;

	(void)state;
	tui_fixture(&t);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 3;
	grid_init(&g, 0, 0);
	for (int cols = 80; cols <= 300; cols++)
		for (int rows = 24; rows <= 60; rows += 36) {
			tui_screen_render(&g, &t, &e, NULL, cols, rows, false);
			check_screen(&g);
		}
	for (int rows = 24; rows <= 100; rows++)
		for (int cols = 80; cols <= 240; cols += 80) {
			tui_screen_render(&g, &t, &e, NULL, cols, rows, rows % 2 == 0);
			check_screen(&g);
		}
	/* below the minimum: the message, centred, and nothing else */
	tui_screen_render(&g, &t, &e, NULL, 79, 24, false);
	assert_int_equal(tui_find(&g, "terminal too small: 79x24, need 80x24"), 12);
	assert_int_equal(tui_find(&g, "streamscope"), -1);
	tui_screen_render(&g, &t, &e, NULL, 30, 5, false);
	assert_int_equal(tui_find(&g, "terminal too small"), 2);
	grid_free(&g);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_size),
	    cmocka_unit_test(test_too_small),
	    cmocka_unit_test(test_screen_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
