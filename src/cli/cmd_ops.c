/* cmd_ops.c: `streamscope ops`: the op list (the exact CUDA calls, in issue order) an experiment plans. */
#include "cli/cmd.h"
#include "cli/expopts.h"
#include "cli/report.h"
#include "core/planner.h"

/* cmd_ops_exec prints the op list of the experiment the options (and the experiment FILE, when given) describe. */
static int cmd_ops_exec(const struct cmd_args *args)
{
	struct expopts o;
	struct ss_oplist ops;
	int rc;

	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	planner_build(&o.exp, &ops);
	if (o.json)
		rc = report_ops_json(&o.exp, &ops);
	else
		report_ops(&o.exp, &ops);
	planner_free(&ops);
	return rc;
}

static const struct cmd_use cmd_ops_uses[] = {
    CMD_USES_PLAN,
    {OPT_JSON, NULL, "the op list as JSON on stdout"},
    {OPT_NONE, NULL, NULL},
};

static const struct cmd_refusal cmd_ops_refusals[] = {
    {OPT_REPEAT, "the op list is that of one run, whatever the repeats"},
    {OPT_WARMUP, "the op list is that of one run, whatever the repeats"},
    {OPT_NONE, "the op list is planned, not run: no backend, no timeline (--json prints it as JSON)"},
    {OPT_NONE, NULL},
};

const struct cmd_entry cmd_ops_entry = {
    .name = "ops",
    .args = "[FILE]",
    .maxargs = 1,
    .flags = CMD_EXPFILE_ARG,
    .summary = "print the op list (the exact CUDA calls) of an experiment",
    .uses = cmd_ops_uses,
    .refusals = cmd_ops_refusals,
    .help = CMD_HELP_EXPFILE "(ops examples/interleave.ini --order depth).",
    .exec = cmd_ops_exec,
};
