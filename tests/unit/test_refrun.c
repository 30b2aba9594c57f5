/* test_refrun.c: the reference programs' output lines parsed (good ones, and bad ones refused with a line naming
 * what is wrong), a whole output held to the point it was asked to measure, a program run in a child (a shell
 * script standing in for a reference: status, stderr, time limit, environment), and the arithmetic of the
 * comparison (ratio, median and spread, the 3% target). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/refrun.h"

/* Parses s; fails the test unless it parses. */
static struct refrun_line parse_ok(const char *s)
{
	struct refrun_line l;
	char *cause = NULL;

	if (refrun_parse_line(s, strlen(s), &l, &cause) != 0)
		fail_msg("'%s' refused: %s", s, cause);
	return l;
}

/* Fails the test unless s is refused with a cause containing want. */
static void parse_bad(const char *s, const char *want)
{
	struct refrun_line l;
	char *cause = NULL;

	if (refrun_parse_line(s, strlen(s), &l, &cause) == 0)
		fail_msg("'%s' was accepted", s);
	assert_non_null(cause);
	if (strstr(cause, want) == NULL)
		fail_msg("'%s': cause '%s' does not say '%s'", s, cause, want);
	assert_null(strchr(cause, '\n'));
	free(cause);
}

/* Measurements in the programs' own format, keys in any order after ref, spaces and tabs; the verdict. */
static void test_parse_good(void **state)
{
	struct refrun_line l;

	(void)state;
	l = parse_ok("ref=kernel-transfer streams=8 order=depth repeat=3 ms=1.234567");
	assert_string_equal(l.ref, "kernel-transfer");
	assert_false(l.verdict);
	assert_int_equal(l.streams, 8);
	assert_int_equal(l.order, SS_ORDER_DEPTH);
	assert_int_equal(l.repeat, 3);
	assert_true(fabs(l.ms - 1.234567) < 1e-12);

	l = parse_ok("ref=vector-add\torder=weaker  ms=2.5e1 repeat=10 streams=2 ");
	assert_int_equal(l.order, SS_ORDER_WEAKER);
	assert_int_equal(l.streams, 2);
	assert_int_equal(l.repeat, 10);
	assert_true(l.ms == 25.0);

	l = parse_ok("ref=decrypt streams=128 order=best repeat=1 ms=.5");
	assert_int_equal(l.streams, 128);
	assert_true(l.ms == 0.5);

	l = parse_ok("ref=decrypt verified=1");
	assert_true(l.verdict);
	assert_true(l.verified);
	l = parse_ok("ref=decrypt verified=0");
	assert_true(l.verdict);
	assert_false(l.verified);
}

/* Every malformed line is refused with a line that names the problem. */
static void test_parse_bad(void **state)
{
	(void)state;
	parse_bad("", "empty line");
	parse_bad("   ", "empty line");
	parse_bad("8 1.234", "'8' is not key=value");
	parse_bad("streams=8 ref=x order=depth repeat=1 ms=1", "starts with streams=, not ref=NAME");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=1 colour=red", "unknown key 'colour'");
	parse_bad("ref=x streams=8 streams=8 order=depth repeat=1 ms=1", "streams= appears twice");
	parse_bad("ref= streams=8 order=depth repeat=1 ms=1", "ref=: valid is a name");
	parse_bad("ref=Kernel streams=8 order=depth repeat=1 ms=1", "ref=Kernel: valid is a name");
	parse_bad("ref=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa verified=1", "at most 31");
	parse_bad("ref=x streams=0 order=depth repeat=1 ms=1", "streams=0: valid is 1..128");
	parse_bad("ref=x streams=129 order=depth repeat=1 ms=1", "streams=129: valid is 1..128");
	parse_bad("ref=x streams=8x order=depth repeat=1 ms=1", "streams=8x");
	parse_bad("ref=x streams=-1 order=depth repeat=1 ms=1", "streams=-1");
	parse_bad("ref=x streams=8 order=sideways repeat=1 ms=1", "order=sideways: valid is depth|breadth");
	parse_bad("ref=x streams=8 order=depth repeat=0 ms=1", "repeat=0: valid is 1..1000000");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=0", "ms=0: valid is a time in ms");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=-1.5", "ms=-1.5");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=nan", "ms=nan");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=inf", "ms=inf");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=1e999", "ms=1e999");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=1.5ms", "ms=1.5ms");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=", "ms=: valid");
	parse_bad("ref=x streams=8 order=depth repeat=1 ms=1.0\r", "ms=1.0");
	parse_bad("ref=x verified=2", "verified=2: valid is 0 or 1");
	parse_bad("ref=x verified=1 streams=8", "a verdict has ref= and verified= only");
	parse_bad("ref=x streams=8 order=depth ms=1", "repeat= is missing");
	parse_bad("ref=x", "streams= is missing");
	parse_bad("ref=x streams=1 order=depth repeat=1", "ms= is missing");
}

