/* export.h: the format chosen by file extension, and whole-screen snapshots. */
#ifndef SS_IO_EXPORT_EXPORT_H
#define SS_IO_EXPORT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/export/export_input.h"

/* Export formats, as picked from a file extension. */
enum ss_export_format {
	SS_EXPORT_SQLITE = 0, /* .sqlite .db .sqlite3: Nsight Systems schema + STREAMSCOPE_* tables */
	SS_EXPORT_CHROME,     /* .json: Chrome trace / Perfetto */
	SS_EXPORT_CSV,        /* .csv: one row per interval */
	SS_EXPORT_SVG,        /* .svg: the Gantt chart */
	SS_EXPORT_TEXT,       /* .txt: summary table */
	SS_EXPORT_COUNT
};

/* The one table of file extensions: X(extension, format, what help adds after it, what follows it in a list) for
 * each, in the order messages and help list them. export.c's lookup, SS_EXPORT_EXTENSIONS and
 * SS_EXPORT_EXTENSIONS_HELP are made from it, so that what is accepted and what is said to be valid cannot differ. */
#define SS_EXPORT_TABLE(X)                                                                                             \
	X(".sqlite", SS_EXPORT_SQLITE, "", ", ")                                                                       \
	X(".db", SS_EXPORT_SQLITE, "", ", ")                                                                           \
	X(".sqlite3", SS_EXPORT_SQLITE, " (SQLite, Nsight Systems' schema)", ", ")                                     \
	X(".json", SS_EXPORT_CHROME, " (Chrome/Perfetto)", ", ")                                                       \
	X(".csv", SS_EXPORT_CSV, "", ", ")                                                                             \
	X(".svg", SS_EXPORT_SVG, "", ", ")                                                                             \
	X(".txt", SS_EXPORT_TEXT, "", "")

/* A row of SS_EXPORT_TABLE as a piece of a string literal: the extension alone, or with what help adds. */
#define SS_EXPORT_EXT_NAME(ext, format, what, next) ext next
#define SS_EXPORT_EXT_HELP(ext, format, what, next) ext what next

/* The valid extensions, for messages: ".sqlite, .db, ..., .txt". */
#define SS_EXPORT_EXTENSIONS SS_EXPORT_TABLE(SS_EXPORT_EXT_NAME)
/* The same with what some formats are, for help: "..., .json (Chrome/Perfetto), ...". */
#define SS_EXPORT_EXTENSIONS_HELP SS_EXPORT_TABLE(SS_EXPORT_EXT_HELP)

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

/* export_dir_name writes the snapshot directory name for in at time now (without parent). */
void export_dir_name(const struct ss_export_input *in, long long now, char *buf, size_t len);

#endif
