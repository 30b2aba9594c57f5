/* predict.c: the model's prediction of a run measured on a GPU, with the profile and with the run's call costs. */
#include "model/predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/calibrate.h"
#include "model/model.h"

void predict_run(const struct ss_experiment *e, const struct ss_timeline *tl, struct ss_prediction *pr)
{
	struct ss_profile p, own;
	char *cause = NULL;

	memset(pr, 0, sizeof *pr);
	pr->launch_ns = pr->copy_ns = NAN;
	if (model_get_profile(&p, &cause) != 0 || (pr->profile_ns = model_makespan(e, &p, &cause)) == 0) {
		free(cause);
		return;
	}
	pr->have = true;
	snprintf(pr->profile, sizeof pr->profile, "%s", p.name);
	own = p;
	if (calibrate_calls(e, tl, p.trace_ns, &own) == 0 && (pr->calls_ns = model_makespan(e, &own, &cause)) > 0) {
		pr->have_calls = true;
		if (own.api_launch_ns != p.api_launch_ns)
			pr->launch_ns = own.api_launch_ns;
		if (own.api_copy_ns != p.api_copy_ns)
			pr->copy_ns = own.api_copy_ns;
	}
	free(cause);
}
