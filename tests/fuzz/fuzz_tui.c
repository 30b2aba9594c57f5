/* fuzz_tui.c: libFuzzer target for the TUI's state machine and drawing. The input is a program of events: keys
 * (every action), mouse events anywhere, resizes (tiny sizes included), records streaming into a capture, a capture
 * finishing (sorted: its records renumbered) and taking the screen, re-runs replacing the capture, pins and unpins,
 * sweep points finishing or failing (the sweep view's cursor, and its points opened as the run shown), and frames,
 * with the claims panel's claims worked out from the fuzzed runs and sweep points whenever it is open. A
 * small session here does what src/tui/session.c does with its runs (no runner processes), the controls (control.c) act
 * on it, and every frame is drawn (view.c) into a cell grid. ASan and UBSan catch what goes out of bounds; the
 * invariants the controls promise are checked after every event and abort when broken: the selection is a record of the
 * shown run or none, the lane scroll within the lanes, the window finite. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/backend.h"
#include "core/experiment.h"
#include "core/timeline.h"
#include "run/sweep.h"
#include "tui/claimsbox.h"
#include "tui/control.h"
#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/lanes.h"
#include "tui/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_RECORDS 4096 /* per run: keeps an input fast */

/* One run as the session holds it. */
struct fz_run {
	uint64_t id;
	struct ss_timeline tl;
	struct ss_lanes lanes;
	struct ss_analysis an;
	bool done;
	struct ss_experiment exp;
};

/* The session: the run shown, the capture streaming in, the pinned one; and the screen. */
struct fz_world {
	struct fz_run *shown, *capture, *pinned;
	uint64_t next_id;
	bool file;     /* viewing a trace: nothing runs */
	bool file_exp; /* the trace says it ran last (as a streamscope SQLite export of a preset's run does) */
	struct ss_experiment last;
	int nstreams;
	struct ss_control ctl;
	struct ss_layout layout;
	bool layout_ok;
	int cols, rows;
	struct ss_grid grid;
	bool ascii;
	struct ss_sweep sweep;   /* 1, 2, 4, 8 streams in both orders */
	struct ss_timeline *ptl; /* [sweep.n]: each finished point's timeline */
};

/* The claims panel's cache and view (static: the cache is large), reset for each input. */
static struct ss_claimsbox_cache fz_claims_cache;
static struct ss_claimsbox_view fz_claims_view;

/* The bytes still to read; reading past the end gives zeros. */
struct fz_input {
	const uint8_t *p;
	size_t n;
};

