/* e2e_tui.c: end-to-end tests of the TUI: the real streamscope binary in a pseudo-terminal, its screen read back
 * through libvterm. Every wait is "until the screen shows X and then stays quiet", never a fixed sleep.
 *
 * usage: e2e_tui STREAMSCOPE [SCENARIO]   (no scenario: all of them) */
/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vterm.h>

#include "e2e.h"

/* e2e_gantt_rows copies the rows of the Gantt (those with a lane label and a bar separator) into one string. */
static void e2e_gantt_rows(struct e2e *t, char *out, size_t len)
{
	char row[4096];

	out[0] = '\0';
	for (int y = 2; y < t->rows; y++) {
		e2e_row(t, y, row, sizeof row);
		if (row[0] == 's' && strstr(row, "\xe2\x94\x82") != NULL) /* "s3 ... │" */
			strncat(out, row, len - strlen(out) - 2), strcat(out, "\n");
	}
}

/* The header names the model, the lanes fill in, the stats show numbers, q restores the terminal. */
static void test_start(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	int x = 0, y;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	assert_true(t.altscreen);
	assert_false(t.cursor_visible);
	assert_int_equal(e2e_find(&t, "streamscope", 0, NULL), 0);
	assert_int_equal(e2e_find(&t, "MODEL", 0, NULL), 0);
	assert_int_equal(e2e_find(&t, "depth-first", 0, NULL), 1);
	assert_true(e2e_find(&t, "s0 blk H2D", 0, NULL) > 1);
	assert_true(e2e_find(&t, "s7 blk H2D", 0, NULL) > 1);
	/* the one-stream baseline ran: a speedup, not "-" */
	y = e2e_find(&t, "speedup", 0, &x);
	{
		char row[4096];

		e2e_row(&t, y, row, sizeof row);
		assert_non_null(strstr(row + x, "x"));
	}
	/* the H2D lane of s0 has green bars (xterm 34), its KER lane blue ones (33) */
	{
		int yh = e2e_find(&t, "s0 blk H2D", 0, NULL), found_h = 0, found_k = 0;

		for (int c = 11; c < 80; c++) {
			found_h |= e2e_char(&t, c, yh) == 0x2588 && e2e_fg(&t, c, yh) == 34;
			found_k |= e2e_char(&t, c, yh + 1) == 0x2588 && e2e_fg(&t, c, yh + 1) == 33;
		}
		assert_true(found_h);
		assert_true(found_k);
	}
	/* the status line shows the main keys, the axis a unit */
	assert_int_equal(e2e_find(&t, "q quit", 0, NULL), t.rows - 1);
	assert_true(e2e_find(&t, " us", 30, NULL) > 30 || e2e_find(&t, " ms", 30, NULL) > 30);
	e2e_quit(&t);
	e2e_free(&t);
}

/* o toggles the issue order: the header says breadth-first and, with one hardware queue, the lanes change (hyperq:
 * its dependent kernels hold the one queue depth-first; copies have queues of their own, as on the H200). */
static void test_order(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "hyperq", "--connections", "1", NULL};
	char before[16384], after[16384];

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	assert_int_equal(e2e_find(&t, "depth-first", 0, NULL), 1);
	e2e_gantt_rows(&t, before, sizeof before);
	assert_true(strlen(before) > 0);
	e2e_keys(&t, "o");
	e2e_wait(&t, "breadth-first");
	e2e_wait_gone(&t, "next:");
	e2e_settle(&t);
	assert_int_equal(e2e_find(&t, "breadth-first", 0, NULL), 1);
	assert_int_equal(e2e_find(&t, "depth-first", 0, NULL), -1);
	e2e_gantt_rows(&t, after, sizeof after);
	assert_true(strlen(after) > 0);
	assert_string_not_equal(before, after);
	/* and back */
	e2e_keys(&t, "o");
	e2e_wait(&t, "depth-first");
	e2e_wait_gone(&t, "next:");
	e2e_quit(&t);
	e2e_free(&t);
}

/* v cycles prefetch events auto, on, off (a capture option the CUDA backend uses; the model shows prefetches either
 * way): the header says which, and what auto came to (on at the preset's 8 streams on 8 queues, off once u takes
 * the queues down to 1); a prefetch selected on its H2D lane is named as one. */
