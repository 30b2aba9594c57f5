/* planner.c: experiment -> op list. The op list is the single source of truth for what a backend issues. */
#include "core/planner.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timeline.h"
#include "core/vec.h"
#include "core/xalloc.h"

/* Buffers of the kernel-transfer layout: x and y in, z out. Decrypt uses buffer 0 in and out. */
enum { PLANNER_X = 0, PLANNER_Y = 1, PLANNER_Z = 2 };

static const char *const planner_kind_names[SS_OP_COUNT] = {
    "cudaMemcpyAsync H2D",      "cudaMemcpyAsync D2H",      "kernel launch",    "cudaStreamAttachMemAsync",
    "cudaMemPrefetchAsync H2D", "cudaMemPrefetchAsync D2H", "cudaEventRecord",  "cudaEventSynchronize",
    "cudaStreamSynchronize",    "cudaDeviceSynchronize",    "cudaGetLastError", "host_process",
    "cudaMemsetAsync",          "cudaMemcpyPeerAsync",      "cudaFree",         "cudaEventQuery",
};

/* Planning state: the list being built and the experiment it follows. */
struct planner_ctx {
	const struct ss_experiment *e;
	struct ss_oplist *ops;
};

const char *planner_kernel_symbol(const struct ss_op *op)
{
	if (op->stream < 0)
		return "ss_touch";
	switch (op->kernel) {
	case SS_KERNEL_ADD:
		return "ss_add";
	case SS_KERNEL_FMA:
		return "ss_fma";
	case SS_KERNEL_DECRYPT:
		return "ss_decrypt";
	case SS_KERNEL_TASK:
		return op->buffer == 1 ? "ss_transform" : "ss_convert";
	default:
		return "ss_spin";
	}
}

const char *planner_op_kind_name(int kind)
{
	if (kind < 0 || kind >= SS_OP_COUNT)
		return "?";
	return planner_kind_names[kind];
}

void planner_chunk(uint64_t elements, int chunks, enum ss_split split, int c, uint64_t *offset, uint64_t *count)
{
	uint64_t size = (elements + (uint64_t)chunks - 1) / (uint64_t)chunks;
	uint64_t off;

	if (split == SS_SPLIT_FLOOR && chunks > 0) {
		size = elements / (uint64_t)chunks;
		*offset = size * (uint64_t)c;
		*count = c == chunks - 1 ? elements - *offset : size;
		return;
	}
	off = size * (uint64_t)c;

	if (off >= elements) {
		*offset = elements;
		*count = 0;
		return;
	}
	*offset = off;
	*count = elements - off < size ? elements - off : size;
}

/* planner_push appends an op of kind on stream to p's op list, numbered by its place, every optional field unset
 * (-1), on the host thread that issues the stream's work. Returns it for the caller to fill. */
static struct ss_op *planner_push(struct planner_ctx *p, int kind, int stream)
{
	struct ss_oplist *ops = p->ops;
	struct ss_op *op;

	op = VEC_PUSH(ops->op, ops->n, ops->cap, 64);
	memset(op, 0, sizeof *op);
	op->id = (uint32_t)ops->n;
	op->kind = (uint8_t)kind;
	op->stream = (int16_t)stream;
	op->buffer = -1;
	op->chunk = -1;
	op->event = -1;
	op->step = -1;
	/* One host thread per stream when asked; default-stream work and global syncs stay on thread 0. */
	op->thread = (int16_t)(p->e->threads > 1 && stream >= 0 ? stream : 0);
	return op;
}

static int planner_chunk_stream(const struct ss_experiment *e, int c)
{
	return c % e->streams;
}

/* The buffer the kernels write and the copies back read: z for add, else x (in place). */
static int planner_output_buffer(const struct ss_experiment *e)
{
	int inputs, outputs;

	experiment_io_arrays(e, &inputs, &outputs);
	return inputs == 2 ? PLANNER_Z : PLANNER_X;
}

/* planner_elements gives chunk c's share of the experiment's elements: their count, the first in *off. */
static uint64_t planner_elements(const struct planner_ctx *p, int c, uint64_t *off)
{
	uint64_t cnt;

	planner_chunk(p->e->elements, p->ops->nchunks, p->e->split, c, off, &cnt);
	return cnt;
}

/* planner_grid_count is the element count a chunk's kernel of count elements covers with its grid: its own, but
 * for vector-add the largest chunk's (document 003 computes blocksPerGrid once, for the chunk with the tail, and
 * launches both kernels with it; the kernel's bounds check idles the extra block). */
static uint64_t planner_grid_count(const struct planner_ctx *p, uint64_t count)
{
	uint64_t off, first, last;

	if (p->e->preset != SS_PRESET_VECTOR_ADD || p->ops->nchunks < 1)
		return count;
	planner_chunk(p->e->elements, p->ops->nchunks, p->e->split, 0, &off, &first);
	planner_chunk(p->e->elements, p->ops->nchunks, p->e->split, p->ops->nchunks - 1, &off, &last);
	return first > last ? first : last;
}

