/* test_sweep.c: stream-count lists, the points of a sweep (1 prepended, order-major), the default sweep (its counts,
 * the orders an experiment cannot run left out), speedup and bound against each order's 1-stream point from
 * hand-made timelines, failures, and whole sweeps through the runner with test backends defined here. */
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

#include "run/sweep.h"

#define assert_near(a, b, eps)                                                                                         \
	do {                                                                                                           \
		double a_ = (a), b_ = (b);                                                                             \
		if (!(fabs(a_ - b_) <= (eps)))                                                                         \
			fail_msg("%s = %.17g, want %.17g (+-%g)", #a, a_, b_, (double)(eps));                          \
	} while (0)

static void expect_counts(const char *s, const int *want, int nwant)
{
	int counts[SS_SWEEP_MAX_COUNTS], n = -1;
	char *cause = NULL;

	if (sweep_parse_counts(s, counts, &n, &cause) != 0)
		fail_msg("'%s' rejected: %s", s, cause);
	assert_null(cause);
	assert_int_equal(n, nwant);
	for (int i = 0; i < nwant; i++)
		assert_int_equal(counts[i], want[i]);
}

static void expect_bad_counts(const char *s, const char *frag)
{
	int counts[SS_SWEEP_MAX_COUNTS], n;
	char *cause = NULL;

	assert_int_equal(sweep_parse_counts(s, counts, &n, &cause), -1);
	assert_non_null(cause);
	assert_null(strchr(cause, '\n'));
	if (strstr(cause, frag) == NULL)
		fail_msg("'%s': message '%s' lacks '%s'", s, cause, frag);
	free(cause);
}

static void test_parse_counts(void **state)
{
	static const int all[] = {1, 2, 4, 8, 16, 32, 64, 128};
	static const int one[] = {8};
	static const int odd[] = {3, 5, 127};
	int many[SS_SWEEP_MAX_COUNTS];
	char list[512] = "", *p = list;

	(void)state;
	expect_counts("1,2,4,8,16,32,64,128", all, 8);
	expect_counts("8", one, 1);
	expect_counts("3,5,127", odd, 3);
	/* the longest list */
	for (int i = 0; i < SS_SWEEP_MAX_COUNTS; i++) {
		many[i] = i + 1;
		p += sprintf(p, "%s%d", i ? "," : "", i + 1);
	}
	expect_counts(list, many, SS_SWEEP_MAX_COUNTS);
	/* one more is too many */
	sprintf(p, ",%d", SS_SWEEP_MAX_COUNTS + 1);
	expect_bad_counts(list, "at most 32");
	expect_bad_counts(list, "33 counts");
	/* a 129-entry list is refused for its length, even where its items are out of range too */
	p = list;
	for (int i = 0; i < 129; i++)
		p += sprintf(p, "%s0", i ? "," : "");
	expect_bad_counts(list, "129 counts, at most 32");
	expect_bad_counts("4,4", "4 after 4");

	expect_bad_counts("", "empty");
	expect_bad_counts("0", "1..128");
	expect_bad_counts("129", "1..128");
	expect_bad_counts("1,2,100000", "1..128");
	expect_bad_counts("-4", "1..128");
	expect_bad_counts("1,2,x", "'1,2,x'");
	expect_bad_counts("1,,2", "1..128");
	expect_bad_counts("two", "e.g. 1,2,4,8");
	expect_bad_counts("1,4,2", "ascending");
	expect_bad_counts("2,2", "ascending");
	expect_bad_counts("1;2", "1..128");
}

static void test_init_points(void **state)
{
	struct ss_experiment base;
	struct ss_sweep s;
	static const int counts[] = {2, 4};
	static const int with_one[] = {1, 8};
	static const enum ss_order both[] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};
	static const enum ss_order breadth[] = {SS_ORDER_BREADTH};
	static const int want_streams[] = {1, 2, 4, 1, 2, 4};
	static const enum ss_order want_order[] = {SS_ORDER_DEPTH,   SS_ORDER_DEPTH,   SS_ORDER_DEPTH,
	                                           SS_ORDER_BREADTH, SS_ORDER_BREADTH, SS_ORDER_BREADTH};

	(void)state;
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	sweep_init(&s, &base, counts, 2, both, 2);
	assert_int_equal(s.ncounts, 3); /* 1 prepended */
	assert_int_equal(s.counts[0], 1);
	assert_int_equal(s.counts[1], 2);
	assert_int_equal(s.counts[2], 4);
	assert_int_equal(s.norders, 2);
	assert_int_equal(s.n, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(s.pt[i].streams, want_streams[i]);
		assert_int_equal(s.pt[i].order, want_order[i]);
		assert_false(s.pt[i].done);
	}
	assert_int_equal(sweep_progress(&s), 0);
	assert_ptr_equal(sweep_find(&s, 2, SS_ORDER_BREADTH), &s.pt[4]);
	assert_ptr_equal(sweep_find(&s, 1, SS_ORDER_DEPTH), &s.pt[0]);
	assert_null(sweep_find(&s, 8, SS_ORDER_DEPTH));
	sweep_free(&s);
	assert_null(s.pt);

	/* 1 already there: not added twice; one order */
	sweep_init(&s, &base, with_one, 2, breadth, 1);
	assert_int_equal(s.ncounts, 2);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.pt[0].streams, 1);
	assert_int_equal(s.pt[1].streams, 8);
	assert_int_equal(s.pt[1].order, SS_ORDER_BREADTH);
	assert_null(sweep_find(&s, 8, SS_ORDER_DEPTH));
	sweep_free(&s);
}

