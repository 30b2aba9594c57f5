/* test_planner.c: the op list of every option combination (structural invariants), exact small lists written out
 * by hand, chunking with tails, expected record counts and the one-line description of each op kind. */
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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/experiment.h"
#include "core/planner.h"

/* A failed structural check names the experiment it failed for. */
#define CHECK(cond)                                                                                                    \
	do {                                                                                                           \
		if (!(cond))                                                                                           \
			fail_msg("%s: check failed at line %d: %s", label, __LINE__, #cond);                           \
	} while (0)

/* Chunk c of elements cut into chunks pieces, computed here independently of planner_chunk. */
static uint64_t ref_chunk_count(uint64_t elements, int chunks, int c, enum ss_split split)
{
	uint64_t size = elements / (uint64_t)chunks + (elements % (uint64_t)chunks != 0 ? 1 : 0);
	uint64_t first = size * (uint64_t)c;

	/* floor: equal chunks, the remainder in the last; ceil: sdiv-sized, a shorter (maybe empty) last one */
	if (split == SS_SPLIT_FLOOR)
		return elements / (uint64_t)chunks + (c == chunks - 1 ? elements % (uint64_t)chunks : 0);
	if (first >= elements)
		return 0;
	return elements - first < size ? elements - first : size;
}

static uint64_t ref_chunk_offset(uint64_t elements, int chunks, int c, enum ss_split split)
{
	uint64_t size = elements / (uint64_t)chunks + (elements % (uint64_t)chunks != 0 ? 1 : 0);

	if (split == SS_SPLIT_FLOOR)
		size = elements / (uint64_t)chunks;
	return size * (uint64_t)c;
}

/* Host arrays copied in and out per chunk, and arrays in managed memory, by kernel (from the presets:
 * z = x + y moves x, y in and z out; decrypt moves its one array in and out; spin kernels move nothing). */
static int ref_inputs(int kernel)
{
	return kernel == SS_KERNEL_ADD || kernel == SS_KERNEL_FMA ? 2 : kernel == SS_KERNEL_DECRYPT ? 1 : 0;
}
static int ref_outputs(int kernel)
{
	return kernel == SS_KERNEL_SPIN ? 0 : 1;
}
static int ref_arrays(int kernel)
{
	return ref_inputs(kernel) == 2 ? 3 : ref_inputs(kernel);
}
/* The array the kernel writes and the D2H copies back: z for add, the data array for decrypt. */
static int ref_out_buffer(int kernel)
{
	return ref_inputs(kernel) == 2 ? 2 : 0;
}

static bool is_input(int k)
{
	return k == SS_OP_H2D || k == SS_OP_ATTACH || k == SS_OP_PREFETCH_H2D;
}
static bool is_output(int k)
{
	return k == SS_OP_D2H || k == SS_OP_PREFETCH_D2H;
}
static bool is_work(const struct ss_op *op)
{
	return op->stream >= 0 && (is_input(op->kind) || is_output(op->kind) || op->kind == SS_OP_KERNEL);
}
static int phase_of(int k)
{
	return is_input(k) ? 0 : k == SS_OP_KERNEL ? 1 : 2;
}
static bool is_interfering(const struct ss_op *op)
{
	return op->stream == SS_STREAM_LEGACY || op->stream == SS_STREAM_PER_THREAD;
}
/* The host's final wait: stream/device syncs and the per-stream events of sync=events. */
static bool is_final_sync(const struct ss_op *op)
{
	return op->kind == SS_OP_STREAM_SYNC || op->kind == SS_OP_DEVICE_SYNC ||
	       ((op->kind == SS_OP_EVENT_RECORD || op->kind == SS_OP_EVENT_SYNC) && op->stream >= 0);
}

/* Every structural invariant the issue states, checked on one op list. */
static void check_oplist(const struct ss_experiment *e, const struct ss_oplist *ops, const char *label)
{
	int n = e->streams, nchunks = e->kernel == SS_KERNEL_SPIN || e->chunks == 0 ? n : e->chunks;
	bool copies = e->hostmem == SS_MEM_PINNED || e->hostmem == SS_MEM_PAGEABLE;
	size_t first_work = SIZE_MAX, last_work = 0, nwork = 0;
	size_t last_interfering_kernel = 0, last_gle = SIZE_MAX;
	bool between;
	size_t nk_interfering = 0, nsync_stream = 0, ndev = 0, nev_rec_stream = 0, nev_sync_stream = 0;
	size_t nlegacy_rec = 0, nlegacy_sync = 0, first_legacy_rec = SIZE_MAX, last_legacy_rec = 0;
	int last_legacy_event = -1;
	size_t *last_of_stream = calloc((size_t)n, sizeof *last_of_stream);
	char *recorded = calloc((size_t)ops->nevents + 1, 1);
	size_t count_kind[SS_OP_COUNT] = {0};
	uint64_t *sum_in = calloc(3, sizeof *sum_in);
	int prev_a = -1, prev_b = -1;
	size_t nonempty = 0;

	CHECK(ops->n > 0);
	CHECK(ops->nchunks == nchunks);
	CHECK(ops->elem_size == e->elem_size);
	CHECK(ops->nbuffers == (ref_inputs(e->kernel) == 2 ? 3 : 1));
	CHECK(ops->nevents >= 0);

	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_op *op = &ops->op[i];

		/* ids 1..n in issue order */
		CHECK(op->id == i + 1);
		CHECK(op->kind < SS_OP_COUNT);
		count_kind[op->kind]++;
		/* streams: experiment streams, or the two default streams, or the host for a device sync */
		CHECK((op->stream >= 0 && op->stream < n) || is_interfering(op) ||
		      (op->stream == SS_STREAM_HOST &&
		       (op->kind == SS_OP_DEVICE_SYNC || op->kind == SS_OP_GET_LAST_ERROR ||
		        op->kind == SS_OP_EVENT_QUERY)));
		if (op->kind == SS_OP_DEVICE_SYNC || op->kind == SS_OP_GET_LAST_ERROR || op->kind == SS_OP_EVENT_QUERY)
			CHECK(op->stream == SS_STREAM_HOST);
		/* kernels carry their kernel and launch: the experiment's, covering their chunk unless a grid is set
		 * (decrypt's grid-stride loop); the interfering one is one thread */
		if (op->kind == SS_OP_KERNEL && op->stream >= 0) {
			CHECK(op->kernel == e->kernel);
			CHECK(op->block == experiment_block(e));
			CHECK(e->kernel == SS_KERNEL_SPIN || e->grid > 0 ||
			      (uint64_t)op->grid * op->block >= op->count);
			CHECK(e->grid == 0 || e->kernel == SS_KERNEL_SPIN || op->grid == e->grid);
		} else if (op->kind == SS_OP_KERNEL) {
			CHECK(op->grid == 1 && op->block == 1);
		}
		/* threads: one per stream when asked (ops of stream s on thread s), else all on thread 0 */
		if (e->threads > 1 && op->stream >= 0)
			CHECK(op->thread == op->stream);
		else
			CHECK(op->thread == 0);
		/* chunks only on the chunk work, events only on event ops, and every event used exists */
		CHECK(op->chunk >= -1 && op->chunk < nchunks);
		CHECK((op->chunk >= 0) == is_work(op));
		if (op->kind == SS_OP_EVENT_RECORD || op->kind == SS_OP_EVENT_SYNC || op->kind == SS_OP_EVENT_QUERY) {
			CHECK(op->event >= 0 && op->event < ops->nevents);
		} else {
			CHECK(op->event == -1);
		}
		if (op->kind == SS_OP_EVENT_RECORD) {
			CHECK(!recorded[op->event]); /* each event recorded once */
			recorded[op->event] = 1;
		}
		if (op->kind == SS_OP_EVENT_SYNC || op->kind == SS_OP_EVENT_QUERY)
			CHECK(recorded[op->event]); /* waits for or asks of only an event recorded before */
		if (op->kind == SS_OP_EVENT_QUERY)
			CHECK(e->sync == SS_SYNC_STOP_EVENT && i == 1); /* document 001's, of its start event */
		/* bytes: copies move count * element size, nothing else moves bytes */
		if (is_input(op->kind) || is_output(op->kind))
			CHECK(planner_op_bytes(ops, op) == op->count * e->elem_size);
		else
			CHECK(planner_op_bytes(ops, op) == 0);

		if (is_work(op)) {
			if (first_work == SIZE_MAX)
				first_work = i;
			last_work = i;
			nwork++;
			last_of_stream[op->stream] = i + 1;
			/* the chunk's stream: chunk c goes to stream c % streams */
			CHECK(op->stream == op->chunk % n);
			if (e->kernel != SS_KERNEL_SPIN) {
				CHECK(op->offset == ref_chunk_offset(e->elements, nchunks, op->chunk, e->split));
				CHECK(op->count == ref_chunk_count(e->elements, nchunks, op->chunk, e->split));
				CHECK(op->count > 0); /* empty tail chunks issue nothing */
			}
			if (op->kind == SS_OP_H2D)
				sum_in[op->buffer] += op->count;
			/* order: depth = chunk by chunk, each H2D -> kernel -> D2H (spin: kernel 0 -> 1); breadth = all
			 * inputs, all kernels (spin: all first kernels, then all second ones), all outputs, chunks
			 * ascending inside each phase */
			/* weaker: all inputs, the kernels from the last chunk to the first (each chunk's in turn), all
			 * outputs; best is checked op by op against document 003 (test_vector_add_orders) */
			bool spin_phases = e->kernel == SS_KERNEL_SPIN && e->order == SS_ORDER_BREADTH;
			int ph = spin_phases ? (int)op->offset : phase_of(op->kind);
			int sub = e->kernel == SS_KERNEL_SPIN && op->kind == SS_OP_KERNEL ? (int)op->offset : 0;
			int a = e->order == SS_ORDER_DEPTH ? op->chunk : ph;
			int b = e->order == SS_ORDER_DEPTH ? ph
			        : e->order == SS_ORDER_WEAKER
			            ? (op->kind == SS_OP_KERNEL ? nchunks - 1 - op->chunk : op->chunk) * 2 + sub
			            : op->chunk;

			if (e->order != SS_ORDER_BEST)
				CHECK(a > prev_a || (a == prev_a && b >= prev_b));
			prev_a = a;
			prev_b = b;
		}
		if (is_interfering(op) && op->kind == SS_OP_KERNEL) {
			nk_interfering++;
			last_interfering_kernel = i;
			CHECK(op->thread == 0);
		}
		if (op->stream == SS_STREAM_LEGACY && op->kind == SS_OP_EVENT_RECORD) {
			if (first_legacy_rec == SIZE_MAX)
				first_legacy_rec = i;
			last_legacy_rec = i;
			last_legacy_event = op->event;
			nlegacy_rec++;
		}
		if (op->stream == SS_STREAM_LEGACY && op->kind == SS_OP_EVENT_SYNC) {
			nlegacy_sync++;
			if (e->sync == SS_SYNC_STOP_EVENT && nlegacy_sync == 1) {
				/* document 001's stop event, waited for right after it is recorded, after all work */
				CHECK(i > 0 && ops->op[i - 1].kind == SS_OP_EVENT_RECORD &&
				      ops->op[i - 1].stream == SS_STREAM_LEGACY && op->event == ops->op[i - 1].event);
				CHECK(i > last_work);
			} else {
				CHECK(i == ops->n - 1); /* the host timer is read last */
				/* ... and reads its stop event (the one before document 001's stop event) */
				CHECK(op->event == last_legacy_event - (e->sync == SS_SYNC_STOP_EVENT ? 1 : 0));
			}
		}
		if (op->kind == SS_OP_GET_LAST_ERROR) {
			CHECK(e->defstream == SS_DS_GET_LAST_ERROR);
			CHECK(first_work != SIZE_MAX && i > first_work); /* between the streams' work */
			last_gle = i;
		}
		if (is_final_sync(op)) {
			/* the final wait comes after all work and interference */
			CHECK(nwork > 0 ? i > last_work : true);
			CHECK(nk_interfering == 0 || i > last_interfering_kernel);
		}
	}
	for (int ev = 0; ev < ops->nevents; ev++)
		CHECK(recorded[ev]); /* nevents counts exactly the events recorded */
	CHECK(last_gle == SIZE_MAX || last_gle < last_work);

	/* Per chunk: inputs before kernel(s) before outputs, every array exactly once, on the chunk's stream. */
	for (int c = 0; c < nchunks; c++) {
		size_t max_in = 0, min_k = SIZE_MAX, max_k = 0, min_out = SIZE_MAX;
		int nin = 0, nk = 0, nout = 0, bufseen = 0;
		uint64_t cnt = e->kernel == SS_KERNEL_SPIN ? 1 : ref_chunk_count(e->elements, nchunks, c, e->split);

		for (size_t i = 0; i < ops->n; i++) {
			const struct ss_op *op = &ops->op[i];

			if (op->chunk != c)
				continue;
			if (is_input(op->kind)) {
				nin++;
				max_in = i;
				CHECK(op->buffer >= 0 && op->buffer < 3);
				CHECK(!(bufseen & (1 << op->buffer)));
				bufseen |= 1 << op->buffer;
				if (copies)
					CHECK(op->kind == SS_OP_H2D);
				else if (e->hostmem == SS_MEM_MANAGED_PREFETCH)
					CHECK(op->kind == SS_OP_PREFETCH_H2D);
				else
					CHECK(op->kind == SS_OP_ATTACH);
			} else if (op->kind == SS_OP_KERNEL) {
				if (e->kernel == SS_KERNEL_SPIN)
					CHECK(op->offset == (uint64_t)nk); /* first, then second dependent kernel */
				else
					CHECK(op->buffer == ref_out_buffer(e->kernel));
				nk++;
				if (i < min_k)
					min_k = i;
				max_k = i;
			} else {
				nout++;
				if (i < min_out)
					min_out = i;
				CHECK(op->buffer == ref_out_buffer(e->kernel));
				CHECK(op->kind == (copies ? SS_OP_D2H : SS_OP_PREFETCH_D2H));
			}
		}
		if (cnt == 0) {
			CHECK(nin + nk + nout == 0);
			continue;
		}
		nonempty++;
		if (copies || e->hostmem == SS_MEM_MANAGED_PREFETCH) {
			CHECK(nin == ref_inputs(e->kernel));
			CHECK(bufseen == (1 << ref_inputs(e->kernel)) - 1);
			CHECK(nout == ref_outputs(e->kernel));
		} else {
			/* managed memory attached to the stream: every array attached, no copies back */
			CHECK(nin == ref_arrays(e->kernel));
			CHECK(bufseen == (1 << ref_arrays(e->kernel)) - 1);
			CHECK(nout == 0);
		}
		CHECK(nk == (e->kernel == SS_KERNEL_SPIN ? 2 : 1));
		if (nin > 0)
			CHECK(max_in < min_k);
		if (nout > 0)
			CHECK(max_k < min_out);
	}
	/* Every input array is copied whole. */
	if (copies && e->kernel != SS_KERNEL_SPIN)
		for (int b = 0; b < ref_inputs(e->kernel); b++)
			CHECK(sum_in[b] == e->elements);

	/* Op counts per kind, computed from the options. */
	{
		size_t in = copies || e->hostmem == SS_MEM_MANAGED_PREFETCH ? (size_t)ref_inputs(e->kernel) : 0;
		size_t out = copies || e->hostmem == SS_MEM_MANAGED_PREFETCH ? (size_t)ref_outputs(e->kernel) : 0;
		size_t att = e->hostmem == SS_MEM_MANAGED_ATTACH ? (size_t)ref_arrays(e->kernel) : 0;
		size_t kernels = e->kernel == SS_KERNEL_SPIN ? 2 * (size_t)n : nonempty;

		CHECK(count_kind[SS_OP_H2D] == (copies ? in * nonempty : 0));
		CHECK(count_kind[SS_OP_D2H] == (copies ? out * nonempty : 0));
		CHECK(count_kind[SS_OP_PREFETCH_H2D] == (copies ? 0 : in * nonempty));
		CHECK(count_kind[SS_OP_PREFETCH_D2H] == (copies ? 0 : out * nonempty));
		CHECK(count_kind[SS_OP_ATTACH] == att * nonempty);
		CHECK(count_kind[SS_OP_KERNEL] == kernels + nk_interfering);
		for (int k = 0; k < SS_OP_COUNT; k++)
			CHECK(planner_count_kind(ops, k) == count_kind[k]);
	}

	/* Whether there is a place between two parts of the work for an interfering op: two non-empty chunks
	 * depth-first, two non-empty phases otherwise (breadth and weaker: inputs, kernels, outputs; hyperq breadth:
	 * first and second kernels; best: inputs with kernels, outputs). */
	{
		size_t nin = count_kind[SS_OP_H2D] + count_kind[SS_OP_ATTACH] + count_kind[SS_OP_PREFETCH_H2D];
		size_t nout = count_kind[SS_OP_D2H] + count_kind[SS_OP_PREFETCH_D2H];
		int phases = e->order == SS_ORDER_BEST                                     ? 1 + (nout > 0)
		             : e->order == SS_ORDER_BREADTH && e->kernel == SS_KERNEL_SPIN ? 2
		                                                                           : (nin > 0) + 1 + (nout > 0);

		between = e->order == SS_ORDER_DEPTH ? nonempty >= 2 : phases >= 2 && nonempty >= 1;
	}

	/* Document 001's timing: its start event first, cudaEventQuery(start) right after it, its stop event after all
	 * work, waited for once. */
	if (e->sync == SS_SYNC_STOP_EVENT) {
		CHECK(ops->op[0].kind == SS_OP_EVENT_RECORD && ops->op[0].stream == SS_STREAM_LEGACY);
		CHECK(ops->n > 1 && ops->op[1].kind == SS_OP_EVENT_QUERY && ops->op[1].event == ops->op[0].event);
		CHECK(count_kind[SS_OP_EVENT_QUERY] == 1);
		CHECK(nlegacy_rec >= 2);
		CHECK(nlegacy_sync == 1 + (e->defstream == SS_DS_EVENT_TIMER));
	}

	/* Default-stream interference. */
	switch (e->defstream) {
	case SS_DS_NONE:
		for (size_t i = 0; i < ops->n; i++)
			CHECK(!is_interfering(&ops->op[i]) ||
			      (e->sync == SS_SYNC_STOP_EVENT && ops->op[i].stream == SS_STREAM_LEGACY &&
			       (ops->op[i].kind == SS_OP_EVENT_RECORD || ops->op[i].kind == SS_OP_EVENT_SYNC)));
		CHECK(count_kind[SS_OP_GET_LAST_ERROR] == 0);
		break;
	case SS_DS_GET_LAST_ERROR:
		/* a host call between chunks' work (or phases), no GPU work */
		if (between)
			CHECK(count_kind[SS_OP_GET_LAST_ERROR] >= 1);
		CHECK(nk_interfering == 0);
		break;
	case SS_DS_LEGACY_OP:
	case SS_DS_PER_THREAD:
		/* with work on two or more chunks (or two breadth-first phases) there is something to interfere
		 * between */
		if (between)
			CHECK(nk_interfering >= 1);
		for (size_t i = 0; i < ops->n; i++) {
			const struct ss_op *op = &ops->op[i];

			if (is_interfering(op) && op->kind == SS_OP_KERNEL) {
				CHECK(i > first_work && i < last_work); /* between the streams' work */
				CHECK(op->kind == SS_OP_KERNEL);
				CHECK(op->stream ==
				      (e->defstream == SS_DS_LEGACY_OP ? SS_STREAM_LEGACY : SS_STREAM_PER_THREAD));
			}
		}
		break;
	case SS_DS_EVENT_TIMER: {
		/* a host timer: start event on stream 0 before the work, stop event after it, read at the end; and,
		 * as document 003 places its timer, in the middle of the code: with a place between two parts of the
		 * work, a lap event on stream 0 between the streams' work */
		size_t laps = 0;

		CHECK(nk_interfering == 0);
		CHECK(nlegacy_rec >= 2);
		CHECK(nlegacy_sync == 1 + (e->sync == SS_SYNC_STOP_EVENT));
		CHECK(first_legacy_rec < first_work);
		CHECK(last_legacy_rec > last_work);
		for (size_t i = 0; i < ops->n; i++) {
			CHECK(ops->op[i].stream != SS_STREAM_PER_THREAD);
			laps += ops->op[i].stream == SS_STREAM_LEGACY && ops->op[i].kind == SS_OP_EVENT_RECORD &&
			        i > first_work && i < last_work;
		}
		if (between)
			CHECK(laps >= 1);
		break;
	}
	default:
		fail();
	}

	/* The final wait, in the experiment's sync order. */
	{
		int ss_next = e->sync == SS_SYNC_REVERSE ? n - 1 : 0, rec_next = 0, sync_next = 0;
		int first_stream_event = -1;

		for (size_t i = 0; i < ops->n; i++) {
			const struct ss_op *op = &ops->op[i];

			if (op->kind == SS_OP_STREAM_SYNC) {
				CHECK(e->sync == SS_SYNC_STREAM || e->sync == SS_SYNC_REVERSE);
				CHECK(op->stream == ss_next);
				ss_next += e->sync == SS_SYNC_REVERSE ? -1 : 1;
				nsync_stream++;
			} else if (op->kind == SS_OP_DEVICE_SYNC) {
				CHECK(e->sync == SS_SYNC_DEVICE);
				ndev++;
			} else if (op->kind == SS_OP_EVENT_RECORD && op->stream >= 0) {
				CHECK(e->sync == SS_SYNC_EVENTS);
				CHECK(op->stream == rec_next);
				CHECK(sync_next == 0);                     /* all records before the first wait */
				CHECK(i + 1 > last_of_stream[op->stream]); /* after all of its stream's work */
				if (rec_next == 0)
					first_stream_event = op->event;
				CHECK(op->event == first_stream_event + rec_next);
				rec_next++;
				nev_rec_stream++;
			} else if (op->kind == SS_OP_EVENT_SYNC && op->stream >= 0) {
				CHECK(e->sync == SS_SYNC_EVENTS);
				CHECK(op->stream == sync_next);
				CHECK(op->event == first_stream_event + sync_next);
				sync_next++;
				nev_sync_stream++;
			}
		}
		CHECK(nsync_stream == (e->sync == SS_SYNC_STREAM || e->sync == SS_SYNC_REVERSE ? (size_t)n : 0));
		CHECK(ndev == (e->sync == SS_SYNC_DEVICE ? 1 : 0));
		CHECK(nev_rec_stream == (e->sync == SS_SYNC_EVENTS ? (size_t)n : 0));
		CHECK(nev_sync_stream == nev_rec_stream);
	}

	/* Expected GPU records: one per copy and kernel launch (interfering ones included), and per prefetch where the
	 * backend shows them (the model; CUDA with --prefetch-events); attaches have none. */
	{
		size_t counts[SS_KIND_COUNT], with[SS_KIND_COUNT];

		planner_expected_records(ops, false, counts);
		planner_expected_records(ops, true, with);
		CHECK(counts[SS_KIND_H2D] == count_kind[SS_OP_H2D]);
		CHECK(counts[SS_KIND_D2H] == count_kind[SS_OP_D2H]);
		CHECK(with[SS_KIND_H2D] == count_kind[SS_OP_H2D] + count_kind[SS_OP_PREFETCH_H2D]);
		CHECK(with[SS_KIND_D2H] == count_kind[SS_OP_D2H] + count_kind[SS_OP_PREFETCH_D2H]);
		CHECK(with[SS_KIND_KERNEL] == counts[SS_KIND_KERNEL]);
		CHECK(counts[SS_KIND_KERNEL] == count_kind[SS_OP_KERNEL]);
		for (int k = 0; k < SS_KIND_COUNT; k++)
			if (k != SS_KIND_H2D && k != SS_KIND_D2H && k != SS_KIND_KERNEL)
				CHECK(counts[k] == 0);
	}
	free(last_of_stream);
	free(recorded);
	free(sum_in);
}

