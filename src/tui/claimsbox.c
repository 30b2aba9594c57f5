/* claimsbox.c: the claims panel; see claimsbox.h. */
#include "tui/claimsbox.h"

#include <stdio.h>
#include <string.h>

#include "core/palette.h"
#include "tui/listbox.h"

enum ss_claimsbox_effect claimsbox_key(struct ss_claimsbox *b, int n, enum ss_action act)
{
	size_t count = n > 0 ? (size_t)n : 0;

	if (b->cur >= count)
		b->cur = count > 0 ? count - 1 : 0;
	switch (act) {
	case ACT_CLOSE:
	case ACT_CLAIMS:
		b->open = false;
		return CLAIMSBOX_DONE;
	case ACT_LANE_DOWN:
	case ACT_SCROLL_DOWN:
		if (b->cur + 1 < count)
			b->cur++;
		return CLAIMSBOX_DONE;
	case ACT_LANE_UP:
	case ACT_SCROLL_UP:
		if (b->cur > 0)
			b->cur--;
		return CLAIMSBOX_DONE;
	default:
		return CLAIMSBOX_IGNORED;
	}
}

uint32_t claimsbox_mark(enum ss_verdict v, bool utf8)
{
	switch (v) {
	case SS_VERDICT_HOLDS:
		return utf8 ? 0x2714 : '+'; /* heavy check mark */
	case SS_VERDICT_FAILS:
		return utf8 ? 0x2718 : 'x'; /* heavy ballot x */
	default:
		return '?';
	}
}

/* claimsbox_role is the colour of a verdict: a claim that holds stands out, one that does not warns, one not
 * measured is dim. */
static int claimsbox_role(enum ss_verdict v)
{
	return v == SS_VERDICT_HOLDS ? SS_ROLE_HIGHLIGHT : v == SS_VERDICT_FAILS ? SS_ROLE_WARN : SS_ROLE_DIM;
}

void claimsbox_claims(struct ss_claimsbox_cache *c, const struct ss_sweep *s, const struct ss_claimsbox_run *run,
                      const struct ss_claimsbox_run *pinned, struct ss_claimsbox_view *v)
{
	static const char *const other = "the documents' claims judge their own programs: not an experiment file's "
	                                 "steps nor a run over several GPUs";
	size_t cur = v->cur;
	uint64_t pin_id = 0;
	size_t pin_n = 0;

	memset(v, 0, sizeof *v);
	v->cur = cur;
	v->sweep = s != NULL;
	if (s != NULL) {
		if (!claims_applies(&s->base))
			snprintf(v->none, sizeof v->none, "%s", other);
		else if (sweep_progress(s) < s->n)
			snprintf(v->none, sizeof v->none,
			         "the sweep's claims come when every point has run (%zu of %zu)", sweep_progress(s),
			         s->n);
		else if ((v->n = claims_sweep(s, c->sweep)) > 0)
			v->c = c->sweep;
		else
			snprintf(
			    v->none, sizeof v->none,
			    "this sweep supports none of the documents' claims: kernel-transfer's and decrypt's sweeps "
			    "judge 001's and 000's, vector-add's best against weaker 003's issue order "
			    "(`streamscope claims` runs every claim)");
		return;
	}
	if (run == NULL || run->tl == NULL || run->an == NULL) {
		snprintf(v->none, sizeof v->none, "%s",
		         run == NULL || run->tl == NULL ? "nothing has run yet"
		                                        : "the run is in progress: its claims come when it finishes");
		return;
	}
	if (run->e == NULL) {
		snprintf(v->none, sizeof v->none,
		         "a trace: it does not say it ran one of the documents' programs on one GPU, "
		         "as streamscope's SQLite export of a run does; `streamscope claims` runs them");
		return;
	}
	if (!claims_applies(run->e)) {
		snprintf(v->none, sizeof v->none, "%s", other);
		return;
	}
	if (pinned != NULL && pinned->tl != NULL && pinned->an != NULL && pinned->e != NULL && pinned->id != run->id) {
		pin_id = pinned->id;
		pin_n = pinned->tl->n;
	}
	if (!c->valid || c->id != run->id || c->n != run->tl->n || c->pin_id != pin_id || c->pin_n != pin_n) {
		struct ss_claims_obs obs, pobs;

		claims_observe(run->tl, &obs);
		c->nrun = 0;
		if (pin_id != 0) {
			claims_observe(pinned->tl, &pobs);
			c->nrun = claims_pair(pinned->e, pinned->an, &pobs, run->e, run->an, &obs,
			                      pinned->modelled || run->modelled, c->run);
		}
		c->pair = c->nrun > 0;
		c->nrun += claims_run(run->e, run->an, &obs, run->modelled, c->run + c->nrun);
		c->id = run->id;
		c->n = run->tl->n;
		c->pin_id = pin_id;
		c->pin_n = pin_n;
		c->valid = true;
	}
	v->pair = c->pair;
	if ((v->n = c->nrun) > 0)
		v->c = c->run;
	else
		snprintf(
		    v->none, sizeof v->none,
		    "this run supports none of the documents' claims: s sweeps the stream counts (001's and 000's "
		    "claims), p pins it to judge it with the next run (sync order, stream 0, issue order, threads), "
		    "and `streamscope claims` runs every one");
}

