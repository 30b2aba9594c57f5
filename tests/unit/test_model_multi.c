/* test_model_multi.c: experiments over several GPUs (--devices, --peer): the op list over every device's streams
 * with the peer stage, the validation's refusals, and the model's engines per device, shared host link and peer
 * link against what the profile's numbers give by hand, and the cost of data off a line. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/devsum.h"
#include "core/planner.h"
#include "model/model.h"
#include "model/profile.h"

/* two_gpus is kernel-transfer on 2 devices of 2 streams, 4 chunks of 1 Mi floats. */
static struct ss_experiment two_gpus(bool peer)
{
	struct ss_experiment e;

	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 2;
	e.devices = 2;
	e.peer = peer;
	e.elements = 4u << 20;
	e.sync = SS_SYNC_STREAM;
	return e;
}

/* The op list spans both devices' streams, the chunks dealt round the devices; the peer stage adds a peer copy and a
 * kernel per chunk and moves the D2H to the next device's stream. Fewer chunks than streams still reach both
 * devices (16 chunks on 2 x 16 streams went all to the first). */
static void test_planner(void **state)
{
	struct ss_experiment e = two_gpus(false);
	struct ss_oplist ops;
	size_t counts[SS_KIND_COUNT];
	char *cause = NULL;
	int peers = 0;

	(void)state;
	assert_int_equal(experiment_validate(&e, &cause), 0);
	planner_build(&e, &ops);
	assert_int_equal(ops.nchunks, 4);
	planner_expected_records(&ops, false, counts);
	assert_int_equal(counts[SS_KIND_H2D], 8);
	assert_int_equal(counts[SS_KIND_KERNEL], 4);
	assert_int_equal(counts[SS_KIND_D2D], 0);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.op[i].kind == SS_OP_KERNEL)
			assert_int_equal(experiment_stream_device(&e, ops.op[i].stream), ops.op[i].chunk % 2);
	planner_free(&ops);
	e.streams = 16;
	e.chunks = 16;
	planner_build(&e, &ops);
	{
		int per[2] = {0, 0};

		for (size_t i = 0; i < ops.n; i++)
			if (ops.op[i].kind == SS_OP_KERNEL)
				per[experiment_stream_device(&e, ops.op[i].stream)]++;
		assert_int_equal(per[0], 8);
		assert_int_equal(per[1], 8);
	}
	planner_free(&ops);
	e = two_gpus(true);
	planner_build(&e, &ops);
	planner_expected_records(&ops, false, counts);
	assert_int_equal(counts[SS_KIND_KERNEL], 8);
	assert_int_equal(counts[SS_KIND_D2D], 4);
	for (size_t i = 0; i < ops.n; i++) {
		const struct ss_op *op = &ops.op[i];

		assert_int_equal(op->id, i + 1);
		if (op->kind == SS_OP_PEER) {
			peers++;
			assert_int_equal(op->event, (op->stream + 2) % 4); /* the same stream of the next device */
			assert_int_equal(ops.op[i + 1].kind, SS_OP_KERNEL);
			assert_int_equal(ops.op[i + 1].stream, op->event);
			assert_int_equal(planner_op_bytes(&ops, op), (1u << 20) * 4);
		}
		if (op->kind == SS_OP_D2H)
			assert_int_equal(experiment_stream_device(&e, op->stream), 1 - op->chunk % 2);
	}
	assert_int_equal(peers, 4);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.op[i].kind == SS_OP_PEER) {
			char line[160];

			planner_op_describe(&ops, &ops.op[i], line, sizeof line);
			assert_non_null(strstr(line, "cudaMemcpyPeerAsync z["));
			break;
		}
	planner_free(&ops);
}

/* Chunks that leave the last one empty (ceil split) still model: its kernel takes no time. */
static void test_empty_chunk(void **state)
{
	struct ss_experiment e = two_gpus(true);
	struct ss_profile p;
	struct ss_timeline t;
	char *cause = NULL;

	(void)state;
	e.elements = 10;
	e.chunks = 4; /* ceil(10 / 4) = 3: 3, 3, 3, 1 */
	assert_int_equal(experiment_validate(&e, &cause), 0);
	e.elements = 9;
	e.chunks = 4; /* 3, 3, 3, 0 */
	profile_builtin(&p);
	timeline_init(&t);
	if (model_timeline(&e, &p, &t, NULL, &cause) != 0)
		fail_msg("%s", cause);
	assert_true(t.n > 0);
	timeline_free(&t);
}

