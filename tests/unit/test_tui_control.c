/* test_tui_control.c: the controls' state machine on a hand-built timeline: the lane scroll never leaves the
 * lanes (PgUp and Up then Tab once selected from lane -1), a selection belongs to its run (a capture replaced or
 * finished drops it), experiment keys give their experiment back as an effect, and a too small terminal ignores
 * every key but quit. */
#include "test_tui_util.h"
#include "tui/control.h"
#include "tui/lanes.h"

/* A run for the controls: a timeline, its index and an id. */
struct run {
	struct ss_timeline tl;
	struct ss_lanes lanes;
};

static void run_init(struct run *r)
{
	tui_fixture(&r->tl);
	lanes_init(&r->lanes);
	lanes_build(&r->lanes, &r->tl);
}

static void run_free(struct run *r)
{
	lanes_free(&r->lanes);
	timeline_free(&r->tl);
}

/* input describes run r (id) at cols x rows to the controls; layout receives the layout. */
static void input(struct ss_control_input *in, struct run *r, uint64_t id, int cols, int rows, struct ss_layout *layout,
                  const struct ss_experiment *exp)
{
	struct ss_layout_opts o = {cols, rows, false, false, 0};
	char *cause = NULL;

	memset(in, 0, sizeof *in);
	in->run = r != NULL ? &r->lanes : NULL;
	in->run_id = id;
	in->exp = exp;
	in->layout = layout_compute(&o, layout, &cause) == 0 ? layout : NULL;
	free(cause);
}

/* Up, PgUp (any number) then Tab, S-Tab, j or k: the scroll stays at 0 and the selection is a record of the run
 * on a lane in view. */
static void test_scroll_then_select(void **state)
{
	static const enum ss_action up[] = {ACT_SCROLL_UP, ACT_PAGE_UP};
	static const enum ss_action sel[] = {ACT_NEXT, ACT_PREV, ACT_LANE_DOWN, ACT_LANE_UP};
	struct ss_layout layout;
	struct run r;

	(void)state;
	run_init(&r);
	for (size_t u = 0; u < 2; u++)
		for (size_t s = 0; s < 4; s++)
			for (int times = 1; times <= 3; times++) {
				struct ss_control c;
				struct ss_control_input in;
				struct ss_experiment e;

				control_init(&c);
				input(&in, &r, 1, 120, 40, &layout, NULL);
				control_sync(&c, &in);
				for (int i = 0; i < times; i++) {
					assert_int_equal(control_action(&c, &in, up[u], &e), CONTROL_NONE);
					assert_int_equal(c.gv.top, 0);
				}
				control_action(&c, &in, sel[s], &e);
				assert_int_equal(c.gv.top, 0);
				if (sel[s] == ACT_NEXT || sel[s] == ACT_PREV) {
					assert_int_not_equal(c.gv.sel, UINT32_MAX);
					assert_true(c.gv.sel < r.lanes.indexed);
					assert_true(lanes_find(&r.lanes, c.gv.compact, c.gv.sel) >= 0);
				}
			}
	run_free(&r);
}

/* A selection on a capture is dropped when another run (another id) is shown, when the capture finished (its
 * records renumbered: a new id), and when the run holds fewer records than the selected index. */
static void test_selection_follows_run(void **state)
{
	struct ss_layout layout;
	struct ss_control c;
	struct ss_control_input in;
	struct ss_experiment e;
	struct run a, b;

	(void)state;
	run_init(&a);
	timeline_init(&b.tl);
	lanes_init(&b.lanes);
	lanes_build(&b.lanes, &b.tl);
	control_init(&c);
	input(&in, &a, 7, 120, 40, &layout, NULL);
	control_action(&c, &in, ACT_NEXT, &e);
	assert_int_not_equal(c.gv.sel, UINT32_MAX);
	/* the same run: kept */
	control_sync(&c, &in);
	assert_int_not_equal(c.gv.sel, UINT32_MAX);
	/* replaced by an empty capture: z must not reach its records */
	input(&in, &b, 8, 120, 40, &layout, NULL);
	assert_int_equal(control_action(&c, &in, ACT_ZOOM_SEL, &e), CONTROL_NONE);
	assert_int_equal(c.gv.sel, UINT32_MAX);
	/* the first run again, under a new id (finished and sorted) */
	input(&in, &a, 7, 120, 40, &layout, NULL);
	control_action(&c, &in, ACT_NEXT, &e);
	assert_int_not_equal(c.gv.sel, UINT32_MAX);
	input(&in, &a, 9, 120, 40, &layout, NULL);
	control_sync(&c, &in);
	assert_int_equal(c.gv.sel, UINT32_MAX);
	/* nothing shown */
	control_action(&c, &in, ACT_NEXT, &e);
	input(&in, NULL, 0, 120, 40, &layout, NULL);
	control_action(&c, &in, ACT_ZOOM_IN, &e);
	assert_int_equal(c.gv.sel, UINT32_MAX);
	run_free(&a);
	run_free(&b);
}

