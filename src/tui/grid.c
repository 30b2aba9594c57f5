/* grid.c: the cell grid every view draws into. */
#include "tui/grid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/palette.h"
#include "core/text.h"
#include "core/xalloc.h"

void grid_init(struct ss_grid *g, int w, int h)
{
	memset(g, 0, sizeof *g);
	grid_resize(g, w, h);
}

void grid_free(struct ss_grid *g)
{
	free(g->cell);
	g->cell = NULL;
	g->w = g->h = 0;
}

void grid_resize(struct ss_grid *g, int w, int h)
{
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	if (w != g->w || h != g->h) {
		free(g->cell);
		g->cell = xcalloc((size_t)w * (size_t)h + 1, sizeof *g->cell);
		g->w = w;
		g->h = h;
	}
	grid_clear(g);
}

void grid_clear(struct ss_grid *g)
{
	size_t n = (size_t)g->w * (size_t)g->h;

	for (size_t i = 0; i < n; i++)
		g->cell[i] = (struct ss_cell){' ', SS_ROLE_TEXT, 0, 0};
}

const struct ss_cell *grid_at(const struct ss_grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cell[(size_t)y * g->w + x];
}

void grid_set(struct ss_grid *g, int x, int y, uint32_t ch, int role, unsigned attr)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return;
	g->cell[(size_t)y * g->w + x] = (struct ss_cell){ch, (uint8_t)role, (uint8_t)attr, 0};
}

int grid_utf8_encode(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* grid_printable maps a code point (or TEXT_INVALID) to what one cell shows: text_printable's '?' for controls and
 * bytes that are not UTF-8, and '?' too when not one cell wide or, in an ascii grid, not ASCII. */
static uint32_t grid_printable(const struct ss_grid *g, uint32_t c)
{
	c = text_printable(c);
	if (c < 0x80)
		return c;
	if (g != NULL && g->ascii)
		return '?';
	return wcwidth((wchar_t)c) == 1 ? c : '?';
}

int grid_puts(struct ss_grid *g, int x, int y, int maxw, const char *s, int role, unsigned attr)
{
	int n = 0;
	uint32_t c;

	if (s == NULL)
		return 0;
	if (maxw < 0)
		maxw = g->w - x;
	while (n < maxw && (c = text_utf8_next(&s)) != 0) {
		grid_set(g, x + n, y, grid_printable(g, c), role, attr);
		n++;
	}
	return n;
}

int grid_printf(struct ss_grid *g, int x, int y, int maxw, int role, unsigned attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return grid_puts(g, x, y, maxw, buf, role, attr);
}

void grid_fill(struct ss_grid *g, struct ss_rect r, uint32_t ch, int role, unsigned attr)
{
	for (int y = r.y; y < r.y + r.h; y++)
		for (int x = r.x; x < r.x + r.w; x++)
			grid_set(g, x, y, ch, role, attr);
}

void grid_box(struct ss_grid *g, struct ss_rect r, const uint32_t sides[6], int role)
{
	if (r.w < 2 || r.h < 2)
		return;
	grid_fill(g, (struct ss_rect){r.x + 1, r.y + 1, r.w - 2, r.h - 2}, ' ', SS_ROLE_TEXT, 0);
	for (int x = r.x + 1; x < r.x + r.w - 1; x++) {
		grid_set(g, x, r.y, sides[0], role, 0);
		grid_set(g, x, r.y + r.h - 1, sides[0], role, 0);
	}
	for (int y = r.y + 1; y < r.y + r.h - 1; y++) {
		grid_set(g, r.x, y, sides[1], role, 0);
		grid_set(g, r.x + r.w - 1, y, sides[1], role, 0);
	}
	grid_set(g, r.x, r.y, sides[2], role, 0);
	grid_set(g, r.x + r.w - 1, r.y, sides[3], role, 0);
	grid_set(g, r.x, r.y + r.h - 1, sides[4], role, 0);
	grid_set(g, r.x + r.w - 1, r.y + r.h - 1, sides[5], role, 0);
}

int grid_text_width(const char *s)
{
	int n = 0;

	if (s == NULL)
		return 0;
	while (text_utf8_next(&s) != 0)
		n++;
	return n;
}
