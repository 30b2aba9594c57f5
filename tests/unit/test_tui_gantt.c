/* test_tui_gantt.c: the Gantt cell grid: sub-cell eighths, coverage, roles, selection, picking, and golden
 * snapshots of the fixture timeline (UTF-8 and ASCII, expanded and compact). */
#include <math.h>

#include "test_tui_util.h"
#include "tui/gantt.h"
#include "tui/glyphs.h"
#include "tui/lanes.h"
#include "tui/view.h"

/* gantt_one draws a one-lane timeline (records added by the caller to t) 80 cells wide, 100 ns per cell. */
static void gantt_one(struct ss_timeline *t, struct ss_grid *g, struct ss_lanes *l, bool ascii, uint32_t sel)
{
	struct ss_gantt_view v = {0, 8000, 0, false, sel};

	lanes_init(l);
	lanes_build(l, t);
	grid_init(g, 80, 8);
	gantt_draw(g, (struct ss_rect){0, 0, 0, 0}, (struct ss_rect){0, 0, 80, 8}, l, &v, glyphs_get(ascii));
}

/* The row of the lane of stream 0's kind k in the expanded form (the fixture-free timelines here have no host). */
static int gantt_row_of(const struct ss_lanes *l, int kind)
{
	int n;
	const struct ss_lane *ln = lanes_get(l, false, &n);

	for (int i = 0; i < n; i++)
		if (ln[i].stream == 0 && ((kind == SS_KIND_H2D && ln[i].kind == LANE_H2D) ||
		                          (kind == SS_KIND_KERNEL && ln[i].kind == LANE_KER) ||
		                          (kind == SS_KIND_D2H && ln[i].kind == LANE_D2H)))
			return i;
	return -1;
}

/* Cells in which many intervals start show how busy they are as shades, light to full; a cell of one or two
 * keeps its eighth block; ASCII has its twins. */
static void test_density(void **state)
{
	struct ss_timeline t;
	struct ss_grid g;
	struct ss_lanes l;
	int y;

	(void)state;
	for (int ascii = 0; ascii < 2; ascii++) {
		timeline_init(&t);
		t.nstreams = 1;
		for (int i = 0; i < 10; i++) /* cell 0: 10 kernels of 2 ns: 20% busy */
			tui_add(&t, SS_KIND_KERNEL, 0, (uint64_t)i * 10, (uint64_t)i * 10 + 2, 0, 0, "k");
		for (int i = 0; i < 5; i++) /* cell 1: 5 of 10 ns: half busy */
			tui_add(&t, SS_KIND_KERNEL, 0, 100 + (uint64_t)i * 20, 110 + (uint64_t)i * 20, 0, 0, "k");
		for (int i = 0; i < 4; i++) /* cell 2: 4 of 23 ns: 92%, 7 eighths */
			tui_add(&t, SS_KIND_KERNEL, 0, 200 + (uint64_t)i * 25, 223 + (uint64_t)i * 25, 0, 0, "k");
		for (int i = 0; i < 4; i++) /* cell 3: 4 of 25 ns: full */
			tui_add(&t, SS_KIND_KERNEL, 0, 300 + (uint64_t)i * 25, 325 + (uint64_t)i * 25, 0, 0, "k");
		tui_add(&t, SS_KIND_KERNEL, 0, 500, 520, 0, 0, "k"); /* cell 5: two kernels, 40%: an eighth block */
		tui_add(&t, SS_KIND_KERNEL, 0, 540, 560, 0, 0, "k");
		gantt_one(&t, &g, &l, ascii, UINT32_MAX);
		y = gantt_row_of(&l, SS_KIND_KERNEL);
		assert_int_equal(grid_at(&g, 0, y)->ch, ascii ? '.' : 0x2591);
		assert_int_equal(grid_at(&g, 1, y)->ch, ascii ? ':' : 0x2592);
		assert_int_equal(grid_at(&g, 2, y)->ch, ascii ? '=' : 0x2593);
		assert_int_equal(grid_at(&g, 3, y)->ch, glyphs_bar(glyphs_get(ascii), 8, SS_ROLE_KERNEL));
		assert_int_equal(grid_at(&g, 5, y)->ch, glyphs_bar(glyphs_get(ascii), 3, SS_ROLE_KERNEL));
		assert_int_equal(grid_at(&g, 0, y)->role, SS_ROLE_KERNEL);
		grid_free(&g);
		lanes_free(&l);
		timeline_free(&t);
	}
}

