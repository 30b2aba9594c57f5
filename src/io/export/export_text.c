/* export_text.c: a plain-text summary a person can paste into a report: what ran, where, measured or MODELLED,
 * the analysis table, a per-stream table, and the screen text when the TUI passes it. Optional values that are
 * not valid print "-". */
#include "io/export/export_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic.h"
#include "core/devsum.h"
#include "core/units.h"
#include "core/xalloc.h"

/* Per-stream totals for the stream table. */
struct text_stream {
	uint64_t count[SS_KIND_COUNT];
	uint64_t ns[SS_KIND_COUNT];
	uint64_t bytes;
	uint64_t first, last;
};

static const char *text_pct(bool valid, double v, char *buf, size_t len)
{
	if (!valid)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", v * 100.0);
	return buf;
}

/* text_streams prints one line per experiment stream (and per special stream that has records). */
static void text_streams(FILE *f, const struct ss_timeline *t)
{
	int n = t->nstreams > 0 ? t->nstreams : 0, rows;
	struct text_stream *s;
	char a[32], b[32], c[32], d[32], e[32], label[24];

	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].stream >= n && t->rec[i].kind < SS_KIND_COUNT &&
		    (SS_GPU_KINDS & SS_KIND_BIT(t->rec[i].kind)))
			n = t->rec[i].stream + 1; /* a timeline whose nstreams was not derived */
	rows = n + 4;
	s = xcalloc((size_t)rows, sizeof *s);

	for (int i = 0; i < rows; i++)
		s[i].first = UINT64_MAX;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int row;

		if (r->kind >= SS_KIND_COUNT || !(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			continue;
		if (r->stream >= 0 && r->stream < n)
			row = r->stream;
		else if (r->stream == SS_STREAM_LEGACY)
			row = n;
		else if (r->stream == SS_STREAM_PER_THREAD)
			row = n + 1;
		else
			row = n + 2;
		s[row].count[r->kind]++;
		s[row].ns[r->kind] += r->end - r->start;
		s[row].bytes += r->bytes;
		if (r->start < s[row].first)
			s[row].first = r->start;
		if (r->end > s[row].last)
			s[row].last = r->end;
	}
	fprintf(f, "\n%-10s %6s %12s %6s %12s %6s %12s %12s %12s  %s\n", "stream", "H2D", "H2D time", "KER", "KER time",
	        "D2H", "D2H time", "first", "last", "kind");
	for (int i = 0; i < n + 3; i++) {
		int32_t id = i < n        ? i
		             : i == n     ? SS_STREAM_LEGACY
		             : i == n + 1 ? SS_STREAM_PER_THREAD
		                          : SS_STREAM_UNKNOWN;
		uint64_t total = 0;
		const struct ss_stream_info *si = timeline_stream(t, id);
		char kind[48];

		if (si == NULL)
			snprintf(kind, sizeof kind, "-");
		else
			snprintf(kind, sizeof kind, "%s (id %u)",
			         si->kind != SS_SKIND_UNKNOWN ? timeline_stream_kind_name(si->kind) : "-", si->raw_id);
		for (int k = 0; k < SS_KIND_COUNT; k++)
			total += s[i].count[k];
		if (i >= n && total == 0)
			continue;
		if (total == 0) {
			fprintf(f, "%-10s %6s %12s %6s %12s %6s %12s %12s %12s  %s\n",
			        timeline_stream_label(id, label, sizeof label), "0", "-", "0", "-", "0", "-", "-", "-",
			        kind);
			continue;
		}
		fprintf(f, "%-10s %6" PRIu64 " %12s %6" PRIu64 " %12s %6" PRIu64 " %12s %12s %12s  %s\n",
		        timeline_stream_label(id, label, sizeof label), s[i].count[SS_KIND_H2D],
		        units_time(s[i].ns[SS_KIND_H2D], a, sizeof a), s[i].count[SS_KIND_KERNEL],
		        units_time(s[i].ns[SS_KIND_KERNEL], b, sizeof b), s[i].count[SS_KIND_D2H],
		        units_time(s[i].ns[SS_KIND_D2H], c, sizeof c), units_time(s[i].first, d, sizeof d),
		        units_time(s[i].last, e, sizeof e), kind);
	}
	free(s);
}

/* text_devices prints a row per device of a timeline of two or more (core/devsum), nothing for one. */
static void text_devices(FILE *f, const struct ss_timeline *t)
{
	struct ss_devsum d;
	char a[32], b[32], c[32], e[32], title[192];

	if (timeline_ndevices(t) < 2)
		return;
	devsum_build(t, &d);
	fprintf(f, "\n%-10s %12s %12s %12s %12s  %s\n", "device", "busy", "peer", "idle*", "link sh.", "name");
	for (int i = 0; i < d.ndev; i++)
		fprintf(f, "%-10d %12s %12s %12s %12s  %s\n", i, units_time(d.dev[i].busy_ns, a, sizeof a),
		        units_time(d.dev[i].peer_ns, b, sizeof b), units_time(d.dev[i].idle_while_busy_ns, c, sizeof c),
		        units_time(d.dev[i].link_shared_ns, e, sizeof e),
		        timeline_device_title(t, i, title, sizeof title));
	fprintf(f,
	        "idle*: idle while another device was busy; link sh.: its host copies ran beside another device's\n");
	devsum_free(&d);
}

