/* test_import_limits.c: both importers hold every time to 0 <= start <= end <= 2^62 ns (SS_IMPORT_MAX_NS), and the
 * durations of a trace to 2^63 - 1 ns in all (SS_IMPORT_MAX_TOTAL_NS: any total of them fits int64). An nsys
 * SQLite row with end = 2^63 - 1 was accepted, and `streamscope stats` then printed "18446744074 s in all" and an
 * average below its minimum: it is refused with one line naming the file, the table, the row and what is valid.
 * Chrome JSON bounds ts and dur the same way (2^62 ns, so that a SQLite trace exported as JSON reads back), and a
 * trace that would end past 2^62 ns once shifted (a foreign one spanning more, our own with ts + dur past it) is
 * refused naming the event; the bound itself is accepted, exactly, by both. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_fixture.h"
#include "io/export/export.h"
#include "io/import/import.h"
#include "io/import/import_chrome.h"
#include "io_fixture.h"

/* 2^62: the bound */
#define MAX_NS 4611686018427387904ull

#define MEMCPY_TABLE                                                                                                   \
	"CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, streamId INT, bytes INT, copyKind INT);"
#define OWN "\"otherData\":{\"generator\":\"streamscope 1.0\",\"nstreams\":1}"

/* imported imports path (0 wanted) into t, initialised here. */
static void imported(const char *path, struct ss_timeline *t)
{
	char *cause = NULL;

	timeline_init(t);
	if (import_file(path, t, &cause) != 0)
		fail_msg("%s", cause);
}

/* db_refused writes sql as dir/bad.sqlite and checks that it is refused as fx_refused does, with want and what
 * is valid. */
static void db_refused(const char *dir, const char *sql, const char *want)
{
	char path[512];

	snprintf(path, sizeof path, "%s/bad.sqlite", dir);
	fx_make_db(path, sql);
	fx_refused(path, want, "valid: 0 <= start <= end <= 4611686018427387904 ns", NULL);
}

/* json_refused writes json as dir/bad.json and checks that it is refused with each of the NULL-ended wants. */
static void json_refused(const char *dir, const char *json, ...)
{
	char path[512];
	va_list ap;

	snprintf(path, sizeof path, "%s/bad.json", dir);
	fx_write(path, json, strlen(json));
	va_start(ap, json);
	fx_refused_v(path, ap);
	va_end(ap);
}

/* json_imported writes json as dir/ok.json and imports it into t. */
static void json_imported(const char *dir, const char *json, struct ss_timeline *t)
{
	char path[512];

	snprintf(path, sizeof path, "%s/ok.json", dir);
	fx_write(path, json, strlen(json));
	imported(path, t);
}

/* The reported file: a copy ending at 2^63 - 1, and times just past the bound, in each column and table. */
static void test_sqlite_absurd_refused(void **state)
{
	char *dir = fx_tmpdir(), path[512];

	(void)state;
	db_refused(dir,
	           MEMCPY_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (1000, 9223372036854775807, 7, 100, 1);",
	           "CUPTI_ACTIVITY_KIND_MEMCPY row 1: absurd timestamp end 9223372036854775807");
	db_refused(dir,
	           MEMCPY_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (10, 20, 7, 100, 1), (0, 30, 7, 100, 1),"
	                        " (4611686018427387905, 4611686018427387906, 7, 100, 2);",
	           "CUPTI_ACTIVITY_KIND_MEMCPY row 3: absurd timestamp start 4611686018427387905");
	db_refused(dir,
	           "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT);"
	           "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (0, 4611686018427387905, 7);",
	           "CUPTI_ACTIVITY_KIND_KERNEL row 1: absurd timestamp end 4611686018427387905");
	db_refused(dir,
	           "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT, end INT, correlationId INT);"
	           "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (5, 9223372036854775807, 1);",
	           "CUPTI_ACTIVITY_KIND_RUNTIME row 1: absurd timestamp end 9223372036854775807");
	/* each within the bound, but 2^62 ns twice adds up past 2^63 - 1: four made "0 ns in all" of four copies */
	snprintf(path, sizeof path, "%s/bad.sqlite", dir);
	fx_make_db(path,
	           MEMCPY_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (0, 4611686018427387904, 7, 100, 1),"
	                        " (0, 4611686018427387904, 7, 100, 1), (0, 4611686018427387904, 7, 100, 1),"
	                        " (0, 4611686018427387904, 7, 100, 1), (0, 4611686018427387904, 7, 100, 2);");
	fx_refused(path,
	           "CUPTI_ACTIVITY_KIND_MEMCPY row 2: the durations up to here add up to 9223372036854775808 ns, more "
	           "than any real trace's",
	           "valid: the durations end - start of a trace's records add up to at most 9223372036854775807 ns",
	           NULL);
	/* the refusals that were there say what is valid too */
	db_refused(dir, MEMCPY_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (-1, 5, 7, 100, 1);",
	           "CUPTI_ACTIVITY_KIND_MEMCPY row 1: negative timestamp start -1");
	db_refused(dir, MEMCPY_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (9, 5, 7, 100, 1);",
	           "CUPTI_ACTIVITY_KIND_MEMCPY row 1: negative duration (start 9 > end 5");
	fx_rmdir(dir);
	free(dir);
}

