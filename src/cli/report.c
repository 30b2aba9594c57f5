/* report.c: the summaries of run, sweep and ops, as text and as JSON (see report.h). */
#include "cli/report.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/status.h"
#include "core/units.h"

static const char *const report_engine_names[SS_ENG_COUNT] = {"H2D", "compute", "D2H"};

/* report_prediction prints pr's lines of the run summary, against measured_ns: the program's makespan (the
 * untraced one when the run timed it: the model models the program as it runs untraced). */
static void report_prediction(const struct ss_prediction *pr, uint64_t measured_ns)
{
	char b1[32], b2[32], b3[32];

	if (!pr->have || measured_ns == 0)
		return;
	printf("model prediction        %s  (%s profile: %+.1f%% vs measured %s)\n",
	       units_time(pr->profile_ns, b1, sizeof b1), pr->profile,
	       100.0 * ((double)pr->profile_ns / (double)measured_ns - 1.0), units_time(measured_ns, b2, sizeof b2));
	if (!pr->have_calls)
		return;
	printf("  with this run's calls %s  (%+.1f%%; calls", units_time(pr->calls_ns, b1, sizeof b1),
	       100.0 * ((double)pr->calls_ns / (double)measured_ns - 1.0));
	if (isfinite(pr->launch_ns))
		printf(" launch %s", units_time((uint64_t)llround(pr->launch_ns), b2, sizeof b2));
	if (isfinite(pr->copy_ns))
		printf(" copy %s", units_time((uint64_t)llround(pr->copy_ns), b3, sizeof b3));
	printf(" untraced, as this process issued them)\n");
}

/* Prints the human summary of one run. */
void report_run(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr)
{
	char desc[256], b1[32], b2[32], b3[32];
	const char *label = res->modelled ? "MODELLED" : "measured";

	experiment_describe(e, desc, sizeof desc);
	printf("experiment   %s\n", desc);
	printf("backend      %s (%s)  device %s\n", tl->backend, label, res->device);
	printf("\n%-10s %8s %12s %7s %12s %12s\n", "engine", "count", "busy", "util", "bytes", "bandwidth");
	for (int i = 0; i < SS_ENG_COUNT; i++) {
		const struct ss_engine_stats *s = &a->eng[i];

		printf("%-10s %8llu %12s %6.1f%% %12s %12s\n", report_engine_names[i], (unsigned long long)s->count,
		       units_time(s->busy_ns, b1, sizeof b1), 100.0 * s->util,
		       i == SS_ENG_COMPUTE ? "-" : units_bytes(s->bytes, b2, sizeof b2),
		       i == SS_ENG_COMPUTE ? "-" : units_rate(s->bytes, s->sum_ns, b3, sizeof b3));
	}
	printf("\nmakespan (%s)        %s", res->modelled ? "model" : "CUPTI",
	       units_time(a->makespan_ns, b1, sizeof b1));
	if (a->staging_ns > 0)
		printf("   (%s of it host staging inside pageable copies' calls, beyond the GPU records)",
		       units_time(a->staging_ns, b2, sizeof b2));
	printf("\n");
	if (a->have_events)
		printf("makespan (cudaEvent)    %s   CUPTI vs events %+.2f%%\n",
		       units_time(a->events_ns, b1, sizeof b1), 100.0 * a->cupti_vs_events);
	if (a->have_events && a->have_events_median && res->repeats > 1)
		printf("                        CUPTI vs events over %d traced repeats: median %+.2f%%\n", res->repeats,
		       100.0 * a->cupti_vs_events_median);
	if (a->have_events && a->cupti_vs_events < -0.01 && e->hostmem == SS_MEM_MANAGED_ATTACH)
		printf(
		    "                        (managed memory: CUPTI records no migrations, its span holds the kernels "
		    "only)\n");
	else if (a->have_events && a->cupti_vs_events < -0.01 && e->hostmem == SS_MEM_MANAGED_PREFETCH &&
	         !res->prefetch_records)
		printf("                        (CUPTI records no prefetches, its span holds the kernels only; "
		       "--prefetch-events=on times them)\n");
	if (a->have_overhead)
		printf("traced / untraced       %s / %s   tracing overhead %+.2f%%%s\n",
		       units_time(a->traced_ns, b1, sizeof b1), units_time(a->untraced_ns, b2, sizeof b2),
		       100.0 * a->overhead,
		       a->span_short      ? "  (CUPTI's span misses work: speedup and bound use untraced makespans)"
		       : a->used_untraced ? "  (> 1%: speedup and bound use untraced makespans)"
		                          : "");
	if (a->have_overhead && a->have_spread)
		printf("overhead per repeat     %+.2f%% .. %+.2f%%  (quartiles of %d traced/untraced pairs, ABBA)\n",
		       100.0 * a->overhead_q1, 100.0 * a->overhead_q3, res->repeats);
	report_prediction(pr, a->have_overhead ? a->untraced_ns : a->makespan_ns);
	printf("overlap (>= 2 engines)  %.1f%%\n", 100.0 * a->overlap);
	if (a->have_speedup && a->work > 1.001)
		printf("speedup vs serial       %.2fx  (the same work on 1 stream: %.0f x the 1-stream run, which does "
		       "1/%.0f of it)\n",
		       a->speedup, a->work, a->work);
	else if (a->have_speedup)
		printf("speedup vs serial       %.2fx  (the same work on 1 stream)\n", a->speedup);
	else
		printf("speedup vs serial       -\n");
	if (a->have_bound)
		printf("ideal pipeline bound    %s  (n=%d, h=%s k=%s d=%s)  gap %+.1f%%\n",
		       units_time(a->bound_ns, b1, sizeof b1), a->n, units_time(a->h_ns, b2, sizeof b2),
		       units_time(a->k_ns, b3, sizeof b3), units_time(a->d_ns, desc, sizeof desc), 100.0 * a->gap);
	else
		printf("ideal pipeline bound    -%s\n",
		       a->span_short ? "  (the 1-stream run's copies are not on its timeline: no h and d)" : "");
	printf("records                 H2D %llu/%zu  KER %llu/%zu  D2H %llu/%zu  API %llu  SYNC %llu  dropped %llu\n",
	       (unsigned long long)a->counts[SS_KIND_H2D], expected[SS_KIND_H2D],
	       (unsigned long long)a->counts[SS_KIND_KERNEL], expected[SS_KIND_KERNEL],
	       (unsigned long long)a->counts[SS_KIND_D2H], expected[SS_KIND_D2H],
	       (unsigned long long)a->counts[SS_KIND_API], (unsigned long long)a->counts[SS_KIND_SYNC],
	       (unsigned long long)res->dropped);
	printf("results verified        %s\n", res->modelled ? "- (modelled)" : res->verified ? "yes" : "NO");
}

