/* live.c: the Gantt of a recording while it runs (see live.h). A small loop of its own over the TUI's public
 * modules (term, grid, lanes, gantt, view, keys): the experiment session of tui.c has no place for a program that
 * streams records from outside. */
#include "tui/live.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/analysis.h"
#include "core/palette.h"
#include "core/xalloc.h"
#include "tui/control.h"
#include "tui/gantt.h"
#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/keys.h"
#include "tui/lanes.h"
#include "tui/term.h"
#include "tui/view.h"

#define LIVE_FRAME_MS 33 /* about 30 frames a second while records arrive */

/* The live view's state. */
struct live {
	struct ss_timeline *tl;
	const char *title;
	struct ss_term term;
	struct ss_grid grid;
	const struct ss_glyphs *gl;
	struct ss_lanes lanes;
	size_t indexed;        /* records the lanes cover */
	double built_at, cost; /* when the lanes were last built and what that took (s) */
	struct ss_control ctl; /* window, scroll, selection, overlays: the TUI's controls */
	bool over;             /* the recording ended: the timeline is final */
	struct ss_analysis an; /* valid when over */
	struct ss_summary sum; /* the summary panel's rows, over sum_n records */
	size_t sum_n;
	char progress[200]; /* the header's state while recording */
	char message[200];
	struct ss_layout layout;
};

static struct live *live_current; /* for the fatal hook */

static void live_fatal_hook(void)
{
	if (live_current != NULL)
		term_stop(&live_current->term);
}

static double live_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Re-indexes the timeline when records arrived, no more often than the indexing cost allows (a large recording
 * must not spend every frame sorting). */
static void live_index(struct live *lv, bool force)
{
	double now = live_clock(), gap = lv->cost * 5 > 0.1 ? lv->cost * 5 : 0.1;

	if (lv->tl->n == lv->indexed && !force)
		return;
	if (!force && now - lv->built_at < gap)
		return;
	lanes_build(&lv->lanes, lv->tl);
	lv->indexed = lv->tl->n;
	lv->built_at = live_clock();
	lv->cost = lv->built_at - now;
}

/* live_input describes the recording to the controls at cols x rows. Its records keep their numbers while it
 * grows, so it is one run throughout; nothing can be re-run. */
static void live_input(struct live *lv, struct ss_control_input *in, int cols, int rows)
{
	struct ss_view v;

	memset(in, 0, sizeof *in);
	in->run = &lv->lanes;
	in->run_id = 1;
	in->file = true;
	memset(&v, 0, sizeof v);
	v.run.lanes = &lv->lanes;
	v.gv.compact = lv->ctl.gv.compact;
	in->layout = view_layout_fit(&v, cols, rows, &lv->layout);
}

/* live_frame draws one frame of the recording as it stands: the lanes indexed so far, the analysis and stats once
 * the program is over, the summary when it is toggled on (rebuilt only when new records were indexed). */
static void live_frame(struct live *lv)
{
	struct ss_control_input in;
	struct ss_view v;
	int cols, rows;

	term_size(&lv->term, &cols, &rows);
	if (lv->grid.w != cols || lv->grid.h != rows)
		grid_resize(&lv->grid, cols, rows);
	snprintf(lv->progress, sizeof lv->progress, "recording %s", lv->title);
	live_input(lv, &in, cols, rows);
	control_sync(&lv->ctl, &in);
	memset(&v, 0, sizeof v);
	v.gl = lv->gl;
	v.device = lv->tl->device[0] ? lv->tl->device : NULL;
	v.backend = "cuda";
	v.no_experiment = true;
	v.running = !lv->over;
	v.progress = lv->progress;
	v.live_records = lv->tl->n;
	v.run = (struct ss_view_run){lv->tl, &lv->lanes, lv->over ? &lv->an : NULL, NULL};
	v.stats.an = lv->over ? &lv->an : NULL;
	v.stats.measured = lv->over;
	v.stats.have_dropped = lv->over;
	v.stats.dropped = lv->tl->dropped;
	v.help = lv->ctl.help;
	if (lv->ctl.summary) {
		if (lv->sum_n != lv->indexed) {
			summary_free(&lv->sum);
			summary_build(lv->tl, &lv->sum);
			lv->sum_n = lv->indexed;
		}
		v.summary = &lv->sum;
	}
	if (lv->ctl.message[0] || lv->message[0]) {
		v.message = lv->ctl.message[0] ? lv->ctl.message : lv->message;
		v.message_role = lv->ctl.message[0] ? lv->ctl.message_role : SS_ROLE_HIGHLIGHT;
	}
	v.gv = lv->ctl.gv;
	view_draw(&lv->grid, &v);
	term_draw(&lv->term, &lv->grid);
}

