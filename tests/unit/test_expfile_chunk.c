/* test_expfile_chunk.c: an experiment file's [chunk] step program (src/cli/expfile.c, experiment.c, planner.c,
 * the model): the steps and the interleave as parsed; every error one line naming the file, the line and what is
 * valid, and the rules between the program and the options; the op list call for call in each issue order
 * (depth, breadth, the interleave) with the interfering default-stream op and one thread per stream; the model's
 * memsets and per-step work; the example programs validate, plan and model. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/expfile.h"
#include "cli/expopts.h"
#include "core/experiment.h"
#include "core/planner.h"
#include "core/timeline.h"
#include "model/model.h"
#include "model/profile.h"

/* parse parses text as file "t.ini" into e; 0, or -1 with the cause in *cause. */
static int parse(const char *text, struct ss_experiment *e, char **cause)
{
	struct expfile f;

	*cause = NULL;
	if (expfile_parse("t.ini", text, strlen(text), &f, cause) != 0)
		return -1;
	return expopts_experiment(&f, e, cause);
}

/* parse_ok parses text, failing the test with the cause when it does not or when the experiment does not
 * validate. */
static struct ss_experiment parse_ok(const char *text)
{
	struct ss_experiment e;
	char *cause = NULL;

	if (parse(text, &e, &cause) != 0 || experiment_validate(&e, &cause) != 0)
		fail_msg("'%s' refused: %s", text, cause);
	return e;
}

/* expect_cause parses text and expects it refused, by the file or by experiment_validate, with exactly want. */
static void expect_cause(const char *text, const char *want)
{
	struct ss_experiment e;
	char *cause = NULL;

	if (parse(text, &e, &cause) == 0 && experiment_validate(&e, &cause) == 0)
		fail_msg("'%s' accepted, want: %s", text, want);
	if (strcmp(cause, want) != 0)
		fail_msg("'%s':\n got: %s\nwant: %s", text, cause, want);
	assert_null(strchr(cause, '\n'));
	free(cause);
}

/* The steps as parsed: kinds, buffers, host memory, kernels and their settings, bytes, lines; the interleave and
 * the order it makes; the element size decrypt makes. */
static void test_parse(void **state)
{
	struct ss_experiment e;

	(void)state;
	e = parse_ok("[experiment]\nstreams = 2\n\n[chunk]\nstep = h2d x pinned\nstep: h2d y\nstep = memset z 0x2a\n"
	             "step = kernel fma work=7 grid=3 block=32 ; a comment\nstep = d2h z pageable\nstep = host z\n"
	             "step = event\ninterleave = 1 2@c 3 4@c-1 5@c-1 6@c-1 7@c-2\n");
	assert_int_equal(e.nsteps, 7);
	assert_int_equal(e.step[0].kind, SS_STEP_H2D);
	assert_int_equal(e.step[0].buffer, 0);
	assert_int_equal(e.step[0].hostmem, SS_MEM_PINNED);
	assert_int_equal(e.step[0].line, 5);
	assert_int_equal(e.step[1].buffer, 1);
	assert_int_equal(e.step[1].hostmem, SS_STEP_DEFAULT);
	assert_int_equal(e.step[2].kind, SS_STEP_MEMSET);
	assert_int_equal(e.step[2].value, 42);
	/* decimal with a leading 0 is decimal, not octal: 010 is ten, 09 nine */
	assert_int_equal(parse_ok("[chunk]\nstep = memset z 010\n").step[0].value, 10);
	assert_int_equal(parse_ok("[chunk]\nstep = memset z 09\n").step[0].value, 9);
	assert_int_equal(parse_ok("[chunk]\nstep = kernel add work=010\n").step[0].work, 10);
	/* work= and grid= take the suffixes --work and --grid take; block= and bytes do not */
	assert_int_equal(parse_ok("[chunk]\nstep = kernel add work=4k grid=1M\n").step[0].work, 4096);
	assert_int_equal(parse_ok("[chunk]\nstep = kernel add work=4k grid=1M\n").step[0].grid, 1u << 20);
	expect_cause("[chunk]\nstep = kernel add block=1k\n",
	             "t.ini:2: step 'kernel add block=1k': block '1k': valid is an integer 1..1024");
	assert_int_equal(e.step[3].kind, SS_STEP_KERNEL);
	assert_int_equal(e.step[3].kernel, SS_KERNEL_FMA);
	assert_int_equal(e.step[3].work, 7);
	assert_int_equal(e.step[3].grid, 3);
	assert_int_equal(e.step[3].block, 32);
	assert_int_equal(e.step[4].hostmem, SS_MEM_PAGEABLE);
	assert_int_equal(e.step[5].kind, SS_STEP_HOST);
	assert_int_equal(e.step[5].buffer, 2);
	assert_int_equal(e.step[6].kind, SS_STEP_EVENT);
	assert_int_equal(e.step[6].line, 11);
	assert_int_equal(e.ninter, 7);
	assert_int_equal(e.inter[3].step, 3);
	assert_int_equal(e.inter[3].lag, 1);
	assert_int_equal(e.inter[2].lag, 0);
	assert_int_equal(e.inter[5].lag, 1);
	assert_int_equal(e.inter[6].lag, 2);
	assert_int_equal(e.order, SS_ORDER_INTERLEAVE);
	assert_int_equal(e.elem_size, 4);
	assert_int_equal(experiment_buffer_hostmem(&e, 0), SS_MEM_PINNED);
	assert_int_equal(experiment_buffer_hostmem(&e, 2), SS_MEM_PAGEABLE);
	/* an order key after the interleave's section, or before it, wins over the interleave */
	e = parse_ok("[chunk]\nstep = h2d x\nstep = d2h x\ninterleave = 1 2\n[experiment]\norder = breadth\n");
	assert_int_equal(e.order, SS_ORDER_BREADTH);
	/* a [chunk] alone is a file; decrypt makes 8-byte elements, --kernel's default kernel step too */
	e = parse_ok("[chunk]\nstep = h2d x\nstep = kernel decrypt x work=3\nstep = d2h x\n");
	assert_int_equal(e.elem_size, 8);
	assert_int_equal(e.preset, SS_PRESET_KERNEL_TRANSFER);
	e = parse_ok("[experiment]\nkernel = decrypt\n[chunk]\nstep = h2d x\nstep = kernel\nstep = d2h x\n");
	assert_int_equal(e.elem_size, 8);
	assert_int_equal(experiment_step_kernel(&e, &e.step[1]), SS_KERNEL_DECRYPT);
	assert_int_equal(experiment_step_work(&e, &e.step[1]), e.work);
}

