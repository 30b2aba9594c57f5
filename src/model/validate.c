/* validate.c: runs the preset matrix on a GPU backend and on the model and compares them. */
#include "model/validate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/analysis.h"
#include "core/planner.h"
#include "core/stats.h"
#include "core/timeline.h"
#include "core/vec.h"
#include "core/xalloc.h"
#include "model/calibrate.h"
#include "model/model.h"
#include "run/runner.h"

#define VALIDATE_HEADER_V1                                                                                             \
	"preset,streams,order,connections,measured_ns,measured_untraced,model_ns,measured_overlap,model_overlap,"      \
	"measured_cross,model_cross"
/* Since the rows carry their own runs' call costs: one more column, "-" when a row has none. */
#define VALIDATE_HEADER VALIDATE_HEADER_V1 ",calls"
/* Written above the header since the run timer starts before a thread's first call when that call does its op's
 * work (planner_start_before): VALIDATE_TIMER_LINE_V1 while that was prefetches and pageable copies, the line now
 * since attaches too. A file's rows that such a call starts, where the file's line (or its lack of one) says the
 * timer started after that call, were measured over a shorter span than the CUDA backend and the model now time:
 * validate_read_csv leaves them out. */
#define VALIDATE_LINE_MAX 65536 /* bytes: the longest line a --check CSV may have (its own are under 1k) */
#define VALIDATE_TIMER_LINE_V1 "# timer: starts before a first call that does its op's work"
#define VALIDATE_TIMER_LINE "# timer: starts before a first call that does its op's work, an attach too"
/* Written above the header when every untraced row of the file was measured with CUPTI detached from the process
 * (cupti_capture_detach); a file without it had CUPTI attached, which costs each call of the twin. */
#define VALIDATE_UNTRACED_LINE "# untraced: CUPTI detached"

/* How far apart the two orders' measured makespans must be for their direction to count. */
#define VALIDATE_ORDER_GAP 0.05
/* Overlap below this share of the makespan counts as "no overlap". */
#define VALIDATE_NO_OVERLAP 0.05

static struct ss_validate_row *validate_push(struct ss_validate_set *s)
{
	struct ss_validate_row *r;

	r = VEC_PUSH(s->row, s->n, s->cap, 64);
	memset(r, 0, sizeof *r);
	r->measured_overlap = r->model_overlap = -1;
	r->measured_cross = r->model_cross = -1;
	return r;
}

void validate_matrix(bool quick, struct ss_validate_set *s)
{
	static const int conns[] = {1, 8};

	for (int p = 0; p < SS_PRESET_COUNT; p++)
		for (int n = 1; n <= (quick ? 8 : SS_MAX_STREAMS); n *= quick ? 8 : 2)
			for (int k = 0; k < 2; k++)
				for (size_t c = 0; c < sizeof conns / sizeof conns[0]; c++) {
					struct ss_validate_row *r;

					if (p == SS_PRESET_MANAGED_THREADS && k == 1)
						continue; /* its tasks run in turn, depth-first only */
					r = validate_push(s);

					r->preset = p;
					r->streams = n;
					/* vector-add in document 003's two orders, the others depth- and breadth-first
					 */
					r->order = p == SS_PRESET_VECTOR_ADD ? SS_ORDER_BEST + k : k;
					r->connections = conns[c];
				}
}

void validate_experiment(const struct ss_validate_row *r, struct ss_experiment *e)
{
	experiment_preset(e, r->preset);
	e->streams = r->streams;
	e->order = r->order;
	e->connections = r->connections;
	if (e->threads > 1)
		e->threads = e->streams;
}

/* The timer line a file needs for row r to have been timed as now (0: none, 1: VALIDATE_TIMER_LINE_V1, 2:
 * VALIDATE_TIMER_LINE): whether the run timer of r's experiment starts before some thread's first GPU op
 * (planner_start_before), and whether that op is an attach. */
static int validate_timer_level(const struct ss_validate_row *r)
{
	struct ss_experiment e;
	struct ss_oplist ops;
	int level = 0, *start_at;

	validate_experiment(r, &e);
	planner_build(&e, &ops);
	start_at = xcalloc(ops.n + 1, sizeof *start_at);
	planner_start_events(&ops, e.threads, start_at);
	for (size_t i = 0; i < ops.n; i++)
		if (start_at[i] >= 0 && planner_start_before(&e, &ops.op[i]))
			level = ops.op[i].kind == SS_OP_ATTACH ? 2 : level > 1 ? level : 1;
	free(start_at);
	planner_free(&ops);
	return level;
}

/* validate_cross counts GPU records of experiment streams that run while a legacy-stream GPU record runs; -1 when
 * there is no legacy-stream GPU record. */
