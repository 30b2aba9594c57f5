/* test_insight_multi.c: the multi-device rules on hand-made timelines: each fires on its pathology with the numbers
 * worked out by hand and stays silent on a balanced, hidden, one-device or staggered run; and on the synthetic
 * two-GPU trace of tests/data/synthetic. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <string.h>

#include "core/analysis.h"
#include "core/insight.h"
#include "core/timeline.h"
#include "io/import/import.h"

static void add(struct ss_timeline *t, int kind, int32_t stream, int device, uint64_t start, uint64_t end)
{
	struct ss_record r = {.start = start, .end = end, .kind = (uint8_t)kind, .stream = stream, .bytes = 1 << 20};

	r.device = (uint8_t)device;
	r.raw_stream = 13u + (uint32_t)stream;
	timeline_add(t, &r);
}

static void add_peer(struct ss_timeline *t, int32_t stream, int device, int peer, uint64_t start, uint64_t end)
{
	struct ss_record r = {.start = start, .end = end, .kind = SS_KIND_D2D, .stream = stream, .bytes = 8 << 20};

	r.device = (uint8_t)device;
	r.peer = (uint8_t)peer;
	r.flags = SS_REC_PEER;
	timeline_add(t, &r);
}

/* analyze runs every rule over t (sorted first). */
static void analyze(struct ss_timeline *t, struct ss_insights *out)
{
	struct ss_analysis a;

	timeline_sort(t);
	analysis_timeline(t, &a);
	insight_analyze(t, &a, out);
}

/* Stage 1 on GPU 0 (0-400), a peer copy 400-600 with nothing beside it, stage 2 on GPU 1 (600-1000): the copy is
 * exposed for 200 of 1000 ns; GPU 1 idles 0-400 and GPU 0 600-1000. */
static void test_peer_critical(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *p, *d;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 0, 400);
	add_peer(&t, 0, 0, 1, 400, 600);
	add(&t, SS_KIND_KERNEL, 1, 1, 600, 1000);
	analyze(&t, &in);
	p = insight_find(&in, "peer-copy-critical");
	assert_non_null(p);
	assert_int_equal(p->severity, SS_SEV_PROBLEM);
	assert_int_equal(p->nrec, 1);
	assert_int_equal(p->t0, 400);
	assert_int_equal(p->t1, 600);
	assert_true(p->have_gain);
	assert_int_equal(p->gain_ns, 200);
	assert_non_null(strstr(p->summary, "20.0%"));
	d = insight_find(&in, "device-idle");
	/* each idles 400 of 1000 ns while the other works (the copy keeps both ends busy): the lower index names it */
	assert_non_null(d);
	assert_non_null(strstr(d->summary, "GPU 0"));
	assert_non_null(strstr(d->summary, "40.0%"));
	assert_null(insight_find(&in, "host-link-contention"));
	timeline_free(&t);

	/* the same copy behind a kernel of the next chunk: hidden, silent */
	timeline_init(&t);
	add(&t, SS_KIND_KERNEL, 0, 0, 0, 400);
	add_peer(&t, 0, 0, 1, 400, 600);
	add(&t, SS_KIND_KERNEL, 0, 0, 400, 800);
	add(&t, SS_KIND_KERNEL, 1, 1, 0, 400);
	add(&t, SS_KIND_KERNEL, 1, 1, 600, 800);
	analyze(&t, &in);
	assert_null(insight_find(&in, "peer-copy-critical"));
	assert_null(insight_find(&in, "device-idle"));
	timeline_free(&t);
}

/* Both GPUs' H2Ds at once for 500 of 1000 ns: host-link-contention with the two overlapping copies as evidence;
 * staggered (one after the other), silent. */
static void test_link_contention(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	const struct ss_insight *l;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 0, 500);
	add(&t, SS_KIND_H2D, 1, 1, 0, 500);
	add(&t, SS_KIND_KERNEL, 0, 0, 500, 1000);
	add(&t, SS_KIND_KERNEL, 1, 1, 500, 1000);
	analyze(&t, &in);
	l = insight_find(&in, "host-link-contention");
	assert_non_null(l);
	assert_int_equal(l->severity, SS_SEV_HINT);
	assert_int_equal(l->nrec, 1); /* the first of the pair that overlapped another device's */
	assert_non_null(strstr(l->summary, "50.0%"));
	assert_non_null(strstr(l->evidence, "GPU 1 500 ns"));
	assert_false(l->have_gain);
	timeline_free(&t);

	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 0, 250);
	add(&t, SS_KIND_H2D, 1, 1, 250, 500);
	add(&t, SS_KIND_KERNEL, 0, 0, 250, 1000);
	add(&t, SS_KIND_KERNEL, 1, 1, 500, 1000);
	analyze(&t, &in);
	assert_null(insight_find(&in, "host-link-contention"));
	timeline_free(&t);
}

/* One device: none of the multi-device rules, whatever its records look like. */
static void test_one_device(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 0, 500);
	add(&t, SS_KIND_H2D, 1, 0, 0, 500);
	add(&t, SS_KIND_D2D, 1, 0, 500, 1000);
	analyze(&t, &in);
	assert_null(insight_find(&in, "peer-copy-critical"));
	assert_null(insight_find(&in, "device-idle"));
	assert_null(insight_find(&in, "host-link-contention"));
	timeline_free(&t);
}

/* The synthetic two-GPU trace: both GPUs' host copies overlap (its H2Ds and D2Hs run side by side). */
static void test_synthetic_trace(void **state)
{
	struct ss_timeline t;
	struct ss_insights in;
	char *cause = NULL;

	(void)state;
	timeline_init(&t);
	if (import_file(SS_SOURCE_DIR "/tests/data/synthetic/two-gpu-peer.sqlite", &t, &cause) != 0)
		fail_msg("%s", cause);
	analyze(&t, &in);
	assert_non_null(insight_find(&in, "host-link-contention"));
	assert_null(insight_find(&in, "device-idle")); /* the two GPUs are busy alike */
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_peer_critical),
	    cmocka_unit_test(test_link_contention),
	    cmocka_unit_test(test_one_device),
	    cmocka_unit_test(test_synthetic_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
