/* gantt.c: lanes to cells. */
#include "tui/gantt.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "core/xalloc.h"

/* A bar's name is written inside it when the bar has this many full cells more than the name is long. */
#define GANTT_NAME_MARGIN 2
/* Tracks with more intervals than this per column in the window get no names (no bar can hold one). */
#define GANTT_NAME_DENSITY 2
/* Marked records (ss_gantt_view.mark) one lane draws at most. */
#define GANTT_MAX_MARKS 16

/* gantt_eighths converts a busy fraction of a cell into eighths; anything busy shows at least one. */
static int gantt_eighths(double busy, double cw)
{
	int e;

	if (busy <= 0 || cw <= 0)
		return 0;
	e = (int)lround(busy / cw * 8.0);
	if (e < 1)
		e = 1;
	return e > 8 ? 8 : e;
}

/* gantt_starts counts the intervals of lane ln starting in [a, b). */
static size_t gantt_starts(const struct ss_lane *ln, const struct ss_record *rec, double a, double b)
{
	size_t n = 0;

	for (int j = 0; j < ln->ntracks; j++)
		n += track_lower_start(ln->track[j], rec, b) - track_lower_start(ln->track[j], rec, a);
	return n;
}

/* gantt_density is the shade of a density cell e/8 busy. */
static uint32_t gantt_density(const struct ss_glyphs *gl, int e)
{
	return e >= 8 ? gl->eighths[8] : gl->density[e <= 3 ? 0 : e <= 6 ? 1 : 2];
}

/* gantt_lane draws one lane across plot row y. Scratch: b ntracks * (w + 1) doubles, xs w + 1, cell and crole w. */
static void gantt_lane(struct ss_grid *g, struct ss_rect plot, int y, const struct ss_lanes *l,
                       const struct ss_lane *ln, const struct ss_gantt_view *v, const struct ss_glyphs *gl, double *b,
                       double *xs, int *cell, int *crole, const size_t *marks, size_t nmarks)
{
	const struct ss_record *rec = l->tl->rec, *sel = NULL, *mark[GANTT_MAX_MARKS];
	int w = plot.w, nt = ln->ntracks, nmark = 0;
	double cw = v->span / w;

	for (int c = 0; c <= w; c++)
		xs[c] = v->t0 + c * cw;
	for (int j = 0; j < nt; j++)
		track_busy_many(ln->track[j], rec, xs, w + 1, &b[(size_t)j * (w + 1)]);
	if (v->sel != UINT32_MAX && v->sel < l->indexed)
		for (int j = 0; j < nt; j++)
			if (ln->track[j]->n > 0 &&
			    track_rank(ln->track[j], rec, v->sel, true) != track_rank(ln->track[j], rec, v->sel, false))
				sel = &rec[v->sel];
	/* the marked records on this lane */
	for (size_t m = 0; marks != NULL && m < nmarks && nmark < GANTT_MAX_MARKS; m++)
		for (int j = 0; j < nt && marks[m] < l->indexed; j++)
			if (ln->track[j]->n > 0 && track_rank(ln->track[j], rec, (uint32_t)marks[m], true) !=
			                               track_rank(ln->track[j], rec, (uint32_t)marks[m], false)) {
				mark[nmark++] = &rec[marks[m]];
				break;
			}
	for (int c = 0; c < w; c++) {
		double sum = 0, best = 0, a = v->t0 + c * cw;
		int role = -1, e;

		for (int j = 0; j < nt; j++) {
			double busy = b[(size_t)j * (w + 1) + c + 1] - b[(size_t)j * (w + 1) + c];

			sum += busy;
			if (busy > best)
				best = busy;
		}
		if (ln->overlap)
			sum = best;
		/* the highest-priority track covering at least half as much as the largest one: a sync wait shows
		 * over the API call that waits, a kernel over a shorter memset */
		for (int j = nt - 1; j >= 0 && best > 0; j--)
			if (b[(size_t)j * (w + 1) + c + 1] - b[(size_t)j * (w + 1) + c] >= best / 2) {
				role = ln->role[j];
				break;
			}
		e = gantt_eighths(sum, cw);
		for (int m = 0; m < nmark; m++)
			if ((double)mark[m]->start < a + cw &&
			    ((double)mark[m]->end > a ||
			     (mark[m]->end == mark[m]->start && (double)mark[m]->start >= a))) {
				double s = fmax((double)mark[m]->start, a), en = fmin((double)mark[m]->end, a + cw);
				int es = gantt_eighths(en - s > 0 ? en - s : cw / 16, cw);

				role = SS_ROLE_WARN;
				e = es > e ? es : e;
			}
		if (sel != NULL && (double)sel->start < a + cw &&
		    ((double)sel->end > a || (sel->end == sel->start && (double)sel->start >= a))) {
			double s = fmax((double)sel->start, a), en = fmin((double)sel->end, a + cw);
			int es = gantt_eighths(en - s > 0 ? en - s : cw / 16, cw);

			role = SS_ROLE_HIGHLIGHT;
			e = es > e ? es : e;
		}
		/* many intervals in the cell: how busy it is, not where in it */
		if (e > 0 && role != SS_ROLE_HIGHLIGHT && role != SS_ROLE_WARN &&
		    gantt_starts(ln, rec, a, a + cw) >= GANTT_DENSE)
			e = -e;
		cell[c] = e;
		crole[c] = role;
	}
	for (int c = 0; c < w; c++) {
		int e = cell[c];
		bool opens;

		if (e < 0) {
			grid_set(g, plot.x + c, y, gantt_density(gl, -e), crole[c], 0);
			continue;
		}
		if (e == 0)
			continue;
		/* A part-filled cell opening a bar (empty before, busy after) holds the bar's start on its right:
		 * the empty left part is drawn as a left block in reverse video, so both ends keep 1/8 precision.
		 * The first column has no cell before it: look at its first eighth instead. */
		opens = e < 8 && gl->utf8 && c + 1 < w && cell[c + 1] != 0 && (c > 0 ? cell[c - 1] == 0 : true);
		if (opens && c == 0) {
			double edge = 0;

			for (int j = 0; j < nt; j++) {
				double bj = track_busy(ln->track[j], rec, v->t0 + cw / 8) -
				            track_busy(ln->track[j], rec, v->t0);

				edge = ln->overlap ? fmax(edge, bj) : edge + bj;
			}
			opens = edge < cw / 16;
		}
		if (opens)
			grid_set(g, plot.x + c, y, gl->eighths[8 - e], crole[c],
			         GRID_REVERSE | (crole[c] == SS_ROLE_WARN ? GRID_BOLD : 0));
		else
			grid_set(g, plot.x + c, y, glyphs_bar(gl, e, crole[c]), crole[c],
			         crole[c] == SS_ROLE_WARN ? GRID_BOLD : 0);
	}
}

