/* remedy.h: an insight's fix as a change of the experiment that produced the timeline, and what that change gains
 * when the experiment is run again with it: on the model (labelled modelled) and, when asked, measured. */
#ifndef SS_RUN_REMEDY_H
#define SS_RUN_REMEDY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/experiment.h"
#include "core/insight.h"

/* The fix of one insight, applied to an experiment. */
struct ss_remedy {
	const char *rule;            /* the insight's rule */
	struct ss_experiment fixed;  /* the experiment with the fix applied */
	char change[128];            /* the fix in the command line's words ("--host-mem pinned") */
	uint64_t before_ns;          /* the experiment's makespan on the backend remedy_gain ran (0: not run) */
	uint64_t after_ns;           /* the fixed experiment's */
	bool modelled;               /* those two come from the model */
	bool measured;               /* remedy_verify measured both on a GPU: */
	uint64_t measured_before_ns; /* the experiment's untraced makespan, median of the rounds */
	uint64_t measured_after_ns;  /* the fixed experiment's */
	int rounds;                  /* how many alternating pairs that took */
};

/* Alternating pairs remedy_verify measures (before, after, before, after, ...). */
#define SS_REMEDY_ROUNDS 3

/* remedy_change fills r with the fix of insight rule for experiment e (valid): 1 when the rule's fix is a change of
 * e's options the planner can run (pageable-copy: pinned memory; legacy-stream-sync: the interfering operation on
 * the per-thread default stream; false-dependency: a hardware queue per stream, else breadth-first issue;
 * low-kernel-concurrency: a queue per stream; host-sync-order: waits in issue order; small-copies: one chunk per
 * stream; managed-migration: prefetched managed memory; misaligned-chunks: the nearest stream count, with several
 * chunks a stream the nearest chunk count, that puts every chunk on a 128-byte line, the lower on a tie), 0 when it
 * is none, or depends on a search (no-overlap, launch-bound: see remedy_gain). Pure. */
int remedy_change(const char *rule, const struct ss_experiment *e, struct ss_remedy *r);

/* remedy_gain runs e and its fix for rule on b in this process (b->run, keeping no records; b must be able to run
 * so: the model) and fills r, with fixed the faster candidate where the fix is a search (no-overlap: 4 or 8 streams;
 * launch-bound: a half, a quarter or an eighth of the streams, or a quarter, a sixteenth or one per stream of the
 * chunks; misaligned-chunks: the nearest aligned counts below and above, the nearer unless the other is 1% faster).
 * 1 when r holds a gain (after_ns may be
 * above before_ns: the fix does not help there), 0 when the rule has no experiment fix, -1 with *cause when b
 * failed. */
int remedy_gain(const struct ss_backend *b, const char *rule, const struct ss_experiment *e, struct ss_remedy *r,
                char **cause);

/* remedy_apply sets the gain of each insight of in that has an experiment fix to the model's: in->item[i].have_gain
 * with gain_ns = before - after (0 when the fix does not help), gain_how saying so (modelled, the change, both
 * makespans). Insights whose fix is no experiment change keep the timeline's estimate, and misaligned-chunks
 * without one (its chunks off a line cost nothing seen) re-runs nothing. remedies gets the remedy of
 * each item (rule NULL where none); it may be NULL. Returns 0, or -1 with *cause when the model failed. */
int remedy_apply(const struct ss_backend *b, const struct ss_experiment *e, struct ss_insights *in,
                 struct ss_remedy remedies[SS_INSIGHT_MAX], char **cause);

/* remedy_verify measures e (the experiment r was made from) and r->fixed on the GPU backend gpu, alternately
 * SS_REMEDY_ROUNDS times each (each a run in a child through the runner: its untraced cudaEvent makespan, the median
 * of its repeats), and sets r's measured fields to the medians. 0, or the exit code (2, 3) with *cause. */
int remedy_verify(const struct ss_backend *gpu, const struct ss_experiment *e, struct ss_remedy *r, char **cause);

#endif