/* planner_push_chunk adds an op of kind for chunk c on its stream: count elements of buffer (-1: none) from offset.
 */
static struct ss_op *planner_push_chunk(struct planner_ctx *p, int kind, int c, int buffer, uint64_t offset,
                                        uint64_t count)
{
	struct ss_op *op = planner_push(p, kind, planner_chunk_stream(p->e, c));

	op->buffer = (int8_t)buffer;
	op->chunk = (int32_t)c;
	op->offset = offset;
	op->count = count;
	if (kind == SS_OP_KERNEL) {
		op->kernel = (uint8_t)p->e->kernel;
		op->block = (uint16_t)experiment_block(p->e);
		op->grid = (uint32_t)experiment_grid(p->e, planner_grid_count(p, count));
		op->work = p->e->work;
	}
	if (kind == SS_OP_H2D || kind == SS_OP_D2H)
		op->hostmem = (uint8_t)p->e->hostmem;
	return op;
}

/* Whether chunk c has any operation (a tail chunk can be empty). */
static bool planner_chunk_has_work(const struct planner_ctx *p, int c)
{
	uint64_t off;

	return p->e->kernel == SS_KERNEL_SPIN || planner_elements(p, c, &off) > 0;
}

/* The copies into the device for chunk c: H2D copies, managed attaches or prefetches. */
static void planner_inputs(struct planner_ctx *p, int c)
{
	const struct ss_experiment *e = p->e;
	int inputs, outputs, kind = e->hostmem == SS_MEM_MANAGED_PREFETCH ? SS_OP_PREFETCH_H2D : SS_OP_H2D;
	uint64_t off, cnt = planner_elements(p, c, &off);

	experiment_io_arrays(e, &inputs, &outputs);
	if (cnt == 0)
		return;
	if (e->hostmem == SS_MEM_MANAGED_ATTACH) {
		/* Attach every array of the chunk to its stream (its own managed allocation per chunk). */
		kind = SS_OP_ATTACH;
		inputs += inputs == 2 ? outputs : 0;
	}
	for (int b = 0; b < inputs; b++)
		planner_push_chunk(p, kind, c, b, off, cnt);
}

/* The kernels of chunk c. hyperq has two dependent spin kernels per stream: `which` picks the first (0), the second
 * (1) or both in turn (-1, depth-first). */
static void planner_kernels(struct planner_ctx *p, int c, int which)
{
	const struct ss_experiment *e = p->e;
	uint64_t off, cnt;

	if (e->kernel == SS_KERNEL_SPIN) {
		for (int k = 0; k < 2; k++)
			if (which < 0 || k == which)
				planner_push_chunk(p, SS_OP_KERNEL, c, -1, (uint64_t)k, 1);
		return;
	}
	if (which == 1 || (cnt = planner_elements(p, c, &off)) == 0)
		return;
	planner_push_chunk(p, SS_OP_KERNEL, c, planner_output_buffer(e), off, cnt);
}

/* The copies back for chunk c. */
static void planner_outputs(struct planner_ctx *p, int c)
{
	const struct ss_experiment *e = p->e;
	int inputs, outputs;
	uint64_t off, cnt = planner_elements(p, c, &off);

	experiment_io_arrays(e, &inputs, &outputs);
	if (cnt == 0 || outputs == 0 || e->hostmem == SS_MEM_MANAGED_ATTACH)
		return;
	planner_push_chunk(p, e->hostmem == SS_MEM_MANAGED_PREFETCH ? SS_OP_PREFETCH_D2H : SS_OP_D2H, c,
	                   planner_output_buffer(e), off, cnt);
}

/* Document 004's run_task for chunk c, after the allocation: cudaStreamAttachMemAsync(stream, data),
 * cudaStreamSynchronize, then `work` times transform<<<100, 256>>>(in, data), cudaStreamSynchronize,
 * host_process(data), convert<<<100, 256>>>(out, data). The final synchronisation is the experiment's, the
 * cudaFree(data) after it planner_task_free's. Its cudaStreamCreate and cudaMallocManaged are the backend's set-up,
 * and its cudaStreamDestroy is not issued (planner_document_note says so). */
static void planner_task(struct planner_ctx *p, int c)
{
	uint64_t off, cnt = planner_elements(p, c, &off);

	if (cnt == 0)
		return;
	planner_push_chunk(p, SS_OP_ATTACH, c, PLANNER_Y, off, cnt);
	planner_push_chunk(p, SS_OP_STREAM_SYNC, c, -1, 0, 0)->chunk = -1;
	for (uint32_t k = 0; k < p->e->work; k++) {
		planner_push_chunk(p, SS_OP_KERNEL, c, PLANNER_Y, off, cnt);
		planner_push_chunk(p, SS_OP_STREAM_SYNC, c, -1, 0, 0)->chunk = -1;
		planner_push_chunk(p, SS_OP_HOST, c, PLANNER_Y, off, cnt);
		planner_push_chunk(p, SS_OP_KERNEL, c, PLANNER_Z, off, cnt);
	}
}

