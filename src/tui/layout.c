/* layout.c: screen rectangles. */
#include "tui/layout.h"

#include <string.h>

#include "core/xalloc.h"

int layout_compute(const struct ss_layout_opts *o, struct ss_layout *l, char **cause)
{
	int cols = o->cols, rows = o->rows, mw, top, bottom, gh, dw, dh;
	int lc = o->label_cols < LAYOUT_LABEL_COLS       ? LAYOUT_LABEL_COLS
	         : o->label_cols > LAYOUT_LABEL_MAX_COLS ? LAYOUT_LABEL_MAX_COLS
	                                                 : o->label_cols;

	memset(l, 0, sizeof *l);
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		if (rows > 0 && cols > 0)
			l->status = (struct ss_rect){0, rows - 1, cols, 1};
		*cause =
		    xasprintf("terminal too small: %dx%d, need %dx%d", cols, rows, LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
		return -1;
	}
	l->header = (struct ss_rect){0, 0, cols, LAYOUT_HEADER_ROWS};
	l->status = (struct ss_rect){0, rows - 1, cols, 1};
	top = LAYOUT_HEADER_ROWS;
	if (cols >= LAYOUT_SIDE_MIN_COLS && o->panel) {
		int pw = cols >= 160 ? LAYOUT_PANEL_SIDE_COLS + 12 : LAYOUT_PANEL_SIDE_COLS;

		l->stats_side = true;
		mw = cols - pw;
		bottom = rows - 1;
		l->panel = (struct ss_rect){mw, top, pw, bottom - top};
	} else if (cols >= LAYOUT_SIDE_MIN_COLS) {
		int sw = cols >= 160 ? 36 : 32;

		l->stats_side = true;
		mw = cols - sw;
		bottom = rows - 1;
		l->stats = (struct ss_rect){mw, top, sw, bottom - top};
	} else if (o->panel) {
		int ph = (rows - 3) * 2 / 5;

		ph = ph < LAYOUT_PANEL_MIN_ROWS   ? LAYOUT_PANEL_MIN_ROWS
		     : ph > LAYOUT_PANEL_MAX_ROWS ? LAYOUT_PANEL_MAX_ROWS
		                                  : ph;
		mw = cols;
		bottom = rows - 1 - ph;
		l->panel = (struct ss_rect){0, bottom, cols, ph};
	} else {
		mw = cols;
		bottom = rows - 1 - LAYOUT_STATS_ROWS;
		l->stats = (struct ss_rect){0, bottom, cols, LAYOUT_STATS_ROWS};
	}
	/* the Gantt area between the header and the axis */
	gh = bottom - LAYOUT_AXIS_ROWS - top;
	l->axis = (struct ss_rect){lc, bottom - LAYOUT_AXIS_ROWS, mw - lc, LAYOUT_AXIS_ROWS};
	l->corner = (struct ss_rect){0, bottom - LAYOUT_AXIS_ROWS, lc, LAYOUT_AXIS_ROWS};
	l->chart = (struct ss_rect){0, top, mw, bottom - top};
	if (o->ab) {
		int h0 = gh / 2, h1 = gh - h0;

		l->title[0] = (struct ss_rect){0, top, mw, 1};
		l->labels[0] = (struct ss_rect){0, top + 1, lc, h0 - 1};
		l->plot[0] = (struct ss_rect){lc, top + 1, mw - lc, h0 - 1};
		l->title[1] = (struct ss_rect){0, top + h0, mw, 1};
		l->labels[1] = (struct ss_rect){0, top + h0 + 1, lc, h1 - 1};
		l->plot[1] = (struct ss_rect){lc, top + h0 + 1, mw - lc, h1 - 1};
	} else {
		l->labels[0] = (struct ss_rect){0, top, lc, gh};
		l->plot[0] = (struct ss_rect){lc, top, mw - lc, gh};
	}
	l->help.w = cols - 2 < 84 ? cols - 2 : 84;
	l->help.h = rows - 2;
	l->help.x = (cols - l->help.w) / 2;
	l->help.y = 1;
	dw = mw - lc < 52 ? mw - lc : 52;
	dh = gh < LAYOUT_DETAIL_ROWS ? gh : LAYOUT_DETAIL_ROWS;
	l->detail[0] = (struct ss_rect){mw - dw, top, dw, dh};
	l->detail[1] = (struct ss_rect){mw - dw, top + gh - dh, dw, dh};
	return 0;
}
