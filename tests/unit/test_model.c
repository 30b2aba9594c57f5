/* test_model.c: the model backend against results that follow from its rules by hand: the ideal pipeline ratio
 * (n+2)/(3n) on ideal engines, the false dependencies of one hardware queue, the legacy default stream's
 * serialisation, chunk tails, determinism and record counts, and each mechanism of managed memory and of the copy
 * engines on hand-made op lists. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/planner.h"
#include "core/timeline.h"
#include "model/model.h"
#include "model/profile.h"
#include "run/runner.h"

/* One phase of the ideal test in ns: 2^22 floats = 16 MiB per array. */
#define PHASE 16777216ull

/* An ideal device: no latencies, no call costs, H2D twice as fast as D2H so the two input copies take as long as
 * the one output copy, both directions at full speed together, the add kernel always using the whole device at
 * 1 ns per element x repeat. With kernel-transfer and work 4, H2D, kernel and D2H each take PHASE ns. */
static void ideal_profile(struct ss_profile *p)
{
	profile_builtin(p);
	p->h2d = (struct ss_copy_profile){2.0, 0};
	p->d2h = (struct ss_copy_profile){1.0, 0};
	p->both_gbs = 3.0;
	p->both_h2d_share = 2.0 / 3.0;
	p->kernel[SS_KERNEL_ADD] = (struct ss_kernel_profile){.ns_per_unit = 1.0, .saturation = 1.0};
	p->kernel[SS_KERNEL_SPIN] = (struct ss_kernel_profile){.ns_per_unit = 1.0, .saturation = 4224};
	p->kernel_min_ns = 0;
	p->launch_ns = 0;
	p->dep_kernel_ns = p->dep_copy_ns = p->copy_gap_ns = p->copy_switch_ns = 0;
	p->copy_queues_slow = 0;
	p->api_copy_ns = p->api_launch_ns = p->api_event_ns = p->api_sync_ns = p->api_attach_ns = p->api_prefetch_ns =
	    0;
	p->sync_wake_ns = 0;
	p->api_switch_ns = p->api_launch_wait_ns = p->api_launch_prefetch_wait_ns = 0;
	p->dep_kernel_queues_ns = p->dep_copy_queues_ns = 0;
	p->api_copy_queues_ns = p->api_switch_queues_ns = 0;
	p->thread_start_ns = 0;
	p->host_gap_ns = 0;
}

static void ideal_experiment(struct ss_experiment *e, int streams, enum ss_order order, int connections)
{
	experiment_preset(e, SS_PRESET_KERNEL_TRANSFER);
	e->streams = streams;
	e->order = order;
	e->connections = connections;
	e->work = 4;
}

static void run_model(const struct ss_experiment *e, const struct ss_profile *p, struct ss_timeline *tl,
                      struct ss_run_result *res)
{
	char *cause = NULL;

	if (model_timeline(e, p, tl, res, &cause) != 0)
		fail_msg("model: %s", cause);
}

static uint64_t makespan(const struct ss_experiment *e, const struct ss_profile *p)
{
	char *cause = NULL;
	uint64_t ns = model_makespan(e, p, &cause);

	if (ns == 0)
		fail_msg("model: %s", cause ? cause : "zero makespan");
	return ns;
}

/* Equal phases on ideal engines: T(n) / T(1) = (n+2)/(3n) exactly, for every stream count depth-first and, while
 * every stream has its own hardware queue (32), breadth-first. */
static void test_ideal_ratio(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	uint64_t one;

	(void)state;
	ideal_profile(&p);
	ideal_experiment(&e, 1, SS_ORDER_DEPTH, 32);
	one = makespan(&e, &p);
	assert_int_equal(one, 3 * PHASE);
	for (int n = 2; n <= 128; n *= 2) {
		for (int o = 0; o < (n <= 32 ? SS_ORDER_COUNT : 1); o++) {
			uint64_t t;

			ideal_experiment(&e, n, o, 32);
			t = makespan(&e, &p);
			if (t * 3 * (uint64_t)n != one * (uint64_t)(n + 2))
				fail_msg("%d streams %s: %llu ns, expected %llu", n, experiment_order_name(o),
				         (unsigned long long)t, (unsigned long long)(PHASE * (n + 2) / n));
			assert_int_equal(t, PHASE * (uint64_t)(n + 2) / (uint64_t)n);
			assert_int_equal(t, analysis_bound(PHASE, PHASE, PHASE, n));
		}
	}
}

/* One hardware queue shared by copies and kernels (gpu.copy_queues 0): depth-first, each stream's kernel waits at
 * the queue's head for its H2D and its D2H for the kernel, holding up the next stream's H2D: only a D2H and the next
 * H2D overlap, (2n+1)/n phases. Breadth-first, the first D2H sits behind the last kernel launch, which waits for the
 * last H2D: the D2H phase cannot start before all input is in, 2 phases. Breadth-first with more streams than
 * queues keeps part of that false dependency. With copy queues of their own per direction (the H200), one
 * connection still pipelines copies and kernels: the ideal (n+2)/n phases in both orders. */
static void test_one_queue_false_dependency(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;

	(void)state;
	ideal_profile(&p);
	for (int n = 2; n <= 128; n *= 2) {
		p.copy_queues = 1;
		for (int o = 0; o <= SS_ORDER_BREADTH; o++) {
			ideal_experiment(&e, n, o, 1);
			assert_int_equal(makespan(&e, &p), PHASE * (uint64_t)(n + 2) / (uint64_t)n);
		}
	}
	p.copy_queues = 0;
	for (int n = 2; n <= 128; n *= 2) {
		uint64_t ideal = PHASE * (uint64_t)(n + 2) / (uint64_t)n;

		ideal_experiment(&e, n, SS_ORDER_DEPTH, 1);
		assert_int_equal(makespan(&e, &p), PHASE * (uint64_t)(2 * n + 1) / (uint64_t)n);
		ideal_experiment(&e, n, SS_ORDER_BREADTH, 1);
		assert_int_equal(makespan(&e, &p), 2 * PHASE);
		/* A queue per stream removes both. */
		ideal_experiment(&e, n, SS_ORDER_BREADTH, n <= 32 ? n : 32);
		if (n <= 32)
			assert_int_equal(makespan(&e, &p), ideal);
		else
			assert_true(makespan(&e, &p) > ideal);
		ideal_experiment(&e, n, SS_ORDER_DEPTH, n <= 32 ? n : 32);
		assert_int_equal(makespan(&e, &p), ideal);
	}
}

