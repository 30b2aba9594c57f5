/* scheme.c: role -> colour and attributes, per terminal capability (256 -> 8 -> none). */
#include "tui/scheme.h"

#include <stddef.h>

#include "core/palette.h"
#include "tui/grid.h"

/* Roles whose text keeps the terminal's own foreground, so light and dark themes both read well. */
static bool scheme_default_fg(int role)
{
	return role == SS_ROLE_TEXT;
}

/* Monochrome: attributes only. Bars look alike; their lanes are labelled and ASCII bars differ per engine. */
static const unsigned scheme_mono[SS_ROLE_COUNT] = {
    [SS_ROLE_KERNEL] = GRID_BOLD,
    [SS_ROLE_SYNC] = GRID_BOLD,
    [SS_ROLE_DEFAULT_STREAM] = GRID_BOLD,
    [SS_ROLE_AXIS] = SCHEME_DIM,
    [SS_ROLE_DIM] = SCHEME_DIM,
    [SS_ROLE_HIGHLIGHT] = GRID_REVERSE,
    [SS_ROLE_WARN] = GRID_BOLD | GRID_UNDERLINE,
};

enum ss_scheme scheme_pick(int colors, const char *no_color)
{
	if (no_color != NULL && no_color[0] != '\0')
		return SCHEME_MONO;
	if (colors >= 256)
		return SCHEME_256;
	if (colors >= 8)
		return SCHEME_8;
	return SCHEME_MONO;
}

struct ss_look scheme_look(enum ss_scheme s, int role)
{
	const struct ss_colour *c = palette_get(role);

	if (role < 0 || role >= SS_ROLE_COUNT)
		role = SS_ROLE_TEXT;
	switch (s) {
	case SCHEME_256:
		return (struct ss_look){scheme_default_fg(role) ? -1 : (short)c->xterm256, 0};
	case SCHEME_8:
		if (scheme_default_fg(role))
			return (struct ss_look){-1, 0};
		if (role == SS_ROLE_DIM || role == SS_ROLE_AXIS)
			return (struct ss_look){(short)c->ansi8, SCHEME_DIM};
		/* dark blues and reds are hard to read on black without bold */
		return (struct ss_look){
		    (short)c->ansi8,
		    role == SS_ROLE_KERNEL || role == SS_ROLE_HIGHLIGHT || role == SS_ROLE_WARN ? GRID_BOLD : 0};
	default:
		return (struct ss_look){-1, scheme_mono[role]};
	}
}

const char *scheme_name(enum ss_scheme s)
{
	static const char *const names[SCHEME_COUNT] = {"256", "8", "mono"};

	return s < SCHEME_COUNT ? names[s] : "?";
}