/* The end of document 004's run_task: each chunk's cudaFree(data), issued by its stream's thread after the final
 * synchronisation (a thread's ops keep their order, so each thread frees after its own stream's wait). */
static void planner_task_free(struct planner_ctx *p)
{
	uint64_t off, cnt;

	for (int c = 0; c < p->ops->nchunks; c++)
		if ((cnt = planner_elements(p, c, &off)) > 0)
			planner_push_chunk(p, SS_OP_FREE, c, PLANNER_Y, off, cnt);
}

/* The interfering default-stream operation placed between the streams' work. */
static void planner_interfere(struct planner_ctx *p)
{
	struct ss_op *op;

	switch (p->e->defstream) {
	case SS_DS_LEGACY_OP:
	case SS_DS_PER_THREAD:
		op = planner_push(p, SS_OP_KERNEL,
		                  p->e->defstream == SS_DS_LEGACY_OP ? SS_STREAM_LEGACY : SS_STREAM_PER_THREAD);
		op->count = 1;
		op->kernel = SS_KERNEL_SPIN;
		op->grid = 1;
		op->block = 1;
		break;
	case SS_DS_EVENT_TIMER:
		op = planner_push(p, SS_OP_EVENT_RECORD, SS_STREAM_LEGACY);
		op->event = p->ops->nevents++;
		break;
	case SS_DS_GET_LAST_ERROR:
		planner_push(p, SS_OP_GET_LAST_ERROR, SS_STREAM_HOST);
		break;
	default:
		break;
	}
}

/* The host's wait for everything, in the experiment's sync order. */
static void planner_sync(struct planner_ctx *p)
{
	const struct ss_experiment *e = p->e;
	int n = e->streams;
	struct ss_op *op;

	switch (e->sync) {
	case SS_SYNC_DEVICE:
		planner_push(p, SS_OP_DEVICE_SYNC, SS_STREAM_HOST);
		break;
	case SS_SYNC_EVENTS: {
		int first = p->ops->nevents;
		for (int s = 0; s < n; s++) {
			op = planner_push(p, SS_OP_EVENT_RECORD, s);
			op->event = p->ops->nevents++;
		}
		for (int s = 0; s < n; s++) {
			op = planner_push(p, SS_OP_EVENT_SYNC, s);
			op->event = first + s;
		}
		break;
	}
	case SS_SYNC_REVERSE:
		for (int s = n - 1; s >= 0; s--)
			planner_push(p, SS_OP_STREAM_SYNC, s);
		break;
	case SS_SYNC_STOP_EVENT:
		/* the stop event on the legacy stream (the start is the list's first op), the host waiting for it */
		op = planner_push(p, SS_OP_EVENT_RECORD, SS_STREAM_LEGACY);
		op->event = p->ops->nevents++;
		op = planner_push(p, SS_OP_EVENT_SYNC, SS_STREAM_LEGACY);
		op->event = p->ops->nevents - 1;
		break;
	default:
		for (int s = 0; s < n; s++)
			planner_push(p, SS_OP_STREAM_SYNC, s);
		break;
	}
	if (e->defstream == SS_DS_EVENT_TIMER) {
		/* The host timer reads its last event. */
		op = planner_push(p, SS_OP_EVENT_SYNC, SS_STREAM_LEGACY);
		op->event = p->ops->nevents - 1 -
		            (e->sync == SS_SYNC_EVENTS       ? n
		             : e->sync == SS_SYNC_STOP_EVENT ? 1
		                                             : 0);
	}
}

/* planner_phase pushes phase ph of the phased orders. breadth: all inputs, the kernels (hyperq: all first kernels,
 * then all second ones), all outputs. best: each chunk's inputs with the previous chunk's kernels issued after its
 * first input op, then the last chunk's kernels; then all outputs. weaker: all inputs, the kernels from the last
 * chunk to the first, all outputs. */
