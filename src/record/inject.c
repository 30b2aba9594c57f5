/* inject.c: the CUPTI injection library of `streamscope record` (contract in contract.h).
 *
 * Life of a recorded process: CUDA calls InitializeInjection while the program initialises CUDA. It picks the
 * channel (its own STREAMSCOPE_FD, or the --children socket), enables the activity kinds, subscribes to the calls
 * that would end or lose tracing, and starts a thread that asks CUPTI every STREAMSCOPE_FLUSH_MS for the buffers
 * whose records are complete. Each delivered buffer is converted (cupti_convert) and written to the channel at
 * once, so a crash loses at most the records since the last delivery. At exit a forced flush delivers the rest,
 * then the result (device, dropped count) ends the stream.
 *
 * Threads: CUPTI delivers buffers on any thread (per-thread activity buffers are on by default in 13.0) and the
 * subscriber callback runs on the program's threads, so all state below is under one mutex, which is never held
 * while calling into CUPTI's flush (the flush delivers buffers on the calling thread). */
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/wire.h"
#include "cuda/cupti_convert.h"
#include "record/contract.h"
#include "record/inject_markers.h"
#include "record/inject_streams.h"

/* Size of one activity buffer handed to CUPTI. */
#define INJECT_BUFFER_SIZE (4u << 20)

/* Everything the library holds; one per process. */
struct inject_state {
	pthread_mutex_t lock;
	struct wire_writer w;
	bool open; /* the channel is usable: records are converted and written */
	pid_t pid; /* the process that opened the channel (a fork()ed copy must not write) */
	struct inject_streams streams;
	struct inject_markers markers;
	char device[96];
	uint64_t dropped; /* records CUPTI reported dropped */
	uint64_t no_time; /* intervals whose timestamps CUPTI could not collect */
	uint64_t unsupported;
	uint64_t last_time;                             /* latest timestamp seen, for ranges still open at exit */
	char *api_names[CUPTI_RUNTIME_TRACE_CBID_SIZE]; /* runtime API names without "_v3020" */
	bool *ptsz; /* [cbid]: runtime calls that use the per-thread default stream */
	CUpti_SubscriberHandle sub;
	bool subscribed;
	/* the flushing thread */
	pthread_t flusher;
	bool flusher_running, stop;
	pthread_cond_t wake;
	unsigned flush_ms;
};

static struct inject_state inj = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
};

/* Whether this thread already reported its per-thread default stream. */
static _Thread_local bool inject_thread_pt_done;

/* Writing to a channel whose reader is gone raises SIGPIPE, which would kill the program: it is blocked in the
 * writing thread and a SIGPIPE it caused is consumed before unblocking. */
struct inject_sigpipe {
	sigset_t old;
	bool pending_before;
};

static void inject_sigpipe_block(struct inject_sigpipe *sp)
{
	sigset_t set, pending;

	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, &sp->old);
	sigpending(&pending);
	sp->pending_before = sigismember(&pending, SIGPIPE);
}

/* inject_sigpipe_restore undoes inject_sigpipe_block: a SIGPIPE raised meanwhile (one not pending before) is taken
 * off, then the thread's mask is restored. */
static void inject_sigpipe_restore(struct inject_sigpipe *sp)
{
	sigset_t set, pending;

	if (!sp->pending_before) {
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE)) {
			struct timespec zero = {0, 0};

			while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR)
				;
		}
	}
	pthread_sigmask(SIG_SETMASK, &sp->old, NULL);
}

/* The api_name hook of cupti_convert: runtime API names without their version suffix, cached per cbid. */
static const char *inject_api_name(void *arg, int domain, uint32_t cbid)
{
	const char *name = NULL;
	char *s, *v;

	(void)arg;
	if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || cbid >= CUPTI_RUNTIME_TRACE_CBID_SIZE)
		return NULL;
	if (inj.api_names[cbid] != NULL)
		return inj.api_names[cbid];
	if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) != CUPTI_SUCCESS || name == NULL)
		return NULL;
	s = strdup(name);
	if (s == NULL)
		return NULL;
	v = strrchr(s, '_');
	if (v != NULL && v[1] == 'v' && v[2] >= '0' && v[2] <= '9' && strspn(v + 2, "0123456789") == strlen(v + 2))
		*v = '\0';
	inj.api_names[cbid] = s;
	return s;
}

