/* test_advise.c: the advisor's search on the model: for kernel-transfer the fastest configuration found is no
 * slower than any point of a grid this test models itself, and the advice is within the tolerance of that grid's
 * best; for every preset the advice is never slower than the current configuration, its time is what the model
 * gives for it, and only the fields that apply were varied; ties and near-ties go to fewer launches and streams;
 * the search is deterministic; the spread of the model's ties; verify's plan, and verify through the runner on a
 * stand-in GPU (untraced times, the fastest, a failure kept with its reason); refusals. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/experiment.h"
#include "model/model.h"
#include "model/profile.h"
#include "run/advise.h"

/* The model's makespan of e, failing the test when the model refuses it. */
static uint64_t modelled(const struct ss_experiment *e)
{
	struct ss_profile p;
	char *cause = NULL;
	uint64_t t;

	if (model_get_profile(&p, &cause) != 0)
		fail_msg("profile: %s", cause);
	t = model_makespan(e, &p, &cause);
	if (t == 0)
		fail_msg("model: %s", cause);
	return t;
}

/* search runs the advisor on preset p with tolerance tol (negative: the default). */
static void search(enum ss_preset p, double tol, struct ss_advice *a)
{
	struct ss_experiment e;
	struct ss_advise_opts o = {tol, 0};
	char *cause = NULL;

	experiment_preset(&e, p);
	if (advise_search(&model_backend, &e, &o, a, &cause) != 0)
		fail_msg("advise %s: %s", experiment_preset_name(p), cause);
}

/* kernel-transfer: the grid of streams 1..128 (powers of two), 1, 2 and 4 chunks per stream, depth and breadth,
 * 1, 8 and 32 queues, modelled here point by point: nothing in it is faster than the fastest found, and the
 * advice (1% tolerance) is within 1% of the grid's best; with tolerance 0 the advice is the fastest. */
static void test_grid(void **state)
{
	struct ss_advice *a = malloc(sizeof *a), *a0 = malloc(sizeof *a0);
	struct ss_experiment base;
	uint64_t gridbest = UINT64_MAX;
	static const int ks[] = {1, 2, 4}, qs[] = {8, 16, 32}; /* the preset's 8 queues and more: never fewer */
	int points = 0;

	(void)state;
	search(SS_PRESET_KERNEL_TRANSFER, -1, a);
	search(SS_PRESET_KERNEL_TRANSFER, 0, a0);
	experiment_preset(&base, SS_PRESET_KERNEL_TRANSFER);
	for (int n = 1; n <= 128; n *= 2)
		for (int k = 0; k < 3; k++)
			for (int o = SS_ORDER_DEPTH; o <= SS_ORDER_BREADTH; o++)
				for (int q = 0; q < 3; q++) {
					struct ss_experiment e = base;
					uint64_t t;

					e.streams = n;
					e.chunks = ks[k] == 1 ? 0 : n * ks[k];
					e.order = (enum ss_order)o;
					e.connections = qs[q];
					t = modelled(&e);
					points++;
					if (t < gridbest)
						gridbest = t;
					if (a->fastest.predicted_ns > t)
						fail_msg("grid point %d streams %d chunks %s %d queues: %llu ns, "
						         "faster than "
						         "the fastest found %llu ns",
						         n, e.chunks, experiment_order_name(o), qs[q],
						         (unsigned long long)t,
						         (unsigned long long)a->fastest.predicted_ns);
					if (a0->best.predicted_ns > t)
						fail_msg(
						    "tolerance 0: the advice %llu ns is slower than a grid point %llu",
						    (unsigned long long)a0->best.predicted_ns, (unsigned long long)t);
				}
	assert_int_equal(points, 8 * 3 * 2 * 3);
	assert_true((double)a->best.predicted_ns <= (double)gridbest * 1.01);
	assert_true(a0->best.predicted_ns == a0->fastest.predicted_ns);
	/* the search did well with far fewer than the product of its dimensions */
	assert_true(a->searched > 50);
	assert_true(a->searched < 2000);
	free(a);
	free(a0);
}

