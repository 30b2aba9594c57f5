/* insight.c: the rules of `streamscope analyze`, each a verdict computed from a timeline's records and its analysis
 * (pageable-copy, legacy-stream-sync, no-overlap, engine-bound, small-copies, gpu-idle and the rest: the list is
 * cmd_analyze's help), and on a run of an experiment from where its op list puts each kernel's data as well
 * (misaligned-chunks). Each rule reads the numbers it names in its evidence and nothing else; a rule whose premise
 * the records cannot show does not fire. */
#include "core/insight.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/devsum.h"
#include "core/idmap.h"
#include "core/planner.h"
#include "core/stats.h"
#include "core/units.h"
#include "core/vec.h"
#include "core/xalloc.h"

/* no-overlap fires below this share of the makespan with two engines busy: a pipeline of two or more chunks per
 * engine overlaps far more than 5%; a run under it is, in effect, serial. */
#define INSIGHT_OVERLAP_MIN 0.05
/* engine-bound fires when one engine is busy for this share of the makespan or more: the run is then within 15% of
 * what that engine alone takes, so more streams cannot help by more than that (a copy-bound pipeline keeps its copy
 * engine some 89% busy on the H200, the rest its fill, drain and the engine's gaps between copies:
 * tests/data/h200/insights/engine-bound). */
#define INSIGHT_BOUND_UTIL 0.85
/* small-copies: a copy is slow when its rate is below this fraction of the faster of the fastest copy of its kind
 * in the trace and INSIGHT_LINK_FLOOR_GBS (a quarter: three quarters of its time are per-copy latency, not the
 * link)... */
#define INSIGHT_SLOW_RATE 0.25
/* ...the floor: 12 GB/s, what a PCIe 3.0 x16 link moves, the slowest host link of a current CUDA GPU, so that a
 * trace of nothing but small copies, none fast, is still measured against a link (bytes per ns = GB/s)... */
#define INSIGHT_LINK_FLOOR_GBS 12.0
/* ...and the rule fires on at least this many slow copies (a few slow copies are a start-up effect, not a pattern) */
#define INSIGHT_SLOW_MIN 16
/* ...whose time adds up to at least this share of the makespan (else batching them cannot matter). */
#define INSIGHT_SLOW_SHARE 0.05
/* gpu-idle fires on a gap with no GPU record inside the span longer than this share of the makespan... */
#define INSIGHT_IDLE_SHARE 0.10
/* ...and at least this long (shorter gaps are launch latency, which no change of structure removes). */
#define INSIGHT_IDLE_MIN_NS 10000u
/* ...or on such gaps together filling this share of the makespan (document 004's tasks: the GPU busy 6%). */
#define INSIGHT_IDLE_ALL_SHARE 0.50

/* false-dependency and low-kernel-concurrency count an operation that started this much or more after it could
 * have (a launch's latency is a few microseconds; a queue wait behind another stream's work is that work's length)...
 */
#define INSIGHT_FALSEDEP_MIN_NS 10000u
/* ...whose start came within this of another stream's operation's end (what a queue does: the next entry starts when
 * the one ahead completes, or a kernel's as the one ahead drains) ... */
#define INSIGHT_BLOCK_NS 10000u
/* ...and fire when such waits add up to this share of the makespan. */
#define INSIGHT_FALSEDEP_SHARE 0.05
/* low-kernel-concurrency: a kernel of fewer blocks than this leaves SMs idle on any current data-centre GPU (A100 108
 * SMs, H100/H200 132), so another stream's kernel had room beside it... */
#define INSIGHT_SMALL_GRID 64
/* ...and, on one stream, the hint needs this many such kernels taking this share of the makespan. */
#define INSIGHT_LKC_MIN 16
#define INSIGHT_LKC_SHARE 0.20
/* launch-bound: at least this many GPU operations (a handful is not a rate)... */
#define INSIGHT_LAUNCH_MIN_OPS 64
/* ...the GPU busy under this share of the makespan (a GPU-bound run keeps it busy)... */
#define INSIGHT_LAUNCH_GPU 0.60
/* ...the host in API calls for this share of it (it never stopped issuing)... */
#define INSIGHT_LAUNCH_HOST 0.80
/* ...and this share of the operations issued after their stream and engine were free (the GPU waited for them). */
#define INSIGHT_LAUNCH_LATE 0.50
/* host-sync-order: waits, and completion differences, shorter than this are the sync call's own cost. */
#define INSIGHT_SYNC_MIN_NS 10000u
/* managed-migration fires when on-demand migrations take this share of the makespan. */
#define INSIGHT_MIGRATION_SHARE 0.05
/* Without migration records, a kernel run this many times longer than the median run of the same kernel, of at least
 * INSIGHT_FAULT_RUNS runs, on managed memory nobody prefetched, is taken for one that faulted its data in (a 64 MiB
 * buffer's first pass on the H200: 6.5-8.6 ms against 95 us resident, tests/data/h200/insights/managed-migration). */
#define INSIGHT_FAULT_RATIO 3.0
#define INSIGHT_FAULT_RUNS 3

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

/* insight_take gives in the evidence (records and time range) gathered in tmp while the rule scanned. */
static void insight_take(struct ss_insight *in, const struct ss_insight *tmp)
{
	memcpy(in->rec, tmp->rec, sizeof in->rec);
	in->nrec = tmp->nrec;
	in->t0 = tmp->t0;
	in->t1 = tmp->t1;
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

/* The union of intervals added in order of their starts (insight_cover_add): its length so far, and its end. */
struct insight_cover {
	uint64_t ns, end;
};

/* insight_cover_add adds [s, e) to u, s no earlier than the start of any interval added before, and returns where
 * the part of it the union did not yet hold begins: that part is [returned, e), empty when the return is e or more.
 * Intervals added in start order overlap the union only in [s, u->end), so that part is all that is new. */
static uint64_t insight_cover_add(struct insight_cover *u, uint64_t s, uint64_t e)
{
	uint64_t from = s > u->end ? s : u->end;

	if (e > from) {
		u->ns += e - from;
		u->end = e;
	}
	return from;
}

/* insight_union_ns: the length of the union of the intervals of t's records that keep(r) accepts (t sorted), each
 * clipped to [lo, hi). */
static uint64_t insight_union_ns(const struct ss_timeline *t, bool (*keep)(const struct ss_record *), uint64_t lo,
                                 uint64_t hi)
{
	struct insight_cover u = {0, 0};

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint64_t rs = r->start < lo ? lo : r->start, re = r->end > hi ? hi : r->end;

		if (keep(r) && re > rs)
			insight_cover_add(&u, rs, re);
	}
	return u.ns;
}

/* An interval [s, e) of engine class c (0 where the class does not matter), for unions of intervals that are not
 * records' (insight_spans_ns). */
struct insight_span {
	uint64_t s, e;
	int c;
};

/* insight_cmp_span orders spans by class, then start. */
static int insight_cmp_span(const void *x, const void *y)
{
	const struct insight_span *a = x, *b = y;

	if (a->c != b->c)
		return a->c < b->c ? -1 : 1;
	return a->s < b->s ? -1 : a->s > b->s;
}

/* insight_spans_ns: the length of the union of the n spans of v, all of one class, each clipped to [lo, hi); sorts
 * v by start. */
static uint64_t insight_spans_ns(struct insight_span *v, size_t n, uint64_t lo, uint64_t hi)
{
	struct insight_cover u = {0, 0};

	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, insight_cmp_span);
	for (size_t i = 0; i < n; i++) {
		uint64_t s = v[i].s < lo ? lo : v[i].s, e = v[i].e > hi ? hi : v[i].e;

		if (e > s)
			insight_cover_add(&u, s, e);
	}
	return u.ns;
}

/* pageable-copy: copies the records flag SS_REC_PAGEABLE. The driver stages them through pinned memory on the host's
 * time, so the call blocks the host: an H2D's while it stages the data, a D2H's until the copy is done and copied
 * out; the host issues nothing meanwhile. */
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

/* insight_legacy_rec: r is on a legacy default stream: ours (SS_STREAM_LEGACY), or one an imported trace gives an
 * index and the kind legacy (Nsight Systems' null stream, TARGET_INFO_CUDA_STREAM flag 3). */
static bool insight_legacy_rec(const struct ss_timeline *t, const struct ss_record *r)
{
	const struct ss_stream_info *si;

	if (r->stream == SS_STREAM_LEGACY)
		return true;
	return r->stream >= 0 && (si = timeline_stream(t, r->stream)) != NULL && si->kind == SS_SKIND_LEGACY;
}

/* insight_busiest: the busiest engine's busy time in a, where one_copy (the copies' busy time on a GPU with one copy
 * engine, insight_one_copy_busy; 0 otherwise) counts as one engine's. */
static uint64_t insight_busiest(const struct ss_analysis *a, uint64_t one_copy)
{
	uint64_t most = one_copy;

	for (int e = 0; e < SS_ENG_COUNT; e++)
		if (a->eng[e].busy_ns > most)
			most = a->eng[e].busy_ns;
	return most;
}

/* no-overlap: copy and compute work both exist, the engines' busy time not yet overlapped beyond the busiest one's
 * is INSIGHT_OVERLAP_MIN of the makespan or more (there is work to hide under it), yet two engines are busy
 * together for under INSIGHT_OVERLAP_MIN of the makespan. The gain, what perfect overlap would save at most: that
 * busy time, or the makespan less the busiest engine's busy time (insight_busiest, one_copy as there) where less. */
static void insight_no_overlap(const struct ss_analysis *a, uint64_t one_copy, struct ss_insights *out)
{
	uint64_t copy = one_copy > 0 ? one_copy : a->eng[SS_ENG_H2D].busy_ns + a->eng[SS_ENG_D2H].busy_ns, most;
	int64_t hide;
	struct ss_insight *in;
	char b1[32], b2[32], b3[32], b4[32];

	if (copy == 0 || a->eng[SS_ENG_COMPUTE].busy_ns == 0 || a->makespan_ns == 0 ||
	    a->overlap >= INSIGHT_OVERLAP_MIN)
		return;
	/* what perfect overlap could hide: the engines' busy time not yet overlapped, beyond the busiest engine's (an
	 * upper bound: time with three engines busy counts once in overlap_ns). Too little (document 003's program,
	 * recorded: 0.41 ms of kernels beside 15 ms of copies in a 114 ms run of host waits; a program whose copies
	 * already run under its kernels, 0.9 ms in 587 ms) and overlap cannot make a difference */
	most = insight_busiest(a, one_copy);
	hide = (int64_t)(copy + a->eng[SS_ENG_COMPUTE].busy_ns) - (int64_t)(one_copy > 0 ? 0 : a->overlap_ns) -
	       (int64_t)most;
	if ((double)hide < INSIGHT_OVERLAP_MIN * (double)a->makespan_ns)
		return;
	if ((in = insight_new(out, "no-overlap", SS_SEV_PROBLEM,
	                      "Split the data into chunks and issue each chunk's copy, kernel and copy back on its own "
	                      "stream (4 to 8 streams), so one chunk's copies run under another's kernel.")) == NULL)
		return;
	in->t0 = a->t0;
	in->t1 = a->t1;
	snprintf(in->summary, sizeof in->summary, "copies and kernels hardly overlap: %.1f%% of the makespan",
	         100.0 * a->overlap);
	snprintf(in->evidence, sizeof in->evidence, "overlap %s of makespan %s; copy engine%s busy %s, compute busy %s",
	         units_time(a->overlap_ns, b1, sizeof b1), units_time(a->makespan_ns, b2, sizeof b2),
	         one_copy > 0 ? " (one: H2D and D2H take turns)" : "s", units_time(copy, b3, sizeof b3),
	         units_time(a->eng[SS_ENG_COMPUTE].busy_ns, b4, sizeof b4));
	in->have_gain = true;
	if (a->makespan_ns - most <= (uint64_t)hide) {
		in->gain_ns = a->makespan_ns - most;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "at most: the makespan less the busiest engine's busy time (perfect overlap)");
	} else {
		in->gain_ns = (uint64_t)hide;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "at most: the engines' busy time not yet overlapped, beyond the busiest engine's (perfect "
		         "overlap)");
	}
}

