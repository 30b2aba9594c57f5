/* report.h: what run, sweep and ops print: the human summaries, and the same as JSON on stdout. */
#ifndef SS_CLI_REPORT_H
#define SS_CLI_REPORT_H

#include <stddef.h>

#include "core/analysis.h"
#include "core/backend.h"
#include "core/experiment.h"
#include "core/planner.h"
#include "core/timeline.h"
#include "io/export/json_out.h"
#include "model/predict.h"
#include "run/claims.h"
#include "run/sweep.h"

/* report_run prints the summary of one run of e: engines, makespans, overhead, prediction pr (when it has one),
 * overlap, speedup, the ideal bound, records against the expected[] counts of the op list, verification; then the
 * documents' claims the run supports (claims_run). */
void report_run(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr);
/* report_run_json prints the same as one JSON object (null for what is not known), its claims as "claims". CLI_OK,
 * or CLI_FAIL when it could not be written. */
int report_run_json(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                    const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr);
/* report_sweep prints the sweep's table: per stream count and order, time, speedup, bound, gap, overhead; then the
 * documents' claims its points support (claims_sweep), with their verdicts. */
void report_sweep(const struct ss_sweep *s);
/* report_sweep_json prints the sweep as JSON: the experiment, one object per point and "claims" (report_claims_json's
 * array). CLI_OK or CLI_FAIL. */
int report_sweep_json(const struct ss_sweep *s);
/* report_claims prints n claims, each as its id, verdict (and "(modelled)") and what was measured, then the claim,
 * what was expected and the evidence on lines of their own. */
void report_claims(const struct ss_claim *c, int n);
/* report_claims_json writes key "claims": an array of n objects (id, document, claim, verdict "holds" |
 * "does-not-hold" | "not-measured", measured, expected, evidence, modelled, values: name -> number or null, and for
 * 001-theory points: [{streams, predicted, measured}]) into the open map o. */
void report_claims_json(struct json_out *o, const struct ss_claim *c, int n);
/* report_claims_runs prints what `claims` ran (device, then a line per run: its role, experiment and time) and
 * its n claims. */
void report_claims_runs(const struct ss_claims_run *runs, int nruns, const struct ss_claim *c, int n);
/* report_claims_runs_json prints the same as one JSON object: modelled, device, "runs" (role, document,
 * experiment, failed/error, and a single run's analysis or a sweep's points) and "claims". CLI_OK or CLI_FAIL. */
int report_claims_runs_json(const struct ss_claims_run *runs, int nruns, const struct ss_claim *c, int n);
/* report_ops prints the op list of e, a line per op in issue order after two comment lines (and the document note,
 * steps and interleave where there are any); the ids are padded to the widest, so the columns after them line up. */
void report_ops(const struct ss_experiment *e, const struct ss_oplist *ops);
/* report_ops_json prints the op list as JSON: the experiment, the counts, and one object per op with the fields
 * of struct ss_op and its line. CLI_OK or CLI_FAIL. */
int report_ops_json(const struct ss_experiment *e, const struct ss_oplist *ops);

/* report_json_begin starts a --json document on stdout (pretty), its top map open. */
struct json_out *report_json_begin(void);
/* report_json_experiment writes key "experiment" into o's open map: e's parameters, an object (docs/json.md). */
void report_json_experiment(struct json_out *o, const struct ss_experiment *e);
/* report_json_end closes the top map and the document and frees o. CLI_OK, or CLI_FAIL after one line when it
 * could not be written. */
int report_json_end(struct json_out *o);

#endif
