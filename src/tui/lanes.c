/* lanes.c: tracks per (stream, kind) and the Gantt lanes over them. */
#include "tui/lanes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/vec.h"
#include "core/xalloc.h"
#include "tui/layout.h"

/* Groups before the streams; stream s is group LANES_GROUP_STREAM + s. */
#define LANES_GROUP_HOST 0
#define LANES_GROUP_LEGACY 1
#define LANES_GROUP_PER_THREAD 2
#define LANES_GROUP_UNKNOWN 3
#define LANES_GROUP_STREAM 4
/* Stream indices above this are shown with the unknown streams (foreign traces with raw ids). */
#define LANES_MAX_STREAM 4096
/* Threads with NVTX ranges that get a lane of their own; further threads' ranges stay on the host lane. */
#define LANES_MAX_NVTX 64
/* Host threads that get a host lane of their own (when there are two or more); further threads' calls share the
 * "host rest" lane. */
#define LANES_MAX_HOST 64

/* The kinds each lane kind draws, in rising priority. */
static const struct {
	int n;
	int kind[LANE_MAX_TRACKS];
} lanes_kinds[LANE_KIND_COUNT] = {
    [LANE_HOST] = {3, {SS_KIND_MARKER, SS_KIND_API, SS_KIND_SYNC}},
    [LANE_H2D] = {1, {SS_KIND_H2D}},
    [LANE_KER] = {3, {SS_KIND_MEMSET, SS_KIND_D2D, SS_KIND_KERNEL}},
    [LANE_D2H] = {1, {SS_KIND_D2H}},
    [LANE_STREAM] = {5, {SS_KIND_H2D, SS_KIND_D2H, SS_KIND_MEMSET, SS_KIND_D2D, SS_KIND_KERNEL}},
    [LANE_NVTX] = {1, {SS_KIND_MARKER}},
    [LANE_DEVICE] = {0, {0}},
};

/* The groups of one device past device 0's (ndev > 1): its legacy, per-thread and unknown streams, and the far
 * ends of other devices' peer copies; device 0's first three are the LANES_GROUP_* ones. */
#define LANES_DEV_LEGACY 0
#define LANES_DEV_PER_THREAD 1
#define LANES_DEV_UNKNOWN 2
#define LANES_DEV_PEER 3
#define LANES_DEV_GROUPS 4

void lanes_init(struct ss_lanes *l)
{
	memset(l, 0, sizeof *l);
}

void lanes_free(struct ss_lanes *l)
{
	for (int i = 0; i < l->ngroups * SS_KIND_COUNT; i++)
		track_free(&l->tracks[i]);
	free(l->tracks);
	free(l->lane[0]);
	free(l->lane[1]);
	free(l->nvtx_tid);
	free(l->host_tid);
	free(l->stream_dev);
	lanes_init(l);
}

static bool lanes_host_kind(int kind)
{
	return kind == SS_KIND_API || kind == SS_KIND_SYNC || kind == SS_KIND_MARKER;
}

