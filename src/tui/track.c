/* track.c: sorted interval tracks with a block index for busy-time queries. */
#include "track.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void track_init(struct ss_track *t)
{
	memset(t, 0, sizeof *t);
}

void track_free(struct ss_track *t)
{
	free(t->idx);
	free(t->blk);
	track_init(t);
}

void track_add(struct ss_track *t, uint32_t i)
{
	if (t->n == t->cap) {
		t->cap = t->cap == 0 ? 64 : t->cap * 2;
		t->idx = xreallocarray(t->idx, t->cap, sizeof *t->idx);
	}
	t->idx[t->n++] = i;
}

/* track_before orders records a and b (indices) by (start, end, index). */
static bool track_before(const struct ss_record *rec, uint32_t a, uint32_t b)
{
	if (rec[a].start != rec[b].start)
		return rec[a].start < rec[b].start;
	if (rec[a].end != rec[b].end)
		return rec[a].end < rec[b].end;
	return a < b;
}

static int track_cmp(const void *pa, const void *pb, void *ctx)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	if (a == b)
		return 0;
	return track_before(ctx, a, b) ? -1 : 1;
}

void track_finish(struct ss_track *t, const struct ss_record *rec)
{
	bool sorted = true;
	uint64_t cum = 0, maxend = 0;

	for (size_t i = 1; i < t->n && sorted; i++)
		sorted = track_before(rec, t->idx[i - 1], t->idx[i]);
	if (!sorted)
		qsort_r(t->idx, t->n, sizeof *t->idx, track_cmp, (void *)rec);
	if (t->n < t->cap) {
		t->cap = t->n > 0 ? t->n : 1;
		t->idx = xreallocarray(t->idx, t->cap, sizeof *t->idx);
	}
	free(t->blk);
	t->nblk = (t->n + TRACK_BLOCK - 1) / TRACK_BLOCK;
	t->blk = t->nblk > 0 ? xreallocarray(NULL, t->nblk, sizeof *t->blk) : NULL;
	t->first = t->n > 0 ? rec[t->idx[0]].start : 0;
	t->last = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &rec[t->idx[i]];

		if (i % TRACK_BLOCK == 0)
			t->blk[i / TRACK_BLOCK] = (struct ss_track_block){r->start, cum, maxend};
		if (r->end > maxend) {
			cum += r->end - (r->start > maxend ? r->start : maxend);
			maxend = r->end;
		}
	}
	t->busy = cum;
	t->last = maxend;
}

/* track_busy_in finishes a busy query inside block b, whose first interval starts before x. */
static double track_busy_in(const struct ss_track *t, const struct ss_record *rec, size_t b, double x)
{
	uint64_t cum = t->blk[b].cum, me = t->blk[b].maxend;
	size_t end = (b + 1) * TRACK_BLOCK < t->n ? (b + 1) * TRACK_BLOCK : t->n;

	for (size_t i = b * TRACK_BLOCK; i < end; i++) {
		const struct ss_record *r = &rec[t->idx[i]];

		if ((double)r->start >= x)
			break;
		if (r->end > me) {
			cum += r->end - (r->start > me ? r->start : me);
			me = r->end;
		}
	}
	/* Every interval counted starts before x; the one reaching me covers [x, me) when me > x. */
	return (double)me > x ? (double)cum - ((double)me - x) : (double)cum;
}

double track_busy(const struct ss_track *t, const struct ss_record *rec, double x)
{
	size_t lo = 0, hi = t->nblk;

	if (t->n == 0 || (double)t->blk[0].start >= x)
		return 0;
	if ((double)t->last <= x)
		return (double)t->busy;
	/* the last block whose first start is before x */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)t->blk[mid].start < x)
			lo = mid;
		else
			hi = mid;
	}
	return track_busy_in(t, rec, lo, x);
}

double track_busy_at(const struct ss_track *t, const struct ss_record *rec, struct ss_track_cursor *c, double x)
{
	size_t b = c->blk, step = 1, lo, hi;

	if (t->n == 0 || (double)t->blk[0].start >= x)
		return 0;
	if ((double)t->last <= x)
		return (double)t->busy;
	if (b >= t->nblk || (double)t->blk[b].start >= x)
		b = 0;
	/* gallop forward from the last block, then bisect the bracket */
	lo = b;
	hi = b + 1;
	while (hi < t->nblk && (double)t->blk[hi].start < x) {
		lo = hi;
		hi = lo + step;
		step *= 2;
	}
	if (hi > t->nblk)
		hi = t->nblk;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)t->blk[mid].start < x)
			lo = mid;
		else
			hi = mid;
	}
	c->blk = lo;
	return track_busy_in(t, rec, lo, x);
}

size_t track_rank(const struct ss_track *t, const struct ss_record *rec, uint32_t r, bool inclusive)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((inclusive && t->idx[mid] == r) || track_before(rec, t->idx[mid], r))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t track_lower_start(const struct ss_track *t, const struct ss_record *rec, double x)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)rec[t->idx[mid]].start < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t track_pick(const struct ss_track *t, const struct ss_record *rec, double a, double b)
{
	uint32_t best = UINT32_MAX;
	double best_ov = 0;
	size_t i = track_lower_start(t, rec, b); /* intervals from i on start at or after b */
	int budget = 4096;

	while (i > 0 && budget-- > 0) {
		const struct ss_record *r;
		double s, e, ov;

		i--;
		r = &rec[t->idx[i]];
		s = (double)r->start > a ? (double)r->start : a;
		e = (double)r->end < b ? (double)r->end : b;
		ov = e - s;
		if ((double)r->end > a && (ov > best_ov || best == UINT32_MAX)) {
			best = t->idx[i];
			best_ov = ov;
		}
		/* nothing before block i / TRACK_BLOCK reaches a: stop at its first interval */
		if (i % TRACK_BLOCK == 0 && (double)t->blk[i / TRACK_BLOCK].maxend <= a)
			break;
	}
	return best;
}

size_t track_bytes(const struct ss_track *t)
{
	return t->cap * sizeof *t->idx + t->nblk * sizeof *t->blk;
}
