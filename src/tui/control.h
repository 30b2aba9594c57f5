/* control.h: what the keys and the mouse do to the view, as a pure state machine: window, lane scroll, selection,
 * compact mode and the overlays. It never runs anything: a key that needs the session (re-run, pin, sweep,
 * export) comes back as an effect for the caller to carry out. No curses, no clock, no processes, so a fuzzer can
 * drive it with any sequence of keys, sizes and runs. */
#ifndef SS_TUI_CONTROL_H
#define SS_TUI_CONTROL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/experiment.h"
#include "run/advise.h"
#include "run/sweep.h"
#include "tui/advicebox.h"
#include "tui/claimsbox.h"
#include "tui/gantt.h"
#include "tui/insightbox.h"
#include "tui/keys.h"
#include "tui/lanes.h"
#include "tui/layout.h"

/* What the controls act on: the runs on screen as the session holds them now. */
struct ss_control_input {
	const struct ss_lanes *run;      /* the shown run's index (B of an A/B), NULL when none */
	uint64_t run_id;                 /* which run that is (another id: another run, its records renumbered) */
	const struct ss_lanes *pinned;   /* A of an A/B, NULL when none */
	const struct ss_experiment *exp; /* what experiment keys change, NULL when nothing can run */
	bool file;                       /* viewing a file: the experiment keys are off */
	const struct ss_layout *layout;  /* the frame's layout, NULL when the terminal is too small */
	const struct ss_sweep *sweep;    /* the sweep the sweep view shows, NULL when none */

	const struct ss_insights *insights; /* the shown run's insights (insightbox_analyze), NULL when none */
	const struct ss_advice *advice;     /* the advice for exp while its panel is open (advicebox_advise), NULL
	                                       when none */
	int nclaims;                        /* the claims the claims panel lists while it is open (claimsbox_claims) */
};

#define CONTROL_HELP_KEYS 1   /* the help overlay's first page: the keys */
#define CONTROL_HELP_LEGEND 2 /* its second: what the lanes, tags, colours and stats mean */

/* What a key asks of the caller. */
enum ss_control_effect {
	CONTROL_NONE = 0,
	CONTROL_RUN,        /* run the experiment written to *exp */
	CONTROL_PIN,        /* pin the shown run or unpin; then call control_pinned */
	CONTROL_SWEEP,      /* start (or keep) the sweep of the current experiment: the sweep view opened */
	CONTROL_EXPORT,     /* write a snapshot of the window */
	CONTROL_REDRAW,     /* repaint the whole terminal */
	CONTROL_OPEN_POINT, /* show the timeline of sweep point sweep_cur (the sweep view closes when it can) */
	CONTROL_REREAD,     /* read the experiment file again and run what it says now */
};

/* The controls' state. gv.sel is always a record of the run control_sync last saw, or UINT32_MAX. */
struct ss_control {
	struct ss_gantt_view gv;
	bool follow;       /* the window fits the runs until the user zooms or pans (a re-run asked for fits again) */
	bool fit_all;      /* fitting covers everything (F), not only the GPU's work (f) */
	bool compact_auto; /* compact lanes chosen by size, not by the user */
	int help;          /* the help overlay: 0 closed, CONTROL_HELP_KEYS, CONTROL_HELP_LEGEND */
	bool sweep;        /* the sweep view is open */
	bool summary;      /* the kernel and copy summary panel is open */
	size_t sweep_cur;  /* the sweep point under the cursor (order-major, as the sweep's points) */
	bool quit;
	uint64_t run_id;   /* the run the selection belongs to */
	char message[160]; /* a notice for the status line, set by the last action ("" when none) */
	int message_role;  /* its enum ss_role */

	struct ss_insightbox insight; /* the insights panel (i): open, and the entry selected */
	struct ss_advicebox advice;   /* the advice panel (a): open */
	struct ss_claimsbox claims;   /* the claims panel (C): open, and the claim selected; over the timeline and the
	                                 sweep view alike */
};

/* control_init: window fitted, nothing selected, compact by size. */
void control_init(struct ss_control *c);
/* control_sync makes c consistent with in: the selection is dropped when the run changed or does not hold it;
 * with a layout, the window is fitted (while following) and clamped to the runs (shown and pinned: no time before
 * the earlier start nor after the later end and a cell's margin, gantt_clamp), compact mode is chosen (when automatic)
 * and the lane scroll kept within the lanes. Called before every frame and by control_action and control_mouse. */
void control_sync(struct ss_control *c, const struct ss_control_input *in);
/* control_action applies act. c->message is cleared, then set when the action has something to say. Returns the
 * effect the caller must carry out; CONTROL_RUN writes the new, validated experiment to *exp. Without a layout (the
 * terminal too small) only ACT_QUIT acts: every other action is ignored and CONTROL_NONE returned. */
enum ss_control_effect control_action(struct ss_control *c, const struct ss_control_input *in, enum ss_action act,
                                      struct ss_experiment *exp);
/* control_mouse applies a click (select) or a wheel turn (zoom around the pointer); nothing without a layout. */
void control_mouse(struct ss_control *c, const struct ss_control_input *in, const struct ss_mouse *m);
/* control_pinned tells c what CONTROL_PIN did (pinned: something is pinned now; had: something was pinned
 * before): the selection is dropped and the status line says so. */
void control_pinned(struct ss_control *c, bool pinned, bool had);

#endif
