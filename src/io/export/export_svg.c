/* export_svg.c: the Gantt chart as an SVG picture, drawn from the timeline (vector, not the cell grid).
 *
 * Rows as on screen: a host lane (API calls, with synchronisation waits over them), an NVTX lane per host thread
 * that has ranges (nested ranges overlap: the outermost covers the others), then per stream the lanes H2D, KER
 * (kernels, D2D copies, memsets) and D2H; the legacy and per-thread default streams and unknown streams follow when
 * they have work. Colours are palette.h's semantic roles. Below: a time axis with "nice" ticks and units, and a legend;
 * above: title, backend label (MODELLED in the warning colour) and the analysis. Intervals closer than half a pixel on
 * one lane and of one kind are merged into one rectangle, so a million intervals make a file of a few thousand
 * rectangles. */
#include "io/export/export_svg.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/atomic.h"
#include "core/palette.h"
#include "core/units.h"
#include "core/vec.h"
#include "core/xalloc.h"
#include "io/export/escape.h"

#define SVG_WIDTH 1200
#define SVG_LEFT 120
#define SVG_RIGHT 24
#define SVG_HEADER 84
#define SVG_BACKGROUND "#181818"
#define SVG_FONT "DejaVu Sans Mono, Menlo, Consolas, monospace"

/* Lanes inside a stream group. */
enum { SVG_LANE_H2D = 0, SVG_LANE_KER, SVG_LANE_D2H, SVG_LANES };
/* The first lanes of the picture: the host, then one NVTX lane per thread (SVG_ROW_NVTX + k), then the streams
 * (from l->row_streams). */
enum { SVG_ROW_HOST = 0, SVG_ROW_NVTX };
/* Threads with an NVTX lane of their own; the ranges of further threads are drawn on the host lane. */
#define SVG_MAX_NVTX 64

/* One rectangle being merged on a lane. */
struct svg_rect {
	double x0, x1;
	int role;
	uint32_t count; /* intervals merged into it */
	size_t rec;     /* the record when count == 1 */
};

/* The layout of the picture. */
struct svg_layout {
	int nstreams;                    /* experiment streams 0..n-1 */
	int special[3];                  /* 1 when the legacy / per-thread / unknown group has records */
	int ngroups;                     /* stream groups drawn */
	int *group_of;                   /* group index of stream row s (0..n+2), -1 when not drawn */
	uint32_t nvtx_tid[SVG_MAX_NVTX]; /* threads with NVTX ranges, rising */
	int nnvtx;
	int row_streams; /* lane id of the first stream lane: SVG_ROW_NVTX + nnvtx */
	int lane_h, lane_gap, group_gap;
	int *lane_y; /* y of each lane id */
	int nlanes;
	int rows_top, rows_bottom;
	double x0, plot_w; /* plot area */
	uint64_t w0, w1;   /* window */
};

static void svg_colour(const struct ss_colour *c, char *buf, size_t len)
{
	snprintf(buf, len, "#%06x", (unsigned)(c->rgb & 0xffffffu));
}

/* svg_stream_row maps a record's stream to a row 0..n+2 (n = nstreams), -1 for host records. */
static int svg_stream_row(const struct svg_layout *l, int32_t stream)
{
	if (stream >= 0 && stream < l->nstreams)
		return stream;
	switch (stream) {
	case SS_STREAM_HOST:
		return -1;
	case SS_STREAM_LEGACY:
		return l->nstreams;
	case SS_STREAM_PER_THREAD:
		return l->nstreams + 1;
	default:
		return l->nstreams + 2;
	}
}

