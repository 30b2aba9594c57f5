/* timeline.c: the record array, its names (core/intern) and the run's labels. */
#include "core/timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/xalloc.h"

void timeline_init(struct ss_timeline *t)
{
	memset(t, 0, sizeof *t);
	intern_init(&t->names);
}

void timeline_free(struct ss_timeline *t)
{
	free(t->rec);
	free(t->stream_info);
	free(t->launch);
	intern_free(&t->names);
	memset(t, 0, sizeof *t);
}

void timeline_clear(struct ss_timeline *t)
{
	t->n = 0;
	intern_clear(&t->names);
	t->dropped = 0;
	t->incomplete = false;
	t->nstream_info = 0;
	t->nlaunch = 0;
	t->launch_unsorted = false;
	memset(t->devices, 0, sizeof t->devices);
}

uint32_t timeline_intern(struct ss_timeline *t, const char *s)
{
	return intern_cstr(&t->names, s);
}

const char *timeline_name(const struct ss_timeline *t, uint32_t id)
{
	return intern_str(&t->names, id);
}

struct ss_record *timeline_add(struct ss_timeline *t, const struct ss_record *r)
{
	struct ss_record *p = VEC_PUSH(t->rec, t->n, t->cap, 1024);

	*p = *r;
	return p;
}

static int timeline_cmp(const void *a, const void *b)
{
	return record_cmp(a, b);
}

/* timeline_launch_cmp orders launch entries by (correlation, raw_stream). */
static int timeline_launch_cmp(const void *a, const void *b)
{
	const struct ss_launch *x = a, *y = b;

	if (x->correlation != y->correlation)
		return x->correlation < y->correlation ? -1 : 1;
	return x->raw_stream < y->raw_stream ? -1 : x->raw_stream > y->raw_stream;
}

void timeline_sort(struct ss_timeline *t)
{
	if (t->n > 1)
		qsort(t->rec, t->n, sizeof *t->rec, timeline_cmp);
	timeline_sort_launches(t);
}

void timeline_sort_launches(struct ss_timeline *t)
{
	if (t->launch_unsorted)
		qsort(t->launch, t->nlaunch, sizeof *t->launch, timeline_launch_cmp);
	t->launch_unsorted = false;
}

/* timeline_cmp_pair compares (correlation, thread) pairs by correlation. */
static int timeline_cmp_pair(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

void timeline_sync_threads(struct ss_timeline *t)
{
	uint32_t *pairs = NULL;
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->rec[i].kind == SS_KIND_API && t->rec[i].correlation != 0;
	if (n == 0)
		return;
	pairs = xreallocarray(NULL, n, 2 * sizeof *pairs);
	n = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (t->rec[i].kind == SS_KIND_API && t->rec[i].correlation != 0) {
			pairs[2 * n] = t->rec[i].correlation;
			pairs[2 * n + 1] = t->rec[i].thread;
			n++;
		}
	}
	qsort(pairs, n, 2 * sizeof *pairs, timeline_cmp_pair);
	for (size_t i = 0; i < t->n; i++) {
		struct ss_record *r = &t->rec[i];
		uint32_t key[2] = {r->correlation, 0};
		const uint32_t *hit;

		if (r->kind != SS_KIND_SYNC || r->thread != 0 || r->correlation == 0)
			continue;
		hit = bsearch(key, pairs, n, 2 * sizeof *pairs, timeline_cmp_pair);
		if (hit != NULL)
			r->thread = hit[1];
	}
	free(pairs);
}

void timeline_add_launch(struct ss_timeline *t, const struct ss_launch *l)
{
	/* launches arrive in correlation order from one process: kept sorted without a sort then */
	if (t->nlaunch > 0 && timeline_launch_cmp(&t->launch[t->nlaunch - 1], l) > 0)
		t->launch_unsorted = true;
	*VEC_PUSH(t->launch, t->nlaunch, t->launch_cap, 64) = *l;
}

