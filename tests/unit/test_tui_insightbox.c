/* test_tui_insightbox.c: the insights panel's pure parts: the selection keys, the zoom range, the wrapping, the
 * gain line and the severity marks; the layout with the panel at every size; the controls opening it (the window
 * zoomed to the first insight's evidence, moved with the selection); and whole screens with the panel open, where
 * the selected insight's records, and only they, are drawn marked. */
#include "core/analysis.h"
#include "core/insight.h"
#include "test_tui_util.h"
#include "tui/control.h"
#include "tui/insightbox.h"
#include "tui/lanes.h"
#include "tui/layout.h"
#include "tui/listbox.h"
#include "tui/view.h"

/* three fills in with three hand-made insights: a problem, a hint and an information. */
static void three(struct ss_insights *in)
{
	static const char *const rules[3] = {"pageable-copy", "gpu-idle", "engine-bound"};

	memset(in, 0, sizeof *in);
	for (int i = 0; i < 3; i++) {
		in->item[i].rule = rules[i];
		in->item[i].severity = (enum ss_severity)i;
		in->item[i].t0 = 1000 * (uint64_t)(i + 1);
		in->item[i].t1 = 2000 * (uint64_t)(i + 1);
	}
	in->n = 3;
}

static void test_keys(void **state)
{
	struct ss_insightbox b = {true, 0};
	struct ss_insights in;

	(void)state;
	three(&in);
	assert_int_equal(insightbox_key(&b, &in, ACT_LANE_DOWN), INSIGHTBOX_ZOOM);
	assert_int_equal(b.cur, 1);
	assert_int_equal(insightbox_key(&b, &in, ACT_SCROLL_DOWN), INSIGHTBOX_ZOOM);
	assert_int_equal(b.cur, 2);
	assert_int_equal(insightbox_key(&b, &in, ACT_LANE_DOWN), INSIGHTBOX_ZOOM); /* stays on the last */
	assert_int_equal(b.cur, 2);
	assert_ptr_equal(insightbox_selected(&b, &in), &in.item[2]);
	assert_int_equal(insightbox_key(&b, &in, ACT_LANE_UP), INSIGHTBOX_ZOOM);
	assert_int_equal(insightbox_key(&b, &in, ACT_SCROLL_UP), INSIGHTBOX_ZOOM);
	assert_int_equal(insightbox_key(&b, &in, ACT_SCROLL_UP), INSIGHTBOX_ZOOM); /* stays on the first */
	assert_int_equal(b.cur, 0);
	assert_int_equal(insightbox_key(&b, &in, ACT_ZOOM_SEL), INSIGHTBOX_ZOOM);
	assert_int_equal(insightbox_key(&b, &in, ACT_ZOOM_IN), INSIGHTBOX_ZOOM);
	/* other keys are the controls' */
	assert_int_equal(insightbox_key(&b, &in, ACT_PAN_LEFT), INSIGHTBOX_IGNORED);
	assert_int_equal(insightbox_key(&b, &in, ACT_ORDER), INSIGHTBOX_IGNORED);
	assert_true(b.open);
	assert_int_equal(insightbox_key(&b, &in, ACT_CLOSE), INSIGHTBOX_DONE);
	assert_false(b.open);
	b.open = true;
	assert_int_equal(insightbox_key(&b, &in, ACT_INSIGHTS), INSIGHTBOX_DONE);
	assert_false(b.open);
	/* fewer insights than the selection (the run changed): clamped; none: nothing to zoom to */
	b = (struct ss_insightbox){true, 7};
	assert_int_equal(insightbox_key(&b, &in, ACT_PAN_LEFT), INSIGHTBOX_IGNORED);
	assert_int_equal(b.cur, 2);
	in.n = 0;
	assert_null(insightbox_selected(&b, &in));
	assert_int_equal(insightbox_key(&b, &in, ACT_LANE_DOWN), INSIGHTBOX_DONE);
	assert_int_equal(insightbox_key(&b, &in, ACT_ZOOM_SEL), INSIGHTBOX_DONE);
	assert_int_equal(insightbox_key(&b, NULL, ACT_LANE_DOWN), INSIGHTBOX_DONE);
	assert_null(insightbox_selected(&b, NULL));
}