/* The sweep nobody chose: 1, 2, 4 .. as far as each device can have that many streams (128 in all), and of the
 * orders asked for only those the experiment can run, with a note naming the one left out and why. */
static void test_default_sweep(void **state)
{
	static const enum ss_order both[] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};
	static const int want[] = {1, 2, 4, 8, 16, 32, 64, 128};
	struct ss_experiment base;
	struct ss_sweep s;
	int counts[SS_SWEEP_MAX_COUNTS];

	(void)state;
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	assert_int_equal(sweep_default_counts(&base, counts), 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(counts[i], want[i]);
	base.devices = 2;
	assert_int_equal(sweep_default_counts(&base, counts), 7); /* 64 each: 128 in all */
	assert_int_equal(counts[6], 64);
	base.devices = 3;
	assert_int_equal(sweep_default_counts(&base, counts), 6); /* 42 each at most */
	assert_int_equal(counts[5], 32);

	/* one device: both orders, no note */
	base.devices = 1;
	sweep_init_default(&s, &base, both, 2);
	assert_int_equal(s.norders, 2);
	assert_int_equal(s.n, 16);
	assert_string_equal(s.note, "");
	sweep_free(&s);

	/* two devices run depth-first only: breadth is left out, said once */
	base.devices = 2;
	sweep_init_default(&s, &base, both, 2);
	assert_int_equal(s.norders, 1);
	assert_int_equal(s.orders[0], SS_ORDER_DEPTH);
	assert_int_equal(s.ncounts, 7);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.pt[6].streams, 64);
	assert_non_null(strstr(s.note, "breadth-first left out: --devices 2 cannot run --order breadth: it runs "));
	assert_non_null(strstr(s.note, "depth-first"));
	assert_null(strchr(s.note, '\n'));
	for (size_t i = 0; i < s.n; i++) {
		struct ss_experiment e;
		char *cause = NULL;

		sweep_point_experiment(&s, i, &e);
		if (experiment_validate(&e, &cause) != 0)
			fail_msg("point %zu: %s", i, cause);
	}
	sweep_free(&s);

	/* no order runs (the experiment itself cannot): every order stays, its points say why */
	base.devices = 1;
	base.connections = 0;
	sweep_init_default(&s, &base, both, 2);
	assert_int_equal(s.norders, 2);
	assert_string_equal(s.note, "");
	sweep_free(&s);
}

/* The pair of orders a sweep of both compares: document 003's best and weaker for an experiment in either, a step
 * program's interleave against depth-first, depth and breadth for any other; each labelled as the experiment line
 * writes it. */