/* live_key does what a key or a mouse event does: the TUI's controls, but the experiment keys mean nothing here. */
static void live_key(struct live *lv, int k, const struct ss_mouse *m)
{
	struct ss_control_input in;
	struct ss_experiment e;
	int cols, rows;

	term_size(&lv->term, &cols, &rows);
	live_input(lv, &in, cols, rows);
	lv->message[0] = '\0';
	if (k == KEYS_MOUSE) {
		control_mouse(&lv->ctl, &in, m);
		return;
	}
	if (!lv->ctl.help && !lv->ctl.summary && keys_experiment(keys_action(k))) {
		snprintf(lv->message, sizeof lv->message, "recording a program: the experiment keys are off");
		return;
	}
	if (control_action(&lv->ctl, &in, keys_action(k), &e) == CONTROL_REDRAW)
		term_invalidate(&lv->term);
}

int live_run(struct ss_timeline *tl, live_poll_fn poll_fn, void *ctx, const char *title,
             const volatile sig_atomic_t *stop, char **cause)
{
	struct live lv;
	double last_frame = 0;
	bool dirty = true;

	memset(&lv, 0, sizeof lv);
	lv.tl = tl;
	lv.title = title;
	control_init(&lv.ctl);
	if (term_start(&lv.term, false, cause) != 0)
		return -1;
	live_current = &lv;
	xalloc_set_fatal_hook(live_fatal_hook);
	lv.gl = glyphs_get(!lv.term.utf8);
	grid_init(&lv.grid, 0, 0);
	lv.grid.ascii = !lv.term.utf8;
	lanes_init(&lv.lanes);
	while (!lv.ctl.quit) {
		struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
		struct ss_mouse m;
		double now;
		int k;

		if (!lv.over) {
			size_t before = tl->n;

			if (poll_fn(ctx, 0)) {
				lv.over = true;
				live_index(&lv, true);
				analysis_timeline(tl, &lv.an);
				snprintf(lv.message, sizeof lv.message, "the recording ended: q writes the trace");
				dirty = true;
			}
			if (tl->n != before)
				dirty = true;
		}
		now = live_clock();
		if (dirty && (now - last_frame) * 1000 >= LIVE_FRAME_MS) {
			live_index(&lv, false);
			live_frame(&lv);
			last_frame = now;
			dirty = lv.indexed != tl->n; /* records not indexed yet: another frame soon */
		}
		if (poll(&pfd, 1, lv.over && !dirty ? 1000 : LIVE_FRAME_MS) < 0 && errno != EINTR)
			usleep(10000);
		/* the terminal hung up: the view closes and the recording goes on without it */
		if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
			lv.ctl.quit = true;
		if (stop != NULL && *stop && lv.over)
			lv.ctl.quit = true;
		while (!lv.ctl.quit && (k = term_key(&lv.term, &m)) != -1) {
			dirty = true;
			if (k == KEYS_RESIZE)
				term_invalidate(&lv.term);
			else
				live_key(&lv, k, &m);
		}
	}
	term_stop(&lv.term);
	xalloc_set_fatal_hook(NULL);
	live_current = NULL;
	grid_free(&lv.grid);
	lanes_free(&lv.lanes);
	summary_free(&lv.sum);
	return 0;
}
