/* advise.c: the advisor's search on the model and the verification of its candidates on a GPU; see advise.h.
 *
 * The model is deterministic, so the search never models a configuration twice (a hash of the varied fields) and
 * prunes by what the makespan curve does: a coarse grid over powers of two of streams and chunks per stream, each
 * line of the grid stopped once it is twice the fastest and still rising (more chunks only add launches there),
 * then rounds of local refinement around the fastest (nearby stream and chunk counts, every queue count, order,
 * sync, memory and flags one field at a time) until a round finds nothing faster, then the simpler configurations
 * below the fastest (fewer streams, fewer chunks), where the recommendation is looked for. */
#include "run/advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/planner.h"
#include "core/timeline.h"
#include "core/xalloc.h"
#include "run/runner.h"

/* The most chunks a configuration of the search has: past them a launch costs more than the overlap it buys on
 * any of the presets' sizes, and the model's time grows with them. */
#define ADVISE_MAX_CHUNKS 2048

/* The search's state: every configuration modelled, and a hash from its key to its index. */
struct advise {
	const struct ss_backend *b;
	const struct ss_experiment *cur;
	unsigned dims;
	struct ss_advise_cand *c;
	size_t n, cap;
	size_t *slot; /* index + 1, 0 empty */
	size_t nslot;
	size_t failed;
	size_t fastest; /* index of the fastest so far, SIZE_MAX when none */
	enum ss_order orders[SS_ORDER_COUNT];
	int norders;
	enum ss_hostmem mems[SS_MEM_COUNT];
	int nmems;
};

/* advise_key packs the fields the search varies (and the threads that follow the streams) into one word. */
static uint64_t advise_key(const struct ss_experiment *e)
{
	return (uint64_t)e->streams | (uint64_t)e->chunks << 8 | (uint64_t)e->order << 26 |
	       (uint64_t)e->connections << 30 | (uint64_t)e->sync << 37 | (uint64_t)e->hostmem << 41 |
	       (uint64_t)e->nonblocking << 45 | (uint64_t)e->threads << 46;
}

static size_t advise_hash(uint64_t k, size_t nslot)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)(k & (nslot - 1));
}

/* advise_find returns the index of the configuration with key k, SIZE_MAX when not modelled yet. */
static size_t advise_find(const struct advise *s, uint64_t k)
{
	for (size_t h = advise_hash(k, s->nslot);; h = (h + 1) & (s->nslot - 1)) {
		size_t i = s->slot[h];

		if (i == 0)
			return SIZE_MAX;
		if (advise_key(&s->c[i - 1].e) == k)
			return i - 1;
	}
}

/* advise_insert puts index i into the hash (growing it to keep it at most half full). */
static void advise_insert(struct advise *s, size_t i)
{
	if (2 * (s->n + 1) > s->nslot) {
		size_t old = s->nslot;
		size_t *was = s->slot;

		s->nslot = old * 2;
		s->slot = xcalloc(s->nslot, sizeof *s->slot);
		for (size_t h = 0; h < old; h++)
			if (was[h] != 0) {
				size_t g = advise_hash(advise_key(&s->c[was[h] - 1].e), s->nslot);

				while (s->slot[g] != 0)
					g = (g + 1) & (s->nslot - 1);
				s->slot[g] = was[h];
			}
		free(was);
	}
	for (size_t h = advise_hash(advise_key(&s->c[i].e), s->nslot);; h = (h + 1) & (s->nslot - 1))
		if (s->slot[h] == 0) {
			s->slot[h] = i + 1;
			return;
		}
}

/* advise_canon makes e the one form of its configuration: one chunk per stream is chunks 0, a chunk count below
 * the streams is one per stream, and the threads follow the streams where the current experiment has one per
 * stream. */
static void advise_canon(const struct advise *s, struct ss_experiment *e)
{
	if (e->chunks != 0 && e->chunks <= e->streams)
		e->chunks = 0;
	e->threads = s->cur->threads > 1 ? e->streams : 1;
}

/* advise_eval models e (made canonical first) unless it was already: its makespan, 0 when e is not a valid
 * experiment (not counted) or the model failed on it (counted in failed). */
