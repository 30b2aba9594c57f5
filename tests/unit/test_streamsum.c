/* test_streamsum.c: the streams of a hand-built timeline summarised by kind and by busy time (engine/streamsum,
 * record's end-of-record table): overlapping and unsorted records counted once, kinds from the stream labels
 * (unlabelled: unknown; idle streams counted), the default-stream lanes of their own kinds with their distinct
 * CUPTI ids, host records ignored, the busiest first with ties in lane order, and 128 streams. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <string.h>

#include "core/streamsum.h"
#include "core/timeline.h"

static void add(struct ss_timeline *t, int kind, int32_t stream, uint32_t raw, uint64_t start, uint64_t end)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = stream;
	r.raw_stream = raw;
	r.start = start;
	r.end = end;
	timeline_add(t, &r);
}

static void test_streamsum_kinds_and_busy(void **state)
{
	struct ss_timeline t;
	struct ss_streamsum s;

	(void)state;
	timeline_init(&t);
	t.nstreams = 4;
	timeline_set_stream(&t, 0, 13, SS_SKIND_BLOCKING);
	timeline_set_stream(&t, 1, 14, SS_SKIND_NONBLOCKING);
	timeline_set_stream(&t, 3, 16, SS_SKIND_NONBLOCKING); /* idle: counted, not listed */
	/* stream 0: [100, 300) and [200, 400) overlap -> 300 ns; [1000, 1100) -> 100; out of order */
	add(&t, SS_KIND_KERNEL, 0, 13, 1000, 1100);
	add(&t, SS_KIND_H2D, 0, 13, 200, 400);
	add(&t, SS_KIND_KERNEL, 0, 13, 100, 300);
	/* stream 1: one memset inside a copy -> 500 */
	add(&t, SS_KIND_D2H, 1, 14, 0, 500);
	add(&t, SS_KIND_MEMSET, 1, 14, 100, 200);
	/* stream 2 has no label: kind unknown */
	add(&t, SS_KIND_KERNEL, 2, 15, 0, 50);
	/* the legacy lane with two contexts' ids, the per-thread lane with one */
	add(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 7, 0, 10);
	add(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 8, 5, 20);
	add(&t, SS_KIND_KERNEL, SS_STREAM_PER_THREAD, 20, 0, 400);
	/* host records and records of no stream are not streams' work */
	add(&t, SS_KIND_API, SS_STREAM_HOST, 0, 0, 5000);
	add(&t, SS_KIND_SYNC, SS_STREAM_HOST, UINT32_MAX, 0, 5000);
	add(&t, SS_KIND_KERNEL, SS_STREAM_UNKNOWN, 99, 0, 5000);
	streamsum_build(&t, &s);
	assert_int_equal(s.streams, 7);
	assert_int_equal(s.kind[SS_SKIND_BLOCKING].streams, 1);
	assert_int_equal(s.kind[SS_SKIND_BLOCKING].busy, 400);
	assert_int_equal(s.kind[SS_SKIND_BLOCKING].records, 3);
	assert_int_equal(s.kind[SS_SKIND_NONBLOCKING].streams, 2);
	assert_int_equal(s.kind[SS_SKIND_NONBLOCKING].busy, 500);
	assert_int_equal(s.kind[SS_SKIND_NONBLOCKING].records, 2);
	assert_int_equal(s.kind[SS_SKIND_UNKNOWN].streams, 1);
	assert_int_equal(s.kind[SS_SKIND_UNKNOWN].busy, 50);
	assert_int_equal(s.kind[SS_SKIND_LEGACY].streams, 2);
	assert_int_equal(s.kind[SS_SKIND_LEGACY].busy, 20);
	assert_int_equal(s.kind[SS_SKIND_LEGACY].records, 2);
	assert_int_equal(s.kind[SS_SKIND_PER_THREAD].streams, 1);
	assert_int_equal(s.kind[SS_SKIND_PER_THREAD].busy, 400);
	/* lanes with work, busiest first; 400 twice: stream 0 before the per-thread lane */
	assert_int_equal(s.nlane, 5);
	assert_int_equal(s.lane[0].stream, 1);
	assert_int_equal(s.lane[0].busy, 500);
	assert_int_equal(s.lane[0].copies, 1);
	assert_int_equal(s.lane[0].memsets, 1);
	assert_int_equal(s.lane[0].kind, SS_SKIND_NONBLOCKING);
	assert_int_equal(s.lane[1].stream, 0);
	assert_int_equal(s.lane[1].raw_id, 13);
	assert_int_equal(s.lane[1].kernels, 2);
	assert_int_equal(s.lane[1].copies, 1);
	assert_int_equal(s.lane[2].stream, SS_STREAM_PER_THREAD);
	assert_int_equal(s.lane[2].kind, SS_SKIND_PER_THREAD);
	assert_int_equal(s.lane[3].stream, 2);
	assert_int_equal(s.lane[3].kind, SS_SKIND_UNKNOWN);
	assert_int_equal(s.lane[4].stream, SS_STREAM_LEGACY);
	assert_int_equal(s.lane[4].raw_id, 7);
	streamsum_free(&s);
	timeline_free(&t);
}

static void test_streamsum_many(void **state)
{
	struct ss_timeline t;
	struct ss_streamsum s;

	(void)state;
	timeline_init(&t);
	t.nstreams = 128;
	for (int i = 0; i < 128; i++) {
		timeline_set_stream(&t, i, 100 + (uint32_t)i, i % 2 ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING);
		for (int k = 0; k <= i % 16; k++)
			add(&t, SS_KIND_KERNEL, i, 100 + (uint32_t)i, (uint64_t)k * 1000, (uint64_t)k * 1000 + 10);
	}
	streamsum_build(&t, &s);
	assert_int_equal(s.streams, 128);
	assert_int_equal(s.kind[SS_SKIND_BLOCKING].streams, 64);
	assert_int_equal(s.kind[SS_SKIND_NONBLOCKING].streams, 64);
	assert_int_equal(s.kind[SS_SKIND_UNKNOWN].streams, 0);
	assert_int_equal(s.nlane, 128);
	/* 16 kernels on streams 15, 31, ...: first in index order */
	assert_int_equal(s.lane[0].stream, 15);
	assert_int_equal(s.lane[0].busy, 160);
	assert_int_equal(s.lane[1].stream, 31);
	assert_int_equal(s.lane[127].stream, 112);
	assert_int_equal(s.lane[127].busy, 10);
	streamsum_free(&s);
	timeline_free(&t);
}

static void test_streamsum_empty(void **state)
{
	struct ss_timeline t;
	struct ss_streamsum s;

	(void)state;
	timeline_init(&t);
	streamsum_build(&t, &s);
	assert_int_equal(s.streams, 0);
	assert_int_equal(s.nlane, 0);
	streamsum_free(&s);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_streamsum_kinds_and_busy),
	    cmocka_unit_test(test_streamsum_many),
	    cmocka_unit_test(test_streamsum_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
