/* axis.c: the time axis. */
#include "tui/axis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/palette.h"

double axis_step(double span, int width, int min_cells)
{
	double step = 1, want;

	if (width < 1)
		width = 1;
	if (min_cells < 1)
		min_cells = 1;
	want = span / width * min_cells; /* the smallest step keeping ticks apart */
	for (;;) {
		static const double mult[3] = {1, 2, 5};

		for (int i = 0; i < 3; i++)
			if (step * mult[i] >= want)
				return step * mult[i];
		step *= 10;
	}
}

void axis_label(double t, double step, double hi, char *buf, size_t len)
{
	static const struct {
		double ns;
		const char *name;
	} units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}, {1, "ns"}};
	int u = 3, dec = 0;
	double v;

	for (int i = 0; i < 4; i++)
		if (fabs(hi) >= units[i].ns) {
			u = i;
			break;
		}
	if (hi < 1)
		u = 3;
	/* decimals: enough for the step, e.g. 0.05 ms -> 2 */
	while (dec < 9 && step / units[u].ns * pow(10, dec) < 0.999)
		dec++;
	v = t / units[u].ns;
	if (fabs(v) * pow(10, dec) < 0.5) /* a tick at zero that rounding left just below it: "0", never "-0" */
		v = 0.0;
	snprintf(buf, len, "%.*f %s", dec, v, units[u].name);
}

/* axis_place returns the column of time t in r. */
static int axis_place(struct ss_rect r, double t0, double span, double t)
{
	return r.x + (int)floor((t - t0) / span * r.w + 1e-9);
}

void axis_draw(struct ss_grid *g, struct ss_rect r, double t0, double span, const struct ss_glyphs *gl)
{
	double step;
	int min_cells = 10, last_end;

	if (r.w <= 0 || r.h <= 0 || span <= 0)
		return;
	grid_fill(g, (struct ss_rect){r.x, r.y, r.w, 1}, gl->axis, SS_ROLE_AXIS, 0);
	if (r.h > 1)
		grid_fill(g, (struct ss_rect){r.x, r.y + 1, r.w, r.h - 1}, ' ', SS_ROLE_AXIS, 0);
	/* widen the spacing until the widest label fits between ticks */
	for (int tries = 0;; tries++) {
		char buf[48];

		step = axis_step(span, r.w, min_cells);
		axis_label(t0 + span, step, t0 + span, buf, sizeof buf);
		if ((int)strlen(buf) + 2 <= step / span * r.w || tries == 4)
			break;
		min_cells = (int)strlen(buf) + 2;
	}
	last_end = r.x - 2;
	for (double t = ceil(t0 / step) * step; t < t0 + span; t += step) {
		int x = axis_place(r, t0, span, t), w;
		char buf[48];

		if (x < r.x || x >= r.x + r.w)
			continue;
		grid_set(g, x, r.y, gl->tick, SS_ROLE_AXIS, 0);
		if (r.h < 2)
			continue;
		axis_label(t, step, t0 + span, buf, sizeof buf);
		w = (int)strlen(buf);
		if (x + w > r.x + r.w)
			x = r.x + r.w - w;
		if (x <= last_end + 1)
			continue;
		grid_puts(g, x, r.y + 1, w, buf, SS_ROLE_AXIS, 0);
		last_end = x + w - 1;
	}
}
