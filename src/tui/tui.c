/* tui.c: the event loop: keys and mouse, the session's runs, and a frame at most every 1/30 s while something
 * changes. Signal handlers only set flags; resize arrives as KEYS_RESIZE. */
#include "tui/tui.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/devsum.h"
#include "core/palette.h"
#include "core/sigexit.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "io/export/export.h"
#include "tui/advicebox.h"
#include "tui/claimsbox.h"
#include "tui/control.h"
#include "tui/gantt.h"
#include "tui/glyphs.h"
#include "tui/grid.h"
#include "tui/insightbox.h"
#include "tui/keys.h"
#include "tui/layout.h"
#include "tui/session.h"
#include "tui/term.h"
#include "tui/tui_screen.h"
#include "tui/view.h"

#define TUI_FRAME_S (1.0 / 30.0) /* at most 30 frames a second, at least 20 while a run streams in */

/* The UI's state besides the session's runs. */
struct tui {
	const struct tui_options *o;
	struct ss_term term;
	struct ss_grid grid;
	const struct ss_glyphs *gl;
	struct ss_session ses;
	struct ss_control ctl; /* window, scroll, selection, overlays */
	char message[384];     /* the status line's message, warnings and notices alike: until the next key (tui_key) */
	int message_role;
	bool dirty;
	double last_frame;
	struct ss_layout layout;
	bool hangup;           /* the terminal is gone: the loop ends as if SIGHUP came */
	struct ss_summary sum; /* the summary panel's rows, of the run with id sum_id */
	uint64_t sum_id;
	size_t sum_n;         /* and that many records */
	struct ss_devsum dev; /* the stats' per-device rows, of the finished run dev_id (two or more devices) */
	uint64_t dev_id;
	bool have_dev;
	struct ss_experiment prev_exp; /* the run shown before the last one: what a re-run is compared with */
	uint64_t prev_ns;
	bool have_prev;

	struct ss_insightbox_cache ins; /* the shown run's insights */
	struct ss_insightbox_view insv; /* what the insights panel shows */
	struct ss_advicebox_cache adv;  /* the advice for the current experiment */
	struct ss_advicebox_view advv;  /* what the advice panel shows */
	struct ss_claimsbox_cache clm;  /* the shown run's claims, and the sweep's */
	struct ss_claimsbox_view clmv;  /* what the claims panel shows */