static uint32_t fz_byte(struct fz_input *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

static uint32_t fz_u16(struct fz_input *in)
{
	return fz_byte(in) | fz_byte(in) << 8;
}

static struct fz_run *fz_run_new(struct fz_world *w)
{
	struct fz_run *r = calloc(1, sizeof *r);

	if (r == NULL)
		abort();
	r->id = ++w->next_id;
	timeline_init(&r->tl);
	lanes_init(&r->lanes);
	r->tl.nstreams = w->nstreams;
	r->exp = w->last;
	return r;
}

static void fz_run_free(struct fz_run *r)
{
	if (r == NULL)
		return;
	lanes_free(&r->lanes);
	timeline_free(&r->tl);
	free(r);
}

/* fz_records appends up to 32 records read from the input to r and indexes them, as a capture streaming in. */
static void fz_records(struct fz_world *w, struct fz_run *r, struct fz_input *in)
{
	static const char *const names[] = {"", "add", "cudaMemcpyAsync", "cudaStreamSynchronize", "k<<<1,1>>>"};
	uint32_t k = fz_byte(in) % 32 + 1;

	for (uint32_t i = 0; i < k && r->tl.n < FZ_MAX_RECORDS; i++) {
		struct ss_record rec;
		uint32_t s = fz_byte(in);

		memset(&rec, 0, sizeof rec);
		rec.kind = (uint8_t)(fz_byte(in) % SS_KIND_COUNT);
		rec.stream = (int32_t)(s % (uint32_t)(w->nstreams + 4)) - 4;
		if (rec.kind == SS_KIND_API || rec.kind == SS_KIND_SYNC || rec.kind == SS_KIND_MARKER)
			rec.stream = SS_STREAM_HOST;
		rec.start = (uint64_t)fz_u16(in) * (1u + fz_byte(in) % 64);
		rec.end = rec.start + fz_u16(in) % (1u + fz_byte(in) * 64);
		rec.bytes = fz_byte(in) & 1 ? (uint64_t)fz_u16(in) << 8 : 0;
		rec.correlation = fz_byte(in) % 16;
		rec.thread = fz_byte(in) % 3;
		rec.flags = (uint8_t)fz_byte(in);
		rec.name = timeline_intern(&r->tl, names[fz_byte(in) % 5]);
		timeline_add(&r->tl, &rec);
	}
	lanes_build(&r->lanes, &r->tl);
}

/* fz_finish ends r's capture: sorted (records renumbered, so a new id), indexed, analysed. */
static void fz_finish(struct fz_world *w, struct fz_run *r)
{
	timeline_sort(&r->tl);
	lanes_build(&r->lanes, &r->tl);
	r->id = ++w->next_id;
	analysis_timeline(&r->tl, &r->an);
	analysis_observer(&r->an, NULL);
	r->done = true;
}

/* fz_view is the run on screen: the shown one, else the capture streaming in. */
static struct fz_run *fz_view(const struct fz_world *w)
{
	return w->shown != NULL ? w->shown : w->capture;
}

/* fz_claims works out the claims panel's claims as tui_claims does: the sweep's over the sweep view, else the run
 * on screen's once it finished, with the pinned run's pair first. */
static const struct ss_claimsbox_view *fz_claims(struct fz_world *w)
{
	struct fz_run *run = fz_view(w), *pin = w->pinned;
	struct ss_claimsbox_run r = {0}, p = {0};

	if (run != NULL)
		r = (struct ss_claimsbox_run){run->id, &run->tl, run->done ? &run->an : NULL,
		                              w->file ? (w->file_exp ? &w->last : NULL) : &run->exp, true};
	if (pin != NULL)
		p = (struct ss_claimsbox_run){pin->id, &pin->tl, pin->done ? &pin->an : NULL,
		                              w->file ? NULL : &pin->exp, true};
	fz_claims_view.cur = w->ctl.claims.cur;
	claimsbox_claims(&fz_claims_cache, w->ctl.sweep && !w->file ? &w->sweep : NULL, &r, pin != NULL ? &p : NULL,
	                 &fz_claims_view);
	return &fz_claims_view;
}

/* fz_input describes the session to the controls, with the layout of the current size. */
static void fz_control_input(struct fz_world *w, struct ss_control_input *ci)
{
	struct fz_run *run = fz_view(w);
	struct ss_view v;
	char *cause = NULL;

	memset(ci, 0, sizeof *ci);
	ci->run = run != NULL ? &run->lanes : NULL;
	ci->run_id = run != NULL ? run->id : 0;
	ci->pinned = w->pinned != NULL ? &w->pinned->lanes : NULL;
	ci->exp = w->file ? NULL : &w->last;
	ci->file = w->file;
	memset(&v, 0, sizeof v);
	v.pinned.tl = w->pinned != NULL ? &w->pinned->tl : NULL;
	v.sweep = w->ctl.sweep && !w->file ? &w->sweep : NULL;
	if (w->ctl.claims.open) {
		v.claims = fz_claims(w);
		ci->nclaims = v.claims->n;
	}
	w->layout_ok = view_layout(&v, w->cols, w->rows, &w->layout, &cause) == 0;
	free(cause);
	ci->layout = w->layout_ok ? &w->layout : NULL;
	ci->sweep = w->file ? NULL : &w->sweep;
}

/* fz_check aborts when the controls broke a promise. */
static void fz_check(const struct fz_world *w, const struct ss_control_input *ci)
{
	const struct ss_gantt_view *gv = &w->ctl.gv;
	struct fz_run *run = fz_view(w);

	if (gv->sel != UINT32_MAX && (run == NULL || gv->sel >= run->lanes.indexed))
		abort();
	if (w->ctl.sweep_cur >= w->sweep.n)
		abort();
	if (gv->top < 0)
		abort();
	if (ci->layout != NULL) {
		const struct ss_lanes *l = ci->run != NULL ? ci->run : ci->pinned;
		struct ss_rect plot = ci->layout->plot[ci->pinned != NULL && ci->layout->plot[1].h > 0 ? 1 : 0];
		int n = 0;

		if (!isfinite(gv->t0) || !isfinite(gv->span) || !(gv->span > 0))
			abort();
		if (l != NULL) {
			lanes_get(l, gv->compact, &n);
			if (gv->top > (n - plot.h > 0 ? n - plot.h : 0))
				abort();
		}
	}
}

/* fz_frame draws a frame as tui_frame does. */
static void fz_frame(struct fz_world *w)
{
	struct ss_control_input ci;
	struct ss_view v;
	struct fz_run *run, *pin = w->pinned;

	fz_control_input(w, &ci);
	control_sync(&w->ctl, &ci);
	fz_check(w, &ci);
	run = fz_view(w);
	memset(&v, 0, sizeof v);
	v.gl = glyphs_get(w->ascii);
	v.device = "MODEL (fuzz)";
	v.modelled = true;
	v.backend = w->file ? "file" : "model";
	v.source = w->file ? "fuzz.sqlite" : NULL;
	v.running = w->capture != NULL;
	if (run != NULL) {
		v.run = (struct ss_view_run){&run->tl, &run->lanes, run->done ? &run->an : NULL,
		                             w->file ? NULL : &run->exp};
		v.stats.an = run->done ? &run->an : NULL;
		v.stats.have_dropped = run->done;
	}
	if (pin != NULL) {
		v.pinned = (struct ss_view_run){&pin->tl, &pin->lanes, &pin->an, &pin->exp};
		v.stats.pinned = &pin->an;
	}
	v.gv = w->ctl.gv;
	v.help = w->ctl.help;
	v.sweep = w->ctl.sweep && !w->file ? &w->sweep : NULL;
	v.sweep_cursor = w->ctl.sweep_cur;
	v.sweep_running = true;
	v.claims = w->ctl.claims.open ? fz_claims(w) : NULL;
	v.message = w->ctl.message[0] ? w->ctl.message : NULL;
	v.message_role = w->ctl.message_role;
	if (w->grid.w != w->cols || w->grid.h != w->rows)
		grid_resize(&w->grid, w->cols, w->rows);
	view_draw(&w->grid, &v);
}

/* fz_sweep_point finishes sweep point index with records from the input, or fails it. */
static void fz_sweep_point(struct fz_world *w, size_t index, struct fz_input *in)
{
	struct fz_run *r;
	struct ss_run_result res;

	if (index >= w->sweep.n)
		return;
	if (fz_byte(in) % 8 == 0) {
		sweep_done(&w->sweep, index, NULL, NULL, "the fuzzer failed it");
		return;
	}
	r = fz_run_new(w);
	fz_records(w, r, in);
	timeline_sort(&r->tl);
	memset(&res, 0, sizeof res);
	res.modelled = true;
	sweep_done(&w->sweep, index, &r->tl, &res, NULL);
	timeline_free(&w->ptl[index]);
	timeline_copy(&w->ptl[index], &r->tl);
	fz_run_free(r);
}

/* fz_open_point does what session_open_point does: the point's timeline becomes the run shown. */
static void fz_open_point(struct fz_world *w, size_t index)
{
	struct fz_run *r;

	if (index >= w->sweep.n || !w->sweep.pt[index].done || w->sweep.pt[index].failed)
		return;
	r = fz_run_new(w);
	timeline_free(&r->tl);
	timeline_copy(&r->tl, &w->ptl[index]);
	lanes_build(&r->lanes, &r->tl);
	r->an = w->sweep.pt[index].a;
	r->done = true;
	sweep_point_experiment(&w->sweep, index, &r->exp);
	fz_run_free(w->shown);
	w->shown = r;
	w->ctl.sweep = false;
}

/* fz_pin does what session_pin does. */
static bool fz_pin(struct fz_world *w)
{
	if (w->pinned != NULL) {
		if (w->shown == NULL)
			w->shown = w->pinned;
		else
			fz_run_free(w->pinned);
		w->pinned = NULL;
		return false;
	}
	if (w->shown == NULL || !w->shown->done)
		return false;
	w->pinned = w->shown;
	w->shown = NULL;
	return true;
}

/* fz_effect carries out what a key asked of the session. */
static void fz_effect(struct fz_world *w, enum ss_control_effect eff, const struct ss_experiment *e)
{
	switch (eff) {
	case CONTROL_RUN:
		/* a request replaces the capture in progress */
		fz_run_free(w->capture);
		w->last = *e;
		w->capture = fz_run_new(w);
		break;
	case CONTROL_PIN: {
		bool had = w->pinned != NULL;

		control_pinned(&w->ctl, fz_pin(w), had);
		break;
	}
	case CONTROL_OPEN_POINT:
		fz_open_point(w, w->ctl.sweep_cur);
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_input in = {data, size};
	struct fz_world w;
	uint32_t flags = fz_byte(&in);
	int events = 0;

	memset(&w, 0, sizeof w);
	w.file = flags & 1;
	w.file_exp = flags & 64;
	w.ascii = flags & 2;
	w.nstreams = (int)(flags >> 2) % 16 + 1;
	w.cols = 120;
	w.rows = 40;
	experiment_preset(&w.last, SS_PRESET_KERNEL_TRANSFER);
	w.last.streams = w.nstreams;
	{
		static const int counts[] = {1, 2, 4, 8};
		static const enum ss_order orders[] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};

		sweep_init(&w.sweep, &w.last, counts, 4, orders, 2);
		w.ptl = calloc(w.sweep.n, sizeof *w.ptl);
		if (w.ptl == NULL)
			abort();
		for (size_t i = 0; i < w.sweep.n; i++)
			timeline_init(&w.ptl[i]);
	}
	grid_init(&w.grid, w.cols, w.rows);
	control_init(&w.ctl);
	fz_claims_cache.valid = false;
	/* the first run: a trace opened, or the first capture */
	w.capture = fz_run_new(&w);
	fz_records(&w, w.capture, &in);
	if (w.file) {
		fz_finish(&w, w.capture);
		w.shown = w.capture;
		w.capture = NULL;
	}
	while (in.n > 0 && events++ < 2000) {
		struct ss_control_input ci;
		struct ss_experiment e;
		uint32_t op = fz_byte(&in);

		if (op < 140) {
			fz_control_input(&w, &ci);
			fz_effect(&w, control_action(&w.ctl, &ci, (enum ss_action)(fz_byte(&in) % ACT_COUNT), &e), &e);
		} else if (op < 170) {
			struct ss_mouse m;

			m.x = (int)fz_byte(&in) % (w.cols + 4) - 2;
			m.y = (int)fz_byte(&in) % (w.rows + 4) - 2;
			m.what = fz_byte(&in) % 4;
			fz_control_input(&w, &ci);
			control_mouse(&w.ctl, &ci, &m);
		} else if (op < 185) {
			w.cols = (int)fz_byte(&in) + 1;
			w.rows = (int)fz_byte(&in) % 100 + 1;
		} else if (op < 215) {
			if (w.capture != NULL)
				fz_records(&w, w.capture, &in);
		} else if (op < 222) {
			fz_sweep_point(&w, fz_byte(&in) % w.sweep.n, &in);
		} else if (op < 230) {
			if (w.capture != NULL) {
				fz_finish(&w, w.capture);
				fz_run_free(w.shown);
				w.shown = w.capture;
				w.capture = NULL;
			}
		} else {
			fz_frame(&w);
		}
		fz_control_input(&w, &ci);
		control_sync(&w.ctl, &ci);
		fz_check(&w, &ci);
	}
	fz_frame(&w);
	fz_run_free(w.shown);
	fz_run_free(w.capture);
	fz_run_free(w.pinned);
	for (size_t i = 0; i < w.sweep.n; i++)
		timeline_free(&w.ptl[i]);
	free(w.ptl);
	sweep_free(&w.sweep);
	grid_free(&w.grid);
	return 0;
}
