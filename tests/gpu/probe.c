/* probe.c: the diagnostic programs' shared helpers (probe.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* program_invocation_short_name */
#endif
#include "probe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void probe_check(cudaError_t err, const char *what)
{
	if (err != cudaSuccess) {
		fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what, cudaGetErrorString(err));
		exit(3);
	}
}

double probe_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int probe_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double probe_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, probe_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
