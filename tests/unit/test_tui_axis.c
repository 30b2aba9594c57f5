/* test_tui_axis.c: tick steps, labels whose unit follows the zoom, and axes that never overlap their labels. */
#include <math.h>

#include "test_tui_util.h"
#include "tui/axis.h"
#include "tui/glyphs.h"

static void test_step(void **state)
{
	(void)state;
	assert_true(axis_step(1e6, 100, 10) == 1e5); /* 1 ms over 100 cells, ticks 10 apart: 100 us */
	assert_true(axis_step(1e6, 100, 12) == 2e5);
	assert_true(axis_step(3e6, 80, 10) == 5e5);
	assert_true(axis_step(100, 100, 10) == 10);
	assert_true(axis_step(7, 100, 10) == 1);
	assert_true(axis_step(2e10, 200, 10) == 1e9);
}

static void test_label(void **state)
{
	char b[48];

	(void)state;
	axis_label(0, 2e5, 7.67e5, b, sizeof b);
	assert_string_equal(b, "0 us");
	axis_label(-1e-7, 2e6, 8.4e6, b, sizeof b); /* zero, less a rounding error: no minus sign */
	assert_string_equal(b, "0 ms");
	axis_label(-0.0, 2e6, 8.4e6, b, sizeof b);
	assert_string_equal(b, "0 ms");
	axis_label(-2e6, 2e6, 8.4e6, b, sizeof b);
	assert_string_equal(b, "-2 ms");
	axis_label(6e5, 2e5, 7.67e5, b, sizeof b);
	assert_string_equal(b, "600 us");
	axis_label(4e5, 2e5, 1.1e6, b, sizeof b);
	assert_string_equal(b, "0.4 ms");
	axis_label(1.25e6, 5e4, 2e6, b, sizeof b);
	assert_string_equal(b, "1.25 ms");
	axis_label(1.5e9, 1e8, 2e9, b, sizeof b);
	assert_string_equal(b, "1.5 s");
	axis_label(40, 10, 95, b, sizeof b);
	assert_string_equal(b, "40 ns");
	/* deep zoom late in a run: the big unit, the decimals the step needs */
	axis_label(123456000, 1000, 123500000, b, sizeof b);
	assert_string_equal(b, "123.456 ms");
}

/* For spans from 50 ns to 100 s and widths 40..300: ticks on the line, labels apart and inside, each with a unit,
 * and at least two of them. */
static void test_draw(void **state)
{
	const struct ss_glyphs *gl = glyphs_get(false);

	(void)state;
	for (double span = 50; span < 1e11; span *= 2.7)
		for (int w = 40; w <= 300; w += 13) {
			struct ss_grid g;
			double t0 = span * 0.37;
			int labels = 0, ticks = 0;

			grid_init(&g, w + 4, 2);
			axis_draw(&g, (struct ss_rect){2, 0, w, 2}, t0, span, gl);
			for (int x = 0; x < g.w; x++) {
				const struct ss_cell *c = grid_at(&g, x, 0);

				ticks += c->ch == gl->tick;
				if (x < 2 || x >= 2 + w)
					assert_int_equal(grid_at(&g, x, 1)->ch, ' ');
			}
			/* the label row reads "number unit" pairs: an overlap would break a pair */
			{
				char row[2048], *tok, *save = NULL;
				int k = 0;

				for (int x = 2; x < 2 + w; x++)
					row[k++] = (char)grid_at(&g, x, 1)->ch;
				row[k] = '\0';
				k = 0;
				for (tok = strtok_r(row, " ", &save); tok != NULL;
				     tok = strtok_r(NULL, " ", &save), k++) {
					if (k % 2 == 0) {
						char *end;

						strtod(tok, &end);
						assert_true(*end == '\0');
						labels++;
					} else {
						assert_true(strcmp(tok, "ns") == 0 || strcmp(tok, "us") == 0 ||
						            strcmp(tok, "ms") == 0 || strcmp(tok, "s") == 0);
					}
				}
				assert_int_equal(k % 2, 0);
			}
			if (ticks < 2 || labels < 1) {
				print_error("span %g width %d: %d ticks %d labels\n", span, w, ticks, labels);
				fail();
			}
			grid_free(&g);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_step),
	    cmocka_unit_test(test_label),
	    cmocka_unit_test(test_draw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
