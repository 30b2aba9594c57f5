/* cupti_convert.c: CUPTI 13.0 activity records -> struct ss_record. Pure data conversion (see cupti_convert.h). */
#include "cuda/cupti_convert.h"

#include <cupti_callbacks.h>
#include <cupti_version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/timeline.h"

/* The record layouts below are those CUPTI 13.0 writes (Memcpy6, MemcpyPtoP4, Memset4, Kernel10, API, Synchronization2,
 * Overhead3, Marker2; CUPTI.md). Later toolkits move on (13.2 Kernel11, 13.4 Memcpy7): review this file first. */
#if !defined(CUPTI_API_VERSION) || CUPTI_API_VERSION < 130000 || CUPTI_API_VERSION >= 130100
#error "cupti_convert.c reads the activity records of CUPTI 13.0 (CUPTI_API_VERSION 1300xx); check the layouts"
#endif

_Static_assert(sizeof(CUpti_ActivityMemcpy6) == 96, "CUpti_ActivityMemcpy6 changed");
_Static_assert(offsetof(CUpti_ActivityMemcpy6, bytes) == 8, "CUpti_ActivityMemcpy6.bytes moved");
_Static_assert(offsetof(CUpti_ActivityMemcpy6, streamId) == 40, "CUpti_ActivityMemcpy6.streamId moved");
_Static_assert(offsetof(CUpti_ActivityMemcpy6, channelID) == 76, "CUpti_ActivityMemcpy6.channelID moved");
_Static_assert(sizeof(CUpti_ActivityMemcpyPtoP4) == 96, "CUpti_ActivityMemcpyPtoP4 changed");
_Static_assert(offsetof(CUpti_ActivityMemcpyPtoP4, srcDeviceId) == 44, "CUpti_ActivityMemcpyPtoP4.srcDeviceId moved");
_Static_assert(offsetof(CUpti_ActivityMemcpyPtoP4, channelID) == 84, "CUpti_ActivityMemcpyPtoP4.channelID moved");
_Static_assert(sizeof(CUpti_ActivityMemset4) == 88, "CUpti_ActivityMemset4 changed");
_Static_assert(offsetof(CUpti_ActivityMemset4, memoryKind) == 50, "CUpti_ActivityMemset4.memoryKind moved");
_Static_assert(sizeof(CUpti_ActivityKernel10) == 216, "CUpti_ActivityKernel10 changed");
_Static_assert(offsetof(CUpti_ActivityKernel10, correlationId) == 92, "CUpti_ActivityKernel10.correlationId moved");
_Static_assert(offsetof(CUpti_ActivityKernel10, name) == 104, "CUpti_ActivityKernel10.name moved");
_Static_assert(offsetof(CUpti_ActivityKernel10, channelID) == 168, "CUpti_ActivityKernel10.channelID moved");
_Static_assert(offsetof(CUpti_ActivityKernel10, gridX) == 52, "CUpti_ActivityKernel10.gridX moved");
_Static_assert(offsetof(CUpti_ActivityKernel10, dynamicSharedMemory) == 80,
               "CUpti_ActivityKernel10.dynamicSharedMemory moved");
_Static_assert(offsetof(CUpti_ActivityKernel10, registersPerThread) == 6,
               "CUpti_ActivityKernel10.registersPerThread moved");
_Static_assert(sizeof(CUpti_ActivityAPI) == 40, "CUpti_ActivityAPI changed");
_Static_assert(sizeof(CUpti_ActivitySynchronization2) == 56, "CUpti_ActivitySynchronization2 changed");
_Static_assert(offsetof(CUpti_ActivitySynchronization2, streamId) == 32, "Synchronization2.streamId moved");
_Static_assert(sizeof(CUpti_ActivityOverhead3) == 56, "CUpti_ActivityOverhead3 changed");
_Static_assert(sizeof(CUpti_ActivityMarker2) == 56, "CUpti_ActivityMarker2 changed");
_Static_assert(sizeof(CUpti_ActivityUnifiedMemoryCounter3) == 104, "CUpti_ActivityUnifiedMemoryCounter3 changed");
_Static_assert(offsetof(CUpti_ActivityUnifiedMemoryCounter3, streamId) == 48, "UnifiedMemoryCounter3.streamId moved");

/* The name of one value of a CUPTI enum, in the names below. */
struct cupti_convert_name {
	unsigned value;
	const char *name;
};