static void planner_phase(struct planner_ctx *p, int ph)
{
	const struct ss_experiment *e = p->e;
	struct ss_oplist *ops = p->ops;
	int n = ops->nchunks;

	switch (e->order) {
	case SS_ORDER_BEST:
		if (ph == 1) {
			for (int c = 0; c < n; c++)
				planner_outputs(p, c);
			return;
		}
		for (int c = 0; c < n; c++) {
			size_t first = ops->n, mid;

			planner_inputs(p, c);
			mid = ops->n;
			if (c > 0)
				planner_kernels(p, c - 1, -1);
			if (mid > first + 1) {
				/* the kernels go right after this chunk's first input op: rotate them there */
				size_t nk = ops->n - mid, nin = mid - first - 1;
				struct ss_op *tmp = xcalloc(nk + 1, sizeof *tmp);

				memcpy(tmp, &ops->op[mid], nk * sizeof *tmp);
				memmove(&ops->op[first + 1 + nk], &ops->op[first + 1], nin * sizeof *tmp);
				memcpy(&ops->op[first + 1], tmp, nk * sizeof *tmp);
				free(tmp);
			}
		}
		planner_kernels(p, n - 1, -1);
		return;
	case SS_ORDER_WEAKER:
		for (int c = 0; c < n; c++) {
			if (ph == 0)
				planner_inputs(p, c);
			else if (ph == 1)
				planner_kernels(p, n - 1 - c, -1);
			else
				planner_outputs(p, c);
		}
		return;
	default:
		for (int c = 0; c < n; c++) {
			if (e->kernel == SS_KERNEL_SPIN)
				planner_kernels(p, c, ph);
			else if (ph == 0)
				planner_inputs(p, c);
			else if (ph == 1)
				planner_kernels(p, c, 0);
			else
				planner_outputs(p, c);
		}
		return;
	}
}

/* planner_phases: how many phases e's phased order has. */
static int planner_phases(const struct ss_experiment *e)
{
	if (e->order == SS_ORDER_BEST)
		return 2;
	return e->kernel == SS_KERNEL_SPIN && e->order == SS_ORDER_BREADTH ? 2 : 3;
}

/* planner_step pushes step st of e's step program for chunk c (nothing for an empty chunk), each op marked with
 * its step. */
static void planner_step(struct planner_ctx *p, int c, int st)
{
	const struct ss_experiment *e = p->e;
	const struct ss_step *s = &e->step[st];
	struct ss_oplist *ops = p->ops;
	size_t first = ops->n;
	uint64_t off, cnt = planner_elements(p, c, &off);
	struct ss_op *op;
	int k;

	if (cnt == 0)
		return;
	switch (s->kind) {
	case SS_STEP_H2D:
	case SS_STEP_D2H:
		op = planner_push_chunk(p, s->kind == SS_STEP_H2D ? SS_OP_H2D : SS_OP_D2H, c, s->buffer, off, cnt);
		op->hostmem = (uint8_t)experiment_buffer_hostmem(e, s->buffer);
		break;
	case SS_STEP_KERNEL:
		k = experiment_step_kernel(e, s);
		if (k == SS_KERNEL_SPIN)
			op = planner_push_chunk(p, SS_OP_KERNEL, c, -1, 0, 1);
		else
			op = planner_push_chunk(
			    p, SS_OP_KERNEL, c,
			    k == SS_KERNEL_DECRYPT ? (s->buffer >= 0 ? s->buffer : PLANNER_X) : PLANNER_Z, off, cnt);
		op->kernel = (uint8_t)k;
		op->work = experiment_step_work(e, s);
		op->block = (uint16_t)experiment_step_block(e, s);
		op->grid = (uint32_t)experiment_step_grid(e, s, op->count);
		break;
	case SS_STEP_MEMSET:
		planner_push_chunk(p, SS_OP_MEMSET, c, s->buffer, off, cnt)->value = s->value;
		break;
	case SS_STEP_EVENT:
		planner_push_chunk(p, SS_OP_EVENT_RECORD, c, -1, 0, 0)->event = ops->nevents++;
		break;
	case SS_STEP_HOST:
		/* the host waits for the chunk's stream, then works on the chunk's elements of the host array */
		planner_push_chunk(p, SS_OP_STREAM_SYNC, c, -1, 0, 0)->chunk = -1;
		planner_push_chunk(p, SS_OP_HOST, c, s->buffer, off, cnt);
		break;
	default:
		break;
	}
	for (size_t i = first; i < ops->n; i++)
		ops->op[i].step = (int16_t)st;
}

/* planner_program_unit pushes unit u of e's step program in its order: depth, chunk u's steps; breadth, step u of
 * every chunk; interleave, round u (each interleave item for chunk u - its lag, where that chunk exists). */
static void planner_program_unit(struct planner_ctx *p, int u)
{
	const struct ss_experiment *e = p->e;
	int n = p->ops->nchunks;

	if (e->order == SS_ORDER_BREADTH) {
		for (int c = 0; c < n; c++)
			planner_step(p, c, u);
	} else if (e->order == SS_ORDER_INTERLEAVE) {
		for (int k = 0; k < e->ninter; k++) {
			int c = u - e->inter[k].lag;

			if (c >= 0 && c < n)
				planner_step(p, c, e->inter[k].step);
		}
	} else {
		for (int st = 0; st < e->nsteps; st++)
			planner_step(p, u, st);
	}
}

/* planner_program pushes e's step program in its order, unit by unit (planner_program_unit), the interfering
 * default-stream op between two units that have work, or the event timer's lap after each unit that has work (the
 * last lap its stop), in every order: so its events fall between the streams' work, as document 003's timer. */
