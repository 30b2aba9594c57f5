/* cuda_exec.c: set-up, issue, timing and verification of one experiment on the GPU (see cuda_exec.h).
 *
 * Timing with cudaEvents, kept out of the experiment's way: each issuing thread records a start event right after
 * issuing its first GPU operation, on a non-blocking stream kept idle for the purpose, so the event fires as
 * soon as the GPU reads it, just after that operation was submitted (recorded before it, the event would also time
 * the first call's launch latency, which is not the experiment's work). A first op that is a prefetch gets
 * its start event before it instead: its migration can begin while its call runs. With one thread and blocking
 * streams a single stop event goes on the legacy stream right after the last GPU operation: it waits for every
 * blocking stream (and the per-thread default stream), so it fires when the last work ends, and costs one call.
 * With non-blocking streams or several threads, each stream gets a stop event right after its own last GPU
 * operation. The makespan is the last stop minus the first start. These calls are hidden from the captured
 * timeline (cupti_capture_hide_*). */
#include "cuda/cuda_exec.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/vec.h"
#include "core/xalloc.h"
#include "cuda/bracket.h"
#include "cuda/cupti_capture.h"
#include "kernels.h"

#define EXEC_BUFFERS 3        /* x, y, z (planner.h) */
#define EXEC_SEED 0x13572468u /* first spin slot's seed; slot i starts at EXEC_SEED + i */

/* One host thread that issues ops: its op indices, identity, and what went wrong in it. */
struct exec_thread {
	struct cuda_exec *x;
	int index;
	pthread_t handle;
	bool started;
	size_t *ops, nops, ops_cap;
	uint32_t os_tid, pthread_id; /* gettid() and pthread_self(), either may be CUPTI's threadId */
	uint32_t per_thread_id;      /* CUPTI id of this thread's per-thread default stream */
	bool have_per_thread;
	char *cause;   /* first error of this thread in the current phase */
	unsigned seen; /* last generation this thread ran */
};

/* Everything a run needs, made once by cuda_exec_setup. */
struct cuda_exec {
	const struct ss_experiment *e;
	const struct ss_oplist *ops;
	uint64_t n; /* elements */
	size_t es;  /* element size */
	int nstreams;
	cudaStream_t *streams;
	uint32_t *stream_ids;
	uint32_t *per_thread_ids; /* CUPTI ids of the issuing threads' per-thread default streams */
	int nper_thread;
	cudaEvent_t *events; /* the op list's events */
	int nevents;
	cudaEvent_t *start;   /* per issuing thread */
	cudaStream_t timer;   /* non-blocking, idle: where the start events go (one issuing thread) */
	cudaStream_t *timers; /* with several issuing threads, one such stream each (exec_timer); NULL */
	bool timer_before;    /* diagnostic SS_TIMER=before: every start event before its thread's first call */
	cudaEvent_t *stop;    /* per stop point */
	int nstop;
	int *start_at;       /* per op: thread whose start event goes with it (exec_plan), -1 */
	int *stop_after;     /* per op: stop event recorded right after it, -1 */
	bool stop_on_legacy; /* the single stop event goes on the legacy stream */
	long *br_of_op;      /* per op: its bracket (bracket.h: ops CUPTI does not record), -1 */
	size_t nbr;
	cudaEvent_t *br_ev; /* per bracket: the events before (2k) and after (2k + 1) its op */
	bool *br_idle;      /* per bracket: its stream was idle at the call, no event before it */
	bool br_always;     /* diagnostic SS_BRACKETS=always: an event before every bracketed op */
	bool traced_now;    /* the current run is traced: brackets go in if prefetch events are on */
	int *slot;          /* per op: result slot of spin and touch kernels, -1 */
	uint32_t *expect;   /* per slot: value after a run */
	uint32_t *seeds;    /* per slot: value before a run */
	uint32_t *d_slots;  /* device slots */
	int nslots;
	/* memory: dev[b] one array per buffer (device or managed), or chunk_mem[b][c] one managed allocation per chunk
	 * (managed-attach); host_in[b] / host_out[b] the host sides of H2D / D2H copies. */
	bool managed, per_chunk, pinned;
	void *dev[EXEC_BUFFERS];
	void **chunk_mem[EXEC_BUFFERS];
	void *host_in[EXEC_BUFFERS], *host_out[EXEC_BUFFERS];
	void *golden; /* decrypt on managed memory: the encrypted input, copied in before each run */
	/* a step program (e->nsteps > 0): host[b] buffer b's one host array (both copy directions and the host
	 * steps use it, pinned per host_pinned[b]), init[b] its contents before each run; sim_host[b] and sim_dev[b]
	 * what the host and device arrays must hold after a run (exec_prog_simulate), dev_back a scratch copy */
	bool prog, spin; /* spin: spin kernels of the chunks have result slots */
	void *host[EXEC_BUFFERS], *init[EXEC_BUFFERS], *sim_host[EXEC_BUFFERS], *sim_dev[EXEC_BUFFERS], *dev_back;
	bool host_pinned[EXEC_BUFFERS], dev_used[EXEC_BUFFERS];
	uint64_t *host_t0, *host_t1; /* per op: a host_process op's start and end in the last run (CUPTI's clock) */
	void *d_prime, *h_prime;     /* a few bytes each side for priming (see exec_prime) */
	int nbuf;
	/* host threads */
	int nthreads;
	struct exec_thread *th;
	bool workers; /* threads run as pthreads (e->threads > 1) */
	pthread_mutex_t lock;
	pthread_cond_t go, done;
	unsigned gen;
	int pending;
	bool quit;
	bool priming; /* the workers' current phase primes instead of issuing */
	bool have_null, have_null_query;
	uint32_t null_stream, null_query;
};

static int exec_cuda_error(const char *call, cudaError_t err, char **cause)
{
	*cause = xasprintf("%s: %s (%s)", call, cudaGetErrorString(err), cudaGetErrorName(err));
	return -1;
}

#define EXEC_CHECK(call, expr)                                                                                         \
	do {                                                                                                           \
		cudaError_t exec_err_ = (expr);                                                                        \
		if (exec_err_ != cudaSuccess)                                                                          \
			return exec_cuda_error(call, exec_err_, cause);                                                \
	} while (0)

static cudaStream_t exec_stream(const struct cuda_exec *x, int stream)
{
	if (stream >= 0 && stream < x->nstreams)
		return x->streams[stream];
	if (stream == SS_STREAM_PER_THREAD)
		return cudaStreamPerThread;
	return cudaStreamLegacy;
}

/* exec_chunked: whether buffer b is one managed allocation per chunk (managed-attach; the task kernel: its data
 * only, in and out are device arrays as document 004 passes them). */
static bool exec_chunked(const struct cuda_exec *x, int b)
{
	return x->per_chunk && (x->e->kernel != SS_KERNEL_TASK || b == 1);
}

/* Address of element off of buffer b as chunk c's kernel or copy sees it. */
static char *exec_ptr(const struct cuda_exec *x, int b, int c, uint64_t off)
{
	if (exec_chunked(x, b)) {
		uint64_t coff, ccount;
		planner_chunk(x->n, x->ops->nchunks, x->ops->split, c, &coff, &ccount);
		return (char *)x->chunk_mem[b][c] + (off - coff) * x->es;
	}
	return (char *)x->dev[b] + off * x->es;
}

