/* keys.h: the key map: one table drives both the dispatch and the help overlay, so they cannot disagree. */
#ifndef SS_TUI_KEYS_H
#define SS_TUI_KEYS_H

#include <stdbool.h>

/* Keys that are not characters, as the terminal layer reports them (above every Unicode code point). */
enum ss_keycode {
	KEYS_ESC = 27,
	KEYS_BASE = 0x110000,
	KEYS_UP,
	KEYS_DOWN,
	KEYS_LEFT,
	KEYS_RIGHT,
	KEYS_SLEFT,  /* shift-left */
	KEYS_SRIGHT, /* shift-right */
	KEYS_PPAGE,
	KEYS_NPAGE,
	KEYS_HOME,
	KEYS_END,
	KEYS_BTAB, /* shift-tab */
	KEYS_ENTER,
	KEYS_F1,
	KEYS_F10,
	KEYS_RESIZE, /* the terminal changed size */
	KEYS_MOUSE,  /* a mouse event: see struct ss_mouse */
};

/* What a key does. */
enum ss_action {
	ACT_NONE = 0,
	ACT_QUIT,
	ACT_HELP,
	ACT_CLOSE,           /* close the overlay or clear the selection */
	ACT_ORDER,           /* toggle depth/breadth issue order and re-run */
	ACT_SYNC,            /* cycle the sync order */
	ACT_DEFSTREAM,       /* cycle default-stream interference */
	ACT_HOSTMEM,         /* cycle host memory */
	ACT_QUEUES,          /* cycle hardware queues 1,2,4,8,16,32 */
	ACT_THREADS,         /* one host thread, or one per stream */
	ACT_PREFETCH_EVENTS, /* time prefetches with cudaEvents (GPU) or not */
	ACT_PRESET,          /* cycle presets */
	ACT_STREAMS_UP,
	ACT_STREAMS_DOWN,
	ACT_STREAMS_DOUBLE,
	ACT_STREAMS_HALVE,
	ACT_RERUN,
	ACT_REREAD,
	ACT_PAN_LEFT,
	ACT_PAN_RIGHT,
	ACT_PAGE_LEFT,
	ACT_PAGE_RIGHT,
	ACT_START, /* pan to the start */
	ACT_END,   /* pan to the end */
	ACT_ZOOM_IN,
	ACT_ZOOM_OUT,
	ACT_FIT,       /* fit the work: the GPU's records */
	ACT_FIT_ALL,   /* fit everything, host-only spans too */
	ACT_SCROLL_UP, /* lanes */
	ACT_SCROLL_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_NEXT, /* select the next interval on the lane */
	ACT_PREV,
	ACT_LANE_DOWN, /* move the selection to the lane below */
	ACT_LANE_UP,
	ACT_ZOOM_SEL, /* zoom to the selected interval */
	ACT_PIN,      /* A/B: pin the current timeline, or unpin */
	ACT_SWEEP,    /* sweep view */
	ACT_EXPORT,   /* snapshot */
	ACT_COMPACT,  /* one row per stream, or H2D/KER/D2H lanes */
	ACT_SUMMARY,  /* the kernel and copy summary panel (as nsys stats) */
	ACT_INSIGHTS, /* the insights panel: what limits the run, why, the fix */
	ACT_ADVISE,   /* the advice panel: the configuration the model predicts best, Enter applies it */
	ACT_CLAIMS,   /* the claims panel: the documents' claims the run or the sweep on screen supports */
	ACT_REDRAW,
	ACT_COUNT
};

/* Groups of the help overlay. */
enum ss_keygroup { KG_EXPERIMENT = 0, KG_MOVE, KG_SELECT, KG_VIEWS, KG_GENERAL, KG_COUNT };

/* One binding. */
struct ss_key {
	int key; /* a character or an ss_keycode */
	enum ss_action act;
	const char *name; /* how the help writes the key, e.g. "Tab"; NULL: merged into the previous entry */
	const char *help; /* what it does */
	enum ss_keygroup group;
	bool experiment; /* changes the experiment: unavailable when viewing a file */
};

/* A mouse event in screen cells. */
struct ss_mouse {
	int x, y;
	enum { MOUSE_CLICK, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN, MOUSE_OTHER } what;
};

/* keys_action returns the action of key, ACT_NONE when unbound. */
enum ss_action keys_action(int key);
/* keys_table returns the bindings and their number, in help order. */
const struct ss_key *keys_table(int *n);
/* keys_group_name names a help group. */
const char *keys_group_name(enum ss_keygroup g);
/* keys_experiment tells whether act changes the experiment (disabled in view mode). */
bool keys_experiment(enum ss_action act);
/* keys_mouse says what the mouse does, for the help after the key table. */
const char *keys_mouse(void);
/* keys_status is the one-line summary of the main keys for the status line. */
const char *keys_status(bool file);
/* keys_status_sweep is the same for the sweep view: only the keys that work there. */
const char *keys_status_sweep(void);

#endif
