/* devsum.h: a timeline's GPU work per device, for `stats`, the TUI's statistics and the multi-GPU insights: each
 * device's busy time by engine, the bytes it moved over the host link and to and from its peers, the time it sat
 * idle while another device worked, and the time its host-link copies shared the link with another device's.
 * Pure: no printing. Times are unions of intervals (overlaps count once), exact for records in any order. */
#ifndef SS_CORE_DEVSUM_H
#define SS_CORE_DEVSUM_H

#include <stddef.h>
#include <stdint.h>

#include "core/timeline.h"

/* One device's row. */
struct ss_devsum_dev {
	int device;
	size_t kernels, copies, memsets, peers; /* GPU records on it; peers: peer copies with it at either end */
	uint64_t busy_ns;                       /* any GPU record of its own, or a peer copy at its far end */
	uint64_t compute_ns;                    /* kernels and memsets */
	uint64_t h2d_ns, d2h_ns;                /* its host-link copies, by direction */
	uint64_t peer_ns;                       /* peer copies with it at either end */
	uint64_t h2d_bytes, d2h_bytes;
	uint64_t peer_out_bytes, peer_in_bytes; /* peer copies from it, to it */
	uint64_t idle_while_busy_ns;            /* in the work span: it was idle while another device was busy */
	uint64_t link_shared_ns; /* its H2D/D2H ran while another device's H2D/D2H did: they shared the host link */
	uint64_t t0, t1;         /* its first start and last end (t0 > t1: no work) */
};

/* The per-device summary of one timeline. */
struct ss_devsum {
	struct ss_devsum_dev *dev; /* [device] 0..ndev-1, devices without work included */
	int ndev;                  /* timeline_ndevices */
	uint64_t span_ns;          /* the union of every device's busy time */
	uint64_t link_shared_ns;   /* time two or more devices copied over the host link at once */
	uint64_t all_busy_ns;      /* time every device was busy (ndev > 1) */
	uint64_t peer_ns;          /* the union of the peer copies */
	uint64_t peer_exposed_ns;  /* time a peer copy ran while no other GPU work did, on any device */
};

/* devsum_build fills s from t's GPU records (any order; host records ignored); s is overwritten, release it with
 * devsum_free. A timeline of one device gives one row (its idle and shared times 0). */
void devsum_build(const struct ss_timeline *t, struct ss_devsum *s);
void devsum_free(struct ss_devsum *s);

#endif
