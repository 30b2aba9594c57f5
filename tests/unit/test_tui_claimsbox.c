/* test_tui_claimsbox.c: the claims panel (key C): its keys and marks; the claims it lists (a model run of document
 * 003's weaker order, a model sweep of document 001's program, a pinned run and the shown one that differ in the
 * sync order), worked out once per run, and why it lists none
 * (no run yet, a run in progress, a trace, an experiment file's steps, a sweep not finished, a run no claim
 * judges); the controls opening and closing it over the timeline and the sweep view; and whole screens with it
 * open at several sizes, in UTF-8 and ASCII. */
#include "core/analysis.h"
#include "core/experiment.h"
#include "model/model.h"
#include "run/claims.h"
#include "run/sweep.h"
#include "test_tui_util.h"
#include "tui/claimsbox.h"
#include "tui/control.h"
#include "tui/lanes.h"
#include "tui/layout.h"
#include "tui/view.h"

/* A model run of e: its sorted timeline, index and analysis. */
struct run {
	struct ss_experiment e;
	struct ss_timeline tl;
	struct ss_lanes lanes;
	struct ss_analysis an;
};

static struct run *run_of(const struct ss_experiment *e)
{
	struct run *r = calloc(1, sizeof *r);
	struct ss_profile p;
	char *cause = NULL;

	assert_non_null(r);
	r->e = *e;
	if (profile_default(&p, &cause) != 0)
		fail_msg("profile: %s", cause);
	timeline_init(&r->tl);
	if (model_timeline(&r->e, &p, &r->tl, NULL, &cause) != 0)
		fail_msg("model: %s", cause);
	timeline_sort(&r->tl);
	lanes_init(&r->lanes);
	lanes_build(&r->lanes, &r->tl);
	analysis_timeline(&r->tl, &r->an);
	return r;
}

static struct run *run_new(enum ss_preset preset, enum ss_order order)
{
	struct ss_experiment e;

	experiment_preset(&e, preset);
	e.order = order;
	return run_of(&e);
}

static void run_free(struct run *r)
{
	lanes_free(&r->lanes);
	timeline_free(&r->tl);
	free(r);
}

/* A finished model sweep of document 001's kernel-transfer over 1, 2 and 4 streams, depth-first. */
static void sweep_new(struct ss_sweep *s)
{
	static const int counts[] = {1, 2, 4};
	static const enum ss_order orders[] = {SS_ORDER_DEPTH};
	struct ss_experiment base;
	char *cause = NULL;

	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	sweep_init(s, &base, counts, 3, orders, 1);
	if (sweep_run(s, &model_backend, NULL, &cause) != 0)
		fail_msg("sweep: %s", cause);
	s->modelled = true;
}

static int find_id(const struct ss_claimsbox_view *v, const char *id)
{
	for (int i = 0; i < v->n; i++)
		if (strcmp(v->c[i].id, id) == 0)
			return i;
	return -1;
}

/* claims_of: claimsbox_claims on a run of id with tl, an, e (modelled or not), no run pinned. */
static void claims_of(struct ss_claimsbox_cache *c, const struct ss_sweep *s, uint64_t id, const struct ss_timeline *tl,
                      const struct ss_analysis *an, const struct ss_experiment *e, bool modelled,
                      struct ss_claimsbox_view *v)
{
	struct ss_claimsbox_run r = {id, tl, an, e, modelled};

	claimsbox_claims(c, s, &r, NULL, v);
}

