/* test_insight_presets.c: every preset, and the variants its toggles make, through the insight rules on the model
 * (the H200 profile), with the rules each must raise, the problems it must not, and the fix re-run on the model:
 * the pathologies the source documents describe (pageable memory, a legacy-stream operation, the reverse sync
 * order, one hardware queue under the weaker order, one stream, too many small chunks, chunks off a 128-byte line)
 * and the well-overlapped presets that must get no problem at all. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/insight.h"
#include "model/model.h"
#include "run/remedy.h"

/* One case: a preset changed by toggles, the rule it must raise (NULL: none needed), with what severity, and
 * whether that rule's fix is an experiment change the model re-runs to a gain (change: the option it names). */
struct preset_case {
	const char *name;
	enum ss_preset preset;
	void (*toggle)(struct ss_experiment *e);
	const char *rule;
	enum ss_severity severity;
	const char *change; /* the remedy's option ("--host-mem"), NULL when the rule's gain is the timeline's */
	bool no_problem;    /* no problem-level insight at all (the well-overlapped presets) */
	const char *absent; /* a rule that must not fire (a consequence the rule explains), NULL */
};

static void one_stream(struct ss_experiment *e)
{
	e->streams = 1;
}

static void pageable(struct ss_experiment *e)
{
	e->hostmem = SS_MEM_PAGEABLE;
}

static void legacy_op(struct ss_experiment *e)
{
	e->defstream = SS_DS_LEGACY_OP;
}

static void reverse_sync(struct ss_experiment *e)
{
	e->sync = SS_SYNC_REVERSE;
}

static void weaker_one_queue(struct ss_experiment *e)
{
	e->order = SS_ORDER_WEAKER;
	e->connections = 1;
}

static void twenty_streams(struct ss_experiment *e)
{
	e->streams = 20;
}

static void three_streams(struct ss_experiment *e)
{
	e->streams = 3;
}

static void tiny_chunks(struct ss_experiment *e)
{
	e->streams = 128;
	e->chunks = 4096;
	e->work = 1;
}

static const struct preset_case preset_cases[] = {
    {"kernel-transfer", SS_PRESET_KERNEL_TRANSFER, NULL, NULL, SS_SEV_INFO, NULL, true, NULL},
    {"kernel-transfer 1 stream", SS_PRESET_KERNEL_TRANSFER, one_stream, "no-overlap", SS_SEV_PROBLEM, "--streams",
     false, NULL},
    {"kernel-transfer pageable", SS_PRESET_KERNEL_TRANSFER, pageable, "pageable-copy", SS_SEV_PROBLEM, "--host-mem",
     false, "no-overlap"},
    {"kernel-transfer legacy-op", SS_PRESET_KERNEL_TRANSFER, legacy_op, "legacy-stream-sync", SS_SEV_PROBLEM,
     "--default-stream", false, "no-overlap"},
    {"kernel-transfer reverse sync", SS_PRESET_KERNEL_TRANSFER, reverse_sync, "host-sync-order", SS_SEV_INFO, "--sync",
     true, NULL},
    {"kernel-transfer 4096 chunks", SS_PRESET_KERNEL_TRANSFER, tiny_chunks, "launch-bound", SS_SEV_PROBLEM, "--chunks",
     false, "no-overlap"},
    {"kernel-transfer 20 streams", SS_PRESET_KERNEL_TRANSFER, twenty_streams, "misaligned-chunks", SS_SEV_PROBLEM,
     "--streams", false, NULL},
    {"decrypt", SS_PRESET_DECRYPT, NULL, "engine-bound", SS_SEV_INFO, NULL, true, NULL},
    {"decrypt 3 streams", SS_PRESET_DECRYPT, three_streams, "misaligned-chunks", SS_SEV_HINT, NULL, true, NULL},
    {"decrypt pageable", SS_PRESET_DECRYPT, pageable, "pageable-copy", SS_SEV_PROBLEM, "--host-mem", false, NULL},
    {"hyperq", SS_PRESET_HYPERQ, NULL, NULL, SS_SEV_INFO, NULL, true, NULL},
    {"default-stream", SS_PRESET_DEFAULT_STREAM, NULL, "legacy-stream-sync", SS_SEV_PROBLEM, "--default-stream", false,
     "no-overlap"},
    {"sync-order", SS_PRESET_SYNC_ORDER, NULL, "host-sync-order", SS_SEV_INFO, "--sync", true, NULL},
    {"managed", SS_PRESET_MANAGED, NULL, NULL, SS_SEV_INFO, NULL, true, NULL},
    {"pageable", SS_PRESET_PAGEABLE, NULL, "pageable-copy", SS_SEV_PROBLEM, "--host-mem", false, "no-overlap"},
    {"vector-add", SS_PRESET_VECTOR_ADD, NULL, NULL, SS_SEV_INFO, NULL, true, NULL},
    {"vector-add 1 stream", SS_PRESET_VECTOR_ADD, one_stream, "no-overlap", SS_SEV_PROBLEM, "--streams", false, NULL},
    {"vector-add weaker, 1 queue", SS_PRESET_VECTOR_ADD, weaker_one_queue, "false-dependency", SS_SEV_PROBLEM,
     "--connections", false, "no-overlap"},
    {"managed-threads", SS_PRESET_MANAGED_THREADS, NULL, NULL, SS_SEV_INFO, NULL, true, NULL},
};

