/* cmd_analyze.c: `streamscope analyze [FILE]`: the insights (core/insight) of a trace (any file `view` opens), or
 * of a run of the experiment the options describe when no FILE is given: what is wrong with the overlap, the
 * evidence, the fix and what it would gain; as text or as one JSON object with an `insights` array. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/backends.h"
#include "cli/cmd.h"
#include "cli/expopts.h"
#include "cli/report.h"
#include "core/analysis.h"
#include "core/experiment.h"
#include "core/insight.h"
#include "core/text.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "model/model.h"
#include "run/claims.h"
#include "run/remedy.h"

/* cmd_analyze_puts prints before, then s as text_fputs shows it (what a trace named, its controls as '?'), then
 * after. */
static void cmd_analyze_puts(const char *before, const char *s, const char *after)
{
	fputs(before, stdout);
	text_fputs(s, stdout);
	fputs(after, stdout);
}

/* cmd_analyze_print prints the insights as text; what names the trace or the experiment; rem the fixes as
 * experiment changes (NULL for a trace); then the documents' claims the run or trace supports (claims, nclaims). Every
 * string that may hold a name from the trace (the device, the summaries and evidence that quote kernel names) goes
 * through text_fputs: no control byte reaches the terminal. */
static void cmd_analyze_print(const struct ss_timeline *t, const struct ss_insights *in, const char *what,
                              const struct ss_remedy *rem, const struct ss_claim *claims, int nclaims)
{
	char b[32];

	cmd_analyze_puts("", what, "\n");
	if (t->device[0] != '\0')
		cmd_analyze_puts("device ", t->device, t->modelled ? " (MODELLED: not measured)\n" : "\n");
	if (in->n == 0)
		printf("\nno insight: no rule found a problem in this timeline\n");
	for (size_t i = 0; i < in->n; i++) {
		const struct ss_insight *x = &in->item[i];

		printf("\n[%s] %s: ", insight_severity_name(x->severity), x->rule);
		cmd_analyze_puts("", x->summary, "\n");
		cmd_analyze_puts("  evidence: ", x->evidence, "\n");
		cmd_analyze_puts("  fix: ", x->fix, "\n");
		if (rem != NULL && rem[i].rule != NULL)
			cmd_analyze_puts("  try: ", rem[i].change, "\n");
		if (x->have_gain) {
			printf("  gain: %s (", units_time(x->gain_ns, b, sizeof b));
			cmd_analyze_puts("", x->gain_how, ")\n");
		} else {
			printf("  gain: - (no sound estimate from the timeline)\n");
		}
		if (rem != NULL && rem[i].rule != NULL && rem[i].measured) {
			char b1[32], b2[32];
			uint64_t m0 = rem[i].measured_before_ns, m1 = rem[i].measured_after_ns;

			printf("  measured: %s -> %s on ", units_time(m0, b1, sizeof b1),
			       units_time(m1, b2, sizeof b2));
			text_fputs(t->device, stdout);
			printf(", %s%.1f%% (median of %d alternating runs each)\n", m1 <= m0 ? "-" : "+",
			       100.0 * (m1 <= m0 ? (double)(m0 - m1) : (double)(m1 - m0)) / (double)m0, rem[i].rounds);
		}
	}
	if (nclaims > 0) {
		printf("\nthe documents' claims this %s supports%s\n", rem != NULL ? "run" : "trace",
		       t->modelled ? " (MODELLED)" : "");
		report_claims(claims, nclaims);
	}
}

/* cmd_analyze_json prints the insights as one JSON object; file is the trace's path, NULL for a run; rem, claims
 * and nclaims as cmd_analyze_print's. */