/* Per-op plan: which issuing thread owns which ops, result slots, and where the timing events go. */
static void exec_plan(struct cuda_exec *x)
{
	const struct ss_oplist *ops = x->ops;
	int nkeys = x->nstreams + 1 + x->nthreads; /* streams, legacy, one per-thread stream per thread */
	int *last = xcalloc((size_t)nkeys, sizeof *last), *key_stop = xcalloc((size_t)nkeys, sizeof *key_stop);
	int ntouch = 0;

	x->start_at = xcalloc(ops->n + 1, sizeof *x->start_at);
	x->host_t0 = xcalloc(ops->n + 1, sizeof *x->host_t0);
	x->host_t1 = xcalloc(ops->n + 1, sizeof *x->host_t1);
	x->stop_after = xcalloc(ops->n + 1, sizeof *x->stop_after);
	x->slot = xcalloc(ops->n + 1, sizeof *x->slot);
	x->br_of_op = xcalloc(ops->n + 1, sizeof *x->br_of_op);
	for (size_t i = 0; i < ops->n; i++) {
		x->start_at[i] = x->stop_after[i] = x->slot[i] = -1;
		x->br_of_op[i] = bracket_wanted(ops->op[i].kind) ? (long)x->nbr++ : -1;
		if (ops->op[i].kind == SS_OP_KERNEL && ops->op[i].chunk < 0)
			ntouch++;
	}
	x->nslots = (x->spin ? ops->nchunks : 0) + ntouch;
	x->seeds = xcalloc((size_t)x->nslots + 1, sizeof *x->seeds);
	x->expect = xcalloc((size_t)x->nslots + 1, sizeof *x->expect);
	ntouch = 0;
	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_op *op = &ops->op[i];
		int t = op->thread >= 0 && op->thread < x->nthreads ? op->thread : 0;
		struct exec_thread *th = &x->th[t];

		*VEC_PUSH(th->ops, th->nops, th->ops_cap, 64) = i;
		if (op->kind == SS_OP_KERNEL && op->chunk < 0) {
			int s = (x->spin ? ops->nchunks : 0) + ntouch++;
			x->slot[i] = s;
			x->seeds[s] = 0;
			x->expect[s] = op->id;
		} else if (op->kind == SS_OP_KERNEL && x->spin && op->kernel == SS_KERNEL_SPIN) {
			x->slot[i] = op->chunk;
		}
	}
	if (x->spin) {
		/* Every spin kernel on a slot advances it by work steps; the slot's kernels run in one stream. */
		uint64_t *steps = xcalloc((size_t)ops->nchunks + 1, sizeof *steps);
		for (size_t i = 0; i < ops->n; i++)
			if (ops->op[i].kind == SS_OP_KERNEL && ops->op[i].chunk >= 0 &&
			    ops->op[i].kernel == SS_KERNEL_SPIN)
				steps[ops->op[i].chunk] += planner_op_work(x->e, &ops->op[i]);
		for (int c = 0; c < ops->nchunks; c++) {
			x->seeds[c] = EXEC_SEED + (uint32_t)c;
			x->expect[c] = kernels_spin_expect(x->seeds[c], steps[c]);
		}
		free(steps);
	}
	/* Start events: at each thread's first GPU op, before or after its call as planner_start_before says. */
	planner_start_events(ops, x->nthreads, x->start_at);
	/* Stop events. */
	x->stop_on_legacy = !x->workers && !x->e->nonblocking;
	if (x->stop_on_legacy) {
		for (size_t i = ops->n; i-- > 0;)
			if (planner_gpu_op(ops->op[i].kind)) {
				x->stop_after[i] = 0;
				x->nstop = 1;
				break;
			}
	} else {
		for (int k = 0; k < nkeys; k++)
			last[k] = -1;
		for (size_t i = 0; i < ops->n; i++) {
			const struct ss_op *op = &ops->op[i];
			int key;
			if (!planner_gpu_op(op->kind))
				continue;
			if (op->stream >= 0 && op->stream < x->nstreams)
				key = op->stream;
			else if (op->stream == SS_STREAM_PER_THREAD)
				key = x->nstreams + 1 + (op->thread >= 0 && op->thread < x->nthreads ? op->thread : 0);
			else
				key = x->nstreams;
			last[key] = (int)i;
		}
		for (int k = 0; k < nkeys; k++)
			if (last[k] >= 0) {
				key_stop[k] = x->nstop++;
				x->stop_after[last[k]] = key_stop[k];
			}
	}
	free(last);
	free(key_stop);
}

/* Allocate host memory of the copies' host side: pinned or pageable (touched, so it is resident). */
static int exec_host_alloc(struct cuda_exec *x, void **p, size_t bytes, char **cause)
{
	if (x->pinned) {
		EXEC_CHECK("cudaMallocHost", cudaMallocHost(p, bytes));
		return 0;
	}
	*p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
	if (*p == NULL) {
		*cause = xasprintf("out of host memory for a %.1f MiB pageable array", (double)bytes / (1 << 20));
		return -1;
	}
	memset(*p, 0, bytes);
	return 0;
}

/* exec_prog_host is a step program's host step on n elements at p: each one plus 1 (4-byte elements are floats,
 * 8-byte ones integers). */
static void exec_prog_host(const struct cuda_exec *x, char *p, uint64_t n)
{
	if (x->es == 8) {
		uint64_t *v = (uint64_t *)(void *)p;

		for (uint64_t i = 0; i < n; i++)
			v[i] += 1;
	} else {
		float *v = (float *)(void *)p;

		for (uint64_t i = 0; i < n; i++)
			v[i] += 1.0f;
	}
}

/* exec_alloc_shared allocates what every run needs, whatever its buffers: the slots the touch and spin kernels
 * write (x->nslots of them) and the 64-byte device and pinned host words that prime each stream. */
static int exec_alloc_shared(struct cuda_exec *x, char **cause)
{
	if (x->nslots > 0)
		EXEC_CHECK("cudaMalloc", cudaMalloc((void **)&x->d_slots, (size_t)x->nslots * sizeof *x->d_slots));
	EXEC_CHECK("cudaMalloc", cudaMalloc(&x->d_prime, 64));
	EXEC_CHECK("cudaMallocHost", cudaMallocHost(&x->h_prime, 64));
	memset(x->h_prime, 0, 64);
	return 0;
}

/* exec_prog_alloc allocates a step program's arrays: a device array for each buffer a copy, memset or kernel
 * touches, a host array (pinned or pageable, experiment_buffer_hostmem) for each a copy or host step touches,
 * and the simulation's copies of both. */
static int exec_prog_alloc(struct cuda_exec *x, char **cause)
{
	size_t bytes = (size_t)x->n * x->es;
	bool host_used[EXEC_BUFFERS] = {false, false, false};

	for (size_t i = 0; i < x->ops->n; i++) {
		const struct ss_op *op = &x->ops->op[i];
		bool data = op->kind == SS_OP_KERNEL && op->chunk >= 0 && op->kernel != SS_KERNEL_SPIN;

		if (data && op->kernel != SS_KERNEL_DECRYPT)
			x->dev_used[0] = x->dev_used[1] = x->dev_used[2] = true;
		if (op->buffer < 0 || op->buffer >= EXEC_BUFFERS)
			continue;
		if (op->kind == SS_OP_H2D || op->kind == SS_OP_D2H || op->kind == SS_OP_MEMSET || data)
			x->dev_used[op->buffer] = true;
		if (op->kind == SS_OP_H2D || op->kind == SS_OP_D2H || op->kind == SS_OP_HOST)
			host_used[op->buffer] = true;
	}
	for (int b = 0; b < EXEC_BUFFERS; b++) {
		if (x->dev_used[b]) {
			EXEC_CHECK("cudaMalloc", cudaMalloc(&x->dev[b], bytes));
			x->sim_dev[b] = xcalloc(bytes > 0 ? bytes : 1, 1);
		}
		if (!host_used[b])
			continue;
		x->host_pinned[b] = experiment_buffer_hostmem(x->e, b) == SS_MEM_PINNED;
		if (x->host_pinned[b]) {
			EXEC_CHECK("cudaMallocHost", cudaMallocHost(&x->host[b], bytes));
		} else if ((x->host[b] = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096)) == NULL) {
			*cause =
			    xasprintf("out of host memory for a %.1f MiB pageable array", (double)bytes / (1 << 20));
			return -1;
		}
		memset(x->host[b], 0, bytes);
		x->init[b] = xcalloc(bytes > 0 ? bytes : 1, 1);
		x->sim_host[b] = xcalloc(bytes > 0 ? bytes : 1, 1);
	}
	x->dev_back = xcalloc(bytes > 0 ? bytes : 1, 1);
	return exec_alloc_shared(x, cause);
}

/* exec_prog_init writes each host array's initial contents: exact small floats (whose sums stay exact) for
 * 4-byte elements, distinct integers for 8-byte ones; buffer b's differ from the others'. Device arrays start as
 * zeros (exec_reset). */
static void exec_prog_init(struct cuda_exec *x)
{
	for (int b = 0; b < EXEC_BUFFERS; b++) {
		if (x->init[b] == NULL)
			continue;
		for (uint64_t i = 0; i < x->n; i++) {
			if (x->es == 8)
				((uint64_t *)x->init[b])[i] = (i + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)b;
			else
				((float *)x->init[b])[i] = (float)((i % 4093) + 1 + 8192 * (uint64_t)b);
		}
	}
}

/* exec_prog_simulate fills sim_host and sim_dev with what a step program's run must leave: from the initial
 * arrays, each chunk's steps in order on its elements (chunks own disjoint elements, and a chunk's steps run in
 * order on its stream, so the issue order does not matter): copies copy, memsets fill, add and fma write
 * z = x + y, decrypt undoes its rounds in place (kernels_decrypt_host), host steps add 1. */
static void exec_prog_simulate(struct cuda_exec *x)
{
	const struct ss_experiment *e = x->e;
	size_t es = x->es;

	for (int b = 0; b < EXEC_BUFFERS; b++) {
		if (x->sim_host[b] != NULL)
			memcpy(x->sim_host[b], x->init[b], (size_t)x->n * es);
		if (x->sim_dev[b] != NULL)
			memset(x->sim_dev[b], 0, (size_t)x->n * es);
	}
	for (int c = 0; c < x->ops->nchunks; c++) {
		uint64_t off, cnt;

		planner_chunk(x->n, x->ops->nchunks, x->ops->split, c, &off, &cnt);
		for (int st = 0; st < e->nsteps && cnt > 0; st++) {
			const struct ss_step *s = &e->step[st];
			int b = s->buffer, k = experiment_step_kernel(e, s);
			char *h = b >= 0 && x->sim_host[b] != NULL ? (char *)x->sim_host[b] + off * es : NULL;
			char *d = b >= 0 && x->sim_dev[b] != NULL ? (char *)x->sim_dev[b] + off * es : NULL;

			if (s->kind == SS_STEP_H2D && h != NULL && d != NULL)
				memcpy(d, h, cnt * es);
			else if (s->kind == SS_STEP_D2H && h != NULL && d != NULL)
				memcpy(h, d, cnt * es);
			else if (s->kind == SS_STEP_MEMSET && d != NULL)
				memset(d, s->value, cnt * es);
			else if (s->kind == SS_STEP_HOST && h != NULL)
				exec_prog_host(x, h, cnt);
			else if (s->kind == SS_STEP_KERNEL && k == SS_KERNEL_DECRYPT) {
				uint64_t *v = (uint64_t *)x->sim_dev[b >= 0 ? b : 0] + off;

				kernels_decrypt_host(v, v, cnt, experiment_step_work(e, s));
			} else if (s->kind == SS_STEP_KERNEL && (k == SS_KERNEL_ADD || k == SS_KERNEL_FMA)) {
				const float *xs = (const float *)x->sim_dev[0] + off,
				            *ys = (const float *)x->sim_dev[1] + off;
				float *zs = (float *)x->sim_dev[2] + off;

				/* fma's chain v * 0 + s turns an infinite sum into NaN (kernels_fma.cu) */
				for (uint64_t i = 0; i < cnt; i++)
					zs[i] = k == SS_KERNEL_FMA && isinf(xs[i] + ys[i]) ? NAN : xs[i] + ys[i];
			}
		}
	}
}

