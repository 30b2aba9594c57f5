/* insight_multi.h: the insight rules of timelines of two or more devices: peer-copy-critical (peer copies with no
 * other GPU work beside them), device-idle (a device idle while another works), host-link-contention (two devices'
 * host copies at once). Pure; insight_analyze's rules and these append to one struct ss_insights. */
#ifndef SS_CORE_INSIGHT_MULTI_H
#define SS_CORE_INSIGHT_MULTI_H

#include "core/insight.h"

/* insight_multi_analyze appends the multi-device insights of t (sorted) and its analysis a to out (in rule order;
 * the caller orders out by severity); nothing on a timeline of one device. */
void insight_multi_analyze(const struct ss_timeline *t, const struct ss_analysis *a, struct ss_insights *out);

#endif