/* An experiment that must not validate (and so never reaches the planner). */
static void expect_refused(const struct ss_experiment *e, const char *label)
{
	char *cause = NULL;

	CHECK(experiment_validate(e, &cause) != 0);
	free(cause);
}

/* Builds e twice, checks it is deterministic and satisfies every invariant. */
static void build_and_check(const struct ss_experiment *e, const char *label)
{
	struct ss_oplist a, b;
	char *cause = NULL;

	if (experiment_validate(e, &cause) != 0)
		fail_msg("%s: does not validate: %s", label, cause);
	planner_build(e, &a);
	planner_build(e, &b);
	CHECK(a.n == b.n && a.nevents == b.nevents && a.nchunks == b.nchunks);
	CHECK(memcmp(a.op, b.op, a.n * sizeof *a.op) == 0);
	check_oplist(e, &a, label);
	planner_free(&a);
	planner_free(&b);
	assert_null(a.op);
	assert_int_equal(a.n, 0);
}

/* Every preset x streams x order x sync x default stream x host memory x threads x chunking. */
static void test_every_combination(void **state)
{
	static const int stream_cases[] = {1, 3, 0 /* the preset's */};
	size_t built = 0;

	(void)state;
	for (int p = 0; p < SS_PRESET_COUNT; p++)
		for (int sc = 0; sc < 3; sc++)
			for (int o = 0; o < SS_ORDER_COUNT; o++)
				for (int sy = 0; sy < SS_SYNC_COUNT; sy++)
					for (int ds = 0; ds < SS_DS_COUNT; ds++)
						for (int hm = 0; hm < SS_MEM_COUNT; hm++)
							for (int th = 0; th < 2; th++)
								for (int ch = 0; ch < 3; ch++) {
									struct ss_experiment e;
									char label[256];

									experiment_preset(&e, (enum ss_preset)p);
									if (stream_cases[sc] != 0)
										e.streams = stream_cases[sc];
									e.order = (enum ss_order)o;
									e.sync = (enum ss_sync)sy;
									e.defstream = (enum ss_defstream)ds;
									e.hostmem = (enum ss_hostmem)hm;
									e.threads = th ? e.streams : 1;
									e.nonblocking = (p + ds) % 2;
									switch (ch) {
									case 0: /* one chunk per stream */
										e.chunks = 0;
										break;
									case 1: /* more chunks than streams, uneven: the
									           last chunk is shorter */
										e.chunks = 2 * e.streams + 1;
										break;
									default: /* tiny data: 5 elements in 4 chunks
									            are 2, 2, 1 and an empty one */
										e.elements = 5;
										e.chunks = 4;
										break;
									}
									snprintf(label, sizeof label,
									         "%s streams=%d order=%s sync=%s ds=%s "
									         "mem=%s threads=%d chunks=%d el=%llu",
									         experiment_preset_name(p), e.streams,
									         experiment_order_name(o),
									         experiment_sync_name(sy),
									         experiment_defstream_name(ds),
									         experiment_hostmem_name(hm), e.threads,
									         e.chunks,
									         (unsigned long long)e.elements);
									if ((e.kernel == SS_KERNEL_SPIN &&
									     o >= SS_ORDER_BEST) ||
									    (e.kernel == SS_KERNEL_TASK &&
									     (o != SS_ORDER_DEPTH ||
									      hm != SS_MEM_MANAGED_ATTACH))) {
										expect_refused(&e, label);
										continue; /* test_experiment */
									}
									if (e.kernel == SS_KERNEL_TASK)
										continue; /* test_document_004 */
									build_and_check(&e, label);
									built++;
								}
	/* hyperq (spin) takes depth and breadth only; managed-threads has its own test */
	assert_int_equal(built, (7 * 4 + 1 * 2) * 3 * 5 * 5 * 4 * 2 * 3);
}

