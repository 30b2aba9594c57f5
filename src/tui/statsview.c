/* statsview.c: the stats panel. */
#include "tui/statsview.h"

#include <stdio.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"

#define STATS_CELL 20 /* columns per item in the bottom panel */

/* stats_add appends an item; value NULL prints "-". */
static void stats_add(struct ss_stat_item *it, int *n, const char *label, const char *value, int role, unsigned attr)
{
	if (*n >= STATS_MAX_ITEMS)
		return;
	snprintf(it[*n].label, sizeof it[*n].label, "%s", label);
	snprintf(it[*n].value, sizeof it[*n].value, "%s", value != NULL ? value : "-");
	it[*n].role = value != NULL ? role : SS_ROLE_DIM;
	it[*n].attr = value != NULL ? attr : 0;
	(*n)++;
}

/* stats_signed_time writes a signed difference of two times ("+1.23 ms", "-850 ns"). */
static void stats_signed_time(uint64_t a, uint64_t b, char *buf, size_t len)
{
	char t[24];

	units_time(b >= a ? b - a : a - b, t, sizeof t);
	snprintf(buf, len, "%s%s", b >= a ? "+" : "-", t);
}

int statsview_items(const struct ss_stats_in *s, struct ss_stat_item *it)
{
	const struct ss_analysis *a = s->an;
	bool ok = a != NULL && a->makespan_ns > 0;
	char v[32];
	int n = 0;
	static const struct {
		const char *label;
		int eng, role;
	} engines[SS_ENG_COUNT] = {
	    {"H2D util", SS_ENG_H2D, SS_ROLE_H2D},
	    {"KER util", SS_ENG_COMPUTE, SS_ROLE_KERNEL},
	    {"D2H util", SS_ENG_D2H, SS_ROLE_D2H},
	};

	stats_add(it, &n, "makespan", ok ? units_time(a->makespan_ns, v, sizeof v) : NULL, SS_ROLE_TEXT, GRID_BOLD);
	if (ok && a->have_speedup)
		snprintf(v, sizeof v, "%.2fx", a->speedup);
	stats_add(it, &n, "speedup", ok && a->have_speedup ? v : NULL, SS_ROLE_TEXT, GRID_BOLD);
	stats_add(it, &n, "bound", ok && a->have_bound ? units_time(a->bound_ns, v, sizeof v) : NULL, SS_ROLE_TEXT, 0);
	if (ok && a->have_bound)
		snprintf(v, sizeof v, "%+.1f%%", a->gap * 100.0);
	stats_add(it, &n, "gap", ok && a->have_bound ? v : NULL, SS_ROLE_TEXT, 0);
	if (ok && a->staging_ns > 0) /* pageable copies: the host's share of the makespan, outside the GPU records */
		stats_add(it, &n, "staging", units_time(a->staging_ns, v, sizeof v), SS_ROLE_TEXT, 0);
	for (int e = 0; e < SS_ENG_COUNT; e++) {
		if (ok)
			snprintf(v, sizeof v, "%.0f%%", a->eng[engines[e].eng].util * 100.0);
		stats_add(it, &n, engines[e].label, ok ? v : NULL, engines[e].role, 0);
	}
	if (ok)
		snprintf(v, sizeof v, "%.0f%%", a->overlap * 100.0);
	stats_add(it, &n, "overlap", ok ? v : NULL, SS_ROLE_TEXT, 0);
	if (s->have_dropped)
		snprintf(v, sizeof v, "%llu", (unsigned long long)s->dropped);
	stats_add(it, &n, "dropped", s->have_dropped ? v : NULL, s->dropped > 0 ? SS_ROLE_WARN : SS_ROLE_TEXT, 0);
	if (s->claims > 0) { /* the documents' claims this run supports: C lists them */
		snprintf(v, sizeof v, "%d/%d hold (C)", s->claims_held, s->claims);
		stats_add(it, &n, "claims", v, SS_ROLE_TEXT, 0); /* one that does not hold is a finding, not a fault */
	}
	if (s->pinned != NULL) {
		bool pok = s->pinned->makespan_ns > 0;

		stats_add(it, &n, "A pinned", pok ? units_time(s->pinned->makespan_ns, v, sizeof v) : NULL,
		          SS_ROLE_TEXT, 0);
		if (pok && ok)
			stats_signed_time(s->pinned->makespan_ns, a->makespan_ns, v, sizeof v);
		stats_add(it, &n, "B - A", pok && ok ? v : NULL, SS_ROLE_HIGHLIGHT, GRID_BOLD);
		if (pok && ok)
			snprintf(v, sizeof v, "%+.1f%%",
			         ((double)a->makespan_ns / (double)s->pinned->makespan_ns - 1.0) * 100.0);
		stats_add(it, &n, "B / A", pok && ok ? v : NULL, SS_ROLE_HIGHLIGHT, 0);
	}
	if (s->measured) {
		stats_add(it, &n, "model", s->have_predicted ? units_time(s->predicted_ns, v, sizeof v) : NULL,
		          SS_ROLE_TEXT, 0);
		/* the model models the program as it runs untraced: against the untraced makespan when timed */
		if (ok && s->have_predicted && s->predicted_ns > 0)
			snprintf(
			    v, sizeof v, "%+.1f%%",
			    ((double)(a->have_overhead ? a->untraced_ns : a->makespan_ns) / (double)s->predicted_ns -
			     1.0) *
			        100.0);
		stats_add(it, &n, "vs model", ok && s->have_predicted && s->predicted_ns > 0 ? v : NULL, SS_ROLE_TEXT,
		          0);
		stats_add(it, &n, "model+calls",
		          s->have_predicted_calls ? units_time(s->predicted_calls_ns, v, sizeof v) : NULL, SS_ROLE_TEXT,
		          0);
		if (ok && a->have_overhead)
			snprintf(v, sizeof v, "%+.1f%%", a->overhead * 100.0);
		stats_add(it, &n, "trace ovh", ok && a->have_overhead ? v : NULL, SS_ROLE_TEXT, 0);
	}
	if (s->dev != NULL && s->dev->ndev > 1) {
		/* the devices: how long two shared the host link, then each one's busy share of the GPU work's span */
		snprintf(v, sizeof v, "%d, link sh. %.0f%%", s->dev->ndev,
		         s->dev->span_ns > 0 ? 100.0 * (double)s->dev->link_shared_ns / (double)s->dev->span_ns : 0.0);
		stats_add(it, &n, "GPUs", v, SS_ROLE_TEXT, 0);
		for (int d = 0; d < s->dev->ndev && d < STATS_SHOWN_DEVICES; d++) {
			char label[16];

			snprintf(label, sizeof label, "GPU %d busy", d);
			snprintf(v, sizeof v, "%.0f%%",
			         s->dev->span_ns > 0 ? 100.0 * (double)s->dev->dev[d].busy_ns / (double)s->dev->span_ns
			                             : 0.0);
			stats_add(it, &n, label, v, SS_ROLE_TEXT, 0);
		}
	}
	return n;
}

