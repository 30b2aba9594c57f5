/* layout.h: the screen's rectangles as a pure function of the terminal size and the view options. */
#ifndef SS_TUI_LAYOUT_H
#define SS_TUI_LAYOUT_H

#include <stdbool.h>

#include "tui/grid.h"

#define LAYOUT_MIN_COLS 80
#define LAYOUT_MIN_ROWS 24
#define LAYOUT_HEADER_ROWS 2
#define LAYOUT_AXIS_ROWS 2
#define LAYOUT_LABEL_COLS 11     /* the label column's least width: "legacy KER" and the separator */
#define LAYOUT_LABEL_MAX_COLS 16 /* its widest: "s1000 blk H2D" and the separator, leaving the plot 64 of 80 */
#define LAYOUT_STATS_ROWS 4      /* bottom panel: a title rule and three rows */
#define LAYOUT_SIDE_MIN_COLS 120 /* from this width the stats panel moves to the right */
#define LAYOUT_DETAIL_ROWS 10
#define LAYOUT_PANEL_SIDE_COLS 44 /* a side panel's width (56 from 160 columns) */
#define LAYOUT_PANEL_MIN_ROWS 10  /* a bottom panel's height: 2/5 of the rows, within these */
#define LAYOUT_PANEL_MAX_ROWS 18

/* What the layout depends on besides the size. */
struct ss_layout_opts {
	int cols, rows;
	bool ab;        /* A/B: two Gantts stacked, each with a title row */
	bool panel;     /* a panel (the insights) in place of the stats panel: the side column, widened, or the bottom
	                   rows, taller */
	int label_cols; /* the lane labels' column as the widest label asks (lanes_label_cols, separator included),
	                   kept within LAYOUT_LABEL_COLS..LAYOUT_LABEL_MAX_COLS; 0: LAYOUT_LABEL_COLS */
};

/* Where everything goes. Absent parts have w == h == 0. */
struct ss_layout {
	struct ss_rect header;    /* device, backend, experiment: LAYOUT_HEADER_ROWS rows */
	struct ss_rect title[2];  /* A/B: a title row above each Gantt */
	struct ss_rect labels[2]; /* lane labels left of each Gantt ([1]: A/B only) */
	struct ss_rect plot[2];   /* the Gantt bars */
	struct ss_rect axis;      /* time axis under the Gantt(s), aligned with plot[0] */
	struct ss_rect corner;    /* left of the axis: the window's span */
	struct ss_rect chart;     /* the sweep plot: everything from the first title to the axis */
	struct ss_rect stats;     /* stats panel: right side when wide, else bottom */
	bool stats_side;
	struct ss_rect status;    /* last row: messages and main keys */
	struct ss_rect help;      /* the largest help overlay */
	struct ss_rect detail[2]; /* the selection's detail box: top right and bottom right of the Gantt area */
	struct ss_rect panel;     /* opts.panel: where the panel goes (stats then absent) */
};

/* layout_compute fills l for o. Returns 0, or -1 with *cause ("terminal too small: 79x24, need 80x24") below
 * LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS, l then holding only the status row. */
int layout_compute(const struct ss_layout_opts *o, struct ss_layout *l, char **cause);

#endif
