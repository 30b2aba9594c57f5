/* model.c: the model backend, a deterministic discrete-event model of the GPU's engines.
 *
 * Host threads issue the op list in order, each call costing its profile time (untraced costs: what the program
 * pays without CUPTI), more when it puts work on another stream than the thread's previous call, and for a launch
 * behind a copy or a prefetch to the device of its stream, which the driver must make wait for that work. Device
 * work goes into hardware queues: experiment stream i -> connection i % connections, with a queue per connection for
 * kernels and other stream work and (gpu.copy_queues, as on the H200) one per connection for each copy direction; a
 * queue hands its head item to an engine only once the item's dependencies are met (the previous item of its stream,
 * the legacy default stream's implicit barriers), so a waiting head holds up everything behind it in that queue. A
 * dependency across engines or queues is noticed gpu.dep_* after it ends, later the more queues are in use (and a
 * prefetch, which the driver starts, managed.prefetch_wait_ns later still). Copies go to one engine per direction,
 * which takes the oldest ready copy but stays with the hardware queue of its last one while that queue has a
 * copy ready, idling copy.switch_ns when the next copy comes from another hardware queue; both
 * directions at once share the profile's combined bandwidth. A pageable copy holds its host thread: an H2D's call
 * stages its data a piece at a time, each piece's DMA following, and returns once the last is staged; a D2H's DMA
 * goes a staging buffer at a time as the host copies the one before out, and its call returns once the last is
 * copied out. Kernels start in dispatch order while fewer than
 * max_kernels run and the device has room; each takes a share of the device up to its width (launch size /
 * saturation), earlier kernels first, and progresses at that share; a launch whose data start off a 128-byte line
 * takes its kernel's misalign times as long over its repeats. Managed memory: prefetches to the device and
 * kernels faulting in memory nobody prefetched share one migration (each in progress at 1/n of its own speed, a
 * prefetch's fixed cost included), a faulting kernel computing what has arrived meanwhile; prefetches to the host go
 * one at a time. A host_process is its thread's own work, slower the more threads are inside one at once (they
 * share the host's memory and cores). Times are doubles in ns, rounded once when a record is written. */
#include "model/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/xalloc.h"
#include "model/multi.h"

#define MODEL_EPS 1e-6 /* ns: remaining times below this are done */
#define MODEL_MAX_STEPS 50000000ull

/* The engines an item can run on: the copy engines and the driver's migration of managed memory to the host (one
 * item at a time, first come first served: MODEL_NSERIAL of them), the SMs, and the driver's migration of managed
 * memory to the device (shared by the prefetches and faulting kernels in progress). */
enum model_engine {
	MODEL_H2D = 0,
	MODEL_D2H = 1,
	MODEL_TO_HOST = 2,
	MODEL_COMPUTE = 3,
	MODEL_TO_DEVICE = 4,
	MODEL_NONE = 5
};
#define MODEL_NSERIAL 3

/* Life of a device item. */
enum model_state { MODEL_QUEUED = 0, MODEL_DISPATCHED, MODEL_RUNNING, MODEL_DONE };

/* A growable FIFO of item indices. */
struct model_fifo {
	int *v;
	size_t head, n, cap;
};

/* One piece of device work: a copy, prefetch, kernel, event or attach. */
struct model_item {
	size_t op;          /* index into the op list */
	int slot;           /* model stream slot */
	int engine;         /* enum model_engine */
	int prev;           /* previous item of the same slot, -1 */
	int barrier;        /* legacy item a blocking stream's item waits for, -1 */
	size_t dep0, ndeps; /* legacy items: tails of the blocking streams at issue, in model.deps */
	int rec_kind;       /* ss_kind of its record, -1 for none */
	uint8_t flags;
	bool prefetch; /* a cudaMemPrefetchAsync (its record is named so) */
	uint64_t bytes;
	int queue;      /* hardware queue it waits in */
	double visible; /* the GPU sees it (host call returned + launch latency) */
	double fixed;   /* fixed phase left (copy latency, kernel minimum), ns */
	double fault;   /* kernels: on-demand migration left, ns alone (running faults share one migration path) */
	double work;    /* copies: ns at full rate; kernels: device-ns */
	double width;   /* kernels: largest share of the device it can use */
	double alloc;   /* kernels: share it has now */
	int state;      /* enum model_state */
	double start, end;
};

/* A stream as the model sees it: experiment streams, the legacy stream, one per-thread stream per host thread. */
struct model_slot {
	int queue;
	bool blocking; /* takes part in the legacy stream's implicit synchronisation */
	bool legacy;
	int tail;          /* last item issued, -1 */
	int32_t stream;    /* the record's stream index */
	uint32_t raw;      /* the model's own stream id (legacy 0, stream i -> i + 1, per-thread t -> 1000 + t) */
	bool host_touched; /* managed-attach: a host_process touched the stream's data since its last launch */
};

/* A host thread issuing its ops in order; blocked while a call waits for device items or while it works through
 * a host_process. */
struct model_host {
	size_t *ops;
	size_t nops, next;
	double t;      /* when it issues its next call */
	int last_slot; /* slot of its previous call that put work on a stream, -1 */
	bool blocked;
	int *wait; /* items the blocked call waits for */
	size_t nwait, waitcap;
	double call_start, call_min; /* blocked call: start, earliest return */
	double call_tail;            /* blocked call: host work after its items are done (pageable D2H copy-out) */
	size_t call_op;
	bool call_sync;    /* the call is a synchronisation (writes a SYNC record) */
	bool processing;   /* in a host_process (blocked on no item): proc_left ns of it left at one thread's speed */
	double proc_left;  /* ns of host_process work left, as one thread alone does it */
	double proc_start; /* when the host_process began */
	uint64_t proc_bytes;
	size_t proc_op;
};

/* A finished record and its name. */
struct model_rec {
	struct ss_record r;
	char name[48];
};

/* The whole model state of one run. */
struct model {
	const struct ss_experiment *e;
	const struct ss_oplist *ops;
	const struct ss_profile *p;
	struct model_item *it;
	size_t nit, itcap;
	size_t ndone; /* items in state MODEL_DONE (model_complete counts them) */
	int *deps;
	size_t ndeps, depcap;
	struct model_slot *slot;
	int nslots, legacy_slot;
	struct model_fifo *queue;    /* compute queues 0..connections-1, then each copy direction's (gpu.copy_queues) */
	int nqueues;                 /* all of them */
	int nconn;                   /* connections: queues per kind of work */
	double dep_kernel, dep_copy; /* dependency latencies with this many queues in use (gpu.dep_*) */
	double queues_f;             /* 1 - 1/q, q the hardware queues in use (the *_queues_ns costs scale with it) */
	struct model_fifo copyq[MODEL_NSERIAL]; /* dispatched items per one-at-a-time engine */
	int copy_cur[MODEL_NSERIAL];            /* item running on each, -1 */
	double copy_free[MODEL_NSERIAL]; /* when each may start its next item (copies: copy.gap_ns after the last) */
	int copy_lastq[MODEL_NSERIAL];   /* hardware queue of the item each ran last, -1 */
	double lock_free;                /* when the driver lock frees (calls of several host threads take turns) */
	struct model_fifo kpend;         /* kernels dispatched, not started */
	int *krun;                       /* kernels running, in start order */
	size_t nkrun, krun_cap;
	int *urun; /* migrations (prefetches) running on the migration service */
	size_t nurun, urun_cap;
	int *runbuf; /* scratch: every running item (model_running) */
	double *ratebuf;
	size_t runcap, ratecap;
	struct model_host *host;
	int nhosts;
	int *event_item; /* latest record of each event, -1 */
	struct model_rec *rec;
	size_t nrec, reccap;
	double now;
	int inputs, outputs;
	double fault_elem; /* bytes per element a kernel migrates on demand (managed memory nobody moved) */
	double attached;   /* managed-attach: arrays a launch migrates */
	int timer_slot;    /* the idle non-blocking stream the start events go to */
	int *start_after;  /* per op: thread whose hidden start event follows it, -1 */
	int *stop_after;   /* per op: 1 when a hidden stop event follows it */
	bool stop_legacy;  /* the single stop event goes on the legacy stream */
	int *timing;       /* hidden timing items: start events (kind 0) and stop events (kind 1) */
	char *timing_kind;
	size_t ntiming, timing_cap, timing_kind_cap;
};