/* What a step line, the interleave and [chunk] can get wrong: one line each, naming the file and line and what
 * is valid. */
static void test_errors(void **state)
{
	static const char steps[] = "h2d|d2h x|y|z [pinned|pageable], kernel [add|fma|decrypt|spin] [x|y|z] [work=N] "
	                            "[grid=N] [block=N], memset x|y|z BYTE, event, host x|y|z";
	char want[1024], text[2048];

	(void)state;
	snprintf(want, sizeof want, "t.ini:2: step 'copy x': valid steps are %s", steps);
	expect_cause("[chunk]\nstep = copy x\n", want);
	expect_cause("[chunk]\nstep = h2d w\n", "t.ini:2: step 'h2d w': buffer 'w': valid is x|y|z");
	expect_cause("[chunk]\nstep = h2d\n", "t.ini:2: step 'h2d': h2d needs a buffer: valid is h2d x|y|z");
	expect_cause("[chunk]\nstep = d2h x managed-prefetch\n",
	             "t.ini:2: step 'd2h x managed-prefetch': host memory 'managed-prefetch': valid is pinned|pageable "
	             "(one kind per buffer; managed memory is --host-mem's, for presets)");
	snprintf(want, sizeof want,
	         "t.ini:2: step 'h2d x pinned extra': 'extra' is one word too many: valid steps are %s", steps);
	expect_cause("[chunk]\nstep = h2d x pinned extra\n", want);
	snprintf(want, sizeof want, "t.ini:2: step 'event x': 'x' is one word too many: valid steps are %s", steps);
	expect_cause("[chunk]\nstep = event x\n", want);
	expect_cause("[chunk]\nstep = memset z\n", "t.ini:2: step 'memset z': memset needs a byte: valid is memset "
	                                           "x|y|z 0..255");
	expect_cause("[chunk]\nstep = memset z 256\n",
	             "t.ini:2: step 'memset z 256': byte '256': valid is 0..255 (or 0x00..0xff)");
	expect_cause("[chunk]\nstep = kernel add work=2 work=3\n",
	             "t.ini:2: step 'kernel add work=2 work=3': work is given twice: give it once");
	expect_cause("[chunk]\nstep = memset z 0x\n",
	             "t.ini:2: step 'memset z 0x': byte '0x': valid is 0..255 (or 0x00..0xff)");
	expect_cause("[chunk]\nstep = memset z 0x-1\n",
	             "t.ini:2: step 'memset z 0x-1': byte '0x-1': valid is 0..255 (or 0x00..0xff)");
	expect_cause("[chunk]\nstep = memset z -1\n",
	             "t.ini:2: step 'memset z -1': byte '-1': valid is 0..255 (or 0x00..0xff)");
	expect_cause("[chunk]\nstep = memset q 1\n", "t.ini:2: step 'memset q 1': buffer 'q': valid is x|y|z");
	expect_cause("[chunk]\nstep = host\n", "t.ini:2: step 'host': host needs a buffer: valid is host x|y|z");
	expect_cause("[chunk]\nstep = kernel task\n",
	             "t.ini:2: step 'kernel task': kernel 'task': valid in a step is add|fma|decrypt|spin (the task "
	             "kernel is document 004's whole protocol: its preset)");
	expect_cause("[chunk]\nstep = kernel add x\n",
	             "t.ini:2: step 'kernel add x': buffer 'x': only decrypt takes one (in place; add and fma read x "
	             "and y and write z, spin none)");
	expect_cause(
	    "[chunk]\nstep = kernel add work=0\n",
	    "t.ini:2: step 'kernel add work=0': work '0': valid is an integer 1..100000000 (suffix k, M or G allowed)");
	expect_cause("[chunk]\nstep = kernel fma block=1025\n",
	             "t.ini:2: step 'kernel fma block=1025': block '1025': valid is an integer 1..1024");
	expect_cause("[chunk]\nstep = kernel add speed=3\n",
	             "t.ini:2: step 'kernel add speed=3': 'speed': valid settings are work=N, grid=N, block=N");
	expect_cause("[chunk]\nstep = kernel add blocks\n",
	             "t.ini:2: step 'kernel add blocks': 'blocks': valid is kernel [add|fma|decrypt|spin] [x|y|z] "
	             "[work=N] [grid=N] [block=N]");
	expect_cause("[chunk]\nsteps = event\n",
	             "t.ini:2: unknown key 'steps' in [chunk]: valid keys are step (once per step, in order), "
	             "interleave");
	snprintf(want, sizeof want, "t.ini:2: [chunk] has no steps: valid are step = lines, one per step in order: %s",
	         steps);
	expect_cause("[experiment]\n[chunk]\n; none\n", want);
	/* the program as a whole, at the offending step's line */
	expect_cause("[chunk]\nstep = h2d x pinned\nstep = kernel add\nstep = d2h x pageable\n",
	             "t.ini:4: step 3: buffer x is pageable, but step 1 made it pinned: a buffer's host array is one "
	             "kind of memory (give it on one copy, or the same on each)");
	expect_cause("[chunk]\nstep = kernel decrypt\n\nstep = kernel add\n",
	             "t.ini:4: step 2: the add kernel works on 4-byte elements, step 1's on 8-byte ones: valid is "
	             "decrypt steps alone, or add and fma steps");
	strcpy(text, "[chunk]\n");
	for (int i = 0; i <= SS_MAX_STEPS; i++)
		strcat(text, "step = event\n");
	expect_cause(text, "t.ini:18: too many steps: a chunk has at most 16");
	/* the interleave, at its line */
	expect_cause("[chunk]\nstep = h2d x\ninterleave = 1 2\n",
	             "t.ini:3: interleave item 2 names step 2: valid is 1..1, the steps given");
	expect_cause("[chunk]\ninterleave = 1\nstep = h2d x\nstep = d2h x\n",
	             "t.ini:2: interleave leaves out step 2: give each of the 2 steps once");
	expect_cause("[chunk]\nstep = h2d x\nstep = d2h x\ninterleave = 1 1\n",
	             "t.ini:4: interleave names step 1 twice: give each step once");
	expect_cause("[chunk]\nstep = h2d x\nstep = d2h x\ninterleave = 2 1\n",
	             "t.ini:4: interleave issues a chunk's step 2 before its step 1: a chunk's steps go in order (a "
	             "later step in the same round after it, or with a larger c-K)");
	expect_cause("[chunk]\nstep = h2d x\nstep = d2h x\ninterleave = 1@c-1 2\n",
	             "t.ini:4: interleave issues a chunk's step 2 before its step 1: a chunk's steps go in order (a "
	             "later step in the same round after it, or with a larger c-K)");
	expect_cause("[chunk]\nstep = h2d x\nstep = d2h x\ninterleave = 1 2@d\n",
	             "t.ini:4: interleave item '2@d': valid is N, N@c or N@c-K (step N of the 16 at most, of chunk c - "
	             "K, K 1..255, in round c)");
	expect_cause("[chunk]\nstep = h2d x\nstep = d2h x\ninterleave = 1 2@c-0\n",
	             "t.ini:4: interleave item '2@c-0': valid is N, N@c or N@c-K (step N of the 16 at most, of chunk c "
	             "- K, K 1..255, in round c)");
	expect_cause("[chunk]\nstep = h2d x\nstep = d2h x\ninterleave = 1 2\ninterleave = 1 2\n",
	             "t.ini:5: interleave is given twice (first on line 4): give it once");
	expect_cause("[chunk]\nstep = h2d x\ninterleave = \n",
	             "t.ini:3: interleave has no items: valid is N, N@c or N@c-K, each step once");
	/* the rules between the program and the options: a line without one */
	expect_cause("[experiment]\nhost-mem = managed-prefetch\n[chunk]\nstep = h2d x\n",
	             "invalid --host-mem managed-prefetch for a step program: its copies go between host and device "
	             "arrays; valid is pinned|pageable (per buffer on a copy step: h2d x pageable)");
	expect_cause("[experiment]\norder = best\n[chunk]\nstep = h2d x\n",
	             "invalid --order best for a step program: valid is depth|breadth (interleave with an interleave "
	             "line in [chunk])");
	expect_cause("[experiment]\norder = interleave\n[chunk]\nstep = h2d x\n",
	             "invalid --order interleave for a step program: valid is depth|breadth (interleave with an "
	             "interleave line in [chunk])");
	expect_cause("[experiment]\norder = interleave\n",
	             "invalid --order interleave: it needs an experiment file whose [chunk] gives an interleave; valid "
	             "is depth|breadth|best|weaker");
	expect_cause("[experiment]\nhost-mem = managed-attach\n[chunk]\nstep = kernel\n",
	             "invalid --host-mem managed-attach for a step program: its copies go between host and device "
	             "arrays; valid is pinned|pageable (per buffer on a copy step: h2d x pageable)");
	expect_cause("[experiment]\nkernel = task\n[chunk]\nstep = kernel\n",
	             "step 1 runs --kernel task: valid in a step is add|fma|decrypt|spin (name it on the step: kernel "
	             "add)");
	expect_cause("[experiment]\nkernel = decrypt\n[chunk]\nstep = kernel\nstep = kernel fma\n",
	             "step 2 runs the fma kernel, on 4-byte elements, beside a decrypt step: valid is decrypt steps "
	             "alone, or add and fma steps");
}

