/* test_multigpu_trace.c: the synthetic two-GPU trace of tests/data/synthetic/two-gpu-peer.sqlite (no public Nsight
 * Systems export with two devices was found; this one is made by our exporter, and labelled MODELLED: nothing in it
 * was measured). A two-stage pipeline: each chunk is copied to GPU 0 or GPU 1, processed there, moved to the other
 * GPU by a peer copy, processed again and copied back; the two GPUs' host copies overlap (they share the host
 * link). The test builds the timeline, checks that the committed file reads back to the same records and device
 * table, and checks what devsum makes of it. SS_WRITE_DATA=1 (re)writes the file instead. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdlib.h>

#include "core/devsum.h"
#include "io/export/export.h"
#include "io/import/import.h"
#include "io_fixture.h"

#ifndef SS_SOURCE_DIR
#define SS_SOURCE_DIR "."
#endif
#define TRACE SS_SOURCE_DIR "/tests/data/synthetic/two-gpu-peer.sqlite"

/* add appends one record; GPU records get raw stream 13 + stream. */
static void add(struct ss_timeline *t, int kind, int32_t stream, int device, uint64_t start, uint64_t end,
                uint64_t bytes, uint32_t corr, const char *name)
{
	struct ss_record r = {.start = start, .end = end, .kind = (uint8_t)kind, .stream = stream, .bytes = bytes};

	r.correlation = corr;
	r.device = (uint8_t)device;
	r.raw_stream = stream >= 0 ? 13u + (uint32_t)stream : 0;
	r.thread = stream == SS_STREAM_HOST ? 4242u : 0u;
	if (kind == SS_KIND_H2D || kind == SS_KIND_D2H)
		r.flags = SS_REC_PINNED | SS_REC_ASYNC;
	r.name = timeline_intern(t, name);
	timeline_add(t, &r);
}

/* build_trace fills t: 8 chunks of 8 MiB over 4 streams, streams 0-1 on GPU 0 and 2-3 on GPU 1 (us). */
static void build_trace(struct ss_timeline *t)
{
	const uint64_t mib8 = 8u << 20, us = 1000;
	uint32_t corr = 1;

	t->nstreams = 4;
	t->modelled = true;
	snprintf(t->backend, sizeof t->backend, "model");
	snprintf(t->device, sizeof t->device, "SYNTHETIC (two GPUs, not measured)");
	timeline_set_device(t, 0, "SYNTHETIC GPU A", "GPU-00000000-0000-0000-0000-0000000000a0", 1);
	timeline_set_device(t, 1, "SYNTHETIC GPU B", "GPU-00000000-0000-0000-0000-0000000000b1", 2);
	for (int s = 0; s < 4; s++) {
		timeline_set_stream(t, s, 13u + (uint32_t)s, SS_SKIND_NONBLOCKING);
		timeline_set_stream_device(t, s, s / 2);
	}
	for (int c = 0; c < 8; c++) {
		int s = c % 4, dev = s / 2, far = 1 - dev, fs = (s + 2) % 4;
		uint64_t t0 = (uint64_t)(c / 4) * 1200 * us + (uint64_t)(s % 2) * 150 * us;
		/* the host link is shared: both GPUs' H2Ds at once take twice as long as one alone would */
		uint64_t h2d = 2 * 170 * us, ker = 300 * us, peer = 40 * us, d2h = 2 * 170 * us;
		uint64_t a = t0, b = a + h2d, k = b + ker, p = k + peer, k2 = p + ker, e = k2 + d2h;
		struct ss_record pr = {.start = k, .end = p, .kind = SS_KIND_D2D, .stream = s, .bytes = mib8};

		add(t, SS_KIND_API, SS_STREAM_HOST, 0, a > 10 * us ? a - 10 * us : 0, a > 10 * us ? a - 5 * us : 5 * us,
		    0, corr, "cudaMemcpyAsync");
		add(t, SS_KIND_H2D, s, dev, a, b, mib8, corr++, "Memcpy HtoD (Pinned -> Device)");
		add(t, SS_KIND_KERNEL, s, dev, b, k, 0, corr++, "stage1");
		pr.correlation = corr++;
		pr.raw_stream = 13u + (uint32_t)s;
		pr.device = (uint8_t)dev;
		pr.peer = (uint8_t)far;
		pr.flags = SS_REC_PEER | SS_REC_ASYNC;
		pr.name =
		    timeline_intern(t, dev == 0 ? "Memcpy PtoP (GPU 0 -> GPU 1)" : "Memcpy PtoP (GPU 1 -> GPU 0)");
		timeline_add(t, &pr);
		add(t, SS_KIND_KERNEL, fs, far, p, k2, 0, corr++, "stage2");
		add(t, SS_KIND_D2H, fs, far, k2, e, mib8, corr++, "Memcpy DtoH (Device -> Pinned)");
	}
	timeline_sort(t);
}

static void test_trace(void **state)
{
	struct ss_timeline t, back;
	struct ss_devsum d;
	struct ss_export_input in = {.t = &t};
	char *cause = NULL;

	(void)state;
	timeline_init(&t);
	build_trace(&t);
	if (getenv("SS_WRITE_DATA") != NULL && export_file(TRACE, &in, &cause) != 0)
		fail_msg("%s", cause);
	timeline_init(&back);
	if (import_file(TRACE, &back, &cause) != 0)
		fail_msg("%s (SS_WRITE_DATA=1 writes it)", cause);
	fx_same_records(&t, &back);
	assert_true(back.modelled);
	assert_int_equal(timeline_ndevices(&back), 2);
	assert_string_equal(timeline_device(&back, 1)->name, "SYNTHETIC GPU B");
	assert_string_equal(timeline_device(&back, 1)->uuid, "GPU-00000000-0000-0000-0000-0000000000b1");
	devsum_build(&back, &d);
	assert_int_equal(d.ndev, 2);
	assert_int_equal(d.dev[0].peers, 8); /* 4 issued, 4 received */
	assert_int_equal(d.dev[0].peer_out_bytes, 4u * (8u << 20));
	assert_int_equal(d.dev[1].peer_in_bytes, 4u * (8u << 20));
	assert_true(d.link_shared_ns > 0);
	devsum_free(&d);
	timeline_free(&back);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