static void fifo_push(struct model_fifo *f, int v)
{
	*VEC_PUSH(f->v, f->n, f->cap, 16) = v;
}

static bool fifo_empty(const struct model_fifo *f)
{
	return f->head == f->n;
}

static int fifo_peek(const struct model_fifo *f)
{
	return f->v[f->head];
}

static int fifo_pop(struct model_fifo *f)
{
	return f->v[f->head++];
}

static uint64_t model_ns(double t)
{
	return t <= 0 ? 0 : (uint64_t)llround(t);
}

/* model_emit appends a finished record. */
static void model_emit(struct model *m, int kind, double start, double end, const struct ss_op *op, int32_t stream,
                       uint32_t raw, uint32_t thread, uint8_t flags, uint64_t bytes, const char *name)
{
	struct model_rec *mr;

	mr = VEC_PUSH(m->rec, m->nrec, m->reccap, 256);
	memset(mr, 0, sizeof *mr);
	mr->r.start = model_ns(start);
	mr->r.end = model_ns(end);
	if (mr->r.end < mr->r.start)
		mr->r.end = mr->r.start;
	mr->r.bytes = bytes;
	mr->r.correlation = op->id;
	mr->r.stream = stream;
	mr->r.raw_stream = raw;
	mr->r.thread = thread;
	mr->r.kind = (uint8_t)kind;
	mr->r.flags = (uint8_t)(flags | SS_REC_MODELLED);
	snprintf(mr->name, sizeof mr->name, "%s", name);
}

/* model_api_name is the runtime function an op calls. */
static const char *model_api_name(int kind)
{
	static const char *const names[SS_OP_COUNT] = {
	    "cudaMemcpyAsync",       "cudaMemcpyAsync",       "cudaLaunchKernel", "cudaStreamAttachMemAsync",
	    "cudaMemPrefetchAsync",  "cudaMemPrefetchAsync",  "cudaEventRecord",  "cudaEventSynchronize",
	    "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaGetLastError", "host_process",
	    "cudaMemsetAsync",       "cudaMemcpyPeerAsync",   "cudaFree",         "cudaEventQuery",
	};

	return kind >= 0 && kind < SS_OP_COUNT ? names[kind] : "cuda?";
}

/* model_slot_of maps an op's stream to its slot. */
static int model_slot_of(const struct model *m, const struct ss_op *op)
{
	if (op->stream >= 0 && op->stream < m->e->streams)
		return op->stream;
	if (op->stream == SS_STREAM_PER_THREAD)
		return m->legacy_slot + 1 + (op->thread >= 0 ? op->thread : 0);
	return m->legacy_slot;
}

static bool item_done(const struct model *m, int i)
{
	return i < 0 || m->it[i].state == MODEL_DONE;
}

/* model_queue_of: the hardware queue the item of op opi on slot sl goes to. The connections are per kind of work
 * (CUDA_DEVICE_MAX_CONNECTIONS counts compute and copy connections): with gpu.copy_queues a cudaMemcpyAsync waits
 * in its direction's queue, so it holds up only copies behind it, never kernels. Prefetches stay in the compute
 * queue (the driver migrates the pages; the stream only waits there): managed depth-first with 1 queue is twice as
 * slow as with 8 on the H200 (validate.csv, 128 streams), pinned copies are not. */
static int model_queue_of(const struct model *m, const struct model_slot *sl, size_t opi, int engine)
{
	int kind = m->ops->op[opi].kind;

	if (m->p->copy_queues && (engine == MODEL_H2D || engine == MODEL_D2H) &&
	    (kind == SS_OP_H2D || kind == SS_OP_D2H))
		return (1 + engine) * m->nconn + sl->queue;
	return sl->queue;
}

/* model_new_item creates the device item of op on slot s, wires its dependencies and queues it. */
static int model_new_item(struct model *m, size_t opi, int s, int engine, double visible)
{
	struct model_slot *sl = &m->slot[s];
	struct model_item *it;
	int idx;

	it = VEC_PUSH(m->it, m->nit, m->itcap, 256);
	idx = (int)(m->nit - 1);
	memset(it, 0, sizeof *it);
	it->op = opi;
	it->slot = s;
	it->engine = engine;
	it->prev = sl->tail;
	it->barrier = -1;
	it->rec_kind = -1;
	it->visible = visible;
	it->dep0 = m->ndeps;
	if (sl->legacy) {
		/* The legacy stream waits for all work issued so far in blocking streams. */
		for (int j = 0; j < m->nslots; j++) {
			if (!m->slot[j].blocking || m->slot[j].tail < 0 || item_done(m, m->slot[j].tail))
				continue;
			*VEC_PUSH(m->deps, m->ndeps, m->depcap, 256) = m->slot[j].tail;
		}
		it->ndeps = m->ndeps - it->dep0;
	} else if (sl->blocking) {
		/* ... and blocking streams wait for the legacy stream's work issued before. */
		it->barrier = m->slot[m->legacy_slot].tail;
	}
	sl->tail = idx;
	it->queue = model_queue_of(m, sl, opi, engine);
	fifo_push(&m->queue[it->queue], idx);
	return idx;
}

/* model_copy_params sets an item's fixed and work phases for bytes over a copy path. */
static void model_copy_params(struct model_item *it, const struct ss_copy_profile *c, uint64_t bytes)
{
	it->bytes = bytes;
	it->fixed = c->latency_ns;
	it->work = (double)bytes / c->bw_gbs;
}

/* model_misalign is k's misalign factor when kernel op's data do not start on a line as the CUDA backend lays them
 * out (planner_op_line_offset), else 1. */
static double model_misalign(const struct model *m, const struct ss_kernel_profile *k, const struct ss_op *op)
{
	if (k->misalign <= 1)
		return 1.0;
	return planner_op_line_offset(m->e, m->ops, op) != 0 ? k->misalign : 1.0;
}

/* model_kernel_params sets a kernel item's phases from the profile (see struct ss_kernel_profile). */
static void model_kernel_params(const struct model *m, struct model_item *it, const struct ss_op *op)
{
	const struct ss_profile *p = m->p;
	const struct ss_experiment *e = m->e;
	int kernel = op->kernel < SS_KERNEL_COUNT ? op->kernel : SS_KERNEL_ADD;

	it->fixed = p->kernel_min_ns;
	if (op->stream < 0) {
		/* The interfering one-thread touch kernel. */
		it->width = fmin(1.0, 1.0 / p->kernel[SS_KERNEL_SPIN].saturation);
		it->work = 0;
	} else if (kernel == SS_KERNEL_SPIN) {
		const struct ss_kernel_profile *k = &p->kernel[SS_KERNEL_SPIN];
		double units = (double)planner_op_work(e, op) * (double)(op->count ? op->count : 1);

		it->width = fmin(1.0, 1.0 / k->saturation);
		it->work = units * k->ns_per_unit * it->width;
	} else {
		const struct ss_kernel_profile *k = &p->kernel[kernel];
		double n = (double)op->count, par = fmin(n, (double)op->grid * (double)op->block);
		double share = k->share > 0 ? k->share : 1.0;

		/* as wide as its elements, or its threads where fewer (a grid-stride launch), of the share one launch
		 * keeps busy; the work scaled alike, so that a launch alone takes its calibrated time */
		it->width = fmin(1.0, (par > 0 ? par : 1.0) / k->saturation) * share;
		it->work =
		    n * ((double)planner_op_work(e, op) * k->ns_per_unit * model_misalign(m, k, op) + k->ns_per_elem) *
		    share;
		it->fault = n * m->fault_elem / p->fault_gbs;
		if (kernel == SS_KERNEL_TASK) {
			/* one pass per launch; on the H200 transform reads the data host_process left on the host no
			 * slower than convert reads it on the device (host.process_ns carries the migration) */
			it->work = n * (k->ns_per_unit + k->ns_per_elem) * share;
			it->fault = 0;
		}
	}
}