static int validate_cross(const struct ss_timeline *tl)
{
	int n = -1;

	for (size_t i = 0; i < tl->n; i++) {
		const struct ss_record *l = &tl->rec[i];

		if (l->stream != SS_STREAM_LEGACY || !(SS_GPU_KINDS & SS_KIND_BIT(l->kind)))
			continue;
		if (n < 0)
			n = 0;
		for (size_t j = 0; j < tl->n; j++) {
			const struct ss_record *r = &tl->rec[j];

			if (r->stream >= 0 && (SS_GPU_KINDS & SS_KIND_BIT(r->kind)) && r->start < l->end &&
			    r->end > l->start)
				n++;
		}
	}
	return n;
}

static double validate_overlap(const struct ss_timeline *tl)
{
	struct ss_analysis a;

	analysis_timeline(tl, &a);
	return a.makespan_ns > 0 ? a.overlap : 0;
}

static void validate_row_calls(const struct ss_profile *p, const struct ss_validate_set *s,
                               const struct ss_experiment *e, const struct ss_timeline *tl, bool traced,
                               struct ss_validate_row *r);

int validate_measure(const struct ss_backend *gpu, const struct ss_profile *p, struct ss_validate_set *s, size_t i,
                     char **cause)
{
	struct ss_validate_row *r = &s->row[i];
	struct ss_experiment e;
	struct ss_timeline tl;
	struct ss_run_result res;
	int rc;

	validate_experiment(r, &e);
	timeline_init(&tl);
	rc = runner_run(gpu, &e, &tl, &res, cause);
	if (rc == 0) {
		r->measured_untraced = res.have_untraced && res.untraced_ns > 0;
		r->measured_ns = r->measured_untraced ? res.untraced_ns : res.traced_ns;
		r->measured_detached = r->measured_untraced && res.untraced_detached;
		r->measured_overlap = validate_overlap(&tl);
		r->measured_cross = validate_cross(&tl);
		r->measured_n = 1;
		r->measured_spread = 0;
		snprintf(s->device, sizeof s->device, "%s", res.device);
		validate_row_calls(p, s, &e, &tl, !res.modelled, r);
	}
	timeline_free(&tl);
	return rc;
}

/* The profile keys of the host's side that a matrix's host line may carry (what calibrate_host measures). */
static const char *const validate_host_keys[] = {
    "api.copy_ns",        "api.copy_queues_ns", "api.launch_ns",         "api.switch_ns", "api.switch_queues_ns",
    "api.launch_wait_ns", "api.event_ns",       "api.trace_overhead_ns", "host.gap_ns",
};

/* The keys a row's own run may show: the call durations calibrate_calls measures (not host.gap_ns, which one run's
 * few gaps give poorly). */
static const char *const validate_call_keys[] = {
    "api.copy_ns",     "api.launch_ns",          "api.switch_ns", "api.launch_wait_ns", "api.launch_prefetch_wait_ns",
    "api.prefetch_ns", "api.prefetch_switch_ns",
};

/* The extras of several hardware queues that turned a row's copy and switch costs into costs with one queue. */
static const char *const validate_queue_keys[] = {"api.copy_queues_ns", "api.switch_queues_ns"};

/* validate_keys_format writes "key=value" of p's keys[0..n) into buf, separated by sep; a key whose value equals
 * unless's (when given) is left out. */
static void validate_keys_format(const char *const *keys, size_t n, const struct ss_profile *p,
                                 const struct ss_profile *unless, char sep, char *buf, size_t len)
{
	size_t used = 0;

	if (len > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		int k = profile_key_find(keys[i]);
		int w;

		if (k < 0 || (unless != NULL && profile_get(unless, k) == profile_get(p, k)))
			continue;
		w = snprintf(buf + used, len - used, "%s%s=%.0f", used ? (char[]){sep, '\0'} : "", keys[i],
		             profile_get(p, k));
		if (w < 0 || (size_t)w >= len - used) {
			buf[used] = '\0';
			break;
		}
		used += (size_t)w;
	}
}

void validate_host_format(const struct ss_profile *p, char *buf, size_t len)
{
	validate_keys_format(validate_host_keys, sizeof validate_host_keys / sizeof validate_host_keys[0], p, NULL, ' ',
	                     buf, len);
}

/* validate_costs_apply sets the costs of list `costs` (a host line or a row's calls) in p, as
 * validate_host_apply. Lists written before copy and switch costs were split by the hardware queues in use carry no
 * api.copy_queues_ns: their api.copy_ns and api.switch_ns are costs with the queues of the runs that measured them
 * (1 - 1/q = f: 7/8 for a host line, whose copies came from 128 streams on 8 queues; the row's own for its calls),
 * which p's extras per 1 - 1/q turn into costs with one queue. */
