/* sweepview.c: the sweep plot and table, and the line of the documents' claims. */
#include "tui/sweepview.h"

#include <stdio.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "tui/plot.h"

/* The chart rows the claims line needs beside the plot: the title, the caption, the line, and plot_draw's least. */
#define SWEEPVIEW_CLAIMS_MIN_ROWS (3 + 6)

size_t sweepview_claims_line(const struct ss_claim *c, int n, bool modelled, int width, char *buf, size_t len)
{
	static const char more[] = " ...";
	const char *prefix = modelled ? "Claims (modelled) " : "Claims ";
	size_t used, lim = width > 0 ? (size_t)width : 0;
	const char *doc = NULL;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	if (lim >= len)
		lim = len - 1;
	if (n <= 0 || strlen(prefix) + sizeof more - 1 >= lim)
		return 0;
	used = (size_t)snprintf(buf, len, "%s", prefix);
	for (int i = 0; i < n; i++) {
		char item[128];
		bool newdoc = doc == NULL || strcmp(doc, c[i].document) != 0;
		size_t w = (size_t)snprintf(item, sizeof item, "%s%s%s%s",
		                            newdoc && doc != NULL ? " | "
		                            : !newdoc             ? "; "
		                                                  : "",
		                            newdoc ? c[i].document : "", newdoc ? ": " : "", c[i].brief);
		/* room for this item, and for " ..." after it unless it is the last */
		if (used + w + (i + 1 < n ? sizeof more - 1 : 0) > lim) {
			if (i == 0)
				break;
			memcpy(buf + used, more, sizeof more);
			used += sizeof more - 1;
			return used;
		}
		memcpy(buf + used, item, w + 1);
		used += w;
		doc = c[i].document;
	}
	if (doc == NULL) {
		buf[0] = '\0';
		return 0;
	}
	return used;
}

double sweepview_time(const struct ss_sweep_point *p)
{
	if (p == NULL || !p->done || p->failed)
		return -1;
	return (double)(p->a.used_ns > 0 ? p->a.used_ns : p->a.makespan_ns);
}

/* sweepview_bound is the ideal bound for count i, from the first order whose point has one; -1 when none. */
static double sweepview_bound(const struct ss_sweep *s, int i)
{
	for (int o = 0; o < s->norders; o++) {
		const struct ss_sweep_point *p = &s->pt[(size_t)o * s->ncounts + i];

		if (p->done && !p->failed && p->a.have_bound)
			return (double)p->a.bound_ns;
	}
	return -1;
}

/* sweepview_order_role: the colour of the sweep's o-th order (its curve, its column): the first the kernels', the
 * second the copies in (depth and breadth, or best and weaker, apart). */
static int sweepview_order_role(int o)
{
	return o == 0 ? SS_ROLE_KERNEL : SS_ROLE_H2D;
}

/* sweepview_progress draws the title row: what the sweep is and how far it got, with a bar. */
static void sweepview_progress(struct ss_grid *g, struct ss_rect r, const struct ss_sweep *s, bool running,
                               const struct ss_glyphs *gl)
{
	size_t done = sweep_progress(s);
	int x = r.x, bw;
	char buf[256];

	x += grid_puts(g, x, r.y, r.w, "Sweep: time vs streams", SS_ROLE_TEXT, GRID_BOLD);
	snprintf(buf, sizeof buf, "  %s %zu/%zu ", running || done < s->n ? "running" : "done", done, s->n);
	x += grid_puts(g, x, r.y, r.x + r.w - x, buf, running ? SS_ROLE_HIGHLIGHT : SS_ROLE_TEXT, 0);
	bw = r.x + r.w - x - 2;
	if (bw > 30)
		bw = 30;
	for (int i = 0; i < bw && s->n > 0; i++) {
		bool full = (size_t)i * s->n < done * (size_t)bw;

		grid_set(g, x + i, r.y, full ? glyphs_bar(gl, 8, SS_ROLE_HIGHLIGHT) : gl->shade,
		         full ? SS_ROLE_HIGHLIGHT : SS_ROLE_DIM, 0);
	}
	for (size_t i = 0; i < s->n; i++)
		if (s->pt[i].failed) {
			snprintf(buf, sizeof buf, "point %d streams %s failed: %s", s->pt[i].streams,
			         experiment_order_name(s->pt[i].order), s->pt[i].error);
			grid_puts(g, r.x, r.y + 1, r.w, buf, SS_ROLE_WARN, 0);
			break;
		}
}

