/* export_chrome.h: Chrome trace JSON (Perfetto, chrome://tracing): a track per stream and engine, flow arrows from API
 * calls to the GPU work they issued. */
#ifndef SS_IO_EXPORT_EXPORT_CHROME_H
#define SS_IO_EXPORT_EXPORT_CHROME_H

#include "io/export/export_input.h"

/* export_chrome writes in to path atomically. 0, or -1 with *cause (one line; nothing is left at path). */
int export_chrome(const char *path, const struct ss_export_input *in, char **cause);

#endif
