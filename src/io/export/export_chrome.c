/* export_chrome.c: the timeline as Chrome trace JSON (the "JSON Object Format" Perfetto and chrome://tracing
 * open).
 *
 * Layout: one process per stream (pid 10 + index; the legacy and per-thread default streams and unknown streams
 * get their own) with one thread per engine (H2D, compute, D2H, D2D, memset), and a "Host" process with a thread
 * per host thread and kind (API, sync, NVTX). A timeline of two or more devices has one process per device instead
 * (pid 100 + device, named by its title) with a thread per stream and engine, and each peer copy drawn a second
 * time on its far device's "peer copies" thread (args peer_end: not a record of its own when read back). Processes and
 * threads are named and ordered with M events (process_name, process_sort_index, process_labels, thread_name,
 * thread_sort_index). The M event that names a stream's process (or, by device, each of its threads) also carries
 * its entry of the stream table in args (ss_stream_kind, stream, raw_stream, device), and the one that names a
 * device's process its entry of the device table (ss_device, device_name, uuid, copy_engines, context); streams and
 * devices so described that have no records get their M events too, so that the tables read back whole. With one
 * device there is no device process: device 0's entry goes to otherData. Each API call gets a flow arrow (s/f events,
 * bound to the enclosing slices) to every GPU interval with its correlation id. Complete (X) events carry args with the
 * record's exact fields (ss_kind, stream, raw_stream, thread, flags, correlation, bytes, bandwidth) so streamscope
 * reads its own traces back exactly, and a kernel's its launch where the timeline has it (grid, block; registers,
 * static_smem, dynamic_smem when known; full_name when it is not the record's name). The run's labels, including
 * whether it was modelled, go to the top-level "otherData". Written value by value through json_out (yajl_gen, no
 * tree), one event a line (so that the importer can cut the events array at lines and parse it on threads). */
#include "io/export/export_chrome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic.h"
#include "core/idmap.h"
#include "core/palette.h"
#include "core/xalloc.h"
#include "io/export/json_out.h"

#define CHROME_PID_HOST 1
#define CHROME_PID_LEGACY 2
#define CHROME_PID_PER_THREAD 3
#define CHROME_PID_UNKNOWN 4
#define CHROME_PID_STREAM0 10
/* Host threads' tids: CHROME_TID_HOST + thread * 8 + kind, clear of the engine tids 1..5. */
#define CHROME_TID_HOST 16
/* Timelines of two or more devices: a process per device, a thread per (stream, engine): tid 8 + 8 * key + engine,
 * key 0 other streams, 1 per-thread, 2 legacy, 3 the far ends of peer copies, 4 + i stream i. */
#define CHROME_PID_DEVICE0 100
#define CHROME_KEY_PEER 3

/* chrome_begin starts an event on a line of its own. */
static void chrome_begin(struct json_out *o, const char *ph)
{
	json_out_break(o);
	json_out_map_begin(o);
	json_out_key_str(o, "ph", ph);
}

static bool chrome_is_host_kind(int kind)
{
	return kind == SS_KIND_API || kind == SS_KIND_SYNC || kind == SS_KIND_MARKER;
}

/* chrome_pid: the process r is drawn in: its device's (bydev, GPU records), its stream's, the host's, or one of the
 * default streams' and the unknown streams'. */