/* gantt_bar_name writes what bar r shows inside it into buf (ASCII only: cells hold one character each): a kernel's
 * or a call's name up to its argument list, a copy's direction and size ("H2D 8 MiB"); "" when it has none. */
static void gantt_bar_name(const struct ss_timeline *tl, const struct ss_record *r, char *buf, size_t len)
{
	char size[32], *p;
	const char *name = timeline_name(tl, r->name);
	size_t n = 0;

	if (len == 0)
		return;
	if ((r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H || r->kind == SS_KIND_D2D || r->kind == SS_KIND_MEMSET) &&
	    r->bytes > 0) {
		units_bytes(r->bytes, size, sizeof size);
		if ((p = strstr(size, ".0 ")) != NULL) /* "8.0 MiB" -> "8 MiB" */
			memmove(p, p + 2, strlen(p + 2) + 1);
		snprintf(buf, len, "%s %s", r->kind == SS_KIND_MEMSET ? "memset" : record_kind_name(r->kind), size);
		return;
	}
	for (; name[n] != '\0' && name[n] != '(' && n + 1 < len; n++)
		buf[n] = name[n] >= 0x20 && name[n] < 0x7f ? name[n] : '?';
	buf[n] = '\0';
}

/* gantt_names writes the names of lane ln's bars over them on plot row y, where a bar's full cells (cell[c] == 8
 * in the role of the bar's track, as gantt_lane drew them) hold the name and GANTT_NAME_MARGIN more: left-aligned
 * after one cell, in reverse video so that the text reads on the bar's colour. The selected bar, density cells and
 * names already written (an enclosing range's) are left as they are. */
