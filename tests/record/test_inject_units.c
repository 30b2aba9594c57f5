/* test_inject_units.c: the pure parts of the injection library: the stream table (indices in order of first
 * sight, kinds from STREAM records whatever order they arrive in, legacy and per-thread ids without an index, the
 * progress line and its limit) and the pairing of NVTX range halves (either order, nesting, instants, ranges
 * still open at exit, END halves without a START). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "inject.h"
#include "inject_markers.h"
#include "inject_streams.h"

/* CUpti_ActivityStreamFlag values. */
enum { FLAG_DEFAULT = 1, FLAG_NON_BLOCKING = 2, FLAG_NULL = 3 };

static void test_streams_kinds_and_order(void **state)
{
	struct inject_streams s;
	char line[128];

	(void)state;
	inject_streams_init(&s);
	inject_streams_line(&s, line, sizeof line);
	assert_string_equal(line, "streams ");
	inject_streams_null(&s, 7);
	inject_streams_created(&s, 13, FLAG_DEFAULT);
	inject_streams_created(&s, 14, FLAG_NON_BLOCKING);
	assert_true(s.dirty);
	assert_int_equal(inject_streams_see(&s, 13), 0);
	assert_int_equal(inject_streams_see(&s, 14), 1);
	/* a GPU record of a stream whose STREAM record has not arrived: next index, kind unknown until it does */
	assert_int_equal(inject_streams_see(&s, 15), 2);
	inject_streams_line(&s, line, sizeof line);
	assert_string_equal(line, "streams bn?");
	assert_false(s.dirty);
	inject_streams_created(&s, 15, FLAG_NON_BLOCKING);
	assert_true(s.dirty);
	inject_streams_line(&s, line, sizeof line);
	assert_string_equal(line, "streams bnn");
	/* a later STREAM record does not change a known kind, nor does seeing the stream again */
	inject_streams_created(&s, 13, FLAG_NON_BLOCKING);
	assert_int_equal(inject_streams_see(&s, 13), 0);
	assert_false(s.dirty);
	/* the legacy stream and "all streams" have no index */
	assert_int_equal(inject_streams_see(&s, 7), -1);
	assert_int_equal(inject_streams_see(&s, INJECT_STREAM_NONE), -1);
	inject_streams_free(&s);
}

static void test_streams_null_and_per_thread(void **state)
{
	struct inject_streams s;
	char line[128];

	(void)state;
	inject_streams_init(&s);
	/* the NULL stream flag makes the first context's legacy stream; a second context's gets an index 'l' */
	inject_streams_created(&s, 3, FLAG_NULL);
	assert_true(s.have_null);
	assert_int_equal(s.null_id, 3);
	inject_streams_null(&s, 3);
	inject_streams_null(&s, 30);
	assert_int_equal(inject_streams_see(&s, 30), 0);
	/* a per-thread stream known before its work arrives has no index */
	inject_streams_per_thread(&s, 20);
	assert_int_equal(inject_streams_see(&s, 20), -1);
	inject_streams_created(&s, 20, FLAG_DEFAULT);
	assert_int_equal(inject_streams_see(&s, 20), -1);
	/* one learnt after its work got an index keeps the index, with kind 'p' */
	assert_int_equal(inject_streams_see(&s, 21), 1);
	inject_streams_per_thread(&s, 21);
	inject_streams_line(&s, line, sizeof line);
	assert_string_equal(line, "streams lp");
	inject_streams_free(&s);
	/* the legacy stream's work arrived before its id was known: it keeps its index, labelled legacy */
	inject_streams_init(&s);
	assert_int_equal(inject_streams_see(&s, 7), 0);
	inject_streams_null(&s, 7);
	assert_true(s.have_null);
	assert_int_equal(inject_streams_see(&s, 7), 0);
	inject_streams_line(&s, line, sizeof line);
	assert_string_equal(line, "streams l");
	inject_streams_free(&s);
}