static void test_prefetch(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "managed", NULL};

	(void)state;
	e2e_start(&t, 132, 40, args, NULL); /* wide enough for the whole experiment line */
	e2e_settle(&t);
	assert_int_equal(e2e_find(&t, "managed-prefetch", 0, NULL), 1);
	assert_int_equal(e2e_find(&t, "(prefetch events auto: on)", 0, NULL), 1);
	e2e_keys(&t, "v");
	e2e_wait(&t, "(prefetch events on)");
	e2e_wait_gone(&t, "next:");
	e2e_settle(&t);
	assert_int_equal(e2e_find(&t, "(prefetch events on)", 0, NULL), 1);
	/* the first record of s0's H2D lane is the first prefetch */
	e2e_keys(&t, "\t");
	e2e_wait(&t, "selected");
	e2e_keys(&t, "j");
	e2e_wait(&t, "Prefetch HtoD");
	e2e_keys(&t, "\x1b");
	e2e_wait_gone(&t, "Prefetch HtoD");
	e2e_keys(&t, "v");
	e2e_wait(&t, "(prefetch events off)");
	e2e_wait_gone(&t, "next:");
	e2e_keys(&t, "v");
	e2e_wait(&t, "(prefetch events auto: on)");
	e2e_wait_gone(&t, "next:");
	/* u cycles the hardware queues 8 -> 16 -> 32 -> 1: auto follows */
	e2e_keys(&t, "u");
	e2e_wait(&t, "16 queues");
	e2e_wait_gone(&t, "next:");
	e2e_keys(&t, "u");
	e2e_wait(&t, "32 queues");
	e2e_wait_gone(&t, "next:");
	e2e_keys(&t, "u");
	e2e_wait(&t, "(prefetch events auto: off)");
	assert_true(e2e_find(&t, "1 queue ", 0, NULL) == 1 || e2e_find(&t, "1 queue", 0, NULL) == 1);
	e2e_quit(&t);
	e2e_free(&t);
}

/* Resizes redraw the whole screen at the new size; below 80x24 the screen says so; back up it recovers. */
static void test_resize(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	static const int sizes[][2] = {{80, 24}, {200, 60}, {100, 30}, {79, 24}, {60, 20}, {81, 25}, {132, 43}};

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		int cols = sizes[i][0], rows = sizes[i][1];

		e2e_resize(&t, cols, rows);
		if (cols < 80 || rows < 24) {
			e2e_wait(&t, "terminal too small");
			continue;
		}
		e2e_wait_gone(&t, "terminal too small");
		e2e_wait(&t, "makespan");
		assert_int_equal(e2e_find(&t, "streamscope", 0, NULL), 0);
		assert_int_equal(e2e_find(&t, "q quit", 0, NULL), rows - 1);
		assert_true(e2e_find(&t, "s0", 0, NULL) >= 2);
		/* the axis sits right above the stats (narrow) or the status line (wide) */
		assert_true(e2e_find(&t, "time", 0, NULL) > rows / 2);
	}
	e2e_quit(&t);
	e2e_free(&t);
}

/* e2e_dir_empty tells whether dir holds nothing (no snapshot was written there). */
static bool e2e_dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = false;
	closedir(d);
	return empty;
}

/* While the terminal is too small, keys do nothing (no re-run, no snapshot, no zoom, no overlay), the mouse
 * neither; back at a usable size the screen is as it was; q still quits from the small screen. */
static void test_small_keys(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	char before[16384], after[16384];

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_gantt_rows(&t, before, sizeof before);
	e2e_resize(&t, 40, 10);
	e2e_wait(&t, "terminal too small: 40x10");
	e2e_keys(&t, "oe+Z>c?S\t");
	e2e_click(&t, 20, 5);
	e2e_resize(&t, 120, 40);
	e2e_wait_gone(&t, "terminal too small");
	e2e_settle(&t);
	assert_int_equal(e2e_find(&t, "depth-first", 0, NULL), 1);
	assert_int_equal(e2e_find(&t, "8 streams", 0, NULL), 1);
	assert_int_equal(e2e_find(&t, "next:", 0, NULL), -1);
	assert_int_equal(e2e_find(&t, "selected", 0, NULL), -1);
	assert_int_equal(e2e_find(&t, "help", 0, NULL), t.rows - 1); /* the status line's "? help", no overlay */
	e2e_gantt_rows(&t, after, sizeof after);
	assert_string_equal(before, after);
	assert_true(e2e_dir_empty(t.dir));
	e2e_resize(&t, 40, 10);
	e2e_wait(&t, "terminal too small: 40x10");
	e2e_quit(&t);
	e2e_free(&t);
}

/* A click on a kernel bar selects it: the detail box names the stream, engine, times and the API call. */
static void test_mouse(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	int y, x = -1;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	assert_int_not_equal(t.mouse, VTERM_PROP_MOUSE_NONE);
	y = e2e_find(&t, "s2 blk H2D", 0, NULL) + 1; /* s2's KER lane */
	assert_true(y > 2);
	for (int c = 11; c < 88 && x < 0; c++)
		if (e2e_char(&t, c, y) == 0x2588 && e2e_char(&t, c + 1, y) == 0x2588)
			x = c;
	assert_true(x > 0);
	e2e_click(&t, x, y);
	e2e_wait(&t, "selected");
	assert_true(e2e_find(&t, "stream    s2", 0, NULL) > 0);
	assert_true(e2e_find(&t, "engine    KER", 0, NULL) > 0);
	assert_true(e2e_find(&t, "duration", 0, NULL) > 0);
	assert_true(e2e_find(&t, "API call  cudaLaunchKernel", 0, NULL) > 0);
	/* the selected bar is drawn in the highlight colour (xterm 227) */
	{
		bool hl = false;

		for (int c = 11; c < 88; c++)
			hl |= e2e_fg(&t, c, y) == 227;
		assert_true(hl);
	}
	/* Esc clears the selection; the wheel zooms in: the axis labels change */
	e2e_keys(&t, "\033");
	e2e_wait_gone(&t, "selected");
	{
		char before[4096], after[4096];
		int ya = e2e_find(&t, "time", 0, NULL);

		e2e_row(&t, ya, before, sizeof before);
		e2e_wheel(&t, 50, y, true);
		e2e_wheel(&t, 50, y, true);
		e2e_wait(&t, NULL);
		e2e_row(&t, ya, after, sizeof after);
		assert_string_not_equal(before, after);
	}
	e2e_quit(&t);
	e2e_free(&t);
}