/* exec_prog_same: whether element i of got and want agree (4-byte floats: the same bits, or both NaN, whose bits
 * the GPU and the host may make differently). */
static bool exec_prog_same(const struct cuda_exec *x, const void *got, const void *want, uint64_t i)
{
	if (x->es == 8)
		return ((const uint64_t *)got)[i] == ((const uint64_t *)want)[i];
	{
		float g = ((const float *)got)[i], w = ((const float *)want)[i];

		return memcmp(&g, &w, sizeof g) == 0 || (g != g && w != w);
	}
}

/* exec_prog_compare checks n elements of got against want, named "host x" or "device z" in the cause. */
static int exec_prog_compare(const struct cuda_exec *x, const char *side, int b, const void *got, const void *want,
                             char **cause)
{
	for (uint64_t i = 0; i < x->n; i++) {
		if (exec_prog_same(x, got, want, i))
			continue;
		if (x->es == 8)
			*cause =
			    xasprintf("step program check failed: %s %c[%llu] = %#llx, expected %#llx", side, "xyz"[b],
			              (unsigned long long)i, (unsigned long long)((const uint64_t *)got)[i],
			              (unsigned long long)((const uint64_t *)want)[i]);
		else
			*cause = xasprintf("step program check failed: %s %c[%llu] = %g, expected %g", side, "xyz"[b],
			                   (unsigned long long)i, (double)((const float *)got)[i],
			                   (double)((const float *)want)[i]);
		return -1;
	}
	return 0;
}

/* exec_prog_verify compares every host array and every device array after a run with the simulation's. */
static int exec_prog_verify(struct cuda_exec *x, char **cause)
{
	exec_prog_simulate(x);
	for (int b = 0; b < EXEC_BUFFERS; b++) {
		if (x->host[b] != NULL && exec_prog_compare(x, "host", b, x->host[b], x->sim_host[b], cause) < 0)
			return -1;
		if (!x->dev_used[b])
			continue;
		EXEC_CHECK("cudaMemcpy (read a step program's device array)",
		           cudaMemcpy(x->dev_back, x->dev[b], (size_t)x->n * x->es, cudaMemcpyDeviceToHost));
		if (exec_prog_compare(x, "device", b, x->dev_back, x->sim_dev[b], cause) < 0)
			return -1;
	}
	return 0;
}

/* Which buffers the kernel uses and which have H2D / D2H copies. */
static void exec_buffers(const struct cuda_exec *x, bool in[EXEC_BUFFERS], bool out[EXEC_BUFFERS])
{
	for (int b = 0; b < EXEC_BUFFERS; b++)
		in[b] = out[b] = false;
	for (size_t i = 0; i < x->ops->n; i++) {
		const struct ss_op *op = &x->ops->op[i];
		if (op->buffer < 0 || op->buffer >= EXEC_BUFFERS)
			continue;
		if (op->kind == SS_OP_H2D)
			in[op->buffer] = true;
		if (op->kind == SS_OP_D2H)
			out[op->buffer] = true;
	}
}

/* exec_alloc allocates e's device arrays (whole, or a managed allocation per chunk where the op list attaches chunks
 * to streams; managed whole where e's host memory is managed) and a host array for each array the op list copies in
 * or out; then the shared slots (exec_alloc_shared). A step program allocates its own (exec_prog_alloc). Returns 0,
 * or -1 with *cause (an op list copying an array the kernel does not have included). */
static int exec_alloc(struct cuda_exec *x, char **cause)
{
	const struct ss_experiment *e = x->e;
	size_t bytes = (size_t)x->n * x->es;
	bool in[EXEC_BUFFERS], out[EXEC_BUFFERS];

	if (x->prog)
		return exec_prog_alloc(x, cause);
	x->nbuf = experiment_device_arrays(e);
	for (int b = 0; b < x->nbuf; b++) {
		if (e->kernel == SS_KERNEL_TASK && !exec_chunked(x, b)) {
			EXEC_CHECK("cudaMalloc", cudaMalloc(&x->dev[b], bytes));
		} else if (x->per_chunk) {
			x->chunk_mem[b] = xcalloc((size_t)x->ops->nchunks, sizeof *x->chunk_mem[b]);
			for (int c = 0; c < x->ops->nchunks; c++) {
				uint64_t off, cnt;
				planner_chunk(x->n, x->ops->nchunks, x->ops->split, c, &off, &cnt);
				/* Host-attached until the op list attaches it to its stream. */
				EXEC_CHECK("cudaMallocManaged",
				           cudaMallocManaged(&x->chunk_mem[b][c], cnt > 0 ? cnt * x->es : x->es,
				                             cudaMemAttachHost));
			}
		} else if (x->managed) {
			EXEC_CHECK("cudaMallocManaged", cudaMallocManaged(&x->dev[b], bytes, cudaMemAttachGlobal));
		} else {
			EXEC_CHECK("cudaMalloc", cudaMalloc(&x->dev[b], bytes));
		}
	}
	exec_buffers(x, in, out);
	for (int b = 0; b < EXEC_BUFFERS; b++) {
		if ((in[b] || out[b]) && b >= x->nbuf) {
			*cause = xasprintf("op list copies array %d, but the %s kernel has %d arrays", b,
			                   experiment_kernel_name(e->kernel), x->nbuf);
			return -1;
		}
		if (in[b] && exec_host_alloc(x, &x->host_in[b], bytes, cause) < 0)
			return -1;
		if (out[b] && exec_host_alloc(x, &x->host_out[b], bytes, cause) < 0)
			return -1;
	}
	return exec_alloc_shared(x, cause);
}

/* Fill the kernel's inputs of buffer memory (managed: called before every run, so data starts on the host). */
static void exec_fill_managed(struct cuda_exec *x)
{
	for (int c = 0; c < (x->per_chunk ? x->ops->nchunks : 1); c++) {
		uint64_t off = 0, cnt = x->n;
		if (x->per_chunk)
			planner_chunk(x->n, x->ops->nchunks, x->ops->split, c, &off, &cnt);
		if (x->e->kernel == SS_KERNEL_TASK) {
			continue; /* its data is made afresh each run (exec_task_fresh) */
		} else if (experiment_device_arrays(x->e) == 3) {
			kernels_add_fill((float *)exec_ptr(x, 0, c, off), (float *)exec_ptr(x, 1, c, off), off, cnt);
			memset(exec_ptr(x, 2, c, off), 0xff, cnt * x->es);
		} else if (x->e->kernel == SS_KERNEL_DECRYPT) {
			memcpy(exec_ptr(x, 0, c, off), (uint64_t *)x->golden + off, cnt * x->es);
		}
	}
}

/* exec_init_data makes the inputs once, before any run: decrypt's input encrypted on the host (into the copy's host
 * array, or a golden copy managed runs refill from), document 004's task input on the device, add's x and y in their
 * host arrays (managed ones are filled before every run, exec_fill_managed). Returns 0, or -1 with *cause. */
static int exec_init_data(struct cuda_exec *x, const struct ss_sink *progress, char **cause)
{
	const struct ss_experiment *e = x->e;

	if (x->prog) {
		exec_prog_init(x);
		return 0;
	}
	if (e->kernel == SS_KERNEL_DECRYPT) {
		uint64_t *enc;
		if (progress != NULL && progress->progress != NULL) {
			char msg[96];
			snprintf(msg, sizeof msg, "encrypting %llu elements, %u rounds, on the host",
			         (unsigned long long)x->n, e->work);
			progress->progress(progress->ctx, msg);
		}
		if (x->managed) {
			x->golden = aligned_alloc(4096, (x->n * x->es + 4095) / 4096 * 4096);
			if (x->golden == NULL) {
				*cause = xasprintf("out of host memory for the encrypted input");
				return -1;
			}
			enc = x->golden;
		} else if (x->host_in[0] != NULL) {
			enc = x->host_in[0];
		} else {
			*cause = xasprintf("decrypt: the op list copies nothing in");
			return -1;
		}
		kernels_decrypt_encrypt(enc, 0, x->n, e->work);
	} else if (e->kernel == SS_KERNEL_TASK) {
		int *in = xcalloc(x->n > 0 ? x->n : 1, sizeof *in);
		cudaError_t err;

		kernels_task_fill(in, 0, x->n);
		err = cudaMemcpy(x->dev[0], in, x->n * sizeof *in, cudaMemcpyHostToDevice);
		free(in);
		if (err != cudaSuccess)
			return exec_cuda_error("cudaMemcpy (task input)", err, cause);
	} else if (experiment_device_arrays(e) == 3 && !x->managed) {
		if (x->host_in[0] == NULL || x->host_in[1] == NULL) {
			*cause = xasprintf("add: the op list does not copy both x and y in");
			return -1;
		}
		kernels_add_fill(x->host_in[0], x->host_in[1], 0, x->n);
	}
	return 0;
}