static void test_range(void **state)
{
	struct ss_insight x;
	double t0, span;

	(void)state;
	memset(&x, 0, sizeof x);
	x.t0 = 1000;
	x.t1 = 3000;
	assert_true(insightbox_range(&x, 10, &t0, &span));
	assert_true(t0 == 1000 - 2000 * INSIGHTBOX_MARGIN);
	assert_true(span == 2000 * (1 + 2 * INSIGHTBOX_MARGIN));
	/* a tiny range gets the minimum window, centred on it */
	assert_true(insightbox_range(&x, 100000, &t0, &span));
	assert_true(span == 100000 && t0 == 2000 - 50000);
	/* an instant with a record: the minimum window around it */
	x.t0 = x.t1 = 5000;
	x.nrec = 1;
	assert_true(insightbox_range(&x, 200, &t0, &span));
	assert_true(span == 200 && t0 == 4900);
	/* no time range and no record (tracing-perturbation): no window */
	x.nrec = 0;
	assert_false(insightbox_range(&x, 200, &t0, &span));
	assert_false(insightbox_range(NULL, 200, &t0, &span));
}

static void test_wrap_gain_marks(void **state)
{
	char line[8][LISTBOX_LINE], buf[512];
	struct ss_insight x;

	(void)state;
	assert_int_equal(listbox_wrap("the quick brown fox jumps", 10, line, 8), 3);
	assert_string_equal(line[0], "the quick");
	assert_string_equal(line[1], "brown fox");
	assert_string_equal(line[2], "jumps");
	/* a word longer than the width is cut; blanks at the ends go */
	assert_int_equal(listbox_wrap("  abcdefghijkl mn ", 4, line, 8), 4);
	assert_string_equal(line[0], "abcd");
	assert_string_equal(line[1], "efgh");
	assert_string_equal(line[2], "ijkl");
	assert_string_equal(line[3], "mn");
	/* more lines than room: counted, not written */
	assert_int_equal(listbox_wrap("a b c d e f", 1, line, 2), 6);
	assert_int_equal(listbox_wrap("", 10, line, 8), 0);
	/* UTF-8: a character is one cell */
	assert_int_equal(listbox_wrap("\xc3\xa9t\xc3\xa9 \xc3\xa9t\xc3\xa9", 3, line, 8), 2);
	assert_string_equal(line[1], "\xc3\xa9t\xc3\xa9");
	memset(&x, 0, sizeof x);
	insightbox_gain(&x, false, buf, sizeof buf);
	assert_string_equal(buf, "gain: none (no sound estimate from the timeline)");
	x.have_gain = true;
	x.gain_ns = 1200000;
	snprintf(x.gain_how, sizeof x.gain_how, "at most: the gap");
	insightbox_gain(&x, false, buf, sizeof buf);
	assert_string_equal(buf, "gain: 1.200 ms (at most: the gap)");
	insightbox_gain(&x, true, buf, sizeof buf);
	assert_string_equal(buf, "gain, modelled: 1.200 ms (at most: the gap)");
	/* each glyph has an ASCII twin, and the three differ */
	assert_int_equal(insightbox_mark(SS_SEV_PROBLEM, false), '!');
	assert_int_equal(insightbox_mark(SS_SEV_HINT, false), '^');
	assert_int_equal(insightbox_mark(SS_SEV_INFO, false), 'i');
	for (int s = 0; s < 3; s++)
		assert_true(insightbox_mark((enum ss_severity)s, true) >= 0x80);
	assert_int_not_equal(insightbox_mark(SS_SEV_PROBLEM, true), insightbox_mark(SS_SEV_HINT, true));
	assert_int_not_equal(insightbox_mark(SS_SEV_INFO, true), insightbox_mark(SS_SEV_HINT, true));
}

