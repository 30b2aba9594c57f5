/* view.c: composes a frame: header, Gantt(s), axis, stats, status line and the overlays. */
#include "tui/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "tui/axis.h"
#include "tui/insightbox.h"
#include "tui/keys.h"
#include "tui/listbox.h"
#include "tui/sweepview.h"

int view_layout(const struct ss_view *v, int cols, int rows, struct ss_layout *l, char **cause)
{
	struct ss_layout_opts o = {
	    cols, rows, v->pinned.tl != NULL && v->sweep == NULL,
	    ((v->insights != NULL || v->advice != NULL) && v->sweep == NULL) || v->claims != NULL, 0};

	/* the label column as the widest label of the runs shown asks, in the form shown */
	if (v->run.lanes != NULL)
		o.label_cols = lanes_label_cols(v->run.lanes, v->gv.compact);
	if (v->pinned.lanes != NULL) {
		int pinned = lanes_label_cols(v->pinned.lanes, v->gv.compact);

		if (pinned > o.label_cols)
			o.label_cols = pinned;
	}
	return layout_compute(&o, l, cause);
}

const struct ss_layout *view_layout_fit(const struct ss_view *v, int cols, int rows, struct ss_layout *l)
{
	char *cause = NULL;
	int rc = view_layout(v, cols, rows, l, &cause);

	free(cause);
	return rc == 0 ? l : NULL;
}

/* view_path_tail returns path when it fits w columns, else its tail that does behind "..." (what is cut is at the
 * left, so the file's own name stays), written into buf (len bytes). */
static const char *view_path_tail(const char *path, int w, char *buf, size_t len)
{
	const char *p = path;
	int width = grid_text_width(path);

	if (width <= w)
		return path;
	/* drop characters from the left, each its own width, until the rest and "..." fit: one pass over path */
	while (*p != '\0' && width + 3 > w) {
		char one[8];
		size_t n = 1;

		while ((p[n] & 0xc0) == 0x80 && n < sizeof one - 1) /* a UTF-8 continuation byte: the same character */
			n++;
		memcpy(one, p, n);
		one[n] = '\0';
		width -= grid_text_width(one);
		p += n;
	}
	snprintf(buf, len, "...%s", p);
	return buf;
}

/* view_header draws the two header rows: who ran what, and the experiment. */
static void view_header(struct ss_grid *g, struct ss_rect r, const struct ss_view *v)
{
	int x = r.x, right, room;
	char buf[320], state[160], tail[4096];

	grid_fill(g, r, ' ', SS_ROLE_TEXT, 0);
	x += grid_puts(g, x, r.y, r.w, "streamscope", SS_ROLE_TEXT, GRID_BOLD);
	x += grid_puts(g, x, r.y, r.x + r.w - x, "  ", SS_ROLE_TEXT, 0);
	if (v->modelled && (v->device == NULL || strstr(v->device, "MODEL") == NULL))
		x += grid_puts(g, x, r.y, r.x + r.w - x, "MODEL ", SS_ROLE_WARN, GRID_BOLD);
	x += grid_puts(g, x, r.y, r.x + r.w - x, v->device != NULL && v->device[0] ? v->device : "-",
	               v->modelled ? SS_ROLE_WARN : SS_ROLE_TEXT, GRID_BOLD);
	snprintf(buf, sizeof buf, "  backend %s", v->backend != NULL ? v->backend : "-");
	x += grid_puts(g, x, r.y, r.x + r.w - x, buf, SS_ROLE_DIM, 0);
	/* the run's state, right-aligned */
	if (v->running)
		snprintf(state, sizeof state, "running%s%s  %zu records", v->progress && v->progress[0] ? ": " : "",
		         v->progress ? v->progress : "", v->live_records);
	else if (v->run.tl != NULL)
		snprintf(state, sizeof state, "%s%zu records", v->run.tl->incomplete ? "incomplete  " : "",
		         v->run.tl->n);
	else if (v->pinned.tl != NULL)
		snprintf(state, sizeof state, "A pinned: %zu records", v->pinned.tl->n);
	else
		state[0] = '\0';
	right = grid_text_width(state);
	if (v->expfile != NULL) { /* the file's name, before the state where both fit with 20 columns of path */
		x += grid_puts(g, x, r.y, r.x + r.w - x, "  from ", SS_ROLE_DIM, 0);
		room = r.x + r.w - x - (right > 0 ? right + 2 : 0);
		if (room < 20)
			room = r.x + r.w - x;
		x += grid_puts(g, x, r.y, room, view_path_tail(v->expfile, room, tail, sizeof tail), SS_ROLE_TEXT, 0);
	}
	if (right > 0 && r.x + r.w - right > x + 1)
		grid_puts(g, r.x + r.w - right, r.y, right, state, v->running ? SS_ROLE_HIGHLIGHT : SS_ROLE_DIM,
		          v->running ? GRID_BOLD : 0);
	/* row 2: the experiment, or the file */
	x = r.x;
	if (v->source != NULL) {
		x += grid_puts(g, x, r.y + 1, r.w, "file ", SS_ROLE_DIM, 0);
		x += grid_puts(g, x, r.y + 1, r.x + r.w - x,
		               view_path_tail(v->source, r.x + r.w - x, tail, sizeof tail), SS_ROLE_TEXT, 0);
	} else if (v->run.exp != NULL) {
		experiment_describe(v->run.exp, buf, sizeof buf);
		/* too wide: single blanks between the fields; still too wide: the short fields */
		if (grid_text_width(buf) > r.w)
			for (char *p = buf; (p = strstr(p, "  ")) != NULL;)
				memmove(p, p + 1, strlen(p));
		if (grid_text_width(buf) > r.w)
			experiment_describe_compact(v->run.exp, buf, sizeof buf);
		x += grid_puts(g, x, r.y + 1, r.w, buf, SS_ROLE_TEXT, 0);
	}
	if (v->pending != NULL) {
		snprintf(buf, sizeof buf, "   next: %s", v->pending);
		grid_puts(g, x, r.y + 1, r.x + r.w - x, buf, SS_ROLE_HIGHLIGHT, 0);
	}
}

