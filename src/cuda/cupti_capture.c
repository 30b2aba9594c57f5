/* cupti_capture.c: CUPTI Activity API buffers and the parked queue (see cupti_capture.h). */
#include "cuda/cupti_capture.h"

#include <cupti.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/vec.h"
#include "core/xalloc.h"

#define CAPTURE_BUFFER_SIZE (1u << 20) /* bytes of records per buffer */
#define CAPTURE_HEADER 64u             /* our bookkeeping in front of each buffer (keeps records 8-byte aligned) */
#define CAPTURE_HIDE_ID 0x5353u        /* external correlation id of the measurement's own calls ("SS") */
#define CAPTURE_API_NAMES 2048u        /* cached API names per domain */
#define CAPTURE_LIB "libcupti.so.13"   /* the CUPTI streamscope is built against (CUDA 13) */

/* What sits in front of every buffer handed to CUPTI: the parked queue is threaded through these headers, so the
 * completion callback never allocates. */
struct capture_header {
	struct capture_header *next;
	size_t valid;
};

/* The process-wide session: the parked queue (callbacks run on CUPTI's and the issuing threads), the tracing
 * state, the last legacy stream id seen, and the API name cache. */
static struct {
	pthread_mutex_t lock;
	struct capture_header *head, *tail; /* parked, in completion order */
	bool registered, tracing, have_null;
	bool detached;    /* cupti_capture_detach ran and no cupti_capture_attach since */
	bool stays;       /* cuptiFinalize refused once: CUPTI stays attached from then on */
	bool migrations;  /* UNIFIED_MEMORY_COUNTER goes with the tracing kinds */
	bool event_times; /* CUDA_EVENT (with device timestamps) goes with the tracing kinds */
	uint32_t null_stream;
	char *api_names[2][CAPTURE_API_NAMES];
} capture = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The kinds of a traced run. CONCURRENT_KERNEL, never KERNEL: KERNEL serialises kernels. */
static const CUpti_ActivityKind capture_kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2, /* peer copies (--devices with --peer) */
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    CUPTI_ACTIVITY_KIND_OVERHEAD,
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
};

/* The CUPTI entry points streamscope calls, resolved from libcupti at run time (cupti_capture_load), so that the
 * program starts, and says what is missing, on a machine without CUPTI. */
#define CAPTURE_API(X)                                                                                                 \
	X(cuptiActivityConfigureUnifiedMemoryCounter)                                                                  \
	X(cuptiActivityDisable)                                                                                        \
	X(cuptiActivityEnable)                                                                                         \
	X(cuptiActivityEnableAllSyncRecords)                                                                           \
	X(cuptiActivityEnableCudaEventDeviceTimestamps)                                                                \
	X(cuptiActivityFlushAll)                                                                                       \
	X(cuptiActivityGetNextRecord)                                                                                  \
	X(cuptiActivityGetNumDroppedRecords)                                                                           \
	X(cuptiActivityPopExternalCorrelationId)                                                                       \
	X(cuptiActivityPushExternalCorrelationId)                                                                      \
	X(cuptiActivityRegisterCallbacks)                                                                              \
	X(cuptiFinalize)                                                                                               \
	X(cuptiActivitySetAttribute)                                                                                   \
	X(cuptiGetCallbackName)                                                                                        \
	X(cuptiGetResultString)                                                                                        \
	X(cuptiGetStreamIdEx)                                                                                          \
	X(cuptiGetTimestamp)                                                                                           \
	X(cuptiGetVersion)

/* The resolved entry points; lib is NULL until cupti_capture_load succeeds. */
static struct {
	void *lib;
#define CAPTURE_API_MEMBER(f) __typeof__(f) *f;
	CAPTURE_API(CAPTURE_API_MEMBER)
#undef CAPTURE_API_MEMBER
} api;

/* Where libcupti is looked for after the dynamic linker's own search (LD_LIBRARY_PATH, the program's run path):
 * the CUDA toolkit's usual places. */
