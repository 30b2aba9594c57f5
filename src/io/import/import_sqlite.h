/* import_sqlite.h: streamscope's own SQLite traces and Nsight Systems SQLite exports (any nsys version). */
#ifndef SS_IO_IMPORT_IMPORT_SQLITE_H
#define SS_IO_IMPORT_IMPORT_SQLITE_H

#include <stdbool.h>

#include "core/experiment.h"
#include "core/timeline.h"

/* import_sqlite reads path (opened read-only and immutable: never modified) into t, cleared first. The schema is
 * read from the file: only the columns used are required, missing optional ones are treated as absent.
 * nsys streamIds become stream indices in order of first appearance; copies H2D/D2H/D2D by copyKind; kernels
 * named by shortName (else demangledName); runtime API calls and synchronisation on the host lane. 0, or -1 with
 * *cause naming the file and the problem. */
int import_sqlite(const char *path, struct ss_timeline *t, char **cause);
/* import_sqlite_experiment reads the experiment streamscope stored in path: 1 when found (e filled), 0 when the
 * file has none (foreign trace), -1 with *cause on error. own_work (may be NULL) says whether the file says the
 * experiment ran its preset's own work: true where its program column is there and empty, false where it ran a
 * step program (which e does not hold) or the file is older than that column. */
int import_sqlite_experiment(const char *path, struct ss_experiment *e, bool *own_work, char **cause);

#endif