/* Tab selects along a lane, j moves down a lane, Enter zooms to the selection, f fits again. */
static void test_keyselect(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	char a[4096], b[4096];
	int ya;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "\t");
	e2e_wait(&t, "selected");
	assert_true(e2e_find(&t, "stream    host", 0, NULL) > 0);
	e2e_keys(&t, "j");
	e2e_wait(&t, "stream    s0");
	assert_true(e2e_find(&t, "engine    H2D", 0, NULL) > 0);
	assert_true(e2e_find(&t, "bandwidth", 0, NULL) > 0);
	assert_true(e2e_find(&t, "GB/s", 0, NULL) > 0);
	e2e_keys(&t, "j");
	e2e_wait(&t, "engine    KER");
	/* the model's kernel: its launch, but registers and shared memory are not known: "-", not 0 */
	assert_true(e2e_find(&t, "launch    grid ", 0, NULL) > 0);
	assert_true(e2e_find(&t, "regs/smem -", 0, NULL) > 0);
	assert_int_equal(e2e_find(&t, "0/thread", 0, NULL), -1);
	ya = e2e_find(&t, "time", 0, NULL);
	e2e_row(&t, ya, a, sizeof a);
	e2e_keys(&t, "\r");
	e2e_wait(&t, NULL);
	e2e_row(&t, ya, b, sizeof b);
	assert_string_not_equal(a, b);
	e2e_keys(&t, "f");
	e2e_wait(&t, NULL);
	e2e_row(&t, ya, b, sizeof b);
	assert_string_equal(a, b);
	e2e_quit(&t);
	e2e_free(&t);
}

/* ? opens the help with the key map; any key closes it. */
static void test_help(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};

	(void)state;
	e2e_start(&t, 80, 24, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "?");
	e2e_wait(&t, "streamscope keys");
	assert_true(e2e_find(&t, "toggle order, re-run", 0, NULL) > 0);
	assert_true(e2e_find(&t, "zoom in / out", 0, NULL) > 0);
	assert_true(e2e_find(&t, "A/B: pin, compare next", 0, NULL) > 0);
	assert_true(e2e_find(&t, "quit", 0, NULL) > 0);
	e2e_keys(&t, "q"); /* closes the help, does not quit */
	e2e_wait_gone(&t, "streamscope keys");
	assert_int_equal(e2e_find(&t, "streamscope", 0, NULL), 0);
	e2e_quit(&t);
	e2e_free(&t);
}

/* p pins the run as A; the next run shows beneath as B with both makespans and the difference. */
static void test_ab(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "hyperq", "--connections", "1", NULL};
	int ya, yb;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "p");
	e2e_wait(&t, "A pinned");
	assert_true(e2e_find(&t, "waiting for the next run", 0, NULL) > 0);
	e2e_keys(&t, "o");
	e2e_wait(&t, "B-A");
	e2e_wait_gone(&t, "next:");
	ya = e2e_find(&t, "A pinned  makespan", 0, NULL);
	yb = e2e_find(&t, "B  makespan", 0, NULL);
	assert_true(ya > 1);
	assert_true(yb > ya);
	assert_true(e2e_find(&t, "depth-first", ya, NULL) == ya);
	assert_true(e2e_find(&t, "breadth-first", yb, NULL) == yb);
	assert_true(e2e_find(&t, "%)", yb, NULL) == yb);
	assert_true(e2e_find(&t, "B-A -", yb, NULL) == yb); /* breadth-first is faster on one queue */
	/* p again unpins: one Gantt */
	e2e_keys(&t, "p");
	e2e_wait_gone(&t, "A pinned");
	e2e_quit(&t);
	e2e_free(&t);
}