/* An interval ending 3/8 into a cell: full blocks, then the left three eighths block. */
static void test_eighths(void **state)
{
	struct ss_timeline t;
	struct ss_grid g;
	struct ss_lanes l;
	int y;

	(void)state;
	timeline_init(&t);
	t.nstreams = 1;
	tui_add(&t, SS_KIND_H2D, 0, 0, 237, 1024, 0, "");     /* 2.37 cells: round(0.37 * 8) = 3 eighths */
	tui_add(&t, SS_KIND_H2D, 0, 1000, 1100, 1024, 0, ""); /* exactly cell 10 */
	tui_add(&t, SS_KIND_H2D, 0, 2000, 2001, 1024, 0, ""); /* 1 ns: still one eighth */
	tui_add(&t, SS_KIND_H2D, 0, 3000, 3025, 1024, 0, ""); /* two quarters of cell 30 ... */
	tui_add(&t, SS_KIND_H2D, 0, 3050, 3075, 1024, 0, ""); /* ... with a gap: half the cell busy */
	tui_add(&t, SS_KIND_H2D, 0, 4030, 4300, 1024, 0, ""); /* starts 0.3 into cell 40 */
	gantt_one(&t, &g, &l, false, UINT32_MAX);
	y = gantt_row_of(&l, SS_KIND_H2D);
	assert_int_equal(grid_at(&g, 0, y)->ch, 0x2588);
	assert_int_equal(grid_at(&g, 1, y)->ch, 0x2588);
	assert_int_equal(grid_at(&g, 2, y)->ch, 0x258D); /* LEFT THREE EIGHTHS BLOCK */
	assert_int_equal(grid_at(&g, 3, y)->ch, ' ');
	assert_int_equal(grid_at(&g, 0, y)->role, SS_ROLE_H2D);
	assert_int_equal(grid_at(&g, 9, y)->ch, ' ');
	assert_int_equal(grid_at(&g, 10, y)->ch, 0x2588);
	assert_int_equal(grid_at(&g, 11, y)->ch, ' ');
	assert_int_equal(grid_at(&g, 20, y)->ch, 0x258F); /* LEFT ONE EIGHTH BLOCK */
	assert_int_equal(grid_at(&g, 30, y)->ch, 0x258C); /* LEFT HALF BLOCK */
	/* a bar's first cell: busy 0.7 on its right, drawn as the left 2/8 block in reverse video */
	assert_int_equal(grid_at(&g, 40, y)->ch, 0x258E);
	assert_int_equal(grid_at(&g, 40, y)->attr, GRID_REVERSE);
	assert_int_equal(grid_at(&g, 40, y)->role, SS_ROLE_H2D);
	assert_int_equal(grid_at(&g, 41, y)->ch, 0x2588);
	assert_int_equal(grid_at(&g, 41, y)->attr, 0);
	assert_int_equal(grid_at(&g, 43, y)->ch, ' ');
	grid_free(&g);
	lanes_free(&l);
	/* ASCII twin: full cells by engine, partial ones by amount */
	gantt_one(&t, &g, &l, true, UINT32_MAX);
	assert_int_equal(grid_at(&g, 0, y)->ch, '>');
	assert_int_equal(grid_at(&g, 2, y)->ch, ':');
	assert_int_equal(grid_at(&g, 30, y)->ch, ':');
	assert_int_equal(grid_at(&g, 20, y)->ch, '.');
	for (int x = 0; x < g.w; x++)
		assert_true(grid_at(&g, x, y)->ch < 0x80);
	grid_free(&g);
	lanes_free(&l);
	timeline_free(&t);
}

