/* test_import_agree.c: the Chrome importer's ways of reading a trace (in one go; in slices on worker threads) give the
 * same result, or the same message to the byte: for inputs cut inside a token, where two ways once put an error at
 * bytes 8 and 9, and for every input of the fuzz corpus (records, the stream and device tables, the launches). */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include "io/import/import_chrome.h"
#include "io_fixture.h"

/* The ways of reading, as the fuzz target tries them. */
enum agree_way { WAY_ONE_GO, WAY_SLICES, WAY_COUNT };

static const char *const agree_way_name[WAY_COUNT] = {"in one go", "in slices"};

/* agree_import reads len bytes the given way; returns the result, t filled or *cause set. */
static int agree_import(const char *buf, size_t len, enum agree_way way, struct ss_timeline *t, char **cause)
{
	struct import_chrome_tuning tuning = {.threads = 1};
	int rc;

	if (way == WAY_SLICES)
		tuning = (struct import_chrome_tuning){.threads = 3, .min_bytes = 1, .slice_bytes = 1 + len % 61};
	import_chrome_tune(&tuning);
	timeline_init(t);
	*cause = NULL;
	rc = import_chrome_buffer(buf, len, "in.json", t, cause);
	import_chrome_tune(NULL);
	return rc;
}

/* agree_check reads len bytes every way and fails unless all agree; returns the first way's cause (NULL when it
 * imported), for the caller to look at and free. */
static char *agree_check(const char *what, const char *buf, size_t len)
{
	struct ss_timeline first;
	char *first_cause;
	int first_rc = agree_import(buf, len, WAY_ONE_GO, &first, &first_cause);

	for (int way = WAY_SLICES; way < WAY_COUNT; way++) {
		struct ss_timeline t;
		char *cause;
		int rc = agree_import(buf, len, (enum agree_way)way, &t, &cause);

		if (rc != first_rc)
			fail_msg("%s: %s gives %d (%s), %s %d (%s)", what, agree_way_name[0], first_rc,
			         first_cause ? first_cause : "", agree_way_name[way], rc, cause ? cause : "");
		if (rc != 0 && strcmp(cause, first_cause) != 0)
			fail_msg("%s: %s says \"%s\", %s \"%s\"", what, agree_way_name[0], first_cause,
			         agree_way_name[way], cause);
		if (rc == 0) {
			assert_int_equal(t.n, first.n);
			assert_int_equal(t.names.n, first.names.n);
			if (t.n > 0 && memcmp(t.rec, first.rec, t.n * sizeof *t.rec) != 0)
				fail_msg("%s: the records differ %s and %s", what, agree_way_name[0],
				         agree_way_name[way]);
			/* and the stream and device tables that M events and otherData fill */
			assert_int_equal(t.nstream_info, first.nstream_info);
			assert_int_equal(t.stream_ids, first.stream_ids);
			if ((t.nstream_info > 0 && memcmp(t.stream_info, first.stream_info,
			                                  (size_t)t.nstream_info * sizeof *t.stream_info) != 0) ||
			    memcmp(t.devices, first.devices, sizeof t.devices) != 0)
				fail_msg("%s: the stream or device tables differ %s and %s", what, agree_way_name[0],
				         agree_way_name[way]);
			/* and the launch table that kernels' args fill (full names are ids of the same string table) */
			assert_int_equal(t.nlaunch, first.nlaunch);
			if (t.nlaunch > 0 && memcmp(t.launch, first.launch, t.nlaunch * sizeof *t.launch) != 0)
				fail_msg("%s: the launch tables differ %s and %s", what, agree_way_name[0],
				         agree_way_name[way]);
		}
		free(cause);
		timeline_free(&t);
	}
	timeline_free(&first);
	return first_cause;
}

/* found by fuzz_import_chrome: yajl given this input cut inside the token "7" puts the error at the start of the
 * second piece, byte 9, where read in one piece it says byte 8, the token's own: every way must say byte 8 */
static void test_token_cut(void **state)
{
	static const char in[] = "[\n{\"\":\"\"7{\"ph\":\"s\"";
	char *cause;

	(void)state;
	assert_int_equal(sizeof in - 1, 18);
	cause = agree_check("token-cut", in, sizeof in - 1);
	assert_non_null(cause);
	if (strstr(cause, "at byte 8:") == NULL)
		fail_msg("cause \"%s\" does not name byte 8", cause);
	free(cause);
}

/* the same input and others like it, the cut token a number, a string or a literal, after a flow event's line */
static void test_token_cut_variants(void **state)
{
	static const char *const in[] = {
	    "[\n{\"\":\"\"7{\"ph\":\"s\"",          "[\n{\"ph\":\"s\",\"id\":1},\n{\"a\":12{\"ph\":\"f\"}]",
	    "[\n{\"a\":\"x\"\"y{\"ph\":\"s\"}\"}]", "[\n{\"a\":tru{\"ph\":\"s\"}]",
	    "[\n{\"a\":1.5e{\"ph\":\"s\"}]",        "{\"traceEvents\":[\n{\"a\":1}2{\"ph\":\"f\"}]}",
	};

	(void)state;
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
		free(agree_check(in[i], in[i], strlen(in[i])));
}

/* every input of the committed fuzz corpus */
static void test_corpus(void **state)
{
	const char *src = getenv("SS_SOURCE_DIR") != NULL ? getenv("SS_SOURCE_DIR") : SS_SOURCE_DIR;
	struct dirent *de;
	size_t files = 0;
	char dir[1024];
	DIR *d;

	(void)state;
	snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/import_chrome", src);
	d = opendir(dir);
	if (d == NULL)
		fail_msg("%s: cannot open", dir);
	while ((de = readdir(d)) != NULL) {
		char path[sizeof dir + 256];
		size_t len = 0;
		char *buf;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		buf = fx_read(path, &len);
		assert_non_null(buf);
		free(agree_check(de->d_name, buf, len));
		free(buf);
		files++;
	}
	closedir(d);
	assert_true(files >= 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_token_cut),
	    cmocka_unit_test(test_token_cut_variants),
	    cmocka_unit_test(test_corpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
