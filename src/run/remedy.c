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

/* A configuration a searched fix tries: streams and chunks (0: one per stream). */
struct remedy_try {
	int streams, chunks;
};

/* remedy_valid tells whether x passes experiment_validate (whose reason, not wanted here, is dropped). */
static bool remedy_valid(const struct ss_experiment *x)
{
	char *why = NULL;
	bool ok = experiment_validate(x, &why) == 0;

	free(why);
	return ok;
}

/* remedy_try_exp makes x e with cand's streams and chunks (chunks within the streams: one per stream; one host thread
 * per stream where e has one): whether x is valid and not e itself. */
static bool remedy_try_exp(const struct ss_experiment *e, struct remedy_try cand, struct ss_experiment *x)
{
	*x = *e;
	x->streams = cand.streams;
	x->chunks = cand.chunks != 0 && cand.chunks <= x->streams ? 0 : cand.chunks;
	if (x->threads > 1)
		x->threads = x->streams;
	return !(x->streams == e->streams && x->chunks == e->chunks) && remedy_valid(x);
}

/* remedy_aligned_try: whether cand, applied to e, is a valid experiment whose chunks all start on a 128-byte line. */
static bool remedy_aligned_try(const struct ss_experiment *e, struct remedy_try cand)
{
	struct ss_experiment x;
	int devices = e->devices > 1 ? e->devices : 1;

	return remedy_try_exp(e, cand, &x) &&
	       planner_chunks_aligned(x.elements, x.chunks > 0 ? x.chunks : x.streams * devices, x.split, x.elem_size);
}

/* remedy_nearer puts lo (dlo below e's count) and hi (dhi above it) into tries, the nearer first and lo on a tie; a
 * distance of 0 is none. Returns how many. */
static int remedy_nearer(struct remedy_try lo, int dlo, struct remedy_try hi, int dhi, struct remedy_try tries[2])
{
	int n = 0;

	if (dlo > 0 && (dhi == 0 || dlo <= dhi))
		tries[n++] = lo;
	if (dhi > 0)
		tries[n++] = hi;
	if (dlo > 0 && n == 1 && dhi > 0)
		tries[n++] = lo;
	return n;
}

/* remedy_misaligned_tries fills tries with the configurations nearest e whose chunks all start on a 128-byte line,
 * the nearer first (below on a tie): with one chunk per stream the nearest stream counts below and above e's,
 * else the nearest chunk counts (no fewer than the streams). Returns how many (0, 1 or 2). */
static int remedy_misaligned_tries(const struct ss_experiment *e, struct remedy_try tries[2])
{
	int devices = e->devices > 1 ? e->devices : 1, total = e->streams * devices, lo = 0, hi = 0;

	if (e->chunks <= 0 || e->chunks == total) {
		for (int s = e->streams - 1; s >= 1 && lo == 0; s--)
			lo = remedy_aligned_try(e, (struct remedy_try){s, 0}) ? s : 0;
		for (int s = e->streams + 1; s <= SS_MAX_STREAMS && hi == 0; s++)
			hi = remedy_aligned_try(e, (struct remedy_try){s, 0}) ? s : 0;
		return remedy_nearer((struct remedy_try){lo, 0}, lo ? e->streams - lo : 0, (struct remedy_try){hi, 0},
		                     hi ? hi - e->streams : 0, tries);
	}
	if (e->chunks < total) /* fewer chunks than streams: the stream count does not cut the data */
		return 0;
	for (int k = e->chunks - 1; k >= total && lo == 0; k--)
		lo = remedy_aligned_try(e, (struct remedy_try){e->streams, k}) ? k : 0;
	for (int k = e->chunks + 1; k <= 65536 && hi == 0; k++)
		hi = remedy_aligned_try(e, (struct remedy_try){e->streams, k}) ? k : 0;
	return remedy_nearer((struct remedy_try){e->streams, lo}, lo ? e->chunks - lo : 0,
	                     (struct remedy_try){e->streams, hi}, hi ? hi - e->chunks : 0, tries);
}

