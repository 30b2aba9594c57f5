/* test_insight.c: each rule of core/insight on a hand-made timeline that shows its pathology, with the evidence's
 * records and numbers checked, the same timeline mutated so that the rule must stay silent, and a clean pipeline
 * that gets no problem-level insight. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <string.h>

#include "core/analysis.h"
#include "core/insight.h"
#include "core/timeline.h"

#define US 1000u

/* add appends a record; returns its index. Tests add records in time order, so timeline_sort keeps indices. */
static size_t add(struct ss_timeline *t, int kind, int stream, uint64_t start, uint64_t end, uint64_t bytes,
                  unsigned flags)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = stream;
	r.start = start;
	r.end = end;
	r.bytes = bytes;
	r.flags = (uint8_t)flags;
	timeline_add(t, &r);
	return t->n - 1;
}

/* run sorts t, analyses it and fills in. */
static void run(struct ss_timeline *t, struct ss_insights *in)
{
	struct ss_analysis a;

	timeline_sort(t);
	analysis_timeline(t, &a);
	insight_analyze(t, &a, in);
}

static bool any_problem(const struct ss_insights *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->item[i].severity == SS_SEV_PROBLEM)
			return true;
	return false;
}

/* A pipeline of 4 chunks on 4 streams, each phase 100 us, chunk i starting at i * 100 us: copies and kernels
 * overlap for 2/3 of the makespan, no engine is busy 90% of it, every copy runs at the same rate, no gap. */
static void pipeline(struct ss_timeline *t, unsigned copy_flags)
{
	for (int i = 0; i < 4; i++) {
		uint64_t s = (uint64_t)i * 100 * US;

		add(t, SS_KIND_H2D, i, s, s + 100 * US, 1u << 20, copy_flags);
		add(t, SS_KIND_KERNEL, i, s + 100 * US, s + 200 * US, 0, 0);
		add(t, SS_KIND_D2H, i, s + 200 * US, s + 300 * US, 1u << 20, copy_flags);
	}
}

/* add_issued adds a GPU record of correlation corr and the API call that issued it, ending at issued (a 1 us
 * call); returns the GPU record's index until the timeline is sorted. */
static size_t add_issued(struct ss_timeline *t, int kind, int stream, uint64_t start, uint64_t end, uint32_t corr,
                         uint64_t issued)
{
	size_t i = add(t, kind, stream, start, end, kind == SS_KIND_KERNEL ? 0 : 4096, 0);
	struct ss_record api;

	t->rec[i].correlation = corr;
	memset(&api, 0, sizeof api);
	api.kind = SS_KIND_API;
	api.stream = SS_STREAM_HOST;
	api.start = issued > US ? issued - US : 0;
	api.end = issued;
	api.correlation = corr;
	timeline_add(t, &api);
	return i;
}

static void test_clean_pipeline(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;

	(void)state;
	timeline_init(&t);
	pipeline(&t, SS_REC_PINNED);
	run(&t, &in);
	assert_false(any_problem(&in));
	assert_null(insight_find(&in, "no-overlap"));
	assert_null(insight_find(&in, "engine-bound"));
	assert_null(insight_find(&in, "gpu-idle"));
	assert_null(insight_find(&in, "small-copies"));
	timeline_free(&t);
}

/* The same pipeline with its copies flagged pageable: pageable-copy names every copy, in order. */
static void test_pageable(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	timeline_init(&t);
	pipeline(&t, SS_REC_PAGEABLE);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "pageable-copy"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_int_equal(x->nrec, 8);
	for (size_t i = 0; i < SS_INSIGHT_MAX_RECS; i++) {
		assert_true(t.rec[x->rec[i]].flags & SS_REC_PAGEABLE);
		assert_int_not_equal(t.rec[x->rec[i]].kind, SS_KIND_KERNEL);
	}
	assert_int_equal(x->t0, 0);
	assert_int_equal(x->t1, 600 * US);
	assert_non_null(strstr(x->evidence, "8 pageable copies, 8.0 MiB"));
	assert_false(x->have_gain);
	timeline_free(&t);
}

/* Two streams' kernels, a legacy-stream memset between them that nothing overlaps: legacy-stream-sync names it.
 * Overlapped by a later or an earlier kernel of another stream, or alone on the GPU, the rule is silent; so it is
 * for legacy work of a set-up done before the streams' work was issued, or of a teardown issued after it ended
 * (document 001's program, recorded: its cudaMemset of z before the loop was called a serialisation), and not for
 * legacy work the streams' waited for, or that waited for them. */