/* Adds the analysis of a to a JSON object. */
static void report_json_analysis(json_t *o, const struct ss_analysis *a)
{
	json_t *eng = json_object();

	json_object_set_new(o, "makespan_ns", json_integer((json_int_t)a->makespan_ns));
	json_object_set_new(o, "staging_ns", json_integer((json_int_t)a->staging_ns));
	json_object_set_new(o, "used_makespan_ns", json_integer((json_int_t)a->used_ns));
	json_object_set_new(o, "used_untraced", json_boolean(a->used_untraced));
	json_object_set_new(o, "span_short", json_boolean(a->span_short));
	json_object_set_new(o, "events_ns", a->have_events ? json_integer((json_int_t)a->events_ns) : json_null());
	json_object_set_new(o, "traced_ns", a->have_overhead ? json_integer((json_int_t)a->traced_ns) : json_null());
	json_object_set_new(o, "untraced_ns",
	                    a->have_overhead ? json_integer((json_int_t)a->untraced_ns) : json_null());
	json_object_set_new(o, "tracing_overhead", a->have_overhead ? json_real(a->overhead) : json_null());
	json_object_set_new(o, "cupti_vs_events", a->have_events ? json_real(a->cupti_vs_events) : json_null());
	json_object_set_new(o, "cupti_vs_events_median",
	                    a->have_events_median ? json_real(a->cupti_vs_events_median) : json_null());
	json_object_set_new(o, "tracing_overhead_q1", a->have_spread ? json_real(a->overhead_q1) : json_null());
	json_object_set_new(o, "tracing_overhead_q3", a->have_spread ? json_real(a->overhead_q3) : json_null());
	json_object_set_new(o, "overlap", json_real(a->overlap));
	json_object_set_new(o, "speedup", a->have_speedup ? json_real(a->speedup) : json_null());
	/* speedup compares the same work issued serially on one stream: work x the 1-stream run's makespan */
	json_object_set_new(o, "speedup_work", a->have_speedup ? json_real(a->work) : json_null());
	json_object_set_new(o, "bound_ns", a->have_bound ? json_integer((json_int_t)a->bound_ns) : json_null());
	json_object_set_new(o, "gap", a->have_bound ? json_real(a->gap) : json_null());
	for (int i = 0; i < SS_ENG_COUNT; i++) {
		json_t *e = json_object();

		json_object_set_new(e, "count", json_integer((json_int_t)a->eng[i].count));
		json_object_set_new(e, "busy_ns", json_integer((json_int_t)a->eng[i].busy_ns));
		json_object_set_new(e, "util", json_real(a->eng[i].util));
		json_object_set_new(e, "bytes", json_integer((json_int_t)a->eng[i].bytes));
		json_object_set_new(eng, report_engine_names[i], e);
	}
	json_object_set_new(o, "engines", eng);
}

