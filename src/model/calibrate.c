/* calibrate.c: fits the model's profile to timelines measured on a backend.
 *
 * Each quantity comes from experiments where it shows alone: copies of one stream (nothing overlaps them) for
 * latency and bandwidth; one-stream kernels at several work amounts for speed and the fixed minimum; tiny launches
 * for saturation; eight pipelined streams for the combined bandwidth of both directions; 128 independent long
 * kernels for the concurrent-kernel capacity; call records for call costs. Records are matched to ops by order
 * within their stream (streams run in order), never by correlation id, which differs between backends; API
 * records are matched to GPU records by correlation (the backend's own id on both). */
#include "model/calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "core/stats.h"
#include "core/timeline.h"
#include "core/vec.h"
#include "core/xalloc.h"
#include "model/model.h"
#include "run/runner.h"

/* A growable array of samples. */
struct cal_vec {
	double *v;
	size_t n, cap;
};

/* The copies of one path by direction, [0] H2D and [1] D2H: bytes in x, durations in y (cal_copy_samples). */
struct cal_dirs {
	struct cal_vec x[2], y[2];
};

/* One measured experiment: its op list, timeline, and the op of each GPU record. */
struct cal_run {
	struct ss_experiment e;
	struct ss_oplist ops;
	struct ss_timeline tl;
	struct ss_run_result res;
	const struct ss_op **op; /* per record: the op it came from, NULL for host records or unmatched ones */
};

/* Call durations by what came before the call (see cal_call_samples). */
enum cal_call {
	CAL_COPY_SAME = 0,   /* a copy after its thread's previous call on the same stream */
	CAL_COPY_SWITCH,     /* a copy on another stream than its thread's previous call */
	CAL_LAUNCH_PLAIN,    /* a launch on the same stream as the previous call, its stream's last work not a copy */
	CAL_LAUNCH_SWITCH,   /* a launch on another stream, its stream's last work not a copy */
	CAL_LAUNCH_WAIT,     /* a launch on the same stream, its stream's last work a copy */
	CAL_LAUNCH_PREFETCH, /* a launch on the same stream, its stream's last work a prefetch to the device */
	CAL_PREFETCH_SAME,   /* a prefetch on the same stream as the previous call */
	CAL_PREFETCH_SWITCH, /* a prefetch to the device on another stream */
	CAL_CALLS
};

/* The calibration in progress. */
struct cal {
	const struct ss_backend *gpu;
	void (*progress)(const char *);
	int step;
	struct ss_profile *out;
	double wake_raw; /* cudaDeviceSynchronize's return after the last GPU record; NAN when not seen */
	double trace;    /* CUPTI's cost per traced call, once measured (0 before or when not measurable) */
	/* call durations of every run, by enum cal_call. The costs that depend on the hardware queues in use (copies,
	 * launches on another stream): those of runs with one queue in one[], in call[] those of the runs with the
	 * most (f_many: their 1 - 1/q) */
	struct cal_vec call[CAL_CALLS], one[CAL_CALLS];
	double f_many[CAL_CALLS];
	double dep_base[2]; /* gpu.dep_kernel_ns and gpu.dep_copy_ns as measured with one stream */
	int steps;          /* experiments this calibration runs, for the progress lines */
	bool event_raw,
	    sync_raw;   /* api.event_ns, api.sync_ns hold traced durations measured here (cal_calls adjusts) */
	double event_f; /* 1 - 1/q of the run that measured api.event_ns */
	/* the run being measured gives no api.prefetch_switch_ns samples: its other stream's first prefetch waits
	 * behind a large prefetch to the host, which the key does not stand for */
	bool no_prefetch_switch;
	uint64_t memory_bytes; /* the device's memory as its runs give it (0: not given) */
};

/* cal_trace's runs on 8 hardware queues and on one, in turn */
#define CAL_TRACE_PAIRS 3
/* The stream counts cal_workload_solve measures a preset's workload at: a single run is at the mercy of its noise
 * (one-stream pageable runs on an H100 solved pageable.h2d.stage_gbs anywhere from 8.1 to 31.5 in four calibrations,
 * where the matrix's rows at each stream count ask for 6.9..8.1; docs/results.md). */
#define CAL_WORKLOAD_POINTS 4
static const int cal_workload_streams[CAL_WORKLOAD_POINTS] = {1, 4, 16, 64};
#define CAL_STEPS (43 + 2 * CAL_TRACE_PAIRS + 2 * CAL_WORKLOAD_POINTS)

static void cal_vec_push(struct cal_vec *v, double x)
{
	*VEC_PUSH(v->v, v->n, v->cap, 32) = x;
}

static void cal_vec_free(struct cal_vec *v)
{
	free(v->v);
	memset(v, 0, sizeof *v);
}

/* cal_median of v's samples; NAN when empty. */
static double cal_median(struct cal_vec *v)
{
	return stats_median(v->v, v->n);
}

/* cal_fit_line fits y = a + b x by least squares; relative weighs each point by 1/y^2 (fits small and large sizes
 * alike). Returns -1 when the points do not determine a line. */
static int cal_fit_line(const struct cal_vec *x, const struct cal_vec *y, bool relative, double *a, double *b)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, det;

	for (size_t i = 0; i < x->n; i++) {
		double w = relative && y->v[i] > 0 ? 1.0 / (y->v[i] * y->v[i]) : 1.0;

		sw += w;
		sx += w * x->v[i];
		sy += w * y->v[i];
		sxx += w * x->v[i] * x->v[i];
		sxy += w * x->v[i] * y->v[i];
	}
	det = sw * sxx - sx * sx;
	if (x->n < 2 || fabs(det) <= 1e-300 * (sw * sxx + 1))
		return -1;
	*b = (sw * sxy - sx * sy) / det;
	*a = (sy - *b * sx) / sw;
	return 0;
}

static void cal_run_free(struct cal_run *r)
{
	planner_free(&r->ops);
	timeline_free(&r->tl);
	free(r->op);
	memset(r, 0, sizeof *r);
}

/* cal_op_kind_of: the op kind a GPU record of kind comes from (copies and kernels), -1 for any other. */
static int cal_op_kind_of(int kind)
{
	switch (kind) {
	case SS_KIND_H2D:
		return SS_OP_H2D;
	case SS_KIND_D2H:
		return SS_OP_D2H;
	case SS_KIND_KERNEL:
		return SS_OP_KERNEL;
	default:
		return -1;
	}
}

/* cal_match gives each GPU record of r the op it came from: the n-th record of a kind on a stream is the n-th op of
 * that kind on that stream. */
static void cal_match(struct cal_run *r)
{
	size_t *cursor = xcalloc((size_t)(r->e.streams + 8) * 3, sizeof *cursor);

	r->op = xcalloc(r->tl.n + 1, sizeof *r->op);
	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *rec = &r->tl.rec[i];
		int ok = cal_op_kind_of(rec->kind), key;
		size_t *c;

		if (ok < 0 || rec->stream < SS_STREAM_UNKNOWN || rec->stream >= r->e.streams)
			continue;
		key = (rec->stream + 4) * 3 + (ok == SS_OP_H2D ? 0 : ok == SS_OP_D2H ? 1 : 2);
		c = &cursor[key];
		while (*c < r->ops.n && !(r->ops.op[*c].kind == ok && r->ops.op[*c].stream == rec->stream))
			(*c)++;
		if (*c < r->ops.n)
			r->op[i] = &r->ops.op[(*c)++];
	}
	free(cursor);
}

static const struct ss_record *cal_api_of(const struct ss_timeline *tl, const struct ss_record *rec);

/* cal_queued_push keeps duration d of a call of kind k (one whose cost depends on the hardware queues in use) from a
 * run with 1 - 1/q = f: in one[k] when one queue, in call[k] when as many as the most so far (fewer: dropped; more:
 * they replace those). */
static void cal_queued_push(struct cal *c, int k, double f, double d)
{
	if (f <= 0) {
		cal_vec_push(&c->one[k], d);
		return;
	}
	if (f > c->f_many[k] + 1e-9) {
		c->call[k].n = 0;
		c->f_many[k] = f;
	}
	if (fabs(f - c->f_many[k]) <= 1e-9)
		cal_vec_push(&c->call[k], d);
}

/* cal_call_samples sorts the durations of r's copy and launch calls by what came before them in the op list: the
 * thread's previous call on another stream (the driver switches streams), the stream's previous work a copy (a
 * launch then makes the compute queue wait for a copy engine). */
