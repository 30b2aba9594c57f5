/* grid.h: a grid of cells (glyph + semantic role + attributes): what every view draws into, without curses. */
#ifndef SS_TUI_GRID_H
#define SS_TUI_GRID_H

#include <stdbool.h>
#include <stdint.h>

/* Cell attributes, drawn by the terminal layer as bold / reverse video / underline. */
#define GRID_BOLD 0x01u
#define GRID_REVERSE 0x02u
#define GRID_UNDERLINE 0x04u

/* One screen cell. role is an enum ss_role; ch a Unicode code point of width 1. */
struct ss_cell {
	uint32_t ch;
	uint8_t role;
	uint8_t attr;
	uint16_t pad; /* always 0, so cells compare with memcmp */
};

/* A rectangle of the screen in cells; w or h 0 means absent. */
struct ss_rect {
	int x, y, w, h;
};

/* A w x h grid of cells, row-major. ascii: text written with grid_puts is kept to ASCII. */
struct ss_grid {
	int w, h;
	struct ss_cell *cell;
	bool ascii;
};

void grid_init(struct ss_grid *g, int w, int h);
void grid_free(struct ss_grid *g);
/* grid_resize gives g the size w x h and clears it. */
void grid_resize(struct ss_grid *g, int w, int h);
/* grid_clear fills g with blanks of role SS_ROLE_TEXT. */
void grid_clear(struct ss_grid *g);
/* grid_at returns the cell at x,y, or NULL outside the grid. */
const struct ss_cell *grid_at(const struct ss_grid *g, int x, int y);
/* grid_set writes one cell; writes outside the grid are dropped. */
void grid_set(struct ss_grid *g, int x, int y, uint32_t ch, int role, unsigned attr);
/* grid_puts writes UTF-8 text from x,y, at most maxw cells (maxw < 0: to the grid's edge), and returns the cells
 * written, one a code point (core/text's text_utf8_next). Controls and bytes that are not UTF-8 (text_printable),
 * code points that are not one cell wide, and any non-ASCII in an ascii grid become '?'. */
int grid_puts(struct ss_grid *g, int x, int y, int maxw, const char *s, int role, unsigned attr);
/* grid_printf formats then writes like grid_puts. */
int grid_printf(struct ss_grid *g, int x, int y, int maxw, int role, unsigned attr, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* grid_fill fills r (clipped to the grid) with ch. */
void grid_fill(struct ss_grid *g, struct ss_rect r, uint32_t ch, int role, unsigned attr);
/* grid_box draws a frame on the border of r (at least 2x2) with the box glyphs of the table given as the six
 * code points hline, vline, tl, tr, bl, br, and clears its inside. */
void grid_box(struct ss_grid *g, struct ss_rect r, const uint32_t sides[6], int role);
/* grid_text_width is the number of cells grid_puts would use for s. */
int grid_text_width(const char *s);
/* grid_utf8_encode writes c as UTF-8 into out (4 bytes room) and returns the length. */
int grid_utf8_encode(uint32_t c, char *out);

#endif
