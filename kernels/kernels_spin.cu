/* kernels_spin.cu: short single-block kernels (hyperq) and the small interfering default-stream kernel. */
#include <cuda_runtime.h>

#include "kernels.h"

#define SPIN_A 1664525u
#define SPIN_C 1013904223u

/* A dependent chain of 32-bit multiply-adds, one per iteration. a and c come as arguments: with constants the
 * compiler composes several steps into one (it did: four LCG steps per multiply-add). */
extern "C" __global__ void ss_spin(uint32_t *slot, uint64_t iterations, uint32_t a, uint32_t c)
{
	uint32_t x = *slot;

	for (uint64_t k = 0; k < iterations; k++)
		x = x * a + c;
	*slot = x;
}

extern "C" __global__ void ss_touch(uint32_t *slot, uint32_t value)
{
	*slot = value;
}

extern "C" int kernels_spin_launch(uint32_t *slot, uint64_t iterations, void *stream)
{
	uint32_t a = SPIN_A, c = SPIN_C;
	void *args[] = {(void *)&slot, (void *)&iterations, (void *)&a, (void *)&c};
	return (int)cudaLaunchKernel((const void *)ss_spin, dim3(1), dim3(1), args, 0, (cudaStream_t)stream);
}

extern "C" uint32_t kernels_spin_expect(uint32_t seed, uint64_t iterations)
{
	/* x -> a x + c composed with itself: (a, c) o (a, c) = (a a, a c + c). Accumulate the binary powers. */
	uint32_t a = SPIN_A, c = SPIN_C, ra = 1, rc = 0;

	for (uint64_t n = iterations; n > 0; n >>= 1) {
		if (n & 1) {
			rc = a * rc + c;
			ra = a * ra;
		}
		c = a * c + c;
		a = a * a;
	}
	return ra * seed + rc;
}

extern "C" int kernels_touch_launch(uint32_t *slot, uint32_t value, void *stream)
{
	void *args[] = {(void *)&slot, (void *)&value};
	return (int)cudaLaunchKernel((const void *)ss_touch, dim3(1), dim3(1), args, 0, (cudaStream_t)stream);
}