/* s runs the sweep: a progress indicator, then the curves (braille) and the numbers of every point. */
static void test_sweep(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	int braille = 0;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "s");
	e2e_wait(&t, "Sweep: time vs streams");
	e2e_wait(&t, "done 16/16");
	for (int y = 0; y < t.rows; y++)
		for (int x = 0; x < t.cols; x++)
			braille += e2e_char(&t, x, y) >= 0x2801 && e2e_char(&t, x, y) <= 0x28ff;
	assert_true(braille > 20);
	assert_true(e2e_find(&t, "depth-first", 2, NULL) > 1);
	assert_true(e2e_find(&t, "breadth-first", 2, NULL) > 1);
	assert_true(e2e_find(&t, "ideal bound", 2, NULL) > 1);
	{
		int x = 0, y = e2e_find(&t, "  128 ", 0, &x);
		char row[4096];

		assert_true(y > 0);
		e2e_row(&t, y, row, sizeof row);
		assert_null(strstr(row + x, " - ")); /* both orders measured */
	}
	/* the fastest point is marked, the status line names only the keys that work here, the cursor moves and
	 * Enter opens its point's timeline */
	assert_true(e2e_find(&t, "best* ", 0, NULL) > 0);
	assert_true(e2e_find(&t, "Enter open the point", 0, NULL) == t.rows - 1);
	assert_true(e2e_find(&t, "o order", 0, NULL) < 0);
	e2e_keys(&t, "\033[C\033[C\033[B");
	e2e_wait(&t, "> 4 streams breadth-first");
	e2e_keys(&t, "\r");
	e2e_wait(&t, "the sweep's kernel-transfer  4 streams  breadth-first");
	assert_true(e2e_find(&t, "s3 ", 0, NULL) > 0);
	assert_true(e2e_find(&t, "s4 ", 0, NULL) < 0);
	e2e_keys(&t, "s");
	e2e_wait(&t, "Sweep: time vs streams");
	e2e_keys(&t, "s");
	e2e_wait_gone(&t, "Sweep: time vs streams");
	e2e_quit(&t);
	e2e_free(&t);
}

/* The stats count the run's claims; C lists the documents' claims of the run on screen, j selects the next, and over
 * the sweep view the sweep's from the first; Esc closes the panel before the sweep. */
static void test_claims(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	assert_true(e2e_find(&t, "3/3 hold (C)", 0, NULL) > 0); /* the stats say how many, and the key */
	e2e_keys(&t, "C");
	e2e_wait(&t, "the run's claims: 3, 3 hold (MODELLED)");
	e2e_wait(&t, "001-bytes: holds (modelled)");
	assert_true(e2e_find(&t, "evidence: on 8 streams", 0, NULL) > 0);
	assert_true(e2e_find(&t, "Stats", 0, NULL) < 0);
	e2e_keys(&t, "j");
	e2e_wait(&t, "003-copy-engine: holds (modelled)");
	e2e_keys(&t, "s");
	e2e_wait(&t, "done 16/16");
	e2e_wait(&t, "the sweep's claims: ");
	e2e_wait(&t, "001-theory: ");
	e2e_keys(&t, "\033");
	e2e_wait_gone(&t, "the sweep's claims");
	assert_true(e2e_find(&t, "Sweep: time vs streams", 0, NULL) > 0);
	e2e_keys(&t, "\033");
	e2e_wait_gone(&t, "Sweep: time vs streams");
	e2e_quit(&t);
	e2e_free(&t);
}

/* A/B and the claims: sync-order in order pinned as A, y makes B the reverse order; the stats count the claim the
 * two judge together and C lists it first, A against B. */
static void test_claims_ab(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "sync-order", "--sync", "stream", NULL};

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "p");
	e2e_wait(&t, "A pinned");
	e2e_keys(&t, "y");
	e2e_wait(&t, "B-A");
	e2e_wait_gone(&t, "next:");
	e2e_keys(&t, "C");
	e2e_wait(&t, "A and B's claims: ");
	e2e_wait(&t, "003-sync-order: ");
	assert_true(e2e_find(&t, "A (pinned) against B", 0, NULL) > 0);
	assert_true(e2e_find(&t, "in order ", 0, NULL) > 0);
	e2e_quit(&t);
	e2e_free(&t);
}

/* e writes a snapshot directory and says where. */
static void test_export(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	char row[4096], path[1024], *p;
	struct stat st;
	int y;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "e");
	e2e_wait(&t, "snapshot written to");
	y = e2e_find(&t, "snapshot written to ", 0, NULL);
	e2e_row(&t, y, row, sizeof row);
	p = strstr(row, "written to ") + strlen("written to ");
	p[strcspn(p, " ")] = '\0';
	snprintf(path, sizeof path, "%s/%s/screen.txt", t.dir, p);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 1000);
	{
		FILE *f = fopen(path, "r");
		char line[1024];

		assert_non_null(f);
		assert_non_null(fgets(line, sizeof line, f));
		assert_non_null(strstr(line, "streamscope"));
		fclose(f);
	}
	snprintf(path, sizeof path, "%s/%s/screen.ansi", t.dir, p);
	assert_int_equal(stat(path, &st), 0);
	e2e_quit(&t);
	e2e_free(&t);
}

/* SIGTERM and SIGINT quit cleanly: the terminal is restored, the status says which signal. */
static void test_signal(void **state)
{
	static const int sigs[2] = {SIGTERM, SIGINT};
	static const char *const args[] = {"--backend", "model", NULL};

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct e2e t;
		int st;

		e2e_start(&t, 100, 30, args, NULL);
		e2e_settle(&t);
		kill(t.pid, sigs[i]);
		st = e2e_finish(&t);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 128 + sigs[i]);
		assert_false(t.altscreen);
		assert_true(t.cursor_visible);
		e2e_free(&t);
	}
}

