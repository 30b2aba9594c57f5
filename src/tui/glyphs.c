/* glyphs.c: the UTF-8 glyph table and its ASCII twin. */
#include "tui/glyphs.h"

#include "core/palette.h"

static const struct ss_glyphs glyphs_utf8 = {
    .utf8 = true,
    /* U+258F LEFT ONE EIGHTH BLOCK .. U+2589 LEFT SEVEN EIGHTHS BLOCK, U+2588 FULL BLOCK */
    .eighths = {' ', 0x258F, 0x258E, 0x258D, 0x258C, 0x258B, 0x258A, 0x2589, 0x2588},
    .box = {0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518},
    .tick = 0x252C,
    .axis = 0x2500,
    .up = 0x25B2,
    .down = 0x25BC,
    .left = 0x25C0,
    .right = 0x25B6,
    .pin = 0x25C6,
    .shade = 0x2591,
    .density = {0x2591, 0x2592, 0x2593},
    .braille = true,
    .marks = {0x25CF, 0x25A0, 0x00B7, 0x2715},
};

static const struct ss_glyphs glyphs_ascii = {
    .utf8 = false,
    .eighths = {' ', '.', '.', ':', ':', '=', '=', '#', '#'},
    .box = {'-', '|', '+', '+', '+', '+'},
    .tick = '+',
    .axis = '-',
    .up = '^',
    .down = 'v',
    .left = '<',
    .right = '>',
    .pin = '*',
    .shade = '.',
    .density = {'.', ':', '='},
    .braille = false,
    .marks = {'*', '+', '.', 'x'},
};

/* Full cells in ASCII (7 or 8 eighths): one glyph per engine, so a monochrome ASCII screen still tells them apart. */
static const uint32_t glyphs_ascii_full[SS_ROLE_COUNT] = {
    [SS_ROLE_H2D] = '>',       [SS_ROLE_D2H] = '<',    [SS_ROLE_D2D] = '=',
    [SS_ROLE_MEMSET] = '%',    [SS_ROLE_KERNEL] = '#', [SS_ROLE_API] = '-',
    [SS_ROLE_SYNC] = '~',      [SS_ROLE_MARKER] = '_', [SS_ROLE_DEFAULT_STREAM] = '@',
    [SS_ROLE_HIGHLIGHT] = '$',
};

const struct ss_glyphs *glyphs_get(bool ascii)
{
	return ascii ? &glyphs_ascii : &glyphs_utf8;
}

uint32_t glyphs_bar(const struct ss_glyphs *g, int eighths, int role)
{
	if (eighths <= 0)
		return g->eighths[0];
	if (eighths >= 7 && !g->utf8 && role >= 0 && role < SS_ROLE_COUNT && glyphs_ascii_full[role] != 0)
		return glyphs_ascii_full[role];
	if (eighths > 8)
		eighths = 8;
	return g->eighths[eighths];
}

uint32_t glyphs_braille(unsigned mask)
{
	return 0x2800 + (mask & 0xffu);
}
