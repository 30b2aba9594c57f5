/* plot.h: line plots in the terminal: braille dots (2x4 per cell) in UTF-8, marker characters in ASCII. */
#ifndef SS_TUI_PLOT_H
#define SS_TUI_PLOT_H

#include <stdbool.h>

#include "tui/glyphs.h"
#include "tui/grid.h"

/* One curve: n points with x ascending; points with y < 0 are missing. */
struct ss_series {
	const double *x, *y;
	int n;
	int role;         /* enum ss_role */
	const char *name; /* for the legend */
};

/* The axes of a plot. */
struct ss_plot_axes {
	double xmin, xmax; /* x range; log2 scale when logx */
	bool logx;
	const double *xticks; /* labelled x values */
	int nxticks;
	double ymax; /* y from 0 to ymax (ns: labels are times) */
};

/* plot_draw draws a legend row, y labels (times) on the left, the x axis and its labels at the bottom, and the
 * series (later ones over earlier ones) into r. Needs r at least 20 x 6; draws nothing when smaller. */
void plot_draw(struct ss_grid *g, struct ss_rect r, const struct ss_plot_axes *ax, const struct ss_series *s, int ns,
               const struct ss_glyphs *gl);

#endif
