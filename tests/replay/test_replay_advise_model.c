/* test_replay_advise_model.c: the model against what the H200 measured for the advisor (tests/gpu/advise.sh's data in
 * tests/data/h200/advise): every configuration `advise --verify` measured and every point of the measured sweeps,
 * re-run on the model with the committed H200 profile. These are the configurations the validation matrix lacks
 * (several chunks per stream, stream counts that are not powers of two, stream sync, 32 queues), where the model's
 * errors decide what the advisor recommends. Holds the model to a median error of 5% and the worst where it is
 * (docs/results.md), and every two of a preset's verify configurations the model puts more than 3% apart to the
 * order the H200 measured them in: the advisor's order is the model's. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/experiment.h"
#include "json_tree.h"
#include "model/model.h"
#include "model/profile.h"
#include "run/runner.h"

static const char *advise_dir;

/* The presets advise.sh ran, in its order, but managed-threads: its runs there timed it from after each task's
 * attach, on data an earlier run had left, which the preset no longer does (tests/data/h200/documents-bench-mt). */
static const char *const advise_presets[] = {"kernel-transfer", "decrypt", "hyperq",   "default-stream",
                                             "sync-order",      "managed", "pageable", "vector-add"};

/* One measured configuration and the model's time for it. */
struct point {
	char name[160];
	double measured, model;
};

/* All points, and per preset the range of its verify points in it. */
struct points {
	struct point *p;
	size_t n, cap;
};

static struct point *points_add(struct points *s)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->p = realloc(s->p, s->cap * sizeof *s->p);
		assert_non_null(s->p);
	}
	memset(&s->p[s->n], 0, sizeof s->p[s->n]);
	return &s->p[s->n++];
}

/* apply sets e's member name from the JSON object o's member of the same (or json) name, where o has it. */
static void apply(struct ss_experiment *e, yajl_val o)
{
	yajl_val v;

	if ((v = json_tree_get(o, "streams")) != NULL)
		e->streams = (int)json_tree_int(v);
	if ((v = json_tree_get(o, "chunks")) != NULL)
		e->chunks = (int)json_tree_int(v) == e->streams ? 0 : (int)json_tree_int(v);
	if ((v = json_tree_get(o, "order")) != NULL)
		e->order = (enum ss_order)experiment_order_parse(json_tree_str(v));
	if ((v = json_tree_get(o, "connections")) != NULL)
		e->connections = (int)json_tree_int(v);
	if ((v = json_tree_get(o, "sync")) != NULL)
		e->sync = (enum ss_sync)experiment_sync_parse(json_tree_str(v));
	if ((v = json_tree_get(o, "host_mem")) != NULL)
		e->hostmem = (enum ss_hostmem)experiment_hostmem_parse(json_tree_str(v));
	if ((v = json_tree_get(o, "default_stream")) != NULL)
		e->defstream = (enum ss_defstream)experiment_defstream_parse(json_tree_str(v));
	if ((v = json_tree_get(o, "stream_flags")) != NULL)
		e->nonblocking = strcmp(json_tree_str(v), "nonblocking") == 0;
	if ((v = json_tree_get(o, "nonblocking")) != NULL)
		e->nonblocking = json_tree_is_true(v);
	if ((v = json_tree_get(o, "threads")) != NULL)
		e->threads = (int)json_tree_int(v);
	assert_true((int)e->order >= 0 && (int)e->sync >= 0 && (int)e->hostmem >= 0 && (int)e->defstream >= 0);
}

/* model_ns runs e on the model (the profile model_set_profile was given). */
static double model_ns(const struct ss_experiment *e, const char *name)
{
	char *cause = NULL;
	uint64_t ns = runner_makespan(&model_backend, e, NULL, &cause);

	if (ns == 0)
		fail_msg("%s: the model failed: %s", name, cause ? cause : "no reason");
	return (double)ns;
}