/* view_center writes s centred on row y of r. */
static void view_center(struct ss_grid *g, struct ss_rect r, int y, const char *s, int role, unsigned attr)
{
	int w = grid_text_width(s);

	if (w > r.w)
		w = r.w;
	grid_puts(g, r.x + (r.w - w) / 2, y, w, s, role, attr);
}

/* view_title draws the title row of one half of an A/B comparison. */
static void view_title(struct ss_grid *g, struct ss_rect r, const char *tag, const struct ss_view_run *run,
                       const struct ss_view_run *other, const struct ss_glyphs *gl)
{
	char buf[320], t[24];
	int x = r.x;

	grid_fill(g, r, ' ', SS_ROLE_TEXT, 0);
	grid_set(g, x, r.y, gl->pin, SS_ROLE_HIGHLIGHT, GRID_BOLD);
	x += 2;
	x += grid_puts(g, x, r.y, r.w - 2, tag, SS_ROLE_HIGHLIGHT, GRID_BOLD);
	if (run->tl == NULL) {
		grid_puts(g, x, r.y, r.x + r.w - x, "  waiting for the next run: change something or press r",
		          SS_ROLE_DIM, 0);
		return;
	}
	snprintf(buf, sizeof buf, "  makespan %s",
	         run->an != NULL ? units_time(run->an->makespan_ns, t, sizeof t) : "(running)");
	x += grid_puts(g, x, r.y, r.x + r.w - x, buf, SS_ROLE_TEXT, GRID_BOLD);
	if (other != NULL && other->an != NULL && run->an != NULL && other->an->makespan_ns > 0) {
		uint64_t a = other->an->makespan_ns, b = run->an->makespan_ns;

		snprintf(buf, sizeof buf, "  B-A %s%s (%+.1f%%)", b >= a ? "+" : "-",
		         units_time(b >= a ? b - a : a - b, t, sizeof t), ((double)b / (double)a - 1.0) * 100.0);
		x += grid_puts(g, x, r.y, r.x + r.w - x, buf, SS_ROLE_HIGHLIGHT, GRID_BOLD);
	}
	if (run->exp != NULL && other != NULL && other->exp != NULL) {
		/* B: only what differs from A, so that it is never cut off by the settings they share */
		if (experiment_changes(other->exp, run->exp, "A", buf, sizeof buf) == 0)
			snprintf(buf, sizeof buf, "the same settings as A");
		x += grid_puts(g, x, r.y, r.x + r.w - x, "  ", SS_ROLE_TEXT, 0);
		grid_puts(g, x, r.y, r.x + r.w - x, buf, SS_ROLE_TEXT, GRID_BOLD);
	} else if (run->exp != NULL) {
		experiment_describe(run->exp, buf, sizeof buf);
		x += grid_puts(g, x, r.y, r.x + r.w - x, "  ", SS_ROLE_DIM, 0);
		grid_puts(g, x, r.y, r.x + r.w - x, buf, SS_ROLE_DIM, 0);
	}
}

/* view_memory names the memory a copy or memset of rec moves from and to, as CUPTI's memory kinds do ("pinned ->
 * device", "device -> pageable", "device" for a memset): the host side from the record's flags, "host" when they do
 * not say. */