static void cal_call_samples(const struct cal_run *r, struct cal *c)
{
	double f = experiment_queues_f(&r->e);
	struct cal_vec *call = c->call;

	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_op *op = r->op[i], *prev = NULL, *sprev = NULL;
		const struct ss_record *api;
		size_t j = op != NULL ? (size_t)(op - r->ops.op) : 0;
		bool sw, after_copy, after_prefetch;

		if (op == NULL || (api = cal_api_of(&r->tl, &r->tl.rec[i])) == NULL)
			continue;
		for (size_t k = j; k-- > 0;) {
			const struct ss_op *o = &r->ops.op[k];

			if (o->thread != op->thread || o->kind > SS_OP_EVENT_RECORD)
				continue;
			if (prev == NULL)
				prev = o;
			if (o->stream == op->stream) {
				sprev = o;
				break;
			}
		}
		if (prev == NULL)
			continue; /* the run's first call */
		sw = prev->stream != op->stream;
		after_copy = sprev != NULL && (sprev->kind == SS_OP_H2D || sprev->kind == SS_OP_D2H);
		after_prefetch = sprev != NULL && sprev->kind == SS_OP_PREFETCH_H2D;
		if (op->kind == SS_OP_H2D || op->kind == SS_OP_D2H) {
			if (r->e.hostmem == SS_MEM_PINNED)
				cal_queued_push(c, sw ? CAL_COPY_SWITCH : CAL_COPY_SAME, f,
				                (double)(api->end - api->start));
		} else if (op->kind == SS_OP_KERNEL && r->e.hostmem != SS_MEM_MANAGED_ATTACH) {
			if (after_copy && !sw)
				cal_vec_push(&call[CAL_LAUNCH_WAIT], (double)(api->end - api->start));
			else if (after_prefetch && !sw)
				cal_vec_push(&call[CAL_LAUNCH_PREFETCH], (double)(api->end - api->start));
			else if (!after_copy && !after_prefetch && !sw)
				cal_vec_push(&call[CAL_LAUNCH_PLAIN], (double)(api->end - api->start));
			else if (!after_copy && !after_prefetch)
				cal_queued_push(c, CAL_LAUNCH_SWITCH, f, (double)(api->end - api->start));
		}
	}
	/* Prefetches leave no GPU record: the n-th cudaMemPrefetchAsync call is the n-th prefetch op (one thread). */
	size_t k = 0;

	for (size_t i = 0; i < r->tl.n && r->e.threads <= 1; i++) {
		const struct ss_record *api = &r->tl.rec[i];
		const struct ss_op *op = NULL, *prev = NULL;

		if (api->kind != SS_KIND_API ||
		    strncmp(timeline_name(&r->tl, api->name), "cudaMemPrefetchAsync", 20) != 0)
			continue;
		while (k < r->ops.n && r->ops.op[k].kind != SS_OP_PREFETCH_H2D &&
		       r->ops.op[k].kind != SS_OP_PREFETCH_D2H)
			k++;
		if (k == r->ops.n)
			break;
		op = &r->ops.op[k];
		for (size_t b = k; b-- > 0 && prev == NULL;)
			if (r->ops.op[b].kind <= SS_OP_EVENT_RECORD)
				prev = &r->ops.op[b];
		k++;
		if (prev == NULL)
			continue;
		if (prev->stream == op->stream)
			cal_vec_push(&call[CAL_PREFETCH_SAME], (double)(api->end - api->start));
		else if (op->kind == SS_OP_PREFETCH_H2D && !c->no_prefetch_switch)
			cal_vec_push(&call[CAL_PREFETCH_SWITCH], (double)(api->end - api->start));
	}
}

/* cal_measure runs e on the backend into r. Returns 0, or -1 with *cause. */
static int cal_measure(struct cal *c, struct cal_run *r, const struct ss_experiment *e, const char *what, char **cause)
{
	char msg[160], *why = NULL;

	memset(r, 0, sizeof *r);
	r->e = *e;
	timeline_init(&r->tl);
	c->step++;
	if (c->progress != NULL) {
		snprintf(msg, sizeof msg, "calibrate %d/%d: %s", c->step, c->steps, what);
		c->progress(msg);
	}
	if (runner_run(c->gpu, e, &r->tl, &r->res, &why) != 0) {
		*cause = xasprintf("calibration run '%s' failed: %s", what, why ? why : "no reason given");
		free(why);
		timeline_free(&r->tl);
		return -1;
	}
	planner_build(e, &r->ops);
	cal_match(r);
	cal_call_samples(r, c);
	if (c->out->device[0] == '\0')
		snprintf(c->out->device, sizeof c->out->device, "%s", r->res.device);
	if (r->res.memory_bytes > 0)
		c->memory_bytes = r->res.memory_bytes;
	return 0;
}

/* The host record of the call that issued GPU record rec (same correlation), NULL when none. */
static const struct ss_record *cal_api_of(const struct ss_timeline *tl, const struct ss_record *rec)
{
	for (size_t i = 0; i < tl->n; i++)
		if (tl->rec[i].kind == SS_KIND_API && tl->rec[i].correlation == rec->correlation)
			return &tl->rec[i];
	return NULL;
}

/* cal_api_samples adds the durations of API records whose name starts with prefix. */
static void cal_api_samples(const struct cal_run *r, const char *prefix, struct cal_vec *v)
{
	size_t len = strlen(prefix);

	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *rec = &r->tl.rec[i];

		if (rec->kind == SS_KIND_API && strncmp(timeline_name(&r->tl, rec->name), prefix, len) == 0)
			cal_vec_push(v, (double)(rec->end - rec->start));
	}
}

/* cal_host_samples takes the launch latency (first GPU record's start after its call returned, the GPU idle) and
 * the sync wake-up (a waiting cudaDeviceSynchronize's return after the last GPU record) of a run. */
static void cal_host_samples(const struct cal_run *r, struct cal_vec *launch, struct cal_vec *wake)
{
	const struct ss_record *first = NULL;
	uint64_t last = 0;

	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *rec = &r->tl.rec[i];

		if (!(SS_GPU_KINDS & SS_KIND_BIT(rec->kind)))
			continue;
		if (first == NULL || rec->start < first->start)
			first = rec;
		if (rec->end > last)
			last = rec->end;
	}
	if (first == NULL)
		return;
	const struct ss_record *api = cal_api_of(&r->tl, first);

	if (api != NULL && first->start >= api->end)
		cal_vec_push(launch, (double)(first->start - api->end));
	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *rec = &r->tl.rec[i];

		if (rec->kind == SS_KIND_API && rec->start < last && rec->end >= last &&
		    strncmp(timeline_name(&r->tl, rec->name), "cudaDeviceSynchronize", 21) == 0)
			cal_vec_push(wake, (double)(rec->end - last));
	}
}

/* cal_gap_samples adds the idle time of a copy engine between two copies of one stream when the second was
 * issued before the first ended. */
static void cal_gap_samples(const struct cal_run *r, struct cal_vec *v)
{
	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *a = &r->tl.rec[i], *b = NULL, *api;
		const struct ss_op *ao = r->op[i], *bo = NULL;
		bool next = true;

		if ((a->kind != SS_KIND_H2D && a->kind != SS_KIND_D2H) || ao == NULL)
			continue;
		for (size_t j = 0; j < r->tl.n; j++) {
			const struct ss_record *x = &r->tl.rec[j];

			if (x->kind == a->kind && x->stream == a->stream && x->start >= a->end &&
			    (b == NULL || x->start < b->start)) {
				b = x;
				bo = r->op[j];
			}
		}
		if (b == NULL || bo == NULL || bo <= ao)
			continue;
		/* only the stream's very next operation: anything between would hold it back */
		for (const struct ss_op *o = ao + 1; o < bo && next; o++)
			next = o->stream != ao->stream;
		if (next && (api = cal_api_of(&r->tl, b)) != NULL && api->end < a->end)
			cal_vec_push(v, (double)(b->start - a->end));
	}
}

/* cal_switch_samples adds the gaps between back-to-back H2D copies (the second one's call returned before the
 * first ended) to same[] when both came from one hardware queue, to other[] when from two. */
static void cal_switch_samples(const struct cal_run *r, struct cal_vec *same, struct cal_vec *other)
{
	const struct ss_record *prev = NULL;

	for (size_t i = 0; i < r->tl.n; i++) { /* the timeline is in start order */
		const struct ss_record *b = &r->tl.rec[i], *api;

		if (b->kind != SS_KIND_H2D || b->stream < 0)
			continue;
		if (prev != NULL && (api = cal_api_of(&r->tl, b)) != NULL && api->end < prev->end) {
			bool one = prev->stream % r->e.connections == b->stream % r->e.connections;

			cal_vec_push(one ? same : other, (double)b->start - (double)prev->end);
		}
		prev = b;
	}
}

/* cal_host_gaps adds the host's own time between consecutive calls of one thread. */
static void cal_host_gaps(const struct cal_run *r, struct cal_vec *v)
{
	const struct ss_record *prev = NULL;

	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *a = &r->tl.rec[i];

		if (a->kind != SS_KIND_API)
			continue;
		if (prev != NULL && prev->thread == a->thread && a->start >= prev->end)
			cal_vec_push(v, (double)(a->start - prev->end));
		prev = a;
	}
}

/* cal_copy_samples adds (bytes, duration) of the run's copies of one kind whose flags include want. */
static void cal_copy_samples(const struct cal_run *r, int kind, unsigned want, struct cal_vec *x, struct cal_vec *y)
{
	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *rec = &r->tl.rec[i];

		if (rec->kind != kind || (rec->flags & want) != want || rec->bytes == 0)
			continue;
		cal_vec_push(x, (double)rec->bytes);
		cal_vec_push(y, (double)(rec->end - rec->start));
	}
}

/* cal_kernel_samples adds (units, duration) of the run's kernels on experiment streams: units = count x work
 * (SPIN: work iterations per launch). */
static void cal_kernel_samples(const struct cal_run *r, struct cal_vec *x, struct cal_vec *y)
{
	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *rec = &r->tl.rec[i];
		const struct ss_op *op = r->op[i];

		if (rec->kind != SS_KIND_KERNEL || op == NULL || op->stream < 0)
			continue;
		if (r->e.kernel == SS_KERNEL_SPIN)
			cal_vec_push(x, (double)r->e.work * (double)(op->count ? op->count : 1));
		else
			cal_vec_push(x, (double)op->count * (double)r->e.work);
		cal_vec_push(y, (double)(rec->end - rec->start));
	}
}

/* The base experiment of most measurements: kernel-transfer on one stream, cheap kernels, a device sync. */
static void cal_base(struct ss_experiment *e, enum ss_preset preset, int streams, uint64_t elements, int chunks,
                     uint32_t work)
{
	experiment_preset(e, preset);
	e->streams = streams;
	e->elements = elements;
	e->chunks = chunks;
	e->work = work;
	e->sync = SS_SYNC_DEVICE;
	e->connections = 8;
	e->repeat = 3; /* kernel-transfer's document times 10; three suffice for a fit */
	e->warmup = 1;
}

/* cal_set stores key = v as calibrate measured it: "modelled" when its backend is the model (none: a timeline
 * measured elsewhere). */
static void cal_set(struct cal *c, const char *key, double v)
{
	int k = profile_key_find(key);

	if (k >= 0 && isfinite(v))
		profile_set(c->out, k, v, c->gpu != NULL && c->gpu->modelled ? SS_PROV_MODELLED : SS_PROV_MEASURED);
}

