/* test_timeline.c: interning (dedupe, many names through rehashes), records, sort, span, count, rebase, finish,
 * clear and copy independence. */
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
#include <string.h>

#include "core/record.h"
#include "core/timeline.h"

static struct ss_record rec(int kind, int stream, uint64_t start, uint64_t end)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = stream;
	r.start = start;
	r.end = end;
	return r;
}

static void test_intern_dedupe(void **state)
{
	struct ss_timeline t;
	char buf[16];
	uint32_t a, b;

	(void)state;
	timeline_init(&t);
	assert_int_equal(timeline_intern(&t, NULL), 0);
	assert_int_equal(timeline_intern(&t, ""), 0);
	assert_string_equal(timeline_name(&t, 0), "");
	a = timeline_intern(&t, "add_kernel");
	b = timeline_intern(&t, "decrypt_kernel");
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(timeline_intern(&t, "add_kernel"), 1);
	assert_int_equal(timeline_intern(&t, "decrypt_kernel"), 2);
	assert_int_equal(timeline_intern(&t, "Add_kernel"), 3); /* case matters */
	assert_string_equal(timeline_name(&t, 1), "add_kernel");
	assert_string_equal(timeline_name(&t, 3), "Add_kernel");
	assert_string_equal(timeline_name(&t, 4), ""); /* out of range */
	assert_string_equal(timeline_name(&t, UINT32_MAX), "");
	/* the table keeps its own copy */
	snprintf(buf, sizeof buf, "memcpy");
	assert_int_equal(timeline_intern(&t, buf), 4);
	buf[0] = 'X';
	assert_string_equal(timeline_name(&t, 4), "memcpy");
	assert_int_equal(timeline_intern(&t, "memcpy"), 4);
	timeline_free(&t);
}

/* 20000 names: ids are dense and stable across the table's growth and rehashes. */
static void test_intern_many(void **state)
{
	enum { N = 20000 };
	struct ss_timeline t;
	char name[32];

	(void)state;
	timeline_init(&t);
	for (uint32_t i = 0; i < N; i++) {
		snprintf(name, sizeof name, "kernel_%u", i);
		assert_int_equal(timeline_intern(&t, name), i + 1);
	}
	assert_int_equal(t.names.n, N + 1);
	for (uint32_t i = 0; i < N; i++) {
		snprintf(name, sizeof name, "kernel_%u", i);
		assert_int_equal(timeline_intern(&t, name), i + 1);
		assert_string_equal(timeline_name(&t, i + 1), name);
	}
	assert_int_equal(t.names.n, N + 1); /* nothing added twice */
	/* the hash table is a power of two and at most half full */
	assert_int_equal(t.names.nslot & (t.names.nslot - 1), 0);
	assert_true(t.names.n * 2 <= t.names.nslot);
	timeline_free(&t);
}

static void test_add_and_grow(void **state)
{
	struct ss_timeline t;

	(void)state;
	timeline_init(&t);
	for (uint64_t i = 0; i < 5000; i++) {
		struct ss_record r = rec(SS_KIND_KERNEL, (int)(i % 7), i * 10, i * 10 + 5);
		struct ss_record *p;

		r.bytes = i;
		r.correlation = (uint32_t)(i + 1);
		p = timeline_add(&t, &r);
		assert_ptr_equal(p, &t.rec[i]);
		assert_int_equal(p->bytes, i);
	}
	assert_int_equal(t.n, 5000);
	assert_true(t.cap >= 5000);
	for (size_t i = 0; i < 5000; i++) {
		assert_int_equal(t.rec[i].start, i * 10);
		assert_int_equal(t.rec[i].correlation, i + 1);
		assert_int_equal(t.rec[i].stream, (int)(i % 7));
	}
	timeline_free(&t);
	assert_null(t.rec);
	assert_int_equal(t.n, 0);
}

