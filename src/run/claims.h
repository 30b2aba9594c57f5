/* claims.h: the source documents' claims (../shared/seeds/000, 001, 003, 004), each held to measurements of the
 * backend at hand (a GPU, or the model, whose numbers are labelled modelled): which runs they need, and each
 * claim's verdict with the numbers behind it. Pure: results in, verdicts out; nothing printed. */
#ifndef SS_RUN_CLAIMS_H
#define SS_RUN_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/backend.h"
#include "core/experiment.h"
#include "core/timeline.h"
#include "run/sweep.h"

/* The documents, as bits of a set. */
#define SS_CLAIMS_DOC_000 0x1u /* overlapping copies and compute (the DLI exercise: decrypt, sdiv chunks) */
#define SS_CLAIMS_DOC_001 0x2u /* kernel-transfer.cu: the (n+2)/(3n) theory, about 2x at about 20 streams */
#define SS_CLAIMS_DOC_003 0x4u /* sync order, stream 0, issue order, the copy engine */
#define SS_CLAIMS_DOC_004 0x8u /* managed memory attached per stream, a host thread per stream */
#define SS_CLAIMS_DOCS_ALL 0xfu

/* The most claims one evaluation gives (every document's), and the most runs they need. */
#define SS_CLAIMS_MAX 24
#define SS_CLAIM_MAX_VALUES 12

/* A verdict. */
enum ss_verdict {
	SS_VERDICT_HOLDS = 0,  /* the measurements agree with the claim, within its tolerance */
	SS_VERDICT_FAILS,      /* they do not */
	SS_VERDICT_UNMEASURED, /* the runs it needs did not run or cannot tell (the model computes no results) */
	SS_VERDICT_COUNT
};

/* A named number behind a verdict (JSON "values"); have false: not known (null). */
struct ss_claim_value {
	const char *name;
	bool have;
	double v;
};

/* One point of the 001 theory's curve: the predicted and the measured speedup at n streams. */
struct ss_claim_point {
	int streams;
	double predicted, measured;
};

/* One claim of a document and its verdict. Strings are one line each, ASCII. */
struct ss_claim {
	const char *id;       /* stable: "001-best" */
	const char *document; /* "001" */
	const char *text;     /* the claim in one English sentence */
	enum ss_verdict verdict;
	bool modelled;      /* the numbers come from the model */
	char measured[192]; /* what was measured, with the numbers */
	char expected[192]; /* what the claim says, with the tolerance the verdict used */
	char evidence[512]; /* the numbers behind the verdict and what they were compared with */
	char brief[72];     /* a few words for the sweep view's line ("best 2.1x at 16 (doc: ~2x at ~20) holds") */
	struct ss_claim_value value[SS_CLAIM_MAX_VALUES];
	int nvalues;
	struct ss_claim_point point[SS_SWEEP_MAX_COUNTS]; /* 001-theory only */
	int npoints;
};

/* What a run is for. */
enum ss_claims_role {
	SS_CLAIMS_KT_SWEEP = 0,      /* 001: kernel-transfer over 1, 2, 4, ... 128 streams, and 20 */
	SS_CLAIMS_DECRYPT_SWEEP,     /* 000: decrypt on 1 stream, 3 (a tail chunk) and its own 32 */
	SS_CLAIMS_VA_BEST,           /* 003: vector-add in the "best" issue order */
	SS_CLAIMS_VA_WEAKER,         /* 003: the same in the "weaker" order */
	SS_CLAIMS_SYNC_STREAM,       /* 003: sync-order, each stream synchronised in completion order */
	SS_CLAIMS_SYNC_REVERSE,      /* 003: the same in reverse order */
	SS_CLAIMS_DS_NONE,           /* 003: default-stream with nothing on stream 0 */
	SS_CLAIMS_DS_TIMER,          /* 003: events on stream 0 between the phases (a host timer) */
	SS_CLAIMS_DS_GET_LAST_ERROR, /* 003: cudaGetLastError between the streams' work */
	SS_CLAIMS_ATTACH_ONE,        /* 004: managed-threads' tasks, attached memory each, on one host thread */
	SS_CLAIMS_ATTACH_THREADS,    /* 004: the same with a host thread per task (per stream) */
	SS_CLAIMS_ROLE_COUNT
};

/* What the claims read off a run's timeline beyond its analysis (claims_observe). */
struct ss_claims_obs {
	bool have;
	uint64_t duplex_ns;   /* time with copies of both directions running */
	size_t kernels;       /* kernels on experiment streams */
	size_t kernels_ahead; /* kernels that started before a kernel issued ahead of them (a smaller correlation id) */
	uint64_t lead_ns;     /* the most any of them started ahead of such a kernel */
	int concurrency;      /* analysis_kernel_concurrency */
};

/* One run the claims need, and what it gave. A sweep role runs s (claims_plan prepares it: sweep_run runs it);
 * the others run e once and are filled by claims_run_done. */