static const char *const capture_lib_dirs[] = {
    "/usr/local/cuda/targets/x86_64-linux/lib",
    "/usr/local/cuda/extras/CUPTI/lib64",
    "/usr/local/cuda/lib64",
};

int cupti_capture_load(char **cause)
{
	const char *forced = getenv("SS_CUPTI_LIBRARY");
	char path[512], first[384] = "";
	void *lib;
	uint32_t version = 0;

	if (api.lib != NULL)
		return 0;
	lib = dlopen(forced != NULL ? forced : CAPTURE_LIB, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL)
		snprintf(first, sizeof first, "%s", dlerror());
	for (size_t i = 0; lib == NULL && forced == NULL && i < sizeof capture_lib_dirs / sizeof *capture_lib_dirs;
	     i++) {
		snprintf(path, sizeof path, "%s/%s", capture_lib_dirs[i], CAPTURE_LIB);
		lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	}
	if (lib == NULL) {
		*cause = xasprintf("CUPTI unavailable: %s; install the CUDA toolkit's CUPTI or set LD_LIBRARY_PATH to "
		                   "the folder holding %s (valid without CUPTI: --backend model)",
		                   first, forced != NULL ? forced : CAPTURE_LIB);
		return -1;
	}
#define CAPTURE_API_RESOLVE(f)                                                                                         \
	if ((*(void **)&api.f = dlsym(lib, #f)) == NULL) {                                                             \
		*cause = xasprintf("CUPTI unusable: %s has no %s (streamscope needs CUPTI %d.x)",                      \
		                   forced != NULL ? forced : CAPTURE_LIB, #f, CUPTI_API_VERSION / 10000);              \
		dlclose(lib);                                                                                          \
		return -1;                                                                                             \
	}
	CAPTURE_API(CAPTURE_API_RESOLVE)
#undef CAPTURE_API_RESOLVE
	/* the record layouts streamscope reads are those of its CUPTI major version */
	if (api.cuptiGetVersion(&version) != CUPTI_SUCCESS || version / 10000 != CUPTI_API_VERSION / 10000) {
		*cause = xasprintf("CUPTI unusable: %s reports API version %u, streamscope was built for %d.x",
		                   forced != NULL ? forced : CAPTURE_LIB, version, CUPTI_API_VERSION / 10000);
		dlclose(lib);
		return -1;
	}
	api.lib = lib;
	return 0;
}

int cupti_capture_stream_id(void *ctx, void *stream, bool per_thread, uint32_t *id)
{
	if (api.lib == NULL)
		return -1;
	return api.cuptiGetStreamIdEx((CUcontext)ctx, (CUstream)stream, per_thread ? 1 : 0, id) == CUPTI_SUCCESS ? 0
	                                                                                                         : -1;
}

int cupti_capture_error(const char *call, int result, char **cause)
{
	const char *s = NULL;

	if (api.cuptiGetResultString((CUptiResult)result, &s) != CUPTI_SUCCESS || s == NULL)
		s = "unknown CUPTI error";
	*cause = xasprintf("%s: %s (CUPTI error %d)", call, s, result);
	return -1;
}

/* CUPTI asks for a buffer; may run on several threads at once (per-thread buffers). A failed allocation hands
 * CUPTI no buffer, and the records it could not store show up in the dropped count. */
static void CUPTIAPI capture_request(uint8_t **buffer, size_t *size, size_t *max_records)
{
	unsigned char *p = aligned_alloc(CAPTURE_HEADER, CAPTURE_HEADER + CAPTURE_BUFFER_SIZE);

	*max_records = 0;
	if (p == NULL) {
		*buffer = NULL;
		*size = 0;
		return;
	}
	*buffer = p + CAPTURE_HEADER;
	*size = CAPTURE_BUFFER_SIZE;
}

/* CUPTI hands a buffer back: park it, convert later (after a flush, on the collecting thread). */
static void CUPTIAPI capture_complete(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
	struct capture_header *h;

	(void)ctx;
	(void)stream;
	(void)size;
	if (buffer == NULL)
		return;
	h = (struct capture_header *)(void *)(buffer - CAPTURE_HEADER);
	h->next = NULL;
	h->valid = valid;
	pthread_mutex_lock(&capture.lock);
	if (capture.tail != NULL)
		capture.tail->next = h;
	else
		capture.head = h;
	capture.tail = h;
	pthread_mutex_unlock(&capture.lock);
}

/* capture_attributes applies the diagnostic SS_CUPTI_RECORDS (where CUPTI keeps the GPU's timestamps before they
 * reach the activity buffers), set before CUDA starts: "pinned" (page-locked host memory, written over PCIe as the
 * work runs), "device=BYTES" (device memory, the default, with a buffer of BYTES per context; CUPTI moves it to the
 * host when it flushes). Unset: CUPTI's defaults. -1 with *cause on a bad value or a refused attribute. */
static int capture_attributes(char **cause)
{
	const char *v = getenv("SS_CUPTI_RECORDS");
	CUptiResult rc;

	if (v == NULL || *v == '\0')
		return 0;
	if (strcmp(v, "pinned") == 0) {
		uint8_t on = 1;
		size_t size = sizeof on;

		rc = api.cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, &size, &on);
	} else if (strncmp(v, "device=", 7) == 0) {
		char *end;
		unsigned long long bytes;
		size_t value, size = sizeof value;

		errno = 0;
		bytes = strtoull(v + 7, &end, 10);
		if (end == v + 7 || *end != '\0' || errno != 0 || bytes < 4096 || bytes > (1ull << 31)) {
			*cause = xasprintf("SS_CUPTI_RECORDS=%s: valid is pinned or device=BYTES (4096..2^31)", v);
			return -1;
		}
		value = (size_t)bytes;
		rc = api.cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &size, &value);
	} else {
		*cause = xasprintf("SS_CUPTI_RECORDS=%s: valid is pinned or device=BYTES (4096..2^31)", v);
		return -1;
	}
	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivitySetAttribute(SS_CUPTI_RECORDS)", rc, cause);
	return 0;
}

/* capture_register hands CUPTI the buffer callbacks and keeps the sync records of queries that completed only:
 * what a session needs before any kind is enabled (cupti_capture_init, cupti_capture_attach). */
static int capture_register(char **cause)
{
	CUptiResult rc = api.cuptiActivityRegisterCallbacks(capture_request, capture_complete);

	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityRegisterCallbacks", rc, cause);
	capture.registered = true;
	/* Drop the records of event/stream queries that were not complete yet (one per poll otherwise). */
	rc = api.cuptiActivityEnableAllSyncRecords(0);
	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityEnableAllSyncRecords", rc, cause);
	return 0;
}

int cupti_capture_init(char **cause)
{
	CUptiResult rc;

	if (capture.registered)
		return 0;
	if (capture_attributes(cause) < 0 || capture_register(cause) < 0)
		return -1;
	rc = api.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONTEXT);
	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityEnable(CONTEXT)", rc, cause);
	return 0;
}

