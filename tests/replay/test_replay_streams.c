/* test_replay_streams.c: what `streamscope record` wrote on the H200 for programs of many streams
 * (tests/data/h200/record-streams, tests/record/h200_streams.sh), replayed on CI: the 128-stream trace knows every
 * stream's kind (64 blocking, 64 non-blocking, as the program created them) and holds every operation it issued;
 * the end-of-record summaries of it and of the 105,600-operation program fit a screen and name the kinds; the live
 * view of the latter drew its busy lanes as density shades. */
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

static const char *replay_dir;

/* replay_text reads file name of the data folder into a new string (skips the test when it is missing). */
static char *replay_text(const char *name)
{
	char path[1024], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof path, "%s/%s", replay_dir, name);
	if ((f = fopen(path, "rb")) == NULL)
		skip();
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Every stream of the 128-stream program has its kind, and every operation it issued is in the trace. */
static void test_streams_trace(void **state)
{
	char path[1024], *cause = NULL;
	struct ss_timeline t;
	int kinds[SS_SKIND_COUNT] = {0}, with_work = 0;
	bool work[1024] = {false};

	(void)state;
	snprintf(path, sizeof path, "%s/streams.sqlite", replay_dir);
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), 512);
	assert_int_equal(timeline_count(&t, SS_KIND_H2D), 512);
	assert_int_equal(timeline_count(&t, SS_KIND_D2H), 512);
	assert_int_equal(timeline_count(&t, SS_KIND_MEMSET), 128);
	assert_int_equal(t.dropped, 0);
	for (size_t i = 0; i < t.n; i++)
		if (t.rec[i].stream >= 0 && t.rec[i].stream < 1024 && t.rec[i].kind <= SS_KIND_KERNEL)
			work[t.rec[i].stream] = true;
	for (int s = 0; s < 1024; s++) {
		const struct ss_stream_info *si = timeline_stream(&t, s);

		if (!work[s])
			continue;
		with_work++;
		kinds[si != NULL ? si->kind : SS_SKIND_UNKNOWN]++;
	}
	assert_int_equal(with_work, 128);
	assert_int_equal(kinds[SS_SKIND_BLOCKING], 64);
	assert_int_equal(kinds[SS_SKIND_NONBLOCKING], 64);
	assert_int_equal(kinds[SS_SKIND_UNKNOWN], 0);
	timeline_free(&t);
}

/* The summaries record printed: the kinds in one line, a short table, never more than 20 lines. */
static void test_summaries(void **state)
{
	static const char *const files[] = {"streams_run.err", "many_run.err"};
	static const char *const kinds[] = {"streams: 128 (64 blocking, 64 non-blocking)",
	                                    "streams: 32 (16 blocking, 16 non-blocking)"};

	(void)state;
	for (int i = 0; i < 2; i++) {
		char *s = replay_text(files[i]);
		int lines = 0;

		for (const char *p = s; *p; p++)
			lines += *p == '\n';
		assert_true(lines <= 20);
		assert_non_null(strstr(s, kinds[i]));
		assert_null(strstr(s, "kind unknown"));
		assert_non_null(strstr(s, "busiest streams"));
		free(s);
	}
}

/* The live view of 32 streams of tiny operations drew them as density (light shade) rows, not slivers. */
static void test_live_density(void **state)
{
	char *s = replay_text("live-running.ansi");
	int rows = 0;

	(void)state;
	for (char *line = strtok(s, "\n"); line != NULL; line = strtok(NULL, "\n"))
		rows += strstr(line, " nb ") != NULL && strstr(line, "\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91") != NULL;
	assert_true(rows >= 8);
	free(s);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_streams_trace),
	    cmocka_unit_test(test_summaries),
	    cmocka_unit_test(test_live_density),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: test_replay_streams DIR\n");
		return 2;
	}
	replay_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