static uint64_t advise_eval(struct advise *s, const struct ss_experiment *in)
{
	struct ss_experiment e = *in;
	struct ss_advise_cand *c;
	char *cause = NULL;
	size_t i;
	uint64_t t;
	int nchunks = 0;

	advise_canon(s, &e);
	i = advise_find(s, advise_key(&e));
	if (i != SIZE_MAX)
		return s->c[i].predicted_ns;
	/* the current configuration (modelled first) whatever its chunks; the others within ADVISE_MAX_CHUNKS */
	if ((uint64_t)e.chunks > e.elements || (e.chunks > ADVISE_MAX_CHUNKS && s->n > 0))
		return 0;
	if (experiment_validate(&e, &cause) != 0) {
		free(cause);
		return 0;
	}
	t = runner_makespan(s->b, &e, &nchunks, &cause);
	free(cause);
	if (t == 0)
		s->failed++;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 256;
		s->c = xrealloc(s->c, s->cap * sizeof *s->c);
	}
	c = &s->c[s->n];
	c->e = e;
	c->predicted_ns = t;
	c->nchunks = nchunks;
	advise_insert(s, s->n);
	if (t > 0 && (s->fastest == SIZE_MAX || t < s->c[s->fastest].predicted_ns))
		s->fastest = s->n;
	s->n++;
	return t;
}

/* advise_fastest_exp is the fastest configuration so far. */
static struct ss_experiment advise_fastest_exp(const struct advise *s)
{
	return s->c[s->fastest].e;
}

static uint64_t advise_fastest_ns(const struct advise *s)
{
	return s->c[s->fastest].predicted_ns;
}

/* advise_with is e with s streams and k chunks per stream (k 0: e's chunk count kept, at least one per stream). */
static struct ss_experiment advise_with(const struct ss_experiment *e, int streams, int k)
{
	struct ss_experiment x = *e;

	x.streams = streams;
	if (k > 0)
		x.chunks = streams * k;
	else if (x.chunks > 0 && x.chunks < streams)
		x.chunks = 0;
	return x;
}

/* advise_dims works out which fields apply to cur (of those o asks for) and the orders and memories to try. */
static void advise_dims(struct advise *s, const struct ss_experiment *cur, unsigned want)
{
	int in, out;
	bool task = cur->kernel == SS_KERNEL_TASK, spin = cur->kernel == SS_KERNEL_SPIN;

	experiment_io_arrays(cur, &in, &out);
	s->dims = SS_ADV_QUEUES | SS_ADV_SYNC;
	/* streams: where they cut one data set (more streams, the same work); hyperq's streams each run kernels of
	 * their own, so their count is the work, not a choice */
	{
		struct ss_experiment one = advise_with(cur, 1, 0), four = advise_with(cur, 4, 0);
		struct ss_oplist ops;
		double w;

		one.threads = 1;
		four.threads = cur->threads > 1 ? 4 : 1;
		planner_build(&four, &ops);
		w = planner_work_ratio(&ops, &one);
		planner_free(&ops);
		if (w > 0.999 && w < 1.001)
			s->dims |= SS_ADV_STREAMS;
	}
	if (!spin && cur->elements > 1)
		s->dims |= SS_ADV_CHUNKS;
	s->norders = 0;
	if ((unsigned)cur->order >= SS_ORDER_COUNT || task) {
		s->orders[s->norders++] = cur->order;
	} else {
		s->dims |= SS_ADV_ORDER;
		for (int o = 0; o < (spin ? 2 : SS_ORDER_COUNT); o++)
			s->orders[s->norders++] = (enum ss_order)o;
	}
	s->nmems = 0;
	if (in + out > 0 && !task) {
		s->dims |= SS_ADV_HOSTMEM;
		for (int m = 0; m < SS_MEM_COUNT; m++)
			s->mems[s->nmems++] = (enum ss_hostmem)m;
	} else {
		s->mems[s->nmems++] = cur->hostmem;
	}
	if (cur->defstream != SS_DS_NONE)
		s->dims |= SS_ADV_FLAGS;
	if (want != 0)
		s->dims &= want;
	if (!(s->dims & SS_ADV_ORDER)) {
		s->orders[0] = cur->order;
		s->norders = 1;
	}
	if (!(s->dims & SS_ADV_HOSTMEM)) {
		s->mems[0] = cur->hostmem;
		s->nmems = 1;
	}
}