/* model_block makes host h wait for the items in wait[] (those not done yet); returns false when none is left
 * to wait for. The call returns at tmin at the earliest; it holds the driver lock until then (the other threads'
 * calls wait) unless it is a free (cudaFree of a finished task: the H200's frees held no other thread's launch up,
 * tests/data/h200/documents-bench-mt/free). */
static bool model_block(struct model *m, int h, const int *wait, size_t n, double t0, double tmin, size_t opi,
                        bool sync)
{
	struct model_host *ht = &m->host[h];

	ht->nwait = 0;
	for (size_t i = 0; i < n; i++) {
		if (item_done(m, wait[i]))
			continue;
		*VEC_PUSH(ht->wait, ht->nwait, ht->waitcap, 16) = wait[i];
	}
	ht->call_start = t0;
	ht->call_min = tmin;
	ht->call_tail = 0;
	ht->call_op = opi;
	ht->call_sync = sync;
	if (m->ops->op[opi].kind != SS_OP_FREE)
		m->lock_free = tmin; /* the driver is free while the call waits */
	ht->blocked = ht->nwait > 0;
	return ht->blocked;
}

/* model_timing issues the hidden timing events the CUDA backend records around op opi (cuda_exec.c): a start event
 * on an idle non-blocking stream at each thread's first GPU op, before its call or after it as planner_start_before
 * says, and a stop event after the last GPU op (on the legacy stream, or per stream with several threads or
 * non-blocking streams). before: whether the call is still to come. They cost host time and leave no record. */
static void model_timing(struct model *m, int h, size_t opi, bool before)
{
	struct model_host *ht = &m->host[h];
	const struct ss_op *op = &m->ops->op[opi];

	for (int kind = 0; kind < 2; kind++) {
		int s, idx;

		if (kind == 0 ? m->start_after[opi] < 0 || planner_start_before(m->e, op) != before
		              : !m->stop_after[opi] || before)
			continue;
		s = kind == 0 ? m->timer_slot : m->stop_legacy ? m->legacy_slot : model_slot_of(m, op);
		ht->t += m->p->api_event_ns;
		m->lock_free = ht->t;
		idx = model_new_item(m, opi, s, MODEL_NONE, ht->t + m->p->launch_ns);
		VEC_RESERVE(m->timing_kind, m->ntiming, m->timing_kind_cap, 1, 16);
		m->timing_kind[m->ntiming] = (char)kind;
		*VEC_PUSH(m->timing, m->ntiming, m->timing_cap, 16) = idx;
	}
}

/* model_host_return ends host h's blocking call at end and writes its API (and SYNC) records. */
static void model_host_return(struct model *m, int h, double end)
{
	struct model_host *ht = &m->host[h];
	const struct ss_op *op = &m->ops->op[ht->call_op];
	char name[48];

	model_emit(m, SS_KIND_API, ht->call_start, end, op, SS_STREAM_HOST, 0, (uint32_t)h, 0, 0,
	           model_api_name(op->kind));
	if (ht->call_sync) {
		if (op->kind == SS_OP_STREAM_SYNC) {
			if (op->stream >= 0)
				snprintf(name, sizeof name, "cudaStreamSynchronize (s%d)", op->stream);
			else
				snprintf(name, sizeof name, "cudaStreamSynchronize (%s)",
				         op->stream == SS_STREAM_LEGACY ? "legacy" : "per-thread");
		} else {
			snprintf(name, sizeof name, "%s", model_api_name(op->kind));
		}
		/* raw: the waited-on stream's id, as CUPTI's synchronisation records carry it */
		model_emit(m, SS_KIND_SYNC, ht->call_start, end, op, SS_STREAM_HOST,
		           op->kind == SS_OP_DEVICE_SYNC   ? UINT32_MAX
		           : op->kind == SS_OP_STREAM_SYNC ? m->slot[model_slot_of(m, op)].raw
		                                           : 0,
		           (uint32_t)h, 0, 0, name);
	}
	ht->blocked = false;
	ht->t = end;
	if (!ht->call_sync)
		model_timing(m, h, ht->call_op, false);
	ht->t += m->p->host_gap_ns;
}

