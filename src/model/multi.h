/* multi.h: the model of an experiment over several GPUs (--devices N, --peer): a set of engines per device, the
 * host link their copies share and the peer link, its multi.* profile keys estimates (no two-GPU machine was there
 * to measure them). Every record flagged SS_REC_MODELLED and carrying its device. */
#ifndef SS_MODEL_MULTI_H
#define SS_MODEL_MULTI_H

#include "core/backend.h"
#include "core/planner.h"
#include "core/timeline.h"
#include "model/profile.h"

/* The one-device model the kernels' times come from: model_timeline (model.h), passed in by model.c. */
typedef int multi_one_fn(const struct ss_experiment *e, const struct ss_profile *p, struct ss_timeline *tl,
                         struct ss_run_result *res, char **cause);

/* multi_simulate models e (devices > 1, validated; ops = planner_build(e)) on p, its kernels timed by one, and
 * delivers its records to sink,
 * ordered by start, times from the first host call; fills res as model_simulate does (device "MODEL (<name>
 * profile, N GPUs)"). 0, or -1 with *cause. */
int multi_simulate(const struct ss_experiment *e, const struct ss_oplist *ops, const struct ss_profile *p,
                   const struct ss_sink *sink, struct ss_run_result *res, multi_one_fn *one, char **cause);

#endif
