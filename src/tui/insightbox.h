/* insightbox.h: the insights panel (key i): the insights of the timeline shown (core/insight), problems first,
 * one selected; its evidence is what the Gantt highlights and the window the view zooms to. The selection, the
 * zoom range, the text wrapping and the drawing are pure (no curses); the cache re-runs the rules when the
 * timeline changes. */
#ifndef SS_TUI_INSIGHTBOX_H
#define SS_TUI_INSIGHTBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/insight.h"
#include "core/timeline.h"
#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/keys.h"

/* The panel's state in the controls: open or not, and the entry selected. */
struct ss_insightbox {
	bool open;
	size_t cur; /* the selected entry (kept below the number of insights by insightbox_key) */
};

/* What insightbox_key asks of the controls. */
enum ss_insightbox_effect {
	INSIGHTBOX_IGNORED = 0, /* not the panel's key: the controls handle it as usual */
	INSIGHTBOX_DONE,        /* handled, nothing more to do */
	INSIGHTBOX_ZOOM,        /* handled: zoom the view to the selected entry (insightbox_range) */
};

/* insightbox_key applies act to an open panel over in (NULL: nothing analysed yet): j/k or Up/Down move the
 * selection (and ask for the zoom), Enter and z ask for the zoom, Esc and i close it. Other actions are IGNORED. */
enum ss_insightbox_effect insightbox_key(struct ss_insightbox *b, const struct ss_insights *in, enum ss_action act);
/* insightbox_selected returns the selected insight of in, NULL when none (in NULL or empty). */
const struct ss_insight *insightbox_selected(const struct ss_insightbox *b, const struct ss_insights *in);
/* insightbox_range gives the window that shows x's evidence: its t0..t1 widened by INSIGHTBOX_MARGIN of its length
 * on each side (at least min_span in all, centred: a zero-length or tiny range still gets a readable window).
 * False when x has no time range (t0 == t1 and no record: the window is left as it is). */
bool insightbox_range(const struct ss_insight *x, double min_span, double *t0, double *span);
#define INSIGHTBOX_MARGIN 0.05

/* insightbox_mark is the severity's mark (a code point of one cell): a glyph on UTF-8 terminals, its ASCII twin
 * otherwise. */
uint32_t insightbox_mark(enum ss_severity s, bool utf8);
/* insightbox_gain writes the gain line of x: "gain: 1.20 ms (how)", "gain, modelled: ..." when the timeline is the
 * model's, "gain: none (no sound estimate from the timeline)" when there is none. */
void insightbox_gain(const struct ss_insight *x, bool modelled, char *buf, size_t len);

/* What the panel shows. */
struct ss_insightbox_view {
	const struct ss_insights *in; /* NULL: no finished run to analyse */
	size_t cur;                   /* the selected entry */
	bool modelled;                /* the timeline is the model's: gains are labelled modelled */
	bool running;                 /* a run is in progress (why there is nothing yet) */
};

/* insightbox_draw draws the panel into r: a box with the list of insights (severity mark and rule) and the
 * selected one's summary, evidence, fix and gain; the list left and the text right when r is wide, stacked when
 * narrow. Draws nothing below 20x5. */
void insightbox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_insightbox_view *v,
                     const struct ss_glyphs *gl);

/* The insights of one run, computed once per run (and again when its records change). */
struct ss_insightbox_cache {
	struct ss_insights in;
	uint64_t id; /* the run they are of */
	size_t n;    /* and its number of records then */
	bool valid;
};

/* insightbox_analyze returns the insights of the run id with timeline tl (sorted) and analysis an, re-running the
 * rules only when id or tl's record count changed; NULL when an is NULL (the run has not finished). e is the
 * experiment the run ran (NULL for an opened trace): the rules that read its op list run too (misaligned-chunks),
 * and each fix that is a change of its options is then re-run on the model, as `analyze` does, and the insight's
 * gain is that re-run's (its text says so: modelled). */
const struct ss_insights *insightbox_analyze(struct ss_insightbox_cache *c, uint64_t id, const struct ss_timeline *tl,
                                             const struct ss_analysis *an, const struct ss_experiment *e);

#endif
