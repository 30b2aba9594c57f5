/* insightbox.c: the insights panel; see insightbox.h. */
#include "tui/insightbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "model/model.h"
#include "run/remedy.h"

/* The list's width when the panel is wide enough for list and text side by side (INSIGHTBOX_SIDE_MIN). */
#define INSIGHTBOX_LIST_COLS 25
#define INSIGHTBOX_SIDE_MIN 70
/* Most text lines of the selected entry kept (more than any panel shows). */
#define INSIGHTBOX_MAX_LINES 48

enum ss_insightbox_effect insightbox_key(struct ss_insightbox *b, const struct ss_insights *in, enum ss_action act)
{
	size_t n = in != NULL ? in->n : 0;

	if (b->cur >= n)
		b->cur = n > 0 ? n - 1 : 0;
	switch (act) {
	case ACT_CLOSE:
	case ACT_INSIGHTS:
		b->open = false;
		return INSIGHTBOX_DONE;
	case ACT_LANE_DOWN:
	case ACT_SCROLL_DOWN:
	case ACT_LANE_UP:
	case ACT_SCROLL_UP: {
		bool down = act == ACT_LANE_DOWN || act == ACT_SCROLL_DOWN;

		if (n == 0)
			return INSIGHTBOX_DONE;
		if (down && b->cur + 1 < n)
			b->cur++;
		else if (!down && b->cur > 0)
			b->cur--;
		return INSIGHTBOX_ZOOM;
	}
	case ACT_ZOOM_SEL:
	case ACT_ZOOM_IN:
		return n > 0 ? INSIGHTBOX_ZOOM : INSIGHTBOX_DONE;
	default:
		return INSIGHTBOX_IGNORED;
	}
}

const struct ss_insight *insightbox_selected(const struct ss_insightbox *b, const struct ss_insights *in)
{
	if (in == NULL || in->n == 0)
		return NULL;
	return &in->item[b->cur < in->n ? b->cur : in->n - 1];
}

bool insightbox_range(const struct ss_insight *x, double min_span, double *t0, double *span)
{
	double a, len;

	if (x == NULL || x->t1 < x->t0 || (x->t1 == x->t0 && x->nrec == 0))
		return false;
	a = (double)x->t0;
	len = (double)(x->t1 - x->t0);
	*span = len * (1 + 2 * INSIGHTBOX_MARGIN);
	*t0 = a - len * INSIGHTBOX_MARGIN;
	if (*span < min_span) {
		*t0 = a + len / 2 - min_span / 2;
		*span = min_span;
	}
	return true;
}

uint32_t insightbox_mark(enum ss_severity s, bool utf8)
{
	switch (s) {
	case SS_SEV_PROBLEM:
		return utf8 ? 0x2716 : '!'; /* heavy multiplication x */
	case SS_SEV_HINT:
		return utf8 ? 0x25b2 : '^'; /* black up-pointing triangle */
	default:
		return utf8 ? 0x25cb : 'i'; /* white circle */
	}
}