/* svg_lane returns the lane id of a record, -1 when it is not drawn. */
static int svg_lane(const struct svg_layout *l, const struct ss_record *r)
{
	int row, g, lane;

	switch (r->kind) {
	case SS_KIND_API:
	case SS_KIND_SYNC:
		return SVG_ROW_HOST;
	case SS_KIND_MARKER:
		for (int lo = 0, hi = l->nnvtx; lo < hi;) {
			int mid = lo + (hi - lo) / 2;

			if (l->nvtx_tid[mid] == r->thread)
				return SVG_ROW_NVTX + mid;
			if (l->nvtx_tid[mid] < r->thread)
				lo = mid + 1;
			else
				hi = mid;
		}
		return SVG_ROW_HOST;
	case SS_KIND_H2D:
		lane = SVG_LANE_H2D;
		break;
	case SS_KIND_D2H:
		lane = SVG_LANE_D2H;
		break;
	case SS_KIND_KERNEL:
	case SS_KIND_D2D:
	case SS_KIND_MEMSET:
		lane = SVG_LANE_KER;
		break;
	default:
		return -1;
	}
	row = svg_stream_row(l, r->stream);
	if (row < 0 || (g = l->group_of[row]) < 0)
		return -1;
	return l->row_streams + g * SVG_LANES + lane;
}

static int svg_cmp_tid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* svg_layout_make decides which groups are drawn and where every lane goes. */
static void svg_layout_make(struct svg_layout *l, const struct ss_export_input *in)
{
	const struct ss_timeline *t = in->t;
	int y;

	memset(l, 0, sizeof *l);
	l->nstreams = t->nstreams > 0 ? t->nstreams : 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind == SS_KIND_MARKER && l->nnvtx < SVG_MAX_NVTX) {
			int k;

			for (k = 0; k < l->nnvtx && l->nvtx_tid[k] != r->thread; k++)
				;
			if (k == l->nnvtx)
				l->nvtx_tid[l->nnvtx++] = r->thread;
		}
		if (r->kind >= SS_KIND_COUNT || !(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			continue;
		if (r->stream >= l->nstreams)
			l->nstreams = r->stream + 1; /* a timeline whose nstreams was not derived */
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];

		if (r->kind < SS_KIND_COUNT && (SS_GPU_KINDS & SS_KIND_BIT(r->kind)) && r->stream < 0) {
			int row = svg_stream_row(l, r->stream);

			if (row >= l->nstreams)
				l->special[row - l->nstreams] = 1;
		}
	}
	qsort(l->nvtx_tid, (size_t)l->nnvtx, sizeof *l->nvtx_tid, svg_cmp_tid);
	l->row_streams = SVG_ROW_NVTX + l->nnvtx;
	l->group_of = xcalloc((size_t)l->nstreams + 3, sizeof *l->group_of);
	for (int s = 0; s < l->nstreams + 3; s++)
		l->group_of[s] = s < l->nstreams || l->special[s - l->nstreams] ? l->ngroups++ : -1;
	l->lane_h = l->ngroups <= 16 ? 12 : l->ngroups <= 48 ? 6 : 3;
	l->lane_gap = l->lane_h >= 12 ? 2 : 1;
	l->group_gap = l->lane_h >= 12 ? 8 : 4;
	l->nlanes = l->row_streams + l->ngroups * SVG_LANES;
	l->lane_y = xcalloc((size_t)l->nlanes, sizeof *l->lane_y);
	y = SVG_HEADER;
	l->rows_top = y;
	l->lane_y[SVG_ROW_HOST] = y;
	y += 14 + l->group_gap;
	for (int k = 0; k < l->nnvtx; k++) {
		l->lane_y[SVG_ROW_NVTX + k] = y;
		y += 14 + (k + 1 < l->nnvtx ? l->lane_gap : l->group_gap);
	}
	for (int g = 0; g < l->ngroups; g++) {
		for (int k = 0; k < SVG_LANES; k++) {
			l->lane_y[l->row_streams + g * SVG_LANES + k] = y;
			y += l->lane_h + l->lane_gap;
		}
		y += l->group_gap - l->lane_gap;
	}
	l->rows_bottom = y;
	l->x0 = SVG_LEFT;
	l->plot_w = SVG_WIDTH - SVG_LEFT - SVG_RIGHT;
	export_input_window(in, &l->w0, &l->w1);
}

static double svg_x(const struct svg_layout *l, uint64_t t)
{
	if (t <= l->w0)
		return l->x0;
	if (t >= l->w1)
		return l->x0 + l->plot_w;
	return l->x0 + (double)(t - l->w0) * l->plot_w / (double)(l->w1 - l->w0);
}

static int svg_lane_height(const struct svg_layout *l, int lane)
{
	return lane < l->row_streams ? 14 : l->lane_h;
}

