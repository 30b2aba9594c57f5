/* advise.h: the advisor: searches the configurations of an experiment that its program could change (stream count,
 * chunks, issue order, hardware queues, sync order, host memory, stream flags) on the model, keeping its sizes and
 * kernel work, and recommends the simplest one within a tolerance of the fastest found, with a one-line reason;
 * --verify measures the top candidates on a GPU. Pure of output: it fills structs, the CLI and the TUI print them. */
#ifndef SS_RUN_ADVISE_H
#define SS_RUN_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/experiment.h"

#define SS_ADVISE_TOP 8          /* the candidates an advice lists, fastest first */
#define SS_ADVISE_TOLERANCE 0.01 /* the default: the simplest configuration within 1% of the fastest */
#define SS_ADVISE_VERIFY 6       /* the most configurations --verify measures (the current one among them) */
#define SS_ADVISE_PLATEAU                                                                                              \
	0.02 /* configurations this close to the fastest are the model's ties (its error on the                        \
	        H200 is larger: tests/data/h200/advise) */

/* What the search may change; a field is varied when its bit is set (struct ss_advice.varied). */
enum ss_advise_dim {
	SS_ADV_STREAMS = 1 << 0,
	SS_ADV_CHUNKS = 1 << 1,
	SS_ADV_ORDER = 1 << 2,
	SS_ADV_QUEUES = 1 << 3,
	SS_ADV_SYNC = 1 << 4,
	SS_ADV_HOSTMEM = 1 << 5,
	SS_ADV_FLAGS = 1 << 6, /* blocking or non-blocking streams: only where a default-stream operation is there */
};

/* One configuration the search evaluated: the experiment (the current one with the varied fields changed) and the
 * model's makespan of it. */
struct ss_advise_cand {
	struct ss_experiment e;
	uint64_t predicted_ns;
	int nchunks; /* chunks (kernel launches per kernel step) the op list has */
};

/* How to search. */
struct ss_advise_opts {
	double tolerance; /* the recommendation is the simplest configuration within this fraction of the fastest */
	unsigned dims;    /* the fields to vary (enum ss_advise_dim); 0: every field that applies */
};

/* An advice. best is never slower than current (the current configuration is a candidate), and never more than
 * tolerance slower than fastest. */
struct ss_advice {
	struct ss_advise_cand current; /* the experiment as given */
	struct ss_advise_cand fastest; /* the fastest configuration found */
	struct ss_advise_cand best;    /* the recommendation: the simplest within the tolerance of fastest, and no
	                                  slower than current (advise_cost) */
	bool best_is_current;
	int64_t gain_ns;   /* current - best (>= 0) */
	double gain_pct;   /* gain_ns / current, in percent */
	unsigned varied;   /* the fields the search varied (enum ss_advise_dim) */
	size_t searched;   /* distinct configurations modelled */
	size_t failed;     /* of them, ones the model refused (an invalid combination is not counted at all) */
	int knee_streams;  /* the fewest streams whose fastest configuration is within the tolerance of fastest; 0 when
	                      the stream count was not varied */
	int bound_engine;  /* the engine (enum ss_engine) busiest in best's modelled timeline, -1 when none */
	double bound_util; /* its busy time over best's makespan */
	struct ss_advise_cand top[SS_ADVISE_TOP]; /* the fastest distinct configurations found, fastest first */
	size_t ntop;
	/* configurations the model puts within SS_ADVISE_PLATEAU of the fastest, each the one that differs most from
	 * the recommendation and those before it (stream count and chunks per stream on log scales, then the other
	 * fields): what the model cannot tell apart, measured by advise_verify where it is least alike */
	struct ss_advise_cand spread[SS_ADVISE_VERIFY];
	size_t nspread;
	double tolerance;
	char device[96];       /* the model's device label ("MODEL (H200 profile)") */
	char explanation[640]; /* one line: why best */
};

/* advise_search searches cur's configurations on b, which must be a modelled backend (it runs in this process:
 * b->run with a sink that keeps nothing), and fills a. o may be NULL (the defaults). Deterministic: the same
 * experiment and profile give the same advice. Returns 0, or -1 with *cause when b is not modelled, cur is invalid
 * or the model fails on cur itself. */
int advise_search(const struct ss_backend *b, const struct ss_experiment *cur, const struct ss_advise_opts *o,
                  struct ss_advice *a, char **cause);

/* advise_cost is the simplicity key advise_search ranks configurations within the tolerance by, smaller is
 * simpler: chunks (launches) and streams together, then the chunks, then how many fields differ from cur, then the
 * queues. */
uint64_t advise_cost(const struct ss_advise_cand *c, const struct ss_experiment *cur);

/* One measured configuration of advise_verify. */
struct ss_advise_measure {
	struct ss_advise_cand c; /* the configuration and its prediction */
	bool current;            /* it is the current configuration */
	bool recommended;        /* it is the advice's best */
	bool ok;                 /* measured: measured_ns is valid */
	uint64_t measured_ns;    /* the untraced cudaEvent makespan (median of the repeats), else the traced one */
	char error[160];         /* why not, when !ok */
};

/* A verification: the configurations measured, in the order of the advice's list (the recommendation first, the
 * current one last), and the fastest measured. */
struct ss_advise_verify {
	struct ss_advise_measure m[SS_ADVISE_VERIFY];
	size_t n;
	size_t best; /* index of the fastest measured, SIZE_MAX when none was */
	char device[96];
};

/* advise_verify_plan fills v with the configurations to measure (the recommendation, the spread, the fastest, the
 * next distinct ones of the top list, and the current one; at most max, max <= SS_ADVISE_VERIFY), none measured
 * yet. */
void advise_verify_plan(const struct ss_advice *a, size_t max, struct ss_advise_verify *v);
/* advise_verify measures every planned configuration of v on b (a GPU backend: each run in a child through the
 * runner) and sets v->best. progress (may be NULL) is told before each run. Returns 0 when every one ran, else the
 * exit code (2, 3) of the first failure with *cause; the others are still measured. */
int advise_verify(const struct ss_backend *b, struct ss_advise_verify *v,
                  void (*progress)(const struct ss_advise_verify *, size_t), char **cause);

#endif
