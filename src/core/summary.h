/* summary.h: per-kernel and per-copy-kind summaries of a timeline, the rows Nsight Systems' `nsys stats` reports as
 * cuda_gpu_kern_sum (kernels by name: the full name where the trace has one) and cuda_gpu_mem_time_sum /
 * cuda_gpu_mem_size_sum (copies and memsets by kind). Pure: it reads a timeline and gives rows, prints nothing;
 * `streamscope stats` prints them and a TUI panel may draw the same rows.
 *
 * Durations are end - start of each GPU record (ns). Rows are sorted by total time, descending (as nsys sorts),
 * ties by name. A time percentage is the row's share of its table's total: kernels of all kernel time, copies of
 * all copy and memset time. */
#ifndef SS_CORE_SUMMARY_H
#define SS_CORE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "core/timeline.h"

/* The host memory a copy used, where its record says (SS_REC_PINNED, SS_REC_PAGEABLE, SS_REC_MANAGED). */
enum ss_summary_mem {
	SS_SUM_MEM_NONE = 0, /* the record does not say (device-to-device copies, memsets, traces without it) */
	SS_SUM_MEM_PINNED,
	SS_SUM_MEM_PAGEABLE,
	SS_SUM_MEM_MANAGED,
	SS_SUM_MEM_COUNT
};

/* One row: the records of one kernel name, or of one copy kind and memory. Durations in ns. */
struct ss_summary_row {
	int kind;          /* enum ss_kind: SS_KIND_KERNEL, or H2D, D2H, D2D, MEMSET */
	int mem;           /* enum ss_summary_mem (SS_SUM_MEM_NONE for kernels) */
	uint32_t name;     /* kernels: the timeline's name id (0: unnamed); copies: 0 */
	uint64_t count;    /* records, >= 1 */
	uint64_t total_ns; /* sum of durations */
	uint64_t min_ns, max_ns;
	double avg_ns;    /* total_ns / count */
	double median_ns; /* the mean of the middle two for an even count (stats_median) */
	double stddev_ns; /* sample standard deviation (n - 1), 0 for one record (as nsys) */
	double percent;   /* 100 * total_ns / the table's total; 0 when that total is 0 */
	uint64_t bytes;   /* copies: total bytes moved (memsets: bytes set); kernels: 0 */
	uint64_t bytes_min, bytes_max;
	double bytes_avg, bytes_median;
};

/* The two tables of one timeline. */
struct ss_summary {
	struct ss_summary_row *kern; /* by kernel name, nkern rows */
	size_t nkern;
	struct ss_summary_row *copy; /* by copy kind and memory, ncopy rows */
	size_t ncopy;
	uint64_t kern_total_ns, kern_count; /* over every kernel record */
	uint64_t copy_total_ns, copy_count; /* over every copy and memset record */
};

/* summary_build fills s (any previous content is not freed) with the tables of t's GPU records. Records of other
 * kinds (API, SYNC, MARKER) are not counted. Never fails (allocation aborts); a timeline without GPU records gives
 * empty tables. s refers to t's string table by id: name rows with summary_row_name while t lives. */
void summary_build(const struct ss_timeline *t, struct ss_summary *s);
/* summary_free frees the rows of s and empties it. */
void summary_free(struct ss_summary *s);
/* summary_row_name names a row: a kernel's name from t ("(unnamed kernel)" for name 0), or a copy's kind and memory
 * as "HtoD (pinned)", "DtoH", "DtoD", "memset" (the words nsys uses for copy kinds, the memory in brackets where
 * the record says). Copies' names are static strings; kernels' live as long as t. */
const char *summary_row_name(const struct ss_timeline *t, const struct ss_summary_row *r);
/* summary_kind_name is "HtoD", "DtoH", "DtoD", "memset" or "kernel" for a row's kind; "?" for others. */
const char *summary_kind_name(int kind);
/* summary_mem_name is "pinned", "pageable", "managed", or NULL for SS_SUM_MEM_NONE and out of range. */
const char *summary_mem_name(int mem);
/* summary_bandwidth is a copy row's bytes per ns (= GB/s, decimal); 0 when its total time is 0. */
double summary_bandwidth(const struct ss_summary_row *r);

#endif
