/* import_chrome.h: Chrome trace JSON (streamscope's own and foreign: X events, B/E pairs, M metadata). */
#ifndef SS_IMPORT_CHROME_H
#define SS_IMPORT_CHROME_H

#include <stddef.h>

#include "timeline.h"

/* import_chrome reads the Chrome trace at path (mapped read-only) into t, cleared first. 0, or -1 with *cause
 * naming the file and the problem. */
int import_chrome(const char *path, struct ss_timeline *t, char **cause);
/* import_chrome_buffer parses len bytes of JSON (need not be NUL-terminated); name labels messages and
 * t->source. Same contract as import_chrome. */
int import_chrome_buffer(const char *buf, size_t len, const char *name, struct ss_timeline *t, char **cause);

#endif