	struct stat file_st; /* the experiment file as last read or announced (its mtime and size); zero when none */
	double file_checked; /* when tui_watch last looked at it */
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

/* tui_say shows a message in the status line until it is replaced or the next key clears it (as less does). */
static void tui_say(struct tui *t, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void tui_say(struct tui *t, int role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_role = role;
	t->dirty = true;
}

/* tui_insights returns the insights of the run on screen once it finished (NULL before), re-analysed when the run
 * changed. */
static const struct ss_insights *tui_insights(struct tui *t)
{
	struct ss_run *run = session_view(&t->ses);

	return run != NULL && run->done
	           ? insightbox_analyze(&t->ins, run->id, &run->tl, &run->an, run->file ? NULL : &run->exp)
	           : NULL;
}

/* tui_advice returns the advice for the experiment the next change applies to (searched on the model once per
 * experiment), NULL when there is none (a trace is open) or the search failed (t->adv.error). */
static const struct ss_advice *tui_advice(struct tui *t)
{
	const struct ss_experiment *e = session_experiment(&t->ses);

	return e != NULL && t->o->file == NULL ? advicebox_advise(&t->adv, e) : NULL;
}

/* tui_modelled: whether run's numbers are the model's (a run of the model backend, or a modelled trace). */
static bool tui_modelled(const struct tui *t, const struct ss_run *run)
{
	return run->tl.modelled || (t->o->backend != NULL && t->o->backend->modelled && !run->file);
}

/* tui_claims_of describes run (NULL: none) to the claims panel: a trace with the experiment its file stored
 * (tui_options.file_exp), or none. */
static struct ss_claimsbox_run tui_claims_of(const struct tui *t, const struct ss_run *run)
{
	if (run == NULL)
		return (struct ss_claimsbox_run){0};
	return (struct ss_claimsbox_run){run->id, &run->tl, run->done ? &run->an : NULL,
	                                 run->file ? t->o->file_exp : &run->exp, tui_modelled(t, run)};
}

/* tui_claims fills view (cur: the panel's selection) with the claims of what is on screen: the sweep view's sweep
 * when sweep, else the shown run's, with the one it and the pinned run judge together first. */
static void tui_claims(struct tui *t, bool sweep, size_t cur, struct ss_claimsbox_view *view)
{
	struct ss_claimsbox_run run = tui_claims_of(t, session_view(&t->ses)), pin = tui_claims_of(t, t->ses.pinned);

	view->cur = cur;
	claimsbox_claims(&t->clm, sweep && t->ses.have_sweep ? &t->ses.sweep : NULL, &run,
	                 t->ses.pinned != NULL ? &pin : NULL, view);
}

/* tui_view fills v with what the frame shows. */
static void tui_view(struct tui *t, struct ss_view *v, char *pending, size_t plen)
{
	struct ss_run *run = session_view(&t->ses), *pin = t->ses.pinned;

	memset(v, 0, sizeof *v);
	v->gl = t->gl;
	v->source = t->o->file != NULL ? (t->o->file->source[0] ? t->o->file->source : "(trace)") : NULL;
	v->expfile = t->o->file == NULL ? t->o->expfile : NULL;
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
		v->modelled = tui_modelled(t, run);
		v->stats.an = run->done ? &run->an : NULL;
		v->stats.measured = run->done && !run->file && !run->tl.modelled;
		v->stats.have_predicted = run->have_predicted;
		v->stats.predicted_ns = run->predicted_ns;
		v->stats.have_predicted_calls = run->have_predicted_calls;
		v->stats.predicted_calls_ns = run->predicted_calls_ns;
		v->stats.have_dropped = run->done;
		v->stats.dropped = run->tl.dropped;
		if (run->done) {
			/* the run's claims, as the claims panel lists them (worked out once per run) */
			struct ss_claimsbox_view cv = {0};

			tui_claims(t, false, 0, &cv);
			v->stats.claims = cv.n;
			for (int i = 0; i < cv.n; i++)
				v->stats.claims_held += cv.c[i].verdict == SS_VERDICT_HOLDS;
		}
		if (run->done && run->lanes.ndev > 1) {
			if (!t->have_dev || t->dev_id != run->id) {
				devsum_free(&t->dev);
				devsum_build(&run->tl, &t->dev);
				t->dev_id = run->id;
				t->have_dev = true;
			}
			v->stats.dev = &t->dev;
		}
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
	v->gv = t->ctl.gv;
	v->help = t->ctl.help;
	v->sweep = t->ctl.sweep && t->ses.have_sweep ? &t->ses.sweep : NULL;
	v->sweep_cursor = t->ctl.sweep_cur;
	if (t->ctl.summary && run != NULL) {
		if (t->sum_id != run->id || t->sum_n != run->tl.n) {
			summary_free(&t->sum);
			summary_build(&run->tl, &t->sum);
			t->sum_id = run->id;
			t->sum_n = run->tl.n;
		}
		v->summary = &t->sum;
	}
	v->sweep_running = session_sweep_running(&t->ses);
	if (t->ctl.advice.open) {
		t->advv = (struct ss_advicebox_view){tui_advice(t), t->adv.failed ? t->adv.error : NULL};
		v->advice = &t->advv;
	}
	if (t->ctl.claims.open) {
		tui_claims(t, t->ctl.sweep, t->ctl.claims.cur, &t->clmv);
		v->claims = &t->clmv;
	}
	if (t->ctl.insight.open) {
		t->insv = (struct ss_insightbox_view){tui_insights(t), t->ctl.insight.cur, v->modelled, v->running};
		v->insights = &t->insv;
	}
	if (t->message[0]) {
		v->message = t->message;
		v->message_role = t->message_role;
	}
}

/* tui_input describes the session's runs to the controls, with the layout of a cols x rows frame (recomputed, so
 * that a pin or a sweep since the last frame is taken into account). */
static void tui_input(struct tui *t, struct ss_control_input *in, int cols, int rows)
{
	struct ss_run *run = session_view(&t->ses);
	struct ss_view v;

	memset(in, 0, sizeof *in);
	in->run = run != NULL ? &run->lanes : NULL;
	in->run_id = run != NULL ? run->id : 0;
	in->pinned = t->ses.pinned != NULL ? &t->ses.pinned->lanes : NULL;
	in->exp = session_experiment(&t->ses);
	in->file = t->o->file != NULL;
	in->sweep = t->ses.have_sweep ? &t->ses.sweep : NULL;
	memset(&v, 0, sizeof v);
	v.run.lanes = run != NULL ? &run->lanes : NULL;
	v.pinned.tl = t->ses.pinned != NULL ? &t->ses.pinned->tl : NULL;
	v.pinned.lanes = t->ses.pinned != NULL ? &t->ses.pinned->lanes : NULL;
	v.gv.compact = t->ctl.gv.compact;
	v.sweep = t->ctl.sweep && t->ses.have_sweep ? &t->ses.sweep : NULL;
	v.insights = t->ctl.insight.open ? &t->insv : NULL;
	v.advice = t->ctl.advice.open ? &t->advv : NULL;
	in->insights = tui_insights(t);
	in->advice = t->ctl.advice.open ? tui_advice(t) : NULL;
	if (t->ctl.claims.open) {
		tui_claims(t, t->ctl.sweep, t->ctl.claims.cur, &t->clmv);
		v.claims = &t->clmv;
		in->nclaims = t->clmv.n;
	}
	in->layout = view_layout_fit(&v, cols, rows, &t->layout);
}

/* tui_frame draws one frame: the controls made consistent with the runs, the view, the terminal update. */
static void tui_frame(struct tui *t)
{
	struct ss_control_input in;
	struct ss_view v;
	char pending[320];
	int cols, rows;

	term_size(&t->term, &cols, &rows);
	if (t->grid.w != cols || t->grid.h != rows)
		grid_resize(&t->grid, cols, rows);
	tui_input(t, &in, cols, rows);
	control_sync(&t->ctl, &in);
	tui_view(t, &v, pending, sizeof pending);
	view_draw(&t->grid, &v);
	term_draw(&t->term, &t->grid);
	t->dirty = false;
	t->last_frame = tui_clock();
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
	in.t0 = t->ctl.gv.t0 > 0 ? (uint64_t)t->ctl.gv.t0 : 0;
	in.t1 = (uint64_t)(t->ctl.gv.t0 + t->ctl.gv.span);
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

/* tui_rerun says what the run just shown changed: its settings that differ from the run shown before it, and the
 * makespans ("re-ran breadth-first: 814 us -> 790 us (-2.9%)"), and that the window stayed where the user put it. */
static void tui_rerun(struct tui *t)
{
	const struct ss_run *r = t->ses.shown;
	char what[200], a[24], b[24];

	if (r == NULL || r->file || !r->done)
		return;
	if (t->have_prev) {
		if (experiment_changes(&t->prev_exp, &r->exp, NULL, what, sizeof what) == 0)
			snprintf(what, sizeof what, "as before");
		tui_say(t, SS_ROLE_HIGHLIGHT, "re-ran %s: %s -> %s (%+.1f%%)%s", what,
		        units_time(t->prev_ns, a, sizeof a), units_time(r->an.makespan_ns, b, sizeof b),
		        t->prev_ns > 0 ? ((double)r->an.makespan_ns / (double)t->prev_ns - 1.0) * 100.0 : 0.0,
		        t->ctl.follow ? "" : "  view held where you zoomed: f fits the new run");
	}
	t->prev_exp = r->exp;
	t->prev_ns = r->an.makespan_ns;
	t->have_prev = true;
}

/* tui_session handles what the session reports. */
static void tui_session(struct tui *t, unsigned ch)
{
	if (ch == 0)
		return;
	t->dirty = true;
	if (ch & SES_SHOWN) {
		/* the selection went with the run it belonged to: control_sync sees the new run id */
		if (t->message_role != SS_ROLE_WARN)
			t->message[0] = '\0';
		tui_rerun(t);
	}
	if (ch & SES_FAILED)
		tui_say(t, SS_ROLE_WARN, "%s", t->ses.message);
}

/* tui_file_stamp reads the experiment file's stat into *st; false, *st zeroed, when there is no file or it cannot
 * be read. */
static bool tui_file_stamp(const struct tui *t, struct stat *st)
{
	if (t->o->expfile != NULL && stat(t->o->expfile, st) == 0)
		return true;
	memset(st, 0, sizeof *st);
	return false;
}

/* tui_watch looks at the experiment file at most once a second and, when it was written since it was last read
 * or announced, says so once: R runs it. */
static void tui_watch(struct tui *t, double now)
{
	struct stat st;

	if (t->o->expfile == NULL || t->o->reread == NULL || now - t->file_checked < 1.0)
		return;
	t->file_checked = now;
	if (!tui_file_stamp(t, &st) ||
	    (st.st_mtim.tv_sec == t->file_st.st_mtim.tv_sec && st.st_mtim.tv_nsec == t->file_st.st_mtim.tv_nsec &&
	     st.st_size == t->file_st.st_size))
		return;
	t->file_st = st;
	tui_say(t, SS_ROLE_HIGHLIGHT, "%s changed: R runs what it says now", t->o->expfile);
}

/* tui_reread reads the experiment file again (R) and runs what it says now (tui_rerun then says what changed); a
 * file that no longer reads or checks keeps the shown run and gets its one line on the status line. */
static void tui_reread(struct tui *t)
{
	struct ss_experiment e;
	char *cause = NULL;

	if (t->o->reread == NULL || t->o->expfile == NULL) {
		tui_say(t, SS_ROLE_WARN, "no experiment file to re-read: open one with streamscope FILE.ini");
		return;
	}
	tui_file_stamp(t, &t->file_st);
	if (t->o->reread(t->o->reread_ctx, &e, &cause) != 0) {
		tui_say(t, SS_ROLE_WARN, "%s", cause);
		free(cause);
		return;
	}
	tui_say(t, SS_ROLE_HIGHLIGHT, "re-read %s", t->o->expfile);
	session_request(&t->ses, &e);
}

/* tui_key carries out what a key or a mouse event does: the controls' part, then its effect on the session. The
 * status line's message goes with any key or mouse event that reaches the controls; the key's own message, if it
 * has one, takes its place. */
static void tui_key(struct tui *t, int k, const struct ss_mouse *m)
{
	struct ss_control_input in;
	struct ss_experiment e;
	enum ss_control_effect eff = CONTROL_NONE;
	int cols, rows;

	term_size(&t->term, &cols, &rows);
	tui_input(t, &in, cols, rows);
	if (in.layout != NULL) /* too small a terminal ignores the key (control_action) and shows no message */
		t->message[0] = '\0';
	if (k == KEYS_MOUSE)
		control_mouse(&t->ctl, &in, m);
	else
		eff = control_action(&t->ctl, &in, keys_action(k), &e);
	if (t->ctl.message[0])
		tui_say(t, t->ctl.message_role, "%s", t->ctl.message);
	switch (eff) {
	case CONTROL_RUN:
		session_request(&t->ses, &e);
		break;
	case CONTROL_PIN: {
		bool had = t->ses.pinned != NULL;

		control_pinned(&t->ctl, session_pin(&t->ses), had);
		tui_say(t, t->ctl.message_role, "%s", t->ctl.message);
		break;
	}
	case CONTROL_SWEEP:
		session_sweep(&t->ses, session_experiment(&t->ses));
		break;
	case CONTROL_EXPORT:
		tui_export(t);
		break;
	case CONTROL_REDRAW:
		term_invalidate(&t->term);
		break;
	case CONTROL_OPEN_POINT: {
		struct ss_experiment pe;
		char what[320];

		if (!session_open_point(&t->ses, t->ctl.sweep_cur)) {
			tui_say(t, SS_ROLE_WARN, "that point has not run yet");
			break;
		}
		sweep_point_experiment(&t->ses.sweep, t->ctl.sweep_cur, &pe);
		experiment_describe(&pe, what, sizeof what);
		t->ctl.sweep = false;
		t->ctl.follow = true;
		tui_say(t, SS_ROLE_HIGHLIGHT, "the sweep's %s (p pins it for A/B, s goes back)", what);
		break;
	}
	case CONTROL_REREAD:
		tui_reread(t);
		break;
	case CONTROL_NONE:
		break;
	}
}

/* tui_wait sleeps until a key, runner output, a signal or the next frame is due; a terminal that hung up sets
 * t->hangup. */
static void tui_wait(struct tui *t)
{
	struct pollfd pfd[2] = {{STDIN_FILENO, POLLIN, 0}, {session_fd(&t->ses), POLLIN, 0}};
	int timeout = 1000, nfd = pfd[1].fd >= 0 ? 2 : 1;
	double now = tui_clock();

	if (t->dirty)
		timeout = (int)ceil((t->last_frame + TUI_FRAME_S - now) * 1000);
	else if (session_busy(&t->ses))
		timeout = (int)ceil(TUI_FRAME_S * 1000);
	if (timeout < 0)
		timeout = 0;
	/* runner output wakes us only when no frame is pending: the frame rate caps the work, not the pipe */
	if (t->dirty)
		nfd = 1;
	if (poll(pfd, (nfds_t)nfd, timeout) < 0 && errno != EINTR)
		usleep(10000);
	/* the terminal hung up (its other end closed): nothing can be read or shown any more */
	if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
		t->hangup = true;
}

int tui_main(const struct tui_options *o)
{
	struct tui t;
	char *cause = NULL;
	int rc = 0;

	memset(&t, 0, sizeof t);
	t.o = o;
	control_init(&t.ctl);
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
	tui_file_stamp(&t, &t.file_st);
	t.dirty = true;
	while (!t.ctl.quit && !t.hangup && sigexit_pending() == 0) {
		double now = tui_clock();
		struct ss_mouse m;
		int k;

		tui_session(&t, session_poll(&t.ses, now));
		tui_watch(&t, now);
		if (t.dirty && now - t.last_frame >= TUI_FRAME_S)
			tui_frame(&t);
		tui_wait(&t);
		while (!t.ctl.quit && (k = term_key(&t.term, &m)) != -1) {
			t.dirty = true;
			if (k == KEYS_RESIZE)
				term_invalidate(&t.term);
			else
				tui_key(&t, k, &m);
		}
	}
	if (sigexit_pending() != 0)
		rc = 128 + sigexit_pending();
	else if (t.hangup)
		rc = 128 + SIGHUP;
	session_free(&t.ses);
	summary_free(&t.sum);
	devsum_free(&t.dev);
	term_stop(&t.term);
	tui_loud();
	xalloc_set_fatal_hook(NULL);
	tui_current = NULL;
	grid_free(&t.grid);
	sigexit_catch(false);
	return rc;
}