static void test_sort(void **state)
{
	struct ss_timeline t;
	static const uint64_t in[][2] = {{50, 60}, {10, 30}, {10, 20}, {0, 100}, {50, 55}, {30, 30}};
	static const uint64_t want[][2] = {{0, 100}, {10, 20}, {10, 30}, {30, 30}, {50, 55}, {50, 60}};
	struct ss_record r;

	(void)state;
	timeline_init(&t);
	for (size_t i = 0; i < 6; i++) {
		r = rec(SS_KIND_H2D, 0, in[i][0], in[i][1]);
		r.correlation = (uint32_t)(100 + i);
		timeline_add(&t, &r);
	}
	timeline_sort(&t);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(t.rec[i].start, want[i][0]);
		assert_int_equal(t.rec[i].end, want[i][1]);
	}
	/* whole records move, not just times: {10,20} was added 3rd */
	assert_int_equal(t.rec[1].correlation, 102);
	/* same times: ordered by kind */
	timeline_clear(&t);
	r = rec(SS_KIND_D2H, 0, 5, 9);
	timeline_add(&t, &r);
	r = rec(SS_KIND_H2D, 0, 5, 9);
	timeline_add(&t, &r);
	timeline_sort(&t);
	assert_int_equal(t.rec[0].kind, SS_KIND_H2D);
	assert_int_equal(t.rec[1].kind, SS_KIND_D2H);
	timeline_free(&t);
}

static void test_span_and_count(void **state)
{
	struct ss_timeline t;
	struct ss_record r;
	uint64_t t0 = 1, t1 = 1;

	(void)state;
	timeline_init(&t);
	assert_false(timeline_span(&t, SS_GPU_KINDS, &t0, &t1));
	assert_int_equal(t0, 1); /* untouched when nothing matches */
	r = rec(SS_KIND_API, SS_STREAM_HOST, 0, 1000);
	timeline_add(&t, &r);
	assert_false(timeline_span(&t, SS_GPU_KINDS, &t0, &t1));
	r = rec(SS_KIND_H2D, 0, 200, 300);
	timeline_add(&t, &r);
	r = rec(SS_KIND_KERNEL, 0, 250, 700);
	timeline_add(&t, &r);
	r = rec(SS_KIND_D2H, 1, 100, 150);
	timeline_add(&t, &r);
	r = rec(SS_KIND_KERNEL, 1, 600, 650);
	timeline_add(&t, &r);
	assert_true(timeline_span(&t, SS_GPU_KINDS, &t0, &t1));
	assert_int_equal(t0, 100);
	assert_int_equal(t1, 700);
	assert_true(timeline_span(&t, SS_KIND_BIT(SS_KIND_KERNEL), &t0, &t1));
	assert_int_equal(t0, 250);
	assert_int_equal(t1, 700);
	assert_true(timeline_span(&t, SS_KIND_BIT(SS_KIND_H2D) | SS_KIND_BIT(SS_KIND_D2H), &t0, &t1));
	assert_int_equal(t0, 100);
	assert_int_equal(t1, 300);
	assert_true(timeline_span(&t, SS_KIND_BIT(SS_KIND_API), &t0, &t1));
	assert_int_equal(t0, 0);
	assert_int_equal(t1, 1000);
	assert_false(timeline_span(&t, SS_KIND_BIT(SS_KIND_MEMSET), &t0, &t1));
	assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), 2);
	assert_int_equal(timeline_count(&t, SS_KIND_H2D), 1);
	assert_int_equal(timeline_count(&t, SS_KIND_API), 1);
	assert_int_equal(timeline_count(&t, SS_KIND_SYNC), 0);
	timeline_free(&t);
}

/* The work span: GPU records, widened to the calls of pageable copies (same correlation), not to other calls. */
static void test_work_span(void **state)
{
	struct ss_record r[7];
	uint64_t t0 = 1, t1 = 1;

	(void)state;
	r[0] = rec(SS_KIND_API, SS_STREAM_HOST, 0, 500); /* a pinned copy's call: not staging */
	r[0].correlation = 1;
	r[1] = rec(SS_KIND_H2D, 0, 200, 300);
	r[1].correlation = 1;
	r[1].flags = SS_REC_PINNED;
	assert_false(timeline_work_span(r, 0, &t0, &t1));
	assert_false(timeline_work_span(r, 1, &t0, &t1)); /* no GPU record */
	assert_int_equal(t0, 1);
	assert_true(timeline_work_span(r, 2, &t0, &t1));
	assert_int_equal(t0, 200);
	assert_int_equal(t1, 300);
	/* a pageable H2D whose call starts first, a pageable D2H whose call returns last */
	r[2] = rec(SS_KIND_API, SS_STREAM_HOST, 50, 260);
	r[2].correlation = 7;
	r[3] = rec(SS_KIND_H2D, 1, 150, 280);
	r[3].correlation = 7;
	r[3].flags = SS_REC_PAGEABLE;
	r[4] = rec(SS_KIND_D2H, 1, 400, 450);
	r[4].correlation = 9;
	r[4].flags = SS_REC_PAGEABLE;
	r[5] = rec(SS_KIND_API, SS_STREAM_HOST, 320, 900);
	r[5].correlation = 9;
	r[6] = rec(SS_KIND_API, SS_STREAM_HOST, 10, 2000); /* no correlation: never widens */
	assert_true(timeline_work_span(r, 7, &t0, &t1));
	assert_int_equal(t0, 50);
	assert_int_equal(t1, 900);
	/* a pageable copy whose record has no correlation widens nothing */
	r[3].correlation = 0;
	r[2].correlation = 0;
	assert_true(timeline_work_span(r, 7, &t0, &t1));
	assert_int_equal(t0, 150);
	assert_int_equal(t1, 900);
}