/* Below the minimum size there is no layout: no key but quit acts (no scroll, no zoom, no experiment key, no
 * export, no help), a click hits nothing, and q still quits. */
static void test_too_small(void **state)
{
	static const enum ss_action ignored[] = {ACT_PAGE_DOWN, ACT_ZOOM_IN, ACT_PAN_RIGHT, ACT_NEXT,   ACT_COMPACT,
	                                         ACT_HELP,      ACT_SUMMARY, ACT_INSIGHTS,  ACT_REDRAW, ACT_CLOSE};
	static const enum ss_action asks[] = {ACT_ORDER, ACT_RERUN, ACT_REREAD, ACT_EXPORT, ACT_PIN, ACT_SWEEP};
	struct ss_layout layout;
	struct ss_control c, before;
	struct ss_control_input in;
	struct ss_experiment base, e;
	struct ss_mouse m = {5, 5, MOUSE_CLICK};
	struct run r;

	(void)state;
	run_init(&r);
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	control_init(&c);
	input(&in, &r, 1, 30, 8, &layout, &base);
	assert_null(in.layout);
	control_sync(&c, &in);
	before = c;
	for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
		for (int k = 0; k < 5; k++)
			assert_int_equal(control_action(&c, &in, ignored[i], &e), CONTROL_NONE);
	for (size_t i = 0; i < sizeof asks / sizeof asks[0]; i++)
		assert_int_equal(control_action(&c, &in, asks[i], &e), CONTROL_NONE);
	control_mouse(&c, &in, &m);
	m.what = MOUSE_WHEEL_UP;
	control_mouse(&c, &in, &m);
	assert_memory_equal(&c, &before, sizeof c);
	assert_false(c.quit);
	assert_int_equal(control_action(&c, &in, ACT_QUIT, &e), CONTROL_NONE);
	assert_true(c.quit);
	run_free(&r);
}

/* Experiment keys give the changed experiment back (R: the file's, read by the TUI); a file turns them off with a
 * notice; a change that is not valid says why and asks for nothing. */
static void test_experiment_keys(void **state)
{
	struct ss_layout layout;
	struct ss_control c;
	struct ss_control_input in;
	struct ss_experiment base, e;
	struct run r;

	(void)state;
	run_init(&r);
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	control_init(&c);
	input(&in, &r, 1, 120, 40, &layout, &base);
	assert_int_equal(control_action(&c, &in, ACT_ORDER, &e), CONTROL_RUN);
	assert_int_not_equal(e.order, base.order);
	/* vector-add toggles between document 003's two orders */
	experiment_preset(&base, SS_PRESET_VECTOR_ADD);
	assert_int_equal(control_action(&c, &in, ACT_ORDER, &e), CONTROL_RUN);
	assert_int_equal(e.order, SS_ORDER_WEAKER);
	base.order = SS_ORDER_WEAKER;
	assert_int_equal(control_action(&c, &in, ACT_ORDER, &e), CONTROL_RUN);
	assert_int_equal(e.order, SS_ORDER_BEST);
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	assert_int_equal(control_action(&c, &in, ACT_STREAMS_DOUBLE, &e), CONTROL_RUN);
	assert_int_equal(e.streams, base.streams * 2);
	base.streams = SS_MAX_STREAMS;
	assert_int_equal(control_action(&c, &in, ACT_STREAMS_UP, &e), CONTROL_NONE);
	assert_non_null(strstr(c.message, "streams stay within"));
	/* R asks the TUI to read the experiment file again; the fit follows the run it makes */
	c.follow = false;
	assert_int_equal(control_action(&c, &in, ACT_REREAD, &e), CONTROL_REREAD);
	assert_true(c.follow);
	in.file = true;
	in.exp = NULL;
	assert_int_equal(control_action(&c, &in, ACT_ORDER, &e), CONTROL_NONE);
	assert_non_null(strstr(c.message, "viewing a file"));
	assert_int_equal(control_action(&c, &in, ACT_REREAD, &e), CONTROL_NONE);
	assert_non_null(strstr(c.message, "viewing a file"));
	assert_int_equal(control_action(&c, &in, ACT_PIN, &e), CONTROL_NONE);
	run_free(&r);
}

/* A trace whose host calls run long before and after its GPU work opens on the work (f), F fits everything, and a
 * run asked for after a zoom is fitted again unless the user zooms before it lands. */