static void test_legacy(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t leg;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0, 0);
	leg = add(&t, SS_KIND_MEMSET, SS_STREAM_LEGACY, 100 * US, 110 * US, 4096, 0);
	t.rec[leg].name = timeline_intern(&t, "zero");
	add(&t, SS_KIND_KERNEL, 1, 110 * US, 210 * US, 0, 0);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "legacy-stream-sync"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_int_equal(x->nrec, 1);
	assert_int_equal(x->rec[0], leg);
	assert_int_equal(x->t0, 100 * US);
	assert_int_equal(x->t1, 110 * US);
	assert_non_null(strstr(x->summary, "zero"));
	timeline_clear(&t);

	add(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0, 0);
	add(&t, SS_KIND_MEMSET, SS_STREAM_LEGACY, 100 * US, 110 * US, 4096, 0);
	add(&t, SS_KIND_KERNEL, 1, 105 * US, 210 * US, 0, 0);
	run(&t, &in);
	assert_null(insight_find(&in, "legacy-stream-sync"));
	timeline_clear(&t);

	/* stream 0's kernel, started first, still runs under the legacy memset */
	add(&t, SS_KIND_KERNEL, 0, 0, 120 * US, 0, 0);
	add(&t, SS_KIND_MEMSET, SS_STREAM_LEGACY, 100 * US, 110 * US, 4096, 0);
	add(&t, SS_KIND_KERNEL, 1, 120 * US, 210 * US, 0, 0);
	run(&t, &in);
	assert_null(insight_find(&in, "legacy-stream-sync"));
	timeline_clear(&t);

	/* only the legacy stream has work: nothing else to serialise */
	add(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 0, 100 * US, 0, 0);
	add(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 100 * US, 200 * US, 0, 0);
	run(&t, &in);
	assert_null(insight_find(&in, "legacy-stream-sync"));
	timeline_clear(&t);

	/* a set-up memset, done before the streams' work was issued (document 001's program zeroes z so before its
	 * loop), and a teardown kernel issued after theirs ended, held nothing back */
	add_issued(&t, SS_KIND_MEMSET, SS_STREAM_LEGACY, 0, 10 * US, 1, 0);
	add_issued(&t, SS_KIND_KERNEL, 0, 40 * US, 140 * US, 2, 30 * US);
	add_issued(&t, SS_KIND_KERNEL, 1, 140 * US, 240 * US, 3, 31 * US);
	add_issued(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 260 * US, 270 * US, 4, 250 * US);
	run(&t, &in);
	assert_null(insight_find(&in, "legacy-stream-sync"));
	timeline_clear(&t);

	/* the same memset issued first but long: the streams' work, issued while it ran, waited for it */
	add_issued(&t, SS_KIND_MEMSET, SS_STREAM_LEGACY, 0, 50 * US, 1, 0);
	add_issued(&t, SS_KIND_KERNEL, 0, 50 * US, 150 * US, 2, 30 * US);
	add_issued(&t, SS_KIND_KERNEL, 1, 150 * US, 250 * US, 3, 31 * US);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "legacy-stream-sync"));
	assert_int_equal(x->nrec, 1);
	assert_int_equal(t.rec[x->rec[0]].kind, SS_KIND_MEMSET);
	timeline_clear(&t);

	/* a kernel issued on the legacy stream while the streams' work ran, held back until all of it was done */
	add_issued(&t, SS_KIND_KERNEL, 0, 10 * US, 110 * US, 1, 0);
	add_issued(&t, SS_KIND_KERNEL, 1, 110 * US, 210 * US, 2, 1 * US);
	add_issued(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 210 * US, 220 * US, 3, 2 * US);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "legacy-stream-sync"));
	assert_int_equal(x->nrec, 1);
	assert_int_equal(t.rec[x->rec[0]].stream, SS_STREAM_LEGACY);
	assert_int_equal(t.rec[x->rec[0]].start, 210 * US);
	timeline_free(&t);
}