/* cal_copy_fit fits latency and bandwidth of one copy path; -1 with *cause when the data don't give a line. */
static int cal_copy_fit(struct cal *c, const char *path, struct cal_vec *x, struct cal_vec *y, char **cause)
{
	double a, b;
	char key[64];

	if (cal_fit_line(x, y, true, &a, &b) != 0 || b <= 0) {
		*cause = xasprintf("calibration: the %s copies did not give a latency and bandwidth (%zu samples)",
		                   path, x->n);
		return -1;
	}
	snprintf(key, sizeof key, "%s.bw_gbs", path);
	cal_set(c, key, 1.0 / b);
	snprintf(key, sizeof key, "%s.latency_ns", path);
	cal_set(c, key, a > 0 ? a : 0);
	return 0;
}

/* cal_copy_step measures preset's one-stream copies of 4 chunks of 4 << k elements (label: "pinned", "pageable"
 * for the progress line) into r and adds to d those of both directions whose flags include want. Returns 0 (the
 * caller frees r), or -1 with *cause. */
static int cal_copy_step(struct cal *c, struct cal_run *r, enum ss_preset preset, int k, const char *label,
                         unsigned want, struct cal_dirs *d, char **cause)
{
	struct ss_experiment e;
	char what[64];

	cal_base(&e, preset, 1, 4ull << k, 4, 1);
	snprintf(what, sizeof what, "%s copies of %llu KiB", label, (1ull << k) * 4 / 1024);
	if (cal_measure(c, r, &e, what, cause) != 0)
		return -1;
	cal_copy_samples(r, SS_KIND_H2D, want, &d->x[0], &d->y[0]);
	cal_copy_samples(r, SS_KIND_D2H, want, &d->x[1], &d->y[1]);
	return 0;
}

/* cal_copy_fits fits both directions of path ("copy": keys copy.h2d.* and copy.d2h.*); -1 with *cause at the first
 * that gives no line. */
static int cal_copy_fits(struct cal *c, const char *path, struct cal_dirs *d, char **cause)
{
	static const char *const dir[2] = {"h2d", "d2h"};
	char name[32];

	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof name, "%s.%s", path, dir[i]);
		if (cal_copy_fit(c, name, &d->x[i], &d->y[i], cause) != 0)
			return -1;
	}
	return 0;
}

/* cal_dirs_free frees both directions' samples (d can be reused empty). */
static void cal_dirs_free(struct cal_dirs *d)
{
	for (int i = 0; i < 2; i++) {
		cal_vec_free(&d->x[i]);
		cal_vec_free(&d->y[i]);
	}
}

/* Pinned copies over sizes 4 KiB .. 64 MiB; call costs, launch latency and sync wake-up from the same runs. */
static int cal_copies(struct cal *c, char **cause)
{
	struct cal_dirs d = {0};
	struct cal_vec copy = {0}, launch = {0}, lat = {0}, wake = {0}, gap = {0}, hgap = {0};
	int rc = -1;

	for (int k = 10; k <= 24; k += 2) {
		struct cal_run r;

		if (cal_copy_step(c, &r, SS_PRESET_KERNEL_TRANSFER, k, "pinned", 0, &d, cause) != 0)
			goto out;
		cal_api_samples(&r, "cudaMemcpyAsync", &copy);
		cal_api_samples(&r, "cudaLaunchKernel", &launch);
		cal_host_samples(&r, &lat, &wake);
		cal_gap_samples(&r, &gap);
		cal_host_gaps(&r, &hgap);
		cal_run_free(&r);
	}
	{
		/* Two streams on two hardware queues, breadth-first: the H2D engine takes x and y of one chunk from one
		 * queue, then the next chunk's from the other. */
		struct ss_experiment e;
		struct cal_run r;
		struct cal_vec same = {0}, other = {0};

		cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 2, 1u << 21, 8, 1);
		e.connections = 2;
		e.order = SS_ORDER_BREADTH;
		if (cal_measure(c, &r, &e, "pinned copies from two hardware queues", cause) != 0)
			goto out;
		cal_switch_samples(&r, &same, &other);
		cal_run_free(&r);
		if (same.n > 0 && other.n > 0)
			cal_set(c, "copy.switch_ns", fmax(0.0, cal_median(&other) - cal_median(&same)));
		cal_vec_free(&same);
		cal_vec_free(&other);
	}
	if (cal_copy_fits(c, "copy", &d, cause) != 0)
		goto out;
	cal_set(c, "api.copy_ns", cal_median(&copy));
	cal_set(c, "api.launch_ns", cal_median(&launch));
	cal_set(c, "launch.latency_ns", cal_median(&lat));
	c->wake_raw = cal_median(&wake);
	cal_set(c, "copy.gap_ns", cal_median(&gap));
	cal_set(c, "host.gap_ns", cal_median(&hgap));
	rc = 0;
out:
	cal_dirs_free(&d);
	cal_vec_free(&copy);
	cal_vec_free(&launch);
	cal_vec_free(&lat);
	cal_vec_free(&wake);
	cal_vec_free(&gap);
	cal_vec_free(&hgap);
	return rc;
}

/* cal_dep_samples adds, for each GPU record whose call returned before the previous record of its stream (on
 * another engine) ended, the gap between the two: how long the GPU takes to notice a dependency. */
static void cal_dep_samples(const struct cal_run *r, struct cal_vec *v)
{
	for (size_t i = 0; i < r->tl.n; i++) {
		const struct ss_record *b = &r->tl.rec[i], *prev = NULL, *api;

		if (!(SS_GPU_KINDS & SS_KIND_BIT(b->kind)) || b->stream < 0)
			continue;
		for (size_t j = 0; j < r->tl.n; j++) {
			const struct ss_record *a = &r->tl.rec[j];

			if (j != i && a->stream == b->stream && (SS_GPU_KINDS & SS_KIND_BIT(a->kind)) &&
			    a->end <= b->start && (prev == NULL || a->end > prev->end))
				prev = a;
		}
		if (prev == NULL || prev->kind == b->kind || (api = cal_api_of(&r->tl, b)) == NULL ||
		    api->end >= prev->end)
			continue;
		cal_vec_push(&v[b->kind == SS_KIND_KERNEL ? 0 : 1], (double)(b->start - prev->end));
	}
}

/* The fixed kernel minimum: the interfering one-thread kernel on the legacy stream does no work. */
static int cal_touch(struct cal *c, char **cause)
{
	struct ss_experiment e;
	struct cal_run r;
	struct cal_vec v = {0};

	cal_base(&e, SS_PRESET_DEFAULT_STREAM, 4, 1u << 16, 4, 1);
	e.order = SS_ORDER_BREADTH;
	if (cal_measure(c, &r, &e, "empty kernels", cause) != 0)
		return -1;
	for (size_t i = 0; i < r.tl.n; i++)
		if (r.tl.rec[i].kind == SS_KIND_KERNEL && r.tl.rec[i].stream < 0)
			cal_vec_push(&v, (double)(r.tl.rec[i].end - r.tl.rec[i].start));
	cal_set(c, "kernel.min_ns", cal_median(&v));
	cal_vec_free(&v);
	cal_run_free(&r);
	return 0;
}

/* One kernel's speed: over work amounts at one size, the slope is ns per unit and the intercept the kernel minimum
 * plus the work-independent cost of the elements; then its saturation from small launches that cannot fill the
 * device. The one-stream runs also show the dependency latency (kernel after its H2D, D2H after its kernel). */
static int cal_kernel(struct cal *c, enum ss_preset preset, uint64_t elements, const uint32_t *works, int nworks,
                      uint64_t small, uint32_t small_work, char **cause)
{
	struct cal_vec x = {0}, y = {0}, sat = {0}, dep[2] = {{0}};
	const char *name = preset == SS_PRESET_DECRYPT ? "decrypt" : preset == SS_PRESET_HYPERQ ? "spin" : "add";
	const struct ss_kernel_profile *k;
	double a, b, pe = 0;
	char key[64];
	int rc = -1;

	for (int i = 0; i < nworks; i++) {
		struct ss_experiment e;
		struct cal_run r;
		char what[64];

		cal_base(&e, preset, 1, elements, 1, works[i]);
		snprintf(what, sizeof what, "%s kernel, work %u", name, works[i]);
		if (cal_measure(c, &r, &e, what, cause) != 0)
			goto out;
		cal_kernel_samples(&r, &x, &y);
		cal_dep_samples(&r, dep);
		cal_run_free(&r);
	}
	if (cal_fit_line(&x, &y, false, &a, &b) != 0 || b <= 0) {
		*cause = xasprintf("calibration: the %s kernels' durations did not grow with their work", name);
		goto out;
	}
	snprintf(key, sizeof key, "kernel.%s.ns_per_unit", name);
	cal_set(c, key, b);
	if (preset != SS_PRESET_HYPERQ) {
		pe = fmax(0.0, (a - c->out->kernel_min_ns) / (double)elements);
		snprintf(key, sizeof key, "kernel.%s.ns_per_elem", name);
		cal_set(c, key, pe);
	}
	if (preset == SS_PRESET_KERNEL_TRANSFER && dep[0].n > 0)
		cal_set(c, "gpu.dep_kernel_ns", cal_median(&dep[0]));
	if (preset == SS_PRESET_KERNEL_TRANSFER && dep[1].n > 0)
		cal_set(c, "gpu.dep_copy_ns", cal_median(&dep[1]));
	c->dep_base[0] = c->out->dep_kernel_ns;
	c->dep_base[1] = c->out->dep_copy_ns;
	if (preset == SS_PRESET_KERNEL_TRANSFER &&
	    isfinite(c->wake_raw)) /* the device sync also waited for the hidden stop event on the legacy stream,
	                              noticed dep_copy_ns late */
		cal_set(c, "sync.wake_ns", fmax(0.0, c->wake_raw - c->out->dep_copy_ns));
	k = &c->out->kernel[preset == SS_PRESET_DECRYPT ? SS_KERNEL_DECRYPT : SS_KERNEL_ADD];
	for (uint64_t n = small / 4; small > 0 && n <= small; n *= 4) {
		struct ss_experiment e;
		struct cal_run r;
		struct cal_vec sx = {0}, sy = {0};
		char what[64];

		cal_base(&e, preset, 1, n, 1, small_work);
		snprintf(what, sizeof what, "%s kernel, %llu elements", name, (unsigned long long)n);
		if (cal_measure(c, &r, &e, what, cause) != 0)
			goto out;
		cal_kernel_samples(&r, &sx, &sy);
		for (size_t i = 0; i < sx.n; i++)
			cal_vec_push(&sat,
			             (sy.v[i] - c->out->kernel_min_ns) / ((double)small_work * k->ns_per_unit + pe));
		cal_vec_free(&sx);
		cal_vec_free(&sy);
		cal_run_free(&r);
	}
	if (sat.n > 0) {
		/* A launch that was throughput-bound after all only shows that saturation is at most its size. */
		stats_sort(sat.v, sat.n);
		snprintf(key, sizeof key, "kernel.%s.saturation", name);
		cal_set(c, key, fmax(1.0, sat.v[sat.n - 1]));
	}
	rc = 0;
out:
	cal_vec_free(&x);
	cal_vec_free(&y);
	cal_vec_free(&sat);
	cal_vec_free(&dep[0]);
	cal_vec_free(&dep[1]);
	return rc;
}

