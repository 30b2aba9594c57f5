/* predict.h: the model's prediction of a run measured on a GPU, shown next to the measurement (run, the TUI). */
#ifndef SS_MODEL_PREDICT_H
#define SS_MODEL_PREDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/experiment.h"
#include "core/timeline.h"

/* The prediction of one run: with the model's profile as it is, and with the call costs the run's own call records
 * show (calibrate_calls: the host's speed differs from one process to the next, which a profile cannot know). */
struct ss_prediction {
	bool have;           /* profile_ns is valid */
	bool have_calls;     /* calls_ns is valid: the run's calls showed costs of their own */
	uint64_t profile_ns; /* modelled makespan with the profile */
	uint64_t calls_ns;   /* modelled makespan with the run's own call costs over the profile's */
	double launch_ns;    /* the run's cudaLaunchKernel cost, untraced; NAN when its calls don't show it */
	double copy_ns;      /* the run's cudaMemcpyAsync cost, untraced; NAN when its calls don't show it */
	char profile[32];    /* the profile's short name */
};

/* predict_run fills pr for the traced GPU run of e whose timeline is tl, with the profile the model backend uses.
 * pr->have stays false when that profile cannot be loaded or the model fails (a run's summary is not held up by
 * its prediction). */
void predict_run(const struct ss_experiment *e, const struct ss_timeline *tl, struct ss_prediction *pr);

#endif
