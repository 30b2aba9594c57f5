/* test_insight_sched.c: the scheduling rules of core/insight (false-dependency, low-kernel-concurrency,
 * launch-bound, host-sync-order, managed-migration), each on a hand-made timeline that shows its pathology with
 * the evidence checked, and the same timeline changed so that the rule must stay silent. */
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

/* gpu appends GPU work of stream s (raw id s + 1) issued by call corr (0: none); returns its index. Tests add
 * records in start order where they keep the indices they return. */
static size_t gpu(struct ss_timeline *t, int kind, int s, uint64_t start, uint64_t end, uint32_t corr)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = s;
	r.raw_stream = (uint32_t)s + 1;
	r.start = start;
	r.end = end;
	r.correlation = corr;
	r.bytes = kind == SS_KIND_KERNEL ? 0 : 1u << 20;
	r.flags = kind == SS_KIND_KERNEL ? 0 : SS_REC_PINNED;
	timeline_add(t, &r);
	return t->n - 1;
}

/* host appends a host record (API or SYNC) of thread 0; raw is the waited-on stream's raw id for SYNC. */
static size_t host(struct ss_timeline *t, int kind, uint64_t start, uint64_t end, uint32_t corr, uint32_t raw)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = SS_STREAM_HOST;
	r.raw_stream = raw;
	r.start = start;
	r.end = end;
	r.correlation = corr;
	timeline_add(t, &r);
	return t->n - 1;
}

/* launch gives kernel record i a launch of blocks blocks. */
static void launch(struct ss_timeline *t, size_t i, uint32_t blocks)
{
	struct ss_launch l;

	memset(&l, 0, sizeof l);
	l.correlation = t->rec[i].correlation;
	l.raw_stream = t->rec[i].raw_stream;
	l.grid[0] = blocks;
	l.grid[1] = l.grid[2] = 1;
	l.block[0] = 128;
	l.block[1] = l.block[2] = 1;
	timeline_add_launch(t, &l);
}

static void run(struct ss_timeline *t, struct ss_insights *in)
{
	struct ss_analysis a;

	timeline_sort(t);
	analysis_timeline(t, &a);
	insight_analyze(t, &a, in);
}

static bool has_rec(const struct ss_insight *x, size_t i)
{
	for (size_t k = 0; k < x->nrec && k < SS_INSIGHT_MAX_RECS; k++)
		if (x->rec[k] == i)
			return true;
	return false;
}

/* find returns the index of stream s's first record of kind (after timeline_sort). */
static size_t find(const struct ss_timeline *t, int kind, int s)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == kind && t->rec[i].stream == s)
			return i;
	return t->n;
}

/* One hardware queue, depth-first: stream s's H2D, issued at once, waits until stream s-1's kernel has ended (its
 * D2H is ahead in the queue), though the H2D engine is idle. queued false: the same streams pipelined. */
static void one_queue(struct ss_timeline *t, bool queued)
{
	uint32_t corr = 1;

	for (int s = 0; s < 3; s++)
		host(t, SS_KIND_API, (uint64_t)s * 3 * US, (uint64_t)s * 3 * US + 2 * US, corr + 3 * (uint32_t)s, 0);
	for (int s = 0; s < 3; s++) {
		uint64_t b = queued ? (uint64_t)s * 1100 * US : (uint64_t)s * 100 * US + 10 * US;

		gpu(t, SS_KIND_H2D, s, b, b + 100 * US, corr + 3 * (uint32_t)s);
	}
	for (int s = 0; s < 3; s++) {
		uint64_t k = queued ? (uint64_t)s * 1100 * US + 100 * US : (uint64_t)s * 1000 * US + 110 * US;

		gpu(t, SS_KIND_KERNEL, s, k, k + 1000 * US, 0);
		gpu(t, SS_KIND_D2H, s, k + 1000 * US, k + 1100 * US, 0);
	}
}

