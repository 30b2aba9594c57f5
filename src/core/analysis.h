/* analysis.h: what a timeline says about overlap: makespan, engine busy time, overlap, ideal pipeline bound. */
#ifndef SS_CORE_ANALYSIS_H
#define SS_CORE_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/timeline.h"

/* The three engines of the overlap story. */
enum ss_engine { SS_ENG_H2D = 0, SS_ENG_COMPUTE, SS_ENG_D2H, SS_ENG_COUNT };

/* Busy time of one engine: the union of its intervals. */
struct ss_engine_stats {
	uint64_t busy_ns; /* length of the union of intervals */
	double util;      /* busy / makespan */
	uint64_t count;   /* intervals */
	uint64_t bytes;   /* bytes moved (copy engines) */
	uint64_t sum_ns;  /* sum of interval lengths (>= busy when intervals overlap) */
};

/* The analysis of one timeline; optional values carry validity flags (views print "-" when not valid). */
struct ss_analysis {
	uint64_t t0, t1,
	    makespan_ns;     /* span of the work: GPU records and pageable copies' calls (timeline_work_span) */
	uint64_t staging_ns; /* of makespan_ns: pageable copies' host staging outside the GPU records' span */
	struct ss_engine_stats eng[SS_ENG_COUNT];
	uint64_t overlap_ns; /* time with two or more engines busy */
	double overlap;      /* overlap_ns / makespan */
	uint64_t counts[SS_KIND_COUNT];
	/* comparison with the 1-stream run (analysis_compare) */
	bool have_speedup;
	double speedup; /* the same work on one stream, serially / this makespan */
	double work;    /* how many times the one-stream run's work this run does (hyperq: streams) */
	bool have_bound;
	uint64_t bound_ns;         /* ideal pipeline bound T(n) */
	double gap;                /* makespan / bound - 1 */
	uint64_t h_ns, k_ns, d_ns; /* one-stream phase totals the bound used */
	int n;                     /* chunks the bound used */
	bool phases_short;         /* no bound: h + k + d fill under ANALYSIS_PHASES_MIN of the 1-stream run */
	double phase_share;        /* (h + k + d) / the 1-stream run's makespan (times work) */
	int devices;               /* the GPUs the run's GPU records are on (analysis_timeline; 1 when none) */
	/* observer effect (analysis_observer) */
	bool have_events;
	uint64_t events_ns;            /* cudaEvent makespan of the captured run (the model: as its events time it) */
	double cupti_vs_events;        /* makespan_ns / events_ns - 1 */
	bool have_events_median;       /* cupti_vs_events_median is known (a GPU run) */
	double cupti_vs_events_median; /* the same ratio's median over every traced repeat */
	bool have_overhead;
	uint64_t traced_ns, untraced_ns;           /* cudaEvent makespans, traced and untraced twin (medians) */
	bool untraced_detached;                    /* the untraced twins ran without CUPTI in the process */
	uint64_t untraced_min_ns, untraced_max_ns; /* the fastest and slowest untraced repeat */
	double overhead;                           /* traced / untraced - 1 */
	bool have_spread;                          /* the quartiles below are known (>= 4 repeats) */
	double overhead_q1, overhead_q3;           /* quartiles of the per-repeat pairs' traced / untraced - 1 */
	bool used_untraced; /* overhead > 1%, or span_short: speedups and bounds use untraced makespans */
	bool span_short;    /* the run's CUPTI span misses work CUPTI does not record (ss_run_result) */
	uint64_t used_ns;   /* the makespan speedups and bounds use */
};

struct ss_run_result;
/* analysis_observer fills the observer-effect fields of a from a run's result (res may be NULL: no event
 * timings, used_ns = makespan_ns). Call after analysis_timeline and before analysis_compare. */
void analysis_observer(struct ss_analysis *a, const struct ss_run_result *res);

/* analysis_timeline computes makespan, busy, overlap and counts of t. */
void analysis_timeline(const struct ss_timeline *t, struct ss_analysis *a);
/* analysis_engine_of maps a record kind to its engine, -1 for host-side kinds. */
int analysis_engine_of(int kind);
/* analysis_bound is the ideal pipeline time for n equal chunks: (h+k+d)/n + (n-1)/n * max(h,k,d). */
uint64_t analysis_bound(uint64_t h, uint64_t k, uint64_t d, int n);
/* The least share of the 1-stream run its copies and kernels must fill for the pipeline bound to describe it:
 * below it the run is mostly something else (document 004's host work: 2.6%; every copy/compute preset: 94-100%). */
#define ANALYSIS_PHASES_MIN 0.25

/* analysis_compare fills speedup, bound and gap of a against the one-stream analysis one. makespan and
 * one_makespan are the makespans to compare (CUPTI's, or the untraced ones when tracing overhead > 1%). work is how
 * many times one's work a does (planner_work_ratio): the one-stream times are scaled by it, so that speedup and
 * bound compare the same work (issued serially on one stream: work x one's time). No bound when one's span is short
 * (its h and d are not on its timeline), nor when work is not 1 (the pipeline bound is over chunks of one data
 * set, and such streams do work of their own), nor when h + k + d fill under ANALYSIS_PHASES_MIN of one_makespan
 * (phases_short: a pipeline of copies and kernels is not what takes that run's time). */
void analysis_compare(struct ss_analysis *a, const struct ss_analysis *one, int n, uint64_t makespan,
                      uint64_t one_makespan, double work);
/* analysis_union_ns: length of the union of [start,end) intervals of records matching kind_mask on stream
 * (stream = INT32_MIN for all streams). */
uint64_t analysis_union_ns(const struct ss_timeline *t, unsigned kind_mask, int32_t stream);

/* analysis_kernel_concurrency: the largest number of kernels of distinct experiment streams running at one
 * instant (t sorted by start). 1 means the streams' kernels never overlapped. */
int analysis_kernel_concurrency(const struct ss_timeline *t);
/* analysis_across_legacy counts GPU intervals of experiment streams that overlap in time a GPU interval of the
 * legacy default stream; *nlegacy gets the number of such legacy intervals. 0 means the legacy work serialised. */
size_t analysis_across_legacy(const struct ss_timeline *t, size_t *nlegacy);
/* analysis_peak_rate finds the fastest interval of one kind (bytes/ns = GB/s) among those moving at least
 * min_bytes; false when none. */
bool analysis_peak_rate(const struct ss_timeline *t, int kind, uint64_t min_bytes, uint64_t *bytes, uint64_t *ns);

#endif
