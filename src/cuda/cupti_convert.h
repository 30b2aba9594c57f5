/* cupti_convert.h: one CUPTI 13.0 activity record -> one streamscope timeline record. Pure: no CUPTI or CUDA calls,
 * no experiment code, so the CUPTI injection library of `streamscope record` can use it as well. */
#ifndef SS_CUDA_CUPTI_CONVERT_H
#define SS_CUDA_CUPTI_CONVERT_H

#include <cupti_activity.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"

/* What cupti_convert made of a record. */
enum cupti_convert_status {
	CUPTI_CONVERT_RECORD = 0,   /* *r and name hold an interval */
	CUPTI_CONVERT_SKIP,         /* not a timeline interval (context, stream, device records...) */
	CUPTI_CONVERT_NO_TIME,      /* an interval whose timestamps CUPTI could not collect (start == end == 0) */
	CUPTI_CONVERT_UNSUPPORTED,  /* an interval kind streamscope has no kind for (host-to-host copy...) */
	CUPTI_CONVERT_MARKER_START, /* the opening half of an NVTX range: start = end = its time, correlation = id */
	CUPTI_CONVERT_MARKER_END,   /* the closing half: start = end = its time, correlation = id, no name */
};

/* How CUPTI stream ids map to the experiment's streams, and how API records are named. */
struct cupti_convert_map {
	const uint32_t *ids; /* ids[i]: CUPTI stream id of experiment stream i */
	int nids;
	bool have_null;
	uint32_t null_stream;       /* the context's legacy default stream (Context3.nullStreamId) */
	const uint32_t *per_thread; /* CUPTI ids of per-thread default streams */
	int nper_thread;
	/* api_name: the name of an API call of a CUpti_CallbackDomain (runtime or driver), NULL when unknown; the hook
	 * may be NULL (then records are named "runtime API #cbid"). */
	const char *(*api_name)(void *arg, int domain, uint32_t cbid);
	void *api_arg;
};

/* cupti_convert_stream maps a CUPTI stream id: an experiment stream index, SS_STREAM_LEGACY, SS_STREAM_PER_THREAD
 * or SS_STREAM_UNKNOWN. */
int cupti_convert_stream(const struct cupti_convert_map *map, uint32_t id);

/* cupti_convert turns activity a into *r (times in CUPTI's timebase, ns) and its name (written to name[len], ""
 * when none). Copies: kind from copyKind, PAGEABLE/PINNED/MANAGED flags from srcKind/dstKind, ASYNC from the
 * record's flags, copy channel in r->thread, CUPTI stream in r->raw_stream. Kernels and memsets keep their channel
 * in r->thread too. Host records (API, SYNC, overhead) go to SS_STREAM_HOST with the OS thread id in r->thread
 * (0 for SYNC records, which carry none: match them to their API record by correlation id). CUPTI overhead
 * records become SS_KIND_API intervals named "CUPTI overhead: ...". Unified-memory migrations (UNIFIED_MEMORY_COUNTER
 * byte transfers) become H2D/D2H/D2D intervals flagged SS_REC_MANAGED with no correlation id: they are pieces of
 * prefetches or page faults, not one record per API call. GPU records carry CUPTI's deviceId in r->device (ids
 * past 255 read as 255). Peer copies (MEMCPY2) become D2D intervals flagged SS_REC_PEER on the device of their
 * stream, the other end in r->peer, SS_REC_PEER_IN when the data flows into the stream's device. Returns an enum
 * cupti_convert_status. */
int cupti_convert(const CUpti_Activity *a, const struct cupti_convert_map *map, struct ss_record *r, char *name,
                  size_t len);

/* cupti_convert_context gives the device and context ids of a GPU activity record (copy, peer copy, memset,
 * kernel); false for every other record. */
bool cupti_convert_context(const CUpti_Activity *a, uint32_t *device, uint32_t *context);

/* cupti_convert_launch fills *l with the launch details of kernel record a (CONCURRENT_KERNEL or KERNEL, CUPTI
 * 13.0's Kernel10): grid, block, registers per thread, static and dynamic shared memory, keyed by its correlation
 * and stream ids as cupti_convert's record is, and writes the kernel's full (demangled) name to full[len] ("" when
 * it is the record's name: cupti_convert_kernel_names); l->full_name stays 0, for the timeline to set. False (and
 * *l untouched) for every other record, and for a kernel whose grid or block CUPTI gave as 0 or negative (not a
 * launch configuration). */
bool cupti_convert_launch(const CUpti_Activity *a, struct ss_launch *l, char *full, size_t len);

/* cupti_convert_kernel_names: a kernel's two names as Nsight Systems keeps them (shortName, demangledName), from
 * CUPTI's name, which C++ kernels have mangled by the Itanium C++ ABI ("_Z6ss_addILi400EEvPKfS1_Pfi"): full is the
 * demangled name (libstdc++'s __cxa_demangle: "void ss_add<400>(float const*, float const*, float*, int)"),
 * short_name the function's own name without scope, template arguments and parameters ("ss_add"). A
 * name that does not demangle (an extern "C" kernel's) is both; NULL is "kernel". Each is truncated to its buffer. */
void cupti_convert_kernel_names(const char *name, char *short_name, size_t slen, char *full, size_t flen);

/* cupti_convert_migration_config fills config with what streamscope asks CUPTI's unified-memory counters for:
 * bytes moved host to device and device to host, on device 0, per process (for
 * cuptiActivityConfigureUnifiedMemoryCounter(config, 2)). The capture (cupti_capture) and the recorder's injection
 * library both ask so. */
void cupti_convert_migration_config(CUpti_ActivityUnifiedMemoryCounterConfig config[2]);

#endif