/* capture_kind_set turns one of the optional kinds (named for the message) on or off. Returns 0, or -1 with *cause
 * naming the call and the kind. */
static int capture_kind_set(CUpti_ActivityKind kind, const char *name, bool on, char **cause)
{
	CUptiResult rc = on ? api.cuptiActivityEnable(kind) : api.cuptiActivityDisable(kind);
	char call[96];

	if (rc == CUPTI_SUCCESS)
		return 0;
	snprintf(call, sizeof call, "%s(%s)", on ? "cuptiActivityEnable" : "cuptiActivityDisable", name);
	return cupti_capture_error(call, rc, cause);
}

/* capture_kind_probe turns an optional kind on and off again, to find out now, not in the middle of a traced run,
 * whether it can be turned on; when it can, *usable is set. Returns 0, or -1 with *cause (capture_kind_set). */
static int capture_kind_probe(CUpti_ActivityKind kind, const char *name, bool *usable, char **cause)
{
	if (capture_kind_set(kind, name, true, cause) < 0 || capture_kind_set(kind, name, false, cause) < 0)
		return -1;
	*usable = true;
	return 0;
}

/* capture_migration_config sets the unified-memory counters migration records need (cupti_capture_migrations,
 * and again after cupti_capture_attach). */
static int capture_migration_config(char **cause)
{
	CUpti_ActivityUnifiedMemoryCounterConfig config[2];
	CUptiResult rc;

	cupti_convert_migration_config(config);
	rc = api.cuptiActivityConfigureUnifiedMemoryCounter(config, 2);
	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityConfigureUnifiedMemoryCounter", rc, cause);
	return 0;
}

