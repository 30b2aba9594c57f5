/* export_input.h: what every exporter draws from, and the labels and window they all show. */
#ifndef SS_IO_EXPORT_EXPORT_INPUT_H
#define SS_IO_EXPORT_EXPORT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/timeline.h"

/* The input of every exporter: a timeline, its analysis and the labels each format must show. */
struct ss_export_input {
	const struct ss_timeline *t;   /* required */
	const struct ss_analysis *a;   /* NULL: computed from t */
	const struct ss_experiment *e; /* the experiment that produced t; NULL for opened (foreign) traces */
	const char *label;             /* backend label ("measured: CUDA+CUPTI on NVIDIA H200"); NULL: made from t.
	                                  A modelled timeline's label always carries "MODELLED". */
	uint64_t t0, t1;               /* view window (SVG, text); t1 <= t0: the GPU work's span (all records when
	                                  there is no GPU work), 2% wider */
	const char *screen_text;       /* the screen as plain text, appended to the text export; may be NULL */
};

/* export_input_label writes the backend label of in (see struct ss_export_input). */
void export_input_label(const struct ss_export_input *in, char *buf, size_t len);
/* export_input_title writes a one-line title: the experiment, or the opened file, or the device. */
void export_input_title(const struct ss_export_input *in, char *buf, size_t len);
/* export_input_analysis returns in->a, or computes the analysis of in->t into tmp and returns tmp. */
const struct ss_analysis *export_input_analysis(const struct ss_export_input *in, struct ss_analysis *tmp);
/* export_input_window gives the view window of in: [t0, t1) with t1 > t0 (by default the span of the GPU work, 2% wider
 * on each side, or of all records when there is no GPU work). */
void export_input_window(const struct ss_export_input *in, uint64_t *t0, uint64_t *t1);
#endif