/* collect on text; returns 0 or -1, the cause in *cause. */
static int collect(const char *text, const char *ref, int streams, enum ss_order order, struct refrun_times *t,
                   char **cause)
{
	struct refrun_point p = {ref, streams, order};

	*cause = NULL;
	return refrun_collect(text, strlen(text), &p, t, cause);
}

/* Fails unless text is refused for (kernel-transfer, 4, depth) with a cause containing want, t left empty. */
static void collect_bad(const char *text, const char *want)
{
	struct refrun_times t = {NULL, 7};
	char *cause;

	if (collect(text, "kernel-transfer", 4, SS_ORDER_DEPTH, &t, &cause) == 0)
		fail_msg("accepted:\n%s", text);
	if (strstr(cause, want) == NULL)
		fail_msg("cause '%s' does not say '%s'", cause, want);
	assert_null(t.ms);
	assert_int_equal(t.n, 0);
	free(cause);
}

/* A whole output: the measurements of the point in order, the verdict last; anything else refused. */
static void test_collect(void **state)
{
	struct refrun_times t;
	char *cause;

	(void)state;
	assert_int_equal(collect("ref=kernel-transfer streams=4 order=depth repeat=1 ms=1.5\n"
	                         "ref=kernel-transfer streams=4 order=depth repeat=2 ms=1.25\n"
	                         "ref=kernel-transfer verified=1\n",
	                         "kernel-transfer", 4, SS_ORDER_DEPTH, &t, &cause),
	                 0);
	assert_int_equal(t.n, 2);
	assert_true(t.ms[0] == 1.5 && t.ms[1] == 1.25);
	refrun_times_free(&t);
	assert_null(t.ms);
	/* no newline after the verdict */
	assert_int_equal(collect("ref=vector-add streams=2 order=weaker repeat=1 ms=3\nref=vector-add verified=1",
	                         "vector-add", 2, SS_ORDER_WEAKER, &t, &cause),
	                 0);
	assert_int_equal(t.n, 1);
	refrun_times_free(&t);

	collect_bad("", "no verdict line");
	collect_bad("ref=kernel-transfer streams=4 order=depth repeat=1 ms=1\n", "no verdict line");
	collect_bad("ref=kernel-transfer verified=1\n", "no measurement of streams=4 order=depth");
	collect_bad("ref=kernel-transfer streams=4 order=depth repeat=1 ms=1\nref=kernel-transfer verified=0\n",
	            "line 2: verified=0");
	collect_bad("ref=kernel-transfer streams=8 order=depth repeat=1 ms=1\nref=kernel-transfer verified=1\n",
	            "line 1: streams=8 order=depth, expected streams=4 order=depth");
	collect_bad("ref=kernel-transfer streams=4 order=breadth repeat=1 ms=1\nref=kernel-transfer verified=1\n",
	            "expected streams=4 order=depth");
	collect_bad("ref=decrypt streams=4 order=depth repeat=1 ms=1\nref=decrypt verified=1\n",
	            "line 1: ref=decrypt, expected ref=kernel-transfer");
	collect_bad("ref=kernel-transfer streams=4 order=depth repeat=1 ms=1\nref=kernel-transfer verified=1\n"
	            "ref=kernel-transfer streams=4 order=depth repeat=2 ms=1\n",
	            "line 3: a line after the verdict");
	collect_bad("ref=kernel-transfer streams=4 order=depth repeat=1 ms=1\nCUDA Error:\n", "line 2: 'CUDA");
	collect_bad("ref=kernel-transfer streams=4 order=depth repeat=1 ms=1\n\nref=kernel-transfer verified=1\n",
	            "line 2: an empty line");
}