/* op_line writes op as "KIND sS cC #STEP BUF[OFF+CNT]" plus what its kind has (a kernel's name, work and shape, a
 * memset's byte, a copy's host memory, an event's index). */
static void op_line(const struct ss_op *op, char *buf, size_t len)
{
	static const char *const kinds[SS_OP_COUNT] = {"h2d",    "d2h",   "kernel", "attach", "pf-h2d",
	                                               "pf-d2h", "event", "esync",  "ssync",  "dsync",
	                                               "gle",    "host",  "memset"};
	char st[8], extra[64] = "";

	if (op->stream == SS_STREAM_LEGACY)
		snprintf(st, sizeof st, "L");
	else if (op->stream == SS_STREAM_HOST)
		snprintf(st, sizeof st, "H");
	else
		snprintf(st, sizeof st, "s%d", op->stream);
	if (op->kind == SS_OP_KERNEL)
		snprintf(extra, sizeof extra, " %s w%u <<<%u,%u>>>", experiment_kernel_name(op->kernel), op->work,
		         op->grid, (unsigned)op->block);
	else if (op->kind == SS_OP_MEMSET)
		snprintf(extra, sizeof extra, " =%u", (unsigned)op->value);
	else if (op->kind == SS_OP_H2D || op->kind == SS_OP_D2H)
		snprintf(extra, sizeof extra, " %s", experiment_hostmem_name(op->hostmem));
	else if (op->kind == SS_OP_EVENT_RECORD || op->kind == SS_OP_EVENT_SYNC)
		snprintf(extra, sizeof extra, " ev%d", op->event);
	snprintf(buf, len, "%s %s t%d c%d #%d %c[%llu+%llu]%s", kinds[op->kind], st, op->thread, op->chunk,
	         op->step + 1, op->buffer >= 0 && op->buffer < 3 ? "xyz"[op->buffer] : '-',
	         (unsigned long long)op->offset, (unsigned long long)op->count, extra);
}