/* model_issue performs host h's next call at its time ht->t. */
static void model_issue(struct model *m, int h)
{
	const struct ss_profile *p = m->p;
	struct model_host *ht = &m->host[h];
	size_t opi = ht->ops[ht->next++];
	const struct ss_op *op = &m->ops->op[opi];
	double call0, t0, cost = 0; /* call0: the call starts; t0: its fixed cost starts */
	int s = model_slot_of(m, op), idx, one, *wait = &one;
	size_t nwait = 0;
	bool pageable = m->e->nsteps > 0 ? planner_op_pageable(m->e, op) : m->e->hostmem == SS_MEM_PAGEABLE,
	     managed = m->e->hostmem >= SS_MEM_MANAGED_ATTACH;
	struct model_item *it;

	model_timing(m, h, opi, true);
	call0 = t0 = ht->t;
	/* Call costs that depend on what came before (the smoke and bench timelines): a call on another stream than
	 * the thread's previous one, and a launch behind a copy of its stream, which the driver must make wait for the
	 * copy engine. */
	if (planner_gpu_op(op->kind)) {
		int tail = m->slot[s].tail;

		if (ht->last_slot >= 0 && ht->last_slot != s)
			t0 += p->api_switch_ns + m->queues_f * p->api_switch_queues_ns +
			      (op->kind == SS_OP_PREFETCH_H2D ? p->api_prefetch_switch_ns : 0);
		if (op->kind == SS_OP_KERNEL && tail >= 0 && m->it[tail].engine <= MODEL_D2H &&
		    m->ops->op[m->it[tail].op].kind <= SS_OP_D2H)
			t0 += p->api_launch_wait_ns;
		else if (op->kind == SS_OP_KERNEL && tail >= 0 && m->it[tail].engine == MODEL_TO_DEVICE)
			t0 += p->api_launch_prefetch_wait_ns;
		ht->last_slot = s;
	}
	switch (op->kind) {
	case SS_OP_H2D:
	case SS_OP_D2H: {
		bool h2d = op->kind == SS_OP_H2D;
		uint64_t bytes = planner_op_bytes(m->ops, op);
		/* Pageable H2D: the host stages the data into pinned buffers a piece at a time (the whole copy when
		 * pageable.h2d.stage_bytes is 0), each piece's DMA once it is staged: the DMA starts after the first
		 * piece, goes at the staging's pace, and ends the last piece's DMA after the call returns. */
		double piece = pageable && h2d && p->pageable_h2d_stage_bytes > 0
		                   ? fmin((double)bytes, p->pageable_h2d_stage_bytes)
		                   : (double)bytes;
		double lead = pageable && h2d ? piece / p->pageable_h2d_stage_gbs : 0, stage = INFINITY;

		cost = p->api_copy_ns + m->queues_f * p->api_copy_queues_ns;
		idx = model_new_item(m, opi, s, h2d ? MODEL_H2D : MODEL_D2H, t0 + cost + p->launch_ns + lead);
		it = &m->it[idx];
		model_copy_params(
		    it, pageable ? (h2d ? &p->pageable_h2d : &p->pageable_d2h) : (h2d ? &p->h2d : &p->d2h), bytes);
		if (pageable && h2d) {
			it->work =
			    fmax((double)bytes / p->pageable_h2d.bw_gbs,
			         ((double)bytes - piece) / p->pageable_h2d_stage_gbs + piece / p->pageable_h2d.bw_gbs);
			cost += (double)bytes / p->pageable_h2d_stage_gbs; /* the call returns once all is staged */
		}
		if (pageable && !h2d && p->pageable_d2h_stage_bytes > 0 &&
		    (double)bytes > p->pageable_d2h_stage_bytes) {
			/* staged a buffer at a time: after the first buffer's DMA the host's copy-out paces the rest,
			 * and only the last buffer's copy-out is left when the DMA ends */
			stage = p->pageable_d2h_stage_bytes;
			it->work = stage / p->pageable_d2h.bw_gbs + ((double)bytes - stage) / p->pageable_d2h_stage_gbs;
		}
		it->rec_kind = h2d ? SS_KIND_H2D : SS_KIND_D2H;
		it->flags = SS_REC_ASYNC | (pageable ? SS_REC_PAGEABLE : managed ? SS_REC_MANAGED : SS_REC_PINNED);
		if (pageable && !h2d && model_block(m, h, &idx, 1, call0, t0 + cost, opi, false)) {
			/* synchronous for the host: it returns when the copy is done and copied out of staging */
			m->host[h].call_tail = fmin((double)bytes, stage) / p->pageable_d2h_stage_gbs;
			return;
		}
		break;
	}
	case SS_OP_KERNEL:
		cost = p->api_launch_ns;
		if (m->e->hostmem == SS_MEM_MANAGED_ATTACH && op->stream >= 0) {
			/* The launch migrates the chunk's attached managed memory before it returns: the kernel's
			 * arrays, or the task kernel's own data when a host_process touched it since the stream's last
			 * launch (document 004's trace: the launch after host_process takes ~0.47 ms for 16 MiB, the
			 * one after it ~10 us) */
			double arrays = m->attached > 0 ? m->attached : m->slot[s].host_touched ? 1 : 0;

			if (arrays > 0)
				cost += p->attach_latency_ns +
				        (double)op->count * m->ops->elem_size * arrays / p->attach_gbs;
			m->slot[s].host_touched = false;
		}
		idx = model_new_item(m, opi, s, MODEL_COMPUTE, t0 + cost + p->launch_ns);
		it = &m->it[idx];
		model_kernel_params(m, it, op);
		it->rec_kind = SS_KIND_KERNEL;
		break;
	case SS_OP_MEMSET:
		/* a step program's cudaMemsetAsync: a device-wide fill of its bytes at memset.gbs, like a kernel */
		cost = p->api_launch_ns;
		idx = model_new_item(m, opi, s, MODEL_COMPUTE, t0 + cost + p->launch_ns);
		it = &m->it[idx];
		it->bytes = planner_op_bytes(m->ops, op);
		it->fixed = p->kernel_min_ns;
		it->width = 1.0;
		it->work = (double)it->bytes / p->memset_gbs;
		it->rec_kind = SS_KIND_MEMSET;
		break;
	case SS_OP_ATTACH:
		cost = p->api_attach_ns;
		model_new_item(m, opi, s, MODEL_NONE, t0 + cost + p->launch_ns);
		break;
	case SS_OP_PREFETCH_H2D:
	case SS_OP_PREFETCH_D2H: {
		/* The driver migrates the pages, not a copy engine of the stream: to the device through the migration
		 * the faulting kernels share (model_rate), to the host one prefetch at a time at its own pace (the
		 * host side builds the pages). */
		bool to_dev = op->kind == SS_OP_PREFETCH_H2D;
		/* to the host, the fixed cost is the one-at-a-time migration's (managed.prefetch_host_latency_ns) */
		struct ss_copy_profile c = {to_dev ? p->prefetch_gbs : p->prefetch_host_gbs,
		                            to_dev ? p->prefetch_latency_ns : p->prefetch_host_latency_ns};

		cost = p->api_prefetch_ns;
		idx = model_new_item(m, opi, s, to_dev ? MODEL_TO_DEVICE : MODEL_TO_HOST, t0 + cost + p->launch_ns);
		model_copy_params(&m->it[idx], &c, planner_op_bytes(m->ops, op));
		/* on the timeline as the CUDA backend shows it: a managed copy of its stream (bracket.h) */
		m->it[idx].rec_kind = to_dev ? SS_KIND_H2D : SS_KIND_D2H;
		m->it[idx].flags = SS_REC_ASYNC | SS_REC_MANAGED;
		m->it[idx].prefetch = true;
		if (to_dev) {
			/* The driver does a prefetch's page-table work (its fixed cost) inside the one migration to the
			 * device, not beside it: the fixed cost is migration time like the bytes, shared with the other
			 * migrations in progress. */
			m->it[idx].work += m->it[idx].fixed;
			m->it[idx].fixed = 0;
		}
		break;
	}
	case SS_OP_HOST: {
		/* document 004's host_process: the thread works through its chunk (host.process_ns includes faulting
		 * it back from the device), alone faster, slowed by the other threads inside a host_process at the same
		 * time (model_proc_rate) */
		m->slot[s].host_touched = true;
		ht->processing = true;
		ht->blocked = true;
		ht->nwait = 0;
		ht->proc_left = (double)op->count * p->host_process_ns;
		ht->proc_start = t0;
		ht->proc_bytes = op->count * (uint64_t)m->ops->elem_size;
		ht->proc_op = opi;
		return;
	}
	case SS_OP_EVENT_RECORD:
		cost = p->api_event_ns;
		idx = model_new_item(m, opi, s, MODEL_NONE, t0 + cost + p->launch_ns);
		if (op->event >= 0 && op->event < m->ops->nevents)
			m->event_item[op->event] = idx;
		break;
	case SS_OP_EVENT_SYNC:
	case SS_OP_STREAM_SYNC:
	case SS_OP_DEVICE_SYNC:
	case SS_OP_FREE: {
		/* cudaFree waits for the device as a device sync does, then costs api.free_ns (no SYNC record) */
		double tmin = t0 + (op->kind == SS_OP_FREE ? p->api_free_ns : p->api_sync_ns);
		bool sync = op->kind != SS_OP_FREE;

		if (op->kind == SS_OP_EVENT_SYNC) {
			one = op->event >= 0 && op->event < m->ops->nevents ? m->event_item[op->event] : -1;
			nwait = 1;
		} else if (op->kind == SS_OP_STREAM_SYNC && !m->slot[s].legacy) {
			one = m->slot[s].tail;
			nwait = 1;
		} else {
			/* A device sync or a free, or a legacy-stream sync, waits for every stream's work. */
			bool all = op->kind == SS_OP_DEVICE_SYNC || op->kind == SS_OP_FREE;

			wait = xcalloc((size_t)m->nslots, sizeof *wait);
			for (int j = 0; j < m->nslots; j++)
				if (all || m->slot[j].blocking || m->slot[j].legacy)
					wait[nwait++] = m->slot[j].tail;
		}
		if (!model_block(m, h, wait, nwait, t0, tmin, opi, sync)) {
			ht->t = t0; /* nothing to wait for: model_host_return writes the records */
			model_host_return(m, h, tmin);
		}
		if (wait != &one)
			free(wait);
		return;
	}
	default:
		break;
	}
	model_emit(m, SS_KIND_API, call0, t0 + cost, op, SS_STREAM_HOST, 0, (uint32_t)h, 0, 0,
	           model_api_name(op->kind));
	ht->t = t0 + cost;
	m->lock_free = ht->t;
	model_timing(m, h, opi, false);
	ht->t += m->p->host_gap_ns;
}

/* model_run_hosts issues every call due now. Returns true when something happened. */
static bool model_run_hosts(struct model *m)
{
	bool any = false;

	for (int h = 0; h < m->nhosts; h++) {
		struct model_host *ht = &m->host[h];

		while (!ht->blocked && ht->next < ht->nops && ht->t <= m->now + MODEL_EPS) {
			if (m->nhosts > 1 && m->lock_free > m->now + MODEL_EPS) {
				/* another thread is inside the driver: calls of several threads take turns */
				ht->t = m->lock_free;
				break;
			}
			model_issue(m, h);
			any = true;
		}
	}
	return any;
}

/* model_dep_at folds dependency d of item it into *t: when d lets it start (INFINITY while d is not done). Work on
 * another engine or stream is noticed gpu.dep_latency_ns after it ends; a copy may follow its stream's previous
 * copy into the same engine as soon as that one was dispatched (the engine keeps their order). */