const struct ss_launch *timeline_launch(const struct ss_timeline *t, const struct ss_record *r)
{
	struct ss_launch key = {.correlation = r->correlation, .raw_stream = r->raw_stream};
	size_t lo = 0, hi = t->nlaunch;

	if (r->kind != SS_KIND_KERNEL || t->nlaunch == 0)
		return NULL;
	if (t->launch_unsorted) {
		for (size_t i = 0; i < t->nlaunch; i++)
			if (timeline_launch_cmp(&t->launch[i], &key) == 0)
				return &t->launch[i];
		return NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (timeline_launch_cmp(&t->launch[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nlaunch && timeline_launch_cmp(&t->launch[lo], &key) == 0 ? &t->launch[lo] : NULL;
}

/* Widens the span [*lo, *hi] by r when r's kind matches kind_mask. */
static void timeline_span_add(const struct ss_record *r, unsigned kind_mask, uint64_t *lo, uint64_t *hi)
{
	if (r->kind >= SS_KIND_COUNT || !(kind_mask & SS_KIND_BIT(r->kind)))
		return;
	if (r->start < *lo)
		*lo = r->start;
	if (r->end > *hi)
		*hi = r->end;
}

bool timeline_span(const struct ss_timeline *t, unsigned kind_mask, uint64_t *t0, uint64_t *t1)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t i = 0; i < t->n; i++)
		timeline_span_add(&t->rec[i], kind_mask, &lo, &hi);
	if (lo == UINT64_MAX)
		return false;
	*t0 = lo;
	*t1 = hi;
	return true;
}

static int timeline_u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

bool timeline_work_span(const struct ss_record *rec, size_t n, uint64_t *t0, uint64_t *t1)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	uint32_t *pageable = NULL;
	size_t np = 0;

	for (size_t i = 0; i < n; i++) {
		const struct ss_record *r = &rec[i];

		timeline_span_add(r, SS_GPU_KINDS, &lo, &hi);
		if ((r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H) && (r->flags & SS_REC_PAGEABLE) &&
		    r->correlation != 0) {
			if (pageable == NULL)
				pageable = xreallocarray(NULL, n, sizeof *pageable);
			pageable[np++] = r->correlation;
		}
	}
	if (lo == UINT64_MAX) {
		free(pageable);
		return false;
	}
	if (np > 0) {
		qsort(pageable, np, sizeof *pageable, timeline_u32_cmp);
		for (size_t i = 0; i < n; i++)
			if (rec[i].kind == SS_KIND_API && rec[i].correlation != 0 &&
			    bsearch(&rec[i].correlation, pageable, np, sizeof *pageable, timeline_u32_cmp) != NULL)
				timeline_span_add(&rec[i], SS_KIND_BIT(SS_KIND_API), &lo, &hi);
	}
	free(pageable);
	*t0 = lo;
	*t1 = hi;
	return true;
}

size_t timeline_count(const struct ss_timeline *t, int kind)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->rec[i].kind == kind;
	return n;
}

void timeline_rebase(struct ss_timeline *t, uint64_t t0)
{
	for (size_t i = 0; i < t->n; i++) {
		struct ss_record *r = &t->rec[i];

		r->start = r->start > t0 ? r->start - t0 : 0;
		r->end = r->end > t0 ? r->end - t0 : 0;
	}
}

void timeline_finish(struct ss_timeline *t)
{
	int max = -1;

	if (t->nstreams > 0)
		return;
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].stream > max)
			max = t->rec[i].stream;
	t->nstreams = max + 1;
}

void timeline_copy(struct ss_timeline *dst, const struct ss_timeline *src)
{
	*dst = *src;
	dst->rec = xreallocarray(NULL, src->cap ? src->cap : 1, sizeof *dst->rec);
	if (src->n > 0)
		memcpy(dst->rec, src->rec, src->n * sizeof *dst->rec);
	dst->stream_info = NULL;
	if (src->nstream_info > 0) {
		dst->stream_info = xreallocarray(NULL, (size_t)src->nstream_info, sizeof *dst->stream_info);
		memcpy(dst->stream_info, src->stream_info, (size_t)src->nstream_info * sizeof *dst->stream_info);
	}
	dst->launch = NULL;
	dst->launch_cap = src->nlaunch;
	if (src->nlaunch > 0) {
		dst->launch = xreallocarray(NULL, src->nlaunch, sizeof *dst->launch);
		memcpy(dst->launch, src->launch, src->nlaunch * sizeof *dst->launch);
	}
	intern_copy(&dst->names, &src->names);
}

void timeline_set_stream(struct ss_timeline *t, int index, uint32_t raw_id, int kind)
{
	if (index < 0 || index >= SS_TIMELINE_MAX_STREAM_INFO)
		return;
	if (index >= t->nstream_info) {
		/* grown to exactly what is asked: streams are few, and a cleared table keeps its memory */
		t->stream_info = xreallocarray(t->stream_info, (size_t)index + 1, sizeof *t->stream_info);
		memset(&t->stream_info[t->nstream_info], 0,
		       (size_t)(index + 1 - t->nstream_info) * sizeof *t->stream_info);
		t->nstream_info = index + 1;
	}
	t->stream_info[index].raw_id = raw_id;
	t->stream_info[index].kind =
	    (uint8_t)(kind > SS_SKIND_UNKNOWN && kind < SS_SKIND_COUNT ? kind : SS_SKIND_UNKNOWN);
}

