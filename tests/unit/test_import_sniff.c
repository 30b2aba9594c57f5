/* test_import_sniff.c: import_file tells the format from the content whatever comes first: white space of any
 * length (beyond the first block read, 4 KB, a JSON trace was once "unrecognised format"), a byte-order mark, or
 * nothing but white space. */
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
		/* the JSON importer's own message, not the sniffer's, for JSON that is not a trace */
		sniff_write(path, false, lengths[i], "[1]", 3);
		assert_int_equal(sniff_import(path, &cause, &n), -1);
		if (strstr(cause, path) == NULL || strstr(cause, "unrecognised format") != NULL)
			fail_msg("%zu blanks then [1]: \"%s\"", lengths[i], cause);
		free(cause);
	}
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_leading_blanks),
	    cmocka_unit_test(test_only_blanks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
