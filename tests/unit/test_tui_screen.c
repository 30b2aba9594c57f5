/* test_tui_screen.c: whole screens as the TUI draws them (golden cell snapshots: plain, ASCII, wide, with a
 * selection, help, A/B, sweep) and the text / ANSI dumps made from the cell grid. */
#include "core/analysis.h"
#include "run/sweep.h"
#include "test_tui_util.h"
#include "tui/gantt.h"
#include "tui/keys.h"
#include "tui/lanes.h"
#include "tui/tui_screen.h"
#include "tui/view.h"

/* A view of the fixture timeline, fitted, with its analysis. */
struct fixture_view {
	struct ss_timeline t, t2;
	struct ss_lanes l, l2;
	struct ss_analysis a, a2;
	struct ss_experiment e, e2;
	struct ss_view v;
	struct ss_grid g;
};

static void fv_init(struct fixture_view *f, int cols, int rows, bool ascii)
{
	struct ss_layout lay;
	char *cause = NULL;

	memset(f, 0, sizeof *f);
	tui_fixture(&f->t);
	lanes_init(&f->l);
	lanes_build(&f->l, &f->t);
	analysis_timeline(&f->t, &f->a);
	analysis_observer(&f->a, NULL);
	experiment_preset(&f->e, SS_PRESET_KERNEL_TRANSFER);
	f->e.streams = 3;
	f->v.gl = glyphs_get(ascii);
	f->v.device = f->t.device;
	f->v.modelled = true;
	f->v.backend = "model";
	f->v.run = (struct ss_view_run){&f->t, &f->l, &f->a, &f->e};
	f->v.gv.sel = UINT32_MAX;
	f->v.stats.an = &f->a;
	f->v.stats.have_dropped = true;
	grid_init(&f->g, cols, rows);
	f->g.ascii = ascii;
	assert_int_equal(view_layout(&f->v, cols, rows, &lay, &cause), 0);
	gantt_fit(&f->l, lay.plot[0].w, &f->v.gv.t0, &f->v.gv.span);
}

static void fv_free(struct fixture_view *f)
{
	lanes_free(&f->l);
	timeline_free(&f->t);
	if (f->t2.rec != NULL) {
		lanes_free(&f->l2);
		timeline_free(&f->t2);
	}
	grid_free(&f->g);
}

/* The CLI's one-shot render at three sizes and in ASCII. */
static void test_render_golden(void **state)
{
	struct ss_timeline t;
	struct ss_experiment e;
	struct ss_grid g;

	(void)state;
	tui_fixture(&t);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 3;
	grid_init(&g, 0, 0);
	tui_screen_render(&g, &t, &e, NULL, 80, 24, false);
	tui_golden(&g, "tui_screen_80x24", "the fixture at 80x24");
	tui_screen_render(&g, &t, &e, NULL, 120, 30, false);
	tui_golden(&g, "tui_screen_120x30", "the fixture at 120x30: stats on the side");
	tui_screen_render(&g, &t, &e, NULL, 80, 24, true);
	tui_golden(&g, "tui_screen_ascii_80x24", "the fixture at 80x24 in ASCII");
	tui_screen_render(&g, &t, NULL, "/data/run.sqlite", 100, 26, false);
	tui_golden(&g, "tui_screen_file_100x26", "an opened file at 100x26");
	grid_free(&g);
	timeline_free(&t);
}

