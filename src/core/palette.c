/* palette.c: the semantic colour table. */
#include "core/palette.h"

static const struct ss_colour palette_table[SS_ROLE_COUNT] = {
    [SS_ROLE_H2D] = {0x2ca02c, 34, 2},
    [SS_ROLE_D2H] = {0xe4572e, 202, 1},
    [SS_ROLE_D2D] = {0xd4b000, 178, 3},
    [SS_ROLE_MEMSET] = {0x8c8c8c, 245, 7},
    [SS_ROLE_KERNEL] = {0x3b75d9, 33, 4},
    [SS_ROLE_API] = {0x17becf, 37, 6},
    [SS_ROLE_SYNC] = {0xc43fb8, 170, 5},
    [SS_ROLE_MARKER] = {0xdddddd, 252, 7},
    [SS_ROLE_DEFAULT_STREAM] = {0xf0a030, 214, 3},
    [SS_ROLE_AXIS] = {0x888888, 244, 7},
    [SS_ROLE_TEXT] = {0xe0e0e0, 253, 7},
    [SS_ROLE_DIM] = {0x666666, 241, 7},
    [SS_ROLE_HIGHLIGHT] = {0xffff66, 227, 3},
    [SS_ROLE_WARN] = {0xff5050, 203, 1},
};

static const char *const palette_cnames[SS_ROLE_COUNT] = {
    [SS_ROLE_H2D] = "good",
    [SS_ROLE_D2H] = "terrible",
    [SS_ROLE_D2D] = "yellow",
    [SS_ROLE_MEMSET] = "grey",
    [SS_ROLE_KERNEL] = "rail_response",
    [SS_ROLE_API] = "thread_state_running",
    [SS_ROLE_SYNC] = "thread_state_iowait",
    [SS_ROLE_MARKER] = "generic_work",
    [SS_ROLE_DEFAULT_STREAM] = "bad",
    [SS_ROLE_AXIS] = "grey",
    [SS_ROLE_TEXT] = "white",
    [SS_ROLE_DIM] = "grey",
    [SS_ROLE_HIGHLIGHT] = "yellow",
    [SS_ROLE_WARN] = "terrible",
};

const struct ss_colour *palette_get(int role)
{
	if (role < 0 || role >= SS_ROLE_COUNT)
		role = SS_ROLE_TEXT;
	return &palette_table[role];
}

const char *palette_chrome_cname(int role)
{
	if (role < 0 || role >= SS_ROLE_COUNT)
		role = SS_ROLE_TEXT;
	return palette_cnames[role];
}
