/* probe.h: what the H200 diagnostic programs of tests/gpu (prefetch_probe, managed_probe) share. */
#ifndef SS_TESTS_GPU_PROBE_H
#define SS_TESTS_GPU_PROBE_H

#include <cuda_runtime_api.h>

/* probe_check exits 3 with the program's name, the call and CUDA's words when err is not success. */
void probe_check(cudaError_t err, const char *what);
/* probe_now_us is the host's monotonic clock in microseconds. */
double probe_now_us(void);
/* probe_median sorts v[0..n) (n >= 1) in place and returns its median: v[0] and v[n-1] are then its extremes. */
double probe_median(double *v, int n);

#endif