/* svg_rect_emit writes one merged rectangle, with a tooltip and, when it is one wide interval, its name. */
static void svg_rect_emit(FILE *f, const struct svg_layout *l, const struct ss_timeline *t, int lane,
                          const struct svg_rect *r)
{
	char fill[16], b1[32], b2[32], b3[32];
	int y = l->lane_y[lane], h = svg_lane_height(l, lane);
	double w = r->x1 - r->x0;

	if (lane == SVG_ROW_HOST && r->role == SS_ROLE_SYNC) {
		y += 3; /* a wait sits inside the API call that waits */
		h -= 6;
	}
	svg_colour(palette_get(r->role), fill, sizeof fill);
	fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>", r->x0, y, w, h, fill);
	if (r->count == 1) {
		const struct ss_record *rec = &t->rec[r->rec];

		escape_xml(f, timeline_name(t, rec->name));
		fprintf(f, " %s start %s dur %s", record_kind_name(rec->kind), units_time(rec->start, b1, sizeof b1),
		        units_time(rec->end - rec->start, b2, sizeof b2));
		if (rec->bytes > 0)
			fprintf(f, " %s %s", units_bytes(rec->bytes, b3, sizeof b3),
			        units_rate(rec->bytes, rec->end - rec->start, b1, sizeof b1));
	} else {
		fprintf(f, "%" PRIu32 " %s intervals", r->count, record_kind_name(r->role));
	}
	fputs("</title></rect>\n", f);
	if (r->count == 1 && w >= 40 && h >= 10) {
		const char *name = timeline_name(t, t->rec[r->rec].name);
		size_t fit = (size_t)((w - 4) / 6.0), len = strlen(name);
		char *s;

		if (*name == '\0' || fit < 3)
			return;
		s = xstrdup(name);
		if (len > fit) {
			/* cut on a character boundary and mark the cut */
			size_t cut = fit - 1;

			while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
				cut--;
			s[cut] = '\0';
		}
		fprintf(f, "<text x=\"%.2f\" y=\"%d\" class=\"bar\">", r->x0 + 2, y + h - 3);
		escape_xml(f, s);
		fputs(len > fit ? "~</text>\n" : "</text>\n", f);
		free(s);
	}
}

