/* analysis.c: makespan, busy time per engine, overlap and the ideal pipeline bound of a timeline. */
#include "core/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/backend.h"
#include "core/idmap.h"
#include "core/xalloc.h"

/* A half-open interval [a, b). */
struct analysis_iv {
	uint64_t a, b;
};

/* A boundary of a merged interval for the overlap sweep: +1 at a start, -1 at an end. */
struct analysis_edge {
	uint64_t t;
	int d;
};

int analysis_engine_of(int kind)
{
	switch (kind) {
	case SS_KIND_H2D:
		return SS_ENG_H2D;
	case SS_KIND_D2H:
		return SS_ENG_D2H;
	case SS_KIND_KERNEL:
	case SS_KIND_MEMSET:
	case SS_KIND_D2D:
		return SS_ENG_COMPUTE;
	default:
		return -1;
	}
}

static int analysis_iv_cmp(const void *x, const void *y)
{
	const struct analysis_iv *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

static int analysis_edge_cmp(const void *x, const void *y)
{
	const struct analysis_edge *a = x, *b = y;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return a->d - b->d; /* ends before starts at the same instant: touching is not overlapping */
}

/* Sorts iv[0..n) and merges it in place; returns the merged count. */
static size_t analysis_merge(struct analysis_iv *iv, size_t n)
{
	size_t m = 0;

	if (n == 0)
		return 0;
	qsort(iv, n, sizeof *iv, analysis_iv_cmp);
	for (size_t i = 1; i < n; i++) {
		if (iv[i].a <= iv[m].b) {
			if (iv[i].b > iv[m].b)
				iv[m].b = iv[i].b;
		} else {
			iv[++m] = iv[i];
		}
	}
	return m + 1;
}

static uint64_t analysis_length(const struct analysis_iv *iv, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += iv[i].b - iv[i].a;
	return sum;
}

uint64_t analysis_union_ns(const struct ss_timeline *t, unsigned kind_mask, int32_t stream)
{
	struct analysis_iv *iv = xreallocarray(NULL, t->n ? t->n : 1, sizeof *iv);
	size_t n = 0;
	uint64_t len;

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind >= SS_KIND_COUNT || !(kind_mask & SS_KIND_BIT(r->kind)))
			continue;
		if (stream != INT32_MIN && r->stream != stream)
			continue;
		if (r->end > r->start)
			iv[n++] = (struct analysis_iv){r->start, r->end};
	}
	n = analysis_merge(iv, n);
	len = analysis_length(iv, n);
	free(iv);
	return len;
}

void analysis_timeline(const struct ss_timeline *t, struct ss_analysis *a)
{
	struct analysis_iv *iv[SS_ENG_COUNT];
	size_t n[SS_ENG_COUNT] = {0}, nedges = 0;
	struct analysis_edge *edges;
	int depth = 0;
	uint64_t last = 0, g0, g1;

	memset(a, 0, sizeof *a);
	for (int e = 0; e < SS_ENG_COUNT; e++)
		iv[e] = xreallocarray(NULL, t->n ? t->n : 1, sizeof *iv[e]);
	if (!timeline_work_span(t->rec, t->n, &a->t0, &a->t1))
		a->t0 = a->t1 = 0;
	a->makespan_ns = a->t1 - a->t0;
	if (a->makespan_ns > 0 && timeline_span(t, SS_GPU_KINDS, &g0, &g1))
		a->staging_ns = (g0 - a->t0) + (a->t1 - g1);
	a->devices = 1;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int e;

		if (r->kind < SS_KIND_COUNT)
			a->counts[r->kind]++;
		e = analysis_engine_of(r->kind);
		if (e < 0)
			continue;
		if (r->device + 1 > a->devices)
			a->devices = r->device + 1;
		a->eng[e].count++;
		a->eng[e].bytes += r->bytes;
		if (r->end > r->start) {
			a->eng[e].sum_ns += r->end - r->start;
			iv[e][n[e]++] = (struct analysis_iv){r->start, r->end};
		}
	}
	for (int e = 0; e < SS_ENG_COUNT; e++) {
		n[e] = analysis_merge(iv[e], n[e]);
		a->eng[e].busy_ns = analysis_length(iv[e], n[e]);
		a->eng[e].util = a->makespan_ns ? (double)a->eng[e].busy_ns / (double)a->makespan_ns : 0.0;
		nedges += 2 * n[e];
	}
	edges = xreallocarray(NULL, nedges ? nedges : 1, sizeof *edges);
	nedges = 0;
	for (int e = 0; e < SS_ENG_COUNT; e++)
		for (size_t i = 0; i < n[e]; i++) {
			edges[nedges++] = (struct analysis_edge){iv[e][i].a, +1};
			edges[nedges++] = (struct analysis_edge){iv[e][i].b, -1};
		}
	qsort(edges, nedges, sizeof *edges, analysis_edge_cmp);
	for (size_t i = 0; i < nedges; i++) {
		if (depth >= 2)
			a->overlap_ns += edges[i].t - last;
		depth += edges[i].d;
		last = edges[i].t;
	}
	a->overlap = a->makespan_ns ? (double)a->overlap_ns / (double)a->makespan_ns : 0.0;
	free(edges);
	for (int e = 0; e < SS_ENG_COUNT; e++)
		free(iv[e]);
}