/* --ascii: not one character outside ASCII on the screen, bars still drawn. */
static void test_ascii(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--ascii", NULL};
	int bars = 0;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	for (int y = 0; y < t.rows; y++)
		for (int x = 0; x < t.cols; x++) {
			uint32_t c = e2e_char(&t, x, y);

			assert_true(c < 0x80);
			bars += c == '#' || c == '>' || c == '<';
		}
	assert_true(bars > 50);
	e2e_quit(&t);
	e2e_free(&t);
}

/* NO_COLOR: every cell in the terminal's own colours. */
static void test_nocolor(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	static const char *const env[] = {"NO_COLOR=1", NULL};

	(void)state;
	e2e_start(&t, 120, 40, args, env);
	e2e_settle(&t);
	for (int y = 0; y < t.rows; y++)
		for (int x = 0; x < t.cols; x++)
			assert_int_equal(e2e_fg(&t, x, y), -1);
	e2e_quit(&t);
	e2e_free(&t);
}

/* An 8-colour terminal gets the palette's 8-colour twins; a terminal without colours gets none, bars still drawn. */
static void test_schemes(void **state)
{
	static const char *const args[] = {"--backend", "model", NULL};
	static const char *const env8[] = {"TERM=xterm", NULL};
	static const char *const envmono[] = {"TERM=vt100", NULL};
	struct e2e t;
	int y, h2d = 0, ker = 0, bars = 0;

	(void)state;
	e2e_start(&t, 120, 40, args, env8);
	e2e_settle(&t);
	y = e2e_find(&t, "s0 blk H2D", 0, NULL);
	for (int x = 11; x < 88; x++) {
		h2d += e2e_char(&t, x, y) == 0x2588 && e2e_fg(&t, x, y) == 2;
		ker += e2e_char(&t, x, y + 1) == 0x2588 && e2e_fg(&t, x, y + 1) == 4;
	}
	assert_true(h2d > 0 && ker > 0);
	e2e_quit(&t);
	e2e_free(&t);
	e2e_start(&t, 120, 40, args, envmono);
	e2e_settle(&t);
	for (y = 0; y < t.rows; y++)
		for (int x = 0; x < t.cols; x++) {
			assert_int_equal(e2e_fg(&t, x, y), -1);
			bars += e2e_char(&t, x, y) == 0x2588;
		}
	assert_true(bars > 50);
	e2e_quit(&t);
	e2e_free(&t);
}

/* view FILE: the header names the file, the experiment keys are off, selection still works. */
static void test_view(void **state)
{
	struct e2e t;
	char file[1024];
	const char *src = getenv("SS_SOURCE_DIR");
	const char *args[] = {"view", file, NULL};

	(void)state;
	snprintf(file, sizeof file, "%s/tests/data/h200/bench/preset-kernel-transfer.sqlite", src ? src : ".");
	if (access(file, R_OK) != 0)
		skip();
	e2e_start(&t, 120, 40, args, NULL);
	e2e_wait(&t, "makespan");
	assert_true(e2e_find(&t, "preset-kernel-transfer.sqlite", 0, NULL) == 1);
	assert_true(e2e_find(&t, "H200", 0, NULL) == 0);
	e2e_keys(&t, "o");
	e2e_wait(&t, "experiment keys are off");
	e2e_keys(&t, "\t");
	e2e_wait(&t, "selected");
	e2e_keys(&t, "C"); /* a trace older than the record of its program: no claim, and the panel says why */
	e2e_wait(&t, "a trace: it does not say");
	e2e_quit(&t);
	e2e_free(&t);
}

/* view of a streamscope SQLite export of a run of document 001's program, recorded on an H100: the stats count the
 * claims it supports and C lists them, measured (not modelled). */
static void test_view_claims(void **state)
{
	struct e2e t;
	char file[1024];
	const char *src = getenv("SS_SOURCE_DIR");
	const char *args[] = {"view", file, NULL};

	(void)state;
	snprintf(file, sizeof file, "%s/tests/data/h200/kernel-names-h100/kt.sqlite", src ? src : ".");
	if (access(file, R_OK) != 0)
		skip();
	e2e_start(&t, 120, 40, args, NULL);
	e2e_wait(&t, "makespan");
	assert_true(e2e_find(&t, "3/3 hold (C)", 0, NULL) > 0);
	e2e_keys(&t, "C");
	e2e_wait(&t, "the run's claims: 3, 3 hold ");
	e2e_wait(&t, "001-bytes: holds");
	assert_true(e2e_find(&t, "MODELLED", 0, NULL) < 0);
	assert_true(e2e_find(&t, "(modelled)", 0, NULL) < 0);
	assert_true(e2e_find(&t, "32.0 MiB H2D / 16.0 MiB D2H = 2.00", 0, NULL) > 0);
	e2e_quit(&t);
	e2e_free(&t);
}