static void test_rebase(void **state)
{
	struct ss_timeline t;
	struct ss_record r;

	(void)state;
	timeline_init(&t);
	r = rec(SS_KIND_H2D, 0, 1000000, 1000500);
	timeline_add(&t, &r);
	r = rec(SS_KIND_API, SS_STREAM_HOST, 999900, 1000100); /* starts before t0: clamped */
	timeline_add(&t, &r);
	r = rec(SS_KIND_SYNC, SS_STREAM_HOST, 10, 20); /* wholly before t0 */
	timeline_add(&t, &r);
	timeline_rebase(&t, 1000000);
	assert_int_equal(t.rec[0].start, 0);
	assert_int_equal(t.rec[0].end, 500);
	assert_int_equal(t.rec[1].start, 0);
	assert_int_equal(t.rec[1].end, 100);
	assert_int_equal(t.rec[2].start, 0);
	assert_int_equal(t.rec[2].end, 0);
	timeline_rebase(&t, 0);
	assert_int_equal(t.rec[0].end, 500);
	timeline_free(&t);
}

static void test_finish(void **state)
{
	struct ss_timeline t;
	struct ss_record r;

	(void)state;
	timeline_init(&t);
	timeline_finish(&t);
	assert_int_equal(t.nstreams, 0);
	r = rec(SS_KIND_API, SS_STREAM_HOST, 0, 1);
	timeline_add(&t, &r);
	r = rec(SS_KIND_KERNEL, SS_STREAM_LEGACY, 0, 1);
	timeline_add(&t, &r);
	timeline_finish(&t);
	assert_int_equal(t.nstreams, 0); /* only default/host streams */
	r = rec(SS_KIND_KERNEL, 6, 0, 1);
	timeline_add(&t, &r);
	r = rec(SS_KIND_KERNEL, 2, 0, 1);
	timeline_add(&t, &r);
	timeline_finish(&t);
	assert_int_equal(t.nstreams, 7);
	t.nstreams = 32; /* an experiment's count is kept even when streams had no work */
	timeline_finish(&t);
	assert_int_equal(t.nstreams, 32);
	timeline_free(&t);
}

static void test_clear(void **state)
{
	struct ss_timeline t;
	struct ss_record r = rec(SS_KIND_H2D, 0, 0, 1);

	(void)state;
	timeline_init(&t);
	snprintf(t.backend, sizeof t.backend, "model");
	t.nstreams = 4;
	t.dropped = 3;
	t.incomplete = true;
	timeline_add(&t, &r);
	assert_int_equal(timeline_intern(&t, "a"), 1);
	assert_int_equal(timeline_intern(&t, "b"), 2);
	timeline_clear(&t);
	assert_int_equal(t.n, 0);
	assert_int_equal(t.dropped, 0);
	assert_false(t.incomplete);
	assert_string_equal(t.backend, "model"); /* labels kept */
	assert_int_equal(t.nstreams, 4);
	assert_string_equal(timeline_name(&t, 1), "");
	assert_int_equal(timeline_intern(&t, "b"), 1); /* ids start over */
	assert_int_equal(timeline_intern(&t, "a"), 2);
	assert_int_equal(timeline_intern(&t, "b"), 1);
	timeline_free(&t);
}