uint64_t analysis_bound(uint64_t h, uint64_t k, uint64_t d, int n)
{
	uint64_t m = h > k ? h : k;
	double nn = n < 1 ? 1.0 : (double)n;

	if (d > m)
		m = d;
	return (uint64_t)((double)(h + k + d) / nn + (nn - 1.0) / nn * (double)m + 0.5);
}

void analysis_compare(struct ss_analysis *a, const struct ss_analysis *one, int n, uint64_t makespan,
                      uint64_t one_makespan, double work)
{
	if (!(work > 0))
		work = 1.0;
	a->work = work;
	a->have_speedup = makespan > 0 && one_makespan > 0;
	a->speedup = a->have_speedup ? (double)one_makespan * work / (double)makespan : 0.0;
	a->h_ns = (uint64_t)llround((double)one->eng[SS_ENG_H2D].busy_ns * work);
	a->k_ns = (uint64_t)llround((double)one->eng[SS_ENG_COMPUTE].busy_ns * work);
	a->d_ns = (uint64_t)llround((double)one->eng[SS_ENG_D2H].busy_ns * work);
	a->n = n;
	a->phase_share = one_makespan > 0 ? (double)(a->h_ns + a->k_ns + a->d_ns) / ((double)one_makespan * work) : 0.0;
	a->phases_short = one_makespan > 0 && a->phase_share < ANALYSIS_PHASES_MIN;
	/* no bound from phase totals the 1-stream run's timeline lacks (its copies were not recorded); none either
	 * where the streams do work of their own rather than chunks of one data set (the pipeline bound is over
	 * chunks), nor where copies and kernels are a small part of the 1-stream run, nor over several GPUs (the
	 * bound is one GPU's engines) */
	a->have_bound = n >= 1 && a->h_ns + a->k_ns + a->d_ns > 0 && makespan > 0 && !one->span_short &&
	                fabs(work - 1.0) < 1e-9 && !a->phases_short && one->devices <= 1 && a->devices <= 1;
	if (a->have_bound) {
		a->bound_ns = analysis_bound(a->h_ns, a->k_ns, a->d_ns, n);
		a->gap = (double)makespan / (double)a->bound_ns - 1.0;
	}
}

void analysis_observer(struct ss_analysis *a, const struct ss_run_result *res)
{
	a->used_ns = a->makespan_ns;
	if (res == NULL)
		return;
	/* the run's timer (the model's too: what advise, remedies and sweeps of untraced runs compare) */
	if (res->events_ns_of_captured > 0) {
		a->have_events = true;
		a->events_ns = res->events_ns_of_captured;
		a->cupti_vs_events = (double)a->makespan_ns / (double)a->events_ns - 1.0;
		a->have_events_median = res->have_cupti_vs_events;
		a->cupti_vs_events_median = res->cupti_vs_events_median;
	}
	if (res->modelled)
		return;
	if (res->have_untraced && res->untraced_ns > 0 && res->traced_ns > 0) {
		a->have_overhead = true;
		a->traced_ns = res->traced_ns;
		a->untraced_ns = res->untraced_ns;
		a->untraced_detached = res->untraced_detached;
		a->untraced_min_ns = res->untraced_min_ns;
		a->untraced_max_ns = res->untraced_max_ns;
		a->overhead = (double)res->traced_ns / (double)res->untraced_ns - 1.0;
		a->have_spread = res->have_spread;
		a->overhead_q1 = res->overhead_q1;
		a->overhead_q3 = res->overhead_q3;
		/* "exceeds 1%", decided in integers so that exactly 1% does not */
		if ((unsigned __int128)res->traced_ns * 100 > (unsigned __int128)res->untraced_ns * 101) {
			a->used_untraced = true;
			a->used_ns = res->untraced_ns;
		}
	}
	/* a span short of work is no makespan: the untraced twin's cudaEvent makespan covers all of it */
	a->span_short = res->span_short;
	if (res->span_short && a->have_overhead) {
		a->used_untraced = true;
		a->used_ns = res->untraced_ns;
	}
}

