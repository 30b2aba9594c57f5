/* export.h: what every export draws from, the format chosen by file extension, and whole-screen snapshots. */
#ifndef SS_EXPORT_H
#define SS_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/timeline.h"

/* The input of every exporter: a timeline, its analysis and the labels each format must show. */
struct ss_export_input {
	const struct ss_timeline *t;   /* required */
	const struct ss_analysis *a;   /* NULL: computed from t */
	const struct ss_experiment *e; /* the experiment that produced t; NULL for opened (foreign) traces */
	const char *label;             /* backend label ("measured: CUDA+CUPTI on NVIDIA H200"); NULL: made from t.
	                                  A modelled timeline's label always carries "MODELLED". */
	uint64_t t0, t1;               /* view window (SVG, text); t1 <= t0: the GPU work's span (all records when
	                                  there is no GPU work), 2% wider */
	const char *screen_text;       /* the screen as plain text, appended to the text export; may be NULL */
};

/* Export formats, as picked from a file extension. */
enum ss_export_format {
	SS_EXPORT_SQLITE = 0, /* .sqlite .db .sqlite3: Nsight Systems schema + STREAMSCOPE_* tables */
	SS_EXPORT_CHROME,     /* .json: Chrome trace / Perfetto */
	SS_EXPORT_CSV,        /* .csv: one row per interval */
	SS_EXPORT_SVG,        /* .svg: the Gantt chart */
	SS_EXPORT_TEXT,       /* .txt: summary table */
	SS_EXPORT_COUNT
};

/* The valid extensions, for messages. */
#define SS_EXPORT_EXTENSIONS ".sqlite, .db, .json, .csv, .svg, .txt"

/* export_format_of returns the format the extension of path names, -1 when none does. */
int export_format_of(const char *path);
/* export_file writes in->t to path in the format the extension names. Unknown extension: -1 and a cause
 * listing the valid ones. Written atomically: on failure nothing is left at path. */
int export_file(const char *path, const struct ss_export_input *in, char **cause);
/* export_snapshot writes every format into a new directory under parent_dir named by time and experiment
 * (streamscope-20261129-193012-kernel-transfer-8s-depth): trace.sqlite, trace.json, intervals.csv, gantt.svg,
 * summary.txt, plus screen.txt and screen.ansi when given. The directory is filled under a temporary name
 * and renamed, so it appears complete or not at all. The final path goes to out_dir. 0, or -1 with *cause. */
int export_snapshot(const char *parent_dir, const struct ss_export_input *in, const char *screen_text,
                    const char *screen_ansi, char *out_dir, size_t out_len, char **cause);

/* Helpers shared by the exporters. */
/* export_label writes the backend label of in (see struct ss_export_input). */
void export_label(const struct ss_export_input *in, char *buf, size_t len);
/* export_title writes a one-line title: the experiment, or the opened file, or the device. */
void export_title(const struct ss_export_input *in, char *buf, size_t len);
/* export_analysis returns in->a, or computes the analysis of in->t into tmp and returns tmp. */
const struct ss_analysis *export_analysis(const struct ss_export_input *in, struct ss_analysis *tmp);
/* export_window gives the view window of in: [t0, t1) with t1 > t0 (by default the span of the GPU work, 2% wider
 * on each side, or of all records when there is no GPU work). */
void export_window(const struct ss_export_input *in, uint64_t *t0, uint64_t *t1);
/* export_stream_label writes "s3", "legacy", "per-thread", "host" or "unknown" for a record's stream. */
const char *export_stream_label(int32_t stream, char *buf, size_t len);
/* export_stream_title is export_stream_label plus what t's stream table knows of it: "s3 non-blocking (id 14)". */
const char *export_stream_title(const struct ss_timeline *t, int32_t stream, char *buf, size_t len);
/* export_dir_name writes the snapshot directory name for in at time now (without parent). */
void export_dir_name(const struct ss_export_input *in, long long now, char *buf, size_t len);

#endif