/* model_simulate on a given op list; returns the makespan. */
static uint64_t simulate_ops(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_profile *p)
{
	struct ss_run_result res;
	char *cause = NULL;

	if (model_simulate(e, ops, p, NULL, &res, &cause) != 0)
		fail_msg("model: %s", cause);
	return res.traced_ns;
}

/* kernels_first copies ops with every stream's first kernel before all second kernels, then the rest. */
static void kernels_first(const struct ss_oplist *ops, struct ss_oplist *out)
{
	*out = *ops;
	out->op = calloc(ops->n, sizeof *ops->op);
	out->cap = out->n = 0;
	for (int pass = 0; pass < 3; pass++) {
		for (size_t i = 0; i < ops->n; i++) {
			const struct ss_op *op = &ops->op[i];
			int which = op->kind != SS_OP_KERNEL ? 2 : (int)op->offset;

			if (which == pass)
				out->op[out->n++] = *op;
		}
	}
}

/* hyperq: two dependent spin kernels A, B per stream. Issued A0 B0 A1 B1 ... into one queue, B0 waits for A0 at
 * the head and holds A1 back: n + 1 kernel times. Issued A0..An-1 then B0..Bn-1 (breadth-first by kernel), all A run
 * together, then all B: 2 kernel times, as with one queue per stream. */
static void test_hyperq(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_oplist ops, breadth;
	uint64_t k;

	(void)state;
	ideal_profile(&p);
	experiment_preset(&e, SS_PRESET_HYPERQ);
	assert_int_equal(e.connections, 1);
	k = (uint64_t)e.work; /* 1 ns per iteration */
	planner_build(&e, &ops);
	assert_int_equal(simulate_ops(&e, &ops, &p), (uint64_t)(e.streams + 1) * k);
	/* The same launches, all first kernels before all second ones. */
	kernels_first(&ops, &breadth);
	assert_int_equal(breadth.n, ops.n);
	assert_int_equal(simulate_ops(&e, &breadth, &p), 2 * k);
	e.connections = 32;
	assert_int_equal(simulate_ops(&e, &ops, &p), 2 * k);
	free(breadth.op);
	planner_free(&ops);
}

/* With the built-in H200 profile, one queue is slower than eight for hyperq, depth-first. */
static void test_hyperq_builtin(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	uint64_t one, eight;

	(void)state;
	profile_builtin(&p);
	experiment_preset(&e, SS_PRESET_HYPERQ);
	one = makespan(&e, &p);
	e.connections = 8;
	eight = makespan(&e, &p);
	assert_true(one > 3 * eight);
}

/* The number of GPU records of experiment streams that run during some record of stream `other`. */
static int records_across(const struct ss_timeline *tl, int32_t other)
{
	int n = 0;

	for (size_t i = 0; i < tl->n; i++) {
		const struct ss_record *l = &tl->rec[i];

		if (l->stream != other || !(SS_GPU_KINDS & SS_KIND_BIT(l->kind)))
			continue;
		for (size_t j = 0; j < tl->n; j++) {
			const struct ss_record *r = &tl->rec[j];

			if (r->stream >= 0 && (SS_GPU_KINDS & SS_KIND_BIT(r->kind)) && r->start < l->end &&
			    r->end > l->start)
				n++;
		}
	}
	return n;
}

/* The legacy default stream: nothing of a blocking stream runs during its operation, and nothing issued after it
 * starts before it ends; non-blocking streams run across it; the per-thread default stream does not serialise
 * the other streams. */