/* CUPTI's memory kinds as shown in copy names. */
static const struct cupti_convert_name cupti_convert_memory_names[] = {
    {CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, "Pageable"},
    {CUPTI_ACTIVITY_MEMORY_KIND_PINNED, "Pinned"},
    {CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, "Device"},
    {CUPTI_ACTIVITY_MEMORY_KIND_ARRAY, "Array"},
    {CUPTI_ACTIVITY_MEMORY_KIND_MANAGED, "Managed"},
    {CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC, "Device Static"},
    {CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC, "Managed Static"},
    {0, NULL},
};

/* What CUPTI spent its overhead records on. */
static const struct cupti_convert_name cupti_convert_overhead_names[] = {
    {CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER, "driver compiler"},
    {CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH, "buffer flush"},
    {CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION, "instrumentation"},
    {CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE, "resource"},
    {CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING, "module loading"},
    {CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING, "lazy function loading"},
    {CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL, "command buffer full"},
    {CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST, "activity buffer request"},
    {CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT, "unified memory init"},
    {0, NULL},
};

/* Why the driver migrated unified memory. */
static const struct cupti_convert_name cupti_convert_migration_causes[] = {
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_USER, "user"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE, "coherence"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_PREFETCH, "prefetch"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_EVICTION, "eviction"},
    {CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_ACCESS_COUNTERS, "access counters"},
    {0, NULL},
};

/* The calls CUPTI's synchronization records stand for. */
static const struct cupti_convert_name cupti_convert_sync_names[] = {
    {CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, "cudaEventSynchronize"},
    {CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT, "cudaStreamWaitEvent"},
    {CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, "cudaStreamSynchronize"},
    {CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, "cudaDeviceSynchronize"},
    {0, NULL},
};

/* cupti_convert_lookup returns the name of value in names (ended by a NULL name), fallback when it has none. */
static const char *cupti_convert_lookup(const struct cupti_convert_name *names, unsigned value, const char *fallback)
{
	for (; names->name != NULL; names++)
		if (names->value == value)
			return names->name;
	return fallback;
}

/* The direction of a copy engine's interval as CUPTI's copy names write it. */
static const char *cupti_convert_dir(int kind)
{
	return kind == SS_KIND_H2D ? "HtoD" : kind == SS_KIND_D2H ? "DtoH" : "DtoD";
}

/* A CUPTI device id as a record's device: ids past what a record holds are clamped to its last one. */
static uint8_t cupti_convert_device(uint32_t id)
{
	return id > UINT8_MAX ? UINT8_MAX : (uint8_t)id;
}

int cupti_convert_stream(const struct cupti_convert_map *map, uint32_t id)
{
	for (int i = 0; i < map->nids; i++)
		if (map->ids[i] == id)
			return i;
	if (map->have_null && id == map->null_stream)
		return SS_STREAM_LEGACY;
	for (int i = 0; i < map->nper_thread; i++)
		if (map->per_thread[i] == id)
			return SS_STREAM_PER_THREAD;
	return SS_STREAM_UNKNOWN;
}

/* An interval's common fields (an end before the start is taken as the start). Returns CUPTI_CONVERT_NO_TIME when
 * CUPTI lost the timestamps, else CUPTI_CONVERT_RECORD. */
static int cupti_convert_interval(struct ss_record *r, int kind, uint64_t start, uint64_t end, int stream,
                                  uint32_t thread, uint32_t correlation)
{
	r->kind = (uint8_t)kind;
	r->start = start;
	r->end = end < start ? start : end;
	r->stream = stream;
	r->thread = thread;
	r->correlation = correlation;
	return start == 0 && end == 0 ? CUPTI_CONVERT_NO_TIME : CUPTI_CONVERT_RECORD;
}

/* A GPU interval's common fields: its stream mapped through map, its channel in r->thread. Returns as
 * cupti_convert_interval. */
static int cupti_convert_gpu(const struct cupti_convert_map *map, struct ss_record *r, int kind, uint64_t start,
                             uint64_t end, uint32_t stream, uint32_t correlation, uint32_t channel)
{
	r->raw_stream = stream;
	return cupti_convert_interval(r, kind, start, end, cupti_convert_stream(map, stream), channel, correlation);
}

/* A memcpy record: an H2D, D2H or D2D interval (host-to-host copies are CUPTI_CONVERT_UNSUPPORTED) flagged with
 * its host memory's kind (pageable, pinned, managed) and whether it was async, its bytes and device, named as Nsight
 * Systems names copies ("Memcpy HtoD (Pinned -> Device)"). Returns as cupti_convert_interval. */
