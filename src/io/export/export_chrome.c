/* export_chrome.c: the timeline as Chrome trace JSON (the "JSON Object Format" Perfetto and chrome://tracing
 * open).
 *
 * Layout: one process per stream (pid 10 + index; the legacy and per-thread default streams and unknown streams
 * get their own) with one thread per engine (H2D, compute, D2H, D2D, memset), and a "Host" process with a thread
 * per host thread and kind (API, sync, NVTX). Processes and threads are named and ordered with M events
 * (process_name, process_sort_index, process_labels, thread_name, thread_sort_index). Each API call gets a flow
 * arrow (s/f events, bound to the enclosing slices) to every GPU interval with its correlation id. Complete (X)
 * events carry args with the record's exact fields (ss_kind, stream, raw_stream, thread, flags, correlation,
 * bytes, bandwidth) so streamscope reads its own traces back exactly. The run's labels, including whether it was
 * modelled, go to the top-level "otherData". Written by streaming printf: 1M intervals take about a second. */
#include "io/export/export_chrome.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic.h"
#include "core/idmap.h"
#include "core/palette.h"
#include "core/xalloc.h"
#include "io/export/escape.h"

#define CHROME_PID_HOST 1
#define CHROME_PID_LEGACY 2
#define CHROME_PID_PER_THREAD 3
#define CHROME_PID_UNKNOWN 4
#define CHROME_PID_STREAM0 10
/* Host threads' tids: CHROME_TID_HOST + thread * 8 + kind, clear of the engine tids 1..5. */
#define CHROME_TID_HOST 16

/* The output stream and whether an event was written yet (events are separated, not terminated, by commas). */
struct chrome_out {
	FILE *f;
	bool first;
};

/* chrome_begin starts an event: a separator unless it is the first, then "{". Returns the stream. */
static FILE *chrome_begin(struct chrome_out *o)
{
	fputs(o->first ? "{" : ",\n{", o->f);
	o->first = false;
	return o->f;
}

static bool chrome_is_host_kind(int kind)
{
	return kind == SS_KIND_API || kind == SS_KIND_SYNC || kind == SS_KIND_MARKER;
}

static int chrome_pid(const struct ss_record *r)
{
	if (r->stream >= 0)
		return CHROME_PID_STREAM0 + r->stream;
	switch (r->stream) {
	case SS_STREAM_HOST:
		return CHROME_PID_HOST;
	case SS_STREAM_LEGACY:
		return CHROME_PID_LEGACY;
	case SS_STREAM_PER_THREAD:
		return CHROME_PID_PER_THREAD;
	default:
		return CHROME_PID_UNKNOWN;
	}
}

/* Engine tids in display order. */
static int chrome_engine_tid(int kind)
{
	switch (kind) {
	case SS_KIND_H2D:
		return 1;
	case SS_KIND_KERNEL:
		return 2;
	case SS_KIND_D2H:
		return 3;
	case SS_KIND_D2D:
		return 4;
	default:
		return 5; /* memset */
	}
}

static int64_t chrome_tid(const struct ss_record *r)
{
	if (chrome_is_host_kind(r->kind))
		return CHROME_TID_HOST + (int64_t)r->thread * 8 + r->kind;
	/* streams the experiment did not create share a process: a set of engine tracks per backend stream id */
	if (r->stream == SS_STREAM_UNKNOWN)
		return CHROME_TID_HOST + (int64_t)r->raw_stream * 8 + chrome_engine_tid(r->kind);
	return chrome_engine_tid(r->kind);
}

/* chrome_us writes ns as microseconds with three decimals: exact, and what "ts"/"dur" expect. */
static void chrome_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static void chrome_process_name(const struct ss_timeline *t, int pid, char *buf, size_t len)
{
	const struct ss_stream_info *si =
	    pid >= CHROME_PID_STREAM0 ? timeline_stream(t, pid - CHROME_PID_STREAM0) : NULL;

	if (pid == CHROME_PID_HOST)
		snprintf(buf, len, "Host");
	else if (pid == CHROME_PID_LEGACY)
		snprintf(buf, len, "Legacy default stream");
	else if (pid == CHROME_PID_PER_THREAD)
		snprintf(buf, len, "Per-thread default stream");
	else if (pid == CHROME_PID_UNKNOWN)
		snprintf(buf, len, "Other streams");
	else if (si != NULL && si->kind != SS_SKIND_UNKNOWN)
		snprintf(buf, len, "Stream %d (%s, id %u)", pid - CHROME_PID_STREAM0,
		         timeline_stream_kind_name(si->kind), si->raw_id);
	else if (si != NULL)
		snprintf(buf, len, "Stream %d (id %u)", pid - CHROME_PID_STREAM0, si->raw_id);
	else
		snprintf(buf, len, "Stream %d", pid - CHROME_PID_STREAM0);
}

