/* experiment.h: an overlap experiment as plain data, its presets, and parsing/printing of its options. */
#ifndef SS_CORE_EXPERIMENT_H
#define SS_CORE_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_MAX_STREAMS 128
#define SS_MAX_CONNECTIONS 32
#define SS_MAX_DEVICES 8 /* --devices N */

/* Issue order of the per-chunk work. */
enum ss_order {
	SS_ORDER_DEPTH = 0, /* each stream's H2D -> kernel -> D2H in turn */
	SS_ORDER_BREADTH,   /* all H2D, then all kernels, then all D2H */
	SS_ORDER_BEST,      /* document 003's "best" order: each stream's inputs, with the previous stream's kernel
	                       issued after the first input copy of the next, then every output in stream order */
	SS_ORDER_WEAKER,    /* document 003's "weaker" order: every input, the kernels in reverse stream order,
	                       then every output in stream order */
	SS_ORDER_COUNT,     /* the orders of every experiment; past them: */
	SS_ORDER_INTERLEAVE = SS_ORDER_COUNT /* a step program's explicit interleave (ss_experiment.inter), valid
	                                        only with one ("interleave" on the command line) */
};

/* How the host waits for the work at the end. */
enum ss_sync {
	SS_SYNC_STREAM = 0, /* cudaStreamSynchronize in issue order */
	SS_SYNC_REVERSE,    /* cudaStreamSynchronize in reverse order */
	SS_SYNC_DEVICE,     /* one cudaDeviceSynchronize */
	SS_SYNC_EVENTS,     /* an event recorded per stream, cudaEventSynchronize on each */
	SS_SYNC_STOP_EVENT, /* document 001's timing: a start event on the legacy stream before the work, a stop event
	                       on it after, cudaEventSynchronize(stop) (the legacy stream waits for blocking streams) */
	SS_SYNC_COUNT
};

/* Default-stream interference. */
enum ss_defstream {
	SS_DS_NONE = 0,       /* none */
	SS_DS_LEGACY_OP,      /* a small kernel on the legacy default stream between the streams' work */
	SS_DS_EVENT_TIMER,    /* a host timer on stream 0: start, a lap between chunks (or phases), stop */
	SS_DS_PER_THREAD,     /* the same operation on the per-thread default stream instead (no serialisation) */
	SS_DS_GET_LAST_ERROR, /* cudaGetLastError between the streams' work (document 003 says it breaks concurrency) */
	SS_DS_COUNT
};

/* Host memory of the copies' host side. */
enum ss_hostmem {
	SS_MEM_PINNED = 0,       /* cudaMallocHost */
	SS_MEM_PAGEABLE,         /* malloc */
	SS_MEM_MANAGED_ATTACH,   /* cudaMallocManaged, cudaStreamAttachMemAsync per stream, kernels touch it */
	SS_MEM_MANAGED_PREFETCH, /* cudaMallocManaged with cudaMemPrefetchAsync to device and back */
	SS_MEM_COUNT
};

/* The kernel an experiment runs. */
enum ss_kernel {
	SS_KERNEL_ADD = 0, /* document 001's add: z[n] = x[n] + y[n] stored `work` times (400 there), 128 threads */
	SS_KERNEL_DECRYPT, /* document 000's decrypt_gpu: undo an invertible 64-bit permutation `work` rounds in place,
	                      a grid-stride loop, <<<80*32, 64>>> */
	SS_KERNEL_SPIN,    /* one short single-block kernel per stream (hyperq) */
	SS_KERNEL_FMA,     /* z = x + y at the end of a chain of 8 x `work` dependent FMAs, 256 threads: compute-bound,
	                      its time set by `work` alone */
	SS_KERNEL_TASK,    /* document 004's run_task, `work` times per chunk: transform<<<100, 256>>>(in, data),
	                      the stream synchronised, host_process(data) on the host, convert<<<100, 256>>>(out, data);
	                      data is managed memory attached to the chunk's stream (--host-mem managed-attach) */
	SS_KERNEL_COUNT
};

/* How the data set is cut into chunks. */
enum ss_split {
	SS_SPLIT_CEIL = 0, /* document 000's sdiv: chunks of ceil(elements / chunks), the last one shorter (a tail) */
	SS_SPLIT_FLOOR,    /* document 003's: chunks of floor(elements / chunks), the last one takes the remainder */
	SS_SPLIT_COUNT
};

/* Named presets. */
enum ss_preset {
	SS_PRESET_KERNEL_TRANSFER = 0,
	SS_PRESET_DECRYPT,
	SS_PRESET_HYPERQ,
	SS_PRESET_DEFAULT_STREAM,
	SS_PRESET_SYNC_ORDER,
	SS_PRESET_MANAGED,
	SS_PRESET_PAGEABLE,
	SS_PRESET_VECTOR_ADD,
	SS_PRESET_MANAGED_THREADS,
	SS_PRESET_COUNT
};

