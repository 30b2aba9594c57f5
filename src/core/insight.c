/* insight.c: the rules of `streamscope analyze`, each a verdict computed from a timeline's records and its analysis:
 * pageable-copy, legacy-stream-sync, no-overlap, engine-bound, small-copies, gpu-idle. Each rule reads the numbers
 * it names in its evidence and nothing else; a rule whose premise the records cannot show does not fire. */
#include "core/insight.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"

/* no-overlap fires below this share of the makespan with two engines busy: a pipeline of two or more chunks per
 * engine overlaps far more than 5%; a run under it is, in effect, serial. */
#define INSIGHT_OVERLAP_MIN 0.05
/* engine-bound fires when one engine is busy for this share of the makespan or more: the run is then within 10% of
 * what that engine alone takes, so more streams cannot help by more than that. */
#define INSIGHT_BOUND_UTIL 0.90
/* small-copies: a copy is slow when its rate is below this fraction of the fastest copy of its kind in the trace
 * (a tenth: per-copy latency, not the link, sets its time)... */
#define INSIGHT_SLOW_RATE 0.10
/* ...and the rule fires on at least this many slow copies (a few slow copies are a start-up effect, not a pattern) */
#define INSIGHT_SLOW_MIN 16
/* ...whose time adds up to at least this share of the makespan (else batching them cannot matter). */
#define INSIGHT_SLOW_SHARE 0.05
/* gpu-idle fires on a gap with no GPU record inside the span longer than this share of the makespan... */
#define INSIGHT_IDLE_SHARE 0.10
/* ...and at least this long (shorter gaps are launch latency, which no change of structure removes). */
#define INSIGHT_IDLE_MIN_NS 10000u

static const char *const insight_engine_names[SS_ENG_COUNT] = {"H2D copy", "compute", "D2H copy"};

const char *insight_severity_name(enum ss_severity s)
{
	switch (s) {
	case SS_SEV_PROBLEM:
		return "problem";
	case SS_SEV_HINT:
		return "hint";
	default:
		return "info";
	}
}

const struct ss_insight *insight_find(const struct ss_insights *in, const char *rule)
{
	for (size_t i = 0; i < in->n; i++)
		if (strcmp(in->item[i].rule, rule) == 0)
			return &in->item[i];
	return NULL;
}

/* insight_new appends an insight of rule (the caller fills the rest); NULL when out is full. */
static struct ss_insight *insight_new(struct ss_insights *out, const char *rule, enum ss_severity sev, const char *fix)
{
	struct ss_insight *in;

	if (out->n >= SS_INSIGHT_MAX)
		return NULL;
	in = &out->item[out->n++];
	memset(in, 0, sizeof *in);
	in->rule = rule;
	in->severity = sev;
	in->fix = fix;
	return in;
}

/* insight_note adds record i to in's evidence (the first SS_INSIGHT_MAX_RECS) and widens its time range. */
static void insight_note(struct ss_insight *in, const struct ss_timeline *t, size_t i)
{
	const struct ss_record *r = &t->rec[i];

	if (in->nrec < SS_INSIGHT_MAX_RECS)
		in->rec[in->nrec] = i;
	if (in->nrec == 0 || r->start < in->t0)
		in->t0 = r->start;
	if (in->nrec == 0 || r->end > in->t1)
		in->t1 = r->end;
	in->nrec++;
}

/* insight_recs appends " (records i, j, ...)" to buf: the evidence's record indices. */
static void insight_recs(const struct ss_insight *in, char *buf, size_t len)
{
	size_t n = in->nrec < SS_INSIGHT_MAX_RECS ? in->nrec : SS_INSIGHT_MAX_RECS;
	size_t off = strlen(buf);

	for (size_t i = 0; i < n && off < len; i++) {
		int w = snprintf(buf + off, len - off, "%s%zu", i == 0 ? "; records " : ", ", in->rec[i]);
		if (w < 0)
			return;
		off += (size_t)w;
	}
	if (in->nrec > n && off < len)
		snprintf(buf + off, len - off, ", ...");
}

static bool insight_is_copy(int kind)
{
	return kind == SS_KIND_H2D || kind == SS_KIND_D2H || kind == SS_KIND_D2D;
}

