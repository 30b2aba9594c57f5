/* view.h: one frame of the TUI as plain data, and the function that draws it into a cell grid. The view only
 * places what the model computed (htop's Meter: values vs draw); it includes no curses. */
#ifndef SS_TUI_VIEW_H
#define SS_TUI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/summary.h"
#include "run/sweep.h"
#include "tui/advicebox.h"
#include "tui/claimsbox.h"
#include "tui/gantt.h"
#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/insightbox.h"
#include "tui/lanes.h"
#include "tui/layout.h"
#include "tui/statsview.h"

/* One timeline as the screen shows it. */
struct ss_view_run {
	const struct ss_timeline *tl;    /* NULL: nothing to show yet */
	const struct ss_lanes *lanes;    /* its index (built from tl) */
	const struct ss_analysis *an;    /* NULL until the run finished */
	const struct ss_experiment *exp; /* NULL for files */
};

/* Everything one frame shows. */
struct ss_view {
	const struct ss_glyphs *gl;
	const char *device;        /* "NVIDIA H200", "MODEL (H200 profile)" */
	bool modelled;             /* the header labels the run as MODEL */
	const char *backend;       /* "cuda", "model", "file" */
	const char *source;        /* view mode: the file shown; NULL otherwise */
	const char *expfile;       /* the experiment file the first run was read from; NULL when none */
	bool no_experiment;        /* the experiment keys are off (a file, a recording): help and status say so */
	const char *pending;       /* a run of another experiment in progress: its one-liner; NULL when none */
	bool running;              /* a run is in progress (the shown one or pending) */
	const char *progress;      /* the runner's latest progress line, may be NULL */
	size_t live_records;       /* records received by the run in progress */
	struct ss_view_run run;    /* the run shown (B of an A/B) */
	struct ss_view_run pinned; /* A of an A/B; tl NULL when nothing is pinned */
	struct ss_gantt_view gv;   /* window, lanes scroll, selection (a record of run) */
	struct ss_stats_in stats;
	int help;                         /* the help overlay: 0 closed, 1 the keys, 2 the legend */
	const struct ss_summary *summary; /* the summary panel of run's timeline is open (NULL: closed) */
	const struct ss_sweep *sweep;     /* the sweep view is open (NULL: closed) */
	size_t sweep_cursor;              /* the sweep point the cursor is on */
	bool sweep_running;
	const char *message; /* the status line's message, NULL for the keys */
	int message_role;

	const struct ss_insightbox_view *insights; /* the insights panel is open (NULL: closed); its selected entry's
	                                              evidence is marked on run's Gantt */
	const struct ss_advicebox_view *advice;    /* the advice panel is open (NULL: closed); it takes the panel's
	                                              place (insights NULL then) */
	const struct ss_claimsbox_view *claims;    /* the claims panel is open (NULL: closed): the panel's place, over
	                                              the sweep view too (insights and advice NULL then) */
};

/* view_layout computes the layout view_draw uses at cols x rows (from the overlays open, the A/B, and the label
 * column run.lanes and pinned.lanes ask for in gv.compact's form); -1 with *cause when too small. */
int view_layout(const struct ss_view *v, int cols, int rows, struct ss_layout *l, char **cause);
/* view_layout_fit is view_layout into *l for a caller that needs no cause: l, or NULL when cols x rows is too small.
 */
const struct ss_layout *view_layout_fit(const struct ss_view *v, int cols, int rows, struct ss_layout *l);
/* view_draw draws v over the whole of g. Below the minimum size it draws only "terminal too small". */
void view_draw(struct ss_grid *g, const struct ss_view *v);
/* view_detail_lines writes the detail box lines of record r of run (label/value pairs, at most max) and
 * returns how many; shared by the box and the tests. */
int view_detail_lines(const struct ss_view_run *run, uint32_t r, char (*label)[12], char (*value)[64], int max);

#endif