static void planner_program(struct planner_ctx *p)
{
	const struct ss_experiment *e = p->e;
	struct ss_oplist *ops = p->ops;
	bool timer = e->defstream == SS_DS_EVENT_TIMER, any = false;
	int units = ops->nchunks, maxlag = 0;

	for (int k = 0; k < e->ninter; k++)
		maxlag = e->inter[k].lag > maxlag ? e->inter[k].lag : maxlag;
	if (e->order == SS_ORDER_BREADTH)
		units = e->nsteps;
	else if (e->order == SS_ORDER_INTERLEAVE)
		units = ops->nchunks + maxlag;
	for (int u = 0; u < units; u++) {
		size_t before = ops->n, mark = ops->n;

		if (any && !timer) {
			planner_interfere(p);
			mark = ops->n;
		}
		planner_program_unit(p, u);
		if (ops->n == mark)
			ops->n = before; /* a unit without work: take the interfering op back */
		else if (timer)
			planner_interfere(p);
		any = any || ops->n > before;
	}
}

/* planner_deal renumbers the streams of ops, built for e's streams x devices streams on one device (chunk c on
 * stream c mod that), so that consecutive chunks go to consecutive devices: stream s becomes stream s / devices of
 * device s mod devices (device d's streams are d x streams .. (d + 1) x streams - 1). Fewer chunks than streams then
 * still reach every device, as many to each as can be. */
static void planner_deal(const struct ss_experiment *e, struct ss_oplist *ops)
{
	for (size_t i = 0; i < ops->n; i++) {
		int s = ops->op[i].stream;

		if (s >= 0)
			ops->op[i].stream = (int16_t)((s % e->devices) * e->streams + s / e->devices);
	}
}

/* planner_peer_stage rewrites ops (of e, devices > 1, peer) so that each chunk's kernel is followed by a peer copy
 * of its output to the same stream of the next device and a second kernel there, and its D2H is issued there. */
static void planner_peer_stage(const struct ss_experiment *e, struct ss_oplist *ops)
{
	struct ss_op *old = ops->op;
	size_t n = ops->n, cap = 0;
	int total = e->streams * e->devices;

	ops->op = NULL;
	ops->n = 0;
	for (size_t i = 0; i < n; i++) {
		struct ss_op o = old[i];
		int far = o.stream >= 0 ? (o.stream + e->streams) % total : o.stream;

		if (o.kind == SS_OP_D2H && o.chunk >= 0)
			o.stream = (int16_t)far;
		*VEC_PUSH(ops->op, ops->n, cap, 64) = o;
		if (o.kind == SS_OP_KERNEL && o.chunk >= 0 && o.stream >= 0) {
			struct ss_op peer = o, k2 = o;

			peer.kind = SS_OP_PEER;
			peer.buffer = 2; /* z: the kernel's output */
			peer.event = far;
			*VEC_PUSH(ops->op, ops->n, cap, 64) = peer;
			k2.stream = (int16_t)far;
			*VEC_PUSH(ops->op, ops->n, cap, 64) = k2;
		}
	}
	for (size_t i = 0; i < ops->n; i++)
		ops->op[i].id = (uint32_t)i + 1;
	ops->cap = cap;
	free(old);
}

void planner_build(const struct ss_experiment *e, struct ss_oplist *ops)
{
	struct planner_ctx p = {e, ops};
	int inputs, outputs;
	struct ss_op *op;

	if (e->devices > 1) {
		/* one list over every device's streams, chunks dealt round the devices; the peer stage after */
		struct ss_experiment all = *e;

		all.streams = e->streams * e->devices;
		all.devices = 1;
		all.peer = false;
		planner_build(&all, ops);
		planner_deal(e, ops);
		if (e->peer)
			planner_peer_stage(e, ops);
		return;
	}
	memset(ops, 0, sizeof *ops);
	ops->preset = e->preset;
	ops->nchunks = (e->nsteps == 0 && e->kernel == SS_KERNEL_SPIN) || e->chunks <= 0 ? e->streams : e->chunks;
	ops->split = e->split;
	ops->elem_size = e->elem_size;
	experiment_io_arrays(e, &inputs, &outputs);
	ops->nbuffers = inputs == 2 || e->kernel == SS_KERNEL_TASK || e->nsteps > 0 ? 3 : 1;
	if (e->sync == SS_SYNC_STOP_EVENT) {
		/* document 001's start event, on the legacy stream before any work, and its cudaEventQuery(start) */
		op = planner_push(&p, SS_OP_EVENT_RECORD, SS_STREAM_LEGACY);
		op->event = ops->nevents++;
		op = planner_push(&p, SS_OP_EVENT_QUERY, SS_STREAM_HOST);
		op->event = ops->nevents - 1;
	}
	if (e->defstream == SS_DS_EVENT_TIMER)
		planner_interfere(&p); /* the timer's start */
	if (e->nsteps > 0) {
		planner_program(&p);
	} else if (e->order == SS_ORDER_DEPTH) {
		bool any = false;

		for (int c = 0; c < ops->nchunks; c++) {
			size_t before = ops->n;

			/* the interfering op goes between two chunks' work, never before the first or after the last;
			 * the event timer's lap too (document 003's timer in the middle of the code), its start and
			 * stop around them */
			if (any && planner_chunk_has_work(&p, c))
				planner_interfere(&p);
			if (e->kernel == SS_KERNEL_TASK) {
				planner_task(&p, c);
			} else {
				planner_inputs(&p, c);
				planner_kernels(&p, c, -1);
				planner_outputs(&p, c);
			}
			any = any || ops->n > before;
		}
		if (e->defstream == SS_DS_EVENT_TIMER)
			planner_interfere(&p); /* the timer's stop */
	} else {
		/* phases (planner_phase); the interfering op goes between two non-empty phases */
		bool any = false;

		for (int ph = 0; ph < planner_phases(e); ph++) {
			size_t before = ops->n, mark = ops->n;

			if (any && e->defstream != SS_DS_EVENT_TIMER) {
				planner_interfere(&p);
				mark = ops->n;
			}
			planner_phase(&p, ph);
			if (ops->n == mark)
				ops->n = before; /* an empty phase: take the interfering op back */
			else if (e->defstream == SS_DS_EVENT_TIMER)
				planner_interfere(&p); /* the timer's lap after each phase */
			any = any || ops->n > before;
		}
	}
	planner_sync(&p);
	if (e->kernel == SS_KERNEL_TASK && e->nsteps == 0)
		planner_task_free(&p);
	for (size_t i = 0; i < ops->n; i++)
		ops->op[i].id = (uint32_t)(i + 1); /* positions, after the best order's moves */
}

