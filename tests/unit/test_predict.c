/* test_predict.c: the model's prediction of a measured run, with the profile and with the run's own call costs,
 * on a run whose call records are known (the model's own timeline, whose calls cost exactly the profile's). */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/experiment.h"
#include "core/timeline.h"
#include "model/model.h"
#include "model/predict.h"
#include "model/profile.h"

/* hyperq breadth-first is bound by its launches: taken as a traced GPU run, its call records are CUPTI's cost per
 * call shorter than the profile's launch cost would make them, so the prediction with the run's calls is faster,
 * and says by how much the launches cost. */
static void test_predict_run(void **state)
{
	struct ss_experiment e;
	struct ss_timeline tl;
	struct ss_run_result res;
	struct ss_prediction pr;
	struct ss_profile p;
	char *cause = NULL;

	(void)state;
	profile_builtin(&p);
	model_set_profile(&p);
	experiment_preset(&e, SS_PRESET_HYPERQ);
	e.order = SS_ORDER_BREADTH;
	timeline_init(&tl);
	if (model_timeline(&e, &p, &tl, &res, &cause) != 0)
		fail_msg("model: %s", cause);
	predict_run(&e, &tl, &pr);
	assert_true(pr.have);
	assert_string_equal(pr.profile, p.name);
	assert_int_equal(pr.profile_ns, model_makespan(&e, &p, &cause));
	assert_true(pr.have_calls);
	assert_true(fabs(pr.launch_ns - (p.api_launch_ns - p.trace_ns)) <= 1.0);
	assert_true(isnan(pr.copy_ns)); /* hyperq issues no copies */
	assert_true(pr.calls_ns < pr.profile_ns);
	timeline_free(&tl);
	/* a run whose calls wait (default-stream's legacy op): no prediction from its calls */
	experiment_preset(&e, SS_PRESET_DEFAULT_STREAM);
	timeline_init(&tl);
	if (model_timeline(&e, &p, &tl, &res, &cause) != 0)
		fail_msg("model: %s", cause);
	predict_run(&e, &tl, &pr);
	assert_true(pr.have);
	assert_false(pr.have_calls);
	timeline_free(&tl);
	model_set_profile(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_predict_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