/* expect_ops plans e and fails unless its op list is want, one op_line a line, in order (ids 1..n). */
static void expect_ops(const char *what, const struct ss_experiment *e, const char *const *want)
{
	struct ss_oplist ops;
	char line[160];
	size_t n = 0;

	planner_build(e, &ops);
	while (want[n] != NULL)
		n++;
	for (size_t i = 0; i < ops.n || i < n; i++) {
		if (i < ops.n)
			op_line(&ops.op[i], line, sizeof line);
		if (i >= ops.n || i >= n || strcmp(line, want[i]) != 0)
			fail_msg("%s: op %zu is '%s', want '%s'", what, i + 1, i < ops.n ? line : "(none)",
			         i < n ? want[i] : "(none)");
		assert_int_equal(ops.op[i].id, i + 1);
	}
	planner_free(&ops);
}

/* The program of the order tests: three chunks of 2 elements on 2 streams (chunk 2 back on s0), each step once. */
static const char order_file[] = "[experiment]\nstreams = 2\nchunks = 3\nelements = 6\nsync = stream\n"
                                 "[chunk]\nstep = h2d x\nstep = memset z 7\nstep = kernel add work=5\n"
                                 "step = d2h z pageable\nstep = host z\nstep = event\n"
                                 "interleave = 1 2 3@c-1 4@c-1 5@c-2 6@c-2\n";