/* A file where the command goes opens as less opens one: an experiment file in the TUI, the header naming it and
 * the experiment line its program and order, the keys still on; a trace as view opens it. */
static void test_open_file(void **state)
{
	struct e2e t;
	char ini[1024], trace[1024];
	const char *src = getenv("SS_SOURCE_DIR");
	const char *args[] = {ini, "--backend", "model", NULL}, *targs[] = {trace, NULL};

	(void)state;
	snprintf(ini, sizeof ini, "%s/examples/interleave.ini", src ? src : ".");
	snprintf(trace, sizeof trace, "%s/tests/data/h200/bench/preset-kernel-transfer.sqlite", src ? src : ".");
	e2e_start(&t, 132, 40, args, NULL);
	e2e_wait(&t, "makespan");
	assert_int_equal(e2e_find(&t, "from ", 0, NULL), 0);
	assert_int_equal(e2e_find(&t, "examples/interleave.ini", 0, NULL), 0);
	assert_int_equal(e2e_find(&t, "2 streams 8 chunks  interleaved", 0, NULL), 1);
	assert_int_equal(e2e_find(&t, "program of 4 steps", 0, NULL), 1);
	e2e_keys(&t, ">"); /* the keys apply to the file's experiment: > doubles its 2 streams */
	e2e_wait(&t, "4 streams 8 chunks  interleaved");
	e2e_wait_gone(&t, "next:");
	e2e_quit(&t);
	e2e_free(&t);
	if (access(trace, R_OK) != 0)
		skip();
	e2e_start(&t, 120, 40, targs, NULL);
	e2e_wait(&t, "makespan");
	assert_int_equal(e2e_find(&t, "backend file", 0, NULL), 0);
	assert_int_equal(e2e_find(&t, "file /", 0, NULL), 1);
	assert_true(e2e_find(&t, "preset-kernel-transfer.sqlite", 0, NULL) == 1);
	e2e_quit(&t);
	e2e_free(&t);
}

/* e2e_put writes text to path, replacing it (as an editor saves). */
static void e2e_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A written experiment file is announced once; R reads it again as it is now and runs it, the note saying what
 * changed; a file that no longer checks gets its one line (FILE:LINE) and the shown run stays; without a file R says
 * how to open one. */
