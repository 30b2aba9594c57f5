/* remedy.c: insights' fixes as experiment changes, and their gains re-run on a backend (see remedy.h). */
#include "run/remedy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "core/units.h"
#include "run/runner.h"

static int remedy_set(struct ss_remedy *r, const char *rule, const char *fmt, const char *value)
{
	r->rule = rule;
	snprintf(r->change, sizeof r->change, fmt, value);
	return 1;
}

/* remedy_queues gives every stream of r->fixed a hardware queue (32 at most); 0 when it already has. */
static int remedy_queues(struct ss_remedy *r, const char *rule)
{
	int q = r->fixed.streams < SS_MAX_CONNECTIONS ? r->fixed.streams : SS_MAX_CONNECTIONS;
	char n[16];

	if (r->fixed.connections >= q)
		return 0;
	r->fixed.connections = q;
	snprintf(n, sizeof n, "%d", q);
	return remedy_set(r, rule, "--connections %s", n);
}

int remedy_change(const char *rule, const struct ss_experiment *e, struct ss_remedy *r)
{
	memset(r, 0, sizeof *r);
	r->fixed = *e;
	if (strcmp(rule, "pageable-copy") == 0 && e->hostmem == SS_MEM_PAGEABLE) {
		r->fixed.hostmem = SS_MEM_PINNED;
		return remedy_set(r, rule, "--host-mem %s", experiment_hostmem_name(SS_MEM_PINNED));
	}
	if (strcmp(rule, "legacy-stream-sync") == 0 && e->defstream != SS_DS_NONE && e->defstream != SS_DS_PER_THREAD) {
		r->fixed.defstream = SS_DS_PER_THREAD;
		return remedy_set(r, rule, "--default-stream %s", experiment_defstream_name(SS_DS_PER_THREAD));
	}
	if (strcmp(rule, "false-dependency") == 0) {
		if (remedy_queues(r, rule))
			return 1;
		if (e->order == SS_ORDER_DEPTH) {
			r->fixed.order = SS_ORDER_BREADTH;
			return remedy_set(r, rule, "--order %s", experiment_order_name(SS_ORDER_BREADTH));
		}
		return 0;
	}
	if (strcmp(rule, "low-kernel-concurrency") == 0)
		return remedy_queues(r, rule);
	if (strcmp(rule, "host-sync-order") == 0 && e->sync == SS_SYNC_REVERSE) {
		r->fixed.sync = SS_SYNC_STREAM;
		return remedy_set(r, rule, "--sync %s", experiment_sync_name(SS_SYNC_STREAM));
	}
	if (strcmp(rule, "small-copies") == 0 && e->chunks > e->streams) {
		r->fixed.chunks = 0;
		return remedy_set(r, rule, "--chunks %s", "0 (one per stream)");
	}
	if (strcmp(rule, "managed-migration") == 0 && e->hostmem == SS_MEM_MANAGED_ATTACH &&
	    e->kernel != SS_KERNEL_TASK) {
		r->fixed.hostmem = SS_MEM_MANAGED_PREFETCH;
		return remedy_set(r, rule, "--host-mem %s", experiment_hostmem_name(SS_MEM_MANAGED_PREFETCH));
	}
	return 0;
}

/* remedy_makespan runs e on b (valid), keeping no records: its makespan (the untraced one where b measured one),
 * 0 with *cause on failure. */
static uint64_t remedy_makespan(const struct ss_backend *b, const struct ss_experiment *e, char **cause)
{
	if (experiment_validate(e, cause) != 0)
		return 0;
	return runner_makespan(b, e, NULL, cause);
}

/* A configuration a searched fix tries: streams and chunks (0: one per stream). */
struct remedy_try {
	int streams, chunks;
};

/* remedy_search tries the configurations of tries (n of them; e's own, and invalid ones, skipped) on b, keeping the
 * fastest in r: 1 when one ran, 0 when none applied, -1 on failure. */
static int remedy_search(const struct ss_backend *b, const char *rule, const struct ss_experiment *e,
                         const struct remedy_try *tries, int n, struct ss_remedy *r, char **cause)
{
	uint64_t best = 0;
	int found = 0;

	for (int i = 0; i < n; i++) {
		struct ss_experiment x = *e;
		uint64_t ns;
		char v[64];

		x.streams = tries[i].streams;
		x.chunks = tries[i].chunks != 0 && tries[i].chunks <= x.streams ? 0 : tries[i].chunks;
		if (x.threads > 1)
			x.threads = x.streams;
		if ((x.streams == e->streams && x.chunks == e->chunks) || experiment_validate(&x, NULL) != 0)
			continue;
		if ((ns = remedy_makespan(b, &x, cause)) == 0)
			return -1;
		if (found && ns >= best)
			continue;
		best = ns;
		found = 1;
		r->fixed = x;
		r->after_ns = ns;
		if (x.streams != e->streams && x.chunks != e->chunks)
			snprintf(v, sizeof v, "%d --chunks %d", x.streams, x.chunks);
		else if (x.streams != e->streams)
			snprintf(v, sizeof v, "%d", x.streams);
		remedy_set(r, rule, x.streams != e->streams ? "--streams %s" : "--chunks %s", v);
		if (x.streams == e->streams)
			snprintf(r->change, sizeof r->change, "--chunks %d%s", x.chunks,
			         x.chunks == 0 ? " (one per stream)" : "");
	}
	return found;
}