/* Depth-first: each chunk's steps in turn; a host step waits for its stream first; the sync as a preset's. */
static void test_order_depth(void **state)
{
	static const char *const want[] = {
	    "h2d s0 t0 c0 #1 x[0+2] pinned",
	    "memset s0 t0 c0 #2 z[0+2] =7",
	    "kernel s0 t0 c0 #3 z[0+2] add w5 <<<1,128>>>",
	    "d2h s0 t0 c0 #4 z[0+2] pageable",
	    "ssync s0 t0 c-1 #5 -[0+0]",
	    "host s0 t0 c0 #5 z[0+2]",
	    "event s0 t0 c0 #6 -[0+0] ev0",
	    "h2d s1 t0 c1 #1 x[2+2] pinned",
	    "memset s1 t0 c1 #2 z[2+2] =7",
	    "kernel s1 t0 c1 #3 z[2+2] add w5 <<<1,128>>>",
	    "d2h s1 t0 c1 #4 z[2+2] pageable",
	    "ssync s1 t0 c-1 #5 -[0+0]",
	    "host s1 t0 c1 #5 z[2+2]",
	    "event s1 t0 c1 #6 -[0+0] ev1",
	    "h2d s0 t0 c2 #1 x[4+2] pinned",
	    "memset s0 t0 c2 #2 z[4+2] =7",
	    "kernel s0 t0 c2 #3 z[4+2] add w5 <<<1,128>>>",
	    "d2h s0 t0 c2 #4 z[4+2] pageable",
	    "ssync s0 t0 c-1 #5 -[0+0]",
	    "host s0 t0 c2 #5 z[4+2]",
	    "event s0 t0 c2 #6 -[0+0] ev2",
	    "ssync s0 t0 c-1 #0 -[0+0]",
	    "ssync s1 t0 c-1 #0 -[0+0]",
	    NULL,
	};
	struct ss_experiment e;
	struct ss_oplist ops;
	size_t counts[SS_KIND_COUNT];

	(void)state;
	e = parse_ok(order_file);
	e.order = SS_ORDER_DEPTH;
	expect_ops("depth", &e, want);
	planner_build(&e, &ops);
	assert_int_equal(ops.nevents, 3);
	assert_int_equal(ops.nchunks, 3);
	assert_int_equal(planner_op_bytes(&ops, &ops.op[1]), 8); /* a memset's bytes */
	assert_true(planner_op_pageable(&e, &ops.op[3]));
	assert_false(planner_op_pageable(&e, &ops.op[0]));
	assert_true(planner_gpu_op(SS_OP_MEMSET));
	planner_expected_records(&ops, false, counts);
	assert_int_equal(counts[SS_KIND_MEMSET], 3);
	assert_int_equal(counts[SS_KIND_H2D], 3);
	assert_int_equal(counts[SS_KIND_KERNEL], 3);
	planner_free(&ops);
}