/* A kernel's cost of data off a 128-byte line: one stream, two chunks of elements + 1 each (ceil split), so that
 * the second chunk starts one element past a line while the first starts on one; the ratio of the two launches'
 * work-dependent times (less kernel.min_ns and the work-independent cost, cal_kernel's) is the kernel's misalign. */
static int cal_misalign(struct cal *c, enum ss_preset preset, uint64_t elements, uint32_t work, char **cause)
{
	const char *name = preset == SS_PRESET_DECRYPT ? "decrypt" : "add";
	const struct ss_kernel_profile *k =
	    &c->out->kernel[preset == SS_PRESET_DECRYPT ? SS_KERNEL_DECRYPT : SS_KERNEL_ADD];
	struct cal_vec d[2] = {{0}};
	struct ss_experiment e;
	struct cal_run r;
	char what[64], key[64];
	double n = (double)elements + 1, fixed = c->out->kernel_min_ns + n * k->ns_per_elem, on, off;

	cal_base(&e, preset, 1, 2 * (elements + 1), 2, work);
	e.split = SS_SPLIT_CEIL;
	snprintf(what, sizeof what, "%s kernel, data off a 128-byte line", name);
	if (cal_measure(c, &r, &e, what, cause) != 0)
		return -1;
	for (size_t i = 0; i < r.tl.n; i++) {
		const struct ss_op *op = r.op[i];

		if (r.tl.rec[i].kind == SS_KIND_KERNEL && op != NULL && op->stream >= 0 && op->chunk >= 0 &&
		    op->chunk < 2)
			cal_vec_push(&d[op->chunk], (double)(r.tl.rec[i].end - r.tl.rec[i].start));
	}
	cal_run_free(&r);
	if (d[0].n > 0 && d[1].n > 0) {
		on = cal_median(&d[0]) - fixed;
		off = cal_median(&d[1]) - fixed;
		if (on > 0 && off > 0) {
			snprintf(key, sizeof key, "kernel.%s.misalign", name);
			cal_set(c, key, fmax(1.0, off / on));
		}
	}
	cal_vec_free(&d[0]);
	cal_vec_free(&d[1]);
	return 0;
}

#define CAL_ONE_STAGE (1u << 20) /* bytes: no pageable D2H this small goes through more than one staging buffer */

/* cal_stage_bytes: the staging buffer S of pageable D2H copies, from the records of those larger than
 * CAL_ONE_STAGE (bytes in x, durations in y, two sizes at least): one of B bytes lasts latency + S / bw +
 * (B - S) / r (the DMA of each buffer after the first waits for the host to copy the one before out, at r), a line
 * in B whose slope gives r and whose intercept S; at most the largest copy (no staging seen). -1 when the records
 * give no such line. */
static double cal_stage_bytes(const struct ss_profile *p, const struct cal_vec *x, const struct cal_vec *y)
{
	double a, b, per, most = 0;

	for (size_t i = 0; i < x->n; i++)
		most = fmax(most, x->v[i]);
	if (cal_fit_line(x, y, false, &a, &b) != 0 || b <= 0)
		return -1;
	per = 1.0 / p->pageable_d2h.bw_gbs - b; /* < 0 when the copy-out is slower than the DMA */
	if (per >= 0)
		return most;
	return fmin(most, fmax(0.0, (a - p->pageable_d2h.latency_ns) / per));
}

/* Pageable copies. An H2D call stages its data a piece at a time and returns once all is staged, each piece's DMA
 * following its staging: the staging rate from each call's duration less api.copy_ns, the piece
 * (pageable.h2d.stage_bytes) from where within the call the DMA of a copy larger than one starts (0 when every DMA
 * starts after its call), the DMA's bandwidth and fixed cost from the copies staged whole (their DMA after the call;
 * the pinned path's when fewer than two sizes were). A D2H call is synchronous: its DMA rate and the host's
 * copy-out after it (a line over the sizes) from the copies of one staging buffer (at most CAL_ONE_STAGE), the
 * buffer's size from the larger ones (cal_stage_bytes). */
static int cal_pageable(struct cal *c, char **cause)
{
	struct cal_dirs d = {0};
	struct cal_vec stage = {0}, piece = {0}, tx = {0}, ty = {0}, bx = {0}, by = {0};
	const struct ss_profile *p = c->out;
	double sb, ta, tb;
	int rc = -1;

	/* copies of 64 KiB and 1 MiB (one staging buffer), 8 and 16 MiB (several) */
	static const int sizes[] = {14, 18, 21, 22};

	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		struct cal_run r;
		size_t whole = d.x[0].n; /* H2D's DMA line takes only the copies staged whole, below */

		if (cal_copy_step(c, &r, SS_PRESET_PAGEABLE, sizes[k], "pageable", SS_REC_PAGEABLE, &d, cause) != 0)
			goto out;
		d.x[0].n = d.y[0].n = whole;
		for (size_t i = 0; i < r.tl.n; i++) {
			const struct ss_record *rec = &r.tl.rec[i], *api;
			double t, b = (double)rec->bytes;

			if ((rec->kind != SS_KIND_H2D && rec->kind != SS_KIND_D2H) || !(rec->flags & SS_REC_PAGEABLE) ||
			    (rec->kind == SS_KIND_D2H && rec->bytes > CAL_ONE_STAGE) ||
			    (api = cal_api_of(&r.tl, rec)) == NULL)
				continue;
			if (rec->kind == SS_KIND_D2H) {
				/* the host's copy-out after the DMA ends */
				t = (double)api->end - (double)rec->end - p->sync_wake_ns;
				if (t > 0) {
					cal_vec_push(&tx, b);
					cal_vec_push(&ty, t);
				}
				continue;
			}
			t = (double)api->end - (double)api->start - p->api_copy_ns; /* the staging */
			if (t <= 0)
				continue;
			cal_vec_push(&stage, b / t);
			if (rec->start < api->end) {
				double lead = (double)rec->start - (double)api->start - p->api_copy_ns - p->launch_ns;

				if (lead > 0)
					cal_vec_push(&piece, b * lead / t);
			} else {
				cal_vec_push(&d.x[0], b);
				cal_vec_push(&d.y[0], (double)(rec->end - rec->start));
			}
		}
		cal_run_free(&r);
	}
	/* D2H's DMA from the copies of one staging buffer */
	{
		size_t k = 0;

		for (size_t i = 0; i < d.x[1].n; i++) {
			if (d.x[1].v[i] > CAL_ONE_STAGE) {
				cal_vec_push(&bx, d.x[1].v[i]);
				cal_vec_push(&by, d.y[1].v[i]);
				continue;
			}
			d.x[1].v[k] = d.x[1].v[i];
			d.y[1].v[k++] = d.y[1].v[i];
		}
		d.x[1].n = d.y[1].n = k;
	}
	if (cal_copy_fit(c, "pageable.d2h", &d.x[1], &d.y[1], cause) != 0)
		goto out;
	if (cal_copy_fit(c, "pageable.h2d", &d.x[0], &d.y[0], cause) != 0) {
		free(*cause);
		*cause = NULL;
		cal_set(c, "pageable.h2d.bw_gbs", p->h2d.bw_gbs);
		cal_set(c, "pageable.h2d.latency_ns", p->h2d.latency_ns);
		if (c->progress != NULL)
			c->progress("calibrate: fewer than two sizes of pageable H2D were staged whole; their DMA "
			            "takes the pinned H2D's bandwidth and fixed cost");
	}
	rc = 0;
	if (stage.n > 0)
		cal_set(c, "pageable.h2d.stage_gbs", cal_median(&stage));
	cal_set(c, "pageable.h2d.stage_bytes", piece.n > 0 ? cal_median(&piece) : 0.0);
	/* the copy-out after the DMA: a line over the sizes, its slope (the call's fixed costs are the other keys') */
	if (cal_fit_line(&tx, &ty, false, &ta, &tb) == 0 && tb > 0)
		cal_set(c, "pageable.d2h.stage_gbs", 1.0 / tb);
	if ((sb = cal_stage_bytes(p, &bx, &by)) >= 0)
		cal_set(c, "pageable.d2h.stage_bytes", sb);
out:
	cal_vec_free(&stage);
	cal_vec_free(&piece);
	cal_vec_free(&tx);
	cal_vec_free(&ty);
	cal_vec_free(&bx);
	cal_vec_free(&by);
	cal_dirs_free(&d);
	return rc;
}