static void test_false_dependency(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t h2d[3];

	(void)state;
	timeline_init(&t);
	one_queue(&t, true);
	run(&t, &in);
	for (int s = 0; s < 3; s++)
		h2d[s] = find(&t, SS_KIND_H2D, s);
	assert_non_null(x = insight_find(&in, "false-dependency"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_int_equal(x->nrec, 2);
	assert_true(has_rec(x, h2d[1]));
	assert_true(has_rec(x, h2d[2]));
	assert_false(has_rec(x, h2d[0]));
	/* stream 1's H2D could start at 100 us (the engine free), started at 1100; stream 2's at 2200 */
	assert_true(x->have_gain);
	assert_true(x->gain_ns <= (1000 + 2100) * US);
	assert_non_null(strstr(x->summary, "2 operations"));
	/* both waited over 100-1100 us, stream 2's over 1200-2200 us too: 2 ms (3 ms summed) */
	assert_non_null(strstr(x->summary, "2.000 ms"));
	timeline_free(&t);

	timeline_init(&t);
	one_queue(&t, false);
	run(&t, &in);
	assert_null(insight_find(&in, "false-dependency"));
	timeline_free(&t);
}

/* One hardware queue, depth first: stream 0's H2D (0-300 us), its kernel (300-600) and its D2H (600-900), then the
 * 20 us kernels of streams 1-3, all issued at 250 us: each waits behind stream 0's dependent steps and the kernels
 * ahead of it, the compute engine idle over 250-300 and 600-900 us; the run ends at 960 us. h2d: stream 4's 20 us H2D,
 * issued at 250 too, waits behind stream 3's kernel (960-980 us) with the H2D engine idle from 300 us. */
static void waiting_together(struct ss_timeline *t, bool h2d, size_t k[3])
{
	host(t, SS_KIND_API, 0, 2 * US, 1, 0);
	for (uint32_t s = 1; s <= (h2d ? 4u : 3u); s++)
		host(t, SS_KIND_API, 248 * US, 250 * US, s + 1, 0);
	gpu(t, SS_KIND_H2D, 0, 0, 300 * US, 1);
	gpu(t, SS_KIND_KERNEL, 0, 300 * US, 600 * US, 0);
	gpu(t, SS_KIND_D2H, 0, 600 * US, 900 * US, 0);
	for (int s = 1; s <= 3; s++)
		k[s - 1] = gpu(t, SS_KIND_KERNEL, s, (880 + 20 * (uint64_t)s) * US, (900 + 20 * (uint64_t)s) * US,
		               (uint32_t)s + 1);
	if (h2d)
		gpu(t, SS_KIND_H2D, 4, 960 * US, 980 * US, 5);
}

/* Operations that waited at the same time count once: the three kernels each waited 350 us with the compute engine
 * idle, the same 350 us (250-300 and 600-900 us), which is all that running them earlier could save; the sum,
 * 1.05 ms, is more than the 960 us run. Waits on different engines at once count once too. */
static void test_false_dependency_together(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t k[3];

	(void)state;
	timeline_init(&t);
	waiting_together(&t, false, k);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "false-dependency"));
	assert_int_equal(x->nrec, 3);
	assert_true(has_rec(x, k[0]) && has_rec(x, k[1]) && has_rec(x, k[2]));
	assert_true(x->have_gain);
	assert_int_equal(x->gain_ns, 350 * US);
	assert_non_null(strstr(x->summary, "350 us"));
	assert_non_null(strstr(x->evidence, "350 us"));
	timeline_free(&t);

	/* stream 4's H2D waited over 300-960 us on its idle engine: 250-960 us in all, 710 us; the gain stays capped at
	 * the makespan (980 us) less the compute engine's 360 us */
	timeline_init(&t);
	waiting_together(&t, true, k);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "false-dependency"));
	assert_int_equal(x->nrec, 4);
	assert_non_null(strstr(x->summary, "710 us"));
	assert_non_null(strstr(x->evidence, "710 us"));
	assert_int_equal(x->gain_ns, 620 * US);
	timeline_free(&t);
}

