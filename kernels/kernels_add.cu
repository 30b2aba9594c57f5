/* kernels_add.cu: z = x + y with a tunable amount of arithmetic per element (the kernel-transfer preset). */
#include <cuda_runtime.h>

#include "kernels.h"

/* Each repeat of the inner statement is KERNELS_ADD_OPS_PER_WORK dependent FMAs v = v * 0 + s. Without fast-math
 * the compiler cannot fold v * 0 (v could be inf or NaN), so the chain stays; for finite s it ends exactly at s. */
extern "C" __global__ void ss_add(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ z,
                                  uint64_t n, uint32_t work)
{
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	float s = x[i] + y[i];
	float v = s;
	for (uint32_t k = 0; k < work; k++) {
#pragma unroll
		for (int j = 0; j < KERNELS_ADD_OPS_PER_WORK; j++)
			v = fmaf(v, 0.0f, s);
	}
	z[i] = v;
}

extern "C" int kernels_add_launch(const float *x, const float *y, float *z, uint64_t n, uint32_t work, void *stream)
{
	const unsigned threads = 256;
	uint64_t blocks = (n + threads - 1) / threads;

	if (blocks == 0)
		blocks = 1;
	if (blocks > 0x7fffffffu)
		return (int)cudaErrorInvalidConfiguration;
	void *args[] = {(void *)&x, (void *)&y, (void *)&z, (void *)&n, (void *)&work};
	return (int)cudaLaunchKernel((const void *)ss_add, dim3((unsigned)blocks), dim3(threads), args, 0,
	                             (cudaStream_t)stream);
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