/* engine-bound: one engine busy for INSIGHT_BOUND_UTIL of the makespan or more; the run is that close to the
 * engine's own bound, and no stream count can take it below that engine's busy time. one_copy: the copies' busy
 * time on a GPU with one copy engine (insight_one_copy_busy), that engine's. */
static void insight_engine_bound(const struct ss_analysis *a, uint64_t one_copy, struct ss_insights *out)
{
	int best = -1;
	uint64_t busy;
	unsigned long long count;
	const char *name;
	struct ss_insight *in;
	char b1[32], b2[32];

	for (int e = 0; e < SS_ENG_COUNT; e++)
		if (best < 0 || a->eng[e].busy_ns > a->eng[best].busy_ns)
			best = e;
	busy = a->eng[best].busy_ns;
	count = (unsigned long long)a->eng[best].count;
	name = insight_engine_names[best];
	if (one_copy > busy) {
		busy = one_copy;
		count = (unsigned long long)(a->eng[SS_ENG_H2D].count + a->eng[SS_ENG_D2H].count);
		name = "copy (one for H2D and D2H)";
	}
	if (a->makespan_ns == 0 || (double)busy < INSIGHT_BOUND_UTIL * (double)a->makespan_ns)
		return;
	if ((in =
	         insight_new(out, "engine-bound", SS_SEV_INFO,
	                     "More streams cannot help: shorten the bound itself (fewer or smaller transfers, a faster "
	                     "kernel), or overlap this work with something else.")) == NULL)
		return;
	in->t0 = a->t0;
	in->t1 = a->t1;
	snprintf(in->summary, sizeof in->summary, "bound by the %s engine: busy %.1f%% of the makespan", name,
	         100.0 * (double)busy / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence, "%s engine busy %s of makespan %s (%llu intervals)", name,
	         units_time(busy, b1, sizeof b1), units_time(a->makespan_ns, b2, sizeof b2), count);
}

/* small-copies: pinned copies (not pageable, not managed migrations) whose rate is below INSIGHT_SLOW_RATE of the
 * fastest copy of their kind, or of INSIGHT_LINK_FLOOR_GBS where that is faster; at least INSIGHT_SLOW_MIN of them
 * taking INSIGHT_SLOW_SHARE of the makespan. The gain is their time less what they would take at that peak rate: an
 * upper bound, since batched copies still pay one latency. */
static void insight_small_copies(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	static const int kinds[] = {SS_KIND_H2D, SS_KIND_D2H};
	uint64_t pb[SS_KIND_COUNT] = {0}, pn[SS_KIND_COUNT] = {0}, ns = 0, bytes = 0;
	double saved = 0;
	struct ss_insight tmp, *in;
	char b1[32], b2[32];

	memset(&tmp, 0, sizeof tmp);
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		int kd = kinds[k];

		if (!analysis_peak_rate(t, kd, 1, &pb[kd], &pn[kd]) || pn[kd] == 0 ||
		    (double)pb[kd] < INSIGHT_LINK_FLOOR_GBS * (double)pn[kd]) {
			pb[kd] = (uint64_t)(INSIGHT_LINK_FLOOR_GBS * 1000.0); /* 12000 bytes per 1000 ns */
			pn[kd] = 1000;
		}
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint64_t d = r->end - r->start;

		if ((r->kind != SS_KIND_H2D && r->kind != SS_KIND_D2H) || (r->flags & SS_REC_PAGEABLE) ||
		    (r->flags & SS_REC_MANAGED) || r->bytes == 0 || d == 0)
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
	insight_take(in, &tmp);
	snprintf(in->summary, sizeof in->summary,
	         "%zu copies run below %.0f%% of the link's bandwidth: per-copy latency dominates", tmp.nrec,
	         100.0 * INSIGHT_SLOW_RATE);
	snprintf(in->evidence, sizeof in->evidence, "%zu slow copies, %s in %s (%.1f%% of the makespan)", tmp.nrec,
	         units_bytes(bytes, b1, sizeof b1), units_time(ns, b2, sizeof b2),
	         100.0 * (double)ns / (double)a->makespan_ns);
	insight_recs(in, in->evidence, sizeof in->evidence);
	if (saved >= 1) {
		in->have_gain = true;
		in->gain_ns = (uint64_t)saved;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "at most: the slow copies' time less their bytes at the fastest rate of their kind in the "
		         "trace (12 GB/s "
		         "at least)");
	}
}

/* gpu-idle: the longest gap inside the GPU records' span with no GPU record, when longer than INSIGHT_IDLE_SHARE of
 * the makespan and INSIGHT_IDLE_MIN_NS, or when the gaps of INSIGHT_IDLE_MIN_NS or more together fill
 * INSIGHT_IDLE_ALL_SHARE of it (a GPU idle most of the time in many short gaps); the evidence names the host's API,
 * SYNC and NVTX records overlapping the longest. The gain is what filling the gaps with work would save at most: the
 * longest gap, or those gaps together when they fire it. */