static void test_fit_work(void **state)
{
	struct ss_layout layout;
	struct ss_control c;
	struct ss_control_input in;
	struct ss_experiment base, e;
	struct run r;

	(void)state;
	run_init(&r);
	/* start-up and tear-down calls far from the fixture's work (which ends by 500 us) */
	tui_add(&r.tl, SS_KIND_API, SS_STREAM_HOST, 0, 1 * US, 0, 0, "cuInit");
	tui_add(&r.tl, SS_KIND_API, SS_STREAM_HOST, 20000 * US, 20001 * US, 0, 0, "cudaFree");
	timeline_sort(&r.tl);
	lanes_build(&r.lanes, &r.tl);
	assert_true(r.lanes.have_gpu_span);
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	control_init(&c);
	input(&in, &r, 1, 120, 40, &layout, &base);
	control_sync(&c, &in);
	assert_true(c.gv.t0 <= (double)r.lanes.gpu_t0 && c.gv.t0 + c.gv.span >= (double)r.lanes.gpu_t1);
	assert_true(c.gv.span < (double)(r.lanes.gpu_t1 - r.lanes.gpu_t0) * 1.1);
	control_action(&c, &in, ACT_FIT_ALL, &e);
	assert_true(c.gv.t0 <= (double)r.lanes.t0 && c.gv.t0 + c.gv.span >= (double)r.lanes.t1);
	control_action(&c, &in, ACT_FIT, &e);
	assert_true(c.gv.span < (double)(r.lanes.t1 - r.lanes.t0) / 10);
	/* zoomed, then a re-run: fitted again; zoomed while it runs: held */
	control_action(&c, &in, ACT_ZOOM_IN, &e);
	assert_false(c.follow);
	assert_int_equal(control_action(&c, &in, ACT_ORDER, &e), CONTROL_RUN);
	assert_true(c.follow);
	control_action(&c, &in, ACT_ZOOM_IN, &e);
	assert_false(c.follow);
	run_free(&r);
}

/* within tells whether the controls' window lies inside [t0, t1]. */
static bool within(const struct ss_control *c, double t0, double t1)
{
	return c->gv.t0 >= t0 && c->gv.t0 + c->gv.span <= t1 + 1e-6;
}

/* extent is where the controls keep the window on run l: its span and 1/64 of it after its end. */
static void extent(const struct ss_lanes *l, double *t0, double *span)
{
	*t0 = (double)l->t0;
	*span = (double)(l->t1 - l->t0) * (1.0 + 1.0 / 64);
}

/* Zoom and pan keep the window on the run: Home then Z does not show time before the start (nor End then Z after
 * the end), zooming out stops at the whole run, panning stops at either end; with a longer run pinned as A the
 * window may cover A's whole length, and no more. */
static void test_zoom_clamp(void **state)
{
	struct ss_layout layout;
	struct ss_control c;
	struct ss_control_input in;
	struct ss_experiment e;
	struct run r, a;
	double f0, fs;

	(void)state;
	run_init(&r);
	control_init(&c);
	input(&in, &r, 1, 120, 40, &layout, NULL);
	control_sync(&c, &in);
	extent(&r.lanes, &f0, &fs);
	for (int i = 0; i < 3; i++)
		control_action(&c, &in, ACT_ZOOM_IN, &e);
	control_action(&c, &in, ACT_START, &e);
	assert_true(c.gv.t0 == (double)r.lanes.t0);
	control_action(&c, &in, ACT_ZOOM_OUT, &e);
	assert_true(c.gv.t0 == (double)r.lanes.t0);
	assert_true(within(&c, f0, f0 + fs));
	control_action(&c, &in, ACT_ZOOM_IN, &e);
	control_action(&c, &in, ACT_END, &e);
	control_action(&c, &in, ACT_ZOOM_OUT, &e);
	assert_true(within(&c, f0, f0 + fs));
	for (int i = 0; i < 100; i++) {
		control_action(&c, &in, ACT_PAN_RIGHT, &e);
		assert_true(within(&c, f0, f0 + fs));
	}
	for (int i = 0; i < 100; i++) {
		control_action(&c, &in, ACT_PAN_LEFT, &e);
		assert_true(within(&c, f0, f0 + fs));
	}
	assert_true(c.gv.t0 == f0);
	for (int i = 0; i < 10; i++) {
		control_action(&c, &in, ACT_ZOOM_OUT, &e);
		assert_true(within(&c, f0, f0 + fs));
	}
	assert_true(c.gv.t0 == f0 && c.gv.span == fs);
	/* A pinned, twice as long: F covers it whole; zooming out stays within it */
	run_init(&a);
	tui_add(&a.tl, SS_KIND_KERNEL, 0, r.lanes.t1, 2 * r.lanes.t1, 0, 0, "late");
	timeline_sort(&a.tl);
	lanes_build(&a.lanes, &a.tl);
	in.pinned = &a.lanes;
	extent(&a.lanes, &f0, &fs);
	control_action(&c, &in, ACT_FIT_ALL, &e);
	assert_true(c.gv.t0 <= (double)a.lanes.t0 && c.gv.t0 + c.gv.span >= (double)a.lanes.t1);
	control_action(&c, &in, ACT_ZOOM_OUT, &e);
	assert_true(c.gv.t0 + c.gv.span >= (double)a.lanes.t1);
	assert_true(within(&c, f0, f0 + fs));
	run_free(&a);
	run_free(&r);
}

