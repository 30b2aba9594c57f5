/* cli_export.h: the CLI's --export and the saving of run artefacts. */
#ifndef SS_CLI_CLI_EXPORT_H
#define SS_CLI_CLI_EXPORT_H

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/timeline.h"

/* cli_export_timeline writes tl to path in the format its extension names (e may be NULL). Prints one line on
 * failure and returns CLI_FAIL (CLI_USAGE for an unknown extension); 0 on success. */
int cli_export_timeline(const char *path, const struct ss_timeline *tl, const struct ss_analysis *a,
                        const struct ss_experiment *e);

/* cli_export_all writes tl to each of paths[0..n) (as cli_export_timeline), every one even when an earlier one
 * failed. Returns 0 when all were written, else the first failure's code (each failure printed in its line). */
int cli_export_all(const char *const *paths, int n, const struct ss_timeline *tl, const struct ss_analysis *a,
                   const struct ss_experiment *e);

#endif