static void insight_gpu_idle(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	uint64_t end = 0, g0 = 0, g1 = 0, api = 0, sync = 0, marks = 0, idle = 0, gaps = 0, long_idle = 0;
	bool many;
	const struct ss_record *mark = NULL;
	bool seen = false;
	struct ss_insight *in;
	char b1[32], b2[32], marked[64];

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (!(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			continue;
		if (seen && r->start > end) {
			idle += r->start - end;
			gaps++;
			if (r->start - end >= INSIGHT_IDLE_MIN_NS)
				long_idle += r->start - end;
		}
		if (seen && r->start > end && r->start - end > g1 - g0) {
			g0 = end;
			g1 = r->start;
		}
		if (!seen || r->end > end)
			end = r->end;
		seen = true;
	}
	many = (double)long_idle >= INSIGHT_IDLE_ALL_SHARE * (double)a->makespan_ns;
	if (!many && (g1 - g0 < INSIGHT_IDLE_MIN_NS || (double)(g1 - g0) < INSIGHT_IDLE_SHARE * (double)a->makespan_ns))
		return;
	if ((in = insight_new(out, "gpu-idle", SS_SEV_HINT,
	                      "Keep work queued ahead of the GPU: issue the next operations before the host waits or "
	                      "does its own work, or move that host work off the issuing thread.")) == NULL)
		return;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind == SS_KIND_MARKER && r->end > g0 && r->start < g1) { /* the host's own work, when marked */
			mark = mark == NULL ? r : mark;
			marks++;
		}
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
	/* the longest gap, and all of them where the others add as much again: a GPU mostly idle is told so */
	if (gaps > 1 && (many || idle >= 2 * (g1 - g0)))
		snprintf(in->summary, sizeof in->summary,
		         "the GPU idled %s (%.1f%% of the makespan) between work, %s (%.1f%%) in %llu gaps in all",
		         units_time(g1 - g0, b1, sizeof b1), 100.0 * (double)(g1 - g0) / (double)a->makespan_ns,
		         units_time(idle, b2, sizeof b2), 100.0 * (double)idle / (double)a->makespan_ns,
		         (unsigned long long)gaps);
	else
		snprintf(in->summary, sizeof in->summary, "the GPU idled %s (%.1f%% of the makespan) between work",
		         units_time(g1 - g0, b1, sizeof b1), 100.0 * (double)(g1 - g0) / (double)a->makespan_ns);
	marked[0] = '\0';
	if (marks > 0)
		snprintf(marked, sizeof marked, ", %llu NVTX range%s", (unsigned long long)marks,
		         marks == 1 ? "" : "s");
	snprintf(in->evidence, sizeof in->evidence,
	         "no GPU record from %s to %s; the host meanwhile: %llu API call%s, %llu sync wait%s%s%s%s%s",
	         units_time(g0, b1, sizeof b1), units_time(g1, b2, sizeof b2), (unsigned long long)api,
	         api == 1 ? "" : "s", (unsigned long long)sync, sync == 1 ? "" : "s", marked, mark != NULL ? " (" : "",
	         mark != NULL ? timeline_name(t, mark->name) : "", mark != NULL ? marks > 1 ? "...)" : ")" : "");
	insight_recs(in, in->evidence, sizeof in->evidence);
	in->have_gain = true;
	in->gain_ns = many ? long_idle : g1 - g0;
	snprintf(in->gain_how, sizeof in->gain_how,
	         many ? "at most: the gaps' length, if work filled them"
	              : "at most: the gap's length, if work filled it");
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

/* A record index with the value it is sorted by (qsort compares these without a global). */
struct insight_key {
	uint64_t key;
	size_t i;
};

/* The per-record facts the scheduling rules share, for the GPU records of experiment or program streams (stream
 * >= 0 or a raw stream id): when the record could have started as far as its own stream and its issue go. */
struct insight_ready {
	uint64_t *ready;    /* [record]: the later of prev_end and, when issued, api_end */
	uint64_t *prev_end; /* [record]: the end of the previous GPU record of its stream, 0 for the first */
	bool *issued;       /* [record]: its API call (same correlation) is on the timeline; of every GPU record */
	uint64_t *api_end;  /* [record]: that call's end, when issued */
	struct insight_key *by_end; /* the GPU records of streams (key: their end), by end */
	size_t nby_end;
	/* per engine class (insight_engine_class 0..2): the union of its records' intervals, gaps shorter than
	 * INSIGHT_BLOCK_NS closed (the few microseconds an engine takes between two operations, as the H200's copy
	 * engines do, are no idleness another stream could use), in time order as [start, end) pairs, and the busy
	 * time before each */
	uint64_t *busy[3], *busy_before[3];
	size_t nbusy[3];
};

/* insight_stream_key: the key of r's stream: the experiment stream index where there is one, else the raw id. */
static uint64_t insight_stream_key(const struct ss_record *r)
{
	return ((uint64_t)(uint32_t)r->stream << 32) | r->raw_stream;
}

/* insight_on_stream: r is GPU work on a stream of the run's own (not the legacy or an unknown stream). */
static bool insight_on_stream(const struct ss_record *r)
{
	return (SS_GPU_KINDS & SS_KIND_BIT(r->kind)) && r->stream >= 0;
}

static int insight_cmp_key(const void *x, const void *y)
{
	const struct insight_key *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

/* insight_engine_class: records of one class compete for one engine: H2D copies, D2H copies, kernels, the rest. */
static int insight_engine_class(int kind)
{
	switch (kind) {
	case SS_KIND_H2D:
		return 0;
	case SS_KIND_D2H:
		return 1;
	case SS_KIND_KERNEL:
		return 2;
	default:
		return 3;
	}
}

/* insight_class: the engine class record r competes in on t: insight_engine_class's, but a GPU with one copy engine
 * (its trace says so: an Nsight Systems export's asyncEngines) runs H2D and D2H copies one at a time, in one class. */
static int insight_class(const struct ss_timeline *t, const struct ss_record *r)
{
	const struct ss_device_info *d = timeline_device(t, r->device);
	int c = insight_engine_class(r->kind);

	return c == 1 && d != NULL && d->copy_engines == 1 ? 0 : c;
}

/* insight_ready_build fills rd for t (sorted); insight_ready_free releases it. */
static void insight_ready_build(const struct ss_timeline *t, struct insight_ready *rd)
{
	struct idmap api, last; /* correlation -> API record; stream key -> last GPU record + 1 */

	rd->ready = xcalloc(t->n + 1, sizeof *rd->ready);
	rd->prev_end = xcalloc(t->n + 1, sizeof *rd->prev_end);
	rd->api_end = xcalloc(t->n + 1, sizeof *rd->api_end);
	rd->issued = xcalloc(t->n + 1, sizeof *rd->issued);
	rd->by_end = xcalloc(t->n + 1, sizeof *rd->by_end);
	rd->nby_end = 0;
	idmap_init(&api);
	idmap_init(&last);
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == SS_KIND_API && t->rec[i].correlation != 0)
			idmap_put(&api, t->rec[i].correlation, (uint32_t)i);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint32_t v;

		if (!(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			continue;
		if (r->correlation != 0 && idmap_get(&api, r->correlation, &v) && t->rec[v].start <= r->start) {
			rd->issued[i] = true;
			rd->api_end[i] = t->rec[v].end;
		}
		if (!insight_on_stream(r))
			continue;
		rd->ready[i] = rd->api_end[i];
		if (idmap_get(&last, insight_stream_key(r), &v)) {
			rd->prev_end[i] = t->rec[v - 1].end;
			if (rd->prev_end[i] > rd->ready[i])
				rd->ready[i] = rd->prev_end[i];
		}
		idmap_put(&last, insight_stream_key(r), (uint32_t)(i + 1));
		rd->by_end[rd->nby_end].key = r->end;
		rd->by_end[rd->nby_end++].i = i;
	}
	idmap_free(&api);
	idmap_free(&last);
	for (int k = 0; k < 3; k++) {
		rd->busy[k] = xcalloc(2 * t->n + 2, sizeof *rd->busy[k]);
		rd->busy_before[k] = xcalloc(t->n + 1, sizeof *rd->busy_before[k]);
		rd->nbusy[k] = 0;
	}
	for (size_t i = 0; i < t->n; i++) { /* start order: each union grows at its end */
		const struct ss_record *r = &t->rec[i];
		int k = insight_class(t, r);
		uint64_t *u;
		size_t *n;

		if (k > 2 || !(SS_GPU_KINDS & SS_KIND_BIT(r->kind)) || r->end <= r->start)
			continue;
		u = rd->busy[k];
		n = &rd->nbusy[k];
		if (*n > 0 && r->start <= u[2 * *n - 1] + INSIGHT_BLOCK_NS) { /* a short gap: the engine's own */
			if (r->end > u[2 * *n - 1])
				u[2 * *n - 1] = r->end;
			continue;
		}
		rd->busy_before[k][*n] = *n == 0 ? 0 : rd->busy_before[k][*n - 1] + u[2 * *n - 1] - u[2 * *n - 2];
		u[2 * *n] = r->start;
		u[2 * *n + 1] = r->end;
		(*n)++;
	}
	qsort(rd->by_end, rd->nby_end, sizeof *rd->by_end, insight_cmp_key);
}

/* insight_ready_free frees what insight_ready_build allocated in rd. */
static void insight_ready_free(struct insight_ready *rd)
{
	free(rd->ready);
	free(rd->prev_end);
	free(rd->api_end);
	free(rd->issued);
	free(rd->by_end);
	for (int k = 0; k < 3; k++) {
		free(rd->busy[k]);
		free(rd->busy_before[k]);
	}
}

/* The other streams' GPU work as legacy-stream-sync asks of it: its ends in order, and its starts in order with,
 * from each on, the earliest issue of the work starting there or later (UINT64_MAX where none is known). */
struct insight_others {
	uint64_t *end, *start, *issue_min;
	size_t n;
};

/* insight_upper: how many of the n sorted values v are <= x. */
static size_t insight_upper(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insight_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* insight_legacy_waits: whether legacy-stream record r (issued at issue when known) and the other streams' work
 * waited on each other: other work ended after r was issued and before r started (r waited for it), or other work
 * issued before r ended started only after it (it waited for r). Without r's issue: other work ended by r's start
 * and other work started from its end (r lies between theirs). */
static bool insight_legacy_waits(const struct insight_others *o, const struct ss_record *r, bool known, uint64_t issue)
{
	size_t before = insight_upper(o->end, o->n, r->start);           /* ends <= r->start */
	size_t after = o->n - insight_upper(o->start, o->n, r->end - 1); /* starts >= r->end */

	if (!known)
		return before > 0 && after > 0;
	if (before > 0 && o->end[before - 1] > issue)
		return true;
	return after > 0 && o->issue_min[o->n - after] < r->end;
}

/* legacy-stream-sync: GPU work on the legacy default stream that waited for other streams' work or held it back
 * (insight_legacy_waits, by rd's issue times), and none of theirs overlaps any legacy work: the legacy stream's
 * implicit synchronisation serialised them. Legacy work of a program's set-up or teardown, or between phases the host
 * synchronised, held back nothing and does not count. One pass in start order (t is sorted): a record overlaps an
 * earlier-starting one of the other side exactly when the latest end of that side so far is after its start. */
static void insight_legacy(const struct ss_timeline *t, const struct insight_ready *rd, struct ss_insights *out)
{
	size_t nlegacy = 0, nother = 0, first = t->n;
	uint64_t end_legacy = 0, end_other = 0;
	bool across = false, *pending = xcalloc(t->n + 1, sizeof *pending);
	struct insight_others o = {xcalloc(t->n + 1, sizeof *o.end), xcalloc(t->n + 1, sizeof *o.start),
	                           xcalloc(t->n + 1, sizeof *o.issue_min), 0};
	struct insight_key *by_start = xcalloc(t->n + 1, sizeof *by_start);
	struct ss_insight *in;
	char b1[32], op[96];

	for (size_t i = 0; i < t->n; i++) { /* the other streams' work */
		const struct ss_record *r = &t->rec[i];

		if ((SS_GPU_KINDS & SS_KIND_BIT(r->kind)) && r->end > r->start && r->stream >= 0 &&
		    !insight_legacy_rec(t, r)) {
			o.end[o.n] = r->end;
			by_start[o.n].key = r->start;
			by_start[o.n++].i = i;
		}
	}
	qsort(o.end, o.n, sizeof *o.end, insight_cmp_u64);
	qsort(by_start, o.n, sizeof *by_start, insight_cmp_key);
	for (size_t k = o.n; k-- > 0;) {
		size_t i = by_start[k].i;
		uint64_t at = rd->issued[i] ? rd->api_end[i] : UINT64_MAX;

		o.start[k] = by_start[k].key;
		o.issue_min[k] = k + 1 < o.n && o.issue_min[k + 1] < at ? o.issue_min[k + 1] : at;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (!(SS_GPU_KINDS & SS_KIND_BIT(r->kind)) || r->end <= r->start)
			continue;
		if (insight_legacy_rec(t, r)) {
			/* counted only where the other streams waited on it, or it on theirs */
			pending[i] = insight_legacy_waits(&o, r, rd->issued[i], rd->api_end[i]);
			if (first == t->n && pending[i])
				first = i;
			nlegacy += pending[i];
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
	free(o.end);
	free(o.start);
	free(o.issue_min);
	free(by_start);
	if (first == t->n || nother == 0 || across) {
		free(pending);
		return;
	}
	if ((in = insight_new(out, "legacy-stream-sync", SS_SEV_PROBLEM,
	                      "Issue this work on a created stream (or create the other streams with "
	                      "cudaStreamNonBlocking): the legacy default stream waits for, and holds back, every "
	                      "blocking stream.")) == NULL) {
		free(pending);
		return;
	}
	for (size_t i = first; i < t->n; i++)
		if (pending[i])
			insight_note(in, t, i);
	free(pending);
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

/* insight_busy_upto: how long engine class k was busy before time x. */
static uint64_t insight_busy_upto(const struct insight_ready *rd, int k, uint64_t x)
{
	const uint64_t *u = rd->busy[k];
	size_t lo = 0, hi = rd->nbusy[k];

	while (lo < hi) { /* the first interval starting at or after x */
		size_t mid = (lo + hi) / 2;
		if (u[2 * mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	lo--; /* the last interval starting before x */
	return rd->busy_before[k][lo] + ((x < u[2 * lo + 1] ? x : u[2 * lo + 1]) - u[2 * lo]);
}

/* insight_idle_in: how long engine class k (0..2) was idle in [a, b). */
static uint64_t insight_idle_in(const struct insight_ready *rd, int k, uint64_t a, uint64_t b)
{
	if (b <= a)
		return 0;
	return (b - a) - (insight_busy_upto(rd, k, b) - insight_busy_upto(rd, k, a));
}

/* insight_idle_spans appends to v (*n spans of *cap, vec.h's idiom) the intervals of [a, b) in which engine class k
 * (0..2) was idle, in time order, as class 0: together as long as insight_idle_in(rd, k, a, b). */
static void insight_idle_spans(const struct insight_ready *rd, int k, uint64_t a, uint64_t b, struct insight_span **v,
                               size_t *n, size_t *cap)
{
	const uint64_t *u = rd->busy[k];
	size_t lo = 0, hi = rd->nbusy[k];

	while (lo < hi) { /* the first busy interval ending after a */
		size_t mid = (lo + hi) / 2;
		if (u[2 * mid + 1] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; a < b && lo < rd->nbusy[k] && u[2 * lo] < b; lo++) {
		if (u[2 * lo] > a)
			*VEC_PUSH(*v, *n, *cap, 64) = (struct insight_span){a, u[2 * lo], 0};
		a = u[2 * lo + 1];
	}
	if (a < b)
		*VEC_PUSH(*v, *n, *cap, 64) = (struct insight_span){a, b, 0};
}

/* insight_blocker returns a GPU record of another stream than rec[i]'s, started before it, that ended within
 * INSIGHT_BLOCK_NS of rec[i]'s start, before or after it (a queue hands out its next entry as the one ahead ends, or
 * as a kernel ahead drains its last blocks): the one ending nearest the start; t->n when none. */
static size_t insight_blocker(const struct ss_timeline *t, const struct insight_ready *rd, size_t i)
{
	const struct ss_record *r = &t->rec[i];
	uint64_t from = r->start > INSIGHT_BLOCK_NS ? r->start - INSIGHT_BLOCK_NS : 0, best_d = UINT64_MAX;
	size_t lo = 0, hi = rd->nby_end, best = t->n;

	while (lo < hi) { /* first record ending at or after from */
		size_t mid = (lo + hi) / 2;
		if (rd->by_end[mid].key < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < rd->nby_end; lo++) {
		const struct ss_record *b = &t->rec[rd->by_end[lo].i];
		uint64_t d = b->end > r->start ? b->end - r->start : r->start - b->end;

		if (b->end > r->start + INSIGHT_BLOCK_NS)
			break;
		if (b->start < r->start && insight_stream_key(b) != insight_stream_key(r) && d < best_d) {
			best = rd->by_end[lo].i;
			best_d = d;
		}
	}
	return best;
}

/* false-dependency: GPU work that was ready (its stream's previous work done, its call issued) while its engine sat
 * idle, and that started only when another stream's work ended: it waited in a hardware queue behind that stream's
 * dependent work (too few queues for the streams, or an issue order that puts dependent work at a shared queue's
 * head). Counted per record whose engine idled INSIGHT_FALSEDEP_MIN_NS or more, and as long as the record lasts or
 * more, between its being ready and its start (its wait). The time waited is the union, within the work span, of
 * the instants at which a counted record waited on its idle engine: operations waiting at once, on one engine or on
 * several, count once, since running them earlier saves no more than that. Fires when it is INSIGHT_FALSEDEP_SHARE
 * of the makespan; the gain is at most that time, and at most what perfect overlap saves. */
static void insight_false_dependency(const struct ss_timeline *t, const struct ss_analysis *a,
                                     const struct insight_ready *rd, uint64_t one_copy, struct ss_insights *out)
{
	uint64_t waited, most, room;
	size_t nwait = 0, blockers[SS_INSIGHT_MAX_RECS], nw = 0, wcap = 0, nidle = 0, idlecap = 0;
	struct insight_span *w = NULL, *idle = NULL; /* the counted waits, by class; the idle parts of their union */
	struct insight_cover u = {0, 0};
	struct ss_insight tmp, *in;
	char b1[32], b2[32];

	memset(&tmp, 0, sizeof tmp);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int c = insight_class(t, r);
		uint64_t idle_ns;
		size_t b;

		if (!insight_on_stream(r) || !rd->issued[i] || c > 2 || r->start <= rd->ready[i])
			continue;
		idle_ns = insight_idle_in(rd, c, rd->ready[i], r->start);
		/* a wait as long as the operation itself at least: shorter ones are the engines' own scheduling (on the
		 * H200 a D2H may start some 20 us after its kernel, once the other direction's copy ends) */
		if (idle_ns < INSIGHT_FALSEDEP_MIN_NS || idle_ns < r->end - r->start ||
		    (b = insight_blocker(t, rd, i)) >= t->n || t->rec[b].stream < 0)
			continue;
		if (tmp.nrec < SS_INSIGHT_MAX_RECS)
			blockers[tmp.nrec] = b;
		insight_note(&tmp, t, i);
		*VEC_PUSH(w, nw, wcap, 64) = (struct insight_span){rd->ready[i], r->start, c};
		nwait++;
	}
	if (nwait == 0)
		return;
	/* each class's waits merged, the idle parts of that union taken, then those of all classes merged */
	qsort(w, nw, sizeof *w, insight_cmp_span);
	for (size_t j = 0; j < nw; j++) {
		uint64_t from;

		if (j > 0 && w[j].c != w[j - 1].c)
			u = (struct insight_cover){0, 0};
		if ((from = insight_cover_add(&u, w[j].s, w[j].e)) < w[j].e)
			insight_idle_spans(rd, w[j].c, from, w[j].e, &idle, &nidle, &idlecap);
	}
	waited = insight_spans_ns(idle, nidle, a->t0, a->t1);
	free(w);
	free(idle);
	if ((double)waited < INSIGHT_FALSEDEP_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(out, "false-dependency", SS_SEV_PROBLEM,
	                      "Give every stream a hardware queue of its own (CUDA_DEVICE_MAX_CONNECTIONS at least the "
	                      "stream count, 32 at most), or issue breadth-first so that independent work, not a "
	                      "stream's dependent next step, sits at the head of each queue.")) == NULL)
		return;
	insight_take(in, &tmp);
	snprintf(in->summary, sizeof in->summary,
	         "%zu operations waited behind other streams' work though their engine was idle, for %s of the run",
	         nwait, units_time(waited, b1, sizeof b1));
	snprintf(in->evidence, sizeof in->evidence,
	         "each was issued and its stream's previous work done while its engine idled, and it started within %s "
	         "of the end of another stream's operation (first: record %zu after record %zu); engines idle under "
	         "waiting work %s of the run (operations waiting at once counted once)",
	         units_time(INSIGHT_BLOCK_NS, b2, sizeof b2), tmp.rec[0], blockers[0],
	         units_time(waited, b1, sizeof b1));
	insight_recs(in, in->evidence, sizeof in->evidence);
	most = insight_busiest(a, one_copy);
	room = a->makespan_ns > most ? a->makespan_ns - most : 0;
	in->have_gain = true;
	in->gain_ns = waited < room ? waited : room;
	snprintf(in->gain_how, sizeof in->gain_how,
	         "at most: the time work waited on an idle engine, counted once where operations waited together, "
	         "capped at the makespan less the busiest engine's busy time");
}

/* insight_blocks: the thread blocks of kernel record i's launch, UINT64_MAX when its launch is not known (not
 * counted small). */
static uint64_t insight_blocks(const struct ss_timeline *t, size_t i)
{
	const struct ss_launch *l = timeline_launch(t, &t->rec[i]);

	return l == NULL ? UINT64_MAX : (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
}

/* low-kernel-concurrency: small kernels (of a known launch under INSIGHT_SMALL_GRID blocks) that never ran
 * together. Across streams (a problem): kernels ready while another stream's kernel ran, started only after it
 * (waits of INSIGHT_FALSEDEP_MIN_NS or more whose union within the work span, kernels waiting at once counted once,
 * is INSIGHT_FALSEDEP_SHARE of the makespan; that union is the gain at most). On one stream (a hint):
 * INSIGHT_LKC_MIN small kernels or more taking INSIGHT_LKC_SHARE of the makespan, which can only overlap if they are
 * independent and go to streams of their own. */
static void insight_low_kernel_concurrency(const struct ss_timeline *t, const struct ss_analysis *a,
                                           const struct insight_ready *rd, struct ss_insights *out)
{
	uint64_t run_end = 0, waited, kns = 0;
	size_t run = t->n, nsmall = 0, nwait = 0, nbig = 0, first = t->n, wcap = 0;
	struct insight_span *w = NULL; /* the waits, [ready, start) */
	struct ss_insight tmp, *in;
	bool multi, streams = false; /* streams: the kernels ran on more than one stream */
	char b1[32], b2[32];

	if (analysis_kernel_concurrency(t) > 1)
		return;
	memset(&tmp, 0, sizeof tmp);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint64_t blocks;

		if (r->kind != SS_KIND_KERNEL || !insight_on_stream(r))
			continue;
		if (first == t->n)
			first = i;
		else if (insight_stream_key(&t->rec[first]) != insight_stream_key(r))
			streams = true;
		blocks = insight_blocks(t, i);
		if (blocks >= INSIGHT_SMALL_GRID) {
			nbig++;
		} else {
			nsmall++;
			kns += r->end - r->start;
			if (run < t->n && insight_stream_key(&t->rec[run]) != insight_stream_key(r) && rd->issued[i] &&
			    rd->ready[i] + INSIGHT_FALSEDEP_MIN_NS <= r->start && rd->ready[i] < run_end) {
				insight_note(&tmp, t, i);
				*VEC_PUSH(w, nwait, wcap, 64) = (struct insight_span){rd->ready[i], r->start, 0};
			}
		}
		if (r->end > run_end) {
			run_end = r->end;
			run = i;
		}
	}
	waited = insight_spans_ns(w, nwait, a->t0, a->t1);
	free(w);
	multi = nwait >= 2 && (double)waited >= INSIGHT_FALSEDEP_SHARE * (double)a->makespan_ns;
	if (!multi && (nbig > 0 || nsmall < INSIGHT_LKC_MIN || streams ||
	               (double)kns < INSIGHT_LKC_SHARE * (double)a->makespan_ns))
		return;
	if ((in = insight_new(out, "low-kernel-concurrency", multi ? SS_SEV_PROBLEM : SS_SEV_HINT,
	                      multi ? "Let the streams' kernels run together: a hardware queue per stream "
	                              "(CUDA_DEVICE_MAX_CONNECTIONS at least the stream count), and no legacy-stream "
	                              "work or event between them."
	                            : "If these kernels are independent, issue them on several streams: each fills a "
	                              "small part of the GPU, and kernels of different streams can run at once.")) ==
	    NULL)
		return;
	if (multi) {
		insight_take(in, &tmp);
		snprintf(in->summary, sizeof in->summary,
		         "%zu small kernels of different streams ran one at a time: %s waiting while another ran",
		         nwait, units_time(waited, b1, sizeof b1));
		snprintf(in->evidence, sizeof in->evidence,
		         "at most one kernel ran at any time; %zu kernels of under %d blocks were ready while another "
		         "stream's kernel ran, and waited %s of the run (kernels waiting at once counted once)",
		         nwait, INSIGHT_SMALL_GRID, units_time(waited, b2, sizeof b2));
		in->have_gain = true;
		in->gain_ns = waited;
		snprintf(
		    in->gain_how, sizeof in->gain_how,
		    "at most: the time the kernels waited, counted once where they waited together, if they had run "
		    "together");
	} else {
		for (size_t i = 0; i < t->n; i++)
			if (t->rec[i].kind == SS_KIND_KERNEL && insight_on_stream(&t->rec[i]))
				insight_note(in, t, i);
		snprintf(in->summary, sizeof in->summary, "%zu small kernels ran one after another on one stream",
		         nsmall);
		snprintf(
		    in->evidence, sizeof in->evidence,
		    "%zu kernels of under %d blocks, %s of kernel time (%.1f%% of the makespan), never two at once",
		    nsmall, INSIGHT_SMALL_GRID, units_time(kns, b1, sizeof b1),
		    100.0 * (double)kns / (double)a->makespan_ns);
	}
	insight_recs(in, in->evidence, sizeof in->evidence);
}

static bool insight_is_gpu(const struct ss_record *r)
{
	return (SS_GPU_KINDS & SS_KIND_BIT(r->kind)) != 0;
}

static bool insight_is_api(const struct ss_record *r)
{
	return r->kind == SS_KIND_API;
}

/* launch-bound: the host's issuing, not the GPU, sets the makespan: INSIGHT_LAUNCH_MIN_OPS operations or more, the
 * GPU busy under INSIGHT_LAUNCH_GPU of the makespan while the host was in API calls for INSIGHT_LAUNCH_HOST of it,
 * and most operations (INSIGHT_LAUNCH_LATE) issued after their stream and engine could have run them. No gain from
 * the timeline alone: what fewer operations save depends on how the work is regrouped. */
static void insight_launch_bound(const struct ss_timeline *t, const struct ss_analysis *a,
                                 const struct insight_ready *rd, struct ss_insights *out)
{
	uint64_t eng_end[4] = {0}, gpu, host, api_ns = 0;
	size_t nops = 0, late = 0, napi = 0;
	struct ss_insight *in;
	char b1[32], b2[32], b3[32];

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int c = insight_class(t, r);

		if (r->kind == SS_KIND_API && r->start >= a->t0 && r->end <= a->t1) { /* the calls during the work */
			api_ns += r->end - r->start;
			napi++;
		}
		if (!insight_on_stream(r))
			continue;
		nops++;
		if (rd->issued[i] && rd->api_end[i] > eng_end[c] && rd->api_end[i] > rd->prev_end[i])
			late++;
		if (r->end > eng_end[c])
			eng_end[c] = r->end;
	}
	if (nops < INSIGHT_LAUNCH_MIN_OPS || napi == 0)
		return;
	gpu = insight_union_ns(t, insight_is_gpu, a->t0, a->t1);
	host = insight_union_ns(t, insight_is_api, a->t0, a->t1); /* the calls during the work only */
	if ((double)gpu >= INSIGHT_LAUNCH_GPU * (double)a->makespan_ns ||
	    (double)host < INSIGHT_LAUNCH_HOST * (double)a->makespan_ns ||
	    (double)late < INSIGHT_LAUNCH_LATE * (double)nops)
		return;
	if ((in = insight_new(out, "launch-bound", SS_SEV_PROBLEM,
	                      "Issue fewer, larger operations: fewer streams or larger chunks (or capture the sequence "
	                      "in a CUDA graph), so the host's per-call cost stops setting the pace.")) == NULL)
		return;
	in->t0 = a->t0;
	in->t1 = a->t1;
	snprintf(
	    in->summary, sizeof in->summary,
	    "the host's issuing sets the pace: the GPU is busy %.0f%% of the makespan, the host in API calls %.0f%%",
	    100.0 * (double)gpu / (double)a->makespan_ns, 100.0 * (double)host / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence,
	         "%zu GPU operations, %zu of them issued after their stream and engine were free; %zu API calls of %s "
	         "each on average; GPU busy %s of %s",
	         nops, late, napi, units_time(api_ns / napi, b1, sizeof b1), units_time(gpu, b2, sizeof b2),
	         units_time(a->makespan_ns, b3, sizeof b3));
}

/* insight_completion: when the GPU work of the stream with key k was done as the host's wait of SYNC record s
 * ended: the latest end of its GPU records starting before s's end; false when it has none. by_start lists the
 * GPU records of streams in start order with their stream key and the running latest end of that stream. */
struct insight_done {
	uint64_t key, start, done; /* stream key, record start, latest end of the stream's records up to this one */
};

static int insight_cmp_done(const void *x, const void *y)
{
	const struct insight_done *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* insight_completion: in d (n entries sorted by key, then start), the last entry of key starting before before;
 * its completion time into *done. Returns false when key has none. */
static bool insight_completion(const struct insight_done *d, size_t n, uint64_t key, uint64_t before, uint64_t *done)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* first entry after (key, before) */
		size_t mid = (lo + hi) / 2;
		if (d[mid].key < key || (d[mid].key == key && d[mid].start < before))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || d[lo - 1].key != key)
		return false;
	*done = d[lo - 1].done;
	return true;
}

/* insight_sync_key: the stream key of the stream a cudaStreamSynchronize record waited on: the GPU record of that
 * raw stream id (SYNC records name the stream by raw id only); false for waits that name no stream of the run. */
static bool insight_sync_key(const struct idmap *raw, const struct ss_record *s, uint64_t *key)
{
	uint32_t v;

	if (s->kind != SS_KIND_SYNC || s->raw_stream == 0 || s->raw_stream == UINT32_MAX ||
	    !idmap_get(raw, s->raw_stream, &v))
		return false;
	*key = ((uint64_t)v << 32) | s->raw_stream;
	return true;
}

/* host-sync-order: a host thread waited on one stream (a stream synchronisation lasting INSIGHT_SYNC_MIN_NS or
 * more) while a stream it waited on next had finished earlier: sync order against completion order. What reordering
 * gains is the time the host sat waiting with finished results in hand, and only where the host works on each
 * stream's results after its wait: the gain is that host time after the wait, capped at the time waited with the
 * later stream already done; none when the host does nothing between the waits. */
static void insight_host_sync_order(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	struct idmap raw, lastsync; /* raw stream id -> stream index (as uint32); host thread -> last sync + 1 */
	struct insight_done *d = xcalloc(t->n + 1, sizeof *d);
	size_t nd = 0, ninv = 0;
	uint64_t idle = 0, work = 0;
	struct ss_insight tmp, *in;
	char b1[32], b2[32];

	idmap_init(&raw);
	idmap_init(&lastsync);
	memset(&tmp, 0, sizeof tmp);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (!insight_on_stream(r))
			continue;
		idmap_put(&raw, r->raw_stream, (uint32_t)r->stream);
		d[nd].key = insight_stream_key(r);
		d[nd].start = r->start;
		d[nd].done = r->end;
		nd++;
	}
	qsort(d, nd, sizeof *d, insight_cmp_done);
	for (size_t i = 1; i < nd; i++)
		if (d[i].key == d[i - 1].key && d[i - 1].done > d[i].done)
			d[i].done = d[i - 1].done;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *s = &t->rec[i];
		uint64_t kx, ky, cx, cy;
		uint32_t v;

		if (!insight_sync_key(&raw, s, &ky))
			continue;
		if (idmap_get(&lastsync, s->thread, &v)) {
			const struct ss_record *p = &t->rec[v - 1];

			/* p waited on x, then s on y: inverted when y was done INSIGHT_SYNC_MIN_NS before x */
			if (insight_sync_key(&raw, p, &kx) && kx != ky && p->end - p->start >= INSIGHT_SYNC_MIN_NS &&
			    insight_completion(d, nd, kx, p->end, &cx) && insight_completion(d, nd, ky, s->end, &cy) &&
			    cy + INSIGHT_SYNC_MIN_NS <= cx) {
				uint64_t from = cy > p->start ? cy : p->start, lost = p->end - from;
				uint64_t between = s->start > p->end ? s->start - p->end : 0;

				insight_note(&tmp, t, v - 1);
				ninv++;
				idle += lost;
				work += between < lost ? between : lost;
			}
		}
		idmap_put(&lastsync, s->thread, (uint32_t)(i + 1));
	}
	idmap_free(&raw);
	idmap_free(&lastsync);
	free(d);
	if (ninv == 0)
		return;
	if ((in = insight_new(
	         out, "host-sync-order", work >= INSIGHT_SYNC_MIN_NS ? SS_SEV_HINT : SS_SEV_INFO,
	         "Wait for the streams in the order they finish (the order their work was issued, for a "
	         "pipeline of equal chunks), or poll them with cudaStreamQuery / wait on per-stream events, "
	         "so the host handles each result as soon as it is ready.")) == NULL)
		return;
	insight_take(in, &tmp);
	snprintf(in->summary, sizeof in->summary,
	         "the host waited on a stream while one it waits on next had already finished (%zu %s)", ninv,
	         ninv == 1 ? "time" : "times");
	snprintf(in->evidence, sizeof in->evidence,
	         "%zu stream waits out of completion order; %s of waiting with the next stream's results ready; host "
	         "work between those waits %s (%.1f%% of the makespan)",
	         ninv, units_time(idle, b1, sizeof b1), units_time(work, b2, sizeof b2),
	         a->makespan_ns > 0 ? 100.0 * (double)work / (double)a->makespan_ns : 0.0);
	insight_recs(in, in->evidence, sizeof in->evidence);
	if (work >= INSIGHT_SYNC_MIN_NS) {
		in->have_gain = true;
		in->gain_ns = work;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "at most: the host's time between the out-of-order waits, which could have run during them");
	}
}

/* insight_migration: r is a unified-memory migration the driver made on its own (a fault, eviction or coherence
 * move): a copy flagged managed that no API call issued (no correlation id: a prefetch's records, the model's or
 * those our events time, carry the call's) and that CUPTI does not name a prefetch. */
static bool insight_migration(const struct ss_timeline *t, const struct ss_record *r)
{
	return insight_is_copy(r->kind) && (r->flags & SS_REC_MANAGED) && !(r->flags & SS_REC_EVENT_TIMED) &&
	       r->correlation == 0 && strstr(timeline_name(t, r->name), "prefetch") == NULL;
}

/* insight_has_call: t has an API record whose name starts with prefix. */
static bool insight_has_call(const struct ss_timeline *t, const char *prefix)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == SS_KIND_API && strncmp(timeline_name(t, t->rec[i].name), prefix, n) == 0)
			return true;
	return false;
}

/* insight_faulting finds, where a program allocated managed memory (cudaMallocManaged) and prefetched none
 * (cudaMemPrefetchAsync) and CUPTI gave no migration records, the kernels that ran INSIGHT_FAULT_RATIO times or more
 * longer than the median run of the same kernel (at least INSIGHT_FAULT_RUNS runs of it): kernels migrating the pages
 * they touch on demand, by page faults, the first time. Their notes go to tmp (in timeline order). *late gets the
 * time, within [a->t0, a->t1), over which one of them or more ran late: the union of each run's late part, [start +
 * median, end), the time it ran past where a run as long as the median would have ended. Runs late at once (kernels
 * faulting together on several streams) count those instants once, so *late is at most the sum of the runs' time
 * beyond the median, the wall-clock time the slow runs spanned, and the makespan; 0 when none is found. */
static void insight_faulting(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insight *tmp,
                             uint64_t *late)
{
	struct insight_key *k;
	struct idmap med; /* kernel name -> index of its median run, for names of INSIGHT_FAULT_RUNS runs or more */
	struct insight_span *lv = NULL; /* the slow runs' late parts */
	size_t nk = 0, nlv = 0, lvcap = 0;

	*late = 0;
	if (!insight_has_call(t, "cudaMallocManaged") || insight_has_call(t, "cudaMemPrefetchAsync"))
		return;
	k = xcalloc(t->n + 1, sizeof *k);
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == SS_KIND_KERNEL && t->rec[i].name != 0) {
			/* by name, then duration (durations under 2^32 ns: 4 s) */
			uint64_t d = t->rec[i].end - t->rec[i].start;

			k[nk].key = (uint64_t)t->rec[i].name << 32 | (d < UINT32_MAX ? d : UINT32_MAX);
			k[nk++].i = i;
		}
	qsort(k, nk, sizeof *k, insight_cmp_key);
	idmap_init(&med);
	for (size_t g = 0, e; g < nk; g = e) {
		for (e = g; e < nk && t->rec[k[e].i].name == t->rec[k[g].i].name; e++)
			;
		if (e - g >= INSIGHT_FAULT_RUNS)
			idmap_put(&med, t->rec[k[g].i].name, (uint32_t)k[g + (e - g) / 2].i);
	}
	free(k);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint64_t d = r->end - r->start, m;
		uint32_t v;

		if (r->kind != SS_KIND_KERNEL || r->name == 0 || !idmap_get(&med, r->name, &v))
			continue;
		m = t->rec[v].end - t->rec[v].start;
		if (m > 0 && (double)d >= INSIGHT_FAULT_RATIO * (double)m) {
			insight_note(tmp, t, i);
			*VEC_PUSH(lv, nlv, lvcap, 64) = (struct insight_span){r->start + m, r->end, 0};
		}
	}
	idmap_free(&med);
	*late = insight_spans_ns(lv, nlv, a->t0, a->t1);
	free(lv);
}

