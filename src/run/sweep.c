/* sweep.c: the stream-count sweep shared by the CLI and the TUI. */
#include "run/sweep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "core/xalloc.h"
#include "run/runner.h"

int sweep_parse_counts(const char *s, int *counts, int *n, char **cause)
{
	const char *p = s;
	int items = 1;

	*n = 0;
	/* the length first: a list too long is that, whatever its items hold */
	for (const char *c = s; *c != '\0'; c++)
		items += *c == ',';
	if (items > SS_SWEEP_MAX_COUNTS) {
		*cause = xasprintf("invalid stream list: %d counts, at most %d (ascending, each 1..%d)", items,
		                   SS_SWEEP_MAX_COUNTS, SS_MAX_STREAMS);
		return -1;
	}
	while (*p != '\0') {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno != 0 || v < 1 || v > SS_MAX_STREAMS || (*end != ',' && *end != '\0') ||
		    (*end == ',' && end[1] == '\0')) {
			*cause =
			    xasprintf("invalid stream list '%s': valid is comma-separated counts 1..%d, e.g. 1,2,4,8",
			              s, SS_MAX_STREAMS);
			return -1;
		}
		if (*n > 0 && v <= counts[*n - 1]) {
			*cause = xasprintf("invalid stream list '%s': %ld after %d, the counts must be ascending", s, v,
			                   counts[*n - 1]);
			return -1;
		}
		counts[(*n)++] = (int)v;
		p = *end == ',' ? end + 1 : end;
	}
	if (*n == 0) {
		*cause = xasprintf("empty stream list: valid is comma-separated counts 1..%d", SS_MAX_STREAMS);
		return -1;
	}
	return 0;
}

void sweep_init(struct ss_sweep *s, const struct ss_experiment *base, const int *counts, int ncounts,
                const enum ss_order *orders, int norders)
{
	memset(s, 0, sizeof *s);
	s->base = *base;
	if (counts[0] != 1)
		s->counts[s->ncounts++] = 1;
	for (int i = 0; i < ncounts && s->ncounts < SS_SWEEP_MAX_COUNTS; i++)
		s->counts[s->ncounts++] = counts[i];
	s->norders = norders < 1 ? 1 : norders > 2 ? 2 : norders;
	for (int o = 0; o < s->norders; o++)
		s->orders[o] = orders[o];
	s->n = (size_t)s->ncounts * (size_t)s->norders;
	s->pt = xcalloc(s->n, sizeof *s->pt);
	for (int o = 0; o < s->norders; o++)
		for (int i = 0; i < s->ncounts; i++) {
			struct ss_sweep_point *p = &s->pt[(size_t)o * (size_t)s->ncounts + (size_t)i];

			p->streams = s->counts[i];
			p->order = s->orders[o];
		}
}

/* The experiment of one point: base with its stream count and order (threads follow streams). */
static void sweep_experiment(const struct ss_experiment *base, const struct ss_sweep_point *p, struct ss_experiment *e)
{
	*e = *base;
	e->streams = p->streams;
	e->order = p->order;
	if (e->threads > 1)
		e->threads = p->streams;
	if (e->chunks > 0 && e->chunks < p->streams)
		e->chunks = p->streams;
}

int sweep_default_counts(const struct ss_experiment *e, int *counts)
{
	int most = SS_MAX_STREAMS / (e->devices > 1 ? e->devices : 1), n = 0;

	for (int c = 1; c <= most && n < SS_SWEEP_MAX_COUNTS; c *= 2)
		counts[n++] = c;
	return n;
}

void sweep_both_orders(const struct ss_experiment *e, enum ss_order orders[2])
{
	bool doc = e->order == SS_ORDER_BEST || e->order == SS_ORDER_WEAKER;

	orders[0] = doc ? SS_ORDER_BEST : e->order == SS_ORDER_INTERLEAVE ? SS_ORDER_INTERLEAVE : SS_ORDER_DEPTH;
	orders[1] = doc ? SS_ORDER_WEAKER : e->order == SS_ORDER_INTERLEAVE ? SS_ORDER_DEPTH : SS_ORDER_BREADTH;
}

