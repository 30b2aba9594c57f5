/* report.c: the summaries of run, sweep and ops, as text and as JSON (see report.h). */
#include "cli/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/status.h"
#include "core/units.h"
#include "io/export/json_out.h"

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
	struct ss_claim claims[SS_CLAIMS_MAX];
	int n;

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
		printf("makespan (cudaEvent)    %s   %s vs events %+.2f%%\n", units_time(a->events_ns, b1, sizeof b1),
		       res->modelled ? "model's span" : "CUPTI", 100.0 * a->cupti_vs_events);
	if (a->have_events && a->have_events_median && res->repeats > 1)
		printf("                        CUPTI vs events over %d traced repeats: median %+.2f%%\n", res->repeats,
		       100.0 * a->cupti_vs_events_median);
	if (a->have_events && !res->modelled && a->cupti_vs_events < -0.01 && e->hostmem == SS_MEM_MANAGED_ATTACH)
		printf(
		    "                        (managed memory: CUPTI records no migrations, its span holds the kernels "
		    "only)\n");
	else if (a->have_events && !res->modelled && a->cupti_vs_events < -0.01 &&
	         e->hostmem == SS_MEM_MANAGED_PREFETCH && !res->prefetch_records)
		printf("                        (CUPTI records no prefetches, its span holds the kernels only; "
		       "--prefetch-events=on times them)\n");
	if (a->have_overhead)
		printf("traced / untraced       %s / %s   tracing overhead %+.2f%%%s%s\n",
		       units_time(a->traced_ns, b1, sizeof b1), units_time(a->untraced_ns, b2, sizeof b2),
		       100.0 * a->overhead,
		       a->span_short      ? "  (CUPTI's span misses work: speedup and bound use untraced makespans)"
		       : a->used_untraced ? "  (> 1%: speedup and bound use untraced makespans)"
		                          : "",
		       a->untraced_detached ? "" : "  (untraced with CUPTI attached: it costs each call)");
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
	else if (a->devices > 1)
		printf("ideal pipeline bound    -  (%d GPUs: the bound is of one GPU's engines)\n", a->devices);
	else if (a->phases_short)
		printf("ideal pipeline bound    -  (the 1-stream run's copies and kernels fill %.1f%% of it, h=%s k=%s "
		       "d=%s: "
		       "its time is not a pipeline of them)\n",
		       100.0 * a->phase_share, units_time(a->h_ns, b2, sizeof b2), units_time(a->k_ns, b3, sizeof b3),
		       units_time(a->d_ns, desc, sizeof desc));
	else
		printf("ideal pipeline bound    -%s\n",
		       a->span_short ? "  (the 1-stream run's copies are not on its timeline: no h and d)" : "");
	/* memsets (a step program's) only where the op list has some */
	snprintf(b1, sizeof b1, "  MEMSET %llu/%zu", (unsigned long long)a->counts[SS_KIND_MEMSET],
	         expected[SS_KIND_MEMSET]);
	printf(
	    "records                 H2D %llu/%zu  KER %llu/%zu  D2H %llu/%zu%s  API %llu  SYNC %llu  dropped %llu\n",
	    (unsigned long long)a->counts[SS_KIND_H2D], expected[SS_KIND_H2D],
	    (unsigned long long)a->counts[SS_KIND_KERNEL], expected[SS_KIND_KERNEL],
	    (unsigned long long)a->counts[SS_KIND_D2H], expected[SS_KIND_D2H], expected[SS_KIND_MEMSET] > 0 ? b1 : "",
	    (unsigned long long)a->counts[SS_KIND_API], (unsigned long long)a->counts[SS_KIND_SYNC],
	    (unsigned long long)res->dropped);
	printf("results verified        %s\n", res->modelled ? "- (modelled)" : res->verified ? "yes" : "NO");
	if ((n = claims_timeline(e, tl, a, res->modelled, claims)) > 0) {
		printf("\nthe documents' claims this run supports%s\n", res->modelled ? " (MODELLED)" : "");
		report_claims(claims, n);
	}
}

