/* test_advise_cli.c: `streamscope advise` through the real binary: every preset's --json parsed back (modelled,
 * current and best, the gain, the reason, the top list), the options shaping the current configuration, the text
 * output, bad options in one line with exit 2, --verify without a GPU in one line with exit 3, the help. */
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

/* one_line says s is one line ending in a newline. */
static bool one_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl != NULL && nl[1] == '\0' && nl > s;
}

/* advise_json runs advise --json with argv's arguments, checks its exit, and returns the parsed object. */
static yajl_val advise_json(const char *const *argv)
{
	const char *av[32] = {"advise", "--json"};
	char err[256];
	struct out o;
	yajl_val j;
	size_t n = 2;

	for (int k = 0; argv[k] != NULL && n < 30; k++)
		av[n++] = argv[k];
	av[n] = NULL;
	run(&o, av);
	if (o.status != 0)
		fail_msg("exit %d: %s", o.status, o.err);
	if ((j = json_tree_parse(o.out, err, sizeof err)) == NULL)
		fail_msg("stdout is not JSON (%s): %s", err, o.out);
	out_free(&o);
	return j;
}

/* check_config checks a configuration object's keys. */
static void check_config(yajl_val c)
{
	assert_true(json_tree_is_object(c));
	assert_true(json_tree_int(json_tree_get(c, "streams")) >= 1);
	assert_true(json_tree_int(json_tree_get(c, "chunks")) >= 1);
	assert_true(json_tree_int(json_tree_get(c, "connections")) >= 1);
	assert_non_null(json_tree_str(json_tree_get(c, "order")));
	assert_non_null(json_tree_str(json_tree_get(c, "sync")));
	assert_non_null(json_tree_str(json_tree_get(c, "host_mem")));
	assert_non_null(json_tree_str(json_tree_get(c, "description")));
	assert_non_null(json_tree_str(json_tree_get(c, "changes")));
}

/* Every preset's --json: modelled, current and best with their times, the gain adding up, never a slower best,
 * the explanation, the candidates searched, the top list fastest first and the spread within 2% of it; no verify
 * without --verify. */
static void test_json(void **state)
{
	static const char *const presets[] = {"kernel-transfer", "decrypt",    "hyperq",
	                                      "default-stream",  "sync-order", "managed",
	                                      "pageable",        "vector-add", "managed-threads"};

	(void)state;
	for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
		yajl_val j = advise_json(ARGS("--preset", presets[p]));
		yajl_val cur = json_tree_get(j, "current"), best = json_tree_get(j, "best"),
		         top = json_tree_get(j, "top");
		long long ct = json_tree_int(json_tree_get(cur, "predicted_ns"));
		long long bt = json_tree_int(json_tree_get(best, "predicted_ns"));
		long long prev = 0;
		yajl_val x;
		size_t i;

		assert_true(json_tree_is_true(json_tree_get(j, "modelled")));
		check_config(json_tree_get(cur, "config"));
		/* the current time is the one run gives the same experiment, timed as its cudaEvents time it */
		{
			char err[256];
			struct out o;
			yajl_val r;

			run(&o, ARGS("run", "--json", "--preset", presets[p]));
			assert_int_equal(o.status, 0);
			if ((r = json_tree_parse(o.out, err, sizeof err)) == NULL)
				fail_msg("run --json is not JSON (%s)", err);
			assert_int_equal(json_tree_int(json_tree_get(r, "events_ns")), ct);
			json_tree_free(r);
			out_free(&o);
		}
		check_config(json_tree_get(best, "config"));
		assert_true(ct > 0 && bt > 0 && bt <= ct);
		assert_int_equal(json_tree_int(json_tree_get(best, "gain_ns")), ct - bt);
		assert_true(json_tree_num(json_tree_get(best, "gain_pct")) >= 0);
		assert_true(json_tree_num(json_tree_get(best, "gain_pct")) < 100);
		assert_true(strlen(json_tree_str(json_tree_get(j, "explanation"))) > 10);
		assert_null(strchr(json_tree_str(json_tree_get(j, "explanation")), '\n'));
		assert_true(json_tree_int(json_tree_get(j, "candidates_searched")) > 1);
		assert_true(json_tree_len(top) >= 1);
		json_tree_foreach(top, i, x)
		{
			long long t = json_tree_int(json_tree_get(x, "predicted_ns"));

			check_config(json_tree_get(x, "config"));
			assert_true(t > prev);
			prev = t;
		}
		assert_true(json_tree_int(json_tree_get(json_tree_at(top, 0), "predicted_ns")) <= bt);
		/* the spread: configurations within 2% of the fastest */
		assert_true(json_tree_is_array(json_tree_get(j, "spread")));
		json_tree_foreach(json_tree_get(j, "spread"), i, x)
		{
			check_config(json_tree_get(x, "config"));
			assert_true((double)json_tree_int(json_tree_get(x, "predicted_ns")) <=
			            1.02 * (double)json_tree_int(json_tree_get(json_tree_at(top, 0), "predicted_ns")) +
			                1);
		}
		assert_true(json_tree_is_null(json_tree_get(j, "verify")));
		if (strcmp(presets[p], "hyperq") == 0)
			assert_int_equal(json_tree_int(json_tree_get(json_tree_get(best, "config"), "streams")), 32);
		json_tree_free(j);
	}
}

