/* listbox.h: what the TUI's panels (insights, claims, advice) share: a titled box, a list of entries with one
 * selected, beside or above the selected entry's text, and text wrapped at blanks. Pure: it draws into a grid. */
#ifndef SS_TUI_LISTBOX_H
#define SS_TUI_LISTBOX_H

#include <stddef.h>
#include <stdint.h>

#include "tui/glyphs.h"
#include "tui/grid.h"

/* listbox_wrap breaks text into lines of at most width cells at blanks (a word longer than width is cut), into
 * line[0..max) of LISTBOX_LINE bytes each; returns the number of lines it needed (may exceed max: those are not
 * written). */
#define LISTBOX_LINE 256
int listbox_wrap(const char *text, int width, char (*line)[LISTBOX_LINE], int max);

/* listbox_frame draws a box into r, title on its top edge and keys (dim) on its bottom edge, and returns the rect
 * inside it (a blank column each side); below 20x5 it draws nothing and returns a rect of width 0. */
#define LISTBOX_MIN_W 20
#define LISTBOX_MIN_H 5
struct ss_rect listbox_frame(struct ss_grid *g, struct ss_rect r, const char *title, const char *keys,
                             const struct ss_glyphs *gl);

/* One entry of a list: a one-cell mark and a label, both in role. */
struct ss_listbox_item {
	uint32_t mark;
	int role;
	const char *label;
};

/* listbox_split places a list of n entries and the selected entry's text in inner: side by side from
 * LISTBOX_SIDE_MIN columns (the list LISTBOX_LIST_COLS - 1 wide, a blank, a rule, a blank, the text), else stacked (the
 * list on top, at most half the rows, a rule, the text); it draws the rule. */
#define LISTBOX_LIST_COLS 25
#define LISTBOX_SIDE_MIN 70
void listbox_split(struct ss_grid *g, struct ss_rect inner, size_t n, const struct ss_glyphs *gl, struct ss_rect *list,
                   struct ss_rect *text);

/* listbox_list draws it[0..n) into r, one a row (mark, blank, label in bold), the entry cur in reverse video and
 * kept in view. */
void listbox_list(struct ss_grid *g, struct ss_rect r, const struct ss_listbox_item *it, size_t n, size_t cur);

/* listbox_para draws label then body, wrapped to r's width, from row *y while it is below end; the label (dim)
 * opens the first line, the body is in role. Advances *y past the rows drawn. */
void listbox_para(struct ss_grid *g, struct ss_rect r, int *y, int end, const char *label, const char *body, int role);

#endif