/* The bound itself is a time like any other, in SQLite and JSON, and survives a trip through our JSON export. */
static void test_bound_accepted(void **state)
{
	char *dir = fx_tmpdir(), path[512], json[512], *cause = NULL;
	struct ss_timeline t, back;
	struct ss_export_input in = {.t = &t};

	(void)state;
	snprintf(path, sizeof path, "%s/edge.sqlite", dir);
	fx_make_db(path,
	           MEMCPY_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (0, 4611686018427387904, 7, 100, 1),"
	                        " (3000000000000000000, 4611686018427387904, 7, 100, 2);");
	imported(path, &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.rec[0].start, 0);
	assert_int_equal(t.rec[0].end, MAX_NS);
	assert_int_equal(t.rec[1].start, 3000000000000000000ull);
	assert_int_equal(t.rec[1].end, MAX_NS);
	/* exported as our JSON (ts 3e15 us: once "absurd", past 2^61 ns) and read back as it was */
	snprintf(path, sizeof path, "%s/edge.json", dir);
	if (export_file(path, &in, &cause) != 0)
		fail_msg("export: %s", cause);
	imported(path, &back);
	fx_same_records(&t, &back);
	timeline_free(&back);
	timeline_free(&t);
	/* our own JSON: ts + dur exactly 2^62 ns */
	snprintf(json, sizeof json,
	         "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"ts\":4611686018427387.903,\"dur\":0.001,"
	         "\"pid\":1,\"tid\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0}}]," OWN "}");
	json_imported(dir, json, &t);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.rec[0].start, MAX_NS - 1);
	assert_int_equal(t.rec[0].end, MAX_NS);
	timeline_free(&t);
	/* a foreign trace spanning exactly 2^62 ns, from ts -2^61 ns */
	json_imported(dir,
	              "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":-2305843009213693.952,\"dur\":1,\"pid\":1,\"tid\":1},"
	              "{\"ph\":\"X\",\"name\":\"b\",\"ts\":2305843009213692.952,\"dur\":1,\"pid\":1,\"tid\":1}]",
	              &t);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.rec[0].start, 0);
	assert_int_equal(t.rec[1].end, MAX_NS);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* Chrome JSON past the bound: a ts or dur past 2^62 ns, a foreign trace spanning more than 2^62 ns once shifted to
 * its earliest event (ts and dur each under 2^61 ns were accepted, and ended near 1.5 * 2^62 ns), our own with
 * ts + dur past it; read in one go and on threads alike. */
