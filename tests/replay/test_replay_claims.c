/* test_replay_claims.c: document 001's claims recomputed from the points the H200 recorded for issue 18
 * (tests/data/h200/documents), through claims_sweep as it is now. The kernel-transfer sweep over 1, 2, 4 ... 128
 * streams and 20 (claims/sweep-json.txt): 20 streams itself reported beside 001-best's verdict, slower than 16 and 32
 * by its kernels, on chunks off a 128-byte line, every number of the message the recorded one; the claims runs'
 * sweeps without a 20-stream point (claims/claims-json.txt, claims-1q/claims-1q-json.txt): every 001 verdict and
 * what it measured as recorded, 20 itself not run. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims_find.h"
#include "core/experiment.h"
#include "core/units.h"
#include "json_tree.h"
#include "run/claims.h"
#include "run/sweep.h"

static const char *data_dir;

/* load parses data_dir/name, failing the test when it cannot. */
static yajl_val load(const char *name)
{
	char path[1024], err[256];
	yajl_val v;

	snprintf(path, sizeof path, "%s/%s", data_dir, name);
	v = json_tree_load(path, err, sizeof err);
	if (v == NULL)
		fail_msg("%s: %s", path, err);
	return v;
}

/* expect_name fails unless the member key of the recorded experiment x is want. */
static void expect_name(yajl_val x, const char *key, const char *want)
{
	const char *got = json_tree_str(json_tree_get(x, key));

	if (got == NULL || strcmp(got, want) != 0)
		fail_msg("recorded %s '%s', rebuilt '%s'", key, got ? got : "(none)", want);
}

/* rebuild makes s the finished sweep of the recorded experiment x and its points pts, as the H200 ran it (the
 * analysis fields the 001 claims read), measured on a GPU. */
static void rebuild(struct ss_sweep *s, yajl_val x, yajl_val pts)
{
	struct ss_experiment e;
	int counts[SS_SWEEP_MAX_COUNTS], n = (int)json_tree_len(pts);
	enum ss_order o;

	assert_true(n >= 2 && n <= SS_SWEEP_MAX_COUNTS);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.elements = (uint64_t)json_tree_int(json_tree_get(x, "elements"));
	e.chunks = (int)json_tree_int(json_tree_get(x, "chunks"));
	e.streams = (int)json_tree_int(json_tree_get(x, "streams"));
	expect_name(x, "preset", experiment_preset_name(e.preset));
	expect_name(x, "kernel", experiment_kernel_name(e.kernel));
	expect_name(x, "split", experiment_split_name(e.split));
	expect_name(x, "order", experiment_order_name(e.order));
	expect_name(x, "host_mem", experiment_hostmem_name(e.hostmem));
	for (int i = 0; i < n; i++)
		counts[i] = (int)json_tree_int(json_tree_get(json_tree_at(pts, (size_t)i), "streams"));
	o = e.order;
	sweep_init(s, &e, counts, n, &o, 1);
	assert_int_equal(s->ncounts, n);
	for (int i = 0; i < n; i++) {
		yajl_val p = json_tree_at(pts, (size_t)i), eng = json_tree_get(p, "engines");
		static const char *const engines[SS_ENG_COUNT] = {"H2D", "compute", "D2H"};
		struct ss_sweep_point *q = &s->pt[i];

		expect_name(p, "order", experiment_order_name(e.order));
		assert_false(json_tree_is_true(json_tree_get(p, "failed")));
		q->done = true;
		q->a.makespan_ns = (uint64_t)json_tree_int(json_tree_get(p, "makespan_ns"));
		q->a.used_ns = (uint64_t)json_tree_int(json_tree_get(p, "used_makespan_ns"));
		q->a.have_speedup = !json_tree_is_null(json_tree_get(p, "speedup"));
		q->a.speedup = json_tree_num(json_tree_get(p, "speedup"));
		q->a.have_bound = !json_tree_is_null(json_tree_get(p, "bound_ns"));
		q->a.bound_ns = (uint64_t)json_tree_int(json_tree_get(p, "bound_ns"));
		q->a.n = e.chunks > 0 ? e.chunks : q->streams;
		q->a.work = 1;
		for (int k = 0; k < SS_ENG_COUNT; k++) {
			yajl_val en = json_tree_get(eng, engines[k]);

			q->a.eng[k].busy_ns = q->a.eng[k].sum_ns =
			    (uint64_t)json_tree_int(json_tree_get(en, "busy_ns"));
			q->a.eng[k].bytes = (uint64_t)json_tree_int(json_tree_get(en, "bytes"));
		}
		assert_true(q->a.used_ns > 0);
	}
}