/* lanes_nvtx_group returns the NVTX group of thread tid, -1 when it has none. */
static int lanes_nvtx_group(const struct ss_lanes *l, uint32_t tid)
{
	int lo = 0, hi = l->nnvtx;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (l->nvtx_tid[mid] < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->nnvtx && l->nvtx_tid[lo] == tid ? LANES_GROUP_STREAM + l->nstream_groups + lo : -1;
}

/* lanes_tid_find returns the position of tid in the rising list tid[0..n), -1 when absent. */
static int lanes_tid_find(const uint32_t *tid, int n, uint32_t x)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (tid[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && tid[lo] == x ? lo : -1;
}

/* lanes_host_group0 is the first host-thread group (after the streams and the NVTX threads). */
static int lanes_host_group0(const struct ss_lanes *l)
{
	return LANES_GROUP_STREAM + l->nstream_groups + l->nnvtx;
}

/* lanes_dev0 is the first per-device group (after the host threads), ndev > 1. */
static int lanes_dev0(const struct ss_lanes *l)
{
	return lanes_host_group0(l) + l->nhost;
}

/* lanes_dev_group is group `which` (LANES_DEV_*) of device d. */
static int lanes_dev_group(const struct ss_lanes *l, int d, int which)
{
	if (d == 0 && which < LANES_DEV_PEER)
		return LANES_GROUP_LEGACY + which;
	return lanes_dev0(l) + d * LANES_DEV_GROUPS + which;
}

/* lanes_rec_dev is the device whose groups hold r's GPU work. */
static int lanes_rec_dev(const struct ss_lanes *l, int device)
{
	return device < l->ndev ? device : l->ndev - 1;
}

/* lanes_group maps a record to its group. */
static int lanes_group(const struct ss_lanes *l, const struct ss_record *r)
{
	if (r->kind == SS_KIND_MARKER && l->nnvtx > 0) {
		int g = lanes_nvtx_group(l, r->thread);

		if (g >= 0)
			return g;
	}
	if (lanes_host_kind(r->kind)) {
		int k = l->nhost > 0 ? lanes_tid_find(l->host_tid, l->nhost, r->thread) : -1;

		return k >= 0 ? lanes_host_group0(l) + k : LANES_GROUP_HOST;
	}
	if (r->stream >= 0 && r->stream < l->nstream_groups)
		return LANES_GROUP_STREAM + r->stream;
	if (l->ndev > 1) {
		int which = r->stream == SS_STREAM_LEGACY       ? LANES_DEV_LEGACY
		            : r->stream == SS_STREAM_PER_THREAD ? LANES_DEV_PER_THREAD
		                                                : LANES_DEV_UNKNOWN;

		return lanes_dev_group(l, lanes_rec_dev(l, r->device), which);
	}
	if (r->stream == SS_STREAM_LEGACY)
		return LANES_GROUP_LEGACY;
	if (r->stream == SS_STREAM_PER_THREAD)
		return LANES_GROUP_PER_THREAD;
	return LANES_GROUP_UNKNOWN;
}

/* lanes_group_device is the device of group g (0 for host and NVTX groups). */
static int lanes_group_device(const struct ss_lanes *l, int g)
{
	if (l->ndev < 2)
		return 0;
	if (g >= LANES_GROUP_STREAM && g < LANES_GROUP_STREAM + l->nstream_groups)
		return l->stream_dev[g - LANES_GROUP_STREAM];
	if (g >= lanes_dev0(l))
		return (g - lanes_dev0(l)) / LANES_DEV_GROUPS;
	return 0;
}

/* lanes_group_stream: the stream of lane group g: a special stream (host, legacy, per-thread, unknown), an
 * experiment stream, a device's special stream with several devices, or the host for NVTX and host-thread groups. */
static int32_t lanes_group_stream(const struct ss_lanes *l, int g)
{
	static const int32_t special[LANES_GROUP_STREAM] = {SS_STREAM_HOST, SS_STREAM_LEGACY, SS_STREAM_PER_THREAD,
	                                                    SS_STREAM_UNKNOWN};

	if (l->ndev > 1 && g >= lanes_dev0(l)) {
		int which = (g - lanes_dev0(l)) % LANES_DEV_GROUPS;

		return which == LANES_DEV_LEGACY       ? SS_STREAM_LEGACY
		       : which == LANES_DEV_PER_THREAD ? SS_STREAM_PER_THREAD
		                                       : SS_STREAM_UNKNOWN;
	}
	if (g >= LANES_GROUP_STREAM + l->nstream_groups)
		return SS_STREAM_HOST; /* an NVTX or a host thread */
	return g < LANES_GROUP_STREAM ? special[g] : g - LANES_GROUP_STREAM;
}

/* lanes_group_has tells whether group g has records of any kind the lane kind draws. */
static bool lanes_group_has(const struct ss_lanes *l, int g, int lk)
{
	for (int i = 0; i < lanes_kinds[lk].n; i++)
		if (l->tracks[g * SS_KIND_COUNT + lanes_kinds[lk].kind[i]].n > 0)
			return true;
	return false;
}

/* lanes_raw_id finds the raw id of stream group g: its first GPU record's (what the program called it), else the
 * stream table's si. False when neither knows one. */
static bool lanes_raw_id(const struct ss_lanes *l, int g, const struct ss_stream_info *si, uint32_t *id)
{
	static const int gpu[] = {SS_KIND_H2D, SS_KIND_D2H, SS_KIND_D2D, SS_KIND_MEMSET, SS_KIND_KERNEL};
	uint32_t best = UINT32_MAX;

	for (size_t i = 0; i < sizeof gpu / sizeof gpu[0]; i++) {
		const struct ss_track *t = &l->tracks[g * SS_KIND_COUNT + gpu[i]];

		if (t->n > 0 && t->idx[0] < best)
			best = t->idx[0];
	}
	if (best != UINT32_MAX) {
		*id = l->tl->rec[best].raw_stream;
		return true;
	}
	if (si != NULL && si->raw_id != 0) {
		*id = si->raw_id;
		return true;
	}
	return false;
}

/* lanes_push appends a lane of kind lk for group g to form f. */
static void lanes_push(struct ss_lanes *l, int f, size_t *cap, int g, int lk, bool first)
{
	struct ss_lane *ln = VEC_PUSH(l->lane[f], l->nlane[f], *cap, 16);

	memset(ln, 0, sizeof *ln);
	ln->stream = lanes_group_stream(l, g);
	ln->kind = (uint8_t)lk;
	ln->first = first;
	ln->wide = l->wide;
	ln->device = (uint8_t)lanes_group_device(l, g);
	ln->peer = l->ndev > 1 && g >= lanes_dev0(l) && (g - lanes_dev0(l)) % LANES_DEV_GROUPS == LANES_DEV_PEER;
	if (ln->stream >= 0) {
		const struct ss_stream_info *si = timeline_stream(l->tl, ln->stream);

		ln->skind = si != NULL ? si->kind : SS_SKIND_UNKNOWN;
		ln->by_id = l->tl->stream_ids && lanes_raw_id(l, g, si, &ln->raw_id);
	}
	if (lk == LANE_NVTX)
		ln->thread = l->nvtx_tid[g - LANES_GROUP_STREAM - l->nstream_groups];
	if (lk == LANE_HOST && g >= lanes_host_group0(l)) {
		ln->host_thread = true;
		ln->thread = l->host_tid[g - lanes_host_group0(l)];
	}
	ln->host_rest = lk == LANE_HOST && g == LANES_GROUP_HOST && l->nhost > 0;
	for (int i = 0; i < lanes_kinds[lk].n; i++) {
		int k = lanes_kinds[lk].kind[i];

		ln->track[ln->ntracks] = &l->tracks[g * SS_KIND_COUNT + k];
		ln->role[ln->ntracks] = (uint8_t)(g == LANES_GROUP_LEGACY ? SS_ROLE_DEFAULT_STREAM : k);
		ln->ntracks++;
	}
	ln->overlap = lk == LANE_HOST || lk == LANE_NVTX;
}

/* lanes_layout_gpu lists the lanes of GPU group g (a stream's, shown even while empty, or a special one, shown
 * only with records): its engines that `any` allows (expanded) and one compact row. */
static void lanes_layout_gpu(struct ss_lanes *l, size_t *cap, int g, const bool *any)
{
	bool stream = g >= LANES_GROUP_STREAM && g < LANES_GROUP_STREAM + l->nstream_groups, first = true;

	if (!stream && !lanes_group_has(l, g, LANE_STREAM))
		return;
	for (int lk = LANE_H2D; lk <= LANE_D2H; lk++)
		if (stream ? any[lk] : lanes_group_has(l, g, lk)) {
			lanes_push(l, 0, &cap[0], g, lk, first);
			first = false;
		}
	lanes_push(l, 1, &cap[1], g, LANE_STREAM, true);
}

/* lanes_layout_devices lists, after the host and NVTX lanes, each device's header and its groups: legacy, its
 * streams, per-thread, unknown, then its peer copies' far ends. */
static void lanes_layout_devices(struct ss_lanes *l, size_t *cap, const bool *any)
{
	for (int d = 0; d < l->ndev; d++) {
		for (int f = 0; f < 2; f++) {
			struct ss_lane *ln = VEC_PUSH(l->lane[f], l->nlane[f], cap[f], 16);

			memset(ln, 0, sizeof *ln);
			ln->stream = SS_STREAM_UNKNOWN;
			ln->kind = LANE_DEVICE;
			ln->first = true;
			ln->device = (uint8_t)d;
		}
		lanes_layout_gpu(l, cap, lanes_dev_group(l, d, LANES_DEV_LEGACY), any);
		for (int s = 0; s < l->nstream_groups; s++)
			if (l->stream_dev[s] == d)
				lanes_layout_gpu(l, cap, LANES_GROUP_STREAM + s, any);
		lanes_layout_gpu(l, cap, lanes_dev_group(l, d, LANES_DEV_PER_THREAD), any);
		lanes_layout_gpu(l, cap, lanes_dev_group(l, d, LANES_DEV_UNKNOWN), any);
		lanes_layout_gpu(l, cap, lanes_dev_group(l, d, LANES_DEV_PEER), any);
	}
}

/* lanes_layout lists the lanes of both forms. A stream lane kind is shown for every stream when any stream has
 * it (KER always), so that row groups look alike; the other groups show only what they have. */
static void lanes_layout(struct ss_lanes *l)
{
	size_t cap[2] = {0, 0};
	bool any[LANE_KIND_COUNT] = {false};
	static const int order[] = {LANES_GROUP_HOST,   -2, LANES_GROUP_LEGACY, -1, LANES_GROUP_PER_THREAD,
	                            LANES_GROUP_UNKNOWN};
	int nvtx0 = LANES_GROUP_STREAM + l->nstream_groups, host0 = lanes_host_group0(l);

	for (int g = LANES_GROUP_STREAM; g < nvtx0; g++)
		for (int lk = LANE_H2D; lk <= LANE_D2H; lk++)
			any[lk] |= lanes_group_has(l, g, lk);
	any[LANE_KER] = true;
	for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
		int g0 = order[o] == -1 ? LANES_GROUP_STREAM : order[o] == -2 ? nvtx0 : order[o];
		int g1 = order[o] == -1 ? nvtx0 : order[o] == -2 ? host0 : order[o] + 1;

		if (l->ndev > 1 && order[o] == LANES_GROUP_LEGACY) {
			lanes_layout_devices(l, cap, any); /* the GPU groups, device by device */
			break;
		}

		for (int g = g0; g < g1; g++) {
			if (g >= nvtx0) {
				lanes_push(l, 0, &cap[0], g, LANE_NVTX, true);
				lanes_push(l, 1, &cap[1], g, LANE_NVTX, true);
				continue;
			}
			if (g == LANES_GROUP_HOST) {
				/* one lane per host thread, then the threads past LANES_MAX_HOST together */
				for (int k = 0; k < l->nhost; k++) {
					lanes_push(l, 0, &cap[0], lanes_host_group0(l) + k, LANE_HOST, true);
					lanes_push(l, 1, &cap[1], lanes_host_group0(l) + k, LANE_HOST, true);
				}
				if (lanes_group_has(l, g, LANE_HOST)) {
					lanes_push(l, 0, &cap[0], g, LANE_HOST, true);
					lanes_push(l, 1, &cap[1], g, LANE_HOST, true);
				}
				continue;
			}
			lanes_layout_gpu(l, cap, g, any);
		}
	}
}

static int lanes_cmp_tid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* lanes_threads lists the threads of tl's records of one kind, rising, at most max of them (the first met): into
 * *tid (allocated with room for max at the first) and *n. */
static void lanes_threads(const struct ss_timeline *tl, int kind, int max, uint32_t **tid, int *n)
{
	uint32_t last = 0;
	bool have_last = false;

	for (size_t i = 0; i < tl->n; i++) {
		uint32_t t = tl->rec[i].thread;
		int k;

		if (tl->rec[i].kind != kind || (have_last && t == last))
			continue;
		for (k = 0; k < *n && (*tid)[k] != t; k++)
			;
		last = t;
		have_last = true;
		if (k < *n || *n == max)
			continue;
		if (*tid == NULL)
			*tid = xcalloc((size_t)max, sizeof **tid);
		(*tid)[(*n)++] = t;
	}
	if (*n > 1)
		qsort(*tid, (size_t)*n, sizeof **tid, lanes_cmp_tid);
}

/* lanes_stream_devices gives each stream group its device: that of its first GPU record, else the stream table's,
 * else 0 (ndev > 1). */
static void lanes_stream_devices(struct ss_lanes *l, const struct ss_timeline *tl)
{
	bool *seen = xcalloc((size_t)l->nstream_groups, sizeof *seen);

	l->stream_dev = xcalloc((size_t)l->nstream_groups, sizeof *l->stream_dev);
	for (int s = 0; s < l->nstream_groups; s++) {
		const struct ss_stream_info *si = timeline_stream(tl, s);

		l->stream_dev[s] = (uint8_t)lanes_rec_dev(l, si != NULL ? si->device : 0);
	}
	for (size_t i = 0; i < tl->n; i++) {
		const struct ss_record *r = &tl->rec[i];

		if (r->stream >= 0 && r->stream < l->nstream_groups && !lanes_host_kind(r->kind) && !seen[r->stream]) {
			seen[r->stream] = true;
			l->stream_dev[r->stream] = (uint8_t)lanes_rec_dev(l, r->device);
		}
	}
	free(seen);
}

void lanes_build(struct ss_lanes *l, const struct ss_timeline *tl)
{
	int maxs = tl->nstreams - 1;

	lanes_free(l);
	l->tl = tl;
	l->indexed = tl->n;
	for (size_t i = 0; i < tl->n; i++)
		if (tl->rec[i].stream > maxs && tl->rec[i].stream < LANES_MAX_STREAM &&
		    !lanes_host_kind(tl->rec[i].kind))
			maxs = tl->rec[i].stream;
	/* the threads that have NVTX ranges; the OS threads of the host's API calls, none when there is only one (the
	 * single "host" lane: a sync wait goes to its thread's lane, to "host rest" when its thread made no API call)
	 */
	lanes_threads(tl, SS_KIND_MARKER, LANES_MAX_NVTX, &l->nvtx_tid, &l->nnvtx);
	lanes_threads(tl, SS_KIND_API, LANES_MAX_HOST, &l->host_tid, &l->nhost);
	if (l->nhost < 2)
		l->nhost = 0;
	l->wide = tl->stream_ids; /* "13 nb" */
	for (int s = 0; s <= maxs && !l->wide; s++) {
		const struct ss_stream_info *si = timeline_stream(tl, s);

		l->wide = si != NULL && si->kind != SS_SKIND_UNKNOWN;
	}
	l->nstream_groups = maxs + 1;
	l->ndev = timeline_ndevices(tl);
	if (l->ndev > LANES_MAX_DEVICES)
		l->ndev = LANES_MAX_DEVICES;
	l->ngroups = LANES_GROUP_STREAM + l->nstream_groups + l->nnvtx + l->nhost;
	if (l->ndev > 1) {
		lanes_stream_devices(l, tl);
		l->ngroups += l->ndev * LANES_DEV_GROUPS;
	}
	l->tracks = xcalloc((size_t)l->ngroups * SS_KIND_COUNT, sizeof *l->tracks);
	for (size_t i = 0; i < tl->n; i++) {
		const struct ss_record *r = &tl->rec[i];
		int k = r->kind < SS_KIND_COUNT ? r->kind : SS_KIND_MARKER;
		int g = lanes_group(l, r);

		track_add(&l->tracks[g * SS_KIND_COUNT + k], (uint32_t)i);
		/* a peer copy's far end: on its other device's peer lane too */
		if (l->ndev > 1 && r->kind == SS_KIND_D2D && (r->flags & SS_REC_PEER) &&
		    lanes_rec_dev(l, r->peer) != lanes_group_device(l, g))
			track_add(
			    &l->tracks[lanes_dev_group(l, lanes_rec_dev(l, r->peer), LANES_DEV_PEER) * SS_KIND_COUNT +
			               SS_KIND_D2D],
			    (uint32_t)i);
		if (!l->have_span || r->start < l->t0)
			l->t0 = r->start;
		if (!l->have_span || r->end > l->t1)
			l->t1 = r->end;
		l->have_span = true;
		if (r->kind < SS_KIND_COUNT && (SS_GPU_KINDS & SS_KIND_BIT(r->kind))) {
			if (!l->have_gpu_span || r->start < l->gpu_t0)
				l->gpu_t0 = r->start;
			if (!l->have_gpu_span || r->end > l->gpu_t1)
				l->gpu_t1 = r->end;
			l->have_gpu_span = true;
		}
	}
	l->bytes = (size_t)l->ngroups * SS_KIND_COUNT * sizeof *l->tracks;
	for (int i = 0; i < l->ngroups * SS_KIND_COUNT; i++) {
		track_finish(&l->tracks[i], tl->rec);
		l->bytes += track_bytes(&l->tracks[i]);
	}
	lanes_layout(l);
	l->bytes += (size_t)(l->nlane[0] + l->nlane[1]) * sizeof(struct ss_lane);
	if (l->nvtx_tid != NULL)
		l->bytes += LANES_MAX_NVTX * sizeof *l->nvtx_tid;
	if (l->host_tid != NULL)
		l->bytes += LANES_MAX_HOST * sizeof *l->host_tid;
	if (l->stream_dev != NULL)
		l->bytes += (size_t)l->nstream_groups * sizeof *l->stream_dev;
}

const struct ss_lane *lanes_get(const struct ss_lanes *l, bool compact, int *n)
{
	*n = l->nlane[compact ? 1 : 0];
	return l->lane[compact ? 1 : 0];
}

/* lanes_id_name writes the name of a stream that goes by its raw id into name[len], in at most w columns: the
 * first that fits of "Stream 13 nb", "13 nb", "Stream 13", "13 n", "13", "~4567" (the id's last digits). */
static void lanes_id_name(const struct ss_lane *ln, int w, char *name, size_t len)
{
	const char *tag = ln->skind != SS_SKIND_UNKNOWN ? timeline_stream_kind_tag(ln->skind) : "";
	char cand[6][24];
	int n = 0;

	if (*tag != '\0') {
		snprintf(cand[n++], sizeof cand[0], "Stream %u %s", ln->raw_id, tag);
		snprintf(cand[n++], sizeof cand[0], "%u %s", ln->raw_id, tag);
	}
	snprintf(cand[n++], sizeof cand[0], "Stream %u", ln->raw_id);
	if (*tag != '\0')
		snprintf(cand[n++], sizeof cand[0], "%u %c", ln->raw_id, tag[0]);
	snprintf(cand[n++], sizeof cand[0], "%u", ln->raw_id);
	for (int i = 0; i < n; i++)
		if (strlen(cand[i]) <= (size_t)w) {
			snprintf(name, len, "%.*s", (int)sizeof cand[0] - 1, cand[i]); /* each fits cand[0] */
			return;
		}
	snprintf(name, len, "~%s", cand[n - 1] + strlen(cand[n - 1]) - (w > 1 ? w - 1 : 1));
}

/* lanes_tid_label writes "PREFIX t812", or "PREFIX ~4567" with the last digits of a long thread id, so that the
 * label fits the label column. */
static void lanes_tid_label(const char *prefix, uint32_t tid, char *buf, size_t len)
{
	char num[16];

	snprintf(num, sizeof num, "%u", tid);
	if (strlen(num) > 4)
		snprintf(buf, len, "%s ~%s", prefix, num + strlen(num) - 4);
	else
		snprintf(buf, len, "%s t%s", prefix, num);
}

/* lanes_engine tells whether lane ln's label ends in its engine (" H2D", " KER", " D2H"): the expanded form's GPU
 * lanes, a stream's and a special stream's. */
static bool lanes_engine(const struct ss_lane *ln)
{
	return ln->kind == LANE_H2D || ln->kind == LANE_KER || ln->kind == LANE_D2H;
}

/* lanes_tagged tells whether lane ln is named with its stream's kind: "sN TAG" (a stream of the experiment's
 * numbering) or "ID TAG" (a stream that goes by its raw id), the labels that ask for a wider column. */
static bool lanes_tagged(const struct ss_lane *ln)
{
	return ln->stream >= 0 && !ln->peer && ln->skind != SS_SKIND_UNKNOWN &&
	       (lanes_engine(ln) || ln->kind == LANE_STREAM);
}

void lanes_label(const struct ss_lane *ln, int cols, char *buf, size_t len)
{
	static const char *const kinds[LANE_KIND_COUNT] = {"", "H2D", "KER", "D2H", "", ""};
	char name[24];
	int room = lanes_engine(ln) ? cols - 4 : cols; /* the name's columns */
	int w = ln->wide ? (room > 6 ? room : 6) : 4;  /* the name field of an engine lane, padded */

	if (ln->kind == LANE_NVTX) {
		lanes_tid_label("NVTX", ln->thread, buf, len);
		return;
	}
	if (ln->kind == LANE_HOST && ln->host_thread) {
		lanes_tid_label("host", ln->thread, buf, len);
		return;
	}
	if (ln->kind == LANE_DEVICE) {
		snprintf(buf, len, "GPU %u", (unsigned)ln->device);
		return;
	}
	switch (ln->peer ? SS_STREAM_UNKNOWN - 1 : ln->stream) {
	case SS_STREAM_UNKNOWN - 1: /* a device's peer lane */
		snprintf(name, sizeof name, "peer");
		break;
	case SS_STREAM_HOST:
		snprintf(name, sizeof name, "%s", ln->host_rest ? "host rest" : "host");
		break;
	case SS_STREAM_LEGACY:
		snprintf(name, sizeof name, "legacy");
		break;
	case SS_STREAM_PER_THREAD:
		snprintf(name, sizeof name, "ptds");
		break;
	case SS_STREAM_UNKNOWN:
		snprintf(name, sizeof name, "other");
		break;
	default:
		if (ln->by_id) {
			/* the compact row has the label column to itself; the others share it with the engine */
			lanes_id_name(ln, ln->kind == LANE_STREAM ? room : w, name, sizeof name);
			break;
		}
		snprintf(name, sizeof name, "s%d", (int)ln->stream);
		if (ln->skind != SS_SKIND_UNKNOWN) {
			/* the kind's tag ("s3 nb", "s3 blk"); its first letter when the full tag does not fit */
			const char *tag = timeline_stream_kind_tag(ln->skind);
			size_t n = strlen(name);

			if (n + 1 + strlen(tag) <= (size_t)(lanes_engine(ln) ? w : room))
				snprintf(name + n, sizeof name - n, " %s", tag);
			else
				snprintf(name + n, sizeof name - n, " %c", tag[0]);
		}
		break;
	}
	if (!lanes_engine(ln))
		snprintf(buf, len, "%s", name);
	else if (ln->first)
		snprintf(buf, len, "%-*s %s", w, name, kinds[ln->kind]);
	else
		snprintf(buf, len, "%-*s %s", w, "", kinds[ln->kind]);
}

int lanes_label_cols(const struct ss_lanes *l, bool compact)
{
	int n, cols = LAYOUT_LABEL_COLS;
	const struct ss_lane *ln = lanes_get(l, compact, &n);

	for (int i = 0; i < n; i++) {
		char name[24];
		int want;

		if (!lanes_tagged(&ln[i]))
			continue;
		if (ln[i].by_id)
			want =
			    snprintf(name, sizeof name, "%u %s", ln[i].raw_id, timeline_stream_kind_tag(ln[i].skind));
		else
			want = snprintf(name, sizeof name, "s%d %s", (int)ln[i].stream,
			                timeline_stream_kind_tag(ln[i].skind));
		want += (lanes_engine(&ln[i]) ? 4 : 0) + 1; /* the engine, the separator */
		if (want > cols)
			cols = want;
	}
	return cols;
}

int lanes_find(const struct ss_lanes *l, bool compact, uint32_t r)
{
	int n, g, k;
	const struct ss_lane *ln = lanes_get(l, compact, &n);
	const struct ss_track *t;

	if (r >= l->indexed)
		return -1;
	g = lanes_group(l, &l->tl->rec[r]);
	k = l->tl->rec[r].kind < SS_KIND_COUNT ? l->tl->rec[r].kind : SS_KIND_MARKER;
	t = &l->tracks[g * SS_KIND_COUNT + k];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < ln[i].ntracks; j++)
			if (ln[i].track[j] == t)
				return i;
	return -1;
}

