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
#include "run/sweep.h"

/* report_run prints the summary of one run of e: engines, makespans, overhead, prediction pr (when it has one),
 * overlap, speedup, the ideal bound, records against the expected[] counts of the op list, verification. */
void report_run(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr);
/* report_run_json prints the same as one JSON object (null for what is not known). CLI_OK, or CLI_FAIL when it
 * could not be written. */
int report_run_json(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                    const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr);
/* report_sweep prints the sweep's table: per stream count and order, time, speedup, bound, gap, overhead. */
void report_sweep(const struct ss_sweep *s);
/* report_sweep_json prints the sweep as JSON: the experiment and one object per point. CLI_OK or CLI_FAIL. */
int report_sweep_json(const struct ss_sweep *s);
/* report_ops prints the op list of e, a line per op in issue order after two comment lines. */
void report_ops(const struct ss_experiment *e, const struct ss_oplist *ops);
/* report_ops_json prints the op list as JSON: the experiment, the counts, and one object per op with the fields
 * of struct ss_op and its line. CLI_OK or CLI_FAIL. */
int report_ops_json(const struct ss_experiment *e, const struct ss_oplist *ops);

/* report_json_begin starts a --json document on stdout (pretty), its top map open. */
struct json_out *report_json_begin(void);
/* report_json_end closes the top map and the document and frees o. CLI_OK, or CLI_FAIL after one line when it
 * could not be written. */
int report_json_end(struct json_out *o);

#endif