/* A running kernel in analysis_kernel_concurrency's heap: when it ends, and its stream. */
struct analysis_running {
	uint64_t end;
	int32_t stream;
};

/* analysis_heap_down restores the min-heap order of h[0..n) by end from slot i down. */
static void analysis_heap_down(struct analysis_running *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < n && h[l].end < h[m].end)
			m = l;
		if (l + 1 < n && h[l + 1].end < h[m].end)
			m = l + 1;
		if (m == i)
			return;
		struct analysis_running x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

/* One sweep in start order with a min-heap of the running kernels' ends: O(n log n). Kernels of one stream, which
 * CUDA runs one after another, count once however their timestamps touch. */
int analysis_kernel_concurrency(const struct ss_timeline *t)
{
	struct analysis_running *h = xcalloc(t->n + 1, sizeof *h);
	struct idmap per; /* stream -> running kernels of it */
	size_t n = 0;
	int best = 0;

	idmap_init(&per);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint32_t mine = 0, v;

		if (r->kind != SS_KIND_KERNEL || r->stream < 0)
			continue;
		while (n > 0 && h[0].end <= r->start) { /* those ended: drop them */
			if (idmap_get(&per, (uint32_t)h[0].stream, &v))
				idmap_put(&per, (uint32_t)h[0].stream, v - 1);
			h[0] = h[--n];
			analysis_heap_down(h, n, 0);
		}
		idmap_get(&per, (uint32_t)r->stream, &mine);
		if ((int)(n - mine) + 1 > best)
			best = (int)(n - mine) + 1;
		/* push r */
		size_t k = n++;
		h[k].end = r->end;
		h[k].stream = r->stream;
		while (k > 0 && h[(k - 1) / 2].end > h[k].end) {
			struct analysis_running x = h[k];
			h[k] = h[(k - 1) / 2];
			h[(k - 1) / 2] = x;
			k = (k - 1) / 2;
		}
		idmap_put(&per, (uint32_t)r->stream, mine + 1);
	}
	idmap_free(&per);
	free(h);
	return best;
}

size_t analysis_across_legacy(const struct ss_timeline *t, size_t *nlegacy)
{
	size_t bad = 0;

	*nlegacy = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *l = &t->rec[i];

		if (l->stream != SS_STREAM_LEGACY || l->kind >= SS_KIND_COUNT || !(SS_GPU_KINDS & SS_KIND_BIT(l->kind)))
			continue;
		(*nlegacy)++;
		for (size_t j = 0; j < t->n; j++) {
			const struct ss_record *r = &t->rec[j];

			if (r->stream >= 0 && r->kind < SS_KIND_COUNT && (SS_GPU_KINDS & SS_KIND_BIT(r->kind)) &&
			    r->start < l->end && r->end > l->start)
				bad++;
		}
	}
	return bad;
}

bool analysis_peak_rate(const struct ss_timeline *t, int kind, uint64_t min_bytes, uint64_t *bytes, uint64_t *ns)
{
	bool found = false;

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind != kind || r->bytes < min_bytes || r->end <= r->start)
			continue;
		/* r->bytes / dur > *bytes / *ns, without division */
		if (!found || (double)r->bytes * (double)*ns > (double)*bytes * (double)(r->end - r->start)) {
			*bytes = r->bytes;
			*ns = r->end - r->start;
			found = true;
		}
	}
	return found;
}