/* Breadth-first: step i of every chunk, then step i + 1. */
static void test_order_breadth(void **state)
{
	static const char *const want[] = {
	    "h2d s0 t0 c0 #1 x[0+2] pinned",
	    "h2d s1 t0 c1 #1 x[2+2] pinned",
	    "h2d s0 t0 c2 #1 x[4+2] pinned",
	    "memset s0 t0 c0 #2 z[0+2] =7",
	    "memset s1 t0 c1 #2 z[2+2] =7",
	    "memset s0 t0 c2 #2 z[4+2] =7",
	    "kernel s0 t0 c0 #3 z[0+2] add w5 <<<1,128>>>",
	    "kernel s1 t0 c1 #3 z[2+2] add w5 <<<1,128>>>",
	    "kernel s0 t0 c2 #3 z[4+2] add w5 <<<1,128>>>",
	    "d2h s0 t0 c0 #4 z[0+2] pageable",
	    "d2h s1 t0 c1 #4 z[2+2] pageable",
	    "d2h s0 t0 c2 #4 z[4+2] pageable",
	    "ssync s0 t0 c-1 #5 -[0+0]",
	    "host s0 t0 c0 #5 z[0+2]",
	    "ssync s1 t0 c-1 #5 -[0+0]",
	    "host s1 t0 c1 #5 z[2+2]",
	    "ssync s0 t0 c-1 #5 -[0+0]",
	    "host s0 t0 c2 #5 z[4+2]",
	    "event s0 t0 c0 #6 -[0+0] ev0",
	    "event s1 t0 c1 #6 -[0+0] ev1",
	    "event s0 t0 c2 #6 -[0+0] ev2",
	    "ssync s0 t0 c-1 #0 -[0+0]",
	    "ssync s1 t0 c-1 #0 -[0+0]",
	    NULL,
	};
	struct ss_experiment e;

	(void)state;
	e = parse_ok(order_file);
	e.order = SS_ORDER_BREADTH;
	expect_ops("breadth", &e, want);
}

/* The interleave: round r issues each item for chunk r - its lag where that chunk exists, rounds until every
 * chunk's steps are issued. */
static void test_order_interleave(void **state)
{
	static const char *const want[] = {
	    "h2d s0 t0 c0 #1 x[0+2] pinned",
	    "memset s0 t0 c0 #2 z[0+2] =7",
	    "h2d s1 t0 c1 #1 x[2+2] pinned",
	    "memset s1 t0 c1 #2 z[2+2] =7",
	    "kernel s0 t0 c0 #3 z[0+2] add w5 <<<1,128>>>",
	    "d2h s0 t0 c0 #4 z[0+2] pageable",
	    "h2d s0 t0 c2 #1 x[4+2] pinned",
	    "memset s0 t0 c2 #2 z[4+2] =7",
	    "kernel s1 t0 c1 #3 z[2+2] add w5 <<<1,128>>>",
	    "d2h s1 t0 c1 #4 z[2+2] pageable",
	    "ssync s0 t0 c-1 #5 -[0+0]",
	    "host s0 t0 c0 #5 z[0+2]",
	    "event s0 t0 c0 #6 -[0+0] ev0",
	    "kernel s0 t0 c2 #3 z[4+2] add w5 <<<1,128>>>",
	    "d2h s0 t0 c2 #4 z[4+2] pageable",
	    "ssync s1 t0 c-1 #5 -[0+0]",
	    "host s1 t0 c1 #5 z[2+2]",
	    "event s1 t0 c1 #6 -[0+0] ev1",
	    "ssync s0 t0 c-1 #5 -[0+0]",
	    "host s0 t0 c2 #5 z[4+2]",
	    "event s0 t0 c2 #6 -[0+0] ev2",
	    "ssync s0 t0 c-1 #0 -[0+0]",
	    "ssync s1 t0 c-1 #0 -[0+0]",
	    NULL,
	};
	struct ss_experiment e;

	(void)state;
	e = parse_ok(order_file);
	assert_int_equal(e.order, SS_ORDER_INTERLEAVE);
	expect_ops("interleave", &e, want);
}

/* The options on a program: the interfering default-stream op between two chunks' work (not before the first,
 * not after the last, not before an empty tail chunk), the event timer's laps there, one thread per stream, a
 * spin step's one-thread launch; a
 * step's kernel and launch left to --kernel, --work, --block; decrypt in place on its buffer. */