static void test_keys_marks(void **state)
{
	struct ss_claimsbox b = {true, 0};

	(void)state;
	assert_int_equal(claimsbox_key(&b, 3, ACT_LANE_DOWN), CLAIMSBOX_DONE);
	assert_int_equal(claimsbox_key(&b, 3, ACT_SCROLL_DOWN), CLAIMSBOX_DONE);
	assert_int_equal(b.cur, 2);
	assert_int_equal(claimsbox_key(&b, 3, ACT_LANE_DOWN), CLAIMSBOX_DONE); /* stays on the last */
	assert_int_equal(b.cur, 2);
	assert_int_equal(claimsbox_key(&b, 3, ACT_LANE_UP), CLAIMSBOX_DONE);
	assert_int_equal(claimsbox_key(&b, 3, ACT_SCROLL_UP), CLAIMSBOX_DONE);
	assert_int_equal(claimsbox_key(&b, 3, ACT_SCROLL_UP), CLAIMSBOX_DONE); /* stays on the first */
	assert_int_equal(b.cur, 0);
	/* other keys are the controls' */
	assert_int_equal(claimsbox_key(&b, 3, ACT_ORDER), CLAIMSBOX_IGNORED);
	assert_int_equal(claimsbox_key(&b, 3, ACT_SWEEP), CLAIMSBOX_IGNORED);
	assert_int_equal(claimsbox_key(&b, 3, ACT_PAN_LEFT), CLAIMSBOX_IGNORED);
	assert_true(b.open);
	assert_int_equal(claimsbox_key(&b, 3, ACT_CLOSE), CLAIMSBOX_DONE);
	assert_false(b.open);
	b.open = true;
	assert_int_equal(claimsbox_key(&b, 3, ACT_CLAIMS), CLAIMSBOX_DONE);
	assert_false(b.open);
	/* fewer claims than the selection (the run changed): clamped; none: the selection stays at 0 */
	b = (struct ss_claimsbox){true, 7};
	assert_int_equal(claimsbox_key(&b, 2, ACT_ORDER), CLAIMSBOX_IGNORED);
	assert_int_equal(b.cur, 1);
	assert_int_equal(claimsbox_key(&b, 0, ACT_LANE_DOWN), CLAIMSBOX_DONE);
	assert_int_equal(b.cur, 0);
	/* each glyph has an ASCII twin, and the three marks differ */
	assert_int_equal(claimsbox_mark(SS_VERDICT_HOLDS, false), '+');
	assert_int_equal(claimsbox_mark(SS_VERDICT_FAILS, false), 'x');
	assert_int_equal(claimsbox_mark(SS_VERDICT_UNMEASURED, false), '?');
	assert_true(claimsbox_mark(SS_VERDICT_HOLDS, true) >= 0x80);
	assert_true(claimsbox_mark(SS_VERDICT_FAILS, true) >= 0x80);
	assert_int_not_equal(claimsbox_mark(SS_VERDICT_HOLDS, true), claimsbox_mark(SS_VERDICT_FAILS, true));
	assert_int_not_equal(claimsbox_mark(SS_VERDICT_UNMEASURED, true), claimsbox_mark(SS_VERDICT_FAILS, true));
}

/* What the panel lists: the run's claims as `run` prints them, worked out once per run; the sweep's once it
 * finished; and a reason where there are none. */
static void test_claims(void **state)
{
	struct run *r = run_new(SS_PRESET_VECTOR_ADD, SS_ORDER_WEAKER);
	struct ss_claimsbox_cache *c = calloc(1, sizeof *c);
	struct ss_claimsbox_view v = {0};
	struct ss_claim ref[SS_CLAIMS_MAX];
	struct ss_claims_obs obs;
	struct ss_experiment steps;
	struct ss_sweep s;
	int k;

	(void)state;
	assert_non_null(c);
	claims_observe(&r->tl, &obs);
	assert_int_equal(claims_run(&r->e, &r->an, &obs, true, ref), 3);
	v.cur = 2;
	claims_of(c, NULL, 1, &r->tl, &r->an, &r->e, true, &v);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.cur, 2); /* the selection is the controls': kept */
	assert_false(v.sweep);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(v.c[i].id, ref[i].id);
		assert_int_equal(v.c[i].verdict, ref[i].verdict);
		assert_string_equal(v.c[i].evidence, ref[i].evidence);
		assert_true(v.c[i].modelled);
	}
	k = find_id(&v, "003-kernel-order");
	assert_true(k >= 0);
	assert_int_equal(v.c[k].verdict, SS_VERDICT_HOLDS);
	/* the same run again: not worked out again (a mark left in the cache stays); another run id: worked out */
	c->run[0].verdict = SS_VERDICT_UNMEASURED;
	claims_of(c, NULL, 1, &r->tl, &r->an, &r->e, true, &v);
	assert_int_equal(v.c[0].verdict, SS_VERDICT_UNMEASURED);
	claims_of(c, NULL, 2, &r->tl, &r->an, &r->e, true, &v);
	assert_int_equal(v.c[0].verdict, ref[0].verdict);
	/* the GPU's numbers are not labelled modelled */
	claims_of(c, NULL, 3, &r->tl, &r->an, &r->e, false, &v);
	assert_false(v.c[0].modelled);

	/* none, and why */
	claims_of(c, NULL, 4, NULL, NULL, NULL, true, &v);
	assert_int_equal(v.n, 0);
	assert_string_equal(v.none, "nothing has run yet");
	claims_of(c, NULL, 4, &r->tl, NULL, &r->e, true, &v);
	assert_int_equal(v.n, 0);
	assert_non_null(strstr(v.none, "in progress"));
	claims_of(c, NULL, 4, &r->tl, &r->an, NULL, true, &v);
	assert_int_equal(v.n, 0);
	assert_non_null(strstr(v.none, "a trace"));
	steps = r->e;
	steps.nsteps = 1;
	claims_of(c, NULL, 4, &r->tl, &r->an, &steps, true, &v);
	assert_int_equal(v.n, 0);
	assert_non_null(strstr(v.none, "experiment file's steps"));
	{
		/* hyperq: no copies, no claim */
		struct run *h = run_new(SS_PRESET_HYPERQ, SS_ORDER_DEPTH);

		claims_of(c, NULL, 5, &h->tl, &h->an, &h->e, true, &v);
		assert_int_equal(v.n, 0);
		assert_non_null(strstr(v.none, "supports none of the documents' claims"));
		run_free(h);
	}

	/* the sweep's, once every point has run: document 001's */
	sweep_new(&s);
	claims_of(c, &s, 1, &r->tl, &r->an, &r->e, true, &v);
	assert_true(v.sweep);
	assert_true(v.n > 0);
	assert_true(find_id(&v, "001-theory") >= 0);
	assert_true(find_id(&v, "003-kernel-order") < 0); /* the run's are not the sweep's */
	s.pt[s.n - 1].done = false;
	claims_of(c, &s, 1, &r->tl, &r->an, &r->e, true, &v);
	assert_int_equal(v.n, 0);
	assert_non_null(strstr(v.none, "when every point has run (2 of 3)"));
	s.pt[s.n - 1].done = true;
	s.base.nsteps = 1;
	claims_of(c, &s, 1, &r->tl, &r->an, &r->e, true, &v);
	assert_int_equal(v.n, 0);
	assert_non_null(strstr(v.none, "experiment file's steps"));
	s.base.nsteps = 0;
	sweep_free(&s);
	free(c);
	run_free(r);
}