/* pageable-copy: copies the records flag SS_REC_PAGEABLE. The driver stages them through pinned memory, so the
 * call blocks the host and the copy cannot overlap the host's next issue. */
static void insight_pageable(const struct ss_timeline *t, struct ss_insights *out)
{
	struct ss_insight *in = NULL;
	uint64_t bytes = 0, ns = 0;
	char b1[32], b2[32];

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (!insight_is_copy(r->kind) || !(r->flags & SS_REC_PAGEABLE))
			continue;
		if (in == NULL &&
		    (in = insight_new(out, "pageable-copy", SS_SEV_PROBLEM,
		                      "Allocate the host buffers with cudaMallocHost (or register them with "
		                      "cudaHostRegister): pinned copies are asynchronous and overlap "
		                      "kernels.")) == NULL)
			return;
		insight_note(in, t, i);
		bytes += r->bytes;
		ns += r->end - r->start;
	}
	if (in == NULL)
		return;
	snprintf(in->summary, sizeof in->summary, "%zu %s from pageable host memory: each blocks the host", in->nrec,
	         in->nrec == 1 ? "copy" : "copies");
	snprintf(in->evidence, sizeof in->evidence, "%zu pageable copies, %s in %s of copy time", in->nrec,
	         units_bytes(bytes, b1, sizeof b1), units_time(ns, b2, sizeof b2));
	insight_recs(in, in->evidence, sizeof in->evidence);
}

/* legacy-stream-sync: GPU work on the legacy default stream while other streams have GPU work, and none of theirs
 * overlaps any of it: the legacy stream's implicit synchronisation serialised them. One pass in start order (t is
 * sorted): a record overlaps an earlier-starting one of the other side exactly when the latest end of that side so
 * far is after its start. */
static void insight_legacy(const struct ss_timeline *t, struct ss_insights *out)
{
	size_t nlegacy = 0, nother = 0, first = t->n;
	uint64_t end_legacy = 0, end_other = 0;
	bool across = false;
	struct ss_insight *in;
	char b1[32], op[96];

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (!(SS_GPU_KINDS & SS_KIND_BIT(r->kind)) || r->end <= r->start)
			continue;
		if (r->stream == SS_STREAM_LEGACY) {
			if (first == t->n)
				first = i;
			nlegacy++;
			across = across || (nother > 0 && end_other > r->start);
			if (r->end > end_legacy)
				end_legacy = r->end;
		} else if (r->stream >= 0) {
			across = across || (nlegacy > 0 && end_legacy > r->start);
			nother++;
			if (r->end > end_other)
				end_other = r->end;
		}
	}
	if (first == t->n || nother == 0 || across)
		return;
	if ((in = insight_new(out, "legacy-stream-sync", SS_SEV_PROBLEM,
	                      "Issue this work on a created stream (or create the other streams with "
	                      "cudaStreamNonBlocking): the legacy default stream waits for, and holds back, every "
	                      "blocking stream.")) == NULL)
		return;
	for (size_t i = first; i < t->n; i++)
		if ((SS_GPU_KINDS & SS_KIND_BIT(t->rec[i].kind)) && t->rec[i].end > t->rec[i].start &&
		    t->rec[i].stream == SS_STREAM_LEGACY)
			insight_note(in, t, i);
	if (t->rec[first].name != 0)
		snprintf(op, sizeof op, "%s %s", record_kind_name(t->rec[first].kind),
		         timeline_name(t, t->rec[first].name));
	else
		snprintf(op, sizeof op, "%s", record_kind_name(t->rec[first].kind));
	snprintf(in->summary, sizeof in->summary,
	         "%zu %s on the legacy default stream (first: %s) serialised the other "
	         "streams",
	         nlegacy, nlegacy == 1 ? "operation" : "operations", op);
	snprintf(in->evidence, sizeof in->evidence,
	         "%zu legacy-stream GPU intervals starting at %s, none overlapped by any of %zu GPU intervals of "
	         "other streams",
	         nlegacy, units_time(in->t0, b1, sizeof b1), nother);
	insight_recs(in, in->evidence, sizeof in->evidence);
}