/* The issue: hyperq shows false dependencies with one hardware queue, and breadth vs depth must differ visibly.
 * Breadth-first issues the first kernel of every stream before the second kernel of any stream; depth-first issues
 * each stream's two kernels in turn. */
static void test_hyperq_breadth_interleaves(void **state)
{
	struct ss_experiment e;
	struct ss_oplist depth, breadth;
	size_t last_first = 0, first_second = SIZE_MAX, nk = 0;

	(void)state;
	experiment_preset(&e, SS_PRESET_HYPERQ);
	assert_int_equal(e.connections, 1);
	planner_build(&e, &depth);
	e.order = SS_ORDER_BREADTH;
	planner_build(&e, &breadth);
	/* depth: s0 k0, s0 k1, s1 k0, s1 k1, ... */
	for (size_t i = 0, k = 0; i < depth.n; i++) {
		if (depth.op[i].kind != SS_OP_KERNEL)
			continue;
		assert_int_equal(depth.op[i].stream, k / 2);
		assert_int_equal(depth.op[i].offset, k % 2);
		k++;
	}
	/* breadth: s0 k0, s1 k0, ..., s31 k0, s0 k1, ..., s31 k1 */
	for (size_t i = 0; i < breadth.n; i++) {
		const struct ss_op *op = &breadth.op[i];

		if (op->kind != SS_OP_KERNEL)
			continue;
		if (op->offset == 0)
			last_first = i;
		else if (i < first_second)
			first_second = i;
		nk++;
	}
	assert_int_equal(nk, 64);
	assert_true(depth.n == breadth.n);
	assert_true(memcmp(depth.op, breadth.op, depth.n * sizeof *depth.op) != 0); /* the orders differ */
	assert_true(last_first < first_second);
	planner_free(&depth);
	planner_free(&breadth);
}

