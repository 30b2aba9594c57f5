/* palette.h: the fixed semantic colours of streamscope, the same in the TUI and in every export. */
#ifndef SS_CORE_PALETTE_H
#define SS_CORE_PALETTE_H

#include <stdint.h>

/* Semantic colour roles. Engines first, in ss_kind order, so a record's kind is its role. */
enum ss_role {
	SS_ROLE_H2D = 0,        /* green */
	SS_ROLE_D2H,            /* red/orange */
	SS_ROLE_D2D,            /* yellow */
	SS_ROLE_MEMSET,         /* grey */
	SS_ROLE_KERNEL,         /* blue */
	SS_ROLE_API,            /* cyan */
	SS_ROLE_SYNC,           /* magenta: host waiting */
	SS_ROLE_MARKER,         /* white: NVTX ranges */
	SS_ROLE_DEFAULT_STREAM, /* the legacy default stream's work */
	SS_ROLE_AXIS,
	SS_ROLE_TEXT,
	SS_ROLE_DIM,
	SS_ROLE_HIGHLIGHT, /* selection */
	SS_ROLE_WARN,      /* MODEL label, errors */
	SS_ROLE_COUNT
};

/* One colour in three forms: 24-bit (SVG, Chrome), xterm-256 index, and the 8-colour fallback (curses COLOR_*). */
struct ss_colour {
	uint32_t rgb; /* 0xRRGGBB */
	int xterm256;
	int ansi8; /* 0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white */
};

/* palette_get returns the colour of a role (role out of range: SS_ROLE_TEXT). */
const struct ss_colour *palette_get(int role);
/* palette_chrome_cname returns a Chrome trace "cname" reserved colour name close to the role. */
const char *palette_chrome_cname(int role);

#endif
