/* glyphs.h: the characters the TUI draws with: a table for UTF-8 terminals and its ASCII twin, chosen once. */
#ifndef SS_TUI_GLYPHS_H
#define SS_TUI_GLYPHS_H

#include <stdbool.h>
#include <stdint.h>

/* Every glyph the views use; the ASCII table has an entry for each one of the UTF-8 table. */
struct ss_glyphs {
	bool utf8;            /* false: plain ASCII only */
	uint32_t eighths[9];  /* [e]: a bar covering e/8 of a cell from its left edge; [0] is a blank */
	uint32_t box[6];      /* box: hline, vline, top-left, top-right, bottom-left, bottom-right (grid_box) */
	uint32_t tick;        /* a tick on the time axis */
	uint32_t axis;        /* the time axis line */
	uint32_t up, down;    /* more lanes above / below */
	uint32_t left, right; /* more of the timeline before / after the window (the axis' ends) */
	uint32_t pin;         /* marks the pinned (A) timeline */
	uint32_t shade;       /* progress bar background */
	uint32_t density[3];  /* a cell of many intervals, busy up to 3/8, 6/8, short of full (full: eighths[8]) */
	bool braille;         /* plots use braille dots (2x4 per cell) */
	uint32_t marks[4];    /* plot series markers when not braille */
};

/* glyphs_get returns the ASCII table when ascii is true, the UTF-8 one otherwise. Never NULL. */
const struct ss_glyphs *glyphs_get(bool ascii);
/* glyphs_bar returns the glyph of a bar cell covering eighths/8 (clamped to 0..8) of the cell. In ASCII a (nearly)
 * full cell differs per role so that engines stay apart without colour. */
uint32_t glyphs_bar(const struct ss_glyphs *g, int eighths, int role);
/* glyphs_braille returns the braille character with the dots of mask (bit n = dot n+1 in Unicode order). */
uint32_t glyphs_braille(unsigned mask);

#endif
