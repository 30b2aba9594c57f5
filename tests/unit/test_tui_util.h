/* test_tui_util.h: shared by the TUI's unit tests: a small hand-built timeline whose every interval is known, and
 * golden cell snapshots: a grid written as text (glyphs, then one role letter per cell, then attributes) and
 * compared exactly with tests/golden/NAME.txt. SS_REGOLDEN=1 rewrites the golden files instead of comparing. */
#ifndef TEST_TUI_UTIL_H
#define TEST_TUI_UTIL_H

/* cmocka.h needs these first */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
// clang-format on

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/timeline.h"
#include "tui/grid.h"

#define US 1000ull

/* One letter per role in golden files. */
static const char tui_role_letter[SS_ROLE_COUNT] = {
    [SS_ROLE_H2D] = 'h',       [SS_ROLE_D2H] = 'd',    [SS_ROLE_D2D] = 'y',
    [SS_ROLE_MEMSET] = 'm',    [SS_ROLE_KERNEL] = 'k', [SS_ROLE_API] = 'a',
    [SS_ROLE_SYNC] = 's',      [SS_ROLE_MARKER] = 'n', [SS_ROLE_DEFAULT_STREAM] = 'x',
    [SS_ROLE_AXIS] = '|',      [SS_ROLE_TEXT] = '.',   [SS_ROLE_DIM] = ',',
    [SS_ROLE_HIGHLIGHT] = '*', [SS_ROLE_WARN] = '!',
};

__attribute__((unused)) static void tui_add(struct ss_timeline *t, int kind, int stream, uint64_t s, uint64_t e,
                                            uint64_t bytes, uint32_t corr, const char *name)
{
	struct ss_record r;

	memset(&r, 0, sizeof r);
	r.kind = (uint8_t)kind;
	r.stream = stream;
	r.raw_stream = stream >= 0 ? (uint32_t)(13 + stream) : 7;
	r.start = s;
	r.end = e;
	r.bytes = bytes;
	r.correlation = corr;
	r.name = timeline_intern(t, name);
	r.flags = SS_REC_MODELLED | (bytes ? SS_REC_PINNED | SS_REC_ASYNC : 0);
	timeline_add(t, &r);
}

/* tui_fixture fills t with three streams of depth-first work (H2D -> KER -> D2H, one copy engine per direction),
 * the host calls that issued it, a sync wait, a memset and a kernel on the legacy default stream. */
__attribute__((unused)) static void tui_fixture(struct ss_timeline *t)
{
	timeline_init(t);
	t->nstreams = 3;
	t->modelled = true;
	snprintf(t->backend, sizeof t->backend, "model");
	snprintf(t->device, sizeof t->device, "MODEL (H200 profile)");
	for (int s = 0; s < 3; s++) {
		uint64_t h0 = 20 * US + (uint64_t)s * 50 * US;
		uint64_t k1 = 70 * US + (uint64_t)s * 80 * US + 80 * US;

		tui_add(t, SS_KIND_API, SS_STREAM_HOST, (uint64_t)s * 15 * US, (uint64_t)s * 15 * US + 4 * US, 0,
		        (uint32_t)(3 * s + 1), "cudaMemcpyAsync");
		tui_add(t, SS_KIND_API, SS_STREAM_HOST, (uint64_t)s * 15 * US + 5 * US, (uint64_t)s * 15 * US + 8 * US,
		        0, (uint32_t)(3 * s + 2), "cudaLaunchKernel");
		tui_add(t, SS_KIND_API, SS_STREAM_HOST, (uint64_t)s * 15 * US + 9 * US, (uint64_t)s * 15 * US + 13 * US,
		        0, (uint32_t)(3 * s + 3), "cudaMemcpyAsync");
		tui_add(t, SS_KIND_H2D, s, h0, h0 + 50 * US, 8u << 20, (uint32_t)(3 * s + 1), "");
		tui_add(t, SS_KIND_KERNEL, s, 70 * US + (uint64_t)s * 80 * US, k1, 0, (uint32_t)(3 * s + 2),
		        "add_kernel");
		tui_add(t, SS_KIND_D2H, s, k1 + 3 * US, k1 + 53 * US, 8u << 20, (uint32_t)(3 * s + 3), "");
	}
	tui_add(t, SS_KIND_MEMSET, 1, 121 * US, 126 * US, 1u << 20, 0, "");
	tui_add(t, SS_KIND_KERNEL, SS_STREAM_LEGACY, 365 * US, 383 * US, 0, 10, "interfere_kernel");
	tui_add(t, SS_KIND_API, SS_STREAM_HOST, 45 * US, 400 * US, 0, 11, "cudaStreamSynchronize");
	tui_add(t, SS_KIND_SYNC, SS_STREAM_HOST, 46 * US, 399 * US, 0, 11, "");
	tui_add(t, SS_KIND_API, SS_STREAM_HOST, 30 * US, 33 * US, 0, 10, "cudaLaunchKernel");
}

