/* test_io_hostile.c: bad input never crashes an importer: empty, wrong-format, truncated, deeply nested, absurd
 * numbers, negative durations, missing columns, views posing as tables... each gives -1 and one line naming the
 * file and the problem, and leaves the timeline empty. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <sqlite3.h>

#include "db_fixture.h"
#include "io/export/export.h"
#include "io/export/export_sqlite.h"
#include "io/import/import.h"
#include "io_fixture.h"

/* expect_fail imports path and checks the failure: -1, the path and want in the one-line cause, t empty. */
static void expect_fail(const char *path, const char *want)
{
	struct ss_timeline t;
	char *cause = NULL;
	struct ss_record r = {.kind = SS_KIND_KERNEL, .start = 1, .end = 2};

	timeline_init(&t);
	timeline_add(&t, &r); /* whatever t held is gone after a failed import */
	if (import_file(path, &t, &cause) != -1)
		fail_msg("%s: import succeeded, wanted \"%s\"", path, want);
	assert_non_null(cause);
	if (strstr(cause, path) == NULL || strstr(cause, want) == NULL)
		fail_msg("cause \"%s\" lacks \"%s\" or the path", cause, want);
	assert_null(strchr(cause, '\n'));
	assert_int_equal(t.n, 0);
	free(cause);
	timeline_free(&t);
}

static void expect_text_fail(const char *dir, const char *content, size_t len, const char *want)
{
	char path[512];

	snprintf(path, sizeof path, "%s/bad.json", dir);
	fx_write(path, content, len);
	expect_fail(path, want);
}

#define TEXT_FAIL(dir, s, want) expect_text_fail(dir, s, sizeof(s) - 1, want)

static void test_json(void **state)
{
	char *dir = fx_tmpdir(), *deep;
	size_t n = 100000;

	(void)state;
	TEXT_FAIL(dir, "", "empty file");
	TEXT_FAIL(dir, "  \n\t ", "only white space");
	TEXT_FAIL(dir, "hello world", "unrecognised format");
	TEXT_FAIL(dir, "42", "unrecognised format");
	TEXT_FAIL(dir,
	          "\x7f"
	          "ELF\x02\x01\x01",
	          "unrecognised format");
	TEXT_FAIL(dir, "{", "truncated");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1", "truncated");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":2},", "truncated");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1e300,\"dur\":1}]}", "absurd ts");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1e19}]}", "absurd dur");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":-5}]}", "negative duration");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":\"abc\",\"dur\":1}]}", "ts is not a number");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":[1],\"dur\":1}]}", "ts is not a number");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"dur\":1}]}", "no ts");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":NaN,\"dur\":1}]}", "invalid JSON");
	TEXT_FAIL(dir, "{\"traceEvents\":[1,2]}", "not an object");
	TEXT_FAIL(dir, "[\"x\"]", "unrecognised format"); /* an array, but not of events: no trace at all */
	TEXT_FAIL(dir, "{\"traceEvents\":[]} trailing", "trailing data");
	TEXT_FAIL(dir, "{\"traceEvents\":[]}{}", "trailing data");
	TEXT_FAIL(dir, "{\"foo\":1}", "no traceEvents");
	TEXT_FAIL(dir, "{}", "no traceEvents");
	TEXT_FAIL(dir, "{\"traceEvents\":{}}", "traceEvents is not an array");
	TEXT_FAIL(dir, "{\"traceEvents\":[],\"traceEvents\":[]}", "two traceEvents");
	TEXT_FAIL(dir, "{\"traceEvents\" [] }", "expected ':'");
	TEXT_FAIL(dir, "{traceEvents:[]}", "expected a key");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1} {\"ph\":\"X\"}]}", "expected ',' or ']'");
	TEXT_FAIL(dir,
	          "{\"traceEvents\":[{\"ph\":\"B\",\"ts\":5,\"pid\":1,\"tid\":1},{\"ph\":\"E\",\"ts\":2,\"pid\":1,"
	          "\"tid\":1}]}",
	          "E before its B");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"\xff\xfe\",\"ts\":1,\"dur\":1}]}", "invalid JSON");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"ss_kind\":\"BOGUS\"}}]}",
	          "unknown ss_kind");
	TEXT_FAIL(dir,
	          "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":{\"ss_kind\":\"KER\",\"stream\":-99}}]}",
	          "absurd stream");
	TEXT_FAIL(dir, "{\"otherData\":{\"x\":[1,2,{\"y\":\"unterminated}]}", "truncated");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\\u0000b\",\"ts\":1,\"dur\":1}]}",
	          "\\u0000 in a string");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1e400,\"dur\":1}]}", "absurd ts inf us");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":\"1e400\",\"dur\":1}]}", "ts is not a number");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1}]", "truncated JSON (object not closed)");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1}",
	          "truncated: traceEvents array not closed");
	TEXT_FAIL(dir, "[{\"ph\":\"X\",\"ts\":1,\"dur\":1},{\"ph\":\"X\",\"ts\":1,\"du", "truncated JSON at byte");
	TEXT_FAIL(dir, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,,\"dur\":1}]}", "invalid JSON at byte 34");
	/* found by fuzz_import_chrome: a message that quoted a newline from the input */
	TEXT_FAIL(dir, "[{\"ph\":\"X\",\"name\":\"n\\\n{\"ph\":\"M\",\"pid\":10}]", "invalid JSON");
	/* deep nesting inside an event, inside the outer object, and as the whole file */
	deep = malloc(2 * n + 64);
	strcpy(deep, "{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":");
	memset(deep + strlen(deep), '[', n);
	deep[strlen("{\"traceEvents\":[{\"ph\":\"X\",\"ts\":1,\"dur\":1,\"args\":") + n] = '\0';
	expect_text_fail(dir, deep, strlen(deep), "nesting depth over 64");
	/* one level past the limit, as the whole file: an array of arrays, no trace */
	memset(deep, '[', 65);
	strcpy(deep + 65, "{");
	expect_text_fail(dir, deep, strlen(deep), "unrecognised format");
	strcpy(deep, "[{\"args\":"); /* 2 levels, then 63 more: the last '[' is at byte 71 */
	memset(deep + 9, '[', 63);
	strcpy(deep + 72, "]}]");
	expect_text_fail(dir, deep, strlen(deep), "invalid JSON at byte 71: nesting depth over 64");
	strcpy(deep, "{\"meta\":");
	memset(deep + 8, '{', n);
	deep[8 + n] = '\0';
	expect_text_fail(dir, deep, strlen(deep), "invalid JSON");
	memset(deep, '[', n);
	expect_text_fail(dir, deep, n, "unrecognised format");
	free(deep);
	fx_rmdir(dir);
	free(dir);
}