static void test_streams_line_limit(void **state)
{
	struct inject_streams s;
	char line[128];

	(void)state;
	inject_streams_init(&s);
	for (uint32_t id = 100; id < 400; id++)
		inject_streams_created(&s, id, FLAG_DEFAULT);
	assert_int_equal(s.n, 300);
	inject_streams_line(&s, line, sizeof line);
	assert_int_equal(strlen(line), sizeof line - 1);
	assert_int_equal(strncmp(line, INJECT_STREAMS_PREFIX, strlen(INJECT_STREAMS_PREFIX)), 0);
	inject_streams_line(&s, line, 4);
	assert_string_equal(line, "str");
	inject_streams_free(&s);
}

static void test_markers_push_pop(void **state)
{
	struct inject_markers m;
	struct inject_marker_out out;

	(void)state;
	inject_markers_init(&m);
	/* nested push/pop on one thread: inner closes first */
	assert_false(inject_markers_start(&m, 1, 100, 42, "outer", &out));
	assert_false(inject_markers_start(&m, 2, 110, 42, "inner", &out));
	assert_true(inject_markers_end(&m, 2, 150, &out));
	assert_string_equal(out.name, "inner");
	assert_int_equal(out.rec.kind, SS_KIND_MARKER);
	assert_int_equal(out.rec.stream, SS_STREAM_HOST);
	assert_int_equal(out.rec.start, 110);
	assert_int_equal(out.rec.end, 150);
	assert_int_equal(out.rec.thread, 42);
	assert_int_equal(out.rec.correlation, 2);
	free(out.name);
	assert_true(inject_markers_end(&m, 1, 200, &out));
	assert_string_equal(out.name, "outer");
	assert_int_equal(out.rec.start, 100);
	assert_int_equal(out.rec.end, 200);
	free(out.name);
	assert_int_equal(m.n, 0);
	inject_markers_free(&m);
}

static void test_markers_end_first(void **state)
{
	struct inject_markers m;
	struct inject_marker_out out;

	(void)state;
	inject_markers_init(&m);
	/* a start/end range ended on another thread whose buffer arrived first: paired when the start comes */
	assert_false(inject_markers_end(&m, 9, 500, &out));
	assert_true(inject_markers_start(&m, 9, 300, 7, "range", &out));
	assert_int_equal(out.rec.start, 300);
	assert_int_equal(out.rec.end, 500);
	assert_int_equal(out.rec.thread, 7);
	assert_string_equal(out.name, "range");
	free(out.name);
	inject_markers_instant(10, 600, 7, "mark", &out);
	assert_int_equal(out.rec.start, 600);
	assert_int_equal(out.rec.end, 600);
	assert_string_equal(out.name, "mark");
	free(out.name);
	inject_markers_free(&m);
}

static void test_markers_close_at_exit(void **state)
{
	struct inject_markers m;
	struct inject_marker_out out;
	int n = 0;

	(void)state;
	inject_markers_init(&m);
	assert_false(inject_markers_start(&m, 1, 100, 1, "never closed", &out));
	assert_false(inject_markers_end(&m, 2, 150, &out)); /* opened before recording began */
	assert_false(inject_markers_start(&m, 3, 120, 1, "also open", &out));
	while (inject_markers_close(&m, 1000, &out)) {
		assert_int_equal(out.rec.end, 1000);
		assert_non_null(strstr(out.name, "(open at exit)"));
		free(out.name);
		n++;
	}
	assert_int_equal(n, 2);
	assert_int_equal(m.orphans, 1);
	assert_int_equal(m.n, 0);
	inject_markers_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streams_kinds_and_order), cmocka_unit_test(test_streams_null_and_per_thread),
		cmocka_unit_test(test_streams_line_limit),	cmocka_unit_test(test_markers_push_pop),
		cmocka_unit_test(test_markers_end_first),	cmocka_unit_test(test_markers_close_at_exit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
