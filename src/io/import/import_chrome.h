/* import_chrome.h: Chrome trace JSON (streamscope's own and foreign: X events, B/E pairs, M metadata), read with
 * yajl, on several threads when the file is big. */
#ifndef SS_IO_IMPORT_IMPORT_CHROME_H
#define SS_IO_IMPORT_IMPORT_CHROME_H

#include <stdbool.h>
#include <stddef.h>

#include "core/timeline.h"

/* import_chrome reads the Chrome trace at path (read into memory: importer_read) into t, cleared first. 0, or -1 with
 * *cause naming the file and the problem. */
int import_chrome(const char *path, struct ss_timeline *t, char **cause);
/* import_chrome_buffer parses len bytes of JSON (need not be NUL-terminated); name labels messages and
 * t->source. Same contract as import_chrome. */
int import_chrome_buffer(const char *buf, size_t len, const char *name, struct ss_timeline *t, char **cause);
/* How import_chrome reads traces, for tests and benchmarks; all zeros are the defaults. */
struct import_chrome_tuning {
	int threads;        /* 0: the online CPUs, at most 8; 1: one, never in parallel (SS_IMPORT_THREADS overrides) */
	size_t min_bytes;   /* traces from this size on are read in parallel (0: 16 MiB) */
	size_t slice_bytes; /* in slices of about this size (0: from the size and threads, 1 to 4 MiB) */
};

/* import_chrome_tune sets how traces are read from now on (NULL: the defaults). The result and any message are
 * the same whatever the settings. */
void import_chrome_tune(const struct import_chrome_tuning *tuning);
/* import_chrome_parallel_slices says how many slices of the calling thread's last import were parsed by worker
 * threads and used (0: it was read in one go). */
size_t import_chrome_parallel_slices(void);

#endif