static void test_json_past_bound(void **state)
{
	char *dir = fx_tmpdir();

	(void)state;
	json_refused(dir, "[{\"ph\":\"X\",\"ts\":4611686018427387.905,\"dur\":1}]", "event 1: absurd ts 4.61169e+15 us",
	             "(valid: |ts| <= 4611686018427387.904 us, 2^62 ns)", NULL);
	json_refused(dir, "[{\"ph\":\"X\",\"ts\":-4611686018427388,\"dur\":1}]", "event 1: absurd ts -4.61169e+15 us",
	             NULL);
	json_refused(dir, "[{\"ph\":\"X\",\"ts\":1,\"dur\":1},{\"ph\":\"X\",\"ts\":1,\"dur\":4611686018427387.905}]",
	             "event 2: absurd dur 4.61169e+15 us", "(valid: 0 <= dur <= 4611686018427387.904 us, 2^62 ns)",
	             NULL);
	json_refused(dir, "[{\"ph\":\"X\",\"ts\":1,\"dur\":-1}]", "event 1: negative duration (valid: dur >= 0)", NULL);
	/* foreign: ts -2.3e15 us and +2.3e15 us, then 2.3e15 us long: 6.9e15 us from the first start */
	json_refused(dir,
	             "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":-2305843009213693,\"dur\":1,\"pid\":1,\"tid\":1},"
	             "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"t\"}},"
	             "{\"ph\":\"X\",\"name\":\"b\",\"ts\":2305843009213693,\"dur\":2305843009213693,\"pid\":1,"
	             "\"tid\":1}]",
	             "event 3: ends 6917529027641079.000 us after event 1 starts, past 2^62 ns",
	             "(valid: every ts + dur within 4611686018427387.904 us of the earliest ts)", NULL);
	/* one ns past the span, through a B/E pair */
	json_refused(dir,
	             "[{\"ph\":\"B\",\"name\":\"a\",\"ts\":-2305843009213693.952,\"pid\":1,\"tid\":1},"
	             "{\"ph\":\"E\",\"ts\":2305843009213693.953,\"pid\":1,\"tid\":1}]",
	             "event 2: ends 4611686018427387.905 us after event 1 starts", NULL);
	/* our own: ts + dur one ns past 2^62 ns */
	json_refused(dir,
	             "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"ts\":4611686018427387.904,\"dur\":0.001,"
	             "\"pid\":1,\"tid\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0}}]," OWN "}",
	             "event 1: ends at ts + dur = 4611686018427387.905 us in a streamscope trace",
	             "(valid: ts + dur <= 4611686018427387.904 us)", NULL);
	/* durations adding up past 2^63 - 1 ns, each within the bound, in a foreign trace and our own */
	json_refused(dir,
	             "[{\"ph\":\"X\",\"ts\":0,\"dur\":1},{\"ph\":\"X\",\"ts\":0,\"dur\":4611686018427387.904},"
	             "{\"ph\":\"X\",\"ts\":0,\"dur\":4611686018427387.904},{\"ph\":\"X\",\"ts\":0,\"dur\":1}]",
	             "event 3: the durations up to here add up to more than any real trace's",
	             "valid: the durations end - start of a trace's records add up to at most 9223372036854775807 ns",
	             NULL);
	json_refused(dir,
	             "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"ts\":0,\"dur\":4611686018427387.904,"
	             "\"pid\":1,\"tid\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":0}},"
	             "{\"ph\":\"X\",\"name\":\"k\",\"ts\":0,\"dur\":4611686018427387.904,\"pid\":1,\"tid\":1,"
	             "\"args\":{\"ss_kind\":\"KER\",\"stream\":0}}]," OWN "}",
	             "event 2: the durations up to here add up to more than any real trace's", NULL);
	fx_rmdir(dir);
	free(dir);
}

/* A big foreign trace past the bound gives the same message read on threads as in one go. */
static void test_json_past_bound_parallel(void **state)
{
	char *dir = fx_tmpdir(), path[512], *json, *cause = NULL;
	size_t cap = 4000 * 96 + 256, len = 0;
	struct ss_timeline t;

	(void)state;
	json = malloc(cap);
	len += (size_t)snprintf(json + len, cap - len, "[\n");
	for (int i = 0; i < 4000; i++)
		len += (size_t)snprintf(json + len, cap - len,
		                        "{\"ph\":\"X\",\"name\":\"k\",\"ts\":%s,\"dur\":%s,\"pid\":1,\"tid\":1},\n",
		                        i == 10     ? "-2305843009213693"
		                        : i == 3000 ? "2305843009213693"
		                                    : "5",
		                        i == 3000 ? "2305843009213693" : "1");
	len -= 2;
	len += (size_t)snprintf(json + len, cap - len, "\n]\n");
	snprintf(path, sizeof path, "%s/big.json", dir);
	fx_write(path, json, len);
	for (int threads = 1; threads <= 4; threads += 3) {
		struct import_chrome_tuning tuning = {.threads = threads, .min_bytes = 1, .slice_bytes = 4096};

		import_chrome_tune(&tuning);
		timeline_init(&t);
		assert_int_equal(import_file(path, &t, &cause), -1);
		if (strstr(cause, ": event 3001: ends 6917529027641079.000 us after event 11 starts") == NULL)
			fail_msg("%d threads: \"%s\"", threads, cause);
		if (threads > 1)
			assert_true(import_chrome_parallel_slices() > 0);
		assert_int_equal(t.n, 0);
		free(cause);
		timeline_free(&t);
	}
	import_chrome_tune(NULL);
	free(json);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sqlite_absurd_refused),
	    cmocka_unit_test(test_bound_accepted),
	    cmocka_unit_test(test_json_past_bound),
	    cmocka_unit_test(test_json_past_bound_parallel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
