/* test_analysis.c: makespan, busy unions, utilisation, overlap, the ideal pipeline bound, speedup/gap and the
 * observer effect, on hand-made timelines with answers worked out by hand (and one brute-force oracle). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/backend.h"
#include "core/experiment.h"
#include "core/planner.h"
#include "core/timeline.h"

#define EPS 1e-12
/* cmocka 1.1's float comparison is single precision; this one is double. */
#define assert_near(a, b, eps)                                                                                         \
	do {                                                                                                           \
		double a_ = (a), b_ = (b);                                                                             \
		if (!(fabs(a_ - b_) <= (eps)))                                                                         \
			fail_msg("%s = %.17g, want %.17g (+-%g)", #a, a_, b_, (double)(eps));                          \
	} while (0)

static void add(struct ss_timeline *t, int kind, int stream, uint64_t start, uint64_t end, uint64_t bytes)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = stream;
	r.start = start;
	r.end = end;
	r.bytes = bytes;
	timeline_add(t, &r);
}

/* Overlapping H2D copies (union, not sum), a kernel overlapping the copies by 50 ns, a D2H touching the kernel's
 * end (not overlap), host records outside the GPU span (not in the makespan). Records are not in time order. */
static void test_makespan_busy_overlap(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_D2H, 0, 400, 500, 500);
	add(&t, SS_KIND_H2D, 1, 150, 300, 3000);
	add(&t, SS_KIND_API, SS_STREAM_HOST, 0, 1000, 0);
	add(&t, SS_KIND_KERNEL, 0, 250, 400, 0);
	add(&t, SS_KIND_H2D, 0, 100, 200, 1000);
	add(&t, SS_KIND_SYNC, SS_STREAM_HOST, 450, 2000, 0);
	analysis_timeline(&t, &a);

	assert_int_equal(a.t0, 100);
	assert_int_equal(a.t1, 500);
	assert_int_equal(a.makespan_ns, 400);
	assert_int_equal(a.staging_ns, 0);

	assert_int_equal(a.eng[SS_ENG_H2D].busy_ns, 200); /* [100,300) */
	assert_int_equal(a.eng[SS_ENG_H2D].sum_ns, 250);
	assert_int_equal(a.eng[SS_ENG_H2D].count, 2);
	assert_int_equal(a.eng[SS_ENG_H2D].bytes, 4000);
	assert_near(a.eng[SS_ENG_H2D].util, 0.5, EPS);

	assert_int_equal(a.eng[SS_ENG_COMPUTE].busy_ns, 150);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].count, 1);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].bytes, 0);
	assert_near(a.eng[SS_ENG_COMPUTE].util, 0.375, EPS);

	assert_int_equal(a.eng[SS_ENG_D2H].busy_ns, 100);
	assert_int_equal(a.eng[SS_ENG_D2H].bytes, 500);
	assert_near(a.eng[SS_ENG_D2H].util, 0.25, EPS);

	assert_int_equal(a.overlap_ns, 50); /* [250,300): H2D and compute */
	assert_near(a.overlap, 0.125, EPS);

	assert_int_equal(a.counts[SS_KIND_H2D], 2);
	assert_int_equal(a.counts[SS_KIND_KERNEL], 1);
	assert_int_equal(a.counts[SS_KIND_D2H], 1);
	assert_int_equal(a.counts[SS_KIND_API], 1);
	assert_int_equal(a.counts[SS_KIND_SYNC], 1);
	assert_int_equal(a.counts[SS_KIND_MEMSET], 0);
	/* comparison and observer fields stay empty until asked for */
	assert_false(a.have_speedup);
	assert_false(a.have_bound);
	assert_false(a.have_overhead);
	timeline_free(&t);
}

/* Pageable copies: the makespan runs from the first H2D's call (the host stages its data before the DMA) to the
 * last D2H's return (the host copies it out after); staging_ns is what that adds to the GPU records' span. A
 * pinned copy's call, however long, adds nothing. */