/* capture_event_timestamps asks for device timestamps on CUDA_EVENT records (cupti_capture_event_times, and again
 * after cupti_capture_attach). */
static int capture_event_timestamps(char **cause)
{
	CUptiResult rc = api.cuptiActivityEnableCudaEventDeviceTimestamps(1);

	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityEnableCudaEventDeviceTimestamps", rc, cause);
	return 0;
}

int cupti_capture_migrations(char **cause)
{
	if (capture_migration_config(cause) < 0)
		return -1;
	return capture_kind_probe(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER, "UNIFIED_MEMORY_COUNTER",
	                          &capture.migrations, cause);
}

int cupti_capture_event_times(char **cause)
{
	if (capture_event_timestamps(cause) < 0)
		return -1;
	return capture_kind_probe(CUPTI_ACTIVITY_KIND_CUDA_EVENT, "CUDA_EVENT", &capture.event_times, cause);
}

/* capture_kind_wanted: every tracing kind, unless the diagnostic SS_CUPTI_ONLY=gpu (kernels, copies, memsets) or
 * =host (API calls, synchronisation, CUPTI overhead) narrows them, to see which side the observer effect comes
 * from. A narrowed run's record counts are short by design: never use it for anything but that. */
static bool capture_kind_wanted(CUpti_ActivityKind kind)
{
	const char *only = getenv("SS_CUPTI_ONLY");
	bool gpu = kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || kind == CUPTI_ACTIVITY_KIND_MEMCPY ||
	           kind == CUPTI_ACTIVITY_KIND_MEMCPY2 || kind == CUPTI_ACTIVITY_KIND_MEMSET;

	if (only == NULL || kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)
		return true;
	if (strcmp(only, "gpu") == 0)
		return gpu;
	if (strcmp(only, "host") == 0)
		return !gpu;
	return true;
}

int cupti_capture_enable(bool on, char **cause)
{
	CUptiResult rc;

	for (size_t i = 0; i < sizeof capture_kinds / sizeof capture_kinds[0]; i++) {
		if (!capture_kind_wanted(capture_kinds[i]))
			continue;
		rc = on ? api.cuptiActivityEnable(capture_kinds[i]) : api.cuptiActivityDisable(capture_kinds[i]);
		if (rc != CUPTI_SUCCESS)
			return cupti_capture_error(on ? "cuptiActivityEnable" : "cuptiActivityDisable", rc, cause);
	}
	if (capture.migrations &&
	    capture_kind_set(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER, "UNIFIED_MEMORY_COUNTER", on, cause) < 0)
		return -1;
	if (capture.event_times && capture_kind_set(CUPTI_ACTIVITY_KIND_CUDA_EVENT, "CUDA_EVENT", on, cause) < 0)
		return -1;
	capture.tracing = on;
	return 0;
}

void cupti_capture_hide_begin(void)
{
	if (capture.tracing)
		api.cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, CAPTURE_HIDE_ID);
}

void cupti_capture_hide_end(void)
{
	uint64_t id;

	if (capture.tracing)
		api.cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &id);
}

void cupti_capture_tag_begin(uint64_t tag)
{
	if (!capture.tracing)
		return;
	api.cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, CAPTURE_HIDE_ID);
	api.cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, tag);
}