/* stats_item draws one item in w cells: the label left, the value right. */
static void stats_item(struct ss_grid *g, int x, int y, int w, const struct ss_stat_item *it)
{
	int vw = grid_text_width(it->value);

	grid_puts(g, x, y, w, it->label, SS_ROLE_DIM, 0);
	if (vw > w - 1)
		vw = w - 1;
	grid_puts(g, x + w - vw, y, vw, it->value, it->role, it->attr);
}

void statsview_draw(struct ss_grid *g, struct ss_rect r, bool side, const struct ss_stats_in *s,
                    const struct ss_glyphs *gl)
{
	struct ss_stat_item it[STATS_MAX_ITEMS];
	int n = statsview_items(s, it);

	if (r.w <= 2 || r.h <= 1)
		return;
	grid_fill(g, r, ' ', SS_ROLE_TEXT, 0);
	if (side) {
		for (int y = r.y; y < r.y + r.h; y++)
			grid_set(g, r.x, y, gl->box[1], SS_ROLE_AXIS, 0);
		grid_puts(g, r.x + 2, r.y, r.w - 3, "Stats", SS_ROLE_TEXT, GRID_BOLD);
		for (int i = 0; i < n && 1 + i < r.h; i++)
			stats_item(g, r.x + 2, r.y + 1 + i, r.w - 3, &it[i]);
		return;
	}
	grid_fill(g, (struct ss_rect){r.x, r.y, r.w, 1}, gl->box[0], SS_ROLE_AXIS, 0);
	grid_puts(g, r.x + 2, r.y, -1, " Stats ", SS_ROLE_TEXT, GRID_BOLD);
	{
		int ncol = r.w / STATS_CELL, cw, rows = r.h - 1;

		if (ncol < 1)
			ncol = 1;
		cw = r.w / ncol;
		/* column-major, so related items (speedup, bound, gap) read down a column */
		for (int i = 0; i < n && i < ncol * rows; i++)
			stats_item(g, r.x + (i / rows) * cw, r.y + 1 + i % rows, cw - 2, &it[i]);
	}
}
