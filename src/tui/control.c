/* control.c: the keys' and the mouse's effect on the view; see control.h. */
#include "tui/control.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"

/* control_say sets the status line's notice. */
static void control_say(struct ss_control *c, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void control_say(struct ss_control *c, int role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->message, sizeof c->message, fmt, ap);
	va_end(ap);
	c->message_role = role;
}

void control_init(struct ss_control *c)
{
	memset(c, 0, sizeof *c);
	c->follow = true;
	c->compact_auto = true;
	c->gv.sel = UINT32_MAX;
}

/* control_plot is the plot of the shown run (the lower one of an A/B); w == 0 without a layout. */
static struct ss_rect control_plot(const struct ss_control_input *in)
{
	if (in->layout == NULL)
		return (struct ss_rect){0, 0, 0, 0};
	return in->layout->plot[in->pinned != NULL && in->layout->plot[1].h > 0 ? 1 : 0];
}

/* control_lanes is the index the window and the scroll follow: the shown run's, else the pinned one's. */
static const struct ss_lanes *control_lanes(const struct ss_control_input *in)
{
	return in->run != NULL ? in->run : in->pinned;
}

/* control_fit sets the window to cover the shown run and the pinned one: their GPU work, or all (fit_all). */
static void control_fit(struct ss_control *c, const struct ss_control_input *in, int width)
{
	const struct ss_lanes *l[2] = {in->run, in->pinned};
	double lo = 0, hi = 0;
	bool any = false;

	for (int i = 0; i < 2; i++) {
		double t0, span;

		if (l[i] == NULL || !l[i]->have_span)
			continue;
		if (c->fit_all)
			gantt_fit(l[i], width, &t0, &span);
		else
			gantt_fit_work(l[i], width, &t0, &span);
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
		          width, &c->gv.t0, &c->gv.span);
		return;
	}
	c->gv.t0 = lo;
	c->gv.span = hi - lo;
}

/* control_extent is what the window may show: from the earlier start to the later end of the shown run and the
 * pinned one, and 1/CONTROL_EXTENT_MARGIN of that after the end (a cell or so, as gantt_fit leaves one spare); 0 to
 * 1 ms when neither has a span. It does not depend on the plot's width, so that a panel opening or closing does not
 * change how far the view may zoom out. */
#define CONTROL_EXTENT_MARGIN 64
static void control_extent(const struct ss_control_input *in, double *t0, double *span)
{
	const struct ss_lanes *l[2] = {in->run, in->pinned};
	double lo = 0, hi = 0;
	bool any = false;

	for (int i = 0; i < 2; i++) {
		if (l[i] == NULL || !l[i]->have_span)
			continue;
		if (!any || (double)l[i]->t0 < lo)
			lo = (double)l[i]->t0;
		if (!any || (double)l[i]->t1 > hi)
			hi = (double)l[i]->t1;
		any = true;
	}
	if (!any) {
		*t0 = 0;
		*span = 1e6;
		return;
	}
	*t0 = lo;
	*span = (hi - lo) * (1.0 + 1.0 / CONTROL_EXTENT_MARGIN);
}

void control_sync(struct ss_control *c, const struct ss_control_input *in)
{
	const struct ss_lanes *l = control_lanes(in);
	struct ss_rect plot = control_plot(in);
	int n = 0;

	if (in->run_id != c->run_id || in->run == NULL || (c->gv.sel != UINT32_MAX && c->gv.sel >= in->run->indexed)) {
		c->gv.sel = UINT32_MAX;
		c->run_id = in->run_id;
	}
	if (in->layout != NULL && in->layout->plot[0].w > 0) {
		if (c->follow || !(c->gv.span > 0))
			control_fit(c, in, in->layout->plot[0].w);
		if (l != NULL) {
			double ft0, fspan;

			control_extent(in, &ft0, &fspan);
			gantt_clamp(ft0, fspan, in->layout->plot[0].w, &c->gv.t0, &c->gv.span);
			if (c->compact_auto) {
				lanes_get(l, false, &n);
				c->gv.compact = n > plot.h;
			}
		}
	}
	/* the lane scroll: the last page shows a full plot; without a layout, at most the last lane */
	if (l != NULL)
		lanes_get(l, c->gv.compact, &n);
	if (c->gv.top > n - (plot.h > 0 ? plot.h : 1))
		c->gv.top = n - (plot.h > 0 ? plot.h : 1);
	if (c->gv.top < 0)
		c->gv.top = 0;
}