/* "an operation on the legacy default stream between the streams' work": each interfering operation has stream
 * work issued before it and after it, for every preset and order, with one chunk per stream and with a tail of
 * empty chunks (5 elements in 4 chunks). Every offending configuration is listed before the test fails. */
static void test_interference_between_work(void **state)
{
	int bad = 0;

	(void)state;
	for (int p = 0; p < SS_PRESET_COUNT; p++)
		for (int o = 0; o < SS_ORDER_COUNT; o++)
			for (int ds = SS_DS_LEGACY_OP; ds <= SS_DS_PER_THREAD; ds += SS_DS_PER_THREAD - SS_DS_LEGACY_OP)
				for (int tail = 0; tail < 2; tail++) {
					struct ss_experiment e;
					struct ss_oplist ops;
					size_t first_work = SIZE_MAX, last_work = 0, ninterf = 0;

					experiment_preset(&e, (enum ss_preset)p);
					e.order = (enum ss_order)o;
					e.defstream = (enum ss_defstream)ds;
					if ((e.kernel == SS_KERNEL_SPIN && o >= SS_ORDER_BEST) ||
					    (e.kernel == SS_KERNEL_TASK && o != SS_ORDER_DEPTH))
						continue; /* refused: test_every_combination */
					if (tail) {
						e.streams = 2;
						e.elements = 5;
						e.chunks = 4;
					}
					planner_build(&e, &ops);
					for (size_t i = 0; i < ops.n; i++)
						if (is_work(&ops.op[i])) {
							if (first_work == SIZE_MAX)
								first_work = i;
							last_work = i;
						}
					for (size_t i = 0; i < ops.n; i++)
						if (is_interfering(&ops.op[i]) && ops.op[i].kind == SS_OP_KERNEL) {
							ninterf++;
							if (i < first_work || i > last_work) {
								print_message(
								    "%s %s %s streams=%d chunks=%d: interfering op "
								    "#%zu "
								    "is not between work (work is #%zu..#%zu)\n",
								    experiment_preset_name(p), experiment_order_name(o),
								    experiment_defstream_name(ds), e.streams, e.chunks,
								    i + 1, first_work + 1, last_work + 1);
								bad++;
							}
						}
					if (ninterf == 0) {
						print_message("%s %s %s: no interfering op\n",
						              experiment_preset_name(p), experiment_order_name(o),
						              experiment_defstream_name(ds));
						bad++;
					}
					planner_free(&ops);
				}
	assert_int_equal(bad, 0);
}

/* One expected op, written out by hand. */
struct want {
	int kind, stream, thread, chunk, buffer, event;
	uint64_t offset, count;
};

static void check_list(const struct ss_experiment *e, const struct want *w, size_t nw, int nevents, int nchunks)
{
	struct ss_oplist ops;
	char *cause = NULL;

	if (experiment_validate(e, &cause) != 0)
		fail_msg("does not validate: %s", cause);
	planner_build(e, &ops);
	assert_int_equal(ops.n, nw);
	assert_int_equal(ops.nevents, nevents);
	assert_int_equal(ops.nchunks, nchunks);
	for (size_t i = 0; i < nw; i++) {
		const struct ss_op *op = &ops.op[i];

		if (op->kind != w[i].kind || op->stream != w[i].stream || op->thread != w[i].thread ||
		    op->chunk != w[i].chunk || op->buffer != w[i].buffer || op->event != w[i].event ||
		    op->offset != w[i].offset || (w[i].count != UINT64_MAX && op->count != w[i].count))
			fail_msg(
			    "op #%zu: got kind %s stream %d thread %d chunk %d buffer %d event %d [%llu+%llu], want "
			    "kind %s stream %d thread %d chunk %d buffer %d event %d [%llu+%llu]",
			    i + 1, planner_op_kind_name(op->kind), op->stream, op->thread, op->chunk, op->buffer,
			    op->event, (unsigned long long)op->offset, (unsigned long long)op->count,
			    planner_op_kind_name(w[i].kind), w[i].stream, w[i].thread, w[i].chunk, w[i].buffer,
			    w[i].event, (unsigned long long)w[i].offset, (unsigned long long)w[i].count);
		assert_int_equal(op->id, i + 1);
	}
	planner_free(&ops);
}

enum { X = 0, Y = 1, Z = 2, NONE = -1, L = SS_STREAM_LEGACY, H = SS_STREAM_HOST };

/* Document 001's timing() for num = 2 (kernel-transfer.cu), call for call: cudaEventRecord(start) on the legacy
 * stream, cudaEventQuery(start), per stream H2D x, H2D y, add<<<grid, 128>>>, D2H z at offset i * N1,
 * cudaEventRecord(stop), cudaEventSynchronize(stop). */
static void test_document_001(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	static const struct want w[] = {
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 0, 0, 0},      {SS_OP_EVENT_QUERY, H, 0, -1, NONE, 0, 0, 0},
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 1u << 21},           {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 1u << 21},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 1u << 21},        {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 1u << 21},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 1u << 21, 1u << 21},    {SS_OP_H2D, 1, 0, 1, Y, -1, 1u << 21, 1u << 21},
	    {SS_OP_KERNEL, 1, 0, 1, Z, -1, 1u << 21, 1u << 21}, {SS_OP_D2H, 1, 0, 1, Z, -1, 1u << 21, 1u << 21},
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 1, 0, 0},      {SS_OP_EVENT_SYNC, L, 0, -1, NONE, 1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	check_list(&e, w, sizeof w / sizeof w[0], 2, 2);
	planner_build(&e, &ops);
	/* int grid_size = (N1 - 1) / block_size + 1 with block_size = 128 */
	assert_int_equal(ops.op[4].grid, ((1u << 21) - 1) / 128 + 1);
	assert_int_equal(ops.op[4].block, 128);
	assert_int_equal(ops.op[4].kernel, SS_KERNEL_ADD);
	planner_free(&ops);
}

/* Document 000 with 3 streams over 10 entries (its second example): sdiv chunks of 4, 4 and a tail of 2, each H2D,
 * decrypt_gpu<<<80*32, 64>>> in place, D2H on its stream, then each stream synchronised in turn. */
static void test_document_000(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	static const struct want w[] = {
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 4},
	    {SS_OP_KERNEL, 0, 0, 0, X, -1, 0, 4},
	    {SS_OP_D2H, 0, 0, 0, X, -1, 0, 4},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 4, 4},
	    {SS_OP_KERNEL, 1, 0, 1, X, -1, 4, 4},
	    {SS_OP_D2H, 1, 0, 1, X, -1, 4, 4},
	    {SS_OP_H2D, 2, 0, 2, X, -1, 8, 2},
	    {SS_OP_KERNEL, 2, 0, 2, X, -1, 8, 2},
	    {SS_OP_D2H, 2, 0, 2, X, -1, 8, 2},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 2, 0, -1, NONE, -1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 3;
	e.elements = 10;
	check_list(&e, w, sizeof w / sizeof w[0], 0, 3);
	planner_build(&e, &ops);
	for (size_t i = 1; i < 9; i += 3) {
		assert_int_equal(ops.op[i].grid, 80 * 32);
		assert_int_equal(ops.op[i].block, 64);
	}
	planner_free(&ops);
}