static int chrome_pid(const struct ss_record *r, bool bydev)
{
	if (bydev && !chrome_is_host_kind(r->kind))
		return CHROME_PID_DEVICE0 + r->device;
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

/* chrome_tid: r's track within chrome_pid's process: an engine (1..5); bydev, 8 per stream key (0 other streams, 1
 * per-thread, 2 legacy, 4 + n stream n) plus the engine; host records CHROME_TID_HOST + 8 per thread plus the kind;
 * the unknown streams' records 8 per backend stream id. chrome_thread_name undoes it. */
static int64_t chrome_tid(const struct ss_record *r, bool bydev)
{
	if (chrome_is_host_kind(r->kind))
		return CHROME_TID_HOST + (int64_t)r->thread * 8 + r->kind;
	if (bydev)
		return 8 + 8 * (int64_t)(r->stream >= SS_STREAM_PER_THREAD ? r->stream + 4 : 0) +
		       chrome_engine_tid(r->kind);
	/* streams the experiment did not create share a process: a set of engine tracks per backend stream id */
	if (r->stream == SS_STREAM_UNKNOWN)
		return CHROME_TID_HOST + (int64_t)r->raw_stream * 8 + chrome_engine_tid(r->kind);
	return chrome_engine_tid(r->kind);
}

/* chrome_process_name names process pid in buf as Perfetto shows it: a device's title (bydev), the host, the
 * default streams, the streams the experiment did not create, or a stream by its number with its kind and backend id
 * where the timeline knows them. */
static void chrome_process_name(const struct ss_timeline *t, int pid, bool bydev, char *buf, size_t len)
{
	const struct ss_stream_info *si =
	    pid >= CHROME_PID_STREAM0 ? timeline_stream(t, pid - CHROME_PID_STREAM0) : NULL;

	if (bydev && pid >= CHROME_PID_DEVICE0)
		timeline_device_title(t, pid - CHROME_PID_DEVICE0, buf, len);
	else if (pid == CHROME_PID_HOST)
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

/* chrome_thread_name names track tid of process pid in buf, undoing chrome_tid's numbering: an engine ("H2D"), a
 * stream's engine within a device (bydev), an unknown stream id's engine, or a host thread's API, sync or NVTX row. */
static void chrome_thread_name(int pid, int64_t tid, bool bydev, char *buf, size_t len)
{
	static const char *const engines[] = {"", "H2D", "Compute", "D2H", "D2D", "Memset"};

	if (bydev && pid >= CHROME_PID_DEVICE0) {
		int64_t key = (tid - 8) / 8, engine = (tid - 8) % 8;
		const char *e = engine >= 1 && engine <= 5 ? engines[engine] : "?";

		if (key == CHROME_KEY_PEER)
			snprintf(buf, len, "Peer copies from other GPUs");
		else if (key >= 4 && engine == 0) /* a stream without records (chrome_metadata) */
			snprintf(buf, len, "Stream %lld", (long long)(key - 4));
		else if (key >= 4)
			snprintf(buf, len, "Stream %lld %s", (long long)(key - 4), e);
		else
			snprintf(buf, len, "%s %s",
			         key == 2   ? "Legacy default stream"
			         : key == 1 ? "Per-thread default stream"
			                    : "Other streams",
			         e);
	} else if (tid >= 1 && tid <= 5) {
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

/* chrome_meta_begin starts an M event of pid (and *tid when not NULL) called name and opens its args, which the
 * caller writes before chrome_meta_end. */
static void chrome_meta_begin(struct json_out *o, int pid, const int64_t *tid, const char *name)
{
	chrome_begin(o, "M");
	json_out_key_int(o, "pid", pid);
	if (tid != NULL)
		json_out_key_int(o, "tid", *tid);
	json_out_key_str(o, "name", name);
	json_out_key(o, "args");
	json_out_map_begin(o);
}

static void chrome_meta_end(struct json_out *o)
{
	json_out_map_end(o);
	json_out_map_end(o);
}

/* chrome_meta writes an M event of pid (and *tid when not NULL) whose args hold one value under arg: the string
 * value, or the number index when value is NULL. */
static void chrome_meta(struct json_out *o, int pid, const int64_t *tid, const char *name, const char *arg,
                        const char *value, int64_t index)
{
	chrome_meta_begin(o, pid, tid, name);
	if (value != NULL)
		json_out_key_str(o, arg, value);
	else
		json_out_key_int(o, arg, index);
	chrome_meta_end(o);
}

/* chrome_stream_args writes stream index's entry of t's stream table into the args being written, nothing when
 * there is none: its kind by name (ss_stream_kind, the key the importer knows the entry by), index, raw id and
 * device (left out when 0). */
static void chrome_stream_args(struct json_out *o, const struct ss_timeline *t, int index)
{
	const struct ss_stream_info *si = timeline_stream(t, index);

	if (si == NULL)
		return;
	json_out_key_str(o, "ss_stream_kind", timeline_stream_kind_name(si->kind));
	json_out_key_int(o, "stream", index);
	json_out_key_uint(o, "raw_stream", si->raw_id);
	if (si->device != 0)
		json_out_key_uint(o, "device", si->device);
}

/* The keys of a device-table entry: in a device process's M event args, and in otherData for device 0 of a
 * one-device trace (which has no process of its own). */
static const char *const chrome_device_keys[2][4] = {
    {"device_name", "uuid", "copy_engines", "context"},
    {"deviceName", "deviceUuid", "deviceCopyEngines", "deviceContext"}};

/* chrome_device_entry writes d's name and what is known of its uuid, copy engines and context under the keys of
 * form (0: M event args, 1: otherData). */
static void chrome_device_entry(struct json_out *o, const struct ss_device_info *d, int form)
{
	const char *const *k = chrome_device_keys[form];

	json_out_key_str(o, k[0], d->name);
	if (d->uuid[0] != '\0')
		json_out_key_str(o, k[1], d->uuid);
	if (d->copy_engines > 0)
		json_out_key_int(o, k[2], d->copy_engines);
	if (d->context != 0)
		json_out_key_uint(o, k[3], d->context);
}

/* chrome_device_args writes device index's entry of t's device table into the args being written, nothing when
 * there is none: ss_device (its index, the key the importer knows the entry by), then chrome_device_entry's. */
static void chrome_device_args(struct json_out *o, const struct ss_timeline *t, int index)
{
	const struct ss_device_info *d = timeline_device(t, index);

	if (d == NULL)
		return;
	json_out_key_int(o, "ss_device", index);
	chrome_device_entry(o, d, 0);
}

/* chrome_name_process writes the M events that name, order and label process pid; a device's or stream's name
 * carries its table entry. */
static void chrome_name_process(struct json_out *o, const struct ss_timeline *t, int pid, bool bydev,
                                const char *measurement)
{
	char name[192];

	chrome_process_name(t, pid, bydev, name, sizeof name);
	chrome_meta_begin(o, pid, NULL, "process_name");
	json_out_key_str(o, "name", name);
	if (bydev && pid >= CHROME_PID_DEVICE0)
		chrome_device_args(o, t, pid - CHROME_PID_DEVICE0);
	else if (!bydev && pid >= CHROME_PID_STREAM0)
		chrome_stream_args(o, t, pid - CHROME_PID_STREAM0);
	chrome_meta_end(o);
	chrome_meta(o, pid, NULL, "process_sort_index", "sort_index", NULL, pid);
	chrome_meta(o, pid, NULL, "process_labels", "labels", measurement, 0);
}

/* chrome_name_thread writes the M events that name and order thread tid of pid; a stream's thread (by device)
 * carries the stream's table entry. */
static void chrome_name_thread(struct json_out *o, const struct ss_timeline *t, int pid, int64_t tid, bool bydev)
{
	char name[96];

	chrome_thread_name(pid, tid, bydev, name, sizeof name);
	chrome_meta_begin(o, pid, &tid, "thread_name");
	json_out_key_str(o, "name", name);
	if (bydev && pid >= CHROME_PID_DEVICE0 && (tid - 8) / 8 >= 4)
		chrome_stream_args(o, t, (int)((tid - 8) / 8 - 4));
	chrome_meta_end(o);
	chrome_meta(o, pid, &tid, "thread_sort_index", "sort_index", NULL, tid);
}

/* chrome_once says whether key is new to seen, adding it. */
static bool chrome_once(struct idmap *seen, uint64_t key)
{
	uint32_t dummy;

	if (idmap_get(seen, key, &dummy))
		return false;
	idmap_put(seen, key, 1);
	return true;
}

static uint64_t chrome_thread_key(int pid, int64_t tid)
{
	return ((uint64_t)(uint32_t)pid << 32) ^ (uint64_t)tid;
}

/* chrome_meta_far names the process and peer thread of peer copy r's far end (bydev), once each. */
static void chrome_meta_far(struct json_out *o, const struct ss_timeline *t, const struct ss_record *r,
                            struct idmap *procs, struct idmap *threads, const char *measurement)
{
	int pid = CHROME_PID_DEVICE0 + r->peer;
	int64_t tid = 8 + 8 * CHROME_KEY_PEER + chrome_engine_tid(SS_KIND_D2D);

	if (chrome_once(procs, (uint64_t)pid))
		chrome_name_process(o, t, pid, true, measurement);
	if (chrome_once(threads, chrome_thread_key(pid, tid)))
		chrome_name_thread(o, t, pid, tid, true);
}

/* chrome_meta_idle names the streams and devices that t's tables describe but no record is on (has[s]: stream s
 * has records), as if they had: a stream by device gets a thread of its own on its device (engine 0). */
static void chrome_meta_idle(struct json_out *o, const struct ss_timeline *t, const bool *has, struct idmap *procs,
                             const char *measurement, bool bydev)
{
	for (int d = 0; bydev && d < SS_TIMELINE_MAX_DEVICES; d++)
		if (timeline_device(t, d) != NULL && chrome_once(procs, (uint64_t)(CHROME_PID_DEVICE0 + d)))
			chrome_name_process(o, t, CHROME_PID_DEVICE0 + d, true, measurement);
	for (int s = 0; s < t->nstream_info; s++) {
		const struct ss_stream_info *si = timeline_stream(t, s);
		int pid = bydev && si != NULL ? CHROME_PID_DEVICE0 + si->device : CHROME_PID_STREAM0 + s;

		if (si == NULL || has[s])
			continue;
		if (chrome_once(procs, (uint64_t)pid))
			chrome_name_process(o, t, pid, bydev, measurement);
		if (bydev)
			chrome_name_thread(o, t, pid, 8 + 8 * ((int64_t)s + 4), true);
	}
}

/* chrome_metadata writes the M events naming and ordering every process and thread that has records, and those of
 * the streams and devices t's tables describe (chrome_meta_idle). */
static void chrome_metadata(struct json_out *o, const struct ss_timeline *t, const char *measurement, bool bydev)
{
	struct idmap procs, threads;
	bool *has = xcalloc((size_t)t->nstream_info + 1, sizeof *has);

	idmap_init(&procs);
	idmap_init(&threads);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int pid;
		int64_t tid;

		if (r->kind >= SS_KIND_COUNT)
			continue;
		pid = chrome_pid(r, bydev);
		tid = chrome_tid(r, bydev);
		if (!chrome_is_host_kind(r->kind) && r->stream >= 0 && r->stream < t->nstream_info)
			has[r->stream] = true;
		if (bydev && r->kind == SS_KIND_D2D && (r->flags & SS_REC_PEER))
			chrome_meta_far(o, t, r, &procs, &threads, measurement);
		if (chrome_once(&procs, (uint64_t)pid))
			chrome_name_process(o, t, pid, bydev, measurement);
		if (chrome_once(&threads, chrome_thread_key(pid, tid)))
			chrome_name_thread(o, t, pid, tid, bydev);
	}
	chrome_meta_idle(o, t, has, &procs, measurement, bydev);
	free(has);
	idmap_free(&procs);
	idmap_free(&threads);
}

/* chrome_event_far draws peer copy r a second time, on its far device's peer thread: an X event whose args say
 * peer_end (the importer skips it: the record is the other event) and where it came from. */
static void chrome_event_far(struct json_out *o, const struct ss_timeline *t, const struct ss_record *r)
{
	const char *name = timeline_name(t, r->name);

	chrome_begin(o, "X");
	json_out_key_int(o, "pid", CHROME_PID_DEVICE0 + r->peer);
	json_out_key_int(o, "tid", 8 + 8 * CHROME_KEY_PEER + chrome_engine_tid(SS_KIND_D2D));
	json_out_key_decimal(o, "ts", r->start, 3);
	json_out_key_decimal(o, "dur", r->end - r->start, 3);
	json_out_key_str(o, "name", *name != '\0' ? name : "D2D");
	json_out_key_str(o, "cat", "D2D");
	json_out_key_str(o, "cname", palette_chrome_cname(r->kind));
	json_out_key(o, "args");
	json_out_map_begin(o);
	json_out_key_int(o, "peer_end", 1);
	json_out_key_uint(o, "from_device", r->device);
	json_out_key_int(o, "stream", r->stream);
	json_out_key_uint(o, "bytes", r->bytes);
	json_out_map_end(o);
	json_out_map_end(o);
}

/* chrome_dim3 writes key: [x, y, z]. */
static void chrome_dim3(struct json_out *o, const char *key, const uint32_t v[3])
{
	json_out_key(o, key);
	json_out_array_begin(o);
	for (int i = 0; i < 3; i++)
		json_out_uint(o, v[i]);
	json_out_array_end(o);
}

/* chrome_launch_args writes kernel r's launch, when t has one, into the args being written: grid and block as
 * [x, y, z] (the keys PyTorch's profiler writes too), registers, static_smem and dynamic_smem only when they are
 * known (SS_LAUNCH_ATTRS), and full_name only when the launch has a full name other than the record's name. */
static void chrome_launch_args(struct json_out *o, const struct ss_timeline *t, const struct ss_record *r)
{
	const struct ss_launch *l = timeline_launch(t, r);

	if (l == NULL)
		return;
	chrome_dim3(o, "grid", l->grid);
	chrome_dim3(o, "block", l->block);
	if (l->flags & SS_LAUNCH_ATTRS) {
		json_out_key_uint(o, "registers", l->registers);
		json_out_key_uint(o, "static_smem", l->static_smem);
		json_out_key_uint(o, "dynamic_smem", l->dynamic_smem);
	}
	if (l->full_name != 0 && l->full_name != r->name) /* one string table: the same name has the same id */
		json_out_key_str(o, "full_name", timeline_name(t, l->full_name));
}

/* chrome_event writes one X event with the record's fields in args, and a kernel's launch (chrome_launch_args). */
static void chrome_event(struct json_out *o, const struct ss_timeline *t, const struct ss_record *r, bool bydev)
{
	const char *name = timeline_name(t, r->name), *kind = record_kind_name(r->kind);
	uint64_t dur = r->end - r->start;

	chrome_begin(o, "X");
	json_out_key_int(o, "pid", chrome_pid(r, bydev));
	json_out_key_int(o, "tid", chrome_tid(r, bydev));
	json_out_key_decimal(o, "ts", r->start, 3); /* ns as us with three decimals: exact */
	json_out_key_decimal(o, "dur", dur, 3);
	json_out_key_str(o, "name", *name != '\0' ? name : kind);
	json_out_key_str(o, "cat", kind);
	json_out_key_str(o, "cname", palette_chrome_cname(r->kind));
	json_out_key(o, "args");
	json_out_map_begin(o);
	json_out_key_str(o, "ss_kind", kind);
	json_out_key_int(o, "stream", r->stream);
	/* zero-valued fields are left out: they read back as 0 */
	if (r->raw_stream != 0)
		json_out_key_uint(o, "raw_stream", r->raw_stream);
	if (r->thread != 0)
		json_out_key_uint(o, "thread", r->thread);
	if (r->flags != 0)
		json_out_key_uint(o, "flags", r->flags);
	if (r->device != 0)
		json_out_key_uint(o, "device", r->device);
	if (r->flags & SS_REC_PEER)
		json_out_key_uint(o, "peer", r->peer);
	if (r->correlation != 0)
		json_out_key_uint(o, "correlation", r->correlation);
	if (r->bytes != 0) {
		json_out_key_uint(o, "bytes", r->bytes);
		if (dur > 0)
			json_out_key_fixed(o, "bandwidth_GBps", (double)r->bytes / (double)dur, 3);
	}
	if (*name == '\0')
		json_out_key_int(o, "unnamed", 1);
	if (r->kind == SS_KIND_KERNEL)
		chrome_launch_args(o, t, r);
	json_out_map_end(o);
	json_out_map_end(o);
}

/* chrome_flow writes the s or f end of flow id at the middle of r. */
static void chrome_flow(struct json_out *o, const char *ph, uint64_t id, const struct ss_record *r, bool bydev)
{
	chrome_begin(o, ph);
	if (ph[0] == 'f')
		json_out_key_str(o, "bp", "e");
	json_out_key_uint(o, "id", id);
	json_out_key_int(o, "pid", chrome_pid(r, bydev));
	json_out_key_int(o, "tid", chrome_tid(r, bydev));
	json_out_key_decimal(o, "ts", r->start + (r->end - r->start) / 2, 3);
	json_out_key_str(o, "name", "launch");
	json_out_key_str(o, "cat", "flow");
	json_out_map_end(o);
}

/* chrome_flows writes an s/f pair from each API call to each GPU interval that has its correlation id. */
static void chrome_flows(struct json_out *o, const struct ss_timeline *t, bool bydev)
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

		if (g->kind >= SS_KIND_COUNT || !(SS_GPU_KINDS & SS_KIND_BIT(g->kind)) || g->correlation == 0 ||
		    !idmap_get(&api, g->correlation, &ai))
			continue;
		a = &t->rec[ai];
		id++;
		/* bind points inside the slices (their middles), so both ends attach to the enclosing slice */
		chrome_flow(o, "s", id, a, bydev);
		chrome_flow(o, "f", id, g, bydev);
	}
	idmap_free(&api);
}

/* chrome_other_data writes the top-level "otherData": the run's labels and headline numbers, and with one device
 * (!bydev) device 0's entry of the device table. */
static void chrome_other_data(struct json_out *o, const struct ss_export_input *in, bool bydev)
{
	const struct ss_timeline *t = in->t;
	struct ss_analysis tmp;
	const struct ss_analysis *a = export_input_analysis(in, &tmp);
	char label[512], title[512];

	export_input_label(in, label, sizeof label);
	export_input_title(in, title, sizeof title);
	json_out_key(o, "otherData");
	json_out_map_begin(o);
	json_out_key_str(o, "generator", "streamscope " SS_VERSION);
	json_out_key_int(o, "format", 1);
	json_out_key_str(o, "backend", t->backend);
	json_out_key_str(o, "measurement", t->modelled ? "MODELLED" : "measured");
	json_out_key_bool(o, "modelled", t->modelled);
	json_out_key_str(o, "label", label);
	json_out_key_str(o, "title", title);
	json_out_key_str(o, "device", t->device);
	json_out_key_str(o, "source", t->source);
	json_out_key_int(o, "nstreams", t->nstreams);
	json_out_key_uint(o, "dropped", t->dropped);
	json_out_key_bool(o, "incomplete", t->incomplete);
	json_out_key_uint(o, "records", t->n);
	json_out_key_bool(o, "streamIds", t->stream_ids);
	/* one device: no process of its own to carry its entry of the device table */
	if (!bydev && timeline_device(t, 0) != NULL)
		chrome_device_entry(o, timeline_device(t, 0), 1);
	if (t->wall_traced_ns > 0 && t->wall_untraced_ns > 0) {
		/* record --twin: the program's wall-clock time traced and untraced */
		json_out_key_uint(o, "wallTracedNs", t->wall_traced_ns);
		json_out_key_uint(o, "wallUntracedNs", t->wall_untraced_ns);
	}
	json_out_key_uint(o, "makespan_ns", a->makespan_ns);
	json_out_key_fixed(o, "overlap", a->overlap, 4);
	if (a->have_speedup)
		json_out_key_fixed(o, "speedup", a->speedup, 4);
	if (a->have_bound)
		json_out_key_uint(o, "bound_ns", a->bound_ns);
	json_out_map_end(o);
}

int export_chrome(const char *path, const struct ss_export_input *in, char **cause)
{
	const struct ss_timeline *t = in->t;
	struct atomic_file af;
	struct json_out *o;
	char label[512], *why = NULL;
	bool bydev;
	int rc;

	if (atomic_open(&af, path, cause) != 0)
		return -1;
	o = json_out_new(af.fp, false);
	export_input_label(in, label, sizeof label);
	json_out_map_begin(o);
	json_out_key_str(o, "displayTimeUnit", "ns");
	json_out_break(o);
	bydev = timeline_ndevices(t) > 1;
	chrome_other_data(o, in, bydev);
	json_out_break(o);
	json_out_key(o, "traceEvents");
	json_out_array_begin(o);
	chrome_metadata(o, t, label, bydev);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind >= SS_KIND_COUNT)
			continue;
		chrome_event(o, t, r, bydev);
		if (bydev && r->kind == SS_KIND_D2D && (r->flags & SS_REC_PEER))
			chrome_event_far(o, t, r);
	}
	chrome_flows(o, t, bydev);
	json_out_break(o);
	json_out_array_end(o);
	json_out_map_end(o);
	rc = json_out_finish(o, &why);
	json_out_free(o);
	/* a write that failed is atomic_commit's to report (with the path); anything else is a bug, said here */
	if (rc != 0 && !ferror(af.fp)) {
		*cause = xasprintf("cannot write %s: %s", path, why);
		free(why);
		atomic_abort(&af);
		return -1;
	}
	free(why);
	return atomic_commit(&af, cause);
}