static void test_both_orders(void **state)
{
	static const struct {
		enum ss_order order, first, second;
	} cases[] = {
	    {SS_ORDER_DEPTH, SS_ORDER_DEPTH, SS_ORDER_BREADTH},
	    {SS_ORDER_BREADTH, SS_ORDER_DEPTH, SS_ORDER_BREADTH},
	    {SS_ORDER_BEST, SS_ORDER_BEST, SS_ORDER_WEAKER},
	    {SS_ORDER_WEAKER, SS_ORDER_BEST, SS_ORDER_WEAKER},
	    {SS_ORDER_INTERLEAVE, SS_ORDER_INTERLEAVE, SS_ORDER_DEPTH},
	};
	struct ss_experiment e;
	enum ss_order pair[2];

	(void)state;
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		e.order = cases[i].order;
		sweep_both_orders(&e, pair);
		assert_int_equal(pair[0], cases[i].first);
		assert_int_equal(pair[1], cases[i].second);
	}
	assert_string_equal(experiment_order_label(SS_ORDER_DEPTH), "depth-first");
	assert_string_equal(experiment_order_label(SS_ORDER_BREADTH), "breadth-first");
	assert_string_equal(experiment_order_label(SS_ORDER_BEST), "best-first");
	assert_string_equal(experiment_order_label(SS_ORDER_WEAKER), "weaker-first");
	assert_string_equal(experiment_order_label(SS_ORDER_INTERLEAVE), "interleaved");
}

/* Each point's experiment is the base with the point's streams and order; threads and chunks follow streams. */
static void test_next_experiments(void **state)
{
	struct ss_experiment base, e;
	struct ss_sweep s;
	static const int counts[] = {1, 2, 4};
	static const enum ss_order both[] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};
	static const int want_chunks[] = {3, 3, 4};
	size_t idx, handed = 0;

	(void)state;
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	base.sync = SS_SYNC_REVERSE;
	base.hostmem = SS_MEM_PAGEABLE;
	base.streams = 8;
	base.threads = 8; /* one host thread per stream */
	base.chunks = 3;
	sweep_init(&s, &base, counts, 3, both, 2);
	while (sweep_next(&s, &e, &idx)) {
		char *cause = NULL;

		assert_int_equal(idx, handed);
		assert_int_equal(e.streams, counts[idx % 3]);
		assert_int_equal(e.order, both[idx / 3]);
		assert_int_equal(e.threads, e.streams);
		assert_int_equal(e.chunks, want_chunks[idx % 3]); /* never fewer chunks than streams */
		assert_int_equal(e.sync, SS_SYNC_REVERSE);
		assert_int_equal(e.hostmem, SS_MEM_PAGEABLE);
		assert_int_equal(e.elements, base.elements);
		if (experiment_validate(&e, &cause) != 0)
			fail_msg("point %zu invalid: %s", idx, cause);
		handed++;
	}
	assert_int_equal(handed, 6);
	assert_false(sweep_next(&s, &e, &idx));
	sweep_free(&s);
}

/* A timeline of one H2D, one kernel and one D2H interval per triple. */
static void make_tl(struct ss_timeline *t, uint64_t h0, uint64_t h1, uint64_t k0, uint64_t k1, uint64_t d0, uint64_t d1)
{
	struct ss_record r;

	timeline_init(t);
	memset(&r, 0, sizeof r);
	r.kind = SS_KIND_H2D;
	r.start = h0;
	r.end = h1;
	timeline_add(t, &r);
	r.kind = SS_KIND_KERNEL;
	r.start = k0;
	r.end = k1;
	timeline_add(t, &r);
	r.kind = SS_KIND_D2H;
	r.start = d0;
	r.end = d1;
	timeline_add(t, &r);
}

static struct ss_run_result result(uint64_t traced, uint64_t untraced)
{
	struct ss_run_result r;

	memset(&r, 0, sizeof r);
	snprintf(r.device, sizeof r.device, "HAND MADE");
	r.traced_ns = traced;
	r.untraced_ns = untraced;
	r.have_untraced = untraced > 0;
	r.dropped = 7;
	r.verified = true;
	return r;
}

