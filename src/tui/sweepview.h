/* sweepview.h: the sweep view: time vs stream count for both issue orders with the ideal bound, as a plot and a
 * table, with the sweep's progress. */
#ifndef SS_TUI_SWEEPVIEW_H
#define SS_TUI_SWEEPVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "run/claims.h"
#include "run/sweep.h"
#include "tui/glyphs.h"
#include "tui/grid.h"

/* sweepview_draw draws the plot of s into chart and its table into table (a side panel when side, else a few
 * rows under the chart; a column per order the sweep has); the chart's third row is s's note (an order the sweep
 * left out, and why) when it has one, the next the line of the documents' claims the sweep supports (claims_sweep,
 * sweepview_claims_line) when it has any, each where the chart has rows to spare for it. running: a point is
 * being measured now. cursor: the point the cursor is on (reverse video in the table, named on the chart's second row
 * with the best point), SIZE_MAX for none; the fastest point is marked '*'. */
void sweepview_draw(struct ss_grid *g, struct ss_rect chart, struct ss_rect table, bool side, const struct ss_sweep *s,
                    bool running, size_t cursor, const struct ss_glyphs *gl);
/* sweepview_claims_line writes into buf (len bytes) the short form of n claims as one line of at most width
 * columns: "Claims 001: a; b | 003: c" ("Claims (modelled) ..." for the model's), the claims' briefs in order, the
 * document named where it changes. What does not fit is cut at a claim's boundary and shown as " ...". "" when n is
 * 0 or width leaves no room for a claim. Returns the line's length (ASCII: one column a byte). */
size_t sweepview_claims_line(const struct ss_claim *c, int n, bool modelled, int width, char *buf, size_t len);
/* sweepview_time is the time the view plots for a point (the makespan speedups use), -1 when not measured. */
double sweepview_time(const struct ss_sweep_point *p);

#endif