/* The experiment options shape what is advised: the current configuration is the one the options give, and the
 * sizes stay. */
static void test_options(void **state)
{
	yajl_val j = advise_json(
	    ARGS("--preset", "kernel-transfer", "--streams", "2", "--host-mem", "pageable", "--elements", "1M"));
	yajl_val cur = json_tree_get(json_tree_get(j, "current"), "config");
	yajl_val best = json_tree_get(json_tree_get(j, "best"), "config");

	(void)state;
	assert_int_equal(json_tree_int(json_tree_get(cur, "streams")), 2);
	assert_string_equal(json_tree_str(json_tree_get(cur, "host_mem")), "pageable");
	assert_non_null(strstr(json_tree_str(json_tree_get(j, "experiment_text")), "2 streams"));
	assert_int_equal(json_tree_int(json_tree_get(json_tree_get(j, "experiment"), "streams")), 2);
	/* pageable copies are synchronous: the advice moves the host side to pinned memory */
	assert_string_equal(json_tree_str(json_tree_get(best, "host_mem")), "pinned");
	assert_true(json_tree_num(json_tree_get(json_tree_get(j, "best"), "gain_pct")) > 10);
	json_tree_free(j);
}

/* The text output: labelled modelled, the current and best times, the reason and the top list of distinct times. */
static void test_text(void **state)
{
	struct out o;

	(void)state;
	run(&o, ARGS("advise", "--preset", "pageable"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "MODELLED"));
	assert_non_null(strstr(o.out, "\ncurrent "));
	assert_non_null(strstr(o.out, "\nbest "));
	assert_non_null(strstr(o.out, "\nwhy "));
	assert_non_null(strstr(o.out, "pinned"));
	/* the top list holds distinct times: configurations the model ties with one are under "within 2%" */
	assert_non_null(strstr(o.out, "\ntop 8 times (modelled; each shown once, by the simplest configuration that "
	                              "takes it):\n"));
	assert_string_equal(o.err, "");
	out_free(&o);
}

/* Bad options: one line naming the problem, exit 2; --verify without a GPU: one line, exit 3 (with one: the
 * measurements, each labelled). */
static void test_bad(void **state)
{
	const char *const *const bad[] = {
	    ARGS("advise", "--streams", "0"),
	    ARGS("advise", "--preset", "nope"),
	    ARGS("advise", "--backend", "model"),
	    ARGS("advise", "--export", "x.json"),
	    ARGS("advise", "--order", "sideways"),
	    ARGS("advise", "--verify=yes"),
	    ARGS("advise", "extra"),
	    ARGS("advise", "--host-mem", "pinned", "--kernel", "task"),
	};
	struct out o;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		run(&o, bad[i]);
		if (o.status != 2 || !one_line(o.err) || o.out[0] != '\0')
			fail_msg("%s %s: exit %d, stderr '%s', stdout '%s'", bad[i][0], bad[i][1], o.status, o.err,
			         o.out);
		out_free(&o);
	}
	run(&o, ARGS("advise", "--preset", "vector-add", "--verify", "--json"));
	if (o.status == 3) {
		assert_true(one_line(o.err));
		assert_non_null(strstr(o.err, "advise --verify measures its candidates on a GPU"));
		assert_string_equal(o.out, "");
	} else {
		char err[256];
		yajl_val j = json_tree_parse(o.out, err, sizeof err), v;

		assert_int_equal(o.status, 0);
		assert_non_null(j);
		v = json_tree_get(j, "verify");
		assert_true(json_tree_is_false(json_tree_get(v, "modelled")));
		assert_true(json_tree_len(json_tree_get(v, "measured")) >= 2);
		json_tree_free(j);
	}
	out_free(&o);
}

/* The help comes from the table and names the option. */
static void test_help(void **state)
{
	struct out o;

	(void)state;
	run(&o, ARGS("advise", "--help"));
	assert_int_equal(o.status, 0);
	assert_non_null(strstr(o.out, "usage: streamscope advise"));
	assert_non_null(strstr(o.out, "--verify"));
	out_free(&o);
	run(&o, ARGS("--help"));
	assert_non_null(strstr(o.out, "  advise"));
	out_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json), cmocka_unit_test(test_options), cmocka_unit_test(test_text),
	    cmocka_unit_test(test_bad),  cmocka_unit_test(test_help),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