/* A selected kernel: highlighted bar and the detail box with its API call. */
static void test_detail(void **state)
{
	struct fixture_view f;
	char label[10][12], value[10][64];
	int n;

	(void)state;
	fv_init(&f, 100, 30, false);
	f.v.gv.sel = 10; /* s1's kernel */
	assert_int_equal(f.t.rec[10].kind, SS_KIND_KERNEL);
	n = view_detail_lines(&f.v.run, 10, label, value, 10);
	assert_int_equal(n, 9);
	assert_string_equal(value[0], "s1 (id 14)");
	assert_string_equal(value[1], "KER");
	assert_string_equal(value[2], "150 us");
	assert_string_equal(value[3], "80.0 us");
	assert_string_equal(value[4], "-");
	assert_string_equal(value[6], "add_kernel");
	assert_string_equal(value[7], "cudaLaunchKernel at 20.0 us (3.00 us)");
	assert_string_equal(value[8], "5");
	n = view_detail_lines(&f.v.run, 3, label, value, 10); /* s0's H2D: bytes and bandwidth */
	assert_string_equal(value[4], "8.0 MiB");
	assert_string_equal(value[5], "167.8 GB/s");
	view_draw(&f.g, &f.v);
	assert_true(tui_find(&f.g, "selected") > 1);
	tui_golden(&f.g, "tui_screen_selected_100x30", "s1's kernel selected at 100x30");
	fv_free(&f);
}

/* The help overlay lists every bound key group and fits 80x24. */
static void test_help(void **state)
{
	struct fixture_view f;

	(void)state;
	fv_init(&f, 80, 24, false);
	f.v.help = true;
	view_draw(&f.g, &f.v);
	assert_true(tui_find(&f.g, "streamscope keys") >= 1);
	assert_true(tui_find(&f.g, "Experiment") >= 1);
	assert_true(tui_find(&f.g, "General") >= 1);
	assert_true(tui_find(&f.g, "any key closes") >= 1);
	assert_true(tui_find(&f.g, "? again: what the lanes") >= 1);
	assert_true(tui_find(&f.g, "toggle order, re-run") >= 1);
	/* whole at 80x24: the words of every key the table names, in the box (below the header) */
	{
		int n;
		const struct ss_key *k = keys_table(&n);

		for (int i = 0; i < n; i++)
			if (k[i].name != NULL && tui_find(&f.g, k[i].help) < 1)
				fail_msg("the help at 80x24 lacks '%s' (%s)", k[i].name, k[i].help);
	}
	tui_golden(&f.g, "tui_screen_help_80x24", "the help overlay at 80x24");
	fv_free(&f);
	/* a trace's help in one column (140x45): its footer whole, inside the box's borders (it was cut and drawn over
	 * the left border) */
	fv_init(&f, 140, 45, true);
	f.v.help = true;
	f.v.no_experiment = true;
	view_draw(&f.g, &f.v);
	{
		char row[4096];
		int y = tui_find(&f.g, "experiment keys are off here  -  ? the legend, any key closes");
		const char *at;

		assert_true(y >= 1);
		tui_row(&f.g, y, row, sizeof row);
		at = strstr(row, "experiment keys");
		assert_non_null(at);
		assert_true(at - row >= 2);
		assert_true(at[-2] == '|' && at[-1] == ' ');
		assert_non_null(strstr(at, "any key closes |"));
	}
	fv_free(&f);
}

/* The help's second page, the legend: every lane tag, colour and stats item named and explained, whole at 80x24,
 * and in ASCII only with --ascii. */
static void test_legend(void **state)
{
	static const char *const names[] = {"host t812", "H2D",       "KER",      "D2H",      "memset",  "sync",
	                                    "legacy",    "NVTX",      "blk / nb", "ptds",     "compact", "makespan",
	                                    "speedup",   "bound",     "gap",      "H2D util", "overlap", "staging",
	                                    "dropped",   "trace ovh", "B / A"};
	struct fixture_view f;

	(void)state;
	fv_init(&f, 80, 24, false);
	f.v.help = 2;
	view_draw(&f.g, &f.v);
	assert_true(tui_find(&f.g, "streamscope legend") >= 1);
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		assert_true(tui_find(&f.g, names[i]) >= 1);
	/* no explanation cut by the box: the longest ones end inside it */
	assert_true(tui_find(&f.g, "compact: row per stream") >= 1);
	assert_true(tui_find(&f.g, "model's makespan (GPU)") >= 1);
	tui_golden(&f.g, "tui_screen_legend_80x24", "the legend at 80x24");
	fv_free(&f);
	fv_init(&f, 80, 24, true);
	f.v.help = 2;
	view_draw(&f.g, &f.v);
	for (int i = 0; i < f.g.w * f.g.h; i++)
		assert_true(f.g.cell[i].ch < 0x80);
	fv_free(&f);
}

