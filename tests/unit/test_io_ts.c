/* test_io_ts.c: negative timestamps in Chrome JSON. streamscope's own traces (otherData generator "streamscope")
 * keep their times, which our export writes from 0: a negative ts there is refused with one line naming the file,
 * the first such event and what is valid (it was clamped to 0 by the rebase, with every duration: stats said 0 ns
 * and exit 0), wherever otherData stands, for X and B/E events, read in one go or in parallel. A foreign trace with
 * negative ts is shifted so that its earliest event is at 0, durations kept; an own trace from 0 is read as
 * written. */
/* cmocka needs these first, in this order */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/import/import.h"
#include "io/import/import_chrome.h"
#include "io_fixture.h"

#define OWN "\"otherData\":{\"generator\":\"streamscope 1.0\",\"nstreams\":1}"
#define KER(ts, dur)                                                                                                   \
	"{\"ph\":\"X\",\"name\":\"k\",\"ts\":" ts ",\"dur\":" dur ",\"pid\":1,\"tid\":1,"                              \
	"\"args\":{\"ss_kind\":\"KER\",\"stream\":0}}"
#define H2D(ts, dur)                                                                                                   \
	"{\"ph\":\"X\",\"name\":\"cp\",\"ts\":" ts ",\"dur\":" dur ",\"pid\":1,\"tid\":1,"                             \
	"\"args\":{\"ss_kind\":\"H2D\",\"stream\":0,\"bytes\":4096}}"

/* refused writes json to dir/own.json and checks (fx_refused) that importing it fails with one line naming the file,
 * "event N: negative ts" with want_event, and what is valid, leaving t empty. */
static void refused(const char *dir, const char *json, size_t want_event)
{
	char path[512], want[64];

	snprintf(path, sizeof path, "%s/own.json", dir);
	fx_write(path, json, strlen(json));
	snprintf(want, sizeof want, ": event %zu: negative ts ", want_event);
	fx_refused(path, want, "(valid: ts >= 0)", NULL);
}

/* imported writes json to dir, imports it (0 wanted) into t. */
static void imported(const char *dir, const char *json, struct ss_timeline *t)
{
	char path[512];
	char *cause = NULL;

	snprintf(path, sizeof path, "%s/ok.json", dir);
	fx_write(path, json, strlen(json));
	timeline_init(t);
	if (import_file(path, t, &cause) != 0)
		fail_msg("%s", cause);
}

/* find returns the record of kind in t (there is one). */
static const struct ss_record *find(const struct ss_timeline *t, int kind)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == kind)
			return &t->rec[i];
	fail_msg("no record of kind %d", kind);
	return NULL;
}

/* The reviewer's file: a kernel and a copy at ts -1e9 us in our own trace, otherData after or before the events. */
static void test_own_negative_refused(void **state)
{
	char *dir = fx_tmpdir();

	(void)state;
	refused(dir, "{\"traceEvents\":[" KER("-1e9", "5") "," H2D("-1e9", "5") "]," OWN "}", 1);
	refused(dir, "{" OWN ",\"traceEvents\":[" KER("-1e9", "5") "," H2D("-1e9", "5") "]}", 1);
	/* the first negative one is named: a later event, a plain decimal, a ts as a string */
	refused(dir, "{\"traceEvents\":[" KER("3", "5") "," H2D("-0.001", "5") "]," OWN "}", 2);
	refused(dir, "{\"traceEvents\":[" KER("3", "5") "," H2D("\"-12.5\"", "5") "]," OWN "}", 2);
	/* B/E: the B's ts */
	refused(dir,
	        "{\"traceEvents\":[{\"ph\":\"B\",\"name\":\"k\",\"ts\":-20,\"pid\":1,\"tid\":1,\"args\":{\"ss_kind\":"
	        "\"KER\",\"stream\":0}},{\"ph\":\"E\",\"ts\":-10,\"pid\":1,\"tid\":1}]," OWN "}",
	        1);
	fx_rmdir(dir);
	free(dir);
}

/* The same refusal when the file is big enough to be parsed on worker threads: the event number is the file's. */
static void test_own_negative_parallel(void **state)
{
	struct import_chrome_tuning tune = {.threads = 4, .min_bytes = 1, .slice_bytes = 4096};
	char *dir = fx_tmpdir(), *json;
	size_t n = 2000, len = 0, cap = 256 * (n + 8);

	(void)state;
	json = malloc(cap);
	assert_non_null(json);
	len += (size_t)snprintf(json + len, cap - len, "{\"traceEvents\":[\n");
	for (size_t i = 1; i <= n; i++)
		len += (size_t)snprintf(json + len, cap - len,
		                        "{\"ph\":\"X\",\"name\":\"k\",\"ts\":%s%zu,\"dur\":5,\"pid\":1,\"tid\":1,"
		                        "\"args\":{\"ss_kind\":\"KER\",\"stream\":0}}%s\n",
		                        i >= 1500 ? "-" : "", i * 10, i < n ? "," : "");
	snprintf(json + len, cap - len, "]," OWN "}\n");
	import_chrome_tune(&tune);
	refused(dir, json, 1500);
	assert_true(import_chrome_parallel_slices() > 0);
	import_chrome_tune(NULL);
	free(json);
	fx_rmdir(dir);
	free(dir);
}

/* A foreign trace with negative ts is shifted: its earliest event at 0, every duration kept. */
static void test_foreign_negative_shifted(void **state)
{
	char *dir = fx_tmpdir();
	struct ss_timeline t;
	const struct ss_record *k, *c;

	(void)state;
	imported(dir,
	         "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"kern\",\"cat\":\"kernel\",\"ts\":-1e9,\"dur\":5,\"pid\":1,"
	         "\"tid\":7},{\"ph\":\"X\",\"name\":\"MemcpyHtoD\",\"cat\":\"gpu_memcpy\",\"ts\":-999999990,\"dur\":"
	         "3,\"pid\":1,\"tid\":7}]}",
	         &t);
	assert_int_equal(t.n, 2);
	k = find(&t, SS_KIND_KERNEL);
	c = find(&t, SS_KIND_H2D);
	assert_int_equal(k->start, 0);
	assert_int_equal(k->end, 5000);
	assert_int_equal(c->start, 10000);
	assert_int_equal(c->end, 13000);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

/* Our own trace from 0 keeps its times as written (no shift to its first event) and its durations. */
static void test_own_from_zero_kept(void **state)
{
	char *dir = fx_tmpdir();
	struct ss_timeline t;
	const struct ss_record *k, *c;

	(void)state;
	imported(dir, "{\"traceEvents\":[" KER("7", "5") "," H2D("0", "2.5") "]," OWN "}", &t);
	assert_int_equal(t.n, 2);
	k = find(&t, SS_KIND_KERNEL);
	c = find(&t, SS_KIND_H2D);
	assert_int_equal(k->start, 7000);
	assert_int_equal(k->end, 12000);
	assert_int_equal(c->start, 0);
	assert_int_equal(c->end, 2500);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_own_negative_refused),
	    cmocka_unit_test(test_own_negative_parallel),
	    cmocka_unit_test(test_foreign_negative_shifted),
	    cmocka_unit_test(test_own_from_zero_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