struct ss_claims_run {
	enum ss_claims_role role;
	unsigned document; /* SS_CLAIMS_DOC_* */
	struct ss_experiment e;
	bool sweep;
	struct ss_sweep s; /* sweep roles: e over the role's stream counts */
	bool done, failed;
	char error[160];
	bool modelled;
	char device[96];
	struct ss_analysis a; /* single runs: the analysis with its observer fields */
	bool verified;        /* the run's results checked on the host (not by the model) */
	struct ss_claims_obs obs;
};

/* claims_document is the document whose claims preset p's experiments are (an SS_CLAIMS_DOC_* bit), 0 for a
 * preset no document's claims use (hyperq, managed, pageable). */
unsigned claims_document(enum ss_preset p);
/* claims_document_name: "000", "001", "003", "004" for one bit; "?" otherwise. */
const char *claims_document_name(unsigned doc);
/* claims_verdict_name: the verdict as JSON writes it: "holds", "does-not-hold", "not-measured". */
const char *claims_verdict_name(enum ss_verdict v);
/* claims_verdict_words: the verdict in words: "holds", "does not hold", "not measured here". */
const char *claims_verdict_words(enum ss_verdict v);
/* claims_role_name: a run's role as JSON writes it ("vector-add-weaker"). */
const char *claims_role_name(enum ss_claims_role r);

/* claims_plan writes into runs (room for SS_CLAIMS_ROLE_COUNT) the runs the claims of the documents in docs need,
 * each derived from base[its preset], that preset's experiment as the caller's options shaped it, with the one
 * option its claim toggles; sweeps are prepared (sweep_init). Returns how many; claims_plan_free releases them. */
int claims_plan(unsigned docs, const struct ss_experiment base[SS_PRESET_COUNT], struct ss_claims_run *runs);
void claims_plan_free(struct ss_claims_run *runs, int n);
/* claims_run_done records a single run's outcome: its timeline and result (res NULL with error: it failed). */
void claims_run_done(struct ss_claims_run *r, const struct ss_timeline *tl, const struct ss_run_result *res,
                     const char *error);
/* claims_observe reads o off tl (sorted by start): copies of both directions at once, kernels that ran ahead of
 * their issue order, kernel concurrency. */
void claims_observe(const struct ss_timeline *tl, struct ss_claims_obs *o);
/* claims_evaluate writes into out (room for SS_CLAIMS_MAX) every claim of the documents in docs, from runs (as
 * claims_plan made them, run by the caller); a claim whose runs failed or are absent is not measured. Returns how
 * many. */
int claims_evaluate(unsigned docs, const struct ss_claims_run *runs, int nruns, struct ss_claim *out);
/* claims_applies: whether e is one of the documents' programs, whose claims its runs and sweeps can be judged by:
 * false for a step program (an experiment file's own work) and for a run over several GPUs (every document's
 * program runs on one). claims_sweep and claims_run give no claims where it is false; the CLI and the TUI ask
 * nothing else. */
bool claims_applies(const struct ss_experiment *e);
/* claims_sweep writes into out (room for SS_CLAIMS_MAX) the claims the finished points of s support, by its
 * base's preset: kernel-transfer the 001 claims, decrypt 000's, a sweep of the best and weaker orders 003's issue
 * order; any sweep with copies on several streams 003's copy engine. Returns how many (0: none, and none where
 * claims_applies(&s->base) is false). */
int claims_sweep(const struct ss_sweep *s, struct ss_claim *out);
/* claims_run writes into out (room for SS_CLAIMS_MAX) the claims one run of e supports, from its analysis a and
 * what claims_observe read off its timeline: 001's bytes (a kernel-transfer run), 003's kernel order (a run in
 * the weaker order), 003's copy engine and copies of both directions (copies on two streams or more). Returns how
 * many (0: none, and none where claims_applies(e) is false). */
int claims_run(const struct ss_experiment *e, const struct ss_analysis *a, const struct ss_claims_obs *obs,
               bool modelled, struct ss_claim *out);

/* claims_timeline is claims_run on a run of e with sorted timeline tl and analysis a: what claims_observe reads off
 * tl, then the claims; 0 where claims_applies(e) is false (nothing read). */
int claims_timeline(const struct ss_experiment *e, const struct ss_timeline *tl, const struct ss_analysis *a,
                    bool modelled, struct ss_claim *out);
/* claims_pair writes into out (room for SS_CLAIMS_MAX) the claim two runs judge together: A (experiment ea,
 * analysis aa, what claims_observe read off its timeline oa) and B (eb, ab, ob), runs of one of the documents' programs
 * (claims_applies) that differ in just the option a claim toggles, in either direction: the sync order (in order,
 * reverse: 003-sync-order), stream 0 (none against event-timer: 003-stream0-timer, or against get-last-error:
 * 003-get-last-error), the issue order (best, weaker: 003-issue-order), or managed-attach tasks on one host thread
 * against one per stream (004-attach-threads). Judged as claims_evaluate judges the claims command's runs; modelled:
 * the numbers are the model's. Returns how many: 1, or 0 when the runs differ otherwise. */
int claims_pair(const struct ss_experiment *ea, const struct ss_analysis *aa, const struct ss_claims_obs *oa,
                const struct ss_experiment *eb, const struct ss_analysis *ab, const struct ss_claims_obs *ob,
                bool modelled, struct ss_claim *out);

#endif