/* ? opens the keys, ? again the legend, any other key closes either; a key that closes does nothing else. */
static void test_help_pages(void **state)
{
	struct ss_layout layout;
	struct ss_control c;
	struct ss_control_input in;
	struct ss_experiment e;
	struct run r;

	(void)state;
	run_init(&r);
	control_init(&c);
	input(&in, &r, 1, 120, 40, &layout, NULL);
	control_action(&c, &in, ACT_HELP, &e);
	assert_int_equal(c.help, CONTROL_HELP_KEYS);
	control_action(&c, &in, ACT_HELP, &e);
	assert_int_equal(c.help, CONTROL_HELP_LEGEND);
	control_action(&c, &in, ACT_HELP, &e);
	assert_int_equal(c.help, 0);
	control_action(&c, &in, ACT_HELP, &e);
	assert_int_equal(control_action(&c, &in, ACT_QUIT, &e), CONTROL_NONE);
	assert_int_equal(c.help, 0);
	assert_false(c.quit);
	/* the summary panel: S opens it over a run, any key closes it */
	control_action(&c, &in, ACT_SUMMARY, &e);
	assert_true(c.summary);
	control_action(&c, &in, ACT_ZOOM_IN, &e);
	assert_false(c.summary);
	assert_true(c.follow);
	in.run = NULL;
	control_action(&c, &in, ACT_SUMMARY, &e);
	assert_false(c.summary);
	assert_non_null(strstr(c.message, "nothing to summarise"));
	run_free(&r);
}

/* In the sweep view the arrows move a cursor over the points (left/right: stream counts, up/down: orders) within the
 * sweep, Tab walks all of them, Enter asks to open the point under it. */
static void test_sweep_cursor(void **state)
{
	static const int counts[] = {1, 2, 4, 8};
	static const enum ss_order orders[] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};
	struct ss_layout layout;
	struct ss_control c;
	struct ss_control_input in;
	struct ss_experiment base, e;
	struct ss_sweep sw;
	struct run r;

	(void)state;
	run_init(&r);
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	sweep_init(&sw, &base, counts, 4, orders, 2);
	control_init(&c);
	input(&in, &r, 1, 120, 40, &layout, &base);
	in.sweep = &sw;
	assert_int_equal(control_action(&c, &in, ACT_SWEEP, &e), CONTROL_SWEEP);
	for (int i = 0; i < 6; i++)
		control_action(&c, &in, ACT_PAN_RIGHT, &e);
	assert_int_equal(c.sweep_cur, 3);
	control_action(&c, &in, ACT_SCROLL_DOWN, &e);
	control_action(&c, &in, ACT_SCROLL_DOWN, &e);
	assert_int_equal(c.sweep_cur, 7);
	control_action(&c, &in, ACT_START, &e);
	assert_int_equal(c.sweep_cur, 4);
	control_action(&c, &in, ACT_NEXT, &e);
	assert_int_equal(c.sweep_cur, 5);
	control_action(&c, &in, ACT_SCROLL_UP, &e);
	assert_int_equal(c.sweep_cur, 1);
	assert_int_equal(control_action(&c, &in, ACT_ZOOM_SEL, &e), CONTROL_OPEN_POINT);
	/* the Gantt's own keys are not the cursor's: the window did not move */
	assert_true(c.follow);
	control_action(&c, &in, ACT_CLOSE, &e);
	assert_false(c.sweep);
	sweep_free(&sw);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scroll_then_select), cmocka_unit_test(test_selection_follows_run),
	    cmocka_unit_test(test_too_small),          cmocka_unit_test(test_experiment_keys),
	    cmocka_unit_test(test_fit_work),           cmocka_unit_test(test_zoom_clamp),
	    cmocka_unit_test(test_help_pages),         cmocka_unit_test(test_sweep_cursor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
