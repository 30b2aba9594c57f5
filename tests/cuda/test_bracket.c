/* test_bracket.c: event-timed prefetch records (bracket.c) on hand-made event times and CUPTI records with a known
 * clock offset: the offset found from the kernels' bounds, the records' kinds, bytes, streams and correlation ids,
 * and what happens without kernels or with brackets that do not fit the op list. No GPU needed. */
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
#include <string.h>

#include "core/experiment.h"
#include "core/planner.h"
#include "cuda/bracket.h"

#define OFFSET 5000000000.0 /* CUPTI ns at event time 0 */
#define TID 777u            /* the issuing thread's OS id */

static const uint32_t raw_ids[2] = {13, 14};

static int test_thread_index(void *arg, uint32_t os_thread)
{
	(void)arg;
	return os_thread == TID ? 0 : -1;
}

/* The managed preset on 2 streams: per stream prefetch x, prefetch y (to the device), kernel, prefetch z (back). */
static void managed_ops(struct ss_oplist *ops)
{
	struct ss_experiment e;

	experiment_preset(&e, SS_PRESET_MANAGED);
	e.streams = 2;
	planner_build(&e, ops);
	assert_int_equal(planner_count_kind(ops, SS_OP_PREFETCH_H2D), 4);
	assert_int_equal(planner_count_kind(ops, SS_OP_PREFETCH_D2H), 2);
}

static struct cupti_capture_rec rec(int kind, int stream, double start, double end, uint32_t corr, const char *name)
{
	struct cupti_capture_rec c;

	memset(&c, 0, sizeof c);
	c.r.kind = (uint8_t)kind;
	c.r.stream = stream;
	c.r.start = (uint64_t)start;
	c.r.end = (uint64_t)end;
	c.r.correlation = corr;
	c.r.thread = kind == SS_KIND_API ? TID : 0;
	c.name = (char *)name;
	return c;
}

/* The run's CUPTI records into in at *nin: the kernels of the first nkernels streams (s0's 205..300 us, s1's
 * 601..700 us after the offset) and the first ncalls cudaMemPrefetchAsync calls, 1 us apart from 100 us before
 * event time 0, correlation ids 101 on, in issue order. */
static void run_records(struct cupti_capture_rec *in, size_t *nin, int nkernels, uint32_t ncalls)
{
	if (nkernels > 0)
		in[(*nin)++] = rec(SS_KIND_KERNEL, 0, OFFSET + 205000, OFFSET + 300000, 3, "ss_add");
	if (nkernels > 1)
		in[(*nin)++] = rec(SS_KIND_KERNEL, 1, OFFSET + 601000, OFFSET + 700000, 7, "ss_add");
	for (uint32_t k = 0; k < ncalls; k++)
		in[(*nin)++] = rec(SS_KIND_API, -1, OFFSET - 100000 + k * 1000, OFFSET - 99500 + k * 1000, 101 + k,
		                   "cudaMemPrefetchAsync");
}

/* bracket_records with the test's thread mapper and stream ids, which must succeed. */
static void place(const struct ss_oplist *ops, const struct bracket_time *bt, size_t nbt,
                  const struct cupti_capture_rec *in, size_t nin, struct cupti_capture_rec **out, size_t *nout,
                  struct bracket_result *res)
{
	char *cause = NULL;

	if (bracket_records(ops, bt, nbt, in, nin, test_thread_index, NULL, raw_ids, 2, out, nout, res, &cause) != 0)
		fail_msg("bracket_records: %s", cause != NULL ? cause : "?");
}