/* sweepview_table draws the numbers: a row per count when side, else a column per count. */
static void sweepview_table(struct ss_grid *g, struct ss_rect r, bool side, const struct ss_sweep *s, size_t cursor,
                            const struct ss_glyphs *gl)
{
	char buf[32];
	size_t best = sweep_best(s);

	if (r.w <= 2 || r.h <= 1)
		return;
	grid_fill(g, r, ' ', SS_ROLE_TEXT, 0);
	if (side) {
		int y = r.y + 2;

		for (int yy = r.y; yy < r.y + r.h; yy++)
			grid_set(g, r.x, yy, gl->box[1], SS_ROLE_AXIS, 0);
		grid_puts(g, r.x + 2, r.y, r.w - 3, "Sweep", SS_ROLE_TEXT, GRID_BOLD);
		/* a column per order the sweep has, then the bound where it fits */
		bool bound = r.w - 3 >= 4 + (s->norders + 1) * 9;
		int hx = r.x + 2, right = r.x + r.w - 1;

		hx += grid_printf(g, hx, r.y + 1, right - hx, SS_ROLE_DIM, 0, "%4s ", "n");
		for (int o = 0; o < s->norders && hx < right; o++)
			hx += grid_printf(g, hx, r.y + 1, right - hx, SS_ROLE_DIM, 0, "%8s ",
			                  s->orders[o] == SS_ORDER_INTERLEAVE ? "interl." /* the column's width */
			                                                      : experiment_order_name(s->orders[o]));
		if (hx < right)
			grid_printf(g, hx, r.y + 1, right - hx, SS_ROLE_DIM, 0, "%8s", bound ? "bound" : "");
		for (int i = 0; i < s->ncounts && y < r.y + r.h; i++, y++) {
			int x = r.x + 2;

			x += grid_printf(g, x, y, 5, SS_ROLE_TEXT, 0, "%4d ", s->counts[i]);
			for (int o = 0; o < s->norders; o++) {
				size_t k = (size_t)o * s->ncounts + i;
				double t = sweepview_time(&s->pt[k]);

				snprintf(buf, sizeof buf, "%8s%s",
				         t < 0 ? "-" : units_time((uint64_t)t, (char[24]){0}, 24),
				         k == best ? "*" : " ");
				x += grid_puts(g, x, y, r.x + r.w - x, buf,
				               t < 0 ? SS_ROLE_DIM : sweepview_order_role(o),
				               (k == cursor ? GRID_REVERSE : 0) | (k == best ? GRID_BOLD : 0));
			}
			if (bound) {
				double b = sweepview_bound(s, i);

				snprintf(buf, sizeof buf, "%8s",
				         b < 0 ? "-" : units_time((uint64_t)b, (char[24]){0}, 24));
				grid_puts(g, x, y, r.x + r.w - x, buf, SS_ROLE_DIM, 0);
			}
		}
		return;
	}
	grid_fill(g, (struct ss_rect){r.x, r.y, r.w, 1}, gl->box[0], SS_ROLE_AXIS, 0);
	grid_puts(g, r.x + 2, r.y, -1, " Sweep ", SS_ROLE_TEXT, GRID_BOLD);
	{
		int lw = 8, cw = (r.w - lw) / (s->ncounts > 0 ? s->ncounts : 1);

		if (cw > 10)
			cw = 10;
		grid_puts(g, r.x, r.y + 1, lw, "streams", SS_ROLE_DIM, 0);
		for (int o = 0; o < s->norders && o + 2 < r.h; o++)
			grid_puts(g, r.x, r.y + 2 + o, lw, experiment_order_name(s->orders[o]), sweepview_order_role(o),
			          0);
		for (int i = 0; i < s->ncounts; i++) {
			int x = r.x + lw + i * cw;

			grid_printf(g, x, r.y + 1, cw - 1, SS_ROLE_TEXT, 0, "%*d", cw - 1, s->counts[i]);
			for (int o = 0; o < s->norders && o + 2 < r.h; o++) {
				size_t k = (size_t)o * s->ncounts + i;
				double t = sweepview_time(&s->pt[k]);

				snprintf(buf, sizeof buf, "%*s%s", cw - 2,
				         t < 0 ? "-" : units_time((uint64_t)t, (char[24]){0}, 24),
				         k == best ? "*" : " ");
				grid_puts(g, x, r.y + 2 + o, cw - 1, buf, t < 0 ? SS_ROLE_DIM : SS_ROLE_TEXT,
				          (k == cursor ? GRID_REVERSE : 0) | (k == best ? GRID_BOLD : 0));
			}
		}
	}
}

/* sweepview_caption writes the chart's second row: the point under the cursor and the best one (unless a failure
 * is shown there). */