static void test_done_speedup_bound(void **state)
{
	struct ss_experiment base;
	struct ss_sweep s;
	struct ss_timeline tl;
	struct ss_run_result plain = result(0, 0), slow = result(880, 700);
	static const int counts[] = {2, 4};
	static const enum ss_order both[] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};
	const struct ss_sweep_point *p;

	(void)state;
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	sweep_init(&s, &base, counts, 2, both, 2); /* 0:1d 1:2d 2:4d 3:1b 4:2b 5:4b */

	/* 4 streams depth first, before its reference: no speedup yet */
	make_tl(&tl, 0, 300, 100, 500, 300, 600); /* makespan 600 */
	sweep_done(&s, 2, &tl, &plain, NULL);
	timeline_free(&tl);
	p = &s.pt[2];
	assert_true(p->done);
	assert_false(p->failed);
	assert_int_equal(p->a.makespan_ns, 600);
	assert_false(p->a.have_speedup);
	assert_int_equal(p->counts_expected[SS_KIND_H2D], 8);
	assert_int_equal(p->counts_expected[SS_KIND_KERNEL], 4);
	assert_int_equal(p->counts_expected[SS_KIND_D2H], 4);
	assert_int_equal(p->dropped, 7);
	assert_true(p->verified);
	assert_string_equal(s.device, "HAND MADE");

	/* the 1-stream depth reference: h = 300, k = 400, d = 300, makespan 1000 */
	make_tl(&tl, 0, 300, 300, 700, 700, 1000);
	sweep_done(&s, 0, &tl, &plain, NULL);
	timeline_free(&tl);
	assert_true(s.pt[0].a.have_speedup);
	assert_near(s.pt[0].a.speedup, 1.0, 0.0);
	assert_int_equal(s.pt[0].a.bound_ns, 1000);
	assert_near(s.pt[0].a.gap, 0.0, 1e-12);
	/* ... which the earlier 4-stream point now compares against */
	assert_true(p->a.have_speedup);
	assert_near(p->a.speedup, 1000.0 / 600.0, 1e-12);
	assert_true(p->a.have_bound);
	assert_int_equal(p->a.n, 4);
	assert_int_equal(p->a.h_ns, 300);
	assert_int_equal(p->a.k_ns, 400);
	assert_int_equal(p->a.d_ns, 300);
	assert_int_equal(p->a.bound_ns, 550); /* 1000/4 + 3/4 * 400 */
	assert_near(p->a.gap, 600.0 / 550.0 - 1.0, 1e-12);

	/* 2 streams depth with 25.7% tracing overhead: the untraced makespan (700) is what counts */
	make_tl(&tl, 0, 300, 200, 600, 500, 800); /* CUPTI makespan 800 */
	sweep_done(&s, 1, &tl, &slow, NULL);
	timeline_free(&tl);
	p = &s.pt[1];
	assert_int_equal(p->a.makespan_ns, 800);
	assert_true(p->a.used_untraced);
	assert_int_equal(p->a.used_ns, 700);
	assert_near(p->a.speedup, 1000.0 / 700.0, 1e-12);
	assert_int_equal(p->a.bound_ns, 700); /* 1000/2 + 1/2 * 400 */
	assert_near(p->a.gap, 0.0, 1e-12);

	/* breadth has its own reference: h = k = d = 100 */
	make_tl(&tl, 0, 100, 100, 200, 200, 300);
	sweep_done(&s, 3, &tl, &plain, NULL);
	timeline_free(&tl);
	make_tl(&tl, 0, 100, 25, 125, 50, 150); /* makespan 150 */
	sweep_done(&s, 5, &tl, &plain, NULL);
	timeline_free(&tl);
	p = &s.pt[5];
	assert_near(p->a.speedup, 2.0, 1e-12);
	assert_int_equal(p->a.bound_ns, 150); /* 300/4 + 3/4 * 100 = (n+2)/(3n) of 300 */
	assert_near(p->a.gap, 0.0, 1e-12);
	/* the depth points did not move */
	assert_near(s.pt[2].a.speedup, 1000.0 / 600.0, 1e-12);

	/* a failed point */
	sweep_done(&s, 4, NULL, NULL, "the runner process crashed (signal 6: Aborted)");
	assert_true(s.pt[4].done);
	assert_true(s.pt[4].failed);
	assert_string_equal(s.pt[4].error, "the runner process crashed (signal 6: Aborted)");
	assert_int_equal(sweep_progress(&s), 6);
	sweep_done(&s, 99, NULL, NULL, "out of range"); /* ignored */
	assert_int_equal(sweep_progress(&s), 6);
	sweep_free(&s);
}

/* A failed reference point leaves the other points of its order without speedup. */
static void test_failed_reference(void **state)
{
	struct ss_experiment base;
	struct ss_sweep s;
	struct ss_timeline tl;
	struct ss_run_result plain = result(0, 0);
	static const int counts[] = {1, 2};
	static const enum ss_order depth[] = {SS_ORDER_DEPTH};

	(void)state;
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	sweep_init(&s, &base, counts, 2, depth, 1);
	sweep_done(&s, 0, NULL, NULL, NULL);
	assert_true(s.pt[0].failed);
	assert_string_equal(s.pt[0].error, "failed");
	make_tl(&tl, 0, 300, 100, 500, 300, 600);
	sweep_done(&s, 1, &tl, &plain, NULL);
	timeline_free(&tl);
	assert_int_equal(s.pt[1].a.makespan_ns, 600);
	assert_false(s.pt[1].a.have_speedup);
	assert_false(s.pt[1].a.have_bound);
	sweep_free(&s);
}