static int validate_costs_apply(const char *costs, double f, struct ss_profile *p, char **cause)
{
	if (validate_host_apply(costs, p, cause) != 0)
		return -1;
	if (strstr(costs, "api.copy_queues_ns=") == NULL) {
		if (strstr(costs, "api.copy_ns=") != NULL)
			p->api_copy_ns = fmax(0.0, p->api_copy_ns - f * p->api_copy_queues_ns);
		if (strstr(costs, "api.switch_ns=") != NULL)
			p->api_switch_ns = fmax(0.0, p->api_switch_ns - f * p->api_switch_queues_ns);
	}
	return 0;
}

/* validate_row_calls fills r->calls with the call costs row r's run (e, tl; traced: by CUPTI, whose cost per call
 * comes off) shows, over p with s's host line; empty when it shows none or its calls wait. */
static void validate_row_calls(const struct ss_profile *p, const struct ss_validate_set *s,
                               const struct ss_experiment *e, const struct ss_timeline *tl, bool traced,
                               struct ss_validate_row *r)
{
	struct ss_profile base = *p, own;
	char *why = NULL;

	r->calls[0] = '\0';
	if (s->host[0] != '\0' && validate_costs_apply(s->host, 7.0 / 8, &base, &why) != 0) {
		free(why);
		return;
	}
	own = base;
	if (calibrate_calls(e, tl, traced ? base.trace_ns : 0, &own) == 0) {
		size_t used;

		validate_keys_format(validate_call_keys, sizeof validate_call_keys / sizeof validate_call_keys[0], &own,
		                     &base, ';', r->calls, sizeof r->calls);
		/* copy and switch costs are with one queue: say with which extras they were turned into that */
		used = strlen(r->calls);
		if ((strstr(r->calls, "api.copy_ns=") != NULL || strstr(r->calls, "api.switch_ns=") != NULL) &&
		    used + 1 < sizeof r->calls) {
			r->calls[used] = ';';
			validate_keys_format(validate_queue_keys, 2, &own, NULL, ';', r->calls + used + 1,
			                     sizeof r->calls - used - 1);
		}
	}
}

int validate_host_apply(const char *host, struct ss_profile *p, char **cause)
{
	char *copy = xstrdup(host), *save = NULL, *tok;
	int rc = 0;

	for (tok = strtok_r(copy, " ;", &save); tok != NULL && rc == 0; tok = strtok_r(NULL, " ;", &save)) {
		char *eq = strchr(tok, '='), *end;
		double v;
		int k;

		if (eq == NULL) {
			*cause = xasprintf("host cost '%s' is not KEY=VALUE", tok);
			rc = -1;
			break;
		}
		*eq = '\0';
		if ((strncmp(tok, "api.", 4) != 0 && strncmp(tok, "host.", 5) != 0) ||
		    (k = profile_key_find(tok)) < 0) {
			*cause =
			    xasprintf("'%s' is not a host-cost key (valid: the profile's api.* and host.* keys)", tok);
			rc = -1;
			break;
		}
		errno = 0;
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end != '\0' || errno != 0 || !isfinite(v) || v < 0 || v > 1e9) {
			*cause = xasprintf("host cost %s = '%s': valid is a time in ns, 0..1e9", tok, eq + 1);
			rc = -1;
			break;
		}
		profile_set(p, k, v, SS_PROV_MEASURED);
	}
	free(copy);
	return rc;
}

int validate_model(const struct ss_profile *base, struct ss_validate_set *s, char **cause)
{
	struct ss_profile probe = *base;
	bool have_probe = s->host[0] != '\0';
	struct ss_timeline tl;
	int rc = 0;

	if (have_probe && validate_costs_apply(s->host, 7.0 / 8, &probe, cause) != 0)
		return -1;
	timeline_init(&tl);
	for (size_t i = 0; i < s->n && rc == 0; i++) {
		struct ss_validate_row *r = &s->row[i];
		struct ss_experiment e;
		struct ss_run_result res;

		validate_experiment(r, &e);
		rc = model_timeline(&e, base, &tl, &res, cause);
		if (rc == 0) {
			r->model_ns = res.traced_ns;
			r->model_overlap = validate_overlap(&tl);
			r->model_cross = validate_cross(&tl);
		}
		r->model_probe_ns = 0;
		if (rc == 0 && have_probe && (r->model_probe_ns = model_makespan(&e, &probe, cause)) == 0)
			rc = -1;
		r->model_own_ns = 0;
		if (rc == 0 && r->calls[0] != '\0' && calibrate_calls_usable(&e)) {
			struct ss_profile own = probe; /* the calls were read against the probe (validate_row_calls) */

			if ((rc = validate_costs_apply(r->calls, experiment_queues_f(&e), &own, cause)) == 0 &&
			    (r->model_own_ns = model_makespan(&e, &own, cause)) == 0)
				rc = -1;
		}
	}
	timeline_free(&tl);
	return rc;
}