/* Wait at the generation gate: returns false when told to quit. */
static bool exec_gate(struct exec_thread *t)
{
	struct cuda_exec *x = t->x;
	bool go;

	pthread_mutex_lock(&x->lock);
	while (x->gen == t->seen)
		pthread_cond_wait(&x->go, &x->lock);
	t->seen = x->gen;
	go = !x->quit;
	pthread_mutex_unlock(&x->lock);
	return go;
}

static void exec_done(struct exec_thread *t)
{
	struct cuda_exec *x = t->x;

	pthread_mutex_lock(&x->lock);
	if (--x->pending == 0)
		pthread_cond_signal(&x->done);
	pthread_mutex_unlock(&x->lock);
}

/* CUPTI's id of stream s (per_thread: a NULL stream means the calling thread's per-thread default stream). Tries
 * without a context first, then with the current one (through the driver's entry point: no libcuda link). */
static bool exec_stream_id(CUstream s, uint8_t per_thread, uint32_t *id)
{
	CUresult (*get_ctx)(CUcontext *) = NULL;
	enum cudaDriverEntryPointQueryResult q;
	CUcontext ctx = NULL;
	void *fn = NULL;

	if (cupti_capture_stream_id(NULL, s, per_thread != 0, id) == 0)
		return true;
	if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, CUDART_VERSION, cudaEnableDefault, &q) !=
	        cudaSuccess ||
	    q != cudaDriverEntryPointSuccess || fn == NULL)
		return false;
	get_ctx = (CUresult(*)(CUcontext *))fn;
	if (get_ctx(&ctx) != CUDA_SUCCESS || ctx == NULL)
		return false;
	return cupti_capture_stream_id(ctx, s, per_thread != 0, id) == 0;
}

/* CUPTI's id of the calling thread's per-thread default stream, however this CUDA names it. */
static bool exec_per_thread_id(uint32_t *id)
{
	return exec_stream_id(NULL, 1, id) || exec_stream_id(CU_STREAM_PER_THREAD, 1, id) ||
	       exec_stream_id(CU_STREAM_PER_THREAD, 0, id);
}

/* CUPTI's id of the legacy default stream, however this CUDA names it. */
static bool exec_legacy_id(uint32_t *id)
{
	return exec_stream_id(NULL, 0, id) || exec_stream_id(CU_STREAM_LEGACY, 0, id);
}

/* Per issuing thread, once: bind the device, learn the thread's ids and its per-thread default stream's id. */
static int exec_thread_setup(struct exec_thread *t, char **cause)
{
	t->os_tid = (uint32_t)syscall(SYS_gettid);
	t->pthread_id = (uint32_t)(uintptr_t)pthread_self();
	EXEC_CHECK("cudaSetDevice", cudaSetDevice(0));
	EXEC_CHECK("cudaStreamQuery(cudaStreamPerThread)", cudaStreamQuery(cudaStreamPerThread));
	t->have_per_thread = exec_per_thread_id(&t->per_thread_id);
	return 0;
}

static int exec_issue_op(struct exec_thread *t, size_t i, char **cause);

/* The stream of thread t's first GPU op (the legacy stream when it has none). */
static cudaStream_t exec_first_stream(const struct exec_thread *t)
{
	const struct cuda_exec *x = t->x;

	for (size_t k = 0; k < t->nops; k++)
		if (planner_gpu_op(x->ops->op[t->ops[k]].kind))
			return exec_stream(x, x->ops->op[t->ops[k]].stream);
	return cudaStreamLegacy;
}

/* The idle stream issuing thread t's start events go to: its own with several threads (cuda_exec_setup). */
static cudaStream_t exec_timer(const struct cuda_exec *x, int t)
{
	return x->timers != NULL ? x->timers[t] : x->timer;
}

/* Priming, before t0 in every run: the first traced calls after CUPTI's kinds are enabled pay one-time costs
 * (many times a later call's: docs/results.md), which is set-up, not the per-operation observer effect. So each
 * issuing thread first makes one of each call it will make (a 64-byte copy each way, a one-thread kernel, an event
 * record, a hidden-call bracket) on the stream of its first op, and waits for them. Done in untraced runs as well,
 * so both twins start alike. Its records start before t0 and are left out. */
static int exec_prime(struct exec_thread *t, char **cause)
{
	struct cuda_exec *x = t->x;
	cudaStream_t st = exec_first_stream(t);
	cudaError_t err;

	cupti_capture_hide_begin();
	if ((err = cudaMemcpyAsync(x->d_prime, x->h_prime, 64, cudaMemcpyHostToDevice, st)) == cudaSuccess &&
	    (err = (cudaError_t)kernels_touch_launch((uint32_t *)x->d_prime, 1, st)) == cudaSuccess &&
	    (err = cudaMemcpyAsync(x->h_prime, x->d_prime, 64, cudaMemcpyDeviceToHost, st)) == cudaSuccess &&
	    (err = cudaEventRecord(x->start[t->index], exec_timer(x, t->index))) == cudaSuccess &&
	    (err = cudaStreamSynchronize(exec_timer(x, t->index))) == cudaSuccess)
		err = cudaStreamSynchronize(st);
	cupti_capture_hide_end();
	if (err != cudaSuccess)
		return exec_cuda_error("priming the run", err, cause);
	/* CUPTI is attached again for each traced run: the thread's per-thread stream must keep the id it had */
	if (x->traced_now && t->have_per_thread) {
		uint32_t id = 0;

		if (!exec_per_thread_id(&id) || id != t->per_thread_id) {
			*cause = xasprintf("CUPTI attached again gave thread %d's per-thread stream id %u, not %u as "
			                   "before (SS_CUPTI_DETACH=0 keeps CUPTI attached)",
			                   t->index, id, t->per_thread_id);
			return -1;
		}
	}
	return 0;
}

/* Issue thread t's ops in order; the first failure stops it. */
static int exec_issue(struct exec_thread *t, char **cause)
{
	for (size_t k = 0; k < t->nops; k++)
		if (exec_issue_op(t, t->ops[k], cause) < 0)
			return -1;
	return 0;
}

static bool exec_priming(const struct exec_thread *t)
{
	return t->x->priming;
}

/* exec_worker is an issuing thread's body: sets itself up, then for each run the gate opens it primes or issues its
 * ops, reporting done (with the first error, after which it issues nothing) until the gate closes. */
static void *exec_worker(void *arg)
{
	struct exec_thread *t = arg;

	exec_thread_setup(t, &t->cause);
	exec_done(t);
	while (exec_gate(t)) {
		if (t->cause == NULL) {
			if (exec_priming(t))
				exec_prime(t, &t->cause);
			else
				exec_issue(t, &t->cause);
		}
		exec_done(t);
	}
	return NULL;
}

/* Run one phase on every worker and wait for all of them. */
static void exec_phase(struct cuda_exec *x, bool quit)
{
	pthread_mutex_lock(&x->lock);
	x->quit = quit;
	x->pending = 0;
	for (int t = 0; t < x->nthreads; t++)
		x->pending += x->th[t].started;
	x->gen++;
	pthread_cond_broadcast(&x->go);
	while (!quit && x->pending > 0)
		pthread_cond_wait(&x->done, &x->lock);
	pthread_mutex_unlock(&x->lock);
}

/* exec_threads_start starts the issuing threads (or, with one, sets up the calling thread) and waits until each has
 * set itself up (exec_thread_setup: its streams and events). Returns 0, or -1 with *cause naming the thread that
 * failed. */
static int exec_threads_start(struct cuda_exec *x, char **cause)
{
	if (!x->workers)
		return exec_thread_setup(&x->th[0], cause);
	pthread_mutex_lock(&x->lock);
	x->pending = x->nthreads;
	pthread_mutex_unlock(&x->lock);
	for (int t = 0; t < x->nthreads; t++) {
		if (pthread_create(&x->th[t].handle, NULL, exec_worker, &x->th[t]) != 0) {
			pthread_mutex_lock(&x->lock);
			x->pending -= x->nthreads - t;
			pthread_mutex_unlock(&x->lock);
			*cause = xasprintf("could not start host thread %d of %d", t + 1, x->nthreads);
			break;
		}
		x->th[t].started = true;
	}
	pthread_mutex_lock(&x->lock);
	while (x->pending > 0)
		pthread_cond_wait(&x->done, &x->lock);
	pthread_mutex_unlock(&x->lock);
	if (*cause != NULL)
		return -1;
	for (int t = 0; t < x->nthreads; t++)
		if (x->th[t].cause != NULL) {
			*cause = xasprintf("host thread %d: %s", t, x->th[t].cause);
			return -1;
		}
	return 0;
}

/* exec_check_memory: 0 when the experiment's arrays and its result slots fit in the device's free memory; else -1
 * and *cause (experiment_fits_memory). Sets res->memory_bytes to the device's total. */
static int exec_check_memory(struct cuda_exec *x, const char *device, struct ss_run_result *res, char **cause)
{
	size_t free_b = 0, total = 0;

	EXEC_CHECK("cudaMemGetInfo", cudaMemGetInfo(&free_b, &total));
	res->memory_bytes = total;
	return experiment_fits_memory(x->e, (uint64_t)x->nslots * 4, free_b, total, device, cause);
}

