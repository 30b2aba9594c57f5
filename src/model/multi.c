/* multi.c: the model of experiments over several GPUs (--devices N, multi.h).
 *
 * Each device has its own engines: one H2D and one D2H copy engine, the compute engine (its kernels one after
 * another, in issue order) and a peer-copy engine for the copies it sends (--peer). Every device's H2D copies share
 * the host link's one direction (multi.host_link_gbs), its D2H copies the other: a copy moves at the lesser of its
 * engine's bandwidth and the link's divided among the copies of that direction running at once, all devices
 * together. A peer copy takes multi.peer_latency_ns + bytes / multi.peer_gbs. A kernel takes what the one-device
 * model gives the same launch alone on one stream (model_timeline of that one chunk, off a line where the launch's
 * data are), so that the kernel profile applies unchanged. The one host thread issues every op in order, each call
 * costing its profile time; an op starts once its call returned (gpu.launch_ns later), its engine is free, the previous
 * op of its stream and of its chunk are done (gpu.dep_* later when on another engine), in issue order per engine. Then
 * one cudaDeviceSynchronize per device. Times are doubles in ns, rounded once when a record is written. The multi.*
 * keys are estimates: no two-GPU machine was available to measure them (model/profile.c). */
#include "model/multi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/planner.h"
#include "core/vec.h"
#include "core/xalloc.h"

/* The engines of one device. */
enum { MULTI_H2D = 0, MULTI_D2H, MULTI_COMPUTE, MULTI_PEER, MULTI_NENG };

/* One GPU op as the model runs it. */
struct multi_item {
	const struct ss_op *op;
	int device, far; /* its device; a peer copy's destination */
	int engine;      /* device * MULTI_NENG + enum above */
	int prev_stream; /* previous item of its stream, -1 */
	int prev_chunk;  /* previous item of its chunk, -1 */
	double visible;  /* its call returned and the GPU saw it */
	double fixed;    /* left of its fixed part (copy latency, kernel or peer copy time) */
	double bytes;    /* copies: left to move over the link */
	double bw;       /* copies: its engine's bandwidth alone (bytes / ns) */
	double start, end;
	int state; /* 0 queued, 1 running, 2 done */
};

/* A model run. */
struct multi {
	const struct ss_experiment *e;
	const struct ss_profile *p;
	struct multi_item *it;
	size_t n;
	int neng;
	size_t *head; /* per engine: index into its queue of the next item to start */
	int **queue;  /* per engine: its items in issue order */
	size_t *nqueue, *capq;
	int *running; /* per engine: the item it runs, -1 */
	double now;
	struct ss_record *rec; /* records to deliver */
	char (*name)[48];
	size_t nrec, reccap, namecap;
};

/* The kernel times a run has asked the one-device model for, by element count and whether the launch's data start
 * off a line (chunks have one or two sizes). */
struct multi_kcache {
	uint64_t count[8];
	bool off[8];
	double ns[8];
	int n;
};

/* multi_kernel_ns is what the one-device model gives a kernel op alone on one stream (kept in kc by count), its
 * data off a line where the op's are (planner_op_line_offset: the kernel's repeats times its misalign, as the
 * one-device model costs them). */
static int multi_kernel_ns(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_profile *p,
                           const struct ss_op *op, struct multi_kcache *kc, multi_one_fn *one_model, double *ns,
                           char **cause)
{
	struct ss_experiment one = *e;
	struct ss_profile q = *p;
	struct ss_timeline tl;
	bool off = planner_op_line_offset(e, ops, op) != 0;
	int rc;

	if (op->count == 0) { /* an empty tail chunk (--split ceil): its launch does nothing */
		*ns = 0;
		return 0;
	}
	for (int i = 0; i < kc->n; i++)
		if (kc->count[i] == op->count && kc->off[i] == off) {
			*ns = kc->ns[i];
			return 0;
		}
	if (off && op->kernel < SS_KERNEL_COUNT && q.kernel[op->kernel].misalign > 1) {
		/* the one chunk of the one-stream run starts on a line: its repeats cost what off a line costs */
		q.kernel[op->kernel].ns_per_unit *= q.kernel[op->kernel].misalign;
		q.kernel[op->kernel].misalign = 1;
	}
	one.devices = 1;
	one.peer = false;
	one.streams = 1;
	one.chunks = 1;
	one.elements = op->count;
	one.sync = SS_SYNC_STREAM;
	one.repeat = 1;
	one.warmup = 0;
	timeline_init(&tl);
	rc = one_model(&one, &q, &tl, NULL, cause);
	*ns = 0;
	for (size_t i = 0; rc == 0 && i < tl.n; i++)
		if (tl.rec[i].kind == SS_KIND_KERNEL)
			*ns += (double)(tl.rec[i].end - tl.rec[i].start);
	timeline_free(&tl);
	if (rc != 0)
		return -1;
	if (kc->n < 8) {
		kc->count[kc->n] = op->count;
		kc->off[kc->n] = off;
		kc->ns[kc->n++] = *ns;
	}
	return 0;
}

