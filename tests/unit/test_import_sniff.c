/* test_import_sniff.c: import_file tells the format from the content whatever comes first: white space of any
 * length (beyond the first block read, 4 KB, a JSON trace was once "unrecognised format"), a byte-order mark, or
 * nothing but white space; and a '[' that starts no array of events (an INI file's "[experiment]") is of no format
 * it reads, like any other file. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include "io/export/export.h"
#include "io/import/import.h"
#include "io_fixture.h"

/* sniff_write writes dir/name: the BOM when bom, n blanks (cycling through the four JSON allows), then body. */
static void sniff_write(const char *path, bool bom, size_t n, const char *body, size_t len)
{
	static const char blank[] = " \n\t\r";
	char *buf = malloc(3 + n + len + 1);
	size_t k = 0;

	if (bom) {
		memcpy(buf, "\xef\xbb\xbf", 3);
		k = 3;
	}
	for (size_t i = 0; i < n; i++)
		buf[k++] = blank[i % 4];
	memcpy(buf + k, body, len);
	fx_write(path, buf, k + len);
	free(buf);
}

/* sniff_import imports path: its result, the cause (or NULL) in *cause, the records in *n. */
static int sniff_import(const char *path, char **cause, size_t *n)
{
	struct ss_timeline t;
	int rc;

	timeline_init(&t);
	*cause = NULL;
	rc = import_file(path, &t, cause);
	*n = t.n;
	timeline_free(&t);
	return rc;
}

/* a trace after any amount of leading white space, with and without a BOM, opens as the trace itself does */
static void test_leading_blanks(void **state)
{
	static const size_t lengths[] = {0, 1, 4093, 4095, 4096, 4097, 8192, 8193, 100000, 1u << 20};
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	char *dir = fx_tmpdir(), src[512], path[512], *cause = NULL, *body;
	size_t len = 0, n;

	(void)state;
	snprintf(src, sizeof src, "%s/src.json", dir);
	snprintf(path, sizeof path, "%s/blanks.json", dir);
	timeline_init(&t);
	fx_timeline(&t, 300, 4);
	if (export_file(src, &in, &cause) != 0)
		fail_msg("export: %s", cause);
	body = fx_read(src, &len);
	assert_non_null(body);
	for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
		for (int bom = 0; bom < 2; bom++) {
			sniff_write(path, bom, lengths[i], body, len);
			if (sniff_import(path, &cause, &n) != 0)
				fail_msg("%zu blanks%s: %s", lengths[i], bom ? " after a BOM" : "", cause);
			assert_int_equal(n, t.n);
		}
	}
	free(body);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* nothing but white space, or white space then something else, is named as such however long the blanks */
static void test_only_blanks(void **state)
{
	static const size_t lengths[] = {1, 4096, 4097, 100000};
	char *dir = fx_tmpdir(), path[512], *cause;
	size_t n;

	(void)state;
	snprintf(path, sizeof path, "%s/x.json", dir);
	for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
		sniff_write(path, false, lengths[i], "", 0);
		assert_int_equal(sniff_import(path, &cause, &n), -1);
		if (strstr(cause, path) == NULL || strstr(cause, "only white space") == NULL)
			fail_msg("%zu blanks: \"%s\"", lengths[i], cause);
		free(cause);
		sniff_write(path, true, lengths[i], "hello", 5);
		assert_int_equal(sniff_import(path, &cause, &n), -1);
		if (strstr(cause, path) == NULL || strstr(cause, "unrecognised format") == NULL)
			fail_msg("%zu blanks then text: \"%s\"", lengths[i], cause);
		free(cause);
		/* the JSON importer's own message, not the sniffer's, for a trace with a bad event later on */
		sniff_write(path, false, lengths[i], "[{\"ph\":\"X\",\"ts\":1,\"dur\":1},1]", 29);
		assert_int_equal(sniff_import(path, &cause, &n), -1);
		if (strstr(cause, path) == NULL || strstr(cause, ": event 2 at byte ") == NULL ||
		    strstr(cause, "is not an object") == NULL)
			fail_msg("%zu blanks then a bad second event: \"%s\"", lengths[i], cause);
		free(cause);
		/* and the sniffer's for a JSON array that is not one of events */
		sniff_write(path, false, lengths[i], "[1]", 3);
		assert_int_equal(sniff_import(path, &cause, &n), -1);
		if (strstr(cause, path) == NULL || strstr(cause, "unrecognised format") == NULL)
			fail_msg("%zu blanks then [1]: \"%s\"", lengths[i], cause);
		free(cause);
	}
	fx_rmdir(dir);
	free(dir);
}