/* report_sweep prints the sweep table. */
void report_sweep(const struct ss_sweep *s)
{
	char desc[384], head[448], list[192], b1[32], b2[32], gap[32];
	struct ss_claim claims[SS_CLAIMS_MAX];
	size_t k;
	int n;

	/* the stream counts the sweep runs, not the base's count, which no point uses */
	k = (size_t)snprintf(list, sizeof list, "streams ");
	for (int i = 0; i < s->ncounts && k < sizeof list; i++)
		k += (size_t)snprintf(list + k, sizeof list - k, "%s%d", i > 0 ? "," : "", s->counts[i]);
	experiment_describe_streams(&s->base, list, desc, sizeof desc);
	snprintf(head, sizeof head, "%s", desc);
	if (s->norders == 2) { /* the columns hold both orders: the header names them, not the base's one */
		char one[48];
		const char *at;

		snprintf(one, sizeof one, "  %s  ", experiment_order_label(s->base.order));
		/* "depth- and breadth-first", "interleaved and depth-first" */
		bool firsts = s->orders[0] != SS_ORDER_INTERLEAVE && s->orders[1] != SS_ORDER_INTERLEAVE;

		if ((at = strstr(desc, one)) != NULL)
			snprintf(head, sizeof head, firsts ? "%.*s  %s- and %s-first  %s" : "%.*s  %s and %s  %s",
			         (int)(at - desc), desc,
			         firsts ? experiment_order_name(s->orders[0]) : experiment_order_label(s->orders[0]),
			         firsts ? experiment_order_name(s->orders[1]) : experiment_order_label(s->orders[1]),
			         at + strlen(one));
	}
	printf("sweep        %s\n", head);
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
			snprintf(gap, sizeof gap, "%+6.1f%%", 100.0 * p->a.gap);
			printf(" | %-7s %10s %7.2fx %10s %7s ", "", units_time(p->a.used_ns, b1, sizeof b1),
			       p->a.have_speedup ? p->a.speedup : 0.0,
			       p->a.have_bound ? units_time(p->a.bound_ns, b2, sizeof b2) : "-",
			       p->a.have_bound ? gap : "-");
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
	/* none where the sweep is none of the documents' programs (claims_applies) */
	if ((n = claims_sweep(s, claims)) > 0) {
		printf("\nthe documents' claims these points support%s\n", s->modelled ? " (MODELLED)" : "");
		report_claims(claims, n);
	}
}

void report_ops(const struct ss_experiment *e, const struct ss_oplist *ops)
{
	char line[256], desc[256], note[512];

	experiment_describe(e, desc, sizeof desc);
	printf("# %s\n# %zu operation%s, %d chunk%s, %d event%s\n", desc, ops->n, ops->n == 1 ? "" : "s", ops->nchunks,
	       ops->nchunks == 1 ? "" : "s", ops->nevents, ops->nevents == 1 ? "" : "s");
	if (planner_document_note(e, note, sizeof note))
		printf("# not as the document: %s\n", note);
	for (int i = 0; i < e->nsteps; i++) {
		experiment_step_describe(&e->step[i], line, sizeof line);
		printf("# step %d: %s\n", i + 1, line);
	}
	if (e->ninter > 0) {
		experiment_interleave_describe(e, line, sizeof line);
		printf("# interleave (%s%s): %s\n", e->order == SS_ORDER_INTERLEAVE ? "in use" : "not in use: --order ",
		       e->order == SS_ORDER_INTERLEAVE ? "" : experiment_order_name(e->order), line);
	}
	int idw = snprintf(NULL, 0, "#%zu", ops->n); /* the widest "#id": the columns after it line up */
	for (size_t i = 0; i < ops->n; i++) {
		planner_op_describe(ops, &ops->op[i], line, sizeof line);
		const char *rest = strchr(line, ' ');
		if (rest)
			printf("%-*.*s%s\n", idw, (int)(rest - line), line, rest);
		else
			printf("%s\n", line);
	}
}