/* What --devices cannot go with, each refused in one line. */
static void test_validate(void **state)
{
	struct ss_experiment e = two_gpus(false);
	char *cause = NULL;

	(void)state;
	e.devices = 9;
	assert_int_equal(experiment_validate(&e, &cause), -1);
	assert_non_null(strstr(cause, "valid is 1..8"));
	free(cause);
	e = two_gpus(true);
	e.devices = 1;
	assert_int_equal(experiment_validate(&e, &cause), -1);
	assert_non_null(strstr(cause, "--peer"));
	free(cause);
	e = two_gpus(false);
	e.streams = 100;
	assert_int_equal(experiment_validate(&e, &cause), -1);
	assert_non_null(strstr(cause, "200 streams"));
	free(cause);
	e = two_gpus(false);
	e.hostmem = SS_MEM_PAGEABLE;
	assert_int_equal(experiment_validate(&e, &cause), -1);
	assert_non_null(strstr(cause, "--devices 2 cannot run --host-mem pageable: it runs "));
	free(cause);
	e = two_gpus(false);
	e.order = SS_ORDER_BREADTH;
	assert_int_equal(experiment_validate(&e, &cause), -1);
	assert_non_null(strstr(cause, "--devices 2 cannot run --order breadth: it runs "));
	assert_non_null(strstr(cause, "depth-first"));
	free(cause);
	e = two_gpus(false);
	e.devices = 0; /* an experiment made before --devices: one device */
	assert_int_equal(experiment_validate(&e, &cause), 0);
}

/* model runs e on p into t (cleared); fails the test on error. */
static void model(const struct ss_experiment *e, const struct ss_profile *p, struct ss_timeline *t)
{
	char *cause = NULL;

	timeline_init(t);
	if (model_timeline(e, p, t, NULL, &cause) != 0)
		fail_msg("%s", cause);
}

/* h2d_rate is the H2D copies' bytes over the union of their intervals (every device together), bytes per ns. */
static double h2d_rate(const struct ss_timeline *t)
{
	uint64_t bytes = 0, busy = 0, end = 0;
	struct ss_timeline c;

	timeline_copy(&c, t);
	timeline_sort(&c);
	for (size_t i = 0; i < c.n; i++) {
		const struct ss_record *r = &c.rec[i];

		if (r->kind != SS_KIND_H2D)
			continue;
		bytes += r->bytes;
		if (r->end > end) {
			busy += r->end - (r->start > end ? r->start : end);
			end = r->end;
		}
	}
	timeline_free(&c);
	return busy > 0 ? (double)bytes / (double)busy : 0;
}

/* Each device's records carry it; the two devices' copies share the host link: together they never move more
 * than the link gives, and a link twice as wide lets them move more and the run end sooner. */
static void test_host_link(void **state)
{
	struct ss_experiment e = two_gpus(false);
	struct ss_profile p;
	struct ss_timeline shared, wide;
	struct ss_devsum d;

	(void)state;
	profile_builtin(&p);
	model(&e, &p, &shared);
	assert_int_equal(timeline_ndevices(&shared), 2);
	assert_true(shared.modelled);
	for (size_t i = 0; i < shared.n; i++) {
		const struct ss_record *r = &shared.rec[i];

		assert_true(r->flags & SS_REC_MODELLED);
		if (r->stream >= 0)
			assert_int_equal(r->device, r->stream / 2);
	}
	devsum_build(&shared, &d);
	assert_true(d.link_shared_ns > 0);
	devsum_free(&d);
	assert_true(h2d_rate(&shared) <= p.host_link_gbs);
	p.host_link_gbs *= 2;
	model(&e, &p, &wide);
	assert_true(h2d_rate(&wide) > h2d_rate(&shared) * 1.2);
	timeline_sort(&shared);
	timeline_sort(&wide);
	{
		uint64_t a0, a1, b0, b1;

		assert_true(timeline_work_span(shared.rec, shared.n, &a0, &a1));
		assert_true(timeline_work_span(wide.rec, wide.n, &b0, &b1));
		assert_true(b1 - b0 < a1 - a0);
	}
	timeline_free(&shared);
	timeline_free(&wide);
}

/* A kernel whose data start off a 128-byte line costs its repeats kernel.add.misalign times as on one device: with
 * 4 Mi + 2 floats in 2 chunks, chunk 1 starts 4 bytes off a line and its kernel takes longer than chunk 0's by the
 * factor over the repeats; with the factor 1, both take the same. */