/* Test backends: a run takes 1.2 ms / streams, split into equal H2D, kernel and D2H thirds at 1 stream. */
static int linear_available(char *device, size_t len, char **cause)
{
	(void)cause;
	snprintf(device, len, "LINEAR TEST");
	return 0;
}

static int linear_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                      struct ss_run_result *res, char **cause)
{
	uint64_t t = 1200000 / (uint64_t)e->streams;
	struct ss_record r;

	(void)ops;
	if (e->streams == 4 && e->work == 13) { /* the failing variant */
		*cause = strdup("four streams are not allowed today");
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.kind = SS_KIND_H2D;
	r.end = t / 3;
	sink->record(sink->ctx, &r, "h2d");
	r.kind = SS_KIND_KERNEL;
	r.start = t / 3;
	r.end = 2 * t / 3;
	sink->record(sink->ctx, &r, "add");
	r.kind = SS_KIND_D2H;
	r.start = 2 * t / 3;
	r.end = t;
	sink->record(sink->ctx, &r, "d2h");
	snprintf(res->device, sizeof res->device, "LINEAR TEST");
	res->modelled = true;
	res->repeats = e->repeat;
	return 0;
}

static const struct ss_backend linear_backend = {
    .name = "linear",
    .modelled = true,
    .available = linear_available,
    .run = linear_run,
};

static size_t progress_calls[16];
static size_t nprogress;

static void on_progress(const struct ss_sweep *s, size_t idx)
{
	(void)s;
	if (nprogress < 16)
		progress_calls[nprogress] = idx;
	nprogress++;
}

static void test_run_through_runner(void **state)
{
	struct ss_experiment base;
	struct ss_sweep s;
	static const int counts[] = {2, 4, 8};
	static const enum ss_order both[] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};
	char *cause = NULL;

	(void)state;
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	sweep_init(&s, &base, counts, 3, both, 2);
	nprogress = 0;
	if (sweep_run(&s, &linear_backend, on_progress, &cause) != 0)
		fail_msg("sweep failed: %s", cause);
	assert_int_equal(nprogress, 8);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(progress_calls[i], i);
	assert_true(s.modelled);
	assert_string_equal(s.device, "LINEAR TEST");
	for (size_t i = 0; i < s.n; i++) {
		const struct ss_sweep_point *p = &s.pt[i];
		double n = p->streams;

		assert_true(p->done);
		assert_false(p->failed);
		assert_int_equal(p->a.makespan_ns, 1200000 / (uint64_t)p->streams);
		assert_int_equal(p->a.counts[SS_KIND_KERNEL], 1);
		assert_near(p->a.speedup, n, 1e-9);
		/* bound = 400 us * (n+2)/n; gap = 3/(n+2) - 1 */
		assert_in_range(p->a.bound_ns, (uint64_t)(400000.0 * (n + 2) / n) - 1,
		                (uint64_t)(400000.0 * (n + 2) / n) + 1);
		assert_near(p->a.gap, 3.0 / (n + 2) - 1.0, 1e-5);
	}
	sweep_free(&s);

	/* a failing point stops the sweep with the runner's exit code and the backend's cause */
	base.work = 13;
	sweep_init(&s, &base, counts, 3, both, 2);
	nprogress = 0;
	assert_int_equal(sweep_run(&s, &linear_backend, on_progress, &cause), 3);
	assert_string_equal(cause, "four streams are not allowed today");
	free(cause);
	assert_int_equal(nprogress, 3);
	assert_true(s.pt[0].done && !s.pt[0].failed);
	assert_true(s.pt[1].done && !s.pt[1].failed);
	assert_true(s.pt[2].done && s.pt[2].failed);
	assert_string_equal(s.pt[2].error, "four streams are not allowed today");
	assert_false(s.pt[3].done);
	assert_int_equal(sweep_progress(&s), 3);
	sweep_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_counts),     cmocka_unit_test(test_init_points),
	    cmocka_unit_test(test_default_sweep),    cmocka_unit_test(test_both_orders),
	    cmocka_unit_test(test_next_experiments), cmocka_unit_test(test_done_speedup_bound),
	    cmocka_unit_test(test_failed_reference), cmocka_unit_test(test_run_through_runner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