static int cmd_analyze_json(const struct ss_timeline *t, const struct ss_insights *in, const char *file,
                            const struct ss_remedy *rem, const struct ss_claim *claims, int nclaims)
{
	struct json_out *o = report_json_begin();

	json_out_key_str(o, "file", file);
	json_out_key_str(o, "backend", t->backend);
	json_out_key_str(o, "device", t->device[0] != '\0' ? t->device : NULL); /* null: the trace names none */
	json_out_key_bool(o, "modelled", t->modelled);
	json_out_key(o, "insights");
	json_out_array_begin(o);
	for (size_t i = 0; i < in->n; i++) {
		const struct ss_insight *x = &in->item[i];
		size_t n = x->nrec < SS_INSIGHT_MAX_RECS ? x->nrec : SS_INSIGHT_MAX_RECS;

		json_out_map_begin(o);
		json_out_key_str(o, "rule", x->rule);
		json_out_key_str(o, "severity", insight_severity_name(x->severity));
		json_out_key_str(o, "summary", x->summary);
		json_out_key(o, "evidence");
		json_out_map_begin(o);
		json_out_key_str(o, "text", x->evidence);
		json_out_key_uint(o, "record_count", x->nrec);
		json_out_key(o, "records");
		json_out_array_begin(o);
		for (size_t k = 0; k < n; k++)
			json_out_uint(o, x->rec[k]);
		json_out_array_end(o);
		json_out_key_uint(o, "start_ns", x->t0);
		json_out_key_uint(o, "end_ns", x->t1);
		json_out_map_end(o);
		json_out_key_str(o, "fix", x->fix);
		json_out_key_str(o, "change", rem != NULL && rem[i].rule != NULL ? rem[i].change : NULL);
		json_out_key(o, "gain");
		if (x->have_gain) {
			bool re = rem != NULL && rem[i].rule != NULL;

			json_out_map_begin(o);
			json_out_key_uint(o, "ns", x->gain_ns);
			json_out_key_str(o, "how", x->gain_how);
			/* modelled: the model re-ran the experiment with the fix; else an estimate from the timeline */
			json_out_key_bool(o, "modelled", re && rem[i].modelled);
			json_out_key_bool(o, "estimate", !re);
			if (re) {
				json_out_key_uint(o, "before_ns", rem[i].before_ns);
				json_out_key_uint(o, "after_ns", rem[i].after_ns);
			}
			json_out_key(o, "measured"); /* --verify: both re-run on the GPU */
			if (re && rem[i].measured) {
				json_out_map_begin(o);
				json_out_key_uint(o, "before_ns", rem[i].measured_before_ns);
				json_out_key_uint(o, "after_ns", rem[i].measured_after_ns);
				json_out_key_int(o, "rounds", rem[i].rounds);
				json_out_map_end(o);
			} else {
				json_out_null(o);
			}
			json_out_map_end(o);
		} else {
			json_out_null(o);
		}
		json_out_map_end(o);
	}
	json_out_array_end(o);
	report_claims_json(o, claims, nclaims);
	return report_json_end(o);
}

/* cmd_analyze_exec analyses the trace FILE, or a run of the experiment the options describe. */
static int cmd_analyze_exec(const struct cmd_args *args)
{
	struct expopts o;
	struct ss_timeline tl;
	struct ss_analysis a;
	struct ss_insights *in;
	struct ss_remedy *rem = NULL;
	const struct ss_backend *gpu = NULL;
	const char *file = args->npos > 0 ? args->pos[0] : NULL;
	struct ss_experiment stored;
	struct ss_claim claims[SS_CLAIMS_MAX];
	char what[512], *cause = NULL;
	int rc, nclaims = 0;

	for (int i = 0; file != NULL && i < args->nitem; i++)
		if (args->item[i].id == OPT_VERIFY)
			return cmd_error(CLI_USAGE,
			                 "analyze FILE --verify: a trace cannot be re-run; --verify re-runs an "
			                 "experiment's fixes on the GPU (analyze without FILE)");
		else if (args->item[i].id != OPT_JSON)
			return cmd_error(
			    CLI_USAGE,
			    "option '%s' does not apply to 'analyze FILE': a trace's experiment is the one it "
			    "recorded (without FILE, analyze runs the experiment the options describe)",
			    cmd_option_name(args->item[i].id));
	if ((rc = expopts_parse(args, &o)) != 0)
		return rc;
	if (cmd_has(args, OPT_VERIFY, NULL) &&
	    (gpu = backends_verify("analyze", "the fixes", "their gains are the model's", &rc)) == NULL)
		return rc;
	timeline_init(&tl);
	if ((rc = expopts_run(&o, file, &tl, what, sizeof what)) != 0) {
		timeline_free(&tl);
		return rc;
	}
	timeline_sort(&tl);
	analysis_timeline(&tl, &a);
	in = xmalloc(sizeof *in);
	insight_analyze_run(&tl, &a, file == NULL ? &o.exp : NULL, in);
	if (file == NULL) {
		/* the fixes re-run on the model: every gain of an experiment change is the model's */
		rem = xcalloc(SS_INSIGHT_MAX, sizeof *rem);
		if (remedy_apply(&model_backend, &o.exp, in, rem, &cause) != 0) {
			rc = cmd_error(CLI_FAIL, "the model could not re-run a fix: %s", cause);
			free(cause);
			goto out;
		}
		for (size_t i = 0; gpu != NULL && i < in->n; i++) {
			if (rem[i].rule == NULL)
				continue;
			if (isatty(2))
				fprintf(stderr, "\r  verify %s: %s on the GPU   ", rem[i].rule, rem[i].change);
			if ((rc = remedy_verify(gpu, &o.exp, &rem[i], &cause)) != 0) {
				cmd_error(0, "analyze --verify: %s", cause);
				free(cause);
				cause = NULL;
			}
		}
		if (gpu != NULL && isatty(2))
			fprintf(stderr, "\r%60s\r", "");
	}
	/* the documents' claims: a run's, or a trace's that says which of their programs it ran */
	if (file == NULL || expopts_stored_experiment(file, &tl, &stored))
		nclaims = claims_timeline(file == NULL ? &o.exp : &stored, &tl, &a, tl.modelled, claims);
	if (o.json)
		rc = cmd_analyze_json(&tl, in, file, rem, claims, nclaims);
	else
		cmd_analyze_print(&tl, in, what, rem, claims, nclaims);
out:
	free(rem);
	free(in);
	timeline_free(&tl);
	return rc;
}

