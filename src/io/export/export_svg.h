/* export_svg.h: SVG picture of the Gantt chart: semantic colours, lanes per stream, axis, legend and stats. */
#ifndef SS_IO_EXPORT_EXPORT_SVG_H
#define SS_IO_EXPORT_EXPORT_SVG_H

#include "io/export/export_input.h"

/* export_svg writes in to path atomically. 0, or -1 with *cause (one line; nothing is left at path). */
int export_svg(const char *path, const struct ss_export_input *in, char **cause);

#endif