void timeline_set_stream_device(struct ss_timeline *t, int index, int device)
{
	const struct ss_stream_info *si = timeline_stream(t, index);

	if (index < 0 || index >= SS_TIMELINE_MAX_STREAM_INFO || device < 0 || device > UINT8_MAX)
		return;
	timeline_set_stream(t, index, si != NULL ? si->raw_id : 0, si != NULL ? si->kind : SS_SKIND_UNKNOWN);
	t->stream_info[index].device = (uint8_t)device;
}

const struct ss_stream_info *timeline_stream(const struct ss_timeline *t, int index)
{
	if (index < 0 || index >= t->nstream_info)
		return NULL;
	if (t->stream_info[index].raw_id == 0 && t->stream_info[index].kind == SS_SKIND_UNKNOWN &&
	    t->stream_info[index].device == 0)
		return NULL;
	return &t->stream_info[index];
}

const char *timeline_stream_kind_name(int kind)
{
	static const char *const name[SS_SKIND_COUNT] = {"kind unknown", "blocking", "non-blocking", "legacy default",
	                                                 "per-thread default"};

	return kind >= 0 && kind < SS_SKIND_COUNT ? name[kind] : name[0];
}

const char *timeline_stream_kind_tag(int kind)
{
	static const char *const tag[SS_SKIND_COUNT] = {"", "blk", "nb", "leg", "ptd"};

	return kind >= 0 && kind < SS_SKIND_COUNT ? tag[kind] : tag[0];
}

const char *timeline_stream_label(int32_t stream, char *buf, size_t len)
{
	switch (stream) {
	case SS_STREAM_HOST:
		snprintf(buf, len, "host");
		break;
	case SS_STREAM_LEGACY:
		snprintf(buf, len, "legacy");
		break;
	case SS_STREAM_PER_THREAD:
		snprintf(buf, len, "per-thread");
		break;
	default:
		if (stream >= 0)
			snprintf(buf, len, "s%d", (int)stream);
		else
			snprintf(buf, len, "unknown");
	}
	return buf;
}

const char *timeline_stream_title(const struct ss_timeline *t, int32_t stream, char *buf, size_t len)
{
	const struct ss_stream_info *si = timeline_stream(t, stream);
	char label[24];

	timeline_stream_label(stream, label, sizeof label);
	if (si == NULL)
		snprintf(buf, len, "%s", label);
	else if (si->kind == SS_SKIND_UNKNOWN)
		snprintf(buf, len, "%s (id %u)", label, si->raw_id);
	else
		snprintf(buf, len, "%s %s (id %u)", label, timeline_stream_kind_name(si->kind), si->raw_id);
	return buf;
}

void timeline_set_device(struct ss_timeline *t, int index, const char *name, const char *uuid, uint32_t context)
{
	struct ss_device_info *d;

	if (index < 0 || index >= SS_TIMELINE_MAX_DEVICES)
		return;
	d = &t->devices[index];
	if (name != NULL)
		snprintf(d->name, sizeof d->name, "%s", name);
	if (uuid != NULL)
		snprintf(d->uuid, sizeof d->uuid, "%s", uuid);
	if (context != 0)
		d->context = context;
	d->known = true;
}

void timeline_set_copy_engines(struct ss_timeline *t, int index, int n)
{
	if (index < 0 || index >= SS_TIMELINE_MAX_DEVICES || n < 1)
		return;
	t->devices[index].copy_engines = n;
	t->devices[index].known = true;
}

const struct ss_device_info *timeline_device(const struct ss_timeline *t, int index)
{
	if (index < 0 || index >= SS_TIMELINE_MAX_DEVICES || !t->devices[index].known)
		return NULL;
	return &t->devices[index];
}

int timeline_ndevices(const struct ss_timeline *t)
{
	int n = 1;

	for (int i = 0; i < SS_TIMELINE_MAX_DEVICES; i++)
		if (t->devices[i].known && i + 1 > n)
			n = i + 1;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->device + 1 > n)
			n = r->device + 1;
		if ((r->flags & SS_REC_PEER) && r->peer + 1 > n)
			n = r->peer + 1;
	}
	return n;
}

const char *timeline_device_title(const struct ss_timeline *t, int index, char *buf, size_t len)
{
	const struct ss_device_info *d = timeline_device(t, index);
	const char *name = d != NULL && d->name[0] != '\0' ? d->name : index == 0 ? t->device : "";

	if (name[0] == '\0')
		snprintf(buf, len, "GPU %d", index);
	else if (d != NULL && d->uuid[0] != '\0')
		snprintf(buf, len, "GPU %d: %s (%s)", index, name, d->uuid);
	else
		snprintf(buf, len, "GPU %d: %s", index, name);
	return buf;
}
