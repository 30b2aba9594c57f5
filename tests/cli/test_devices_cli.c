/* test_devices_cli.c: the per-device output of `streamscope stats` through the real binary, on the synthetic two-GPU
 * trace (tests/data/synthetic): the text table's rows and the --json "devices" array with the numbers devsum gives;
 * a one-device trace has an empty array; and run --devices/--peer on the model (examples/multi-gpu.ini). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "json_tree.h"
#define TRACE SS_SOURCE_DIR "/tests/data/synthetic/two-gpu-peer.sqlite"

/* stats FILE prints a row per device with its name and UUID, and says what idle* and link sh. are. */
static void test_stats_text(void **state)
{
	struct out o;

	(void)state;
	run(&o, ARGS("stats", TRACE));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "per device: 2 devices"));
	assert_non_null(strstr(o.out, "GPU 0: SYNTHETIC GPU A (GPU-00000000-0000-0000-0000-0000000000a0)"));
	assert_non_null(strstr(o.out, "GPU 1: SYNTHETIC GPU B (GPU-00000000-0000-0000-0000-0000000000b1)"));
	assert_non_null(strstr(o.out, "idle*: idle while another device was busy"));
	out_free(&o);
	run(&o, ARGS("analyze", TRACE));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "host-link-contention"));
	out_free(&o);
}

/* stats --json: devices[] with each device's busy and peer numbers; a one-device trace: device_count 1, none. */
static void test_stats_json(void **state)
{
	struct out o;
	char err[256];
	yajl_val j, devs, d1;

	(void)state;
	run(&o, ARGS("stats", "--json", TRACE));
	assert_int_equal(o.status, 0);
	if ((j = json_tree_parse(o.out, err, sizeof err)) == NULL)
		fail_msg("stdout is not JSON (%s): %s", err, o.out);
	assert_int_equal(json_tree_int(json_tree_get(j, "device_count")), 2);
	assert_true(json_tree_int(json_tree_get(j, "host_link_shared_ns")) > 0);
	devs = json_tree_get(j, "devices");
	assert_int_equal(json_tree_len(devs), 2);
	d1 = json_tree_at(devs, 1);
	assert_int_equal(json_tree_int(json_tree_get(d1, "device")), 1);
	assert_int_equal(json_tree_int(json_tree_get(d1, "peer_in_bytes")), 4ll * (8 << 20));
	assert_int_equal(json_tree_int(json_tree_get(d1, "peer_out_bytes")), 4ll * (8 << 20));
	assert_true(json_tree_int(json_tree_get(d1, "busy_ns")) > 0);
	json_tree_free(j);
	out_free(&o);
	run(&o, ARGS("stats", "--json", SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite"));
	assert_int_equal(o.status, 0);
	if ((j = json_tree_parse(o.out, err, sizeof err)) == NULL)
		fail_msg("stdout is not JSON (%s): %s", err, o.out);
	assert_int_equal(json_tree_int(json_tree_get(j, "device_count")), 1);
	assert_int_equal(json_tree_len(json_tree_get(j, "devices")), 0);
	json_tree_free(j);
	out_free(&o);
}

/* run --devices on the model: the example's two GPUs in the exported trace (stats reads them back, peer copies
 * both ways); bad values refused in one line naming what is valid. */
static void test_run_devices(void **state)
{
	struct out o;
	char path[] = "/tmp/ss-devices-XXXXXX", file[64];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	snprintf(file, sizeof file, "%s.sqlite", path);
	run(&o, ARGS("run", SS_SOURCE_DIR "/examples/multi-gpu.ini", "--backend", "model", "--export", file));
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	assert_non_null(strstr(o.out, "2 GPUs with a peer copy stage"));
	assert_non_null(strstr(o.out, "MODEL (H200 profile, 2 GPUs)"));
	assert_null(strstr(o.out, "claims")); /* the documents' claims are about one GPU */
	out_free(&o);
	run(&o, ARGS("stats", file));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "per device: 2 devices"));
	out_free(&o);
	unlink(file);
	run(&o, ARGS("run", "--backend", "model", "--devices", "9"));
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "valid is an integer 1..8"));
	assert_null(strchr(o.err, '\n') == NULL ? NULL : strchr(strchr(o.err, '\n') + 1, '\n'));
	out_free(&o);
	run(&o, ARGS("run", "--backend", "model", "--peer"));
	assert_int_not_equal(o.status, 0);
	assert_non_null(strstr(o.err, "it needs --devices 2..8"));
	out_free(&o);
	run(&o, ARGS("run", "--backend", "model", "--devices", "2", "--host-mem", "pageable"));
	assert_int_not_equal(o.status, 0);
	assert_non_null(strstr(o.err, "pinned memory"));
	out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats_text),
	    cmocka_unit_test(test_stats_json),
	    cmocka_unit_test(test_run_devices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