/* no-overlap: copy and compute work both exist, yet two engines are busy together for under INSIGHT_OVERLAP_MIN of
 * the makespan. The gain is the makespan less the busiest engine's busy time: what perfect overlap would save. */
static void insight_no_overlap(const struct ss_analysis *a, struct ss_insights *out)
{
	uint64_t copy = a->eng[SS_ENG_H2D].busy_ns + a->eng[SS_ENG_D2H].busy_ns, most = 0;
	struct ss_insight *in;
	char b1[32], b2[32], b3[32], b4[32];

	if (copy == 0 || a->eng[SS_ENG_COMPUTE].busy_ns == 0 || a->makespan_ns == 0 ||
	    a->overlap >= INSIGHT_OVERLAP_MIN)
		return;
	if ((in = insight_new(out, "no-overlap", SS_SEV_PROBLEM,
	                      "Split the data into chunks and issue each chunk's copy, kernel and copy back on its own "
	                      "stream (4 to 8 streams), so one chunk's copies run under another's kernel.")) == NULL)
		return;
	for (int e = 0; e < SS_ENG_COUNT; e++)
		if (a->eng[e].busy_ns > most)
			most = a->eng[e].busy_ns;
	in->t0 = a->t0;
	in->t1 = a->t1;
	snprintf(in->summary, sizeof in->summary, "copies and kernels hardly overlap: %.1f%% of the makespan",
	         100.0 * a->overlap);
	snprintf(in->evidence, sizeof in->evidence, "overlap %s of makespan %s; copy engines busy %s, compute busy %s",
	         units_time(a->overlap_ns, b1, sizeof b1), units_time(a->makespan_ns, b2, sizeof b2),
	         units_time(copy, b3, sizeof b3), units_time(a->eng[SS_ENG_COMPUTE].busy_ns, b4, sizeof b4));
	if (most < a->makespan_ns) {
		in->have_gain = true;
		in->gain_ns = a->makespan_ns - most;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "at most: the makespan less the busiest engine's busy time (perfect overlap)");
	}
}

/* engine-bound: one engine busy for INSIGHT_BOUND_UTIL of the makespan or more; the run is that close to the
 * engine's own bound, and no stream count can take it below that engine's busy time. */
static void insight_engine_bound(const struct ss_analysis *a, struct ss_insights *out)
{
	int best = -1;
	struct ss_insight *in;
	char b1[32], b2[32];

	for (int e = 0; e < SS_ENG_COUNT; e++)
		if (best < 0 || a->eng[e].busy_ns > a->eng[best].busy_ns)
			best = e;
	if (a->makespan_ns == 0 || (double)a->eng[best].busy_ns < INSIGHT_BOUND_UTIL * (double)a->makespan_ns)
		return;
	if ((in =
	         insight_new(out, "engine-bound", SS_SEV_INFO,
	                     "More streams cannot help: shorten the bound itself (fewer or smaller transfers, a faster "
	                     "kernel), or overlap this work with something else.")) == NULL)
		return;
	in->t0 = a->t0;
	in->t1 = a->t1;
	snprintf(in->summary, sizeof in->summary, "bound by the %s engine: busy %.1f%% of the makespan",
	         insight_engine_names[best], 100.0 * (double)a->eng[best].busy_ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence, "%s engine busy %s of makespan %s (%llu intervals)",
	         insight_engine_names[best], units_time(a->eng[best].busy_ns, b1, sizeof b1),
	         units_time(a->makespan_ns, b2, sizeof b2), (unsigned long long)a->eng[best].count);
}

/* small-copies: pinned copies whose rate is below INSIGHT_SLOW_RATE of the fastest copy of their kind; at least
 * INSIGHT_SLOW_MIN of them taking INSIGHT_SLOW_SHARE of the makespan. The gain is their time less what they would
 * take at that peak rate: an upper bound, since batched copies still pay one latency. */
