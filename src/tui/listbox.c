/* listbox.c: the panels' box, list and text; see listbox.h. */
#include "tui/listbox.h"

#include <stdio.h>
#include <string.h>

#include "core/palette.h"

/* The most lines of one paragraph listbox_para keeps (more than any panel shows). */
#define LISTBOX_MAX_LINES 48

int listbox_wrap(const char *text, int width, char (*line)[LISTBOX_LINE], int max)
{
	const char *p = text;
	int n = 0;

	if (width < 1)
		width = 1;
	if (width > LISTBOX_LINE - 1)
		width = LISTBOX_LINE - 1;
	while (*p == ' ')
		p++;
	while (*p != '\0') {
		size_t len = strlen(p), cut = len, room = 0;
		const char *q = p;
		int cells = 0;

		/* the bytes of the first width cells (a UTF-8 sequence counts one cell) */
		while (*q != '\0' && cells < width) {
			q++;
			while ((*q & 0xc0) == 0x80)
				q++;
			cells++;
		}
		room = (size_t)(q - p);
		if (room < len) {
			/* the last blank within the room (or just after it), else cut the word */
			cut = room;
			for (size_t i = room; i > 0; i--)
				if (p[i] == ' ') {
					cut = i;
					break;
				}
		}
		if (n < max) {
			size_t k = cut < LISTBOX_LINE - 1 ? cut : LISTBOX_LINE - 1;

			memcpy(line[n], p, k);
			line[n][k] = '\0';
			while (k > 0 && line[n][k - 1] == ' ')
				line[n][--k] = '\0';
		}
		n++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return n;
}

struct ss_rect listbox_frame(struct ss_grid *g, struct ss_rect r, const char *title, const char *keys,
                             const struct ss_glyphs *gl)
{
	if (r.w < LISTBOX_MIN_W || r.h < LISTBOX_MIN_H)
		return (struct ss_rect){r.x, r.y, 0, 0};
	grid_box(g, r, gl->box, SS_ROLE_HIGHLIGHT);
	grid_puts(g, r.x + 2, r.y, r.w - 4, title, SS_ROLE_HIGHLIGHT, GRID_BOLD);
	grid_puts(g, r.x + 2, r.y + r.h - 1, r.w - 4, keys, SS_ROLE_DIM, 0);
	return (struct ss_rect){r.x + 2, r.y + 1, r.w - 4, r.h - 2};
}

void listbox_split(struct ss_grid *g, struct ss_rect inner, size_t n, const struct ss_glyphs *gl, struct ss_rect *list,
                   struct ss_rect *text)
{
	if (inner.w >= LISTBOX_SIDE_MIN) {
		*list = (struct ss_rect){inner.x, inner.y, LISTBOX_LIST_COLS - 1, inner.h};
		*text = (struct ss_rect){inner.x + LISTBOX_LIST_COLS + 2, inner.y, inner.w - LISTBOX_LIST_COLS - 2,
		                         inner.h};
		for (int y = inner.y; y < inner.y + inner.h; y++)
			grid_set(g, inner.x + LISTBOX_LIST_COLS, y, gl->box[1], SS_ROLE_AXIS, 0);
	} else {
		int lh = n < (size_t)(inner.h / 2) ? (int)n : inner.h / 2;

		*list = (struct ss_rect){inner.x, inner.y, inner.w, lh};
		grid_fill(g, (struct ss_rect){inner.x, inner.y + lh, inner.w, 1}, gl->box[0], SS_ROLE_AXIS, 0);
		*text = (struct ss_rect){inner.x, inner.y + lh + 1, inner.w, inner.h - lh - 1};
	}
}

void listbox_list(struct ss_grid *g, struct ss_rect r, const struct ss_listbox_item *it, size_t n, size_t cur)
{
	size_t first = 0;

	if (r.h <= 0 || r.w <= 0)
		return;
	if (cur >= (size_t)r.h)
		first = cur - (size_t)r.h + 1;
	for (size_t i = first; i < n && (int)(i - first) < r.h; i++) {
		int y = r.y + (int)(i - first);
		unsigned attr = i == cur ? GRID_REVERSE : 0;

		grid_fill(g, (struct ss_rect){r.x, y, r.w, 1}, ' ', SS_ROLE_TEXT, attr);
		grid_set(g, r.x, y, it[i].mark, it[i].role, attr | GRID_BOLD);
		grid_puts(g, r.x + 2, y, r.w - 2, it[i].label, it[i].role, attr | GRID_BOLD);
	}
}

void listbox_para(struct ss_grid *g, struct ss_rect r, int *y, int end, const char *label, const char *body, int role)
{
	char line[LISTBOX_MAX_LINES][LISTBOX_LINE], text[1100];
	int n, lw = (int)strlen(label);

	if (r.w <= 0)
		return;
	snprintf(text, sizeof text, "%s%s", label, body);
	n = listbox_wrap(text, r.w, line, LISTBOX_MAX_LINES);
	for (int i = 0; i < n && i < LISTBOX_MAX_LINES && *y < end; i++, (*y)++) {
		int skip = i == 0 && (int)strlen(line[i]) >= lw ? lw : 0;

		if (skip > 0)
			grid_puts(g, r.x, *y, skip, line[i], SS_ROLE_DIM, 0);
		grid_puts(g, r.x + skip, *y, r.w - skip, line[i] + skip, role, 0);
	}
}
