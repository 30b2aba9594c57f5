/* insightbox.c: the insights panel; see insightbox.h. */
#include "tui/insightbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "model/model.h"
#include "run/remedy.h"
#include "tui/listbox.h"

/* Most lines of the gain kept (more than any panel shows). */
#define INSIGHTBOX_MAX_LINES 8

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
	struct ss_listbox_item it[SS_INSIGHT_MAX];

	for (size_t i = 0; i < in->n && i < SS_INSIGHT_MAX; i++)
		it[i] = (struct ss_listbox_item){insightbox_mark(in->item[i].severity, utf8),
		                                 insightbox_role(in->item[i].severity), in->item[i].rule};
	listbox_list(g, r, it, in->n < SS_INSIGHT_MAX ? in->n : SS_INSIGHT_MAX, cur);
}

/* insightbox_text draws the selected entry's text into r, as many lines as fit: severity and rule, summary,
 * evidence, fix; each part's label (dim) opens its first line; then the gain, its first two lines kept room for
 * whatever of the text is cut, the rest where rows are left. */
static void insightbox_text(struct ss_grid *g, struct ss_rect r, const struct ss_insight *x, bool modelled)
{
	char line[INSIGHTBOX_MAX_LINES][LISTBOX_LINE], gain[512];
	const char *label[3] = {"", "evidence: ", "fix: "};
	const char *body[3] = {x->summary, x->evidence, x->fix != NULL ? x->fix : "-"};
	int y = r.y, ng, end;

	if (r.w <= 0 || r.h <= 0)
		return;
	grid_printf(g, r.x, y++, r.w, insightbox_role(x->severity), GRID_BOLD, "%s: %s",
	            insight_severity_name(x->severity), x->rule);
	insightbox_gain(x, modelled, gain, sizeof gain);
	ng = listbox_wrap(gain, r.w, line, INSIGHTBOX_MAX_LINES);
	ng = ng < 2 ? ng : 2;
	end = r.y + r.h - ng > y ? r.y + r.h - ng : y;
	for (int p = 0; p < 3 && y < end; p++)
		listbox_para(g, r, &y, end, label[p], body[p], SS_ROLE_TEXT);
	ng = listbox_wrap(gain, r.w, line, INSIGHTBOX_MAX_LINES); /* all of it that fits below the text */
	for (int i = 0; i < ng && i < INSIGHTBOX_MAX_LINES && y < r.y + r.h; i++, y++)
		grid_puts(g, r.x, y, r.w, line[i], x->have_gain ? SS_ROLE_HIGHLIGHT : SS_ROLE_DIM, 0);
}

void insightbox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_insightbox_view *v,
                     const struct ss_glyphs *gl)
{
	char title[64];
	const struct ss_insights *in = v->in;
	struct ss_rect inner, list, text;
	size_t cur;

	if (in != NULL)
		snprintf(title, sizeof title, " insights: %zu ", in->n);
	else
		snprintf(title, sizeof title, " insights ");
	inner = listbox_frame(g, r, title, " j/k select  Enter zoom  Esc close ", gl);
	if (inner.w <= 0)
		return;
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
	listbox_split(g, inner, in->n, gl, &list, &text);
	insightbox_list(g, list, in, cur, gl->utf8);
	insightbox_text(g, text, &in->item[cur], v->modelled);
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