/* The stream map cupti_convert reads, over the current table (rebuilt per record: the arrays may move). */
static void inject_map(struct cupti_convert_map *map)
{
	memset(map, 0, sizeof *map);
	map->ids = inj.streams.ids;
	map->nids = inj.streams.n;
	map->have_null = inj.streams.have_null;
	map->null_stream = inj.streams.null_id;
	map->per_thread = inj.streams.per_thread;
	map->nper_thread = inj.streams.npt;
	map->api_name = inject_api_name;
}

/* Writes one marker interval and releases its name. */
static void inject_send_marker(struct inject_marker_out *mo)
{
	wire_record(&inj.w, &mo->rec, mo->name);
	free(mo->name);
}

/* Converts and writes one activity record. Called with the lock held and the channel open. */
static void inject_activity(const CUpti_Activity *a)
{
	struct cupti_convert_map map;
	struct ss_record r;
	struct inject_marker_out mo;
	struct ss_launch launch;
	char name[512], full[1024];
	int st;

	switch (a->kind) {
	case CUPTI_ACTIVITY_KIND_STREAM: {
		const CUpti_ActivityStream *s = (const CUpti_ActivityStream *)a;

		inject_streams_created(&inj.streams, s->streamId, (unsigned)s->flag);
		return;
	}
	case CUPTI_ACTIVITY_KIND_CONTEXT: {
		const CUpti_ActivityContext3 *c = (const CUpti_ActivityContext3 *)a;

		inject_streams_null(&inj.streams, c->nullStreamId);
		wire_device(&inj.w, (int)c->deviceId, NULL, NULL, c->contextId, 0);
		return;
	}
	case CUPTI_ACTIVITY_KIND_DEVICE: {
		const CUpti_ActivityDevice5 *d = (const CUpti_ActivityDevice5 *)a;
		const unsigned char *u = (const unsigned char *)d->uuid.bytes;
		char uuid[48];

		if (inj.device[0] == '\0' && d->name != NULL)
			snprintf(inj.device, sizeof inj.device, "%s", d->name);
		/* the device's name and UUID as nvidia-smi writes it, for the views' device headers, and its copy
		 * engines, for the insights */
		snprintf(uuid, sizeof uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		         u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
		         u[15]);
		wire_device(&inj.w, (int)d->id, d->name, uuid, 0, (int)d->numMemcpyEngines);
		return;
	}
	default:
		break;
	}
	inject_map(&map);
	st = cupti_convert(a, &map, &r, name, sizeof name);
	if (r.end > inj.last_time)
		inj.last_time = r.end;
	switch (st) {
	case CUPTI_CONVERT_RECORD:
		if (r.kind < SS_KIND_API && r.stream == SS_STREAM_UNKNOWN) {
			int i = inject_streams_see(&inj.streams, r.raw_stream);

			if (i >= 0)
				r.stream = i;
		}
		wire_record(&inj.w, &r, name);
		if (r.kind == SS_KIND_KERNEL && cupti_convert_launch(a, &launch, full, sizeof full))
			wire_launch(&inj.w, &launch, full[0] != '\0' ? full : NULL);
		break;
	case CUPTI_CONVERT_MARKER_START:
		if (((const CUpti_ActivityMarker2 *)a)->flags & CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) {
			inject_markers_instant(r.correlation, r.start, r.thread, name, &mo);
			inject_send_marker(&mo);
		} else if (inject_markers_start(&inj.markers, r.correlation, r.start, r.thread, name, &mo)) {
			inject_send_marker(&mo);
		}
		break;
	case CUPTI_CONVERT_MARKER_END:
		if (inject_markers_end(&inj.markers, r.correlation, r.start, &mo))
			inject_send_marker(&mo);
		break;
	case CUPTI_CONVERT_NO_TIME:
		inj.no_time++;
		break;
	case CUPTI_CONVERT_UNSUPPORTED:
		inj.unsupported++;
		break;
	default:
		break;
	}
}

/* inject_streams_drain's receiver: one WIRE_STREAM frame per index. Lock held, channel open. */
static void inject_emit_stream(void *arg, int index, uint32_t id, int skind)
{
	(void)arg;
	wire_stream(&inj.w, index, id, skind);
}

/* Sends the indices of the stream table that are new or changed (force: every index). Lock held, channel
 * open. */