/* sniff_unrecognised writes len bytes of body (after a BOM when bom, and blanks of the blanks before it) to path
 * and checks that importing it fails with the sniffer's one line: the path, "unrecognised format" and the formats
 * streamscope reads. */
static void sniff_unrecognised(const char *path, bool bom, size_t blanks, const char *body, size_t len)
{
	char *cause;
	size_t n;

	sniff_write(path, bom, blanks, body, len);
	if (sniff_import(path, &cause, &n) != -1)
		fail_msg("\"%.40s\" imported (%zu records)", body, n);
	if (strstr(cause, path) == NULL ||
	    strstr(cause,
	           ": unrecognised format (expected streamscope or Nsight Systems SQLite, or Chrome trace JSON)") ==
	        NULL)
		fail_msg("\"%.40s\" after %zu blanks: \"%s\"", body, blanks, cause);
	assert_null(strchr(cause, '\n'));
	free(cause);
}

#define UNRECOGNISED(path, body) sniff_unrecognised(path, false, 0, body, sizeof(body) - 1)

/* A file that starts with '[' but is no array of trace events (an INI experiment file, text that is not JSON at all,
 * a JSON array of something else) is of no format streamscope reads, as any other file: it was "event 1 at byte 1
 * is not an object", which lists no format. A trace whose bad event comes later keeps the detailed message. */
static void test_bracket_not_a_trace(void **state)
{
	static const char ini[] = "[experiment]\npreset = pipeline\nstreams = 4\n";
	char *dir = fx_tmpdir(), path[512], *cause, *big;
	size_t n;

	(void)state;
	snprintf(path, sizeof path, "%s/some.ini", dir);
	UNRECOGNISED(path, "[experiment]\npreset = pipeline\nstreams = 4\n");
	UNRECOGNISED(path, "[experiment");
	UNRECOGNISED(path, "[1, 2]");
	UNRECOGNISED(path, "[\"x\"]");
	UNRECOGNISED(path, "[ \n\t\r[{\"ph\":\"X\",\"ts\":1,\"dur\":1}]]");
	UNRECOGNISED(path, "[null]");
	UNRECOGNISED(path, "[,]");
	UNRECOGNISED(path, "[\x9b\xff]");
	/* after any amount of blanks and a BOM, before or after the '[' */
	for (size_t blanks = 4090; blanks < 4100; blanks += 3) {
		sniff_unrecognised(path, true, blanks, ini, sizeof ini - 1);
		big = malloc(blanks + 3);
		big[0] = '[';
		memset(big + 1, ' ', blanks);
		big[blanks + 1] = 'x';
		sniff_unrecognised(path, blanks % 2 == 0, blanks % 7, big, blanks + 2);
		/* an event after those blanks is a trace */
		snprintf(path, sizeof path, "%s/blanks.json", dir);
		big = realloc(big, blanks + 64);
		snprintf(big + blanks + 1, 63, "{\"ph\":\"X\",\"ts\":1,\"dur\":2}]");
		fx_write(path, big, strlen(big));
		if (sniff_import(path, &cause, &n) != 0)
			fail_msg("'[', %zu blanks, an event: %s", blanks, cause);
		assert_int_equal(n, 1);
		free(big);
		snprintf(path, sizeof path, "%s/some.ini", dir);
	}
	/* arrays that are traces: empty, unclosed (Chrome lets a bare array's ']' go missing), of events */
	snprintf(path, sizeof path, "%s/ok.json", dir);
	for (int i = 0; i < 4; i++) {
		static const char *const ok[] = {"[]", "[ \n]", "[", "[\n{\"ph\":\"X\",\"ts\":1,\"dur\":2}"};

		fx_write(path, ok[i], strlen(ok[i]));
		if (sniff_import(path, &cause, &n) != 0)
			fail_msg("\"%s\": %s", ok[i], cause);
		assert_int_equal(n, i == 3 ? 1 : 0);
	}
	/* traces with a bad event later on, or an events array of the wrong things: the JSON importer's message */
	fx_write(path, "[{\"ph\":\"X\",\"ts\":1,\"dur\":1}, 5]", 30);
	assert_int_equal(sniff_import(path, &cause, &n), -1);
	if (strstr(cause, ": event 2 at byte 28 is not an object") == NULL)
		fail_msg("\"%s\"", cause);
	free(cause);
	fx_write(path, "{\"traceEvents\":[1,2]}", 21);
	assert_int_equal(sniff_import(path, &cause, &n), -1);
	if (strstr(cause, ": event 1 at byte 16 is not an object") == NULL)
		fail_msg("\"%s\"", cause);
	free(cause);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_leading_blanks),
	    cmocka_unit_test(test_only_blanks),
	    cmocka_unit_test(test_bracket_not_a_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
