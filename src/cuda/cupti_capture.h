/* cupti_capture.h: the CUPTI Activity API session of one process: buffers, enabling the tracing kinds, flushing,
 * and turning what arrived into converted records. CUPTI's callbacks are process-wide, so this module is too
 * (one session per process, used from one thread at a time except for CUPTI's own callbacks). */
#ifndef SS_CUDA_CUPTI_CAPTURE_H
#define SS_CUDA_CUPTI_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "cuda/cupti_convert.h"

/* One converted record and its name (owned by the batch). */
struct cupti_capture_rec {
	struct ss_record r;
	char *name;
};

/* When one tagged cudaEventRecord (cupti_capture_tag_begin) completed on the GPU: CUPTI's device timestamp of it,
 * in CUPTI's clock. */
struct cupti_capture_event {
	uint64_t tag;
	uint64_t ns;
};

/* A kernel's launch details and its full (demangled) name, NULL when its record's name is all of it. */
struct cupti_capture_launch {
	struct ss_launch l;
	char *full_name;
};

/* What one collect produced. */
struct cupti_capture_batch {
	struct cupti_capture_rec *rec;
	size_t n, cap;
	struct cupti_capture_event *events;  /* tagged events that came with a device timestamp (event_times) */
	struct cupti_capture_launch *launch; /* the kernels' launch details (cupti_convert_launch), nlaunch of them */
	size_t nlaunch, launch_cap;
	size_t nevents;
	uint64_t dropped;     /* records CUPTI reported dropped, plus intervals that arrived without timestamps */
	uint64_t unsupported; /* intervals of kinds streamscope has no kind for (host-to-host copies...) */
	uint64_t early;       /* records that started before t0 (earlier runs, set-up) and were left out */
	uint64_t hidden;      /* API calls of the measurement itself (timing events) that were left out */
};

/* cupti_capture_load loads libcupti.so.13 (SS_CUPTI_LIBRARY names another file; otherwise the dynamic linker's
 * search, then the CUDA toolkit's usual folders) and resolves what this module calls. Every other function here
 * needs it to have succeeded. Returns 0, or -1 with *cause: one line saying what is missing and what to do. */
int cupti_capture_load(char **cause);
/* cupti_capture_stream_id is cuptiGetStreamIdEx for a CUcontext ctx (NULL: current) and a cudaStream_t stream:
 * CUPTI's id of that stream in *id. Returns 0, or -1 (CUPTI not loaded or the call failed). */
int cupti_capture_stream_id(void *ctx, void *stream, bool per_thread, uint32_t *id);
/* cupti_capture_init registers the buffer callbacks and enables CONTEXT records (for the legacy stream's id). Call
 * it before CUDA initialises. Returns 0, or -1 with *cause naming the CUPTI call and its error. */
int cupti_capture_init(char **cause);
/* cupti_capture_enable turns the tracing kinds (CONCURRENT_KERNEL, MEMCPY, MEMSET, RUNTIME, SYNCHRONIZATION,
 * OVERHEAD, EXTERNAL_CORRELATION) on or off. */
int cupti_capture_enable(bool on, char **cause);
/* cupti_capture_migrations asks for unified-memory migration records (HtoD/DtoH byte transfers) in traced runs
 * from now on; call it after CUDA initialises. Returns 0, or -1 with *cause when this platform cannot (then
 * nothing changes). */
int cupti_capture_migrations(char **cause);
/* cupti_capture_event_times asks, from now on, for CUDA_EVENT records with device timestamps in traced runs, so
 * that tagged events (cupti_capture_tag_begin) come back with their GPU times in the batch. Call it after CUDA
 * initialises. Returns 0, or -1 with *cause when this CUPTI cannot (then nothing changes). */
int cupti_capture_event_times(char **cause);
/* cupti_capture_hide_begin/end bracket CUDA calls that belong to the measurement, not to the experiment: their API
 * records are left out of the batch (external correlation id). No-ops when tracing is off. */
void cupti_capture_hide_begin(void);
void cupti_capture_hide_end(void);
/* cupti_capture_tag_begin/end bracket one cudaEventRecord of the measurement: hidden like hide_begin/end, and with
 * event_times on, the batch gets its GPU time under tag (>= 1). No-ops when tracing is off. */
void cupti_capture_tag_begin(uint64_t tag);
void cupti_capture_tag_end(void);
/* cupti_capture_timestamp is CUPTI's clock (the records' timebase), ns. */
uint64_t cupti_capture_timestamp(void);
/* cupti_capture_flush forces every buffer, complete or not, to the parked queue. Synchronise the device first. */
int cupti_capture_flush(char **cause);
/* cupti_capture_collect converts every parked record with map into b (cleared first), leaving out records that
 * started before t0, and adds CUPTI's dropped-record count to b->dropped. SYNC records get the OS thread id of
 * the API call they belong to. Frees the parked buffers. Returns 0, or -1 with *cause. */
int cupti_capture_collect(const struct cupti_convert_map *map, uint64_t t0, struct cupti_capture_batch *b,
                          char **cause);
/* cupti_capture_null_stream gives the legacy default stream id from the last CONTEXT record collected. */
bool cupti_capture_null_stream(uint32_t *id);
/* cupti_capture_api_name names a runtime or driver API call ("cudaMemcpyAsync"); a cupti_convert_map hook. */
const char *cupti_capture_api_name(void *arg, int domain, uint32_t cbid);
/* cupti_capture_error fills *cause with "call: CUPTI error string" and returns -1. */
int cupti_capture_error(const char *call, int result, char **cause);
/* cupti_capture_detach takes CUPTI out of the process (cuptiFinalize) after turning every kind off and flushing,
 * and frees what is parked (collect first): while CUPTI is initialised, even with no kind enabled, every CUDA call
 * costs more than without it (docs/results.md), which an untraced run must not pay. Until cupti_capture_attach
 * no CUPTI call is made (cupti_capture_timestamp reads CLOCK_REALTIME, CUPTI's default timebase; hide/tag are
 * no-ops). A no-op when not initialised, already detached, or not cupti_capture_detachable. Returns 0; 1 with
 * *cause when cuptiFinalize refused (CUPTI then stays attached, every kind off, and later calls are no-ops); -1 with
 * *cause naming the CUPTI call that failed before it. */
int cupti_capture_detach(char **cause);
/* cupti_capture_attach undoes cupti_capture_detach: the buffer callbacks registered again, and the migration and
 * event-timestamp settings made before it restored (CONTEXT records are not asked for again). A no-op unless
 * detached. Returns 1 when it attached CUPTI again, 0 when it was attached already (nothing done), or -1 with
 * *cause. */
int cupti_capture_attach(char **cause);
/* cupti_capture_detachable: detaching is on unless the diagnostic SS_CUPTI_DETACH=0 keeps CUPTI attached between
 * traced runs, SS_CUPTI_RECORDS chose where CUPTI keeps its records (an attribute set before CUDA starts, which an
 * attach later could not set again), or cuptiFinalize refused once. */
bool cupti_capture_detachable(void);
/* cupti_capture_finish disables every kind, flushes and frees what is parked. */
void cupti_capture_finish(void);

void cupti_capture_batch_free(struct cupti_capture_batch *b);

#endif