/* advise_memsync models e with every sync order, host memory and stream flag the search varies; returns the
 * fastest of them (e itself when none is faster). */
static struct ss_experiment advise_memsync(struct advise *s, const struct ss_experiment *e)
{
	struct ss_experiment best = *e, x = *e;
	uint64_t bt = advise_eval(s, e);

	for (int y = 0; y < SS_SYNC_COUNT; y++) {
		if (!(s->dims & SS_ADV_SYNC) && y != (int)e->sync)
			continue;
		for (int m = 0; m < s->nmems; m++)
			for (int f = 0; f < 2; f++) {
				uint64_t t;

				if (!(s->dims & SS_ADV_FLAGS) && f != (int)e->nonblocking)
					continue;
				x.sync = (enum ss_sync)y;
				x.hostmem = s->mems[m];
				x.nonblocking = f != 0;
				t = advise_eval(s, &x);
				if (t > 0 && (bt == 0 || t < bt)) {
					bt = t;
					best = x;
				}
			}
	}
	return best;
}

/* advise_line models base with streams 1, 2, 4 ... 128 (and k chunks per stream), each point with the base's
 * queues, with one per stream and with one; it stops out of chunks, where the line is twice the fastest and still
 * rising, or after two points that each gain less than 0.5% on the line's best. Returns the line's best, 0 when none.
 */
static uint64_t advise_line(struct advise *s, const struct ss_experiment *base, int k)
{
	uint64_t prev = 0, best = 0;
	int flat = 0;

	for (int n = 1; n <= SS_MAX_STREAMS; n *= 2) {
		struct ss_experiment x = advise_with(base, n, k);
		uint64_t t, tq;

		if (x.chunks > ADVISE_MAX_CHUNKS || (uint64_t)x.chunks > x.elements)
			break;
		t = advise_eval(s, &x);
		/* one queue per stream too, where the base's queues are fewer than the streams */
		x.connections = n < SS_MAX_CONNECTIONS ? n : SS_MAX_CONNECTIONS;
		tq = n > base->connections ? advise_eval(s, &x) : 0;
		if (tq > 0 && (t == 0 || tq < t))
			t = tq;
		/* and one queue: no false dependency where one stream's work waits for another's, but no queue costs */
		x.connections = 1;
		tq = n > 1 && base->connections > 1 ? advise_eval(s, &x) : 0;
		if (tq > 0 && (t == 0 || tq < t))
			t = tq;
		if (t == 0)
			continue;
		if (s->fastest != SIZE_MAX && t > 2 * advise_fastest_ns(s) && prev > 0 && t > prev)
			break;
		flat = best > 0 && (double)t > 0.995 * (double)best ? flat + 1 : 0;
		if (best == 0 || t < best)
			best = t;
		prev = t;
		if (flat >= 2)
			break;
	}
	return best;
}

/* advise_coarse models the grid of base: every order, chunks per stream 1, 2, 4, 8, 16 (stopping when a doubling
 * gains less than 0.5%), and the stream lines. */
static void advise_coarse(struct advise *s, const struct ss_experiment *base)
{
	static const int ks[] = {1, 2, 4, 8, 16};
	size_t nk = (s->dims & SS_ADV_CHUNKS) ? sizeof ks / sizeof ks[0] : 1;

	for (int o = 0; o < s->norders; o++) {
		struct ss_experiment x = *base;
		uint64_t prev = 0;

		x.order = s->orders[o];
		for (size_t k = 0; k < nk; k++) {
			int per = (s->dims & SS_ADV_CHUNKS) ? ks[k] : 0;
			uint64_t t;

			if (s->dims & SS_ADV_STREAMS) {
				t = advise_line(s, &x, per);
			} else {
				struct ss_experiment y = advise_with(&x, x.streams, per);
				uint64_t tq;

				if (y.chunks > ADVISE_MAX_CHUNKS)
					break;
				t = advise_eval(s, &y);
				y.connections = x.streams < SS_MAX_CONNECTIONS ? x.streams : SS_MAX_CONNECTIONS;
				tq = advise_eval(s, &y);
				if (tq > 0 && (t == 0 || tq < t))
					t = tq;
			}
			if (t > 0 && prev > 0 && (double)t > 0.995 * (double)prev)
				break;
			if (t > 0 && (prev == 0 || t < prev))
				prev = t;
		}
	}
}

