/* test_stats.c: medians and quantiles of samples, with hand-computed answers. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "core/stats.h"

/* Odd and even counts, unsorted input, and no samples. */
static void test_median(void **state)
{
	double odd[] = {5, 1, 3}, even[] = {4, 1, 3, 2}, one[] = {7};

	(void)state;
	assert_true(stats_median(odd, 3) == 3.0);
	assert_true(odd[0] == 1.0 && odd[2] == 5.0); /* sorted in place */
	assert_true(stats_median(even, 4) == 2.5);
	assert_true(stats_median(one, 1) == 7.0);
	assert_true(isnan(stats_median(one, 0)));
}

/* The sample nearest to q * (n - 1). */
static void test_rank(void **state)
{
	double v[] = {10, 20, 30, 40, 50, 60, 70, 80, 90}; /* n = 9: positions 0..8 */

	(void)state;
	assert_true(stats_rank(v, 9, 0.0) == 10.0);
	assert_true(stats_rank(v, 9, 0.25) == 30.0); /* position 2 */
	assert_true(stats_rank(v, 9, 0.5) == 50.0);
	assert_true(stats_rank(v, 9, 0.75) == 70.0); /* position 6 */
	assert_true(stats_rank(v, 9, 1.0) == 90.0);
	assert_true(stats_rank(v, 4, 0.25) == 20.0); /* position 0.75 -> 1 */
	assert_true(isnan(stats_rank(v, 0, 0.5)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_median),
	    cmocka_unit_test(test_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