/* Every preset: the advice is never slower than now, its times are the model's own, its gain adds up, its fields
 * are valid, and what was varied fits the preset. */
static void test_presets(void **state)
{
	struct ss_advice *a = malloc(sizeof *a);

	(void)state;
	for (int p = 0; p < SS_PRESET_COUNT; p++) {
		struct ss_experiment cur;
		char *cause = NULL;

		search((enum ss_preset)p, -1, a);
		experiment_preset(&cur, (enum ss_preset)p);
		assert_true(a->best.predicted_ns > 0);
		assert_true(a->best.predicted_ns <= a->current.predicted_ns);
		assert_true(a->fastest.predicted_ns <= a->best.predicted_ns);
		assert_true((double)a->best.predicted_ns <= (double)a->fastest.predicted_ns * 1.01 + 1);
		assert_true(a->gain_ns >= 0);
		assert_int_equal(a->gain_ns, (int64_t)a->current.predicted_ns - (int64_t)a->best.predicted_ns);
		assert_int_equal(a->current.predicted_ns, modelled(&cur));
		assert_int_equal(a->best.predicted_ns, modelled(&a->best.e));
		assert_int_equal(a->fastest.predicted_ns, modelled(&a->fastest.e));
		if (experiment_validate(&a->best.e, &cause) != 0)
			fail_msg("%s: the advice is not a valid experiment: %s", experiment_preset_name(p), cause);
		/* sizes and work kept */
		assert_int_equal(a->best.e.elements, cur.elements);
		assert_int_equal(a->best.e.work, cur.work);
		assert_int_equal(a->best.e.kernel, cur.kernel);
		assert_int_equal(a->best.e.elem_size, cur.elem_size);
		assert_int_equal(a->best.e.defstream, cur.defstream);
		assert_true(a->explanation[0] != '\0');
		/* the caveat exactly where the advice has many chunks a stream (kernel-transfer's 3 streams of 32) */
		assert_int_equal(strstr(a->explanation, "the model is least sure") != NULL,
		                 !a->best_is_current && a->best.nchunks >= 6 * a->best.e.streams);
		if (p == SS_PRESET_KERNEL_TRANSFER)
			assert_non_null(strstr(a->explanation, "least sure"));
		assert_true(a->ntop >= 1 && a->ntop <= SS_ADVISE_TOP);
		for (size_t i = 1; i < a->ntop; i++)
			assert_true(a->top[i - 1].predicted_ns < a->top[i].predicted_ns);
		assert_int_equal(a->top[0].predicted_ns, a->fastest.predicted_ns);
		if (cur.kernel == SS_KERNEL_SPIN) {
			/* hyperq: each stream runs kernels of its own, so the count is the work */
			assert_false(a->varied & SS_ADV_STREAMS);
			assert_int_equal(a->best.e.streams, cur.streams);
			assert_false(a->varied & SS_ADV_HOSTMEM);
		} else {
			assert_true(a->varied & SS_ADV_STREAMS);
		}
		if (cur.kernel == SS_KERNEL_TASK) {
			assert_int_equal(a->best.e.hostmem, SS_MEM_MANAGED_ATTACH);
			assert_int_equal(a->best.e.order, SS_ORDER_DEPTH);
			assert_int_equal(a->best.e.threads, a->best.e.streams);
		}
		assert_int_equal((a->varied & SS_ADV_FLAGS) != 0, cur.defstream != SS_DS_NONE);
	}
	free(a);
}

/* The ranking: fewer launches and streams together first, then fewer launches, then fewer changed fields, then
 * fewer queues. */