static void inject_send_streams(bool force)
{
	if (!force && !inj.streams.dirty)
		return;
	inject_streams_drain(&inj.streams, force, inject_emit_stream, NULL);
	wire_flush(&inj.w);
}

static void CUPTIAPI inject_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*buffer = aligned_alloc(8, INJECT_BUFFER_SIZE);
	*size = *buffer != NULL ? INJECT_BUFFER_SIZE : 0;
	*max_records = 0;
}

/* CUPTI's completed-buffer callback (its own thread): converts the buffer's records and sends them, with the
 * records CUPTI dropped and any newly known streams, down the wire, then frees the buffer. Only in the process that
 * opened the wire (a forked child's buffers are freed unread); SIGPIPE is held off while it writes, so a recorder
 * that has gone away costs the records, not the program. */
static void CUPTIAPI inject_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
	struct inject_sigpipe sp;
	CUpti_Activity *a = NULL;
	size_t dropped = 0;

	(void)ctx;
	(void)stream;
	(void)size;
	inject_sigpipe_block(&sp);
	pthread_mutex_lock(&inj.lock);
	if (inj.open && getpid() == inj.pid) {
		while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &a) == CUPTI_SUCCESS)
			inject_activity(a);
		if (cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped) == CUPTI_SUCCESS)
			inj.dropped += dropped;
		inject_send_streams(false);
		wire_flush(&inj.w);
	}
	pthread_mutex_unlock(&inj.lock);
	inject_sigpipe_restore(&sp);
	free(buffer);
}

/* Delivers every buffer now, including incomplete ones: before the calls that end or lose tracing, and at exit. */
static void inject_flush_forced(void)
{
	cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

/* INJECT_CREATE_ARGS, in inject_created: the new stream's place and the flags from the parameters p of a creation
 * call of type T (its fields stream and fl). */
#define INJECT_CREATE_ARGS(T, stream, fl) (made = ((const T *)p)->stream, flags = ((const T *)p)->fl)

/* When (domain, cbid) is a stream creation call: at its successful exit, notes the new stream's kind from the
 * flags the program passed (CU_STREAM_NON_BLOCKING == cudaStreamNonBlocking == 1), under the CUPTI id of the
 * stream, so that the kind is known before the stream's first record and whether or not CUPTI's STREAM record
 * for it ever arrives. The runtime's calls and the driver's are both hooked (a runtime call that goes through the
 * driver's entry point notes the same id twice, harmlessly). Returns whether cbid was a creation call. */
static bool inject_created(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
	const CUpti_CallbackData *cb = data;
	const void *p = cb->functionParams;
	bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API, driver = domain == CUPTI_CB_DOMAIN_DRIVER_API;
	CUstream *made; /* cudaStream_t and CUstream are one type */
	unsigned flags = 0;
	uint32_t id;

	if (runtime && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020)
		made = ((const cudaStreamCreate_v3020_params *)p)->pStream;
	else if (runtime && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000)
		INJECT_CREATE_ARGS(cudaStreamCreateWithFlags_v5000_params, pStream, flags);
	else if (runtime && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050)
		INJECT_CREATE_ARGS(cudaStreamCreateWithPriority_v5050_params, pStream, flags);
	else if (driver && cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamCreate)
		INJECT_CREATE_ARGS(cuStreamCreate_params, phStream, Flags);
	else if (driver && cbid == CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority)
		INJECT_CREATE_ARGS(cuStreamCreateWithPriority_params, phStream, flags);
	else
		return false;
	if (cb->callbackSite != CUPTI_API_EXIT || cb->functionReturnValue == NULL || cb->context == NULL ||
	    made == NULL)
		return true;
	if (runtime && *(const cudaError_t *)cb->functionReturnValue != cudaSuccess)
		return true;
	if (driver && *(const CUresult *)cb->functionReturnValue != CUDA_SUCCESS)
		return true;
	if (*made != NULL && cuptiGetStreamIdEx(cb->context, *made, 0, &id) == CUPTI_SUCCESS) {
		pthread_mutex_lock(&inj.lock);
		inject_streams_created(&inj.streams, id, (flags & CU_STREAM_NON_BLOCKING) ? 2u : 1u);
		pthread_mutex_unlock(&inj.lock);
	}
	return true;
}

#undef INJECT_CREATE_ARGS

/* CUPTI's API and resource callback (the program's threads): notes each thread's per-thread default stream at its
 * first call that uses it, each context's NULL stream, and each created stream's kind (inject_created); forces the
 * buffers out before a context is destroyed and at the entry of the calls that end tracing or lose the buffers
 * (the flush lists inject_subscribe enables). Nothing in a forked child. */
static void CUPTIAPI inject_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                     const void *data)
{
	uint32_t id;

	(void)userdata;
	if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && inj.ptsz != NULL && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE &&
	    inj.ptsz[cbid]) {
		const CUpti_CallbackData *cb = data;

		/* The first call of a thread that uses the per-thread default stream: ask CUPTI for its id. Every
		 * later call of the thread returns at the first test. */
		if (inject_thread_pt_done || cb->callbackSite != CUPTI_API_EXIT || cb->context == NULL)
			return;
		inject_thread_pt_done = true;
		if (getpid() == inj.pid && cuptiGetStreamIdEx(cb->context, NULL, 1, &id) == CUPTI_SUCCESS) {
			pthread_mutex_lock(&inj.lock);
			inject_streams_per_thread(&inj.streams, id);
			pthread_mutex_unlock(&inj.lock);
		}
		return;
	}
	if (getpid() != inj.pid)
		return;
	if (inject_created(domain, cbid, data))
		return;
	if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
		const CUpti_ResourceData *rd = data;

		if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED && rd->context != NULL &&
		    cuptiGetStreamIdEx(rd->context, NULL, 0, &id) == CUPTI_SUCCESS) {
			pthread_mutex_lock(&inj.lock);
			inject_streams_null(&inj.streams, id);
			pthread_mutex_unlock(&inj.lock);
		} else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
			inject_flush_forced();
		}
		return;
	}
	if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) {
		const CUpti_CallbackData *cb = data;

		/* cudaDeviceReset, cuCtxDestroy and cu/cudaProfilerStop end tracing or lose the buffers. */
		if (cb->callbackSite == CUPTI_API_ENTER)
			inject_flush_forced();
	}
}