static void test_order_options(void **state)
{
	static const char *const legacy[] = {
	    "h2d s0 t0 c0 #1 x[0+2] pinned",
	    "kernel s0 t0 c0 #2 -[0+1] spin w9 <<<1,1>>>",
	    "kernel L t0 c-1 #0 -[0+1] spin w0 <<<1,1>>>",
	    "h2d s1 t1 c1 #1 x[2+2] pinned",
	    "kernel s1 t1 c1 #2 -[0+1] spin w9 <<<1,1>>>",
	    "dsync H t0 c-1 #0 -[0+0]",
	    NULL,
	};
	static const char *const timer[] = {
	    "event L t0 c-1 #0 -[0+0] ev0",
	    "h2d s0 t0 c0 #1 x[0+2] pinned",
	    "kernel s0 t0 c0 #2 -[0+1] spin w9 <<<1,1>>>",
	    "event L t0 c-1 #0 -[0+0] ev1",
	    "h2d s1 t0 c1 #1 x[2+2] pinned",
	    "kernel s1 t0 c1 #2 -[0+1] spin w9 <<<1,1>>>",
	    "event L t0 c-1 #0 -[0+0] ev2",
	    "dsync H t0 c-1 #0 -[0+0]",
	    "esync L t0 c-1 #0 -[0+0] ev2",
	    NULL,
	};
	static const char *const decrypt[] = {
	    "h2d s0 t0 c0 #1 y[0+4] pageable",
	    "kernel s0 t0 c0 #2 y[0+4] decrypt w2 <<<80,32>>>",
	    "kernel s0 t0 c0 #3 x[0+4] decrypt w11 <<<1,16>>>",
	    "d2h s0 t0 c0 #4 y[0+4] pageable",
	    "ssync s0 t0 c-1 #0 -[0+0]",
	    NULL,
	};
	struct ss_experiment e;

	(void)state;
	/* 4 elements in ceil chunks of 2 on 3 streams: chunk 2 is empty */
	e = parse_ok("[experiment]\nstreams = 3\nelements = 4\nthreads = 3\nsync = device\ndefault-stream = legacy-op\n"
	             "[chunk]\nstep = h2d x\nstep = kernel spin work=9\n");
	expect_ops("legacy-op, a thread per stream", &e, legacy);
	/* the event timer depth-first: its start, a lap between two chunks' work (document 003's timer in the middle
	 * of the code), its stop after the last chunk with work */
	e = parse_ok("[experiment]\nstreams = 3\nelements = 4\nsync = device\ndefault-stream = event-timer\n"
	             "[chunk]\nstep = h2d x\nstep = kernel spin work=9\n");
	expect_ops("event-timer, depth-first", &e, timer);
	e = parse_ok("[experiment]\nstreams = 1\nelements = 4\nkernel = decrypt\nwork = 11\nblock = 16\nsync = stream\n"
	             "[chunk]\nstep = h2d y pageable\nstep = kernel decrypt y work=2 grid=80 block=32\nstep = kernel\n"
	             "step = d2h y\n");
	expect_ops("decrypt", &e, decrypt);
}

/* experiment_describe says a program is in use and an interleave is the order; experiment_same_program tells
 * programs apart. */
static void test_describe(void **state)
{
	struct ss_experiment a, b;
	char buf[320], step[96];

	(void)state;
	a = parse_ok(order_file);
	experiment_describe(&a, buf, sizeof buf);
	assert_non_null(strstr(buf, "  interleaved  "));
	assert_non_null(strstr(buf, "program of 6 steps"));
	experiment_describe_compact(&a, buf, sizeof buf);
	assert_non_null(strstr(buf, " 6st"));
	experiment_step_describe(&a.step[2], step, sizeof step);
	assert_string_equal(step, "kernel add work=5");
	experiment_step_describe(&a.step[3], step, sizeof step);
	assert_string_equal(step, "d2h z pageable");
	experiment_step_describe(&a.step[1], step, sizeof step);
	assert_string_equal(step, "memset z 7");
	b = a;
	assert_true(experiment_same_program(&a, &b));
	b.step[1].value = 8;
	assert_false(experiment_same_program(&a, &b));
	b = a;
	b.inter[2].lag = 2;
	assert_false(experiment_same_program(&a, &b));
	b.nsteps = 0;
	assert_false(experiment_same_program(&a, &b));
}

