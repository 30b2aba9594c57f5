/* test_replay_pageable.c: the H200 traces of the pageable preset at 1, 2, 8, 32 and 128 streams (tests/data/h200/
 * pageable-start), replayed on CI. A pageable copy stages its data through pinned memory inside its call, so the
 * run's work starts with the first copy's call and ends with the last D2H's return, where CUPTI's copy records do
 * not reach. Checked on each trace: the counts equal the op list; the makespan analysis computes from the records
 * (timeline_work_span) is the one the H200 run stored and within 1% of the cudaEvent makespan of the same run; the
 * copy records alone would not be (their span is short by the staging: more than 1% up to 32 streams); the span
 * starts with a pageable H2D's call and ends with a pageable D2H's call. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/planner.h"
#include "core/timeline.h"
#include "io/import/import.h"
#include "replay_db.h"

static const char *replay_dir;

static const int replay_streams[] = {1, 2, 8, 32, 128};

/* The copy record of kind with correlation c, NULL when none. */
static const struct ss_record *replay_copy(const struct ss_timeline *t, uint32_t c)
{
	for (size_t i = 0; i < t->n; i++)
		if ((t->rec[i].kind == SS_KIND_H2D || t->rec[i].kind == SS_KIND_D2H) && t->rec[i].correlation == c)
			return &t->rec[i];
	return NULL;
}

static double replay_rel(uint64_t x, long long y)
{
	return (double)x / (double)y - 1.0;
}

static void test_pageable_span(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof replay_streams / sizeof replay_streams[0]; k++) {
		char path[1024], *cause = NULL;
		struct ss_timeline t;
		struct ss_analysis a;
		struct ss_experiment e;
		struct ss_oplist ops;
		long long cupti, events;
		uint64_t g0, g1;
		const struct ss_record *first = NULL, *last = NULL;

		snprintf(path, sizeof path, "%s/pageable-span-%d.sqlite", replay_dir, replay_streams[k]);
		timeline_init(&t);
		if (import_file(path, &t, &cause) != 0)
			fail_msg("%s: %s", path, cause);
		timeline_sort(&t);
		experiment_preset(&e, SS_PRESET_PAGEABLE);
		e.streams = replay_streams[k];
		planner_build(&e, &ops);
		assert_int_equal(timeline_count(&t, SS_KIND_H2D), planner_count_kind(&ops, SS_OP_H2D));
		assert_int_equal(timeline_count(&t, SS_KIND_D2H), planner_count_kind(&ops, SS_OP_D2H));
		assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), planner_count_kind(&ops, SS_OP_KERNEL));
		for (size_t i = 0; i < t.n; i++)
			if (t.rec[i].kind == SS_KIND_H2D || t.rec[i].kind == SS_KIND_D2H)
				assert_true(t.rec[i].flags & SS_REC_PAGEABLE);

		analysis_timeline(&t, &a);
		replay_db_makespans(path, &cupti, &events);
		assert_true(events > 0);
		assert_int_equal(a.makespan_ns, cupti);
		if (!(replay_rel(a.makespan_ns, events) < 0.01 && replay_rel(a.makespan_ns, events) > -0.01))
			fail_msg("%d streams: span %llu ns vs cudaEvent %lld ns", replay_streams[k],
			         (unsigned long long)a.makespan_ns, events);
		/* the copy and kernel records alone start later and end earlier */
		assert_true(timeline_span(&t, SS_GPU_KINDS, &g0, &g1));
		assert_true(g0 > a.t0 && g1 < a.t1);
		if (replay_streams[k] <= 32 && replay_rel(g1 - g0, events) > -0.01)
			fail_msg("%d streams: the copy records' span %llu ns is within 1%% of the cudaEvent %lld ns",
			         replay_streams[k], (unsigned long long)(g1 - g0), events);
		/* the span's ends are calls of pageable copies: the first an H2D's, the last a D2H's */
		for (size_t i = 0; i < t.n; i++) {
			const struct ss_record *r = &t.rec[i];

			if (r->kind == SS_KIND_API && r->start == a.t0)
				first = replay_copy(&t, r->correlation);
			if (r->kind == SS_KIND_API && r->end == a.t1)
				last = replay_copy(&t, r->correlation);
		}
		assert_non_null(first);
		assert_non_null(last);
		assert_int_equal(first->kind, SS_KIND_H2D);
		assert_int_equal(last->kind, SS_KIND_D2H);
		planner_free(&ops);
		timeline_free(&t);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pageable_span),
	};
	struct stat st;

	replay_dir = argc > 1 ? argv[1] : "tests/data/h200/pageable-start";
	if (stat(replay_dir, &st) != 0) {
		printf("SKIP: %s is not there\n", replay_dir);
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
