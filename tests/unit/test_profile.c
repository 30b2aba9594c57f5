/* test_profile.c: the calibration profile: built-in H200 values and their provenance, the text format round trip,
 * every parse error, files, the default lookup and the committed data/profiles/h200.profile. */
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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/atomic.h"
#include "model/profile.h"

static enum ss_prov prov_of(const struct ss_profile *p, const char *key)
{
	int k = profile_key_find(key);

	assert_true(k >= 0);
	return (enum ss_prov)p->prov[k];
}

static double value_of(const struct ss_profile *p, const char *key)
{
	int k = profile_key_find(key);

	assert_true(k >= 0);
	return profile_get(p, k);
}

/* The built-in profile carries H200.md's facts as measured values and marks the rest as estimates. */
static void test_builtin(void **state)
{
	struct ss_profile p;
	char *cause = NULL;

	(void)state;
	profile_builtin(&p);
	assert_string_equal(p.name, "H200");
	assert_string_equal(p.device, "NVIDIA H200");
	assert_string_equal(p.source, "built-in");
	assert_true(p.h2d.bw_gbs == 55.4);
	assert_true(p.d2h.bw_gbs == 55.5);
	assert_true(p.both_gbs == 100.5);
	assert_int_equal(p.sms, 132);
	/* measured: H200.md's facts and what the H200 smoke run's timelines show (tests/data/h200/gpu_smoke);
	 * everything else is an estimate until the H200 calibration lands */
	static const char *const measured[] = {
	    "copy.h2d.bw_gbs",
	    "copy.h2d.latency_ns",
	    "copy.d2h.bw_gbs",
	    "copy.d2h.latency_ns",
	    "copy.both_gbs",
	    "copy.both_h2d_share",
	    "pageable.h2d.bw_gbs",
	    "pageable.h2d.latency_ns",
	    "pageable.h2d.stage_bytes",
	    "pageable.d2h.bw_gbs",
	    "pageable.d2h.stage_gbs",
	    "pageable.d2h.stage_bytes",
	    "kernel.fma.ns_per_unit",
	    "kernel.fma.ns_per_elem",
	    "kernel.decrypt.ns_per_unit",
	    "kernel.spin.ns_per_unit",
	    "kernel.min_ns",
	    "launch.latency_ns",
	    "api.copy_ns",
	    "api.launch_ns",
	    "api.event_ns",
	    "api.sync_ns",
	    "api.attach_ns",
	    "api.prefetch_ns",
	    "api.free_ns",
	    "api.trace_overhead_ns",
	    "sync.wake_ns",
	    "host.gap_ns",
	    "gpu.copy_queues",
	    "device.sms",
	    "gpu.dep_kernel_ns",
	    "gpu.dep_copy_ns",
	    "gpu.dep_kernel_queues_ns",
	    "gpu.dep_copy_queues_ns",
	    "api.switch_ns",
	    "api.launch_wait_ns",
	    "api.prefetch_switch_ns",
	    "managed.fault_gbs",
	    "kernel.fma.saturation",
	    "kernel.decrypt.ns_per_elem",
	    "kernel.decrypt.saturation",
	    "device.max_kernels",
	    "copy.switch_ns",
	    "copy.queues_slow",
	    "managed.prefetch_host_gbs",
	    "managed.prefetch_host_latency_ns",
	    "managed.prefetch_gbs",
	    "managed.prefetch_latency_ns",
	    "api.launch_prefetch_wait_ns",
	    "api.copy_queues_ns",
	    "api.switch_queues_ns",
	    "copy.gap_ns",
	    "kernel.task.ns_per_unit",
	    "host.cores",
	    "kernel.decrypt.misalign",
	    "device.memory_mib",
	};
	/* the built-in values fitted to the validation matrix (profile.c says from which rows; test_validate's
	 * test_h200_fitted checks the committed profile's are the fit's) */
	static const char *const fitted[] = {
	    "kernel.decrypt.share",      "host.process_gbs",    "managed.prefetch_wait_ns",
	    "managed.attach_latency_ns", "managed.attach_gbs",  "pageable.h2d.stage_gbs",
	    "host.process_ns",           "kernel.add.misalign", "host.process_alone_ns",
	};
	for (int k = 0; k < profile_key_count(); k++) {
		bool is = false, fit = false;

		for (size_t j = 0; j < sizeof measured / sizeof measured[0]; j++)
			is |= strcmp(profile_key_name(k), measured[j]) == 0;
		for (size_t j = 0; j < sizeof fitted / sizeof fitted[0]; j++)
			fit |= strcmp(profile_key_name(k), fitted[j]) == 0;
		if (fit) {
			if (p.prov[k] != SS_PROV_FITTED)
				fail_msg("%s should be fitted", profile_key_name(k));
			continue;
		}
		if (p.prov[k] != (is ? SS_PROV_MEASURED : SS_PROV_ESTIMATE))
			fail_msg("%s should be %s", profile_key_name(k), is ? "measured" : "an estimate");
	}
	assert_int_equal(profile_validate(&p, &cause), 0);
	assert_true(value_of(&p, "kernel.add.ns_per_unit") == p.kernel[SS_KERNEL_ADD].ns_per_unit);
	assert_int_equal(profile_key_find("no.such.key"), -1);
	assert_string_equal(profile_key_name(-1), "");
}