uint32_t lanes_step(const struct ss_lanes *l, const struct ss_lane *ln, uint32_t r, int dir)
{
	const struct ss_record *rec = l->tl->rec;
	uint32_t best = UINT32_MAX;

	if (r != UINT32_MAX && r >= l->indexed)
		r = UINT32_MAX;
	for (int j = 0; j < ln->ntracks; j++) {
		const struct ss_track *t = ln->track[j];
		uint32_t c;

		if (t->n == 0)
			continue;
		if (dir > 0) {
			size_t p = r == UINT32_MAX ? 0 : track_rank(t, rec, r, true);

			if (p >= t->n)
				continue;
			c = t->idx[p];
			if (best == UINT32_MAX || track_before(rec, c, best))
				best = c;
		} else {
			size_t p = r == UINT32_MAX ? t->n : track_rank(t, rec, r, false);

			if (p == 0)
				continue;
			c = t->idx[p - 1];
			if (best == UINT32_MAX || track_before(rec, best, c))
				best = c;
		}
	}
	return best;
}

uint32_t lanes_near(const struct ss_lanes *l, const struct ss_lane *ln, double x)
{
	const struct ss_record *rec = l->tl->rec;
	uint32_t best = UINT32_MAX;
	double bestd = INFINITY;

	for (int j = 0; j < ln->ntracks; j++) {
		const struct ss_track *t = ln->track[j];
		uint32_t c = track_pick(t, rec, x, nextafter(x, INFINITY));
		size_t p;

		if (c != UINT32_MAX) {
			if (bestd > 0 || best == UINT32_MAX) {
				best = c;
				bestd = 0;
			}
			continue;
		}
		p = track_lower_start(t, rec, x);
		if (p < t->n && (double)rec[t->idx[p]].start - x < bestd) {
			best = t->idx[p];
			bestd = (double)rec[best].start - x;
		}
		if (p > 0 && x - (double)rec[t->idx[p - 1]].end < bestd) {
			best = t->idx[p - 1];
			bestd = x - (double)rec[best].end;
		}
	}
	return best;
}

int lanes_role(const struct ss_record *r)
{
	if (r->stream == SS_STREAM_LEGACY && !lanes_host_kind(r->kind))
		return SS_ROLE_DEFAULT_STREAM;
	return r->kind < SS_KIND_COUNT ? r->kind : SS_ROLE_MARKER;
}

uint32_t lanes_api_of(const struct ss_lanes *l, uint32_t r)
{
	uint32_t corr;

	if (r >= l->indexed || l->tl->rec[r].kind == SS_KIND_API || (corr = l->tl->rec[r].correlation) == 0)
		return UINT32_MAX;
	/* the shared host group, then every host thread's */
	for (int k = -1; k < l->nhost; k++) {
		int g = k < 0 ? LANES_GROUP_HOST : lanes_host_group0(l) + k;
		const struct ss_track *t = &l->tracks[g * SS_KIND_COUNT + SS_KIND_API];

		for (size_t i = 0; i < t->n; i++)
			if (l->tl->rec[t->idx[i]].correlation == corr)
				return t->idx[i];
	}
	return UINT32_MAX;
}