static int cupti_convert_memcpy(const CUpti_ActivityMemcpy6 *m, const struct cupti_convert_map *map,
                                struct ss_record *r, char *name, size_t len)
{
	int kind;

	switch (m->copyKind) {
	case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
	case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
		kind = SS_KIND_H2D;
		break;
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
	case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
		kind = SS_KIND_D2H;
		break;
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
	case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
	case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
	case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
	case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
		kind = SS_KIND_D2D;
		break;
	default:
		return CUPTI_CONVERT_UNSUPPORTED; /* host-to-host or unknown: no engine of ours */
	}
	if (m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE || m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE)
		r->flags |= SS_REC_PAGEABLE;
	if (m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED || m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED)
		r->flags |= SS_REC_PINNED;
	if (m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED || m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED ||
	    m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC ||
	    m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC)
		r->flags |= SS_REC_MANAGED;
	if (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC)
		r->flags |= SS_REC_ASYNC;
	r->bytes = m->bytes;
	r->device = cupti_convert_device(m->deviceId);
	snprintf(name, len, "Memcpy %s (%s -> %s)", cupti_convert_dir(kind),
	         cupti_convert_lookup(cupti_convert_memory_names, m->srcKind, "Unknown"),
	         cupti_convert_lookup(cupti_convert_memory_names, m->dstKind, "Unknown"));
	return cupti_convert_gpu(map, r, kind, m->start, m->end, m->streamId, m->correlationId, m->channelID);
}

/* A peer-to-peer copy (cudaMemcpyPeer*, or a copy between two devices' memory under unified addressing): a D2D
 * interval on the device of its stream (deviceId), flagged SS_REC_PEER with the other end in r->peer and
 * SS_REC_PEER_IN when the data flows into deviceId. Source and destination on one device: a plain D2D copy. */
static int cupti_convert_peer(const CUpti_ActivityMemcpyPtoP4 *m, const struct cupti_convert_map *map,
                              struct ss_record *r, char *name, size_t len)
{
	r->device = cupti_convert_device(m->deviceId);
	if (m->srcDeviceId != m->dstDeviceId) {
		bool in = m->dstDeviceId == m->deviceId;

		r->flags |= SS_REC_PEER | (in ? SS_REC_PEER_IN : 0);
		r->peer = cupti_convert_device(in ? m->srcDeviceId : m->dstDeviceId);
	}
	if (m->srcKind == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED || m->dstKind == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED)
		r->flags |= SS_REC_MANAGED;
	if (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC)
		r->flags |= SS_REC_ASYNC;
	r->bytes = m->bytes;
	snprintf(name, len, "Memcpy PtoP (GPU %u -> GPU %u)", (unsigned)m->srcDeviceId, (unsigned)m->dstDeviceId);
	return cupti_convert_gpu(map, r, SS_KIND_D2D, m->start, m->end, m->streamId, m->correlationId, m->channelID);
}

bool cupti_convert_context(const CUpti_Activity *a, uint32_t *device, uint32_t *context)
{
	switch (a->kind) {
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		*device = ((const CUpti_ActivityMemcpy6 *)a)->deviceId;
		*context = ((const CUpti_ActivityMemcpy6 *)a)->contextId;
		return true;
	case CUPTI_ACTIVITY_KIND_MEMCPY2:
		*device = ((const CUpti_ActivityMemcpyPtoP4 *)a)->deviceId;
		*context = ((const CUpti_ActivityMemcpyPtoP4 *)a)->contextId;
		return true;
	case CUPTI_ACTIVITY_KIND_MEMSET:
		*device = ((const CUpti_ActivityMemset4 *)a)->deviceId;
		*context = ((const CUpti_ActivityMemset4 *)a)->contextId;
		return true;
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		*device = ((const CUpti_ActivityKernel10 *)a)->deviceId;
		*context = ((const CUpti_ActivityKernel10 *)a)->contextId;
		return true;
	default:
		return false;
	}
}

/* A memset record: a MEMSET interval with its bytes, device, whether it was async and on managed memory, named as
 * Nsight Systems names it ("Memset (Device)"). Returns as cupti_convert_interval. */