/* record_kinds counts tl's records of each kind, the bytes of its memsets in *mbytes. */
static void record_kinds(const struct ss_timeline *tl, size_t counts[SS_KIND_COUNT], uint64_t *mbytes)
{
	memset(counts, 0, SS_KIND_COUNT * sizeof counts[0]);
	*mbytes = 0;
	for (size_t i = 0; i < tl->n; i++) {
		counts[tl->rec[i].kind]++;
		if (tl->rec[i].kind == SS_KIND_MEMSET)
			*mbytes += tl->rec[i].bytes;
	}
}

/* The model runs a program: a memset record per memset op with its bytes, as long as memset.gbs says; a step's
 * work sets its kernel's time; every record modelled. */
static void test_model(void **state)
{
	static const char file[] = "[experiment]\nstreams = 2\nchunks = 4\nelements = 1M\nsync = stream\n"
	                           "[chunk]\nstep = h2d x\nstep = h2d y\nstep = memset z 0\nstep = kernel add work=%u\n"
	                           "step = d2h z\n";
	struct ss_experiment e;
	struct ss_profile p;
	struct ss_timeline tl;
	size_t counts[SS_KIND_COUNT];
	uint64_t mbytes, kernel_ns[2] = {0, 0}, memset_ns = 0;
	char text[512], *cause = NULL;

	(void)state;
	profile_builtin(&p);
	for (int w = 0; w < 2; w++) {
		snprintf(text, sizeof text, file, w == 0 ? 100u : 400u);
		e = parse_ok(text);
		timeline_init(&tl);
		if (model_timeline(&e, &p, &tl, NULL, &cause) != 0)
			fail_msg("%s", cause);
		assert_true(tl.modelled);
		record_kinds(&tl, counts, &mbytes);
		assert_int_equal(counts[SS_KIND_MEMSET], 4);
		assert_int_equal(counts[SS_KIND_KERNEL], 4);
		assert_int_equal(counts[SS_KIND_H2D], 8);
		assert_int_equal(mbytes, 4u << 20);
		for (size_t i = 0; i < tl.n; i++) {
			assert_true(tl.rec[i].flags & SS_REC_MODELLED);
			if (tl.rec[i].kind == SS_KIND_KERNEL)
				kernel_ns[w] += tl.rec[i].end - tl.rec[i].start;
			if (tl.rec[i].kind == SS_KIND_MEMSET && w == 0)
				memset_ns = tl.rec[i].end - tl.rec[i].start;
		}
		timeline_free(&tl);
	}
	/* 1 MiB at memset.gbs, the kernels' fixed part besides */
	assert_true(memset_ns >= (uint64_t)((1 << 20) / p.memset_gbs));
	assert_true(memset_ns <= (uint64_t)((1 << 20) / p.memset_gbs + p.kernel_min_ns) + 1);
	/* four times the work: more than three times the kernels' time */
	assert_true(kernel_ns[1] > 3 * kernel_ns[0]);
}

/* The example programs (examples/pipeline.ini, interleave.ini, host-work.ini) read, validate, plan with their
 * steps and model. */
static void test_examples(void **state)
{
	static const char *const files[] = {"pipeline.ini", "interleave.ini", "host-work.ini"};
	const char *src = getenv("SS_SOURCE_DIR");
	struct ss_profile p;

	(void)state;
	profile_builtin(&p);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct ss_experiment e;
		struct ss_oplist ops;
		struct ss_timeline tl;
		struct expfile f;
		char path[1024], *cause = NULL;
		size_t stepped = 0;

		snprintf(path, sizeof path, "%s/examples/%s", src != NULL ? src : SS_SOURCE_DIR, files[i]);
		if (expfile_read(path, &f, &cause) != 0 || expopts_experiment(&f, &e, &cause) != 0 ||
		    experiment_validate(&e, &cause) != 0)
			fail_msg("%s: %s", files[i], cause);
		assert_true(e.nsteps > 0);
		planner_build(&e, &ops);
		for (size_t k = 0; k < ops.n; k++)
			stepped += ops.op[k].step >= 0;
		assert_true(stepped > 0);
		planner_free(&ops);
		timeline_init(&tl);
		if (model_timeline(&e, &p, &tl, NULL, &cause) != 0)
			fail_msg("%s: %s", files[i], cause);
		assert_true(tl.n > 0);
		timeline_free(&tl);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_order_depth),
	    cmocka_unit_test(test_order_breadth),
	    cmocka_unit_test(test_order_interleave),
	    cmocka_unit_test(test_order_options),
	    cmocka_unit_test(test_describe),
	    cmocka_unit_test(test_model),
	    cmocka_unit_test(test_examples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