/* A script in a temporary folder standing in for a reference program; its path in path. */
static void write_script(char *dir, char *path, size_t len, const char *body)
{
	FILE *f;

	snprintf(path, len, "%s/ref_fake", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

/* exec of the script at path for (fake, streams, depth) with a 5 s limit; 0 or -1 with *cause. */
static int exec_fake(const char *path, int connections, int streams, int timeout_s, struct refrun_times *t,
                     char **cause)
{
	char *argv[] = {"ref_fake", "an argument", NULL};
	struct refrun_point p = {"fake", streams, SS_ORDER_DEPTH};

	*cause = NULL;
	return refrun_exec(path, argv, connections, timeout_s, &p, t, cause);
}

/* A program run in a child: its output collected, its arguments and queue count passed, a non-zero status shown
 * with its first stderr line, a program that hangs killed at the limit, one that cannot run said so. */
static void test_exec(void **state)
{
	char dir[] = "/tmp/ss-refrun-XXXXXX", path[128];
	struct refrun_times t;
	char *cause;

	(void)state;
	assert_non_null(mkdtemp(dir));

	/* the queue count comes through the environment, the arguments through argv */
	write_script(dir, path, sizeof path,
	             "[ \"$1\" = 'an argument' ] || exit 9\n"
	             "echo \"ref=fake streams=$CUDA_DEVICE_MAX_CONNECTIONS order=depth repeat=1 ms=2.5\"\n"
	             "echo 'ref=fake verified=1'");
	assert_int_equal(exec_fake(path, 7, 7, 5, &t, &cause), 0);
	assert_int_equal(t.n, 1);
	assert_true(t.ms[0] == 2.5);
	refrun_times_free(&t);

	write_script(dir, path, sizeof path, "echo 'ref_x: cudaMallocHost: no CUDA-capable device' >&2\nexit 1");
	assert_int_equal(exec_fake(path, 0, 1, 5, &t, &cause), -1);
	assert_non_null(strstr(cause, "exited with status 1: ref_x: cudaMallocHost: no CUDA-capable device"));
	free(cause);

	write_script(dir, path, sizeof path, "exit 3");
	assert_int_equal(exec_fake(path, 0, 1, 5, &t, &cause), -1);
	assert_non_null(strstr(cause, "exited with status 3 and wrote nothing on stderr"));
	free(cause);

	write_script(dir, path, sizeof path, "echo 'ref=fake streams=1 order=depth repeat=1 ms=1'\necho garbage");
	assert_int_equal(exec_fake(path, 0, 1, 5, &t, &cause), -1);
	assert_non_null(strstr(cause, "line 2: 'garbage' is not key=value"));
	free(cause);

	write_script(dir, path, sizeof path, "exec sleep 30");
	assert_int_equal(exec_fake(path, 0, 1, 1, &t, &cause), -1);
	assert_non_null(strstr(cause, "did not finish in 1 s"));
	free(cause);

	write_script(dir, path, sizeof path, "kill -9 $$");
	assert_int_equal(exec_fake(path, 0, 1, 5, &t, &cause), -1);
	assert_non_null(strstr(cause, "killed by signal 9"));
	free(cause);

	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(exec_fake(path, 0, 1, 5, &t, &cause), -1);
	assert_non_null(strstr(cause, "cannot run it"));
	free(cause);

	assert_int_equal(remove(path), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* The folder: the environment's when set, else beside the binary. */
static void test_dir(void **state)
{
	char buf[4096];
	const char *tail = "/tests/gpu/reference";

	(void)state;
	setenv("SS_REFERENCE_DIR", "/opt/refs", 1);
	assert_true(refrun_dir(buf, sizeof buf));
	assert_string_equal(buf, "/opt/refs");
	setenv("SS_REFERENCE_DIR", "", 1);
	assert_false(refrun_dir(buf, sizeof buf));
	assert_true(strlen(buf) > strlen(tail));
	assert_string_equal(buf + strlen(buf) - strlen(tail), tail);
	unsetenv("SS_REFERENCE_DIR");
	assert_false(refrun_dir(buf, sizeof buf));
	assert_true(buf[0] == '/');
}

/* Ratios, their median and spread, and the 3% target, with hand-computed answers. */
static void test_spread(void **state)
{
	double odd[] = {1.02, 0.98, 1.10}, even[] = {1.04, 1.00, 0.96, 1.01}, bad[] = {1.0, NAN};
	struct refrun_spread s;

	(void)state;
	assert_true(refrun_ratio(2.0, 1.6) == 1.25);
	assert_true(isnan(refrun_ratio(2.0, 0.0)));
	assert_true(isnan(refrun_ratio(-1.0, 1.0)));
	assert_true(isnan(refrun_ratio(NAN, 1.0)));
	assert_true(isnan(refrun_ratio(1.0, INFINITY)));

	refrun_spread_of(odd, 3, &s);
	assert_true(s.median == 1.02 && s.min == 0.98 && s.max == 1.10);
	assert_true(odd[0] == 1.02 && odd[1] == 0.98); /* not sorted in place */
	assert_true(refrun_within(&s, 0.03));
	refrun_spread_of(even, 4, &s);
	assert_true(fabs(s.median - 1.005) < 1e-12);
	assert_true(s.min == 0.96 && s.max == 1.04);
	assert_int_equal(s.n, 4);

	refrun_spread_of(bad, 2, &s); /* a failed round: no median */
	assert_true(isnan(s.median) && isnan(s.min) && isnan(s.max));
	assert_false(refrun_within(&s, 0.03));
	refrun_spread_of(odd, 0, &s);
	assert_int_equal(s.n, 0);
	assert_false(refrun_within(&s, 0.03));

	s.n = 1;
	s.median = 1.029;
	assert_true(refrun_within(&s, 0.03));
	s.median = 0.971;
	assert_true(refrun_within(&s, 0.03));
	s.median = 1.031;
	assert_false(refrun_within(&s, 0.03));
	s.median = 0.969;
	assert_false(refrun_within(&s, 0.03));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_good), cmocka_unit_test(test_parse_bad), cmocka_unit_test(test_collect),
	    cmocka_unit_test(test_exec),       cmocka_unit_test(test_dir),       cmocka_unit_test(test_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
