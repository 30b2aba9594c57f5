/* test_insight_misalign.c: misaligned-chunks on the model (the H200 profile, kernel.add.misalign 1.65, decrypt 1):
 * document 001's 2^22 floats cut into 20 chunks put 17 of them off a 128-byte line, a problem with its evidence, the
 * nearest aligned stream count as its fix and a modelled gain; silent where every chunk is on a line (16 and 32
 * streams, every preset's defaults) and without the experiment (a trace has no addresses); a hint where the
 * off-line kernels are no slower, where kernels ran beside each other (no time of their own to compare) and where
 * a copy engine bounds the run; the planner's layout (planner_op_line_offset, planner_chunks_aligned), the
 * remedy's choice of counts, and the TUI's panel. */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/insight.h"
#include "core/planner.h"
#include "model/model.h"
#include "run/remedy.h"
#include "tui/insightbox.h"

/* A modelled run of e, its analysis and insights (with the experiment, and the fixes re-run on the model). */
struct run {
	struct ss_experiment e;
	struct ss_timeline tl;
	struct ss_analysis a;
	struct ss_insights in;
	struct ss_remedy rem[SS_INSIGHT_MAX];
};

static void run_model(struct run *r, const struct ss_experiment *e)
{
	struct ss_profile p;
	char *cause = NULL;

	r->e = *e;
	if (profile_default(&p, &cause) != 0)
		fail_msg("profile: %s", cause);
	timeline_init(&r->tl);
	if (model_timeline(e, &p, &r->tl, NULL, &cause) != 0)
		fail_msg("model: %s", cause);
	timeline_sort(&r->tl);
	analysis_timeline(&r->tl, &r->a);
	insight_analyze_run(&r->tl, &r->a, e, &r->in);
	if (remedy_apply(&model_backend, e, &r->in, r->rem, &cause) != 0)
		fail_msg("remedy: %s", cause);
}

static struct run *run_new(enum ss_preset preset, int streams, int chunks)
{
	struct run *r = calloc(1, sizeof *r);
	struct ss_experiment e;

	assert_non_null(r);
	experiment_preset(&e, preset);
	if (streams > 0)
		e.streams = streams;
	e.chunks = chunks;
	run_model(r, &e);
	return r;
}

static void run_free(struct run *r)
{
	timeline_free(&r->tl);
	free(r);
}

/* The remedy of insight x of r. */
static const struct ss_remedy *remedy_of(const struct run *r, const struct ss_insight *x)
{
	return &r->rem[x - r->in.item];
}

/* 2^22 floats / 20 = 209716 a chunk, 80 bytes past a line: chunk c starts 80c mod 128 bytes off, on a line for
 * c = 0, 8, 16. The add kernels off a line take 1.65x their repeats' time: a problem, its records the 17 off-line
 * kernels, its fix a count of streams that keeps every chunk on a line, re-run on the model to a gain. */
static void test_twenty_streams(void **state)
{
	struct run *r = run_new(SS_PRESET_KERNEL_TRANSFER, 20, 0);
	const struct ss_insight *x = insight_find(&r->in, "misaligned-chunks");
	const struct ss_remedy *m;
	struct ss_oplist ops;
	size_t noted = 0;

	(void)state;
	assert_non_null(x);
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_non_null(strstr(x->summary, "17 of 20 ss_add kernels start their data off a 128-byte line"));
	assert_non_null(strstr(x->summary, "as the 3 on a line"));
	assert_non_null(strstr(x->evidence, "16 to 112 bytes off a line"));
	assert_non_null(strstr(x->evidence, "2^22 floats / 20 chunks = 209716 a chunk (838864 bytes"));
	assert_non_null(strstr(x->fix, "a warp's 32 threads"));
	assert_non_null(strstr(x->fix, "128 bytes"));
	/* every off-line kernel is evidence, in timeline order, and none on a line */
	assert_int_equal(x->nrec, 17);
	planner_build(&r->e, &ops);
	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *k = &r->tl.rec[i];
		uint64_t off = (uint64_t)k->stream * 209716 * 4;

		if (k->kind != SS_KIND_KERNEL || k->stream < 0)
			continue;
		if (off % 128 == 0) {
			for (size_t j = 0; j < SS_INSIGHT_MAX_RECS; j++)
				assert_true(x->rec[j] != i);
			continue;
		}
		if (noted < SS_INSIGHT_MAX_RECS)
			assert_int_equal(x->rec[noted], i);
		assert_true(k->start >= x->t0 && k->end <= x->t1);
		noted++;
	}
	assert_int_equal(noted, 17);
	planner_free(&ops);
	/* the fix: 16 or 32 streams (the nearer unless the farther is 1% faster on the model), a modelled gain */
	m = remedy_of(r, x);
	assert_non_null(m->rule);
	assert_true(strcmp(m->change, "--streams 16") == 0 || strcmp(m->change, "--streams 32") == 0);
	assert_true(m->modelled);
	assert_true(m->after_ns > 0 && m->after_ns < m->before_ns);
	assert_true(x->have_gain && x->gain_ns == m->before_ns - m->after_ns);
	/* the H200 measured 1.28-1.32 ms at 16 and 32 streams against 1.89 at 20: the gain is a quarter or more */
	assert_true(x->gain_ns * 4 >= m->before_ns);
	assert_non_null(strstr(x->gain_how, "modelled"));
	run_free(r);
}

