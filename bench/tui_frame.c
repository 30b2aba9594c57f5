/* tui_frame.c: the TUI's frame time against the number of intervals, and the memory the Gantt index costs.
 *
 * For timelines of 10k, 100k and 1M intervals (add 10M with -x), 8 streams of H2D -> KER -> D2H plus the host's
 * calls, it prints: the time to index the timeline, the bytes per interval (the 48-byte record plus the index),
 * and the time of a whole frame at 200x60 (layout, header, Gantt, axis, stats into the cell grid) when fitted,
 * zoomed in 100x and while panning (the fastest of 9 batches, so that the machine's other work does not count). With -t
 * it also sends every frame through curses to a pseudo-terminal (the real output path, diff-only), panning so that most
 * bar cells change. Run by hand; it passes or fails nothing.
 *
 * usage: tui_frame [-x] [-t] [-n FRAMES] */
#include <fcntl.h>
#include <pthread.h>
#include <pty.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/analysis.h"
#include "core/experiment.h"
#include "core/timeline.h"
#include "tui/gantt.h"
#include "tui/lanes.h"
#include "tui/term.h"
#include "tui/view.h"

#define COLS 200
#define ROWS 60

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* make_timeline fills t with about n intervals: chunks of (3 API calls, H2D, KER, D2H) over 8 streams, copies
 * sharing one engine per direction, kernels overlapping across streams, plus one long sync wait. */
static void make_timeline(struct ss_timeline *t, size_t n)
{
	size_t chunks = n / 6;
	uint64_t h = 0, d = 0;
	uint32_t kname = 0, names[3];

	timeline_init(t);
	t->nstreams = 8;
	t->modelled = true;
	snprintf(t->backend, sizeof t->backend, "model");
	snprintf(t->device, sizeof t->device, "MODEL (benchmark)");
	kname = timeline_intern(t, "add_kernel");
	names[0] = timeline_intern(t, "cudaMemcpyAsync");
	names[1] = timeline_intern(t, "cudaLaunchKernel");
	names[2] = names[0];
	for (size_t c = 0; c < chunks; c++) {
		struct ss_record r;
		uint64_t host = c * 3000, k0;

		memset(&r, 0, sizeof r);
		for (int a = 0; a < 3; a++) {
			r.kind = SS_KIND_API;
			r.stream = SS_STREAM_HOST;
			r.start = host + (uint64_t)a * 1000;
			r.end = r.start + 800;
			r.correlation = (uint32_t)(c * 3 + (size_t)a + 1);
			r.name = names[a];
			timeline_add(t, &r);
		}
		r.stream = (int32_t)(c % 8);
		r.kind = SS_KIND_H2D;
		r.name = 0;
		r.start = h > host + 900 ? h : host + 900;
		r.end = r.start + 2500;
		r.bytes = 1 << 20;
		r.correlation = (uint32_t)(c * 3 + 1);
		h = r.end;
		timeline_add(t, &r);
		k0 = r.end;
		r.kind = SS_KIND_KERNEL;
		r.name = kname;
		r.bytes = 0;
		r.start = k0 + 100;
		r.end = r.start + 9000;
		r.correlation = (uint32_t)(c * 3 + 2);
		timeline_add(t, &r);
		r.kind = SS_KIND_D2H;
		r.name = 0;
		r.start = d > r.end + 100 ? d : r.end + 100;
		r.end = r.start + 2500;
		r.bytes = 1 << 20;
		r.correlation = (uint32_t)(c * 3 + 3);
		d = r.end;
		timeline_add(t, &r);
	}
	{
		struct ss_record r;

		memset(&r, 0, sizeof r);
		r.kind = SS_KIND_SYNC;
		r.stream = SS_STREAM_HOST;
		r.start = chunks * 3000;
		r.end = d;
		timeline_add(t, &r);
	}
	timeline_sort(t);
}

/* The pseudo-terminal's reader: drains what curses writes, as a terminal would. */
static void *drain(void *arg)
{
	int fd = *(int *)arg;
	char buf[65536];

	while (read(fd, buf, sizeof buf) > 0)
		;
	return NULL;
}

/* A frame source: a timeline, its index and analysis, and the view of it. */
struct bench {
	struct ss_timeline t;
	struct ss_lanes l;
	struct ss_analysis a;
	struct ss_experiment e;
	struct ss_view v;
	struct ss_layout lay;
	struct ss_grid g;
	double index_ms;
};

static void bench_init(struct bench *b, size_t n)
{
	char *cause = NULL;
	double t0;

	memset(b, 0, sizeof *b);
	make_timeline(&b->t, n);
	t0 = now_ms();
	lanes_init(&b->l);
	lanes_build(&b->l, &b->t);
	b->index_ms = now_ms() - t0;
	analysis_timeline(&b->t, &b->a);
	analysis_observer(&b->a, NULL);
	experiment_preset(&b->e, SS_PRESET_KERNEL_TRANSFER);
	b->v.gl = glyphs_get(false);
	b->v.device = b->t.device;
	b->v.modelled = true;
	b->v.backend = "model";
	b->v.run = (struct ss_view_run){&b->t, &b->l, &b->a, &b->e};
	b->v.stats.an = &b->a;
	b->v.stats.have_dropped = true;
	b->v.gv.sel = UINT32_MAX;
	grid_init(&b->g, COLS, ROWS);
	if (view_layout(&b->v, COLS, ROWS, &b->lay, &cause) != 0) {
		fprintf(stderr, "tui_frame: %s\n", cause);
		exit(1);
	}
	gantt_fit(&b->l, b->lay.plot[0].w, &b->v.gv.t0, &b->v.gv.span);
}