/* The steps the refinement tries around a stream or chunk count. */
static const int advise_steps[] = {1, 2, 4, 8, 16, 32};

/* advise_refine models the neighbours of the fastest configuration, one field at a time. Returns whether it found a
 * faster one. */
static bool advise_refine(struct advise *s)
{
	static const int queues[] = {1, 2, 4, 8, 16, 32};
	struct ss_experiment f = advise_fastest_exp(s), x;
	uint64_t before = advise_fastest_ns(s);
	int fc = f.chunks > 0 ? f.chunks : f.streams;

	for (size_t d = 0; d < sizeof advise_steps / sizeof advise_steps[0]; d++)
		for (int sign = -1; sign <= 1; sign += 2) {
			int n = f.streams + sign * advise_steps[d], c = fc + sign * advise_steps[d];

			if ((s->dims & SS_ADV_STREAMS) && n >= 1 && n <= SS_MAX_STREAMS) {
				x = f;
				x.streams = n;
				/* the same chunks per stream where the fastest has several, else one each */
				x.chunks = f.chunks > 0 ? (int)((int64_t)f.chunks * n / f.streams) : 0;
				advise_eval(s, &x);
				if (f.connections >= f.streams || f.connections >= SS_MAX_CONNECTIONS) {
					x.connections = n < SS_MAX_CONNECTIONS ? n : SS_MAX_CONNECTIONS;
					advise_eval(s, &x);
				}
			}
			if ((s->dims & SS_ADV_CHUNKS) && c >= f.streams && c <= ADVISE_MAX_CHUNKS) {
				x = f;
				x.chunks = c;
				advise_eval(s, &x);
			}
		}
	for (size_t q = 0; q < sizeof queues / sizeof queues[0]; q++) {
		x = f;
		x.connections = queues[q];
		advise_eval(s, &x);
	}
	for (int o = 0; o < s->norders; o++) {
		x = f;
		x.order = s->orders[o];
		advise_eval(s, &x);
	}
	advise_memsync(s, &f);
	return advise_fastest_ns(s) < before;
}

/* advise_simpler models the configurations simpler than the fastest one with its other fields: fewer streams, each
 * with one, two or four chunks or the fastest's chunk count, where the recommendation is looked for. */
static void advise_simpler(struct advise *s)
{
	struct ss_experiment f = advise_fastest_exp(s), x;
	int fc = f.chunks > 0 ? f.chunks : f.streams;

	for (int n = 1; n <= f.streams; n += n < 8 ? 1 : n / 4) {
		static const int ks[] = {1, 2, 4};

		if (!(s->dims & SS_ADV_STREAMS) && n != f.streams)
			continue;
		for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
			x = advise_with(&f, n, ks[k]);
			if (!(s->dims & SS_ADV_CHUNKS) && k > 0)
				break;
			if (!(s->dims & SS_ADV_CHUNKS))
				x.chunks = f.chunks;
			if (x.chunks <= fc)
				advise_eval(s, &x);
		}
		if ((s->dims & SS_ADV_CHUNKS) && fc >= n) {
			x = f;
			x.streams = n;
			x.chunks = fc;
			advise_eval(s, &x);
		}
	}
}

/* advise_changed counts the fields in which e differs from cur. */
static int advise_changed(const struct ss_experiment *e, const struct ss_experiment *cur)
{
	int chunks = e->chunks > 0 ? e->chunks : e->streams, cchunks = cur->chunks > 0 ? cur->chunks : cur->streams;

	return (e->streams != cur->streams) + (chunks != cchunks) + (e->order != cur->order) +
	       (e->connections != cur->connections) + (e->sync != cur->sync) + (e->hostmem != cur->hostmem) +
	       (e->nonblocking != cur->nonblocking);
}

uint64_t advise_cost(const struct ss_advise_cand *c, const struct ss_experiment *cur)
{
	uint64_t launches = (uint64_t)c->nchunks, streams = (uint64_t)c->e.streams;

	return (launches + streams) << 40 | launches << 20 | (uint64_t)advise_changed(&c->e, cur) << 8 |
	       (uint64_t)c->e.connections;
}

