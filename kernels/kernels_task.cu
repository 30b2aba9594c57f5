/* kernels_task.cu: document 004's run_task kernels (transform and convert) and its host_process. */
#include <cuda_runtime.h>

#include "kernels.h"

/* transform: data[i] = 2 in[i] + 1, a grid-stride loop (document 004 launches <<<100, 256>>>). */
extern "C" __global__ void ss_transform(const int *in, int *data, int length)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < length; i += blockDim.x * gridDim.x)
		data[i] = 2 * in[i] + 1;
}

/* convert: out[i] = data[i] - 3. */
extern "C" __global__ void ss_convert(int *out, const int *data, int length)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < length; i += blockDim.x * gridDim.x)
		out[i] = data[i] - 3;
}

extern "C" int kernels_task_transform_launch(const int *in, int *data, uint64_t n, uint32_t grid, uint32_t block,
                                             void *stream)
{
	int length = (int)n;

	if (n > 0x7fffffffu || grid == 0 || block == 0 || grid > 0x7fffffffu)
		return (int)cudaErrorInvalidConfiguration;
	void *args[] = {(void *)&in, (void *)&data, (void *)&length};
	return (int)cudaLaunchKernel((const void *)ss_transform, dim3(grid), dim3(block), args, 0,
	                             (cudaStream_t)stream);
}

extern "C" int kernels_task_convert_launch(int *out, const int *data, uint64_t n, uint32_t grid, uint32_t block,
                                           void *stream)
{
	int length = (int)n;

	if (n > 0x7fffffffu || grid == 0 || block == 0 || grid > 0x7fffffffu)
		return (int)cudaErrorInvalidConfiguration;
	void *args[] = {(void *)&out, (void *)&data, (void *)&length};
	return (int)cudaLaunchKernel((const void *)ss_convert, dim3(grid), dim3(block), args, 0, (cudaStream_t)stream);
}

extern "C" void kernels_task_host(int *data, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		data[i] += 1;
}

extern "C" void kernels_task_fill(int *in, uint64_t first, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		in[i] = (int)((first + i) % 1000003u);
}

extern "C" int kernels_task_verify(const int *in, const int *out, uint64_t n, uint64_t *bad)
{
	/* out = (2 in + 1) + 1 - 3 after every iteration */
	for (uint64_t i = 0; i < n; i++) {
		if (out[i] != 2 * in[i] - 1) {
			*bad = i;
			return -1;
		}
	}
	return 0;
}
