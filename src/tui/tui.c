/* tui.c: the event loop: keys and mouse, the session's runs, and a frame at most every 1/30 s while something
 * changes. Signal handlers only set flags; resize arrives as KEYS_RESIZE. */
#include "tui.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "export.h"
#include "gantt.h"
#include "glyphs.h"
#include "grid.h"
#include "keys.h"
#include "layout.h"
#include "palette.h"
#include "session.h"
#include "sigexit.h"
#include "term.h"
#include "tui_screen.h"
#include "view.h"
#include "xalloc.h"

#define TUI_FRAME_S (1.0 / 30.0) /* at most 30 frames a second, at least 20 while a run streams in */
#define TUI_INFO_S 6.0           /* how long a notice stays in the status line */

/* The UI's state besides the session's runs. */
struct tui {
	const struct tui_options *o;
	struct ss_term term;
	struct ss_grid grid;
	const struct ss_glyphs *gl;
	struct ss_session ses;
	struct ss_gantt_view gv;
	bool follow;       /* the window fits the whole run until the user zooms or pans */
	bool compact_auto; /* compact lanes chosen by size, not by the user */
	bool help;
	bool sweep; /* the sweep view is open */
	bool quit;
	char message[384];
	int message_role;
	double message_until; /* 0: until replaced */
	bool dirty;
	double last_frame;
	struct ss_layout layout;
	bool layout_ok;
};

static struct tui *tui_current; /* for the fatal hook */
static int tui_stderr = -1;     /* the real stderr while the screen is ours (fd 2 then goes to /dev/null) */

/* tui_quiet points stderr at /dev/null while curses owns the screen, so that nothing (a runner child's driver
 * warnings, a library's diagnostics) writes over it; runs report their errors through the runner's pipe.
 * tui_loud gives stderr back. */
static void tui_quiet(void)
{
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (null < 0)
		return;
	fflush(stderr);
	tui_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (tui_stderr >= 0)
		dup2(null, STDERR_FILENO);
	close(null);
}

static void tui_loud(void)
{
	if (tui_stderr < 0)
		return;
	fflush(stderr);
	dup2(tui_stderr, STDERR_FILENO);
	close(tui_stderr);
	tui_stderr = -1;
}

/* tui_fatal_hook runs before xfatal prints its message and exits: the terminal and stderr come back first. */
static void tui_fatal_hook(void)
{
	if (tui_current != NULL)
		term_stop(&tui_current->term);
	tui_loud();
}

