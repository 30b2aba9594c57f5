/* test_tui_lanes.c: lanes named as the user knows them: the streams of recorded and imported traces by their CUPTI
 * id and kind ("13 blk H2D", "Stream 15"), experiments' by index (s0..); one host lane per OS thread, as Nsight
 * Systems draws them, for traces and for experiments with several host threads. */
/* cmocka (through test_tui_util.h) before io_fixture.h */
/* clang-format off */
#include "test_tui_util.h"
#include "io_fixture.h"
/* clang-format on */

#include "io/export/export.h"
#include "io/import/import.h"
#include "model/model.h"
#include "model/profile.h"
#include "run/runner.h"
#include "tui/lanes.h"
#include "tui/layout.h"

/* label_of writes the label of lane i of one form, in the label column that form asks for. */
static const char *label_of(const struct ss_lanes *l, bool compact, int i, char *buf, size_t len)
{
	int n;
	const struct ss_lane *ln = lanes_get(l, compact, &n);

	assert_true(i < n);
	lanes_label(&ln[i], lanes_label_cols(l, compact) - 1, buf, len);
	return buf;
}

/* first_lane returns the index of the first lane of stream s in one form, -1 when none. */
static int first_lane(const struct ss_lanes *l, bool compact, int32_t s)
{
	int n;
	const struct ss_lane *ln = lanes_get(l, compact, &n);

	for (int i = 0; i < n; i++)
		if (ln[i].stream == s && ln[i].first)
			return i;
	return -1;
}

/* host_lanes counts the host lanes of the expanded form. */
static int host_lanes(const struct ss_lanes *l)
{
	int n, k = 0;
	const struct ss_lane *ln = lanes_get(l, false, &n);

	for (int i = 0; i < n; i++)
		k += ln[i].kind == LANE_HOST;
	return k;
}

/* A trace's streams go by their raw id (the fixture's are 13, 14, 15), with the kind where known; an experiment's
 * by index. */
static void test_stream_ids(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	char buf[32];

	(void)state;
	tui_fixture(&t);
	timeline_set_stream(&t, 0, 13, SS_SKIND_BLOCKING);
	timeline_set_stream(&t, 1, 14, SS_SKIND_NONBLOCKING);
	lanes_init(&l);
	lanes_build(&l, &t);
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 0), buf, sizeof buf), "s0 blk H2D");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 2), buf, sizeof buf), "s2");
	t.stream_ids = true;
	lanes_build(&l, &t);
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 0), buf, sizeof buf), "13 blk H2D");
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 0) + 1, buf, sizeof buf), "       KER");
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 1), buf, sizeof buf), "14 nb  H2D");
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 2), buf, sizeof buf), "15     H2D");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 0), buf, sizeof buf), "13 blk");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 1), buf, sizeof buf), "14 nb");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 2), buf, sizeof buf), "Stream 15");
	/* the special lanes keep their names */
	assert_string_equal(label_of(&l, false, 0, buf, sizeof buf), "host");
	assert_string_equal(label_of(&l, false, first_lane(&l, false, SS_STREAM_LEGACY), buf, sizeof buf),
	                    "legacy KER");
	/* an id too long for the column keeps its last digits */
	for (size_t i = 0; i < t.n; i++)
		if (t.rec[i].stream == 2)
			t.rec[i].raw_stream = 1234567;
	lanes_build(&l, &t);
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 2), buf, sizeof buf), "~34567 H2D");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 2), buf, sizeof buf), "1234567");
	lanes_free(&l);
	timeline_free(&t);
}

/* Twelve blocking streams: the labels of s10 and s11 ask for a wider column in the expanded form ("s11 blk KER" and
 * the separator: 12), none in the compact one ("s11 blk" fits 10); in the column asked for every tag is whole and the
 * engines aligned; squeezed into the least column the tag falls to its first letter. */
static void test_wide_labels(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	char buf[32], buf0[32];
	int n;
	const struct ss_lane *ln;

	(void)state;
	timeline_init(&t);
	t.nstreams = 12;
	for (int s = 0; s < 12; s++) {
		tui_add(&t, SS_KIND_H2D, s, (uint64_t)s * US, (uint64_t)s * US + US / 2, 4096, 0, "h");
		tui_add(&t, SS_KIND_KERNEL, s, (uint64_t)s * US + US / 2, (uint64_t)s * US + US, 0, 0, "k");
		timeline_set_stream(&t, s, (uint32_t)(13 + s), SS_SKIND_BLOCKING);
	}
	timeline_sort(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	assert_int_equal(lanes_label_cols(&l, false), 12);
	assert_int_equal(lanes_label_cols(&l, true), LAYOUT_LABEL_COLS);
	label_of(&l, false, first_lane(&l, false, 0), buf0, sizeof buf0);
	assert_string_equal(buf0, "s0 blk  H2D");
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 11), buf, sizeof buf), "s11 blk H2D");
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 11) + 1, buf, sizeof buf), "        KER");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 10), buf, sizeof buf), "s10 blk");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 0), buf, sizeof buf), "s0 blk");
	/* the least column: as before, the tag's first letter */
	ln = lanes_get(&l, false, &n);
	lanes_label(&ln[first_lane(&l, false, 11)], LAYOUT_LABEL_COLS - 1, buf, sizeof buf);
	assert_string_equal(buf, "s11 b  H2D");
	lanes_label(&ln[first_lane(&l, false, 0)], LAYOUT_LABEL_COLS - 1, buf, sizeof buf);
	assert_string_equal(buf, "s0 blk H2D");
	lanes_free(&l);
	timeline_free(&t);
}

