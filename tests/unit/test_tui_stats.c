/* test_tui_stats.c: the stats panel: "-" for what is not known, the numbers of the analysis, A/B and model items. */
#include "core/analysis.h"
#include "test_tui_util.h"
#include "tui/glyphs.h"
#include "tui/statsview.h"

static const struct ss_stat_item *item(const struct ss_stat_item *it, int n, const char *label)
{
	for (int i = 0; i < n; i++)
		if (strcmp(it[i].label, label) == 0)
			return &it[i];
	return NULL;
}

static void test_unknown(void **state)
{
	struct ss_stats_in s = {0};
	struct ss_stat_item it[STATS_MAX_ITEMS];
	int n = statsview_items(&s, it);

	(void)state;
	assert_int_equal(n, 9);
	for (int i = 0; i < n; i++) {
		assert_string_equal(it[i].value, "-");
		assert_int_equal(it[i].role, SS_ROLE_DIM);
	}
}

static void test_values(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a, one;
	struct ss_stats_in s = {0};
	struct ss_stat_item it[STATS_MAX_ITEMS];
	int n;

	(void)state;
	tui_fixture(&t);
	analysis_timeline(&t, &a);
	analysis_observer(&a, NULL);
	one = a;
	one.makespan_ns = one.used_ns = 2 * a.makespan_ns;
	analysis_compare(&a, &one, 3, a.used_ns, one.used_ns, 1.0);
	s.an = &a;
	s.have_dropped = true;
	s.dropped = 2;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "makespan")->value, "363 us");
	assert_string_equal(item(it, n, "speedup")->value, "2.00x");
	assert_string_not_equal(item(it, n, "bound")->value, "-");
	assert_string_equal(item(it, n, "H2D util")->value, "41%");
	assert_int_equal(item(it, n, "H2D util")->role, SS_ROLE_H2D);
	assert_string_equal(item(it, n, "dropped")->value, "2");
	assert_int_equal(item(it, n, "dropped")->role, SS_ROLE_WARN);
	assert_null(item(it, n, "model"));
	/* the documents' claims the run supports: an item where there are any */
	assert_null(item(it, n, "claims"));
	s.claims = 3;
	s.claims_held = 3;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "claims")->value, "3/3 hold (C)");
	assert_int_equal(item(it, n, "claims")->role, SS_ROLE_TEXT);
	s.claims_held = 2;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "claims")->value, "2/3 hold (C)");
	assert_int_equal(item(it, n, "claims")->role, SS_ROLE_TEXT);
	assert_null(item(it, n, "staging")); /* only where pageable copies' calls widen the makespan */
	a.staging_ns = 12500;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "staging")->value, "12.5 us");
	a.staging_ns = 0;
	/* on a GPU: the model's prediction against the measurement */
	s.measured = true;
	s.have_predicted = true;
	s.predicted_ns = 330000;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "model")->value, "330 us");
	assert_string_equal(item(it, n, "vs model")->value, "+10.0%");
	assert_string_equal(item(it, n, "model+calls")->value, "-");
	s.have_predicted_calls = true;
	s.predicted_calls_ns = 355000;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "model+calls")->value, "355 us");
	assert_string_equal(item(it, n, "trace ovh")->value, "-");
	/* with an untraced twin, the model is held to the untraced makespan (the program as it runs untraced) */
	a.have_overhead = true;
	a.traced_ns = a.makespan_ns;
	a.untraced_ns = 346500;
	a.overhead = (double)a.traced_ns / (double)a.untraced_ns - 1.0;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "vs model")->value, "+5.0%");
	assert_string_not_equal(item(it, n, "trace ovh")->value, "-");
	a.have_overhead = false;
	/* A/B */
	one.makespan_ns = 410000;
	s.pinned = &one;
	n = statsview_items(&s, it);
	assert_string_equal(item(it, n, "A pinned")->value, "410 us");
	assert_string_equal(item(it, n, "B - A")->value, "-47.0 us");
	assert_string_equal(item(it, n, "B / A")->value, "-11.5%");
	assert_true(n <= STATS_MAX_ITEMS);
	a.staging_ns = 1000; /* every item at once still fits */
	{
		/* nine devices: the first eight with a busy item, all counted in "GPUs" */
		struct ss_devsum_dev dd[9];
		struct ss_devsum ds = {.dev = dd, .ndev = 9, .span_ns = 1000, .link_shared_ns = 250};

		memset(dd, 0, sizeof dd);
		for (int d = 0; d < 9; d++)
			dd[d].busy_ns = 100u * (uint64_t)(d + 1);
		s.dev = &ds;
		n = statsview_items(&s, it);
		assert_int_equal(n, STATS_MAX_ITEMS);
		assert_string_equal(item(it, n, "GPUs")->value, "9, link sh. 25%");
		assert_string_equal(item(it, n, "GPU 0 busy")->value, "10%");
		assert_string_equal(item(it, n, "GPU 7 busy")->value, "80%");
		assert_null(item(it, n, "GPU 8 busy"));
		s.dev = NULL;
	}
	n = statsview_items(&s, it);
	assert_int_equal(n, STATS_MAX_ITEMS - 1 - STATS_SHOWN_DEVICES);
	assert_non_null(item(it, n, "claims"));
	assert_non_null(item(it, n, "trace ovh"));
	timeline_free(&t);
}

/* The bottom panel flows items down columns and stays in its rectangle; the side one lists them. */
static void test_draw(void **state)
{
	struct ss_stats_in s = {0};
	struct ss_grid g;

	(void)state;
	grid_init(&g, 100, 12);
	statsview_draw(&g, (struct ss_rect){10, 2, 80, 4}, false, &s, glyphs_get(false));
	assert_int_equal(tui_find(&g, "Stats"), 2);
	assert_int_equal(tui_find(&g, "makespan"), 3);
	assert_int_equal(tui_find(&g, "speedup"), 4);
	assert_int_equal(tui_find(&g, "bound"), 5);
	for (int y = 0; y < g.h; y++)
		for (int x = 0; x < g.w; x++)
			if (x < 10 || x >= 90 || y < 2 || y >= 6)
				assert_int_equal(grid_at(&g, x, y)->ch, ' ');
	grid_free(&g);
	grid_init(&g, 40, 20);
	statsview_draw(&g, (struct ss_rect){8, 0, 32, 20}, true, &s, glyphs_get(true));
	assert_int_equal(tui_find(&g, "makespan"), 1);
	assert_int_equal(tui_find(&g, "dropped"), 9);
	assert_int_equal(grid_at(&g, 8, 5)->ch, '|');
	grid_free(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unknown),
	    cmocka_unit_test(test_values),
	    cmocka_unit_test(test_draw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
