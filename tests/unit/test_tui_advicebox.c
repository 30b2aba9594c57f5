/* test_tui_advicebox.c: the advice panel's pure parts: its keys (Enter applies, Esc and a close), the controls
 * opening it (not over a trace), applying the advice as a re-run of its best configuration and closing it; the
 * cache searching once per experiment; the drawing at every size from 20x5 (nothing outside its rectangle, ASCII
 * only with the ASCII glyphs, labelled MODELLED); and whole screens with the panel in the layout's panel place. */
#include "run/advise.h"
#include "test_tui_util.h"
#include "tui/advicebox.h"
#include "tui/control.h"
#include "tui/layout.h"
#include "tui/view.h"

/* The advice for kernel-transfer, searched once for the tests. */
static struct ss_advicebox_cache cache;

static const struct ss_advice *advice(void)
{
	struct ss_experiment e;
	const struct ss_advice *a;

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	a = advicebox_advise(&cache, &e);
	if (a == NULL)
		fail_msg("advise: %s", cache.error);
	return a;
}

static void test_keys(void **state)
{
	struct ss_advicebox b = {true};
	struct ss_advice cur;

	(void)state;
	assert_int_equal(advicebox_key(&b, advice(), ACT_LANE_DOWN), ADVICEBOX_IGNORED);
	assert_true(b.open);
	assert_false(advice()->best_is_current); /* kernel-transfer's preset is not the model's best */
	assert_int_equal(advicebox_key(&b, advice(), ACT_ZOOM_SEL), ADVICEBOX_APPLY);
	assert_false(b.open);
	b.open = true;
	cur = *advice();
	cur.best_is_current = true;
	assert_int_equal(advicebox_key(&b, &cur, ACT_ZOOM_SEL), ADVICEBOX_DONE);
	assert_true(b.open);
	assert_int_equal(advicebox_key(&b, NULL, ACT_ZOOM_SEL), ADVICEBOX_DONE);
	assert_int_equal(advicebox_key(&b, advice(), ACT_CLOSE), ADVICEBOX_DONE);
	assert_false(b.open);
	b.open = true;
	assert_int_equal(advicebox_key(&b, advice(), ACT_ADVISE), ADVICEBOX_DONE);
	assert_false(b.open);
}

/* The cache: the same experiment is not searched again (the advice is the same object), another one is. */
static void test_cache(void **state)
{
	struct ss_experiment e;
	const struct ss_advice *a = advice(), *b;
	size_t searched = a->searched;

	(void)state;
	assert_ptr_equal(advice(), a);
	experiment_preset(&e, SS_PRESET_HYPERQ);
	b = advicebox_advise(&cache, &e);
	assert_non_null(b);
	assert_int_equal(b->current.e.preset, SS_PRESET_HYPERQ);
	assert_true(b->searched != searched || b->current.predicted_ns != a->current.predicted_ns);
	e.streams = 0; /* invalid: the search fails with its reason */
	assert_null(advicebox_advise(&cache, &e));
	assert_true(cache.failed);
	assert_non_null(strstr(cache.error, "stream"));
	advice();
	assert_false(cache.failed);
}

static void test_control(void **state)
{
	struct ss_control c;
	struct ss_control_input in;
	struct ss_experiment cur, e;
	struct ss_layout_opts o = {120, 40, false, true, 0};
	struct ss_layout lay;
	char *cause = NULL;
	const struct ss_advice *a = advice();

	(void)state;
	experiment_preset(&cur, SS_PRESET_KERNEL_TRANSFER);
	control_init(&c);
	memset(&in, 0, sizeof in);
	in.exp = &cur;
	assert_int_equal(layout_compute(&o, &lay, &cause), 0);
	in.layout = &lay; /* a terminal large enough for keys to act */
	/* a trace: nothing to advise on */
	in.file = true;
	assert_int_equal(control_action(&c, &in, ACT_ADVISE, &e), CONTROL_NONE);
	assert_false(c.advice.open);
	assert_non_null(strstr(c.message, "advisor"));
	in.file = false;
	/* a opens it and closes the insights panel */
	c.insight.open = true;
	assert_int_equal(control_action(&c, &in, ACT_ADVISE, &e), CONTROL_NONE);
	assert_true(c.advice.open);
	assert_false(c.insight.open);
	/* other keys work as usual with the panel open */
	in.advice = a;
	assert_int_equal(control_action(&c, &in, ACT_ZOOM_IN, &e), CONTROL_NONE);
	assert_true(c.advice.open);
	/* Enter applies: a re-run of the best configuration, the panel closed */
	memset(&e, 0, sizeof e);
	assert_int_equal(control_action(&c, &in, ACT_ZOOM_SEL, &e), CONTROL_RUN);
	assert_memory_equal(&e, &a->best.e, sizeof e);
	assert_false(c.advice.open);
	assert_non_null(strstr(c.message, "advice applied"));
	assert_non_null(strstr(c.message, "modelled"));
	/* Esc closes; i opens the insights instead */
	control_action(&c, &in, ACT_ADVISE, &e);
	assert_int_equal(control_action(&c, &in, ACT_CLOSE, &e), CONTROL_NONE);
	assert_false(c.advice.open);
	control_action(&c, &in, ACT_ADVISE, &e);
	control_action(&c, &in, ACT_INSIGHTS, &e);
	assert_false(c.advice.open);
	assert_true(c.insight.open);
}