/* Streams that go by raw ids of four digits (a foreign trace) widen the column as "sN TAG" does: "1013 blk H2D"
 * whole, the compact row "Stream 1013 blk" where its column has room. */
static void test_wide_id_labels(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	char buf[32];

	(void)state;
	timeline_init(&t);
	t.stream_ids = true;
	for (int s = 0; s < 2; s++) {
		tui_add(&t, SS_KIND_H2D, s, (uint64_t)s * US, (uint64_t)s * US + US / 2, 4096, 0, "h");
		tui_add(&t, SS_KIND_KERNEL, s, (uint64_t)s * US + US / 2, (uint64_t)s * US + US, 0, 0, "k");
		timeline_set_stream(&t, s, (uint32_t)(1013 + s), SS_SKIND_BLOCKING);
	}
	for (size_t i = 0; i < t.n; i++) /* what the program called them */
		t.rec[i].raw_stream = 1013 + (uint32_t)t.rec[i].stream;
	timeline_sort(&t);
	lanes_init(&l);
	lanes_build(&l, &t);
	assert_int_equal(lanes_label_cols(&l, false), 13);
	assert_int_equal(lanes_label_cols(&l, true), LAYOUT_LABEL_COLS);
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 1), buf, sizeof buf), "1014 blk H2D");
	assert_string_equal(label_of(&l, false, first_lane(&l, false, 1) + 1, buf, sizeof buf), "         KER");
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 0), buf, sizeof buf), "1013 blk");
	lanes_free(&l);
	timeline_free(&t);
}

/* A real Nsight Systems export: its streams 13..16 (created blocking) are labelled so. */
static void test_stream_ids_nsys(void **state)
{
	char *path = fx_data("nsys/rtx4060ti-4streams.sqlite"), *cause = NULL, buf[32];
	struct ss_timeline t;
	struct ss_lanes l;

	(void)state;
	timeline_init(&t);
	if (import_file(path, &t, &cause) != 0)
		fail_msg("%s", cause);
	assert_true(t.stream_ids);
	lanes_init(&l);
	lanes_build(&l, &t);
	for (int s = 0; s < 4; s++) {
		char want[16];

		snprintf(want, sizeof want, "%d blk", 13 + s);
		assert_string_equal(label_of(&l, true, first_lane(&l, true, s), buf, sizeof buf), want);
		snprintf(want, sizeof want, "%d blk H2D", 13 + s);
		assert_string_equal(label_of(&l, false, first_lane(&l, false, s), buf, sizeof buf), want);
	}
	/* one host thread: one host lane */
	assert_int_equal(host_lanes(&l), 1);
	assert_string_equal(label_of(&l, false, 0, buf, sizeof buf), "host");
	lanes_free(&l);
	timeline_free(&t);
	free(path);
}

/* How streams are named survives streamscope's own SQLite files: a recording's by id, an experiment's by index. */
static void test_stream_ids_roundtrip(void **state)
{
	char *dir = fx_tmpdir(), *path, *cause = NULL;
	struct ss_timeline t, back;
	struct ss_export_input in;

	(void)state;
	path = malloc(strlen(dir) + 16);
	sprintf(path, "%s/t.sqlite", dir);
	tui_fixture(&t);
	timeline_init(&back);
	for (int ids = 0; ids < 2; ids++) {
		t.stream_ids = ids;
		memset(&in, 0, sizeof in);
		in.t = &t;
		if (export_file(path, &in, &cause) != 0 || import_file(path, &back, &cause) != 0)
			fail_msg("%s", cause);
		assert_int_equal(back.stream_ids, ids);
	}
	timeline_free(&back);
	timeline_free(&t);
	fx_rmdir(dir);
	free(dir);
	free(path);
}

/* add_host appends a host record of thread tid. */
static void add_host(struct ss_timeline *t, int kind, uint32_t tid, uint64_t s, uint64_t e, uint32_t corr,
                     const char *name)
{
	struct ss_record *r;

	tui_add(t, kind, SS_STREAM_HOST, s, e, 0, corr, name);
	r = &t->rec[t->n - 1];
	r->thread = tid;
}

