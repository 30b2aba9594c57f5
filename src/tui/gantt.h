/* gantt.h: draws lanes as bars into a cell grid: per cell, the busy fraction of its time slice as a left eighth
 * block (sub-cell precision; a bar's first cell as the reverse-video complement, so that its start is precise
 * too) in the role of the track covering most of it. A cell in which GANTT_DENSE or more intervals start shows its
 * busy fraction as a shade instead (light, medium, dark, full), so that a lane of many small operations reads as
 * how busy it is rather than as a row of slivers. Pure: no curses. */
#ifndef SS_TUI_GANTT_H
#define SS_TUI_GANTT_H

#include <stdbool.h>
#include <stdint.h>

#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/lanes.h"

#define GANTT_DENSE 3 /* intervals starting in one cell that make it a density cell */

/* The part of a timeline a Gantt shows. */
struct ss_gantt_view {
	double t0, span; /* time window in ns, span > 0 */
	int top;         /* first lane shown (vertical scroll) */
	bool compact;    /* one row per stream instead of H2D / KER / D2H lanes */
	uint32_t sel;    /* selected record, UINT32_MAX for none */
};

/* gantt_draw draws the lanes of l from v->top into the rows of plot, their labels into labels (may be w 0).
 * Cost per frame: O(rows * columns * (log n + TRACK_BLOCK)), whatever the number of records. */
void gantt_draw(struct ss_grid *g, struct ss_rect labels, struct ss_rect plot, const struct ss_lanes *l,
                const struct ss_gantt_view *v, const struct ss_glyphs *gl);
/* gantt_draw_marked is gantt_draw with records mark[0..nmark) (an insight's evidence; indices into l's timeline,
 * those not indexed ignored) drawn marked: in the warning role, bold, over whatever the cell shows. */
void gantt_draw_marked(struct ss_grid *g, struct ss_rect labels, struct ss_rect plot, const struct ss_lanes *l,
                       const struct ss_gantt_view *v, const struct ss_glyphs *gl, const size_t *mark, size_t nmark);
/* gantt_pick returns the record drawn at screen cell (x, y) of plot, or the nearest one within two cells on
 * that lane; UINT32_MAX when none. *lane gets the lane index under y (-1 outside the lanes). */
uint32_t gantt_pick(const struct ss_lanes *l, struct ss_rect plot, const struct ss_gantt_view *v, int x, int y,
                    int *lane);
/* gantt_fit sets the window to the whole timeline (and a one-cell margin) for a plot width cells wide. */
void gantt_fit(const struct ss_lanes *l, int width, double *t0, double *span);
/* gantt_fit_work sets the window to the work: the GPU's records with a 2% margin each side, where the host's alone
 * (set-up calls before, tear-down after) would make the whole timeline more than half as long again; else as
 * gantt_fit. A real program's trace opens on its kernels and copies, not on its start-up. */
void gantt_fit_work(const struct ss_lanes *l, int width, double *t0, double *span);
/* gantt_clamp keeps a window within the extent [ft0, ft0 + fspan] (a run and a margin): span between width ns
 * (1 ns a cell) and fspan, t0 so that the window shows no time before the extent's start nor after its end (pan and
 * zoom stop at either end). An extent narrower than width ns gives the window [ft0, ft0 + width). */
void gantt_clamp(double ft0, double fspan, int width, double *t0, double *span);

#endif
