/* inject_streams.h: the stream table of one recorded process: which CUPTI stream id is the legacy default stream,
 * which are per-thread default streams, and the index and kind (INJECT_STREAM_*) of every other stream in the
 * order it was first seen (by its creation call, its STREAM record or its first GPU record, whichever comes
 * first). Pure C (no CUPTI): unit-tested without a GPU. The table has no size limit; it reaches the parent one
 * index at a time (inject_streams_drain -> WIRE_STREAM frames). */
#ifndef SS_RECORD_INJECT_STREAMS_H
#define SS_RECORD_INJECT_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The CUPTI stream id of records that name no one stream (cudaDeviceSynchronize). */
#define INJECT_STREAM_NONE UINT32_MAX

/* The table. ids[i] is the CUPTI id of stream index i, kinds[i] its INJECT_STREAM_* letter. */
struct inject_streams {
	uint32_t *ids;
	char *kinds;
	char *sent; /* [i]: the kind last drained for index i, '\0' before its first drain */
	int n;
	size_t ids_cap, kinds_cap, sent_cap;
	uint32_t *per_thread; /* ids of per-thread default streams */
	int npt;
	size_t ptcap;
	bool have_null;
	uint32_t null_id; /* the legacy default stream of the first context */
	bool dirty;       /* changed since inject_streams_drain last ran */
};

void inject_streams_init(struct inject_streams *s);
void inject_streams_free(struct inject_streams *s);
/* inject_streams_null notes the legacy default stream of a context: the first one becomes the SS_STREAM_LEGACY
 * id, a further context's gets an index of kind INJECT_STREAM_LEGACY, and so does one that already has an index
 * (its work arrived first: the records sent keep that index). */
void inject_streams_null(struct inject_streams *s, uint32_t id);
/* inject_streams_per_thread notes a per-thread default stream id. An id that already has an index keeps it (the
 * records sent so far used it) and its kind becomes INJECT_STREAM_PER_THREAD. */
void inject_streams_per_thread(struct inject_streams *s, uint32_t id);
/* inject_streams_created notes a CUPTI STREAM record: flag is CUpti_ActivityStreamFlag (1 default/blocking,
 * 2 non-blocking, 3 NULL stream, other: unknown). */
void inject_streams_created(struct inject_streams *s, uint32_t id, unsigned flag);
/* inject_streams_see returns the index of a stream id met in a GPU record, adding it (INJECT_STREAM_UNKNOWN)
 * when new; -1 for the legacy, per-thread and INJECT_STREAM_NONE ids, which have no index. */
int inject_streams_see(struct inject_streams *s, uint32_t id);
/* inject_streams_skind is the enum ss_stream_kind of an INJECT_STREAM_* letter (SS_SKIND_UNKNOWN for '?' and
 * anything else). */
int inject_streams_skind(char letter);
/* The receiver of inject_streams_drain: one index, its CUPTI id and its enum ss_stream_kind. */
typedef void inject_streams_emit_fn(void *arg, int index, uint32_t id, int skind);
/* inject_streams_drain calls emit for every index that is new or whose kind changed since the last drain (with
 * all: for every index), in index order, then clears dirty. */
void inject_streams_drain(struct inject_streams *s, bool all, inject_streams_emit_fn *emit, void *arg);

#endif