static void test_pageable_staging(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_API, SS_STREAM_HOST, 40, 160, 0); /* the H2D's call */
	t.rec[t.n - 1].correlation = 1;
	add(&t, SS_KIND_H2D, 0, 100, 200, 1000);
	t.rec[t.n - 1].correlation = 1;
	t.rec[t.n - 1].flags = SS_REC_PAGEABLE;
	add(&t, SS_KIND_KERNEL, 0, 210, 400, 0);
	add(&t, SS_KIND_API, SS_STREAM_HOST, 150, 650, 0); /* the D2H's call: waits, copies, stages out */
	t.rec[t.n - 1].correlation = 2;
	add(&t, SS_KIND_D2H, 0, 410, 500, 500);
	t.rec[t.n - 1].correlation = 2;
	t.rec[t.n - 1].flags = SS_REC_PAGEABLE;
	analysis_timeline(&t, &a);
	assert_int_equal(a.t0, 40);
	assert_int_equal(a.t1, 650);
	assert_int_equal(a.makespan_ns, 610);
	assert_int_equal(a.staging_ns, 60 + 150);
	assert_near(a.eng[SS_ENG_H2D].util, 100.0 / 610.0, EPS);
	/* the same copies from pinned memory: their calls are not the copies' work */
	t.rec[1].flags = t.rec[4].flags = SS_REC_PINNED;
	analysis_timeline(&t, &a);
	assert_int_equal(a.t0, 100);
	assert_int_equal(a.t1, 500);
	assert_int_equal(a.staging_ns, 0);
	timeline_free(&t);
}

/* Time with two or more engines busy counts once, however many engines are busy. */
static void test_overlap_two_or_more(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 100, 0);
	add(&t, SS_KIND_KERNEL, 1, 0, 100, 0);
	add(&t, SS_KIND_D2H, 2, 0, 100, 0);
	analysis_timeline(&t, &a);
	assert_int_equal(a.makespan_ns, 100);
	assert_int_equal(a.overlap_ns, 100);
	assert_near(a.overlap, 1.0, EPS);
	timeline_free(&t);

	/* [0,50) one engine, [50,75) two, [75,100) three, [100,150) two, [150,200) one: 100 ns */
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 100, 0);
	add(&t, SS_KIND_KERNEL, 0, 50, 150, 0);
	add(&t, SS_KIND_D2H, 0, 75, 200, 0);
	analysis_timeline(&t, &a);
	assert_int_equal(a.makespan_ns, 200);
	assert_int_equal(a.overlap_ns, 100);
	assert_near(a.overlap, 0.5, EPS);
	timeline_free(&t);
}

/* Touching intervals do not overlap; intervals of one engine never overlap each other. */
static void test_touching_and_same_engine(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 100, 0);
	add(&t, SS_KIND_KERNEL, 0, 100, 200, 0);
	add(&t, SS_KIND_D2H, 0, 200, 300, 0);
	analysis_timeline(&t, &a);
	assert_int_equal(a.makespan_ns, 300);
	assert_int_equal(a.overlap_ns, 0);
	assert_near(a.eng[SS_ENG_COMPUTE].util, 1.0 / 3.0, EPS);
	timeline_free(&t);

	/* two concurrent kernels and two back-to-back kernels: one engine, no overlap */
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 100, 0);
	add(&t, SS_KIND_KERNEL, 1, 50, 150, 0);
	add(&t, SS_KIND_KERNEL, 2, 150, 250, 0);
	analysis_timeline(&t, &a);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].busy_ns, 250);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].sum_ns, 300);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].count, 3);
	assert_int_equal(a.overlap_ns, 0);
	assert_near(a.eng[SS_ENG_COMPUTE].util, 1.0, EPS);
	timeline_free(&t);

	/* memsets and device-to-device copies run on the compute side */
	timeline_init(&t);
	add(&t, SS_KIND_MEMSET, 0, 0, 10, 64);
	add(&t, SS_KIND_D2D, 0, 20, 30, 64);
	add(&t, SS_KIND_H2D, 0, 5, 25, 64);
	analysis_timeline(&t, &a);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].busy_ns, 20);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].count, 2);
	assert_int_equal(a.overlap_ns, 10); /* [5,10) and [20,25) */
	assert_int_equal(a.makespan_ns, 30);
	timeline_free(&t);
}