static void chrome_thread_name(int pid, int64_t tid, char *buf, size_t len)
{
	static const char *const engines[] = {"", "H2D", "Compute", "D2H", "D2D", "Memset"};

	if (tid >= 1 && tid <= 5) {
		snprintf(buf, len, "%s", engines[tid]);
	} else if (pid == CHROME_PID_UNKNOWN) {
		int64_t engine = (tid - CHROME_TID_HOST) % 8;

		snprintf(buf, len, "stream id %lld %s", (long long)((tid - CHROME_TID_HOST) / 8),
		         engine >= 1 && engine <= 5 ? engines[engine] : "?");
	} else {
		int kind = (int)((tid - CHROME_TID_HOST) % 8);
		long long thread = (tid - CHROME_TID_HOST) / 8;

		snprintf(buf, len, "thread %lld %s", thread,
		         kind == SS_KIND_API    ? "API"
		         : kind == SS_KIND_SYNC ? "sync"
		                                : "NVTX");
	}
}

/* chrome_metadata writes the M events naming and ordering every process and thread that has records. */
static void chrome_metadata(struct chrome_out *o, const struct ss_timeline *t, const char *measurement)
{
	struct idmap procs, threads;
	char name[96];
	FILE *f;

	idmap_init(&procs);
	idmap_init(&threads);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int pid;
		int64_t tid;
		uint32_t dummy;
		uint64_t key;

		if (r->kind >= SS_KIND_COUNT)
			continue;
		pid = chrome_pid(r);
		tid = chrome_tid(r);
		if (!idmap_get(&procs, (uint64_t)pid, &dummy)) {
			idmap_put(&procs, (uint64_t)pid, 1);
			chrome_process_name(t, pid, name, sizeof name);
			f = chrome_begin(o);
			fprintf(f, "\"ph\":\"M\",\"pid\":%d,\"name\":\"process_name\",\"args\":{\"name\":\"", pid);
			escape_json(f, name);
			fputs("\"}}", f);
			f = chrome_begin(o);
			fprintf(f,
			        "\"ph\":\"M\",\"pid\":%d,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}",
			        pid, pid);
			f = chrome_begin(o);
			fprintf(f, "\"ph\":\"M\",\"pid\":%d,\"name\":\"process_labels\",\"args\":{\"labels\":\"", pid);
			escape_json(f, measurement);
			fputs("\"}}", f);
		}
		key = ((uint64_t)(uint32_t)pid << 32) ^ (uint64_t)tid;
		if (!idmap_get(&threads, key, &dummy)) {
			idmap_put(&threads, key, 1);
			chrome_thread_name(pid, tid, name, sizeof name);
			f = chrome_begin(o);
			fprintf(f,
			        "\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRId64
			        ",\"name\":\"thread_name\",\"args\":{\"name\":\"",
			        pid, tid);
			escape_json(f, name);
			fputs("\"}}", f);
			f = chrome_begin(o);
			fprintf(f,
			        "\"ph\":\"M\",\"pid\":%d,\"tid\":%" PRId64
			        ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%" PRId64 "}}",
			        pid, tid, tid);
		}
	}
	idmap_free(&procs);
	idmap_free(&threads);
}

/* chrome_event writes one X event with the record's fields in args. */
static void chrome_event(struct chrome_out *o, const struct ss_timeline *t, const struct ss_record *r)
{
	const char *name = timeline_name(t, r->name);
	uint64_t dur = r->end - r->start;
	FILE *f = chrome_begin(o);

	fprintf(f, "\"ph\":\"X\",\"pid\":%d,\"tid\":%" PRId64 ",\"ts\":", chrome_pid(r), chrome_tid(r));
	chrome_us(f, r->start);
	fputs(",\"dur\":", f);
	chrome_us(f, dur);
	fputs(",\"name\":\"", f);
	escape_json(f, *name != '\0' ? name : record_kind_name(r->kind));
	fprintf(f, "\",\"cat\":\"%s\",\"cname\":\"%s\",\"args\":{\"ss_kind\":\"%s\",\"stream\":%d",
	        record_kind_name(r->kind), palette_chrome_cname(r->kind), record_kind_name(r->kind), (int)r->stream);
	/* zero-valued fields are left out: they read back as 0 */
	if (r->raw_stream != 0)
		fprintf(f, ",\"raw_stream\":%" PRIu32, r->raw_stream);
	if (r->thread != 0)
		fprintf(f, ",\"thread\":%" PRIu32, r->thread);
	if (r->flags != 0)
		fprintf(f, ",\"flags\":%u", (unsigned)r->flags);
	if (r->correlation != 0)
		fprintf(f, ",\"correlation\":%" PRIu32, r->correlation);
	if (r->bytes != 0) {
		fprintf(f, ",\"bytes\":%" PRIu64, r->bytes);
		if (dur > 0)
			fprintf(f, ",\"bandwidth_GBps\":%.3f", (double)r->bytes / (double)dur);
	}
	if (*name == '\0')
		fputs(",\"unnamed\":1", f);
	fputs("}}", f);
}