static const struct cmd_use cmd_analyze_uses[] = {
    CMD_USES_EXPERIMENT,
    {OPT_BACKEND, NULL, NULL},
    {OPT_PROFILE, NULL, NULL},
    {OPT_VERIFY, NULL,
     "re-run each fix and the experiment itself on the GPU, alternately, and report the measured gain"},
    {OPT_JSON, NULL, "one object with an 'insights' and a 'claims' array on stdout (times in ns)"},
    {OPT_NONE, NULL, NULL},
};

const struct cmd_entry cmd_analyze_entry = {
    .name = "analyze",
    .args = "[FILE]",
    .maxargs = 1,
    .summary = "what limits the overlap of a trace, or without FILE of a run of the experiment the options\n"
               "describe: each insight's rule, evidence, fix and gain",
    .uses = cmd_analyze_uses,
    .help = "Runs the insight rules over a timeline. Each insight has a stable rule id (pageable-copy,\n"
            "legacy-stream-sync, false-dependency, host-sync-order, no-overlap, engine-bound, small-copies,\n"
            "launch-bound, low-kernel-concurrency, gpu-idle, managed-migration, tracing-perturbation,\n"
            "misaligned-chunks), a severity (problem, hint or info), a one-line summary, the evidence (the\n"
            "numbers, the record indices and the time range it rests on), the fix, and the gain.\n"
            "\n"
            "misaligned-chunks needs the experiment (a run, not a FILE: a trace has no addresses): the kernels of\n"
            "chunks whose data start off a 128-byte line against those on a line, per element; a problem when\n"
            "they are 10% slower or more and kernels bound the run; its fix is the nearest stream count (with\n"
            "--chunks, chunk count) below or above that puts every chunk on a line, the farther one where the\n"
            "model finds it 1% faster or more.\n"
            "\n"
            "FILE is any trace 'view' opens (streamscope SQLite or JSON, Nsight Systems SQLite export): a gain\n"
            "there is an estimate from the timeline with how it was made, or '-' (null in JSON) where none is\n"
            "sound. Without FILE, the experiment the options describe is run (as 'streamscope run' runs it: the\n"
            "GPU, or the model, labelled MODELLED) and analysed, and each fix that is a change of its options\n"
            "('try: --host-mem pinned') is re-run on the model: that gain is MODELLED. --verify re-runs each such\n"
            "fix and the experiment itself on the GPU, alternately, and reports the measured times too. A\n"
            "finding another one explains is left out (no-overlap under pageable copies, say). With FILE only\n"
            "--json applies.\n"
            "\n"
            "Then the source documents' claims the run supports, as 'run' prints them; for FILE, those of the run\n"
            "a streamscope SQLite export says it recorded (its preset's own work on one GPU), measured where it\n"
            "was measured.",
    .exits = "0 ok, 1 the file cannot be read, 2 usage error, 3 CUDA/CUPTI failure",
    .exec = cmd_analyze_exec,
};