/* The recorded claim of id among root's claims, failing the test when absent. */
static yajl_val recorded(yajl_val root, const char *id)
{
	yajl_val cl = json_tree_get(root, "claims");

	for (size_t i = 0; i < json_tree_len(cl); i++) {
		const char *x = json_tree_str(json_tree_get(json_tree_at(cl, i), "id"));

		if (x != NULL && strcmp(x, id) == 0)
			return json_tree_at(cl, i);
	}
	fail_msg("no recorded claim %s", id);
	return NULL;
}

static void expect_in(const char *s, const char *frag)
{
	if (strstr(s, frag) == NULL)
		fail_msg("'%s' lacks '%s'", s, frag);
}

/* expect_as_recorded holds the recomputed 001 claims to root's: each verdict, and what the others than 001-best
 * measured, word for word (the extra 20-stream point, where there is one, changes none of them). */
static void expect_as_recorded(const struct ss_claim *c, int n, yajl_val root)
{
	static const char *const ids[] = {"001-theory", "001-best",         "001-not-3x",
	                                  "001-bytes",  "001-engine-bound", "001-stream-cost"};

	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		const struct ss_claim *x = claims_find(c, n, ids[i]);
		yajl_val r = recorded(root, ids[i]);

		assert_false(x->modelled);
		if (strcmp(claims_verdict_name(x->verdict), json_tree_str(json_tree_get(r, "verdict"))) != 0)
			fail_msg("%s: %s, recorded %s", ids[i], claims_verdict_name(x->verdict),
			         json_tree_str(json_tree_get(r, "verdict")));
		if (strcmp(ids[i], "001-best") != 0)
			assert_string_equal(x->measured, json_tree_str(json_tree_get(r, "measured")));
	}
}

/* The sweep with 20 streams: the verdict on 16..32 as recorded, and 20 itself, its numbers the recorded ones. */
static void test_sweep_with_20(void **state)
{
	yajl_val root = load("claims/sweep-json.txt"), pts = json_tree_get(root, "points");
	struct ss_sweep s;
	struct ss_claim c[SS_CLAIMS_MAX];
	const struct ss_sweep_point *p16, *p20, *p32;
	const struct ss_claim *x;
	char frag[400];
	uint64_t chunk;
	int n;

	(void)state;
	assert_false(json_tree_is_true(json_tree_get(root, "modelled")));
	rebuild(&s, json_tree_get(root, "experiment"), pts);
	p16 = sweep_find(&s, 16, s.orders[0]);
	p20 = sweep_find(&s, 20, s.orders[0]);
	p32 = sweep_find(&s, 32, s.orders[0]);
	assert_non_null(p16);
	assert_non_null(p20);
	assert_non_null(p32);
	n = claims_sweep(&s, c);
	expect_as_recorded(c, n, root);
	x = claims_find(c, n, "001-best");
	assert_int_equal(x->verdict, SS_VERDICT_HOLDS);
	assert_int_equal((int)claims_value(x, "best_streams"), 16);
	assert_true(claims_value(x, "at_20_ns") == (double)p20->a.used_ns);
	assert_true(claims_value(x, "at_20_speedup") == p20->a.speedup);
	assert_true(fabs(claims_value(x, "at_20_vs_best") - ((double)p20->a.used_ns / (double)p16->a.used_ns - 1)) <
	            1e-12);
	/* the H200: 20 streams 1.11x, over 40% slower than 16 and 32, its kernels busy ~0.6 ms longer than 16's */
	assert_true(p20->a.speedup < 1.2);
	assert_true(p20->a.used_ns > p16->a.used_ns * 1.4 && p20->a.used_ns > p32->a.used_ns * 1.4);
	snprintf(frag, sizeof frag, "; 20 streams itself %.2fx, %s, %.1f%% slower than the best", p20->a.speedup,
	         units_time(p20->a.used_ns, (char[24]){0}, 24),
	         100 * ((double)p20->a.used_ns / (double)p16->a.used_ns - 1));
	expect_in(x->measured, frag);
	assert_string_equal(x->brief, "best 1.60x at 16 (doc: ~2x at ~20) holds, not at 20 itself (1.11x)");
	/* 2^22 floats cut 20 ways (ceil): chunks of 209716, 80 bytes past a whole number of lines, so chunk i starts
	 * 80 i mod 128 bytes off one: 17 of the 20 off (all but 0, 8, 16), by 16..112 */
	chunk = (s.base.elements + 19) / 20;
	assert_int_equal((int)claims_value(x, "at_20_chunks_off_line"), 17);
	snprintf(
	    frag, sizeof frag,
	    "%.0f%% slower than 16 and %.0f%% than 32: 17 of the 20 chunks its kernels read (%llu x 4 bytes) start "
	    "16..112 bytes off a 128-byte line (none at 16, none at 32) and its kernels were busy %s against %s at 16",
	    100 * ((double)p20->a.used_ns / (double)p16->a.used_ns - 1),
	    100 * ((double)p20->a.used_ns / (double)p32->a.used_ns - 1), (unsigned long long)chunk,
	    units_time(p20->a.eng[SS_ENG_COMPUTE].busy_ns, (char[24]){0}, 24),
	    units_time(p16->a.eng[SS_ENG_COMPUTE].busy_ns, (char[24]){0}, 24));
	expect_in(x->evidence, frag);
	expect_in(x->evidence, "1.886 ms against 1.282 ms at 16");
	sweep_free(&s);
	json_tree_free(root);
}

