/* devsum.c: per-device busy times, bytes and the times devices waited on or shared with each other (devsum.h). */
#include "core/devsum.h"

#include <stdlib.h>
#include <string.h>

#include "core/vec.h"
#include "core/xalloc.h"

/* One edge of an interval of one device and category: +1 at a start, -1 at an end. */
struct devsum_edge {
	uint64_t t;
	int32_t delta;
	int32_t device;
};

/* The categories a record's intervals are counted in. */
enum { DEVSUM_BUSY = 0, DEVSUM_COMPUTE, DEVSUM_H2D, DEVSUM_D2H, DEVSUM_PEER, DEVSUM_LINK, DEVSUM_EXPOSED, DEVSUM_NCAT };
/* DEVSUM_EXPOSED's two "devices": the peer copies (0) and all other GPU work (1). */

static int devsum_edge_cmp(const void *a, const void *b)
{
	const struct devsum_edge *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return (x->delta > y->delta) -
	       (x->delta < y->delta); /* ends before starts: touching intervals do not overlap */
}

/* An edge list per category. */
struct devsum_edges {
	struct devsum_edge *e;
	size_t n, cap;
};

static void devsum_add(struct devsum_edges *c, int device, uint64_t start, uint64_t end)
{
	if (end <= start)
		return;
	*VEC_PUSH(c->e, c->n, c->cap, 64) = (struct devsum_edge){start, 1, device};
	*VEC_PUSH(c->e, c->n, c->cap, 64) = (struct devsum_edge){end, -1, device};
}

/* devsum_sweep sorts c's edges and adds, per device, the time it was active to out[device] (when out is not NULL);
 * with idle/shared/all (when not NULL) the time each device was inactive while another was active, the time it
 * was active with another, the time two or more were, and the time every one of ndev was. */
static void devsum_sweep(struct devsum_edges *c, int ndev, uint64_t *out, uint64_t *idle, uint64_t *shared,
                         uint64_t *multi, uint64_t *all, uint64_t *any)
{
	int *depth = xcalloc((size_t)ndev, sizeof *depth), active = 0;
	uint64_t last = 0;

	if (c->n > 0) /* qsort wants an array even of none */
		qsort(c->e, c->n, sizeof *c->e, devsum_edge_cmp);
	for (size_t i = 0; i < c->n; i++) {
		const struct devsum_edge *e = &c->e[i];
		uint64_t dt = e->t - last;

		if (dt > 0 && active > 0) {
			for (int d = 0; d < ndev; d++) {
				if (depth[d] > 0 && out != NULL)
					out[d] += dt;
				if (depth[d] == 0 && idle != NULL)
					idle[d] += dt;
				if (depth[d] > 0 && active > 1 && shared != NULL)
					shared[d] += dt;
			}
			if (active > 1 && multi != NULL)
				*multi += dt;
			if (active == ndev && all != NULL)
				*all += dt;
			if (any != NULL)
				*any += dt;
		}
		last = e->t;
		if (e->delta > 0 && depth[e->device]++ == 0)
			active++;
		else if (e->delta < 0 && --depth[e->device] == 0)
			active--;
	}
	free(depth);
}