#define KERNEL_TABLE "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT, shortName INT);"

static void db_fail(const char *dir, const char *sql, const char *want)
{
	char path[512];

	snprintf(path, sizeof path, "%s/bad.sqlite", dir);
	fx_make_db(path, sql);
	expect_fail(path, want);
}

static void test_sqlite(void **state)
{
	char *dir = fx_tmpdir(), path[512], *src = fx_data("nsys/rtx4060ti-4streams.sqlite"), *data;
	size_t len = 0;
	char header[100];

	(void)state;
	db_fail(dir, "CREATE TABLE foo (x INT); INSERT INTO foo VALUES (1);", "no CUDA activity tables");
	db_fail(dir,
	        "CREATE TABLE t (start INT, end INT, streamId INT);"
	        "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM t;",
	        "no CUDA activity tables");
	db_fail(dir,
	        "CREATE VIRTUAL TABLE CUPTI_ACTIVITY_KIND_KERNEL USING fts5(start, end, streamId);"
	        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 3);",
	        "no CUDA activity tables");
	db_fail(dir, "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, shortName INT);",
	        "has no streamId column");
	db_fail(dir, "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, streamId INT);", "has no end column");
	db_fail(dir, "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, streamId INT, bytes INT);",
	        "has no copyKind column");
	db_fail(dir, KERNEL_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 5, 1, 0);", "negative duration");
	db_fail(dir, KERNEL_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (-10, 5, 1, 0);",
	        "negative timestamp");
	db_fail(dir, KERNEL_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('abc', 5, 1, 0);",
	        "start is not an integer");
	db_fail(dir, KERNEL_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2.5, 1, 0);",
	        "end is not an integer");
	db_fail(dir, KERNEL_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, NULL, 1, 0);",
	        "end is not an integer");
	db_fail(dir, KERNEL_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 1099511627776, 0);",
	        "stream id 1099511627776 out of range");
	db_fail(dir, KERNEL_TABLE "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 'seven', 0);",
	        "stream id is not an integer");
	db_fail(dir,
	        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, streamId INT, bytes INT, copyKind INT);"
	        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (1, 2, 3, -5, 1);",
	        "bytes -5 out of range");
	db_fail(dir,
	        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT, ssKind INT);"
	        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 3, 99);",
	        "ssKind 99 out of range");
	db_fail(dir,
	        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT, ssStream INT);"
	        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 3, 5000);",
	        "ssStream 5000 out of range");
	/* a header and nothing else; a header then garbage; a real export cut short */
	memset(header, 0, sizeof header);
	memcpy(header, "SQLite format 3", 16);
	snprintf(path, sizeof path, "%s/header.sqlite", dir);
	fx_write(path, header, sizeof header);
	expect_fail(path, "SQLite");
	snprintf(path, sizeof path, "%s/short.sqlite", dir);
	fx_write(path, header, 10);
	expect_fail(path, "truncated SQLite file");
	data = fx_read(src, &len);
	memset(data + 100, 0xa5, 4000);
	snprintf(path, sizeof path, "%s/garbage.sqlite", dir);
	fx_write(path, data, len);
	expect_fail(path, "SQLite");
	free(data);
	data = fx_read(src, &len);
	snprintf(path, sizeof path, "%s/cut.sqlite", dir);
	fx_write(path, data, len / 3);
	expect_fail(path, "malformed");
	free(data);
	free(src);
	fx_rmdir(dir);
	free(dir);
}