static void bench_free(struct bench *b)
{
	grid_free(&b->g);
	lanes_free(&b->l);
	timeline_free(&b->t);
}

/* frames draws nframes frames (through term when not NULL), the window moved by step each frame, in 9 batches;
 * returns the mean milliseconds per frame of the fastest batch (the machine's other work only slows batches). */
static double frames(struct bench *b, struct ss_term *term, int nframes, double zoom, double step)
{
	double t0, span, best = 1e30;
	int per = nframes / 9 > 0 ? nframes / 9 : 1;

	gantt_fit(&b->l, b->lay.plot[0].w, &t0, &span);
	b->v.gv.span = span / zoom;
	t0 = t0 + span / 2 - b->v.gv.span / 2;
	b->v.gv.t0 = t0;
	for (int batch = 0; batch < 9; batch++) {
		double start = now_ms(), ms;

		for (int i = 0; i < per; i++) {
			/* panning sweeps a quarter of the run to the right and starts again: always inside the run */
			b->v.gv.t0 = t0 + step * b->v.gv.span * (i % 25);
			view_draw(&b->g, &b->v);
			if (term != NULL)
				term_draw(term, &b->g);
		}
		ms = (now_ms() - start) / per;
		if (ms < best)
			best = ms;
	}
	return best;
}

int main(int argc, char **argv)
{
	size_t sizes[4] = {10000, 100000, 1000000, 10000000};
	int nsizes = 3, nframes = 450, saved = -1, master = -1, slave = -1;
	bool tty = false;
	double base[3] = {0}, ratio_fit, ratio_zoom, ratio_pan;
	struct ss_term term;
	pthread_t reader;
	FILE *out = stdout;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-x") == 0)
			nsizes = 4;
		else if (strcmp(argv[i], "-t") == 0)
			tty = true;
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			nframes = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: tui_frame [-x] [-t] [-n FRAMES]\n");
			return 2;
		}
	}
	if (tty) {
		struct winsize ws = {.ws_row = ROWS, .ws_col = COLS};
		char *cause = NULL;

		if (openpty(&master, &slave, NULL, NULL, &ws) != 0) {
			perror("openpty");
			return 1;
		}
		pthread_create(&reader, NULL, drain, &master);
		fflush(stdout);
		saved = dup(STDOUT_FILENO);
		out = fdopen(saved, "w");
		dup2(slave, STDIN_FILENO);
		dup2(slave, STDOUT_FILENO);
		setenv("TERM", "xterm-256color", 1);
		setenv("LANG", "C.UTF-8", 1);
		if (term_start(&term, false, &cause) != 0) {
			fprintf(out, "tui_frame: %s\n", cause);
			return 1;
		}
	}
	fprintf(out, "TUI frame at %dx%d, ms per frame (mean of the fastest of 9 batches of %d)%s\n", COLS, ROWS,
	        nframes / 9, tty ? " (through curses to a pseudo-terminal)" : " (layout + cells, no terminal)");
	fprintf(out, "%10s %10s %10s %10s %10s %10s\n", "intervals", "index ms", "B/interval", "fit ms", "zoom100 ms",
	        "pan ms");
	for (int s = 0; s < nsizes; s++) {
		struct bench b;
		double fit, zoom, pan;

		bench_init(&b, sizes[s]);
		frames(&b, tty ? &term : NULL, 5, 1, 0); /* warm caches and the terminal */
		fit = frames(&b, tty ? &term : NULL, nframes, 1, 0);
		zoom = frames(&b, tty ? &term : NULL, nframes, 100, 0);
		pan = frames(&b, tty ? &term : NULL, nframes, 4, 0.01);
		fprintf(out, "%10zu %10.1f %10.2f %10.3f %10.3f %10.3f\n", b.t.n, b.index_ms,
		        48.0 + (double)b.l.bytes / (double)b.t.n, fit, zoom, pan);
		if (s == 0) {
			base[0] = fit;
			base[1] = zoom;
			base[2] = pan;
		}
		if (s == 2) {
			ratio_fit = fit / base[0];
			ratio_zoom = zoom / base[1];
			ratio_pan = pan / base[2];
			fprintf(out,
			        "1M / 10k frame time: fit %.2fx, zoom %.2fx, pan %.2fx (goal: 1M <= 5 ms and <= 2x)\n",
			        ratio_fit, ratio_zoom, ratio_pan);
		}
		bench_free(&b);
	}
	if (tty) {
		term_stop(&term);
		close(slave);
		close(STDIN_FILENO);
		close(STDOUT_FILENO);
		close(master);
	}
	fflush(out);
	return 0;
}