/* Four streams' single-block kernels, all issued at once, run one after another (serialised). big: kernels of
 * 200 blocks, which may fill the GPU, so their serialisation is no finding. */
static void serial_kernels(struct ss_timeline *t, uint32_t blocks, size_t k[4])
{
	for (int s = 0; s < 4; s++)
		host(t, SS_KIND_API, (uint64_t)s * US, (uint64_t)s * US + US / 2, (uint32_t)s + 1, 0);
	for (int s = 0; s < 4; s++) {
		k[s] = gpu(t, SS_KIND_KERNEL, s, 10 * US + (uint64_t)s * 100 * US, 110 * US + (uint64_t)s * 100 * US,
		           (uint32_t)s + 1);
		launch(t, k[s], blocks);
	}
}

static void test_low_kernel_concurrency(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t k[4];

	(void)state;
	timeline_init(&t);
	serial_kernels(&t, 1, k);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "low-kernel-concurrency"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_int_equal(x->nrec, 3);
	assert_false(has_rec(x, k[0]));
	assert_true(has_rec(x, k[1]) && has_rec(x, k[2]) && has_rec(x, k[3]));
	assert_true(x->have_gain);
	/* ready at 1.5, 2.5, 3.5 us, started at 110, 210, 310: they waited together, from the first kernel's start at
	 * 10 us (the work span's) to 310 us, 300 us, what running the four together saves (their waits summed, 622.5
	 * us, are more than the 400 us run) */
	assert_int_equal(x->gain_ns, 300 * US);
	assert_non_null(strstr(x->evidence, "300 us"));
	assert_null(insight_find(&in, "false-dependency")); /* the compute engine was busy: no false dependency */
	timeline_free(&t);

	timeline_init(&t);
	serial_kernels(&t, 200, k);
	run(&t, &in);
	assert_null(insight_find(&in, "low-kernel-concurrency"));
	timeline_free(&t);
}

static void test_low_kernel_concurrency_one_stream(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	for (int big = 0; big < 2; big++) {
		timeline_init(&t);
		for (int i = 0; i < 20; i++)
			launch(&t,
			       gpu(&t, SS_KIND_KERNEL, 0, (uint64_t)i * 50 * US, (uint64_t)(i + 1) * 50 * US,
			           (uint32_t)i + 1),
			       big ? 4096 : 8);
		run(&t, &in);
		x = insight_find(&in, "low-kernel-concurrency");
		if (big) {
			assert_null(x);
		} else {
			assert_non_null(x);
			assert_int_equal(x->severity, SS_SEV_HINT);
			assert_int_equal(x->nrec, 20);
			assert_non_null(strstr(x->summary, "20 small kernels"));
		}
		timeline_free(&t);
	}
}

/* 100 one-microsecond kernels on 10 streams, each issued by a 10 us call right before it runs: the GPU waits for
 * the host. busy: 30 us kernels instead, which keep the GPU busy behind the calls. */
static void issue_paced(struct ss_timeline *t, uint64_t kernel_ns)
{
	for (uint32_t i = 0; i < 100; i++) {
		uint64_t c = (uint64_t)i * 10 * US;

		host(t, SS_KIND_API, c, c + 10 * US, i + 1, 0);
		gpu(t, SS_KIND_KERNEL, (int)(i % 10), c + 11 * US, c + 11 * US + kernel_ns, i + 1);
	}
}

static void test_launch_bound(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	timeline_init(&t);
	issue_paced(&t, 1 * US);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "launch-bound"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_non_null(strstr(x->evidence, "100 GPU operations, 100 of them issued after"));
	assert_false(x->have_gain);
	timeline_free(&t);

	timeline_init(&t);
	issue_paced(&t, 30 * US);
	run(&t, &in);
	assert_null(insight_find(&in, "launch-bound"));
	timeline_free(&t);
}