static void report_json_sweep_points(struct json_out *o, const struct ss_sweep *s);

/* Real numbers in the JSON: six significant digits (makespans are integers in ns). */
#define REPORT_DIGITS 6

struct json_out *report_json_begin(void)
{
	struct json_out *o = json_out_new(stdout, true);

	json_out_map_begin(o);
	return o;
}

int report_json_end(struct json_out *o)
{
	char *cause = NULL;
	int rc;

	json_out_map_end(o);
	rc = json_out_finish(o, &cause);
	json_out_free(o);
	if (rc != 0) {
		fprintf(stderr, "streamscope: --json: %s\n", cause);
		free(cause);
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* report_json_key_ns writes key: v, or null when the value is not known (have false). */
static void report_json_key_ns(struct json_out *o, const char *key, bool have, uint64_t v)
{
	if (have)
		json_out_key_uint(o, key, v);
	else
		json_out_key_null(o, key);
}

/* report_json_key_real writes key: v with REPORT_DIGITS, or null when it is not known. */
static void report_json_key_real(struct json_out *o, const char *key, bool have, double v)
{
	if (have)
		json_out_key_double(o, key, v, REPORT_DIGITS);
	else
		json_out_key_null(o, key);
}

/* report_json_analysis writes the members of a's analysis into the open map. */
static void report_json_analysis(struct json_out *o, const struct ss_analysis *a)
{
	json_out_key_uint(o, "makespan_ns", a->makespan_ns);
	json_out_key_uint(o, "staging_ns", a->staging_ns);
	json_out_key_uint(o, "used_makespan_ns", a->used_ns);
	json_out_key_bool(o, "used_untraced", a->used_untraced);
	json_out_key_bool(o, "span_short", a->span_short);
	report_json_key_ns(o, "events_ns", a->have_events, a->events_ns);
	report_json_key_ns(o, "traced_ns", a->have_overhead, a->traced_ns);
	report_json_key_ns(o, "untraced_ns", a->have_overhead, a->untraced_ns);
	json_out_key_str(o, "untraced_cupti",
	                 !a->have_overhead      ? NULL
	                 : a->untraced_detached ? "detached"
	                                        : "attached");
	report_json_key_real(o, "tracing_overhead", a->have_overhead, a->overhead);
	report_json_key_real(o, "cupti_vs_events", a->have_events, a->cupti_vs_events);
	report_json_key_real(o, "cupti_vs_events_median", a->have_events_median, a->cupti_vs_events_median);
	report_json_key_real(o, "tracing_overhead_q1", a->have_spread, a->overhead_q1);
	report_json_key_real(o, "tracing_overhead_q3", a->have_spread, a->overhead_q3);
	json_out_key_double(o, "overlap", a->overlap, REPORT_DIGITS);
	report_json_key_real(o, "speedup", a->have_speedup, a->speedup);
	/* speedup compares the same work issued serially on one stream: work x the 1-stream run's makespan */
	report_json_key_real(o, "speedup_work", a->have_speedup, a->work);
	report_json_key_ns(o, "bound_ns", a->have_bound, a->bound_ns);
	report_json_key_real(o, "gap", a->have_bound, a->gap);
	json_out_key(o, "engines");
	json_out_map_begin(o);
	for (int i = 0; i < SS_ENG_COUNT; i++) {
		json_out_key(o, report_engine_names[i]);
		json_out_map_begin(o);
		json_out_key_uint(o, "count", a->eng[i].count);
		json_out_key_uint(o, "busy_ns", a->eng[i].busy_ns);
		json_out_key_double(o, "util", a->eng[i].util, REPORT_DIGITS);
		json_out_key_uint(o, "bytes", a->eng[i].bytes);
		json_out_map_end(o);
	}
	json_out_map_end(o);
}

void report_json_experiment(struct json_out *o, const struct ss_experiment *e)
{
	json_out_key(o, "experiment");
	json_out_map_begin(o);
	json_out_key_str(o, "preset", experiment_preset_name(e->preset));
	json_out_key_str(o, "kernel", experiment_kernel_name(e->kernel));
	json_out_key_int(o, "streams", e->streams);
	json_out_key_int(o, "chunks", e->chunks);
	json_out_key_uint(o, "elements", e->elements);
	json_out_key_int(o, "work", (int)e->work);
	json_out_key_int(o, "block", (int)experiment_block(e));
	json_out_key_uint(o, "grid", e->grid);
	json_out_key_str(o, "split", experiment_split_name(e->split));
	json_out_key_str(o, "order", experiment_order_name(e->order));
	json_out_key_str(o, "sync", experiment_sync_name(e->sync));
	json_out_key_str(o, "default_stream", experiment_defstream_name(e->defstream));
	json_out_key_bool(o, "nonblocking", e->nonblocking);
	json_out_key_str(o, "host_mem", experiment_hostmem_name(e->hostmem));
	json_out_key_int(o, "connections", e->connections);
	json_out_key_int(o, "threads", e->threads);
	json_out_key_int(o, "repeat", e->repeat);
	json_out_key_int(o, "warmup", e->warmup);
	json_out_key_str(o, "prefetch_events", experiment_pfevents_name(e->prefetch_events));
	json_out_key_bool(o, "prefetch_events_on", experiment_prefetch_events(e));
	json_out_key_int(o, "devices", e->devices);
	json_out_key_bool(o, "peer", e->peer);
	json_out_key_int(o, "steps", e->nsteps); /* an experiment file's step program, 0: the preset's work */
	{
		char program[SS_MAX_STEPS * 128 + 256];

		experiment_program_describe(e, program, sizeof program);
		if (program[0] != '\0')
			json_out_key_str(o, "program", program);
		else
			json_out_key_null(o, "program");
	}
	json_out_map_end(o);
}

/* report_json_counts writes "counts" (every record kind) and "expected" (the copies, kernels, memsets and peer
 * copies the op list issued, planner_expected_records) of one run. */
static void report_json_counts(struct json_out *o, const uint64_t *counts, const size_t *expected)
{
	json_out_key(o, "counts");
	json_out_map_begin(o);
	for (int k = 0; k < SS_KIND_COUNT; k++)
		json_out_key_uint(o, record_kind_name(k), counts[k]);
	json_out_map_end(o);
	json_out_key(o, "expected");
	json_out_map_begin(o);
	json_out_key_uint(o, "H2D", expected[SS_KIND_H2D]);
	json_out_key_uint(o, "KER", expected[SS_KIND_KERNEL]);
	json_out_key_uint(o, "D2H", expected[SS_KIND_D2H]);
	json_out_key_uint(o, "MEMSET", expected[SS_KIND_MEMSET]);
	json_out_key_uint(o, "D2D", expected[SS_KIND_D2D]);
	json_out_map_end(o);
}

int report_run_json(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_run_result *res,
                    const struct ss_analysis *a, const size_t *expected, const struct ss_prediction *pr)
{
	struct json_out *o = report_json_begin();
	struct ss_claim claims[SS_CLAIMS_MAX];
	int n;

	report_json_experiment(o, e);
	json_out_key_str(o, "backend", tl->backend);
	json_out_key_bool(o, "modelled", res->modelled);
	json_out_key_str(o, "device", res->device);
	report_json_analysis(o, a);
	report_json_counts(o, a->counts, expected);
	json_out_key_uint(o, "dropped", res->dropped);
	if (res->modelled)
		json_out_key_null(o, "verified");
	else
		json_out_key_bool(o, "verified", res->verified);
	report_json_key_ns(o, "predicted_ns", pr->have, pr->profile_ns);
	report_json_key_ns(o, "predicted_own_calls_ns", pr->have_calls, pr->calls_ns);
	n = claims_timeline(e, tl, a, res->modelled, claims);
	report_claims_json(o, claims, n);
	return report_json_end(o);
}

int report_sweep_json(const struct ss_sweep *s)
{
	struct json_out *o = report_json_begin();
	struct ss_claim claims[SS_CLAIMS_MAX];
	int n;

	report_json_experiment(o, &s->base);
	json_out_key_bool(o, "modelled", s->modelled);
	json_out_key_str(o, "device", s->device);
	report_json_sweep_points(o, s);
	n = claims_sweep(s, claims);
	report_claims_json(o, claims, n);
	return report_json_end(o);
}

int report_ops_json(const struct ss_experiment *e, const struct ss_oplist *ops)
{
	static const char *const bufname[3] = {"x", "y", "z"};
	struct json_out *o = report_json_begin();
	char line[256], note[512];

	report_json_experiment(o, e);
	json_out_key_uint(o, "operations", ops->n);
	json_out_key_int(o, "chunks", ops->nchunks);
	json_out_key_int(o, "events", ops->nevents);
	json_out_key_int(o, "elem_size", ops->elem_size);
	json_out_key_str(o, "document_note", planner_document_note(e, note, sizeof note) ? note : NULL);
	json_out_key(o, "ops");
	json_out_array_begin(o);
	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_op *op = &ops->op[i];

		planner_op_describe(ops, op, line, sizeof line);
		json_out_map_begin(o);
		json_out_key_int(o, "id", op->id);
		json_out_key_str(o, "kind", planner_op_kind_name(op->kind));
		json_out_key_int(o, "thread", op->thread);
		/* a stream index, or the default streams by name */
		if (op->stream >= 0)
			json_out_key_int(o, "stream", op->stream);
		else
			json_out_key_str(o, "stream",
			                 op->stream == SS_STREAM_LEGACY       ? "legacy"
			                 : op->stream == SS_STREAM_PER_THREAD ? "per-thread"
			                                                      : NULL);
		if (op->chunk >= 0)
			json_out_key_int(o, "chunk", op->chunk);
		else
			json_out_key_null(o, "chunk");
		json_out_key_str(o, "buffer", op->buffer >= 0 && op->buffer < 3 ? bufname[op->buffer] : NULL);
		if (op->kind == SS_OP_PEER) /* its event field holds the stream whose device receives the copy */
			json_out_key_int(o, "peer_stream", op->event);
		if (op->event >= 0 && op->kind != SS_OP_PEER)
			json_out_key_int(o, "event", op->event);
		else
			json_out_key_null(o, "event");
		json_out_key_uint(o, "offset", op->offset);
		json_out_key_uint(o, "count", op->count);
		json_out_key_uint(o, "bytes", planner_op_bytes(ops, op));
		if (op->step >= 0) /* a step program's op: its step, 1-based as the file counts them */
			json_out_key_int(o, "step", op->step + 1);
		json_out_key_str(o, "text", line);
		json_out_map_end(o);
	}
	json_out_array_end(o);
	return report_json_end(o);
}

void report_claims(const struct ss_claim *c, int n)
{
	for (int i = 0; i < n; i++) {
		char verdict[48];

		snprintf(verdict, sizeof verdict, "%s%s", claims_verdict_words(c[i].verdict),
		         c[i].modelled ? " (modelled)" : "");
		printf("  %-20s %-30s %s\n", c[i].id, verdict, c[i].measured);
		printf("  %20s claim     %s\n", "", c[i].text);
		printf("  %20s expected  %s\n", "", c[i].expected);
		if (c[i].evidence[0] != '\0')
			printf("  %20s evidence  %s\n", "", c[i].evidence);
	}
}

void report_claims_json(struct json_out *o, const struct ss_claim *c, int n)
{
	json_out_key(o, "claims");
	json_out_array_begin(o);
	for (int i = 0; i < n; i++) {
		json_out_map_begin(o);
		json_out_key_str(o, "id", c[i].id);
		json_out_key_str(o, "document", c[i].document);
		json_out_key_str(o, "claim", c[i].text);
		json_out_key_str(o, "verdict", claims_verdict_name(c[i].verdict));
		json_out_key_bool(o, "modelled", c[i].modelled);
		json_out_key_str(o, "measured", c[i].measured);
		json_out_key_str(o, "expected", c[i].expected);
		json_out_key_str(o, "evidence", c[i].evidence);
		json_out_key(o, "values");
		json_out_map_begin(o);
		for (int v = 0; v < c[i].nvalues; v++) /* byte counts and ns exact: 15 digits, not REPORT_DIGITS */
			if (c[i].value[v].have)
				json_out_key_double(o, c[i].value[v].name, c[i].value[v].v, 15);
			else
				json_out_key_null(o, c[i].value[v].name);
		json_out_map_end(o);
		if (c[i].npoints > 0) {
			json_out_key(o, "points");
			json_out_array_begin(o);
			for (int k = 0; k < c[i].npoints; k++) {
				json_out_map_begin(o);
				json_out_key_int(o, "streams", c[i].point[k].streams);
				json_out_key_double(o, "predicted", c[i].point[k].predicted, REPORT_DIGITS);
				json_out_key_double(o, "measured", c[i].point[k].measured, REPORT_DIGITS);
				json_out_map_end(o);
			}
			json_out_array_end(o);
		}
		json_out_map_end(o);
	}
	json_out_array_end(o);
}

/* report_claims_device: the device of the first run that ran, and whether it was modelled; false when none ran. */
static bool report_claims_device(const struct ss_claims_run *runs, int nruns, const char **device, bool *modelled)
{
	for (int i = 0; i < nruns; i++) {
		const struct ss_claims_run *r = &runs[i];

		if (r->sweep && sweep_progress(&r->s) > 0) {
			*device = r->s.device;
			*modelled = r->s.modelled;
			return true;
		}
		if (!r->sweep && r->done && !r->failed) {
			*device = r->device;
			*modelled = r->modelled;
			return true;
		}
	}
	*device = "-";
	*modelled = false;
	return false;
}

void report_claims_runs(const struct ss_claims_run *runs, int nruns, const struct ss_claim *c, int n)
{
	const char *device;
	bool modelled;
	char desc[256], b1[32], b2[32];

	report_claims_device(runs, nruns, &device, &modelled);
	printf("claims       the documents' claims, checked\n");
	printf("device       %s (%s)\n\n", device, modelled ? "MODELLED" : "measured");
	printf("%-25s %-66s %s\n", "run", "experiment", "time");
	for (int i = 0; i < nruns; i++) {
		const struct ss_claims_run *r = &runs[i];

		experiment_describe_compact(&r->e, desc, sizeof desc);
		if (r->sweep) {
			char counts[96] = "";

			for (int k = 0; k < r->s.ncounts; k++)
				snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%d", k ? "," : "",
				         r->s.counts[k]);
			printf("%-25s %-66s %zu/%zu points (streams %s)\n", claims_role_name(r->role), desc,
			       sweep_progress(&r->s), r->s.n, counts);
			for (size_t k = 0; k < r->s.n; k++)
				if (r->s.pt[k].failed)
					printf("%-25s   %d streams failed: %s\n", "", r->s.pt[k].streams,
					       r->s.pt[k].error);
		} else if (r->failed)
			printf("%-25s %-66s failed: %s\n", claims_role_name(r->role), desc, r->error);
		else if (r->done && r->a.have_overhead)
			/* the twins compare untraced makespans where they have them: the program as it runs untraced */
			printf("%-25s %-66s %s (untraced %s)\n", claims_role_name(r->role), desc,
			       units_time(r->a.used_ns, b1, sizeof b1), units_time(r->a.untraced_ns, b2, sizeof b2));
		else
			printf("%-25s %-66s %s\n", claims_role_name(r->role), desc,
			       r->done ? units_time(r->a.used_ns, b1, sizeof b1) : "-");
	}
	printf("\n");
	report_claims(c, n);
	if (modelled)
		printf("\nmodelled: the model's numbers (no GPU ran them); on a GPU, the verdicts are the GPU's\n");
}

