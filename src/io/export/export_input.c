/* export_input.c: the labels, title, analysis and window every exporter draws from its input. */
#include "io/export/export_input.h"

#include <stdio.h>
#include <string.h>

static const char *export_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

void export_input_label(const struct ss_export_input *in, char *buf, size_t len)
{
	const struct ss_timeline *t = in->t;

	if (in->label != NULL && *in->label != '\0') {
		if (t->modelled && strstr(in->label, "MODELLED") == NULL)
			snprintf(buf, len, "MODELLED: %s", in->label);
		else
			snprintf(buf, len, "%s", in->label);
		return;
	}
	if (t->modelled)
		snprintf(buf, len, "MODELLED: %s", *t->device != '\0' ? t->device : "model backend");
	else if (strcmp(t->backend, "file") == 0)
		snprintf(buf, len, "measured: trace file %s%s%s", export_basename(t->source),
		         *t->device != '\0' ? " from " : "", t->device);
	else if (strcmp(t->backend, "cuda") == 0)
		snprintf(buf, len, "measured: CUDA+CUPTI on %s", *t->device != '\0' ? t->device : "unknown device");
	else
		snprintf(buf, len, "measured: %s%s%s", *t->backend != '\0' ? t->backend : "unknown backend",
		         *t->device != '\0' ? " on " : "", t->device);
}

void export_input_title(const struct ss_export_input *in, char *buf, size_t len)
{
	if (in->e != NULL)
		experiment_describe(in->e, buf, len);
	else if (*in->t->source != '\0')
		snprintf(buf, len, "%s", export_basename(in->t->source));
	else if (*in->t->device != '\0')
		snprintf(buf, len, "%s", in->t->device);
	else
		snprintf(buf, len, "timeline");
}

const struct ss_analysis *export_input_analysis(const struct ss_export_input *in, struct ss_analysis *tmp)
{
	if (in->a != NULL)
		return in->a;
	analysis_timeline(in->t, tmp);
	analysis_observer(tmp, NULL);
	return tmp;
}

void export_input_window(const struct ss_export_input *in, uint64_t *t0, uint64_t *t1)
{
	if (in->t1 > in->t0) {
		*t0 = in->t0;
		*t1 = in->t1;
		return;
	}
	/* the run's work (timeline_work_span: GPU records, and pageable copies' calls), with a little room either side;
	 * host calls outside it (allocations, set-up) are cut off */
	if (timeline_work_span(in->t->rec, in->t->n, t0, t1)) {
		uint64_t pad = (*t1 - *t0) / 50;

		*t0 = *t0 > pad ? *t0 - pad : 0;
		*t1 = *t1 + pad;
	} else if (!timeline_span(in->t, ~0u, t0, t1)) {
		*t0 = 0;
		*t1 = 1;
	}
	if (*t1 <= *t0)
		*t1 = *t0 + 1;
}