static void insight_small_copies(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	static const int kinds[] = {SS_KIND_H2D, SS_KIND_D2H};
	uint64_t pb[SS_KIND_COUNT] = {0}, pn[SS_KIND_COUNT] = {0}, ns = 0, bytes = 0;
	double saved = 0;
	struct ss_insight tmp, *in;
	char b1[32], b2[32];

	memset(&tmp, 0, sizeof tmp);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (!analysis_peak_rate(t, kinds[k], 1, &pb[kinds[k]], &pn[kinds[k]]))
			pb[kinds[k]] = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint64_t d = r->end - r->start;

		if ((r->kind != SS_KIND_H2D && r->kind != SS_KIND_D2H) || (r->flags & SS_REC_PAGEABLE) ||
		    r->bytes == 0 || pb[r->kind] == 0 || d == 0)
			continue;
		/* rate r->bytes/d below INSIGHT_SLOW_RATE of pb/pn */
		if ((double)r->bytes * (double)pn[r->kind] >= INSIGHT_SLOW_RATE * (double)pb[r->kind] * (double)d)
			continue;
		insight_note(&tmp, t, i);
		ns += d;
		bytes += r->bytes;
		saved += (double)d - (double)r->bytes * (double)pn[r->kind] / (double)pb[r->kind];
	}
	if (tmp.nrec < INSIGHT_SLOW_MIN || (double)ns < INSIGHT_SLOW_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(out, "small-copies", SS_SEV_HINT,
	                      "Batch the small copies into fewer, larger ones (one buffer, one cudaMemcpyAsync): each "
	                      "copy pays a fixed latency that a large one pays once.")) == NULL)
		return;
	memcpy(in->rec, tmp.rec, sizeof in->rec);
	in->nrec = tmp.nrec;
	in->t0 = tmp.t0;
	in->t1 = tmp.t1;
	snprintf(in->summary, sizeof in->summary,
	         "%zu copies run below %.0f%% of the trace's best bandwidth: per-copy latency dominates", tmp.nrec,
	         100.0 * INSIGHT_SLOW_RATE);
	snprintf(in->evidence, sizeof in->evidence, "%zu slow copies, %s in %s (%.1f%% of the makespan)", tmp.nrec,
	         units_bytes(bytes, b1, sizeof b1), units_time(ns, b2, sizeof b2),
	         100.0 * (double)ns / (double)a->makespan_ns);
	insight_recs(in, in->evidence, sizeof in->evidence);
	if (saved >= 1) {
		in->have_gain = true;
		in->gain_ns = (uint64_t)saved;
		snprintf(
		    in->gain_how, sizeof in->gain_how,
		    "at most: the slow copies' time less their bytes at the fastest rate of their kind in the trace");
	}
}

/* gpu-idle: the longest gap inside the GPU records' span with no GPU record, when longer than INSIGHT_IDLE_SHARE of
 * the makespan and INSIGHT_IDLE_MIN_NS; the evidence names the host's API and SYNC records overlapping it. The gain
 * is the gap: what filling it with work would save at most. */
static void insight_gpu_idle(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	uint64_t end = 0, g0 = 0, g1 = 0, api = 0, sync = 0;
	bool seen = false;
	struct ss_insight *in;
	char b1[32], b2[32];

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (!(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			continue;
		if (seen && r->start > end && r->start - end > g1 - g0) {
			g0 = end;
			g1 = r->start;
		}
		if (!seen || r->end > end)
			end = r->end;
		seen = true;
	}
	if (g1 - g0 < INSIGHT_IDLE_MIN_NS || (double)(g1 - g0) < INSIGHT_IDLE_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(out, "gpu-idle", SS_SEV_HINT,
	                      "Keep work queued ahead of the GPU: issue the next operations before the host waits or "
	                      "does its own work, or move that host work off the issuing thread.")) == NULL)
		return;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if ((r->kind != SS_KIND_API && r->kind != SS_KIND_SYNC) || r->end <= g0 || r->start >= g1)
			continue;
		if (in->nrec < SS_INSIGHT_MAX_RECS)
			in->rec[in->nrec] = i;
		in->nrec++;
		if (r->kind == SS_KIND_API)
			api++;
		else
			sync++;
	}
	in->t0 = g0;
	in->t1 = g1;
	snprintf(in->summary, sizeof in->summary, "the GPU idled %s (%.1f%% of the makespan) between work",
	         units_time(g1 - g0, b1, sizeof b1), 100.0 * (double)(g1 - g0) / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence,
	         "no GPU record from %s to %s; the host meanwhile: %llu API calls, %llu sync waits",
	         units_time(g0, b1, sizeof b1), units_time(g1, b2, sizeof b2), (unsigned long long)api,
	         (unsigned long long)sync);
	insight_recs(in, in->evidence, sizeof in->evidence);
	in->have_gain = true;
	in->gain_ns = g1 - g0;
	snprintf(in->gain_how, sizeof in->gain_how, "at most: the gap's length, if work filled it");
}