int cuda_exec_setup(struct cuda_exec **xp, const struct ss_experiment *e, const struct ss_oplist *ops,
                    const struct ss_sink *progress, struct ss_run_result *res, char **cause)
{
	struct cuda_exec *x = xcalloc(1, sizeof *x);
	struct cudaDeviceProp prop;
	const char *v;
	int count = 0;
	cudaError_t err;

	*xp = NULL;
	*cause = NULL;
	x->e = e;
	x->ops = ops;
	x->n = e->elements;
	x->es = e->elem_size;
	x->nstreams = e->streams;
	x->nevents = ops->nevents;
	x->nthreads = e->threads > 1 ? e->threads : 1;
	x->workers = e->threads > 1;
	x->prog = e->nsteps > 0;
	x->managed = !x->prog && (e->hostmem == SS_MEM_MANAGED_ATTACH || e->hostmem == SS_MEM_MANAGED_PREFETCH);
	x->per_chunk = !x->prog && e->hostmem == SS_MEM_MANAGED_ATTACH;
	x->pinned = e->hostmem == SS_MEM_PINNED;
	x->spin = !x->prog && e->kernel == SS_KERNEL_SPIN;
	for (size_t i = 0; x->prog && i < ops->n; i++)
		x->spin = x->spin || (ops->op[i].kind == SS_OP_KERNEL && ops->op[i].chunk >= 0 &&
		                      ops->op[i].kernel == SS_KERNEL_SPIN);
	x->th = xcalloc((size_t)x->nthreads, sizeof *x->th);
	for (int t = 0; t < x->nthreads; t++) {
		x->th[t].x = x;
		x->th[t].index = t;
	}
	pthread_mutex_init(&x->lock, NULL);
	pthread_cond_init(&x->go, NULL);
	pthread_cond_init(&x->done, NULL);
	x->nbuf = experiment_device_arrays(e);
	if (experiment_validate(e, cause) != 0)
		goto fail;
	exec_plan(x);

	err = cudaGetDeviceCount(&count);
	if (err != cudaSuccess) {
		exec_cuda_error("cudaGetDeviceCount", err, cause);
		goto fail;
	}
	if (count < 1) {
		*cause = xasprintf("no CUDA device found");
		goto fail;
	}
	if (e->devices > count) {
		*cause = xasprintf("--devices %d: this machine has %d CUDA device%s (valid is 1..%d)", e->devices,
		                   count, count == 1 ? "" : "s", count);
		goto fail;
	}
	if (e->devices > 1) {
		/* the op list spans every device's streams (planner_build); issuing it needs cudaSetDevice per device's
		 * streams and buffers and cudaMemcpyPeerAsync for --peer, which this backend does not do yet */
		*cause =
		    xasprintf("--devices %d: the CUDA backend runs one device; run it on the model (--backend model)",
		              e->devices);
		goto fail;
	}
	if ((err = cudaSetDevice(0)) != cudaSuccess || (err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess ||
	    (err = cudaFree(NULL)) != cudaSuccess) {
		exec_cuda_error("CUDA initialisation of device 0", err, cause);
		goto fail;
	}
	snprintf(res->device, sizeof res->device, "%.*s", (int)sizeof res->device - 1, prop.name);
	res->copy_engines = prop.asyncEngineCount;
	if (x->managed && !prop.concurrentManagedAccess) {
		*cause =
		    xasprintf("%s lacks concurrent managed access, which managed-memory experiments need", prop.name);
		goto fail;
	}
	if (exec_check_memory(x, prop.name, res, cause) < 0 || exec_alloc(x, cause) < 0 ||
	    exec_init_data(x, progress, cause) < 0)
		goto fail;

	x->streams = xcalloc((size_t)x->nstreams, sizeof *x->streams);
	x->stream_ids = xcalloc((size_t)x->nstreams, sizeof *x->stream_ids);
	for (int s = 0; s < x->nstreams; s++) {
		err = cudaStreamCreateWithFlags(&x->streams[s],
		                                e->nonblocking ? cudaStreamNonBlocking : cudaStreamDefault);
		if (err != cudaSuccess) {
			exec_cuda_error("cudaStreamCreateWithFlags", err, cause);
			goto fail;
		}
		if (!exec_stream_id((CUstream)x->streams[s], 0, &x->stream_ids[s])) {
			*cause = xasprintf("cuptiGetStreamIdEx failed for stream %d", s);
			goto fail;
		}
	}
	x->have_null_query = exec_legacy_id(&x->null_query);
	x->events = xcalloc((size_t)x->nevents + 1, sizeof *x->events);
	for (int i = 0; i < x->nevents; i++)
		if ((err = cudaEventCreate(&x->events[i])) != cudaSuccess) {
			exec_cuda_error("cudaEventCreate", err, cause);
			goto fail;
		}
	if ((err = cudaStreamCreateWithFlags(&x->timer, cudaStreamNonBlocking)) != cudaSuccess) {
		exec_cuda_error("cudaStreamCreateWithFlags (timer)", err, cause);
		goto fail;
	}
	x->start = xcalloc((size_t)x->nthreads, sizeof *x->start);
	x->stop = xcalloc((size_t)x->nstop + 1, sizeof *x->stop);
	for (int i = 0; i < x->nthreads; i++)
		if ((err = cudaEventCreate(&x->start[i])) != cudaSuccess) {
			exec_cuda_error("cudaEventCreate", err, cause);
			goto fail;
		}
	for (int i = 0; i < x->nstop; i++)
		if ((err = cudaEventCreate(&x->stop[i])) != cudaSuccess) {
			exec_cuda_error("cudaEventCreate", err, cause);
			goto fail;
		}
	x->br_ev = xcalloc(2 * x->nbr + 1, sizeof *x->br_ev);
	x->br_idle = xcalloc(x->nbr + 1, sizeof *x->br_idle);
	x->br_always = (v = getenv("SS_BRACKETS")) != NULL && strcmp(v, "always") == 0;
	/* Several issuing threads record their start events on timer streams of their own: on one shared stream the
	 * cudaEvent makespan strays further from the CUPTI span (docs/results.md; diagnostic SS_TIMER=shared keeps the
	 * one stream). */
	v = getenv("SS_TIMER");
	x->timer_before = v != NULL && strcmp(v, "before") == 0;
	if (x->workers && !(v != NULL && strcmp(v, "shared") == 0)) {
		x->timers = xcalloc((size_t)x->nthreads, sizeof *x->timers);
		for (int i = 0; i < x->nthreads; i++)
			if ((err = cudaStreamCreateWithFlags(&x->timers[i], cudaStreamNonBlocking)) != cudaSuccess) {
				exec_cuda_error("cudaStreamCreateWithFlags (timer)", err, cause);
				goto fail;
			}
	}
	for (size_t i = 0; experiment_prefetch_events(e) && i < 2 * x->nbr; i++)
		if ((err = cudaEventCreate(&x->br_ev[i])) != cudaSuccess) {
			exec_cuda_error("cudaEventCreate (prefetch timing)", err, cause);
			goto fail;
		}
	if (exec_threads_start(x, cause) < 0)
		goto fail;
	x->per_thread_ids = xcalloc((size_t)x->nthreads, sizeof *x->per_thread_ids);
	for (int t = 0; t < x->nthreads; t++)
		if (x->th[t].have_per_thread)
			x->per_thread_ids[x->nper_thread++] = x->th[t].per_thread_id;
	*xp = x;
	return 0;
fail:
	cuda_exec_free(x);
	return -1;
}

/* A failed op: name the call, the op and the error. */
static int exec_op_error(const struct cuda_exec *x, const struct ss_op *op, cudaError_t err, char **cause)
{
	char desc[160];

	planner_op_describe(x->ops, op, desc, sizeof desc);
	*cause = xasprintf("%s: %s (op %s)", planner_op_kind_name(op->kind), cudaGetErrorString(err), desc);
	return -1;
}

/* exec_kernel launches kernel op (op list index i) on st: the experiment's kernel over op's chunk of the arrays
 * (document 004's task kernels by op->buffer), or the touch and spin kernels that write their result slot. Returns
 * the launch's error. */
static cudaError_t exec_kernel(struct exec_thread *t, const struct ss_op *op, size_t i, cudaStream_t st)
{
	struct cuda_exec *x = t->x;
	int c = op->chunk;

	if (op->chunk < 0)
		return (cudaError_t)kernels_touch_launch(x->d_slots + x->slot[i], op->id, st);
	switch (op->kernel) {
	case SS_KERNEL_ADD:
		return (cudaError_t)kernels_add_launch((const float *)exec_ptr(x, 0, c, op->offset),
		                                       (const float *)exec_ptr(x, 1, c, op->offset),
		                                       (float *)exec_ptr(x, 2, c, op->offset), op->count,
		                                       planner_op_work(x->e, op), op->grid, op->block, st);
	case SS_KERNEL_FMA:
		return (cudaError_t)kernels_fma_launch((const float *)exec_ptr(x, 0, c, op->offset),
		                                       (const float *)exec_ptr(x, 1, c, op->offset),
		                                       (float *)exec_ptr(x, 2, c, op->offset), op->count,
		                                       planner_op_work(x->e, op), op->grid, op->block, st);
	case SS_KERNEL_DECRYPT:
		return (cudaError_t)kernels_decrypt_launch(
		    (uint64_t *)exec_ptr(x, op->buffer >= 0 ? op->buffer : 0, c, op->offset), op->count,
		    planner_op_work(x->e, op), op->grid, op->block, st);
	case SS_KERNEL_TASK:
		if (op->buffer == 1)
			return (cudaError_t)kernels_task_transform_launch((const int *)exec_ptr(x, 0, c, op->offset),
			                                                  (int *)exec_ptr(x, 1, c, op->offset),
			                                                  op->count, op->grid, op->block, st);
		return (cudaError_t)kernels_task_convert_launch((int *)exec_ptr(x, 2, c, op->offset),
		                                                (const int *)exec_ptr(x, 1, c, op->offset), op->count,
		                                                op->grid, op->block, st);
	default:
		return (cudaError_t)kernels_spin_launch(x->d_slots + x->slot[i], planner_op_work(x->e, op), st);
	}
}

/* In traced runs, the event before (side 0) or after (side 1) op i when CUPTI has no record of it (bracket.h);
 * hidden from the captured calls like the other timing events. No event goes before an op whose stream is idle
 * (cudaStreamQuery): on an idle stream a prefetch starts migrating during its call, which an event in front of it
 * would hold back, and those events slow the traced run down (docs/results.md); the op's call gives its start
 * instead (bracket_time.idle). */
static cudaError_t exec_bracket(struct cuda_exec *x, size_t i, int side, cudaStream_t st)
{
	long k = x->br_of_op[i];
	cudaError_t err = cudaSuccess;

	if (!x->traced_now || k < 0 || !experiment_prefetch_events(x->e))
		return cudaSuccess;
	if (side == 0) {
		x->br_idle[k] = false;
		if (!x->br_always) {
			cupti_capture_hide_begin();
			err = cudaStreamQuery(st);
			cupti_capture_hide_end();
			x->br_idle[k] = err == cudaSuccess;
			if (err == cudaErrorNotReady)
				err = cudaSuccess;
		}
	}
	if (err == cudaSuccess && !(side == 0 && x->br_idle[k])) {
		/* tagged: with CUPTI's event times on, the batch gets this event's GPU time (cuda_exec_bracket_tag) */
		cupti_capture_tag_begin(cuda_exec_bracket_tag(k, side));
		err = cudaEventRecord(x->br_ev[2 * k + side], st);
		cupti_capture_tag_end();
	}
	return err;
}

/* Whether the start event goes before op's call: planner_start_before, or always (diagnostic SS_TIMER=before). */
static bool exec_timer_before(const struct cuda_exec *x, const struct ss_op *op)
{
	return x->timer_before || planner_start_before(x->e, op);
}

/* Record issuing thread t's start event on the idle timer stream, hidden from the captured calls. */
static int exec_start(struct cuda_exec *x, int t, char **cause)
{
	cudaError_t err;

	cupti_capture_hide_begin();
	err = cudaEventRecord(x->start[t], exec_timer(x, t));
	cupti_capture_hide_end();
	if (err != cudaSuccess)
		return exec_cuda_error("cudaEventRecord (start timer)", err, cause);
	return 0;
}

/* exec_issue_op issues op i of the op list from thread t, as the op list writes it: its CUDA call on its stream
 * (copies, memsets, kernels, events, waits, attaches, prefetches, syncs) or its host work, with the timer's events
 * around it where the experiment places them and, in traced runs, the events that time it when CUPTI records
 * nothing of it. Returns 0, or -1 with *cause naming the call and the op. */
static int exec_issue_op(struct exec_thread *t, size_t i, char **cause)
{
	struct cuda_exec *x = t->x;
	const struct ss_op *op = &x->ops->op[i];
	cudaStream_t st = exec_stream(x, op->stream);
	size_t bytes = (size_t)op->count * x->es;
	struct cudaMemLocation loc;
	cudaError_t err = cudaSuccess;

	if (x->start_at[i] >= 0 && exec_timer_before(x, op) && exec_start(x, x->start_at[i], cause) < 0)
		return -1;
	if (x->prog && (op->kind == SS_OP_H2D || op->kind == SS_OP_D2H || op->kind == SS_OP_HOST)) {
		/* a step program's copies and host steps: buffer b's one host array */
		char *h = (char *)x->host[op->buffer] + op->offset * x->es, *d = NULL;

		if (op->kind != SS_OP_HOST)
			d = exec_ptr(x, op->buffer, op->chunk, op->offset);
		if (op->kind == SS_OP_HOST) {
			x->host_t0[i] = cupti_capture_timestamp();
			exec_prog_host(x, h, op->count);
			x->host_t1[i] = cupti_capture_timestamp();
		} else {
			err = op->kind == SS_OP_H2D ? cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, st)
			                            : cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, st);
		}
		goto issued;
	}
	switch (op->kind) {
	case SS_OP_MEMSET:
		err = cudaMemsetAsync(exec_ptr(x, op->buffer, op->chunk, op->offset), op->value, bytes, st);
		break;
	case SS_OP_H2D:
		err = cudaMemcpyAsync(exec_ptr(x, op->buffer, op->chunk, op->offset),
		                      (char *)x->host_in[op->buffer] + op->offset * x->es, bytes,
		                      cudaMemcpyHostToDevice, st);
		break;
	case SS_OP_D2H:
		err =
		    cudaMemcpyAsync((char *)x->host_out[op->buffer] + op->offset * x->es,
		                    exec_ptr(x, op->buffer, op->chunk, op->offset), bytes, cudaMemcpyDeviceToHost, st);
		break;
	case SS_OP_KERNEL:
		err = exec_kernel(t, op, i, st);
		break;
	case SS_OP_ATTACH:
		if (!x->per_chunk || op->buffer < 0 || op->buffer >= x->nbuf || op->chunk < 0) {
			*cause = xasprintf("cudaStreamAttachMemAsync needs one managed allocation per chunk "
			                   "(host memory managed-attach)");
			return -1;
		}
		err = cudaStreamAttachMemAsync(st, x->chunk_mem[op->buffer][op->chunk], 0, cudaMemAttachSingle);
		break;
	case SS_OP_FREE:
		/* run_task's cudaFree(data): the next run's exec_task_fresh allocates it again */
		if (!x->per_chunk || x->chunk_mem[1] == NULL || op->chunk < 0) {
			*cause = xasprintf(
			    "cudaFree of the task data needs one managed allocation per chunk (--kernel task)");
			return -1;
		}
		err = cudaFree(x->chunk_mem[1][op->chunk]);
		x->chunk_mem[1][op->chunk] = NULL;
		break;
	case SS_OP_PREFETCH_H2D:
	case SS_OP_PREFETCH_D2H:
		if (!x->managed || op->buffer < 0 || op->buffer >= x->nbuf) {
			*cause = xasprintf("cudaMemPrefetchAsync needs managed memory (host memory managed-prefetch)");
			return -1;
		}
		memset(&loc, 0, sizeof loc);
		loc.type = op->kind == SS_OP_PREFETCH_H2D ? cudaMemLocationTypeDevice : cudaMemLocationTypeHost;
		loc.id = 0;
		if ((err = exec_bracket(x, i, 0, st)) != cudaSuccess)
			return exec_cuda_error("cudaEventRecord (prefetch timing)", err, cause);
		err = cudaMemPrefetchAsync(exec_ptr(x, op->buffer, op->chunk, op->offset), bytes, loc, 0, st);
		if (err == cudaSuccess && (err = exec_bracket(x, i, 1, st)) != cudaSuccess)
			return exec_cuda_error("cudaEventRecord (prefetch timing)", err, cause);
		break;
	case SS_OP_EVENT_RECORD:
		err = cudaEventRecord(x->events[op->event], st);
		break;
	case SS_OP_EVENT_SYNC:
		err = cudaEventSynchronize(x->events[op->event]);
		break;
	case SS_OP_EVENT_QUERY:
		/* document 001's cudaEventQuery(start): its answer is not used, and not ready yet is no error */
		err = cudaEventQuery(x->events[op->event]);
		if (err == cudaErrorNotReady)
			err = cudaSuccess;
		break;
	case SS_OP_STREAM_SYNC:
		err = cudaStreamSynchronize(st);
		break;
	case SS_OP_DEVICE_SYNC:
		err = cudaDeviceSynchronize();
		break;
	case SS_OP_GET_LAST_ERROR:
		err = cudaGetLastError();
		break;
	case SS_OP_HOST:
		if (x->e->kernel != SS_KERNEL_TASK || op->chunk < 0) {
			*cause = xasprintf("host_process needs the task kernel's managed data (--kernel task)");
			return -1;
		}
		x->host_t0[i] = cupti_capture_timestamp();
		kernels_task_host((int *)exec_ptr(x, 1, op->chunk, op->offset), op->count);
		x->host_t1[i] = cupti_capture_timestamp();
		break;
	default:
		*cause = xasprintf("unknown op kind %d in the op list", op->kind);
		return -1;
	}
