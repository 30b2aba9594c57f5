/* test_analyze_cli.c: `streamscope analyze` through the real binary: the presets on the model give the rules their
 * pathology shows (and a well-overlapped one no problem), the real Nsight Systems exports analyse, --json has the
 * keys scripts rely on, the documents' claims of a run or of a trace that says what it ran, and a FILE refuses the
 * experiment options. */
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

/* analyze_json runs analyze --json with argv's arguments, checks its exit and that every insight has the keys
 * scripts rely on, and returns the parsed object (the caller frees it). */
static yajl_val analyze_json(const char *const *argv)
{
	const char *av[32] = {"analyze", "--json"};
	char err[256];
	struct out o;
	yajl_val j, ins, x;
	size_t i, n = 2;

	for (int k = 0; argv[k] != NULL && n < 30; k++)
		av[n++] = argv[k];
	av[n] = NULL;
	run(&o, av);
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	if ((j = json_tree_parse(o.out, err, sizeof err)) == NULL)
		fail_msg("stdout is not JSON (%s): %s", err, o.out);
	out_free(&o);
	ins = json_tree_get(j, "insights");
	assert_true(json_tree_is_array(ins));
	json_tree_foreach(ins, i, x)
	{
		const char *sev = json_tree_str(json_tree_get(x, "severity"));
		yajl_val g = json_tree_get(x, "gain");

		assert_non_null(json_tree_str(json_tree_get(x, "rule")));
		assert_non_null(sev);
		assert_true(strcmp(sev, "problem") == 0 || strcmp(sev, "hint") == 0 || strcmp(sev, "info") == 0);
		assert_non_null(json_tree_str(json_tree_get(x, "summary")));
		assert_true(json_tree_is_object(json_tree_get(x, "evidence")));
		assert_non_null(json_tree_str(json_tree_get(json_tree_get(x, "evidence"), "text")));
		assert_non_null(json_tree_str(json_tree_get(x, "fix")));
		assert_true(json_tree_is_null(g) || json_tree_is_int(json_tree_get(g, "ns")));
	}
	return j;
}

/* The insight of rule in j, NULL when it did not fire. */
static yajl_val insight(yajl_val j, const char *rule)
{
	yajl_val ins = json_tree_get(j, "insights"), x;
	size_t i;

	json_tree_foreach(ins, i, x) if (strcmp(json_tree_str(json_tree_get(x, "rule")), rule) == 0) return x;
	return NULL;
}

static const char *severity(yajl_val x)
{
	return json_tree_str(json_tree_get(x, "severity"));
}

static void test_presets(void **state)
{
	yajl_val j, x, ins;
	size_t i;

	(void)state;
	j = analyze_json(ARGS("--backend", "model", "--preset", "pageable"));
	assert_non_null(x = insight(j, "pageable-copy"));
	assert_string_equal(severity(x), "problem");
	assert_int_equal(json_tree_int(json_tree_get(json_tree_get(x, "evidence"), "record_count")), 24);
	assert_null(insight(j, "legacy-stream-sync"));
	json_tree_free(j);

	j = analyze_json(ARGS("--backend", "model", "--preset", "default-stream"));
	assert_non_null(x = insight(j, "legacy-stream-sync"));
	assert_string_equal(severity(x), "problem");
	assert_non_null(strstr(json_tree_str(json_tree_get(x, "summary")), "ss_touch"));
	assert_null(insight(j, "pageable-copy"));
	json_tree_free(j);

	j = analyze_json(ARGS("--backend", "model", "--preset", "kernel-transfer", "--streams", "1"));
	assert_non_null(x = insight(j, "no-overlap"));
	assert_string_equal(severity(x), "problem");
	assert_true(json_tree_is_int(json_tree_get(json_tree_get(x, "gain"), "ns")));
	json_tree_free(j);

	/* eight streams: well overlapped, no problem at all */
	j = analyze_json(ARGS("--backend", "model", "--preset", "kernel-transfer"));
	ins = json_tree_get(j, "insights");
	json_tree_foreach(ins, i, x) assert_string_not_equal(severity(x), "problem");
	json_tree_free(j);
}

