/* cuda_exec.h: the CUDA side of one backend run: device, memory, streams, events and host threads set up once,
 * then the op list issued exactly, as often as asked, each run timed with cudaEvents and its results verified. */
#ifndef SS_CUDA_CUDA_EXEC_H
#define SS_CUDA_CUDA_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/backend.h"
#include "core/experiment.h"
#include "core/planner.h"
#include "cuda/bracket.h"
#include "cuda/cupti_convert.h"

struct cuda_exec;

/* cuda_exec_setup initialises CUDA on device 0 (CUPTI must already be set up), checks the experiment fits in
 * device memory, allocates and fills the arrays, creates streams and events, starts one host thread per issuing
 * thread when e->threads > 1, and learns the CUPTI ids of every stream. res gets the device's name and copy
 * engines. progress (may be NULL) hears about slow steps. Returns 0, or -1 with *cause (*xp is then NULL). */
int cuda_exec_setup(struct cuda_exec **xp, const struct ss_experiment *e, const struct ss_oplist *ops,
                    const struct ss_sink *progress, struct ss_run_result *res, char **cause);
/* cuda_exec_run issues the op list once: outputs are reset and every issuing thread primed first; with traced,
 * CUPTI's tracing kinds are on from before the priming (whose records start before t0) until the device is idle
 * again; without, they stay off. *t0 is CUPTI's timestamp taken just before the first op. *events_ns is the
 * cudaEvent makespan (events just after each thread's first GPU op and after the last ones, see cuda_exec.c). The
 * results are verified on the host; a wrong result is an error. Returns 0, or -1 with *cause. */
int cuda_exec_run(struct cuda_exec *x, bool traced, uint64_t *t0, uint64_t *events_ns, char **cause);
/* cuda_exec_brackets gives the event times of the ops CUPTI does not record (bracket.h) in the last traced run, ms
 * after its reference event, and the GPU times CUPTI gave the same events where ev (the run's batch events, nev
 * of them) has them, into *bt (*n of them, caller frees; none when the op list has no such op). Returns 0, or -1
 * with *cause. */
int cuda_exec_brackets(const struct cuda_exec *x, const struct cupti_capture_event *ev, size_t nev,
                       struct bracket_time **bt, size_t *n, char **cause);
/* cuda_exec_host_records makes a MARKER record named "host_process" (host lane, the issuing thread's OS id as its
 * thread, CUPTI's clock) for each host_process op of the last run, into *recs (*n of them; caller frees them and
 * their names). Returns 0. */
int cuda_exec_host_records(const struct cuda_exec *x, struct cupti_capture_rec **recs, size_t *n);
/* cuda_exec_bracket_tag: the capture tag (cupti_capture_tag_begin) of bracket k's event before (side 0) or after
 * (side 1) its op, under which a batch with CUPTI's event times holds that event's GPU time. */
uint64_t cuda_exec_bracket_tag(long k, int side);
/* cuda_exec_map fills map with the stream ids (experiment streams, per-thread default streams, the legacy stream
 * when known) and the API name hook. It points into x. */
void cuda_exec_map(const struct cuda_exec *x, struct cupti_convert_map *map);
/* cuda_exec_check_ids asks CUPTI again for the experiment streams' and the legacy stream's ids (after
 * cupti_capture_attach) and holds them to those of the set-up, which cuda_exec_map hands out. Returns 0, or -1 with
 * *cause naming the stream whose id changed or could not be had. */
int cuda_exec_check_ids(const struct cuda_exec *x, char **cause);
/* cuda_exec_set_null_stream records the legacy default stream's CUPTI id (from the CONTEXT record). */
void cuda_exec_set_null_stream(struct cuda_exec *x, uint32_t id);
/* cuda_exec_null_stream_query is the legacy stream's id as cuptiGetStreamIdEx gave it (false when it failed). */
bool cuda_exec_null_stream_query(const struct cuda_exec *x, uint32_t *id);
/* cuda_exec_per_thread_ids: how many issuing threads' per-thread default streams have a known CUPTI id. */
int cuda_exec_per_thread_ids(const struct cuda_exec *x);
/* cuda_exec_thread_index maps an OS thread id (CUPTI's threadId) to the issuing thread's index, -1 if none. */
int cuda_exec_thread_index(const struct cuda_exec *x, uint32_t os_thread);
/* cuda_exec_free stops the host threads and releases everything (NULL is fine). */
void cuda_exec_free(struct cuda_exec *x);

#endif
