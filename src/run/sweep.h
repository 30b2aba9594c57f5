/* sweep.h: time vs stream count for one or both issue orders, run point by point (the CLI blocks, the TUI
 * runs each point in the background). */
#ifndef SS_RUN_SWEEP_H
#define SS_RUN_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/analysis.h"
#include "core/backend.h"
#include "core/experiment.h"
#include "core/timeline.h"

#define SS_SWEEP_MAX_COUNTS 32

/* One point of a sweep: an experiment run and what it gave. */
struct ss_sweep_point {
	int streams;
	enum ss_order order;
	bool done;   /* ran (successfully or not) */
	bool failed; /* ran and failed: error holds why */
	char error[160];
	struct ss_analysis a; /* analysis with observer fields, speedup and bound against the 1-stream point */
	uint64_t dropped;
	bool verified;
	size_t counts_expected[SS_KIND_COUNT];
};

/* A sweep: points are order-major (all counts of the first order, then the second). The 1-stream point of each
 * order is always present and always runs first: it is the reference for speedup and the bound. */
struct ss_sweep {
	struct ss_experiment base;
	int counts[SS_SWEEP_MAX_COUNTS];
	int ncounts;
	enum ss_order orders[2];
	int norders;
	struct ss_sweep_point *pt;
	size_t n;
	size_t next; /* next point to hand out */
	bool modelled;
	char device[96];
	char note[256]; /* why sweep_init_default left an order out; "" when it left none out */
};

/* sweep_parse_counts parses "1,2,4,8" (each 1..128, ascending, at most SS_SWEEP_MAX_COUNTS); -1 + cause. */
int sweep_parse_counts(const char *s, int *counts, int *n, char **cause);
/* sweep_init prepares a sweep of base over counts (1 is added when missing) and orders. */
void sweep_init(struct ss_sweep *s, const struct ss_experiment *base, const int *counts, int ncounts,
                const enum ss_order *orders, int norders);
/* sweep_default_counts writes into counts (SS_SWEEP_MAX_COUNTS) the stream counts a sweep of e runs when it is given
 * none: 1, 2, 4 .. as far as each of e's devices can have that many streams (SS_MAX_STREAMS in all: 1..128 on one
 * device, 1..64 on two). Returns how many. */
int sweep_default_counts(const struct ss_experiment *e, int *counts);
/* sweep_both_orders: the two issue orders a sweep of both compares for e: document 003's best and weaker where e is
 * in one of those, a step program's explicit interleave against depth-first, else depth- and breadth-first. */
void sweep_both_orders(const struct ss_experiment *e, enum ss_order orders[2]);
/* sweep_init_default prepares the sweep nobody chose the counts or orders of (the TUI's): base over
 * sweep_default_counts, in those of orders[0..norders) base can run. An order its 1-stream point does not validate
 * in, while it does in another, is left out (--devices runs depth-first only), and s->note says which and why in one
 * line; when it validates in none, every order stays and the points fail with the reason. */
void sweep_init_default(struct ss_sweep *s, const struct ss_experiment *base, const enum ss_order *orders, int norders);
/* sweep_next hands out the next point's experiment and index; false when all were handed out. */
bool sweep_next(struct ss_sweep *s, struct ss_experiment *e, size_t *index);
/* sweep_done records a finished point's timeline and result (res NULL with error for a failure). */
void sweep_done(struct ss_sweep *s, size_t index, const struct ss_timeline *tl, const struct ss_run_result *res,
                const char *error);
/* sweep_find returns the point for (streams, order) or NULL. */
const struct ss_sweep_point *sweep_find(const struct ss_sweep *s, int streams, enum ss_order order);
/* sweep_point_experiment is the experiment of point index (the base with its stream count and order). */
void sweep_point_experiment(const struct ss_sweep *s, size_t index, struct ss_experiment *e);
/* sweep_best is the index of the fastest point measured (its makespan as speedups use it), SIZE_MAX when none. */
size_t sweep_best(const struct ss_sweep *s);
/* sweep_progress: points done, out of s->n. */
size_t sweep_progress(const struct ss_sweep *s);
void sweep_free(struct ss_sweep *s);
/* sweep_run runs every point with b through the runner (blocking); progress (may be NULL) is told each point.
 * Returns 0 when every point ran; the exit code (2/3) of the first failure otherwise, with *cause. */
int sweep_run(struct ss_sweep *s, const struct ss_backend *b, void (*progress)(const struct ss_sweep *, size_t),
              char **cause);

#endif