/* claimsbox_text draws claim x into r (pair: the one the pinned and the shown run judge): its id and verdict, then what
 * was measured, the claim, what it expects and the evidence, as many lines as fit. */
static void claimsbox_text(struct ss_grid *g, struct ss_rect r, const struct ss_claim *x, bool pair)
{
	int y = r.y, end = r.y + r.h;

	if (r.w <= 0 || r.h <= 0)
		return;
	grid_printf(g, r.x, y++, r.w, claimsbox_role(x->verdict), GRID_BOLD, "%s: %s%s", x->id,
	            claims_verdict_words(x->verdict), x->modelled ? " (modelled)" : "");
	if (pair)
		listbox_para(g, r, &y, end, "", "judged by A (pinned) against B", SS_ROLE_DIM);
	listbox_para(g, r, &y, end, "", x->measured, SS_ROLE_TEXT);
	listbox_para(g, r, &y, end, "claim: ", x->text, SS_ROLE_TEXT);
	listbox_para(g, r, &y, end, "expected: ", x->expected, SS_ROLE_TEXT);
	listbox_para(g, r, &y, end, "evidence: ", x->evidence, SS_ROLE_TEXT);
}

void claimsbox_draw(struct ss_grid *g, struct ss_rect r, const struct ss_claimsbox_view *v, const struct ss_glyphs *gl)
{
	struct ss_listbox_item it[SS_CLAIMS_MAX];
	struct ss_rect inner, list, text;
	char title[80];
	bool modelled = false;
	int n = v->n < SS_CLAIMS_MAX ? v->n : SS_CLAIMS_MAX, held = 0;
	const char *whose = v->sweep ? "the sweep's" : v->pair ? "A and B's" : "the run's";
	size_t cur;

	for (int i = 0; i < n; i++) {
		modelled = modelled || v->c[i].modelled;
		held += v->c[i].verdict == SS_VERDICT_HOLDS;
	}
	if (n > 0)
		snprintf(title, sizeof title, " %s claims: %d, %d hold%s ", whose, n, held,
		         modelled ? " (MODELLED)" : "");
	else
		snprintf(title, sizeof title, " %s claims ", whose);
	inner = listbox_frame(g, r, title, n > 0 ? " j/k select  Esc close " : " Esc close ", gl);
	if (inner.w <= 0)
		return;
	if (n <= 0 || v->c == NULL) {
		int y = inner.y;

		listbox_para(g, inner, &y, inner.y + inner.h, "", v->none[0] ? v->none : "no claims", SS_ROLE_DIM);
		return;
	}
	cur = v->cur < (size_t)n ? v->cur : (size_t)n - 1;
	for (int i = 0; i < n; i++)
		it[i] = (struct ss_listbox_item){claimsbox_mark(v->c[i].verdict, gl->utf8),
		                                 claimsbox_role(v->c[i].verdict), v->c[i].id};
	listbox_split(g, inner, (size_t)n, gl, &list, &text);
	listbox_list(g, list, it, (size_t)n, cur);
	claimsbox_text(g, text, &v->c[cur], v->pair && cur == 0);
}