void devsum_build(const struct ss_timeline *t, struct ss_devsum *s)
{
	struct devsum_edges cat[DEVSUM_NCAT];
	uint64_t *acc[DEVSUM_NCAT];

	memset(s, 0, sizeof *s);
	memset(cat, 0, sizeof cat);
	s->ndev = timeline_ndevices(t);
	s->dev = xcalloc((size_t)s->ndev, sizeof *s->dev);
	for (int d = 0; d < s->ndev; d++) {
		s->dev[d].device = d;
		s->dev[d].t0 = UINT64_MAX;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct ss_record *r = &t->rec[i];
		struct ss_devsum_dev *d = &s->dev[r->device];
		bool peer = r->kind == SS_KIND_D2D && (r->flags & SS_REC_PEER);

		if (r->kind >= SS_KIND_COUNT || !(SS_GPU_KINDS & SS_KIND_BIT(r->kind)))
			continue;
		if (r->start < d->t0)
			d->t0 = r->start;
		if (r->end > d->t1)
			d->t1 = r->end;
		devsum_add(&cat[DEVSUM_BUSY], r->device, r->start, r->end);
		devsum_add(&cat[DEVSUM_EXPOSED], peer ? 0 : 1, r->start, r->end);
		switch (r->kind) {
		case SS_KIND_KERNEL:
		case SS_KIND_MEMSET:
			r->kind == SS_KIND_KERNEL ? d->kernels++ : d->memsets++;
			devsum_add(&cat[DEVSUM_COMPUTE], r->device, r->start, r->end);
			break;
		case SS_KIND_H2D:
		case SS_KIND_D2H:
			d->copies++;
			devsum_add(&cat[r->kind == SS_KIND_H2D ? DEVSUM_H2D : DEVSUM_D2H], r->device, r->start, r->end);
			devsum_add(&cat[DEVSUM_LINK], r->device, r->start, r->end);
			*(r->kind == SS_KIND_H2D ? &d->h2d_bytes : &d->d2h_bytes) += r->bytes;
			break;
		default:
			d->copies++;
			break;
		}
		if (peer) {
			struct ss_devsum_dev *far = &s->dev[r->peer];
			int src = record_peer_src(r);

			d->peers++;
			far->peers++;
			devsum_add(&cat[DEVSUM_PEER], r->device, r->start, r->end);
			devsum_add(&cat[DEVSUM_PEER], r->peer, r->start, r->end);
			devsum_add(&cat[DEVSUM_BUSY], r->peer, r->start, r->end);
			s->dev[src].peer_out_bytes += r->bytes;
			s->dev[record_peer_dst(r)].peer_in_bytes += r->bytes;
			if (r->start < far->t0)
				far->t0 = r->start;
			if (r->end > far->t1)
				far->t1 = r->end;
		}
	}
	for (int c = 0; c < DEVSUM_NCAT; c++)
		acc[c] = xcalloc((size_t)s->ndev, sizeof *acc[c]);
	{
		uint64_t *idle = xcalloc((size_t)s->ndev, sizeof *idle);

		devsum_sweep(&cat[DEVSUM_BUSY], s->ndev, acc[DEVSUM_BUSY], s->ndev > 1 ? idle : NULL, NULL, NULL,
		             s->ndev > 1 ? &s->all_busy_ns : NULL, &s->span_ns);
		for (int d = 0; d < s->ndev; d++)
			s->dev[d].idle_while_busy_ns = idle[d];
		free(idle);
	}
	for (int c = DEVSUM_COMPUTE; c < DEVSUM_LINK; c++)
		devsum_sweep(&cat[c], s->ndev, acc[c], NULL, NULL, NULL, NULL, NULL);
	{
		uint64_t *shared = xcalloc((size_t)s->ndev, sizeof *shared);

		devsum_sweep(&cat[DEVSUM_LINK], s->ndev, NULL, NULL, shared, &s->link_shared_ns, NULL, NULL);
		for (int d = 0; d < s->ndev; d++)
			s->dev[d].link_shared_ns = shared[d];
		free(shared);
	}
	{
		uint64_t idle[2] = {0, 0}, active[2] = {0, 0};

		devsum_sweep(&cat[DEVSUM_EXPOSED], 2, active, idle, NULL, NULL, NULL, NULL);
		s->peer_ns = active[0];
		s->peer_exposed_ns = idle[1];
	}
	for (int d = 0; d < s->ndev; d++) {
		s->dev[d].busy_ns = acc[DEVSUM_BUSY][d];
		s->dev[d].compute_ns = acc[DEVSUM_COMPUTE][d];
		s->dev[d].h2d_ns = acc[DEVSUM_H2D][d];
		s->dev[d].d2h_ns = acc[DEVSUM_D2H][d];
		s->dev[d].peer_ns = acc[DEVSUM_PEER][d];
	}
	for (int c = 0; c < DEVSUM_NCAT; c++) {
		free(acc[c]);
		free(cat[c].e);
	}
}

void devsum_free(struct ss_devsum *s)
{
	free(s->dev);
	memset(s, 0, sizeof *s);
}
