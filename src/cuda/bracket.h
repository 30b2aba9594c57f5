/* bracket.h: timeline records for operations CUPTI does not record (cudaMemPrefetchAsync: no memcpy record, and on
 * driver 580 no unified-memory record either), timed with two cudaEvents recorded on the op's stream right before
 * and right after it; where the stream was idle at the call, with the call's start and the event after it.
 * Pure: no CUDA calls, so CI tests it.
 *
 * Event times are only relative to one another (cudaEventElapsedTime, ms from the run's reference event), so they
 * are placed on CUPTI's clock by one offset. The kernels of the same streams bound it: a kernel starts no earlier
 * than any event recorded before it on its stream and ends no later than any event recorded after it, so each
 * kernel between two bracketing events bounds the offset from both sides. Where CUPTI gives its own timestamps of
 * the events (CUDA_EVENT records), each of them measures the offset: the median of those, inside the bounds, is
 * taken; without them the middle of the bounds. */
#ifndef SS_CUDA_BRACKET_H
#define SS_CUDA_BRACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/planner.h"
#include "cuda/cupti_capture.h"

/* One bracketed op of the last traced run: the times of its events, ms after the run's reference event. */
struct bracket_time {
	size_t op;        /* index into the op list */
	double before_ms; /* event recorded on the op's stream just before it (not when idle) */
	double after_ms;  /* event recorded just after it */
	bool idle;        /* the stream had nothing left to do at the call, so no event went before the op (one there
	                     would hold back a migration the driver starts during the call): the op starts with its
	                     call, whose API record gives the time */
	uint64_t before_ns, after_ns; /* the same events' GPU times from CUPTI (CUDA_EVENT device timestamps), in
	                                 CUPTI's clock; 0 when not known */
};

/* How the placement went. */
struct bracket_result {
	size_t added;     /* records made */
	size_t anchors;   /* kernels that bounded the offset */
	size_t matched;   /* records that got the correlation id of their API call */
	bool placed;      /* false: no kernel next to a bracketing event, nothing added */
	double width_ns;  /* upper bound minus lower bound of the offset; < 0: the bounds disagree by that much */
	size_t from_call; /* records of idle ops, started at their call */
	size_t no_start;  /* idle ops whose call was not found: their records start where they end */
	size_t samples;   /* events whose CUPTI timestamp measured the offset (0: the kernels' bounds alone) */
	double shift_ns;  /* the offset taken less the middle of the kernels' bounds */
	bool clamped;     /* the timestamps' median fell outside the kernels' bounds: the nearest bound taken */
	double spread_lo_ns, spread_hi_ns; /* the offsets single timestamps imply, least and most, less the one taken */
};

/* bracket_wanted: is op kind k timed with a bracket (only in traced runs)? */
bool bracket_wanted(int kind);
/* bracket_records makes one record per bracket_time (kind H2D for prefetches to the device, D2H to the host,
 * flags SS_REC_MANAGED | SS_REC_ASYNC | SS_REC_EVENT_TIMED, bytes from the op list, times in CUPTI's clock: the
 * event times moved by one offset, the median of what CUPTI's own timestamps of the events imply, kept inside the
 * kernels' bounds; without those timestamps the middle of the bounds) into
 * *out (*nout of them, caller frees with bracket_free). in holds the run's converted records: its kernels place the
 * events; its API records named after the call ("cudaMemPrefetchAsync") lend their correlation ids (and, to idle
 * ops, their start), matched per issuing thread in issue order (thread_index maps an API record's OS thread to
 * the op list's thread, -1 if none).
 * raw_ids[s] is stream s's CUPTI id (nids of them). Returns 0 (also when nothing could be placed: see res), -1
 * with *cause when the brackets do not fit the op list. */
int bracket_records(const struct ss_oplist *ops, const struct bracket_time *bt, size_t nbt,
                    const struct cupti_capture_rec *in, size_t nin, int (*thread_index)(void *arg, uint32_t os_thread),
                    void *arg, const uint32_t *raw_ids, int nids, struct cupti_capture_rec **out, size_t *nout,
                    struct bracket_result *res, char **cause);
/* bracket_free frees what bracket_records made. */
void bracket_free(struct cupti_capture_rec *rec, size_t n);

#endif