/* A copy shares nothing with its source: records, names and the hash table are its own. */
static void test_copy_independent(void **state)
{
	struct ss_timeline src, dst;
	struct ss_record r = rec(SS_KIND_KERNEL, 1, 10, 20);

	(void)state;
	timeline_init(&src);
	snprintf(src.device, sizeof src.device, "MODEL (H200 profile)");
	src.modelled = true;
	src.nstreams = 2;
	r.name = timeline_intern(&src, "add");
	timeline_add(&src, &r);
	timeline_copy(&dst, &src);
	assert_int_equal(dst.n, 1);
	assert_true(dst.modelled);
	assert_int_equal(dst.nstreams, 2);
	assert_string_equal(dst.device, "MODEL (H200 profile)");
	assert_string_equal(timeline_name(&dst, dst.rec[0].name), "add");
	assert_true(dst.rec != src.rec);
	assert_true(dst.names.e != src.names.e);
	assert_true(dst.names.slot != src.names.slot);

	/* change the copy: the source does not see it */
	dst.rec[0].start = 999;
	assert_int_equal(timeline_intern(&dst, "only-in-dst"), 2);
	for (int i = 0; i < 3000; i++) /* grow the copy past its source's capacity */
		timeline_add(&dst, &r);
	assert_int_equal(src.rec[0].start, 10);
	assert_int_equal(src.n, 1);
	assert_int_equal(src.names.n, 2);
	assert_string_equal(timeline_name(&src, 2), "");
	/* change the source: the copy does not see it */
	assert_int_equal(timeline_intern(&src, "only-in-src"), 2);
	assert_string_equal(timeline_name(&dst, 2), "only-in-dst");
	assert_int_equal(timeline_intern(&dst, "add"), 1); /* the copied hash table still finds old names */
	timeline_free(&src);
	/* the copy outlives its source */
	assert_string_equal(timeline_name(&dst, 1), "add");
	assert_int_equal(dst.n, 3001);
	timeline_free(&dst);

	/* copying an empty timeline */
	timeline_init(&src);
	timeline_copy(&dst, &src);
	assert_int_equal(dst.n, 0);
	timeline_add(&dst, &r);
	assert_int_equal(dst.n, 1);
	assert_int_equal(src.n, 0);
	timeline_free(&src);
	timeline_free(&dst);
}

static void test_stream_table(void **state)
{
	struct ss_timeline t, c;
	const struct ss_stream_info *si;

	(void)state;
	timeline_init(&t);
	assert_null(timeline_stream(&t, 0));
	assert_null(timeline_stream(&t, -1));
	timeline_set_stream(&t, 2, 14, SS_SKIND_NONBLOCKING);
	timeline_set_stream(&t, 0, 13, SS_SKIND_BLOCKING);
	timeline_set_stream(&t, -2, 7, SS_SKIND_LEGACY);        /* ignored */
	timeline_set_stream(&t, 1 << 20, 9, SS_SKIND_BLOCKING); /* ignored */
	timeline_set_stream(&t, 3, 15, 99);                     /* out of range kind: unknown */
	assert_int_equal(t.nstream_info, 4);
	si = timeline_stream(&t, 0);
	assert_non_null(si);
	assert_int_equal(si->raw_id, 13);
	assert_int_equal(si->kind, SS_SKIND_BLOCKING);
	assert_null(timeline_stream(&t, 1)); /* in between: unknown */
	assert_int_equal(timeline_stream(&t, 2)->kind, SS_SKIND_NONBLOCKING);
	assert_int_equal(timeline_stream(&t, 3)->kind, SS_SKIND_UNKNOWN);
	assert_int_equal(timeline_stream(&t, 3)->raw_id, 15);
	assert_null(timeline_stream(&t, 4));
	assert_string_equal(timeline_stream_kind_tag(SS_SKIND_NONBLOCKING), "nb");
	assert_string_equal(timeline_stream_kind_tag(SS_SKIND_BLOCKING), "blk");
	assert_string_equal(timeline_stream_kind_tag(-1), "");
	assert_string_equal(timeline_stream_kind_name(SS_SKIND_PER_THREAD), "per-thread default");
	timeline_copy(&c, &t);
	timeline_set_stream(&t, 2, 99, SS_SKIND_BLOCKING);
	assert_int_equal(timeline_stream(&c, 2)->raw_id, 14); /* independent */
	assert_int_equal(timeline_stream(&c, 2)->kind, SS_SKIND_NONBLOCKING);
	timeline_clear(&t);
	assert_null(timeline_stream(&t, 0));
	timeline_set_stream(&t, 0, 5, SS_SKIND_LEGACY);
	assert_int_equal(timeline_stream(&t, 0)->kind, SS_SKIND_LEGACY);
	timeline_free(&t);
	timeline_free(&c);
}