/* Copies with several hardware queues in use (copy.queues_slow): kernel-transfer on 64 streams of 1 MiB copies with
 * next to no kernel work, on 8 queues and on one; the copy engines' busy time on 8 over that on one, less 1, per
 * 1 - 1/8 (the H200: 4 MiB copies 3-5% slower on 8 queues, tests/data/h200/queue-penalty). */
static int cal_copy_slow(struct cal *c, char **cause)
{
	double busy[2] = {0, 0}, f = 0;

	for (int i = 0; i < 2; i++) {
		struct ss_experiment e;
		struct cal_run r;

		cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 64, 1u << 24, 0, 1);
		e.connections = i == 0 ? 8 : 1;
		if (cal_measure(c, &r, &e, i == 0 ? "copies on 8 hardware queues" : "the same copies on one queue",
		                cause) != 0)
			return -1;
		for (size_t j = 0; j < r.tl.n; j++)
			if (r.tl.rec[j].kind == SS_KIND_H2D || r.tl.rec[j].kind == SS_KIND_D2H)
				busy[i] += (double)(r.tl.rec[j].end - r.tl.rec[j].start);
		if (i == 0)
			f = experiment_queues_f(&e);
		cal_run_free(&r);
	}
	if (busy[0] > 0 && busy[1] > 0 && f > 0)
		cal_set(c, "copy.queues_slow", fmax(0.0, (busy[0] / busy[1] - 1.0) / f));
	return 0;
}

/* Both directions at once: copies that ran entirely while the other direction was busy (after cal_copy_slow). Also
 * the cost of a sync call with nothing left to wait for (reverse order: all but the first). */
static int cal_both(struct cal *c, char **cause)
{
	struct ss_experiment e;
	struct cal_run r;
	struct cal_vec rate[2] = {{0}}, sync = {0};
	const struct ss_profile *p = c->out;

	double slow;

	cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 8, 1ull << 25, 8, 1);
	e.sync = SS_SYNC_REVERSE;
	if (cal_measure(c, &r, &e, "both directions at once", cause) != 0)
		return -1;
	/* 8 queues in use: the copies' bytes as they would move on one (copy.queues_slow, measured before) */
	slow = 1.0 + experiment_queues_f(&e) * p->copy_queues_slow;
	for (size_t i = 0; i < r.tl.n; i++) {
		const struct ss_record *a = &r.tl.rec[i];
		int other = a->kind == SS_KIND_H2D ? SS_KIND_D2H : SS_KIND_H2D;
		const struct ss_copy_profile *cp = a->kind == SS_KIND_H2D ? &p->h2d : &p->d2h;
		double t0 = (double)a->start + cp->latency_ns, t1 = (double)a->end, covered = 0, alone;

		if ((a->kind != SS_KIND_H2D && a->kind != SS_KIND_D2H) || a->bytes == 0 || t1 <= t0)
			continue;
		/* The part of the transfer phase during which the other engine was busy (its records do not overlap).
		 */
		for (size_t j = 0; j < r.tl.n; j++) {
			const struct ss_record *b = &r.tl.rec[j];

			if (b->kind == other)
				covered += fmax(0.0, fmin(t1, (double)b->end) - fmax(t0, (double)b->start));
		}
		alone = t1 - t0 - covered;
		if (covered >= 0.3 * (t1 - t0))
			cal_vec_push(&rate[a->kind == SS_KIND_D2H],
			             ((double)a->bytes * slow - cp->bw_gbs * alone) / covered);
	}
	cal_api_samples(&r, "cudaStreamSynchronize", &sync);
	if (sync.n > 1) {
		/* the first call (the last stream) waited; the others found their stream done */
		struct cal_vec rest = {0};
		double first_start = INFINITY;

		for (size_t i = 0; i < r.tl.n; i++)
			if (r.tl.rec[i].kind == SS_KIND_API &&
			    strncmp(timeline_name(&r.tl, r.tl.rec[i].name), "cudaStreamSynchronize", 21) == 0)
				first_start = fmin(first_start, (double)r.tl.rec[i].start);
		for (size_t i = 0; i < r.tl.n; i++)
			if (r.tl.rec[i].kind == SS_KIND_API && (double)r.tl.rec[i].start > first_start &&
			    strncmp(timeline_name(&r.tl, r.tl.rec[i].name), "cudaStreamSynchronize", 21) == 0)
				cal_vec_push(&rest, (double)(r.tl.rec[i].end - r.tl.rec[i].start));
		cal_set(c, "api.sync_ns", cal_median(&rest));
		c->sync_raw = rest.n > 0;
		cal_vec_free(&rest);
	}
	if (rate[0].n > 0 && rate[1].n > 0) {
		/* A direction that kept its own bandwidth shows only that its share is at least that. */
		double h = fmin(cal_median(&rate[0]), p->h2d.bw_gbs), d = fmin(cal_median(&rate[1]), p->d2h.bw_gbs);

		cal_set(c, "copy.both_gbs", h + d);
		cal_set(c, "copy.both_h2d_share", h / (h + d));
	} else if (c->progress != NULL) {
		c->progress("calibrate: no copies ran entirely against the other direction; copy.both_* not measured");
	}
	cal_vec_free(&rate[0]);
	cal_vec_free(&rate[1]);
	cal_vec_free(&sync);
	cal_run_free(&r);
	return 0;
}

/* cudaEventRecord's cost, from a run that syncs with events. */
static int cal_events(struct cal *c, char **cause)
{
	struct ss_experiment e;
	struct cal_run r;
	struct cal_vec v = {0};

	cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 4, 1u << 16, 4, 1);
	e.sync = SS_SYNC_EVENTS;
	if (cal_measure(c, &r, &e, "event records", cause) != 0)
		return -1;
	cal_api_samples(&r, "cudaEventRecord", &v);
	cal_set(c, "api.event_ns", cal_median(&v));
	c->event_raw = v.n > 0;
	c->event_f = experiment_queues_f(&e);
	cal_vec_free(&v);
	cal_run_free(&r);
	return 0;
}

/* Concurrent-kernel capacity: 128 streams of one-element kernels long enough to be all issued while the first still
 * runs; the most that ran at once. 128 seen means "at least 128", the most any experiment can use. */
static int cal_capacity(struct cal *c, char **cause)
{
	struct ss_experiment e;
	struct cal_run r;
	int most = 0;

	cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 128, 128, 0, 200000);
	e.order = SS_ORDER_BREADTH;
	e.connections = 32;
	if (cal_measure(c, &r, &e, "concurrent kernels", cause) != 0)
		return -1;
	for (size_t i = 0; i < r.tl.n; i++) {
		int at = 0;

		if (r.tl.rec[i].kind != SS_KIND_KERNEL)
			continue;
		for (size_t j = 0; j < r.tl.n; j++)
			at += r.tl.rec[j].kind == SS_KIND_KERNEL && r.tl.rec[j].start <= r.tl.rec[i].start &&
			      r.tl.rec[j].end > r.tl.rec[i].start;
		if (at > most)
			most = at;
	}
	if (most > 0)
		cal_set(c, "device.max_kernels", most);
	cal_run_free(&r);
	return 0;
}

/* cal_solve1 adjusts one key (index k, value *v, kept within lo..hi) by the secant method until the model's makespan of
 * experiment e equals measured; returns 0 (whether or not it got there), -1 with *cause when the model fails. */
static int cal_solve1(struct ss_profile *p, const struct ss_experiment *e, double measured, int k, double *v, double lo,
                      double hi, char **cause)
{
	double x0 = *v, x1 = fmin(fmax(*v * 1.1 + 1, lo), hi), f0, f1;
	uint64_t t;

	if (x1 == x0) /* at the upper bound: step down instead */
		x1 = fmax(lo, x0 * 0.9);

	profile_set(p, k, x0, SS_PROV_ESTIMATE);
	if ((t = model_makespan(e, p, cause)) == 0)
		return -1;
	f0 = (double)t - measured;
	for (int it = 0; it < 40 && fabs(f0) > 2; it++) {
		profile_set(p, k, x1, SS_PROV_ESTIMATE);
		if ((t = model_makespan(e, p, cause)) == 0)
			return -1;
		f1 = (double)t - measured;
		if (f1 == f0)
			break;
		double x2 = fmin(fmax(x1 - f1 * (x1 - x0) / (f1 - f0), lo), hi);
		x0 = x1;
		f0 = f1;
		x1 = x2;
	}
	*v = fabs(f0) <= 2 ? x0 : x1;
	profile_set(p, k, *v, SS_PROV_ESTIMATE);
	return 0;
}

int calibrate_solve_key(struct ss_profile *p, const struct ss_experiment *e, double measured, const char *key,
                        double lo, double hi, char **cause)
{
	int k = profile_key_find(key);
	double v;

	if (k < 0) {
		*cause = xasprintf("calibrate: no profile key %s", key);
		return -1;
	}
	v = profile_get(p, k);
	return cal_solve1(p, e, measured, k, &v, lo, hi, cause);
}

/* cal_solve finds the latency and bandwidth (keys "<path>_latency_ns", "<path>_gbs") of transfers that leave no
 * records (prefetches) from the makespans of a small (pe[0]) and a large (pe[1]) run: the bandwidth from the large
 * run, where the fixed cost hardly counts, the latency from the small one, a few rounds in turn. A joint solve of
 * both from two noisy makespans put every unmodelled cost of the small run into the latency (241 us on the H200,
 * longer than the small prefetch itself), so a latency longer than the small run's transfer time is refused: the
 * keys keep their estimates and the progress line says so. Likewise when the model cannot match within 2%. */