/* Document 001's calls breadth-first, as ref_kernel_transfer --order breadth issues them (num = 2): the start
 * event and its query, every stream's H2D x and y, every stream's add, every stream's D2H z, the stop event and its
 * sync. */
static void test_document_001_breadth(void **state)
{
	struct ss_experiment e;
	static const struct want w[] = {
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 0, 0, 0},   {SS_OP_EVENT_QUERY, H, 0, -1, NONE, 0, 0, 0},
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 1u << 21},        {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 1u << 21},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 1u << 21, 1u << 21}, {SS_OP_H2D, 1, 0, 1, Y, -1, 1u << 21, 1u << 21},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 1u << 21},     {SS_OP_KERNEL, 1, 0, 1, Z, -1, 1u << 21, 1u << 21},
	    {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 1u << 21},        {SS_OP_D2H, 1, 0, 1, Z, -1, 1u << 21, 1u << 21},
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 1, 0, 0},   {SS_OP_EVENT_SYNC, L, 0, -1, NONE, 1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.order = SS_ORDER_BREADTH;
	check_list(&e, w, sizeof w / sizeof w[0], 2, 2);
}

/* Document 000's calls breadth-first, as ref_decrypt --order breadth issues them (3 streams over 10 entries): every
 * chunk's H2D, every chunk's decrypt_gpu, every chunk's D2H, then each stream synchronised in turn. */
static void test_document_000_breadth(void **state)
{
	struct ss_experiment e;
	static const struct want w[] = {
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 4},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 4, 4},
	    {SS_OP_H2D, 2, 0, 2, X, -1, 8, 2},
	    {SS_OP_KERNEL, 0, 0, 0, X, -1, 0, 4},
	    {SS_OP_KERNEL, 1, 0, 1, X, -1, 4, 4},
	    {SS_OP_KERNEL, 2, 0, 2, X, -1, 8, 2},
	    {SS_OP_D2H, 0, 0, 0, X, -1, 0, 4},
	    {SS_OP_D2H, 1, 0, 1, X, -1, 4, 4},
	    {SS_OP_D2H, 2, 0, 2, X, -1, 8, 2},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 2, 0, -1, NONE, -1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 3;
	e.elements = 10;
	e.order = SS_ORDER_BREADTH;
	check_list(&e, w, sizeof w / sizeof w[0], 0, 3);
}

/* ops prints a copy's size in MiB, or in bytes below 0.01 MiB, where it read 0.00 MiB. */
static void test_describe_sizes(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	char line[256];

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.elements = 5;
	e.streams = 2;
	planner_build(&e, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.op[i].kind == SS_OP_H2D) {
			planner_op_describe(&ops, &ops.op[i], line, sizeof line);
			assert_non_null(strstr(line, "x[0+3] 12 B"));
			break;
		}
	planner_free(&ops);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	planner_build(&e, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.op[i].kind == SS_OP_H2D) {
			planner_op_describe(&ops, &ops.op[i], line, sizeof line);
			assert_non_null(strstr(line, " 2.00 MiB"));
			break;
		}
	planner_free(&ops);
}

/* Document 003's two orders of two-stream vectorAdd, call for call (A, B in; C out; stream 2 gets the chunk and the
 * tail). best: A1 B1 A2 K1 B2 K2 C1 C2; weaker: A1 B1 A2 B2 K2 K1 C1 C2; then sync stream1, stream2. */
static void test_vector_add_orders(void **state)
{
	struct ss_experiment e;
	static const struct want best[] = {
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 5},
	    {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 5},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 5, 6},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_H2D, 1, 0, 1, Y, -1, 5, 6},
	    {SS_OP_KERNEL, 1, 0, 1, Z, -1, 5, 6},
	    {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_D2H, 1, 0, 1, Z, -1, 5, 6},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	};
	static const struct want weaker[] = {
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 5},
	    {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 5},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 5, 6},
	    {SS_OP_H2D, 1, 0, 1, Y, -1, 5, 6},
	    {SS_OP_KERNEL, 1, 0, 1, Z, -1, 5, 6},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_D2H, 1, 0, 1, Z, -1, 5, 6},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	};
	struct ss_oplist ops;

	(void)state;
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	e.elements = 11; /* chunk 5, chunk + tail 6 */
	check_list(&e, best, sizeof best / sizeof best[0], 0, 2);
	e.order = SS_ORDER_WEAKER;
	check_list(&e, weaker, sizeof weaker / sizeof weaker[0], 0, 2);
	/* the preset's own size: stream 2's part is one element longer */
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	planner_build(&e, &ops);
	assert_int_equal(ops.op[0].count, 1u << 23);
	assert_int_equal(ops.op[2].count, (1u << 23) + 1);
	assert_int_equal(ops.op[3].block, 256);
	/* one blocksPerGrid for both launches, the tail chunk's (document 003), where stream 1's covered its own */
	assert_int_equal(ops.op[3].grid, (1u << 23) / 256 + 1);
	assert_int_equal(ops.op[5].kind, SS_OP_KERNEL);
	assert_int_equal(ops.op[5].grid, ops.op[3].grid);
	planner_free(&ops);
}

/* Where an op list departs from its document on purpose, planner_document_note says so: document 001 gives each of
 * num streams N / num elements and leaves the rest unprocessed, the kernel-transfer preset covers them (only at a
 * count that does not divide 2^22: 20, not the document's own powers of two). Documents 000 and 003 cut their own
 * tails (sdiv, chunk + tail), and a list of chunks or of a step program is no document's program. */
static void test_document_note(void **state)
{
	struct ss_experiment e;
	char buf[512];

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	for (int s = 1; s <= 128; s *= 2) {
		e.streams = s;
		assert_false(planner_document_note(&e, buf, sizeof buf));
		assert_string_equal(buf, "");
	}
	e.streams = 20;
	assert_true(planner_document_note(&e, buf, sizeof buf));
	assert_string_equal(buf, "document 001 gives each of 20 streams N / 20 = 209715 elements and leaves the last 4 "
	                         "unprocessed; here the 20 chunks (--split ceil: 209716, the last 209700) cover all "
	                         "4194304");
	e.chunks = 20;
	assert_true(planner_document_note(&e, buf, sizeof buf));
	e.chunks = 40;
	assert_false(planner_document_note(&e, buf, sizeof buf));
	e.chunks = 0;
	e.devices = 2;
	assert_false(planner_document_note(&e, buf, sizeof buf));
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 3;
	assert_false(planner_document_note(&e, buf, sizeof buf));
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	assert_false(planner_document_note(&e, buf, sizeof buf));
}

/* Document 003, point 2: a timer (cudaEventRecord on stream 0) or cudaGetLastError inserted in the middle of the
 * code, between two streams' work; the default-stream preset on 2 streams over 10 elements, call for call. The
 * timer: its start, its lap between the streams' work, its stop, each stream synchronised, the host reading the
 * stop; cudaGetLastError: between the streams' work only. */
static void test_document_003_stream0(void **state)
{
	struct ss_experiment e;
	static const struct want timer[] = {
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 0, 0, 0},
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 5},
	    {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 5},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 1, 0, 0},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 5, 5},
	    {SS_OP_H2D, 1, 0, 1, Y, -1, 5, 5},
	    {SS_OP_KERNEL, 1, 0, 1, Z, -1, 5, 5},
	    {SS_OP_D2H, 1, 0, 1, Z, -1, 5, 5},
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 2, 0, 0},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_EVENT_SYNC, L, 0, -1, NONE, 2, 0, 0},
	};
	static const struct want gle[] = {
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 5},
	    {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 5},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_GET_LAST_ERROR, H, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 5, 5},
	    {SS_OP_H2D, 1, 0, 1, Y, -1, 5, 5},
	    {SS_OP_KERNEL, 1, 0, 1, Z, -1, 5, 5},
	    {SS_OP_D2H, 1, 0, 1, Z, -1, 5, 5},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_DEFAULT_STREAM);
	e.streams = 2;
	e.elements = 10;
	e.defstream = SS_DS_EVENT_TIMER;
	check_list(&e, timer, sizeof timer / sizeof timer[0], 3, 2);
	e.defstream = SS_DS_GET_LAST_ERROR;
	check_list(&e, gle, sizeof gle / sizeof gle[0], 0, 2);
}

/* Document 004's run_task on 2 host threads, 2 iterations over 10 ints (a task of 5 each), call for call: each
 * thread attaches its data to its stream and synchronises, then transform<<<100, 256>>>, synchronise,
 * host_process, convert<<<100, 256>>>, twice; the final cudaStreamSynchronize, then each thread's cudaFree(data).
 * Not listed, and said so (planner_document_note): run_task's set-up before the attach (cudaStreamCreate,
 * cudaMallocManaged with cudaMemAttachHost, as no preset lists its set-up) and its cudaStreamDestroy between the
 * final synchronisation and cudaFree (not issued: the backend makes its streams once). */