static int svg_cmp_start(const void *a, const void *b, void *ctx)
{
	const struct ss_record *rec = ctx;
	const struct ss_record *x = &rec[*(const size_t *)a], *y = &rec[*(const size_t *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/* svg_intervals buckets the records in the window by lane, merges sub-pixel neighbours and draws them; host lanes
 * draw API calls before synchronisation so waits show on top. */
static void svg_intervals(FILE *f, const struct svg_layout *l, const struct ss_timeline *t)
{
	size_t *first = xcalloc((size_t)l->nlanes + 1, sizeof *first), *idx, *fill;
	struct svg_rect *rects = NULL;
	size_t nrects = 0, cap = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int lane = svg_lane(l, r);

		if (lane >= 0 && r->end >= l->w0 && r->start <= l->w1)
			first[lane + 1]++;
	}
	for (int k = 0; k < l->nlanes; k++)
		first[k + 1] += first[k];
	idx = xreallocarray(NULL, first[l->nlanes] ? first[l->nlanes] : 1, sizeof *idx);
	fill = xreallocarray(NULL, (size_t)l->nlanes, sizeof *fill);
	memcpy(fill, first, (size_t)l->nlanes * sizeof *fill);
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		int lane = svg_lane(l, r);

		if (lane >= 0 && r->end >= l->w0 && r->start <= l->w1)
			idx[fill[lane]++] = i;
	}
	for (int lane = 0; lane < l->nlanes; lane++) {
		size_t a = first[lane], b = first[lane + 1];
		struct svg_rect open[SS_ROLE_COUNT];
		bool sorted = true;

		if (a == b)
			continue;
		for (size_t i = a + 1; i < b && sorted; i++)
			sorted = t->rec[idx[i - 1]].start <= t->rec[idx[i]].start;
		if (!sorted)
			qsort_r(idx + a, b - a, sizeof *idx, svg_cmp_start, t->rec);
		memset(open, 0, sizeof open);
		nrects = 0;
		for (size_t i = a; i <= b; i++) {
			const struct ss_record *r = i < b ? &t->rec[idx[i]] : NULL;
			double x0 = 0, x1 = 0;
			int role = 0;

			if (r != NULL) {
				role = r->kind;
				x0 = svg_x(l, r->start);
				x1 = svg_x(l, r->end);
				if (x1 - x0 < 0.5)
					x1 = x0 + 0.5;
				if (open[role].count > 0 && x0 <= open[role].x1 + 0.5) {
					if (x1 > open[role].x1)
						open[role].x1 = x1;
					open[role].count++;
					continue;
				}
			}
			/* flush: the open rectangle of this role, or all of them at the end of the lane */
			for (int k = 0; k < SS_ROLE_COUNT; k++) {
				if (open[k].count == 0 || (r != NULL && k != role))
					continue;
				*VEC_PUSH(rects, nrects, cap, 256) = open[k];
				open[k].count = 0;
			}
			if (r != NULL)
				open[role] = (struct svg_rect){x0, x1, role, 1, idx[i]};
		}
		/* API calls first, then everything else, so waits and GPU work are never hidden */
		for (int pass = 0; pass < 2; pass++)
			for (size_t i = 0; i < nrects; i++)
				if ((rects[i].role == SS_ROLE_API) == (pass == 0))
					svg_rect_emit(f, l, t, lane, &rects[i]);
	}
	free(rects);
	free(fill);
	free(idx);
	free(first);
}

/* svg_labels draws the lane backgrounds and the row labels at the left: streams with their kind's tag ("s3 nb"),
 * the whole title ("s3 non-blocking (id 14)") as the label's tooltip. */
static void svg_labels(FILE *f, const struct svg_layout *l, const struct ss_timeline *t)
{
	static const char *const lanes[SVG_LANES] = {"H2D", "KER", "D2H"};

	fprintf(f, "<rect x=\"%.0f\" y=\"%d\" width=\"%.0f\" height=\"14\" fill=\"#222222\"/>\n", l->x0,
	        l->lane_y[SVG_ROW_HOST], l->plot_w);
	fprintf(f, "<text x=\"8\" y=\"%d\" class=\"row\">host</text>\n", l->lane_y[SVG_ROW_HOST] + 11);
	for (int k = 0; k < l->nnvtx; k++) {
		fprintf(f, "<rect x=\"%.0f\" y=\"%d\" width=\"%.0f\" height=\"14\" fill=\"#222222\"/>\n", l->x0,
		        l->lane_y[SVG_ROW_NVTX + k], l->plot_w);
		fprintf(f, "<text x=\"8\" y=\"%d\" class=\"row\">NVTX t%u</text>\n", l->lane_y[SVG_ROW_NVTX + k] + 11,
		        l->nvtx_tid[k]);
	}
	for (int s = 0; s < l->nstreams + 3; s++) {
		int g = l->group_of[s], top, bottom;
		int32_t id = s < l->nstreams        ? s
		             : s == l->nstreams     ? SS_STREAM_LEGACY
		             : s == l->nstreams + 1 ? SS_STREAM_PER_THREAD
		                                    : SS_STREAM_UNKNOWN;
		const struct ss_stream_info *si = timeline_stream(t, id);
		char label[40], title[96];

		if (g < 0)
			continue;
		top = l->lane_y[l->row_streams + g * SVG_LANES];
		bottom = l->lane_y[l->row_streams + g * SVG_LANES + SVG_LANES - 1] + l->lane_h;
		fprintf(f, "<rect x=\"%.0f\" y=\"%d\" width=\"%.0f\" height=\"%d\" fill=\"%s\"/>\n", l->x0, top,
		        l->plot_w, bottom - top, g % 2 ? "#1f1f1f" : "#242424");
		timeline_stream_label(id, label, sizeof label);
		if (si != NULL && si->kind != SS_SKIND_UNKNOWN) {
			size_t n = strlen(label);

			snprintf(label + n, sizeof label - n, " %s", timeline_stream_kind_tag(si->kind));
		}
		timeline_stream_title(t, id, title, sizeof title);
		if (l->lane_h >= 6 || g % 4 == 0)
			fprintf(f, "<text x=\"8\" y=\"%d\" class=\"row%s\">%s<title>%s</title></text>\n",
			        (top + bottom) / 2 + 4, s >= l->nstreams ? " legacy" : "", label, title);
		if (l->lane_h >= 12)
			for (int k = 0; k < SVG_LANES; k++)
				fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"lane\">%s</text>\n", SVG_LEFT - 30,
				        l->lane_y[l->row_streams + g * SVG_LANES + k] + l->lane_h - 2, lanes[k]);
	}
}

