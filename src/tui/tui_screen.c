/* tui_screen.c: text and ANSI dumps of the cell grid, and a terminal-less render. */
#include "tui/tui_screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/palette.h"
#include "core/vec.h"
#include "tui/lanes.h"
#include "tui/scheme.h"
#include "tui/view.h"

/* A growing output buffer (one append buffer per dump). */
struct tui_buf {
	char *s;
	size_t n, cap;
};

static void tui_buf_add(struct tui_buf *b, const char *s, size_t n)
{
	VEC_RESERVE(b->s, b->n, b->cap, n + 1, 256); /* and its NUL */
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* tui_row_end is the number of cells of row y up to its last non-blank (or non-default-looking) cell. */
static int tui_row_end(const struct ss_grid *g, int y, bool looks)
{
	int end = g->w;

	while (end > 0) {
		const struct ss_cell *c = grid_at(g, end - 1, y);

		if (c->ch != ' ' || (looks && c->attr != 0))
			break;
		end--;
	}
	return end;
}

char *tui_screen_text(const struct ss_grid *g)
{
	struct tui_buf b = {0};

	tui_buf_add(&b, "", 0);
	for (int y = 0; y < g->h; y++) {
		int end = tui_row_end(g, y, false);

		for (int x = 0; x < end; x++) {
			char u[4];

			tui_buf_add(&b, u, (size_t)grid_utf8_encode(grid_at(g, x, y)->ch, u));
		}
		tui_buf_add(&b, "\n", 1);
	}
	return b.s;
}

/* tui_sgr writes the SGR sequence of a cell's look. */
static void tui_sgr(struct tui_buf *b, const struct ss_cell *c)
{
	struct ss_look l = scheme_look(SCHEME_256, c->role);
	unsigned attr = c->attr | l.attr;
	char s[48];
	int n = snprintf(s, sizeof s, "\033[0");

	if (attr & GRID_BOLD)
		n += snprintf(s + n, sizeof s - n, ";1");
	if (attr & SCHEME_DIM)
		n += snprintf(s + n, sizeof s - n, ";2");
	if (attr & GRID_UNDERLINE)
		n += snprintf(s + n, sizeof s - n, ";4");
	if (attr & GRID_REVERSE)
		n += snprintf(s + n, sizeof s - n, ";7");
	if (l.fg >= 0)
		n += snprintf(s + n, sizeof s - n, ";38;5;%d", l.fg);
	n += snprintf(s + n, sizeof s - n, "m");
	tui_buf_add(b, s, (size_t)n);
}

char *tui_screen_ansi(const struct ss_grid *g)
{
	struct tui_buf b = {0};

	tui_buf_add(&b, "", 0);
	for (int y = 0; y < g->h; y++) {
		int end = tui_row_end(g, y, true);
		const struct ss_cell *prev = NULL;

		for (int x = 0; x < end; x++) {
			const struct ss_cell *c = grid_at(g, x, y);
			char u[4];

			if (prev == NULL || prev->role != c->role || prev->attr != c->attr)
				tui_sgr(&b, c);
			prev = c;
			tui_buf_add(&b, u, (size_t)grid_utf8_encode(c->ch, u));
		}
		tui_buf_add(&b, "\033[0m\n", 5);
	}
	return b.s;
}

void tui_screen_render(struct ss_grid *g, const struct ss_timeline *tl, const struct ss_experiment *exp,
                       const char *source, int cols, int rows, bool ascii)
{
	struct ss_lanes lanes;
	struct ss_analysis an;
	struct ss_view v;
	struct ss_layout l;
	char *cause = NULL;

	grid_resize(g, cols, rows);
	g->ascii = ascii;
	lanes_init(&lanes);
	lanes_build(&lanes, tl);
	analysis_timeline(tl, &an);
	analysis_observer(&an, NULL);
	memset(&v, 0, sizeof v);
	v.gl = glyphs_get(ascii);
	v.device = tl->device;
	v.modelled = tl->modelled;
	v.backend = tl->backend[0] ? tl->backend : NULL;
	v.source = source;
	v.run = (struct ss_view_run){tl, &lanes, &an, exp};
	v.gv.sel = UINT32_MAX;
	v.stats.an = &an;
	v.stats.have_dropped = true;
	v.stats.dropped = tl->dropped;
	if (view_layout(&v, cols, rows, &l, &cause) == 0) {
		int n;

		gantt_fit(&lanes, l.plot[0].w, &v.gv.t0, &v.gv.span);
		lanes_get(&lanes, false, &n);
		v.gv.compact = n > l.plot[0].h;
	}
	free(cause);
	view_draw(g, &v);
	lanes_free(&lanes);
}

char *tui_screen_dump(const struct ss_timeline *tl, const struct ss_experiment *exp, const char *source, int cols,
                      int rows, bool ascii, bool ansi)
{
	struct ss_grid g;
	char *s;

	grid_init(&g, 0, 0);
	tui_screen_render(&g, tl, exp, source, cols, rows, ascii);
	s = ansi ? tui_screen_ansi(&g) : tui_screen_text(&g);
	grid_free(&g);
	return s;
}