/* Stream 0's kernel takes 1000 us, stream 1's 100 us. The host waits on stream reverse ? 0 then 1 : 1 then 0, and
 * works 300 us between the waits. */
static void two_waits(struct ss_timeline *t, bool wrong, size_t *first_wait)
{
	gpu(t, SS_KIND_KERNEL, 0, 0, 1000 * US, 0);
	gpu(t, SS_KIND_KERNEL, 1, 0, 100 * US, 0);
	if (wrong) {
		*first_wait = host(t, SS_KIND_SYNC, 10 * US, 1000 * US, 0, 1);
		host(t, SS_KIND_API, 1000 * US, 1300 * US, 0, 0);
		host(t, SS_KIND_SYNC, 1300 * US, 1301 * US, 0, 2);
	} else {
		*first_wait = host(t, SS_KIND_SYNC, 10 * US, 100 * US, 0, 2);
		host(t, SS_KIND_API, 100 * US, 400 * US, 0, 0);
		host(t, SS_KIND_SYNC, 400 * US, 1000 * US, 0, 1);
	}
}

static void test_host_sync_order(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t w;

	(void)state;
	timeline_init(&t);
	two_waits(&t, true, &w);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "host-sync-order"));
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_int_equal(x->nrec, 1);
	assert_int_equal(x->rec[0], w);
	assert_true(x->have_gain);
	assert_int_equal(x->gain_ns, 300 * US); /* the host work after the wait, under the 900 us waited in vain */
	timeline_free(&t);

	timeline_init(&t);
	two_waits(&t, false, &w);
	run(&t, &in);
	assert_null(insight_find(&in, "host-sync-order"));
	timeline_free(&t);
}

/* A 1000 us kernel during which eight 50 us on-demand migrations ran; how: 0 faults, 1 prefetches by name, 2
 * prefetches timed with events, 3 faults, and the same eight again on a second stream at the same instants (another
 * buffer faulting in together). m gets the migrations' indices. */
static void migrations(struct ss_timeline *t, int how, size_t m[16])
{
	int n = how == 3 ? 16 : 8;

	gpu(t, SS_KIND_KERNEL, 0, 0, 1000 * US, 0);
	for (int i = 0; i < n; i++) {
		struct ss_record r;

		memset(&r, 0, sizeof r);
		r.kind = SS_KIND_H2D;
		r.stream = i / 8;
		r.raw_stream = (uint32_t)(i / 8) + 1;
		r.start = 10 * US + (uint64_t)(i % 8) * 100 * US;
		r.end = r.start + 50 * US;
		r.bytes = 2u << 20;
		r.flags = SS_REC_MANAGED | (how == 2 ? SS_REC_EVENT_TIMED : 0);
		r.name =
		    timeline_intern(t, how == 1 ? "Unified memory H2D (prefetch)" : "Unified memory H2D (unknown)");
		timeline_add(t, &r);
		m[i] = t->n - 1;
	}
}

static void test_managed_migration(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t m[16];

	(void)state;
	timeline_init(&t);
	migrations(&t, 0, m);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "managed-migration"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_int_equal(x->nrec, 8);
	for (int i = 0; i < 8; i++)
		assert_true(has_rec(x, m[i]));
	assert_non_null(strstr(x->evidence, "16.0 MiB covering 400 us, 400 us of them while a kernel ran"));
	assert_int_equal(x->gain_ns, 400 * US);
	timeline_free(&t);
	for (int how = 1; how <= 2; how++) {
		timeline_init(&t);
		migrations(&t, how, m);
		run(&t, &in);
		assert_null(insight_find(&in, "managed-migration"));
		timeline_free(&t);
	}
}

/* Migrations on two streams at once: the time they took, the time of it a kernel ran and the gain count each instant
 * once (400 us, not the 800 us the sixteen add up to). */