/* A/B: the fixture pinned as A, a slower copy as B: both makespans and the difference. */
static void test_ab(void **state)
{
	struct fixture_view f;
	char row[4096];
	int y;

	(void)state;
	fv_init(&f, 120, 40, false);
	tui_fixture(&f.t2);
	for (size_t i = 0; i < f.t2.n; i++)
		if (f.t2.rec[i].kind == SS_KIND_D2H)
			f.t2.rec[i].end += 100 * US;
	lanes_init(&f.l2);
	lanes_build(&f.l2, &f.t2);
	analysis_timeline(&f.t2, &f.a2);
	f.e2 = f.e;
	f.e2.order = SS_ORDER_BREADTH;
	f.v.pinned = f.v.run;
	f.v.run = (struct ss_view_run){&f.t2, &f.l2, &f.a2, &f.e2};
	f.v.stats.an = &f.a2;
	f.v.stats.pinned = &f.a;
	f.v.gv.compact = true;
	view_draw(&f.g, &f.v);
	y = tui_find(&f.g, "A pinned  makespan");
	assert_true(y == 2);
	assert_non_null(strstr(tui_row(&f.g, y, row, sizeof row), "depth-first"));
	y = tui_find(&f.g, "B  makespan");
	assert_true(y > 2);
	assert_non_null(strstr(tui_row(&f.g, y, row, sizeof row), "B-A +80.0 us (+22.0%)"));
	assert_non_null(strstr(row, "breadth-first"));
	tui_golden(&f.g, "tui_screen_ab_120x40", "A/B at 120x40");
	fv_free(&f);
}

/* The sweep view: curves of both orders and the bound, a table, the progress. Points are set by hand: this tests
 * the drawing, the sweep's arithmetic has its own tests. */
static void test_sweep(void **state)
{
	struct fixture_view f;
	struct ss_sweep s;
	static const int counts[] = {1, 2, 4, 8, 16, 32, 64, 128};
	static const enum ss_order orders[2] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};

	(void)state;
	fv_init(&f, 120, 40, false);
	sweep_init(&s, &f.e, counts, 8, orders, 2);
	for (size_t i = 0; i + 3 < s.n; i++) {
		struct ss_sweep_point *p = &s.pt[i];
		double n = p->streams, t = 1.2e6 / (n < 6 ? n : 6) + 2e4 * n * (p->order == SS_ORDER_BREADTH ? 1.5 : 1);

		p->done = true;
		p->a.makespan_ns = p->a.used_ns = (uint64_t)t;
		p->a.have_bound = true;
		p->a.bound_ns = (uint64_t)(1.2e6 / 3 + 0.8e6 / n);
	}
	s.pt[s.n - 3].done = true;
	s.pt[s.n - 3].failed = true;
	snprintf(s.pt[s.n - 3].error, sizeof s.pt[0].error, "the runner process crashed (signal 11)");
	f.v.sweep = &s;
	f.v.sweep_running = true;
	view_draw(&f.g, &f.v);
	assert_true(tui_find(&f.g, "Sweep: time vs streams  running 14/16") == 2);
	assert_true(tui_find(&f.g, "point 32 streams breadth failed: the runner process crashed") == 3);
	assert_true(tui_find(&f.g, "ideal bound") > 2);
	tui_golden(&f.g, "tui_screen_sweep_120x40", "a sweep, 14 of 16 points in, at 120x40");
	f.g.ascii = true;
	f.v.gl = glyphs_get(true);
	view_draw(&f.g, &f.v);
	tui_golden(&f.g, "tui_screen_sweep_ascii_120x40", "the same in ASCII");
	sweep_free(&s);
	fv_free(&f);
}

/* A default sweep of an experiment that runs depth-first only (two devices): the title row says breadth was left
 * out and why, the table has the depth column and the bound, no breadth column. */