/* advise_cmp_time orders candidates by predicted time, then by simplicity (the current experiment in advise_sort_cur).
 */
static const struct ss_experiment *advise_sort_cur;
static int advise_cmp_time(const void *a, const void *b)
{
	const struct ss_advise_cand *x = a, *y = b;
	uint64_t cx, cy;

	if (x->predicted_ns != y->predicted_ns)
		return x->predicted_ns < y->predicted_ns ? -1 : 1;
	cx = advise_cost(x, advise_sort_cur);
	cy = advise_cost(y, advise_sort_cur);
	return cx < cy ? -1 : cx > cy;
}

/* advise_engine_name names an engine in the explanation. */
static const char *advise_engine_name(int e)
{
	return e == SS_ENG_H2D ? "H2D-copy" : e == SS_ENG_D2H ? "D2H-copy" : "compute";
}

/* A sink that appends to a timeline. */
static void advise_tl_record(void *ctx, const struct ss_record *r, const char *name)
{
	struct ss_timeline *tl = ctx;
	struct ss_record *added = timeline_add(tl, r);

	added->name = timeline_intern(tl, name);
}

/* advise_bound finds the busiest engine of e's modelled timeline: a->bound_engine and a->bound_util. */
static void advise_bound(const struct ss_backend *b, const struct ss_experiment *e, struct ss_advice *a)
{
	struct ss_sink sink;
	struct ss_timeline tl;
	struct ss_oplist ops;
	struct ss_run_result res;
	struct ss_analysis an;
	char *cause = NULL;

	a->bound_engine = -1;
	a->bound_util = 0;
	timeline_init(&tl);
	memset(&sink, 0, sizeof sink);
	sink.ctx = &tl;
	sink.record = advise_tl_record;
	planner_build(e, &ops);
	if (b->run(e, &ops, &sink, &res, &cause) == 0) {
		timeline_sort(&tl);
		analysis_timeline(&tl, &an);
		for (int g = 0; g < SS_ENG_COUNT; g++)
			if (an.eng[g].count > 0 && (a->bound_engine < 0 || an.eng[g].util > a->bound_util)) {
				a->bound_engine = g;
				a->bound_util = an.eng[g].util;
			}
	}
	free(cause);
	planner_free(&ops);
	timeline_free(&tl);
}

/* advise_ratio writes how much fewer of something best has than fastest: "half the", "a quarter of the", "1/3 of
 * the" (buf "" when not fewer). */
static void advise_ratio(int fast, int best, const char *what, char *buf, size_t len)
{
	buf[0] = '\0';
	if (best <= 0 || fast <= best)
		return;
	if (fast == 2 * best)
		snprintf(buf, len, "half the %s", what);
	else if (fast == 4 * best)
		snprintf(buf, len, "a quarter of the %s", what);
	else if (fast % best == 0)
		snprintf(buf, len, "1/%d of the %s", fast / best, what);
	else
		snprintf(buf, len, "%d %s instead of %d", best, what, fast);
}

/* Chunks per stream from which the model is known to be fast on the H200: 2-5 streams of 7-16 chunks each measured
 * 5-35% over it, 5 streams of 4 chunks within 2% (test_replay_advise_model on tests/data/h200/advise-run3 and
 * advise; test_replay_chunk_shape). */
#define ADVISE_UNSURE_CHUNKS 6

/* advise_census fills c with where e's kernel launches start their data (planner_line_census). */
static void advise_census(const struct ss_experiment *e, struct ss_line_census *c)
{
	struct ss_oplist ops;

	planner_build(e, &ops);
	planner_line_census(e, &ops, c);
	planner_free(&ops);
}

/* advise_explain writes a->explanation: what bounds the best configuration, and why it was chosen; where the current
 * configuration's chunks start off a line and the best's do not, that; and where the best has ADVISE_UNSURE_CHUNKS or
 * more chunks a stream, that the model is least sure there. */