/* Subscribes to the calls above. Failure (another tool subscribed already: CUPTI allows one subscriber) only
 * loses the early flushes, the per-thread stream ids and the kinds from creation calls (STREAM records still
 * give those), so it is reported and recording goes on. */
static void inject_subscribe(void)
{
	static const CUpti_CallbackId runtime_flush[] = {
	    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020,
	    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
	};
	static const CUpti_CallbackId driver_flush[] = {
	    CUPTI_DRIVER_TRACE_CBID_cuProfilerStop,
	    CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy,
	    CUPTI_DRIVER_TRACE_CBID_cuCtxDestroy_v2,
	    CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset,
	    CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxReset_v2,
	};
	static const CUpti_CallbackId runtime_create[] = {
	    CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020,
	    CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000,
	    CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050,
	};
	static const CUpti_CallbackId driver_create[] = {
	    CUPTI_DRIVER_TRACE_CBID_cuStreamCreate,
	    CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority,
	};
	const char *why = NULL;
	CUptiResult rc;

	rc = cuptiSubscribe(&inj.sub, inject_callback, NULL);
	if (rc != CUPTI_SUCCESS) {
		cuptiGetResultString(rc, &why);
		fprintf(stderr,
		        "streamscope: recording without flushes before cudaDeviceReset/cudaProfilerStop and "
		        "without per-thread stream ids: cuptiSubscribe: %s\n",
		        why ? why : "failed");
		return;
	}
	inj.subscribed = true;
	for (size_t i = 0; i < sizeof runtime_flush / sizeof *runtime_flush; i++)
		cuptiEnableCallback(1, inj.sub, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_flush[i]);
	for (size_t i = 0; i < sizeof driver_flush / sizeof *driver_flush; i++)
		cuptiEnableCallback(1, inj.sub, CUPTI_CB_DOMAIN_DRIVER_API, driver_flush[i]);
	for (size_t i = 0; i < sizeof runtime_create / sizeof *runtime_create; i++)
		cuptiEnableCallback(1, inj.sub, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_create[i]);
	for (size_t i = 0; i < sizeof driver_create / sizeof *driver_create; i++)
		cuptiEnableCallback(1, inj.sub, CUPTI_CB_DOMAIN_DRIVER_API, driver_create[i]);
	cuptiEnableCallback(1, inj.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
	cuptiEnableCallback(1, inj.sub, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
	/* The runtime's _ptsz/_ptds entry points are the calls that use the per-thread default stream. */
	inj.ptsz = calloc(CUPTI_RUNTIME_TRACE_CBID_SIZE, sizeof *inj.ptsz);
	for (uint32_t cbid = 1; inj.ptsz != NULL && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE; cbid++) {
		const char *name = NULL;

		if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) == CUPTI_SUCCESS && name != NULL &&
		    (strstr(name, "_ptsz") != NULL || strstr(name, "_ptds") != NULL)) {
			inj.ptsz[cbid] = true;
			cuptiEnableCallback(1, inj.sub, CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
		}
	}
}

/* The flushing thread: completed buffers every flush_ms, so the parent sees records while the program runs
 * (--live) and a crash keeps what was delivered. */
static void *inject_flusher(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&inj.lock);
	while (!inj.stop) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += inj.flush_ms / 1000;
		until.tv_nsec += (long)(inj.flush_ms % 1000) * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&inj.wake, &inj.lock, &until);
		if (inj.stop)
			break;
		pthread_mutex_unlock(&inj.lock);
		cuptiActivityFlushAll(0);
		pthread_mutex_lock(&inj.lock);
	}
	pthread_mutex_unlock(&inj.lock);
	return NULL;
}