static int cupti_convert_memset(const CUpti_ActivityMemset4 *m, const struct cupti_convert_map *map,
                                struct ss_record *r, char *name, size_t len)
{
	if (m->flags & CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC)
		r->flags |= SS_REC_ASYNC;
	if (m->memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_MANAGED)
		r->flags |= SS_REC_MANAGED;
	r->bytes = m->bytes;
	r->device = cupti_convert_device(m->deviceId);
	snprintf(name, len, "Memset (%s)", cupti_convert_lookup(cupti_convert_memory_names, m->memoryKind, "Unknown"));
	return cupti_convert_gpu(map, r, SS_KIND_MEMSET, m->start, m->end, m->streamId, m->correlationId, m->channelID);
}

/* libstdc++'s demangler (<cxxabi.h>'s abi::__cxa_demangle, extern "C"): a malloc'd demangled name, or NULL with
 * *status < 0 (-2: not a mangled name). */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* cupti_convert_ident: whether c may be part of a C++ identifier. */
static bool cupti_convert_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* cupti_convert_short_name writes to out[len] the function's own name in demangled name full: the identifier just
 * before its parameter list, past its template arguments ("void ns::k<4, (char)1>(int (*)(int))" -> "k"). False
 * when full has no such shape (then out is untouched). */
static bool cupti_convert_short_name(const char *full, char *out, size_t len)
{
	size_t n = strlen(full), end;
	int depth = 0;

	while (n > 0 && full[n - 1] != ')') /* " const", " &&": qualifiers after the parameters */
		n--;
	if (n == 0)
		return false;
	do { /* back to the '(' that opens the parameter list */
		n--;
		depth += full[n] == ')' ? 1 : full[n] == '(' ? -1 : 0;
	} while (n > 0 && depth > 0);
	if (depth != 0)
		return false;
	if (n > 0 && full[n - 1] == '>') { /* the template arguments */
		do {
			n--;
			depth += full[n] == '>' ? 1 : full[n] == '<' ? -1 : 0;
		} while (n > 0 && depth > 0);
		if (depth != 0)
			return false;
	}
	end = n;
	while (n > 0 && cupti_convert_ident(full[n - 1]))
		n--;
	if (n == end)
		return false;
	snprintf(out, len, "%.*s", (int)(end - n), full + n);
	return true;
}

/* The last name cupti_convert_kernel_names demangled, on this thread: a kernel record's name is asked for twice
 * (its record, its launch), and a program's kernels repeat a few names. */
struct cupti_convert_names {
	char in[512]; /* CUPTI's name; "" none */
	char short_name[1024], full[1024];
};
static _Thread_local struct cupti_convert_names cupti_convert_names_last;

void cupti_convert_kernel_names(const char *name, char *short_name, size_t slen, char *full, size_t flen)
{
	struct cupti_convert_names *m = &cupti_convert_names_last;
	char *d = NULL;
	int status = -2;

	if (name == NULL)
		name = "kernel";
	if (m->in[0] == '\0' || strcmp(m->in, name) != 0) {
		if (name[0] == '_' && name[1] == 'Z')
			d = __cxa_demangle(name, NULL, NULL, &status);
		if (d == NULL || status != 0) {
			snprintf(m->short_name, sizeof m->short_name, "%s", name);
			snprintf(m->full, sizeof m->full, "%s", name);
		} else {
			snprintf(m->full, sizeof m->full, "%s", d);
			if (!cupti_convert_short_name(d, m->short_name, sizeof m->short_name))
				snprintf(m->short_name, sizeof m->short_name, "%s", d);
		}
		free(d);
		/* a name too long to keep is not remembered */
		snprintf(m->in, sizeof m->in, "%s", strlen(name) < sizeof m->in ? name : "");
	}
	snprintf(short_name, slen, "%s", m->short_name);
	snprintf(full, flen, "%s", m->full);
}

static int cupti_convert_kernel(const CUpti_ActivityKernel10 *k, const struct cupti_convert_map *map,
                                struct ss_record *r, char *name, size_t len)
{
	char full[1024];

	cupti_convert_kernel_names(k->name, name, len, full, sizeof full);
	r->device = cupti_convert_device(k->deviceId);
	return cupti_convert_gpu(map, r, SS_KIND_KERNEL, k->start, k->end, k->streamId, k->correlationId, k->channelID);
}

/* A runtime or driver API record: an API interval of its host thread, named by map's callback-name lookup ("driver
 * API #N" where it has none). Returns as cupti_convert_interval. */