static void test_paths(void **state)
{
	char *dir = fx_tmpdir(), path[512];

	(void)state;
	snprintf(path, sizeof path, "%s/missing.json", dir);
	expect_fail(path, "No such file or directory");
	expect_fail(dir, "is a directory");
	expect_fail("/dev/null", "not a regular file");
	fx_rmdir(dir);
	free(dir);
}

/* Importing unknown extra tables and columns is fine: nsys adds some in every version. */
static void test_unknown_tables_ok(void **state)
{
	char *dir = fx_tmpdir(), path[512], *cause = NULL;
	struct ss_timeline t;

	(void)state;
	snprintf(path, sizeof path, "%s/new.sqlite", dir);
	fx_make_db(
	    path, "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT, shortName INT,"
	          " futureColumn BLOB);"
	          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 3, 4, x'00ff');"
	          "CREATE TABLE CUPTI_ACTIVITY_KIND_SOMETHING_2030 (a, b, c);"
	          "CREATE TABLE TARGET_INFO_GPU (name TEXT); INSERT INTO TARGET_INFO_GPU VALUES ('GPU A'), ('GPU B');");
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(t.n, 1);
	assert_string_equal(timeline_name(&t, t.rec[0].name), ""); /* no StringIds table: no name */
	assert_string_equal(t.device, "GPU A (+1 more)");
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* Stream kinds from odd tables: bad rows are skipped, never trusted, never fatal. */
static void test_stream_kinds_hostile(void **state)
{
	char *dir = fx_tmpdir(), path[512], *cause = NULL;
	struct ss_timeline t;

	(void)state;
	snprintf(path, sizeof path, "%s/kinds.sqlite", dir);
	/* foreign: flags of wrong types and out of range, a duplicate id (the first row wins) */
	fx_make_db(
	    path,
	    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT);"
	    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 30), (3, 4, 31), (5, 6, 32), (7, 8, 33);"
	    "CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId, flag);"
	    "INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (30, 2), (30, 1), (31, 'x'), (32, 99), (-1, 1), (33, 3);");
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(t.nstreams, 4);
	assert_int_equal(timeline_stream(&t, 0)->kind, SS_SKIND_NONBLOCKING);
	assert_null(timeline_stream(&t, 1));
	assert_null(timeline_stream(&t, 2));
	assert_int_equal(timeline_stream(&t, 3)->kind, SS_SKIND_LEGACY);
	timeline_free(&t);
	/* ours: STREAMSCOPE_STREAM rows out of range or of unknown kind */
	snprintf(path, sizeof path, "%s/own.sqlite", dir);
	fx_make_db(path, "CREATE TABLE STREAMSCOPE_META (name TEXT, value TEXT);"
	                 "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT);"
	                 "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 2, 30);"
	                 "CREATE TABLE STREAMSCOPE_STREAM (ssStream, streamId, kind, kindName);"
	                 "INSERT INTO STREAMSCOPE_STREAM VALUES (0, 30, 7, 'x'), (-5, 1, 1, ''), (99999999, 1, 1, ''),"
	                 " ('a', 1, 1, ''), (1, -3, 1, ''), (2, 31, 2, NULL);");
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_non_null(timeline_stream(&t, 0));
	assert_int_equal(timeline_stream(&t, 0)->kind, SS_SKIND_UNKNOWN);
	assert_int_equal(timeline_stream(&t, 0)->raw_id, 30);
	assert_null(timeline_stream(&t, 1));
	assert_int_equal(timeline_stream(&t, 2)->kind, SS_SKIND_NONBLOCKING);
	assert_true(t.nstream_info <= 3);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_sqlite),
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_unknown_tables_ok),
	    cmocka_unit_test(test_stream_kinds_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