/* The fix managed-migration gives. */
static const char insight_migration_fix[] =
    "Prefetch the managed data with cudaMemPrefetchAsync on the stream ahead of the kernels that use it (and back "
    "before the host reads it), or use explicit copies from pinned memory; cudaMemAdvise can keep read-mostly data "
    "where it is used.";

/* insight_faulting_report: managed-migration from kernel times alone (insight_faulting), where the trace has no
 * migration records: fires when the time the faulting kernels ran late (their runs past the median run's length,
 * counted once where they were late together) is INSIGHT_MIGRATION_SHARE of the makespan; that time is the estimated
 * gain, and the summary and evidence state it. */
static void insight_faulting_report(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	struct ss_insight tmp, *in;
	uint64_t late;
	char b1[32];

	memset(&tmp, 0, sizeof tmp);
	insight_faulting(t, a, &tmp, &late);
	if (tmp.nrec == 0 || (double)late < INSIGHT_MIGRATION_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(out, "managed-migration", SS_SEV_PROBLEM, insight_migration_fix)) == NULL)
		return;
	insight_take(in, &tmp);
	snprintf(in->summary, sizeof in->summary,
	         "%zu kernel runs on unprefetched managed memory ran longer than the same kernels' usual run, late for "
	         "%s of the run",
	         tmp.nrec, units_time(late, b1, sizeof b1));
	snprintf(in->evidence, sizeof in->evidence,
	         "the program allocates managed memory (cudaMallocManaged) and prefetches none; %zu runs of a kernel "
	         "took %.0fx or more its median run, and ran past where the median run would have ended for %s of the "
	         "run (%.1f%% of the makespan; runs late at once counted once): page faults migrating the data inside "
	         "the kernel (this trace has no migration records: SS_CUPTI_MIGRATIONS=1 asks for them)",
	         tmp.nrec, INSIGHT_FAULT_RATIO, units_time(late, b1, sizeof b1),
	         100.0 * (double)late / (double)a->makespan_ns);
	insight_recs(in, in->evidence, sizeof in->evidence);
	in->have_gain = true;
	in->gain_ns = late;
	snprintf(in->gain_how, sizeof in->gain_how,
	         "estimated: the time over which a slow run ran past where the same kernel's median run would have "
	         "ended, counted once where runs were late together");
}

