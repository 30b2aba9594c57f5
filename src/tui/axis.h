/* axis.h: the time axis under the Gantt: ticks at 1/2/5 steps, labels whose unit follows the zoom. */
#ifndef SS_TUI_AXIS_H
#define SS_TUI_AXIS_H

#include <stddef.h>

#include "tui/glyphs.h"
#include "tui/grid.h"

/* axis_draw draws the axis of the window [t0, t0 + span) ns over r: row 0 the line and its ticks, row 1 the
 * labels, each starting under its tick; labels never overlap and never leave r. */
void axis_draw(struct ss_grid *g, struct ss_rect r, double t0, double span, const struct ss_glyphs *gl);
/* axis_step returns the tick step (1, 2 or 5 x 10^k ns) for span over width cells, with ticks at least
 * min_cells apart. */
double axis_step(double span, int width, int min_cells);
/* axis_label writes time t as the axis labels it: in the unit of the largest time shown (hi), with the decimals
 * that step needs ("12.5 ms", "1500 us" never: "1.5 ms"). */
void axis_label(double t, double step, double hi, char *buf, size_t len);

#endif
