/* cmd_run.c: `streamscope run`: one experiment, run and summarised (text or JSON), its timeline exported. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "cli/report.h"
#include "core/analysis.h"
#include "core/planner.h"
#include "model/predict.h"
#include "run/runner.h"

/* cmd_run_pair runs e and, for speedup and the bound, its 1-stream twin; fills tl, res and a. Returns an exit code. */
static int cmd_run_pair(const struct ss_backend *b, const struct ss_experiment *e, struct ss_timeline *tl,
                        struct ss_run_result *res, struct ss_analysis *a)
{
	struct ss_experiment one = *e;
	struct ss_timeline tl1;
	struct ss_run_result res1;
	struct ss_analysis a1;
	struct ss_oplist ops;
	char *cause = NULL;
	int rc;

	rc = runner_run(b, e, tl, res, &cause);
	if (rc != 0) {
		cmd_error(0, "%s", cause);
		free(cause);
		return rc;
	}
	analysis_timeline(tl, a);
	analysis_observer(a, res);
	one.streams = 1;
	one.threads = 1;
	one.chunks = 0;
	timeline_init(&tl1);
	if (e->streams == 1 && e->chunks <= 1) {
		a1 = *a;
	} else {
		rc = runner_run(b, &one, &tl1, &res1, &cause);
		if (rc != 0) {
			cmd_error(0, "the 1-stream reference run failed: %s", cause);
			free(cause);
			timeline_free(&tl1);
			return rc;
		}
		analysis_timeline(&tl1, &a1);
		analysis_observer(&a1, &res1);
	}
	planner_build(e, &ops);
	analysis_compare(a, &a1, ops.nchunks, a->used_ns, a1.used_ns, planner_work_ratio(&ops, &one));
	planner_free(&ops);
	timeline_free(&tl1);
	return CLI_OK;
}

/* cmd_run_exec runs the experiment the options (and the experiment FILE, when given) describe and prints its
 * summary. */
static int cmd_run_exec(const struct cmd_args *args)
{
	struct expopts o;
	const struct ss_backend *b;
	struct ss_timeline tl;
	struct ss_run_result res;
	struct ss_analysis a;
	struct ss_oplist ops;
	struct ss_prediction pr = {0};
	size_t expected[SS_KIND_COUNT];
	int rc;

	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	if ((b = expopts_backend(&o, &rc)) == NULL)
		return rc;
	timeline_init(&tl);
	rc = cmd_run_pair(b, &o.exp, &tl, &res, &a);
	if (rc != 0) {
		timeline_free(&tl);
		return rc;
	}
	planner_build(&o.exp, &ops);
	planner_expected_records(&ops, res.prefetch_records, expected);
	planner_free(&ops);
	if (!res.modelled)
		predict_run(&o.exp, &tl, &pr);
	if (o.json)
		rc = report_run_json(&o.exp, &tl, &res, &a, expected, &pr);
	else
		report_run(&o.exp, &tl, &res, &a, expected, &pr);
	if (rc == 0)
		rc = expopts_export(&o, &tl, &a);
	timeline_free(&tl);
	return rc;
}

static const struct cmd_use cmd_run_uses[] = {
    CMD_USES_EXPERIMENT,    {OPT_BACKEND, NULL, NULL}, {OPT_PROFILE, NULL, NULL},
    {OPT_JSON, NULL, NULL}, {OPT_EXPORT, NULL, NULL},  {OPT_NONE, NULL, NULL},
};

static const struct cmd_refusal cmd_run_refusals[] = {
    {OPT_OUTPUT, "the timeline goes to --export FILE, the summary to stdout"},
    {OPT_NONE, NULL},
};

const struct cmd_entry cmd_run_entry = {
    .name = "run",
    .args = "[FILE]",
    .maxargs = 1,
    .flags = CMD_EXPFILE_ARG,
    .summary = "run one experiment and print its summary (engines, overlap, speedup, the ideal bound)",
    .uses = cmd_run_uses,
    .refusals = cmd_run_refusals,
    .help = "The experiment runs on the GPU (CUDA + CUPTI) when there is one, else on the model, and every number\n"
            "then says MODELLED. It is run a second time on one stream, for the speedup and the bound.\n"
            "\n" CMD_HELP_EXPFILE "(run examples/decrypt.ini --streams 8).",
    .exec = cmd_run_exec,
};
