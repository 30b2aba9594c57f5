/* test_inject_units.c: the pure parts of the injection library: the stream table (indices in order of first
 * sight, kinds from STREAM records whatever order they arrive in, legacy and per-thread ids without an index, the
 * entries drained for the parent: new and changed ones, any number of streams) and the pairing of NVTX range halves
 * (either order, nesting, instants, ranges still open at exit, END halves without a START). */
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
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "record/contract.h"
#include "record/inject_markers.h"
#include "record/inject_streams.h"

/* CUpti_ActivityStreamFlag values. */
enum { FLAG_DEFAULT = 1, FLAG_NON_BLOCKING = 2, FLAG_NULL = 3 };

/* What a drain emitted: one entry per index. */
struct drained {
	int n;
	int index[512];
	uint32_t id[512];
	int skind[512];
};

static void drain_into(void *arg, int index, uint32_t id, int skind)
{
	struct drained *d = arg;

	assert_true(d->n < 512);
	d->index[d->n] = index;
	d->id[d->n] = id;
	d->skind[d->n] = skind;
	d->n++;
}

/* The table as letters after INJECT_STREAMS_PREFIX ("streams bn?"), then drained of its changes (dirty cleared). */
static void table(struct inject_streams *s, char *buf, size_t len)
{
	struct drained d = {0};

	snprintf(buf, len, "%s%.*s", INJECT_STREAMS_PREFIX, s->n, s->kinds != NULL ? s->kinds : "");
	inject_streams_drain(s, false, drain_into, &d);
}

static void test_streams_kinds_and_order(void **state)
{
	struct inject_streams s;
	char line[128];

	(void)state;
	inject_streams_init(&s);
	table(&s, line, sizeof line);
	assert_string_equal(line, "streams ");
	inject_streams_null(&s, 7);
	inject_streams_created(&s, 13, FLAG_DEFAULT);
	inject_streams_created(&s, 14, FLAG_NON_BLOCKING);
	assert_true(s.dirty);
	assert_int_equal(inject_streams_see(&s, 13), 0);
	assert_int_equal(inject_streams_see(&s, 14), 1);
	/* a GPU record of a stream whose STREAM record has not arrived: next index, kind unknown until it does */
	assert_int_equal(inject_streams_see(&s, 15), 2);
	table(&s, line, sizeof line);
	assert_string_equal(line, "streams bn?");
	assert_false(s.dirty);
	inject_streams_created(&s, 15, FLAG_NON_BLOCKING);
	assert_true(s.dirty);
	table(&s, line, sizeof line);
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
	table(&s, line, sizeof line);
	assert_string_equal(line, "streams lp");
	inject_streams_free(&s);
	/* the legacy stream's work arrived before its id was known: it keeps its index, labelled legacy */
	inject_streams_init(&s);
	assert_int_equal(inject_streams_see(&s, 7), 0);
	inject_streams_null(&s, 7);
	assert_true(s.have_null);
	assert_int_equal(inject_streams_see(&s, 7), 0);
	table(&s, line, sizeof line);
	assert_string_equal(line, "streams l");
	inject_streams_free(&s);
}

/* 128 streams and more: every index reaches the parent with its kind (the progress line that carried the table
 * held 112 letters, and the rest were "kind unknown"); only new or changed entries are sent again. */
static void test_streams_drain_many(void **state)
{
	static struct drained d;
	struct inject_streams s;

	(void)state;
	inject_streams_init(&s);
	/* work of the last 28 streams arrives before their STREAM records (another thread's buffer) */
	for (uint32_t id = 100; id < 400; id++)
		if (id >= 372)
			assert_int_equal(inject_streams_see(&s, id), (int)(id - 372));
	for (uint32_t id = 100; id < 400; id++)
		inject_streams_created(&s, id, id % 3 == 0 ? FLAG_NON_BLOCKING : FLAG_DEFAULT);
	assert_int_equal(s.n, 300);
	memset(&d, 0, sizeof d);
	inject_streams_drain(&s, false, drain_into, &d);
	assert_false(s.dirty);
	assert_int_equal(d.n, 300);
	for (int i = 0; i < 300; i++) {
		uint32_t id = i < 28 ? 372 + (uint32_t)i : 100 + (uint32_t)(i - 28);

		assert_int_equal(d.index[i], i);
		assert_int_equal(d.id[i], id);
		assert_int_equal(d.skind[i], id % 3 == 0 ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING);
	}
	/* nothing changed: nothing sent */
	memset(&d, 0, sizeof d);
	inject_streams_drain(&s, false, drain_into, &d);
	assert_int_equal(d.n, 0);
	/* a new unknown stream, then its kind: sent each time, alone */
	assert_int_equal(inject_streams_see(&s, 999), 300);
	inject_streams_drain(&s, false, drain_into, &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.index[0], 300);
	assert_int_equal(d.skind[0], SS_SKIND_UNKNOWN);
	inject_streams_created(&s, 999, FLAG_NON_BLOCKING);
	memset(&d, 0, sizeof d);
	inject_streams_drain(&s, false, drain_into, &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.index[0], 300);
	assert_int_equal(d.skind[0], SS_SKIND_NONBLOCKING);
	/* at exit: everything again */
	memset(&d, 0, sizeof d);
	inject_streams_drain(&s, true, drain_into, &d);
	assert_int_equal(d.n, 301);
	inject_streams_free(&s);
}

static void test_streams_skind(void **state)
{
	(void)state;
	assert_int_equal(inject_streams_skind(INJECT_STREAM_BLOCKING), SS_SKIND_BLOCKING);
	assert_int_equal(inject_streams_skind(INJECT_STREAM_NONBLOCKING), SS_SKIND_NONBLOCKING);
	assert_int_equal(inject_streams_skind(INJECT_STREAM_LEGACY), SS_SKIND_LEGACY);
	assert_int_equal(inject_streams_skind(INJECT_STREAM_PER_THREAD), SS_SKIND_PER_THREAD);
	assert_int_equal(inject_streams_skind(INJECT_STREAM_UNKNOWN), SS_SKIND_UNKNOWN);
	assert_int_equal(inject_streams_skind('x'), SS_SKIND_UNKNOWN);
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
	    cmocka_unit_test(test_streams_drain_many),      cmocka_unit_test(test_streams_skind),
	    cmocka_unit_test(test_markers_push_pop),        cmocka_unit_test(test_markers_end_first),
	    cmocka_unit_test(test_markers_close_at_exit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