/* At exit: the last buffers, the ranges still open, the stream table and the result. */
static void inject_atexit(void)
{
	struct inject_marker_out mo;
	struct ss_run_result res;
	struct inject_sigpipe sp;
	uint64_t now = 0;
	size_t dropped = 0;

	if (getpid() != inj.pid || !inj.open)
		return;
	if (inj.flusher_running) {
		pthread_mutex_lock(&inj.lock);
		inj.stop = true;
		pthread_cond_signal(&inj.wake);
		pthread_mutex_unlock(&inj.lock);
		pthread_join(inj.flusher, NULL);
		inj.flusher_running = false;
	}
	inject_flush_forced();
	if (cuptiGetTimestamp(&now) != CUPTI_SUCCESS || now < inj.last_time)
		now = inj.last_time;
	inject_sigpipe_block(&sp);
	pthread_mutex_lock(&inj.lock);
	if (inj.open) {
		while (inject_markers_close(&inj.markers, now, &mo))
			inject_send_marker(&mo);
		if (cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped) == CUPTI_SUCCESS)
			inj.dropped += dropped;
		inject_send_streams(true);
		memset(&res, 0, sizeof res);
		snprintf(res.device, sizeof res.device, "%s", inj.device[0] != '\0' ? inj.device : "CUDA device");
		res.dropped = inj.dropped;
		res.repeats = 1;
		wire_result(&inj.w, &res);
		wire_close(&inj.w);
		inj.open = false;
	}
	pthread_mutex_unlock(&inj.lock);
	inject_sigpipe_restore(&sp);
}

/* Parses a non-negative decimal environment value; -1 when unset or malformed. */
static long inject_env_number(const char *name)
{
	const char *s = getenv(name);
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0)
		return -1;
	return v;
}

/* Opens this process's channel: its own pipe when it is the launched process, else the --children socket.
 * Returns the fd, -1 when this process is not to be recorded. */
static int inject_channel(void)
{
	long fd = inject_env_number(INJECT_ENV_FD), pid = inject_env_number(INJECT_ENV_PID);
	const char *path = getenv(INJECT_ENV_SOCK);
	struct sockaddr_un sa;
	int s;

	if (fd >= 0 && pid == (long)getpid() && fcntl((int)fd, F_GETFD) >= 0) {
		fcntl((int)fd, F_SETFD, FD_CLOEXEC); /* programs it starts must not inherit the pipe */
		return (int)fd;
	}
	if (path == NULL || *path == '\0' || strlen(path) >= sizeof sa.sun_path)
		return -1;
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path));
	if (connect(s, (struct sockaddr *)&sa, sizeof sa) != 0) {
		close(s);
		return -1;
	}
	return s;
}

/* Enables one activity kind; the required ones fail the set-up, the others are skipped. */
static int inject_enable(CUpti_ActivityKind kind, bool required, char *why, size_t len)
{
	CUptiResult rc = cuptiActivityEnable(kind);
	const char *s = NULL;

	if (rc == CUPTI_SUCCESS || !required)
		return 0;
	cuptiGetResultString(rc, &s);
	snprintf(why, len, "cannot enable CUPTI activity kind %d: %s", (int)kind, s ? s : "unknown error");
	return -1;
}