/* Whether the CUDA backend times each cudaMemPrefetchAsync with two cudaEvents on its stream in traced runs
 * (src/cuda/bracket.h), since CUPTI records none. That puts prefetches on the timeline, but an event after a
 * prefetch makes its hardware queue wait for the migration: where streams share a queue, the other streams wait
 * too, and the traced run slows down (what it costs on the H200: docs/results.md). */
enum ss_pfevents {
	SS_PFE_AUTO, /* on where every stream has a hardware queue of its own (streams <= queues), up to
	                SS_PFE_AUTO_MAX_STREAMS streams: the range where the events' cost stays within the
	                run-to-run noise (docs/results.md) */
	SS_PFE_ON,
	SS_PFE_OFF,
	SS_PFE_COUNT
};

#define SS_PFE_AUTO_MAX_STREAMS 8

#define SS_MAX_STEPS 16      /* steps of a step program */
#define SS_MAX_INTERLEAVE 16 /* items of its interleave: one per step */
#define SS_STEP_DEFAULT 0xff /* a step's kernel or host memory left to the experiment's (--kernel, --host-mem) */

/* What one step of a step program does to its chunk (each maps to one op kind of the op list). */
enum ss_step_kind {
	SS_STEP_H2D = 0, /* cudaMemcpyAsync of the chunk's elements of buffer's host array to its device array */
	SS_STEP_D2H,     /* ... and back */
	SS_STEP_KERNEL,  /* a kernel over the chunk: add and fma z = x + y, decrypt in place on buffer, spin none */
	SS_STEP_MEMSET,  /* cudaMemsetAsync of the chunk's elements of buffer's device array to the byte value */
	SS_STEP_EVENT,   /* cudaEventRecord on the chunk's stream */
	SS_STEP_HOST,    /* cudaStreamSynchronize of the chunk's stream, then the issuing thread adds 1 to each of the
	                    chunk's elements of buffer's host array */
	SS_STEP_COUNT
};

/* One step of a step program: plain data. Zero work, grid and block are the experiment's (--work, --grid,
 * --block); SS_STEP_DEFAULT kernel and hostmem the experiment's --kernel and --host-mem. */
struct ss_step {
	uint8_t kind;    /* enum ss_step_kind */
	int8_t buffer;   /* 0 = x, 1 = y, 2 = z; -1: none (event, spin, add and fma, which read x, y and write z) */
	uint8_t hostmem; /* copies: enum ss_hostmem of the buffer's host array (pinned or pageable, one per buffer) */
	uint8_t kernel;  /* KERNEL: enum ss_kernel (add, fma, decrypt or spin) */
	uint8_t value;   /* MEMSET: the byte */
	uint32_t work, grid, block;
	int line; /* where the experiment file gave it, for messages (0: not from a file) */
};

/* One item of an interleave: step `step` (0-based) of chunk r - lag in round r (experiment.h's ss_experiment). */
struct ss_inter {
	uint8_t step;
	uint8_t lag;
};

/* An experiment: everything the planner needs to produce the op list. */
struct ss_experiment {
	enum ss_preset preset;
	enum ss_kernel kernel;
	int streams;        /* 1..SS_MAX_STREAMS */
	uint64_t elements;  /* total elements of the data set */
	int chunks;         /* chunks the data is cut into (ceil division, last shorter); 0 = one per stream;
	                       chunk c goes to stream c % streams */
	uint32_t elem_size; /* bytes per element (4 for float, 8 for uint64) */
	uint32_t work;      /* kernel work per element (inner repeats / rounds / spin iterations) */
	uint32_t block;     /* threads per block, 1..1024; 0: the kernel's own (add 128, fma 256, decrypt 64) */
	uint32_t grid;      /* blocks per launch, 1..2^31-1; 0: enough to cover the chunk (decrypt: 80*32, its
	                       grid-stride loop covering any chunk) */
	enum ss_split split;
	enum ss_order order;
	enum ss_sync sync;
	enum ss_defstream defstream;
	bool nonblocking; /* streams created with cudaStreamNonBlocking */
	enum ss_hostmem hostmem;
	int connections;                  /* CUDA_DEVICE_MAX_CONNECTIONS 1..32 */
	int threads;                      /* 1, or == streams (one host thread per stream) */
	int repeat;                       /* timed repeats >= 1 */
	int warmup;                       /* untimed warm-up runs >= 0 */
	enum ss_pfevents prefetch_events; /* capture: whether the CUDA backend times prefetches with cudaEvents
	                                     in traced runs (experiment_prefetch_events); the model shows them
	                                     either way */
	/* A step program (an experiment file's [chunk]): nsteps > 0 replaces the preset's per-chunk work by these
	 * steps, each chunk's on its stream, issued depth-first (each chunk's steps in turn), breadth-first (step i
	 * of every chunk, then step i + 1) or interleaved (SS_ORDER_INTERLEAVE: round r = 0, 1, ... issues inter[]
	 * in order, item k for chunk r - inter[k].lag, until every chunk's steps are issued). The sync, the
	 * default-stream mode, streams, chunks, queues and threads apply as to a preset. */
	int nsteps;
	struct ss_step step[SS_MAX_STEPS];
	int ninter; /* items of inter (0: none; then one per step) */
	struct ss_inter inter[SS_MAX_INTERLEAVE];
	/* Several GPUs (--devices N, 1..SS_MAX_DEVICES): each device has `streams` streams of its own, stream index
	 * d * streams + i being device d's stream i (experiment_stream_device), and the chunks go round all of them
	 * (chunk c to stream c % (streams * devices)); 0 chunks is one per stream of every device. peer (--peer):
	 * each chunk, after its kernel, is moved to the next device ((d + 1) % devices) by a peer copy and processed
	 * there by a second kernel, whose stream (the same stream index on that device) copies it back. */
	int devices;
	bool peer;
};