/* Empty and host-only timelines: zeros, no division by zero; zero-length records count but are not busy. */
static void test_degenerate(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a;

	(void)state;
	timeline_init(&t);
	analysis_timeline(&t, &a);
	assert_int_equal(a.makespan_ns, 0);
	assert_int_equal(a.overlap_ns, 0);
	assert_near(a.overlap, 0.0, 0.0);
	assert_near(a.eng[SS_ENG_H2D].util, 0.0, 0.0);

	add(&t, SS_KIND_API, SS_STREAM_HOST, 10, 500, 0);
	analysis_timeline(&t, &a);
	assert_int_equal(a.makespan_ns, 0);
	assert_int_equal(a.counts[SS_KIND_API], 1);

	add(&t, SS_KIND_H2D, 0, 0, 100, 8);
	add(&t, SS_KIND_KERNEL, 0, 150, 150, 0);
	analysis_timeline(&t, &a);
	assert_int_equal(a.makespan_ns, 150);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].count, 1);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].busy_ns, 0);
	assert_int_equal(a.eng[SS_ENG_COMPUTE].sum_ns, 0);
	assert_int_equal(a.overlap_ns, 0);
	timeline_free(&t);
}

static void test_engine_of(void **state)
{
	(void)state;
	assert_int_equal(analysis_engine_of(SS_KIND_H2D), SS_ENG_H2D);
	assert_int_equal(analysis_engine_of(SS_KIND_D2H), SS_ENG_D2H);
	assert_int_equal(analysis_engine_of(SS_KIND_KERNEL), SS_ENG_COMPUTE);
	assert_int_equal(analysis_engine_of(SS_KIND_MEMSET), SS_ENG_COMPUTE);
	assert_int_equal(analysis_engine_of(SS_KIND_D2D), SS_ENG_COMPUTE);
	assert_int_equal(analysis_engine_of(SS_KIND_API), -1);
	assert_int_equal(analysis_engine_of(SS_KIND_SYNC), -1);
	assert_int_equal(analysis_engine_of(SS_KIND_MARKER), -1);
	assert_int_equal(analysis_engine_of(99), -1);
}

static void test_union_per_stream(void **state)
{
	struct ss_timeline t;
	unsigned h2d = SS_KIND_BIT(SS_KIND_H2D), ker = SS_KIND_BIT(SS_KIND_KERNEL);

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 100, 0);
	add(&t, SS_KIND_H2D, 1, 50, 150, 0);
	add(&t, SS_KIND_KERNEL, 0, 200, 300, 0);
	add(&t, SS_KIND_KERNEL, 0, 250, 260, 0);
	add(&t, SS_KIND_API, SS_STREAM_HOST, 0, 1000, 0);
	assert_int_equal(analysis_union_ns(&t, h2d, INT32_MIN), 150);
	assert_int_equal(analysis_union_ns(&t, h2d, 1), 100);
	assert_int_equal(analysis_union_ns(&t, h2d | ker, 0), 200);
	assert_int_equal(analysis_union_ns(&t, SS_GPU_KINDS, INT32_MIN), 250);
	assert_int_equal(analysis_union_ns(&t, SS_GPU_KINDS, 5), 0);
	assert_int_equal(analysis_union_ns(&t, SS_KIND_BIT(SS_KIND_API), SS_STREAM_HOST), 1000);
	timeline_free(&t);
}