static void gantt_names(struct ss_grid *g, struct ss_rect plot, int y, const struct ss_lanes *l,
                        const struct ss_lane *ln, const struct ss_gantt_view *v, const int *cell, const int *crole)
{
	const struct ss_record *rec = l->tl->rec;
	double cw = v->span / plot.w, t1 = v->t0 + v->span;
	char name[128];

	for (int j = 0; j < ln->ntracks; j++) {
		const struct ss_track *t = ln->track[j];
		size_t p0 = track_lower_start(t, rec, v->t0), p1 = track_lower_start(t, rec, t1);

		if (t->n == 0 || p1 - p0 > (size_t)plot.w * GANTT_NAME_DENSITY)
			continue;
		for (size_t p = p0 > 0 ? p0 - 1 : 0; p < p1; p++) {
			uint32_t i = t->idx[p];
			double s = fmax((double)rec[i].start, v->t0), e = fmin((double)rec[i].end, t1);
			int c0, c1, len, ok = 1;

			if (e <= s || i == v->sel)
				continue;
			c0 = (int)ceil((s - v->t0) / cw);
			c1 = (int)floor((e - v->t0) / cw);
			if (c1 > plot.w)
				c1 = plot.w;
			if (c1 - c0 < GANTT_NAME_MARGIN + 1)
				continue;
			gantt_bar_name(l->tl, &rec[i], name, sizeof name);
			len = (int)strlen(name);
			if (len == 0 || c1 - c0 < len + GANTT_NAME_MARGIN)
				continue;
			/* the bar's own full cells, and no name written there yet (a nested range's) */
			for (int c = c0; c < c0 + len + GANTT_NAME_MARGIN && ok; c++)
				ok = cell[c] == 8 && crole[c] == ln->role[j] && grid_at(g, plot.x + c, y)->attr == 0;
			if (!ok)
				continue;
			for (int k = 0; k < len; k++)
				grid_set(g, plot.x + c0 + 1 + k, y, (uint32_t)(unsigned char)name[k], crole[c0],
				         GRID_REVERSE);
		}
	}
}

/* gantt_label draws a lane's label: the stream name in text, the engine in its colour, and the separator. */
static void gantt_label(struct ss_grid *g, struct ss_rect labels, int y, const struct ss_lane *ln,
                        const struct ss_glyphs *gl)
{
	char buf[32];
	int n;

	if (labels.w <= 0)
		return;
	lanes_label(ln, labels.w - 1, buf, sizeof buf);
	n = grid_puts(g, labels.x, y, labels.w - 1, buf, ln->first ? SS_ROLE_TEXT : SS_ROLE_DIM, 0);
	/* the engine: the label's last three characters (H2D, KER, D2H) */
	if (ln->kind != LANE_HOST && ln->kind != LANE_STREAM && ln->kind != LANE_NVTX && ln->ntracks > 0 && n >= 3 &&
	    n == (int)strlen(buf)) /* a device's header and peer lanes may have no track */
		for (int x = labels.x + n - 3; x < labels.x + n; x++) {
			const struct ss_cell *c = grid_at(g, x, y);

			if (c != NULL)
				grid_set(g, x, y, c->ch, ln->role[ln->ntracks - 1], 0);
		}
	grid_set(g, labels.x + labels.w - 1, y, gl->box[1], SS_ROLE_AXIS, 0);
}

/* gantt_device draws a device's header row: its title (name and UUID where the timeline knows them) across the
 * plot, in place of cells. */
static void gantt_device(struct ss_grid *g, struct ss_rect plot, int y, const struct ss_lanes *l,
                         const struct ss_lane *ln)
{
	char title[192];

	timeline_device_title(l->tl, ln->device, title, sizeof title);
	grid_puts(g, plot.x, y, plot.w, title, SS_ROLE_TEXT, GRID_BOLD);
}

void gantt_draw(struct ss_grid *g, struct ss_rect labels, struct ss_rect plot, const struct ss_lanes *l,
                const struct ss_gantt_view *v, const struct ss_glyphs *gl)
{
	gantt_draw_marked(g, labels, plot, l, v, gl, NULL, 0);
}