static int cupti_convert_api(const CUpti_ActivityAPI *a, const struct cupti_convert_map *map, struct ss_record *r,
                             char *name, size_t len)
{
	int domain = a->kind == CUPTI_ACTIVITY_KIND_DRIVER ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
	const char *api = map->api_name != NULL ? map->api_name(map->api_arg, domain, a->cbid) : NULL;

	if (api != NULL)
		snprintf(name, len, "%s", api);
	else
		snprintf(name, len, "%s API #%u", domain == CUPTI_CB_DOMAIN_DRIVER_API ? "driver" : "runtime",
		         (unsigned)a->cbid);
	return cupti_convert_interval(r, SS_KIND_API, a->start, a->end, SS_STREAM_HOST, a->threadId, a->correlationId);
}

/* A label for the stream a host record waited on: "s3", "legacy", "per-thread", "all", "stream 17". */
static void cupti_convert_stream_label(const struct cupti_convert_map *map, uint32_t id, char *buf, size_t len)
{
	int s = cupti_convert_stream(map, id);

	if (s >= 0 || s == SS_STREAM_LEGACY || s == SS_STREAM_PER_THREAD)
		timeline_stream_label(s, buf, len);
	else if (id == UINT32_MAX)
		snprintf(buf, len, "all");
	else
		snprintf(buf, len, "stream %u", (unsigned)id);
}

/* A synchronization record: a SYNC interval of the host, named by its call, with the stream it waited on for the
 * calls that name one ("cudaStreamSynchronize (s3)"); the stream's CUPTI id in r->raw_stream. Returns as
 * cupti_convert_interval. */
static int cupti_convert_sync(const CUpti_ActivitySynchronization2 *s, const struct cupti_convert_map *map,
                              struct ss_record *r, char *name, size_t len)
{
	char label[32];

	const char *call = cupti_convert_lookup(cupti_convert_sync_names, s->type, "synchronization");

	cupti_convert_stream_label(map, s->streamId, label, sizeof label);
	if (s->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT ||
	    s->type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE)
		snprintf(name, len, "%s (%s)", call, label); /* the calls that name a stream */
	else
		snprintf(name, len, "%s", call);
	r->raw_stream = s->streamId;
	return cupti_convert_interval(r, SS_KIND_SYNC, s->start, s->end, SS_STREAM_HOST, 0, s->correlationId);
}

static int cupti_convert_overhead(const CUpti_ActivityOverhead3 *o, struct ss_record *r, char *name, size_t len)
{
	bool thread = o->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || o->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS;

	snprintf(name, len, "CUPTI overhead: %s",
	         cupti_convert_lookup(cupti_convert_overhead_names, o->overheadKind, "unknown"));
	return cupti_convert_interval(r, SS_KIND_API, o->start, o->end, SS_STREAM_HOST,
	                              thread ? o->objectId.pt.threadId : 0, o->correlationId);
}

/* A unified-memory migration (prefetch or fault driven): a copy-engine interval flagged MANAGED. Not one record per
 * API call: the driver moves managed memory in pieces, and these carry no correlation id. Other counters (page
 * faults, thrashing...) are not intervals of ours. */
static int cupti_convert_migration(const CUpti_ActivityUnifiedMemoryCounter3 *u, const struct cupti_convert_map *map,
                                   struct ss_record *r, char *name, size_t len)
{
	int kind;

	switch (u->counterKind) {
	case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
		kind = SS_KIND_H2D;
		break;
	case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
		kind = SS_KIND_D2H;
		break;
	case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOD:
		kind = SS_KIND_D2D;
		break;
	default:
		return CUPTI_CONVERT_SKIP;
	}
	r->flags = SS_REC_MANAGED;
	r->bytes = u->value;
	/* the device end: the destination of HtoD, the source of DtoH and DtoD (a DtoD between two devices names the
	 * other as its peer) */
	r->device = cupti_convert_device(kind == SS_KIND_H2D ? u->dstId : u->srcId);
	if (kind == SS_KIND_D2D && u->srcId != u->dstId) {
		r->flags |= SS_REC_PEER;
		r->peer = cupti_convert_device(u->dstId);
	}
	snprintf(name, len, "Unified memory %s (%s)", cupti_convert_dir(kind),
	         cupti_convert_lookup(cupti_convert_migration_causes, u->flags, "unknown"));
	return cupti_convert_gpu(map, r, kind, u->start, u->end, u->streamId, 0, 0);
}

/* An NVTX marker record: a start or instantaneous marker becomes a MARKER at its time with its name
 * (CUPTI_CONVERT_MARKER_START), an end gives CUPTI_CONVERT_MARKER_END for the caller to close its range; any other
 * CUPTI_CONVERT_SKIP. */
