/* cuda_backend.h: the CUDA+CUPTI backend (runs the op list on device 0 and captures it with CUPTI).
 *
 * What run delivers: every GPU record of the last traced repeat (H2D/D2H copies, kernels; one per op of the op
 * list, correlation = the runtime API record's), the runtime API calls and synchronisations of the experiment (host
 * records with thread = issuing-thread index; the backend's own timing calls are left out) and CUPTI overhead
 * intervals (SS_KIND_API, "CUPTI overhead: ..."), times in ns from a CUPTI timestamp taken just before the first
 * op. Environment: CUDA_DEVICE_MAX_CONNECTIONS must equal experiment.connections (set by the runner);
 * SS_CUPTI_MIGRATIONS=1 adds unified-memory migrations for managed experiments (H2D/D2H flagged SS_REC_MANAGED,
 * correlation 0, not one per op: leave them out of op-count checks). */
#ifndef SS_CUDA_CUDA_BACKEND_H
#define SS_CUDA_CUDA_BACKEND_H

#include "core/backend.h"

extern const struct ss_backend cuda_backend;

#endif