int insightbox_wrap(const char *text, int width, char (*line)[INSIGHTBOX_LINE], int max)
{
	const char *p = text;
	int n = 0;

	if (width < 1)
		width = 1;
	if (width > INSIGHTBOX_LINE - 1)
		width = INSIGHTBOX_LINE - 1;
	while (*p == ' ')
		p++;
	while (*p != '\0') {
		size_t len = strlen(p), cut = len, room = 0;
		const char *q = p;
		int cells = 0;

		/* the bytes of the first width cells (a UTF-8 sequence counts one cell) */
		while (*q != '\0' && cells < width) {
			q++;
			while ((*q & 0xc0) == 0x80)
				q++;
			cells++;
		}
		room = (size_t)(q - p);
		if (room < len) {
			/* the last blank within the room (or just after it), else cut the word */
			cut = room;
			for (size_t i = room; i > 0; i--)
				if (p[i] == ' ') {
					cut = i;
					break;
				}
		}
		if (n < max) {
			size_t k = cut < INSIGHTBOX_LINE - 1 ? cut : INSIGHTBOX_LINE - 1;

			memcpy(line[n], p, k);
			line[n][k] = '\0';
			while (k > 0 && line[n][k - 1] == ' ')
				line[n][--k] = '\0';
		}
		n++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return n;
}

void insightbox_gain(const struct ss_insight *x, bool modelled, char *buf, size_t len)
{
	char t[32];

	if (!x->have_gain)
		snprintf(buf, len, "gain: none (no sound estimate from the timeline)");
	else
		snprintf(buf, len, "gain%s: %s (%s)", modelled ? ", modelled" : "", units_time(x->gain_ns, t, sizeof t),
		         x->gain_how);
}

/* insightbox_role is the colour of a severity: problems warn, hints stand out, information is plain. */
static int insightbox_role(enum ss_severity s)
{
	return s == SS_SEV_PROBLEM ? SS_ROLE_WARN : s == SS_SEV_HINT ? SS_ROLE_HIGHLIGHT : SS_ROLE_TEXT;
}

/* insightbox_list draws the entries into r, one a row (mark and rule), the selected one in reverse video and kept
 * in view. */
static void insightbox_list(struct ss_grid *g, struct ss_rect r, const struct ss_insights *in, size_t cur, bool utf8)
{
	size_t first = 0;

	if (r.h <= 0)
		return;
	if (cur >= (size_t)r.h)
		first = cur - (size_t)r.h + 1;
	for (size_t i = first; i < in->n && (int)(i - first) < r.h; i++) {
		const struct ss_insight *x = &in->item[i];
		int y = r.y + (int)(i - first), col = r.x;
		unsigned attr = i == cur ? GRID_REVERSE : 0;

		grid_fill(g, (struct ss_rect){r.x, y, r.w, 1}, ' ', SS_ROLE_TEXT, attr);
		grid_set(g, col, y, insightbox_mark(x->severity, utf8), insightbox_role(x->severity), attr | GRID_BOLD);
		col += 2;
		grid_puts(g, col, y, r.x + r.w - col, x->rule, insightbox_role(x->severity), attr | GRID_BOLD);
	}
}

/* insightbox_text draws the selected entry's text into r, as many lines as fit: severity and rule, summary,
 * evidence, fix; each part's label (dim) opens its first line; then the gain, its first two lines kept room for
 * whatever of the text is cut, the rest where rows are left. */
static void insightbox_text(struct ss_grid *g, struct ss_rect r, const struct ss_insight *x, bool modelled)
{
	char line[INSIGHTBOX_MAX_LINES][INSIGHTBOX_LINE], gain[512], text[1100];
	const char *label[3] = {"", "evidence: ", "fix: "};
	const char *body[3] = {x->summary, x->evidence, x->fix != NULL ? x->fix : "-"};
	int y = r.y, ng, end;

	if (r.w <= 0 || r.h <= 0)
		return;
	grid_printf(g, r.x, y++, r.w, insightbox_role(x->severity), GRID_BOLD, "%s: %s",
	            insight_severity_name(x->severity), x->rule);
	insightbox_gain(x, modelled, gain, sizeof gain);
	ng = insightbox_wrap(gain, r.w, line, INSIGHTBOX_MAX_LINES);
	ng = ng < 2 ? ng : 2;
	end = r.y + r.h - ng > y ? r.y + r.h - ng : y;
	for (int p = 0; p < 3 && y < end; p++) {
		int n, lw = (int)strlen(label[p]);

		snprintf(text, sizeof text, "%s%s", label[p], body[p]);
		n = insightbox_wrap(text, r.w, line, INSIGHTBOX_MAX_LINES);
		for (int i = 0; i < n && i < INSIGHTBOX_MAX_LINES && y < end; i++, y++) {
			int skip = i == 0 && (int)strlen(line[i]) >= lw ? lw : 0;

			if (skip > 0)
				grid_puts(g, r.x, y, skip, line[i], SS_ROLE_DIM, 0);
			grid_puts(g, r.x + skip, y, r.w - skip, line[i] + skip, SS_ROLE_TEXT, 0);
		}
	}
	ng = insightbox_wrap(gain, r.w, line, INSIGHTBOX_MAX_LINES); /* all of it that fits below the text */
	for (int i = 0; i < ng && i < INSIGHTBOX_MAX_LINES && y < r.y + r.h; i++, y++)
		grid_puts(g, r.x, y, r.w, line[i], x->have_gain ? SS_ROLE_HIGHLIGHT : SS_ROLE_DIM, 0);
}

void insightbox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_insightbox_view *v,
                     const struct ss_glyphs *gl)
{
	char title[64];
	const struct ss_insights *in = v->in;
	struct ss_rect inner;
	size_t cur;

	if (r.w < 20 || r.h < 5)
		return;
	grid_box(g, r, gl->box, SS_ROLE_HIGHLIGHT);
	if (in != NULL)
		snprintf(title, sizeof title, " insights: %zu ", in->n);
	else
		snprintf(title, sizeof title, " insights ");
	grid_puts(g, r.x + 2, r.y, r.w - 4, title, SS_ROLE_HIGHLIGHT, GRID_BOLD);
	grid_puts(g, r.x + 2, r.y + r.h - 1, r.w - 4, " j/k select  Enter zoom  Esc close ", SS_ROLE_DIM, 0);
	inner = (struct ss_rect){r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	if (in == NULL) {
		grid_puts(g, inner.x, inner.y, inner.w,
		          v->running ? "the run is in progress: its insights come when it finishes"
		                     : "nothing to analyse yet",
		          SS_ROLE_DIM, 0);
		return;
	}
	if (in->n == 0) {
		grid_puts(g, inner.x, inner.y, inner.w, "no insight: no rule found a problem in this timeline",
		          SS_ROLE_TEXT, 0);
		return;
	}
	cur = v->cur < in->n ? v->cur : in->n - 1;
	if (inner.w >= INSIGHTBOX_SIDE_MIN) {
		/* the list left, a blank column, the text right */
		insightbox_list(g, (struct ss_rect){inner.x, inner.y, INSIGHTBOX_LIST_COLS - 1, inner.h}, in, cur,
		                gl->utf8);
		insightbox_text(g,
		                (struct ss_rect){inner.x + INSIGHTBOX_LIST_COLS + 1, inner.y,
		                                 inner.w - INSIGHTBOX_LIST_COLS - 1, inner.h},
		                &in->item[cur], v->modelled);
		for (int y = inner.y; y < inner.y + inner.h; y++)
			grid_set(g, inner.x + INSIGHTBOX_LIST_COLS, y, gl->box[1], SS_ROLE_AXIS, 0);
	} else {
		/* the list on top (at most half the rows), a rule, the text under it */
		int lh = (int)in->n < inner.h / 2 ? (int)in->n : inner.h / 2;

		insightbox_list(g, (struct ss_rect){inner.x, inner.y, inner.w, lh}, in, cur, gl->utf8);
		grid_fill(g, (struct ss_rect){inner.x, inner.y + lh, inner.w, 1}, gl->box[0], SS_ROLE_AXIS, 0);
		insightbox_text(g, (struct ss_rect){inner.x, inner.y + lh + 1, inner.w, inner.h - lh - 1},
		                &in->item[cur], v->modelled);
	}
}

const struct ss_insights *insightbox_analyze(struct ss_insightbox_cache *c, uint64_t id, const struct ss_timeline *tl,
                                             const struct ss_analysis *an, const struct ss_experiment *e)
{
	if (tl == NULL || an == NULL)
		return NULL;
	if (!c->valid || c->id != id || c->n != tl->n) {
		char *cause = NULL;

		insight_analyze_run(tl, an, e, &c->in);
		/* a model failure leaves the timeline's estimates: the panel still has every insight */
		if (e != NULL && remedy_apply(&model_backend, e, &c->in, NULL, &cause) != 0)
			free(cause);
		c->id = id;
		c->n = tl->n;
		c->valid = true;
	}
	return &c->in;
}