/* control_change makes the experiment an experiment key asks for; false (with a warning) when there is none. */
static bool control_change(struct ss_control *c, const struct ss_control_input *in, enum ss_action act,
                           struct ss_experiment *exp)
{
	struct ss_experiment e;
	char *cause = NULL;

	if (in->exp == NULL)
		return false;
	e = *in->exp;
	switch (act) {
	case ACT_ORDER:
		/* depth <-> breadth (a step program with an interleave: depth, breadth, interleave in turn), and
		 * document 003's best <-> weaker */
		e.order = e.order == SS_ORDER_DEPTH ? SS_ORDER_BREADTH
		          : e.order == SS_ORDER_BREADTH
		              ? (e.nsteps > 0 && e.ninter > 0 ? SS_ORDER_INTERLEAVE : SS_ORDER_DEPTH)
		          : e.order == SS_ORDER_INTERLEAVE ? SS_ORDER_DEPTH
		          : e.order == SS_ORDER_BEST       ? SS_ORDER_WEAKER
		                                           : SS_ORDER_BEST;
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
			control_say(c, SS_ROLE_WARN, "streams stay within 1..%d", SS_MAX_STREAMS);
			return false;
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
		control_say(c, SS_ROLE_WARN, "%s", cause);
		free(cause);
		return false;
	}
	*exp = e;
	return true;
}

/* control_reveal pans and scrolls so that the selected interval is on screen. */
static void control_reveal(struct ss_control *c, const struct ss_control_input *in)
{
	const struct ss_record *r;
	struct ss_rect plot = control_plot(in);
	int lane;

	if (in->run == NULL || c->gv.sel == UINT32_MAX || plot.w <= 0)
		return;
	r = &in->run->tl->rec[c->gv.sel];
	if ((double)r->end < c->gv.t0 || (double)r->start > c->gv.t0 + c->gv.span) {
		c->gv.t0 = ((double)r->start + (double)r->end) / 2 - c->gv.span / 2;
		c->follow = false;
	}
	lane = lanes_find(in->run, c->gv.compact, c->gv.sel);
	if (lane >= 0 && lane < c->gv.top)
		c->gv.top = lane;
	if (lane >= 0 && lane >= c->gv.top + plot.h)
		c->gv.top = lane - plot.h + 1;
}

/* control_select moves the selection along its lane (dir +-1) or to the nearest interval on the next non-empty
 * lane (dlane +-1); with nothing selected, it takes the first interval in view from the top lane down. */
static void control_select(struct ss_control *c, const struct ss_control_input *in, int dir, int dlane)
{
	const struct ss_lanes *l = in->run;
	const struct ss_lane *ln;
	uint32_t r = UINT32_MAX;
	int n, lane;

	if (l == NULL)
		return;
	ln = lanes_get(l, c->gv.compact, &n);
	if (ln == NULL || n == 0)
		return;
	lane = c->gv.sel != UINT32_MAX ? lanes_find(l, c->gv.compact, c->gv.sel) : -1;
	if (lane < 0) {
		for (int i = c->gv.top > 0 ? c->gv.top : 0; i < n && r == UINT32_MAX; i++)
			r = lanes_near(l, &ln[i], c->gv.t0);
	} else if (dlane != 0) {
		const struct ss_record *s = &l->tl->rec[c->gv.sel];
		double x = ((double)s->start + (double)s->end) / 2;

		for (int i = lane + dlane; i >= 0 && i < n && r == UINT32_MAX; i += dlane)
			r = lanes_near(l, &ln[i], x);
	} else {
		r = lanes_step(l, &ln[lane], c->gv.sel, dir);
	}
	if (r == UINT32_MAX)
		return;
	c->gv.sel = r;
	control_reveal(c, in);
}

/* control_zoom scales the window by f around time x. */
static void control_zoom(struct ss_control *c, double f, double x)
{
	double frac = c->gv.span > 0 ? (x - c->gv.t0) / c->gv.span : 0.5;

	c->gv.span *= f;
	c->gv.t0 = x - frac * c->gv.span;
	c->follow = false;
}

