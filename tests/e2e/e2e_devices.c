/* e2e_devices.c: the TUI on a timeline of two GPUs (tests/data/synthetic/two-gpu-peer.sqlite, written by our
 * exporter): lanes grouped device -> stream under a header naming each device (name and UUID), the peer copies on a
 * peer lane of the far device, in both the expanded and the compact form. The real binary in a pseudo-terminal,
 * read back through libvterm.
 *
 * usage: e2e_devices STREAMSCOPE [SCENARIO] */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2e.h"

/* check_groups asserts the device order on screen: GPU 0's header, its streams (s0, s1) and peer lane, GPU 1's
 * header, its streams (s2, s3) and peer lane (label peer_label). */
static void check_groups(struct e2e *t, const char *s13, const char *s15, const char *peer_label)
{
	int g0 = e2e_find(t, "GPU 0: SYNTHETIC GPU A (GPU-00000000-0000-0000-0000-0000000000a0)", 0, NULL);
	int g1 = e2e_find(t, "GPU 1: SYNTHETIC GPU B (GPU-00000000-0000-0000-0000-0000000000b1)", 0, NULL);
	int a = e2e_find(t, s13, 0, NULL), b = e2e_find(t, s15, 0, NULL), p0 = e2e_find(t, peer_label, g0 + 1, NULL);
	int p1 = p0 >= 0 ? e2e_find(t, peer_label, p0 + 1, NULL) : -1;

	if (!(g0 >= 2 && a > g0 && g1 > a && b > g1 && p0 > g0 && p1 > b))
		e2e_dump(t);
	assert_true(g0 >= 2);
	assert_true(a > g0 && g1 > a);
	assert_true(b > g1);
	/* each GPU receives peer copies from the other: a peer lane at the end of each group */
	assert_true(p0 > a && p0 < g1);
	assert_true(p1 > b);
	assert_true(e2e_find(t, "host", 2, NULL) < g0); /* host lanes above the devices */
}

static void test_devices(void **state)
{
	struct e2e t;
	char file[1024];
	const char *src = getenv("SS_SOURCE_DIR");
	const char *args[] = {"view", file, NULL};

	(void)state;
	snprintf(file, sizeof file, "%s/tests/data/synthetic/two-gpu-peer.sqlite", src ? src : ".");
	e2e_start(&t, 140, 40, args, NULL);
	e2e_wait(&t, "makespan");
	assert_true(e2e_find(&t, "MODEL SYNTHETIC", 0, NULL) == 0); /* synthetic: never shown as measured */
	check_groups(&t, "s0 nb  H2D", "s2 nb  H2D", "peer   KER");
	/* the stats panel: a busy share per device and the time two shared the host link */
	assert_true(e2e_find(&t, "GPU 1 busy", 0, NULL) > 0);
	assert_true(e2e_find(&t, "2, link sh.", 0, NULL) > 0);
	e2e_keys(&t, "c");
	e2e_wait(&t, NULL);
	check_groups(&t, "s0 nb", "s2 nb", "peer");
	e2e_quit(&t);
	e2e_free(&t);
}

/* The model's two-GPU run with the peer stage, live in the TUI: both devices' headers, their streams, peer lanes. */
static void test_model(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--devices", "2", "--peer", "--streams", "2", NULL};
	int g0, g1, s2, p1;

	(void)state;
	e2e_start(&t, 140, 40, args, NULL);
	e2e_settle(&t);
	g0 = e2e_find(&t, "GPU 0: MODEL (H200 profile, 2 GPUs)", 0, NULL);
	g1 = e2e_find(&t, "GPU 1 ", g0 + 1, NULL);
	s2 = e2e_find(&t, "s2 ", g1 + 1, NULL);
	p1 = e2e_find(&t, "peer ", s2 + 1, NULL);
	if (!(g0 >= 2 && g1 > g0 && s2 > g1 && p1 > s2))
		e2e_dump(&t);
	assert_true(g0 >= 2 && g1 > g0 && s2 > g1 && p1 > s2);
	assert_true(e2e_find(&t, "2 GPUs with a peer copy stage", 0, NULL) >= 0);
	e2e_quit(&t);
	e2e_free(&t);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_devices),
	    cmocka_unit_test(test_model),
	};

	return e2e_main(argc, argv, "e2e_devices", tests, sizeof tests / sizeof tests[0]);
}
