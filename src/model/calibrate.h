/* calibrate.h: measures what the model needs on a backend (through runner_run) and fits a profile to it. */
#ifndef SS_MODEL_CALIBRATE_H
#define SS_MODEL_CALIBRATE_H

#include <stdbool.h>

#include "core/backend.h"
#include "core/timeline.h"
#include "model/profile.h"

/* calibrate_run runs the measurement experiments on gpu and fits out: pinned and pageable copy latency and
 * bandwidth (least squares over sizes), the combined bandwidth of both directions, each kernel's speed and
 * saturation, the kernel minimum, call costs, launch latency, sync wake-up, concurrent-kernel capacity, managed
 * prefetch and fault speeds. Values it measured are marked measured; the rest keep the built-in value and its
 * provenance. Works on any backend: on the model it must give back the model's own profile. progress (may be
 * NULL) gets one line per experiment. Returns 0, or -1 with *cause (a failed run, a fit without data). */
int calibrate_run(const struct ss_backend *gpu, struct ss_profile *out, void (*progress)(const char *msg),
                  char **cause);

/* calibrate_host measures only the host's side, the costs of the calls that issue work (api.copy_ns,
 * api.copy_queues_ns, api.launch_ns, api.switch_ns, api.switch_queues_ns, api.launch_wait_ns, api.event_ns,
 * api.trace_overhead_ns, host.gap_ns), with the
 * same runs and reductions as calibrate_run, and sets them in out, which keeps every other value. The host's speed
 * differs from one machine (or virtual machine) to the next while the GPU's does not; validate measures it before
 * its matrix so that the model's predictions there use this host's costs. Returns 0, or -1 with *cause. */
int calibrate_host(const struct ss_backend *gpu, struct ss_profile *out, void (*progress)(const char *msg),
                   char **cause);

/* calibrate_calls_usable: whether e's call records show call costs. Calls that wait (behind a legacy-stream op or
 * an event on stream 0, migrating managed memory) last their wait as well, which the model already has. */
bool calibrate_calls_usable(const struct ss_experiment *e);
/* calibrate_calls sets in out the call costs that one run of e shows (its timeline tl: the calls' records matched
 * to e's op list and reduced as calibrate_run reduces them, less trace_ns per call, CUPTI's cost per traced call:
 * the profile's api.trace_overhead_ns for a traced GPU run, 0 for a modelled one): those of
 * api.copy_ns, api.launch_ns, api.switch_ns, api.launch_wait_ns, api.launch_prefetch_wait_ns, api.prefetch_ns,
 * api.prefetch_switch_ns and host.gap_ns that its calls show; the others keep out's value. Copy and switch costs
 * are set as with one hardware queue: a run on several has out's api.copy_queues_ns and api.switch_queues_ns
 * (x 1 - 1/q) taken off. With them the model predicts the run as issued at this process's speed, which moves by
 * up to 2x within seconds.
 * Returns 0, or -1 when the timeline has no call records to reduce or e's calls wait (calibrate_calls_usable). */
int calibrate_calls(const struct ss_experiment *e, const struct ss_timeline *tl, double trace_ns,
                    struct ss_profile *out);

/* calibrate_solve_key sets key in p to the value within lo..hi that makes the model's makespan of e measured (ns),
 * as calibrate solves the keys it takes from untraced makespans (the secant method, to within 2 ns); p keeps the
 * value it reached whether or not it got there. Returns 0, or -1 with *cause (no such key, the model failed). */
int calibrate_solve_key(struct ss_profile *p, const struct ss_experiment *e, double measured, const char *key,
                        double lo, double hi, char **cause);

#endif