void cupti_capture_tag_end(void)
{
	uint64_t id;

	if (!capture.tracing)
		return;
	api.cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, &id);
	api.cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &id);
}

uint64_t cupti_capture_timestamp(void)
{
	uint64_t t = 0;
	struct timespec ts;

	if (!capture.detached) {
		api.cuptiGetTimestamp(&t);
		return t;
	}
	/* no CUPTI call while detached (one would attach it again): CUPTI's default timebase */
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int cupti_capture_flush(char **cause)
{
	CUptiResult rc = api.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);

	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityFlushAll", rc, cause);
	return 0;
}

/* Take the whole parked queue. */
static struct capture_header *capture_take(void)
{
	struct capture_header *h;

	pthread_mutex_lock(&capture.lock);
	h = capture.head;
	capture.head = capture.tail = NULL;
	pthread_mutex_unlock(&capture.lock);
	return h;
}

/* capture_push appends a converted record and a copy of its name to the batch. */
static void capture_push(struct cupti_capture_batch *b, const struct ss_record *r, const char *name)
{
	struct cupti_capture_rec *p = VEC_PUSH(b->rec, b->n, b->cap, 1024);

	p->r = *r;
	p->name = xstrdup(name);
}

static int capture_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Packs (correlation id, thread) for sorting by correlation id. */
static uint64_t capture_pair(uint32_t correlation, uint32_t thread)
{
	return (uint64_t)correlation << 32 | thread;
}

/* A correlation id and a value tied to it. */
struct capture_kv {
	uint32_t correlation;
	uint64_t value;
};

static void capture_kv_add(struct capture_kv **v, size_t *n, size_t *cap, uint32_t correlation, uint64_t value)
{
	struct capture_kv *p = VEC_PUSH(*v, *n, *cap, 64);

	p->correlation = correlation;
	p->value = value;
}

static int capture_cmp_kv(const void *a, const void *b)
{
	uint32_t x = ((const struct capture_kv *)a)->correlation, y = ((const struct capture_kv *)b)->correlation;

	return x < y ? -1 : x > y;
}

/* b->events: each tag whose cudaEventRecord call (same correlation id) has a device timestamp. */
static void capture_join_events(struct cupti_capture_batch *b, struct capture_kv *tags, size_t ntags,
                                struct capture_kv *times, size_t ntimes)
{
	qsort(times, ntimes, sizeof *times, capture_cmp_kv);
	b->events = xreallocarray(b->events, ntags + 1, sizeof *b->events);
	for (size_t i = 0; i < ntags; i++) {
		const struct capture_kv *t = bsearch(&tags[i], times, ntimes, sizeof *times, capture_cmp_kv);

		if (t != NULL) {
			b->events[b->nevents].tag = tags[i].value;
			b->events[b->nevents++].ns = t->value;
		}
	}
}

/* Host-side fix-ups once everything is converted: SYNC records take the thread of their API call, and the API and
 * SYNC records of the measurement's own calls (hidden correlation ids, sorted) are left out. */
static void capture_fixup(struct cupti_capture_batch *b, const uint64_t *hidden, size_t nhidden)
{
	uint64_t *pairs = xcalloc(b->n + 1, sizeof *pairs);
	size_t np = 0, out = 0;

	for (size_t i = 0; i < b->n; i++)
		if (b->rec[i].r.kind == SS_KIND_API && b->rec[i].r.correlation != 0)
			pairs[np++] = capture_pair(b->rec[i].r.correlation, b->rec[i].r.thread);
	qsort(pairs, np, sizeof *pairs, capture_cmp_u64);
	for (size_t i = 0; i < b->n; i++) {
		struct cupti_capture_rec *c = &b->rec[i];
		uint64_t corr = c->r.correlation;
		bool host = c->r.kind == SS_KIND_API || c->r.kind == SS_KIND_SYNC;

		if (host && corr != 0 && bsearch(&corr, hidden, nhidden, sizeof *hidden, capture_cmp_u64) != NULL) {
			free(c->name);
			b->hidden++;
			continue;
		}
		if (c->r.kind == SS_KIND_SYNC && corr != 0) {
			/* lower_bound of (corr, 0) among the pairs */
			size_t lo = 0, hi = np;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if (pairs[mid] < capture_pair((uint32_t)corr, 0))
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < np && pairs[lo] >> 32 == corr)
				c->r.thread = (uint32_t)pairs[lo];
		}
		b->rec[out++] = *c;
	}
	b->n = out;
	free(pairs);
}

