/* low-kernel-concurrency.cu: pathology low-kernel-concurrency: 256 independent kernels of one 256-thread block
 * each (about 40 us: a sum of 4096 generated elements, then a wait on the clock), all issued to ONE stream, so
 * they run one at a time on a GPU with room for all of them at once (a block uses one SM). No copies: results go
 * straight to mapped pinned memory. Expected: low-kernel-concurrency. */
#include "common.cuh"

const char *app_name = "low-kernel-concurrency";

#define KERNELS 256
#define ELEMS 4096

int main(void)
{
	cudaStream_t s;
	uint32_t *part;
	size_t bad = 0;
	double t0, ms;
	char extra[128];

	app_init();
	CHECK(cudaHostAlloc((void **)&part, KERNELS * sizeof(uint32_t), cudaHostAllocMapped));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	app_sum<<<1, 256, 0, s>>>(NULL, 0, ELEMS, 0u, part, 0);
	CHECK(cudaGetLastError());
	CHECK(cudaStreamSynchronize(s));
	t0 = app_now_ms();
	for (int k = 0; k < KERNELS; k++) {
		app_sum<<<1, 256, 0, s>>>(NULL, (size_t)k * ELEMS, ELEMS, (uint32_t)k, part + k, 40000ull);
		CHECK(cudaGetLastError());
	}
	CHECK(cudaStreamSynchronize(s));
	ms = app_now_ms() - t0;
	for (int k = 0; k < KERNELS; k++)
		bad += part[k] != app_sum_host(NULL, (size_t)k * ELEMS, ELEMS, (uint32_t)k);
	snprintf(extra, sizeof extra, "streams=1 kernels=%d blocks_per_kernel=1 spin_ns=40000", KERNELS);
	return app_done(bad, ms, extra);
}
