/* validate.h: the model against a GPU over the preset matrix: makespan errors and the direction of each effect. */
#ifndef SS_MODEL_VALIDATE_H
#define SS_MODEL_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/experiment.h"
#include "model/profile.h"

/* Targets of issue 3. */
#define SS_VALIDATE_MEDIAN_MAX 0.05
#define SS_VALIDATE_WORST_MAX 0.15

/* The longest list of one row's call costs. */
#define SS_VALIDATE_CALLS_MAX 200

/* One point of the matrix: the experiment's coordinates, what the GPU measured and what the model says.
 * Measured columns are 0 / -1 until measured. */
struct ss_validate_row {
	enum ss_preset preset;
	int streams;
	enum ss_order order;
	int connections;
	uint64_t measured_ns;    /* the untraced makespan when the backend timed one, else the traced one */
	bool measured_untraced;  /* measured_ns is the untraced makespan */
	bool measured_detached;  /* ... timed with CUPTI out of the process (each measurement of a merged row) */
	uint64_t model_ns;       /* modelled makespan */
	double measured_overlap; /* share of the makespan with two or more engines busy; -1 unknown */
	double model_overlap;
	int measured_cross; /* GPU records of experiment streams running during a legacy-stream GPU record;
	                       -1 when the run has no legacy-stream GPU record */
	int model_cross;
	int measured_n; /* measurements the row's measured columns stand for (validate_read_csvs); 0 unmeasured */
	double measured_spread;            /* (max - min) / median of those measurements; 0 for one */
	char calls[SS_VALIDATE_CALLS_MAX]; /* the call costs the row's own traced run showed ("api.launch_ns=5100;..."),
	                                      calibrate_calls; empty when not measured */
	uint64_t model_own_ns;   /* modelled makespan with those call costs over the host probe's; 0 without them */
	uint64_t model_probe_ns; /* modelled with the matrix's host probe (its host line) over the profile; 0 without */
};

/* The longest host-cost line a matrix carries. */
#define SS_VALIDATE_HOST_MAX 320

/* A matrix, the device it was measured on, and the host's call costs measured before it ("api.launch_ns=5042
 * api.copy_ns=2783 ...", profile keys of the host's side; empty when not measured). The prediction (model_ns) is
 * the profile's alone; the probe gives a second one (model_probe_ns), and the base the rows' own call costs are
 * read against. host_after: the same costs measured again after the last row (empty when not): how far the host's
 * speed moved while the matrix ran; the model does not use them. */
struct ss_validate_set {
	struct ss_validate_row *row;
	size_t n, cap;
	char device[96];
	char host[SS_VALIDATE_HOST_MAX];
	char host_after[SS_VALIDATE_HOST_MAX];
};

/* What the comparison says. Errors are |model - measured| / measured over rows with both. */
struct ss_validate_stats {
	size_t n;
	double median_err, worst_err;
	size_t worst_row;
	size_t order_checked, order_agree; /* depth against breadth, best against weaker, streams > 1, orders measured
	                                      apart by 5% and by both rows' spreads: same faster order */
	size_t beyond_worst;               /* rows more than SS_VALIDATE_WORST_MAX off */
	size_t beyond_attached;            /* of them, those timed untraced with CUPTI attached (validate_twins) */
	size_t beyond_spread; /* rows off by more than SS_VALIDATE_WORST_MAX and their own measured spread */
	size_t serial_checked, serial_agree;  /* legacy op: serialised (no record across it) in both or neither */
	size_t own_n;                         /* rows modelled with their own runs' call costs as well */
	double own_median_err, own_worst_err; /* their errors (model_own_ns against measured_ns) */
	size_t own_worst_row, own_beyond_worst;
	size_t probe_n;                           /* rows modelled with their matrices' host probes as well */
	double probe_median_err, probe_worst_err; /* their errors (model_probe_ns against measured_ns) */
	size_t probe_worst_row;
	size_t pageable_checked, pageable_agree; /* pageable: overlap below 5% in both or neither (or within 0.05) */
};

/* validate_matrix appends the matrix's rows, unmeasured: every preset x streams 1..128 (powers of two) x both
 * orders x connections 1 and 8; quick: streams 1 and 8 only. */
void validate_matrix(bool quick, struct ss_validate_set *s);
/* validate_experiment fills e for row r (the preset's defaults with r's streams, order and connections). */
void validate_experiment(const struct ss_validate_row *r, struct ss_experiment *e);
/* validate_measure runs row i on gpu (runner_run) and fills its measured columns (and s->device), and its calls
 * from the traced run's call records (calibrate_calls over p). Returns 0, or the runner's exit code (2, 3) with
 * *cause. */