static int cal_solve(struct cal *c, const char *path, const struct ss_experiment *pe, const double *measured,
                     char **cause)
{
	char lk[64], bk[64];
	int lat, bw;
	double L, B, small_ns;
	struct ss_profile p = *c->out;
	uint64_t t0, t1;
	const char *why = NULL;

	snprintf(lk, sizeof lk, "%s_latency_ns", path);
	snprintf(bk, sizeof bk, "%s_gbs", path);
	lat = profile_key_find(lk);
	bw = profile_key_find(bk);
	L = profile_get(c->out, lat);
	B = profile_get(c->out, bw);
	for (int round = 0; round < 4; round++) {
		if (cal_solve1(&p, &pe[1], measured[1], bw, &B, 0.01, 10000, cause) != 0 ||
		    cal_solve1(&p, &pe[0], measured[0], lat, &L, 0, 1e8, cause) != 0)
			return -1;
	}
	if ((t0 = model_makespan(&pe[0], &p, cause)) == 0 || (t1 = model_makespan(&pe[1], &p, cause)) == 0)
		return -1;
	small_ns = (double)pe[0].elements * pe[0].elem_size / B;
	if (fabs(measured[0] - (double)t0) > 0.02 * measured[0] || fabs(measured[1] - (double)t1) > 0.02 * measured[1])
		why = "the model could not match the runs";
	else if (L > small_ns)
		why = "the fitted fixed cost is longer than the small transfer itself (a cost the model lacks, not a "
		      "latency)";
	else if (B >= 0.999 * 10000 || B <= 1.001 * 0.01)
		why = "the bandwidth ran into its bound (0.01..10000 GB/s): the runs do not show it";
	if (why != NULL) {
		if (c->progress != NULL) {
			char msg[224];

			snprintf(msg, sizeof msg, "calibrate: %s: %s; %s_* not measured", path, why, path);
			c->progress(msg);
		}
		return 0;
	}
	cal_set(c, bk, B);
	cal_set(c, lk, L);
	return 0;
}

/* The makespan the model must match: untraced when the backend timed an untraced twin (the model models the
 * program, not its tracing). */
static double cal_makespan(const struct cal_run *r)
{
	return (double)(r->res.have_untraced && r->res.untraced_ns > 0 ? r->res.untraced_ns : r->res.traced_ns);
}

static void cal_calls(struct cal *c);

/* cal_untraced_value runs e (labelled what) and solves key for the value within lo..hi that makes the model's
 * makespan of e its untraced one, from the key's value so far with every other key as measured; the progress line
 * names the result. 1 with *v where the model matches within 2%; 0 (the progress line says why) where the backend
 * timed no untraced twin (the model's own makespans have no tracing in them) or the model cannot match within 2%;
 * -1 with *cause when the run or the model fails. */
static int cal_untraced_value(struct cal *c, const struct ss_experiment *e, const char *what, const char *key,
                              double lo, double hi, double *v, char **cause)
{
	struct cal_run r;
	struct ss_profile p = *c->out;
	int k = profile_key_find(key);
	double measured;
	uint64_t t;
	char msg[224];

	if (k < 0) {
		*cause = xasprintf("calibrate: no profile key %s", key);
		return -1;
	}
	if (cal_measure(c, &r, e, what, cause) != 0)
		return -1;
	measured = cal_makespan(&r);
	if (!r.res.have_untraced && !r.res.modelled) {
		cal_run_free(&r);
		if (c->progress != NULL) {
			snprintf(msg, sizeof msg, "calibrate: %s: no untraced twin; %s not measured", what, key);
			c->progress(msg);
		}
		return 0;
	}
	cal_run_free(&r);
	*v = profile_get(&p, k);
	if (cal_solve1(&p, e, measured, k, v, lo, hi, cause) != 0 || (t = model_makespan(e, &p, cause)) == 0)
		return -1;
	if (c->progress != NULL) {
		snprintf(msg, sizeof msg, "calibrate: %s: untraced makespan %.0f ns; %s %.4g makes the model's %llu ns",
		         what, measured, key, *v, (unsigned long long)t);
		c->progress(msg);
	}
	if (fabs((double)t - measured) > 0.02 * measured) {
		if (c->progress != NULL) {
			snprintf(msg, sizeof msg,
			         "calibrate: %s: the model could not match it within 2%%; %s not measured there", what,
			         key);
			c->progress(msg);
		}
		return 0;
	}
	return 1;
}

/* cal_untraced_solve sets key to cal_untraced_value's solution for e, where there is one (else the key keeps its
 * value). 0, or -1 with *cause. */
static int cal_untraced_solve(struct cal *c, const struct ss_experiment *e, const char *what, const char *key,
                              double lo, double hi, char **cause)
{
	double v;
	int rc = cal_untraced_value(c, e, what, key, lo, hi, &v, cause);

	if (rc > 0)
		cal_set(c, key, v);
	return rc < 0 ? -1 : 0;
}

/* A copy engine's idle time between two queued copies when nothing traces them (copy.gap_ns). The traced runs show
 * 1.3-1.4 us between back-to-back copies (cal_gap_samples), much of it CUPTI's own timestamping, so the key comes
 * from an untraced makespan instead: one stream, 256 chunks of 256 KiB breadth-first with next to no kernel work
 * (512 H2D then 256 D2H copies back to back on their engines, the host far ahead of the GPU), solved for the gap
 * that makes the model's makespan the untraced one (median of 9). Run last, with every other key measured. */
static int cal_copy_gap(struct cal *c, char **cause)
{
	struct ss_experiment e;

	cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 1, 1ull << 24, 256, 1);
	e.order = SS_ORDER_BREADTH;
	e.repeat = 9;
	return cal_untraced_solve(c, &e, "copies back to back, untraced", "copy.gap_ns", 0, 20000, cause);
}

/* cal_workload_solve solves key on preset's own workload as validate runs it (the preset's defaults: depth-first, 8
 * hardware queues, its repeats) at each of cal_workload_streams, untraced, point by point as cal_untraced_value
 * does, and sets the key to the median of the points' solutions (the key keeps its value where no point gives one):
 * for the keys whose traced measurement the presets' untraced rows contradict (docs/results.md).
 * pageable.h2d.stage_gbs, the host's staging of a pageable H2D, on the pageable preset (x and y staged and copied
 * in, the add kernel, z out), in place of cal_pageable's rate from traced single copies; managed.fault_gbs, the
 * migration of a kernel writing unprefetched managed memory, on the managed preset (x and y prefetched, the add
 * kernel faulting z in, z prefetched back), in place of cal_managed's rate from a traced run's last kernel (whose
 * prefetch keys it keeps). Run after every other key of the workload is measured. */
static int cal_workload_solve(struct cal *c, enum ss_preset preset, const char *key, double lo, double hi, char **cause)
{
	struct cal_vec got = {0};
	char msg[224];
	int rc = 0;

	for (int i = 0; i < CAL_WORKLOAD_POINTS && rc >= 0; i++) {
		struct ss_experiment e;
		char what[96];
		double v;

		experiment_preset(&e, preset);
		e.streams = cal_workload_streams[i];
		snprintf(what, sizeof what, "%s workload on %d stream%s, untraced", experiment_preset_name(preset),
		         e.streams, e.streams == 1 ? "" : "s");
		rc = cal_untraced_value(c, &e, what, key, lo, hi, &v, cause);
		if (rc > 0)
			cal_vec_push(&got, v);
	}
	if (rc >= 0 && got.n > 0) {
		double m = cal_median(&got);

		cal_set(c, key, m);
		if (c->progress != NULL) {
			snprintf(msg, sizeof msg, "calibrate: %s workload: %s %.4g, the median of %zu stream counts",
			         experiment_preset_name(preset), key, m, got.n);
			c->progress(msg);
		}
	}
	free(got.v);
	return rc < 0 ? -1 : 0;
}

/* Managed memory. Prefetched: the add kernel's output is not prefetched and faults in as the kernel writes it (a
 * cheap kernel lasts its fault migration: managed.fault_gbs from each run's last kernel, which faults alone); the
 * prefetches leave no records, so the latency and bandwidth of those to the device are what make the model's
 * makespans match at two sizes (those to the host keep the profile's pace and wait, which need per-stream syncs to
 * be seen). Attached: the attach migrates the chunk, fitted the same way. Also the launches behind a prefetch
 * (api.launch_prefetch_wait_ns, through cal_calls). */