static void test_sweep_one_order(void **state)
{
	static const enum ss_order orders[2] = {SS_ORDER_DEPTH, SS_ORDER_BREADTH};
	struct fixture_view f;
	struct ss_experiment e;
	struct ss_sweep s;
	char row[4096];
	int y;

	(void)state;
	fv_init(&f, 120, 40, false);
	e = f.e;
	e.devices = 2;
	sweep_init_default(&s, &e, orders, 2);
	assert_int_equal(s.norders, 1);
	for (size_t i = 0; i < s.n; i++) {
		s.pt[i].done = true;
		s.pt[i].a.makespan_ns = s.pt[i].a.used_ns = (uint64_t)(1.2e6 / s.pt[i].streams + 3e4);
		s.pt[i].a.have_bound = true;
		s.pt[i].a.bound_ns = 4e5;
	}
	f.v.sweep = &s;
	view_draw(&f.g, &f.v);
	y = tui_find(&f.g, "Sweep: time vs streams  done 7/7");
	assert_true(y >= 0);
	assert_int_equal(tui_find(&f.g, "breadth-first left out: --devices 2 cannot run --order breadth: "), y + 2);
	y = tui_find(&f.g, "   n    depth    bound");
	assert_true(y >= 0);
	assert_non_null(strstr(tui_row(&f.g, y + 7, row, sizeof row), "   64  "));
	assert_true(tui_find(&f.g, "breadth ") < 0);
	sweep_free(&s);
	fv_free(&f);
}

/* Nothing yet: the live run's first moments and a run that failed before any record. */
static void test_empty(void **state)
{
	struct fixture_view f;
	char row[1024];

	(void)state;
	fv_init(&f, 80, 24, false);
	f.v.run = (struct ss_view_run){0};
	f.v.stats.an = NULL;
	f.v.stats.have_dropped = false;
	f.v.running = true;
	f.v.progress = "repeat 1/3";
	view_draw(&f.g, &f.v);
	assert_true(tui_find(&f.g, "waiting for the first records...") > 2);
	assert_true(tui_find(&f.g, "running: repeat 1/3  0 records") == 0);
	assert_true(tui_find(&f.g, "makespan         -") > 2);
	f.v.running = false;
	f.v.message = "the run failed: the runner process crashed (signal 11: Segmentation fault)";
	f.v.message_role = SS_ROLE_WARN;
	view_draw(&f.g, &f.v);
	assert_true(tui_find(&f.g, "nothing to show: press r to run") > 2);
	/* on the status row, and in the plot above the hint */
	assert_non_null(strstr(tui_row(&f.g, 23, row, sizeof row), "the run failed: the runner process crashed"));
	assert_int_equal(grid_at(&f.g, 0, 23)->role, SS_ROLE_WARN);
	assert_true(tui_find(&f.g, "the run failed: the runner process crashed") <
	            tui_find(&f.g, "nothing to show: press r to run"));
	/* a failure longer than the status row: its whole text in the plot, wrapped, above the hint */
	f.v.message =
	    "run failed: the experiment needs 192.00 GiB of device memory (3 arrays of 17179869184 x 4 bytes); "
	    "140.40 GiB of 140.40 GiB are free on the modelled NVIDIA H200 (profile key device.memory_mib) "
	    "(valid: --elements up to 12540532053)";
	view_draw(&f.g, &f.v);
	{
		int a = tui_find(&f.g, "run failed: the experiment needs"), b = tui_find(&f.g, "12540532053)"),
		    hint = tui_find(&f.g, "nothing to show: press r to run");

		assert_true(a > 2 && a < 23);
		assert_true(b > a && b < hint && hint < 23);
		assert_true(tui_find(&f.g, "device.memory_mib") > a);
	}
	fv_free(&f);
}