long validate_find(const struct ss_validate_set *s, const struct ss_validate_row *r)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_validate_row *x = &s->row[i];

		if (x->preset == r->preset && x->streams == r->streams && x->order == r->order &&
		    x->connections == r->connections)
			return (long)i;
	}
	return -1;
}

/* validate_err_push appends row i's error of a second prediction (model against r's measurement) to v (*n of
 * them), keeping the worst and its row; returns the error. */
static double validate_err_push(uint64_t model, const struct ss_validate_row *r, size_t i, double *v, size_t *n,
                                double *worst, size_t *worst_row)
{
	double e = fabs((double)model - (double)r->measured_ns) / (double)r->measured_ns;

	if (*n == 0 || e > *worst) {
		*worst = e;
		*worst_row = i;
	}
	v[(*n)++] = e;
	return e;
}

void validate_stats(const struct ss_validate_set *s, struct ss_validate_stats *st)
{
	double *err = xcalloc(s->n + 1, sizeof *err), *own = xcalloc(s->n + 1, sizeof *own);
	double *probe = xcalloc(s->n + 1, sizeof *probe);

	memset(st, 0, sizeof *st);
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_validate_row *r = &s->row[i];
		double e;

		if (r->measured_ns == 0 || r->model_ns == 0)
			continue;
		e = fabs((double)r->model_ns - (double)r->measured_ns) / (double)r->measured_ns;
		if (st->n == 0 || e > st->worst_err) {
			st->worst_err = e;
			st->worst_row = i;
		}
		err[st->n++] = e;
		st->beyond_worst += e > SS_VALIDATE_WORST_MAX;
		st->beyond_attached += e > SS_VALIDATE_WORST_MAX && r->measured_untraced && !r->measured_detached;
		st->beyond_spread += e > fmax(SS_VALIDATE_WORST_MAX, r->measured_spread);
		/* Order: compare with the twin once, from the depth-first (best) row with the breadth-first (weaker)
		 * one. */
		if ((r->order == SS_ORDER_DEPTH || r->order == SS_ORDER_BEST) && r->streams > 1) {
			struct ss_validate_row twin = *r;
			long j;

			twin.order = r->order == SS_ORDER_DEPTH ? SS_ORDER_BREADTH : SS_ORDER_WEAKER;
			j = validate_find(s, &twin);
			if (j >= 0 && s->row[j].measured_ns > 0 && s->row[j].model_ns > 0) {
				double md = (double)r->measured_ns, mb = (double)s->row[j].measured_ns;
				double gap =
				    fmax(VALIDATE_ORDER_GAP, fmax(r->measured_spread, s->row[j].measured_spread));

				/* beyond the rows' own spread: the measurements agree among themselves on the order */
				if (fabs(md - mb) >= gap * fmin(md, mb)) {
					st->order_checked++;
					st->order_agree += (md < mb) == (r->model_ns < s->row[j].model_ns);
				}
			}
		}
		if (r->model_probe_ns > 0)
			validate_err_push(r->model_probe_ns, r, i, probe, &st->probe_n, &st->probe_worst_err,
			                  &st->probe_worst_row);
		if (r->model_own_ns > 0)
			st->own_beyond_worst +=
			    validate_err_push(r->model_own_ns, r, i, own, &st->own_n, &st->own_worst_err,
			                      &st->own_worst_row) > SS_VALIDATE_WORST_MAX;
		if (r->measured_cross >= 0) {
			st->serial_checked++;
			st->serial_agree += (r->measured_cross == 0) == (r->model_cross == 0);
		}
		if (r->preset == SS_PRESET_PAGEABLE && r->measured_overlap >= 0 && r->model_overlap >= 0) {
			st->pageable_checked++;
			st->pageable_agree +=
			    (r->measured_overlap < VALIDATE_NO_OVERLAP) == (r->model_overlap < VALIDATE_NO_OVERLAP) ||
			    fabs(r->measured_overlap - r->model_overlap) <= VALIDATE_NO_OVERLAP;
		}
	}
	if (st->n > 0)
		st->median_err = stats_median(err, st->n);
	if (st->own_n > 0)
		st->own_median_err = stats_median(own, st->own_n);
	if (st->probe_n > 0)
		st->probe_median_err = stats_median(probe, st->probe_n);
	free(err);
	free(own);
	free(probe);
}

