/* cuda_backend.c: the CUDA+CUPTI backend: warm-ups, then per repeat a traced run and its untraced twin, and the
 * records of the last traced run delivered to the sink (see backend.h). Runs in a fresh child per experiment.
 * CUPTI is attached to the process only around each traced run (cupti_capture_attach / _detach): the warm-ups and
 * the untraced twins run without it, as the program would outside streamscope. */
#include "cuda/cuda_backend.h"

#include <cuda_runtime_api.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/timeline.h"
#include "core/vec.h"
#include "core/xalloc.h"
#include "cuda/cuda_exec.h"
#include "cuda/cupti_capture.h"

static void cuda_backend_progress(const struct ss_sink *sink, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* cuda_backend_progress sends one formatted progress line to the sink, if it takes them. */
static void cuda_backend_progress(const struct ss_sink *sink, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (sink == NULL || sink->progress == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	sink->progress(sink->ctx, msg);
}

/* Is CUDA usable here? Names the device, or says in one line why not. Initialises CUDA: call it in a child. */
static int cuda_backend_available(char *device, size_t len, char **cause)
{
	struct cudaDeviceProp prop;
	int n = 0;
	cudaError_t err = cudaGetDeviceCount(&n);

	if (err == cudaErrorNoDevice || (err == cudaSuccess && n == 0)) {
		*cause = xasprintf("no CUDA device found");
		return -1;
	}
	if (err == cudaErrorInsufficientDriver) {
		*cause = xasprintf("no usable NVIDIA driver (missing, or older than CUDA 13 needs)");
		return -1;
	}
	if (err != cudaSuccess) {
		*cause = xasprintf("cudaGetDeviceCount: %s", cudaGetErrorString(err));
		return -1;
	}
	err = cudaGetDeviceProperties(&prop, 0);
	if (err != cudaSuccess) {
		*cause = xasprintf("cudaGetDeviceProperties: %s", cudaGetErrorString(err));
		return -1;
	}
	if (cupti_capture_load(cause) < 0)
		return -1;
	snprintf(device, len, "%s", prop.name);
	return 0;
}

static int cuda_backend_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The quartiles of traced[i] / untraced[i] - 1 over n >= 4 pairs (nearest rank), into res. Call before the arrays
 * are sorted. */
static void cuda_backend_spread(const uint64_t *traced, const uint64_t *untraced, int n, struct ss_run_result *res)
{
	double *r;

	if (n < 4)
		return;
	r = xcalloc((size_t)n, sizeof *r);
	for (int i = 0; i < n; i++)
		r[i] = untraced[i] > 0 ? (double)traced[i] / (double)untraced[i] - 1.0 : 0.0;
	stats_sort(r, (size_t)n);
	res->overhead_q1 = stats_rank(r, (size_t)n, 0.25);
	res->overhead_q3 = stats_rank(r, (size_t)n, 0.75);
	res->have_spread = true;
	free(r);
}

/* The span of a batch's work (what analysis calls the makespan: timeline_work_span), 0 when it has none. */
static uint64_t cuda_backend_span(const struct cupti_capture_batch *b)
{
	struct ss_record *rec = xreallocarray(NULL, b->n ? b->n : 1, sizeof *rec);
	uint64_t t0 = 0, t1 = 0;

	for (size_t i = 0; i < b->n; i++)
		rec[i] = b->rec[i].r;
	if (!timeline_work_span(rec, b->n, &t0, &t1))
		t0 = t1 = 0;
	free(rec);
	return t1 - t0;
}

static uint64_t cuda_backend_median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cuda_backend_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* CUDA_DEVICE_MAX_CONNECTIONS must be what the experiment asks: the runner sets it in the child before CUDA
 * initialises (it is read when the context is created). */
static int cuda_backend_check_env(const struct ss_experiment *e, char **cause)
{
	const char *v = getenv("CUDA_DEVICE_MAX_CONNECTIONS");

	if (v == NULL || atoi(v) != e->connections) {
		*cause = xasprintf("CUDA_DEVICE_MAX_CONNECTIONS is %s, the experiment asks for %d hardware queue%s "
		                   "(it must be set before CUDA initialises)",
		                   v == NULL ? "unset" : v, e->connections, e->connections == 1 ? "" : "s");
		return -1;
	}
	return 0;
}

/* Unified-memory migration records are opt-in (SS_CUPTI_MIGRATIONS=1): on the H200 (driver 580) they cost the
 * managed presets 19-32% traced overhead against 1-5% without, prefetches produced none at all, and of the 24
 * fault-driven 2 MiB migrations of managed-attach 21 arrived, on no stream of ours (tests/data/h200/gpu_smoke). */
static bool cuda_backend_migrations_wanted(void)
{
	const char *v = getenv("SS_CUPTI_MIGRATIONS");

	return v != NULL && strcmp(v, "1") == 0;
}

/* bracket_records' thread mapper: arg is the cuda_exec, os_thread CUPTI's thread id of an API record. */
static int cuda_backend_thread_index(void *arg, uint32_t os_thread)
{
	return cuda_exec_thread_index(arg, os_thread);
}

/* Adds to b, the run just collected, the records CUPTI does not make: host_process ops (timed on the host), and the
 * prefetches, timed with events around them and placed by the kernels beside them (bracket.h). *br says how that
 * went. Returns 0, or -1 with *cause. */
static int cuda_backend_brackets(struct cuda_exec *x, const struct ss_oplist *ops, const struct cupti_convert_map *map,
                                 struct cupti_capture_batch *b, struct bracket_result *br, char **cause)
{
	struct bracket_time *bt = NULL;
	struct cupti_capture_rec *add = NULL;
	size_t nbt = 0, nadd = 0;
	int rc;

	memset(br, 0, sizeof *br);
	/* host_process ops (document 004's task): timed on the host with CUPTI's clock */
	if (cuda_exec_host_records(x, &add, &nadd) == 0 && nadd > 0) {
		VEC_RESERVE(b->rec, b->n, b->cap, nadd, 1024);
		memcpy(b->rec + b->n, add, nadd * sizeof *add);
		b->n += nadd;
	}
	free(add); /* the names moved into b */
	add = NULL;
	nadd = 0;
	if (cuda_exec_brackets(x, b->events, b->nevents, &bt, &nbt, cause) < 0)
		return -1;
	if (nbt == 0)
		return 0;
	rc = bracket_records(ops, bt, nbt, b->rec, b->n, cuda_backend_thread_index, x, map->ids, map->nids, &add, &nadd,
	                     br, cause);
	free(bt);
	if (rc < 0)
		return -1;
	if (nadd > 0) {
		VEC_RESERVE(b->rec, b->n, b->cap, nadd, 1024);
		memcpy(b->rec + b->n, add, nadd * sizeof *add);
		b->n += nadd;
	}
	free(add); /* the names moved into b */
	return 0;
}

/* cuda_backend_detach takes CUPTI out of the process before untraced runs (cupti_capture_detach). Where CUPTI
 * refuses, the run goes on with it attached (cupti_capture_detachable is false from then on) and the progress
 * line says so, once. Returns 0, or -1 with *cause. */
static int cuda_backend_detach(const struct ss_sink *sink, char **cause)
{
	int rc = cupti_capture_detach(cause);

	if (rc <= 0)
		return rc;
	cuda_backend_progress(sink, "untraced runs with CUPTI attached: %s", *cause);
	free(*cause);
	*cause = NULL;
	return 0;
}

/* Does the op list have ops that CUPTI does not record? */
static bool cuda_backend_has_brackets(const struct ss_oplist *ops)
{
	for (size_t i = 0; i < ops->n; i++)
		if (bracket_wanted(ops->op[i].kind))
			return true;
	return false;
}

/* Hand the kept batch to the sink: times relative to t0, host records' threads as issuing-thread indices. */
static void cuda_backend_deliver(struct cuda_exec *x, const struct cupti_capture_batch *b, uint64_t t0,
                                 const struct ss_sink *sink)
{
	for (size_t i = 0; i < b->n; i++) {
		struct ss_record r = b->rec[i].r;
		if (r.kind == SS_KIND_API || r.kind == SS_KIND_SYNC || r.kind == SS_KIND_MARKER) {
			int t = cuda_exec_thread_index(x, r.thread);
			if (t >= 0)
				r.thread = (uint32_t)t;
		}
		r.start = r.start > t0 ? r.start - t0 : 0;
		r.end = r.end > t0 ? r.end - t0 : 0;
		if (sink != NULL && sink->record != NULL)
			sink->record(sink->ctx, &r, b->rec[i].name);
	}
	for (size_t i = 0; i < b->nlaunch && sink != NULL && sink->launch != NULL; i++)
		sink->launch(sink->ctx, &b->launch[i].l, b->launch[i].full_name);
}

/* The backend's run (backend.h): sets e up on the GPU (cuda_exec: buffers, streams, threads) with CUPTI attached,
 * learns the legacy stream's id, then runs e->warmup untraced warm-ups and e->repeat traced and untraced twins in
 * ABBA order, CUPTI detached from the untraced ones where it can be (res->untraced_detached). Every run's results are
 * verified on the host (cuda_exec_run fails otherwise). Delivers the last traced run's records, streams and launches
 * to sink; res gets the medians of both kinds, their spread, CUPTI's span against the events' time and the records
 * dropped. Returns 0, or -1 with *cause (no GPU or driver said as such). */
static int cuda_backend_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                            struct ss_run_result *res, char **cause)
{
	struct cuda_exec *x = NULL;
	struct cupti_capture_batch batch = {0};
	struct cupti_convert_map map;
	uint64_t *traced = xcalloc((size_t)e->repeat, sizeof *traced);
	uint64_t *untraced = xcalloc((size_t)e->repeat, sizeof *untraced);
	double *ratio = xcalloc((size_t)e->repeat, sizeof *ratio);
	int nratio = 0, attached;
	uint64_t span;
	uint64_t t0 = 0, tu = 0, ev = 0, kept_t0 = 0, dropped = 0, unsupported = 0;
	uint32_t null_ctx = 0, null_query = 0;
	struct bracket_result br = {0};
	bool have_ctx, have_query;
	int rc = -1;

	*cause = NULL;
	memset(res, 0, sizeof *res);
	if (e->repeat < 1) {
		*cause = xasprintf("invalid repeat count %d: valid is 1..1000", e->repeat);
		goto out;
	}
	if (cuda_backend_check_env(e, cause) < 0)
		goto out;
	cuda_backend_progress(sink, "starting CUDA and CUPTI");
	if (cupti_capture_load(cause) < 0) {
		/* without a GPU as well, that is the thing to say */
		char dev[96], *why = NULL;
		if (cuda_backend_available(dev, sizeof dev, &why) < 0) {
			free(*cause);
			*cause = why;
		}
		goto out;
	}
	if (cupti_capture_init(cause) < 0) {
		/* CUPTI fails first when there is no GPU or driver: say that instead. */
		char dev[96], *why = NULL;
		if (cuda_backend_available(dev, sizeof dev, &why) < 0) {
			free(*cause);
			*cause = why;
		}
		goto out;
	}
	if (cuda_exec_setup(&x, e, ops, sink, res, cause) < 0)
		goto out;
	if ((e->hostmem == SS_MEM_MANAGED_ATTACH || e->hostmem == SS_MEM_MANAGED_PREFETCH) &&
	    cuda_backend_migrations_wanted()) {
		/* Managed memory moves without memcpy records: ask for the migrations (flagged SS_REC_MANAGED). */
		char *why = NULL;
		if (cupti_capture_migrations(&why) < 0)
			cuda_backend_progress(sink, "unified-memory migrations not captured: %s", why);
		else
			cuda_backend_progress(sink, "capturing unified-memory migrations");
		free(why);
	}
	if (experiment_prefetch_events(e) && cuda_backend_has_brackets(ops)) {
		/* the prefetch timing events' GPU times straight from CUPTI, if it gives them (bracket.h) */
		char *why = NULL;
		if (cupti_capture_event_times(&why) < 0)
			cuda_backend_progress(sink, "no CUPTI event timestamps: %s", why);
		free(why);
	}
	/* The legacy default stream's id comes with the CONTEXT record. */
	cuda_exec_map(x, &map);
	if (cupti_capture_flush(cause) < 0 || cupti_capture_collect(&map, UINT64_MAX, &batch, cause) < 0)
		goto out;
	have_ctx = cupti_capture_null_stream(&null_ctx);
	have_query = cuda_exec_null_stream_query(x, &null_query);
	if (have_ctx)
		cuda_exec_set_null_stream(x, null_ctx);
	cuda_exec_map(x, &map);
	if (!have_ctx && !have_query) {
		*cause = xasprintf("CUPTI gave no id for the legacy default stream (no CONTEXT record)");
		goto out;
	}
	cuda_backend_progress(sink,
	                      "legacy stream id %u (context record%s), %u (cuptiGetStreamIdEx%s); "
	                      "per-thread stream ids known for %d of %d threads",
	                      null_ctx, have_ctx ? "" : " missing", null_query, have_query ? "" : " failed",
	                      cuda_exec_per_thread_ids(x), e->threads > 1 ? e->threads : 1);

	/* CUPTI leaves the process between traced runs: attached, it costs every call of an untraced one */
	if (cuda_backend_detach(sink, cause) < 0)
		goto out;
	for (int w = 0; w < e->warmup; w++) {
		cuda_backend_progress(sink, "warm-up %d/%d", w + 1, e->warmup);
		if (cuda_exec_run(x, false, &tu, &ev, cause) < 0)
			goto out;
	}
	for (int r = 0; r < e->repeat; r++) {
		/* traced and untraced alternate ABBA, so that neither always follows the other (warm caches, clocks) */
		bool untraced_first = r % 2 == 1;

		if (untraced_first && cuda_exec_run(x, false, &tu, &untraced[r], cause) < 0)
			goto out;
		/* the stream ids are held to the set-up's only where CUPTI attached again (kept attached, nothing
		 * changed) */
		if ((attached = cupti_capture_attach(cause)) < 0 ||
		    (attached > 0 && cuda_exec_check_ids(x, cause) < 0) ||
		    cuda_exec_run(x, true, &t0, &traced[r], cause) < 0)
			goto out;
		if (cupti_capture_flush(cause) < 0 || cupti_capture_collect(&map, t0, &batch, cause) < 0 ||
		    cuda_backend_brackets(x, ops, &map, &batch, &br, cause) < 0 || cuda_backend_detach(sink, cause) < 0)
			goto out;
		dropped += batch.dropped;
		span = cuda_backend_span(&batch);
		if (span > 0 && traced[r] > 0)
			ratio[nratio++] = (double)span / (double)traced[r] - 1.0;
		unsupported += batch.unsupported;
		kept_t0 = t0;
		res->events_ns_of_captured = traced[r];
		if (!untraced_first && cuda_exec_run(x, false, &tu, &untraced[r], cause) < 0)
			goto out;
		cuda_backend_progress(sink, "repeat %d/%d: traced %.1f us, untraced %.1f us", r + 1, e->repeat,
		                      (double)traced[r] / 1e3, (double)untraced[r] / 1e3);
	}
	if (br.added > 0) {
		/* progress lines hold 127 characters */
		cuda_backend_progress(sink,
		                      "%zu prefetches timed with cudaEvents (CUPTI records none), %zu linked to "
		                      "calls, %zu idle-stream ones start at their call",
		                      br.added, br.matched, br.from_call + br.no_start);
		if (br.samples > 0)
			cuda_backend_progress(sink,
			                      "clock offset: median of %zu CUPTI event times (%+.1f..%+.1f us), "
			                      "%+.1f us off the middle of %zu kernels' %.1f us bounds%s",
			                      br.samples, br.spread_lo_ns / 1e3, br.spread_hi_ns / 1e3,
			                      br.shift_ns / 1e3, br.anchors, br.width_ns / 1e3,
			                      br.clamped ? ", clamped" : "");
		else
			cuda_backend_progress(sink,
			                      "clock offset: the middle of %zu kernels' bounds, %.1f us wide "
			                      "(no CUPTI event times)",
			                      br.anchors, br.width_ns / 1e3);
	} else if (cuda_backend_has_brackets(ops) && experiment_prefetch_events(e)) {
		cuda_backend_progress(sink, "prefetches left off the timeline: no kernel beside their timing events");
	} else if (cuda_backend_has_brackets(ops)) {
		cuda_backend_progress(sink, "prefetches not on the timeline: CUPTI records none (--prefetch-events=on "
		                            "times them, costly where streams share a queue)");
	}
	cuda_backend_progress(sink,
	                      "captured %zu records (%llu hidden timing calls, %llu before the run, "
	                      "%llu unsupported, %llu dropped)",
	                      batch.n, (unsigned long long)batch.hidden, (unsigned long long)batch.early,
	                      (unsigned long long)unsupported, (unsigned long long)dropped);
	if (sink != NULL && sink->stream != NULL)
		for (int s = 0; s < map.nids; s++)
			sink->stream(sink->ctx, s, map.ids[s],
			             e->nonblocking ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING);
	cuda_backend_deliver(x, &batch, kept_t0, sink);
	res->modelled = false;
	res->repeats = e->repeat;
	res->prefetch_records = br.added > 0;
	res->span_short = (cuda_backend_has_brackets(ops) && br.added == 0) || e->hostmem == SS_MEM_MANAGED_ATTACH;
	res->dropped = dropped;
	res->verified = true;
	cuda_backend_spread(traced, untraced, e->repeat, res);
	if (nratio > 0) {
		res->cupti_vs_events_median = stats_median(ratio, (size_t)nratio);
		res->have_cupti_vs_events = true;
	}
	res->traced_ns = cuda_backend_median(traced, e->repeat);
	res->untraced_ns = cuda_backend_median(untraced, e->repeat); /* sorts untraced */
	res->untraced_min_ns = untraced[0];
	res->untraced_max_ns = untraced[e->repeat - 1];
	res->have_untraced = true;
	res->untraced_detached = cupti_capture_detachable();
	rc = 0;
out:
	cupti_capture_finish();
	cuda_exec_free(x);
	cupti_capture_batch_free(&batch);
	free(traced);
	free(untraced);
	free(ratio);
	return rc;
}

const struct ss_backend cuda_backend = {
    .name = "cuda",
    .modelled = false,
    .available = cuda_backend_available,
    .run = cuda_backend_run,
};
