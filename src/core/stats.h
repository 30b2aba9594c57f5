/* stats.h: order statistics of samples (medians and quartiles), shared by calibration, validation and the CUDA
 * backend's repeats. */
#ifndef SS_CORE_STATS_H
#define SS_CORE_STATS_H

#include <stddef.h>

/* stats_sort sorts v[0..n) ascending. */
void stats_sort(double *v, size_t n);
/* stats_median sorts v[0..n) and returns its median (the mean of the middle two for an even n); NAN when n is 0. */
double stats_median(double *v, size_t n);
/* stats_rank returns the q-quantile (0 <= q <= 1) of sorted[0..n) as the sample nearest to it:
 * sorted[round(q * (n - 1))]; NAN when n is 0. */
double stats_rank(const double *sorted, size_t n, double q);

#endif