static void test_reread(void **state)
{
	struct e2e t;
	char dir[] = "/tmp/ss-e2e-reread-XXXXXX", ini[64];
	const char *args[] = {ini, "--backend", "model", NULL}, *pargs[] = {"--backend", "model", NULL};
	static const char program[] = "[chunk]\nstep = h2d x pinned\nstep = h2d y pinned\nstep = kernel fma "
	                              "work=50\nstep = d2h z pinned\n";
	char text[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(ini, sizeof ini, "%s/my.ini", dir);
	snprintf(text, sizeof text, "[experiment]\nstreams = 2\nchunks = 8\n%s", program);
	e2e_put(ini, text);
	e2e_start(&t, 132, 40, args, NULL);
	e2e_wait(&t, "makespan");
	assert_int_equal(e2e_find(&t, "2 streams 8 chunks", 0, NULL), 1);
	snprintf(text, sizeof text, "[experiment]\nstreams = 4\nchunks = 8\n%s", program);
	e2e_put(ini, text);
	/* the TUI sees the file written (within a second or so) and says R runs it */
	e2e_wait(&t, "my.ini changed: R runs what it says now");
	e2e_keys(&t, "R");
	e2e_wait(&t, "re-ran 4 streams");
	assert_int_equal(e2e_find(&t, "4 streams 8 chunks", 0, NULL), 1);
	/* what R read is not announced again */
	usleep(1500 * 1000);
	e2e_settle(&t);
	assert_int_equal(e2e_find(&t, "changed: R runs", 0, NULL), -1);
	/* a line that no longer checks: its message, the run stays */
	snprintf(text, sizeof text, "[experiment]\nstreams = 4\nchunks = 8\n[chunk]\nstep = kernel nope\n");
	e2e_put(ini, text);
	e2e_keys(&t, "R");
	e2e_wait(&t, "my.ini:5: step 'kernel nope'");
	assert_int_equal(e2e_find(&t, "4 streams 8 chunks", 0, NULL), 1);
	unlink(ini);
	e2e_keys(&t, "R");
	e2e_wait(&t, "cannot read experiment file");
	e2e_quit(&t);
	e2e_free(&t);
	rmdir(dir);
	e2e_start(&t, 132, 40, pargs, NULL);
	e2e_wait(&t, "makespan");
	e2e_keys(&t, "R");
	e2e_wait(&t, "no experiment file to re-read");
	e2e_quit(&t);
	e2e_free(&t);
}

/* e2e_bar_cells is how many columns lie between the first and the last bar glyph of rows from..to-1 (right of
 * the label separator): how much of the plot the bars spread over. */
static int e2e_bar_cells(struct e2e *t, int from, int to)
{
	int lo = t->cols, hi = -1;

	for (int y = from; y < to; y++)
		for (int x = 11; x < t->cols; x++) {
			uint32_t c = e2e_char(t, x, y);

			if (c >= 0x2588 && c <= 0x258F) {
				lo = x < lo ? x : lo;
				hi = x > hi ? x : hi;
			}
		}
	return hi >= lo ? hi - lo + 1 : 0;
}

/* A real Nsight Systems export opens on its GPU work, not on 200 ms of host set-up calls: the stream lanes show bars
 * over many columns, the status line says how much of the recording is shown and that F fits it all, the axis' right
 * end marks the rest; F fits everything (the lanes shrink to a few columns), f comes back. */
static void test_view_nsys(void **state)
{
	struct e2e t;
	char file[1024];
	const char *src = getenv("SS_SOURCE_DIR");
	const char *args[] = {"view", file, NULL};
	int work, all, host;

	(void)state;
	snprintf(file, sizeof file, "%s/tests/data/nsys/rtx4060ti-4streams.sqlite", src ? src : ".");
	e2e_start(&t, 120, 40, args, NULL);
	e2e_wait(&t, "makespan");
	host = e2e_find(&t, "host", 2, NULL);
	assert_true(host >= 2);
	work = e2e_bar_cells(&t, host + 1, e2e_find(&t, "time", 0, NULL) - 1);
	assert_true(work > 60);
	/* the streams as the program and nsys know them: CUPTI ids 13..16, with their kind */
	assert_true(e2e_find(&t, "13 blk H2D", 0, NULL) > host);
	assert_true(e2e_find(&t, "16 blk H2D", 0, NULL) > host);
	assert_true(e2e_find(&t, "F fits all", 0, NULL) == t.rows - 1);
	e2e_keys(&t, "F");
	e2e_wait_gone(&t, "F fits all");
	all = e2e_bar_cells(&t, host + 1, e2e_find(&t, "time", 0, NULL) - 1);
	if (all >= work / 4)
		e2e_dump(&t);
	assert_true(all < work / 4);
	e2e_keys(&t, "f");
	e2e_wait(&t, "F fits all");
	/* Home and End as terminals send them outside the terminfo entry: keys, not Esc (which would drop the
	 * selection) */
	e2e_keys(&t, "\t");
	e2e_wait(&t, "selected");
	e2e_keys(&t, "\033[1~");
	e2e_wait(&t, NULL);
	e2e_keys(&t, "\033[4~");
	e2e_wait(&t, NULL);
	e2e_keys(&t, "\033[H");
	e2e_wait(&t, NULL);
	assert_true(e2e_find(&t, "selected", 0, NULL) > 0);
	/* S: the summary panel as nsys stats gives it: the kernel by name, the copies by kind with bandwidth */
	e2e_keys(&t, "S");
	e2e_wait(&t, "GPU time by kernel and by copy");
	assert_true(e2e_find(&t, "add_parallel", 0, NULL) > 0);
	assert_true(e2e_find(&t, "HtoD (pinned)", 0, NULL) > 0);
	assert_true(e2e_find(&t, "61.32 ms", 0, NULL) > 0);
	e2e_keys(&t, "x");
	e2e_wait_gone(&t, "GPU time by kernel and by copy");
	e2e_quit(&t);
	e2e_free(&t);
	/* the other export's first screen: its one long kernel named inside its bar, its legacy stream by id */
	snprintf(file, sizeof file, "%s/tests/data/nsys/rtx3060-1stream.sqlite", src ? src : ".");
	e2e_start(&t, 120, 30, args, NULL);
	e2e_wait(&t, "makespan");
	assert_true(e2e_find(&t, "reduce_baseline", 2, NULL) > 2);
	assert_true(e2e_find(&t, "7 leg  H2D", 2, NULL) > 2);
	e2e_quit(&t);
	e2e_free(&t);
}

/* After a re-run the status line says what changed and by how much; o on the default experiment. */
static void test_rerun_note(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "o");
	e2e_wait(&t, "re-ran breadth-first: ");
	assert_true(e2e_find(&t, "s -> ", 0, NULL) == t.rows - 1);
	/* zoomed in while a longer run (more streams) runs: the window is held and the status line says so */
	e2e_keys(&t, ">zz");
	e2e_wait(&t, "view held");
	e2e_quit(&t);
	e2e_free(&t);
}

/* A status message, a warning or a notice, stays until the next key, which clears it (as less does): R's warning
 * without a file goes with z, with Home; the snapshot's notice goes with Z at once, not after some seconds; q from
 * a message still quits. */
