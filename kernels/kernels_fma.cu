/* kernels_fma.cu: z = x + y at the end of a tunable chain of FMAs per element (--kernel fma: compute-bound). */
#include <cuda_runtime.h>

#include "kernels.h"

/* Each repeat of the inner statement is KERNELS_FMA_OPS_PER_WORK dependent FMAs v = v * 0 + s. Without fast-math
 * the compiler cannot fold v * 0 (v could be inf or NaN), so the chain stays; for finite s it ends exactly at s. */
extern "C" __global__ void ss_fma(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ z,
                                  uint64_t n, uint32_t work)
{
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	float s = x[i] + y[i];
	float v = s;
	for (uint32_t k = 0; k < work; k++) {
#pragma unroll
		for (int j = 0; j < KERNELS_FMA_OPS_PER_WORK; j++)
			v = fmaf(v, 0.0f, s);
	}
	z[i] = v;
}

extern "C" int kernels_fma_launch(const float *x, const float *y, float *z, uint64_t n, uint32_t work, uint32_t grid,
                                  uint32_t block, void *stream)
{
	if (grid == 0 || block == 0 || grid > 0x7fffffffu || (uint64_t)grid * block < n)
		return (int)cudaErrorInvalidConfiguration;
	void *args[] = {(void *)&x, (void *)&y, (void *)&z, (void *)&n, (void *)&work};
	return (int)cudaLaunchKernel((const void *)ss_fma, dim3(grid), dim3(block), args, 0, (cudaStream_t)stream);
}
