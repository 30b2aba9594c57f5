/* test_replay_prefetch.c: the H200 traces of the managed preset with --prefetch-events (tests/data/h200/
 * prefetch-events), replayed on CI: every prefetch of the op list is on the timeline once, marked as timed by
 * cudaEvents, linked to its cudaMemPrefetchAsync call, and placed where its stream's kernel says it must be: the
 * prefetches to the device end before the stream's kernel starts, the one back to the host starts after it ends.
 * For the final code's runs also: the timeline's span is the stored CUPTI makespan, within 1% of the cudaEvent
 * makespan of the same run. */
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

#include "core/experiment.h"
#include "core/planner.h"
#include "core/timeline.h"
#include "io/import/import.h"
#include "replay_db.h"

static const char *replay_dir;

/* The recorded runs: tag, streams, order, hardware queues. */
static const struct {
	const char *tag;
	int streams;
	enum ss_order order;
	int connections;
} replay_runs[] = {
    {"managed-1-depth", 1, SS_ORDER_DEPTH, 8},
    {"managed-1-breadth", 1, SS_ORDER_BREADTH, 8},
    {"managed-8-depth", 8, SS_ORDER_DEPTH, 8},
    {"managed-8-breadth", 8, SS_ORDER_BREADTH, 8},
    {"managed-32-depth", 32, SS_ORDER_DEPTH, 8},
    {"managed-32-breadth", 32, SS_ORDER_BREADTH, 8},
    {"managed-8-1q", 8, SS_ORDER_DEPTH, 1},
    /* the final code (2026-11-30): no event before a prefetch on an idle stream, the clock offset from CUPTI's
     * event timestamps */
    {"managed-8-depth-final", 8, SS_ORDER_DEPTH, 8},
    {"managed-8-breadth-final", 8, SS_ORDER_BREADTH, 8},
    {"managed-32-32q-final", 32, SS_ORDER_DEPTH, 32},
};

/* The API record with correlation id c, NULL when none. */
static const struct ss_record *replay_call(const struct ss_timeline *t, uint32_t c)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == SS_KIND_API && t->rec[i].correlation == c)
			return &t->rec[i];
	return NULL;
}

static void test_prefetches(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof replay_runs / sizeof replay_runs[0]; k++) {
		struct ss_experiment e;
		struct ss_oplist ops;
		struct ss_timeline t;
		char path[1024], *cause = NULL;
		size_t timed[SS_KIND_COUNT] = {0}, other = 0;

		experiment_preset(&e, SS_PRESET_MANAGED);
		e.streams = replay_runs[k].streams;
		e.order = replay_runs[k].order;
		e.connections = replay_runs[k].connections;
		planner_build(&e, &ops);
		snprintf(path, sizeof path, "%s/%s.sqlite", replay_dir, replay_runs[k].tag);
		timeline_init(&t);
		if (import_file(path, &t, &cause) != 0)
			fail_msg("%s: %s", path, cause);
		for (size_t i = 0; i < t.n; i++) {
			const struct ss_record *r = &t.rec[i], *call;

			if (!(r->flags & SS_REC_EVENT_TIMED)) {
				other += r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H;
				continue;
			}
			timed[r->kind]++;
			assert_true(r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H);
			assert_true(r->flags & SS_REC_MANAGED);
			assert_true(r->stream >= 0 && r->stream < e.streams);
			assert_true(r->end > r->start);
			call = replay_call(&t, r->correlation);
			assert_non_null(call);
			assert_string_equal(timeline_name(&t, call->name), "cudaMemPrefetchAsync");
			assert_true(call->start < r->end); /* the migration ends after its call began */
			/* against its stream's kernel (one per stream: as many chunks as streams) */
			for (size_t j = 0; j < t.n; j++) {
				const struct ss_record *kr = &t.rec[j];

				if (kr->kind != SS_KIND_KERNEL || kr->stream != r->stream)
					continue;
				if (r->kind == SS_KIND_H2D)
					assert_true(r->end <= kr->start);
				else
					assert_true(r->start >= kr->end);
			}
		}
		/* CUPTI records no copies here: every H2D and D2H record is a timed prefetch, each exactly once */
		assert_int_equal(other, 0);
		assert_int_equal(timed[SS_KIND_H2D], planner_count_kind(&ops, SS_OP_PREFETCH_H2D));
		assert_int_equal(timed[SS_KIND_D2H], planner_count_kind(&ops, SS_OP_PREFETCH_D2H));
		assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), planner_count_kind(&ops, SS_OP_KERNEL));
		if (strstr(replay_runs[k].tag, "-final") != NULL) {
			/* the span from the records is the stored one, and within 1% of the cudaEvent makespan */
			long long cupti, events;
			uint64_t lo = UINT64_MAX, hi = 0;

			for (size_t i = 0; i < t.n; i++)
				if (t.rec[i].kind == SS_KIND_H2D || t.rec[i].kind == SS_KIND_D2H ||
				    t.rec[i].kind == SS_KIND_KERNEL) {
					lo = t.rec[i].start < lo ? t.rec[i].start : lo;
					hi = t.rec[i].end > hi ? t.rec[i].end : hi;
				}
			replay_db_makespans(path, &cupti, &events);
			assert_true(events > 0);
			assert_true((long long)(hi - lo) > cupti - 1000 && (long long)(hi - lo) < cupti + 1000);
			if (!((double)cupti / (double)events - 1 < 0.01 && (double)cupti / (double)events - 1 > -0.01))
				fail_msg("%s: CUPTI %lld ns vs cudaEvent %lld ns", replay_runs[k].tag, cupti, events);
		}
		timeline_free(&t);
		planner_free(&ops);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_prefetches),
	};
	struct stat st;

	replay_dir = argc > 1 ? argv[1] : "tests/data/h200/prefetch-events";
	if (stat(replay_dir, &st) != 0) {
		printf("SKIP: %s is not there\n", replay_dir);
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