/* managed-migration: unified-memory migrations the driver made on demand (page faults, evictions: not prefetches)
 * whose union covers INSIGHT_MIGRATION_SHARE of the makespan: data moved while kernels stalled on it, or between
 * them. The gain is at most that union (prefetched ahead on another stream, they would run under other work); the
 * evidence gives the part of it during which a kernel ran, a union too, so never more. A trace without migration
 * records is judged by its kernels' times (insight_faulting_report). */
static void insight_managed_migration(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out)
{
	uint64_t ns, bytes = 0, kend = 0;
	struct insight_cover mig = {0, 0}, ran = {0, 0}; /* the migrations' union; its part while a kernel ran */
	struct ss_insight tmp, *in;
	char b1[32], b2[32], b3[32];

	memset(&tmp, 0, sizeof tmp);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind == SS_KIND_KERNEL && r->end > kend)
			kend = r->end;
		if (!insight_migration(t, r))
			continue;
		insight_cover_add(&mig, r->start, r->end);
		insight_note(&tmp, t, i);
		bytes += r->bytes;
		if (kend > r->start) /* a kernel started before r runs until kend */
			insight_cover_add(&ran, r->start, kend < r->end ? kend : r->end);
	}
	ns = mig.ns;
	if (tmp.nrec == 0) {
		insight_faulting_report(t, a, out);
		return;
	}
	if ((double)ns < INSIGHT_MIGRATION_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(out, "managed-migration", SS_SEV_PROBLEM, insight_migration_fix)) == NULL)
		return;
	insight_take(in, &tmp);
	snprintf(in->summary, sizeof in->summary,
	         "%zu on-demand unified-memory migrations took %s (%.1f%% of the makespan)", tmp.nrec,
	         units_time(ns, b1, sizeof b1), 100.0 * (double)ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence,
	         "%zu migrations (faults, evictions; no prefetch) of %s covering %s, %s of them while a kernel ran",
	         tmp.nrec, units_bytes(bytes, b2, sizeof b2), units_time(ns, b1, sizeof b1),
	         units_time(ran.ns, b3, sizeof b3));
	insight_recs(in, in->evidence, sizeof in->evidence);
	in->have_gain = true;
	in->gain_ns = ns;
	snprintf(in->gain_how, sizeof in->gain_how, "at most: the migrations' time, if prefetched under other work");
}