/* Event times per stream (ms): x 0..0.1, y 0.1..0.2 (s1: 0.5..0.6), z after the kernel. */
static size_t brackets(const struct ss_oplist *ops, struct bracket_time *bt)
{
	static const double times[2][3][2] = {{{0.000, 0.100}, {0.100, 0.200}, {0.302, 0.400}},
	                                      {{0.400, 0.500}, {0.500, 0.600}, {0.7005, 0.800}}};
	int seen[2] = {0, 0};
	size_t n = 0;

	for (size_t i = 0; i < ops->n; i++)
		if (bracket_wanted(ops->op[i].kind)) {
			int s = ops->op[i].stream;
			bt[n].op = i;
			bt[n].idle = false;
			bt[n].before_ns = bt[n].after_ns = 0;
			bt[n].before_ms = times[s][seen[s]][0];
			bt[n].after_ms = times[s][seen[s]][1];
			seen[s]++;
			n++;
		}
	return n;
}

/* s0's kernel bounds the offset to [O - 2000, O + 5000] ns, s1's to [O - 500, O + 1000]: O + 250, 1500 wide. */
static void test_offset_and_records(void **state)
{
	struct ss_oplist ops;
	struct bracket_time bt[8];
	struct cupti_capture_rec in[10], *out = NULL;
	struct bracket_result res;
	size_t nbt, nin = 0, nout = 0;

	(void)state;
	managed_ops(&ops);
	nbt = brackets(&ops, bt);
	assert_int_equal(nbt, 6);
	run_records(in, &nin, 2, 6);
	in[nin++] = rec(SS_KIND_API, -1, OFFSET - 50000, OFFSET - 40000, 200, "cudaLaunchKernel");
	place(&ops, bt, nbt, in, nin, &out, &nout, &res);
	assert_true(res.placed);
	assert_int_equal(res.anchors, 2);
	assert_int_equal(res.added, 6);
	assert_int_equal(res.matched, 6);
	assert_int_equal(nout, 6);
	assert_true(res.width_ns > 1499 && res.width_ns < 1501);
	for (size_t b = 0; b < nout; b++) {
		const struct ss_op *op = &ops.op[bt[b].op];
		double want0 = OFFSET + 250 + bt[b].before_ms * 1e6;

		assert_true((double)out[b].r.start > want0 - 1 && (double)out[b].r.start < want0 + 1);
		assert_int_equal(out[b].r.end - out[b].r.start,
		                 (uint64_t)((bt[b].after_ms - bt[b].before_ms) * 1e6 + 0.5));
		assert_int_equal(out[b].r.kind, op->kind == SS_OP_PREFETCH_H2D ? SS_KIND_H2D : SS_KIND_D2H);
		assert_int_equal(out[b].r.bytes, planner_op_bytes(&ops, op));
		assert_int_equal(out[b].r.stream, op->stream);
		assert_int_equal(out[b].r.raw_stream, raw_ids[op->stream]);
		assert_int_equal(out[b].r.flags, SS_REC_MANAGED | SS_REC_ASYNC | SS_REC_EVENT_TIMED);
		assert_int_equal(out[b].r.correlation, 101 + b); /* depth-first: the b-th prefetch issued */
		assert_string_equal(out[b].name, op->kind == SS_OP_PREFETCH_H2D ? "Prefetch HtoD (Managed -> Device)"
		                                                                : "Prefetch DtoH (Device -> Managed)");
	}
	bracket_free(out, nout);
	planner_free(&ops);
}

/* Without kernel records nothing places the events: no records, placed false, not an error. A missing call record
 * leaves the correlation ids at 0 rather than shifting them. */
static void test_unplaced_and_unmatched(void **state)
{
	struct ss_oplist ops;
	struct bracket_time bt[8];
	struct cupti_capture_rec in[8], *out = NULL;
	struct bracket_result res;
	size_t nbt, nout = 0, nin = 0;

	(void)state;
	managed_ops(&ops);
	nbt = brackets(&ops, bt);
	place(&ops, bt, nbt, NULL, 0, &out, &nout, &res);
	assert_false(res.placed);
	assert_int_equal(nout, 0);
	assert_null(out);
	/* one kernel only (s1's is missing): s0 places them; 5 of 6 calls: no correlation ids */
	run_records(in, &nin, 1, 5);
	place(&ops, bt, nbt, in, nin, &out, &nout, &res);
	assert_true(res.placed);
	assert_int_equal(res.anchors, 1);
	assert_int_equal(res.matched, 0);
	assert_int_equal(nout, 6);
	assert_true(res.width_ns > 6999 && res.width_ns < 7001);
	for (size_t b = 0; b < nout; b++)
		assert_int_equal(out[b].r.correlation, 0);
	assert_true((double)out[0].r.start > OFFSET + 1499 && (double)out[0].r.start < OFFSET + 1501);
	bracket_free(out, nout);
	planner_free(&ops);
}