static void view_memory(const struct ss_record *rec, char *buf, size_t len)
{
	const char *host = rec->flags & SS_REC_PAGEABLE  ? "pageable"
	                   : rec->flags & SS_REC_PINNED  ? "pinned"
	                   : rec->flags & SS_REC_MANAGED ? "managed"
	                                                 : "host";
	const char *dev = rec->flags & SS_REC_MANAGED ? "managed" : "device";

	switch (rec->kind) {
	case SS_KIND_H2D:
		snprintf(buf, len, "%s -> device", host);
		break;
	case SS_KIND_D2H:
		snprintf(buf, len, "device -> %s", host);
		break;
	case SS_KIND_D2D:
		snprintf(buf, len, "%s -> %s", dev, dev);
		break;
	default:
		snprintf(buf, len, "%s", dev);
		break;
	}
}

int view_detail_lines(const struct ss_view_run *run, uint32_t r, char (*label)[12], char (*value)[64], int max)
{
	const struct ss_record *rec;
	const struct ss_launch *launch;
	const char *name;
	char t[32], d[32], mem[40];
	uint32_t api;
	int n = 0;
	bool copy;

	if (run->tl == NULL || run->lanes == NULL || r >= run->lanes->indexed)
		return 0;
	rec = &run->tl->rec[r];
	copy = rec->kind == SS_KIND_H2D || rec->kind == SS_KIND_D2H || rec->kind == SS_KIND_D2D ||
	       rec->kind == SS_KIND_MEMSET;
#define LINE(l, ...)                                                                                                   \
	do {                                                                                                           \
		if (n < max) {                                                                                         \
			snprintf(label[n], sizeof label[n], "%s", l);                                                  \
			snprintf(value[n], sizeof value[n], __VA_ARGS__);                                              \
			n++;                                                                                           \
		}                                                                                                      \
	} while (0)
	switch (rec->stream) {
	case SS_STREAM_HOST:
		if (rec->kind == SS_KIND_MARKER)
			LINE("stream", "NVTX range, host thread %u", rec->thread);
		else
			LINE("stream", "host thread %u", rec->thread);
		break;
	case SS_STREAM_LEGACY:
		LINE("stream", "legacy default stream (0)");
		break;
	case SS_STREAM_PER_THREAD:
		LINE("stream", "per-thread default stream");
		break;
	default:
		if (rec->stream >= 0) {
			const struct ss_stream_info *si = timeline_stream(run->tl, rec->stream);

			/* a program's own streams go by their id, as the lanes name them */
			if (run->tl->stream_ids && si != NULL && si->kind != SS_SKIND_UNKNOWN)
				LINE("stream", "Stream %u, %s (s%d)", rec->raw_stream,
				     timeline_stream_kind_name(si->kind), (int)rec->stream);
			else if (run->tl->stream_ids)
				LINE("stream", "Stream %u (s%d)", rec->raw_stream, (int)rec->stream);
			else if (si != NULL && si->kind != SS_SKIND_UNKNOWN)
				LINE("stream", "s%d (id %u) %s", (int)rec->stream, rec->raw_stream,
				     timeline_stream_kind_name(si->kind));
			else
				LINE("stream", "s%d (id %u)", (int)rec->stream, rec->raw_stream);
		} else
			LINE("stream", "other (id %u)", rec->raw_stream);
		break;
	}
	/* the device, on timelines of several; a peer copy's two ends, the far one also on that device's peer lane */
	if (rec->flags & SS_REC_PEER && rec->kind == SS_KIND_D2D)
		LINE("device", "GPU %d -> GPU %d (peer; also on GPU %u's peer lane)", record_peer_src(rec),
		     record_peer_dst(rec), (unsigned)rec->peer);
	else if (run->lanes->ndev > 1 && rec->stream != SS_STREAM_HOST)
		LINE("device", "GPU %u", (unsigned)rec->device);
	/* a copy's memory kinds ("H2D pinned -> device"), else the flags that apply */
	if (copy)
		view_memory(rec, mem, sizeof mem);
	else
		snprintf(mem, sizeof mem, "%s%s%s", rec->flags & SS_REC_PAGEABLE ? " pageable" : "",
		         rec->flags & SS_REC_PINNED ? " pinned" : "", rec->flags & SS_REC_MANAGED ? " managed" : "");
	LINE("engine", "%s%s%s%s", record_kind_name(rec->kind), copy ? " " : "", mem,
	     rec->flags & SS_REC_EVENT_TIMED ? " (timed by cudaEvents)" : "");
	LINE("start", "%s", units_time(rec->start, t, sizeof t));
	LINE("duration", "%s", units_time(rec->end - rec->start, t, sizeof t));
	/* a kernel whose trace has its launch: that in place of bytes moved, which a kernel has none of */
	launch = timeline_launch(run->tl, rec);
	if (launch != NULL) {
		LINE("launch", "grid %ux%ux%u block %ux%ux%u", launch->grid[0], launch->grid[1], launch->grid[2],
		     launch->block[0], launch->block[1], launch->block[2]);
		if (launch->flags & SS_LAUNCH_ATTRS)
			LINE("regs/smem", "%u/thread, smem %s + %s dyn", launch->registers,
			     units_bytes(launch->static_smem, t, sizeof t),
			     units_bytes(launch->dynamic_smem, d, sizeof d));
		else
			LINE("regs/smem", "-"); /* not known: the model, a trace without them */
	} else {
		LINE("bytes", "%s", copy && rec->bytes > 0 ? units_bytes(rec->bytes, t, sizeof t) : "-");
		LINE("bandwidth", "%s",
		     copy && rec->bytes > 0 ? units_rate(rec->bytes, rec->end - rec->start, t, sizeof t) : "-");
	}
	name = timeline_name(run->tl, rec->name);
	LINE("name", "%s", name[0] ? name : "-");
	/* a C++ kernel's demangled name: its template arguments and parameters (cut to the box) */
	if (launch != NULL && launch->full_name != 0 && launch->full_name != rec->name)
		LINE("full name", "%s", timeline_name(run->tl, launch->full_name));
	api = lanes_api_of(run->lanes, r);
	if (api != UINT32_MAX) {
		const char *an = timeline_name(run->tl, run->tl->rec[api].name);

		LINE("API call", "%s at %s (%s)", an[0] ? an : "?", units_time(run->tl->rec[api].start, t, sizeof t),
		     units_time(run->tl->rec[api].end - run->tl->rec[api].start, d, sizeof d));
	} else {
		LINE("API call", "%s", rec->correlation ? "-" : "- (no correlation id)");
	}
	if (rec->correlation)
		LINE("corr id", "%u", rec->correlation);
#undef LINE
	return n;
}

