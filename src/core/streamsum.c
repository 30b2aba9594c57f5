/* streamsum.c: the streams of a timeline summarised by kind and by busy time (see streamsum.h). */
#include "core/streamsum.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/xalloc.h"

/* One GPU record reduced to what the busy time needs, sortable by (lane, start). */
struct streamsum_iv {
	int lane;
	uint64_t start, end;
};

/* The distinct CUPTI ids met on a default-stream lane (few: one per context or thread). */
struct streamsum_ids {
	uint32_t *id;
	int n;
	size_t cap;
};

static void streamsum_note_id(struct streamsum_ids *ids, uint32_t id)
{
	for (int i = 0; i < ids->n; i++)
		if (ids->id[i] == id)
			return;
	*VEC_PUSH(ids->id, ids->n, ids->cap, 4) = id;
}

static int streamsum_cmp_iv(const void *a, const void *b)
{
	const struct streamsum_iv *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Busiest first; equal busy times keep lane order (stream indices, then legacy, then per-thread). */
static int streamsum_cmp_lane(const void *a, const void *b)
{
	const struct ss_streamsum_stream *x = a, *y = b;
	uint32_t kx = x->stream >= 0 ? (uint32_t)x->stream : 0x7fffffffu + (uint32_t)-x->stream;
	uint32_t ky = y->stream >= 0 ? (uint32_t)y->stream : 0x7fffffffu + (uint32_t)-y->stream;

	if (x->busy != y->busy)
		return x->busy > y->busy ? -1 : 1;
	return kx < ky ? -1 : kx > ky;
}

void streamsum_build(const struct ss_timeline *t, struct ss_streamsum *s)
{
	int n = t->nstreams > 0 ? t->nstreams : 0, nl = n + 2; /* lanes: indices, legacy, per-thread */
	struct ss_streamsum_stream *lane = xcalloc((size_t)nl, sizeof *lane);
	bool *have = xcalloc((size_t)nl, sizeof *have);
	struct streamsum_ids ids[2];
	struct streamsum_iv *iv;
	size_t niv = 0;

	memset(s, 0, sizeof *s);
	memset(ids, 0, sizeof ids);
	iv = xreallocarray(NULL, t->n ? t->n : 1, sizeof *iv);
	for (int i = 0; i < nl; i++) {
		const struct ss_stream_info *si = i < n ? timeline_stream(t, i) : NULL;

		lane[i].stream = i < n ? i : i == n ? SS_STREAM_LEGACY : SS_STREAM_PER_THREAD;
		lane[i].kind = i < n    ? (si != NULL && si->kind < SS_SKIND_COUNT ? si->kind : SS_SKIND_UNKNOWN)
		               : i == n ? SS_SKIND_LEGACY
		                        : SS_SKIND_PER_THREAD;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int l = r->stream >= 0 && r->stream < n     ? r->stream
		        : r->stream == SS_STREAM_LEGACY     ? n
		        : r->stream == SS_STREAM_PER_THREAD ? n + 1
		                                            : -1;

		if (l < 0 || r->kind >= SS_KIND_API)
			continue;
		if (!have[l])
			lane[l].raw_id = r->raw_stream;
		have[l] = true;
		if (l >= n)
			streamsum_note_id(&ids[l - n], r->raw_stream);
		if (r->kind == SS_KIND_KERNEL)
			lane[l].kernels++;
		else if (r->kind == SS_KIND_MEMSET)
			lane[l].memsets++;
		else
			lane[l].copies++;
		iv[niv++] = (struct streamsum_iv){l, r->start, r->end > r->start ? r->end : r->start};
	}
	/* busy: the union of each lane's intervals, walked in start order */
	qsort(iv, niv, sizeof *iv, streamsum_cmp_iv);
	for (size_t i = 0; i < niv;) {
		int l = iv[i].lane;
		uint64_t reach = 0;

		for (; i < niv && iv[i].lane == l; i++) {
			uint64_t from = iv[i].start > reach ? iv[i].start : reach;

			if (iv[i].end > from)
				lane[l].busy += iv[i].end - from;
			if (iv[i].end > reach)
				reach = iv[i].end;
		}
	}
	for (int i = 0; i < nl; i++) {
		struct ss_streamsum_kind *k = &s->kind[lane[i].kind];
		int count = i < n ? 1 : ids[i - n].n;

		k->streams += count;
		s->streams += count;
		k->busy += lane[i].busy;
		k->records += lane[i].kernels + lane[i].copies + lane[i].memsets;
		if (have[i])
			lane[s->nlane++] = lane[i];
	}
	qsort(lane, (size_t)s->nlane, sizeof *lane, streamsum_cmp_lane);
	s->lane = lane;
	free(have);
	free(iv);
	free(ids[0].id);
	free(ids[1].id);
}

void streamsum_free(struct ss_streamsum *s)
{
	free(s->lane);
	memset(s, 0, sizeof *s);
}