static double tui_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* tui_say shows a message in the status line; info messages fade after TUI_INFO_S. */
static void tui_say(struct tui *t, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void tui_say(struct tui *t, int role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_role = role;
	t->message_until = role == SS_ROLE_WARN ? 0 : tui_clock() + TUI_INFO_S;
	t->dirty = true;
}

/* tui_view fills v with what the frame shows. */
static void tui_view(struct tui *t, struct ss_view *v, char *pending, size_t plen)
{
	struct ss_run *run = session_view(&t->ses), *pin = t->ses.pinned;

	memset(v, 0, sizeof *v);
	v->gl = t->gl;
	v->source = t->o->file != NULL ? (t->o->file->source[0] ? t->o->file->source : "(trace)") : NULL;
	v->backend = t->o->file != NULL ? "file" : t->o->backend != NULL ? t->o->backend->name : NULL;
	v->running = session_busy(&t->ses);
	v->progress = t->ses.job != JOB_NONE ? t->ses.runner.progress : NULL;
	if (t->ses.capture != NULL)
		v->live_records = t->ses.capture->tl.n;
	else if (t->ses.job != JOB_NONE)
		v->live_records = t->ses.scratch.n;
	if (t->ses.job == JOB_BASELINE)
		v->progress = "one-stream baseline";
	else if (t->ses.job == JOB_SWEEP)
		v->progress = "sweep point";
	if ((t->ses.want || (t->ses.capture != NULL && run != t->ses.capture)) && session_experiment(&t->ses)) {
		experiment_describe(session_experiment(&t->ses), pending, plen);
		v->pending = pending;
	}
	if (run != NULL) {
		v->run = (struct ss_view_run){&run->tl, &run->lanes, run->done ? &run->an : NULL,
		                              run->file ? NULL : &run->exp};
		v->device = run->tl.device[0] ? run->tl.device : NULL;
		v->modelled = run->tl.modelled || (t->o->backend != NULL && t->o->backend->modelled && !run->file);
		v->stats.an = run->done ? &run->an : NULL;
		v->stats.measured = run->done && !run->file && !run->tl.modelled;
		v->stats.have_predicted = run->have_predicted;
		v->stats.predicted_ns = run->predicted_ns;
		v->stats.have_predicted_calls = run->have_predicted_calls;
		v->stats.predicted_calls_ns = run->predicted_calls_ns;
		v->stats.have_dropped = run->done;
		v->stats.dropped = run->tl.dropped;
	} else if (pin != NULL) {
		v->device = pin->tl.device;
		v->modelled = pin->tl.modelled;
	} else if (t->o->backend != NULL && t->o->backend->modelled) {
		v->device = "MODEL";
		v->modelled = true;
	}
	if (pin != NULL) {
		v->pinned = (struct ss_view_run){&pin->tl, &pin->lanes, &pin->an, &pin->exp};
		v->stats.pinned = &pin->an;
	}
	v->gv = t->gv;
	v->help = t->help;
	v->sweep = t->sweep && t->ses.have_sweep ? &t->ses.sweep : NULL;
	v->sweep_running = session_sweep_running(&t->ses);
	if (t->message[0]) {
		v->message = t->message;
		v->message_role = t->message_role;
	}
}

/* tui_fit_window sets the window to cover the shown run and the pinned one. */
static void tui_fit_window(struct tui *t, int width)
{
	const struct ss_lanes *l[2] = {NULL, NULL};
	struct ss_run *run = session_view(&t->ses), *pin = t->ses.pinned;
	double lo = 0, hi = 0;
	bool any = false;

	l[0] = run != NULL ? &run->lanes : NULL;
	l[1] = pin != NULL ? &pin->lanes : NULL;
	for (int i = 0; i < 2; i++) {
		double t0, span;

		if (l[i] == NULL || !l[i]->have_span)
			continue;
		gantt_fit(l[i], width, &t0, &span);
		if (!any || t0 < lo)
			lo = t0;
		if (!any || t0 + span > hi)
			hi = t0 + span;
		any = true;
	}
	if (!any) {
		gantt_fit(l[0] != NULL   ? l[0]
		          : l[1] != NULL ? l[1]
		                         : &(struct ss_lanes){0},
		          width, &t->gv.t0, &t->gv.span);
		return;
	}
	t->gv.t0 = lo;
	t->gv.span = hi - lo;
}

/* tui_frame draws one frame: layout, window, view, and the terminal update. */
static void tui_frame(struct tui *t)
{
	struct ss_view v;
	char pending[320], *cause = NULL;
	int cols, rows;
	struct ss_run *run = session_view(&t->ses);

	term_size(&t->term, &cols, &rows);
	if (t->grid.w != cols || t->grid.h != rows)
		grid_resize(&t->grid, cols, rows);
	tui_view(t, &v, pending, sizeof pending);
	t->layout_ok = view_layout(&v, cols, rows, &t->layout, &cause) == 0;
	free(cause);
	if (t->layout_ok) {
		int width = t->layout.plot[0].w, n, height = t->layout.plot[v.pinned.tl != NULL ? 1 : 0].h;
		const struct ss_lanes *l = run != NULL             ? &run->lanes
		                           : t->ses.pinned != NULL ? &t->ses.pinned->lanes
		                                                   : NULL;

		if (t->follow || t->gv.span <= 0)
			tui_fit_window(t, width);
		if (l != NULL) {
			gantt_clamp(l, width, &t->gv.t0, &t->gv.span);
			if (t->compact_auto) {
				lanes_get(l, false, &n);
				t->gv.compact = n > height;
			}
			lanes_get(l, t->gv.compact, &n);
			if (t->gv.top > n - height)
				t->gv.top = n - height;
			if (t->gv.top < 0)
				t->gv.top = 0;
		}
		v.gv = t->gv;
	}
	view_draw(&t->grid, &v);
	term_draw(&t->term, &t->grid);
	t->dirty = false;
	t->last_frame = tui_clock();
}

/* tui_change applies an experiment key: a new experiment is validated and requested. */
static void tui_change(struct tui *t, enum ss_action act)
{
	const struct ss_experiment *cur = session_experiment(&t->ses);
	struct ss_experiment e;
	char *cause = NULL;

	if (cur == NULL)
		return;
	e = *cur;
	switch (act) {
	case ACT_ORDER:
		e.order = e.order == SS_ORDER_DEPTH ? SS_ORDER_BREADTH : SS_ORDER_DEPTH;
		break;
	case ACT_SYNC:
		e.sync = (e.sync + 1) % SS_SYNC_COUNT;
		break;
	case ACT_DEFSTREAM:
		e.defstream = (e.defstream + 1) % SS_DS_COUNT;
		break;
	case ACT_HOSTMEM:
		e.hostmem = (e.hostmem + 1) % SS_MEM_COUNT;
		break;
	case ACT_QUEUES: {
		int q = 1;

		while (q <= e.connections)
			q *= 2;
		e.connections = q > SS_MAX_CONNECTIONS ? 1 : q;
		break;
	}
	case ACT_THREADS:
		e.threads = e.threads == 1 ? e.streams : 1;
		break;
	case ACT_PREFETCH_EVENTS:
		e.prefetch_events = (e.prefetch_events + 1) % SS_PFE_COUNT; /* auto, on, off */
		break;
	case ACT_PRESET: {
		enum ss_pfevents pe = e.prefetch_events; /* a capture option, not the preset's: kept */

		experiment_preset(&e, (e.preset + 1) % SS_PRESET_COUNT);
		e.prefetch_events = pe;
		break;
	}
	case ACT_STREAMS_UP:
	case ACT_STREAMS_DOWN:
	case ACT_STREAMS_DOUBLE:
	case ACT_STREAMS_HALVE: {
		int n = act == ACT_STREAMS_UP       ? e.streams + 1
		        : act == ACT_STREAMS_DOWN   ? e.streams - 1
		        : act == ACT_STREAMS_DOUBLE ? e.streams * 2
		                                    : e.streams / 2;

		if (n < 1 || n > SS_MAX_STREAMS) {
			tui_say(t, SS_ROLE_WARN, "streams stay within 1..%d", SS_MAX_STREAMS);
			return;
		}
		if (e.threads > 1)
			e.threads = n;
		if (e.chunks > 0 && e.chunks < n)
			e.chunks = n;
		e.streams = n;
		break;
	}
	default:
		break;
	}
	if (experiment_validate(&e, &cause) != 0) {
		tui_say(t, SS_ROLE_WARN, "%s", cause);
		free(cause);
		return;
	}
	session_request(&t->ses, &e);
	t->message[0] = '\0';
	t->dirty = true;
}

/* tui_lanes returns the lanes of the shown run (NULL when none) and their count in the current form. */
static const struct ss_lane *tui_lanes(struct tui *t, const struct ss_lanes **l, int *n)
{
	struct ss_run *run = session_view(&t->ses);

	*n = 0;
	*l = run != NULL ? &run->lanes : NULL;
	return run != NULL ? lanes_get(&run->lanes, t->gv.compact, n) : NULL;
}

/* tui_reveal pans and scrolls so that the selected interval is on screen. */
static void tui_reveal(struct tui *t)
{
	const struct ss_lanes *l;
	int n, lane, height;
	const struct ss_record *r;

	tui_lanes(t, &l, &n);
	if (l == NULL || t->gv.sel == UINT32_MAX || !t->layout_ok)
		return;
	r = &l->tl->rec[t->gv.sel];
	if ((double)r->end < t->gv.t0 || (double)r->start > t->gv.t0 + t->gv.span) {
		t->gv.t0 = ((double)r->start + (double)r->end) / 2 - t->gv.span / 2;
		t->follow = false;
	}
	lane = lanes_find(l, t->gv.compact, t->gv.sel);
	height = t->layout.plot[t->ses.pinned != NULL ? 1 : 0].h;
	if (lane >= 0 && lane < t->gv.top)
		t->gv.top = lane;
	if (lane >= 0 && lane >= t->gv.top + height)
		t->gv.top = lane - height + 1;
}

/* tui_select moves the selection along its lane (dir +-1) or to the next non-empty lane (dlane +-1). */
static void tui_select(struct tui *t, int dir, int dlane)
{
	const struct ss_lanes *l;
	int n, lane;
	const struct ss_lane *ln = tui_lanes(t, &l, &n);
	uint32_t r = UINT32_MAX;

	if (ln == NULL || n == 0)
		return;
	lane = t->gv.sel != UINT32_MAX ? lanes_find(l, t->gv.compact, t->gv.sel) : -1;
	if (lane < 0) {
		/* nothing selected: the first interval in view, from the top lane down */
		for (int i = t->gv.top; i < n && r == UINT32_MAX; i++)
			r = lanes_near(l, &ln[i], t->gv.t0);
	} else if (dlane != 0) {
		double x = ((double)l->tl->rec[t->gv.sel].start + (double)l->tl->rec[t->gv.sel].end) / 2;

		for (int i = lane + dlane; i >= 0 && i < n && r == UINT32_MAX; i += dlane)
			r = lanes_near(l, &ln[i], x);
	} else {
		r = lanes_step(l, &ln[lane], t->gv.sel, dir);
	}
	if (r == UINT32_MAX)
		return;
	t->gv.sel = r;
	tui_reveal(t);
}

/* tui_zoom scales the window by f around time x. */
static void tui_zoom(struct tui *t, double f, double x)
{
	double frac = t->gv.span > 0 ? (x - t->gv.t0) / t->gv.span : 0.5;

	t->gv.span *= f;
	t->gv.t0 = x - frac * t->gv.span;
	t->follow = false;
}

/* tui_zoom_centre is where keyboard zooms keep still: the selection when it is in view, else the middle. */
static double tui_zoom_centre(struct tui *t)
{
	const struct ss_lanes *l;
	int n;

	tui_lanes(t, &l, &n);
	if (l != NULL && t->gv.sel != UINT32_MAX) {
		const struct ss_record *r = &l->tl->rec[t->gv.sel];
		double c = ((double)r->start + (double)r->end) / 2;

		if (c >= t->gv.t0 && c <= t->gv.t0 + t->gv.span)
			return c;
	}
	return t->gv.t0 + t->gv.span / 2;
}

/* tui_export writes a snapshot of what is shown. */
static void tui_export(struct tui *t)
{
	struct ss_run *run = session_view(&t->ses);
	struct ss_export_input in;
	char dir[512], *text, *ansi, *cause = NULL;

	if (run == NULL || !run->done) {
		tui_say(t, SS_ROLE_WARN, "nothing to export yet: wait for the run to finish");
		return;
	}
	memset(&in, 0, sizeof in);
	in.t = &run->tl;
	in.a = &run->an;
	in.e = run->file ? NULL : &run->exp;
	in.t0 = t->gv.t0 > 0 ? (uint64_t)t->gv.t0 : 0;
	in.t1 = (uint64_t)(t->gv.t0 + t->gv.span);
	text = tui_screen_text(&t->grid);
	ansi = tui_screen_ansi(&t->grid);
	in.screen_text = text;
	if (export_snapshot(t->o->export_dir != NULL ? t->o->export_dir : ".", &in, text, ansi, dir, sizeof dir,
	                    &cause) != 0) {
		tui_say(t, SS_ROLE_WARN, "export failed: %s", cause ? cause : "?");
		free(cause);
	} else {
		tui_say(t, SS_ROLE_H2D, "snapshot written to %s", dir);
	}
	free(text);
	free(ansi);
}

/* tui_mouse handles a click (select) or a wheel turn (zoom around the pointer) on the Gantt. */
static void tui_mouse(struct tui *t, const struct ss_mouse *m)
{
	struct ss_rect plot;
	struct ss_run *run = session_view(&t->ses);
	int lane;

	if (t->help) {
		t->help = false;
		return;
	}
	if (!t->layout_ok || t->sweep || run == NULL)
		return;
	plot = t->layout.plot[t->ses.pinned != NULL ? 1 : 0];
	if (m->what == MOUSE_WHEEL_UP || m->what == MOUSE_WHEEL_DOWN) {
		struct ss_rect a = t->layout.plot[0];
		double x;

		if (m->x < a.x || m->x >= a.x + a.w)
			return;
		x = t->gv.t0 + (m->x - a.x + 0.5) * t->gv.span / a.w;
		tui_zoom(t, m->what == MOUSE_WHEEL_UP ? 1 / 1.5 : 1.5, x);
		return;
	}
	if (m->what != MOUSE_CLICK)
		return;
	if (m->x >= plot.x && m->x < plot.x + plot.w && m->y >= plot.y && m->y < plot.y + plot.h) {
		uint32_t r = gantt_pick(&run->lanes, plot, &t->gv, m->x, m->y, &lane);

		t->gv.sel = r;
	}
}

/* tui_action does what a key's action says. */
static void tui_action(struct tui *t, enum ss_action act)
{
	const struct ss_lanes *l;
	int n, page = t->layout_ok ? t->layout.plot[t->ses.pinned != NULL ? 1 : 0].h : 10;

	if (t->help) {
		/* the help overlay takes any key to close, like less */
		t->help = false;
		return;
	}
	if (keys_experiment(act) && t->o->file != NULL) {
		tui_say(t, SS_ROLE_WARN, "viewing a file: the experiment keys are off");
		return;
	}
	tui_lanes(t, &l, &n);
	switch (act) {
	case ACT_QUIT:
		t->quit = true;
		break;
	case ACT_HELP:
		t->help = true;
		break;
	case ACT_CLOSE:
		if (t->sweep)
			t->sweep = false;
		else
			t->gv.sel = UINT32_MAX;
		break;
	case ACT_ORDER:
	case ACT_SYNC:
	case ACT_DEFSTREAM:
	case ACT_HOSTMEM:
	case ACT_QUEUES:
	case ACT_THREADS:
	case ACT_PREFETCH_EVENTS:
	case ACT_PRESET:
	case ACT_STREAMS_UP:
	case ACT_STREAMS_DOWN:
	case ACT_STREAMS_DOUBLE:
	case ACT_STREAMS_HALVE:
	case ACT_RERUN:
		tui_change(t, act);
		break;
	case ACT_PAN_LEFT:
	case ACT_PAN_RIGHT:
	case ACT_PAGE_LEFT:
	case ACT_PAGE_RIGHT:
		t->gv.t0 += (act == ACT_PAN_LEFT || act == ACT_PAGE_LEFT ? -1 : 1) *
		            (act == ACT_PAN_LEFT || act == ACT_PAN_RIGHT ? t->gv.span / 8 : t->gv.span * 0.9);
		t->follow = false;
		break;
	case ACT_START:
	case ACT_END:
		if (l != NULL && l->have_span)
			t->gv.t0 = act == ACT_START ? (double)l->t0 : (double)l->t1 - t->gv.span * 0.95;
		t->follow = false;
		break;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT:
		tui_zoom(t, act == ACT_ZOOM_IN ? 0.5 : 2.0, tui_zoom_centre(t));
		break;
	case ACT_FIT:
		t->follow = true;
		break;
	case ACT_SCROLL_UP:
		t->gv.top--;
		break;
	case ACT_SCROLL_DOWN:
		t->gv.top++;
		break;
	case ACT_PAGE_UP:
		t->gv.top -= page;
		break;
	case ACT_PAGE_DOWN:
		t->gv.top += page;
		break;
	case ACT_NEXT:
	case ACT_PREV:
		tui_select(t, act == ACT_NEXT ? 1 : -1, 0);
		break;
	case ACT_LANE_DOWN:
	case ACT_LANE_UP:
		tui_select(t, 0, act == ACT_LANE_DOWN ? 1 : -1);
		break;
	case ACT_ZOOM_SEL:
		if (l != NULL && t->gv.sel != UINT32_MAX) {
			const struct ss_record *r = &l->tl->rec[t->gv.sel];
			double d = (double)(r->end - r->start);

			if (d < 100)
				d = 100;
			t->gv.t0 = (double)r->start - d * 0.25;
			t->gv.span = d * 1.5;
			t->follow = false;
		}
		break;
	case ACT_PIN:
		if (session_pin(&t->ses))
			tui_say(t, SS_ROLE_HIGHLIGHT, "pinned as A: the next run shows beneath as B (p unpins)");
		else if (t->ses.pinned == NULL)
			tui_say(t, SS_ROLE_TEXT, "unpinned");
		t->gv.sel = UINT32_MAX;
		break;
	case ACT_SWEEP:
		t->sweep = !t->sweep;
		if (t->sweep && session_experiment(&t->ses) != NULL)
			session_sweep(&t->ses, session_experiment(&t->ses));
		break;
	case ACT_EXPORT:
		tui_export(t);
		break;
	case ACT_COMPACT:
		t->gv.compact = !t->gv.compact;
		t->compact_auto = false;
		t->gv.top = 0;
		break;
	case ACT_REDRAW:
		term_invalidate(&t->term);
		break;
	default:
		break;
	}
}

/* tui_session handles what the session reports. */
static void tui_session(struct tui *t, unsigned ch)
{
	if (ch == 0)
		return;
	t->dirty = true;
	if (ch & SES_SHOWN) {
		t->gv.sel = UINT32_MAX;
		if (t->message_role != SS_ROLE_WARN)
			t->message[0] = '\0';
	}
	if (ch & SES_FAILED)
		tui_say(t, SS_ROLE_WARN, "%s", t->ses.message);
}

/* tui_wait sleeps until a key, runner output, a signal or the next frame is due. */
static void tui_wait(struct tui *t)
{
	struct pollfd pfd[2] = {{STDIN_FILENO, POLLIN, 0}, {session_fd(&t->ses), POLLIN, 0}};
	int timeout = 1000, nfd = pfd[1].fd >= 0 ? 2 : 1;
	double now = tui_clock();

	if (t->dirty)
		timeout = (int)ceil((t->last_frame + TUI_FRAME_S - now) * 1000);
	else if (session_busy(&t->ses))
		timeout = (int)ceil(TUI_FRAME_S * 1000);
	if (t->message_until > 0 && (t->message_until - now) * 1000 < timeout)
		timeout = (int)ceil((t->message_until - now) * 1000);
	if (timeout < 0)
		timeout = 0;
	/* runner output wakes us only when no frame is pending: the frame rate caps the work, not the pipe */
	if (t->dirty)
		nfd = 1;
	if (poll(pfd, (nfds_t)nfd, timeout) < 0 && errno != EINTR)
		usleep(10000);
}

int tui_main(const struct tui_options *o)
{
	struct tui t;
	char *cause = NULL;
	int rc = 0;

	memset(&t, 0, sizeof t);
	t.o = o;
	t.follow = true;
	t.compact_auto = true;
	t.gv.sel = UINT32_MAX;
	if (term_start(&t.term, o->ascii, &cause) != 0) {
		fprintf(stderr, "streamscope: %s\n", cause);
		free(cause);
		return 1;
	}
	tui_current = &t;
	xalloc_set_fatal_hook(tui_fatal_hook);
	tui_quiet();
	sigexit_install();
	sigexit_catch(true);
	t.gl = glyphs_get(!t.term.utf8);
	grid_init(&t.grid, 0, 0);
	t.grid.ascii = !t.term.utf8;
	session_init(&t.ses, o->backend, o->file);
	if (o->file == NULL && o->backend != NULL)
		session_request(&t.ses, &o->exp);
	t.dirty = true;
	while (!t.quit && sigexit_pending() == 0) {
		double now = tui_clock();
		struct ss_mouse m;
		int k;

		tui_session(&t, session_poll(&t.ses, now));
		if (t.message_until > 0 && now >= t.message_until) {
			t.message[0] = '\0';
			t.message_until = 0;
			t.dirty = true;
		}
		if (t.dirty && now - t.last_frame >= TUI_FRAME_S)
			tui_frame(&t);
		tui_wait(&t);
		while (!t.quit && (k = term_key(&t.term, &m)) != -1) {
			t.dirty = true;
			if (k == KEYS_RESIZE)
				term_invalidate(&t.term);
			else if (k == KEYS_MOUSE)
				tui_mouse(&t, &m);
			else
				tui_action(&t, keys_action(k));
		}
	}
	if (sigexit_pending() != 0)
		rc = 128 + sigexit_pending();
	session_free(&t.ses);
	term_stop(&t.term);
	tui_loud();
	xalloc_set_fatal_hook(NULL);
	tui_current = NULL;
	grid_free(&t.grid);
	sigexit_catch(false);
	return rc;
}