void sweep_init_default(struct ss_sweep *s, const struct ss_experiment *base, const enum ss_order *orders, int norders)
{
	enum ss_order keep[2];
	char note[256] = "";
	int counts[SS_SWEEP_MAX_COUNTS], ncounts = sweep_default_counts(base, counts), nkeep = 0;

	for (int o = 0; o < norders && o < 2; o++) {
		struct ss_sweep_point one = {.streams = 1, .order = orders[o]};
		struct ss_experiment e;
		char *cause = NULL;

		sweep_experiment(base, &one, &e);
		if (experiment_validate(&e, &cause) == 0)
			keep[nkeep++] = orders[o];
		else if (note[0] == '\0')
			snprintf(note, sizeof note, "%s left out: %s", experiment_order_label(orders[o]), cause);
		free(cause);
	}
	if (nkeep == 0) {
		sweep_init(s, base, counts, ncounts, orders, norders);
		return;
	}
	sweep_init(s, base, counts, ncounts, keep, nkeep);
	snprintf(s->note, sizeof s->note, "%s", note);
}

void sweep_point_experiment(const struct ss_sweep *s, size_t index, struct ss_experiment *e)
{
	sweep_experiment(&s->base, &s->pt[index < s->n ? index : 0], e);
}

size_t sweep_best(const struct ss_sweep *s)
{
	size_t best = SIZE_MAX;
	uint64_t t = 0;

	for (size_t i = 0; i < s->n; i++) {
		const struct ss_sweep_point *p = &s->pt[i];
		uint64_t pt = p->a.used_ns > 0 ? p->a.used_ns : p->a.makespan_ns;

		if (p->done && !p->failed && pt > 0 && (best == SIZE_MAX || pt < t)) {
			best = i;
			t = pt;
		}
	}
	return best;
}

bool sweep_next(struct ss_sweep *s, struct ss_experiment *e, size_t *index)
{
	if (s->next >= s->n)
		return false;
	*index = s->next++;
	sweep_experiment(&s->base, &s->pt[*index], e);
	return true;
}

/* Recomputes speedup and bound of every finished point of order o against its 1-stream point. */
static void sweep_compare(struct ss_sweep *s, int o)
{
	const struct ss_sweep_point *ref = &s->pt[(size_t)o * (size_t)s->ncounts];

	if (!ref->done || ref->failed)
		return;
	for (int i = 0; i < s->ncounts; i++) {
		struct ss_sweep_point *p = &s->pt[(size_t)o * (size_t)s->ncounts + (size_t)i];
		struct ss_experiment e, re;
		struct ss_oplist ops;

		if (!p->done || p->failed)
			continue;
		sweep_experiment(&s->base, p, &e);
		sweep_experiment(&s->base, ref, &re);
		planner_build(&e, &ops);
		analysis_compare(&p->a, &ref->a, ops.nchunks, p->a.used_ns, ref->a.used_ns,
		                 planner_work_ratio(&ops, &re));
		planner_free(&ops);
	}
}

void sweep_done(struct ss_sweep *s, size_t index, const struct ss_timeline *tl, const struct ss_run_result *res,
                const char *error)
{
	struct ss_sweep_point *p;
	struct ss_experiment e;
	struct ss_oplist ops;

	if (index >= s->n)
		return;
	p = &s->pt[index];
	p->done = true;
	if (res == NULL) {
		p->failed = true;
		snprintf(p->error, sizeof p->error, "%s", error ? error : "failed");
		return;
	}
	analysis_timeline(tl, &p->a);
	analysis_observer(&p->a, res);
	p->dropped = res->dropped;
	p->verified = res->verified;
	s->modelled = res->modelled;
	snprintf(s->device, sizeof s->device, "%s", res->device);
	sweep_experiment(&s->base, p, &e);
	planner_build(&e, &ops);
	planner_expected_records(&ops, res->prefetch_records, p->counts_expected);
	planner_free(&ops);
	sweep_compare(s, (int)(index / (size_t)s->ncounts));
}

const struct ss_sweep_point *sweep_find(const struct ss_sweep *s, int streams, enum ss_order order)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->pt[i].streams == streams && s->pt[i].order == order)
			return &s->pt[i];
	return NULL;
}

size_t sweep_progress(const struct ss_sweep *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->pt[i].done;
	return n;
}

void sweep_free(struct ss_sweep *s)
{
	free(s->pt);
	memset(s, 0, sizeof *s);
}

int sweep_run(struct ss_sweep *s, const struct ss_backend *b, void (*progress)(const struct ss_sweep *, size_t),
              char **cause)
{
	struct ss_experiment e;
	size_t idx;

	while (sweep_next(s, &e, &idx)) {
		struct ss_timeline tl;
		struct ss_run_result res;
		char *why = NULL;
		int rc;

		timeline_init(&tl);
		rc = runner_run(b, &e, &tl, &res, &why);
		sweep_done(s, idx, &tl, rc == 0 ? &res : NULL, why);
		timeline_free(&tl);
		if (progress != NULL)
			progress(s, idx);
		if (rc != 0) {
			*cause = why;
			return rc;
		}
	}
	return 0;
}