static void test_managed_migration_together(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t m[16];

	(void)state;
	timeline_init(&t);
	migrations(&t, 3, m);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "managed-migration"));
	assert_int_equal(x->nrec, 16);
	assert_non_null(
	    strstr(x->summary, "16 on-demand unified-memory migrations took 400 us (40.0% of the makespan)"));
	assert_non_null(strstr(x->evidence, "32.0 MiB covering 400 us, 400 us of them while a kernel ran"));
	assert_int_equal(x->gain_ns, 400 * US);
	timeline_free(&t);
}

/* A program that allocates managed memory: 3 runs of one kernel at 5 ms (faulting its data in), then 4 at 100 us
 * (resident); how: 0 as is, 1 with a cudaMemPrefetchAsync call too, 2 without the managed allocation. */
static void faulting(struct ss_timeline *t, int how, size_t slow[3])
{
	struct ss_record r;
	uint64_t at = 100 * US;

	memset(&r, 0, sizeof r);
	r.kind = SS_KIND_API;
	r.stream = SS_STREAM_HOST;
	r.start = 0;
	r.end = 10 * US;
	r.name = timeline_intern(t, how == 2 ? "cudaMalloc" : "cudaMallocManaged");
	timeline_add(t, &r);
	if (how == 1) {
		r.start = 20 * US;
		r.end = 30 * US;
		r.name = timeline_intern(t, "cudaMemPrefetchAsync");
		timeline_add(t, &r);
	}
	for (int i = 0; i < 7; i++) {
		uint64_t d = i < 3 ? 5000 * US : 100 * US;
		size_t k = gpu(t, SS_KIND_KERNEL, 0, at, at + d, 0);

		t->rec[k].name = timeline_intern(t, "app_sum");
		if (i < 3)
			slow[i] = k;
		at += d;
	}
}

static void test_managed_faults(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t slow[3];

	(void)state;
	timeline_init(&t);
	faulting(&t, 0, slow);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "managed-migration"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_int_equal(x->nrec, 3);
	for (int i = 0; i < 3; i++)
		assert_true(has_rec(x, slow[i]));
	assert_int_equal(x->gain_ns, 3 * 4900 * US); /* beyond the median, 100 us */
	timeline_free(&t);
	for (int how = 1; how <= 2; how++) {
		timeline_init(&t);
		faulting(&t, how, slow);
		run(&t, &in);
		assert_null(insight_find(&in, "managed-migration"));
		timeline_free(&t);
	}
}

/* A program that allocates managed memory, two streams each running 3 runs of one kernel at 5 ms (faulting their
 * buffers in), stream 1's off ns after stream 0's, then 4 at 100 us (resident). Each slow run ends 4.9 ms after a run
 * as long as the median, 100 us, would have: stream 0's are late in [200 us, 5.1 ms), [5.2, 10.1) and [10.2, 15.1),
 * stream 1's off later. */
static void faulting_together(struct ss_timeline *t, uint64_t off)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = SS_KIND_API;
	r.stream = SS_STREAM_HOST;
	r.start = 0;
	r.end = 10 * US;
	r.name = timeline_intern(t, "cudaMallocManaged");
	timeline_add(t, &r);
	for (int s = 0; s < 2; s++) {
		uint64_t at = 100 * US + (s == 1 ? off : 0);

		for (int i = 0; i < 7; i++) {
			uint64_t d = i < 3 ? 5000 * US : 100 * US;
			size_t k = gpu(t, SS_KIND_KERNEL, s, at, at + d, 0);

			t->rec[k].name = timeline_intern(t, "app_sum");
			at += d;
		}
	}
}

/* Kernels faulting at once on two streams: the gain is the time over which some kernel ran late (the union of the
 * runs' last 4.9 ms), not the sum of their slowdowns, and never more than the makespan; the summary and evidence say
 * the same time. */
