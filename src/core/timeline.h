/* timeline.h: a growable array of records plus their interned names and the run's labels. */
#ifndef SS_CORE_TIMELINE_H
#define SS_CORE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/intern.h"
#include "core/record.h"

/* What a timeline knows of one stream index: 8 bytes per stream, nothing per record. */
struct ss_stream_info {
	uint32_t raw_id; /* the backend's own id (CUPTI streamId); 0 when not known */
	uint8_t kind;    /* enum ss_stream_kind */
	uint8_t device;  /* the device the stream belongs to (timeline_set_stream_device), 0 when not known */
};

/* What a timeline knows of one GPU (a record's device): empty strings when not known. */
struct ss_device_info {
	char name[96];    /* "NVIDIA H200" */
	char uuid[48];    /* "GPU-xxxxxxxx-..." as nvidia-smi writes it */
	uint32_t context; /* the CUDA context its records came from (CUPTI contextId), 0 when not known */
	int copy_engines; /* its copy engines (asyncEngines, asyncEngineCount): 1 runs H2D and D2H one at a time; 0 not
	                     known */
	bool known;       /* set by timeline_set_device */
};

#define SS_TIMELINE_MAX_DEVICES 16 /* devices the table describes; records of others carry their index only */

/* A captured or modelled run, or an opened trace file. */
struct ss_timeline {
	struct ss_record *rec; /* records in arrival order until timeline_sort */
	size_t n, cap;
	/* the records' names (ss_record.name): ids stable for the timeline's life */
	struct intern names;
	int nstreams;     /* experiment streams 0..nstreams-1 (0 for foreign traces: derived by timeline_finish) */
	bool modelled;    /* true when produced by the model backend */
	bool incomplete;  /* capture ended early (crash, kill) */
	uint64_t dropped; /* records the capture reported lost */
	char backend[16]; /* "cuda", "model", "file" */
	char device[96];  /* device name, or "MODEL (H200 profile)" */
	char source[256]; /* file path for opened traces, "" otherwise */
	struct ss_stream_info *stream_info; /* [index], nstream_info entries (see timeline_set_stream) */
	int nstream_info;
	bool stream_ids; /* the streams are a program's own (recorded or imported traces): views name them by their
	                    raw id ("Stream 13"); false for experiments, whose streams are s0..s127 */
	struct ss_launch *launch; /* kernels' launch details, nlaunch entries (timeline_add_launch) */
	size_t nlaunch, launch_cap;
	bool launch_unsorted; /* launch is not in key order (lookups scan) until timeline_sort */
	/* `record --twin`: the recorded program's wall-clock time, traced and in its untraced twin run; 0 when not
	 * measured (both are set together) */
	uint64_t wall_traced_ns, wall_untraced_ns;
	struct ss_device_info devices[SS_TIMELINE_MAX_DEVICES]; /* [record device]; see timeline_set_device */
};

void timeline_init(struct ss_timeline *t);
void timeline_free(struct ss_timeline *t);
/* timeline_clear empties records, names, the stream and device tables but keeps labels and capacity. */
void timeline_clear(struct ss_timeline *t);
/* timeline_intern returns the id of s (adding it if new); NULL or "" give 0. */
uint32_t timeline_intern(struct ss_timeline *t, const char *s);
/* timeline_name returns the string of id, "" when out of range. */
const char *timeline_name(const struct ss_timeline *t, uint32_t id);
/* timeline_add appends a copy of r (aborts on out of memory) and returns it. */
struct ss_record *timeline_add(struct ss_timeline *t, const struct ss_record *r);
/* timeline_sort orders records by (start, end), and the launch table by its key (timeline_sort_launches). */
void timeline_sort(struct ss_timeline *t);
/* timeline_sort_launches orders the launch table by its key, when it is not in order: for a table filled out of
 * key order beside records that are in order. */
void timeline_sort_launches(struct ss_timeline *t);
/* timeline_span gives the earliest start and latest end over records matching kind_mask (bit per ss_kind);
 * returns false when none match. */
bool timeline_span(const struct ss_timeline *t, unsigned kind_mask, uint64_t *t0, uint64_t *t1);
/* timeline_work_span gives the span of the run's work in rec[0..n): its GPU intervals, widened to the calls of
 * pageable copies (API records whose correlation is a pageable copy's). Such a call stages the data through pinned
 * memory on the host: before the DMA starts (H2D) and after it ends (D2H, whose call returns when the data is in
 * place). That is work of the copy that CUPTI's copy record leaves out and the run's cudaEvent timer counts. It is
 * the makespan analysis reports. Returns false when rec has no GPU interval. */