/* view_detail draws the selection's box, in the corner that does not hide the selected lane. */
static void view_detail(struct ss_grid *g, const struct ss_layout *l, const struct ss_view *v)
{
	char label[12][12], value[12][64];
	int n = view_detail_lines(&v->run, v->gv.sel, label, value, 12), lane, top, y;
	struct ss_rect r;
	const struct ss_glyphs *gl = v->gl;
	const struct ss_rect *plot = v->pinned.tl != NULL ? &l->plot[1] : &l->plot[0];

	if (n == 0)
		return;
	lane = lanes_find(v->run.lanes, v->gv.compact, v->gv.sel);
	top = v->gv.top;
	y = plot->y + lane - top;
	r = l->detail[0];
	if (y >= r.y && y < r.y + r.h)
		r = l->detail[1];
	if (r.h > n + 2)
		r.h = n + 2;
	if (r.w < 20 || r.h < 3)
		return;
	if (r.y + r.h > l->detail[1].y + l->detail[1].h)
		r.y = l->detail[1].y + l->detail[1].h - r.h;
	grid_box(g, r, gl->box, SS_ROLE_HIGHLIGHT);
	grid_puts(g, r.x + 2, r.y, r.w - 4, " selected ", SS_ROLE_HIGHLIGHT, GRID_BOLD);
	for (int i = 0; i < n && i < r.h - 2; i++) {
		grid_puts(g, r.x + 2, r.y + 1 + i, 10, label[i], SS_ROLE_DIM, 0);
		grid_puts(g, r.x + 12, r.y + 1 + i, r.w - 14, value[i],
		          i == 1 ? lanes_role(&v->run.tl->rec[v->gv.sel]) : SS_ROLE_TEXT, i == 1 ? GRID_BOLD : 0);
	}
}

/* One line of the help overlay: a key and what it does, or a group title (bold). */
struct view_help_line {
	const char *key, *text;
	int role;
	unsigned attr;
};