/* text_write prints the whole summary to f. */
static void text_write(FILE *f, const struct ss_export_input *in)
{
	const struct ss_timeline *t = in->t;
	struct ss_analysis tmp;
	const struct ss_analysis *a = export_input_analysis(in, &tmp);
	static const char *const eng_names[SS_ENG_COUNT] = {"H2D", "compute", "D2H"};
	char label[512], title[512], b1[32], b2[32], b3[32], b4[32];
	uint64_t w0, w1;

	export_input_label(in, label, sizeof label);
	export_input_title(in, title, sizeof title);
	export_input_window(in, &w0, &w1);
	fprintf(f, "streamscope %s summary%s\n", SS_VERSION, t->modelled ? "  ***  MODELLED, NOT MEASURED  ***" : "");
	fprintf(f, "%-12s %s\n", "experiment", title);
	fprintf(f, "%-12s %s\n", "backend", label);
	if (*t->device != '\0')
		fprintf(f, "%-12s %s\n", "device", t->device);
	if (*t->source != '\0')
		fprintf(f, "%-12s %s\n", "source", t->source);
	fprintf(f,
	        "%-12s %zu (H2D %" PRIu64 ", D2H %" PRIu64 ", D2D %" PRIu64 ", memset %" PRIu64 ", kernels %" PRIu64
	        ", API %" PRIu64 ", sync %" PRIu64 ", NVTX %" PRIu64 ")%s\n",
	        "records", t->n, a->counts[SS_KIND_H2D], a->counts[SS_KIND_D2H], a->counts[SS_KIND_D2D],
	        a->counts[SS_KIND_MEMSET], a->counts[SS_KIND_KERNEL], a->counts[SS_KIND_API], a->counts[SS_KIND_SYNC],
	        a->counts[SS_KIND_MARKER], t->incomplete ? "  INCOMPLETE capture" : "");
	if (t->dropped > 0)
		fprintf(f, "%-12s %" PRIu64 " records lost by the capture\n", "dropped", t->dropped);
	fprintf(f, "%-12s %s .. %s\n", "window", units_time(w0, b1, sizeof b1), units_time(w1, b2, sizeof b2));

	fprintf(f, "\n%-12s %s", "makespan", a->makespan_ns > 0 ? units_time(a->makespan_ns, b1, sizeof b1) : "-");
	if (a->staging_ns > 0)
		fprintf(f, "  (%s of it host staging inside pageable copies' calls)",
		        units_time(a->staging_ns, b1, sizeof b1));
	fprintf(f, "\n");
	fprintf(f, "%-12s %12s %8s %8s %12s %12s\n", "engine", "busy", "util", "count", "bytes", "bandwidth");
	for (int e = 0; e < SS_ENG_COUNT; e++) {
		const struct ss_engine_stats *s = &a->eng[e];
		bool copy = e != SS_ENG_COMPUTE;

		fprintf(f, "%-12s %12s %8s %8" PRIu64 " %12s %12s\n", eng_names[e],
		        units_time(s->busy_ns, b1, sizeof b1), text_pct(a->makespan_ns > 0, s->util, b2, sizeof b2),
		        s->count, copy ? units_bytes(s->bytes, b3, sizeof b3) : "-",
		        copy && s->busy_ns > 0 ? units_rate(s->bytes, s->busy_ns, b4, sizeof b4) : "-");
	}
	fprintf(f, "%-12s %12s %8s\n", "overlap", units_time(a->overlap_ns, b1, sizeof b1),
	        text_pct(a->makespan_ns > 0, a->overlap, b2, sizeof b2));
	if (a->have_speedup)
		fprintf(f, "%-12s %.2fx vs the same work serially on 1 stream\n", "speedup", a->speedup);
	else
		fprintf(f, "%-12s -\n", "speedup");
	if (a->have_bound)
		fprintf(f, "%-12s %s for %d chunk%s (h %s, k %s, d %s); gap %+.1f%%\n", "bound",
		        units_time(a->bound_ns, b1, sizeof b1), a->n, a->n == 1 ? "" : "s",
		        units_time(a->h_ns, b2, sizeof b2), units_time(a->k_ns, b3, sizeof b3),
		        units_time(a->d_ns, b4, sizeof b4), a->gap * 100.0);
	else
		fprintf(f, "%-12s -\n", "bound");
	if (a->have_overhead)
		fprintf(f, "%-12s traced %s, untraced %s: %+.2f%%%s%s\n", "tracing",
		        units_time(a->traced_ns, b1, sizeof b1), units_time(a->untraced_ns, b2, sizeof b2),
		        a->overhead * 100.0,
		        a->used_untraced ? " (> 1%: speedup and bound use untraced makespans)" : "",
		        a->untraced_detached ? "" : " (untraced with CUPTI attached)");
	text_streams(f, t);
	text_devices(f, t);
	if (in->screen_text != NULL && *in->screen_text != '\0') {
		fputs("\nscreen\n", f);
		fputs(in->screen_text, f);
		if (in->screen_text[strlen(in->screen_text) - 1] != '\n')
			fputc('\n', f);
	}
}

int export_text(const char *path, const struct ss_export_input *in, char **cause)
{
	struct atomic_file af;

	if (atomic_open(&af, path, cause) != 0)
		return -1;
	text_write(af.fp, in);
	return atomic_commit(&af, cause);
}