static void model_dep_at(const struct model *m, const struct model_item *it, int d, double *t)
{
	const struct model_item *dp;

	if (d < 0)
		return;
	dp = &m->it[d];
	if (dp->state != MODEL_DONE) {
		if (!(dp->engine == it->engine && it->engine <= MODEL_D2H && dp->state >= MODEL_DISPATCHED &&
		      dp->slot == it->slot))
			*t = INFINITY;
		return;
	}
	if (dp->engine != MODEL_NONE &&
	    (dp->engine != it->engine || (dp->slot != it->slot && dp->queue != it->queue))) {
		bool migration = it->engine == MODEL_TO_HOST || it->engine == MODEL_TO_DEVICE;

		*t = fmax(*t, dp->end + (it->engine == MODEL_COMPUTE ? m->dep_kernel : m->dep_copy) +
		                  (migration ? m->p->prefetch_wait_ns : 0));
	} else {
		*t = fmax(*t, dp->end);
	}
}

/* model_ready_at: the earliest time item i may leave its queue (INFINITY while a dependency is not done). */
static double model_ready_at(const struct model *m, int i)
{
	const struct model_item *it = &m->it[i];
	double t = it->visible;

	model_dep_at(m, it, it->prev, &t);
	model_dep_at(m, it, it->barrier, &t);
	for (size_t d = 0; d < it->ndeps && isfinite(t); d++)
		model_dep_at(m, it, m->deps[it->dep0 + d], &t);
	return t;
}

/* model_complete finishes item i now: frees its engine and writes its record. */
static void model_complete(struct model *m, int i)
{
	struct model_item *it = &m->it[i];
	const struct ss_op *op = &m->ops->op[it->op];

	it->state = MODEL_DONE;
	m->ndone++;
	it->end = m->now;
	if (it->engine < MODEL_NSERIAL && m->copy_cur[it->engine] == i) {
		m->copy_cur[it->engine] = -1;
		m->copy_lastq[it->engine] = it->queue;
		m->copy_free[it->engine] = m->now + (it->engine <= MODEL_D2H ? m->p->copy_gap_ns : 0);
	}
	if (it->engine == MODEL_COMPUTE || it->engine == MODEL_TO_DEVICE) {
		int *v = it->engine == MODEL_COMPUTE ? m->krun : m->urun;
		size_t *n = it->engine == MODEL_COMPUTE ? &m->nkrun : &m->nurun;

		for (size_t k = 0; k < *n; k++) {
			if (v[k] == i) {
				memmove(&v[k], &v[k + 1], (*n - k - 1) * sizeof *v);
				(*n)--;
				break;
			}
		}
	}
	if (it->rec_kind >= 0) {
		const char *name = it->rec_kind == SS_KIND_KERNEL   ? planner_kernel_symbol(op)
		                   : it->rec_kind == SS_KIND_MEMSET ? "Memset (Device)"
		                   : it->rec_kind == SS_KIND_H2D
		                       ? (it->prefetch                  ? "Prefetch HtoD (Managed -> Device)"
		                          : it->flags & SS_REC_PAGEABLE ? "Memcpy HtoD (Pageable -> Device)"
		                          : it->flags & SS_REC_MANAGED  ? "Memcpy HtoD (Managed -> Device)"
		                                                        : "Memcpy HtoD (Pinned -> Device)")
		                       : (it->prefetch                  ? "Prefetch DtoH (Device -> Managed)"
		                          : it->flags & SS_REC_PAGEABLE ? "Memcpy DtoH (Device -> Pageable)"
		                          : it->flags & SS_REC_MANAGED  ? "Memcpy DtoH (Device -> Managed)"
		                                                        : "Memcpy DtoH (Device -> Pinned)");
		model_emit(m, it->rec_kind, it->start, it->end, op, m->slot[it->slot].stream, m->slot[it->slot].raw,
		           it->engine <= MODEL_D2H ? (uint32_t)it->engine : 0, it->flags, it->bytes, name);
	}
}

/* model_copy_queue: whether hardware queue q holds copies of one direction only (gpu.copy_queues). */
static bool model_copy_queue(const struct model *m, int q)
{
	return m->p->copy_queues && q >= m->nconn;
}

/* model_dispatch moves ready queue heads to their engines, oldest op first. A copy engine takes from its
 * direction's queues one copy at a time, when it is free, and stays with the hardware queue of its last copy while
 * that queue's head is ready (the H200 drains one queue before it turns to the next: document 003's weaker order
 * on 8 queues copies stream 0, 8, 16, 24 in, then 1, 9, 17, 25, where the streams were issued 0, 1, 2, ...).
 * Returns true when one moved. */
static bool model_dispatch(struct model *m)
{
	bool any = false;

	for (;;) {
		int best = -1, bq = -1;
		bool best_stay = false;

		for (int q = 0; q < m->nqueues; q++) {
			bool copies = model_copy_queue(m, q), stay;
			int i, d;

			if (fifo_empty(&m->queue[q]))
				continue;
			i = fifo_peek(&m->queue[q]);
			d = m->it[i].engine;
			if (copies && (m->copy_cur[d] >= 0 || !fifo_empty(&m->copyq[d])))
				continue; /* its engine is busy: it chooses when it is free */
			if (model_ready_at(m, i) > m->now + MODEL_EPS)
				continue;
			stay = copies && m->copy_lastq[d] == q;
			if (best < 0 || (stay && !best_stay) || (stay == best_stay && m->it[i].op < m->it[best].op)) {
				best = i;
				bq = q;
				best_stay = stay;
			}
		}
		if (best < 0)
			return any;
		fifo_pop(&m->queue[bq]);
		any = true;
		m->it[best].state = MODEL_DISPATCHED;
		switch (m->it[best].engine) {
		case MODEL_H2D:
		case MODEL_D2H:
		case MODEL_TO_HOST:
			fifo_push(&m->copyq[m->it[best].engine], best);
			break;
		case MODEL_COMPUTE:
			fifo_push(&m->kpend, best);
			break;
		case MODEL_TO_DEVICE:
			/* the migration service takes every request at once and shares itself among them */
			*VEC_PUSH(m->urun, m->nurun, m->urun_cap, 16) = best;
			m->it[best].state = MODEL_RUNNING;
			m->it[best].start = m->now;
			break;
		default:
			m->it[best].start = m->now;
			model_complete(m, best);
			break;
		}
	}
}

/* model_allocate shares the device among running kernels, earliest started first; returns the share in use. */
static double model_allocate(struct model *m)
{
	double used = 0;

	for (size_t k = 0; k < m->nkrun; k++) {
		struct model_item *it = &m->it[m->krun[k]];

		it->alloc = fmax(0.0, fmin(it->width, 1.0 - used));
		used += it->alloc;
	}
	return used;
}

/* model_serial_free: when one-at-a-time engine d may start the head of its FIFO (copy.switch_ns later when a copy
 * engine turns to another hardware queue than its last copy's). */
static double model_serial_free(const struct model *m, int d)
{
	int i = fifo_peek(&m->copyq[d]);
	bool turn = d <= MODEL_D2H && m->copy_lastq[d] >= 0 && m->copy_lastq[d] != m->it[i].queue;

	return m->copy_free[d] + (turn ? m->p->copy_switch_ns : 0);
}

/* model_start starts queued copies on idle engines and pending kernels while there is room. */
static bool model_start(struct model *m)
{
	bool any = false;

	for (int d = 0; d < MODEL_NSERIAL; d++) {
		if (m->copy_cur[d] >= 0 || fifo_empty(&m->copyq[d]) || model_serial_free(m, d) > m->now + MODEL_EPS)
			continue;
		int i = fifo_pop(&m->copyq[d]);

		m->copy_cur[d] = i;
		m->it[i].state = MODEL_RUNNING;
		m->it[i].start = m->now;
		any = true;
	}
	while (!fifo_empty(&m->kpend) && (int)m->nkrun < m->p->max_kernels && model_allocate(m) < 1.0 - 1e-12) {
		int i = fifo_pop(&m->kpend);

		*VEC_PUSH(m->krun, m->nkrun, m->krun_cap, 16) = i;
		m->it[i].state = MODEL_RUNNING;
		m->it[i].start = m->now;
		any = true;
	}
	model_allocate(m);
	return any;
}