/* view_help draws the help overlay: the key table by group, in two columns when one does not fit. */
static void view_help(struct ss_grid *g, struct ss_rect area, const struct ss_view *v)
{
	int n, nlines = 0, ncol, per, colw;
	const struct ss_key *k = keys_table(&n);
	struct view_help_line line[96];
	struct ss_rect r;
	int prev = -1;
	const char *foot = v->source != NULL || v->no_experiment
	                       ? "experiment keys are off here  -  ? the legend, any key closes"
	                       : "? again: what the lanes, colours and stats mean  -  any key closes";

	for (int i = 0; i < n && nlines < 90; i++) {
		if (k[i].name == NULL)
			continue;
		if ((int)k[i].group != prev) {
			line[nlines++] =
			    (struct view_help_line){keys_group_name(k[i].group), "", SS_ROLE_HIGHLIGHT, GRID_BOLD};
			prev = (int)k[i].group;
		}
		line[nlines++] = (struct view_help_line){
		    k[i].name, k[i].help,
		    (v->source != NULL || v->no_experiment) && k[i].experiment ? SS_ROLE_DIM : SS_ROLE_TEXT, 0};
	}
	line[nlines++] = (struct view_help_line){"Mouse", keys_mouse(), SS_ROLE_TEXT, 0};
	ncol = nlines + 4 <= area.h ? 1 : 2;
	per = (nlines + ncol - 1) / ncol;
	colw = ncol == 1 ? 48 : (area.w - 4) / 2;
	r.w = ncol * colw + 4;
	if (r.w < grid_text_width(foot) + 4) /* the footer inside the box, whole */
		r.w = grid_text_width(foot) + 4;
	if (r.w > area.w)
		r.w = area.w;
	r.h = per + 4 <= area.h ? per + 4 : area.h;
	r.x = area.x + (area.w - r.w) / 2;
	r.y = area.y + (area.h - r.h) / 2;
	grid_box(g, r, v->gl->box, SS_ROLE_AXIS);
	grid_puts(g, r.x + 2, r.y, r.w - 4, " streamscope keys ", SS_ROLE_TEXT, GRID_BOLD);
	for (int i = 0; i < nlines; i++) {
		int x = r.x + 2 + (i / per) * colw, y = r.y + 1 + i % per;

		if (y >= r.y + r.h - 2)
			continue;
		if (line[i].attr & GRID_BOLD) {
			grid_puts(g, x, y, colw - 1, line[i].key, line[i].role, line[i].attr);
			continue;
		}
		grid_puts(g, x, y, 10, line[i].key, SS_ROLE_HIGHLIGHT, 0);
		grid_puts(g, x + 10, y, colw - 11, line[i].text, line[i].role, 0);
	}
	view_center(g, (struct ss_rect){r.x + 1, r.y, r.w - 2, r.h}, r.y + r.h - 2, foot, SS_ROLE_DIM, 0);
}

/* One line of the legend: a name (drawn in role, or a swatch of it when swatch) and what it means (at most 24
 * columns: two columns fit 80). */
struct view_legend_line {
	const char *name, *text;
	int role;
	bool swatch;
};

/* The legend's left column: the lanes, their tags and colours. */
static const struct view_legend_line view_legend_lanes[] = {
    {"Lanes", NULL, SS_ROLE_HIGHLIGHT, false},
    {"host", "API calls, sync waits", SS_ROLE_TEXT, false},
    {"host t812", "a lane per OS thread", SS_ROLE_TEXT, false},
    {"H2D", "copy host -> device", SS_ROLE_H2D, true},
    {"KER", "kernel", SS_ROLE_KERNEL, true},
    {"D2H", "copy device -> host", SS_ROLE_D2H, true},
    {"memset", "memset, D2D copy", SS_ROLE_MEMSET, true},
    {"API", "host API call", SS_ROLE_API, true},
    {"sync", "host waiting (sync)", SS_ROLE_SYNC, true},
    {"legacy", "legacy default stream", SS_ROLE_DEFAULT_STREAM, true},
    {"NVTX", "NVTX range of a thread", SS_ROLE_MARKER, true},
    {"blk / nb", "blocking / non-blocking", SS_ROLE_TEXT, false},
    {"ptds", "per-thread default", SS_ROLE_TEXT, false},
    {"13 blk", "stream by its CUPTI id", SS_ROLE_TEXT, false},
    {"c", "compact: row per stream", SS_ROLE_TEXT, false},
};

/* The right column: the stats panel's items. */
static const struct view_legend_line view_legend_stats[] = {
    {"Stats", NULL, SS_ROLE_HIGHLIGHT, false},
    {"makespan", "first to last GPU work", SS_ROLE_TEXT, false},
    {"speedup", "serial time / makespan", SS_ROLE_TEXT, false},
    {"bound", "ideal n-chunk pipeline", SS_ROLE_TEXT, false},
    {"gap", "makespan over bound", SS_ROLE_TEXT, false},
    {"H2D util", "engine busy / makespan", SS_ROLE_TEXT, false},
    {"overlap", "2+ engines busy / span", SS_ROLE_TEXT, false},
    {"staging", "pageable host staging", SS_ROLE_TEXT, false},
    {"dropped", "records CUPTI lost", SS_ROLE_TEXT, false},
    {"trace ovh", "traced vs untraced", SS_ROLE_TEXT, false},
    {"model", "model's makespan (GPU)", SS_ROLE_TEXT, false},
    {"B / A", "B's makespan over A's", SS_ROLE_TEXT, false},
    {"claims", "documents' claims held", SS_ROLE_TEXT, false},
};