/* load_preset adds preset's verify points (first) and sweep points to s; *nverify gets how many verify points. */
static void load_preset(const char *preset, struct points *s, size_t *nverify)
{
	static const char *const sweeps[] = {"sweep-A", "sweep-B", "sweep-B-8q", "sweep-B-32q", "sweep-C", "sweep-D"};
	char path[600], err[256];
	yajl_val j, m, x;
	size_t i;
	int kind = experiment_preset_parse(preset);

	assert_true(kind >= 0);
	*nverify = 0;
	snprintf(path, sizeof path, "%s/%s.advise.json", advise_dir, preset);
	if ((j = json_tree_load(path, err, sizeof err)) == NULL)
		fail_msg("%s: %s", path, err);
	m = json_tree_get(json_tree_get(j, "verify"), "measured");
	json_tree_foreach(m, i, x)
	{
		yajl_val c = json_tree_get(x, "config");
		struct ss_experiment e;
		struct point *p;

		if (!json_tree_is_int(json_tree_get(x, "measured_ns")) &&
		    !json_tree_is_real(json_tree_get(x, "measured_ns")))
			continue;
		experiment_preset(&e, (enum ss_preset)kind);
		apply(&e, c);
		p = points_add(s);
		snprintf(p->name, sizeof p->name, "%s verify: %s", preset, json_tree_str(json_tree_get(c, "changes")));
		p->measured = json_tree_num(json_tree_get(x, "measured_ns"));
		p->model = model_ns(&e, p->name);
		(*nverify)++;
	}
	json_tree_free(j);
	for (size_t k = 0; k < sizeof sweeps / sizeof sweeps[0]; k++) {
		yajl_val ex, pts;

		snprintf(path, sizeof path, "%s/%s.%s.json", advise_dir, preset, sweeps[k]);
		if ((j = json_tree_load(path, err, sizeof err)) == NULL)
			continue; /* that part of the sweep did not run for this preset (skipped.txt) */
		ex = json_tree_get(j, "experiment");
		pts = json_tree_get(j, "points");
		json_tree_foreach(pts, i, x)
		{
			yajl_val u = json_tree_get(x, "untraced_ns");
			struct ss_experiment e;
			struct point *p;

			if (!json_tree_is_int(u) && !json_tree_is_real(u))
				continue;
			experiment_preset(&e, (enum ss_preset)kind);
			apply(&e, ex);
			apply(&e, x);
			p = points_add(s);
			snprintf(p->name, sizeof p->name, "%s %s: %d streams %s %dq sync %s", preset, sweeps[k],
			         e.streams, experiment_order_name(e.order), e.connections,
			         experiment_sync_name(e.sync));
			p->measured = json_tree_num(u);
			p->model = model_ns(&e, p->name);
		}
		json_tree_free(j);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The model's bounds over these points, as docs/results.md gives them: the median is the target; the worst
 * error, the points beyond 15% and verify's pairs the H200 ordered otherwise are ratchets, given per data set on the
 * command line (tests/replay/CMakeLists.txt): on tests/data/h200/advise-run3 the worst is pageable breadth-first at 128
 * streams (+35.8%), the 26 beyond 15% pageable breadth-first (and one stream), managed at 4-128 streams, vector-add
 * weaker at 32-128, hyperq breadth-first, default-stream's blocking streams on 32 queues, sync-order at 128 streams
 * and 3 streams of 37 chunks, and the two pairs 3 streams of 37 chunks against 5 of 20 (10 of 40 pairs before
 * kernel.add.misalign). */
#define ADVISE_MODEL_MEDIAN_MAX 0.05
#define ADVISE_MODEL_APART 1.03
static double worst_max = 0.36;
static size_t beyond_max = 28, wrong_max = 2;

static void test_advise_model(void **state)
{
	struct points s = {0};
	double *err, worst = 0;
	size_t beyond = 0, worst_i = 0, pairs = 0, wrong = 0;
	struct ss_profile prof;
	char path[600], *cause = NULL;

	(void)state;
	snprintf(path, sizeof path, "%s/data/profiles/h200.profile", SS_SOURCE_DIR);
	if (profile_load(&prof, path, &cause) != 0)
		fail_msg("%s", cause);
	model_set_profile(&prof);
	for (size_t k = 0; k < sizeof advise_presets / sizeof advise_presets[0]; k++) {
		size_t first = s.n, nverify;

		load_preset(advise_presets[k], &s, &nverify);
		assert_true(nverify >= 2);
		/* each pair of verify's configurations the model tells apart by more than 3%: the H200 ordered them
		 * alike */
		for (size_t a = first; a < first + nverify; a++)
			for (size_t b = first; b < first + nverify; b++) {
				if (s.p[a].model * ADVISE_MODEL_APART >= s.p[b].model)
					continue;
				pairs++;
				if (s.p[a].measured > s.p[b].measured) {
					wrong++;
					print_message("order: %s: model %.3f < %.3f ms (%s), H200 %.3f > %.3f ms\n",
					              s.p[a].name, s.p[a].model / 1e6, s.p[b].model / 1e6, s.p[b].name,
					              s.p[a].measured / 1e6, s.p[b].measured / 1e6);
				}
			}
	}
	print_message("verify's configurations the model tells apart: %zu pairs, %zu ordered otherwise on the H200\n",
	              pairs, wrong);
	assert_true(pairs >= 20);
	assert_true(wrong <= wrong_max);
	model_set_profile(NULL);
	err = calloc(s.n, sizeof *err);
	assert_non_null(err);
	for (size_t i = 0; i < s.n; i++) {
		err[i] = fabs(s.p[i].model / s.p[i].measured - 1);
		if (err[i] > 0.15) {
			beyond++;
			print_message("beyond 15%%: %s: model %.3f ms, H200 %.3f ms (%+.1f%%)\n", s.p[i].name,
			              s.p[i].model / 1e6, s.p[i].measured / 1e6,
			              100 * (s.p[i].model / s.p[i].measured - 1));
		}
		if (err[i] > worst) {
			worst = err[i];
			worst_i = i;
		}
	}
	qsort(err, s.n, sizeof *err, cmp_double);
	print_message("%zu points: median %.1f%%, worst %.1f%% (%s), %zu beyond 15%%\n", s.n, 100 * err[s.n / 2],
	              100 * worst, s.p[worst_i].name, beyond);
	assert_true(s.n >= 100);
	assert_true(err[s.n / 2] <= ADVISE_MODEL_MEDIAN_MAX);
	assert_true(worst <= worst_max);
	assert_true(beyond <= beyond_max);
	free(err);
	free(s.p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_advise_model)};
	FILE *f;
	char probe[600];

	if (argc != 5) {
		fprintf(stderr, "usage: test_replay_advise_model DIR WORST_MAX BEYOND_MAX WRONG_MAX\n");
		return 2;
	}
	advise_dir = argv[1];
	worst_max = strtod(argv[2], NULL);
	beyond_max = strtoul(argv[3], NULL, 10);
	wrong_max = strtoul(argv[4], NULL, 10);
	snprintf(probe, sizeof probe, "%s/kernel-transfer.advise.json", advise_dir);
	if ((f = fopen(probe, "r")) == NULL) {
		printf("%s: no advise data yet (tests/gpu/advise.sh): skipped\n", advise_dir);
		return 77;
	}
	fclose(f);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
