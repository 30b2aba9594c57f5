/* live.c: the Gantt of a recording while it runs (see live.h). A small loop of its own over the TUI's public
 * modules (term, grid, lanes, gantt, view, keys): the experiment session of tui.c has no place for a program that
 * streams records from outside. */
#include "live.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "gantt.h"
#include "glyphs.h"
#include "grid.h"
#include "keys.h"
#include "lanes.h"
#include "palette.h"
#include "term.h"
#include "view.h"
#include "xalloc.h"

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
	struct ss_gantt_view gv;
	bool follow; /* the window fits the whole recording until the user zooms or pans */
	bool compact_auto;
	bool help;
	bool over;             /* the recording ended: the timeline is final */
	struct ss_analysis an; /* valid when over */
	bool quit;
	char progress[200]; /* the header's state while recording */
	char message[200];
	struct ss_layout layout;
	bool layout_ok;
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

static void live_frame(struct live *lv)
{
	struct ss_view v;
	char *cause = NULL;
	int cols, rows;

	term_size(&lv->term, &cols, &rows);
	if (lv->grid.w != cols || lv->grid.h != rows)
		grid_resize(&lv->grid, cols, rows);
	snprintf(lv->progress, sizeof lv->progress, "recording %s", lv->title);
	memset(&v, 0, sizeof v);
	v.gl = lv->gl;
	v.device = lv->tl->device[0] ? lv->tl->device : NULL;
	v.backend = "cuda";
	v.running = !lv->over;
	v.progress = lv->progress;
	v.live_records = lv->tl->n;
	v.run = (struct ss_view_run){lv->tl, &lv->lanes, lv->over ? &lv->an : NULL, NULL};
	v.stats.an = lv->over ? &lv->an : NULL;
	v.stats.measured = lv->over;
	v.stats.have_dropped = lv->over;
	v.stats.dropped = lv->tl->dropped;
	v.help = lv->help;
	if (lv->message[0]) {
		v.message = lv->message;
		v.message_role = SS_ROLE_HIGHLIGHT;
	}
	lv->layout_ok = view_layout(&v, cols, rows, &lv->layout, &cause) == 0;
	free(cause);
	if (lv->layout_ok) {
		int width = lv->layout.plot[0].w, height = lv->layout.plot[0].h, n;
		double t0, span;

		if (lv->follow || lv->gv.span <= 0) {
			gantt_fit(&lv->lanes, width, &t0, &span);
			lv->gv.t0 = t0;
			lv->gv.span = span;
		}
		gantt_clamp(&lv->lanes, width, &lv->gv.t0, &lv->gv.span);
		if (lv->compact_auto) {
			lanes_get(&lv->lanes, false, &n);
			lv->gv.compact = n > height;
		}
		lanes_get(&lv->lanes, lv->gv.compact, &n);
		if (lv->gv.top > n - height)
			lv->gv.top = n - height;
		if (lv->gv.top < 0)
			lv->gv.top = 0;
	}
	v.gv = lv->gv;
	view_draw(&lv->grid, &v);
	term_draw(&lv->term, &lv->grid);
}

/* Does what a key's action says; the experiment keys mean nothing here. */
static void live_action(struct live *lv, enum ss_action act)
{
	int page = lv->layout_ok ? lv->layout.plot[0].h : 10;

	if (lv->help) {
		lv->help = false;
		return;
	}
	if (keys_experiment(act)) {
		snprintf(lv->message, sizeof lv->message, "recording a program: the experiment keys are off");
		return;
	}
	lv->message[0] = '\0';
	switch (act) {
	case ACT_QUIT:
		lv->quit = true;
		break;
	case ACT_HELP:
		lv->help = true;
		break;
	case ACT_PAN_LEFT:
	case ACT_PAN_RIGHT:
	case ACT_PAGE_LEFT:
	case ACT_PAGE_RIGHT:
		lv->gv.t0 += (act == ACT_PAN_LEFT || act == ACT_PAGE_LEFT ? -1 : 1) *
		             (act == ACT_PAN_LEFT || act == ACT_PAN_RIGHT ? lv->gv.span / 8 : lv->gv.span * 0.9);
		lv->follow = false;
		break;
	case ACT_START:
	case ACT_END:
		if (lv->lanes.have_span)
			lv->gv.t0 = act == ACT_START ? (double)lv->lanes.t0 : (double)lv->lanes.t1 - lv->gv.span * 0.95;
		lv->follow = false;
		break;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT: {
		double c = lv->gv.t0 + lv->gv.span / 2;

		lv->gv.span *= act == ACT_ZOOM_IN ? 0.5 : 2.0;
		lv->gv.t0 = c - lv->gv.span / 2;
		lv->follow = false;
		break;
	}
	case ACT_FIT:
		lv->follow = true;
		break;
	case ACT_SCROLL_UP:
		lv->gv.top--;
		break;
	case ACT_SCROLL_DOWN:
		lv->gv.top++;
		break;
	case ACT_PAGE_UP:
		lv->gv.top -= page;
		break;
	case ACT_PAGE_DOWN:
		lv->gv.top += page;
		break;
	case ACT_COMPACT:
		lv->gv.compact = !lv->gv.compact;
		lv->compact_auto = false;
		lv->gv.top = 0;
		break;
	case ACT_REDRAW:
		term_invalidate(&lv->term);
		break;
	default:
		break;
	}
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
	lv.follow = true;
	lv.compact_auto = true;
	lv.gv.sel = UINT32_MAX;
	if (term_start(&lv.term, false, cause) != 0)
		return -1;
	live_current = &lv;
	xalloc_set_fatal_hook(live_fatal_hook);
	lv.gl = glyphs_get(!lv.term.utf8);
	grid_init(&lv.grid, 0, 0);
	lv.grid.ascii = !lv.term.utf8;
	lanes_init(&lv.lanes);
	while (!lv.quit) {
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
			lv.quit = true;
		if (stop != NULL && *stop && lv.over)
			lv.quit = true;
		while (!lv.quit && (k = term_key(&lv.term, &m)) != -1) {
			dirty = true;
			if (k == KEYS_RESIZE)
				term_invalidate(&lv.term);
			else if (k != KEYS_MOUSE)
				live_action(&lv, keys_action(k));
		}
	}
	term_stop(&lv.term);
	xalloc_set_fatal_hook(NULL);
	live_current = NULL;
	grid_free(&lv.grid);
	lanes_free(&lv.lanes);
	return 0;
}