bool validate_passes(const struct ss_validate_stats *st)
{
	return st->n > 0 && st->median_err <= SS_VALIDATE_MEDIAN_MAX && st->worst_err <= SS_VALIDATE_WORST_MAX &&
	       st->order_agree == st->order_checked && st->serial_agree == st->serial_checked &&
	       st->pageable_agree == st->pageable_checked;
}

void validate_twins(const struct ss_validate_set *s, size_t *detached, size_t *attached)
{
	*detached = *attached = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->row[i].measured_ns > 0 && s->row[i].measured_untraced)
			*(s->row[i].measured_detached ? detached : attached) += 1;
}

char *validate_format_csv(const struct ss_validate_set *s)
{
	char *out = NULL;
	size_t len = 0, detached, attached;
	FILE *f = xopen_memstream(&out, &len);

	fprintf(f, "# device: %s\n", s->device[0] ? s->device : "unknown");
	if (s->host[0] != '\0')
		fprintf(f, "# host: %s\n", s->host);
	if (s->host_after[0] != '\0')
		fprintf(f, "# host-after: %s\n", s->host_after);
	validate_twins(s, &detached, &attached);
	if (detached > 0 && attached == 0)
		fprintf(f, "%s\n", VALIDATE_UNTRACED_LINE);
	fprintf(f, "%s\n%s\n", VALIDATE_TIMER_LINE, VALIDATE_HEADER);
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_validate_row *r = &s->row[i];

		fprintf(f, "%s,%d,%s,%d,%llu,%d,%llu,%.4f,%.4f,%d,%d,%s\n", experiment_preset_name(r->preset),
		        r->streams, experiment_order_name(r->order), r->connections, (unsigned long long)r->measured_ns,
		        r->measured_untraced ? 1 : 0, (unsigned long long)r->model_ns, r->measured_overlap,
		        r->model_overlap, r->measured_cross, r->model_cross, r->calls[0] ? r->calls : "-");
	}
	fclose(f);
	return out;
}

/* validate_costs_copy checks a list of call costs read from a file (a host line, a row's calls) and copies it
 * into dst (len bytes); -1 with *why when it is too long or not valid (validate_host_apply). */
static int validate_costs_copy(char *dst, size_t len, const char *text, char **why)
{
	struct ss_profile scratch;

	if (strlen(text) >= len) {
		*why = xasprintf("longer than %zu characters", len - 1);
		return -1;
	}
	profile_builtin(&scratch);
	if (validate_host_apply(text, &scratch, why) != 0)
		return -1;
	snprintf(dst, len, "%s", text);
	return 0;
}

/* validate_parse_row reads one CSV line of nf fields (11: files before the calls column; 12) into r; -1 with
 * *cause naming the bad field. */