static bool rect_overlap(struct ss_rect a, struct ss_rect b)
{
	if (a.w == 0 || a.h == 0 || b.w == 0 || b.h == 0)
		return false;
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* The layout with the panel at every size from 80x24 to 300x100, with and without A/B: the panel on screen, apart
 * from every other part, in place of the stats (side column or bottom rows, as the stats would be), the Gantt still
 * usable; and a layout without the panel is the one it always was. */
static void test_layout_every_size(void **state)
{
	(void)state;
	for (int cols = LAYOUT_MIN_COLS; cols <= 300; cols++)
		for (int rows = LAYOUT_MIN_ROWS; rows <= 100; rows++)
			for (int ab = 0; ab < 2; ab++) {
				struct ss_layout_opts o = {cols, rows, ab != 0, true, 0},
				                      plain = {cols, rows, ab != 0, false, 0};
				struct ss_layout l, p;
				char *cause = NULL;

				assert_int_equal(layout_compute(&o, &l, &cause), 0);
				assert_int_equal(layout_compute(&plain, &p, &cause), 0);
				assert_int_equal(p.panel.w, 0);
				struct ss_rect parts[] = {l.header,    l.title[0], l.labels[0], l.plot[0], l.title[1],
				                          l.labels[1], l.plot[1],  l.axis,      l.corner,  l.status};
				assert_int_equal(l.stats.w * l.stats.h, 0);
				assert_true(l.panel.x >= 0 && l.panel.y >= 0 && l.panel.x + l.panel.w <= cols &&
				            l.panel.y + l.panel.h <= rows);
				for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
					assert_false(rect_overlap(l.panel, parts[i]));
				assert_true(l.panel.w >= 44 && l.panel.h >= LAYOUT_PANEL_MIN_ROWS);
				if (cols >= LAYOUT_SIDE_MIN_COLS) {
					assert_int_equal(l.panel.x + l.panel.w, cols);
					assert_int_equal(l.panel.y, LAYOUT_HEADER_ROWS);
					assert_int_equal(l.panel.y + l.panel.h, l.status.y);
				} else {
					assert_int_equal(l.panel.w, cols);
					assert_int_equal(l.panel.y + l.panel.h, l.status.y);
					assert_int_equal(l.axis.y + l.axis.h, l.panel.y);
				}
				for (int i = 0; i < (ab ? 2 : 1); i++) {
					assert_true(l.plot[i].w >= 40);
					assert_true(l.plot[i].h >= (ab ? 3 : 9));
					assert_int_equal(l.plot[i].w, l.axis.w);
				}
				assert_true(l.help.w >= 78 && l.help.h >= 22);
			}
}

/* A sorted fixture with two pageable H2D copies (pageable-copy fires on them) and the legacy kernel that holds the
 * other streams back (legacy-stream-sync), indexed and analysed. */
struct run {
	struct ss_timeline tl;
	struct ss_lanes lanes;
	struct ss_analysis an;
	struct ss_insights in;
	size_t pageable[2];
};

static void run_init(struct run *r)
{
	size_t k = 0;

	tui_fixture(&r->tl);
	timeline_sort(&r->tl);
	for (size_t i = 0; i < r->tl.n && k < 2; i++)
		if (r->tl.rec[i].kind == SS_KIND_H2D && r->tl.rec[i].stream != 1) {
			r->tl.rec[i].flags = (uint8_t)((r->tl.rec[i].flags & ~SS_REC_PINNED) | SS_REC_PAGEABLE);
			r->pageable[k++] = i;
		}
	assert_int_equal(k, 2);
	lanes_init(&r->lanes);
	lanes_build(&r->lanes, &r->tl);
	analysis_timeline(&r->tl, &r->an);
	insight_analyze(&r->tl, &r->an, &r->in);
	assert_true(r->in.n >= 2);
	assert_string_equal(r->in.item[0].rule, "pageable-copy");
	assert_string_equal(r->in.item[1].rule, "legacy-stream-sync");
}

static void run_free(struct run *r)
{
	lanes_free(&r->lanes);
	timeline_free(&r->tl);
}

/* The controls: i opens the panel and zooms to the first insight's evidence, j moves to the next and zooms to it, z
 * zooms back after a pan, Esc closes; keys the panel does not take work as before. */
static void test_control(void **state)
{
	struct run r;
	struct ss_control c;
	struct ss_control_input in;
	struct ss_layout lay;
	struct ss_layout_opts o = {100, 30, false, true, 0};
	struct ss_experiment e;
	double t0, span, w0;
	char *cause = NULL;

	(void)state;
	run_init(&r);
	control_init(&c);
	memset(&in, 0, sizeof in);
	in.run = &r.lanes;
	in.run_id = 1;
	in.insights = &r.in;
	assert_int_equal(layout_compute(&o, &lay, &cause), 0);
	in.layout = &lay;
	control_sync(&c, &in);
	w0 = c.gv.span;
	assert_int_equal(control_action(&c, &in, ACT_INSIGHTS, &e), CONTROL_NONE);
	assert_true(c.insight.open);
	assert_int_equal(c.insight.cur, 0);
	assert_true(insightbox_range(&r.in.item[0], lay.plot[0].w, &t0, &span));
	assert_true(c.gv.t0 == t0 && c.gv.span == span && span < w0);
	assert_false(c.follow);
	/* the two pageable copies are in the window */
	for (int i = 0; i < 2; i++) {
		assert_true((double)r.tl.rec[r.pageable[i]].start >= c.gv.t0);
		assert_true((double)r.tl.rec[r.pageable[i]].end <= c.gv.t0 + c.gv.span);
	}
	assert_int_equal(control_action(&c, &in, ACT_LANE_DOWN, &e), CONTROL_NONE);
	assert_int_equal(c.insight.cur, 1);
	assert_true(insightbox_range(&r.in.item[1], lay.plot[0].w, &t0, &span));
	assert_true(c.gv.t0 == t0 && c.gv.span == span);
	/* the legacy kernel's lane is in view */
	{
		int lane = lanes_find(&r.lanes, c.gv.compact, (uint32_t)r.in.item[1].rec[0]);

		control_sync(&c, &in);
		assert_true(lane >= c.gv.top && lane < c.gv.top + lay.plot[0].h);
	}
	/* a pan is the controls', z brings the entry back */
	control_action(&c, &in, ACT_PAN_LEFT, &e);
	assert_true(c.gv.t0 < t0);
	assert_true(c.insight.open);
	control_action(&c, &in, ACT_ZOOM_IN, &e);
	assert_true(c.gv.t0 == t0 && c.gv.span == span);
	control_action(&c, &in, ACT_CLOSE, &e);
	assert_false(c.insight.open);
	/* closed: z zooms in again, j selects */
	control_action(&c, &in, ACT_ZOOM_IN, &e);
	assert_true(c.gv.span == span / 2);
	/* opened before any run finished: nothing to zoom to, the window stays */
	in.insights = NULL;
	w0 = c.gv.span;
	control_action(&c, &in, ACT_INSIGHTS, &e);
	assert_true(c.insight.open && c.gv.span == w0);
	assert_int_equal(control_action(&c, &in, ACT_LANE_DOWN, &e), CONTROL_NONE);
	/* over the sweep view (which hides the panel) its keys are the sweep's: the selection stays */
	in.insights = &r.in;
	c.insight.cur = 0;
	c.sweep = true;
	control_action(&c, &in, ACT_LANE_DOWN, &e);
	assert_int_equal(c.insight.cur, 0);
	assert_true(c.insight.open);
	/* i closes the sweep view and shows the panel again */
	control_action(&c, &in, ACT_INSIGHTS, &e);
	assert_false(c.sweep);
	assert_true(c.insight.open);
	control_action(&c, &in, ACT_LANE_DOWN, &e);
	assert_int_equal(c.insight.cur, 1);
	run_free(&r);
}

/* A whole screen with the panel open on entry cur of r at cols x rows (ascii glyphs or not), the window zoomed as
 * the controls zoom it. */
static void screen(struct ss_grid *g, struct run *r, size_t cur, int cols, int rows, bool ascii, struct ss_layout *lay,
                   struct ss_gantt_view *gv)
{
	struct ss_view v;
	struct ss_insightbox_view iv = {&r->in, cur, true, false};
	char *cause = NULL;

	memset(&v, 0, sizeof v);
	v.gl = glyphs_get(ascii);
	v.device = r->tl.device;
	v.modelled = true;
	v.backend = "model";
	v.run = (struct ss_view_run){&r->tl, &r->lanes, &r->an, NULL};
	v.stats.an = &r->an;
	v.insights = &iv;
	assert_int_equal(view_layout(&v, cols, rows, lay, &cause), 0);
	memset(gv, 0, sizeof *gv);
	gv->sel = UINT32_MAX;
	assert_true(insightbox_range(&r->in.item[cur], lay->plot[0].w, &gv->t0, &gv->span));
	v.gv = *gv;
	grid_resize(g, cols, rows);
	g->ascii = ascii;
	view_draw(g, &v);
}

/* marked_ok asserts that plot cells in the warning role are exactly over the records marks[0..n): each such cell
 * on a marked record's lane and within its time (a cell's slice touching it), and every marked record in the
 * window has one. */
static void marked_ok(const struct ss_grid *g, const struct run *r, const struct ss_layout *lay,
                      const struct ss_gantt_view *gv, const size_t *marks, size_t n)
{
	struct ss_rect p = lay->plot[0];
	double cw = gv->span / p.w;
	size_t found[SS_INSIGHT_MAX_RECS] = {0}, warn = 0;

	for (int y = p.y; y < p.y + p.h; y++)
		for (int x = p.x; x < p.x + p.w; x++) {
			const struct ss_cell *c = grid_at(g, x, y);
			double a = gv->t0 + (x - p.x) * cw;
			bool ok = false;

			if (c->role != SS_ROLE_WARN)
				continue;
			warn++;
			assert_true(c->attr & GRID_BOLD);
			for (size_t m = 0; m < n; m++) {
				const struct ss_record *rec = &r->tl.rec[marks[m]];

				if (lanes_find(&r->lanes, false, (uint32_t)marks[m]) == y - p.y + gv->top &&
				    (double)rec->start < a + cw && (double)rec->end > a) {
					ok = true;
					found[m]++;
				}
			}
			if (!ok) {
				print_error("a marked cell at %d,%d is over no evidence record\n", x, y);
				fail();
			}
		}
	assert_true(warn > 0);
	for (size_t m = 0; m < n; m++)
		assert_true(found[m] > 0);
}

static void test_screens(void **state)
{
	static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 30}, {160, 50}};
	struct run r;
	struct ss_grid g;
	struct ss_layout lay;
	struct ss_gantt_view gv;

	(void)state;
	run_init(&r);
	grid_init(&g, 0, 0);
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int ascii = 0; ascii < 2; ascii++) {
			char row[4096];
			int y;

			screen(&g, &r, 0, sizes[s][0], sizes[s][1], ascii != 0, &lay, &gv);
			/* the list, the selected entry's text, the key line */
			assert_true(tui_find(&g, "insights: ") >= 0);
			y = tui_find(&g, "pageable-copy");
			assert_true(y >= 0);
			if (getenv("SS_DUMP") != NULL)
				for (int k = 0; k < g.h; k++)
					fprintf(stderr, "%s\n", tui_row(&g, k, row, sizeof row));
			assert_non_null(strstr(tui_row(&g, y, row, sizeof row),
			                       ascii ? "! pageable-copy" : "\xe2\x9c\x96 pageable-copy"));
			assert_true(tui_find(&g, "legacy-stream-sync") >= 0);
			assert_true(tui_find(&g, "problem: pageable-copy") >= 0);
			assert_true(tui_find(&g, "2 copies from pageable") >= 0);
			assert_true(tui_find(&g, "evidence: 2 pageable copies") >= 0);
			assert_true(tui_find(&g, "fix: ") >= 0);
			assert_true(tui_find(&g, "Esc close") >= 0);
			/* the stats panel makes room */
			assert_true(tui_find(&g, "Stats") < 0);
			/* with rows to spare, the gain whole: its last word too (two lines of it were kept, the rest
			 * cut above empty rows) */
			if (sizes[s][1] >= 50) {
				struct ss_insight *x = &r.in.item[0];

				x->have_gain = true;
				snprintf(
				    x->gain_how, sizeof x->gain_how,
				    "at most: the waits, capped at the makespan less the busiest engine's busy time, "
				    "which is a long way of saying that this line wraps onto a third and a fourth line "
				    "of the panel at its width here, ending in thelastwordofthegain)");
				screen(&g, &r, 0, sizes[s][0], sizes[s][1], ascii != 0, &lay, &gv);
				assert_true(tui_find(&g, "thelastwordofthegain)") >= 0);
			}
			marked_ok(&g, &r, &lay, &gv, r.in.item[0].rec, r.in.item[0].nrec);
			/* the next entry: its own record marked, the copies no longer */
			screen(&g, &r, 1, sizes[s][0], sizes[s][1], ascii != 0, &lay, &gv);
			assert_true(tui_find(&g, "problem: legacy-stream-sync") >= 0);
			assert_true(tui_find(&g, "gain: none") >= 0 || tui_find(&g, "gain, modelled") >= 0);
			marked_ok(&g, &r, &lay, &gv, r.in.item[1].rec, r.in.item[1].nrec);
		}
	grid_free(&g);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keys),
	    cmocka_unit_test(test_range),
	    cmocka_unit_test(test_wrap_gain_marks),
	    cmocka_unit_test(test_layout_every_size),
	    cmocka_unit_test(test_control),
	    cmocka_unit_test(test_screens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