/* remedy_describe sets r's rule, and its change in the command line's words from how r->fixed differs from e in
 * streams and chunks ("--streams 16", "--chunks 0 (one per stream)", "--streams 4 --chunks 64"). */
static void remedy_describe(struct ss_remedy *r, const char *rule, const struct ss_experiment *e)
{
	const struct ss_experiment *x = &r->fixed;

	r->rule = rule;
	if (x->streams != e->streams && x->chunks != e->chunks)
		snprintf(r->change, sizeof r->change, "--streams %d --chunks %d", x->streams, x->chunks);
	else if (x->streams != e->streams)
		snprintf(r->change, sizeof r->change, "--streams %d", x->streams);
	else
		snprintf(r->change, sizeof r->change, "--chunks %d%s", x->chunks,
		         x->chunks == 0 ? " (one per stream)" : "");
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
	if (strcmp(rule, "misaligned-chunks") == 0) {
		struct remedy_try tries[2];

		if (remedy_misaligned_tries(e, tries) == 0)
			return 0;
		remedy_try_exp(e, tries[0], &r->fixed);
		remedy_describe(r, rule, e);
		return 1;
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

/* misaligned-chunks keeps the aligned count nearer the experiment's unless the farther one is this much faster on
 * the model: nearer is closer to what the user chose, and a 1% difference is within the model's error (the advisor
 * takes the simplest configuration within 1% of the fastest alike). */
#define REMEDY_NEARER 0.01

/* remedy_search tries the configurations of tries (n of them; e's own, and invalid ones, skipped) on b, keeping in r
 * the fastest, an earlier one unless a later one is faster by the share keep or more: 1 when one ran, 0 when none
 * applied, -1 on failure. */
static int remedy_search(const struct ss_backend *b, const char *rule, const struct ss_experiment *e,
                         const struct remedy_try *tries, int n, double keep, struct ss_remedy *r, char **cause)
{
	uint64_t best = 0;
	int found = 0;

	for (int i = 0; i < n; i++) {
		struct ss_experiment x;
		uint64_t ns;

		if (!remedy_try_exp(e, tries[i], &x))
			continue;
		if ((ns = remedy_makespan(b, &x, cause)) == 0)
			return -1;
		if (found && (double)ns >= (1.0 - keep) * (double)best)
			continue;
		best = ns;
		found = 1;
		r->fixed = x;
		r->after_ns = ns;
		remedy_describe(r, rule, e);
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

		found = remedy_search(b, rule, e, tries, 2, 0, r, cause);
	} else if (strcmp(rule, "launch-bound") == 0) {
		int s = e->streams, k = e->chunks;
		struct remedy_try tries[] = {{s / 2, k}, {s / 4, k}, {s / 8, k}, {s, k / 4}, {s, k / 16}, {s, 0}};

		found = remedy_search(b, rule, e, tries, 6, 0, r, cause);
	} else if (strcmp(rule, "misaligned-chunks") == 0) {
		/* the nearest aligned counts below and above: the nearer, unless the other is REMEDY_NEARER faster */
		struct remedy_try tries[2];
		int n = remedy_misaligned_tries(e, tries);

		found = n > 0 ? remedy_search(b, rule, e, tries, n, REMEDY_NEARER, r, cause) : 0;
	} else if ((found = remedy_change(rule, e, r)) == 1) {
		r->modelled = b->modelled;
		if (!remedy_valid(&r->fixed))
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
		int rc;

		/* chunks off a line that cost nothing the timeline shows (no slower, or no launch ran alone to tell):
		 * the model's gain of another count would be that count's other effects, not the lines' */
		if (strcmp(x->rule, "misaligned-chunks") == 0 && !x->have_gain) {
			if (remedies != NULL)
				memset(&remedies[i], 0, sizeof remedies[i]);
			continue;
		}
		rc = remedy_gain(b, x->rule, e, &r, cause);

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