/* A brute-force oracle: 3000 random intervals on [0, 4096), busy and overlap counted nanosecond by nanosecond. */
static void test_random_against_brute_force(void **state)
{
	enum { SPAN = 4096, N = 3000 };
	static unsigned char busy[SS_ENG_COUNT][SPAN];
	static const int kinds[SS_ENG_COUNT] = {SS_KIND_H2D, SS_KIND_KERNEL, SS_KIND_D2H};
	struct ss_timeline t;
	struct ss_analysis a;
	uint64_t seed = 12345, lo = SPAN, hi = 0, want_busy[SS_ENG_COUNT] = {0}, want_overlap = 0;

	(void)state;
	memset(busy, 0, sizeof busy);
	timeline_init(&t);
	for (int i = 0; i < N; i++) {
		uint64_t s, len;
		int e;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		e = (int)((seed >> 33) % SS_ENG_COUNT);
		s = (seed >> 13) % (SPAN - 64);
		len = (seed >> 45) % 40;
		add(&t, kinds[e], e, s, s + len, 0);
		for (uint64_t x = s; x < s + len; x++)
			busy[e][x] = 1;
		if (s < lo)
			lo = s;
		if (s + len > hi)
			hi = s + len;
	}
	for (int x = 0; x < SPAN; x++) {
		int n = 0;

		for (int e = 0; e < SS_ENG_COUNT; e++) {
			want_busy[e] += busy[e][x];
			n += busy[e][x];
		}
		want_overlap += n >= 2;
	}
	analysis_timeline(&t, &a);
	assert_int_equal(a.makespan_ns, hi - lo);
	for (int e = 0; e < SS_ENG_COUNT; e++)
		assert_int_equal(a.eng[e].busy_ns, want_busy[e]);
	assert_int_equal(a.overlap_ns, want_overlap);
	timeline_free(&t);
}

/* T(n) = (h + k + d)/n + (n - 1)/n * max(h, k, d); for h = k = d its ratio to the serial h + k + d is (n+2)/(3n). */
static void test_bound(void **state)
{
	(void)state;
	assert_int_equal(analysis_bound(300, 300, 300, 1), 900);
	assert_int_equal(analysis_bound(300, 300, 300, 2), 600);
	assert_int_equal(analysis_bound(300, 300, 300, 3), 500);
	assert_int_equal(analysis_bound(300, 300, 300, 4), 450);
	assert_int_equal(analysis_bound(100, 400, 200, 1), 700);
	assert_int_equal(analysis_bound(100, 400, 200, 2), 550); /* 350 + 200 */
	assert_int_equal(analysis_bound(100, 400, 200, 4), 475); /* 175 + 300 */
	assert_int_equal(analysis_bound(900, 100, 200, 8), 938); /* 150 + 787.5, rounded */
	assert_int_equal(analysis_bound(0, 1000, 0, 10), 1000);  /* one phase only: no gain from streams */
	for (int n = 1; n <= 128; n++) {
		uint64_t x = 1000003; /* prime: most n do not divide it */
		uint64_t want = (2 * x * (uint64_t)(n + 2) + (uint64_t)n) / (2 * (uint64_t)n);
		uint64_t got = analysis_bound(x, x, x, n);
		double ratio = (double)got / (double)(3 * x);

		assert_in_range(got, want - 1, want + 1);
		assert_near(ratio, (double)(n + 2) / (3.0 * n), 1e-6);
	}
	/* the limit for many chunks is the largest phase */
	assert_in_range(analysis_bound(1000000, 3000000, 2000000, 128), 3023438 - 1,
	                3023438 + 1); /* 46875 + 2976562.5 */
}