static bool any_problem(const struct ss_insights *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->item[i].severity == SS_SEV_PROBLEM)
			return true;
	return false;
}

static void test_presets(void **state)
{
	struct ss_profile p;
	char *cause = NULL;

	(void)state;
	if (profile_default(&p, &cause) != 0)
		fail_msg("profile: %s", cause);
	for (size_t c = 0; c < sizeof preset_cases / sizeof preset_cases[0]; c++) {
		const struct preset_case *pc = &preset_cases[c];
		struct ss_experiment e;
		struct ss_timeline tl;
		struct ss_analysis a;
		struct ss_insights *in = malloc(sizeof *in);
		struct ss_remedy rem[SS_INSIGHT_MAX];
		const struct ss_insight *x;

		experiment_preset(&e, pc->preset);
		if (pc->toggle != NULL)
			pc->toggle(&e);
		timeline_init(&tl);
		if (model_timeline(&e, &p, &tl, NULL, &cause) != 0)
			fail_msg("%s: model: %s", pc->name, cause);
		analysis_timeline(&tl, &a);
		insight_analyze_run(&tl, &a, &e, in);
		if (remedy_apply(&model_backend, &e, in, rem, &cause) != 0)
			fail_msg("%s: remedy: %s", pc->name, cause);
		if (pc->no_problem && any_problem(in))
			fail_msg("%s: a problem fired on a well-overlapped run: %s", pc->name, in->item[0].rule);
		if (pc->absent != NULL && insight_find(in, pc->absent) != NULL)
			fail_msg("%s: %s fired though the cause is named", pc->name, pc->absent);
		if (pc->rule != NULL) {
			size_t k;

			if ((x = insight_find(in, pc->rule)) == NULL)
				fail_msg("%s: %s did not fire", pc->name, pc->rule);
			if (x->severity != pc->severity)
				fail_msg("%s: %s is %s", pc->name, pc->rule, insight_severity_name(x->severity));
			k = (size_t)(x - in->item);
			if (pc->change != NULL) {
				if (rem[k].rule == NULL || strncmp(rem[k].change, pc->change, strlen(pc->change)) != 0)
					fail_msg("%s: %s's fix is '%s', not %s", pc->name, pc->rule,
					         rem[k].rule != NULL ? rem[k].change : "(none)", pc->change);
				assert_true(rem[k].modelled);
				assert_non_null(strstr(x->gain_how, "modelled"));
				/* the re-run is the same experiment's: before is this run's modelled makespan */
				assert_true(rem[k].before_ns > 0 && rem[k].after_ns > 0);
				if (x->severity == SS_SEV_PROBLEM && rem[k].after_ns >= rem[k].before_ns)
					fail_msg("%s: %s's fix %s gains nothing on the model (%llu -> %llu ns)",
					         pc->name, pc->rule, rem[k].change,
					         (unsigned long long)rem[k].before_ns,
					         (unsigned long long)rem[k].after_ns);
			} else {
				assert_true(rem[k].rule == NULL);
			}
		}
		free(in);
		timeline_free(&tl);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_presets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