bool planner_document_note(const struct ss_experiment *e, char *buf, size_t len)
{
	uint64_t n = (uint64_t)e->streams, off, first, last;

	buf[0] = '\0';
	if (e->nsteps > 0 || e->devices > 1 || (e->chunks > 0 && e->chunks != e->streams))
		return false;
	if (e->preset == SS_PRESET_KERNEL_TRANSFER && e->kernel == SS_KERNEL_ADD && e->elements % n != 0) {
		/* document 001's int N1 = N / num: stream i's N1 elements from i * N1, the remainder left out; its own
		 * counts (powers of two up to 128) divide its 2^22, where the two agree */
		planner_chunk(e->elements, e->streams, e->split, 0, &off, &first);
		planner_chunk(e->elements, e->streams, e->split, e->streams - 1, &off, &last);
		snprintf(buf, len,
		         "document 001 gives each of %d streams N / %d = %llu elements and leaves the last %llu "
		         "unprocessed; here the %d chunks (--split %s: %llu, the last %llu) cover all %llu",
		         e->streams, e->streams, (unsigned long long)(e->elements / n),
		         (unsigned long long)(e->elements % n), e->streams, experiment_split_name(e->split),
		         (unsigned long long)first, (unsigned long long)last, (unsigned long long)e->elements);
		return true;
	}
	if (e->preset == SS_PRESET_MANAGED_THREADS && e->kernel == SS_KERNEL_TASK) {
		/* run_task's set-up is not listed, as no preset's is; its cudaStreamDestroy, between two listed calls,
		 * is not issued */
		snprintf(
		    buf, len,
		    "document 004's run_task also makes its stream (cudaStreamCreate) and data (cudaMallocManaged, "
		    "cudaMemAttachHost) before these calls, here before the run (the data afresh each run), and "
		    "calls cudaStreamDestroy between its last cudaStreamSynchronize and cudaFree, not issued here: "
		    "the streams are made once");
		return true;
	}
	return false;
}

void planner_free(struct ss_oplist *ops)
{
	free(ops->op);
	memset(ops, 0, sizeof *ops);
}

/* Whether ops of kind move a buffer's elements (copies, prefetches, attaches) or work on them (host_process). */
static bool planner_moves_data(int kind)
{
	return kind == SS_OP_H2D || kind == SS_OP_D2H || kind == SS_OP_PREFETCH_H2D || kind == SS_OP_PREFETCH_D2H ||
	       kind == SS_OP_ATTACH || kind == SS_OP_HOST;
}

uint64_t planner_op_bytes(const struct ss_oplist *ops, const struct ss_op *op)
{
	return planner_moves_data(op->kind) || op->kind == SS_OP_MEMSET || op->kind == SS_OP_PEER
	           ? op->count * ops->elem_size
	           : 0;
}

bool planner_op_pageable(const struct ss_experiment *e, const struct ss_op *op)
{
	if (op->kind != SS_OP_H2D && op->kind != SS_OP_D2H)
		return false;
	return e->nsteps > 0 ? op->hostmem == SS_MEM_PAGEABLE : e->hostmem == SS_MEM_PAGEABLE;
}

uint32_t planner_op_work(const struct ss_experiment *e, const struct ss_op *op)
{
	return op->work > 0 ? op->work : e->work;
}