static void advise_explain(struct ss_advice *a)
{
	char bound[96], what[160], fast[160], less[96];
	double within = a->fastest.predicted_ns > 0
	                    ? 100.0 * ((double)a->best.predicted_ns / (double)a->fastest.predicted_ns - 1)
	                    : 0;

	if (a->bound_engine >= 0 && a->bound_util >= 0.75)
		snprintf(bound, sizeof bound, "%s-bound (%s busy %.0f%% of the makespan)",
		         advise_engine_name(a->bound_engine), advise_engine_name(a->bound_engine), 100 * a->bound_util);
	else if (a->bound_engine >= 0)
		snprintf(bound, sizeof bound, "no engine saturated (the busiest, %s, %.0f%% of the makespan)",
		         advise_engine_name(a->bound_engine), 100 * a->bound_util);
	else
		snprintf(bound, sizeof bound, "modelled");
	if (a->knee_streams > 1 && a->knee_streams <= a->best.e.streams && (a->varied & SS_ADV_STREAMS)) {
		size_t k = strlen(bound);

		snprintf(bound + k, sizeof bound - k, " from %d streams", a->knee_streams);
	}
	experiment_changes(&a->current.e, &a->best.e, NULL, what, sizeof what);
	experiment_changes(&a->current.e, &a->fastest.e, NULL, fast, sizeof fast);
	if (a->best_is_current && a->current.predicted_ns == a->fastest.predicted_ns) {
		snprintf(a->explanation, sizeof a->explanation,
		         "%s: the current configuration is the fastest of %zu modelled", bound, a->searched);
	} else if (a->best_is_current) {
		snprintf(a->explanation, sizeof a->explanation,
		         "%s: the current configuration is within %.1f%% of the fastest found (%s), so it stays", bound,
		         within, fast[0] != '\0' ? fast : "the same");
	} else if (a->best.predicted_ns == a->fastest.predicted_ns) {
		snprintf(a->explanation, sizeof a->explanation, "%s: %s is the fastest found, %.1f%% faster than now",
		         bound, what, a->gain_pct);
	} else {
		advise_ratio(a->fastest.nchunks, a->best.nchunks, "launches", less, sizeof less);
		if (less[0] == '\0')
			advise_ratio(a->fastest.e.streams, a->best.e.streams, "streams", less, sizeof less);
		snprintf(a->explanation, sizeof a->explanation,
		         "%s: %s is within %.1f%% of the fastest found (%s)%s%s, %.1f%% faster than now", bound, what,
		         within, fast, less[0] != '\0' ? " with " : "", less, a->gain_pct);
	}
	if (!a->best_is_current) {
		struct ss_line_census now, adv;
		size_t k = strlen(a->explanation);

		advise_census(&a->current.e, &now);
		advise_census(&a->best.e, &adv);
		if (now.off > 0 && adv.off == 0)
			snprintf(
			    a->explanation + k, sizeof a->explanation - k,
			    "; now %d of %d kernel launches start their data off a 128-byte line, none in the advice",
			    now.off, now.kernels);
	}
	if (!a->best_is_current && a->best.nchunks >= ADVISE_UNSURE_CHUNKS * a->best.e.streams) {
		size_t k = strlen(a->explanation);

		snprintf(
		    a->explanation + k, sizeof a->explanation - k,
		    "; the model is least sure of %d chunks a stream (the H200 measured 5-35%% over it for 2-5 streams "
		    "of 7-16 chunks each): --verify measures it",
		    a->best.nchunks / a->best.e.streams);
	}
}

/* advise_distance: how unlike two configurations are: their stream counts and chunks per stream apart on log2
 * scales (the model's errors on the H200 follow these: tests/data/h200/advise), then a quarter for each other field
 * that differs. */
static double advise_distance(const struct ss_advise_cand *x, const struct ss_advise_cand *y)
{
	double cx = (double)(x->nchunks > 0 ? x->nchunks : 1) / x->e.streams,
	       cy = (double)(y->nchunks > 0 ? y->nchunks : 1) / y->e.streams;
	double d = fabs(log2((double)x->e.streams / y->e.streams)) + fabs(log2(cx / cy));

	d += 0.25 * ((x->e.order != y->e.order) + (x->e.connections != y->e.connections) + (x->e.sync != y->e.sync) +
	             (x->e.hostmem != y->e.hostmem) + (x->e.nonblocking != y->e.nonblocking));
	return d;
}

/* advise_spread fills a->spread: among the configurations within SS_ADVISE_PLATEAU of the fastest, in turn the one
 * farthest (advise_distance) from the recommendation and those already chosen, until none differs. */
