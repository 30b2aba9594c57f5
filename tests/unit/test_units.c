/* test_units.c: formatting of times, sizes and rates; axis tick selection; plurals of counts. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/units.h"

static void expect_time(uint64_t ns, const char *want)
{
	char buf[32];

	assert_ptr_equal(units_time(ns, buf, sizeof buf), buf);
	assert_string_equal(buf, want);
}

static void test_time(void **state)
{
	(void)state;
	expect_time(0, "0 ns");
	expect_time(850, "850 ns");
	expect_time(999, "999 ns");
	expect_time(1000, "1.00 us");
	expect_time(1234, "1.23 us");
	expect_time(12300, "12.3 us");
	expect_time(12345, "12.3 us");
	expect_time(123456, "123 us");
	expect_time(999000, "999 us");
	expect_time(1000000, "1.000 ms");
	expect_time(4567000, "4.567 ms");
	expect_time(45670000, "45.67 ms");
	expect_time(456700000, "456.7 ms");
}

/* units.h: "1.20 s", "12.3 s" (3-4 significant digits). */
static void test_time_seconds_as_documented(void **state)
{
	(void)state;
	expect_time(1000000000, "1.00 s");
	expect_time(1200000000, "1.20 s");
	expect_time(12300000000ull, "12.3 s");
	expect_time(123000000000ull, "123 s");
}

static void test_time_truncates(void **state)
{
	char buf[4];

	(void)state;
	units_time(4567000, buf, sizeof buf);
	assert_string_equal(buf, "4.5");
}

static void expect_bytes(uint64_t b, const char *want)
{
	char buf[32];

	assert_ptr_equal(units_bytes(b, buf, sizeof buf), buf);
	assert_string_equal(buf, want);
}

static void test_bytes(void **state)
{
	(void)state;
	expect_bytes(0, "0 B");
	expect_bytes(512, "512 B");
	expect_bytes(1023, "1023 B");
	expect_bytes(1024, "1.0 KiB");
	expect_bytes(1536, "1.5 KiB");
	expect_bytes(1048576, "1.0 MiB");
	expect_bytes(16777216, "16.0 MiB");   /* 2^22 floats */
	expect_bytes(536870912, "512.0 MiB"); /* 2^26 uint64 */
	expect_bytes(1073741824, "1.00 GiB");
	expect_bytes(3758096384ull, "3.50 GiB");
}

static void expect_rate(uint64_t bytes, uint64_t ns, const char *want)
{
	char buf[32];

	assert_ptr_equal(units_rate(bytes, ns, buf, sizeof buf), buf);
	assert_string_equal(buf, want);
}

static void test_rate(void **state)
{
	(void)state;
	expect_rate(55100, 1000, "55.1 GB/s");        /* bytes per ns = GB/s (decimal) */
	expect_rate(268435456, 5000000, "53.7 GB/s"); /* 256 MiB in 5 ms */
	expect_rate(16777216, 1000000, "16.8 GB/s");
	expect_rate(0, 5, "0.0 GB/s");
	expect_rate(12345, 0, "-");
}

/* Nice steps are 1, 2 or 5 times a power of ten. */
static bool is_nice(uint64_t v, uint64_t *prev)
{
	uint64_t p = 1;

	for (int k = 0; k < 20; k++) {
		if (v == p) {
			*prev = k == 0 ? 0 : p / 2; /* 5 x 10^(k-1) */
			return true;
		}
		if (p <= UINT64_MAX / 2 && v == 2 * p) {
			*prev = p;
			return true;
		}
		if (p <= UINT64_MAX / 5 && v == 5 * p) {
			*prev = 2 * p;
			return true;
		}
		if (p > UINT64_MAX / 10)
			break;
		p *= 10;
	}
	return false;
}

static void test_tick_examples(void **state)
{
	(void)state;
	assert_int_equal(units_tick(1000, 10), 100);
	assert_int_equal(units_tick(1000000, 7), 200000); /* 1e6/1e5 = 10 > 7, 1e6/2e5 = 5 */
	assert_int_equal(units_tick(12, 5), 5);
	assert_int_equal(units_tick(5, 10), 1);
	assert_int_equal(units_tick(0, 5), 1);
	assert_int_equal(units_tick(100, 0), 100); /* target < 1 is taken as 1 */
	assert_int_equal(units_tick(3000000000ull, 6), 500000000);
	assert_int_equal(units_tick(UINT64_MAX, 10), 2000000000000000000ull);
}