/* One stream, copy then kernel then copy back: no overlap, the gain is the makespan less the kernel's time. */
static void test_no_overlap(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 100 * US, 1u << 20, SS_REC_PINNED);
	add(&t, SS_KIND_KERNEL, 0, 100 * US, 250 * US, 0, 0);
	add(&t, SS_KIND_D2H, 0, 250 * US, 350 * US, 1u << 20, SS_REC_PINNED);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "no-overlap"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_true(x->have_gain);
	assert_int_equal(x->gain_ns, 200 * US);
	assert_non_null(strstr(x->evidence, "makespan 350 us"));
	assert_null(insight_find(&in, "engine-bound"));
	timeline_clear(&t);

	/* the same work, then the GPU idle for 1 ms and the copies again: perfect overlap saves what the engines do
	 * beyond the kernel's time (100 us + 100 us of copies, twice), not the idle millisecond */
	add(&t, SS_KIND_H2D, 0, 0, 100 * US, 1u << 20, SS_REC_PINNED);
	add(&t, SS_KIND_KERNEL, 0, 100 * US, 250 * US, 0, 0);
	add(&t, SS_KIND_D2H, 0, 250 * US, 350 * US, 1u << 20, SS_REC_PINNED);
	add(&t, SS_KIND_H2D, 0, 1350 * US, 1450 * US, 1u << 20, SS_REC_PINNED);
	add(&t, SS_KIND_D2H, 0, 1450 * US, 1550 * US, 1u << 20, SS_REC_PINNED);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "no-overlap"));
	assert_int_equal(x->gain_ns, 550 * US - 200 * US);
	assert_non_null(strstr(x->gain_how, "busy time not yet overlapped"));
	timeline_clear(&t);

	/* copies that already run under the kernels, in a run mostly idle (a recorded program's 0.9 ms to hide in
	 * 587 ms was called a problem worth 492 ms): under 5% of the makespan overlaps, but there is nothing to hide */
	add(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0, 0);
	add(&t, SS_KIND_H2D, 1, 50 * US, 90 * US, 1u << 20, SS_REC_PINNED);
	add(&t, SS_KIND_KERNEL, 0, 2000 * US, 2010 * US, 0, 0);
	run(&t, &in);
	assert_null(insight_find(&in, "no-overlap"));
	timeline_free(&t);
}

/* A kernel for 950 of 1000 us beside short copies under it: engine-bound (info), with the share; at 800 us silent. */
static void test_engine_bound(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 50 * US, 1u << 20, SS_REC_PINNED);
	add(&t, SS_KIND_KERNEL, 1, 50 * US, 1000 * US, 0, 0);
	add(&t, SS_KIND_D2H, 0, 100 * US, 150 * US, 1u << 20, SS_REC_PINNED);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "engine-bound"));
	assert_int_equal(x->severity, SS_SEV_INFO);
	assert_non_null(strstr(x->summary, "compute engine: busy 95.0%"));
	assert_false(any_problem(&in));
	timeline_clear(&t);
	add(&t, SS_KIND_H2D, 0, 0, 200 * US, 1u << 20, SS_REC_PINNED);
	add(&t, SS_KIND_KERNEL, 1, 200 * US, 1000 * US, 0, 0);
	add(&t, SS_KIND_D2H, 0, 250 * US, 300 * US, 1u << 20, SS_REC_PINNED);
	run(&t, &in);
	assert_null(insight_find(&in, "engine-bound"));
	timeline_free(&t);
}

/* One fast 1 MiB copy (1 GiB/s... per 1 ms) and 20 small copies at a hundredth of its rate: small-copies names
 * the small ones and its gain is their time less their bytes at the fast rate. With 15 small ones it is silent. */
static void small(struct ss_timeline *t, int nsmall, size_t *first)
{
	add(t, SS_KIND_H2D, 0, 0, 1000 * US, 20000000, SS_REC_PINNED); /* 20 GB/s */
	add(t, SS_KIND_KERNEL, 1, 0, 3000 * US, 0, 0);
	for (int i = 0; i < nsmall; i++) {
		size_t k = add(t, SS_KIND_H2D, 0, (uint64_t)(1000 + 100 * i) * US,
		               (uint64_t)(1000 + 100 * i + 100) * US, 1000, SS_REC_PINNED); /* 0.01 byte/us */
		if (i == 0)
			*first = k;
	}
}

static void test_small_copies(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t first = 0;

	(void)state;
	timeline_init(&t);
	small(&t, 20, &first);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "small-copies"));
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_int_equal(x->nrec, 20);
	assert_int_equal(x->rec[0], first);
	assert_int_equal(t.rec[x->rec[0]].bytes, 1000);
	assert_true(x->have_gain);
	assert_int_equal(x->gain_ns, 20 * (100 * US - 50)); /* 1000 bytes at 20 GB/s: 50 ns */
	timeline_clear(&t);
	small(&t, 15, &first);
	run(&t, &in);
	assert_null(insight_find(&in, "small-copies"));
	timeline_free(&t);
}

/* Only small copies, all as slow: measured against the 12 GB/s floor, not against themselves. */
static void test_small_copies_floor(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 1, 0, 1000 * US, 0, 0);
	for (int i = 0; i < 20; i++) /* 4 KiB in 3 us: 1.4 GB/s; 60 us of the 1 ms makespan */
		add(&t, SS_KIND_H2D, 0, (uint64_t)i * 40 * US, (uint64_t)i * 40 * US + 3 * US, 4096, SS_REC_PINNED);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "small-copies"));
	assert_int_equal(x->nrec, 20);
	timeline_clear(&t);
	add(&t, SS_KIND_KERNEL, 1, 0, 2000 * US, 0, 0);
	for (int i = 0; i < 20; i++) /* 1 MiB in 100 us: 10.5 GB/s, near the floor: no finding */
		add(&t, SS_KIND_H2D, 0, (uint64_t)i * 100 * US, (uint64_t)i * 100 * US + 100 * US, 1u << 20,
		    SS_REC_PINNED);
	run(&t, &in);
	assert_null(insight_find(&in, "small-copies"));
	timeline_free(&t);
}

