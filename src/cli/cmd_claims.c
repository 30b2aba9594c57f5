/* cmd_claims.c: `streamscope claims`: the runs the source documents' claims need, on the backend picked, and
 * every claim's verdict with its numbers (src/run/claims.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/expopts.h"
#include "cli/report.h"
#include "core/xalloc.h"
#include "run/claims.h"
#include "run/runner.h"
#include "run/sweep.h"

/* cmd_claims_note shows which run is going on, on stderr, only for a terminal. */
static void cmd_claims_note(const char *role, const char *what)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K  claims: %s %s", role, what);
	fflush(stderr);
}

/* The role of the sweep under way, for cmd_claims_progress (the sweep's callback has no context of its own). */
static const char *cmd_claims_sweeping;

static void cmd_claims_progress(const struct ss_sweep *s, size_t idx)
{
	char what[64];

	snprintf(what, sizeof what, "%zu/%zu: %d stream%s", sweep_progress(s), s->n, s->pt[idx].streams,
	         s->pt[idx].streams == 1 ? "" : "s");
	cmd_claims_note(cmd_claims_sweeping, what);
}

/* cmd_claims_bases fills base[p] with preset p as the command line shapes it: the line's options over each
 * preset's defaults (expopts_parse on the options with that preset added last, which wins). Returns 0 or the exit
 * status after expopts' line. */
static int cmd_claims_bases(const struct cmd_args *args, struct ss_experiment base[SS_PRESET_COUNT], struct expopts *o)
{
	struct cmd_args a = *args;
	int rc = 0;

	a.item = xcalloc((size_t)args->nitem + 1, sizeof *a.item);
	memcpy(a.item, args->item, (size_t)args->nitem * sizeof *a.item);
	a.nitem = args->nitem + 1;
	for (int p = 0; p < SS_PRESET_COUNT && rc == 0; p++) {
		a.item[args->nitem] = (struct cmd_item){OPT_PRESET, experiment_preset_name(p)};
		if ((rc = expopts_parse(&a, o)) == 0)
			base[p] = o->exp;
	}
	free(a.item);
	return rc;
}

/* cmd_claims_exec runs what the claims of the documents (all, or --preset's) need and prints the verdicts. */
static int cmd_claims_exec(const struct cmd_args *args)
{
	struct ss_experiment base[SS_PRESET_COUNT];
	struct ss_claims_run runs[SS_CLAIMS_ROLE_COUNT];
	struct ss_claim claims[SS_CLAIMS_MAX];
	struct expopts o;
	const struct ss_backend *b;
	const char *preset;
	unsigned docs = SS_CLAIMS_DOCS_ALL;
	int nruns, n, rc, failed = 0;

	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	if (cmd_has(args, OPT_PRESET, &preset)) {
		docs = claims_document(o.exp.preset);
		if (docs == 0) {
			char valid[256] = "";

			for (int p = 0; p < SS_PRESET_COUNT; p++)
				if (claims_document((enum ss_preset)p) != 0)
					snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
					         valid[0] != '\0' ? "|" : "", experiment_preset_name(p));
			return cmd_error(CLI_USAGE, "--preset %s: no document's claims use it; valid are %s", preset,
			                 valid);
		}
	}
	if ((rc = cmd_claims_bases(args, base, &o)) != 0)
		return rc;
	if ((b = expopts_backend(&o, &rc)) == NULL)
		return rc;
	nruns = claims_plan(docs, base, runs);
	for (int i = 0; i < nruns; i++) {
		struct ss_claims_run *r = &runs[i];
		char *cause = NULL;

		if (r->sweep) {
			cmd_claims_sweeping = claims_role_name(r->role);
			/* a failed point leaves the claims that need it not measured; the rest still run */
			while ((rc = sweep_run(&r->s, b, cmd_claims_progress, &cause)) != 0) {
				failed = failed ? failed : rc;
				free(cause);
				cause = NULL;
			}
		} else {
			struct ss_timeline tl;
			struct ss_run_result res;

			cmd_claims_note(claims_role_name(r->role), "");
			timeline_init(&tl);
			rc = runner_run(b, &r->e, &tl, &res, &cause);
			claims_run_done(r, &tl, rc == 0 ? &res : NULL, cause);
			if (rc != 0)
				failed = failed ? failed : rc;
			free(cause);
			timeline_free(&tl);
		}
	}
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	n = claims_evaluate(docs, runs, nruns, claims);
	if (o.json)
		rc = report_claims_runs_json(runs, nruns, claims, n);
	else {
		report_claims_runs(runs, nruns, claims, n);
		rc = CLI_OK;
	}
	claims_plan_free(runs, nruns);
	if (failed != 0)
		cmd_error(0, "a run failed: its claims were not measured (see above)");
	return rc != CLI_OK ? rc : failed;
}

