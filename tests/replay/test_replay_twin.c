/* test_replay_twin.c: what `streamscope record --twin` wrote on a GPU, replayed on CI. Two traces: the H200's of
 * the record test program (tests/data/h200/record-twin, twin.err) and an H100's of document 003's reference
 * program (tests/data/h200/detach-h100/call10, rec.err). Each holds the wall-clock times of its traced and untraced
 * runs, as the line record printed says them, and the records that line counts; the H100's run of the vector-add
 * example on the CUDA backend (run.json) verified its results with CUPTI detached for the untraced twin, and a full
 * standard output (/dev/full) was one line and exit 1 (full.err, rc-first.txt). */
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

#include "core/timeline.h"
#include "io/import/import.h"
#include "io_fixture.h"
#include "json_tree.h"

static const char *data_dir; /* tests/data/h200 */

/* read_text reads data_dir/name into a new string (io_fixture's fx_read); fails the test when it cannot. */
static char *read_text(const char *name)
{
	char path[1024], *buf;

	snprintf(path, sizeof path, "%s/%s", data_dir, name);
	if ((buf = fx_read(path, NULL)) == NULL)
		fail_msg("%s: cannot read it", path);
	return buf;
}

/* A recorded trace and what record said of it. */
struct twin_case {
	const char *trace, *err; /* under data_dir */
	const char *device;
	double traced_ms, untraced_ms; /* record's line, as printed (ms) */
	double untraced_half_ms;       /* half the last digit printed of untraced_ms */
	size_t kernels, h2d, d2h, memsets;
};

/* check_twin imports c's trace and holds it to record's line: the device, both wall-clock times (to the digits
 * printed), the record counts, none dropped, complete. */
static void check_twin(const struct twin_case *c)
{
	char path[1024], *cause = NULL, *err = read_text(c->err), want[256];
	struct ss_timeline t;

	snprintf(path, sizeof path, "%s/%s", data_dir, c->trace);
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s: %s", path, cause);
	assert_string_equal(t.device, c->device);
	assert_false(t.modelled);
	assert_false(t.incomplete);
	assert_int_equal(t.dropped, 0);
	assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), c->kernels);
	assert_int_equal(timeline_count(&t, SS_KIND_H2D), c->h2d);
	assert_int_equal(timeline_count(&t, SS_KIND_D2H), c->d2h);
	assert_int_equal(timeline_count(&t, SS_KIND_MEMSET), c->memsets);
	/* the times the trace stores are the ones record printed, rounded as printed */
	assert_true(t.wall_traced_ns > 0 && t.wall_untraced_ns > 0);
	if (!(t.wall_traced_ns / 1e6 > c->traced_ms - 0.05 && t.wall_traced_ns / 1e6 < c->traced_ms + 0.05))
		fail_msg("%s: traced %.3f ms, record printed %.1f ms", c->trace, t.wall_traced_ns / 1e6, c->traced_ms);
	if (!(t.wall_untraced_ns / 1e6 > c->untraced_ms - c->untraced_half_ms &&
	      t.wall_untraced_ns / 1e6 < c->untraced_ms + c->untraced_half_ms))
		fail_msg("%s: untraced %.3f ms, record printed %.1f ms", c->trace, t.wall_untraced_ns / 1e6,
		         c->untraced_ms);
	snprintf(want, sizeof want, "kernels, %zu H2D, %zu D2H", c->h2d, c->d2h);
	assert_non_null(strstr(err, want));
	assert_non_null(strstr(err, "0 dropped"));
	assert_non_null(strstr(err, "measured wall-clock times, stored in the trace"));
	timeline_free(&t);
	free(err);
}

/* The H200's record test program (twin.err: 970.4 ms traced, 1.07 s untraced) and the H100's run of document
 * 003's program (rec.err: 532.1 ms traced, 589.0 ms untraced). */
static void test_twin_traces(void **state)
{
	static const struct twin_case cases[] = {
	    {"record-twin/twin.sqlite", "record-twin/twin.err", "NVIDIA H200", 970.4, 1070, 5, 354, 352, 352, 4},
	    {"detach-h100/call10/rec.sqlite", "detach-h100/call10/rec.err", "NVIDIA H100 80GB HBM3", 532.1, 589.0, 0.05,
	     8, 16, 8, 8},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_twin(&cases[i]);
}

/* The vector-add example on the H100's CUDA backend verified, measured, CUPTI detached for the untraced twin; the
 * same run into a full standard output failed in one line with exit 1. */
static void test_run_and_full(void **state)
{
	char path[1024], err[256], *full = read_text("detach-h100/call10/full.err"),
	                           *rc = read_text("detach-h100/call10/rc-first.txt");
	yajl_val v;

	(void)state;
	snprintf(path, sizeof path, "%s/detach-h100/call10/run.json", data_dir);
	v = json_tree_load(path, err, sizeof err);
	if (v == NULL)
		fail_msg("%s: %s", path, err);
	assert_true(json_tree_is_true(json_tree_get(v, "verified")));
	assert_true(json_tree_is_false(json_tree_get(v, "modelled")));
	assert_string_equal(json_tree_str(json_tree_get(v, "untraced_cupti")), "detached");
	assert_string_equal(json_tree_str(json_tree_get(v, "device")), "NVIDIA H100 80GB HBM3");
	assert_int_equal(json_tree_int(json_tree_get(v, "dropped")), 0);
	json_tree_free(v);
	assert_string_equal(full, "streamscope: cannot write standard output: No space left on device\n");
	assert_non_null(strstr(rc, "full rc 1\n"));
	free(full);
	free(rc);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_twin_traces),
	    cmocka_unit_test(test_run_and_full),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s tests/data/h200\n", argv[0]);
		return 2;
	}
	data_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
