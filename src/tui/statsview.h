/* statsview.h: the stats panel: what analysis.h computed, drawn as label/value items; "-" for what is not known. */
#ifndef SS_TUI_STATSVIEW_H
#define SS_TUI_STATSVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/devsum.h"
#include "tui/glyphs.h"
#include "tui/grid.h"

/* What the panel shows besides the run's analysis. Optional values carry validity. */
struct ss_stats_in {
	const struct ss_analysis *an; /* NULL while no run finished: every value is "-" */
	bool measured;                /* captured on a GPU: the model's prediction is shown against it */
	bool have_predicted;
	uint64_t predicted_ns; /* the model's makespan of the same experiment */
	bool have_predicted_calls;
	uint64_t predicted_calls_ns; /* the same with the run's own call costs */
	bool have_dropped;
	uint64_t dropped;                 /* records the capture lost */
	const struct ss_analysis *pinned; /* A of an A/B comparison (this run is B), NULL when none */
	const struct ss_devsum *dev;      /* per device, on timelines of two or more devices; NULL: none */
	int claims;                       /* the documents' claims the run supports (claimsbox_claims), 0: no item */
	int claims_held;                  /* how many of them hold */
};

/* One item of the panel. */
struct ss_stat_item {
	char label[16];
	char value[32];
	int role; /* role of the value */
	unsigned attr;
};

#define STATS_SHOWN_DEVICES 8 /* devices with a busy item of their own; the rest are in "GPUs" */
#define STATS_MAX_ITEMS (18 + 1 + STATS_SHOWN_DEVICES)

/* statsview_items lists the panel's items in priority order into it (room for STATS_MAX_ITEMS); returns how many. */
int statsview_items(const struct ss_stats_in *s, struct ss_stat_item *it);
/* statsview_draw draws the panel into r: one item per row with a rule on the left when side, else a titled rule
 * then the items in as many columns as fit. Items that do not fit are left out, the last ones first. */
void statsview_draw(struct ss_grid *g, struct ss_rect r, bool side, const struct ss_stats_in *s,
                    const struct ss_glyphs *gl);

#endif
