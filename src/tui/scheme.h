/* scheme.h: how each semantic role looks on a 256-colour, an 8-colour and a monochrome terminal. */
#ifndef SS_TUI_SCHEME_H
#define SS_TUI_SCHEME_H

#include <stdbool.h>

/* Colour schemes, richest first. */
enum ss_scheme { SCHEME_256 = 0, SCHEME_8, SCHEME_MONO, SCHEME_COUNT };

/* Extra attribute beyond grid.h's: dim text. */
#define SCHEME_DIM 0x80u

/* The look of one role: a foreground colour (-1: the terminal's own) and attributes (GRID_*, SCHEME_DIM). */
struct ss_look {
	short fg;
	unsigned attr;
};

/* scheme_pick chooses the scheme from the colours the terminal reports and NO_COLOR (set and non-empty: mono). */
enum ss_scheme scheme_pick(int colors, const char *no_color);
/* scheme_look returns how role looks in scheme s. */
struct ss_look scheme_look(enum ss_scheme s, int role);
/* scheme_name: "256", "8", "mono". */
const char *scheme_name(enum ss_scheme s);

#endif