static void advise_spread(const struct advise *s, struct ss_advice *a)
{
	uint64_t within = (uint64_t)((double)a->fastest.predicted_ns * (1 + SS_ADVISE_PLATEAU));

	a->nspread = 0;
	while (a->nspread < SS_ADVISE_VERIFY) {
		size_t far = SIZE_MAX;
		double fard = 0;

		for (size_t i = 0; i < s->n; i++) {
			const struct ss_advise_cand *c = &s->c[i];
			double d;

			if (c->predicted_ns == 0 || c->predicted_ns > within)
				continue;
			d = advise_distance(c, &a->best);
			for (size_t j = 0; j < a->nspread; j++)
				d = fmin(d, advise_distance(c, &a->spread[j]));
			if (d > fard) {
				fard = d;
				far = i;
			}
		}
		if (far == SIZE_MAX)
			return;
		a->spread[a->nspread++] = s->c[far];
	}
}

int advise_search(const struct ss_backend *b, const struct ss_experiment *cur, const struct ss_advise_opts *o,
                  struct ss_advice *a, char **cause)
{
	struct advise s;
	struct ss_experiment base, ym;
	struct ss_advise_cand *sorted;
	double tol = o != NULL && o->tolerance >= 0 ? o->tolerance : SS_ADVISE_TOLERANCE;
	size_t ci;
	uint64_t limit;

	memset(a, 0, sizeof *a);
	if (!b->modelled) {
		*cause = xasprintf("advise searches on a modelled backend, not on '%s'", b->name);
		return -1;
	}
	if (experiment_validate(cur, cause) != 0)
		return -1;
	memset(&s, 0, sizeof s);
	s.b = b;
	s.cur = cur;
	s.fastest = SIZE_MAX;
	s.nslot = 1024;
	s.slot = xcalloc(s.nslot, sizeof *s.slot);
	advise_dims(&s, cur, o != NULL ? o->dims : 0);
	/* the current configuration first: the reference and a candidate */
	base = *cur;
	if (advise_eval(&s, &base) == 0) {
		struct ss_experiment e = base;
		int nchunks;

		advise_canon(&s, &e);
		runner_makespan(b, &e, &nchunks, cause);
		if (*cause == NULL)
			*cause = xasprintf("advise: the model could not run the current experiment");
		free(s.c);
		free(s.slot);
		return -1;
	}
	advise_canon(&s, &base);
	ci = advise_find(&s, advise_key(&base));
	/* sync, memory and flags matter whatever the streams: the grid is walked with the best of them at the current
	 * configuration (the refinement tries them all again at the fastest) */
	ym = advise_memsync(&s, &base);
	advise_coarse(&s, &ym);
	for (int round = 0; round < 4 && advise_refine(&s); round++)
		;
	advise_simpler(&s);
	/* the recommendation: the simplest within the tolerance of the fastest and no slower than now */
	a->current = s.c[ci];
	a->fastest = s.c[s.fastest];
	a->best = a->current;
	limit = (uint64_t)((double)a->fastest.predicted_ns * (1 + tol));
	if (limit > a->current.predicted_ns)
		limit = a->current.predicted_ns;
	for (size_t i = 0; i < s.n; i++) {
		const struct ss_advise_cand *c = &s.c[i];

		if (c->predicted_ns == 0 || c->predicted_ns > limit)
			continue;
		if (a->best.predicted_ns > limit || advise_cost(c, cur) < advise_cost(&a->best, cur))
			a->best = *c;
	}
	a->best_is_current = advise_key(&a->best.e) == advise_key(&a->current.e);
	a->gain_ns = (int64_t)a->current.predicted_ns - (int64_t)a->best.predicted_ns;
	a->gain_pct = 100.0 * (double)a->gain_ns / (double)a->current.predicted_ns;
	a->varied = s.dims;
	a->searched = s.n;
	a->failed = s.failed;
	a->tolerance = tol;
	/* the knee: the fewest streams whose fastest configuration is within the tolerance */
	if (s.dims & SS_ADV_STREAMS) {
		uint64_t within = (uint64_t)((double)a->fastest.predicted_ns * (1 + tol));

		a->knee_streams = SS_MAX_STREAMS;
		for (size_t i = 0; i < s.n; i++)
			if (s.c[i].predicted_ns > 0 && s.c[i].predicted_ns <= within &&
			    s.c[i].e.streams < a->knee_streams)
				a->knee_streams = s.c[i].e.streams;
	}
	/* the top list: distinct in effect, fastest first */
	sorted = xmalloc(s.n * sizeof *sorted);
	memcpy(sorted, s.c, s.n * sizeof *sorted);
	advise_sort_cur = cur;
	qsort(sorted, s.n, sizeof *sorted, advise_cmp_time);
	/* configurations the model times the same are one in effect: the simplest of them stands for them */
	for (size_t i = 0; i < s.n && a->ntop < SS_ADVISE_TOP; i++)
		if (sorted[i].predicted_ns > 0 &&
		    (a->ntop == 0 || sorted[i].predicted_ns != a->top[a->ntop - 1].predicted_ns))
			a->top[a->ntop++] = sorted[i];
	free(sorted);
	advise_spread(&s, a);
	if (a->ntop > 0)
		a->fastest = a->top[0];
	{
		char dev[96] = "";
		char *why = NULL;

		if (b->available != NULL && b->available(dev, sizeof dev, &why) == 0)
			snprintf(a->device, sizeof a->device, "%s", dev);
		free(why);
	}
	advise_bound(b, &a->best.e, a);
	advise_explain(a);
	free(s.c);
	free(s.slot);
	return 0;
}

