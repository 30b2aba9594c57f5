/* term.h: the terminal, through ncursesw: the only module that includes curses. It shows cell grids (writing
 * only the cells that changed), reads keys and mouse events, and restores the terminal on every way out. */
#ifndef SS_TUI_TERM_H
#define SS_TUI_TERM_H

#include <stdbool.h>

#include "tui/grid.h"
#include "tui/keys.h"
#include "tui/scheme.h"

/* The terminal's state. */
struct ss_term {
	bool started;
	bool utf8; /* the locale's codeset is UTF-8 (and ASCII was not forced) */
	enum ss_scheme scheme;
	struct ss_grid shown; /* what the screen shows now, for diff-only updates */
	bool full;            /* the next draw repaints every cell */
	int in_flags;         /* stdin's file status flags before term_start (-1: unknown), put back by term_stop */
};

/* term_start takes over the terminal: locale, curses on stdin/stdout, alternate screen, colours (256 -> 8 -> none,
 * NO_COLOR), mouse (click and wheel only), invisible cursor. ascii forces ASCII glyphs. 0, or -1 with *cause
 * (not a terminal, unknown TERM) and the terminal untouched. */
int term_start(struct ss_term *t, bool ascii, char **cause);
/* term_stop gives the terminal back (main screen, visible cursor, mouse off, modes restored). Safe to call twice
 * and from the xalloc fatal hook. */
void term_stop(struct ss_term *t);
/* term_size returns the terminal's size now. */
void term_size(struct ss_term *t, int *cols, int *rows);
/* term_draw shows g, writing only the cells that differ from what is shown, then one update of the screen. */
void term_draw(struct ss_term *t, const struct ss_grid *g);
/* term_invalidate makes the next term_draw repaint everything (^L, resize). */
void term_invalidate(struct ss_term *t);
/* term_key returns the next key without waiting: a character, an ss_keycode (KEYS_MOUSE fills *m), or -1. */
int term_key(struct ss_term *t, struct ss_mouse *m);

#endif
