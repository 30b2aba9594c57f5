/* test_record_h200.c: the trace `streamscope record` wrote of tests/record/record_app on the H200, committed under
 * tests/data/h200/record/ with the program's own output (record_run.out: the RECORD_APP line of what it issued)
 * and streamscope's summary (record_run.err). Opened as `streamscope view` opens it (import_file), it must hold
 * exactly the kernels, copies, memsets and NVTX ranges the program issued, on its four streams (two blocking, two
 * non-blocking, labelled so in the trace), the legacy default stream and the helper thread's per-thread default stream,
 * complete and with nothing dropped. Skipped (with a message) until the files are committed. */
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/timeline.h"
#include "io/import/import.h"

#define DATA SS_SOURCE_DIR "/tests/data/h200/record/"

/* Reads a whole text file; NULL when it cannot. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The value of " key=" in the RECORD_APP line; fails the test when absent. */
static long field(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof pat, " %s=", key);
	p = strstr(line, pat);
	if (p == NULL)
		fail_msg("no %s in the RECORD_APP line: %s", key, line);
	return strtol(p + strlen(pat), NULL, 10);
}

static size_t count_on(const struct ss_timeline *t, int kind, int32_t stream)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->rec[i].kind == kind && t->rec[i].stream == stream;
	return n;
}

static long find_name(const struct ss_timeline *t, int kind, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == kind && strcmp(timeline_name(t, t->rec[i].name), name) == 0)
			return (long)i;
	return -1;
}

static void test_h200_trace(void **state)
{
	struct ss_timeline t;
	char *out, *err, *line, *cause = NULL;
	long kernels, h2d, d2h, memsets, ranges, streams, iters, main_mark, helper_mark;
	int blocking = 0, nonblocking = 0;
	size_t hashes = 0;

	(void)state;
	if (access(DATA "record.sqlite", R_OK) != 0) {
		print_message("tests/data/h200/record/record.sqlite is not committed yet (tests/record/h200.sh writes "
		              "it on the H200): skipped\n");
		skip();
	}
	out = slurp(DATA "record_run.out");
	err = slurp(DATA "record_run.err");
	assert_non_null(out);
	assert_non_null(err);
	line = strstr(out, "RECORD_APP ");
	assert_non_null(line);
	line[strcspn(line, "\n")] = '\0';
	kernels = field(line, "kernels");
	h2d = field(line, "h2d");
	d2h = field(line, "d2h");
	memsets = field(line, "memsets");
	ranges = field(line, "nvtx_ranges");
	streams = field(line, "streams");
	iters = field(line, "iters");
	assert_int_equal(field(line, "verified"), 1);

	timeline_init(&t);
	if (import_file(DATA "record.sqlite", &t, &cause) != 0)
		fail_msg("cannot open the H200 trace: %s", cause);
	assert_false(t.incomplete);
	assert_int_equal(t.dropped, 0);
	assert_non_null(strstr(t.device, "H200"));
	/* everything the program issued, nothing more */
	assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), kernels);
	assert_int_equal(timeline_count(&t, SS_KIND_H2D), h2d);
	assert_int_equal(timeline_count(&t, SS_KIND_D2H), d2h);
	assert_int_equal(timeline_count(&t, SS_KIND_MEMSET), memsets);
	assert_int_equal(timeline_count(&t, SS_KIND_D2D), 0);
	assert_int_equal(timeline_count(&t, SS_KIND_MARKER), ranges);
	assert_true(timeline_count(&t, SS_KIND_API) > (size_t)(kernels + h2d + d2h));
	/* its streams: the pipeline's work evenly on indices 0..streams-1, one kernel on the legacy default stream,
	 * one on the helper thread's per-thread default stream, nothing anywhere else */
	assert_int_equal(t.nstreams, streams);
	for (int s = 0; s < streams; s++) {
		assert_int_equal(count_on(&t, SS_KIND_KERNEL, s), (size_t)(h2d / streams));
		assert_int_equal(count_on(&t, SS_KIND_H2D, s), (size_t)(h2d / streams));
		assert_int_equal(count_on(&t, SS_KIND_D2H, s), (size_t)(d2h / streams));
		assert_int_equal(count_on(&t, SS_KIND_MEMSET, s), 1);
	}
	assert_int_equal(count_on(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY), 1);
	assert_int_equal(count_on(&t, SS_KIND_KERNEL, SS_STREAM_PER_THREAD), 1);
	assert_int_equal(h2d, streams * (iters + 1) * (h2d / streams / (iters + 1)));
	/* the kinds streamscope printed for them */
	for (const char *p = err; (p = strstr(p, " s")) != NULL; p++) {
		if (strncmp(p + 3, " blocking", 9) == 0)
			blocking++;
		else if (strncmp(p + 3, " non-blocking", 13) == 0)
			nonblocking++;
	}
	assert_int_equal(blocking, streams / 2);
	assert_int_equal(nonblocking, streams - streams / 2);
	/* ... and that the trace carries (STREAMSCOPE_STREAM): each stream's kind and CUPTI id */
	blocking = nonblocking = 0;
	for (int s = 0; s < streams; s++) {
		const struct ss_stream_info *si = timeline_stream(&t, s);

		if (si == NULL)
			fail_msg("stream %d has no kind in the trace (recorded before streams were labelled?)", s);
		blocking += si->kind == SS_SKIND_BLOCKING;
		nonblocking += si->kind == SS_SKIND_NONBLOCKING;
		for (size_t i = 0; i < t.n; i++)
			if (t.rec[i].stream == s && t.rec[i].kind == SS_KIND_KERNEL) {
				assert_int_equal(si->raw_id, t.rec[i].raw_stream);
				break;
			}
	}
	assert_int_equal(blocking, streams / 2);
	assert_int_equal(nonblocking, streams - streams / 2);
	assert_non_null(strstr(err, "legacy default (CUPTI id"));
	assert_non_null(strstr(err, "per-thread default (CUPTI id"));
	/* NVTX: the whole run, each iteration, and the helper thread's range on a lane of its own */
	main_mark = find_name(&t, SS_KIND_MARKER, "record_app");
	helper_mark = find_name(&t, SS_KIND_MARKER, "helper thread");
	assert_true(main_mark >= 0 && helper_mark >= 0);
	assert_true(find_name(&t, SS_KIND_MARKER, "warm-up") >= 0);
	assert_true(find_name(&t, SS_KIND_MARKER, "iteration 1") >= 0);
	assert_int_not_equal(t.rec[main_mark].thread, t.rec[helper_mark].thread);
	assert_true(t.rec[main_mark].end > t.rec[main_mark].start);
	for (size_t i = 0; i < t.n; i++)
		hashes += t.rec[i].kind == SS_KIND_KERNEL &&
		          strstr(timeline_name(&t, t.rec[i].name), "record_app_hash") != NULL;
	assert_int_equal(hashes, (size_t)h2d); /* one hash kernel per chunk, names kept (mangled or not) */
	timeline_free(&t);
	free(out);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_h200_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
