/* summary.c: per-kernel and per-copy-kind summaries of a timeline (see summary.h). */
#include "core/summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/xalloc.h"

/* One GPU record as the grouping sees it: its group key, duration and bytes. */
struct summary_item {
	uint32_t key; /* kernels: name id; copies: kind * SS_SUM_MEM_COUNT + mem */
	uint64_t dur;
	uint64_t bytes;
};

static int summary_item_cmp(const void *a, const void *b)
{
	const struct summary_item *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

/* The memory of a copy record, from its flags: managed first (a managed copy may also be marked pinned). */
static int summary_mem_of(const struct ss_record *r)
{
	if (r->flags & SS_REC_MANAGED)
		return SS_SUM_MEM_MANAGED;
	if (r->flags & SS_REC_PAGEABLE)
		return SS_SUM_MEM_PAGEABLE;
	if (r->flags & SS_REC_PINNED)
		return SS_SUM_MEM_PINNED;
	return SS_SUM_MEM_NONE;
}

/* summary_group makes one row of it[0..n) (one key, n >= 1), using buf (n doubles) for the medians. */
static void summary_group(const struct summary_item *it, size_t n, bool kernel, double *buf, struct ss_summary_row *r)
{
	double mean, sq = 0, bsum = 0;

	memset(r, 0, sizeof *r);
	if (kernel) {
		r->kind = SS_KIND_KERNEL;
		r->name = it[0].key;
	} else {
		r->kind = (int)(it[0].key / SS_SUM_MEM_COUNT);
		r->mem = (int)(it[0].key % SS_SUM_MEM_COUNT);
	}
	r->count = n;
	r->min_ns = UINT64_MAX;
	r->bytes_min = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		r->total_ns += it[i].dur;
		r->min_ns = it[i].dur < r->min_ns ? it[i].dur : r->min_ns;
		r->max_ns = it[i].dur > r->max_ns ? it[i].dur : r->max_ns;
		r->bytes += it[i].bytes;
		r->bytes_min = it[i].bytes < r->bytes_min ? it[i].bytes : r->bytes_min;
		r->bytes_max = it[i].bytes > r->bytes_max ? it[i].bytes : r->bytes_max;
		bsum += (double)it[i].bytes;
	}
	mean = (double)r->total_ns / (double)n;
	r->avg_ns = mean;
	for (size_t i = 0; i < n; i++) {
		double d = (double)it[i].dur - mean;

		sq += d * d;
		buf[i] = (double)it[i].dur;
	}
	r->stddev_ns = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
	r->median_ns = stats_median(buf, n);
	if (kernel) {
		r->bytes_min = 0;
		return;
	}
	r->bytes_avg = bsum / (double)n;
	for (size_t i = 0; i < n; i++)
		buf[i] = (double)it[i].bytes;
	r->bytes_median = stats_median(buf, n);
}

/* A row and its name, for the sort (qsort has no context argument to name kernels from the timeline). */
struct summary_named {
	const char *name;
	struct ss_summary_row row;
};

/* Total time descending, then name ascending (for copies the names follow kind and memory). */
static int summary_row_cmp(const void *a, const void *b)
{
	const struct summary_named *x = a, *y = b;

	if (x->row.total_ns != y->row.total_ns)
		return x->row.total_ns > y->row.total_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* summary_table groups it[0..n) by key into rows (sorted as summary.h says) and sets each row's percentage of
 * their total time. */
static struct ss_summary_row *summary_table(const struct ss_timeline *t, struct summary_item *it, size_t n, bool kernel,
                                            size_t *nrows, uint64_t *total)
{
	struct ss_summary_row *rows;
	struct summary_named *named;
	double *buf;
	size_t k = 0;

	*nrows = 0;
	*total = 0;
	if (n == 0)
		return NULL;
	qsort(it, n, sizeof *it, summary_item_cmp);
	rows = xcalloc(n, sizeof *rows);
	buf = xcalloc(n, sizeof *buf);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && it[j].key == it[i].key)
			j++;
		summary_group(it + i, j - i, kernel, buf, &rows[k]);
		*total += rows[k].total_ns;
		k++;
		i = j;
	}
	free(buf);
	for (size_t i = 0; i < k; i++)
		rows[i].percent = *total > 0 ? 100.0 * (double)rows[i].total_ns / (double)*total : 0.0;
	named = xcalloc(k, sizeof *named);
	for (size_t i = 0; i < k; i++)
		named[i] = (struct summary_named){summary_row_name(t, &rows[i]), rows[i]};
	qsort(named, k, sizeof *named, summary_row_cmp);
	for (size_t i = 0; i < k; i++)
		rows[i] = named[i].row;
	free(named);
	*nrows = k;
	return xrealloc(rows, k * sizeof *rows);
}