/* For many spans and targets: the step is nice, gives at most target ticks, and is the smallest such nice step. */
static void test_tick_properties(void **state)
{
	uint64_t span = 1;

	(void)state;
	for (int i = 0; i < 400; i++) {
		for (int target = 1; target <= 20; target++) {
			uint64_t step = units_tick(span, target), prev = 0;

			if (!is_nice(step, &prev))
				fail_msg("units_tick(%llu, %d) = %llu is not 1/2/5 x 10^k", (unsigned long long)span,
				         target, (unsigned long long)step);
			if (span / step > (uint64_t)target)
				fail_msg("units_tick(%llu, %d) = %llu gives too many ticks", (unsigned long long)span,
				         target, (unsigned long long)step);
			if (prev != 0 && span / prev <= (uint64_t)target)
				fail_msg("units_tick(%llu, %d) = %llu but %llu is enough", (unsigned long long)span,
				         target, (unsigned long long)step, (unsigned long long)prev);
		}
		span = span * 7 / 5 + 3; /* 1 .. beyond 10^19 in 400 steps would overflow: stop at 10^18 */
		if (span > 1000000000000000000ull)
			break;
	}
}

/* The noun of a count: singular for exactly 1. */
static void test_plural(void **state)
{
	(void)state;
	assert_string_equal(units_plural(1, "chunk", "chunks"), "chunk");
	assert_string_equal(units_plural(0, "chunk", "chunks"), "chunks");
	assert_string_equal(units_plural(2, "launch", "launches"), "launches");
	assert_string_equal(units_plural(1ull << 40, "copy", "copies"), "copies");
}

/* units_parse_count: decimal (010 is ten), 0x hex and k/M/G only where asked, nothing else, and the range. */
static void test_parse_count(void **state)
{
	static const struct {
		const char *s;
		int flags;
		long long lo, hi, want; /* want -1: refused */
	} cases[] = {
	    {"42", 0, 0, 100, 42},
	    {"010", 0, 0, 100, 10},
	    {"0", 0, 0, 100, 0},
	    {"4k", UNITS_SUFFIX, 0, 1ll << 40, 4096},
	    {"4K", UNITS_SUFFIX, 0, 1ll << 40, 4096},
	    {"3M", UNITS_SUFFIX, 0, 1ll << 40, 3ll << 20},
	    {"16G", UNITS_SUFFIX, 0, 1ll << 40, 16ll << 30},
	    {"4k", 0, 0, 1ll << 40, -1},
	    {"4Q", UNITS_SUFFIX, 0, 1ll << 40, -1},
	    {"4kk", UNITS_SUFFIX, 0, 1ll << 40, -1},
	    {"2G", UNITS_SUFFIX, 0, 1ll << 30, -1}, /* beyond hi once shifted */
	    {"0x2a", UNITS_HEX, 0, 255, 42},
	    {"0X2A", UNITS_HEX, 0, 255, 42},
	    {"0x2a", 0, 0, 255, -1},
	    {"0x", UNITS_HEX, 0, 255, -1},
	    {"0x-1", UNITS_HEX, 0, 255, -1},
	    {"0x1k", UNITS_HEX | UNITS_SUFFIX, 0, 1 << 20, -1},
	    {"", 0, 0, 100, -1},
	    {" 2", 0, 0, 100, -1},
	    {"2 ", 0, 0, 100, -1},
	    {"+2", 0, 0, 100, -1},
	    {"-2", 0, -5, 100, -1},
	    {"101", 0, 0, 100, -1},
	    {"0", 0, 1, 100, -1},
	    {"99999999999999999999", 0, 0, 100, -1},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long long v = -7;
		int rc = units_parse_count(cases[i].s, cases[i].lo, cases[i].hi, cases[i].flags, &v);

		if (cases[i].want < 0 ? rc != -1 || v != -7 : rc != 0 || v != cases[i].want)
			fail_msg("'%s' flags %d: rc %d, value %lld", cases[i].s, cases[i].flags, rc, v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_time),
	    cmocka_unit_test(test_time_seconds_as_documented),
	    cmocka_unit_test(test_time_truncates),
	    cmocka_unit_test(test_bytes),
	    cmocka_unit_test(test_rate),
	    cmocka_unit_test(test_tick_examples),
	    cmocka_unit_test(test_tick_properties),
	    cmocka_unit_test(test_plural),
	    cmocka_unit_test(test_parse_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