/* Calls of two OS threads: a host lane each, in rising thread id order, holding that thread's calls only; the
 * kernel's API call is found on its thread's lane. */
static void test_host_threads(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	const struct ss_lane *ln;
	char buf[32];
	int n;

	(void)state;
	timeline_init(&t);
	t.nstreams = 1;
	add_host(&t, SS_KIND_API, 123456, 0, 10 * US, 1, "cudaMemcpyAsync");
	add_host(&t, SS_KIND_API, 812, 2 * US, 5 * US, 2, "cudaLaunchKernel");
	add_host(&t, SS_KIND_API, 812, 20 * US, 90 * US, 3, "cudaStreamSynchronize");
	add_host(&t, SS_KIND_SYNC, 812, 21 * US, 89 * US, 3, "");
	tui_add(&t, SS_KIND_H2D, 0, 5 * US, 15 * US, 1 << 20, 1, "");
	tui_add(&t, SS_KIND_KERNEL, 0, 16 * US, 80 * US, 0, 2, "k");
	lanes_init(&l);
	lanes_build(&l, &t);
	ln = lanes_get(&l, false, &n);
	assert_int_equal(host_lanes(&l), 2);
	assert_int_equal(ln[0].kind, LANE_HOST);
	assert_int_equal(ln[1].kind, LANE_HOST);
	assert_string_equal(label_of(&l, false, 0, buf, sizeof buf), "host t812");
	assert_string_equal(label_of(&l, false, 1, buf, sizeof buf), "host ~3456");
	assert_string_equal(label_of(&l, true, 1, buf, sizeof buf), "host ~3456");
	assert_int_equal(lanes_find(&l, false, 0), 1); /* thread 123456's call */
	assert_int_equal(lanes_find(&l, false, 1), 0);
	assert_int_equal(lanes_find(&l, false, 3), 0); /* 812's sync wait */
	assert_int_equal(lanes_step(&l, &ln[0], UINT32_MAX, 1), 1);
	assert_int_equal(lanes_step(&l, &ln[1], UINT32_MAX, 1), 0);
	assert_int_equal(lanes_step(&l, &ln[1], 0, 1), UINT32_MAX);
	assert_int_equal(lanes_api_of(&l, 5), 1); /* the kernel's launch, on 812's lane */
	assert_int_equal(lanes_api_of(&l, 4), 0);
	/* one thread: the one "host" lane as before */
	for (size_t i = 0; i < t.n; i++)
		t.rec[i].thread = t.rec[i].stream == SS_STREAM_HOST ? 812 : 0;
	lanes_build(&l, &t);
	assert_int_equal(host_lanes(&l), 1);
	assert_string_equal(label_of(&l, false, 0, buf, sizeof buf), "host");
	lanes_free(&l);
	timeline_free(&t);
}

/* An experiment with --threads N (the model backend, through the runner): N host lanes, "host t0".. */
static void test_model_threads(void **state)
{
	struct ss_experiment e;
	struct ss_timeline tl;
	struct ss_run_result res;
	struct ss_profile p;
	struct ss_lanes l;
	char *cause = NULL, buf[32], want[24];

	(void)state;
	profile_builtin(&p);
	model_set_profile(&p);
	timeline_init(&tl);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.threads = e.streams;
	if (runner_run(&model_backend, &e, &tl, &res, &cause) != 0)
		fail_msg("runner: %s", cause);
	assert_false(tl.stream_ids);
	lanes_init(&l);
	lanes_build(&l, &tl);
	assert_int_equal(host_lanes(&l), e.streams);
	for (int i = 0; i < e.streams; i++) {
		snprintf(want, sizeof want, "host t%d", i);
		assert_string_equal(label_of(&l, false, i, buf, sizeof buf), want);
	}
	assert_string_equal(label_of(&l, true, first_lane(&l, true, 0), buf, sizeof buf), "s0 blk");
	lanes_free(&l);
	model_set_profile(NULL);
	timeline_free(&tl);
}

/* add_rec appends one record to t. */
static void add_rec(struct ss_timeline *t, int kind, int32_t stream, int device, uint64_t start, uint64_t end)
{
	struct ss_record r = {.start = start, .end = end, .kind = (uint8_t)kind, .stream = stream};

	r.device = (uint8_t)device;
	r.raw_stream = stream >= 0 ? 13u + (uint32_t)stream : 7u;
	timeline_add(t, &r);
}

/* Two devices: a header per device, then its own streams (legacy included), a peer copy on its stream's lane and
 * on the far device's "peer" lane; one device: no headers, as before. */