static void test_default_stream(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	struct ss_run_result res;

	(void)state;
	profile_builtin(&p);
	timeline_init(&tl);
	for (int o = 0; o <= SS_ORDER_BREADTH; o++) {
		experiment_preset(&e, SS_PRESET_DEFAULT_STREAM);
		e.order = o;
		run_model(&e, &p, &tl, &res);
		assert_true(timeline_count(&tl, SS_KIND_KERNEL) > (size_t)e.streams); /* the legacy kernels are there */
		assert_int_equal(records_across(&tl, SS_STREAM_LEGACY), 0);
		/* Every record issued after a legacy op starts after it ends, every one before ends before it. */
		for (size_t i = 0; i < tl.n; i++) {
			const struct ss_record *l = &tl.rec[i];

			if (l->stream != SS_STREAM_LEGACY || l->kind != SS_KIND_KERNEL)
				continue;
			for (size_t j = 0; j < tl.n; j++) {
				const struct ss_record *r = &tl.rec[j];

				if (r->stream < 0 || !(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
					continue;
				if (r->correlation < l->correlation)
					assert_true(r->end <= l->start);
				else
					assert_true(r->start >= l->end);
			}
		}
		e.nonblocking = true;
		run_model(&e, &p, &tl, &res);
		assert_true(records_across(&tl, SS_STREAM_LEGACY) > 0);
		e.nonblocking = false;
		e.defstream = SS_DS_PER_THREAD;
		run_model(&e, &p, &tl, &res);
		assert_true(timeline_count(&tl, SS_KIND_KERNEL) > (size_t)e.streams);
		assert_true(records_across(&tl, SS_STREAM_PER_THREAD) > 0 || o == SS_ORDER_DEPTH);
	}
	/* Serialised: eight streams gain almost nothing over one; without the legacy op they do. */
	experiment_preset(&e, SS_PRESET_DEFAULT_STREAM);
	e.streams = 1;
	uint64_t one = makespan(&e, &p);
	e.streams = 8;
	uint64_t eight = makespan(&e, &p);
	e.defstream = SS_DS_NONE;
	uint64_t free_eight = makespan(&e, &p);
	assert_true((double)eight > 0.95 * (double)one);
	assert_true((double)free_eight < 0.75 * (double)one);
	timeline_free(&tl);
}

/* Chunks that don't divide the data: the last chunk is shorter and so are its copies and kernel. */
static void test_chunk_tails(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	struct ss_run_result res;
	uint64_t dur[SS_KIND_COUNT][4] = {{0}};

	(void)state;
	ideal_profile(&p);
	timeline_init(&tl);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.elements = 1000003; /* chunks 250001, 250001, 250001, 250000 */
	e.streams = 4;
	e.work = 4;
	run_model(&e, &p, &tl, &res);
	for (size_t i = 0; i < tl.n; i++) {
		const struct ss_record *r = &tl.rec[i];

		if (r->stream >= 0 && (SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			dur[r->kind][r->stream] = r->end - r->start;
	}
	for (int s = 0; s < 3; s++) {
		assert_int_equal(dur[SS_KIND_H2D][s], 250001 * 4 / 2); /* bytes at 2 bytes/ns */
		assert_int_equal(dur[SS_KIND_D2H][s], 250001 * 4);
		assert_int_equal(dur[SS_KIND_KERNEL][s], 250001 * 4);
	}
	assert_int_equal(dur[SS_KIND_H2D][3], 250000 * 4 / 2);
	assert_int_equal(dur[SS_KIND_D2H][3], 250000 * 4);
	assert_int_equal(dur[SS_KIND_KERNEL][3], 250000 * 4);
	/* A tail much shorter than the others: 10 elements in 4 chunks are 3, 3, 3 and 1. */
	e.elements = 10;
	run_model(&e, &p, &tl, &res);
	for (size_t i = 0; i < tl.n; i++) {
		const struct ss_record *r = &tl.rec[i];

		if (r->stream >= 0 && (SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			dur[r->kind][r->stream] = r->end - r->start;
	}
	for (int s = 0; s < 4; s++) {
		uint64_t n = s < 3 ? 3 : 1;

		assert_int_equal(dur[SS_KIND_H2D][s], n * 4 / 2);
		assert_int_equal(dur[SS_KIND_D2H][s], n * 4);
		assert_int_equal(dur[SS_KIND_KERNEL][s], n * 4);
	}
	timeline_free(&tl);
}

/* A sink that keeps records and names in order. */
struct keep {
	struct ss_record *r;
	char (*name)[64];
	size_t n;
};

static void keep_record(void *ctx, const struct ss_record *r, const char *name)
{
	struct keep *k = ctx;

	k->r = realloc(k->r, (k->n + 1) * sizeof *k->r);
	k->name = realloc(k->name, (k->n + 1) * sizeof *k->name);
	k->r[k->n] = *r;
	memset(k->name[k->n], 0, sizeof k->name[k->n]);
	snprintf(k->name[k->n], sizeof k->name[k->n], "%s", name ? name : "");
	k->n++;
}

/* Same experiment and profile, same records, bit for bit, in the same order. */
static void test_determinism(void **state)
{
	struct ss_profile p;

	(void)state;
	profile_builtin(&p);
	for (int pr = 0; pr < SS_PRESET_COUNT; pr++) {
		struct ss_experiment e;
		struct ss_oplist ops;
		struct keep a = {0}, b = {0};
		struct ss_sink sa = {&a, keep_record, NULL, NULL, NULL}, sb = {&b, keep_record, NULL, NULL, NULL};
		struct ss_run_result ra, rb;
		char *cause = NULL;

		experiment_preset(&e, pr);
		e.streams = 16;
		e.order = SS_ORDER_BREADTH;
		planner_build(&e, &ops);
		assert_int_equal(model_simulate(&e, &ops, &p, &sa, &ra, &cause), 0);
		assert_int_equal(model_simulate(&e, &ops, &p, &sb, &rb, &cause), 0);
		assert_int_equal(a.n, b.n);
		assert_memory_equal(a.r, b.r, a.n * sizeof *a.r);
		assert_memory_equal(a.name, b.name, a.n * sizeof *a.name);
		assert_int_equal(ra.traced_ns, rb.traced_ns);
		for (size_t i = 1; i < a.n; i++)
			assert_true(a.r[i].start >= a.r[i - 1].start);
		free(a.r);
		free(a.name);
		free(b.r);
		free(b.name);
		planner_free(&ops);
	}
}

/* Every op shows up as the CUDA backend's capture would show it: GPU records per kind as the planner expects,
 * one API record per call (correlation = op id), one SYNC record per sync call, all flagged modelled. */
static void test_record_counts(void **state)
{
	struct ss_profile p;
	struct ss_timeline tl;
	static const int streams[] = {1, 3, 8, 33, 128};

	(void)state;
	profile_builtin(&p);
	timeline_init(&tl);
	for (int pr = 0; pr < SS_PRESET_COUNT; pr++)
		for (size_t si = 0; si < sizeof streams / sizeof streams[0]; si++)
			for (int o = 0; o < SS_ORDER_COUNT; o++)
				for (int sy = 0; sy < SS_SYNC_COUNT; sy++)
					for (int ds = 0; ds < SS_DS_COUNT; ds++)
						for (int th = 0; th < 2; th++) {
							struct ss_experiment e;
							struct ss_oplist ops;
							struct ss_run_result res;
							size_t want[SS_KIND_COUNT], nsync = 0;

							experiment_preset(&e, pr);
							if ((e.kernel == SS_KERNEL_SPIN && o >= SS_ORDER_BEST) ||
							    (e.kernel == SS_KERNEL_TASK && o != SS_ORDER_DEPTH))
								continue; /* refused (test_experiment) */
							e.streams = streams[si];
							e.order = o;
							e.sync = sy;
							e.defstream = ds;
							e.threads = th ? e.streams : 1;
							e.connections = 1 + (int)si * 7;
							run_model(&e, &p, &tl, &res);
							planner_build(&e, &ops);
							planner_expected_records(&ops, res.prefetch_records, want);
							for (int k = 0; k < SS_KIND_COUNT; k++)
								if (SS_GPU_KINDS & SS_KIND_BIT(k))
									assert_int_equal(timeline_count(&tl, k),
									                 want[k]);
							/* host_process is host work, no API call: a marker */
							assert_int_equal(timeline_count(&tl, SS_KIND_API),
							                 ops.n - planner_count_kind(&ops, SS_OP_HOST));
							assert_int_equal(timeline_count(&tl, SS_KIND_MARKER),
							                 planner_count_kind(&ops, SS_OP_HOST));
							for (size_t i = 0; i < ops.n; i++)
								nsync += ops.op[i].kind >= SS_OP_EVENT_SYNC &&
								         ops.op[i].kind <= SS_OP_DEVICE_SYNC;
							assert_int_equal(timeline_count(&tl, SS_KIND_SYNC), nsync);
							for (size_t i = 0; i < tl.n; i++) {
								const struct ss_record *r = &tl.rec[i];

								assert_true(r->flags & SS_REC_MODELLED);
								assert_true(r->correlation >= 1 &&
								            r->correlation <= ops.n);
								assert_true(r->end >= r->start);
								if (SS_GPU_KINDS & SS_KIND_BIT(r->kind))
									assert_int_equal(
									    r->stream,
									    ops.op[r->correlation - 1].stream);
								else
									assert_int_equal(r->stream, SS_STREAM_HOST);
							}
							assert_true(res.modelled);
							assert_true(tl.modelled);
							assert_string_equal(res.device, "MODEL (H200 profile)");
							assert_false(res.have_untraced);
							planner_free(&ops);
						}
	timeline_free(&tl);
}

/* Copy engines: one per direction, so copies of one direction never overlap; opposite directions do. */
static void test_copy_engines(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	struct ss_run_result res;
	bool opposite = false;

	(void)state;
	profile_builtin(&p);
	timeline_init(&tl);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 16;
	run_model(&e, &p, &tl, &res);
	for (size_t i = 0; i < tl.n; i++) {
		for (size_t j = i + 1; j < tl.n; j++) {
			const struct ss_record *a = &tl.rec[i], *b = &tl.rec[j];
			bool overlap = a->start < b->end && b->start < a->end;

			if (a->kind > SS_KIND_D2H || b->kind > SS_KIND_D2H || !overlap)
				continue;
			assert_true(a->kind != b->kind);
			opposite = true;
		}
	}
	assert_true(opposite);
	/* Both directions at once: copy.both_gbs together (96.4 on the H200, 101 at 1 GiB in H200.md) instead of 111: a
	 * copy fully overlapped by the other direction runs at its share of it. */
	for (size_t i = 0; i < tl.n; i++) {
		const struct ss_record *a = &tl.rec[i];
		uint64_t covered = 0;

		if (a->kind != SS_KIND_H2D)
			continue;
		for (size_t j = 0; j < tl.n; j++) {
			const struct ss_record *b = &tl.rec[j];

			if (b->kind == SS_KIND_D2H && b->start <= a->start && b->end >= a->end)
				covered = 1;
		}
		if (covered) {
			double ns = (double)(a->end - a->start) - p.h2d.latency_ns;

			assert_true(fabs((double)a->bytes / ns - p.both_gbs * p.both_h2d_share) < 0.05);
		}
	}
	timeline_free(&tl);
}

/* Pageable copies are synchronous for the host: depth-first, no two GPU records ever overlap. The run timer starts
 * before the first copy's call, as the CUDA backend's does (planner_start_before), so the makespan analysis reports
 * (with the host staging inside the pageable calls) is what the timer measures, within 1%; and it is longer than
 * the copy records' span, by the first call's staging at least. */
static void test_pageable(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	struct ss_run_result res;
	struct ss_analysis a;
	uint64_t g0, g1;

	(void)state;
	profile_builtin(&p);
	timeline_init(&tl);
	experiment_preset(&e, SS_PRESET_PAGEABLE);
	for (int n = 1; n <= 32; n *= 2) {
		e.streams = n;
		run_model(&e, &p, &tl, &res);
		analysis_timeline(&tl, &a);
		assert_int_equal(a.overlap_ns, 0);
		for (size_t i = 0; i < tl.n; i++)
			if (tl.rec[i].kind == SS_KIND_H2D || tl.rec[i].kind == SS_KIND_D2H)
				assert_true(tl.rec[i].flags & SS_REC_PAGEABLE);
		assert_true(res.events_ns_of_captured > 0);
		if (fabs((double)a.makespan_ns / (double)res.events_ns_of_captured - 1) > 0.01)
			fail_msg("%d streams: span %llu ns, timer %llu ns", n, (unsigned long long)a.makespan_ns,
			         (unsigned long long)res.events_ns_of_captured);
		assert_true(timeline_span(&tl, SS_GPU_KINDS, &g0, &g1));
		assert_true(g0 > a.t0 && g1 - g0 < a.makespan_ns);
	}
	timeline_free(&tl);
}

/* Host syncs in issue order: in reverse order the first call waits for nearly everything and the rest return at
 * once. */
static void test_sync_order(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	struct ss_run_result res;
	uint64_t last_gpu = 0, t0, t1;
	size_t nsync = 0;

	(void)state;
	profile_builtin(&p);
	timeline_init(&tl);
	experiment_preset(&e, SS_PRESET_SYNC_ORDER);
	assert_int_equal(e.sync, SS_SYNC_REVERSE);
	run_model(&e, &p, &tl, &res);
	assert_true(timeline_span(&tl, SS_GPU_KINDS, &t0, &last_gpu));
	for (size_t i = 0; i < tl.n; i++) {
		const struct ss_record *r = &tl.rec[i];

		if (r->kind != SS_KIND_SYNC)
			continue;
		if (nsync++ == 0) {
			/* the first waits for the last stream, which finishes last */
			assert_true(strstr(timeline_name(&tl, r->name), "(s7)") != NULL);
			assert_int_equal(r->end, last_gpu + (uint64_t)p.sync_wake_ns);
		} else {
			assert_int_equal(r->end - r->start, (uint64_t)p.api_sync_ns);
		}
	}
	assert_int_equal(nsync, 8);
	assert_true(timeline_span(&tl, SS_KIND_BIT(SS_KIND_SYNC), &t0, &t1));
	timeline_free(&tl);
}

/* No more kernels run at once than the profile's max_kernels: 128 streams' first spin kernels issued together. */
static void test_kernel_capacity(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_oplist ops, first;

	(void)state;
	profile_builtin(&p);
	experiment_preset(&e, SS_PRESET_HYPERQ);
	e.streams = 128;
	e.connections = 32;
	e.work = 2000000; /* long enough for all 128 launches to be issued while the first still runs */
	planner_build(&e, &ops);
	kernels_first(&ops, &first);
	for (int cap = 4; cap <= 128; cap *= 32) {
		struct keep k = {0};
		struct ss_sink sink = {&k, keep_record, NULL, NULL, NULL};
		struct ss_run_result res;
		char *cause = NULL;
		int most = 0;

		p.max_kernels = cap;
		assert_int_equal(model_simulate(&e, &first, &p, &sink, &res, &cause), 0);
		for (size_t i = 0; i < k.n; i++) {
			int at = 0;

			if (k.r[i].kind != SS_KIND_KERNEL)
				continue;
			for (size_t j = 0; j < k.n; j++)
				at += k.r[j].kind == SS_KIND_KERNEL && k.r[j].start <= k.r[i].start &&
				      k.r[j].end > k.r[i].start;
			if (at > most)
				most = at;
		}
		assert_int_equal(most, cap);
		free(k.r);
		free(k.name);
	}
	free(first.op);
	planner_free(&ops);
}

/* hand_op appends one op of 4-byte elements to a hand-made op list. */
static void hand_op(struct ss_oplist *ops, int kind, int stream, uint64_t count)
{
	struct ss_op *op;

	ops->op = realloc(ops->op, (ops->n + 1) * sizeof *ops->op);
	op = &ops->op[ops->n++];
	memset(op, 0, sizeof *op);
	op->id = (uint32_t)ops->n;
	op->kind = (uint8_t)kind;
	op->stream = (int16_t)stream;
	op->buffer = kind == SS_OP_KERNEL ? 2 : 0;
	op->chunk = (int32_t)(stream >= 0 ? stream : -1);
	op->event = -1;
	op->count = count;
	ops->elem_size = 4;
	ops->nbuffers = 3;
	ops->nchunks = 2;
}

/* hand_run models ops (kernel-transfer on 2 streams, managed-prefetch memory unless told otherwise) into k. */
static void hand_run(const struct ss_oplist *ops, const struct ss_profile *p, int connections, enum ss_hostmem mem,
                     struct keep *k)
{
	struct ss_experiment e;
	struct ss_sink sink = {k, keep_record, NULL, NULL, NULL};
	struct ss_run_result res;
	char *cause = NULL;

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.connections = connections;
	e.hostmem = mem;
	e.work = 2;
	memset(k, 0, sizeof *k);
	if (model_simulate(&e, ops, p, &sink, &res, &cause) != 0)
		fail_msg("model: %s", cause);
}

/* kept_end: end of the first record of kind whose name starts with name (NULL: any), 0 when none. */
static uint64_t kept_end(const struct keep *k, int kind, const char *name, uint64_t *start)
{
	for (size_t i = 0; i < k->n; i++)
		if (k->r[i].kind == kind && (name == NULL || strncmp(k->name[i], name, strlen(name)) == 0)) {
			if (start != NULL)
				*start = k->r[i].start;
			return k->r[i].end;
		}
	return 0;
}

static void keep_free(struct keep *k)
{
	free(k->r);
	free(k->name);
}

/* An ideal profile for managed memory: 1 byte/ns to the device (prefetched or faulted), 0.5 to the host, no fixed
 * costs. */
static void managed_profile(struct ss_profile *p)
{
	ideal_profile(p);
	p->prefetch_gbs = 1.0;
	p->prefetch_latency_ns = 0;
	p->prefetch_host_gbs = 0.5;
	p->prefetch_host_latency_ns = 0;
	p->prefetch_wait_ns = 0;
	p->fault_gbs = 1.0;
	p->api_prefetch_switch_ns = 0;
}

/* Managed migrations. To the device, prefetches (and faulting kernels) share one migration: two prefetches of B
 * bytes issued together both end at 2B. To the host, one at a time: the first ends at B / 0.5, the second at twice
 * that. */
static void test_managed_migrations(void **state)
{
	struct ss_profile p;
	struct ss_oplist ops = {0};
	struct keep k;
	const uint64_t n = 1000, b = 4 * n;

	(void)state;
	managed_profile(&p);
	for (int dir = 0; dir < 2; dir++) {
		int kind = dir == 0 ? SS_OP_PREFETCH_H2D : SS_OP_PREFETCH_D2H;

		memset(&ops, 0, sizeof ops);
		hand_op(&ops, kind, 0, n);
		hand_op(&ops, kind, 1, n);
		hand_op(&ops, SS_OP_STREAM_SYNC, 0, 0);
		hand_op(&ops, SS_OP_STREAM_SYNC, 1, 0);
		hand_run(&ops, &p, 8, SS_MEM_MANAGED_PREFETCH, &k);
		if (dir == 0) {
			assert_int_equal(kept_end(&k, SS_KIND_SYNC, "cudaStreamSynchronize (s0)", NULL), 2 * b);
			assert_int_equal(kept_end(&k, SS_KIND_SYNC, "cudaStreamSynchronize (s1)", NULL), 2 * b);
		} else {
			assert_int_equal(kept_end(&k, SS_KIND_SYNC, "cudaStreamSynchronize (s0)", NULL), 2 * b);
			assert_int_equal(kept_end(&k, SS_KIND_SYNC, "cudaStreamSynchronize (s1)", NULL), 4 * b);
		}
		keep_free(&k);
		free(ops.op);
	}
	/* A prefetch's fixed cost (the driver's page-table work) is migration time too, shared like the bytes: two
	 * prefetches of B bytes with a fixed cost L issued together both end at 2 (L + B), where a fixed cost beside
	 * the migration would end them at L + 2B. A prefetch alone takes L + B. */
	p.prefetch_latency_ns = 1000;
	for (int two = 0; two < 2; two++) {
		memset(&ops, 0, sizeof ops);
		hand_op(&ops, SS_OP_PREFETCH_H2D, 0, n);
		if (two)
			hand_op(&ops, SS_OP_PREFETCH_H2D, 1, n);
		hand_op(&ops, SS_OP_DEVICE_SYNC, SS_STREAM_HOST, 0);
		hand_run(&ops, &p, 8, SS_MEM_MANAGED_PREFETCH, &k);
		assert_int_equal(kept_end(&k, SS_KIND_SYNC, NULL, NULL), (two ? 2 : 1) * (1000 + b));
		keep_free(&k);
		free(ops.op);
	}
	p.prefetch_latency_ns = 0;
	/* To the host the fixed cost is that one-at-a-time migration's too: two prefetches of B bytes with a fixed
	 * cost L end at L + B / 0.5 and twice that. */
	p.prefetch_host_latency_ns = 1000;
	memset(&ops, 0, sizeof ops);
	hand_op(&ops, SS_OP_PREFETCH_D2H, 0, n);
	hand_op(&ops, SS_OP_PREFETCH_D2H, 1, n);
	hand_op(&ops, SS_OP_STREAM_SYNC, 0, 0);
	hand_op(&ops, SS_OP_STREAM_SYNC, 1, 0);
	hand_run(&ops, &p, 8, SS_MEM_MANAGED_PREFETCH, &k);
	assert_int_equal(kept_end(&k, SS_KIND_SYNC, "cudaStreamSynchronize (s0)", NULL), 1000 + 2 * b);
	assert_int_equal(kept_end(&k, SS_KIND_SYNC, "cudaStreamSynchronize (s1)", NULL), 2 * (1000 + 2 * b));
	keep_free(&k);
	free(ops.op);
	p.prefetch_host_latency_ns = 0;
	/* A kernel faulting while a prefetch to the device is in progress gets half the migration: a kernel faulting
	 * B bytes beside a prefetch of B both end at 2B. */
	memset(&ops, 0, sizeof ops);
	hand_op(&ops, SS_OP_KERNEL, 0, n);
	hand_op(&ops, SS_OP_PREFETCH_H2D, 1, n);
	hand_op(&ops, SS_OP_DEVICE_SYNC, SS_STREAM_HOST, 0);
	hand_run(&ops, &p, 8, SS_MEM_MANAGED_PREFETCH, &k);
	assert_int_equal(kept_end(&k, SS_KIND_KERNEL, NULL, NULL), 2 * b);
	assert_int_equal(kept_end(&k, SS_KIND_SYNC, NULL, NULL), 2 * b);
	keep_free(&k);
	free(ops.op);
}

/* A kernel writing managed memory it must fault in computes the pages that have arrived: it lasts the longer of its
 * fault migration (4 bytes per element at 1 byte/ns) and its compute (work 2 at 1 ns per element x repeat: 2 ns per
 * element; work 8: 8). */
static void test_fault_overlap(void **state)
{
	struct ss_profile p;
	struct ss_oplist ops = {0};
	struct ss_experiment e;
	const uint64_t n = 1000;
	static const struct {
		uint32_t work;
		uint64_t ns;
	} cases[] = {{2, 4 * n}, {8, 8 * n}};

	(void)state;
	managed_profile(&p);
	hand_op(&ops, SS_OP_KERNEL, 0, n);
	hand_op(&ops, SS_OP_STREAM_SYNC, 0, 0);
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct keep k = {0};
		struct ss_sink sink = {&k, keep_record, NULL, NULL, NULL};
		struct ss_run_result res;
		char *cause = NULL;
		uint64_t start = 0, end;

		experiment_preset(&e, SS_PRESET_MANAGED);
		e.streams = 1;
		e.work = cases[c].work;
		assert_int_equal(model_simulate(&e, &ops, &p, &sink, &res, &cause), 0);
		end = kept_end(&k, SS_KIND_KERNEL, NULL, &start);
		assert_int_equal(end - start, cases[c].ns);
		keep_free(&k);
	}
	free(ops.op);
}

/* The driver starts a prefetch waiting on its stream's kernel managed.prefetch_wait_ns after the kernel (beside the
 * dependency latency of a copy); a launch behind a prefetch to the device costs api.launch_prefetch_wait_ns more. */
static void test_prefetch_wait(void **state)
{
	struct ss_profile p;
	struct ss_oplist ops = {0};
	struct keep k;
	const uint64_t n = 1000;
	uint64_t kend, start = 0, end;

	(void)state;
	managed_profile(&p);
	p.prefetch_wait_ns = 1500;
	p.dep_copy_ns = 200;
	p.api_launch_ns = 100;
	p.api_launch_prefetch_wait_ns = 700;
	hand_op(&ops, SS_OP_PREFETCH_H2D, 0, n);
	hand_op(&ops, SS_OP_KERNEL, 0, n);
	hand_op(&ops, SS_OP_PREFETCH_D2H, 0, n);
	hand_op(&ops, SS_OP_KERNEL, 0, n);
	hand_op(&ops, SS_OP_STREAM_SYNC, 0, 0);
	hand_run(&ops, &p, 8, SS_MEM_MANAGED_PREFETCH, &k);
	/* the launch behind the prefetch: 100 + 700 ns; the one behind the prefetch to the host: 100 */
	for (size_t i = 0, seen = 0; i < k.n; i++)
		if (k.r[i].kind == SS_KIND_API && strcmp(k.name[i], "cudaLaunchKernel") == 0)
			assert_int_equal(k.r[i].end - k.r[i].start, seen++ == 0 ? 800 : 100);
	/* the first kernel starts when its prefetch (4000 ns) is done, ends 4000 later (faults); the prefetch to the
	 * host starts 200 + 1500 after it and takes 8000 */
	kend = kept_end(&k, SS_KIND_KERNEL, NULL, &start);
	assert_int_equal(start, 4 * n);
	assert_int_equal(kend, 8 * n);
	end = kept_end(&k, SS_KIND_SYNC, NULL, NULL);
	/* the second kernel follows the prefetch to the host (faulting again: 4000 ns, no dependency latency set) */
	assert_int_equal(end, kend + 200 + 1500 + 8 * n + 4 * n);
	keep_free(&k);
	free(ops.op);
}

/* A copy engine turning to another hardware queue idles copy.switch_ns first: two H2D copies on two streams start
 * back to back with one queue, 500 ns apart with two. */
static void test_copy_switch(void **state)
{
	struct ss_profile p;
	struct ss_oplist ops = {0};
	const uint64_t n = 1000;

	(void)state;
	ideal_profile(&p);
	p.copy_switch_ns = 500;
	hand_op(&ops, SS_OP_H2D, 0, n);
	hand_op(&ops, SS_OP_H2D, 1, n);
	hand_op(&ops, SS_OP_DEVICE_SYNC, SS_STREAM_HOST, 0);
	for (int q = 1; q <= 2; q++) {
		struct keep k;
		uint64_t first = 0, second = 0;

		hand_run(&ops, &p, q, SS_MEM_PINNED, &k);
		for (size_t i = 0; i < k.n; i++)
			if (k.r[i].kind == SS_KIND_H2D)
				*(k.r[i].stream == 0 ? &first : &second) = k.r[i].start;
		assert_int_equal(first, 0);
		assert_int_equal(second, 4 * n / 2 + (q == 2 ? 500 : 0)); /* 4000 bytes at 2 bytes/ns */
		keep_free(&k);
	}
	free(ops.op);
}

/* A copy engine drains one hardware queue's ready copies before it turns to the next, as the H200 does
 * (tests/data/h200/model-gaps/weaker-32): document 003's weaker order on 8 queues issues every stream's inputs,
 * 0, 1, 2, ..., and the inputs go in queue by queue, 0, 8, 16, 24, 1, 9, ...; where copies share the kernels'
 * queues (no gpu.copy_queues) they go in issue order. */
static void test_copy_queue_stay(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	struct ss_run_result res;

	(void)state;
	profile_builtin(&p);
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	e.order = SS_ORDER_WEAKER;
	e.streams = 32;
	e.connections = 8;
	for (int shared = 0; shared <= 1; shared++) {
		int order[64], n = 0;

		p.copy_queues = !shared;
		timeline_init(&tl);
		run_model(&e, &p, &tl, &res);
		timeline_sort(&tl);
		for (size_t i = 0; i < tl.n && n < 64; i++)
			if (tl.rec[i].kind == SS_KIND_H2D)
				order[n++] = tl.rec[i].stream;
		assert_int_equal(n, 64);
		for (int k = 0; k < 64; k++) {
			int pos = k / 2; /* each stream's x then y */
			int want = shared ? pos : pos % 4 * 8 + pos / 4;

			assert_int_equal(order[k], want);
		}
		timeline_free(&tl);
	}
}

/* Document 004's run_task ends with cudaFree(data): each task's free waits for the device's work issued before it
 * (every stream's) and costs api.free_ns, but the other threads' calls go on meanwhile: a free ten times as long
 * leaves the makespan as it is. */
static void test_task_free(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	struct ss_run_result res;
	uint64_t span[2];

	(void)state;
	profile_builtin(&p);
	experiment_preset(&e, SS_PRESET_MANAGED_THREADS);
	e.streams = e.threads = 4;
	e.connections = 1;
	for (int k = 0; k < 2; k++) {
		uint64_t last_launch = 0, first_free = UINT64_MAX;
		int frees = 0;

		p.api_free_ns = k == 0 ? 294000 : 2940000;
		timeline_init(&tl);
		run_model(&e, &p, &tl, &res);
		for (size_t i = 0; i < tl.n; i++) {
			const struct ss_record *r = &tl.rec[i];
			const char *name = timeline_name(&tl, r->name);

			if (r->kind == SS_KIND_API && strcmp(name, "cudaLaunchKernel") == 0 && r->start > last_launch)
				last_launch = r->start;
		}
		for (size_t i = 0; i < tl.n; i++) {
			const struct ss_record *r = &tl.rec[i];

			if (r->kind != SS_KIND_API || strcmp(timeline_name(&tl, r->name), "cudaFree") != 0)
				continue;
			frees++;
			for (size_t j = 0; j < tl.n; j++) /* the work it found running is done when it returns */
				if (tl.rec[j].kind == SS_KIND_KERNEL && tl.rec[j].start < r->start)
					assert_true(tl.rec[j].end <= r->end);
			assert_true((double)(r->end - r->start) >= p.api_free_ns - 1);
			if (r->start < first_free)
				first_free = r->start;
		}
		assert_int_equal(frees, 4);
		assert_true(first_free < last_launch); /* a free begins while another thread still launches */
		span[k] = res.traced_ns;
		timeline_free(&tl);
	}
	assert_true(span[0] == span[1]);
}

/* Kernels of a minute and more: at such times the clock resolves microseconds only, and an item with less left
 * than that must still end (--work 15000000 and 30000000 stood still at 33 s and 89 s). The makespan grows in
 * proportion to the work, every --work the help allows up to its top. */
static void test_long_kernels(void **state)
{
	static const int work[] = {10000000, 15000000, 25000000, 30000000, 100000000};
	struct ss_experiment e;
	struct ss_profile p;
	uint64_t ns[5];

	(void)state;
	profile_builtin(&p);
	for (int i = 0; i < 5; i++) {
		experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
		e.work = work[i];
		ns[i] = makespan(&e, &p);
		e.streams = 1;
		assert_true(makespan(&e, &p) > ns[i]);
	}
	for (int i = 1; i < 5; i++) {
		double ratio = (double)ns[i] / (double)ns[0], want = (double)work[i] / (double)work[0];

		assert_true(fabs(ratio / want - 1.0) < 0.01);
	}
}

/* An experiment whose arrays do not fit the profile's device memory (device.memory_mib, less the context's margin)
 * is refused, naming what it needs, what there is and the largest --elements that fits, which itself runs; the
 * decrypt preset's one in-place array lets it go three times as far as add's three; with two devices each holds
 * half. */
static void test_device_memory(void **state)
{
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_oplist ops;
	struct ss_run_result res;
	char *cause = NULL;
	unsigned long long most = 0;
	const char *valid;

	(void)state;
	profile_builtin(&p);
	assert_int_equal(p.memory_mib, 143771);
	p.memory_mib = 1024; /* 1 GiB: 3 arrays of 2^26 floats (768 MiB) fit, of 2^27 do not */
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.elements = 1u << 27;
	planner_build(&e, &ops);
	assert_int_equal(model_simulate(&e, &ops, &p, NULL, &res, &cause), -1);
	planner_free(&ops);
	assert_non_null(strstr(cause, "needs 1.50 GiB of device memory (3 arrays of 134217728 x 4 bytes)"));
	assert_non_null(strstr(cause, "1.00 GiB of 1.00 GiB are free on the modelled NVIDIA H200"));
	valid = strstr(cause, "--elements up to ");
	assert_non_null(valid);
	most = strtoull(valid + strlen("--elements up to "), NULL, 10);
	assert_int_equal(most, (768ull << 20) / 12);
	assert_null(strchr(cause, '\n'));
	free(cause);
	cause = NULL;
	e.elements = most;
	planner_build(&e, &ops);
	if (model_simulate(&e, &ops, &p, NULL, &res, &cause) != 0)
		fail_msg("%s", cause);
	planner_free(&ops);
	assert_int_equal(res.memory_bytes, 1ull << 30);
	e.elements = most + 1;
	planner_build(&e, &ops);
	assert_int_equal(model_simulate(&e, &ops, &p, NULL, &res, &cause), -1);
	planner_free(&ops);
	free(cause);
	cause = NULL;

	experiment_preset(&e, SS_PRESET_DECRYPT); /* one array of uint64 */
	e.elements = (768ull << 20) / 8;
	planner_build(&e, &ops);
	if (model_simulate(&e, &ops, &p, NULL, &res, &cause) != 0)
		fail_msg("%s", cause);
	planner_free(&ops);

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.devices = 2;
	e.elements = 2 * most; /* each device holds half */
	assert_int_equal(experiment_validate(&e, &cause), 0);
	planner_build(&e, &ops);
	if (model_simulate(&e, &ops, &p, NULL, &res, &cause) != 0)
		fail_msg("%s", cause);
	planner_free(&ops);
	e.peer = true; /* ... and, with the peer stage, its neighbour's too */
	planner_build(&e, &ops);
	assert_int_equal(model_simulate(&e, &ops, &p, NULL, &res, &cause), -1);
	planner_free(&ops);
	assert_non_null(strstr(cause, "of device memory on each device"));
	free(cause);
}

/* The backend through the runner, as the CLI uses it: labelled as modelled. */
static void test_backend_runner(void **state)
{
	struct ss_experiment e;
	struct ss_timeline tl;
	struct ss_run_result res;
	struct ss_profile p;
	char *cause = NULL, device[96];

	(void)state;
	profile_builtin(&p);
	model_set_profile(&p);
	assert_int_equal(model_backend.available(device, sizeof device, &cause), 0);
	assert_string_equal(device, "MODEL (H200 profile)");
	assert_true(model_backend.modelled);
	timeline_init(&tl);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	if (runner_run(&model_backend, &e, &tl, &res, &cause) != 0)
		fail_msg("runner: %s", cause);
	assert_true(res.modelled);
	assert_int_equal(timeline_count(&tl, SS_KIND_KERNEL), 8);
	assert_int_equal(res.traced_ns, makespan(&e, &p));
	model_set_profile(NULL);
	timeline_free(&tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ideal_ratio),
	    cmocka_unit_test(test_one_queue_false_dependency),
	    cmocka_unit_test(test_hyperq),
	    cmocka_unit_test(test_hyperq_builtin),
	    cmocka_unit_test(test_default_stream),
	    cmocka_unit_test(test_chunk_tails),
	    cmocka_unit_test(test_determinism),
	    cmocka_unit_test(test_record_counts),
	    cmocka_unit_test(test_copy_engines),
	    cmocka_unit_test(test_pageable),
	    cmocka_unit_test(test_sync_order),
	    cmocka_unit_test(test_kernel_capacity),
	    cmocka_unit_test(test_managed_migrations),
	    cmocka_unit_test(test_fault_overlap),
	    cmocka_unit_test(test_prefetch_wait),
	    cmocka_unit_test(test_copy_switch),
	    cmocka_unit_test(test_copy_queue_stay),
	    cmocka_unit_test(test_task_free),
	    cmocka_unit_test(test_long_kernels),
	    cmocka_unit_test(test_device_memory),
	    cmocka_unit_test(test_backend_runner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