/* Text out and back in gives the same profile, provenance included. */
static void test_round_trip(void **state)
{
	struct ss_profile p, q;
	char *text, *cause = NULL;

	(void)state;
	profile_builtin(&p);
	snprintf(p.name, sizeof p.name, "X1");
	snprintf(p.device, sizeof p.device, "NVIDIA X1 (test)");
	profile_set(&p, profile_key_find("copy.h2d.latency_ns"), 1234.5678, SS_PROV_MEASURED);
	profile_set(&p, profile_key_find("kernel.add.ns_per_unit"), 1.0 / 3.0 * 1e-3, SS_PROV_MEASURED);
	profile_set(&p, profile_key_find("device.max_kernels"), 77, SS_PROV_MEASURED);
	text = profile_format(&p);
	if (profile_parse(&q, text, "test", &cause) != 0)
		fail_msg("%s", cause);
	assert_string_equal(q.name, "X1");
	assert_string_equal(q.device, "NVIDIA X1 (test)");
	for (int k = 0; k < profile_key_count(); k++) {
		double a = profile_get(&p, k), b = profile_get(&q, k);

		if (a != b && (a - b) / a > 1e-9)
			fail_msg("%s: %.17g became %.17g", profile_key_name(k), a, b);
		assert_int_equal(p.prov[k], q.prov[k]);
	}
	assert_non_null(strstr(text, "copy.h2d.latency_ns = 1234.5678 measured"));
	assert_non_null(strstr(text, "device.max_kernels = 77 measured"));
	free(text);
}

/* Each malformed line is refused with origin:line and what is wrong. */
static void test_parse_errors(void **state)
{
	static const struct {
		const char *text, *frag;
	} bad[] = {
	    {"copy.h2d.bw_gbs 55\n", "t:1: expected key = value"},
	    {"# ok\ncopy.h2d.bw = 55\n", "t:2: unknown key 'copy.h2d.bw': did you mean 'copy.h2d.bw_gbs'?"},
	    {"zzzzzzzz = 1\n", "t:1: unknown key 'zzzzzzzz' (data/profiles/h200.profile lists every key)"},
	    {"copy.h2d.bw_gbs = 55\n\ncopy.h2d.bw_gbs = 50\n",
	     "t:3: key 'copy.h2d.bw_gbs' is given twice (first on line 1): give each key once"},
	    {"name = a\nname = b\n", "t:2: key 'name' is given twice (first on line 1)"},
	    {"copy.h2d.bw_gbs = fast\n", "t:1: copy.h2d.bw_gbs: 'fast' is not a number"},
	    {"copy.h2d.bw_gbs = 0\n", "copy.h2d.bw_gbs = 0 is out of range"},
	    {"copy.h2d.bw_gbs = 55 guessed\n",
	     "expected 'measured', 'fitted', 'estimate' or 'modelled' after the value, not 'guessed'"},
	    {"device.max_kernels = -3\n", "out of range"},
	    {"name =\n", "t:1: name must be 1..31 characters"},
	    {"name = 0123456789012345678901234567890123\n", "name must be 1..31 characters"},
	    /* no key at all is not a profile: it would be the built-in one under another name */
	    {"", "t: no keys"},
	    {"# a comment\n\n  \n", "t: no keys"},
	};
	struct ss_profile p;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *cause = NULL;

		assert_int_equal(profile_parse(&p, bad[i].text, "t", &cause), -1);
		assert_non_null(cause);
		if (strstr(cause, bad[i].frag) == NULL)
			fail_msg("'%s' lacks '%s'", cause, bad[i].frag);
		assert_null(strchr(cause, '\n'));
		free(cause);
	}
}

/* A file sets only what it names; the rest keeps the built-in value and provenance. Blank lines, comments and
 * trailing comments are fine. */
