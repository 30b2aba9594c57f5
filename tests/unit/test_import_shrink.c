/* test_import_shrink.c: a trace file that changes while it is opened (shrinks, is emptied, grows) gives -1 and one
 * line naming the file, never a signal: the importers once mapped the file, and a shrinking one killed the
 * process with SIGBUS. The change is made at the importers' test hook, once the file is open and before its
 * content is read, through import_file as a user's file is opened. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <fcntl.h>

#include "io/export/export.h"
#include "io/import/import.h"
#include "io/import/import_chrome.h"
#include "io/import/importer.h"
#include "io_fixture.h"

/* What the hook does to the file. */
enum shrink_change { CHANGE_NONE, CHANGE_EMPTY, CHANGE_HALF, CHANGE_GROW };

static enum shrink_change shrink_change;
static int shrink_calls;

/* shrink_hook changes the file just opened as shrink_change says. */
static void shrink_hook(const char *path)
{
	struct stat st;

	shrink_calls++;
	assert_int_equal(stat(path, &st), 0);
	switch (shrink_change) {
	case CHANGE_NONE:
		break;
	case CHANGE_EMPTY:
		assert_int_equal(truncate(path, 0), 0);
		break;
	case CHANGE_HALF:
		assert_int_equal(truncate(path, st.st_size / 2), 0);
		break;
	case CHANGE_GROW: {
		int fd = open(path, O_WRONLY | O_APPEND);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, "\n\n\n\n", 4), 4);
		close(fd);
		break;
	}
	}
}

/* shrink_export writes a trace of n records to dir/name. */
static void shrink_export(const char *dir, const char *name, size_t n, char *path, size_t size)
{
	struct ss_timeline t;
	struct ss_export_input in = {.t = &t};
	char *cause = NULL;

	snprintf(path, size, "%s/%s", dir, name);
	timeline_init(&t);
	fx_timeline(&t, n, 8);
	if (export_file(path, &in, &cause) != 0)
		fail_msg("export %s: %s", path, cause);
	timeline_free(&t);
}

/* shrink_expect exports a trace to dir/name, changes it at the hook as change says and imports it: a change is
 * -1 with one line naming the file and saying it changed, and an empty timeline; no change imports n records. */
static void shrink_expect(const char *dir, const char *name, enum shrink_change change)
{
	const size_t n = 20000;
	struct ss_timeline t;
	char path[512], *cause = NULL;
	int rc;

	shrink_export(dir, name, n, path, sizeof path);
	shrink_change = change;
	shrink_calls = 0;
	importer_set_hook(shrink_hook);
	timeline_init(&t);
	rc = import_file(path, &t, &cause);
	importer_set_hook(NULL);
	assert_int_equal(shrink_calls, 1);
	if (change == CHANGE_NONE) {
		if (rc != 0)
			fail_msg("%s: %s", path, cause);
		assert_int_equal(t.n, n);
	} else {
		if (rc != -1)
			fail_msg("%s: changed (%d) and still imported %zu records", path, (int)change, t.n);
		assert_non_null(cause);
		if (strncmp(cause, path, strlen(path)) != 0 || strstr(cause, "changed while it was read") == NULL)
			fail_msg("cause \"%s\"", cause);
		assert_null(strchr(cause, '\n'));
		assert_int_equal(t.n, 0);
	}
	free(cause);
	timeline_free(&t);
	unlink(path);
}

static void test_chrome(void **state)
{
	char *dir = fx_tmpdir();

	(void)state;
	shrink_expect(dir, "a.json", CHANGE_NONE);
	shrink_expect(dir, "a.json", CHANGE_EMPTY);
	shrink_expect(dir, "a.json", CHANGE_HALF);
	shrink_expect(dir, "a.json", CHANGE_GROW);
	fx_rmdir(dir);
	free(dir);
}

/* the same on worker threads: the parallel parse reads the same buffer */
static void test_chrome_threads(void **state)
{
	struct import_chrome_tuning tuning = {.threads = 3, .min_bytes = 1, .slice_bytes = 4096};
	char *dir = fx_tmpdir();

	(void)state;
	import_chrome_tune(&tuning);
	shrink_expect(dir, "a.json", CHANGE_NONE);
	shrink_expect(dir, "a.json", CHANGE_HALF);
	import_chrome_tune(NULL);
	fx_rmdir(dir);
	free(dir);
}

static void test_sqlite(void **state)
{
	char *dir = fx_tmpdir();

	(void)state;
	shrink_expect(dir, "a.sqlite", CHANGE_NONE);
	shrink_expect(dir, "a.sqlite", CHANGE_EMPTY);
	shrink_expect(dir, "a.sqlite", CHANGE_HALF);
	shrink_expect(dir, "a.sqlite", CHANGE_GROW);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_chrome),
	    cmocka_unit_test(test_chrome_threads),
	    cmocka_unit_test(test_sqlite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