static void test_nsys(void **state)
{
	yajl_val j, x;

	(void)state;
	/* one stream, pageable copies around a long kernel */
	j = analyze_json(ARGS(SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite"));
	assert_non_null(x = insight(j, "pageable-copy"));
	assert_int_equal(json_tree_int(json_tree_get(json_tree_get(x, "evidence"), "record_count")), 2);
	/* nothing overlaps, but the 8.6 ms of copies beside the 1.04 s kernel are all overlap could save: no-overlap
	 * is silent (it called this a problem); the kernel is the bound */
	assert_null(insight(j, "no-overlap"));
	assert_non_null(x = insight(j, "engine-bound"));
	assert_non_null(strstr(json_tree_str(json_tree_get(x, "summary")), "compute"));
	json_tree_free(j);
	/* four streams, pinned copies that do not overlap the kernels, on a GPU with one copy engine (asyncEngines 1):
	 * H2D and D2H take turns on it, so no copy waited on an idle engine (it reported a false dependency, H2D taken
	 * alone), and overlap could hide only the 0.54 ms of kernels under that engine: no-overlap is silent (it
	 * called this a problem, worth up to 9.6 ms) */
	j = analyze_json(ARGS(SS_SOURCE_DIR "/tests/data/nsys/rtx4060ti-4streams.sqlite"));
	assert_null(insight(j, "false-dependency"));
	assert_null(insight(j, "no-overlap"));
	assert_non_null(x = insight(j, "engine-bound"));
	assert_non_null(strstr(json_tree_str(json_tree_get(x, "summary")), "copy (one for H2D and D2H)"));
	assert_null(insight(j, "pageable-copy"));
	json_tree_free(j);
}

/* The id and verdict of claim id in j's "claims", NULL when absent. */
static const char *claim_verdict(yajl_val j, const char *id)
{
	yajl_val c = json_tree_get(j, "claims"), x;
	size_t i;

	assert_true(json_tree_is_array(c));
	json_tree_foreach(c, i, x) if (strcmp(json_tree_str(json_tree_get(x, "id")), id) ==
	                               0) return json_tree_str(json_tree_get(x, "verdict"));
	return NULL;
}

/* The documents' claims: a run's (labelled modelled on the model), a streamscope trace's that says which program it
 * ran (measured on an H100: not modelled), none for a foreign trace; the text prints them after the insights. */
static void test_claims(void **state)
{
	const char *kt = SS_SOURCE_DIR "/tests/data/h200/kernel-names-h100/kt.sqlite";
	struct out o;
	yajl_val j, x;

	(void)state;
	j = analyze_json(ARGS(kt));
	assert_int_equal(json_tree_len(json_tree_get(j, "claims")), 3);
	assert_string_equal(claim_verdict(j, "001-bytes"), "holds");
	assert_string_equal(claim_verdict(j, "003-copy-engine"), "holds");
	assert_string_equal(claim_verdict(j, "003-copy-duplex"), "holds");
	x = json_tree_at(json_tree_get(j, "claims"), 0);
	assert_true(json_tree_is_false(json_tree_get(x, "modelled")));
	json_tree_free(j);
	j = analyze_json(ARGS(SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite"));
	assert_int_equal(json_tree_len(json_tree_get(j, "claims")), 0);
	json_tree_free(j);
	j = analyze_json(ARGS("--backend", "model", "--preset", "vector-add", "--order", "weaker"));
	assert_string_equal(claim_verdict(j, "003-kernel-order"), "holds");
	x = json_tree_at(json_tree_get(j, "claims"), 0);
	assert_true(json_tree_is_true(json_tree_get(x, "modelled")));
	json_tree_free(j);
	run(&o, ARGS("analyze", kt));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\nthe documents' claims this trace supports\n  001-bytes            holds "));
	assert_null(strstr(o.out, "modelled"));
	out_free(&o);
	/* an older trace of the same program, from before the file said whether it ran a step program: none */
	run(&o, ARGS("analyze", SS_SOURCE_DIR "/tests/data/h200/bench/preset-kernel-transfer.sqlite"));
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.out, "the documents' claims"));
	out_free(&o);
}

/* An experiment's fix is re-run on the model: the change in option words, before and after, labelled modelled;
 * no measurement without --verify. */
static void test_modelled_gain(void **state)
{
	yajl_val j, x, g;

	(void)state;
	j = analyze_json(ARGS("--backend", "model", "--preset", "pageable"));
	assert_non_null(x = insight(j, "pageable-copy"));
	assert_string_equal(json_tree_str(json_tree_get(x, "change")), "--host-mem pinned");
	g = json_tree_get(x, "gain");
	assert_true(json_tree_is_true(json_tree_get(g, "modelled")));
	assert_true(json_tree_is_false(json_tree_get(g, "estimate")));
	assert_true(json_tree_int(json_tree_get(g, "after_ns")) < json_tree_int(json_tree_get(g, "before_ns")));
	assert_int_equal(json_tree_int(json_tree_get(g, "ns")),
	                 json_tree_int(json_tree_get(g, "before_ns")) - json_tree_int(json_tree_get(g, "after_ns")));
	assert_true(json_tree_is_null(json_tree_get(g, "measured")));
	assert_non_null(strstr(json_tree_str(json_tree_get(g, "how")), "modelled"));
	json_tree_free(j);
	/* a trace's gain is the timeline's estimate, no change to try */
	j = analyze_json(ARGS(SS_SOURCE_DIR "/tests/data/h200/insights/no-overlap.sqlite"));
	assert_non_null(x = insight(j, "no-overlap"));
	assert_true(json_tree_is_null(json_tree_get(x, "change")));
	assert_true(json_tree_is_true(json_tree_get(json_tree_get(x, "gain"), "estimate")));
	json_tree_free(j);
}

/* A fix tried on a step program, on two GPUs or on one that does not validate is no crash (remedy_gain validated
 * it with no place for the reason: exit 139): host-sync-order's --sync stream on a pipeline, the insights of a
 * two-GPU experiment on one stream a GPU. */
static void test_remedy_programs(void **state)
{
	yajl_val j, x;

	(void)state;
	j = analyze_json(
	    ARGS("--backend", "model", "--experiment", SS_SOURCE_DIR "/examples/pipeline.ini", "--sync", "reverse"));
	assert_non_null(x = insight(j, "host-sync-order"));
	assert_string_equal(json_tree_str(json_tree_get(x, "change")), "--sync stream");
	assert_true(json_tree_is_true(json_tree_get(json_tree_get(x, "gain"), "modelled")));
	json_tree_free(j);
	j = analyze_json(
	    ARGS("--backend", "model", "--experiment", SS_SOURCE_DIR "/examples/multi-gpu.ini", "--streams", "1"));
	assert_true(json_tree_len(json_tree_get(j, "insights")) >= 1);
	json_tree_free(j);
	j = analyze_json(ARGS("--backend", "model", "--preset", "kernel-transfer", "--devices", "2", "--chunks", "16",
	                      "--streams", "1", "--peer"));
	assert_true(json_tree_len(json_tree_get(j, "insights")) >= 1);
	json_tree_free(j);
}

/* misaligned-chunks on a run of 20 streams (17 of 20 chunks off a 128-byte line): a problem with its records, the
 * nearest aligned stream count to try and the model's gain; nothing at 16 streams, nor on a trace of the 20-stream
 * run (a trace has no addresses); the help names the rule. */
static void test_misaligned(void **state)
{
	char dir[] = "/tmp/ss-cli-misalign-XXXXXX", trace[160];
	const char *change;
	yajl_val j, x, g, ev;
	struct out o;

	(void)state;
	j = analyze_json(ARGS("--backend", "model", "--preset", "kernel-transfer", "--streams", "20"));
	assert_non_null(x = insight(j, "misaligned-chunks"));
	assert_string_equal(severity(x), "problem");
	assert_non_null(strstr(json_tree_str(json_tree_get(x, "summary")), "17 of 20"));
	ev = json_tree_get(x, "evidence");
	assert_int_equal(json_tree_int(json_tree_get(ev, "record_count")), 17);
	assert_int_equal(json_tree_len(json_tree_get(ev, "records")), 8);
	assert_true(json_tree_int(json_tree_get(ev, "start_ns")) < json_tree_int(json_tree_get(ev, "end_ns")));
	assert_non_null(change = json_tree_str(json_tree_get(x, "change")));
	assert_true(strcmp(change, "--streams 16") == 0 || strcmp(change, "--streams 32") == 0);
	g = json_tree_get(x, "gain");
	assert_true(json_tree_is_true(json_tree_get(g, "modelled")));
	assert_true(json_tree_int(json_tree_get(g, "after_ns")) < json_tree_int(json_tree_get(g, "before_ns")));
	json_tree_free(j);
	j = analyze_json(ARGS("--backend", "model", "--preset", "kernel-transfer", "--streams", "16"));
	assert_null(insight(j, "misaligned-chunks"));
	json_tree_free(j);
	/* the text names the rule and what to try */
	run(&o, ARGS("analyze", "--backend", "model", "--preset", "kernel-transfer", "--streams", "20"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "[problem] misaligned-chunks: "));
	assert_non_null(strstr(o.out, "  try: --streams "));
	out_free(&o);
	/* the same run as a trace: no experiment layout there, no insight */
	assert_non_null(mkdtemp(dir));
	snprintf(trace, sizeof trace, "%s/k20.sqlite", dir);
	run(&o, ARGS("run", "--backend", "model", "--preset", "kernel-transfer", "--streams", "20", "--export", trace));
	assert_int_equal(o.status, 0);
	out_free(&o);
	j = analyze_json(ARGS(trace));
	assert_null(insight(j, "misaligned-chunks"));
	json_tree_free(j);
	unlink(trace);
	rmdir(dir);
	run(&o, ARGS("analyze", "--help"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "misaligned-chunks"));
	out_free(&o);
}

static void test_refused(void **state)
{
	struct out o;

	(void)state;
	/* --verify without a GPU: one line, exit 3 (on a GPU machine it measures: not checked here) */
	run(&o, ARGS("analyze", "--preset", "pageable", "--verify"));
	if (o.status == 3) {
		assert_non_null(strstr(o.err, "analyze --verify measures the fixes on a GPU"));
		assert_null(strchr(o.err, '\n') == o.err + strlen(o.err) - 1 ? NULL : strchr(o.err, '\n'));
	}
	out_free(&o);
	run(&o, ARGS("analyze", SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite", "--verify"));
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "cannot be re-run"));
	out_free(&o);
	run(&o, ARGS("analyze", SS_SOURCE_DIR "/tests/data/nsys/rtx3060-1stream.sqlite", "--streams", "2"));
	assert_int_equal(o.status, 2);
	assert_non_null(strstr(o.err, "'--streams'"));
	assert_non_null(strstr(o.err, "'analyze FILE'"));
	out_free(&o);
	run(&o, ARGS("analyze", "/nonexistent/trace.sqlite"));
	assert_int_equal(o.status, 1);
	out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_modelled_gain), cmocka_unit_test(test_refused),
	                                   cmocka_unit_test(test_presets),       cmocka_unit_test(test_nsys),
	                                   cmocka_unit_test(test_misaligned),    cmocka_unit_test(test_remedy_programs),
	                                   cmocka_unit_test(test_claims)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