static void test_cost(void **state)
{
	struct ss_experiment cur;
	struct ss_advise_cand x, y;

	(void)state;
	experiment_preset(&cur, SS_PRESET_KERNEL_TRANSFER);
	x.e = y.e = cur;
	x.nchunks = y.nchunks = 32;
	x.e.streams = 8;
	y.e.streams = 16; /* a tie in launches: fewer streams wins */
	assert_true(advise_cost(&x, &cur) < advise_cost(&y, &cur));
	y.e.streams = 8;
	y.e.connections = 32; /* a changed field */
	assert_true(advise_cost(&x, &cur) < advise_cost(&y, &cur));
	y.e = cur;
	y.e.streams = 32;
	y.nchunks = 32; /* 32 streams of one chunk against 8 of 4: the same launches, more streams */
	assert_true(advise_cost(&x, &cur) < advise_cost(&y, &cur));
	x.nchunks = 31;
	x.e.streams = 31;
	y.nchunks = 32;
	y.e.streams = 8; /* 8 streams x 4 is simpler than 31 x 1 */
	assert_true(advise_cost(&y, &cur) < advise_cost(&x, &cur));
}

/* A tie: with the chunks fixed (36) and only the stream count varied, many stream counts give the same modelled
 * time; the advice at tolerance 0 is the fastest, and of the stream counts with that time it takes the fewest
 * (this test models 1..36 streams itself). With a tolerance of 100% every configuration no slower than now
 * qualifies, and nothing in the top list that is no slower than now is simpler than the advice. */
static void test_tie(void **state)
{
	struct ss_advice *a = malloc(sizeof *a);
	struct ss_experiment e;
	struct ss_advise_opts o = {0, SS_ADV_STREAMS};
	uint64_t tmin = UINT64_MAX;
	int nmin = 0, ties = 0;
	char *cause = NULL;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.chunks = 36;
	e.sync = SS_SYNC_STREAM;
	e.connections = 1;
	e.streams = 12;
	for (int n = 1; n <= 36; n++) {
		struct ss_experiment x = e;
		uint64_t t;

		x.streams = n;
		t = modelled(&x);
		if (t < tmin) {
			tmin = t;
			nmin = n;
			ties = 0;
		}
		ties += t == tmin;
	}
	assert_int_equal(advise_search(&model_backend, &e, &o, a, &cause), 0);
	assert_int_equal(a->varied, SS_ADV_STREAMS);
	assert_true(a->best.predicted_ns <= tmin);
	if (a->best.predicted_ns == tmin)
		assert_int_equal(a->best.e.streams, nmin);
	print_message("tie: %d stream counts of 1..36 at the fastest time, the fewest %d, the advice %d\n", ties, nmin,
	              a->best.e.streams);
	search(SS_PRESET_KERNEL_TRANSFER, 1.0, a);
	for (size_t i = 0; i < a->ntop; i++)
		if (a->top[i].predicted_ns <= a->current.predicted_ns)
			assert_true(advise_cost(&a->best, &a->current.e) <= advise_cost(&a->top[i], &a->current.e));
	free(a);
}

/* The same experiment gives the same advice. */
static void test_deterministic(void **state)
{
	struct ss_advice *a = malloc(sizeof *a), *b = malloc(sizeof *b);

	(void)state;
	search(SS_PRESET_VECTOR_ADD, -1, a);
	search(SS_PRESET_VECTOR_ADD, -1, b);
	assert_int_equal(a->searched, b->searched);
	assert_int_equal(a->best.predicted_ns, b->best.predicted_ns);
	assert_memory_equal(&a->best.e, &b->best.e, sizeof a->best.e);
	assert_string_equal(a->explanation, b->explanation);
	/* vector-add copies: document 003's orders are among those tried */
	assert_true(a->varied & SS_ADV_ORDER);
	free(a);
	free(b);
}