static void test_document_004(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	enum { D = 1, O = 2 };
	static const struct want w[] = {
	    {SS_OP_ATTACH, 0, 0, 0, D, -1, 0, 5},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_KERNEL, 0, 0, 0, D, -1, 0, 5},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_HOST, 0, 0, 0, D, -1, 0, 5},
	    {SS_OP_KERNEL, 0, 0, 0, O, -1, 0, 5},
	    {SS_OP_KERNEL, 0, 0, 0, D, -1, 0, 5},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_HOST, 0, 0, 0, D, -1, 0, 5},
	    {SS_OP_KERNEL, 0, 0, 0, O, -1, 0, 5},
	    {SS_OP_ATTACH, 1, 1, 1, D, -1, 5, 5},
	    {SS_OP_STREAM_SYNC, 1, 1, -1, NONE, -1, 0, 0},
	    {SS_OP_KERNEL, 1, 1, 1, D, -1, 5, 5},
	    {SS_OP_STREAM_SYNC, 1, 1, -1, NONE, -1, 0, 0},
	    {SS_OP_HOST, 1, 1, 1, D, -1, 5, 5},
	    {SS_OP_KERNEL, 1, 1, 1, O, -1, 5, 5},
	    {SS_OP_KERNEL, 1, 1, 1, D, -1, 5, 5},
	    {SS_OP_STREAM_SYNC, 1, 1, -1, NONE, -1, 0, 0},
	    {SS_OP_HOST, 1, 1, 1, D, -1, 5, 5},
	    {SS_OP_KERNEL, 1, 1, 1, O, -1, 5, 5},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 1, -1, NONE, -1, 0, 0},
	    {SS_OP_FREE, 0, 0, 0, D, -1, 0, 5},
	    {SS_OP_FREE, 1, 1, 1, D, -1, 5, 5},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_MANAGED_THREADS);
	assert_int_equal(e.threads, e.streams); /* a host thread per task */
	e.streams = e.threads = 2;
	e.elements = 10;
	e.work = 2;
	check_list(&e, w, sizeof w / sizeof w[0], 0, 2);
	{
		char note[512];

		assert_true(planner_document_note(&e, note, sizeof note));
		assert_non_null(strstr(note, "(cudaStreamCreate)"));
		assert_non_null(strstr(note, "(cudaMallocManaged, cudaMemAttachHost)"));
		assert_non_null(strstr(note, "cudaStreamDestroy between its last cudaStreamSynchronize and cudaFree"));
	}
	planner_build(&e, &ops);
	assert_int_equal(ops.op[2].grid, 100);
	assert_int_equal(ops.op[2].block, 256);
	assert_int_equal(planner_op_bytes(&ops, &ops.op[4]), 5 * 4);
	planner_free(&ops);
	e.order = SS_ORDER_BREADTH; /* each task's steps depend on the last: only in turn */
	{
		char *cause = NULL;

		assert_int_not_equal(experiment_validate(&e, &cause), 0);
		free(cause);
	}
}

/* kernel-transfer, 2 streams, 10 elements (chunks of 5), depth-first, stream sync in order, pinned. */
static void test_list_depth_small(void **state)
{
	struct ss_experiment e;
	static const struct want w[] = {
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 5},
	    {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 5},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 5},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 5, 5},
	    {SS_OP_H2D, 1, 0, 1, Y, -1, 5, 5},
	    {SS_OP_KERNEL, 1, 0, 1, Z, -1, 5, 5},
	    {SS_OP_D2H, 1, 0, 1, Z, -1, 5, 5},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.elements = 10;
	e.sync = SS_SYNC_STREAM;
	check_list(&e, w, sizeof w / sizeof w[0], 0, 2);
}

/* kernel-transfer, 3 streams, 10 elements in 4 chunks (3, 3, 3, 1; chunk 3 back on stream 0), breadth-first,
 * reverse sync, a legacy-stream kernel between the phases. */