/* misaligned-chunks is a problem when the kernels whose data start off a 128-byte line took this many times as
 * long per element as the same kernel's launches on a line, or more (one kernel's time spreads by a few percent
 * from launch to launch; document 001's add takes about 1.6x on the H200: tests/data/h200/advise-run3)... */
#define INSIGHT_MISALIGN_SLOW 1.10
/* ...the compute engine was busy for this share of the makespan or more, and longer than either copy engine
 * (kernels, not gaps or copies, set its length, so slower kernels make a longer run)... */
#define INSIGHT_MISALIGN_BUSY 0.50
/* ...and their time beyond the on-line launches' rate, as far as the compute engine can shrink before a copy engine
 * bounds the run instead, is this share of the makespan or more. */
#define INSIGHT_MISALIGN_SHARE 0.05
/* misaligned-chunks compares the launches that ran alone (no other kernel on their device) for this share of their
 * time or more: beside other kernels a launch's time is not its own (the H200's depth-first kernel-transfer kernels ran
 * alone all their time, decrypt's 94% of it: tests/data/h200/bench-run5). */
#define INSIGHT_MISALIGN_ALONE 0.90
/* Launches of each side misaligned-chunks compares by their shares of the compute engine when not all ran alone. */
#define INSIGHT_MISALIGN_MIN 2
/* The kernels misaligned-chunks tells apart, at most (a step program's kernel steps, each kernel at its work). */
#define INSIGHT_MISALIGN_GROUPS 16

/* What misaligned-chunks knows of one kernel at one work: its launches on a line and off one. */
struct insight_kgroup {
	uint8_t kernel;
	uint32_t work, name;
	size_t non, noff;
	double off_ns; /* the off-line launches' share of the compute engine (insight_kernel_share) */
	uint64_t min_off, max_off;
};

/* insight_kernel_ops maps every kernel record of t on an experiment stream to its op of ops: opof[i] is the op's
 * index + 1 (0 for other records). Each stream runs its kernels in issue order, so the k-th kernel record of a
 * stream (t sorted by start) is the k-th kernel op issued on it. false when the records are not the op list's (a
 * stream with more or fewer kernels than its ops: a capture that lost records, another run's timeline). */
static bool insight_kernel_ops(const struct ss_timeline *t, const struct ss_oplist *ops, int nstreams, size_t *opof)
{
	size_t *first = xcalloc((size_t)nstreams + 2, sizeof *first), *at = xcalloc((size_t)nstreams + 1, sizeof *at);
	size_t *list = xcalloc(ops->n + 1, sizeof *list);
	bool ok = true;

	for (size_t i = 0; i < ops->n; i++)
		if (ops->op[i].kind == SS_OP_KERNEL && ops->op[i].stream >= 0 && ops->op[i].stream < nstreams)
			first[ops->op[i].stream + 1]++;
	for (int s = 0; s < nstreams; s++)
		first[s + 1] += first[s];
	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_op *op = &ops->op[i];

		if (op->kind == SS_OP_KERNEL && op->stream >= 0 && op->stream < nstreams)
			list[first[op->stream] + at[op->stream]++] = i;
	}
	memset(at, 0, ((size_t)nstreams + 1) * sizeof *at);
	for (size_t i = 0; i < t->n && ok; i++) {
		const struct ss_record *r = &t->rec[i];

		opof[i] = 0;
		if (r->kind != SS_KIND_KERNEL || r->stream < 0)
			continue;
		if (r->stream >= nstreams || first[r->stream] + at[r->stream] >= first[r->stream + 1]) {
			ok = false;
			break;
		}
		opof[i] = list[first[r->stream] + at[r->stream]++] + 1;
	}
	for (int s = 0; s < nstreams && ok; s++)
		ok = first[s] + at[s] == first[s + 1];
	free(first);
	free(at);
	free(list);
	return ok;
}

/* insight_kernel_share fills share[i] with kernel record i's share of its device's compute engine (its time, each
 * moment divided among the kernels of its device running then: the shares add up to the engine's busy time) and
 * alone[i] with the time no other kernel of its device ran beside it. Other records get 0 in both. */
static void insight_kernel_share(const struct ss_timeline *t, double *share, uint64_t *alone)
{
	struct insight_key *ev = xcalloc(2 * t->n + 1, sizeof *ev);
	size_t nev = 0, nact = 0, *act = xcalloc(t->n + 1, sizeof *act);
	unsigned ndev[256] = {0};
	uint64_t prev = 0;

	for (size_t i = 0; i < t->n; i++) {
		share[i] = 0;
		alone[i] = 0;
		if (t->rec[i].kind != SS_KIND_KERNEL || t->rec[i].end <= t->rec[i].start)
			continue;
		/* ends before starts at one time (key's low bit): a kernel ending as another starts never shares */
		ev[nev].key = (t->rec[i].start << 1) | 1;
		ev[nev++].i = i;
		ev[nev].key = t->rec[i].end << 1;
		ev[nev++].i = i;
	}
	qsort(ev, nev, sizeof *ev, insight_cmp_key);
	for (size_t k = 0; k < nev; k++) {
		uint64_t now = ev[k].key >> 1;
		size_t i = ev[k].i;

		for (size_t j = 0; j < nact && now > prev; j++) {
			unsigned n = ndev[t->rec[act[j]].device];

			share[act[j]] += (double)(now - prev) / (double)n;
			if (n == 1)
				alone[act[j]] += now - prev;
		}
		prev = now;
		if (ev[k].key & 1) {
			act[nact++] = i;
			ndev[t->rec[i].device]++;
			continue;
		}
		for (size_t j = 0; j < nact; j++)
			if (act[j] == i) {
				act[j] = act[--nact];
				break;
			}
		ndev[t->rec[i].device]--;
	}
	free(ev);
	free(act);
}

/* insight_count_words writes n as "2^22" when a power of two from 2^10 up, else as the number. */
static const char *insight_count_words(uint64_t n, char *buf, size_t len)
{
	if (n >= 1024 && (n & (n - 1)) == 0)
		snprintf(buf, len, "2^%d", __builtin_ctzll(n));
	else
		snprintf(buf, len, "%llu", (unsigned long long)n);
	return buf;
}

/* The fix misaligned-chunks gives when the off-line launches were slower, and when they cost nothing. */
static const char insight_misalign_fix[] =
    "Cut the data into chunks of a multiple of 128 bytes (a stream or chunk count that divides it so, or chunk "
    "sizes rounded up to a multiple of 32 floats): a warp's 32 threads access 32 neighbouring floats, 128 bytes, "
    "one memory line when the chunk starts on a line and two when it starts off one, so every load and store "
    "moves twice the lines.";
static const char insight_misalign_free_fix[] =
    "Nothing to change for speed here: this kernel is not held up by memory lines. A warp's 32 threads access 32 "
    "neighbouring elements, and off a 128-byte line each access touches one line more; keep the chunks a multiple "
    "of 128 bytes if the kernel becomes memory-bound.";

/* insight_misalign_op: the op of record i when misaligned-chunks compares it (a kernel over a chunk's data: not
 * spin, some elements, some time), else NULL. */
static const struct ss_op *insight_misalign_op(const struct ss_timeline *t, const struct ss_oplist *ops,
                                               const size_t *opof, size_t i)
{
	const struct ss_op *op = opof[i] ? &ops->op[opof[i] - 1] : NULL;

	if (op == NULL || op->chunk < 0 || op->kernel == SS_KERNEL_SPIN || op->count == 0 ||
	    t->rec[i].end <= t->rec[i].start)
		return NULL;
	return op;
}

