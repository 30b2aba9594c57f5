/* test_devsum.c: devsum on hand-made two- and three-device timelines: busy times as unions, peer copies counted at
 * both ends, idle-while-busy and host-link sharing against times worked out by hand. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include "core/devsum.h"

static void add(struct ss_timeline *t, int kind, int device, uint64_t start, uint64_t end, uint64_t bytes)
{
	struct ss_record r = {.start = start, .end = end, .kind = (uint8_t)kind, .bytes = bytes, .stream = 0};

	r.device = (uint8_t)device;
	timeline_add(t, &r);
}

/* GPU 0: H2D 0-100, kernel 100-300 and 150-250 (union 200); GPU 1: H2D 50-150 (shares the link with GPU 0's
 * 50-100), kernel 300-400; a peer copy 0 -> 1 at 400-500 issued on GPU 0; an API call that is not GPU work. */
static void test_two_devices(void **state)
{
	struct ss_timeline t;
	struct ss_devsum s;
	struct ss_record peer = {.start = 400, .end = 500, .kind = SS_KIND_D2D, .bytes = 4096, .flags = SS_REC_PEER};

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 100, 1000);
	add(&t, SS_KIND_KERNEL, 0, 100, 300, 0);
	add(&t, SS_KIND_KERNEL, 0, 150, 250, 0);
	add(&t, SS_KIND_H2D, 1, 50, 150, 2000);
	add(&t, SS_KIND_KERNEL, 1, 300, 400, 0);
	add(&t, SS_KIND_API, 0, 0, 1000, 0);
	peer.peer = 1;
	timeline_add(&t, &peer);
	devsum_build(&t, &s);
	assert_int_equal(s.ndev, 2);
	assert_int_equal(s.span_ns, 500);
	assert_int_equal(s.dev[0].busy_ns, 300 + 100); /* 0-300, 400-500 */
	assert_int_equal(s.dev[0].compute_ns, 200);
	assert_int_equal(s.dev[0].h2d_ns, 100);
	assert_int_equal(s.dev[0].kernels, 2);
	assert_int_equal(s.dev[0].peers, 1);
	assert_int_equal(s.dev[0].peer_out_bytes, 4096);
	assert_int_equal(s.dev[0].peer_in_bytes, 0);
	assert_int_equal(s.dev[1].busy_ns, 100 + 100 + 100); /* 50-150, 300-400, the peer copy's far end 400-500 */
	assert_int_equal(s.dev[1].peer_ns, 100);
	assert_int_equal(s.dev[1].peer_in_bytes, 4096);
	assert_int_equal(s.dev[1].h2d_bytes, 2000);
	/* idle while the other works: GPU 0 during 300-400; GPU 1 during 0-50 and 150-300 */
	assert_int_equal(s.dev[0].idle_while_busy_ns, 100);
	assert_int_equal(s.dev[1].idle_while_busy_ns, 50 + 150);
	assert_int_equal(s.all_busy_ns, 100 + 100); /* 50-150 and 400-500 */
	/* the host link: both copy during 50-100 */
	assert_int_equal(s.link_shared_ns, 50);
	assert_int_equal(s.dev[0].link_shared_ns, 50);
	assert_int_equal(s.dev[1].link_shared_ns, 50);
	/* the peer copy 400-500 ran beside nothing else */
	assert_int_equal(s.peer_ns, 100);
	assert_int_equal(s.peer_exposed_ns, 100);
	assert_int_equal(s.dev[1].t0, 50);
	assert_int_equal(s.dev[1].t1, 500);
	devsum_free(&s);
	timeline_free(&t);
}

/* One device: one row, nothing idle or shared; a device without work (a described third one) gets an empty row;
 * touching intervals do not share the link. */
static void test_one_and_empty(void **state)
{
	struct ss_timeline t;
	struct ss_devsum s;

	(void)state;
	timeline_init(&t);
	add(&t, SS_KIND_H2D, 0, 0, 100, 10);
	add(&t, SS_KIND_D2H, 0, 50, 150, 10);
	devsum_build(&t, &s);
	assert_int_equal(s.ndev, 1);
	assert_int_equal(s.dev[0].busy_ns, 150);
	assert_int_equal(s.link_shared_ns, 0); /* one device's own two directions are not sharing between devices */
	assert_int_equal(s.dev[0].idle_while_busy_ns, 0);
	devsum_free(&s);
	add(&t, SS_KIND_D2H, 1, 150, 200, 10);
	timeline_set_device(&t, 2, "third", NULL, 0);
	devsum_build(&t, &s);
	assert_int_equal(s.ndev, 3);
	assert_int_equal(s.link_shared_ns, 0);
	assert_int_equal(s.dev[2].busy_ns, 0);
	assert_true(s.dev[2].t0 > s.dev[2].t1);
	assert_int_equal(s.dev[2].idle_while_busy_ns, 200);
	assert_int_equal(s.all_busy_ns, 0);
	assert_int_equal(s.peer_exposed_ns, 0);
	devsum_free(&s);
	{
		/* a peer copy half hidden behind a kernel on another device */
		struct ss_record p = {.start = 300, .end = 500, .kind = SS_KIND_D2D, .flags = SS_REC_PEER, .peer = 2};

		timeline_add(&t, &p);
		add(&t, SS_KIND_KERNEL, 1, 250, 400, 0);
		devsum_build(&t, &s);
		assert_int_equal(s.peer_ns, 200);
		assert_int_equal(s.peer_exposed_ns, 100);
		assert_int_equal(s.dev[2].peers, 1);
		assert_int_equal(s.dev[2].peer_ns, 200);
		devsum_free(&s);
	}
	timeline_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_devices),
	    cmocka_unit_test(test_one_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
