/* claimsbox.h: the claims panel (key C): the source documents' claims that what is on screen supports, the shown
 * run's (claims_run) or, over the sweep view, the sweep's (claims_sweep), each with its verdict, what was
 * measured, what the claim says and expects, and the evidence; the model's labelled modelled. Where there are none
 * it says why. The keys, the cache and the drawing are pure (no curses). */
#ifndef SS_TUI_CLAIMSBOX_H
#define SS_TUI_CLAIMSBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/timeline.h"
#include "run/claims.h"
#include "run/sweep.h"
#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/keys.h"

/* The panel's state in the controls: open or not, and the claim selected. */
struct ss_claimsbox {
	bool open;
	size_t cur; /* kept below the number of claims by claimsbox_key */
};

/* What claimsbox_key asks of the controls. */
enum ss_claimsbox_effect {
	CLAIMSBOX_IGNORED = 0, /* not the panel's key: the controls handle it as usual */
	CLAIMSBOX_DONE,        /* handled */
};

/* claimsbox_key applies act to an open panel of n claims: j/k or Up/Down move the selection, Esc and C close the
 * panel. Other actions are IGNORED. */
enum ss_claimsbox_effect claimsbox_key(struct ss_claimsbox *b, int n, enum ss_action act);

/* claimsbox_mark is the verdict's mark (one cell): a glyph on UTF-8 terminals, its ASCII twin otherwise ('+' holds,
 * 'x' does not hold, '?' not measured). */
uint32_t claimsbox_mark(enum ss_verdict v, bool utf8);

/* What the panel shows. */
struct ss_claimsbox_view {
	const struct ss_claim *c; /* the claims, n of them */
	int n;
	size_t cur;     /* the selected one */
	bool sweep;     /* they are the sweep's (else the shown run's) */
	bool pair;      /* the first is the one the pinned run (A) and the shown one (B) judge together */
	char none[256]; /* n == 0: why there are none */
};

/* A run the panel takes claims from. */
struct ss_claimsbox_run {
	uint64_t id;                   /* which run (another id: another run) */
	const struct ss_timeline *tl;  /* sorted; NULL: nothing has run */
	const struct ss_analysis *an;  /* NULL: the run has not finished */
	const struct ss_experiment *e; /* the experiment it ran; NULL: a trace that does not say */
	bool modelled;                 /* the model's numbers */
};

/* The claims of the shown run (and the pinned one) worked out once (claims_observe reads a whole timeline), and
 * those of a finished sweep. */
struct ss_claimsbox_cache {
	struct ss_claim run[SS_CLAIMS_MAX];
	int nrun;
	bool pair;           /* run[0] is the pair's claim */
	uint64_t id, pin_id; /* the runs they are of (pin_id 0: none pinned) */
	size_t n, pin_n;     /* and their numbers of records then */
	bool valid;
	struct ss_claim sweep[SS_CLAIMS_MAX];
};

/* claimsbox_claims fills v (but its cur) with the claims of what is shown: with s (the sweep view open), s's once
 * every point has run; else those of run once it finished (claims_run), after, where pinned (NULL: none) is a
 * finished run that differs from it in just the option one of the documents' claims toggles, the claim the two
 * judge together (claims_pair). Re-works them only when a run's id or record count changed. */
void claimsbox_claims(struct ss_claimsbox_cache *c, const struct ss_sweep *s, const struct ss_claimsbox_run *run,
                      const struct ss_claimsbox_run *pinned, struct ss_claimsbox_view *v);

/* claimsbox_draw draws the panel into r: a box with the list of claims (verdict mark and id) and the selected
 * one's verdict, measurement, claim, expectation and evidence; the list left and the text right when r is wide,
 * stacked when narrow; or why there are none. Draws nothing below 20x5. */
void claimsbox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_claimsbox_view *v, const struct ss_glyphs *gl);

#endif