/* misaligned-chunks: the run's kernels of chunks whose data start off a 128-byte line (planner_op_line_offset: the
 * layout e's op list has on the device), against the same kernel's launches of chunks on a line (chunk 0 always
 * is), per element of their launch: launches of one kernel at one work (where a program has several, the one whose
 * off-line launches took the most of the compute engine): the ones that ran alone for INSIGHT_MISALIGN_ALONE of
 * their time (beside other kernels a launch's time is not its own), or, where not all did and each side has
 * INSIGHT_MISALIGN_MIN launches or more, all of them by their shares of the compute engine (insight_kernel_share:
 * on the H200 document 001's kernels run side by side, alone for 16-56% of their time). Only a run of
 * experiment e, whose op list maps each stream's kernel records to its kernel ops: a trace has no addresses.
 * Silent when every chunk starts on a line. A problem when the off-line launches took INSIGHT_MISALIGN_SLOW as long
 * per element or more (medians), the compute engine was busy INSIGHT_MISALIGN_BUSY of the makespan, and the
 * off-line launches' compute-engine time (insight_kernel_share) beyond the on-line rate, at most what the compute
 * engine was busy beyond the busier copy engine, is INSIGHT_MISALIGN_SHARE of it; a hint otherwise: slower but not
 * what bounds the run, no slower (the kernel does not pay for the extra lines), or not to be compared. Evidence: the
 * off-line launches. Gain, where they were slower: that time, so capped (remedy re-runs the fix on the model). */
static void insight_misaligned(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_experiment *e,
                               struct ss_insights *out)
{
	struct insight_kgroup grp[INSIGHT_MISALIGN_GROUPS], *g = NULL;
	struct ss_oplist ops;
	int nstreams = e->streams * (e->devices > 1 ? e->devices : 1), ng = 0;
	size_t *opof = xcalloc(t->n + 1, sizeof *opof), non = 0, noff = 0;
	double *share = xcalloc(t->n + 1, sizeof *share), *von = NULL, *voff = NULL;
	double on_rate = 0, off_rate = 0, ratio = 0, excess = 0, cut = 0, busy, *sh_on, *sh_off;
	size_t nsh_on = 0, nsh_off = 0;
	bool by_share;
	uint64_t *alone = xcalloc(t->n + 1, sizeof *alone), csize, coff, copy;
	int ceng = SS_ENG_H2D;
	struct ss_insight *in;
	const char *noun = "elements", *name;
	char b1[32], n1[32], desc[64], why[96] = "";
	bool compared, slow, problem;

	planner_build(e, &ops);
	if (!insight_kernel_ops(t, &ops, nstreams, opof))
		goto out;
	insight_kernel_share(t, share, alone);
	for (size_t i = 0; i < t->n; i++) { /* the groups, and how many launches of each are on a line and off */
		const struct ss_op *op = insight_misalign_op(t, &ops, opof, i);
		uint64_t lo;
		int k;

		if (op == NULL)
			continue;
		for (k = 0; k < ng && (grp[k].kernel != op->kernel || grp[k].work != planner_op_work(e, op)); k++)
			;
		if (k == ng) {
			if (ng == INSIGHT_MISALIGN_GROUPS)
				continue;
			memset(&grp[ng], 0, sizeof grp[ng]);
			grp[ng].kernel = op->kernel;
			grp[ng].work = planner_op_work(e, op);
			grp[ng++].name = t->rec[i].name;
		}
		if ((lo = planner_op_line_offset(e, &ops, op)) == 0) {
			grp[k].non++;
			continue;
		}
		if (grp[k].noff == 0 || lo < grp[k].min_off)
			grp[k].min_off = lo;
		if (lo > grp[k].max_off)
			grp[k].max_off = lo;
		grp[k].noff++;
		grp[k].off_ns += share[i];
	}
	for (int k = 0; k < ng; k++)
		if (grp[k].noff > 0 && (g == NULL || grp[k].off_ns > g->off_ns))
			g = &grp[k];
	if (g == NULL) /* every chunk starts on a line */
		goto out;
	von = xcalloc(2 * g->non + 1, sizeof *von);
	voff = xcalloc(2 * g->noff + 1, sizeof *voff);
	sh_on = von + g->non;
	sh_off = voff + g->noff;
	for (size_t i = 0; i < t->n; i++) { /* time per element, of the launches that ran alone and of all by share */
		const struct ss_op *op = insight_misalign_op(t, &ops, opof, i);
		uint64_t d = t->rec[i].end - t->rec[i].start;
		bool own;

		if (op == NULL || op->kernel != g->kernel || planner_op_work(e, op) != g->work) {
			opof[i] = 0; /* from here on: the group's launches off a line only */
			continue;
		}
		own = (double)alone[i] >= INSIGHT_MISALIGN_ALONE * (double)d;
		if (planner_op_line_offset(e, &ops, op) == 0) {
			opof[i] = 0;
			sh_on[nsh_on++] = share[i] / (double)op->count;
			if (own)
				von[non++] = (double)d / (double)op->count;
		} else {
			sh_off[nsh_off++] = share[i] / (double)op->count;
			if (own)
				voff[noff++] = (double)d / (double)op->count;
		}
	}
	/* launches beside other kernels (the H200 runs document 001's side by side): their shares of the engine, where
	 * enough of each side are there that where a launch sat in the pipeline evens out */
	by_share =
	    (non < g->non || noff < g->noff) && nsh_on >= INSIGHT_MISALIGN_MIN && nsh_off >= INSIGHT_MISALIGN_MIN;
	if (by_share) {
		memcpy(von, sh_on, nsh_on * sizeof *von);
		memcpy(voff, sh_off, nsh_off * sizeof *voff);
		non = nsh_on;
		noff = nsh_off;
	}
	compared = non > 0 && noff > 0;
	if (compared) {
		on_rate = stats_median(von, non);
		off_rate = stats_median(voff, noff);
		ratio = on_rate > 0 ? off_rate / on_rate : 0;
		for (size_t i = 0; i < t->n; i++) { /* the off-line launches' engine time beyond the on-line rate */
			double over = opof[i] ? share[i] - on_rate * (double)ops.op[opof[i] - 1].count : 0;

			if (over > 0)
				excess += over;
		}
	}
	busy = (double)a->eng[SS_ENG_COMPUTE].busy_ns / (double)a->makespan_ns;
	if (a->eng[SS_ENG_D2H].busy_ns > a->eng[SS_ENG_H2D].busy_ns)
		ceng = SS_ENG_D2H;
	copy = a->eng[ceng].busy_ns;
	if (a->eng[SS_ENG_COMPUTE].busy_ns > copy) /* what the compute engine can lose before a copy engine bounds */
		cut = fmin(excess, (double)(a->eng[SS_ENG_COMPUTE].busy_ns - copy));
	slow = compared && ratio >= INSIGHT_MISALIGN_SLOW;
	problem = slow && busy >= INSIGHT_MISALIGN_BUSY && cut >= INSIGHT_MISALIGN_SHARE * (double)a->makespan_ns;
	if ((in = insight_new(out, "misaligned-chunks", problem ? SS_SEV_PROBLEM : SS_SEV_HINT,
	                      slow || !compared ? insight_misalign_fix : insight_misalign_free_fix)) == NULL)
		goto out;
	for (size_t i = 0; i < t->n; i++)
		if (opof[i])
			insight_note(in, t, i);
	name = timeline_name(t, g->name);
	if (slow && !problem && busy < INSIGHT_MISALIGN_BUSY)
		snprintf(why, sizeof why, ", but kernels do not bound this run");
	else if (slow && !problem && a->eng[SS_ENG_COMPUTE].busy_ns <= copy)
		snprintf(why, sizeof why, ", but the busier %s engine bounds this run", insight_engine_names[ceng]);
	else if (slow && !problem)
		snprintf(why, sizeof why, ", but that is only %.1f%% of the makespan",
		         100.0 * cut / (double)a->makespan_ns);
	if (!compared)
		snprintf(in->summary, sizeof in->summary,
		         "%zu of %zu %s kernels start their data off a 128-byte line; they ran beside other kernels, "
		         "so their times cannot show what that costs",
		         g->noff, g->noff + g->non, name);
	else if (slow)
		snprintf(in->summary, sizeof in->summary,
		         "%zu of %zu %s kernels start their data off a 128-byte line; they took %.2fx as long per "
		         "element as the %zu on a line%s",
		         g->noff, g->noff + g->non, name, ratio, non, why);
	else /* under INSIGHT_MISALIGN_SLOW: within 2%, nothing to tell from a launch's spread */
		snprintf(in->summary, sizeof in->summary,
		         "%zu of %zu %s kernels start their data off a 128-byte line, at %s cost here (%.2fx as long "
		         "per element as the %zu on a line)",
		         g->noff, g->noff + g->non, name, ratio < 1.02 ? "no" : "little", ratio, non);
	if (ops.elem_size == 4)
		noun = "floats";
	else if (ops.elem_size == 8)
		noun = "64-bit words";
	planner_chunk(e->elements, ops.nchunks, ops.split, 0, &coff, &csize);
	if (g->min_off == g->max_off)
		snprintf(desc, sizeof desc, "%llu bytes", (unsigned long long)g->min_off);
	else
		snprintf(desc, sizeof desc, "%llu to %llu bytes", (unsigned long long)g->min_off,
		         (unsigned long long)g->max_off);
	snprintf(in->evidence, sizeof in->evidence,
	         "%s off a line: %s %s / %d chunks = %llu a chunk (%llu bytes, not a multiple of 128); ", desc,
	         insight_count_words(e->elements, n1, sizeof n1), noun, ops.nchunks, (unsigned long long)csize,
	         (unsigned long long)(csize * ops.elem_size));
	if (compared)
		snprintf(in->evidence + strlen(in->evidence), sizeof in->evidence - strlen(in->evidence),
		         "per element (median of the launches %s), %.3g ns for %zu off a line, %.3g ns for %zu on one: "
		         "%s of compute-engine time beyond that rate; ",
		         by_share ? "by shares of the compute engine" : "that ran alone", off_rate, noff, on_rate, non,
		         units_time((uint64_t)excess, b1, sizeof b1));
	else
		snprintf(in->evidence + strlen(in->evidence), sizeof in->evidence - strlen(in->evidence),
		         "%zu of the %zu off-line launches and %zu of the %zu on a line ran alone (%.0f%% of their "
		         "time or more) to be compared; ",
		         noff, g->noff, non, g->non, 100.0 * INSIGHT_MISALIGN_ALONE);
	snprintf(in->evidence + strlen(in->evidence), sizeof in->evidence - strlen(in->evidence),
	         "the compute engine busy %.0f%% of the makespan, the %s engine %.0f%%", 100.0 * busy,
	         insight_engine_names[ceng], 100.0 * (double)copy / (double)a->makespan_ns);
	insight_recs(in, in->evidence, sizeof in->evidence);
	if (slow && excess >= 1) {
		in->have_gain = true;
		in->gain_ns = (uint64_t)cut;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "estimated: the off-line launches' compute-engine time beyond their elements at the on-line "
		         "launches' rate, down to the busiest copy engine's busy time");
	}
out:
	free(von);
	free(voff);
	free(share);
	free(alone);
	free(opof);
	planner_free(&ops);
}

/* A finding another rule's finding explains, on a run of several streams: fixing the cause is the fix, and the
 * consequence's own fix would be the wrong one there (more streams against copies that block the host; more queues
 * against the legacy stream's serialisation). */
