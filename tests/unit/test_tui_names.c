/* test_tui_names.c: bars name themselves where they are wide enough: a kernel's or a call's name up to its argument
 * list, a copy's direction and size ("H2D 8 MiB"), in ASCII, in reverse video over the bar's cells; narrow bars,
 * the selected one and dense lanes stay as they were. */
/* cmocka (through test_tui_util.h) before io_fixture.h */
/* clang-format off */
#include "test_tui_util.h"
#include "io_fixture.h"
/* clang-format on */

#include "io/import/import.h"
#include "tui/gantt.h"
#include "tui/glyphs.h"
#include "tui/lanes.h"

/* row_text copies row y of g from x0 on, one byte per cell ('#' for a non-ASCII one), into buf. */
static const char *row_text(const struct ss_grid *g, int x0, int y, char *buf, size_t len)
{
	size_t n = 0;

	for (int x = x0; x < g->w && n + 1 < len; x++) {
		uint32_t ch = grid_at(g, x, y)->ch;

		buf[n++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '#';
	}
	buf[n] = '\0';
	return buf;
}

/* draw indexes t and draws it 100 cells wide from t0 over span ns, with selection sel. */
static void draw(const struct ss_timeline *t, struct ss_lanes *l, struct ss_grid *g, double t0, double span,
                 uint32_t sel, bool ascii)
{
	struct ss_gantt_view v = {t0, span, 0, false, sel};

	lanes_init(l);
	lanes_build(l, t);
	grid_init(g, 100, 8);
	gantt_draw(g, (struct ss_rect){0, 0, 0, 0}, (struct ss_rect){0, 0, 100, 8}, l, &v, glyphs_get(ascii));
}

/* lane_row is the row of stream 0's lane kind lk in the expanded form. */
static int lane_row(const struct ss_lanes *l, int lk)
{
	int n;
	const struct ss_lane *ln = lanes_get(l, false, &n);

	for (int i = 0; i < n; i++)
		if (ln[i].stream == 0 && ln[i].kind == lk)
			return i;
	fail_msg("no lane");
	return -1;
}

/* A wide kernel bar and a wide copy carry their names; a narrow one does not; the names are ASCII. */
static void test_names(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	struct ss_grid g;
	char buf[128];
	const char *s;
	int y, x;

	(void)state;
	timeline_init(&t);
	t.nstreams = 1;
	/* 100 ns per cell: a 40-cell kernel, a 5-cell kernel, a 30-cell 8 MiB copy */
	tui_add(&t, SS_KIND_KERNEL, 0, 1000, 5000, 0, 1, "vector_add(float const*, float*, int)");
	tui_add(&t, SS_KIND_KERNEL, 0, 6000, 6500, 0, 2, "tiny");
	tui_add(&t, SS_KIND_KERNEL, 0, 7000, 9000, 0, 3, "caf\xc3\xa9_kernel");
	tui_add(&t, SS_KIND_H2D, 0, 0, 3000, 8u << 20, 4, "Memcpy HtoD (Pinned -> Device)");
	draw(&t, &l, &g, 0, 10000, UINT32_MAX, false);
	y = lane_row(&l, LANE_KER);
	s = row_text(&g, 0, y, buf, sizeof buf);
	assert_non_null(strstr(s, "vector_add"));
	x = (int)(strstr(s, "vector_add") - s);
	assert_int_equal(x, 11); /* one cell into the bar's full cells */
	assert_null(strstr(s, "vector_add("));
	assert_int_equal(grid_at(&g, x, y)->attr, GRID_REVERSE);
	assert_int_equal(grid_at(&g, x, y)->role, SS_ROLE_KERNEL);
	assert_null(strstr(s, "tiny"));
	assert_non_null(strstr(s, "caf??_kernel")); /* a UTF-8 name, one '?' a byte */
	s = row_text(&g, 0, lane_row(&l, LANE_H2D), buf, sizeof buf);
	assert_non_null(strstr(s, "H2D 8 MiB"));
	/* ASCII glyphs: the same names */
	lanes_free(&l);
	grid_free(&g);
	draw(&t, &l, &g, 0, 10000, UINT32_MAX, true);
	assert_non_null(strstr(row_text(&g, 0, lane_row(&l, LANE_KER), buf, sizeof buf), "vector_add"));
	/* the selected bar keeps its highlight, without a name */
	lanes_free(&l);
	grid_free(&g);
	draw(&t, &l, &g, 0, 10000, 0, false);
	s = row_text(&g, 0, lane_row(&l, LANE_KER), buf, sizeof buf);
	assert_null(strstr(s, "vector_add"));
	assert_non_null(strstr(s, "caf??_kernel"));
	/* zoomed out ten times: no bar holds its name */
	lanes_free(&l);
	grid_free(&g);
	draw(&t, &l, &g, 0, 100000, UINT32_MAX, false);
	s = row_text(&g, 0, lane_row(&l, LANE_KER), buf, sizeof buf);
	assert_null(strstr(s, "vector_add"));
	assert_null(strstr(s, "caf"));
	lanes_free(&l);
	grid_free(&g);
	timeline_free(&t);
}

/* A real trace zoomed onto its first kernel (134 us of add_parallel in a 300 us window): the bar says its name. */
static void test_nsys_kernel(void **state)
{
	char *path = fx_data("nsys/rtx4060ti-4streams.sqlite"), *cause = NULL, buf[128];
	struct ss_timeline t;
	struct ss_lanes l;
	struct ss_grid g;
	const struct ss_record *k = NULL;

	(void)state;
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	for (size_t i = 0; i < t.n && k == NULL; i++)
		if (t.rec[i].kind == SS_KIND_KERNEL)
			k = &t.rec[i];
	assert_non_null(k);
	draw(&t, &l, &g, (double)k->start - 50000, 300000, UINT32_MAX, false);
	assert_non_null(strstr(row_text(&g, 0, lane_row(&l, LANE_KER), buf, sizeof buf), "add_parallel"));
	lanes_free(&l);
	grid_free(&g);
	timeline_free(&t);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_nsys_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