int validate_measure(const struct ss_backend *gpu, const struct ss_profile *p, struct ss_validate_set *s, size_t i,
                     char **cause);
/* validate_model fills every row's model columns from p (the prediction: the profile's host costs, the medians of
 * every H200 measurement of them, predict the matrices' medians better than one probe taken before a matrix, whose
 * host then moves by up to 2x: tests/data/h200/host-probe), model_probe_ns with s->host's call costs over p's, and
 * model_own_ns of the rows with calls (their own call costs over p and s->host). -1 with *cause when the model
 * fails. */
int validate_model(const struct ss_profile *p, struct ss_validate_set *s, char **cause);
/* validate_stats compares the measured and modelled columns. */
void validate_stats(const struct ss_validate_set *s, struct ss_validate_stats *st);
/* validate_passes: the targets hold (median, worst, every direction check agrees) and at least one row compared. */
bool validate_passes(const struct ss_validate_stats *st);
/* validate_host_format writes p's host-side keys (those calibrate_host measures) as a host line into buf. */
void validate_host_format(const struct ss_profile *p, char *buf, size_t len);
/* validate_host_apply sets the keys of host line `host` in p. -1 with *cause naming a bad entry, an unknown key
 * or one that is not the host's (valid: api.* and host.* keys). */
int validate_host_apply(const char *host, struct ss_profile *p, char **cause);
/* validate_find returns the index of the row with r's coordinates, -1 when absent. */
long validate_find(const struct ss_validate_set *s, const struct ss_validate_row *r);

/* validate_twins counts the measured rows timed untraced: with CUPTI detached (validate_measure: the run said so;
 * a file: its '# untraced:' line) into *detached, the others (CUPTI attached, or a file without the line) into
 * *attached. */
void validate_twins(const struct ss_validate_set *s, size_t *detached, size_t *attached);
/* CSV: "# device: NAME", optionally "# host: LINE" and "# host-after: LINE", the timer line ("# timer: ..."), then
 * a header line, one row per line. validate_format_csv returns the file's text (caller frees; the engine writes no
 * file: the CLI writes it through io/atomic); reading checks the header and every field, -1 with *cause naming
 * line and field. A file without the timer line was measured with the run timer started after every first call,
 * one with the first timer line with it started before prefetches and pageable copies only: reading leaves out
 * their rows whose timer now starts before a call they timed from after (planner_start_before). */
char *validate_format_csv(const struct ss_validate_set *s);
int validate_read_csv(const char *path, struct ss_validate_set *s, char **cause);
/* validate_read_csvs reads n measured CSVs of the same device into s, one row per experiment (the union of their
 * rows, in the first file's order): measured_ns is the median of the row's measurements (the mean of the middle two
 * for an even count; where any file measured the row with CUPTI detached, of those files' measurements only, since
 * CUPTI attached costs each call), measured_n their count, measured_spread (max - min) / median; the overlap and
 * legacy-stream columns are those of the measurement at or just below the median. Unmeasured rows (measured_ns 0)
 * count as absent. With a profile p, each file's rows are also modelled (validate_model: with p; with p and that
 * file's host line; with its own calls), and a row's model columns are the medians over the files that measured it
 * (model_overlap and model_cross from the file at the measured median). s->host is left empty (each file's host line
 * applies to its own rows only). -1 with *cause when a file cannot be read or modelled. */
int validate_read_csvs(const char *const *paths, size_t n, const struct ss_profile *p, struct ss_validate_set *s,
                       char **cause);
void validate_free(struct ss_validate_set *s);

/* A profile key validate_fit chooses, the range it searches and the value chosen. */
struct ss_validate_fit {
	const char *key;
	double lo, hi; /* 0 < lo < hi */
	double value;  /* out */
};

/* validate_fit sets the keys fit[0..nfit) of p (provenance fitted) to the values in their ranges that bring the
 * model closest to s's measured rows (the caller picks them: a preset, a held-out half): the mean |ln(model /
 * measured)| is minimised by coordinate descent in log space, each key over 41 values of its whole range, then three
 * rounds ever closer around the best, then a pattern search (each key 10%, 3%, 1% either way while that improves
 * it: at the end no key 3% either way scores better); *score is that mean at the end. Keys not improving the score keep
 * their value. -1 with *cause for an unknown key, a bad range, no measured row or a model failure. */
int validate_fit(struct ss_profile *p, const struct ss_validate_set *s, struct ss_validate_fit *fit, size_t nfit,
                 double *score, char **cause);
/* validate_fit_score is what validate_fit minimises: the mean |ln(model / measured)| of p over s's measured rows
 * (*n of them). -1 with *cause when the model fails. */
int validate_fit_score(const struct ss_profile *p, const struct ss_validate_set *s, double *score, size_t *n,
                       char **cause);

#endif