/* tracing-perturbation fires when tracing made the run this much longer than its untraced twin: one pair of
 * wall-clock runs of a whole program differs by a few percent from run to run (start-up, page cache, clocks), so a
 * smaller difference cannot be told from noise... */
#define INSIGHT_PERTURB_HINT_PCT 5
/* ...and is a problem from this much on: the recorder then takes a fifth or more of what the user sees, and its
 * per-call cost widens the host's gaps and calls on the timeline, so host-side verdicts (gpu-idle, launch-bound,
 * host-sync-order) may describe the recorder rather than the program. */
#define INSIGHT_PERTURB_PROBLEM_PCT 20

/* tracing-perturbation: the traced run took (traced - untraced) / untraced longer than its untraced twin, above
 * INSIGHT_PERTURB_HINT_PCT. The times are the program's wall clock (`record --twin`, the timeline's wall_*_ns), else
 * the experiment's cudaEvent makespans of its traced and untraced repeats (analysis_observer's have_overhead). No
 * record is evidence and no gain is sound: the fix changes what is measured, not the program. */
static void insight_perturbation(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	uint64_t tr = t->wall_traced_ns, un = t->wall_untraced_ns;
	const char *what = "the program's wall-clock time (record --twin)";
	struct ss_insight *in;
	char b1[32], b2[32];
	double pct;

	if (tr == 0 || un == 0) {
		tr = a->have_overhead ? a->traced_ns : 0;
		un = a->have_overhead ? a->untraced_ns : 0;
		what = "the experiment's cudaEvent makespans, traced and untraced repeats (medians)";
	}
	/* traced - untraced above INSIGHT_PERTURB_HINT_PCT % of untraced, in integers so that exactly 5% does not */
	if (tr == 0 || un == 0 || tr <= un ||
	    (unsigned __int128)(tr - un) * 100 <= (unsigned __int128)un * INSIGHT_PERTURB_HINT_PCT)
		return;
	pct = 100.0 * (double)(tr - un) / (double)un;
	if ((in = insight_new(out, "tracing-perturbation",
	                      (unsigned __int128)(tr - un) * 100 > (unsigned __int128)un * INSIGHT_PERTURB_PROBLEM_PCT
	                          ? SS_SEV_PROBLEM
	                          : SS_SEV_HINT,
	                      "Read the host's gaps and call times with the overhead in mind (kernel and copy "
	                      "durations are timed on the GPU and change least), or record less: fewer iterations, "
	                      "fewer streams or operations.")) == NULL)
		return;
	snprintf(in->summary, sizeof in->summary,
	         "tracing made the run %.1f%% longer than untraced: part of what the timeline shows is the recorder",
	         pct);
	snprintf(in->evidence, sizeof in->evidence, "traced %s, untraced twin %s (+%.1f%%): %s",
	         units_time(tr, b1, sizeof b1), units_time(un, b2, sizeof b2), pct, what);
}

/* insight_order sorts out by severity, keeping rule order within one (a stable insertion sort: a few entries). */
static void insight_order(struct ss_insights *out)
{
	for (size_t i = 1; i < out->n; i++) {
		struct ss_insight x = out->item[i];
		size_t j = i;

		while (j > 0 && out->item[j - 1].severity > x.severity) {
			out->item[j] = out->item[j - 1];
			j--;
		}
		out->item[j] = x;
	}
}

void insight_analyze(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	out->n = 0;
	if (t->n == 0 || a->makespan_ns == 0)
		return;
	insight_pageable(t, out);
	insight_legacy(t, out);
	insight_no_overlap(a, out);
	insight_engine_bound(a, out);
	insight_small_copies(t, a, out);
	insight_gpu_idle(t, a, out);
	insight_perturbation(t, a, out);
	insight_order(out);
}