static int cal_managed(struct cal *c, char **cause)
{
	struct ss_experiment pe[2], ae[2];
	struct cal_run r;
	struct cal_vec fault = {0}, attach = {0}, lx = {0}, ly = {0};
	const struct ss_kernel_profile *k = &c->out->kernel[SS_KERNEL_ADD];
	double measured[2];
	int rc = -1;

	for (int i = 0; i < 2; i++) {
		/* two streams: the second stream's first prefetch follows a call on the first (api.prefetch_switch_ns)
		 */
		cal_base(&pe[i], SS_PRESET_KERNEL_TRANSFER, 2, i == 0 ? 1u << 20 : 1u << 24, 2, 1);
		pe[i].hostmem = SS_MEM_MANAGED_PREFETCH;
		/* the second stream's first prefetch follows the first's prefetch of z to the host: of 2 MiB in the
		 * small run, as in the managed preset's chunks; in the large one its call waits for a 32 MiB one, a
		 * wait api.prefetch_switch_ns does not stand for */
		c->no_prefetch_switch = i == 1;
		bool failed = cal_measure(c, &r, &pe[i],
		                          i == 0 ? "managed prefetch, 4 MiB" : "managed prefetch, 64 MiB", cause) != 0;
		c->no_prefetch_switch = false;
		if (failed)
			goto out;
		/* The fault rate from the run's last kernel alone: the first ones fault while the later streams'
		 * prefetches share the migration with them. A faulting kernel computes the pages that have arrived, so
		 * it lasts its fault migration when that is the longer part (the cheap kernels here). */
		const struct ss_record *last = NULL;
		const struct ss_op *lop = NULL;

		for (size_t j = 0; j < r.tl.n; j++)
			if (r.tl.rec[j].kind == SS_KIND_KERNEL && r.op[j] != NULL && r.op[j]->stream >= 0 &&
			    (last == NULL || r.tl.rec[j].start > last->start)) {
				last = &r.tl.rec[j];
				lop = r.op[j];
			}
		if (last != NULL) {
			double n = (double)lop->count;
			double compute =
			    n * (pe[i].work * k->ns_per_unit + k->ns_per_elem) / fmin(1.0, n / k->saturation);
			double left = (double)(last->end - last->start) - c->out->kernel_min_ns;

			if (left > 1.5 * compute)
				cal_vec_push(&fault, n * pe[i].elem_size / left); /* one output array */
		}
		measured[i] = cal_makespan(&r);
		cal_run_free(&r);
	}
	if (fault.n > 0)
		cal_set(c, "managed.fault_gbs", cal_median(&fault));
	else if (c->progress != NULL)
		c->progress(
		    "calibrate: managed kernels were not slower than pinned ones; managed.fault_gbs not measured");
	cal_calls(c); /* the prefetch calls' costs, which cal_solve's model runs need */
	if (cal_solve(c, "managed.prefetch", pe, measured, cause) != 0)
		goto out;
	for (int i = 0; i < 2; i++) {
		struct cal_vec ax = {0}, ay = {0};

		cal_base(&ae[i], SS_PRESET_KERNEL_TRANSFER, 1, i == 0 ? 1u << 20 : 1u << 24, 1, 1);
		ae[i].hostmem = SS_MEM_MANAGED_ATTACH;
		if (cal_measure(c, &r, &ae[i], i == 0 ? "managed attach, 4 MiB" : "managed attach, 64 MiB", cause) != 0)
			goto out;
		cal_api_samples(&r, "cudaStreamAttachMemAsync", &attach);
		/* the launch migrates the chunk's attached arrays before it returns */
		cal_kernel_samples(&r, &ax, &ay);
		for (size_t j = 0; j < r.tl.n; j++) {
			const struct ss_record *api = &r.tl.rec[j];

			if (api->kind == SS_KIND_API && ax.n > 0 &&
			    strncmp(timeline_name(&r.tl, api->name), "cudaLaunchKernel", 16) == 0) {
				int in, outp;

				experiment_io_arrays(&ae[i], &in, &outp);
				cal_vec_push(&lx, ax.v[0] / ae[i].work * ae[i].elem_size * (in + outp));
				cal_vec_push(&ly, (double)(api->end - api->start) - c->out->api_launch_ns - c->trace);
			}
		}
		cal_vec_free(&ax);
		cal_vec_free(&ay);
		cal_run_free(&r);
	}
	{
		double la, lb;

		/* The migration crosses the host-to-device link: a slope faster than twice the pinned H2D bandwidth
		 * (678 GB/s on the H200, from two sizes) says the launch does not carry the migration, not that it is
		 * that fast; the keys keep their estimates then. */
		if (cal_fit_line(&lx, &ly, false, &la, &lb) == 0 && lb > 0 && 1.0 / lb <= 2 * c->out->h2d.bw_gbs) {
			cal_set(c, "managed.attach_gbs", 1.0 / lb);
			cal_set(c, "managed.attach_latency_ns", fmax(0.0, la));
		} else if (c->progress != NULL) {
			c->progress("calibrate: attached launches did not grow with size as a link transfer would; "
			            "managed.attach_* not measured");
		}
	}
	cal_set(c, "api.attach_ns", fmax(0.0, cal_median(&attach) - c->trace));
	rc = 0;
out:
	cal_vec_free(&fault);
	cal_vec_free(&attach);
	cal_vec_free(&lx);
	cal_vec_free(&ly);
	return rc;
}

/* The tracing cost per call (api.trace_overhead_ns, which cal_calls takes off the traced calls' durations): runs
 * dominated by issuing 640 small calls, traced against their untraced twins, on 8 hardware queues and on one in
 * turn, CAL_TRACE_PAIRS times: the median of their costs per call. The one-queue runs give the calls' costs with one
 * queue in use, the others (with every other run on 8 queues) the extra of several (api.copy_queues_ns,
 * api.switch_queues_ns). One run of each gives the host's speed at one moment, and a host whose speed moves between
 * the two puts the move into the extra; runs in turn share the moves. */
static int cal_trace(struct cal *c, char **cause)
{
	struct ss_experiment e;
	struct cal_vec o = {0};
	int rc = -1;

	cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 128, 1u << 14, 0, 1);
	e.sync = SS_SYNC_STREAM;
	for (int i = 0; i < 2 * CAL_TRACE_PAIRS; i++) {
		struct cal_run r;

		e.connections = i % 2 == 0 ? 8 : 1;
		if (cal_measure(c, &r, &e, i % 2 == 0 ? "tracing cost per call" : "copies on one hardware queue",
		                cause) != 0)
			goto out;
		if (r.res.have_untraced && r.res.untraced_ns > 0 && r.res.traced_ns > r.res.untraced_ns && r.ops.n > 0)
			cal_vec_push(&o, (double)(r.res.traced_ns - r.res.untraced_ns) / (double)r.ops.n);
		cal_run_free(&r);
	}
	if (o.n > 0) {
		c->trace = cal_median(&o);
		cal_set(c, "api.trace_overhead_ns", c->trace);
	}
	rc = 0;
out:
	cal_vec_free(&o);
	return rc;
}

/* cal_name derives the short profile name from a device name: "NVIDIA H200" -> "H200", and for a calibration of
 * the model itself "MODEL (H200 profile)" -> "H200". */
static void cal_name(struct ss_profile *p)
{
	const char *d = p->device;
	size_t len;

	if (strncmp(d, "NVIDIA ", 7) == 0)
		d += 7;
	len = strlen(d);
	if (model_is_device(d)) {
		d += 7;
		len -= 16;
	}
	if (len == 0) {
		d = "GPU";
		len = 3;
	}
	snprintf(p->name, sizeof p->name, "%.*s", (int)(len < sizeof p->name ? len : sizeof p->name - 1), d);
}

/* Dependency latency with several hardware queues in use: 8 streams on 8 queues, serialised by the default-stream
 * preset's legacy kernels so that no gap waits for a busy engine (the kernel-transfer sweeps' gaps do, 1-2 us more).
 * The gaps exceed the one-stream ones by gpu.dep_*_queues_ns x 7/8. */
static int cal_queues(struct cal *c, char **cause)
{
	struct ss_experiment e;
	struct cal_run r;
	struct cal_vec dep[2] = {{0}};
	static const char *const keys[2] = {"gpu.dep_kernel_queues_ns", "gpu.dep_copy_queues_ns"};

	cal_base(&e, SS_PRESET_DEFAULT_STREAM, 8, 1u << 20, 8, 400);
	e.order = SS_ORDER_DEPTH;
	if (cal_measure(c, &r, &e, "default-stream, 8 streams on 8 queues", cause) != 0)
		return -1;
	cal_dep_samples(&r, dep);
	cal_run_free(&r);
	for (int k = 0; k < 2; k++) {
		if (dep[k].n > 0)
			cal_set(c, keys[k], fmax(0.0, (cal_median(&dep[k]) - c->dep_base[k]) / (1.0 - 1.0 / 8)));
		cal_vec_free(&dep[k]);
	}
	return 0;
}

/* Whether copies queue apart from kernels (gpu.copy_queues): kernel-transfer depth-first on 8 streams and one
 * connection, where a queue shared by copies and kernels would leave only D2H/H2D overlap; the model with each
 * setting against the measured makespan, the closer one wins. Run last: it needs every other value. */
static int cal_copy_queues(struct cal *c, char **cause)
{
	struct ss_experiment e;
	struct cal_run r;
	struct ss_profile p = *c->out;
	double measured, t[2];

	cal_base(&e, SS_PRESET_KERNEL_TRANSFER, 8, 1u << 22, 8, 400);
	e.order = SS_ORDER_DEPTH;
	e.connections = 1;
	if (cal_measure(c, &r, &e, "kernel-transfer, 8 streams on 1 queue", cause) != 0)
		return -1;
	measured = cal_makespan(&r);
	cal_run_free(&r);
	for (int q = 0; q < 2; q++) {
		p.copy_queues = q;
		if ((t[q] = (double)model_makespan(&e, &p, cause)) == 0)
			return -1;
	}
	cal_set(c, "gpu.copy_queues", fabs(t[1] - measured) < fabs(t[0] - measured) ? 1 : 0);
	return 0;
}

/* cal_calls_free empties the call samples (cal_calls has used them, or the calibration ends). */
static void cal_calls_free(struct cal *c)
{
	for (int k = 0; k < CAL_CALLS; k++) {
		cal_vec_free(&c->call[k]);
		cal_vec_free(&c->one[k]);
		c->f_many[k] = 0;
	}
}

/* cal_split gives the one-queue cost and the extra per 1 - 1/q of call kind k, from the samples of runs with one
 * hardware queue in use and of runs with several, each less base (what the call costs besides: a copy's own cost
 * for the extra of switching streams); *extra is set when both kinds of run were measured, else kept. NAN when
 * neither. */
static double cal_split(struct cal *c, int k, double base1, double basen, double *extra)
{
	double one = cal_median(&c->one[k]) - base1, many = cal_median(&c->call[k]) - basen, f = c->f_many[k];

	if (isfinite(one) && isfinite(many) && f > 0)
		*extra = fmax(0.0, (many - one) / f);
	return isfinite(one) ? one : isfinite(many) ? many - f * *extra : NAN;
}

/* cal_calls sets the call costs from the calls of every run so far, sorted by what came before them, less CUPTI's
 * cost per traced call (the model models the untraced program): a copy after its stream's own call, the extra of
 * switching streams, each with one hardware queue in use and the extra per 1 - 1/q with q in use (from the runs
 * with several, when both were measured; else the profile's extra converts), a launch not behind a copy, the extra
 * of a launch behind a copy. */