/* tui_golden_text writes g as the golden format into a new string. */
__attribute__((unused)) static char *tui_golden_text(const struct ss_grid *g, const char *title)
{
	size_t cap = (size_t)(g->w * 6 + 8) * (size_t)(g->h * 3 + 8) + 256, n = 0;
	char *s = malloc(cap);

	n += (size_t)snprintf(
	    s + n, cap - n,
	    "# %s: %dx%d cells. Glyphs (each row closed by '|'), then roles (h H2D, d D2H, y D2D, m memset,\n"
	    "# k kernel, a API, s sync, n marker, x default stream, | axis, . text , dim * highlight ! warn),\n"
	    "# then attributes (bits: 1 bold, 2 reverse, 4 underline).\n",
	    title, g->w, g->h);
	for (int y = 0; y < g->h; y++) {
		for (int x = 0; x < g->w; x++)
			n += (size_t)grid_utf8_encode(grid_at(g, x, y)->ch, s + n);
		s[n++] = '|';
		s[n++] = '\n';
	}
	n += (size_t)snprintf(s + n, cap - n, "--\n");
	for (int y = 0; y < g->h; y++) {
		for (int x = 0; x < g->w; x++) {
			int r = grid_at(g, x, y)->role;

			s[n++] = r < SS_ROLE_COUNT && tui_role_letter[r] ? tui_role_letter[r] : '?';
		}
		s[n++] = '\n';
	}
	n += (size_t)snprintf(s + n, cap - n, "--\n");
	for (int y = 0; y < g->h; y++) {
		for (int x = 0; x < g->w; x++)
			s[n++] = (char)('0' + (grid_at(g, x, y)->attr & 7));
		s[n++] = '\n';
	}
	s[n] = '\0';
	return s;
}

/* tui_golden compares g with tests/golden/NAME.txt (or rewrites it under SS_REGOLDEN=1). On a mismatch the
 * actual text goes to NAME.actual.txt in the working directory and the first differing line is printed. */
__attribute__((unused)) static void tui_golden(const struct ss_grid *g, const char *name, const char *title)
{
	char path[1024], *want = NULL, *got = tui_golden_text(g, title);
	const char *src = getenv("SS_SOURCE_DIR");
	FILE *f;
	long len;

	snprintf(path, sizeof path, "%s/tests/golden/%s.txt", src ? src : SS_SOURCE_DIR, name);
	if (getenv("SS_REGOLDEN") != NULL && getenv("SS_REGOLDEN")[0] == '1') {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(got, f);
		fclose(f);
		free(got);
		return;
	}
	f = fopen(path, "r");
	if (f == NULL) {
		print_error("missing golden file %s (run with SS_REGOLDEN=1 to write it)\n", path);
		free(got);
		fail();
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	want = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(want, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	if (strcmp(want, got) != 0) {
		char apath[512];
		int line = 1;
		const char *a = want, *b = got;

		snprintf(apath, sizeof apath, "%s.actual.txt", name);
		if ((f = fopen(apath, "w")) != NULL) {
			fputs(got, f);
			fclose(f);
		}
		while (*a && *a == *b) {
			line += *a == '\n';
			a++;
			b++;
		}
		print_error("%s differs from the golden file at line %d (actual written to %s)\n", name, line, apath);
		free(want);
		free(got);
		fail();
	}
	free(want);
	free(got);
}

/* tui_row copies row y of g as UTF-8 into buf. */
__attribute__((unused)) static const char *tui_row(const struct ss_grid *g, int y, char *buf, size_t len)
{
	size_t n = 0;

	for (int x = 0; x < g->w && n + 5 < len; x++)
		n += (size_t)grid_utf8_encode(grid_at(g, x, y)->ch, buf + n);
	buf[n] = '\0';
	return buf;
}

/* tui_find returns the first row of g containing text, -1 when none. */
__attribute__((unused)) static int tui_find(const struct ss_grid *g, const char *text)
{
	char buf[4096];

	for (int y = 0; y < g->h; y++)
		if (strstr(tui_row(g, y, buf, sizeof buf), text) != NULL)
			return y;
	return -1;
}

#endif