static void test_record_kind_names(void **state)
{
	static const char *const want[SS_KIND_COUNT] = {"H2D", "D2H", "D2D", "MEMSET", "KER", "API", "SYNC", "NVTX"};

	(void)state;
	assert_int_equal(sizeof(struct ss_record), 48);
	for (int k = 0; k < SS_KIND_COUNT; k++) {
		assert_string_equal(record_kind_name(k), want[k]);
		assert_int_equal(record_kind_parse(want[k]), k);
	}
	assert_int_equal(record_kind_parse("kernel"), SS_KIND_KERNEL);
	assert_int_equal(record_kind_parse("h2d"), SS_KIND_H2D);
	assert_int_equal(record_kind_parse("bogus"), -1);
	assert_string_equal(record_kind_name(-1), "?");
	assert_string_equal(record_kind_name(SS_KIND_COUNT), "?");
}

/* The device table: titles from names and uuids, the count from records (peer ends included), cleared with the
 * records, copied with the timeline; out-of-range indices ignored. */
static void test_devices(void **state)
{
	struct ss_timeline t, c;
	struct ss_record r = {.start = 1, .end = 2, .kind = SS_KIND_KERNEL};
	char buf[160];

	(void)state;
	timeline_init(&t);
	assert_int_equal(timeline_ndevices(&t), 1);
	assert_string_equal(timeline_device_title(&t, 0, buf, sizeof buf), "GPU 0");
	snprintf(t.device, sizeof t.device, "NVIDIA H200");
	assert_string_equal(timeline_device_title(&t, 0, buf, sizeof buf), "GPU 0: NVIDIA H200");
	assert_string_equal(timeline_device_title(&t, 1, buf, sizeof buf), "GPU 1");
	r.device = 2;
	timeline_add(&t, &r);
	assert_int_equal(timeline_ndevices(&t), 3);
	r.device = 0;
	r.kind = SS_KIND_D2D;
	r.flags = SS_REC_PEER;
	r.peer = 4;
	timeline_add(&t, &r);
	assert_int_equal(timeline_ndevices(&t), 5);
	assert_int_equal(record_peer_src(&r), 0);
	assert_int_equal(record_peer_dst(&r), 4);
	r.flags |= SS_REC_PEER_IN;
	assert_int_equal(record_peer_src(&r), 4);
	assert_int_equal(record_peer_dst(&r), 0);
	r.flags = 0; /* peer is only read with SS_REC_PEER */
	assert_int_equal(record_peer_dst(&r), 0);
	timeline_set_device(&t, 1, "NVIDIA H100", "GPU-1234", 7);
	timeline_set_device(&t, SS_TIMELINE_MAX_DEVICES, "ignored", NULL, 1);
	timeline_set_device(&t, -1, "ignored", NULL, 1);
	assert_null(timeline_device(&t, 2));
	assert_non_null(timeline_device(&t, 1));
	assert_int_equal(timeline_device(&t, 1)->context, 7);
	timeline_set_device(&t, 1, NULL, NULL, 0); /* keeps what is there */
	assert_string_equal(timeline_device(&t, 1)->uuid, "GPU-1234");
	assert_string_equal(timeline_device_title(&t, 1, buf, sizeof buf), "GPU 1: NVIDIA H100 (GPU-1234)");
	timeline_copy(&c, &t);
	timeline_clear(&t);
	assert_null(timeline_device(&t, 1));
	assert_int_equal(timeline_ndevices(&t), 1);
	assert_string_equal(timeline_device(&c, 1)->name, "NVIDIA H100");
	assert_int_equal(timeline_ndevices(&c), 5);
	timeline_free(&c);
	timeline_set_device(&t, 9, "x", NULL, 0);
	assert_int_equal(timeline_ndevices(&t), 10);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_intern_dedupe),  cmocka_unit_test(test_intern_many),
	    cmocka_unit_test(test_add_and_grow),   cmocka_unit_test(test_sort),
	    cmocka_unit_test(test_span_and_count), cmocka_unit_test(test_work_span),
	    cmocka_unit_test(test_rebase),         cmocka_unit_test(test_finish),
	    cmocka_unit_test(test_clear),          cmocka_unit_test(test_copy_independent),
	    cmocka_unit_test(test_stream_table),   cmocka_unit_test(test_record_kind_names),
	    cmocka_unit_test(test_devices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