/* t is want to within a nanosecond. */
static void near(uint64_t t, double want)
{
	assert_true((double)t > want - 1 && (double)t < want + 1);
}

/* Ops whose stream was idle at the call have no event before them: they start with their call (its API record, in
 * CUPTI's clock already), and a kernel before one is bounded by the event after it instead. Without the calls,
 * such a record starts where it ends and is counted as such. */
static void test_idle(void **state)
{
	struct ss_oplist ops;
	struct bracket_time bt[8];
	struct cupti_capture_rec in[10], *out = NULL;
	struct bracket_result res;
	size_t nbt, nin = 0, nout = 0;

	(void)state;
	managed_ops(&ops);
	nbt = brackets(&ops, bt);
	/* issue order x0 y0 z0 x1 y1 z1: x0 (b 0) and z1 (b 5) found their streams idle */
	bt[0].idle = bt[5].idle = true;
	bt[0].before_ms = bt[5].before_ms = -1; /* not recorded: never used */
	run_records(in, &nin, 2, 6);
	place(&ops, bt, nbt, in, nin, &out, &nout, &res);
	/* s0: [O - 2000, O + 5000]; s1: hi O + 1000, lo from z1's after event only (O - 100000): O - 500, 3000 wide */
	assert_true(res.placed);
	assert_int_equal(res.from_call, 2);
	assert_int_equal(res.no_start, 0);
	assert_int_equal(res.matched, 6);
	assert_true(res.width_ns > 2999 && res.width_ns < 3001);
	assert_int_equal(out[0].r.start, (uint64_t)(OFFSET - 100000));
	assert_int_equal(out[5].r.start, (uint64_t)(OFFSET - 95000));
	near(out[0].r.end, OFFSET - 500 + 100000);
	near(out[5].r.end, OFFSET - 500 + 800000);
	near(out[1].r.start, OFFSET - 500 + 100000); /* the others keep their events */
	bracket_free(out, nout);
	/* no calls: the idle ones start where they end */
	nin = 2;
	place(&ops, bt, nbt, in, nin, &out, &nout, &res);
	assert_int_equal(res.from_call, 0);
	assert_int_equal(res.no_start, 2);
	assert_int_equal(res.matched, 0);
	assert_int_equal(out[0].r.start, out[0].r.end);
	assert_int_equal(out[5].r.start, out[5].r.end);
	assert_true(out[1].r.end > out[1].r.start);
	bracket_free(out, nout);
	planner_free(&ops);
}

/* CUPTI's own timestamps of the events measure the clock offset: their median is taken (an outlier changes
 * nothing), inside the kernels' bounds; a median outside them (another clock) is clamped to the nearest bound;
 * without kernels the median alone places the events; an idle op still starts with its call. */