void summary_build(const struct ss_timeline *t, struct ss_summary *s)
{
	struct summary_item *kern, *copy;
	size_t nk = 0, nc = 0;

	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < t->n; i++) {
		int k = t->rec[i].kind;

		nk += k == SS_KIND_KERNEL;
		nc += k == SS_KIND_H2D || k == SS_KIND_D2H || k == SS_KIND_D2D || k == SS_KIND_MEMSET;
	}
	kern = xcalloc(nk + 1, sizeof *kern);
	copy = xcalloc(nc + 1, sizeof *copy);
	nk = nc = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		uint64_t dur = r->end >= r->start ? r->end - r->start : 0;

		if (r->kind == SS_KIND_KERNEL) {
			/* by the full name where the trace has one (overloads and template instances apart, as nsys
			 * stats groups them), else the record's */
			const struct ss_launch *l = timeline_launch(t, r);

			kern[nk++] =
			    (struct summary_item){l != NULL && l->full_name != 0 ? l->full_name : r->name, dur, 0};
		} else if (r->kind == SS_KIND_H2D || r->kind == SS_KIND_D2H || r->kind == SS_KIND_D2D ||
		           r->kind == SS_KIND_MEMSET) {
			int mem = r->kind == SS_KIND_MEMSET ? SS_SUM_MEM_NONE : summary_mem_of(r);

			copy[nc++] = (struct summary_item){(uint32_t)(r->kind * SS_SUM_MEM_COUNT + mem), dur, r->bytes};
		}
	}
	s->kern_count = nk;
	s->copy_count = nc;
	s->kern = summary_table(t, kern, nk, true, &s->nkern, &s->kern_total_ns);
	s->copy = summary_table(t, copy, nc, false, &s->ncopy, &s->copy_total_ns);
	free(kern);
	free(copy);
}

void summary_free(struct ss_summary *s)
{
	free(s->kern);
	free(s->copy);
	memset(s, 0, sizeof *s);
}

const char *summary_kind_name(int kind)
{
	switch (kind) {
	case SS_KIND_H2D:
		return "HtoD";
	case SS_KIND_D2H:
		return "DtoH";
	case SS_KIND_D2D:
		return "DtoD";
	case SS_KIND_MEMSET:
		return "memset";
	case SS_KIND_KERNEL:
		return "kernel";
	default:
		return "?";
	}
}

const char *summary_mem_name(int mem)
{
	static const char *const names[SS_SUM_MEM_COUNT] = {NULL, "pinned", "pageable", "managed"};

	return mem >= 0 && mem < SS_SUM_MEM_COUNT ? names[mem] : NULL;
}

const char *summary_row_name(const struct ss_timeline *t, const struct ss_summary_row *r)
{
	/* [kind][mem], as summary_mem_name orders the memories */
	static const char *const copies[4][SS_SUM_MEM_COUNT] = {
	    {"HtoD", "HtoD (pinned)", "HtoD (pageable)", "HtoD (managed)"},
	    {"DtoH", "DtoH (pinned)", "DtoH (pageable)", "DtoH (managed)"},
	    {"DtoD", "DtoD (pinned)", "DtoD (pageable)", "DtoD (managed)"},
	    {"memset", "memset", "memset", "memset"},
	};
	const char *name;

	if (r->kind == SS_KIND_KERNEL) {
		name = timeline_name(t, r->name);
		return name[0] != '\0' ? name : "(unnamed kernel)";
	}
	if (r->kind >= SS_KIND_H2D && r->kind <= SS_KIND_MEMSET && r->mem >= 0 && r->mem < SS_SUM_MEM_COUNT)
		return copies[r->kind][r->mem];
	return "?";
}

double summary_bandwidth(const struct ss_summary_row *r)
{
	return r->total_ns > 0 ? (double)r->bytes / (double)r->total_ns : 0.0;
}
