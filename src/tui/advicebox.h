/* advicebox.h: the advice panel (key a): what the advisor (run/advise) recommends for the experiment on screen,
 * searched on the model: the best configuration, its predicted time and gain over the current one, and why,
 * labelled modelled; Enter applies it (re-runs the experiment with it), Esc or a closes. The key handling and the
 * drawing are pure (no curses); the cache searches once per experiment. */
#ifndef SS_TUI_ADVICEBOX_H
#define SS_TUI_ADVICEBOX_H

#include <stdbool.h>

#include "core/experiment.h"
#include "run/advise.h"
#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/keys.h"

/* The panel's state in the controls. */
struct ss_advicebox {
	bool open;
};

/* What advicebox_key asks of the controls. */
enum ss_advicebox_effect {
	ADVICEBOX_IGNORED = 0, /* not the panel's key: the controls handle it as usual */
	ADVICEBOX_DONE,        /* handled (the panel closed, or nothing to apply) */
	ADVICEBOX_APPLY,       /* handled: run the advice's best configuration; the panel closed */
};

/* advicebox_key applies act to an open panel over a (NULL: no advice): Enter applies a's best (APPLY, unless it is
 * the current configuration: DONE), Esc and a close the panel. Other actions are IGNORED. */
enum ss_advicebox_effect advicebox_key(struct ss_advicebox *b, const struct ss_advice *a, enum ss_action act);

/* The advice of one experiment, searched once (and again when the experiment changes). */
struct ss_advicebox_cache {
	struct ss_advice a;
	struct ss_experiment e; /* the experiment it is of */
	bool valid;             /* a and e hold a search */
	bool failed;            /* that search failed: error says why */
	char error[160];
};

/* advicebox_advise returns the advice for e (searching on the model when e differs from the cached one), NULL when
 * the search failed (c->error says why). */
const struct ss_advice *advicebox_advise(struct ss_advicebox_cache *c, const struct ss_experiment *e);

/* What the panel shows. */
struct ss_advicebox_view {
	const struct ss_advice *a; /* NULL: none (error says why, or there is no experiment) */
	const char *error;         /* the search's failure, NULL when none */
};

/* advicebox_draw draws the panel into r: a box titled as modelled, the current and best times, the gain, the
 * best configuration's changes, the explanation (wrapped) and the keys. Draws nothing below 20x5. */
void advicebox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_advicebox_view *v, const struct ss_glyphs *gl);

#endif