static int cupti_convert_marker(const CUpti_ActivityMarker2 *m, struct ss_record *r, char *name, size_t len)
{
	r->kind = SS_KIND_MARKER;
	r->start = r->end = m->timestamp;
	r->stream = SS_STREAM_HOST;
	r->correlation = m->id;
	r->thread = m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD || m->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS
	                ? m->objectId.pt.threadId
	                : 0;
	if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
		return CUPTI_CONVERT_MARKER_END;
	if (m->flags & (CUPTI_ACTIVITY_FLAG_MARKER_START | CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS)) {
		snprintf(name, len, "%s", m->name != NULL ? m->name : "");
		return CUPTI_CONVERT_MARKER_START;
	}
	return CUPTI_CONVERT_SKIP;
}

bool cupti_convert_launch(const CUpti_Activity *a, struct ss_launch *l, char *full, size_t len)
{
	const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)a;
	char short_name[256];

	if (a->kind != CUPTI_ACTIVITY_KIND_KERNEL && a->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
		return false;
	if (k->gridX <= 0 || k->gridY <= 0 || k->gridZ <= 0 || k->blockX <= 0 || k->blockY <= 0 || k->blockZ <= 0)
		return false;
	memset(l, 0, sizeof *l);
	l->correlation = k->correlationId;
	l->raw_stream = k->streamId;
	l->grid[0] = (uint32_t)k->gridX;
	l->grid[1] = (uint32_t)k->gridY;
	l->grid[2] = (uint32_t)k->gridZ;
	l->block[0] = (uint32_t)k->blockX;
	l->block[1] = (uint32_t)k->blockY;
	l->block[2] = (uint32_t)k->blockZ;
	l->registers = k->registersPerThread;
	l->static_smem = k->staticSharedMemory > 0 ? (uint32_t)k->staticSharedMemory : 0;
	l->dynamic_smem = k->dynamicSharedMemory > 0 ? (uint32_t)k->dynamicSharedMemory : 0;
	l->flags = SS_LAUNCH_ATTRS;
	cupti_convert_kernel_names(k->name, short_name, sizeof short_name, full, len);
	if (strcmp(short_name, full) == 0 && len > 0)
		full[0] = '\0';
	return true;
}

int cupti_convert(const CUpti_Activity *a, const struct cupti_convert_map *map, struct ss_record *r, char *name,
                  size_t len)
{
	memset(r, 0, sizeof *r);
	if (len > 0)
		name[0] = '\0';
	switch (a->kind) {
	case CUPTI_ACTIVITY_KIND_MEMCPY:
		return cupti_convert_memcpy((const CUpti_ActivityMemcpy6 *)a, map, r, name, len);
	case CUPTI_ACTIVITY_KIND_MEMSET:
		return cupti_convert_memset((const CUpti_ActivityMemset4 *)a, map, r, name, len);
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
		return cupti_convert_kernel((const CUpti_ActivityKernel10 *)a, map, r, name, len);
	case CUPTI_ACTIVITY_KIND_RUNTIME:
	case CUPTI_ACTIVITY_KIND_DRIVER:
		return cupti_convert_api((const CUpti_ActivityAPI *)a, map, r, name, len);
	case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
		return cupti_convert_sync((const CUpti_ActivitySynchronization2 *)a, map, r, name, len);
	case CUPTI_ACTIVITY_KIND_OVERHEAD:
		return cupti_convert_overhead((const CUpti_ActivityOverhead3 *)a, r, name, len);
	case CUPTI_ACTIVITY_KIND_MARKER:
		return cupti_convert_marker((const CUpti_ActivityMarker2 *)a, r, name, len);
	case CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER:
		return cupti_convert_migration((const CUpti_ActivityUnifiedMemoryCounter3 *)a, map, r, name, len);
	case CUPTI_ACTIVITY_KIND_MEMCPY2:
		return cupti_convert_peer((const CUpti_ActivityMemcpyPtoP4 *)a, map, r, name, len);
	default:
		return CUPTI_CONVERT_SKIP;
	}
}

void cupti_convert_migration_config(CUpti_ActivityUnifiedMemoryCounterConfig config[2])
{
	memset(config, 0, 2 * sizeof *config);
	config[0].scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
	config[0].kind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD;
	config[0].deviceId = 0;
	config[0].enable = 1;
	config[1] = config[0];
	config[1].kind = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH;
}
