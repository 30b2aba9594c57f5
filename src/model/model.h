/* model.h: the model backend: a deterministic discrete-event model of a GPU's engines that turns an op list into
 * the timeline records the CUDA backend would capture, every one flagged SS_REC_MODELLED. */
#ifndef SS_MODEL_MODEL_H
#define SS_MODEL_MODEL_H

#include "core/backend.h"
#include "core/timeline.h"
#include "model/profile.h"

/* The model backend: the calibrated model of the engines (model.c). */
extern const struct ss_backend model_backend;

/* model_set_profile makes model_backend use a copy of p from now on (also in runner children forked later);
 * NULL goes back to profile_default(). */
void model_set_profile(const struct ss_profile *p);
/* model_get_profile fills p with the profile model_backend uses (loading the default on first use). -1 with
 * *cause when the default profile file exists but does not parse. */
int model_get_profile(struct ss_profile *p, char **cause);

/* model_simulate models e (ops = planner_build(e)) on p and delivers every record to sink, ordered by start, with
 * times from the first host call (t = 0). Fills res (modelled, device "MODEL (<name> profile)", traced_ns = the
 * modelled makespan: first call to the last host or device activity). Returns 0, or -1 with *cause. */
int model_simulate(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_profile *p,
                   const struct ss_sink *sink, struct ss_run_result *res, char **cause);
/* model_timeline plans e and models it on p into tl (cleared; labels set: backend "model", modelled, device,
 * nstreams). res may be NULL. Returns 0, or -1 with *cause. */
int model_timeline(const struct ss_experiment *e, const struct ss_profile *p, struct ss_timeline *tl,
                   struct ss_run_result *res, char **cause);
/* model_device_name writes the device name model runs carry, "MODEL (<p's name> profile)", into buf. */
void model_device_name(const struct ss_profile *p, char *buf, size_t len);
/* model_is_device: whether device is such a name (a model run's, as opposed to a GPU's). */
bool model_is_device(const char *device);
/* model_makespan models e on p and returns the modelled makespan in ns (0 with *cause on failure). */
uint64_t model_makespan(const struct ss_experiment *e, const struct ss_profile *p, char **cause);

#endif