int cupti_capture_collect(const struct cupti_convert_map *map, uint64_t t0, struct cupti_capture_batch *b, char **cause)
{
	struct capture_header *h = capture_take(), *next;
	uint64_t *hidden = NULL;
	struct capture_kv *tags = NULL, *times = NULL; /* correlation id -> tag; correlation id -> device time */
	size_t nhidden = 0, hcap = 0, dropped = 0, ntags = 0, tcap = 0, ntimes = 0, ecap = 0;
	char name[256];
	CUptiResult rc;

	for (size_t i = 0; i < b->n; i++)
		free(b->rec[i].name);
	for (size_t i = 0; i < b->nlaunch; i++)
		free(b->launch[i].full_name);
	b->n = 0;
	b->nevents = 0;
	b->nlaunch = 0;
	b->dropped = b->unsupported = b->early = b->hidden = 0;
	for (; h != NULL; h = next) {
		uint8_t *buf = (uint8_t *)h + CAPTURE_HEADER;
		CUpti_Activity *a = NULL;

		next = h->next;
		while ((rc = api.cuptiActivityGetNextRecord(buf, h->valid, &a)) == CUPTI_SUCCESS) {
			struct ss_record r;
			int st;

			if (a->kind == CUPTI_ACTIVITY_KIND_CONTEXT) {
				capture.null_stream = ((const CUpti_ActivityContext3 *)a)->nullStreamId;
				capture.have_null = true;
				continue;
			}
			if (a->kind == CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
				const CUpti_ActivityExternalCorrelation *x =
				    (const CUpti_ActivityExternalCorrelation *)a;
				if (x->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0 &&
				    x->externalId == CAPTURE_HIDE_ID) {
					*VEC_PUSH(hidden, nhidden, hcap, 64) = x->correlationId;
				} else if (x->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1) {
					capture_kv_add(&tags, &ntags, &tcap, x->correlationId, x->externalId);
				}
				continue;
			}
			if (a->kind == CUPTI_ACTIVITY_KIND_CUDA_EVENT) {
				const CUpti_ActivityCudaEvent2 *ev = (const CUpti_ActivityCudaEvent2 *)a;
				if (ev->deviceTimestamp != 0)
					capture_kv_add(&times, &ntimes, &ecap, ev->correlationId, ev->deviceTimestamp);
				continue;
			}
			st = cupti_convert(a, map, &r, name, sizeof name);
			if (st == CUPTI_CONVERT_NO_TIME)
				b->dropped++;
			else if (st == CUPTI_CONVERT_UNSUPPORTED)
				b->unsupported++;
			else if (st == CUPTI_CONVERT_RECORD && r.start < t0)
				b->early++;
			else if (st == CUPTI_CONVERT_RECORD) {
				struct ss_launch l;
				char full[1024];

				capture_push(b, &r, name);
				if (r.kind == SS_KIND_KERNEL && cupti_convert_launch(a, &l, full, sizeof full)) {
					struct cupti_capture_launch *cl =
					    VEC_PUSH(b->launch, b->nlaunch, b->launch_cap, 256);

					cl->l = l;
					cl->full_name = full[0] != '\0' ? xstrdup(full) : NULL;
				}
			}
		}
		free(h);
		if (rc != CUPTI_ERROR_MAX_LIMIT_REACHED) {
			/* Free the rest of the queue before failing. */
			for (h = next; h != NULL; h = next) {
				next = h->next;
				free(h);
			}
			free(hidden);
			free(tags);
			free(times);
			return cupti_capture_error("cuptiActivityGetNextRecord", rc, cause);
		}
	}
	capture_join_events(b, tags, ntags, times, ntimes);
	free(tags);
	free(times);
	qsort(hidden, nhidden, sizeof *hidden, capture_cmp_u64);
	capture_fixup(b, hidden, nhidden);
	free(hidden);
	rc = api.cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped);
	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityGetNumDroppedRecords", rc, cause);
	b->dropped += dropped;
	return 0;
}