static const struct {
	const char *consequence, *cause;
} insight_causes[] = {
    {"no-overlap", "pageable-copy"},
    {"no-overlap", "legacy-stream-sync"},
    {"no-overlap", "launch-bound"},
    {"no-overlap", "false-dependency"},
    {"launch-bound", "pageable-copy"}, /* pageable copies' calls are the host's time */
    {"false-dependency", "legacy-stream-sync"},
    {"low-kernel-concurrency", "legacy-stream-sync"},
};

/* insight_explained drops, from a run of more than one stream, the findings insight_causes says another finding
 * explains. On one stream every finding stands on its own (no-overlap there is the one stream). */
static void insight_explained(const struct ss_timeline *t, struct ss_insights *out)
{
	bool drop[SS_INSIGHT_MAX] = {false}, streams = false;
	size_t k = 0, first = t->n;

	for (size_t i = 0; i < t->n && !streams; i++) {
		if (!insight_on_stream(&t->rec[i]))
			continue;
		if (first == t->n)
			first = i;
		streams = insight_stream_key(&t->rec[i]) != insight_stream_key(&t->rec[first]);
	}
	if (!streams)
		return;
	for (size_t i = 0; i < out->n; i++)
		for (size_t c = 0; c < sizeof insight_causes / sizeof insight_causes[0]; c++)
			if (strcmp(out->item[i].rule, insight_causes[c].consequence) == 0 &&
			    insight_find(out, insight_causes[c].cause) != NULL)
				drop[i] = true;
	for (size_t i = 0; i < out->n; i++)
		if (!drop[i])
			out->item[k++] = out->item[i];
	out->n = k;
}

/* peer-copy-critical fires when peer copies ran beside no other GPU work for this share of the makespan: then the
 * devices waited for the peer link, which a pipeline hides behind the next chunk's kernels... */
#define INSIGHT_PEER_SHARE 0.05
/* ...device-idle when a device sat idle while another worked for this share of the makespan (one device's work
 * ending a fifth early is more than start-up and tail)... */
#define INSIGHT_DEVICE_IDLE_SHARE 0.20
/* ...and host-link-contention when two or more devices' host copies overlapped for this share of it. */
#define INSIGHT_LINK_SHARE 0.10

/* peer-copy-critical: the peer copies' time with no other GPU work running on any device (struct ss_devsum's
 * peer_exposed_ns), at least INSIGHT_PEER_SHARE of the makespan. Evidence: the peer copies. Gain: at most that
 * time, if every peer copy ran behind other work. */
static void insight_peer_critical(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_devsum *d,
                                  struct ss_insights *out)
{
	struct ss_insight *in;
	char b1[32], b2[32];
	uint64_t n = 0, bytes = 0;

	if (d->ndev < 2 || (double)d->peer_exposed_ns < INSIGHT_PEER_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(
	         out, "peer-copy-critical", SS_SEV_PROBLEM,
	         "Hide the peer copies behind compute: issue each chunk's copy to the next device on a "
	         "stream of its own (an event orders the kernel after it) so the next chunk's kernel runs "
	         "meanwhile; and enable peer access (cudaDeviceEnablePeerAccess) so copies go over the peer "
	         "link instead of staging through the host.")) == NULL)
		return;
	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind == SS_KIND_D2D && (t->rec[i].flags & SS_REC_PEER)) {
			insight_note(in, t, i);
			n++;
			bytes += t->rec[i].bytes;
		}
	snprintf(in->summary, sizeof in->summary,
	         "peer copies held up every device for %s (%.1f%% of the makespan): nothing else ran meanwhile",
	         units_time(d->peer_exposed_ns, b1, sizeof b1),
	         100.0 * (double)d->peer_exposed_ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence,
	         "%llu peer copies, %s in all, took %s; %s of it with no other GPU work on any of the %d devices",
	         (unsigned long long)n, units_bytes(bytes, b2, sizeof b2), units_time(d->peer_ns, b1, sizeof b1),
	         units_time(d->peer_exposed_ns, b2, sizeof b2), d->ndev);
	insight_recs(in, in->evidence, sizeof in->evidence);
	in->have_gain = true;
	in->gain_ns = d->peer_exposed_ns;
	snprintf(in->gain_how, sizeof in->gain_how, "at most: the peer copies' exposed time, if other work hid them");
}

/* device-idle: the device idle longest while another worked (struct ss_devsum's idle_while_busy_ns), at least
 * INSIGHT_DEVICE_IDLE_SHARE of the makespan. Evidence: the idle device's first and last GPU records. Gain: at most
 * the makespan less the devices' mean busy time (what balanced work would take). Ties name the lower index. */
static void insight_device_idle(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_devsum *d,
                                struct ss_insights *out)
{
	struct ss_insight *in;
	char b1[32], b2[32], b3[32];
	int w = 0;
	uint64_t sum = 0, mean;
	size_t first = SIZE_MAX, last = SIZE_MAX;

	if (d->ndev < 2)
		return;
	for (int i = 0; i < d->ndev; i++) {
		sum += d->dev[i].busy_ns;
		if (d->dev[i].idle_while_busy_ns > d->dev[w].idle_while_busy_ns)
			w = i;
	}
	if ((double)d->dev[w].idle_while_busy_ns < INSIGHT_DEVICE_IDLE_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(out, "device-idle", SS_SEV_HINT,
	                      "Balance the devices: give the idle device a larger share of the chunks, or start its "
	                      "work earlier (issue every device's first copies before any device's kernels, one host "
	                      "thread per device).")) == NULL)
		return;
	for (size_t i = 0; i < t->n; i++)
		if ((SS_GPU_KINDS & SS_KIND_BIT(t->rec[i].kind)) && t->rec[i].device == w) {
			if (first == SIZE_MAX)
				first = i;
			last = i;
		}
	if (first != SIZE_MAX) {
		insight_note(in, t, first);
		if (last != first)
			insight_note(in, t, last);
	}
	mean = sum / (uint64_t)d->ndev;
	snprintf(in->summary, sizeof in->summary,
	         "GPU %d sat idle for %s (%.1f%% of the makespan) while another worked", w,
	         units_time(d->dev[w].idle_while_busy_ns, b1, sizeof b1),
	         100.0 * (double)d->dev[w].idle_while_busy_ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence, "GPU %d busy %s of %s of GPU work; the devices' mean busy time %s",
	         w, units_time(d->dev[w].busy_ns, b1, sizeof b1), units_time(d->span_ns, b2, sizeof b2),
	         units_time(mean, b3, sizeof b3));
	insight_recs(in, in->evidence, sizeof in->evidence);
	if (a->makespan_ns > mean) {
		in->have_gain = true;
		in->gain_ns = a->makespan_ns - mean;
		snprintf(in->gain_how, sizeof in->gain_how,
		         "at most: the makespan less the devices' mean busy time (balanced work, no other limit)");
	}
}

/* host-link-contention: two or more devices' host copies (H2D, D2H) overlapped for INSIGHT_LINK_SHARE of the
 * makespan or more (struct ss_devsum's link_shared_ns): where their GPUs share one host link (a PCIe switch, a NUMA
 * node's lanes) each copy then runs at part of the link's rate. Evidence: the first host copies that overlapped
 * another device's. No gain: how much the link was the limit is not in a trace. */
static void insight_link_contention(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_devsum *d,
                                    struct ss_insights *out)
{
	struct ss_insight *in;
	char b1[32];

	if (d->ndev < 2 || (double)d->link_shared_ns < INSIGHT_LINK_SHARE * (double)a->makespan_ns)
		return;
	if ((in = insight_new(
	         out, "host-link-contention", SS_SEV_HINT,
	         "Stagger the devices' host copies (offset their pipelines by a chunk), keep the data on the "
	         "devices and move it over the peer link, or put the GPUs on separate host links (PCIe "
	         "switches, NUMA nodes) and their host buffers on the matching node.")) == NULL)
		return;
	for (size_t i = 0; i < t->n && in->nrec < SS_INSIGHT_MAX_RECS; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind != SS_KIND_H2D && r->kind != SS_KIND_D2H)
			continue;
		for (size_t j = i + 1; j < t->n && t->rec[j].start < r->end; j++)
			if ((t->rec[j].kind == SS_KIND_H2D || t->rec[j].kind == SS_KIND_D2H) &&
			    t->rec[j].device != r->device) {
				insight_note(in, t, i);
				break;
			}
	}
	snprintf(in->summary, sizeof in->summary,
	         "host copies of two or more devices overlapped for %s (%.1f%% of the makespan), sharing the host's "
	         "bandwidth where the GPUs share a link",
	         units_time(d->link_shared_ns, b1, sizeof b1),
	         100.0 * (double)d->link_shared_ns / (double)a->makespan_ns);
	snprintf(in->evidence, sizeof in->evidence,
	         "%d devices; per device, the time its H2D/D2H ran beside another's:", d->ndev);
	for (int i = 0; i < d->ndev; i++) {
		size_t off = strlen(in->evidence);

		snprintf(in->evidence + off, sizeof in->evidence - off, "%s GPU %d %s", i ? "," : "", i,
		         units_time(d->dev[i].link_shared_ns, b1, sizeof b1));
	}
	insight_recs(in, in->evidence, sizeof in->evidence);
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
	insight_analyze_run(t, a, NULL, out);
}

static bool insight_is_copy_rec(const struct ss_record *r)
{
	return r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H;
}

/* insight_one_copy_busy: the union of t's H2D and D2H intervals within a's work span when every device t describes
 * has one copy engine (an Nsight Systems export's asyncEngines = 1: the two directions take turns on it); 0 when
 * not (two or more copy engines, or not known: each direction its own engine). */
static uint64_t insight_one_copy_busy(const struct ss_timeline *t, const struct ss_analysis *a)
{
	bool one = false;

	for (int d = 0; d < SS_TIMELINE_MAX_DEVICES; d++) {
		const struct ss_device_info *di = timeline_device(t, d);

		if (di == NULL)
			continue;
		if (di->copy_engines != 1)
			return 0;
		one = true;
	}
	return one ? insight_union_ns(t, insight_is_copy_rec, a->t0, a->t1) : 0;
}

void insight_analyze_run(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_experiment *e,
                         struct ss_insights *out)
{
	struct insight_ready rd;
	uint64_t one_copy;

	out->n = 0;
	if (t->n == 0 || a->makespan_ns == 0)
		return;
	insight_ready_build(t, &rd);
	insight_pageable(t, out);
	insight_legacy(t, &rd, out);
	one_copy = insight_one_copy_busy(t, a);
	insight_no_overlap(a, one_copy, out);
	insight_engine_bound(a, one_copy, out);
	insight_small_copies(t, a, out);
	insight_gpu_idle(t, a, out);
	insight_perturbation(t, a, out);
	insight_false_dependency(t, a, &rd, one_copy, out);
	insight_low_kernel_concurrency(t, a, &rd, out);
	insight_launch_bound(t, a, &rd, out);
	insight_ready_free(&rd);
	insight_host_sync_order(t, a, out);
	insight_managed_migration(t, a, out);
	if (e != NULL)
		insight_misaligned(t, a, e, out);
	insight_explained(t, out);
	if (timeline_ndevices(t) > 1) { /* the multi-device rules, from the per-device summary */
		struct ss_devsum dev;

		devsum_build(t, &dev);
		insight_peer_critical(t, a, &dev, out);
		insight_device_idle(t, a, &dev, out);
		insight_link_contention(t, a, &dev, out);
		devsum_free(&dev);
	}
	insight_order(out);
}