/* Two kernels 200 us apart with a host sync and an API call in the gap: gpu-idle gives the gap and those records. */
static void test_gpu_idle(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t api, sync;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0, 0);
	sync = add(&t, SS_KIND_SYNC, SS_STREAM_HOST, 90 * US, 150 * US, 0, 0);
	api = add(&t, SS_KIND_API, SS_STREAM_HOST, 250 * US, 260 * US, 0, 0);
	add(&t, SS_KIND_KERNEL, 0, 300 * US, 400 * US, 0, 0);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "gpu-idle"));
	assert_int_equal(x->t0, 100 * US);
	assert_int_equal(x->t1, 300 * US);
	assert_int_equal(x->nrec, 2);
	assert_int_equal(x->rec[0], sync);
	assert_int_equal(x->rec[1], api);
	assert_true(x->have_gain);
	assert_int_equal(x->gain_ns, 200 * US);
	assert_non_null(strstr(x->evidence, "1 API call, 1 sync wait; records"));
	assert_null(strstr(x->summary, "in all"));
	/* three gaps adding up to more than twice the longest: the summary says how idle the GPU is in all, and a
	 * marked range of the host's own work in the longest gap is named */
	timeline_clear(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0, 0);
	add(&t, SS_KIND_KERNEL, 0, 300 * US, 400 * US, 0, 0);
	add(&t, SS_KIND_KERNEL, 0, 550 * US, 600 * US, 0, 0);
	add(&t, SS_KIND_KERNEL, 0, 750 * US, 800 * US, 0, 0);
	t.rec[add(&t, SS_KIND_MARKER, SS_STREAM_HOST, 120 * US, 280 * US, 0, 0)].name =
	    timeline_intern(&t, "host_process");
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "gpu-idle"));
	assert_int_equal(x->t0, 100 * US);
	assert_int_equal(x->t1, 300 * US);
	assert_int_equal(x->gain_ns, 500 * US); /* the gaps fill over half of the makespan: their sum */
	assert_non_null(strstr(x->gain_how, "the gaps' length"));
	assert_non_null(strstr(
	    x->summary, "the GPU idled 200 us (25.0% of the makespan) between work, 500 us (62.5%) in 3 gaps in all"));
	assert_non_null(strstr(x->evidence, "0 API calls, 0 sync waits, 1 NVTX range (host_process)"));
	/* twenty 10 us kernels 40 us apart: no gap a tenth of the makespan, but the GPU idle 79% of it */
	timeline_clear(&t);
	for (int i = 0; i < 20; i++)
		add(&t, SS_KIND_KERNEL, 0, (uint64_t)i * 50 * US, ((uint64_t)i * 50 + 10) * US, 0, 0);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "gpu-idle"));
	assert_int_equal(x->gain_ns, 19 * 40 * US);
	assert_non_null(strstr(x->summary, "760 us (79.2%) in 19 gaps in all"));
	/* the same with 5 us gaps, launch latency: nothing */
	timeline_clear(&t);
	for (int i = 0; i < 20; i++)
		add(&t, SS_KIND_KERNEL, 0, (uint64_t)i * 15 * US, ((uint64_t)i * 15 + 10) * US, 0, 0);
	run(&t, &in);
	assert_null(insight_find(&in, "gpu-idle"));
	timeline_clear(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0, 0);
	add(&t, SS_KIND_KERNEL, 0, 130 * US, 400 * US, 0, 0);
	run(&t, &in);
	assert_null(insight_find(&in, "gpu-idle"));
	timeline_free(&t);
}

/* Problems come before hints and information. */
static void test_order(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0, 0);
	add(&t, SS_KIND_H2D, 0, 300 * US, 400 * US, 1u << 20, SS_REC_PAGEABLE);
	run(&t, &in);
	assert_true(in.n >= 2);
	for (size_t i = 1; i < in.n; i++)
		assert_true(in.item[i - 1].severity <= in.item[i].severity);
	assert_int_equal(in.item[0].severity, SS_SEV_PROBLEM);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_clean_pipeline),
	    cmocka_unit_test(test_pageable),
	    cmocka_unit_test(test_legacy),
	    cmocka_unit_test(test_no_overlap),
	    cmocka_unit_test(test_engine_bound),
	    cmocka_unit_test(test_small_copies),
	    cmocka_unit_test(test_small_copies_floor),
	    cmocka_unit_test(test_gpu_idle),
	    cmocka_unit_test(test_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
