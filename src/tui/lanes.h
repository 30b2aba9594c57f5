/* lanes.h: the Gantt's rows for one timeline: a track per (stream, kind) and the lanes that draw them, in the
 * expanded form (H2D / KER / D2H per stream) and the compact one (one row per stream). */
#ifndef SS_TUI_LANES_H
#define SS_TUI_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/timeline.h"
#include "tui/track.h"

/* What one lane shows. */
enum ss_lane_kind {
	LANE_HOST = 0, /* API calls and sync waits of the host */
	LANE_H2D,      /* a stream's host-to-device copies */
	LANE_KER,      /* a stream's kernels (and memsets, device copies) */
	LANE_D2H,      /* a stream's device-to-host copies */
	LANE_STREAM,   /* compact: everything of one stream */
	LANE_NVTX,     /* one host thread's NVTX ranges (nested ones overlap: the outermost covers them) */
	LANE_DEVICE,   /* a device's header row (timelines of two or more devices): no tracks */
	LANE_KIND_COUNT
};

#define LANE_MAX_TRACKS 6

/* One row of the Gantt: tracks drawn together; a cell takes the role of the track covering most of it. */
struct ss_lane {
	int32_t stream; /* SS_STREAM_HOST, a stream index or another SS_STREAM_* */
	uint8_t kind;   /* enum ss_lane_kind */
	uint8_t ntracks;
	bool first; /* first lane of its stream's group: the label names the stream */
	const struct ss_track *track[LANE_MAX_TRACKS]; /* in rising priority: a later one wins a tie */
	uint8_t role[LANE_MAX_TRACKS];                 /* role each track draws with (enum ss_role) */
	bool overlap;    /* the tracks overlap each other (host: a wait inside its API call):
	                    a cell is as busy as its busiest track, not their sum */
	uint8_t skind;   /* the stream's enum ss_stream_kind (stream lanes) */
	bool wide;       /* a stream of the timeline has a kind, or streams go by id: names take 6 columns ("s0 nb ") */
	uint32_t thread; /* LANE_NVTX, and LANE_HOST when host_thread: the OS thread id */
	bool by_id;      /* a stream of a program's own (timeline stream_ids): named by raw_id ("Stream 13", "13 nb") */
	uint32_t raw_id; /* by_id: the stream's raw id */
	bool host_thread; /* LANE_HOST of one OS thread ("host t812"): the timeline has calls from several */
	bool host_rest;   /* LANE_HOST of the threads past those with a lane of their own ("host rest") */
	uint8_t device;   /* the device of a GPU lane or LANE_DEVICE header (0 on one-device timelines) */
	bool peer;        /* the device's far ends of other devices' peer copies ("peer") */
};

/* The index of one timeline. The timeline must outlive it; its records may be appended to (the index covers
 * the first `indexed` of them until rebuilt). */
struct ss_lanes {
	const struct ss_timeline *tl;
	size_t indexed; /* records covered */
	int ngroups; /* 4 special groups (host, legacy, per-thread, unknown) + streams + NVTX threads + host threads */
	int nstream_groups; /* stream groups (group LANES_GROUP_STREAM + s) */
	uint32_t *nvtx_tid; /* threads with NVTX ranges, rising: group LANES_GROUP_STREAM + nstream_groups + k */
	int nnvtx;
	uint32_t *host_tid;  /* threads of the host's calls when two or more, rising: group after the NVTX ones + k */
	int nhost;           /* 0: one host lane for every call */
	bool wide;           /* some stream has a known kind: stream names take 6 columns */
	int ndev;            /* devices with lanes: 1, or the timeline's devices (at most LANES_MAX_DEVICES) */
	uint8_t *stream_dev; /* [stream group]: the device of the stream's first GPU record (ndev > 1) */
	struct ss_track *tracks; /* ngroups * SS_KIND_COUNT */
	struct ss_lane *lane[2]; /* [0] expanded, [1] compact */
	int nlane[2];
	bool have_span;
	uint64_t t0, t1; /* earliest start and latest end over the indexed records */
	bool have_gpu_span;
	uint64_t gpu_t0, gpu_t1; /* the same over the GPU's records (copies, memsets, kernels): the work */
	size_t bytes;            /* heap memory of the index */
};

void lanes_init(struct ss_lanes *l);
void lanes_free(struct ss_lanes *l);
/* Devices that get lane groups of their own; records of later devices sit with the last one's. */
#define LANES_MAX_DEVICES 16

/* lanes_build (re)indexes every record of tl. Streams 0..nstreams-1 get rows even while empty, so rows stay
 * put while a run streams in. On a timeline of two or more devices the GPU lanes are grouped device -> stream
 * under a LANE_DEVICE header each (a device's own legacy, per-thread and unknown streams with it), and a peer copy
 * also sits on a "peer" lane of its other device. O(n log n), or O(n) when tl is sorted. */
void lanes_build(struct ss_lanes *l, const struct ss_timeline *tl);
/* lanes_get returns the lanes of one form (compact false: expanded) and their count. */
const struct ss_lane *lanes_get(const struct ss_lanes *l, bool compact, int *n);
/* lanes_label writes a lane's label ("host", "s3   H2D", "     KER", "legacy", "s3", "NVTX t812"; with stream
 * kinds "s3 nb  H2D", "s3 blk" ...; streams by id "13 nb  H2D", "Stream 13"; host threads "host t812",
 * "host ~4567", "host rest") into buf, for a label column of cols columns besides its separator (from
 * LAYOUT_LABEL_COLS - 1). A stream's kind tag is written whole where it fits those columns ("s12 blk  H2D" in 12,
 * "s12 blk" in 10), else by its first letter ("s12 b  H2D" in 10); on a wider column the name field of every engine
 * lane widens with it, so that the engines stay aligned. */
void lanes_label(const struct ss_lane *ln, int cols, char *buf, size_t len);
/* lanes_label_cols is the label column (separator included) that shows every label of one form of l whole (compact
 * true: the compact one): LAYOUT_LABEL_COLS, or more where a stream's name and kind tag ask for it. */
int lanes_label_cols(const struct ss_lanes *l, bool compact);
/* lanes_find returns the lane (index in the form) that holds record r, -1 when none. */
int lanes_find(const struct ss_lanes *l, bool compact, uint32_t r);
/* lanes_step returns the record after (dir > 0) or before (dir < 0) record r on lane ln in (start, end, index)
 * order, the first/last one when r is UINT32_MAX, and UINT32_MAX when there is none. */
uint32_t lanes_step(const struct ss_lanes *l, const struct ss_lane *ln, uint32_t r, int dir);
/* lanes_near returns the record of lane ln whose interval is nearest to time x (0 distance inside), or
 * UINT32_MAX for an empty lane. */
uint32_t lanes_near(const struct ss_lanes *l, const struct ss_lane *ln, double x);
/* lanes_role returns the role record r is drawn with (its kind's; the legacy stream's work in its own role). */
int lanes_role(const struct ss_record *r);
/* lanes_api_of returns the index of the host API record with r's correlation id, UINT32_MAX when none. */
uint32_t lanes_api_of(const struct ss_lanes *l, uint32_t r);

#endif
