/* plot.c: braille / ASCII line plots. */
#include "tui/plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "tui/axis.h"

#define PLOT_YLABEL 10 /* columns of y labels, the axis line included */

/* A canvas of dots over the plot's cells: per cell a braille mask (or a marker) and the role drawn last. */
struct plot_canvas {
	int w, h;   /* cells */
	int sx, sy; /* dots per cell: 2x4 braille, 1x1 ASCII */
	uint8_t *mask;
	uint8_t *role;
	uint32_t *mark;
};

/* plot_dot sets dot (x, y) of the canvas (dot coordinates, y down). */
static void plot_dot(struct plot_canvas *c, int x, int y, int role, uint32_t mark)
{
	static const uint8_t bits[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
	int cx = x / c->sx, cy = y / c->sy;
	size_t i;

	if (x < 0 || y < 0 || cx >= c->w || cy >= c->h)
		return;
	i = (size_t)cy * c->w + cx;
	c->mask[i] |= c->sx == 2 ? bits[y % 4][x % 2] : 1;
	c->role[i] = (uint8_t)role;
	c->mark[i] = mark;
}

/* plot_line draws a line of dots from (x0, y0) to (x1, y1) (Bresenham). */
static void plot_line(struct plot_canvas *c, int x0, int y0, int x1, int y1, int role, uint32_t mark)
{
	int dx = abs(x1 - x0), dy = -abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;

	for (;;) {
		int e2 = 2 * err;

		plot_dot(c, x0, y0, role, mark);
		if (x0 == x1 && y0 == y1)
			break;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

/* plot_x maps a data x to a dot column of a canvas dots wide. */
static int plot_x(const struct ss_plot_axes *ax, double x, int dots)
{
	double f;

	if (ax->logx)
		f = (log2(x) - log2(ax->xmin)) / (log2(ax->xmax) - log2(ax->xmin));
	else
		f = (x - ax->xmin) / (ax->xmax - ax->xmin);
	if (!isfinite(f))
		f = 0;
	return (int)lround(f * (dots - 1));
}

static int plot_y(const struct ss_plot_axes *ax, double y, int dots)
{
	double f = ax->ymax > 0 ? y / ax->ymax : 0;

	if (f > 1)
		f = 1;
	return (dots - 1) - (int)lround(f * (dots - 1));
}

void plot_draw(struct ss_grid *g, struct ss_rect r, const struct ss_plot_axes *ax, const struct ss_series *s, int ns,
               const struct ss_glyphs *gl)
{
	struct plot_canvas c;
	struct ss_rect area = {r.x + PLOT_YLABEL, r.y + 1, r.w - PLOT_YLABEL - 1, r.h - 3};
	int lx = r.x;
	double ystep;

	if (r.w < 20 || r.h < 6)
		return;
	/* legend */
	for (int i = 0; i < ns; i++) {
		/* a sample of the curve: a short braille line, or the series' marker */
		uint32_t sample = gl->braille ? glyphs_braille(0x24) : gl->marks[i % 4];

		grid_set(g, lx, r.y, sample, s[i].role, GRID_BOLD);
		grid_set(g, lx + 1, r.y, gl->braille ? sample : ' ', s[i].role, GRID_BOLD);
		lx += 3;
		lx += grid_puts(g, lx, r.y, r.x + r.w - lx, s[i].name, s[i].role, 0) + 2;
	}
	/* y axis: the line, labels at nice times */
	for (int y = area.y; y < area.y + area.h; y++)
		grid_set(g, area.x - 1, y, gl->box[1], SS_ROLE_AXIS, 0);
	ystep = axis_step(ax->ymax > 0 ? ax->ymax : 1, area.h, 3);
	for (double v = 0; v <= ax->ymax && ax->ymax > 0; v += ystep) {
		char buf[24];
		int y = area.y + plot_y(ax, v, area.h * 4) / 4, w;

		units_time((uint64_t)llround(v), buf, sizeof buf);
		w = grid_text_width(buf);
		grid_puts(g, area.x - 2 - w, y, w, buf, SS_ROLE_AXIS, 0);
	}
	/* x axis and its labels */
	grid_fill(g, (struct ss_rect){area.x - 1, area.y + area.h, area.w + 1, 1}, gl->axis, SS_ROLE_AXIS, 0);
	grid_set(g, area.x - 1, area.y + area.h, gl->box[4], SS_ROLE_AXIS, 0);
	{
		int last = area.x - 2;

		for (int i = 0; i < ax->nxticks; i++) {
			char buf[16];
			int x = area.x + plot_x(ax, ax->xticks[i], area.w * 2) / 2, w;

			snprintf(buf, sizeof buf, "%g", ax->xticks[i]);
			w = (int)strlen(buf);
			grid_set(g, x, area.y + area.h, gl->tick, SS_ROLE_AXIS, 0);
			x -= w / 2;
			if (x + w > area.x + area.w)
				x = area.x + area.w - w;
			if (x > last + 1) {
				grid_puts(g, x, area.y + area.h + 1, w, buf, SS_ROLE_AXIS, 0);
				last = x + w - 1;
			}
		}
	}
	/* the curves, on a canvas so that braille dots of several series share cells */
	c.w = area.w;
	c.h = area.h;
	c.sx = gl->braille ? 2 : 1;
	c.sy = gl->braille ? 4 : 1;
	c.mask = xcalloc((size_t)c.w * c.h, 1);
	c.role = xcalloc((size_t)c.w * c.h, 1);
	c.mark = xcalloc((size_t)c.w * c.h, sizeof *c.mark);
	for (int i = 0; i < ns; i++) {
		int px = -1, py = -1;

		for (int k = 0; k < s[i].n; k++) {
			int x, y;

			if (s[i].y[k] < 0)
				continue;
			x = plot_x(ax, s[i].x[k], c.w * c.sx);
			y = plot_y(ax, s[i].y[k], c.h * c.sy);
			if (px >= 0)
				plot_line(&c, px, py, x, y, s[i].role, gl->marks[i % 4]);
			else
				plot_dot(&c, x, y, s[i].role, gl->marks[i % 4]);
			px = x;
			py = y;
		}
	}
	for (int y = 0; y < c.h; y++)
		for (int x = 0; x < c.w; x++) {
			size_t i = (size_t)y * c.w + x;

			if (c.mask[i] == 0)
				continue;
			grid_set(g, area.x + x, area.y + y, gl->braille ? glyphs_braille(c.mask[i]) : c.mark[i],
			         c.role[i], 0);
		}
	free(c.mask);
	free(c.role);
	free(c.mark);
}