static void sweepview_caption(struct ss_grid *g, struct ss_rect r, const struct ss_sweep *s, size_t cursor)
{
	char buf[256], a[24], b[24];
	size_t best = sweep_best(s);
	const struct ss_sweep_point *c = cursor < s->n ? &s->pt[cursor] : NULL, *bp = best < s->n ? &s->pt[best] : NULL;
	const struct ss_cell *first = grid_at(g, r.x, r.y + 1);

	if (first != NULL && first->role == SS_ROLE_WARN)
		return;
	if (c == NULL)
		return;
	snprintf(buf, sizeof buf, "> %d stream%s %s %s", c->streams, c->streams == 1 ? "" : "s",
	         experiment_order_label(c->order),
	         sweepview_time(c) < 0 ? "(not yet)" : units_time((uint64_t)sweepview_time(c), a, sizeof a));
	if (bp != NULL)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "   best* %d stream%s %s %s", bp->streams,
		         bp->streams == 1 ? "" : "s", experiment_order_label(bp->order),
		         units_time((uint64_t)sweepview_time(bp), b, sizeof b));
	snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "   Enter opens it");
	grid_puts(g, r.x, r.y + 1, r.w, buf, SS_ROLE_HIGHLIGHT, 0);
}

/* sweepview_note draws the sweep's note (an order it left out, and why) on the chart's third row, where it has one
 * and the chart has rows to spare. Returns the rows above the plot so far: 3 with the note, else 2. */
static int sweepview_note(struct ss_grid *g, struct ss_rect r, const struct ss_sweep *s)
{
	if (s->note[0] == '\0' || r.h < SWEEPVIEW_CLAIMS_MIN_ROWS)
		return 2;
	grid_puts(g, r.x, r.y + 2, r.w, s->note, SS_ROLE_DIM, 0);
	return 3;
}

/* sweepview_claims draws the claims line on the chart's row top: when every point has run, the claims the sweep
 * supports; before, what the line will hold. Returns the rows above the plot: top + 1 with the line, else top. */
static int sweepview_claims(struct ss_grid *g, struct ss_rect r, int top, const struct ss_sweep *s)
{
	struct ss_claim c[SS_CLAIMS_MAX];
	char line[512];
	int n;

	if (r.h < SWEEPVIEW_CLAIMS_MIN_ROWS + top - 2 || (n = claims_sweep(s, c)) == 0)
		return top;
	if (sweep_progress(s) < s->n) {
		grid_puts(g, r.x, r.y + top, r.w, "Claims of the documents: when every point has run", SS_ROLE_DIM, 0);
		return top + 1;
	}
	if (sweepview_claims_line(c, n, s->modelled, r.w, line, sizeof line) == 0)
		return top;
	grid_puts(g, r.x, r.y + top, r.w, line, SS_ROLE_TEXT, 0);
	grid_puts(g, r.x, r.y + top, r.w, "Claims", SS_ROLE_TEXT, GRID_BOLD);
	return top + 1;
}

void sweepview_draw(struct ss_grid *g, struct ss_rect chart, struct ss_rect table, bool side, const struct ss_sweep *s,
                    bool running, size_t cursor, const struct ss_glyphs *gl)
{
	double x[SS_SWEEP_MAX_COUNTS], y[3][SS_SWEEP_MAX_COUNTS];
	struct ss_series ser[3];
	struct ss_plot_axes ax = {0};
	int ns = 0, top;

	grid_fill(g, chart, ' ', SS_ROLE_TEXT, 0);
	sweepview_progress(g, chart, s, running, gl);
	sweepview_caption(g, chart, s, cursor);
	top = sweepview_claims(g, chart, sweepview_note(g, chart, s), s);
	for (int i = 0; i < s->ncounts; i++) {
		x[i] = s->counts[i];
		y[2][i] = sweepview_bound(s, i);
		if (y[2][i] > ax.ymax)
			ax.ymax = y[2][i];
		for (int o = 0; o < s->norders; o++) {
			y[o][i] = sweepview_time(&s->pt[(size_t)o * s->ncounts + i]);
			if (y[o][i] > ax.ymax)
				ax.ymax = y[o][i];
		}
	}
	for (int o = 0; o < s->norders; o++)
		ser[ns++] = (struct ss_series){x, y[o], s->ncounts, sweepview_order_role(o),
		                               experiment_order_label(s->orders[o])};
	ser[ns++] = (struct ss_series){x, y[2], s->ncounts, SS_ROLE_DIM, "ideal bound"};
	ax.xmin = s->ncounts > 0 ? s->counts[0] : 1;
	ax.xmax = s->ncounts > 0 ? s->counts[s->ncounts - 1] : 2;
	if (ax.xmax <= ax.xmin)
		ax.xmax = ax.xmin + 1;
	ax.logx = true;
	ax.xticks = x;
	ax.nxticks = s->ncounts;
	ax.ymax *= 1.05;
	/* bound first so that the measured curves draw over it */
	{
		struct ss_series order[3] = {ser[ns - 1], ser[0], ser[ns > 2 ? 1 : 0]};

		plot_draw(g, (struct ss_rect){chart.x, chart.y + top, chart.w, chart.h - top}, &ax, order, ns, gl);
	}
	sweepview_table(g, table, side, s, cursor, gl);
}
