/* test_claims_cli.c: `streamscope claims` and the claims of `sweep` through the real binary: the help, the options
 * it refuses and why, --preset's document, and the JSON of every claim parsed back with yajl_tree (stable keys,
 * every verdict one of three, modelled on the model).
 *
 * Groups (argv[1]): "usage" needs no backend; "model" runs on the model backend. No argument: both. */
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

/* expect_usage: exit 2, one line on stderr holding every fragment, nothing on stdout. */
static void expect_usage(const char *const *argv, const char *frag1, const char *frag2)
{
	struct out o;

	run(&o, argv);
	assert_int_equal(o.status, 2);
	assert_string_equal(o.out, "");
	assert_non_null(strchr(o.err, '\n'));
	assert_string_equal(strchr(o.err, '\n'), "\n");
	if (strstr(o.err, frag1) == NULL || (frag2 != NULL && strstr(o.err, frag2) == NULL))
		fail_msg("stderr '%s' lacks '%s' / '%s'", o.err, frag1, frag2 ? frag2 : "");
	out_free(&o);
}

/* claims --help: made from its entry, listed by --help, every line within 80 columns. */
static void test_help(void **state)
{
	struct out o;

	(void)state;
	run(&o, ARGS("--help"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\n  claims"));
	out_free(&o);
	run(&o, ARGS("claims", "--help"));
	assert_int_equal(o.status, 0);
	assert_int_equal(strncmp(o.out, "usage: streamscope claims", 25), 0);
	assert_non_null(strstr(o.out, "--preset"));
	assert_non_null(strstr(o.out, "Exit status:"));
	for (const char *l = o.out; *l != '\0';) {
		const char *e = strchr(l, '\n');
		size_t n = e != NULL ? (size_t)(e - l) : strlen(l);

		if (n > 79)
			fail_msg("a help line of %zu columns: %.*s", n, (int)n, l);
		l += n + (e != NULL);
	}
	out_free(&o);
}

/* The options that would change a document's experiments are refused, saying why; so is a preset no document
 * writes. */
static void test_refusals(void **state)
{
	(void)state;
	expect_usage(ARGS("claims", "--streams", "4"), "'--streams'", "as the document writes them");
	expect_usage(ARGS("claims", "--order", "breadth"), "'--order'", "toggles the option itself");
	expect_usage(ARGS("claims", "--export", "x.json"), "'--export'", "many runs");
	expect_usage(ARGS("claims", "--preset", "hyperq"), "no document's claims use it", "sync-order|vector-add");
	expect_usage(ARGS("claims", "--preset", "nonsense"), "'nonsense'", "kernel-transfer");
	expect_usage(ARGS("claims", "extra"), "extra", NULL);
}

/* The claims of JSON document root: each with its keys, the verdict one of three, modelled as want; 001-theory
 * with a point for each of counts (n of them) and 001-best with 20 itself measured when counts have it. Returns how
 * many. */
static size_t check_claims(yajl_val root, bool modelled, const int *counts, size_t ncounts)
{
	yajl_val cl = json_tree_get(root, "claims");
	size_t n = json_tree_len(cl);

	assert_true(json_tree_is_array(cl));
	for (size_t i = 0; i < n; i++) {
		yajl_val c = json_tree_at(cl, i), values = json_tree_get(c, "values");
		const char *id = json_tree_str(json_tree_get(c, "id")), *v = json_tree_str(json_tree_get(c, "verdict"));

		assert_non_null(id);
		assert_non_null(v);
		if (strcmp(v, "holds") != 0 && strcmp(v, "does-not-hold") != 0 && strcmp(v, "not-measured") != 0)
			fail_msg("%s: verdict '%s'", id, v);
		assert_int_equal(strncmp(id, json_tree_str(json_tree_get(c, "document")), 3), 0);
		assert_true(strlen(json_tree_str(json_tree_get(c, "claim"))) > 20);
		assert_true(strlen(json_tree_str(json_tree_get(c, "measured"))) > 0);
		assert_true(strlen(json_tree_str(json_tree_get(c, "expected"))) > 0);
		assert_non_null(json_tree_str(json_tree_get(c, "evidence")));
		assert_true(modelled ? json_tree_is_true(json_tree_get(c, "modelled"))
		                     : json_tree_is_false(json_tree_get(c, "modelled")));
		assert_true(json_tree_is_object(values));
		for (size_t k = 0; k < values->u.object.len; k++) {
			yajl_val x = values->u.object.values[k];

			assert_true(json_tree_is_null(x) || json_tree_is_int(x) || json_tree_is_real(x));
		}
		if (strcmp(id, "001-theory") == 0) {
			yajl_val pts = json_tree_get(c, "points");

			assert_int_equal(json_tree_len(pts), ncounts);
			for (size_t k = 0; k < ncounts; k++)
				assert_int_equal(json_tree_int(json_tree_get(json_tree_at(pts, k), "streams")),
				                 counts[k]);
			assert_true(json_tree_num(json_tree_get(json_tree_at(pts, 1), "predicted")) == 1.5);
			/* the model's speedups are modelled, not measured */
			assert_non_null(strstr(json_tree_str(json_tree_get(c, "evidence")),
			                       modelled ? "speedup modelled/predicted" : "speedup measured/predicted"));
		}
		if (strcmp(id, "001-best") == 0) {
			bool twenty = false;

			for (size_t k = 0; k < ncounts; k++)
				twenty |= counts[k] == 20;
			assert_int_equal(json_tree_is_null(json_tree_get(values, "at_20_ns")), !twenty);
			assert_int_equal(json_tree_is_null(json_tree_get(values, "at_20_chunks_off_line")), !twenty);
			if (!twenty)
				assert_non_null(
				    strstr(json_tree_str(json_tree_get(c, "measured")), "20 streams itself not run"));
		}
	}
	return n;
}

/* The stream counts of the claims' 001 sweep (the document's and 20) and of sweep's default. */
static const int claims_counts[] = {1, 2, 4, 8, 16, 20, 32, 64, 128};
static const int sweep_counts[] = {1, 2, 4, 8, 16, 32, 64, 128};

/* parse parses text, failing the test with yajl's message. */
static yajl_val parse(const char *text)
{
	char err[256];
	yajl_val v = json_tree_parse(text, err, sizeof err);

	if (v == NULL)
		fail_msg("not JSON: %s", err);
	return v;
}

/* claims --json on the model: every document's runs and claims, modelled. */
static void test_model_json(void **state)
{
	static const char *const ids[] = {
	    "000-overlap",      "000-tail",          "001-theory",         "001-best",
	    "001-not-3x",       "001-bytes",         "001-engine-bound",   "001-stream-cost",
	    "003-sync-order",   "003-stream0-timer", "003-get-last-error", "003-issue-order",
	    "003-kernel-order", "003-copy-engine",   "003-copy-duplex",    "004-attach-threads"};
	struct out o;
	yajl_val root, runs, docs;

	(void)state;
	run(&o, ARGS("claims", "--backend", "model", "--json"));
	assert_int_equal(o.status, 0);
	root = parse(o.out);
	assert_true(json_tree_is_true(json_tree_get(root, "modelled")));
	assert_non_null(strstr(json_tree_str(json_tree_get(root, "device")), "MODEL"));
	docs = json_tree_get(root, "documents");
	assert_int_equal(json_tree_len(docs), 4);
	assert_string_equal(json_tree_str(json_tree_at(docs, 2)), "003");
	runs = json_tree_get(root, "runs");
	assert_int_equal(json_tree_len(runs), 11);
	for (size_t i = 0; i < json_tree_len(runs); i++) {
		yajl_val r = json_tree_at(runs, i);

		assert_non_null(json_tree_str(json_tree_get(r, "role")));
		assert_true(json_tree_is_object(json_tree_get(r, "experiment")));
		if (json_tree_is_true(json_tree_get(r, "sweep")))
			assert_true(json_tree_len(json_tree_get(r, "points")) >= 3);
		else
			assert_true(json_tree_int(json_tree_get(r, "used_makespan_ns")) > 0);
	}
	assert_int_equal(check_claims(root, true, claims_counts, 9), sizeof ids / sizeof ids[0]);
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		assert_string_equal(json_tree_str(json_tree_get(json_tree_at(json_tree_get(root, "claims"), i), "id")),
		                    ids[i]);
	/* document 003's timer between the streams' work (a lap on stream 0 after each stream's): the model's legacy
	 * stream takes the streams in turn, and the claim is judged on that run */
	assert_string_equal(json_tree_str(json_tree_get(json_tree_at(json_tree_get(root, "claims"), 9), "verdict")),
	                    "holds");
	json_tree_free(root);
	out_free(&o);
}

/* --preset limits the claims to its document; the text names every claim, labelled modelled. */
static void test_model_preset_text(void **state)
{
	struct out o;
	yajl_val root;

	(void)state;
	run(&o, ARGS("claims", "--backend", "model", "--preset", "sync-order", "--json"));
	assert_int_equal(o.status, 0);
	root = parse(o.out);
	assert_int_equal(json_tree_len(json_tree_get(root, "documents")), 1);
	assert_int_equal(json_tree_len(json_tree_get(root, "runs")), 7);
	assert_int_equal(check_claims(root, true, claims_counts, 9), 7);
	json_tree_free(root);
	out_free(&o);
	run(&o, ARGS("claims", "--backend", "model", "--preset", "kernel-transfer"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "MODELLED"));
	assert_non_null(strstr(o.out, "kernel-transfer-sweep"));
	assert_non_null(strstr(o.out, "001-theory"));
	assert_non_null(strstr(o.out, "(modelled)"));
	assert_null(strstr(o.out, "003-"));
	out_free(&o);
}

/* run prints the claims one run supports, and writes them in --json. */
static void test_model_run(void **state)
{
	struct out o;
	yajl_val root;

	(void)state;
	run(&o, ARGS("run", "--backend", "model", "--json"));
	assert_int_equal(o.status, 0);
	root = parse(o.out);
	/* kernel-transfer on 8 streams: its bytes, the copy engine, both directions */
	assert_int_equal(check_claims(root, true, NULL, 0), 3);
	assert_string_equal(json_tree_str(json_tree_get(json_tree_at(json_tree_get(root, "claims"), 0), "verdict")),
	                    "holds");
	json_tree_free(root);
	out_free(&o);
	run(&o, ARGS("run", "--backend", "model", "--preset", "vector-add", "--order", "weaker"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "the documents' claims this run supports (MODELLED)"));
	assert_non_null(strstr(o.out, "003-kernel-order"));
	out_free(&o);
}

/* sweep prints the claims its points support after the table, and writes them in --json. */
static void test_model_sweep(void **state)
{
	struct out o;
	yajl_val root;

	(void)state;
	run(&o, ARGS("sweep", "--backend", "model", "--json"));
	assert_int_equal(o.status, 0);
	root = parse(o.out);
	assert_int_equal(check_claims(root, true, sweep_counts, 8), 7);
	assert_true(json_tree_is_null(json_tree_get(json_tree_at(json_tree_get(root, "points"), 0), "verified")));
	json_tree_free(root);
	out_free(&o);
	run(&o, ARGS("sweep", "--backend", "model", "--streams", "1,2,4"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "the documents' claims these points support (MODELLED)"));
	assert_non_null(strstr(o.out, "no stream count of 16..32 ran"));
	out_free(&o);
	/* 20 streams on the model: slower than 16 and 32 by its kernels, on chunks off a 128-byte line */
	run(&o, ARGS("sweep", "--backend", "model", "--streams", "1,16,20,32"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "\n     20 | "));
	assert_non_null(strstr(o.out, "; 20 streams itself 1."));
	assert_non_null(strstr(o.out,
	                       "17 of the 20 chunks its kernels read (209716 x 4 bytes) start 16..112 bytes off a "
	                       "128-byte line (none at 16, none at 32) and its kernels were busy "));
	out_free(&o);
	run(&o, ARGS("sweep", "--backend", "model", "--preset", "hyperq", "--streams", "1,2"));
	assert_int_equal(o.status, 0);
	assert_null(strstr(o.out, "claims"));
	out_free(&o);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest usage[] = {cmocka_unit_test(test_help), cmocka_unit_test(test_refusals)};
	const struct CMUnitTest model[] = {cmocka_unit_test(test_model_json), cmocka_unit_test(test_model_preset_text),
	                                   cmocka_unit_test(test_model_run), cmocka_unit_test(test_model_sweep)};
	const char *group = argc > 1 ? argv[1] : "";
	int rc = 0;

	if (strcmp(group, "model") != 0)
		rc |= cmocka_run_group_tests_name("usage", usage, NULL, NULL);
	if (strcmp(group, "usage") != 0)
		rc |= cmocka_run_group_tests_name("model", model, NULL, NULL);
	return rc;
}