/* speedup = one-stream makespan / makespan; bound from the one-stream phase totals; gap = makespan / bound - 1. */
static void test_compare(void **state)
{
	struct ss_timeline t1;
	struct ss_analysis one, a;

	(void)state;
	timeline_init(&t1);
	add(&t1, SS_KIND_H2D, 0, 0, 300, 0);
	add(&t1, SS_KIND_KERNEL, 0, 300, 700, 0);
	add(&t1, SS_KIND_D2H, 0, 700, 1000, 0);
	analysis_timeline(&t1, &one);
	assert_int_equal(one.makespan_ns, 1000);

	memset(&a, 0, sizeof a);
	a.makespan_ns = 605;
	analysis_compare(&a, &one, 4, 605, 1000, 1.0);
	assert_true(a.have_speedup);
	assert_near(a.speedup, 1000.0 / 605.0, 1e-12);
	assert_int_equal(a.h_ns, 300);
	assert_int_equal(a.k_ns, 400);
	assert_int_equal(a.d_ns, 300);
	assert_int_equal(a.n, 4);
	assert_true(a.have_bound);
	assert_int_equal(a.bound_ns, 550); /* 1000/4 + 3/4 * 400 */
	assert_near(a.gap, 0.1, 1e-12);

	/* the one-stream run against itself: speedup 1, bound = serial time, gap 0 */
	analysis_compare(&one, &one, 1, 1000, 1000, 1.0);
	assert_near(one.speedup, 1.0, 0.0);
	assert_int_equal(one.bound_ns, 1000);
	assert_near(one.gap, 0.0, 1e-12);

	/* the makespans passed in are what is compared (e.g. untraced ones), not the timeline's */
	memset(&a, 0, sizeof a);
	a.makespan_ns = 9999;
	analysis_compare(&a, &one, 2, 500, 800, 1.0);
	assert_near(a.speedup, 1.6, 1e-12);
	assert_int_equal(a.bound_ns, 700); /* 1000/2 + 1/2 * 400 */
	assert_near(a.gap, 500.0 / 700.0 - 1.0, 1e-12);

	/* a one-stream run whose span is short of work (its copies not recorded): a speedup, but no bound */
	one.span_short = true;
	memset(&a, 0, sizeof a);
	analysis_compare(&a, &one, 4, 605, 1000, 1.0);
	assert_true(a.have_speedup);
	assert_false(a.have_bound);
	one.span_short = false;

	/* copies and kernels a small part of the one-stream run (document 004's host work between its kernels): a
	 * speedup, no bound; at the threshold, a bound */
	memset(&a, 0, sizeof a);
	analysis_compare(&a, &one, 4, 2000, 1000 / ANALYSIS_PHASES_MIN + 1, 1.0);
	assert_true(a.have_speedup);
	assert_true(a.phases_short);
	assert_false(a.have_bound);
	assert_near(a.phase_share, 1000 / (1000 / ANALYSIS_PHASES_MIN + 1), 1e-12);
	memset(&a, 0, sizeof a);
	analysis_compare(&a, &one, 4, 2000, 1000 / ANALYSIS_PHASES_MIN, 1.0);
	assert_false(a.phases_short);
	assert_true(a.have_bound);
	assert_near(a.phase_share, ANALYSIS_PHASES_MIN, 1e-12);

	/* a run over two GPUs (--devices 2): a speedup, no bound (it is one GPU's engines; the multi-GPU example's
	 * sweep showed gaps of -47%) */
	{
		struct ss_timeline t;
		struct ss_analysis two;

		timeline_init(&t);
		add(&t, SS_KIND_H2D, 0, 0, 100, 1000);
		add(&t, SS_KIND_H2D, 1, 0, 100, 1000);
		t.rec[1].device = 1;
		analysis_timeline(&t, &two);
		assert_int_equal(two.devices, 2);
		analysis_compare(&two, &one, 4, 400, 1000, 1.0);
		assert_true(two.have_speedup);
		assert_false(two.have_bound);
		t.rec[1].device = 0;
		analysis_timeline(&t, &two);
		assert_int_equal(two.devices, 1);
		analysis_compare(&two, &one, 4, 400, 1000, 1.0);
		assert_true(two.have_bound);
		timeline_free(&t);
	}

	/* nothing to compare */
	memset(&a, 0, sizeof a);
	analysis_compare(&a, &one, 4, 0, 1000, 1.0);
	assert_false(a.have_speedup);
	assert_false(a.have_bound);
	timeline_free(&t1);
	timeline_init(&t1);
	analysis_timeline(&t1, &one); /* an empty one-stream run: no phases, no bound */
	memset(&a, 0, sizeof a);
	analysis_compare(&a, &one, 4, 500, 1000, 1.0);
	assert_true(a.have_speedup);
	assert_false(a.have_bound);
	timeline_free(&t1);
}

static struct ss_analysis analysed(uint64_t makespan)
{
	struct ss_timeline t;
	struct ss_analysis a;

	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 0, 1000, 1000 + makespan, 0);
	analysis_timeline(&t, &a);
	timeline_free(&t);
	return a;
}