/* Within a lane a kernel wins a cell over a shorter memset; a sync wait wins over the API call that waits. */
static void test_roles(void **state)
{
	struct ss_timeline t;
	struct ss_grid g;
	struct ss_lanes l;
	int n, host = -1, ker;
	const struct ss_lane *ln;

	(void)state;
	timeline_init(&t);
	t.nstreams = 1;
	tui_add(&t, SS_KIND_MEMSET, 0, 0, 30, 64, 0, "");
	tui_add(&t, SS_KIND_KERNEL, 0, 30, 100, 0, 0, "k");
	tui_add(&t, SS_KIND_API, SS_STREAM_HOST, 500, 1000, 0, 0, "cudaStreamSynchronize");
	tui_add(&t, SS_KIND_SYNC, SS_STREAM_HOST, 560, 990, 0, 0, "");
	tui_add(&t, SS_KIND_API, SS_STREAM_HOST, 2000, 2100, 0, 0, "cudaLaunchKernel");
	gantt_one(&t, &g, &l, false, UINT32_MAX);
	ln = lanes_get(&l, false, &n);
	for (int i = 0; i < n; i++)
		if (ln[i].kind == LANE_HOST)
			host = i;
	ker = gantt_row_of(&l, SS_KIND_KERNEL);
	assert_int_equal(host, 0);
	assert_int_equal(grid_at(&g, 0, ker)->role, SS_ROLE_KERNEL);
	assert_int_equal(grid_at(&g, 0, ker)->ch, 0x2588);
	assert_int_equal(grid_at(&g, 6, host)->role, SS_ROLE_SYNC);
	assert_int_equal(grid_at(&g, 5, host)->role, SS_ROLE_API); /* the wait covers less than half of cell 5 */
	assert_int_equal(grid_at(&g, 20, host)->role, SS_ROLE_API);
	/* the host lane counts the union: the API call and its wait together fill cell 6 once */
	assert_int_equal(grid_at(&g, 6, host)->ch, 0x2588);
	grid_free(&g);
	lanes_free(&l);
	timeline_free(&t);
}

/* The selected interval is drawn in the highlight role, and only it. */
static void test_selection(void **state)
{
	struct ss_timeline t;
	struct ss_grid g;
	struct ss_lanes l;
	int y;

	(void)state;
	timeline_init(&t);
	t.nstreams = 1;
	tui_add(&t, SS_KIND_KERNEL, 0, 0, 1000, 0, 0, "a");
	tui_add(&t, SS_KIND_KERNEL, 0, 1000, 2000, 0, 0, "b");
	gantt_one(&t, &g, &l, false, 1);
	y = gantt_row_of(&l, SS_KIND_KERNEL);
	for (int x = 0; x < 10; x++)
		assert_int_equal(grid_at(&g, x, y)->role, SS_ROLE_KERNEL);
	for (int x = 10; x < 20; x++)
		assert_int_equal(grid_at(&g, x, y)->role, SS_ROLE_HIGHLIGHT);
	assert_int_equal(grid_at(&g, 20, y)->ch, ' ');
	grid_free(&g);
	lanes_free(&l);
	timeline_free(&t);
}