static void test_partial_file(void **state)
{
	struct ss_profile p, b;
	char *cause = NULL;

	(void)state;
	profile_builtin(&b);
	assert_int_equal(profile_parse(&p,
	                               "\n  # a comment\nname = T\n copy.d2h.bw_gbs =  40.5  measured # ok\n"
	                               "kernel.min_ns = 10\n",
	                               "t", &cause),
	                 0);
	assert_string_equal(p.name, "T");
	assert_string_equal(p.source, "t");
	assert_true(p.d2h.bw_gbs == 40.5);
	assert_int_equal(prov_of(&p, "copy.d2h.bw_gbs"), SS_PROV_MEASURED);
	assert_true(p.kernel_min_ns == 10);
	assert_int_equal(prov_of(&p, "kernel.min_ns"), SS_PROV_ESTIMATE); /* no tag: an estimate */
	assert_true(p.h2d.bw_gbs == b.h2d.bw_gbs);
	assert_int_equal(prov_of(&p, "copy.h2d.bw_gbs"), SS_PROV_MEASURED);
	/* calibrate on the model writes its keys as modelled, and they read back so */
	assert_int_equal(profile_parse(&p, "copy.d2h.bw_gbs = 40.5 modelled\n", "t", &cause), 0);
	assert_int_equal(prov_of(&p, "copy.d2h.bw_gbs"), SS_PROV_MODELLED);
	profile_set(&p, profile_key_find("kernel.min_ns"), 11, SS_PROV_MODELLED);
	{
		char *text = profile_format(&p);

		assert_non_null(strstr(text, "kernel.min_ns = 11 modelled"));
		assert_int_equal(profile_parse(&b, text, "t", &cause), 0);
		assert_int_equal(prov_of(&b, "kernel.min_ns"), SS_PROV_MODELLED);
		free(text);
	}
}

/* save_profile writes p's text to path as the CLI does (io/atomic). 0 or -1 with *cause. */
static int save_profile(const struct ss_profile *p, const char *path, char **cause)
{
	char *text = profile_format(p);
	int rc = atomic_write_text(path, text, cause);

	free(text);
	return rc;
}

/* the formatted text written and loaded back; a missing file and a directory are errors. */
static void test_files(void **state)
{
	char dir[] = "/tmp/ss_profile_XXXXXX", path[64], *cause = NULL;
	struct ss_profile p, q;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/x.profile", dir);
	profile_builtin(&p);
	p.launch_ns = 4321;
	assert_int_equal(save_profile(&p, path, &cause), 0);
	assert_int_equal(profile_load(&q, path, &cause), 0);
	assert_true(q.launch_ns == 4321);
	assert_string_equal(q.source, path);
	/* the default lookup honours STREAMSCOPE_PROFILE */
	setenv("STREAMSCOPE_PROFILE", path, 1);
	assert_int_equal(profile_default(&q, &cause), 0);
	assert_true(q.launch_ns == 4321);
	unlink(path);
	assert_int_equal(profile_default(&q, &cause), -1);
	assert_non_null(strstr(cause, "cannot open profile"));
	free(cause);
	cause = NULL;
	unsetenv("STREAMSCOPE_PROFILE");
	snprintf(path, sizeof path, "%s/missing/x.profile", dir);
	assert_int_equal(save_profile(&p, path, &cause), -1);
	assert_non_null(cause);
	free(cause);
	rmdir(dir);
}

/* The committed profile parses, is in range and describes the H200. */
static void test_committed(void **state)
{
	const char *src = getenv("SS_SOURCE_DIR");
	char path[1024], *cause = NULL;
	struct ss_profile p;

	(void)state;
	snprintf(path, sizeof path, "%s/data/profiles/h200.profile", src ? src : SS_SOURCE_DIR);
	if (profile_load(&p, path, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(profile_validate(&p, &cause), 0);
	assert_string_equal(p.name, "H200");
	assert_non_null(strstr(p.device, "H200"));
	/* from the working directory of the source tree, it is the default */
	assert_int_equal(chdir(src ? src : SS_SOURCE_DIR), 0);
	unsetenv("STREAMSCOPE_PROFILE");
	assert_int_equal(profile_default(&p, &cause), 0);
	assert_string_equal(p.source, "data/profiles/h200.profile");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_builtin),      cmocka_unit_test(test_round_trip), cmocka_unit_test(test_parse_errors),
	    cmocka_unit_test(test_partial_file), cmocka_unit_test(test_files),      cmocka_unit_test(test_committed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