static struct ss_run_result measured(uint64_t events, uint64_t traced, uint64_t untraced, bool have_untraced)
{
	struct ss_run_result r;

	memset(&r, 0, sizeof r);
	r.events_ns_of_captured = events;
	r.traced_ns = traced;
	r.untraced_ns = untraced;
	r.have_untraced = have_untraced;
	return r;
}

/* Tracing overhead above 1% switches speedups and bounds to the untraced makespan. */
static void test_observer(void **state)
{
	struct ss_analysis a;
	struct ss_run_result r;

	(void)state;
	a = analysed(990);
	analysis_observer(&a, NULL);
	assert_int_equal(a.used_ns, 990);
	assert_false(a.have_events);
	assert_false(a.have_overhead);
	assert_false(a.used_untraced);

	r = measured(1000, 2000, 1000, true);
	r.modelled = true; /* the model has no observer effect, but times its runs as their events would */
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_int_equal(a.used_ns, 990);
	assert_true(a.have_events);
	assert_int_equal(a.events_ns, 1000);
	assert_false(a.have_overhead);

	r = measured(1000, 1050000, 1000000, true); /* 5% */
	r.untraced_min_ns = 980000;
	r.untraced_max_ns = 1030000;
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_true(a.have_events);
	assert_int_equal(a.events_ns, 1000);
	assert_near(a.cupti_vs_events, -0.01, 1e-12);
	assert_true(a.have_overhead);
	assert_int_equal(a.traced_ns, 1050000);
	assert_int_equal(a.untraced_ns, 1000000);
	assert_int_equal(a.untraced_min_ns, 980000); /* the untraced repeats' range, for the claims */
	assert_int_equal(a.untraced_max_ns, 1030000);
	assert_near(a.overhead, 0.05, 1e-12);
	assert_true(a.used_untraced);
	assert_int_equal(a.used_ns, 1000000);
	assert_false(a.untraced_detached); /* the run did not say its twins ran without CUPTI */
	r.untraced_detached = true;
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_true(a.untraced_detached);

	r = measured(0, 1005000, 1000000, true); /* 0.5%: the traced (CUPTI) makespan stands */
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_false(a.have_events);
	assert_true(a.have_overhead);
	assert_near(a.overhead, 0.005, 1e-12);
	assert_false(a.used_untraced);
	assert_int_equal(a.used_ns, 990);

	r = measured(0, 1010001, 1000000, true); /* just over 1% */
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_true(a.used_untraced);
	assert_int_equal(a.used_ns, 1000000);

	r = measured(0, 1005000, 1000000, true); /* the per-repeat spread comes along, only when known */
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_false(a.have_spread);
	r.have_spread = true;
	r.overhead_q1 = -0.002;
	r.overhead_q3 = 0.017;
	analysis_observer(&a, &r);
	assert_true(a.have_spread);
	assert_near(a.overhead_q1, -0.002, 1e-12);
	assert_near(a.overhead_q3, 0.017, 1e-12);

	/* a CUPTI span short of work (prefetches without their events): the untraced makespan, whatever the
	 * overhead */
	r = measured(0, 1005000, 1000000, true);
	r.span_short = true;
	a = analysed(740);
	analysis_observer(&a, &r);
	assert_true(a.span_short);
	assert_true(a.used_untraced);
	assert_int_equal(a.used_ns, 1000000);

	r = measured(0, 990000, 1000000, true); /* tracing made it faster: nothing to correct */
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_true(a.have_overhead);
	assert_near(a.overhead, -0.01, 1e-12);
	assert_false(a.used_untraced);

	r = measured(1000, 1050000, 1000000, false); /* no untraced twin */
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_true(a.have_events);
	assert_false(a.have_overhead);
	assert_false(a.used_untraced);
	assert_int_equal(a.used_ns, 990);
}

/* "where the overhead exceeds 1%": exactly 1% does not exceed it. */
static void test_observer_exactly_one_percent(void **state)
{
	struct ss_analysis a;
	struct ss_run_result r;

	(void)state;
	r = measured(0, 1010000, 1000000, true);
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_true(a.have_overhead);
	assert_false(a.used_untraced);
	assert_int_equal(a.used_ns, 990);
	r = measured(0, 101, 100, true);
	a = analysed(990);
	analysis_observer(&a, &r);
	assert_false(a.used_untraced);
}