static void test_cupti_offset(void **state)
{
	struct ss_oplist ops;
	struct bracket_time bt[8];
	struct cupti_capture_rec in[10], *out = NULL;
	struct bracket_result res;
	size_t nbt, nin = 0, nout = 0;

	(void)state;
	managed_ops(&ops);
	nbt = brackets(&ops, bt);
	/* true offset O + 100; CUPTI's times 0..35 ns later, and one 35 us later: median O + 113 */
	for (size_t b = 0; b < nbt; b++) {
		bt[b].before_ns = (uint64_t)(OFFSET + 100 + bt[b].before_ms * 1e6 + 0.5) + 7 * b;
		bt[b].after_ns = (uint64_t)(OFFSET + 100 + bt[b].after_ms * 1e6 + 0.5) + 3 * b;
	}
	bt[2].after_ns += 35000 - 6;
	run_records(in, &nin, 2, 0);
	place(&ops, bt, nbt, in, nin, &out, &nout, &res);
	assert_true(res.placed);
	assert_int_equal(res.samples, 12);
	assert_false(res.clamped);
	assert_true(res.shift_ns > -138 && res.shift_ns < -136); /* O + 113 against the bounds' middle O + 250 */
	assert_true(res.spread_lo_ns > -14 && res.spread_lo_ns < -12);
	assert_true(res.spread_hi_ns > 34986 && res.spread_hi_ns < 34988);
	for (size_t b = 0; b < nout; b++) {
		near(out[b].r.start, OFFSET + 113 + bt[b].before_ms * 1e6);
		near(out[b].r.end, OFFSET + 113 + bt[b].after_ms * 1e6);
	}
	bracket_free(out, nout);
	/* an idle op has no time before it and starts with its call; one time fewer */
	bt[0].idle = true;
	bt[0].before_ns = 0;
	run_records(in, &nin, 0, 6);
	place(&ops, bt, nbt, in, nin, &out, &nout, &res);
	assert_int_equal(res.samples, 11);
	assert_int_equal(out[0].r.start, (uint64_t)(OFFSET - 100000));
	bracket_free(out, nout);
	bt[0].idle = false;
	bt[0].before_ns = (uint64_t)(OFFSET + 100);
	/* no kernels: the median alone */
	place(&ops, bt, nbt, NULL, 0, &out, &nout, &res);
	assert_true(res.placed);
	assert_int_equal(res.anchors, 0);
	assert_int_equal(nout, 6);
	near(out[1].r.start, OFFSET + 113 + bt[1].before_ms * 1e6);
	bracket_free(out, nout);
	/* another clock, 1 s off: clamped to the nearer bound, O - 500 */
	for (size_t b = 0; b < nbt; b++) {
		bt[b].before_ns -= 1000000000u;
		bt[b].after_ns -= 1000000000u;
	}
	place(&ops, bt, nbt, in, 2, &out, &nout, &res);
	assert_true(res.clamped);
	assert_true(res.shift_ns > -751 && res.shift_ns < -749);
	near(out[1].r.start, OFFSET - 500 + bt[1].before_ms * 1e6);
	bracket_free(out, nout);
	planner_free(&ops);
}

/* Brackets that do not fit: an op that is no prefetch, one timed twice, one that ends before it starts. */
static void test_bad_brackets(void **state)
{
	struct ss_oplist ops;
	struct bracket_time bt[8];
	struct cupti_capture_rec *out = NULL;
	struct bracket_result res;
	size_t nbt, nout = 0;
	char *cause = NULL;

	(void)state;
	managed_ops(&ops);
	nbt = brackets(&ops, bt);
	for (int bad = 0; bad < 3; bad++) {
		struct bracket_time b2[8];

		memcpy(b2, bt, sizeof bt);
		if (bad == 0)
			b2[0].op = 2; /* the kernel */
		else if (bad == 1)
			b2[1].op = b2[0].op;
		else
			b2[2].after_ms = b2[2].before_ms - 0.001;
		assert_int_equal(bracket_records(&ops, b2, nbt, NULL, 0, test_thread_index, NULL, raw_ids, 2, &out,
		                                 &nout, &res, &cause),
		                 -1);
		assert_non_null(cause);
		assert_non_null(strstr(cause, "event-timed op"));
		free(cause);
		cause = NULL;
		assert_null(out);
	}
	planner_free(&ops);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_offset_and_records), cmocka_unit_test(test_idle),
	    cmocka_unit_test(test_cupti_offset),       cmocka_unit_test(test_unplaced_and_unmatched),
	    cmocka_unit_test(test_bad_brackets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