/* multi_emit queues one record (times rounded to ns). */
static void multi_emit(struct multi *m, int kind, double start, double end, const struct multi_item *it,
                       uint32_t thread, const char *name)
{
	struct ss_record *r = VEC_PUSH(m->rec, m->nrec, m->reccap, 256);

	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	r->start = (uint64_t)llround(start);
	r->end = (uint64_t)llround(end);
	if (r->end < r->start)
		r->end = r->start;
	r->flags = SS_REC_MODELLED;
	r->thread = thread;
	r->stream = SS_STREAM_HOST;
	if (it != NULL) {
		r->correlation = it->op->id;
		r->stream = it->op->stream;
		r->raw_stream = (uint32_t)it->op->stream + 1;
		r->device = (uint8_t)it->device;
		r->bytes = planner_op_bytes(&(struct ss_oplist){.elem_size = m->e->elem_size}, it->op);
		if (kind == SS_KIND_H2D || kind == SS_KIND_D2H)
			r->flags |= SS_REC_PINNED | SS_REC_ASYNC;
		if (it->op->kind == SS_OP_PEER) {
			r->flags |= SS_REC_PEER | SS_REC_ASYNC;
			r->peer = (uint8_t)it->far;
		}
	}
	if (m->nrec > m->namecap) {
		m->namecap = m->reccap;
		m->name = xreallocarray(m->name, m->namecap, sizeof *m->name);
	}
	snprintf(m->name[m->nrec - 1], sizeof m->name[0], "%s", name);
}

/* multi_ready is when item i may start as far as its dependencies go (INFINITY while one is not done). */
static double multi_ready(const struct multi *m, int i)
{
	const struct multi_item *it = &m->it[i];
	double t = it->visible;
	int deps[2] = {it->prev_stream, it->prev_chunk};

	for (int k = 0; k < 2; k++) {
		const struct multi_item *d;
		double lat;

		if (deps[k] < 0)
			continue;
		d = &m->it[deps[k]];
		if (d->state != 2)
			return INFINITY;
		lat = d->engine == it->engine                    ? 0
		      : it->engine % MULTI_NENG == MULTI_COMPUTE ? m->p->dep_kernel_ns
		                                                 : m->p->dep_copy_ns;
		if (d->end + lat > t)
			t = d->end + lat;
	}
	return t;
}

/* multi_rate is copy item i's rate now: its engine's, or its share of the host link's direction. */
static double multi_rate(const struct multi *m, int i)
{
	int dir = m->it[i].engine % MULTI_NENG, n = 0;

	for (int e = dir; e < m->neng; e += MULTI_NENG)
		if (m->running[e] >= 0 && m->it[m->running[e]].fixed <= 0)
			n++;
	return fmin(m->it[i].bw, m->p->host_link_gbs / (n > 0 ? n : 1));
}

/* multi_step starts what can start now, then advances to the next start or finish. False when all is done, or
 * (with *stuck) when what is left can never start. */