static void test_devices(void **state)
{
	struct ss_timeline t;
	struct ss_lanes l;
	struct ss_record peer = {.start = 50, .end = 90, .kind = SS_KIND_D2D, .stream = 1, .bytes = 1 << 20};
	const struct ss_lane *ln;
	char buf[32];
	int n, hdr1 = -1, s2 = -1, s1 = -1, peer1 = -1, leg1 = -1, found;

	(void)state;
	timeline_init(&t);
	lanes_init(&l);
	t.nstreams = 4;
	add_rec(&t, SS_KIND_API, SS_STREAM_HOST, 0, 0, 10);
	add_rec(&t, SS_KIND_KERNEL, 0, 0, 10, 40);
	add_rec(&t, SS_KIND_KERNEL, 1, 0, 10, 40);
	add_rec(&t, SS_KIND_KERNEL, 2, 1, 20, 60);
	add_rec(&t, SS_KIND_H2D, 3, 1, 0, 20);
	add_rec(&t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 1, 70, 80);
	lanes_build(&l, &t);
	ln = lanes_get(&l, true, &n);
	assert_int_equal(l.ndev, 1 + 1);
	/* compact: host, GPU 0, s0, s1, GPU 1, legacy (device 1's), s2, s3 */
	assert_int_equal(n, 8);
	assert_int_equal(ln[0].kind, LANE_HOST);
	assert_int_equal(ln[1].kind, LANE_DEVICE);
	assert_int_equal(ln[1].device, 0);
	assert_string_equal(label_of(&l, true, 1, buf, sizeof buf), "GPU 0");
	assert_int_equal(ln[2].stream, 0);
	assert_int_equal(ln[3].stream, 1);
	assert_int_equal(ln[4].kind, LANE_DEVICE);
	assert_int_equal(ln[4].device, 1);
	assert_int_equal(ln[5].stream, SS_STREAM_LEGACY);
	assert_int_equal(ln[5].device, 1);
	assert_int_equal(ln[6].stream, 2);
	assert_int_equal(ln[7].stream, 3);
	assert_int_equal(ln[7].device, 1);
	lanes_free(&l);

	/* a peer copy from device 0's s1 to device 1 */
	peer.flags = SS_REC_PEER;
	peer.peer = 1;
	timeline_add(&t, &peer);
	lanes_build(&l, &t);
	ln = lanes_get(&l, true, &n);
	assert_int_equal(n, 9);
	for (int i = 0; i < n; i++) {
		if (ln[i].kind == LANE_DEVICE && ln[i].device == 1)
			hdr1 = i;
		if (ln[i].stream == 2)
			s2 = i;
		if (ln[i].stream == 1)
			s1 = i;
		if (ln[i].peer)
			peer1 = i;
		if (ln[i].stream == SS_STREAM_LEGACY)
			leg1 = i;
	}
	assert_true(hdr1 > s1 && leg1 > hdr1 && s2 > leg1 && peer1 > s2);
	assert_int_equal(ln[peer1].device, 1);
	assert_string_equal(label_of(&l, true, peer1, buf, sizeof buf), "peer");
	/* the copy is on both ends: its stream's lane finds it, and so does the peer lane */
	assert_int_equal(lanes_find(&l, true, (uint32_t)(t.n - 1)), s1);
	found = 0;
	for (int i = 0; i < n; i++)
		found += lanes_step(&l, &ln[i], UINT32_MAX, 1) == (uint32_t)(t.n - 1);
	assert_int_equal(found, 1); /* s1's first record is its kernel; the peer lane's first is the copy */
	assert_int_equal(lanes_step(&l, &ln[peer1], UINT32_MAX, 1), (uint32_t)(t.n - 1));
	assert_int_equal(lanes_step(&l, &ln[s1], (uint32_t)2, 1), (uint32_t)(t.n - 1));
	/* expanded: the peer lane draws the copy with the device copies (KER) */
	ln = lanes_get(&l, false, &n);
	found = 0;
	for (int i = 0; i < n; i++)
		if (ln[i].peer) {
			found++;
			assert_int_equal(ln[i].kind, LANE_KER);
			assert_string_equal(label_of(&l, false, i, buf, sizeof buf), "peer KER");
		}
	assert_int_equal(found, 1);
	lanes_free(&l);

	/* one device again: no header lanes */
	t.n = 3;
	lanes_build(&l, &t);
	ln = lanes_get(&l, true, &n);
	assert_int_equal(l.ndev, 1);
	for (int i = 0; i < n; i++)
		assert_int_not_equal(ln[i].kind, LANE_DEVICE);
	lanes_free(&l);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stream_ids),           cmocka_unit_test(test_stream_ids_nsys),
	    cmocka_unit_test(test_stream_ids_roundtrip), cmocka_unit_test(test_host_threads),
	    cmocka_unit_test(test_model_threads),        cmocka_unit_test(test_devices),
	    cmocka_unit_test(test_wide_labels),          cmocka_unit_test(test_wide_id_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
