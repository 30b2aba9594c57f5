/* export_text.h: plain-text summary: labels, analysis table, per-stream table, and the screen text when given. */
#ifndef SS_IO_EXPORT_EXPORT_TEXT_H
#define SS_IO_EXPORT_EXPORT_TEXT_H

#include "io/export/export_input.h"

/* export_text writes in to path atomically. 0, or -1 with *cause (one line; nothing is left at path). */
int export_text(const char *path, const struct ss_export_input *in, char **cause);

#endif