/* Several chunks per stream: the nearest chunk count whose chunks are all on a line. */
static void test_chunks(void **state)
{
	struct run *r = run_new(SS_PRESET_KERNEL_TRANSFER, 4, 20);
	const struct ss_insight *x = insight_find(&r->in, "misaligned-chunks");
	const struct ss_remedy *m;

	(void)state;
	assert_non_null(x);
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	m = remedy_of(r, x);
	assert_non_null(m->rule);
	assert_true(strcmp(m->change, "--chunks 16") == 0 || strcmp(m->change, "--chunks 32") == 0);
	assert_int_equal(m->fixed.streams, 4);
	assert_true(m->after_ns < m->before_ns);
	run_free(r);
}

/* Every chunk on a line: silent, at 16 and 32 streams and at every preset's defaults (all powers of two, or a
 * floor split of 2^24 + 1 in two). */
static void test_aligned_silent(void **state)
{
	static const int streams[] = {16, 32, 1, 4};

	(void)state;
	for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++) {
		struct run *r = run_new(SS_PRESET_KERNEL_TRANSFER, streams[i], 0);

		if (insight_find(&r->in, "misaligned-chunks") != NULL)
			fail_msg("%d streams: misaligned-chunks fired", streams[i]);
		run_free(r);
	}
	for (int p = 0; p < SS_PRESET_COUNT; p++) {
		struct run *r = calloc(1, sizeof *r);
		struct ss_experiment e;

		assert_non_null(r);
		experiment_preset(&e, (enum ss_preset)p);
		run_model(r, &e);
		if (insight_find(&r->in, "misaligned-chunks") != NULL)
			fail_msg("preset %s: misaligned-chunks fired", experiment_preset_name(p));
		run_free(r);
	}
}

/* Without the experiment (a trace, recorded or imported: no addresses) the rule says nothing, and on a timeline
 * whose kernels are not the op list's (one lost) it cannot map them: nothing either. */
static void test_no_experiment(void **state)
{
	struct run *r = run_new(SS_PRESET_KERNEL_TRANSFER, 20, 0);
	struct ss_insights in;

	(void)state;
	assert_non_null(insight_find(&r->in, "misaligned-chunks"));
	insight_analyze(&r->tl, &r->a, &in);
	assert_null(insight_find(&in, "misaligned-chunks"));
	for (size_t i = 0; i < r->tl.n; i++)
		if (r->tl.rec[i].kind == SS_KIND_KERNEL && r->tl.rec[i].stream == 5) {
			r->tl.rec[i].kind = SS_KIND_MARKER; /* the kernel is gone from stream 5 */
			break;
		}
	insight_analyze_run(&r->tl, &r->a, &r->e, &in);
	assert_null(insight_find(&in, "misaligned-chunks"));
	run_free(r);
}

/* decrypt's kernel does not pay for the extra lines (kernel.decrypt.misalign 1): on one stream, its three chunks
 * one after another, a hint that it costs nothing, no fix to re-run; on three streams the model runs the kernels
 * beside each other, so no launch has a time of its own: a hint that says so, never a problem. */