/* Streams with work of their own (hyperq: each its kernels) are compared with that work issued serially: the
 * one-stream run scaled by the work ratio, which the planner counts; no pipeline bound then. */
static void test_compare_same_work(void **state)
{
	struct ss_analysis a, one;
	struct ss_experiment e, ref;
	struct ss_oplist ops;

	(void)state;
	memset(&a, 0, sizeof a);
	memset(&one, 0, sizeof one);
	one.eng[SS_ENG_COMPUTE].busy_ns = 100;
	analysis_compare(&a, &one, 32, 500, 100, 32.0);
	assert_true(a.have_speedup);
	assert_near(a.speedup, 32.0 * 100 / 500, 1e-12);
	assert_false(a.have_bound);
	experiment_preset(&e, SS_PRESET_HYPERQ);
	ref = e;
	ref.streams = 1;
	ref.threads = 1;
	planner_build(&e, &ops);
	assert_near(planner_work_ratio(&ops, &ref), (double)e.streams, 1e-9);
	planner_free(&ops);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	ref = e;
	ref.streams = 1;
	ref.chunks = 0;
	planner_build(&e, &ops);
	assert_near(planner_work_ratio(&ops, &ref), 1.0, 1e-9);
	planner_free(&ops);
}

/* concurrency_brute is analysis_kernel_concurrency's definition, quadratic: at each kernel's start, 1 + the
 * earlier-starting kernels of other streams still running. */
static int concurrency_brute(const struct ss_timeline *t)
{
	int best = 0;

	for (size_t i = 0; i < t->n; i++) {
		int n = 1;

		if (t->rec[i].kind != SS_KIND_KERNEL || t->rec[i].stream < 0)
			continue;
		for (size_t j = 0; j < i; j++)
			if (t->rec[j].kind == SS_KIND_KERNEL && t->rec[j].stream >= 0 &&
			    t->rec[j].stream != t->rec[i].stream && t->rec[j].end > t->rec[i].start)
				n++;
		if (n > best)
			best = n;
	}
	return best;
}

/* analysis_kernel_concurrency (a heap sweep) against its quadratic definition on random timelines: kernels of up
 * to 6 streams, some of one stream touching or overlapping, copies and legacy-stream kernels mixed in. */
static void test_kernel_concurrency(void **state)
{
	unsigned seed = 12345;

	(void)state;
	for (int round = 0; round < 300; round++) {
		struct ss_timeline t;
		int n = 1 + round % 60;

		timeline_init(&t);
		for (int i = 0; i < n; i++) {
			struct ss_record r;

			memset(&r, 0, sizeof r);
			seed = seed * 1103515245u + 12345u;
			r.kind = (seed >> 16) % 5 == 0 ? SS_KIND_H2D : SS_KIND_KERNEL;
			r.stream = (int)((seed >> 8) % 7) - 1; /* -1 (legacy-like negative) .. 5 */
			seed = seed * 1103515245u + 12345u;
			r.start = (seed >> 8) % 1000;
			r.end = r.start + (seed >> 20) % 200;
			timeline_add(&t, &r);
		}
		timeline_sort(&t);
		assert_int_equal(analysis_kernel_concurrency(&t), concurrency_brute(&t));
		timeline_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_compare_same_work),
	    cmocka_unit_test(test_makespan_busy_overlap),
	    cmocka_unit_test(test_pageable_staging),
	    cmocka_unit_test(test_overlap_two_or_more),
	    cmocka_unit_test(test_touching_and_same_engine),
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test(test_engine_of),
	    cmocka_unit_test(test_union_per_stream),
	    cmocka_unit_test(test_random_against_brute_force),
	    cmocka_unit_test(test_bound),
	    cmocka_unit_test(test_compare),
	    cmocka_unit_test(test_observer),
	    cmocka_unit_test(test_observer_exactly_one_percent),
	    cmocka_unit_test(test_kernel_concurrency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