issued:
	if (err != cudaSuccess)
		return exec_op_error(x, op, err, cause);
	if (x->start_at[i] >= 0 && !exec_timer_before(x, op) && exec_start(x, x->start_at[i], cause) < 0)
		return -1;
	if (x->stop_after[i] >= 0) {
		cupti_capture_hide_begin();
		err = cudaEventRecord(x->stop[x->stop_after[i]], x->stop_on_legacy ? cudaStreamLegacy : st);
		cupti_capture_hide_end();
		if (err != cudaSuccess)
			return exec_cuda_error("cudaEventRecord (stop timer)", err, cause);
	}
	return 0;
}

/* exec_task_fresh makes the task kernel's per-chunk data anew (cudaMallocManaged, host-attached), as document
 * 004's run_task allocates its data each time it runs: the attach and the first touches then meet memory in the
 * state the document's do, not the pages an earlier run or a fill left on the host or the device (transform writes
 * the data before anything reads it, so it needs no contents). */
static int exec_task_fresh(struct cuda_exec *x, char **cause)
{
	if (!x->per_chunk || x->chunk_mem[1] == NULL)
		return 0;
	for (int c = 0; c < x->ops->nchunks; c++) {
		uint64_t off, cnt;

		planner_chunk(x->n, x->ops->nchunks, x->ops->split, c, &off, &cnt);
		EXEC_CHECK("cudaFree (task data)", cudaFree(x->chunk_mem[1][c]));
		x->chunk_mem[1][c] = NULL;
		EXEC_CHECK("cudaMallocManaged (task data)",
		           cudaMallocManaged(&x->chunk_mem[1][c], cnt > 0 ? cnt * x->es : x->es, cudaMemAttachHost));
	}
	return 0;
}