/* kt_sweep_run returns the kernel-transfer-sweep run of a recorded claims JSON root, failing the test when it has
 * none. */
static yajl_val kt_sweep_run(yajl_val root)
{
	yajl_val runs = json_tree_get(root, "runs"), run = NULL;

	for (size_t i = 0; i < json_tree_len(runs); i++) {
		const char *role = json_tree_str(json_tree_get(json_tree_at(runs, i), "role"));

		if (role != NULL && strcmp(role, claims_role_name(SS_CLAIMS_KT_SWEEP)) == 0)
			run = json_tree_at(runs, i);
	}
	assert_non_null(run);
	return run;
}

/* check_without_20 recomputes the 001 claims of name's kernel-transfer-sweep run: as recorded, 001-best's measured
 * the recorded one and the words that 20 was not measured. */
static void check_without_20(const char *name)
{
	yajl_val root = load(name), run = kt_sweep_run(root);
	struct ss_sweep s;
	struct ss_claim c[SS_CLAIMS_MAX];
	const struct ss_claim *x;
	const char *was;
	int n;

	rebuild(&s, json_tree_get(run, "experiment"), json_tree_get(run, "points"));
	assert_null(sweep_find(&s, 20, s.orders[0]));
	n = claims_sweep(&s, c);
	expect_as_recorded(c, n, root);
	x = claims_find(c, n, "001-best");
	was = json_tree_str(json_tree_get(recorded(root, "001-best"), "measured"));
	assert_non_null(was);
	assert_int_equal(strncmp(x->measured, was, strlen(was)), 0);
	assert_string_equal(x->measured + strlen(was), "; 20 streams itself not run");
	expect_in(x->evidence, "; 20 streams itself not run");
	sweep_free(&s);
	json_tree_free(root);
}

static void test_claims_without_20(void **state)
{
	(void)state;
	check_without_20("claims/claims-json.txt");
	check_without_20("claims-1q/claims-1q-json.txt");
}

/* The claims on the H200 with CUPTI detached (../detach-h200/claims-json.txt, 2026-12-07): the 001 verdicts
 * recomputed from its kernel-transfer sweep, 20 streams included, are the recorded ones, every measured line but
 * 001-best's as recorded and 001-best's to the letter too: the best at 64 streams (1.67x), 16 streams 6.1% slower,
 * so it does not hold here where the attached run held it. */
static void test_claims_detached_h200(void **state)
{
	yajl_val root = load("../detach-h200/claims-json.txt"), run = kt_sweep_run(root);
	struct ss_sweep s;
	struct ss_claim c[SS_CLAIMS_MAX];
	const struct ss_claim *x;
	int n;

	(void)state;
	rebuild(&s, json_tree_get(run, "experiment"), json_tree_get(run, "points"));
	assert_non_null(sweep_find(&s, 20, s.orders[0]));
	n = claims_sweep(&s, c);
	expect_as_recorded(c, n, root);
	x = claims_find(c, n, "001-best");
	assert_string_equal(x->measured, json_tree_str(json_tree_get(recorded(root, "001-best"), "measured")));
	assert_int_equal(x->verdict, SS_VERDICT_FAILS);
	expect_in(x->measured, "best 1.67x at 64 streams");
	sweep_free(&s);
	json_tree_free(root);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sweep_with_20),
	    cmocka_unit_test(test_claims_without_20),
	    cmocka_unit_test(test_claims_detached_h200),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: test_replay_claims DIR (tests/data/h200/documents)\n");
		return 2;
	}
	data_dir = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