static int validate_parse_row(char *line, int nf, struct ss_validate_row *r, const char *path, int lineno, char **cause)
{
	static const char *const fields[] = {"preset",        "streams",           "order",      "connections",
	                                     "measured_ns",   "measured_untraced", "model_ns",   "measured_overlap",
	                                     "model_overlap", "measured_cross",    "model_cross"};
	/* what each field may hold, for the error line (the presets and orders: experiment_valid_list's) */
	static const char *const valid[] = {NULL,
	                                    "1..128",
	                                    NULL,
	                                    "1..32",
	                                    "whole ns, 0 when not measured",
	                                    "0 or 1",
	                                    "whole ns",
	                                    "a fraction 0..1, or -1",
	                                    "a fraction 0..1, or -1",
	                                    "a whole number, -1 when not known",
	                                    "a whole number, -1 when not known"};
	_Static_assert(SS_MAX_STREAMS == 128 && SS_MAX_CONNECTIONS == 32, "valid[] spells the ranges out");
	char *f[12], *save = NULL, *tok, *end;
	int n = 0;
	long long v;

	for (tok = strtok_r(line, ",", &save); tok != NULL && n < nf; tok = strtok_r(NULL, ",", &save))
		f[n++] = tok;
	if (n != nf || tok != NULL) {
		*cause = xasprintf("%s:%d: expected %d comma-separated fields (%s)", path, lineno, nf,
		                   nf == 11 ? VALIDATE_HEADER_V1 : VALIDATE_HEADER);
		return -1;
	}
	if (nf == 12 && strcmp(f[11], "-") != 0) {
		char *why = NULL;

		if (validate_costs_copy(r->calls, sizeof r->calls, f[11], &why) != 0) {
			*cause = xasprintf("%s:%d: bad calls '%s': %s", path, lineno, f[11], why);
			free(why);
			return -1;
		}
	}
	if ((int)(r->preset = experiment_preset_parse(f[0])) < 0 ||
	    (int)(r->order = experiment_order_parse(f[2])) < 0) {
		int i = (int)r->preset < 0 ? 0 : 2;

		*cause = xasprintf("%s:%d: bad %s '%s' (valid: %s)", path, lineno, fields[i], f[i],
		                   experiment_valid_list(i == 0 ? "preset" : "order"));
		return -1;
	}
	for (int i = 0; i < 11; i++) {
		if (i == 0 || i == 2)
			continue;
		errno = 0;
		if (i == 7 || i == 8) {
			double d = strtod(f[i], &end);

			if (end == f[i] || *end != '\0' || errno != 0 || !isfinite(d) || d < -1 || d > 1)
				goto bad;
			*(i == 7 ? &r->measured_overlap : &r->model_overlap) = d;
			continue;
		}
		v = strtoll(f[i], &end, 10);
		if (end == f[i] || *end != '\0' || errno != 0 || v < (i >= 9 ? -1 : 0))
			goto bad;
		switch (i) {
		case 1:
			if (v < 1 || v > SS_MAX_STREAMS)
				goto bad;
			r->streams = (int)v;
			break;
		case 3:
			if (v < 1 || v > SS_MAX_CONNECTIONS)
				goto bad;
			r->connections = (int)v;
			break;
		case 4:
			r->measured_ns = (uint64_t)v;
			break;
		case 5:
			if (v > 1)
				goto bad;
			r->measured_untraced = v == 1;
			break;
		case 6:
			r->model_ns = (uint64_t)v;
			break;
		case 9:
			r->measured_cross = (int)v;
			break;
		default:
			r->model_cross = (int)v;
			break;
		}
		continue;
	bad:
		*cause = xasprintf("%s:%d: bad %s '%s' (valid: %s)", path, lineno, fields[i], f[i], valid[i]);
		return -1;
	}
	return 0;
}

int validate_read_csv(const char *path, struct ss_validate_set *s, char **cause)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, nf = 0; /* nf: fields per row, 0 before the header line */
	int timer = 0;          /* the file's timer line: 0 none, 1 V1, 2 the current one */
	bool detached = false;  /* the file's untraced line */
	size_t first = s->n, kept;
	struct stat st;

	if (f == NULL) {
		*cause = xasprintf("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) != 0)
		st.st_mode = 0; /* told as not a regular file */
	if (!S_ISREG(st.st_mode)) {
		*cause = xasprintf("%s: %s (--check takes the CSV file validate --csv wrote)", path,
		                   S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		fclose(f);
		return -1;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len > VALIDATE_LINE_MAX) {
			*cause = xasprintf("%s:%d: a line of over %d bytes (not a streamscope validate CSV)", path,
			                   lineno, VALIDATE_LINE_MAX);
			goto fail;
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (strncmp(line, "# device: ", 10) == 0) {
			snprintf(s->device, sizeof s->device, "%.95s", line + 10);
			continue;
		}
		if (strncmp(line, "# host: ", 8) == 0 || strncmp(line, "# host-after: ", 14) == 0) {
			bool after = strncmp(line, "# host-after: ", 14) == 0;
			char *why = NULL;

			if (validate_costs_copy(after ? s->host_after : s->host, sizeof s->host,
			                        line + (after ? 14 : 8), &why) != 0) {
				*cause =
				    xasprintf("%s:%d: bad host%s line: %s", path, lineno, after ? "-after" : "", why);
				free(why);
				goto fail;
			}
			continue;
		}
		detached = detached || strcmp(line, VALIDATE_UNTRACED_LINE) == 0;
		if (strcmp(line, VALIDATE_TIMER_LINE_V1) == 0)
			timer = 1;
		else if (strcmp(line, VALIDATE_TIMER_LINE) == 0)
			timer = 2;
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (nf == 0) {
			nf = strcmp(line, VALIDATE_HEADER) == 0 ? 12 : strcmp(line, VALIDATE_HEADER_V1) == 0 ? 11 : 0;
			if (nf == 0) {
				*cause = xasprintf("%s:%d: expected the header '%s'", path, lineno, VALIDATE_HEADER);
				goto fail;
			}
			continue;
		}
		if (validate_parse_row(line, nf, validate_push(s), path, lineno, cause) != 0)
			goto fail;
		s->row[s->n - 1].measured_n = s->row[s->n - 1].measured_ns > 0;
	}
	if (nf == 0) {
		*cause = xasprintf("%s: no header line (not a streamscope validate CSV)", path);
		goto fail;
	}
	kept = first;
	for (size_t i = first; i < s->n; i++)
		if (validate_timer_level(&s->row[i]) <= timer)
			s->row[kept++] = s->row[i];
	s->n = kept;
	for (size_t i = first; i < s->n; i++)
		s->row[i].measured_detached = detached && s->row[i].measured_untraced;
	free(line);
	fclose(f);
	return 0;
fail:
	free(line);
	fclose(f);
	return -1;
}

/* One measurement of a row, to sort. */
struct validate_meas {
	const struct ss_validate_row *r;
};

static int validate_meas_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct validate_meas *)a)->r->measured_ns,
	         y = ((const struct validate_meas *)b)->r->measured_ns;

	return x < y ? -1 : x > y;
}