static bool multi_step(struct multi *m, bool *stuck)
{
	double next = INFINITY;
	bool any = false;

	for (int e = 0; e < m->neng; e++) {
		if (m->running[e] < 0 && m->head[e] < m->nqueue[e]) {
			int i = m->queue[e][m->head[e]];
			double r = multi_ready(m, i);

			if (r <= m->now) {
				m->running[e] = i;
				m->head[e]++;
				m->it[i].state = 1;
				m->it[i].start = m->now;
			} else if (r < next) {
				next = r;
			}
		}
	}
	for (int e = 0; e < m->neng; e++) {
		int i = m->running[e];
		const struct multi_item *it;
		double left;

		if (i < 0)
			continue;
		any = true;
		it = &m->it[i];
		left = it->fixed > 0 ? it->fixed : it->bytes / multi_rate(m, i);
		if (m->now + left < next)
			next = m->now + left;
	}
	if (!any && next == INFINITY) {
		for (int e = 0; e < m->neng; e++)
			if (m->head[e] < m->nqueue[e]) {
				*stuck = true;
				return false;
			}
		return false;
	}
	{
		double dt, rate[MULTI_NENG * SS_MAX_DEVICES];

		/* what is left of an item can be below the clock's resolution at now (a few bytes at half a second):
		 * step at least to the next representable time, and end every phase that has no more left than dt */
		if (next <= m->now)
			next = nextafter(m->now, INFINITY);
		dt = next - m->now;

		for (int e = 0; e < m->neng; e++)
			rate[e] =
			    m->running[e] >= 0 && m->it[m->running[e]].fixed <= 0 ? multi_rate(m, m->running[e]) : 0;
		for (int e = 0; e < m->neng; e++) {
			int i = m->running[e];
			struct multi_item *it;

			if (i < 0)
				continue;
			it = &m->it[i];
			if (it->fixed > 0) { /* its fixed part (a copy's latency) first, then its bytes */
				it->fixed = it->fixed <= dt || it->fixed - dt < 1e-6 ? 0 : it->fixed - dt;
			} else {
				it->bytes = it->bytes / rate[e] <= dt ? 0 : it->bytes - rate[e] * dt;
			}
			if (it->fixed <= 0 && it->bytes <= 1e-6) {
				it->state = 2;
				it->end = next;
				m->running[e] = -1;
			}
		}
		m->now = next;
	}
	return true;
}

/* A record's place in delivery order. */
struct multi_order {
	uint64_t start;
	size_t i;
};

