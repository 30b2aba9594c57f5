/* stats.c: order statistics of samples (see stats.h). */
#include "core/stats.h"

#include <math.h>
#include <stdlib.h>

static int stats_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, stats_cmp);
}

double stats_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	stats_sort(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_rank(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return NAN;
	return sorted[(size_t)lround(q * (double)(n - 1))];
}
