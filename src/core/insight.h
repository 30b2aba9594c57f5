/* insight.h: what a timeline's numbers say is wrong with its overlap, and what to change: rules over the records
 * and their analysis, each insight with a stable rule id, a severity, its evidence and a fix; pure. */
#ifndef SS_CORE_INSIGHT_H
#define SS_CORE_INSIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/timeline.h"

/* How much an insight matters. Order is stable: problem first. */
enum ss_severity { SS_SEV_PROBLEM = 0, SS_SEV_HINT, SS_SEV_INFO };

/* Record indices an insight's evidence names at most (the first ones found, in timeline order). */
#define SS_INSIGHT_MAX_RECS 8
/* Insights one analysis holds at most: one per rule. */
#define SS_INSIGHT_MAX 24

/* One insight: a rule that fired, why (with the numbers) and what to do. */
struct ss_insight {
	const char *rule; /* stable id ("pageable-copy"), static */
	enum ss_severity severity;
	char summary[256];               /* one line */
	char evidence[512];              /* the numbers it rests on, in words */
	const char *fix;                 /* one or two sentences, static */
	size_t rec[SS_INSIGHT_MAX_RECS]; /* indices into the timeline's records the evidence rests on */
	size_t nrec;
	uint64_t t0, t1; /* the time range of the evidence (t0 == t1: none) */
	bool have_gain;
	uint64_t gain_ns;   /* the estimated time saved, when have_gain */
	char gain_how[256]; /* how gain_ns was estimated, when have_gain */
};

/* The insights of one timeline, problems first, then hints, then information; in rule order within each. */
struct ss_insights {
	struct ss_insight item[SS_INSIGHT_MAX];
	size_t n;
};

/* insight_analyze runs every rule over t (sorted by timeline_sort) and its analysis a (analysis_timeline of t) and
 * fills out. Never fails; an empty timeline gives no insight. */
void insight_analyze(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out);
/* insight_analyze_run is insight_analyze of a run of experiment e (NULL: of no experiment known, insight_analyze):
 * the rules that read the run's op list as well (misaligned-chunks: where each kernel's data start) run too. */
void insight_analyze_run(const struct ss_timeline *t, const struct ss_analysis *a, const struct ss_experiment *e,
                         struct ss_insights *out);
/* insight_severity_name is "problem", "hint" or "info". */
const char *insight_severity_name(enum ss_severity s);
/* insight_find returns the insight of rule in in, NULL when that rule did not fire. */
const struct ss_insight *insight_find(const struct ss_insights *in, const char *rule);

#endif