static void test_managed_faults_together(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	struct ss_analysis a;
	const struct ss_insight *x;

	(void)state;
	/* in step: the six runs' slowdowns add up to 29.4 ms of a 15.4 ms run; together they cost 14.7 ms */
	timeline_init(&t);
	faulting_together(&t, 0);
	timeline_sort(&t);
	analysis_timeline(&t, &a);
	insight_analyze(&t, &a, &in);
	assert_int_equal(a.makespan_ns, 15400 * US);
	assert_non_null(x = insight_find(&in, "managed-migration"));
	assert_int_equal(x->nrec, 6); /* the slow runs */
	for (size_t i = 0; i < t.n; i++)
		if (t.rec[i].kind == SS_KIND_KERNEL)
			assert_int_equal(has_rec(x, i), t.rec[i].end - t.rec[i].start == 5000 * US);
	assert_int_equal(x->gain_ns, 3 * 4900 * US);
	assert_non_null(strstr(x->summary, "for 14.70 ms of the run"));
	assert_non_null(strstr(x->evidence, "14.70 ms of the run (95.5% of the makespan"));
	timeline_free(&t);
	/* stream 1 a millisecond behind: late runs overlap in part, [200 us, 16.1 ms) of a 16.4 ms run */
	timeline_init(&t);
	faulting_together(&t, 1000 * US);
	timeline_sort(&t);
	analysis_timeline(&t, &a);
	insight_analyze(&t, &a, &in);
	assert_int_equal(a.makespan_ns, 16400 * US);
	assert_non_null(x = insight_find(&in, "managed-migration"));
	assert_int_equal(x->gain_ns, 15900 * US);
	assert_true(x->gain_ns <= a.makespan_ns);
	timeline_free(&t);
}

/* An imported trace's null stream: an indexed stream of kind legacy (Nsight Systems' TARGET_INFO_CUDA_STREAM flag
 * 3) whose kernel runs between two other streams' work, overlapping none of it: legacy-stream-sync names it. */
static void test_indexed_legacy(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;
	size_t k;

	(void)state;
	timeline_init(&t);
	gpu(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0);
	gpu(&t, SS_KIND_KERNEL, 1, 0, 100 * US, 0);
	k = gpu(&t, SS_KIND_KERNEL, 2, 100 * US, 200 * US, 0);
	gpu(&t, SS_KIND_KERNEL, 0, 200 * US, 300 * US, 0);
	gpu(&t, SS_KIND_KERNEL, 1, 200 * US, 300 * US, 0);
	timeline_set_stream(&t, 2, 3, SS_SKIND_LEGACY);
	run(&t, &in);
	assert_non_null(x = insight_find(&in, "legacy-stream-sync"));
	assert_int_equal(x->nrec, 1);
	assert_int_equal(x->rec[0], k);
	timeline_free(&t);
	/* the same stream of unknown kind: no legacy stream in sight */
	timeline_init(&t);
	gpu(&t, SS_KIND_KERNEL, 0, 0, 100 * US, 0);
	gpu(&t, SS_KIND_KERNEL, 2, 100 * US, 200 * US, 0);
	gpu(&t, SS_KIND_KERNEL, 0, 200 * US, 300 * US, 0);
	run(&t, &in);
	assert_null(insight_find(&in, "legacy-stream-sync"));
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_false_dependency),       cmocka_unit_test(test_false_dependency_together),
	    cmocka_unit_test(test_low_kernel_concurrency), cmocka_unit_test(test_low_kernel_concurrency_one_stream),
	    cmocka_unit_test(test_launch_bound),           cmocka_unit_test(test_host_sync_order),
	    cmocka_unit_test(test_managed_migration),      cmocka_unit_test(test_managed_migration_together),
	    cmocka_unit_test(test_managed_faults),         cmocka_unit_test(test_managed_faults_together),
	    cmocka_unit_test(test_indexed_legacy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
