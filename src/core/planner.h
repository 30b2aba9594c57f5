/* planner.h: turns an experiment into the exact sequence of CUDA operations to issue (the op list). */
#ifndef SS_CORE_PLANNER_H
#define SS_CORE_PLANNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/experiment.h"
#include "core/record.h"

/* One operation kind of the op list; each maps to one CUDA runtime call. */
enum ss_op_kind {
	SS_OP_H2D = 0,        /* cudaMemcpyAsync host->device of buffer[offset, offset+count) */
	SS_OP_D2H,            /* cudaMemcpyAsync device->host */
	SS_OP_KERNEL,         /* kernel launch over elements [offset, offset+count) (SPIN: count = iterations) */
	SS_OP_ATTACH,         /* cudaStreamAttachMemAsync of the chunk's managed allocation to the stream */
	SS_OP_PREFETCH_H2D,   /* cudaMemPrefetchAsync of managed memory to the device */
	SS_OP_PREFETCH_D2H,   /* cudaMemPrefetchAsync of managed memory to the host */
	SS_OP_EVENT_RECORD,   /* cudaEventRecord(event, stream) */
	SS_OP_EVENT_SYNC,     /* cudaEventSynchronize(event) */
	SS_OP_STREAM_SYNC,    /* cudaStreamSynchronize(stream) */
	SS_OP_DEVICE_SYNC,    /* cudaDeviceSynchronize() */
	SS_OP_GET_LAST_ERROR, /* cudaGetLastError(): a host call that reads the thread's last error */
	SS_OP_HOST,           /* host_process: the issuing thread works on buffer[offset, offset+count) (managed; a
	                         step program's: the buffer's host array) */
	SS_OP_MEMSET,         /* cudaMemsetAsync of buffer[offset, offset+count) (device) to the byte value */
	SS_OP_PEER,           /* --peer: cudaMemcpyPeerAsync of buffer[offset, offset+count) from the device of its
	                         stream to the device of stream `event` (the op's `event` field holds that stream) */
	SS_OP_FREE,           /* cudaFree of the chunk's managed allocation (the task kernel's data, buffer 1), by the
	                         thread of its stream once that stream is synchronised */
	SS_OP_EVENT_QUERY,    /* cudaEventQuery(event): a host call asking whether the event has completed (document
	                         001 asks it of its start event, which submits it); its answer is not used */
	SS_OP_COUNT
};

/* One operation. stream is an experiment stream index or SS_STREAM_LEGACY / SS_STREAM_PER_THREAD. */
struct ss_op {
	uint32_t id;   /* 1-based position; the model uses it as correlation id */
	uint8_t kind;  /* enum ss_op_kind */
	int8_t buffer; /* host/device array: 0 = x (or data), 1 = y, 2 = z; -1 = none. The task kernel: 0 = in,
	                  1 = data (managed, attached), 2 = out; its transform writes 1, its convert 2 */
	int16_t stream;
	int16_t thread;  /* host thread that issues it (0 when experiment.threads == 1) */
	int32_t chunk;   /* chunk index, -1 for non-chunk operations */
	int32_t event;   /* event index for EVENT_* ops, -1 otherwise */
	uint64_t offset; /* first element */
	uint64_t count;  /* elements (bytes = count * elem_size) */
	uint32_t grid;   /* KERNEL: blocks of the launch (experiment_grid) */
	uint16_t block;  /* KERNEL: threads per block (experiment_block) */
	uint8_t kernel;  /* KERNEL: enum ss_kernel (the interfering one-thread kernel: SS_KERNEL_SPIN's shape) */
	uint8_t value;   /* MEMSET: the byte */
	uint8_t hostmem; /* H2D, D2H: enum ss_hostmem of the host side (the experiment's, a step program's buffer's) */
	uint32_t work;   /* KERNEL: its work (experiment.work, a step's own) */
	int16_t step;    /* the step program's step it is (0-based), -1 for none */
};

/* The op list: ops in host issue order (per thread, ops of one thread keep their relative order). */
struct ss_oplist {
	struct ss_op *op;
	size_t n, cap;
	int nevents;  /* events the ops refer to */
	int nbuffers; /* arrays used (x, y, z) */
	int nchunks;
	enum ss_split split; /* how the chunks cut the data (planner_chunk) */
	uint32_t elem_size;
	enum ss_preset preset; /* the experiment's preset: planner_op_describe names its document's kernels */
};

/* planner_build fills ops for e (validated). Deterministic: same experiment, same list. With --devices N the list
 * is that of N x streams streams (device d's stream i is index d * streams + i); with --peer each chunk's kernel is
 * followed by an SS_OP_PEER of its output to the same stream of the next device, a second kernel there, and the
 * chunk's D2H moves to that stream. */
void planner_build(const struct ss_experiment *e, struct ss_oplist *ops);
void planner_free(struct ss_oplist *ops);
/* planner_chunk gives chunk c's first element and length: SS_SPLIT_CEIL, chunks of ceil(elements / chunks), the last
 * shorter (maybe 0); SS_SPLIT_FLOOR, chunks of floor(elements / chunks), the last with the remainder. */
void planner_chunk(uint64_t elements, int chunks, enum ss_split split, int c, uint64_t *offset, uint64_t *count);
/* planner_op_bytes is the bytes an op moves (copies, prefetches), 0 otherwise. */
uint64_t planner_op_bytes(const struct ss_oplist *ops, const struct ss_op *op);
/* planner_count_kind counts ops of one kind. */
size_t planner_count_kind(const struct ss_oplist *ops, int kind);
/* planner_work_ratio is how many times ref's work the op list ops does: the sum of the kernels' element (or spin
 * iteration) counts of ops over those of ref's op list (the copies' bytes where either has no kernel); 1 when ref
 * does none. A preset
 * that cuts one data set among its streams does the same work on 1 stream (1); hyperq gives each stream kernels of
 * its own (32 streams: 32). */
