/* record.h: the timeline record, the one data type every stage of streamscope consumes. */
#ifndef SS_CORE_RECORD_H
#define SS_CORE_RECORD_H

#include <stdint.h>

/* What engine or host activity an interval belongs to. Order is stable: it is written to files. */
enum ss_kind {
	SS_KIND_H2D = 0, /* host-to-device copy (copy engine) */
	SS_KIND_D2H,     /* device-to-host copy (copy engine) */
	SS_KIND_D2D,     /* device-to-device copy */
	SS_KIND_MEMSET,  /* memset */
	SS_KIND_KERNEL,  /* kernel on the compute engine */
	SS_KIND_API,     /* host runtime API call */
	SS_KIND_SYNC,    /* host synchronisation wait */
	SS_KIND_MARKER,  /* NVTX range */
	SS_KIND_COUNT
};

/* Streams that are not one of the experiment's streams get negative indices. */
#define SS_STREAM_HOST (-1)       /* host-side records (API, SYNC, MARKER) */
#define SS_STREAM_LEGACY (-2)     /* the legacy default stream (stream 0) */
#define SS_STREAM_PER_THREAD (-3) /* a per-thread default stream */
#define SS_STREAM_UNKNOWN (-4)    /* a stream the experiment did not create */

/* What kind of stream a stream index is. Order is stable: it is written to files (STREAMSCOPE_STREAM.kind). */
enum ss_stream_kind {
	SS_SKIND_UNKNOWN = 0, /* not known (foreign traces, streams seen before their creation record) */
	SS_SKIND_BLOCKING,    /* created with cudaStreamDefault: synchronises with the legacy default stream */
	SS_SKIND_NONBLOCKING, /* cudaStreamNonBlocking: exempt from legacy default stream ordering */
	SS_SKIND_LEGACY,      /* a legacy default stream that has an index (a second context's) */
	SS_SKIND_PER_THREAD,  /* a per-thread default stream that has an index */
	SS_SKIND_COUNT
};

/* Record flags. */
#define SS_REC_PAGEABLE 0x01u /* copy from/to pageable host memory */
#define SS_REC_MANAGED 0x02u  /* copy involving managed memory (migration/prefetch) */
#define SS_REC_ASYNC 0x04u    /* issued with an asynchronous API */
#define SS_REC_MODELLED 0x08u /* produced by the model, not measured */
#define SS_REC_PINNED 0x10u   /* copy from/to pinned host memory */
#define SS_REC_EVENT_TIMED                                                                                             \
	0x20u                /* timed with cudaEvents around the call on its stream, not by CUPTI (prefetches,         \
	                      * which CUPTI does not record), placed on CUPTI's clock by the kernels beside them */
#define SS_REC_PEER 0x40u    /* peer-to-peer copy (kind D2D) between device and peer */
#define SS_REC_PEER_IN 0x80u /* with SS_REC_PEER: the data flows from peer to device (else device to peer) */

/* One interval on the timeline: 48 bytes. Times are ns in one timebase per timeline. The name is an index into
 * the timeline's string table (0 = no name). correlation links GPU work to the API call that issued it.
 * A stream index names one stream of the timeline whichever device it is on (an experiment's device d has the
 * streams d * streams-per-device ..., a trace's raw stream ids are unique in their process); the device says where
 * it runs, and a lane is keyed by (device, stream): the special streams (legacy, per-thread, unknown) are one per
 * device. A peer copy (SS_REC_PEER) sits on its stream's device and names the other end in peer. */
struct ss_record {
	uint64_t start;       /* ns */
	uint64_t end;         /* ns, >= start */
	uint64_t bytes;       /* bytes moved (copies, memsets), 0 otherwise */
	uint32_t correlation; /* CUPTI correlation id or model's op id; 0 = none */
	uint32_t name;        /* string table index, 0 = none */
	int32_t stream;       /* experiment stream index 0..n-1, or SS_STREAM_* */
	uint32_t raw_stream;  /* the backend's own stream id (CUPTI streamId), for display */
	uint32_t thread;      /* host thread index or OS tid for host records; copy channel for copies */
	uint8_t kind;         /* enum ss_kind */
	uint8_t flags;        /* SS_REC_* */
	uint8_t device;       /* GPU (CUDA ordinal, CUPTI deviceId) of GPU records; 0 for host records */
	uint8_t peer;         /* the other device of a peer copy (SS_REC_PEER), 0 otherwise */
};

_Static_assert(sizeof(struct ss_record) == 48, "struct ss_record is 48 bytes");

/* record_peer_src and record_peer_dst give the source and destination device of copy r: for a peer copy its two
 * ends by SS_REC_PEER_IN, for any other record r->device. */
int record_peer_src(const struct ss_record *r);
int record_peer_dst(const struct ss_record *r);

/* One kernel's launch configuration, kept beside the records so that struct ss_record stays 48 bytes. It belongs
 * to the kernel record with the same correlation id and raw stream id (the key: CUPTI and nsys give every launch a
 * correlation id unique in its process; the stream tells apart most launches of processes merged in one trace).
 * Present means the grid and block are known; registers and shared memory only with SS_LAUNCH_ATTRS (CUPTI's values,
 * 0 included), else they are 0 and unknown (the model, a trace without them). */
#define SS_LAUNCH_ATTRS 0x1u /* registers, static_smem and dynamic_smem are known */
struct ss_launch {
	uint32_t correlation;  /* key: the kernel record's correlation */
	uint32_t raw_stream;   /* key: the kernel record's raw_stream */
	uint32_t grid[3];      /* blocks per grid, x y z */
	uint32_t block[3];     /* threads per block, x y z */
	uint32_t registers;    /* registers per thread */
	uint32_t static_smem;  /* static shared memory per block, bytes */
	uint32_t dynamic_smem; /* dynamic shared memory per block, bytes */
	uint32_t flags;        /* SS_LAUNCH_* */
	uint32_t full_name;    /* the kernel's full (demangled) name as a timeline name id; 0: its record's name only */
};

/* record_cmp is the timeline's order: start, then end, then kind, then correlation (-1, 0, 1). */
int record_cmp(const struct ss_record *x, const struct ss_record *y);
/* record_kind_name returns a short fixed name ("H2D", "KER", ...) for a kind; "?" for unknown. */
const char *record_kind_name(int kind);
/* record_kind_parse returns the kind named by s (as record_kind_name prints it, case-insensitive), -1 if none. */
int record_kind_parse(const char *s);

#endif