static void test_decrypt_hint(void **state)
{
	struct run *r = run_new(SS_PRESET_DECRYPT, 1, 3);
	const struct ss_insight *x = insight_find(&r->in, "misaligned-chunks");

	(void)state;
	assert_non_null(x);
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_non_null(strstr(x->summary, "2 of 3 ss_decrypt kernels"));
	assert_non_null(strstr(x->summary, "at no cost here"));
	assert_non_null(strstr(x->evidence, "2^26 64-bit words / 3 chunks = 22369622 a chunk"));
	assert_non_null(strstr(x->fix, "Nothing to change"));
	assert_int_equal(x->nrec, 2);
	assert_false(x->have_gain);
	assert_null(remedy_of(r, x)->rule);
	run_free(r);

	r = run_new(SS_PRESET_DECRYPT, 3, 0);
	assert_non_null(x = insight_find(&r->in, "misaligned-chunks"));
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_non_null(strstr(x->summary, "ran beside other kernels"));
	assert_false(x->have_gain);
	run_free(r);
}

/* Slower off a line, but the H2D copies bound the run (a quarter of the kernel's work: the compute engine busy some
 * 60% of the makespan, the H2D engine 90%): a hint naming the engine. */
static void test_copy_bound_hint(void **state)
{
	struct run *r = calloc(1, sizeof *r);
	struct ss_experiment e;
	const struct ss_insight *x;

	(void)state;
	assert_non_null(r);
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 20;
	e.work = 100;
	run_model(r, &e);
	assert_non_null(x = insight_find(&r->in, "misaligned-chunks"));
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_non_null(strstr(x->summary, "as long per element"));
	assert_non_null(strstr(x->summary, "H2D copy engine bounds this run"));
	run_free(r);
}

/* A hand-made timeline of kernel-transfer's 3 chunks (on a line: chunk 0 only), the model's records with the
 * kernels' times set: 1.05x per element is little cost, 1.2x slower a problem; overlapping the off-line kernels
 * leaves nothing to compare. */
static void test_ratio_and_overlap(void **state)
{
	struct run *r = run_new(SS_PRESET_KERNEL_TRANSFER, 3, 0);
	size_t k[3] = {0, 0, 0};
	struct ss_insights in;
	struct ss_analysis a;
	const struct ss_insight *x;
	uint64_t base;

	(void)state;
	for (size_t i = 0; i < r->tl.n; i++)
		if (r->tl.rec[i].kind == SS_KIND_KERNEL && r->tl.rec[i].stream >= 0)
			k[r->tl.rec[i].stream] = i;
	base = r->tl.rec[k[0]].start;
	/* chunk 0 takes 1000 us for 1398102 elements; chunks 1 and 2 (1398102 and 1398100) take 1050 us each, one
	 * after another: 1.05x */
	r->tl.rec[k[0]].end = base + 1000000;
	r->tl.rec[k[1]].start = base + 1000000;
	r->tl.rec[k[1]].end = base + 2050000;
	r->tl.rec[k[2]].start = base + 2050000;
	r->tl.rec[k[2]].end = base + 3100000;
	timeline_sort(&r->tl);
	for (size_t i = 0; i < r->tl.n; i++)
		if (r->tl.rec[i].kind == SS_KIND_KERNEL && r->tl.rec[i].stream >= 0)
			k[r->tl.rec[i].stream] = i;
	analysis_timeline(&r->tl, &a);
	insight_analyze_run(&r->tl, &a, &r->e, &in);
	assert_non_null(x = insight_find(&in, "misaligned-chunks"));
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_non_null(strstr(x->summary, "at little cost here (1.05x"));
	/* 1.3x: a problem (kernels 1.3 ms of a run they bound) */
	r->tl.rec[k[1]].end = r->tl.rec[k[1]].start + 1300000;
	r->tl.rec[k[2]].start = r->tl.rec[k[1]].end;
	r->tl.rec[k[2]].end = r->tl.rec[k[2]].start + 1300000;
	timeline_sort(&r->tl);
	analysis_timeline(&r->tl, &a);
	insight_analyze_run(&r->tl, &a, &r->e, &in);
	assert_non_null(x = insight_find(&in, "misaligned-chunks"));
	if (x->severity != SS_SEV_PROBLEM)
		fail_msg("1.3x: %s: %s (%s)", insight_severity_name(x->severity), x->summary, x->evidence);
	assert_non_null(strstr(x->summary, "1.30x as long per element as the 1 on a line"));
	assert_true(x->have_gain);
	/* the two off-line kernels side by side: neither ran alone */
	for (size_t i = 0; i < r->tl.n; i++)
		if (r->tl.rec[i].kind == SS_KIND_KERNEL && r->tl.rec[i].stream == 2) {
			r->tl.rec[i].start = r->tl.rec[k[1]].start + 1000;
			r->tl.rec[i].end = r->tl.rec[k[1]].end + 1000;
		}
	timeline_sort(&r->tl);
	analysis_timeline(&r->tl, &a);
	insight_analyze_run(&r->tl, &a, &r->e, &in);
	assert_non_null(x = insight_find(&in, "misaligned-chunks"));
	assert_int_equal(x->severity, SS_SEV_HINT);
	assert_non_null(strstr(x->summary, "ran beside other kernels"));
	assert_non_null(strstr(x->evidence, "0 of the 2 off-line launches and 1 of the 1 on a line ran alone"));
	run_free(r);
}

