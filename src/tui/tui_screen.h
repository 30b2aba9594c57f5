/* tui_screen.h: screen dumps from the cell grid (plain text, ANSI text) and a one-shot render of a timeline as
 * the TUI shows it, for exports and the CLI. Pure: no curses, no terminal needed. */
#ifndef SS_TUI_TUI_SCREEN_H
#define SS_TUI_TUI_SCREEN_H

#include <stdbool.h>

#include "core/experiment.h"
#include "core/timeline.h"
#include "tui/grid.h"

/* tui_screen_text returns g as UTF-8 text, a line per row with trailing blanks trimmed (caller frees). */
char *tui_screen_text(const struct ss_grid *g);
/* tui_screen_ansi returns g as text with SGR escapes: xterm-256 colours of palette.h (the terminal's own
 * foreground for plain text), bold, reverse, underline, dim; every line ends with a reset (caller frees). */
char *tui_screen_ansi(const struct ss_grid *g);
/* tui_screen_render draws tl as the TUI shows it when fitted (no selection, no overlay) into g, resized to
 * cols x rows. exp (may be NULL) is shown in the header; source (may be NULL) names a file instead. */
void tui_screen_render(struct ss_grid *g, const struct ss_timeline *tl, const struct ss_experiment *exp,
                       const char *source, int cols, int rows, bool ascii);
/* tui_screen_dump renders like tui_screen_render and returns the text (ansi false) or ANSI text (caller frees). */
char *tui_screen_dump(const struct ss_timeline *tl, const struct ss_experiment *exp, const char *source, int cols,
                      int rows, bool ascii, bool ansi);

#endif