static void cal_calls(struct cal *c)
{
	struct cal_vec *v = c->call;
	double cq = c->out->api_copy_queues_ns, sq = c->out->api_switch_queues_ns;
	double copy = cal_split(c, CAL_COPY_SAME, 0, 0, &cq), launch = cal_median(&v[CAL_LAUNCH_PLAIN]), sw = NAN;
	double copy1 = cal_median(&c->one[CAL_COPY_SAME]), copyn = cal_median(&v[CAL_COPY_SAME]);

	if (c->one[CAL_COPY_SWITCH].n > 0 || v[CAL_COPY_SWITCH].n > 0)
		sw = cal_split(c, CAL_COPY_SWITCH, copy1, copyn, &sq);
	if (isfinite(sw))
		sw = fmax(0.0, sw);
	if (!isfinite(launch) && (v[CAL_LAUNCH_SWITCH].n > 0 || c->one[CAL_LAUNCH_SWITCH].n > 0)) {
		/* launches on another stream, less the extra of switching (with the queues of their runs: cal_split
		 * takes sq x their 1 - 1/q off those of runs with several) */
		double ls = sq, s1 = isfinite(sw) ? sw : c->out->api_switch_ns;

		launch = cal_split(c, CAL_LAUNCH_SWITCH, s1, s1, &ls);
	}
	if (isfinite(copy) && c->one[CAL_COPY_SAME].n > 0 && v[CAL_COPY_SAME].n > 0)
		cal_set(c, "api.copy_queues_ns", cq);
	if (isfinite(sw) && c->one[CAL_COPY_SWITCH].n > 0 && v[CAL_COPY_SWITCH].n > 0)
		cal_set(c, "api.switch_queues_ns", sq);
	if (isfinite(sw))
		cal_set(c, "api.switch_ns", sw);
	if (isfinite(launch) && v[CAL_LAUNCH_WAIT].n > 0)
		cal_set(c, "api.launch_wait_ns", fmax(0.0, cal_median(&v[CAL_LAUNCH_WAIT]) - launch));
	if (isfinite(launch) && v[CAL_LAUNCH_PREFETCH].n > 0)
		cal_set(c, "api.launch_prefetch_wait_ns", fmax(0.0, cal_median(&v[CAL_LAUNCH_PREFETCH]) - launch));
	if (isfinite(copy))
		cal_set(c, "api.copy_ns", fmax(0.0, copy - c->trace));
	if (isfinite(launch))
		cal_set(c, "api.launch_ns", fmax(0.0, launch - c->trace));
	/* cal_events' event records each go to another stream (and queue) than the call before */
	if (c->event_raw)
		cal_set(c, "api.event_ns",
		        fmax(0.0, c->out->api_event_ns - c->trace - (isfinite(sw) ? sw + c->event_f * sq : 0)));
	if (c->sync_raw)
		cal_set(c, "api.sync_ns", fmax(0.0, c->out->api_sync_ns - c->trace));
	c->event_raw = c->sync_raw = false;
	if (v[CAL_PREFETCH_SAME].n > 0) {
		double same = cal_median(&v[CAL_PREFETCH_SAME]);

		cal_set(c, "api.prefetch_ns", fmax(0.0, same - c->trace));
		if (v[CAL_PREFETCH_SWITCH].n > 0)
			cal_set(c, "api.prefetch_switch_ns",
			        fmax(0.0, cal_median(&v[CAL_PREFETCH_SWITCH]) - same - (isfinite(sw) ? sw : 0)));
	}
	cal_calls_free(c);
}

int calibrate_run(const struct ss_backend *gpu, struct ss_profile *out, void (*progress)(const char *msg), char **cause)
{
	static const uint32_t add_works[] = {25, 50, 100, 200, 400};
	static const uint32_t decrypt_works[] = {64, 128, 256};
	static const uint32_t spin_works[] = {20000, 50000, 100000};
	struct cal c = {.gpu = gpu, .progress = progress, .out = out, .wake_raw = NAN, .steps = CAL_STEPS};

	profile_builtin(out);
	out->device[0] = '\0';
	snprintf(out->source, sizeof out->source, "streamscope calibrate (%s backend)", gpu->name);
	if (cal_copies(&c, cause) != 0 || cal_touch(&c, cause) != 0 ||
	    cal_kernel(&c, SS_PRESET_KERNEL_TRANSFER, 1u << 22, add_works, 5, 1u << 12, 400, cause) != 0 ||
	    cal_kernel(&c, SS_PRESET_DECRYPT, 1u << 20, decrypt_works, 3, 1u << 10, 256, cause) != 0 ||
	    cal_misalign(&c, SS_PRESET_KERNEL_TRANSFER, 1u << 21, 400, cause) != 0 ||
	    cal_misalign(&c, SS_PRESET_DECRYPT, 1u << 19, 256, cause) != 0 ||
	    cal_kernel(&c, SS_PRESET_HYPERQ, 1, spin_works, 3, 0, 0, cause) != 0 || cal_pageable(&c, cause) != 0 ||
	    cal_copy_slow(&c, cause) != 0 || cal_both(&c, cause) != 0 || cal_events(&c, cause) != 0 ||
	    cal_capacity(&c, cause) != 0 || cal_queues(&c, cause) != 0 || cal_trace(&c, cause) != 0 ||
	    cal_managed(&c, cause) != 0 || cal_copy_queues(&c, cause) != 0 || cal_copy_gap(&c, cause) != 0 ||
	    cal_workload_solve(&c, SS_PRESET_PAGEABLE, "pageable.h2d.stage_gbs", 0.5, 500, cause) != 0 ||
	    cal_workload_solve(&c, SS_PRESET_MANAGED, "managed.fault_gbs", 0.1, 1000, cause) != 0)
		goto fail;
	if (c.memory_bytes > 0)
		cal_set(&c, "device.memory_mib", (double)(c.memory_bytes >> 20));
	cal_name(out);
	cal_calls_free(&c); /* runs after cal_calls (cal_copy_queues) still add samples */
	return profile_validate(out, cause);
fail:
	cal_calls_free(&c);
	return -1;
}

/* cal_probe_work: the probe's kernel work, the preset's unless the diagnostic SS_PROBE_WORK (1..10^7 spin
 * iterations) says otherwise (tests/gpu/host_probe.sh compares the two in one process). */
static uint32_t cal_probe_work(uint32_t preset)
{
	const char *v = getenv("SS_PROBE_WORK");
	char *end;
	unsigned long w;

	if (v == NULL)
		return preset;
	w = strtoul(v, &end, 10);
	return *v != '\0' && *end == '\0' && w >= 1 && w <= 10000000ul ? (uint32_t)w : preset;
}

/* The host's call costs alone (see calibrate.h): cal_trace's runs, two of launches and one of events, traced, whose
 * call records are sorted and reduced exactly as in calibrate_run (cal_call_samples, cal_calls), each less CUPTI's
 * cost per traced call as cal_trace measured it. */
int calibrate_host(const struct ss_backend *gpu, struct ss_profile *out, void (*progress)(const char *msg),
                   char **cause)
{
	struct cal c = {
	    .gpu = gpu, .progress = progress, .out = out, .wake_raw = NAN, .steps = 3 + 2 * CAL_TRACE_PAIRS};
	struct cal_vec hgap = {0};
	int rc = -1;

	/* 128 streams of small depth-first chunks, on 8 queues and on one: the tracing cost, copies on their own and
	 * on another stream, launches behind a copy */
	if (cal_trace(&c, cause) != 0)
		goto out;
	/* hyperq's two spin kernels per stream: launches on the same stream (depth-first) and on another one
	 * (breadth-first), with nothing to wait for. The preset's own kernels (~0.1 ms), as in the experiments (the
	 * 2 us kernels this probe used first measured the same: tests/data/h200/host-probe). */
	for (int o = SS_ORDER_DEPTH; o <= SS_ORDER_BREADTH; o++) {
		struct ss_experiment e;
		struct cal_run r;

		experiment_preset(&e, SS_PRESET_HYPERQ);
		e.order = o;
		e.work = cal_probe_work(e.work);
		e.connections = 8;
		e.sync = SS_SYNC_DEVICE;
		if (cal_measure(&c, &r, &e, o == SS_ORDER_DEPTH ? "launches on one stream" : "launches across streams",
		                cause) != 0)
			goto out;
		cal_host_gaps(&r, &hgap);
		cal_run_free(&r);
	}
	if (cal_events(&c, cause) != 0)
		goto out;
	cal_calls(&c);
	cal_set(&c, "host.gap_ns", cal_median(&hgap));
	rc = profile_validate(out, cause);
out:
	cal_vec_free(&hgap);
	cal_calls_free(&c);
	return rc;
}

/* One run's call costs (see calibrate.h): its records matched to its op list and reduced by cal_calls, less
 * trace_ns per call; the event and sync costs, which need runs of their own, are not measured here. */
bool calibrate_calls_usable(const struct ss_experiment *e)
{
	return e->defstream != SS_DS_LEGACY_OP && e->defstream != SS_DS_EVENT_TIMER &&
	       e->hostmem < SS_MEM_MANAGED_ATTACH;
}

int calibrate_calls(const struct ss_experiment *e, const struct ss_timeline *tl, double trace_ns,
                    struct ss_profile *out)
{
	struct cal c = {.out = out, .wake_raw = NAN, .trace = trace_ns};
	struct cal_run r;
	struct cal_vec hgap = {0};
	int measured = 0;

	if (!calibrate_calls_usable(e))
		return -1;
	memset(&r, 0, sizeof r);
	r.e = *e;
	r.tl = *tl; /* borrowed: only r.ops and r.op are freed here */
	planner_build(e, &r.ops);
	cal_match(&r);
	cal_call_samples(&r, &c);
	cal_host_gaps(&r, &hgap);
	for (int k = 0; k < CAL_CALLS; k++)
		measured += c.call[k].n > 0 || c.one[k].n > 0;
	cal_calls(&c);
	if (hgap.n > 0)
		cal_set(&c, "host.gap_ns", cal_median(&hgap));
	cal_vec_free(&hgap);
	planner_free(&r.ops);
	free(r.op);
	return measured > 0 ? 0 : -1;
}