bool timeline_work_span(const struct ss_record *rec, size_t n, uint64_t *t0, uint64_t *t1);
/* timeline_count counts records of one kind. */
size_t timeline_count(const struct ss_timeline *t, int kind);
/* timeline_rebase subtracts t0 from every timestamp (records before t0 are clamped to 0). */
void timeline_rebase(struct ss_timeline *t, uint64_t t0);
/* timeline_finish derives nstreams when it is 0 (max stream index + 1). */
void timeline_finish(struct ss_timeline *t);
/* timeline_set_stream labels stream index (0..SS_TIMELINE_MAX_STREAM_INFO-1, others ignored) with its raw id and
 * kind (enum ss_stream_kind; out of range = unknown), growing the table; indices in between stay unknown. */
void timeline_set_stream(struct ss_timeline *t, int index, uint32_t raw_id, int kind);
/* timeline_set_stream_device places stream index (as timeline_set_stream) on device, so that views group it there
 * before its first record. */
void timeline_set_stream_device(struct ss_timeline *t, int index, int device);
/* timeline_stream returns what is known of stream index, NULL when nothing (negative, unlabelled, out of range). */
const struct ss_stream_info *timeline_stream(const struct ss_timeline *t, int index);
/* timeline_stream_kind_name names a kind in words ("non-blocking"), timeline_stream_kind_tag in a short ASCII tag
 * ("nb", "blk", "leg", "ptd"; "" for unknown). */
const char *timeline_stream_kind_name(int kind);
const char *timeline_stream_kind_tag(int kind);
/* timeline_stream_label writes "s3", "legacy", "per-thread", "host" or "unknown" for a record's stream. */
const char *timeline_stream_label(int32_t stream, char *buf, size_t len);
/* timeline_stream_title is timeline_stream_label plus what t's stream table knows of it: "s3 non-blocking (id 14)". */
const char *timeline_stream_title(const struct ss_timeline *t, int32_t stream, char *buf, size_t len);
/* timeline_sync_threads gives SYNC records that carry no thread (0: CUPTI's and nsys's carry none) the OS thread
 * of the API call they belong to (the one of the same correlation id), so that they sit on that thread's lane. */
void timeline_sync_threads(struct ss_timeline *t);
/* timeline_add_launch records the launch details of the kernel keyed by l->correlation and l->raw_stream
 * (aborts on out of memory); of entries with the same key, lookups find one. */
void timeline_add_launch(struct ss_timeline *t, const struct ss_launch *l);
/* timeline_launch returns the launch details of kernel record r, NULL when the timeline has none for it (r not a
 * kernel, or its trace did not say). O(log n) once sorted (timeline_sort), O(n) before. */
const struct ss_launch *timeline_launch(const struct ss_timeline *t, const struct ss_record *r);
/* timeline_set_device describes device index (0..SS_TIMELINE_MAX_DEVICES-1, others ignored): name, uuid (NULL
 * keeps what is there) and context (0 keeps it). */
void timeline_set_device(struct ss_timeline *t, int index, const char *name, const char *uuid, uint32_t context);
/* timeline_set_copy_engines records that device index (described or not) has n copy engines (n >= 1). */
void timeline_set_copy_engines(struct ss_timeline *t, int index, int n);
/* timeline_device returns what is known of device index, NULL when nothing. */
const struct ss_device_info *timeline_device(const struct ss_timeline *t, int index);
/* timeline_ndevices is the number of devices the timeline spans: 1 + the highest device of its records (peer ends
 * included) or of its device table, at least 1. */
int timeline_ndevices(const struct ss_timeline *t);
/* timeline_device_title writes "GPU 1: NVIDIA H200 (GPU-8c3...)" for device index: its name from the table, else
 * the timeline's device label for device 0, else "GPU n". */
const char *timeline_device_title(const struct ss_timeline *t, int index, char *buf, size_t len);
/* timeline_copy makes dst an independent copy of src (dst must be initialised or freed). */
void timeline_copy(struct ss_timeline *dst, const struct ss_timeline *src);

#define SS_TIMELINE_MAX_STREAM_INFO 65536

#define SS_KIND_BIT(k) (1u << (k))
#define SS_GPU_KINDS                                                                                                   \
	(SS_KIND_BIT(SS_KIND_H2D) | SS_KIND_BIT(SS_KIND_D2H) | SS_KIND_BIT(SS_KIND_D2D) |                              \
	 SS_KIND_BIT(SS_KIND_MEMSET) | SS_KIND_BIT(SS_KIND_KERNEL))

#endif