bool cupti_capture_null_stream(uint32_t *id)
{
	*id = capture.null_stream;
	return capture.have_null;
}

const char *cupti_capture_api_name(void *arg, int domain, uint32_t cbid)
{
	int d = domain == CUPTI_CB_DOMAIN_DRIVER_API ? 1 : 0;
	const char *name = NULL;
	char *s, *v;

	(void)arg;
	if (cbid >= CAPTURE_API_NAMES)
		return NULL;
	if (capture.api_names[d][cbid] != NULL)
		return capture.api_names[d][cbid];
	if (api.cuptiGetCallbackName((CUpti_CallbackDomain)domain, cbid, &name) != CUPTI_SUCCESS || name == NULL)
		return NULL;
	/* "cudaMemcpyAsync_v3020" -> "cudaMemcpyAsync" */
	s = xstrdup(name);
	v = strstr(s, "_v");
	if (v != NULL && v[2] >= '0' && v[2] <= '9')
		*v = '\0';
	capture.api_names[d][cbid] = s;
	return s;
}

/* capture_drop frees every parked buffer unread. */
static void capture_drop(void)
{
	struct capture_header *h, *next;

	for (h = capture_take(); h != NULL; h = next) {
		next = h->next;
		free(h);
	}
}

bool cupti_capture_detachable(void)
{
	const char *v = getenv("SS_CUPTI_DETACH"), *records = getenv("SS_CUPTI_RECORDS");

	return !capture.stays && !(v != NULL && strcmp(v, "0") == 0) && (records == NULL || *records == '\0');
}

int cupti_capture_detach(char **cause)
{
	CUptiResult rc;

	if (!capture.registered || capture.detached || !cupti_capture_detachable())
		return 0;
	if (capture.tracing && cupti_capture_enable(false, cause) < 0)
		return -1;
	rc = api.cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONTEXT);
	if (rc != CUPTI_SUCCESS)
		return cupti_capture_error("cuptiActivityDisable(CONTEXT)", rc, cause);
	if (cupti_capture_flush(cause) < 0)
		return -1;
	rc = api.cuptiFinalize();
	if (rc != CUPTI_SUCCESS) {
		capture.stays = true;
		cupti_capture_error("cuptiFinalize", rc, cause);
		return 1;
	}
	capture_drop();
	capture.registered = false;
	capture.detached = true;
	return 0;
}

int cupti_capture_attach(char **cause)
{
	if (!capture.detached)
		return 0;
	capture.detached = false;
	if (capture_register(cause) < 0 || (capture.migrations && capture_migration_config(cause) < 0) ||
	    (capture.event_times && capture_event_timestamps(cause) < 0))
		return -1;
	return 1;
}

void cupti_capture_finish(void)
{
	if (!capture.registered)
		return;
	for (size_t i = 0; i < sizeof capture_kinds / sizeof capture_kinds[0]; i++)
		api.cuptiActivityDisable(capture_kinds[i]);
	api.cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONTEXT);
	if (capture.migrations)
		api.cuptiActivityDisable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
	if (capture.event_times)
		api.cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CUDA_EVENT);
	capture.tracing = false;
	capture.migrations = false;
	capture.event_times = false;
	api.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	capture_drop();
}

void cupti_capture_batch_free(struct cupti_capture_batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->rec[i].name);
	free(b->rec);
	free(b->events);
	for (size_t i = 0; i < b->nlaunch; i++)
		free(b->launch[i].full_name);
	free(b->launch);
	memset(b, 0, sizeof *b);
}