/* control_zoom_centre is where keyboard zooms keep still: the selection when it is in view, else the middle. */
static double control_zoom_centre(const struct ss_control *c, const struct ss_control_input *in)
{
	if (in->run != NULL && c->gv.sel != UINT32_MAX) {
		const struct ss_record *r = &in->run->tl->rec[c->gv.sel];
		double m = ((double)r->start + (double)r->end) / 2;

		if (m >= c->gv.t0 && m <= c->gv.t0 + c->gv.span)
			return m;
	}
	return c->gv.t0 + c->gv.span / 2;
}

/* control_insight_zoom sets the window to the selected insight's evidence (with a margin) and scrolls its first
 * record's lane into the upper half of the plot; an insight without a time range leaves the window alone. */
static void control_insight_zoom(struct ss_control *c, const struct ss_control_input *in)
{
	const struct ss_insight *x = insightbox_selected(&c->insight, in->insights);
	struct ss_rect plot = control_plot(in);
	double t0, span;
	int lane = -1, half = plot.h / 2 > 0 ? plot.h / 2 : 1;

	if (x == NULL || !insightbox_range(x, plot.w > 0 ? plot.w : 100, &t0, &span))
		return;
	c->gv.t0 = t0;
	c->gv.span = span;
	c->follow = false;
	for (size_t i = 0; in->run != NULL && i < x->nrec && i < SS_INSIGHT_MAX_RECS && lane < 0; i++)
		if (x->rec[i] < in->run->indexed)
			lane = lanes_find(in->run, c->gv.compact, (uint32_t)x->rec[i]);
	if (lane >= 0 && (lane < c->gv.top || lane >= c->gv.top + half))
		c->gv.top = lane > 0 ? lane - 1 : 0;
}

/* The sweep cursor's moves by key: dx stream counts along its order's row, dy orders (CONTROL_SWEEP_END: to that end
 * of the row, clamped). */
#define CONTROL_SWEEP_END (INT_MAX / 2)
static const struct {
	enum ss_action act;
	int dx, dy;
} control_sweep_moves[] = {
    {ACT_PAN_LEFT, -1, 0},
    {ACT_PAGE_LEFT, -1, 0},
    {ACT_PAN_RIGHT, 1, 0},
    {ACT_PAGE_RIGHT, 1, 0},
    {ACT_START, -CONTROL_SWEEP_END, 0},
    {ACT_END, CONTROL_SWEEP_END, 0},
    {ACT_SCROLL_UP, 0, -1},
    {ACT_LANE_UP, 0, -1},
    {ACT_PAGE_UP, 0, -1},
    {ACT_SCROLL_DOWN, 0, 1},
    {ACT_LANE_DOWN, 0, 1},
    {ACT_PAGE_DOWN, 0, 1},
};