/* experiment_preset fills e with the preset's defaults. */
void experiment_preset(struct ss_experiment *e, enum ss_preset p);
/* experiment_queues_f: 1 - 1/q, q the hardware queues e's streams use (the fewer of streams and connections); the
 * model's costs that grow with the queues in use scale with it. */
double experiment_queues_f(const struct ss_experiment *e);
/* experiment_prefetch_events: whether e's prefetches are timed with cudaEvents (enum ss_pfevents, AUTO
 * resolved with e's streams and queues). */
bool experiment_prefetch_events(const struct ss_experiment *e);
/* experiment_stream_device is the device of stream index stream (0 for one device and for negative indices). */
int experiment_stream_device(const struct ss_experiment *e, int stream);
/* experiment_validate checks ranges; on error returns -1 and sets *cause to one line naming the problem and the
 * valid values (caller frees). */
int experiment_validate(const struct ss_experiment *e, char **cause);
/* experiment_program_check checks e's step program on its own, as a file gives it, whatever the options: each
 * step's kind, buffer, kernel, host memory and numbers, one host memory per buffer, one element size, the
 * interleave (each step once, each chunk's steps in order). 0, or -1 with *cause (one line naming the step or the
 * interleave item and what is valid; caller frees) and *line the offending step's line (0: the interleave's). */
int experiment_program_check(const struct ss_experiment *e, int *line, char **cause);
/* experiment_same_program: whether a and b have the same step program (steps and interleave; the lines they came
 * from aside). */
bool experiment_same_program(const struct ss_experiment *a, const struct ss_experiment *b);
/* experiment_describe writes the one-line summary shown in headers ("kernel-transfer 8 streams depth ..."). */
void experiment_describe(const struct ss_experiment *e, char *buf, size_t len);
/* experiment_describe_streams writes the same with the stream field as given ("streams 1,4,8": a sweep's counts). */
void experiment_describe_streams(const struct ss_experiment *e, const char *streams, char *buf, size_t len);
/* experiment_describe_compact writes the same in short fields, for narrow screens ("kernel-transfer 8s depth
 * sync:stream ds:none pinned 8q 1t"). */
void experiment_describe_compact(const struct ss_experiment *e, char *buf, size_t len);
/* experiment_changes writes the fields of experiment_describe in which to differs from from, in to's words and
 * separated by ", " ("breadth-first, 16 streams"); with tag, each is followed by from's word ("1 queue (A: 8
 * queues)"). Returns how many fields differ: 0 (buf "") when the descriptions are the same. */
int experiment_changes(const struct ss_experiment *from, const struct ss_experiment *to, const char *tag, char *buf,
                       size_t len);
/* experiment_block: the threads per block e's kernel launches with (e->block, else the kernel's own). */
uint32_t experiment_block(const struct ss_experiment *e);
/* experiment_grid: the blocks a launch over count elements uses (e->grid, else enough to cover them; at least
 * 1). */
uint64_t experiment_grid(const struct ss_experiment *e, uint64_t count);
/* experiment_step_kernel, experiment_step_work, experiment_step_block, experiment_step_grid: step s's kernel,
 * work and launch shape over count elements, the experiment's where the step leaves them (spin: one block of
 * one thread). */