/* Put outputs and slots back to a state a correct run must overwrite (a step program: every array to its
 * initial contents, exec_prog_init's). */
static int exec_reset(struct cuda_exec *x, char **cause)
{
	for (int b = 0; x->prog && b < EXEC_BUFFERS; b++) {
		if (x->host[b] != NULL)
			memcpy(x->host[b], x->init[b], (size_t)x->n * x->es);
		if (x->dev_used[b])
			EXEC_CHECK("cudaMemset (step program arrays)", cudaMemset(x->dev[b], 0, (size_t)x->n * x->es));
	}
	if (x->prog) {
		if (x->nslots > 0)
			EXEC_CHECK("cudaMemcpy (reset slots)",
			           cudaMemcpy(x->d_slots, x->seeds, (size_t)x->nslots * sizeof *x->seeds,
			                      cudaMemcpyHostToDevice));
		EXEC_CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
		return 0;
	}
	if (x->e->kernel == SS_KERNEL_TASK) {
		EXEC_CHECK("cudaMemset (task output)", cudaMemset(x->dev[2], 0xff, (size_t)x->n * x->es));
		if (exec_task_fresh(x, cause) < 0)
			return -1;
	}
	if (x->managed) {
		exec_fill_managed(x);
	} else {
		for (int b = 0; b < EXEC_BUFFERS; b++)
			if (x->host_out[b] != NULL)
				memset(x->host_out[b], 0xff, (size_t)x->n * x->es);
	}
	if (x->nslots > 0)
		EXEC_CHECK(
		    "cudaMemcpy (reset slots)",
		    cudaMemcpy(x->d_slots, x->seeds, (size_t)x->nslots * sizeof *x->seeds, cudaMemcpyHostToDevice));
	EXEC_CHECK("cudaDeviceSynchronize", cudaDeviceSynchronize());
	return 0;
}

/* exec_verify checks a run's results on the host: every result slot (spin and default-stream kernels), then the
 * step program's arrays, document 004's out (2 x in - 1), add's z = x + y or decrypt's identity, chunk by chunk.
 * Returns 0, or -1 with *cause naming the first wrong element and what it should be. */
static int exec_verify(struct cuda_exec *x, char **cause)
{
	uint64_t bad = 0;

	if (x->nslots > 0) {
		uint32_t *got = xcalloc((size_t)x->nslots, sizeof *got);
		cudaError_t err = cudaMemcpy(got, x->d_slots, (size_t)x->nslots * sizeof *got, cudaMemcpyDeviceToHost);
		if (err != cudaSuccess) {
			free(got);
			return exec_cuda_error("cudaMemcpy (read slots)", err, cause);
		}
		for (int s = 0; s < x->nslots; s++)
			if (got[s] != x->expect[s]) {
				*cause =
				    xasprintf("kernel check failed: %s slot %d holds %#x, expected %#x",
				              s < (x->spin ? x->ops->nchunks : 0) ? "spin" : "default-stream kernel", s,
				              got[s], x->expect[s]);
				free(got);
				return -1;
			}
		free(got);
	}
	if (x->prog)
		return exec_prog_verify(x, cause);
	if (x->e->kernel == SS_KERNEL_TASK) {
		/* document 004's out, read back after the run */
		int *in = xcalloc(x->n > 0 ? x->n : 1, sizeof *in), *out = xcalloc(x->n > 0 ? x->n : 1, sizeof *out);
		cudaError_t err = cudaMemcpy(out, x->dev[2], x->n * sizeof *out, cudaMemcpyDeviceToHost);
		int rc = 0;

		kernels_task_fill(in, 0, x->n);
		if (err != cudaSuccess)
			rc = exec_cuda_error("cudaMemcpy (read task output)", err, cause);
		else if (kernels_task_verify(in, out, x->n, &bad) < 0) {
			*cause = xasprintf("kernel check failed: task out[%llu] = %d, expected 2 x %d - 1",
			                   (unsigned long long)bad, out[bad], in[bad]);
			rc = -1;
		}
		free(in);
		free(out);
		return rc;
	}
	for (int c = 0; c < (x->per_chunk ? x->ops->nchunks : 1); c++) {
		uint64_t off = 0, cnt = x->n;
		if (x->per_chunk)
			planner_chunk(x->n, x->ops->nchunks, x->ops->split, c, &off, &cnt);
		if (experiment_device_arrays(x->e) == 3) {
			const float *xs = x->managed ? (const float *)exec_ptr(x, 0, c, off) : x->host_in[0];
			const float *ys = x->managed ? (const float *)exec_ptr(x, 1, c, off) : x->host_in[1];
			const float *zs = x->managed ? (const float *)exec_ptr(x, 2, c, off) : x->host_out[2];
			if (zs == NULL) {
				*cause = xasprintf("add: the op list copies no result back");
				return -1;
			}
			if (kernels_add_verify(xs, ys, zs, cnt, &bad) < 0) {
				*cause = xasprintf("kernel check failed: %s z[%llu] = %g, expected %g + %g",
				                   experiment_kernel_name(x->e->kernel),
				                   (unsigned long long)(off + bad), zs[bad], xs[bad], ys[bad]);
				return -1;
			}
		} else if (x->e->kernel == SS_KERNEL_DECRYPT) {
			const uint64_t *d = x->managed ? (const uint64_t *)exec_ptr(x, 0, c, off) : x->host_out[0];
			if (d == NULL) {
				*cause = xasprintf("decrypt: the op list copies no result back");
				return -1;
			}
			if (kernels_decrypt_verify(d, off, cnt, &bad) < 0) {
				*cause = xasprintf("kernel check failed: decrypt[%llu] = %#llx, expected the identity",
				                   (unsigned long long)(off + bad), (unsigned long long)d[bad]);
				return -1;
			}
		}
	}
	return 0;
}

/* The issuing thread whose start event is the run's time reference: the first that has one, -1 if none. */
static int exec_ref(const struct cuda_exec *x)
{
	for (int t = 0; t < x->nthreads; t++)
		for (size_t k = 0; k < x->th[t].nops; k++)
			if (x->start_at[x->th[t].ops[k]] == t)
				return t;
	return -1;
}

/* The event makespan: last stop minus first start, in ns. */
static int exec_elapsed(struct cuda_exec *x, uint64_t *ns, char **cause)
{
	int ref = exec_ref(x);
	float lo = 0, hi = 0, ms;

	*ns = 0;
	if (ref < 0 || x->nstop == 0)
		return 0;
	for (int t = 0; t < x->nthreads; t++) {
		bool has = false;
		for (size_t k = 0; k < x->th[t].nops && !has; k++)
			has = x->start_at[x->th[t].ops[k]] == t;
		if (!has)
			continue;
		EXEC_CHECK("cudaEventElapsedTime", cudaEventElapsedTime(&ms, x->start[ref], x->start[t]));
		if (ms < lo)
			lo = ms;
	}
	for (int j = 0; j < x->nstop; j++) {
		EXEC_CHECK("cudaEventElapsedTime", cudaEventElapsedTime(&ms, x->start[ref], x->stop[j]));
		if (j == 0 || ms > hi)
			hi = ms;
	}
	*ns = hi > lo ? (uint64_t)((double)(hi - lo) * 1e6 + 0.5) : 0;
	return 0;
}

int cuda_exec_run(struct cuda_exec *x, bool traced, uint64_t *t0, uint64_t *events_ns, char **cause)
{
	cudaError_t err;
	int rc = 0;

	*cause = NULL;
	if (exec_reset(x, cause) < 0)
		return -1;
	x->traced_now = traced;
	if (traced && cupti_capture_enable(true, cause) < 0)
		return -1;
	if (x->workers) {
		x->priming = true;
		exec_phase(x, false);
		x->priming = false;
		for (int t = 0; t < x->nthreads && rc == 0; t++)
			if (x->th[t].cause != NULL) {
				*cause = xasprintf("host thread %d: %s", t, x->th[t].cause);
				rc = -1;
			}
	} else {
		rc = exec_prime(&x->th[0], cause);
	}
	*t0 = cupti_capture_timestamp();
	if (rc < 0) {
		/* fall through to the common clean-up below */
	} else if (x->workers) {
		exec_phase(x, false);
		for (int t = 0; t < x->nthreads && rc == 0; t++)
			if (x->th[t].cause != NULL) {
				*cause = xasprintf("host thread %d: %s", t, x->th[t].cause);
				rc = -1;
			}
		for (int t = 0; t < x->nthreads; t++) {
			free(x->th[t].cause);
			x->th[t].cause = NULL;
		}
	} else {
		rc = exec_issue(&x->th[0], cause);
	}
	cupti_capture_hide_begin();
	err = cudaDeviceSynchronize();
	cupti_capture_hide_end();
	if (traced) {
		char *why = NULL;
		if (cupti_capture_enable(false, &why) < 0 && rc == 0) {
			*cause = why;
			rc = -1;
		} else {
			free(why);
		}
	}
	if (rc < 0)
		return -1;
	if (err != cudaSuccess)
		return exec_cuda_error("cudaDeviceSynchronize (end of run)", err, cause);
	if (exec_elapsed(x, events_ns, cause) < 0)
		return -1;
	return exec_verify(x, cause);
}