/* Lanes of the fixture: a host lane, the legacy stream's lane in its own role, three streams x three engines. */
static void test_lanes(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	const struct ss_lane *ln;
	int n;
	char label[32];

	(void)state;
	tui_fixture(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	ln = lanes_get(&l, false, &n);
	assert_int_equal(n, 1 + 1 + 9);
	assert_int_equal(ln[0].kind, LANE_HOST);
	assert_int_equal(ln[1].stream, SS_STREAM_LEGACY);
	assert_int_equal(ln[1].kind, LANE_KER);
	assert_int_equal(ln[1].role[ln[1].ntracks - 1], SS_ROLE_DEFAULT_STREAM);
	lanes_label(&ln[1], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "legacy KER");
	lanes_label(&ln[2], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "s0   H2D");
	lanes_label(&ln[3], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "     KER");
	ln = lanes_get(&l, true, &n);
	assert_int_equal(n, 1 + 1 + 3);
	lanes_label(&ln[4], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "s2");
	assert_int_equal(l.t0, 0);
	assert_int_equal(l.t1, 400 * US);
	lanes_free(&l);
	timeline_free(&t);
}

/* Walking a lane, moving between lanes, and finding the API call of a kernel. */
static void test_navigation(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	const struct ss_lane *ln;
	int n;
	uint32_t r, api;

	(void)state;
	tui_fixture(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	ln = lanes_get(&l, false, &n);
	/* s1's KER lane holds the memset then the kernel */
	r = lanes_step(&l, &ln[6], UINT32_MAX, 1);
	assert_int_equal(t.rec[r].kind, SS_KIND_MEMSET);
	r = lanes_step(&l, &ln[6], r, 1);
	assert_int_equal(t.rec[r].kind, SS_KIND_KERNEL);
	assert_int_equal(t.rec[r].stream, 1);
	assert_int_equal(lanes_step(&l, &ln[6], r, 1), UINT32_MAX);
	assert_int_equal(t.rec[lanes_step(&l, &ln[6], r, -1)].kind, SS_KIND_MEMSET);
	assert_int_equal(lanes_find(&l, false, r), 6);
	assert_int_equal(lanes_find(&l, true, r), 3);
	api = lanes_api_of(&l, r);
	assert_int_not_equal(api, UINT32_MAX);
	assert_string_equal(timeline_name(&t, t.rec[api].name), "cudaLaunchKernel");
	assert_int_equal(t.rec[api].correlation, t.rec[r].correlation);
	/* nearest on s2's H2D lane from far left and far right */
	r = lanes_near(&l, &ln[8], 0);
	assert_int_equal(t.rec[r].start, 120 * US);
	r = lanes_near(&l, &ln[8], 1e9);
	assert_int_equal(t.rec[r].start, 120 * US);
	lanes_free(&l);
	timeline_free(&t);
}

/* Clicking a cell picks what is drawn there, or the nearest interval within two cells. */
static void test_pick(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	struct ss_gantt_view v = {0, 400 * US, 0, false, UINT32_MAX};
	struct ss_rect plot = {10, 2, 80, 20};
	int lane;
	uint32_t r;

	(void)state;
	tui_fixture(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	/* 5 us per cell; s0 KER (lane 3) runs 70..150 us: cells 14..29 */
	r = gantt_pick(&l, plot, &v, 10 + 20, 2 + 3, &lane);
	assert_int_equal(lane, 3);
	assert_int_equal(t.rec[r].kind, SS_KIND_KERNEL);
	assert_int_equal(t.rec[r].stream, 0);
	/* one cell after its end: still it (within two cells) */
	r = gantt_pick(&l, plot, &v, 10 + 30, 2 + 3, &lane);
	assert_int_equal(t.rec[r].start, 70 * US);
	/* far from anything on s0's KER lane */
	assert_int_equal(gantt_pick(&l, plot, &v, 10 + 60, 2 + 3, &lane), UINT32_MAX);
	/* outside the plot */
	assert_int_equal(gantt_pick(&l, plot, &v, 5, 2 + 3, &lane), UINT32_MAX);
	assert_int_equal(lane, -1);
	/* below the last lane */
	assert_int_equal(gantt_pick(&l, plot, &v, 30, 2 + 15, &lane), UINT32_MAX);
	lanes_free(&l);
	timeline_free(&t);
}

/* gantt_fit covers the run with one spare cell; gantt_clamp keeps zoom and pan within it: never before its start,
 * never past its end, never wider than it. */
static void test_fit(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	double t0, span, ft0, fspan;

	(void)state;
	tui_fixture(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	gantt_fit(&l, 101, &ft0, &fspan);
	assert_true(ft0 == 0);
	assert_true(fabs(fspan - 400e3 * 101 / 100) < 1e-6);
	t0 = -1e12;
	span = 1;
	gantt_clamp(ft0, fspan, 101, &t0, &span);
	assert_true(span == 101);
	assert_true(t0 == 0);
	t0 = 1e12;
	gantt_clamp(ft0, fspan, 101, &t0, &span);
	assert_true(t0 + span == 404e3);
	/* zoomed out from the start, around a point before it: the whole run from its start, not before */
	t0 = -100e3;
	span = 300e3;
	gantt_clamp(ft0, fspan, 101, &t0, &span);
	assert_true(t0 == 0 && span == 300e3);
	span = 1e15;
	gantt_clamp(ft0, fspan, 101, &t0, &span);
	assert_true(span == 404e3);
	assert_true(t0 == 0);
	/* an extent shorter than a cell a ns: the window starts with it */
	t0 = 50;
	span = 7;
	gantt_clamp(1000, 20, 101, &t0, &span);
	assert_true(t0 == 1000 && span == 101);
	lanes_free(&l);
	timeline_free(&t);
}

/* labelled_fixture is tui_fixture with stream kinds (s0 blocking, s1 non-blocking, s2 per-thread default) and
 * NVTX ranges on two threads: thread 812 has "outer" with "inner" nested in it, thread 4242424 one range. */
static void labelled_fixture(struct ss_timeline *t)
{
	tui_fixture(t);
	timeline_set_stream(t, 0, 13, SS_SKIND_BLOCKING);
	timeline_set_stream(t, 1, 14, SS_SKIND_NONBLOCKING);
	timeline_set_stream(t, 2, 15, SS_SKIND_PER_THREAD);
	tui_add(t, SS_KIND_MARKER, SS_STREAM_HOST, 10 * US, 300 * US, 0, 0, "outer");
	tui_add(t, SS_KIND_MARKER, SS_STREAM_HOST, 60 * US, 110 * US, 0, 0, "inner");
	tui_add(t, SS_KIND_MARKER, SS_STREAM_HOST, 150 * US, 250 * US, 0, 0, "other thread");
	for (size_t i = t->n - 3; i < t->n; i++)
		t->rec[i].thread = i + 1 < t->n ? 812 : 4242424;
	timeline_sort(t);
}

/* Stream kinds in the labels; each thread's NVTX ranges on a lane of their own, named by the thread. */
static void test_labels_nvtx(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	const struct ss_lane *ln;
	char label[32];
	int n, lane;
	uint32_t r;

	(void)state;
	labelled_fixture(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	ln = lanes_get(&l, false, &n);
	/* host, NVTX t812, NVTX ~2424, legacy KER, 3 x (H2D KER D2H) */
	assert_int_equal(n, 1 + 2 + 1 + 9);
	assert_int_equal(ln[0].kind, LANE_HOST);
	assert_int_equal(ln[1].kind, LANE_NVTX);
	lanes_label(&ln[1], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "NVTX t812");
	lanes_label(&ln[2], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "NVTX ~2424");
	lanes_label(&ln[3], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "legacy KER");
	lanes_label(&ln[4], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "s0 blk H2D");
	lanes_label(&ln[5], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "       KER");
	lanes_label(&ln[7], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "s1 nb  H2D");
	lanes_label(&ln[10], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "s2 ptd H2D");
	/* the markers left the host lane: nearest record on the host lane at 200 us is an API call or the wait */
	r = lanes_near(&l, &ln[0], 200e3);
	assert_int_not_equal(t.rec[r].kind, SS_KIND_MARKER);
	/* thread 812's lane: at 80 us both ranges cover; either is a marker of thread 812, found on lane 1 */
	r = lanes_near(&l, &ln[1], 80e3);
	assert_int_equal(t.rec[r].kind, SS_KIND_MARKER);
	assert_int_equal(t.rec[r].thread, 812);
	lane = lanes_find(&l, false, r);
	assert_int_equal(lane, 1);
	/* stepping walks outer then inner */
	r = lanes_step(&l, &ln[1], UINT32_MAX, 1);
	assert_string_equal(timeline_name(&t, t.rec[r].name), "outer");
	r = lanes_step(&l, &ln[1], r, 1);
	assert_string_equal(timeline_name(&t, t.rec[r].name), "inner");
	assert_int_equal(lanes_step(&l, &ln[1], r, 1), UINT32_MAX);
	r = lanes_near(&l, &ln[2], 200e3);
	assert_string_equal(timeline_name(&t, t.rec[r].name), "other thread");
	/* the detail box: the range's thread and name; a stream's index, CUPTI id and kind */
	{
		struct ss_view_run run = {&t, &l, NULL, NULL};
		char dl[10][12], dv[10][64];
		int m;

		r = lanes_step(&l, &ln[1], UINT32_MAX, 1);
		m = view_detail_lines(&run, r, dl, dv, 10);
		assert_true(m >= 7);
		assert_string_equal(dv[0], "NVTX range, host thread 812");
		assert_string_equal(dl[6], "name");
		assert_string_equal(dv[6], "outer");
		r = lanes_step(&l, &ln[8], UINT32_MAX, 1); /* s1's KER lane: the memset */
		m = view_detail_lines(&run, r, dl, dv, 10);
		assert_true(m >= 1);
		assert_string_equal(dv[0], "s1 (id 14) non-blocking");
	}
	/* compact: kinds with the names */
	ln = lanes_get(&l, true, &n);
	assert_int_equal(n, 1 + 2 + 1 + 3);
	lanes_label(&ln[5], LAYOUT_LABEL_COLS - 1, label, sizeof label);
	assert_string_equal(label, "s1 nb");
	lanes_free(&l);
	timeline_free(&t);
}

/* gantt_golden draws the fixture's lanes with labels at w x h into a grid and compares it with a golden file. */
static void gantt_golden(const char *name, int w, int h, bool ascii, bool compact, uint32_t sel, int top)
{
	struct ss_timeline t;
	struct ss_lanes l;
	struct ss_grid g;
	struct ss_gantt_view v = {0, 0, top, compact, sel};

	if (strstr(name, "labelled") != NULL)
		labelled_fixture(&t);
	else
		tui_fixture(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	grid_init(&g, w, h);
	g.ascii = ascii;
	gantt_fit(&l, w - 11, &v.t0, &v.span);
	gantt_draw(&g, (struct ss_rect){0, 0, 11, h}, (struct ss_rect){11, 0, w - 11, h}, &l, &v, glyphs_get(ascii));
	tui_golden(&g, name, name);
	grid_free(&g);
	lanes_free(&l);
	timeline_free(&t);
}

static void test_golden(void **state)
{
	(void)state;
	gantt_golden("tui_gantt_utf8_100x12", 100, 12, false, false, UINT32_MAX, 0);
	gantt_golden("tui_gantt_ascii_100x12", 100, 12, true, false, UINT32_MAX, 0);
	gantt_golden("tui_gantt_compact_80x6", 80, 6, false, true, UINT32_MAX, 0);
	/* 11 lanes in 5 rows from the third: arrows both ways; s0's kernel (record 4) selected */
	gantt_golden("tui_gantt_scrolled_60x5", 60, 5, false, false, 4, 2);
	/* stream kinds and two threads' NVTX lanes (the nested range inside the outer one) */
	gantt_golden("tui_gantt_labelled_100x15", 100, 15, false, false, UINT32_MAX, 0);
	gantt_golden("tui_gantt_labelled_ascii_100x15", 100, 15, true, false, UINT32_MAX, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_density),     cmocka_unit_test(test_eighths), cmocka_unit_test(test_roles),
	    cmocka_unit_test(test_selection),   cmocka_unit_test(test_lanes),   cmocka_unit_test(test_navigation),
	    cmocka_unit_test(test_pick),        cmocka_unit_test(test_fit),     cmocka_unit_test(test_golden),
	    cmocka_unit_test(test_labels_nvtx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