/* control_clamp is v kept within 0..n-1 (n >= 1). */
static int control_clamp(int v, int n)
{
	return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* control_sweep_key moves the sweep view's cursor (true: act was one of its keys; *eff what it asks for). */
static bool control_sweep_key(struct ss_control *c, const struct ss_sweep *s, enum ss_action act,
                              enum ss_control_effect *eff)
{
	int n = s->ncounts, i, o;

	if (n <= 0 || s->n == 0)
		return false;
	if (c->sweep_cur >= s->n)
		c->sweep_cur = 0;
	i = (int)(c->sweep_cur % (size_t)n);
	o = (int)(c->sweep_cur / (size_t)n);
	for (size_t k = 0; k < sizeof control_sweep_moves / sizeof control_sweep_moves[0]; k++)
		if (control_sweep_moves[k].act == act) {
			i = control_clamp(i + control_sweep_moves[k].dx, n);
			o = control_clamp(o + control_sweep_moves[k].dy, s->norders);
			c->sweep_cur = (size_t)o * (size_t)n + (size_t)i;
			return true;
		}
	switch (act) {
	case ACT_NEXT:
	case ACT_PREV: {
		size_t k = act == ACT_NEXT ? (c->sweep_cur + 1) % s->n : (c->sweep_cur + s->n - 1) % s->n;

		c->sweep_cur = k;
		return true;
	}
	case ACT_ZOOM_SEL:
		*eff = CONTROL_OPEN_POINT;
		c->claims.cur = 0; /* the point's run's claims, once the sweep view closes */
		return true;
	default:
		return false;
	}
}

enum ss_control_effect control_action(struct ss_control *c, const struct ss_control_input *in, enum ss_action act,
                                      struct ss_experiment *exp)
{
	enum ss_control_effect eff = CONTROL_NONE;

	const struct ss_lanes *l = in->run;
	struct ss_rect plot;
	int page;

	c->message[0] = '\0';
	if (in->layout == NULL) {
		/* the terminal is too small to show what a key would do: only quitting acts */
		if (act == ACT_QUIT)
			c->quit = true;
		return CONTROL_NONE;
	}
	if (c->help) {
		/* the help overlay takes any key to close, like less; ? again turns to the legend */
		c->help = act == ACT_HELP && c->help == CONTROL_HELP_KEYS ? CONTROL_HELP_LEGEND : 0;
		return CONTROL_NONE;
	}
	if (c->summary) {
		/* the summary panel too */
		c->summary = false;
		return CONTROL_NONE;
	}
	if (c->claims.open && claimsbox_key(&c->claims, in->nclaims, act) != CLAIMSBOX_IGNORED)
		return CONTROL_NONE; /* the claims panel takes its keys; the others work as usual */
	if (c->advice.open && !c->sweep) {
		/* the advice panel: Enter applies the advice (a re-run), Esc and a close it; other keys as usual */
		enum ss_advicebox_effect ae = advicebox_key(&c->advice, in->advice, act);

		if (ae == ADVICEBOX_APPLY && in->exp != NULL && !in->file) {
			char what[256];

			experiment_changes(in->exp, &in->advice->best.e, NULL, what, sizeof what);
			*exp = in->advice->best.e;
			c->follow = true;
			control_say(c, SS_ROLE_HIGHLIGHT, "the advice applied: %s (predicted %.1f%% faster, modelled)",
			            what, in->advice->gain_pct);
			return CONTROL_RUN;
		}
		if (ae != ADVICEBOX_IGNORED)
			return CONTROL_NONE;
	}
	if (c->insight.open && !c->sweep) {
		/* the insights panel takes its keys (not over the sweep view, which hides it); the others (experiment
		 * keys too) work as usual */
		enum ss_insightbox_effect ie = insightbox_key(&c->insight, in->insights, act);

		if (ie == INSIGHTBOX_ZOOM)
			control_insight_zoom(c, in);
		if (ie != INSIGHTBOX_IGNORED)
			return CONTROL_NONE;
	}
	if (keys_experiment(act) && in->file) {
		control_say(c, SS_ROLE_WARN, "viewing a file: the experiment keys are off");
		return CONTROL_NONE;
	}
	control_sync(c, in);
	if (c->sweep && in->sweep != NULL && control_sweep_key(c, in->sweep, act, &eff))
		return eff;
	plot = control_plot(in);
	page = plot.h > 0 ? plot.h : 10;
	switch (act) {
	case ACT_QUIT:
		c->quit = true;
		break;
	case ACT_HELP:
		c->help = CONTROL_HELP_KEYS;
		break;
	case ACT_CLOSE:
		if (c->sweep) {
			c->sweep = false;
			c->claims.cur = 0; /* the claims panel lists the run's now */
		} else
			c->gv.sel = UINT32_MAX;
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
		if (!control_change(c, in, act, exp))
			return CONTROL_NONE;
		c->follow = true; /* the new run is fitted, unless the user zooms or pans before it lands */
		return CONTROL_RUN;
	case ACT_REREAD:
		c->follow = true;
		return CONTROL_REREAD;
	case ACT_PAN_LEFT:
	case ACT_PAN_RIGHT:
	case ACT_PAGE_LEFT:
	case ACT_PAGE_RIGHT:
		c->gv.t0 += (act == ACT_PAN_LEFT || act == ACT_PAGE_LEFT ? -1 : 1) *
		            (act == ACT_PAN_LEFT || act == ACT_PAN_RIGHT ? c->gv.span / 8 : c->gv.span * 0.9);
		c->follow = false;
		break;
	case ACT_START:
	case ACT_END:
		if (l != NULL && l->have_span)
			c->gv.t0 = act == ACT_START ? (double)l->t0 : (double)l->t1 - c->gv.span * 0.95;
		c->follow = false;
		break;
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT:
		control_zoom(c, act == ACT_ZOOM_IN ? 0.5 : 2.0, control_zoom_centre(c, in));
		break;
	case ACT_FIT:
	case ACT_FIT_ALL:
		c->follow = true;
		c->fit_all = act == ACT_FIT_ALL;
		break;
	case ACT_SCROLL_UP:
	case ACT_SCROLL_DOWN:
	case ACT_PAGE_UP:
	case ACT_PAGE_DOWN:
		c->gv.top += (act == ACT_SCROLL_UP || act == ACT_PAGE_UP ? -1 : 1) *
		             (act == ACT_SCROLL_UP || act == ACT_SCROLL_DOWN ? 1 : page);
		break;
	case ACT_NEXT:
	case ACT_PREV:
		control_select(c, in, act == ACT_NEXT ? 1 : -1, 0);
		break;
	case ACT_LANE_DOWN:
	case ACT_LANE_UP:
		control_select(c, in, 0, act == ACT_LANE_DOWN ? 1 : -1);
		break;
	case ACT_ZOOM_SEL:
		if (l != NULL && c->gv.sel != UINT32_MAX) {
			const struct ss_record *r = &l->tl->rec[c->gv.sel];
			double d = (double)(r->end - r->start);

			if (d < 100)
				d = 100;
			c->gv.t0 = (double)r->start - d * 0.25;
			c->gv.span = d * 1.5;
			c->follow = false;
		}
		break;
	case ACT_PIN:
		return CONTROL_PIN;
	case ACT_SWEEP:
		c->sweep = !c->sweep;
		c->claims.cur = 0; /* the claims panel lists the other's now */
		return c->sweep && in->exp != NULL ? CONTROL_SWEEP : CONTROL_NONE;
	case ACT_EXPORT:
		return CONTROL_EXPORT;
	case ACT_SUMMARY:
		c->summary = in->run != NULL;
		if (!c->summary)
			control_say(c, SS_ROLE_WARN, "nothing to summarise yet");
		break;
	case ACT_ADVISE:
		if (in->file || in->exp == NULL) {
			control_say(c, SS_ROLE_WARN,
			            "the advisor searches an experiment's configurations: none to advise on here");
			break;
		}
		c->advice.open = true;
		c->insight.open = false;
		c->claims.open = false;
		c->sweep = false;
		break;
	case ACT_INSIGHTS:
		c->advice.open = false;
		c->claims.open = false;
		c->insight.open = true;
		c->insight.cur = 0;
		c->sweep = false;
		control_insight_zoom(c, in);
		break;
	case ACT_CLAIMS: /* over the sweep view too: its claims then */
		c->claims = (struct ss_claimsbox){true, 0};
		c->advice.open = false;
		c->insight.open = false;
		break;
	case ACT_COMPACT:
		c->gv.compact = !c->gv.compact;
		c->compact_auto = false;
		c->gv.top = 0;
		break;
	case ACT_REDRAW:
		return CONTROL_REDRAW;
	default:
		break;
	}
	/* the scroll keys move freely: bring them back within the lanes at once, not at the next frame */
	control_sync(c, in);
	return CONTROL_NONE;
}

void control_mouse(struct ss_control *c, const struct ss_control_input *in, const struct ss_mouse *m)
{
	struct ss_rect plot, a;
	int lane;

	c->message[0] = '\0';
	if (in->layout == NULL) /* too small a terminal: the mouse does nothing */
		return;
	if (c->help || c->summary) {
		c->help = 0;
		c->summary = false;
		return;
	}
	control_sync(c, in);
	if (in->layout == NULL || c->sweep || in->run == NULL)
		return;
	plot = control_plot(in);
	a = in->layout->plot[0];
	if (m->what == MOUSE_WHEEL_UP || m->what == MOUSE_WHEEL_DOWN) {
		if (m->x < a.x || m->x >= a.x + a.w)
			return;
		control_zoom(c, m->what == MOUSE_WHEEL_UP ? 1 / 1.5 : 1.5,
		             c->gv.t0 + (m->x - a.x + 0.5) * c->gv.span / a.w);
		control_sync(c, in);
		return;
	}
	if (m->what != MOUSE_CLICK)
		return;
	if (m->x >= plot.x && m->x < plot.x + plot.w && m->y >= plot.y && m->y < plot.y + plot.h)
		c->gv.sel = gantt_pick(in->run, plot, &c->gv, m->x, m->y, &lane);
}

void control_pinned(struct ss_control *c, bool pinned, bool had)
{
	c->gv.sel = UINT32_MAX;
	if (pinned)
		control_say(c, SS_ROLE_HIGHLIGHT, "pinned as A: the next run shows beneath as B (p unpins)");
	else if (had)
		control_say(c, SS_ROLE_TEXT, "unpinned");
	else
		control_say(c, SS_ROLE_WARN, "nothing to pin yet: wait for the run to finish");
}