uint64_t cuda_exec_bracket_tag(long k, int side)
{
	return 2 * (uint64_t)k + (uint64_t)side + 1;
}

/* The GPU time CUPTI gave the event tagged tag, 0 when none. */
static uint64_t exec_event_time(const struct cupti_capture_event *ev, size_t nev, uint64_t tag)
{
	for (size_t i = 0; i < nev; i++)
		if (ev[i].tag == tag)
			return ev[i].ns;
	return 0;
}

int cuda_exec_host_records(const struct cuda_exec *x, struct cupti_capture_rec **recs, size_t *n)
{
	size_t cnt = 0, cap = 0;

	*recs = NULL;
	for (size_t i = 0; i < x->ops->n; i++) {
		const struct ss_op *op = &x->ops->op[i];
		int t = op->thread >= 0 && op->thread < x->nthreads ? op->thread : 0;
		struct cupti_capture_rec *r;

		if (op->kind != SS_OP_HOST || x->host_t1[i] <= x->host_t0[i])
			continue;
		r = VEC_PUSH(*recs, cnt, cap, 16);
		memset(r, 0, sizeof *r);
		r->r.kind = SS_KIND_MARKER;
		r->r.stream = SS_STREAM_HOST;
		r->r.start = x->host_t0[i];
		r->r.end = x->host_t1[i];
		r->r.thread = x->th[t].os_tid;
		r->r.bytes = op->count * x->es;
		r->r.correlation = op->id;
		r->name = xstrdup("host_process");
	}
	*n = cnt;
	return 0;
}

int cuda_exec_brackets(const struct cuda_exec *x, const struct cupti_capture_event *ev, size_t nev,
                       struct bracket_time **bt, size_t *n, char **cause)
{
	int ref = exec_ref(x);
	float ms[2];

	*bt = NULL;
	*n = 0;
	if (x->nbr == 0 || ref < 0 || !experiment_prefetch_events(x->e))
		return 0;
	*bt = xcalloc(x->nbr, sizeof **bt);
	for (size_t i = 0; i < x->ops->n; i++) {
		long k = x->br_of_op[i];
		if (k < 0)
			continue;
		for (int side = x->br_idle[k] ? 1 : 0; side < 2; side++) {
			cudaError_t err = cudaEventElapsedTime(&ms[side], x->start[ref], x->br_ev[2 * k + side]);
			if (err != cudaSuccess) {
				free(*bt);
				*bt = NULL;
				return exec_cuda_error("cudaEventElapsedTime (prefetch timing)", err, cause);
			}
		}
		(*bt)[*n].op = i;
		(*bt)[*n].idle = x->br_idle[k];
		(*bt)[*n].before_ms = x->br_idle[k] ? ms[1] : ms[0];
		(*bt)[*n].after_ms = ms[1];
		(*bt)[*n].before_ns = x->br_idle[k] ? 0 : exec_event_time(ev, nev, cuda_exec_bracket_tag(k, 0));
		(*bt)[*n].after_ns = exec_event_time(ev, nev, cuda_exec_bracket_tag(k, 1));
		(*n)++;
	}
	return 0;
}

void cuda_exec_map(const struct cuda_exec *x, struct cupti_convert_map *map)
{
	static uint32_t none;

	memset(map, 0, sizeof *map);
	map->ids = x->stream_ids != NULL ? x->stream_ids : &none;
	map->nids = x->stream_ids != NULL ? x->nstreams : 0;
	map->have_null = x->have_null || x->have_null_query;
	map->null_stream = x->have_null ? x->null_stream : x->null_query;
	map->per_thread = x->per_thread_ids;
	map->nper_thread = x->nper_thread;
	map->api_name = cupti_capture_api_name;
	map->api_arg = NULL;
}

int cuda_exec_check_ids(const struct cuda_exec *x, char **cause)
{
	uint32_t id;

	for (int s = 0; s < x->nstreams; s++)
		if (!exec_stream_id((CUstream)x->streams[s], 0, &id) || id != x->stream_ids[s]) {
			*cause = xasprintf("CUPTI attached again gave stream %d id %u, not %u as before "
			                   "(SS_CUPTI_DETACH=0 keeps CUPTI attached)",
			                   s, id, x->stream_ids[s]);
			return -1;
		}
	if (x->have_null_query && (!exec_legacy_id(&id) || id != x->null_query)) {
		*cause = xasprintf("CUPTI attached again gave the legacy stream id %u, not %u as before "
		                   "(SS_CUPTI_DETACH=0 keeps CUPTI attached)",
		                   id, x->null_query);
		return -1;
	}
	return 0;
}

void cuda_exec_set_null_stream(struct cuda_exec *x, uint32_t id)
{
	x->have_null = true;
	x->null_stream = id;
}

bool cuda_exec_null_stream_query(const struct cuda_exec *x, uint32_t *id)
{
	*id = x->null_query;
	return x->have_null_query;
}

int cuda_exec_per_thread_ids(const struct cuda_exec *x)
{
	return x->nper_thread;
}

int cuda_exec_thread_index(const struct cuda_exec *x, uint32_t os_thread)
{
	for (int t = 0; t < x->nthreads; t++)
		if (x->th[t].os_tid == os_thread || x->th[t].pthread_id == os_thread)
			return t;
	return -1;
}

void cuda_exec_free(struct cuda_exec *x)
{
	if (x == NULL)
		return;
	if (x->workers) {
		bool any = false;
		for (int t = 0; t < x->nthreads; t++)
			any |= x->th[t].started;
		if (any)
			exec_phase(x, true);
		for (int t = 0; t < x->nthreads; t++)
			if (x->th[t].started)
				pthread_join(x->th[t].handle, NULL);
	}
	for (int t = 0; t < x->nthreads; t++) {
		free(x->th[t].ops);
		free(x->th[t].cause);
	}
	for (int s = 0; x->streams != NULL && s < x->nstreams; s++)
		if (x->streams[s] != NULL)
			cudaStreamDestroy(x->streams[s]);
	if (x->timer != NULL)
		cudaStreamDestroy(x->timer);
	for (int i = 0; x->timers != NULL && i < x->nthreads; i++)
		if (x->timers[i] != NULL)
			cudaStreamDestroy(x->timers[i]);
	free(x->timers);
	for (int i = 0; x->events != NULL && i < x->nevents; i++)
		if (x->events[i] != NULL)
			cudaEventDestroy(x->events[i]);
	for (int i = 0; x->start != NULL && i < x->nthreads; i++)
		if (x->start[i] != NULL)
			cudaEventDestroy(x->start[i]);
	for (int i = 0; x->stop != NULL && i < x->nstop; i++)
		if (x->stop[i] != NULL)
			cudaEventDestroy(x->stop[i]);
	for (size_t i = 0; x->br_ev != NULL && i < 2 * x->nbr; i++)
		if (x->br_ev[i] != NULL)
			cudaEventDestroy(x->br_ev[i]);
	for (int b = 0; b < EXEC_BUFFERS; b++) {
		if (x->chunk_mem[b] != NULL) {
			for (int c = 0; c < x->ops->nchunks; c++)
				if (x->chunk_mem[b][c] != NULL)
					cudaFree(x->chunk_mem[b][c]);
			free(x->chunk_mem[b]);
		}
		if (x->dev[b] != NULL)
			cudaFree(x->dev[b]);
		if (x->host[b] != NULL && x->host_pinned[b])
			cudaFreeHost(x->host[b]);
		else
			free(x->host[b]);
		free(x->init[b]);
		free(x->sim_host[b]);
		free(x->sim_dev[b]);
		if (x->pinned) {
			if (x->host_in[b] != NULL)
				cudaFreeHost(x->host_in[b]);
			if (x->host_out[b] != NULL)
				cudaFreeHost(x->host_out[b]);
		} else {
			free(x->host_in[b]);
			free(x->host_out[b]);
		}
	}
	if (x->d_slots != NULL)
		cudaFree(x->d_slots);
	if (x->d_prime != NULL)
		cudaFree(x->d_prime);
	if (x->h_prime != NULL)
		cudaFreeHost(x->h_prime);
	free(x->golden);
	free(x->dev_back);
	free(x->streams);
	free(x->stream_ids);
	free(x->per_thread_ids);
	free(x->events);
	free(x->start);
	free(x->stop);
	free(x->start_at);
	free(x->host_t0);
	free(x->host_t1);
	free(x->stop_after);
	free(x->br_of_op);
	free(x->br_ev);
	free(x->br_idle);
	free(x->slot);
	free(x->seeds);
	free(x->expect);
	free(x->th);
	pthread_mutex_destroy(&x->lock);
	pthread_cond_destroy(&x->go);
	pthread_cond_destroy(&x->done);
	free(x);
}
