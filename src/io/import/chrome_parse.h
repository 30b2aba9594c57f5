/* chrome_parse.h: Chrome trace JSON read by yajl's SAX parser (callbacks, no DOM) into compact interval events.
 *
 * A parser reads either a whole document ({"traceEvents": [...], ...} or a bare array of events) fed in pieces in
 * order, or one slice of an events array (a run of whole events, each followed by a ','), for parsing slices of a
 * big file on several threads. It checks the structure the way Chrome does and reports the first problem as one
 * line naming the file (truncated, invalid JSON at byte N, not a Chrome trace, absurd numbers, ...). M events are
 * handed over only when their args carry an entry of streamscope's stream or device table; a kernel's launch, as an
 * event of its own right after the kernel's X event. What needs the events in file order (B/E stacks, track
 * numbering, the timeline's string table and launch table) is left to the caller: events are handed to it one by
 * one as they end, or collected for it. */
#ifndef SS_IO_IMPORT_CHROME_PARSE_H
#define SS_IO_IMPORT_CHROME_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/timeline.h"

/* Timestamps are held as CHROME_BIAS + ns until the end, so foreign traces may have negative ones. */
#define CHROME_BIAS (1ull << 62)
/* Containers nested deeper than this are refused (yajl itself has no limit). */
#define CHROME_MAX_DEPTH 64

/* An entry of the stream or device table as streamscope's export writes it in an M event's args (chrome_parse
 * checks the ranges): a stream's (args ss_stream_kind) or a device's (args ss_device). */
struct chrome_meta {
	bool is_device;
	int index; /* the stream index, 0..SS_IMPORT_MAX_STREAMS-1, or the device, 0..SS_TIMELINE_MAX_DEVICES-1 */
	uint32_t raw_stream; /* stream: its raw id */
	uint8_t kind;        /* stream: enum ss_stream_kind (a name not known reads as unknown) */
	uint8_t device;      /* stream: its device (0 when not said) */
	uint32_t name, uuid; /* device: parser-local ids of its name and uuid (chrome_parse_string; 0: not said) */
	int copy_engines;    /* device: 0 when not said */
	uint32_t context;    /* device: 0 when not said */
};

/* A kernel's launch as its X event's args carry it (chrome_parse checks the ranges). It belongs to the kernel record
 * of the X event handed over right before it, keyed by that record's correlation and raw stream once its track is
 * numbered. */
struct chrome_launch {
	uint32_t grid[3], block[3];                    /* each 1..2^32-1 */
	uint32_t registers, static_smem, dynamic_smem; /* known with SS_LAUNCH_ATTRS, else 0 */
	uint32_t flags;                                /* SS_LAUNCH_* */
	uint32_t full_name;                            /* parser-local id (chrome_parse_name); 0: none */
};

/* a launch takes no room of its own in an event: a slice's collected events stay the size they were */
_Static_assert(sizeof(struct chrome_launch) <= sizeof(struct ss_record), "struct chrome_launch fits the union");

/* One X, B or E event as read, before the order-dependent work, an M event that carries a table entry, or the
 * launch of the kernel whose X event came just before. */
struct chrome_ev {
	union {
		struct ss_record r;     /* X: start and end; B: start; E: start is its time. name: a parser-local id */
		struct chrome_meta m;   /* M */
		struct chrome_launch l; /* L */
	};
	uint64_t track;   /* foreign GPU-side X or B: key of its (pid, tid) or (pid, args.stream) track */
	uint64_t stack;   /* B and E: key of the (pid, tid) stack that B/E pairs nest on */
	uint32_t ordinal; /* its number among the events this parser read (1 = the first) */
	char ph;          /* 'X', 'B', 'E', 'M' or 'L' (a launch) */
	bool gpu;         /* foreign GPU-side: stream SS_STREAM_PENDING, raw_stream to be its track's ordinal */
};

/* What the top-level "otherData" (or "metadata") object said. */
struct chrome_other {
	bool own; /* its generator is streamscope */
	bool modelled, incomplete;
	int nstreams; /* 0 when not given */
	uint64_t dropped;
	uint64_t wall_traced_ns, wall_untraced_ns; /* record --twin's times, 0 when absent */
	char device[96];
	bool has_stream_ids, stream_ids; /* streamIds: given, and its value */
	bool has_device0;                /* it describes device 0 (deviceName: a trace of one device) */
	struct ss_device_info device0;   /* what it says of device 0: name, uuid, copy engines, context */
};

struct chrome_parse;

/* chrome_parse_emit_fn takes one event in file order; returns 0, or -1 with *cause (one line naming the file). */
typedef int chrome_parse_emit_fn(void *arg, struct chrome_parse *p, const struct chrome_ev *ev, char **cause);

/* chrome_parse_new makes a parser over the len bytes at buf (the whole file, kept by the caller; name labels
 * messages). slice: it reads one slice of the events array (chrome_parse_slice), else a whole document
 * (chrome_parse_feed, chrome_parse_finish). emit: called for each event as it ends; NULL collects them. */
struct chrome_parse *chrome_parse_new(const char *buf, size_t len, const char *name, bool slice,
                                      chrome_parse_emit_fn *emit, void *arg);
void chrome_parse_free(struct chrome_parse *p);
/* chrome_parse_feed reads bytes [from, to) of a document; the pieces fed follow each other, or skip only over
 * slices read by other parsers, from a point where chrome_parse_clean was true to one where it is again.
 * 0, or -1 with the problem in chrome_parse_cause. */
int chrome_parse_feed(struct chrome_parse *p, size_t from, size_t to);
/* chrome_parse_finish ends a document after its last byte: 0, or -1 (truncated, ...). */
int chrome_parse_finish(struct chrome_parse *p);
/* chrome_parse_slice reads bytes [from, to) as a run of events, as if after a ',' in the events array. 0 when they
 * parsed and the slice ended right after a ',' between events (so the next slice may start at to), else -1. Its
 * yajl parser is freed: what is left is the events and their names. */
int chrome_parse_slice(struct chrome_parse *p, size_t from, size_t to);
/* chrome_parse_clean says whether a document parser that has read up to at stands in the events array right
 * after the ',' that ends an event, with only blanks since: the point a slice may be skipped from. */
bool chrome_parse_clean(const struct chrome_parse *p, size_t at);
/* chrome_parse_events is the number of events started so far (the current one's number while it is read);
 * chrome_parse_skip_events adds n events read by a slice parser in its place. */
size_t chrome_parse_events(const struct chrome_parse *p);
void chrome_parse_skip_events(struct chrome_parse *p, size_t n);
/* chrome_parse_collected returns the events a parser with no emit function collected, *n of them. */
const struct chrome_ev *chrome_parse_collected(const struct chrome_parse *p, size_t *n);
/* chrome_parse_name maps a parser-local name id to t's string table (interning on first use; 0 stays 0). */
uint32_t chrome_parse_name(struct chrome_parse *p, uint32_t local, struct ss_timeline *t);
/* chrome_parse_string returns the string of a parser-local id (a chrome_meta's name or uuid), "" for 0 or out of
 * range; valid until the parser is freed. */
const char *chrome_parse_string(const struct chrome_parse *p, uint32_t local);
/* chrome_parse_other returns what otherData said (all zero when the document had none). */
const struct chrome_other *chrome_parse_other(const struct chrome_parse *p);
/* chrome_parse_cause hands over the one-line message of the last failure (the caller frees it), or NULL. */
char *chrome_parse_cause(struct chrome_parse *p);

#endif