static int multi_order_cmp(const void *a, const void *b)
{
	const struct multi_order *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int multi_simulate(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_profile *p,
                   const struct ss_sink *sink, struct ss_run_result *res, multi_one_fn *one, char **cause)
{
	struct multi m = {.e = e, .p = p};
	struct multi_kcache kc = {.n = 0};
	int total = e->streams * e->devices, *last_stream, *last_chunk;
	double host = 0, end = 0;
	int rc = -1;

	memset(res, 0, sizeof *res);
	m.neng = e->devices * MULTI_NENG;
	m.it = xcalloc(ops->n + 1, sizeof *m.it);
	m.head = xcalloc((size_t)m.neng, sizeof *m.head);
	m.queue = xcalloc((size_t)m.neng, sizeof *m.queue);
	m.nqueue = xcalloc((size_t)m.neng, sizeof *m.nqueue);
	m.capq = xcalloc((size_t)m.neng, sizeof *m.capq);
	m.running = xcalloc((size_t)m.neng, sizeof *m.running);
	last_stream = xcalloc((size_t)total, sizeof *last_stream);
	last_chunk = xcalloc((size_t)ops->nchunks + 1, sizeof *last_chunk);
	for (int i = 0; i < m.neng; i++)
		m.running[i] = -1;
	for (int i = 0; i < total; i++)
		last_stream[i] = -1;
	for (int i = 0; i <= ops->nchunks; i++)
		last_chunk[i] = -1;
	/* the host issues every op in order */
	for (size_t k = 0; k < ops->n; k++) {
		const struct ss_op *op = &ops->op[k];
		struct multi_item *it;
		double cost;
		int kind;
		size_t bytes = (size_t)planner_op_bytes(ops, op);

		switch (op->kind) {
		case SS_OP_H2D:
			kind = MULTI_H2D;
			cost = p->api_copy_ns;
			break;
		case SS_OP_D2H:
			kind = MULTI_D2H;
			cost = p->api_copy_ns;
			break;
		case SS_OP_KERNEL:
			kind = MULTI_COMPUTE;
			cost = p->api_launch_ns;
			break;
		case SS_OP_PEER:
			kind = MULTI_PEER;
			cost = p->api_copy_ns;
			break;
		default:
			continue; /* events and syncs: the run ends with one synchronisation per device */
		}
		if (op->stream < 0 || op->stream >= total) {
			*cause = xasprintf("model: --devices runs only the experiment's own streams (op %u)", op->id);
			goto out;
		}
		it = &m.it[m.n];
		it->op = op;
		it->device = experiment_stream_device(e, op->stream);
		it->far = op->kind == SS_OP_PEER ? experiment_stream_device(e, op->event) : it->device;
		it->engine = it->device * MULTI_NENG + kind;
		it->prev_stream = last_stream[op->stream];
		it->prev_chunk = op->chunk >= 0 && op->chunk < ops->nchunks ? last_chunk[op->chunk] : -1;
		multi_emit(&m, SS_KIND_API, host, host + cost, NULL, 0,
		           op->kind == SS_OP_KERNEL ? "cudaLaunchKernel"
		           : op->kind == SS_OP_PEER ? "cudaMemcpyPeerAsync"
		                                    : "cudaMemcpyAsync");
		m.rec[m.nrec - 1].correlation = op->id;
		host += cost;
		it->visible = host + p->launch_ns;
		if (kind == MULTI_H2D || kind == MULTI_D2H) {
			const struct ss_copy_profile *c = kind == MULTI_H2D ? &p->h2d : &p->d2h;

			it->fixed = c->latency_ns;
			it->bytes = (double)bytes;
			it->bw = c->bw_gbs;
		} else if (kind == MULTI_PEER) {
			it->fixed = p->peer_latency_ns + (double)bytes / p->peer_gbs;
		} else if (multi_kernel_ns(e, ops, p, op, &kc, one, &it->fixed, cause) != 0) {
			goto out;
		}
		if (it->fixed <= 0 && it->bytes <= 0)
			it->fixed = 1e-3; /* an empty op still takes its turn */
		last_stream[op->stream] = (int)m.n;
		if (op->chunk >= 0 && op->chunk < ops->nchunks)
			last_chunk[op->chunk] = (int)m.n;
		*VEC_PUSH(m.queue[it->engine], m.nqueue[it->engine], m.capq[it->engine], 16) = (int)m.n;
		m.n++;
	}
	{
		bool stuck = false;

		while (multi_step(&m, &stuck))
			;
		if (stuck) {
			*cause =
			    xasprintf("model: --devices run stuck (an op waits for one never issued: internal error)");
			goto out;
		}
	}
	for (size_t i = 0; i < m.n; i++) {
		const struct multi_item *it = &m.it[i];
		int kind = it->op->kind == SS_OP_H2D    ? SS_KIND_H2D
		           : it->op->kind == SS_OP_D2H  ? SS_KIND_D2H
		           : it->op->kind == SS_OP_PEER ? SS_KIND_D2D
		                                        : SS_KIND_KERNEL;
		char name[48];

		if (kind == SS_KIND_D2D)
			snprintf(name, sizeof name, "Memcpy PtoP (GPU %d -> GPU %d)", it->device, it->far);
		else
			snprintf(name, sizeof name, "%s",
			         kind == SS_KIND_H2D   ? "Memcpy HtoD (Pinned -> Device)"
			         : kind == SS_KIND_D2H ? "Memcpy DtoH (Device -> Pinned)"
			                               : planner_kernel_symbol(it->op));
		multi_emit(&m, kind, it->start, it->end, it, 0, name);
		if (it->end > end)
			end = it->end;
	}
	/* the host waits for each device in turn */
	for (int d = 0; d < e->devices; d++) {
		double t = host;

		multi_emit(&m, SS_KIND_API, t, fmax(t, end) + p->sync_wake_ns, NULL, 0, "cudaDeviceSynchronize");
		multi_emit(&m, SS_KIND_SYNC, t, fmax(t, end), NULL, 0, "cudaDeviceSynchronize");
		host = fmax(t, end) + p->sync_wake_ns;
	}
	if (host > end)
		end = host;
	{
		struct multi_order *order = xcalloc(m.nrec + 1, sizeof *order);

		for (size_t i = 0; i < m.nrec; i++)
			order[i] = (struct multi_order){m.rec[i].start, i};
		qsort(order, m.nrec, sizeof *order, multi_order_cmp); /* delivered by start, ties in emission order */
		if (sink != NULL && sink->stream != NULL)
			for (int s = 0; s < total; s++)
				sink->stream(sink->ctx, s, (uint32_t)s + 1,
				             e->nonblocking ? SS_SKIND_NONBLOCKING : SS_SKIND_BLOCKING);
		for (size_t i = 0; sink != NULL && sink->record != NULL && i < m.nrec; i++)
			sink->record(sink->ctx, &m.rec[order[i].i], m.name[order[i].i]);
		free(order);
	}
	res->modelled = true;
	snprintf(res->device, sizeof res->device, "MODEL (%s profile, %d GPUs)", p->name, e->devices);
	res->memory_bytes = (uint64_t)p->memory_mib << 20;
	res->traced_ns = (uint64_t)llround(end);
	res->events_ns_of_captured = res->traced_ns;
	res->prefetch_records = true;
	res->repeats = 1;
	rc = 0;
out:
	for (int i = 0; i < m.neng; i++)
		free(m.queue[i]);
	free(m.queue);
	free(m.head);
	free(m.nqueue);
	free(m.capq);
	free(m.running);
	free(m.it);
	free(m.rec);
	free(m.name);
	free(last_stream);
	free(last_chunk);
	return rc;
}