void gantt_draw_marked(struct ss_grid *g, struct ss_rect labels, struct ss_rect plot, const struct ss_lanes *l,
                       const struct ss_gantt_view *v, const struct ss_glyphs *gl, const size_t *mark, size_t nmark)
{
	int n, top = v->top;
	const struct ss_lane *lane = lanes_get(l, v->compact, &n);
	double *b;
	int *cell;

	if (plot.w <= 0 || plot.h <= 0 || v->span <= 0)
		return;
	if (top > n - plot.h)
		top = n - plot.h;
	if (top < 0)
		top = 0;
	b = xmalloc((size_t)(LANE_MAX_TRACKS + 1) * (size_t)(plot.w + 1) * sizeof *b);
	cell = xmalloc(2 * (size_t)plot.w * sizeof *cell);
	for (int row = 0; row < plot.h && top + row < n; row++) {
		gantt_label(g, labels, plot.y + row, &lane[top + row], gl);
		if (lane[top + row].kind == LANE_DEVICE) {
			gantt_device(g, plot, plot.y + row, l, &lane[top + row]);
			continue;
		}
		gantt_lane(g, plot, plot.y + row, l, &lane[top + row], v, gl, b,
		           &b[(size_t)LANE_MAX_TRACKS * (size_t)(plot.w + 1)], cell, cell + plot.w, mark, nmark);
		gantt_names(g, plot, plot.y + row, l, &lane[top + row], v, cell, cell + plot.w);
	}
	for (int row = n - top; row < plot.h && labels.w > 0; row++)
		grid_set(g, labels.x + labels.w - 1, plot.y + row, gl->box[1], SS_ROLE_AXIS, 0);
	if (labels.w > 0 && top > 0)
		grid_set(g, labels.x + labels.w - 1, plot.y, gl->up, SS_ROLE_HIGHLIGHT, 0);
	if (labels.w > 0 && top + plot.h < n)
		grid_set(g, labels.x + labels.w - 1, plot.y + plot.h - 1, gl->down, SS_ROLE_HIGHLIGHT, 0);
	free(b);
	free(cell);
}

uint32_t gantt_pick(const struct ss_lanes *l, struct ss_rect plot, const struct ss_gantt_view *v, int x, int y,
                    int *lane)
{
	int n, top = v->top;
	const struct ss_lane *ln = lanes_get(l, v->compact, &n);
	double cw, a;
	uint32_t best = UINT32_MAX, r;

	*lane = -1;
	if (top > n - plot.h)
		top = n - plot.h;
	if (top < 0)
		top = 0;
	if (x < plot.x || x >= plot.x + plot.w || y < plot.y || y >= plot.y + plot.h || top + y - plot.y >= n)
		return UINT32_MAX;
	*lane = top + y - plot.y;
	ln = &ln[*lane];
	cw = v->span / plot.w;
	a = v->t0 + (x - plot.x) * cw;
	/* the interval covering most of the cell, then the nearest one within two cells */
	{
		double best_ov = -1;

		for (int j = 0; j < ln->ntracks; j++) {
			const struct ss_record *rec = l->tl->rec;
			double ov;

			r = track_pick(ln->track[j], rec, a, a + cw);
			if (r == UINT32_MAX)
				continue;
			ov = fmin((double)rec[r].end, a + cw) - fmax((double)rec[r].start, a);
			if (ov > best_ov) {
				best_ov = ov;
				best = r;
			}
		}
	}
	if (best != UINT32_MAX)
		return best;
	r = lanes_near(l, ln, a + cw / 2);
	if (r != UINT32_MAX) {
		const struct ss_record *rr = &l->tl->rec[r];
		double d =
		    (double)rr->start > a + cw / 2 ? (double)rr->start - (a + cw / 2) : (a + cw / 2) - (double)rr->end;

		if (d <= 2 * cw)
			return r;
	}
	return UINT32_MAX;
}

void gantt_fit(const struct ss_lanes *l, int width, double *t0, double *span)
{
	double len;

	if (width < 2)
		width = 2;
	if (!l->have_span) {
		*t0 = 0;
		*span = 1e6;
		return;
	}
	len = (double)(l->t1 - l->t0);
	if (len < width)
		len = width;
	*t0 = (double)l->t0;
	*span = len * width / (width - 1);
}

void gantt_fit_work(const struct ss_lanes *l, int width, double *t0, double *span)
{
	double all, work;

	gantt_fit(l, width, t0, span);
	if (!l->have_gpu_span)
		return;
	all = (double)(l->t1 - l->t0);
	work = (double)(l->gpu_t1 - l->gpu_t0);
	if (work < width)
		work = width;
	if (all <= work * 1.5)
		return;
	*t0 = (double)l->gpu_t0 - work * 0.02;
	*span = work * 1.04;
}

void gantt_clamp(double ft0, double fspan, int width, double *t0, double *span)
{
	if (*span > fspan)
		*span = fspan;
	if (*span < width)
		*span = width;
	/* the window within [ft0, ft0 + fspan]: no time before the start is shown, none after the end */
	if (*t0 > ft0 + fspan - *span)
		*t0 = ft0 + fspan - *span;
	if (*t0 < ft0)
		*t0 = ft0;
}