/* A pinned run (A) and the shown one (B) that differ in the sync order only: the claim they judge together comes
 * first, with claims_pair's numbers, then B's own; unpinned, or pinned to a run that differs otherwise, only B's. */
static void test_pair(void **state)
{
	struct ss_experiment e;
	struct run *a, *b, *other;
	struct ss_claimsbox_cache *c = calloc(1, sizeof *c);
	struct ss_claimsbox_view v = {0};
	struct ss_claimsbox_run ra, rb, ro;
	struct ss_claims_obs oa, ob;
	struct ss_claim ref[SS_CLAIMS_MAX];
	struct ss_grid g;
	int nb;

	(void)state;
	assert_non_null(c);
	experiment_preset(&e, SS_PRESET_SYNC_ORDER);
	e.sync = SS_SYNC_STREAM;
	a = run_of(&e);
	e.sync = SS_SYNC_REVERSE;
	b = run_of(&e);
	e.streams = 4;
	other = run_of(&e);
	ra = (struct ss_claimsbox_run){1, &a->tl, &a->an, &a->e, true};
	rb = (struct ss_claimsbox_run){2, &b->tl, &b->an, &b->e, true};
	ro = (struct ss_claimsbox_run){3, &other->tl, &other->an, &other->e, true};
	claims_observe(&a->tl, &oa);
	claims_observe(&b->tl, &ob);
	assert_int_equal(claims_pair(&a->e, &a->an, &oa, &b->e, &b->an, &ob, true, ref), 1);
	nb = claims_run(&b->e, &b->an, &ob, true, ref + 1);
	assert_true(nb > 0);
	claimsbox_claims(c, NULL, &rb, &ra, &v);
	assert_true(v.pair);
	assert_int_equal(v.n, 1 + nb);
	assert_string_equal(v.c[0].id, "003-sync-order");
	for (int i = 0; i < v.n; i++) {
		assert_string_equal(v.c[i].id, ref[i].id);
		assert_string_equal(v.c[i].measured, ref[i].measured);
	}
	/* drawn: the title says whose, the pair's heading which run is which */
	grid_init(&g, 100, 30);
	claimsbox_draw(&g, (struct ss_rect){0, 0, 100, 30}, &v, glyphs_get(false));
	assert_true(tui_find(&g, "A and B's claims: ") >= 0);
	assert_true(tui_find(&g, "003-sync-order: ") >= 0);
	assert_true(tui_find(&g, "A (pinned) against B") >= 0);
	assert_true(tui_find(&g, "in order ") >= 0);
	grid_free(&g);
	/* unpinned: B's own only, worked out again */
	claimsbox_claims(c, NULL, &rb, NULL, &v);
	assert_false(v.pair);
	assert_int_equal(v.n, nb);
	/* pinned to a run of another stream count: nothing together */
	claimsbox_claims(c, NULL, &rb, &ro, &v);
	assert_false(v.pair);
	assert_int_equal(v.n, nb);
	/* the pinned run shown itself (no B yet): no pair with itself */
	claimsbox_claims(c, NULL, &ra, &ra, &v);
	assert_false(v.pair);
	free(c);
	run_free(other);
	run_free(b);
	run_free(a);
}