static const struct cmd_use cmd_claims_uses[] = {
    {OPT_PRESET, NULL, "only the claims of the document this preset is from (default: every document's)"},
    {OPT_CONNECTIONS, NULL, NULL},
    {OPT_REPEAT, NULL, NULL},
    {OPT_WARMUP, NULL, NULL},
    {OPT_BACKEND, NULL, NULL},
    {OPT_PROFILE, NULL, NULL},
    {OPT_JSON, NULL, NULL},
    {OPT_NONE, NULL, NULL},
};

/* The options that would change what a document's experiments are: the claims set them as the documents do. */
#define CMD_CLAIMS_OWN                                                                                                 \
	"each document's experiments run as the document writes them, and a claim that compares two toggles the "      \
	"option itself; change one with 'streamscope run' or 'sweep'"

static const struct cmd_refusal cmd_claims_refusals[] = {
    {OPT_STREAMS, CMD_CLAIMS_OWN},
    {OPT_CHUNKS, CMD_CLAIMS_OWN},
    {OPT_ELEMENTS, CMD_CLAIMS_OWN},
    {OPT_WORK, CMD_CLAIMS_OWN},
    {OPT_KERNEL, CMD_CLAIMS_OWN},
    {OPT_BLOCK, CMD_CLAIMS_OWN},
    {OPT_GRID, CMD_CLAIMS_OWN},
    {OPT_SPLIT, CMD_CLAIMS_OWN},
    {OPT_ORDER, CMD_CLAIMS_OWN},
    {OPT_SYNC, CMD_CLAIMS_OWN},
    {OPT_DEFSTREAM, CMD_CLAIMS_OWN},
    {OPT_STREAM_FLAGS, CMD_CLAIMS_OWN},
    {OPT_HOSTMEM, CMD_CLAIMS_OWN},
    {OPT_THREADS, CMD_CLAIMS_OWN},
    {OPT_PREFETCH_EVENTS, CMD_CLAIMS_OWN},
    {OPT_EXPORT, "the claims come from many runs; export one with 'streamscope run ... --export FILE'"},
    {OPT_NONE, NULL},
};

const struct cmd_entry cmd_claims_entry = {
    .name = "claims",
    .args = "",
    .summary = "check the source documents' claims on this GPU (or the model), with the numbers",
    .uses = cmd_claims_uses,
    .refusals = cmd_claims_refusals,
    .help = "Runs what the claims of the four source documents need: document 001's kernel-transfer over 1, 2,\n"
            "4 ... 128 streams and the 20 of its words; document 000's decrypt on 1, 3 (a tail chunk) and 32\n"
            "streams; document 003's vector-add in its best and weaker orders, sync-order synchronised in order\n"
            "and in reverse, and\n"
            "default-stream with nothing, an event timer and cudaGetLastError on stream 0; document 004's\n"
            "managed-threads tasks on one host thread and on a thread per task. Then prints each claim's\n"
            "verdict (holds, does not hold, not measured here) with what was measured and the tolerance it was\n"
            "held to. On the model the numbers are the model's, labelled modelled. In the TUI, C lists the\n"
            "claims of the run or the sweep on screen, and of a pinned run against the next.",
    .exits = "0 every run ran (whatever the verdicts), 2 usage error, 3 a run failed (its claims: not measured)",
    .exec = cmd_claims_exec,
};