double planner_work_ratio(const struct ss_oplist *ops, const struct ss_experiment *ref);
/* planner_document_note writes into buf (len bytes) where e's op list, a source document's preset as the document
 * writes it, departs from that document's program on purpose, in words for `ops`; returns false (buf empty) where it
 * does not, or e is no document's program. Set-up before the list (streams, allocations, events) is in no op list
 * and no departure, but a call between two listed ones that is not issued is; the note names the set-up too where
 * the document's function the list reproduces makes it (document 004's run_task). */
bool planner_document_note(const struct ss_experiment *e, char *buf, size_t len);
/* planner_op_describe writes one line like "s3 cudaMemcpyAsync H2D x[1048576+524288] 2.0 MiB"; a kernel launch names
 * its kernel as the preset's source document does (decrypt_gpu, vectorAdd, transform, convert, add). */
void planner_op_describe(const struct ss_oplist *ops, const struct ss_op *op, char *buf, size_t len);
const char *planner_op_kind_name(int kind);
/* planner_kernel_symbol: the function the CUDA backend launches for kernel op (kernels/: ss_add, ss_fma,
 * ss_decrypt, ss_transform, ss_convert, ss_spin; ss_touch for a default-stream op), as a trace's short name gives
 * it: the name the model gives its records. */
const char *planner_kernel_symbol(const struct ss_op *op);
/* planner_expected_records: how many GPU timeline records of each ss_kind the op list must produce when
 * captured (copies -> H2D/D2H, kernels -> KERNEL; prefetches -> H2D/D2H when prefetches, the run result's
 * prefetch_records: CUPTI records none, the CUDA backend times them with events on request, the model always
 * emits them). */
void planner_expected_records(const struct ss_oplist *ops, bool prefetches, size_t counts[SS_KIND_COUNT]);
/* planner_op_pageable: whether op is a copy of pageable host memory (e's --host-mem, or its buffer's in a step
 * program). */
bool planner_op_pageable(const struct ss_experiment *e, const struct ss_op *op);
/* planner_op_work: a kernel op's work (its own, e->work where it has none). */
uint32_t planner_op_work(const struct ss_experiment *e, const struct ss_op *op);
/* planner_gpu_op says whether ops of kind put work on a stream (copies, kernels, attaches, prefetches, event
 * records, memsets), as against host calls that wait (synchronisations): what the run timer brackets. */
bool planner_gpu_op(int kind);
/* planner_start_before says where a host thread's run timer starts when op (of experiment e) is the thread's first
 * GPU op: before its call (true) or right after it (false, the usual place: the GPU reads the event just after the
 * op was submitted). Before, for calls that do the op's work while they run: a prefetch on an idle stream migrates
 * inside its call (tests/data/h200/prefetch-start: 64 MiB, the call took 1.22 ms of a 1.44 ms migration), and a
 * pageable copy stages its data through pinned memory inside its call (tests/data/h200/pageable-start), and an
 * attach of managed memory waits inside its call for the driver to move the allocation to the stream (32 threads
 * attaching at once: 24.6 ms each, tests/data/h200/documents-bench-mt). The CUDA backend and the model both place
 * their timers by it. */
bool planner_start_before(const struct ss_experiment *e, const struct ss_op *op);
/* planner_start_events says which op each issuing thread's run-timer start event goes with: its first GPU op.
 * start_at[0..ops->n) gets that thread's index at those ops, -1 elsewhere; ops of a thread outside 0..nthreads-1
 * count as thread 0's. The CUDA backend, the model and validate place the start events by it. */
void planner_start_events(const struct ss_oplist *ops, int nthreads, int *start_at);
/* SS_LINE_BYTES: the memory line a warp's access to 32 neighbouring floats is served in. */
#define SS_LINE_BYTES 128
/* planner_op_line_offset: how many bytes past a 128-byte line the data of op (of e's op list ops) start on the
 * device, as the CUDA backend lays them out (src/cuda/cuda_exec.c exec_ptr): one cudaMalloc per buffer (aligned to
 * 256 bytes or more), the chunk at its element offset; with managed-attach memory outside a step program, one
 * allocation per chunk, which starts on a line (0). The model's kernel.*.misalign applies where it is not 0. */
uint64_t planner_op_line_offset(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_op *op);
/* Where the kernel launches of an op list start their data against a line (planner_op_line_offset). */
struct ss_line_census {
	int kernels;          /* kernel launches on experiment streams with elements */
	int off;              /* of them, those whose data start off a line */
	unsigned lo, hi;      /* the least and most bytes off a line among those (0 when none) */
	uint64_t first_count; /* the first launch's elements */
};
/* planner_line_census counts the kernel launches of e's op list ops and those off a line. */
void planner_line_census(const struct ss_experiment *e, const struct ss_oplist *ops, struct ss_line_census *c);
/* planner_chunks_aligned: whether every chunk that has elements, of elements cut into chunks (split) of elem_size
 * bytes each, starts on a 128-byte line (as planner_chunk cuts them: chunk c at c times the chunk size). */
bool planner_chunks_aligned(uint64_t elements, int chunks, enum ss_split split, uint32_t elem_size);

#endif
