/* export_csv.h: CSV of the intervals, one row each (RFC 4180). */
#ifndef SS_IO_EXPORT_EXPORT_CSV_H
#define SS_IO_EXPORT_EXPORT_CSV_H

#include "io/export/export_input.h"

/* export_csv writes in to path atomically. 0, or -1 with *cause (one line; nothing is left at path). */
int export_csv(const char *path, const struct ss_export_input *in, char **cause);

#endif