/* model_migrating counts the migrations the migration service is moving now: prefetches past their fixed cost and
 * running kernels migrating managed memory on demand. */
static int model_migrating(const struct model *m)
{
	int n = 0;

	for (size_t k = 0; k < m->nkrun; k++)
		n += m->it[m->krun[k]].fixed <= 0 && m->it[m->krun[k]].fault > 0;
	for (size_t k = 0; k < m->nurun; k++)
		n += m->it[m->urun[k]].fixed <= 0 && m->it[m->urun[k]].work > 0;
	return n;
}

/* model_share is the share of the migration to the device each migration in progress gets. One service (the
 * driver's unified-memory handling) moves every managed page to the device, prefetched or faulted, a request at a
 * time: the requests in progress share it equally, each at its own speed alone (managed.prefetch_gbs,
 * managed.fault_gbs). The H200 bench trace of the managed preset (tests/data/h200/bench/preset-managed.sqlite)
 * shows it: its first two kernels, faulting while the other streams' prefetches go through, take 590-630 us of the
 * device each (time shared with concurrent kernels counted in part), the last five, when the prefetches are done,
 * 290-350 us for the same 2 MiB. */
static double model_share(const struct model *m)
{
	int n = model_migrating(m);

	return 1.0 / (n > 0 ? n : 1);
}

/* model_rate is how fast a running item's work phase progresses (a kernel's fault migration goes at model_share
 * beside it). */
static double model_rate(const struct model *m, int i)
{
	const struct model_item *it = &m->it[i];

	if (it->engine == MODEL_TO_DEVICE)
		return model_share(m);
	if (it->engine == MODEL_COMPUTE)
		return it->alloc;
	if (it->engine <= MODEL_D2H) {
		/* Both directions busy: each gets its share of the combined bandwidth, at most its own. Copies are
		 * slower when several hardware queues feed the engines (copy.queues_slow). */
		const struct ss_profile *p = m->p;
		double share = it->engine == MODEL_H2D ? p->both_h2d_share : 1.0 - p->both_h2d_share;
		double own = it->engine == MODEL_H2D ? p->h2d.bw_gbs : p->d2h.bw_gbs;
		double r = m->copy_cur[1 - it->engine] >= 0 ? fmin(1.0, p->both_gbs * share / own) : 1.0;

		return r / (1.0 + m->queues_f * p->copy_queues_slow);
	}
	return 1.0;
}

/* model_left is how long until item i's next phase change at the current rates: its fixed phase, else the sooner of
 * its fault migration and its work (a faulting kernel computes the pages that have arrived while the rest migrate:
 * it ends when both are done). INFINITY when stalled. */
static double model_left(const struct model *m, int i)
{
	const struct model_item *it = &m->it[i];
	double r, left = INFINITY;

	if (it->fixed > 0)
		return it->fixed;
	if (it->fault <= 0 && it->work <= 0)
		return 0;
	if (it->fault > 0)
		left = it->fault / model_share(m);
	r = model_rate(m, i);
	if (it->work > 0 && r > 0)
		left = fmin(left, it->work / r);
	return left;
}

/* model_running lists every running item in m->runbuf and returns how many. */
static size_t model_running(struct model *m)
{
	size_t n = 0, want = MODEL_NSERIAL + m->nkrun + m->nurun;

	VEC_RESERVE(m->runbuf, 0, m->runcap, want, 16);
	VEC_RESERVE(m->ratebuf, 0, m->ratecap, want, 16);
	for (int d = 0; d < MODEL_NSERIAL; d++)
		if (m->copy_cur[d] >= 0)
			m->runbuf[n++] = m->copy_cur[d];
	for (size_t k = 0; k < m->nkrun; k++)
		m->runbuf[n++] = m->krun[k];
	for (size_t k = 0; k < m->nurun; k++)
		m->runbuf[n++] = m->urun[k];
	return n;
}

/* model_finish_instant completes running items with nothing left. */
static bool model_finish_instant(struct model *m)
{
	size_t n = model_running(m);
	bool any = false;

	for (size_t k = 0; k < n; k++) {
		struct model_item *it = &m->it[m->runbuf[k]];
		if (it->fixed <= MODEL_EPS && it->fault <= 0 && it->work <= 0) {
			it->fixed = 0;
			model_complete(m, m->runbuf[k]);
			any = true;
		}
	}
	return any;
}

/* model_wake returns blocked host calls whose items are all done. */
static bool model_wake(struct model *m)
{
	bool any = false;

	for (int h = 0; h < m->nhosts; h++) {
		struct model_host *ht = &m->host[h];
		bool done = ht->blocked && !ht->processing;

		for (size_t w = 0; done && w < ht->nwait; w++)
			done = item_done(m, ht->wait[w]);
		if (done) {
			model_host_return(m, h, fmax(ht->call_min, m->now + m->p->sync_wake_ns + ht->call_tail));
			any = true;
		}
	}
	return any;
}

/* model_proc_rate is how fast each host thread inside a host_process goes now, as a share of the speed
 * host.process_ns gives: a thread alone there goes at host.process_alone_ns an element; with n of them at once,
 * each element costs host.process_ns and waits for the other n - 1 threads' bytes of memory (host.process_gbs, the
 * host's memory and page-fault handling shared by every thread), and more threads than host.cores take turns on
 * the cores. */
static double model_proc_rate(const struct model *m)
{
	const struct ss_profile *p = m->p;
	int n = 0;
	double one = p->host_process_ns, shared;

	for (int h = 0; h < m->nhosts; h++)
		n += m->host[h].processing;
	if (one <= 0)
		return 1.0;
	if (n <= 1)
		return p->host_process_alone_ns > 0 ? one / p->host_process_alone_ns : 1.0;
	/* the threads on a core at once share the memory; the others wait for a core */
	shared = (fmin((double)n, (double)p->host_cores) - 1.0) * (double)m->ops->elem_size / p->host_process_gbs;
	return one / (one + shared) * fmin(1.0, (double)p->host_cores / (double)n);
}

/* model_proc_finish ends the host_process of every thread that has none of it left: its marker, and the thread
 * issues again after its gap. */
static bool model_proc_finish(struct model *m)
{
	bool any = false;

	for (int h = 0; h < m->nhosts; h++) {
		struct model_host *ht = &m->host[h];

		if (!ht->processing || ht->proc_left > 0)
			continue;
		model_emit(m, SS_KIND_MARKER, ht->proc_start, m->now, &m->ops->op[ht->proc_op], SS_STREAM_HOST, 0,
		           (uint32_t)h, 0, ht->proc_bytes, "host_process");
		ht->processing = false;
		ht->blocked = false;
		ht->t = m->now + m->p->host_gap_ns;
		any = true;
	}
	return any;
}

/* model_next is the time of the next event after now (INFINITY when none); m->runbuf lists the nrun running
 * items. */
static double model_next(const struct model *m, size_t nrun)
{
	double next = INFINITY;

	double prate = model_proc_rate(m);

	for (int h = 0; h < m->nhosts; h++) {
		if (!m->host[h].blocked && m->host[h].next < m->host[h].nops)
			next = fmin(next, m->host[h].t);
		if (m->host[h].processing)
			next = fmin(next, m->now + m->host[h].proc_left / prate);
	}
	for (int q = 0; q < m->nqueues; q++) {
		if (fifo_empty(&m->queue[q]))
			continue;
		int i = fifo_peek(&m->queue[q]);

		double t = model_ready_at(m, i);

		if (t > m->now && isfinite(t))
			next = fmin(next, t);
	}
	for (int d = 0; d < MODEL_NSERIAL; d++)
		if (m->copy_cur[d] < 0 && !fifo_empty(&m->copyq[d]) && model_serial_free(m, d) > m->now)
			next = fmin(next, model_serial_free(m, d));
	for (size_t k = 0; k < nrun; k++)
		next = fmin(next, m->now + model_left(m, m->runbuf[k]));
	return next;
}