/* A restricted search varies only what it is asked to. */
static void test_dims(void **state)
{
	struct ss_experiment e;
	struct ss_advice *a = malloc(sizeof *a);
	struct ss_advise_opts o = {0.01, SS_ADV_QUEUES};
	char *cause = NULL;

	(void)state;
	experiment_preset(&e, SS_PRESET_HYPERQ);
	assert_int_equal(advise_search(&model_backend, &e, &o, a, &cause), 0);
	assert_int_equal(a->varied, SS_ADV_QUEUES);
	assert_int_equal(a->best.e.streams, e.streams);
	assert_int_equal(a->best.e.order, e.order);
	assert_int_equal(a->best.e.sync, e.sync);
	/* hyperq on one queue: more queues remove the false dependencies */
	assert_true(a->best.e.connections > 1);
	assert_true(a->gain_pct > 10);
	free(a);
}

/* verify's plan: the advice first, the current configuration last, no configuration twice, at most the limit. */
static void test_plan(void **state)
{
	struct ss_advice *a = malloc(sizeof *a);
	struct ss_advise_verify v;

	(void)state;
	search(SS_PRESET_KERNEL_TRANSFER, -1, a);
	advise_verify_plan(a, SS_ADVISE_VERIFY, &v);
	assert_true(v.n >= 2 && v.n <= SS_ADVISE_VERIFY);
	assert_true(v.m[0].recommended);
	assert_true(v.m[v.n - 1].current);
	assert_int_equal(v.best, SIZE_MAX);
	for (size_t i = 0; i < v.n; i++) {
		assert_false(v.m[i].ok);
		for (size_t k = 0; k < i; k++)
			assert_true(memcmp(&v.m[i].c.e, &v.m[k].c.e, sizeof v.m[i].c.e) != 0);
	}
	advise_verify_plan(a, 3, &v);
	assert_true(v.n <= 3);
	assert_true(v.m[v.n - 1].current);
	free(a);
}

/* The spread: configurations within SS_ADVISE_PLATEAU of the fastest, none twice nor the advice, each its model
 * time, reaching stream counts 8x apart from the advice's (on kernel-transfer the plateau runs from a few streams of
 * many chunks to 64 streams of one); verify's plan measures them right after the advice. */
static void test_spread(void **state)
{
	struct ss_advice *a = malloc(sizeof *a);
	struct ss_advise_verify v;
	bool wide = false;

	(void)state;
	search(SS_PRESET_KERNEL_TRANSFER, -1, a);
	assert_true(a->nspread >= 3 && a->nspread <= SS_ADVISE_VERIFY);
	for (size_t i = 0; i < a->nspread; i++) {
		const struct ss_advise_cand *c = &a->spread[i];

		assert_true((double)c->predicted_ns <= (double)a->fastest.predicted_ns * (1 + SS_ADVISE_PLATEAU));
		assert_int_equal(c->predicted_ns, modelled(&c->e));
		assert_true(memcmp(&c->e, &a->best.e, sizeof c->e) != 0);
		for (size_t k = 0; k < i; k++)
			assert_true(memcmp(&c->e, &a->spread[k].e, sizeof c->e) != 0);
		wide |= c->e.streams >= 8 * a->best.e.streams || 8 * c->e.streams <= a->best.e.streams;
	}
	assert_true(wide); /* the search's plateau spans stream counts 8x apart and the spread reaches across it */
	advise_verify_plan(a, SS_ADVISE_VERIFY, &v);
	assert_true(v.m[0].recommended);
	for (size_t i = 1; i < v.n - 1 && i <= a->nspread; i++)
		assert_true(memcmp(&v.m[i].c.e, &a->spread[i - 1].e, sizeof v.m[i].c.e) == 0);
	free(a);
}

/* kernel-transfer on 20 streams (17 of its 20 chunks off a 128-byte line): the advice puts every chunk on a line and
 * says so; on the preset's own 8 streams (every chunk on a line) it does not. */