/* view_legend_column draws one column of the legend from row y of box r, at x, colw wide. */
static void view_legend_column(struct ss_grid *g, struct ss_rect r, int x, int colw,
                               const struct view_legend_line *line, int n, const struct ss_glyphs *gl)
{
	for (int i = 0; i < n && r.y + 1 + i < r.y + r.h - 2; i++) {
		int y = r.y + 1 + i;

		if (line[i].text == NULL) {
			grid_puts(g, x, y, colw - 1, line[i].name, line[i].role, GRID_BOLD);
			continue;
		}
		if (line[i].swatch) {
			for (int k = 0; k < 3; k++)
				grid_set(g, x + k, y, glyphs_bar(gl, 8, line[i].role), line[i].role, 0);
			grid_puts(g, x + 4, y, 7, line[i].name, line[i].role, GRID_BOLD);
		} else {
			grid_puts(g, x, y, 11, line[i].name, SS_ROLE_HIGHLIGHT, 0);
		}
		grid_puts(g, x + 11, y, colw - 12, line[i].text, SS_ROLE_TEXT, 0);
	}
}

/* view_legend draws the help's second page: what the lanes, their tags, the colours and the stats mean. */
static void view_legend(struct ss_grid *g, struct ss_rect area, const struct ss_view *v)
{
	int nl = (int)(sizeof view_legend_lanes / sizeof *view_legend_lanes);
	int ns = (int)(sizeof view_legend_stats / sizeof *view_legend_stats);
	int rows = (nl > ns ? nl : ns) + 4, colw = (area.w - 4) / 2;
	struct ss_rect r = area;

	if (r.h > rows)
		r.h = rows;
	r.y = area.y + (area.h - r.h) / 2;
	grid_box(g, r, v->gl->box, SS_ROLE_AXIS);
	grid_puts(g, r.x + 2, r.y, r.w - 4, " streamscope legend ", SS_ROLE_TEXT, GRID_BOLD);
	view_legend_column(g, r, r.x + 2, colw, view_legend_lanes, nl, v->gl);
	view_legend_column(g, r, r.x + 2 + colw, colw, view_legend_stats, ns, v->gl);
	view_center(g, r, r.y + r.h - 2, "any key closes", SS_ROLE_DIM, 0);
}

/* view_lanes is the index the window is over: the shown run's, else the pinned one's (NULL when none). */
static const struct ss_lanes *view_lanes(const struct ss_view *v)
{
	return v->run.lanes != NULL ? v->run.lanes : v->pinned.lanes;
}

/* view_outside tells which ends of the timeline lie outside the window: *before, *after; and whether the GPU's
 * work is all inside it (*work_in). False when there is no timeline. */
static bool view_outside(const struct ss_view *v, bool *before, bool *after, bool *work_in)
{
	const struct ss_lanes *l = view_lanes(v);
	double w0 = v->gv.t0, w1 = v->gv.t0 + v->gv.span;

	if (l == NULL || !l->have_span || !(v->gv.span > 0))
		return false;
	*before = (double)l->t0 < w0;
	*after = (double)l->t1 > w1;
	*work_in = !l->have_gpu_span || ((double)l->gpu_t0 >= w0 && (double)l->gpu_t1 <= w1);
	return true;
}

/* view_summary draws the summary panel: the run's GPU time by kernel name, then by copy kind, as `nsys stats`
 * reports them (cuda_gpu_kern_sum, cuda_gpu_mem_time_sum), as many rows of each as fit. */
