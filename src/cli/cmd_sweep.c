/* cmd_sweep.c: `streamscope sweep`: an experiment over a list of stream counts, in one or both issue orders. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "cli/report.h"
#include "run/sweep.h"

/* Whether a progress line is on stderr now (drawn and not yet cleared): only ever on a terminal. */
static bool cmd_sweep_line;

/* cmd_sweep_progress shows the sweep's progress on stderr, only for a terminal: a line redrawn after each point
 * that ran, cleared after the last point or a failed one (whose error line then starts a clean line). */
static void cmd_sweep_progress(const struct ss_sweep *s, size_t idx)
{
	if (!isatty(STDERR_FILENO))
		return;
	if (s->pt[idx].failed || sweep_progress(s) == s->n) {
		if (cmd_sweep_line)
			fputs("\r\033[K", stderr);
		cmd_sweep_line = false;
	} else {
		fprintf(stderr, "\r  sweep %zu/%zu: %d stream%s %s   ", sweep_progress(s), s->n, s->pt[idx].streams,
		        s->pt[idx].streams == 1 ? "" : "s", experiment_order_label(s->pt[idx].order));
		cmd_sweep_line = true;
	}
	fflush(stderr);
}

/* cmd_sweep_exec runs the sweep the options describe and prints its table. */
static int cmd_sweep_exec(const struct cmd_args *args)
{
	struct expopts o;
	const struct ss_backend *b;
	struct ss_sweep s;
	int counts[SS_SWEEP_MAX_COUNTS], ncounts, rc;
	enum ss_order orders[2];
	char *cause = NULL;

	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	if (o.counts == NULL) {
		ncounts = sweep_default_counts(&o.exp, counts);
	} else if (sweep_parse_counts(o.counts, counts, &ncounts, &cause) != 0) {
		cmd_error(CLI_USAGE, "%s", cause);
		free(cause);
		return CLI_USAGE;
	}
	if ((b = expopts_backend(&o, &rc)) == NULL)
		return rc;
	sweep_both_orders(&o.exp, orders);
	if (!o.both_orders)
		orders[0] = o.exp.order;
	sweep_init(&s, &o.exp, counts, ncounts, orders, o.both_orders ? 2 : 1);
	rc = sweep_run(&s, b, cmd_sweep_progress, &cause);
	if (rc != 0) {
		cmd_error(0, "%s", cause);
		free(cause);
		sweep_free(&s);
		return rc;
	}
	if (o.json)
		rc = report_sweep_json(&s);
	else
		report_sweep(&s);
	sweep_free(&s);
	return rc;
}

static const struct cmd_use cmd_sweep_uses[] = {
    CMD_USES_EXPERIMENT,
    {OPT_STREAMS, "LIST",
     "stream counts, each 1..128 (default 1,2,4,8,16,32,64,128, as far as --devices N leaves 128/N\n"
     "to each device; or an experiment file's streams when they are a list: streams = 1,2,4; at most 32\n"
     "of them)"},
    {OPT_ORDER, NULL,
     "depth|breadth|best|weaker|both (both: a column for each of depth and breadth, or of best and weaker\n"
     "where the experiment is in one of them: vector-add, or of an experiment file's interleave and depth)"},
    {OPT_BACKEND, NULL, NULL},
    {OPT_PROFILE, NULL, NULL},
    {OPT_JSON, NULL, NULL},
    {OPT_NONE, NULL, NULL},
};

static const struct cmd_refusal cmd_sweep_refusals[] = {
    {OPT_EXPORT, "a sweep has a timeline per point; export one with 'streamscope run --streams N --export FILE'"},
    {OPT_NONE, NULL},
};

const struct cmd_entry cmd_sweep_entry = {
    .name = "sweep",
    .args = "[FILE]",
    .maxargs = 1,
    .flags = CMD_EXPFILE_ARG,
    .summary = "run an experiment over stream counts (time, speedup, ideal bound)",
    .uses = cmd_sweep_uses,
    .refusals = cmd_sweep_refusals,
    .help = "Each point is a run of the experiment with that many streams (and one thread per stream with\n"
            "--threads N > 1 or per-stream). Time is the CUPTI makespan, or the untraced cudaEvent makespan\n"
            "where tracing overhead is over 1%.\n"
            "\n" CMD_HELP_EXPFILE "(sweep examples/pipeline.ini --streams 1,2,4).",
    .exec = cmd_sweep_exec,
};