static void test_list_breadth_tail_legacy(void **state)
{
	struct ss_experiment e;
	static const struct want w[] = {
	    {SS_OP_H2D, 0, 0, 0, X, -1, 0, 3},
	    {SS_OP_H2D, 0, 0, 0, Y, -1, 0, 3},
	    {SS_OP_H2D, 1, 0, 1, X, -1, 3, 3},
	    {SS_OP_H2D, 1, 0, 1, Y, -1, 3, 3},
	    {SS_OP_H2D, 2, 0, 2, X, -1, 6, 3},
	    {SS_OP_H2D, 2, 0, 2, Y, -1, 6, 3},
	    {SS_OP_H2D, 0, 0, 3, X, -1, 9, 1},
	    {SS_OP_H2D, 0, 0, 3, Y, -1, 9, 1},
	    {SS_OP_KERNEL, L, 0, -1, NONE, -1, 0, 1},
	    {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 3},
	    {SS_OP_KERNEL, 1, 0, 1, Z, -1, 3, 3},
	    {SS_OP_KERNEL, 2, 0, 2, Z, -1, 6, 3},
	    {SS_OP_KERNEL, 0, 0, 3, Z, -1, 9, 1},
	    {SS_OP_KERNEL, L, 0, -1, NONE, -1, 0, 1},
	    {SS_OP_D2H, 0, 0, 0, Z, -1, 0, 3},
	    {SS_OP_D2H, 1, 0, 1, Z, -1, 3, 3},
	    {SS_OP_D2H, 2, 0, 2, Z, -1, 6, 3},
	    {SS_OP_D2H, 0, 0, 3, Z, -1, 9, 1},
	    {SS_OP_STREAM_SYNC, 2, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 1, 0, -1, NONE, -1, 0, 0},
	    {SS_OP_STREAM_SYNC, 0, 0, -1, NONE, -1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 3;
	e.elements = 10;
	e.chunks = 4;
	e.order = SS_ORDER_BREADTH;
	e.sync = SS_SYNC_REVERSE;
	e.defstream = SS_DS_LEGACY_OP;
	check_list(&e, w, sizeof w / sizeof w[0], 0, 4);
}

/* decrypt, 2 streams on 2 host threads, 5 elements in 4 chunks (2, 2, 1, 0: the empty chunk issues nothing),
 * managed memory with prefetch, an event timer on stream 0 (its start, a lap between two chunks' work, its stop),
 * event sync. */
static void test_list_events_threads_prefetch(void **state)
{
	struct ss_experiment e;
	static const struct want w[] = {
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 0, 0, 0}, {SS_OP_PREFETCH_H2D, 0, 0, 0, X, -1, 0, 2},
	    {SS_OP_KERNEL, 0, 0, 0, X, -1, 0, 2},          {SS_OP_PREFETCH_D2H, 0, 0, 0, X, -1, 0, 2},
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 1, 0, 0}, {SS_OP_PREFETCH_H2D, 1, 1, 1, X, -1, 2, 2},
	    {SS_OP_KERNEL, 1, 1, 1, X, -1, 2, 2},          {SS_OP_PREFETCH_D2H, 1, 1, 1, X, -1, 2, 2},
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 2, 0, 0}, {SS_OP_PREFETCH_H2D, 0, 0, 2, X, -1, 4, 1},
	    {SS_OP_KERNEL, 0, 0, 2, X, -1, 4, 1},          {SS_OP_PREFETCH_D2H, 0, 0, 2, X, -1, 4, 1},
	    {SS_OP_EVENT_RECORD, L, 0, -1, NONE, 3, 0, 0}, {SS_OP_EVENT_RECORD, 0, 0, -1, NONE, 4, 0, 0},
	    {SS_OP_EVENT_RECORD, 1, 1, -1, NONE, 5, 0, 0}, {SS_OP_EVENT_SYNC, 0, 0, -1, NONE, 4, 0, 0},
	    {SS_OP_EVENT_SYNC, 1, 1, -1, NONE, 5, 0, 0},   {SS_OP_EVENT_SYNC, L, 0, -1, NONE, 3, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 2;
	e.threads = 2;
	e.elements = 5;
	e.chunks = 4;
	e.hostmem = SS_MEM_MANAGED_PREFETCH;
	e.defstream = SS_DS_EVENT_TIMER;
	e.sync = SS_SYNC_EVENTS;
	check_list(&e, w, sizeof w / sizeof w[0], 6, 4);
}

/* Each thread's start event goes with its first GPU op: in the list above, thread 0's legacy-stream event record
 * (the first op) and thread 1's first prefetch (the sixth); counted as one thread, only the first op. */
static void test_start_events(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	int start_at[32];

	(void)state;
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 2;
	e.threads = 2;
	e.elements = 5;
	e.chunks = 4;
	e.hostmem = SS_MEM_MANAGED_PREFETCH;
	e.defstream = SS_DS_EVENT_TIMER;
	e.sync = SS_SYNC_EVENTS;
	planner_build(&e, &ops);
	assert_int_equal(ops.n, 18);
	assert_true(ops.n <= sizeof start_at / sizeof start_at[0]);
	planner_start_events(&ops, 2, start_at);
	for (size_t i = 0; i < ops.n; i++)
		assert_int_equal(start_at[i], i == 0 ? 0 : i == 5 ? 1 : -1);
	planner_start_events(&ops, 1, start_at);
	for (size_t i = 0; i < ops.n; i++)
		assert_int_equal(start_at[i], i == 0 ? 0 : -1);
	planner_free(&ops);
}

/* hyperq with 2 streams, one device sync: two dependent spin kernels per stream; depth-first issues each stream's
 * pair in turn, breadth-first all first kernels then all second ones (with a legacy-stream kernel between the two
 * phases). The kernels' count field is not checked: planner.h says iterations, planner.c writes 1. */
static void test_list_hyperq_small(void **state)
{
	struct ss_experiment e;
	static const struct want depth[] = {
	    {SS_OP_KERNEL, 0, 0, 0, NONE, -1, 0, UINT64_MAX}, {SS_OP_KERNEL, 0, 0, 0, NONE, -1, 1, UINT64_MAX},
	    {SS_OP_KERNEL, 1, 0, 1, NONE, -1, 0, UINT64_MAX}, {SS_OP_KERNEL, 1, 0, 1, NONE, -1, 1, UINT64_MAX},
	    {SS_OP_DEVICE_SYNC, H, 0, -1, NONE, -1, 0, 0},
	};
	static const struct want breadth[] = {
	    {SS_OP_KERNEL, 0, 0, 0, NONE, -1, 0, UINT64_MAX}, {SS_OP_KERNEL, 1, 0, 1, NONE, -1, 0, UINT64_MAX},
	    {SS_OP_KERNEL, L, 0, -1, NONE, -1, 0, 1},         {SS_OP_KERNEL, 0, 0, 0, NONE, -1, 1, UINT64_MAX},
	    {SS_OP_KERNEL, 1, 0, 1, NONE, -1, 1, UINT64_MAX}, {SS_OP_DEVICE_SYNC, H, 0, -1, NONE, -1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_HYPERQ);
	e.streams = 2;
	e.sync = SS_SYNC_DEVICE;
	check_list(&e, depth, sizeof depth / sizeof depth[0], 0, 2);
	e.order = SS_ORDER_BREADTH;
	e.defstream = SS_DS_LEGACY_OP;
	check_list(&e, breadth, sizeof breadth / sizeof breadth[0], 0, 2);
}

/* managed memory attached per stream: every array of the chunk attached to its stream, no copies. */
static void test_list_managed_attach(void **state)
{
	struct ss_experiment e;
	static const struct want w[] = {
	    {SS_OP_ATTACH, 0, 0, 0, X, -1, 0, 4},          {SS_OP_ATTACH, 0, 0, 0, Y, -1, 0, 4},
	    {SS_OP_ATTACH, 0, 0, 0, Z, -1, 0, 4},          {SS_OP_KERNEL, 0, 0, 0, Z, -1, 0, 4},
	    {SS_OP_ATTACH, 1, 0, 1, X, -1, 4, 3},          {SS_OP_ATTACH, 1, 0, 1, Y, -1, 4, 3},
	    {SS_OP_ATTACH, 1, 0, 1, Z, -1, 4, 3},          {SS_OP_KERNEL, 1, 0, 1, Z, -1, 4, 3},
	    {SS_OP_DEVICE_SYNC, H, 0, -1, NONE, -1, 0, 0},
	};

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.elements = 7;
	e.hostmem = SS_MEM_MANAGED_ATTACH;
	e.sync = SS_SYNC_DEVICE;
	check_list(&e, w, sizeof w / sizeof w[0], 0, 2);
}

/* planner_chunk: ceil division, the last chunk shorter, trailing chunks empty. */
static void test_chunk_tails(void **state)
{
	uint64_t off, cnt;
	static const uint64_t ten[4][2] = {{0, 3}, {3, 3}, {6, 3}, {9, 1}};
	static const uint64_t five[3][2] = {{0, 2}, {2, 2}, {4, 1}};

	(void)state;
	for (int c = 0; c < 4; c++) {
		planner_chunk(10, 4, SS_SPLIT_CEIL, c, &off, &cnt);
		assert_int_equal(off, ten[c][0]);
		assert_int_equal(cnt, ten[c][1]);
	}
	for (int c = 0; c < 3; c++) {
		planner_chunk(5, 4, SS_SPLIT_CEIL, c, &off, &cnt);
		assert_int_equal(off, five[c][0]);
		assert_int_equal(cnt, five[c][1]);
	}
	planner_chunk(5, 4, SS_SPLIT_CEIL, 3, &off, &cnt);
	assert_int_equal(cnt, 0);
	for (int c = 0; c < 4; c++) {
		planner_chunk(8, 4, SS_SPLIT_CEIL, c, &off, &cnt);
		assert_int_equal(off, 2 * c);
		assert_int_equal(cnt, 2);
	}
	/* 2^22 floats in 3 chunks: 1398102, 1398102, 1398100 */
	planner_chunk(1u << 22, 3, SS_SPLIT_CEIL, 0, &off, &cnt);
	assert_int_equal(off, 0);
	assert_int_equal(cnt, 1398102);
	planner_chunk(1u << 22, 3, SS_SPLIT_CEIL, 1, &off, &cnt);
	assert_int_equal(off, 1398102);
	assert_int_equal(cnt, 1398102);
	planner_chunk(1u << 22, 3, SS_SPLIT_CEIL, 2, &off, &cnt);
	assert_int_equal(off, 2796204);
	assert_int_equal(cnt, 1398100);
	/* one element in 8 chunks: only the first has it */
	planner_chunk(1, 8, SS_SPLIT_CEIL, 0, &off, &cnt);
	assert_int_equal(off, 0);
	assert_int_equal(cnt, 1);
	for (int c = 1; c < 8; c++) {
		planner_chunk(1, 8, SS_SPLIT_CEIL, c, &off, &cnt);
		assert_int_equal(cnt, 0);
	}
	planner_chunk(7, 1, SS_SPLIT_CEIL, 0, &off, &cnt);
	assert_int_equal(off, 0);
	assert_int_equal(cnt, 7);
	/* 2^34 elements (the maximum) in 128 chunks of 2^27 */
	planner_chunk(1ull << 34, 128, SS_SPLIT_CEIL, 127, &off, &cnt);
	assert_int_equal(off, 127ull << 27);
	assert_int_equal(cnt, 1ull << 27);
}

/* Chunk lengths as the H2D copies of the planned experiment carry them. */
static void test_chunk_tails_in_oplist(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	static const uint64_t want[4] = {3, 3, 3, 1};
	int seen = 0;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 4;
	e.elements = 10;
	planner_build(&e, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.op[i].kind == SS_OP_H2D && ops.op[i].buffer == X) {
			assert_int_equal(ops.op[i].stream, seen);
			assert_int_equal(ops.op[i].count, want[seen]);
			assert_int_equal(planner_op_bytes(&ops, &ops.op[i]), want[seen] * 4);
			seen++;
		}
	assert_int_equal(seen, 4);
	planner_free(&ops);
}

static void expect_records(const struct ss_experiment *e, bool prefetches, size_t h2d, size_t ker, size_t d2h)
{
	struct ss_oplist ops;
	size_t counts[SS_KIND_COUNT];

	planner_build(e, &ops);
	planner_expected_records(&ops, prefetches, counts);
	assert_int_equal(counts[SS_KIND_H2D], h2d);
	assert_int_equal(counts[SS_KIND_KERNEL], ker);
	assert_int_equal(counts[SS_KIND_D2H], d2h);
	assert_int_equal(counts[SS_KIND_D2D], 0);
	assert_int_equal(counts[SS_KIND_MEMSET], 0);
	assert_int_equal(counts[SS_KIND_API], 0);
	assert_int_equal(counts[SS_KIND_SYNC], 0);
	assert_int_equal(counts[SS_KIND_MARKER], 0);
	planner_free(&ops);
}

static void test_expected_records(void **state)
{
	struct ss_experiment e;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER); /* 8 streams: x and y in, z out per stream */
	expect_records(&e, false, 16, 8, 8);
	e.streams = 2;
	e.elements = 10;
	e.chunks = 5; /* chunks of 2 */
	e.hostmem = SS_MEM_PAGEABLE;
	expect_records(&e, false, 10, 5, 5);
	e.elements = 5;
	e.chunks = 4; /* 2, 2, 1, 0: three chunks have work */
	expect_records(&e, false, 6, 3, 3);
	experiment_preset(&e, SS_PRESET_HYPERQ); /* 32 streams x 2 spin kernels, no copies */
	expect_records(&e, false, 0, 64, 0);
	experiment_preset(&e, SS_PRESET_DECRYPT); /* 32 streams, one array in and out */
	expect_records(&e, false, 32, 32, 32);
	e.streams = 4;
	e.hostmem = SS_MEM_MANAGED_PREFETCH; /* prefetches: records only where shown (bracket.h, the model) */
	expect_records(&e, false, 0, 4, 0);
	expect_records(&e, true, 4, 4, 4);
	e.hostmem = SS_MEM_MANAGED_ATTACH;
	expect_records(&e, false, 0, 4, 0);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.defstream = SS_DS_EVENT_TIMER; /* events are not GPU records */
	e.sync = SS_SYNC_EVENTS;
	expect_records(&e, false, 4, 2, 2);
}

/* The run timer starts before the call of a prefetch, an attach and a pageable copy (they do their op's work inside
 * the call), after every other call; every op kind but the synchronisations, host_process, cudaFree and
 * cudaEventQuery puts work on a stream. */
static void test_start_before(void **state)
{
	static const int memory[] = {SS_MEM_PINNED, SS_MEM_PAGEABLE, SS_MEM_MANAGED_ATTACH, SS_MEM_MANAGED_PREFETCH};
	struct ss_experiment e;
	struct ss_op op;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	memset(&op, 0, sizeof op);
	for (size_t m = 0; m < sizeof memory / sizeof memory[0]; m++) {
		e.hostmem = memory[m];
		for (int k = 0; k < SS_OP_COUNT; k++) {
			bool want = k == SS_OP_PREFETCH_H2D || k == SS_OP_PREFETCH_D2H || k == SS_OP_ATTACH ||
			            ((k == SS_OP_H2D || k == SS_OP_D2H) && memory[m] == SS_MEM_PAGEABLE);

			op.kind = (uint8_t)k;
			assert_int_equal(planner_gpu_op(k), k != SS_OP_EVENT_SYNC && k != SS_OP_STREAM_SYNC &&
			                                        k != SS_OP_DEVICE_SYNC && k != SS_OP_GET_LAST_ERROR &&
			                                        k != SS_OP_HOST && k != SS_OP_FREE &&
			                                        k != SS_OP_EVENT_QUERY);
			if (planner_start_before(&e, &op) != want)
				fail_msg("op kind %s, host memory %d: start before %d", planner_op_kind_name(k),
				         memory[m], !want);
		}
	}
}

static void expect_describe(const struct ss_oplist *ops, size_t id, const char *want)
{
	char buf[256];

	assert_true(id >= 1 && id <= ops->n);
	planner_op_describe(ops, &ops->op[id - 1], buf, sizeof buf);
	assert_string_equal(buf, want);
}

/* One line per op kind, written out by hand (the stream label is padded to 10 columns). */
static void test_op_describe(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;

	(void)state;
	/* kernel-transfer, 2 streams, 2^20 floats: chunks of 524288 floats = 2 MiB */
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.elements = 1u << 20;
	planner_build(&e, &ops); /* document 001's timing: its start and stop events on the legacy stream */
	expect_describe(&ops, 1, "#1 t0 legacy     cudaEventRecord(ev0)");
	expect_describe(&ops, 2, "#2 t0 host       cudaEventQuery(ev0)");
	expect_describe(&ops, 11, "#11 t0 legacy     cudaEventRecord(ev1)");
	expect_describe(&ops, 12, "#12 t0 legacy     cudaEventSynchronize(ev1)");
	expect_describe(&ops, 9, "#9 t0 s1         kernel launch add<<<4096, 128>>> [524288+524288]");
	planner_free(&ops);
	e.sync = SS_SYNC_STREAM;
	planner_build(&e, &ops);
	expect_describe(&ops, 1, "#1 t0 s0         cudaMemcpyAsync H2D x[0+524288] 2.00 MiB");
	expect_describe(&ops, 6, "#6 t0 s1         cudaMemcpyAsync H2D y[524288+524288] 2.00 MiB");
	expect_describe(&ops, 4, "#4 t0 s0         cudaMemcpyAsync D2H z[0+524288] 2.00 MiB");
	expect_describe(&ops, 7, "#7 t0 s1         kernel launch add<<<4096, 128>>> [524288+524288]");
	expect_describe(&ops, 9, "#9 t0 s0         cudaStreamSynchronize");
	planner_free(&ops);
	e.defstream = SS_DS_GET_LAST_ERROR;
	planner_build(&e, &ops);
	expect_describe(&ops, 5, "#5 t0 host       cudaGetLastError");
	planner_free(&ops);
	e.defstream = SS_DS_NONE;

	/* interfering kernels on the legacy and the per-thread default stream (breadth: after the H2D phase) */
	e.order = SS_ORDER_BREADTH;
	e.defstream = SS_DS_LEGACY_OP;
	planner_build(&e, &ops);
	expect_describe(&ops, 5, "#5 t0 legacy     kernel launch touch<<<1, 1>>> (interfering)");
	planner_free(&ops);
	e.defstream = SS_DS_PER_THREAD;
	planner_build(&e, &ops);
	expect_describe(&ops, 5, "#5 t0 per-thread kernel launch touch<<<1, 1>>> (interfering)");
	planner_free(&ops);

	/* the kernels of a document's preset by the document's names: document 000's decrypt_gpu, document 003's
	 * vectorAdd; the same kernels elsewhere by the option's names */
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 2;
	e.elements = 1u << 20;
	planner_build(&e, &ops);
	expect_describe(&ops, 2, "#2 t0 s0         kernel launch decrypt_gpu<<<2560, 64>>> [0+524288]");
	planner_free(&ops);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.elements = 1u << 20;
	e.kernel = SS_KERNEL_DECRYPT;
	e.elem_size = 8;
	e.sync = SS_SYNC_STREAM;
	planner_build(&e, &ops);
	expect_describe(&ops, 2, "#2 t0 s0         kernel launch decrypt<<<8192, 64>>> [0+524288]");
	planner_free(&ops);
	experiment_preset(&e, SS_PRESET_VECTOR_ADD);
	e.elements = 1u << 20;
	planner_build(&e, &ops);
	expect_describe(&ops, 4, "#4 t0 s0         kernel launch vectorAdd<<<2048, 256>>> [0+524288]");
	planner_free(&ops);
	e.kernel = SS_KERNEL_FMA;
	planner_build(&e, &ops);
	expect_describe(&ops, 4, "#4 t0 s0         kernel launch fma<<<2048, 256>>> [0+524288]");
	planner_free(&ops);

	/* decrypt, 2 streams on 2 threads, 2^20 uint64 (chunks of 4 MiB), prefetch, event timer, event sync:
	 * 1 ER legacy ev0, 2-4 s0, 5 ER legacy ev1 (the timer's lap), 6-8 s1, 9 ER legacy ev2, 10-11 ER s0/s1
	 * ev3/ev4, 12-13 ES, 14 ES legacy ev2 */
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 2;
	e.threads = 2;
	e.elements = 1u << 20;
	e.hostmem = SS_MEM_MANAGED_PREFETCH;
	e.defstream = SS_DS_EVENT_TIMER;
	e.sync = SS_SYNC_EVENTS;
	planner_build(&e, &ops);
	assert_int_equal(ops.n, 14);
	expect_describe(&ops, 1, "#1 t0 legacy     cudaEventRecord(ev0)");
	expect_describe(&ops, 5, "#5 t0 legacy     cudaEventRecord(ev1)");
	expect_describe(&ops, 6, "#6 t1 s1         cudaMemPrefetchAsync H2D x[524288+524288] 4.00 MiB");
	expect_describe(&ops, 8, "#8 t1 s1         cudaMemPrefetchAsync D2H x[524288+524288] 4.00 MiB");
	expect_describe(&ops, 11, "#11 t1 s1         cudaEventRecord(ev4)");
	expect_describe(&ops, 13, "#13 t1 s1         cudaEventSynchronize(ev4)");
	expect_describe(&ops, 14, "#14 t0 legacy     cudaEventSynchronize(ev2)");
	planner_free(&ops);

	/* managed attach, 1 stream, 2^20 uint64 = 8 MiB; device sync on the host */
	experiment_preset(&e, SS_PRESET_DECRYPT);
	e.streams = 1;
	e.elements = 1u << 20;
	e.hostmem = SS_MEM_MANAGED_ATTACH;
	e.sync = SS_SYNC_DEVICE;
	planner_build(&e, &ops);
	assert_int_equal(ops.n, 3);
	expect_describe(&ops, 1, "#1 t0 s0         cudaStreamAttachMemAsync x[0+1048576] 8.00 MiB");
	expect_describe(&ops, 3, "#3 t0 host       cudaDeviceSynchronize");
	planner_free(&ops);
}

static void test_op_kind_names(void **state)
{
	(void)state;
	assert_string_equal(planner_op_kind_name(SS_OP_H2D), "cudaMemcpyAsync H2D");
	assert_string_equal(planner_op_kind_name(SS_OP_D2H), "cudaMemcpyAsync D2H");
	assert_string_equal(planner_op_kind_name(SS_OP_KERNEL), "kernel launch");
	assert_string_equal(planner_op_kind_name(SS_OP_ATTACH), "cudaStreamAttachMemAsync");
	assert_string_equal(planner_op_kind_name(SS_OP_DEVICE_SYNC), "cudaDeviceSynchronize");
	assert_string_equal(planner_op_kind_name(-1), "?");
	assert_string_equal(planner_op_kind_name(SS_OP_COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_combination),
	    cmocka_unit_test(test_hyperq_breadth_interleaves),
	    cmocka_unit_test(test_interference_between_work),
	    cmocka_unit_test(test_document_001),
	    cmocka_unit_test(test_document_000),
	    cmocka_unit_test(test_document_001_breadth),
	    cmocka_unit_test(test_document_000_breadth),
	    cmocka_unit_test(test_vector_add_orders),
	    cmocka_unit_test(test_describe_sizes),
	    cmocka_unit_test(test_document_003_stream0),
	    cmocka_unit_test(test_document_note),
	    cmocka_unit_test(test_document_004),
	    cmocka_unit_test(test_list_depth_small),
	    cmocka_unit_test(test_list_breadth_tail_legacy),
	    cmocka_unit_test(test_list_events_threads_prefetch),
	    cmocka_unit_test(test_list_hyperq_small),
	    cmocka_unit_test(test_list_managed_attach),
	    cmocka_unit_test(test_chunk_tails),
	    cmocka_unit_test(test_chunk_tails_in_oplist),
	    cmocka_unit_test(test_expected_records),
	    cmocka_unit_test(test_start_before),
	    cmocka_unit_test(test_start_events),
	    cmocka_unit_test(test_op_describe),
	    cmocka_unit_test(test_op_kind_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