static void test_misalign(void **state)
{
	struct ss_experiment e = two_gpus(false);
	struct ss_profile p;
	double ker[2][2] = {{0}};

	(void)state;
	e.streams = 1;
	e.chunks = 2;
	e.elements = (4u << 20) + 2;
	for (int f = 0; f < 2; f++) {
		struct ss_timeline tl;

		profile_builtin(&p);
		p.kernel[SS_KERNEL_ADD].misalign = f == 0 ? 1.0 : 1.5;
		model(&e, &p, &tl);
		for (size_t i = 0; i < tl.n; i++)
			if (tl.rec[i].kind == SS_KIND_KERNEL && tl.rec[i].stream >= 0)
				ker[f][tl.rec[i].device] = (double)(tl.rec[i].end - tl.rec[i].start);
		timeline_free(&tl);
	}
	assert_true(fabs(ker[0][1] - ker[0][0]) <= 0.001 * ker[0][0]);
	assert_true(fabs(ker[1][0] - ker[0][0]) <= 0.001 * ker[0][0]);
	assert_true(ker[1][1] > 1.3 * ker[1][0] && ker[1][1] < 1.5 * ker[1][0]);
}

/* The peer stage: a peer copy per chunk from its device to the next, flagged and naming its far end, taking
 * latency + bytes / multi.peer_gbs, the second kernel on the far device after it, the D2H there. Kernels are
 * named ss_add (they were "add", where one device's model and the GPU say ss_add). */
static void test_peer(void **state)
{
	struct ss_experiment e = two_gpus(true);
	struct ss_profile p;
	struct ss_timeline t;
	int peers = 0, kernels[2] = {0, 0};

	(void)state;
	profile_builtin(&p);
	model(&e, &p, &t);
	for (size_t i = 0; i < t.n; i++) {
		const struct ss_record *r = &t.rec[i];

		if (r->kind == SS_KIND_KERNEL) { /* named as the one-device model and a GPU trace name them */
			kernels[r->device]++;
			assert_string_equal(timeline_name(&t, r->name), "ss_add");
		}
		if (r->kind != SS_KIND_D2D)
			continue;
		peers++;
		assert_true(r->flags & SS_REC_PEER);
		assert_int_equal(r->peer, 1 - r->device);
		assert_true(fabs((double)(r->end - r->start) - (p.peer_latency_ns + (double)r->bytes / p.peer_gbs)) <=
		            2);
		/* its chunk's second kernel: on the far device, after the copy */
		for (size_t j = 0; j < t.n; j++)
			if (t.rec[j].kind == SS_KIND_KERNEL && t.rec[j].correlation == r->correlation + 1) {
				assert_int_equal(t.rec[j].device, r->peer);
				assert_true(t.rec[j].start >= r->end);
			}
	}
	assert_int_equal(peers, 4);
	assert_int_equal(kernels[0], 4);
	assert_int_equal(kernels[1], 4);
	timeline_free(&t);
}

/* Half a second of copies over two devices ends: what was left of a copy fell below the clock's resolution
 * (2.8e-6 bytes at 0.54 s) and the model stood still, never returning (1 Gi floats, --peer). Every op is on the
 * timeline, and the H2Ds take at least their bytes over the host link. */
static void test_long_run_ends(void **state)
{
	struct ss_experiment e = two_gpus(true);
	struct ss_profile p;
	struct ss_timeline t;
	uint64_t bytes = 0, end = 0;

	(void)state;
	profile_builtin(&p);
	e.elements = 1ull << 30;
	e.streams = 8;
	model(&e, &p, &t);
	assert_int_equal(timeline_count(&t, SS_KIND_KERNEL), 32);
	assert_int_equal(timeline_count(&t, SS_KIND_D2D), 16);
	for (size_t i = 0; i < t.n; i++) {
		if (t.rec[i].kind == SS_KIND_H2D)
			bytes += t.rec[i].bytes;
		if (t.rec[i].end > end)
			end = t.rec[i].end;
	}
	assert_int_equal(bytes, 2ull * 4 * (1ull << 30));
	assert_true((double)end >= (double)bytes / p.host_link_gbs);
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_planner),       cmocka_unit_test(test_validate),    cmocka_unit_test(test_host_link),
	    cmocka_unit_test(test_peer),          cmocka_unit_test(test_empty_chunk), cmocka_unit_test(test_misalign),
	    cmocka_unit_test(test_long_run_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
