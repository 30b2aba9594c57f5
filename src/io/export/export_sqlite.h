/* export_sqlite.h: SQLite in the Nsight Systems export schema (CUPTI_ACTIVITY_KIND_* tables, StringIds, ENUM_*,
 * TARGET_INFO_GPU) plus STREAMSCOPE_META, STREAMSCOPE_EXPERIMENT and STREAMSCOPE_ANALYSIS. */
#ifndef SS_IO_EXPORT_EXPORT_SQLITE_H
#define SS_IO_EXPORT_EXPORT_SQLITE_H

#include "io/export/export_input.h"

/* export_sqlite writes in to path atomically. 0, or -1 with *cause (one line; nothing is left at path). */
int export_sqlite(const char *path, const struct ss_export_input *in, char **cause);

#endif