/* svg_axis draws the time axis under the rows, with grid lines across them; returns the y below it. */
static int svg_axis(FILE *f, const struct svg_layout *l)
{
	uint64_t span = l->w1 - l->w0, step = units_tick(span, 10), div;
	const char *unit;
	double s;
	int y = l->rows_bottom + 6, decimals = 0;
	char axis[16];

	if (step >= 1000000000ull) {
		div = 1000000000ull;
		unit = "s";
	} else if (step >= 1000000ull) {
		div = 1000000ull;
		unit = "ms";
	} else if (step >= 1000ull) {
		div = 1000ull;
		unit = "us";
	} else {
		div = 1;
		unit = "ns";
	}
	for (s = (double)step / (double)div; s < 0.999999 && decimals < 9; s *= 10)
		decimals++;
	svg_colour(palette_get(SS_ROLE_AXIS), axis, sizeof axis);
	fprintf(f, "<line x1=\"%.0f\" y1=\"%d\" x2=\"%.0f\" y2=\"%d\" stroke=\"%s\"/>\n", l->x0, y, l->x0 + l->plot_w,
	        y, axis);
	for (uint64_t tick = (l->w0 + step - 1) / step * step; tick <= l->w1 && step > 0; tick += step) {
		double x = svg_x(l, tick);

		fprintf(f,
		        "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"%s\" stroke-opacity=\"0.25\"/>\n",
		        x, l->rows_top, x, y, axis);
		fprintf(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"%s\"/>\n", x, y, x, y + 5, axis);
		fprintf(f, "<text x=\"%.2f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%.*f</text>\n", x, y + 17,
		        decimals, (double)tick / (double)div);
		if (tick > UINT64_MAX - step)
			break;
	}
	fprintf(f, "<text x=\"%.0f\" y=\"%d\" class=\"tick\" text-anchor=\"end\">time (%s)</text>\n", l->x0 + l->plot_w,
	        y + 32, unit);
	return y + 40;
}

/* svg_legend draws a swatch per kind present (the three engines always). */
static void svg_legend(FILE *f, const struct ss_timeline *t, int y)
{
	static const int order[] = {SS_KIND_H2D,    SS_KIND_KERNEL, SS_KIND_D2H,  SS_KIND_D2D,
	                            SS_KIND_MEMSET, SS_KIND_API,    SS_KIND_SYNC, SS_KIND_MARKER};
	static const char *const names[SS_KIND_COUNT] = {
	    [SS_KIND_H2D] = "H2D copy",    [SS_KIND_D2H] = "D2H copy",     [SS_KIND_D2D] = "D2D copy",
	    [SS_KIND_MEMSET] = "memset",   [SS_KIND_KERNEL] = "kernel",    [SS_KIND_API] = "API call",
	    [SS_KIND_SYNC] = "host waits", [SS_KIND_MARKER] = "NVTX range"};
	bool present[SS_KIND_COUNT] = {false};
	int x = SVG_LEFT;
	char fill[16];

	for (size_t i = 0; i < t->n; i++)
		if (t->rec[i].kind < SS_KIND_COUNT)
			present[t->rec[i].kind] = true;
	present[SS_KIND_H2D] = present[SS_KIND_KERNEL] = present[SS_KIND_D2H] = true;
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		int k = order[i];

		if (!present[k])
			continue;
		svg_colour(palette_get(k), fill, sizeof fill);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x, y, fill);
		fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"legend\">%s</text>\n", x + 17, y + 10, names[k]);
		x += 17 + 8 * (int)strlen(names[k]) + 18;
	}
}