int validate_read_csvs(const char *const *paths, size_t n, const struct ss_profile *p, struct ss_validate_set *s,
                       char **cause)
{
	double *model = xcalloc(n + 1, sizeof *model);
	struct ss_validate_set *in = xcalloc(n + 1, sizeof *in);
	struct validate_meas *m = xcalloc(n + 1, sizeof *m);
	int rc = 0;

	for (size_t k = 0; k < n && rc == 0; k++) {
		rc = validate_read_csv(paths[k], &in[k], cause);
		if (rc == 0 && p != NULL && validate_model(p, &in[k], cause) != 0) {
			char *why = *cause;

			*cause = xasprintf("%s: %s", paths[k], why);
			free(why);
			rc = -1;
		}
	}
	/* the union of the rows, in the order first seen */
	for (size_t k = 0; k < n && rc == 0; k++) {
		if (s->device[0] == '\0')
			snprintf(s->device, sizeof s->device, "%s", in[k].device);
		for (size_t i = 0; i < in[k].n; i++)
			if (validate_find(s, &in[k].row[i]) < 0) {
				struct ss_validate_row *r = validate_push(s);

				*r = in[k].row[i];
				r->measured_ns = 0;
				r->measured_n = 0;
			}
	}
	for (size_t i = 0; i < s->n && rc == 0; i++) {
		struct ss_validate_row *r = &s->row[i];
		size_t c = 0;
		double lo, hi, med;
		bool any_detached = false;

		for (size_t k = 0; k < n; k++) {
			long j = validate_find(&in[k], r);

			if (j >= 0 && in[k].row[j].measured_ns > 0) {
				m[c++].r = &in[k].row[j];
				any_detached = any_detached || in[k].row[j].measured_detached;
			}
		}
		if (any_detached) {
			/* a row measured with CUPTI detached takes only those measurements: attached, CUPTI costs each
			 * call */
			size_t kept = 0;

			for (size_t k = 0; k < c; k++)
				if (m[k].r->measured_detached)
					m[kept++] = m[k];
			c = kept;
		}
		if (c == 0)
			continue;
		qsort(m, c, sizeof *m, validate_meas_cmp);
		lo = (double)m[0].r->measured_ns;
		hi = (double)m[c - 1].r->measured_ns;
		med = c % 2 ? (double)m[c / 2].r->measured_ns
		            : ((double)m[c / 2 - 1].r->measured_ns + (double)m[c / 2].r->measured_ns) / 2;
		r->measured_ns = (uint64_t)llround(med);
		r->measured_untraced = m[(c - 1) / 2].r->measured_untraced;
		r->measured_detached = true;
		for (size_t k = 0; k < c; k++)
			r->measured_detached = r->measured_detached && m[k].r->measured_detached;
		r->measured_overlap = m[(c - 1) / 2].r->measured_overlap;
		r->measured_cross = m[(c - 1) / 2].r->measured_cross;
		r->measured_n = (int)c;
		r->measured_spread = (hi - lo) / med;
		snprintf(r->calls, sizeof r->calls, "%s", m[(c - 1) / 2].r->calls);
		if (p != NULL) {
			size_t no = 0;

			for (size_t k = 0; k < c; k++)
				model[k] = (double)m[k].r->model_ns;
			r->model_ns = (uint64_t)llround(stats_median(model, c));
			r->model_overlap = m[(c - 1) / 2].r->model_overlap;
			r->model_cross = m[(c - 1) / 2].r->model_cross;
			/* with their own runs' call costs: the rows that have them, paired with their measurements */
			for (size_t k = 0; k < c; k++)
				if (m[k].r->model_own_ns > 0)
					model[no++] = (double)m[k].r->model_own_ns / (double)m[k].r->measured_ns;
			r->model_own_ns =
			    no > 0 ? (uint64_t)llround(stats_median(model, no) * (double)r->measured_ns) : 0;
			/* with each matrix's host probe: the files that had one */
			no = 0;
			for (size_t k = 0; k < c; k++)
				if (m[k].r->model_probe_ns > 0)
					model[no++] = (double)m[k].r->model_probe_ns;
			r->model_probe_ns = no > 0 ? (uint64_t)llround(stats_median(model, no)) : 0;
		}
	}
	s->host[0] = s->host_after[0] = '\0';
	for (size_t k = 0; k < n; k++)
		validate_free(&in[k]);
	free(in);
	free(m);
	free(model);
	return rc;
}

