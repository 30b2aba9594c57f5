/* test_insight_twin.c: the tracing-perturbation rule of core/insight on hand-made timelines (the wall-clock times of
 * `record --twin`, and an experiment's traced and untraced makespans), silent at and below its threshold, and the
 * two wall-clock times surviving export to streamscope SQLite and Chrome JSON and import back. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/analysis.h"
#include "core/insight.h"
#include "core/timeline.h"
#include "io/export/export.h"
#include "io/import/import.h"

#define MS 1000000ull

/* twin fills t with a small clean run (one copy, one kernel, one copy back on one stream) and the two times. */
static void twin(struct ss_timeline *t, uint64_t traced, uint64_t untraced)
{
	static const int kinds[3] = {SS_KIND_H2D, SS_KIND_KERNEL, SS_KIND_D2H};

	timeline_init(t);
	for (int i = 0; i < 3; i++) {
		struct ss_record r;

		memset(&r, 0, sizeof r);
		r.kind = (uint8_t)kinds[i];
		r.start = (uint64_t)i * MS;
		r.end = (uint64_t)(i + 1) * MS;
		r.bytes = kinds[i] == SS_KIND_KERNEL ? 0 : 1u << 20;
		r.flags = kinds[i] == SS_KIND_KERNEL ? 0 : SS_REC_PINNED;
		timeline_add(t, &r);
	}
	t->wall_traced_ns = traced;
	t->wall_untraced_ns = untraced;
}

/* analyse returns the tracing-perturbation insight of t (NULL when silent); in holds all of them. */
static const struct ss_insight *analyse(struct ss_timeline *t, struct ss_insights *in)
{
	struct ss_analysis a;

	timeline_sort(t);
	analysis_timeline(t, &a);
	insight_analyze(t, &a, in);
	return insight_find(in, "tracing-perturbation");
}

static void test_fires(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	/* 10% longer traced: a hint naming both times, no records, no gain */
	twin(&t, 1100 * MS, 1000 * MS);
	x = analyse(&t, &in);
	assert_non_null(x);
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_non_null(strstr(x->summary, "10.0%"));
	assert_non_null(strstr(x->evidence, "traced 1.10 s"));
	assert_non_null(strstr(x->evidence, "untraced twin 1.00 s"));
	assert_non_null(strstr(x->evidence, "record --twin"));
	assert_int_equal(x->nrec, 0);
	assert_false(x->have_gain);
	assert_true(x->t0 == x->t1);
	timeline_free(&t);
	/* 30% longer: a problem, listed among the problems (the serial run is one too: no-overlap) */
	twin(&t, 1300 * MS, 1000 * MS);
	x = analyse(&t, &in);
	assert_non_null(x);
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	for (const struct ss_insight *y = in.item; y < x; y++)
		assert_int_equal(y->severity, SS_SEV_PROBLEM);
	timeline_free(&t);
	/* just above 20%: still a problem; exactly 20%: a hint */
	twin(&t, 1200 * MS + 1, 1000 * MS);
	assert_int_equal(analyse(&t, &in)->severity, SS_SEV_PROBLEM);
	timeline_free(&t);
	twin(&t, 1200 * MS, 1000 * MS);
	assert_int_equal(analyse(&t, &in)->severity, SS_SEV_HINT);
	timeline_free(&t);
}

static void test_silent(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;

	(void)state;
	/* exactly 5%, less, a faster traced run, and one or neither time known */
	twin(&t, 1050 * MS, 1000 * MS);
	assert_null(analyse(&t, &in));
	timeline_free(&t);
	twin(&t, 1030 * MS, 1000 * MS);
	assert_null(analyse(&t, &in));
	timeline_free(&t);
	twin(&t, 900 * MS, 1000 * MS);
	assert_null(analyse(&t, &in));
	timeline_free(&t);
	twin(&t, 2000 * MS, 0);
	assert_null(analyse(&t, &in));
	timeline_free(&t);
	twin(&t, 0, 1000 * MS);
	assert_null(analyse(&t, &in));
	timeline_free(&t);
	twin(&t, 0, 0);
	assert_null(analyse(&t, &in));
	timeline_free(&t);
	/* just above 5% fires */
	twin(&t, 1050 * MS + 1, 1000 * MS);
	assert_non_null(analyse(&t, &in));
	timeline_free(&t);
}

/* An experiment run's traced and untraced cudaEvent makespans (analysis_observer) serve when no wall-clock pair
 * is known; the wall-clock pair wins over them. */
static void test_experiment_overhead(void **state)
{
	struct ss_timeline t;
	struct ss_analysis a;
	struct ss_insights in;
	const struct ss_insight *x;

	(void)state;
	twin(&t, 0, 0);
	timeline_sort(&t);
	analysis_timeline(&t, &a);
	a.have_overhead = true;
	a.traced_ns = 3 * MS;
	a.untraced_ns = 2 * MS;
	insight_analyze(&t, &a, &in);
	x = insight_find(&in, "tracing-perturbation");
	assert_non_null(x);
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_non_null(strstr(x->evidence, "cudaEvent"));
	/* the same analysis with a small wall-clock overhead: the wall clock is what the user ran, it decides */
	t.wall_traced_ns = 1010 * MS;
	t.wall_untraced_ns = 1000 * MS;
	insight_analyze(&t, &a, &in);
	assert_null(insight_find(&in, "tracing-perturbation"));
	timeline_free(&t);
}

/* The two times survive export to streamscope SQLite and Chrome JSON and import; a trace without them imports with
 * none. */
static void test_roundtrip(void **state)
{
	static const char *const ext[] = {"sqlite", "json"};
	char dir[] = "/tmp/ss-twin-XXXXXX", path[64];
	struct ss_timeline t, back;
	struct ss_export_input ein;
	struct ss_insights in;
	char *cause = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
		snprintf(path, sizeof path, "%s/t.%s", dir, ext[e]);
		twin(&t, 1234567891, 987654321);
		snprintf(t.backend, sizeof t.backend, "cuda");
		memset(&ein, 0, sizeof ein);
		ein.t = &t;
		assert_int_equal(export_file(path, &ein, &cause), 0);
		timeline_init(&back);
		assert_int_equal(import_file(path, &back, &cause), 0);
		assert_true(back.wall_traced_ns == 1234567891);
		assert_true(back.wall_untraced_ns == 987654321);
		assert_non_null(analyse(&back, &in));
		timeline_free(&back);
		/* without the pair: none comes back */
		t.wall_traced_ns = t.wall_untraced_ns = 0;
		assert_int_equal(export_file(path, &ein, &cause), 0);
		timeline_init(&back);
		assert_int_equal(import_file(path, &back, &cause), 0);
		assert_true(back.wall_traced_ns == 0 && back.wall_untraced_ns == 0);
		assert_null(analyse(&back, &in));
		timeline_free(&back);
		timeline_free(&t);
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fires),
	    cmocka_unit_test(test_silent),
	    cmocka_unit_test(test_experiment_overhead),
	    cmocka_unit_test(test_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
