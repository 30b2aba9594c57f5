/* gpu-idle.cu: pathology gpu-idle: 6 rounds of one full-GPU kernel (a sum of 4M generated elements, about 1 ms)
 * on one stream; after each the host synchronises, checks the result on the CPU and sleeps 4 ms ("preparing the
 * next input") before it launches the next, so the GPU idles most of the makespan in gaps of several ms. No copies
 * (partial sums go to mapped pinned memory). Expected: gpu-idle, its evidence the gaps between the kernels. */
#include <unistd.h>

#include "common.cuh"

const char *app_name = "gpu-idle";

#define ROUNDS 6

int main(void)
{
	size_t n = (size_t)4 << 20, bad = 0;
	int grid = app_grid();
	cudaStream_t s;
	uint32_t *part;
	double t0, ms;
	char extra[128];

	app_init();
	CHECK(cudaHostAlloc((void **)&part, (size_t)grid * sizeof(uint32_t), cudaHostAllocMapped));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	app_sum<<<grid, 256, 0, s>>>(NULL, 0, 256, 0u, part, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamSynchronize(s));
	t0 = app_now_ms();
	for (int r = 0; r < ROUNDS; r++) {
		uint32_t want;

		app_sum<<<grid, 256, 0, s>>>(NULL, (size_t)r * n, n, (uint32_t)r, part, 1000000ull);
		CHECK(cudaGetLastError());
		CHECK(cudaStreamSynchronize(s));
		want = app_sum_host(NULL, (size_t)r * n, n, (uint32_t)r);
		for (int b = 0; b < grid; b++)
			want -= part[b];
		bad += want != 0;
		usleep(4000);
	}
	ms = app_now_ms() - t0;
	snprintf(extra, sizeof extra, "streams=1 rounds=%d elements=%zu host_sleep_us=4000", ROUNDS, n);
	return app_done(bad, ms, extra);
}