/* model_advance moves the nrun running items of m->runbuf forward to time next, every one at the rates it had at
 * now (the rates depend on each other's phases, so all are taken before any moves). */
static void model_advance(struct model *m, size_t nrun, double next)
{
	double dt = next - m->now, share = model_share(m), prate = model_proc_rate(m);

	for (size_t k = 0; k < nrun; k++)
		m->ratebuf[k] = model_rate(m, m->runbuf[k]);
	for (size_t k = 0; k < nrun; k++) {
		struct model_item *it = &m->it[m->runbuf[k]];
		double r = m->ratebuf[k];

		if (it->fixed > 0) {
			it->fixed = it->fixed - dt <= MODEL_EPS ? 0 : it->fixed - dt;
			continue;
		}
		if (it->fault > 0)
			it->fault = it->fault - share * dt <= MODEL_EPS * share ? 0 : it->fault - share * dt;
		if (it->work > 0)
			it->work = it->work - r * dt <= MODEL_EPS * r ? 0 : it->work - r * dt;
	}
	for (int h = 0; h < m->nhosts; h++) {
		struct model_host *ht = &m->host[h];

		if (ht->processing)
			ht->proc_left =
			    ht->proc_left - prate * dt <= MODEL_EPS * prate ? 0 : ht->proc_left - prate * dt;
	}
	m->now = next;
}

static bool model_finished(const struct model *m)
{
	for (int h = 0; h < m->nhosts; h++)
		if (m->host[h].blocked || m->host[h].next < m->host[h].nops)
			return false;
	return m->ndone == m->nit;
}

/* model_plan_timing places the hidden timing events as cuda_exec.c does (see model_timing). */
static void model_plan_timing(struct model *m)
{
	const struct ss_oplist *ops = m->ops;
	int nkeys = m->nslots;
	long *last = xcalloc((size_t)nkeys, sizeof *last);

	m->start_after = xcalloc(ops->n + 1, sizeof *m->start_after);
	m->stop_after = xcalloc(ops->n + 1, sizeof *m->stop_after);
	planner_start_events(ops, m->nhosts, m->start_after);
	m->stop_legacy = m->e->threads <= 1 && !m->e->nonblocking;
	for (int k = 0; k < nkeys; k++)
		last[k] = -1;
	for (size_t i = 0; i < ops->n; i++)
		if (planner_gpu_op(ops->op[i].kind))
			last[m->stop_legacy ? 0 : model_slot_of(m, &ops->op[i])] = (long)i;
	for (int k = 0; k < nkeys; k++)
		if (last[k] >= 0)
			m->stop_after[last[k]] = 1;
	free(last);
}

/* model_setup builds slots, queues and host threads for e. */
static void model_setup(struct model *m)
{
	const struct ss_experiment *e = m->e;
	int nthreads = 1;

	for (size_t i = 0; i < m->ops->n; i++)
		if (m->ops->op[i].thread + 1 > nthreads)
			nthreads = m->ops->op[i].thread + 1;
	m->nconn = e->connections > 0 ? e->connections : 1;
	m->nqueues = 3 * m->nconn;
	{
		/* A dependency across queues is noticed later the more queues the GPU serves in turn: the H2D -> kernel
		 * gaps of the smoke timelines grow from 5.5 us with one stream to 7.4-9 us with 4..128 streams. */
		double f = experiment_queues_f(e);

		m->queues_f = f;
		m->dep_kernel = m->p->dep_kernel_ns + f * m->p->dep_kernel_queues_ns;
		m->dep_copy = m->p->dep_copy_ns + f * m->p->dep_copy_queues_ns;
	}
	m->queue = xcalloc((size_t)m->nqueues, sizeof *m->queue);
	m->legacy_slot = e->streams;
	m->timer_slot = e->streams + 1 + nthreads;
	m->nslots = e->streams + 2 + nthreads;
	m->slot = xcalloc((size_t)m->nslots, sizeof *m->slot);
	for (int s = 0; s < m->nslots; s++) {
		struct model_slot *sl = &m->slot[s];

		sl->tail = -1;
		if (s < e->streams) {
			sl->queue = s % m->nconn;
			sl->blocking = !e->nonblocking;
			sl->stream = s;
			sl->raw = (uint32_t)s + 1;
		} else if (s == m->timer_slot) {
			sl->queue = e->streams % m->nconn;
			sl->stream = SS_STREAM_UNKNOWN;
			sl->raw = 999;
		} else if (s == m->legacy_slot) {
			sl->queue = 0;
			sl->legacy = true;
			sl->stream = SS_STREAM_LEGACY;
			sl->raw = 0;
		} else {
			int t = s - m->legacy_slot - 1;

			sl->queue = t % m->nconn;
			sl->blocking = true; /* per-thread default streams are blocking towards the legacy stream */
			sl->stream = SS_STREAM_PER_THREAD;
			sl->raw = 1000u + (uint32_t)t;
		}
	}
	m->nhosts = nthreads;
	m->host = xcalloc((size_t)nthreads, sizeof *m->host);
	for (int h = 0; h < nthreads; h++) {
		m->host[h].ops = xcalloc(m->ops->n + 1, sizeof *m->host[h].ops);
		m->host[h].t = h * m->p->thread_start_ns;
		m->host[h].last_slot = -1;
	}
	for (size_t i = 0; i < m->ops->n; i++) {
		int t = m->ops->op[i].thread > 0 ? m->ops->op[i].thread : 0;

		m->host[t].ops[m->host[t].nops++] = i;
	}
	m->event_item = xcalloc((size_t)m->ops->nevents + 1, sizeof *m->event_item);
	for (int i = 0; i < m->ops->nevents; i++)
		m->event_item[i] = -1;
	for (int d = 0; d < MODEL_NSERIAL; d++)
		m->copy_cur[d] = m->copy_lastq[d] = -1;
	experiment_io_arrays(e, &m->inputs, &m->outputs);
	/* With prefetched managed memory the add kernel's output (its own array, never prefetched to the device) is
	 * migrated by page faults as the kernel writes it. */
	m->fault_elem = e->hostmem == SS_MEM_MANAGED_PREFETCH && m->inputs == 2
	                    ? (double)m->ops->elem_size * (double)m->outputs
	                    : 0;
	m->attached = m->inputs + (m->inputs == 2 ? m->outputs : 0);
	model_plan_timing(m);
}

/* model_teardown frees everything model_setup allocated in m (its queues, hosts, records and buffers); m itself is
 * the caller's. */
static void model_teardown(struct model *m)
{
	for (int q = 0; q < m->nqueues; q++)
		free(m->queue[q].v);
	for (int h = 0; h < m->nhosts; h++) {
		free(m->host[h].ops);
		free(m->host[h].wait);
	}
	for (int d = 0; d < MODEL_NSERIAL; d++)
		free(m->copyq[d].v);
	free(m->kpend.v);
	free(m->krun);
	free(m->urun);
	free(m->runbuf);
	free(m->ratebuf);
	free(m->queue);
	free(m->host);
	free(m->slot);
	free(m->it);
	free(m->deps);
	free(m->event_item);
	free(m->rec);
	free(m->start_after);
	free(m->stop_after);
	free(m->timing);
	free(m->timing_kind);
}

static int model_rec_cmp(const void *a, const void *b)
{
	return record_cmp(&((const struct model_rec *)a)->r, &((const struct model_rec *)b)->r);
}

/* model_events_makespan is what the CUDA backend's timing events measure: last stop minus first start. */
static uint64_t model_events_makespan(const struct model *m)
{
	double first = INFINITY, last = -INFINITY;

	for (size_t i = 0; i < m->ntiming; i++) {
		double t = m->it[m->timing[i]].end;

		if (m->timing_kind[i] == 0)
			first = fmin(first, t);
		else
			last = fmax(last, t);
	}
	return isfinite(first) && isfinite(last) && last > first ? model_ns(last - first) : 0;
}

