/* track.c: sorted interval tracks with a block index for busy-time queries. */
#include "tui/track.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/xalloc.h"

void track_init(struct ss_track *t)
{
	memset(t, 0, sizeof *t);
}

void track_free(struct ss_track *t)
{
	free(t->idx);
	free(t->bstart);
	free(t->blk);
	track_init(t);
}

void track_add(struct ss_track *t, uint32_t i)
{
	*VEC_PUSH(t->idx, t->n, t->cap, 64) = i;
}

bool track_before(const struct ss_record *rec, uint32_t a, uint32_t b)
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
	free(t->bstart);
	t->nblk = (t->n + TRACK_BLOCK - 1) / TRACK_BLOCK;
	t->blk = t->nblk > 0 ? xcalloc(t->nblk, sizeof *t->blk) : NULL;
	t->bstart = t->nblk > 0 ? xreallocarray(NULL, t->nblk, sizeof *t->bstart) : NULL;
	t->first = t->n > 0 ? rec[t->idx[0]].start : 0;
	t->last = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &rec[t->idx[i]];
		struct ss_track_block *b = &t->blk[i / TRACK_BLOCK];
		uint64_t base;

		if (i % TRACK_BLOCK == 0) {
			t->bstart[i / TRACK_BLOCK] = r->start;
			b->cum = cum;
			b->maxend = maxend;
		}
		base = t->bstart[i / TRACK_BLOCK];
		if (r->end - base >= UINT32_MAX)
			b->wide = 1;
		else {
			b->s[i % TRACK_BLOCK] = (uint32_t)(r->start - base);
			b->e[i % TRACK_BLOCK] = (uint32_t)(r->end - base);
		}
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
	const struct ss_track_block *k = &t->blk[b];
	size_t n = (b + 1) * TRACK_BLOCK < t->n ? TRACK_BLOCK : t->n - b * TRACK_BLOCK;
	double base = (double)t->bstart[b], xr = x - base, cum = (double)k->cum, me = (double)k->maxend - base;

	for (size_t i = 0; i < n; i++) {
		double s, e;

		if (k->wide) {
			const struct ss_record *r = &rec[t->idx[b * TRACK_BLOCK + i]];

			s = (double)r->start - base;
			e = (double)r->end - base;
		} else {
			s = k->s[i];
			e = k->e[i];
		}
		if (s >= xr)
			break;
		if (e > me) {
			cum += e - (s > me ? s : me);
			me = e;
		}
	}
	/* Every interval counted starts before x; the one reaching me covers [x, me) when me > x. */
	return me > xr ? cum - (me - xr) : cum;
}

/* track_block finds the last block whose first start is before x (bstart[0] < x must hold), galloping forward
 * from the block hint (0 or out of range: from the start) and then bisecting the bracket. Panning frames ask for
 * nearby positions in order, so the gallop from the previous answer is usually one or two steps. */
static size_t track_block(const struct ss_track *t, size_t hint, double x)
{
	size_t lo, hi, step = 1;

	if (hint >= t->nblk || (double)t->bstart[hint] >= x)
		hint = 0;
	lo = hint;
	hi = hint + 1;
	while (hi < t->nblk && (double)t->bstart[hi] < x) {
		lo = hi;
		hi = lo + step;
		step *= 2;
	}
	if (hi > t->nblk)
		hi = t->nblk;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if ((double)t->bstart[mid] < x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

double track_busy(const struct ss_track *t, const struct ss_record *rec, double x)
{
	if (t->n == 0 || (double)t->bstart[0] >= x)
		return 0;
	if ((double)t->last <= x)
		return (double)t->busy;
	return track_busy_in(t, rec, track_block(t, 0, x), x);
}

double track_busy_at(const struct ss_track *t, const struct ss_record *rec, struct ss_track_cursor *c, double x)
{
	if (t->n == 0 || (double)t->bstart[0] >= x)
		return 0;
	if ((double)t->last <= x)
		return (double)t->busy;
	c->blk = track_block(t, c->blk, x);
	return track_busy_in(t, rec, c->blk, x);
}

void track_busy_many(const struct ss_track *t, const struct ss_record *rec, const double *xs, int n, double *out)
{
	struct ss_track_cursor c = {0};
	size_t *blk;
	size_t stack[512];

	if (t->n == 0) {
		for (int i = 0; i < n; i++)
			out[i] = 0;
		return;
	}
	blk = n <= 512 ? stack : xreallocarray(NULL, (size_t)n, sizeof *blk);
	/* pass 1: the block of each position (SIZE_MAX: before the first start or after the last end) */
	for (int i = 0; i < n; i++) {
		double x = xs[i];
		size_t lo;

		if ((double)t->bstart[0] >= x || (double)t->last <= x) {
			blk[i] = SIZE_MAX;
			continue;
		}
		lo = track_block(t, c.blk, x);
		c.blk = lo;
		blk[i] = lo;
		__builtin_prefetch(&t->blk[lo]);
		__builtin_prefetch((const char *)&t->blk[lo] + 64);
		__builtin_prefetch((const char *)&t->blk[lo] + 128);
	}
	/* pass 2: the answers */
	for (int i = 0; i < n; i++) {
		if (blk[i] != SIZE_MAX)
			out[i] = track_busy_in(t, rec, blk[i], xs[i]);
		else
			out[i] = (double)t->bstart[0] >= xs[i] ? 0 : (double)t->busy;
	}
	if (blk != stack)
		free(blk);
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
	return t->cap * sizeof *t->idx + t->nblk * (sizeof *t->blk + sizeof *t->bstart);
}