int remedy_gain(const struct ss_backend *b, const char *rule, const struct ss_experiment *e, struct ss_remedy *r,
                char **cause)
{
	int found;

	memset(r, 0, sizeof *r);
	r->modelled = b->modelled;
	if (strcmp(rule, "no-overlap") == 0 && e->streams < 4) {
		static const struct remedy_try tries[] = {{4, 0}, {8, 0}};

		found = remedy_search(b, rule, e, tries, 2, r, cause);
	} else if (strcmp(rule, "launch-bound") == 0) {
		int s = e->streams, k = e->chunks;
		struct remedy_try tries[] = {{s / 2, k}, {s / 4, k}, {s / 8, k}, {s, k / 4}, {s, k / 16}, {s, 0}};

		found = remedy_search(b, rule, e, tries, 6, r, cause);
	} else if ((found = remedy_change(rule, e, r)) == 1) {
		r->modelled = b->modelled;
		if (experiment_validate(&r->fixed, NULL) != 0)
			return 0;
		if ((r->after_ns = remedy_makespan(b, &r->fixed, cause)) == 0)
			return -1;
	}
	if (found <= 0)
		return found;
	if ((r->before_ns = remedy_makespan(b, e, cause)) == 0)
		return -1;
	return 1;
}

int remedy_apply(const struct ss_backend *b, const struct ss_experiment *e, struct ss_insights *in,
                 struct ss_remedy remedies[SS_INSIGHT_MAX], char **cause)
{
	for (size_t i = 0; i < in->n; i++) {
		struct ss_insight *x = &in->item[i];
		struct ss_remedy r;
		char b1[32], b2[32];
		int rc = remedy_gain(b, x->rule, e, &r, cause);

		if (remedies != NULL)
			remedies[i] = r;
		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (remedies != NULL)
				remedies[i].rule = NULL;
			continue;
		}
		x->have_gain = true;
		x->gain_ns = r.before_ns > r.after_ns ? r.before_ns - r.after_ns : 0;
		snprintf(x->gain_how, sizeof x->gain_how, "%s: the experiment re-run with %s, %s -> %s%s",
		         r.modelled ? "modelled" : "measured", r.change, units_time(r.before_ns, b1, sizeof b1),
		         units_time(r.after_ns, b2, sizeof b2),
		         r.after_ns >= r.before_ns ? " (the fix does not help here)" : "");
	}
	return 0;
}

static int remedy_cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* remedy_measure runs e on gpu once (a child): its untraced makespan, else the traced one; 0 with *code on
 * failure. */
static uint64_t remedy_measure(const struct ss_backend *gpu, const struct ss_experiment *e, int *code, char **cause)
{
	struct ss_timeline tl;
	struct ss_run_result res;

	timeline_init(&tl);
	memset(&res, 0, sizeof res);
	*code = runner_run(gpu, e, &tl, &res, cause);
	timeline_free(&tl);
	if (*code != 0)
		return 0;
	return res.have_untraced ? res.untraced_ns : res.traced_ns;
}

int remedy_verify(const struct ss_backend *gpu, const struct ss_experiment *e, struct ss_remedy *r, char **cause)
{
	uint64_t before[SS_REMEDY_ROUNDS], after[SS_REMEDY_ROUNDS];
	int code = 0;

	for (int k = 0; k < SS_REMEDY_ROUNDS; k++) {
		if ((before[k] = remedy_measure(gpu, e, &code, cause)) == 0 ||
		    (after[k] = remedy_measure(gpu, &r->fixed, &code, cause)) == 0)
			return code != 0 ? code : 3;
	}
	qsort(before, SS_REMEDY_ROUNDS, sizeof before[0], remedy_cmp_u64);
	qsort(after, SS_REMEDY_ROUNDS, sizeof after[0], remedy_cmp_u64);
	r->measured = true;
	r->measured_before_ns = before[SS_REMEDY_ROUNDS / 2];
	r->measured_after_ns = after[SS_REMEDY_ROUNDS / 2];
	r->rounds = SS_REMEDY_ROUNDS;
	return 0;
}
