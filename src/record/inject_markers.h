/* inject_markers.h: pairs the two halves CUPTI delivers for each NVTX range (a START record with the name, an END
 * record with the same id) into one SS_KIND_MARKER interval on the host lane of the thread that opened it. The
 * halves may arrive in either order (a start/end range can end on another thread, in another buffer). Pure C. */
#ifndef SS_RECORD_INJECT_MARKERS_H
#define SS_RECORD_INJECT_MARKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"

/* One half-seen range. */
struct inject_marker {
	uint32_t id;
	bool have_start, have_end;
	uint64_t start, end;
	uint32_t thread; /* OS thread id of the START record (0 until it arrives) */
	char *name;      /* from the START record */
};

/* The ranges still waiting for their other half. */
struct inject_markers {
	struct inject_marker *v;
	size_t n, cap;
	size_t orphans; /* END halves that never found their START (ranges opened before recording began) */
};

/* What a complete range hands back: the record and its name (owned by the caller after the call). */
struct inject_marker_out {
	struct ss_record rec;
	char *name;
};

void inject_markers_init(struct inject_markers *m);
void inject_markers_free(struct inject_markers *m);
/* inject_markers_start notes the opening half. Returns true and fills *out when the END half was already there. */
bool inject_markers_start(struct inject_markers *m, uint32_t id, uint64_t t, uint32_t thread, const char *name,
                          struct inject_marker_out *out);
/* inject_markers_end notes the closing half. Returns true and fills *out when the START half was already there. */
bool inject_markers_end(struct inject_markers *m, uint32_t id, uint64_t t, struct inject_marker_out *out);
/* inject_markers_instant makes the zero-length record of an nvtxMark. */
void inject_markers_instant(uint32_t id, uint64_t t, uint32_t thread, const char *name, struct inject_marker_out *out);
/* inject_markers_close ends every range still open at time t (name suffixed " (open at exit)") one per call:
 * returns true with *out while there is one. END halves without a START are counted as orphans and dropped. */
bool inject_markers_close(struct inject_markers *m, uint64_t t, struct inject_marker_out *out);

#endif
