/* kernels_add.cu: document 001's add kernel (kernel-transfer.cu), z[n] = x[n] + y[n] stored `repeats` times. */
#include <cuda_runtime.h>

#include "kernels.h"

/* The document's kernel as it writes it: int indices, no __restrict__ (z may alias x or y, so every repeat loads x[n]
 * and y[n] and stores z[n] again), the loop bound a constant (400 there). Named ss_add as the other (a template
 * overload): a trace's short name is ss_add either way, as the model names it. */
template <int REPEATS> __global__ void ss_add(const float *x, const float *y, float *z, int N)
{
	const int n = blockDim.x * blockIdx.x + threadIdx.x;
	if (n < N) {
		for (int i = 0; i < REPEATS; ++i)
			z[n] = x[n] + y[n];
	}
}

/* The same with the repeat count an argument, for any other --work. */
__global__ void ss_add(const float *x, const float *y, float *z, int N, int repeats)
{
	const int n = blockDim.x * blockIdx.x + threadIdx.x;
	if (n < N) {
		for (int i = 0; i < repeats; ++i)
			z[n] = x[n] + y[n];
	}
}

extern "C" int kernels_add_launch(const float *x, const float *y, float *z, uint64_t n, uint32_t repeats, uint32_t grid,
                                  uint32_t block, void *stream)
{
	int N = (int)n, r = (int)repeats;

	if (n > 0x7fffffffu || repeats > 0x7fffffffu || grid == 0 || block == 0 || grid > 0x7fffffffu ||
	    (uint64_t)grid * block < n)
		return (int)cudaErrorInvalidConfiguration;
	if (repeats == KERNELS_ADD_DOC_REPEATS) {
		void *args[] = {(void *)&x, (void *)&y, (void *)&z, (void *)&N};
		return (int)cudaLaunchKernel((const void *)ss_add<KERNELS_ADD_DOC_REPEATS>, dim3(grid), dim3(block),
		                             args, 0, (cudaStream_t)stream);
	}
	void *args[] = {(void *)&x, (void *)&y, (void *)&z, (void *)&N, (void *)&r};
	void (*any)(const float *, const float *, float *, int, int) = ss_add; /* the overload with repeats */
	return (int)cudaLaunchKernel((const void *)any, dim3(grid), dim3(block), args, 0, (cudaStream_t)stream);
}

extern "C" void kernels_add_fill(float *x, float *y, uint64_t first, uint64_t n)
{
	/* Multiples of 1/8 below 2^12: every sum is exactly representable. */
	for (uint64_t i = 0; i < n; i++) {
		uint64_t g = first + i;
		x[i] = (float)(g % 4093u) * 0.125f + 1.0f;
		y[i] = (float)(g % 1021u) * 0.25f + 0.5f;
	}
}

extern "C" int kernels_add_verify(const float *x, const float *y, const float *z, uint64_t n, uint64_t *bad)
{
	for (uint64_t i = 0; i < n; i++) {
		if (z[i] != x[i] + y[i]) {
			*bad = i;
			return -1;
		}
	}
	return 0;
}