/* The controls: C opens the panel in place of the insights or the advice (and they close it), j and k move its
 * selection, Esc and C close it; over the sweep view it stays open and the sweep with it. */
static void test_control(void **state)
{
	struct run *r = run_new(SS_PRESET_VECTOR_ADD, SS_ORDER_WEAKER);
	struct ss_control c;
	struct ss_control_input in;
	struct ss_layout lay;
	struct ss_layout_opts o = {100, 30, false, true, 0};
	struct ss_experiment e;
	struct ss_sweep s;
	char *cause = NULL;
	uint32_t sel;

	(void)state;
	control_init(&c);
	memset(&in, 0, sizeof in);
	in.run = &r->lanes;
	in.run_id = 1;
	in.exp = &r->e;
	in.nclaims = 3;
	assert_int_equal(layout_compute(&o, &lay, &cause), 0);
	in.layout = &lay;
	control_sync(&c, &in);
	c.insight.open = true;
	assert_int_equal(control_action(&c, &in, ACT_CLAIMS, &e), CONTROL_NONE);
	assert_true(c.claims.open);
	assert_false(c.insight.open);
	assert_int_equal(c.claims.cur, 0);
	/* j moves the claims' selection, not the lanes' */
	sel = c.gv.sel;
	control_action(&c, &in, ACT_LANE_DOWN, &e);
	control_action(&c, &in, ACT_LANE_DOWN, &e);
	control_action(&c, &in, ACT_LANE_DOWN, &e);
	assert_int_equal(c.claims.cur, 2);
	assert_int_equal(c.gv.sel, sel);
	control_action(&c, &in, ACT_LANE_UP, &e);
	assert_int_equal(c.claims.cur, 1);
	/* keys the panel does not take work as usual: a re-run */
	assert_int_equal(control_action(&c, &in, ACT_ORDER, &e), CONTROL_RUN);
	assert_true(c.claims.open);
	/* Esc closes it (and nothing else); C again opens it at the first claim, C closes */
	control_action(&c, &in, ACT_CLOSE, &e);
	assert_false(c.claims.open);
	control_action(&c, &in, ACT_CLAIMS, &e);
	assert_true(c.claims.open && c.claims.cur == 0);
	control_action(&c, &in, ACT_CLAIMS, &e);
	assert_false(c.claims.open);
	/* i and a close it */
	control_action(&c, &in, ACT_CLAIMS, &e);
	control_action(&c, &in, ACT_INSIGHTS, &e);
	assert_false(c.claims.open);
	assert_true(c.insight.open);
	control_action(&c, &in, ACT_CLAIMS, &e);
	assert_false(c.insight.open);
	control_action(&c, &in, ACT_ADVISE, &e);
	assert_false(c.claims.open);
	assert_true(c.advice.open);
	/* over the sweep view: s keeps it open, Esc closes it before the sweep, a second Esc the sweep */
	sweep_new(&s);
	in.sweep = &s;
	control_action(&c, &in, ACT_CLAIMS, &e);
	control_action(&c, &in, ACT_LANE_DOWN, &e);
	assert_int_equal(c.claims.cur, 1);
	assert_int_equal(control_action(&c, &in, ACT_SWEEP, &e), CONTROL_SWEEP);
	assert_true(c.sweep && c.claims.open);
	assert_int_equal(c.claims.cur, 0); /* another list: from its first */
	control_action(&c, &in, ACT_LANE_DOWN, &e);
	assert_int_equal(c.claims.cur, 1);
	control_action(&c, &in, ACT_CLOSE, &e);
	assert_false(c.claims.open);
	assert_true(c.sweep);
	control_action(&c, &in, ACT_CLOSE, &e);
	assert_false(c.sweep);
	/* C over the sweep view opens the panel and leaves the sweep open */
	control_action(&c, &in, ACT_SWEEP, &e);
	control_action(&c, &in, ACT_CLAIMS, &e);
	assert_true(c.sweep && c.claims.open);
	sweep_free(&s);
	run_free(r);
}

