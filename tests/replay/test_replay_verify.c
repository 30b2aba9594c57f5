/* test_replay_verify.c: `analyze --verify --json` of six presets on the H200 (tests/gpu/verify_fixes.sh, the data in
 * tests/data/h200/verify-fixes): each case's expected problem fired on the GPU's own timeline, its fix (an
 * experiment change) helped both on the model and measured, and the fraction of the makespan the model predicted
 * the fix to save is within 10 points of the fraction measured; the well-overlapped case has no problem at all. */
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
#include <string.h>

#include "json_tree.h"

static const char *verify_dir;

/* One case of verify_fixes.sh: its file and the problem rule its run must show (NULL: none may). */
static const struct {
	const char *name, *rule, *change;
} verify_cases[] = {
    {"pageable", "pageable-copy", "--host-mem pinned"},
    {"default-stream", "legacy-stream-sync", "--default-stream per-thread"},
    {"weaker-1q", "false-dependency", "--connections 2"},
    {"one-stream", "no-overlap", "--streams 8"},
    {"tiny-chunks", "launch-bound", "--chunks 0 (one per stream)"},
    {"reverse-sync", NULL, NULL},
};

static void test_verify(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof verify_cases / sizeof verify_cases[0]; c++) {
		char path[512], err[256];
		yajl_val j, ins, x, found = NULL;
		size_t i;

		snprintf(path, sizeof path, "%s/%s.json", verify_dir, verify_cases[c].name);
		if ((j = json_tree_load(path, err, sizeof err)) == NULL)
			fail_msg("%s: %s", path, err);
		assert_false(json_tree_is_true(json_tree_get(j, "modelled"))); /* the GPU's own timeline */
		ins = json_tree_get(j, "insights");
		json_tree_foreach(ins, i, x)
		{
			const char *sev = json_tree_str(json_tree_get(x, "severity"));

			if (verify_cases[c].rule == NULL && strcmp(sev, "problem") == 0)
				fail_msg("%s: %s fired on a well-overlapped run", verify_cases[c].name,
				         json_tree_str(json_tree_get(x, "rule")));
			if (verify_cases[c].rule != NULL &&
			    strcmp(json_tree_str(json_tree_get(x, "rule")), verify_cases[c].rule) == 0)
				found = x;
		}
		if (verify_cases[c].rule != NULL) {
			yajl_val g, m;
			double mb, ma, gb, ga;

			if (found == NULL)
				fail_msg("%s: %s did not fire on the H200", verify_cases[c].name, verify_cases[c].rule);
			assert_string_equal(json_tree_str(json_tree_get(found, "severity")), "problem");
			assert_string_equal(json_tree_str(json_tree_get(found, "change")), verify_cases[c].change);
			g = json_tree_get(found, "gain");
			m = json_tree_get(g, "measured");
			assert_true(json_tree_is_true(json_tree_get(g, "modelled")));
			assert_true(json_tree_is_object(m));
			mb = json_tree_num(json_tree_get(g, "before_ns"));
			ma = json_tree_num(json_tree_get(g, "after_ns"));
			gb = json_tree_num(json_tree_get(m, "before_ns"));
			ga = json_tree_num(json_tree_get(m, "after_ns"));
			assert_true(ma < mb && ga < gb); /* the fix helps, on the model and on the GPU */
			if (fabs((mb - ma) / mb - (gb - ga) / gb) > 0.10)
				fail_msg("%s: the model saves %.1f%%, the H200 %.1f%%", verify_cases[c].name,
				         100 * (mb - ma) / mb, 100 * (gb - ga) / gb);
		}
		json_tree_free(j);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_verify),
	};

	verify_dir = argc > 1 ? argv[1] : SS_SOURCE_DIR "/tests/data/h200/verify-fixes";
	return cmocka_run_group_tests(tests, NULL, NULL);
}