static void test_message_clears(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", NULL};
	double t0;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "R");
	e2e_wait(&t, "no experiment file to re-read");
	e2e_keys(&t, "z");
	e2e_wait_gone(&t, "no experiment file to re-read");
	assert_int_equal(e2e_find(&t, "q quit", 0, NULL), t.rows - 1);
	e2e_keys(&t, "R");
	e2e_wait(&t, "no experiment file to re-read");
	e2e_keys(&t, "\033[1~"); /* Home */
	e2e_wait_gone(&t, "no experiment file to re-read");
	e2e_keys(&t, "e");
	e2e_wait(&t, "snapshot written to");
	t0 = e2e_now();
	e2e_keys(&t, "Z");
	e2e_wait_gone(&t, "snapshot written to");
	assert_true(e2e_now() - t0 < 3000); /* the key cleared it, well before any timeout could have */
	e2e_keys(&t, "R");
	e2e_wait(&t, "no experiment file to re-read");
	e2e_quit(&t);
	e2e_free(&t);
}

/* e2e_axis_negative tells whether the time axis (the row after "time"'s rule) labels a time before 0. */
static bool e2e_axis_negative(struct e2e *t)
{
	char row[4096];
	int y = e2e_find(t, "time ", 2, NULL);

	assert_true(y > 2);
	e2e_row(t, y, row, sizeof row);
	return strstr(row, " -") != NULL;
}

/* Zooming out never shows time before the trace starts: Home then Z keeps the axis at 0 on the left (no "-2 ms"),
 * and the window never passes the end: End then Z keeps no right-hand arrow (nothing beyond the window). */
static void test_zoom_out_clamp(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "decrypt", NULL};

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	e2e_keys(&t, "zzz");
	e2e_wait(&t, "f fits");
	e2e_keys(&t, "\033[1~");
	e2e_wait(&t, NULL);
	assert_true(e2e_find(&t, "time  0 ms", 0, NULL) > 2);
	e2e_keys(&t, "Z");
	e2e_wait(&t, NULL);
	assert_false(e2e_axis_negative(&t));
	assert_true(e2e_find(&t, "time  0 ms", 0, NULL) > 2);
	e2e_keys(&t, "ZZZZ");
	e2e_wait(&t, NULL);
	assert_false(e2e_axis_negative(&t));
	assert_true(e2e_find(&t, "time  0 ms", 0, NULL) > 2);
	e2e_keys(&t, "zzz\033[4~Z");
	e2e_wait(&t, NULL);
	assert_false(e2e_axis_negative(&t));
	assert_int_equal(e2e_find(&t, "\xe2\x96\xb6", 0, NULL), -1); /* no right arrow: the end is in view */
	e2e_quit(&t);
	e2e_free(&t);
}

/* Streams 10 and up keep their kind's tag whole: decrypt's 32 blocking streams open compact with "s10 blk" (the
 * column has room), and expanded (c) the label column widens for "s12 blk H2D", the engines aligned under it. */
static void test_wide_labels(void **state)
{
	struct e2e t;
	static const char *const args[] = {"--backend", "model", "--preset", "decrypt", NULL};
	int y;

	(void)state;
	e2e_start(&t, 120, 40, args, NULL);
	e2e_settle(&t);
	assert_true(e2e_find(&t, "s10 blk ", 2, NULL) > 2);
	assert_int_equal(e2e_find(&t, "s10 b ", 2, NULL), -1);
	e2e_keys(&t, "c");
	e2e_wait(&t, "s0 blk  H2D");
	while (e2e_find(&t, "s12 ", 2, NULL) < 0) {
		e2e_keys(&t, "\033[6~"); /* PgDn */
		e2e_wait(&t, NULL);
	}
	y = e2e_find(&t, "s12 blk H2D", 2, NULL);
	assert_true(y > 2);
	{
		char row[4096];

		e2e_row(&t, y + 1, row, sizeof row);
		assert_int_equal(strncmp(row, "        KER", 11), 0);
	}
	assert_int_equal(e2e_find(&t, "s12 b  H2D", 2, NULL), -1);
	e2e_quit(&t);
	e2e_free(&t);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_start),
	    cmocka_unit_test(test_order),
	    cmocka_unit_test(test_resize),
	    cmocka_unit_test(test_mouse),
	    cmocka_unit_test(test_keyselect),
	    cmocka_unit_test(test_help),
	    cmocka_unit_test(test_ab),
	    cmocka_unit_test(test_sweep),
	    cmocka_unit_test(test_claims),
	    cmocka_unit_test(test_claims_ab),
	    cmocka_unit_test(test_export),
	    cmocka_unit_test(test_signal),
	    cmocka_unit_test(test_ascii),
	    cmocka_unit_test(test_nocolor),
	    cmocka_unit_test(test_schemes),
	    cmocka_unit_test(test_view),
	    cmocka_unit_test(test_view_claims),
	    cmocka_unit_test(test_open_file),
	    cmocka_unit_test(test_reread),
	    cmocka_unit_test(test_prefetch),
	    cmocka_unit_test(test_view_nsys),
	    cmocka_unit_test(test_rerun_note),
	    cmocka_unit_test(test_small_keys),
	    cmocka_unit_test(test_message_clears),
	    cmocka_unit_test(test_zoom_out_clamp),
	    cmocka_unit_test(test_wide_labels),
	};

	return e2e_main(argc, argv, "e2e_tui", tests, sizeof tests / sizeof tests[0]);
}