static void test_offline(void **state)
{
	struct ss_advice *a = malloc(sizeof *a);
	struct ss_experiment e;
	char *cause = NULL;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 20;
	if (advise_search(&model_backend, &e, NULL, a, &cause) != 0)
		fail_msg("advise: %s", cause);
	assert_false(a->best_is_current);
	assert_non_null(strstr(a->explanation,
	                       "now 17 of 20 kernel launches start their data off a 128-byte line, none "
	                       "in the advice"));
	search(SS_PRESET_KERNEL_TRANSFER, -1, a);
	assert_null(strstr(a->explanation, "off a 128-byte line"));
	free(a);
}

/* A backend that is not modelled and an invalid experiment are refused with one line. */
static void test_refusals(void **state)
{
	static const struct ss_backend gpu = {"cuda", false, NULL, NULL};
	struct ss_experiment e;
	struct ss_advice *a = malloc(sizeof *a);
	char *cause = NULL;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	assert_int_equal(advise_search(&gpu, &e, NULL, a, &cause), -1);
	assert_non_null(cause);
	assert_null(strchr(cause, '\n'));
	free(cause);
	cause = NULL;
	e.streams = 0;
	assert_int_equal(advise_search(&model_backend, &e, NULL, a, &cause), -1);
	assert_non_null(strstr(cause, "stream"));
	free(cause);
	free(a);
}

/* A stand-in GPU for advise_verify (run through the runner, in a child): its untraced time is 1000 ns plus the
 * stream count, its traced time larger; the current configuration (8 streams of stop-event sync) fails. */
static int fake_available(char *device, size_t len, char **cause)
{
	(void)cause;
	snprintf(device, len, "FAKE GPU");
	return 0;
}

static int fake_run(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_sink *sink,
                    struct ss_run_result *res, char **cause)
{
	(void)ops;
	(void)sink;
	if (e->sync == SS_SYNC_STOP_EVENT && e->streams == 8) {
		*cause = strdup("fake: the current configuration fails here");
		return -1;
	}
	memset(res, 0, sizeof *res);
	snprintf(res->device, sizeof res->device, "FAKE GPU");
	res->traced_ns = 5000;
	res->untraced_ns = 1000 + (uint64_t)e->streams;
	res->have_untraced = true;
	res->repeats = e->repeat;
	return 0;
}

/* verify measures every planned configuration through the runner: the untraced time, the fastest as best, a
 * failure kept with its reason (and the exit code of the first) while the others are still measured. */
static void test_verify(void **state)
{
	static const struct ss_backend fake = {"fake", false, fake_available, fake_run};
	struct ss_advice *a = malloc(sizeof *a);
	struct ss_advise_verify v;
	char *cause = NULL;
	size_t fewest = SIZE_MAX;

	(void)state;
	search(SS_PRESET_KERNEL_TRANSFER, -1, a);
	advise_verify_plan(a, SS_ADVISE_VERIFY, &v);
	assert_int_equal(advise_verify(&fake, &v, NULL, &cause), 3);
	assert_non_null(strstr(cause, "current configuration fails"));
	free(cause);
	assert_string_equal(v.device, "FAKE GPU");
	for (size_t i = 0; i < v.n; i++) {
		if (v.m[i].current) {
			assert_false(v.m[i].ok);
			assert_non_null(strstr(v.m[i].error, "fails here"));
			continue;
		}
		assert_true(v.m[i].ok);
		assert_int_equal(v.m[i].measured_ns, 1000 + (uint64_t)v.m[i].c.e.streams);
		if (fewest == SIZE_MAX || v.m[i].c.e.streams < v.m[fewest].c.e.streams)
			fewest = i;
	}
	assert_int_equal(v.best, fewest);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_grid),          cmocka_unit_test(test_presets),  cmocka_unit_test(test_cost),
	    cmocka_unit_test(test_tie),           cmocka_unit_test(test_dims),     cmocka_unit_test(test_plan),
	    cmocka_unit_test(test_deterministic), cmocka_unit_test(test_refusals), cmocka_unit_test(test_verify),
	    cmocka_unit_test(test_spread),        cmocka_unit_test(test_offline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