/* report_json_sweep_points writes key "points": one object per point of s. */
static void report_json_sweep_points(struct json_out *o, const struct ss_sweep *s)
{
	json_out_key(o, "points");
	json_out_array_begin(o);
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_sweep_point *p = &s->pt[i];

		json_out_map_begin(o);
		json_out_key_int(o, "streams", p->streams);
		json_out_key_str(o, "order", experiment_order_name(p->order));
		report_json_analysis(o, &p->a);
		report_json_counts(o, p->a.counts, p->counts_expected);
		json_out_key_uint(o, "dropped", p->dropped);
		json_out_key_bool(o, "failed", p->failed || !p->done);
		if (p->failed)
			json_out_key_str(o, "error", p->error);
		else
			json_out_key_null(o, "error");
		/* the model computes no results to check */
		if (s->modelled || !p->done || p->failed)
			json_out_key_null(o, "verified");
		else
			json_out_key_bool(o, "verified", p->verified);
		json_out_map_end(o);
	}
	json_out_array_end(o);
}

int report_claims_runs_json(const struct ss_claims_run *runs, int nruns, const struct ss_claim *c, int n)
{
	struct json_out *o = report_json_begin();
	const char *device;
	bool modelled;

	report_claims_device(runs, nruns, &device, &modelled);
	json_out_key_bool(o, "modelled", modelled);
	json_out_key_str(o, "device", device);
	json_out_key(o, "documents");
	json_out_array_begin(o);
	for (unsigned d = SS_CLAIMS_DOC_000; d <= SS_CLAIMS_DOC_004; d <<= 1)
		for (int i = 0; i < nruns; i++)
			if (runs[i].document == d) {
				json_out_str(o, claims_document_name(d));
				break;
			}
	json_out_array_end(o);
	json_out_key(o, "runs");
	json_out_array_begin(o);
	for (int i = 0; i < nruns; i++) {
		const struct ss_claims_run *r = &runs[i];

		json_out_map_begin(o);
		json_out_key_str(o, "role", claims_role_name(r->role));
		json_out_key_str(o, "document", claims_document_name(r->document));
		report_json_experiment(o, &r->e);
		json_out_key_bool(o, "sweep", r->sweep);
		if (r->sweep) {
			report_json_sweep_points(o, &r->s);
		} else {
			json_out_key_bool(o, "failed", !r->done || r->failed);
			if (r->failed)
				json_out_key_str(o, "error", r->error);
			else
				json_out_key_null(o, "error");
			if (r->done && !r->failed) {
				json_out_key_bool(o, "modelled", r->modelled);
				report_json_analysis(o, &r->a);
				if (r->modelled)
					json_out_key_null(o, "verified");
				else
					json_out_key_bool(o, "verified", r->verified);
				json_out_key_uint(o, "duplex_ns", r->obs.duplex_ns);
				json_out_key_uint(o, "kernels", r->obs.kernels);
				json_out_key_uint(o, "kernels_ahead", r->obs.kernels_ahead);
				json_out_key_uint(o, "kernels_lead_ns", r->obs.lead_ns);
				json_out_key_int(o, "kernel_concurrency", r->obs.concurrency);
			}
		}
		json_out_map_end(o);
	}
	json_out_array_end(o);
	report_claims_json(o, c, n);
	return report_json_end(o);
}