/* model_launch hands sink the launch of kernel record r, which op issued: its grid and block, one-dimensional as
 * the CUDA backend launches them (registers and shared memory are not modelled: no SS_LAUNCH_ATTRS). */
static void model_launch(const struct ss_sink *sink, const struct ss_record *r, const struct ss_op *op)
{
	struct ss_launch l;

	memset(&l, 0, sizeof l);
	l.correlation = r->correlation;
	l.raw_stream = r->raw_stream;
	l.grid[0] = op->grid;
	l.block[0] = op->block;
	l.grid[1] = l.grid[2] = l.block[1] = l.block[2] = 1;
	sink->launch(sink->ctx, &l, NULL);
}

/* model_fits_memory: 0 when e's arrays fit in the memory of p's device (each of them with several), as the CUDA
 * backend asks of the device's free memory; else -1 and *cause. */
static int model_fits_memory(const struct ss_experiment *e, const struct ss_profile *p, char **cause)
{
	uint64_t total = (uint64_t)p->memory_mib << 20;
	char device[160];

	snprintf(device, sizeof device, "the modelled %s (profile key device.memory_mib)", p->device);
	return experiment_fits_memory(e, 0, total, total, device, cause);
}

int model_simulate(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_profile *p,
                   const struct ss_sink *sink, struct ss_run_result *res, char **cause)
{
	struct model m;
	uint64_t steps = 0, makespan = 0;
	char msg[96];

	if (profile_validate(p, cause) != 0 || model_fits_memory(e, p, cause) != 0)
		return -1;
	if (e->devices > 1)
		return multi_simulate(e, ops, p, sink, res, model_timeline, cause); /* --devices: model/multi.c */
	memset(&m, 0, sizeof m);
	m.e = e;
	m.ops = ops;
	m.p = p;
	model_setup(&m);
	for (;;) {
		bool changed;
		double next;
		size_t nrun;

		do {
			changed = model_run_hosts(&m);
			changed |= model_dispatch(&m);
			changed |= model_start(&m);
			if (model_finish_instant(&m))
				changed = true;
			changed |= model_wake(&m);
			changed |= model_proc_finish(&m);
		} while (changed);
		if (model_finished(&m))
			break;
		nrun = model_running(&m);
		next = model_next(&m, nrun);
		/* an item with less left than the clock can still resolve (now's last digit, 4 us at a minute) ends at
		 * the next representable time, where now + left rounded back to now and the loop stood still */
		if (next <= m.now)
			next = nextafter(m.now, INFINITY);
		if (!isfinite(next) || ++steps > MODEL_MAX_STEPS) {
			*cause = xasprintf("model: no progress at t=%.0f ns (%zu of %zu device items left)", m.now,
			                   m.nit - m.ndone, m.nit);
			goto fail;
		}
		model_advance(&m, nrun, next);
		model_finish_instant(&m);
		model_wake(&m);
		model_proc_finish(&m);
	}
	qsort(m.rec, m.nrec, sizeof *m.rec, model_rec_cmp);
	makespan = model_events_makespan(&m);
	if (sink != NULL && sink->stream != NULL)
		for (int s = 0; s < e->streams; s++) /* raw ids as model_setup hands them out */
			sink->stream(sink->ctx, s, (uint32_t)s + 1,
			             e->nonblocking ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING);
	if (sink != NULL && sink->record != NULL)
		for (size_t i = 0; i < m.nrec; i++)
			sink->record(sink->ctx, &m.rec[i].r, m.rec[i].name);
	if (sink != NULL && sink->launch != NULL)
		for (size_t i = 0; i < m.nrec; i++)
			if (m.rec[i].r.kind == SS_KIND_KERNEL && m.rec[i].r.correlation >= 1 &&
			    m.rec[i].r.correlation <= ops->n)
				model_launch(sink, &m.rec[i].r, &ops->op[m.rec[i].r.correlation - 1]);
	if (sink != NULL && sink->progress != NULL) {
		snprintf(msg, sizeof msg, "modelled %zu ops on the %s profile", ops->n, p->name);
		sink->progress(sink->ctx, msg);
	}
	memset(res, 0, sizeof *res);
	model_device_name(p, res->device, sizeof res->device);
	res->modelled = true;
	res->memory_bytes = (uint64_t)p->memory_mib << 20;
	res->prefetch_records = true;
	res->traced_ns = makespan;
	res->events_ns_of_captured = makespan;
	res->repeats = e->repeat;
	model_teardown(&m);
	return 0;
fail:
	model_teardown(&m);
	return -1;
}

/* The profile model_backend uses; loaded on first use unless set. */
static struct ss_profile model_cur;
static bool model_have;

void model_set_profile(const struct ss_profile *p)
{
	if (p == NULL) {
		model_have = false;
		return;
	}
	model_cur = *p;
	model_have = true;
}

int model_get_profile(struct ss_profile *p, char **cause)
{
	if (!model_have) {
		if (profile_default(&model_cur, cause) != 0)
			return -1;
		model_have = true;
	}
	*p = model_cur;
	return 0;
}

/* A sink that appends to a timeline. */
static void model_tl_record(void *ctx, const struct ss_record *r, const char *name)
{
	struct ss_timeline *tl = ctx;
	struct ss_record *added = timeline_add(tl, r);

	added->name = timeline_intern(tl, name);
}

static void model_tl_stream(void *ctx, int index, uint32_t raw_id, int kind)
{
	timeline_set_stream(ctx, index, raw_id, kind);
}

static void model_tl_launch(void *ctx, const struct ss_launch *l, const char *full_name)
{
	struct ss_launch c = *l;

	c.full_name = timeline_intern(ctx, full_name);
	timeline_add_launch(ctx, &c);
}

int model_timeline(const struct ss_experiment *e, const struct ss_profile *p, struct ss_timeline *tl,
                   struct ss_run_result *res, char **cause)
{
	struct ss_oplist ops;
	struct ss_run_result local;
	struct ss_sink sink = {tl, model_tl_record, NULL, model_tl_stream, model_tl_launch};
	int rc;

	if (experiment_validate(e, cause) != 0)
		return -1;
	timeline_clear(tl);
	planner_build(e, &ops);
	rc = model_simulate(e, &ops, p, &sink, res != NULL ? res : &local, cause);
	planner_free(&ops);
	if (rc != 0)
		return -1;
	tl->modelled = true;
	tl->nstreams = e->streams;
	snprintf(tl->backend, sizeof tl->backend, "model");
	model_device_name(p, tl->device, sizeof tl->device);
	timeline_sort(tl);
	return 0;
}

void model_device_name(const struct ss_profile *p, char *buf, size_t len)
{
	snprintf(buf, len, "MODEL (%s profile)", p->name);
}

bool model_is_device(const char *device)
{
	size_t len = strlen(device);

	return strncmp(device, "MODEL (", 7) == 0 && len > 16 && strcmp(device + len - 9, " profile)") == 0;
}

uint64_t model_makespan(const struct ss_experiment *e, const struct ss_profile *p, char **cause)
{
	struct ss_oplist ops;
	struct ss_run_result res;
	int rc;

	if (experiment_validate(e, cause) != 0)
		return 0;
	planner_build(e, &ops);
	rc = model_simulate(e, &ops, p, NULL, &res, cause);
	planner_free(&ops);
	return rc == 0 ? res.traced_ns : 0;
}

static int model_available(char *device, size_t len, char **cause)
{
	struct ss_profile p;

	if (model_get_profile(&p, cause) != 0)
		return -1;
	model_device_name(&p, device, len);
	return 0;
}

static int model_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                     struct ss_run_result *res, char **cause)
{
	struct ss_profile p;

	if (model_get_profile(&p, cause) != 0)
		return -1;
	return model_simulate(e, ops, &p, sink, res, cause);
}

const struct ss_backend model_backend = {
    .name = "model",
    .modelled = true,
    .available = model_available,
    .run = model_run,
};