/* Kernels side by side, as the H200 runs document 001's (alone 16-56% of their time, tests/data/h200/insights-extra):
 * the 20-stream run with every kernel lasting twice as long from its start, so each overlaps its neighbours and none
 * ran alone; the launches are then compared by their shares of the compute engine (3 on a line, 17 off): still a
 * problem, the evidence saying how it compared them, the ratio near the model's 1.57 per element (1.73: the time an
 * on-line launch shares with its slower neighbours is divided equally, which gives it less than its own). */
static void test_side_by_side(void **state)
{
	struct run *r = run_new(SS_PRESET_KERNEL_TRANSFER, 20, 0);
	struct ss_insights in;
	struct ss_analysis a;
	const struct ss_insight *x;
	double ratio;

	(void)state;
	for (size_t i = 0; i < r->tl.n; i++) {
		struct ss_record *k = &r->tl.rec[i];

		if (k->kind == SS_KIND_KERNEL && k->stream >= 0)
			k->end = k->start + 2 * (k->end - k->start);
	}
	timeline_sort(&r->tl);
	analysis_timeline(&r->tl, &a);
	insight_analyze_run(&r->tl, &a, &r->e, &in);
	assert_non_null(x = insight_find(&in, "misaligned-chunks"));
	if (x->severity != SS_SEV_PROBLEM)
		fail_msg("side by side: %s: %s (%s)", insight_severity_name(x->severity), x->summary, x->evidence);
	assert_non_null(strstr(x->evidence, "by shares of the compute engine"));
	assert_non_null(strstr(x->summary, "as the 3 on a line"));
	assert_non_null(strstr(x->summary, "they took "));
	ratio = strtod(strstr(x->summary, "they took ") + strlen("they took "), NULL);
	if (!(ratio > 1.4 && ratio < 1.9))
		fail_msg("ratio %.3f: %s (%s)", ratio, x->summary, x->evidence);
	run_free(r);
}

/* Where the CUDA backend puts a chunk: its element offset in one allocation per buffer; managed-attach memory is
 * one allocation per chunk (outside a step program); the census of a run's launches. */
