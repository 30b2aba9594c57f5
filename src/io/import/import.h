/* import.h: opening trace files (streamscope's SQLite, Nsight Systems SQLite exports, Chrome trace JSON) into a
 * timeline. The format is sniffed from the content, never from the extension; files are opened read-only. */
#ifndef SS_IO_IMPORT_IMPORT_H
#define SS_IO_IMPORT_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "core/timeline.h"

/* import_file opens path into t (initialised by the caller; cleared first). On success t is sorted, its labels
 * say backend "file" and source path, and 0 is returned. On failure -1 with *cause: one line naming the file
 * and the problem; t is left empty. */
int import_file(const char *path, struct ss_timeline *t, char **cause);

#endif