/* A whole screen at cols x rows with the panel open on v, over the sweep view when s is not NULL. */
static void screen(struct ss_grid *g, struct run *r, const struct ss_sweep *s, const struct ss_claimsbox_view *cv,
                   int cols, int rows, bool ascii)
{
	struct ss_view v;

	memset(&v, 0, sizeof v);
	v.gl = glyphs_get(ascii);
	v.device = r->tl.device;
	v.modelled = true;
	v.backend = "model";
	v.run = (struct ss_view_run){&r->tl, &r->lanes, &r->an, &r->e};
	v.stats.an = &r->an;
	v.sweep = s;
	v.claims = cv;
	v.gv.sel = UINT32_MAX;
	v.gv.t0 = (double)r->lanes.t0;
	v.gv.span = (double)(r->lanes.t1 - r->lanes.t0);
	grid_resize(g, cols, rows);
	g->ascii = ascii;
	view_draw(g, &v);
}

static void test_screens(void **state)
{
	static const int sizes[][2] = {{80, 24}, {100, 30}, {120, 30}, {160, 50}};
	struct run *r = run_new(SS_PRESET_VECTOR_ADD, SS_ORDER_WEAKER);
	struct ss_claimsbox_cache *c = calloc(1, sizeof *c);
	struct ss_claimsbox_view v = {0}, none = {0};
	struct ss_sweep s;
	struct ss_grid g;
	char row[4096];
	int k;

	(void)state;
	assert_non_null(c);
	sweep_new(&s);
	grid_init(&g, 0, 0);
	for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
		for (int ascii = 0; ascii < 2; ascii++) {
			int cols = sizes[z][0], rows = sizes[z][1], y;

			/* the run's: list, the selected claim's verdict, measurement, claim, expectation, evidence */
			v.cur = 0;
			claims_of(c, NULL, 1, &r->tl, &r->an, &r->e, true, &v);
			k = find_id(&v, "003-kernel-order");
			v.cur = (size_t)k;
			screen(&g, r, NULL, &v, cols, rows, ascii != 0);
			if (getenv("SS_DUMP") != NULL)
				for (int i = 0; i < g.h; i++)
					fprintf(stderr, "%s\n", tui_row(&g, i, row, sizeof row));
			assert_true(tui_find(&g, "the run's claims: 3, 3 hold (MODELLED)") >= 0);
			y = tui_find(&g, "003-copy-duplex");
			assert_true(y >= 0);
			assert_non_null(strstr(tui_row(&g, y, row, sizeof row),
			                       ascii ? "+ 003-copy-duplex" : "\xe2\x9c\x94 003-copy-duplex"));
			assert_true(tui_find(&g, "003-kernel-order: holds (modelled)") >= 0);
			assert_true(tui_find(&g, "claim: ") >= 0);
			if (rows >= 30) { /* the rest where rows are enough */
				assert_true(tui_find(&g, "expected: ") >= 0);
				assert_true(tui_find(&g, "evidence: ") >= 0);
			}
			assert_true(tui_find(&g, "Esc close") >= 0);
			assert_true(tui_find(&g, "Stats") < 0); /* the panel is in the stats' place */
			/* the sweep's, the plot still drawn, the table in the panel's place */
			v.cur = 0;
			claims_of(c, &s, 1, &r->tl, &r->an, &r->e, true, &v);
			screen(&g, r, &s, &v, cols, rows, ascii != 0);
			assert_true(tui_find(&g, "the sweep's claims: ") >= 0);
			assert_true(tui_find(&g, "Sweep: time vs streams") >= 0);
			assert_true(tui_find(&g, "001-theory") >= 0);
			assert_true(tui_find(&g, "claim: ") >= 0);
			/* none, and why, in full */
			none = (struct ss_claimsbox_view){0};
			claims_of(c, NULL, 1, &r->tl, &r->an, NULL, true, &none);
			screen(&g, r, NULL, &none, cols, rows, ascii != 0);
			assert_true(tui_find(&g, "the run's claims") >= 0);
			assert_true(tui_find(&g, "a trace: it does not say") >= 0);
			assert_true(tui_find(&g, "runs them") >= 0); /* the last words too */
		}
	/* below 20x5 the panel draws nothing */
	grid_resize(&g, 19, 10);
	grid_clear(&g);
	claimsbox_draw(&g, (struct ss_rect){0, 0, 19, 10}, &v, glyphs_get(true));
	for (int y = 0; y < g.h; y++)
		assert_string_equal(tui_row(&g, y, row, sizeof row), "                   ");
	grid_free(&g);
	sweep_free(&s);
	free(c);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_keys_marks), cmocka_unit_test(test_claims),  cmocka_unit_test(test_pair),
	    cmocka_unit_test(test_control),    cmocka_unit_test(test_screens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
