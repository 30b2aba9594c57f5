/* advicebox.c: the advice panel; see advicebox.h. */
#include "tui/advicebox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/palette.h"
#include "core/units.h"
#include "model/model.h"
#include "tui/listbox.h"

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

void advicebox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_advicebox_view *v, const struct ss_glyphs *gl)
{
	const struct ss_advice *a = v->a;
	struct ss_rect inner;
	char t1[32], t2[32], buf[512];
	int y, end;

	inner =
	    listbox_frame(g, r, " advice (MODELLED) ",
	                  a == NULL || a->best_is_current ? " Esc close " : " Enter apply (re-run)  Esc close ", gl);
	if (inner.w <= 0)
		return;
	y = inner.y;
	end = inner.y + inner.h;
	if (a == NULL) {
		listbox_para(g, inner, &y, end, "",
		             v->error != NULL && v->error[0] ? v->error : "no experiment to advise on", SS_ROLE_WARN);
		return;
	}
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
			listbox_para(g, inner, &y, end, "", buf, SS_ROLE_HIGHLIGHT);
	}
	if (y < inner.y + inner.h)
		y++;
	listbox_para(g, inner, &y, end, "", a->explanation, SS_ROLE_TEXT);
	if (y < inner.y + inner.h) {
		snprintf(buf, sizeof buf, "%zu configurations modelled on %s", a->searched, a->device);
		listbox_para(g, inner, &y, end, "", buf, SS_ROLE_DIM);
	}
}