/* svg_header writes the title, the backend label and the analysis line. */
static void svg_header(FILE *f, const struct ss_export_input *in, const struct svg_layout *l)
{
	struct ss_analysis tmp;
	const struct ss_analysis *a = export_input_analysis(in, &tmp);
	char title[512], label[512], b1[32], b2[32], b3[32];

	export_input_title(in, title, sizeof title);
	export_input_label(in, label, sizeof label);
	fputs("<text x=\"12\" y=\"24\" class=\"title\">streamscope: ", f);
	escape_xml(f, title);
	fputs("</text>\n", f);
	if (in->t->modelled)
		fprintf(f, "<text x=\"%d\" y=\"24\" class=\"badge warn\" text-anchor=\"end\">MODELLED</text>\n",
		        SVG_WIDTH - SVG_RIGHT);
	else
		fprintf(f, "<text x=\"%d\" y=\"24\" class=\"badge\" text-anchor=\"end\">measured</text>\n",
		        SVG_WIDTH - SVG_RIGHT);
	fprintf(f, "<text x=\"12\" y=\"44\" class=\"info%s\">", in->t->modelled ? " warn" : "");
	escape_xml(f, label);
	fprintf(f, "   window %s .. %s</text>\n", units_time(l->w0, b1, sizeof b1), units_time(l->w1, b2, sizeof b2));
	fprintf(f, "<text x=\"12\" y=\"64\" class=\"info\">makespan %s",
	        a->makespan_ns ? units_time(a->makespan_ns, b1, sizeof b1) : "-");
	if (a->staging_ns > 0)
		fprintf(f, " (host staging %s)", units_time(a->staging_ns, b1, sizeof b1));
	if (a->makespan_ns > 0)
		fprintf(f, "   util H2D %.0f%% KER %.0f%% D2H %.0f%%   overlap %.0f%%", a->eng[SS_ENG_H2D].util * 100.0,
		        a->eng[SS_ENG_COMPUTE].util * 100.0, a->eng[SS_ENG_D2H].util * 100.0, a->overlap * 100.0);
	if (a->have_speedup)
		fprintf(f, "   speedup %.2fx", a->speedup);
	if (a->have_bound)
		fprintf(f, "   bound %s (gap %+.0f%%)", units_time(a->bound_ns, b3, sizeof b3), a->gap * 100.0);
	fputs("</text>\n", f);
}

int export_svg(const char *path, const struct ss_export_input *in, char **cause)
{
	struct svg_layout l;
	struct atomic_file af;
	char text[16], dim[16], warn[16], legacy[16];
	FILE *f;
	int y, height;

	if (atomic_open(&af, path, cause) != 0)
		return -1;
	f = af.fp;
	svg_layout_make(&l, in);
	height = l.rows_bottom + 6 + 40 + 30;
	svg_colour(palette_get(SS_ROLE_TEXT), text, sizeof text);
	svg_colour(palette_get(SS_ROLE_DIM), dim, sizeof dim);
	fprintf(f,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
	        SVG_WIDTH, height, SVG_WIDTH, height);
	svg_colour(palette_get(SS_ROLE_WARN), warn, sizeof warn);
	svg_colour(palette_get(SS_ROLE_DEFAULT_STREAM), legacy, sizeof legacy);
	/* colours of text go through classes: CSS would override fill attributes */
	fprintf(
	    f,
	    "<style>text{font-family:%s;fill:%s;white-space:pre}.title{font-size:15px;font-weight:bold}"
	    ".info{font-size:12px}.badge{font-size:14px;font-weight:bold}.row{font-size:12px}"
	    ".lane{font-size:9px;fill:%s}.tick{font-size:10px}.legend{font-size:11px}.bar{font-size:9px;fill:#ffffff}"
	    ".warn{fill:%s}.legacy{fill:%s}</style>\n",
	    SVG_FONT, text, dim, warn, legacy);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", SVG_WIDTH, height,
	        SVG_BACKGROUND);
	svg_header(f, in, &l);
	svg_labels(f, &l, in->t);
	svg_intervals(f, &l, in->t);
	y = svg_axis(f, &l);
	svg_legend(f, in->t, y);
	fputs("</svg>\n", f);
	free(l.group_of);
	free(l.lane_y);
	return atomic_commit(&af, cause);
}