/* The panel at every size from 20x5 to 160x40 in a larger grid: nothing drawn outside its rectangle, only ASCII
 * with the ASCII glyphs, and from 40x8 its title, the best line and the keys. */
static void test_draw_every_size(void **state)
{
	struct ss_advicebox_view v = {advice(), NULL};
	struct ss_grid g;

	(void)state;
	grid_init(&g, 0, 0);
	for (int ascii = 0; ascii < 2; ascii++)
		for (int w = 20; w <= 160; w += w < 60 ? 1 : 7)
			for (int h = 5; h <= 40; h += h < 16 ? 1 : 6) {
				struct ss_rect r = {3, 2, w, h};

				grid_resize(&g, w + 6, h + 4);
				grid_clear(&g);
				g.ascii = ascii != 0;
				advicebox_draw(&g, r, &v, glyphs_get(ascii != 0));
				for (int y = 0; y < g.h; y++)
					for (int x = 0; x < g.w; x++) {
						const struct ss_cell *c = grid_at(&g, x, y);
						bool inside = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;

						if (!inside && c->ch != ' ')
							fail_msg("%dx%d: a cell drawn outside at %d,%d", w, h, x, y);
						if (ascii && c->ch > 127)
							fail_msg("%dx%d: U+%04X with ASCII glyphs", w, h,
							         (unsigned)c->ch);
					}
				if (w >= 40 && h >= 8) {
					assert_true(tui_find(&g, "advice (MODELLED)") >= 0);
					assert_true(tui_find(&g, "best ") >= 0);
					assert_true(tui_find(&g, "Enter apply") >= 0);
				}
			}
	/* no advice: the reason, and no apply key */
	v.a = NULL;
	v.error = "invalid stream count 0: valid is 1..128";
	grid_resize(&g, 60, 10);
	grid_clear(&g);
	advicebox_draw(&g, (struct ss_rect){0, 0, 60, 10}, &v, glyphs_get(true));
	assert_true(tui_find(&g, "invalid stream count") >= 0);
	assert_true(tui_find(&g, "Enter apply") < 0);
	grid_free(&g);
}

/* Whole screens with the panel open: it takes the panel place of the layout (the stats make room) at every size
 * from the minimum. */
static void test_screens(void **state)
{
	struct ss_advicebox_view av = {advice(), NULL};
	struct ss_grid g;

	(void)state;
	grid_init(&g, 0, 0);
	for (int cols = LAYOUT_MIN_COLS; cols <= 200; cols += 11)
		for (int rows = LAYOUT_MIN_ROWS; rows <= 60; rows += 9) {
			struct ss_view v;
			struct ss_layout lay;
			char *cause = NULL;

			memset(&v, 0, sizeof v);
			v.gl = glyphs_get(true);
			v.device = "MODEL (H200 profile)";
			v.modelled = true;
			v.backend = "model";
			v.advice = &av;
			v.gv.sel = UINT32_MAX;
			v.gv.span = 1e6;
			assert_int_equal(view_layout(&v, cols, rows, &lay, &cause), 0);
			assert_true(lay.panel.w > 0 && lay.panel.h > 0);
			assert_true(lay.stats.w == 0);
			grid_resize(&g, cols, rows);
			grid_clear(&g);
			g.ascii = true;
			view_draw(&g, &v);
			assert_true(tui_find(&g, "advice (MODELLED)") >= 0);
		}
	grid_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keys),    cmocka_unit_test(test_cache),
	    cmocka_unit_test(test_control), cmocka_unit_test(test_draw_every_size),
	    cmocka_unit_test(test_screens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