/* advise_plan_add appends c to v unless it is there (the same key). */
static void advise_plan_add(struct ss_advise_verify *v, size_t max, const struct ss_advise_cand *c)
{
	for (size_t i = 0; i < v->n; i++)
		if (advise_key(&v->m[i].c.e) == advise_key(&c->e))
			return;
	if (v->n < max) {
		memset(&v->m[v->n], 0, sizeof v->m[v->n]);
		v->m[v->n++].c = *c;
	}
}

void advise_verify_plan(const struct ss_advice *a, size_t max, struct ss_advise_verify *v)
{
	memset(v, 0, sizeof *v);
	if (max > SS_ADVISE_VERIFY)
		max = SS_ADVISE_VERIFY;
	if (max < 2)
		max = 2;
	v->best = SIZE_MAX;
	advise_plan_add(v, max - 1, &a->best);
	for (size_t i = 0; i < a->nspread; i++)
		advise_plan_add(v, max - 1, &a->spread[i]);
	advise_plan_add(v, max - 1, &a->fastest);
	for (size_t i = 0; i < a->ntop; i++)
		advise_plan_add(v, max - 1, &a->top[i]);
	advise_plan_add(v, max, &a->current);
	for (size_t i = 0; i < v->n; i++) {
		v->m[i].current = advise_key(&v->m[i].c.e) == advise_key(&a->current.e);
		v->m[i].recommended = advise_key(&v->m[i].c.e) == advise_key(&a->best.e);
	}
}

int advise_verify(const struct ss_backend *b, struct ss_advise_verify *v,
                  void (*progress)(const struct ss_advise_verify *, size_t), char **cause)
{
	int first = 0;

	v->best = SIZE_MAX;
	for (size_t i = 0; i < v->n; i++) {
		struct ss_advise_measure *m = &v->m[i];
		struct ss_timeline tl;
		struct ss_run_result res;
		char *why = NULL;
		int rc;

		if (progress != NULL)
			progress(v, i);
		timeline_init(&tl);
		memset(&res, 0, sizeof res);
		rc = runner_run(b, &m->c.e, &tl, &res, &why);
		timeline_free(&tl);
		if (rc != 0) {
			snprintf(m->error, sizeof m->error, "%s", why != NULL ? why : "the run failed");
			if (first == 0) {
				first = rc;
				*cause = why;
				why = NULL;
			}
			free(why);
			continue;
		}
		m->ok = true;
		m->measured_ns = res.have_untraced && res.untraced_ns > 0 ? res.untraced_ns : res.traced_ns;
		snprintf(v->device, sizeof v->device, "%s", res.device);
		if (v->best == SIZE_MAX || m->measured_ns < v->m[v->best].measured_ns)
			v->best = i;
	}
	return first;
}