int experiment_step_kernel(const struct ss_experiment *e, const struct ss_step *s);
uint32_t experiment_step_work(const struct ss_experiment *e, const struct ss_step *s);
uint32_t experiment_step_block(const struct ss_experiment *e, const struct ss_step *s);
uint64_t experiment_step_grid(const struct ss_experiment *e, const struct ss_step *s, uint64_t count);
/* experiment_buffer_hostmem: the host memory of buffer b's host array in e's step program: its copies' kind, the
 * experiment's --host-mem where none gives one. */
int experiment_buffer_hostmem(const struct ss_experiment *e, int b);
/* experiment_program_elem_size: the element size e's step program works on: 8 with a decrypt step, else 4. */
uint32_t experiment_program_elem_size(const struct ss_experiment *e);
/* experiment_step_describe writes step s as an experiment file's step line says it ("kernel add work=400"). */
void experiment_step_describe(const struct ss_step *s, char *buf, size_t len);
/* experiment_uses_kernel tells whether e's kernel (--kernel, its work and launch shape) is one its work runs: the
 * preset's per-chunk work, or a step program with a kernel step that names none. */
bool experiment_uses_kernel(const struct ss_experiment *e);
/* experiment_program_describe writes e's step program as its file gives it, one item per step line and the
 * interleave's: "h2d x; kernel decrypt x; d2h x; interleave = 1 2@c-1 3@c-2" ("" without a program). */
void experiment_program_describe(const struct ss_experiment *e, char *buf, size_t len);
/* experiment_interleave_describe writes e's interleave as its file's line gives it ("1 2@c-1 3@c-2"; "" without). */
void experiment_interleave_describe(const struct ss_experiment *e, char *buf, size_t len);
const char *experiment_step_kind_name(int k);
int experiment_step_kind_parse(const char *s);
/* experiment_io_arrays: how many host arrays are copied in (H2D) and out (D2H) per chunk (0 for copy-less kernels). */
void experiment_io_arrays(const struct ss_experiment *e, int *inputs, int *outputs);
/* experiment_device_arrays: how many device arrays of `elements` elements e's run allocates: the kernel's inputs
 * and output (an in-place decrypt's one; none for spin), a step program's and document 004's task's three. */
int experiment_device_arrays(const struct ss_experiment *e);
/* experiment_device_bytes: the device memory e's arrays take on each device it runs on: the arrays of every
 * element with one device; with several, of the chunks dealt to each (elements / devices, rounded up), twice that
 * with --peer (each device also holds its neighbour's chunks after their peer copy). */
uint64_t experiment_device_bytes(const struct ss_experiment *e);
/* SS_DEVICE_MEM_MARGIN: device memory an experiment leaves free for the CUDA context, CUPTI and the driver. */
#define SS_DEVICE_MEM_MARGIN (256ull << 20)
/* experiment_fits_memory: 0 when e's arrays (experiment_device_bytes), `extra` bytes more and the margin fit in
 * the `avail` free bytes of a device of `total` bytes named `device`; else -1 and *cause, one line: what e needs,
 * what is free, and the largest --elements that fits. */
int experiment_fits_memory(const struct ss_experiment *e, uint64_t extra, uint64_t avail, uint64_t total,
                           const char *device, char **cause);

/* Name tables: *_name returns the canonical CLI name; *_parse returns the value or -1. */
const char *experiment_preset_name(int p);
int experiment_preset_parse(const char *s);
/* experiment_preset_list sets keep[p] for each preset the comma list names (keep[] is not cleared first): 0, or -1
 * with *bad (caller frees) the first item that names none, or the whole list when it names nothing. */
int experiment_preset_list(const char *list, bool keep[SS_PRESET_COUNT], char **bad);
const char *experiment_order_name(int o);
/* experiment_order_label: order o as a label in running text ("depth-first", "best-first", "interleaved"). */
const char *experiment_order_label(int o);
int experiment_order_parse(const char *s);
const char *experiment_sync_name(int s);
int experiment_sync_parse(const char *s);
const char *experiment_defstream_name(int d);
int experiment_defstream_parse(const char *s);
const char *experiment_hostmem_name(int m);
int experiment_hostmem_parse(const char *s);
const char *experiment_kernel_name(int k);
int experiment_kernel_parse(const char *s);
const char *experiment_split_name(int s);
int experiment_split_parse(const char *s);
const char *experiment_pfevents_name(int m);
int experiment_pfevents_parse(const char *s);
/* experiment_valid_list writes "a|b|c" of a name table (for error messages); which: "preset", "order", "sync",
 * "default-stream", "host-mem", "kernel", "split". */
const char *experiment_valid_list(const char *which);

#endif
