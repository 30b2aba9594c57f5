/* bracket.c: records for event-timed ops, placed on CUPTI's clock by the kernels beside them (see bracket.h). */
#include "cuda/bracket.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

#define BRACKET_API_NAME "cudaMemPrefetchAsync"

bool bracket_wanted(int kind)
{
	return kind == SS_OP_PREFETCH_H2D || kind == SS_OP_PREFETCH_D2H;
}

/* qsort order of record pointers: start time. */
static int bracket_cmp_start(const void *a, const void *b)
{
	const struct ss_record *x = *(const struct ss_record *const *)a, *y = *(const struct ss_record *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The records of in that are kernels on stream s (want_api false) or calls named BRACKET_API_NAME of op-list thread
 * s (want_api true), in start order, into *v (caller frees). */
static size_t bracket_pick(const struct cupti_capture_rec *in, size_t nin, bool want_api, int s,
                           int (*thread_index)(void *arg, uint32_t os_thread), void *arg, const struct ss_record ***v)
{
	const struct ss_record **p = xreallocarray(NULL, nin + 1, sizeof *p);
	size_t n = 0;

	for (size_t i = 0; i < nin; i++) {
		const struct ss_record *r = &in[i].r;
		if (!want_api && r->kind == SS_KIND_KERNEL && r->stream == s)
			p[n++] = r;
		else if (want_api && r->kind == SS_KIND_API && in[i].name != NULL &&
		         strcmp(in[i].name, BRACKET_API_NAME) == 0 && thread_index != NULL &&
		         thread_index(arg, r->thread) == s)
			p[n++] = r;
	}
	qsort(p, n, sizeof *p, bracket_cmp_start);
	*v = p;
	return n;
}

/* Bounds on the offset (CUPTI ns = offset + event ms x 1e6) from stream s's kernels: each kernel starts after the
 * nearest bracketing event before it and ends before the nearest one after it. A stream whose kernel records do
 * not pair one to one with its kernel ops gives none. */
static void bracket_bound(const struct ss_oplist *ops, const long *br, const struct bracket_time *bt, int s,
                          const struct cupti_capture_rec *in, size_t nin, double *lo, double *hi, size_t *anchors)
{
	const struct ss_record **k;
	size_t nk = bracket_pick(in, nin, false, s, NULL, NULL, &k), kth = 0, nops = 0;

	for (size_t i = 0; i < ops->n; i++)
		nops += ops->op[i].stream == s && ops->op[i].kind == SS_OP_KERNEL;
	if (nops != nk) {
		free(k);
		return;
	}
	for (size_t i = 0; i < ops->n; i++) {
		const struct ss_record *r;
		bool used = false;

		if (ops->op[i].stream != s || ops->op[i].kind != SS_OP_KERNEL)
			continue;
		r = k[kth++];
		for (size_t j = i; j-- > 0;)
			if (ops->op[j].stream == s && br[j] >= 0) {
				*hi = fmin(*hi, (double)r->start - bt[br[j]].after_ms * 1e6);
				used = true;
				break;
			}
		for (size_t j = i + 1; j < ops->n; j++)
			if (ops->op[j].stream == s && br[j] >= 0) {
				/* an idle op has no event before it: the one after it bounds more loosely */
				const struct bracket_time *t = &bt[br[j]];

				*lo = fmax(*lo, (double)r->end - (t->idle ? t->after_ms : t->before_ms) * 1e6);
				used = true;
				break;
			}
		*anchors += used;
	}
	free(k);
}

static int bracket_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The clock offsets CUPTI's own timestamps of the events imply (its time minus the cudaEvent time, one per event
 * that has one): their median into *median and their range into *omin, *omax. Returns how many there were. Most
 * agree to a microsecond; a few events after a migration came up to 36 us later in CUPTI's time on the H200, hence
 * the median. */
static size_t bracket_cupti_offsets(const struct bracket_time *bt, size_t nbt, double *median, double *omin,
                                    double *omax)
{
	double *o = xcalloc(2 * nbt + 1, sizeof *o);
	size_t n = 0;

	for (size_t b = 0; b < nbt; b++) {
		if (!bt[b].idle && bt[b].before_ns != 0)
			o[n++] = (double)bt[b].before_ns - bt[b].before_ms * 1e6;
		if (bt[b].after_ns != 0)
			o[n++] = (double)bt[b].after_ns - bt[b].after_ms * 1e6;
	}
	if (n > 0) {
		qsort(o, n, sizeof *o, bracket_cmp_double);
		*median = n % 2 ? o[n / 2] : (o[n / 2 - 1] + o[n / 2]) / 2;
		*omin = o[0];
		*omax = o[n - 1];
	}
	free(o);
	return n;
}

int bracket_records(const struct ss_oplist *ops, const struct bracket_time *bt, size_t nbt,
                    const struct cupti_capture_rec *in, size_t nin, int (*thread_index)(void *arg, uint32_t os_thread),
                    void *arg, const uint32_t *raw_ids, int nids, struct cupti_capture_rec **out, size_t *nout,
                    struct bracket_result *res, char **cause)
{
	long *br = xreallocarray(NULL, ops->n + 1, sizeof *br);
	const struct ss_record **call; /* per bracket: its API call, NULL when not found */
	double lo = -INFINITY, hi = INFINITY, off, mid, median = 0, omin = 0, omax = 0;
	int nthreads = 1, nstreams = 0;

	*out = NULL;
	*nout = 0;
	memset(res, 0, sizeof *res);
	for (size_t i = 0; i < ops->n; i++) {
		br[i] = -1;
		if (ops->op[i].thread + 1 > nthreads)
			nthreads = ops->op[i].thread + 1;
		if (ops->op[i].stream + 1 > nstreams)
			nstreams = ops->op[i].stream + 1;
	}
	for (size_t b = 0; b < nbt; b++) {
		if (bt[b].op >= ops->n || !bracket_wanted(ops->op[bt[b].op].kind) || br[bt[b].op] >= 0 ||
		    ops->op[bt[b].op].stream < 0 || !(bt[b].idle || bt[b].after_ms >= bt[b].before_ms)) {
			*cause =
			    xasprintf("event-timed op %zu of %zu is not a prefetch on an experiment stream, is timed "
			              "twice, or ends before it starts",
			              bt[b].op, ops->n);
			free(br);
			return -1;
		}
		br[bt[b].op] = (long)b;
	}
	for (int s = 0; s < nstreams; s++)
		bracket_bound(ops, br, bt, s, in, nin, &lo, &hi, &res->anchors);
	res->samples = bracket_cupti_offsets(bt, nbt, &median, &omin, &omax);
	if (res->anchors == 0 && res->samples == 0) {
		free(br);
		return 0;
	}
	/* The kernels' bounds: both sides, the middle; one side only, that bound (where the event and the kernel
	 * touch). CUPTI's timestamps, where they came, measure the offset itself: their median, kept inside the
	 * bounds (the bounds are where in depth-first order they agree to a few us; in breadth-first order the
	 * kernels wait for the host and leave the bounds hundreds of us wide). */
	mid = isfinite(lo) && isfinite(hi) ? (lo + hi) / 2 : isfinite(lo) ? lo : isfinite(hi) ? hi : median;
	res->width_ns = isfinite(lo) && isfinite(hi) ? hi - lo : 0;
	off = mid;
	if (res->samples > 0) {
		off = fmin(fmax(median, lo), hi);
		res->clamped = off != median;
		res->shift_ns = off - mid;
		res->spread_lo_ns = omin - off;
		res->spread_hi_ns = omax - off;
	}
	res->placed = true;
	/* the k-th bracketed op a thread issued is its k-th cudaMemPrefetchAsync call */
	call = xcalloc(nbt + 1, sizeof *call);
	for (int t = 0; t < nthreads; t++) {
		const struct ss_record **api;
		size_t na = bracket_pick(in, nin, true, t, thread_index, arg, &api), kth = 0, nmine = 0;

		for (size_t b = 0; b < nbt; b++)
			nmine += ops->op[bt[b].op].thread == t || (t == 0 && ops->op[bt[b].op].thread < 0);
		if (na == nmine)
			for (size_t i = 0; i < ops->n; i++)
				if (br[i] >= 0 && (ops->op[i].thread == t || (t == 0 && ops->op[i].thread < 0)))
					call[br[i]] = api[kth++];
		free(api);
	}
	*out = xreallocarray(NULL, nbt + 1, sizeof **out);
	for (size_t b = 0; b < nbt; b++) {
		const struct ss_op *op = &ops->op[bt[b].op];
		struct cupti_capture_rec *c = &(*out)[b];
		double t1 = off + bt[b].after_ms * 1e6, t0 = off + bt[b].before_ms * 1e6;
		bool h2d = op->kind == SS_OP_PREFETCH_H2D;

		if (bt[b].idle && call[b] != NULL) {
			t0 = (double)call[b]->start;
			res->from_call++;
		} else if (bt[b].idle) {
			t0 = t1;
			res->no_start++;
		}
		memset(c, 0, sizeof *c);
		c->r.start = t0 > 0 ? (uint64_t)llround(t0) : 0;
		c->r.end = t1 > 0 ? (uint64_t)llround(t1) : 0;
		if (c->r.end < c->r.start)
			c->r.end = c->r.start;
		c->r.bytes = planner_op_bytes(ops, op);
		c->r.stream = op->stream;
		c->r.raw_stream = op->stream < nids ? raw_ids[op->stream] : 0;
		c->r.kind = h2d ? SS_KIND_H2D : SS_KIND_D2H;
		c->r.flags = SS_REC_MANAGED | SS_REC_ASYNC | SS_REC_EVENT_TIMED;
		c->name = xstrdup(h2d ? "Prefetch HtoD (Managed -> Device)" : "Prefetch DtoH (Device -> Managed)");
		if (call[b] != NULL) {
			c->r.correlation = call[b]->correlation;
			res->matched++;
		}
	}
	*nout = nbt;
	res->added = nbt;
	free(call);
	free(br);
	return 0;
}

void bracket_free(struct cupti_capture_rec *rec, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rec[i].name);
	free(rec);
}