size_t planner_count_kind(const struct ss_oplist *ops, int kind)
{
	size_t n = 0;

	for (size_t i = 0; i < ops->n; i++)
		n += ops->op[i].kind == kind;
	return n;
}

/* planner_work sums the kernels' counts of ops (kernels true) or the copies' bytes. */
static double planner_work(const struct ss_oplist *ops, bool kernels)
{
	double w = 0;

	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_op *op = &ops->op[i];

		if (kernels && op->kind == SS_OP_KERNEL)
			w += (double)op->count;
		else if (!kernels && (op->kind == SS_OP_H2D || op->kind == SS_OP_D2H))
			w += (double)planner_op_bytes(ops, op);
	}
	return w;
}

double planner_work_ratio(const struct ss_oplist *ops, const struct ss_experiment *ref)
{
	struct ss_oplist b;
	double wa, wb;

	planner_build(ref, &b);
	wa = planner_work(ops, true);
	wb = planner_work(&b, true);
	if (wa == 0 || wb == 0) {
		wa = planner_work(ops, false);
		wb = planner_work(&b, false);
	}
	planner_free(&b);
	return wa > 0 && wb > 0 ? wa / wb : 1.0;
}

void planner_expected_records(const struct ss_oplist *ops, bool prefetches, size_t counts[SS_KIND_COUNT])
{
	memset(counts, 0, SS_KIND_COUNT * sizeof counts[0]);
	for (size_t i = 0; i < ops->n; i++) {
		switch (ops->op[i].kind) {
		case SS_OP_PREFETCH_H2D:
			counts[SS_KIND_H2D] += prefetches;
			break;
		case SS_OP_PREFETCH_D2H:
			counts[SS_KIND_D2H] += prefetches;
			break;
		case SS_OP_H2D:
			counts[SS_KIND_H2D]++;
			break;
		case SS_OP_D2H:
			counts[SS_KIND_D2H]++;
			break;
		case SS_OP_KERNEL:
			counts[SS_KIND_KERNEL]++;
			break;
		case SS_OP_MEMSET:
			counts[SS_KIND_MEMSET]++;
			break;
		case SS_OP_PEER:
			counts[SS_KIND_D2D]++;
			break;
		default:
			break;
		}
	}
}

/* planner_kernel_name: the name an op line gives kernel op's kernel, as its source document writes the call where
 * the list is of that document's preset and kernel (document 000's decrypt_gpu, document 003's vectorAdd, document
 * 004's transform and convert; document 001's add is the option's own name), else the --kernel option's name. Only
 * the op lines say these: the GPU runs the CUDA backend's ss_* kernels, the names its traces, the model's timelines
 * and stats give them. */
static const char *planner_kernel_name(const struct ss_oplist *ops, const struct ss_op *op)
{
	if (op->kernel == SS_KERNEL_TASK)
		return op->buffer == 1 ? "transform" : "convert";
	if (op->step < 0 && op->kernel == SS_KERNEL_DECRYPT && ops->preset == SS_PRESET_DECRYPT)
		return "decrypt_gpu";
	if (op->step < 0 && op->kernel == SS_KERNEL_ADD && ops->preset == SS_PRESET_VECTOR_ADD)
		return "vectorAdd";
	return experiment_kernel_name(op->kernel);
}

/* planner_size writes an op's bytes as ops prints them: MiB with two decimals, or bytes below 0.01 MiB (which
 * would read 0.00). */
static const char *planner_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes * 100 >= (1u << 20))
		snprintf(buf, len, "%.2f MiB", (double)bytes / (1 << 20));
	else
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	return buf;
}