/* The experiment as JSON. */
static json_t *report_json_experiment(const struct ss_experiment *e)
{
	return json_pack("{s:s, s:s, s:i, s:i, s:I, s:i, s:s, s:s, s:s, s:b, s:s, s:i, s:i, s:i, s:i, s:s, s:b}",
	                 "preset", experiment_preset_name(e->preset), "kernel", experiment_kernel_name(e->kernel),
	                 "streams", e->streams, "chunks", e->chunks, "elements", (json_int_t)e->elements, "work",
	                 (int)e->work, "order", experiment_order_name(e->order), "sync", experiment_sync_name(e->sync),
	                 "default_stream", experiment_defstream_name(e->defstream), "nonblocking", e->nonblocking,
	                 "host_mem", experiment_hostmem_name(e->hostmem), "connections", e->connections, "threads",
	                 e->threads, "repeat", e->repeat, "warmup", e->warmup, "prefetch_events",
	                 experiment_pfevents_name(e->prefetch_events), "prefetch_events_on",
	                 experiment_prefetch_events(e));
}

static int report_json_print(json_t *root)
{
	int rc = json_dumpf(root, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));

	putchar('\n');
	json_decref(root);
	return rc == 0 ? CLI_OK : CLI_FAIL;
}

int report_run_json(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                    const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr)
{
	json_t *root = json_object(), *counts = json_object();

	json_object_set_new(root, "experiment", report_json_experiment(e));
	json_object_set_new(root, "backend", json_string(tl->backend));
	json_object_set_new(root, "modelled", json_boolean(res->modelled));
	json_object_set_new(root, "device", json_string(res->device));
	report_json_analysis(root, a);
	for (int k = 0; k < SS_KIND_COUNT; k++)
		json_object_set_new(counts, record_kind_name(k), json_integer((json_int_t)a->counts[k]));
	json_object_set_new(root, "counts", counts);
	json_object_set_new(root, "expected",
	                    json_pack("{s:I, s:I, s:I}", "H2D", (json_int_t)expected[SS_KIND_H2D], "KER",
	                              (json_int_t)expected[SS_KIND_KERNEL], "D2H", (json_int_t)expected[SS_KIND_D2H]));
	json_object_set_new(root, "dropped", json_integer((json_int_t)res->dropped));
	json_object_set_new(root, "verified", res->modelled ? json_null() : json_boolean(res->verified));
	json_object_set_new(root, "predicted_ns", pr->have ? json_integer((json_int_t)pr->profile_ns) : json_null());
	json_object_set_new(root, "predicted_own_calls_ns",
	                    pr->have_calls ? json_integer((json_int_t)pr->calls_ns) : json_null());
	return report_json_print(root);
}

/* report_sweep prints the sweep table. */
void report_sweep(const struct ss_sweep *s)
{
	char desc[256], b1[32], b2[32];

	experiment_describe(&s->base, desc, sizeof desc);
	printf("sweep        %s\n", desc);
	printf("device       %s (%s)\n", s->device, s->modelled ? "MODELLED" : "measured");
	printf("\n%7s", "streams");
	for (int o = 0; o < s->norders; o++)
		printf(" | %-7s %10s %8s %10s %7s %8s", experiment_order_name(s->orders[o]), "time", "speedup", "bound",
		       "gap", "overhead");
	printf("\n");
	for (int i = 0; i < s->ncounts; i++) {
		printf("%7d", s->counts[i]);
		for (int o = 0; o < s->norders; o++) {
			const struct ss_sweep_point *p = &s->pt[(size_t)o * (size_t)s->ncounts + (size_t)i];

			if (p->failed) {
				printf(" | %-54s", p->error);
				continue;
			}
			printf(" | %-7s %10s %7.2fx %10s %+6.1f%% ", "", units_time(p->a.used_ns, b1, sizeof b1),
			       p->a.have_speedup ? p->a.speedup : 0.0,
			       p->a.have_bound ? units_time(p->a.bound_ns, b2, sizeof b2) : "-",
			       p->a.have_bound ? 100.0 * p->a.gap : 0.0);
			if (p->a.have_overhead)
				printf("%+7.2f%%", 100.0 * p->a.overhead);
			else
				printf("%8s", "-");
		}
		printf("\n");
	}
	if (!s->modelled)
		printf(
		    "\ntime is the CUPTI makespan, or the untraced cudaEvent makespan where tracing overhead > 1%%\n");
}

