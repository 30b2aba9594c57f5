/* track.h: the intervals of one kind on one lane, sorted by start and indexed so that the busy time before any
 * instant costs a binary search plus one block scan: frames never walk every interval. */
#ifndef SS_TUI_TRACK_H
#define SS_TUI_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"

/* Intervals per block of the index; a query scans at most one block. */
#define TRACK_BLOCK 16

/* One block of a track: what is known about the intervals before it (enough to resume their union) and the
 * block's own intervals as offsets from its first start, so that a query reads this block and nothing else. */
struct ss_track_block {
	uint64_t cum;            /* length of the union of every interval before the block */
	uint64_t maxend;         /* latest end among the intervals before the block (0 when none) */
	uint32_t s[TRACK_BLOCK]; /* starts, ns after the block's first start */
	uint32_t e[TRACK_BLOCK]; /* ends, likewise */
	uint32_t wide;           /* an offset did not fit 32 bits: read the records instead */
	uint32_t pad;
};

/* One sorted track. It holds record indices, not records: the timeline's array is passed to every query, so it
 * may move (grow) as long as the indexed records keep their positions. Cost per interval: 4 bytes of index, 0.5
 * of block starts and 9.5 of blocks (152 / 16): 14 bytes. */
struct ss_track {
	uint32_t *idx; /* record indices sorted by (start, end, index) */
	size_t n, cap;
	uint64_t *bstart;           /* first start of each block: searched without touching the blocks */
	struct ss_track_block *blk; /* one per TRACK_BLOCK indices */
	size_t nblk;
	uint64_t busy;        /* length of the union of all intervals */
	uint64_t first, last; /* earliest start, latest end (valid when n > 0) */
};

/* A cursor for increasing queries on one track (track_busy_at): remembers the block of the last answer. */
struct ss_track_cursor {
	size_t blk;
};

void track_init(struct ss_track *t);
void track_free(struct ss_track *t);
/* track_add appends record index i (unsorted until track_finish). */
void track_add(struct ss_track *t, uint32_t i);
/* track_before says whether record index a comes before b in a track's order: by (start, end, index). */
bool track_before(const struct ss_record *rec, uint32_t a, uint32_t b);
/* track_finish sorts the indices by the records' (start, end, index) and builds the block index. */
void track_finish(struct ss_track *t, const struct ss_record *rec);
/* track_busy is the length of the union of the track's intervals that lies before x (ns). */
double track_busy(const struct ss_track *t, const struct ss_record *rec, double x);
/* track_busy_at is track_busy for queries in increasing x through a cursor (zeroed before the first): amortised
 * O(log of the blocks skipped) per call. */
double track_busy_at(const struct ss_track *t, const struct ss_record *rec, struct ss_track_cursor *c, double x);
/* track_busy_many is track_busy at n increasing positions xs into out. It first finds every block (the block
 * starts are small and cached), prefetches them all, then reads each once: the loads overlap instead of waiting
 * one after the other, which is what keeps a frame of a million intervals near the cost of a small one. */
void track_busy_many(const struct ss_track *t, const struct ss_record *rec, const double *xs, int n, double *out);
/* track_rank returns the number of intervals whose (start, end, index) key is below that of record r (inclusive:
 * at or below). r need not be in the track. */
size_t track_rank(const struct ss_track *t, const struct ss_record *rec, uint32_t r, bool inclusive);
/* track_lower_start returns the position of the first interval starting at or after x. */
size_t track_lower_start(const struct ss_track *t, const struct ss_record *rec, double x);
/* track_pick returns the record index of the interval overlapping [a, b) the most (ties: the later start), or
 * UINT32_MAX when none overlaps. */
uint32_t track_pick(const struct ss_track *t, const struct ss_record *rec, double a, double b);
/* track_bytes is the heap memory the track uses. */
size_t track_bytes(const struct ss_track *t);

#endif
