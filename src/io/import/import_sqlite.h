/* import_sqlite.h: streamscope's own SQLite traces and Nsight Systems SQLite exports (any nsys version). */
#ifndef SS_IO_IMPORT_IMPORT_SQLITE_H
#define SS_IO_IMPORT_IMPORT_SQLITE_H

#include "core/experiment.h"
#include "core/timeline.h"

/* import_sqlite reads path (opened read-only and immutable: never modified) into t, cleared first. The schema is
 * read from the file: only the columns used are required, missing optional ones are treated as absent.
 * nsys streamIds become stream indices in order of first appearance; copies H2D/D2H/D2D by copyKind; kernels
 * named by shortName (else demangledName); runtime API calls and synchronisation on the host lane. 0, or -1 with
 * *cause naming the file and the problem. */
int import_sqlite(const char *path, struct ss_timeline *t, char **cause);
/* import_sqlite_experiment reads the experiment streamscope stored in path: 1 when found (e filled), 0 when the
 * file has none (foreign trace), -1 with *cause on error. */
int import_sqlite_experiment(const char *path, struct ss_experiment *e, char **cause);

#endif