static void view_summary(struct ss_grid *g, struct ss_rect area, const struct ss_view *v)
{
	const struct ss_summary *s = v->summary;
	const struct ss_timeline *tl = v->run.tl;
	char a[16], b[16], c[16], d[16], e[16], f[16];
	struct ss_rect r = area;
	int y, rows, kr, cr;

	if (tl == NULL)
		return;
	rows = r.h - 7; /* box, two headers, a blank, the footer */
	cr = (int)s->ncopy < rows / 2 ? (int)s->ncopy : rows / 2;
	kr = rows - cr < (int)s->nkern ? rows - cr : (int)s->nkern;
	if (cr < rows - kr && (int)s->ncopy > cr)
		cr = rows - kr < (int)s->ncopy ? rows - kr : (int)s->ncopy;
	r.h = kr + cr + 7 < area.h ? kr + cr + 7 : area.h;
	r.y = area.y + (area.h - r.h) / 2;
	grid_box(g, r, v->gl->box, SS_ROLE_AXIS);
	grid_puts(g, r.x + 2, r.y, r.w - 4, " GPU time by kernel and by copy (as nsys stats) ", SS_ROLE_TEXT,
	          GRID_BOLD);
	y = r.y + 1;
	grid_printf(g, r.x + 2, y++, r.w - 4, SS_ROLE_HIGHLIGHT, GRID_BOLD, "%6s %9s %7s %9s %9s %9s %9s  %s", "time%",
	            "total", "count", "avg", "med", "min", "max", s->nkern ? "kernel" : "kernel (none)");
	for (int i = 0; i < kr; i++, y++) {
		const struct ss_summary_row *k = &s->kern[i];

		grid_printf(g, r.x + 2, y, r.w - 4, SS_ROLE_KERNEL, 0, "%5.1f%% %9s %7llu %9s %9s %9s %9s  %s",
		            k->percent, units_time(k->total_ns, a, sizeof a), (unsigned long long)k->count,
		            units_time((uint64_t)k->avg_ns, b, sizeof b),
		            units_time((uint64_t)k->median_ns, c, sizeof c), units_time(k->min_ns, d, sizeof d),
		            units_time(k->max_ns, e, sizeof e), summary_row_name(tl, k));
	}
	y++;
	grid_printf(g, r.x + 2, y++, r.w - 4, SS_ROLE_HIGHLIGHT, GRID_BOLD, "%6s %9s %7s %9s %9s %9s %9s  %s", "time%",
	            "total", "count", "avg", "bytes", "GB/s", "max", s->ncopy ? "copy" : "copy (none)");
	for (int i = 0; i < cr; i++, y++) {
		const struct ss_summary_row *k = &s->copy[i];

		grid_printf(g, r.x + 2, y, r.w - 4,
		            k->kind == SS_KIND_D2H   ? SS_ROLE_D2H
		            : k->kind == SS_KIND_H2D ? SS_ROLE_H2D
		                                     : SS_ROLE_MEMSET,
		            0, "%5.1f%% %9s %7llu %9s %9s %9.1f %9s  %s", k->percent,
		            units_time(k->total_ns, a, sizeof a), (unsigned long long)k->count,
		            units_time((uint64_t)k->avg_ns, b, sizeof b), units_bytes(k->bytes, c, sizeof c),
		            summary_bandwidth(k), units_time(k->max_ns, f, sizeof f), summary_row_name(tl, k));
	}
	view_center(g, r, r.y + r.h - 2,
	            kr < (int)s->nkern || cr < (int)s->ncopy ? "more rows: streamscope stats FILE  -  any key closes"
	                                                     : "streamscope stats FILE prints it  -  any key closes",
	            SS_ROLE_DIM, 0);
}

/* view_status draws the last row: a message, or what part of the timeline is shown; then the main keys. */
static void view_status(struct ss_grid *g, struct ss_rect r, const struct ss_view *v)
{
	char keys[160], part[96], a[24], b[24];
	int x = r.x;
	bool before, after, work_in;

	grid_fill(g, r, ' ', SS_ROLE_TEXT, GRID_REVERSE);
	if (v->message != NULL && v->message[0]) {
		x += grid_puts(g, x, r.y, r.w, v->message, v->message_role, GRID_REVERSE | GRID_BOLD);
		x += 2;
	} else if (v->sweep == NULL && view_outside(v, &before, &after, &work_in) && (before || after)) {
		const struct ss_lanes *l = view_lanes(v);

		snprintf(part, sizeof part, "showing %s of %s: %s", units_time((uint64_t)v->gv.span, a, sizeof a),
		         units_time(l->t1 - l->t0, b, sizeof b), work_in ? "F fits all" : "f fits");
		x += grid_puts(g, x, r.y, r.w, part, SS_ROLE_HIGHLIGHT, GRID_REVERSE | GRID_BOLD);
		x += 2;
	}
	/* as many of the main keys as fit, the most important first */
	snprintf(keys, sizeof keys, "%s",
	         v->sweep != NULL ? keys_status_sweep() : keys_status(v->source != NULL || v->no_experiment));
	while (x + grid_text_width(keys) > r.x + r.w) {
		char *cut = NULL;

		/* items are separated by two blanks: drop the last one */
		for (char *p = strstr(keys, "  "); p != NULL; p = strstr(p + 2, "  "))
			cut = p;
		if (cut == NULL) {
			keys[0] = '\0';
			break;
		}
		*cut = '\0';
	}
	if (keys[0] != '\0')
		grid_puts(g, r.x + r.w - grid_text_width(keys), r.y, -1, keys, SS_ROLE_TEXT, GRID_REVERSE);
}

