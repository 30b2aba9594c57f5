/* streamsum.h: the streams of a recorded timeline in a few rows, for record's end-of-record summary: one row per
 * stream kind (streams, busy time, GPU records) and the streams ranked by busy time, so that the summary stays a
 * short table whatever the number of streams. Pure: no printing. */
#ifndef SS_CORE_STREAMSUM_H
#define SS_CORE_STREAMSUM_H

#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "core/timeline.h"

/* One lane with GPU work: a stream index, or the legacy / per-thread default stream lane. */
struct ss_streamsum_stream {
	int32_t stream;  /* index 0..nstreams-1, SS_STREAM_LEGACY or SS_STREAM_PER_THREAD */
	uint32_t raw_id; /* the CUPTI id of its first GPU record */
	int kind;        /* enum ss_stream_kind */
	uint64_t busy;   /* ns covered by its GPU records (their union: overlaps count once) */
	size_t kernels, copies, memsets;
};

/* The streams of one kind together. */
struct ss_streamsum_kind {
	int streams;    /* streams of the kind; the default stream lanes count their distinct CUPTI ids */
	uint64_t busy;  /* sum of their busy times */
	size_t records; /* their GPU records */
};

/* The whole summary. */
struct ss_streamsum {
	struct ss_streamsum_kind kind[SS_SKIND_COUNT]; /* [enum ss_stream_kind] */
	struct ss_streamsum_stream *lane; /* every lane with GPU work, busiest first (ties: timeline order) */
	int nlane;
	int streams; /* all streams counted in kind[] */
};

/* streamsum_build summarises t's GPU records by stream: indices 0..t->nstreams-1 take their kind from
 * timeline_stream (none: SS_SKIND_UNKNOWN; indices without GPU work are counted in kind[] too), records on
 * SS_STREAM_LEGACY and SS_STREAM_PER_THREAD are one lane each, of kind legacy and per-thread. The busy time is
 * exact for records in any order. s is overwritten; release it with streamsum_free. */
void streamsum_build(const struct ss_timeline *t, struct ss_streamsum *s);
void streamsum_free(struct ss_streamsum *s);

#endif