/* header_row draws the fixture at cols x 24 with expfile and source (either may be NULL) and copies its row y. */
static const char *header_row(int cols, bool ascii, const char *expfile, const char *source, int y, char *row,
                              size_t len)
{
	struct fixture_view f;

	fv_init(&f, cols, 24, ascii);
	f.v.expfile = expfile;
	f.v.source = source;
	view_draw(&f.g, &f.v);
	tui_row(&f.g, y, row, len);
	fv_free(&f);
	return row;
}

/* A file's path too long for the header keeps its tail, the file's own name, behind "...", and the run's state
 * beside it where 20 columns of path are left; wide enough, the whole path. */
static void test_header_paths(void **state)
{
	const char *ini = "/tmp/a-rather-long-directory-name/and-another-one/my-own-pipeline-experiment.ini";
	const char *trace = "/tmp/a-rather-long-directory-name/and-another-one/recorded-twin-of-document-003.sqlite";
	char row[1024];

	(void)state;
	header_row(80, false, ini, NULL, 0, row, sizeof row);
	assert_non_null(strstr(row, "  from ..."));
	assert_non_null(strstr(row, "experiment.ini"));
	assert_null(strstr(row, "/tmp/a-rather"));
	header_row(120, false, ini, NULL, 0, row, sizeof row);
	assert_non_null(strstr(row, "/my-own-pipeline-experiment.ini  "));
	assert_non_null(strstr(row, " records"));
	assert_null(strstr(row, "/tmp/a-rather"));
	header_row(160, false, ini, NULL, 0, row, sizeof row);
	assert_non_null(strstr(row, ini));
	header_row(80, true, NULL, trace, 1, row, sizeof row);
	assert_true(strncmp(row, "file ...", 8) == 0);
	assert_non_null(strstr(row, "/recorded-twin-of-document-003.sqlite"));
	assert_int_equal((int)strlen(row), 80);
}

/* The dumps: text is the glyphs, a line per row; ANSI carries the palette's xterm colours. */
static void test_dumps(void **state)
{
	struct ss_timeline t;
	struct ss_experiment e;
	struct ss_grid g;
	char *text, *ansi, *ascii;
	int lines = 0;

	(void)state;
	tui_fixture(&t);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	grid_init(&g, 0, 0);
	tui_screen_render(&g, &t, &e, NULL, 100, 30, false);
	text = tui_screen_text(&g);
	ansi = tui_screen_ansi(&g);
	for (char *p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 30);
	assert_true(strncmp(text, "streamscope  MODEL (H200 profile)", 33) == 0);
	assert_null(strstr(text, " \n"));              /* trailing blanks trimmed */
	assert_non_null(strstr(text, "\xe2\x96\x88")); /* full blocks */
	assert_non_null(strstr(ansi, "\033[0;1mstreamscope"));
	assert_non_null(strstr(ansi, "\033[0;38;5;34m\xe2\x96")); /* an H2D bar in xterm colour 34 */
	assert_non_null(strstr(ansi, "\033[0;38;5;33m\xe2\x96")); /* a kernel in 33 */
	assert_non_null(strstr(ansi, "\033[0;38;5;214m"));        /* the legacy stream's kernel */
	assert_non_null(strstr(ansi, "\033[0;7m"));               /* the status line, reversed */
	lines = 0;
	for (char *p = ansi; (p = strstr(p, "\033[0m\n")) != NULL; p++)
		lines++;
	assert_int_equal(lines, 30);
	ascii = tui_screen_dump(&t, &e, NULL, 100, 30, true, false);
	for (unsigned char *p = (unsigned char *)ascii; *p; p++)
		assert_true(*p < 0x80);
	assert_non_null(strstr(ascii, "s0   H2D  |"));
	free(text);
	free(ansi);
	free(ascii);
	grid_free(&g);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_render_golden),   cmocka_unit_test(test_detail), cmocka_unit_test(test_help),
	    cmocka_unit_test(test_legend),          cmocka_unit_test(test_ab),     cmocka_unit_test(test_sweep),
	    cmocka_unit_test(test_sweep_one_order), cmocka_unit_test(test_empty),  cmocka_unit_test(test_header_paths),
	    cmocka_unit_test(test_dumps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