/* view_gantt draws one Gantt (labels and bars, records mark[0..nmark) marked) or says why there is none. */
static void view_gantt(struct ss_grid *g, struct ss_rect labels, struct ss_rect plot, const struct ss_view_run *run,
                       const struct ss_gantt_view *gv, const struct ss_view *v, const size_t *mark, size_t nmark)
{
	if (run->tl == NULL || run->lanes == NULL) {
		char line[8][LISTBOX_LINE];
		int n = 0, y = plot.y + plot.h / 2;

		/* a failure's whole text, which the status row may cut, wrapped above the hint */
		if (!v->running && v->message != NULL && v->message[0] && v->message_role == SS_ROLE_WARN) {
			n = listbox_wrap(v->message, plot.w - 4, line, 8);
			n = n < 8 ? n : 8;
			n = n < plot.h - 1 ? n : plot.h - 1;
			y = plot.y + (plot.h - n - 1) / 2;
			for (int i = 0; i < n; i++)
				view_center(g, plot, y + i, line[i], SS_ROLE_WARN, 0);
			y += n;
		}
		view_center(g, plot, y,
		            v->running ? "waiting for the first records..." : "nothing to show: press r to run",
		            SS_ROLE_DIM, 0);
		return;
	}
	gantt_draw_marked(g, labels, plot, run->lanes, gv, v->gl, mark, nmark);
}

void view_draw(struct ss_grid *g, const struct ss_view *v)
{
	const size_t *mark = NULL; /* the shown run's records to mark: the selected insight's evidence */
	size_t nmark = 0;
	struct ss_layout l;
	char *cause = NULL;

	grid_clear(g);
	if (view_layout(v, g->w, g->h, &l, &cause) != 0) {
		struct ss_rect all = {0, 0, g->w, g->h};

		view_center(g, all, g->h / 2, cause, SS_ROLE_WARN, GRID_BOLD);
		if (g->h > 1)
			view_center(g, all, g->h / 2 + 1, "enlarge the window, or q to quit", SS_ROLE_DIM, 0);
		free(cause);
		return;
	}
	view_header(g, l.header, v);
	if (v->sweep == NULL && v->insights != NULL) {
		/* the selected insight's evidence, marked on the shown run */
		const struct ss_insight *x =
		    insightbox_selected(&(struct ss_insightbox){true, v->insights->cur}, v->insights->in);

		mark = x != NULL ? x->rec : NULL;
		nmark = x == NULL ? 0 : x->nrec < SS_INSIGHT_MAX_RECS ? x->nrec : SS_INSIGHT_MAX_RECS;
	}
	if (v->sweep != NULL) {
		sweepview_draw(g, l.chart, l.stats, l.stats_side, v->sweep, v->sweep_running, v->sweep_cursor, v->gl);
		if (v->claims != NULL) /* in the table's place */
			claimsbox_draw(g, l.panel, v->claims, v->gl);
	} else {
		if (v->pinned.tl != NULL) {
			struct ss_gantt_view a = v->gv;

			a.sel = UINT32_MAX;
			view_title(g, l.title[0], "A pinned", &v->pinned, NULL, v->gl);
			view_gantt(g, l.labels[0], l.plot[0], &v->pinned, &a, v, NULL, 0);
			view_title(g, l.title[1], "B", &v->run, &v->pinned, v->gl);
			view_gantt(g, l.labels[1], l.plot[1], &v->run, &v->gv, v, mark, nmark);
		} else {
			view_gantt(g, l.labels[0], l.plot[0], &v->run, &v->gv, v, mark, nmark);
		}
		axis_draw(g, l.axis, v->gv.t0, v->gv.span, v->gl);
		{
			bool before, after, work_in;

			/* the axis' ends say where the timeline goes on beyond the window */
			if (view_outside(v, &before, &after, &work_in)) {
				if (before)
					grid_set(g, l.axis.x, l.axis.y, v->gl->left, SS_ROLE_HIGHLIGHT, GRID_BOLD);
				if (after)
					grid_set(g, l.axis.x + l.axis.w - 1, l.axis.y, v->gl->right, SS_ROLE_HIGHLIGHT,
					         GRID_BOLD);
			}
		}
		grid_fill(g, (struct ss_rect){l.corner.x, l.corner.y, l.corner.w, 1}, v->gl->axis, SS_ROLE_AXIS, 0);
		grid_set(g, l.corner.x + l.corner.w - 1, l.corner.y, v->gl->box[4], SS_ROLE_AXIS, 0);
		grid_printf(g, l.corner.x, l.corner.y + 1, l.corner.w - 1, SS_ROLE_DIM, 0, "%*s", l.corner.w - 2,
		            "time");
		statsview_draw(g, l.stats, l.stats_side, &v->stats, v->gl);
		if (v->claims != NULL)
			claimsbox_draw(g, l.panel, v->claims, v->gl);
		else if (v->advice != NULL)
			advicebox_draw(g, l.panel, v->advice, v->gl);
		else if (v->insights != NULL)
			insightbox_draw(g, l.panel, v->insights, v->gl);
		if (v->gv.sel != UINT32_MAX)
			view_detail(g, &l, v);
	}
	if (v->summary != NULL && v->sweep == NULL)
		view_summary(g, l.help, v);
	if (v->help == 2)
		view_legend(g, l.help, v);
	else if (v->help)
		view_help(g, l.help, v);
	view_status(g, l.status, v);
}