/* inject_migrations asks CUPTI for unified-memory migration intervals (host to device and back) when the
 * environment has SS_CUPTI_MIGRATIONS=1, as the CUDA backend does: opt-in, for what they cost
 * (src/cuda/cuda_backend.c). Best effort: a driver that refuses leaves the trace without them. */
static void inject_migrations(void)
{
	CUpti_ActivityUnifiedMemoryCounterConfig config[2];
	const char *v = getenv("SS_CUPTI_MIGRATIONS");

	if (v == NULL || strcmp(v, "1") != 0)
		return;
	cupti_convert_migration_config(config);
	if (cuptiActivityConfigureUnifiedMemoryCounter(config, 2) == CUPTI_SUCCESS)
		cuptiActivityEnable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
}

/* Sets CUPTI up. 0, or -1 with a reason in why. */
static int inject_setup(char *why, size_t len)
{
	static const CUpti_ActivityKind required[] = {
	    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,          CUPTI_ACTIVITY_KIND_MEMSET,
	    CUPTI_ACTIVITY_KIND_RUNTIME,           CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
	};
	static const CUpti_ActivityKind optional[] = {
	    CUPTI_ACTIVITY_KIND_MARKER,  CUPTI_ACTIVITY_KIND_MARKER_DATA, CUPTI_ACTIVITY_KIND_NAME,
	    CUPTI_ACTIVITY_KIND_STREAM,  CUPTI_ACTIVITY_KIND_CONTEXT,     CUPTI_ACTIVITY_KIND_DEVICE,
	    CUPTI_ACTIVITY_KIND_MEMCPY2, /* peer copies of multi-GPU programs */
	};
	const char *s = NULL;
	CUptiResult rc;

	/* Host records carry OS thread ids (gettid): unique system-wide, so NVTX lanes of several processes
	 * (--children) never merge. Set before any kind is enabled. */
	cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
	rc = cuptiActivityRegisterCallbacks(inject_buffer_requested, inject_buffer_completed);
	if (rc != CUPTI_SUCCESS) {
		cuptiGetResultString(rc, &s);
		snprintf(why, len, "cuptiActivityRegisterCallbacks: %s", s ? s : "unknown error");
		return -1;
	}
	for (size_t i = 0; i < sizeof required / sizeof *required; i++)
		if (inject_enable(required[i], true, why, len) != 0)
			return -1;
	for (size_t i = 0; i < sizeof optional / sizeof *optional; i++)
		inject_enable(optional[i], false, why, len);
	inject_migrations();
	/* cudaEventQuery/cudaStreamQuery polls that found the work unfinished are noise on the host lane. */
	cuptiActivityEnableAllSyncRecords(0);
	inject_subscribe();
	return 0;
}

__attribute__((visibility("default"))) int InitializeInjection(void)
{
	static bool done;
	struct inject_sigpipe sp;
	sigset_t all, old;
	char why[256] = "";
	long ms;
	int fd;

	if (done)
		return 1;
	done = true;
	fd = inject_channel();
	if (fd < 0)
		return 1; /* not a process this recording covers */
	inj.pid = getpid();
	inject_streams_init(&inj.streams);
	inject_markers_init(&inj.markers);
	if (wire_open(&inj.w, fd) != 0) {
		close(fd);
		return 1;
	}
	inject_sigpipe_block(&sp);
	if (inject_setup(why, sizeof why) != 0) {
		char msg[320];

		snprintf(msg, sizeof msg, "CUPTI could not be set up in pid %ld: %s", (long)inj.pid, why);
		wire_error(&inj.w, 3, msg);
		wire_close(&inj.w);
		inject_sigpipe_restore(&sp);
		return 1;
	}
	inj.open = true;
	pthread_mutex_lock(&inj.lock);
	wire_progress(&inj.w, INJECT_STREAMS_PREFIX); /* tells the parent that CUDA started in this process */
	pthread_mutex_unlock(&inj.lock);
	inject_sigpipe_restore(&sp);
	atexit(inject_atexit);
	ms = inject_env_number(INJECT_ENV_FLUSH_MS);
	inj.flush_ms = ms > 0 && ms <= 60000 ? (unsigned)ms : 500;
	/* The program's signals must not land on the flusher: it starts with all of them blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&inj.flusher, NULL, inject_flusher, NULL) == 0)
		inj.flusher_running = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 1;
}