/* chrome_flows writes an s/f pair from each API call to each GPU interval that has its correlation id. */
static void chrome_flows(struct chrome_out *o, const struct ss_timeline *t)
{
	struct idmap api;
	uint64_t id = 0;

	idmap_init(&api);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint32_t dummy;

		if (r->kind == SS_KIND_API && r->correlation != 0 && !idmap_get(&api, r->correlation, &dummy))
			idmap_put(&api, r->correlation, (uint32_t)i);
	}
	for (size_t i = 0; i < t->n && api.n > 0; i++) {
		const struct ss_record *g = &t->rec[i], *a;
		uint32_t ai;
		FILE *f;

		if (g->kind >= SS_KIND_COUNT || !(SS_GPU_KINDS & SS_KIND_BIT(g->kind)) || g->correlation == 0 ||
		    !idmap_get(&api, g->correlation, &ai))
			continue;
		a = &t->rec[ai];
		id++;
		/* bind points inside the slices (their middles), so both ends attach to the enclosing slice */
		f = chrome_begin(o);
		fprintf(f, "\"ph\":\"s\",\"id\":%" PRIu64 ",\"pid\":%d,\"tid\":%" PRId64 ",\"ts\":", id, chrome_pid(a),
		        chrome_tid(a));
		chrome_us(f, a->start + (a->end - a->start) / 2);
		fputs(",\"name\":\"launch\",\"cat\":\"flow\"}", f);
		f = chrome_begin(o);
		fprintf(f, "\"ph\":\"f\",\"bp\":\"e\",\"id\":%" PRIu64 ",\"pid\":%d,\"tid\":%" PRId64 ",\"ts\":", id,
		        chrome_pid(g), chrome_tid(g));
		chrome_us(f, g->start + (g->end - g->start) / 2);
		fputs(",\"name\":\"launch\",\"cat\":\"flow\"}", f);
	}
	idmap_free(&api);
}

static void chrome_other_data(FILE *f, const struct ss_export_input *in)
{
	const struct ss_timeline *t = in->t;
	struct ss_analysis tmp;
	const struct ss_analysis *a = export_input_analysis(in, &tmp);
	char label[512], title[512];

	export_input_label(in, label, sizeof label);
	export_input_title(in, title, sizeof title);
	fputs("\"otherData\":{\"generator\":\"streamscope " SS_VERSION "\",\"format\":1,\"backend\":\"", f);
	escape_json(f, t->backend);
	fprintf(f, "\",\"measurement\":\"%s\",\"modelled\":%s,\"label\":\"", t->modelled ? "MODELLED" : "measured",
	        t->modelled ? "true" : "false");
	escape_json(f, label);
	fputs("\",\"title\":\"", f);
	escape_json(f, title);
	fputs("\",\"device\":\"", f);
	escape_json(f, t->device);
	fputs("\",\"source\":\"", f);
	escape_json(f, t->source);
	fprintf(f, "\",\"nstreams\":%d,\"dropped\":%" PRIu64 ",\"incomplete\":%s,\"records\":%zu", t->nstreams,
	        t->dropped, t->incomplete ? "true" : "false", t->n);
	fprintf(f, ",\"makespan_ns\":%" PRIu64 ",\"overlap\":%.4f", a->makespan_ns, a->overlap);
	if (a->have_speedup)
		fprintf(f, ",\"speedup\":%.4f", a->speedup);
	if (a->have_bound)
		fprintf(f, ",\"bound_ns\":%" PRIu64, a->bound_ns);
	fputs("},\n", f);
}

int export_chrome(const char *path, const struct ss_export_input *in, char **cause)
{
	const struct ss_timeline *t = in->t;
	struct atomic_file af;
	struct chrome_out o;
	FILE *f;
	char label[512];

	if (atomic_open(&af, path, cause) != 0)
		return -1;
	f = af.fp;
	o.f = f;
	o.first = true;
	export_input_label(in, label, sizeof label);
	fputs("{\"displayTimeUnit\":\"ns\",\n", f);
	chrome_other_data(f, in);
	fputs("\"traceEvents\":[\n", f);
	chrome_metadata(&o, t, label);
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind < SS_KIND_COUNT)
			chrome_event(&o, t, &t->rec[i]);
	chrome_flows(&o, t);
	fputs("\n]}\n", f);
	return atomic_commit(&af, cause);
}