int report_sweep_json(const struct ss_sweep *s)
{
	const struct ss_experiment *e = &s->base;
	json_t *root = json_object(), *pts = json_array();

	json_object_set_new(root, "experiment", report_json_experiment(e));
	json_object_set_new(root, "modelled", json_boolean(s->modelled));
	json_object_set_new(root, "device", json_string(s->device));
	for (size_t i = 0; i < s->n; i++) {
		json_t *p = json_object(), *counts_o = json_object();

		json_object_set_new(p, "streams", json_integer(s->pt[i].streams));
		json_object_set_new(p, "order", json_string(experiment_order_name(s->pt[i].order)));
		report_json_analysis(p, &s->pt[i].a);
		for (int k = 0; k < SS_KIND_COUNT; k++)
			json_object_set_new(counts_o, record_kind_name(k),
			                    json_integer((json_int_t)s->pt[i].a.counts[k]));
		json_object_set_new(p, "counts", counts_o);
		json_object_set_new(p, "expected",
		                    json_pack("{s:I, s:I, s:I}", "H2D",
		                              (json_int_t)s->pt[i].counts_expected[SS_KIND_H2D], "KER",
		                              (json_int_t)s->pt[i].counts_expected[SS_KIND_KERNEL], "D2H",
		                              (json_int_t)s->pt[i].counts_expected[SS_KIND_D2H]));
		json_object_set_new(p, "dropped", json_integer((json_int_t)s->pt[i].dropped));
		json_array_append_new(pts, p);
	}
	json_object_set_new(root, "points", pts);
	return report_json_print(root);
}

/* report_json_ops is the op list of e as JSON: the experiment, the counts, and one object per op in issue order with
 * the fields of struct ss_op (stream a number, or "legacy" / "per-thread"; chunk, buffer and event null where the op
 * has none) and the line `ops` prints for it. */
static json_t *report_json_ops(const struct ss_experiment *e, const struct ss_oplist *ops)
{
	static const char *const bufname[3] = {"x", "y", "z"};
	json_t *root = json_object(), *arr = json_array();
	char line[256];

	json_object_set_new(root, "experiment", report_json_experiment(e));
	json_object_set_new(root, "operations", json_integer((json_int_t)ops->n));
	json_object_set_new(root, "chunks", json_integer(ops->nchunks));
	json_object_set_new(root, "events", json_integer(ops->nevents));
	json_object_set_new(root, "elem_size", json_integer(ops->elem_size));
	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_op *op = &ops->op[i];
		json_t *j = json_object();

		planner_op_describe(ops, op, line, sizeof line);
		json_object_set_new(j, "id", json_integer(op->id));
		json_object_set_new(j, "kind", json_string(planner_op_kind_name(op->kind)));
		json_object_set_new(j, "thread", json_integer(op->thread));
		json_object_set_new(j, "stream",
		                    op->stream >= 0                      ? json_integer(op->stream)
		                    : op->stream == SS_STREAM_LEGACY     ? json_string("legacy")
		                    : op->stream == SS_STREAM_PER_THREAD ? json_string("per-thread")
		                                                         : json_null());
		json_object_set_new(j, "chunk", op->chunk >= 0 ? json_integer(op->chunk) : json_null());
		json_object_set_new(j, "buffer",
		                    op->buffer >= 0 && op->buffer < 3 ? json_string(bufname[op->buffer]) : json_null());
		json_object_set_new(j, "event", op->event >= 0 ? json_integer(op->event) : json_null());
		json_object_set_new(j, "offset", json_integer((json_int_t)op->offset));
		json_object_set_new(j, "count", json_integer((json_int_t)op->count));
		json_object_set_new(j, "bytes", json_integer((json_int_t)planner_op_bytes(ops, op)));
		json_object_set_new(j, "text", json_string(line));
		json_array_append_new(arr, j);
	}
	json_object_set_new(root, "ops", arr);
	return root;
}

int report_ops_json(const struct ss_experiment *e, const struct ss_oplist *ops)
{
	return report_json_print(report_json_ops(e, ops));
}

void report_ops(const struct ss_experiment *e, const struct ss_oplist *ops)
{
	char line[256], desc[256];

	experiment_describe(e, desc, sizeof desc);
	printf("# %s\n# %zu operation%s, %d chunk%s, %d event%s\n", desc, ops->n, ops->n == 1 ? "" : "s", ops->nchunks,
	       ops->nchunks == 1 ? "" : "s", ops->nevents, ops->nevents == 1 ? "" : "s");
	for (size_t i = 0; i < ops->n; i++) {
		planner_op_describe(ops, &ops->op[i], line, sizeof line);
		printf("%s\n", line);
	}
}