void validate_free(struct ss_validate_set *s)
{
	free(s->row);
	memset(s, 0, sizeof *s);
}

int validate_fit_score(const struct ss_profile *p, const struct ss_validate_set *s, double *score, size_t *n,
                       char **cause)
{
	double sum = 0;

	*n = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct ss_validate_row *r = &s->row[i];
		struct ss_experiment e;
		uint64_t ns;

		if (r->measured_ns == 0)
			continue;
		validate_experiment(r, &e);
		if ((ns = model_makespan(&e, p, cause)) == 0)
			return -1;
		sum += fabs(log((double)ns / (double)r->measured_ns));
		(*n)++;
	}
	*score = *n > 0 ? sum / (double)*n : 0;
	return 0;
}

int validate_fit(struct ss_profile *p, const struct ss_validate_set *s, struct ss_validate_fit *fit, size_t nfit,
                 double *score, char **cause)
{
	enum { STEPS = 40, ROUNDS = 4 };
	int *key = xcalloc(nfit + 1, sizeof *key);
	double best = INFINITY;
	size_t n = 0;
	int rc = 0;

	for (size_t k = 0; k < nfit && rc == 0; k++) {
		key[k] = profile_key_find(fit[k].key);
		if (key[k] < 0 || !(fit[k].lo > 0) || !(fit[k].hi > fit[k].lo)) {
			*cause = xasprintf("fit: '%s=%g:%g': valid is a profile key and a range 0 < LO < HI",
			                   fit[k].key, fit[k].lo, fit[k].hi);
			rc = -1;
		}
	}
	if (rc == 0 && (rc = validate_fit_score(p, s, &best, &n, cause)) == 0 && n == 0) {
		*cause = xasprintf("fit: no measured row to fit to");
		rc = -1;
	}
	/* coordinate descent in log space: each key over its whole range, then rounds ever closer to the best */
	for (int round = 0; round < ROUNDS && rc == 0; round++) {
		for (size_t k = 0; k < nfit && rc == 0; k++) {
			double cur = profile_get(p, key[k]), lo = log(fit[k].lo), hi = log(fit[k].hi);
			double width = (hi - lo) / pow(STEPS / 4.0, round), at = log(fmax(cur, fit[k].lo)), pick = cur;

			for (int j = 0; j <= STEPS && rc == 0; j++) {
				double v = exp(fmin(hi, fmax(lo, at - width / 2 + width * j / STEPS))), sc;

				if (round == 0)
					v = exp(lo + (hi - lo) * j / STEPS);
				profile_set(p, key[k], v, SS_PROV_FITTED);
				if ((rc = validate_fit_score(p, s, &sc, &n, cause)) == 0 && sc < best - 1e-12) {
					best = sc;
					pick = v;
				}
			}
			profile_set(p, key[k], pick, SS_PROV_FITTED);
			fit[k].value = pick;
		}
	}
	/* then a pattern search: each key 10%, 3%, 1% up and down while that improves the score (the score is rugged,
	 * the model being discrete events: the rounds above can stop beside a better value) */
	for (int step = 0; step < 3 && rc == 0; step++) {
		static const double factor[] = {1.10, 1.03, 1.01};
		bool moved = true;

		for (int pass = 0; moved && pass < 50 && rc == 0; pass++) {
			moved = false;
			for (size_t k = 0; k < nfit && rc == 0; k++) {
				for (int side = -1; side <= 1 && rc == 0; side += 2) {
					double cur = profile_get(p, key[k]), sc;
					double v = side < 0 ? cur / factor[step] : cur * factor[step];

					if (v < fit[k].lo || v > fit[k].hi)
						continue;
					profile_set(p, key[k], v, SS_PROV_FITTED);
					if ((rc = validate_fit_score(p, s, &sc, &n, cause)) == 0 && sc < best - 1e-12) {
						best = sc;
						fit[k].value = v;
						moved = true;
					} else {
						profile_set(p, key[k], cur, SS_PROV_FITTED);
					}
				}
			}
		}
	}
	*score = best;
	free(key);
	return rc;
}