static void test_layout(void **state)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	int kernels = 0;

	(void)state;
	assert_true(planner_chunks_aligned(1u << 22, 16, SS_SPLIT_CEIL, 4));
	assert_true(planner_chunks_aligned(1u << 22, 32, SS_SPLIT_CEIL, 4));
	assert_false(planner_chunks_aligned(1u << 22, 20, SS_SPLIT_CEIL, 4));
	assert_false(planner_chunks_aligned(1u << 26, 3, SS_SPLIT_CEIL, 8));
	assert_true(planner_chunks_aligned(1u << 22, 1, SS_SPLIT_CEIL, 4));
	assert_true(planner_chunks_aligned((1u << 24) + 1, 2, SS_SPLIT_FLOOR, 4)); /* vector-add: 2^23 each */
	assert_false(planner_chunks_aligned((1u << 24) + 1, 2, SS_SPLIT_CEIL, 4));
	assert_false(planner_chunks_aligned(5, 8, SS_SPLIT_CEIL, 4)); /* one element a chunk: chunk 1 at 4 bytes */
	assert_true(planner_chunks_aligned(1, 8, SS_SPLIT_CEIL, 4));  /* chunk 0 has it all */
	assert_false(planner_chunks_aligned(40, 8, SS_SPLIT_CEIL, 4));
	assert_true(planner_chunks_aligned(3, 8, SS_SPLIT_FLOOR, 4)); /* floor 0: every chunk at 0 */
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 20;
	planner_build(&e, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.op[i].kind == SS_OP_KERNEL) {
			assert_int_equal(planner_op_line_offset(&e, &ops, &ops.op[i]),
			                 (uint64_t)ops.op[i].chunk * 80 % 128);
			kernels++;
		}
	assert_int_equal(kernels, 20);
	{
		struct ss_line_census c;

		planner_line_census(&e, &ops, &c); /* 80c mod 128: on a line at c = 0, 8, 16; 16..112 bytes off */
		assert_int_equal(c.kernels, 20);
		assert_int_equal(c.off, 17);
		assert_int_equal(c.lo, 16);
		assert_int_equal(c.hi, 112);
		assert_int_equal(c.first_count, 209716);
	}
	planner_free(&ops);
	experiment_preset(&e, SS_PRESET_MANAGED_THREADS);
	e.streams = e.threads = 3;
	planner_build(&e, &ops);
	for (size_t i = 0; i < ops.n; i++)
		if (ops.op[i].kind == SS_OP_KERNEL)
			assert_int_equal(planner_op_line_offset(&e, &ops, &ops.op[i]), 0);
	planner_free(&ops);
}

/* remedy_change (pure) takes the nearest aligned count, the lower on a tie; nothing where the chunks are fewer
 * than the streams (the stream count does not cut the data). */
static void test_remedy_change(void **state)
{
	struct ss_experiment e;
	struct ss_remedy r;

	(void)state;
	experiment_preset(&e, SS_PRESET_KERNEL_TRANSFER);
	e.streams = 20;
	assert_int_equal(remedy_change("misaligned-chunks", &e, &r), 1);
	assert_string_equal(r.change, "--streams 16");
	assert_int_equal(r.fixed.streams, 16);
	e.streams = 3; /* 2 and 4 both 1 away */
	assert_int_equal(remedy_change("misaligned-chunks", &e, &r), 1);
	assert_string_equal(r.change, "--streams 2");
	e.streams = 30;
	assert_int_equal(remedy_change("misaligned-chunks", &e, &r), 1);
	assert_string_equal(r.change, "--streams 32");
	e.streams = 8;
	e.chunks = 100; /* 64 below, 107 above (39200 floats a chunk) */
	assert_int_equal(remedy_change("misaligned-chunks", &e, &r), 1);
	assert_string_equal(r.change, "--chunks 107");
	e.streams = 8;
	e.chunks = 5;
	assert_int_equal(remedy_change("misaligned-chunks", &e, &r), 0);
}

/* The TUI's panel gets the rule for a run of an experiment, with the model's gain, and not for an opened trace. */
static void test_panel(void **state)
{
	struct run *r = run_new(SS_PRESET_KERNEL_TRANSFER, 20, 0);
	struct ss_insightbox_cache *c = calloc(1, sizeof *c);
	const struct ss_insights *in;
	const struct ss_insight *x;

	(void)state;
	assert_non_null(c);
	assert_non_null(in = insightbox_analyze(c, 1, &r->tl, &r->a, &r->e));
	assert_non_null(x = insight_find(in, "misaligned-chunks"));
	assert_int_equal(x->severity, SS_SEV_PROBLEM);
	assert_non_null(strstr(x->gain_how, "modelled: the experiment re-run with --streams "));
	assert_non_null(in = insightbox_analyze(c, 2, &r->tl, &r->a, NULL));
	assert_null(insight_find(in, "misaligned-chunks"));
	free(c);
	run_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_twenty_streams),    cmocka_unit_test(test_chunks),
	    cmocka_unit_test(test_aligned_silent),    cmocka_unit_test(test_no_experiment),
	    cmocka_unit_test(test_decrypt_hint),      cmocka_unit_test(test_copy_bound_hint),
	    cmocka_unit_test(test_ratio_and_overlap), cmocka_unit_test(test_layout),
	    cmocka_unit_test(test_remedy_change),     cmocka_unit_test(test_panel),
	    cmocka_unit_test(test_side_by_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
