/* advicebox.c: the advice panel; see advicebox.h. */
#include "tui/advicebox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "model/model.h"
#include "tui/insightbox.h"

enum ss_advicebox_effect advicebox_key(struct ss_advicebox *b, const struct ss_advice *a, enum ss_action act)
{
	switch (act) {
	case ACT_ZOOM_SEL: /* Enter */
		if (a == NULL || a->best_is_current)
			return ADVICEBOX_DONE;
		b->open = false;
		return ADVICEBOX_APPLY;
	case ACT_CLOSE:
	case ACT_ADVISE:
		b->open = false;
		return ADVICEBOX_DONE;
	default:
		return ADVICEBOX_IGNORED;
	}
}

const struct ss_advice *advicebox_advise(struct ss_advicebox_cache *c, const struct ss_experiment *e)
{
	char *cause = NULL;

	if (c->valid && memcmp(&c->e, e, sizeof *e) == 0)
		return c->failed ? NULL : &c->a;
	c->e = *e;
	c->valid = true;
	c->failed = advise_search(&model_backend, e, NULL, &c->a, &cause) != 0;
	snprintf(c->error, sizeof c->error, "%s", c->failed && cause != NULL ? cause : "");
	free(cause);
	return c->failed ? NULL : &c->a;
}

/* advicebox_lines draws text wrapped into r's width from row *y on, at most to r's last row. */
static void advicebox_lines(struct ss_grid *g, struct ss_rect r, int *y, const char *text, int role)
{
	char line[8][INSIGHTBOX_LINE];
	int n = insightbox_wrap(text, r.w, line, 8);

	for (int i = 0; i < n && i < 8 && *y < r.y + r.h; i++)
		grid_puts(g, r.x, (*y)++, r.w, line[i], role, 0);
}

void advicebox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_advicebox_view *v, const struct ss_glyphs *gl)
{
	const struct ss_advice *a = v->a;
	struct ss_rect inner;
	char t1[32], t2[32], buf[512];
	int y;

	if (r.w < 20 || r.h < 5)
		return;
	grid_box(g, r, gl->box, SS_ROLE_HIGHLIGHT);
	grid_puts(g, r.x + 2, r.y, r.w - 4, " advice (MODELLED) ", SS_ROLE_HIGHLIGHT, GRID_BOLD);
	inner = (struct ss_rect){r.x + 2, r.y + 1, r.w - 4, r.h - 2};
	y = inner.y;
	if (a == NULL) {
		grid_puts(g, r.x + 2, r.y + r.h - 1, r.w - 4, " Esc close ", SS_ROLE_DIM, 0);
		advicebox_lines(g, inner, &y, v->error != NULL && v->error[0] ? v->error : "no experiment to advise on",
		                SS_ROLE_WARN);
		return;
	}
	grid_puts(g, r.x + 2, r.y + r.h - 1, r.w - 4,
	          a->best_is_current ? " Esc close " : " Enter apply (re-run)  Esc close ", SS_ROLE_DIM, 0);
	grid_printf(g, inner.x, y++, inner.w, SS_ROLE_TEXT, 0, "current %s",
	            units_time(a->current.predicted_ns, t1, sizeof t1));
	if (a->best_is_current) {
		grid_printf(g, inner.x, y++, inner.w, SS_ROLE_TEXT, 0, "best    %s: the current configuration",
		            units_time(a->best.predicted_ns, t1, sizeof t1));
	} else {
		grid_printf(g, inner.x, y++, inner.w, SS_ROLE_HIGHLIGHT, GRID_BOLD, "best    %s: %s faster (%.1f%%)",
		            units_time(a->best.predicted_ns, t1, sizeof t1),
		            units_time((uint64_t)a->gain_ns, t2, sizeof t2), a->gain_pct);
		if (experiment_changes(&a->current.e, &a->best.e, NULL, buf, sizeof buf) > 0 && y < inner.y + inner.h)
			advicebox_lines(g, inner, &y, buf, SS_ROLE_HIGHLIGHT);
	}
	if (y < inner.y + inner.h)
		y++;
	advicebox_lines(g, inner, &y, a->explanation, SS_ROLE_TEXT);
	if (y < inner.y + inner.h) {
		snprintf(buf, sizeof buf, "%zu configurations modelled on %s", a->searched, a->device);
		advicebox_lines(g, inner, &y, buf, SS_ROLE_DIM);
	}
}