void planner_op_describe(const struct ss_oplist *ops, const struct ss_op *op, char *buf, size_t len)
{
	static const char bufname[3] = {'x', 'y', 'z'};
	char st[16], sz[32];
	uint64_t bytes = planner_op_bytes(ops, op);

	timeline_stream_label(op->stream, st, sizeof st); /* an op's stream: s<n>, legacy, per-thread or host */
	if (planner_moves_data(op->kind)) {
		snprintf(buf, len, "#%u t%d %-10s %s %c[%llu+%llu] %s", op->id, op->thread, st,
		         planner_op_kind_name(op->kind), op->buffer >= 0 && op->buffer < 3 ? bufname[op->buffer] : '?',
		         (unsigned long long)op->offset, (unsigned long long)op->count,
		         planner_size(bytes, sz, sizeof sz));
		return;
	}
	switch (op->kind) {
	case SS_OP_KERNEL:
		if (op->stream < 0)
			snprintf(buf, len, "#%u t%d %-10s kernel launch touch<<<1, 1>>> (interfering)", op->id,
			         op->thread, st);
		else
			snprintf(buf, len, "#%u t%d %-10s kernel launch %s<<<%u, %u>>> [%llu+%llu]", op->id, op->thread,
			         st, planner_kernel_name(ops, op), op->grid, (unsigned)op->block,
			         (unsigned long long)op->offset, (unsigned long long)op->count);
		if (op->step >= 0 && strlen(buf) + 1 < len) /* a step's kernel: its work and output, its own */
			snprintf(buf + strlen(buf), len - strlen(buf), " work %u%s%c", op->work,
			         op->buffer >= 0 ? " -> " : "",
			         op->buffer >= 0 && op->buffer < 3 ? bufname[op->buffer] : ' ');
		break;
	case SS_OP_MEMSET:
		snprintf(buf, len, "#%u t%d %-10s cudaMemsetAsync %c[%llu+%llu] = %u %s", op->id, op->thread, st,
		         op->buffer >= 0 && op->buffer < 3 ? bufname[op->buffer] : '?', (unsigned long long)op->offset,
		         (unsigned long long)op->count, (unsigned)op->value, planner_size(bytes, sz, sizeof sz));
		break;
	case SS_OP_PEER: {
		char to[16];

		timeline_stream_label(op->event, to, sizeof to);
		snprintf(buf, len, "#%u t%d %-10s cudaMemcpyPeerAsync z[%llu+%llu] to %s's device %s", op->id,
		         op->thread, st, (unsigned long long)op->offset, (unsigned long long)op->count, to,
		         planner_size(bytes, sz, sizeof sz));
		break;
	}
	case SS_OP_FREE:
		snprintf(buf, len, "#%u t%d %-10s cudaFree y[%llu+%llu] %s (the task's data)", op->id, op->thread, st,
		         (unsigned long long)op->offset, (unsigned long long)op->count,
		         planner_size(op->count * ops->elem_size, sz, sizeof sz));
		break;
	case SS_OP_EVENT_RECORD:
	case SS_OP_EVENT_SYNC:
	case SS_OP_EVENT_QUERY:
		snprintf(buf, len, "#%u t%d %-10s %s(ev%d)", op->id, op->thread, st, planner_op_kind_name(op->kind),
		         op->event);
		break;
	default:
		snprintf(buf, len, "#%u t%d %-10s %s", op->id, op->thread, st, planner_op_kind_name(op->kind));
		break;
	}
}

bool planner_gpu_op(int kind)
{
	return (kind >= 0 && kind <= SS_OP_EVENT_RECORD) || kind == SS_OP_MEMSET || kind == SS_OP_PEER;
}

void planner_start_events(const struct ss_oplist *ops, int nthreads, int *start_at)
{
	bool *seen = xcalloc((size_t)(nthreads > 0 ? nthreads : 1), sizeof *seen);

	for (size_t i = 0; i < ops->n; i++) {
		int t = ops->op[i].thread > 0 && ops->op[i].thread < nthreads ? ops->op[i].thread : 0;

		start_at[i] = -1;
		if (planner_gpu_op(ops->op[i].kind) && !seen[t]) {
			seen[t] = true;
			start_at[i] = t;
		}
	}
	free(seen);
}

bool planner_start_before(const struct ss_experiment *e, const struct ss_op *op)
{
	switch (op->kind) {
	case SS_OP_PREFETCH_H2D:
	case SS_OP_PREFETCH_D2H:
	case SS_OP_ATTACH:
		return true;
	case SS_OP_H2D:
	case SS_OP_D2H:
		return planner_op_pageable(e, op);
	default:
		return false;
	}
}

uint64_t planner_op_line_offset(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_op *op)
{
	uint64_t off = op->offset;

	if (e->hostmem == SS_MEM_MANAGED_ATTACH && e->nsteps == 0 && op->chunk >= 0) {
		uint64_t coff, ccount;

		planner_chunk(e->elements, ops->nchunks, ops->split, op->chunk, &coff, &ccount);
		off -= coff;
	}
	return off * ops->elem_size % SS_LINE_BYTES;
}

void planner_line_census(const struct ss_experiment *e, const struct ss_oplist *ops, struct ss_line_census *c)
{
	memset(c, 0, sizeof *c);
	for (size_t k = 0; k < ops->n; k++) {
		const struct ss_op *op = &ops->op[k];
		unsigned b;

		if (op->kind != SS_OP_KERNEL || op->stream < 0 || op->count == 0)
			continue;
		if (c->kernels++ == 0)
			c->first_count = op->count;
		if ((b = (unsigned)planner_op_line_offset(e, ops, op)) == 0)
			continue;
		if (c->off++ == 0 || b < c->lo)
			c->lo = b;
		if (b > c->hi)
			c->hi = b;
	}
}

bool planner_chunks_aligned(uint64_t elements, int chunks, enum ss_split split, uint32_t elem_size)
{
	uint64_t off, count;

	if (chunks <= 1)
		return true;
	/* chunk c starts at c times chunk 1's offset: all on a line when chunk 1 is (or has nothing, nor any after) */
	planner_chunk(elements, chunks, split, 1, &off, &count);
	return count == 0 || off * elem_size % SS_LINE_BYTES == 0;
}
